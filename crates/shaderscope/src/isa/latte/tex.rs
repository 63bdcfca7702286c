//! Texture-clause instructions: 128 bits (`SQ_TEX_WORD0..2` and a padding word), here one
//! `u128` (word 0 in the low bits).
//!
//! ```
//! use shaderscope::isa::latte::tex::{self, Tex};
//! use shaderscope::print::Line;
//!
//! // SAMPLE R4.xyzw, R0.xy0x, t1, s1 (xbrz-freescale-pass1, with gshCompile's padding word).
//! let t = Tex::from_bytes([0x0000_0110u32, 0xF00D_1004, 0x1080_8000, 0x0DEA_DFEC].map(u32::to_le_bytes).concat().try_into().unwrap());
//! assert_eq!((t.inst(), t.get(tex::RESOURCE_ID), t.get(tex::SAMPLER_ID)), (0x10, 1, 1));
//! let mut line = Line::new();
//! tex::write_text(&mut line, t);
//! assert_eq!(line.as_str(), "SAMPLE          R4.xyzw, R0.xy0x, t1, s1");
//! ```

use super::cf::sel_char;
use super::opcodes;
use super::print::{flag, mnemonic, push_number};
use super::vtx;
use crate::print::{Line, Style, float};
use crate::toolkit::Field;

const fn w(word: u16, shift: u16, width: u8) -> Field {
    Field::at(32 * word + shift, width)
}

/// `SQ_TEX_WORD0.TEX_INST`.
pub const TEX_INST: Field = w(0, 0, 5);
/// `SQ_TEX_WORD0.BC_FRAC_MODE`.
pub const BC_FRAC_MODE: Field = w(0, 5, 1);
/// `SQ_TEX_WORD0.FETCH_WHOLE_QUAD`.
pub const FETCH_WHOLE_QUAD: Field = w(0, 7, 1);
/// `SQ_TEX_WORD0.RESOURCE_ID`.
pub const RESOURCE_ID: Field = w(0, 8, 8);
/// `SQ_TEX_WORD0.SRC_GPR`.
pub const SRC_GPR: Field = w(0, 16, 7);
/// `SQ_TEX_WORD0.SRC_REL`.
pub const SRC_REL: Field = w(0, 23, 1);
/// `SQ_TEX_WORD0.ALT_CONST` (R700).
pub const ALT_CONST: Field = w(0, 24, 1);
/// `SQ_TEX_WORD1.DST_GPR`.
pub const DST_GPR: Field = w(1, 0, 7);
/// `SQ_TEX_WORD1.DST_REL`.
pub const DST_REL: Field = w(1, 7, 1);
/// `SQ_TEX_WORD1.DST_SEL_X` (DST_SEL_Y, _Z, _W follow, 3 bits each).
pub const DST_SEL_X: Field = w(1, 9, 3);
/// `SQ_TEX_WORD1.LOD_BIAS`: signed fixed point, 3 fraction bits.
pub const LOD_BIAS: Field = w(1, 21, 7);
/// `SQ_TEX_WORD1.COORD_TYPE_X` (_Y, _Z, _W follow): 1 normalized, 0 unnormalized.
pub const COORD_TYPE_X: Field = w(1, 28, 1);
/// `SQ_TEX_WORD2.OFFSET_X`: signed fixed point, 1 fraction bit (OFFSET_Y, _Z follow).
pub const OFFSET_X: Field = w(2, 0, 5);
/// `SQ_TEX_WORD2.SAMPLER_ID`.
pub const SAMPLER_ID: Field = w(2, 15, 5);
/// `SQ_TEX_WORD2.SRC_SEL_X` (SRC_SEL_Y, _Z, _W follow, 3 bits each).
pub const SRC_SEL_X: Field = w(2, 20, 3);

/// One texture-clause instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tex(pub u128);

impl Tex {
    /// The instruction of these 16 bytes.
    pub fn from_bytes(b: [u8; 16]) -> Tex {
        Tex(u128::from_le_bytes(b))
    }

    /// Its four words (the last is padding).
    pub fn words(self) -> [u32; 4] {
        [self.0 as u32, (self.0 >> 32) as u32, (self.0 >> 64) as u32, (self.0 >> 96) as u32]
    }

    /// The value of `field`.
    #[inline]
    pub fn get(self, field: Field) -> u32 {
        field.get(self.0) as u32
    }

    /// Whether the one-bit `field` is set.
    #[inline]
    pub fn bit(self, field: Field) -> bool {
        field.get(self.0) != 0
    }

    /// `TEX_INST`.
    pub fn inst(self) -> u32 {
        self.get(TEX_INST)
    }

    /// Whether it is a vertex fetch inside a texture clause (`TEX_INST` 0 and 1 share their
    /// encoding with the VTX instructions of the same values).
    pub fn is_vertex_fetch(self) -> bool {
        self.inst() <= 1
    }

    /// `DST_SEL_X..W`.
    pub fn dst_sel(self) -> [u32; 4] {
        sels(self.0, DST_SEL_X)
    }

    /// `SRC_SEL_X..W`.
    pub fn src_sel(self) -> [u32; 4] {
        sels(self.0, SRC_SEL_X)
    }
}

/// Four 3-bit selects from `first` on.
pub(super) fn sels(v: u128, first: Field) -> [u32; 4] {
    [0u16, 1, 2, 3].map(|i| Field::at(first.shift + 3 * i, 3).get(v) as u32)
}

/// `.xyzw`, `.xy0x`, …
pub(super) fn swizzle(line: &mut Line, sel: [u32; 4]) {
    line.push_str(".");
    for s in sel {
        line.push_str(sel_char(s));
    }
}

/// The value of a signed fixed-point field of `width` bits with `frac` fraction bits, as
/// decaf prints it (`{fmt}`'s `{}` of the float).
fn fixed(line: &mut Line, raw: u32, width: u32, frac: u32) {
    let shift = 32 - width;
    let v = ((raw << shift) as i32) >> shift;
    let f = v as f32 / (1u32 << frac) as f32;
    let _ = float::write_f32_shortest(line, f.to_bits());
}

/// The instruction's text as decaf prints it after its number: the name in 15 columns, the
/// destination (`R4.xyz_` or `____`), the source with its swizzle, `t`resource, `s`ampler,
/// then the modifiers (`LOD(…)`, `WHOLE_QUAD`, `DENORM(XY)`, `XOFFSET(…)`, …). Vertex fetches
/// in a texture clause print as VTX instructions.
pub fn write_text(line: &mut Line, t: Tex) {
    if t.is_vertex_fetch() {
        vtx::write_text(line, vtx::Vtx(t.0));
        return;
    }
    let start = line.len();
    mnemonic(line, opcodes::tex_name(t.inst()));
    line.pad_from(start, 15);
    line.push_str(" ");
    line.start_operand();
    line.style(Style::Register);
    let dst = t.dst_sel();
    if dst.iter().all(|&s| s == 7) {
        line.push_str("____");
    } else {
        line.push_str("R");
        push_number(line, u64::from(t.get(DST_GPR)));
        if t.bit(DST_REL) {
            line.push_str("[AL]");
        }
        swizzle(line, dst);
    }
    line.reset();
    line.end_operand();
    line.push_str(", ");
    line.start_operand();
    line.style(Style::Register);
    line.push_str("R");
    push_number(line, u64::from(t.get(SRC_GPR)));
    if t.bit(SRC_REL) {
        line.push_str("[AL]");
    }
    swizzle(line, t.src_sel());
    line.reset();
    line.end_operand();
    line.push_str(", ");
    line.start_operand();
    line.style(Style::Register);
    line.push_str("t");
    push_number(line, u64::from(t.get(RESOURCE_ID)));
    line.reset();
    line.end_operand();
    line.push_str(", ");
    line.start_operand();
    line.style(Style::Register);
    line.push_str("s");
    push_number(line, u64::from(t.get(SAMPLER_ID)));
    line.reset();
    line.end_operand();
    let lod = t.get(LOD_BIAS);
    if lod != 0 {
        line.push_str(" ");
        line.style(Style::Directive);
        line.push_str("LOD(");
        fixed(line, lod, 7, 3);
        line.push_str(")");
        line.reset();
    }
    if t.bit(FETCH_WHOLE_QUAD) {
        flag(line, "WHOLE_QUAD");
    }
    if t.bit(BC_FRAC_MODE) {
        flag(line, "BC_FRAC_MODE");
    }
    if t.bit(ALT_CONST) {
        flag(line, "ALT_CONST");
    }
    let norm = [0u16, 1, 2, 3].map(|i| Field::at(COORD_TYPE_X.shift + i, 1).get(t.0) != 0);
    if norm.iter().any(|n| !n) {
        line.push_str(" ");
        line.style(Style::Directive);
        line.push_str("DENORM(");
        for (n, axis) in norm.into_iter().zip(["X", "Y", "Z", "W"]) {
            if !n {
                line.push_str(axis);
            }
        }
        line.push_str(")");
        line.reset();
    }
    for (i, name) in ["XOFFSET(", "YOFFSET(", "ZOFFSET("].into_iter().enumerate() {
        let raw = Field::at(OFFSET_X.shift + 5 * i as u16, 5).get(t.0) as u32;
        if raw != 0 {
            line.push_str(" ");
            line.style(Style::Directive);
            line.push_str(name);
            fixed(line, raw, 5, 1);
            line.push_str(")");
            line.reset();
        }
    }
}
