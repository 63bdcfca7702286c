//! Direct3D DXBC containers (`fxc`/`D3DCompile` output for Direct3D 10, 11 and 12, and the
//! DXIL containers of DXC at container level).
//!
//! ```text
//! "DXBC" | checksum[16] | u32 1 | u32 total size | u32 chunk count | u32 chunk offsets[count]
//! chunk:   FourCC | u32 size | payload[size]
//! ```
//!
//! [`Dxbc::parse`] checks the frame (header, index, every chunk inside the container) and
//! parses the chunks it models into structured data, each keeping its byte range:
//!
//! | chunk | model |
//! |---|---|
//! | RDEF | [`rdef::Rdef`]: constant buffers, variables, types (struct members recursively), default values, bindings (SM4, SM5 "RD11" and SM5.1 layouts), creator |
//! | ISGN, OSGN, PCSG, OSG5, ISG1, OSG1, PSG1 | [`signature::Signature`] |
//! | SHDR, SHEX | the SM4/5 token stream ([`Program`]); the model comes from the version token, not the tag |
//! | STAT | [`chunks::Stat`] (29 or 37 words) |
//! | SFI0 | [`chunks::Sfi0`] |
//! | IFCE | [`chunks::Ifce`] (class types, instances, interface slots) |
//! | Aon9 | [`chunks::Aon9`] (register mappings and the embedded D3D9 program) |
//! | RTS0 | [`chunks::RootSignature`] (root signature 1.0 and 1.1) |
//!
//! Every other chunk (SDBG, SPDB, ILDB, ILDN, DXIL, HASH, PSV0, RDAT, PRIV, …) is kept as
//! bytes: listed, extractable, written back unchanged.
//!
//! A chunk that fails to parse does not make the container fail: its error is kept
//! ([`Dxbc::chunk_errors`]), `validate` reports it and `disasm` fails with it.
//!
//! The listing ([`listing`]) reproduces what fxc's `/Fc` (`D3DDisassemble`) prints, including
//! the differences between fxc generations ([`Generation`]). Writing goes through
//! [`write::Builder`]; see there for the checksum policy.

mod annotate;
pub mod checksum;
pub mod chunks;
mod container;
mod json;
pub mod listing;
// `program::print` (into a `TextBuf`) is no longer called: the listing goes through one printer.
// The SM4 branch replaces `print` and `print_to` by one `print` into any printer; then this
// `allow` goes.
#[allow(dead_code)]
mod program;
pub mod rdef;
pub mod reflect;
pub mod signature;
#[cfg(test)]
mod tests;
mod validate;
pub mod write;

use crate::any::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::model::{Finding, Part, Stage};
use crate::print::Printer;
use crate::toolkit::Endian;
pub use container::{CHUNK_HEADER_SIZE, Chunk, FourCC, Frame, HEADER_SIZE, Header, Layout};
use signature::{ElementLayout, Signature, SignatureKind};

/// The SM4/5 program of a SHDR/SHEX chunk: its version and tokens, not yet decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Program<'a> {
    /// The chunk it sits in.
    pub chunk: Chunk<'a>,
    /// Program stage (the high half of the version token).
    pub stage: Stage,
    /// Major shader model.
    pub major: u8,
    /// Minor shader model.
    pub minor: u8,
    /// Length in tokens as the second token says.
    pub length: u32,
}

impl Program<'_> {
    /// The version line fxc prints: `vs_5_0`.
    pub fn version_text(&self) -> String {
        format!("{}_{}_{}", self.stage.prefix(), self.major, self.minor)
    }
    /// True for shader model 5.1 and later.
    pub fn is_sm51(&self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }
}

/// Which fxc printed a listing: the text differs between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
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
    /// The generation that wrote a given creator string, if it names a known compiler.
    pub fn from_creator(creator: &str) -> Option<Self> {
        Self::from_creator_bytes(creator.as_bytes())
    }

    /// [`Generation::from_creator`] on the string's bytes as the file holds them (the version
    /// is ASCII; bytes that are not UTF-8 make a part that is not a number either way).
    fn from_creator_bytes(creator: &[u8]) -> Option<Self> {
        let number = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<u32>().ok();
        let v = creator.rsplit(|&c| c == b' ').next()?;
        let mut parts = v.split(|&c| c == b'.');
        let major = number(parts.next()?)?;
        let minor = parts.next().and_then(number).unwrap_or(0);
        Some(match (major, minor) {
            (9, m) if m < 30 => Generation::Fxc9_29,
            (9, _) => Generation::Fxc9_30,
            (6, _) => Generation::Fxc6_3,
            (m, _) if m >= 10 => Generation::Fxc10,
            _ => return None,
        })
    }

    /// Parse a `--fxc` option value: `9.29`, `9.30`, `6.3`, `10`.
    pub fn from_option(s: &str) -> Option<Self> {
        match s {
            "9.29" => Some(Generation::Fxc9_29),
            "9.30" => Some(Generation::Fxc9_30),
            "6.3" => Some(Generation::Fxc6_3),
            "10" | "10.0" | "10.1" => Some(Generation::Fxc10),
            _ => None,
        }
    }

    /// fxc 9.29's narrower signature tables.
    pub fn narrow_signatures(self) -> bool {
        self == Generation::Fxc9_29
    }
}

/// Why a generation was chosen for a listing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GenerationSource {
    /// The RDEF creator string.
    RdefCreator,
    /// The creator string inside the Aon9 D3D9 program's comments (CTAB or debug info).
    Aon9Creator,
    /// Shader model 5.1 needs fxc 10.
    ShaderModel,
    /// Nothing in the file tells; the default applies.
    Default,
    /// Given by the caller.
    Option,
}

/// A parsed DXBC container.
#[derive(Debug, Clone)]
pub struct Dxbc<'a> {
    /// Header, index and chunks.
    pub frame: Frame<'a>,
    /// RDEF, when present and valid.
    pub rdef: Option<rdef::Rdef<'a>>,
    /// Input signature (ISGN/ISG1).
    pub input: Option<Signature<'a>>,
    /// Output signature (OSGN/OSG5/OSG1).
    pub output: Option<Signature<'a>>,
    /// Patch-constant signature (PCSG/PSG1).
    pub patch_constant: Option<Signature<'a>>,
    /// The SM4/5 program (SHDR/SHEX).
    pub program: Option<Program<'a>>,
    /// STAT.
    pub stat: Option<chunks::Stat<'a>>,
    /// SFI0.
    pub sfi0: Option<chunks::Sfi0<'a>>,
    /// IFCE.
    pub ifce: Option<chunks::Ifce<'a>>,
    /// Aon9.
    pub aon9: Option<chunks::Aon9<'a>>,
    /// RTS0.
    pub root_signature: Option<chunks::RootSignature>,
    /// Modelled chunks that failed to parse: (chunk index, error).
    pub chunk_errors: Vec<(usize, Error)>,
}

/// What a chunk tag is, for `info` and `parts`.
pub fn chunk_description(tag: &[u8; 4]) -> &'static str {
    match tag {
        b"RDEF" => "resource definitions",
        b"ISGN" | b"ISG1" => "input signature",
        b"OSGN" | b"OSG5" | b"OSG1" => "output signature",
        b"PCSG" | b"PSG1" => "patch constant signature",
        b"SHDR" => "shader program (SM4 token stream)",
        b"SHEX" => "shader program (SM4/5 token stream)",
        b"STAT" => "statistics",
        b"SFI0" => "required features",
        b"IFCE" => "class linkage (interfaces)",
        b"Aon9" => "Direct3D 9 program for feature level 9",
        b"RTS0" => "root signature",
        b"SDBG" => "debug information (old style)",
        b"SPDB" => "debug information (PDB)",
        b"ILDB" => "DXIL with debug information",
        b"ILDN" => "debug name",
        b"DXIL" => "DXIL program",
        b"HASH" => "shader hash",
        b"PSV0" => "pipeline state validation",
        b"RDAT" => "runtime data",
        b"PRIV" => "private data",
        b"VERS" => "compiler version",
        _ => "unknown chunk",
    }
}

impl<'a> Dxbc<'a> {
    /// Parse a container. Fails only when the frame itself is broken; chunk errors are kept.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let mut d = Dxbc::unparsed(Frame::parse(data)?);
        d.parse_chunks();
        Ok(d)
    }

    /// A container whose chunks are not parsed yet.
    fn unparsed(frame: Frame<'a>) -> Self {
        Dxbc {
            frame,
            rdef: None,
            input: None,
            output: None,
            patch_constant: None,
            program: None,
            stat: None,
            sfi0: None,
            ifce: None,
            aon9: None,
            root_signature: None,
            chunk_errors: Vec::new(),
        }
    }

    /// Parse the chunks this module models (the first of each kind), keeping their errors.
    fn parse_chunks(&mut self) {
        let d = self;
        for index in 0..d.frame.chunks.len() {
            let Some(c) = d.frame.chunks.get(index).copied() else { break };
            let c = &c;
            let base = c.data_offset();
            let sig = |kind, layout| Signature::parse(c.data, base, kind, layout);
            let r: Result<()> = match &c.fourcc.0 {
                b"RDEF" if d.rdef.is_none() => rdef::Rdef::parse(c.data, base).map(|v| d.rdef = Some(v)),
                b"ISGN" if d.input.is_none() => {
                    sig(SignatureKind::Input, ElementLayout::Plain).map(|v| d.input = Some(v))
                }
                b"ISG1" if d.input.is_none() => {
                    sig(SignatureKind::Input, ElementLayout::MinPrecision).map(|v| d.input = Some(v))
                }
                b"OSGN" if d.output.is_none() => {
                    sig(SignatureKind::Output, ElementLayout::Plain).map(|v| d.output = Some(v))
                }
                b"OSG5" if d.output.is_none() => {
                    sig(SignatureKind::Output, ElementLayout::Stream).map(|v| d.output = Some(v))
                }
                b"OSG1" if d.output.is_none() => {
                    sig(SignatureKind::Output, ElementLayout::MinPrecision).map(|v| d.output = Some(v))
                }
                b"PCSG" if d.patch_constant.is_none() => {
                    sig(SignatureKind::PatchConstant, ElementLayout::Plain)
                        .map(|v| d.patch_constant = Some(v))
                }
                b"PSG1" if d.patch_constant.is_none() => {
                    sig(SignatureKind::PatchConstant, ElementLayout::MinPrecision)
                        .map(|v| d.patch_constant = Some(v))
                }
                b"SHDR" | b"SHEX" if d.program.is_none() => program_of(*c).map(|v| d.program = Some(v)),
                b"STAT" if d.stat.is_none() => {
                    d.stat = Some(chunks::Stat::parse(c.data, base));
                    Ok(())
                }
                b"SFI0" if d.sfi0.is_none() => chunks::Sfi0::parse(c.data, base).map(|v| d.sfi0 = Some(v)),
                b"IFCE" if d.ifce.is_none() => chunks::Ifce::parse(c.data, base).map(|v| d.ifce = Some(v)),
                b"Aon9" if d.aon9.is_none() => chunks::Aon9::parse(c.data, base).map(|v| d.aon9 = Some(v)),
                b"RTS0" if d.root_signature.is_none() => {
                    chunks::RootSignature::parse(c.data, base).map(|v| d.root_signature = Some(v))
                }
                _ => Ok(()),
            };
            if let Err(e) = r {
                d.chunk_errors.push((index, e));
            }
        }
    }

    /// The whole input.
    pub fn data(&self) -> &'a [u8] {
        self.frame.data
    }

    /// Chunks in index order.
    pub fn chunks(&self) -> &[Chunk<'a>] {
        &self.frame.chunks
    }

    /// The first chunk with this tag.
    pub fn chunk(&self, tag: &[u8; 4]) -> Option<&Chunk<'a>> {
        self.frame.chunks.iter().find(|c| &c.fourcc.0 == tag)
    }

    /// The stored checksum.
    pub fn stored_checksum(&self) -> [u8; 16] {
        self.frame.header.checksum
    }

    /// The checksum computed over the container.
    pub fn computed_checksum(&self) -> [u8; 16] {
        self.frame.computed_checksum()
    }

    /// True when the stored checksum matches the computed one.
    pub fn checksum_ok(&self) -> bool {
        self.stored_checksum() == self.computed_checksum()
    }

    /// The RDEF creator string, if any.
    pub fn creator(&self) -> Option<String> {
        self.rdef.as_ref().map(|r| r.creator.text().into_owned())
    }

    /// The fxc generation whose listing format applies, and why.
    pub fn generation(&self) -> (Generation, GenerationSource) {
        if let Some(g) = self.rdef.as_ref().and_then(|r| Generation::from_creator_bytes(r.creator.bytes)) {
            return (g, GenerationSource::RdefCreator);
        }
        if let Some(g) = self
            .aon9
            .as_ref()
            .and_then(|a| aon9_creator_bytes(a.program))
            .and_then(Generation::from_creator_bytes)
        {
            return (g, GenerationSource::Aon9Creator);
        }
        if self.program.is_some_and(|p| p.is_sm51()) {
            return (Generation::Fxc10, GenerationSource::ShaderModel);
        }
        // Stripped: a level-9 container comes from fxc 9.x (fxc 10 builds in the corpus all
        // carry debug info, hence a creator, in their Aon9 program); anything else from fxc 10,
        // the disassembler that still ships.
        if self.aon9.is_some() {
            return (Generation::Fxc6_3, GenerationSource::Default);
        }
        (Generation::Fxc10, GenerationSource::Default)
    }

    /// Re-encode (see [`write::Builder`] for the checksum policy).
    pub fn to_builder(&self) -> write::Builder<'a> {
        write::Builder::from_frame(&self.frame)
    }

    /// Part names for `extract`: the tag of chunk `index`, or `TAG.N` (N-th of that tag) when
    /// a tag repeats.
    pub fn part_name(&self, index: usize) -> String {
        let chunks = &self.frame.chunks;
        let Some(chunk) = chunks.get(index) else { return String::new() };
        let same = chunks.iter().filter(|c| c.fourcc == chunk.fourcc).count();
        if same > 1 {
            let nth = chunks.iter().take(index).filter(|c| c.fourcc == chunk.fourcc).count();
            format!("{}.{nth}", chunk.fourcc.name())
        } else {
            chunk.fourcc.name()
        }
    }

    /// The decoded SM4/5 program of the SHDR/SHEX chunk, if the container has one.
    ///
    /// ```
    /// use shaderscope::dxbc::{Dxbc, write::Builder};
    ///
    /// // ps_4_0, 3 tokens: the version, the length and `ret`.
    /// let tokens: Vec<u8> = [0x0000_0040u32, 3, 0x0100_003e].iter().flat_map(|t| t.to_le_bytes()).collect();
    /// let mut b = Builder::new();
    /// b.push(*b"SHDR", tokens);
    /// let bytes = b.finish()?;
    /// let d = Dxbc::parse(&bytes)?;
    /// let program = d.sm4().expect("a SHDR chunk")?;
    /// assert_eq!(program.version_name(), "ps_4_0");
    /// let mnemonics: Vec<_> = program.instructions().map(|i| i.map(|i| i.mnemonic())).collect::<Result<_, _>>()?;
    /// assert_eq!(mnemonics, [Some("ret")]);
    /// # Ok::<(), shaderscope::Error>(())
    /// ```
    pub fn sm4(&self) -> Option<Result<crate::isa::sm4::Program<'a>>> {
        let chunk = self.program?.chunk;
        Some(crate::isa::sm4::Program::parse(chunk.data, chunk.data_offset() as u64))
    }
}

fn program_of(c: Chunk<'_>) -> Result<Program<'_>> {
    let r = c.reader(Endian::Little);
    let version = r.u32_at(0, "program version token")?;
    let length = r.u32_at(4, "program length token")?;
    let Some(stage) = Stage::from_sm4(version >> 16) else {
        return Err(Error::invalid(
            r.base(),
            "program version token",
            format!("unknown program type {}", version >> 16),
        ));
    };
    Ok(Program { chunk: c, stage, major: ((version >> 4) & 0xF) as u8, minor: (version & 0xF) as u8, length })
}

/// The creator string inside a D3D9 program's comment blocks: the CTAB creator or the one in
/// debug information (`DBUG`) that `/Zi` puts there.
pub fn aon9_creator(program: &[u8]) -> Option<String> {
    aon9_creator_bytes(program).map(|c| String::from_utf8_lossy(c).into_owned())
}

/// [`aon9_creator`] as the bytes the program holds.
fn aon9_creator_bytes(program: &[u8]) -> Option<&[u8]> {
    let at = memchr::memmem::find(program, b"Microsoft (R) HLSL Shader Compiler ")?;
    let rest = program.get(at..)?;
    rest.get(..memchr::memchr(0, rest).unwrap_or(rest.len()))
}

/// Parse a DXBC file for the [`Container`] interface.
pub fn parse_container(data: &[u8]) -> Result<Box<dyn Container + '_>> {
    // Parsed in its box: the container is large, and moving it in would be a copy.
    let mut d = Box::new(Dxbc::unparsed(Frame::parse(data)?));
    d.parse_chunks();
    Ok(d)
}

impl Container for Dxbc<'_> {
    fn format(&self) -> Format {
        Format::Dxbc
    }

    fn info_text(&self, out: &mut String) {
        json::info_text(self, out);
    }

    fn info_json(&self) -> serde_json::Value {
        json::info_json(self)
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        listing::write_listing(self, &listing::ListingOptions::from_disasm(opts), out)
    }

    fn disasm_json(&self, opts: &DisasmOptions) -> Result<serde_json::Value> {
        json::disasm_json(self, opts)
    }

    fn annotate(&self, out: &mut Annotations) {
        annotate::annotate(self, out);
    }

    fn validate(&self) -> Vec<Finding> {
        validate::validate(self)
    }

    fn write(&self) -> Result<Vec<u8>> {
        self.to_builder().finish()
    }

    fn parts(&self) -> Vec<Part<'_>> {
        self.frame
            .chunks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                Part::new(self.part_name(i), c.data_offset() as u64, c.data, chunk_description(&c.fourcc.0))
            })
            .collect()
    }
}
