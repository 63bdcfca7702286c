//! Control-flow instructions: two 32-bit words, here one `u64` (word 0 in the low half), in
//! one of three encodings chosen by bits 28–29 of word 1: normal (`SQ_CF_WORD0/1`),
//! export (`SQ_CF_ALLOC_EXPORT_WORD0/1`) and ALU clause (`SQ_CF_ALU_WORD0/1`).
//!
//! ```
//! use shaderscope::isa::latte::cf::{self, Cf, CfKind};
//! use shaderscope::print::Line;
//!
//! // 01 ALU: ADDR(32) CNT(14), then 02 EXP_DONE: POS0, R1.xyzw with END_OF_PROGRAM.
//! let alu = Cf::new(0x0000_0020, 0xA034_0000);
//! assert_eq!((alu.kind(), alu.alu_clause()), (CfKind::Alu, Some((32, 14))));
//! let exp = Cf::new(0x0000_A03C, 0x9420_0688);
//! assert_eq!((exp.kind(), exp.ends_program(), exp.get(cf::ARRAY_BASE)), (CfKind::Export, true, 60));
//! let mut line = Line::new();
//! cf::write_text(&mut line, exp);
//! assert_eq!(line.as_str(), "EXP_DONE: POS0, R1.xyzw");
//! ```

use super::opcodes;
use super::print::{flag, mnemonic, number_in, operand, push_hex, push_number};
use crate::print::{Line, Style};
use crate::toolkit::Field;

/// A field of word 1 (bits 32–63 of the instruction).
const fn w1(shift: u16, width: u8) -> Field {
    Field::at(32 + shift, width)
}

/// `SQ_CF_WORD0.ADDR`: the clause or jump target, in 64-bit units.
pub const ADDR: Field = Field::at(0, 32);
/// `SQ_CF_WORD1.POP_COUNT`.
pub const POP_COUNT: Field = w1(0, 3);
/// `SQ_CF_WORD1.CF_CONST`: the loop or boolean constant.
pub const CF_CONST: Field = w1(3, 5);
/// `SQ_CF_WORD1.COND`: 0 active, 1 false, 2 boolean, 3 not boolean.
pub const COND: Field = w1(8, 2);
/// `SQ_CF_WORD1.COUNT`: clause instructions minus one, low 3 bits.
pub const COUNT: Field = w1(10, 3);
/// `SQ_CF_WORD1.CALL_COUNT`.
pub const CALL_COUNT: Field = w1(13, 6);
/// `SQ_CF_WORD1.COUNT_3`: bit 3 of the clause count (R700).
pub const COUNT_3: Field = w1(19, 1);
/// `END_OF_PROGRAM` (normal and export encodings).
pub const END_OF_PROGRAM: Field = w1(21, 1);
/// `VALID_PIXEL_MODE` (normal and export encodings).
pub const VALID_PIXEL_MODE: Field = w1(22, 1);
/// `CF_INST` of the normal and export encodings (7 bits).
pub const CF_INST: Field = w1(23, 7);
/// The encoding: 0 normal, 1 export, 2–3 ALU clause.
pub(crate) const CF_INST_TYPE: Field = w1(28, 2);
/// `WHOLE_QUAD_MODE`.
pub const WHOLE_QUAD_MODE: Field = w1(30, 1);
/// `BARRIER`.
pub const BARRIER: Field = w1(31, 1);

/// `SQ_CF_ALU_WORD0.ADDR`: the clause, in 64-bit units.
pub const ALU_ADDR: Field = Field::at(0, 22);
/// `SQ_CF_ALU_WORD0.KCACHE_BANK0`.
pub const KCACHE_BANK0: Field = Field::at(22, 4);
/// `SQ_CF_ALU_WORD0.KCACHE_BANK1`.
pub const KCACHE_BANK1: Field = Field::at(26, 4);
/// `SQ_CF_ALU_WORD0.KCACHE_MODE0`: 0 none, 1 lock 16 constants, 2 lock 32, 3 32 indexed by
/// the loop index.
pub const KCACHE_MODE0: Field = Field::at(30, 2);
/// `SQ_CF_ALU_WORD1.KCACHE_MODE1`.
pub const KCACHE_MODE1: Field = w1(0, 2);
/// `SQ_CF_ALU_WORD1.KCACHE_ADDR0`: in units of 16 constants.
pub const KCACHE_ADDR0: Field = w1(2, 8);
/// `SQ_CF_ALU_WORD1.KCACHE_ADDR1`.
pub const KCACHE_ADDR1: Field = w1(10, 8);
/// `SQ_CF_ALU_WORD1.COUNT`: ALU slots (instructions and literal pairs) minus one.
pub const ALU_COUNT: Field = w1(18, 7);
/// `SQ_CF_ALU_WORD1.ALT_CONST` (R700).
pub const ALT_CONST: Field = w1(25, 1);
/// `SQ_CF_ALU_WORD1.CF_INST` (4 bits).
pub const ALU_CF_INST: Field = w1(26, 4);

/// `SQ_CF_ALLOC_EXPORT_WORD0.ARRAY_BASE`.
pub const ARRAY_BASE: Field = Field::at(0, 13);
/// `SQ_CF_ALLOC_EXPORT_WORD0.TYPE`: pixel, position, parameter (export); write, indexed
/// write, read, indexed read (memory export).
pub const TYPE: Field = Field::at(13, 2);
/// `SQ_CF_ALLOC_EXPORT_WORD0.RW_GPR`.
pub const RW_GPR: Field = Field::at(15, 7);
/// `SQ_CF_ALLOC_EXPORT_WORD0.RW_REL`.
pub const RW_REL: Field = Field::at(22, 1);
/// `SQ_CF_ALLOC_EXPORT_WORD0.INDEX_GPR`.
pub const INDEX_GPR: Field = Field::at(23, 7);
/// `SQ_CF_ALLOC_EXPORT_WORD0.ELEM_SIZE`.
pub const ELEM_SIZE: Field = Field::at(30, 2);
/// `SQ_CF_ALLOC_EXPORT_WORD1_SWIZ.SEL_X` (SEL_Y, SEL_Z, SEL_W follow, 3 bits each).
pub const SEL_X: Field = w1(0, 3);
/// `SQ_CF_ALLOC_EXPORT_WORD1_BUF.ARRAY_SIZE`.
pub const ARRAY_SIZE: Field = w1(0, 12);
/// `SQ_CF_ALLOC_EXPORT_WORD1_BUF.COMP_MASK`.
pub const COMP_MASK: Field = w1(12, 4);
/// `SQ_CF_ALLOC_EXPORT_WORD1.BURST_COUNT`: registers exported minus one.
pub const BURST_COUNT: Field = w1(17, 4);

/// `CF_INST` values of the normal and export encodings.
///
/// ```
/// use shaderscope::isa::latte::cf::{Cf, inst};
///
/// assert_eq!(Cf::new(0, 0x0980_0000).inst(), inst::CALL_FS);
/// ```
pub mod inst {
    /// No operation.
    pub const NOP: u32 = 0x00;
    /// Texture clause.
    pub const TEX: u32 = 0x01;
    /// Vertex clause.
    pub const VTX: u32 = 0x02;
    /// Vertex clause through the texture cache.
    pub const VTX_TC: u32 = 0x03;
    /// Loop start (with the loop index).
    pub const LOOP_START: u32 = 0x04;
    /// Loop end.
    pub const LOOP_END: u32 = 0x05;
    /// DX10 loop start.
    pub const LOOP_START_DX10: u32 = 0x06;
    /// Loop start without the loop index.
    pub const LOOP_START_NO_AL: u32 = 0x07;
    /// Continue.
    pub const LOOP_CONTINUE: u32 = 0x08;
    /// Break.
    pub const LOOP_BREAK: u32 = 0x09;
    /// Jump.
    pub const JUMP: u32 = 0x0A;
    /// Push.
    pub const PUSH: u32 = 0x0B;
    /// Push else.
    pub const PUSH_ELSE: u32 = 0x0C;
    /// Else.
    pub const ELSE: u32 = 0x0D;
    /// Pop.
    pub const POP: u32 = 0x0E;
    /// Pop and jump.
    pub const POP_JUMP: u32 = 0x0F;
    /// Pop then push.
    pub const POP_PUSH: u32 = 0x10;
    /// Pop then push else.
    pub const POP_PUSH_ELSE: u32 = 0x11;
    /// Call.
    pub const CALL: u32 = 0x12;
    /// Call the fetch shader.
    pub const CALL_FS: u32 = 0x13;
    /// Return.
    pub const RETURN: u32 = 0x14;
    /// Emit a vertex (GS).
    pub const EMIT_VERTEX: u32 = 0x15;
    /// Emit a vertex and cut (GS).
    pub const EMIT_CUT_VERTEX: u32 = 0x16;
    /// Cut (GS).
    pub const CUT_VERTEX: u32 = 0x17;
    /// Kill.
    pub const KILL: u32 = 0x18;
    /// End of program.
    pub const END_PROGRAM: u32 = 0x19;
    /// Wait for acknowledgements.
    pub const WAIT_ACK: u32 = 0x1A;
    /// Texture clause with acknowledgement.
    pub const TEX_ACK: u32 = 0x1B;
    /// Vertex clause with acknowledgement.
    pub const VTX_ACK: u32 = 0x1C;
    /// Vertex clause through the texture cache, with acknowledgement.
    pub const VTX_TC_ACK: u32 = 0x1D;
    /// Export (first of the export encoding's values).
    pub const MEM_STREAM0: u32 = 0x20;
    /// Memory stream 3.
    pub const MEM_STREAM3: u32 = 0x23;
    /// Scratch memory.
    pub const MEM_SCRATCH: u32 = 0x24;
    /// Reduction memory.
    pub const MEM_REDUCTION: u32 = 0x25;
    /// Ring buffer.
    pub const MEM_RING: u32 = 0x26;
    /// Export.
    pub const EXP: u32 = 0x27;
    /// Last export of its type.
    pub const EXP_DONE: u32 = 0x28;
    /// Memory export (R700).
    pub const MEM_EXPORT: u32 = 0x3A;
}

/// The encoding of a control-flow instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CfKind {
    /// `SQ_CF_WORD0/1`: clauses of fetches, flow control.
    Normal,
    /// `SQ_CF_ALLOC_EXPORT_WORD0/1`: exports and memory exports.
    Export,
    /// `SQ_CF_ALU_WORD0/1`: an ALU clause.
    Alu,
}

/// What a normal instruction's clause holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClauseKind {
    /// Texture fetches (16 bytes each).
    Tex,
    /// Vertex fetches (16 bytes each).
    Vtx,
}

/// One control-flow instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cf(pub u64);

impl Cf {
    /// The instruction of these two words.
    pub fn new(word0: u32, word1: u32) -> Cf {
        Cf(u64::from(word0) | u64::from(word1) << 32)
    }

    /// Its two words, word 0 first.
    pub fn words(self) -> [u32; 2] {
        [self.0 as u32, (self.0 >> 32) as u32]
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

    /// Its encoding.
    pub fn kind(self) -> CfKind {
        match self.get(CF_INST_TYPE) {
            0 => CfKind::Normal,
            1 => CfKind::Export,
            _ => CfKind::Alu,
        }
    }

    /// `CF_INST` of its encoding (the 4-bit field of an ALU clause instruction).
    pub fn inst(self) -> u32 {
        match self.kind() {
            CfKind::Alu => self.get(ALU_CF_INST),
            _ => self.get(CF_INST),
        }
    }

    /// The instruction's name, if the ISA defines its `CF_INST`.
    pub fn name(self) -> Option<&'static str> {
        let inst = self.inst();
        match self.kind() {
            CfKind::Normal => opcodes::cf_name(inst),
            CfKind::Export => opcodes::export_name(inst),
            CfKind::Alu => Some(opcodes::alu_cf_name(inst)),
        }
    }

    /// Whether it ends the program (`END_OF_PROGRAM` of the normal and export encodings).
    pub fn ends_program(self) -> bool {
        self.kind() != CfKind::Alu && self.bit(END_OF_PROGRAM)
    }

    /// The clause of fetches it runs, if it runs one: its kind, first 64-bit unit and count.
    pub fn fetch_clause(self) -> Option<(ClauseKind, u32, u32)> {
        if self.kind() != CfKind::Normal {
            return None;
        }
        let kind = match self.inst() {
            inst::TEX | inst::TEX_ACK => ClauseKind::Tex,
            inst::VTX | inst::VTX_TC | inst::VTX_ACK | inst::VTX_TC_ACK => ClauseKind::Vtx,
            _ => return None,
        };
        Some((kind, self.get(ADDR), self.fetch_count()))
    }

    /// The clause instruction count of a TEX or VTX instruction (`COUNT` with `COUNT_3`,
    /// plus one): 1 to 16.
    pub fn fetch_count(self) -> u32 {
        (self.get(COUNT) | self.get(COUNT_3) << 3) + 1
    }

    /// The ALU clause it runs, if it is an ALU clause instruction: its first 64-bit unit and
    /// slot count (1 to 128).
    pub fn alu_clause(self) -> Option<(u32, u32)> {
        (self.kind() == CfKind::Alu).then(|| (self.get(ALU_ADDR), self.get(ALU_COUNT) + 1))
    }

    /// Loop nesting: +1 for a loop start, -1 for a loop end, 0 otherwise.
    pub fn loop_step(self) -> i32 {
        if self.kind() != CfKind::Normal {
            return 0;
        }
        match self.inst() {
            inst::LOOP_START | inst::LOOP_START_DX10 | inst::LOOP_START_NO_AL => 1,
            inst::LOOP_END => -1,
            _ => 0,
        }
    }
}

/// The instruction's text as decaf prints it after the `NN ` number: `ALU: ADDR(32) CNT(14)
/// KCACHE0(CB1:0-15)`, `EXP_DONE: POS0, R1.xyzw`, `LOOP_END CF_CONST(0) PASS_JUMP_ADDR(4)`.
pub fn write_text(line: &mut Line, cf: Cf) {
    match cf.kind() {
        CfKind::Alu => alu(line, cf),
        CfKind::Export => export(line, cf),
        CfKind::Normal => normal(line, cf),
    }
}

/// `NAME` or, for a value the ISA leaves undefined, `UNKNOWN(0x1E)`.
fn name(line: &mut Line, cf: Cf) {
    match cf.name() {
        Some(name) => mnemonic(line, name),
        None => {
            line.style(Style::Mnemonic);
            line.push_str("UNKNOWN(0x");
            push_hex(line, u64::from(cf.inst()), 2);
            line.push_str(")");
            line.reset();
        }
    }
}

fn alu(line: &mut Line, cf: Cf) {
    name(line, cf);
    line.push_str(":");
    let (addr, count) = cf.alu_clause().unwrap_or((0, 1));
    operand(line, |l| number_in(l, Style::Label, "ADDR(", addr, ")"));
    operand(line, |l| number_in(l, Style::Directive, "CNT(", count, ")"));
    if !cf.bit(BARRIER) {
        flag(line, "NO_BARRIER");
    }
    if cf.bit(WHOLE_QUAD_MODE) {
        flag(line, "WHOLE_QUAD");
    }
    kcache(line, 0, cf.get(KCACHE_MODE0), cf.get(KCACHE_BANK0), cf.get(KCACHE_ADDR0));
    kcache(line, 1, cf.get(KCACHE_MODE1), cf.get(KCACHE_BANK1), cf.get(KCACHE_ADDR1));
    // R700's ALT_CONST (decaf does not show it).
    if cf.bit(ALT_CONST) {
        flag(line, "ALT_CONST");
    }
}

/// ` KCACHE0(CB1:0-15)`: a locked constant-buffer window.
fn kcache(line: &mut Line, id: u32, mode: u32, bank: u32, addr: u32) {
    let (first, last, looped) = match mode {
        1 => (16 * addr, 16 * addr + 15, false),
        2 => (16 * addr, 16 * addr + 31, false),
        3 => (16 * addr, 16 * addr + 31, true),
        _ => return,
    };
    line.push_str(" ");
    line.start_operand();
    line.style(Style::Register);
    line.push_str("KCACHE");
    push_number(line, u64::from(id));
    line.push_str("(CB");
    push_number(line, u64::from(bank));
    line.push_str(":");
    if looped {
        line.push_str("AL+");
    }
    push_number(line, u64::from(first));
    line.push_str(if looped { "-AL+" } else { "-" });
    push_number(line, u64::from(last));
    line.push_str(")");
    line.reset();
    line.end_operand();
}

/// ` CND(BOOL) CF_CONST(3)` when the instruction is conditional.
fn condition(line: &mut Line, cf: Cf) {
    let cond = cf.get(COND);
    if cond == 0 {
        return;
    }
    flag(
        line,
        match cond {
            1 => "CND(FALSE)",
            2 => "CND(BOOL)",
            _ => "CND(NOT_BOOL)",
        },
    );
    operand(line, |l| number_in(l, Style::Literal, "CF_CONST(", cf.get(CF_CONST), ")"));
}

fn pop_valid_pix(line: &mut Line, cf: Cf) {
    if cf.get(POP_COUNT) != 0 {
        operand(line, |l| number_in(l, Style::Directive, "POP_CNT(", cf.get(POP_COUNT), ")"));
    }
    if cf.bit(VALID_PIXEL_MODE) {
        flag(line, "VALID_PIX");
    }
}

fn no_barrier(line: &mut Line, cf: Cf) {
    if !cf.bit(BARRIER) {
        flag(line, "NO_BARRIER");
    }
}

fn normal(line: &mut Line, cf: Cf) {
    name(line, cf);
    let id = cf.inst();
    match id {
        inst::TEX | inst::VTX | inst::VTX_TC | inst::TEX_ACK | inst::VTX_ACK | inst::VTX_TC_ACK => {
            line.push_str(":");
            operand(line, |l| number_in(l, Style::Label, "ADDR(", cf.get(ADDR), ")"));
            operand(line, |l| number_in(l, Style::Directive, "CNT(", cf.fetch_count(), ")"));
            no_barrier(line, cf);
            condition(line, cf);
            // decaf shows these two of a texture clause only.
            if matches!(id, inst::TEX | inst::TEX_ACK) {
                if cf.bit(WHOLE_QUAD_MODE) {
                    flag(line, "WHOLE_QUAD");
                }
                if cf.bit(VALID_PIXEL_MODE) {
                    flag(line, "VALID_PIX");
                }
            }
        }
        inst::LOOP_START
        | inst::LOOP_START_DX10
        | inst::LOOP_START_NO_AL
        | inst::LOOP_END
        | inst::LOOP_CONTINUE
        | inst::LOOP_BREAK => {
            condition(line, cf);
            if matches!(id, inst::LOOP_START | inst::LOOP_END) && cf.get(COND) == 0 {
                operand(line, |l| number_in(l, Style::Literal, "CF_CONST(", cf.get(CF_CONST), ")"));
            }
            let label = match id {
                inst::LOOP_CONTINUE | inst::LOOP_BREAK => "ADDR(",
                inst::LOOP_END => "PASS_JUMP_ADDR(",
                _ => "FAIL_JUMP_ADDR(",
            };
            operand(line, |l| number_in(l, Style::Label, label, cf.get(ADDR), ")"));
            pop_valid_pix(line, cf);
            no_barrier(line, cf);
        }
        inst::JUMP | inst::ELSE | inst::CALL | inst::CALL_FS | inst::RETURN | inst::POP_JUMP => {
            if id == inst::CALL && cf.get(CALL_COUNT) != 0 {
                operand(line, |l| number_in(l, Style::Directive, "CALL_COUNT(", cf.get(CALL_COUNT), ")"));
            }
            condition(line, cf);
            if cf.get(POP_COUNT) != 0 {
                operand(line, |l| number_in(l, Style::Directive, "POP_CNT(", cf.get(POP_COUNT), ")"));
            }
            // decaf leaves out POP_JUMP's address, which it jumps to.
            if matches!(id, inst::CALL | inst::ELSE | inst::JUMP | inst::POP_JUMP) {
                operand(line, |l| number_in(l, Style::Label, "ADDR(", cf.get(ADDR), ")"));
            }
            if cf.bit(VALID_PIXEL_MODE) {
                flag(line, "VALID_PIX");
            }
            no_barrier(line, cf);
        }
        inst::EMIT_VERTEX | inst::EMIT_CUT_VERTEX | inst::CUT_VERTEX | inst::WAIT_ACK => no_barrier(line, cf),
        inst::PUSH | inst::PUSH_ELSE | inst::KILL | inst::POP | inst::POP_PUSH | inst::POP_PUSH_ELSE => {
            if matches!(id, inst::PUSH | inst::PUSH_ELSE | inst::KILL) {
                condition(line, cf);
            }
            pop_valid_pix(line, cf);
        }
        inst::END_PROGRAM | inst::NOP => {}
        _ => flag(line, "UNK_FORMAT"),
    }
}

/// `x`, `y`, `z`, `w`, `0`, `1`, `_` (masked) or `?` for a component select.
pub(super) fn sel_char(sel: u32) -> &'static str {
    match sel {
        0 => "x",
        1 => "y",
        2 => "z",
        3 => "w",
        4 => "0",
        5 => "1",
        7 => "_",
        _ => "?",
    }
}

fn export(line: &mut Line, cf: Cf) {
    let id = cf.inst();
    name(line, cf);
    line.push_str(":");
    let ty = cf.get(TYPE);
    let base = cf.get(ARRAY_BASE);
    line.push_str(" ");
    line.start_operand();
    line.style(Style::Register);
    if matches!(id, inst::EXP | inst::EXP_DONE) {
        match ty {
            0 => line.push_str("PIX"),
            1 => line.push_str("POS"),
            2 => line.push_str("PARAM"),
            _ => line.push_str("INVALID"),
        }
        if ty == 1 {
            // decaf prints ARRAY_BASE − 60 (positions are 60–63) as a signed number.
            let n = i64::from(base) - 60;
            if n < 0 {
                line.push_str("-");
            }
            line.push_u64(n.unsigned_abs());
        } else {
            push_number(line, u64::from(base));
        }
    } else if (inst::MEM_STREAM0..=inst::MEM_STREAM3).contains(&id) && ty >= 2 {
        line.push_str("INVALID_READ");
    } else {
        line.push_str(if ty < 2 { "WRITE(" } else { "READ(" });
        let scale = if matches!(id, inst::MEM_SCRATCH | inst::MEM_REDUCTION) { 16 } else { 4 };
        line.push_u64(u64::from(base) * scale);
        if ty & 1 == 1 {
            line.push_str(" + R");
            push_number(line, u64::from(cf.get(INDEX_GPR)));
        }
        line.push_str(")");
    }
    line.reset();
    line.end_operand();
    line.push_str(", ");
    line.start_operand();
    line.style(Style::Register);
    if cf.bit(RW_REL) {
        line.push_str("R[AL + ");
        push_number(line, u64::from(cf.get(RW_GPR)));
        line.push_str("]");
    } else {
        line.push_str("R");
        push_number(line, u64::from(cf.get(RW_GPR)));
    }
    line.push_str(".");
    if matches!(id, inst::EXP | inst::EXP_DONE) {
        for i in 0..4u16 {
            line.push_str(sel_char(cf.get(Field::at(SEL_X.shift + 3 * i, 3))));
        }
        line.reset();
        line.end_operand();
    } else {
        let mask = cf.get(COMP_MASK);
        for (i, c) in ["x", "y", "z", "w"].into_iter().enumerate() {
            line.push_str(if mask >> i & 1 == 1 { c } else { "_" });
        }
        line.reset();
        line.end_operand();
        operand(line, |l| number_in(l, Style::Directive, "ARRAY_SIZE(", cf.get(ARRAY_SIZE), ")"));
    }
    if cf.get(ELEM_SIZE) != 0 {
        operand(line, |l| number_in(l, Style::Directive, "ELEM_SIZE(", cf.get(ELEM_SIZE), ")"));
    }
    if cf.get(BURST_COUNT) != 0 {
        operand(line, |l| number_in(l, Style::Directive, "BURSTCNT(", cf.get(BURST_COUNT), ")"));
    }
    no_barrier(line, cf);
    if cf.bit(WHOLE_QUAD_MODE) {
        flag(line, "WHOLE_QUAD");
    }
    if cf.bit(VALID_PIXEL_MODE) {
        flag(line, "VALID_PIX");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(w0: u32, w1: u32) -> String {
        let mut l = Line::new();
        write_text(&mut l, Cf::new(w0, w1));
        l.as_str().to_string()
    }

    #[test]
    fn fields_follow_the_r700_layout() {
        // ALU: ADDR(32) CNT(18) KCACHE0(CB1:0-15), from the corpus (RetroArch stock.gsh).
        let alu = Cf::new(0x4040_0020, 0xA044_0000);
        assert_eq!(alu.kind(), CfKind::Alu);
        assert_eq!(alu.alu_clause(), Some((32, 18)));
        assert_eq!((alu.get(KCACHE_MODE0), alu.get(KCACHE_BANK0), alu.get(KCACHE_ADDR0)), (1, 1, 0));
        assert_eq!(text(0x4040_0020, 0xA044_0000), "ALU: ADDR(32) CNT(18) KCACHE0(CB1:0-15)");
        // CALL_FS NO_BARRIER.
        assert_eq!(text(0, 0x0980_0000), "CALL_FS NO_BARRIER");
        // EXP_DONE: POS0, R1.xyzw (ARRAY_BASE 60, TYPE 1, RW_GPR 1; swizzle xyzw; burst 0).
        assert_eq!(text(0x0000_A03C, 0x9420_0688), "EXP_DONE: POS0, R1.xyzw");
        // TEX clause of count 16: COUNT 7 plus COUNT_3.
        let tex = Cf::new(176, (1 << 23) | (7 << 10) | (1 << 19) | (1 << 31));
        assert_eq!(tex.fetch_clause(), Some((ClauseKind::Tex, 176, 16)));
        assert_eq!(text(176, (1 << 23) | (7 << 10) | (1 << 19) | (1 << 31)), "TEX: ADDR(176) CNT(16)");
    }
}
