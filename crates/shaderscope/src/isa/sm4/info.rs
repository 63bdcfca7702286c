//! What a program declares, gathered in one pass: register counts, inputs and outputs,
//! resource bindings, thread-group size, geometry/hull/domain parameters. Reflection and
//! validation read this instead of walking the declarations themselves.
//!
//! ```
//! use shaderscope::isa::sm4::{BindingKind, Declarations, Phase, Program, operand_type};
//!
//! let words = [
//!     0x0000_0040u32, 18, // ps_4_0, 18 DWORDs
//!     0x0400_0059, 0x0020_8e46, 0, 4,          // dcl_constantbuffer cb0[4], immediateIndexed
//!     0x0300_005a, 0x0010_6000, 0,             // dcl_sampler s0, mode_default
//!     0x0400_1858, 0x0010_7000, 0, 0x5555,     // dcl_resource_texture2d (float,float,float,float) t0
//!     0x0300_1062, 0x0010_1032, 1,             // dcl_input_ps linear v1.xy
//!     0x0200_0068, 2,                          // dcl_temps 2
//! ];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let d = Declarations::collect(&Program::parse(&bytes, 0)?)?;
//!
//! let bindings: Vec<_> = d.bindings.iter().map(|b| (b.offset, b.kind, b.id, b.size)).collect();
//! assert_eq!(
//!     bindings,
//!     [
//!         (8, BindingKind::ConstantBuffer, 0, Some(4)),
//!         (24, BindingKind::Sampler, 0, None),
//!         (36, BindingKind::Texture, 0, None),
//!     ]
//! );
//! // t0: dimension 3 (texture2d), return type 5 (float) in each component.
//! assert_eq!((d.bindings[2].dimension, d.bindings[2].return_type), (Some(3), Some([5; 4])));
//! assert_eq!(d.bindings_of(operand_type::SAMPLER).count(), 1);
//!
//! // Not a hull shader: one set of register declarations.
//! let [global] = &d.phases[..] else { unreachable!() };
//! assert_eq!((global.phase, global.temps, global.outputs.len()), (Phase::Global, 2, 0));
//! let v1 = &global.inputs[0];
//! // Register 1, components x and y, interpolation mode 2 (linear).
//! assert_eq!((v1.file, v1.register, v1.mask), (operand_type::INPUT, Some(1), 0b0011));
//! assert_eq!(v1.interpolation, Some(2));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::decode::{Instruction, Operand, Program, operand_type as ot};
use super::opcodes::{Decl, Format, op};
use super::walk::walk;
use crate::error::{Error, Result};
use crate::isa::walk::Visit;

/// The kind of thing a binding declaration makes available.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BindingKind {
    /// `dcl_constantbuffer` (cb#).
    ConstantBuffer,
    /// `dcl_sampler` (s#).
    Sampler,
    /// `dcl_resource_*` (t#): textures and typed buffers.
    Texture,
    /// `dcl_resource_raw` (t#).
    RawBuffer,
    /// `dcl_resource_structured` (t#).
    StructuredBuffer,
    /// `dcl_uav_typed_*` (u#).
    UavTyped,
    /// `dcl_uav_raw` (u#).
    UavRaw,
    /// `dcl_uav_structured` (u#).
    UavStructured,
    /// `dcl_tgsm_raw` (g#).
    TgsmRaw,
    /// `dcl_tgsm_structured` (g#).
    TgsmStructured,
}

impl BindingKind {
    /// The operand register file this kind binds.
    pub fn register_file(self) -> u8 {
        match self {
            BindingKind::ConstantBuffer => ot::CONSTANT_BUFFER,
            BindingKind::Sampler => ot::SAMPLER,
            BindingKind::Texture | BindingKind::RawBuffer | BindingKind::StructuredBuffer => ot::RESOURCE,
            BindingKind::UavTyped | BindingKind::UavRaw | BindingKind::UavStructured => {
                ot::UNORDERED_ACCESS_VIEW
            }
            BindingKind::TgsmRaw | BindingKind::TgsmStructured => ot::THREAD_GROUP_SHARED_MEMORY,
        }
    }
}

/// One resource, sampler, constant-buffer, UAV or shared-memory declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Binding {
    /// Absolute offset of the declaration.
    pub offset: u64,
    /// What is declared.
    pub kind: BindingKind,
    /// Register number (SM5.1: the range ID of `T3[…]`).
    pub id: u32,
    /// First register of the range (before SM5.1: equal to `id`).
    pub lower: u32,
    /// Last register of the range, inclusive; `u32::MAX` for an unbounded SM5.1 range.
    pub upper: u32,
    /// Register space (SM5.1; 0 before).
    pub space: u32,
    /// `D3D10_SB_RESOURCE_DIMENSION` of textures and typed UAVs.
    pub dimension: Option<u32>,
    /// Sample count of multisampled textures.
    pub sample_count: Option<u32>,
    /// Return type of x, y, z, w (`D3D10_SB_RESOURCE_RETURN_TYPE`) of textures/typed UAVs.
    pub return_type: Option<[u8; 4]>,
    /// Structure stride in bytes (structured buffers, UAVs, shared memory).
    pub stride: Option<u32>,
    /// Size: 16-byte vectors of a constant buffer (0 = unknown), bytes of raw shared memory,
    /// structure count of structured shared memory.
    pub size: Option<u32>,
    /// Declaration flags shifted down from bit 11: access pattern, sampler mode, UAV
    /// coherence/ROV/counter bits.
    pub flags: u32,
}

impl Binding {
    /// Whether register `index` (an instruction's second index in SM5.1, the first before)
    /// falls in the declared range.
    pub fn contains(&self, index: u64) -> bool {
        index >= u64::from(self.lower) && index <= u64::from(self.upper)
    }
}

/// An input or output declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IoDecl {
    /// Absolute offset of the declaration.
    pub offset: u64,
    /// Which declaration (`dcl_input_ps_siv`, …).
    pub opcode: u16,
    /// Register file: `v`, `o`, `vicp`, `vpc`, or a system register such as `vThreadID`.
    pub file: u8,
    /// Register number (the last index: `v[3][2]` declares 2); `None` for system registers.
    pub register: Option<u32>,
    /// Array size of 2D inputs (`v[3][2]`: 3 vertices).
    pub array_size: Option<u32>,
    /// Component mask, x = 1 … w = 8 (0 for registers without components).
    pub mask: u8,
    /// `D3D10_SB_NAME` of `_siv`/`_sgv` declarations.
    pub system_value: Option<u32>,
    /// `D3D10_SB_INTERPOLATION_MODE` of pixel-shader inputs.
    pub interpolation: Option<u32>,
    /// Minimum precision of the declared register.
    pub min_precision: u8,
}

/// An indexable temporary array (`dcl_indexableTemp x0[4], 4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexableTemp {
    /// Absolute offset of the declaration.
    pub offset: u64,
    /// `x#`.
    pub register: u32,
    /// Number of elements.
    pub size: u32,
    /// Components per element (1–4).
    pub components: u32,
}

/// Hull-shader phase a declaration or instruction belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Phase {
    /// Outside any phase marker (every model but hull shaders), or `hs_decls`.
    #[default]
    Global,
    /// `hs_control_point_phase`.
    ControlPoint,
    /// The n-th `hs_fork_phase`.
    Fork(u32),
    /// The n-th `hs_join_phase`.
    Join(u32),
}

/// Register declarations that are local to a hull-shader phase (or global elsewhere).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PhaseDecls {
    /// The phase.
    pub phase: Phase,
    /// `dcl_temps` (r0 … r(n-1)).
    pub temps: u32,
    /// `dcl_indexableTemp`.
    pub indexable_temps: Vec<IndexableTemp>,
    /// Inputs declared in the phase.
    pub inputs: Vec<IoDecl>,
    /// Outputs declared in the phase.
    pub outputs: Vec<IoDecl>,
    /// `dcl_hs_fork_phase_instance_count` / `dcl_hs_join_phase_instance_count`.
    pub instance_count: Option<u32>,
}

/// Everything a program declares.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Declarations {
    /// `dcl_globalFlags` bits (bits 11 and up of the opcode token).
    pub global_flags: u32,
    /// Constant buffers, samplers, resources, UAVs and shared memory.
    pub bindings: Vec<Binding>,
    /// Rows of the immediate constant buffer, if one is declared.
    pub icb_rows: Option<u32>,
    /// `dcl_thread_group x, y, z`.
    pub thread_group: Option<[u32; 3]>,
    /// `dcl_inputprimitive` (`D3D10_SB_PRIMITIVE`).
    pub gs_input_primitive: Option<u32>,
    /// `dcl_outputtopology` (`D3D10_SB_PRIMITIVE_TOPOLOGY`).
    pub gs_output_topology: Option<u32>,
    /// `dcl_maxout`.
    pub gs_max_output_vertices: Option<u32>,
    /// `dcl_gsinstances`.
    pub gs_instances: Option<u32>,
    /// `dcl_stream m#`.
    pub streams: Vec<u32>,
    /// `dcl_input_control_point_count`.
    pub input_control_points: Option<u32>,
    /// `dcl_output_control_point_count`.
    pub output_control_points: Option<u32>,
    /// `dcl_tessellator_domain` (`D3D11_SB_TESSELLATOR_DOMAIN`).
    pub tess_domain: Option<u32>,
    /// `dcl_tessellator_partitioning`.
    pub tess_partitioning: Option<u32>,
    /// `dcl_tessellator_output_primitive`.
    pub tess_output_primitive: Option<u32>,
    /// `dcl_hs_max_tessfactor`.
    pub hs_max_tessfactor: Option<f32>,
    /// `dcl_function_body fb#` ids.
    pub function_bodies: Vec<u32>,
    /// `dcl_function_table ft#` ids.
    pub function_tables: Vec<u32>,
    /// `dcl_interface fp#` ids.
    pub interfaces: Vec<u32>,
    /// Per-phase register declarations: one entry for non-hull shaders, one per phase
    /// (after the global one) for hull shaders.
    pub phases: Vec<PhaseDecls>,
}

impl Declarations {
    /// Gather the declarations of `program` on the program's one walk (the one the listing
    /// takes); the first decoding error, in the stream or in a declaration's own DWORDs, is
    /// the `Err`.
    pub fn collect(program: &Program<'_>) -> Result<Declarations> {
        let mut c = Collector {
            d: Declarations::default(),
            cur: PhaseDecls::default(),
            sm51: program.is_sm51(),
            forks: 0,
            joins: 0,
            error: None,
        };
        walk(program, &mut c);
        if let Some(e) = c.error {
            return Err(e);
        }
        c.d.phases.push(c.cur);
        Ok(c.d)
    }

    /// The declarations of the phase in effect at `index` of [`Declarations::phases`].
    pub fn phase(&self, index: usize) -> Option<&PhaseDecls> {
        self.phases.get(index)
    }

    /// Bindings of one register file.
    pub fn bindings_of(&self, file: u8) -> impl Iterator<Item = &Binding> + '_ {
        self.bindings.iter().filter(move |b| b.kind.register_file() == file)
    }

    fn declaration(
        &mut self,
        inst: &Instruction<'_>,
        kind: Decl,
        sm51: bool,
        cur: &mut PhaseDecls,
    ) -> Result<()> {
        let c = inst.controls();
        let value = |i: usize| inst.body_token(i, "declaration value");
        match kind {
            Decl::GlobalFlags => self.global_flags = c,
            Decl::Temps => cur.temps = value(0)?,
            Decl::IndexableTemp => {
                let (register, size) = inst.indexable_temp()?;
                let t = IndexableTemp { offset: inst.offset, register, size, components: value(2)? };
                cur.indexable_temps.push(t);
            }
            Decl::ThreadGroup => self.thread_group = Some([value(0)?, value(1)?, value(2)?]),
            Decl::GsInputPrimitive => self.gs_input_primitive = Some(c & 0x3f),
            Decl::GsOutputTopology => self.gs_output_topology = Some(c & 0x7f),
            Decl::MaxOutputVertexCount => self.gs_max_output_vertices = Some(value(0)?),
            Decl::GsInstanceCount => self.gs_instances = Some(value(0)?),
            Decl::Stream => {
                let o = inst.first_operand()?;
                self.streams.push(o.imm_index(0).unwrap_or(0) as u32);
            }
            Decl::InputControlPointCount => self.input_control_points = Some(c & 0x3f),
            Decl::OutputControlPointCount => self.output_control_points = Some(c & 0x3f),
            Decl::TessDomain => self.tess_domain = Some(c & 3),
            Decl::TessPartitioning => self.tess_partitioning = Some(c & 7),
            Decl::TessOutputPrimitive => self.tess_output_primitive = Some(c & 7),
            Decl::HsMaxTessFactor => self.hs_max_tessfactor = Some(f32::from_bits(value(0)?)),
            Decl::HsForkPhaseInstanceCount | Decl::HsJoinPhaseInstanceCount => {
                let n = value(0)?;
                cur.instance_count = Some(n);
            }
            Decl::FunctionBody => self.function_bodies.push(value(0)?),
            Decl::FunctionTable => self.function_tables.push(inst.function_table()?.0),
            Decl::Interface => self.interfaces.push(inst.interface()?.id),
            Decl::Input
            | Decl::InputSgv
            | Decl::InputSiv
            | Decl::InputPs
            | Decl::InputPsSgv
            | Decl::InputPsSiv
            | Decl::Output
            | Decl::OutputSgv
            | Decl::OutputSiv => {
                let o = inst.first_operand()?;
                let used = o.len();
                let system_value = match kind {
                    Decl::InputSgv
                    | Decl::InputSiv
                    | Decl::InputPsSgv
                    | Decl::InputPsSiv
                    | Decl::OutputSgv
                    | Decl::OutputSiv => Some(inst.body_token(used, "system value name")? & 0xffff),
                    _ => None,
                };
                let interpolation = match kind {
                    Decl::InputPs | Decl::InputPsSiv | Decl::InputPsSgv => Some(c & 0xf),
                    _ => None,
                };
                let io = io_decl(inst, &o, system_value, interpolation);
                if matches!(kind, Decl::Output | Decl::OutputSgv | Decl::OutputSiv) {
                    cur.outputs.push(io);
                } else {
                    cur.inputs.push(io);
                }
            }
            Decl::IndexRange => {}
            Decl::ConstantBuffer
            | Decl::Sampler
            | Decl::Resource
            | Decl::ResourceRaw
            | Decl::ResourceStructured
            | Decl::UavTyped
            | Decl::UavRaw
            | Decl::UavStructured
            | Decl::TgsmRaw
            | Decl::TgsmStructured => self.bindings.push(binding(inst, kind, sm51)?),
        }
        Ok(())
    }
}

/// The visitor [`Declarations::collect`] walks the program with: the phase being declared and
/// the hull-shader phases counted so far.
struct Collector {
    d: Declarations,
    cur: PhaseDecls,
    sm51: bool,
    forks: u32,
    joins: u32,
    error: Option<Error>,
}

impl Visit<Instruction<'_>> for Collector {
    fn step(&mut self, inst: Instruction<'_>) {
        let Some(info) = inst.info else { return };
        match info.format {
            Format::Phase => {
                let phase = match inst.opcode {
                    op::D3D11_SB_OPCODE_HS_CONTROL_POINT_PHASE => Phase::ControlPoint,
                    op::D3D11_SB_OPCODE_HS_FORK_PHASE => {
                        self.forks += 1;
                        Phase::Fork(self.forks - 1)
                    }
                    op::D3D11_SB_OPCODE_HS_JOIN_PHASE => {
                        self.joins += 1;
                        Phase::Join(self.joins - 1)
                    }
                    _ => Phase::Global,
                };
                if phase != Phase::Global {
                    let done = std::mem::replace(&mut self.cur, PhaseDecls { phase, ..Default::default() });
                    self.d.phases.push(done);
                }
            }
            Format::CustomData if inst.custom_data_class() == Some(3) => {
                self.d.icb_rows = Some((inst.body().len() / 4) as u32);
            }
            Format::Decl(kind) => {
                if let Err(e) = self.d.declaration(&inst, kind, self.sm51, &mut self.cur) {
                    self.problem(e);
                }
            }
            _ => {}
        }
    }
    fn problem(&mut self, error: Error) {
        self.error.get_or_insert(error);
    }
    fn stopped(&self) -> bool {
        self.error.is_some()
    }
}

fn io_decl(
    inst: &Instruction<'_>,
    o: &Operand<'_>,
    system_value: Option<u32>,
    interpolation: Option<u32>,
) -> IoDecl {
    let dim = usize::from(o.index_dim);
    let register = if dim == 0 { None } else { o.imm_index(dim - 1).map(|v| v as u32) };
    let array_size = if dim >= 2 { o.imm_index(0).map(|v| v as u32) } else { None };
    IoDecl {
        offset: inst.offset,
        opcode: inst.opcode,
        file: o.ty,
        register,
        array_size,
        mask: o.component_bits(),
        system_value,
        interpolation,
        min_precision: o.min_precision,
    }
}

fn binding(inst: &Instruction<'_>, kind: Decl, sm51: bool) -> Result<Binding> {
    let c = inst.controls();
    let o = inst.first_operand()?;
    let mut at = o.len();
    let mut next = |what: &'static str| {
        let v = inst.body_token(at, what);
        at += 1;
        v
    };
    let id = o.imm_index(0).unwrap_or(0) as u32;
    let (lower, upper) = if sm51 && o.index_dim == 3 {
        (o.imm_index(1).unwrap_or(0) as u32, o.imm_index(2).unwrap_or(0) as u32)
    } else {
        (id, id)
    };
    let mut b = Binding {
        offset: inst.offset,
        kind: BindingKind::Texture,
        id,
        lower,
        upper,
        space: 0,
        dimension: None,
        sample_count: None,
        return_type: None,
        stride: None,
        size: None,
        flags: c,
    };
    let ret =
        |t: u32| [(t & 0xf) as u8, ((t >> 4) & 0xf) as u8, ((t >> 8) & 0xf) as u8, ((t >> 12) & 0xf) as u8];
    match kind {
        Decl::ConstantBuffer => {
            b.kind = BindingKind::ConstantBuffer;
            b.size =
                Some(if sm51 { next("constant buffer size")? } else { o.imm_index(1).unwrap_or(0) as u32 });
            b.flags = c & 1;
        }
        Decl::Sampler => {
            b.kind = BindingKind::Sampler;
            b.flags = c & 0xf;
        }
        Decl::Resource => {
            b.dimension = Some(c & 0x1f);
            if matches!(c & 0x1f, 4 | 9) {
                b.sample_count = Some((c >> 5) & 0x7f);
            }
            b.return_type = Some(ret(next("resource return type")?));
        }
        Decl::ResourceRaw => b.kind = BindingKind::RawBuffer,
        Decl::ResourceStructured => {
            b.kind = BindingKind::StructuredBuffer;
            b.stride = Some(next("structure stride")?);
        }
        Decl::UavTyped => {
            b.kind = BindingKind::UavTyped;
            b.dimension = Some(c & 0x1f);
            b.return_type = Some(ret(next("resource return type")?));
        }
        Decl::UavRaw => b.kind = BindingKind::UavRaw,
        Decl::UavStructured => {
            b.kind = BindingKind::UavStructured;
            b.stride = Some(next("structure stride")?);
        }
        Decl::TgsmRaw => {
            b.kind = BindingKind::TgsmRaw;
            b.size = Some(next("shared memory size")?);
        }
        Decl::TgsmStructured => {
            b.kind = BindingKind::TgsmStructured;
            b.stride = Some(next("structure stride")?);
            b.size = Some(next("structure count")?);
        }
        _ => {}
    }
    if sm51 && !matches!(kind, Decl::TgsmRaw | Decl::TgsmStructured) {
        b.space = next("register space")?;
    }
    Ok(b)
}
