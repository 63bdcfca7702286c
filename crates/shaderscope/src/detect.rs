//! Sniff what a file is from its first bytes.
//!
//! Every magic of the product is recognised here, including the ones this build cannot read
//! yet, so that the CLI can say plainly "this is a SHARCFB archive, recognised, not supported
//! yet" instead of "unknown file". [`crate::parse`] calls [`readable`] first; call [`detect`]
//! directly to sort files without parsing them.
//!
//! Recognition looks at no more than the first [`HEAD`] bytes, so a reader can decide what a
//! file or stream is before it reads the rest (and refuse one that is no shader at once): the
//! answer for those bytes is the answer for the whole input.
//!
//! ```
//! use shaderscope::detect::{Format, d3d9_version, detect};
//!
//! assert_eq!(detect(b"DXBC\0\0\0\0"), Some(Format::Dxbc));
//! // Direct3D 9 bytecode has no magic: its first token is the version (here vs_2_0).
//! assert_eq!(detect(&[0x00, 0x02, 0xfe, 0xff]), Some(Format::D3d9));
//! assert_eq!(d3d9_version(&[0x00, 0x02, 0xfe, 0xff]), Some(('v', 2, 0)));
//! // Base64 text whose first bytes decode to "DVLB".
//! assert_eq!(detect(b"RFZMQgEAAAA="), Some(Format::Csdr));
//! assert_eq!(detect(b"\x7fELF"), None);
//!
//! let mbs = detect(b"MBS1\0\0\0\0");
//! assert_eq!(mbs.map(|f| (f.name(), f.supported())), Some(("mbs", true)));
//! // Why an input cannot be read, from its first bytes.
//! use shaderscope::detect::readable;
//! assert_eq!(readable(b"").unwrap_err().to_string(), "empty file");
//! assert_eq!(
//!     readable(b"\x7fELF\x02").unwrap_err().to_string(),
//!     r#"invalid file at offset 0x0: not a shader binary this tool knows (first bytes "\x7fELF")"#
//! );
//! assert_eq!(readable(b"DXBC").ok(), Some(Format::Dxbc));
//! ```

use crate::error::{Error, Result};
use serde::Serialize;

/// How many first bytes [`detect`] and [`readable`] look at, at most: their answer for an input
/// is their answer for its first `HEAD` bytes.
pub const HEAD: usize = 4096;

/// A recognised kind of file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Direct3D 10/11/12 container (`DXBC`), SM4/5 or DXIL inside.
    Dxbc,
    /// Legacy Direct3D 9 bytecode (SM1–3), starting with a `vs_x_y`/`ps_x_y` version token.
    D3d9,
    /// Nintendo 3DS linked shader binary (`DVLB`, `.shbin`).
    Dvlb,
    /// Nintendo 3DS unlinked shader object (`DVOJ`/`DVOB`).
    Dvoj,
    /// Nintendo CTR graphics container (`CGFX`, `.bcsdr`/`.bcres`) which may hold DVLBs.
    Cgfx,
    /// Base64 text holding 3DS shader binaries (`.csdr`).
    Csdr,
    /// Wii U AGL shader archive (`SHAB`, or byte-swapped `BAHS`).
    Sharcfb,
    /// Wii U GX2 file (`Gfx2`, `.gsh`).
    Gfd,
    /// Wii U AGL shader source archive (`SHAA`, or byte-swapped `AAHS`, `.sharc`).
    Sharc,
    /// ARM Mali-200/400 offline compiler output (`MBS1`).
    Mbs,
    /// Direct3D 9 effect (`fxc /T fx_2_0`, FNA/XNA `.fxb`): tag `01 09 ff fe`.
    Fx9,
    /// Direct3D 10/11 effect: `fx_4_0`/`fx_4_1` (a DXBC container of one `FX10` chunk) or
    /// `fx_5_0` (the bare effect, tag `01 20 ff fe`).
    Fx11,
    /// MonoGame compiled effect (`MGFX`, `.mgfxo`).
    Mgfx,
}

impl Format {
    /// How many first bytes [`Format::of`] and [`Format::readable`] look at ([`HEAD`]): a
    /// front end that reads files can decide from this many whether to read the rest.
    pub const HEAD: usize = HEAD;

    /// The format `data` is, from its magic ([`detect`]).
    pub fn of(data: &[u8]) -> Option<Format> {
        detect(data)
    }

    /// The format of `data` when this build reads it, otherwise why not ([`readable`]).
    pub fn readable(data: &[u8]) -> Result<Format> {
        readable(data)
    }

    /// Short lowercase name used in output and `--json`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Dxbc => "dxbc",
            Format::D3d9 => "d3d9",
            Format::Dvlb => "shbin",
            Format::Dvoj => "dvoj",
            Format::Cgfx => "cgfx",
            Format::Csdr => "csdr",
            Format::Sharcfb => "sharcfb",
            Format::Gfd => "gfd",
            Format::Sharc => "sharc",
            Format::Mbs => "mbs",
            Format::Fx9 => "fx9",
            Format::Fx11 => "fx11",
            Format::Mgfx => "mgfx",
        }
    }

    /// A one-line description for people.
    pub fn description(self) -> &'static str {
        match self {
            Format::Dxbc => "Direct3D DXBC container",
            Format::D3d9 => "Direct3D 9 shader bytecode",
            Format::Dvlb => "Nintendo 3DS shader binary (DVLB)",
            Format::Dvoj => "Nintendo 3DS shader object (DVOJ/DVOB)",
            Format::Cgfx => "Nintendo 3DS CGFX container",
            Format::Csdr => "Nintendo 3DS base64 shader text (.csdr)",
            Format::Sharcfb => "Wii U AGL shader archive (SHARCFB)",
            Format::Gfd => "Wii U GX2 file (GFD)",
            Format::Sharc => "Wii U AGL shader source archive (SHARC)",
            Format::Mbs => "ARM Mali offline shader binary (MBS)",
            Format::Fx9 => "Direct3D 9 effect (fx_2_0)",
            Format::Fx11 => "Direct3D 10/11 effect (fx_4_0, fx_4_1, fx_5_0)",
            Format::Mgfx => "MonoGame effect (MGFX)",
        }
    }

    /// The file name extension a file of this format usually has (without the dot): what
    /// `scan --extract` names its finds with.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Dxbc => "dxbc",
            Format::D3d9 => "d3d9",
            Format::Dvlb => "shbin",
            Format::Dvoj => "dvoj",
            Format::Cgfx => "bcsdr",
            Format::Csdr => "csdr",
            Format::Sharcfb => "sharcfb",
            Format::Gfd => "gsh",
            Format::Sharc => "sharc",
            Format::Mbs => "mbs",
            Format::Fx9 | Format::Fx11 => "fxo",
            Format::Mgfx => "mgfxo",
        }
    }

    /// Whether this build reads the format ([`crate::parse`] gives it a [`crate::File`]):
    /// every format of the product, unless the build leaves its family's cargo feature out.
    pub fn supported(self) -> bool {
        match self {
            Format::Dxbc | Format::D3d9 => cfg!(feature = "direct3d"),
            Format::Dvlb | Format::Dvoj | Format::Cgfx | Format::Csdr => cfg!(feature = "n3ds"),
            Format::Sharcfb | Format::Gfd | Format::Sharc => cfg!(feature = "wiiu"),
            Format::Mbs => cfg!(feature = "mali"),
            // Effects carry Direct3D programs (MGFX: DXBC, or GLSL text for OpenGL).
            Format::Fx9 | Format::Fx11 | Format::Mgfx => cfg!(feature = "direct3d"),
        }
    }
}

/// The format of `data` when this build reads it; otherwise why not: an empty input (`empty
/// file`), bytes that are none of the product's formats (`invalid`, naming the first bytes), or
/// a format that is recognised but not read yet ([`crate::ErrorKind::Unsupported`]). Looks at
/// the first [`HEAD`] bytes only.
pub fn readable(data: &[u8]) -> Result<Format> {
    if data.is_empty() {
        return Err(Error::empty("file"));
    }
    match detect(data) {
        Some(format) if format.supported() => Ok(format),
        Some(format) => Err(unsupported(format)),
        None => {
            let found = data.get(..4).unwrap_or(data);
            let found = crate::error::escape_bytes(found);
            Err(Error::invalid(
                0,
                "file",
                format!("not a shader binary this tool knows (first bytes \"{found}\")"),
            ))
        }
    }
}

/// Why a format or an instruction set whose family's cargo feature is off is refused.
pub(crate) const NOT_IN_BUILD: &str = "not read by this build (its family's cargo feature is off)";

/// The error for a file of `format`, which this build recognises but does not read.
pub fn unsupported(format: Format) -> Error {
    Error::unsupported(0, format.description(), format!("recognised, {NOT_IN_BUILD}"))
}

/// Recognise `data` from its magic; `None` when it is none of the product's formats. Looks at
/// the first [`HEAD`] bytes only.
pub fn detect(data: &[u8]) -> Option<Format> {
    let magic = data.get(..4)?;
    match magic {
        b"DVLB" => return Some(Format::Dvlb),
        b"DVOJ" | b"DVOB" => return Some(Format::Dvoj),
        b"CGFX" => return Some(Format::Cgfx),
        b"SHAB" | b"BAHS" => return Some(Format::Sharcfb),
        b"SHAA" | b"AAHS" => return Some(Format::Sharc),
        b"Gfx2" => return Some(Format::Gfd),
        b"MBS1" => return Some(Format::Mbs),
        b"MGFX" => return Some(Format::Mgfx),
        [0x01, 0x09, 0xff, 0xfe] | [0xcf, 0x0b, 0xf0, 0xbc] => return Some(Format::Fx9),
        [0x01, 0x10, 0xff, 0xfe] | [0x11, 0x10, 0xff, 0xfe] | [0x01, 0x20, 0xff, 0xfe] => {
            return Some(Format::Fx11);
        }
        _ => {}
    }
    if magic == b"DXBC" {
        return Some(if is_fx10_container(data) { Format::Fx11 } else { Format::Dxbc });
    }
    if data.starts_with(b"XNB") {
        return xnb_effect(data);
    }
    if d3d9_version(data).is_some() {
        return Some(Format::D3d9);
    }
    if looks_like_csdr(data) {
        return Some(Format::Csdr);
    }
    None
}

/// A DXBC container whose one chunk is `FX10`: how fxc stores an `fx_4_0`/`fx_4_1` effect.
/// Its chunk must start within the first [`HEAD`] bytes (fxc's starts at byte 36).
fn is_fx10_container(data: &[u8]) -> bool {
    let data = data.get(..HEAD).unwrap_or(data);
    let le = |at| crate::toolkit::le_u32(data, at);
    let chunk = le(32).and_then(|at| data.get(at as usize..).and_then(|c| c.get(..4)));
    le(28) == Some(1) && chunk == Some(b"FX10")
}

/// The format of the effect an XNB file holds: MGFX (MonoGame), or an fx_2_0 effect (XNA 4's
/// effect code, or FNA's bare effect). An XNB whose header cannot be read goes to MGFX's reader
/// when `.EffectReader` is in its first [`HEAD`] bytes or the file is compressed (the reader
/// then says why it stops); any other XNB (a texture, a `SoundEffectReader`'s sound) is not a
/// shader.
fn xnb_effect(data: &[u8]) -> Option<Format> {
    #[cfg(feature = "direct3d")]
    if let Ok((_, range)) = crate::format::xnb::read(data, None) {
        let effect = data.get(range).unwrap_or(&[]);
        let fx9 = [crate::format::fx9::XNA_TAG, crate::format::fx9::TAG].map(u32::to_le_bytes);
        return Some(if fx9.iter().any(|t| effect.starts_with(t)) { Format::Fx9 } else { Format::Mgfx });
    }
    let head = data.get(..HEAD).unwrap_or(data);
    let compressed = data.get(5).is_some_and(|f| f & 0xc0 != 0);
    (compressed || head.windows(13).any(|w| w == b".EffectReader")).then_some(Format::Mgfx)
}

/// The `(kind, major, minor)` of a Direct3D 9 version token, kind `'v'` or `'p'`.
/// Only shader models 1 to 3 count; anything else is not D3D9 bytecode.
pub fn d3d9_version(data: &[u8]) -> Option<(char, u8, u8)> {
    let tok = crate::toolkit::le_u32(data, 0)?;
    let kind = match tok >> 16 {
        0xFFFE => 'v',
        0xFFFF => 'p',
        _ => return None,
    };
    let (major, minor) = ((tok >> 8) as u8, tok as u8);
    let ok = match (kind, major) {
        ('v', 1) => minor <= 1,
        ('p', 1) => minor <= 4,
        (_, 2) => minor == 0 || minor == 1,
        (_, 3) => minor == 0,
        _ => false,
    };
    ok.then_some((kind, major, minor))
}

/// Base64 text whose first decoded bytes are a 3DS shader container magic (after at most
/// [`HEAD`] bytes of leading white space, all of which must be within the first `HEAD`).
fn looks_like_csdr(data: &[u8]) -> bool {
    let data = data.get(..HEAD).unwrap_or(data);
    let start = data.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(data.len());
    let head = data.get(start..).unwrap_or(&[]);
    // base64 of "DVLB", "DVOJ", "DVOB" and "CGFX" (first 5 characters fix the first 3 bytes).
    [&b"RFZMQ"[..], b"RFZPS", b"RFZPQ", b"Q0dGW"].iter().any(|p| head.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_magic_of_the_product() {
        assert_eq!(detect(b"DXBC...."), Some(Format::Dxbc));
        assert_eq!(detect(b"DVLB\x01\0\0\0"), Some(Format::Dvlb));
        assert_eq!(detect(b"DVOJ"), Some(Format::Dvoj));
        assert_eq!(detect(b"DVOB"), Some(Format::Dvoj));
        assert_eq!(detect(b"CGFX\xff\xfe"), Some(Format::Cgfx));
        assert_eq!(detect(b"SHAB"), Some(Format::Sharcfb));
        assert_eq!(detect(b"BAHS"), Some(Format::Sharcfb));
        assert_eq!(detect(b"AAHS"), Some(Format::Sharc));
        assert_eq!(detect(b"SHAA"), Some(Format::Sharc));
        assert_eq!(detect(b"Gfx2"), Some(Format::Gfd));
        assert_eq!(detect(b"MBS1"), Some(Format::Mbs));
        assert_eq!(detect(b"MGFX\x0a\x01"), Some(Format::Mgfx));
        let cut = b"XNBd\x05\0\0\0\0\0\x01\x2cMicrosoft.Xna.Framework.Content.EffectReader";
        assert_eq!(detect(cut), Some(Format::Mgfx));
        assert_eq!(detect(b"XNBd\x05\0\0\0\0\0\x01\x0dTextureReader"), None);
        assert_eq!(detect(&[0x01, 0x09, 0xff, 0xfe]), Some(Format::Fx9));
        assert_eq!(detect(&[0x01, 0x10, 0xff, 0xfe]), Some(Format::Fx11));
        assert_eq!(detect(&[0x11, 0x10, 0xff, 0xfe]), Some(Format::Fx11));
        assert_eq!(detect(&[0x01, 0x20, 0xff, 0xfe]), Some(Format::Fx11));
        // fx_4_x: a DXBC container of one FX10 chunk; a DXBC with other chunks stays DXBC.
        let mut fx10 = b"DXBC".to_vec();
        fx10.extend([0; 16]);
        fx10.extend([1, 0, 0, 0, 44, 0, 0, 0, 1, 0, 0, 0, 36, 0, 0, 0]);
        fx10.extend(b"FX10\0\0\0\0");
        assert_eq!(detect(&fx10), Some(Format::Fx11));
        fx10[36..40].copy_from_slice(b"SHDR");
        assert_eq!(detect(&fx10), Some(Format::Dxbc));
        assert_eq!(detect(&fx10[..30]), Some(Format::Dxbc));
        assert_eq!(detect(&[0x00, 0x02, 0xFE, 0xFF]), Some(Format::D3d9));
        assert_eq!(detect(&[0x00, 0x03, 0xFF, 0xFF]), Some(Format::D3d9));
        assert_eq!(detect(&[0x04, 0x01, 0xFF, 0xFF]), Some(Format::D3d9));
        assert_eq!(detect(&[0x00, 0x04, 0xFF, 0xFF]), None);
        assert_eq!(detect(b"\nRFZMQgEAAAA="), Some(Format::Csdr));
        assert_eq!(detect(b"abc"), None);
        assert_eq!(detect(b"ELF\x7f"), None);
    }

    /// The answer for the first `HEAD` bytes is the answer for the whole input.
    #[test]
    fn only_the_head_counts() {
        let mut text = vec![b' '; HEAD - 5];
        text.extend_from_slice(b"RFZMQgEAAAA=");
        assert_eq!(detect(&text), Some(Format::Csdr));
        assert_eq!(detect(&text[..HEAD]), Some(Format::Csdr));
        let mut far = vec![b'\n'; HEAD - 4];
        far.extend_from_slice(b"RFZMQgEAAAA=");
        assert_eq!(detect(&far), None);
        assert_eq!(detect(&far[..HEAD]), None);
    }

    #[test]
    fn readable_says_why_not() {
        assert_eq!(readable(b"").unwrap_err().kind(), &crate::ErrorKind::Empty);
        assert_eq!(
            readable(b"ab").unwrap_err().to_string(),
            r#"invalid file at offset 0x0: not a shader binary this tool knows (first bytes "ab")"#
        );
        assert_eq!(readable(b"MBS1").ok(), Some(Format::Mbs));
        assert_eq!(
            unsupported(Format::Mbs).to_string(),
            "unsupported ARM Mali offline shader binary (MBS) at offset 0x0: recognised, not read by this build (its family's cargo feature is off)"
        );
        assert_eq!(readable(b"DVLB").ok(), Some(Format::Dvlb));
        assert_eq!(readable(b"Gfx2").ok(), Some(Format::Gfd));
    }
}
