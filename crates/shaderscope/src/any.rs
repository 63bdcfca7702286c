//! One interface over every format, so that a caller (the CLI among them) needs no
//! format-specific code.
//!
//! [`parse`] recognises the format and returns a [`File`], an enum with one variant per format
//! that reads; match on it to reach a format's own model, or use it through the
//! [`Container`] trait, which every format implements.
//!
//! ```
//! use shaderscope::{Container, File, Format};
//! # let bytes = shaderscope::shbin::build::example_vertex_shader();
//! let file = shaderscope::parse(&bytes)?;
//! assert_eq!(file.format(), Format::Dvlb);
//! if let File::Shbin(shbin) = &file {
//!     assert_eq!(shbin.dvlbs()[0].1.dvles.len(), 1);
//! }
//! let parts: Vec<String> = file.parts().into_iter().map(|p| p.name).collect();
//! assert!(parts.contains(&"dvle0.code".to_string()));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::container::Container;
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::Result;
#[cfg(feature = "direct3d")]
use crate::format::fx11::Fx11;
#[cfg(feature = "mali")]
use crate::format::mbs::Mbs;
#[cfg(feature = "n3ds")]
use crate::format::shbin::ShaderFile;
#[cfg(feature = "direct3d")]
use crate::format::{d3d9::D3d9File, dxbc::Dxbc, fx9::Fx9, mgfx::Mgfx};
#[cfg(feature = "wiiu")]
use crate::format::{
    gfd::Gfd,
    sharc::Sharc,
    sharcfb::{Resolved, Sharcfb, VariantError},
};
use crate::json::{DisasmSink, Record, RecordType};
use crate::model::{DisasmOptions, Finding, Inapplicable, Part, Severity};
use crate::print::Printer;
use std::{fmt, io};

/// A file of any format this build reads, as its format's own model.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum File<'a> {
    /// A Direct3D DXBC container.
    #[cfg(feature = "direct3d")]
    Dxbc(Box<Dxbc<'a>>),
    /// Standalone Direct3D 9 bytecode.
    #[cfg(feature = "direct3d")]
    D3d9(D3d9File<'a>),
    /// A Direct3D 9 effect (fx_2_0).
    #[cfg(feature = "direct3d")]
    Fx9(Box<Fx9<'a>>),
    /// A Direct3D 10/11 effect (fx_4_0, fx_4_1, fx_5_0).
    #[cfg(feature = "direct3d")]
    Fx11(Box<Fx11<'a>>),
    /// A Nintendo 3DS shader file: DVLB, DVOJ/DVOB, CGFX or base64 `.csdr`.
    #[cfg(feature = "n3ds")]
    Shbin(Box<ShaderFile>),
    /// A Wii U GFD (`Gfx2`) file: GX2 shaders and their Latte microcode.
    #[cfg(feature = "wiiu")]
    Gfd(Box<Gfd<'a>>),
    /// A Wii U AGL binary shader archive (SHARCFB).
    #[cfg(feature = "wiiu")]
    Sharcfb(Box<Sharcfb>),
    /// A Wii U AGL shader source archive (`.sharc`).
    #[cfg(feature = "wiiu")]
    Sharc(Box<Sharc>),
    /// An ARM Mali-200/400 offline compiler file (`MBS1`).
    #[cfg(feature = "mali")]
    Mbs(Box<Mbs<'a>>),
    /// A MonoGame effect (`MGFX`, bare or in an XNB file).
    #[cfg(feature = "direct3d")]
    Mgfx(Box<Mgfx<'a>>),
    /// An LZX-compressed XNB file (XNA Game Studio 4 content): the effect it holds, read
    /// unpacked.
    #[cfg(feature = "direct3d")]
    Packed(Box<crate::format::xnb::Packed<'a>>),
    /// Holds the lifetime in a build whose only family's model borrows nothing (the 3DS
    /// alone); never made.
    #[cfg(not(any(feature = "direct3d", feature = "wiiu", feature = "mali")))]
    #[doc(hidden)]
    Never(std::convert::Infallible, std::marker::PhantomData<&'a ()>),
}

impl File<'_> {
    /// The `info --json` record of this file, read from `path`, as
    /// [`File::write_info_record`] writes it.
    pub fn info_record<'p>(&self, path: &'p str) -> Record<'p> {
        Record { body: self.info_json(), ..self.info_envelope(path) }
    }

    /// Write the `info --json` record of this file, read from `path`, to `out` as one line:
    /// the format's summary ([`Container::write_info_json`]) is written into the record as it
    /// is serialised, never held whole. `valid` is false when a part of the file is damaged
    /// ([`Container::damage`]).
    pub fn write_info_record(&self, path: &str, out: &mut dyn io::Write) -> io::Result<()> {
        self.info_envelope(path).write_with(out, |o| self.write_info_json(o))
    }

    /// The envelope of the `info` record.
    fn info_envelope<'p>(&self, path: &'p str) -> Record<'p> {
        Record::new(RecordType::Info, path, Some(self.format())).with_valid(self.damage().is_empty())
    }

    /// The `disasm --json` record, as [`File::write_disasm_record`] writes it: the listing
    /// and every program's instruction records, or (when the listing fails) a record with
    /// `valid: false` and the error.
    pub fn disasm_record<'p>(&self, path: &'p str, opts: &DisasmOptions) -> Record<'p> {
        let record = Record::new(RecordType::Disasm, path, Some(self.format()));
        crate::json::disasm_record(record, self.damage().first(), |sink| self.write_disasm_json(opts, sink))
    }

    /// Write the `disasm --json` record of this file, read from `path`, to `out` as one line,
    /// field by field as the listing and the instruction records are made
    /// ([`crate::json::write_disasm_record`]): the listing and every program's instruction
    /// records, with `valid: false` and the first damaged part's error when a part is damaged
    /// (the rest is listed); when the listing fails, `valid: false` and the error, without the
    /// listing. Returns whether the record says the file is valid.
    ///
    /// ```
    /// use shaderscope::DisasmOptions;
    /// # let bytes = shaderscope::shbin::build::example_vertex_shader();
    /// let file = shaderscope::parse(&bytes)?;
    /// let mut out = Vec::new();
    /// assert!(file.write_disasm_record("v.shbin", &DisasmOptions::default(), &mut out).unwrap());
    /// let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    /// assert_eq!((v["type"].as_str(), v["programs"][0]["name"].as_str()), (Some("disasm"), Some("DVLE 0")));
    /// # Ok::<(), shaderscope::Error>(())
    /// ```
    pub fn write_disasm_record(
        &self,
        path: &str,
        opts: &DisasmOptions,
        out: &mut dyn io::Write,
    ) -> io::Result<bool> {
        let record = Record::new(RecordType::Disasm, path, Some(self.format()));
        crate::json::write_disasm_record(record, self.damage().first(), out, |sink| {
            self.write_disasm_json(opts, sink)
        })
    }

    /// Everything `validate` reports about the file, in the order it reports it: the
    /// format's findings ([`Container::validate`]), then every damaged part
    /// ([`Container::damage`]) they do not list, as an error finding of its own. A finding
    /// lists a damaged part when it is an error at the same offset whose message ends with the
    /// error's text without its offset ([`crate::Error::reason`]): formats that report their
    /// damage say it in their own words (`constant table: CTAB constant info points …`). A
    /// finding whose message is just that text carries the damage ([`Reported::damage`]), so
    /// that `validate` prints it as every command prints that damage: each damage is said
    /// once, in one wording.
    ///
    /// This is the one place that decides what `validate` says, so that its text and its JSON
    /// agree finding by finding.
    ///
    /// ```
    /// use shaderscope::{Container, Severity};
    /// # let bytes = shaderscope::shbin::build::example_vertex_shader();
    /// let file = shaderscope::parse(&bytes)?;
    /// assert!(file.validation().is_empty());
    /// // A DXBC whose SM4 program (`ps_4_0`, 3 tokens) ends in an indexable temp declaration
    /// // with no room for its register: the listing stops there (the damage every command
    /// // reports), and the program's findings say so in the same words: one entry.
    /// let tokens: Vec<u8> = [0x40u32, 3, 0x0100_0069].iter().flat_map(|t| t.to_le_bytes()).collect();
    /// let bytes = shaderscope::dxbc::write::Builder::new().push(*b"SHDR", tokens).finish()?;
    /// let file = shaderscope::parse(&bytes)?;
    /// assert_eq!(
    ///     file.damage()[0].to_string(),
    ///     "truncated indexable temp register at offset 0x38 (need 4 bytes, have 0)"
    /// );
    /// let reported = file.validation();
    /// assert_eq!(reported.len(), 1);
    /// assert_eq!((reported[0].finding.severity, reported[0].finding.offset), (Severity::Error, 0x38));
    /// assert_eq!(reported[0].finding.message, "truncated indexable temp register (need 4 bytes, have 0)");
    /// // `validate` prints it as every command prints the damage.
    /// assert_eq!(reported[0].damage.as_ref(), file.damage().first());
    /// # Ok::<(), shaderscope::Error>(())
    /// ```
    pub fn validation(&self) -> Vec<Reported> {
        let findings = self.validate();
        let damage: Vec<(crate::Error, String)> =
            self.damage().into_iter().map(|e| (e.clone(), e.reason())).collect();
        let lists = |f: &Finding, (e, reason): &(crate::Error, String)| {
            f.severity == Severity::Error && f.offset == e.offset() && f.message.ends_with(reason.as_str())
        };
        let unlisted: Vec<Reported> = damage
            .iter()
            .filter(|d| !findings.iter().any(|f| lists(f, d)))
            .map(|(e, reason)| Reported {
                finding: Finding::error(e.offset(), reason.clone()),
                damage: Some(e.clone()),
            })
            .collect();
        findings
            .into_iter()
            .map(|finding| {
                let damage =
                    damage.iter().find(|d| lists(&finding, d) && finding.message == d.1).map(|d| d.0.clone());
                Reported { finding, damage }
            })
            .chain(unlisted)
            .collect()
    }

    /// The `validate --json` records of the file: one `finding` record per entry of
    /// [`File::validation`], in its order (`valid` false when that finding makes `validate`
    /// fail: an error, or with `strict` a warning), then one closing `validate` record with
    /// `valid` and the counts `errors` and `warnings`. A file without findings gives only the
    /// closing record, which says that it was checked.
    ///
    /// ```
    /// # let bytes = shaderscope::shbin::build::example_vertex_shader();
    /// let file = shaderscope::parse(&bytes)?;
    /// let lines: Vec<String> = file.validate_records("v.shbin", false).iter().map(|r| r.to_line()).collect();
    /// assert_eq!(
    ///     lines,
    ///     ["{\"schema\":3,\"type\":\"validate\",\"format\":\"shbin\",\"path\":\"v.shbin\",\"valid\":true,\"errors\":0,\"warnings\":0}\n"]
    /// );
    /// # Ok::<(), shaderscope::Error>(())
    /// ```
    pub fn validate_records<'p>(&self, path: &'p str, strict: bool) -> Vec<Record<'p>> {
        let format = Some(self.format());
        let all = self.validation();
        let mut records: Vec<Record<'p>> = all
            .iter()
            .map(|r| {
                Record::new(RecordType::Finding, path, format)
                    .with_body(&r.finding)
                    .with_valid(!r.finding.fails(strict))
            })
            .collect();
        let errors = all.iter().filter(|r| r.finding.severity == Severity::Error).count();
        let mut body = serde_json::Map::new();
        body.insert("errors".into(), errors.into());
        body.insert("warnings".into(), (all.len() - errors).into());
        let valid = !all.iter().any(|r| r.finding.fails(strict));
        records.push(Record::new(RecordType::Validate, path, format).with_body(body).with_valid(valid));
        records
    }

    /// The file through the format-independent interface.
    pub fn container(&self) -> &dyn Container {
        match self {
            #[cfg(feature = "direct3d")]
            File::Dxbc(d) => &**d,
            #[cfg(feature = "direct3d")]
            File::D3d9(d) => d,
            #[cfg(feature = "direct3d")]
            File::Fx9(f) => &**f,
            #[cfg(feature = "direct3d")]
            File::Fx11(f) => &**f,
            #[cfg(feature = "n3ds")]
            File::Shbin(s) => &**s,
            #[cfg(feature = "wiiu")]
            File::Gfd(g) => &**g,
            #[cfg(feature = "wiiu")]
            File::Sharcfb(s) => &**s,
            #[cfg(feature = "wiiu")]
            File::Sharc(s) => &**s,
            #[cfg(feature = "mali")]
            File::Mbs(m) => &**m,
            #[cfg(feature = "direct3d")]
            File::Mgfx(m) => &**m,
            #[cfg(feature = "direct3d")]
            File::Packed(p) => &**p,
            #[cfg(not(any(feature = "direct3d", feature = "wiiu", feature = "mali")))]
            File::Never(never, _) => match *never {},
        }
    }
}

/// Why a request about a file cannot be answered: it does not apply to a file of this format,
/// it names something the file does not have (both the caller's mistake), or the file cannot
/// give it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The request does not apply to this file (a SHARCFB variant of a DXBC container).
    #[error("{0}")]
    Inapplicable(#[from] Inapplicable),
    /// The file has no part, program, macro or value of the name asked for; the text names
    /// the ones it has, where there are.
    #[error("{0}")]
    NotFound(String),
    /// The file's fault: the error names the field, its absolute offset and why.
    #[error("{0}")]
    Broken(crate::Error),
}

impl Refusal {
    /// Whether the caller asked for something that does not apply or does not exist, as
    /// opposed to a broken file.
    pub fn is_usage(&self) -> bool {
        !matches!(self, Refusal::Broken(_))
    }
}

#[cfg(feature = "wiiu")]
impl From<VariantError> for Refusal {
    fn from(e: VariantError) -> Self {
        match e {
            VariantError::Broken(e) => Refusal::Broken(e),
            not_found => Refusal::NotFound(not_found.to_string()),
        }
    }
}

/// A DXBC container's checksum ([`File::checksum`]): the one it stores and the one its bytes
/// hash to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checksum {
    /// The stored checksum (bytes 4..20).
    pub stored: [u8; 16],
    /// The checksum of the bytes after it.
    pub computed: [u8; 16],
}

impl Checksum {
    /// Whether the stored checksum is the computed one.
    pub fn ok(&self) -> bool {
        self.stored == self.computed
    }

    /// Whether the container is unsigned: an all-zero stored checksum (DXC output the
    /// validator has not signed).
    pub fn unsigned(&self) -> bool {
        self.stored == [0; 16]
    }

    /// A checksum as 32 lowercase hex digits.
    pub fn hex(sum: &[u8; 16]) -> String {
        crate::print::hex_bytes(sum)
    }
}

/// A program of a SHARCFB archive as `extract` offers it ([`File::program_gshs`]): the
/// shaders of its default variation written as a GFD `.gsh`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProgramGsh {
    /// The program's name (what `extract` takes).
    pub name: String,
    /// Its absolute offset in the archive.
    pub offset: u64,
    /// The size of the `.gsh` its default variation gives, where it can be built.
    pub size: Option<u64>,
}

/// A SHARCFB program's variations as a front end offers them ([`File::variations`]): one
/// value of each macro picks one.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProgramVariations {
    /// The program's name (what `variant` and `extract` take).
    pub program: String,
    /// How many variations there are: the product of the macros' value counts (none past
    /// 2^64).
    pub count: Option<u64>,
    /// Its macros, in the archive's order (the first the most significant digit of a
    /// variation's index).
    pub macros: Vec<VariationMacro>,
}

/// A macro of a SHARCFB program: its name, its values, its default.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct VariationMacro {
    /// Its name (what `--set NAME=VALUE` takes).
    pub name: String,
    /// Its values.
    pub values: Vec<String>,
    /// Its default value, when the archive names one.
    pub default: Option<String>,
}

/// The requests a front end makes of a file beyond the [`Container`] questions; each decides
/// which formats it applies to, so that no front end has to.
impl File<'_> {
    /// The container checksum: DXBC only.
    pub fn checksum(&self) -> std::result::Result<Checksum, Inapplicable> {
        match self {
            #[cfg(feature = "direct3d")]
            File::Dxbc(d) => Ok(Checksum { stored: d.stored_checksum(), computed: d.computed_checksum() }),
            #[allow(unreachable_patterns)]
            _ => Err(self.no_checksum()),
        }
    }

    /// The file's bytes with the computed checksum stored (DXBC only), every other byte as
    /// it is.
    pub fn with_computed_checksum(&self) -> std::result::Result<Vec<u8>, Refusal> {
        match self {
            #[cfg(feature = "direct3d")]
            File::Dxbc(d) => {
                let mut b = d.to_builder();
                b.checksum = crate::format::dxbc::write::ChecksumPolicy::Compute;
                b.finish().map_err(Refusal::Broken)
            }
            #[allow(unreachable_patterns)]
            _ => Err(self.no_checksum().into()),
        }
    }

    fn no_checksum(&self) -> Inapplicable {
        Inapplicable(format!(
            "checksum applies only to DXBC containers (this file: {})",
            self.format().description()
        ))
    }

    /// The binaries one variation of SHARCFB program `program` uses: each macro `set` by its
    /// name or ID to one of its values, the others at their defaults. SHARCFB only.
    #[cfg(feature = "wiiu")]
    pub fn variant(&self, program: &str, set: &[(String, String)]) -> std::result::Result<Resolved, Refusal> {
        match self {
            File::Sharcfb(a) => Ok(a.resolve(program, set)?),
            other => Err(Refusal::Inapplicable(Inapplicable(format!(
                "variant applies to SHARCFB archives, not to a {}",
                other.format().description()
            )))),
        }
    }

    /// The variations of each program of a SHARCFB archive, with their macros (none for
    /// another format).
    pub fn variations(&self) -> Vec<ProgramVariations> {
        match self {
            #[cfg(feature = "wiiu")]
            File::Sharcfb(a) => a
                .programs
                .items
                .iter()
                .map(|p| ProgramVariations {
                    program: p.name.text().into_owned(),
                    count: p.variation_count(),
                    macros: crate::format::sharcfb::info::macros(&p.variations, &p.defaults)
                        .into_iter()
                        .map(|m| VariationMacro { name: m.name, values: m.values, default: m.default })
                        .collect(),
                })
                .collect(),
            #[allow(unreachable_patterns)]
            _ => Vec::new(),
        }
    }

    /// The settings (`--set` pairs, every macro's) of variation `index` of SHARCFB program
    /// `program`: the index's mixed-radix digits, the first macro most significant, as the
    /// listing numbers variations. Give them to [`File::variant`] or [`File::extract`].
    #[cfg(feature = "wiiu")]
    pub fn variation_settings(
        &self,
        program: &str,
        index: u64,
    ) -> std::result::Result<Vec<(String, String)>, Refusal> {
        let File::Sharcfb(a) = self else {
            return Err(Refusal::Inapplicable(Inapplicable(format!(
                "variations apply to SHARCFB archives, not to a {}",
                self.format().description()
            ))));
        };
        let Some((_, p)) = a.program(program) else {
            // The archive's own refusal, which names its programs.
            return Err(a
                .resolve(program, &[])
                .err()
                .map_or_else(|| Refusal::NotFound(format!("no program \"{program}\"")), Refusal::from));
        };
        match p.variation_count() {
            Some(n) if index < n => Ok(a.settings(p, index)),
            n => {
                let n = n.map_or("more than 2^64".into(), |n| n.to_string());
                Err(Refusal::NotFound(format!(
                    "program \"{program}\" has {n} variations, no variation {index}"
                )))
            }
        }
    }

    /// What `extract` offers beyond [`Container::parts`]: a SHARCFB archive's programs.
    pub fn program_gshs(&self) -> Vec<ProgramGsh> {
        match self {
            #[cfg(feature = "wiiu")]
            File::Sharcfb(a) => a
                .programs
                .items
                .iter()
                .zip(a.default_gsh_sizes())
                .map(|(p, size)| ProgramGsh { name: p.name.text().into_owned(), offset: p.at, size })
                .collect(),
            #[allow(unreachable_patterns)]
            _ => Vec::new(),
        }
    }

    /// The bytes `extract NAME` writes: the part named `name` (in any case), or, for a SHARCFB
    /// program that is no part's name, the shaders one variation of it resolves to (`set` as
    /// for [`File::variant`]) as a GFD `.gsh`. Settings apply to a SHARCFB program only.
    pub fn extract(&self, name: &str, set: &[(String, String)]) -> std::result::Result<Vec<u8>, Refusal> {
        let part = self.part(name);
        #[cfg(feature = "wiiu")]
        if let File::Sharcfb(a) = self {
            if part.is_err() && a.program(name).is_some() {
                return Ok(a.gsh(name, set)?.1);
            }
        }
        if !set.is_empty() {
            return Err(Refusal::Inapplicable(Inapplicable(format!(
                "--set applies to the program of a SHARCFB archive, and \"{name}\" is none"
            ))));
        }
        // The reason alone: the name is not in the file, there is no offset to show.
        part.map(|p| p.bytes.into_owned()).map_err(|e| Refusal::NotFound(e.kind().to_string()))
    }
}

/// One thing `validate` reports ([`File::validation`]): a finding, and the damaged part it
/// stands for when the format's own findings do not list that damage.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reported {
    /// What `validate --json` gives: severity, absolute offset, message (for a damaged part
    /// the error's text without its offset).
    pub finding: Finding,
    /// The damaged part ([`Container::damage`]) this finding reports: one the format's
    /// findings do not list, or one a finding words just as the damage words itself.
    /// `validate` prints it as every command prints damage (`error: PATH: truncated … at
    /// offset 0x…`), not in the `offset 0x…: message` form of a finding.
    pub damage: Option<crate::Error>,
}

impl Container for File<'_> {
    fn format(&self) -> Format {
        self.container().format()
    }
    fn write_info_text(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        self.container().write_info_text(out)
    }
    fn write_info_json(&self, out: &mut dyn io::Write) -> io::Result<()> {
        self.container().write_info_json(out)
    }
    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        self.container().disasm(opts, out)
    }
    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
        self.container().write_disasm_json(opts, out)
    }
    fn program_heads(&self) -> Vec<crate::json::Program> {
        self.container().program_heads()
    }
    fn annotate(&self, out: &mut Annotations) {
        self.container().annotate(out)
    }
    fn validate(&self) -> Vec<Finding> {
        self.container().validate()
    }
    fn damage(&self) -> Vec<crate::Error> {
        self.container().damage()
    }
    fn programs(&self) -> Option<usize> {
        self.container().programs()
    }
    fn write(&self) -> Result<Vec<u8>> {
        self.container().write()
    }
    fn parts(&self) -> Vec<Part<'_>> {
        self.container().parts()
    }
    fn embedded(&self) -> Vec<Part<'_>> {
        self.container().embedded()
    }
}

/// Annotate every byte of `data` for `dump`, in whatever state the file is: the whole file
/// when it parses, and otherwise every structure read before the failure. What could not be
/// read is recorded with [`Annotations::error`] (a damaged chunk, a program that does not
/// decode, the failure that stopped the parse). Fails, annotating nothing, when the format is
/// not recognised or not read by this build.
///
/// ```
/// use shaderscope::dump::Annotations;
///
/// let bytes = shaderscope::shbin::build::example_vertex_shader();
/// let mut a = Annotations::new();
/// // Cut short in the middle of the code: the headers before it are still annotated.
/// shaderscope::annotate(&bytes[..0x40], &mut a)?;
/// let mut text = String::new();
/// a.render(&bytes[..0x40], &mut text)?;
/// assert!(text.contains("| DVLE count: 1"), "{text}");
/// let errors: Vec<_> = a.errors().collect();
/// assert_eq!(
///     errors,
///     [(0x14, "DVLP code at offset 0x14 points outside its range (0x34 + 0x20 is outside 0x40)")]
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn annotate(data: &[u8], a: &mut Annotations) -> Result<Format> {
    let e = match parse(data) {
        Ok(file) => {
            file.annotate(a);
            // A damaged part the annotator did not report itself (every command reports it).
            for e in file.damage() {
                if !a.errors().any(|(offset, _)| offset == e.offset()) {
                    a.error(e.offset(), &e);
                }
            }
            return Ok(file.format());
        }
        Err(e) => e,
    };
    let Some(format) = crate::detect::detect(data).filter(|f| f.supported()) else { return Err(e) };
    // What the partial reading below does not claim is what the failure left unread.
    a.fallback(0, data.len() as u64, format_args!("not read: {e}"));
    #[allow(unreachable_patterns)]
    match format {
        #[cfg(feature = "direct3d")]
        Format::Dxbc => {
            if let Ok((d, errors)) = Dxbc::parse_partial(data) {
                for e in &errors {
                    a.error(e.offset(), e);
                }
                d.annotate(a);
                return Ok(format);
            }
        }
        #[cfg(feature = "direct3d")]
        Format::D3d9 => {
            if let Ok((p, _)) = crate::isa::d3d9::Program::parse_partial(data, 0) {
                crate::isa::d3d9::annotate_partial(&p, &e, data.len() as u64, a);
            }
        }
        #[cfg(feature = "direct3d")]
        Format::Fx9 => crate::format::fx9::annotate_damaged(data, a),
        #[cfg(feature = "direct3d")]
        Format::Fx11 => crate::format::fx11::annotate_damaged(data, a),
        #[cfg(feature = "wiiu")]
        Format::Gfd => crate::format::gfd::annotate_damaged(data, a),
        #[cfg(feature = "mali")]
        Format::Mbs => crate::format::mbs::annotate_damaged(data, a),
        #[cfg(feature = "direct3d")]
        Format::Mgfx => crate::format::mgfx::annotate_damaged(data, a),
        #[cfg(feature = "wiiu")]
        Format::Sharcfb | Format::Sharc => crate::format::sharcfb::annotate_damaged(data, format, a),
        #[cfg(feature = "n3ds")]
        Format::Dvlb | Format::Dvoj | Format::Cgfx | Format::Csdr => {
            crate::format::shbin::annotate_damaged(data, format, a)
        }
        // Not read by this build: `supported` said so above.
        _ => {}
    }
    a.error(e.offset(), &e);
    Ok(format)
}

/// What is cheaper worked out for many inputs at once than for one at a time, handed to
/// [`parse_prepared`] with the input it was worked out from. Today that is a DXBC container's
/// checksum: eight containers are hashed side by side ([`crate::format::dxbc::checksum::compute_many`]),
/// which makes the listing of a batch of DXBC files (parse, checksum, listing) several percent
/// faster than hashing each when its listing asks.
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    /// The input's length and its DXBC checksum, where it is a DXBC container.
    #[cfg_attr(not(feature = "direct3d"), allow(dead_code))]
    dxbc_checksum: Option<(usize, [u8; 16])>,
}

/// Work out for each of `inputs` (files of any format, in order) what [`Prepared`] holds.
pub fn prepare(inputs: &[&[u8]]) -> Vec<Prepared> {
    #[cfg(feature = "direct3d")]
    let sums = crate::format::dxbc::checksum::compute_where_dxbc(inputs);
    #[cfg(not(feature = "direct3d"))]
    let sums = vec![None; inputs.len()];
    inputs
        .iter()
        .zip(sums)
        .map(|(data, sum)| Prepared { dxbc_checksum: sum.map(|s| (data.len(), s)) })
        .collect()
}

/// [`parse`] with what [`prepare`] worked out for these bytes (a `prepared` made from other
/// bytes of another length is not used).
#[cfg_attr(not(feature = "direct3d"), allow(unused_variables))]
pub fn parse_prepared<'a>(data: &'a [u8], prepared: &Prepared) -> Result<File<'a>> {
    let file = parse(data)?;
    #[cfg(feature = "direct3d")]
    if let (File::Dxbc(d), Some((len, sum))) = (&file, prepared.dxbc_checksum) {
        if len == data.len() {
            d.set_computed_checksum(sum);
        }
    }
    Ok(file)
}

/// Recognise the format of `data` and parse it. An input this build cannot read is refused
/// with [`crate::detect::readable`]'s error (empty, not a shader binary, or recognised but not
/// supported yet).
pub fn parse(data: &[u8]) -> Result<File<'_>> {
    #[cfg(feature = "direct3d")]
    if crate::format::xnb::is_packed(data) {
        return crate::format::xnb::Packed::parse(data).map(|p| File::Packed(Box::new(p)));
    }
    let format = crate::detect::readable(data)?;
    #[allow(unreachable_patterns)]
    match format {
        #[cfg(feature = "direct3d")]
        Format::Dxbc => Dxbc::parse(data).map(|d| File::Dxbc(Box::new(d))),
        #[cfg(feature = "direct3d")]
        Format::D3d9 => D3d9File::parse(data).map(File::D3d9),
        #[cfg(feature = "direct3d")]
        Format::Fx9 => Fx9::parse(data).map(|f| File::Fx9(Box::new(f))),
        #[cfg(feature = "direct3d")]
        Format::Fx11 => Fx11::parse(data).map(|f| File::Fx11(Box::new(f))),
        #[cfg(feature = "n3ds")]
        Format::Dvlb | Format::Dvoj | Format::Cgfx | Format::Csdr => {
            ShaderFile::parse(data, format).map(|s| File::Shbin(Box::new(s)))
        }
        #[cfg(feature = "wiiu")]
        Format::Gfd => Gfd::parse(data).map(|g| File::Gfd(Box::new(g))),
        #[cfg(feature = "wiiu")]
        Format::Sharcfb => Sharcfb::parse(data).map(|s| File::Sharcfb(Box::new(s))),
        #[cfg(feature = "wiiu")]
        Format::Sharc => Sharc::parse(data).map(|s| File::Sharc(Box::new(s))),
        #[cfg(feature = "mali")]
        Format::Mbs => Mbs::parse(data).map(|m| File::Mbs(Box::new(m))),
        #[cfg(feature = "direct3d")]
        Format::Mgfx => Mgfx::parse(data).map(|m| File::Mgfx(Box::new(m))),
        // Not read by this build: `readable` refuses it above.
        _ => Err(crate::detect::unsupported(format)),
    }
}

#[cfg(all(test, feature = "direct3d", feature = "n3ds", feature = "wiiu"))]
mod tests {
    use super::*;

    /// A prepared checksum is the one the container hashes itself, and one prepared for other
    /// bytes is not taken.
    #[test]
    fn parse_prepared_takes_the_checksum_prepared_for_its_bytes() {
        let dxbc: &[u8] = include_bytes!("../../../samples/ps_color.dxbc");
        let shbin: &[u8] = include_bytes!("../../../samples/vshader.shbin");
        let mut broken = dxbc.to_vec();
        *broken.last_mut().unwrap() ^= 1;
        let prepared = prepare(&[dxbc, shbin, &broken]);
        let checksum = |f: File<'_>| match f {
            File::Dxbc(d) => (d.computed_checksum(), d.checksum_ok()),
            _ => panic!("not a DXBC container"),
        };
        let alone = checksum(parse(dxbc).unwrap());
        assert!(alone.1);
        assert_eq!(checksum(parse_prepared(dxbc, &prepared[0]).unwrap()), alone);
        assert!(prepared[1].dxbc_checksum.is_none());
        // The broken copy's checksum differs from the original's and is found as it is.
        let (sum, ok) = checksum(parse_prepared(&broken, &prepared[2]).unwrap());
        assert!(!ok && sum != alone.0);
        // Prepared for another input of another length: hashed again, not taken.
        let shorter = &dxbc[..dxbc.len() - 4];
        if let Ok(f) = parse_prepared(shorter, &prepared[0]) {
            assert_ne!(checksum(f).0, alone.0);
        }
    }

    /// The checksum requests answer for DXBC and refuse, naming the format, for the others;
    /// the repaired bytes carry the computed checksum and change nothing else.
    #[test]
    fn checksum_requests_apply_to_dxbc_only() {
        let dxbc: &[u8] = include_bytes!("../../../samples/ps_color.dxbc");
        let shbin: &[u8] = include_bytes!("../../../samples/vshader.shbin");
        let mut wrong = dxbc.to_vec();
        wrong[4] ^= 0xff;
        let file = parse(&wrong).unwrap();
        let sum = file.checksum().unwrap();
        assert!(
            !sum.ok() && !sum.unsigned() && sum.computed == parse(dxbc).unwrap().checksum().unwrap().stored
        );
        assert_eq!(file.with_computed_checksum().unwrap(), dxbc);
        let other = parse(shbin).unwrap();
        let refused =
            "checksum applies only to DXBC containers (this file: Nintendo 3DS shader binary (DVLB))";
        assert_eq!(other.checksum().unwrap_err().to_string(), refused);
        assert_eq!(other.with_computed_checksum().unwrap_err().to_string(), refused);
        assert!(other.with_computed_checksum().unwrap_err().is_usage());
    }

    /// `extract` gives a part's bytes, says which names do not exist, and takes settings for
    /// a SHARCFB program only; `variant` applies to SHARCFB only.
    #[test]
    fn extract_and_variant_decide_what_applies() {
        let shbin: &[u8] = include_bytes!("../../../samples/vshader.shbin");
        let file = parse(shbin).unwrap();
        let part = file.part("dvle0.code").unwrap();
        assert_eq!(file.extract("DVLE0.CODE", &[]).unwrap(), &part.bytes[..]);
        assert_eq!(
            file.extract("nothing", &[]).unwrap_err(),
            Refusal::NotFound("no part named \"nothing\" (parts: code, opdescs, dvle0.code)".into())
        );
        let set = [("FOG".to_string(), "1".to_string())];
        assert_eq!(
            file.extract("dvle0.code", &set).unwrap_err(),
            Refusal::Inapplicable(Inapplicable(
                "--set applies to the program of a SHARCFB archive, and \"dvle0.code\" is none".into()
            ))
        );
        assert!(file.program_gshs().is_empty());
        assert_eq!(
            file.variant("p", &[]).unwrap_err().to_string(),
            "variant applies to SHARCFB archives, not to a Nintendo 3DS shader binary (DVLB)"
        );
        let sharcfb: &[u8] = include_bytes!("../../../samples/shaders.sharcfb");
        let archive = parse(sharcfb).unwrap();
        let programs = archive.program_gshs();
        assert!(!programs.is_empty());
        let gsh = archive.extract(&programs[0].name, &[]).unwrap();
        assert_eq!(Some(gsh.len() as u64), programs[0].size);
        assert_eq!(crate::detect(&gsh), Some(Format::Gfd));
        assert!(matches!(archive.variant("no such program", &[]), Err(Refusal::NotFound(_))));
    }

    /// A SHARCFB archive's variations: each program with its macros, and the settings of a
    /// variation by index (the first macro the most significant digit), which pick the
    /// binaries `variant` gives for the same settings; other formats have none.
    #[test]
    fn variations_and_their_settings() {
        let sharcfb: &[u8] = include_bytes!("../../../samples/shaders.sharcfb");
        let archive = parse(sharcfb).unwrap();
        let all = archive.variations();
        let color = all.iter().find(|p| p.program == "color").unwrap();
        assert_eq!(color.count, Some(2));
        assert_eq!(
            color.macros,
            [VariationMacro {
                name: "TINT".into(),
                values: vec!["off".into(), "on".into()],
                default: Some("on".into())
            }]
        );
        for index in 0..2 {
            let set = archive.variation_settings("color", index).unwrap();
            assert_eq!(set, [("TINT".to_string(), color.macros[0].values[index as usize].clone())]);
            assert_eq!(archive.variant("color", &set).unwrap().variation, index);
        }
        assert_eq!(
            archive.variation_settings("color", 2).unwrap_err(),
            Refusal::NotFound("program \"color\" has 2 variations, no variation 2".into())
        );
        assert_eq!(
            archive.variation_settings("colour", 0).unwrap_err(),
            archive.variant("colour", &[]).unwrap_err()
        );
        let shbin: &[u8] = include_bytes!("../../../samples/vshader.shbin");
        let file = parse(shbin).unwrap();
        assert!(file.variations().is_empty());
        assert_eq!(
            file.variation_settings("p", 0).unwrap_err().to_string(),
            "variations apply to SHARCFB archives, not to a Nintendo 3DS shader binary (DVLB)"
        );
    }
}
