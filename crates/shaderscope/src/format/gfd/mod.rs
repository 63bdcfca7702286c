//! GFD (`Gfx2`) files, the Wii U's `.gsh` shader files (and `.gtx` textures): a file header,
//! then blocks, each a `BLK{` header and its data. A shader is a header block holding its GX2
//! struct ([`crate::format::gx2`]) and a program block holding its microcode (a geometry shader
//! has a third, its copy program).
//!
//! ```text
//! file header (0x20, big-endian): "Gfx2", header size 0x20, major 7, minor 1, GPU version 2,
//!                                 align flag (1: programs aligned to 0x100 by padding blocks), 2 reserved
//! block header (0x20):            "BLK{", header size 0x20, major, minor, type, data size, id, index
//!   types: 1 end of file, 2 padding, 3/5 vertex shader header/program, 6/7 pixel shader
//!          header/program, 8/9/10 geometry shader header/program/copy program,
//!          11/12/13 texture header/image/mipmap, 14/15 compute shader header/program
//! shader header block data:       the GX2 struct, its arrays, the names (the "text"), the
//!                                 relocation table (one word per pointer field, tagged like the
//!                                 pointers), then a 0x28-byte "}BLK" trailer at the very end:
//!                                 header size 0x28, 0, data size, data offset, text size,
//!                                 text offset, patch base, patch count, patch offset
//! ```
//!
//! Pointers in a header block are tagged (`0xD06xxxxx` data, `0xCA7xxxxx` text) with an offset
//! from the start of the block's data ([`PointerKind::Tagged`]). The microcode of a program
//! block is little-endian 32-bit words (the GPU's order; gshCompile's C header dumps show them
//! byte-swapped because the PowerPC reads them big-endian), and decaf-emu's listings print
//! them as such words.
//!
//! Blocks follow one another (each header gives its data's size), so no two share bytes;
//! inside a header block the struct's arrays and names can, and `validate` says where
//! ([`Shader::check_sharing`](crate::format::gx2::Shader::check_sharing)).
//!
//! [`Gfd::parse`] reads every block (texture and compute blocks kept as bytes), reads the
//! struct of every shader header block, and pairs headers with their program blocks as decaf's
//! reader does; a header whose struct does not read is reported by [`Container::damage`](crate::Container::damage) while
//! the rest of the file is read. [`Container::write`](crate::Container::write) gives back the same bytes.
//!
//! ```
//! use shaderscope::format::gfd::Gfd;
//! use shaderscope::{Container, DisasmOptions, Stage};
//!
//! let bytes = shaderscope::format::gfd::build::example();
//! let gfd = Gfd::parse(&bytes)?;
//! assert_eq!(gfd.shaders.len(), 2);
//! let vs = gfd.shaders[0].gx2().unwrap();
//! assert_eq!((vs.stage(), vs.attrib_vars.items[0].name.to_string()), (Stage::Vertex, "aPosition".to_string()));
//! assert_eq!(vs.summary(), "VS mode=0 ubs=0 uvs=1 ivs=0 loops=0 samplers=0 attribs=1 ring=0");
//! assert_eq!(gfd.write()?, bytes);
//! assert!(gfd.validate().is_empty(), "{:?}", gfd.validate());
//!
//! let mut text = shaderscope::print::TextBuf::default();
//! gfd.disasm(&DisasmOptions::default(), &mut text)?;
//! assert!(text.as_str().starts_with("VS mode=0 ubs=0 uvs=1 ivs=0 loops=0 samplers=0 attribs=1 ring=0\n---- vertex (16 bytes) ----\n"));
//!
//! // Cut inside the second block: an error at the offset where the block's data runs out.
//! let e = Gfd::parse(&bytes[..0x210]).unwrap_err();
//! assert_eq!(e.to_string(), "block 1 data at offset 0x1fc points outside its range (0x208 + 0x10 is outside 0x210)");
//! # Ok::<(), shaderscope::Error>(())
//! ```

pub mod assemble;
pub mod build;
mod container;
mod write;

pub use container::annotate_damaged;

use crate::error::{Error, Result};
use crate::format::gx2::{Kind, PointerKind, Shader};
use crate::toolkit::raw::{BigEndian, U32};
use crate::toolkit::{Endian, Reader};
use std::fmt;
use std::mem::offset_of;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// `Gfx2`.
pub(crate) const MAGIC: [u8; 4] = *b"Gfx2";
/// `BLK{`.
pub(crate) const BLOCK_MAGIC: [u8; 4] = *b"BLK{";
/// `}BLK`, the relocation trailer of a header block.
pub(crate) const RELOCATION_MAGIC: [u8; 4] = *b"}BLK";
/// Size of the file header and of a block header.
pub const HEADER_SIZE: u32 = 0x20;
/// Size of the relocation trailer.
pub(crate) const RELOCATION_SIZE: u32 = 0x28;

type Be = BigEndian;

/// `GFDFileHeader` (decaf-emu's `gfd.h`; wut's `GFDHeader`): the file header, big-endian.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct FileHeader {
    /// `Gfx2`.
    pub magic: [u8; 4],
    /// Its size (0x20); the first block follows it.
    pub header_size: U32<Be>,
    /// Major version (7).
    pub major_version: U32<Be>,
    /// Minor version (1).
    pub minor_version: U32<Be>,
    /// GPU version (2: GPU7, the Wii U's).
    pub gpu_version: U32<Be>,
    /// 1 when programs are aligned (to 0x100) by padding blocks.
    pub align: U32<Be>,
    /// Reserved (0).
    pub unk1: U32<Be>,
    /// Reserved (0).
    pub unk2: U32<Be>,
}

impl FileHeader {
    /// A header of version `major`.`minor`, GPU version `gpu`, with `align` and the reserved
    /// words as given.
    pub fn new(major: u32, minor: u32, gpu: u32, align: u32, reserved: [u32; 2]) -> FileHeader {
        FileHeader {
            magic: MAGIC,
            header_size: U32::new(HEADER_SIZE),
            major_version: U32::new(major),
            minor_version: U32::new(minor),
            gpu_version: U32::new(gpu),
            align: U32::new(align),
            unk1: U32::new(reserved[0]),
            unk2: U32::new(reserved[1]),
        }
    }
}

/// `GFDBlockHeader`: the header of every block, big-endian.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct BlockHeader {
    /// `BLK{`.
    pub magic: [u8; 4],
    /// Size of the header (0x20); the data follows it.
    pub header_size: U32<Be>,
    /// Major version (1; a pixel shader header of version 0 has no GX2R buffer).
    pub major_version: U32<Be>,
    /// Minor version (0).
    pub minor_version: U32<Be>,
    /// What the block holds ([`BlockType`]).
    pub r#type: U32<Be>,
    /// Size of the data.
    pub data_size: U32<Be>,
    /// Identifier (0, or a sequence number in decaf's latte-assembler output).
    pub id: U32<Be>,
    /// Index (0).
    pub index: U32<Be>,
}

impl BlockHeader {
    /// A 0x20-byte header of version 1.0.
    pub fn new(kind: BlockType, data_size: u32, id: u32, index: u32) -> BlockHeader {
        BlockHeader {
            magic: BLOCK_MAGIC,
            header_size: U32::new(HEADER_SIZE),
            major_version: U32::new(1),
            minor_version: U32::new(0),
            r#type: U32::new(kind.0),
            data_size: U32::new(data_size),
            id: U32::new(id),
            index: U32::new(index),
        }
    }
}

/// `GFDRelocationHeader`: the `}BLK` trailer at the end of a shader header block, big-endian.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RelocationHeader {
    /// `}BLK`.
    pub magic: [u8; 4],
    /// Its size (0x28).
    pub header_size: U32<Be>,
    /// A word that is 0.
    pub unk1: U32<Be>,
    /// Size of the data (struct, arrays and text) before the patch table.
    pub data_size: U32<Be>,
    /// Where the data starts (tagged: 0xD0600000).
    pub data_offset: U32<Be>,
    /// Size of the text (the names).
    pub text_size: U32<Be>,
    /// Where the text starts (tagged).
    pub text_offset: U32<Be>,
    /// A word that is 0.
    pub patch_base: U32<Be>,
    /// Number of patch entries.
    pub patch_count: U32<Be>,
    /// Where the patch table starts (tagged).
    pub patch_offset: U32<Be>,
}

// The structs are the sizes the format gives them.
const _: () = assert!(size_of::<FileHeader>() == HEADER_SIZE as usize);
const _: () = assert!(size_of::<BlockHeader>() == HEADER_SIZE as usize);
const _: () = assert!(size_of::<RelocationHeader>() == RELOCATION_SIZE as usize);

/// A block type: an open enum (an unknown type is kept and shown as its number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockType(pub u32);

impl BlockType {
    /// End of file (no data).
    pub const END_OF_FILE: BlockType = BlockType(1);
    /// Padding (zeros that align the next block).
    pub const PADDING: BlockType = BlockType(2);
    /// A `GX2VertexShader`.
    pub const VERTEX_HEADER: BlockType = BlockType(3);
    /// A vertex shader's microcode.
    pub const VERTEX_PROGRAM: BlockType = BlockType(5);
    /// A `GX2PixelShader`.
    pub const PIXEL_HEADER: BlockType = BlockType(6);
    /// A pixel shader's microcode.
    pub const PIXEL_PROGRAM: BlockType = BlockType(7);
    /// A `GX2GeometryShader`.
    pub const GEOMETRY_HEADER: BlockType = BlockType(8);
    /// A geometry shader's microcode.
    pub const GEOMETRY_PROGRAM: BlockType = BlockType(9);
    /// A geometry shader's copy program (the vertex program that reads its output ring).
    pub const GEOMETRY_COPY_PROGRAM: BlockType = BlockType(10);

    /// What the type is, lowercase (`vertex shader header`); `None` for an unknown type.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            1 => "end of file",
            2 => "padding",
            3 => "vertex shader header",
            5 => "vertex shader program",
            6 => "pixel shader header",
            7 => "pixel shader program",
            8 => "geometry shader header",
            9 => "geometry shader program",
            10 => "geometry shader copy program",
            11 => "texture header",
            12 => "texture image",
            13 => "texture mipmap",
            14 => "compute shader header",
            15 => "compute shader program",
            _ => return None,
        })
    }

    /// The shader kind whose struct a header block of this type holds.
    pub fn header_of(self) -> Option<Kind> {
        match self.0 {
            3 => Some(Kind::Vertex),
            6 => Some(Kind::Pixel),
            8 => Some(Kind::Geometry),
            _ => None,
        }
    }

    /// The shader kind whose microcode a program block of this type holds (and whether it is
    /// a geometry shader's copy program).
    pub fn program_of(self) -> Option<(Kind, bool)> {
        match self.0 {
            5 => Some((Kind::Vertex, false)),
            7 => Some((Kind::Pixel, false)),
            9 => Some((Kind::Geometry, false)),
            10 => Some((Kind::Geometry, true)),
            _ => None,
        }
    }
}

impl fmt::Display for BlockType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "unknown block type {}", self.0),
        }
    }
}

/// The `}BLK` trailer of a shader header block and the patch table it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relocations {
    /// Absolute offset of the trailer.
    pub at: u64,
    /// The trailer as stored.
    pub header: RelocationHeader,
    /// Absolute offset of the patch table; `None` when it has no entries.
    pub patches_at: Option<u64>,
    /// Each entry: the (tagged) offset of a pointer field the loader relocates; gshCompile
    /// leaves 0 for a pointer field that has nothing to point at.
    pub patches: Vec<u32>,
}

/// One block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block<'a> {
    /// Absolute offset of its `BLK{` header.
    pub offset: u64,
    /// The header as stored.
    pub header: BlockHeader,
    /// The data.
    pub data: &'a [u8],
    /// The relocation trailer of a shader header block, when it has one.
    pub relocations: Option<Relocations>,
    /// The shader (its index in [`Gfd::shaders`]) whose header or program the block holds.
    pub shader: Option<usize>,
}

impl Block<'_> {
    /// What the block holds.
    pub fn kind(&self) -> BlockType {
        BlockType(self.header.r#type.get())
    }

    /// Size of the header; the data follows it.
    pub fn header_size(&self) -> u32 {
        self.header.header_size.get()
    }

    /// Absolute offset of the data.
    pub fn data_offset(&self) -> u64 {
        self.offset + u64::from(self.header_size())
    }

    /// Absolute offset just past the data.
    pub fn end(&self) -> u64 {
        self.data_offset() + self.data.len() as u64
    }
}

/// One shader of the file: its header block (with its struct) and its program blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GfdShader<'a> {
    /// Vertex, pixel or geometry.
    pub kind: Kind,
    /// Its number among the file's shaders of its kind.
    pub number: usize,
    /// The header block's index and its struct (or why it does not read).
    pub header: Option<(usize, Result<Shader<'a>>)>,
    /// The program block's index.
    pub program: Option<usize>,
    /// Geometry: the copy program block's index.
    pub copy_program: Option<usize>,
}

impl<'a> GfdShader<'a> {
    /// The struct, when the header block is there and reads.
    pub fn gx2(&self) -> Option<&Shader<'a>> {
        self.header.as_ref().and_then(|(_, s)| s.as_ref().ok())
    }

    /// `vertex shader 0`.
    pub fn title(&self) -> String {
        format!("{} shader {}", self.kind.name(), self.number)
    }
}

/// A parsed GFD file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gfd<'a> {
    /// The whole input.
    pub data: &'a [u8],
    /// The file header.
    pub header: FileHeader,
    /// The blocks, in file order, up to and including the end-of-file block.
    pub blocks: Vec<Block<'a>>,
    /// The shaders, in the order their first block appears.
    pub shaders: Vec<GfdShader<'a>>,
    /// Absolute offset of the bytes after the end-of-file block (or after the last block).
    pub trailing_at: u64,
    /// Shaders of each kind so far (vertex, pixel, geometry), and the last of each.
    counts: [usize; 3],
    last: [Option<usize>; 3],
}

impl<'a> Gfd<'a> {
    /// Parse a whole GFD file.
    pub fn parse(data: &'a [u8]) -> Result<Gfd<'a>> {
        match Self::parse_partial(data)? {
            (g, None) => Ok(g),
            (_, Some(e)) => Err(e),
        }
    }

    /// Parse as far as the blocks read: the file with every block before the first one that
    /// does not read, and that block's error. Fails only when the file header does not read.
    pub fn parse_partial(data: &'a [u8]) -> Result<(Gfd<'a>, Option<Error>)> {
        let r = Reader::new(data, Endian::Big);
        let magic = r.bytes_at(0, 4, "GFD header")?;
        if magic != MAGIC {
            return Err(Error::bad_magic(0, "GFD header", &MAGIC, magic));
        }
        let header: FileHeader = *r.read_at(0, "GFD header")?;
        let header_size = header.header_size.get();
        if header_size < HEADER_SIZE {
            return Err(Error::invalid(
                offset_of!(FileHeader, header_size) as u64,
                "GFD header size",
                format!("0x{header_size:x} is smaller than the 0x20-byte header"),
            ));
        }
        let mut gfd = Gfd {
            data,
            header,
            blocks: Vec::new(),
            shaders: Vec::new(),
            trailing_at: data.len() as u64,
            counts: [0; 3],
            last: [None; 3],
        };
        let mut pos = u64::from(header_size);
        if pos > data.len() as u64 {
            let field_at = offset_of!(FileHeader, header_size) as u64;
            let e = Error::out_of_bounds(field_at, "first block", pos, 0, data.len() as u64);
            return Ok((gfd, Some(e)));
        }
        while pos < data.len() as u64 {
            let i = gfd.blocks.len();
            let (block, broken) = match read_block(&r, pos, i) {
                Ok(b) => b,
                Err(e) => {
                    gfd.trailing_at = pos;
                    return Ok((gfd, Some(e)));
                }
            };
            pos = block.end();
            let eof = block.kind() == BlockType::END_OF_FILE;
            gfd.add(block, broken);
            if eof {
                break;
            }
        }
        gfd.trailing_at = pos;
        Ok((gfd, None))
    }

    /// Add a block read from the file, pairing it with its shader; `broken` is why a header
    /// block's relocation table does not read.
    fn add(&mut self, mut block: Block<'a>, broken: Option<Error>) {
        let i = self.blocks.len();
        if let Some(kind) = block.kind().header_of() {
            // A pixel shader header of block version 0 predates the GX2R buffer.
            let with_gx2r = !(kind == Kind::Pixel && block.header.major_version.get() == 0);
            let s = match broken {
                Some(e) => Err(e),
                None => Shader::read_sized(
                    kind,
                    block.data,
                    block.data_offset(),
                    Endian::Big,
                    PointerKind::Tagged,
                    with_gx2r,
                ),
            }
            .map_err(|e| e.context(&format!("block {i} ")));
            block.shader = Some(self.new_shader(kind, Some((i, s))));
        } else if let Some((kind, copy)) = block.kind().program_of() {
            // The program goes with the last shader of its kind if that still lacks it
            // (decaf's reader: the last one), or stands alone.
            let free = |s: &GfdShader<'_>| if copy { s.copy_program.is_none() } else { s.program.is_none() };
            let last = self.last.get(kind_slot(kind)).copied().flatten();
            let k = match last {
                Some(k) if self.shaders.get(k).is_some_and(free) => k,
                _ => self.new_shader(kind, None),
            };
            if let Some(s) = self.shaders.get_mut(k) {
                if copy {
                    s.copy_program = Some(i);
                } else {
                    s.program = Some(i);
                }
            }
            block.shader = Some(k);
        }
        self.blocks.push(block);
    }

    /// A new shader of `kind` (with its header block and struct); its index.
    fn new_shader(&mut self, kind: Kind, header: Option<(usize, Result<Shader<'a>>)>) -> usize {
        let slot = kind_slot(kind);
        let number = self.counts.get(slot).copied().unwrap_or(0);
        let k = self.shaders.len();
        if let (Some(c), Some(l)) = (self.counts.get_mut(slot), self.last.get_mut(slot)) {
            *c += 1;
            *l = Some(k);
        }
        self.shaders.push(GfdShader { kind, number, header, program: None, copy_program: None });
        k
    }

    /// The bytes after the end-of-file block.
    pub fn trailing(&self) -> &'a [u8] {
        self.data.get(self.trailing_at as usize..).unwrap_or(&[])
    }

    /// The program block of shader `s` (`copy`: its copy program), with its data.
    pub fn program(&self, s: &GfdShader<'_>, copy: bool) -> Option<&Block<'a>> {
        let i = if copy { s.copy_program } else { s.program }?;
        self.blocks.get(i)
    }
}

/// The index of `kind` in per-kind tables.
fn kind_slot(kind: Kind) -> usize {
    match kind {
        Kind::Vertex => 0,
        Kind::Pixel => 1,
        Kind::Geometry => 2,
    }
}

/// Read the block whose header is at `pos` (block number `i`), and, for a shader header block
/// whose relocation table does not read, why (the block is kept as bytes).
fn read_block<'a>(r: &Reader<'a>, pos: u64, i: usize) -> Result<(Block<'a>, Option<Error>)> {
    let at = pos as usize;
    let what = || format!("block {i} header");
    let header: BlockHeader = *r.read_at(at, what())?;
    if header.magic != BLOCK_MAGIC {
        return Err(Error::bad_magic(pos, what(), &BLOCK_MAGIC, &header.magic));
    }
    let (header_size, data_size) = (header.header_size.get(), header.data_size.get());
    if header_size < HEADER_SIZE {
        return Err(Error::invalid(
            pos + offset_of!(BlockHeader, header_size) as u64,
            what(),
            format!("header size 0x{header_size:x} is smaller than the 0x20 bytes it has"),
        ));
    }
    let data_size_at = pos + offset_of!(BlockHeader, data_size) as u64;
    let data =
        r.sub(pos + u64::from(header_size), u64::from(data_size), format!("block {i} data"), data_size_at)?;
    let data_offset = data.base();
    let data = data.data();
    let (relocations, broken) = match BlockType(header.r#type.get()).header_of() {
        Some(_) => match read_relocations(data, data_offset) {
            Ok(r) => (r, None),
            Err(e) => (None, Some(e)),
        },
        None => (None, None),
    };
    Ok((Block { offset: pos, header, data, relocations, shader: None }, broken))
}

/// The `}BLK` trailer at the end of a header block's `data` (at absolute `base`) and its patch
/// table; `None` when the block does not end with one.
fn read_relocations(data: &[u8], base: u64) -> Result<Option<Relocations>> {
    let Some(start) = data.len().checked_sub(RELOCATION_SIZE as usize) else { return Ok(None) };
    let r = Reader::with_base(data, base, Endian::Big);
    let header: RelocationHeader = *r.read_at(start, "relocation trailer")?;
    if header.magic != RELOCATION_MAGIC {
        return Ok(None);
    }
    let mut rel = Relocations { at: base + start as u64, header, patches_at: None, patches: Vec::new() };
    let (patch_count, patch_offset) = (header.patch_count.get(), header.patch_offset.get());
    if patch_count > 0 {
        let offset = PointerKind::Tagged.resolve(patch_offset).unwrap_or(0);
        let len = u64::from(patch_count) * 4;
        let field_at = rel.at + offset_of!(RelocationHeader, patch_offset) as u64;
        let t = r.sub(u64::from(offset), len, "relocation patch table", field_at)?;
        rel.patches_at = Some(t.base());
        let mut t = t;
        rel.patches = (0..patch_count).map(|_| t.u32("relocation patch")).collect::<Result<_>>()?;
    }
    Ok(Some(rel))
}
