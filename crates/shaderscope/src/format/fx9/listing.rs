//! The listing of an fx_2_0 effect, as fxc prints one: each shader-typed parameter with the
//! listing of its shader(s), then every technique's passes with the vertex and pixel shader
//! each binds, their listings indented under `asm {`.

use super::{Binding, Fx9, types};
use crate::container::DisasmOptions;
use crate::isa::d3d9::{self, ListingOptions};
use crate::isa::fxlvm::{self, Expression};
use crate::print::{Nested, Printer};
use std::fmt::{self, Write};

pub(super) fn write(fx: &Fx9<'_>, opts: &DisasmOptions, out: &mut dyn Printer) -> fmt::Result {
    let options = ListingOptions { in_effect: true, ..ListingOptions::of(opts) };
    for p in fx.parameters.iter().filter(|p| p.ty.is_shader()) {
        let ids = fx.object_ids(p);
        let kind = if p.ty.ty == types::VERTEXSHADER { "vertexshader" } else { "pixelshader" };
        let shaders: Vec<Option<usize>> =
            ids.iter().map(|&id| fx.shader_at(super::Source::Object(id))).collect();
        if shaders.iter().all(Option::is_none) {
            continue;
        }
        if p.ty.elements == 0 {
            out.start_line(None);
            writeln!(out, "{kind} {} = ", p.ty.name)?;
            program(fx, shaders.first().copied().flatten(), &options, out, 0)?;
            out.start_line(None);
            writeln!(out, "}};\n")?;
        } else {
            out.start_line(None);
            writeln!(out, "{kind} {}[{}] = \n{{", p.ty.name, p.ty.elements)?;
            for (i, s) in shaders.iter().enumerate() {
                out.start_line(None);
                writeln!(out, "//listing for: {}[{i}]", p.ty.name)?;
                program(fx, *s, &options, out, 0)?;
                out.start_line(None);
                out.write_str(if i + 1 == shaders.len() { "}};\n" } else { "},\n\n" })?;
            }
        }
    }
    out.start_line(None);
    writeln!(out, "\n//listing of all techniques and passes with embedded asm listings \n")?;
    for (t, technique) in fx.techniques.iter().enumerate() {
        out.start_line(None);
        writeln!(out, "technique {}\n{{", technique.name)?;
        for (p, pass) in technique.passes.iter().enumerate() {
            out.start_line(None);
            writeln!(out, "    pass {}\n    {{", pass.name)?;
            for (kind, ty, last) in
                [("vertex", types::VERTEXSHADER, false), ("pixel", types::PIXELSHADER, true)]
            {
                let state = pass.states.iter().position(|s| s.ty.is_shader() && s.ty.ty == ty);
                let binding = state.map_or(Binding::None, |s| fx.state_shader(t, p, s));
                // fxc lists the element a selector chooses with the parameters' defaults.
                let shader = match &binding {
                    Binding::Shader(i) => Some(*i),
                    Binding::Parameter(_, s) => *s,
                    Binding::Selected { by_default, .. } => by_default.and_then(|(_, s)| s),
                    Binding::None => None,
                };
                out.start_line(None);
                match (shader, &binding) {
                    (Some(i), _) => {
                        writeln!(out, "        {kind}shader = ")?;
                        program(fx, Some(i), &options, out, 12)?;
                        out.start_line(None);
                        writeln!(out, "            }};")?;
                        if !last {
                            writeln!(out)?;
                        }
                    }
                    (None, Binding::Selected { array, .. }) => {
                        writeln!(out, "        //{kind} shader chosen at run time from {array}[]")?;
                    }
                    _ => writeln!(out, "        //No embedded {kind} shader")?,
                }
            }
            out.start_line(None);
            writeln!(out, "    }}")?;
        }
        out.start_line(None);
        writeln!(out, "}}\n")?;
    }
    Ok(())
}

/// `asm {` and the listing of shader `index`, `indent` spaces in (the closing brace is the
/// caller's).
fn program(
    fx: &Fx9<'_>,
    index: Option<usize>,
    options: &ListingOptions,
    out: &mut dyn Printer,
    indent: usize,
) -> fmt::Result {
    out.start_line(None);
    crate::print::write_spaces(out, indent)?;
    writeln!(out, "asm {{")?;
    let shader = index.and_then(|i| fx.shaders().get(i));
    let mut nested = Nested::new(out, indent, 0);
    match shader.map(|s| &s.program) {
        Some(Ok(p)) => {
            // A preshader runs before the program: fxc lists it first, with its own inputs.
            let preshader = p.comment_block(b"PRES").and_then(|(at, d)| Expression::parse(d, at).ok());
            if let Some(e) = preshader.filter(|_| options.header) {
                fxlvm::write_listing(&e, true, &mut nested)?;
            }
            d3d9::write_listing(p, options, &mut nested)
        }
        Some(Err(e)) => {
            nested.start_line(None);
            writeln!(nested, "// the program does not parse: {e}")
        }
        None => {
            nested.start_line(None);
            writeln!(nested, "// no program")
        }
    }
}
