//! The bit fields of Direct3D 9 tokens, named after the masks of Microsoft's `d3d9types.h`
//! (`D3DSI_OPCODE_MASK` is [`D3DSI_OPCODE`], and so on). Decoding reads tokens with them and
//! the tests build tokens with them.
//!
//! ```
//! use shaderscope::isa::d3d9::fields::*;
//!
//! // mov_sat r1.xy, ...: the instruction token and its destination.
//! let ins = D3DSI_OPCODE.put(1u32) | D3DSI_INSTLENGTH.put(2);
//! let dst = PARAM_TOKEN | D3DSP_REGTYPE.put(0) | D3DSP_REGNUM.put(1) | D3DSP_WRITEMASK.put(3) | D3DSP_DSTMOD.put(1);
//! assert_eq!((ins, dst), (0x0200_0001, 0x8013_0001));
//! assert_eq!(register_type_bits(0xa0e4_0800), 10); // s0: D3DSPR_SAMPLER
//! assert_eq!(register_type_bits(0xb0e4_0802), 11); // c2050: D3DSPR_CONST2
//! ```

use crate::toolkit::Field;

// Instruction tokens.

/// `D3DSI_OPCODE_MASK`: the opcode (`D3DSIO_*`), bits 0–15.
pub const D3DSI_OPCODE: Field = Field::at(0, 16);
/// `D3DSP_OPCODESPECIFICCONTROL_MASK`: bits 16–23, the comparison of `ifc`/`breakc`/`setp`
/// and the variant of `texld`.
pub(crate) const D3DSP_OPCODESPECIFICCONTROL: Field = Field::at(16, 8);
/// `D3DSHADER_COMPARISON_MASK` (at `D3DSHADER_COMPARISON_SHIFT`): the comparison, bits 16–18.
pub const D3DSHADER_COMPARISON: Field = Field::at(16, 3);
/// `D3DSI_TEXLD_PROJECT` and `D3DSI_TEXLD_BIAS`: the variant of `texld`, bits 16–17
/// (1 `texldp`, 2 `texldb`).
pub(crate) const D3DSI_TEXLD_VARIANT: Field = Field::at(16, 2);
/// `D3DSI_INSTLENGTH_MASK`: the number of tokens after the instruction token, bits 24–27
/// (shader model 2 and later).
pub const D3DSI_INSTLENGTH: Field = Field::at(24, 4);
/// `D3DSHADER_INSTRUCTION_PREDICATED`: bit 28, a predicate parameter follows the destination.
pub const D3DSHADER_INSTRUCTION_PREDICATED: Field = Field::at(28, 1);
/// `D3DSI_COISSUE`: bit 30, a ps_1_x instruction issued with the one before it.
pub const D3DSI_COISSUE: Field = Field::at(30, 1);
/// `D3DSI_COMMENTSIZE_MASK`: the length in tokens of a comment, bits 16–30.
pub(crate) const D3DSI_COMMENTSIZE: Field = Field::at(16, 15);

// Version tokens.

/// `D3DSHADER_VERSION_MINOR`: bits 0–7.
pub const D3DSHADER_VERSION_MINOR: Field = Field::at(0, 8);
/// `D3DSHADER_VERSION_MAJOR`: bits 8–15.
pub const D3DSHADER_VERSION_MAJOR: Field = Field::at(8, 8);
/// The shader type of a version token, bits 16–31: `0xFFFE` vertex, `0xFFFF` pixel.
pub(crate) const D3DSHADER_VERSION_TYPE: Field = Field::at(16, 16);

// Parameter tokens (destination and source).

/// Bit 31, set in every parameter token.
pub const PARAM_TOKEN: u32 = 1 << 31;
/// `D3DSP_REGNUM_MASK`: the register number, bits 0–10.
pub const D3DSP_REGNUM: Field = Field::at(0, 11);
/// `D3DSP_REGTYPE_MASK`: the low three bits of the register type, bits 28–30.
pub const D3DSP_REGTYPE: Field = Field::at(28, 3);
/// `D3DSP_REGTYPE_MASK2`: the high two bits of the register type, bits 11–12.
pub const D3DSP_REGTYPE2: Field = Field::at(11, 2);
/// `D3DSHADER_ADDRESSMODE_MASK`: bit 13, the register is indexed relatively
/// (`D3DSHADER_ADDRMODE_RELATIVE`).
pub(crate) const D3DSHADER_ADDRESSMODE: Field = Field::at(13, 1);
/// `D3DSP_WRITEMASK_ALL`: a destination's write mask, bits 16–19 (bit 16 x).
pub const D3DSP_WRITEMASK: Field = Field::at(16, 4);
/// `D3DSP_DSTMOD_MASK`: a destination's result modifiers, bits 20–23
/// (1 `_sat`, 2 `_pp`, 4 `_centroid`).
pub const D3DSP_DSTMOD: Field = Field::at(20, 4);
/// `D3DSP_DSTSHIFT_MASK`: a destination's shift, bits 24–27 (signed: 1 `_x2` … 15 `_d2`).
pub const D3DSP_DSTSHIFT: Field = Field::at(24, 4);
/// `D3DSP_SWIZZLE_MASK`: a source's swizzle, bits 16–23, two bits a component, x first.
pub(crate) const D3DSP_SWIZZLE: Field = Field::at(16, 8);
/// `D3DSP_SRCMOD_MASK`: a source's modifier (`D3DSHADER_PARAM_SRCMOD_TYPE`), bits 24–27.
pub(crate) const D3DSP_SRCMOD: Field = Field::at(24, 4);

// The usage token of `dcl`.

/// `D3DSP_DCL_USAGE_MASK`: the usage (`D3DDECLUSAGE`), bits 0–4.
pub const D3DSP_DCL_USAGE: Field = Field::at(0, 5);
/// `D3DSP_DCL_USAGEINDEX_MASK`: the usage index, bits 16–19.
pub(crate) const D3DSP_DCL_USAGEINDEX: Field = Field::at(16, 4);
/// `D3DSP_TEXTURETYPE_MASK`: a sampler's texture type (`D3DSAMPLER_TEXTURE_TYPE`), bits 27–30.
pub const D3DSP_TEXTURETYPE: Field = Field::at(27, 4);

/// The five bits of a parameter's register type (`D3DSHADER_PARAM_REGISTER_TYPE`), from
/// [`D3DSP_REGTYPE`] (low bits) and [`D3DSP_REGTYPE2`] (high bits).
pub fn register_type_bits(token: u32) -> u8 {
    (D3DSP_REGTYPE.get(token) | D3DSP_REGTYPE2.get(token) << 3) as u8
}

/// The register-type bits of a parameter token for type `ty` (the inverse of
/// [`register_type_bits`]).
pub(crate) fn put_register_type(ty: u8) -> u32 {
    D3DSP_REGTYPE.put(u32::from(ty)) | D3DSP_REGTYPE2.put(u32::from(ty) >> 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_types_round_trip_through_both_fields() {
        for ty in 0..32u8 {
            assert_eq!(register_type_bits(PARAM_TOKEN | put_register_type(ty) | 0x7ff), ty);
        }
        // D3DSPR_CONSTBOOL (14 = 0b01110): low bits 6 in 28-30, high bits 0b01 in 11-12.
        assert_eq!(put_register_type(14), (6 << 28) | (1 << 11));
    }
}
