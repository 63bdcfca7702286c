//! Picking the binaries of one variation of a program (seed 002's algorithm, AGL's
//! `ShaderProgram` variation index): the macros' value indices form a mixed-radix number,
//! the first macro most significant; the variation's binaries start at
//! `base_index + index * (3 with a geometry shader, else 2)`, VS then PS then GS.

use super::{BinaryType, Program, Sharcfb};
use serde::Serialize;
use std::fmt;

/// How one macro was set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting {
    /// The macro's name.
    #[serde(rename = "macro")]
    pub name: String,
    /// Its ID (the symbol name the sources use).
    pub id: String,
    /// The value chosen.
    pub value: String,
    /// Its index among the macro's values.
    pub index: u64,
    /// Where the value came from: `set` (the caller), `default` (the program's default
    /// array) or `first` (no default: the first value).
    pub source: &'static str,
}

/// One binary a variation resolves to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedBinary {
    /// The role it plays: `vertex`, `pixel`, `geometry`.
    pub stage: &'static str,
    /// Its index in the archive.
    pub index: u64,
    /// Its type field as the archive says (`VS`, `PS`, `GS` or `type N`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Absolute offset of the binary's header.
    pub header_offset: u64,
    /// Absolute offset of its data (the GX2 struct).
    pub offset: u64,
    /// Size of its data.
    pub size: u64,
    /// Whether the type field agrees with the role.
    pub type_matches: bool,
}

/// The binaries one variation of a program uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resolved {
    /// The program's name.
    pub program: String,
    /// Its index in the archive.
    pub program_index: usize,
    /// The variation's index (the mixed-radix number of the settings).
    pub variation: u64,
    /// How many variations the program has.
    pub variations: u64,
    /// Every macro with the value chosen, in the program's order.
    pub settings: Vec<Setting>,
    /// VS, PS and (with a geometry shader) GS.
    pub binaries: Vec<ResolvedBinary>,
}

/// Why a variation cannot be picked. `NoProgram`, `NoMacro` and `NoValue` are the caller's
/// mistake (the names exist or not); `Broken` is the archive's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariantError {
    /// No program has that name; the names that exist.
    NoProgram(String, Vec<String>),
    /// The program has no macro of that name (or ID); the macros it has.
    NoMacro(String, String, Vec<String>),
    /// The macro has no such value; its values.
    NoValue(String, String, Vec<String>),
    /// The archive cannot give the variation (a macro without values, a binary index past the
    /// end): the error names the field, its absolute offset and why.
    Broken(crate::Error),
}

impl VariantError {
    /// Whether the caller named something that does not exist (a usage error), as opposed to
    /// a broken archive.
    pub fn is_usage(&self) -> bool {
        !matches!(self, VariantError::Broken(_))
    }
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::NoProgram(p, names) => {
                write!(f, "no program named \"{p}\" (programs: {})", list(names))
            }
            VariantError::NoMacro(p, m, names) => {
                write!(f, "program \"{p}\" has no variation macro \"{m}\" (macros: {})", list(names))
            }
            VariantError::NoValue(m, v, values) => {
                write!(f, "macro \"{m}\" has no value \"{v}\" (values: {})", list(values))
            }
            VariantError::Broken(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for VariantError {}

impl From<VariantError> for crate::Error {
    fn from(e: VariantError) -> Self {
        match e {
            VariantError::Broken(e) => e,
            other => crate::Error::invalid(0, "variation", other.to_string()),
        }
    }
}

impl Sharcfb {
    /// The binaries of program `program` with the macros set as `set` says (by name, or by
    /// ID); a macro not set takes its default (the program's default array), or its first
    /// value when it has none.
    pub fn resolve(&self, program: &str, set: &[(String, String)]) -> Result<Resolved, VariantError> {
        let Some((program_index, _)) = self.program(program) else {
            let names = self.programs.items.iter().map(|p| p.name.text().into_owned()).collect();
            return Err(VariantError::NoProgram(program.into(), names));
        };
        self.resolve_index(program_index, set)
    }

    /// [`Sharcfb::resolve`] for the program at `program_index` (an error if there is none).
    /// Each macro is looked up once: the cost is the program's size plus the settings'.
    pub fn resolve_index(
        &self,
        program_index: usize,
        set: &[(String, String)],
    ) -> Result<Resolved, VariantError> {
        let Some(p) = self.programs.items.get(program_index) else {
            let names = self.programs.items.iter().map(|p| p.name.text().into_owned()).collect();
            return Err(VariantError::NoProgram(format!("#{program_index}"), names));
        };
        let pname = p.name.text().into_owned();
        let program_what = || format!("SHARCFB program \"{pname}\"");
        // The setting each macro takes (the last one given for it wins).
        let mut given = vec![None; p.variations.items.len()];
        for (m, value) in set {
            let Some(k) = macro_index(p, m) else {
                let names = p.variations.items.iter().map(|v| v.name.text().into_owned()).collect();
                return Err(VariantError::NoMacro(pname, m.clone(), names));
            };
            if let Some(g) = given.get_mut(k) {
                *g = Some(value);
            }
        }
        // The first default of each name.
        let mut defaults = std::collections::HashMap::new();
        for d in &p.defaults.items {
            defaults.entry(d.name.text()).or_insert(d);
        }
        let mut settings = Vec::new();
        let mut index = 0u64;
        let overflow = || {
            VariantError::Broken(crate::Error::invalid(
                p.at,
                program_what(),
                "its variation macros make more variations than 64 bits count",
            ))
        };
        for (k, v) in p.variations.items.iter().enumerate() {
            let name = v.name.text().into_owned();
            let values = v.values();
            let texts: Vec<String> = values.iter().map(|x| x.text.to_string()).collect();
            if texts.is_empty() {
                return Err(VariantError::Broken(crate::Error::invalid(
                    v.at,
                    format!("variation macro \"{name}\" of program \"{pname}\""),
                    "it has no values",
                )));
            }
            // The value, where it came from, and where the archive says it (a default).
            let (value, source, at) = match given.get(k).copied().flatten() {
                Some(value) => (value.clone(), "set", None),
                None => match defaults.get(name.as_str()) {
                    Some(d) => (
                        d.values().first().map(|x| x.text.to_string()).unwrap_or_default(),
                        "default",
                        Some(d.at),
                    ),
                    None => (texts.first().cloned().unwrap_or_default(), "first", None),
                },
            };
            let Some(digit) = texts.iter().position(|t| *t == value) else {
                let Some(at) = at else {
                    return Err(VariantError::NoValue(name, value, texts));
                };
                return Err(VariantError::Broken(crate::Error::invalid(
                    at,
                    format!("default of macro \"{name}\" of program \"{pname}\""),
                    format!("\"{value}\" is not one of its values ({})", list(&texts)),
                )));
            };
            index = index
                .checked_mul(u64::from(v.value_count))
                .and_then(|i| i.checked_add(digit as u64))
                .ok_or_else(overflow)?;
            settings.push(Setting { name, id: v.id.text().into_owned(), value, index: digit as u64, source });
        }
        let variations = p.variation_count().ok_or_else(overflow)?;
        let first = index
            .checked_mul(p.stride())
            .and_then(|i| i.checked_add(u64::from(p.base_index)))
            .ok_or_else(overflow)?;
        let mut binaries = Vec::new();
        let roles: &[(&str, BinaryType)] = if p.has_geometry() {
            &[
                ("vertex", BinaryType::VERTEX),
                ("pixel", BinaryType::PIXEL),
                ("geometry", BinaryType::GEOMETRY),
            ]
        } else {
            &[("vertex", BinaryType::VERTEX), ("pixel", BinaryType::PIXEL)]
        };
        for (slot, (stage, want)) in roles.iter().enumerate() {
            let bi = first + slot as u64;
            let Some(b) = usize::try_from(bi).ok().and_then(|i| self.binaries.items.get(i)) else {
                // At the program's base index, as `validate` says it.
                return Err(VariantError::Broken(crate::Error::invalid(
                    p.at + 12,
                    program_what(),
                    format!(
                        "variation {index} takes binary {bi} as its {}, but the archive has {} binaries",
                        want.name(),
                        self.binaries.items.len()
                    ),
                )));
            };
            binaries.push(ResolvedBinary {
                stage,
                index: bi,
                kind: b.kind.name(),
                header_offset: b.at,
                offset: b.data_at(),
                size: b.data.len() as u64,
                type_matches: b.kind == *want,
            });
        }
        Ok(Resolved { program: pname, program_index, variation: index, variations, settings, binaries })
    }
}

/// The index of the macro named `m` (by name first, then by ID).
fn macro_index(p: &Program, m: &str) -> Option<usize> {
    let v = &p.variations.items;
    v.iter().position(|v| v.name.text() == m).or_else(|| v.iter().position(|v| v.id.text() == m))
}

impl Resolved {
    /// The text `shaderscope variant` prints.
    pub fn write_text(&self, out: &mut String) {
        use std::fmt::Write as _;
        let _ = writeln!(
            out,
            "program \"{}\" (program {}), variation {} of {}",
            self.program, self.program_index, self.variation, self.variations
        );
        for s in &self.settings {
            let _ = writeln!(out, "  {}={} (value {}, {}; ID {})", s.name, s.value, s.index, s.source, s.id);
        }
        if self.settings.is_empty() {
            out.push_str("  no variation macros\n");
        }
        for b in &self.binaries {
            let warn = if b.type_matches { String::new() } else { format!(" (type field says {})", b.kind) };
            let role = match b.stage {
                "vertex" => "VS",
                "pixel" => "PS",
                _ => "GS",
            };
            let _ = writeln!(
                out,
                "{role}: binary {} at 0x{:x}, data at 0x{:x}, 0x{:x} bytes{warn}",
                b.index, b.header_offset, b.offset, b.size
            );
        }
    }
}
