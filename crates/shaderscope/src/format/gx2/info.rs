//! What `info` says about a GX2 shader struct, as one [`Serialize`] value ([`ShaderInfo`])
//! that a container puts in its `info --json` record and renders as text with
//! [`ShaderInfo::write_text`], so both say the same.

use super::{Array, Kind, RBuffer, SamplerType, Shader, ShaderMode, VarType, resource_flags_text};
use crate::model::Stage;
use serde::Serialize;
use serde_json::{Map, Value};

/// The hashes Cemu names a shader by (its graphic packs' `<base>_<aux>_vs.txt` replacement
/// files), as far as the file decides them ([`super::cemu_hash()`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CemuHash {
    /// The base hash, over the microcode and the state it is drawn with; `None` where that
    /// state is not in the file (a vertex shader's fetch shader).
    #[serde(serialize_with = "hex64_or_null")]
    pub base: Option<u64>,
    /// The auxiliary hash, over the state the shader depends on.
    #[serde(serialize_with = "hex64")]
    pub aux: u64,
}

impl CemuHash {
    /// `base_aux` in hexadecimal, as a graphic pack names its files; an unknown base hash is
    /// `????????????????` and said why.
    pub fn text(&self) -> String {
        match self.base {
            Some(base) => format!("{base:016x}_{:016x}", self.aux),
            None => format!(
                "????????????????_{:016x} (the base hash depends on state the game sets at draw time)",
                self.aux
            ),
        }
    }
}

fn hex64<S: serde::Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{v:016x}"))
}

fn hex64_or_null<S: serde::Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => hex64(v, s),
        None => s.serialize_none(),
    }
}

/// One word of the `regs` block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RegisterInfo {
    /// `SQ_PGM_RESOURCES_VS`, `SQ_VTX_SEMANTIC[3]`, `num_sq_vtx_semantic`.
    pub name: String,
    /// Absolute offset of the word.
    pub offset: u64,
    /// The word.
    pub value: u32,
    /// Every field of a register (a flag as a boolean, a number, an enumerated value by name);
    /// absent for a count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<Map<String, Value>>,
    /// The fields that are not zero, as text (`NUM_GPRS=2 STACK_SIZE=1`).
    pub text: String,
}

/// A (count, pointer) pair and its entries.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArrayInfo<T> {
    /// The count.
    pub count: u32,
    /// The pointer as stored.
    pub pointer: u32,
    /// Absolute offset of the first entry (none when empty).
    pub offset: Option<u64>,
    /// The entries.
    pub items: Vec<T>,
}

impl<T> ArrayInfo<T> {
    fn new<U>(a: &Array<U>, f: impl Fn(&U) -> T) -> Self {
        ArrayInfo { count: a.count, pointer: a.pointer, offset: a.at, items: a.items.iter().map(f).collect() }
    }
}

/// A `GX2UniformBlock`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UniformBlockInfo {
    /// Absolute offset of the entry.
    pub offset: u64,
    /// Its name.
    pub name: String,
    /// The buffer location it is bound to.
    pub location: u32,
    /// Size in bytes.
    pub size: u32,
}

/// A `GX2UniformVar`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UniformVarInfo {
    /// Absolute offset of the entry.
    pub offset: u64,
    /// Its name.
    pub name: String,
    /// Its type by SDK name (`GX2_VAR_TYPE_VEC4`, `unknown (N)`).
    #[serde(rename = "type")]
    pub ty: VarType,
    /// The type's number.
    pub type_value: u32,
    /// Array length.
    pub count: u32,
    /// Offset in 32-bit components.
    pub location: u32,
    /// Uniform block index, -1 for none.
    pub block: i32,
}

/// A `GX2UniformInitialValue`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InitialValueInfo {
    /// Absolute offset of the entry.
    pub offset: u64,
    /// The four values.
    pub value: [f32; 4],
    /// Offset in 32-bit components.
    pub location: u32,
}

/// A `GX2LoopVar`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoopVarInfo {
    /// Absolute offset of the entry.
    pub offset: u64,
    /// Which loop constant.
    pub location: u32,
    /// Its value.
    pub value: u32,
}

/// A `GX2SamplerVar`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SamplerVarInfo {
    /// Absolute offset of the entry.
    pub offset: u64,
    /// Its name.
    pub name: String,
    /// Its type by SDK name.
    #[serde(rename = "type")]
    pub ty: SamplerType,
    /// The type's number.
    pub type_value: u32,
    /// The sampler unit.
    pub location: u32,
}

/// A `GX2AttribVar`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttribVarInfo {
    /// Absolute offset of the entry.
    pub offset: u64,
    /// Its name.
    pub name: String,
    /// Its type by SDK name.
    #[serde(rename = "type")]
    pub ty: VarType,
    /// The type's number.
    pub type_value: u32,
    /// Array length.
    pub count: u32,
    /// The attribute location.
    pub location: u32,
}

/// A `GX2RBuffer`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RBufferInfo {
    /// `GX2RResourceFlags` by name, `|`-separated.
    pub flags: String,
    /// Element size.
    pub elem_size: u32,
    /// Element count.
    pub elem_count: u32,
    /// The buffer pointer.
    pub buffer: u32,
}

impl RBufferInfo {
    fn new(b: &RBuffer) -> Self {
        RBufferInfo {
            flags: resource_flags_text(b.flags),
            elem_size: b.elem_size,
            elem_count: b.elem_count,
            buffer: b.buffer,
        }
    }
}

/// Everything `info` says about one GX2 shader struct.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ShaderInfo {
    /// `vertex`, `pixel`, `geometry`.
    pub stage: Stage,
    /// `GX2VertexShader`, …
    #[serde(rename = "struct")]
    pub struct_name: &'static str,
    /// Absolute offset of the struct.
    pub offset: u64,
    /// Its size in bytes.
    pub size: u32,
    /// decaf-emu's line: `VS mode=1 ubs=1 …`.
    pub summary: String,
    /// The microcode's size as the struct gives it.
    pub program_size: u32,
    /// The microcode's pointer as stored.
    pub program_pointer: u32,
    /// Geometry: the copy program's size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_program_size: Option<u32>,
    /// Geometry: the copy program's pointer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_program_pointer: Option<u32>,
    /// The shader mode by SDK name.
    pub mode: ShaderMode,
    /// Its number.
    pub mode_value: u32,
    /// Every word of the `regs` block.
    pub registers: Vec<RegisterInfo>,
    /// `GX2UniformBlock`s.
    pub uniform_blocks: ArrayInfo<UniformBlockInfo>,
    /// `GX2UniformVar`s.
    pub uniform_vars: ArrayInfo<UniformVarInfo>,
    /// `GX2UniformInitialValue`s.
    pub initial_values: ArrayInfo<InitialValueInfo>,
    /// `GX2LoopVar`s.
    pub loop_vars: ArrayInfo<LoopVarInfo>,
    /// `GX2SamplerVar`s.
    pub sampler_vars: ArrayInfo<SamplerVarInfo>,
    /// Vertex: `GX2AttribVar`s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attrib_vars: Option<ArrayInfo<AttribVarInfo>>,
    /// Vertex and geometry: the ring item size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ring_item_size: Option<u32>,
    /// Vertex and geometry: the stream-out flag as stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_stream_out: Option<u32>,
    /// Vertex and geometry: the stride of each stream-out buffer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_out_stride: Option<[u32; 4]>,
    /// The program's GX2R buffer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gx2r: Option<RBufferInfo>,
    /// Geometry: the copy program's GX2R buffer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_gx2r: Option<RBufferInfo>,
    /// The hashes Cemu keys the shader by, when the container computed them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cemu: Option<CemuHash>,
}

impl ShaderInfo {
    /// The facts of `s`.
    pub fn new(s: &Shader<'_>) -> Self {
        let l = s.layout();
        let registers = s
            .registers()
            .map(|w| RegisterInfo {
                name: w.label(),
                offset: s.at + 4 * w.word as u64,
                value: w.value,
                fields: w.def.map(|d| d.fields_json(w.value)),
                text: w.describe(),
            })
            .collect();
        let geometry = s.kind == Kind::Geometry;
        ShaderInfo {
            stage: s.stage(),
            struct_name: s.struct_name(),
            offset: s.at,
            size: s.len,
            summary: s.summary(),
            program_size: s.size,
            program_pointer: s.program,
            copy_program_size: geometry.then_some(s.copy_size),
            copy_program_pointer: geometry.then_some(s.copy_program),
            mode: s.mode,
            mode_value: s.mode.0,
            registers,
            uniform_blocks: ArrayInfo::new(&s.uniform_blocks, |x| UniformBlockInfo {
                offset: x.at,
                name: x.name.to_string(),
                location: x.offset,
                size: x.size,
            }),
            uniform_vars: ArrayInfo::new(&s.uniform_vars, |x| UniformVarInfo {
                offset: x.at,
                name: x.name.to_string(),
                ty: x.ty,
                type_value: x.ty.0,
                count: x.count,
                location: x.offset,
                block: x.block,
            }),
            initial_values: ArrayInfo::new(&s.initial_values, |x| InitialValueInfo {
                offset: x.at,
                value: x.value.map(f32::from_bits),
                location: x.offset,
            }),
            loop_vars: ArrayInfo::new(&s.loop_vars, |x| LoopVarInfo {
                offset: x.at,
                location: x.offset,
                value: x.value,
            }),
            sampler_vars: ArrayInfo::new(&s.sampler_vars, |x| SamplerVarInfo {
                offset: x.at,
                name: x.name.to_string(),
                ty: x.ty,
                type_value: x.ty.0,
                location: x.location,
            }),
            attrib_vars: l.attribs.map(|_| {
                ArrayInfo::new(&s.attrib_vars, |x| AttribVarInfo {
                    offset: x.at,
                    name: x.name.to_string(),
                    ty: x.ty,
                    type_value: x.ty.0,
                    count: x.count,
                    location: x.location,
                })
            }),
            ring_item_size: l.ring.map(|_| s.ring_item_size),
            has_stream_out: l.ring.map(|_| s.has_stream_out),
            stream_out_stride: l.ring.map(|_| s.stream_out_stride),
            gx2r: s.gx2r.as_ref().map(RBufferInfo::new),
            copy_gx2r: s.copy_gx2r.as_ref().map(RBufferInfo::new),
            cemu: None,
        }
    }

    /// The same facts as text, each line starting with `indent`: the struct, the mode, every
    /// register (a run of equal unused table entries on one line), the arrays.
    pub fn write_text(&self, s: &mut dyn std::fmt::Write, indent: &str) -> std::fmt::Result {
        writeln!(
            s,
            "{indent}{} at 0x{:x} ({} bytes): {}",
            self.struct_name, self.offset, self.size, self.summary
        )?;
        writeln!(s, "{indent}mode: {} ({})", self.mode, self.mode_value)?;
        write!(s, "{indent}program: {} bytes, pointer 0x{:x}", self.program_size, self.program_pointer)?;
        if let (Some(size), Some(p)) = (self.copy_program_size, self.copy_program_pointer) {
            write!(s, "; copy program: {size} bytes, pointer 0x{p:x}")?;
        }
        s.write_char('\n')?;
        if let Some(h) = self.cemu {
            writeln!(s, "{indent}Cemu hash: {}", h.text())?;
        }
        let mut k = 0;
        while let Some(r) = self.registers.get(k) {
            // Equal neighbours of one table (the unused entries) share a line.
            let table = r.name.split('[').next().unwrap_or("");
            let mut last = k;
            while let Some(n) = self.registers.get(last + 1) {
                if n.value == r.value && r.name.contains('[') && n.name.split('[').next() == Some(table) {
                    last += 1;
                } else {
                    break;
                }
            }
            let name = if last > k {
                let end = self.registers.get(last).map(|n| n.name.as_str()).unwrap_or("");
                let end = end.split('[').nth(1).unwrap_or("").trim_end_matches(']');
                format!("{}..{end}]", r.name.trim_end_matches(']'))
            } else {
                r.name.clone()
            };
            if r.fields.is_none() {
                // A count.
                writeln!(s, "{indent}  {name} = {}", r.value)?;
            } else {
                let sep = if r.text.is_empty() { "" } else { " " };
                writeln!(s, "{indent}  {name} = 0x{:08x}{sep}{}", r.value, r.text)?;
            }
            k = last + 1;
        }
        let list = |s: &mut dyn std::fmt::Write, title: &str, n: usize, lines: Vec<String>| {
            if n == 0 {
                return Ok(());
            }
            writeln!(s, "{indent}{title}: {n}")?;
            for l in lines {
                writeln!(s, "{indent}  {l}")?;
            }
            Ok(())
        };
        list(
            s,
            "uniform blocks",
            self.uniform_blocks.items.len(),
            self.uniform_blocks
                .items
                .iter()
                .map(|x| format!("{} location {} size {} (at 0x{:x})", x.name, x.location, x.size, x.offset))
                .collect(),
        )?;
        list(
            s,
            "uniform vars",
            self.uniform_vars.items.len(),
            self.uniform_vars
                .items
                .iter()
                .map(|x| {
                    format!(
                        "{} {} count {} offset {} block {} (at 0x{:x})",
                        x.name, x.ty, x.count, x.location, x.block, x.offset
                    )
                })
                .collect(),
        )?;
        list(
            s,
            "initial values",
            self.initial_values.items.len(),
            self.initial_values
                .items
                .iter()
                .map(|x| {
                    let mut v = String::new();
                    for (i, f) in x.value.iter().enumerate() {
                        if i > 0 {
                            v.push_str(", ");
                        }
                        let _ = crate::print::float::write_f32_g9(&mut v, f.to_bits());
                    }
                    format!("offset {}: ({v}) (at 0x{:x})", x.location, x.offset)
                })
                .collect(),
        )?;
        list(
            s,
            "loop vars",
            self.loop_vars.items.len(),
            self.loop_vars
                .items
                .iter()
                .map(|x| format!("offset {} value 0x{:08x} (at 0x{:x})", x.location, x.value, x.offset))
                .collect(),
        )?;
        list(
            s,
            "sampler vars",
            self.sampler_vars.items.len(),
            self.sampler_vars
                .items
                .iter()
                .map(|x| format!("{} {} location {} (at 0x{:x})", x.name, x.ty, x.location, x.offset))
                .collect(),
        )?;
        if let Some(a) = &self.attrib_vars {
            list(
                s,
                "attrib vars",
                a.items.len(),
                a.items
                    .iter()
                    .map(|x| {
                        format!(
                            "{} {} count {} location {} (at 0x{:x})",
                            x.name, x.ty, x.count, x.location, x.offset
                        )
                    })
                    .collect(),
            )?;
        }
        if let Some(r) = self.ring_item_size {
            let so = self.has_stream_out.unwrap_or(0);
            let strides = self.stream_out_stride.unwrap_or_default();
            writeln!(s, "{indent}ring item size: {r}; stream out: {so} (strides {strides:?})")?;
        }
        for (title, b) in [("GX2R buffer", &self.gx2r), ("copy GX2R buffer", &self.copy_gx2r)] {
            if let Some(b) = b {
                writeln!(
                    s,
                    "{indent}{title}: flags {}, element size {}, count {}, pointer 0x{:x}",
                    b.flags, b.elem_size, b.elem_count, b.buffer
                )?;
            }
        }
        Ok(())
    }
}
