//! Signature chunks: ISGN/OSGN/PCSG (24-byte elements), OSG5 (28: a stream first) and
//! ISG1/OSG1/PSG1 (32: stream first, minimum precision last).
//!
//! [`Dxbc::parse`](super::Dxbc::parse) parses them into [`Dxbc::input`](super::Dxbc::input),
//! [`Dxbc::output`](super::Dxbc::output) and
//! [`Dxbc::patch_constant`](super::Dxbc::patch_constant); the functions at the end give the
//! text of the listing's signature tables.
//!
//! ```
//! use shaderscope::format::dxbc::signature::{self, ElementLayout, Signature, SignatureKind};
//!
//! // ISGN: two elements from offset 8, names after them.
//! let mut isgn = Vec::new();
//! for w in [2u32, 8] {
//!     isgn.extend(w.to_le_bytes());
//! }
//! // name offset, semantic index, system value, component type (3 float), register; masks
//! for (fields, masks) in [([56u32, 0, 0, 3, 0], [0x7u8, 0x7]), ([65, 0, 1, 3, 1], [0xf, 0])] {
//!     fields.iter().for_each(|w| isgn.extend(w.to_le_bytes()));
//!     isgn.extend([masks[0], masks[1], 0, 0]);
//! }
//! isgn.extend(b"POSITION\0SV_Position\0");
//!
//! let s = Signature::parse(&isgn, 0x100, SignatureKind::Input, ElementLayout::Plain)?;
//! let [pos, sv] = &s.elements[..] else { panic!() };
//! assert_eq!((pos.name.text().as_ref(), pos.register, signature::mask_text(pos.mask)), ("POSITION", 0, "xyz "));
//! assert_eq!((sv.name.text().as_ref(), sv.offset), ("SV_Position", 0x100 + 32));
//! assert_eq!(signature::system_value_name(sv.system_value), Some("POS"));
//! assert_eq!(signature::format_name(sv.component_type, sv.min_precision), "float");
//!
//! assert_eq!(
//!     Signature::parse(&isgn[..40], 0x100, SignatureKind::Input, ElementLayout::Plain).unwrap_err().to_string(),
//!     "invalid signature header at offset 0x100: 2 elements of 24 bytes from 0x108 do not fit in the chunk (it ends at 0x128)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::toolkit::raw::{LittleEndian, U16, U32};
use crate::toolkit::{Cstr, Endian, Reader};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

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

/// The fields every element layout has (`D3D11_SIGNATURE_PARAMETER_DESC` as stored), after
/// the stream of the longer layouts.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct RawElement {
    name: U32<LittleEndian>,
    semantic_index: U32<LittleEndian>,
    system_value: U32<LittleEndian>,
    component_type: U32<LittleEndian>,
    register: U32<LittleEndian>,
    mask: u8,
    rw_mask: u8,
    reserved: U16<LittleEndian>,
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
        let r = Reader::with_base(data, base as u64, Endian::Little);
        let count_at = r.base();
        let count = r.u32_at(0, "signature header")?;
        let element_offset = r.u32_at(4, "signature header")?;
        let size = layout.size();
        let need = u64::from(count).saturating_mul(size as u64).saturating_add(u64::from(element_offset));
        if need > data.len() as u64 {
            return Err(Error::invalid(
                count_at,
                "signature header",
                format!(
                    "{} of {} from 0x{:x} do not fit in the chunk (it ends at 0x{:x})",
                    crate::print::count(count, "element"),
                    crate::print::count(size, "byte"),
                    count_at + u64::from(element_offset),
                    count_at + data.len() as u64
                ),
            ));
        }
        let stream_first = layout != ElementLayout::Plain;
        let mut elements: Vec<Element<'a>> = Vec::with_capacity(count as usize);
        for k in 0..count as usize {
            let at = element_offset as usize + k * size;
            // The longer layouts start with the stream; ISG1/OSG1/PSG1 end with the minimum precision.
            let stream = if stream_first { r.u32_at(at, "signature element")? } else { 0 };
            let fields = at + if stream_first { 4 } else { 0 };
            let e: &RawElement = r.read_at(fields, "signature element")?;
            let min_precision = match layout {
                ElementLayout::MinPrecision => {
                    r.u32_at(fields + size_of::<RawElement>(), "signature element")?
                }
                _ => 0,
            };
            let name_offset = e.name.get();
            // Elements with the same semantic (TEXCOORD0, TEXCOORD1, …) share one name.
            let name = match elements.last() {
                Some(last) if last.name_offset == name_offset => last.name,
                _ => r
                    .cstr_at(name_offset as usize, "signature element name")
                    .map_err(|e| e.at_field(base as u64 + fields as u64))?,
            };
            elements.push(Element {
                offset: base + at,
                stream,
                name,
                name_offset,
                semantic_index: e.semantic_index.get(),
                system_value: e.system_value.get(),
                component_type: e.component_type.get(),
                register: e.register.get(),
                mask: e.mask,
                rw_mask: e.rw_mask,
                reserved: e.reserved.get(),
                min_precision,
            });
        }
        Ok(Signature { offset: base, kind, layout, element_offset, elements })
    }
}

/// The short system-value names fxc prints in the SysValue column: `D3D_NAME` 0–19, then
/// 64–70.
const SYSTEM_VALUE_NAMES: [&str; 27] = [
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

/// The short system-value name fxc prints in the SysValue column.
pub fn system_value_name(v: u32) -> Option<&'static str> {
    let index = match v {
        0..=19 => v as usize,
        64..=70 => v as usize - 44,
        _ => return None,
    };
    SYSTEM_VALUE_NAMES.get(index).copied()
}

/// The `D3D_NAME` value of a SysValue column name (the inverse of [`system_value_name`]).
pub(crate) fn system_value_by_name(name: &str) -> Option<u32> {
    let index = SYSTEM_VALUE_NAMES.iter().position(|n| *n == name)?;
    Some(if index < 20 { index as u32 } else { index as u32 + 44 })
}

/// The Format column: the minimum-precision type when one is set, else the component type.
pub fn format_name(component_type: u32, min_precision: u32) -> &'static str {
    match (min_precision, component_type) {
        (1, _) => "min16f",
        (2, _) => "min2_8f",
        (4, _) => "min16i",
        (5, _) => "min16u",
        (_, 1) => "uint",
        (_, 2) => "int",
        (_, 3) => "float",
        _ => "unknown",
    }
}

/// The component type and minimum precision a Format column names (the inverse of
/// [`format_name`]): the minimum-precision types keep the component type fxc stores with them.
pub(crate) fn format_by_name(name: &str) -> Option<(u32, u32)> {
    Some(match name {
        "min16f" => (3, 1),
        "min2_8f" => (3, 2),
        "min16i" => (2, 4),
        "min16u" => (1, 5),
        "uint" => (1, 0),
        "int" => (2, 0),
        "float" => (3, 0),
        "unknown" => (0, 0),
        _ => return None,
    })
}

/// A 4-component mask as fxc prints it: `xy  `, `   w` (the low four bits; the others are
/// not components).
pub fn mask_text(mask: u8) -> &'static str {
    const MASKS: [&str; 16] = [
        "    ", "x   ", " y  ", "xy  ", "  z ", "x z ", " yz ", "xyz ", //
        "   w", "x  w", " y w", "xy w", "  zw", "x zw", " yzw", "xyzw",
    ];
    MASKS.get(usize::from(mask & 0xF)).copied().unwrap_or("    ")
}

/// Old compilers stored the pixel-shader outputs with system value 0; the disassembler still
/// names them from the semantic. The `D3D_NAME` value it implies (0 for none).
pub(crate) fn implied_system_value(name: &[u8]) -> u32 {
    const NAMES: [(&[u8], u32); 6] = [
        (b"SV_TARGET", 64),
        (b"SV_DEPTH", 65),
        (b"SV_COVERAGE", 66),
        (b"SV_DEPTHGREATEREQUAL", 67),
        (b"SV_DEPTHLESSEQUAL", 68),
        (b"SV_STENCILREF", 69),
    ];
    NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map_or(0, |(_, v)| *v)
}

/// The register of the outputs that have no `o#` (by `D3D_NAME` value).
pub(crate) fn special_output_register(system_value: u32) -> Option<&'static str> {
    Some(match system_value {
        65 => "oDepth",
        66 => "oMask",
        67 => "oDepthGE",
        68 => "oDepthLE",
        69 => "oStencilRef",
        _ => return None,
    })
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
        assert_eq!(mask_text(s.elements[0].mask), "xyz ");
    }

    #[test]
    fn mask_texts_name_the_set_components() {
        for mask in 0..=255u8 {
            let want: String =
                "xyzw".chars().enumerate().map(|(i, c)| if mask & (1 << i) != 0 { c } else { ' ' }).collect();
            assert_eq!(mask_text(mask), want, "mask {mask:#x}");
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
    fn names_read_back_to_the_values_they_print() {
        for v in (0..=80).filter(|v| system_value_name(*v).is_some()) {
            assert_eq!(system_value_by_name(system_value_name(v).unwrap_or("")), Some(v));
        }
        assert_eq!(system_value_by_name("TARGETS"), None);
        for (ty, min) in [(3, 0), (2, 0), (1, 0), (0, 0), (3, 1), (3, 2), (2, 4), (1, 5)] {
            assert_eq!(format_by_name(format_name(ty, min)), Some((ty, min)));
        }
        assert_eq!(format_by_name("double"), None);
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
    fn a_name_outside_the_chunk_is_an_error_at_its_pointer_saying_where_it_points() {
        let mut d = Vec::new();
        d.extend_from_slice(&1u32.to_le_bytes());
        d.extend_from_slice(&8u32.to_le_bytes());
        d.extend(element(500, 0, 0, 3, 0, 1, 1));
        let e = Signature::parse(&d, 0x40, SignatureKind::Input, ElementLayout::Plain).unwrap_err();
        assert_eq!(
            e.to_string(),
            // The offset a reader can look at is the name field's, inside the chunk.
            "signature element name at offset 0x48 points outside its range (0x234 + 0x1 is outside 0x60)"
        );
    }

    #[test]
    fn the_longer_layouts_read_stream_and_minimum_precision() {
        let mut d = Vec::new();
        d.extend_from_slice(&1u32.to_le_bytes());
        d.extend_from_slice(&8u32.to_le_bytes());
        d.extend_from_slice(&2u32.to_le_bytes()); // stream
        d.extend(element(40, 3, 0, 3, 5, 0xF, 0x3));
        d.extend_from_slice(&1u32.to_le_bytes()); // min16f
        d.extend_from_slice(b"COLOR\0");
        let s = Signature::parse(&d, 0x10, SignatureKind::Output, ElementLayout::MinPrecision).unwrap();
        let e = &s.elements[0];
        assert_eq!((e.stream, e.name.text().as_ref(), e.name.offset), (2, "COLOR", 0x10 + 40));
        assert_eq!((e.semantic_index, e.register, e.mask, e.rw_mask, e.min_precision), (3, 5, 0xF, 0x3, 1));
    }
}
