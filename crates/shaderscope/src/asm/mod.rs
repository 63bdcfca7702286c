//! Listing text → binary: the assemblers, and the one entry point that picks one.
//!
//! Every assembler has the same shape (ARCHITECTURE.md has the checklist a new one follows):
//! - [`text`], the text toolkit: a cursor over a line, the numbers listings print, the error
//!   with the line and column, the guard that bounds nesting. Nothing in it knows an
//!   instruction set.
//! - per instruction set, text → the owned instruction its encoder takes: SM4 reads a line
//!   into an `isa::sm4::encode::Inst` ([`crate::isa::sm4::asm`]); Direct3D 9 reads a line
//!   into its tokens ([`crate::isa::d3d9::asm`]); PICA200 reads picasso source into code
//!   words, operand descriptors and executables ([`crate::isa::pica::asm`]); Latte, Mali GP
//!   and Mali PP read decaf's and Mesa lima's texts into words ([`crate::isa::latte::asm`],
//!   [`crate::isa::mali_gp::asm`], [`crate::isa::mali_pp::asm`]).
//! - per container, the binary rebuilt from the parsed text and, when there is one, the
//!   original whose parts the text does not carry (`asm --like`): a DXBC container
//!   ([`crate::format::dxbc::assemble`]), a Direct3D 9 program
//!   ([`crate::isa::d3d9::asm::parse_program_like`]), a SHBIN
//!   ([`crate::format::shbin::assemble`]), a `.gsh` ([`crate::format::gfd::assemble`]), a
//!   SHARCFB ([`crate::format::sharcfb::assemble`]), an MBS file
//!   ([`crate::format::mbs::assemble`]); the last three only into an original.
//! - [`assemble`], [`assemble_files`] and [`assemble_variation`], which pick the assembler by
//!   the text's first lines ([`Kind::of`]), [`assemble_bare`] for a bare program, and
//!   [`compare`] (`asm --verify`).
//!
//! ```
//! use shaderscope::asm::{self, Kind};
//!
//! let text = "    vs_2_0\n    dcl_position v0\n    mov oPos, v0\n";
//! let a = asm::assemble(text, None)?;
//! assert_eq!((a.kind, a.bytes.len()), (Kind::D3d9, 32));
//! // The same program, assembled into itself, is the same bytes.
//! assert_eq!(asm::assemble(text, Some(&a.bytes))?.bytes, a.bytes);
//! assert_eq!(asm::compare(&a.bytes, &a.bytes)?.lines, ["program  same"]);
//!
//! let e = asm::assemble("ps_4_0\nmov o0.xyzw, l(1.0, 2.0)\n", None).unwrap_err();
//! assert_eq!(e.to_string(), "line 2, column 25: expected one or four values");
//! // An original of the other kind is said after the text is found to assemble.
//! let e = asm::assemble("ps_4_0\nret\n", Some(&a.bytes)).unwrap_err();
//! assert!(matches!(e, asm::Error::Original(asm::Original::OtherKind)));
//! # Ok::<(), asm::Error>(())
//! ```

pub mod text;

use crate::any::File as AnyFile;
#[cfg(feature = "direct3d")]
use crate::format::dxbc::{Dxbc, assemble as dxbc};
pub use text::{LineError, Syntax};

/// Why a listing did not assemble.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The text: the line, the column and what was expected there.
    #[error("{0}")]
    Text(#[from] LineError),
    /// A listing of what cannot be assembled, by its header line.
    #[error("line {line}: {why}")]
    Refused {
        /// The 1-based line of the header that says what the listing is of.
        line: usize,
        /// What cannot be assembled and why.
        why: &'static str,
    },
    /// Several files, of which the first is no picasso source: a Direct3D listing is
    /// assembled alone.
    #[error("{0}: several files make one binary only when they are picasso sources (a SHBIN)")]
    Several(String),
    /// A bare program of an instruction set with no assembler (yet, or in this build).
    #[error("no assembler for {0} listings (they are listed, not assembled)")]
    NoAssembler(&'static str),
    /// A listing of a whole file that is rebuilt only into its original (what it is, and
    /// the `--format` that assembles one of its programs alone).
    #[error(
        "a listing of {0} is rebuilt into its original: give the original with --like (or assemble \
         one program alone with --format {1})"
    )]
    NeedsOriginal(&'static str, &'static str),
    /// A text of a kind this build does not assemble (its feature is off).
    #[error("this build assembles no {0} (its Cargo feature is off)")]
    NotBuilt(&'static str),
    /// The binary could not be laid out (a container too large for 32-bit offsets).
    #[error("{0}")]
    Write(#[from] crate::Error),
    /// The original (`like`, or the binary compared with) is of no use: what it is, not the
    /// text, is at fault.
    #[error("{0}")]
    Original(#[from] Original),
}

/// What is wrong with an original binary given beside a listing.
#[derive(Debug, thiserror::Error)]
pub enum Original {
    /// It does not parse.
    #[error("{0}")]
    Unreadable(crate::Error),
    /// It parses as a format no assembler makes (its description).
    #[error("not a file asm rebuilds (DXBC, Direct3D 9, 3DS shader file, .gsh, SHARCFB, MBS): {0}")]
    NotAssembled(&'static str),
    /// It is of the kind the listing makes but cannot be rebuilt from it (what, and why).
    #[error("{0}")]
    Unsupported(String),
    /// It is the other kind of binary than the listing makes.
    #[error(
        "not the kind of binary the listing makes (a DXBC container for an SM4/SM5 listing, a \
         Direct3D 9 program for an SM1-3 one, a 3DS shader file for picasso source, a .gsh or \
         SHARCFB for a Wii U listing, an MBS file for an MBS listing)"
    )]
    OtherKind,
}

/// One text given to the assembler: its name (for errors; empty for none) and the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct File<'a> {
    /// The name errors give (a path as the user wrote it).
    pub name: &'a str,
    /// The listing or source.
    pub text: &'a str,
}

/// What an assembler makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A DXBC container, from an SM4/SM5 listing (its Aon9 program too, when it has one).
    Dxbc,
    /// Direct3D 9 bytecode, from an SM1–3 listing.
    D3d9,
    /// A 3DS SHBIN (one DVLB), from picasso source (`.v.pica`, `.g.pica`, `.vsh`, `.gsh`) or
    /// `disasm --dvle N`'s listing.
    Shbin,
    /// A Wii U `.gsh` or SHARCFB archive, from `disasm`'s listing of it (its shaders'
    /// summary lines, `---- vertex (N bytes) ----` and decaf's Latte text), rebuilt into the
    /// original (`--like`).
    Gx2,
    /// An MBS file, from `disasm`'s listing of one, rebuilt into the original (`--like`).
    Mbs,
}

impl Kind {
    /// The assembler a text needs, by its first lines. By its first line that is not blank:
    /// a Wii U listing when that is a shader's summary line (`VS mode=…`, `PS `, `GS `) or a
    /// SHARCFB binary's heading (`; binary 0: …`); an MBS listing when it is `; vertex
    /// shader, CVER …` or `; fragment shader, CFRA …`. Else picasso source when its first
    /// statement is a directive (`.fvec`, `.proc`, …; blank, `;`-comment and `#` lines
    /// skipped); an SM4/SM5 listing when any line starts as its version does (`ps_4_0`,
    /// `cs_5_1`, `vs_4_0_level_9_1`); else Direct3D 9.
    pub fn of(text: &str) -> Kind {
        let head = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if ["VS ", "PS ", "GS ", "; binary "].iter().any(|p| head.starts_with(p)) {
            return Kind::Gx2;
        }
        if ["; vertex shader, CVER", "; fragment shader, CFRA"]
            .iter()
            .any(|p| head.trim_start().starts_with(p))
        {
            return Kind::Mbs;
        }
        let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with([';', '#']));
        if first.is_some_and(|l| l.starts_with('.')) {
            return Kind::Shbin;
        }
        let sm4 = text.lines().any(|l| {
            matches!(l.trim().as_bytes(), [t, b's', b'_', b'4' | b'5', b'_', _, ..] if b"vpghdc".contains(t))
        });
        if sm4 { Kind::Dxbc } else { Kind::D3d9 }
    }
}

/// An assembled binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    /// What it is.
    pub kind: Kind,
    /// Its bytes (a DXBC container with its checksum, a whole Direct3D 9 program, a SHBIN,
    /// a `.gsh`, a SHARCFB).
    pub bytes: Vec<u8>,
    /// What the user is told besides (a Wii U shader's register fields recomputed, its Cemu
    /// hash), one line each.
    pub notes: Vec<String>,
}

/// A file rebuilt from its listing into its original: its bytes, and what the user is told
/// besides ([`Assembled::notes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rebuilt {
    /// The file.
    pub bytes: Vec<u8>,
    /// Per edited part, what was recomputed (a Wii U shader's register fields, its Cemu hash).
    pub notes: Vec<String>,
}

/// A SHARCFB program variation: whose binaries a listing of bare shaders (without `; binary
/// N:` headings) replaces (`asm --like FILE.sharcfb --program NAME --set MACRO=VALUE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Variation<'a> {
    /// The program's name; `None` when the archive has one program.
    pub program: Option<&'a str>,
    /// The macros set (`MACRO`, `VALUE`); the others take their defaults.
    pub set: &'a [(String, String)],
}

/// The listing refused before anything else is read: one of a binary no assembler makes
/// from text (a DXIL container's, a root signature's), by the header line that says so.
#[cfg(feature = "direct3d")]
pub fn refuse(text: &str) -> Result<(), Error> {
    dxbc::refuse(text)
}

/// An original binary given beside a listing: what it parses as.
fn original(bytes: &[u8]) -> Result<AnyFile<'_>, Original> {
    #[allow(unreachable_patterns)]
    match crate::any::parse(bytes) {
        #[cfg(feature = "direct3d")]
        Ok(f @ (AnyFile::Dxbc(_) | AnyFile::D3d9(_))) => Ok(f),
        #[cfg(feature = "n3ds")]
        Ok(f @ AnyFile::Shbin(_)) => Ok(f),
        #[cfg(feature = "wiiu")]
        Ok(f @ (AnyFile::Gfd(_) | AnyFile::Sharcfb(_))) => Ok(f),
        #[cfg(feature = "mali")]
        Ok(f @ AnyFile::Mbs(_)) => Ok(f),
        Ok(other) => Err(Original::NotAssembled(crate::Container::format(&other).description())),
        Err(e) => Err(Original::Unreadable(e)),
    }
}

/// Assemble a listing ([`Kind::of`] picks the assembler): into a new binary, or with `like`
/// into that original, which keeps what the text does not carry (a DXBC container's chunks
/// the text does not determine; a Direct3D 9 program's comment blocks). In order: a listing
/// [`refuse`] refuses, an original of no use, text that does not assemble, an original of the
/// other kind. [`assemble_files`] of one file with no name.
pub fn assemble(text: &str, like: Option<&[u8]>) -> Result<Assembled, Error> {
    assemble_files(&[File { name: "", text }], like)
}

/// Assemble named texts, as [`assemble`] does one: the first file's [`Kind`] picks the
/// assembler; several files make one SHBIN (picasso sources, one DVLE each) and are refused
/// for any other kind. Errors in a text name its file.
pub fn assemble_files(files: &[File<'_>], like: Option<&[u8]>) -> Result<Assembled, Error> {
    assemble_variation(files, like, None)
}

/// [`assemble_files`], with the SHARCFB program variation whose binaries a listing of bare
/// shaders replaces (`None`: the listing names each binary it replaces).
pub fn assemble_variation(
    files: &[File<'_>],
    like: Option<&[u8]>,
    variation: Option<Variation<'_>>,
) -> Result<Assembled, Error> {
    let Some(first) = files.first() else {
        return Err(Error::Several(String::new()));
    };
    let kind = if empty_wiiu(first.text, like) { Kind::Gx2 } else { Kind::of(first.text) };
    if kind != Kind::Shbin && files.len() > 1 {
        return Err(Error::Several(first.name.to_string()));
    }
    let mut notes = Vec::new();
    let bytes = match kind {
        Kind::Shbin => shbin(files, like),
        Kind::Mbs => mbs(files, like),
        Kind::Dxbc | Kind::D3d9 => direct3d(first.text, kind == Kind::Dxbc, like),
        Kind::Gx2 => gx2(first.text, like, variation).map(|r| {
            notes = r.notes;
            r.bytes
        }),
    };
    // An error in the one text names its file (several files' errors name theirs already).
    let bytes = bytes.map_err(|e| match e {
        Error::Text(t) if files.len() == 1 && !first.name.is_empty() => Error::Text(t.in_file(first.name)),
        e => e,
    })?;
    Ok(Assembled { kind, bytes, notes })
}

/// An empty listing is of a Wii U file without shaders when the original is one.
fn empty_wiiu(text: &str, like: Option<&[u8]>) -> bool {
    #[cfg(feature = "wiiu")]
    if text.trim().is_empty() {
        return like.is_some_and(|l| matches!(original(l), Ok(AnyFile::Gfd(_) | AnyFile::Sharcfb(_))));
    }
    let _ = (text, like);
    false
}

/// A Direct3D listing: a DXBC container (an SM4/SM5 listing) or a Direct3D 9 program.
#[cfg(feature = "direct3d")]
fn direct3d(text: &str, sm4: bool, like: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    refuse(text)?;
    let like = like.map(original).transpose()?;
    Ok(match (sm4, like) {
        (true, None) => dxbc::assemble(text)?,
        (false, None) => crate::isa::d3d9::asm::parse_program(text)?,
        (true, Some(AnyFile::Dxbc(d))) => dxbc::assemble_like(text, &d)?,
        (false, Some(AnyFile::D3d9(f))) => crate::isa::d3d9::asm::parse_program_like(text, &f.program)?,
        // Text that does not assemble is said before the original is found of the other kind.
        (_, Some(_)) => {
            direct3d(text, sm4, None)?;
            return Err(Original::OtherKind.into());
        }
    })
}

#[cfg(not(feature = "direct3d"))]
fn direct3d(_: &str, _: bool, _: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    Err(Error::NotBuilt("Direct3D listings"))
}

/// picasso sources: one SHBIN; with `like`, one listing into that 3DS shader file.
#[cfg(feature = "n3ds")]
fn shbin(files: &[File<'_>], like: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    use crate::format::shbin::assemble;
    let Some(like) = like else { return Ok(assemble::assemble(files)?.bytes) };
    let original = original(like)?;
    let ([file], AnyFile::Shbin(f)) = (files, &original) else {
        // Text that does not assemble is said before the original is found of the other kind.
        assemble::assemble(files)?;
        return Err(match files {
            [_] => Original::OtherKind,
            _ => Original::Unsupported("--like takes one listing of the original".to_string()),
        }
        .into());
    };
    assemble::assemble_like(file.text, f)
}

#[cfg(not(feature = "n3ds"))]
fn shbin(_: &[File<'_>], _: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    Err(Error::NotBuilt("picasso sources"))
}

/// A Wii U listing, rebuilt into its original: a `.gsh` or a SHARCFB archive.
#[cfg(feature = "wiiu")]
fn gx2(text: &str, like: Option<&[u8]>, variation: Option<Variation<'_>>) -> Result<Rebuilt, Error> {
    use crate::format::{gfd, sharcfb};
    let Some(like) = like else { return Err(Error::NeedsOriginal("a .gsh or SHARCFB", "latte")) };
    match original(like)? {
        AnyFile::Gfd(g) if variation.is_none() => gfd::assemble::assemble_like(text, &g),
        AnyFile::Gfd(_) => {
            Err(Original::Unsupported("--program and --set pick a SHARCFB variation; a .gsh has none".into())
                .into())
        }
        AnyFile::Sharcfb(f) => sharcfb::assemble::assemble_like(text, &f, variation),
        _ => {
            // Text that does not assemble is said before the original is found of the other kind.
            for s in crate::format::gx2::assemble::sections(text)? {
                for p in s.programs.iter().filter(|p| !p.missing) {
                    p.assemble()?;
                }
            }
            Err(Original::OtherKind.into())
        }
    }
}

#[cfg(not(feature = "wiiu"))]
fn gx2(_: &str, _: Option<&[u8]>, _: Option<Variation<'_>>) -> Result<Rebuilt, Error> {
    Err(Error::NotBuilt("Wii U listings"))
}

/// An MBS listing into its original (`like`), whose header it must repeat.
#[cfg(feature = "mali")]
fn mbs(files: &[File<'_>], like: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    let Some(like) = like else { return Err(Error::NeedsOriginal("an MBS file", "mali-gp|mali-pp")) };
    let text = files.first().map_or("", |f| f.text);
    // With only this family built, every original that parses is an MBS file.
    #[allow(unreachable_patterns)]
    match original(like)? {
        AnyFile::Mbs(m) => crate::format::mbs::assemble::assemble_like(text, &m),
        _ => {
            // Text that does not assemble is said before the original is found of the other
            // kind: the header lines are comments to the program's assembler.
            if text.trim_start().starts_with("; vertex shader") {
                crate::isa::mali_gp::asm::assemble(text)?;
            } else {
                crate::isa::mali_pp::asm::assemble(text)?;
            }
            Err(Original::OtherKind.into())
        }
    }
}

#[cfg(not(feature = "mali"))]
fn mbs(_: &[File<'_>], _: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    Err(Error::NotBuilt("MBS listings"))
}

/// A bare program assembled ([`assemble_bare`], `asm --format ISA`): what `disasm --format
/// ISA` reads back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BareProgram {
    /// The program's bytes (little-endian words).
    pub code: Vec<u8>,
    /// PICA200: the operand-descriptor table, as `extract FILE opdescs` writes it (8-byte
    /// entries, the second word 0) and `disasm --format pica --opdesc FILE` reads it.
    pub opdescs: Option<Vec<u8>>,
}

/// Assemble a listing of a bare program of `isa` (`disasm --format ISA`'s output) into its
/// words: PICA200 source into code words and operand descriptors (picasso's, the whole text
/// one program), an SM4/SM5 listing into its program tokens (a `SHDR`/`SHEX` chunk's data),
/// a Direct3D 9 listing into its bytecode, a Latte listing into its microcode, a Mali GP or
/// PP listing (Mesa lima's text) into its words.
pub fn assemble_bare(isa: crate::bare::Isa, text: &str) -> Result<BareProgram, Error> {
    // With every family built, every instruction set has an assembler.
    #[allow(unreachable_patterns)]
    match isa {
        #[cfg(feature = "n3ds")]
        crate::bare::Isa::Pica => {
            let a = crate::isa::pica::asm::assemble_text(text)?;
            let opdescs = a.opdescs.iter().flat_map(|d| [*d, 0]).collect::<Vec<u32>>();
            Ok(BareProgram { code: le_words(&a.code), opdescs: Some(le_words(&opdescs)) })
        }
        #[cfg(feature = "direct3d")]
        crate::bare::Isa::Sm4 => {
            Ok(BareProgram { code: le_words(&crate::isa::sm4::asm::parse_program(text)?), opdescs: None })
        }
        #[cfg(feature = "direct3d")]
        crate::bare::Isa::D3d9 => {
            Ok(BareProgram { code: crate::isa::d3d9::asm::parse_program(text)?, opdescs: None })
        }
        #[cfg(feature = "wiiu")]
        crate::bare::Isa::Latte => {
            Ok(BareProgram { code: le_words(&crate::isa::latte::asm::assemble(text)?), opdescs: None })
        }
        #[cfg(feature = "mali")]
        crate::bare::Isa::MaliGp => {
            Ok(BareProgram { code: le_words(&crate::isa::mali_gp::asm::assemble(text)?), opdescs: None })
        }
        #[cfg(feature = "mali")]
        crate::bare::Isa::MaliPp => {
            Ok(BareProgram { code: le_words(&crate::isa::mali_pp::asm::assemble(text)?), opdescs: None })
        }
        other => {
            // The text is read by the assemblers this build has.
            let _ = text;
            Err(Error::NoAssembler(other.name()))
        }
    }
}

/// Words as little-endian bytes.
#[cfg(any(feature = "direct3d", feature = "n3ds", feature = "wiiu", feature = "mali"))]
fn le_words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// What [`compare`] found: one line per part, and whether every part is the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// For a DXBC container, one line per chunk: `SHEX  same`, `RDEF  differs from payload
    /// offset 0x1c (812 bytes, the original 820)`, `STAT  missing (the original has 148
    /// bytes)`, `SFI0  not in the original`, in the original's chunk order, then the chunks
    /// only ours has. A 3DS shader file: one line per table of each DVLB (`code  same`,
    /// `DVLE 0 uniforms  differs from entry 2 (5 entries, the original 4)`), then `layout` if
    /// the same tables sit elsewhere. An MBS file: its shader's version, one line per chunk
    /// of its shader (`DBIN  differs from offset 0x20 (48 bytes, the original 32)`, `FINS
    /// instructions 3 (the original 2)`), its sizes (`CVER size`, `MBS1 size`), `layout`. A
    /// Direct3D 9 program is one part: `program  same` or `program  differs from offset 0x…`.
    pub lines: Vec<String>,
    /// Every part of each is in the other with the same bytes.
    pub same: bool,
}

/// Compare an assembled binary with an original part by part (`asm --verify`): a DXBC
/// container chunk by chunk ([`crate::format::dxbc::assemble::compare`]), a 3DS shader file
/// table by table ([`crate::format::shbin::assemble::compare`]), a `.gsh` block by block and
/// a SHARCFB binary by binary, with the GX2 register words that differ
/// ([`crate::format::gfd::assemble::compare`], [`crate::format::sharcfb::assemble::compare`]),
/// an MBS file chunk by chunk ([`crate::format::mbs::assemble::compare`]), anything else as
/// one piece of bytes.
pub fn compare(ours: &[u8], original_bytes: &[u8]) -> Result<Comparison, Original> {
    let theirs = original(original_bytes)?;
    #[cfg(feature = "wiiu")]
    match (&theirs, crate::any::parse(ours)) {
        (AnyFile::Gfd(b), Ok(AnyFile::Gfd(a))) => return Ok(crate::format::gfd::assemble::compare(&a, b)),
        (AnyFile::Sharcfb(b), Ok(AnyFile::Sharcfb(a))) => {
            return Ok(crate::format::sharcfb::assemble::compare(&a, b));
        }
        _ => {}
    }
    #[cfg(feature = "mali")]
    if let (AnyFile::Mbs(b), Ok(AnyFile::Mbs(a))) = (&theirs, crate::any::parse(ours)) {
        return Ok(crate::format::mbs::assemble::compare(&a, b));
    }
    #[cfg(feature = "n3ds")]
    if let (AnyFile::Shbin(b), Ok(AnyFile::Shbin(a))) = (&theirs, crate::any::parse(ours)) {
        return Ok(crate::format::shbin::assemble::compare(&a, b, ours, original_bytes));
    }
    #[cfg(feature = "direct3d")]
    if let (Ok(a), Ok(b)) = (Dxbc::parse(ours), Dxbc::parse(original_bytes)) {
        return Ok(dxbc::compare(&a, &b));
    }
    let _ = theirs;
    let line = format!("program  {}", differs(ours, original_bytes));
    Ok(Comparison { same: line.ends_with("  same"), lines: vec![line] })
}

/// `same`, or `differs from offset 0x… (N bytes, the original M)`: one part of [`compare`]'s
/// lines.
pub fn differs(ours: &[u8], theirs: &[u8]) -> String {
    match ours.iter().zip(theirs).position(|(a, b)| a != b) {
        None if ours.len() == theirs.len() => "same".to_string(),
        at => format!(
            "differs from offset 0x{:x} ({}, the original {})",
            at.unwrap_or(ours.len().min(theirs.len())),
            crate::print::count(ours.len(), "byte"),
            theirs.len()
        ),
    }
}
