//! What every format and instruction set reports or takes in the same shape: validation
//! findings, the parts `extract` can pull out, the pipeline stage of a program, and the
//! listing configuration (what the user chose about a listing).
//!
//! This module depends on nothing else in the crate, so that instruction sets, containers and
//! the [`Container`](crate::Container) interface can all use it without depending on each
//! other.
//!
//! ```
//! use shaderscope::model::{Finding, Severity, Stage};
//!
//! let f = Finding::error(0x1c, "register r4 used but not declared");
//! assert_eq!(f.severity, Severity::Error);
//! assert_eq!(Stage::from_sm4(5), Some(Stage::Compute));
//! assert_eq!(Stage::Compute.prefix(), "cs");
//!
//! // In JSON, values are the names the command line takes.
//! use shaderscope::model::Generation;
//! assert_eq!(serde_json::to_string(&Generation::Fxc9_30).unwrap(), "\"9.30\"");
//! assert_eq!(serde_json::to_string(&Stage::Pixel).unwrap(), "\"pixel\"");
//! ```

use serde::Serialize;
use std::borrow::Cow;

/// How bad a validation finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Suspicious but loadable.
    Warning,
    /// The file is invalid.
    Error,
}

/// One validation finding, at an absolute byte offset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// Warning or error.
    pub severity: Severity,
    /// Absolute byte offset the finding is about.
    pub offset: u64,
    /// What is wrong, lowercase, no trailing period.
    pub message: String,
}

impl Finding {
    /// An error finding.
    pub fn error(offset: u64, message: impl Into<String>) -> Self {
        Finding { severity: Severity::Error, offset, message: message.into() }
    }

    /// A warning finding.
    pub fn warning(offset: u64, message: impl Into<String>) -> Self {
        Finding { severity: Severity::Warning, offset, message: message.into() }
    }

    /// Whether this finding makes `validate` fail: an error does; a warning does with
    /// `strict`.
    pub fn fails(&self, strict: bool) -> bool {
        self.severity == Severity::Error || (strict && self.severity == Severity::Warning)
    }
}

/// Something `extract` can pull out of a file, with its bytes.
///
/// Most parts are a byte range of the input (`bytes` borrows it); a few are made from it (the
/// binary decoded from a base64 `.csdr`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Part<'a> {
    /// The name to pass to `extract` (e.g. `dvlb0`, `dvle1.code`, `SHEX`).
    pub name: String,
    /// Absolute offset of its bytes in the input (in the decoded bytes for parts of a `.csdr`).
    pub offset: u64,
    /// What it is.
    pub description: String,
    /// Its bytes.
    pub bytes: Cow<'a, [u8]>,
}

impl<'a> Part<'a> {
    /// A part that is the bytes `bytes`, found at absolute `offset`.
    pub fn new(
        name: impl Into<String>,
        offset: u64,
        bytes: impl Into<Cow<'a, [u8]>>,
        description: impl Into<String>,
    ) -> Self {
        Part { name: name.into(), offset, description: description.into(), bytes: bytes.into() }
    }

    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }
}

/// The pipeline stage a program runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Pixel (fragment) shader.
    Pixel,
    /// Vertex shader.
    Vertex,
    /// Geometry shader.
    Geometry,
    /// Hull (tessellation control) shader.
    Hull,
    /// Domain (tessellation evaluation) shader.
    Domain,
    /// Compute shader.
    Compute,
}

impl Stage {
    /// The stage of an SM4/5 program type (`D3D10_SB_TOKENIZED_PROGRAM_TYPE`, the high half of
    /// the version token); `None` for a value the format does not define.
    pub fn from_sm4(program_type: u32) -> Option<Stage> {
        Some(match program_type {
            0 => Stage::Pixel,
            1 => Stage::Vertex,
            2 => Stage::Geometry,
            3 => Stage::Hull,
            4 => Stage::Domain,
            5 => Stage::Compute,
            _ => return None,
        })
    }

    /// The two-letter profile prefix Direct3D uses: `ps`, `vs`, `gs`, `hs`, `ds`, `cs`.
    pub fn prefix(self) -> &'static str {
        match self {
            Stage::Pixel => "ps",
            Stage::Vertex => "vs",
            Stage::Geometry => "gs",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Compute => "cs",
        }
    }

    /// The lowercase name used in text and JSON (`pixel`, `vertex`, …).
    pub fn name(self) -> &'static str {
        match self {
            Stage::Pixel => "pixel",
            Stage::Vertex => "vertex",
            Stage::Geometry => "geometry",
            Stage::Hull => "hull",
            Stage::Domain => "domain",
            Stage::Compute => "compute",
        }
    }
}

/// Which fxc printed a DXBC listing (the text differs between them): a value of
/// [`DisasmOptions::generation`]. The DXBC module reads it from a container's creator string.
/// In JSON and text it is the name `--fxc` takes ([`Generation::name`]: `"9.30"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Generation {
    /// fxc 9.29 (DirectX SDK, June 2010): narrower signature Format column, command-line echo.
    Fxc9_29,
    /// fxc 9.30.9200 (Windows 8 SDK): an empty command-line comment, printed as a lone `/`.
    Fxc9_30,
    /// fxc 6.3.9600 (Windows 8.1 SDK).
    Fxc6_3,
    /// fxc 10.x (Windows 10 SDK).
    Fxc10,
}

impl Generation {
    /// Every generation, oldest first.
    pub const ALL: [Generation; 4] =
        [Generation::Fxc9_29, Generation::Fxc9_30, Generation::Fxc6_3, Generation::Fxc10];

    /// The generation [`Generation::name`] names.
    pub fn from_name(name: &str) -> Option<Generation> {
        Generation::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The name `disasm --fxc` takes and JSON gives: `9.29`, `9.30`, `6.3`, `10`.
    pub fn name(self) -> &'static str {
        match self {
            Generation::Fxc9_29 => "9.29",
            Generation::Fxc9_30 => "9.30",
            Generation::Fxc6_3 => "6.3",
            Generation::Fxc10 => "10",
        }
    }
}

impl Serialize for Generation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The listing configuration: what the user chose about a listing, nothing read from a file.
/// One value, filled once (by the CLI from its switches), is handed unchanged to every
/// printer: [`Container::disasm`](crate::Container::disasm) and its JSON records, bare
/// programs ([`crate::bare::Bare`]) and each instruction set's listing. A format ignores the
/// choices that do not apply to it (fxc's switches outside DXBC and Direct3D 9). What a
/// format reads from the file to print it (DXBC: the fxc generation its creator string names,
/// the container checksum) it works out itself, never from here.
///
/// Build it with [`Default`] and the `with_*` setters:
///
/// ```
/// use shaderscope::DisasmOptions;
///
/// // fxc /Ni /No /Lx, without the comment tables.
/// let opts = DisasmOptions::default()
///     .with_offsets(true)
///     .with_numbering(true)
///     .with_hex_literals(true)
///     .with_no_header(true);
/// assert!(opts.numbering && opts.no_header && !opts.instruction_only);
/// ```
#[derive(Debug, Default, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DisasmOptions {
    /// One program only (SHBIN: the DVLE index, printed as complete picasso source; GFD: the
    /// shader index).
    pub program: Option<usize>,
    /// Show each instruction's byte address: for DXBC and Direct3D 9 fxc's `/No` column (from
    /// the program's version token), for other formats the absolute file offset (a base64
    /// `.csdr`: the offset in its decoded binary).
    pub offsets: bool,
    /// Show each instruction's absolute file offset, in every format (for DXBC and Direct3D 9
    /// in the layout of fxc's `/No` column; a base64 `.csdr`: in its decoded binary).
    pub file_offsets: bool,
    /// Show each instruction's raw encoding: the 32-bit little-endian words the file holds at
    /// its offset.
    pub raw: bool,
    /// DXBC and bare SM4: print as this fxc generation instead of the one the file suggests
    /// (nothing in a stripped binary tells fxc 9.29 from 6.3; a bare program: fxc 10).
    pub generation: Option<Generation>,
    /// DXBC and bare SM4, Direct3D 9 (`def` values) and fx_2_0 effects: imitate a C runtime
    /// that rounds exact decimal ties away from zero (fxc 10 on a Windows from before 2019).
    /// Nothing in a binary records the machine fxc ran on: DirectXTK12's and DirectXTK's
    /// (2020) `ToneMap_PSHDR10` hold the same literal and print `18.851562` and `18.851563`.
    pub legacy_crt: bool,
    /// fxc's `/Ni` (`D3D_DISASM_ENABLE_INSTRUCTION_NUMBERING`), DXBC and Direct3D 9: number
    /// the instructions (SM4: from 0; Direct3D 9: the arithmetic slots used before each).
    pub numbering: bool,
    /// fxc's `/Lx` (`D3D_DISASM_PRINT_HEX_LITERALS`), DXBC and Direct3D 9: literal values as
    /// their bits in hexadecimal.
    pub hex_literals: bool,
    /// DXBC and bare SM4: a float literal whose `%f` text would not assemble back to its bits
    /// in hexadecimal (the others stay fxc's text): a listing that rebuilds the same program.
    pub exact_floats: bool,
    /// DXBC and Direct3D 9: the program without fxc's comment tables (the `// Generated by`
    /// block, reflection, signatures, the level-9 section, a Direct3D 9 constant table); the
    /// statistics line that ends it stays.
    pub no_header: bool,
    /// `D3D_DISASM_INSTRUCTION_ONLY`, DXBC and Direct3D 9: the version line and the
    /// instructions only, without the comment tables and without the statistics line.
    pub instruction_only: bool,
}

/// A request that does not apply to the file it is made of (a listing switch of another
/// format, a program index out of range, a checksum of a file that has none): the caller's
/// mistake, not the file's. The text names each switch as the command line spells it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Inapplicable(pub String);

/// A listing switch's value as a front end took it ([`DisasmOptions::with_named`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Switch<'a> {
    /// On or off (`offsets`, `hex-literals`, ...).
    On(bool),
    /// A name (`fxc`: `9.30`).
    Name(&'a str),
    /// An index (`dvle`).
    Index(usize),
}

/// A switch [`DisasmOptions::with_named`] does not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwitchError {
    /// No listing switch has this name.
    #[error("no listing switch is named {0:?}")]
    Unknown(String),
    /// The switch exists; the value is not one it takes.
    #[error("{0}")]
    Value(String),
}

impl DisasmOptions {
    /// Whether an fxc generation (`--fxc`) is chosen: one of fxc's, or fxc 10 with the legacy C
    /// runtime.
    fn fxc_chosen(&self) -> bool {
        self.generation.is_some() || self.legacy_crt
    }

    /// The fxc switches that are on (they apply to DXBC and Direct3D 9 listings only), by
    /// their command-line names.
    fn fxc_switches(&self) -> impl Iterator<Item = &'static str> {
        [
            (self.numbering, "--numbering"),
            (self.hex_literals, "--hex-literals"),
            (self.exact_floats, "--exact-floats"),
            (self.no_header, "--no-header"),
            (self.instruction_only, "--instruction-only"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
    }

    /// The names the `--fxc` switch takes, for [`DisasmOptions::with_fxc`]: `auto` (the
    /// generation the file names), each [`Generation::name`], and `10-legacy-crt`.
    pub const FXC_NAMES: [&'static str; 6] = ["auto", "9.29", "9.30", "6.3", "10", "10-legacy-crt"];

    /// The on/off switches by their command-line names, for [`DisasmOptions::with_switch`].
    pub const SWITCHES: [&'static str; 8] = [
        "offsets",
        "file-offsets",
        "raw",
        "numbering",
        "hex-literals",
        "exact-floats",
        "no-header",
        "instruction-only",
    ];

    /// The `--fxc` choice by the name the switch takes (one of [`DisasmOptions::FXC_NAMES`]),
    /// or `None` for another name: every front end reads the switch through this.
    pub fn with_fxc(self, name: &str) -> Option<Self> {
        let (generation, legacy_crt) = match name {
            "auto" => (None, false),
            "10-legacy-crt" => (Some(Generation::Fxc10), true),
            other => (Some(Generation::from_name(other)?), false),
        };
        Some(DisasmOptions { generation, legacy_crt, ..self })
    }

    /// An on/off switch by its command-line name (one of [`DisasmOptions::SWITCHES`],
    /// `hex-literals`), or `None` for another name: for front ends that take the switches by
    /// name (the Python package's keywords).
    ///
    /// ```
    /// use shaderscope::{DisasmOptions, Generation};
    ///
    /// let opts = DisasmOptions::default().with_switch("hex-literals", true).and_then(|o| o.with_fxc("10-legacy-crt"));
    /// let opts = opts.expect("both are the CLI's names");
    /// assert!(opts.hex_literals && opts.legacy_crt && opts.generation == Some(Generation::Fxc10));
    /// assert!(DisasmOptions::default().with_switch("colour", true).is_none());
    /// assert!(DisasmOptions::default().with_fxc("11").is_none());
    /// ```
    pub fn with_switch(self, name: &str, on: bool) -> Option<Self> {
        Some(match name {
            "offsets" => self.with_offsets(on),
            "file-offsets" => self.with_file_offsets(on),
            "raw" => self.with_raw(on),
            "numbering" => self.with_numbering(on),
            "hex-literals" => self.with_hex_literals(on),
            "exact-floats" => self.with_exact_floats(on),
            "no-header" => self.with_no_header(on),
            "instruction-only" => self.with_instruction_only(on),
            _ => return None,
        })
    }

    /// The switches that exclude each other (the CLI's parser refuses them first).
    fn check_conflicts(&self) -> Result<(), Inapplicable> {
        if self.offsets && self.file_offsets {
            return Err(Inapplicable("--offsets and --file-offsets cannot be used together".into()));
        }
        Ok(())
    }

    /// One listing switch by its command-line name (`offsets`, `hex-literals`, `fxc`, `dvle`
    /// or its alias `program`; an underscore may stand for a dash) and its value, for the
    /// front ends that take the switches by name (the Python package's keywords, the page's
    /// controls): every switch is read here, once.
    ///
    /// ```
    /// use shaderscope::model::{Switch, SwitchError};
    /// use shaderscope::DisasmOptions;
    ///
    /// let opts = DisasmOptions::default()
    ///     .with_named("hex_literals", Switch::On(true))
    ///     .and_then(|o| o.with_named("fxc", Switch::Name("9.30")))
    ///     .and_then(|o| o.with_named("dvle", Switch::Index(1)));
    /// let opts = opts.expect("the CLI's switches");
    /// assert!(opts.hex_literals && opts.program == Some(1));
    /// let e = DisasmOptions::default().with_named("fxc", Switch::Name("11")).unwrap_err();
    /// assert_eq!(e.to_string(), "fxc=\"11\" is none of 'auto', '9.29', '9.30', '6.3', '10', '10-legacy-crt'");
    /// assert_eq!(DisasmOptions::default().with_named("colour", Switch::On(true)), Err(SwitchError::Unknown("colour".into())));
    /// ```
    pub fn with_named(self, name: &str, value: Switch<'_>) -> Result<Self, SwitchError> {
        let cli = name.replace('_', "-");
        let wrong = |want: &str| SwitchError::Value(format!("{name} takes {want}"));
        match (cli.as_str(), value) {
            ("dvle" | "program", Switch::Index(n)) => Ok(self.with_program(n)),
            ("dvle" | "program", _) => Err(wrong("a program index")),
            ("fxc", Switch::Name(g)) => self.with_fxc(g).ok_or_else(|| {
                let names: Vec<String> = Self::FXC_NAMES.iter().map(|n| format!("'{n}'")).collect();
                SwitchError::Value(format!("{name}={g:?} is none of {}", names.join(", ")))
            }),
            ("fxc", _) => Err(wrong("a generation's name")),
            (switch, Switch::On(on)) => {
                self.with_switch(switch, on).ok_or_else(|| SwitchError::Unknown(name.to_string()))
            }
            (switch, _) if Self::SWITCHES.contains(&switch) => Err(wrong("true or false")),
            _ => Err(SwitchError::Unknown(name.to_string())),
        }
    }

    /// Whether this configuration applies to `file`: a program index (`--dvle`) to a file
    /// with programs to choose from, and in range; an fxc generation (`--fxc`) to DXBC; fxc's
    /// switches to DXBC and Direct3D 9 listings. Every front end asks this before a listing.
    pub fn check(&self, file: &dyn crate::Container) -> Result<(), Inapplicable> {
        use crate::Format;
        let format = file.format();
        self.check_conflicts()?;
        if let Some(n) = self.program {
            let Some(count) = file.programs() else {
                return Err(Inapplicable(format!(
                    "--dvle applies only to 3DS shader binaries with DVLEs (this file: {})",
                    format.description()
                )));
            };
            if n >= count {
                // A GFD file's programs are its shaders.
                let unit = if format == Format::Gfd { "shader" } else { "DVLE" };
                let has = match count {
                    0 => format!("no {unit}"),
                    1 => format!("1 {unit} (--dvle 0)"),
                    _ => format!("{count} {unit}s (--dvle 0 to {})", count - 1),
                };
                return Err(Inapplicable(format!("--dvle {n} is out of range: the file has {has}")));
            }
        }
        // A Direct3D 9 listing differs between fxc's runtimes only in how `def` ties round.
        let d3d9 = matches!(format, Format::D3d9 | Format::Fx9);
        if self.fxc_chosen() && d3d9 && !self.legacy_crt {
            return Err(Inapplicable(format!(
                "--fxc applies to Direct3D 9 listings only as 10-legacy-crt (a C runtime that rounds ties away from zero) (this file: {})",
                format.description()
            )));
        }
        // A Direct3D 10/11 effect's programs are DXBC containers.
        if self.fxc_chosen() && !d3d9 && !matches!(format, Format::Dxbc | Format::Fx11) {
            return Err(Inapplicable(format!(
                "--fxc applies only to DXBC containers and the effects that hold them (this file: {})",
                format.description()
            )));
        }
        match self.fxc_switches().next() {
            Some(name) if !matches!(format, Format::Dxbc | Format::D3d9) => Err(Inapplicable(format!(
                "{name} applies only to DXBC and Direct3D 9 listings (this file: {})",
                format.description()
            ))),
            _ => Ok(()),
        }
    }

    /// Whether this configuration applies to a bare program of instruction set `isa` (the
    /// CLI's `--format ISA`): an fxc generation to SM4 only, fxc's switches to SM4 and
    /// Direct3D 9.
    pub fn check_bare(&self, isa: crate::bare::Isa) -> Result<(), Inapplicable> {
        use crate::bare::Isa;
        self.check_conflicts()?;
        if self.fxc_chosen() && isa != Isa::Sm4 {
            return Err(Inapplicable(format!(
                "--fxc applies only to DXBC containers and --format sm4 (not --format {isa})"
            )));
        }
        match self.fxc_switches().next() {
            Some(name) if !matches!(isa, Isa::Sm4 | Isa::D3d9) => Err(Inapplicable(format!(
                "{name} applies only to DXBC and Direct3D 9 listings (not --format {isa})"
            ))),
            _ => Ok(()),
        }
    }

    /// Program `index` only.
    pub fn with_program(mut self, index: usize) -> Self {
        self.program = Some(index);
        self
    }

    /// Show (or not) each instruction's byte address.
    pub fn with_offsets(mut self, on: bool) -> Self {
        self.offsets = on;
        self
    }

    /// Show (or not) each instruction's absolute file offset.
    pub fn with_file_offsets(mut self, on: bool) -> Self {
        self.file_offsets = on;
        self
    }

    /// Show (or not) each instruction's raw encoding.
    pub fn with_raw(mut self, on: bool) -> Self {
        self.raw = on;
        self
    }

    /// Print as this fxc generation.
    pub fn with_generation(mut self, generation: Generation) -> Self {
        self.generation = Some(generation);
        self
    }

    /// Round decimal ties as fxc 10 on an old C runtime does ([`DisasmOptions::legacy_crt`]),
    /// or not.
    pub fn with_legacy_crt(mut self, on: bool) -> Self {
        self.legacy_crt = on;
        self
    }

    /// Number the instructions (fxc `/Ni`), or not.
    pub fn with_numbering(mut self, on: bool) -> Self {
        self.numbering = on;
        self
    }

    /// Literal values in hexadecimal (fxc `/Lx`), or not.
    pub fn with_hex_literals(mut self, on: bool) -> Self {
        self.hex_literals = on;
        self
    }

    /// Float literals `%f` does not round-trip in hexadecimal, or not.
    pub fn with_exact_floats(mut self, on: bool) -> Self {
        self.exact_floats = on;
        self
    }

    /// Leave out the comment tables, or not.
    pub fn with_no_header(mut self, on: bool) -> Self {
        self.no_header = on;
        self
    }

    /// Print the instructions only (`D3D_DISASM_INSTRUCTION_ONLY`), or not.
    pub fn with_instruction_only(mut self, on: bool) -> Self {
        self.instruction_only = on;
        self
    }
}
