//! `validate` for DXBC: checksum, layout, sizes, chunk contents.

use super::Dxbc;
use super::container::HEADER_SIZE;
use crate::model::{Finding, Stage};
use crate::print::count;

/// Every finding; empty when the container is fine.
pub fn validate(d: &Dxbc<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let f = &d.frame;
    if !d.checksum_ok() {
        let stored = super::checksum::hex(&d.stored_checksum());
        let computed = super::checksum::hex(&d.computed_checksum());
        if d.stored_checksum() == [0; 16] {
            out.push(Finding::warning(
                4,
                format!("container is unsigned (all-zero checksum; computed {computed})"),
            ));
        } else {
            out.push(Finding::error(4, format!("checksum mismatch (stored {stored}, computed {computed})")));
        }
    }
    let one = f.header.one.get();
    if one != 1 {
        out.push(Finding::warning(20, format!("header version word is {one}, expected 1")));
    }
    let total_size = f.header.total_size.get();
    if !f.trailing.is_empty() {
        out.push(Finding::warning(
            u64::from(total_size),
            format!("{} follow the declared container size {total_size}", count(f.trailing.len(), "byte")),
        ));
    }
    let index_end = HEADER_SIZE + 4 * f.chunks.len();
    // A chunk reached again through a repeated index entry is one finding; the checks below
    // see each chunk once.
    let repeats = f.repeats();
    let once = || f.chunks.iter().enumerate().zip(&repeats).filter(|(_, r)| r.is_none()).map(|(c, _)| c);
    // One warning per chunk named again, at the first index entry repeating it.
    let mut repeated: std::collections::BTreeMap<usize, (usize, usize)> = std::collections::BTreeMap::new();
    for (i, r) in repeats.iter().enumerate() {
        if let Some(k) = r {
            repeated.entry(*k).or_insert((i, 0)).1 += 1;
        }
    }
    for (k, (i, n)) in repeated {
        let Some(c) = f.chunks.get(k) else { continue };
        let which = if n == 1 {
            format!("1 index entry, chunk {i}, repeats")
        } else {
            format!("{n} index entries, from chunk {i} on, repeat")
        };
        out.push(Finding::warning(
            (HEADER_SIZE + 4 * i) as u64,
            format!(
                "{which} chunk {k}'s ({}) offset 0x{:x}: the same bytes are reached again",
                c.fourcc, c.offset
            ),
        ));
    }
    for (i, c) in once() {
        if c.offset % 4 != 0 {
            out.push(Finding::warning(
                c.offset as u64,
                format!("chunk {i} ({}) is not 4-byte aligned", c.fourcc),
            ));
        }
        if c.offset < index_end {
            out.push(Finding::error(
                c.offset as u64,
                format!("chunk {i} ({}) starts inside the header or chunk index", c.fourcc),
            ));
        }
    }
    // In file order: each chunk must end before the next begins.
    let mut sorted: Vec<_> = once().collect();
    sorted.sort_by_key(|(_, c)| c.offset);
    for w in sorted.windows(2) {
        if let [(i, a), (j, b)] = w {
            if b.offset < a.end() {
                out.push(Finding::error(
                    b.offset as u64,
                    format!("chunk {j} ({}) overlaps chunk {i} ({})", b.fourcc, a.fourcc),
                ));
            }
        }
    }
    let layout = f.layout();
    for (i, c) in once() {
        if let Some((at, gap)) = layout.gap_before(c.offset).filter(|(_, gap)| gap.iter().any(|&b| b != 0)) {
            out.push(Finding::warning(
                u64::from(*at),
                format!("{} non-zero bytes between chunks before chunk {i} ({})", gap.len(), c.fourcc),
            ));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for (i, c) in once() {
        if !seen.insert(c.fourcc.0) {
            out.push(Finding::warning(c.offset as u64, format!("chunk {i} repeats the tag {}", c.fourcc)));
        }
    }
    for (_, e) in &d.chunk_errors {
        out.push(Finding::error(e.offset(), e.reason()));
    }
    if let Some(p) = &d.program {
        let tokens = (p.chunk.data.len() / 4) as u64;
        // A length token the program cannot be read with is the program's error (below, and
        // the damage every command reports), said once.
        if u64::from(p.length) != tokens && super::program::decode(p).is_ok() {
            out.push(Finding::error(
                p.chunk.data_offset() as u64 + 4,
                format!(
                    "program length token says {}, the {} chunk holds {tokens}",
                    count(p.length, "token"),
                    p.chunk.fourcc
                ),
            ));
        }
        if let Some(r) = &d.rdef {
            let stage_of = match r.program_type {
                0xFFFF => Some(Stage::Pixel),
                0xFFFE => Some(Stage::Vertex),
                0x4753 => Some(Stage::Geometry),
                0x4853 => Some(Stage::Hull),
                0x4453 => Some(Stage::Domain),
                0x4353 => Some(Stage::Compute),
                _ => None,
            };
            if stage_of.is_some_and(|s| s != p.stage) {
                out.push(Finding::warning(
                    r.offset as u64 + 18,
                    format!(
                        "RDEF program type 0x{:04x} does not match the program ({})",
                        r.program_type,
                        p.version_text()
                    ),
                ));
            }
        }
        out.extend(super::program::validate(d, p));
    }
    if let Some(p) = &d.dxil {
        out.extend(p.validate());
    }
    if let Some(p) = &d.reflection {
        out.extend(p.validate());
    }
    if let Some(n) = &d.debug_name {
        out.extend(n.validate());
    }
    let program = d.dxil.as_ref().filter(|p| &p.chunk.fourcc.0 == b"DXIL");
    if let (Some(h), Some(p)) = (&d.shader_hash, program) {
        if h.matches(p.bitcode) == Some(false) {
            out.push(Finding::warning(
                h.offset as u64 + 4,
                format!(
                    "HASH digest {} is not the MD5 of the DXIL bitcode, as DXC computes it",
                    h.digest_hex()
                ),
            ));
        }
    }
    if let Some(psv) = &d.psv {
        if let (Some(kind), Some(p)) = (psv.kind(), &d.dxil) {
            if kind != p.kind {
                out.push(Finding::warning(
                    psv.offset as u64 + 4 + 24,
                    format!(
                        "PSV0 shader stage {} is not the DXIL program's ({})",
                        kind.name(),
                        p.kind.name()
                    ),
                ));
            }
        }
        if !psv.rest.is_empty() {
            out.push(Finding::warning(
                psv.rest_offset as u64,
                format!("{} follow PSV0's last table", count(psv.rest.len(), "byte")),
            ));
        }
    }
    if let Some(a) = &d.aon9 {
        if !a.program.ends_with(&[0xFF, 0xFF, 0, 0]) {
            out.push(Finding::warning(
                a.program_position() as u64,
                "Aon9 D3D9 program does not end with the end token",
            ));
        }
    }
    out
}
