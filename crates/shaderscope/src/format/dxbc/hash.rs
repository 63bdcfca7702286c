//! The hashes shader-modding tools key a shader by: what names 3Dmigoto's `ShaderFixes` files
//! (`<hash>-ps_replace.txt`, `.bin`, `-ps.txt`) and `[ShaderOverride]` sections.
//!
//! Read from 3Dmigoto's public source (bo3b/3Dmigoto: `util.h` `fnv_64_buf`,
//! `DirectX11/HackerDevice.cpp` `hash_shader` and `hash_shader_bytecode`, the Direct3D 9 build's
//! `DirectX9/Direct3DDevice9Functions.h`); DarkStarSword/3d-fixes' `dx11shaderanalyse.py`
//! prints the same values (`--3dmigoto-hash`, `--bytecode-hash`).
//!
//! - **3Dmigoto hash** ([`fnv0_64`]), `shader_hash = 3dmigoto`, the default: FNV-1 64 over
//!   every byte the game hands to `Create*Shader` (magic, checksum and all chunks), but started
//!   from 0 instead of FNV's offset basis (FNV-0). Printed `%016x`.
//! - **Bytecode hash** ([`bytecode`]), `shader_hash = bytecode`: CRC-32C (Castagnoli, as
//!   iSCSI) over the payloads of the program and signature chunks ([`BYTECODE_CHUNKS`]) in
//!   index order, so that the same program built with another compiler version or with debug
//!   information (RDEF, STAT, SDBG differ) keeps its name. Printed `00000000%08x`. When it is
//!   0, or the chunk index does not read, 3Dmigoto names the shader by the 3Dmigoto hash.
//! - **Embedded**, `shader_hash = embedded`: the first 8 bytes of the stored checksum, in file
//!   order, which the checksum's hex (`checksum::hex`) starts with.
//! - **Direct3D 9** ([`d3d9_program_len`]): 3Dmigoto's DX9 build hashes a program with the
//!   same FNV-0 over its tokens up to and including the first `0x0000ffff` word (it counts words
//!   until it meets one: the API passes no length).
//!
//! ```
//! use shaderscope::format::dxbc::{hash, write::Builder};
//!
//! // The CRC-32C check value, and FNV-0 of a one-byte input (the byte itself).
//! assert_eq!(hash::crc32c(b"123456789"), 0xe306_9283);
//! assert_eq!(hash::fnv0_64(b"a"), 0x61);
//!
//! // ps_4_0 `ret` and a STAT chunk: only the program is in the bytecode hash.
//! let shdr: Vec<u8> = [0x0000_0040u32, 3, 0x0100_003e].iter().flat_map(|w| w.to_le_bytes()).collect();
//! let mut b = Builder::new();
//! b.push(*b"SHDR", shdr.clone());
//! b.push(*b"STAT", vec![0; 4 * 37]);
//! let bytes = b.finish()?;
//! let h = hash::Hashes::of_dxbc(&bytes);
//! assert_eq!(h.migoto, hash::fnv0_64(&bytes));
//! assert_eq!(h.bytecode, Some(hash::crc32c(&shdr)));
//! assert_eq!(h.migoto_text(), format!("{:016x}", hash::fnv0_64(&bytes)));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::{Frame, checksum};
use serde::{Serialize, Serializer};

/// The chunks whose payloads the bytecode hash covers: the program and the three signatures
/// (3Dmigoto's `hash_whitelisted_sections`).
pub const BYTECODE_CHUNKS: [&[u8; 4]; 9] =
    [b"SHDR", b"SHEX", b"ISGN", b"ISG1", b"PCSG", b"PSG1", b"OSGN", b"OSG5", b"OSG1"];

/// The FNV-1 64 prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// CRC-32C as iSCSI defines it (reflected 0x1edc6f41, initial and final XOR all ones).
const CASTAGNOLI: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// FNV-1 64 from 0 rather than the offset basis: 3Dmigoto's `fnv_64_buf`.
pub fn fnv0_64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |h, &b| h.wrapping_mul(FNV_PRIME) ^ u64::from(b))
}

/// CRC-32C of `bytes`.
pub fn crc32c(bytes: &[u8]) -> u32 {
    CASTAGNOLI.checksum(bytes)
}

/// The bytecode hash of a container: CRC-32C over the payloads of its [`BYTECODE_CHUNKS`]
/// in index order (a chunk the index names twice is hashed twice, as 3Dmigoto does). `None`
/// where 3Dmigoto uses the 3Dmigoto hash instead: the container's index does not read, or
/// the CRC is 0 (no program or signature chunk). Also `None` when the payloads to hash
/// add up to more than four times the input (only an index that names large chunks over and
/// over does that), which would take time quadratic in the input.
pub fn bytecode(bytes: &[u8]) -> Option<u32> {
    let frame = Frame::parse(bytes).ok()?;
    let chunks = || frame.chunks.iter().filter(|c| BYTECODE_CHUNKS.contains(&&c.fourcc.0));
    let total = chunks().try_fold(0usize, |n, c| n.checked_add(c.data.len()))?;
    if total > bytes.len().saturating_mul(4) {
        return None;
    }
    let mut digest = CASTAGNOLI.digest();
    chunks().for_each(|c| digest.update(c.data));
    Some(digest.finalize()).filter(|&h| h != 0)
}

/// The length of the Direct3D 9 program at the start of `bytes` as 3Dmigoto's DX9 build counts
/// it: up to and including the first word that is `0x0000ffff` (the end token, or that value
/// anywhere before it, such as inside a comment). `None` when no word is.
pub fn d3d9_program_len(bytes: &[u8]) -> Option<usize> {
    let at = bytes.chunks_exact(4).position(|w| w == 0x0000_ffffu32.to_le_bytes())?;
    Some((at + 1) * 4)
}

/// The names modding tools key one shader by, as `info` and `scan` print them (JSON: hex
/// strings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hashes {
    /// The 3Dmigoto hash ([`fnv0_64`]).
    #[serde(rename = "3dmigoto", serialize_with = "hex64")]
    pub migoto: u64,
    /// The bytecode hash ([`bytecode`]); DXBC only.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "bytecode_hex")]
    pub bytecode: Option<u32>,
    /// The stored checksum (bytes 4..20); DXBC only.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "checksum_hex")]
    pub checksum: Option<[u8; 16]>,
}

impl Hashes {
    /// The hashes of a DXBC container (`bytes` as a game would pass them: the whole file).
    pub fn of_dxbc(bytes: &[u8]) -> Self {
        let checksum = bytes.get(4..20).and_then(|s| <[u8; 16]>::try_from(s).ok());
        Hashes { migoto: fnv0_64(bytes), bytecode: bytecode(bytes), checksum }
    }

    /// The hash of a standalone Direct3D 9 program; `None` without a `0x0000ffff` word.
    pub fn of_d3d9(bytes: &[u8]) -> Option<Self> {
        let len = d3d9_program_len(bytes)?;
        Some(Hashes { migoto: fnv0_64(bytes.get(..len)?), bytecode: None, checksum: None })
    }

    /// The 3Dmigoto hash as its file names print it: `%016x`.
    pub fn migoto_text(&self) -> String {
        format!("{:016x}", self.migoto)
    }

    /// The bytecode hash as 3Dmigoto names files by it: `00000000%08x`.
    pub fn bytecode_text(&self) -> Option<String> {
        self.bytecode.map(|h| format!("{:016x}", u64::from(h)))
    }

    /// `3dmigoto=… bytecode=… checksum=…`: what `scan` prints (the parts that apply).
    pub fn pairs(&self) -> String {
        let mut s = format!("3dmigoto={}", self.migoto_text());
        if let Some(b) = self.bytecode_text() {
            s.push_str(&format!(" bytecode={b}"));
        }
        if let Some(c) = &self.checksum {
            s.push_str(&format!(" checksum={}", checksum::hex(c)));
        }
        s
    }
}

fn hex64<S: Serializer>(h: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{h:016x}"))
}

fn bytecode_hex<S: Serializer>(h: &Option<u32>, s: S) -> Result<S::Ok, S::Error> {
    match h {
        Some(h) => hex64(&u64::from(*h), s),
        None => s.serialize_none(),
    }
}

fn checksum_hex<S: Serializer>(c: &Option<[u8; 16]>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_str(&checksum::hex(c)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check value of CRC-32C (the CRC catalogue's `CRC-32/ISCSI`), and FNV-0 64 test
    /// vectors from cryb-to's `t/t_fnv.c` (the IETF draft's vectors extended to FNV-0).
    #[test]
    fn known_vectors() {
        assert_eq!(crc32c(b"123456789"), 0xe306_9283);
        assert_eq!(fnv0_64(b""), 0);
        assert_eq!(fnv0_64(b"a"), 0x61);
        assert_eq!(fnv0_64(b"foobar"), 0x0b91_ae3f_7ccd_c5ef);
    }

    /// Chaining over several payloads is one CRC over them joined, and a damaged index gives
    /// no bytecode hash.
    #[test]
    fn bytecode_chains_and_falls_back() {
        use super::super::write::Builder;
        let mut b = Builder::new();
        b.push(*b"ISGN", b"in".to_vec());
        b.push(*b"RDEF", b"skipped".to_vec());
        b.push(*b"SHEX", b"prog".to_vec());
        let bytes = b.finish().unwrap_or_default();
        assert_eq!(bytecode(&bytes), Some(crc32c(b"inprog")));
        assert_eq!(bytecode(bytes.get(..bytes.len() - 1).unwrap_or_default()), None);
        let mut none = Builder::new();
        none.push(*b"STAT", vec![0; 8]);
        assert_eq!(bytecode(&none.finish().unwrap_or_default()), None);
        // vs_2_0, `nop`, end.
        assert_eq!(d3d9_program_len(&[0, 2, 0xfe, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 9]), Some(12));
        assert_eq!(d3d9_program_len(&[0, 2, 0xfe, 0xff]), None);
    }
}
