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
        format_args!("chunk {index} {tag} ({}), cut short", d.chunk_description(&tag.0)),
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
        format_args!("chunk {index} {} ({})", c.fourcc, d.chunk_description(&c.fourcc.0)),
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
            b"PSV0"
                | b"RDAT"
                | b"ILDN"
                | b"HASH"
                | b"VERS"
                | b"DXIL"
                | b"RDEF"
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
        } else if &c.fourcc.0 == b"ILDB" {
            a.field(base, len, "the program with debug information (not read: the DXIL chunk is)");
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
        b"DXIL" | b"ILDB" => {
            d.dxil.as_ref().filter(|p| p.position() == base).map(|p| dxil_program(p, "bitcode", a)).is_some()
        }
        b"STAT" if d.is_dxil() => d
            .reflection
            .as_ref()
            .filter(|p| p.position() == base)
            .map(|p| dxil_program(p, super::REFLECTION_BITCODE, a))
            .is_some(),
        b"PSV0" => d.psv.as_ref().filter(|p| p.offset == base).map(|p| psv(d, p, a)).is_some(),
        b"RDAT" => d.rdat.as_ref().filter(|r| r.offset == base).map(|r| rdat(r, c, a)).is_some(),
        b"ILDN" => d.debug_name.as_ref().filter(|n| n.offset == base).map(|n| debug_name(n, a)).is_some(),
        b"HASH" => {
            d.shader_hash.as_ref().filter(|h| h.offset == base).map(|h| shader_hash(d, h, a)).is_some()
        }
        b"VERS" => {
            d.compiler_version.as_ref().filter(|v| v.offset == base).map(|v| compiler_version(v, a)).is_some()
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
    let style = crate::isa::sm4::ListingStyle::of(generation, &crate::model::DisasmOptions::default());
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
        a.field(
            t.offset as u64,
            16,
            format_args!("class instance {} ({})", t.name, count(t.elements, "element")),
        );
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
    // A member table that several types share is described once.
    let mut tables = std::collections::HashSet::new();
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
        if !tables.insert(t.members.as_ptr()) {
            continue;
        }
        for m in t.members.iter() {
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

// ------------------------------------------------------------------ DXC's parts

/// A DXIL program header (DXIL, ILDB, or a DXIL container's STAT) and its bitcode, which
/// `extract` gives as `part`.
fn dxil_program(p: &super::dxil::DxilProgram<'_>, part: &str, a: &mut Annotations) {
    let base = p.position() as u64;
    a.field(base, 4, format_args!("program version 0x{:08x} ({})", p.program_version, p.model()));
    a.field(base + 4, 4, format_args!("size: {}", count(p.size_in_dwords, "dword")));
    a.field(base + 8, 4, "bitcode header magic \"DXIL\"");
    a.field(base + 12, 4, format_args!("DXIL version {}", p.dxil_version_text()));
    a.field(base + 16, 4, format_args!("bitcode offset: {} (from the magic)", p.bitcode_offset));
    a.field(base + 20, 4, format_args!("bitcode size: {}", p.bitcode_size));
    let at = p.bitcode_position() as u64;
    let len = p.bitcode.len() as u64;
    a.field(at, len, format_args!("LLVM bitcode, {} (part `{part}`)", count(len, "byte")));
    // Between the header and the bitcode, and after the bitcode.
    let data = p.chunk.data;
    let end = base + data.len() as u64;
    for (from, to) in [(base + 24, at), ((at + len).max(base + 24), end)] {
        let local = data.get((from - base) as usize..(to.max(from) - base) as usize).unwrap_or(&[]);
        if to > from {
            let zero = local.iter().all(|&x| x == 0);
            a.field(from, to - from, if zero { "padding" } else { "bytes outside the bitcode" });
        }
    }
}

fn debug_name(n: &super::chunks::DebugName<'_>, a: &mut Annotations) {
    let base = n.offset as u64;
    a.field(base, 2, format_args!("flags: 0x{:x}", n.flags));
    a.field(base + 2, 2, format_args!("name length: {}", n.name_length));
    a.field(base + 4, n.name.len() as u64, format_args!("debug name \"{}\"", super::dxc_info::shown(n.name)));
    if !n.padding.is_empty() {
        let zero = n.padding.iter().all(|&b| b == 0);
        a.field(
            base + 4 + n.name.len() as u64,
            n.padding.len() as u64,
            if zero { "NUL and padding" } else { "bytes after the name" },
        );
    }
}

fn compiler_version(v: &super::chunks::CompilerVersion<'_>, a: &mut Annotations) {
    let base = v.offset as u64;
    a.field(base, 4, format_args!("version {}.{}", v.major, v.minor));
    a.field(base + 4, 4, format_args!("flags: 0x{:x}", v.flags));
    a.field(base + 8, 4, format_args!("commit count: {}", v.commit_count));
    a.field(base + 12, 4, format_args!("string list size: {}", v.strings.len()));
    let mut end = base + 16;
    for (s, what) in v.string_list().iter().zip(["commit", "version string"]) {
        let nul = u64::from(s.offset + (s.len() as u64) < base + 16 + v.strings.len() as u64);
        a.field(
            s.offset,
            s.len() as u64 + nul,
            format_args!("{what} \"{}\"", super::dxc_info::shown(s.bytes)),
        );
        end = s.offset + s.len() as u64 + nul;
    }
    let list_end = base + 16 + v.strings.len() as u64;
    if list_end > end {
        a.field(end, list_end - end, "string list bytes after the strings");
    }
    if !v.rest.is_empty() {
        let zero = v.rest.iter().all(|&b| b == 0);
        a.field(list_end, v.rest.len() as u64, if zero { "padding" } else { "bytes after the string list" });
    }
}

fn shader_hash(d: &Dxbc<'_>, h: &super::chunks::ShaderHash<'_>, a: &mut Annotations) {
    let base = h.offset as u64;
    let source = if h.flags & super::chunks::HASH_INCLUDES_SOURCE != 0 { " (includes source)" } else { "" };
    a.field(base, 4, format_args!("flags: 0x{:x}{source}", h.flags));
    let bitcode = d.dxil.as_ref().filter(|p| &p.chunk.fourcc.0 == b"DXIL").map(|p| p.bitcode);
    let check = match bitcode.and_then(|b| h.matches(b)) {
        Some(true) => " (the MD5 of the DXIL bitcode)",
        Some(false) => " (not the MD5 of the DXIL bitcode)",
        None => "",
    };
    a.field(base + 4, 16, format_args!("digest {}{check}", h.digest_hex()));
    if !h.rest.is_empty() {
        a.field(base + 20, h.rest.len() as u64, "bytes after the digest");
    }
}

fn psv(d: &Dxbc<'_>, p: &super::psv::Psv<'_>, a: &mut Annotations) {
    use super::psv::{self, DependencyKind};
    let base = p.offset as u64;
    a.field(base, 4, format_args!("runtime info size: {} (version {})", p.info_size, p.version));
    let info = base + 4;
    let kind = p.kind().or(d.dxil.as_ref().map(|x| x.kind));
    let fields = kind.map(|k| psv::stage_fields(k, &p.info.stage_info)).unwrap_or_default();
    let mut covered = 0u64;
    for f in &fields {
        a.field(info + f.at as u64, f.size as u64, format_args!("{}: {}", f.name, f.value));
        covered = covered.max(f.at as u64 + f.size as u64);
    }
    // The union's bytes the stage does not use (all of them for compute shaders).
    let mut at = 0u64;
    for f in fields.iter().map(|f| (f.at as u64, f.at as u64 + f.size as u64)).chain([(16, 16)]) {
        if f.0 > at {
            a.field(info + at, f.0 - at, "stage info: bytes this stage does not use");
        }
        at = at.max(f.1);
    }
    a.field(info + 16, 4, format_args!("minimum expected wave lane count: {}", p.info.min_wave_lanes));
    a.field(info + 20, 4, format_args!("maximum expected wave lane count: {}", p.info.max_wave_lanes));
    if let Some(i1) = p.info.v1 {
        let stage = i1.kind().name();
        a.field(info + 24, 1, format_args!("shader stage: {} ({stage})", i1.shader_stage));
        a.field(info + 25, 1, format_args!("uses ViewID: {}", i1.uses_view_id));
        match (i1.max_vertex_count(), i1.patch_constant_or_primitive_vectors()) {
            (Some(n), _) => a.field(info + 26, 2, format_args!("max vertex count: {n}")),
            (None, Some(v)) => {
                a.field(info + 26, 1, format_args!("patch constant or primitive vectors: {v}"));
                match i1.mesh_output_topology() {
                    Some(t) => a.field(info + 27, 1, format_args!("mesh output topology: {t}")),
                    None => a.field(info + 27, 1, "stage byte: not used by this stage"),
                }
            }
            (None, None) => a.field(info + 26, 2, "stage bytes: not used by this stage"),
        }
        a.field(info + 28, 1, format_args!("input elements: {}", i1.input_elements));
        a.field(info + 29, 1, format_args!("output elements: {}", i1.output_elements));
        a.field(
            info + 30,
            1,
            format_args!("patch constant or primitive elements: {}", i1.patch_constant_or_primitive_elements),
        );
        a.field(info + 31, 1, format_args!("input vectors: {}", i1.input_vectors));
        let o = i1.output_vectors;
        a.field(
            info + 32,
            4,
            format_args!("output vectors per stream: {}, {}, {}, {}", o[0], o[1], o[2], o[3]),
        );
    }
    if let Some([x, y, z]) = p.info.num_threads {
        a.field(info + 36, 12, format_args!("thread group: {x}, {y}, {z}"));
    }
    if let Some((offset, name)) = p.info.entry_function_name {
        a.field(
            info + 48,
            4,
            format_args!("entry function name: string {offset} (\"{}\")", super::dxc_info::shown(name.bytes)),
        );
    }
    if let Some(n) = p.info.group_shared_bytes {
        a.field(info + 52, 4, format_args!("group shared memory: {}", count(n, "byte")));
    }
    let known = u64::from(psv::RUNTIME_INFO_SIZES.get(p.version as usize).copied().unwrap_or(0));
    let size = u64::from(p.info_size);
    if size > known {
        a.field(info + known, size - known, format_args!("runtime info past PSVRuntimeInfo{}", p.version));
    }
    let at = p.resource_count_at as u64;
    a.field(at, 4, format_args!("resource count: {}", p.resources.len()));
    if let Some(size) = p.resource_size {
        a.field(at + 4, 4, format_args!("resource record size: {size}"));
        for r in &p.resources {
            let kind = r.kind_flags.map(|(k, f)| {
                format!(
                    ", kind {}, flags 0x{f:x}",
                    psv::resource_kind_name(k).map_or_else(|| k.to_string(), str::to_string)
                )
            });
            a.field(
                r.offset as u64,
                u64::from(size),
                format_args!(
                    "resource {} space {}, registers {} to {}{}",
                    psv::resource_type_name(r.res_type)
                        .map_or_else(|| format!("type {}", r.res_type), str::to_string),
                    r.space,
                    r.lower_bound,
                    r.upper_bound,
                    kind.unwrap_or_default()
                ),
            );
        }
    }
    if let Some(t) = p.strings {
        a.field(t.field as u64, 4, format_args!("string table size: {}", t.bytes.len()));
        let mut at = 0usize;
        while at < t.bytes.len() {
            let rest = t.bytes.get(at..).unwrap_or(&[]);
            let Some(n) = memchr::memchr(0, rest) else {
                a.field((t.offset + at) as u64, rest.len() as u64, "bytes after the last string");
                break;
            };
            // The NULs after the last string pad the table to 4 bytes.
            if n == 0 && rest.iter().all(|&b| b == 0) && at > 0 {
                a.field((t.offset + at) as u64, rest.len() as u64, "padding");
                break;
            }
            let name = rest.get(..n).unwrap_or(&[]);
            a.field(
                (t.offset + at) as u64,
                n as u64 + 1,
                format_args!("string \"{}\"", super::dxc_info::shown(name)),
            );
            at += n + 1;
        }
    }
    if let Some(t) = p.semantic_index_table {
        let words = p.semantic_indexes();
        a.field(t.field as u64, 4, format_args!("semantic index count: {}", words.len()));
        if !words.is_empty() {
            let values: Vec<String> = words.iter().map(|v| v.to_string()).collect();
            a.field(
                t.offset as u64,
                t.bytes.len() as u64,
                format_args!("semantic indexes: {}", values.join(" ")),
            );
        }
    }
    if let Some(size) = p.element_size {
        let first = p.elements.first().map_or(0, |e| e.offset as u64);
        a.field(first.saturating_sub(4), 4, format_args!("signature element size: {size}"));
        for e in &p.elements {
            let name = super::dxc_info::shown(e.name.bytes);
            a.field(
                e.offset as u64,
                u64::from(size),
                format_args!(
                    "{} element \"{name}\", {} from semantic index entry {}, {} columns, {}, {}",
                    e.set.name(),
                    count(e.rows, "row"),
                    e.semantic_indexes,
                    e.cols(),
                    psv::component_type_name(e.component_type).unwrap_or("unknown type"),
                    psv::semantic_kind_name(e.semantic_kind).unwrap_or("unknown kind")
                ),
            );
        }
    }
    for dep in &p.dependencies {
        let per = 4 * dep.row_words() as u64;
        for row in 0..dep.rows() {
            let outputs = psv::components_text(dep.outputs(row)).join(" ");
            let outputs = if outputs.is_empty() { "none".to_string() } else { outputs };
            let at = dep.offset as u64 + per * row as u64;
            match dep.kind {
                DependencyKind::ViewIdOutputs { .. } | DependencyKind::ViewIdPatchConstantOrPrimitive => {
                    a.field(at, per, format_args!("{}: {outputs}", dep.kind.describe()))
                }
                _ => a.field(
                    at,
                    per,
                    format_args!("{}: {} -> {outputs}", dep.kind.describe(), psv::component_text(row as u32)),
                ),
            }
        }
    }
    if !p.rest.is_empty() {
        a.field(p.rest_offset as u64, p.rest.len() as u64, "bytes after the last table");
    }
}

fn rdat(r: &super::rdat::Rdat<'_>, c: &Chunk<'_>, a: &mut Annotations) {
    let base = r.offset as u64;
    a.field(base, 4, format_args!("version 0x{:x}", r.version));
    a.field(base + 4, 4, format_args!("part count: {}", r.parts.len()));
    for (i, p) in r.parts.iter().enumerate() {
        a.field(
            base + 8 + 4 * i as u64,
            4,
            format_args!("part {i} ({}) at +0x{:x}", p.type_name().unwrap_or("?"), p.offset as u64 - base),
        );
    }
    let header: std::ops::Range<usize> = 0..8 + 4 * r.parts.len();
    let mut claimed = vec![header];
    let mut seen = std::collections::HashSet::new();
    for p in &r.parts {
        let start = p.offset - r.offset;
        claimed.push(start..start + 8 + p.data.len());
        // A part named twice is annotated once.
        if !seen.insert(p.offset) {
            continue;
        }
        let at = p.offset as u64;
        let name = p.type_name().map_or_else(|| format!("part type {}", p.part_type), str::to_string);
        a.field(at, 4, format_args!("part type: {} ({name})", p.part_type));
        a.field(at + 4, 4, format_args!("part size: {}", p.data.len()));
        let data_at = p.data_offset() as u64;
        match (p.part_type, p.table) {
            (_, Some((n, stride))) => {
                a.field(data_at, 4, format_args!("record count: {n}"));
                a.field(data_at + 4, 4, format_args!("record stride: {stride}"));
                let records = p.records_offset() as u64;
                let len = u64::from(n) * u64::from(stride);
                rdat_records(r, p, a);
                let end = data_at + p.data.len() as u64;
                if end > records + len {
                    let tail = p.data.get((8 + len) as usize..).unwrap_or(&[]);
                    let zero = tail.iter().all(|&b| b == 0);
                    a.field(
                        records + len,
                        end - records - len,
                        if zero { "padding" } else { "bytes after the records" },
                    );
                }
            }
            (1, None) => {
                let mut off = 0usize;
                while off < p.data.len() {
                    let rest = p.data.get(off..).unwrap_or(&[]);
                    let Some(n) = memchr::memchr(0, rest) else {
                        a.field(data_at + off as u64, rest.len() as u64, "bytes after the last string");
                        break;
                    };
                    if n == 0 && off > 0 && rest.iter().all(|&b| b == 0) {
                        a.field(data_at + off as u64, rest.len() as u64, "padding");
                        break;
                    }
                    let s = rest.get(..n).unwrap_or(&[]);
                    a.field(
                        data_at + off as u64,
                        n as u64 + 1,
                        format_args!("string {off}: \"{}\"", super::dxc_info::shown(s)),
                    );
                    off += n + 1;
                }
            }
            (2, None) => {
                let words = Words::new(p.data);
                let mut i = 0usize;
                while i < words.len() {
                    let n = words.get(i).unwrap_or(0) as usize;
                    if n >= words.len() - i {
                        a.field(
                            data_at + 4 * i as u64,
                            4 * (words.len() - i) as u64,
                            "index words after the last whole row",
                        );
                        break;
                    }
                    let values: Vec<String> =
                        (i + 1..=i + n).filter_map(|k| words.get(k)).map(|v| v.to_string()).collect();
                    a.field(
                        data_at + 4 * i as u64,
                        4 * (n as u64 + 1),
                        format_args!(
                            "index row {i}: {}{}{}",
                            count(n, "value"),
                            if n > 0 { ": " } else { "" },
                            values.join(" ")
                        ),
                    );
                    i += n + 1;
                }
                let whole = 4 * words.len() as u64;
                if (p.data.len() as u64) > whole {
                    a.field(data_at + whole, p.data.len() as u64 - whole, "bytes after the last word");
                }
            }
            _ => a.field(data_at, p.data.len() as u64, format_args!("{name} data")),
        }
    }
    for (at, bytes) in crate::toolkit::layout::filler(c.data, c.data.len(), &claimed) {
        let zero = bytes.iter().all(|&b| b == 0);
        a.field(
            base + u64::from(at),
            bytes.len() as u64,
            if zero { "padding" } else { "bytes outside every part" },
        );
    }
}

/// The records of an RDAT table: the resources, functions and subobjects by name, the
/// records of other tables by number.
fn rdat_records(r: &super::rdat::Rdat<'_>, p: &super::rdat::Part<'_>, a: &mut Annotations) {
    use super::rdat;
    let Some((n, stride)) = p.table else { return };
    let stride = u64::from(stride);
    let shown = |c: &crate::toolkit::Cstr<'_>| super::dxc_info::shown(c.bytes);
    let first = |offset: usize| {
        r.parts.iter().find(|q| q.part_type == p.part_type).is_some_and(|q| q.offset == offset)
    };
    match p.part_type {
        3 if first(p.offset) => {
            for x in &r.resources {
                a.field(
                    x.offset as u64,
                    stride,
                    format_args!(
                        "resource \"{}\": {} {}, ID {}, space {}, registers {} to {}, flags 0x{:x}",
                        shown(&x.name),
                        rdat::resource_class_name(x.class).unwrap_or("?"),
                        super::psv::resource_kind_name(x.kind).unwrap_or("?"),
                        x.id,
                        x.space,
                        x.lower_bound,
                        x.upper_bound,
                        x.flags
                    ),
                );
            }
        }
        4 if first(p.offset) => {
            for f in &r.functions {
                a.field(
                    f.offset as u64,
                    stride,
                    format_args!(
                        "function \"{}\": {}, shader model {}",
                        shown(&f.name),
                        rdat::function_kind_name(f.shader_kind).unwrap_or("unknown kind"),
                        rdat::model_text(f.min_shader_target)
                    ),
                );
            }
        }
        6 if first(p.offset) => {
            for o in &r.subobjects {
                a.field(
                    o.offset as u64,
                    stride,
                    format_args!(
                        "subobject \"{}\": {}",
                        shown(&o.name),
                        rdat::subobject_kind_name(o.kind)
                            .map_or_else(|| format!("kind {}", o.kind), str::to_string)
                    ),
                );
            }
        }
        _ if stride > 0 && n > 0 => {
            a.table(p.records_offset() as u64, stride, u64::from(n), rdat_record);
        }
        _ => {}
    }
}

/// A record of an RDAT table that is not read: its number.
fn rdat_record(_: &[u8], i: u64, _: u64, out: &mut String) {
    let _ = write!(out, "record {i}");
}
