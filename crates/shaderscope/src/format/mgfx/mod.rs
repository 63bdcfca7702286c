//! MonoGame compiled effects (MGFX, `.mgfxo`): what MonoGame's effect compiler (2MGFX,
//! mgfxc, the content pipeline's EffectProcessor) writes and its `Effect` class reads. Either
//! bare, or inside an XNB file of MonoGame's content pipeline (read by its `EffectReader`).
//!
//! ```text
//! "MGFX"  u8 version (7: MonoGame 3.4-3.6, 8: 3.7, 9: 3.8.0, 10: 3.8.1, 11: 3.8.5), u8 profile (0 OpenGL:
//!         GLSL text shaders, 1 DirectX_11: DXBC shaders, 2 DirectX_12: DXBC containers of
//!         DXIL), i32 effect key (a hash: the runtime's cache key)
//! count x constant buffer   string name, i16 size, count x (parameter index, u16 offset)
//! count x shader            u8 is-vertex, (version 11: string source file, string entry
//!                           point), i32 length + code, u8 count x sampler, u8 count x
//!                           u8 cbuffer index, u8 count x attribute
//! count x parameter         u8 class, u8 type, string name, string semantic, annotations,
//!                           u8 rows, u8 columns, elements, members (parameters, recursive),
//!                           values (rows x columns x 4 bytes of a leaf bool/int/float)
//! count x technique         string name, annotations, count x pass: string name,
//!                           annotations, vertex and pixel shader index, three optional state
//!                           blocks (blend, depth-stencil, rasterizer), each after a u8 flag
//! "MGFX"                    (versions 10 and 11)
//! ```
//!
//! Version 7's DirectX_11 effects have no constant buffer names, no sampler names and no
//! attribute lists ([`names`]; its OpenGL effects have them, as every later version does).
//! "count" and a parameter or shader index are a u8 in versions 7 to 9 (index 255: none) and
//! an i32 from version 10 (index -1: none); the counts inside a shader stay u8. A string is a
//! .NET `BinaryWriter` string: a 7-bit encoded length, then UTF-8. Annotations are a count
//! that MonoGame writes as 0 and cannot read otherwise; a nonzero count is refused.
//!
//! An XNB wrapper: `XNB`, platform letter, u8 version 5, u8 flags (0x80/0x40: compressed,
//! refused), u32 file size, 7-bit reader count (1), the reader's name (`…EffectReader…`), i32
//! reader version, 7-bit shared resource count, 7-bit type index, i32 size + the MGFX bytes.
//!
//! One walk ([`Mgfx::parse`]) reads the model and, when asked, annotates every byte it reads
//! for `dump`, so a damaged file is annotated up to where it fails. Every count is checked
//! against the bytes left before its items are read, nesting is bounded, and
//! [`Container::write`](crate::Container::write) writes the model back byte for byte (a
//! string's length in as many bytes as it had, each flag byte as it was).
//!
//! ```
//! use shaderscope::format::mgfx::{Mgfx, Profile};
//! use shaderscope::Container;
//!
//! let bytes = shaderscope::format::mgfx::build::example();
//! let fx = Mgfx::parse(&bytes)?;
//! assert_eq!((fx.version, fx.profile()), (10, Some(Profile::DirectX11)));
//! assert_eq!(fx.techniques[0].passes[0].name.to_string(), "P0");
//! assert_eq!(fx.write()?, bytes);
//! assert!(fx.validate().is_empty());
//! assert_eq!(
//!     Mgfx::parse(&bytes[..7]).unwrap_err().to_string(),
//!     "truncated MGFX header at offset 0x0 (need 10 bytes, have 7)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

pub mod build;
mod container;
mod write;

#[cfg(test)]
mod tests;

use crate::dump::Annotations;
use crate::error::{Error, Result};
use std::borrow::Cow;
use std::fmt;

/// `MGFX`: the magic, and the tail of version 10.
pub(crate) const MAGIC: [u8; 4] = *b"MGFX";

/// Deepest nesting of parameters (elements and members) read: HLSL structs nest a few deep.
pub const MAX_DEPTH: usize = 32;

/// A MonoGame effect: the model of an MGFX file, bare or inside an XNB.
#[derive(Debug, Clone)]
pub struct Mgfx<'a> {
    /// The whole input.
    pub data: &'a [u8],
    /// The XNB file around the effect, when it is wrapped.
    pub xnb: Option<Xnb>,
    /// Absolute offset of the `MGFX` magic.
    pub at: u64,
    /// The MGFX version (7 to 11).
    pub version: u8,
    /// The raw profile byte ([`Mgfx::profile`]).
    pub profile: u8,
    /// The effect key MonoGame caches an effect by (a hash of its contents).
    pub key: u32,
    /// The constant buffers.
    pub constant_buffers: Vec<ConstantBuffer>,
    /// The shaders, in the order passes index them.
    pub shaders: Vec<Shader<'a>>,
    /// The parameters (the effect's uniforms, textures and samplers).
    pub parameters: Vec<Parameter>,
    /// The techniques.
    pub techniques: Vec<Technique>,
    /// Bytes after the effect (after its `MGFX` tail in version 10) up to the end of the MGFX
    /// range: kept, reported by `validate`.
    pub trailing: Cow<'a, [u8]>,
}

/// Where the shaders' code comes from: which graphics API the effect was compiled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// 0: OpenGL; the shaders are GLSL source text (from MojoShader).
    OpenGl,
    /// 1: Direct3D 11; the shaders are DXBC containers.
    DirectX11,
    /// 2: Direct3D 12 (MonoGame 3.8.5); the shaders are DXBC containers of DXIL (shader
    /// model 6).
    DirectX12,
}

impl Profile {
    /// The profile of a profile byte.
    pub fn from_byte(b: u8) -> Option<Profile> {
        match b {
            0 => Some(Profile::OpenGl),
            1 => Some(Profile::DirectX11),
            2 => Some(Profile::DirectX12),
            _ => None,
        }
    }
    /// Its profile byte.
    pub fn byte(self) -> u8 {
        match self {
            Profile::OpenGl => 0,
            Profile::DirectX11 => 1,
            Profile::DirectX12 => 2,
        }
    }
    /// MonoGame's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Profile::OpenGl => "OpenGL",
            Profile::DirectX11 => "DirectX_11",
            Profile::DirectX12 => "DirectX_12",
        }
    }
}

pub use crate::format::xnb::{Seven, Str, Xnb};

/// A constant buffer: which parameters live in it, where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantBuffer {
    /// Absolute offset of its name.
    pub at: u64,
    /// Its name (`$Globals`, or the HLSL cbuffer's).
    pub name: Str,
    /// Its size in bytes.
    pub size: i16,
    /// (parameter index, byte offset in the buffer) of each parameter in it.
    pub parameters: Vec<(i32, u16)>,
}

/// A shader: its stage, its code (DXBC or GLSL text, by profile) and what it binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shader<'a> {
    /// Absolute offset of its first byte (the stage flag).
    pub at: u64,
    /// The stage flag: nonzero for a vertex shader, 0 for a pixel shader.
    pub is_vertex: u8,
    /// The source file and the entry point it was compiled from (version 11 on: MonoGame's
    /// runtime names them in its shader errors; `<unknown>` when the compiler did not know).
    pub origin: Option<(Str, Str)>,
    /// Absolute offset of the code.
    pub code_at: u64,
    /// The code: a DXBC container (DirectX_11) or GLSL text (OpenGL).
    pub code: Cow<'a, [u8]>,
    /// The samplers it uses.
    pub samplers: Vec<Sampler>,
    /// Indices of the constant buffers it uses.
    pub cbuffers: Vec<u8>,
    /// Its vertex attributes (OpenGL vertex shaders).
    pub attributes: Vec<Attribute>,
}

impl Shader<'_> {
    /// `vertex` or `pixel`.
    pub fn stage_name(&self) -> &'static str {
        if self.is_vertex != 0 { "vertex" } else { "pixel" }
    }
    /// Whether the code is a DXBC container.
    pub fn is_dxbc(&self) -> bool {
        self.code.starts_with(b"DXBC")
    }
}

/// A sampler a shader uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sampler {
    /// Texture type: 0 2D, 1 Cube, 2 Volume, 3 1D.
    pub ty: u8,
    /// Texture slot.
    pub texture_slot: u8,
    /// Sampler slot.
    pub sampler_slot: u8,
    /// The sampler state set in the effect, after its flag.
    pub state: Option<StateBlock>,
    /// The sampler's name in the shader.
    pub name: Str,
    /// Index of the texture parameter it samples.
    pub parameter: u8,
}

/// A vertex attribute of a shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    /// Its name in the shader.
    pub name: Str,
    /// Its `VertexElementUsage`.
    pub usage: u8,
    /// Its usage index.
    pub index: u8,
    /// Its location.
    pub location: i16,
}

/// A parameter: a uniform, a texture or a struct of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameter {
    /// Absolute offset of its first byte.
    pub at: u64,
    /// `EffectParameterClass`: 0 Scalar, 1 Vector, 2 Matrix, 3 Object, 4 Struct.
    pub class: u8,
    /// `EffectParameterType`: 0 Void, 1 Bool, 2 Int32, 3 Single, 4 String, 5 Texture,
    /// 6 Texture1D, 7 Texture2D, 8 Texture3D, 9 TextureCube.
    pub ty: u8,
    /// Its name.
    pub name: Str,
    /// Its semantic.
    pub semantic: Str,
    /// Rows.
    pub rows: u8,
    /// Columns.
    pub columns: u8,
    /// Its array elements.
    pub elements: Vec<Parameter>,
    /// Its struct members.
    pub members: Vec<Parameter>,
    /// The initial values of a leaf bool, int or float (rows x columns 32-bit words).
    pub values: Vec<u32>,
}

impl Parameter {
    /// Whether a parameter of this shape carries values: a leaf bool, int or float.
    fn has_values(&self) -> bool {
        self.elements.is_empty() && self.members.is_empty() && matches!(self.ty, 1..=3)
    }
    /// `EffectParameterClass` name.
    pub fn class_name(&self) -> Option<&'static str> {
        CLASS_NAMES.get(usize::from(self.class)).copied()
    }
    /// `EffectParameterType` name.
    pub fn type_name(&self) -> Option<&'static str> {
        TYPE_NAMES.get(usize::from(self.ty)).copied()
    }
}

/// MonoGame's `EffectParameterClass` values.
const CLASS_NAMES: &[&str] = &["Scalar", "Vector", "Matrix", "Object", "Struct"];

/// MonoGame's `EffectParameterType` values.
const TYPE_NAMES: &[&str] = &[
    "Void",
    "Bool",
    "Int32",
    "Single",
    "String",
    "Texture",
    "Texture1D",
    "Texture2D",
    "Texture3D",
    "TextureCube",
];

/// A technique: a named list of passes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Technique {
    /// Absolute offset of its name.
    pub at: u64,
    /// Its name.
    pub name: Str,
    /// Its passes.
    pub passes: Vec<Pass>,
}

/// A pass: the shaders it binds and the render states it sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pass {
    /// Absolute offset of its name.
    pub at: u64,
    /// Its name.
    pub name: Str,
    /// Absolute offset of its vertex shader index.
    pub index_at: u64,
    /// The vertex shader index as stored (255 in versions 8/9, -1 in 10: none).
    pub vertex_shader: i32,
    /// The pixel shader index as stored.
    pub pixel_shader: i32,
    /// The blend state, after its flag.
    pub blend: Option<StateBlock>,
    /// The depth-stencil state, after its flag.
    pub depth_stencil: Option<StateBlock>,
    /// The rasterizer state, after its flag.
    pub rasterizer: Option<StateBlock>,
}

/// Whether a file of `version` and `profile` names its constant buffers and samplers and lists
/// each shader's attributes: all but version 7's DirectX_11 ones (version 7 wrote them for
/// OpenGL alone).
pub fn names(version: u8, profile: u8) -> bool {
    version >= 8 || profile == 0
}

/// A shader index as stored in a file of `version`: `None` for "no shader".
pub fn shader_index(version: u8, raw: i32) -> Option<u32> {
    match (version >= 10, raw) {
        (false, 255) | (true, -1) => None,
        (_, v) => u32::try_from(v).ok(),
    }
}

/// A render state block: its fields, a fixed list per kind ([`StateKind::fields`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateBlock {
    /// Which state.
    pub kind: StateKind,
    /// The flag byte before it (nonzero: present; kept as it was).
    pub flag: u8,
    /// The fields' bytes, as [`StateKind::fields`] lays them out.
    pub bytes: Vec<u8>,
}

/// The kinds of state block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateKind {
    /// `BlendState`.
    Blend,
    /// `DepthStencilState`.
    DepthStencil,
    /// `RasterizerState`.
    Rasterizer,
    /// `SamplerState`.
    Sampler,
}

/// How a state field is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// A byte (an enum value).
    U8,
    /// A .NET boolean byte.
    Bool,
    /// A little-endian i32.
    I32,
    /// A little-endian f32.
    F32,
}

impl FieldType {
    /// Bytes it takes.
    pub fn size(self) -> usize {
        match self {
            FieldType::U8 | FieldType::Bool => 1,
            FieldType::I32 | FieldType::F32 => 4,
        }
    }
}

use FieldType::{Bool, F32, I32, U8};

const BLEND: &[(&str, FieldType)] = &[
    ("AlphaBlendFunction", U8),
    ("AlphaDestinationBlend", U8),
    ("AlphaSourceBlend", U8),
    ("BlendFactor.R", U8),
    ("BlendFactor.G", U8),
    ("BlendFactor.B", U8),
    ("BlendFactor.A", U8),
    ("ColorBlendFunction", U8),
    ("ColorDestinationBlend", U8),
    ("ColorSourceBlend", U8),
    ("ColorWriteChannels", U8),
    ("ColorWriteChannels1", U8),
    ("ColorWriteChannels2", U8),
    ("ColorWriteChannels3", U8),
    ("MultiSampleMask", I32),
];

const DEPTH_STENCIL: &[(&str, FieldType)] = &[
    ("CounterClockwiseStencilDepthBufferFail", U8),
    ("CounterClockwiseStencilFail", U8),
    ("CounterClockwiseStencilFunction", U8),
    ("CounterClockwiseStencilPass", U8),
    ("DepthBufferEnable", Bool),
    ("DepthBufferFunction", U8),
    ("DepthBufferWriteEnable", Bool),
    ("ReferenceStencil", I32),
    ("StencilDepthBufferFail", U8),
    ("StencilEnable", Bool),
    ("StencilFail", U8),
    ("StencilFunction", U8),
    ("StencilMask", I32),
    ("StencilPass", U8),
    ("StencilWriteMask", I32),
    ("TwoSidedStencilMode", Bool),
];

const RASTERIZER: &[(&str, FieldType)] = &[
    ("CullMode", U8),
    ("DepthBias", F32),
    ("FillMode", U8),
    ("MultiSampleAntiAlias", Bool),
    ("ScissorTestEnable", Bool),
    ("SlopeScaleDepthBias", F32),
];

const SAMPLER: &[(&str, FieldType)] = &[
    ("AddressU", U8),
    ("AddressV", U8),
    ("AddressW", U8),
    ("BorderColor.R", U8),
    ("BorderColor.G", U8),
    ("BorderColor.B", U8),
    ("BorderColor.A", U8),
    ("Filter", U8),
    ("MaxAnisotropy", I32),
    ("MaxMipLevel", I32),
    ("MipMapLevelOfDetailBias", F32),
];

impl StateKind {
    /// Its fields, in file order, with MonoGame's property names.
    pub fn fields(self) -> &'static [(&'static str, FieldType)] {
        match self {
            StateKind::Blend => BLEND,
            StateKind::DepthStencil => DEPTH_STENCIL,
            StateKind::Rasterizer => RASTERIZER,
            StateKind::Sampler => SAMPLER,
        }
    }
    /// Bytes a block takes after its flag.
    pub fn size(self) -> usize {
        self.fields().iter().map(|(_, t)| t.size()).sum()
    }
    /// `blend`, `depth-stencil`, `rasterizer`, `sampler`.
    pub fn name(self) -> &'static str {
        match self {
            StateKind::Blend => "blend",
            StateKind::DepthStencil => "depth-stencil",
            StateKind::Rasterizer => "rasterizer",
            StateKind::Sampler => "sampler",
        }
    }
}

impl StateBlock {
    /// A present block of `kind` with the given bytes (zero-padded or cut to its size).
    pub fn new(kind: StateKind, mut bytes: Vec<u8>) -> StateBlock {
        bytes.resize(kind.size(), 0);
        StateBlock { kind, flag: 1, bytes }
    }
    /// Each field: (name, offset in the block, type, value as text).
    pub fn fields(&self) -> Vec<(&'static str, usize, FieldType, String)> {
        let mut at = 0;
        let mut out = Vec::new();
        for &(name, t) in self.kind.fields() {
            let b = self.bytes.get(at..at + t.size()).unwrap_or(&[]);
            let word = |b: &[u8]| <[u8; 4]>::try_from(b).map(u32::from_le_bytes).unwrap_or(0);
            let text = match t {
                U8 | Bool => b.first().map(|v| v.to_string()).unwrap_or_default(),
                I32 => (word(b) as i32).to_string(),
                F32 => crate::print::float::f32_shortest_text(word(b)).as_str().to_string(),
            };
            out.push((name, at, t, text));
            at += t.size();
        }
        out
    }
}

/// The walk over the bytes: positions are absolute, reads stop at `end`, and every value read
/// is annotated when `ann` is given.
pub(crate) struct Cursor<'a, 'n> {
    data: &'a [u8],
    pos: usize,
    end: usize,
    ann: Option<&'n mut Annotations>,
}

impl<'a> Cursor<'a, '_> {
    fn left(&self) -> usize {
        self.end.saturating_sub(self.pos)
    }

    fn bytes(&mut self, n: usize, what: impl Into<Cow<'static, str>>) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|e| *e <= self.end);
        match end.and_then(|e| self.data.get(self.pos..e)) {
            Some(b) => {
                self.pos += n;
                Ok(b)
            }
            None => Err(Error::truncated(self.pos as u64, what, n as u64, self.left() as u64)),
        }
    }

    fn array<const N: usize>(&mut self, what: impl Into<Cow<'static, str>>) -> Result<[u8; N]> {
        let b = self.bytes(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    fn byte(&mut self, what: impl Into<Cow<'static, str>>) -> Result<u8> {
        let [b] = self.array::<1>(what)?;
        Ok(b)
    }

    fn note(&mut self, start: usize, text: impl fmt::Display) {
        if let Some(a) = self.ann.as_deref_mut() {
            a.field(start as u64, (self.pos - start) as u64, text);
        }
    }

    fn section(&mut self, start: usize, len: usize, text: impl fmt::Display) {
        if let Some(a) = self.ann.as_deref_mut() {
            a.section(start as u64, len as u64, text);
        }
    }

    fn annotating(&self) -> bool {
        self.ann.is_some()
    }

    fn u8(&mut self, what: &str, label: &str) -> Result<u8> {
        let at = self.pos;
        let v = self.byte(what.to_string())?;
        if self.annotating() {
            self.note(at, format_args!("{label}: {v}"));
        }
        Ok(v)
    }

    fn word(&mut self, what: &str) -> Result<[u8; 4]> {
        self.array(what.to_string())
    }

    /// A byte whose values have names (`class: 2 (Matrix)`).
    fn u8_named(&mut self, what: &str, label: &str, names: &[&str]) -> Result<u8> {
        let at = self.pos;
        let v = self.byte(what.to_string())?;
        if self.annotating() {
            match names.get(usize::from(v)) {
                Some(name) => self.note(at, format_args!("{label}: {v} ({name})")),
                None => self.note(at, format_args!("{label}: {v}")),
            }
        }
        Ok(v)
    }

    fn i32(&mut self, what: &str, label: &str) -> Result<i32> {
        let at = self.pos;
        let v = i32::from_le_bytes(self.word(what)?);
        if self.annotating() {
            self.note(at, format_args!("{label}: {v}"));
        }
        Ok(v)
    }

    fn i16(&mut self, what: &str, label: &str) -> Result<i16> {
        let at = self.pos;
        let v = i16::from_le_bytes(self.array(what.to_string())?);
        if self.annotating() {
            self.note(at, format_args!("{label}: {v}"));
        }
        Ok(v)
    }

    /// A .NET string: a 7-bit length, then the bytes.
    fn string(&mut self, what: &str, label: &str) -> Result<Str> {
        let at = self.pos;
        let s = Str::read(self.data.get(..self.end).unwrap_or(&[]), at, what)?;
        self.pos += s.size();
        if let Some(a) = self.ann.as_deref_mut() {
            let start = at + usize::from(s.prefix);
            a.field(at as u64, u64::from(s.prefix), format_args!("{label} length: {}", s.bytes.len()));
            if !s.bytes.is_empty() {
                a.field(
                    start as u64,
                    s.bytes.len() as u64,
                    format_args!("{label}: \"{}\"", s.to_string().escape_debug()),
                );
            }
        }
        Ok(s)
    }

    /// A count (u8 before version 10, i32 from it), checked against the bytes left given that
    /// each item takes at least `min` bytes.
    fn count(&mut self, wide: bool, min: usize, what: &str) -> Result<usize> {
        let at = self.pos;
        let n = if wide {
            let v = i32::from_le_bytes(self.word(what)?);
            usize::try_from(v).map_err(|_| {
                Error::invalid(at as u64, what.to_string(), format!("the count {v} is negative"))
            })?
        } else {
            usize::from(self.byte(what.to_string())?)
        };
        if n.saturating_mul(min) > self.left() {
            return Err(Error::invalid(
                at as u64,
                what.to_string(),
                format!(
                    "{n} items of at least {min} bytes each do not fit in the {} bytes left",
                    self.left()
                ),
            ));
        }
        if self.annotating() {
            self.note(at, format_args!("{what}: {n}"));
        }
        Ok(n)
    }

    /// A u8 or i32 index, by version.
    fn index(&mut self, wide: bool, what: &str, label: &str) -> Result<i32> {
        if wide { self.i32(what, label) } else { self.u8(what, label).map(i32::from) }
    }

    /// A state block after its flag.
    fn state(&mut self, kind: StateKind, what: &str) -> Result<Option<StateBlock>> {
        let flag =
            self.u8(&format!("{what} {} state flag", kind.name()), &format!("{} state", kind.name()))?;
        if flag == 0 {
            return Ok(None);
        }
        let start = self.pos;
        let bytes = self.bytes(kind.size(), format!("{what} {} state", kind.name()))?.to_vec();
        let block = StateBlock { kind, flag, bytes };
        if let Some(a) = self.ann.as_deref_mut() {
            for (name, off, t, text) in block.fields() {
                a.field((start + off) as u64, t.size() as u64, format_args!("{name}: {text}"));
            }
        }
        Ok(Some(block))
    }

    /// Annotations: a count MonoGame writes as 0 and does not read otherwise.
    fn annotations(&mut self, wide: bool, what: &str) -> Result<()> {
        let at = self.pos;
        let n = self.count(wide, 0, &format!("{what} annotation count"))?;
        if n != 0 {
            return Err(Error::unsupported(
                at as u64,
                format!("{what} annotation count"),
                format!("{n} annotations: MonoGame writes none and cannot read them"),
            ));
        }
        Ok(())
    }
}

impl<'a> Mgfx<'a> {
    /// Parse an MGFX effect, bare or in an XNB file.
    pub fn parse(data: &'a [u8]) -> Result<Mgfx<'a>> {
        read(data, None)
    }

    /// The profile, when it is one this build knows.
    pub fn profile(&self) -> Option<Profile> {
        Profile::from_byte(self.profile)
    }

    /// Whether counts and indices are i32 (version 10) rather than u8.
    pub fn wide(&self) -> bool {
        self.version >= 10
    }

    /// The MGFX bytes (the whole input when it is not in an XNB).
    pub fn mgfx_bytes(&self) -> &'a [u8] {
        let start = self.at as usize;
        let len = self.xnb.as_ref().map_or(self.data.len().saturating_sub(start), |x| x.effect_size as usize);
        self.data.get(start..start.saturating_add(len)).unwrap_or(&[])
    }

    /// The shader at a pass's stored index, by the file's version.
    pub fn shader(&self, raw: i32) -> Option<(u32, Option<&Shader<'a>>)> {
        shader_index(self.version, raw).map(|i| (i, self.shaders.get(i as usize)))
    }
}

/// Annotate what can be read of an MGFX effect (bare or in an XNB) up to where it fails.
pub fn annotate_damaged(data: &[u8], a: &mut Annotations) {
    let _ = read(data, Some(a));
}

/// Read the file, annotating into `ann` when given.
fn read<'a>(data: &'a [u8], mut ann: Option<&mut Annotations>) -> Result<Mgfx<'a>> {
    let (xnb, range) = crate::format::xnb::unwrap(data, ann.as_deref_mut())?;
    let mut c = Cursor { data, pos: range.start, end: range.end, ann };
    let mut fx = read_mgfx(&mut c)?;
    fx.xnb = xnb;
    fx.data = data;
    Ok(fx)
}

fn read_mgfx<'a>(c: &mut Cursor<'a, '_>) -> Result<Mgfx<'a>> {
    let at = c.pos;
    let [m0, m1, m2, m3, version, profile, k0, k1, k2, k3] = c.array::<10>("MGFX header")?;
    if [m0, m1, m2, m3] != MAGIC {
        return Err(Error::bad_magic(at as u64, "MGFX", &MAGIC, &[m0, m1, m2, m3]));
    }
    let key = u32::from_le_bytes([k0, k1, k2, k3]);
    let profile_name = Profile::from_byte(profile).map_or("unknown", Profile::name);
    if let Some(a) = c.ann.as_deref_mut() {
        let (s, e) = (at as u64, c.end as u64);
        a.section(s, e - s, format_args!("MGFX effect, version {version}, profile {profile_name}"));
        a.field(s, 4, "magic: \"MGFX\"");
        a.field(s + 4, 1, format_args!("version: {version}"));
        a.field(s + 5, 1, format_args!("profile: {profile} ({profile_name})"));
        a.field(s + 6, 4, format_args!("effect key: 0x{key:08x}"));
    }
    if !(7..=11).contains(&version) {
        let why = if version > 11 {
            format!("version {version} (a newer MonoGame) is not read: only versions 7 to 11")
        } else {
            format!("version {version} is not read: only versions 7 to 11")
        };
        return Err(Error::unsupported(at as u64 + 4, "MGFX version", why));
    }
    let wide = version >= 10;
    let iw = if wide { 4 } else { 1 };
    let named = names(version, profile);

    // Constant buffers: name (1), size (2), count.
    let mut constant_buffers = Vec::new();
    let n = c.count(wide, usize::from(named) + 2 + iw, "constant buffer count")?;
    for i in 0..n {
        let at = c.pos;
        let what = format!("constant buffer {i}");
        let name = match named {
            true => c.string(&format!("{what} name"), &format!("cbuffer {i} name"))?,
            false => Str::default(),
        };
        let size = c.i16(&format!("{what} size"), "size")?;
        let m = c.count(wide, iw + 2, &format!("{what} parameter count"))?;
        let mut parameters = Vec::new();
        for j in 0..m {
            let p = c.index(wide, &format!("{what} parameter {j}"), &format!("parameter {j} index"))?;
            let o = u16::from_le_bytes(c.array(format!("{what} parameter {j} offset"))?);
            c.note(c.pos - 2, format_args!("parameter {j} offset: {o}"));
            parameters.push((p, o));
        }
        c.section(at, c.pos - at, format_args!("constant buffer {i} \"{name}\""));
        constant_buffers.push(ConstantBuffer { at: at as u64, name, size, parameters });
    }

    // Shaders: flag, length, three counts at the least.
    let mut shaders = Vec::new();
    let n = c.count(wide, 8, "shader count")?;
    for i in 0..n {
        shaders.push(read_shader(c, i, version, named)?);
    }

    let parameters = read_parameters(c, wide, "parameter", 0)?;

    let mut techniques = Vec::new();
    let n = c.count(wide, 1 + 2 * iw, "technique count")?;
    for i in 0..n {
        let at = c.pos;
        let what = format!("technique {i}");
        let name = c.string(&format!("{what} name"), &format!("technique {i} name"))?;
        c.annotations(wide, &what)?;
        let m = c.count(wide, 1 + iw * 3 + 3, &format!("{what} pass count"))?;
        let mut passes = Vec::new();
        for j in 0..m {
            let pat = c.pos;
            let what = format!("technique {i} pass {j}");
            let name = c.string(&format!("{what} name"), &format!("pass {j} name"))?;
            c.annotations(wide, &what)?;
            let index_at = c.pos as u64;
            let vertex_shader = c.index(wide, &format!("{what} vertex shader"), "vertex shader index")?;
            let pixel_shader = c.index(wide, &format!("{what} pixel shader"), "pixel shader index")?;
            let blend = c.state(StateKind::Blend, &what)?;
            let depth_stencil = c.state(StateKind::DepthStencil, &what)?;
            let rasterizer = c.state(StateKind::Rasterizer, &what)?;
            c.section(pat, c.pos - pat, format_args!("pass {j} \"{name}\""));
            passes.push(Pass {
                at: pat as u64,
                name,
                index_at,
                vertex_shader,
                pixel_shader,
                blend,
                depth_stencil,
                rasterizer,
            });
        }
        c.section(at, c.pos - at, format_args!("technique {i} \"{name}\""));
        techniques.push(Technique { at: at as u64, name, passes });
    }

    if wide {
        let tail_at = c.pos;
        let tail = c.bytes(4, "MGFX tail")?;
        if tail != MAGIC {
            return Err(Error::bad_magic(tail_at as u64, "MGFX tail", &MAGIC, tail));
        }
        c.note(tail_at, "tail: \"MGFX\"");
    }
    let trailing = c.data.get(c.pos..c.end).unwrap_or(&[]);
    if !trailing.is_empty() {
        if let Some(a) = c.ann.as_deref_mut() {
            a.fallback(c.pos as u64, trailing.len() as u64, "after the effect");
        }
    }
    Ok(Mgfx {
        data: c.data,
        xnb: None,
        at: at as u64,
        version,
        profile,
        key,
        constant_buffers,
        shaders,
        parameters,
        techniques,
        trailing: Cow::Borrowed(trailing),
    })
}

fn read_shader<'a>(c: &mut Cursor<'a, '_>, i: usize, version: u8, named: bool) -> Result<Shader<'a>> {
    let at = c.pos;
    let what = format!("shader {i}");
    let is_vertex =
        c.u8_named(&format!("{what} stage"), "is vertex shader", &["pixel shader", "vertex shader"])?;
    let origin = match version > 10 {
        true => Some((
            c.string(&format!("{what} source file"), "source file")?,
            c.string(&format!("{what} entry point"), "entry point")?,
        )),
        false => None,
    };
    let len_at = c.pos;
    let len = c.i32(&format!("{what} length"), "code length")?;
    let code_at = c.pos;
    let code = match usize::try_from(len).ok().filter(|n| *n <= c.left()) {
        Some(n) => c.bytes(n, format!("{what} code"))?,
        None => {
            return Err(Error::out_of_bounds(
                len_at as u64,
                format!("{what} code"),
                code_at as u64,
                u64::from(len as u32),
                c.end as u64,
            ));
        }
    };
    if let Some(a) = c.ann.as_deref_mut() {
        annotate_code(code, code_at as u64, a);
    }
    let n = c.count(false, 5 + usize::from(named), &format!("{what} sampler count"))?;
    let mut samplers = Vec::new();
    for j in 0..n {
        let sat = c.pos;
        let what = format!("{what} sampler {j}");
        let ty = c.u8(&format!("{what} type"), "type")?;
        let texture_slot = c.u8(&format!("{what} texture slot"), "texture slot")?;
        let sampler_slot = c.u8(&format!("{what} sampler slot"), "sampler slot")?;
        let state = c.state(StateKind::Sampler, &what)?;
        let name = match named {
            true => c.string(&format!("{what} name"), "name")?,
            false => Str::default(),
        };
        let parameter = c.u8(&format!("{what} parameter"), "parameter index")?;
        c.section(sat, c.pos - sat, format_args!("sampler {j} \"{name}\""));
        samplers.push(Sampler { ty, texture_slot, sampler_slot, state, name, parameter });
    }
    let n = c.count(false, 1, &format!("{what} cbuffer count"))?;
    let mut cbuffers = Vec::new();
    for j in 0..n {
        cbuffers.push(c.u8(&format!("{what} cbuffer {j}"), &format!("cbuffer {j} index"))?);
    }
    let n = if named { c.count(false, 5, &format!("{what} attribute count"))? } else { 0 };
    let mut attributes = Vec::new();
    for j in 0..n {
        let what = format!("{what} attribute {j}");
        let name = c.string(&format!("{what} name"), &format!("attribute {j} name"))?;
        let usage = c.u8(&format!("{what} usage"), "usage")?;
        let index = c.u8(&format!("{what} index"), "usage index")?;
        let location = c.i16(&format!("{what} location"), "location")?;
        attributes.push(Attribute { name, usage, index, location });
    }
    let stage = if is_vertex != 0 { "vertex" } else { "pixel" };
    c.section(at, c.pos - at, format_args!("shader {i} ({stage})"));
    Ok(Shader {
        at: at as u64,
        is_vertex,
        origin,
        code_at: code_at as u64,
        code: Cow::Borrowed(code),
        samplers,
        cbuffers,
        attributes,
    })
}

/// A shader's code for `dump`: an embedded DXBC through its own annotations, GLSL text one
/// line a field.
fn annotate_code(code: &[u8], at: u64, a: &mut Annotations) {
    a.section(at, code.len() as u64, if code.starts_with(b"DXBC") { "DXBC shader" } else { "shader code" });
    if code.starts_with(b"DXBC") {
        let mut inner = Annotations::new();
        match crate::format::dxbc::Dxbc::parse(code) {
            Ok(d) => crate::Container::annotate(&d, &mut inner),
            Err(_) => {
                let _ = crate::annotate(code, &mut inner);
            }
        }
        a.absorb(&inner, code, |o| o + at);
        return;
    }
    let mut off = 0usize;
    for line in code.split_inclusive(|b| *b == b'\n') {
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end_matches(['\r', '\n']);
        a.field(at + off as u64, line.len() as u64, format_args!("text: \"{}\"", text.escape_debug()));
        off += line.len();
    }
}

fn read_parameters(c: &mut Cursor<'_, '_>, wide: bool, what: &str, depth: usize) -> Result<Vec<Parameter>> {
    if depth > MAX_DEPTH {
        return Err(Error::invalid(
            c.pos as u64,
            what.to_string(),
            format!("parameters nest deeper than {MAX_DEPTH} levels"),
        ));
    }
    let iw = if wide { 4 } else { 1 };
    // class, type, two names, annotations, rows, columns, two counts.
    let n = c.count(wide, 6 + 3 * iw, &format!("{what} count"))?;
    let mut out = Vec::new();
    for i in 0..n {
        let at = c.pos;
        let what = format!("{what} {i}");
        let class = c.u8_named(&format!("{what} class"), "class", CLASS_NAMES)?;
        let ty = c.u8_named(&format!("{what} type"), "type", TYPE_NAMES)?;
        let name = c.string(&format!("{what} name"), "name")?;
        let semantic = c.string(&format!("{what} semantic"), "semantic")?;
        c.annotations(wide, &what)?;
        let rows = c.u8(&format!("{what} rows"), "rows")?;
        let columns = c.u8(&format!("{what} columns"), "columns")?;
        let elements = read_parameters(c, wide, &format!("{what} element"), depth + 1)?;
        let members = read_parameters(c, wide, &format!("{what} member"), depth + 1)?;
        let mut p = Parameter {
            at: at as u64,
            class,
            ty,
            name,
            semantic,
            rows,
            columns,
            elements,
            members,
            values: Vec::new(),
        };
        if p.elements.is_empty() && p.members.is_empty() && ty == 4 {
            return Err(Error::unsupported(
                at as u64 + 1,
                format!("{what} type"),
                "a string parameter: MonoGame cannot read one either",
            ));
        }
        if p.has_values() {
            let count = usize::from(rows) * usize::from(columns);
            let vat = c.pos;
            let b = c.bytes(count * 4, format!("{what} values"))?;
            p.values = b
                .chunks_exact(4)
                .map(|w| <[u8; 4]>::try_from(w).map(u32::from_le_bytes).unwrap_or(0))
                .collect();
            if c.annotating() {
                let text: Vec<String> = p
                    .values
                    .iter()
                    .map(|v| match ty {
                        3 => crate::print::float::f32_shortest_text(*v).as_str().to_string(),
                        _ => (*v as i32).to_string(),
                    })
                    .collect();
                c.note(vat, format_args!("values: {}", text.join(", ")));
            }
        }
        c.section(at, c.pos - at, format_args!("{what} \"{}\"", p.name));
        out.push(p);
    }
    Ok(out)
}
