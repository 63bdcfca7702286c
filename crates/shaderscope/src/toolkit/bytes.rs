//! Bounds-checked reads of input bytes, in either byte order.
//!
//! [`Reader`] is a view of a borrowed slice that knows the absolute offset of its first byte
//! (`base`), so every error it returns points into the original file even when it reads an
//! embedded blob. It reads two ways: as a cursor (`u32`, `bytes`, `cstr`, … move on) and at
//! offsets relative to its start (`u32_at`, `bytes_at`, `cstr_at`, `read_at`, … leave the cursor
//! where it is), for tables that point at each other.
//!
//! ```
//! use shaderscope::toolkit::{Endian, Reader};
//!
//! // A blob at file offset 0x100: a u32 offset to a string, then the string.
//! let blob = b"\x04\0\0\0name\0";
//! let r = Reader::with_base(blob, 0x100, Endian::Little);
//! let at = r.u32_at(0, "name offset")?;
//! let name = r.cstr_at(at as usize, "name")?;
//! assert_eq!((name.bytes, name.offset), (&b"name"[..], 0x104));
//! let e = r.u32_at(8, "count").unwrap_err();
//! assert_eq!(e.to_string(), "truncated count at offset 0x108 (need 4 bytes, have 1)");
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use std::borrow::Cow;
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// Byte order of multi-byte fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Endian {
    /// Least significant byte first (3DS, PC, Mali).
    Little,
    /// Most significant byte first (Wii U).
    Big,
}

impl Endian {
    /// `"little"` or `"big"`.
    pub fn name(self) -> &'static str {
        match self {
            Endian::Little => "little",
            Endian::Big => "big",
        }
    }

    /// `v`'s bytes in this order.
    pub fn u32_bytes(self, v: u32) -> [u8; 4] {
        match self {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        }
    }
}

/// A cursor over `data` whose first byte sits at absolute offset `base` of the input.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
    endian: Endian,
}

type What = Cow<'static, str>;

impl<'a> Reader<'a> {
    /// A reader over a whole input (absolute offset 0).
    pub fn new(data: &'a [u8], endian: Endian) -> Self {
        Reader { data, pos: 0, base: 0, endian }
    }

    /// A reader over `data` that sits at absolute offset `base` of the input.
    pub fn with_base(data: &'a [u8], base: u64, endian: Endian) -> Self {
        Reader { data, pos: 0, base, endian }
    }

    /// Byte order of multi-byte reads.
    pub fn endian(&self) -> Endian {
        self.endian
    }

    /// The bytes this reader covers (all of them, not only the unread part).
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Position relative to the start of this reader.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Absolute offset in the input of the next byte to read.
    pub fn original_position(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Absolute offset of this reader's first byte.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Unread bytes.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// True when everything has been read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// Move to `pos` (relative to this reader); `pos == len` is allowed.
    pub fn seek(&mut self, pos: usize, what: impl Into<What>) -> Result<()> {
        if pos > self.data.len() {
            return Err(Error::out_of_bounds(
                self.original_position(),
                what,
                self.base + pos as u64,
                0,
                self.base + self.data.len() as u64,
            ));
        }
        self.pos = pos;
        Ok(())
    }

    /// Skip `n` bytes.
    pub fn skip(&mut self, n: usize, what: impl Into<What>) -> Result<()> {
        self.bytes(n, what).map(|_| ())
    }

    /// The next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize, what: impl Into<What>) -> Result<&'a [u8]> {
        match self.data.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(b) => {
                self.pos += n;
                Ok(b)
            }
            None => Err(self.eof(what, n)),
        }
    }

    /// The next `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self, what: impl Into<What>) -> Result<[u8; N]> {
        let b = self.bytes(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    /// The error for "`what` needs `need` bytes here".
    #[cold]
    pub fn eof(&self, what: impl Into<What>, need: usize) -> Error {
        Error::truncated(self.original_position(), what, need as u64, self.remaining() as u64)
    }

    /// One byte.
    #[inline]
    pub fn u8(&mut self, what: impl Into<What>) -> Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A 16-bit integer in this reader's byte order.
    #[inline]
    pub fn u16(&mut self, what: impl Into<What>) -> Result<u16> {
        let b = self.array::<2>(what)?;
        Ok(match self.endian {
            Endian::Little => u16::from_le_bytes(b),
            Endian::Big => u16::from_be_bytes(b),
        })
    }

    /// A 32-bit integer in this reader's byte order.
    #[inline(always)]
    pub fn u32(&mut self, what: impl Into<What>) -> Result<u32> {
        // Always inlined: the commonest read, whose call (a `Result` returned through memory)
        // costs more than the read; the error is built out of line.
        match self.data.get(self.pos..).and_then(|rest| rest.first_chunk::<4>()) {
            Some(&b) => {
                self.pos += 4;
                Ok(match self.endian {
                    Endian::Little => u32::from_le_bytes(b),
                    Endian::Big => u32::from_be_bytes(b),
                })
            }
            None => Err(self.eof(what, 4)),
        }
    }

    /// A 64-bit integer in this reader's byte order.
    #[inline]
    pub fn u64(&mut self, what: impl Into<What>) -> Result<u64> {
        let b = self.array::<8>(what)?;
        Ok(match self.endian {
            Endian::Little => u64::from_le_bytes(b),
            Endian::Big => u64::from_be_bytes(b),
        })
    }

    /// A 32-bit float in this reader's byte order.
    pub fn f32(&mut self, what: impl Into<What>) -> Result<f32> {
        self.u32(what).map(f32::from_bits)
    }

    /// Check that the next bytes are `magic`; `what` names the structure.
    pub fn magic(&mut self, magic: &[u8], what: impl Into<What>) -> Result<()> {
        let what = what.into();
        let at = self.original_position();
        let found = self.bytes(magic.len(), what.clone())?;
        if found != magic {
            return Err(Error::bad_magic(at, what, magic, found));
        }
        Ok(())
    }

    /// A zero-copy view of a fixed-layout structure (alignment 1).
    pub fn read<T>(&mut self, what: impl Into<What>) -> Result<&'a T>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let b = self.bytes(size_of::<T>(), what)?;
        // Cannot fail: the length is exact and T is unaligned.
        T::ref_from_bytes(b).map_err(|_| Error::invalid(self.original_position(), "structure", "layout"))
    }

    /// `count` consecutive fixed-layout items. The count is checked against the bytes that
    /// remain before anything is touched, so a hostile count cannot allocate.
    pub fn slice_of<T>(&mut self, count: usize, what: impl Into<What>) -> Result<&'a [T]>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let what = what.into();
        let Some(len) = count.checked_mul(size_of::<T>()) else {
            return Err(Error::overflow(self.original_position(), what));
        };
        let b = self.bytes(len, what)?;
        <[T]>::ref_from_bytes(b).map_err(|_| Error::invalid(self.original_position(), "table", "layout"))
    }

    /// A NUL-terminated string; the cursor moves past the NUL. The result excludes it.
    pub fn cstr(&mut self, what: impl Into<What>) -> Result<&'a [u8]> {
        let s = self.cstr_at(self.pos, what)?;
        self.pos += s.bytes.len() + 1;
        Ok(s.bytes)
    }

    /// `n` bytes at `at` (relative to this reader's start); the cursor does not move.
    #[inline]
    pub fn bytes_at(&self, at: usize, n: usize, what: impl Into<What>) -> Result<&'a [u8]> {
        match self.data.get(at..).and_then(|rest| rest.get(..n)) {
            Some(b) => Ok(b),
            None => Err(self.eof_at(at, what, n)),
        }
    }

    /// `N` bytes at `at` as an array.
    #[inline]
    pub fn array_at<const N: usize>(&self, at: usize, what: impl Into<What>) -> Result<[u8; N]> {
        match self.data.get(at..).and_then(|rest| rest.first_chunk::<N>()) {
            Some(b) => Ok(*b),
            None => Err(self.eof_at(at, what, N)),
        }
    }

    /// The byte at `at`.
    pub fn u8_at(&self, at: usize, what: impl Into<What>) -> Result<u8> {
        Ok(self.array_at::<1>(at, what)?[0])
    }

    /// A 16-bit integer at `at`, in this reader's byte order.
    pub fn u16_at(&self, at: usize, what: impl Into<What>) -> Result<u16> {
        let b = self.array_at::<2>(at, what)?;
        Ok(match self.endian {
            Endian::Little => u16::from_le_bytes(b),
            Endian::Big => u16::from_be_bytes(b),
        })
    }

    /// A 32-bit integer at `at`, in this reader's byte order.
    #[inline]
    pub fn u32_at(&self, at: usize, what: impl Into<What>) -> Result<u32> {
        let b = self.array_at::<4>(at, what)?;
        Ok(match self.endian {
            Endian::Little => u32::from_le_bytes(b),
            Endian::Big => u32::from_be_bytes(b),
        })
    }

    /// A 32-bit float at `at`, in this reader's byte order.
    pub fn f32_at(&self, at: usize, what: impl Into<What>) -> Result<f32> {
        self.u32_at(at, what).map(f32::from_bits)
    }

    /// A zero-copy view of a fixed-layout structure at `at` (alignment 1).
    pub fn read_at<T>(&self, at: usize, what: impl Into<What>) -> Result<&'a T>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let b = self.bytes_at(at, size_of::<T>(), what)?;
        T::ref_from_bytes(b).map_err(|_| Error::invalid(self.base + at as u64, "structure", "layout"))
    }

    /// The NUL-terminated string that starts at `at`, without its NUL.
    pub fn cstr_at(&self, at: usize, what: impl Into<What>) -> Result<Cstr<'a>> {
        let offset = self.base.saturating_add(at as u64);
        let Some(rest) = self.data.get(at..) else {
            return Err(Error::out_of_bounds(offset, what, offset, 1, self.base + self.data.len() as u64));
        };
        match memchr::memchr(0, rest) {
            Some(n) => Ok(Cstr { bytes: rest.get(..n).unwrap_or(&[]), offset }),
            None => Err(Error::invalid(offset, what, "string has no terminating NUL")),
        }
    }

    /// The error for "`what` needs `need` bytes at `at`".
    #[cold]
    fn eof_at(&self, at: usize, what: impl Into<What>, need: usize) -> Error {
        let have = self.data.len().saturating_sub(at);
        Error::truncated(self.base.saturating_add(at as u64), what, need as u64, have as u64)
    }

    /// A reader over `len` bytes at `offset` (relative to this reader), keeping absolute offsets.
    /// `field_at` is the absolute offset of the field that holds `offset`, used in the error.
    pub fn sub(&self, offset: u64, len: u64, what: impl Into<What>, field_at: u64) -> Result<Reader<'a>> {
        let r = checked_range(self.data.len(), offset, len, self.base, what, field_at)?;
        Ok(Reader {
            data: self.data.get(r).unwrap_or(&[]),
            pos: 0,
            base: self.base + offset,
            endian: self.endian,
        })
    }

    /// A reader from `offset` (relative to this reader) to the end.
    pub fn at(&self, offset: u64, what: impl Into<What>, field_at: u64) -> Result<Reader<'a>> {
        let len = (self.data.len() as u64).saturating_sub(offset);
        self.sub(offset, len, what, field_at)
    }
}

/// `offset..offset+len` as a range into a buffer of `buf_len` bytes, or an error that names
/// `what`, the absolute offset of the field that pointed there, and the absolute bounds.
pub fn checked_range(
    buf_len: usize,
    offset: u64,
    len: u64,
    base: u64,
    what: impl Into<Cow<'static, str>>,
    field_at: u64,
) -> Result<std::ops::Range<usize>> {
    match offset.checked_add(len) {
        Some(end) if end <= buf_len as u64 => Ok(offset as usize..end as usize),
        Some(_) => {
            Err(Error::out_of_bounds(field_at, what, base.saturating_add(offset), len, base + buf_len as u64))
        }
        None => Err(Error::overflow(field_at, what)),
    }
}

/// A NUL-terminated string of the input: its bytes (without the NUL) and where they are.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Cstr<'a> {
    /// The bytes before the terminating NUL.
    pub bytes: &'a [u8],
    /// Absolute offset of the first byte.
    pub offset: u64,
}

impl<'a> Cstr<'a> {
    /// The text, with invalid UTF-8 replaced.
    pub fn text(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.bytes)
    }

    /// Length in bytes (without the NUL).
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True for the empty string.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl std::fmt::Debug for Cstr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}@0x{:x}", self.text(), self.offset)
    }
}

impl std::fmt::Display for Cstr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// Little-endian u32 at `off`, if in range.
#[inline]
pub fn le_u32(data: &[u8], off: usize) -> Option<u32> {
    let b: [u8; 4] = data.get(off..off.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_byte_orders_and_reports_absolute_offsets() {
        let data = [1u8, 0, 0, 0, 0, 0, 0, 2, 9];
        let mut le = Reader::new(&data, Endian::Little);
        assert_eq!(le.u32("a").unwrap(), 1);
        let mut be = Reader::with_base(&data[4..], 0x100, Endian::Big);
        assert_eq!(be.u32("b").unwrap(), 2);
        let e = be.u32("DVLE header").unwrap_err();
        assert_eq!(e.to_string(), "truncated DVLE header at offset 0x104 (need 4 bytes, have 1)");
    }

    #[test]
    fn sub_readers_keep_the_base_and_check_ranges() {
        let data = [0u8; 16];
        let r = Reader::with_base(&data, 0x40, Endian::Little);
        let s = r.sub(4, 8, "table", 0x48).unwrap();
        assert_eq!(s.original_position(), 0x44);
        let e = r.sub(12, 8, "label table", 0x48).unwrap_err();
        assert_eq!(
            e.to_string(),
            "label table at offset 0x48 points outside its range (0x4c + 0x8 is outside 0x50)"
        );
        assert!(r.sub(u64::MAX, 2, "x", 0).is_err());
    }

    #[test]
    fn cstr_and_magic() {
        let data = b"DVLBab\0c";
        let mut r = Reader::new(data, Endian::Little);
        r.magic(b"DVLB", "DVLB header").unwrap();
        assert_eq!(r.cstr("name").unwrap(), b"ab");
        assert!(r.cstr("name").is_err());
        let mut r = Reader::new(data, Endian::Little);
        assert!(r.magic(b"DVLE", "DVLE").is_err());
    }

    #[test]
    fn reads_at_offsets_leave_the_cursor_and_report_absolute_offsets() {
        let data = b"\x01\0\0\0\0\x02ab\0cd";
        let r = Reader::with_base(data, 0x20, Endian::Big);
        assert_eq!(r.u32_at(0, "a").unwrap(), 0x0100_0000);
        assert_eq!(r.u16_at(4, "b").unwrap(), 2);
        assert_eq!(r.position(), 0);
        let s = r.cstr_at(6, "name").unwrap();
        assert_eq!((s.bytes, s.offset, s.text().as_ref()), (&b"ab"[..], 0x26, "ab"));
        assert_eq!(
            r.cstr_at(9, "tail").unwrap_err().to_string(),
            "invalid tail at offset 0x29: string has no terminating NUL"
        );
        assert_eq!(
            r.cstr_at(40, "far").unwrap_err().to_string(),
            "far at offset 0x48 points outside its range (0x48 + 0x1 is outside 0x2b)"
        );
        assert_eq!(
            r.u32_at(9, "word").unwrap_err().to_string(),
            "truncated word at offset 0x29 (need 4 bytes, have 2)"
        );
    }
}
