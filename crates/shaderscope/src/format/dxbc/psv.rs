//! PSV0: the pipeline state validation data DXC puts in a DXIL container, which the Direct3D
//! 12 runtime reads to check a pipeline without parsing the DXIL (`DxilPipelineStateValidation.h`
//! in DXC). The layout grows by version, and a reader knows the version by the size its
//! runtime info declares:
//!
//! ```text
//! u32 runtime info size      24 (version 0), 36 (1), 48 (2), 52 (3), 56 (4)
//! PSVRuntimeInfo             the stage's fields (a 16-byte union), wave lane counts;
//!                            1: stage, ViewID use, signature element and vector counts;
//!                            2: thread group size; 3: entry function name; 4: group shared bytes
//! u32 resource count
//!   u32 record size          when there are resources: 16 (versions 0, 1) or 24 (type, space,
//!   records                  bounds; then kind and flags)
//! version 1 and later:
//!   u32 string table size, the strings (NUL-terminated, padded to 4)
//!   u32 semantic index count, the indexes (u32)
//!   u32 element size (16), the input, output and patch constant (or primitive) elements,
//!                            when there are any
//!   the outputs ViewID affects (a bit per component, per stream for geometry shaders), when
//!   the program uses ViewID; the outputs each input component affects (a row of such masks
//!   per input component), per stream; hull shaders the patch constant outputs, domain
//!   shaders the outputs each patch constant input affects
//! ```
//!
//! [`Psv::parse`] reads all of it, each part with its absolute offset, and refuses what DXC's
//! reader refuses (a size too small for its struct, a string table not padded to 4, a name
//! or semantic index outside its table).
//!
//! ```
//! use shaderscope::format::dxbc::psv::Psv;
//!
//! // Version 0: a vertex shader's runtime info (output position present), no resources.
//! let mut payload = Vec::new();
//! payload.extend(24u32.to_le_bytes());
//! payload.extend([1u8; 1]);
//! payload.extend([0u8; 15]);
//! payload.extend([0u32, u32::MAX, 0].iter().flat_map(|w| w.to_le_bytes()));
//! let psv = Psv::parse(&payload, 0x100)?;
//! assert_eq!((psv.version, psv.info.min_wave_lanes, psv.info.max_wave_lanes), (0, 0, u32::MAX));
//! assert!(psv.info.v1.is_none() && psv.resources.is_empty() && psv.rest.is_empty());
//! assert_eq!(
//!     Psv::parse(&payload[..20], 0x100).unwrap_err().to_string(),
//!     "truncated PSV0 runtime info at offset 0x104 (need 24 bytes, have 16)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::chunks::Words;
use super::dxil::ShaderKind;
use crate::error::{Error, Result};
use crate::toolkit::{Cstr, Endian, Reader};

/// The size of `PSVRuntimeInfo0` … `PSVRuntimeInfo4`: the version of a PSV0 part is the last
/// whose struct fits in the size it declares.
pub(crate) const RUNTIME_INFO_SIZES: [u32; 5] = [24, 36, 48, 52, 56];

/// The size of `PSVResourceBindInfo0` (type, space, bounds) and `PSVResourceBindInfo1` (kind
/// and flags too).
pub(crate) const RESOURCE_RECORD_SIZES: [u32; 2] = [16, 24];

/// The size of `PSVSignatureElement0`.
pub(crate) const ELEMENT_SIZE: u32 = 16;

/// The geometry shader's streams (`PSV_GS_MAX_STREAMS`).
pub(crate) const STREAMS: usize = 4;

/// `PSVRuntimeInfo1`: what version 1 added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Info1 {
    /// `ShaderStage` (`PSVShaderKind`, the DXIL shader kind).
    pub shader_stage: u8,
    /// Whether the program uses `SV_ViewID`.
    pub uses_view_id: u8,
    /// The stage's two bytes: a geometry shader's `MaxVertexCount` (u16); for hull, domain
    /// and mesh shaders `SigPatchConstOrPrimVectors`, then a mesh shader's
    /// `MeshOutputTopology`.
    pub stage_bytes: [u8; 2],
    /// `SigInputElements`.
    pub input_elements: u8,
    /// `SigOutputElements`.
    pub output_elements: u8,
    /// `SigPatchConstOrPrimElements`.
    pub patch_constant_or_primitive_elements: u8,
    /// `SigInputVectors`: packed rows of the input signature.
    pub input_vectors: u8,
    /// `SigOutputVectors`: packed rows of the output signature, per stream.
    pub output_vectors: [u8; STREAMS],
}

impl Info1 {
    /// The shader kind the stage byte names.
    pub fn kind(&self) -> ShaderKind {
        ShaderKind::from_u16(u16::from(self.shader_stage))
    }

    /// A geometry shader's `MaxVertexCount`.
    pub fn max_vertex_count(&self) -> Option<u16> {
        (self.kind() == ShaderKind::Geometry).then(|| u16::from_le_bytes(self.stage_bytes))
    }

    /// `SigPatchConstOrPrimVectors`: the packed rows of a hull shader's patch constant output,
    /// a domain shader's patch constant input, a mesh shader's primitive output.
    pub fn patch_constant_or_primitive_vectors(&self) -> Option<u8> {
        matches!(self.kind(), ShaderKind::Hull | ShaderKind::Domain | ShaderKind::Mesh)
            .then_some(self.stage_bytes[0])
    }

    /// A mesh shader's `MeshOutputTopology` (0 undefined, 1 line, 2 triangle).
    pub fn mesh_output_topology(&self) -> Option<u8> {
        (self.kind() == ShaderKind::Mesh).then_some(self.stage_bytes[1])
    }
}

/// `PSVRuntimeInfoN`, as far as its version goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeInfo<'a> {
    /// The stage's fields, a union of DXC's `VSInfo`, `HSInfo`, … (see [`stage_fields`]).
    pub stage_info: [u8; 16],
    /// `MinimumExpectedWaveLaneCount` (0: none required).
    pub min_wave_lanes: u32,
    /// `MaximumExpectedWaveLaneCount` (0xFFFFFFFF: none required).
    pub max_wave_lanes: u32,
    /// Version 1 and later.
    pub v1: Option<Info1>,
    /// Version 2 and later: `NumThreadsX/Y/Z`.
    pub num_threads: Option<[u32; 3]>,
    /// Version 3 and later: `EntryFunctionName`, an offset in the string table, and the name.
    pub entry_function_name: Option<(u32, Cstr<'a>)>,
    /// Version 4 and later: `NumBytesGroupSharedMemory`.
    pub group_shared_bytes: Option<u32>,
}

/// A resource binding (`PSVResourceBindInfo0/1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceBinding {
    /// Absolute offset of the record.
    pub offset: usize,
    /// `ResType` (`PSVResourceType`: sampler, CBV, SRV and UAV forms).
    pub res_type: u32,
    /// Register space.
    pub space: u32,
    /// First register.
    pub lower_bound: u32,
    /// Last register (0xFFFFFFFF: unbounded).
    pub upper_bound: u32,
    /// Records of 24 bytes and more: `ResKind` (`PSVResourceKind`) and `ResFlags`.
    pub kind_flags: Option<(u32, u32)>,
}

/// Which signature an element belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ElementSet {
    /// The input signature.
    Input,
    /// The output signature.
    Output,
    /// The patch constant signature (hull and domain shaders) or the primitive output (mesh
    /// shaders).
    PatchConstantOrPrimitive,
}

impl ElementSet {
    /// The name in text and JSON.
    pub fn name(self) -> &'static str {
        match self {
            ElementSet::Input => "input",
            ElementSet::Output => "output",
            ElementSet::PatchConstantOrPrimitive => "patch_constant_or_primitive",
        }
    }
}

/// A signature element (`PSVSignatureElement0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// The signature it belongs to.
    pub set: ElementSet,
    /// `SemanticName`: an offset in the string table.
    pub name_offset: u32,
    /// The semantic name.
    pub name: Cstr<'a>,
    /// `SemanticIndexes`: the first of its `rows` entries in the semantic index table.
    pub semantic_indexes: u32,
    /// `Rows`.
    pub rows: u8,
    /// `StartRow` (meaningful when allocated).
    pub start_row: u8,
    /// `ColsAndStart`: columns in bits 0–3, start column in 4–5, allocated in 6.
    pub cols_and_start: u8,
    /// `SemanticKind` (`PSVSemanticKind`).
    pub semantic_kind: u8,
    /// `ComponentType` (`DxilProgramSigCompType`).
    pub component_type: u8,
    /// `InterpolationMode` (`DXIL::InterpolationMode`).
    pub interpolation_mode: u8,
    /// `DynamicMaskAndStream`: the dynamically indexed components in bits 0–3, the output
    /// stream in 4–5.
    pub dynamic_mask_and_stream: u8,
    /// `Reserved`.
    pub reserved: u8,
}

impl Element<'_> {
    /// Columns.
    pub fn cols(&self) -> u8 {
        self.cols_and_start & 0xf
    }

    /// Whether the element has a packed location (start row and column).
    pub fn allocated(&self) -> bool {
        self.cols_and_start & 0x40 != 0
    }

    /// The start row, when allocated.
    pub fn start_row(&self) -> Option<u8> {
        self.allocated().then_some(self.start_row)
    }

    /// The start column, when allocated.
    pub fn start_col(&self) -> Option<u8> {
        self.allocated().then_some((self.cols_and_start >> 4) & 3)
    }

    /// The components that are indexed dynamically.
    pub fn dynamic_index_mask(&self) -> u8 {
        self.dynamic_mask_and_stream & 0xf
    }

    /// The output stream (geometry shaders).
    pub fn output_stream(&self) -> u8 {
        (self.dynamic_mask_and_stream >> 4) & 3
    }
}

/// What a dependency mask or table says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DependencyKind {
    /// The outputs (of a stream) that `SV_ViewID` affects: one mask.
    ViewIdOutputs {
        /// The stream.
        stream: u8,
    },
    /// The patch constant outputs (hull shaders) or primitive outputs (mesh shaders)
    /// `SV_ViewID` affects.
    ViewIdPatchConstantOrPrimitive,
    /// The outputs (of a stream) each input component affects.
    InputToOutput {
        /// The stream.
        stream: u8,
    },
    /// The patch constant outputs each input component of a hull shader affects.
    InputToPatchConstant,
    /// The outputs each patch constant input component of a domain shader affects.
    PatchConstantToOutput,
}

impl DependencyKind {
    /// The name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            DependencyKind::ViewIdOutputs { .. } => "view_id_outputs",
            DependencyKind::ViewIdPatchConstantOrPrimitive => "view_id_patch_constant_or_primitive",
            DependencyKind::InputToOutput { .. } => "input_to_output",
            DependencyKind::InputToPatchConstant => "input_to_patch_constant",
            DependencyKind::PatchConstantToOutput => "patch_constant_to_output",
        }
    }

    /// The stream, for the kinds that have one.
    pub fn stream(self) -> Option<u8> {
        match self {
            DependencyKind::ViewIdOutputs { stream } | DependencyKind::InputToOutput { stream } => {
                Some(stream)
            }
            _ => None,
        }
    }

    /// What it says, in words: `outputs ViewID affects (stream 0)`.
    pub fn describe(self) -> String {
        let stream = |s: u8| format!(" (stream {s})");
        match self {
            DependencyKind::ViewIdOutputs { stream: s } => format!("outputs ViewID affects{}", stream(s)),
            DependencyKind::ViewIdPatchConstantOrPrimitive => {
                "patch constant or primitive outputs ViewID affects".into()
            }
            DependencyKind::InputToOutput { stream: s } => format!("outputs each input affects{}", stream(s)),
            DependencyKind::InputToPatchConstant => "patch constant outputs each input affects".into(),
            DependencyKind::PatchConstantToOutput => "outputs each patch constant input affects".into(),
        }
    }
}

/// A dependency mask or table: a row of bits (one per output component, 4 per vector) per
/// input component, or one row for ViewID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dependency<'a> {
    /// What it says.
    pub kind: DependencyKind,
    /// Absolute offset of its first word.
    pub offset: usize,
    /// Input vectors (rows are 4 per vector); 0 for a ViewID mask, which is one row.
    pub input_vectors: u8,
    /// Output vectors: a row has a bit per output component, in whole words.
    pub output_vectors: u8,
    /// The words, row after row.
    pub words: Words<'a>,
}

impl Dependency<'_> {
    /// Words per row: `PSVComputeMaskDwordsFromVectors`.
    pub fn row_words(&self) -> usize {
        mask_words(self.output_vectors)
    }

    /// Number of rows: one per input component, one for a ViewID mask.
    pub fn rows(&self) -> usize {
        match self.kind {
            DependencyKind::ViewIdOutputs { .. } | DependencyKind::ViewIdPatchConstantOrPrimitive => 1,
            _ => 4 * usize::from(self.input_vectors),
        }
    }

    /// The output components row `row` names (component `c` is vector `c / 4`, component
    /// `xyzw[c % 4]`), in order; bits past the output vectors are left out.
    pub fn outputs(&self, row: usize) -> impl Iterator<Item = u32> + '_ {
        let per = self.row_words();
        let components = 4 * u32::from(self.output_vectors);
        (0..per)
            .flat_map(move |w| {
                let word = self.words.get(row * per + w).unwrap_or(0);
                (0..32u32).filter(move |b| word & (1 << b) != 0).map(move |b| 32 * w as u32 + b)
            })
            .filter(move |&c| c < components)
    }
}

/// `PSVComputeMaskDwordsFromVectors`: the words of a mask of `vectors` × 4 components.
fn mask_words(vectors: u8) -> usize {
    (usize::from(vectors) + 7) >> 3
}

/// A table with its size field: the string table, the semantic index table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table<'a> {
    /// Absolute offset of the size (or count) field.
    pub field: usize,
    /// Absolute offset of the table's first byte.
    pub offset: usize,
    /// The table's bytes.
    pub bytes: &'a [u8],
}

/// A parsed PSV0 part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Psv<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// The runtime info size the part declares.
    pub info_size: u32,
    /// The version that size gives (0 to 4).
    pub version: u32,
    /// The runtime info.
    pub info: RuntimeInfo<'a>,
    /// Absolute offset of the resource count.
    pub resource_count_at: usize,
    /// The resource record size, when there are resources.
    pub resource_size: Option<u32>,
    /// The resource bindings.
    pub resources: Vec<ResourceBinding>,
    /// Version 1 and later: the string table.
    pub strings: Option<Table<'a>>,
    /// Version 1 and later: the semantic index table.
    pub semantic_index_table: Option<Table<'a>>,
    /// The signature element size, when there are elements.
    pub element_size: Option<u32>,
    /// The signature elements: input, then output, then patch constant or primitive.
    pub elements: Vec<Element<'a>>,
    /// The dependency masks and tables, in file order.
    pub dependencies: Vec<Dependency<'a>>,
    /// Bytes after the last table (none in compiler output).
    pub rest: &'a [u8],
    /// Absolute offset of [`Psv::rest`].
    pub rest_offset: usize,
}

impl<'a> Psv<'a> {
    /// Parse a PSV0 payload at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let mut r = Reader::with_base(data, base as u64, Endian::Little);
        let info_size = r.u32("PSV0 runtime info size")?;
        if info_size < RUNTIME_INFO_SIZES[0] {
            return Err(Error::invalid(
                base as u64,
                "PSV0 runtime info size",
                format!("{info_size} is smaller than PSVRuntimeInfo0 (24 bytes)"),
            ));
        }
        let info_at = r.original_position();
        let info_bytes = r.bytes(info_size as usize, "PSV0 runtime info")?;
        let version = RUNTIME_INFO_SIZES.iter().rposition(|&s| s <= info_size).unwrap_or(0) as u32;
        let ri = Reader::with_base(info_bytes, info_at, Endian::Little);
        let what = "PSV0 runtime info";
        let v1 = if version >= 1 {
            Some(Info1 {
                shader_stage: ri.u8_at(24, what)?,
                uses_view_id: ri.u8_at(25, what)?,
                stage_bytes: ri.array_at::<2>(26, what)?,
                input_elements: ri.u8_at(28, what)?,
                output_elements: ri.u8_at(29, what)?,
                patch_constant_or_primitive_elements: ri.u8_at(30, what)?,
                input_vectors: ri.u8_at(31, what)?,
                output_vectors: ri.array_at::<4>(32, what)?,
            })
        } else {
            None
        };
        let num_threads = if version >= 2 {
            Some([ri.u32_at(36, what)?, ri.u32_at(40, what)?, ri.u32_at(44, what)?])
        } else {
            None
        };
        let entry_offset = if version >= 3 { Some((ri.u32_at(48, what)?, info_at + 48)) } else { None };
        let group_shared_bytes = if version >= 4 { Some(ri.u32_at(52, what)?) } else { None };
        let info = RuntimeInfo {
            stage_info: ri.array_at::<16>(0, what)?,
            min_wave_lanes: ri.u32_at(16, what)?,
            max_wave_lanes: ri.u32_at(20, what)?,
            v1,
            num_threads,
            entry_function_name: None,
            group_shared_bytes,
        };

        let resource_count_at = r.original_position() as usize;
        let resource_count = r.u32("PSV0 resource count")?;
        let mut resource_size = None;
        let mut resources = Vec::new();
        if resource_count > 0 {
            let size_at = r.original_position();
            let size = r.u32("PSV0 resource record size")?;
            if size < RESOURCE_RECORD_SIZES[0] {
                return Err(Error::invalid(
                    size_at,
                    "PSV0 resource record size",
                    format!("{size} is smaller than PSVResourceBindInfo0 (16 bytes)"),
                ));
            }
            let records = table(&mut r, resource_count, size, "PSV0 resource bindings")?;
            resources.reserve(resource_count as usize);
            for i in 0..resource_count as usize {
                let at = i * size as usize;
                let w = |k: usize| records.u32_at(at + 4 * k, "PSV0 resource binding");
                resources.push(ResourceBinding {
                    offset: records.base() as usize + at,
                    res_type: w(0)?,
                    space: w(1)?,
                    lower_bound: w(2)?,
                    upper_bound: w(3)?,
                    kind_flags: if size >= RESOURCE_RECORD_SIZES[1] { Some((w(4)?, w(5)?)) } else { None },
                });
            }
            resource_size = Some(size);
        }

        let mut psv = Psv {
            offset: base,
            info_size,
            version,
            info,
            resource_count_at,
            resource_size,
            resources,
            strings: None,
            semantic_index_table: None,
            element_size: None,
            elements: Vec::new(),
            dependencies: Vec::new(),
            rest: &[],
            rest_offset: 0,
        };
        if let Some(i1) = v1 {
            psv.read_v1(&mut r, &i1)?;
            if let Some((offset, field)) = entry_offset {
                let name = psv.string(offset, field as usize, "PSV0 entry function name")?;
                psv.info.entry_function_name = Some((offset, name));
            }
        }
        psv.rest = r.data().get(r.position()..).unwrap_or(&[]);
        psv.rest_offset = r.original_position() as usize;
        Ok(psv)
    }

    /// The tables of version 1 and later, after the resources.
    fn read_v1(&mut self, r: &mut Reader<'a>, i1: &Info1) -> Result<()> {
        let field = r.original_position() as usize;
        let size = r.u32("PSV0 string table size")?;
        if size % 4 != 0 {
            return Err(Error::invalid(
                field as u64,
                "PSV0 string table size",
                format!("{size} is not a multiple of 4"),
            ));
        }
        let offset = r.original_position() as usize;
        self.strings = Some(Table { field, offset, bytes: r.bytes(size as usize, "PSV0 string table")? });

        let field = r.original_position() as usize;
        let entries = r.u32("PSV0 semantic index count")?;
        let offset = r.original_position() as usize;
        let bytes = table(r, entries, 4, "PSV0 semantic index table")?.data();
        self.semantic_index_table = Some(Table { field, offset, bytes });

        let counts = [
            (ElementSet::Input, i1.input_elements),
            (ElementSet::Output, i1.output_elements),
            (ElementSet::PatchConstantOrPrimitive, i1.patch_constant_or_primitive_elements),
        ];
        if counts.iter().any(|(_, n)| *n > 0) {
            let size_at = r.original_position();
            let size = r.u32("PSV0 signature element size")?;
            if size < ELEMENT_SIZE {
                return Err(Error::invalid(
                    size_at,
                    "PSV0 signature element size",
                    format!("{size} is smaller than PSVSignatureElement0 (16 bytes)"),
                ));
            }
            self.element_size = Some(size);
            for (set, n) in counts {
                let records = table(r, u32::from(n), size, "PSV0 signature elements")?;
                for i in 0..usize::from(n) {
                    self.elements.push(self.element(&records, i * size as usize, set)?);
                }
            }
        }

        let kind = i1.kind();
        let (gs, hs, ds, ms) = (
            kind == ShaderKind::Geometry,
            kind == ShaderKind::Hull,
            kind == ShaderKind::Domain,
            kind == ShaderKind::Mesh,
        );
        let pc = i1.stage_bytes[0];
        let streams = if gs { STREAMS } else { 1 };
        let mut wanted: Vec<(DependencyKind, u8, u8)> = Vec::new();
        if i1.uses_view_id != 0 {
            for (s, &out) in i1.output_vectors.iter().enumerate().take(streams) {
                if out != 0 {
                    wanted.push((DependencyKind::ViewIdOutputs { stream: s as u8 }, 0, out));
                }
            }
            if (hs || ms) && pc != 0 {
                wanted.push((DependencyKind::ViewIdPatchConstantOrPrimitive, 0, pc));
            }
        }
        for (s, &out) in i1.output_vectors.iter().enumerate().take(streams) {
            if !ms && out > 0 && i1.input_vectors > 0 {
                wanted.push((DependencyKind::InputToOutput { stream: s as u8 }, i1.input_vectors, out));
            }
        }
        if hs && pc > 0 && i1.input_vectors > 0 {
            wanted.push((DependencyKind::InputToPatchConstant, i1.input_vectors, pc));
        }
        if ds && i1.output_vectors[0] > 0 && pc > 0 {
            wanted.push((DependencyKind::PatchConstantToOutput, pc, i1.output_vectors[0]));
        }
        for (kind, inputs, outputs) in wanted {
            let rows = if inputs == 0 { 1 } else { 4 * u32::from(inputs) };
            let words = rows * mask_words(outputs) as u32;
            let offset = r.original_position() as usize;
            let bytes = table(r, words, 4, "PSV0 dependency table")?.data();
            self.dependencies.push(Dependency {
                kind,
                offset,
                input_vectors: inputs,
                output_vectors: outputs,
                words: Words::new(bytes),
            });
        }
        Ok(())
    }

    /// The element record at `at` of `records`.
    fn element(&self, records: &Reader<'a>, at: usize, set: ElementSet) -> Result<Element<'a>> {
        let what = "PSV0 signature element";
        let offset = records.base() as usize + at;
        let name_offset = records.u32_at(at, what)?;
        let semantic_indexes = records.u32_at(at + 4, what)?;
        let b = records.array_at::<8>(at + 8, what)?;
        let rows = b[0];
        let entries = self.semantic_index_table.map_or(0, |t| t.bytes.len() / 4) as u64;
        if u64::from(semantic_indexes) + u64::from(rows) > entries {
            return Err(Error::invalid(
                offset as u64 + 4,
                "PSV0 signature element",
                format!(
                    "its {} semantic indexes from entry {semantic_indexes} are outside the {entries}-entry semantic index table",
                    rows
                ),
            ));
        }
        Ok(Element {
            offset,
            set,
            name_offset,
            name: self.string(name_offset, offset, "PSV0 semantic name")?,
            semantic_indexes,
            rows,
            start_row: b[1],
            cols_and_start: b[2],
            semantic_kind: b[3],
            component_type: b[4],
            interpolation_mode: b[5],
            dynamic_mask_and_stream: b[6],
            reserved: b[7],
        })
    }

    /// The string at `offset` of the string table; `field` is the absolute offset of the
    /// field that holds it.
    fn string(&self, offset: u32, field: usize, what: &'static str) -> Result<Cstr<'a>> {
        let table = self.strings.unwrap_or(Table { field: 0, offset: 0, bytes: &[] });
        if offset as usize >= table.bytes.len() {
            return Err(Error::out_of_bounds(
                field as u64,
                what,
                (table.offset as u64).saturating_add(u64::from(offset)),
                1,
                (table.offset + table.bytes.len()) as u64,
            ));
        }
        Reader::with_base(table.bytes, table.offset as u64, Endian::Little).cstr_at(offset as usize, what)
    }

    /// The semantic index table's entries.
    pub fn semantic_indexes(&self) -> Words<'a> {
        Words::new(self.semantic_index_table.map_or(&[][..], |t| t.bytes))
    }

    /// The semantic indexes of `e`, one per row.
    pub fn indexes_of(&self, e: &Element<'_>) -> impl Iterator<Item = u32> + 'a {
        let all = self.semantic_indexes();
        (e.semantic_indexes as usize..e.semantic_indexes as usize + usize::from(e.rows))
            .filter_map(move |i| all.get(i))
    }

    /// The shader kind the runtime info names (version 1 and later).
    pub fn kind(&self) -> Option<ShaderKind> {
        self.info.v1.map(|i| i.kind())
    }
}

/// `count` records of `size` bytes at the cursor, as a reader over them; the cursor moves
/// past them. The count is checked against the bytes that remain.
fn table<'a>(r: &mut Reader<'a>, count: u32, size: u32, what: &'static str) -> Result<Reader<'a>> {
    let at = r.original_position();
    let Some(len) = u64::from(count).checked_mul(u64::from(size)).and_then(|n| usize::try_from(n).ok())
    else {
        return Err(Error::overflow(at, what));
    };
    let bytes = r.bytes(len, what)?;
    Ok(Reader::with_base(bytes, at, Endian::Little))
}

/// One field of the stage's union of the runtime info: its name (DXC's, in snake case),
/// its offset in the union, its size and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageField {
    /// `input_control_point_count`, `output_position_present`, …
    pub name: &'static str,
    /// Offset in the union (the runtime info).
    pub at: usize,
    /// Size in bytes (1, 2 or 4).
    pub size: usize,
    /// The value.
    pub value: u32,
}

/// The fields of the runtime info's stage union for a `kind` of shader (`VSInfo`, `HSInfo`,
/// `DSInfo`, `GSInfo`, `PSInfo`, `MSInfo`, `ASInfo`); none for the kinds without one.
pub fn stage_fields(kind: ShaderKind, union: &[u8; 16]) -> Vec<StageField> {
    const VS: &[(&str, usize, usize)] = &[("output_position_present", 0, 1)];
    const HS: &[(&str, usize, usize)] = &[
        ("input_control_point_count", 0, 4),
        ("output_control_point_count", 4, 4),
        ("tessellator_domain", 8, 4),
        ("tessellator_output_primitive", 12, 4),
    ];
    const DS: &[(&str, usize, usize)] = &[
        ("input_control_point_count", 0, 4),
        ("output_position_present", 4, 1),
        ("tessellator_domain", 8, 4),
    ];
    const GS: &[(&str, usize, usize)] = &[
        ("input_primitive", 0, 4),
        ("output_topology", 4, 4),
        ("output_stream_mask", 8, 4),
        ("output_position_present", 12, 1),
    ];
    const PS: &[(&str, usize, usize)] = &[("depth_output", 0, 1), ("sample_frequency", 1, 1)];
    const MS: &[(&str, usize, usize)] = &[
        ("group_shared_bytes_used", 0, 4),
        ("group_shared_bytes_dependent_on_view_id", 4, 4),
        ("payload_size_in_bytes", 8, 4),
        ("max_output_vertices", 12, 2),
        ("max_output_primitives", 14, 2),
    ];
    const AS: &[(&str, usize, usize)] = &[("payload_size_in_bytes", 0, 4)];
    let layout: &[(&str, usize, usize)] = match kind {
        ShaderKind::Vertex => VS,
        ShaderKind::Hull => HS,
        ShaderKind::Domain => DS,
        ShaderKind::Geometry => GS,
        ShaderKind::Pixel => PS,
        ShaderKind::Mesh => MS,
        ShaderKind::Amplification => AS,
        _ => &[],
    };
    layout
        .iter()
        .map(|&(name, at, size)| {
            let mut b = [0u8; 4];
            if let (Some(dst), Some(src)) = (b.get_mut(..size), union.get(at..at + size)) {
                dst.copy_from_slice(src);
            }
            StageField { name, at, size, value: u32::from_le_bytes(b) }
        })
        .collect()
}

/// `PSVResourceType`.
pub(crate) fn resource_type_name(t: u32) -> Option<&'static str> {
    const NAMES: [&str; 10] = [
        "Invalid",
        "Sampler",
        "CBV",
        "SRVTyped",
        "SRVRaw",
        "SRVStructured",
        "UAVTyped",
        "UAVRaw",
        "UAVStructured",
        "UAVStructuredWithCounter",
    ];
    NAMES.get(t as usize).copied()
}

/// `PSVResourceKind` (`DXIL::ResourceKind`).
pub(crate) fn resource_kind_name(k: u32) -> Option<&'static str> {
    const NAMES: [&str; 19] = [
        "Invalid",
        "Texture1D",
        "Texture2D",
        "Texture2DMS",
        "Texture3D",
        "TextureCube",
        "Texture1DArray",
        "Texture2DArray",
        "Texture2DMSArray",
        "TextureCubeArray",
        "TypedBuffer",
        "RawBuffer",
        "StructuredBuffer",
        "CBuffer",
        "Sampler",
        "TBuffer",
        "RTAccelerationStructure",
        "FeedbackTexture2D",
        "FeedbackTexture2DArray",
    ];
    NAMES.get(k as usize).copied()
}

/// `PSVSemanticKind` (`DXIL::SemanticKind`).
pub(crate) fn semantic_kind_name(k: u8) -> Option<&'static str> {
    const NAMES: [&str; 33] = [
        "Arbitrary",
        "VertexID",
        "InstanceID",
        "Position",
        "RenderTargetArrayIndex",
        "ViewPortArrayIndex",
        "ClipDistance",
        "CullDistance",
        "OutputControlPointID",
        "DomainLocation",
        "PrimitiveID",
        "GSInstanceID",
        "SampleIndex",
        "IsFrontFace",
        "Coverage",
        "InnerCoverage",
        "Target",
        "Depth",
        "DepthLessEqual",
        "DepthGreaterEqual",
        "StencilRef",
        "DispatchThreadID",
        "GroupID",
        "GroupIndex",
        "GroupThreadID",
        "TessFactor",
        "InsideTessFactor",
        "ViewID",
        "Barycentrics",
        "ShadingRate",
        "CullPrimitive",
        "StartVertexLocation",
        "StartInstanceLocation",
    ];
    NAMES.get(usize::from(k)).copied()
}

/// `DxilProgramSigCompType`, the component type of a PSV0 element.
pub fn component_type_name(t: u8) -> Option<&'static str> {
    const NAMES: [&str; 10] = [
        "Unknown", "UInt32", "SInt32", "Float32", "UInt16", "SInt16", "Float16", "UInt64", "SInt64",
        "Float64",
    ];
    NAMES.get(usize::from(t)).copied()
}

/// `DXIL::InterpolationMode`.
pub(crate) fn interpolation_mode_name(m: u8) -> Option<&'static str> {
    const NAMES: [&str; 8] = [
        "Undefined",
        "Constant",
        "Linear",
        "LinearCentroid",
        "LinearNoperspective",
        "LinearNoperspectiveCentroid",
        "LinearSample",
        "LinearNoperspectiveSample",
    ];
    NAMES.get(usize::from(m)).copied()
}

/// The letter of component `c` within its vector (`x` to `w`).
fn component_letter(c: u32) -> char {
    match c % 4 {
        0 => 'x',
        1 => 'y',
        2 => 'z',
        _ => 'w',
    }
}

/// Output component `c` as `vector.component`: `1.z`.
pub(crate) fn component_text(c: u32) -> String {
    format!("{}.{}", c / 4, component_letter(c))
}

/// Components (in order) grouped by vector: `0.xy 1.z`.
pub fn components_text(components: impl Iterator<Item = u32>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last = None;
    for c in components {
        let letter = component_letter(c);
        match out.last_mut() {
            Some(s) if last == Some(c / 4) => s.push(letter),
            _ => {
                out.push(format!("{}.{letter}", c / 4));
                last = Some(c / 4);
            }
        }
    }
    out
}
