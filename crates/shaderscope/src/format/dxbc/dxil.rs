//! The DXIL program header of a DXC container's `DXIL` (or `ILDB`, with debug information)
//! chunk: which stage and shader model the program is for, and where its LLVM bitcode is.
//!
//! ```text
//! u32 program version   (shader kind << 16) | (major << 4) | minor, as SM4's version token
//! u32 size in dwords    of the whole chunk payload, this header included
//! "DXIL"                the bitcode header starts here
//! u32 DXIL version      (major << 8) | minor
//! u32 bitcode offset    from the start of the bitcode header ("DXIL")
//! u32 bitcode size      in bytes
//! LLVM bitcode          starting with "BC\xC0\xDE"
//! ```
//!
//! The bitcode is not disassembled; `extract FILE bitcode` gives it to `llvm-dis` or
//! `llvm-bcanalyzer` (see [`super::Dxbc::parts`](crate::Container::parts)).
//!
//! ```
//! use shaderscope::format::dxbc::{Dxbc, dxil::ShaderKind, write::Builder};
//!
//! // cs_6_0, DXIL 1.0, four bytes of "bitcode".
//! let mut payload = Vec::new();
//! for w in [0x0005_0060u32, 7, u32::from_le_bytes(*b"DXIL"), 0x100, 16, 4] {
//!     payload.extend(w.to_le_bytes());
//! }
//! payload.extend(b"BC\xc0\xde");
//! let mut b = Builder::new();
//! b.push(*b"DXIL", payload);
//! let bytes = b.finish()?;
//! let d = Dxbc::parse(&bytes)?;
//! let p = d.dxil.as_ref().unwrap();
//! assert_eq!((p.kind, p.model(), p.dxil_version_text()), (ShaderKind::Compute, "cs_6_0".to_string(), "1.0".to_string()));
//! assert_eq!((p.bitcode_position(), p.bitcode), (44 + 24, &b"BC\xc0\xde"[..]));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::model::{Finding, Stage};
use crate::print::count;
use crate::toolkit::{Chunk, Endian};

/// Size of the program header and the bitcode header together.
pub const HEADER_SIZE: usize = 24;

/// The start of every LLVM bitcode file.
pub const BITCODE_MAGIC: [u8; 4] = *b"BC\xc0\xde";

/// `DXIL::ShaderKind`: the high half of the program version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// Pixel shader.
    Pixel,
    /// Vertex shader.
    Vertex,
    /// Geometry shader.
    Geometry,
    /// Hull shader.
    Hull,
    /// Domain shader.
    Domain,
    /// Compute shader.
    Compute,
    /// A library of functions (`lib_6_x`), ray-tracing shaders among them.
    Library,
    /// Ray generation shader.
    RayGeneration,
    /// Intersection shader.
    Intersection,
    /// Any-hit shader.
    AnyHit,
    /// Closest-hit shader.
    ClosestHit,
    /// Miss shader.
    Miss,
    /// Callable shader.
    Callable,
    /// Mesh shader.
    Mesh,
    /// Amplification shader.
    Amplification,
    /// Work-graph node shader.
    Node,
    /// A value DXC does not define.
    Other(u16),
}

impl ShaderKind {
    /// The kind of a program version's high half.
    pub fn from_u16(v: u16) -> Self {
        use ShaderKind::*;
        match v {
            0 => Pixel,
            1 => Vertex,
            2 => Geometry,
            3 => Hull,
            4 => Domain,
            5 => Compute,
            6 => Library,
            7 => RayGeneration,
            8 => Intersection,
            9 => AnyHit,
            10 => ClosestHit,
            11 => Miss,
            12 => Callable,
            13 => Mesh,
            14 => Amplification,
            15 => Node,
            other => Other(other),
        }
    }

    /// The lowercase name used in text and JSON: the [`Stage`] names for the six stages of
    /// Direct3D 11, then `library`, `raygeneration`, …, `mesh`, `amplification`, `node`, and
    /// `unknown` for a value DXC does not define.
    pub fn name(self) -> &'static str {
        use ShaderKind::*;
        match self {
            Library => "library",
            RayGeneration => "raygeneration",
            Intersection => "intersection",
            AnyHit => "anyhit",
            ClosestHit => "closesthit",
            Miss => "miss",
            Callable => "callable",
            Mesh => "mesh",
            Amplification => "amplification",
            Node => "node",
            Other(_) => "unknown",
            _ => self.stage().map(Stage::name).unwrap_or("unknown"),
        }
    }

    /// The profile prefix DXC uses (`ps`, `cs`, `lib`, `ms`, `as`); the kind's name for the
    /// kinds that have no profile of their own.
    pub fn prefix(self) -> &'static str {
        match self {
            ShaderKind::Library => "lib",
            ShaderKind::Mesh => "ms",
            ShaderKind::Amplification => "as",
            _ => self.stage().map(Stage::prefix).unwrap_or_else(|| self.name()),
        }
    }

    /// The Direct3D 11 stage, for the six kinds that are one.
    pub fn stage(self) -> Option<Stage> {
        match self {
            ShaderKind::Pixel => Some(Stage::Pixel),
            ShaderKind::Vertex => Some(Stage::Vertex),
            ShaderKind::Geometry => Some(Stage::Geometry),
            ShaderKind::Hull => Some(Stage::Hull),
            ShaderKind::Domain => Some(Stage::Domain),
            ShaderKind::Compute => Some(Stage::Compute),
            _ => None,
        }
    }
}

/// The DXIL program of a `DXIL`/`ILDB` chunk: its header and its bitcode, read in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DxilProgram<'a> {
    /// The chunk it sits in.
    pub chunk: Chunk<'a>,
    /// The program version word.
    pub program_version: u32,
    /// The shader kind (high half of the program version).
    pub kind: ShaderKind,
    /// Major shader model (6).
    pub major: u8,
    /// Minor shader model.
    pub minor: u8,
    /// The size the header declares for the payload, in dwords.
    pub size_in_dwords: u32,
    /// The DXIL version: major in bits 8 and up, minor in the low byte.
    pub dxil_version: u32,
    /// Where the bitcode starts, from the start of the bitcode header (the `DXIL` magic).
    pub bitcode_offset: u32,
    /// The bitcode size in bytes.
    pub bitcode_size: u32,
    /// The bitcode.
    pub bitcode: &'a [u8],
}

/// The payload of a DXIL program part (`DXIL`, `ILDB`, or a DXIL container's `STAT`) as DXC
/// writes it: the program header for `program_version` (kind << 16 | major << 4 | minor) and
/// `dxil_version` (major << 8 | minor), the bitcode right after it, zeros up to a multiple of
/// 4 bytes.
///
/// ```
/// use shaderscope::format::dxbc::{Dxbc, dxil, write::Builder};
///
/// let part = dxil::program_part(0x0005_0060, 0x100, b"BC\xc0\xde\x01");
/// assert_eq!(part.len(), 24 + 8);
/// let mut b = Builder::new();
/// b.push(*b"DXIL", part);
/// let bytes = b.finish()?;
/// let d = Dxbc::parse(&bytes)?;
/// let p = d.dxil.as_ref().unwrap();
/// assert_eq!((p.model(), p.bitcode, p.validate().len()), ("cs_6_0".to_string(), &b"BC\xc0\xde\x01"[..], 0));
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub fn program_part(program_version: u32, dxil_version: u32, bitcode: &[u8]) -> Vec<u8> {
    let padded = bitcode.len().next_multiple_of(4);
    let size_in_dwords = u32::try_from((HEADER_SIZE + padded) / 4).unwrap_or(u32::MAX);
    let bitcode_size = u32::try_from(bitcode.len()).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(HEADER_SIZE + padded);
    for w in [program_version, size_in_dwords, u32::from_le_bytes(*b"DXIL"), dxil_version, 16, bitcode_size] {
        out.extend(w.to_le_bytes());
    }
    out.extend(bitcode);
    out.resize(HEADER_SIZE + padded, 0);
    out
}

impl<'a> DxilProgram<'a> {
    /// Read the header of a `DXIL`/`ILDB` chunk; an error when it is cut short, its magic is
    /// not `DXIL`, or its bitcode lies outside the chunk.
    pub fn parse(chunk: Chunk<'a>) -> Result<Self> {
        let r = chunk.reader(Endian::Little);
        let base = r.base();
        // The whole header first, so that a short payload is reported once, at its start.
        r.bytes_at(0, HEADER_SIZE, "DXIL program header")?;
        let program_version = r.u32_at(0, "DXIL program header")?;
        let size_in_dwords = r.u32_at(4, "DXIL program header")?;
        let magic = r.bytes_at(8, 4, "DXIL bitcode header")?;
        if magic != b"DXIL" {
            return Err(Error::bad_magic(base + 8, "DXIL bitcode header", b"DXIL", magic));
        }
        let dxil_version = r.u32_at(12, "DXIL bitcode header")?;
        let bitcode_offset = r.u32_at(16, "DXIL bitcode header")?;
        let bitcode_size = r.u32_at(20, "DXIL bitcode header")?;
        let start = 8 + u64::from(bitcode_offset);
        let len = u64::from(bitcode_size);
        let bitcode = usize::try_from(start)
            .ok()
            .zip(usize::try_from(len).ok())
            .and_then(|(s, n)| chunk.data.get(s..)?.get(..n))
            .ok_or_else(|| {
                Error::out_of_bounds(
                    base + 16,
                    "DXIL bitcode",
                    base + start,
                    len,
                    base + chunk.data.len() as u64,
                )
            })?;
        Ok(DxilProgram {
            chunk,
            program_version,
            kind: ShaderKind::from_u16((program_version >> 16) as u16),
            major: ((program_version >> 4) & 0xf) as u8,
            minor: (program_version & 0xf) as u8,
            size_in_dwords,
            dxil_version,
            bitcode_offset,
            bitcode_size,
            bitcode,
        })
    }

    /// The shader model as its profile is spelled: `cs_6_6`, `lib_6_3`, `ms_6_5`.
    pub fn model(&self) -> String {
        format!("{}_{}_{}", self.kind.prefix(), self.major, self.minor)
    }

    /// The DXIL version as `major.minor`: `1.6`.
    pub fn dxil_version_text(&self) -> String {
        format!("{}.{}", self.dxil_version >> 8, self.dxil_version & 0xff)
    }

    /// Absolute offset of the program header (the chunk's data).
    pub fn position(&self) -> usize {
        self.chunk.data_offset()
    }

    /// Absolute offset of the bitcode header (its `DXIL` magic).
    pub fn bitcode_header_position(&self) -> usize {
        self.position().saturating_add(8)
    }

    /// Absolute offset of the bitcode.
    pub fn bitcode_position(&self) -> usize {
        self.bitcode_header_position().saturating_add(self.bitcode_offset as usize)
    }

    /// What a reader would object to beyond what parsing needs: a declared size other than the
    /// payload's, bitcode that does not start with the LLVM magic, a kind DXC does not define,
    /// a shader model other than 6.x.
    pub fn validate(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let at = self.position() as u64;
        let what = self.chunk.fourcc.name();
        let payload = self.chunk.data.len() as u64;
        if u64::from(self.size_in_dwords) * 4 != payload {
            out.push(Finding::error(
                at + 4,
                format!(
                    "{what} program header: size {} ({}) is not the payload's {}",
                    count(self.size_in_dwords, "dword"),
                    count(u64::from(self.size_in_dwords) * 4, "byte"),
                    count(payload, "byte")
                ),
            ));
        }
        if let ShaderKind::Other(k) = self.kind {
            out.push(Finding::error(at, format!("{what} program header: unknown shader kind {k}")));
        }
        if self.major != 6 {
            out.push(Finding::warning(
                at,
                format!("{what} program header: shader model {}.{} is not 6.x", self.major, self.minor),
            ));
        }
        if self.bitcode.get(..4) != Some(&BITCODE_MAGIC[..]) {
            out.push(Finding::error(
                self.bitcode_position() as u64,
                format!(
                    "{what} bitcode does not start with the LLVM magic \"BC\\xc0\\xde\" (found \"{}\")",
                    crate::error::escape_bytes(self.bitcode.get(..4).unwrap_or(self.bitcode))
                ),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dxbc::{Dxbc, write::Builder};

    fn payload(words: [u32; 6], bitcode: &[u8]) -> Vec<u8> {
        let mut v: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        v.extend(bitcode);
        v
    }

    fn container(tag: [u8; 4], payload: Vec<u8>) -> Vec<u8> {
        let mut b = Builder::new();
        b.push(tag, payload);
        b.finish().unwrap()
    }

    const MAGIC: u32 = u32::from_le_bytes(*b"DXIL");

    #[test]
    fn header_gives_kind_model_and_bitcode() {
        let bytes = container(*b"ILDB", payload([0x000d_0065, 7, MAGIC, 0x105, 16, 4], b"BC\xc0\xde"));
        let d = Dxbc::parse(&bytes).unwrap();
        let p = d.dxil.unwrap();
        assert_eq!((p.kind, p.kind.name(), p.model()), (ShaderKind::Mesh, "mesh", "ms_6_5".to_string()));
        assert_eq!((p.position(), p.bitcode_header_position(), p.bitcode_position()), (44, 52, 68));
        assert!(p.validate().is_empty());
        assert_eq!(ShaderKind::from_u16(6).prefix(), "lib");
        assert_eq!(ShaderKind::from_u16(7).prefix(), "raygeneration");
        assert_eq!(ShaderKind::from_u16(99).name(), "unknown");
    }

    #[test]
    fn damaged_headers_give_errors_with_offsets() {
        let cases: [(Vec<u8>, &str); 3] = [
            (
                payload([0x50060, 7, MAGIC, 0x100, 16, 4], b"BC")[..20].to_vec(),
                "truncated DXIL program header at offset 0x2c (need 24 bytes, have 20)",
            ),
            (
                payload([0x50060, 7, 0x4c495844 ^ 1, 0x100, 16, 4], b"BC\xc0\xde"),
                "bad DXIL bitcode header magic at offset 0x34: expected \"DXIL\", found \"EXIL\"",
            ),
            (
                payload([0x50060, 7, MAGIC, 0x100, 16, 8], b"BC\xc0\xde"),
                "DXIL bitcode at offset 0x3c points outside its range (0x44 + 0x8 is outside 0x48)",
            ),
        ];
        for (payload, message) in cases {
            let bytes = container(*b"DXIL", payload);
            let d = Dxbc::parse(&bytes).unwrap();
            assert!(d.dxil.is_none());
            assert_eq!(d.chunk_errors[0].1.to_string(), message);
        }
    }

    #[test]
    fn validate_checks_size_magic_and_kind() {
        let bytes = container(*b"DXIL", payload([0x0011_0070, 9, MAGIC, 0x100, 16, 4], b"XX\xc0\xde"));
        let d = Dxbc::parse(&bytes).unwrap();
        let found: Vec<String> = d
            .dxil
            .unwrap()
            .validate()
            .iter()
            .map(|f| format!("{:?} 0x{:x} {}", f.severity, f.offset, f.message))
            .collect();
        assert_eq!(
            found,
            [
                "Error 0x30 DXIL program header: size 9 dwords (36 bytes) is not the payload's 28 bytes",
                "Error 0x2c DXIL program header: unknown shader kind 17",
                "Warning 0x2c DXIL program header: shader model 7.0 is not 6.x",
                "Error 0x44 DXIL bitcode does not start with the LLVM magic \"BC\\xc0\\xde\" (found \"XX\\xc0\\xde\")",
            ]
        );
    }
}
