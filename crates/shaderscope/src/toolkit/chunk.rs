//! Chunk trees: a chunk is a four-character code, a 32-bit size and that many bytes of
//! payload. DXBC puts its chunks where an index points; MBS nests chunks inside chunks, one
//! after the other. Both read them with [`Chunk::read`]; consecutive chunks come from
//! [`Chunks`].
//!
//! ```
//! use shaderscope::toolkit::{Chunk, Chunks, Endian, FourCC, Reader};
//!
//! let data = b"STAT\x04\0\0\0abcdSFI0\x00\0\0\0";
//! let r = Reader::with_base(data, 0x20, Endian::Little);
//! let first = Chunk::read(&r, 0, "chunk")?;
//! assert_eq!((first.fourcc, first.offset, first.data), (FourCC(*b"STAT"), 0x20, &b"abcd"[..]));
//! let tags: Vec<FourCC> = Chunks::new(r).map(|c| c.map(|c| c.fourcc)).collect::<Result<_, _>>()?;
//! assert_eq!(tags, [FourCC(*b"STAT"), FourCC(*b"SFI0")]);
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::bytes::Reader;
use crate::error::{Error, Result};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// A four-character code such as `RDEF`, `SHEX` or `CFRA`.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(transparent)]
pub struct FourCC(pub [u8; 4]);

impl FourCC {
    /// The code as text; non-printable bytes are escaped as `\xNN`.
    pub fn name(&self) -> String {
        crate::error::escape_bytes(&self.0)
    }
}

impl std::fmt::Debug for FourCC {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name())
    }
}

impl std::fmt::Display for FourCC {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// Size of a chunk header: the code and the payload size.
pub const CHUNK_HEADER_SIZE: usize = 8;

/// One chunk, borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// Its four-character code.
    pub fourcc: FourCC,
    /// Absolute offset of the chunk header (the code).
    pub offset: usize,
    /// The payload (after the 8-byte header).
    pub data: &'a [u8],
}

impl<'a> Chunk<'a> {
    /// The chunk whose header is at `at` in `r` (the size in `r`'s byte order); its payload
    /// must lie inside `r`.
    pub fn read(r: &Reader<'a>, at: usize, what: &'static str) -> Result<Chunk<'a>> {
        let fourcc = FourCC(r.array_at::<4>(at, what)?);
        let size = r.u32_at(at.saturating_add(4), what)?;
        let body = at.saturating_add(CHUNK_HEADER_SIZE);
        let offset = r.base().saturating_add(at as u64);
        let Some(data) = r.data().get(body..).and_then(|rest| rest.get(..size as usize)) else {
            let end = r.base() + r.data().len() as u64;
            return Err(Error::out_of_bounds(
                offset + 4,
                format!("{fourcc} chunk"),
                offset + 8,
                u64::from(size),
                end,
            ));
        };
        Ok(Chunk { fourcc, offset: offset as usize, data })
    }

    /// Absolute offset of the payload's first byte.
    pub fn data_offset(&self) -> usize {
        self.offset + CHUNK_HEADER_SIZE
    }

    /// Absolute end of the payload.
    pub fn end(&self) -> usize {
        self.data_offset() + self.data.len()
    }

    /// A reader over the payload (absolute offsets kept) in `endian`.
    pub fn reader(&self, endian: super::Endian) -> Reader<'a> {
        Reader::with_base(self.data, self.data_offset() as u64, endian)
    }
}

/// The chunks that follow one another in a reader's bytes, until its end. After an error the
/// iterator stops.
#[derive(Debug, Clone)]
pub struct Chunks<'a> {
    r: Reader<'a>,
    at: usize,
    done: bool,
}

impl<'a> Chunks<'a> {
    /// Chunks from the start of `r`.
    pub fn new(r: Reader<'a>) -> Self {
        Chunks { r, at: 0, done: false }
    }
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<Chunk<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.at >= self.r.data().len() {
            return None;
        }
        match Chunk::read(&self.r, self.at, "chunk header") {
            Ok(c) => {
                self.at = self.at.saturating_add(CHUNK_HEADER_SIZE + c.data.len());
                Some(Ok(c))
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolkit::Endian;

    #[test]
    fn a_chunk_that_reaches_past_its_parent_is_an_error_with_offsets() {
        let data = b"CFRA\x10\0\0\0abcd";
        let r = Reader::with_base(data, 0x100, Endian::Little);
        let e = Chunk::read(&r, 0, "chunk").unwrap_err();
        assert_eq!(
            e.to_string(),
            "CFRA chunk at offset 0x104 points outside its range (0x108 + 0x10 is outside 0x10c)"
        );
        let all: Vec<_> = Chunks::new(r.clone()).collect();
        assert_eq!(all.len(), 1);
        assert!(all[0].is_err());
        let e = Chunk::read(&r, 10, "chunk").unwrap_err();
        assert_eq!(e.to_string(), "truncated chunk at offset 0x10a (need 4 bytes, have 2)");
    }
}
