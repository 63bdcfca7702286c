//! The smaller chunks: STAT (statistics), SFI0 (required features), IFCE (class linkage),
//! Aon9 (the Direct3D 9 program of `*_level_9_x` targets), RTS0 (root signature), and DXC's
//! ILDN (debug name), HASH (shader hash) and VERS (compiler version).
//! [`Dxbc::parse`](super::Dxbc::parse) parses the first chunk of each kind into
//! [`Dxbc::stat`](super::Dxbc::stat), [`Dxbc::sfi0`](super::Dxbc::sfi0), … and keeps the error
//! of one that does not parse.
//!
//! ```
//! use shaderscope::format::dxbc::{Dxbc, chunks::STAT_FIELDS, write::Builder};
//!
//! let mut stat = [0u32; 37];
//! stat[0] = 12; // instruction_count
//! stat[1] = 3; // temp_register_count
//! let stat: Vec<u8> = stat.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let mut b = Builder::new();
//! b.push(*b"STAT", stat).push(*b"SFI0", (0x11u64 | 1 << 40).to_le_bytes().to_vec());
//! let bytes = b.finish()?;
//! let d = Dxbc::parse(&bytes)?;
//! let stat = d.stat.as_ref().unwrap();
//! assert_eq!((stat.instruction_count(), STAT_FIELDS[1], stat.get(1)), (12, "temp_register_count", 3));
//! assert_eq!(d.sfi0.as_ref().unwrap().names(), ["doubles", "minimum_precision", "bit_40"]);
//!
//! // An SFI0 of four bytes: the container still parses, the chunk's error is kept.
//! b.chunks[1].data = vec![1, 0, 0, 0].into();
//! let bytes = b.finish()?;
//! let d = Dxbc::parse(&bytes)?;
//! assert!(d.sfi0.is_none());
//! let (index, e) = &d.chunk_errors[0];
//! assert_eq!((*index, e.to_string().as_str()), (1, "truncated SFI0 flags at offset 0xcc (need 8 bytes, have 4)"));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::toolkit::raw::{LittleEndian, U32};
use crate::toolkit::{Cstr, Endian, Reader};
use zerocopy::FromBytes;

/// STAT: instruction statistics, 29 words (SM4) or 37 (SM5), as in `D3D11_SHADER_DESC`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// The words, in order.
    pub words: Words<'a>,
    /// Bytes after the last whole word (none in compiler output).
    pub rest: &'a [u8],
}

/// Names of the STAT words, in order (`D3D11_SHADER_DESC` and `ID3D11ShaderReflection`).
pub const STAT_FIELDS: [&str; 37] = [
    "instruction_count",
    "temp_register_count",
    "def_count",
    "dcl_count",
    "float_instruction_count",
    "int_instruction_count",
    "uint_instruction_count",
    "static_flow_control_count",
    "dynamic_flow_control_count",
    "macro_instruction_count",
    "temp_array_count",
    "array_instruction_count",
    "cut_instruction_count",
    "emit_instruction_count",
    "texture_normal_instructions",
    "texture_load_instructions",
    "texture_comp_instructions",
    "texture_bias_instructions",
    "texture_gradient_instructions",
    "mov_instruction_count",
    "movc_instruction_count",
    "conversion_instruction_count",
    "unknown_22",
    "gs_input_primitive",
    "gs_output_topology",
    "gs_max_output_vertex_count",
    "unknown_26",
    "unknown_27",
    "is_sample_frequency",
    "unknown_29",
    "control_points",
    "hs_output_primitive",
    "hs_partitioning",
    "tessellator_domain",
    "barrier_instructions",
    "interlocked_instructions",
    "texture_store_instructions",
];

impl<'a> Stat<'a> {
    /// Parse a STAT payload at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Self {
        let whole = data.len() / 4 * 4;
        let (words, rest) = data.split_at_checked(whole).unwrap_or((data, &[]));
        Stat { offset: base, words: Words::new(words), rest }
    }

    /// Word `i`, 0 when absent.
    pub fn get(&self, i: usize) -> u32 {
        self.words.get(i).unwrap_or(0)
    }

    /// Total instruction count (`// Approximately N instruction slots used`).
    pub fn instruction_count(&self) -> u32 {
        self.get(0)
    }
}

/// Little-endian `u32` words read in place.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Words<'a>(&'a [U32<LittleEndian>]);

impl<'a> Words<'a> {
    /// The whole words of `bytes` (a partial last word is left out).
    pub fn new(bytes: &'a [u8]) -> Self {
        let whole = bytes.get(..bytes.len() / 4 * 4).unwrap_or(&[]);
        Words(<[U32<LittleEndian>]>::ref_from_bytes(whole).unwrap_or(&[]))
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Word `i`.
    pub fn get(&self, i: usize) -> Option<u32> {
        self.0.get(i).map(|w| w.get())
    }

    /// The words in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + 'a {
        self.0.iter().map(|w| w.get())
    }
}

impl std::fmt::Debug for Words<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// SFI0: `D3D_SHADER_REQUIRES_*` flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sfi0<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// The feature flags (first 8 bytes, little-endian).
    pub flags: u64,
    /// Bytes after the flags (none in compiler output).
    pub rest: &'a [u8],
}

/// The required-feature flags and the wording fxc uses for them in its listing notes.
pub(crate) const FEATURE_FLAGS: [(u64, &str, &str); 24] = [
    (0x1, "doubles", "Double-precision floating point"),
    (
        0x2,
        "compute_shaders_plus_raw_and_structured_buffers_via_shader_4_x",
        "Raw and Structured buffers via shader 4.x",
    ),
    (0x4, "uavs_at_every_stage", "UAVs at every shader stage"),
    (0x8, "64_uavs", "64 UAV slots"),
    (0x10, "minimum_precision", "Minimum-precision data types"),
    (0x20, "11_1_double_extensions", "Double-precision extensions for 11.1"),
    (0x40, "11_1_shader_extensions", "Shader extensions for 11.1"),
    (0x80, "level_9_comparison_filtering", "Comparison filtering for feature level 9"),
    (0x100, "tiled_resources", "Tiled resources"),
    (0x200, "stencil_ref", "PS Output Stencil Ref"),
    (0x400, "inner_coverage", "PS Inner Coverage"),
    (0x800, "typed_uav_load_additional_formats", "Typed UAV Load Additional Formats"),
    (0x1000, "rovs", "Raster Ordered UAVs"),
    (
        0x2000,
        "viewport_and_rt_array_index_from_any_shader_feeding_rasterizer",
        "SV_RenderTargetArrayIndex or SV_ViewportArrayIndex from any shader feeding rasterizer",
    ),
    (0x4000, "wave_ops", "Wave level operations"),
    (0x8000, "int64_ops", "64-Bit integer"),
    (0x10000, "view_id", "View Instancing"),
    (0x20000, "barycentrics", "Barycentrics"),
    (0x40000, "native_16bit_ops", "Use native low precision"),
    (0x80000, "shading_rate", "Shading Rate"),
    (0x100000, "raytracing_tier_1_1", "Raytracing tier 1.1 features"),
    (0x200000, "sampler_feedback", "Sampler feedback"),
    (0x400000, "atomic_int64_on_typed_resource", "64-bit Atomics on Typed Resources"),
    (0x800000, "atomic_int64_on_group_shared", "64-bit Atomics on Group Shared"),
];

impl<'a> Sfi0<'a> {
    /// Parse an SFI0 payload at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let mut r = Reader::with_base(data, base as u64, Endian::Little);
        let flags = r.u64("SFI0 flags")?;
        Ok(Sfi0 { offset: base, flags, rest: data.get(8..).unwrap_or(&[]) })
    }

    /// Names of the set flags (unknown bits as `bit_N`).
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for bit in 0..64 {
            let m = 1u64 << bit;
            if self.flags & m == 0 {
                continue;
            }
            match FEATURE_FLAGS.iter().find(|f| f.0 == m) {
                Some(f) => out.push(f.1.to_string()),
                None => out.push(format!("bit_{bit}")),
            }
        }
        out
    }
}

/// A class type of IFCE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassType<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Name.
    pub name: Cstr<'a>,
    /// Type ID.
    pub id: u16,
    /// Constant-buffer stride.
    pub cb_stride: u16,
    /// Texture count.
    pub texture: u16,
    /// Sampler count.
    pub sampler: u16,
}

/// A class instance of IFCE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInstance<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Name.
    pub name: Cstr<'a>,
    /// Class type ID.
    pub ty: u16,
    /// Array elements: 1 for a single instance, N for `name[N]` (fxc's listing shows
    /// the count after the name).
    pub elements: u16,
    /// Constant buffer.
    pub cb: u16,
    /// Offset in the constant buffer.
    pub cb_offset: u16,
    /// Texture slot (0xFFFF: none).
    pub texture: u16,
    /// Sampler slot (0xFFFF: none).
    pub sampler: u16,
}

/// An interface slot record of IFCE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceSlot {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Slots this record covers (arrays of interfaces span more than one).
    pub span: u32,
    /// Class type IDs that may fill the slot.
    pub type_ids: Vec<u16>,
    /// Function table IDs, one per type ID.
    pub table_ids: Vec<u32>,
}

/// IFCE: class linkage (interfaces and classes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ifce<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Total interface slots.
    pub slot_count: u32,
    /// The header words as stored (counts, offsets, and the two words after them).
    pub header: [u32; 9],
    /// Class types.
    pub class_types: Vec<ClassType<'a>>,
    /// Class instances.
    pub class_instances: Vec<ClassInstance<'a>>,
    /// Interface slot records.
    pub slots: Vec<InterfaceSlot>,
}

impl<'a> Ifce<'a> {
    /// Parse an IFCE payload at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let mut r = Reader::with_base(data, base as u64, Endian::Little);
        let mut h = [0u32; 9];
        for w in h.iter_mut() {
            *w = r.u32("IFCE header")?;
        }
        let [
            instance_count,
            type_count,
            slot_records,
            slot_count,
            _type_ids_offset,
            class_offset,
            slot_offset,
            ..,
        ] = h;
        let check = |count: u32, offset: u32, size: u32, what: &'static str| -> Result<()> {
            if u64::from(offset) + u64::from(count) * u64::from(size) > data.len() as u64 {
                return Err(Error::invalid(
                    base as u64,
                    what,
                    format!(
                        "{} of {} from 0x{:x} do not fit in the chunk (it ends at 0x{:x})",
                        crate::print::count(count, "record"),
                        crate::print::count(size, "byte"),
                        base as u64 + u64::from(offset),
                        base + data.len()
                    ),
                ));
            }
            Ok(())
        };
        check(type_count.saturating_add(instance_count), class_offset, 12, "IFCE class table")?;
        check(slot_records, slot_offset, 16, "IFCE interface slots")?;
        let strings = Reader::with_base(data, base as u64, Endian::Little);
        let mut c = strings.clone();
        c.seek(class_offset as usize, "IFCE class table")?;
        let mut class_types = Vec::with_capacity(type_count as usize);
        for _ in 0..type_count {
            let at = c.original_position();
            let name_off = c.u32("IFCE class type")?;
            class_types.push(ClassType {
                offset: at as usize,
                name: strings.cstr_at(name_off as usize, "IFCE class type name")?,
                id: c.u16("IFCE class type")?,
                cb_stride: c.u16("IFCE class type")?,
                texture: c.u16("IFCE class type")?,
                sampler: c.u16("IFCE class type")?,
            });
        }
        let mut class_instances = Vec::with_capacity(instance_count as usize);
        for _ in 0..instance_count {
            let at = c.original_position();
            let name_off = c.u32("IFCE class instance")?;
            class_instances.push(ClassInstance {
                offset: at as usize,
                name: strings.cstr_at(name_off as usize, "IFCE class instance name")?,
                ty: c.u16("IFCE class instance")?,
                elements: c.u16("IFCE class instance")?,
                cb: c.u16("IFCE class instance")?,
                cb_offset: c.u16("IFCE class instance")?,
                texture: c.u16("IFCE class instance")?,
                sampler: c.u16("IFCE class instance")?,
            });
        }
        let mut s = Reader::with_base(data, base as u64, Endian::Little);
        s.seek(slot_offset as usize, "IFCE interface slots")?;
        let mut slots = Vec::with_capacity(slot_records as usize);
        for _ in 0..slot_records {
            let at = s.original_position();
            let span = s.u32("IFCE interface slot")?;
            let count = s.u32("IFCE interface slot")?;
            let type_ids_at = s.u32("IFCE interface slot")?;
            let table_ids_at = s.u32("IFCE interface slot")?;
            check(count, type_ids_at, 2, "IFCE slot type IDs")?;
            check(count, table_ids_at, 4, "IFCE slot table IDs")?;
            let mut t = Reader::with_base(data, base as u64, Endian::Little);
            t.seek(type_ids_at as usize, "IFCE slot type IDs")?;
            let mut u = Reader::with_base(data, base as u64, Endian::Little);
            u.seek(table_ids_at as usize, "IFCE slot table IDs")?;
            let mut type_ids = Vec::with_capacity(count as usize);
            let mut table_ids = Vec::with_capacity(count as usize);
            for _ in 0..count {
                type_ids.push(t.u16("IFCE slot type ID")?);
                table_ids.push(u.u32("IFCE slot table ID")?);
            }
            slots.push(InterfaceSlot { offset: at as usize, span, type_ids, table_ids });
        }
        Ok(Ifce { offset: base, slot_count, header: h, class_types, class_instances, slots })
    }
}

/// A constant-buffer-to-D3D9-register mapping of Aon9.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CbMapping {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Constant buffer.
    pub buffer: u16,
    /// First register in the buffer.
    pub start: u16,
    /// Register count.
    pub count: u16,
    /// Target `c#` register.
    pub target: u16,
    /// Data conversion, one byte per component ([`DATA_CONVERSIONS`]).
    pub conversion: [u8; 4],
}

/// The data conversions of a constant-buffer mapping and fxc's names for them: what the
/// runtime turns into floats when it copies the buffer into `c#` registers. fxc writes 2 for
/// an `int` member and prints ` INT` (its level-9 listings of 6.3 in nanovg's headers); the
/// other values follow `D3D_SHADER_VARIABLE_TYPE`, whose `D3D_SVT_INT` is 2 (`D3D_SVT_BOOL`
/// is 1), with 0 for a float that needs none.
pub const DATA_CONVERSIONS: [(u8, &str); 3] = [(0, "FLT"), (1, "BOOL"), (2, "INT")];

/// A constant the runtime supplies (Aon9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeConstant {
    /// Absolute offset of the record.
    pub offset: usize,
    /// What it holds (0: vertex shader position offset).
    pub kind: u16,
    /// Target `c#` register.
    pub target: u16,
}

/// A sampler/resource mapping of Aon9. The record's bytes are the source resource, the
/// source sampler, the target sampler and a fourth byte (fxc's listing of a program that
/// samples `t2` with `s0` into `s1` shows which is which; the corpus's all have the three
/// equal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplerMapping {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Target D3D9 sampler (third byte).
    pub target: u8,
    /// Source sampler (second byte).
    pub sampler: u8,
    /// Source resource (first byte).
    pub resource: u8,
    /// Fourth byte (texture type; 0 in compiler output).
    pub unknown: u8,
}

/// Aon9: the Direct3D 9 form of a `*_level_9_x` program, with its register mappings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aon9<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// First word (the payload size as written by fxc).
    pub size_word: u32,
    /// The header's D3D9 version token: the program's own with minor version 0
    /// ([`Aon9::header_version`]), `0xFFFF0200` for a `ps_2_x` program too.
    pub version: u32,
    /// The D3D9 program bytes.
    pub program: &'a [u8],
    /// Offset of the program (relative to the payload).
    pub program_offset: u32,
    /// The five (count, offset) table headers: cb mappings, two unused tables, sampler
    /// mappings, runtime constants.
    pub tables: [(u16, u16); 5],
    /// Constant-buffer mappings.
    pub cb_mappings: Vec<CbMapping>,
    /// Sampler mappings.
    pub sampler_mappings: Vec<SamplerMapping>,
    /// Runtime constants.
    pub runtime_constants: Vec<RuntimeConstant>,
}

impl<'a> Aon9<'a> {
    /// Parse an Aon9 payload at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let mut r = Reader::with_base(data, base as u64, Endian::Little);
        let size_word = r.u32("Aon9 header")?;
        let version = r.u32("Aon9 header")?;
        let size_at = r.original_position();
        let program_size = r.u32("Aon9 header")?;
        let program_offset = r.u32("Aon9 header")?;
        let mut tables = [(0u16, 0u16); 5];
        for t in tables.iter_mut() {
            *t = (r.u16("Aon9 table header")?, r.u16("Aon9 table header")?);
        }
        let range = crate::toolkit::checked_range(
            data.len(),
            u64::from(program_offset),
            u64::from(program_size),
            base as u64,
            "Aon9 D3D9 program",
            size_at,
        )?;
        let program = data.get(range).unwrap_or(&[]);
        let table = |i: usize, size: usize| -> Result<Reader<'a>> {
            let (count, off) = tables.get(i).copied().unwrap_or((0, 0));
            let full = Reader::with_base(data, base as u64, Endian::Little);
            full.sub(
                u64::from(off),
                u64::from(count) * size as u64,
                "Aon9 mapping table",
                (base + 16 + 4 * i) as u64,
            )
        };
        let mut cb_mappings = Vec::new();
        let mut t = table(0, 12)?;
        for _ in 0..tables[0].0 {
            let at = t.original_position() as usize;
            cb_mappings.push(CbMapping {
                offset: at,
                buffer: t.u16("Aon9 cb mapping")?,
                start: t.u16("Aon9 cb mapping")?,
                count: t.u16("Aon9 cb mapping")?,
                target: t.u16("Aon9 cb mapping")?,
                conversion: t.array::<4>("Aon9 cb mapping")?,
            });
        }
        let mut sampler_mappings = Vec::new();
        let mut t = table(3, 4)?;
        for _ in 0..tables[3].0 {
            let at = t.original_position() as usize;
            let b = t.array::<4>("Aon9 sampler mapping")?;
            sampler_mappings.push(SamplerMapping {
                offset: at,
                resource: b[0],
                sampler: b[1],
                target: b[2],
                unknown: b[3],
            });
        }
        let mut runtime_constants = Vec::new();
        let mut t = table(4, 4)?;
        for _ in 0..tables[4].0 {
            let at = t.original_position() as usize;
            runtime_constants.push(RuntimeConstant {
                offset: at,
                kind: t.u16("Aon9 runtime constant")?,
                target: t.u16("Aon9 runtime constant")?,
            });
        }
        Ok(Aon9 {
            offset: base,
            size_word,
            version,
            program,
            program_offset,
            tables,
            cb_mappings,
            sampler_mappings,
            runtime_constants,
        })
    }

    /// Absolute offset of the D3D9 program.
    pub fn program_position(&self) -> usize {
        self.offset + self.program_offset as usize
    }

    /// The program's own version token (its first word), what its listing's version line
    /// names; the header's when the program is too short to have one.
    pub fn program_version(&self) -> u32 {
        crate::toolkit::le_u32(self.program, 0).unwrap_or(self.version)
    }

    /// The version token fxc writes in the header for a program of version token `program`:
    /// the same kind and major version, minor version 0. A `*_level_9_3` program is `_2_x`
    /// (minor 1) and its header says `_2_0` (every level_9_3 file of ANGLE, nanovg and Wine's
    /// tests); levels 9_1 and 9_2 are `_2_0` in both.
    pub fn header_version(program: u32) -> u32 {
        program & !0xff
    }
}

/// A descriptor range of a root-signature descriptor table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DescriptorRange {
    /// Absolute offset of the record.
    pub offset: usize,
    /// 0 SRV, 1 UAV, 2 CBV, 3 sampler.
    pub range_type: u32,
    /// Descriptor count (0xFFFFFFFF: unbounded).
    pub count: u32,
    /// First register.
    pub base_register: u32,
    /// Register space.
    pub space: u32,
    /// 1.1 only: `D3D12_DESCRIPTOR_RANGE_FLAGS`.
    pub flags: Option<u32>,
    /// Offset in the table (0xFFFFFFFF: append).
    pub table_offset: u32,
}

/// What a root parameter holds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RootPayload {
    /// A descriptor table.
    Table {
        /// Its ranges.
        ranges: Vec<DescriptorRange>,
    },
    /// Inline 32-bit constants.
    Constants {
        /// Register.
        register: u32,
        /// Space.
        space: u32,
        /// Number of 32-bit values.
        count: u32,
    },
    /// A root CBV/SRV/UAV descriptor.
    Descriptor {
        /// Register.
        register: u32,
        /// Space.
        space: u32,
        /// 1.1 only: `D3D12_ROOT_DESCRIPTOR_FLAGS`.
        flags: Option<u32>,
    },
}

/// A root parameter.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RootParameter {
    /// Absolute offset of the record.
    pub offset: usize,
    /// 0 table, 1 constants, 2 CBV, 3 SRV, 4 UAV.
    pub parameter_type: u32,
    /// `D3D12_SHADER_VISIBILITY`.
    pub visibility: u32,
    /// Absolute offset of the payload record.
    pub payload_offset: usize,
    /// Its payload.
    pub payload: RootPayload,
}

/// A static sampler (52 bytes).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StaticSampler {
    /// Absolute offset of the record.
    pub offset: usize,
    /// `D3D12_FILTER`.
    pub filter: u32,
    /// Address modes U, V, W.
    pub address: [u32; 3],
    /// Mip LOD bias.
    pub mip_lod_bias: f32,
    /// Max anisotropy.
    pub max_anisotropy: u32,
    /// Comparison function.
    pub comparison: u32,
    /// Border colour.
    pub border_color: u32,
    /// Min LOD.
    pub min_lod: f32,
    /// Max LOD.
    pub max_lod: f32,
    /// Register.
    pub register: u32,
    /// Space.
    pub space: u32,
    /// Visibility.
    pub visibility: u32,
}

/// RTS0: a serialized root signature (versions 1.0 and 1.1).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RootSignature {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// 1 (1.0) or 2 (1.1).
    pub version: u32,
    /// `D3D12_ROOT_SIGNATURE_FLAGS`.
    pub flags: u32,
    /// Parameters.
    pub parameters: Vec<RootParameter>,
    /// Static samplers.
    pub static_samplers: Vec<StaticSampler>,
}

impl RootSignature {
    /// Parse an RTS0 payload at absolute `base`.
    pub fn parse(data: &[u8], base: usize) -> Result<Self> {
        let mut r = Reader::with_base(data, base as u64, Endian::Little);
        let version_at = r.original_position();
        let version = r.u32("RTS0 header")?;
        if version != 1 && version != 2 {
            return Err(Error::unsupported(
                version_at,
                "RTS0 header",
                format!("root signature version {version}"),
            ));
        }
        let v11 = version == 2;
        let param_count = r.u32("RTS0 header")?;
        let param_offset = r.u32("RTS0 header")?;
        let sampler_count = r.u32("RTS0 header")?;
        let sampler_offset = r.u32("RTS0 header")?;
        let flags = r.u32("RTS0 header")?;
        let whole = Reader::with_base(data, base as u64, Endian::Little);
        let mut p = whole.sub(
            u64::from(param_offset),
            u64::from(param_count) * 12,
            "RTS0 parameter table",
            version_at + 8,
        )?;
        let mut parameters = Vec::with_capacity(param_count as usize);
        for _ in 0..param_count {
            let at = p.original_position();
            let parameter_type = p.u32("RTS0 parameter")?;
            let visibility = p.u32("RTS0 parameter")?;
            let payload_at = p.original_position();
            let payload_offset = p.u32("RTS0 parameter")?;
            let mut q = whole.at(u64::from(payload_offset), "RTS0 parameter payload", payload_at)?;
            let payload_abs = q.original_position() as usize;
            let payload = match parameter_type {
                0 => {
                    let count_at = q.original_position();
                    let count = q.u32("RTS0 descriptor table")?;
                    let ranges_offset = q.u32("RTS0 descriptor table")?;
                    let size = if v11 { 24 } else { 20 };
                    let mut rr = whole.sub(
                        u64::from(ranges_offset),
                        u64::from(count) * size,
                        "RTS0 range table",
                        count_at,
                    )?;
                    let mut ranges = Vec::with_capacity(count as usize);
                    for _ in 0..count {
                        let rat = rr.original_position() as usize;
                        let range_type = rr.u32("RTS0 range")?;
                        let count = rr.u32("RTS0 range")?;
                        let base_register = rr.u32("RTS0 range")?;
                        let space = rr.u32("RTS0 range")?;
                        let flags = if v11 { Some(rr.u32("RTS0 range")?) } else { None };
                        let table_offset = rr.u32("RTS0 range")?;
                        ranges.push(DescriptorRange {
                            offset: rat,
                            range_type,
                            count,
                            base_register,
                            space,
                            flags,
                            table_offset,
                        });
                    }
                    RootPayload::Table { ranges }
                }
                1 => RootPayload::Constants {
                    register: q.u32("RTS0 root constants")?,
                    space: q.u32("RTS0 root constants")?,
                    count: q.u32("RTS0 root constants")?,
                },
                2..=4 => RootPayload::Descriptor {
                    register: q.u32("RTS0 root descriptor")?,
                    space: q.u32("RTS0 root descriptor")?,
                    flags: if v11 { Some(q.u32("RTS0 root descriptor")?) } else { None },
                },
                other => {
                    return Err(Error::invalid(
                        at,
                        "RTS0 parameter",
                        format!("unknown parameter type {other}"),
                    ));
                }
            };
            parameters.push(RootParameter {
                offset: at as usize,
                parameter_type,
                visibility,
                payload_offset: payload_abs,
                payload,
            });
        }
        let mut s = whole.sub(
            u64::from(sampler_offset),
            u64::from(sampler_count) * 52,
            "RTS0 static samplers",
            version_at + 16,
        )?;
        let mut static_samplers = Vec::with_capacity(sampler_count as usize);
        for _ in 0..sampler_count {
            let at = s.original_position() as usize;
            static_samplers.push(StaticSampler {
                offset: at,
                filter: s.u32("RTS0 static sampler")?,
                address: [
                    s.u32("RTS0 static sampler")?,
                    s.u32("RTS0 static sampler")?,
                    s.u32("RTS0 static sampler")?,
                ],
                mip_lod_bias: s.f32("RTS0 static sampler")?,
                max_anisotropy: s.u32("RTS0 static sampler")?,
                comparison: s.u32("RTS0 static sampler")?,
                border_color: s.u32("RTS0 static sampler")?,
                min_lod: s.f32("RTS0 static sampler")?,
                max_lod: s.f32("RTS0 static sampler")?,
                register: s.u32("RTS0 static sampler")?,
                space: s.u32("RTS0 static sampler")?,
                visibility: s.u32("RTS0 static sampler")?,
            });
        }
        Ok(RootSignature { offset: base, version, flags, parameters, static_samplers })
    }
}

/// ILDN: the debug name DXC gives a program, the file name its debug information (PDB) goes
/// to (`DxilShaderDebugName` in DXC's `DxilContainer.h`).
///
/// ```text
/// u16 flags        0 (reserved)
/// u16 name length  without the NUL
/// name, NUL, zero bytes up to a multiple of 4
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DebugName<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Reserved flags (0).
    pub flags: u16,
    /// The name length the header declares.
    pub name_length: u16,
    /// The name (UTF-8), `name_length` bytes.
    pub name: &'a [u8],
    /// What follows the name: its NUL and the padding.
    pub padding: &'a [u8],
}

impl<'a> DebugName<'a> {
    /// Parse an ILDN payload at absolute `base`; an error when the name is longer than the
    /// payload.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let r = Reader::with_base(data, base as u64, Endian::Little);
        let flags = r.u16_at(0, "ILDN header")?;
        let name_length = r.u16_at(2, "ILDN header")?;
        let name = r.bytes_at(4, usize::from(name_length), "ILDN name")?;
        let padding = data.get(4 + name.len()..).unwrap_or(&[]);
        Ok(DebugName { offset: base, flags, name_length, name, padding })
    }

    /// The name as text (invalid UTF-8 replaced).
    pub fn text(&self) -> std::borrow::Cow<'a, str> {
        String::from_utf8_lossy(self.name)
    }

    /// The payload size DXC writes for this name: the header, the name and its NUL, rounded
    /// up to a multiple of 4.
    pub fn expected_size(&self) -> usize {
        (4 + self.name.len() + 1).next_multiple_of(4)
    }

    /// What DXC's reader (`IsDxilShaderDebugNameValid`) would refuse, and what it leaves
    /// unchecked but writes otherwise: flags other than 0, a payload of another size, a name
    /// without its NUL, padding that is not zero.
    pub fn validate(&self) -> Vec<crate::model::Finding> {
        use crate::model::Finding;
        let mut out = Vec::new();
        let at = self.offset as u64;
        if self.flags != 0 {
            out.push(Finding::warning(
                at,
                format!("ILDN flags are 0x{:x}; DXC reserves them (0)", self.flags),
            ));
        }
        let size = 4 + self.name.len() + self.padding.len();
        if size != self.expected_size() {
            out.push(Finding::error(
                at + 2,
                format!(
                    "ILDN is {}, not the {} a name of {} takes (DXC's readers refuse it)",
                    crate::print::count(size, "byte"),
                    self.expected_size(),
                    crate::print::count(self.name.len(), "byte")
                ),
            ));
        } else if self.padding.iter().any(|&b| b != 0) {
            let first = self.padding.iter().position(|&b| b != 0).unwrap_or(0);
            out.push(Finding::warning(
                at + 4 + self.name.len() as u64 + first as u64,
                "ILDN name is not followed by a NUL and zero padding",
            ));
        }
        out
    }
}

/// The flag of [`ShaderHash::flags`] that says the digest was computed over the program with
/// its source information (`-Zss`), not over the program alone.
pub const HASH_INCLUDES_SOURCE: u32 = 1;

/// HASH: DXC's shader hash (`DxilShaderHash`): flags and an MD5 digest. Without
/// [`HASH_INCLUDES_SOURCE`] the digest is the MD5 of the DXIL part's bitcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShaderHash<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// `DxilShaderHashFlags`: bit 0 = [`HASH_INCLUDES_SOURCE`].
    pub flags: u32,
    /// The 16-byte MD5 digest.
    pub digest: [u8; 16],
    /// Bytes after the digest (none in compiler output).
    pub rest: &'a [u8],
}

impl<'a> ShaderHash<'a> {
    /// Parse a HASH payload at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let r = Reader::with_base(data, base as u64, Endian::Little);
        r.bytes_at(0, 20, "HASH")?;
        let flags = r.u32_at(0, "HASH")?;
        let digest = r.array_at::<16>(4, "HASH")?;
        Ok(ShaderHash { offset: base, flags, digest, rest: data.get(20..).unwrap_or(&[]) })
    }

    /// The digest in hex, as DXC prints it.
    pub fn digest_hex(&self) -> String {
        super::checksum::hex(&self.digest)
    }

    /// Whether the digest is the one DXC computes from `bitcode` (the DXIL part's): `None`
    /// when it was computed over what the file does not hold (the program with its source,
    /// [`HASH_INCLUDES_SOURCE`]).
    pub fn matches(&self, bitcode: &[u8]) -> Option<bool> {
        use md5::Digest;
        if self.flags & HASH_INCLUDES_SOURCE != 0 {
            return None;
        }
        Some(md5::Md5::digest(bitcode)[..] == self.digest[..])
    }
}

/// VERS: the version of the DXC that compiled the program (`DxilCompilerVersion`).
///
/// ```text
/// u16 major, u16 minor, u32 flags (1 debug build, 2 internal validator), u32 commit count,
/// u32 string list size, the strings (the commit SHA, then a custom version string, each
/// NUL-terminated), zero bytes up to a multiple of 4
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompilerVersion<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Major version.
    pub major: u16,
    /// Minor version.
    pub minor: u16,
    /// `VersionFlags`: 1 a debug build, 2 the internal (non-signing) validator.
    pub flags: u32,
    /// `CommitCount`.
    pub commit_count: u32,
    /// The string list (its size as the header says).
    pub strings: &'a [u8],
    /// Bytes after the string list (the padding).
    pub rest: &'a [u8],
}

impl<'a> CompilerVersion<'a> {
    /// Parse a VERS payload at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let r = Reader::with_base(data, base as u64, Endian::Little);
        r.bytes_at(0, 16, "VERS header")?;
        let size = r.u32_at(12, "VERS header")?;
        let strings =
            r.bytes_at(16, size as usize, "VERS strings").map_err(|e| e.at_field(base as u64 + 12))?;
        Ok(CompilerVersion {
            offset: base,
            major: r.u16_at(0, "VERS header")?,
            minor: r.u16_at(2, "VERS header")?,
            flags: r.u32_at(4, "VERS header")?,
            commit_count: r.u32_at(8, "VERS header")?,
            strings,
            rest: data.get(16 + strings.len()..).unwrap_or(&[]),
        })
    }

    /// The strings of the list, each with its absolute offset: the commit SHA and the custom
    /// version string, as far as the list has them.
    pub fn string_list(&self) -> Vec<Cstr<'a>> {
        let mut out = Vec::new();
        let mut at = 0usize;
        let base = self.offset as u64 + 16;
        while at < self.strings.len() && out.len() < 2 {
            let rest = self.strings.get(at..).unwrap_or(&[]);
            let n = memchr::memchr(0, rest).unwrap_or(rest.len());
            out.push(Cstr { bytes: rest.get(..n).unwrap_or(&[]), offset: base + at as u64 });
            at += n + 1;
        }
        out
    }
}
