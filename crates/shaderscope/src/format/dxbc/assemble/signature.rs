//! Signature chunks (ISGN/OSGN/PCSG, OSG5, ISG1/OSG1/PSG1) from the listing's tables.
//!
//! A row says everything an element stores but three things, chosen as fxc chooses them
//! (measured on the corpus):
//! - an output's read/write mask is the components it *never writes*: `0xF & !used` (a row
//!   with `N/A` in Mask, `oDepth` and the like, is one component: YES is 0xE, NO 0xF);
//! - outputs whose SysValue the disassembler names from the semantic (`SV_Target` → TARGET,
//!   `SV_Depth` → DEPTH, …) store system value 0, as every compiler in the corpus does;
//! - the registers without a number (`oDepth`, `oMask`, …) store 0xFFFFFFFF.
//!
//! Each name is stored once, in the order of first use, and the string table is padded with 0xAB
//! to four bytes, as fxc lays it out.
//!
//! ```
//! use shaderscope::format::dxbc::assemble::{Listing, signature};
//! use shaderscope::format::dxbc::signature::ElementLayout;
//!
//! let text = "\
//! // Output signature:
//! //
//! // Name                 Index   Mask Register SysValue  Format   Used
//! // -------------------- ----- ------ -------- -------- ------- ------
//! // SV_Target                0   xyzw        0   TARGET   float   xy
//! // SV_Depth                 0    N/A   oDepth    DEPTH   float    YES
//! //
//! ";
//! let listing = Listing::new(text);
//! let rows = signature::rows(&listing, listing.section("Output signature").unwrap(), true)?;
//! // Stored as fxc stores them: system value 0, the components never written.
//! let r = &rows[0];
//! assert_eq!((r.system_value, r.mask, r.rw_mask), (0, 0xF, 0xC));
//! assert_eq!((rows[1].register, rows[1].rw_mask), (u32::MAX, 0xE));
//! let osgn = signature::write(&rows, ElementLayout::Plain);
//! assert_eq!(&osgn[osgn.len() - 20..], b"SV_Target\0SV_Depth\0\xab");
//! # Ok::<(), shaderscope::asm::LineError>(())
//! ```

use super::{Listing, Section};
use crate::asm::LineError;
use crate::format::dxbc::signature::{
    ElementLayout, format_by_name, implied_system_value, special_output_register, system_value_by_name,
};
use crate::toolkit::{Endian, Writer};
use std::collections::HashMap;

/// One row of a signature table, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row<'a> {
    /// Line number of the row.
    pub line: usize,
    /// Geometry-shader stream (`m1:` before the name).
    pub stream: u32,
    /// Semantic name.
    pub name: &'a str,
    /// Semantic index.
    pub semantic_index: u32,
    /// `D3D_NAME` value as stored.
    pub system_value: u32,
    /// `D3D_REGISTER_COMPONENT_TYPE`.
    pub component_type: u32,
    /// `D3D_MIN_PRECISION`.
    pub min_precision: u32,
    /// Register number (0xFFFFFFFF for `oDepth` and the like).
    pub register: u32,
    /// Components present.
    pub mask: u8,
    /// Inputs: components read; outputs: components never written.
    pub rw_mask: u8,
}

/// The rows of a signature section. `is_output` says how the Used column reads (outputs,
/// and a hull shader's patch constants, store what they never write).
pub fn rows<'a>(
    listing: &Listing<'a>,
    section: &Section<'a>,
    is_output: bool,
) -> Result<Vec<Row<'a>>, LineError> {
    let mut rows = Vec::new();
    // The rows run from the dashes under the column names to the next empty comment line
    // (a hull shader's tessellation tables follow in the same block).
    let mut in_table = false;
    for &(line, text) in &section.lines {
        let t = text.trim();
        if !in_table {
            in_table = t.starts_with("---");
            continue;
        }
        if t.is_empty() {
            break;
        }
        if t.starts_with("no ") {
            continue;
        }
        // The line's column is looked up only for an error: finding a line is a walk of the text.
        rows.push(row(line, text, is_output).map_err(|(column, expected)| {
            LineError::new(line, listing.body_column(line) + column, expected)
        })?);
    }
    Ok(rows)
}

/// Whitespace-separated words of `text` with their byte offsets.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace().map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// The component bits a word of `xyzw` letters names, if it is one.
fn mask_bits(word: &str) -> Option<u8> {
    word.chars().try_fold(0u8, |m, c| Some(m | 1 << "xyzw".find(c)?))
}

fn row<'a>(line: usize, text: &'a str, is_output: bool) -> Result<Row<'a>, (usize, String)> {
    let mut w = words(text).peekable();
    let end = text.trim_end().len();
    let mut next = |what: &str| w.next().ok_or_else(|| (end, what.to_string()));
    let (at, first) = next("a semantic name")?;
    // `m1:NAME`: the stream of a geometry shader's output.
    let (stream, name) = match first.strip_prefix('m').and_then(|r| r.split_once(':')) {
        Some((n, name)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            (n.parse().map_err(|_| (at, "a stream number".to_string()))?, name)
        }
        _ => (0, first),
    };
    let number =
        |(at, word): (usize, &str), what: &str| word.parse::<u32>().map_err(|_| (at, what.to_string()));
    let semantic_index = number(next("a semantic index")?, "a semantic index")?;
    // The mask: `N/A` and a register name, or letters (`x zw` is two words) then the register.
    let mut mask = 0u8;
    let mut special = None;
    let register = loop {
        let (at, word) = next("a mask and a register")?;
        if word == "N/A" && mask == 0 {
            let (at, reg) = next("the register (`oDepth`, …)")?;
            special = Some((at, reg));
            break u32::MAX;
        }
        match mask_bits(word) {
            Some(bits) if word.starts_with(|c: char| c.is_ascii_alphabetic()) => mask |= bits,
            _ => break number((at, word), "a mask (`xyzw`) or a register number")?,
        }
    };
    let (sv_at, sv_word) = next("a SysValue (`NONE`, `POS`, …)")?;
    let shown = system_value_by_name(sv_word)
        .or_else(|| sv_word.parse().ok())
        .ok_or_else(|| (sv_at, "a SysValue (`NONE`, `POS`, …)".to_string()))?;
    if let Some((at, reg)) = special {
        if !is_output || special_output_register(shown) != Some(reg) {
            return Err((at, "a register number (`N/A` is only for oDepth, oMask and the like)".into()));
        }
        mask = 1;
    }
    let (format_at, format_word) = next("a format (`float`, `int`, `uint`, `min16f`, …)")?;
    let (component_type, min_precision) = format_by_name(format_word)
        .ok_or_else(|| (format_at, "a format (`float`, `int`, `uint`, `min16f`, …)".to_string()))?;
    // Used: letters, or YES/NO for the registers without a number, or nothing.
    let mut used = 0u8;
    for (at, word) in w {
        match (word, special) {
            ("YES", Some(_)) => used = 1,
            ("NO", Some(_)) => {}
            (_, None) => {
                used |= mask_bits(word).ok_or_else(|| (at, "the used components (`xyzw`)".to_string()))?
            }
            _ => return Err((at, "YES or NO".into())),
        }
    }
    let system_value =
        if is_output && shown != 0 && implied_system_value(name.as_bytes()) == shown { 0 } else { shown };
    let rw_mask = if is_output { 0xF & !used } else { used };
    Ok(Row {
        line,
        stream,
        name,
        semantic_index,
        system_value,
        component_type,
        min_precision,
        register,
        mask,
        rw_mask,
    })
}

/// The chunk payload of `rows` in `layout`.
pub fn write(rows: &[Row<'_>], layout: ElementLayout) -> Vec<u8> {
    let size = layout.size();
    let table_end = 8 + rows.len() * size;
    // Names: each stored once, in the order elements first use them.
    let mut names: Vec<u8> = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut name_offsets = Vec::with_capacity(rows.len());
    for r in rows {
        let offset = *seen.entry(r.name).or_insert_with(|| {
            let at = table_end + names.len();
            names.extend_from_slice(r.name.as_bytes());
            names.push(0);
            at
        });
        name_offsets.push(offset);
    }
    let mut out = Writer::new(Endian::Little);
    out.u32(rows.len() as u32);
    out.u32(8);
    for (r, name_offset) in rows.iter().zip(name_offsets) {
        if layout != ElementLayout::Plain {
            out.u32(r.stream);
        }
        for w in [name_offset as u32, r.semantic_index, r.system_value, r.component_type, r.register] {
            out.u32(w);
        }
        out.bytes(&[r.mask, r.rw_mask, 0, 0]);
        if layout == ElementLayout::MinPrecision {
            out.u32(r.min_precision);
        }
    }
    out.bytes(&names);
    out.align(4, 0xAB);
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dxbc::signature::{Signature, SignatureKind};

    const TEXT: &str = "\
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// TEXCOORD                 0   xy          0     NONE   float   xy
// TEXCOORD                 1   x zw        1     NONE    uint   x  w
// SV_Position              0   xyzw        2      POS   float
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyz
// SV_Depth                 0    N/A   oDepth    DEPTH   float    YES
//
ps_4_0
";

    #[test]
    fn rows_read_back_into_the_chunk_a_parser_reads_the_same() {
        let listing = Listing::new(TEXT);
        let input = rows(&listing, listing.section("Input signature").unwrap(), false).unwrap();
        let output = rows(&listing, listing.section("Output signature").unwrap(), true).unwrap();
        let isgn = write(&input, ElementLayout::Plain);
        assert_eq!(isgn.len(), 8 + 3 * 24 + "TEXCOORD\0SV_Position\0".len() + 3);
        assert_eq!(isgn[isgn.len() - 3..], [0xAB; 3]);
        let s = Signature::parse(&isgn, 0, SignatureKind::Input, ElementLayout::Plain).unwrap();
        let got: Vec<_> =
            s.elements.iter().map(|e| (e.name_offset, e.mask, e.rw_mask, e.component_type)).collect();
        assert_eq!(got, [(80, 0x3, 0x3, 3), (80, 0xD, 0x9, 1), (89, 0xF, 0, 3)]);
        assert_eq!(s.elements[2].system_value, 1);
        let osgn = write(&output, ElementLayout::Plain);
        let s = Signature::parse(&osgn, 0, SignatureKind::Output, ElementLayout::Plain).unwrap();
        let got: Vec<_> =
            s.elements.iter().map(|e| (e.system_value, e.register, e.mask, e.rw_mask)).collect();
        assert_eq!(got, [(0, 0, 0xF, 0x8), (0, u32::MAX, 1, 0xE)]);
    }

    #[test]
    fn a_bad_row_names_its_line_column_and_what_was_expected() {
        let text = TEXT.replace(
            "TEXCOORD                 1   x zw        1     NONE    uint",
            "TEXCOORD                 1   x zw        1     NONE    long",
        );
        let listing = Listing::new(&text);
        let e = rows(&listing, listing.section("Input signature").unwrap(), false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 7, column 59: expected a format (`float`, `int`, `uint`, `min16f`, …)"
        );
        let text = TEXT.replace("SV_Position              0", "SV_Position              A");
        let listing = Listing::new(&text);
        let e = rows(&listing, listing.section("Input signature").unwrap(), false).unwrap_err();
        assert_eq!(e.to_string(), "line 8, column 29: expected a semantic index");
    }
}
