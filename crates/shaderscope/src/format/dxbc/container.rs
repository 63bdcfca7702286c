//! The DXBC container: header, chunk index and chunks, parsed without copying, plus the
//! layout facts (chunk order in the file, padding between chunks, bytes after the last chunk)
//! that the writer needs to give back the same bytes.

use super::checksum;
use crate::error::{Error, Result};
use crate::toolkit::{Endian, Reader};
use std::borrow::Cow;

/// Size of the fixed header: magic, checksum, version word, total size, chunk count.
pub const HEADER_SIZE: usize = 32;

pub use crate::toolkit::FourCC;

/// One chunk of the container, borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk's position in the chunk index.
    pub index: usize,
    /// Its four-character code.
    pub fourcc: FourCC,
    /// Absolute offset of the chunk header (the FourCC).
    pub offset: usize,
    /// The chunk's payload (after the 8-byte chunk header).
    pub data: &'a [u8],
}

impl Chunk<'_> {
    /// Absolute offset of the payload's first byte.
    pub fn data_offset(&self) -> usize {
        self.offset + 8
    }
    /// Absolute end of the payload.
    pub fn end(&self) -> usize {
        self.offset + 8 + self.data.len()
    }
}

/// Where the chunks sit in the file, as the writer must reproduce it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout<'a> {
    /// Chunks follow the index one after another without overlapping. `order` lists chunk
    /// indices in file order; `gaps[i]` are the bytes before the i-th chunk in file order
    /// (normally empty), `tail` the bytes from the last chunk's end to the declared size.
    Packed {
        /// Chunk indices in file order (borrowed from [`CHUNK_INDICES`] when that is the
        /// index order, as in compiler output, so that nothing is allocated).
        order: Cow<'static, [usize]>,
        /// Bytes before each chunk (in file order; borrowed from [`NO_GAPS`] when there are
        /// none, as in compiler output).
        gaps: Cow<'a, [&'a [u8]]>,
        /// Bytes after the last chunk, up to the declared container size.
        tail: &'a [u8],
    },
    /// Chunks overlap, share bytes or sit inside the header or index. Such a file is kept as
    /// its original index and body; any edit re-packs the chunks.
    Irregular {
        /// The original chunk offsets, in index order.
        offsets: Vec<u32>,
        /// Everything from the end of the index to the declared container size.
        body: &'a [u8],
    },
}

/// The parsed container frame.
#[derive(Debug, Clone)]
pub struct Frame<'a> {
    /// The whole input.
    pub data: &'a [u8],
    /// Stored checksum (bytes 4..20).
    pub checksum: [u8; 16],
    /// The header word after the checksum (always 1 in files from Microsoft's compilers).
    pub version: u32,
    /// Declared container size.
    pub total_size: u32,
    /// Chunks in index order.
    pub chunks: Vec<Chunk<'a>>,
    /// How the chunks are laid out.
    pub layout: Layout<'a>,
    /// Bytes after the declared container size (not part of the container; kept).
    pub trailing: &'a [u8],
}

impl<'a> Frame<'a> {
    /// Parse the header, the chunk index and every chunk header.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let mut r = Reader::new(data, Endian::Little);
        r.magic(b"DXBC", "DXBC header")?;
        let checksum = r.array::<16>("DXBC header")?;
        let version = r.u32("DXBC header")?;
        let size_at = r.original_position();
        let total_size = r.u32("DXBC header")?;
        let count_at = r.original_position();
        let count = r.u32("DXBC header")?;
        if (total_size as usize) < HEADER_SIZE {
            return Err(Error::invalid(
                size_at,
                "DXBC header",
                format!("container size {total_size} is smaller than the 32-byte header"),
            ));
        }
        if total_size as usize > data.len() {
            return Err(Error::truncated(0, "DXBC container", u64::from(total_size), data.len() as u64));
        }
        let container = data.get(..total_size as usize).unwrap_or(data);
        let trailing = data.get(total_size as usize..).unwrap_or(&[]);
        let index_bytes = (count as u64).saturating_mul(4);
        if index_bytes > (container.len() - HEADER_SIZE) as u64 {
            return Err(Error::invalid(
                count_at,
                "DXBC chunk index",
                format!(
                    "{count} chunks need {index_bytes} bytes of index, but the container has {} after the header",
                    container.len() - HEADER_SIZE
                ),
            ));
        }
        // The index is read in place (its size was checked above), not copied out first.
        let index = container.get(HEADER_SIZE..HEADER_SIZE + 4 * count as usize).unwrap_or(&[]);
        let index_end = HEADER_SIZE + index.len();
        let mut chunks = Vec::with_capacity(count as usize);
        for (i, entry) in index.chunks_exact(4).enumerate() {
            let off = u32::from_le_bytes(entry.try_into().unwrap_or_default());
            let entry_at = (HEADER_SIZE + 4 * i) as u64;
            // Error texts are built only on failure: this loop runs for every chunk of every file.
            let mut c = Reader::new(container, Endian::Little);
            c.seek(off as usize, "chunk").map_err(|_| {
                Error::out_of_bounds(
                    entry_at,
                    format!("chunk {i} offset"),
                    u64::from(off),
                    8,
                    container.len() as u64,
                )
            })?;
            let (tag, size) = match (c.array::<4>("header"), c.u32("header")) {
                (Ok(t), Ok(s)) => (t, s),
                (Err(e), _) | (_, Err(e)) => return Err(e.context(&format!("chunk {i} "))),
            };
            let body = c.bytes(size as usize, "chunk").map_err(|_| {
                Error::out_of_bounds(
                    u64::from(off) + 4,
                    format!("chunk {i} ({})", FourCC(tag).name()),
                    u64::from(off) + 8,
                    u64::from(size),
                    container.len() as u64,
                )
            })?;
            chunks.push(Chunk { index: i, fourcc: FourCC(tag), offset: off as usize, data: body });
        }
        let layout = layout_of(container, &chunks, index_end);
        Ok(Frame { data, checksum, version, total_size, chunks, layout, trailing })
    }

    /// The container bytes (up to the declared size).
    pub fn container(&self) -> &'a [u8] {
        self.data.get(..self.total_size as usize).unwrap_or(self.data)
    }

    /// The checksum computed over the container's bytes.
    pub fn computed_checksum(&self) -> [u8; 16] {
        checksum::compute(self.container())
    }
}

/// `0, 1, 2, …`: the file order of a container whose chunks follow their index order.
pub static CHUNK_INDICES: [usize; 64] = chunk_indices();

/// The gaps of a container whose chunks follow each other without a byte between them.
pub static NO_GAPS: [&[u8]; 64] = [&[]; 64];

#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of range fails the build
const fn chunk_indices() -> [usize; 64] {
    let mut t = [0; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = i;
        i += 1;
    }
    t
}

fn layout_of<'a>(container: &'a [u8], chunks: &[Chunk<'a>], index_end: usize) -> Layout<'a> {
    let irregular = || Layout::Irregular {
        offsets: chunks.iter().map(|c| c.offset as u32).collect(),
        body: container.get(index_end..).unwrap_or(&[]),
    };
    // Compilers write the chunks in index order: then there is nothing to sort or to store.
    let in_index_order = chunks.windows(2).all(|w| w.first().map(|c| c.offset) <= w.get(1).map(|c| c.offset));
    let order: Cow<'static, [usize]> = match CHUNK_INDICES.get(..chunks.len()) {
        Some(indices) if in_index_order => Cow::Borrowed(indices),
        _ => {
            let mut order: Vec<usize> = (0..chunks.len()).collect();
            order.sort_by_key(|&i| chunks.get(i).map(|c| c.offset).unwrap_or(0));
            Cow::Owned(order)
        }
    };
    // The bytes before the chunk at `i` of the file order, if it does not overlap the previous one.
    let gap =
        |pos: usize, c: &Chunk<'_>| (c.offset >= pos).then(|| container.get(pos..c.offset).unwrap_or(&[]));
    let mut pos = index_end;
    let mut gapless = true;
    for &i in order.iter() {
        let Some(g) = chunks.get(i).and_then(|c| gap(pos, c)) else { return irregular() };
        gapless &= g.is_empty();
        pos = chunks.get(i).map_or(pos, Chunk::end);
    }
    let tail = container.get(pos..).unwrap_or(&[]);
    let gaps: Cow<'a, [&'a [u8]]> = match NO_GAPS.get(..chunks.len()) {
        Some(none) if gapless => Cow::Borrowed(none),
        _ => {
            let mut gaps = Vec::with_capacity(chunks.len());
            let mut pos = index_end;
            for c in order.iter().filter_map(|&i| chunks.get(i)) {
                gaps.push(gap(pos, c).unwrap_or(&[]));
                pos = c.end();
            }
            Cow::Owned(gaps)
        }
    };
    Layout::Packed { order, gaps, tail }
}
