//! `dump` for DXBC: the header, the index, and each chunk's fields.

use super::Dxbc;
use super::chunks::Words;
use super::container::{Chunk, HEADER_SIZE};
use super::rdef::Rdef;
use super::signature::{ElementLayout, Signature};
use crate::dump::Annotations;
use crate::toolkit::{Cstr, Endian};

/// Annotate every byte of the container.
pub fn annotate(d: &Dxbc<'_>, a: &mut Annotations) {
    let f = &d.frame;
    a.section(0, HEADER_SIZE as u64, "DXBC header");
    a.field(0, 4, "magic \"DXBC\"");
    a.field(
        4,
        16,
        format!(
            "checksum {} ({})",
            super::checksum::hex(&f.header.checksum),
            if d.checksum_ok() { "matches" } else { "does not match the contents" }
        ),
    );
    a.field(20, 4, format!("version word: {}", f.header.one.get()));
    a.field(24, 4, format!("container size: {}", f.header.total_size.get()));
    a.field(28, 4, format!("chunk count: {}", f.chunks.len()));
    let index_len = 4 * f.chunks.len() as u64;
    a.section(HEADER_SIZE as u64, index_len, "chunk index");
    for (i, c) in f.chunks.iter().enumerate() {
        a.field((HEADER_SIZE + 4 * i) as u64, 4, format!("chunk {i} ({}) at 0x{:x}", c.fourcc, c.offset));
    }
    let layout = f.layout();
    for c in &f.chunks {
        if let Some((at, gap)) = layout.gap_before(c.offset) {
            a.field(u64::from(*at), gap.len() as u64, "padding before chunk");
        }
    }
    for (i, c) in f.chunks.iter().enumerate() {
        chunk(d, i, c, a);
    }
    if !f.trailing.is_empty() {
        a.field(
            u64::from(f.header.total_size.get()),
            f.trailing.len() as u64,
            "bytes after the declared container size",
        );
    }
}

fn chunk(d: &Dxbc<'_>, index: usize, c: &Chunk<'_>, a: &mut Annotations) {
    let start = c.offset as u64;
    a.section(
        start,
        8 + c.data.len() as u64,
        format!("chunk {index} {} ({})", c.fourcc, super::chunk_description(&c.fourcc.0)),
    );
    a.field(start, 4, format!("FourCC \"{}\"", c.fourcc));
    a.field(start + 4, 4, format!("size: {}", c.data.len()));
    let base = c.data_offset();
    match &c.fourcc.0 {
        b"RDEF" => {
            if let Some(r) = d.rdef.as_ref().filter(|r| r.offset == base) {
                rdef(r, c, a);
            }
        }
        b"ISGN" | b"OSGN" | b"PCSG" | b"OSG5" | b"ISG1" | b"OSG1" | b"PSG1" => {
            if let Some(s) =
                [&d.input, &d.output, &d.patch_constant].into_iter().flatten().find(|s| s.offset == base)
            {
                signature(s, c, a);
            }
        }
        b"SHDR" | b"SHEX" => {
            let r = c.reader(Endian::Little);
            let v = r.u32_at(0, "version token").unwrap_or(0);
            let p = d.program.filter(|p| p.chunk.offset == c.offset);
            a.field(
                base as u64,
                4,
                format!(
                    "version token 0x{v:08x}{}",
                    p.map(|p| format!(" ({})", p.version_text())).unwrap_or_default()
                ),
            );
            a.field(
                base as u64 + 4,
                4,
                format!("length: {} tokens", r.u32_at(4, "length token").unwrap_or(0)),
            );
            if c.data.len() > 8 {
                a.field(
                    base as u64 + 8,
                    c.data.len() as u64 - 8,
                    "instruction tokens (see disasm --offsets)",
                );
            }
        }
        b"STAT" => {
            for (i, w) in Words::new(c.data).iter().enumerate() {
                let name = super::chunks::STAT_FIELDS.get(i).copied().unwrap_or("unknown");
                a.field((base + 4 * i) as u64, 4, format!("{name}: {w}"));
            }
        }
        b"SFI0" => {
            if let Some(s) = &d.sfi0 {
                a.field(
                    base as u64,
                    8,
                    format!("required features 0x{:x}: {}", s.flags, s.names().join(", ")),
                );
            }
        }
        b"Aon9" => {
            if let Some(x) = d.aon9.as_ref().filter(|x| x.offset == base) {
                a.field(base as u64, 4, format!("size word: {}", x.size_word));
                a.field(base as u64 + 4, 4, format!("D3D9 version token 0x{:08x}", x.version));
                a.field(base as u64 + 8, 4, format!("D3D9 program size: {}", x.program.len()));
                a.field(base as u64 + 12, 4, format!("D3D9 program offset: {}", x.program_offset));
                for (i, (n, o)) in x.tables.iter().enumerate() {
                    a.field((base + 16 + 4 * i) as u64, 4, format!("mapping table {i}: {n} entries at {o}"));
                }
                for m in &x.cb_mappings {
                    a.field(
                        m.offset as u64,
                        12,
                        format!("c{} <- cb{}[{}..+{}]", m.target, m.buffer, m.start, m.count),
                    );
                }
                for m in &x.sampler_mappings {
                    a.field(m.offset as u64, 4, format!("s{} <- s{} / t{}", m.target, m.sampler, m.resource));
                }
                for r in &x.runtime_constants {
                    a.field(r.offset as u64, 4, format!("c{}: runtime constant {}", r.target, r.kind));
                }
                a.field(x.program_position() as u64, x.program.len() as u64, "D3D9 program (see disasm)");
            }
        }
        b"IFCE" => {
            if let Some(i) = d.ifce.as_ref().filter(|x| x.offset == base) {
                a.field(
                    base as u64,
                    36,
                    format!(
                        "class linkage header: {} instances, {} types, {} slot records, {} slots",
                        i.class_instances.len(),
                        i.class_types.len(),
                        i.slots.len(),
                        i.slot_count
                    ),
                );
                for t in &i.class_types {
                    a.field(t.offset as u64, 12, format!("class type {}", t.name));
                    string(a, c, &t.name, "name");
                }
                for t in &i.class_instances {
                    a.field(t.offset as u64, 16, format!("class instance {}", t.name));
                    string(a, c, &t.name, "name");
                }
                for sl in &i.slots {
                    a.field(
                        sl.offset as u64,
                        16,
                        format!("interface slot record: span {}, {} types", sl.span, sl.type_ids.len()),
                    );
                }
            }
        }
        b"RTS0" => {
            if let Some(rs) = d.root_signature.as_ref().filter(|x| x.offset == base) {
                a.field(
                    base as u64,
                    24,
                    format!(
                        "root signature {} header: {} parameters, {} static samplers, flags 0x{:x}",
                        if rs.version == 2 { "1.1" } else { "1.0" },
                        rs.parameters.len(),
                        rs.static_samplers.len(),
                        rs.flags
                    ),
                );
                for p in &rs.parameters {
                    a.field(
                        p.offset as u64,
                        12,
                        format!("parameter type {}, visibility {}", p.parameter_type, p.visibility),
                    );
                    let at = p.payload_offset as u64;
                    match &p.payload {
                        super::chunks::RootPayload::Table { ranges } => {
                            a.field(at, 8, format!("descriptor table: {} ranges", ranges.len()));
                            let size = if rs.version == 2 { 24 } else { 20 };
                            for r in ranges {
                                a.field(
                                    r.offset as u64,
                                    size,
                                    format!(
                                        "range type {}, {} descriptors from register {} space {}",
                                        r.range_type, r.count, r.base_register, r.space
                                    ),
                                );
                            }
                        }
                        super::chunks::RootPayload::Constants { register, space, count } => {
                            a.field(at, 12, format!("{count} root constants at b{register} space {space}"));
                        }
                        super::chunks::RootPayload::Descriptor { register, space, .. } => {
                            let size = if rs.version == 2 { 12 } else { 8 };
                            a.field(at, size, format!("root descriptor register {register} space {space}"));
                        }
                    }
                }
                for smp in &rs.static_samplers {
                    a.field(
                        smp.offset as u64,
                        52,
                        format!("static sampler s{} space {}", smp.register, smp.space),
                    );
                }
            }
        }
        _ => {
            if !c.data.is_empty() && !matches!(&c.fourcc.0, b"IFCE" | b"SFI0") {
                a.field(base as u64, c.data.len() as u64, "payload (kept as bytes, not modelled)");
            }
        }
    }
}

/// The bytes between the end of a chunk's last string and the chunk's end: fxc pads its string
/// pools with 0xAB up to a multiple of 4.
fn string_padding(c: &Chunk<'_>, last_string_end: usize, a: &mut Annotations) {
    if last_string_end > c.data_offset() && last_string_end < c.end() {
        let n = c.end() - last_string_end;
        let what = if c.data.ends_with(&vec![0xAB; n]) { "padding (0xAB)" } else { "padding" };
        a.field(last_string_end as u64, n as u64, what);
    }
}

/// Absolute offset just past a string's NUL.
fn string_end(s: &Cstr<'_>) -> usize {
    s.offset as usize + s.len() + 1
}

/// A string and the 0xAB bytes fxc writes after it up to the next 4-byte boundary.
fn string(a: &mut Annotations, c: &Chunk<'_>, s: &Cstr<'_>, label: &str) {
    let end = s.offset as usize + s.len() + 1;
    a.field(s.offset, s.len() as u64 + 1, format!("{label} \"{s}\""));
    let rel = end.saturating_sub(c.data_offset());
    let aligned = (rel + 3) & !3;
    let pad = aligned - rel;
    let bytes = c.data.get(rel..aligned).unwrap_or(&[]);
    if pad > 0 && bytes.len() == pad && bytes.iter().all(|&b| b == 0xAB) {
        a.field(end as u64, pad as u64, "padding (0xAB)");
    }
}

fn signature(s: &Signature<'_>, c: &Chunk<'_>, a: &mut Annotations) {
    let last = s.elements.iter().map(|e| string_end(&e.name)).max().unwrap_or(0);
    string_padding(c, last, a);
    let base = c.data_offset() as u64;
    a.field(base, 4, format!("element count: {}", s.elements.len()));
    a.field(base + 4, 4, format!("element offset: {}", s.element_offset));
    let size = s.layout.size() as u64;
    for e in &s.elements {
        let what = format!(
            "{} {}{}: register {}, mask 0x{:x}, rw 0x{:x}, system value {}, type {}",
            match s.layout {
                ElementLayout::Plain => "element",
                _ => "element (with stream)",
            },
            e.name,
            e.semantic_index,
            e.register,
            e.mask,
            e.rw_mask,
            e.system_value,
            e.component_type
        );
        a.field(e.offset as u64, size, what);
        string(a, c, &e.name, "name");
    }
}

fn rdef(r: &Rdef<'_>, c: &Chunk<'_>, a: &mut Annotations) {
    let mut last = string_end(&r.creator);
    for cb in &r.constant_buffers {
        last = last.max(string_end(&cb.name));
        for v in &cb.variables {
            last = last.max(string_end(&v.name));
            if let Some(d) = v.default {
                last = last.max(c.data_offset() + v.default_offset as usize + d.len());
            }
        }
    }
    for t in &r.types {
        if let Some(n) = &t.name {
            last = last.max(string_end(n));
        }
        for m in &t.members {
            last = last.max(string_end(&m.name));
        }
    }
    for b in &r.bindings {
        last = last.max(string_end(&b.name));
    }
    string_padding(c, last, a);
    let base = c.data_offset() as u64;
    a.field(base, 4, format!("constant buffer count: {}", r.constant_buffers.len()));
    a.field(base + 4, 4, format!("constant buffer offset: {}", r.cb_offset));
    a.field(base + 8, 4, format!("binding count: {}", r.bindings.len()));
    a.field(base + 12, 4, format!("binding offset: {}", r.binding_offset));
    a.field(base + 16, 4, format!("target {}.{}, program type 0x{:04x}", r.major, r.minor, r.program_type));
    a.field(base + 20, 4, format!("compile flags: 0x{:x}", r.flags));
    a.field(base + 24, 4, format!("creator offset: {}", r.creator_offset));
    if let Some(w) = r.rd11 {
        a.field(
            base + 28,
            32,
            format!(
                "RD11 header: magic 0x{:08x}, sizes: header {}, cbuffer {}, binding {}, variable {}, type {}, member {}; interface slots {}",
                w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]
            ),
        );
    }
    let var_size = if r.rd11.is_some() { 40 } else { 24 };
    for cb in &r.constant_buffers {
        a.field(
            cb.offset as u64,
            24,
            format!("constant buffer {} (size {}, type {})", cb.name, cb.size, cb.kind),
        );
        string(a, c, &cb.name, "name");
        for v in &cb.variables {
            a.field(
                v.offset as u64,
                var_size,
                format!("variable {} (offset {}, size {})", v.name, v.start, v.size),
            );
            string(a, c, &v.name, "name");
            if let Some(def) = v.default {
                a.field(
                    base + u64::from(v.default_offset),
                    def.len() as u64,
                    format!("default value of {}", v.name),
                );
            }
        }
    }
    let type_size = if r.rd11.is_some() { 36 } else { 16 };
    for t in &r.types {
        a.field(
            t.offset as u64,
            type_size,
            format!("type {} (class {}, {} members)", super::listing::type_name(t), t.class, t.members.len()),
        );
        if let Some(n) = t.name {
            string(a, c, &n, "type name");
        }
        for m in &t.members {
            a.field(m.offset as u64, 12, format!("member {} at {}", m.name, m.start));
            string(a, c, &m.name, "name");
        }
    }
    let bind_size = if r.bindings.iter().any(|b| b.space_id.is_some()) { 40 } else { 32 };
    for b in &r.bindings {
        a.field(
            b.offset as u64,
            bind_size,
            format!(
                "binding {} (type {}, slot {}, count {})",
                b.name, b.input_type, b.bind_point, b.bind_count
            ),
        );
        string(a, c, &b.name, "name");
    }
    string(a, c, &r.creator, "creator");
}
