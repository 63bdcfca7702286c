//! What `info` says about DXC's parts (PSV0, RDAT, ILDN, HASH): each as one
//! `#[derive(Serialize)]` value, its JSON, with the text written from the same value.

use super::chunks::{CompilerVersion, DebugName, HASH_INCLUDES_SOURCE, ShaderHash};
use super::dxil::ShaderKind;
use super::psv::{self, Psv};
use super::rdat::{self, Rdat};
use crate::print::count;
use serde::Serialize;
use serde::ser::SerializeMap;

/// How much of a name read from a DXC part `info` shows: names are identifiers, and a hostile
/// file whose records all name one long string would otherwise repeat it for every record.
pub const NAME_SHOWN: usize = 256;

/// The text of `bytes`, cut to [`NAME_SHOWN`] bytes (at a character boundary) and marked `…`
/// when longer.
/// Control characters (the `\x01` DXC puts before a mangled name) are shown as `\xNN`.
pub fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut end = text.len().min(NAME_SHOWN);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = String::with_capacity(end + 4);
    for c in text.get(..end).unwrap_or("").chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    if end < text.len() {
        out.push('…');
    }
    out
}

/// Named values in their order, serialised as a JSON object.
#[derive(Debug, Default)]
pub struct Fields(pub Vec<(&'static str, u32)>);

impl Serialize for Fields {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// ILDN.
#[derive(Debug, Serialize)]
pub struct DebugNameInfo {
    offset: usize,
    flags: u16,
    name_length: u16,
    name: String,
}

impl DebugNameInfo {
    /// From the parsed part.
    pub fn new(n: &DebugName<'_>) -> Self {
        DebugNameInfo { offset: n.offset, flags: n.flags, name_length: n.name_length, name: shown(n.name) }
    }

    /// `debug name: 0123….pdb (ILDN at 0x…)`.
    pub fn text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        write!(s, "debug name: {} (ILDN at 0x{:x}", self.name, self.offset)?;
        if self.flags != 0 {
            write!(s, ", flags 0x{:x}", self.flags)?;
        }
        writeln!(s, ")")
    }
}

/// VERS.
#[derive(Debug, Serialize)]
pub struct CompilerVersionInfo {
    offset: usize,
    major: u16,
    minor: u16,
    flags: u32,
    commit_count: u32,
    commit: Option<String>,
    version_string: Option<String>,
}

impl CompilerVersionInfo {
    /// From the parsed part.
    pub fn new(v: &CompilerVersion<'_>) -> Self {
        let strings = v.string_list();
        let text = |i: usize| strings.get(i).map(|s| shown(s.bytes));
        CompilerVersionInfo {
            offset: v.offset,
            major: v.major,
            minor: v.minor,
            flags: v.flags,
            commit_count: v.commit_count,
            commit: text(0),
            version_string: text(1),
        }
    }

    /// `compiler:  dxc 1.8.2403.34 (1.8, commit c9660a8c, 4458 commits; VERS at 0x…)`.
    pub fn text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        let version = self.version_string.as_deref().filter(|v| !v.is_empty());
        write!(
            s,
            "compiler:  dxc {}",
            version.map_or_else(|| format!("{}.{}", self.major, self.minor), str::to_string)
        )?;
        write!(s, " (version {}.{}", self.major, self.minor)?;
        if let Some(c) = self.commit.as_deref().filter(|c| !c.is_empty()) {
            write!(s, ", commit {c}")?;
        }
        write!(s, ", {}", count(self.commit_count, "commit"))?;
        let flags: Vec<&str> = [(1, "debug build"), (2, "internal validator")]
            .iter()
            .filter(|(bit, _)| self.flags & bit != 0)
            .map(|(_, name)| *name)
            .collect();
        if !flags.is_empty() {
            write!(s, ", {}", flags.join(", "))?;
        }
        if self.flags & !3 != 0 {
            write!(s, ", flags 0x{:x}", self.flags)?;
        }
        writeln!(s, "; VERS at 0x{:x})", self.offset)
    }
}

/// HASH.
#[derive(Debug, Serialize)]
pub struct ShaderHashInfo {
    offset: usize,
    flags: u32,
    includes_source: bool,
    digest: String,
    /// Whether the digest is the MD5 of the DXIL part's bitcode; `None` when it was computed
    /// over what the file does not hold, or the container has no DXIL part.
    matches_bitcode: Option<bool>,
}

impl ShaderHashInfo {
    /// From the parsed part and the DXIL program's bitcode.
    pub fn new(h: &ShaderHash<'_>, bitcode: Option<&[u8]>) -> Self {
        ShaderHashInfo {
            offset: h.offset,
            flags: h.flags,
            includes_source: h.flags & HASH_INCLUDES_SOURCE != 0,
            digest: h.digest_hex(),
            matches_bitcode: bitcode.and_then(|b| h.matches(b)),
        }
    }

    /// `shader hash: … (HASH at 0x…; the MD5 of the DXIL bitcode)`.
    pub fn text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        let what = match (self.includes_source, self.matches_bitcode) {
            (true, _) => "computed with the source (flag 1), not checked",
            (false, Some(true)) => "the MD5 of the DXIL bitcode",
            (false, Some(false)) => "NOT the MD5 of the DXIL bitcode",
            (false, None) => "no DXIL bitcode to check it against",
        };
        write!(s, "shader hash: {} (HASH at 0x{:x}", self.digest, self.offset)?;
        if self.flags & !HASH_INCLUDES_SOURCE != 0 {
            write!(s, ", flags 0x{:x}", self.flags)?;
        }
        writeln!(s, "; {what})")
    }
}

#[derive(Debug, Serialize)]
struct PsvResource {
    offset: usize,
    #[serde(rename = "type")]
    res_type: u32,
    type_name: Option<&'static str>,
    space: u32,
    lower_bound: u32,
    upper_bound: u32,
    kind: Option<u32>,
    kind_name: Option<&'static str>,
    flags: Option<u32>,
}

#[derive(Debug, Serialize)]
struct PsvElement {
    offset: usize,
    signature: &'static str,
    semantic_name: String,
    semantic_index_entry: u32,
    rows: u8,
    columns: u8,
    start_row: Option<u8>,
    start_column: Option<u8>,
    semantic_kind: u8,
    semantic_kind_name: Option<&'static str>,
    component_type: u8,
    component_type_name: Option<&'static str>,
    interpolation_mode: u8,
    interpolation_mode_name: Option<&'static str>,
    dynamic_index_mask: u8,
    output_stream: u8,
}

#[derive(Debug, Serialize)]
struct DependencyRow {
    /// The input component (`1.z`); none for a ViewID mask.
    input: Option<String>,
    /// The output components it affects, by vector (`0.xy`, `1.z`).
    outputs: Vec<String>,
}

#[derive(Debug, Serialize)]
struct PsvDependency {
    kind: &'static str,
    stream: Option<u8>,
    offset: usize,
    size: usize,
    input_vectors: u8,
    output_vectors: u8,
    /// The rows that name an output.
    rows: Vec<DependencyRow>,
}

#[derive(Debug, Serialize)]
struct PsvCounts {
    input: u8,
    output: u8,
    patch_constant_or_primitive: u8,
}

/// PSV0.
#[derive(Debug, Serialize)]
pub struct PsvInfo {
    offset: usize,
    version: u32,
    runtime_info_size: u32,
    /// The stage the runtime info names (version 1 on), else the DXIL program's.
    shader_stage: Option<&'static str>,
    stage_info: Fields,
    minimum_wave_lane_count: u32,
    maximum_wave_lane_count: u32,
    uses_view_id: Option<bool>,
    max_vertex_count: Option<u16>,
    mesh_output_topology: Option<u8>,
    signature_elements: Option<PsvCounts>,
    input_vectors: Option<u8>,
    output_vectors: Option<[u8; psv::STREAMS]>,
    patch_constant_or_primitive_vectors: Option<u8>,
    num_threads: Option<[u32; 3]>,
    entry_function_name: Option<String>,
    group_shared_bytes: Option<u32>,
    resource_record_size: Option<u32>,
    resources: Vec<PsvResource>,
    string_table_size: Option<usize>,
    semantic_index_table: Vec<u32>,
    element_record_size: Option<u32>,
    elements: Vec<PsvElement>,
    dependencies: Vec<PsvDependency>,
    trailing_bytes: usize,
}

impl PsvInfo {
    /// From the parsed part; `program` is the DXIL program's kind (for a version 0 part,
    /// which does not name its stage).
    pub fn new(p: &Psv<'_>, program: Option<ShaderKind>) -> Self {
        let kind = p.kind().or(program);
        let i1 = p.info.v1;
        PsvInfo {
            offset: p.offset,
            version: p.version,
            runtime_info_size: p.info_size,
            shader_stage: kind.map(ShaderKind::name),
            stage_info: Fields(
                kind.map(|k| psv::stage_fields(k, &p.info.stage_info))
                    .unwrap_or_default()
                    .iter()
                    .map(|f| (f.name, f.value))
                    .collect(),
            ),
            minimum_wave_lane_count: p.info.min_wave_lanes,
            maximum_wave_lane_count: p.info.max_wave_lanes,
            uses_view_id: i1.map(|i| i.uses_view_id != 0),
            max_vertex_count: i1.and_then(|i| i.max_vertex_count()),
            mesh_output_topology: i1.and_then(|i| i.mesh_output_topology()),
            signature_elements: i1.map(|i| PsvCounts {
                input: i.input_elements,
                output: i.output_elements,
                patch_constant_or_primitive: i.patch_constant_or_primitive_elements,
            }),
            input_vectors: i1.map(|i| i.input_vectors),
            output_vectors: i1.map(|i| i.output_vectors),
            patch_constant_or_primitive_vectors: i1.and_then(|i| i.patch_constant_or_primitive_vectors()),
            num_threads: p.info.num_threads,
            entry_function_name: p.info.entry_function_name.map(|(_, n)| shown(n.bytes)),
            group_shared_bytes: p.info.group_shared_bytes,
            resource_record_size: p.resource_size,
            resources: p
                .resources
                .iter()
                .map(|r| PsvResource {
                    offset: r.offset,
                    res_type: r.res_type,
                    type_name: psv::resource_type_name(r.res_type),
                    space: r.space,
                    lower_bound: r.lower_bound,
                    upper_bound: r.upper_bound,
                    kind: r.kind_flags.map(|k| k.0),
                    kind_name: r.kind_flags.and_then(|k| psv::resource_kind_name(k.0)),
                    flags: r.kind_flags.map(|k| k.1),
                })
                .collect(),
            string_table_size: p.strings.map(|t| t.bytes.len()),
            semantic_index_table: p.semantic_indexes().iter().collect(),
            element_record_size: p.element_size,
            elements: p
                .elements
                .iter()
                .map(|e| PsvElement {
                    offset: e.offset,
                    signature: e.set.name(),
                    semantic_name: shown(e.name.bytes),
                    semantic_index_entry: e.semantic_indexes,
                    rows: e.rows,
                    columns: e.cols(),
                    start_row: e.start_row(),
                    start_column: e.start_col(),
                    semantic_kind: e.semantic_kind,
                    semantic_kind_name: psv::semantic_kind_name(e.semantic_kind),
                    component_type: e.component_type,
                    component_type_name: psv::component_type_name(e.component_type),
                    interpolation_mode: e.interpolation_mode,
                    interpolation_mode_name: psv::interpolation_mode_name(e.interpolation_mode),
                    dynamic_index_mask: e.dynamic_index_mask(),
                    output_stream: e.output_stream(),
                })
                .collect(),
            dependencies: p
                .dependencies
                .iter()
                .map(|d| PsvDependency {
                    kind: d.kind.name(),
                    stream: d.kind.stream(),
                    offset: d.offset,
                    size: 4 * d.words.len(),
                    input_vectors: d.input_vectors,
                    output_vectors: d.output_vectors,
                    rows: (0..d.rows())
                        .filter_map(|row| {
                            let outputs = psv::components_text(d.outputs(row));
                            let input = (d.input_vectors > 0).then(|| psv::component_text(row as u32));
                            (!outputs.is_empty()).then_some(DependencyRow { input, outputs })
                        })
                        .collect(),
                })
                .collect(),
            trailing_bytes: p.rest.len(),
        }
    }

    /// The text `info` prints.
    pub fn text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        write!(
            s,
            "pipeline state validation (PSV0, data at 0x{:x}): version {} (runtime info of {})",
            self.offset,
            self.version,
            count(self.runtime_info_size, "byte")
        )?;
        match self.shader_stage {
            Some(stage) => writeln!(s, ", {stage} shader")?,
            None => writeln!(s)?,
        }
        if !self.stage_info.0.is_empty() {
            let fields: Vec<String> = self.stage_info.0.iter().map(|(k, v)| format!("{k} {v}")).collect();
            writeln!(s, "  {}", fields.join(", "))?;
        }
        let (min, max) = (self.minimum_wave_lane_count, self.maximum_wave_lane_count);
        match (min, max) {
            (0, u32::MAX) => writeln!(s, "  wave size: any")?,
            _ if min == max => writeln!(s, "  wave size: {min}")?,
            _ => writeln!(s, "  wave size: {min} to {max}")?,
        }
        if let (Some(e), Some(inputs), Some(outputs)) =
            (&self.signature_elements, self.input_vectors, self.output_vectors)
        {
            let outputs = if self.shader_stage == Some("geometry") {
                format!("vectors per stream {}, {}, {}, {}", outputs[0], outputs[1], outputs[2], outputs[3])
            } else {
                count(outputs[0], "vector").to_string()
            };
            let other = if self.shader_stage == Some("mesh") { "primitive" } else { "patch constant" };
            write!(
                s,
                "  signature: {} input ({}), {} output ({outputs}), {} {other}",
                e.input,
                count(inputs, "vector"),
                e.output,
                e.patch_constant_or_primitive
            )?;
            match self.patch_constant_or_primitive_vectors {
                Some(v) => writeln!(s, " ({})", count(v, "vector"))?,
                None => writeln!(s)?,
            }
            let mut more =
                vec![format!("ViewID {}", if self.uses_view_id == Some(true) { "used" } else { "not used" })];
            if let Some(n) = self.max_vertex_count {
                more.push(format!("max vertex count {n}"));
            }
            if let Some(t) = self.mesh_output_topology {
                more.push(format!("mesh output topology {t}"));
            }
            writeln!(s, "  {}", more.join(", "))?;
        }
        // Compute, mesh and amplification shaders have a thread group.
        let grouped = matches!(self.shader_stage, Some("compute" | "mesh" | "amplification"));
        if let Some([x, y, z]) = self.num_threads.filter(|n| grouped || n.iter().any(|&v| v != 0)) {
            writeln!(s, "  thread group: {x}, {y}, {z}")?;
        }
        if let Some(name) = &self.entry_function_name {
            writeln!(s, "  entry function: {name}")?;
        }
        if let Some(n) = self.group_shared_bytes {
            writeln!(s, "  group shared memory: {}", count(n, "byte"))?;
        }
        write!(s, "  resources: {}", self.resources.len())?;
        match self.resource_record_size {
            Some(size) => writeln!(s, " (records of {})", count(size, "byte"))?,
            None => writeln!(s)?,
        }
        for r in &self.resources {
            let upper = upper_bound_text(r.upper_bound);
            write!(
                s,
                "    {} space {}, registers {}-{upper}",
                r.type_name.unwrap_or("unknown type"),
                r.space,
                r.lower_bound
            )?;
            if let (Some(kind), Some(flags)) = (r.kind, r.flags) {
                write!(s, ": {}", r.kind_name.map_or_else(|| format!("kind {kind}"), str::to_string))?;
                if flags != 0 {
                    write!(s, ", flags 0x{flags:x}")?;
                }
            }
            writeln!(s)?;
        }
        if let Some(size) = self.string_table_size {
            write!(s, "  string table: {}; semantic index table:", count(size, "byte"))?;
            if self.semantic_index_table.is_empty() {
                write!(s, " empty")?;
            }
            for v in &self.semantic_index_table {
                write!(s, " {v}")?;
            }
            writeln!(s)?;
        }
        if let Some(size) = self.element_record_size {
            writeln!(
                s,
                "  signature elements: {} (records of {})",
                self.elements.len(),
                count(size, "byte")
            )?;
        }
        for e in &self.elements {
            let set = match e.signature {
                "input" => "input ",
                "output" => "output",
                _ if self.shader_stage == Some("mesh") => "prim  ",
                _ => "patch ",
            };
            let at = match (e.start_row, e.start_column) {
                (Some(r), Some(c)) => format!("at row {r} col {c}"),
                _ => "not packed".to_string(),
            };
            let name = if e.semantic_name.is_empty() { "(no name)" } else { &e.semantic_name };
            write!(
                s,
                "    {set} {name} {}: {}x{} {at}, {}, {}",
                self.index_text(e),
                e.rows,
                e.columns,
                e.component_type_name.unwrap_or("unknown type"),
                e.semantic_kind_name.unwrap_or("unknown kind"),
            )?;
            if e.interpolation_mode != 0 {
                write!(s, ", {}", e.interpolation_mode_name.unwrap_or("unknown interpolation"))?;
            }
            if e.dynamic_index_mask != 0 {
                write!(s, ", dynamically indexed 0x{:x}", e.dynamic_index_mask)?;
            }
            if e.output_stream != 0 {
                write!(s, ", stream {}", e.output_stream)?;
            }
            writeln!(s)?;
        }
        for d in &self.dependencies {
            let stream = d.stream.map(|n| format!(" (stream {n})")).unwrap_or_default();
            let what = match d.kind {
                "view_id_outputs" => format!("outputs ViewID affects{stream}"),
                "view_id_patch_constant_or_primitive" => {
                    "patch constant or primitive outputs ViewID affects".into()
                }
                "input_to_output" => format!("outputs each input affects{stream}"),
                "input_to_patch_constant" => "patch constant outputs each input affects".into(),
                _ => "outputs each patch constant input affects".into(),
            };
            write!(s, "  {what}:")?;
            if d.rows.is_empty() {
                writeln!(s, " none")?;
                continue;
            }
            writeln!(s)?;
            for row in &d.rows {
                match &row.input {
                    Some(input) => writeln!(s, "    {input}: {}", row.outputs.join(" "))?,
                    None => writeln!(s, "    {}", row.outputs.join(" "))?,
                }
            }
        }
        if self.trailing_bytes > 0 {
            writeln!(s, "  {} after the last table", count(self.trailing_bytes, "byte"))?;
        }
        Ok(())
    }

    /// An element's semantic indexes: `0`, `0-3`, or the entries of the table when they do
    /// not follow one another.
    fn index_text(&self, e: &PsvElement) -> String {
        let from = e.semantic_index_entry as usize;
        let values = self.semantic_index_table.get(from..from + usize::from(e.rows)).unwrap_or(&[]);
        match values {
            [] => String::new(),
            [one] => one.to_string(),
            [first, .., last]
                if values.windows(2).all(|w| matches!(w, [a, b] if *b == a.wrapping_add(1))) =>
            {
                format!("{first}-{last}")
            }
            _ => format!("(entries {from} to {} of the semantic index table)", from + values.len() - 1),
        }
    }
}

#[derive(Debug, Serialize)]
struct RdatPart {
    offset: usize,
    #[serde(rename = "type")]
    part_type: u32,
    type_name: Option<&'static str>,
    size: usize,
    record_count: Option<u32>,
    record_stride: Option<u32>,
}

#[derive(Debug, Serialize)]
struct RdatResource {
    offset: usize,
    name: String,
    class: u32,
    class_name: Option<&'static str>,
    kind: u32,
    kind_name: Option<&'static str>,
    id: u32,
    space: u32,
    lower_bound: u32,
    upper_bound: u32,
    flags: u32,
}

#[derive(Debug, Serialize)]
struct RdatFunction {
    offset: usize,
    name: String,
    unmangled_name: String,
    shader_kind: u32,
    shader_kind_name: Option<&'static str>,
    resources: usize,
    dependencies: usize,
    payload_size: u32,
    attribute_size: u32,
    feature_flags: u64,
    shader_stage_flags: u32,
    min_shader_target: u32,
    min_shader_model: String,
    minimum_wave_lane_count: Option<u8>,
    maximum_wave_lane_count: Option<u8>,
    shader_flags: Option<u16>,
}

#[derive(Debug, Serialize)]
struct RdatSubobject {
    offset: usize,
    kind: u32,
    kind_name: Option<&'static str>,
    name: String,
}

/// RDAT.
#[derive(Debug, Serialize)]
pub struct RdatInfo {
    offset: usize,
    version: u32,
    parts: Vec<RdatPart>,
    resources: Vec<RdatResource>,
    functions: Vec<RdatFunction>,
    subobjects: Vec<RdatSubobject>,
}

impl RdatInfo {
    /// From the parsed part.
    pub fn new(r: &Rdat<'_>) -> Self {
        let row_len = |offset: u32, field: usize| r.index_row(offset, field).map_or(0, |w| w.len());
        RdatInfo {
            offset: r.offset,
            version: r.version,
            parts: r
                .parts
                .iter()
                .map(|p| RdatPart {
                    offset: p.offset,
                    part_type: p.part_type,
                    type_name: p.type_name(),
                    size: p.data.len(),
                    record_count: p.table.map(|t| t.0),
                    record_stride: p.table.map(|t| t.1),
                })
                .collect(),
            resources: r
                .resources
                .iter()
                .map(|x| RdatResource {
                    offset: x.offset,
                    name: shown(x.name.bytes),
                    class: x.class,
                    class_name: rdat::resource_class_name(x.class),
                    kind: x.kind,
                    kind_name: psv::resource_kind_name(x.kind),
                    id: x.id,
                    space: x.space,
                    lower_bound: x.lower_bound,
                    upper_bound: x.upper_bound,
                    flags: x.flags,
                })
                .collect(),
            functions: r
                .functions
                .iter()
                .map(|f| RdatFunction {
                    offset: f.offset,
                    name: shown(f.name.bytes),
                    unmangled_name: shown(f.unmangled_name.bytes),
                    shader_kind: f.shader_kind,
                    shader_kind_name: rdat::function_kind_name(f.shader_kind),
                    resources: row_len(f.resources, f.offset + 8),
                    dependencies: row_len(f.dependencies, f.offset + 12),
                    payload_size: f.payload_size,
                    attribute_size: f.attribute_size,
                    feature_flags: u64::from(f.feature_info[1]) << 32 | u64::from(f.feature_info[0]),
                    shader_stage_flags: f.shader_stage_flags,
                    min_shader_target: f.min_shader_target,
                    min_shader_model: rdat::model_text(f.min_shader_target),
                    minimum_wave_lane_count: f.v2.map(|v| v.0),
                    maximum_wave_lane_count: f.v2.map(|v| v.1),
                    shader_flags: f.v2.map(|v| v.2),
                })
                .collect(),
            subobjects: r
                .subobjects
                .iter()
                .map(|o| RdatSubobject {
                    offset: o.offset,
                    kind: o.kind,
                    kind_name: rdat::subobject_kind_name(o.kind),
                    name: shown(o.name.bytes),
                })
                .collect(),
        }
    }

    /// The text `info` prints.
    pub fn text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        writeln!(
            s,
            "runtime data (RDAT, data at 0x{:x}): version 0x{:x}, {}",
            self.offset,
            self.version,
            count(self.parts.len(), "part")
        )?;
        for p in &self.parts {
            let name = p.type_name.map_or_else(|| format!("type {}", p.part_type), str::to_string);
            write!(s, "  {name} at 0x{:x}: {}", p.offset, count(p.size, "byte"))?;
            match (p.record_count, p.record_stride) {
                (Some(n), Some(stride)) => {
                    writeln!(s, ", {} of {}", count(n, "record"), count(stride, "byte"))?
                }
                _ => writeln!(s)?,
            }
        }
        for x in &self.resources {
            let upper = upper_bound_text(x.upper_bound);
            write!(
                s,
                "  resource {}: {} {}, ID {}, space {}, registers {}-{upper}",
                x.name,
                x.class_name.unwrap_or("unknown class"),
                x.kind_name.unwrap_or("unknown kind"),
                x.id,
                x.space,
                x.lower_bound
            )?;
            if x.flags != 0 {
                write!(s, ", flags 0x{:x}", x.flags)?;
            }
            writeln!(s)?;
        }
        for f in &self.functions {
            write!(s, "  function {}", f.name)?;
            if f.unmangled_name != f.name {
                write!(s, " ({})", f.unmangled_name)?;
            }
            write!(
                s,
                ": {}, shader model {}; {}, {}, features 0x{:x}, stages 0x{:x}",
                f.shader_kind_name.unwrap_or("unknown kind"),
                f.min_shader_model,
                count(f.resources, "resource"),
                count(f.dependencies, "called function"),
                f.feature_flags,
                f.shader_stage_flags
            )?;
            if f.payload_size != 0 || f.attribute_size != 0 {
                write!(s, ", payload {} bytes, attributes {} bytes", f.payload_size, f.attribute_size)?;
            }
            if let (Some(min), Some(max)) = (f.minimum_wave_lane_count, f.maximum_wave_lane_count) {
                if (min, max) != (0, 0) {
                    write!(s, ", wave size {min} to {max}")?;
                }
            }
            writeln!(s)?;
        }
        for o in &self.subobjects {
            writeln!(
                s,
                "  subobject {}: {}",
                o.name,
                o.kind_name.map_or_else(|| format!("kind {}", o.kind), str::to_string)
            )?;
        }
        Ok(())
    }
}

/// A register range's upper bound as DXC's reflection gives it: `u32::MAX` is an unbounded
/// range (PSV0's and RDAT's resource records alike).
fn upper_bound_text(upper: u32) -> String {
    if upper == u32::MAX { "unbounded".to_string() } else { upper.to_string() }
}
