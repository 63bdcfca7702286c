//! The interface every format implements, so that a caller (the CLI among them) needs no
//! format-specific code: [`Container`]. [`crate::File`] implements it for whatever
//! [`crate::parse`] found.
//!
//! The trait sits below the formats (it names only the neutral types of [`crate::model`],
//! the printer sink and the byte annotations), so a format depends on it and nothing depends
//! on a format but [`crate::any`].
//!
//! ```
//! use shaderscope::{Container, DisasmOptions};
//! use shaderscope::print::TextBuf;
//!
//! /// Any format's listing of its first program, with offsets.
//! fn first_program(file: &dyn Container) -> shaderscope::Result<String> {
//!     let mut text = TextBuf::default();
//!     file.disasm(&DisasmOptions::default().with_program(0).with_offsets(true), &mut text)?;
//!     Ok(text.into_string())
//! }
//! let bytes = shaderscope::shbin::build::example_vertex_shader();
//! let file = shaderscope::parse(&bytes)?;
//! assert!(first_program(&file)?.contains("0x000034"));
//! assert!(file.validate().is_empty());
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::json::DisasmSink;
pub use crate::model::DisasmOptions;
use crate::model::{Finding, Part};
use crate::print::Printer;
use std::{fmt, io};

/// A parsed file of any format this build reads.
pub trait Container {
    /// The detected format.
    fn format(&self) -> Format;
    /// Human-readable summary for `shaderscope info`, written to `out` line by line as it is
    /// made (never held whole: the CLI writes it straight to its output).
    fn write_info_text(&self, out: &mut dyn fmt::Write) -> fmt::Result;
    /// [`Container::write_info_text`]'s summary, collected.
    fn info_text(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_info_text(&mut s);
        s
    }
    /// Machine-readable summary for `shaderscope info --json`: the fields of an `info`
    /// record after the envelope ([`crate::json::Record`]), with the same facts as
    /// [`Container::info_text`], as one JSON object written to `out`; offsets are absolute.
    /// Serialised once, straight from the format's summary struct to `out` (never held whole:
    /// [`crate::File::write_info_record`] writes it into the record as it comes).
    fn write_info_json(&self, out: &mut dyn io::Write) -> io::Result<()>;
    /// [`Container::write_info_json`]'s object, kept as its text;
    /// [`crate::json::Body::to_value`] gives a tree to look inside.
    fn info_json(&self) -> crate::json::Body {
        crate::json::Body::collect(|out| self.write_info_json(out))
    }
    /// The listing for `shaderscope disasm`, written through `out` (plain text, colour, HTML,
    /// …). On an error the text written so far stays in `out`.
    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()>;
    /// The listing as data for `shaderscope disasm --json`, given to `out` piece by piece in
    /// the record's order ([`DisasmSink`]): the whole text, then every program's head and its
    /// [`InstructionRecord`](crate::isa::InstructionRecord)s one by one, then the facts about
    /// the listing as a whole. An error means the listing fails and the record has none of
    /// it (a damaged part the listing reports is not such an error: the record keeps what is
    /// listed).
    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()>;
    /// Everything [`Container::write_disasm_json`] gives, collected into one value.
    fn disasm_json(&self, opts: &DisasmOptions) -> Result<crate::json::Disasm> {
        crate::json::Disasm::collect(|out| self.write_disasm_json(opts, out))
    }
    /// Every program [`Container::write_disasm_json`] lists with the default options,
    /// without its instructions: its name, instruction set, stage, shader model, offset, size
    /// and extra facts (what `scan` shows of each find). Formats whose listing is costly give
    /// them without disassembling; by default they come from
    /// [`Container::write_disasm_json`], and none when it fails.
    fn program_heads(&self) -> Vec<crate::json::Program> {
        crate::json::Disasm::heads(|out| self.write_disasm_json(&DisasmOptions::default(), out))
            .unwrap_or_default()
    }
    /// Every byte annotated, for `shaderscope dump`.
    fn annotate(&self, out: &mut Annotations);
    /// Semantic checks beyond what parsing needs; empty when the file is fine. `validate`
    /// reports them with the damage ([`Container::damage`]) they do not list, through
    /// [`File::validation`](crate::File::validation).
    fn validate(&self) -> Vec<Finding>;
    /// The parts that failed to parse and were left out of the model while the rest of the
    /// file reads (a DXBC chunk whose contents are broken, a Direct3D 9 constant table that
    /// does not read): each error names the part, its absolute offset and why. A file with any
    /// is invalid: every command of the CLI exits 1 on it. Empty for a file that parsed whole.
    /// Instructions are not decoded for this (a listing reports what it cannot decode).
    fn damage(&self) -> Vec<Error> {
        Vec::new()
    }
    /// How many programs [`DisasmOptions::program`] chooses among (the CLI's `--dvle N`), or
    /// `None` when the format has no such choice (the option does not apply to it).
    fn programs(&self) -> Option<usize> {
        None
    }
    /// Re-encode from the parsed model (byte-identical for an unmodified file).
    fn write(&self) -> Result<Vec<u8>>;
    /// What `extract` can pull out, with the bytes of each.
    fn parts(&self) -> Vec<Part<'_>>;
    /// The whole shader files this file carries, each a file of its own format (an effect's
    /// Direct3D programs and DXBC containers): what `scan` reports inside it, with their
    /// names as [`Container::parts`] gives them. None by default: a container's shaders
    /// that are not whole files (a SHARCFB's GX2 programs) are listed by the container.
    fn embedded(&self) -> Vec<Part<'_>> {
        Vec::new()
    }
    /// The part named `name` ([`Container::parts`]); names match without regard to case.
    fn part(&self, name: &str) -> Result<Part<'_>> {
        let parts = self.parts();
        let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
        let why = format!("no part named \"{name}\" (parts: {})", names.join(", "));
        parts
            .into_iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| Error::invalid(0, "part name", why))
    }
}
