//! Nintendo 3DS shader binaries: DVLB (`.shbin`, DVLP + DVLEs), unlinked DVOJ/DVOB objects,
//! DVLBs inside CGFX containers (`.bcsdr`, `.bcres`) and base64 `.csdr` text.
//!
//! [`Dvlb::parse`] reads a DVLB into an editable model that keeps every byte (see
//! [`dvlb::Layout`]); [`Dvlb::write`] gives the same bytes back for an unmodified file and a
//! picasso-style layout for a model built in code ([`build`]). The fixed headers are declared
//! once in [`headers`]; writers place structures through
//! [`toolkit::layout`](crate::toolkit::layout). [`ShaderFile`] holds any of the four kinds and
//! is the [`Container`] that [`crate::parse`] returns for them (as [`crate::File::Shbin`]);
//! [`ShaderFile::dvles`] walks a file's executables ([`DvleRef`]: stage, uniforms, outputs,
//! listing, instruction records).
//!
//! ```
//! use shaderscope::format::shbin::{self, Dvlb, ShaderFile};
//! use shaderscope::{Format, isa::pica};
//!
//! let bytes = shbin::build::example_vertex_shader();
//! let mut dvlb = Dvlb::parse(&bytes)?;
//! assert_eq!((dvlb.dvlp.code.len(), dvlb.dvles.len(), shbin::producer(&dvlb)), (8, 1, "picasso"));
//! assert_eq!(dvlb.write()?, bytes);
//!
//! // Pass v0 instead of v1 to the colour output: decode the word, change it, encode it.
//! let mut mov = pica::decode(dvlb.dvlp.code[6]);
//! mov.src[0] = 0;
//! dvlb.dvlp.code[6] = mov.encode();
//! let edited = dvlb.write()?;
//! assert_eq!(edited.len(), bytes.len());
//! let file = ShaderFile::parse(&edited, Format::Dvlb)?;
//! let dvle = file.dvles()[0];
//! assert_eq!((dvle.offset(), dvle.code_offset()), (Some(0x8c), 0x34));
//! assert_eq!(dvle.records()[6].text, "mov outclr, v0");
//! # Ok::<(), shaderscope::Error>(())
//! ```

pub mod assemble;
pub mod build;
mod cgfx;
mod csdr;
pub mod dvlb;
pub(crate) mod dvoj;
pub mod headers;
mod json;
pub mod tables;

pub use cgfx::Cgfx;
pub use csdr::Csdr;
pub use dvlb::{Dvlb, Dvle, DvleNames, Dvlp};
pub use dvoj::Dvoj;

use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::isa::pica;
use crate::model::{Finding, Part};
use crate::print::Printer;
use crate::print::count;
use tables::{mask_text, output_semantic_name};

/// The payload of a 3DS shader file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Payload {
    /// A DVLB.
    Dvlb(Dvlb),
    /// A DVOJ/DVOB object.
    Dvoj(Dvoj),
    /// A CGFX with DVLBs inside.
    Cgfx(Cgfx),
}

/// Any 3DS shader file, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShaderFile {
    /// The detected format (DVLB, DVOJ, CGFX or csdr).
    pub format: Format,
    /// The binary (decoded from base64 for `.csdr`).
    pub payload: Payload,
    /// The text layout of a `.csdr` file.
    pub csdr: Option<Csdr>,
}

impl ShaderFile {
    /// Parse `data` as `format` (one of the 3DS formats of [`Format`]).
    pub fn parse(data: &[u8], format: Format) -> Result<ShaderFile> {
        match format {
            Format::Dvlb => Ok(ShaderFile { format, payload: Payload::Dvlb(Dvlb::parse(data)?), csdr: None }),
            Format::Dvoj => Ok(ShaderFile { format, payload: Payload::Dvoj(Dvoj::parse(data)?), csdr: None }),
            Format::Cgfx => Ok(ShaderFile { format, payload: Payload::Cgfx(Cgfx::parse(data)?), csdr: None }),
            Format::Csdr => {
                let c = Csdr::parse(data)?;
                // Offsets inside the decoded binary are reported relative to the decoded bytes.
                let inner = match crate::detect::detect(&c.decoded) {
                    Some(Format::Dvlb) => {
                        Payload::Dvlb(Dvlb::parse(&c.decoded).map_err(|e| e.context("decoded "))?)
                    }
                    Some(Format::Cgfx) => {
                        Payload::Cgfx(Cgfx::parse(&c.decoded).map_err(|e| e.context("decoded "))?)
                    }
                    Some(Format::Dvoj) => {
                        Payload::Dvoj(Dvoj::parse(&c.decoded).map_err(|e| e.context("decoded "))?)
                    }
                    _ => {
                        return Err(Error::invalid(
                            0,
                            "csdr payload",
                            "the decoded bytes are not a DVLB, DVOJ or CGFX",
                        ));
                    }
                };
                Ok(ShaderFile { format, payload: inner, csdr: Some(c) })
            }
            other => {
                Err(Error::invalid(0, "file", format!("{} is not a 3DS shader format", other.description())))
            }
        }
    }

    /// Annotate the binary (decoded, for `.csdr`), its offsets its own.
    fn annotate_binary(&self, a: &mut Annotations) {
        match &self.payload {
            Payload::Dvlb(d) => dvlb::annotate(d, 0, a),
            Payload::Dvoj(d) => d.annotate(a),
            Payload::Cgfx(c) => c.annotate(a),
        }
    }

    /// Every DVLB in the file with its absolute offset (in the decoded bytes for `.csdr`).
    pub fn dvlbs(&self) -> Vec<(u64, &Dvlb)> {
        match &self.payload {
            Payload::Dvlb(d) => vec![(0, d)],
            Payload::Cgfx(c) => c.dvlbs.iter().map(|(o, d)| (*o, d)).collect(),
            Payload::Dvoj(_) => Vec::new(),
        }
    }

    /// The binary re-encoded (before base64 for `.csdr`).
    pub fn write_binary(&self) -> Result<Vec<u8>> {
        match &self.payload {
            Payload::Dvlb(d) => d.write(),
            Payload::Dvoj(d) => d.write(),
            Payload::Cgfx(c) => c.write(),
        }
    }
}

/// Annotate what can be read of a 3DS shader file of `format` that fails to parse: its
/// headers, read straight from the bytes, and the code words inside the file.
pub fn annotate_damaged(data: &[u8], format: Format, a: &mut Annotations) {
    match format {
        Format::Dvlb => dvlb::annotate_damaged(data, 0, a),
        Format::Dvoj => dvoj::annotate_damaged(data, a),
        Format::Cgfx if data.len() >= 4 => a.field(0, 4, "magic \"CGFX\""),
        _ => {}
    }
}

/// Which tool wrote a DVLB, from the traits each producer leaves (docs/shbin-pica.md §6).
pub fn producer(d: &Dvlb) -> &'static str {
    let short = d.layout.as_ref().is_some_and(|l| l.dvlp_header == dvlb::DVLP_SHORT_HEADER_SIZE);
    if short {
        "nihstro"
    } else if d.dvlp.version != 0 || !d.dvlp.filenames.is_empty() || d.dvlp.opdescs.iter().any(|o| o[1] != 0)
    {
        "nintendo"
    } else if d.dvles.iter().all(|e| e.labels.is_empty()) {
        "picasso"
    } else {
        "unknown"
    }
}

/// One DVLE of a file, with the DVLB that holds it: what a caller walks to list a file's
/// executables, their tables and their code.
///
/// ```
/// use shaderscope::File;
///
/// # let bytes = shaderscope::shbin::build::example_vertex_shader();
/// let Ok(File::Shbin(file)) = shaderscope::parse(&bytes) else { panic!() };
/// for dvle in file.dvles() {
///     let names = dvle.names();
///     assert_eq!(dvle.stage().map(|s| s.name()), Some("vertex"));
///     assert_eq!((names.uniforms[0].name.as_str(), names.uniforms[0].registers()), ("projection", "c0-c3".into()));
///     assert_eq!(names.outputs[1].semantic_name(), Some("color"));
///     assert_eq!(dvle.records()[0].text, "mov r0.xyz, v0");
/// }
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct DvleRef<'a> {
    /// The DVLB.
    pub dvlb: &'a Dvlb,
    /// Absolute offset of the DVLB in the input (in the decoded bytes for `.csdr`).
    pub base: u64,
    /// Index of the DVLE in its DVLB.
    pub index: usize,
    /// Index (among all DVLEs of the file) of its DVLB's first DVLE.
    first: usize,
    /// Index of its DVLB among [`ShaderFile::dvlbs`].
    dvlb_index: usize,
    /// The DVLE.
    pub dvle: &'a Dvle,
}

impl<'a> DvleRef<'a> {
    /// Vertex or geometry; `None` for another type byte.
    pub fn stage(&self) -> Option<crate::model::Stage> {
        pica::ShaderType::from_byte(self.dvle.shader_type).stage()
    }

    /// The index (among all DVLEs of the file, as [`ShaderFile::dvles`] counts) of the
    /// earlier DVLE whose header offset this one repeats (see [`Dvlb::same_as`]).
    pub fn same_as(&self) -> Option<usize> {
        self.dvlb.same_as(self.index).map(|k| self.first + k)
    }

    /// Absolute offset of the DVLE header.
    pub fn offset(&self) -> Option<u64> {
        self.dvlb.dvle_offset(self.index).map(|o| self.base + o)
    }

    /// The end of the DVLE's entry range: `endmain`, or where that is 0 (as nihstro writes it)
    /// the word after the end instruction that ends main (see [`pica::Executables::entry_end`]).
    pub fn entry_end(&self) -> u32 {
        self.entry_end_in(&self.dvlb.program())
    }

    /// [`DvleRef::entry_end`], in its DVLB's code decoded once ([`Dvlb::program`]).
    pub(super) fn entry_end_in(&self, program: &pica::Program<'_>) -> u32 {
        pica::Executables::new(program).entry_end(self.dvle.main, self.dvle.endmain)
    }

    /// Absolute offset of the code blob the DVLE runs in (shared by the DVLB's DVLEs).
    pub fn code_offset(&self) -> u64 {
        self.base + self.dvlb.code_offset()
    }

    /// The uniforms, outputs, constants and labels in the ISA's types, each with the absolute
    /// offset of its table entry.
    pub fn names(&self) -> DvleNames {
        self.dvlb.names(self.index, self.base).unwrap_or_default()
    }

    /// What the ISA needs to print the DVLE (see [`pica::write_source`]); `program` from
    /// [`Dvlb::program`], `names` from [`DvleRef::names`], `opdescs` from
    /// [`Dvlb::opdesc_words`].
    pub fn source_context(
        &self,
        program: &'a pica::Program<'a>,
        names: &'a DvleNames,
        opdescs: &'a [u32],
    ) -> pica::SourceContext<'a> {
        self.dvlb
            .source_context(self.index, program, names, opdescs, self.base)
            .unwrap_or_else(|| pica::SourceContext::new(program, opdescs))
    }

    /// The instructions the DVLE's listing shows, as records (see [`pica::records`]).
    pub fn records(&self) -> Vec<crate::isa::InstructionRecord> {
        let mut out = Vec::new();
        self.each_record(|r| out.push(r));
        out
    }

    /// Each record [`DvleRef::records`] gives, handed to `f` as it is made.
    pub fn each_record(&self, f: impl FnMut(crate::isa::InstructionRecord)) {
        self.each_record_in(&self.dvlb.program(), f)
    }

    /// [`DvleRef::each_record`], in its DVLB's code decoded once ([`Dvlb::program`]).
    pub(super) fn each_record_in(
        &self,
        program: &pica::Program<'_>,
        f: impl FnMut(crate::isa::InstructionRecord),
    ) {
        let names = self.names();
        let opdescs = self.dvlb.opdesc_words();
        pica::each_record(&self.source_context(program, &names, &opdescs), f);
    }

    /// The comment line a listing starts the DVLE with, which `asm --like` reads back: its
    /// index `k` among the file's DVLEs (and where it sits when the file has `many_dvlbs`),
    /// its type and entry range, or the DVLE whose bytes it repeats.
    fn write_header<P: Printer + ?Sized>(&self, k: usize, many_dvlbs: bool, out: &mut P) -> std::fmt::Result {
        out.start_line(self.offset());
        out.style(crate::print::Style::Comment);
        write!(out, "; DVLE {k}")?;
        if many_dvlbs {
            write!(out, " (DVLB at 0x{:x}, DVLE {})", self.base, self.index)?;
        }
        match self.same_as() {
            // Listed once: a repeated offset refers to the first listing.
            Some(first) => {
                write!(out, ": the same bytes as DVLE {first} (offset 0x{:x})", self.offset().unwrap_or(0))?
            }
            None => write!(
                out,
                ": {} shader, main 0x{:x}, endmain 0x{:x}",
                self.dvle.type_name(),
                self.dvle.main,
                self.dvle.endmain
            )?,
        }
        out.reset();
        out.write_str("\n")
    }

    /// The DVLE as complete picasso source, with `--offsets`/`--raw` columns as `opts` says.
    pub fn write_source<P: Printer + ?Sized>(&self, opts: &DisasmOptions, out: &mut P) -> std::fmt::Result {
        self.write_source_in(&self.dvlb.program(), opts, out)
    }

    /// [`DvleRef::write_source`], in its DVLB's code decoded once ([`Dvlb::program`]).
    pub(super) fn write_source_in<P: Printer + ?Sized>(
        &self,
        program: &pica::Program<'_>,
        opts: &DisasmOptions,
        out: &mut P,
    ) -> std::fmt::Result {
        let names = self.names();
        let opdescs = self.dvlb.opdesc_words();
        let mut ctx = self.source_context(program, &names, &opdescs);
        ctx.offsets = opts.offsets || opts.file_offsets;
        ctx.raw = opts.raw;
        pica::write_source(&ctx, out)
    }
}

impl ShaderFile {
    /// Every DVLE of every DVLB, in file order.
    pub fn dvles(&self) -> Vec<DvleRef<'_>> {
        let mut v = Vec::new();
        for (dvlb_index, (base, dvlb)) in self.dvlbs().into_iter().enumerate() {
            let first = v.len();
            for (index, dvle) in dvlb.dvles.iter().enumerate() {
                v.push(DvleRef { dvlb, base, index, first, dvlb_index, dvle: dvle.as_ref() });
            }
        }
        v
    }

    /// What the ISA needs to print a DVOJ object as one executable (its entry range is the
    /// whole code); `names` from [`Dvoj::names`], `opdescs` from [`Dvoj::opdesc_words`].
    fn dvoj_context<'a>(
        &self,
        d: &'a Dvoj,
        program: &'a pica::Program<'a>,
        names: &'a DvleNames,
        opdescs: &'a [u32],
        opts: &DisasmOptions,
    ) -> pica::SourceContext<'a> {
        let mut ctx = pica::SourceContext::new(program, opdescs);
        if d.unknown[0] & 0xff == 1 {
            ctx.shader_type = pica::ShaderType::Geometry;
        }
        ctx.uniforms = &names.uniforms;
        ctx.outputs = &names.outputs;
        ctx.constants = &names.constants;
        ctx.labels = &names.labels;
        ctx.code_offset = d.code_offset();
        ctx.header_offset = d.layout.as_ref().map(|_| 0);
        ctx.offsets = opts.offsets || opts.file_offsets;
        ctx.raw = opts.raw;
        ctx
    }

    /// The code blobs decoded once, for everything a command reads from them: each DVLB's in
    /// [`ShaderFile::dvlbs`] order, or the DVOJ object's.
    pub(super) fn code_programs(&self) -> Vec<pica::Program<'_>> {
        match &self.payload {
            Payload::Dvoj(o) => vec![o.program()],
            _ => self.dvlbs().into_iter().map(|(_, d)| d.program()).collect(),
        }
    }

    /// The listing (`disasm`): every DVLE (or the one `opts` chooses) as picasso source, then
    /// the code no DVLE runs; `programs` from [`ShaderFile::code_programs`].
    pub(super) fn write_listing(
        &self,
        programs: &[pica::Program<'_>],
        opts: &DisasmOptions,
        out: &mut dyn Printer,
    ) -> Result<()> {
        let fmt_err = |_| Error::invalid(0, "listing", "the printer failed");
        let none = pica::Program::default();
        if let Payload::Dvoj(d) = &self.payload {
            return self.print_dvoj(d, programs.first().unwrap_or(&none), opts, out).map_err(fmt_err);
        }
        let program_of = |p: &DvleRef<'_>| programs.get(p.dvlb_index).unwrap_or(&none);
        let dvles = self.dvles();
        let many_dvlbs = self.dvlbs().len() > 1;
        if let Some(n) = opts.program {
            let Some(p) = dvles.get(n) else {
                return Err(Error::invalid(
                    0,
                    "DVLE index",
                    format!("DVLE {n} does not exist ({} in the file)", dvles.len()),
                ));
            };
            p.write_header(n, many_dvlbs, out).map_err(fmt_err)?;
            return p.write_source_in(program_of(p), opts, out).map_err(fmt_err);
        }
        for (k, p) in dvles.iter().enumerate() {
            if k > 0 {
                out.start_line(None);
                out.write_str("\n").map_err(fmt_err)?;
            }
            p.write_header(k, many_dvlbs, out).map_err(fmt_err)?;
            if p.same_as().is_none() {
                p.write_source_in(program_of(p), opts, out).map_err(fmt_err)?;
            }
        }
        for ((base, d), program) in self.dvlbs().into_iter().zip(programs) {
            let entries: Vec<(u32, u32)> = d
                .dvles
                .iter()
                .enumerate()
                .filter(|(i, _)| d.same_as(*i).is_none())
                .map(|(_, e)| (e.main, e.endmain))
                .collect();
            pica::write_unreached(out, program, &d.opdesc_words(), base + d.code_offset(), &entries)
                .map_err(fmt_err)?;
        }
        Ok(())
    }

    /// The DVOJ object as one executable: its entry range is the whole code.
    fn print_dvoj<P: Printer + ?Sized>(
        &self,
        d: &Dvoj,
        program: &pica::Program<'_>,
        opts: &DisasmOptions,
        out: &mut P,
    ) -> std::fmt::Result {
        let (names, opdescs) = (d.names(), d.opdesc_words());
        pica::write_source(&self.dvoj_context(d, program, &names, &opdescs, opts), out)
    }
}

/// The non-empty strings of a string table.
fn split_strings(table: &[u8]) -> Vec<String> {
    tables::strings(table).filter(|(_, s)| !s.is_empty()).map(|(_, s)| s.text().into_owned()).collect()
}

fn summary(f: &ShaderFile) -> String {
    let d = f.dvlbs();
    let dvles: usize = d.iter().map(|(_, d)| d.dvles.len()).sum();
    match &f.payload {
        Payload::Dvoj(o) => format!("DVOJ object, {}", count(o.code.len(), "instruction")),
        _ => {
            let prod = d.first().map(|(_, d)| producer(d)).unwrap_or("none");
            // A DVLE read again through a repeated offset is counted, not named again.
            let kinds: Vec<String> = d
                .iter()
                .flat_map(|(_, d)| {
                    d.dvles
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| d.same_as(*i).is_none())
                        .map(|(_, e)| e.type_name())
                })
                .collect();
            let repeats = dvles - kinds.len();
            let repeats =
                if repeats > 0 { format!("; {repeats} repeat an earlier one") } else { String::new() };
            format!(
                "{}, {} ({}{repeats}), producer {prod}",
                count(d.len(), "DVLB"),
                count(dvles, "DVLE"),
                kinds.join(", ")
            )
        }
    }
}

fn info_dvlb(d: &Dvlb, base: u64, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
    let l = d.layout.as_ref();
    writeln!(
        s,
        "DVLB at 0x{base:x}: {}, {}, producer {}",
        count(d.size(), "byte"),
        count(d.dvles.len(), "DVLE"),
        producer(d)
    )?;
    writeln!(
        s,
        "  DVLP at 0x{:x}: version 0x{:x}, {}-byte header, {} (code at 0x{:x}), {}{}",
        base + u64::from(d.dvlp_offset()),
        d.dvlp.version,
        l.map(|l| l.dvlp_header).unwrap_or(dvlb::DVLP_HEADER_SIZE),
        count(d.dvlp.code.len(), "instruction"),
        base + d.code_offset(),
        count(d.dvlp.opdescs.len(), "operand descriptor"),
        if d.dvlp.line_numbers.is_empty() {
            String::new()
        } else {
            format!(", {} line numbers", d.dvlp.line_numbers.len())
        }
    )?;
    let files = split_strings(&d.dvlp.filenames);
    if !files.is_empty() {
        writeln!(s, "  source files: {}", files.join(", "))?;
    }
    let program = d.program();
    let mut runs = pica::Executables::new(&program);
    for (i, e) in d.dvles.iter().enumerate() {
        let off = l.and_then(|l| l.dvle_offsets.get(i)).map(|o| base + u64::from(*o)).unwrap_or(0);
        if let Some(k) = d.same_as(i) {
            writeln!(s, "  DVLE {i} at 0x{off:x}: the same bytes as DVLE {k}")?;
            continue;
        }
        write!(
            s,
            "  DVLE {i} at 0x{off:x}: {} shader, version 0x{:x}, main 0x{:x}, endmain 0x{:x}",
            e.type_name(),
            e.version,
            e.main,
            e.endmain
        )?;
        if e.endmain == 0 {
            let end = runs.entry_end(e.main, 0);
            if ends_with_end(&program, end) {
                write!(s, " (not recorded: main runs 0x{:x}..0x{end:x}, to its end instruction)", e.main)?;
            } else {
                write!(
                    s,
                    " (not recorded, and no end instruction ends main: it runs 0x{:x}..0x{end:x})",
                    e.main
                )?;
            }
        }
        if e.flags & 1 != 0 {
            s.write_str(", merges output maps")?;
        }
        s.write_char('\n')?;
        if e.shader_type == 1 {
            let g = e.geometry;
            writeln!(
                s,
                "    geometry mode: {} (fixed start c{}, variable vertices {}, fixed vertices {})",
                dvlb::geometry_mode_name(g[0]),
                g[1],
                g[2],
                g[3]
            )?;
        }
        let regs = |mask: u16, p: char| {
            let v: Vec<String> =
                (0..16).filter(|b| mask & (1 << b) != 0).map(|b| format!("{p}{b}")).collect();
            if v.is_empty() { "none".to_string() } else { v.join(" ") }
        };
        // A mask the header leaves 0 (nihstro writes none; picasso only those `.in` and `.out`
        // declare) says what the code reads and the output table names instead.
        let inputs = match (e.input_mask, runs.inputs_read(e.main, e.endmain)) {
            (0, Some(read)) if read != 0 => {
                format!("{} (read by the code; the header's mask is 0)", regs(read, 'v'))
            }
            (mask, _) => regs(mask, 'v'),
        };
        let outputs = match (e.output_mask, e.output_table_mask()) {
            (0, table) if table != 0 => {
                format!("{} (from the output table; the header's mask is 0)", regs(table, 'o'))
            }
            (mask, _) => regs(mask, 'o'),
        };
        writeln!(s, "    inputs: {inputs}; outputs: {outputs}")?;
        if !e.outputs.is_empty() {
            let v: Vec<String> = e
                .outputs
                .iter()
                .map(|o| {
                    let sem = output_semantic_name(o.semantic)
                        .map(str::to_string)
                        .unwrap_or(format!("semantic {}", o.semantic));
                    format!("o{} {sem}.{}", o.register, mask_text(o.mask))
                })
                .collect();
            writeln!(s, "    output table: {}", v.join(", "))?;
        }
        if !e.uniforms.is_empty() {
            let v: Vec<String> = e
                .uniforms
                .iter()
                .map(|u| format!("{} {}", e.symbol(u.name_offset), dvlb::register_range(u.first, u.last)))
                .collect();
            writeln!(s, "    uniforms: {}", v.join(", "))?;
        }
        for c in &e.constants {
            writeln!(s, "    constant {}", c.describe())?;
        }
        if !e.labels.is_empty() {
            let v: Vec<String> =
                e.labels.iter().map(|x| format!("{}@0x{:x}", e.symbol(x.name_offset), x.address)).collect();
            writeln!(s, "    labels: {}", v.join(", "))?;
        }
    }
    Ok(())
}

/// Whether an entry range that runs to `end` (see [`pica::Executables`]) ends with an end
/// instruction (else it runs to the end of the code).
fn ends_with_end(program: &pica::Program<'_>, end: u32) -> bool {
    let last = end.checked_sub(1).and_then(|k| program.instructions().get(k as usize));
    last.is_some_and(|i| i.op == pica::Op::End)
}

/// Structural checks of one DVLB (the ISA adds program checks).
fn validate_dvlb(d: &Dvlb, base: u64, out: &mut Vec<Finding>) {
    let l = d.layout.as_ref();
    let dvlp = base + u64::from(d.dvlp_offset());
    let code_at = base + d.code_offset();
    let n = d.dvlp.code.len() as u32;
    if n > 512 {
        out.push(Finding::warning(
            dvlp + 0xc,
            format!("{} exceed the 512-word shader code memory", count(n, "instruction")),
        ));
    }
    if d.dvlp.opdescs.len() > 128 {
        out.push(Finding::error(
            dvlp + 0x14,
            format!("{} exceed the 128-entry table", count(d.dvlp.opdescs.len(), "operand descriptor")),
        ));
    }
    let program = d.program();
    for issue in pica::check_program(&program, d.dvlp.opdescs.len()) {
        let at = code_at + 4 * issue.index as u64;
        let msg = format!("instruction 0x{:03x}: {}", issue.index, issue.message);
        out.push(if issue.error { Finding::error(at, msg) } else { Finding::warning(at, msg) });
    }
    overlapping_dvles(d, base, out);
    repeated_dvles(d, base, out);
    let opdescs = d.opdesc_words();
    let mut runs = pica::Executables::new(&program);
    for (i, e) in d.dvles.iter().enumerate() {
        let o = base + l.and_then(|l| l.dvle_offsets.get(i)).map(|o| u64::from(*o)).unwrap_or(0);
        let t = l.and_then(|l| l.dvle_offsets_tables.get(i)).copied().unwrap_or([0; 5]);
        let p = format!("DVLE {i}: ");
        if d.same_as(i).is_some() {
            continue;
        }
        let names = e.names();
        if e.main <= n
            && (e.endmain == 0 || (e.main < e.endmain && e.endmain <= n))
            && let Some(ctx) = d.source_context(i, &program, &names, &opdescs, base)
        {
            for issue in pica::check_executable(&ctx) {
                let msg = format!("{p}instruction 0x{:03x}: {}", issue.index, issue.message);
                let at = code_at + 4 * issue.index as u64;
                out.push(if issue.error { Finding::error(at, msg) } else { Finding::warning(at, msg) });
            }
        }
        if e.main > n || e.endmain > n {
            out.push(Finding::error(
                o + 8,
                format!("{p}main 0x{:x} / endmain 0x{:x} outside the {n}-word program", e.main, e.endmain),
            ));
        } else if e.endmain == 0 {
            let (main, end) = (e.main, runs.entry_end(e.main, 0));
            let message = if ends_with_end(&program, end) {
                format!(
                    "{p}endmain is 0 (nihstro writes this): the code from main to its end instruction, 0x{main:x}..0x{end:x}, is taken as the program"
                )
            } else {
                format!(
                    "{p}endmain is 0 (nihstro writes this) and no end instruction ends main: the code from main to the end of the code, 0x{main:x}..0x{end:x}, is taken as the program"
                )
            };
            out.push(Finding::warning(o + 0xc, message));
        } else if e.main > e.endmain {
            out.push(Finding::error(
                o + 8,
                format!("{p}main 0x{:x} is after endmain 0x{:x}", e.main, e.endmain),
            ));
        }
        if e.shader_type > 1 {
            out.push(Finding::error(o + 6, format!("{p}unknown shader type {}", e.shader_type)));
        }
        if e.shader_type == 1 && e.geometry[0] > 2 {
            out.push(Finding::error(o + 0x14, format!("{p}unknown geometry mode {}", e.geometry[0])));
        }
        if e.shader_type == 1
            && e.geometry[0] == 2
            && u32::from(e.geometry[1]) + u32::from(e.geometry[3]) > 96
        {
            out.push(Finding::error(
                o + 0x15,
                format!("{p}fixed-mode vertex array c{}+{} runs past c95", e.geometry[1], e.geometry[3]),
            ));
        }
        let mut out_mask = 0u16;
        // Geometry shaders have o0-o6; picasso's `dummy` semantic is a placeholder, not a write.
        let limit = if e.shader_type == 1 { 7 } else { 16 };
        for (k, x) in e.outputs.iter().enumerate() {
            let at = o + u64::from(t[2]) + 8 * k as u64;
            if x.register >= limit && !(x.semantic == 9 && x.register < 16) {
                out.push(Finding::error(
                    at,
                    format!(
                        "{p}output {k} uses register o{}, which a {} shader does not have",
                        x.register,
                        e.type_name()
                    ),
                ));
            } else if x.register < 16 {
                out_mask |= 1 << x.register;
            }
            if output_semantic_name(x.semantic).is_none() {
                out.push(Finding::warning(at, format!("{p}output {k} has unknown semantic {}", x.semantic)));
            }
            if x.mask == 0 || x.mask > 0xf {
                out.push(Finding::warning(at, format!("{p}output {k} has component mask 0x{:x}", x.mask)));
            }
        }
        if !e.outputs.is_empty() && e.output_mask & !out_mask != 0 {
            out.push(Finding::warning(
                o + 0x12,
                format!(
                    "{p}output mask 0x{:04x} names registers the output table does not (0x{out_mask:04x})",
                    e.output_mask
                ),
            ));
        }
        for (k, c) in e.constants.iter().enumerate() {
            let at = o + u64::from(t[0]) + 20 * k as u64;
            let limit = match c.kind {
                0 => 16,
                1 => 4,
                2 => 96,
                _ => {
                    out.push(Finding::error(at, format!("{p}constant {k} has unknown type {}", c.kind)));
                    continue;
                }
            };
            if c.register >= limit {
                out.push(Finding::error(
                    at,
                    format!("{p}constant {k} register {} is out of range (limit {limit})", c.register),
                ));
            }
        }
        for (k, lab) in e.labels.iter().enumerate() {
            let at = o + u64::from(t[1]) + 16 * k as u64;
            if lab.address > n {
                out.push(Finding::error(
                    at,
                    format!("{p}label {k} points at 0x{:x}, outside the {n}-word program", lab.address),
                ));
            }
            if let Some(why) = bad_symbol(e, lab.name_offset) {
                out.push(Finding::error(
                    at + 12,
                    format!("{p}label {k} name offset 0x{:x} {why}", lab.name_offset),
                ));
            }
        }
        for (k, u) in e.uniforms.iter().enumerate() {
            let at = o + u64::from(t[3]) + 8 * k as u64;
            if let Some(why) = bad_symbol(e, u.name_offset) {
                out.push(Finding::error(
                    at,
                    format!("{p}uniform {k} name offset 0x{:x} {why}", u.name_offset),
                ));
            }
            let space = |r: u16| match r {
                0x00..=0x0f => Some(0),
                0x10..=0x6f => Some(1),
                0x70..=0x73 => Some(2),
                0x78..=0x87 => Some(3),
                _ => None,
            };
            match (space(u.first), space(u.last)) {
                (Some(a), Some(b)) if a == b && u.first <= u.last => {}
                _ => out.push(Finding::error(
                    at + 4,
                    format!(
                        "{p}uniform {k} register range 0x{:x}-0x{:x} is not one register file",
                        u.first, u.last
                    ),
                )),
            }
        }
    }
}

/// Offset-table entries that name a DVLE again: one warning per DVLE named more than once, at
/// the first entry that repeats it, with how many do (a table repeating one offset a million
/// times is one finding).
fn repeated_dvles(d: &Dvlb, base: u64, out: &mut Vec<Finding>) {
    // Per repeated DVLE: the first entry repeating it and how many do.
    let mut repeats: std::collections::BTreeMap<usize, (usize, usize)> = std::collections::BTreeMap::new();
    for i in 0..d.dvles.len() {
        if let Some(k) = d.same_as(i) {
            repeats.entry(k).or_insert((i, 0)).1 += 1;
        }
    }
    for (k, (i, n)) in repeats {
        let o = d.dvle_offset(k).unwrap_or(0);
        let which = if n == 1 {
            format!("1 offset-table entry, DVLE {i}, repeats")
        } else {
            format!("{n} offset-table entries, from DVLE {i} on, repeat")
        };
        out.push(Finding::warning(
            base + 8 + 4 * i as u64,
            format!("{which} DVLE {k}'s offset 0x{o:x}: the same bytes are reached again"),
        ));
    }
}

/// DVLEs (at different offsets) whose header or tables share bytes, as DXBC reports chunks
/// that overlap: one error per DVLE, at the first shared byte. A sweep over every piece in
/// offset order, so a file with many DVLEs costs n log n.
fn overlapping_dvles(d: &Dvlb, base: u64, out: &mut Vec<Finding>) {
    let mut pieces: Vec<(u64, u64, usize)> = Vec::new();
    for i in 0..d.dvles.len() {
        if d.same_as(i).is_none() {
            pieces.extend(d.dvle_pieces(i).unwrap_or_default().into_iter().map(|r| (r.start, r.end, i)));
        }
    }
    pieces.sort_unstable();
    let mut reported = std::collections::HashSet::new();
    // The piece reaching furthest so far: (end, owner).
    let mut reach: Option<(u64, usize)> = None;
    for &(start, end, i) in &pieces {
        if let Some((r_end, j)) = reach
            && start < r_end
            && i != j
            && reported.insert(i)
        {
            out.push(Finding::error(
                base + start,
                format!(
                    "DVLE {i} shares bytes with DVLE {j} (from 0x{:x} to 0x{:x})",
                    base + start,
                    base + end.min(r_end)
                ),
            ));
        }
        if reach.is_none_or(|(r_end, _)| end > r_end) {
            reach = Some((end, i));
        }
    }
}

/// What is wrong with the name at a symbol-table offset, if anything.
fn bad_symbol(e: &Dvle, offset: u32) -> Option<&'static str> {
    match e.symbol_at(offset) {
        Ok(_) => None,
        Err(err) if matches!(err.kind(), crate::error::ErrorKind::OutOfBounds { .. }) => {
            Some("is outside the symbol table")
        }
        Err(_) => Some("starts a name the symbol table does not end with a NUL"),
    }
}

impl Container for ShaderFile {
    fn format(&self) -> Format {
        self.format
    }

    fn write_info_text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        writeln!(s, "format: {}", self.format.description())?;
        writeln!(s, "summary: {}", summary(self))?;
        if let Some(c) = &self.csdr {
            writeln!(s, "base64 payload: {} decoded", count(c.decoded.len(), "byte"))?;
        }
        match &self.payload {
            Payload::Cgfx(c) => {
                writeln!(
                    s,
                    "CGFX: {} byte order, revision 0x{:x}, {} blocks, file size {}",
                    c.endian.name(),
                    c.revision,
                    c.blocks,
                    c.file_size
                )?;
            }
            Payload::Dvoj(o) => {
                writeln!(
                    s,
                    "DVOJ: {} (code at 0x{:x}), {}, {}, {}",
                    count(o.code.len(), "instruction"),
                    o.code_offset(),
                    count(o.opdescs.len(), "operand descriptor"),
                    count(o.line_numbers.len(), "line number"),
                    count(o.relocations.len(), "relocation")
                )?;
                let dvle = o.as_dvle();
                for u in &dvle.uniforms {
                    writeln!(
                        s,
                        "  uniform {} {}",
                        dvle.symbol(u.name_offset),
                        dvlb::register_range(u.first, u.last)
                    )?;
                }
            }
            Payload::Dvlb(_) => {}
        }
        for (base, d) in self.dvlbs() {
            info_dvlb(d, base, s)?;
        }
        Ok(())
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        json::write_info_json(self, out)
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        self.write_listing(&self.code_programs(), opts, out)
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn crate::json::DisasmSink) -> Result<()> {
        json::write_disasm_json(self, opts, out)
    }

    fn annotate(&self, a: &mut Annotations) {
        let Some(c) = &self.csdr else { return self.annotate_binary(a) };
        // The text of a .csdr shows the structures of the binary it encodes, each over the
        // base64 characters that carry its bits.
        let mut inner = Annotations::new();
        self.annotate_binary(&mut inner);
        let text_len = c.encoded_len + c.whitespace.iter().map(|w| w.1.len()).sum::<usize>();
        let what = match &self.payload {
            Payload::Dvlb(_) => "DVLB",
            Payload::Dvoj(_) => "DVOJ",
            Payload::Cgfx(_) => "CGFX",
        };
        a.section(
            0,
            text_len as u64,
            format_args!(
                "base64 text of a {what} of {}, each row at the characters that encode it \
                 (offsets of the decoded bytes in brackets; `shaderscope extract FILE decoded` writes them)",
                count(c.decoded.len(), "byte")
            ),
        );
        let map = csdr::TextMap::new(c, text_len);
        let first = map.position(0);
        if first > 0 {
            a.field(0, first, "whitespace");
        }
        a.absorb(&inner, &c.decoded, |k| map.position(k));
    }

    fn programs(&self) -> Option<usize> {
        // An unlinked object is one program with no DVLE to choose.
        (!matches!(self.payload, Payload::Dvoj(_))).then(|| self.dvles().len())
    }

    fn validate(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        for (base, d) in self.dvlbs() {
            validate_dvlb(d, base, &mut out);
        }
        if let Payload::Dvoj(o) = &self.payload {
            for issue in pica::check_program(&o.program(), o.opdescs.len()) {
                let at =
                    o.layout.as_ref().map(|l| u64::from(l.offsets[2])).unwrap_or(0) + 4 * issue.index as u64;
                let msg = format!("instruction 0x{:03x}: {}", issue.index, issue.message);
                out.push(if issue.error { Finding::error(at, msg) } else { Finding::warning(at, msg) });
            }
        }
        if let Payload::Cgfx(c) = &self.payload
            && c.dvlbs.is_empty()
        {
            out.push(Finding::warning(0, "CGFX holds no DVLB shader"));
        }
        out.sort_by_key(|f| f.offset);
        out
    }

    fn write(&self) -> Result<Vec<u8>> {
        let bin = self.write_binary()?;
        Ok(match &self.csdr {
            Some(c) => c.write(&bin),
            None => bin,
        })
    }

    fn parts(&self) -> Vec<Part<'_>> {
        let words = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let mut v = Vec::new();
        if let Some(c) = &self.csdr {
            v.push(Part::new("decoded", 0, &c.decoded[..], "the binary decoded from base64"));
        }
        let many = self.dvlbs().len() > 1 || matches!(self.payload, Payload::Cgfx(_));
        for (k, (base, d)) in self.dvlbs().into_iter().enumerate() {
            let pre = if many { format!("dvlb{k}.") } else { String::new() };
            if many {
                // A DVLB the model cannot write back has no bytes to give.
                let bytes = d.write().unwrap_or_default();
                v.push(Part::new(
                    format!("dvlb{k}"),
                    base,
                    bytes,
                    format!("embedded DVLB ({})", count(d.dvles.len(), "DVLE")),
                ));
            }
            let code_at = base + d.code_offset();
            v.push(Part::new(
                format!("{pre}code"),
                code_at,
                words(&d.dvlp.code),
                "the whole shared code blob",
            ));
            let od = base
                + u64::from(d.dvlp_offset())
                + u64::from(d.layout.as_ref().map(|l| l.dvlp_offsets[1]).unwrap_or(0));
            let opdescs: Vec<u8> = d.dvlp.opdescs.iter().flat_map(|o| words(o)).collect();
            v.push(Part::new(format!("{pre}opdescs"), od, opdescs, "operand descriptor table"));
            let program = d.program();
            let mut runs = pica::Executables::new(&program);
            for (i, e) in d.dvles.iter().enumerate() {
                if d.same_as(i).is_some() {
                    // Its bytes are the first DVLE's part; a million repeats copy nothing.
                    continue;
                }
                let (s, n) = code_range(d, &mut runs, e);
                v.push(Part::new(
                    format!("{pre}dvle{i}.code"),
                    code_at + 4 * s as u64,
                    words(d.dvlp.code.get(s..s + n).unwrap_or(&[])),
                    format!("{} shader main..endmain", e.type_name()),
                ));
            }
        }
        if let Payload::Dvoj(o) = &self.payload {
            let at = o.layout.as_ref().map(|l| u64::from(l.offsets[2])).unwrap_or(0);
            v.push(Part::new("code", at, words(&o.code), "object code"));
        }
        v
    }
}

/// The entry range (main..endmain, or to main's end instruction where endmain is 0) clamped to
/// the code blob, as (start, length) in words.
fn code_range(d: &Dvlb, runs: &mut pica::Executables, e: &Dvle) -> (usize, usize) {
    let n = d.dvlp.code.len();
    let s = (e.main as usize).min(n);
    let end = (runs.entry_end(e.main, e.endmain) as usize).clamp(s, n);
    (s, end - s)
}
