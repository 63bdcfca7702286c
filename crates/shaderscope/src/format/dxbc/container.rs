//! The DXBC container: header, chunk index and chunks, read in place, plus the layout (where
//! each chunk sits, and the bytes no structure claims) that the writer needs to give back the
//! same bytes.

use super::checksum;
use crate::error::{Error, Result};
use crate::toolkit::raw::{LittleEndian, U32};
use crate::toolkit::{Endian, Reader, layout};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

pub use crate::toolkit::{CHUNK_HEADER_SIZE, Chunk, FourCC};

/// The fixed header at the start of every container; the chunk index (one `u32` offset per
/// chunk) follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// `DXBC`.
    pub magic: FourCC,
    /// The checksum of everything after this field (see [`checksum`]).
    pub checksum: [u8; 16],
    /// 1 in every file of Microsoft's compilers.
    pub one: U32<LittleEndian>,
    /// Size of the container in bytes, header included.
    pub total_size: U32<LittleEndian>,
    /// Number of chunks.
    pub chunk_count: U32<LittleEndian>,
}

/// Size of the fixed header.
pub const HEADER_SIZE: usize = size_of::<Header>();

/// Where the chunks of a parsed container sit and what lies between them: what the writer
/// needs to give back the same bytes ([`Frame::layout`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The declared container size.
    pub size: usize,
    /// Where each chunk's header sits, in index order. Compiler output has the chunks one
    /// after the other in index order; other files may order them otherwise, leave bytes
    /// between them, or let them overlap.
    pub offsets: Vec<u32>,
    /// The bytes of the container that neither the header, the index nor a chunk covers
    /// (padding between chunks, bytes after the last one), as (offset, bytes) runs.
    pub filler: Vec<(u32, Vec<u8>)>,
}

impl Layout {
    /// The filler run that ends where a chunk starting at `offset` begins: the bytes between
    /// it and what comes before it.
    pub fn gap_before(&self, offset: usize) -> Option<&(u32, Vec<u8>)> {
        self.filler.iter().find(|(at, bytes)| *at as usize + bytes.len() == offset)
    }
}

/// The parsed container frame: the header, the chunk index and every chunk header, read in
/// place, and where they sit ([`Frame::layout`]). [`Dxbc::parse`](super::Dxbc::parse) starts
/// here and then parses the chunks it models.
///
/// ```
/// use shaderscope::format::dxbc::{Frame, HEADER_SIZE, write::Builder};
///
/// let mut b = Builder::new();
/// b.push(*b"PRIV", b"abc".to_vec());
/// let bytes = b.finish()?;
/// let frame = Frame::parse(&bytes)?;
/// let chunk = &frame.chunks[0];
/// assert_eq!((&chunk.fourcc.0, chunk.offset, chunk.data), (b"PRIV", HEADER_SIZE + 4, &b"abc"[..]));
/// // The byte that pads the chunk to four belongs to no structure: the layout keeps it.
/// assert_eq!(frame.header.total_size.get(), 48);
/// assert_eq!(frame.layout().filler, [(47, vec![0])]);
/// assert_eq!(
///     Frame::parse(&bytes[..40]).unwrap_err().to_string(),
///     "truncated DXBC container at offset 0x0 (need 48 bytes, have 40)"
/// );
/// # Ok::<(), shaderscope::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Frame<'a> {
    /// The whole input.
    pub data: &'a [u8],
    /// The fixed header, read in place.
    pub header: &'a Header,
    /// Chunks in index order (a chunk's index is its position here).
    pub chunks: Vec<Chunk<'a>>,
    /// Bytes after the declared container size (not part of the container; kept).
    pub trailing: &'a [u8],
}

impl<'a> Frame<'a> {
    /// Parse the header, the chunk index and every chunk header.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let mut r = Reader::new(data, Endian::Little);
        r.magic(b"DXBC", "DXBC header")?;
        let header: &Header = r.read_at(0, "DXBC header")?;
        let total_size = header.total_size.get() as usize;
        let count = header.chunk_count.get();
        if total_size < HEADER_SIZE {
            return Err(Error::invalid(
                24,
                "DXBC header",
                format!("container size {total_size} is smaller than the 32-byte header"),
            ));
        }
        if total_size > data.len() {
            return Err(Error::truncated(0, "DXBC container", total_size as u64, data.len() as u64));
        }
        let (container, trailing) = data.split_at_checked(total_size).unwrap_or((data, &[]));
        let after_header = container.len() - HEADER_SIZE;
        // Each chunk takes at least its 4-byte index entry (headers may be shared).
        let room = after_header / 4;
        if count as usize > room {
            let chunks = if room == 1 { "chunk" } else { "chunks" };
            return Err(Error::invalid(
                28,
                "DXBC header",
                format!(
                    "chunk count {count} is impossible: the {}-byte container has room for at most {room} {chunks}",
                    container.len()
                ),
            ));
        }
        let r = Reader::new(container, Endian::Little);
        let mut chunks: Vec<Chunk<'a>> = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let entry_at = HEADER_SIZE + 4 * i;
            let offset = r.u32_at(entry_at, "DXBC chunk index")?;
            if offset as usize > container.len() {
                // An index that has run into a chunk read before it: the count is wrong, not
                // this "offset" (which is chunk data, often a tag).
                if let Some((j, c)) =
                    chunks.iter().enumerate().find(|(_, c)| (c.offset..c.end()).contains(&entry_at))
                {
                    return Err(Error::invalid(
                        28,
                        "DXBC header",
                        format!(
                            "chunk count {count} is impossible: entry {i} of the index (0x{entry_at:x}) lies in chunk {j} ({}) at 0x{:x}, and its value 0x{offset:x} is past the end 0x{:x}",
                            c.fourcc,
                            c.offset,
                            container.len()
                        ),
                    ));
                }
                return Err(Error::out_of_bounds(
                    entry_at as u64,
                    format!("chunk {i} offset"),
                    u64::from(offset),
                    CHUNK_HEADER_SIZE as u64,
                    container.len() as u64,
                ));
            }
            let chunk =
                Chunk::read(&r, offset as usize, "header").map_err(|e| e.context(&format!("chunk {i} ")))?;
            chunks.push(chunk);
        }
        Ok(Frame { data, header, chunks, trailing })
    }

    /// [`Frame::parse`] that keeps what it can read of a damaged container: the header, then
    /// the chunks of the index in order up to the first that is not inside the file, with
    /// the failures (the one [`Frame::parse`] gives first). A container longer than the
    /// file is read as far as the file goes. Fails only without a whole header.
    ///
    /// ```
    /// use shaderscope::format::dxbc::{Frame, write::Builder};
    ///
    /// let mut b = Builder::new();
    /// b.push(*b"PRIV", b"abc".to_vec());
    /// b.push(*b"STAT", vec![0; 8]);
    /// let bytes = b.finish()?;
    /// let (frame, errors) = Frame::parse_partial(&bytes[..60])?;
    /// assert_eq!(frame.chunks.len(), 1);
    /// let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    /// assert_eq!(
    ///     errors,
    ///     [
    ///         "truncated DXBC container at offset 0x0 (need 68 bytes, have 60)",
    ///         "chunk 1 STAT chunk at offset 0x38 points outside its range (0x3c + 0x8 is outside 0x3c)",
    ///     ]
    /// );
    /// # Ok::<(), shaderscope::Error>(())
    /// ```
    pub fn parse_partial(data: &'a [u8]) -> Result<(Self, Vec<Error>)> {
        let first = match Self::parse(data) {
            Ok(frame) => return Ok((frame, Vec::new())),
            Err(e) => e,
        };
        let mut r = Reader::new(data, Endian::Little);
        r.magic(b"DXBC", "DXBC header")?;
        let header: &Header = r.read_at(0, "DXBC header")?;
        let total_size = header.total_size.get() as usize;
        let size = if total_size < HEADER_SIZE { data.len() } else { total_size.min(data.len()) };
        let (container, trailing) = data.split_at_checked(size).unwrap_or((data, &[]));
        let entries = (container.len() - HEADER_SIZE) / 4;
        let count = (header.chunk_count.get() as usize).min(entries);
        let r = Reader::new(container, Endian::Little);
        let mut chunks = Vec::new();
        let mut errors = vec![first];
        for i in 0..count {
            let read = r.u32_at(HEADER_SIZE + 4 * i, "DXBC chunk index").and_then(|offset| {
                Chunk::read(&r, offset as usize, "header").map_err(|e| e.context(&format!("chunk {i} ")))
            });
            match read {
                Ok(chunk) => chunks.push(chunk),
                Err(e) => {
                    if errors.first() != Some(&e) {
                        errors.push(e);
                    }
                    break;
                }
            }
        }
        Ok((Frame { data, header, chunks, trailing }, errors))
    }

    /// The container bytes (up to the declared size).
    pub fn container(&self) -> &'a [u8] {
        self.data.get(..self.header.total_size.get() as usize).unwrap_or(self.data)
    }

    /// The checksum computed over the container's bytes.
    pub fn computed_checksum(&self) -> [u8; 16] {
        checksum::compute(self.container())
    }

    /// For each chunk, the earlier chunk whose offset its index entry repeats (`None` for the
    /// first entry at an offset): the same bytes reached again, shown once and then referred
    /// to.
    pub fn repeats(&self) -> Vec<Option<usize>> {
        let mut seen = std::collections::HashMap::new();
        self.chunks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let k = *seen.entry(c.offset).or_insert(i);
                (k != i).then_some(k)
            })
            .collect()
    }

    /// Where the chunks sit and the bytes between them. The pieces are the header with the
    /// index, and each chunk; the filler is what they leave.
    pub fn layout(&self) -> Layout {
        let container = self.container();
        let index_end = HEADER_SIZE + 4 * self.chunks.len();
        let claimed: Vec<std::ops::Range<usize>> =
            std::iter::once(0..index_end).chain(self.chunks.iter().map(|c| c.offset..c.end())).collect();
        Layout {
            size: container.len(),
            offsets: self.chunks.iter().map(|c| c.offset as u32).collect(),
            filler: layout::filler(container, container.len(), &claimed),
        }
    }
}
