//! Vertex-fetch instructions: 128 bits (`SQ_VTX_WORD0..2` and a padding word), here one
//! `u128` (word 0 in the low bits). They make up VTX clauses, and may sit in TEX clauses.
//!
//! ```
//! use shaderscope::isa::latte::vtx::{self, Vtx};
//! use shaderscope::print::Line;
//!
//! // FETCH R16.xyzw, R1.x, b130 … from a corpus texture clause.
//! let v = Vtx::from_bytes([0x3C01_8240u32, 0x002D_1010, 0x0008_0000, 0x0DEA_DFEC].map(u32::to_le_bytes).concat().try_into().unwrap());
//! assert_eq!((v.inst(), v.get(vtx::BUFFER_ID), v.get(vtx::DST_GPR)), (0, 130, 16));
//! let mut line = Line::new();
//! vtx::write_text(&mut line, v);
//! assert_eq!(line.as_str(), "FETCH           R16.xyzw, R1.x, b130 FETCH_TYPE(NO_INDEX_OFFSET) MEGA(16) OFFSET(0)");
//! ```

use super::opcodes;
use super::print::{flag, mnemonic, number_in, push_number};
use super::tex::{sels, swizzle};
use crate::print::{Line, Style};
use crate::toolkit::Field;

const fn w(word: u16, shift: u16, width: u8) -> Field {
    Field::at(32 * word + shift, width)
}

/// `SQ_VTX_WORD0.VTX_INST`: 0 FETCH, 1 SEMANTIC, 2 MEM (R700).
pub const VTX_INST: Field = w(0, 0, 5);
/// `SQ_VTX_WORD0.FETCH_TYPE`: 0 vertex data, 1 instance data, 2 no index offset.
pub const FETCH_TYPE: Field = w(0, 5, 2);
/// `SQ_VTX_WORD0.FETCH_WHOLE_QUAD`.
pub const FETCH_WHOLE_QUAD: Field = w(0, 7, 1);
/// `SQ_VTX_WORD0.BUFFER_ID`.
pub const BUFFER_ID: Field = w(0, 8, 8);
/// `SQ_VTX_WORD0.SRC_GPR`.
pub const SRC_GPR: Field = w(0, 16, 7);
/// `SQ_VTX_WORD0.SRC_REL`.
pub const SRC_REL: Field = w(0, 23, 1);
/// `SQ_VTX_WORD0.SRC_SEL_X`.
pub const SRC_SEL_X: Field = w(0, 24, 2);
/// `SQ_VTX_WORD0.MEGA_FETCH_COUNT`: bytes fetched minus one.
pub const MEGA_FETCH_COUNT: Field = w(0, 26, 6);
/// `SQ_VTX_WORD1_GPR.DST_GPR`.
pub const DST_GPR: Field = w(1, 0, 7);
/// `SQ_VTX_WORD1_GPR.DST_REL`.
pub const DST_REL: Field = w(1, 7, 1);
/// `SQ_VTX_WORD1_SEM.SEMANTIC_ID`.
pub const SEMANTIC_ID: Field = w(1, 0, 8);
/// `SQ_VTX_WORD1.DST_SEL_X` (DST_SEL_Y, _Z, _W follow, 3 bits each).
pub const DST_SEL_X: Field = w(1, 9, 3);
/// `SQ_VTX_WORD1.USE_CONST_FIELDS`: take the format from the fetch constant.
pub const USE_CONST_FIELDS: Field = w(1, 21, 1);
/// `SQ_VTX_WORD1.DATA_FORMAT`.
pub const DATA_FORMAT: Field = w(1, 22, 6);
/// `SQ_VTX_WORD1.NUM_FORMAT_ALL`: 0 normalized, 1 integer, 2 scaled.
pub const NUM_FORMAT_ALL: Field = w(1, 28, 2);
/// `SQ_VTX_WORD1.FORMAT_COMP_ALL`: 1 signed.
pub const FORMAT_COMP_ALL: Field = w(1, 30, 1);
/// `SQ_VTX_WORD1.SRF_MODE_ALL`.
pub const SRF_MODE_ALL: Field = w(1, 31, 1);
/// `SQ_VTX_WORD2.OFFSET`.
pub const OFFSET: Field = w(2, 0, 16);
/// `SQ_VTX_WORD2.ENDIAN_SWAP`: 0 none, 1 8-in-16, 2 8-in-32.
pub const ENDIAN_SWAP: Field = w(2, 16, 2);
/// `SQ_VTX_WORD2.CONST_BUF_NO_STRIDE`.
pub const CONST_BUF_NO_STRIDE: Field = w(2, 18, 1);
/// `SQ_VTX_WORD2.MEGA_FETCH`.
pub const MEGA_FETCH: Field = w(2, 19, 1);
/// `SQ_VTX_WORD2.ALT_CONST` (R700).
pub const ALT_CONST: Field = w(2, 20, 1);

/// One vertex-fetch instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Vtx(pub u128);

impl Vtx {
    /// The instruction of these 16 bytes.
    pub fn from_bytes(b: [u8; 16]) -> Vtx {
        Vtx(u128::from_le_bytes(b))
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

    /// `VTX_INST`.
    pub fn inst(self) -> u32 {
        self.get(VTX_INST)
    }

    /// `DST_SEL_X..W`.
    pub fn dst_sel(self) -> [u32; 4] {
        sels(self.0, DST_SEL_X)
    }

    /// Whether it writes a register (not a semantic, not every component masked).
    pub fn writes_gpr(self) -> bool {
        self.inst() != 1 && self.dst_sel().iter().any(|&s| s != 7)
    }
}

/// The instruction's text as decaf prints it after its number: `FETCH           R16.xyzw,
/// R1.x, b130 FETCH_TYPE(NO_INDEX_OFFSET) MEGA(16) OFFSET(0)`.
pub fn write_text(line: &mut Line, v: Vtx) {
    let inst = v.inst();
    let start = line.len();
    match opcodes::vtx_name(inst) {
        Some(name) => mnemonic(line, name),
        None => {
            line.style(Style::Mnemonic);
            line.push_str("VTX_INST(");
            push_number(line, u64::from(inst));
            line.push_str(")");
            line.reset();
        }
    }
    line.pad_from(start, 15);
    line.push_str(" ");
    line.start_operand();
    line.style(Style::Register);
    let dst = v.dst_sel();
    if dst.iter().all(|&s| s == 7) {
        line.push_str("____");
    } else {
        if inst == 1 {
            line.push_str("SEM[");
            push_number(line, u64::from(v.get(SEMANTIC_ID)));
            line.push_str("]");
        } else {
            line.push_str("R");
            push_number(line, u64::from(v.get(DST_GPR)));
            if v.bit(DST_REL) {
                line.push_str("[AL]");
            }
        }
        swizzle(line, dst);
    }
    line.reset();
    line.end_operand();
    line.push_str(", ");
    line.start_operand();
    line.style(Style::Register);
    line.push_str("R");
    push_number(line, u64::from(v.get(SRC_GPR)));
    if v.bit(SRC_REL) {
        line.push_str("[AL]");
    }
    line.push_str(".");
    line.push_str(super::cf::sel_char(v.get(SRC_SEL_X)));
    line.reset();
    line.end_operand();
    line.push_str(", ");
    line.start_operand();
    line.style(Style::Register);
    line.push_str("b");
    push_number(line, u64::from(v.get(BUFFER_ID)));
    line.reset();
    line.end_operand();
    line.push_str(" ");
    line.style(Style::Directive);
    line.push_str("FETCH_TYPE(");
    match v.get(FETCH_TYPE) {
        0 => line.push_str("VERTEX_DATA"),
        1 => line.push_str("INSTANCE_DATA"),
        2 => line.push_str("NO_INDEX_OFFSET"),
        n => line.push_u64(u64::from(n)),
    }
    line.push_str(")");
    line.reset();
    if !v.bit(USE_CONST_FIELDS) {
        line.push_str(" ");
        line.style(Style::Directive);
        line.push_str("FORMAT( ");
        push_number(line, u64::from(v.get(DATA_FORMAT)));
        match v.get(NUM_FORMAT_ALL) {
            0 => line.push_str(" NORM"),
            1 => line.push_str(" INT"),
            2 => line.push_str(" SCALED"),
            // decaf writes this one without the space before it.
            n => line.push_u64(u64::from(n)),
        }
        line.push_str(if v.bit(FORMAT_COMP_ALL) { " SIGNED " } else { " UNSIGNED " });
        push_number(line, u64::from(v.get(SRF_MODE_ALL)));
        line.push_str(")");
        line.reset();
    }
    let label = if v.bit(MEGA_FETCH) { "MEGA(" } else { "MINI(" };
    line.push_str(" ");
    number_in(line, Style::Directive, label, v.get(MEGA_FETCH_COUNT) + 1, ")");
    line.push_str(" ");
    number_in(line, Style::Directive, "OFFSET(", v.get(OFFSET), ")");
    if v.bit(FETCH_WHOLE_QUAD) {
        flag(line, "WHOLE_QUAD");
    }
    match v.get(ENDIAN_SWAP) {
        0 => {}
        1 => flag(line, "ENDIAN_SWAP(8IN16)"),
        2 => flag(line, "ENDIAN_SWAP(8IN32)"),
        n => {
            line.push_str(" ");
            number_in(line, Style::Directive, "ENDIAN_SWAP(", n, ")");
        }
    }
    if v.bit(CONST_BUF_NO_STRIDE) {
        flag(line, "CONST_BUF_NO_STRIDE");
    }
    if v.bit(ALT_CONST) {
        flag(line, "ALT_CONST");
    }
}
