//! One shader's listing in the form decaf-emu's tools print it (the corpus's reference
//! listings): the struct's summary line, then each program it carries under a
//! `---- vertex (N bytes) ----` line, listed by [`crate::isa::latte`]. GFD and SHARCFB both
//! list their shaders through [`write_shader_listing`]; they differ only in where the
//! microcode is (a block of its own, or an offset in the shader data).

use super::Kind;
use crate::error::{Error, Result};
use crate::model::DisasmOptions;
use crate::print::{Printer, Style};

/// Where one program of a shader is.
#[derive(Debug, Clone, Copy)]
pub enum ProgramCode<'a> {
    /// The microcode and the absolute offset of its first byte.
    Found(&'a [u8], u64),
    /// Not there, and why (`no program block`, `no program`, …).
    Missing(&'a str),
}

impl Kind {
    /// The programs a shader of this kind carries, by their listing name, and whether each is
    /// the geometry shader's copy program (the vertex program that reads the GS ring).
    pub fn programs(self) -> &'static [(&'static str, bool)] {
        match self {
            Kind::Vertex => &[("vertex", false)],
            Kind::Pixel => &[("pixel", false)],
            Kind::Geometry => &[("geometry", false), ("geometry copy", true)],
        }
    }
}

/// Write a shader's listing: `heading` (the struct's [`summary`](super::Shader::summary), or
/// why it cannot be read) on a line that shows the bytes at `heading_at`, then for each of
/// `programs` (in [`Kind::programs`] order) its `---- name (N bytes) ----` line and Latte
/// listing, or `---- name: why ----`, each followed by a blank line. The first error of a
/// listing is returned after every program has been listed.
pub fn write_shader_listing(
    heading: &str,
    heading_at: Option<u64>,
    programs: &[(&str, ProgramCode<'_>)],
    opts: &DisasmOptions,
    out: &mut dyn Printer,
) -> Result<()> {
    let fail = |_| Error::invalid(heading_at.unwrap_or(0), "listing", "the printer failed");
    out.start_line(heading_at);
    out.styled(Style::Directive, heading).map_err(fail)?;
    out.write_char('\n').map_err(fail)?;
    let mut first = None;
    for &(name, code) in programs {
        match code {
            ProgramCode::Found(code, at) => {
                out.start_line(Some(at));
                out.styled(Style::Comment, &format!("---- {name} ({} bytes) ----", code.len()))
                    .map_err(fail)?;
                out.write_char('\n').map_err(fail)?;
                if let Err(e) = crate::isa::latte::write_listing(code, at, opts, out) {
                    first.get_or_insert(e);
                }
            }
            ProgramCode::Missing(why) => {
                out.start_line(None);
                out.styled(Style::Comment, &format!("---- {name}: {why} ----")).map_err(fail)?;
                out.write_char('\n').map_err(fail)?;
            }
        }
        out.start_line(None);
        out.write_char('\n').map_err(fail)?;
    }
    first.map_or(Ok(()), Err)
}
