//! The listing fxc prints for an effect (`fxc /T fx_5_0 /Fc`): the constant buffers with their
//! variables, the object variables with their state blocks and shaders, the interface
//! variables, then the groups, techniques and passes, each shader listed where it is bound
//! (by the DXBC listing, indented under its heading, with offsets counted from the file's
//! first byte).

use super::states::{self, Cast};
use super::{
    Annotation, Assignment, Fx11, Initializer, NumericVariable, ObjectVariable, Shader5, TypeDesc, assign,
    var_type,
};
use crate::container::{Container, DisasmOptions};
use crate::error::{Error, Result};
use crate::format::dxbc::Dxbc;
use crate::isa::fxlvm;
use crate::print::{Nested, Printer, Style};

fn failed(_: std::fmt::Error) -> Error {
    Error::invalid(0, "listing", "the printer failed")
}

/// Writes lines through a printer, each with the offset of what it shows.
struct Out<'p> {
    p: &'p mut dyn Printer,
}

impl Out<'_> {
    fn line(&mut self, at: Option<u64>, indent: usize, text: &str) -> Result<()> {
        self.p.start_line(at);
        crate::print::write_spaces(&mut *self.p, indent).map_err(failed)?;
        self.p.write_str(text).map_err(failed)?;
        self.p.write_char('\n').map_err(failed)
    }

    fn comment(&mut self, indent: usize, text: &str) -> Result<()> {
        self.p.start_line(None);
        crate::print::write_spaces(&mut *self.p, indent).map_err(failed)?;
        self.p.styled(Style::Comment, text).map_err(failed)?;
        self.p.write_char('\n').map_err(failed)
    }

    /// fxc's section heading: `//`, `// text`, `//`.
    fn heading(&mut self, indent: usize, text: &str) -> Result<()> {
        self.comment(indent, "//")?;
        self.comment(indent, &format!("// {text}"))?;
        self.comment(indent, "//")
    }
}

/// A float as fxc prints an effect's numbers: `%.9g` (`1`, `5.5`, `6.67300035e-011`).
fn float(bits: u32) -> String {
    let mut s = String::new();
    let _ = crate::print::float::write_f32_g9(&mut s, bits);
    s
}

/// A numeric value of scalar type `scalar` (1 float, 2 int, 3 uint, 4 bool).
fn scalar_text(scalar: u32, v: u32) -> String {
    match scalar {
        1 => float(v),
        2 => (v as i32).to_string(),
        4 => if v != 0 { "true" } else { "false" }.to_string(),
        _ => v.to_string(),
    }
}

impl<'a> Fx11<'a> {
    /// The default value at `o` of a numeric type, as `1, 2, 3`.
    fn numeric_values(&self, t: &TypeDesc, o: u32, field_at: u64) -> Result<String> {
        let scalar = (t.info >> 3) & 0x1f;
        let words = self.uwords(o, t.packed_size / 4, "default value", field_at)?;
        let texts: Vec<String> = words.iter().map(|w| scalar_text(scalar, *w)).collect();
        Ok(texts.join(", "))
    }

    /// `Type name[N]`.
    fn declared(&self, t: &TypeDesc, name: u32) -> String {
        let mut s = format!("{} {}", self.text(t.name), self.text(name));
        if t.elements > 0 {
            s.push_str(&format!("[{}]", t.elements));
        }
        s
    }

    /// `Type    name[N]`: the type padded to 7 columns, as fxc declares objects.
    fn declared_padded(&self, t: &TypeDesc, name: u32) -> String {
        let mut s = format!("{:<7} {}", self.text(t.name), self.text(name));
        if t.elements > 0 {
            s.push_str(&format!("[{}]", t.elements));
        }
        s
    }

    fn annotations(&self, out: &mut Out<'_>, indent: usize, list: &[Annotation]) -> Result<()> {
        if list.is_empty() {
            return Ok(());
        }
        out.line(None, indent, "<")?;
        for a in list {
            let t = self.type_at(a.ty, a.at + 4)?;
            let mut s = self.declared(&t, a.name);
            s.push_str(" = ");
            if t.class == var_type::NUMERIC {
                let v = self.numeric_values(&t, a.values.first().copied().unwrap_or(0), a.at + 8)?;
                if t.elements > 0 || t.packed_size > 4 {
                    s.push_str(&format!("{{ {v} }}"))
                } else {
                    s.push_str(&v)
                }
            } else {
                let texts: Vec<String> = a.values.iter().map(|v| format!("\"{}\"", self.text(*v))).collect();
                if t.elements > 0 {
                    s.push_str(&format!("{{ {} }}", texts.join(", ")));
                } else {
                    s.push_str(&texts.join(", "));
                }
            }
            s.push(';');
            out.line(Some(a.at), indent + 4, &s)?;
        }
        out.line(None, indent, ">")
    }

    fn variable(&self, out: &mut Out<'_>, v: &NumericVariable) -> Result<()> {
        let t = self.type_at(v.ty, v.at + 4)?;
        let mut s = format!("{:<7} {}", self.text(t.name), self.text(v.name));
        if t.elements > 0 {
            s.push_str(&format!("[{}]", t.elements));
        }
        if v.semantic != 0 {
            s.push_str(&format!(" : {}", self.text(v.semantic)));
        }
        if v.flags & 4 != 0 {
            let lane = ["x", "y", "z", "w"].get((v.offset % 16 / 4) as usize).copied().unwrap_or("x");
            s.push_str(&format!(" : packoffset(c{}.{lane})", v.offset / 16));
        }
        if v.default != 0 && t.class == var_type::STRUCT {
            // A struct's default: its packed words in hexadecimal.
            let words = self.uwords(v.default, t.packed_size / 4, "default value", v.at + 16)?;
            let texts: Vec<String> = words.iter().map(|w| format!("0x{w:08x}")).collect();
            s.push_str(&format!(" = {{ {} }}", texts.join(", ")));
        }
        if v.default != 0 && t.class == var_type::NUMERIC {
            let values = self.numeric_values(&t, v.default, v.at + 16)?;
            let parts: Vec<&str> = values.split(", ").collect();
            if parts.len() == 1 && t.elements == 0 {
                s.push_str(&format!(" = {values}"));
            } else if let Some(first) = parts.first().filter(|f| parts.iter().all(|p| p == *f)) {
                // fxc writes a value that fills the whole variable once.
                s.push_str(&format!(" = {{ {first} }}"));
            } else {
                s.push_str(&format!(" = {{ {values} }}"));
            }
        }
        s.push(';');
        let width = s.len() + 4;
        if width < 40 {
            s.push_str(&" ".repeat(40 - width));
        }
        s.push_str(&format!("// Offset: {:>4}, size: {:>4}", v.offset, t.total_size));
        if let Some(list) = &v.annotations {
            self.annotations(out, 4, list)?;
        }
        out.line(Some(v.at), 4, &s)
    }

    fn cbuffers(&self, out: &mut Out<'_>, pool: bool) -> Result<()> {
        let list: Vec<_> = self.cbuffers.iter().filter(|c| c.pool == pool).collect();
        if list.is_empty() {
            return Ok(());
        }
        let noun = if pool { "shared" } else { "local" };
        out.heading(0, &format!("{} {noun} buffer(s)", list.len()))?;
        for c in list {
            let kind = if c.flags & 1 != 0 { "tbuffer" } else { "cbuffer" };
            let mut s = format!("{kind} {}", self.text(c.name));
            if c.bind_point != u32::MAX {
                let reg = if c.flags & 1 != 0 { 't' } else { 'b' };
                s.push_str(&format!(" : register({reg}{})", c.bind_point));
            }
            out.line(Some(c.at), 0, &s)?;
            if let Some(list) = &c.annotations {
                self.annotations(out, 0, list)?;
            }
            out.line(None, 0, "{")?;
            for v in &c.variables {
                self.variable(out, v)?;
            }
            out.line(None, 0, "}")?;
            out.line(None, 0, "")?;
        }
        Ok(())
    }

    /// The value an assignment sets, as fxc prints it.
    pub(crate) fn assignment_value(&self, a: &Assignment) -> Result<String> {
        let state = states::state(a.state);
        let field = a.at + 12;
        Ok(match a.kind {
            assign::CONSTANT => {
                let n = self.uword(a.value, "constant value", field)?;
                let words =
                    self.uwords(a.value.saturating_add(4), n.saturating_mul(2), "constant value", field)?;
                let values: Vec<(u32, u32)> = words
                    .chunks_exact(2)
                    .filter_map(|w| if let &[t, v] = w { Some((t, v)) } else { None })
                    .collect();
                let cast = state.map_or(Cast::Object, |s| s.cast());
                if cast == Cast::Object && values.iter().all(|v| v.1 == 0) {
                    return Ok("NULL".to_string());
                }
                let texts: Vec<String> = values
                    .iter()
                    .map(|&(t, v)| {
                        // The stored scalar type (1 float, 2 int, 3 uint, 4 bool), as a number.
                        let float_value = if t == 1 { f32::from_bits(v) } else { v as i32 as f32 };
                        let int_value = if t == 1 { f32::from_bits(v) as i64 as u32 } else { v };
                        let named = state.and_then(|s| states::value_name(s.values, int_value));
                        match (cast, named) {
                            (Cast::Float, _) => float(float_value.to_bits()),
                            (Cast::Byte, _) => format!("0x{:02x}", int_value & 0xff),
                            (Cast::Mask, _) => format!("0x{int_value:08x}"),
                            // A value stored as a bool shows as fxc's `true`/`false`.
                            (Cast::Bool, Some(n)) if t == 4 => format!("{n} /* {} */", n.to_lowercase()),
                            (_, Some(n)) => format!("{n} /* {int_value} */"),
                            (Cast::Bool, None) | (Cast::Uint, None) | (Cast::Object, None) => {
                                int_value.to_string()
                            }
                        }
                    })
                    .collect();
                let ty = match cast {
                    Cast::Bool => "bool",
                    Cast::Float => "float",
                    Cast::Byte => "byte",
                    _ => "uint",
                };
                let count = if values.len() > 1 { values.len().to_string() } else { String::new() };
                format!("{ty}{count}({})", texts.join(", "))
            }
            assign::VARIABLE => self.text(a.value),
            assign::CONSTANT_INDEX => {
                let [name, index] = self.uarr::<2>(a.value, "indexed value", field)?;
                format!("{}[{index}]", self.text(name))
            }
            assign::VARIABLE_INDEX => {
                let [name, index] = self.uarr::<2>(a.value, "indexed value", field)?;
                format!("{}[{}]", self.text(name), self.text(index))
            }
            assign::EXPRESSION_INDEX => {
                let [name, code] = self.uarr::<2>(a.value, "indexed value", field)?;
                format!("{}[{}]", self.text(name), self.expression(code, self.abs(a.value) + 4)?)
            }
            assign::EXPRESSION => self.expression(a.value, field)?,
            _ => String::new(),
        })
    }

    /// The FX 4 expression in the data block at `o` (its size, then the code), as fxc
    /// prints it: `eval(…)`, an instruction a line.
    fn expression(&self, o: u32, field: u64) -> Result<String> {
        let size = self.uword(o, "expression", field)?;
        let code = self.ubytes(o.saturating_add(4), u64::from(size), "expression", field)?;
        let e = fxlvm::Expression::parse_fx4(code, self.abs(o) + 4)?;
        Ok(fxlvm::eval_text(&e))
    }

    /// The shader block at `o` on a line of its own (`NULL` for none), under `indent`.
    fn shader(&self, out: &mut Out<'_>, indent: usize, o: u32, opts: &DisasmOptions) -> Result<()> {
        if o == 0 {
            return out.line(None, indent, "NULL");
        }
        out.p.start_line(self.shader_index(o).and_then(|i| self.shaders.get(i)).map(|s| s.at));
        crate::print::write_spaces(&mut *out.p, indent).map_err(failed)?;
        self.shader_inline(out, indent, o, opts)
    }

    /// What fxc prints after an fx_5 shader's `}`: its stream-output declarations, the
    /// stream it rasterizes, the interfaces bound to its parameters, each on a line of its own
    /// at `indent`.
    fn shader5_tail(&self, out: &mut Out<'_>, indent: usize, s: &Shader5) -> Result<()> {
        let mut lines = Vec::new();
        let n = s.so_count.min(4) as usize;
        for (i, d) in s.so_decls.iter().take(n).enumerate() {
            if *d != 0 {
                lines.push(format!("/* Stream {i} out decl: \"{}\" */", self.text(*d)));
            }
        }
        if s.so_count > 0 {
            lines.push(format!("/* Stream {} to rasterizer */", s.rasterized_stream));
        }
        if s.interface_count > 0 {
            let field = self.abs(s.interfaces);
            let w =
                self.uwords(s.interfaces, s.interface_count.saturating_mul(2), "interface bindings", field)?;
            for (i, b) in w.chunks_exact(2).enumerate() {
                let &[name, slot] = b else { continue };
                let name = self.text(name);
                let array = self.interfaces.iter().any(|v| {
                    self.text(v.name) == name && self.type_at(v.ty, v.at + 4).is_ok_and(|t| t.elements > 0)
                });
                let index = if array { format!("[{slot}]") } else { String::new() };
                lines.push(format!("/* Interface parameter {i} bound to: {name}{index} */"));
            }
        }
        for l in lines {
            out.p.write_char('\n').map_err(failed)?;
            out.p.start_line(None);
            crate::print::write_spaces(&mut *out.p, indent).map_err(failed)?;
            out.p.write_str(&l).map_err(failed)?;
        }
        Ok(())
    }

    fn assignment(
        &self,
        out: &mut Out<'_>,
        indent: usize,
        a: &Assignment,
        opts: &DisasmOptions,
    ) -> Result<()> {
        let state = states::state(a.state);
        let mut name = state.map_or_else(|| format!("/* state {} */", a.state), |s| s.name.to_string());
        if state.is_some_and(|s| s.indexed) {
            name.push_str(&format!("[{}]", a.index));
        }
        if matches!(a.kind, assign::INLINE_SHADER | assign::INLINE_SHADER_5) {
            let o = self.uword(a.value, "inline shader", a.at + 12)?;
            if o == 0 {
                return out.line(Some(a.at), indent, &format!("{name} = NULL;"));
            }
            out.p.start_line(Some(a.at));
            crate::print::write_spaces(&mut *out.p, indent).map_err(failed)?;
            out.p.write_str(&format!("{name} = ")).map_err(failed)?;
            self.shader_inline(out, indent, o, opts)?;
            if a.kind == assign::INLINE_SHADER_5 {
                let words = self.uarr::<9>(a.value, "inline shader", a.at + 12)?;
                self.shader5_tail(out, indent.saturating_sub(4), &Shader5::from_words(words))?;
            }
            out.p.write_str(";\n").map_err(failed)?;
            return Ok(());
        }
        // A value that does not read is said in the listing (validate reports it).
        let value = self.assignment_value(a).unwrap_or_else(|e| format!("/* {e} */"));
        let sep = if name.len() < 8 { format!("{name:<8} = ") } else { format!("{name} = ") };
        // An expression's instructions after the first line up 16 columns in.
        let mut lines = value.lines();
        let first = lines.next().unwrap_or("");
        let rest: Vec<&str> = lines.collect();
        let end = |last: bool| if last { ";" } else { "" };
        out.line(Some(a.at), indent, &format!("{sep}{first}{}", end(rest.is_empty())))?;
        for (k, l) in rest.iter().enumerate() {
            out.line(None, indent + 16, &format!("{l}{}", end(k + 1 == rest.len())))?;
        }
        Ok(())
    }

    /// `asm {`, the shader's listing, `}` (the opening on the current line).
    fn shader_inline(&self, out: &mut Out<'_>, indent: usize, o: u32, opts: &DisasmOptions) -> Result<()> {
        let Some(s) = self.shader_index(o).and_then(|i| self.shaders.get(i)) else {
            return out.p.write_str("/* no shader block */").map_err(failed);
        };
        out.p.write_str("asm {\n").map_err(failed)?;
        match Dxbc::parse(s.bytes) {
            Ok(d) => {
                let mut nested = Nested::new(&mut *out.p, indent + 4, s.data_offset());
                if let Err(e) = d.disasm(opts, &mut nested) {
                    out.comment(indent + 4, &format!("// {}", e.rebase(s.data_offset())))?;
                }
            }
            Err(e) => {
                out.comment(indent + 4, &format!("// not a DXBC shader: {}", e.rebase(s.data_offset())))?
            }
        }
        out.line(None, 2 * (indent + 4) - 4, "")?;
        out.p.start_line(None);
        crate::print::write_spaces(&mut *out.p, indent).map_err(failed)?;
        out.p.write_str("}").map_err(failed)
    }

    fn object(&self, out: &mut Out<'_>, o: &ObjectVariable, opts: &DisasmOptions) -> Result<()> {
        let t = self.type_at(o.ty, o.at + 4)?;
        let decl = self.declared_padded(&t, o.name);
        let annotations = o.annotations.as_deref().unwrap_or(&[]);
        let blocks = o.initializers.iter().all(|(_, i)| matches!(i, Initializer::StateBlock(_)));
        if o.initializers.is_empty() {
            out.line(Some(o.at), 0, &format!("{decl};"))?;
            return self.annotations(out, 0, annotations);
        }
        if blocks {
            out.line(Some(o.at), 0, &decl)?;
            self.annotations(out, 0, annotations)?;
            out.line(None, 0, "{")?;
            let array = t.elements > 0;
            let n = o.initializers.len();
            for (i, (_, init)) in o.initializers.iter().enumerate() {
                let Initializer::StateBlock(list) = init else { continue };
                let inner = if array { 8 } else { 4 };
                if array {
                    out.line(None, 4, "{")?;
                }
                for a in list {
                    self.assignment(out, inner, a, opts)?;
                }
                if array {
                    out.line(None, 4, if i + 1 < n { "}," } else { "}" })?;
                }
            }
            return out.line(None, 0, "};");
        }
        out.line(Some(o.at), 0, &format!("{decl} = "))?;
        self.annotations(out, 0, annotations)?;
        let n = o.initializers.len();
        let array = t.elements > 0;
        if array {
            out.line(None, 0, "{")?;
        }
        for (i, (at, init)) in o.initializers.iter().enumerate() {
            let indent = if array { 8 } else { 4 };
            let end = if !array {
                ";"
            } else if i + 1 < n {
                ","
            } else {
                ""
            };
            match init {
                Initializer::String(s) => {
                    out.line(Some(*at), indent, &format!("\"{}\"{end}", self.text(*s)))?
                }
                Initializer::Shader(s) | Initializer::GsSo(s, _) => {
                    if *s == 0 {
                        out.line(Some(*at), indent, &format!("NULL{end}"))?;
                    } else {
                        self.shader(out, indent, *s, opts)?;
                        if let Initializer::GsSo(_, so) = init {
                            if *so != 0 {
                                out.p.write_char('\n').map_err(failed)?;
                                out.p.start_line(None);
                                out.p
                                    .write_str(&format!("/* Stream out decl: \"{}\" */", self.text(*so)))
                                    .map_err(failed)?;
                            }
                        }
                        out.p.write_str(&format!("{end}\n")).map_err(failed)?;
                    }
                }
                Initializer::Shader5(s5) => {
                    if s5.shader == 0 {
                        out.line(Some(*at), indent, &format!("NULL{end}"))?;
                    } else {
                        self.shader(out, indent, s5.shader, opts)?;
                        self.shader5_tail(out, 0, s5)?;
                        out.p.write_str(&format!("{end}\n")).map_err(failed)?;
                    }
                }
                Initializer::StateBlock(_) => {}
            }
        }
        if array {
            out.line(None, 0, "};")?;
        }
        Ok(())
    }

    fn objects(&self, out: &mut Out<'_>, pool: bool, opts: &DisasmOptions) -> Result<()> {
        let list: Vec<_> = self.objects.iter().filter(|o| o.pool == pool).collect();
        if list.is_empty() {
            return Ok(());
        }
        let noun = if pool { "shared" } else { "local" };
        out.heading(0, &format!("{} {noun} object(s)", list.len()))?;
        for o in list {
            self.object(out, o, opts)?;
        }
        out.line(None, 0, "")
    }

    /// The whole listing.
    pub(crate) fn write_listing(&self, opts: &DisasmOptions, p: &mut dyn Printer) -> Result<()> {
        let mut out = Out { p };
        let out = &mut out;
        out.comment(0, "//")?;
        out.comment(0, &format!("// FX Version: {}", self.profile()))?;
        if !self.is_fx5() {
            let child = self.count(4) > 0 || self.count(5) > 0 || self.count(6) > 0;
            out.comment(0, &format!("// Child effect (requires effect pool): {child}"))?;
        }
        self.cbuffers(out, false)?;
        self.objects(out, false, opts)?;
        self.cbuffers(out, true)?;
        self.objects(out, true, opts)?;
        if !self.interfaces.is_empty() {
            out.heading(0, &format!("{} local interface(s)", self.interfaces.len()))?;
            for i in &self.interfaces {
                let t = self.type_at(i.ty, i.at + 4)?;
                out.line(Some(i.at), 0, &format!("{};", self.declared_padded(&t, i.name)))?;
                self.annotations(out, 0, &i.annotations)?;
            }
            out.line(None, 0, "")?;
        }
        let (tech, indent) = if self.is_fx5() { ("technique11", 4) } else { ("technique10", 0) };
        if self.is_fx5() && !self.groups.is_empty() {
            out.heading(0, &format!("{} groups(s)", self.groups.len()))?;
        }
        for g in &self.groups {
            if let Some(at) = g.at {
                let name = self.text(g.name);
                out.line(
                    Some(at),
                    0,
                    if name.is_empty() { "fxgroup".to_string() } else { format!("fxgroup {name}") }.as_str(),
                )?;
                self.annotations(out, 0, &g.annotations)?;
                out.line(None, 0, "{")?;
            }
            if !g.techniques.is_empty() {
                out.heading(indent, &format!("{} technique(s)", g.techniques.len()))?;
            }
            for t in &g.techniques {
                out.line(Some(t.at), indent, format!("{tech} {}", self.text(t.name)).trim_end())?;
                self.annotations(out, indent, &t.annotations)?;
                out.line(None, indent, "{")?;
                for p in &t.passes {
                    out.line(Some(p.at), indent + 4, format!("pass {}", self.text(p.name)).trim_end())?;
                    self.annotations(out, indent + 4, &p.annotations)?;
                    out.line(None, indent + 4, "{")?;
                    for a in &p.assignments {
                        self.assignment(out, indent + 8, a, opts)?;
                    }
                    out.line(None, indent + 4, "}")?;
                    out.line(None, 0, "")?;
                }
                out.line(None, indent, "}")?;
                out.line(None, 0, "")?;
            }
            if g.at.is_some() {
                out.line(None, 0, "}")?;
                out.line(None, 0, "")?;
            }
        }
        Ok(())
    }
}
