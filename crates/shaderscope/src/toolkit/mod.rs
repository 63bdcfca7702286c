//! The container toolkit: what every format module reads and writes with, so that a new
//! format starts from tested pieces instead of its own copies.
//!
//! | piece | for |
//! |---|---|
//! | [`Reader`] | bounds-checked reads in either byte order, as a cursor or at offsets (`u32_at`, `cstr_at`, `read_at`), errors at absolute offsets |
//! | [`raw`] | integer types of a fixed byte order, for header structs declared once for both orders and read in place |
//! | [`Chunk`], [`Chunks`], [`FourCC`] | chunk trees (four-character code, size, payload): DXBC, MBS |
//! | [`layout`] | lossless placement: the pieces a writer produces plus the filler (bytes no structure claims), so unmodified files write back identically |
//! | [`Writer`] | two-phase writing: reserve ranges, write them, patch offsets, sizes and checksums |
//! | [`Field`] | bit fields of instruction encodings in 32-, 64- and 128-bit words and in bit strings |
//!
//! ARCHITECTURE.md at the root of the project says which piece a new container uses for what.
//!
//! ```
//! use shaderscope::toolkit::{Endian, Field, Reader, Writer};
//!
//! // A big-endian record: a magic, a count, then an instruction word whose top six bits are
//! // the opcode.
//! const OPCODE: Field = Field::at(26, 6);
//! let mut w = Writer::new(Endian::Big);
//! w.bytes(b"DEMO");
//! w.u16(2);
//! w.u32(OPCODE.put(0x13u32) | 7);
//! let bytes = w.finish();
//! assert_eq!(bytes, b"DEMO\0\x02\x4c\0\0\x07");
//!
//! let mut r = Reader::new(&bytes, Endian::Big);
//! r.magic(b"DEMO", "demo header")?;
//! assert_eq!(r.u16("instruction count")?, 2);
//! assert_eq!(OPCODE.get(r.u32("instruction")?), 0x13);
//! assert_eq!(
//!     r.u32("instruction").unwrap_err().to_string(),
//!     "truncated instruction at offset 0xa (need 4 bytes, have 0)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

pub(crate) mod bits;
pub(crate) mod bytes;
pub(crate) mod chunk;
pub mod layout;
pub mod raw;
pub(crate) mod writer;

pub use bits::Field;
pub use bytes::{Cstr, Endian, Reader, checked_range, le_u32};
pub use chunk::{CHUNK_HEADER_SIZE, Chunk, Chunks, FourCC};
pub use writer::Writer;
