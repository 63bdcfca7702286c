//! Table entries shared by DVLE and DVOJ: constants, labels, outputs, uniforms, symbols.
//!
//! Every entry keeps its raw words so that re-encoding reproduces unknown bits exactly; the
//! decoded views used by the disassembler are computed from them.
//!
//! ```
//! use shaderscope::format::shbin::tables::{self, ConstantEntry, OutputEntry};
//!
//! // `.constf c95(0.0, 1.0, -1.0, 0.1)`: four float24 bit patterns.
//! let c = ConstantEntry { kind: 2, register: 95, payload: [0x000000, 0x3f0000, 0xbf0000, 0x3b9999] };
//! assert_eq!(c.describe(), "c95 = (0, 1, -1, 0.09999943)");
//!
//! let out = OutputEntry { semantic: 2, register: 1, mask: 0b0111, pad: 0 };
//! assert_eq!((tables::output_semantic_name(out.semantic), tables::mask_text(out.mask)), (Some("color"), "xyz".into()));
//!
//! let symbols = b"main\0projection\0";
//! assert_eq!(tables::symbol_at(symbols, 5)?.text(), "projection");
//! let all: Vec<(usize, String)> = tables::strings(symbols).map(|(at, s)| (at, s.text().into())).collect();
//! assert_eq!(all, [(0, "main".to_string()), (5, "projection".to_string())]);
//! assert_eq!(
//!     tables::symbol_at(symbols, 20).unwrap_err().to_string(),
//!     "symbol at offset 0x14 points outside its range (0x14 + 0x1 is outside 0x10)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, ErrorKind, Result};
use crate::isa::pica;
use crate::toolkit::layout::Placement;
use crate::toolkit::{Cstr, Endian, Reader};

/// A 20-byte constant-table entry: u16 type, u16 register, four payload words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConstantEntry {
    /// 0 bool, 1 ivec4, 2 vec4 (float24).
    pub kind: u16,
    /// Plain register index (c5 = 5, i2 = 2, b7 = 7).
    pub register: u16,
    /// Raw payload: bool in the low byte of word 0; ivec as the four bytes of word 0;
    /// vec4 as four float24 in the low 24 bits of each word.
    pub payload: [u32; 4],
}

impl ConstantEntry {
    /// Entry size in bytes.
    pub const SIZE: usize = 20;

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self> {
        let kind = r.u16("constant entry")?;
        let register = r.u16("constant entry")?;
        let mut payload = [0u32; 4];
        for p in &mut payload {
            *p = r.u32("constant entry")?;
        }
        Ok(ConstantEntry { kind, register, payload })
    }

    pub(crate) fn put(&self, p: &mut Placement, at: usize) {
        p.patch_u16(at, self.kind);
        p.patch_u16(at + 2, self.register);
        for (k, v) in self.payload.iter().enumerate() {
            p.patch_u32(at + 4 + 4 * k, *v);
        }
    }

    /// The decoded constant, or `None` for an unknown type.
    pub fn decode(&self) -> Option<pica::Constant> {
        let value = match self.kind {
            0 => pica::ConstantValue::Bool(self.payload[0] & 0xff != 0),
            1 => pica::ConstantValue::Int(self.payload[0].to_le_bytes()),
            2 => pica::ConstantValue::Float(self.payload.map(|v| v & 0x00ff_ffff)),
            _ => return None,
        };
        Some(pica::Constant::new(self.register as u8, value))
    }

    /// Human-readable `c5 = (0, 1, 2, 3)` form.
    pub fn describe(&self) -> String {
        let Some(c) = self.decode() else {
            return format!("unknown constant type {} for register {}", self.kind, self.register);
        };
        let register = c.register;
        match c.value {
            pica::ConstantValue::Bool(value) => format!("b{register} = {value}"),
            pica::ConstantValue::Int([x, y, z, w]) => format!("i{register} = ({x}, {y}, {z}, {w})"),
            pica::ConstantValue::Float(value) => {
                let v = value.map(pica::float24::to_f32);
                format!("c{register} = ({}, {}, {}, {})", v[0], v[1], v[2], v[3])
            }
        }
    }
}

/// A 16-byte label-table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelEntry {
    /// Word 0: label id in the low byte (Nintendo sets 0x10000 too).
    pub id: u32,
    /// Word address in the code blob.
    pub address: u32,
    /// Length in words, or 0xFFFFFFFF (Nintendo), or 0 (nihstro).
    pub length: u32,
    /// Offset of the name in the symbol table.
    pub name_offset: u32,
}

impl LabelEntry {
    /// Entry size in bytes.
    pub const SIZE: usize = 16;

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(LabelEntry {
            id: r.u32("label entry")?,
            address: r.u32("label entry")?,
            length: r.u32("label entry")?,
            name_offset: r.u32("label entry")?,
        })
    }

    pub(crate) fn put(&self, p: &mut Placement, at: usize) {
        for (k, v) in [self.id, self.address, self.length, self.name_offset].into_iter().enumerate() {
            p.patch_u32(at + 4 * k, v);
        }
    }
}

/// An 8-byte output-table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputEntry {
    /// Semantic (see [`output_semantic_name`]).
    pub semantic: u16,
    /// Output register o0–o15.
    pub register: u16,
    /// Component mask, bit 0 = x.
    pub mask: u16,
    /// Unused half-word, kept as stored.
    pub pad: u16,
}

impl OutputEntry {
    /// Entry size in bytes.
    pub const SIZE: usize = 8;

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(OutputEntry {
            semantic: r.u16("output entry")?,
            register: r.u16("output entry")?,
            mask: r.u16("output entry")?,
            pad: r.u16("output entry")?,
        })
    }

    pub(crate) fn put(&self, p: &mut Placement, at: usize) {
        for (k, v) in [self.semantic, self.register, self.mask, self.pad].into_iter().enumerate() {
            p.patch_u16(at + 2 * k, v);
        }
    }
}

/// An 8-byte uniform-table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UniformEntry {
    /// Offset of the name in the symbol table.
    pub name_offset: u32,
    /// First register, unified numbering (see [`pica::unified_register_name`]).
    pub first: u16,
    /// Last register (inclusive).
    pub last: u16,
}

impl UniformEntry {
    /// Entry size in bytes.
    pub const SIZE: usize = 8;

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(UniformEntry {
            name_offset: r.u32("uniform entry")?,
            first: r.u16("uniform entry")?,
            last: r.u16("uniform entry")?,
        })
    }

    pub(crate) fn put(&self, p: &mut Placement, at: usize) {
        p.patch_u32(at, self.name_offset);
        p.patch_u16(at + 4, self.first);
        p.patch_u16(at + 6, self.last);
    }
}

/// An 8-byte line-number entry (DVLP and DVOJ): filename offset, source line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineEntry {
    /// Offset of the source file name in the filename symbol table.
    pub file_offset: u32,
    /// Source line of the corresponding instruction.
    pub line: u32,
}

impl LineEntry {
    /// Entry size in bytes.
    pub const SIZE: usize = 8;

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(LineEntry { file_offset: r.u32("line-number entry")?, line: r.u32("line-number entry")? })
    }

    pub(crate) fn put(&self, p: &mut Placement, at: usize) {
        p.patch_u32(at, self.file_offset);
        p.patch_u32(at + 4, self.line);
    }
}

/// The name of an output semantic, as picasso spells it.
pub fn output_semantic_name(semantic: u16) -> Option<&'static str> {
    pica::Output::new(semantic, 0, 0).semantic_name()
}

/// `xyzw`-style text of a mask with bit 0 = x.
pub fn mask_text(mask: u16) -> String {
    let s: String =
        "xyzw".chars().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| c).collect();
    if s.is_empty() { "-".to_string() } else { s }
}

/// The NUL-terminated string at `offset` of a symbol table (its offset counted from the
/// table's start).
pub fn symbol_at(table: &[u8], offset: u32) -> Result<Cstr<'_>> {
    Reader::new(table, Endian::Little).cstr_at(offset as usize, "symbol")
}

/// The symbol at `offset` as text, or a placeholder that says why there is none.
pub(crate) fn symbol_or_placeholder(table: &[u8], offset: u32) -> String {
    match symbol_at(table, offset) {
        Ok(s) => s.text().into_owned(),
        Err(e) if matches!(e.kind(), ErrorKind::OutOfBounds { .. }) => {
            format!("<symbol offset 0x{offset:x} out of range>")
        }
        Err(_) => format!("<symbol offset 0x{offset:x} unterminated>"),
    }
}

/// The strings of a string table in order, each with its offset in the table: NUL-terminated,
/// except that a table that does not end in a NUL has its last string run to its end. Every
/// byte of the table belongs to one string or its NUL.
pub fn strings(table: &[u8]) -> impl Iterator<Item = (usize, Cstr<'_>)> {
    let r = Reader::new(table, Endian::Little);
    let mut at = 0usize;
    std::iter::from_fn(move || {
        if at >= table.len() {
            return None;
        }
        let s = r
            .cstr_at(at, "string")
            .unwrap_or(Cstr { bytes: table.get(at..).unwrap_or(&[]), offset: at as u64 });
        let start = at;
        at += s.len() + 1;
        Some((start, s))
    })
}

/// Put `items` one after the other from `at`, `size` bytes each, with `put`.
pub(crate) fn put_table<T>(
    p: &mut Placement,
    at: usize,
    items: &[T],
    size: usize,
    put: impl Fn(&T, &mut Placement, usize),
) {
    for (k, item) in items.iter().enumerate() {
        put(item, p, at + k * size);
    }
}

/// Read `count` fixed-size entries at `offset` of `section` (a reader over the section that the
/// offsets are relative to). `field_at` is where the offset field sits, for errors. An empty
/// table is not read at all: producers leave stale or past-the-end offsets for empty tables.
pub(crate) fn read_table<T>(
    section: &Reader<'_>,
    offset: u32,
    count: u32,
    entry_size: usize,
    what: &'static str,
    field_at: u64,
    read: impl Fn(&mut Reader<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let len =
        u64::from(count).checked_mul(entry_size as u64).ok_or_else(|| Error::overflow(field_at, what))?;
    let mut r = section.sub(u64::from(offset), len, what, field_at)?;
    // The range check above bounds `count` by the bytes that exist.
    let mut out = Vec::with_capacity(count as usize);
    for _ in 0..count {
        out.push(read(&mut r)?);
    }
    Ok(out)
}

/// Raw bytes of a table (`size` bytes at `offset`); empty tables are not checked.
pub(crate) fn read_blob(
    section: &Reader<'_>,
    offset: u32,
    size: u32,
    what: &'static str,
    field_at: u64,
) -> Result<Vec<u8>> {
    if size == 0 {
        return Ok(Vec::new());
    }
    Ok(section.sub(u64::from(offset), u64::from(size), what, field_at)?.data().to_vec())
}
