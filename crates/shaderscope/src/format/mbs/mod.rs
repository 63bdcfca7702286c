//! MBS files, the output of ARM's Mali-200/400 ("Utgard") offline shader compiler, of the
//! compiler inside libMali, and of the open lima_compiler: a tree of chunks, each a
//! four-character tag, a little-endian 32-bit size and that many bytes.
//!
//! ```text
//! MBS1                                    the file: one shader chunk
//!   CFRA  u32 version (5 MALI_200,        a fragment shader (Mali PP)
//!         7 MALI_400_PP), then chunks:
//!     FSTA  u32 stack size, u32 stack offset
//!     FDIS  u32 discard (1: the shader has a discard)
//!     FBUU  u8 x8: reads colour, writes colour, reads depth, writes depth, reads stencil,
//!           writes stencil, two unknown bytes
//!     SUNI  u32 count, u32 total uniform slots, count x VUNI
//!     SVAR  u32 count, count x VVAR
//!     DBIN  the code (Mali PP: variable-length instructions)
//!   CVER  u32 version (2 MALI_GP2,        a vertex shader (Mali GP)
//!         6 MALI_400_GP), then chunks:
//!     FINS  u32 unknown (0), u32 instruction count, u32 attribute prefetch
//!     SUNI, SATT (u32 count, count x VATT), SVAR, DBIN (Mali GP: 16-byte instructions)
//! VUNI / VVAR   STRI name, 20-byte record, then optional chunks: VIDX (ITDR, IYUV, IGRD:
//!               one u32 each, meaning unknown) and VINI (u32 n, n x f32 initial values)
//! VATT          STRI name, 16-byte record (no parent index)
//! STRI          a NUL-terminated name, padded to a multiple of 4
//! record        u8 unknown_0 (2 from libMali, 0 from lima_compiler), u8 type, u16 component
//!               count, u16 component size, u16 entry count, u16 src stride, u8 dst stride,
//!               u8 precision, u32 invariant (VATT: u16), u16 offset, u16 parent index
//!               (0xffff: none; not in VATT)
//! ```
//!
//! Chunks nest by size and follow one another, so no two share bytes; the one link that can
//! reach the same symbols again, a symbol's parent index, damages the table when the links
//! form a loop (a struct that contains itself: every command reports it). Known chunks are read where the format puts them; any other chunk, anywhere in the tree,
//! is kept as bytes and shown. [`Mbs::parse`] checks every chunk's size against its parent
//! (the error names the chunk's path, `MBS1/CVER/SUNI`, and the absolute offset of its size).
//! [`Container::write`](crate::Container::write) writes the tree back from the model,
//! computing every size, so an unmodified file gives the same bytes and an edited one (a
//! renamed symbol, an added initial value) a consistent file.
//!
//! ```
//! use shaderscope::format::mbs::{Mbs, SymbolType};
//! use shaderscope::Container;
//!
//! let bytes = shaderscope::format::mbs::build::example_vertex_shader();
//! let mbs = Mbs::parse(&bytes)?;
//! let shader = mbs.shader().unwrap();
//! assert_eq!(shader.core_name(), Some("MALI_400_GP"));
//! let uniforms = shader.table(*b"SUNI").unwrap();
//! let mvp = uniforms.symbols().next().unwrap();
//! assert_eq!((mvp.name.to_string(), mvp.ty), ("mvp".to_string(), SymbolType::MATRIX));
//! assert_eq!(mbs.write()?, bytes);
//! assert!(mbs.validate().is_empty(), "{:?}", mbs.validate());
//!
//! // A chunk larger than its parent: an error at the offset of its size, with its path.
//! let mut bad = bytes.clone();
//! bad[0x18..0x1c].copy_from_slice(&0x1000u32.to_le_bytes());
//! assert_eq!(
//!     Mbs::parse(&bad).unwrap_err().to_string(),
//!     "MBS1/CVER/FINS chunk at offset 0x18 points outside its range (0x1c + 0x1000 is outside 0x20c)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

pub mod assemble;
pub mod build;
mod code;
mod container;
mod write;

pub use container::{annotate_damaged, glsl_type};

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::toolkit::{Chunk, Endian, FourCC, Reader};
use std::borrow::Cow;
use std::fmt;

/// `MBS1`.
pub(crate) const MAGIC: [u8; 4] = *b"MBS1";

/// Which processor a shader chunk's code runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Core {
    /// The vertex processor (`CVER`), 128-bit instructions.
    Gp,
    /// The fragment ("pixel") processor (`CFRA`), variable-length instructions.
    Pp,
}

impl Core {
    /// `mali-gp` / `mali-pp`: the instruction set's name in `--json` programs.
    pub fn isa(self) -> &'static str {
        match self {
            Core::Gp => "mali-gp",
            Core::Pp => "mali-pp",
        }
    }

    /// `vertex` / `fragment`.
    pub fn stage_name(self) -> &'static str {
        match self {
            Core::Gp => "vertex",
            Core::Pp => "fragment",
        }
    }
}

/// A symbol's type byte: an open enum (an unknown value is kept and shown as its number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SymbolType(pub u8);

impl SymbolType {
    /// `float`, `vec2`…`vec4` (the component count says which).
    pub const FLOAT: SymbolType = SymbolType(1);
    /// `int`, `ivec2`…
    pub const INT: SymbolType = SymbolType(2);
    /// `bool`, `bvec2`…
    pub const BOOL: SymbolType = SymbolType(3);
    /// `mat2`…`mat4`.
    pub const MATRIX: SymbolType = SymbolType(4);
    /// `sampler2D`.
    pub const SAMPLER_2D: SymbolType = SymbolType(5);
    /// `samplerCube`.
    pub const SAMPLER_CUBE: SymbolType = SymbolType(6);
    /// A structure; its members follow it with its index as their parent.
    pub const STRUCT: SymbolType = SymbolType(8);
    /// `samplerExternalOES`.
    pub const SAMPLER_EXTERNAL: SymbolType = SymbolType(9);

    /// The seed's name of the type; `None` for an unknown value.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            1 => "float",
            2 => "int",
            3 => "bool",
            4 => "matrix",
            5 => "sampler2D",
            6 => "samplerCube",
            8 => "struct",
            9 => "samplerExternalOES",
            _ => return None,
        })
    }

    /// Whether the type is a sampler.
    pub fn is_sampler(self) -> bool {
        matches!(self.0, 5 | 6 | 9)
    }
}

impl fmt::Display for SymbolType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "{}", self.0),
        }
    }
}

/// The name of a precision byte (1 low, 2 medium, 3 high).
pub fn precision_name(p: u8) -> Option<&'static str> {
    Some(match p {
        1 => "lowp",
        2 => "mediump",
        3 => "highp",
        _ => return None,
    })
}

/// The core a shader chunk's version names (`_mali_core_type` of the kernel driver).
pub fn core_name(tag: FourCC, version: u32) -> Option<&'static str> {
    Some(match (&tag.0, version) {
        (b"CFRA", 5) => "MALI_200",
        (b"CFRA", 7) => "MALI_400_PP",
        (b"CVER", 2) => "MALI_GP2",
        (b"CVER", 6) => "MALI_400_GP",
        _ => return None,
    })
}

/// A `STRI` string: the name before its NUL, and the bytes after the NUL (the padding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stri<'a> {
    /// Absolute offset of the `STRI` header (0 in a model built in code).
    pub at: u64,
    /// The name, without its NUL.
    pub text: Cow<'a, [u8]>,
    /// What follows the NUL up to the chunk's end (zeros that pad it to 4 bytes).
    pub pad: Cow<'a, [u8]>,
}

impl<'a> Stri<'a> {
    /// A string for a model built in code, padded with zeros to 4 bytes.
    pub fn new(text: impl Into<Cow<'a, [u8]>>) -> Self {
        let mut s = Stri { at: 0, text: Cow::Borrowed(&[]), pad: Cow::Borrowed(&[]) };
        s.set_text(text);
        s
    }

    /// Change the name; the padding becomes the zeros that pad it to 4 bytes.
    pub fn set_text(&mut self, text: impl Into<Cow<'a, [u8]>>) {
        self.text = text.into();
        let plain = self.text.len() + 1;
        self.pad = Cow::Owned(vec![0; plain.next_multiple_of(4) - plain]);
    }

    /// Read the payload of a `STRI` chunk whose header is at `at`.
    fn read(data: &'a [u8], at: u64) -> Result<Self> {
        let Some(nul) = data.iter().position(|&b| b == 0) else {
            return Err(Error::invalid(at + 8, "STRI string", format!("no NUL in its {} bytes", data.len())));
        };
        let (text, rest) = data.split_at(nul);
        Ok(Stri { at, text: Cow::Borrowed(text), pad: Cow::Borrowed(rest.get(1..).unwrap_or(&[])) })
    }

    /// The payload size: the name, its NUL and the padding.
    pub fn payload_len(&self) -> usize {
        self.text.len() + 1 + self.pad.len()
    }
}

impl fmt::Display for Stri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.text))
    }
}

/// One symbol: a `VUNI` (uniform), `VVAR` (varying) or `VATT` (attribute) chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Symbol<'a> {
    /// Its name.
    pub name: Stri<'a>,
    /// Absolute offset of the fixed record after the name.
    pub record_at: u64,
    /// The record's first byte (the seed's `unknown_0`): 2 from libMali, 0 from lima_compiler.
    pub unknown_0: u8,
    /// The base type.
    pub ty: SymbolType,
    /// Components of a base type (a vec3: 3); members of a struct; dimensions of a sampler.
    pub component_count: u16,
    /// Size of one element (of the whole symbol when it is no array), in slots.
    pub component_size: u16,
    /// Array elements; 0 when the symbol is no array.
    pub entry_count: u16,
    /// Slots between array elements addressed indirectly.
    pub src_stride: u16,
    /// 16, or 24 for a varying fed straight into a texture fetch (meaning not settled).
    pub dst_stride: u8,
    /// 1 lowp, 2 mediump, 3 highp.
    pub precision: u8,
    /// 1 when declared `invariant` (a 16-bit field in a `VATT`).
    pub invariant: u32,
    /// Base slot, in the parent struct or in the table (0xffff: not allocated).
    pub offset: u16,
    /// Index of the parent struct in the table (0xffff: none); `None` for a `VATT`, which has
    /// no such field.
    pub parent: Option<u16>,
    /// The chunks after the record: `VIDX`, `VINI`, or unknown ones.
    pub children: Vec<Node<'a>>,
}

/// Size of the fixed record of a `VUNI`/`VVAR`.
pub(crate) const RECORD_SIZE: usize = 20;
/// Size of the fixed record of a `VATT`.
pub(crate) const ATTRIBUTE_RECORD_SIZE: usize = 16;

impl<'a> Symbol<'a> {
    /// A symbol for a model built in code: no array, not invariant, no parent, 16 as dst
    /// stride, highp, `unknown_0` 0, no sub-chunks.
    pub fn new(name: &'a str, ty: SymbolType, component_count: u16, size: u16, offset: u16) -> Self {
        Symbol {
            name: Stri::new(name.as_bytes()),
            record_at: 0,
            unknown_0: 0,
            ty,
            component_count,
            component_size: size,
            entry_count: 0,
            src_stride: size,
            dst_stride: 16,
            precision: 3,
            invariant: 0,
            offset,
            parent: Some(0xffff),
            children: Vec::new(),
        }
    }

    /// The parent struct's index, when there is one.
    pub fn parent_index(&self) -> Option<u16> {
        self.parent.filter(|p| *p != 0xffff)
    }

    /// The `VIDX` words (ITDR, IYUV, IGRD) when it has a `VIDX` of three words.
    pub fn vidx(&self) -> Option<[Option<u32>; 3]> {
        self.children.iter().find(|c| c.tag.0 == *b"VIDX").and_then(|c| match &c.body {
            Body::Chunks(kids) => {
                let word = |t: &[u8; 4]| {
                    kids.iter().find(|k| k.tag.0 == *t).and_then(|k| match k.body {
                        Body::Word(w) => Some(w),
                        _ => None,
                    })
                };
                Some([word(b"ITDR"), word(b"IYUV"), word(b"IGRD")])
            }
            _ => None,
        })
    }

    /// The initial values of its `VINI` chunk.
    pub fn initial_values(&self) -> Option<&[u32]> {
        self.children.iter().find_map(|c| match &c.body {
            Body::Vini(v) => Some(v.as_slice()),
            _ => None,
        })
    }

    /// Slots the symbol spans: (entries or 1) x src stride, or the component size when the
    /// stride is 0.
    pub fn extent(&self) -> u32 {
        let n = u32::from(self.entry_count.max(1));
        let each = if self.src_stride == 0 { self.component_size } else { self.src_stride };
        n * u32::from(each)
    }
}

/// A symbol table: `SUNI`, `SVAR` or `SATT`.
#[derive(Debug, Clone, PartialEq)]
pub struct Table<'a> {
    /// The count word: how many symbols the table holds.
    pub count: u32,
    /// `SUNI` only: the total uniform storage in scalar slots.
    pub total_slots: Option<u32>,
    /// The chunks of the table: symbols, and unknown ones.
    pub children: Vec<Node<'a>>,
}

impl<'a> Table<'a> {
    /// The symbols, in table order (their position is the parent index members use).
    pub fn symbols(&self) -> impl Iterator<Item = &Symbol<'a>> {
        self.children.iter().filter_map(|c| match &c.body {
            Body::Symbol(s) => Some(&**s),
            _ => None,
        })
    }

    /// The symbols with the offset of their chunk header.
    pub fn symbol_nodes(&self) -> impl Iterator<Item = (&Node<'a>, &Symbol<'a>)> {
        self.children.iter().filter_map(|c| match &c.body {
            Body::Symbol(s) => Some((c, &**s)),
            _ => None,
        })
    }
}

/// A shader chunk, `CFRA` or `CVER`.
#[derive(Debug, Clone, PartialEq)]
pub struct Shader<'a> {
    /// The version word (the core type).
    pub version: u32,
    /// Its chunks, in file order.
    pub children: Vec<Node<'a>>,
}

/// What a chunk holds.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Body<'a> {
    /// Nothing but chunks (`MBS1`, `VIDX`).
    Chunks(Vec<Node<'a>>),
    /// `CFRA` / `CVER`.
    Shader(Shader<'a>),
    /// `FSTA`.
    Fsta {
        /// Fragment stack size.
        stack_size: u32,
        /// Starting offset.
        stack_offset: u32,
    },
    /// `FDIS`.
    Fdis {
        /// 1 when the shader has a discard instruction.
        discard: u32,
    },
    /// `FBUU`: reads_color, writes_color, reads_depth, writes_depth, reads_stencil,
    /// writes_stencil, unknown_0, unknown_1.
    Fbuu([u8; 8]),
    /// `FINS`.
    Fins {
        /// Unknown (0).
        unknown_0: u32,
        /// Instruction count (DBIN bytes / 16).
        instructions: u32,
        /// Attribute prefetch.
        attrib_prefetch: u32,
    },
    /// `SUNI` / `SVAR` / `SATT`.
    Table(Table<'a>),
    /// `VUNI` / `VVAR` / `VATT`.
    Symbol(Box<Symbol<'a>>),
    /// `ITDR` / `IYUV` / `IGRD`: one word.
    Word(u32),
    /// `VINI`: initial values (bits of f32).
    Vini(Vec<u32>),
    /// `DBIN`: the code.
    Code(Cow<'a, [u8]>),
    /// An unknown chunk, or a known one whose size is not its structure's: its bytes.
    Bytes(Cow<'a, [u8]>),
}

/// One chunk of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node<'a> {
    /// Its tag.
    pub tag: FourCC,
    /// Absolute offset of its header (0 in a model built in code).
    pub at: u64,
    /// Its payload size as read (the writer computes it again).
    pub size: u32,
    /// What it holds.
    pub body: Body<'a>,
}

impl<'a> Node<'a> {
    /// A chunk for a model built in code.
    pub fn new(tag: [u8; 4], body: Body<'a>) -> Self {
        Node { tag: FourCC(tag), at: 0, size: 0, body }
    }

    /// Absolute offset of its payload.
    pub fn data_offset(&self) -> u64 {
        self.at + 8
    }

    /// The chunks inside it.
    pub fn children(&self) -> &[Node<'a>] {
        match &self.body {
            Body::Chunks(c) => c,
            Body::Shader(s) => &s.children,
            Body::Table(t) => &t.children,
            Body::Symbol(s) => &s.children,
            _ => &[],
        }
    }
}

/// A parsed MBS file.
#[derive(Debug, Clone, PartialEq)]
pub struct Mbs<'a> {
    /// The whole input.
    pub data: &'a [u8],
    /// The `MBS1` chunk.
    pub root: Node<'a>,
    /// Bytes after the `MBS1` chunk (none in a real file), kept.
    pub trailing: Cow<'a, [u8]>,
    /// Tables whose count word disagrees with their records or whose parent links loop (the
    /// file is damaged).
    damage: Vec<Error>,
}

impl<'a> Mbs<'a> {
    /// Parse a whole MBS file.
    pub fn parse(data: &'a [u8]) -> Result<Mbs<'a>> {
        let r = Reader::new(data, Endian::Little);
        let magic = r.bytes_at(0, 4, "MBS1 chunk header")?;
        if magic != MAGIC {
            return Err(Error::bad_magic(0, "MBS1 chunk header", &MAGIC, magic));
        }
        let c = Chunk::read(&r, 0, "MBS1 chunk header").map_err(|e| renamed(e, "MBS1 chunk"))?;
        let mut p = Parser { damage: Vec::new(), stack: vec![c.fourcc] };
        let kids = p.chunks(c.data, c.data_offset() as u64, Level::File)?;
        let root = Node { tag: c.fourcc, at: 0, size: c.data.len() as u32, body: Body::Chunks(kids) };
        let trailing = data.get(c.end()..).unwrap_or(&[]);
        Ok(Mbs { data, root, trailing: Cow::Borrowed(trailing), damage: p.damage })
    }

    /// A file made from a model built in code (for [`Mbs::write_model`]).
    pub fn from_root(root: Node<'a>) -> Self {
        Mbs { data: &[], root, trailing: Cow::Borrowed(&[]), damage: Vec::new() }
    }

    /// The shader chunk (`CFRA` or `CVER`): the first one under `MBS1`.
    pub fn shader_node(&self) -> Option<&Node<'a>> {
        self.root.children().iter().find(|n| matches!(n.body, Body::Shader(_)))
    }

    /// The shader chunk's contents.
    pub fn shader(&self) -> Option<ShaderView<'_, 'a>> {
        let node = self.shader_node()?;
        match &node.body {
            Body::Shader(s) => Some(ShaderView { node, shader: s }),
            _ => None,
        }
    }

    /// The shader chunk, to change it.
    pub fn shader_mut(&mut self) -> Option<&mut Shader<'a>> {
        let kids = match &mut self.root.body {
            Body::Chunks(k) => k,
            _ => return None,
        };
        kids.iter_mut().find_map(|n| match &mut n.body {
            Body::Shader(s) => Some(s),
            _ => None,
        })
    }
}

/// A shader chunk with its header.
#[derive(Debug, Clone, Copy)]
pub struct ShaderView<'m, 'a> {
    /// The chunk.
    pub node: &'m Node<'a>,
    /// Its contents.
    pub shader: &'m Shader<'a>,
}

impl<'m, 'a> ShaderView<'m, 'a> {
    /// GP for `CVER`, PP for `CFRA`.
    pub fn core(&self) -> Core {
        if self.node.tag.0 == *b"CVER" { Core::Gp } else { Core::Pp }
    }

    /// `MALI_400_GP`, …; `None` for a version the seed does not name.
    pub fn core_name(&self) -> Option<&'static str> {
        core_name(self.node.tag, self.shader.version)
    }

    /// The first chunk tagged `tag`.
    pub fn child(&self, tag: [u8; 4]) -> Option<&'m Node<'a>> {
        self.shader.children.iter().find(|n| n.tag.0 == tag)
    }

    /// The table tagged `tag` (`SUNI`, `SVAR`, `SATT`).
    pub fn table(&self, tag: [u8; 4]) -> Option<&'m Table<'a>> {
        self.shader.children.iter().find_map(|n| match &n.body {
            Body::Table(t) if n.tag.0 == tag => Some(t),
            _ => None,
        })
    }

    /// The code (`DBIN`) and its absolute offset.
    pub fn code(&self) -> Option<(&'m [u8], u64)> {
        self.shader.children.iter().find_map(|n| match &n.body {
            Body::Code(c) => Some((&**c, n.data_offset())),
            _ => None,
        })
    }
}

/// Where a list of chunks sits, which says which tags are read as what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// Inside `MBS1`.
    File,
    /// Inside `CFRA`/`CVER`.
    Shader,
    /// Inside a table.
    Table,
    /// After a symbol's record.
    Symbol,
    /// Inside `VIDX`.
    Vidx,
}

/// The tag at `at` of `data`, when four bytes are there.
fn tag_at(data: &[u8], at: usize) -> Option<FourCC> {
    data.get(at..).and_then(|b| b.first_chunk::<4>()).map(|t| FourCC(*t))
}

/// The little-endian word at `at` of `data`.
fn le_u32(data: &[u8], at: usize) -> Option<u32> {
    data.get(at..).and_then(|b| b.first_chunk::<4>()).map(|b| u32::from_le_bytes(*b))
}

/// The same error about `what` (a chunk named by its path).
fn renamed(e: Error, what: impl Into<Cow<'static, str>>) -> Error {
    Error::new(e.kind().clone(), e.offset(), what)
}

/// Parent links that lead back to where they started (a symbol its own parent, A → B → A):
/// structs that contain themselves, which no layout can hold, so the table is damaged. One
/// error per loop, at the parent index of the first of its symbols met. Each symbol is walked
/// once, so a long chain costs its length.
fn parent_loops(t: &Table<'_>, path: impl Fn() -> String) -> Vec<Error> {
    // Only struct members have a parent: a table without one has no link to follow.
    if t.symbols().all(|s| s.parent_index().is_none()) {
        return Vec::new();
    }
    let syms: Vec<&Symbol<'_>> = t.symbols().collect();
    let n = syms.len();
    let parent = |i: usize| syms.get(i).and_then(|s| s.parent_index()).map(usize::from).filter(|&p| p < n);
    let mut out = Vec::new();
    // 0: not walked yet, 1: on the walk now, 2: done.
    let mut state = vec![0u8; n];
    // The symbols of the walk being taken, from `i` up its parent links.
    let mut walk = Vec::new();
    for i in 0..n {
        walk.clear();
        let mut j = Some(i);
        while let Some(k) = j.filter(|&k| state.get(k) == Some(&0)) {
            if let Some(s) = state.get_mut(k) {
                *s = 1;
            }
            walk.push(k);
            j = parent(k);
        }
        if let Some(k) = j.filter(|&k| state.get(k) == Some(&1)) {
            let len = walk.iter().rev().position(|&w| w == k).map_or(0, |p| p + 1);
            if let (Some(s), Some(p)) = (syms.get(k), parent(k)) {
                let why = if p == k {
                    format!("its parent index {p} is the symbol itself: a struct cannot contain itself")
                } else {
                    format!(
                        "its parent index {p} leads back to it (a cycle of {}): structs cannot contain each other",
                        crate::print::count(len, "symbol")
                    )
                };
                out.push(Error::invalid(
                    s.record_at + 18,
                    format!("{} symbol {k} ({})", path(), s.name),
                    why,
                ));
            }
        }
        for &w in &walk {
            if let Some(s) = state.get_mut(w) {
                *s = 2;
            }
        }
    }
    out
}

struct Parser {
    damage: Vec<Error>,
    /// The tags from `MBS1` down to the chunk being read: its path, made into text only for
    /// an error.
    stack: Vec<FourCC>,
}

impl Parser {
    /// `MBS1/CVER/SUNI`: the path of the chunk being read.
    fn path(&self) -> String {
        let tags: Vec<String> = self.stack.iter().map(FourCC::name).collect();
        tags.join("/")
    }

    /// The chunks that fill `data` (at absolute `base`), inside the chunk being read.
    fn chunks<'a>(&mut self, data: &'a [u8], base: u64, level: Level) -> Result<Vec<Node<'a>>> {
        let r = Reader::with_base(data, base, Endian::Little);
        let mut out = Vec::new();
        let mut at = 0usize;
        while at < data.len() {
            let c = Chunk::read(&r, at, "chunk").map_err(|e| {
                let what = match tag_at(data, at) {
                    Some(t) => format!("{}/{t} chunk", self.path()),
                    None => format!("{} child chunk", self.path()),
                };
                renamed(e, what)
            })?;
            at += 8 + c.data.len();
            self.stack.push(c.fourcc);
            let node = self.node(c, level);
            self.stack.pop();
            out.push(node?);
        }
        Ok(out)
    }

    /// The chunk `c` (on top of the stack), found at `level`.
    fn node<'a>(&mut self, c: Chunk<'a>, level: Level) -> Result<Node<'a>> {
        let tag = c.fourcc;
        let at = c.offset as u64;
        let base = c.data_offset() as u64;
        let d = c.data;
        let word = |i: usize| le_u32(d, 4 * i);
        let body = match (level, &tag.0) {
            (Level::File, b"CFRA" | b"CVER") if d.len() >= 4 => {
                let version = word(0).unwrap_or(0);
                let children = self.chunks(d.get(4..).unwrap_or(&[]), base + 4, Level::Shader)?;
                Body::Shader(Shader { version, children })
            }
            (Level::Shader, b"FSTA") if d.len() == 8 => {
                Body::Fsta { stack_size: word(0).unwrap_or(0), stack_offset: word(1).unwrap_or(0) }
            }
            (Level::Shader, b"FDIS") if d.len() == 4 => Body::Fdis { discard: word(0).unwrap_or(0) },
            (Level::Shader, b"FBUU") if d.len() == 8 => {
                Body::Fbuu(d.first_chunk::<8>().copied().unwrap_or_default())
            }
            (Level::Shader, b"FINS") if d.len() == 12 => Body::Fins {
                unknown_0: word(0).unwrap_or(0),
                instructions: word(1).unwrap_or(0),
                attrib_prefetch: word(2).unwrap_or(0),
            },
            (Level::Shader, b"SUNI" | b"SVAR" | b"SATT") => {
                let two = tag.0 == *b"SUNI";
                let head = if two { 8 } else { 4 };
                let r = c.reader(Endian::Little);
                let count = r.u32_at(0, "count").map_err(|e| renamed(e, format!("{} count", self.path())))?;
                let total_slots = if two {
                    let what = |e| renamed(e, format!("{} total slots", self.path()));
                    Some(r.u32_at(4, "total").map_err(what)?)
                } else {
                    None
                };
                let children = self.chunks(d.get(head..).unwrap_or(&[]), base + head as u64, Level::Table)?;
                let records = children.iter().filter(|n| matches!(n.body, Body::Symbol(_))).count();
                if count as usize != records {
                    let rel = if count as usize > records { "larger" } else { "smaller" };
                    self.damage.push(Error::invalid(
                        base,
                        format!("{} count", self.path()),
                        format!("{count} is {rel} than the table's {records} records"),
                    ));
                }
                let table = Table { count, total_slots, children };
                self.damage.extend(parent_loops(&table, || self.path()));
                Body::Table(table)
            }
            (Level::Table, b"VUNI" | b"VVAR" | b"VATT") => Body::Symbol(Box::new(self.symbol(c)?)),
            (Level::Shader, b"DBIN") => Body::Code(Cow::Borrowed(d)),
            (Level::Symbol, b"VIDX") => Body::Chunks(self.chunks(d, base, Level::Vidx)?),
            (Level::Symbol, b"VINI") => match word(0) {
                Some(n) if u64::from(n) * 4 + 4 == d.len() as u64 => {
                    Body::Vini((1..=n as usize).filter_map(word).collect())
                }
                _ => Body::Bytes(Cow::Borrowed(d)),
            },
            (Level::Vidx, b"ITDR" | b"IYUV" | b"IGRD") if d.len() == 4 => Body::Word(word(0).unwrap_or(0)),
            _ => Body::Bytes(Cow::Borrowed(d)),
        };
        Ok(Node { tag, at, size: d.len() as u32, body })
    }

    /// A `VUNI`/`VVAR`/`VATT` chunk: its `STRI`, its record and its chunks.
    fn symbol<'a>(&mut self, c: Chunk<'a>) -> Result<Symbol<'a>> {
        let r = c.reader(Endian::Little);
        let base = c.data_offset() as u64;
        let s = Chunk::read(&r, 0, "chunk").map_err(|e| {
            let what = match tag_at(c.data, 0) {
                Some(t) => format!("{}/{t} chunk", self.path()),
                None => format!("{} name chunk", self.path()),
            };
            renamed(e, what)
        })?;
        if s.fourcc.0 != *b"STRI" {
            return Err(Error::bad_magic(base, format!("{} name", self.path()), b"STRI", &s.fourcc.0));
        }
        let name =
            Stri::read(s.data, base).map_err(|e| renamed(e, format!("{}/STRI string", self.path())))?;
        let attribute = c.fourcc.0 == *b"VATT";
        let len = if attribute { ATTRIBUTE_RECORD_SIZE } else { RECORD_SIZE };
        let rec_at = 8 + s.data.len();
        let rec =
            r.bytes_at(rec_at, len, "record").map_err(|e| renamed(e, format!("{} record", self.path())))?;
        let u16_at =
            |i: usize| rec.get(i..).and_then(|b| b.first_chunk::<2>()).map_or(0, |b| u16::from_le_bytes(*b));
        let byte = |i: usize| rec.get(i).copied().unwrap_or(0);
        let (invariant, offset, parent) = if attribute {
            (u32::from(u16_at(12)), u16_at(14), None)
        } else {
            let inv = le_u32(rec, 12).unwrap_or(0);
            (inv, u16_at(16), Some(u16_at(18)))
        };
        let rest_at = rec_at + len;
        let rest = c.data.get(rest_at..).unwrap_or(&[]);
        let children = self.chunks(rest, base + rest_at as u64, Level::Symbol)?;
        Ok(Symbol {
            name,
            record_at: base + rec_at as u64,
            unknown_0: byte(0),
            ty: SymbolType(byte(1)),
            component_count: u16_at(2),
            component_size: u16_at(4),
            entry_count: u16_at(6),
            src_stride: u16_at(8),
            dst_stride: byte(10),
            precision: byte(11),
            invariant,
            offset,
            parent,
            children,
        })
    }
}
