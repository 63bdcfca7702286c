//! Wii U AGL shader source archives (`.sharc`, `agl::ResShaderArchive`): GLSL sources and the
//! programs built from them, with per-stage macros, variation macros and symbols. The
//! compiled form is a SHARCFB ([`crate::format::sharcfb`]).
//!
//! ```text
//! header     magic "SHAA" (a little-endian file, whose every header word is swapped,
//!            starts "AAHS"), version (11), file size, endian (0 big, 1 little),
//!            name length, name
//! programs   {u32 size, u32 count}, then per program {size, name length, s32 source
//!            index VS, PS, GS (-1: none)}, name, macro arrays for VS, PS, GS ({size, name
//!            length, value length}, name, value), variation macros, variation defaults,
//!            symbol arrays: uniform vars, uniform blocks, sampler vars, attrib vars
//! sources    {u32 size, u32 count}, then per source {size, name length, text length,
//!            raw text length}, name, text
//! ```
//!
//! As in a SHARCFB every record starts with its size and what it holds past its fields is
//! kept, so [`Sharc::write`] gives an unmodified archive back byte for byte. The records
//! follow one another and hold no offsets, so no two can share bytes; programs name sources
//! by index, and sharing a source (one file for both stages) is how AGL archives are made, so
//! it is no finding (a line about a program cuts the source's name, see [`ResText::shown`]).
//!
//! ```
//! use shaderscope::format::sharc::{Sharc, Source, SourceProgram};
//! use shaderscope::toolkit::Endian;
//!
//! let mut archive = Sharc::new("demo", Endian::Little);
//! archive.sources.items.push(Source::new("demo.glsl", "void main() {}\n"));
//! archive.programs.items.push(SourceProgram::new("demo", [0, 0, -1]));
//! let bytes = archive.write()?;
//! assert_eq!(&bytes[..4], b"AAHS");
//! let parsed = Sharc::parse(&bytes)?;
//! assert_eq!(parsed.sources.items[0].text(), "void main() {}\n");
//! assert_eq!(parsed.write()?, bytes);
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::format::sharcfb::res::{self, ResArray, ResText, Symbol, SymbolKind, Variation};
use crate::model::{Finding, Part};
use crate::print::{Printer, Style};
use crate::toolkit::{Endian, Reader, Writer};
use serde::Serialize;

/// Size of the archive header before the name.
pub const HEADER_SIZE: usize = 0x14;
/// Size of a program's header.
pub(crate) const PROGRAM_HEADER: usize = 0x14;
/// Size of a macro's header.
pub(crate) const MACRO_HEADER: usize = 0xc;
/// Size of a source's header.
pub(crate) const SOURCE_HEADER: usize = 0x10;
/// The version AGL reads (`ResShaderArchiveData::cVersion`).
pub(crate) const VERSION: u32 = 11;
/// The magic as a 32-bit word in the file's byte order: `SHAA` big-endian, `AAHS` little.
const MAGIC: u32 = 0x5348_4141;

/// The stages a program names a source for, in file order.
pub(crate) const STAGES: [&str; 3] = ["vertex", "pixel", "geometry"];

/// A macro a program defines for one stage (`agl::ResShaderMacro`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Macro {
    /// Its name.
    pub name: ResText,
    /// Its value.
    pub value: ResText,
    /// Bytes past the value within the record's size.
    pub tail: Vec<u8>,
    /// Absolute offset of the record.
    pub at: u64,
}

impl Macro {
    /// `name` defined as `value`.
    pub fn new(name: &str, value: &str) -> Self {
        Macro { name: ResText::new(name), value: ResText::new(value), ..Macro::default() }
    }

    /// The record's size as written.
    pub fn size(&self) -> u64 {
        (MACRO_HEADER + self.name.len() + self.value.len() + self.tail.len()) as u64
    }
}

/// A program (`agl::ResShaderProgram`): which source each stage compiles, with its macros,
/// variations and symbols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceProgram {
    /// Its name.
    pub name: ResText,
    /// The source index of the vertex, pixel and geometry shader (-1: none).
    pub source_index: [i32; 3],
    /// The macros of each stage.
    pub macros: [ResArray<Macro>; 3],
    /// The variation macros with all their values.
    pub variations: ResArray<Variation>,
    /// The variation macros with their default value.
    pub defaults: ResArray<Variation>,
    /// Uniform vars, uniform blocks, sampler vars, attrib vars.
    pub symbols: [ResArray<Symbol>; 4],
    /// Bytes after the last symbol array within the program's size.
    pub tail: Vec<u8>,
    /// Absolute offset of the program's header.
    pub at: u64,
}

impl SourceProgram {
    /// A program `name` compiling the sources at `source_index` (VS, PS, GS; -1 none).
    pub fn new(name: &str, source_index: [i32; 3]) -> Self {
        SourceProgram {
            name: ResText::new(name),
            source_index,
            macros: Default::default(),
            variations: ResArray::default(),
            defaults: ResArray::default(),
            symbols: Default::default(),
            tail: Vec::new(),
            at: 0,
        }
    }

    /// The record's size as written.
    pub fn size(&self) -> u64 {
        PROGRAM_HEADER as u64
            + self.name.len() as u64
            + self.macros.iter().map(|a| a.size(Macro::size)).sum::<u64>()
            + self.variations.size(Variation::size)
            + self.defaults.size(Variation::size)
            + self.symbols.iter().map(|a| a.size(Symbol::size)).sum::<u64>()
            + self.tail.len() as u64
    }
}

/// One source file (`agl::ResShaderSource`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Source {
    /// Its file name.
    pub name: ResText,
    /// Its text as stored (`textLen` bytes).
    pub text: Vec<u8>,
    /// Absolute offset of the text.
    pub text_at: u64,
    /// `rawTextLen`: the length after resolving includes and AGL's own macros (unused by AGL).
    pub raw_text_len: u32,
    /// Bytes past the text within the record's size.
    pub tail: Vec<u8>,
    /// Absolute offset of the record.
    pub at: u64,
}

impl Source {
    /// A source `name` with `text` (stored with a terminating NUL).
    pub fn new(name: &str, text: &str) -> Self {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        Source {
            name: ResText::new(name),
            raw_text_len: bytes.len() as u32,
            text: bytes,
            ..Source::default()
        }
    }

    /// The text without the NULs that end it (as AGL's `getTextLength`), invalid UTF-8
    /// replaced.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(self.text_bytes()).into_owned()
    }

    /// The text's bytes without the NULs that end it.
    pub fn text_bytes(&self) -> &[u8] {
        let n = self.text.iter().rposition(|&b| b != 0).map_or(0, |k| k + 1);
        self.text.get(..n).unwrap_or(&[])
    }

    /// The record's size as written.
    pub fn size(&self) -> u64 {
        (SOURCE_HEADER + self.name.len() + self.text.len() + self.tail.len()) as u64
    }
}

/// A `.sharc` source archive, parsed into an editable model that keeps every byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sharc {
    /// Byte order: `SHAA` big, `AAHS` little.
    pub endian: Endian,
    /// Version (11).
    pub version: u32,
    /// The endian field as stored (0 big, 1 little).
    pub endian_field: u32,
    /// The archive's name.
    pub name: ResText,
    /// The programs.
    pub programs: ResArray<SourceProgram>,
    /// The sources.
    pub sources: ResArray<Source>,
    /// Bytes between the source section and the stated file size.
    pub tail: Vec<u8>,
    /// Bytes after the stated file size.
    pub trailing: Vec<u8>,
}

impl Sharc {
    /// An empty archive `name` in byte order `endian`.
    pub fn new(name: &str, endian: Endian) -> Self {
        Sharc {
            endian,
            version: VERSION,
            endian_field: crate::format::sharcfb::endian_field(endian),
            name: ResText::new(name),
            programs: ResArray::default(),
            sources: ResArray::default(),
            tail: Vec::new(),
            trailing: Vec::new(),
        }
    }

    /// Parse an archive of either byte order.
    pub fn parse(data: &[u8]) -> Result<Sharc> {
        let endian = match data.get(..4) {
            Some(b"SHAA") => Endian::Big,
            Some(b"AAHS") => Endian::Little,
            Some(other) => return Err(Error::bad_magic(0, "SHARC header", b"SHAA", other)),
            None => return Err(Error::truncated(0, "SHARC header", HEADER_SIZE as u64, data.len() as u64)),
        };
        let r = Reader::new(data, endian);
        r.bytes_at(0, HEADER_SIZE, "SHARC header")?;
        let version = r.u32_at(4, "SHARC version")?;
        let file_size = r.u32_at(8, "SHARC file size")? as usize;
        if file_size > data.len() {
            return Err(Error::truncated(0, "SHARC file", file_size as u64, data.len() as u64));
        }
        let endian_field = r.u32_at(0xc, "SHARC endian")?;
        let name_len = r.u32_at(0x10, "SHARC name length")? as usize;
        let name = res::read_text(&r, HEADER_SIZE, name_len, file_size, "SHARC name")?;
        let prog_at = HEADER_SIZE + name_len;
        let programs =
            res::read_array(&r, prog_at, file_size, "program", PROGRAM_HEADER, |s| read_program(&r, s))?;
        let src_at = prog_at + r.u32_at(prog_at, "program array size")? as usize;
        let sources =
            res::read_array(&r, src_at, file_size, "source", SOURCE_HEADER, |s| read_source(&r, s))?;
        let end = src_at + r.u32_at(src_at, "source array size")? as usize;
        Ok(Sharc {
            endian,
            version,
            endian_field,
            name,
            programs,
            sources,
            tail: r.bytes_at(end, file_size - end, "SHARC file")?.to_vec(),
            trailing: data.get(file_size..).unwrap_or(&[]).to_vec(),
        })
    }

    /// The archive's bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new(self.endian);
        w.u32(MAGIC);
        w.u32(self.version);
        w.u32(0);
        w.u32(self.endian_field);
        w.u32(res::len32(self.name.len(), 0x10)?);
        w.bytes(&self.name.bytes);
        res::write_array(&mut w, &self.programs, write_program)?;
        res::write_array(&mut w, &self.sources, |w, s| {
            w.u32(0);
            let at = w.len();
            w.u32(res::len32(s.name.len(), at)?);
            w.u32(res::len32(s.text.len(), at)?);
            w.u32(s.raw_text_len);
            w.bytes(&s.name.bytes);
            w.bytes(&s.text);
            w.bytes(&s.tail);
            Ok(())
        })?;
        w.bytes(&self.tail);
        let size = res::len32(w.len(), 8)?;
        w.patch_u32(8, size);
        w.bytes(&self.trailing);
        Ok(w.finish())
    }

    /// The file size the writer states.
    pub fn file_size(&self) -> u64 {
        HEADER_SIZE as u64
            + self.name.len() as u64
            + self.programs.size(SourceProgram::size)
            + self.sources.size(Source::size)
            + self.tail.len() as u64
    }

    /// The name `extract` gives source `index`: its file name when that is not empty and no
    /// other source has it, else `source<index>` ([`Sharc::part_names`] gives them all).
    pub fn part_name(&self, index: usize) -> String {
        self.part_names().into_iter().nth(index).unwrap_or_else(|| format!("source{index}"))
    }

    /// The part name of every source: names counted once for the whole table (in any case),
    /// not again for each source (that cost the table's size squared).
    pub fn part_names(&self) -> Vec<String> {
        let items = &self.sources.items;
        let names: Vec<_> = items.iter().map(|s| s.name.text()).collect();
        let mut count: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for n in &names {
            *count.entry(n.to_ascii_lowercase()).or_default() += 1;
        }
        names
            .iter()
            .enumerate()
            .map(|(index, name)| {
                let unique = count.get(&name.to_ascii_lowercase()) == Some(&1);
                if name.is_empty()
                    || !unique
                    || name.strip_prefix("source").is_some_and(|r| r.parse::<usize>().is_ok())
                {
                    format!("source{index}")
                } else {
                    name.to_string()
                }
            })
            .collect()
    }
}

fn read_program(r: &Reader<'_>, s: res::Slot) -> Result<SourceProgram> {
    let what = format!("program {}", s.index);
    let name_len = r.u32_at(s.at + 4, format!("{what} name length"))? as usize;
    let mut source_index = [0i32; 3];
    for (k, x) in source_index.iter_mut().enumerate() {
        *x = r.u32_at(s.at + 8 + 4 * k, format!("{what} source index"))? as i32;
    }
    let name = res::read_text(r, s.at + PROGRAM_HEADER, name_len, s.end, &format!("{what} name"))?;
    let mut at = s.at + PROGRAM_HEADER + name_len;
    let mut macros: [ResArray<Macro>; 3] = Default::default();
    for (k, m) in macros.iter_mut().enumerate() {
        let mwhat = format!("{what} {} macro", STAGES.get(k).copied().unwrap_or("?"));
        *m = res::read_array(r, at, s.end, &mwhat, MACRO_HEADER, |slot| {
            let w = format!("{mwhat} {}", slot.index);
            let name_len = r.u32_at(slot.at + 4, format!("{w} name length"))? as usize;
            let value_len = r.u32_at(slot.at + 8, format!("{w} value length"))? as usize;
            let name = res::read_text(r, slot.at + MACRO_HEADER, name_len, slot.end, &format!("{w} name"))?;
            let vat = slot.at + MACRO_HEADER + name_len;
            let value = res::read_text(r, vat, value_len, slot.end, &format!("{w} value"))?;
            let end = vat + value_len;
            let tail = r.bytes_at(end, slot.end - end, w)?.to_vec();
            Ok(Macro { name, value, tail, at: slot.at as u64 })
        })?;
        at += r.u32_at(at, "macro array size")? as usize;
    }
    let var_what = format!("{what} variation macro");
    let variations = res::read_array(r, at, s.end, &var_what, res::VARIATION_HEADER, |v| {
        Variation::read(r, v, &format!("{var_what} {}", v.index))
    })?;
    at += r.u32_at(at, "variation array size")? as usize;
    let def_what = format!("{what} variation default");
    let defaults = res::read_array(r, at, s.end, &def_what, res::VARIATION_HEADER, |v| {
        Variation::read(r, v, &format!("{def_what} {}", v.index))
    })?;
    at += r.u32_at(at, "variation default array size")? as usize;
    let (symbols, end) = res::read_symbol_arrays(r, at, s.end, &format!("{what} "), None)?;
    let tail = r.bytes_at(end, s.end - end, what)?.to_vec();
    Ok(SourceProgram { name, source_index, macros, variations, defaults, symbols, tail, at: s.at as u64 })
}

fn read_source(r: &Reader<'_>, s: res::Slot) -> Result<Source> {
    let what = format!("source {}", s.index);
    let name_len = r.u32_at(s.at + 4, format!("{what} name length"))? as usize;
    let text_len = r.u32_at(s.at + 8, format!("{what} text length"))? as usize;
    let raw_text_len = r.u32_at(s.at + 12, format!("{what} raw text length"))?;
    let name = res::read_text(r, s.at + SOURCE_HEADER, name_len, s.end, &format!("{what} name"))?;
    let text_at = s.at + SOURCE_HEADER + name_len;
    let text = res::read_within(r, text_at, text_len, s.end, &format!("{what} text"))?.to_vec();
    let end = text_at + text_len;
    let tail = r.bytes_at(end, s.end - end, what)?.to_vec();
    Ok(Source { name, text, text_at: text_at as u64, raw_text_len, tail, at: s.at as u64 })
}

fn write_program(w: &mut Writer, p: &SourceProgram) -> Result<()> {
    w.u32(0);
    let at = w.len();
    w.u32(res::len32(p.name.len(), at)?);
    for x in p.source_index {
        w.u32(x as u32);
    }
    w.bytes(&p.name.bytes);
    for m in &p.macros {
        res::write_array(w, m, |w, m| {
            w.u32(0);
            let at = w.len();
            w.u32(res::len32(m.name.len(), at)?);
            w.u32(res::len32(m.value.len(), at)?);
            w.bytes(&m.name.bytes);
            w.bytes(&m.value.bytes);
            w.bytes(&m.tail);
            Ok(())
        })?;
    }
    res::write_array(w, &p.variations, |w, v| v.write(w))?;
    res::write_array(w, &p.defaults, |w, v| v.write(w))?;
    res::write_symbol_arrays(w, &p.symbols, None)?;
    w.bytes(&p.tail);
    Ok(())
}

/// The `info` record of a `.sharc` archive (offsets absolute).
#[derive(Debug, Clone, Serialize)]
pub struct Info {
    /// One line: programs and sources.
    pub summary: String,
    /// The archive's name.
    pub name: String,
    /// Version field.
    pub version: u32,
    /// Byte order (`big` for `SHAA`, `little` for `AAHS`).
    pub endian: Endian,
    /// The endian field (0 big, 1 little).
    pub endian_field: u32,
    /// The stated file size.
    pub file_size: u64,
    /// Every program.
    pub programs: Vec<ProgramInfo>,
    /// Every source.
    pub sources: Vec<SourceInfo>,
}

/// One program of a source archive.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramInfo {
    /// Its index.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Absolute offset of its header.
    pub offset: u64,
    /// The source of the vertex, pixel and geometry shader (index and name; `null`: none).
    pub sources: Vec<Option<SourceRef>>,
    /// The macros of the vertex, pixel and geometry shader, as `NAME=VALUE`.
    pub macros: Vec<Vec<String>>,
    /// The variation macros: name, ID, values, default.
    pub variations: Vec<crate::format::sharcfb::info::MacroInfo>,
    /// How many symbols of each kind: uniform vars, uniform blocks, sampler vars, attrib vars.
    pub symbol_counts: [usize; 4],
}

/// A program's reference to a source.
#[derive(Debug, Clone, Serialize)]
pub struct SourceRef {
    /// The source's index.
    pub index: i32,
    /// Its name, when the index is in range.
    pub name: Option<String>,
}

/// One source.
#[derive(Debug, Clone, Serialize)]
pub struct SourceInfo {
    /// Its index.
    pub index: usize,
    /// Its file name.
    pub name: String,
    /// The name `extract` takes for it.
    pub part: String,
    /// Absolute offset of its header.
    pub offset: u64,
    /// Absolute offset of its text.
    pub text_offset: u64,
    /// The text's length as stored.
    pub text_size: u64,
    /// The raw text length field.
    pub raw_text_size: u32,
    /// Lines of text.
    pub lines: usize,
}

impl Info {
    /// The record of `f`.
    pub fn new(f: &Sharc) -> Info {
        let sources: Vec<SourceInfo> = f
            .sources
            .items
            .iter()
            .zip(f.part_names())
            .enumerate()
            .map(|(i, (s, part))| SourceInfo {
                index: i,
                name: s.name.text().into_owned(),
                part,
                offset: s.at,
                text_offset: s.text_at,
                text_size: s.text.len() as u64,
                raw_text_size: s.raw_text_len,
                lines: s.text_bytes().split(|&b| b == b'\n').count(),
            })
            .collect();
        let programs: Vec<ProgramInfo> = f
            .programs
            .items
            .iter()
            .enumerate()
            .map(|(i, p)| ProgramInfo {
                index: i,
                name: p.name.text().into_owned(),
                offset: p.at,
                sources: p
                    .source_index
                    .iter()
                    .map(|&x| {
                        (x >= 0).then(|| SourceRef {
                            index: x,
                            // Cut: every program may name one long-named source.
                            name: f.sources.items.get(x as usize).map(|s| s.name.shown().into_owned()),
                        })
                    })
                    .collect(),
                macros: p
                    .macros
                    .iter()
                    .map(|a| {
                        a.items.iter().map(|m| format!("{}={}", m.name.text(), m.value.text())).collect()
                    })
                    .collect(),
                variations: crate::format::sharcfb::info::macros(&p.variations, &p.defaults),
                symbol_counts: [0, 1, 2, 3].map(|k| p.symbols.get(k).map_or(0, |a| a.items.len())),
            })
            .collect();
        Info {
            summary: format!(
                "{} program{}, {} source{}",
                programs.len(),
                if programs.len() == 1 { "" } else { "s" },
                sources.len(),
                if sources.len() == 1 { "" } else { "s" }
            ),
            name: f.name.text().into_owned(),
            version: f.version,
            endian: f.endian,
            endian_field: f.endian_field,
            file_size: f.file_size(),
            programs,
            sources,
        }
    }

    /// The readable text of the same facts.
    pub fn write_text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        writeln!(s, "format: {}", Format::Sharc.description())?;
        writeln!(s, "summary: {}", self.summary)?;
        let magic = if self.endian == Endian::Big { "SHAA" } else { "AAHS" };
        writeln!(
            s,
            "archive \"{}\": version {}, {}-endian ({magic}), endian field {}, file size {}",
            self.name,
            self.version,
            self.endian.name(),
            self.endian_field,
            self.file_size
        )?;
        for p in &self.programs {
            writeln!(s, "program {} \"{}\" at 0x{:x}", p.index, p.name, p.offset)?;
            for (k, src) in p.sources.iter().enumerate() {
                let stage = STAGES.get(k).copied().unwrap_or("?");
                let Some(src) = src else { continue };
                let name = src.name.as_deref().unwrap_or("(index out of range)");
                let macros =
                    p.macros.get(k).filter(|m| !m.is_empty()).map(|m| format!("; macros {}", m.join(" ")));
                writeln!(s, "  {stage}: source {} \"{name}\"{}", src.index, macros.unwrap_or_default())?;
            }
            for m in &p.variations {
                writeln!(
                    s,
                    "  variation macro {} (ID {}): {}; default {}",
                    m.name,
                    m.id,
                    m.values.join(" | "),
                    m.default.as_deref().unwrap_or("(none: the first value)")
                )?;
            }
            let [u, b, t, a] = p.symbol_counts;
            writeln!(
                s,
                "  symbols: {u} uniform vars, {b} uniform blocks, {t} sampler vars, {a} attrib vars"
            )?;
        }
        for src in &self.sources {
            writeln!(
                s,
                "source {} \"{}\" at 0x{:x}: text at 0x{:x}, {} bytes, {} lines (extract: {})",
                src.index, src.name, src.offset, src.text_offset, src.text_size, src.lines, src.part
            )?;
        }
        Ok(())
    }
}

impl Container for Sharc {
    fn format(&self) -> Format {
        Format::Sharc
    }

    fn write_info_text(&self, out: &mut dyn std::fmt::Write) -> std::fmt::Result {
        Info::new(self).write_text(out)
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        crate::json::write_info(out, &Info::new(self))
    }

    /// A source archive holds no compiled code: the listing is its sources, each under a
    /// comment line that names it.
    fn disasm(&self, _opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        let fail = |_| Error::invalid(0, "listing", "the printer failed");
        for (i, s) in self.sources.items.iter().enumerate() {
            if i > 0 {
                out.start_line(None);
                out.write_str("\n").map_err(fail)?;
            }
            out.start_line(Some(s.at));
            out.style(Style::Comment);
            write!(out, "// source {i}: {} ({} bytes at 0x{:x})", s.name.text(), s.text.len(), s.text_at)
                .map_err(fail)?;
            out.reset();
            out.write_str("\n").map_err(fail)?;
            let text = s.text();
            let mut at = s.text_at;
            for line in text.lines() {
                out.start_line(Some(at));
                out.write_str(line).map_err(fail)?;
                out.write_str("\n").map_err(fail)?;
                at += line.len() as u64 + 1;
            }
        }
        Ok(())
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn crate::json::DisasmSink) -> Result<()> {
        self.disasm(opts, out.listing())
    }

    fn annotate(&self, a: &mut Annotations) {
        annotate(self, a);
    }

    fn validate(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        if self.endian_field != crate::format::sharcfb::endian_field(self.endian) {
            out.push(Finding::error(
                0xc,
                format!(
                    "endian field {} contradicts the magic ({} file)",
                    self.endian_field,
                    self.endian.name()
                ),
            ));
        }
        if self.version != VERSION {
            out.push(Finding::warning(4, format!("version {} (AGL reads {VERSION})", self.version)));
        }
        let n = self.sources.items.len();
        for (i, p) in self.programs.items.iter().enumerate() {
            for (k, &x) in p.source_index.iter().enumerate() {
                if x < -1 || x >= 0 && x as usize >= n {
                    out.push(Finding::error(
                        p.at + 8 + 4 * k as u64,
                        format!(
                            "program {i} \"{}\": {} source index {x} is not a source (the archive has {n})",
                            p.name.text(),
                            STAGES.get(k).copied().unwrap_or("?")
                        ),
                    ));
                }
            }
        }
        out
    }

    fn write(&self) -> Result<Vec<u8>> {
        Sharc::write(self)
    }

    fn parts(&self) -> Vec<Part<'_>> {
        self.sources
            .items
            .iter()
            .zip(self.part_names())
            .map(|(s, name)| {
                Part::new(name, s.text_at, s.text_bytes(), format!("source \"{}\"", s.name.text()))
            })
            .collect()
    }
}

fn annotate(f: &Sharc, a: &mut Annotations) {
    use crate::format::sharcfb::annotate as p;
    let magic = if f.endian == Endian::Big { "SHAA" } else { "AAHS" };
    a.section(0, HEADER_SIZE as u64 + f.name.len() as u64, "SHARC header");
    a.field(0, 4, format_args!("magic \"{magic}\" ({}-endian)", f.endian.name()));
    a.field(4, 4, format_args!("version: {}", f.version));
    a.field(8, 4, format_args!("file size: {}", f.file_size()));
    a.field(0xc, 4, format_args!("endian: {}", f.endian_field));
    a.field(0x10, 4, format_args!("name length: {}", f.name.len()));
    p::text(a, &f.name, "name");
    let psize = f.programs.size(SourceProgram::size);
    a.section(f.programs.at, psize, format_args!("programs ({})", f.programs.items.len()));
    p::array_header(a, &f.programs, psize, "program");
    for (i, prog) in f.programs.items.iter().enumerate() {
        let size = prog.size();
        a.section(prog.at, size, format_args!("program {i} \"{}\"", prog.name.text()));
        a.field(prog.at, 4, format_args!("size: 0x{size:x}"));
        a.field(prog.at + 4, 4, format_args!("name length: {}", prog.name.len()));
        for (k, x) in prog.source_index.iter().enumerate() {
            let stage = STAGES.get(k).copied().unwrap_or("?");
            a.field(prog.at + 8 + 4 * k as u64, 4, format_args!("{stage} source index: {x}"));
        }
        p::text(a, &prog.name, "name");
        for (k, arr) in prog.macros.iter().enumerate() {
            let stage = STAGES.get(k).copied().unwrap_or("?");
            let what = format!("{stage} macro");
            let size = arr.size(Macro::size);
            a.section(arr.at, size, format_args!("{what}s ({})", arr.items.len()));
            p::array_header(a, arr, size, &what);
            for (j, m) in arr.items.iter().enumerate() {
                a.section(m.at, m.size(), format_args!("{what} {j}"));
                a.field(m.at, 4, format_args!("size: 0x{:x}", m.size()));
                a.field(m.at + 4, 4, format_args!("name length: {}", m.name.len()));
                a.field(m.at + 8, 4, format_args!("value length: {}", m.value.len()));
                p::text(a, &m.name, "name");
                p::text(a, &m.value, "value");
                p::tail(a, m.value.at + m.value.len() as u64, &m.tail, "macro");
            }
            p::tail(a, arr.at + size - arr.tail.len() as u64, &arr.tail, &what);
        }
        p::variations(a, &prog.variations, "variation macro");
        p::variations(a, &prog.defaults, "variation default");
        for (k, kind) in SymbolKind::ALL.into_iter().enumerate() {
            if let Some(arr) = prog.symbols.get(k) {
                p::symbols(a, arr, kind, f.endian);
            }
        }
        p::tail(a, prog.at + size - prog.tail.len() as u64, &prog.tail, "program");
    }
    let end = f.programs.at + psize;
    p::tail(a, end - f.programs.tail.len() as u64, &f.programs.tail, "program section");
    let ssize = f.sources.size(Source::size);
    a.section(f.sources.at, ssize, format_args!("sources ({})", f.sources.items.len()));
    p::array_header(a, &f.sources, ssize, "source");
    for (i, s) in f.sources.items.iter().enumerate() {
        a.section(s.at, s.size(), format_args!("source {i} \"{}\"", s.name.text()));
        a.field(s.at, 4, format_args!("size: 0x{:x}", s.size()));
        a.field(s.at + 4, 4, format_args!("name length: {}", s.name.len()));
        a.field(s.at + 8, 4, format_args!("text length: {}", s.text.len()));
        a.field(s.at + 12, 4, format_args!("raw text length: {}", s.raw_text_len));
        p::text(a, &s.name, "name");
        if !s.text.is_empty() {
            let lines = s.text_bytes().split(|&b| b == b'\n').count();
            a.field(s.text_at, s.text.len() as u64, format_args!("text: {lines} lines of GLSL"));
        }
        p::tail(a, s.text_at + s.text.len() as u64, &s.tail, "source");
    }
    let send = f.sources.at + ssize;
    p::tail(a, send - f.sources.tail.len() as u64, &f.sources.tail, "source section");
    p::tail(a, send, &f.tail, "file");
    if !f.trailing.is_empty() {
        a.field(f.file_size(), f.trailing.len() as u64, "bytes past the stated file size");
    }
}
