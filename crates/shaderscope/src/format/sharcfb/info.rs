//! What `info` says about a SHARCFB archive: one [`Info`] value, serialised for `--json` and
//! written as text by [`Info::write_text`], so the two say the same.
//!
//! ```
//! use shaderscope::format::sharcfb::{Binary, BinaryType, Info, Program, Sharcfb};
//! use shaderscope::toolkit::Endian;
//!
//! let mut archive = Sharcfb::new("demo", Endian::Big);
//! archive.binaries.items.push(Binary::new(BinaryType::VERTEX, vec![0; 4]));
//! archive.binaries.items.push(Binary::new(BinaryType::PIXEL, vec![0; 4]));
//! archive.programs.items.push(Program::new("model", 3, 0));
//! let archive = Sharcfb::parse(&archive.write()?)?;
//! let info = Info::new(&archive);
//! assert_eq!(info.summary, "2 binaries (VS, PS), 1 program");
//! assert_eq!(serde_json::to_value(&info).unwrap()["binaries"][1]["used_by"][0]["stage"], "pixel");
//! let mut text = String::new();
//! info.write_text(&mut text);
//! assert!(text.contains("  binary 1 at 0x39: PS, data at 0x49, 0x4 bytes; used as pixel of program \"model\" variation 0\n"));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::res::{ResArray, SymbolKind, Variation};
use super::{Program, Sharcfb};
use crate::toolkit::Endian;
use serde::Serialize;
use std::fmt::Write as _;

/// The `info` record of a SHARCFB archive (offsets absolute).
#[derive(Debug, Clone, Serialize)]
pub struct Info {
    /// One line: binaries and programs.
    pub summary: String,
    /// The archive's name.
    pub name: String,
    /// Version field.
    pub version: u32,
    /// Byte order (`big` for `SHAB`, `little` for `BAHS`).
    pub endian: Endian,
    /// The endian field (0 big, 1 little).
    pub endian_field: u32,
    /// The resolved flag (0 on disk).
    pub resolved: u32,
    /// The stated file size.
    pub file_size: u64,
    /// The binary section.
    pub binary_section: Section,
    /// Every binary.
    pub binaries: Vec<BinaryInfo>,
    /// The program section.
    pub program_section: Section,
    /// Every program.
    pub programs: Vec<ProgramInfo>,
}

/// Where a section is.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Section {
    /// Absolute offset of its header.
    pub offset: u64,
    /// Its size, header included.
    pub size: u64,
}

/// One shader binary.
#[derive(Debug, Clone, Serialize)]
pub struct BinaryInfo {
    /// Its index.
    pub index: usize,
    /// `VS`, `PS`, `GS` or `type N`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Absolute offset of its header.
    pub offset: u64,
    /// Absolute offset of its data (the GX2 struct).
    pub data_offset: u64,
    /// Size of its data.
    pub data_size: u64,
    /// The program variations that use it: the first
    /// [`OWNERS_SHOWN`](super::OWNERS_SHOWN), in program order.
    pub used_by: Vec<Owner>,
    /// How many more use it (a binary several programs share is a `validate` warning).
    #[serde(skip)]
    pub more_users: usize,
    /// Its GX2 shader struct (registers, symbols, Cemu's hashes); `None` for a binary of an
    /// unknown type or whose struct does not read (a damaged part, which `info` reports).
    pub shader: Option<crate::format::gx2::ShaderInfo>,
}

/// A program variation that uses a binary.
#[derive(Debug, Clone, Serialize)]
pub struct Owner {
    /// The program's name.
    pub program: String,
    /// The variation's index.
    pub variation: u64,
    /// The role: `vertex`, `pixel`, `geometry`.
    pub stage: &'static str,
}

/// One program.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramInfo {
    /// Its index.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Absolute offset of its header.
    pub offset: u64,
    /// The kind bitmask (1 VS, 2 PS, 4 GS).
    pub kind: u32,
    /// The stages the kind names.
    pub stages: Vec<&'static str>,
    /// Index of its first binary.
    pub base_index: u32,
    /// How many variations its macros make (`null` past 64 bits).
    pub variations: Option<u64>,
    /// Its variation macros.
    pub macros: Vec<MacroInfo>,
    /// Its symbols by kind.
    pub symbols: Symbols,
    /// Size of the version-9 section after the uniform vars (absent in version 8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v9_section_size: Option<u64>,
}

/// A variation macro with its values and default.
#[derive(Debug, Clone, Serialize)]
pub struct MacroInfo {
    /// Its name.
    pub name: String,
    /// Its ID (the symbol the sources use).
    pub id: String,
    /// Absolute offset of its record.
    pub offset: u64,
    /// Its values.
    pub values: Vec<String>,
    /// Its default value, when the default array names it.
    pub default: Option<String>,
}

/// The four symbol arrays of a program.
#[derive(Debug, Clone, Serialize)]
pub struct Symbols {
    /// Uniform variables.
    pub uniform_vars: Vec<SymbolInfo>,
    /// Uniform blocks.
    pub uniform_blocks: Vec<SymbolInfo>,
    /// Sampler variables.
    pub sampler_vars: Vec<SymbolInfo>,
    /// Vertex attributes.
    pub attrib_vars: Vec<SymbolInfo>,
}

/// One symbol.
#[derive(Debug, Clone, Serialize)]
pub struct SymbolInfo {
    /// The variable name in the shader.
    pub name: String,
    /// The ID the application looks it up by.
    pub id: String,
    /// Absolute offset of its record.
    pub offset: u64,
    /// Its offset field (in its block or register file; -1 where it has none).
    pub location: i32,
    /// Size of its default value.
    pub default_size: u64,
    /// The default value as 32-bit words (not for uniform blocks, whose default is bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_words: Option<Vec<u32>>,
    /// Per variation, whether it uses the symbol.
    pub used: Vec<bool>,
}

impl Info {
    /// The record of `f`.
    pub fn new(f: &Sharcfb) -> Info {
        let owners = f.owner_lists(super::OWNERS_SHOWN);
        let binaries: Vec<BinaryInfo> = f
            .binaries
            .items
            .iter()
            .enumerate()
            .map(|(i, b)| BinaryInfo {
                index: i,
                kind: b.kind.name(),
                offset: b.at,
                data_offset: b.data_at(),
                data_size: b.data.len() as u64,
                shader: b.gx2(f.endian).ok().map(|g| {
                    let mut info = crate::format::gx2::ShaderInfo::new(&g);
                    info.cemu = crate::format::gx2::cemu_hash(
                        &g,
                        b.program(&g, false).ok().flatten().map(|(code, _)| code),
                    );
                    info
                }),
                used_by: owners
                    .get(i)
                    .map_or(&[][..], |(o, _)| &o[..])
                    .iter()
                    .filter_map(|&(p, v, slot)| {
                        Some(Owner {
                            program: f.programs.items.get(p)?.name.shown().into_owned(),
                            variation: v,
                            stage: ["vertex", "pixel", "geometry"].get(slot as usize).copied().unwrap_or("?"),
                        })
                    })
                    .collect(),
                more_users: owners.get(i).map_or(0, |(o, n)| n.saturating_sub(o.len())),
            })
            .collect();
        let programs: Vec<ProgramInfo> =
            f.programs.items.iter().enumerate().map(|(i, p)| program_info(f, i, p)).collect();
        let kinds: Vec<String> = binaries.iter().map(|b| b.kind.clone()).collect();
        let summary = format!(
            "{} binar{} ({}), {} program{}",
            binaries.len(),
            if binaries.len() == 1 { "y" } else { "ies" },
            if kinds.is_empty() { "none".into() } else { kinds.join(", ") },
            programs.len(),
            if programs.len() == 1 { "" } else { "s" }
        );
        Info {
            summary,
            name: f.name.text().into_owned(),
            version: f.version,
            endian: f.endian,
            endian_field: f.endian_field,
            resolved: f.resolved,
            file_size: f.file_size(),
            binary_section: Section { offset: f.binaries.at, size: f.binaries.size(super::Binary::size) },
            binaries,
            program_section: Section { offset: f.programs.at, size: f.programs.size(Program::size) },
            programs,
        }
    }

    /// The readable text of the same facts.
    pub fn write_text(&self, s: &mut dyn std::fmt::Write) -> std::fmt::Result {
        writeln!(s, "format: {}", crate::Format::Sharcfb.description())?;
        writeln!(s, "summary: {}", self.summary)?;
        let magic = if self.endian == Endian::Big { "SHAB" } else { "BAHS" };
        writeln!(
            s,
            "archive \"{}\": version {}, {}-endian ({magic}), endian field {}, resolved {}, file size {}",
            self.name,
            self.version,
            self.endian.name(),
            self.endian_field,
            self.resolved,
            self.file_size
        )?;
        writeln!(
            s,
            "binaries: section at 0x{:x}, 0x{:x} bytes",
            self.binary_section.offset, self.binary_section.size
        )?;
        for b in &self.binaries {
            let owners: Vec<String> = b
                .used_by
                .iter()
                .map(|o| format!("{} of program \"{}\" variation {}", o.stage, o.program, o.variation))
                .collect();
            writeln!(
                s,
                "  binary {} at 0x{:x}: {}, data at 0x{:x}, 0x{:x} bytes; {}",
                b.index,
                b.offset,
                b.kind,
                b.data_offset,
                b.data_size,
                if owners.is_empty() {
                    "used by no program".into()
                } else if b.more_users > 0 {
                    format!("used as {}, and {} more", owners.join(", "), b.more_users)
                } else {
                    format!("used as {}", owners.join(", "))
                }
            )?;
            if let Some(shader) = &b.shader {
                shader.write_text(s, "    ")?;
            }
        }
        writeln!(
            s,
            "programs: section at 0x{:x}, 0x{:x} bytes",
            self.program_section.offset, self.program_section.size
        )?;
        for p in &self.programs {
            let variations = p.variations.map_or("more than 2^64".to_string(), |n| n.to_string());
            writeln!(
                s,
                "  program {} \"{}\" at 0x{:x}: kind 0x{:x} ({}), base index {}, {variations} variation{}",
                p.index,
                p.name,
                p.offset,
                p.kind,
                if p.stages.is_empty() { "no stages".into() } else { p.stages.join("+") },
                p.base_index,
                if p.variations == Some(1) { "" } else { "s" }
            )?;
            for m in &p.macros {
                writeln!(
                    s,
                    "    macro {} (ID {}) at 0x{:x}: {}; default {}",
                    m.name,
                    m.id,
                    m.offset,
                    m.values.join(" | "),
                    m.default.as_deref().unwrap_or("(none)")
                )?;
            }
            if let Some(n) = p.v9_section_size {
                writeln!(s, "    version-9 section: {n} bytes")?;
            }
            for (kind, list) in [
                (SymbolKind::UniformVar, &p.symbols.uniform_vars),
                (SymbolKind::UniformBlock, &p.symbols.uniform_blocks),
                (SymbolKind::SamplerVar, &p.symbols.sampler_vars),
                (SymbolKind::AttribVar, &p.symbols.attrib_vars),
            ] {
                writeln!(s, "    {} ({}):", kind.plural(), list.len())?;
                for y in list {
                    let mut line = format!("      {} (ID {}) at 0x{:x}", y.name, y.id, y.offset);
                    if y.location >= 0 {
                        write!(line, ", offset 0x{:x}", y.location)?;
                    }
                    match &y.default_words {
                        Some(w) if !w.is_empty() => {
                            let shown: Vec<String> = w.iter().take(8).map(|x| format!("0x{x:08x}")).collect();
                            let more = if w.len() > 8 { " …" } else { "" };
                            write!(line, ", default {}{more}", shown.join(" "))?;
                        }
                        _ if y.default_size > 0 => {
                            write!(line, ", default {} bytes", y.default_size)?;
                        }
                        _ => {}
                    }
                    let used = y.used.iter().filter(|u| **u).count();
                    write!(line, ", used by {used} of {}", crate::print::count(y.used.len(), "variation"))?;
                    s.write_str(&line)?;
                    s.write_char('\n')?;
                }
            }
        }
        Ok(())
    }
}

/// The variation macros of a program with their defaults.
pub fn macros(variations: &ResArray<Variation>, defaults: &ResArray<Variation>) -> Vec<MacroInfo> {
    variations
        .items
        .iter()
        .map(|v| {
            let name = v.name.text().into_owned();
            MacroInfo {
                id: v.id.text().into_owned(),
                offset: v.at,
                values: v.values().iter().map(|x| x.text.to_string()).collect(),
                default: defaults
                    .items
                    .iter()
                    .find(|d| d.name.text() == name)
                    .and_then(|d| d.values().first().map(|x| x.text.to_string())),
                name,
            }
        })
        .collect()
}

fn program_info(f: &Sharcfb, index: usize, p: &Program) -> ProgramInfo {
    let macros = macros(&p.variations, &p.defaults);
    let sym = |kind: SymbolKind| -> Vec<SymbolInfo> {
        p.symbols(kind)
            .items
            .iter()
            .map(|s| SymbolInfo {
                name: s.name.text().into_owned(),
                id: s.id.text().into_owned(),
                offset: s.at,
                location: s.offset,
                default_size: s.default.len() as u64,
                default_words: kind.words().then(|| s.default_words(f.endian)),
                used: s.used.iter().map(|&b| b != 0).collect(),
            })
            .collect()
    };
    let mut stages = Vec::new();
    for (bit, name) in [(1, "vertex"), (2, "pixel"), (4, "geometry")] {
        if p.kind & bit != 0 {
            stages.push(name);
        }
    }
    ProgramInfo {
        index,
        name: p.name.text().into_owned(),
        offset: p.at,
        kind: p.kind,
        stages,
        base_index: p.base_index,
        variations: p.variation_count(),
        macros,
        symbols: Symbols {
            uniform_vars: sym(SymbolKind::UniformVar),
            uniform_blocks: sym(SymbolKind::UniformBlock),
            sampler_vars: sym(SymbolKind::SamplerVar),
            attrib_vars: sym(SymbolKind::AttribVar),
        },
        v9_section_size: p.extra.as_ref().map(|e| e.len() as u64 + 4),
    }
}
