//! Integer types of a fixed byte order, for the fixed-layout headers of the formats, in the
//! manner of gimli-rs/object's `U32<E>`: a header struct is declared once, generic over its
//! byte order, named as the format's documentation names it, and read in place with
//! [`Reader::read_at`](super::Reader::read_at). Fields have alignment 1, so a struct can sit
//! at any offset.
//!
//! ```
//! use shaderscope::toolkit::raw::{BigEndian, ByteOrder, LittleEndian, U32};
//! use shaderscope::toolkit::{Endian, FourCC, Reader};
//! use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};
//!
//! /// A chunk header, in either byte order.
//! #[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
//! #[repr(C)]
//! struct ChunkHeader<O: ByteOrder> {
//!     fourcc: FourCC,
//!     size: U32<O>,
//! }
//!
//! let le = Reader::new(b"DBIN\x10\0\0\0", Endian::Little);
//! let h: &ChunkHeader<LittleEndian> = le.read_at(0, "chunk header")?;
//! assert_eq!(h.size.get(), 16);
//! let be = Reader::new(b"NIBD\0\0\0\x10", Endian::Big);
//! let h: &ChunkHeader<BigEndian> = be.read_at(0, "chunk header")?;
//! assert_eq!((h.fourcc.0, h.size.get()), (*b"NIBD", 16));
//! # Ok::<(), shaderscope::Error>(())
//! ```

pub use zerocopy::byteorder::{BigEndian, ByteOrder, I16, I32, LittleEndian, U16, U32, U64};
