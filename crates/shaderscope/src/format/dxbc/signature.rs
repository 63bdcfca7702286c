//! Signature chunks: ISGN/OSGN/PCSG (24-byte elements), OSG5 (28: a stream first) and
//! ISG1/OSG1/PSG1 (32: stream first, minimum precision last).

use super::text::Cstr;
use crate::error::{Error, Result};
use crate::toolkit::{Endian, Reader, le_u32};

/// Which stage boundary a signature describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignatureKind {
    /// ISGN / ISG1.
    Input,
    /// OSGN / OSG5 / OSG1.
    Output,
    /// PCSG / PSG1.
    PatchConstant,
}

/// The element layout of a signature chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementLayout {
    /// 24 bytes: ISGN, OSGN, PCSG.
    Plain,
    /// 28 bytes with a stream index first: OSG5.
    Stream,
    /// 32 bytes with stream and minimum precision: ISG1, OSG1, PSG1.
    MinPrecision,
}

impl ElementLayout {
    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElementLayout::Plain => 24,
            ElementLayout::Stream => 28,
            ElementLayout::MinPrecision => 32,
        }
    }
}

/// One signature element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element<'a> {
    /// Absolute offset of the element record.
    pub offset: usize,
    /// Geometry-shader stream (OSG5/xSG1; 0 otherwise).
    pub stream: u32,
    /// Semantic name.
    pub name: Cstr<'a>,
    /// Offset of the name, relative to the chunk data.
    pub name_offset: u32,
    /// Semantic index.
    pub semantic_index: u32,
    /// `D3D_NAME` system value.
    pub system_value: u32,
    /// `D3D_REGISTER_COMPONENT_TYPE`: 1 uint, 2 sint, 3 float.
    pub component_type: u32,
    /// Register number.
    pub register: u32,
    /// Components present.
    pub mask: u8,
    /// Inputs: components read; outputs: components *never written*.
    pub rw_mask: u8,
    /// The two bytes after the masks (zero in compiler output; kept).
    pub reserved: u16,
    /// `D3D_MIN_PRECISION` (xSG1 only).
    pub min_precision: u32,
}

/// A parsed signature chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Which boundary.
    pub kind: SignatureKind,
    /// Element layout.
    pub layout: ElementLayout,
    /// The second header word (8 in compiler output: the offset of the first element).
    pub element_offset: u32,
    /// The elements.
    pub elements: Vec<Element<'a>>,
}

impl<'a> Signature<'a> {
    /// Parse the payload of a signature chunk whose payload starts at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize, kind: SignatureKind, layout: ElementLayout) -> Result<Self> {
        let mut r = Reader::with_base(data, base as u64, Endian::Little);
        let count_at = r.original_position();
        let count = r.u32("signature header")?;
        let element_offset = r.u32("signature header")?;
        let size = layout.size();
        let need = u64::from(count).saturating_mul(size as u64).saturating_add(u64::from(element_offset));
        if need > data.len() as u64 {
            return Err(Error::invalid(
                count_at,
                "signature header",
                format!(
                    "{count} elements of {size} bytes from offset {element_offset} need {need} bytes, the chunk has {}",
                    data.len()
                ),
            ));
        }
        // Every record is inside the chunk (checked above): each is decoded from its own
        // slice, field by field, without a reader's bounds checks and error paths.
        let first = element_offset as usize;
        let records = data.get(first..).unwrap_or(&[]).chunks_exact(size).take(count as usize);
        let mut elements: Vec<Element<'a>> = Vec::with_capacity(count as usize);
        for (k, rec) in records.enumerate() {
            let at = base + first + k * size;
            let word = |i: usize| le_u32(rec, 4 * i).unwrap_or(0);
            // Stream and min-precision layouts start with the stream.
            let w = usize::from(layout != ElementLayout::Plain);
            let stream = if w == 1 { word(0) } else { 0 };
            let name_offset = word(w);
            let masks = word(w + 5);
            let min_precision = if layout == ElementLayout::MinPrecision { word(w + 6) } else { 0 };
            let name_at = (at + 4 * w) as u64;
            // Elements with the same semantic (TEXCOORD0, TEXCOORD1, …) share one name.
            let name = match elements.last() {
                Some(e) if e.name_offset == name_offset => e.name,
                _ => Cstr::at(data, base, name_offset, "signature element name", name_at)?,
            };
            elements.push(Element {
                offset: at,
                stream,
                name,
                name_offset,
                semantic_index: word(w + 1),
                system_value: word(w + 2),
                component_type: word(w + 3),
                register: word(w + 4),
                mask: masks as u8,
                rw_mask: (masks >> 8) as u8,
                reserved: (masks >> 16) as u16,
                min_precision,
            });
        }
        Ok(Signature { offset: base, kind, layout, element_offset, elements })
    }
}

/// The short system-value names fxc prints in the SysValue column: `D3D_NAME` 0–19, then
/// 64–70 ([`system_value_index`]).
pub const SYSTEM_VALUE_NAMES: [&str; 27] = [
    "NONE",
    "POS",
    "CLIPDST",
    "CULLDST",
    "RTINDEX",
    "VPINDEX",
    "VERTID",
    "PRIMID",
    "INSTID",
    "FFACE",
    "SAMPLE",
    "QUADEDGE",
    "QUADINT",
    "TRIEDGE",
    "TRIINT",
    "LINEDET",
    "LINEDEN",
    "BARYCEN",
    "SHDINGRT",
    "CULLPRIM",
    "TARGET",
    "DEPTH",
    "COVERAGE",
    "DEPTHGE",
    "DEPTHLE",
    "STENCILREF",
    "INNERCOV",
];

/// Where a `D3D_NAME` value's short name sits in [`SYSTEM_VALUE_NAMES`].
pub fn system_value_index(v: u32) -> Option<usize> {
    match v {
        0..=19 => Some(v as usize),
        64..=70 => Some(v as usize - 44),
        _ => None,
    }
}

/// The short system-value name fxc prints in the SysValue column.
pub fn system_value_name(v: u32) -> Option<&'static str> {
    SYSTEM_VALUE_NAMES.get(system_value_index(v)?).copied()
}

/// The names of the Format column ([`format_index`]).
pub const FORMAT_NAMES: [&str; 8] =
    ["min16f", "min2_8f", "min16i", "min16u", "uint", "int", "float", "unknown"];

/// Where the Format column's name sits in [`FORMAT_NAMES`]: the minimum-precision type when one
/// is set, else the component type.
pub fn format_index(component_type: u32, min_precision: u32) -> usize {
    match (min_precision, component_type) {
        (1, _) => 0,
        (2, _) => 1,
        (4, _) => 2,
        (5, _) => 3,
        (_, 1) => 4,
        (_, 2) => 5,
        (_, 3) => 6,
        _ => 7,
    }
}

/// The Format column: component type, or the minimum-precision type when one is set.
pub fn format_name(component_type: u32, min_precision: u32) -> &'static str {
    FORMAT_NAMES.get(format_index(component_type, min_precision)).copied().unwrap_or("unknown")
}

/// A 4-component mask as fxc prints it: `xy  `, `   w` (the low four bits; the others are
/// not components).
pub fn mask_text(mask: u8) -> [u8; 4] {
    MASK_TEXTS.get(usize::from(mask & 0xF)).copied().unwrap_or(*b"    ")
}

/// [`mask_text`] of every 4-bit mask, built at compile time: a table read costs less than
/// four tests of a bit.
static MASK_TEXTS: [[u8; 4]; 16] = mask_texts();

#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of range fails the build
const fn mask_texts() -> [[u8; 4]; 16] {
    let mut t = [*b"    "; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut i = 0;
        while i < 4 {
            if mask & (1 << i) != 0 {
                t[mask][i] = b"xyzw"[i];
            }
            i += 1;
        }
        mask += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(name_off: u32, idx: u32, sv: u32, ty: u32, reg: u32, mask: u8, rw: u8) -> Vec<u8> {
        let mut v = Vec::new();
        for w in [name_off, idx, sv, ty, reg] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(&[mask, rw, 0, 0]);
        v
    }

    #[test]
    fn parses_a_two_element_isgn() {
        let mut d = Vec::new();
        d.extend_from_slice(&2u32.to_le_bytes());
        d.extend_from_slice(&8u32.to_le_bytes());
        d.extend(element(56, 0, 0, 3, 0, 7, 7));
        d.extend(element(65, 0, 1, 3, 1, 15, 0));
        d.extend_from_slice(b"POSITION\0SV_Position\0");
        let s = Signature::parse(&d, 0x100, SignatureKind::Input, ElementLayout::Plain).unwrap();
        assert_eq!(s.elements.len(), 2);
        assert_eq!(s.elements[0].name.text(), "POSITION");
        assert_eq!(s.elements[1].name.text(), "SV_Position");
        assert_eq!(s.elements[1].offset, 0x100 + 32);
        assert_eq!(s.elements[1].system_value, 1);
        assert_eq!(&mask_text(s.elements[0].mask), b"xyz ");
    }

    #[test]
    fn mask_texts_name_the_set_components() {
        for mask in 0..=255u8 {
            let want: String =
                "xyzw".chars().enumerate().map(|(i, c)| if mask & (1 << i) != 0 { c } else { ' ' }).collect();
            assert_eq!(mask_text(mask), want.as_bytes());
        }
    }

    #[test]
    fn names_follow_d3d_name_and_the_component_types() {
        assert_eq!(system_value_name(0), Some("NONE"));
        assert_eq!(system_value_name(19), Some("CULLPRIM"));
        assert_eq!(system_value_name(20), None);
        assert_eq!(system_value_name(63), None);
        assert_eq!(system_value_name(64), Some("TARGET"));
        assert_eq!(system_value_name(69), Some("STENCILREF"));
        assert_eq!(system_value_name(70), Some("INNERCOV"));
        assert_eq!(system_value_name(71), None);
        assert_eq!(format_name(3, 0), "float");
        assert_eq!(format_name(1, 0), "uint");
        assert_eq!(format_name(2, 0), "int");
        assert_eq!(format_name(0, 0), "unknown");
        assert_eq!(format_name(3, 1), "min16f");
        assert_eq!(format_name(3, 2), "min2_8f");
        assert_eq!(format_name(2, 4), "min16i");
        assert_eq!(format_name(1, 5), "min16u");
        assert_eq!(format_name(3, 3), "float");
    }

    #[test]
    fn rejects_a_count_larger_than_the_chunk() {
        let mut d = Vec::new();
        d.extend_from_slice(&0x1000_0000u32.to_le_bytes());
        d.extend_from_slice(&8u32.to_le_bytes());
        let e = Signature::parse(&d, 0x40, SignatureKind::Output, ElementLayout::Plain).unwrap_err();
        assert_eq!(e.offset(), 0x40);
        assert!(e.to_string().contains("268435456 elements of 24 bytes"), "{e}");
    }

    #[test]
    fn a_name_outside_the_chunk_is_an_error_at_the_name_field() {
        let mut d = Vec::new();
        d.extend_from_slice(&1u32.to_le_bytes());
        d.extend_from_slice(&8u32.to_le_bytes());
        d.extend(element(500, 0, 0, 3, 0, 1, 1));
        let e = Signature::parse(&d, 0x40, SignatureKind::Input, ElementLayout::Plain).unwrap_err();
        assert_eq!(e.offset(), 0x48);
    }
}
