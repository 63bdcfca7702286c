//! Aon9 (the Direct3D 9 program of a `*_level_9_x` target) from the listing's level-9
//! sections: the program from `Level9 shader bytecode` ([`crate::isa::d3d9::asm`]), the
//! register mappings from `Constant buffer to DX9 shader constant mappings`,
//! `Sampler/Resource to DX9 shader sampler mappings` and `Runtime generated constant
//! mappings` (the tables format/dxbc/listing.rs prints from [`super::super::chunks::Aon9`]).
//!
//! The payload as fxc lays it out (every corpus chunk): the size of the payload, a version
//! token (the program's with minor version 0: [`Aon9::header_version`]), the program's size and offset, five (count, offset) pairs of 16-bit values
//! for the constant-buffer mappings, two tables fxc always leaves empty, the sampler mappings
//! and the runtime constants; then the sampler mappings, the constant-buffer mappings, the
//! runtime constants (an empty table points where it would start), and the program. The
//! bytes of a sampler mapping are the source resource, the source sampler and the target
//! sampler, in that order (the columns print them the other way round); the fourth is not
//! printed: written as 0, as fxc writes it.
//!
//! ```
//! use shaderscope::dxbc::assemble::{Listing, aon9};
//!
//! let text = "\
//! // Sampler/Resource to DX9 shader sampler mappings:
//! //
//! // Target Sampler Source Sampler  Source Resource
//! // -------------- --------------- ----------------
//! // s1             s0              t2
//! //
//! //
//! // Level9 shader bytecode:
//! //
//!     ps_2_0
//!     dcl t0.xy
//!     dcl_2d s1
//!     texld r0, t0, s1
//!     mov oC0, r0
//!
//! // approximately 2 instruction slots used (1 texture, 1 arithmetic)
//! ps_4_0
//! ";
//! let payload = aon9::from_listing(&Listing::new(text))?.unwrap();
//! let word = |at: usize| u32::from_le_bytes(payload[at..at + 4].try_into().unwrap());
//! // Size, version token, program size and offset: after the header and one sampler mapping.
//! assert_eq!((word(0) as usize, word(4), word(12)), (payload.len(), 0xffff_0200, 40));
//! assert_eq!(&payload[36..40], &[2, 0, 1, 0]); // t2, s0, then the target s1
//! # Ok::<(), shaderscope::asm::LineError>(())
//! ```

use super::super::chunks::{Aon9, DATA_CONVERSIONS};
use super::Listing;
use crate::asm::LineError;

/// The Aon9 payload the listing describes, or `None` when it has no `Level9 shader bytecode`
/// section. The program's comments (a `DBUG` block) are not in the text and are not written.
pub fn from_listing(listing: &Listing<'_>) -> Result<Option<Vec<u8>>, LineError> {
    let Some(section) = listing.section("Level9 shader bytecode") else { return Ok(None) };
    // The program's lines follow the title (the section keeps only some of them: `#line`
    // directives start at column 0).
    let lines = listing.text.lines().enumerate().map(|(i, l)| (i + 1, l)).skip(section.line);
    let program = crate::isa::d3d9::asm::parse_lines(lines)?;
    let version = Aon9::header_version(program.first_chunk::<4>().map_or(0, |w| u32::from_le_bytes(*w)));

    let mut cb = Vec::new();
    for (n, column, cells) in rows(listing, "Constant buffer to DX9 shader constant mappings") {
        // `c0         cb0             1         2  ( FLT, FLT, FLT, FLT)`
        let split = cells.iter().position(|(_, c)| c.contains('(')).unwrap_or(cells.len());
        let (cells, conversion) = cells.split_at(split);
        let [(target_at, target), (buffer_at, buffer), (start_at, start), (count_at, count)] = cells else {
            return Err(LineError::new(n, column, "a row `c# cb# start count (conversions)`"));
        };
        let mut record = Vec::with_capacity(12);
        for (at, text, prefix) in [
            (buffer_at, buffer, "cb"),
            (start_at, start, ""),
            (count_at, count, ""),
            (target_at, target, "c"),
        ] {
            let v = number(text, prefix)
                .ok_or_else(|| LineError::new(n, *at, format!("a number{}", named(prefix))))?;
            record.extend(v.to_le_bytes());
        }
        let at = conversion.first().map_or(column, |c| c.0);
        let joined = conversion.iter().map(|c| c.1).collect::<Vec<_>>().join(" ");
        let kinds: Option<Vec<u8>> = joined
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .map(|inner| {
                inner
                    .split(',')
                    .map(|c| DATA_CONVERSIONS.iter().find(|(_, k)| *k == c.trim()).map(|(v, _)| *v))
            })
            .and_then(|kinds| kinds.collect());
        match kinds {
            Some(kinds) if kinds.len() == 4 => record.extend(kinds),
            _ => return Err(LineError::new(n, at, "four data conversions (`( FLT, FLT, INT,BOOL)`)")),
        }
        cb.push(record);
    }
    let mut samplers = Vec::new();
    for (n, column, cells) in rows(listing, "Sampler/Resource to DX9 shader sampler mappings") {
        // `s0             s0              t0`
        let [(a, target), (b, sampler), (c, resource)] = cells.as_slice() else {
            return Err(LineError::new(n, column, "a row `s# s# t#`"));
        };
        let mut record = [0u8; 4];
        for (slot, (at, text, prefix)) in
            record.iter_mut().zip([(c, resource, "t"), (b, sampler, "s"), (a, target, "s")])
        {
            *slot = number(text, prefix)
                .and_then(|v| u8::try_from(v).ok())
                .ok_or_else(|| LineError::new(n, *at, format!("a register{} below 256", named(prefix))))?;
        }
        samplers.push(record);
    }
    let mut runtime = Vec::new();
    for (n, column, cells) in rows(listing, "Runtime generated constant mappings") {
        // `c4                  Vertex Shader position offset`
        let Some(((at, target), rest)) = cells.split_first() else { continue };
        let description: Vec<&str> = rest.iter().map(|(_, w)| *w).collect();
        let kind = match description.as_slice() {
            ["Vertex", "Shader", "position", "offset"] => Some(0),
            ["Unknown", "runtime", "constant", k] => k.parse::<u16>().ok(),
            _ => None,
        }
        .ok_or_else(|| {
            LineError::new(n, column, "`Vertex Shader position offset` or `Unknown runtime constant N`")
        })?;
        let target = number(target, "c").ok_or_else(|| LineError::new(n, *at, "a register `c#`"))?;
        runtime.push([kind.to_le_bytes(), target.to_le_bytes()].concat());
    }

    // Tables in file order: samplers (table 3), constant buffers (0), the two empty ones (1,
    // 2), runtime constants (4).
    let mut at = 36usize;
    let mut headers = [(0u16, 0u16); 5];
    for (table, count, size) in
        [(3, samplers.len(), 4), (0, cb.len(), 12), (1, 0, 0), (2, 0, 0), (4, runtime.len(), 4)]
    {
        let fits = |v: usize| u16::try_from(v).ok();
        let (Some(count), Some(offset)) = (fits(count), fits(at)) else {
            return Err(LineError::new(section.line, 0, "mapping tables under 64 KiB"));
        };
        if let Some(h) = headers.get_mut(table) {
            *h = (count, offset);
        }
        at += usize::from(count) * size;
    }
    let total = at + program.len();
    let mut out = Vec::with_capacity(total);
    for w in [total, 0, program.len(), at] {
        out.extend((w as u32).to_le_bytes());
    }
    if let Some(w) = out.get_mut(4..8) {
        w.copy_from_slice(&version.to_le_bytes());
    }
    for (count, offset) in headers {
        out.extend(count.to_le_bytes());
        out.extend(offset.to_le_bytes());
    }
    samplers.iter().for_each(|r| out.extend(r));
    cb.iter().for_each(|r| out.extend(r));
    runtime.iter().for_each(|r| out.extend(r));
    out.extend(program);
    Ok(Some(out))
}

/// ` (`prefix#`)` for an error message.
fn named(prefix: &str) -> String {
    if prefix.is_empty() { String::new() } else { format!(" (`{prefix}#`)") }
}

/// The value of `prefix` followed by a decimal number.
fn number(text: &str, prefix: &str) -> Option<u16> {
    text.strip_prefix(prefix)?.parse().ok()
}

/// A table row: its line, the column it starts at, its cells with their columns.
type Row<'a> = (usize, usize, Vec<(usize, &'a str)>);

/// The data rows of a mapping table: (line, column of the row, its cells with their
/// columns), the title row and the dashes skipped.
fn rows<'a>(listing: &Listing<'a>, title: &str) -> Vec<Row<'a>> {
    let Some(section) = listing.section(title) else { return Vec::new() };
    let raw_lines: Vec<&str> = listing.text.lines().collect();
    section
        .lines
        .iter()
        .filter_map(|&(n, body)| {
            let raw = raw_lines.get(n.checked_sub(1)?).copied().unwrap_or("");
            let column = raw.find(body).unwrap_or(0);
            let cells: Vec<(usize, &str)> = body
                .split(' ')
                .scan(0usize, |at, cell| {
                    let start = *at;
                    *at += cell.len() + 1;
                    Some((column + start, cell))
                })
                .filter(|(_, c)| !c.is_empty())
                .collect();
            let first = cells.first().map_or("", |c| c.1);
            (!(first.is_empty() || first == "Target" || first.starts_with('-'))).then_some((n, column, cells))
        })
        .collect()
}
