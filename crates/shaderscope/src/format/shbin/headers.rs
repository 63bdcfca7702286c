//! The fixed-layout headers of the SHBIN family as they lie in the file (little-endian, no
//! alignment), named after 3dbrew's "SHBIN" page. The parsers read them in place with
//! [`Reader::read_at`](crate::toolkit::Reader::read_at); the writers fill them in and put
//! their bytes back.
//!
//! ```
//! use shaderscope::format::shbin::headers::DvleHeader;
//! use shaderscope::toolkit::{Endian, Reader};
//!
//! let file = shaderscope::shbin::build::example_vertex_shader();
//! let r = Reader::new(&file, Endian::Little);
//! let at = r.u32_at(8, "DVLE offset")? as usize;
//! let h: &DvleHeader = r.read_at(at, "DVLE header")?;
//! assert_eq!((&h.magic, h.endmain_offset.get(), h.uniform_table.entries.get()), (b"DVLE", 8, 1));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::toolkit::raw::{ByteOrder, LittleEndian, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

type Le = LittleEndian;

/// Where a table sits: its offset (relative to the structure that holds this reference) and
/// its length (entries, or bytes for string tables).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct TableRef {
    /// Offset of the table.
    pub offset: U32<Le>,
    /// Number of entries (bytes for a symbol table).
    pub entries: U32<Le>,
}

impl TableRef {
    /// A reference to `entries` entries at `offset`.
    pub fn new(offset: u32, entries: u32) -> TableRef {
        TableRef { offset: U32::new(offset), entries: U32::new(entries) }
    }
}

/// The DVLB header: the magic and the number of DVLEs. The DVLE offset table (one u32 per
/// DVLE, relative to the DVLB start) follows it.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct DvlbHeader {
    /// `DVLB`.
    pub magic: [u8; 4],
    /// Number of DVLEs.
    pub dvle_count: U32<Le>,
}

/// The DVLP header as far as every producer writes it (nihstro's header ends here, at 0x1C).
/// Offsets are relative to the DVLP start.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct DvlpHeader {
    /// `DVLP`.
    pub magic: [u8; 4],
    /// Version (Nintendo 0x1002, as in the DVLE; picasso and nihstro 0).
    pub version: U32<Le>,
    /// The compiled shader binary blob; its length in 32-bit words.
    pub shader_binary: TableRef,
    /// The operand descriptor table (8-byte entries).
    pub operand_descriptor_table: TableRef,
    /// Offset of the line-number table (nihstro: of the filename symbol table).
    pub line_number_table_offset: U32<Le>,
}

/// The rest of a full (0x28-byte) DVLP header, after [`DvlpHeader`].
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct DvlpHeaderTail {
    /// Entries of the line-number table (8 bytes each).
    pub line_number_table_entries: U32<Le>,
    /// The filename symbol table; its size in bytes.
    pub filename_symbol_table: TableRef,
}

/// A DVLE header (0x40 bytes). Table offsets are relative to the DVLE start.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct DvleHeader {
    /// `DVLE`.
    pub magic: [u8; 4],
    /// Version (0x1002; nihstro 0).
    pub version: U16<Le>,
    /// Shader type: 0 vertex, 1 geometry.
    pub shader_type: u8,
    /// Bit 0: merge vertex/geometry shader output maps.
    pub merge_output_maps: u8,
    /// Entry point in the shader binary, in words.
    pub main_offset: U32<Le>,
    /// End of the entry procedure, in words.
    pub endmain_offset: U32<Le>,
    /// Input registers used (bit n = vn).
    pub used_input_registers: U16<Le>,
    /// Output registers used (bit n = on).
    pub used_output_registers: U16<Le>,
    /// Geometry shader type: 0 point, 1 variable-size primitives, 2 fixed-size primitives.
    pub geometry_shader_type: u8,
    /// Fixed-size primitives: the first float uniform of the vertex array.
    pub fixed_start_register: u8,
    /// Variable-size primitives: the number of fully defined vertices.
    pub variable_vertex_count: u8,
    /// Fixed-size primitives: the number of vertices.
    pub fixed_vertex_count: u8,
    /// Constant table (20-byte entries).
    pub constant_table: TableRef,
    /// Label table (16-byte entries).
    pub label_table: TableRef,
    /// Output register table (8-byte entries).
    pub output_register_table: TableRef,
    /// Uniform table (8-byte entries).
    pub uniform_table: TableRef,
    /// Symbol table (size in bytes).
    pub symbol_table: TableRef,
}

/// The DVOJ/DVOB header (0x58 bytes): three words of unknown meaning, then nine tables, their
/// offsets relative to the file start.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct DvojHeader {
    /// `DVOJ` or `DVOB`.
    pub magic: [u8; 4],
    /// Words 0x04, 0x08, 0x0C (the low byte of the first is the shader type).
    pub unknown: [U32<Le>; 3],
    /// Constant, label, code, operand descriptor, line-number, relocation, output, uniform
    /// and symbol tables, in that order.
    pub tables: [TableRef; 9],
}

/// The CGFX header (0x14 bytes), in the byte order its byte-order mark gives.
#[derive(Debug, Clone, Copy, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct CgfxHeader<O: ByteOrder> {
    /// `CGFX`.
    pub magic: [u8; 4],
    /// `FF FE` little-endian, `FE FF` big-endian.
    pub byte_order_mark: [u8; 2],
    /// Header size.
    pub header_size: U16<O>,
    /// Revision.
    pub revision: U32<O>,
    /// File size.
    pub file_size: U32<O>,
    /// Number of blocks.
    pub blocks: U32<O>,
}

/// `Err` naming `what` at `at` unless `found` is `expected`.
pub(crate) fn check_magic(found: &[u8; 4], expected: &[u8; 4], at: u64, what: &'static str) -> Result<()> {
    if found == expected { Ok(()) } else { Err(Error::bad_magic(at, what, expected, found)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_the_documented_ones() {
        assert_eq!(size_of::<DvlbHeader>(), 8);
        assert_eq!(size_of::<DvlpHeader>(), 0x1c);
        assert_eq!(size_of::<DvlpHeader>() + size_of::<DvlpHeaderTail>(), 0x28);
        assert_eq!(size_of::<DvleHeader>(), 0x40);
        assert_eq!(size_of::<DvojHeader>(), 0x58);
        assert_eq!(size_of::<CgfxHeader<LittleEndian>>(), 0x14);
    }
}
