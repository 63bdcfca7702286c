//! [`Container`] for MGFX: `info` (the tables and the technique/pass tree with the shaders
//! each pass binds), the listing (as fxc prints an effect: each pass's shaders under its
//! heading, a DXBC through its own listing, GLSL as its text), `dump` (embedded DXBC through
//! its own annotations), `validate` (indices that lead nowhere, shaders of the wrong stage or
//! kind), `extract` (each shader as a file of its own).

use super::{Mgfx, Parameter, Profile, Shader, StateBlock};
use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::format::dxbc::Dxbc;
use crate::json::{DisasmSink, NestedSink};
use crate::model::{Finding, Part};
use crate::print::{Nested, Printer, Style, count};
use serde::Serialize;

fn printer_failed(_: std::fmt::Error) -> Error {
    Error::invalid(0, "listing", "the printer failed")
}

#[derive(Debug, Serialize)]
struct XnbInfo {
    #[serde(flatten)]
    header: crate::format::xnb::XnbInfo,
    mgfx_offset: u64,
    mgfx_size: u32,
}

#[derive(Debug, Serialize)]
struct CbufferInfo {
    index: usize,
    offset: u64,
    name: String,
    size: i16,
    parameters: Vec<CbufferParameter>,
}

#[derive(Debug, Serialize)]
struct CbufferParameter {
    parameter: i32,
    offset: u16,
}

#[derive(Debug, Serialize)]
struct StateInfo {
    kind: &'static str,
    fields: Vec<StateField>,
}

#[derive(Debug, Serialize)]
struct StateField {
    name: &'static str,
    value: String,
}

#[derive(Debug, Serialize)]
struct SamplerInfo {
    name: String,
    #[serde(rename = "type")]
    ty: u8,
    texture_slot: u8,
    sampler_slot: u8,
    parameter: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<StateInfo>,
}

#[derive(Debug, Serialize)]
struct AttributeInfo {
    name: String,
    usage: u8,
    index: u8,
    location: i16,
}

#[derive(Debug, Serialize)]
struct ShaderInfo {
    name: String,
    offset: u64,
    stage: &'static str,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    /// The source file it was compiled from (version 11 on).
    #[serde(skip_serializing_if = "Option::is_none")]
    source_file: Option<String>,
    /// Its entry point (version 11 on).
    #[serde(skip_serializing_if = "Option::is_none")]
    entry_point: Option<String>,
    code_offset: u64,
    size: usize,
    samplers: Vec<SamplerInfo>,
    cbuffers: Vec<u8>,
    attributes: Vec<AttributeInfo>,
}

#[derive(Debug, Serialize)]
struct ParameterInfo {
    offset: u64,
    name: String,
    semantic: String,
    class: u8,
    class_name: Option<&'static str>,
    #[serde(rename = "type")]
    ty: u8,
    type_name: Option<&'static str>,
    rows: u8,
    columns: u8,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    elements: Vec<ParameterInfo>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    members: Vec<ParameterInfo>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    values: Vec<String>,
}

#[derive(Debug, Serialize)]
struct PassInfo {
    offset: u64,
    name: String,
    vertex_shader: Option<String>,
    pixel_shader: Option<String>,
    states: Vec<StateInfo>,
}

#[derive(Debug, Serialize)]
struct TechniqueInfo {
    offset: u64,
    name: String,
    passes: Vec<PassInfo>,
}

/// Everything `info` says about an effect (text and JSON alike).
#[derive(Debug, Serialize)]
struct Info {
    summary: String,
    size: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    xnb: Option<XnbInfo>,
    offset: u64,
    version: u8,
    profile: u8,
    profile_name: Option<&'static str>,
    key: u32,
    constant_buffers: Vec<CbufferInfo>,
    shaders: Vec<ShaderInfo>,
    parameters: Vec<ParameterInfo>,
    techniques: Vec<TechniqueInfo>,
    trailing_bytes: usize,
}

fn state_info(b: &StateBlock) -> StateInfo {
    StateInfo {
        kind: b.kind.name(),
        fields: b.fields().into_iter().map(|(name, _, _, value)| StateField { name, value }).collect(),
    }
}

fn value_text(p: &Parameter) -> Vec<String> {
    p.values
        .iter()
        .map(|v| match p.ty {
            3 => crate::print::float::f32_shortest_text(*v).as_str().to_string(),
            _ => (*v as i32).to_string(),
        })
        .collect()
}

fn parameter_info(p: &Parameter) -> ParameterInfo {
    ParameterInfo {
        offset: p.at,
        name: p.name.to_string(),
        semantic: p.semantic.to_string(),
        class: p.class,
        class_name: p.class_name(),
        ty: p.ty,
        type_name: p.type_name(),
        rows: p.rows,
        columns: p.columns,
        elements: p.elements.iter().map(parameter_info).collect(),
        members: p.members.iter().map(parameter_info).collect(),
        values: value_text(p),
    }
}

/// The shader model a DXBC shader declares (`vs_4_0_level_9_1`), when it parses.
fn dxbc_model(code: &[u8]) -> Option<String> {
    let d = Dxbc::parse(code).ok()?;
    d.program_heads().into_iter().find_map(|p| p.model)
}

/// `float4x4`, `texture2D`, `int`, … — the HLSL spelling of a parameter's type.
fn hlsl_type(p: &Parameter) -> String {
    let base = match p.ty {
        1 => "bool",
        2 => "int",
        3 => "float",
        0 => "void",
        5 => "texture",
        6 => "texture1D",
        7 => "texture2D",
        8 => "texture3D",
        9 => "textureCUBE",
        _ => "string",
    };
    match (p.class, p.rows, p.columns) {
        (1, _, c) => format!("{base}{c}"),
        (2, r, c) => format!("{base}{r}x{c}"),
        (4, _, _) => "struct".to_string(),
        _ => base.to_string(),
    }
}

impl Mgfx<'_> {
    /// One line: `MGFX version 10, DirectX_11: 2 shaders, 1 technique, 1 pass`.
    pub fn summary(&self) -> String {
        let passes: usize = self.techniques.iter().map(|t| t.passes.len()).sum();
        let wrap = match &self.xnb {
            Some(x) => format!(" in an XNB (platform '{}')", char::from(x.platform).escape_debug()),
            None => String::new(),
        };
        format!(
            "MGFX version {}, {}{wrap}: {}, {}, {}, {}",
            self.version,
            self.profile().map_or_else(|| format!("profile {}", self.profile), |p| p.name().to_string()),
            count(self.shaders.len(), "shader"),
            count(self.parameters.len(), "parameter"),
            count(self.techniques.len(), "technique"),
            if passes == 1 { "1 pass".to_string() } else { format!("{passes} passes") },
        )
    }

    /// A shader's kind: `DXBC`, `DXIL` (a DXBC container of DXIL), `GLSL` or (another
    /// profile's code) `code`.
    fn kind(&self, s: &Shader<'_>) -> &'static str {
        if s.is_dxbc() {
            if Dxbc::parse(&s.code).is_ok_and(|d| d.is_dxil()) { "DXIL" } else { "DXBC" }
        } else if self.profile() == Some(Profile::OpenGl) {
            "GLSL"
        } else {
            "code"
        }
    }

    fn shader_name(&self, raw: i32) -> Option<String> {
        self.shader(raw).map(|(i, _)| format!("shader{i}"))
    }

    fn info(&self) -> Info {
        Info {
            summary: self.summary(),
            size: self.data.len(),
            xnb: self.xnb.as_ref().map(|x| XnbInfo {
                header: crate::format::xnb::XnbInfo::of(x),
                mgfx_offset: self.at,
                mgfx_size: x.effect_size,
            }),
            offset: self.at,
            version: self.version,
            profile: self.profile,
            profile_name: self.profile().map(Profile::name),
            key: self.key,
            constant_buffers: self
                .constant_buffers
                .iter()
                .enumerate()
                .map(|(index, c)| CbufferInfo {
                    index,
                    offset: c.at,
                    name: c.name.to_string(),
                    size: c.size,
                    parameters: c
                        .parameters
                        .iter()
                        .map(|(parameter, offset)| CbufferParameter {
                            parameter: *parameter,
                            offset: *offset,
                        })
                        .collect(),
                })
                .collect(),
            shaders: self
                .shaders
                .iter()
                .enumerate()
                .map(|(i, s)| ShaderInfo {
                    name: format!("shader{i}"),
                    offset: s.at,
                    stage: s.stage_name(),
                    kind: self.kind(s),
                    model: if s.is_dxbc() { dxbc_model(&s.code) } else { None },
                    source_file: s.origin.as_ref().map(|(f, _)| f.to_string()),
                    entry_point: s.origin.as_ref().map(|(_, e)| e.to_string()),
                    code_offset: s.code_at,
                    size: s.code.len(),
                    samplers: s
                        .samplers
                        .iter()
                        .map(|m| SamplerInfo {
                            name: m.name.to_string(),
                            ty: m.ty,
                            texture_slot: m.texture_slot,
                            sampler_slot: m.sampler_slot,
                            parameter: m.parameter,
                            state: m.state.as_ref().map(state_info),
                        })
                        .collect(),
                    cbuffers: s.cbuffers.clone(),
                    attributes: s
                        .attributes
                        .iter()
                        .map(|a| AttributeInfo {
                            name: a.name.to_string(),
                            usage: a.usage,
                            index: a.index,
                            location: a.location,
                        })
                        .collect(),
                })
                .collect(),
            parameters: self.parameters.iter().map(parameter_info).collect(),
            techniques: self
                .techniques
                .iter()
                .map(|t| TechniqueInfo {
                    offset: t.at,
                    name: t.name.to_string(),
                    passes: t
                        .passes
                        .iter()
                        .map(|p| PassInfo {
                            offset: p.at,
                            name: p.name.to_string(),
                            vertex_shader: self.shader_name(p.vertex_shader),
                            pixel_shader: self.shader_name(p.pixel_shader),
                            states: [&p.blend, &p.depth_stencil, &p.rasterizer]
                                .into_iter()
                                .flatten()
                                .map(state_info)
                                .collect(),
                        })
                        .collect(),
                })
                .collect(),
            trailing_bytes: self.trailing.len(),
        }
    }

    /// One shader under a pass heading: a comment naming it, then `vertexshader = asm { … };`
    /// with its listing indented inside.
    /// Whether it wrote anything (a pass binds no shader of this stage).
    fn list_shader(
        &self,
        slot: &str,
        raw: i32,
        gap: bool,
        opts: &DisasmOptions,
        out: &mut dyn Printer,
    ) -> Result<bool> {
        let Some((i, shader)) = self.shader(raw) else { return Ok(false) };
        if gap {
            out.start_line(None);
            out.write_char('\n').map_err(printer_failed)?;
        }
        let Some(s) = shader else {
            out.start_line(None);
            writeln!(out, "        {slot} = shader{i}; // no such shader").map_err(printer_failed)?;
            return Ok(true);
        };
        out.start_line(Some(s.at));
        out.styled(
            Style::Comment,
            &format!(
                "        // shader{i}: {} shader, {}, {} at 0x{:x}",
                s.stage_name(),
                self.kind(s),
                count(s.code.len(), "byte"),
                s.code_at
            ),
        )
        .map_err(printer_failed)?;
        writeln!(out).map_err(printer_failed)?;
        out.start_line(None);
        writeln!(out, "        {slot} =\n            asm {{").map_err(printer_failed)?;
        if s.is_dxbc() {
            match Dxbc::parse(&s.code) {
                Ok(d) => {
                    let mut n = Nested::new(&mut *out, 16, s.code_at);
                    let listed = d.disasm(opts, &mut n);
                    if let Err(e) = listed {
                        out.start_line(Some(s.code_at));
                        writeln!(out, "                // the listing stops: {e}").map_err(printer_failed)?;
                    }
                }
                Err(e) => {
                    out.start_line(Some(s.code_at));
                    let e = e.rebase(s.code_at);
                    writeln!(out, "                // the DXBC does not parse: {e}")
                        .map_err(printer_failed)?;
                }
            }
        } else {
            let mut off = 0u64;
            for line in s.code.split_inclusive(|b| *b == b'\n') {
                out.start_line(Some(s.code_at + off));
                let text = String::from_utf8_lossy(line);
                let text = text.trim_end_matches(['\r', '\n']);
                writeln!(out, "                {text}").map_err(printer_failed)?;
                off += line.len() as u64;
            }
        }
        out.start_line(None);
        writeln!(out, "            }};").map_err(printer_failed)?;
        Ok(true)
    }

    /// A parameter as an HLSL declaration, at `indent`.
    fn list_parameter(
        &self,
        p: &Parameter,
        indent: usize,
        depth: usize,
        out: &mut dyn Printer,
    ) -> Result<()> {
        out.start_line(Some(p.at));
        let pad = " ".repeat(indent);
        let semantic = if p.semantic.bytes.is_empty() { String::new() } else { format!(" : {}", p.semantic) };
        let (shape, array) = match p.elements.first() {
            Some(e) => (e, format!("[{}]", p.elements.len())),
            None => (p, String::new()),
        };
        if shape.class == 4 && depth < super::MAX_DEPTH {
            writeln!(out, "{pad}struct {{").map_err(printer_failed)?;
            for m in &shape.members {
                self.list_parameter(m, indent + 4, depth + 1, out)?;
            }
            out.start_line(None);
            writeln!(out, "{pad}}} {}{array}{semantic};", p.name).map_err(printer_failed)
        } else {
            let values = if p.values.is_empty() {
                String::new()
            } else {
                format!(" = {{ {} }}", value_text(p).join(", "))
            };
            writeln!(out, "{pad}{} {}{array}{semantic}{values};", hlsl_type(shape), p.name)
                .map_err(printer_failed)
        }
    }

    fn check(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let profile = self.profile();
        if profile.is_none() {
            out.push(Finding::warning(
                self.at + 5,
                format!("unknown profile {}: its shaders are not read", self.profile),
            ));
        }
        if let Some(x) = &self.xnb {
            out.extend(x.findings(self.data.len(), self.at));
        }
        let np = self.parameters.len();
        for (i, c) in self.constant_buffers.iter().enumerate() {
            for (p, _) in &c.parameters {
                if usize::try_from(*p).map_or(true, |p| p >= np) {
                    out.push(Finding::error(
                        c.at,
                        format!(
                            "constant buffer {i} names parameter {p}, which does not exist ({})",
                            count(np, "parameter")
                        ),
                    ));
                }
            }
        }
        for (i, s) in self.shaders.iter().enumerate() {
            let name = format!("shader{i}");
            match profile {
                Some(Profile::DirectX11) if !s.is_dxbc() => {
                    out.push(Finding::error(
                        s.code_at,
                        format!("{name} is not a DXBC container in a DirectX_11 effect"),
                    ));
                }
                Some(Profile::OpenGl) if s.is_dxbc() => {
                    out.push(Finding::error(
                        s.code_at,
                        format!("{name} is a DXBC container in an OpenGL effect"),
                    ));
                }
                _ => {}
            }
            if s.is_dxbc() {
                match Dxbc::parse(&s.code) {
                    Ok(d) => {
                        let stage = d.program_heads().into_iter().find_map(|p| p.stage);
                        let want = if s.is_vertex != 0 { "vertex" } else { "pixel" };
                        if let Some(stage) = stage.filter(|st| *st != want) {
                            out.push(Finding::error(
                                s.code_at,
                                format!(
                                    "{name} is marked as a {want} shader but its DXBC is a {stage} shader"
                                ),
                            ));
                        }
                        for f in d.validate() {
                            let mut f = f;
                            f.offset = f.offset.saturating_add(s.code_at);
                            f.message = format!("{name}: {}", f.message);
                            out.push(f);
                        }
                        for e in crate::Container::damage(&d) {
                            out.push(Finding::error(
                                e.offset().saturating_add(s.code_at),
                                format!("{name}: {}", e.reason()),
                            ));
                        }
                    }
                    Err(e) => out.push(Finding::error(
                        e.offset().saturating_add(s.code_at),
                        format!("{name}: the DXBC does not parse: {}", e.reason()),
                    )),
                }
            }
            for (j, c) in s.cbuffers.iter().enumerate() {
                if usize::from(*c) >= self.constant_buffers.len() {
                    out.push(Finding::error(
                        s.at,
                        format!(
                            "{name} cbuffer {j} is constant buffer {c}, which does not exist ({})",
                            count(self.constant_buffers.len(), "constant buffer")
                        ),
                    ));
                }
            }
            for (j, m) in s.samplers.iter().enumerate() {
                if usize::from(m.parameter) >= np {
                    out.push(Finding::error(
                        s.at,
                        format!(
                            "{name} sampler {j} names parameter {}, which does not exist ({})",
                            m.parameter,
                            count(np, "parameter")
                        ),
                    ));
                }
            }
        }
        for t in &self.techniques {
            for p in &t.passes {
                for (slot, raw, want, at) in [
                    ("vertex", p.vertex_shader, 1, p.index_at),
                    ("pixel", p.pixel_shader, 0, p.index_at + if self.wide() { 4 } else { 1 }),
                ] {
                    let Some((i, s)) = self.shader(raw) else { continue };
                    let pass = format!("technique \"{}\" pass \"{}\"", t.name, p.name);
                    match s {
                        None => out.push(Finding::error(
                            at,
                            format!(
                                "{pass}: {slot} shader {i} does not exist ({})",
                                count(self.shaders.len(), "shader")
                            ),
                        )),
                        Some(s) if (s.is_vertex != 0) != (want == 1) => out.push(Finding::error(
                            at,
                            format!("{pass}: {slot} shader {i} is a {} shader", s.stage_name()),
                        )),
                        _ => {}
                    }
                }
            }
        }
        if !self.trailing.is_empty() {
            let at = self.at + self.mgfx_bytes().len().saturating_sub(self.trailing.len()) as u64;
            out.push(Finding::warning(
                at,
                format!("{} after the effect", count(self.trailing.len(), "byte")),
            ));
        }
        out
    }
}

impl Container for Mgfx<'_> {
    fn format(&self) -> Format {
        Format::Mgfx
    }

    fn write_info_text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        let i = self.info();
        writeln!(s, "format: {}", Format::Mgfx.description())?;
        writeln!(s, "summary: {}", i.summary)?;
        writeln!(s, "size: {} bytes", i.size)?;
        if let Some(x) = &i.xnb {
            x.header.write_text(s)?;
            writeln!(s, "MGFX at 0x{:x} ({} bytes)", x.mgfx_offset, x.mgfx_size)?;
        }
        writeln!(s, "version: {}", i.version)?;
        writeln!(s, "profile: {} ({})", i.profile, i.profile_name.unwrap_or("unknown"))?;
        writeln!(s, "effect key: 0x{:08x}", i.key)?;
        writeln!(s, "constant buffers: {}", i.constant_buffers.len())?;
        for c in &i.constant_buffers {
            writeln!(s, "  cbuffer {} \"{}\" at 0x{:x}: {} bytes", c.index, c.name, c.offset, c.size)?;
            for p in &c.parameters {
                let name = usize::try_from(p.parameter)
                    .ok()
                    .and_then(|x| self.parameters.get(x))
                    .map_or_else(|| "(no such parameter)".to_string(), |q| q.name.to_string());
                writeln!(s, "    parameter {} ({name}) at offset {}", p.parameter, p.offset)?;
            }
        }
        writeln!(s, "shaders: {}", i.shaders.len())?;
        for sh in &i.shaders {
            let model = sh.model.as_deref().map(|m| format!(" {m}")).unwrap_or_default();
            writeln!(
                s,
                "  {} at 0x{:x}: {}, {}{model}, {} at 0x{:x}; cbuffers {:?}",
                sh.name,
                sh.offset,
                sh.stage,
                sh.kind,
                count(sh.size, "byte"),
                sh.code_offset,
                sh.cbuffers
            )?;
            if let (Some(file), Some(entry)) = (&sh.source_file, &sh.entry_point) {
                writeln!(s, "    from {entry} in {file}")?;
            }
            for m in &sh.samplers {
                writeln!(
                    s,
                    "    sampler \"{}\": type {}, texture slot {}, sampler slot {}, parameter {}",
                    m.name, m.ty, m.texture_slot, m.sampler_slot, m.parameter
                )?;
                if let Some(st) = &m.state {
                    write_state(s, "      ", st)?;
                }
            }
            for a in &sh.attributes {
                writeln!(
                    s,
                    "    attribute \"{}\": usage {}, index {}, location {}",
                    a.name, a.usage, a.index, a.location
                )?;
            }
        }
        writeln!(s, "parameters: {}", i.parameters.len())?;
        let mut stack: Vec<(usize, String, &ParameterInfo)> =
            i.parameters.iter().enumerate().rev().map(|(n, p)| (1, format!("[{n}]"), p)).collect();
        while let Some((depth, label, p)) = stack.pop() {
            let semantic = if p.semantic.is_empty() { String::new() } else { format!(" : {}", p.semantic) };
            let values =
                if p.values.is_empty() { String::new() } else { format!(" = {{{}}}", p.values.join(", ")) };
            let name = if p.name.is_empty() { String::new() } else { format!(" {}", p.name) };
            writeln!(
                s,
                "{}{label}{name}{semantic}: {} {} {}x{}{values}",
                "  ".repeat(depth.min(super::MAX_DEPTH + 1)),
                p.class_name.map_or_else(|| format!("class {}", p.class), str::to_string),
                p.type_name.map_or_else(|| format!("type {}", p.ty), str::to_string),
                p.rows,
                p.columns
            )?;
            let kids = p.elements.iter().enumerate().map(|(n, e)| (depth + 1, format!("element {n}"), e));
            let members = p.members.iter().enumerate().map(|(n, e)| (depth + 1, format!("member {n}"), e));
            let all: Vec<_> = kids.chain(members).collect();
            stack.extend(all.into_iter().rev());
        }
        writeln!(s, "techniques: {}", i.techniques.len())?;
        for t in &i.techniques {
            writeln!(s, "  technique \"{}\" at 0x{:x}", t.name, t.offset)?;
            for p in &t.passes {
                let none = || "none".to_string();
                writeln!(
                    s,
                    "    pass \"{}\" at 0x{:x}: vertex shader {}, pixel shader {}",
                    p.name,
                    p.offset,
                    p.vertex_shader.clone().unwrap_or_else(none),
                    p.pixel_shader.clone().unwrap_or_else(none)
                )?;
                for st in &p.states {
                    write_state(s, "      ", st)?;
                }
            }
        }
        if i.trailing_bytes > 0 {
            writeln!(s, "after the effect: {} bytes", i.trailing_bytes)?;
        }
        Ok(())
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        crate::json::write_info(out, &self.info())
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        out.start_line(Some(self.at));
        let head = format!(
            "//\n// MonoGame effect (MGFX) version {}, profile {}\n//\n",
            self.version,
            self.profile().map_or_else(|| self.profile.to_string(), |p| p.name().to_string())
        );
        out.styled(Style::Comment, &head).map_err(printer_failed)?;
        if !self.parameters.is_empty() {
            out.write_char('\n').map_err(printer_failed)?;
            for p in &self.parameters {
                self.list_parameter(p, 0, 0, out)?;
            }
        }
        for t in &self.techniques {
            out.start_line(Some(t.at));
            writeln!(out, "\ntechnique {}\n{{", t.name).map_err(printer_failed)?;
            for (n, p) in t.passes.iter().enumerate() {
                if n > 0 {
                    writeln!(out).map_err(printer_failed)?;
                }
                out.start_line(Some(p.at));
                writeln!(out, "    pass {}\n    {{", p.name).map_err(printer_failed)?;
                let wrote = self.list_shader("vertexshader", p.vertex_shader, false, opts, out)?;
                self.list_shader("pixelshader", p.pixel_shader, wrote, opts, out)?;
                out.start_line(None);
                writeln!(out, "    }}").map_err(printer_failed)?;
            }
            out.start_line(None);
            writeln!(out, "}}").map_err(printer_failed)?;
        }
        Ok(())
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
        self.disasm(opts, out.listing())?;
        for (i, s) in self.shaders.iter().enumerate() {
            if !s.is_dxbc() {
                continue;
            }
            if let Ok(d) = Dxbc::parse(&s.code) {
                let mut nested = NestedSink::new(out, s.code_at, format!("shader{i}"));
                // A shader whose listing fails is said so in the listing above.
                let _ = d.write_disasm_json(opts, &mut nested);
            }
        }
        Ok(())
    }

    fn annotate(&self, a: &mut Annotations) {
        super::annotate_damaged(self.data, a);
    }

    fn validate(&self) -> Vec<Finding> {
        self.check()
    }

    fn write(&self) -> Result<Vec<u8>> {
        self.write_model()
    }

    fn parts(&self) -> Vec<Part<'_>> {
        let mut v = Vec::new();
        for (i, s) in self.shaders.iter().enumerate() {
            v.push(Part::new(
                format!("shader{i}"),
                s.code_at,
                &s.code[..],
                format!("shader {i}: the {} shader's {}", s.stage_name(), self.kind(s)),
            ));
        }
        if self.xnb.is_some() {
            v.push(Part::new("mgfx", self.at, self.mgfx_bytes(), "the MGFX effect the XNB wraps"));
        }
        v
    }

    fn embedded(&self) -> Vec<Part<'_>> {
        self.parts()
            .into_iter()
            .filter(|p| p.name.starts_with("shader") && p.bytes.starts_with(b"DXBC"))
            .collect()
    }
}

fn write_state(s: &mut dyn std::fmt::Write, indent: &str, st: &StateInfo) -> std::fmt::Result {
    let fields: Vec<String> = st.fields.iter().map(|f| format!("{}={}", f.name, f.value)).collect();
    writeln!(s, "{indent}{} state: {}", st.kind, fields.join(", "))
}
