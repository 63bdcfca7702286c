//! Direct3D 10/11 effects, what `fxc /T fx_4_0`, `fx_4_1` and `fx_5_0` write: the variables,
//! constant buffers, state blocks, groups, techniques and passes of an effect, with the
//! shaders its passes bind as whole DXBC containers inside it.
//!
//! ```text
//! fx_4_0/fx_4_1   a DXBC container of one FX10 chunk; the chunk's data is the effect blob
//! fx_5_0          the effect blob alone (tag 01 20 ff fe at byte 0)
//! blob            header: tag, then 18 (fx_4) or 23 (fx_5) u32 counts (SBinaryHeader /
//!                 SBinaryHeader5); the unstructured block (cbUnstructured bytes: strings,
//!                 types, default values, shader blocks, assignment values), every `o…`
//!                 offset of the file counted from its first byte, 0 meaning none; then the
//!                 structured block, read in order:
//!   cCBs x        SBinaryConstantBuffer (20 bytes), annotations, cVariables x
//!                 SBinaryNumericVariable (24 bytes) + annotations
//!   cObjects x    SBinaryObjectVariable (16 bytes), one initializer per element, annotations
//!   pool CBs,     the shared buffers, variables and objects of a child effect (/Gch): the
//!   pool objects  same records without annotations, default values or initializers
//!   (fx_5) cInterfaceVariables x SBinaryInterfaceVariable (16 bytes) + annotations
//!   (fx_5) cGroups x SBinaryGroup (8 bytes) + annotations + its techniques
//!   (fx_4) cTechniques x technique
//!   technique     SBinaryTechnique (8 bytes), annotations, cPasses x SBinaryPass (8 bytes),
//!                 annotations, cAssignments x SBinaryAssignment (16 bytes)
//! annotations     u32 count, count x {oName, oType, value words}
//! shader block    u32 size, then a whole DXBC container (at oShader in the unstructured block)
//! ```
//!
//! The names are those of FX11's `EffectBinaryFormat.h`. The unstructured block is kept as it
//! is (the records point into it); the header, the structured block and the outer container
//! are written back from the model, so an unmodified file writes back byte for byte. Every
//! offset into the unstructured block is checked against it, and an error names the record,
//! the absolute offset of the field and why.
//!
//! ```
//! use shaderscope::Container;
//! use shaderscope::format::fx11::{Fx11, build};
//!
//! let bytes = build::example();
//! let fx = Fx11::parse(&bytes)?;
//! assert_eq!(fx.profile(), "fx_5_0");
//! assert_eq!(fx.shaders.len(), 2);
//! assert_eq!(fx.write()?, bytes);
//! # Ok::<(), shaderscope::Error>(())
//! ```

pub mod build;
mod container;
mod listing;
mod states;
mod write;

pub use container::annotate_damaged;

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::format::dxbc::Dxbc;
use crate::toolkit::{Endian, Reader};

/// fx_4_0's tag.
pub const TAG_FX_4_0: u32 = 0xFEFF_1001;
/// fx_4_1's tag.
pub const TAG_FX_4_1: u32 = 0xFEFF_1011;
/// fx_5_0's tag.
pub const TAG_FX_5_0: u32 = 0xFEFF_2001;

/// The header's fields, in order (SBinaryHeader, then SBinaryHeader5's five more).
pub const HEADER_FIELDS: [&str; 24] = [
    "tag",
    "constant buffers (cCBs)",
    "numeric variables (cNumericVariables)",
    "object variables (cObjectVariables)",
    "pool constant buffers",
    "pool numeric variables",
    "pool object variables",
    "techniques (cTechniques)",
    "unstructured size (cbUnstructured)",
    "strings (cStrings)",
    "shader resources (cShaderResources)",
    "depth-stencil blocks",
    "blend state blocks",
    "rasterizer state blocks",
    "samplers",
    "render target views",
    "depth-stencil views",
    "shaders (cTotalShaders)",
    "inline shaders (cInlineShaders)",
    "groups (cGroups)",
    "unordered access views",
    "interface variables",
    "interface variable elements",
    "class instance elements",
];

/// Header sizes: 19 words for fx_4_x, 24 for fx_5_0.
const FX4_WORDS: usize = 19;
const FX5_WORDS: usize = 24;

/// Deepest struct nesting read in a type (fxc's structs nest a few levels).
const MAX_TYPE_DEPTH: usize = 32;

/// Variable classes of a type (EVarType).
///
/// ```
/// use shaderscope::format::fx11::{Fx11, build, var_type};
/// let bytes = build::example();
/// let fx = Fx11::parse(&bytes)?;
/// let variable = &fx.cbuffers[0].variables[0];
/// assert_eq!(fx.type_at(variable.ty, variable.at)?.class, var_type::NUMERIC);
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub mod var_type {
    /// A scalar, vector or matrix.
    pub const NUMERIC: u32 = 1;
    /// A string, texture, state block, shader, view or buffer.
    pub const OBJECT: u32 = 2;
    /// A struct.
    pub const STRUCT: u32 = 3;
    /// An interface (fx_5).
    pub const INTERFACE: u32 = 4;
}

/// Object types (EObjectType) that carry an initializer per element.
///
/// ```
/// use shaderscope::format::fx11::{InitKind, object_type};
/// // What an object variable of each type is initialised with.
/// assert_eq!(InitKind::of(object_type::SAMPLER), InitKind::StateBlock);
/// assert_eq!(InitKind::of(object_type::PIXEL_SHADER_5), InitKind::Shader5);
/// assert_eq!(InitKind::of(object_type::VERTEX_SHADER), InitKind::Shader);
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub mod object_type {
    /// `String`.
    pub const STRING: u32 = 1;
    /// `BlendState`.
    pub const BLEND: u32 = 2;
    /// `DepthStencilState`.
    pub const DEPTH_STENCIL: u32 = 3;
    /// `RasterizerState`.
    pub const RASTERIZER: u32 = 4;
    /// `PixelShader` (fx_4).
    pub const PIXEL_SHADER: u32 = 5;
    /// `VertexShader` (fx_4).
    pub const VERTEX_SHADER: u32 = 6;
    /// `GeometryShader` (fx_4).
    pub const GEOMETRY_SHADER: u32 = 7;
    /// A geometry shader with stream output (fx_4).
    pub const GEOMETRY_SHADER_SO: u32 = 8;
    /// `SamplerState`.
    pub const SAMPLER: u32 = 0x15;
    /// `PixelShader` (fx_5).
    pub const PIXEL_SHADER_5: u32 = 0x19;
    /// `ComputeShader`, the last fx_5 shader type after the pixel, vertex, geometry, hull and
    /// domain shaders.
    pub const COMPUTE_SHADER_5: u32 = 0x1c;
    /// `DomainShader` (fx_5), the last shader type.
    pub const DOMAIN_SHADER_5: u32 = 0x1e;
}

/// The type names fxc gives each object type (EObjectType), for text.
pub fn object_type_name(t: u32) -> &'static str {
    const NAMES: [&str; 0x2d] = [
        "invalid",
        "String",
        "BlendState",
        "DepthStencilState",
        "RasterizerState",
        "PixelShader",
        "VertexShader",
        "GeometryShader",
        "GeometryShader (stream output)",
        "Texture",
        "Buffer",
        "Texture1D",
        "Texture1DArray",
        "Texture2D",
        "Texture2DArray",
        "Texture2DMS",
        "Texture2DMSArray",
        "Texture3D",
        "TextureCube",
        "ConstantBuffer",
        "RenderTargetView",
        "DepthStencilView",
        "SamplerState",
        "Buffer",
        "TextureCubeArray",
        "PixelShader",
        "VertexShader",
        "GeometryShader",
        "ComputeShader",
        "HullShader",
        "DomainShader",
        "RWTexture1D",
        "RWTexture1DArray",
        "RWTexture2D",
        "RWTexture2DArray",
        "RWTexture3D",
        "RWBuffer",
        "ByteAddressBuffer",
        "RWByteAddressBuffer",
        "StructuredBuffer",
        "RWStructuredBuffer",
        "AppendStructuredBuffer",
        "ConsumeStructuredBuffer",
        "unknown",
        "unknown",
    ];
    NAMES.get(t as usize).copied().unwrap_or("unknown")
}

/// What an object type's initializer is, per element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitKind {
    /// None (textures, views, buffers, UAVs).
    None,
    /// A string offset.
    String,
    /// A state block: a count and that many assignments.
    StateBlock,
    /// An fx_4 shader: a shader block offset.
    Shader,
    /// An fx_4 geometry shader with stream output: SBinaryGSSOInitializer.
    GsSo,
    /// An fx_5 shader: SBinaryShaderData5.
    Shader5,
}

impl InitKind {
    /// The initializer kind of object type `t`.
    pub fn of(t: u32) -> InitKind {
        use object_type::*;
        match t {
            STRING => InitKind::String,
            BLEND | DEPTH_STENCIL | RASTERIZER | SAMPLER => InitKind::StateBlock,
            PIXEL_SHADER | VERTEX_SHADER | GEOMETRY_SHADER => InitKind::Shader,
            GEOMETRY_SHADER_SO => InitKind::GsSo,
            PIXEL_SHADER_5..=DOMAIN_SHADER_5 => InitKind::Shader5,
            _ => InitKind::None,
        }
    }
}

/// A type descriptor (SBinaryType) in the unstructured block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDesc {
    /// Its offset in the unstructured block.
    pub offset: u32,
    /// oTypeName.
    pub name: u32,
    /// VarType ([`var_type`]).
    pub class: u32,
    /// Elements (0: not an array).
    pub elements: u32,
    /// TotalSize (unpacked, bytes).
    pub total_size: u32,
    /// Stride.
    pub stride: u32,
    /// PackedSize: the size of a default value.
    pub packed_size: u32,
    /// Numeric: the packed description; object: the object type; struct: the member count.
    pub info: u32,
    /// A struct's members.
    pub members: Vec<Member>,
    /// fx_5 structs: oBaseClassType and the interface type offsets.
    pub class_data: Option<(u32, Vec<u32>)>,
    /// The descriptor's length in bytes.
    pub len: u32,
}

/// A struct member (SBinaryType::SBinaryMember).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// oName.
    pub name: u32,
    /// oSemantic.
    pub semantic: u32,
    /// Offset in the struct.
    pub offset: u32,
    /// oType.
    pub ty: u32,
}

/// An annotation (SBinaryAnnotation): its name, type and value words (numeric: one default
/// value offset; string: one string offset per element).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// Absolute offset of the record.
    pub at: u64,
    /// oName.
    pub name: u32,
    /// oType.
    pub ty: u32,
    /// The value words.
    pub values: Vec<u32>,
}

/// A numeric variable (SBinaryNumericVariable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumericVariable {
    /// Absolute offset of the record.
    pub at: u64,
    /// oName.
    pub name: u32,
    /// oType.
    pub ty: u32,
    /// oSemantic.
    pub semantic: u32,
    /// Offset in its constant buffer (or the bind point, with the explicit-bind flag).
    pub offset: u32,
    /// oDefaultValue (0: none).
    pub default: u32,
    /// Flags.
    pub flags: u32,
    /// Its annotations (none for a pool variable: the record has no count).
    pub annotations: Option<Vec<Annotation>>,
}

/// A constant buffer (SBinaryConstantBuffer) and its variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantBuffer {
    /// Absolute offset of the record.
    pub at: u64,
    /// oName.
    pub name: u32,
    /// Size in bytes.
    pub size: u32,
    /// Flags (bit 0: tbuffer; bit 1: single).
    pub flags: u32,
    /// ExplicitBindPoint (0xffffffff: none).
    pub bind_point: u32,
    /// Its annotations (none for a pool buffer).
    pub annotations: Option<Vec<Annotation>>,
    /// Its variables (cVariables of them).
    pub variables: Vec<NumericVariable>,
    /// A shared buffer of a child effect.
    pub pool: bool,
}

/// An assignment (SBinaryAssignment) of a pass or a state block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    /// Absolute offset of the record.
    pub at: u64,
    /// iState: the index of the state in FX11's state table (the `STATES` table of `states.rs`).
    pub state: u32,
    /// Index (an array state's element).
    pub index: u32,
    /// AssignmentType (ECompilerAssignmentType).
    pub kind: u32,
    /// oInitializer.
    pub value: u32,
}

/// Assignment types (ECompilerAssignmentType).
///
/// ```
/// use shaderscope::format::fx11::{Fx11, assign, build};
/// let bytes = build::example();
/// let fx = Fx11::parse(&bytes)?;
/// // The sample's pass compiles its two shaders inline (fx_5_0's inline shaders).
/// let pass = fx.passes().next().unwrap();
/// assert_eq!(pass.assignments.len(), 2);
/// assert!(pass.assignments.iter().all(|a| a.kind == assign::INLINE_SHADER_5));
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub mod assign {
    /// Constants: u32 count, count x {type, value}.
    pub const CONSTANT: u32 = 1;
    /// A variable, by name.
    pub const VARIABLE: u32 = 2;
    /// An array element at a constant index: {oArrayName, index}.
    pub const CONSTANT_INDEX: u32 = 3;
    /// An array element at a variable index: {oArrayName, oIndexVarName}.
    pub const VARIABLE_INDEX: u32 = 4;
    /// An array element at a computed index: {oArrayName, oCode}.
    pub const EXPRESSION_INDEX: u32 = 5;
    /// An expression: a data block of FXLVM code.
    pub const EXPRESSION: u32 = 6;
    /// An inline fx_4 shader: {oShader, oSODecl}.
    pub const INLINE_SHADER: u32 = 7;
    /// An inline fx_5 shader: SBinaryShaderData5.
    pub const INLINE_SHADER_5: u32 = 8;
}

/// One element's initializer of an object variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Initializer {
    /// A string offset.
    String(u32),
    /// A state block.
    StateBlock(Vec<Assignment>),
    /// An fx_4 shader block offset.
    Shader(u32),
    /// An fx_4 geometry shader with stream output: {oShader, oSODecl}.
    GsSo(u32, u32),
    /// An fx_5 shader.
    Shader5(Shader5),
}

/// SBinaryShaderData5: an fx_5 shader, its stream output and interface bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shader5 {
    /// oShader.
    pub shader: u32,
    /// oSODecls.
    pub so_decls: [u32; 4],
    /// cSODecls.
    pub so_count: u32,
    /// RasterizedStream.
    pub rasterized_stream: u32,
    /// cInterfaceBindings.
    pub interface_count: u32,
    /// oInterfaceBindings.
    pub interfaces: u32,
}

impl Shader5 {
    /// The nine words.
    pub fn words(&self) -> [u32; 9] {
        let s = &self.so_decls;
        [
            self.shader,
            s[0],
            s[1],
            s[2],
            s[3],
            self.so_count,
            self.rasterized_stream,
            self.interface_count,
            self.interfaces,
        ]
    }

    pub(crate) fn from_words(w: [u32; 9]) -> Self {
        let [shader, s0, s1, s2, s3, so_count, rasterized_stream, interface_count, interfaces] = w;
        Shader5 {
            shader,
            so_decls: [s0, s1, s2, s3],
            so_count,
            rasterized_stream,
            interface_count,
            interfaces,
        }
    }
}

/// An object variable (SBinaryObjectVariable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectVariable {
    /// Absolute offset of the record.
    pub at: u64,
    /// oName.
    pub name: u32,
    /// oType.
    pub ty: u32,
    /// oSemantic.
    pub semantic: u32,
    /// ExplicitBindPoint.
    pub bind_point: u32,
    /// Its object type (from its type descriptor).
    pub object_type: u32,
    /// One initializer per element (none for types without, and for pool objects), each with
    /// its absolute offset.
    pub initializers: Vec<(u64, Initializer)>,
    /// Its annotations (none for a pool object).
    pub annotations: Option<Vec<Annotation>>,
    /// A shared object of a child effect.
    pub pool: bool,
}

/// An interface variable (SBinaryInterfaceVariable, fx_5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceVariable {
    /// Absolute offset of the record.
    pub at: u64,
    /// oName.
    pub name: u32,
    /// oType.
    pub ty: u32,
    /// oDefaultValue (SBinaryInterfaceInitializer per element).
    pub default: u32,
    /// Flags.
    pub flags: u32,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
}

/// A pass (SBinaryPass).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pass {
    /// Absolute offset of the record.
    pub at: u64,
    /// oName.
    pub name: u32,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
    /// Its assignments.
    pub assignments: Vec<Assignment>,
}

/// A technique (SBinaryTechnique).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Technique {
    /// Absolute offset of the record.
    pub at: u64,
    /// oName.
    pub name: u32,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
    /// Its passes.
    pub passes: Vec<Pass>,
}

/// A group (SBinaryGroup, fx_5); fx_4's techniques sit in one group without a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Absolute offset of the record (none: fx_4's techniques).
    pub at: Option<u64>,
    /// oName.
    pub name: u32,
    /// Its annotations.
    pub annotations: Vec<Annotation>,
    /// Its techniques.
    pub techniques: Vec<Technique>,
}

/// A shader block: a u32 size and a whole DXBC shader, in the unstructured block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShaderBlock<'a> {
    /// Its offset in the unstructured block (what records point to).
    pub offset: u32,
    /// Absolute offset of its size word.
    pub at: u64,
    /// The shader's bytes.
    pub bytes: &'a [u8],
}

impl ShaderBlock<'_> {
    /// Absolute offset of the shader's first byte.
    pub fn data_offset(&self) -> u64 {
        self.at + 4
    }
}

/// A parsed effect.
#[derive(Debug, Clone)]
pub struct Fx11<'a> {
    /// The whole input.
    data: &'a [u8],
    /// The effect blob.
    blob: &'a [u8],
    /// fx_4_x's outer DXBC container (the effect blob is its FX10 chunk).
    pub container: Option<Box<Dxbc<'a>>>,
    /// Absolute offset of the effect blob.
    pub base: u64,
    /// The header words (19 or 24), the tag first.
    pub header: Vec<u32>,
    /// The unstructured block.
    pub unstructured: &'a [u8],
    /// Constant buffers, the pool ones last.
    pub cbuffers: Vec<ConstantBuffer>,
    /// Object variables, the pool ones last.
    pub objects: Vec<ObjectVariable>,
    /// Interface variables (fx_5).
    pub interfaces: Vec<InterfaceVariable>,
    /// Groups (fx_4: one, without a record).
    pub groups: Vec<Group>,
    /// The shader blocks any record points to, in file order: `shader0`, `shader1`, …
    pub shaders: Vec<ShaderBlock<'a>>,
    /// Bytes of the blob after the structured block.
    pub trailing: &'a [u8],
    /// The counts the header holds but the structured block does not follow (numeric
    /// variables, pool numeric variables, fx_5's techniques), as the model had them when read:
    /// the writer moves the stored counts by what an edit changed.
    read_counts: [u32; 3],
}

/// The little-endian u32 of four bytes (0 for fewer: callers hand it whole words).
fn word(b: &[u8]) -> u32 {
    b.try_into().map(u32::from_le_bytes).unwrap_or(0)
}

/// The first `N` little-endian words of `b` (zeros past its end).
fn words_of<const N: usize>(b: &[u8]) -> [u32; N] {
    let mut w = [0u32; N];
    for (x, c) in w.iter_mut().zip(b.chunks_exact(4)) {
        *x = word(c);
    }
    w
}

/// Reads the structured block in order.
struct Parser<'a, 'r> {
    r: Reader<'a>,
    fx: &'r Fx11<'a>,
}

impl<'a> Fx11<'a> {
    /// Parse an effect: an fx_4_x DXBC container of one FX10 chunk, or a bare effect blob.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        if data.get(..4) == Some(b"DXBC") {
            let dxbc = Dxbc::parse(data)?;
            let chunk = match dxbc.chunks() {
                [c] if &c.fourcc.0 == b"FX10" => *c,
                _ => {
                    return Err(Error::invalid(
                        0,
                        "effect container",
                        "a DXBC container is an effect when its one chunk is FX10",
                    ));
                }
            };
            let base = chunk.data_offset() as u64;
            let mut fx = Self::parse_blob(data, chunk.data, base)?;
            fx.container = Some(Box::new(dxbc));
            Ok(fx)
        } else {
            Self::parse_blob(data, data, 0)
        }
    }

    /// The blob `blob`, found at absolute `base` in `data`.
    fn parse_blob(data: &'a [u8], blob: &'a [u8], base: u64) -> Result<Self> {
        let r = Reader::with_base(blob, base, Endian::Little);
        let tag = r.u32_at(0, "effect header")?;
        let words = match tag {
            TAG_FX_4_0 | TAG_FX_4_1 => FX4_WORDS,
            TAG_FX_5_0 => FX5_WORDS,
            _ => {
                return Err(Error::invalid(
                    base,
                    "effect header",
                    format!("tag 0x{tag:08x} is none of fx_4_0, fx_4_1, fx_5_0"),
                ));
            }
        };
        let head = r.bytes_at(0, words * 4, "effect header")?;
        let header: Vec<u32> = head.chunks_exact(4).map(word).collect();
        let size = header.get(8).copied().unwrap_or(0);
        let ustart = words * 4;
        let urange = crate::toolkit::checked_range(
            blob.len(),
            ustart as u64,
            u64::from(size),
            base,
            "unstructured block",
            base + 32,
        )?;
        let unstructured = blob.get(urange.clone()).unwrap_or(&[]);
        let mut fx = Fx11 {
            data,
            blob,
            container: None,
            base,
            header,
            unstructured,
            cbuffers: Vec::new(),
            objects: Vec::new(),
            interfaces: Vec::new(),
            groups: Vec::new(),
            shaders: Vec::new(),
            trailing: &[],
            read_counts: [0; 3],
        };
        let mut r = Reader::with_base(blob, base, Endian::Little);
        r.seek(urange.end, "structured block")?;
        let mut p = Parser { r, fx: &fx };
        let cbuffers = p.cbuffers(fx.count(1), false)?;
        let objects = p.objects(fx.count(3), false)?;
        let pool_cbuffers = p.cbuffers(fx.count(4), true)?;
        let pool_objects = p.objects(fx.count(6), true)?;
        let interfaces = if fx.is_fx5() { p.interfaces(fx.count(21))? } else { Vec::new() };
        let groups = if fx.is_fx5() {
            p.groups(fx.count(19))?
        } else {
            let mut techniques = Vec::new();
            for _ in 0..fx.count(7) {
                techniques.push(p.technique()?);
            }
            vec![Group { at: None, name: 0, annotations: Vec::new(), techniques }]
        };
        let end = p.r.position();
        fx.trailing = blob.get(end..).unwrap_or(&[]);
        fx.cbuffers = cbuffers.into_iter().chain(pool_cbuffers).collect();
        fx.objects = objects.into_iter().chain(pool_objects).collect();
        fx.interfaces = interfaces;
        fx.groups = groups;
        fx.shaders = fx.find_shaders()?;
        fx.read_counts = fx.model_counts();
        Ok(fx)
    }

    /// What the model holds of the counts [`Fx11::read_counts`] keeps.
    fn model_counts(&self) -> [u32; 3] {
        let vars = |pool: bool| -> usize {
            self.cbuffers.iter().filter(|c| c.pool == pool).map(|c| c.variables.len()).sum()
        };
        let techniques: usize = self.groups.iter().map(|g| g.techniques.len()).sum();
        [vars(false), vars(true), techniques].map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Header word `i` (0 past the header).
    pub fn count(&self, i: usize) -> u32 {
        self.header.get(i).copied().unwrap_or(0)
    }

    /// The header's tag.
    pub fn tag(&self) -> u32 {
        self.count(0)
    }

    /// Whether this is fx_5_0 (the 96-byte header, groups, interfaces).
    pub fn is_fx5(&self) -> bool {
        self.tag() == TAG_FX_5_0
    }

    /// `fx_4_0`, `fx_4_1` or `fx_5_0`.
    pub fn profile(&self) -> &'static str {
        match self.tag() {
            TAG_FX_4_0 => "fx_4_0",
            TAG_FX_4_1 => "fx_4_1",
            _ => "fx_5_0",
        }
    }

    /// The whole input.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The effect blob (for fx_4_x the FX10 chunk's data).
    pub fn blob(&self) -> &'a [u8] {
        self.blob
    }

    /// Absolute offset of the unstructured block.
    pub fn unstructured_at(&self) -> u64 {
        self.base + self.header.len() as u64 * 4
    }

    /// Absolute offset of unstructured offset `o`.
    pub fn abs(&self, o: u32) -> u64 {
        self.unstructured_at() + u64::from(o)
    }

    /// The unstructured block as a reader with absolute offsets.
    pub fn ureader(&self) -> Reader<'a> {
        Reader::with_base(self.unstructured, self.unstructured_at(), Endian::Little)
    }

    /// The string at unstructured offset `o` (`field_at`: the absolute offset of the field
    /// that holds it).
    pub fn string(&self, o: u32, what: &'static str, field_at: u64) -> Result<&'a [u8]> {
        let r = self.ureader();
        if o as usize >= self.unstructured.len() {
            return Err(self.outside(o, 1, what, field_at));
        }
        r.cstr_at(o as usize, what).map(|s| s.bytes)
    }

    /// The string at `o` as text (lossy), empty where it does not read.
    pub fn text(&self, o: u32) -> String {
        self.string(o, "string", 0).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default()
    }

    /// `len` bytes at unstructured offset `o`.
    pub fn ubytes(&self, o: u32, len: u64, what: &'static str, field_at: u64) -> Result<&'a [u8]> {
        let r = crate::toolkit::checked_range(
            self.unstructured.len(),
            u64::from(o),
            len,
            self.unstructured_at(),
            what,
            field_at,
        )?;
        Ok(self.unstructured.get(r).unwrap_or(&[]))
    }

    /// The u32 at unstructured offset `o`.
    pub fn uword(&self, o: u32, what: &'static str, field_at: u64) -> Result<u32> {
        self.ubytes(o, 4, what, field_at).map(word)
    }

    /// `N` u32 words at unstructured offset `o`.
    pub fn uarr<const N: usize>(&self, o: u32, what: &'static str, field_at: u64) -> Result<[u32; N]> {
        let b = self.ubytes(o, 4 * N as u64, what, field_at)?;
        Ok(words_of(b))
    }

    /// `n` u32 words at unstructured offset `o` (`n` checked against the block first).
    pub fn uwords(&self, o: u32, n: u32, what: &'static str, field_at: u64) -> Result<Vec<u32>> {
        let b = self.ubytes(o, u64::from(n) * 4, what, field_at)?;
        Ok(b.chunks_exact(4).map(word).collect())
    }

    fn outside(&self, o: u32, len: u64, what: &'static str, field_at: u64) -> Error {
        Error::out_of_bounds(
            field_at,
            what,
            self.abs(o),
            len,
            self.unstructured_at() + self.unstructured.len() as u64,
        )
    }

    /// The type descriptor at unstructured offset `o` (members read `depth` levels deep).
    pub fn type_at(&self, o: u32, field_at: u64) -> Result<TypeDesc> {
        self.type_depth(o, field_at, 0)
    }

    fn type_depth(&self, o: u32, field_at: u64, depth: usize) -> Result<TypeDesc> {
        let [name, class, elements, total_size, stride, packed_size, info] =
            self.uarr::<7>(o, "type descriptor", field_at)?;
        let mut t = TypeDesc {
            offset: o,
            name,
            class,
            elements,
            total_size,
            stride,
            packed_size,
            info,
            members: Vec::new(),
            class_data: None,
            len: 28,
        };
        match t.class {
            var_type::NUMERIC | var_type::OBJECT => {}
            var_type::INTERFACE => {
                t.info = 0;
                t.len = 24;
            }
            var_type::STRUCT => {
                if depth >= MAX_TYPE_DEPTH {
                    return Err(Error::invalid(self.abs(o), "type descriptor", "structs nest too deep"));
                }
                let at = o.saturating_add(28);
                let words = self.uwords(at, t.info.saturating_mul(4), "struct members", self.abs(o) + 24)?;
                for m in words.chunks_exact(4) {
                    if let &[name, semantic, offset, ty] = m {
                        t.members.push(Member { name, semantic, offset, ty });
                    }
                }
                // The members read, so these sizes lie inside the block.
                t.len = t.info.saturating_mul(16).saturating_add(28);
                if self.is_fx5() {
                    let at = o.saturating_add(t.len);
                    let [base, count] = self.uarr::<2>(at, "struct class data", self.abs(o))?;
                    let list =
                        self.uwords(at.saturating_add(8), count, "struct interfaces", self.abs(at) + 4)?;
                    t.len = t.len.saturating_add(8).saturating_add(count.saturating_mul(4));
                    t.class_data = Some((base, list));
                }
            }
            other => {
                return Err(Error::invalid(
                    self.abs(o) + 4,
                    "type descriptor",
                    format!(
                        "variable class {other} is none of 1 (numeric), 2 (object), 3 (struct), 4 (interface)"
                    ),
                ));
            }
        }
        Ok(t)
    }

    /// Every shader block a record points to, in file order, each once.
    fn find_shaders(&self) -> Result<Vec<ShaderBlock<'a>>> {
        let mut offsets: Vec<(u32, u64)> = Vec::new();
        for v in &self.objects {
            for (at, init) in &v.initializers {
                match init {
                    Initializer::Shader(o) | Initializer::GsSo(o, _) => offsets.push((*o, *at)),
                    Initializer::Shader5(s) => offsets.push((s.shader, *at)),
                    _ => {}
                }
                if let Initializer::StateBlock(list) = init {
                    for a in list {
                        self.assignment_shader(a, &mut offsets)?;
                    }
                }
            }
        }
        for a in self.passes().flat_map(|p| &p.assignments) {
            self.assignment_shader(a, &mut offsets)?;
        }
        offsets.retain(|(o, _)| *o != 0);
        offsets.sort_unstable();
        offsets.dedup_by_key(|(o, _)| *o);
        let mut out = Vec::with_capacity(offsets.len());
        for (o, field_at) in offsets {
            let size = self.uword(o, "shader block", field_at)?;
            let bytes = self.ubytes(o.saturating_add(4), u64::from(size), "shader block", self.abs(o))?;
            out.push(ShaderBlock { offset: o, at: self.abs(o), bytes });
        }
        Ok(out)
    }

    /// The shader an inline-shader assignment points to.
    fn assignment_shader(&self, a: &Assignment, out: &mut Vec<(u32, u64)>) -> Result<()> {
        if matches!(a.kind, assign::INLINE_SHADER | assign::INLINE_SHADER_5) {
            let o = self.uword(a.value, "inline shader", a.at + 12)?;
            out.push((o, self.abs(a.value)));
        }
        Ok(())
    }

    /// Every pass, in file order.
    pub fn passes(&self) -> impl Iterator<Item = &Pass> {
        self.groups.iter().flat_map(|g| &g.techniques).flat_map(|t| &t.passes)
    }

    /// The index of the shader block at unstructured offset `o` (`shaderN`).
    pub fn shader_index(&self, o: u32) -> Option<usize> {
        self.shaders.binary_search_by_key(&o, |s| s.offset).ok()
    }

    /// The shader block offset an assignment binds, where it binds one inline.
    pub fn inline_shader(&self, a: &Assignment) -> Option<u32> {
        match a.kind {
            assign::INLINE_SHADER | assign::INLINE_SHADER_5 => {
                self.uword(a.value, "inline shader", a.at).ok()
            }
            _ => None,
        }
    }
}

impl<'a> Parser<'a, '_> {
    fn word(&mut self, what: &'static str) -> Result<u32> {
        self.r.u32(what)
    }

    fn words<const N: usize>(&mut self, what: &'static str) -> Result<(u64, [u32; N])> {
        let at = self.r.original_position();
        let b = self.r.bytes(N * 4, what)?;
        Ok((at, words_of(b)))
    }

    fn annotations(&mut self) -> Result<Vec<Annotation>> {
        let count = self.word("annotation count")?;
        let mut out = Vec::new();
        for _ in 0..count {
            let (at, [name, ty]) = self.words::<2>("annotation")?;
            let t = self.fx.type_at(ty, at + 4)?;
            let n = match (t.class, t.info) {
                (var_type::NUMERIC, _) => 1,
                (var_type::OBJECT, object_type::STRING) => t.elements.max(1),
                _ => {
                    return Err(Error::invalid(
                        at + 4,
                        "annotation",
                        "an annotation's type is neither numeric nor string",
                    ));
                }
            };
            // Each value word is read, so the count is bounded by the bytes left.
            let mut values = Vec::new();
            for _ in 0..n {
                values.push(self.word("annotation value")?);
            }
            out.push(Annotation { at, name, ty, values });
        }
        Ok(out)
    }

    fn cbuffers(&mut self, count: u32, pool: bool) -> Result<Vec<ConstantBuffer>> {
        let mut out = Vec::new();
        for _ in 0..count {
            let (at, [name, size, flags, n, bind_point]) = self.words::<5>("constant buffer")?;
            let annotations = if pool { None } else { Some(self.annotations()?) };
            let mut variables = Vec::new();
            for _ in 0..n {
                let (vat, [name, ty, semantic, offset, default, flags]) =
                    self.words::<6>("numeric variable")?;
                let annotations = if pool { None } else { Some(self.annotations()?) };
                variables.push(NumericVariable {
                    at: vat,
                    name,
                    ty,
                    semantic,
                    offset,
                    default,
                    flags,
                    annotations,
                });
            }
            out.push(ConstantBuffer { at, name, size, flags, bind_point, annotations, variables, pool });
        }
        Ok(out)
    }

    fn objects(&mut self, count: u32, pool: bool) -> Result<Vec<ObjectVariable>> {
        let mut out = Vec::new();
        for _ in 0..count {
            let (at, [name, ty, semantic, bind_point]) = self.words::<4>("object variable")?;
            let t = self.fx.type_at(ty, at + 4)?;
            if t.class != var_type::OBJECT {
                return Err(Error::invalid(
                    at + 4,
                    "object variable",
                    format!("its type's class is {}, not 2 (object)", t.class),
                ));
            }
            let mut initializers = Vec::new();
            let kind = InitKind::of(t.info);
            if !pool && kind != InitKind::None {
                // Every element's initializer reads bytes, so the element count is bounded.
                for _ in 0..t.elements.max(1) {
                    let iat = self.r.original_position();
                    let init = match kind {
                        InitKind::String => Initializer::String(self.word("string initializer")?),
                        InitKind::Shader => Initializer::Shader(self.word("shader initializer")?),
                        InitKind::GsSo => {
                            let (_, [s, so]) = self.words::<2>("stream-output shader initializer")?;
                            Initializer::GsSo(s, so)
                        }
                        InitKind::Shader5 => {
                            let (_, w) = self.words::<9>("shader initializer (SBinaryShaderData5)")?;
                            Initializer::Shader5(Shader5::from_words(w))
                        }
                        InitKind::StateBlock => Initializer::StateBlock(self.assignments()?),
                        InitKind::None => continue,
                    };
                    initializers.push((iat, init));
                }
            }
            let annotations = if pool { None } else { Some(self.annotations()?) };
            out.push(ObjectVariable {
                at,
                name,
                ty,
                semantic,
                bind_point,
                object_type: t.info,
                initializers,
                annotations,
                pool,
            });
        }
        Ok(out)
    }

    fn assignments(&mut self) -> Result<Vec<Assignment>> {
        let count = self.word("assignment count")?;
        self.assignment_list(count)
    }

    fn assignment_list(&mut self, count: u32) -> Result<Vec<Assignment>> {
        let mut out = Vec::new();
        for _ in 0..count {
            let (at, [state, index, kind, value]) = self.words::<4>("assignment")?;
            out.push(Assignment { at, state, index, kind, value });
        }
        Ok(out)
    }

    fn interfaces(&mut self, count: u32) -> Result<Vec<InterfaceVariable>> {
        let mut out = Vec::new();
        for _ in 0..count {
            let (at, [name, ty, default, flags]) = self.words::<4>("interface variable")?;
            let annotations = self.annotations()?;
            out.push(InterfaceVariable { at, name, ty, default, flags, annotations });
        }
        Ok(out)
    }

    fn groups(&mut self, count: u32) -> Result<Vec<Group>> {
        let mut out = Vec::new();
        for _ in 0..count {
            let (at, [name, n]) = self.words::<2>("group")?;
            let annotations = self.annotations()?;
            let mut techniques = Vec::new();
            for _ in 0..n {
                techniques.push(self.technique()?);
            }
            out.push(Group { at: Some(at), name, annotations, techniques });
        }
        Ok(out)
    }

    fn technique(&mut self) -> Result<Technique> {
        let (at, [name, n]) = self.words::<2>("technique")?;
        let annotations = self.annotations()?;
        let mut passes = Vec::new();
        for _ in 0..n {
            let (pat, [pname, count]) = self.words::<2>("pass")?;
            let annotations = self.annotations()?;
            let assignments = self.assignment_list(count)?;
            passes.push(Pass { at: pat, name: pname, annotations, assignments });
        }
        Ok(Technique { at, name, annotations, passes })
    }
}
