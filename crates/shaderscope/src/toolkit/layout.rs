//! Lossless placement: a file is written as its structures, each at its offset, plus the
//! filler, the runs of input bytes no structure covers. A format's writer puts its structures
//! into a [`Writer`] through a [`Placement`], which remembers the range of each; parsing runs
//! the same writer over the parsed model and keeps the bytes outside those ranges
//! ([`Placement::filler`]), so an unmodified parse always writes back identically.
//!
//! ```
//! use shaderscope::toolkit::layout::Placement;
//! use shaderscope::toolkit::Endian;
//!
//! // A 4-byte magic and a u32 at offset 8; bytes 4..8 and 12.. belong to no structure.
//! let input = b"HEAD\xaa\xbb\xcc\xdd\x07\0\0\0tail";
//! let write = |p: &mut Placement| {
//!     p.put_at(0, b"HEAD");
//!     p.patch_u32(8, 7);
//! };
//! let mut p = Placement::new(Endian::Little, input.len());
//! write(&mut p);
//! let filler = p.filler(input);
//! assert_eq!(filler, vec![(4, b"\xaa\xbb\xcc\xdd".to_vec()), (12, b"tail".to_vec())]);
//! let mut again = Placement::new(Endian::Little, input.len());
//! write(&mut again);
//! assert_eq!(again.finish(&filler), input);
//! ```

use super::bytes::Endian;
use super::writer::Writer;
use std::ops::Range;

/// A [`Writer`] over a file of known size whose structures are placed at given offsets, with
/// the range of every structure written remembered.
#[derive(Debug, Clone)]
pub struct Placement {
    w: Writer,
    size: usize,
    claimed: Vec<Range<usize>>,
}

impl Placement {
    /// A placement over `size` zero bytes (phase one of a [`Writer`]: the whole extent is
    /// reserved; a structure placed past it grows the buffer).
    pub fn new(endian: Endian, size: usize) -> Self {
        Placement::with_writer(Writer::new(endian), size)
    }

    /// A placement that goes on writing into `w` (whose ranges were reserved by the caller),
    /// grown to at least `size` bytes.
    pub fn with_writer(mut w: Writer, size: usize) -> Self {
        w.pad_to(size);
        Placement { w, size, claimed: Vec::new() }
    }

    /// The byte order of the integers it writes.
    pub fn endian(&self) -> Endian {
        self.w.endian()
    }

    /// Put `bytes` at `at` (nothing at all when they are empty, wherever `at` points).
    pub fn put_at(&mut self, at: usize, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.w.put_at(at, bytes);
        self.claim(at, bytes.len());
    }

    /// Put a 16-bit integer at `at`, growing the buffer if needed.
    pub fn patch_u16(&mut self, at: usize, v: u16) {
        self.w.pad_to(at.saturating_add(2));
        self.w.patch_u16(at, v);
        self.claim(at, 2);
    }

    /// Put a 32-bit integer at `at`, growing the buffer if needed.
    pub fn patch_u32(&mut self, at: usize, v: u32) {
        self.w.pad_to(at.saturating_add(4));
        self.w.patch_u32(at, v);
        self.claim(at, 4);
    }

    /// Count `len` bytes at `at` as one structure's (written by the caller or left zero).
    pub fn claim(&mut self, at: usize, len: usize) {
        if len > 0 {
            match self.claimed.last_mut() {
                Some(r) if r.end == at => r.end = at.saturating_add(len),
                _ => self.claimed.push(at..at.saturating_add(len)),
            }
        }
    }

    /// The ranges written so far.
    pub fn claimed(&self) -> &[Range<usize>] {
        &self.claimed
    }

    /// The bytes of `data[..size]` that no structure covers, as (offset, bytes) runs.
    pub fn filler(&self, data: &[u8]) -> Vec<(u32, Vec<u8>)> {
        filler(data, self.size, &self.claimed)
    }

    /// The file: the structures written, with the `filler` runs put back between them.
    pub fn finish(mut self, filler: &[(u32, Vec<u8>)]) -> Vec<u8> {
        for (at, bytes) in filler {
            self.w.put_at(*at as usize, bytes);
        }
        self.w.finish()
    }
}

/// Bytes of `data[..size]` that no range of `claimed` covers, as (offset, bytes) runs.
pub fn filler(data: &[u8], size: usize, claimed: &[Range<usize>]) -> Vec<(u32, Vec<u8>)> {
    let size = size.min(data.len());
    let mut ranges: Vec<Range<usize>> =
        claimed.iter().map(|r| r.start.min(size)..r.end.min(size)).filter(|r| r.start < r.end).collect();
    ranges.sort_unstable_by_key(|r| r.start);
    let mut out = Vec::new();
    let mut gap = |from: usize, to: usize| {
        if from < to {
            out.push((from as u32, data.get(from..to).unwrap_or(&[]).to_vec()));
        }
    };
    let mut at = 0;
    for r in ranges {
        gap(at, r.start);
        at = at.max(r.end);
    }
    gap(at, size);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filler_is_what_structures_leave_and_finishing_restores_it() {
        let data = b"ABCDEFGHIJ";
        let place = |p: &mut Placement| {
            p.put_at(0, b"AB");
            p.put_at(4, b"EF");
            p.put_at(5, b"F");
        };
        let mut p = Placement::new(Endian::Little, data.len());
        place(&mut p);
        let f = p.filler(data);
        assert_eq!(f, vec![(2, b"CD".to_vec()), (6, b"GHIJ".to_vec())]);
        let mut again = Placement::new(Endian::Little, data.len());
        place(&mut again);
        assert_eq!(again.finish(&f), data.to_vec());
    }

    #[test]
    fn structures_past_the_size_grow_the_file() {
        let mut p = Placement::new(Endian::Big, 2);
        p.patch_u32(4, 0x0102_0304);
        p.patch_u16(0, 0x0a0b);
        assert_eq!(p.claimed(), &[4..8, 0..2]);
        assert_eq!(p.finish(&[(2, vec![9])]), vec![0x0a, 0x0b, 9, 0, 1, 2, 3, 4]);
    }

    #[test]
    fn filler_of_overlapping_and_unsorted_ranges() {
        let data = b"0123456789";
        assert_eq!(
            filler(data, 10, &[6..8, 1..3, 2..4, 20..30, 5..5]),
            vec![(0, b"0".to_vec()), (4, b"45".to_vec()), (8, b"89".to_vec())]
        );
        assert_eq!(filler(data, 4, &[]), vec![(0, b"0123".to_vec())]);
        assert_eq!(filler(data, 10, &[0..4, 4..10]), vec![]);
    }
}
