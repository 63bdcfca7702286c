//! `asm --like` for the Wii U: `disasm`'s listing of a `.gsh` ([`crate::format::gfd`]) or a
//! SHARCFB archive ([`crate::format::sharcfb`]) cut into its shaders ([`sections`]), each
//! program assembled by [`crate::isa::latte::asm`], and the words of a GX2 struct that follow
//! from an edited program ([`Shader::edit`]): its size and the register fields
//! [`Shader::fit_program`] recomputes. The containers put the programs and the words back.
//!
//! A shader's summary line (`VS mode=0 ubs=0 …`) says what the struct is; it is the
//! original's and is checked, not read: the struct's arrays and registers are not text.
//!
//! ```
//! use shaderscope::format::gx2::assemble::sections;
//!
//! let text = "PS mode=0 ubs=0 uvs=1 samplers=0\n---- pixel (8 bytes) ----\n\
//!             00 EXP_DONE: PIX0, R0.xyzw\n\nEND_OF_PROGRAM\n";
//! let shaders = sections(text)?;
//! assert_eq!(shaders[0].summary, ("PS mode=0 ubs=0 uvs=1 samplers=0", 1));
//! let program = &shaders[0].programs[0];
//! assert_eq!((program.name, program.line), ("pixel", 2));
//! assert_eq!(program.assemble()?, [0, 0, 0, 0, 0x88, 0x06, 0x20, 0x94]);
//!
//! // Errors give the line in the whole listing.
//! let e = sections(&text.replace("R0.xyzw", "R0.xyzq"))?[0].programs[0].assemble().unwrap_err();
//! assert_eq!(e.to_string(), "line 3, column 23: expected four components (`xyzw`, `xy__`)");
//! # Ok::<(), shaderscope::asm::LineError>(())
//! ```

use super::{Kind, Shader};
use crate::asm::text::LineError;

/// One shader's part of a listing: its summary line and its programs, in listing order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section<'t> {
    /// The binary its `; binary N: …` heading names (a SHARCFB listing), and that line.
    pub binary: Option<(u64, usize)>,
    /// The summary line (`VS mode=0 …`) and its 1-based number.
    pub summary: (&'t str, usize),
    /// Its programs, as the `---- name … ----` lines open them.
    pub programs: Vec<ProgramText<'t>>,
}

/// One program of a section: the lines after its `---- name (N bytes) ----` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramText<'t> {
    /// `vertex`, `pixel`, `geometry` or `geometry copy`.
    pub name: &'t str,
    /// The 1-based number of its `----` line.
    pub line: usize,
    /// Its Latte listing's lines (none for a program listed as missing).
    pub lines: Vec<&'t str>,
    /// Listed as missing (`---- vertex: no program block ----`).
    pub missing: bool,
}

impl ProgramText<'_> {
    /// The program's microcode, assembled; errors give the line in the whole listing.
    pub fn assemble(&self) -> Result<Vec<u8>, LineError> {
        let words = crate::isa::latte::asm::assemble(&self.lines.join("\n")).map_err(|mut e| {
            e.line += self.line;
            e
        })?;
        Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
    }
}

/// What an edited program changes in its shader's struct ([`Shader::edit`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit<'s, 'a> {
    /// The struct as it was.
    pub original: &'s Shader<'a>,
    /// The words to write: (absolute offset, value).
    pub words: Vec<(u64, u32)>,
    /// What changed and the new shader's Cemu hash, as lines for the user
    /// (`vertex shader 0: SQ_PGM_RESOURCES_VS.NUM_GPRS 3 → 5`).
    pub notes: Vec<String>,
}

/// The kind a summary line is of (`VS mode=…`, `PS …`, `GS …`; `VS (no header block)`).
pub fn summary_kind(line: &str) -> Option<Kind> {
    match line.get(..3)? {
        "VS " => Some(Kind::Vertex),
        "PS " => Some(Kind::Pixel),
        "GS " => Some(Kind::Geometry),
        _ => None,
    }
}

/// Cut a listing into its shaders. A `; binary N: …` line names the binary of the shader
/// whose summary line follows (a SHARCFB listing prints one or more per binary); comment and
/// blank lines between shaders are skipped; every other line belongs to the program its
/// `---- … ----` line opened.
pub fn sections(text: &str) -> Result<Vec<Section<'_>>, LineError> {
    let mut out: Vec<Section<'_>> = Vec::new();
    let mut heading: Option<(u64, usize)> = None;
    // Whether lines go to the last section's last program (until a heading or summary).
    let mut open = false;
    for (n, line) in text.lines().enumerate() {
        let n = n + 1;
        if let Some(rest) = line.strip_prefix("; binary ") {
            let digits = rest.split(':').next().unwrap_or("");
            let index = digits
                .parse::<u64>()
                .map_err(|_| LineError::new(n, 9, "a binary's number and `:` (`; binary 3: …`)"))?;
            if heading.is_some_and(|(i, _)| i != index) {
                return Err(LineError::new(n, 0, "the shader of the binary named on the line before"));
            }
            heading.get_or_insert((index, n));
            open = false;
            continue;
        }
        if summary_kind(line).is_some() {
            out.push(Section { binary: heading.take(), summary: (line, n), programs: Vec::new() });
            open = false;
            continue;
        }
        if let Some(inner) = line.strip_prefix("---- ").and_then(|l| l.strip_suffix(" ----")) {
            let Some(section) = out.last_mut().filter(|_| heading.is_none()) else {
                return Err(LineError::new(
                    n,
                    0,
                    "a shader's summary line (`VS mode=…`) before its programs",
                ));
            };
            let (name, missing) = match inner.split_once(" (") {
                Some((name, size)) if size.ends_with(" bytes)") => (name, false),
                _ => match inner.split_once(": ") {
                    Some((name, _why)) => (name, true),
                    None => return Err(LineError::new(n, 5, "`name (N bytes)` or `name: why`")),
                },
            };
            section.programs.push(ProgramText { name, line: n, lines: Vec::new(), missing });
            open = !missing;
            continue;
        }
        let program = out.last_mut().and_then(|s| s.programs.last_mut()).filter(|_| open);
        match program {
            Some(p) => p.lines.push(line),
            None if line.trim().is_empty() || line.trim_start().starts_with(';') => {}
            None => {
                return Err(LineError::new(
                    n,
                    0,
                    "a shader's summary line (`VS mode=…`) or a `---- vertex (N bytes) ----` line",
                ));
            }
        }
    }
    if let Some((_, n)) = heading {
        return Err(LineError::new(n + 1, 0, "the summary line of the binary named before"));
    }
    Ok(out)
}

/// A section against the shader it is of: its summary line must be the struct's, and its
/// programs the ones the shader has (`present`: whether each of [`Kind::programs`] is there).
/// Gives, per program of the kind, the text of it when there is one.
pub fn match_section<'s, 't>(
    section: &'s Section<'t>,
    summary: &str,
    kind: Kind,
    present: &[bool],
) -> Result<Vec<Option<&'s ProgramText<'t>>>, LineError> {
    let (line, n) = section.summary;
    if line.trim_end() != summary {
        return Err(LineError::new(
            n,
            0,
            format!("the original's summary line `{summary}` (a shader's struct is not assembled from text)"),
        ));
    }
    let mut texts = section.programs.iter();
    let mut out = Vec::new();
    for (&(name, _), &there) in kind.programs().iter().zip(present) {
        let t = texts.next();
        match t {
            Some(t) if t.name == name && t.missing != there => out.push(Some(t).filter(|t| !t.missing)),
            Some(t) => {
                let what = if there { "a program" } else { "a program listed as missing" };
                return Err(LineError::new(
                    t.line,
                    0,
                    format!("`---- {name} … ----` ({what}, as in the original)"),
                ));
            }
            None => {
                return Err(LineError::new(
                    n,
                    0,
                    format!("a shader with its `---- {name} … ----` program after it"),
                ));
            }
        }
    }
    if let Some(t) = texts.next() {
        return Err(LineError::new(t.line, 0, "the next shader (the original's has no more programs)"));
    }
    Ok(out)
}

impl<'a> Shader<'a> {
    /// What changes when its programs become `program` and (geometry) `copy` (`None`:
    /// unchanged): the size fields and the register fields [`fit_program`](Self::fit_program)
    /// recomputes.
    pub fn edit<'s>(&'s self, title: &str, program: Option<&[u8]>, copy: Option<&[u8]>) -> Edit<'s, 'a> {
        let l = self.layout();
        let mut words = Vec::new();
        let mut fitted = self.clone();
        let mut notes = Vec::new();
        if let Some(p) = program {
            let size = p.len() as u32;
            if size != self.size {
                words.push((self.at + l.size as u64, size));
                fitted.size = size;
            }
            notes.extend(fitted.fit_program(p).into_iter().map(|s| format!("{title}: {s}")));
            for (i, (new, old)) in fitted.regs.iter().zip(&self.regs).enumerate() {
                if new != old {
                    words.push((self.at + 4 * i as u64, *new));
                }
            }
        }
        if let (Some(c), Some(at)) = (copy, l.copy) {
            if c.len() as u32 != self.copy_size {
                words.push((self.at + at as u64, c.len() as u32));
                fitted.copy_size = c.len() as u32;
            }
        }
        if let Some(h) = super::cemu_hash(&fitted, program) {
            notes.push(format!("{title}: Cemu hash {}", h.text()));
        }
        Edit { original: self, words, notes }
    }

    /// Set the register fields that follow from the microcode `code` to what it needs, where
    /// [`check_program`](Self::check_program) would find them wrong: `NUM_GPRS` raised to the
    /// highest register used + 1, a vertex shader's `VS_EXPORT_COUNT` to its parameters, a
    /// pixel shader's `EXPORT_MODE`, `CB_SHADER_MASK` and `Z_EXPORT_ENABLE` to its exports.
    /// `STACK_SIZE` is kept (the stack depth is not computed). Returns what changed.
    pub fn fit_program(&mut self, code: &[u8]) -> Vec<String> {
        let usage = crate::isa::latte::usage(code, 0);
        let mut said = Vec::new();
        let resources = self.resources_reg();
        let highest = super::check::highest_gpr(&usage);
        if let (Some(r), Some(n), false) =
            (highest, self.reg_field(resources, "NUM_GPRS"), usage.relative_gprs)
        {
            if r >= n {
                self.set_field(resources, "NUM_GPRS", r + 1, &mut said);
            }
        }
        match self.kind {
            Kind::Vertex => {
                let params = usage.exports.params.len();
                if let Some(count) = self.reg_field("SPI_VS_OUT_CONFIG", "VS_EXPORT_COUNT") {
                    if params > 0 && params != count + 1 {
                        self.set_field("SPI_VS_OUT_CONFIG", "VS_EXPORT_COUNT", params - 1, &mut said);
                    }
                }
            }
            Kind::Pixel => {
                let e = &usage.exports;
                let colors = (0..8).filter(|&rt| e.pixels.contains(rt)).count() as u32;
                let depth = e.pixels.contains(61);
                let mode = match (colors << 1) | u32::from(depth) {
                    0 => 2,
                    m => m,
                };
                self.set_field("SQ_PGM_EXPORTS_PS", "EXPORT_MODE", mode, &mut said);
                if let Some(mask) = self.reg("CB_SHADER_MASK") {
                    let mut fitted = mask;
                    for rt in 0..8 {
                        let nibble = 0xF << (4 * rt);
                        match (e.pixels.contains(rt), mask & nibble != 0) {
                            (true, false) => fitted |= nibble,
                            (false, true) => fitted &= !nibble,
                            _ => {}
                        }
                    }
                    if fitted != mask {
                        self.set_word("CB_SHADER_MASK", fitted);
                        said.push(format!("CB_SHADER_MASK 0x{mask:x} → 0x{fitted:x}"));
                    }
                }
                self.set_field("DB_SHADER_CONTROL", "Z_EXPORT_ENABLE", u32::from(depth), &mut said);
            }
            Kind::Geometry => {}
        }
        said
    }

    /// Set field `field` of register `name` to `value` if it is not that already, saying so.
    fn set_field(&mut self, name: &str, field: &str, value: u32, said: &mut Vec<String>) {
        let Some(slot) = self.layout().regs.iter().find(|s| s.name == name) else { return };
        let (Some(f), Some(word)) = (slot.def.and_then(|d| d.field(field)), self.reg(name)) else { return };
        let old = f.field.get(word);
        if old != value {
            self.set_word(name, (word & !f.field.mask::<u32>()) | f.field.put(value));
            said.push(format!("{name}.{field} {old} → {value}"));
        }
    }

    /// Set the register word `name`.
    fn set_word(&mut self, name: &str, value: u32) {
        if let Some(w) = super::regs::index_of(self.layout().regs, name).and_then(|i| self.regs.get_mut(i)) {
            *w = value;
        }
    }
}

/// `asm --verify` lines for a shader's struct against the original's: each register word
/// that differs (`vertex shader 0 SQ_PGM_RESOURCES_VS  NUM_GPRS=5 (the original NUM_GPRS=3)`),
/// the size fields, and, when its program changed, that `STACK_SIZE` is the original's.
pub fn compare_structs(title: &str, ours: &Shader<'_>, theirs: &Shader<'_>) -> Vec<String> {
    let mut lines = Vec::new();
    for (a, b) in ours.registers().zip(theirs.registers()) {
        if a.value != b.value {
            lines.push(format!("{title} {}  {} (the original {})", a.label(), a.describe(), b.describe()));
        }
    }
    let sizes =
        [("program size", ours.size, theirs.size), ("copy program size", ours.copy_size, theirs.copy_size)];
    for (what, a, b) in sizes {
        if a != b {
            lines.push(format!("{title} {what}  {a} (the original {b})"));
        }
    }
    let resources = ours.resources_reg();
    if !lines.is_empty() {
        lines.push(format!(
            "{title} {resources}.STACK_SIZE  kept from the original (the program changed; its stack depth is not computed)"
        ));
    }
    lines
}
