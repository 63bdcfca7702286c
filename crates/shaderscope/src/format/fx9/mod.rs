//! Direct3D 9 effects: `fxc /T fx_2_0` output (`.fxo`), the `.fxb`/`.efb` files FNA and XNA
//! games load, the blobs `D3DXCreateEffect` takes; bare, or as XNA Game Studio 4 keeps them:
//! after XNA's effect header (the tag `0xBCF00BCF`, the effect's offset from the tag, XNA's
//! words between: [`XnaHeader`]), and that inside an XNB content file
//! ([`crate::format::xnb`]). FNA's content pipeline puts the bare effect in the XNB.
//!
//! Layout (all little-endian u32; docs/effects-research.md §1 gives the sources):
//!
//! - an 8-byte header: the tag `0xFEFF0901` and the size of the *unstructured* block;
//! - the unstructured block (byte 8 on): the strings, type records and default values the
//!   records point at, by offsets counted from byte 8 (offset 0 is "none": the block starts
//!   with a zero word);
//! - the structured part, read in order: four counts (parameters, techniques, the shader
//!   count, the object count), the parameters with their annotations, the techniques with
//!   their annotations, passes and states, then the object tables: *small objects* (`id`,
//!   size, bytes — strings, texture names, and the shaders of shader-typed parameters) and
//!   *large objects* (the technique, pass or parameter, element and state they fill, a usage,
//!   size, bytes — a pass's shaders and FXLVM expressions).
//!
//! The model keeps the unstructured block as its bytes (the records point into it) and every
//! record of the structured part as numbers; [`Container::write`] writes the records back
//! around the kept block, byte for byte. The shaders inside are Direct3D 9 programs, parsed
//! with absolute offsets, listed as fxc lists an effect: the shader-typed parameters, then
//! `//listing of all techniques and passes with embedded asm listings` and each technique's
//! passes with their vertex and pixel shader.
//!
//! ```
//! use shaderscope::Container;
//! use shaderscope::format::fx9::{Fx9, build};
//!
//! let bytes = build::example();
//! let fx = Fx9::parse(&bytes)?;
//! assert_eq!(fx.techniques[0].name, "Main");
//! assert_eq!(fx.shaders().len(), 3); // the parameter's, and the pass's two
//! assert_eq!(fx.write()?, bytes);
//! # Ok::<(), shaderscope::Error>(())
//! ```

pub mod build;
mod info;
mod listing;
#[cfg(test)]
mod tests;

use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::format::xnb::{self, Xnb};
use crate::isa::d3d9::{self, ListingOptions, Program};
use crate::isa::fxlvm::Expression;
use crate::json::{DisasmSink, Program as JsonProgram};
use crate::model::{Finding, Part};
use crate::print::Printer;
use crate::toolkit::{Endian, Reader};
use std::ops::Range;

/// The tag an fx_2_0 effect starts with (bytes `01 09 ff fe`).
pub const TAG: u32 = 0xFEFF_0901;

/// Where the unstructured block starts in the effect: every offset of the effect counts from
/// here ([`Fx9::base`] is where that is in the file).
pub const BASE: u64 = 8;

/// The tag of XNA Game Studio 4's header before an effect (bytes `cf 0b f0 bc`).
pub const XNA_TAG: u32 = 0xBCF0_0BCF;

/// Nested struct types deeper than this are refused (fxc nests a few levels).
const MAX_TYPE_DEPTH: usize = 32;

/// `D3DXPARAMETER_TYPE` values of the objects an effect carries.
///
/// ```
/// use shaderscope::format::fx9::{Fx9, build, types};
/// let bytes = build::example();
/// let fx = Fx9::parse(&bytes)?;
/// assert_eq!(fx.parameters[1].ty.ty, types::VERTEXSHADER);
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub mod types {
    /// `string`.
    pub const STRING: u32 = 4;
    /// `texture` .. `texturecube`.
    pub const TEXTURES: std::ops::RangeInclusive<u32> = 5..=9;
    /// `sampler` .. `samplercube`.
    pub const SAMPLERS: std::ops::RangeInclusive<u32> = 10..=14;
    /// `pixelshader`.
    pub const PIXELSHADER: u32 = 15;
    /// `vertexshader`.
    pub const VERTEXSHADER: u32 = 16;
}

/// `D3DXPARAMETER_CLASS` values.
///
/// ```
/// use shaderscope::format::fx9::{Fx9, build, classes};
/// let bytes = build::example();
/// let fx = Fx9::parse(&bytes)?;
/// assert_eq!(fx.parameters[0].ty.class, classes::VECTOR); // float4 Tint
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub mod classes {
    /// A scalar.
    pub const SCALAR: u32 = 0;
    /// A vector (columns, then rows, in its record).
    pub const VECTOR: u32 = 1;
    /// A row-major matrix.
    pub const MATRIX_ROWS: u32 = 2;
    /// A column-major matrix.
    pub const MATRIX_COLUMNS: u32 = 3;
    /// An object (string, texture, sampler, shader).
    pub const OBJECT: u32 = 4;
    /// A struct.
    pub const STRUCT: u32 = 5;
}

/// A parsed fx_2_0 effect.
#[derive(Debug, Clone)]
pub struct Fx9<'a> {
    /// The whole input.
    pub data: &'a [u8],
    /// The fx_2_0 effect's bytes (the whole input unless it is wrapped).
    pub effect: &'a [u8],
    /// Where the effect starts in the input (0 unless it is wrapped).
    pub origin: u64,
    /// The XNB file around the effect, when it is in one.
    pub xnb: Option<Xnb>,
    /// XNA Game Studio 4's header before the effect, when it has one.
    pub xna: Option<XnaHeader>,
    /// The unstructured block (strings, types, values), at byte 8.
    pub unstructured: &'a [u8],
    /// The third count of the structured part: the shaders the compiler made (every pass adds
    /// to it, so it is not always the number of shader objects).
    pub shader_count: u32,
    /// The number of object ids (id 0 is not used).
    pub object_count: u32,
    /// The parameters, in file order.
    pub parameters: Vec<Parameter>,
    /// The techniques, in file order.
    pub techniques: Vec<Technique>,
    /// The small objects: strings, texture names, shaders of shader-typed parameters.
    pub objects: Vec<Object<'a>>,
    /// The large objects: what fills a pass's or a sampler's state.
    pub resources: Vec<Resource<'a>>,
    /// Bytes after the last object (none in a file fxc writes).
    pub trailing: &'a [u8],
    /// The Direct3D 9 programs inside, in file order (small objects first): what `extract`
    /// calls `shader0`, `shader1`, ….
    shaders: Vec<Shader<'a>>,
}

/// XNA Game Studio 4's header before an fx_2_0 effect: what its `Effect` class takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XnaHeader {
    /// Where the header's tag is in the input.
    pub at: u64,
    /// The bytes between the header's two words and the effect: XNA's own (pairs of words in
    /// the files seen; their meaning is not documented), kept as they are.
    pub words: Vec<u8>,
}

impl XnaHeader {
    /// The header of `payload` (at `at` of the input), when it starts with [`XNA_TAG`]; gives
    /// it and the effect's offset in `payload`.
    fn read(payload: &[u8], at: usize) -> Result<Option<(XnaHeader, usize)>> {
        if crate::toolkit::le_u32(payload, 0) != Some(XNA_TAG) {
            return Ok(None);
        }
        let offset = crate::toolkit::le_u32(payload, 4).ok_or_else(|| {
            Error::truncated(at as u64 + 4, "XNA effect offset", 4, payload.len().saturating_sub(4) as u64)
        })?;
        let start =
            usize::try_from(offset).ok().filter(|o| (8..=payload.len()).contains(o)).ok_or_else(|| {
                Error::invalid(
                    at as u64 + 4,
                    "XNA effect offset",
                    format!("{offset} is not between 8 and the {} bytes the effect code has", payload.len()),
                )
            })?;
        let words = payload.get(8..start).unwrap_or(&[]).to_vec();
        Ok(Some((XnaHeader { at: at as u64, words }, start)))
    }

    /// Its bytes, before an effect.
    fn write(&self, out: &mut Vec<u8>) {
        out.extend(XNA_TAG.to_le_bytes());
        out.extend((8 + self.words.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.words);
    }
}

/// The wrappers of an effect: the XNB around it and XNA's header before it, each when present,
/// annotated into `ann` when given. Gives them and the effect's range in `data`.
fn unwrap(
    data: &[u8],
    mut ann: Option<&mut Annotations>,
) -> Result<(Option<Xnb>, Option<XnaHeader>, Range<usize>)> {
    let (xnb, range) = xnb::unwrap(data, ann.as_deref_mut())?;
    let payload = data.get(range.clone()).unwrap_or(&[]);
    match XnaHeader::read(payload, range.start)? {
        Some((h, start)) => {
            if let Some(a) = ann {
                let at = h.at;
                a.section(at, 8 + h.words.len() as u64, "XNA effect header");
                a.field(at, 4, "tag 0xbcf00bcf (XNA effect code)");
                a.field(at + 4, 4, format_args!("effect offset: {start}"));
                if !h.words.is_empty() {
                    a.field(at + 8, h.words.len() as u64, "XNA's words before the effect (kept)");
                }
            }
            Ok((xnb, Some(h), range.start + start..range.end))
        }
        None => Ok((xnb, None, range)),
    }
}

/// A type record in the unstructured block (`D3DXPARAMETER_DESC` in the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type {
    /// Offset of the record, from byte 8.
    pub offset: u32,
    /// `D3DXPARAMETER_TYPE` (3 float, 15 pixelshader, …; [`types`]).
    pub ty: u32,
    /// `D3DXPARAMETER_CLASS` ([`classes`]).
    pub class: u32,
    /// The name (empty when the record has none).
    pub name: String,
    /// The semantic, when it has one.
    pub semantic: Option<String>,
    /// Array elements; 0 for one that is not an array.
    pub elements: u32,
    /// Rows and columns of a numeric type (0 for others).
    pub rows: u32,
    /// Columns.
    pub columns: u32,
    /// A struct's members.
    pub members: Vec<Type>,
    /// The record's size in bytes, members included.
    pub size: u32,
}

impl Type {
    /// How many values an array holds (1 when it is not one).
    pub fn count(&self) -> u64 {
        u64::from(self.elements.max(1))
    }

    /// Whether it is a shader (vertex or pixel).
    pub fn is_shader(&self) -> bool {
        self.class == classes::OBJECT && matches!(self.ty, types::PIXELSHADER | types::VERTEXSHADER)
    }

    /// Whether it is a sampler, whose value is a block of states.
    pub fn is_sampler(&self) -> bool {
        self.class == classes::OBJECT && types::SAMPLERS.contains(&self.ty)
    }

    /// The bytes one value of this type takes (numbers, or object ids), not for samplers.
    fn value_size(&self) -> u64 {
        let one = match self.class {
            classes::STRUCT => self.members.iter().map(Type::value_size).sum(),
            classes::OBJECT => 4,
            _ => 4 * u64::from(self.rows) * u64::from(self.columns),
        };
        one.saturating_mul(self.count())
    }

    /// The type as HLSL spells it (`float4x4`, `sampler2D`, `struct`, `texture`).
    pub fn hlsl(&self) -> String {
        // The constant table names the same D3DXPARAMETER_TYPE values.
        let base = u16::try_from(self.ty).map_or("unknown", crate::isa::d3d9::ctab::type_name);
        match self.class {
            classes::STRUCT => "struct".to_string(),
            classes::VECTOR => format!("{base}{}", self.columns),
            classes::MATRIX_ROWS | classes::MATRIX_COLUMNS => format!("{base}{}x{}", self.rows, self.columns),
            _ => base.to_string(),
        }
    }
}

/// An annotation: a type and a value in the unstructured block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// Absolute offset of its record in the structured part.
    pub at: u64,
    /// Offset of its type record.
    pub type_offset: u32,
    /// Offset of its value.
    pub value_offset: u32,
    /// The type record there.
    pub ty: Type,
}

/// A parameter (an effect's global variable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameter {
    /// Absolute offset of its record.
    pub at: u64,
    /// Offset of its type record.
    pub type_offset: u32,
    /// Offset of its value (its default, object ids, or a sampler's states).
    pub value_offset: u32,
    /// `D3DX_PARAMETER_*` flags (1 shared, 2 literal, 4 annotation).
    pub flags: u32,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
    /// Its type.
    pub ty: Type,
}

/// A technique: named passes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Technique {
    /// Absolute offset of its record.
    pub at: u64,
    /// Offset of its name string.
    pub name_offset: u32,
    /// Its name.
    pub name: String,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
    /// Its passes.
    pub passes: Vec<Pass>,
}

/// A pass: the states it sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pass {
    /// Absolute offset of its record.
    pub at: u64,
    /// Offset of its name string.
    pub name_offset: u32,
    /// Its name (empty for an unnamed pass).
    pub name: String,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
    /// Its states.
    pub states: Vec<State>,
}

/// A state assignment of a pass or a sampler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Absolute offset of its record.
    pub at: u64,
    /// The entry of D3DX9's state table (0x92 VertexShader, 0x93 PixelShader, …).
    pub operation: u32,
    /// The state's index (texture stage, light, sampler register).
    pub index: u32,
    /// Offset of its type record.
    pub type_offset: u32,
    /// Offset of its value.
    pub value_offset: u32,
    /// Its type.
    pub ty: Type,
}

/// A small object: the contents of object `id` (a string, a texture name, a shader).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object<'a> {
    /// Absolute offset of its record.
    pub at: u64,
    /// The object id it fills.
    pub id: u32,
    /// Its bytes.
    pub data: &'a [u8],
    /// The bytes that pad it to 4.
    pub padding: &'a [u8],
}

/// A large object: the contents of the object a state holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource<'a> {
    /// Absolute offset of its record.
    pub at: u64,
    /// The technique whose pass holds the state, or `0xFFFFFFFF` for a sampler parameter's.
    pub technique: u32,
    /// The pass (in that technique), or the parameter.
    pub index: u32,
    /// The array element of the parameter (`0xFFFFFFFF`: none).
    pub element: u32,
    /// The state (in the pass or sampler).
    pub state: u32,
    /// 0: the bytes are the object (a shader, an FXLVM expression); 1: the name of the
    /// parameter the state takes; 2: a shader array's selector (a name and an expression).
    pub usage: u32,
    /// Its bytes.
    pub data: &'a [u8],
    /// The bytes that pad it to 4.
    pub padding: &'a [u8],
}

/// A Direct3D 9 program carried in an object.
#[derive(Debug, Clone)]
pub struct Shader<'a> {
    /// Absolute offset of its version token.
    pub offset: u64,
    /// Its bytes.
    pub bytes: &'a [u8],
    /// Where it is: a small object's id or a large object's index.
    pub source: Source,
    /// The program, or why it does not parse.
    pub program: std::result::Result<Program<'a>, Error>,
}

/// Where a shader of the effect is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The small object with this id (a shader-typed parameter's value).
    Object(u32),
    /// The large object with this index (a pass's state).
    Resource(usize),
}

/// Whether `bytes` start as a Direct3D 9 program.
fn is_program(bytes: &[u8]) -> bool {
    crate::detect::d3d9_version(bytes).is_some()
}

/// Reads records of the structured part and what they point at in the unstructured block.
struct Parser<'a> {
    r: Reader<'a>,
    /// The unstructured block.
    block: Block<'a>,
}

/// The unstructured block (at absolute offset 8), read by the offsets records hold.
#[derive(Clone)]
pub(super) struct Block<'a>(pub(super) Reader<'a>);

impl Block<'_> {
    /// The string at `offset` of the unstructured block (u32 length with the NUL, bytes);
    /// empty for offset 0 or length 0.
    pub(super) fn string(&self, offset: u32, what: &'static str, field_at: u64) -> Result<String> {
        if offset == 0 {
            return Ok(String::new());
        }
        let len = self.0.u32_at(offset as usize, what).map_err(|e| e.context("string length of "))?;
        let r = self.0.sub(u64::from(offset) + 4, u64::from(len), what, field_at)?;
        let bytes = r.data();
        let text = bytes.split(|&b| b == 0).next().unwrap_or(&[]);
        Ok(String::from_utf8_lossy(text).into_owned())
    }

    pub(super) fn ty(&self, offset: u32, field_at: u64, depth: usize) -> Result<Type> {
        if depth > MAX_TYPE_DEPTH {
            return Err(Error::invalid(field_at, "type record", "structs nest more than 32 deep"));
        }
        let o = offset as usize;
        let what = "type record";
        let at = self.0.base() + u64::from(offset);
        let ty = self.0.u32_at(o, what)?;
        let class = self.0.u32_at(o + 4, what)?;
        let name_offset = self.0.u32_at(o + 8, what)?;
        let semantic_offset = self.0.u32_at(o + 12, what)?;
        let elements = self.0.u32_at(o + 16, what)?;
        let name = self.string(name_offset, "type name", at + 8)?;
        let semantic =
            (semantic_offset != 0).then(|| self.string(semantic_offset, "semantic", at + 12)).transpose()?;
        let mut t = Type {
            offset,
            ty,
            class,
            name,
            semantic,
            elements,
            rows: 0,
            columns: 0,
            members: Vec::new(),
            size: 20,
        };
        match class {
            classes::SCALAR | classes::MATRIX_ROWS | classes::MATRIX_COLUMNS => {
                t.rows = self.0.u32_at(o + 20, what)?;
                t.columns = self.0.u32_at(o + 24, what)?;
                t.size = 28;
            }
            classes::VECTOR => {
                t.columns = self.0.u32_at(o + 20, what)?;
                t.rows = self.0.u32_at(o + 24, what)?;
                t.size = 28;
            }
            classes::STRUCT => {
                let n = self.0.u32_at(o + 20, what)?;
                if u64::from(n) * 20 > self.0.data().len() as u64 {
                    return Err(Error::invalid(
                        at + 20,
                        "struct member count",
                        format!("{n} members cannot fit"),
                    ));
                }
                let mut next = offset.checked_add(24).ok_or_else(|| Error::overflow(at, what))?;
                for _ in 0..n {
                    let m = self.ty(next, at, depth + 1)?;
                    next = next.checked_add(m.size).ok_or_else(|| Error::overflow(at, what))?;
                    t.members.push(m);
                }
                t.size = next - offset;
            }
            classes::OBJECT => {}
            other => {
                return Err(Error::invalid(
                    at + 4,
                    "parameter class",
                    format!("{other} is not a D3DXPARAMETER_CLASS"),
                ));
            }
        }
        Ok(t)
    }
}

impl<'a> Parser<'a> {
    fn count(&mut self, what: &'static str, each: usize) -> Result<u32> {
        let at = self.r.original_position();
        let n = self.r.u32(what)?;
        // Every entry takes at least `each` bytes: a count past what is left cannot be true.
        if u64::from(n) * each as u64 > self.r.remaining() as u64 {
            return Err(Error::invalid(
                at,
                what,
                format!(
                    "{n} entries of at least {each} bytes do not fit in the {} bytes left",
                    self.r.remaining()
                ),
            ));
        }
        Ok(n)
    }

    /// A type and its value, checked to be inside the unstructured block.
    fn typed(&self, type_offset: u32, value_offset: u32, at: u64) -> Result<Type> {
        let t = self.block.ty(type_offset, at, 0)?;
        if !t.is_sampler() {
            self.block.0.sub(u64::from(value_offset), t.value_size(), "value", at + 4)?;
        }
        Ok(t)
    }

    fn annotations(&mut self, n: u32) -> Result<Vec<Annotation>> {
        (0..n)
            .map(|_| {
                let at = self.r.original_position();
                let type_offset = self.r.u32("annotation type offset")?;
                let value_offset = self.r.u32("annotation value offset")?;
                let ty = self.typed(type_offset, value_offset, at)?;
                Ok(Annotation { at, type_offset, value_offset, ty })
            })
            .collect()
    }

    fn state(&mut self) -> Result<State> {
        let at = self.r.original_position();
        let operation = self.r.u32("state operation")?;
        let index = self.r.u32("state index")?;
        let type_offset = self.r.u32("state type offset")?;
        let value_offset = self.r.u32("state value offset")?;
        let ty = self.typed(type_offset, value_offset, at + 8)?;
        Ok(State { at, operation, index, type_offset, value_offset, ty })
    }
}

impl<'a> Fx9<'a> {
    /// Parse an fx_2_0 effect.
    pub fn parse(data: &'a [u8]) -> Result<Fx9<'a>> {
        let (xnb, xna, range) = unwrap(data, None)?;
        let origin = range.start as u64;
        let effect = data.get(range).unwrap_or(&[]);
        let mut head = Reader::with_base(effect, origin, Endian::Little);
        let tag = head.u32("effect tag")?;
        if tag != TAG {
            return Err(Error::invalid(
                origin,
                "effect tag",
                format!("0x{tag:08x} is not fx_2_0 (0xfeff0901)"),
            ));
        }
        let size = head.u32("unstructured size")?;
        let block = head.sub(BASE, u64::from(size), "unstructured block", origin + 4)?;
        let unstructured = block.data();
        let r = head.at(BASE + u64::from(size), "structured part", origin + 4)?;
        let mut p = Parser { r, block: Block(block) };
        let parameter_count = p.count("parameter count", 16)?;
        let technique_count = p.count("technique count", 12)?;
        let shader_count = p.r.u32("shader count")?;
        let object_count = p.r.u32("object count")?;
        let mut parameters = Vec::new();
        for _ in 0..parameter_count {
            let at = p.r.original_position();
            let type_offset = p.r.u32("parameter type offset")?;
            let value_offset = p.r.u32("parameter value offset")?;
            let flags = p.r.u32("parameter flags")?;
            let n = p.count("annotation count", 8)?;
            let annotations = p.annotations(n)?;
            let ty = p.typed(type_offset, value_offset, at)?;
            parameters.push(Parameter { at, type_offset, value_offset, flags, annotations, ty });
        }
        let mut techniques = Vec::new();
        for _ in 0..technique_count {
            let at = p.r.original_position();
            let name_offset = p.r.u32("technique name offset")?;
            let annotation_count = p.count("annotation count", 8)?;
            let pass_count = p.count("pass count", 12)?;
            let name = p.block.string(name_offset, "technique name", at)?;
            let annotations = p.annotations(annotation_count)?;
            let mut passes = Vec::new();
            for _ in 0..pass_count {
                let at = p.r.original_position();
                let name_offset = p.r.u32("pass name offset")?;
                let annotation_count = p.count("annotation count", 8)?;
                let state_count = p.count("state count", 16)?;
                let name = p.block.string(name_offset, "pass name", at)?;
                let annotations = p.annotations(annotation_count)?;
                let states = (0..state_count).map(|_| p.state()).collect::<Result<Vec<_>>>()?;
                passes.push(Pass { at, name_offset, name, annotations, states });
            }
            techniques.push(Technique { at, name_offset, name, annotations, passes });
        }
        let object_records = p.count("small object count", 8)?;
        let resource_records = p.count("large object count", 24)?;
        let mut objects = Vec::new();
        for _ in 0..object_records {
            let at = p.r.original_position();
            let id = p.r.u32("object id")?;
            let size = p.r.u32("object size")?;
            let (data, padding) = padded(&mut p.r, size, "small object")?;
            objects.push(Object { at, id, data, padding });
        }
        let mut resources = Vec::new();
        for _ in 0..resource_records {
            let at = p.r.original_position();
            let technique = p.r.u32("large object technique")?;
            let index = p.r.u32("large object index")?;
            let element = p.r.u32("large object element")?;
            let state = p.r.u32("large object state")?;
            let usage = p.r.u32("large object usage")?;
            let size = p.r.u32("large object size")?;
            let (data, padding) = padded(&mut p.r, size, "large object")?;
            resources.push(Resource { at, technique, index, element, state, usage, data, padding });
        }
        let rest = p.r.remaining();
        let trailing = p.r.bytes(rest, "trailing bytes")?;
        let shaders = find_shaders(&objects, &resources);
        Ok(Fx9 {
            data,
            effect,
            origin,
            xnb,
            xna,
            unstructured,
            shader_count,
            object_count,
            parameters,
            techniques,
            objects,
            resources,
            trailing,
            shaders,
        })
    }

    /// Where the unstructured block starts in the input: what the effect's offsets count from.
    pub fn base(&self) -> u64 {
        self.origin + BASE
    }

    /// The input's bytes from the model: the effect (see [`build::write`]) in the wrappers it
    /// was read in.
    pub fn write_file(&self) -> Result<Vec<u8>> {
        let mut effect = Vec::new();
        if let Some(h) = &self.xna {
            h.write(&mut effect);
        }
        effect.extend(build::write(self));
        match &self.xnb {
            None => Ok(effect),
            Some(x) => x.write_again(&effect, self.data.len()),
        }
    }

    /// The Direct3D 9 programs inside, in file order: `shader0`, `shader1`, ….
    pub fn shaders(&self) -> &[Shader<'a>] {
        &self.shaders
    }

    /// The index in [`Fx9::shaders`] of the shader stored in `source`.
    pub fn shader_at(&self, source: Source) -> Option<usize> {
        self.shaders.iter().position(|s| s.source == source)
    }

    /// The parameter named `name`.
    pub fn parameter(&self, name: &str) -> Option<(usize, &Parameter)> {
        self.parameters.iter().enumerate().find(|(_, p)| p.ty.name == name)
    }

    /// The object ids a parameter's value holds (object classes other than samplers).
    pub fn object_ids(&self, p: &Parameter) -> Vec<u32> {
        if p.ty.class != classes::OBJECT || p.ty.is_sampler() {
            return Vec::new();
        }
        let block = Reader::with_base(self.unstructured, self.base(), Endian::Little);
        (0..p.ty.count())
            .filter_map(|i| block.u32_at(p.value_offset as usize + 4 * i as usize, "object id").ok())
            .collect()
    }

    /// The shader a state of technique `t`, pass `p`, state `s` binds: the large object that
    /// fills it (a program, or the name of a shader parameter whose program it is).
    pub fn state_shader(&self, t: usize, p: usize, s: usize) -> Binding {
        let found = self
            .resources
            .iter()
            .enumerate()
            .find(|(_, r)| r.technique as usize == t && r.index as usize == p && r.state as usize == s);
        let Some((i, r)) = found else { return Binding::None };
        match r.usage {
            0 => self.shader_at(Source::Resource(i)).map_or(Binding::None, Binding::Shader),
            1 => {
                let name = r.data.split(|&b| b == 0).next().unwrap_or(&[]);
                let name = String::from_utf8_lossy(name).into_owned();
                let shader = self
                    .parameter(&name)
                    .and_then(|(_, p)| self.object_ids(p).first().copied())
                    .and_then(|id| self.shader_at(Source::Object(id)));
                Binding::Parameter(name, shader)
            }
            _ => {
                let (array, expression) = selector(r.data, r.at + 24).unwrap_or_default();
                let by_default = expression.and_then(|e| self.select(&array, &e));
                Binding::Selected { array, by_default }
            }
        }
    }

    /// A numeric parameter's values (bool and int as integers, float as floats); `None` for
    /// other types.
    pub fn numbers(&self, ty: &Type, value_offset: u32) -> Option<Vec<f64>> {
        if ty.class > classes::MATRIX_COLUMNS || !(1..=3).contains(&ty.ty) {
            return None;
        }
        let block = Reader::with_base(self.unstructured, self.base(), Endian::Little);
        let n = (u64::from(ty.rows) * u64::from(ty.columns) * ty.count()).min(4096);
        (0..n)
            .map(|i| {
                let w = block.u32_at(value_offset as usize + 4 * i as usize, "value").ok()?;
                Some(if ty.ty == 3 { f64::from(f32::from_bits(w)) } else { f64::from(w as i32) })
            })
            .collect()
    }

    /// The element of shader array `array` an array selector chooses when the parameters it
    /// reads hold their defaults, and that element's shader: what fxc lists for the pass.
    fn select(&self, array: &str, selector: &Expression) -> Option<(u32, Option<usize>)> {
        // The inputs: each constant of the selector's table is a parameter of that name,
        // one register (four components) per row of its values.
        let mut inputs = std::collections::BTreeMap::new();
        for c in selector.inputs.iter().flat_map(|t| &t.constants) {
            let (_, p) = self.parameter(&c.name)?;
            let values = self.numbers(&p.ty, p.value_offset)?;
            let columns = u32::from(c.ty.columns).clamp(1, 4);
            let registers = u32::from(c.register_count);
            for (k, v) in (0u32..).zip(values) {
                let (row, column) = (k / columns, k % columns);
                if row >= registers {
                    break;
                }
                inputs.insert((u32::from(c.register_index) + row) * 4 + column, v);
            }
        }
        let outputs = selector.evaluate(&|item| inputs.get(&item).copied().unwrap_or(0.0))?;
        let index = outputs.values().next()?.floor();
        let (_, p) = self.parameter(array)?;
        if !(0.0..f64::from(p.ty.elements)).contains(&index) {
            return None;
        }
        let element = index as u32;
        let shader =
            self.object_ids(p).get(element as usize).and_then(|&id| self.shader_at(Source::Object(id)));
        Some((element, shader))
    }
}

/// The Direct3D 9 programs of the small and large objects, in file order.
fn find_shaders<'a>(objects: &[Object<'a>], resources: &[Resource<'a>]) -> Vec<Shader<'a>> {
    let small = objects.iter().map(|o| (o.at + 8, o.data, Source::Object(o.id)));
    let large = resources
        .iter()
        .enumerate()
        .filter(|(_, r)| r.usage == 0)
        .map(|(i, r)| (r.at + 24, r.data, Source::Resource(i)));
    small
        .chain(large)
        .filter(|(_, bytes, _)| is_program(bytes))
        .map(|(offset, bytes, source)| Shader {
            offset,
            bytes,
            source,
            program: Program::parse(bytes, offset),
        })
        .collect()
}

/// An array selector (large object usage 2) at absolute `at`: the array's name (a length,
/// then the name, padded), then the FXLVM expression that computes the index.
fn selector(data: &[u8], at: u64) -> Option<(String, Option<Expression>)> {
    let len = u32::from_le_bytes(*data.first_chunk::<4>()?) as usize;
    let name = data.get(4..)?.get(..len)?;
    let name = name.split(|&b| b == 0).next().unwrap_or(&[]);
    let code = 4 + len;
    let expression = data.get(code..).and_then(|d| Expression::parse(d, at + code as u64).ok());
    Some((String::from_utf8_lossy(name).into_owned(), expression))
}

/// What a shader state of a pass binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binding {
    /// Nothing the effect stores (a null shader, or no large object for the state).
    None,
    /// The shader with this index ([`Fx9::shaders`]), compiled for the pass.
    Shader(usize),
    /// The shader-typed parameter of this name, and its shader.
    Parameter(String, Option<usize>),
    /// An element of a shader array parameter, chosen at run time by an expression.
    Selected {
        /// The array's name.
        array: String,
        /// The element the expression chooses when the parameters hold their defaults, and
        /// that element's shader (what fxc lists), when the expression can be run.
        by_default: Option<(u32, Option<usize>)>,
    },
}

/// `size` bytes and the padding to 4 after them.
fn padded<'a>(r: &mut Reader<'a>, size: u32, what: &'static str) -> Result<(&'a [u8], &'a [u8])> {
    let size = size as usize;
    let data = r.bytes(size, what)?;
    let padding = r.bytes(size.next_multiple_of(4) - size, "padding")?;
    Ok((data, padding))
}

impl Container for Fx9<'_> {
    fn format(&self) -> Format {
        Format::Fx9
    }

    fn write_info_text(&self, out: &mut dyn std::fmt::Write) -> std::fmt::Result {
        info::Info::new(self).text(out)
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        crate::json::write_info(out, &info::Info::new(self))
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        listing::write(self, opts, out).map_err(|_| Error::invalid(0, "listing", "the output sink failed"))
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
        self.disasm(opts, out.listing())?;
        let options = ListingOptions::of(opts);
        for (i, s) in self.shaders.iter().enumerate() {
            let Ok(p) = &s.program else { continue };
            out.program(
                JsonProgram::new(format!("shader{i}"), "d3d9", s.offset, p.program_len())
                    .with_stage(Some(crate::format::d3d9::stage_of(p.version.kind)), Some(p.version.name())),
            );
            d3d9::each_record(p, &options, |r| out.instruction(r));
        }
        Ok(())
    }

    fn annotate(&self, a: &mut Annotations) {
        info::annotate(self, a);
    }

    fn validate(&self) -> Vec<Finding> {
        info::validate(self)
    }

    fn damage(&self) -> Vec<Error> {
        self.shaders.iter().filter_map(|s| s.program.as_ref().err().cloned()).collect()
    }

    fn write(&self) -> Result<Vec<u8>> {
        self.write_file()
    }

    fn parts(&self) -> Vec<Part<'_>> {
        let mut parts = self.embedded();
        if self.origin != 0 {
            parts.push(Part::new("effect", self.origin, self.effect, "the fx_2_0 effect the file wraps"));
        }
        parts.push(Part::new(
            "unstructured",
            self.base(),
            self.unstructured,
            "the unstructured block (strings, types, values)",
        ));
        for (i, r) in self.resources.iter().enumerate().filter(|(_, r)| {
            r.data.starts_with(&[0x00, 0x02, 0x58, 0x46]) || r.data.starts_with(&[0x01, 0x02, 0x58, 0x46])
        }) {
            parts.push(Part::new(
                format!("expression{i}"),
                r.at + 24,
                r.data,
                "an FXLVM expression (preshader) of a state",
            ));
        }
        parts
    }

    fn embedded(&self) -> Vec<Part<'_>> {
        self.shaders
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let model =
                    s.program.as_ref().map_or_else(|_| "Direct3D 9".to_string(), |p| p.version.name());
                let from = match s.source {
                    Source::Object(id) => format!("object {id}"),
                    Source::Resource(r) => format!("large object {r}"),
                };
                Part::new(format!("shader{i}"), s.offset, s.bytes, format!("{model} program ({from})"))
            })
            .collect()
    }
}

/// Annotate what can be read of an effect that does not parse: the header, then the
/// unstructured block and structured part as ranges.
pub fn annotate_damaged(data: &[u8], a: &mut Annotations) {
    if let Ok((_, _, range)) = unwrap(data, Some(a)) {
        info::annotate_header(data.get(range.clone()).unwrap_or(&[]), range.start as u64, a);
    }
}
