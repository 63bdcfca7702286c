//! Writing DXBC containers.
//!
//! [`Builder`] holds the chunks (tag + payload) and the layout facts of the file it came
//! from. [`Builder::finish`] writes in two phases with [`crate::toolkit::Writer`]: it reserves
//! the header and the chunk index, places each chunk, then fills in the index, the container
//! size and last the checksum.
//!
//! # Checksum policy
//!
//! The writer always computes the checksum of what it writes. What it stores depends on
//! [`ChecksumPolicy`]:
//!
//! * [`ChecksumPolicy::Compute`] stores the computed value. This is what a builder made from a
//!   file whose stored checksum verified gets, so edits keep the container valid.
//! * [`ChecksumPolicy::Keep`] stores the given 16 bytes. A builder made from a file whose stored
//!   checksum did **not** verify (a bad checksum, or the all-zero "unsigned" hash of DXC output
//!   that was never validated) keeps that stored value, so that parse → write of an unmodified
//!   file is the identity and an unsigned container stays unsigned. `shaderscope checksum --fix`
//!   switches the policy to `Compute` to repair such a file.
//!
//! ```
//! use shaderscope::format::dxbc::Dxbc;
//! use shaderscope::format::dxbc::write::{Builder, ChecksumPolicy};
//!
//! let mut b = Builder::new();
//! b.push(*b"STAT", vec![0u8; 4 * 37]).push(*b"PRIV", b"notes".to_vec());
//! let bytes = b.finish()?;
//! // Header, two index entries, then each chunk 4-byte aligned.
//! assert_eq!(bytes.len(), 32 + 2 * 4 + (8 + 148) + (8 + 5 + 3));
//!
//! // Edit a parsed container: drop the private chunk. The checksum is computed again.
//! let mut edit = Dxbc::parse(&bytes)?.to_builder();
//! assert_eq!(edit.finish()?, bytes);
//! edit.chunks.retain(|c| &c.fourcc.0 != b"PRIV");
//! let smaller = edit.finish()?;
//! let d = Dxbc::parse(&smaller)?;
//! assert_eq!((d.chunks().len(), smaller.len(), d.checksum_ok()), (1, 32 + 4 + 8 + 148, true));
//!
//! // An unsigned container (all-zero checksum) stays unsigned.
//! edit.checksum = ChecksumPolicy::Keep([0; 16]);
//! let unsigned = edit.finish()?;
//! assert_eq!(unsigned[4..20], [0; 16]);
//! assert_eq!(Dxbc::parse(&unsigned)?.to_builder().checksum, ChecksumPolicy::Keep([0; 16]));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::checksum;
use super::container::{CHUNK_HEADER_SIZE, FourCC, Frame, HEADER_SIZE, Layout};
use crate::error::{Error, Result};
use crate::toolkit::{Endian, Writer};
use std::borrow::Cow;

/// What the writer stores in the checksum field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChecksumPolicy {
    /// Store the checksum computed over the written bytes.
    Compute,
    /// Store these bytes (the input's unverified checksum).
    Keep([u8; 16]),
}

/// One chunk to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkData<'a> {
    /// Four-character code.
    pub fourcc: FourCC,
    /// Payload, without the 8-byte chunk header.
    pub data: Cow<'a, [u8]>,
}

/// An editable container that writes itself back.
#[derive(Debug, Clone)]
pub struct Builder<'a> {
    /// The header word after the checksum (1).
    pub one: u32,
    /// Chunks in index order.
    pub chunks: Vec<ChunkData<'a>>,
    /// What to store in the checksum field.
    pub checksum: ChecksumPolicy,
    /// Bytes after the declared container size, appended as they were (not hashed, not counted).
    pub trailing: Cow<'a, [u8]>,
    /// The layout of the file this builder was made from, and that file's chunks: the layout
    /// applies while the chunks are these.
    original: Option<(Layout, Vec<ChunkData<'a>>)>,
    /// The checksum computed over the input, and its header word: the same bytes written
    /// again need not be hashed again.
    original_sum: Option<(u32, [u8; 16])>,
}

impl<'a> Builder<'a> {
    /// An empty container (header word 1, checksum computed).
    pub fn new() -> Self {
        Builder {
            one: 1,
            chunks: Vec::new(),
            checksum: ChecksumPolicy::Compute,
            trailing: Cow::Borrowed(&[]),
            original: None,
            original_sum: None,
        }
    }

    /// A builder holding everything of a parsed container, including its layout, so that
    /// [`Builder::finish`] reproduces the input byte for byte while nothing is changed.
    pub fn from_frame(frame: &Frame<'a>) -> Self {
        let chunks: Vec<ChunkData<'a>> = frame
            .chunks
            .iter()
            .map(|c| ChunkData { fourcc: c.fourcc, data: Cow::Borrowed(c.data) })
            .collect();
        let computed = frame.computed_checksum();
        let checksum = if frame.header.checksum == computed {
            ChecksumPolicy::Compute
        } else {
            ChecksumPolicy::Keep(frame.header.checksum)
        };
        let one = frame.header.one.get();
        Builder {
            one,
            original: Some((frame.layout(), chunks.clone())),
            chunks,
            checksum,
            trailing: Cow::Borrowed(frame.trailing),
            original_sum: Some((one, computed)),
        }
    }

    /// Add a chunk at the end of the index.
    pub fn push(&mut self, fourcc: [u8; 4], data: impl Into<Cow<'a, [u8]>>) -> &mut Self {
        self.chunks.push(ChunkData { fourcc: FourCC(fourcc), data: data.into() });
        self
    }

    /// Lay out and encode the container: reserve the header and the index, place each chunk
    /// (where the original layout had it, else after the previous one, 4-byte aligned), fill
    /// in the index, the header and last the checksum.
    pub fn finish(&self) -> Result<Vec<u8>> {
        // The recorded layout applies only while the chunk list is the one it was recorded for.
        let layout = self.original.as_ref().filter(|(_, chunks)| *chunks == self.chunks).map(|(l, _)| l);
        let count = offset32(self.chunks.len())?;
        let mut w = Writer::new(Endian::Little);
        let header = w.reserve(HEADER_SIZE, 4);
        let index = w.reserve(4 * self.chunks.len(), 4);
        for (i, c) in self.chunks.iter().enumerate() {
            let at = match layout.and_then(|l| l.offsets.get(i)) {
                Some(&at) => at as usize,
                None => w.reserve(CHUNK_HEADER_SIZE + c.data.len(), 4).start,
            };
            w.put_at(at, &c.fourcc.0);
            w.put_at(at + 4, &offset32(c.data.len())?.to_le_bytes());
            w.put_at(at + CHUNK_HEADER_SIZE, &c.data);
            w.patch_u32(index.start + 4 * i, offset32(at)?);
        }
        match layout {
            Some(l) => {
                for (at, bytes) in &l.filler {
                    w.put_at(*at as usize, bytes);
                }
                w.pad_to(l.size);
            }
            None => w.align(4, 0),
        }
        let total = offset32(w.len())?;
        w.put_at(header.start, b"DXBC");
        w.patch_u32(header.start + 20, self.one);
        w.patch_u32(header.start + 24, total);
        w.patch_u32(header.start + 28, count);
        let sum = match (self.checksum, self.original_sum) {
            // Same chunks, same layout, same header word: the same bytes would be hashed again.
            (ChecksumPolicy::Compute, Some((one, sum))) if layout.is_some() && one == self.one => sum,
            (ChecksumPolicy::Compute, _) => checksum::compute(w.as_slice()),
            (ChecksumPolicy::Keep(s), _) => s,
        };
        w.put_at(header.start + 4, &sum);
        w.bytes(&self.trailing);
        Ok(w.finish())
    }
}

impl Default for Builder<'_> {
    fn default() -> Self {
        Self::new()
    }
}

fn offset32(at: usize) -> Result<u32> {
    u32::try_from(at)
        .map_err(|_| Error::overflow(0, format!("DXBC container larger than 4 GiB (0x{at:x} bytes)")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_container_is_packed_aligned_and_checksummed() {
        let mut b = Builder::new();
        b.push(*b"ABCD", vec![1u8, 2, 3]).push(*b"EFGH", vec![9u8; 4]);
        let bytes = b.finish().unwrap();
        // header 32 + index 8 + (8+3+1 pad) + (8+4)
        assert_eq!(bytes.len(), 32 + 8 + 12 + 12);
        assert_eq!(&bytes[24..28], &(bytes.len() as u32).to_le_bytes());
        assert_eq!(&bytes[32..36], &40u32.to_le_bytes());
        assert_eq!(&bytes[36..40], &52u32.to_le_bytes());
        assert_eq!(&bytes[4..20], &checksum::compute(&bytes));
        let f = Frame::parse(&bytes).unwrap();
        assert_eq!(f.chunks.len(), 2);
        assert_eq!(f.chunks[0].data, &[1, 2, 3]);
        assert_eq!(f.chunks[1].fourcc, FourCC(*b"EFGH"));
        // Unmodified, it comes back the same.
        assert_eq!(Builder::from_frame(&f).finish().unwrap(), bytes);
    }

    #[test]
    fn an_unverified_checksum_is_kept_and_can_be_fixed() {
        let mut b = Builder::new();
        b.push(*b"ABCD", vec![0u8; 8]);
        let mut bytes = b.finish().unwrap();
        bytes[4..20].fill(0);
        let f = Frame::parse(&bytes).unwrap();
        let mut again = Builder::from_frame(&f);
        assert_eq!(again.checksum, ChecksumPolicy::Keep([0; 16]));
        assert_eq!(again.finish().unwrap(), bytes);
        again.checksum = ChecksumPolicy::Compute;
        let fixed = again.finish().unwrap();
        assert_eq!(&fixed[4..20], &checksum::compute(&fixed));
    }

    #[test]
    fn gaps_order_and_tail_are_reproduced() {
        // Two chunks stored in the reverse of index order, with padding between and after.
        let mut bytes = vec![0u8; 40];
        bytes[0..4].copy_from_slice(b"DXBC");
        bytes[20..24].copy_from_slice(&1u32.to_le_bytes());
        bytes[28..32].copy_from_slice(&2u32.to_le_bytes());
        bytes.extend_from_slice(&[0xAB; 4]); // gap at 40
        let second = bytes.len();
        bytes.extend_from_slice(b"BBBB\x02\0\0\0xy");
        let first = bytes.len();
        bytes.extend_from_slice(b"AAAA\x01\0\0\0z");
        bytes.extend_from_slice(&[0xCD; 3]); // tail
        bytes[32..36].copy_from_slice(&(first as u32).to_le_bytes());
        bytes[36..40].copy_from_slice(&(second as u32).to_le_bytes());
        let total = bytes.len() as u32;
        bytes[24..28].copy_from_slice(&total.to_le_bytes());
        let sum = checksum::compute(&bytes);
        bytes[4..20].copy_from_slice(&sum);
        bytes.extend_from_slice(b"junk"); // after the declared size
        let f = Frame::parse(&bytes).unwrap();
        assert_eq!(f.chunks[0].fourcc, FourCC(*b"AAAA"));
        assert_eq!(f.trailing, b"junk");
        let layout = f.layout();
        assert_eq!(layout.offsets, vec![first as u32, second as u32]);
        assert_eq!(layout.filler, vec![(40, vec![0xAB; 4]), (total - 3, vec![0xCD; 3])]);
        assert_eq!(layout.gap_before(second), Some(&(40, vec![0xAB; 4])));
        assert_eq!(layout.gap_before(first), None);
        assert_eq!(Builder::from_frame(&f).finish().unwrap(), bytes);
        // An edit lays the chunks out afresh, packed in index order.
        let mut b = Builder::from_frame(&f);
        b.push(*b"CCCC", vec![]);
        let fresh = Frame::parse(&b.finish().unwrap()).unwrap().layout();
        assert_eq!(
            (fresh.offsets, fresh.filler),
            (vec![44, 56, 68], vec![(53, vec![0; 3]), (66, vec![0; 2])])
        );
    }

    #[test]
    fn chunks_that_share_bytes_or_sit_in_the_index_are_reproduced() {
        let mut b = Builder::new();
        b.push(*b"AAAA", vec![1u8, 2, 3, 4]);
        let mut bytes = b.finish().unwrap();
        // Three index entries: the chunk, the same chunk again, and a "chunk" read from the
        // header's own bytes (its size word is the chunk count, 3).
        bytes.splice(36..36, [0u8; 8]);
        let at = 44u32;
        bytes[28..32].copy_from_slice(&3u32.to_le_bytes());
        bytes[32..36].copy_from_slice(&at.to_le_bytes());
        bytes[36..40].copy_from_slice(&at.to_le_bytes());
        bytes[40..44].copy_from_slice(&24u32.to_le_bytes());
        let total = bytes.len() as u32;
        bytes[24..28].copy_from_slice(&total.to_le_bytes());
        let sum = checksum::compute(&bytes);
        bytes[4..20].copy_from_slice(&sum);
        let f = Frame::parse(&bytes).unwrap();
        assert_eq!((f.chunks[2].fourcc.0, f.chunks[2].data), (56u32.to_le_bytes(), &[44u8, 0, 0][..]));
        assert!(f.layout().filler.is_empty());
        assert_eq!(Builder::from_frame(&f).finish().unwrap(), bytes);
    }
}
