//! What `info`, `dump` and `validate` say about an fx_2_0 effect.

use super::{BASE, Binding, Fx9, Source, TAG, Type, classes};
use crate::dump::Annotations;
use crate::format::d3d9::stage_of;
use crate::model::Finding;
use crate::print::count;
use crate::toolkit::{Endian, Reader};
use serde::Serialize;
use std::fmt::{self, Write};

/// The `info` summary.
#[derive(Debug, Serialize)]
pub(super) struct Info {
    summary: String,
    /// Where the fx_2_0 effect starts (0 unless the file wraps it).
    effect_offset: u64,
    effect_size: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    xnb: Option<crate::format::xnb::XnbInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    xna_header: Option<XnaInfo>,
    unstructured_size: u64,
    shader_count: u32,
    object_count: u32,
    parameters: Vec<ParameterInfo>,
    techniques: Vec<TechniqueInfo>,
    shaders: Vec<ShaderInfo>,
}

/// XNA's header before the effect.
#[derive(Debug, Serialize)]
struct XnaInfo {
    offset: u64,
    /// XNA's words between its header and the effect, in hex.
    words: String,
}

#[derive(Debug, Serialize)]
struct ParameterInfo {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    semantic: Option<String>,
    elements: u32,
    flags: u32,
    annotations: Vec<String>,
    /// The default value of a numeric parameter, as numbers.
    value: Option<Vec<f64>>,
    /// The shaders of a shader-typed parameter (`shader0`, …).
    shaders: Vec<String>,
    offset: u64,
}

#[derive(Debug, Serialize)]
struct TechniqueInfo {
    name: String,
    annotations: Vec<String>,
    passes: Vec<PassInfo>,
    offset: u64,
}

#[derive(Debug, Serialize)]
struct PassInfo {
    name: String,
    annotations: Vec<String>,
    /// Vertex shader, then pixel shader, as the pass binds them.
    shaders: Vec<BindingInfo>,
    states: usize,
    offset: u64,
}

#[derive(Debug, Serialize)]
struct BindingInfo {
    stage: &'static str,
    /// The shader part (`shader3`), when the effect holds the program.
    shader: Option<String>,
    model: Option<String>,
    /// The shader parameter the pass names, or the shader array chosen from at run time.
    parameter: Option<String>,
    selected: bool,
    /// For a selected shader: the element the expression chooses with the defaults.
    element: Option<u32>,
}

#[derive(Debug, Serialize)]
struct ShaderInfo {
    name: String,
    model: Option<String>,
    stage: Option<&'static str>,
    offset: u64,
    size: u64,
    /// `object N` (a parameter's) or `large object N` (a pass's).
    stored: String,
    error: Option<String>,
}

fn shader_name(i: usize) -> String {
    format!("shader{i}")
}

fn annotation_texts(list: &[super::Annotation]) -> Vec<String> {
    list.iter().map(|a| format!("{} {}", a.ty.hlsl(), a.ty.name)).collect()
}

impl Info {
    pub(super) fn new(fx: &Fx9<'_>) -> Info {
        let parameters = fx
            .parameters
            .iter()
            .map(|p| ParameterInfo {
                name: p.ty.name.clone(),
                ty: p.ty.hlsl(),
                semantic: p.ty.semantic.clone(),
                elements: p.ty.elements,
                flags: p.flags,
                annotations: annotation_texts(&p.annotations),
                value: fx.numbers(&p.ty, p.value_offset),
                shaders: fx
                    .object_ids(p)
                    .into_iter()
                    .filter_map(|id| fx.shader_at(Source::Object(id)))
                    .map(shader_name)
                    .collect(),
                offset: p.at,
            })
            .collect();
        let techniques = fx
            .techniques
            .iter()
            .enumerate()
            .map(|(t, tech)| TechniqueInfo {
                name: tech.name.clone(),
                annotations: annotation_texts(&tech.annotations),
                offset: tech.at,
                passes: tech
                    .passes
                    .iter()
                    .enumerate()
                    .map(|(p, pass)| PassInfo {
                        name: pass.name.clone(),
                        annotations: annotation_texts(&pass.annotations),
                        states: pass.states.len(),
                        offset: pass.at,
                        shaders: pass
                            .states
                            .iter()
                            .enumerate()
                            .filter(|(_, s)| s.ty.is_shader())
                            .map(|(s, state)| {
                                let stage = if state.ty.ty == super::types::VERTEXSHADER {
                                    "vertex"
                                } else {
                                    "pixel"
                                };
                                let (shader, parameter, selected, element) = match fx.state_shader(t, p, s) {
                                    Binding::None => (None, None, false, None),
                                    Binding::Shader(i) => (Some(i), None, false, None),
                                    Binding::Parameter(name, i) => (i, Some(name), false, None),
                                    Binding::Selected { array, by_default } => {
                                        let (element, shader) = by_default.unzip();
                                        (shader.flatten(), Some(array), true, element)
                                    }
                                };
                                let model = shader
                                    .and_then(|i| fx.shaders().get(i))
                                    .and_then(|s| s.program.as_ref().ok())
                                    .map(|p| p.version.name());
                                BindingInfo {
                                    stage,
                                    shader: shader.map(shader_name),
                                    model,
                                    parameter,
                                    selected,
                                    element,
                                }
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        let shaders = fx
            .shaders()
            .iter()
            .enumerate()
            .map(|(i, s)| ShaderInfo {
                name: shader_name(i),
                model: s.program.as_ref().ok().map(|p| p.version.name()),
                stage: s.program.as_ref().ok().map(|p| stage_of(p.version.kind).name()),
                offset: s.offset,
                size: s.bytes.len() as u64,
                stored: match s.source {
                    Source::Object(id) => format!("object {id}"),
                    Source::Resource(r) => format!("large object {r}"),
                },
                error: s.program.as_ref().err().map(|e| e.to_string()),
            })
            .collect();
        let passes: usize = fx.techniques.iter().map(|t| t.passes.len()).sum();
        let wrapped = match (&fx.xnb, &fx.xna) {
            (Some(x), Some(_)) => format!(" (XNA effect code in an XNB, platform '{}')", x.platform_name()),
            (Some(x), None) => format!(" (in an XNB, platform '{}')", x.platform_name()),
            (None, Some(_)) => " (XNA effect code)".to_string(),
            (None, None) => String::new(),
        };
        Info {
            summary: format!(
                "fx_2_0{wrapped}, {}, {}, {}, {}",
                count(fx.parameters.len(), "parameter"),
                count(fx.techniques.len(), "technique"),
                count(passes, "pass"),
                count(fx.shaders().len(), "shader")
            ),
            effect_offset: fx.origin,
            effect_size: fx.effect.len(),
            xnb: fx.xnb.as_ref().map(crate::format::xnb::XnbInfo::of),
            xna_header: fx.xna.as_ref().map(|h| XnaInfo {
                offset: h.at,
                words: h.words.iter().map(|b| format!("{b:02x}")).collect(),
            }),
            unstructured_size: fx.unstructured.len() as u64,
            shader_count: fx.shader_count,
            object_count: fx.object_count,
            parameters,
            techniques,
            shaders,
        }
    }

    pub(super) fn text(&self, s: &mut dyn Write) -> fmt::Result {
        writeln!(s, "format: {}", crate::Format::Fx9.description())?;
        writeln!(s, "summary: {}", self.summary)?;
        if let Some(x) = &self.xnb {
            x.write_text(s)?;
        }
        if let Some(h) = &self.xna_header {
            let words = if h.words.is_empty() { "none" } else { h.words.as_str() };
            writeln!(s, "XNA effect header at 0x{:x}: words before the effect {words}", h.offset)?;
        }
        if self.effect_offset != 0 {
            writeln!(s, "effect at 0x{:x} ({} bytes)", self.effect_offset, self.effect_size)?;
        }
        writeln!(
            s,
            "objects: {} ids, {} shaders counted by the compiler; unstructured block {}",
            self.object_count,
            self.shader_count,
            count(self.unstructured_size, "byte")
        )?;
        writeln!(s, "parameters:")?;
        for p in &self.parameters {
            write!(s, "  {} {}", p.ty, p.name)?;
            if p.elements > 0 {
                write!(s, "[{}]", p.elements)?;
            }
            if let Some(sem) = &p.semantic {
                write!(s, " : {sem}")?;
            }
            if let Some(v) = &p.value {
                let v: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                write!(s, " = {{{}}}", v.join(", "))?;
            }
            if !p.shaders.is_empty() {
                write!(s, " = {}", p.shaders.join(", "))?;
            }
            if !p.annotations.is_empty() {
                write!(s, " <{}>", p.annotations.join("; "))?;
            }
            writeln!(s)?;
        }
        writeln!(s, "techniques:")?;
        for t in &self.techniques {
            writeln!(s, "  technique {}", t.name)?;
            for p in &t.passes {
                let name = if p.name.is_empty() { "(unnamed)" } else { &p.name };
                write!(s, "    pass {name}: {}", count(p.states, "state"))?;
                for b in &p.shaders {
                    write!(s, ", {} ", b.stage)?;
                    match (&b.shader, &b.parameter, b.selected) {
                        (shader, Some(param), true) => {
                            write!(s, "shader from {param}[] at run time")?;
                            if let Some(e) = b.element {
                                write!(s, " ({param}[{e}]")?;
                                if let Some(shader) = shader {
                                    write!(s, " = {shader}")?;
                                }
                                write!(s, " with the defaults)")?;
                            }
                        }
                        (Some(shader), param, _) => {
                            write!(s, "{shader}")?;
                            if let Some(m) = &b.model {
                                write!(s, " ({m})")?;
                            }
                            if let Some(param) = param {
                                write!(s, " via {param}")?;
                            }
                        }
                        _ => write!(s, "shader none")?,
                    }
                }
                writeln!(s)?;
            }
        }
        writeln!(s, "shaders:")?;
        for sh in &self.shaders {
            write!(s, "  {}: ", sh.name)?;
            match (&sh.model, &sh.error) {
                (Some(m), _) => write!(s, "{m}")?,
                (None, Some(e)) => write!(s, "does not parse: {e}")?,
                _ => {}
            }
            writeln!(s, ", {} at 0x{:x} ({})", count(sh.size, "byte"), sh.offset, sh.stored)?;
        }
        Ok(())
    }
}

/// The header's fields.
/// The header's fields, of an `effect` at `origin` of the input.
pub(super) fn annotate_header(effect: &[u8], origin: u64, a: &mut Annotations) {
    let le = |at: usize| crate::toolkit::le_u32(effect, at);
    a.section(origin, 8.min(effect.len() as u64), "fx_2_0 header");
    if le(0) == Some(TAG) {
        a.field(origin, 4, "tag 0xfeff0901 (fx_2_0)");
    }
    if let Some(size) = le(4) {
        a.field(
            origin + 4,
            4,
            format_args!(
                "unstructured block size: {size} (structured part at 0x{:x})",
                origin + BASE + u64::from(size)
            ),
        );
    }
}

/// Every byte of the effect, with what it is.
pub(super) fn annotate(fx: &Fx9<'_>, a: &mut Annotations) {
    // The wrappers (XNB, XNA's header), when the effect has them.
    let _ = super::unwrap(fx.data, Some(a));
    annotate_header(fx.effect, fx.origin, a);
    let base = fx.base();
    let block = Reader::with_base(fx.unstructured, base, Endian::Little);
    a.section(
        base,
        fx.unstructured.len() as u64,
        "unstructured block (strings, types, values; offsets count from 0x8)",
    );
    if fx.unstructured.len() >= 4 {
        a.field(base, 4, "reserved (offset 0 means none)");
    }
    let structured = base + fx.unstructured.len() as u64;
    let end = fx.origin + (fx.effect.len() - fx.trailing.len()) as u64;
    a.section(structured, end - structured, "structured part");
    a.field(structured, 4, format_args!("parameter count: {}", fx.parameters.len()));
    a.field(structured + 4, 4, format_args!("technique count: {}", fx.techniques.len()));
    a.field(structured + 8, 4, format_args!("shader count: {}", fx.shader_count));
    a.field(structured + 12, 4, format_args!("object count: {}", fx.object_count));
    let typed = |a: &mut Annotations, ty: &Type, value_offset: u32, what: &str| {
        annotate_type(&block, ty, a, what);
        annotate_value(fx, &block, ty, value_offset, a, what);
    };
    let annotations = |a: &mut Annotations,
                       list: &[super::Annotation],
                       typed: &dyn Fn(&mut Annotations, &Type, u32, &str)| {
        for an in list {
            a.field(an.at, 4, format_args!("annotation type at 0x{:x}", an.type_offset));
            a.field(an.at + 4, 4, format_args!("annotation value at 0x{:x}", an.value_offset));
            typed(a, &an.ty, an.value_offset, "annotation");
        }
    };
    for (i, p) in fx.parameters.iter().enumerate() {
        let size = 16 + 8 * p.annotations.len() as u64;
        a.section(p.at, size, format_args!("parameter {i}: {} {}", p.ty.hlsl(), p.ty.name));
        a.field(p.at, 4, format_args!("type at 0x{:x}", p.type_offset));
        a.field(p.at + 4, 4, format_args!("value at 0x{:x}", p.value_offset));
        a.field(p.at + 8, 4, format_args!("flags: 0x{:x}", p.flags));
        a.field(p.at + 12, 4, format_args!("annotation count: {}", p.annotations.len()));
        annotations(a, &p.annotations, &typed);
        typed(a, &p.ty, p.value_offset, "parameter");
    }
    // A technique's or a pass's record: its name, its annotations, how many children.
    let record = |a: &mut Annotations,
                  (at, kind, name_offset, name): (u64, &str, u32, &str),
                  list: &[super::Annotation],
                  (noun, children): (&str, usize)| {
        let what = format!("{kind} name");
        a.field(at, 4, format_args!("{what} at 0x{name_offset:x}: \"{name}\""));
        a.field(at + 4, 4, format_args!("annotation count: {}", list.len()));
        a.field(at + 8, 4, format_args!("{noun} count: {children}"));
        annotate_string(&block, name_offset, a, &what);
        annotations(a, list, &typed);
    };
    for t in &fx.techniques {
        record(a, (t.at, "technique", t.name_offset, &t.name), &t.annotations, ("pass", t.passes.len()));
        for p in &t.passes {
            record(a, (p.at, "pass", p.name_offset, &p.name), &p.annotations, ("state", p.states.len()));
            for s in &p.states {
                annotate_state(fx, &block, s, a);
            }
        }
    }
    let tables = fx.objects.first().map_or(fx.resources.first().map_or(end, |r| r.at), |o| o.at) - 8;
    a.field(tables, 4, format_args!("small object count: {}", fx.objects.len()));
    a.field(tables + 4, 4, format_args!("large object count: {}", fx.resources.len()));
    for o in &fx.objects {
        a.section(o.at, 8 + (o.data.len() + o.padding.len()) as u64, format_args!("small object {}", o.id));
        a.field(o.at, 4, format_args!("object id: {}", o.id));
        a.field(o.at + 4, 4, format_args!("size: {}", o.data.len()));
        payload(fx, o.at + 8, o.data, o.padding, a);
    }
    for (i, r) in fx.resources.iter().enumerate() {
        a.section(r.at, 24 + (r.data.len() + r.padding.len()) as u64, format_args!("large object {i}"));
        if r.technique == u32::MAX {
            a.field(r.at, 4, "technique: none (a sampler parameter's state)");
            a.field(r.at + 4, 4, format_args!("parameter: {}", r.index));
        } else {
            a.field(r.at, 4, format_args!("technique: {}", r.technique));
            a.field(r.at + 4, 4, format_args!("pass: {}", r.index));
        }
        a.field(r.at + 8, 4, format_args!("element: {}", r.element as i32));
        a.field(r.at + 12, 4, format_args!("state: {}", r.state));
        let usage = match r.usage {
            0 => "the object's bytes",
            1 => "the name of a parameter",
            2 => "an array selector",
            _ => "unknown",
        };
        a.field(r.at + 16, 4, format_args!("usage: {} ({usage})", r.usage));
        a.field(r.at + 20, 4, format_args!("size: {}", r.data.len()));
        payload(fx, r.at + 24, r.data, r.padding, a);
    }
    if !fx.trailing.is_empty() {
        a.field(end, fx.trailing.len() as u64, "bytes after the last object");
    }
}

/// An object's bytes: a shader annotated as a program, anything else as one field.
fn payload(fx: &Fx9<'_>, at: u64, data: &[u8], padding: &[u8], a: &mut Annotations) {
    match fx.shaders().iter().find(|s| s.offset == at).map(|s| &s.program) {
        Some(Ok(p)) => crate::isa::d3d9::annotate_program(p, a),
        _ if data.starts_with(&[0, 2, 0x58, 0x46]) || data.starts_with(&[1, 2, 0x58, 0x46]) => {
            a.field(at, data.len() as u64, "FXLVM expression (preshader)")
        }
        _ if !data.is_empty() => {
            let text = data.split(|&b| b == 0).next().unwrap_or(&[]);
            if text.len() + 1 >= data.len() && text.iter().all(|c| c.is_ascii_graphic() || *c == b' ') {
                a.field(at, data.len() as u64, format_args!("string \"{}\"", String::from_utf8_lossy(text)));
            } else {
                a.field(at, data.len() as u64, "object bytes");
            }
        }
        _ => {}
    }
    if !padding.is_empty() {
        a.field(at + data.len() as u64, padding.len() as u64, "padding to 4");
    }
}

fn annotate_string(block: &Reader<'_>, offset: u32, a: &mut Annotations, what: &str) {
    if offset == 0 {
        return;
    }
    let Ok(len) = block.u32_at(offset as usize, "string") else { return };
    let at = block.base() + u64::from(offset);
    let Ok(bytes) = block.bytes_at(offset as usize + 4, len as usize, "string") else { return };
    let text = String::from_utf8_lossy(bytes.split(|&b| b == 0).next().unwrap_or(&[])).into_owned();
    a.field(at, 4, format_args!("{what} length: {len}"));
    a.field(at + 4, u64::from(len), format_args!("{what} \"{text}\""));
    let pad = u64::from(len).next_multiple_of(4) - u64::from(len);
    if pad > 0 && block.bytes_at(offset as usize + 4 + len as usize, pad as usize, "pad").is_ok() {
        a.field(at + 4 + u64::from(len), pad, "padding to 4");
    }
}

fn annotate_type(block: &Reader<'_>, t: &Type, a: &mut Annotations, what: &str) {
    let at = block.base() + u64::from(t.offset);
    let fields = if t.members.is_empty() && t.class == classes::OBJECT {
        20
    } else if t.class == classes::STRUCT {
        24
    } else {
        28
    };
    a.section(at, u64::from(t.size), format_args!("{what} type: {} {}", t.hlsl(), t.name));
    a.field(at, 4, format_args!("type: {} ({})", t.ty, t.hlsl()));
    a.field(at + 4, 4, format_args!("class: {}", t.class));
    let Ok(name_offset) = block.u32_at(t.offset as usize + 8, "name") else { return };
    let semantic_offset = block.u32_at(t.offset as usize + 12, "semantic").unwrap_or(0);
    a.field(at + 8, 4, format_args!("name at 0x{name_offset:x}"));
    a.field(at + 12, 4, format_args!("semantic at 0x{semantic_offset:x}"));
    a.field(at + 16, 4, format_args!("elements: {}", t.elements));
    annotate_string(block, name_offset, a, "name");
    annotate_string(block, semantic_offset, a, "semantic");
    match (t.class, fields) {
        (classes::STRUCT, _) => {
            a.field(at + 20, 4, format_args!("member count: {}", t.members.len()));
            for m in &t.members {
                annotate_type(block, m, a, "member");
            }
        }
        (classes::VECTOR, _) => {
            a.field(at + 20, 4, format_args!("columns: {}", t.columns));
            a.field(at + 24, 4, format_args!("rows: {}", t.rows));
        }
        (_, 28) => {
            a.field(at + 20, 4, format_args!("rows: {}", t.rows));
            a.field(at + 24, 4, format_args!("columns: {}", t.columns));
        }
        _ => {}
    }
}

fn annotate_value(
    fx: &Fx9<'_>,
    block: &Reader<'_>,
    t: &Type,
    value_offset: u32,
    a: &mut Annotations,
    what: &str,
) {
    let at = block.base() + u64::from(value_offset);
    if t.is_sampler() {
        // Per element: a state count and the states (each a record with its own type and value).
        let mut o = value_offset as usize;
        for _ in 0..t.count() {
            let Ok(n) = block.u32_at(o, "sampler states") else { return };
            a.field(block.base() + o as u64, 4, format_args!("{what} sampler state count: {n}"));
            o += 4;
            for _ in 0..n.min(1 << 16) {
                let Ok(s) = sampler_state(block, o) else { return };
                annotate_state(fx, block, &s, a);
                o += 16;
            }
        }
        return;
    }
    let size = t.value_size();
    if let Some(v) = fx.numbers(t, value_offset) {
        let v: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        a.field(at, size, format_args!("{what} {} value: {}", t.name, v.join(", ")));
    } else if t.class == classes::OBJECT {
        a.field(at, size, format_args!("{what} {} object id(s)", t.name));
    } else if size > 0 {
        a.field(at, size, format_args!("{what} {} value", t.name));
    }
}

/// A state record of a sampler's block, in the unstructured block at `o`.
fn sampler_state(block: &Reader<'_>, o: usize) -> crate::Result<super::State> {
    let operation = block.u32_at(o, "state")?;
    let index = block.u32_at(o + 4, "state")?;
    let type_offset = block.u32_at(o + 8, "state")?;
    let value_offset = block.u32_at(o + 12, "state")?;
    let at = block.base() + o as u64;
    let ty = super::Block(block.clone()).ty(type_offset, at, 0)?;
    Ok(super::State { at, operation, index, type_offset, value_offset, ty })
}

fn annotate_state(fx: &Fx9<'_>, block: &Reader<'_>, s: &super::State, a: &mut Annotations) {
    a.field(s.at, 4, format_args!("state operation: 0x{:x}{}", s.operation, state_name(s.operation)));
    a.field(s.at + 4, 4, format_args!("state index: {}", s.index));
    a.field(s.at + 8, 4, format_args!("state type at 0x{:x}", s.type_offset));
    a.field(s.at + 12, 4, format_args!("state value at 0x{:x}", s.value_offset));
    annotate_type(block, &s.ty, a, "state");
    annotate_value(fx, block, &s.ty, s.value_offset, a, "state");
}

/// The names of the states this tool knows by number.
fn state_name(operation: u32) -> &'static str {
    match operation {
        0x92 => " (VertexShader)",
        0x93 => " (PixelShader)",
        _ => "",
    }
}

/// What `validate` finds beyond parsing.
pub(super) fn validate(fx: &Fx9<'_>) -> Vec<Finding> {
    let mut v = Vec::new();
    if let Some(x) = &fx.xnb {
        let effect_at = fx.xna.as_ref().map_or(fx.origin, |h| h.at);
        v.extend(x.findings(fx.data.len(), effect_at));
    }
    for o in &fx.objects {
        if o.id == 0 || o.id >= fx.object_count {
            v.push(Finding::warning(
                o.at,
                format!("small object id {} is outside 1..{}", o.id, fx.object_count),
            ));
        }
    }
    for (at, padding) in
        fx.objects.iter().map(|o| (o.at, o.padding)).chain(fx.resources.iter().map(|r| (r.at, r.padding)))
    {
        if padding.iter().any(|&b| b != 0) {
            v.push(Finding::warning(at, "padding bytes are not zero"));
        }
    }
    for r in &fx.resources {
        let known = if r.technique == u32::MAX {
            fx.parameters.get(r.index as usize).is_some()
        } else {
            fx.techniques
                .get(r.technique as usize)
                .and_then(|t| t.passes.get(r.index as usize))
                .is_some_and(|p| (r.state as usize) < p.states.len())
        };
        if !known {
            v.push(Finding::error(r.at, "large object names a state the effect does not have"));
        }
    }
    if !fx.trailing.is_empty() {
        let at = fx.origin + (fx.effect.len() - fx.trailing.len()) as u64;
        v.push(Finding::warning(at, format!("{} after the last object", count(fx.trailing.len(), "byte"))));
    }
    for s in fx.shaders() {
        if let Ok(p) = &s.program {
            v.extend(crate::isa::d3d9::check_program(p));
        }
    }
    v
}
