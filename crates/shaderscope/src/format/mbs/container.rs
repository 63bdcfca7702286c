//! [`Container`] for MBS: `info` (the chunk tree, the shader's fields, the symbol tables with
//! structs nested), the listing (the tables, then the code), `dump` annotations, `validate`
//! (the layout rules of the symbol tables, the counts), `extract`.

use super::code;
use super::{Body, Core, Mbs, Node, ShaderView, Symbol, SymbolType, Table, precision_name};
use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::json::{DisasmSink, Program};
use crate::model::{Finding, Part, Stage};
use crate::print::{Printer, Style, count};
use crate::toolkit::{Chunk, Endian, FourCC, Reader};
use serde::Serialize;
use std::fmt::Write as _;

fn printer_failed(_: std::fmt::Error) -> Error {
    Error::invalid(0, "listing", "the printer failed")
}

/// One chunk of the tree, for `info`.
#[derive(Debug, Serialize)]
struct ChunkInfo {
    tag: String,
    path: String,
    offset: u64,
    size: u32,
    known: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    children: Vec<ChunkInfo>,
}

#[derive(Debug, Serialize)]
struct VidxInfo {
    itdr: Option<u32>,
    iyuv: Option<u32>,
    igrd: Option<u32>,
}

#[derive(Debug, Serialize)]
struct SymbolInfo {
    index: usize,
    tag: String,
    offset: u64,
    name: String,
    name_offset: u64,
    record_offset: u64,
    glsl_type: String,
    unknown_0: u8,
    #[serde(rename = "type")]
    ty: u8,
    type_name: String,
    component_count: u16,
    component_size: u16,
    entry_count: u16,
    src_stride: u16,
    dst_stride: u8,
    precision: u8,
    precision_name: Option<&'static str>,
    invariant: u32,
    slot_offset: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vidx: Option<VidxInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    initial_values: Option<Vec<f32>>,
}

#[derive(Debug, Serialize)]
struct TableInfo {
    tag: String,
    offset: u64,
    count: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_slots: Option<u32>,
    symbols: Vec<SymbolInfo>,
}

#[derive(Debug, Serialize)]
struct CodeInfo {
    offset: u64,
    size: usize,
    isa: &'static str,
}

#[derive(Debug, Serialize)]
struct ShaderInfo {
    tag: String,
    offset: u64,
    version: u32,
    core: Option<&'static str>,
    stage: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stack_size: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stack_offset: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    discard: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    framebuffer_use: Option<[u8; 8]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fins_unknown_0: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    instructions: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attrib_prefetch: Option<u32>,
    tables: Vec<TableInfo>,
    code: Option<CodeInfo>,
}

/// Everything `info` says about an MBS file (text and JSON alike).
#[derive(Debug, Serialize)]
struct Info {
    summary: String,
    size: usize,
    shader: Option<ShaderInfo>,
    chunks: Vec<ChunkInfo>,
    trailing_bytes: usize,
}

/// The GLSL spelling of a symbol's type: `vec3`, `mat4`, `sampler2D`, `float[2]`, …
pub fn glsl_type(s: &Symbol<'_>) -> String {
    let n = s.component_count;
    let base = match (s.ty, n) {
        (SymbolType::FLOAT, 1) => "float".to_string(),
        (SymbolType::FLOAT, 2..=4) => format!("vec{n}"),
        (SymbolType::INT, 1) => "int".to_string(),
        (SymbolType::INT, 2..=4) => format!("ivec{n}"),
        (SymbolType::BOOL, 1) => "bool".to_string(),
        (SymbolType::BOOL, 2..=4) => format!("bvec{n}"),
        (SymbolType::MATRIX, 2..=4) => format!("mat{n}"),
        (t, _) => match t.name() {
            Some(name) => name.to_string(),
            None => format!("type{}", t.0),
        },
    };
    if s.entry_count > 0 { format!("{base}[{}]", s.entry_count) } else { base }
}

/// One line about a symbol: `highp vec4 color: 4 x 4, stride 4/16, offset 0, …`.
fn symbol_text(s: &Symbol<'_>) -> String {
    let mut t = String::new();
    if let Some(p) = precision_name(s.precision) {
        let _ = write!(t, "{p} ");
    }
    let _ = write!(
        t,
        "{} {} (type {}, {} of size {}, {}, src stride {}, dst stride {}, precision {}, invariant {}, offset {}",
        glsl_type(s),
        s.name,
        s.ty,
        count(s.component_count, "component"),
        s.component_size,
        count(s.entry_count, "entry"),
        s.src_stride,
        s.dst_stride,
        s.precision,
        s.invariant,
        s.offset
    );
    if let Some(p) = s.parent {
        if p == 0xffff {
            t.push_str(", no parent");
        } else {
            let _ = write!(t, ", parent {p}");
        }
    }
    let _ = write!(t, ", unknown_0 {})", s.unknown_0);
    if let Some(v) = s.vidx() {
        let w = |x: Option<u32>| x.map_or("-".to_string(), |x| format!("0x{x:x}"));
        let _ = write!(t, " VIDX ITDR {} IYUV {} IGRD {}", w(v[0]), w(v[1]), w(v[2]));
    }
    if let Some(v) = s.initial_values() {
        let vals: Vec<String> =
            v.iter().map(|b| crate::print::float::f32_shortest_text(*b).as_str().to_string()).collect();
        let _ = write!(t, " VINI {{{}}}", vals.join(", "));
    }
    for c in &s.children {
        if matches!(c.body, Body::Bytes(_)) {
            let _ = write!(t, " {} ({} bytes, unknown)", c.tag, c.size);
        }
    }
    t
}

/// Deepest symbol nesting the listing indents (Mali symbols nest a struct or two deep).
const MAX_INDENT: usize = 16;

/// The symbols of a table in tree order: (depth, index, symbol); members under their struct,
/// then whatever a broken parent link left out, at depth 0.
fn tree<'t, 'a>(t: &'t Table<'a>) -> Vec<(usize, usize, &'t Symbol<'a>)> {
    let syms: Vec<&Symbol<'a>> = t.symbols().collect();
    let n = syms.len();
    let parent =
        |i: usize| syms.get(i).and_then(|s| s.parent_index()).map(usize::from).filter(|p| *p < n && *p != i);
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for i in 0..n {
        match parent(i) {
            Some(p) => {
                if let Some(k) = kids.get_mut(p) {
                    k.push(i);
                }
            }
            None => roots.push(i),
        }
    }
    let mut seen = vec![false; n];
    let mut out = Vec::with_capacity(n);
    let mut walk = |start: usize, out: &mut Vec<(usize, usize, &'t Symbol<'a>)>| {
        let mut stack = vec![(0usize, start)];
        while let Some((depth, i)) = stack.pop() {
            if seen.get(i).copied().unwrap_or(true) {
                continue;
            }
            if let Some(s) = seen.get_mut(i) {
                *s = true;
            }
            if let Some(s) = syms.get(i) {
                out.push((depth, i, *s));
            }
            if let Some(k) = kids.get(i) {
                stack.extend(k.iter().rev().map(|c| (depth + 1, *c)));
            }
        }
    };
    for r in roots {
        walk(r, &mut out);
    }
    for i in 0..n {
        walk(i, &mut out);
    }
    out
}

/// What a table tag holds: `uniforms`, `varyings`, `attributes`.
/// What a table's symbols are, singular (`uniform`); [`table_title`] is the plural.
fn table_noun(tag: &[u8; 4]) -> &'static str {
    match tag {
        b"SUNI" => "uniform",
        b"SVAR" => "varying",
        b"SATT" => "attribute",
        _ => "symbol",
    }
}

/// `uniforms`, `varyings`, `attributes`, `symbols`.
fn table_title(tag: &[u8; 4]) -> String {
    format!("{}s", table_noun(tag))
}

fn chunk_info(n: &Node<'_>, parent: &str) -> ChunkInfo {
    let path = if parent.is_empty() { n.tag.to_string() } else { format!("{parent}/{}", n.tag) };
    let mut children = Vec::new();
    if let Body::Symbol(s) = &n.body {
        children.push(ChunkInfo {
            tag: "STRI".into(),
            path: format!("{path}/STRI"),
            offset: s.name.at,
            size: s.name.payload_len() as u32,
            known: true,
            children: Vec::new(),
        });
    }
    children.extend(n.children().iter().map(|c| chunk_info(c, &path)));
    ChunkInfo {
        tag: n.tag.to_string(),
        path,
        offset: n.at,
        size: n.size,
        known: !matches!(n.body, Body::Bytes(_)),
        children,
    }
}

fn table_info(n: &Node<'_>, t: &Table<'_>) -> TableInfo {
    TableInfo {
        tag: n.tag.to_string(),
        offset: n.at,
        count: t.count,
        total_slots: t.total_slots,
        symbols: t
            .symbol_nodes()
            .enumerate()
            .map(|(i, (node, s))| SymbolInfo {
                index: i,
                tag: node.tag.to_string(),
                offset: node.at,
                name: s.name.to_string(),
                name_offset: s.name.at,
                record_offset: s.record_at,
                glsl_type: glsl_type(s),
                unknown_0: s.unknown_0,
                ty: s.ty.0,
                type_name: s.ty.to_string(),
                component_count: s.component_count,
                component_size: s.component_size,
                entry_count: s.entry_count,
                src_stride: s.src_stride,
                dst_stride: s.dst_stride,
                precision: s.precision,
                precision_name: precision_name(s.precision),
                invariant: s.invariant,
                slot_offset: s.offset,
                parent: s.parent,
                vidx: s.vidx().map(|[itdr, iyuv, igrd]| VidxInfo { itdr, iyuv, igrd }),
                initial_values: s.initial_values().map(|v| v.iter().map(|b| f32::from_bits(*b)).collect()),
            })
            .collect(),
    }
}

impl<'a> Mbs<'a> {
    /// One line: `vertex shader, MALI_400_GP (CVER version 6): 39 instructions, 8 uniforms, …`.
    pub fn summary(&self) -> String {
        let Some(v) = self.shader() else { return "no shader chunk".to_string() };
        let core = v.core_name().map_or_else(|| "unknown core".to_string(), str::to_string);
        let mut s =
            format!("{} shader, {core} ({} version {})", v.core().stage_name(), v.node.tag, v.shader.version);
        let mut parts = Vec::new();
        if let Some((c, _)) = v.code() {
            match v.core() {
                Core::Gp => parts.push(count(c.len() / code::GP_INSTRUCTION, "instruction").to_string()),
                Core::Pp => parts.push(format!("{} of code", count(c.len(), "byte"))),
            }
        }
        for tag in [*b"SUNI", *b"SATT", *b"SVAR"] {
            if let Some(t) = v.table(tag) {
                parts.push(count(t.symbols().count(), table_noun(&tag)).to_string());
            }
        }
        if !parts.is_empty() {
            let _ = write!(s, ": {}", parts.join(", "));
        }
        s
    }

    fn info(&self) -> Info {
        Info {
            summary: self.summary(),
            size: self.data.len(),
            shader: self.shader().map(|v| shader_info(&v)),
            chunks: vec![chunk_info(&self.root, "")],
            trailing_bytes: self.trailing.len(),
        }
    }

    /// The tables of the shader as comment lines of the listing.
    fn list_tables(&self, v: &ShaderView<'_, 'a>, out: &mut dyn Printer) -> Result<()> {
        let mut line = |at: Option<u64>, text: &str| -> Result<()> {
            out.start_line(at);
            out.styled(Style::Comment, text).map_err(printer_failed)?;
            out.write_char('\n').map_err(printer_failed)
        };
        let core = v.core_name().unwrap_or("unknown core");
        line(
            Some(v.node.at),
            &format!(
                "; {} shader, {} version {} ({core})",
                v.core().stage_name(),
                v.node.tag,
                v.shader.version
            ),
        )?;
        for n in &v.shader.children {
            let Body::Table(t) = &n.body else { continue };
            let slots = t.total_slots.map(|s| format!(", {}", count(s, "slot"))).unwrap_or_default();
            line(
                Some(n.at),
                &format!("; {} ({}): {}{slots}", table_title(&n.tag.0), n.tag, count(t.count, "symbol")),
            )?;
            let nodes: Vec<u64> = t.symbol_nodes().map(|(n, _)| n.at).collect();
            for (depth, i, s) in tree(t) {
                // Indented to MAX_INDENT levels: a chain of parent links could otherwise
                // make the listing quadratic in the symbol count; deeper ones say their depth.
                let indent = "  ".repeat(depth.min(MAX_INDENT) + 1);
                let deep = if depth > MAX_INDENT { format!("(depth {depth}) ") } else { String::new() };
                line(nodes.get(i).copied(), &format!(";{indent}{deep}[{i}] {}", symbol_text(s)))?;
            }
        }
        Ok(())
    }

    fn annotate_node(&self, n: &Node<'_>, parent: &str, a: &mut Annotations) {
        let path = if parent.is_empty() { n.tag.to_string() } else { format!("{parent}/{}", n.tag) };
        let at = n.at;
        let d = n.data_offset();
        let size = u64::from(n.size);
        let title = match &n.body {
            Body::Shader(s) => format!(
                "{path}: {} shader, version {} ({})",
                if n.tag.0 == *b"CVER" { "vertex" } else { "fragment" },
                s.version,
                super::core_name(n.tag, s.version).unwrap_or("unknown core")
            ),
            Body::Table(t) => {
                format!("{path}: {} table, {}", table_title(&n.tag.0), count(t.count, "symbol"))
            }
            Body::Symbol(s) => format!("{path}: {}", s.name),
            Body::Bytes(_) => format!("{path}: unknown chunk, kept as bytes"),
            _ => path.clone(),
        };
        a.section(at, 8 + size, title);
        a.field(at, 4, format_args!("tag \"{}\"", n.tag));
        a.field(at + 4, 4, format_args!("size: {} bytes", n.size));
        match &n.body {
            Body::Chunks(_) => {}
            Body::Shader(s) => a.field(
                d,
                4,
                format_args!(
                    "version: {} ({})",
                    s.version,
                    super::core_name(n.tag, s.version).unwrap_or("unknown core")
                ),
            ),
            Body::Fsta { stack_size, stack_offset } => {
                a.field(d, 4, format_args!("stack size: {stack_size}"));
                a.field(d + 4, 4, format_args!("stack offset: {stack_offset}"));
            }
            Body::Fdis { discard } => a.field(d, 4, format_args!("discard: {discard}")),
            Body::Fbuu(b) => {
                let names = [
                    "reads_color",
                    "writes_color",
                    "reads_depth",
                    "writes_depth",
                    "reads_stencil",
                    "writes_stencil",
                    "unknown_0",
                    "unknown_1",
                ];
                for (k, (name, v)) in names.iter().zip(b).enumerate() {
                    a.field(d + k as u64, 1, format_args!("{name}: {v}"));
                }
            }
            Body::Fins { unknown_0, instructions, attrib_prefetch } => {
                a.field(d, 4, format_args!("unknown_0: {unknown_0}"));
                a.field(d + 4, 4, format_args!("instructions: {instructions}"));
                a.field(d + 8, 4, format_args!("attrib_prefetch: {attrib_prefetch}"));
            }
            Body::Table(t) => {
                a.field(d, 4, format_args!("count: {}", t.count));
                if let Some(s) = t.total_slots {
                    a.field(d + 4, 4, format_args!("total uniform slots: {s}"));
                }
            }
            Body::Symbol(s) => annotate_symbol(s, n.tag.0 == *b"VATT", &path, a),
            Body::Word(w) => a.field(d, 4, format_args!("{}: 0x{w:08x}", n.tag)),
            Body::Vini(v) => {
                a.field(d, 4, format_args!("initial value count: {}", v.len()));
                for (k, b) in v.iter().enumerate() {
                    let f = crate::print::float::f32_shortest_text(*b).as_str().to_string();
                    a.field(d + 4 + 4 * k as u64, 4, format_args!("initial value {k}: {f}"));
                }
            }
            Body::Code(c) => {
                if let Some(v) = self.shader() {
                    code::annotate(v.core(), c, d, a);
                }
                a.fallback(d, size, "code");
            }
            Body::Bytes(_) => {
                a.fallback(d, size, format_args!("{} payload ({} bytes, not read)", n.tag, n.size))
            }
        }
        for c in n.children() {
            self.annotate_node(c, &path, a);
        }
    }

    /// The findings of the chunk tree, the shader and its tables.
    fn check(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        if !self.trailing.is_empty() {
            let at = self.root.at + 8 + u64::from(self.root.size);
            out.push(Finding::warning(at, format!("{} bytes after the MBS1 chunk", self.trailing.len())));
        }
        check_sizes(&self.root, "", &mut out);
        let shaders = self.root.children().iter().filter(|n| matches!(n.body, Body::Shader(_))).count();
        if shaders > 1 {
            out.push(Finding::warning(
                self.root.at,
                format!("MBS1 holds {shaders} shader chunks; the first is read"),
            ));
        }
        let Some(v) = self.shader() else {
            out.push(Finding::error(self.root.at, "MBS1 holds no CFRA or CVER chunk"));
            return out;
        };
        let path = format!("MBS1/{}", v.node.tag);
        if v.core_name().is_none() {
            out.push(Finding::warning(
                v.node.data_offset(),
                format!("{path} version {} is none the format names", v.shader.version),
            ));
        }
        let code = v.code();
        match code {
            None => out.push(Finding::error(v.node.at, format!("{path} has no DBIN chunk"))),
            Some((c, _)) if v.core() == Core::Gp => {
                // A size that is not a whole number of instructions is the ISA's problem
                // (a cut instruction at its offset), which `validate` adds from `code::check`.
                match v.child(*b"FINS") {
                    Some(n @ Node { body: Body::Fins { instructions, .. }, .. }) => {
                        let have = c.len() / code::GP_INSTRUCTION;
                        if *instructions as usize != have {
                            out.push(Finding::error(
                                n.data_offset() + 4,
                                format!(
                                    "{path}/FINS gives {instructions} instructions but DBIN holds {have}"
                                ),
                            ));
                        }
                    }
                    _ => out.push(Finding::warning(v.node.at, format!("{path} has no FINS chunk"))),
                }
            }
            Some(_) => {}
        }
        for n in &v.shader.children {
            if let Body::Table(t) = &n.body {
                check_table(v.core(), n, t, &format!("{path}/{}", n.tag), &mut out);
            }
        }
        out
    }
}

fn shader_info(v: &ShaderView<'_, '_>) -> ShaderInfo {
    let mut info = ShaderInfo {
        tag: v.node.tag.to_string(),
        offset: v.node.at,
        version: v.shader.version,
        core: v.core_name(),
        stage: v.core().stage_name(),
        stack_size: None,
        stack_offset: None,
        discard: None,
        framebuffer_use: None,
        fins_unknown_0: None,
        instructions: None,
        attrib_prefetch: None,
        tables: Vec::new(),
        code: v.code().map(|(c, at)| CodeInfo { offset: at, size: c.len(), isa: v.core().isa() }),
    };
    for n in &v.shader.children {
        match &n.body {
            Body::Fsta { stack_size, stack_offset } => {
                info.stack_size = Some(*stack_size);
                info.stack_offset = Some(*stack_offset);
            }
            Body::Fdis { discard } => info.discard = Some(*discard),
            Body::Fbuu(b) => info.framebuffer_use = Some(*b),
            Body::Fins { unknown_0, instructions, attrib_prefetch } => {
                info.fins_unknown_0 = Some(*unknown_0);
                info.instructions = Some(*instructions);
                info.attrib_prefetch = Some(*attrib_prefetch);
            }
            Body::Table(t) => info.tables.push(table_info(n, t)),
            _ => {}
        }
    }
    info
}

fn annotate_symbol(s: &Symbol<'_>, attribute: bool, path: &str, a: &mut Annotations) {
    let at = s.name.at;
    let len = s.name.payload_len() as u64;
    a.section(at, 8 + len, format_args!("{path}/STRI: the name"));
    a.field(at, 4, "tag \"STRI\"");
    a.field(at + 4, 4, format_args!("size: {len} bytes"));
    a.field(
        at + 8,
        len,
        format_args!(
            "name \"{}\", NUL and {} of padding",
            crate::error::escape_bytes(&s.name.text),
            count(s.name.pad.len(), "byte")
        ),
    );
    let r = s.record_at;
    a.field(r, 1, format_args!("unknown_0: {}", s.unknown_0));
    a.field(r + 1, 1, format_args!("type: {} ({})", s.ty.0, s.ty));
    a.field(r + 2, 2, format_args!("component count: {}", s.component_count));
    a.field(r + 4, 2, format_args!("component size: {}", s.component_size));
    a.field(r + 6, 2, format_args!("entry count: {}", s.entry_count));
    a.field(r + 8, 2, format_args!("src stride: {}", s.src_stride));
    a.field(r + 10, 1, format_args!("dst stride: {}", s.dst_stride));
    a.field(
        r + 11,
        1,
        format_args!("precision: {} ({})", s.precision, precision_name(s.precision).unwrap_or("unknown")),
    );
    if attribute {
        a.field(r + 12, 2, format_args!("invariant: {}", s.invariant));
        a.field(r + 14, 2, format_args!("offset: {}", s.offset));
    } else {
        a.field(r + 12, 4, format_args!("invariant: {}", s.invariant));
        a.field(r + 16, 2, format_args!("offset: {}", s.offset));
        let p = s.parent.unwrap_or(0xffff);
        let text = if p == 0xffff { "none".to_string() } else { p.to_string() };
        a.field(r + 18, 2, format_args!("parent index: {text}"));
    }
}

/// Known chunks whose size is not their structure's were kept as bytes: say so.
fn check_sizes(n: &Node<'_>, parent: &str, out: &mut Vec<Finding>) {
    let path = if parent.is_empty() { n.tag.to_string() } else { format!("{parent}/{}", n.tag) };
    let want: Option<u32> = match &n.tag.0 {
        b"FSTA" | b"FBUU" => Some(8),
        b"FDIS" | b"ITDR" | b"IYUV" | b"IGRD" => Some(4),
        b"FINS" => Some(12),
        _ => None,
    };
    if matches!(n.body, Body::Bytes(_)) {
        match want {
            Some(w) => out.push(Finding::warning(
                n.at + 4,
                format!("{path} holds {} bytes, not the {w} of its structure; kept as bytes", n.size),
            )),
            None if n.tag.0 == *b"VINI" => out.push(Finding::error(
                n.at + 8,
                format!("{path}: its count does not match its {} bytes; kept as bytes", n.size),
            )),
            None if matches!(&n.tag.0, b"CFRA" | b"CVER") => out.push(Finding::error(
                n.at + 4,
                format!("{path} holds {} bytes, too few for its version word; kept as bytes", n.size),
            )),
            None => {}
        }
    }
    for c in n.children() {
        check_sizes(c, &path, out);
    }
}

/// The alignment (in slots) the seed gives a symbol of a table: varyings and PP uniforms by
/// their vector size (1, 2, 4), attributes a whole vec4; `None` where it gives no rule (GP
/// uniforms, structs, unknown types).
fn alignment(core: Core, table: &[u8; 4], s: &Symbol<'_>) -> Option<u16> {
    let by_size = |n: u16| match n {
        0 | 1 => 1,
        2 => 2,
        _ => 4,
    };
    if s.ty == SymbolType::STRUCT || s.ty.name().is_none() {
        return None;
    }
    match (table, core) {
        (b"SATT", _) => Some(4),
        (b"SVAR", _) | (b"SUNI", Core::Pp) if s.ty.is_sampler() => Some(1),
        (b"SVAR", _) | (b"SUNI", Core::Pp) => Some(by_size(s.component_count)),
        _ => None,
    }
}

fn check_table(core: Core, n: &Node<'_>, t: &Table<'_>, path: &str, out: &mut Vec<Finding>) {
    let want: &[u8; 4] = match &n.tag.0 {
        b"SUNI" => b"VUNI",
        b"SVAR" => b"VVAR",
        _ => b"VATT",
    };
    let syms: Vec<(&Node<'_>, &Symbol<'_>)> = t.symbol_nodes().collect();
    for (i, (node, s)) in syms.iter().enumerate() {
        let what = format!("{path} symbol {i} ({})", s.name);
        if node.tag.0 != *want {
            out.push(Finding::warning(
                node.at,
                format!("{what} is a {} chunk in a {} table", node.tag, n.tag),
            ));
        }
        let r = s.record_at;
        if s.ty.name().is_none() {
            out.push(Finding::warning(r + 1, format!("{what} has unknown type {}", s.ty.0)));
        }
        if precision_name(s.precision).is_none() {
            out.push(Finding::warning(r + 11, format!("{what} has unknown precision {}", s.precision)));
        }
        if let Some(p) = s.parent_index() {
            match syms.get(usize::from(p)) {
                None => out.push(Finding::error(
                    r + 18,
                    format!(
                        "{what}: parent index {p} is outside the table's {}",
                        count(syms.len(), "symbol")
                    ),
                )),
                // A symbol that is its own parent is damage (`Mbs::parse`).
                Some(_) if usize::from(p) == i => {}
                Some((_, ps)) if ps.ty != SymbolType::STRUCT => out.push(Finding::error(
                    r + 18,
                    format!("{what}: its parent {p} ({}) is no struct", ps.name),
                )),
                _ => {}
            }
        }
        if s.offset == 0xffff {
            // Not allocated (an unused varying such as gl_PointSize).
            continue;
        }
        let offset_at = if node.tag.0 == *b"VATT" { r + 14 } else { r + 16 };
        if let Some(a) = alignment(core, &n.tag.0, s) {
            if s.offset % a != 0 {
                out.push(Finding::error(
                    offset_at,
                    format!("{what}: offset {} is not a multiple of its alignment {a}", s.offset),
                ));
            }
            if s.entry_count > 0 && s.src_stride % a != 0 {
                out.push(Finding::error(
                    r + 8,
                    format!("{what}: src stride {} is not a multiple of its alignment {a}", s.src_stride),
                ));
            }
        }
        let vector = matches!(s.ty, SymbolType::FLOAT | SymbolType::INT | SymbolType::BOOL);
        if n.tag.0 == *b"SUNI" && core == Core::Gp && vector && s.parent_index().is_none() {
            let lane = s.offset % 4;
            // Widened: a count read from the file may be 65 535 (u16 + u16 overflows).
            if s.entry_count == 0 && u32::from(lane) + u32::from(s.component_count) > 4 {
                out.push(Finding::error(
                    offset_at,
                    format!(
                        "{what}: {} components from offset {} cross a vec4 boundary",
                        s.component_count, s.offset
                    ),
                ));
            }
            if s.entry_count > 0 && s.src_stride % 4 != 0 {
                out.push(Finding::error(
                    r + 8,
                    format!(
                        "{what}: src stride {} of a GP uniform array is not a multiple of 4",
                        s.src_stride
                    ),
                ));
            }
        }
    }
    if let Some(total) = t.total_slots {
        // lima_compiler leaves its constants (`?__maligp2_constant_…`) out of the total,
        // libMali counts them: the declared uniforms must fit, and the total exceeds the
        // extent of them all only by the rounding to 4.
        let extent = |all: bool| {
            syms.iter()
                .filter(|(_, s)| s.parent_index().is_none() && s.offset != 0xffff)
                .filter(|(_, s)| all || !s.name.text.starts_with(b"?"))
                .map(|(_, s)| u32::from(s.offset) + s.extent())
                .max()
                .unwrap_or(0)
        };
        let (declared, all) = (extent(false), extent(true));
        if total < declared {
            out.push(Finding::error(
                n.data_offset() + 4,
                format!("{path}: total slots {total} is less than the uniforms' extent {declared}"),
            ));
        } else if total > all.next_multiple_of(4) {
            out.push(Finding::warning(
                n.data_offset() + 4,
                format!("{path}: total slots {total} exceed the uniforms' extent {all} rounded up to 4"),
            ));
        }
    }
}

impl Container for Mbs<'_> {
    fn format(&self) -> Format {
        Format::Mbs
    }

    fn write_info_text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        let i = self.info();
        writeln!(s, "format: {}", Format::Mbs.description())?;
        writeln!(s, "summary: {}", i.summary)?;
        writeln!(s, "size: {} bytes", i.size)?;
        s.write_str("chunks:\n")?;
        let mut stack: Vec<(usize, &ChunkInfo)> = i.chunks.iter().rev().map(|c| (1, c)).collect();
        while let Some((depth, c)) = stack.pop() {
            let unknown = if c.known { "" } else { ", unknown: kept as bytes" };
            writeln!(s, "{}{} at 0x{:x} ({} bytes{unknown})", "  ".repeat(depth), c.tag, c.offset, c.size)?;
            stack.extend(c.children.iter().rev().map(|k| (depth + 1, k)));
        }
        if let Some(v) = self.shader() {
            writeln!(
                s,
                "shader: {} version {} ({}), {}",
                v.node.tag,
                v.shader.version,
                v.core_name().unwrap_or("unknown core"),
                v.core().stage_name()
            )?;
            for n in &v.shader.children {
                match &n.body {
                    Body::Fsta { stack_size, stack_offset } => {
                        writeln!(s, "  FSTA: stack size {stack_size}, stack offset {stack_offset}")?;
                    }
                    Body::Fdis { discard } => {
                        writeln!(s, "  FDIS: discard {discard}")?;
                    }
                    Body::Fbuu(b) => {
                        writeln!(
                            s,
                            "  FBUU: reads_color {}, writes_color {}, reads_depth {}, writes_depth {}, reads_stencil {}, writes_stencil {}, unknown_0 {}, unknown_1 {}",
                            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]
                        )?;
                    }
                    Body::Fins { unknown_0, instructions, attrib_prefetch } => {
                        writeln!(
                            s,
                            "  FINS: unknown_0 {unknown_0}, instructions {instructions}, attrib_prefetch {attrib_prefetch}"
                        )?;
                    }
                    Body::Code(c) => {
                        writeln!(
                            s,
                            "  DBIN: {} code, {} bytes at 0x{:x}",
                            v.core().isa(),
                            c.len(),
                            n.data_offset()
                        )?;
                    }
                    _ => {}
                }
            }
            for n in &v.shader.children {
                let Body::Table(t) = &n.body else { continue };
                let slots = t.total_slots.map(|x| format!(", {}", count(x, "slot"))).unwrap_or_default();
                writeln!(
                    s,
                    "{} ({} at 0x{:x}): count {}{slots}",
                    table_title(&n.tag.0),
                    n.tag,
                    n.at,
                    t.count
                )?;
                for (depth, idx, sym) in tree(t) {
                    let deep = if depth > MAX_INDENT { format!("(depth {depth}) ") } else { String::new() };
                    let indent = "  ".repeat(depth.min(MAX_INDENT) + 1);
                    writeln!(s, "{indent}{deep}[{idx}] {}", symbol_text(sym))?;
                }
            }
        }
        if i.trailing_bytes > 0 {
            writeln!(s, "after the MBS1 chunk: {} bytes", i.trailing_bytes)?;
        }
        Ok(())
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        crate::json::write_info(out, &self.info())
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        let Some(v) = self.shader() else {
            out.start_line(Some(0));
            out.styled(Style::Comment, "; no shader chunk (CFRA or CVER)").map_err(printer_failed)?;
            return out.write_char('\n').map_err(printer_failed);
        };
        self.list_tables(&v, out)?;
        match v.code() {
            Some((c, at)) => {
                out.start_line(Some(at - 8));
                out.styled(
                    Style::Comment,
                    &format!("; code (DBIN): {} of {} code", count(c.len(), "byte"), v.core().isa()),
                )
                .map_err(printer_failed)?;
                out.write_char('\n').map_err(printer_failed)?;
                code::write_code(v.core(), c, at, opts, out)
            }
            None => {
                out.start_line(None);
                out.styled(Style::Comment, "; no code (DBIN)").map_err(printer_failed)?;
                out.write_char('\n').map_err(printer_failed)
            }
        }
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
        // Code that stops decoding leaves the listing up to there: the record keeps it.
        if let Err(e) = self.disasm(opts, out.listing()) {
            if !self.damage().contains(&e) {
                return Err(e);
            }
        }
        if let Some(v) = self.shader() {
            if let Some((c, at)) = v.code() {
                let stage = match v.core() {
                    Core::Gp => Stage::Vertex,
                    Core::Pp => Stage::Pixel,
                };
                out.program(
                    Program::new(
                        format!("{} shader", v.core().stage_name()),
                        v.core().isa(),
                        at,
                        c.len() as u64,
                    )
                    .with_stage(Some(stage), v.core_name().map(str::to_string)),
                );
                code::each_record(v.core(), c, at, |r| out.instruction(r));
            }
        }
        Ok(())
    }

    fn annotate(&self, a: &mut Annotations) {
        self.annotate_node(&self.root, "", a);
        if !self.trailing.is_empty() {
            let at = self.root.at + 8 + u64::from(self.root.size);
            a.fallback(at, self.trailing.len() as u64, "after the MBS1 chunk");
        }
    }

    fn validate(&self) -> Vec<Finding> {
        let mut out = self.check();
        if let Some(v) = self.shader() {
            if let Some((c, at)) = v.code() {
                out.extend(code::check(v.core(), c, at));
            }
        }
        out
    }

    /// Tables whose count disagrees with their records or whose parent links loop, and code
    /// that does not decode.
    fn damage(&self) -> Vec<Error> {
        let mut out = self.damage.clone();
        if let Some(v) = self.shader() {
            if let Some((c, at)) = v.code() {
                out.extend(code::problems(v.core(), c, at));
            }
        }
        out
    }

    fn write(&self) -> Result<Vec<u8>> {
        Ok(self.write_model())
    }

    fn parts(&self) -> Vec<Part<'_>> {
        let mut v = Vec::new();
        if let Some(s) = self.shader() {
            if let Some((c, at)) = s.code() {
                v.push(Part::new(
                    "program",
                    at,
                    c,
                    format!(
                        "the {} shader's code (DBIN payload; `disasm --format {}`)",
                        s.core().stage_name(),
                        s.core().isa()
                    ),
                ));
            }
        }
        parts_of(self.data, &self.root, "MBS1", &mut v);
        v
    }
}

/// Every chunk as a part named by its path (`MBS1/CVER/SUNI/VUNI.2`: a tag that repeats among
/// its siblings gets its index among them).
fn parts_of<'d>(data: &'d [u8], n: &Node<'_>, path: &str, out: &mut Vec<Part<'d>>) {
    let start = n.data_offset() as usize;
    let bytes = data.get(start..start + n.size as usize).unwrap_or(&[]);
    out.push(Part::new(
        path.to_string().replace("//", "/"),
        n.data_offset(),
        bytes,
        format!("the {} chunk's payload", n.tag),
    ));
    let kids = n.children();
    // Counted once per parent: a chunk with many children must not cost their square.
    let mut same: std::collections::HashMap<FourCC, usize> = std::collections::HashMap::new();
    for k in kids.iter() {
        *same.entry(k.tag).or_insert(0) += 1;
    }
    let mut seen: std::collections::HashMap<FourCC, usize> = std::collections::HashMap::new();
    for c in kids.iter() {
        let same = same.get(&c.tag).copied().unwrap_or(0);
        let counter = seen.entry(c.tag).or_insert(0);
        let nth = *counter;
        *counter += 1;
        let seg = if same > 1 { format!("{}.{nth}", c.tag) } else { c.tag.to_string() };
        parts_of(data, c, &format!("{path}/{seg}"), out);
    }
}

/// Annotate what can be read of an MBS file that does not parse: every chunk header up to the
/// one that fails, descending where the format nests chunks.
pub fn annotate_damaged(data: &[u8], a: &mut Annotations) {
    let r = Reader::new(data, Endian::Little);
    walk(&r, 0, data.len(), "", 0, a);
}

/// Annotate the chunks of `r` from `from` to `to`, inside `parent`.
fn walk(r: &Reader<'_>, from: usize, to: usize, parent: &str, depth: usize, a: &mut Annotations) {
    let mut at = from;
    while at < to && depth < 8 {
        let Ok(c) = Chunk::read(r, at, "chunk") else {
            if let Ok(t) = r.bytes_at(at, 4, "tag") {
                a.field(at as u64, 4, format_args!("tag \"{}\"", crate::error::escape_bytes(t)));
            }
            return;
        };
        if c.end() > to {
            a.field(at as u64, 4, format_args!("tag \"{}\"", c.fourcc));
            return;
        }
        let path = if parent.is_empty() { c.fourcc.to_string() } else { format!("{parent}/{}", c.fourcc) };
        a.section(at as u64, 8 + c.data.len() as u64, &path);
        a.field(at as u64, 4, format_args!("tag \"{}\"", c.fourcc));
        a.field(at as u64 + 4, 4, format_args!("size: {} bytes", c.data.len()));
        let d = c.data_offset();
        let skip = match &c.fourcc.0 {
            b"MBS1" | b"VIDX" => Some(0),
            b"CFRA" | b"CVER" | b"SVAR" | b"SATT" => Some(4),
            b"SUNI" => Some(8),
            _ => None,
        };
        match skip {
            Some(k) => {
                if k > 0 {
                    a.fallback(d as u64, k as u64, format_args!("{path} header words"));
                }
                let end = c.end();
                a.fallback(d as u64, c.data.len() as u64, format_args!("{path} payload"));
                walk(r, d + k, end, &path, depth + 1, a);
            }
            None => a.fallback(d as u64, c.data.len() as u64, format_args!("{path} payload")),
        }
        at = c.end();
    }
}
