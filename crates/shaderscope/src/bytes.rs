//! Bounds-checked byte access.
//!
//! [`Reader`] is a cursor over a borrowed slice that knows the absolute offset of its first
//! byte (`base`), so every error it returns points into the original file even when it reads an
//! embedded blob. [`Writer`] is the mirror for encoders. Both work in either byte order.

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
        let rest = self.data.get(self.pos..).unwrap_or(&[]);
        match rest.iter().position(|&c| c == 0) {
            Some(n) => {
                let s = rest.get(..n).unwrap_or(&[]);
                self.pos += n + 1;
                Ok(s)
            }
            None => Err(Error::invalid(self.original_position(), what, "string has no terminating NUL")),
        }
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

/// Little-endian u32 at `off`, if in range.
#[inline]
pub fn le_u32(data: &[u8], off: usize) -> Option<u32> {
    let b: [u8; 4] = data.get(off..off.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

/// Growable output buffer in one byte order, for encoders.
#[derive(Debug, Clone)]
pub struct Writer {
    buf: Vec<u8>,
    endian: Endian,
}

impl Writer {
    /// An empty writer.
    pub fn new(endian: Endian) -> Self {
        Writer { buf: Vec::new(), endian }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Append raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// Append one byte.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// Append a 16-bit integer.
    pub fn u16(&mut self, v: u16) {
        match self.endian {
            Endian::Little => self.bytes(&v.to_le_bytes()),
            Endian::Big => self.bytes(&v.to_be_bytes()),
        }
    }

    /// Append a 32-bit integer.
    pub fn u32(&mut self, v: u32) {
        match self.endian {
            Endian::Little => self.bytes(&v.to_le_bytes()),
            Endian::Big => self.bytes(&v.to_be_bytes()),
        }
    }

    /// Append `n` copies of `fill`.
    pub fn fill(&mut self, n: usize, fill: u8) {
        self.buf.resize(self.buf.len() + n, fill);
    }

    /// Pad with `fill` up to a multiple of `align`.
    pub fn align(&mut self, align: usize, fill: u8) {
        if align > 1 {
            let n = (align - self.buf.len() % align) % align;
            self.fill(n, fill);
        }
    }

    /// Pad with zeros up to absolute position `pos` (no-op when already there or past).
    pub fn pad_to(&mut self, pos: usize) {
        if pos > self.buf.len() {
            self.buf.resize(pos, 0);
        }
    }

    /// Overwrite a 32-bit integer at `at`; returns false if `at` is not inside the buffer.
    pub fn patch_u32(&mut self, at: usize, v: u32) -> bool {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        match self.buf.get_mut(at..at.saturating_add(4)) {
            Some(dst) if dst.len() == 4 => {
                dst.copy_from_slice(&b);
                true
            }
            _ => false,
        }
    }

    /// Overwrite bytes at `at`, growing the buffer if they reach past its end.
    pub fn put_at(&mut self, at: usize, b: &[u8]) {
        let end = at + b.len();
        if end > self.buf.len() {
            self.buf.resize(end, 0);
        }
        if let Some(dst) = self.buf.get_mut(at..end) {
            dst.copy_from_slice(b);
        }
    }

    /// The bytes written.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Finish and take the bytes.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }
}

/// Where the first zero byte of `b` is, found eight bytes at a time: in a word `v`,
/// `(v - 0x01…01) & !v & 0x80…80` marks the zero bytes, and its lowest mark is the first zero
/// (a borrow can only mark bytes above a zero).
pub(crate) fn nul_position(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut words = b.chunks_exact(8);
    let mut at = 0;
    for w in &mut words {
        let v = u64::from_le_bytes(w.try_into().unwrap_or([1; 8]));
        let zeros = v.wrapping_sub(ONES) & !v & HIGHS;
        if zeros != 0 {
            return Some(at + (zeros.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words.remainder().iter().position(|&c| c == 0).map(|i| at + i)
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
    fn writer_patches_and_aligns() {
        let mut w = Writer::new(Endian::Big);
        w.u32(0);
        w.u8(1);
        w.align(4, 0);
        assert!(w.patch_u32(0, 0x01020304));
        assert!(!w.patch_u32(6, 1));
        assert_eq!(w.finish(), vec![1, 2, 3, 4, 1, 0, 0, 0]);
    }

    #[test]
    fn finds_the_first_nul_as_a_byte_search_does() {
        let mut b = vec![b'a'; 40];
        assert_eq!(nul_position(&b), None);
        for first in 0..40 {
            for second in first..40 {
                b.fill(b'a');
                b[first] = 0;
                b[second] = 0;
                // Bytes that a borrow could mistake for zeros after the first.
                if second + 1 < 40 {
                    b[second + 1] = 1;
                }
                for len in 0..=40 {
                    assert_eq!(nul_position(&b[..len]), b[..len].iter().position(|&c| c == 0));
                }
            }
        }
        for v in [0x80u8, 0x81, 0xff, 0x01] {
            let mut b = vec![v; 17];
            b[9] = 0;
            assert_eq!(nul_position(&b), Some(9));
        }
    }
}
