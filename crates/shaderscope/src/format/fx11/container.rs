//! [`Container`] for effects: `info` (the counts, the buffers and variables, the objects, the
//! group/technique/pass tree with the shader each pass binds), the listing fxc prints,
//! `dump` annotations (each embedded shader through the DXBC annotator), `validate`, the
//! shader parts.

use super::states;
use super::{
    Annotation, Assignment, Fx11, HEADER_FIELDS, Initializer, TypeDesc, assign, object_type_name, var_type,
};
use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::Result;
use crate::format::dxbc::Dxbc;
use crate::json::{DisasmSink, NestedSink};
use crate::model::{Finding, Part};
use crate::print::Printer;
use serde::Serialize;

#[derive(Debug, Serialize)]
struct ContainerInfo {
    chunk_offset: u64,
    checksum_ok: bool,
}

#[derive(Debug, Serialize)]
struct VariableInfo {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    offset: u64,
    buffer_offset: u32,
    size: u32,
    has_default: bool,
}

#[derive(Debug, Serialize)]
struct BufferInfo {
    name: String,
    kind: &'static str,
    offset: u64,
    size: u32,
    pool: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    bind_point: Option<u32>,
    variables: Vec<VariableInfo>,
}

#[derive(Debug, Serialize)]
struct ObjectInfo {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    elements: u32,
    offset: u64,
    pool: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    shaders: Vec<String>,
}

#[derive(Debug, Serialize)]
struct AssignmentInfo {
    state: String,
    offset: u64,
    value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    shader: Option<String>,
}

#[derive(Debug, Serialize)]
struct PassInfo {
    name: String,
    offset: u64,
    assignments: Vec<AssignmentInfo>,
}

#[derive(Debug, Serialize)]
struct TechniqueInfo {
    name: String,
    offset: u64,
    passes: Vec<PassInfo>,
}

#[derive(Debug, Serialize)]
struct GroupInfo {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<u64>,
    techniques: Vec<TechniqueInfo>,
}

#[derive(Debug, Serialize)]
struct ShaderInfo {
    name: String,
    offset: u64,
    size: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
}

/// A header count.
#[derive(Debug, Serialize)]
struct HeaderField {
    name: &'static str,
    value: u32,
}

/// Everything `info` says about an effect (text and JSON alike).
#[derive(Debug, Serialize)]
struct Info {
    profile: &'static str,
    size: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    container: Option<ContainerInfo>,
    header: Vec<HeaderField>,
    buffers: Vec<BufferInfo>,
    objects: Vec<ObjectInfo>,
    interfaces: Vec<ObjectInfo>,
    groups: Vec<GroupInfo>,
    shaders: Vec<ShaderInfo>,
}

/// The shader model of a DXBC shader (`vs_5_0`), where it has a program.
fn model(bytes: &[u8]) -> Option<String> {
    Dxbc::parse(bytes).ok()?.program.as_ref().map(|p| p.version_text())
}

impl Fx11<'_> {
    /// `shaderN (vs_5_0)` for the shader block at `o`, `NULL` for none.
    fn shader_name(&self, o: u32) -> String {
        if o == 0 {
            return "NULL".to_string();
        }
        match self.shader_index(o) {
            Some(i) => match self.shaders.get(i).and_then(|s| model(s.bytes)) {
                Some(m) => format!("shader{i} ({m})"),
                None => format!("shader{i}"),
            },
            None => format!("(no shader at 0x{o:x})"),
        }
    }

    fn type_name(&self, t: &TypeDesc) -> String {
        let name = self.text(t.name);
        if name.is_empty() && t.class == var_type::OBJECT {
            object_type_name(t.info).to_string()
        } else {
            name
        }
    }

    fn assignment_info(&self, a: &Assignment) -> AssignmentInfo {
        let mut state =
            states::state(a.state).map_or_else(|| format!("state {}", a.state), |s| s.name.to_string());
        if states::state(a.state).is_some_and(|s| s.indexed) {
            state.push_str(&format!("[{}]", a.index));
        }
        let shader = self.inline_shader(a).map(|o| self.shader_name(o));
        let value = match &shader {
            Some(s) => s.clone(),
            None => self.assignment_value_text(a),
        };
        AssignmentInfo { state, offset: a.at, value, shader }
    }

    fn info(&self) -> Info {
        let header = self
            .header
            .iter()
            .zip(HEADER_FIELDS)
            .skip(1)
            .map(|(v, n)| HeaderField { name: n, value: *v })
            .collect();
        let buffers = self
            .cbuffers
            .iter()
            .map(|c| BufferInfo {
                name: self.text(c.name),
                kind: if c.flags & 1 != 0 { "tbuffer" } else { "cbuffer" },
                offset: c.at,
                size: c.size,
                pool: c.pool,
                bind_point: (c.bind_point != u32::MAX).then_some(c.bind_point),
                variables: c
                    .variables
                    .iter()
                    .map(|v| {
                        let t = self.type_at(v.ty, v.at + 4).ok();
                        VariableInfo {
                            name: self.text(v.name),
                            ty: t.as_ref().map(|t| self.type_name(t)).unwrap_or_default(),
                            offset: v.at,
                            buffer_offset: v.offset,
                            size: t.as_ref().map_or(0, |t| t.total_size),
                            has_default: v.default != 0,
                        }
                    })
                    .collect(),
            })
            .collect();
        let objects = self
            .objects
            .iter()
            .map(|o| {
                let t = self.type_at(o.ty, o.at + 4).ok();
                let shaders = o
                    .initializers
                    .iter()
                    .filter_map(|(_, i)| match i {
                        Initializer::Shader(s) | Initializer::GsSo(s, _) => Some(self.shader_name(*s)),
                        Initializer::Shader5(s) => Some(self.shader_name(s.shader)),
                        _ => None,
                    })
                    .collect();
                ObjectInfo {
                    name: self.text(o.name),
                    ty: t.as_ref().map(|t| self.type_name(t)).unwrap_or_default(),
                    elements: t.as_ref().map_or(0, |t| t.elements),
                    offset: o.at,
                    pool: o.pool,
                    shaders,
                }
            })
            .collect();
        let interfaces = self
            .interfaces
            .iter()
            .map(|i| {
                let t = self.type_at(i.ty, i.at + 4).ok();
                ObjectInfo {
                    name: self.text(i.name),
                    ty: t.as_ref().map(|t| self.type_name(t)).unwrap_or_default(),
                    elements: t.as_ref().map_or(0, |t| t.elements),
                    offset: i.at,
                    pool: false,
                    shaders: Vec::new(),
                }
            })
            .collect();
        let groups = self
            .groups
            .iter()
            .map(|g| GroupInfo {
                name: self.text(g.name),
                offset: g.at,
                techniques: g
                    .techniques
                    .iter()
                    .map(|t| TechniqueInfo {
                        name: self.text(t.name),
                        offset: t.at,
                        passes: t
                            .passes
                            .iter()
                            .map(|p| PassInfo {
                                name: self.text(p.name),
                                offset: p.at,
                                assignments: p.assignments.iter().map(|a| self.assignment_info(a)).collect(),
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        let shaders = self
            .shaders
            .iter()
            .enumerate()
            .map(|(i, s)| ShaderInfo {
                name: format!("shader{i}"),
                offset: s.data_offset(),
                size: s.bytes.len(),
                model: model(s.bytes),
            })
            .collect();
        let container = self.container.as_ref().map(|d| ContainerInfo {
            chunk_offset: self.base.saturating_sub(8),
            checksum_ok: d.checksum_ok(),
        });
        Info {
            profile: self.profile(),
            size: self.data().len(),
            container,
            header,
            buffers,
            objects,
            interfaces,
            groups,
            shaders,
        }
    }

    /// An assignment's value as text for `info` (the listing's words on one line: an
    /// expression's instructions separated by `; `, or why not).
    fn assignment_value_text(&self, a: &Assignment) -> String {
        match self.assignment_value(a) {
            Ok(v) => v.lines().collect::<Vec<_>>().join("; "),
            Err(e) => format!("(unreadable: {e})"),
        }
    }

    fn annotate_annotations(
        &self,
        list: Option<&[Annotation]>,
        count_at: u64,
        types: &mut Vec<u32>,
        a: &mut Annotations,
    ) {
        let Some(list) = list else { return };
        a.field(count_at, 4, format_args!("annotation count: {}", list.len()));
        for an in list {
            let len = 8 + 4 * an.values.len() as u64;
            a.section(an.at, len, format_args!("annotation {}", self.text(an.name)));
            a.field(an.at, 4, format_args!("name: 0x{:x} \"{}\"", an.name, self.text(an.name)));
            a.field(an.at + 4, 4, format_args!("type: 0x{:x}", an.ty));
            types.push(an.ty);
            self.claim_string(an.name, a);
            let t = self.type_at(an.ty, an.at + 4).ok();
            for (i, v) in an.values.iter().enumerate() {
                a.field(an.at + 8 + 4 * i as u64, 4, format_args!("value: 0x{v:x}"));
                match &t {
                    Some(t) if t.class == var_type::NUMERIC => self.claim_default(*v, t, a),
                    _ => self.claim_string(*v, a),
                }
            }
        }
    }

    /// Annotate the string at `o` in the unstructured block.
    fn claim_string(&self, o: u32, a: &mut Annotations) {
        if o == 0 {
            return;
        }
        if let Ok(s) = self.string(o, "string", 0) {
            a.field(
                self.abs(o),
                s.len() as u64 + 1,
                format_args!("string \"{}\"", String::from_utf8_lossy(s)),
            );
        }
    }

    fn claim_default(&self, o: u32, t: &TypeDesc, a: &mut Annotations) {
        if o != 0 && self.ubytes(o, u64::from(t.packed_size), "default value", 0).is_ok() {
            a.field(self.abs(o), u64::from(t.packed_size), "default value");
        }
    }

    /// Annotate the types at `roots` and those they point to, each once (types share members:
    /// a walk per use could cost the product of their member counts).
    fn claim_types(&self, roots: &[u32], a: &mut Annotations) {
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<(u32, usize)> = roots.iter().map(|o| (*o, 0)).collect();
        while let Some((o, depth)) = stack.pop() {
            if !seen.insert(o) {
                continue;
            }
            let Ok(t) = self.type_at(o, 0) else { continue };
            let at = self.abs(o);
            a.section(at, u64::from(t.len), format_args!("type {}", self.text(t.name)));
            a.field(at, 4, format_args!("type name: 0x{:x}", t.name));
            self.claim_string(t.name, a);
            let class = match t.class {
                var_type::NUMERIC => "numeric",
                var_type::OBJECT => "object",
                var_type::STRUCT => "struct",
                _ => "interface",
            };
            a.field(at + 4, 4, format_args!("class: {} ({class})", t.class));
            a.field(at + 8, 4, format_args!("elements: {}", t.elements));
            a.field(at + 12, 4, format_args!("total size: {}", t.total_size));
            a.field(at + 16, 4, format_args!("stride: {}", t.stride));
            a.field(at + 20, 4, format_args!("packed size: {}", t.packed_size));
            match t.class {
                var_type::NUMERIC => a.field(at + 24, 4, format_args!("numeric description: 0x{:x}", t.info)),
                var_type::OBJECT => a.field(
                    at + 24,
                    4,
                    format_args!("object type: {} ({})", t.info, object_type_name(t.info)),
                ),
                var_type::STRUCT => {
                    a.field(at + 24, 4, format_args!("members: {}", t.info));
                    for (i, m) in t.members.iter().enumerate() {
                        let m_at = at + 28 + 16 * i as u64;
                        a.field(m_at, 4, format_args!("member {i} name: \"{}\"", self.text(m.name)));
                        a.field(m_at + 4, 4, format_args!("member {i} semantic: 0x{:x}", m.semantic));
                        a.field(m_at + 8, 4, format_args!("member {i} offset: {}", m.offset));
                        a.field(m_at + 12, 4, format_args!("member {i} type: 0x{:x}", m.ty));
                        self.claim_string(m.name, a);
                        self.claim_string(m.semantic, a);
                        if depth < super::MAX_TYPE_DEPTH {
                            stack.push((m.ty, depth + 1));
                        }
                    }
                    if let Some((base, list)) = &t.class_data {
                        let c_at = at + 28 + 16 * t.members.len() as u64;
                        a.field(c_at, 4, format_args!("base class type: 0x{base:x}"));
                        a.field(c_at + 4, 4, format_args!("interfaces: {}", list.len()));
                        for (i, it) in list.iter().enumerate() {
                            a.field(c_at + 8 + 4 * i as u64, 4, format_args!("interface type: 0x{it:x}"));
                            if depth < super::MAX_TYPE_DEPTH {
                                stack.push((*it, depth + 1));
                            }
                        }
                        if *base != 0 && depth < super::MAX_TYPE_DEPTH {
                            stack.push((*base, depth + 1));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn claim_data_block(&self, o: u32, what: &str, a: &mut Annotations) {
        if let Ok(size) = self.uword(o, "data block", 0) {
            a.field(self.abs(o), 4, format_args!("{what} size: {size}"));
            if self.ubytes(o.saturating_add(4), u64::from(size), "data block", 0).is_ok() {
                a.field(self.abs(o) + 4, u64::from(size), format_args!("{what} (not decoded)"));
            }
        }
    }

    /// Annotate an assignment and the value it points to.
    fn annotate_assignment(&self, x: &Assignment, a: &mut Annotations) {
        let name = states::state(x.state).map_or("unknown state", |s| s.name);
        a.section(x.at, 16, format_args!("assignment {name}"));
        a.field(x.at, 4, format_args!("state: {} ({name})", x.state));
        a.field(x.at + 4, 4, format_args!("index: {}", x.index));
        a.field(x.at + 8, 4, format_args!("assignment type: {}", x.kind));
        a.field(x.at + 12, 4, format_args!("value: 0x{:x}", x.value));
        let o = x.value;
        let at = self.abs(o);
        match x.kind {
            assign::CONSTANT => {
                if let Ok(n) = self.uword(o, "constant", 0) {
                    a.field(at, 4, format_args!("constant count: {n}"));
                    if let Ok(w) = self.uwords(o.saturating_add(4), n.saturating_mul(2), "constant", 0) {
                        for (i, c) in w.chunks_exact(2).enumerate() {
                            let &[ty, value] = c else { continue };
                            let c_at = at + 4 + 8 * i as u64;
                            a.field(c_at, 4, format_args!("constant type: {ty}"));
                            a.field(c_at + 4, 4, format_args!("constant value: 0x{value:x}"));
                        }
                    }
                }
            }
            assign::VARIABLE => self.claim_string(o, a),
            assign::CONSTANT_INDEX | assign::VARIABLE_INDEX | assign::EXPRESSION_INDEX => {
                if let Ok([name, index]) = self.uarr::<2>(o, "index", 0) {
                    a.field(at, 4, format_args!("array name: 0x{name:x}"));
                    self.claim_string(name, a);
                    match x.kind {
                        assign::CONSTANT_INDEX => a.field(at + 4, 4, format_args!("index: {index}")),
                        assign::VARIABLE_INDEX => {
                            a.field(at + 4, 4, format_args!("index variable: 0x{index:x}"));
                            self.claim_string(index, a);
                        }
                        _ => {
                            a.field(at + 4, 4, format_args!("index expression: 0x{index:x}"));
                            self.claim_data_block(index, "index expression", a);
                        }
                    }
                }
            }
            assign::EXPRESSION => self.claim_data_block(o, "expression", a),
            assign::INLINE_SHADER => {
                if let Ok([shader, so]) = self.uarr::<2>(o, "inline shader", 0) {
                    a.field(at, 4, format_args!("shader: 0x{shader:x}"));
                    a.field(at + 4, 4, format_args!("stream-output declaration: 0x{so:x}"));
                    self.claim_string(so, a);
                }
            }
            assign::INLINE_SHADER_5 => {
                if let Ok(w) = self.uwords(o, 9, "inline shader", 0) {
                    self.annotate_shader5(at, &w, a);
                }
            }
            _ => {}
        }
    }

    fn annotate_shader5(&self, at: u64, w: &[u32], a: &mut Annotations) {
        const NAMES: [&str; 9] = [
            "shader",
            "stream 0 declaration",
            "stream 1 declaration",
            "stream 2 declaration",
            "stream 3 declaration",
            "stream declarations",
            "rasterized stream",
            "interface bindings",
            "interface bindings offset",
        ];
        for (i, (v, n)) in w.iter().zip(NAMES).enumerate() {
            a.field(at + 4 * i as u64, 4, format_args!("{n}: 0x{v:x}"));
        }
        for d in w.get(1..5).unwrap_or(&[]) {
            self.claim_string(*d, a);
        }
        if let (Some(&n), Some(&o)) = (w.get(7), w.get(8)) {
            if let Ok(list) = self.uwords(o, n.saturating_mul(2), "interface bindings", 0) {
                for (i, b) in list.chunks_exact(2).enumerate() {
                    let &[name, index] = b else { continue };
                    let b_at = self.abs(o) + 8 * i as u64;
                    a.field(b_at, 4, format_args!("interface binding {i} instance: 0x{name:x}"));
                    a.field(b_at + 4, 4, format_args!("interface binding {i} array index: {index}"));
                    self.claim_string(name, a);
                }
            }
        }
    }

    fn annotate_header(&self, a: &mut Annotations) {
        if let Some(d) = &self.container {
            a.section(0, 32, "DXBC header");
            a.field(0, 4, "magic \"DXBC\"");
            a.field(
                4,
                16,
                format_args!("checksum ({})", if d.checksum_ok() { "matches" } else { "does not match" }),
            );
            a.field(20, 4, "version word");
            a.field(24, 4, "container size");
            a.field(28, 4, "chunk count: 1");
            if self.base >= 8 {
                if self.base > 40 {
                    a.field(32, self.base - 40, "chunk index");
                } else {
                    a.field(32, 4, "chunk 0 offset");
                }
                a.section(self.base - 8, 8 + self.blob().len() as u64, "chunk FX10 (the effect)");
                a.field(self.base - 8, 4, "FourCC \"FX10\"");
                a.field(self.base - 4, 4, format_args!("size: {}", self.blob().len()));
            }
            let end = self.base + self.blob().len() as u64;
            let len = self.data().len() as u64;
            if len > end {
                a.field(end, len - end, "bytes after the FX10 chunk");
            }
        }
        let n = self.header.len() as u64;
        a.section(self.base, 4 * n, format_args!("effect header ({})", self.profile()));
        for (i, (v, name)) in self.header.iter().zip(HEADER_FIELDS).enumerate() {
            let at = self.base + 4 * i as u64;
            if i == 0 {
                a.field(at, 4, format_args!("tag 0x{v:08x} ({})", self.profile()));
            } else {
                a.field(at, 4, format_args!("{name}: {v}"));
            }
        }
    }

    fn annotate_model(&self, a: &mut Annotations) {
        self.annotate_header(a);
        // The types every record names, annotated once at the end.
        let mut types = Vec::new();
        let u = self.unstructured_at();
        a.section(u, self.unstructured.len() as u64, "unstructured block");
        if self.unstructured.len() >= 4 {
            a.field(u, 4, "the empty string (offset 0 means none)");
        }
        let s_at = u + self.unstructured.len() as u64;
        let s_len = (self.blob().len() as u64)
            .saturating_sub(self.header.len() as u64 * 4 + self.unstructured.len() as u64);
        a.section(s_at, s_len, "structured block");
        for c in &self.cbuffers {
            let kind = if c.flags & 1 != 0 { "tbuffer" } else { "cbuffer" };
            a.section(c.at, 20, format_args!("{kind} {}", self.text(c.name)));
            a.field(c.at, 4, format_args!("name: 0x{:x}", c.name));
            a.field(c.at + 4, 4, format_args!("size: {}", c.size));
            a.field(c.at + 8, 4, format_args!("flags: 0x{:x}", c.flags));
            a.field(c.at + 12, 4, format_args!("variables: {}", c.variables.len()));
            a.field(c.at + 16, 4, format_args!("explicit bind point: 0x{:x}", c.bind_point));
            self.claim_string(c.name, a);
            self.annotate_annotations(c.annotations.as_deref(), c.at + 20, &mut types, a);
            for v in &c.variables {
                a.section(v.at, 24, format_args!("numeric variable {}", self.text(v.name)));
                a.field(v.at, 4, format_args!("name: 0x{:x}", v.name));
                a.field(v.at + 4, 4, format_args!("type: 0x{:x}", v.ty));
                a.field(v.at + 8, 4, format_args!("semantic: 0x{:x}", v.semantic));
                a.field(v.at + 12, 4, format_args!("offset: {}", v.offset));
                a.field(v.at + 16, 4, format_args!("default value: 0x{:x}", v.default));
                a.field(v.at + 20, 4, format_args!("flags: 0x{:x}", v.flags));
                self.claim_string(v.name, a);
                self.claim_string(v.semantic, a);
                types.push(v.ty);
                if let Ok(t) = self.type_at(v.ty, 0) {
                    self.claim_default(v.default, &t, a);
                }
                self.annotate_annotations(v.annotations.as_deref(), v.at + 24, &mut types, a);
            }
        }
        for o in &self.objects {
            a.section(o.at, 16, format_args!("object variable {}", self.text(o.name)));
            a.field(o.at, 4, format_args!("name: 0x{:x}", o.name));
            a.field(o.at + 4, 4, format_args!("type: 0x{:x}", o.ty));
            a.field(o.at + 8, 4, format_args!("semantic: 0x{:x}", o.semantic));
            a.field(o.at + 12, 4, format_args!("explicit bind point: 0x{:x}", o.bind_point));
            self.claim_string(o.name, a);
            self.claim_string(o.semantic, a);
            types.push(o.ty);
            let mut end = o.at + 16;
            for (at, init) in &o.initializers {
                match init {
                    Initializer::String(s) => {
                        a.field(*at, 4, format_args!("string: 0x{s:x}"));
                        self.claim_string(*s, a);
                        end = at + 4;
                    }
                    Initializer::Shader(s) => {
                        a.field(*at, 4, format_args!("shader: 0x{s:x}"));
                        end = at + 4;
                    }
                    Initializer::GsSo(s, so) => {
                        a.field(*at, 4, format_args!("shader: 0x{s:x}"));
                        a.field(at + 4, 4, format_args!("stream-output declaration: 0x{so:x}"));
                        self.claim_string(*so, a);
                        end = at + 8;
                    }
                    Initializer::Shader5(s5) => {
                        self.annotate_shader5(*at, &s5.words(), a);
                        end = at + 36;
                    }
                    Initializer::StateBlock(list) => {
                        a.field(*at, 4, format_args!("assignments: {}", list.len()));
                        for x in list {
                            self.annotate_assignment(x, a);
                        }
                        end = at + 4 + 16 * list.len() as u64;
                    }
                }
            }
            self.annotate_annotations(o.annotations.as_deref(), end, &mut types, a);
        }
        for i in &self.interfaces {
            a.section(i.at, 16, format_args!("interface variable {}", self.text(i.name)));
            a.field(i.at, 4, format_args!("name: 0x{:x}", i.name));
            a.field(i.at + 4, 4, format_args!("type: 0x{:x}", i.ty));
            a.field(i.at + 8, 4, format_args!("default value: 0x{:x}", i.default));
            a.field(i.at + 12, 4, format_args!("flags: 0x{:x}", i.flags));
            self.claim_string(i.name, a);
            types.push(i.ty);
            if let Ok(t) = self.type_at(i.ty, 0) {
                let n = t.elements.max(1);
                if i.default != 0
                    && self.uwords(i.default, n.saturating_mul(2), "interface initializer", 0).is_ok()
                {
                    for k in 0..u64::from(n) {
                        let at = self.abs(i.default) + 8 * k;
                        a.field(at, 4, "interface initializer instance name");
                        a.field(at + 4, 4, "interface initializer array index");
                        if let Ok(w) = self.uword(i.default.saturating_add(8 * k as u32), "", 0) {
                            self.claim_string(w, a);
                        }
                    }
                }
            }
            self.annotate_annotations(Some(&i.annotations), i.at + 16, &mut types, a);
        }
        for g in &self.groups {
            if let Some(at) = g.at {
                a.section(at, 8, format_args!("group {}", self.text(g.name)));
                a.field(at, 4, format_args!("name: 0x{:x}", g.name));
                a.field(at + 4, 4, format_args!("techniques: {}", g.techniques.len()));
                self.claim_string(g.name, a);
                self.annotate_annotations(Some(&g.annotations), at + 8, &mut types, a);
            }
            for t in &g.techniques {
                a.section(t.at, 8, format_args!("technique {}", self.text(t.name)));
                a.field(t.at, 4, format_args!("name: 0x{:x}", t.name));
                a.field(t.at + 4, 4, format_args!("passes: {}", t.passes.len()));
                self.claim_string(t.name, a);
                self.annotate_annotations(Some(&t.annotations), t.at + 8, &mut types, a);
                for p in &t.passes {
                    a.section(p.at, 8, format_args!("pass {}", self.text(p.name)));
                    a.field(p.at, 4, format_args!("name: 0x{:x}", p.name));
                    a.field(p.at + 4, 4, format_args!("assignments: {}", p.assignments.len()));
                    self.claim_string(p.name, a);
                    self.annotate_annotations(Some(&p.annotations), p.at + 8, &mut types, a);
                    for x in &p.assignments {
                        self.annotate_assignment(x, a);
                    }
                }
            }
        }
        for (i, s) in self.shaders.iter().enumerate() {
            a.section(s.at, 4 + s.bytes.len() as u64, format_args!("shader{i} block"));
            a.field(s.at, 4, format_args!("shader{i} size: {}", s.bytes.len()));
            match Dxbc::parse(s.bytes) {
                Ok(d) => {
                    let mut inner = Annotations::new();
                    d.annotate(&mut inner);
                    let base = s.data_offset();
                    a.absorb(&inner, s.bytes, |o| o + base);
                }
                Err(e) => {
                    a.field(
                        s.data_offset(),
                        s.bytes.len() as u64,
                        format_args!("shader{i}: not a DXBC shader"),
                    );
                    a.error(e.offset() + s.data_offset(), e.rebase(s.data_offset()));
                }
            }
        }
        self.claim_types(&types, a);
        self.annotate_gaps(a);
        if !self.trailing.is_empty() {
            let at = self.base + (self.blob().len() - self.trailing.len()) as u64;
            a.field(at, self.trailing.len() as u64, "bytes after the structured block");
        }
    }

    /// The bytes of the unstructured block no record points to: alignment padding (up to
    /// three zero bytes before a word), or data no record reaches.
    fn annotate_gaps(&self, a: &mut Annotations) {
        let start = self.unstructured_at();
        let end = start + self.unstructured.len() as u64;
        // The shader blocks are claimed whole: the DXBC annotator says what their bytes are.
        let mut claimed: Vec<std::ops::Range<u64>> = a
            .fields()
            .map(|(r, _)| r)
            .chain(self.shaders.iter().map(|s| s.at..s.data_offset() + s.bytes.len() as u64))
            .filter(|r| r.end > start && r.start < end && !r.is_empty())
            .collect();
        claimed.sort_unstable_by_key(|r| r.start);
        let mut gaps = Vec::new();
        let mut at = start;
        for r in claimed {
            if r.start > at {
                gaps.push(at..r.start);
            }
            at = at.max(r.end);
        }
        if at < end {
            gaps.push(at..end);
        }
        for g in gaps {
            let bytes =
                self.unstructured.get((g.start - start) as usize..(g.end - start) as usize).unwrap_or(&[]);
            let what = if bytes.len() < 4 && bytes.iter().all(|&b| b == 0) {
                "padding (alignment)"
            } else {
                "unstructured data no record points to"
            };
            a.field(g.start, g.end - g.start, what);
        }
    }

    fn check(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        // Every assignment with the block it sits in.
        let mut all: Vec<(&Assignment, states::Block)> =
            self.passes().flat_map(|p| &p.assignments).map(|a| (a, states::Block::Pass)).collect();
        for o in &self.objects {
            let block = match o.object_type {
                super::object_type::BLEND => states::Block::Blend,
                super::object_type::DEPTH_STENCIL => states::Block::DepthStencil,
                super::object_type::RASTERIZER => states::Block::Rasterizer,
                _ => states::Block::Sampler,
            };
            for (_, init) in &o.initializers {
                if let Initializer::StateBlock(list) = init {
                    all.extend(list.iter().map(|a| (a, block)));
                }
            }
        }
        for (x, block) in all {
            match states::state(x.state) {
                None => out.push(Finding::error(
                    x.at,
                    format!("assignment state {} is not a known state (0–58)", x.state),
                )),
                Some(s) if s.block != block => out.push(Finding::warning(
                    x.at,
                    format!(
                        "state {} ({}) belongs to a {:?} block, not a {block:?} block",
                        x.state, s.name, s.block
                    ),
                )),
                Some(_) => {}
            }
            if !(assign::CONSTANT..=assign::INLINE_SHADER_5).contains(&x.kind) {
                out.push(Finding::error(x.at + 8, format!("assignment type {} is none of 1–8", x.kind)));
            } else if let Err(e) = self.assignment_value(x) {
                out.push(Finding::error(e.offset(), e.reason()));
            }
        }
        for (i, s) in self.shaders.iter().enumerate() {
            if let Err(e) = Dxbc::parse(s.bytes) {
                let e = e.rebase(s.data_offset());
                out.push(Finding::error(
                    e.offset(),
                    format!("shader{i} is not a DXBC shader: {}", e.reason()),
                ));
            }
        }
        // Every name a record holds reads as a string; every variable's type as a type.
        let mut names: Vec<(u32, u64)> = Vec::new();
        for c in &self.cbuffers {
            names.push((c.name, c.at));
            for v in &c.variables {
                names.push((v.name, v.at));
                names.push((v.semantic, v.at + 8));
                if let Err(e) = self.type_at(v.ty, v.at + 4) {
                    out.push(Finding::error(e.offset(), e.reason()));
                }
            }
        }
        names.extend(self.objects.iter().map(|o| (o.name, o.at)));
        names.extend(self.interfaces.iter().map(|i| (i.name, i.at)));
        for g in &self.groups {
            names.extend(g.at.map(|at| (g.name, at)));
            for t in &g.techniques {
                names.push((t.name, t.at));
                names.extend(t.passes.iter().map(|p| (p.name, p.at)));
            }
        }
        for (o, at) in names {
            if let Err(e) = self.string(o, "name", at) {
                out.push(Finding::error(e.offset(), e.reason()));
            }
        }
        if self.unstructured.get(..4).is_some_and(|b| b != [0; 4]) {
            out.push(Finding::warning(
                self.unstructured_at(),
                "the unstructured block does not start with a zero word (offset 0 is not the empty string)",
            ));
        }
        out
    }
}

impl Container for Fx11<'_> {
    fn format(&self) -> Format {
        Format::Fx11
    }

    fn write_info_text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        let i = self.info();
        writeln!(s, "format: {}", Format::Fx11.description())?;
        writeln!(s, "profile: {}", i.profile)?;
        writeln!(s, "size: {} bytes", i.size)?;
        if let Some(c) = &i.container {
            let ok = if c.checksum_ok { "matches" } else { "does not match" };
            writeln!(s, "container: DXBC, FX10 chunk at 0x{:x}, checksum {ok}", c.chunk_offset)?;
        }
        let counts: Vec<String> =
            i.header.iter().filter(|h| h.value != 0).map(|h| format!("{} {}", h.name, h.value)).collect();
        writeln!(s, "header: {}", counts.join(", "))?;
        if !i.buffers.is_empty() {
            s.write_str("constant buffers:\n")?;
        }
        for b in &i.buffers {
            let pool = if b.pool { ", shared" } else { "" };
            writeln!(s, "  {} {} at 0x{:x}: {} bytes{pool}", b.kind, b.name, b.offset, b.size)?;
            for v in &b.variables {
                let d = if v.has_default { ", default value" } else { "" };
                writeln!(
                    s,
                    "    {} {} at 0x{:x}: offset {}, {} bytes{d}",
                    v.ty, v.name, v.offset, v.buffer_offset, v.size
                )?;
            }
        }
        for (title, list) in [("objects", &i.objects), ("interfaces", &i.interfaces)] {
            if !list.is_empty() {
                writeln!(s, "{title}:")?;
            }
            for o in list {
                let n = if o.elements > 0 { format!("[{}]", o.elements) } else { String::new() };
                let pool = if o.pool { ", shared" } else { "" };
                let shaders =
                    if o.shaders.is_empty() { String::new() } else { format!(" = {}", o.shaders.join(", ")) };
                writeln!(s, "  {} {}{n} at 0x{:x}{pool}{shaders}", o.ty, o.name, o.offset)?;
            }
        }
        for g in &i.groups {
            let mut indent = 0;
            if let Some(at) = g.offset {
                let name = if g.name.is_empty() { "(unnamed)" } else { &g.name };
                writeln!(s, "group {name} at 0x{at:x}")?;
                indent = 2;
            }
            for t in &g.techniques {
                writeln!(s, "{}technique {} at 0x{:x}", " ".repeat(indent), t.name, t.offset)?;
                for p in &t.passes {
                    writeln!(s, "{}pass {} at 0x{:x}", " ".repeat(indent + 2), p.name, p.offset)?;
                    for x in &p.assignments {
                        writeln!(s, "{}{} = {}", " ".repeat(indent + 4), x.state, x.value)?;
                    }
                }
            }
        }
        if !i.shaders.is_empty() {
            s.write_str("shaders:\n")?;
        }
        for sh in &i.shaders {
            let m = sh.model.as_deref().unwrap_or("not a DXBC shader");
            writeln!(s, "  {}: {m}, {} bytes at 0x{:x}", sh.name, sh.size, sh.offset)?;
        }
        Ok(())
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        crate::json::write_info(out, &self.info())
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        self.write_listing(opts, out)
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
        // A listing that stops at a damaged record keeps what it listed.
        if let Err(e) = self.disasm(opts, out.listing()) {
            if !self.damage().contains(&e) {
                return Err(e);
            }
        }
        for (i, s) in self.shaders.iter().enumerate() {
            if let Ok(d) = Dxbc::parse(s.bytes) {
                let mut nested = NestedSink::new(out, s.data_offset(), format!("shader{i}"));
                // A shader whose listing fails is listed as far as it goes above.
                let _ = d.write_disasm_json(opts, &mut nested);
            }
        }
        Ok(())
    }

    fn annotate(&self, a: &mut Annotations) {
        self.annotate_model(a);
    }

    fn validate(&self) -> Vec<Finding> {
        self.check()
    }

    /// Where the listing stops: a record whose type or value does not read (a type offset
    /// outside the unstructured block), so that every command calls the file invalid.
    fn damage(&self) -> Vec<crate::Error> {
        let mut discard = crate::print::Discard;
        match self.write_listing(&DisasmOptions::default(), &mut discard) {
            Ok(()) => Vec::new(),
            Err(e) => vec![e],
        }
    }

    fn write(&self) -> Result<Vec<u8>> {
        self.write_file()
    }

    fn parts(&self) -> Vec<Part<'_>> {
        let mut v = self.embedded();
        if self.container.is_some() {
            v.push(Part::new("effect", self.base, self.blob(), "the effect blob (the FX10 chunk's data)"));
        }
        v
    }

    fn embedded(&self) -> Vec<Part<'_>> {
        self.shaders
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let m = model(s.bytes).unwrap_or_else(|| "not a DXBC shader".to_string());
                Part::new(
                    format!("shader{i}"),
                    s.data_offset(),
                    s.bytes,
                    format!("embedded shader ({m}), DXBC"),
                )
            })
            .collect()
    }
}

/// Annotate what can be read of an effect that does not parse: the outer container and the
/// header, where they read.
pub fn annotate_damaged(data: &[u8], a: &mut Annotations) {
    let (blob, base) = if data.get(..4) == Some(b"DXBC") {
        match Dxbc::parse(data) {
            Ok(d) => match d.chunks().first() {
                Some(c) => {
                    a.section(0, c.data_offset() as u64, "DXBC header, index and FX10 chunk header");
                    a.field(0, c.data_offset() as u64, "DXBC container of the effect");
                    (c.data, c.data_offset() as u64)
                }
                None => return,
            },
            Err(_) => return,
        }
    } else {
        (data, 0)
    };
    let words = match blob.get(..4).map(super::word) {
        Some(super::TAG_FX_5_0) => 24,
        Some(_) => 19,
        None => return,
    };
    let n = (blob.len() / 4).min(words);
    a.section(base, 4 * n as u64, "effect header");
    for (i, name) in HEADER_FIELDS.iter().take(n).enumerate() {
        a.field(base + 4 * i as u64, 4, *name);
    }
}
