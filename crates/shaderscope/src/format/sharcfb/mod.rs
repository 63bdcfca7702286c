//! Wii U AGL binary shader archives (SHARCFB, `agl::ResBinaryShaderArchive`): compiled GX2
//! shaders and the named programs that use them, with their variation macros and symbols.
//!
//! ```text
//! header        magic "SHAB" (a little-endian file, whose every header word is swapped,
//!               starts "BAHS"), version (8; 9 adds one section), file size,
//!               endian (0 big, 1 little), resolved (0 on disk), name length, name
//! binaries      {u32 size, u32 count}, then per binary {size, type 0 VS / 1 PS / 2 GS,
//!               s32 data offset (from the end of this header), data size}, the data: a GX2
//!               shader struct whose pointers are offsets from the data's start, its arrays
//!               and strings, the microcode
//! programs      {u32 size, u32 count}, then per program {size, name length, kind bitmask
//!               1 VS | 2 PS | 4 GS, base index}, name, variation macros (all values),
//!               variation defaults (one value each), symbol arrays: uniform vars,
//!               [version 9: one more section], uniform blocks, sampler vars, attrib vars
//! ```
//!
//! Records follow one another, each starting with its size, so no two share bytes; what can
//! is inside a binary's data (the GX2 struct, its arrays and names, its programs:
//! [`gx2::Shader::check_sharing`]) and the binaries programs take (several programs may take
//! the same ones: a `validate` warning, and lines about a binary name [`OWNERS_SHOWN`] users
//! and count the rest). Every record starts with its own size; what a record holds past its fields is kept, so an
//! unmodified archive writes back byte for byte ([`Sharcfb::write`]). [`Sharcfb::to_endian`]
//! converts between the two byte orders (every header word, the symbols' default words, the
//! GX2 structs and their arrays; never the strings or the microcode).
//! [`Sharcfb::resolve`] picks the binaries of one variation of a program. [`build`] adds a
//! binary made from a GX2 shader struct and its microcode ([`Sharcfb::push_gx2`]) and makes
//! the small archive behind `samples/shaders.sharcfb`.
//!
//! ```
//! use shaderscope::format::sharcfb::{Binary, BinaryType, Program, Sharcfb};
//! use shaderscope::format::sharcfb::res::Variation;
//! use shaderscope::toolkit::Endian;
//!
//! // A program with one macro of two values: four binaries (VS, PS per variation).
//! let mut archive = Sharcfb::new("demo", Endian::Big);
//! for k in 0..4 {
//!     let kind = if k % 2 == 0 { BinaryType::VERTEX } else { BinaryType::PIXEL };
//!     archive.binaries.items.push(Binary::new(kind, vec![k as u8; 8]));
//! }
//! let mut program = Program::new("model", 0b011, 0);
//! program.variations.items.push(Variation::new("FOG", &["0", "1"], "fog"));
//! program.defaults.items.push(Variation::new("FOG", &["1"], "fog"));
//! archive.programs.items.push(program);
//! let bytes = archive.write()?;
//! assert_eq!(&bytes[..4], b"SHAB");
//!
//! let parsed = Sharcfb::parse(&bytes)?;
//! let v = parsed.resolve("model", &[])?; // the defaults: FOG=1
//! assert_eq!((v.variation, v.binaries[0].index, v.binaries[1].index), (1, 2, 3));
//! let v = parsed.resolve("model", &[("FOG".into(), "0".into())])?;
//! assert_eq!(v.binaries[1].index, 1);
//!
//! // Little-endian and back: the same bytes.
//! let le = parsed.to_endian(Endian::Little)?.write()?;
//! assert_eq!(&le[..4], b"BAHS");
//! assert_eq!(Sharcfb::parse(&le)?.to_endian(Endian::Big)?.write()?, bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod annotate;
pub mod assemble;
pub mod build;
mod gsh;
pub mod info;
pub mod res;
mod variant;
mod write;

pub use info::Info;
pub use variant::{Resolved, ResolvedBinary, Setting, VariantError};

use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::format::gx2;
use crate::model::{Finding, Part, Stage};
use crate::print::{Printer, Style};
use crate::toolkit::raw::{I32, U32};
use crate::toolkit::{Endian, Reader};
use res::{ResArray, ResText, Symbol, SymbolKind, Variation};
use std::mem::offset_of;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// How many program variations the lines about a binary name (`disasm`, `info` and their
/// JSON): the first, in program order; the rest are counted. A binary that several programs
/// use is the same binary reached again, a `validate` warning.
pub const OWNERS_SHOWN: usize = 1;
/// How many macro settings a line about a binary shows; the rest are counted.
pub const SETTINGS_SHOWN: usize = 16;

/// The program variations that use one binary, as [`Sharcfb::owner_lists`] gives them: the
/// first ones (program index, variation index, stage slot) and how many there are in all.
pub type Owners = (Vec<(usize, u64, u64)>, usize);

/// `agl::ResBinaryShaderArchiveData` (agl-win's `aglResShaderArchive.h`): the archive
/// header, in the order its magic gives; the name follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct ResBinaryShaderArchiveData<O> {
    /// `SHAB`: the word 0x53484142 in the archive's order (`BAHS` little-endian).
    pub signature: [u8; 4],
    pub version: U32<O>,
    pub file_size: U32<O>,
    /// 0 big, 1 little.
    pub endian: U32<O>,
    /// 0 on disk, 1 once AGL has turned the offsets into pointers.
    pub resolved: U32<O>,
    pub name_len: U32<O>,
}

/// `agl::ResShaderBinaryData`: the header of a shader binary; its data follows
/// `data_offset` bytes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct ResShaderBinaryData<O> {
    pub size: U32<O>,
    /// [`BinaryType`].
    pub shader_type: U32<O>,
    pub data_offset: I32<O>,
    pub data_size: U32<O>,
}

/// `agl::ResBinaryShaderProgramData`: the header of a program; its name follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct ResBinaryShaderProgramData<O> {
    pub size: U32<O>,
    pub name_len: U32<O>,
    /// 1 VS | 2 PS | 4 GS.
    pub kind: U32<O>,
    pub base_index: U32<O>,
}

/// Any order, for the sizes and offsets (which do not depend on it).
type U = crate::toolkit::raw::BigEndian;
type Header = ResBinaryShaderArchiveData<U>;
type BinaryHeader = ResShaderBinaryData<U>;
type ProgramHeader = ResBinaryShaderProgramData<U>;

/// Size of the archive header before the name.
pub const HEADER_SIZE: usize = size_of::<Header>();
/// Size of a shader binary's header.
pub(crate) const BINARY_HEADER: usize = size_of::<BinaryHeader>();
/// Size of a shader program's header.
pub(crate) const PROGRAM_HEADER: usize = size_of::<ProgramHeader>();
/// The version AGL's binary archive reader accepts (`ResBinaryShaderArchiveData::cVersion`).
pub(crate) const VERSION: u32 = 8;

/// The type field of a shader binary (`agl::ShaderType`); an open set, so an unknown value is
/// kept and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BinaryType(pub u32);

impl BinaryType {
    /// A `GX2VertexShader`.
    pub const VERTEX: BinaryType = BinaryType(0);
    /// A `GX2PixelShader`.
    pub const PIXEL: BinaryType = BinaryType(1);
    /// A `GX2GeometryShader`.
    pub const GEOMETRY: BinaryType = BinaryType(2);

    /// The stage, for the three known values.
    pub fn stage(self) -> Option<Stage> {
        match self.0 {
            0 => Some(Stage::Vertex),
            1 => Some(Stage::Pixel),
            2 => Some(Stage::Geometry),
            _ => None,
        }
    }

    /// The GX2 struct a binary of this type holds, for the three known values.
    pub fn gx2(self) -> Option<gx2::Kind> {
        match self.0 {
            0 => Some(gx2::Kind::Vertex),
            1 => Some(gx2::Kind::Pixel),
            2 => Some(gx2::Kind::Geometry),
            _ => None,
        }
    }

    /// `VS`, `PS`, `GS`, or `type N`.
    pub fn name(self) -> String {
        match self.0 {
            0 => "VS".into(),
            1 => "PS".into(),
            2 => "GS".into(),
            n => format!("type {n}"),
        }
    }
}

/// One shader binary (`agl::ResShaderBinary`): its type and its data, a GX2 shader struct
/// with its arrays, strings and microcode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binary {
    /// VS, PS or GS.
    pub kind: BinaryType,
    /// Bytes between the header and the data (the data offset counts them).
    pub gap: Vec<u8>,
    /// The shader data.
    pub data: Vec<u8>,
    /// Bytes after the data within the binary's size.
    pub tail: Vec<u8>,
    /// Absolute offset of the binary's header (where it was read; 0 for one built in code).
    pub at: u64,
}

impl Binary {
    /// A binary of `kind` holding `data`.
    pub fn new(kind: BinaryType, data: Vec<u8>) -> Self {
        Binary { kind, gap: Vec::new(), data, tail: Vec::new(), at: 0 }
    }

    /// Absolute offset of the data.
    pub fn data_at(&self) -> u64 {
        self.at + BINARY_HEADER as u64 + self.gap.len() as u64
    }

    /// The microcode `shader` (this binary's GX2 struct) points at (its geometry shader's copy
    /// program when `copy`), with its absolute offset; `None` when the struct has no such
    /// program, an error when it lies outside the data.
    pub fn program<'a>(&'a self, shader: &gx2::Shader<'_>, copy: bool) -> Result<Option<(&'a [u8], u64)>> {
        let (offset, size) = if copy {
            (shader.copy_program_offset(), shader.copy_size)
        } else {
            (shader.program_offset(), shader.size)
        };
        let Some(o) = offset else { return Ok(None) };
        let what = if copy { "copy program" } else { "program" };
        match self.data.get(o as usize..).and_then(|d| d.get(..size as usize)) {
            Some(code) => Ok(Some((code, self.data_at() + u64::from(o)))),
            None => Err(Error::out_of_bounds(
                self.data_at(),
                format!("{} shader {what}", shader.kind.name()),
                u64::from(o),
                u64::from(size),
                self.data.len() as u64,
            )),
        }
    }

    /// Its GX2 shader struct, read with plain-offset pointers in the archive's byte order
    /// `endian` (an error for a binary of unknown type).
    pub fn gx2(&self, endian: Endian) -> Result<gx2::Shader<'_>> {
        let Some(kind) = self.kind.gx2() else {
            return Err(Error::invalid(
                self.data_at(),
                "shader binary",
                format!("type {} is not VS, PS or GS", self.kind.0),
            ));
        };
        gx2::Shader::read(kind, &self.data, self.data_at(), endian, gx2::PointerKind::Offset)
    }

    /// The record's size: header, gap, data and tail.
    pub fn size(&self) -> u64 {
        (BINARY_HEADER + self.gap.len() + self.data.len() + self.tail.len()) as u64
    }
}

/// A named program (`agl::ResBinaryShaderProgram`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Its name.
    pub name: ResText,
    /// Which shaders it has: 1 VS, 2 PS, 4 GS.
    pub kind: u32,
    /// Index of the first binary of its first variation.
    pub base_index: u32,
    /// The variation macros with all their values.
    pub variations: ResArray<Variation>,
    /// The variation macros with their default value.
    pub defaults: ResArray<Variation>,
    /// Uniform vars, uniform blocks, sampler vars, attrib vars.
    pub symbols: [ResArray<Symbol>; 4],
    /// The section a version-9 archive has after the uniform vars (its bytes after its size
    /// word); `None` in a version-8 archive.
    pub extra: Option<Vec<u8>>,
    /// Bytes after the last symbol array within the program's size.
    pub tail: Vec<u8>,
    /// Absolute offset of the program's header.
    pub at: u64,
}

impl Program {
    /// A program `name` with shaders `kind` (1 VS | 2 PS | 4 GS) from binary `base_index`,
    /// with no macros or symbols yet.
    pub fn new(name: &str, kind: u32, base_index: u32) -> Self {
        Program {
            name: ResText::new(name),
            kind,
            base_index,
            variations: ResArray::default(),
            defaults: ResArray::default(),
            symbols: Default::default(),
            extra: None,
            tail: Vec::new(),
            at: 0,
        }
    }

    /// Whether it has a geometry shader (three binaries per variation instead of two).
    pub fn has_geometry(&self) -> bool {
        self.kind & 4 != 0
    }

    /// Binaries per variation: 3 with a geometry shader, else 2.
    pub fn stride(&self) -> u64 {
        if self.has_geometry() { 3 } else { 2 }
    }

    /// How many variations the macros make (the product of their value counts), or `None`
    /// when that does not fit in 64 bits.
    pub fn variation_count(&self) -> Option<u64> {
        self.variations.items.iter().try_fold(1u64, |n, v| n.checked_mul(u64::from(v.value_count)))
    }

    /// The symbols of `kind`.
    pub fn symbols(&self, kind: SymbolKind) -> &ResArray<Symbol> {
        let [uniforms, blocks, samplers, attribs] = &self.symbols;
        match kind {
            SymbolKind::UniformVar => uniforms,
            SymbolKind::UniformBlock => blocks,
            SymbolKind::SamplerVar => samplers,
            SymbolKind::AttribVar => attribs,
        }
    }

    /// The record's size as written.
    pub fn size(&self) -> u64 {
        PROGRAM_HEADER as u64
            + self.name.len() as u64
            + self.variations.size(Variation::size)
            + self.defaults.size(Variation::size)
            + self.symbols.iter().map(|a| a.size(Symbol::size)).sum::<u64>()
            + self.extra.as_ref().map_or(0, |e| 4 + e.len() as u64)
            + self.tail.len() as u64
    }

    /// `VS+PS`, `VS+PS+GS`, … from the kind bitmask.
    pub fn kind_text(&self) -> String {
        let mut v = Vec::new();
        for (bit, n) in [(1, "VS"), (2, "PS"), (4, "GS")] {
            if self.kind & bit != 0 {
                v.push(n.to_string());
            }
        }
        if self.kind & !7 != 0 {
            v.push(format!("0x{:x}", self.kind & !7));
        }
        if v.is_empty() { "none".into() } else { v.join("+") }
    }
}

/// A SHARCFB archive, parsed into an editable model that keeps every byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sharcfb {
    /// Byte order: `SHAB` big, `BAHS` little.
    pub endian: Endian,
    /// Version (8; 9 has one more section per program).
    pub version: u32,
    /// The endian field as stored (0 big, 1 little).
    pub endian_field: u32,
    /// `mResolved`: 0 on disk, 1 once AGL has turned the offsets into pointers.
    pub resolved: u32,
    /// The archive's name.
    pub name: ResText,
    /// The shader binaries.
    pub binaries: ResArray<Binary>,
    /// The programs.
    pub programs: ResArray<Program>,
    /// Bytes between the program section and the stated file size.
    pub tail: Vec<u8>,
    /// Bytes after the stated file size.
    pub trailing: Vec<u8>,
}

impl Sharcfb {
    /// Every binary as a program of a `disasm` record, given to `out`, with the programs and
    /// variations that use it (nothing is decoded: the records carry no instructions).
    fn binary_programs(&self, out: &mut dyn crate::json::DisasmSink) {
        let lists = self.owner_lists(OWNERS_SHOWN);
        let mut settings = std::collections::HashMap::new();
        for (i, b) in self.binaries.items.iter().enumerate() {
            let owners: Vec<serde_json::Value> = lists
                .get(i)
                .map_or(&[][..], |(o, _)| &o[..])
                .iter()
                .filter_map(|&(p, v, _)| {
                    let prog = self.programs.items.get(p)?;
                    let shown = settings.entry(p).or_insert_with(|| ShownSettings::new(prog));
                    Some(serde_json::json!({
                        "program": prog.name.shown(),
                        "variation": v,
                        "settings": shown.of(v).into_iter().map(|(m, v)| serde_json::json!({"macro": m, "value": v})).collect::<Vec<_>>(),
                    }))
                })
                .collect();
            out.program(
                crate::json::Program::new(format!("binary {i}"), "latte", b.data_at(), b.data.len() as u64)
                    .with_stage(b.kind.stage(), None)
                    .with_extra("binary", i)
                    .with_extra("used_by", owners),
            );
        }
    }

    /// An empty version-8 archive `name` in byte order `endian`.
    pub fn new(name: &str, endian: Endian) -> Self {
        Sharcfb {
            endian,
            version: VERSION,
            endian_field: endian_field(endian),
            resolved: 0,
            name: ResText::new(name),
            binaries: ResArray::default(),
            programs: ResArray::default(),
            tail: Vec::new(),
            trailing: Vec::new(),
        }
    }

    /// Parse an archive of either byte order.
    pub fn parse(data: &[u8]) -> Result<Sharcfb> {
        let endian = match data.get(..4) {
            Some(b"SHAB") => Endian::Big,
            Some(b"BAHS") => Endian::Little,
            Some(other) => return Err(Error::bad_magic(0, "SHARCFB header", b"SHAB", other)),
            None => return Err(Error::truncated(0, "SHARCFB header", HEADER_SIZE as u64, data.len() as u64)),
        };
        let r = Reader::new(data, endian);
        let h: &ResBinaryShaderArchiveData<Endian> = r.read_at(0, "SHARCFB header")?;
        let version = h.version.get_in(endian);
        if version != 8 && version != 9 {
            return Err(Error::unsupported(
                offset_of!(Header, version) as u64,
                "SHARCFB version",
                format!("version {version} (8 and 9 are read)"),
            ));
        }
        let file_size = h.file_size.get_in(endian) as usize;
        if file_size > data.len() {
            return Err(Error::truncated(0, "SHARCFB file", file_size as u64, data.len() as u64));
        }
        let endian_field = h.endian.get_in(endian);
        let resolved = h.resolved.get_in(endian);
        let name_len = h.name_len.get_in(endian) as usize;
        let name = res::read_text(&r, HEADER_SIZE, name_len, file_size, "SHARCFB name")?;
        let bin_at = HEADER_SIZE + name_len;
        let binaries =
            res::read_array(&r, bin_at, file_size, "shader binary", BINARY_HEADER, |s| read_binary(&r, s))?;
        let prog_at = bin_at + r.u32_at(bin_at, "shader binary array size")? as usize;
        let programs = res::read_array(&r, prog_at, file_size, "shader program", PROGRAM_HEADER, |s| {
            read_program(&r, s, version)
        })?;
        let end = prog_at + r.u32_at(prog_at, "shader program array size")? as usize;
        Ok(Sharcfb {
            endian,
            version,
            endian_field,
            resolved,
            name,
            binaries,
            programs,
            tail: r.bytes_at(end, file_size - end, "SHARCFB file")?.to_vec(),
            trailing: data.get(file_size..).unwrap_or(&[]).to_vec(),
        })
    }

    /// The file size the writer states: everything but the bytes past the stated size.
    pub fn file_size(&self) -> u64 {
        HEADER_SIZE as u64
            + self.name.len() as u64
            + self.binaries.size(Binary::size)
            + self.programs.size(Program::size)
            + self.tail.len() as u64
    }

    /// The program named `name` (exact match first, then without regard to case).
    pub fn program(&self, name: &str) -> Option<(usize, &Program)> {
        let p = &self.programs.items;
        p.iter()
            .position(|p| p.name.text() == name)
            .or_else(|| p.iter().position(|p| p.name.text().eq_ignore_ascii_case(name)))
            .and_then(|i| p.get(i).map(|p| (i, p)))
    }

    /// The binaries each program's variations take: `base_index` to `base_index` + variations
    /// × stride, cut to the binaries there are (empty when the macros make no count).
    pub fn binary_range(&self, program: &Program) -> std::ops::Range<u64> {
        let n = self.binaries.items.len() as u64;
        let start = u64::from(program.base_index).min(n);
        let len = program.variation_count().map_or(0, |c| c.saturating_mul(program.stride()));
        start..u64::from(program.base_index).saturating_add(len).min(n)
    }

    /// Why `program`'s variations cannot be laid out over the binaries, if they cannot: its
    /// macros make more variations than 64 bits count, or its variations from its base index
    /// take binaries past the last. Damage for every command, at the program's header (its
    /// base index for the second); `validate` says it in the same words.
    pub fn program_damage(&self, program: &Program) -> Option<Error> {
        let what = || format!("SHARCFB program \"{}\"", program.name.shown());
        let Some(count) = program.variation_count() else {
            return Some(Error::invalid(
                program.at,
                what(),
                "its variation macros make more variations than 64 bits count",
            ));
        };
        let n = self.binaries.items.len() as u64;
        let needed =
            count.checked_mul(program.stride()).and_then(|x| x.checked_add(u64::from(program.base_index)));
        needed.is_none_or(|needed| needed > n).then(|| {
            Error::invalid(
                program.at + offset_of!(ProgramHeader, base_index) as u64,
                what(),
                format!(
                    "{count} variations from base index {} need {} binaries, the archive has {n}",
                    program.base_index,
                    needed.map_or("more than 2^64".to_string(), |x| x.to_string())
                ),
            )
        })
    }

    /// For every binary, the first `limit` (program index, variation index, stage slot) that
    /// use it, in program order, and how many do in all: what [`Sharcfb::owners`] gives for
    /// each binary, in one sweep (programs × binaries would be quadratic in the file's size
    /// when many programs share binaries, which `validate` reports).
    pub fn owner_lists(&self, limit: usize) -> Vec<Owners> {
        let n = self.binaries.items.len();
        // Programs starting and ending at each binary.
        let mut starts: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut ends: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (pi, p) in self.programs.items.iter().enumerate() {
            let r = self.binary_range(p);
            if r.start < r.end {
                if let (Some(s), Some(e)) = (starts.get_mut(r.start as usize), ends.get_mut(r.end as usize)) {
                    s.push(pi);
                    e.push(pi);
                }
            }
        }
        let mut active = std::collections::BTreeSet::new();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            for pi in ends.get(i).into_iter().flatten() {
                active.remove(pi);
            }
            active.extend(starts.get(i).into_iter().flatten().copied());
            let first = active
                .iter()
                .take(limit)
                .filter_map(|&pi| {
                    let p = self.programs.items.get(pi)?;
                    let rel = (i as u64).checked_sub(u64::from(p.base_index))?;
                    Some((pi, rel / p.stride(), rel % p.stride()))
                })
                .collect();
            out.push((first, active.len()));
        }
        out
    }

    /// Every (program index, variation index, stage slot) whose variation uses binary
    /// `index`, in program order; slot 0 VS, 1 PS, 2 GS. (This walks every program: for
    /// every binary at once, [`Sharcfb::owner_lists`].)
    pub fn owners(&self, index: usize) -> Vec<(usize, u64, u64)> {
        let mut out = Vec::new();
        for (pi, p) in self.programs.items.iter().enumerate() {
            let (base, stride) = (u64::from(p.base_index), p.stride());
            let Some(rel) = (index as u64).checked_sub(base) else { continue };
            let variation = rel / stride;
            if p.variation_count().is_some_and(|n| variation < n) {
                out.push((pi, variation, rel % stride));
            }
        }
        out
    }

    /// The macro settings of variation `variation` of `program` (its mixed-radix digits, the
    /// first macro most significant). For the settings of many variations at once, as lines
    /// about binaries show them, [`ShownSettings`].
    pub fn settings(&self, program: &Program, mut variation: u64) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for v in program.variations.items.iter().rev() {
            let n = u64::from(v.value_count).max(1);
            let digit = variation % n;
            variation /= n;
            let values = v.values();
            let value = values.get(digit as usize).map(|x| x.text.to_string()).unwrap_or(format!("#{digit}"));
            out.push((v.name.text().into_owned(), value));
        }
        out.reverse();
        out
    }
}

/// The endian field for `endian`: 0 big, 1 little.
pub fn endian_field(endian: Endian) -> u32 {
    match endian {
        Endian::Big => 0,
        Endian::Little => 1,
    }
}

fn read_binary(r: &Reader<'_>, s: res::Slot) -> Result<Binary> {
    let what = format!("shader binary {}", s.index);
    // The record holds its header (`read_array` checked its size).
    let h: &ResShaderBinaryData<Endian> = r.read_at(s.at, what.clone())?;
    let o = r.endian();
    let kind = BinaryType(h.shader_type.get_in(o));
    let offset = h.data_offset.get_in(o);
    let size = h.data_size.get_in(o) as usize;
    let Ok(gap_len) = usize::try_from(offset) else {
        return Err(Error::invalid(
            (s.at + offset_of!(BinaryHeader, data_offset)) as u64,
            format!("{what} data offset"),
            format!("{offset} points back into the binary's header"),
        ));
    };
    let data_at = s.at + BINARY_HEADER;
    let gap = res::read_within(r, data_at, gap_len, s.end, &format!("{what} data offset"))?.to_vec();
    let data = res::read_within(r, data_at + gap_len, size, s.end, &format!("{what} data"))?.to_vec();
    let end = data_at + gap_len + size;
    let tail = r.bytes_at(end, s.end - end, what)?.to_vec();
    Ok(Binary { kind, gap, data, tail, at: s.at as u64 })
}

fn read_program(r: &Reader<'_>, s: res::Slot, version: u32) -> Result<Program> {
    let what = format!("shader program {}", s.index);
    let h: &ResBinaryShaderProgramData<Endian> = r.read_at(s.at, what.clone())?;
    let o = r.endian();
    let (name_len, kind, base_index) =
        (h.name_len.get_in(o) as usize, h.kind.get_in(o), h.base_index.get_in(o));
    let name = res::read_text(r, s.at + PROGRAM_HEADER, name_len, s.end, &format!("{what} name"))?;
    let mut at = s.at + PROGRAM_HEADER + name_len;
    let prefix = format!("{what} ");
    let var_what = format!("{prefix}variation macro");
    let variations = res::read_array(r, at, s.end, &var_what, res::VARIATION_HEADER, |v| {
        Variation::read(r, v, &format!("{var_what} {}", v.index))
    })?;
    at += r.u32_at(at, "variation array size")? as usize;
    let def_what = format!("{prefix}variation default");
    let defaults = res::read_array(r, at, s.end, &def_what, res::VARIATION_HEADER, |v| {
        Variation::read(r, v, &format!("{def_what} {}", v.index))
    })?;
    at += r.u32_at(at, "variation default array size")? as usize;
    let mut extra = None;
    let (symbols, end) =
        res::read_symbol_arrays(r, at, s.end, &prefix, if version >= 9 { Some(&mut extra) } else { None })?;
    let tail = r.bytes_at(end, s.end - end, what)?.to_vec();
    Ok(Program { name, kind, base_index, variations, defaults, symbols, extra, tail, at: s.at as u64 })
}

/// Annotate the header of a SHARCFB (or, for `format` [`Format::Sharc`], a `.sharc`) that
/// fails to parse: the words that are there, read in the byte order the magic gives.
pub fn annotate_damaged(data: &[u8], format: Format, a: &mut Annotations) {
    let endian = match data.get(..4) {
        Some(b"SHAB" | b"SHAA") => Endian::Big,
        Some(b"BAHS" | b"AAHS") => Endian::Little,
        _ => return,
    };
    let r = Reader::new(data, endian);
    let names: &[&str] = if format == Format::Sharc {
        &["version", "file size", "endian", "name length"]
    } else {
        &["version", "file size", "endian", "resolved", "name length"]
    };
    let magic = String::from_utf8_lossy(data.get(..4).unwrap_or(&[])).into_owned();
    a.field(0, 4, format_args!("magic \"{magic}\" ({}-endian)", endian.name()));
    for (k, name) in names.iter().enumerate() {
        let at = 4 + 4 * k;
        match r.u32_at(at, "header") {
            Ok(v) => a.field(at as u64, 4, format_args!("{name}: {v}")),
            Err(_) => break,
        }
    }
}

/// The listing of one shader binary (see [`gx2::write_shader_listing`]): its GX2 struct's
/// summary line, then each of its programs, as a GFD file lists the same struct. A binary of
/// unknown type is one comment line; a struct that does not read, its heading and the error.
fn shader_listing(b: &Binary, endian: Endian, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
    let data_at = b.data_at();
    let Some(kind) = b.kind.gx2() else {
        let fail = |_| Error::invalid(data_at, "listing", "the printer failed");
        out.start_line(Some(data_at));
        let text =
            format!("; shader of unknown type {}: 0x{:x} bytes at 0x{data_at:x}", b.kind.0, b.data.len());
        out.styled(Style::Comment, &text).map_err(fail)?;
        return out.write_str("\n").map_err(fail);
    };
    let shader = match b.gx2(endian) {
        Ok(g) => g,
        Err(e) => {
            let heading = format!("{} header unreadable: {e}", kind.short());
            gx2::write_shader_listing(&heading, Some(data_at), &[], opts, out)?;
            return Err(e);
        }
    };
    let mut outside = None;
    let programs: Vec<_> = shader
        .kind
        .programs()
        .iter()
        .map(|&(name, copy)| {
            let code = match b.program(&shader, copy) {
                Ok(Some((code, at))) => gx2::ProgramCode::Found(code, at),
                Ok(None) => gx2::ProgramCode::Missing("no program"),
                Err(e) => {
                    outside.get_or_insert(e);
                    gx2::ProgramCode::Missing("outside the shader data")
                }
            };
            (name, code)
        })
        .collect();
    gx2::write_shader_listing(&shader.summary(), Some(data_at), &programs, opts, out)?;
    outside.map_or(Ok(()), Err)
}

impl Container for Sharcfb {
    fn format(&self) -> Format {
        Format::Sharcfb
    }

    fn write_info_text(&self, out: &mut dyn std::fmt::Write) -> std::fmt::Result {
        Info::new(self).write_text(out)
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        crate::json::write_info(out, &Info::new(self))
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        let fail = |_| Error::invalid(0, "listing", "the printer failed");
        let mut first = None;
        let owners = self.owner_lists(OWNERS_SHOWN);
        let mut settings = std::collections::HashMap::new();
        for (i, b) in self.binaries.items.iter().enumerate() {
            if i > 0 {
                out.start_line(None);
                out.write_str("\n").map_err(fail)?;
            }
            for line in binary_heading(self, i, b, owners.get(i), &mut settings) {
                out.start_line(Some(b.at));
                out.style(Style::Comment);
                out.write_str(&line).map_err(fail)?;
                out.reset();
                out.write_str("\n").map_err(fail)?;
            }
            // A binary whose struct does not read is damage of its own: the others still list.
            if let Err(e) = shader_listing(b, self.endian, opts, out) {
                first.get_or_insert(e);
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// The binaries of a known type whose GX2 struct does not read, then the programs whose
    /// variations cannot be laid out over the binaries ([`Sharcfb::program_damage`]).
    fn damage(&self) -> Vec<Error> {
        let binaries =
            self.binaries.items.iter().filter(|b| b.kind.0 <= 2).filter_map(|b| b.gx2(self.endian).err());
        binaries.chain(self.programs.items.iter().filter_map(|p| self.program_damage(p))).collect()
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn crate::json::DisasmSink) -> Result<()> {
        // A damaged binary leaves the others listed: the record keeps them.
        if let Err(e) = self.disasm(opts, out.listing()) {
            if !self.damage().contains(&e) {
                return Err(e);
            }
        }
        self.binary_programs(out);
        Ok(())
    }

    fn program_heads(&self) -> Vec<crate::json::Program> {
        let heads = crate::json::Disasm::heads(|out| {
            self.binary_programs(out);
            Ok(())
        });
        heads.unwrap_or_default()
    }

    fn annotate(&self, a: &mut Annotations) {
        annotate::annotate(self, a);
    }

    fn validate(&self) -> Vec<Finding> {
        let mut out = validate(self);
        // Each binary's GX2 struct, and its registers against its microcode.
        for (i, b) in self.binaries.items.iter().enumerate() {
            let Ok(g) = b.gx2(self.endian) else { continue };
            let title = format!("binary {i} ({} shader)", g.kind.name());
            g.check(&title, &mut out);
            // The microcode sits in the same data as the struct, its arrays and names.
            let programs: Vec<(&str, std::ops::Range<u64>)> = g
                .kind
                .programs()
                .iter()
                .filter_map(|&(_, copy)| {
                    let (code, at) = b.program(&g, copy).ok()??;
                    let what = if copy { "the copy program" } else { "the program" };
                    Some((what, at..at + code.len() as u64))
                })
                .collect();
            g.check_sharing(&title, &programs, &mut out);
            for &(_, copy) in g.kind.programs() {
                match b.program(&g, copy) {
                    Ok(Some((code, at))) => {
                        if !copy {
                            g.check_program(&title, code, at, &mut out);
                        }
                        out.extend(crate::isa::latte::check(code, at));
                    }
                    Ok(None) => {}
                    Err(e) => out.push(Finding::error(e.offset(), e.reason())),
                }
            }
        }
        out
    }

    fn write(&self) -> Result<Vec<u8>> {
        Sharcfb::write(self)
    }

    fn parts(&self) -> Vec<Part<'_>> {
        let mut v = Vec::new();
        for (i, b) in self.binaries.items.iter().enumerate() {
            v.push(Part::new(
                format!("binary{i}"),
                b.data_at(),
                &b.data[..],
                format!("{} shader data (GX2 struct, arrays, microcode)", b.kind.name()),
            ));
            // Its microcode alone, as a GFD file's `.program` part gives it.
            let Ok(g) = b.gx2(self.endian) else { continue };
            for (copy, suffix, what) in
                [(false, "program", "microcode"), (true, "copy", "copy program's microcode")]
            {
                if let Ok(Some((code, at))) = b.program(&g, copy) {
                    v.push(Part::new(
                        format!("binary{i}.{suffix}"),
                        at,
                        code,
                        format!("binary {i}'s {what} (Latte, little-endian words; `disasm --format latte`)"),
                    ));
                }
            }
        }
        v
    }
}

/// The comment lines before a binary's listing: which program variations use it (the first
/// [`OWNERS_SHOWN`], then how many more; `owners` from [`Sharcfb::owner_lists`]).
fn binary_heading<'a>(
    f: &'a Sharcfb,
    index: usize,
    b: &Binary,
    owners: Option<&Owners>,
    settings: &mut std::collections::HashMap<usize, ShownSettings<'a>>,
) -> Vec<String> {
    let (owners, all) = owners.map_or((&[][..], 0), |(o, n)| (&o[..], *n));
    let mut lines = Vec::new();
    if owners.is_empty() {
        lines.push(format!(
            "; binary {index}: {} at 0x{:x}, used by no program variation",
            b.kind.name(),
            b.at
        ));
    }
    for &(p, v, slot) in owners {
        let Some(prog) = f.programs.items.get(p) else { continue };
        let macros = settings.entry(p).or_insert_with(|| ShownSettings::new(prog)).text(v);
        let role = ["VS", "PS", "GS"].get(slot as usize).copied().unwrap_or("?");
        lines.push(format!(
            "; binary {index}: {role} of program \"{}\" variation {v} ({macros})",
            prog.name.shown()
        ));
    }
    if all > owners.len() {
        lines.push(format!(
            "; binary {index}: and {} more program variations (the same binary reached again)",
            all - owners.len()
        ));
    }
    lines
}

/// Structural checks: the header, binary types against the programs that use them, variation
/// ranges, defaults and used-flag counts.
fn validate(f: &Sharcfb) -> Vec<Finding> {
    let mut out = Vec::new();
    if f.endian_field != endian_field(f.endian) {
        out.push(Finding::error(
            offset_of!(Header, endian) as u64,
            format!(
                "endian field {} contradicts the magic ({} file, expected {})",
                f.endian_field,
                f.endian.name(),
                endian_field(f.endian)
            ),
        ));
    }
    if f.resolved != 0 {
        out.push(Finding::warning(
            offset_of!(Header, resolved) as u64,
            format!("resolved flag {} (0 on disk: pointers are offsets)", f.resolved),
        ));
    }
    if f.version != VERSION {
        out.push(Finding::warning(
            offset_of!(Header, version) as u64,
            format!("version {} (AGL's reader of this layout accepts {VERSION})", f.version),
        ));
    }
    for (i, b) in f.binaries.items.iter().enumerate() {
        if b.kind.stage().is_none() {
            let at = b.at + offset_of!(BinaryHeader, shader_type) as u64;
            out.push(Finding::error(at, format!("binary {i} has unknown type {}", b.kind.0)));
        }
    }
    // The binaries each program takes, checked once: a program whose range starts inside one
    // checked before (in order of their starts) shares those binaries, a warning, and only
    // its binaries past them are checked again (programs × binaries would be quadratic).
    let mut order: Vec<(u64, u64, usize)> = f
        .programs
        .items
        .iter()
        .enumerate()
        .map(|(pi, p)| {
            let r = f.binary_range(p);
            (r.start, r.end, pi)
        })
        .filter(|(s, e, _)| s < e)
        .collect();
    order.sort_unstable();
    let mut unchecked: Vec<Option<std::ops::Range<u64>>> = vec![None; f.programs.items.len()];
    let mut reach: Option<(u64, usize)> = None;
    for &(start, end, pi) in &order {
        let from = match reach {
            Some((r_end, q)) if start < r_end => {
                if let (Some(p), Some(other)) = (f.programs.items.get(pi), f.programs.items.get(q)) {
                    out.push(Finding::warning(
                        p.at + offset_of!(ProgramHeader, base_index) as u64,
                        format!(
                            "program {pi} \"{}\": binaries {start} to {} are also program {q} \"{}\"'s: the same binaries are reached again",
                            p.name.shown(),
                            end.min(r_end) - 1,
                            other.name.shown()
                        ),
                    ));
                }
                r_end
            }
            _ => start,
        };
        if let Some(slot) = unchecked.get_mut(pi) {
            *slot = Some(from.min(end)..end);
        }
        if reach.is_none_or(|(r_end, _)| end > r_end) {
            reach = Some((end, pi));
        }
    }
    for (pi, p) in f.programs.items.iter().enumerate() {
        let name = p.name.shown();
        let pre = format!("program {pi} \"{name}\": ");
        if p.kind & 3 != 3 {
            out.push(Finding::error(
                p.at + offset_of!(ProgramHeader, kind) as u64,
                format!("{pre}kind 0x{:x} lacks a vertex or pixel shader", p.kind),
            ));
        }
        let count = p.variation_count();
        if count == Some(0) {
            out.push(Finding::error(p.variations.at, format!("{pre}a variation macro has no values")));
        }
        // What cannot be laid out is damage: said as every command says it.
        if let Some(e) = f.program_damage(p) {
            out.push(Finding::error(e.offset(), e.reason()));
            if count.is_none() {
                continue;
            }
        } else {
            for index in unchecked.get(pi).cloned().flatten().unwrap_or_default() {
                let rel = index - u64::from(p.base_index);
                let (v, slot) = (rel / p.stride(), rel % p.stride());
                {
                    let want = BinaryType(slot as u32);
                    if let Some(b) = f.binaries.items.get(index as usize)
                        && b.kind != want
                    {
                        out.push(Finding::error(
                            b.at + offset_of!(BinaryHeader, shader_type) as u64,
                            format!(
                                "{pre}variation {v} takes binary {index} as its {} but it is a {}",
                                want.name(),
                                b.kind.name()
                            ),
                        ));
                    }
                }
            }
        }
        // The first macro of each name, looked up once per default.
        let mut by_name = std::collections::HashMap::new();
        for v in &p.variations.items {
            by_name.entry(v.name.text()).or_insert(v);
        }
        for (k, d) in p.defaults.items.iter().enumerate() {
            let dname = d.name.text();
            match by_name.get(&dname) {
                None => out.push(Finding::warning(
                    d.at,
                    format!("{pre}default {k} names macro \"{dname}\", which the program does not have"),
                )),
                Some(v) => {
                    let value = d.values().first().map(|x| x.text.to_string()).unwrap_or_default();
                    if !v.values().iter().any(|x| x.text == value) {
                        out.push(Finding::error(
                            d.at,
                            format!("{pre}default \"{value}\" of macro \"{dname}\" is not one of its values"),
                        ));
                    }
                }
            }
        }
        let count = count.unwrap_or(0);
        for kind in SymbolKind::ALL {
            for (k, s) in p.symbols(kind).items.iter().enumerate() {
                if s.used.len() as u64 != count {
                    out.push(Finding::warning(
                        s.at + offset_of!(res::ResShaderSymbolData<U>, variation_num) as u64,
                        format!(
                            "{pre}{} {k} \"{}\" has {} used flags for {count} variations",
                            kind.singular(),
                            s.name.text(),
                            s.used.len()
                        ),
                    ));
                }
            }
        }
    }
    out.sort_by_key(|f| f.offset);
    out
}

/// The settings of one program's variations as lines about binaries show them: the first
/// macros, at most [`SETTINGS_SHOWN`] and as many as fit in
/// [`gx2::NAME_SHOWN`] bytes of text (each name and value cut
/// to that too), with their values read once, so that a line costs the same whatever the
/// macros hold.
pub struct ShownSettings<'a> {
    /// Each macro that may be shown: its name, its values and how many values it counts.
    macros: Vec<(std::borrow::Cow<'a, str>, Vec<res::Value<'a>>, u64)>,
    /// The number of variations.
    total: u64,
    /// The number of macros.
    all: usize,
}

impl<'a> ShownSettings<'a> {
    /// The shown settings of `program`'s variations.
    pub fn new(program: &'a Program) -> Self {
        let all = &program.variations.items;
        let macros = all
            .iter()
            .take(SETTINGS_SHOWN)
            .map(|v| (v.name.shown(), v.values(), u64::from(v.value_count).max(1)))
            .collect();
        ShownSettings { macros, total: program.variation_count().unwrap_or(0), all: all.len() }
    }

    /// The settings of variation `variation` that are shown (the first of those
    /// [`Sharcfb::settings`] gives).
    pub fn of(&self, variation: u64) -> Vec<(String, String)> {
        let mut out = Vec::with_capacity(self.macros.len());
        if self.total == 0 {
            return out;
        }
        let mut budget = crate::format::gx2::NAME_SHOWN;
        // The first macro is the most significant digit: the variations each value of macro
        // `j` spans are the total over the product of the counts up to `j`.
        let mut prefix = 1u64;
        for (name, values, count) in &self.macros {
            if budget == 0 {
                break;
            }
            prefix = prefix.saturating_mul(*count);
            let digit = (variation / (self.total / prefix).max(1)) % count;
            let value = values
                .get(digit as usize)
                .map(|x| res::shown(std::borrow::Cow::Borrowed(x.text)).into_owned())
                .unwrap_or(format!("#{digit}"));
            budget = budget.saturating_sub(name.len() + value.len() + 2);
            out.push((name.to_string(), value));
        }
        out
    }

    /// `FOG=1 LIGHTS=2`, and `(+N more)` for the macros not shown; `no macros` when there
    /// are none.
    pub fn text(&self, variation: u64) -> String {
        let shown = self.of(variation);
        let more = self.all.saturating_sub(shown.len());
        let mut text: Vec<String> = shown.iter().map(|(m, v)| format!("{m}={v}")).collect();
        if more > 0 {
            text.push(format!("(+{more} more)"));
        }
        if text.is_empty() { "no macros".to_string() } else { text.join(" ") }
    }
}

#[cfg(test)]
mod tests;
