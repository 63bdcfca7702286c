//! The GX2 shader structs of the Wii U (`GX2VertexShader`, `GX2PixelShader`,
//! `GX2GeometryShader`), shared by the two containers that carry them: GFD `.gsh` files
//! ([`crate::format::gfd`]) and AGL SHARCFB archives.
//!
//! A struct is the register words GX2 loads when the shader is set ([`regs`]), the size of the
//! microcode and where it is, the shader mode, and arrays of symbols the struct points at:
//! uniform blocks, uniform vars, their initial values, loop vars, sampler vars and (vertex
//! shaders) attribute vars, each with a name string. How pointers are stored depends on the
//! container ([`PointerKind`]): GFD tags them (`0xD06xxxxx` data, `0xCA7xxxxx` text) with an
//! offset from the start of the block's data, SHARCFB stores plain offsets from the start of
//! the shader data; 0 is no pointer in both. The byte order is the container's (GFD big-endian;
//! SHARCFB either). [`Shader::read`] reads any of the three kinds from the bytes its pointers
//! are relative to, keeping every value as stored and the absolute byte range of every item,
//! so that [`Shader::place`] writes it back byte for byte and `dump` can show every byte.
//!
//! Layouts (byte offsets; every field a 32-bit word), as decaf-emu's `gx2_shaders.h` and wut's
//! `gx2/shaders.h` check them (each struct is declared once, `#[repr(C)]` in the container's
//! byte order, and read in place, written as its bytes and annotated by its fields' offsets;
//! [`Layout`] gives those offsets):
//!
//! | | vertex (0x134) | pixel (0xE8) | geometry (0xC0) |
//! |---|---|---|---|
//! | `regs` | 0x00, 52 words | 0x00, 41 words | 0x00, 19 words |
//! | program size, pointer | 0xD0, 0xD4 | 0xA4, 0xA8 | 0x4C, 0x50 |
//! | copy program size, pointer | | | 0x54, 0x58 |
//! | mode | 0xD8 | 0xAC | 0x5C |
//! | uniform blocks, uniform vars, initial values, loop vars, sampler vars (count, pointer) | 0xDC… | 0xB0… | 0x60… |
//! | attrib vars | 0x104 | | |
//! | ring item size, has stream out, 4 strides | 0x10C | | 0x88 |
//! | GX2R buffer (flags, element size, count, pointer) | 0x124 | 0xD8 | 0xA0, copy 0xB0 |
//!
//! Element sizes: uniform block 0x0C (name, offset, size), uniform var 0x14 (name, type, count,
//! offset, block), initial value 0x14 (four floats, offset), loop var 0x08 (offset, value),
//! sampler var 0x0C (name, type, location), attrib var 0x10 (name, type, count, location).
//!
//! ```
//! use shaderscope::format::gx2::{Kind, PointerKind, Shader};
//! use shaderscope::toolkit::Endian;
//!
//! // A pixel shader struct in SHARCFB style: little-endian, one sampler var whose entry and
//! // name follow the struct (plain offsets from the struct's start).
//! fn put(data: &mut [u8], at: usize, v: u32) {
//!     data[at..at + 4].copy_from_slice(&v.to_le_bytes());
//! }
//! let mut data = vec![0u8; 0x100];
//! put(&mut data, 0x00, 0x0000_0002); // SQ_PGM_RESOURCES_PS: 2 GPRs
//! put(&mut data, 0xAC, 1); // GX2_SHADER_MODE_UNIFORM_BLOCK
//! put(&mut data, 0xD0, 1); // one sampler var…
//! put(&mut data, 0xD4, 0xE8); // …at 0xE8: its name at 0xF4, GX2_SAMPLER_TYPE_2D, location 0
//! put(&mut data, 0xE8, 0xF4);
//! put(&mut data, 0xEC, 1);
//! data[0xF4..0xF8].copy_from_slice(b"tex\0");
//! let ps = Shader::read(Kind::Pixel, &data, 0x100, Endian::Little, PointerKind::Offset)?;
//! let s = &ps.sampler_vars.items[0];
//! assert_eq!((s.name.to_string(), s.ty.to_string(), s.at), ("tex".into(), "GX2_SAMPLER_TYPE_2D".into(), 0x1E8));
//! assert_eq!(ps.summary(), "PS mode=1 ubs=0 uvs=0 samplers=1");
//! assert_eq!(ps.reg("SQ_PGM_RESOURCES_PS"), Some(2));
//! // A pointer outside the data is an error at the pointer's absolute offset.
//! put(&mut data, 0xD4, 0x1000);
//! let e = Shader::read(Kind::Pixel, &data, 0x100, Endian::Little, PointerKind::Offset).unwrap_err();
//! assert_eq!(e.to_string(), "pixel shader sampler vars at offset 0x1d4 points outside its range (0x1100 + 0xc is outside 0x200)");
//! # Ok::<(), shaderscope::Error>(())
//! ```

mod annotate;
pub mod assemble;
pub mod cemu_hash;
mod check;
mod info;
mod listing;
pub(crate) mod raw;
pub(crate) use raw::ENTRY_SIZES;
pub mod regs;
mod types;

pub use info::{ArrayInfo, CemuHash, ShaderInfo};
pub use listing::{ProgramCode, write_shader_listing};
pub use regs::{RegDef, RegField, Slot};
pub use types::{SamplerType, ShaderMode, VarType, resource_flags_text};

use crate::error::{Error, Result};
use crate::model::Stage;
use crate::toolkit::layout::Placement;
use crate::toolkit::raw::{I32, U32};
use crate::toolkit::{Cstr, Endian, Reader};
use raw::ShaderStruct as _;
use std::borrow::Cow;
use std::fmt;
use std::mem::offset_of;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The hashes Cemu keys the shader by (its graphic packs' `<base>_<aux>_vs.txt` names), as far
/// as the shader file decides them ([`cemu_hash`](mod@self::cemu_hash) module for the algorithm);
/// `program` is the shader's microcode.
///
/// - pixel: both hashes, for a pixel shader drawn without a geometry shader, with the alpha
///   test off and each sampler's texture of the kind its sampler var declares;
/// - vertex: the aux hash (stream-out strides; no integer-format textures); the base hash
///   mixes in the fetch shader GX2 builds from the game's attribute streams, so it is `None`;
/// - geometry: the aux hash (always 0); the base hash needs the vertex shader's ring
///   parameter count, so it is `None`.
///
/// `None` without the microcode, or (pixel) when a sampler's type has no texture dimension
/// Cemu's hash knows.
pub fn cemu_hash(shader: &Shader<'_>, program: Option<&[u8]>) -> Option<CemuHash> {
    let code = program?;
    match shader.kind {
        Kind::Pixel => {
            let control = shader.reg("SPI_PS_IN_CONTROL_0")?;
            let inputs: Vec<u32> = (0..32).filter_map(|i| shader.reg_at("SPI_PS_INPUT_CNTL", i)).collect();
            let key = self::cemu_hash::ps_input_key(control, &inputs);
            let mut samplers: Vec<(u32, u32)> =
                shader.sampler_vars.items.iter().map(|s| (s.location, s.ty.0)).collect();
            samplers.sort_unstable();
            let dims: Option<Vec<u32>> =
                samplers.iter().map(|&(_, ty)| self::cemu_hash::sampler_dim(ty)).collect();
            let aux = self::cemu_hash::pixel_aux_hash(shader.reg("CB_SHADER_MASK")?, None, &dims?);
            Some(CemuHash { base: Some(self::cemu_hash::pixel_base_hash(code, key, None)), aux })
        }
        Kind::Vertex => {
            // GX2 loads each stride as `VGT_STRMOUT_VTX_STRIDE_n`: the byte stride >> 2.
            let strides: Vec<u32> = if shader.has_stream_out != 0 {
                shader.stream_out_stride.iter().filter(|&&s| s != 0).map(|s| s >> 2).collect()
            } else {
                Vec::new()
            };
            Some(CemuHash { base: None, aux: self::cemu_hash::vertex_aux_hash(&strides, 0) })
        }
        Kind::Geometry => Some(CemuHash { base: None, aux: self::cemu_hash::GEOMETRY_AUX_HASH }),
    }
}

/// GFD's tag of a pointer to data (arrays), in the top 12 bits.
pub const GFD_DATA_TAG: u32 = 0xD06;
/// GFD's tag of a pointer to text (names), in the top 12 bits.
pub const GFD_TEXT_TAG: u32 = 0xCA7;
/// The bits of a GFD pointer that hold the offset.
pub(crate) const GFD_OFFSET_MASK: u32 = 0x000F_FFFF;

/// How a container stores the pointers of a GX2 struct.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PointerKind {
    /// GFD: a tag in the top 12 bits ([`GFD_DATA_TAG`], [`GFD_TEXT_TAG`]) and an offset from
    /// the start of the block's data in the low 20 bits; 0 is no pointer.
    Tagged,
    /// SHARCFB: an offset from the start of the shader data; 0 is no pointer.
    Offset,
}

impl PointerKind {
    /// The offset (relative to the data the struct sits in) a stored pointer leads to;
    /// `None` for no pointer.
    pub fn resolve(self, raw: u32) -> Option<u32> {
        match (self, raw) {
            (_, 0) => None,
            (PointerKind::Tagged, v) => Some(v & GFD_OFFSET_MASK),
            (PointerKind::Offset, v) => Some(v),
        }
    }

    /// The pointer to `offset` as this kind stores it (`text`: a name, tagged as text in GFD).
    pub fn encode(self, offset: u32, text: bool) -> u32 {
        match self {
            PointerKind::Tagged => {
                let tag = if text { GFD_TEXT_TAG } else { GFD_DATA_TAG };
                (tag << 20) | (offset & GFD_OFFSET_MASK)
            }
            PointerKind::Offset => offset,
        }
    }

    /// The tag of a GFD pointer (`None` for no pointer and for plain offsets).
    pub fn tag(self, raw: u32) -> Option<u32> {
        (self == PointerKind::Tagged && raw != 0).then_some(raw >> 20)
    }
}

/// The three kinds of GX2 shader struct.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `GX2VertexShader`.
    Vertex,
    /// `GX2PixelShader`.
    Pixel,
    /// `GX2GeometryShader` (with its copy shader, the vertex program that reads the GS ring).
    Geometry,
}

impl Kind {
    /// `vertex`, `pixel`, `geometry`.
    pub fn name(self) -> &'static str {
        self.stage().name()
    }

    /// The pipeline stage.
    pub fn stage(self) -> Stage {
        match self {
            Kind::Vertex => Stage::Vertex,
            Kind::Pixel => Stage::Pixel,
            Kind::Geometry => Stage::Geometry,
        }
    }

    /// `VS`, `PS`, `GS`: how decaf-emu's listings name the kind.
    pub fn short(self) -> &'static str {
        match self {
            Kind::Vertex => "VS",
            Kind::Pixel => "PS",
            Kind::Geometry => "GS",
        }
    }

    /// Where every field of the kind's struct sits.
    pub fn layout(self) -> &'static Layout {
        match self {
            Kind::Vertex => &VERTEX,
            Kind::Pixel => &PIXEL,
            Kind::Geometry => &GEOMETRY,
        }
    }
}

/// Where the fields of one kind of struct sit (byte offsets from the struct's start), taken
/// from the struct's declaration (`offset_of!`), for `dump`, the checks and the byte-order
/// conversion to name a field by.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Layout {
    /// The `regs` block at offset 0.
    pub regs: &'static [Slot],
    /// The microcode's size; its pointer follows.
    pub size: usize,
    /// Geometry: the copy program's size; its pointer follows.
    pub copy: Option<usize>,
    /// `GX2ShaderMode`.
    pub mode: usize,
    /// The count of uniform blocks; the pointer follows, then uniform vars, initial values,
    /// loop vars and sampler vars as (count, pointer) pairs.
    pub arrays: usize,
    /// Vertex: the attrib vars (count, pointer).
    pub attribs: Option<usize>,
    /// Vertex and geometry: the ring item size, then `hasStreamOut` and four strides.
    pub ring: Option<usize>,
    /// The GX2R buffer of the program.
    pub gx2r: usize,
    /// Geometry: the GX2R buffer of the copy program.
    pub copy_gx2r: Option<usize>,
    /// The size of the whole struct.
    pub size_of: usize,
}

const VERTEX: Layout = {
    type S = raw::GX2VertexShader<raw::U>;
    Layout {
        regs: regs::VERTEX,
        size: offset_of!(S, size),
        copy: None,
        mode: offset_of!(S, mode),
        arrays: offset_of!(S, uniform_block_count),
        attribs: Some(offset_of!(S, attrib_var_count)),
        ring: Some(offset_of!(S, ring_item_size)),
        gx2r: offset_of!(S, gx2r_buffer),
        copy_gx2r: None,
        size_of: size_of::<S>(),
    }
};

const PIXEL: Layout = {
    type S = raw::GX2PixelShader<raw::U>;
    Layout {
        regs: regs::PIXEL,
        size: offset_of!(S, size),
        copy: None,
        mode: offset_of!(S, mode),
        arrays: offset_of!(S, uniform_block_count),
        attribs: None,
        ring: None,
        gx2r: offset_of!(S, gx2r_buffer),
        copy_gx2r: None,
        size_of: size_of::<S>(),
    }
};

const GEOMETRY: Layout = {
    type S = raw::GX2GeometryShader<raw::U>;
    Layout {
        regs: regs::GEOMETRY,
        size: offset_of!(S, size),
        copy: Some(offset_of!(S, vertex_program_size)),
        mode: offset_of!(S, mode),
        arrays: offset_of!(S, uniform_block_count),
        attribs: None,
        ring: Some(offset_of!(S, ring_item_size)),
        gx2r: offset_of!(S, gx2r_buffer),
        copy_gx2r: Some(offset_of!(S, vertex_program_gx2r_buffer)),
        size_of: size_of::<S>(),
    }
};

/// The names of the five symbol arrays every kind has, in struct order.
pub(crate) const ARRAY_NAMES: [&str; 5] =
    ["uniform blocks", "uniform vars", "initial values", "loop vars", "sampler vars"];

/// A name: the pointer as stored and the string it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Name<'a> {
    /// The pointer as stored.
    pub pointer: u32,
    /// The string (with its absolute offset); `None` when the pointer is 0.
    pub text: Option<Cstr<'a>>,
}

impl Name<'_> {
    /// The text, empty for no name.
    pub fn text(&self) -> Cow<'_, str> {
        self.text.map(|t| t.text()).unwrap_or(Cow::Borrowed(""))
    }
}

/// How much of a name `info` and `dump` show: GX2 names are identifiers, and a hostile file
/// whose names all point into one long string would otherwise repeat it for every name.
pub const NAME_SHOWN: usize = 256;

/// The text, cut to [`NAME_SHOWN`] bytes (at a character boundary) and marked `…` when longer.
impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.text();
        if text.len() <= NAME_SHOWN {
            return f.write_str(&text);
        }
        let mut end = NAME_SHOWN;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        f.write_str(text.get(..end).unwrap_or(""))?;
        f.write_str("…")
    }
}

/// `GX2UniformBlock`: a uniform buffer the shader reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UniformBlock<'a> {
    /// Absolute offset of the entry.
    pub at: u64,
    /// Its name.
    pub name: Name<'a>,
    /// The buffer location (the uniform block slot it is bound to).
    pub offset: u32,
    /// Its size in bytes.
    pub size: u32,
}

/// `GX2UniformVar`: a uniform, in the constant file or in a uniform block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UniformVar<'a> {
    /// Absolute offset of the entry.
    pub at: u64,
    /// Its name.
    pub name: Name<'a>,
    /// Its type.
    pub ty: VarType,
    /// Array length (0 or 1: not an array).
    pub count: u32,
    /// Offset in 32-bit components (in the constant file, or in its block).
    pub offset: u32,
    /// Index of its uniform block; -1 for none (the constant file).
    pub block: i32,
}

/// `GX2UniformInitialValue`: four floats put at a constant-file offset before the shader
/// runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitialValue {
    /// Absolute offset of the entry.
    pub at: u64,
    /// The four values as stored (IEEE bits).
    pub value: [u32; 4],
    /// Offset in 32-bit components.
    pub offset: u32,
}

/// `GX2LoopVar`: a loop constant (the integer constant a LOOP instruction reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopVar {
    /// Absolute offset of the entry.
    pub at: u64,
    /// Which loop constant.
    pub offset: u32,
    /// Its value (count, start and step packed as the LOOP instructions read them).
    pub value: u32,
}

/// `GX2SamplerVar`: a sampler and the texture unit it is bound to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplerVar<'a> {
    /// Absolute offset of the entry.
    pub at: u64,
    /// Its name.
    pub name: Name<'a>,
    /// Its type.
    pub ty: SamplerType,
    /// The sampler/texture unit.
    pub location: u32,
}

/// `GX2AttribVar`: a vertex attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttribVar<'a> {
    /// Absolute offset of the entry.
    pub at: u64,
    /// Its name.
    pub name: Name<'a>,
    /// Its type.
    pub ty: VarType,
    /// Array length (0 or 1: not an array).
    pub count: u32,
    /// The attribute location (its semantic id in the vertex semantic table).
    pub location: u32,
}

/// A (count, pointer) pair of a struct and the entries it leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Array<T> {
    /// The count as stored.
    pub count: u32,
    /// The pointer as stored.
    pub pointer: u32,
    /// Absolute offset of the first entry; `None` when the count is 0.
    pub at: Option<u64>,
    /// The entries (`count` of them).
    pub items: Vec<T>,
}

impl<T> Default for Array<T> {
    fn default() -> Self {
        Array { count: 0, pointer: 0, at: None, items: Vec::new() }
    }
}

/// `GX2RBuffer`: how GX2R allocated a buffer (all 0 in files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RBuffer {
    /// `GX2RResourceFlags`.
    pub flags: u32,
    /// Element size in bytes.
    pub elem_size: u32,
    /// Element count.
    pub elem_count: u32,
    /// The buffer pointer (0 in files).
    pub buffer: u32,
}

/// A GX2 shader struct of any kind, with the symbols it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Shader<'a> {
    /// Vertex, pixel or geometry.
    pub kind: Kind,
    /// How its pointers are stored.
    pub pointers: PointerKind,
    /// Absolute offset of the struct.
    pub at: u64,
    /// The struct's size as read (a GFD pixel shader header of version 0 has no GX2R buffer:
    /// 0xD8; a geometry shader without the copy program's GX2R buffer: 0xB0).
    pub len: u32,
    /// The `regs` block, laid out as [`Layout::regs`] says.
    pub regs: Vec<u32>,
    /// The microcode's size in bytes.
    pub size: u32,
    /// The microcode's pointer as stored (0 in GFD, where it is a block of its own).
    pub program: u32,
    /// Geometry: the copy program's size.
    pub copy_size: u32,
    /// Geometry: the copy program's pointer as stored.
    pub copy_program: u32,
    /// How the shader reads its uniforms.
    pub mode: ShaderMode,
    /// `GX2UniformBlock`s.
    pub uniform_blocks: Array<UniformBlock<'a>>,
    /// `GX2UniformVar`s.
    pub uniform_vars: Array<UniformVar<'a>>,
    /// `GX2UniformInitialValue`s.
    pub initial_values: Array<InitialValue>,
    /// `GX2LoopVar`s.
    pub loop_vars: Array<LoopVar>,
    /// `GX2SamplerVar`s.
    pub sampler_vars: Array<SamplerVar<'a>>,
    /// Vertex: `GX2AttribVar`s (empty for the other kinds).
    pub attrib_vars: Array<AttribVar<'a>>,
    /// Vertex: the size of one item of the ES→GS ring (when it feeds a geometry shader);
    /// geometry: of the GS→VS ring. 0 for a pixel shader.
    pub ring_item_size: u32,
    /// Vertex and geometry: whether it writes stream-out buffers (a BOOL as stored).
    pub has_stream_out: u32,
    /// Vertex and geometry: the stride of each stream-out buffer.
    pub stream_out_stride: [u32; 4],
    /// The program's GX2R buffer (absent from a version-0 GFD pixel shader header).
    pub gx2r: Option<RBuffer>,
    /// Geometry: the copy program's GX2R buffer, when the struct has it.
    pub copy_gx2r: Option<RBuffer>,
}

/// Reads the words of a struct in `data`, whose first byte is at absolute `base`.
struct Ctx<'a> {
    r: Reader<'a>,
    kind: Kind,
    pointers: PointerKind,
    /// The terminating NUL of every string found so far: start → NUL, for ranges of the data
    /// already scanned, so that names pointing into one long string cost one scan in all.
    nuls: std::cell::RefCell<std::collections::BTreeMap<usize, usize>>,
}

impl<'a> Ctx<'a> {
    fn what(&self, s: &str) -> Cow<'static, str> {
        Cow::Owned(format!("{} shader {s}", self.kind.name()))
    }

    /// `e` with the shader kind put before the structure it names.
    fn named(&self, e: Error) -> Error {
        e.context(&format!("{} shader ", self.kind.name()))
    }

    /// The name a pointer `pointer`, stored at `at` (relative), leads to; `s` names the
    /// field in errors.
    fn name(&self, pointer: u32, at: usize, s: &'static str) -> Result<Name<'a>> {
        let Some(offset) = self.pointers.resolve(pointer) else { return Ok(Name { pointer, text: None }) };
        let len = self.r.data().len();
        if offset as usize >= len {
            let (base, field_at) = (self.r.base(), self.r.base() + at as u64);
            let e = Error::out_of_bounds(field_at, s, base + u64::from(offset), 1, base + len as u64);
            return Err(self.named(e));
        }
        let start = offset as usize;
        let Some(end) = self.nul_from(start) else {
            let e = Error::invalid(self.r.base() + start as u64, s, "string has no terminating NUL");
            return Err(self.named(e));
        };
        let bytes = self.r.data().get(start..end).unwrap_or(&[]);
        Ok(Name { pointer, text: Some(Cstr { bytes, offset: self.r.base() + start as u64 }) })
    }

    /// The position of the first NUL at or after `start`: scans only what no earlier search
    /// scanned (a range whose NUL is known ends a scan early).
    fn nul_from(&self, start: usize) -> Option<usize> {
        let mut nuls = self.nuls.borrow_mut();
        // A known range that holds `start`.
        if let Some((_, &nul)) = nuls.range(..=start).next_back().filter(|(_, n)| **n >= start) {
            return Some(nul);
        }
        let next = nuls.range(start..).next().map(|(&s, &n)| (s, n));
        let data = self.r.data();
        let limit = next.map(|(s, _)| s).unwrap_or(data.len());
        let nul = match memchr::memchr(0, data.get(start..limit).unwrap_or(&[])) {
            Some(k) => start + k,
            None => next?.1,
        };
        nuls.insert(start, nul);
        Some(nul)
    }

    /// The array whose (count, pointer) pair, stored at `at` (relative), is `pair`: its
    /// entries, each a `R` read in place and made into a `T` by `read` from the entry, its
    /// relative and its absolute offset.
    fn array<R, T>(
        &self,
        at: usize,
        (count, pointer): (u32, u32),
        s: &'static str,
        read: impl Fn(&Self, &R, usize, u64) -> Result<T>,
    ) -> Result<Array<T>>
    where
        R: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        if count == 0 {
            return Ok(Array { count, pointer, at: None, items: Vec::new() });
        }
        let field_at = self.r.base() + at as u64;
        let Some(offset) = self.pointers.resolve(pointer) else {
            return Err(Error::invalid(
                field_at + 4,
                self.what(s),
                format!("{count} entries but no pointer"),
            ));
        };
        let entry = size_of::<R>();
        let len = u64::from(count)
            .checked_mul(entry as u64)
            .ok_or_else(|| Error::overflow(field_at, self.what(s)))?;
        // Checked against the bytes there are before anything is allocated.
        let sub = self.r.sub(u64::from(offset), len, self.what(s), field_at + 4)?;
        let entries = <[R]>::ref_from_bytes(sub.data())
            .map_err(|_| Error::invalid(sub.base(), self.what(s), "layout"))?;
        let (base, first) = (sub.base(), offset as usize);
        let mut items = Vec::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            items.push(read(self, e, first + i * entry, base + (i * entry) as u64)?);
        }
        Ok(Array { count, pointer, at: Some(base), items })
    }
}

/// The words of the struct `S` at the start of `data`, in `order`; bytes past the end of
/// `data` read as 0 (a struct that lacks its last GX2R buffer).
fn fields_of<S: raw::ShaderStruct<Endian> + KnownLayout>(data: &[u8], order: Endian) -> raw::Fields {
    match S::ref_from_prefix(data) {
        Ok((s, _)) => s.fields(order),
        Err(_) => {
            let mut s = S::new_zeroed();
            let n = data.len().min(size_of::<S>());
            if let (Some(dst), Some(src)) = (s.as_mut_bytes().get_mut(..n), data.get(..n)) {
                dst.copy_from_slice(src);
            }
            s.fields(order)
        }
    }
}

impl Shader<'static> {
    /// A struct of `kind` with every word 0 and no symbols (pointers stored as `pointers`),
    /// for building a shader in code.
    pub fn empty(kind: Kind, pointers: PointerKind) -> Self {
        let l = kind.layout();
        Shader {
            kind,
            pointers,
            at: 0,
            len: l.size_of as u32,
            regs: vec![0; regs::words(l.regs)],
            size: 0,
            program: 0,
            copy_size: 0,
            copy_program: 0,
            mode: ShaderMode(0),
            uniform_blocks: Array::default(),
            uniform_vars: Array::default(),
            initial_values: Array::default(),
            loop_vars: Array::default(),
            sampler_vars: Array::default(),
            attrib_vars: Array::default(),
            ring_item_size: 0,
            has_stream_out: 0,
            stream_out_stride: [0; 4],
            gx2r: Some(RBuffer::default()),
            copy_gx2r: l.copy_gx2r.map(|_| RBuffer::default()),
        }
    }
}

impl<'a> Shader<'a> {
    /// Read a struct of `kind` at the start of `data` (the bytes its pointers are relative to:
    /// a GFD block's data, or a SHARCFB shader's data), whose first byte is at absolute offset
    /// `base`, with integers in byte order `order` and pointers stored as `pointers` says.
    /// Every array and name is read; a pointer outside `data`, a count larger than the bytes
    /// there are, or a name without its NUL is an error at the absolute offset of the field.
    pub fn read(kind: Kind, data: &'a [u8], base: u64, order: Endian, pointers: PointerKind) -> Result<Self> {
        Self::read_sized(kind, data, base, order, pointers, true)
    }

    /// [`Shader::read`] of a struct that may lack its last GX2R buffer: a GFD pixel shader
    /// header of block version 0 (`with_gx2r` false: 0xD8 bytes), or a geometry shader whose
    /// copy program's buffer is absent (wut's 0xB0-byte layout; decaf's is 0xC0), which is
    /// told by where the struct's first array starts.
    pub fn read_sized(
        kind: Kind,
        data: &'a [u8],
        base: u64,
        order: Endian,
        pointers: PointerKind,
        with_gx2r: bool,
    ) -> Result<Self> {
        let l = kind.layout();
        let c = Ctx { r: Reader::with_base(data, base, order), kind, pointers, nuls: Default::default() };
        // The whole fixed part must be there (the last GX2R buffer is looked at below).
        let fixed = l.copy_gx2r.unwrap_or(l.gx2r);
        let need = if with_gx2r && l.copy_gx2r.is_none() { l.size_of } else { fixed };
        c.r.bytes_at(0, need, c.what("struct"))?;
        let f = match kind {
            Kind::Vertex => fields_of::<raw::GX2VertexShader<Endian>>(data, order),
            Kind::Pixel => fields_of::<raw::GX2PixelShader<Endian>>(data, order),
            Kind::Geometry => fields_of::<raw::GX2GeometryShader<Endian>>(data, order),
        };
        let (size, program, copy_size, copy_program) = (f.size, f.program, f.copy_size, f.copy_program);
        let mode = ShaderMode(f.mode);
        let [ub, uv, iv, lv, sv, av] = f.arrays;
        let a = l.arrays;
        let uniform_blocks =
            c.array(a, ub, ARRAY_NAMES[0], |c, e: &raw::GX2UniformBlock<Endian>, rel, at| {
                Ok(UniformBlock {
                    at,
                    name: c.name(e.name.get_in(order), rel, "uniform block name")?,
                    offset: e.offset.get_in(order),
                    size: e.size.get_in(order),
                })
            })?;
        let uniform_vars =
            c.array(a + 8, uv, ARRAY_NAMES[1], |c, e: &raw::GX2UniformVar<Endian>, rel, at| {
                Ok(UniformVar {
                    at,
                    name: c.name(e.name.get_in(order), rel, "uniform var name")?,
                    ty: VarType(e.r#type.get_in(order)),
                    count: e.count.get_in(order),
                    offset: e.offset.get_in(order),
                    block: e.block.get_in(order),
                })
            })?;
        let initial_values =
            c.array(a + 16, iv, ARRAY_NAMES[2], |_, e: &raw::GX2UniformInitialValue<Endian>, _, at| {
                Ok(InitialValue {
                    at,
                    value: e.value.map(|v| v.get_in(order)),
                    offset: e.offset.get_in(order),
                })
            })?;
        let loop_vars = c.array(a + 24, lv, ARRAY_NAMES[3], |_, e: &raw::GX2LoopVar<Endian>, _, at| {
            Ok(LoopVar { at, offset: e.offset.get_in(order), value: e.value.get_in(order) })
        })?;
        let sampler_vars =
            c.array(a + 32, sv, ARRAY_NAMES[4], |c, e: &raw::GX2SamplerVar<Endian>, rel, at| {
                Ok(SamplerVar {
                    at,
                    name: c.name(e.name.get_in(order), rel, "sampler var name")?,
                    ty: SamplerType(e.r#type.get_in(order)),
                    location: e.location.get_in(order),
                })
            })?;
        let attrib_vars = match l.attribs {
            Some(at) => c.array(at, av, "attrib vars", |c, e: &raw::GX2AttribVar<Endian>, rel, at| {
                Ok(AttribVar {
                    at,
                    name: c.name(e.name.get_in(order), rel, "attrib var name")?,
                    ty: VarType(e.r#type.get_in(order)),
                    count: e.count.get_in(order),
                    location: e.location.get_in(order),
                })
            })?,
            None => Array::default(),
        };
        let (ring_item_size, has_stream_out, stream_out_stride) =
            (f.ring_item_size, f.has_stream_out, f.stream_out_stride);
        let mut len = l.size_of;
        let gx2r = if l.copy_gx2r.is_none() && !with_gx2r {
            len = l.gx2r;
            None
        } else {
            Some(f.gx2r)
        };
        let copy_gx2r = match l.copy_gx2r {
            Some(at) => {
                // decaf's struct has it, wut's ends before it: it is there when the bytes are
                // and nothing the struct points at starts inside it.
                let first = [
                    &uniform_blocks.at,
                    &uniform_vars.at,
                    &initial_values.at,
                    &loop_vars.at,
                    &sampler_vars.at,
                ]
                .iter()
                .filter_map(|x| x.map(|x| x - base))
                .chain([program, copy_program].iter().filter_map(|p| pointers.resolve(*p).map(u64::from)))
                .min();
                let fits = data.len() >= l.size_of && first.is_none_or(|f| f >= l.size_of as u64);
                if fits && with_gx2r {
                    Some(f.copy_gx2r)
                } else {
                    len = at;
                    None
                }
            }
            None => None,
        };
        Ok(Shader {
            kind,
            pointers,
            at: base,
            len: len as u32,
            regs: f.regs,
            size,
            program,
            copy_size,
            copy_program,
            mode,
            uniform_blocks,
            uniform_vars,
            initial_values,
            loop_vars,
            sampler_vars,
            attrib_vars,
            ring_item_size,
            has_stream_out,
            stream_out_stride,
            gx2r,
            copy_gx2r,
        })
    }

    /// The pipeline stage.
    pub fn stage(&self) -> Stage {
        self.kind.stage()
    }

    /// Where the fields of this kind of struct sit.
    pub fn layout(&self) -> &'static Layout {
        self.kind.layout()
    }

    /// The register (or count) word named `name` (`SQ_PGM_RESOURCES_VS`,
    /// `num_spi_vs_out_id`; the first of a table).
    pub fn reg(&self, name: &str) -> Option<u32> {
        regs::index_of(self.layout().regs, name).and_then(|i| self.regs.get(i)).copied()
    }

    /// Entry `i` of the register table named `name` (`SQ_VTX_SEMANTIC`, 3).
    pub fn reg_at(&self, name: &str, i: usize) -> Option<u32> {
        let slot = self.layout().regs.iter().position(|s| s.name == name)?;
        let s = self.layout().regs.get(slot)?;
        if i >= s.count {
            return None;
        }
        self.regs.get(regs::word_index(self.layout().regs, slot) + i).copied()
    }

    /// Field `field` of the register `name` (`SPI_VS_OUT_CONFIG`, `VS_EXPORT_COUNT`).
    pub fn reg_field(&self, name: &str, field: &str) -> Option<u32> {
        let slot = self.layout().regs.iter().find(|s| s.name == name)?;
        let f = slot.def?.field(field)?;
        self.reg(name).map(|w| f.field.get(w))
    }

    /// Every word of the `regs` block with its name and decoded fields.
    pub fn registers(&self) -> impl Iterator<Item = regs::Word> + '_ {
        regs::each(self.layout().regs, &self.regs)
    }

    /// The five symbol arrays' counts (uniform blocks, uniform vars, initial values, loop vars,
    /// sampler vars), and (vertex) the attrib vars'.
    pub fn counts(&self) -> [u32; 6] {
        [
            self.uniform_blocks.count,
            self.uniform_vars.count,
            self.initial_values.count,
            self.loop_vars.count,
            self.sampler_vars.count,
            self.attrib_vars.count,
        ]
    }

    /// The line decaf-emu's listing tool prints before each shader (the reference listings of
    /// the corpus): `VS mode=1 ubs=1 uvs=1 ivs=0 loops=0 samplers=0 attribs=2 ring=0`,
    /// `PS mode=1 ubs=1 uvs=2 samplers=2`; for a geometry shader (which that tool never
    /// printed) the vertex shader's fields without `attribs`:
    /// `GS mode=2 ubs=0 uvs=0 ivs=0 loops=0 samplers=0 ring=4`.
    pub fn summary(&self) -> String {
        let [ubs, uvs, ivs, loops, samplers, attribs] = self.counts();
        let mode = self.mode.0;
        match self.kind {
            Kind::Vertex => format!(
                "VS mode={mode} ubs={ubs} uvs={uvs} ivs={ivs} loops={loops} samplers={samplers} attribs={attribs} ring={}",
                self.ring_item_size
            ),
            Kind::Pixel => format!("PS mode={mode} ubs={ubs} uvs={uvs} samplers={samplers}"),
            Kind::Geometry => format!(
                "GS mode={mode} ubs={ubs} uvs={uvs} ivs={ivs} loops={loops} samplers={samplers} ring={}",
                self.ring_item_size
            ),
        }
    }

    /// The microcode's offset in the data the struct sits in, when its pointer is set
    /// (SHARCFB; GFD keeps the microcode in a block of its own).
    pub fn program_offset(&self) -> Option<u32> {
        self.pointers.resolve(self.program)
    }

    /// Geometry: the copy program's offset, when its pointer is set.
    pub fn copy_program_offset(&self) -> Option<u32> {
        self.pointers.resolve(self.copy_program)
    }

    /// Every pointer field of the struct and its arrays: the field's absolute offset, the
    /// pointer as stored, and whether it leads to text (a name). For a container to check them
    /// against its relocations.
    pub fn pointer_fields(&self) -> Vec<(u64, u32, bool)> {
        let l = self.layout();
        let mut v = vec![(self.at + l.size as u64 + 4, self.program, false)];
        if let Some(c) = l.copy {
            v.push((self.at + c as u64 + 4, self.copy_program, false));
        }
        let pairs = [
            self.uniform_blocks.pointer,
            self.uniform_vars.pointer,
            self.initial_values.pointer,
            self.loop_vars.pointer,
            self.sampler_vars.pointer,
        ];
        for (k, p) in pairs.iter().enumerate() {
            v.push((self.at + (l.arrays + 8 * k + 4) as u64, *p, false));
        }
        if let Some(a) = l.attribs {
            v.push((self.at + a as u64 + 4, self.attrib_vars.pointer, false));
        }
        v.extend(self.uniform_blocks.items.iter().map(|x| (x.at, x.name.pointer, true)));
        v.extend(self.uniform_vars.items.iter().map(|x| (x.at, x.name.pointer, true)));
        v.extend(self.sampler_vars.items.iter().map(|x| (x.at, x.name.pointer, true)));
        v.extend(self.attrib_vars.items.iter().map(|x| (x.at, x.name.pointer, true)));
        v
    }

    /// Write the struct, its arrays and its names into `p` at their absolute offsets minus
    /// `origin` (the absolute offset of the placement's first byte), integers in `order`
    /// (the placement's). Bytes between them are the placement's filler.
    pub fn place(&self, p: &mut Placement, origin: u64) {
        let pos = |abs: u64| abs.saturating_sub(origin) as usize;
        let o = p.endian();
        let w = |v: u32| U32::new_in(o, v);
        // The struct as far as it reaches (without a GX2R buffer it lacks).
        let put = |p: &mut Placement, at: u64, bytes: &[u8]| {
            p.put_at(pos(at), bytes.get(..self.len as usize).unwrap_or(bytes));
        };
        match self.kind {
            Kind::Vertex => put(p, self.at, raw::GX2VertexShader::of(o, self).as_bytes()),
            Kind::Pixel => put(p, self.at, raw::GX2PixelShader::of(o, self).as_bytes()),
            Kind::Geometry => put(p, self.at, raw::GX2GeometryShader::of(o, self).as_bytes()),
        }
        let name = |p: &mut Placement, n: &Name<'_>| {
            if let Some(t) = n.text {
                let o = pos(t.offset);
                p.put_at(o, t.bytes);
                p.put_at(o + t.bytes.len(), &[0]);
            }
        };
        for x in &self.uniform_blocks.items {
            let e = raw::GX2UniformBlock { name: w(x.name.pointer), offset: w(x.offset), size: w(x.size) };
            p.put_at(pos(x.at), e.as_bytes());
            name(p, &x.name);
        }
        for x in &self.uniform_vars.items {
            let e = raw::GX2UniformVar {
                name: w(x.name.pointer),
                r#type: w(x.ty.0),
                count: w(x.count),
                offset: w(x.offset),
                block: I32::new_in(o, x.block),
            };
            p.put_at(pos(x.at), e.as_bytes());
            name(p, &x.name);
        }
        for x in &self.initial_values.items {
            let e = raw::GX2UniformInitialValue { value: x.value.map(w), offset: w(x.offset) };
            p.put_at(pos(x.at), e.as_bytes());
        }
        for x in &self.loop_vars.items {
            p.put_at(pos(x.at), raw::GX2LoopVar { offset: w(x.offset), value: w(x.value) }.as_bytes());
        }
        for x in &self.sampler_vars.items {
            let e =
                raw::GX2SamplerVar { name: w(x.name.pointer), r#type: w(x.ty.0), location: w(x.location) };
            p.put_at(pos(x.at), e.as_bytes());
            name(p, &x.name);
        }
        for x in &self.attrib_vars.items {
            let e = raw::GX2AttribVar {
                name: w(x.name.pointer),
                r#type: w(x.ty.0),
                count: w(x.count),
                location: w(x.location),
            };
            p.put_at(pos(x.at), e.as_bytes());
            name(p, &x.name);
        }
    }

    /// The end (absolute) of the furthest byte the struct, its arrays and names cover.
    pub fn end(&self) -> u64 {
        let mut end = self.at + u64::from(self.len);
        let mut see = |at: Option<u64>, n: usize, entry: u64| {
            if let Some(a) = at {
                end = end.max(a + n as u64 * entry);
            }
        };
        let [ub, uv, iv, lv, sv, av] = raw::ENTRY_SIZES.map(|n| n as u64);
        see(self.uniform_blocks.at, self.uniform_blocks.items.len(), ub);
        see(self.uniform_vars.at, self.uniform_vars.items.len(), uv);
        see(self.initial_values.at, self.initial_values.items.len(), iv);
        see(self.loop_vars.at, self.loop_vars.items.len(), lv);
        see(self.sampler_vars.at, self.sampler_vars.items.len(), sv);
        see(self.attrib_vars.at, self.attrib_vars.items.len(), av);
        for n in self.names() {
            if let Some(t) = n.text {
                end = end.max(t.offset + t.bytes.len() as u64 + 1);
            }
        }
        end
    }

    /// The same shader laid out afresh at absolute offset `at` with pointers stored as
    /// `pointers` (relative to `at`): the struct (with every GX2R buffer), then each non-empty
    /// array in struct order, then the names, each NUL-terminated and padded to 4 bytes, as
    /// decaf-emu's GFD writer lays them out. The program pointers become 0 (a GFD keeps the
    /// microcode in blocks of its own); `size` and `copy_size` are kept.
    pub fn lay_out(&self, at: u64, pointers: PointerKind) -> Laid<'a> {
        let mut s = self.clone();
        s.at = at;
        s.pointers = pointers;
        s.program = 0;
        s.copy_program = 0;
        let l = self.layout();
        s.len = l.size_of as u32;
        if s.gx2r.is_none() {
            s.gx2r = Some(RBuffer::default());
        }
        if l.copy_gx2r.is_some() && s.copy_gx2r.is_none() {
            s.copy_gx2r = Some(RBuffer::default());
        }
        let mut next = at + l.size_of as u64;
        let mut data_fields = Vec::new();
        let rel = |abs: u64| (abs - at) as u32;
        // Arrays, in struct order (the attrib vars last).
        macro_rules! place_array {
            ($arr:expr, $entry:expr, $field:expr) => {{
                let arr = &mut $arr;
                if arr.items.is_empty() {
                    arr.count = 0;
                    arr.pointer = 0;
                    arr.at = None;
                } else {
                    arr.count = arr.items.len() as u32;
                    arr.at = Some(next);
                    arr.pointer = pointers.encode(rel(next), false);
                    data_fields.push(at + $field as u64 + 4);
                    for item in arr.items.iter_mut() {
                        item.at = next;
                        next += $entry;
                    }
                }
            }};
        }
        let [ub, uv, iv, lv, sv, av] = raw::ENTRY_SIZES.map(|n| n as u64);
        place_array!(s.uniform_blocks, ub, l.arrays);
        place_array!(s.uniform_vars, uv, l.arrays + 8);
        place_array!(s.initial_values, iv, l.arrays + 16);
        place_array!(s.loop_vars, lv, l.arrays + 24);
        place_array!(s.sampler_vars, sv, l.arrays + 32);
        if let Some(a) = l.attribs {
            place_array!(s.attrib_vars, av, a);
        }
        // Names, in the order of the entries that hold them.
        let text_start = next;
        let mut text_fields = Vec::new();
        let mut name = |n: &mut Name<'a>, field: u64| {
            if let Some(t) = &mut n.text {
                t.offset = next;
                n.pointer = pointers.encode(rel(next), true);
                text_fields.push(field);
                next += (t.bytes.len() as u64 + 1).next_multiple_of(4);
            } else {
                n.pointer = 0;
            }
        };
        for x in &mut s.uniform_blocks.items {
            name(&mut x.name, x.at);
        }
        for x in &mut s.uniform_vars.items {
            name(&mut x.name, x.at);
        }
        for x in &mut s.sampler_vars.items {
            name(&mut x.name, x.at);
        }
        for x in &mut s.attrib_vars.items {
            name(&mut x.name, x.at);
        }
        Laid { shader: s, text: text_start..next, data_fields, text_fields }
    }

    /// Every name of the struct's arrays, in struct order.
    pub fn names(&self) -> impl Iterator<Item = &Name<'a>> + '_ {
        self.uniform_blocks
            .items
            .iter()
            .map(|x| &x.name)
            .chain(self.uniform_vars.items.iter().map(|x| &x.name))
            .chain(self.sampler_vars.items.iter().map(|x| &x.name))
            .chain(self.attrib_vars.items.iter().map(|x| &x.name))
    }
}

/// A shader laid out afresh by [`Shader::lay_out`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Laid<'a> {
    /// The shader at its new offsets, pointers and names (write it with [`Shader::place`]).
    pub shader: Shader<'a>,
    /// The names' range (absolute); the struct and arrays end where it starts, and the
    /// whole layout ends where it ends.
    pub text: std::ops::Range<u64>,
    /// Absolute offsets of the pointer fields that lead to arrays, in struct order.
    pub data_fields: Vec<u64>,
    /// Absolute offsets of the pointer fields that lead to names, in order.
    pub text_fields: Vec<u64>,
}

#[cfg(test)]
mod tests;
