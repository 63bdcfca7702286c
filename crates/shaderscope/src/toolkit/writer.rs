//! Writing files: a growable buffer in one byte order, written in two phases the way
//! gimli-rs/object's writers are: first *reserve* the ranges the structures will take (which
//! fixes every offset and size), then *write* each structure into its range, and last *patch*
//! the fields that depend on the whole (offsets written before their target was placed,
//! total sizes, checksums).
//!
//! ```
//! use shaderscope::toolkit::{Endian, Writer};
//!
//! // A header that points at a table placed after it.
//! let mut w = Writer::new(Endian::Little);
//! let header = w.reserve(8, 4);
//! let table = w.reserve(3, 4);
//! w.put_at(table.start, b"abc");
//! w.patch_u32(header.start, 0x424c5644);
//! w.patch_u32(header.start + 4, table.start as u32);
//! assert_eq!(w.finish(), b"DVLB\x08\0\0\0abc");
//! ```

use super::bytes::Endian;
use std::ops::Range;

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

    /// Reserve `len` zero bytes at the next multiple of `align` (phase one); the structure is
    /// written there later with [`Writer::put_at`] or the `patch_*` methods.
    pub fn reserve(&mut self, len: usize, align: usize) -> Range<usize> {
        self.align(align, 0);
        let start = self.buf.len();
        self.fill(len, 0);
        start..start + len
    }

    /// Overwrite a 16-bit integer at `at`; returns false if `at` is not inside the buffer.
    pub fn patch_u16(&mut self, at: usize, v: u16) -> bool {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        match self.buf.get_mut(at..at.saturating_add(2)) {
            Some(dst) if dst.len() == 2 => {
                dst.copy_from_slice(&b);
                true
            }
            _ => false,
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

    /// Byte order of the integers written.
    pub fn endian(&self) -> Endian {
        self.endian
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserves_aligns_and_patches() {
        let mut w = Writer::new(Endian::Big);
        w.u32(0);
        w.u8(1);
        let r = w.reserve(2, 4);
        assert_eq!(r, 8..10);
        assert!(w.patch_u16(r.start, 0x0203));
        assert!(w.patch_u32(0, 0x01020304));
        assert!(!w.patch_u32(8, 1));
        assert_eq!(w.finish(), vec![1, 2, 3, 4, 1, 0, 0, 0, 2, 3]);
    }
}
