//! Parameter tokens: registers, write masks, swizzles and modifiers.
//!
//! Bit layout from `d3d9types.h` (`D3DSP_*`, see [`super::fields`]): register number in bits
//! 0–10, register type split over bits 28–30 (low three bits) and 11–12 (high two bits),
//! relative addressing in bit 13, and bit 31 always set. A destination has its write mask in
//! bits 16–19, result modifiers in 20–23 and a shift in 24–27; a source has its swizzle in bits
//! 16–23 and a modifier in 24–27.
//!
//! ```
//! use shaderscope::isa::d3d9::operand::{Param, RegisterType};
//! use shaderscope::isa::d3d9::operand::{write_mask, write_register_name, write_swizzle};
//! use shaderscope::isa::d3d9::{ShaderKind, Version};
//!
//! let ps_3_0 = Version::from_token(0xffff_0300).unwrap();
//! // The destination of `mov_sat r2.xz, …`: bit 31, temp register 2, mask x|z, result modifier 1.
//! let dst = Param { token: 0x8015_0002, rel: None, offset: 0x1c };
//! assert_eq!((dst.register_type(), dst.number()), (RegisterType::Temp, 2));
//! assert_eq!((dst.write_mask(), dst.result_modifiers(), dst.shift()), (0b0101, 1, 0));
//! let mut text = String::new();
//! write_register_name(dst.register_type(), dst.number(), ps_3_0, &mut text)?;
//! write_mask(dst.write_mask(), &mut text)?;
//! assert_eq!(text, "r2.xz");
//!
//! // A source: c14, swizzle .yzwx, source modifier 1 (negate).
//! let src = Param { token: 0xa139_000e, rel: None, offset: 0x20 };
//! assert_eq!((src.register_type(), src.number(), src.source_modifier()), (RegisterType::Const, 14, 1));
//! text.clear();
//! write_register_name(src.register_type(), src.number(), ps_3_0, &mut text)?;
//! write_swizzle(src.swizzle(), &mut text)?;
//! assert_eq!(text, "c14.yzwx");
//!
//! // D3DSPR_CONSTBOOL (14) needs both parts of the type field: 6 in bits 28–30, 1 in 11–12.
//! let b3 = Param { token: 0xe000_0803, rel: None, offset: 0 };
//! assert_eq!(b3.register_type(), RegisterType::ConstBool);
//! assert_eq!(b3.register_type().d3d_name(ShaderKind::Pixel), "D3DSPR_CONSTBOOL");
//! // Type 3 is the address register in vertex shaders and a texture register in pixel shaders.
//! let vs_2_0 = Version::from_token(0xfffe_0200).unwrap();
//! text.clear();
//! write_register_name(RegisterType::AddrOrTexture, 0, vs_2_0, &mut text)?;
//! text.push(' ');
//! write_register_name(RegisterType::AddrOrTexture, 3, ps_3_0, &mut text)?;
//! assert_eq!(text, "a0 t3");
//! # Ok::<(), std::fmt::Error>(())
//! ```

use super::fields::{
    D3DSHADER_ADDRESSMODE, D3DSP_DSTMOD, D3DSP_DSTSHIFT, D3DSP_REGNUM, D3DSP_SRCMOD, D3DSP_SWIZZLE,
    D3DSP_WRITEMASK, register_type_bits,
};
use super::{ShaderKind, Version};
use std::fmt;

/// `D3DSHADER_PARAM_REGISTER_TYPE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegisterType {
    /// `D3DSPR_TEMP`: `r#`.
    Temp,
    /// `D3DSPR_INPUT`: `v#`.
    Input,
    /// `D3DSPR_CONST`: `c#`.
    Const,
    /// `D3DSPR_ADDR` in vertex shaders (`a0`), `D3DSPR_TEXTURE` in pixel shaders (`t#`).
    AddrOrTexture,
    /// `D3DSPR_RASTOUT`: `oPos`, `oFog`, `oPts`.
    RastOut,
    /// `D3DSPR_ATTROUT`: `oD#`.
    AttrOut,
    /// `D3DSPR_TEXCRDOUT` (`oT#`), `D3DSPR_OUTPUT` in vs_3_0 (`o#`).
    Output,
    /// `D3DSPR_CONSTINT`: `i#`.
    ConstInt,
    /// `D3DSPR_COLOROUT`: `oC#`.
    ColorOut,
    /// `D3DSPR_DEPTHOUT`: `oDepth`.
    DepthOut,
    /// `D3DSPR_SAMPLER`: `s#`.
    Sampler,
    /// `D3DSPR_CONST2`: `c2048`–`c4095`.
    Const2,
    /// `D3DSPR_CONST3`: `c4096`–`c6143`.
    Const3,
    /// `D3DSPR_CONST4`: `c6144`–`c8191`.
    Const4,
    /// `D3DSPR_CONSTBOOL`: `b#`.
    ConstBool,
    /// `D3DSPR_LOOP`: `aL`.
    Loop,
    /// `D3DSPR_TEMPFLOAT16` (never used by a shipped model).
    TempFloat16,
    /// `D3DSPR_MISCTYPE`: `vPos`, `vFace`.
    MiscType,
    /// `D3DSPR_LABEL`: `l#`.
    Label,
    /// `D3DSPR_PREDICATE`: `p0`.
    Predicate,
    /// Any other of the 32 encodable values.
    Unknown(u8),
}

impl RegisterType {
    /// From the 5-bit encoded value.
    pub fn from_bits(v: u8) -> RegisterType {
        use RegisterType::*;
        match v {
            0 => Temp,
            1 => Input,
            2 => Const,
            3 => AddrOrTexture,
            4 => RastOut,
            5 => AttrOut,
            6 => Output,
            7 => ConstInt,
            8 => ColorOut,
            9 => DepthOut,
            10 => Sampler,
            11 => Const2,
            12 => Const3,
            13 => Const4,
            14 => ConstBool,
            15 => Loop,
            16 => TempFloat16,
            17 => MiscType,
            18 => Label,
            19 => Predicate,
            other => Unknown(other),
        }
    }

    /// The `D3DSPR_*` name, for annotations.
    pub fn d3d_name(self, kind: ShaderKind) -> &'static str {
        use RegisterType::*;
        match self {
            Temp => "D3DSPR_TEMP",
            Input => "D3DSPR_INPUT",
            Const => "D3DSPR_CONST",
            AddrOrTexture if kind == ShaderKind::Vertex => "D3DSPR_ADDR",
            AddrOrTexture => "D3DSPR_TEXTURE",
            RastOut => "D3DSPR_RASTOUT",
            AttrOut => "D3DSPR_ATTROUT",
            Output => "D3DSPR_OUTPUT",
            ConstInt => "D3DSPR_CONSTINT",
            ColorOut => "D3DSPR_COLOROUT",
            DepthOut => "D3DSPR_DEPTHOUT",
            Sampler => "D3DSPR_SAMPLER",
            Const2 => "D3DSPR_CONST2",
            Const3 => "D3DSPR_CONST3",
            Const4 => "D3DSPR_CONST4",
            ConstBool => "D3DSPR_CONSTBOOL",
            Loop => "D3DSPR_LOOP",
            TempFloat16 => "D3DSPR_TEMPFLOAT16",
            MiscType => "D3DSPR_MISCTYPE",
            Label => "D3DSPR_LABEL",
            Predicate => "D3DSPR_PREDICATE",
            Unknown(_) => "unknown register type",
        }
    }
}

/// Component letters in order.
pub const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// The swizzle that leaves components in place (`.xyzw`), as stored in bits 16–23.
pub(crate) const IDENTITY_SWIZZLE: u8 = 0xe4;

/// A parameter token (destination or source) and the relative-address token that follows it
/// from shader model 2 on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The parameter token.
    pub token: u32,
    /// The address token (`a0.x`, `aL`) when bit 13 is set and the model encodes it.
    pub rel: Option<u32>,
    /// Absolute byte offset of the parameter token.
    pub offset: u64,
}

impl Param {
    /// Register type from bits 28–30 and 11–12.
    pub fn register_type(&self) -> RegisterType {
        register_type(self.token)
    }

    /// Register number (bits 0–10).
    pub fn number(&self) -> u32 {
        D3DSP_REGNUM.get(self.token)
    }

    /// Bit 13: the register is indexed by an address register.
    pub fn is_relative(&self) -> bool {
        D3DSHADER_ADDRESSMODE.get(self.token) != 0
    }

    /// Destination write mask (bits 16–19, bit 0 = x).
    pub fn write_mask(&self) -> u8 {
        D3DSP_WRITEMASK.get(self.token) as u8
    }

    /// Destination result modifiers (bits 20–23): 1 `_sat`, 2 `_pp`, 4 `_centroid`.
    pub fn result_modifiers(&self) -> u8 {
        D3DSP_DSTMOD.get(self.token) as u8
    }

    /// Destination shift (bits 24–27 as a signed 4-bit value): 1 `_x2` … 15 `_d2`.
    pub fn shift(&self) -> i8 {
        let s = D3DSP_DSTSHIFT.get(self.token) as i8;
        if s > 7 { s - 16 } else { s }
    }

    /// Source swizzle (bits 16–23, two bits per component, x first).
    pub fn swizzle(&self) -> u8 {
        D3DSP_SWIZZLE.get(self.token) as u8
    }

    /// Source modifier (bits 24–27), `D3DSHADER_PARAM_SRCMOD_TYPE`.
    pub fn source_modifier(&self) -> u8 {
        D3DSP_SRCMOD.get(self.token) as u8
    }
}

/// Register type of a parameter token.
pub fn register_type(token: u32) -> RegisterType {
    RegisterType::from_bits(register_type_bits(token))
}

/// The register as fxc writes it: `r0`, `c12`, `oPos`, `vFace`, `c2050` for `D3DSPR_CONST2`.
#[inline]
pub fn write_register_name<W: fmt::Write + ?Sized>(
    ty: RegisterType,
    number: u32,
    version: Version,
    out: &mut W,
) -> fmt::Result {
    use RegisterType::*;
    let prefix = match ty {
        Temp => "r",
        Input => "v",
        Const | Const2 | Const3 | Const4 => "c",
        AddrOrTexture if version.kind == ShaderKind::Vertex => "a",
        AddrOrTexture => "t",
        RastOut => {
            return match number {
                0 => out.write_str("oPos"),
                1 => out.write_str("oFog"),
                2 => out.write_str("oPts"),
                n => write!(out, "oRast{n}"),
            };
        }
        AttrOut => "oD",
        Output if version.kind == ShaderKind::Vertex && version.major >= 3 => "o",
        Output => "oT",
        ConstInt => "i",
        ColorOut => "oC",
        DepthOut => return out.write_str("oDepth"),
        Sampler => "s",
        ConstBool => "b",
        Loop => return out.write_str("aL"),
        TempFloat16 => "h",
        MiscType => {
            return match number {
                0 => out.write_str("vPos"),
                1 => out.write_str("vFace"),
                n => write!(out, "vMisc{n}"),
            };
        }
        Label => "l",
        Predicate => "p",
        Unknown(t) => return write!(out, "reg{t}_{number}"),
    };
    let number = match ty {
        Const2 => number + 2048,
        Const3 => number + 4096,
        Const4 => number + 6144,
        _ => number,
    };
    out.write_str(prefix)?;
    crate::print::write_u64(out, u64::from(number))
}

/// `.xz`-style write-mask text (nothing for a full mask).
#[inline]
pub fn write_mask<W: fmt::Write + ?Sized>(mask: u8, out: &mut W) -> fmt::Result {
    out.write_str(MASKS.get(usize::from(mask & 0xf)).copied().unwrap_or(""))
}

/// Swizzle text as fxc prints it: nothing for `.xyzw`, one letter when all four components
/// are the same, all four letters otherwise.
#[inline]
pub fn write_swizzle<W: fmt::Write + ?Sized>(swizzle: u8, out: &mut W) -> fmt::Result {
    out.write_str(SWIZZLES.get(usize::from(swizzle)).copied().unwrap_or(""))
}

/// [`write_mask`]'s text of each mask.
static MASKS: [&str; 16] = texts(&MASK_BYTES);
/// [`write_swizzle`]'s text of each swizzle.
static SWIZZLES: [&str; 256] = texts(&SWIZZLE_BYTES);
static MASK_BYTES: [([u8; 5], usize); 16] = mask_bytes();
static SWIZZLE_BYTES: [([u8; 5], usize); 256] = swizzle_bytes();

// The tables are built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn mask_bytes() -> [([u8; 5], usize); 16] {
    let mut t = [([b'.'; 5], 0); 16];
    let mut m = 0;
    while m < 15 {
        let mut n = 1;
        let mut c = 0;
        while c < 4 {
            if m & (1 << c) != 0 {
                t[m].0[n] = COMPONENTS[c] as u8;
                n += 1;
            }
            c += 1;
        }
        t[m].1 = if m == 0 { 1 } else { n };
        m += 1;
    }
    t
}

#[allow(clippy::indexing_slicing)]
const fn swizzle_bytes() -> [([u8; 5], usize); 256] {
    let mut t = [([b'.'; 5], 0); 256];
    let mut s = 0;
    while s < 256 {
        let mut c = 0;
        while c < 4 {
            t[s].0[1 + c] = COMPONENTS[(s >> (2 * c)) & 3] as u8;
            c += 1;
        }
        let replicated = s & 3 == (s >> 2) & 3 && s & 3 == (s >> 4) & 3 && s & 3 == s >> 6;
        t[s].1 = match s as u8 {
            IDENTITY_SWIZZLE => 0,
            _ if replicated => 2,
            _ => 5,
        };
        s += 1;
    }
    t
}

/// The texts of a table of ASCII bytes and lengths.
#[allow(clippy::indexing_slicing)]
const fn texts<const N: usize>(bytes: &'static [([u8; 5], usize); N]) -> [&'static str; N] {
    let mut t = [""; N];
    let mut i = 0;
    while i < N {
        t[i] = match std::str::from_utf8(bytes[i].0.split_at(bytes[i].1).0) {
            Ok(s) => s,
            Err(_) => "",
        };
        i += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_type_uses_both_bit_fields() {
        // D3DSPR_CONSTBOOL (14 = 0b01110): low bits 6 in 28-30, high bits 0b01000 in 11-12.
        let t = 0x8000_0000 | (6 << 28) | (1 << 11);
        assert_eq!(register_type(t), RegisterType::ConstBool);
        assert_eq!(register_type(0x8000_0000 | (2 << 28)), RegisterType::Const);
        // D3DSPR_PREDICATE (19 = 0b10011).
        assert_eq!(register_type(0x8000_0000 | (3 << 28) | (2 << 11)), RegisterType::Predicate);
    }

    #[test]
    fn masks_and_swizzles_print_like_fxc() {
        let mut s = String::new();
        write_mask(0xf, &mut s).unwrap();
        write_mask(0b0101, &mut s).unwrap();
        assert_eq!(s, ".xz");
        let mut s = String::new();
        write_swizzle(IDENTITY_SWIZZLE, &mut s).unwrap();
        write_swizzle(0x00, &mut s).unwrap();
        s.push('|');
        write_swizzle(0xff, &mut s).unwrap();
        s.push('|');
        write_swizzle(0x44, &mut s).unwrap(); // x y x y
        assert_eq!(s, ".x|.w|.xyxy");
    }

    #[test]
    fn shift_is_signed() {
        let p = |s: u32| Param { token: 0x8000_0000 | (s << 24), rel: None, offset: 0 };
        assert_eq!(p(1).shift(), 1);
        assert_eq!(p(0xf).shift(), -1);
        assert_eq!(p(0xd).shift(), -3);
    }
}
