//! `info` (text and JSON) and `disasm --json` for DXBC.
//!
//! Both forms of `info` come from one value, [`Info`]: the JSON is that value serialised, the
//! text is the same facts written for people, so the two cannot disagree.

use super::chunks::{FEATURE_FLAGS, RootSignature, STAT_FIELDS};
use super::dxc_info::{CompilerVersionInfo, DebugNameInfo, PsvInfo, RdatInfo, ShaderHashInfo};
use super::dxil::DxilProgram;
use super::hash::Hashes;
use super::rdef::{Rdef, Type};
use super::reflect::{self, flag_names};
use super::signature::{Signature, SignatureKind, format_name, mask_text, system_value_name};
use super::{Dxbc, Generation, GenerationSource, checksum};
use crate::error::Result;
use crate::json::{DisasmSink, Program as JsonProgram};
use crate::model::{DisasmOptions, Stage};
use crate::print::count;
use serde::Serialize;
use serde_json::{Map, Value};
use std::cell::Cell;

/// The container checksum and whether it holds.
#[derive(Debug, Serialize)]
struct Checksum {
    status: &'static str,
    stored: String,
    computed: String,
}

/// The fxc generation whose listing applies, and why.
#[derive(Debug, Serialize)]
struct Fxc {
    generation: Generation,
    source: GenerationSource,
}

#[derive(Debug, Serialize)]
struct ChunkInfo {
    index: usize,
    /// The earlier chunk whose offset this entry repeats.
    #[serde(skip_serializing_if = "Option::is_none")]
    same_as: Option<usize>,
    fourcc: String,
    /// The chunk header (its FourCC).
    offset: usize,
    /// The payload, after the 8-byte header.
    data_offset: usize,
    size: usize,
    description: &'static str,
}

/// The chunk index's entries as `info` gives them, each made as it is written: an index may
/// name one chunk a million times (4 MB of index; 130 MB of entries held at once).
#[derive(Debug)]
struct Chunks<'a> {
    d: &'a Dxbc<'a>,
    /// [`super::container::Frame::repeats`], worked out once.
    repeats: Vec<Option<usize>>,
}

impl Chunks<'_> {
    fn iter(&self) -> impl Iterator<Item = ChunkInfo> + '_ {
        self.d.frame.chunks.iter().enumerate().zip(&self.repeats).map(|((index, c), same_as)| ChunkInfo {
            index,
            same_as: *same_as,
            fourcc: c.fourcc.name(),
            offset: c.offset,
            data_offset: c.data_offset(),
            size: c.data.len(),
            description: self.d.chunk_description(&c.fourcc.0),
        })
    }
}

impl Serialize for Chunks<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[derive(Debug, Serialize)]
struct ProgramInfo {
    chunk: String,
    stage: Stage,
    model: String,
    major: u8,
    minor: u8,
    tokens: u32,
    offset: usize,
    size: usize,
}

#[derive(Debug, Serialize)]
struct DxilInfo {
    chunk: String,
    /// The part `extract` gives its bitcode as.
    part: &'static str,
    stage: &'static str,
    model: String,
    major: u8,
    minor: u8,
    program_version: u32,
    offset: usize,
    size_in_dwords: u32,
    dxil_version: String,
    bitcode_header_offset: usize,
    bitcode_offset_field: u32,
    bitcode_offset: usize,
    bitcode_size: u32,
}

impl DxilInfo {
    /// Two lines: the program header (after `label`) and where the bitcode is.
    fn text(&self, label: &str, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        writeln!(
            s,
            "{label} DXIL {} ({} shader) in {}: program header at 0x{:x}, {}",
            self.model,
            self.stage,
            self.chunk,
            self.offset,
            count(self.size_in_dwords, "dword")
        )?;
        writeln!(
            s,
            "{:width$} DXIL version {}, bitcode header at 0x{:x}; bitcode at 0x{:x} (header + {}), {} (part `{}`)",
            "",
            self.dxil_version,
            self.bitcode_header_offset,
            self.bitcode_offset,
            self.bitcode_offset_field,
            count(self.bitcode_size, "byte"),
            self.part,
            width = label.len()
        )
    }

    fn new(p: &DxilProgram<'_>, part: &'static str) -> Self {
        DxilInfo {
            chunk: p.chunk.fourcc.name(),
            part,
            stage: p.kind.name(),
            model: p.model(),
            major: p.major,
            minor: p.minor,
            program_version: p.program_version,
            offset: p.position(),
            size_in_dwords: p.size_in_dwords,
            dxil_version: p.dxil_version_text(),
            bitcode_header_offset: p.bitcode_header_position(),
            bitcode_offset_field: p.bitcode_offset,
            bitcode_offset: p.bitcode_position(),
            bitcode_size: p.bitcode_size,
        }
    }
}

#[derive(Debug, Serialize)]
struct DeclarationsInfo {
    global_flags: u32,
    temp_registers: u32,
    thread_group: Option<[u32; 3]>,
    gs_input_primitive: Option<u32>,
    gs_output_topology: Option<u32>,
    gs_max_output_vertices: Option<u32>,
    gs_instances: Option<u32>,
    gs_streams: Vec<u32>,
    input_control_points: Option<u32>,
    output_control_points: Option<u32>,
    tessellator_domain: Option<u32>,
    tessellator_partitioning: Option<u32>,
    tessellator_output_primitive: Option<u32>,
    hs_max_tessfactor: Option<f32>,
    immediate_constant_buffer_rows: Option<u32>,
    function_bodies: usize,
    function_tables: usize,
    interfaces: usize,
}

#[derive(Debug, Serialize)]
struct RdefInfo {
    target: String,
    program_type: u16,
    compile_flags: u32,
    layout: &'static str,
    offset: usize,
}

/// A type as the JSON gives it; `M` its members: [`Members`] for a variable's type, which
/// spells them out only as the record is written ([`NestedMembers`] below it), so that a
/// record holds no expanded tree.
#[derive(Debug, Serialize)]
struct TypeInfo<M> {
    name: String,
    class: u16,
    class_name: Option<&'static str>,
    #[serde(rename = "type")]
    ty: u16,
    type_name: Option<&'static str>,
    rows: u16,
    columns: u16,
    elements: u16,
    members: M,
    offset: usize,
}

#[derive(Debug, Serialize)]
struct MemberInfo<'c, 'a> {
    name: String,
    offset: u32,
    #[serde(rename = "type")]
    ty: Option<TypeInfo<NestedMembers<'c, 'a>>>,
}

/// The members of a variable's type, expanded when serialised: struct types reached again
/// spell out their members again (as fxc's listing does), within the RDEF's
/// [`Rdef::expansion_budget`], shared in order by the variables (`budget` is what is left of
/// it when this variable's type is written).
#[derive(Debug)]
struct Members<'a> {
    rdef: &'a Rdef<'a>,
    ty: &'a Type<'a>,
    budget: usize,
}

/// The members of a type inside a variable's type, and the budget they share.
#[derive(Debug)]
struct NestedMembers<'c, 'a> {
    rdef: &'a Rdef<'a>,
    ty: &'a Type<'a>,
    depth: usize,
    budget: &'c Cell<usize>,
}

/// Deepest struct nesting the JSON spells out, as the listing.
const MAX_EXPANSION_DEPTH: usize = 16;

/// What is left of `budget` once `ty`'s members at `depth` are spelt out (serialising them
/// spends it the same way): each struct's members are all written or, past the budget or the
/// depth, none, and the rest of the record expands nothing more.
fn expansion_left(r: &Rdef<'_>, ty: &Type<'_>, depth: usize, budget: usize) -> usize {
    match budget.checked_sub(ty.members.len()) {
        Some(mut left) if depth < MAX_EXPANSION_DEPTH => {
            for m in ty.members.iter() {
                if let Some(t) = r.ty(m.ty) {
                    left = expansion_left(r, t, depth + 1, left);
                }
            }
            left
        }
        _ => 0,
    }
}

impl Serialize for Members<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let budget = Cell::new(self.budget);
        NestedMembers { rdef: self.rdef, ty: self.ty, depth: 0, budget: &budget }.serialize(s)
    }
}

impl Serialize for NestedMembers<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let members: &[super::rdef::Member<'_>] = match self.budget.get().checked_sub(self.ty.members.len()) {
            Some(left) if self.depth < MAX_EXPANSION_DEPTH => {
                self.budget.set(left);
                &self.ty.members
            }
            _ => {
                self.budget.set(0);
                &[]
            }
        };
        let mut seq = s.serialize_seq(Some(members.len()))?;
        for m in members {
            seq.serialize_element(&MemberInfo {
                name: m.name.text().into_owned(),
                offset: m.start,
                ty: self.rdef.ty(m.ty).map(|t| {
                    let nested =
                        NestedMembers { rdef: self.rdef, ty: t, depth: self.depth + 1, budget: self.budget };
                    type_info(t, nested)
                }),
            })?;
        }
        seq.end()
    }
}

#[derive(Debug, Serialize)]
struct VariableInfo<'a> {
    name: String,
    start_offset: u32,
    size: u32,
    flags: u32,
    flag_names: Vec<&'static str>,
    used: bool,
    default_value: Option<Vec<u32>>,
    texture_sampler: Option<[u32; 4]>,
    offset: usize,
    #[serde(rename = "type")]
    ty: Option<TypeInfo<Members<'a>>>,
}

#[derive(Debug, Serialize)]
struct ConstantBufferInfo<'a> {
    name: String,
    #[serde(rename = "type")]
    kind: u32,
    type_name: Option<&'static str>,
    size: u32,
    flags: u32,
    flag_names: Vec<&'static str>,
    offset: usize,
    variables: Vec<VariableInfo<'a>>,
}

#[derive(Debug, Serialize)]
struct BindingInfo {
    name: String,
    input_type: u32,
    input_type_name: Option<&'static str>,
    return_type: u32,
    return_type_name: Option<&'static str>,
    dimension: u32,
    dimension_name: Option<&'static str>,
    num_samples: u32,
    bind_point: u32,
    bind_count: u32,
    /// The first register as fxc's "HLSL Bind" column names it (`t0`, `cb2`, `s1`, `u3`).
    register: String,
    flags: u32,
    flag_names: Vec<&'static str>,
    space: Option<u32>,
    id: Option<u32>,
    offset: usize,
}

#[derive(Debug, Serialize)]
struct SignatureInfo {
    kind: SignatureKind,
    chunk: String,
    offset: usize,
    elements: Vec<ElementInfo>,
}

#[derive(Debug, Serialize)]
struct ElementInfo {
    semantic_name: String,
    semantic_index: u32,
    register: u32,
    system_value: &'static str,
    system_value_id: u32,
    system_value_name: Option<&'static str>,
    component_type: &'static str,
    component_type_name: Option<&'static str>,
    mask: u8,
    read_write_mask: u8,
    stream: u32,
    min_precision: u32,
    min_precision_name: Option<&'static str>,
    offset: usize,
}

#[derive(Debug, Serialize)]
struct FeaturesInfo {
    flags: u64,
    names: Vec<String>,
    offset: usize,
}

#[derive(Debug, Serialize)]
struct ClassTypeInfo {
    name: String,
    id: u16,
    cb_stride: u16,
    texture: u16,
    sampler: u16,
}

#[derive(Debug, Serialize)]
struct ClassInstanceInfo {
    name: String,
    #[serde(rename = "type")]
    ty: u16,
    cb: u16,
    cb_offset: u16,
    texture: u16,
    sampler: u16,
}

#[derive(Debug, Serialize)]
struct SlotInfo {
    span: u32,
    type_ids: Vec<u16>,
    table_ids: Vec<u32>,
}

#[derive(Debug, Serialize)]
struct ClassLinkageInfo {
    interface_slots: u32,
    class_types: Vec<ClassTypeInfo>,
    class_instances: Vec<ClassInstanceInfo>,
    slots: Vec<SlotInfo>,
    offset: usize,
}

#[derive(Debug, Serialize)]
struct CbMappingInfo {
    target: u16,
    buffer: u16,
    start: u16,
    count: u16,
}

#[derive(Debug, Serialize)]
struct SamplerMappingInfo {
    target: u8,
    sampler: u8,
    resource: u8,
}

#[derive(Debug, Serialize)]
struct RuntimeConstantInfo {
    target: u16,
    kind: u16,
}

#[derive(Debug, Serialize)]
struct Level9Info {
    version: String,
    header_version: String,
    model: Option<String>,
    program_offset: usize,
    program_size: usize,
    cb_mappings: Vec<CbMappingInfo>,
    sampler_mappings: Vec<SamplerMappingInfo>,
    runtime_constants: Vec<RuntimeConstantInfo>,
    offset: usize,
}

#[derive(Debug, Serialize)]
struct GeometryInfo {
    input_primitive: u32,
    input_primitive_name: Option<String>,
    output_topology: u32,
    output_topology_name: Option<String>,
    max_output_vertices: u32,
}

#[derive(Debug, Serialize)]
struct TessellationInfo {
    control_points: u32,
    output_primitive: u32,
    output_primitive_name: Option<&'static str>,
    partitioning: u32,
    partitioning_name: Option<&'static str>,
    domain: u32,
    domain_name: Option<&'static str>,
}

#[derive(Debug, Serialize)]
struct ChunkError {
    chunk: usize,
    offset: u64,
    message: String,
}

/// Everything `info` says about a DXBC container: the container facts and reflection as
/// complete as `ID3D11ShaderReflection` gives it.
#[derive(Debug, Serialize)]
pub struct Info<'a> {
    summary: String,
    size: usize,
    declared_size: u32,
    checksum: Checksum,
    /// The names modding tools key the shader by.
    hashes: Hashes,
    /// fxc's containers only: a DXIL container or a root signature alone is not fxc's.
    #[serde(skip_serializing_if = "Option::is_none")]
    fxc: Option<Fxc>,
    chunks: Chunks<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    program: Option<ProgramInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dxil: Option<DxilInfo>,
    /// A DXIL container's STAT: the reflection's program header.
    #[serde(skip_serializing_if = "Option::is_none")]
    reflection: Option<DxilInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    debug_name: Option<DebugNameInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shader_hash: Option<ShaderHashInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    compiler_version: Option<CompilerVersionInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    declarations: Option<DeclarationsInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    creator: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rdef: Option<RdefInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    constant_buffers: Option<Vec<ConstantBufferInfo<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bound_resources: Option<Vec<BindingInfo>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_signature: Option<SignatureInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_signature: Option<SignatureInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    patch_constant_signature: Option<SignatureInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    required_features: Option<FeaturesInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    class_linkage: Option<ClassLinkageInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level9: Option<Level9Info>,
    #[serde(skip_serializing_if = "Option::is_none")]
    root_signature: Option<&'a RootSignature>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pipeline_state_validation: Option<PsvInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    runtime_data: Option<RdatInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    geometry_shader: Option<GeometryInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tessellation: Option<TessellationInfo>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    chunk_errors: Vec<ChunkError>,
}

fn checksum_status(d: &Dxbc<'_>) -> &'static str {
    if d.checksum_ok() {
        "ok"
    } else if d.stored_checksum() == [0; 16] {
        "unsigned"
    } else {
        "bad"
    }
}

/// `ty` described, with `members` for its members.
fn type_info<M>(ty: &Type<'_>, members: M) -> TypeInfo<M> {
    let name = if ty.class == 5 {
        ty.name.map(|n| n.text().into_owned()).unwrap_or_default()
    } else {
        super::listing::type_name(ty)
    };
    TypeInfo {
        name,
        class: ty.class,
        class_name: reflect::variable_class(u32::from(ty.class)),
        ty: ty.ty,
        type_name: reflect::variable_type(u32::from(ty.ty)),
        rows: ty.rows,
        columns: ty.columns,
        elements: ty.elements,
        members,
        offset: ty.offset,
    }
}

fn signature_info(sig: &Signature<'_>, d: &Dxbc<'_>) -> SignatureInfo {
    // The chunk whose payload the signature was read from.
    let chunk = d
        .frame
        .chunks
        .iter()
        .find(|c| c.data_offset() == sig.offset)
        .map(|c| c.fourcc.name())
        .unwrap_or_default();
    let elements = sig
        .elements
        .iter()
        .map(|e| ElementInfo {
            semantic_name: e.name.text().into_owned(),
            semantic_index: e.semantic_index,
            register: e.register,
            system_value: system_value_name(e.system_value).unwrap_or("unknown"),
            system_value_id: e.system_value,
            system_value_name: reflect::system_value(e.system_value),
            component_type: format_name(e.component_type, 0),
            component_type_name: reflect::component_type(e.component_type),
            mask: e.mask,
            read_write_mask: e.rw_mask,
            stream: e.stream,
            min_precision: e.min_precision,
            min_precision_name: reflect::min_precision(e.min_precision),
            offset: e.offset,
        })
        .collect();
    SignatureInfo { kind: sig.kind, chunk, offset: sig.offset, elements }
}

impl<'a> Info<'a> {
    /// Gather what `info` says about `d`.
    pub fn new(d: &'a Dxbc<'_>) -> Self {
        let f = &d.frame;
        let (generation, source) = d.generation();
        let mut info = Info {
            summary: summary(d),
            size: f.data.len(),
            declared_size: f.header.total_size.get(),
            checksum: Checksum {
                status: checksum_status(d),
                stored: checksum::hex(&d.stored_checksum()),
                computed: checksum::hex(&d.computed_checksum()),
            },
            hashes: Hashes::of_dxbc(d.data()),
            fxc: d.is_fxc().then_some(Fxc { generation, source }),
            chunks: Chunks { d, repeats: f.repeats() },
            program: d.program.map(|p| ProgramInfo {
                chunk: p.chunk.fourcc.name(),
                stage: p.stage,
                model: p.version_text(),
                major: p.major,
                minor: p.minor,
                tokens: p.length,
                offset: p.chunk.data_offset(),
                size: p.chunk.data.len(),
            }),
            dxil: d.dxil.as_ref().map(|p| DxilInfo::new(p, "bitcode")),
            reflection: d.reflection.as_ref().map(|p| DxilInfo::new(p, super::REFLECTION_BITCODE)),
            debug_name: d.debug_name.as_ref().map(DebugNameInfo::new),
            shader_hash: d.shader_hash.as_ref().map(|h| {
                ShaderHashInfo::new(
                    h,
                    d.dxil.as_ref().filter(|p| &p.chunk.fourcc.0 == b"DXIL").map(|p| p.bitcode),
                )
            }),
            compiler_version: d.compiler_version.as_ref().map(CompilerVersionInfo::new),
            declarations: None,
            creator: d.creator(),
            rdef: None,
            constant_buffers: None,
            bound_resources: None,
            input_signature: d.input.as_ref().map(|s| signature_info(s, d)),
            output_signature: d.output.as_ref().map(|s| signature_info(s, d)),
            patch_constant_signature: d.patch_constant.as_ref().map(|s| signature_info(s, d)),
            stats: None,
            required_features: d.sfi0.as_ref().map(|sf| FeaturesInfo {
                flags: sf.flags,
                names: sf.names(),
                offset: sf.offset,
            }),
            class_linkage: None,
            level9: None,
            root_signature: d.root_signature.as_ref(),
            pipeline_state_validation: d
                .psv
                .as_ref()
                .map(|p| PsvInfo::new(p, d.dxil.as_ref().map(|x| x.kind))),
            runtime_data: d.rdat.as_ref().map(RdatInfo::new),
            geometry_shader: None,
            tessellation: None,
            chunk_errors: d
                .chunk_errors
                .iter()
                .map(|(i, e)| ChunkError { chunk: *i, offset: e.offset(), message: e.to_string() })
                .collect(),
        };
        if let Some(decl) = d.program.as_ref().and_then(super::program::declarations) {
            info.declarations = Some(DeclarationsInfo {
                global_flags: decl.global_flags,
                temp_registers: decl.phases.iter().map(|ph| ph.temps).max().unwrap_or(0),
                thread_group: decl.thread_group,
                gs_input_primitive: decl.gs_input_primitive,
                gs_output_topology: decl.gs_output_topology,
                gs_max_output_vertices: decl.gs_max_output_vertices,
                gs_instances: decl.gs_instances,
                gs_streams: decl.streams.clone(),
                input_control_points: decl.input_control_points,
                output_control_points: decl.output_control_points,
                tessellator_domain: decl.tess_domain,
                tessellator_partitioning: decl.tess_partitioning,
                tessellator_output_primitive: decl.tess_output_primitive,
                hs_max_tessfactor: decl.hs_max_tessfactor,
                immediate_constant_buffer_rows: decl.icb_rows,
                function_bodies: decl.function_bodies.len(),
                function_tables: decl.function_tables.len(),
                interfaces: decl.interfaces.len(),
            });
        }
        if let Some(r) = &d.rdef {
            info.reflection(r);
        }
        if let Some(st) = &d.stat {
            let mut m = Map::new();
            for (i, w) in st.words.iter().enumerate() {
                let name = STAT_FIELDS.get(i).map(|s| s.to_string()).unwrap_or_else(|| format!("word_{i}"));
                m.insert(name, w.into());
            }
            info.stats = Some(m);
        }
        if let Some(i) = &d.ifce {
            info.class_linkage = Some(ClassLinkageInfo {
                interface_slots: i.slot_count,
                class_types: i
                    .class_types
                    .iter()
                    .map(|t| ClassTypeInfo {
                        name: t.name.text().into_owned(),
                        id: t.id,
                        cb_stride: t.cb_stride,
                        texture: t.texture,
                        sampler: t.sampler,
                    })
                    .collect(),
                class_instances: i
                    .class_instances
                    .iter()
                    .map(|c| ClassInstanceInfo {
                        name: c.name.text().into_owned(),
                        ty: c.ty,
                        cb: c.cb,
                        cb_offset: c.cb_offset,
                        texture: c.texture,
                        sampler: c.sampler,
                    })
                    .collect(),
                slots: i
                    .slots
                    .iter()
                    .map(|s| SlotInfo {
                        span: s.span,
                        type_ids: s.type_ids.clone(),
                        table_ids: s.table_ids.clone(),
                    })
                    .collect(),
                offset: i.offset,
            });
        }
        if let Some(a) = &d.aon9 {
            let version = a.program_version();
            info.level9 = Some(Level9Info {
                version: format!("0x{version:08x}"),
                header_version: format!("0x{:08x}", a.version),
                // The name its listing's version line gives it (`ps_2_x` for level 9_3).
                model: crate::isa::d3d9::Version::from_token(version).map(|v| v.name()),
                program_offset: a.program_position(),
                program_size: a.program.len(),
                cb_mappings: a
                    .cb_mappings
                    .iter()
                    .map(|m| CbMappingInfo {
                        target: m.target,
                        buffer: m.buffer,
                        start: m.start,
                        count: m.count,
                    })
                    .collect(),
                sampler_mappings: a
                    .sampler_mappings
                    .iter()
                    .map(|m| SamplerMappingInfo {
                        target: m.target,
                        sampler: m.sampler,
                        resource: m.resource,
                    })
                    .collect(),
                runtime_constants: a
                    .runtime_constants
                    .iter()
                    .map(|c| RuntimeConstantInfo { target: c.target, kind: c.kind })
                    .collect(),
                offset: a.offset,
            });
        }
        if let (Some(st), Some(p)) = (&d.stat, &d.program) {
            match p.stage {
                Stage::Geometry => {
                    info.geometry_shader = Some(GeometryInfo {
                        input_primitive: st.get(23),
                        input_primitive_name: reflect::primitive(st.get(23)),
                        output_topology: st.get(24),
                        output_topology_name: reflect::topology(st.get(24)),
                        max_output_vertices: st.get(25),
                    });
                }
                Stage::Hull | Stage::Domain => {
                    info.tessellation = Some(TessellationInfo {
                        control_points: st.get(30),
                        output_primitive: st.get(31),
                        output_primitive_name: reflect::tessellator_output_primitive(st.get(31)),
                        partitioning: st.get(32),
                        partitioning_name: reflect::tessellator_partitioning(st.get(32)),
                        domain: st.get(33),
                        domain_name: reflect::tessellator_domain(st.get(33)),
                    });
                }
                _ => {}
            }
        }
        info
    }

    /// The RDEF parts: constant buffers, their variables and types, bindings.
    fn reflection(&mut self, r: &'a Rdef<'a>) {
        let mut budget = r.expansion_budget();
        let cbs = r
            .constant_buffers
            .iter()
            .map(|cb| {
                let variables = cb
                    .variables
                    .iter()
                    .map(|v| VariableInfo {
                        name: v.name.text().into_owned(),
                        start_offset: v.start,
                        size: v.size,
                        flags: v.flags,
                        flag_names: flag_names(v.flags, &reflect::VARIABLE_FLAGS),
                        used: v.used(),
                        default_value: v.default.map(|b| {
                            b.chunks_exact(4)
                                .filter_map(|w| <[u8; 4]>::try_from(w).ok())
                                .map(u32::from_le_bytes)
                                .collect()
                        }),
                        texture_sampler: v.texture_sampler,
                        offset: v.offset,
                        ty: r.ty(v.ty).map(|t| {
                            let members = Members { rdef: r, ty: t, budget };
                            budget = expansion_left(r, t, 0, budget);
                            type_info(t, members)
                        }),
                    })
                    .collect();
                ConstantBufferInfo {
                    name: cb.name.text().into_owned(),
                    kind: cb.kind,
                    type_name: reflect::cbuffer_type(cb.kind),
                    size: cb.size,
                    flags: cb.flags,
                    flag_names: flag_names(cb.flags, &reflect::CBUFFER_FLAGS),
                    offset: cb.offset,
                    variables,
                }
            })
            .collect();
        let binds = r
            .bindings
            .iter()
            .map(|b| BindingInfo {
                name: b.name.text().into_owned(),
                input_type: b.input_type,
                input_type_name: reflect::input_type(b.input_type),
                return_type: b.return_type,
                return_type_name: reflect::return_type(b.return_type),
                dimension: b.dimension,
                dimension_name: reflect::dimension(b.dimension),
                num_samples: b.samples,
                bind_point: b.bind_point,
                bind_count: b.bind_count,
                register: format!("{}{}", super::listing::register_prefix(b).1, b.bind_point),
                flags: b.flags,
                flag_names: flag_names(b.flags, &reflect::INPUT_FLAGS),
                space: b.space_id.map(|s| s[0]),
                id: b.space_id.map(|s| s[1]),
                offset: b.offset,
            })
            .collect();
        self.rdef = Some(RdefInfo {
            target: format!("{}.{}", r.major, r.minor),
            program_type: r.program_type,
            compile_flags: r.flags,
            layout: if r.rd11.is_some() { "RD11" } else { "SM4" },
            offset: r.offset,
        });
        self.constant_buffers = Some(cbs);
        self.bound_resources = Some(binds);
    }

    /// The same facts as text, for people.
    pub fn write_text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        writeln!(s, "format:    DXBC container")?;
        writeln!(s, "size:      {} (declared {})", count(self.size, "byte"), self.declared_size)?;
        let c = &self.checksum;
        match c.status {
            "ok" => writeln!(s, "checksum:  ok ({})", c.stored)?,
            "unsigned" => writeln!(s, "checksum:  unsigned (all zero; computed {})", c.computed)?,
            _ => writeln!(s, "checksum:  BAD (stored {}, computed {})", c.stored, c.computed)?,
        }
        let h = &self.hashes;
        let migoto = h.migoto_text();
        match &self.program {
            Some(p) => {
                writeln!(s, "3dmigoto:  {migoto} (ShaderFixes {migoto}-{}_replace.txt)", p.stage.prefix())?
            }
            None => writeln!(s, "3dmigoto:  {migoto}")?,
        }
        match h.bytecode_text() {
            Some(b) => writeln!(s, "bytecode:  {b}")?,
            None => writeln!(
                s,
                "bytecode:  none (no program or signature chunk: 3Dmigoto names it by the 3dmigoto hash)"
            )?,
        }
        if let Some(p) = &self.program {
            writeln!(
                s,
                "program:   {} ({} shader) in {}: {} at 0x{:x}, {}",
                p.model,
                p.stage.name(),
                p.chunk,
                count(p.tokens, "token"),
                p.offset,
                count(p.size, "byte")
            )?;
        }
        if let Some(x) = &self.dxil {
            x.text("program:  ", s)?;
        }
        if let Some(x) = &self.reflection {
            x.text("reflection:", s)?;
        }
        if let Some(n) = &self.debug_name {
            n.text(s)?;
        }
        if let Some(h) = &self.shader_hash {
            h.text(s)?;
        }
        if let Some(v) = &self.compiler_version {
            v.text(s)?;
        }
        if let Some(c) = &self.creator {
            writeln!(s, "creator:   {c}")?;
        }
        if let Some(fxc) = &self.fxc {
            writeln!(s, "fxc:       {} ({})", fxc.generation.name(), source_text(&fxc.source))?;
        }
        if let Some(r) = &self.rdef {
            writeln!(
                s,
                "RDEF:      target {}, program type 0x{:04x}, compile flags 0x{:x}, {} layout, at 0x{:x}",
                r.target, r.program_type, r.compile_flags, r.layout, r.offset
            )?;
        }
        if let Some(d) = &self.declarations {
            declarations_text(d, s)?;
        }
        if let Some(f) = &self.required_features {
            let names: Vec<String> = FEATURE_FLAGS
                .iter()
                .filter(|x| f.flags & x.0 != 0)
                .map(|x| x.2.to_string())
                .chain(
                    (0..64)
                        .filter(|b| {
                            f.flags & (1u64 << b) != 0 && !FEATURE_FLAGS.iter().any(|x| x.0 == 1u64 << b)
                        })
                        .map(|b| format!("bit {b}")),
                )
                .collect();
            let list = if names.is_empty() { "none".to_string() } else { names.join("; ") };
            writeln!(s, "features:  0x{:x} at 0x{:x}: {list}", f.flags, f.offset)?;
        }
        if let Some(g) = &self.geometry_shader {
            writeln!(
                s,
                "geometry:  input {}, output {}, at most {} vertices",
                g.input_primitive_name.as_deref().unwrap_or("unknown"),
                g.output_topology_name.as_deref().unwrap_or("unknown"),
                g.max_output_vertices
            )?;
        }
        if let Some(t) = &self.tessellation {
            writeln!(
                s,
                "tessellation: {} control points, domain {}, partitioning {}, output {}",
                t.control_points,
                t.domain_name.unwrap_or("unknown"),
                t.partitioning_name.unwrap_or("unknown"),
                t.output_primitive_name.unwrap_or("unknown")
            )?;
        }
        if let Some(l) = &self.level9 {
            // The header's version differs from the program's for a level 9_3 program.
            let header = if l.header_version == l.version {
                String::new()
            } else {
                format!(", Aon9 header {}", l.header_version)
            };
            writeln!(
                s,
                "level 9:   {} program ({}{header}) at 0x{:x}, {}; {} constant buffer, {} sampler, {}",
                l.model.as_deref().unwrap_or("D3D9"),
                l.version,
                l.program_offset,
                count(l.program_size, "byte"),
                l.cb_mappings.len(),
                l.sampler_mappings.len(),
                count(l.runtime_constants.len(), "runtime constant mapping")
            )?;
        }
        let n = self.chunks.repeats.len();
        writeln!(s, "chunks:    {n} {}", if n == 1 { "chunk" } else { "chunks" })?;
        for c in self.chunks.iter() {
            if let Some(k) = c.same_as {
                writeln!(
                    s,
                    "  {:>2}  {:<6} header 0x{:06x}  the same bytes as chunk {k}",
                    c.index, c.fourcc, c.offset
                )?;
                continue;
            }
            writeln!(
                s,
                "  {:>2}  {:<6} header 0x{:06x}  data 0x{:06x}  size {:>7}  {}",
                c.index, c.fourcc, c.offset, c.data_offset, c.size, c.description
            )?;
        }
        for sig in [&self.patch_constant_signature, &self.input_signature, &self.output_signature]
            .into_iter()
            .flatten()
        {
            signature_text(sig, s)?;
        }
        if let Some(cbs) = &self.constant_buffers {
            constant_buffers_text(cbs, s)?;
        }
        if let Some(b) = &self.bound_resources {
            bindings_text(b, s)?;
        }
        if let Some(cl) = &self.class_linkage {
            writeln!(
                s,
                "class linkage at 0x{:x}: {} interface slots, {} class types, {} class instances",
                cl.offset,
                cl.interface_slots,
                cl.class_types.len(),
                cl.class_instances.len()
            )?;
        }
        if let Some(rs) = self.root_signature {
            writeln!(
                s,
                "root signature at 0x{:x}: version 1.{}, flags 0x{:x}, {}, {}",
                rs.offset,
                rs.version.saturating_sub(1),
                rs.flags,
                count(rs.parameters.len(), "parameter"),
                count(rs.static_samplers.len(), "static sampler")
            )?;
            // The elements as the listing spells them.
            let mut lines = crate::print::TextBuf::default();
            if super::listing::root_signature(rs, "  ", &mut lines).is_ok() {
                s.write_str(lines.as_str())?;
            }
        }
        if let Some(p) = &self.pipeline_state_validation {
            p.text(s)?;
        }
        if let Some(r) = &self.runtime_data {
            r.text(s)?;
        }
        if let Some(st) = &self.stats {
            let set: Vec<String> = st
                .iter()
                .filter(|(_, v)| v.as_u64().is_some_and(|v| v != 0))
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            writeln!(
                s,
                "statistics: {}",
                if set.is_empty() { "all zero".to_string() } else { set.join(", ") }
            )?;
        }
        for e in &self.chunk_errors {
            writeln!(s, "error in chunk {}: {}", e.chunk, e.message)?;
        }
        Ok(())
    }
}

fn source_text(source: &GenerationSource) -> &'static str {
    match source {
        GenerationSource::RdefCreator => "from the RDEF creator",
        GenerationSource::Aon9Creator => "from the creator in the Aon9 program",
        GenerationSource::ShaderModel => "shader model 5.1 needs fxc 10",
        GenerationSource::Default => "nothing in the file tells; the default",
        GenerationSource::Option => "given with --fxc",
    }
}

fn declarations_text(d: &DeclarationsInfo, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
    if let Some([x, y, z]) = d.thread_group {
        writeln!(s, "thread group: {x}, {y}, {z}")?;
    }
    writeln!(s, "temp registers: {}", d.temp_registers)?;
    if d.global_flags != 0 {
        writeln!(s, "global flags: 0x{:x}", d.global_flags)?;
    }
    let opt = |v: Option<u32>| v.map(|v| v.to_string());
    let gs: Vec<String> = [
        ("input primitive", opt(d.gs_input_primitive)),
        ("output topology", opt(d.gs_output_topology)),
        ("max output vertices", opt(d.gs_max_output_vertices)),
        ("instances", opt(d.gs_instances)),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| format!("{k} {v}")))
    .collect();
    if !gs.is_empty() {
        writeln!(s, "geometry declarations: {}", gs.join(", "))?;
    }
    let hs: Vec<String> = [
        ("input control points", opt(d.input_control_points)),
        ("output control points", opt(d.output_control_points)),
        ("domain", opt(d.tessellator_domain)),
        ("partitioning", opt(d.tessellator_partitioning)),
        ("output primitive", opt(d.tessellator_output_primitive)),
        ("max tessfactor", d.hs_max_tessfactor.map(|f| f.to_string())),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| format!("{k} {v}")))
    .collect();
    if !hs.is_empty() {
        writeln!(s, "tessellation declarations: {}", hs.join(", "))?;
    }
    if let Some(rows) = d.immediate_constant_buffer_rows {
        writeln!(s, "immediate constant buffer: {}", count(rows, "row"))?;
    }
    if d.function_bodies + d.function_tables + d.interfaces > 0 {
        writeln!(
            s,
            "interfaces: {} function bodies, {} function tables, {} interfaces",
            d.function_bodies, d.function_tables, d.interfaces
        )?;
    }
    Ok(())
}

fn signature_text(sig: &SignatureInfo, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
    let title = match sig.kind {
        SignatureKind::Input => "input signature",
        SignatureKind::Output => "output signature",
        SignatureKind::PatchConstant => "patch constant signature",
    };
    let n = sig.elements.len();
    let word = if n == 1 { "element" } else { "elements" };
    writeln!(s, "{title} ({}, data at 0x{:x}): {n} {word}", sig.chunk, sig.offset)?;
    if sig.elements.is_empty() {
        return Ok(());
    }
    writeln!(s, "  Name                 Index   Mask Register SysValue  Format ReadWrite Stream")?;
    for e in &sig.elements {
        writeln!(
            s,
            "  {:<20} {:>5}   {} {:>8} {:>8} {:>7}      {} {:>6}",
            e.semantic_name,
            e.semantic_index,
            mask_text(e.mask),
            e.register,
            e.system_value,
            if e.min_precision != 0 { format_name(0, e.min_precision) } else { e.component_type },
            mask_text(e.read_write_mask),
            e.stream
        )?;
    }
    Ok(())
}

fn constant_buffers_text(cbs: &[ConstantBufferInfo], s: &mut dyn std::fmt::Write) -> std::fmt::Result {
    writeln!(s, "constant buffers: {}", cbs.len())?;
    for cb in cbs {
        writeln!(
            s,
            "  {} {} at 0x{:x}: {}, {} {}{}",
            cb.type_name.unwrap_or("D3D_CT_?"),
            cb.name,
            cb.offset,
            count(cb.size, "byte"),
            cb.variables.len(),
            if cb.variables.len() == 1 { "variable" } else { "variables" },
            if cb.flag_names.is_empty() {
                String::new()
            } else {
                format!(" ({})", cb.flag_names.join(" | "))
            }
        )?;
        for v in &cb.variables {
            let ty = v.ty.as_ref().map(|t| t.name.as_str()).unwrap_or("?");
            let array = match v.ty.as_ref().map(|t| t.elements) {
                Some(n) if n > 0 => format!("[{n}]"),
                _ => String::new(),
            };
            writeln!(
                s,
                "    {ty} {}{array}; offset {}, size {}{}",
                v.name,
                v.start_offset,
                v.size,
                if v.used { "" } else { ", unused" }
            )?;
        }
    }
    Ok(())
}

fn bindings_text(b: &[BindingInfo], s: &mut dyn std::fmt::Write) -> std::fmt::Result {
    writeln!(s, "bound resources: {}", b.len())?;
    for r in b {
        let space = r.space.map(|sp| format!(", space {sp}")).unwrap_or_default();
        writeln!(
            s,
            "  {}: {}, {}, {}, bind point {}, count {}{space}",
            r.name,
            r.input_type_name.unwrap_or("D3D_SIT_?"),
            r.return_type_name.unwrap_or("no return type"),
            r.dimension_name.unwrap_or("D3D_SRV_DIMENSION_?"),
            r.bind_point,
            r.bind_count
        )?;
    }
    Ok(())
}

/// The text summary.
pub fn write_info_text(d: &Dxbc<'_>, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
    Info::new(d).write_text(s)
}

/// The JSON summary, written to `out`.
pub fn write_info_json(d: &Dxbc<'_>, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    crate::json::write_info(out, &Info::new(d))
}

fn summary(d: &Dxbc<'_>) -> String {
    let prog = match (&d.program, &d.dxil) {
        (Some(p), _) => p.version_text(),
        (None, Some(x)) => format!("DXIL {}", x.model()),
        (None, None) if d.chunk(b"DXIL").is_some() => "DXIL".to_string(),
        _ => "no program".to_string(),
    };
    // A chunk reached again through a repeated offset is counted, not named again.
    let n = d.frame.chunks.len();
    let tags: Vec<String> = d
        .frame
        .chunks
        .iter()
        .zip(d.frame.repeats())
        .filter(|(_, r)| r.is_none())
        .map(|(c, _)| c.fourcc.name())
        .collect();
    let repeats = n - tags.len();
    let repeats = if repeats > 0 { format!("; {repeats} repeat an earlier one") } else { String::new() };
    let word = if n == 1 { "chunk" } else { "chunks" };
    format!("{prog}, {n} {word} ({}{repeats}), checksum {}", tags.join(","), checksum_status(d))
}

/// `disasm --json`: the listing, then the program (SM4/5, the Aon9 D3D9 program, or DXIL's
/// header) with its instruction records, and for fxc's containers the fxc generation that
/// chose the listing's form.
pub fn write_disasm_json(d: &Dxbc<'_>, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
    // A damaged part (a chunk that does not read, an instruction stream cut short) leaves the
    // listing of the rest, which is kept: the record says the file is invalid and why.
    let damage = crate::Container::damage(d);
    if let Err(e) = super::listing::write_listing(d, opts, out.listing()) {
        if !damage.contains(&e) {
            return Err(e);
        }
    }
    let ctx = super::listing::Context::of(d, opts);
    let (generation, source) = (ctx.generation, ctx.source.clone());
    if let Some(p) = &d.program {
        let program = super::program::decode(p)?;
        // The listing's own settings: each record's text is its line of the listing.
        let style = ctx.sm4_style(opts);
        out.program(
            JsonProgram::new(
                p.chunk.fourcc.name(),
                "sm4",
                p.chunk.data_offset() as u64,
                p.chunk.data.len() as u64,
            )
            .with_stage(Some(p.stage), Some(p.version_text())),
        );
        // The instructions before a damaged one.
        let records = crate::isa::sm4::each_record(&program, &style, |_, r| {
            if let Some(r) = r {
                out.instruction(r);
            }
        });
        if let Err(e) = records {
            if !damage.contains(&e) {
                return Err(e);
            }
        }
    }
    if let Some(a) = &d.aon9 {
        let at = a.program_position() as u64;
        if let Ok(program) = crate::isa::d3d9::Program::parse(a.program, at) {
            let stage = match program.version.kind {
                crate::isa::d3d9::ShaderKind::Vertex => Stage::Vertex,
                crate::isa::d3d9::ShaderKind::Pixel => Stage::Pixel,
            };
            out.program(
                JsonProgram::new("Aon9", "d3d9", at, a.program.len() as u64)
                    .with_stage(Some(stage), Some(program.version.name().to_string())),
            );
            crate::isa::d3d9::each_record(&program, &super::listing::level9_options(opts), |r| {
                out.instruction(r)
            });
        }
    }
    if let Some(x) = &d.dxil {
        let mut j =
            JsonProgram::new(x.chunk.fourcc.name(), "dxil", x.position() as u64, x.chunk.data.len() as u64);
        j.stage = Some(x.kind.name());
        j.model = Some(x.model());
        out.program(
            j.with_extra("dxil_version", x.dxil_version_text())
                .with_extra("bitcode_offset", x.bitcode_position())
                .with_extra("bitcode_size", x.bitcode_size),
        );
    }
    // A DXIL container's listing or a root signature's is not fxc's.
    if d.is_fxc() {
        out.extra("fxc", serde_json::to_value(Fxc { generation, source }).unwrap_or(Value::Null));
    }
    Ok(())
}
