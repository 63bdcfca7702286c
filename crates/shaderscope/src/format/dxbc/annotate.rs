//! `dump` for DXBC: the header, the index, and each chunk's fields, every byte range once.
//!
//! The index is one table (described entry by entry when shown), and each chunk is annotated
//! once however many index entries point at it: a container of a few megabytes whose index
//! names one chunk millions of times costs one record for the index and one chunk's
//! annotations. A chunk that failed to parse shows its payload as one field that says why,
//! and the failure is recorded ([`Annotations::error`]).

use super::Dxbc;
use super::chunks::Words;
use super::container::{Chunk, FourCC, HEADER_SIZE};
use super::rdef::Rdef;
use super::signature::{ElementLayout, Signature};
use crate::dump::Annotations;
use crate::error::Error;
use crate::print::count;
use crate::toolkit::{Cstr, Endian};
use std::fmt::Write;

/// Annotate every byte of the container.
pub fn annotate(d: &Dxbc<'_>, a: &mut Annotations) {
    let f = &d.frame;
    a.section(0, HEADER_SIZE as u64, "DXBC header");
    a.field(0, 4, "magic \"DXBC\"");
    a.field(
        4,
        16,
        format_args!(
            "checksum {} ({})",
            super::checksum::hex(&f.header.checksum),
            if d.checksum_ok() { "matches" } else { "does not match the contents" }
        ),
    );
    a.field(20, 4, format_args!("version word: {}", f.header.one.get()));
    a.field(24, 4, format_args!("container size: {}", f.header.total_size.get()));
    a.field(28, 4, format_args!("chunk count: {}", f.header.chunk_count.get()));
    let container = f.container();
    let count = u64::from(f.header.chunk_count.get());
    a.section(HEADER_SIZE as u64, 4 * count, "chunk index");
    a.table(HEADER_SIZE as u64, 4, count, index_entry);
    // Each chunk once, by the first index entry that names it.
    // (offset, index), both below 2^32 (the container size is a u32).
    let mut order: Vec<(u32, u32)> =
        f.chunks.iter().zip(0..).map(|(c, i)| (u32::try_from(c.offset).unwrap_or(u32::MAX), i)).collect();
    order.sort_unstable();
    order.dedup_by_key(|c| c.0);
    let index_end = (HEADER_SIZE as u64 + 4 * count).min(container.len() as u64) as usize;
    let cut = cut_chunk(d, a);
    let claimed: Vec<std::ops::Range<usize>> = std::iter::once(0..index_end)
        .chain(order.iter().filter_map(|&(_, i)| f.chunks.get(i as usize)).map(|c| c.offset..c.end()))
        .chain(cut)
        .collect();
    for (at, bytes) in crate::toolkit::layout::filler(container, container.len(), &claimed) {
        let what = if bytes.iter().all(|&b| b == 0) { "padding" } else { "bytes outside every chunk" };
        a.field(u64::from(at), bytes.len() as u64, what);
    }
    for (_, i) in order {
        if let Some(c) = f.chunks.get(i as usize) {
            chunk(d, i as usize, c, a);
        }
    }
    if !f.trailing.is_empty() {
        a.field(
            u64::from(f.header.total_size.get()),
            f.trailing.len() as u64,
            "bytes after the declared container size",
        );
    }
}

/// In a container read only in part ([`Dxbc::parse_partial`]), the chunk where reading
/// stopped: its header where the file has it, and what the file has of its payload. Returns
/// the bytes it claims.
fn cut_chunk(d: &Dxbc<'_>, a: &mut Annotations) -> Option<std::ops::Range<usize>> {
    let f = &d.frame;
    let index = f.chunks.len();
    if index as u64 >= u64::from(f.header.chunk_count.get()) {
        return None;
    }
    let r = crate::toolkit::Reader::new(f.container(), Endian::Little);
    let offset = r.u32_at(HEADER_SIZE + 4 * index, "index entry").ok()?;
    let at = offset as usize;
    let (Ok(tag), Ok(size)) = (r.array_at::<4>(at, "FourCC"), r.u32_at(at.saturating_add(4), "size")) else {
        return None;
    };
    let tag = FourCC(tag);
    let start = u64::from(offset);
    let have = (f.container().len() as u64).saturating_sub(start + 8).min(u64::from(size));
    a.section(
        start,
        8 + have,
        format_args!("chunk {index} {tag} ({}), cut short", super::chunk_description(&tag.0)),
    );
    a.field(start, 4, format_args!("FourCC \"{tag}\""));
    a.field(start + 4, 4, format_args!("size: {size}"));
    if have > 0 {
        a.field(
            start + 8,
            have,
            format_args!("payload, cut short: {have} of {} in the file", count(size, "byte")),
        );
    }
    Some(at..at + 8 + have as usize)
}

/// An index entry: the chunk offset, with the tag found there.
fn index_entry(data: &[u8], i: u64, at: u64, out: &mut String) {
    let word = |o: u64| {
        let o = usize::try_from(o).ok()?;
        data.get(o..o.checked_add(4)?)?.try_into().ok()
    };
    let Some(offset) = word(at).map(u32::from_le_bytes) else { return };
    let _ = match word(u64::from(offset)) {
        Some(tag) => write!(out, "chunk {i} ({}) at 0x{offset:x}", FourCC(tag)),
        None => write!(out, "chunk {i} at 0x{offset:x} (past the end)"),
    };
}

/// The error of the chunk at `c`'s offset, if it failed to parse.
fn chunk_error<'d>(d: &'d Dxbc<'_>, c: &Chunk<'_>) -> Option<&'d Error> {
    d.chunk_errors
        .iter()
        .find(|(i, _)| d.frame.chunks.get(*i).is_some_and(|x| x.offset == c.offset))
        .map(|(_, e)| e)
}

fn chunk(d: &Dxbc<'_>, index: usize, c: &Chunk<'_>, a: &mut Annotations) {
    let start = c.offset as u64;
    a.section(
        start,
        8 + c.data.len() as u64,
        format_args!("chunk {index} {} ({})", c.fourcc, super::chunk_description(&c.fourcc.0)),
    );
    a.field(start, 4, format_args!("FourCC \"{}\"", c.fourcc));
    a.field(start + 4, 4, format_args!("size: {}", c.data.len()));
    let base = c.data_offset() as u64;
    let len = c.data.len() as u64;
    if let Some(e) = chunk_error(d, c) {
        a.field(base, len, format_args!("payload not read: {e}"));
        a.error(e.offset(), e);
        return;
    }
    if payload(d, c, a) {
        // Whatever the model of the chunk does not cover.
        a.fallback(base, len, format_args!("{} data not modelled", c.fourcc));
    } else if len > 0 {
        let modelled = matches!(
            &c.fourcc.0,
            b"RDEF"
                | b"ISGN"
                | b"OSGN"
                | b"PCSG"
                | b"OSG5"
                | b"ISG1"
                | b"OSG1"
                | b"PSG1"
                | b"SHDR"
                | b"SHEX"
                | b"STAT"
                | b"SFI0"
                | b"IFCE"
                | b"Aon9"
                | b"RTS0"
        );
        if modelled {
            a.field(base, len, format_args!("payload (another {} chunk: only the first is read)", c.fourcc));
        } else {
            a.field(base, len, "payload (kept as bytes, not modelled)");
        }
    }
}

/// The fields of a modelled chunk's payload; false when `c` is not the chunk its model was
/// read from.
fn payload(d: &Dxbc<'_>, c: &Chunk<'_>, a: &mut Annotations) -> bool {
    let base = c.data_offset();
    match &c.fourcc.0 {
        b"RDEF" => d.rdef.as_ref().filter(|r| r.offset == base).map(|r| rdef(r, c, a)).is_some(),
        b"ISGN" | b"OSGN" | b"PCSG" | b"OSG5" | b"ISG1" | b"OSG1" | b"PSG1" => {
            [&d.input, &d.output, &d.patch_constant]
                .into_iter()
                .flatten()
                .find(|s| s.offset == base)
                .map(|s| signature(s, c, a))
                .is_some()
        }
        b"SHDR" | b"SHEX" => {
            d.program.filter(|p| p.chunk.offset == c.offset).map(|p| program(d, &p, a)).is_some()
        }
        b"STAT" => {
            if d.stat.as_ref().is_none_or(|s| s.offset != base) {
                return false;
            }
            let words = Words::new(c.data);
            for (i, w) in words.iter().enumerate() {
                let name = super::chunks::STAT_FIELDS.get(i).copied().unwrap_or("unknown");
                a.field((base + 4 * i) as u64, 4, format_args!("{name}: {w}"));
            }
            true
        }
        b"SFI0" => d
            .sfi0
            .as_ref()
            .filter(|s| s.offset == base)
            .map(|s| {
                a.field(
                    base as u64,
                    8,
                    format_args!("required features 0x{:x}: {}", s.flags, s.names().join(", ")),
                );
                if !s.rest.is_empty() {
                    a.field(base as u64 + 8, s.rest.len() as u64, "bytes after the feature flags");
                }
            })
            .is_some(),
        b"Aon9" => d.aon9.as_ref().filter(|x| x.offset == base).map(|x| aon9(x, a)).is_some(),
        b"IFCE" => d.ifce.as_ref().filter(|x| x.offset == base).map(|i| ifce(i, c, a)).is_some(),
        b"RTS0" => {
            d.root_signature.as_ref().filter(|x| x.offset == base).map(|rs| root_signature(rs, a)).is_some()
        }
        _ => false,
    }
}

/// The SM4/5 program: its two header tokens, then each instruction's tokens with the
/// instruction as the listing prints it.
fn program(d: &Dxbc<'_>, p: &super::Program<'_>, a: &mut Annotations) {
    let c = &p.chunk;
    let base = c.data_offset() as u64;
    let r = c.reader(Endian::Little);
    let v = r.u32_at(0, "version token").unwrap_or(0);
    a.field(base, 4, format_args!("version token 0x{v:08x} ({})", p.version_text()));
    a.field(base + 4, 4, format_args!("length: {}", count(p.length, "token")));
    let end = base + c.data.len() as u64;
    let program = match super::program::decode(p) {
        Ok(program) => program,
        Err(e) => {
            if end > base + 8 {
                a.field(base + 8, end - base - 8, format_args!("tokens not decoded: {e}"));
            }
            a.error(e.offset(), format_args!("{e}"));
            return;
        }
    };
    let (generation, _) = d.generation();
    let style = super::program::sm4_style(generation, false, false);
    let mut next = base + 8;
    let result = crate::isa::sm4::each_record(&program, &style, |inst, record| {
        let len = 4 * inst.tokens.len() as u64;
        next = inst.offset + len;
        match (record, inst.custom_data_class()) {
            (Some(r), _) if r.text.is_empty() => {
                a.field(inst.offset, len, format_args!("unknown opcode {}", inst.opcode));
            }
            (Some(r), _) => a.field(inst.offset, len, OneLine(&r.text)),
            (None, class) => a.field(
                inst.offset,
                len,
                format_args!(
                    "custom data block ({}, {})",
                    match class {
                        Some(0) => "comment",
                        Some(1) => "debug information",
                        Some(2) => "opaque data",
                        _ => "unknown class",
                    },
                    count(inst.tokens.len(), "token")
                ),
            ),
        }
    });
    if let Err(e) = result {
        if end > next {
            a.field(next, end - next, format_args!("tokens not decoded: {e}"));
        }
        a.error(e.offset(), format_args!("{e}"));
        return;
    }
    if end > next {
        a.field(next, end - next, "after the last instruction (the length token ends the program)");
    }
}

/// A listing text on one line (an immediate constant buffer spans several).
struct OneLine<'t>(&'t str);

impl std::fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, part) in self.0.split('\n').map(str::trim).filter(|p| !p.is_empty()).enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            f.write_str(part)?;
        }
        Ok(())
    }
}

fn aon9(x: &super::chunks::Aon9<'_>, a: &mut Annotations) {
    let base = x.offset as u64;
    a.field(base, 4, format_args!("size word: {}", x.size_word));
    a.field(base + 4, 4, format_args!("D3D9 version token 0x{:08x}", x.version));
    a.field(base + 8, 4, format_args!("D3D9 program size: {}", x.program.len()));
    a.field(base + 12, 4, format_args!("D3D9 program offset: {}", x.program_offset));
    for (i, (n, o)) in x.tables.iter().enumerate() {
        a.field(
            base + 16 + 4 * i as u64,
            4,
            format_args!("mapping table {i}: {} at {o}", count(*n, "entry")),
        );
    }
    for m in &x.cb_mappings {
        a.field(
            m.offset as u64,
            12,
            format_args!("c{} <- cb{}[{}..+{}]", m.target, m.buffer, m.start, m.count),
        );
    }
    for m in &x.sampler_mappings {
        a.field(m.offset as u64, 4, format_args!("s{} <- s{} / t{}", m.target, m.sampler, m.resource));
    }
    for r in &x.runtime_constants {
        a.field(r.offset as u64, 4, format_args!("c{}: runtime constant {}", r.target, r.kind));
    }
    let at = x.program_position() as u64;
    match crate::isa::d3d9::Program::parse_partial(x.program, at) {
        Ok((p, None)) => crate::isa::d3d9::annotate_program(&p, a),
        Ok((p, Some(e))) => {
            crate::isa::d3d9::annotate_partial(&p, &e, at + x.program.len() as u64, a);
            a.error(e.offset(), format_args!("Aon9 D3D9 program: {e}"));
        }
        Err(e) => {
            a.field(at, x.program.len() as u64, format_args!("D3D9 program not read: {e}"));
            a.error(e.offset(), format_args!("Aon9 D3D9 program: {e}"));
        }
    }
}

fn ifce(i: &super::chunks::Ifce<'_>, c: &Chunk<'_>, a: &mut Annotations) {
    let base = c.data_offset() as u64;
    a.field(
        base,
        36,
        format_args!(
            "class linkage header: {}, {}, {}, {}",
            count(i.class_instances.len(), "instance"),
            count(i.class_types.len(), "type"),
            count(i.slots.len(), "slot record"),
            count(i.slot_count, "slot")
        ),
    );
    let mut strings = Strings::default();
    for t in &i.class_types {
        a.field(t.offset as u64, 12, format_args!("class type {}", t.name));
        strings.add(&t.name, "name");
    }
    for t in &i.class_instances {
        a.field(t.offset as u64, 16, format_args!("class instance {}", t.name));
        strings.add(&t.name, "name");
    }
    for sl in &i.slots {
        a.field(
            sl.offset as u64,
            16,
            format_args!("interface slot record: span {}, {}", sl.span, count(sl.type_ids.len(), "type")),
        );
    }
    strings.finish(c, 0, a);
}

fn root_signature(rs: &super::chunks::RootSignature, a: &mut Annotations) {
    let base = rs.offset as u64;
    a.field(
        base,
        24,
        format_args!(
            "root signature {} header: {}, {}, flags 0x{:x}",
            if rs.version == 2 { "1.1" } else { "1.0" },
            count(rs.parameters.len(), "parameter"),
            count(rs.static_samplers.len(), "static sampler"),
            rs.flags
        ),
    );
    for p in &rs.parameters {
        a.field(
            p.offset as u64,
            12,
            format_args!("parameter type {}, visibility {}", p.parameter_type, p.visibility),
        );
        let at = p.payload_offset as u64;
        match &p.payload {
            super::chunks::RootPayload::Table { ranges } => {
                a.field(at, 8, format_args!("descriptor table: {} ranges", ranges.len()));
                let size = if rs.version == 2 { 24 } else { 20 };
                for r in ranges {
                    a.field(
                        r.offset as u64,
                        size,
                        format_args!(
                            "range type {}, {} from register {} space {}",
                            r.range_type,
                            count(r.count, "descriptor"),
                            r.base_register,
                            r.space
                        ),
                    );
                }
            }
            super::chunks::RootPayload::Constants { register, space, count } => {
                a.field(
                    at,
                    12,
                    format_args!(
                        "{} at b{register} space {space}",
                        crate::print::count(*count, "root constant")
                    ),
                );
            }
            super::chunks::RootPayload::Descriptor { register, space, .. } => {
                let size = if rs.version == 2 { 12 } else { 8 };
                a.field(at, size, format_args!("root descriptor register {register} space {space}"));
            }
        }
    }
    for smp in &rs.static_samplers {
        a.field(smp.offset as u64, 52, format_args!("static sampler s{} space {}", smp.register, smp.space));
    }
}

/// The strings of a chunk's string pool, each annotated once however many records name it,
/// with the 0xAB bytes fxc pads after them.
#[derive(Default)]
struct Strings<'a> {
    /// (string, label), in the order met.
    list: Vec<(Cstr<'a>, &'static str)>,
}

impl<'a> Strings<'a> {
    fn add(&mut self, s: &Cstr<'a>, label: &'static str) {
        self.list.push((*s, label));
    }

    /// Annotate the strings and the padding after them; `last` is the end of the chunk's last
    /// structure that is not a string (a default value), so that the bytes from the last of
    /// everything to the chunk's end are padding.
    fn finish(mut self, c: &Chunk<'_>, last: usize, a: &mut Annotations) {
        self.list.sort_by_key(|(s, label)| (s.offset, *label));
        self.list.dedup_by_key(|(s, label)| (s.offset, *label));
        let chunk_end = c.end() as u64;
        let mut end_of_all = last as u64;
        for (k, (s, label)) in self.list.iter().enumerate() {
            let end = s.offset + s.len() as u64 + 1;
            a.field(s.offset, s.len() as u64 + 1, format_args!("{label} \"{s}\""));
            // The 0xAB run after it, up to the next string.
            let next =
                self.list.get(k + 1..).unwrap_or(&[]).iter().map(|(n, _)| n.offset).find(|&o| o >= end);
            let limit = next.unwrap_or(chunk_end).min(chunk_end);
            let rel = (end as usize).saturating_sub(c.data_offset());
            let run = c.data.get(rel..).unwrap_or(&[]).iter().take((limit.saturating_sub(end)) as usize);
            let pad = run.take_while(|&&b| b == 0xAB).count() as u64;
            if pad > 0 {
                a.field(end, pad, "padding (0xAB)");
            }
            end_of_all = end_of_all.max(end + pad);
        }
        if end_of_all > c.data_offset() as u64 && end_of_all < chunk_end {
            a.field(end_of_all, chunk_end - end_of_all, "padding");
        }
    }
}

fn signature(s: &Signature<'_>, c: &Chunk<'_>, a: &mut Annotations) {
    let base = c.data_offset() as u64;
    a.field(base, 4, format_args!("element count: {}", s.elements.len()));
    a.field(base + 4, 4, format_args!("element offset: {}", s.element_offset));
    let size = s.layout.size() as u64;
    let mut strings = Strings::default();
    for e in &s.elements {
        a.field(
            e.offset as u64,
            size,
            format_args!(
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
            ),
        );
        strings.add(&e.name, "name");
    }
    strings.finish(c, 0, a);
}

fn rdef(r: &Rdef<'_>, c: &Chunk<'_>, a: &mut Annotations) {
    let base = c.data_offset() as u64;
    a.field(base, 4, format_args!("constant buffer count: {}", r.constant_buffers.len()));
    a.field(base + 4, 4, format_args!("constant buffer offset: {}", r.cb_offset));
    a.field(base + 8, 4, format_args!("binding count: {}", r.bindings.len()));
    a.field(base + 12, 4, format_args!("binding offset: {}", r.binding_offset));
    a.field(
        base + 16,
        4,
        format_args!("target {}.{}, program type 0x{:04x}", r.major, r.minor, r.program_type),
    );
    a.field(base + 20, 4, format_args!("compile flags: 0x{:x}", r.flags));
    a.field(base + 24, 4, format_args!("creator offset: {}", r.creator_offset));
    if let Some(w) = r.rd11 {
        a.field(
            base + 28,
            32,
            format_args!(
                "RD11 header: magic 0x{:08x}, sizes: header {}, cbuffer {}, binding {}, variable {}, type {}, member {}; interface slots {}",
                w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]
            ),
        );
    }
    let mut strings = Strings::default();
    let mut last = 0;
    let var_size = if r.rd11.is_some() { 40 } else { 24 };
    for cb in &r.constant_buffers {
        a.field(
            cb.offset as u64,
            24,
            format_args!("constant buffer {} (size {}, type {})", cb.name, cb.size, cb.kind),
        );
        strings.add(&cb.name, "name");
        for v in &cb.variables {
            a.field(
                v.offset as u64,
                var_size,
                format_args!("variable {} (offset {}, size {})", v.name, v.start, v.size),
            );
            strings.add(&v.name, "name");
            if let Some(def) = v.default {
                let at = base + u64::from(v.default_offset);
                a.field(at, def.len() as u64, format_args!("default value of {}", v.name));
                last = last.max(at as usize + def.len());
            }
        }
    }
    let type_size = if r.rd11.is_some() { 36 } else { 16 };
    for t in &r.types {
        a.field(
            t.offset as u64,
            type_size,
            format_args!(
                "type {} (class {}, {})",
                super::listing::type_name(t),
                t.class,
                count(t.members.len(), "member")
            ),
        );
        if let Some(n) = &t.name {
            strings.add(n, "type name");
        }
        for m in &t.members {
            a.field(m.offset as u64, 12, format_args!("member {} at {}", m.name, m.start));
            strings.add(&m.name, "name");
        }
    }
    let bind_size = if r.bindings.iter().any(|b| b.space_id.is_some()) { 40 } else { 32 };
    for b in &r.bindings {
        a.field(
            b.offset as u64,
            bind_size,
            format_args!(
                "binding {} (type {}, slot {}, count {})",
                b.name, b.input_type, b.bind_point, b.bind_count
            ),
        );
        strings.add(&b.name, "name");
    }
    strings.add(&r.creator, "creator");
    strings.finish(c, last, a);
}
