//! ALU clauses: VLIW groups of one to five 64-bit instructions (the last has `LAST` set),
//! each followed by the group's literal constants, for the units x, y, z, w and t.
//!
//! ```
//! use shaderscope::isa::latte::alu::{self, Alu, Group};
//! use shaderscope::print::Line;
//!
//! // MULADD R127.x, R1.y, C1.x, PV.x (MultiDRCSpaceDemo's colorShader), alone in its group.
//! let inst = Alu::new(0x8020_2401, 0x0FE2_00FE);
//! assert!(inst.is_op3() && inst.last());
//! assert_eq!((inst.op().unwrap().name, inst.get(alu::DST_GPR), inst.src_count()), ("MULADD", 127, 3));
//! let group = Group::read(&[0x8020_2401u32, 0x0FE2_00FE].map(u32::to_le_bytes).concat());
//! assert_eq!((group.len, group.slots(), alu::assign_units(group.insts())[0]), (1, 1, (0, false)));
//! let mut line = Line::new();
//! alu::write_text(&mut line, inst, 1, &[]);
//! assert_eq!(line.as_str(), "MULADD          R127.x, R1.y, C1.x, PV0.x");
//! ```

use super::opcodes::{self, AluOp, Units};
use super::print::push_number;
use crate::isa::columns::push_hex8;
use crate::print::{Line, Style, float};
use crate::toolkit::Field;

/// A field of word 1 (bits 32–63 of the instruction).
const fn w1(shift: u16, width: u8) -> Field {
    Field::at(32 + shift, width)
}

/// `SQ_ALU_WORD0.SRC0_SEL`.
pub const SRC0_SEL: Field = Field::at(0, 9);
/// `SQ_ALU_WORD0.SRC0_REL`.
pub const SRC0_REL: Field = Field::at(9, 1);
/// `SQ_ALU_WORD0.SRC0_CHAN`.
pub const SRC0_CHAN: Field = Field::at(10, 2);
/// `SQ_ALU_WORD0.SRC0_NEG`.
pub const SRC0_NEG: Field = Field::at(12, 1);
/// `SQ_ALU_WORD0.SRC1_SEL`.
pub const SRC1_SEL: Field = Field::at(13, 9);
/// `SQ_ALU_WORD0.SRC1_REL`.
pub const SRC1_REL: Field = Field::at(22, 1);
/// `SQ_ALU_WORD0.SRC1_CHAN`.
pub const SRC1_CHAN: Field = Field::at(23, 2);
/// `SQ_ALU_WORD0.SRC1_NEG`.
pub const SRC1_NEG: Field = Field::at(25, 1);
/// `SQ_ALU_WORD0.INDEX_MODE`: 0–3 AR.x–AR.w, 4 the loop index, 5 global, 6 global + AR.x.
pub const INDEX_MODE: Field = Field::at(26, 3);
/// `SQ_ALU_WORD0.PRED_SEL`: 0 off, 2 run where the predicate is 0, 3 where it is 1.
pub const PRED_SEL: Field = Field::at(29, 2);
/// `SQ_ALU_WORD0.LAST`: the last instruction of its group.
pub const LAST: Field = Field::at(31, 1);
/// `SQ_ALU_WORD1_OP2.SRC0_ABS`.
pub const SRC0_ABS: Field = w1(0, 1);
/// `SQ_ALU_WORD1_OP2.SRC1_ABS`.
pub const SRC1_ABS: Field = w1(1, 1);
/// `SQ_ALU_WORD1_OP2.UPDATE_EXECUTE_MASK`.
pub const UPDATE_EXECUTE_MASK: Field = w1(2, 1);
/// `SQ_ALU_WORD1_OP2.UPDATE_PRED`.
pub const UPDATE_PRED: Field = w1(3, 1);
/// `SQ_ALU_WORD1_OP2.WRITE_MASK`.
pub const WRITE_MASK: Field = w1(4, 1);
/// `SQ_ALU_WORD1_OP2.OMOD` (R700: bits 5–6): 1 ×2, 2 ×4, 3 ÷2.
pub const OMOD: Field = w1(5, 2);
/// `SQ_ALU_WORD1_OP2.ALU_INST` (R700: 11 bits from bit 7).
pub const OP2_INST: Field = w1(7, 11);
/// `SQ_ALU_WORD1_OP3.SRC2_SEL`.
pub const SRC2_SEL: Field = w1(0, 9);
/// `SQ_ALU_WORD1_OP3.SRC2_REL`.
pub const SRC2_REL: Field = w1(9, 1);
/// `SQ_ALU_WORD1_OP3.SRC2_CHAN`.
pub const SRC2_CHAN: Field = w1(10, 2);
/// `SQ_ALU_WORD1_OP3.SRC2_NEG`.
pub const SRC2_NEG: Field = w1(12, 1);
/// `SQ_ALU_WORD1_OP3.ALU_INST`.
pub const OP3_INST: Field = w1(13, 5);
/// `SQ_ALU_WORD1.ENCODING`: 0 for OP2 (the top bits of its opcode), else OP3.
pub const ENCODING: Field = w1(15, 3);
/// `SQ_ALU_WORD1.BANK_SWIZZLE`.
pub const BANK_SWIZZLE: Field = w1(18, 3);
/// `SQ_ALU_WORD1.DST_GPR`.
pub const DST_GPR: Field = w1(21, 7);
/// `SQ_ALU_WORD1.DST_REL`.
pub const DST_REL: Field = w1(28, 1);
/// `SQ_ALU_WORD1.DST_CHAN`.
pub const DST_CHAN: Field = w1(29, 2);
/// `SQ_ALU_WORD1.CLAMP`.
pub const CLAMP: Field = w1(31, 1);

/// Source selects (`SQ_ALU_SRC_*`) with a meaning of their own.
///
/// ```
/// use shaderscope::isa::latte::alu::{Alu, SRC0_SEL, src};
///
/// // ADD ____, (literal).x, R0.x: the group's first literal word.
/// let add = Alu(SRC0_SEL.put(u64::from(src::LITERAL)));
/// assert_eq!((add.source(0).sel, add.literals_needed()), (253, 1));
/// ```
pub mod src {
    /// First kcache bank 0 constant (128–159).
    pub const KCACHE0: u32 = 128;
    /// First kcache bank 1 constant (160–191).
    pub const KCACHE1: u32 = 160;
    /// `ALU_SRC_LITERAL`: a literal constant of the group, by channel.
    pub const LITERAL: u32 = 253;
    /// `ALU_SRC_PV`: the previous group's vector result.
    pub const PV: u32 = 254;
    /// `ALU_SRC_PS`: the previous group's scalar (t) result.
    pub const PS: u32 = 255;
    /// First constant-file register (256–511).
    pub const CFILE: u32 = 256;
}

/// One source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Source {
    /// `SRCn_SEL`.
    pub sel: u32,
    /// `SRCn_REL`: indexed by [`INDEX_MODE`].
    pub rel: bool,
    /// `SRCn_CHAN`.
    pub chan: u32,
    /// `SRCn_NEG`.
    pub neg: bool,
    /// `SRCn_ABS` (OP2 only).
    pub abs: bool,
}

/// One ALU instruction (a slot of a group).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Alu(pub u64);

impl Alu {
    /// The instruction of these two words.
    pub fn new(word0: u32, word1: u32) -> Alu {
        Alu(u64::from(word0) | u64::from(word1) << 32)
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

    /// Whether it has the OP3 encoding (three sources).
    #[inline]
    pub fn is_op3(self) -> bool {
        self.get(ENCODING) != 0
    }

    /// Its `ALU_INST`: 11 bits for OP2, 5 for OP3.
    #[inline]
    pub fn opcode(self) -> u32 {
        if self.is_op3() { self.get(OP3_INST) } else { self.get(OP2_INST) }
    }

    /// Its operation, if R700 has it.
    #[inline]
    pub fn op(self) -> Option<AluOp> {
        if self.is_op3() { opcodes::op3(self.get(OP3_INST)) } else { opcodes::op2(self.get(OP2_INST)) }
    }

    /// Sources it reads: the operation's, or every source its encoding has (2 for OP2, 3 for
    /// OP3) when the operation is unknown.
    #[inline]
    pub fn src_count(self) -> usize {
        match self.op() {
            Some(op) => usize::from(op.srcs),
            None if self.is_op3() => 3,
            None => 2,
        }
    }

    /// The units it may run in (any, for an unknown operation).
    #[inline]
    pub fn units(self) -> Units {
        self.op().map_or(Units::Any, |op| op.units)
    }

    /// Whether it ends its group.
    #[inline]
    pub fn last(self) -> bool {
        self.bit(LAST)
    }

    /// Source `i` (0–2).
    #[inline]
    pub fn source(self, i: usize) -> Source {
        let op2 = !self.is_op3();
        match i {
            0 => Source {
                sel: self.get(SRC0_SEL),
                rel: self.bit(SRC0_REL),
                chan: self.get(SRC0_CHAN),
                neg: self.bit(SRC0_NEG),
                abs: op2 && self.bit(SRC0_ABS),
            },
            1 => Source {
                sel: self.get(SRC1_SEL),
                rel: self.bit(SRC1_REL),
                chan: self.get(SRC1_CHAN),
                neg: self.bit(SRC1_NEG),
                abs: op2 && self.bit(SRC1_ABS),
            },
            _ => Source {
                sel: self.get(SRC2_SEL),
                rel: self.bit(SRC2_REL),
                chan: self.get(SRC2_CHAN),
                neg: self.bit(SRC2_NEG),
                abs: false,
            },
        }
    }

    /// Whether it writes its destination register (OP3 always does; OP2 with `WRITE_MASK`).
    #[inline]
    pub fn writes(self) -> bool {
        self.is_op3() || self.bit(WRITE_MASK)
    }

    /// Literal channels its sources need: the highest channel of a literal source, plus one.
    #[inline]
    pub fn literals_needed(self) -> usize {
        (0..self.src_count())
            .map(|i| self.source(i))
            .filter(|s| s.sel == src::LITERAL)
            .map(|s| s.chan as usize + 1)
            .max()
            .unwrap_or(0)
    }
}

/// One VLIW group as it sits in a clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Group {
    /// The instructions, in order (`len` of them).
    pub insts: [Alu; 5],
    /// Instructions.
    pub len: usize,
    /// Whether the last one has `LAST` set (else the group was cut by five instructions or
    /// by the end of its clause).
    pub ended: bool,
    /// The literal constants the group's sources use, by channel (then the padding word).
    pub literals: [u32; 4],
    /// Literal channels the sources use.
    pub literals_needed: usize,
    /// Literal channels that were there to read (fewer when the clause ends too soon).
    pub literals_read: usize,
    /// Words of the literal slots that were there to read, the padding word of an odd
    /// count included (what a listing with `--raw` shows).
    pub literal_words: usize,
}

impl Group {
    /// The group at the start of `bytes` (the rest of its clause): up to five instructions,
    /// to the one with `LAST`, and its literals.
    pub fn read(bytes: &[u8]) -> Group {
        let mut g = Group::default();
        let mut at = 0;
        while g.len < 5 {
            let Some(word) = bytes.get(at..).and_then(|b| b.first_chunk::<8>()) else { break };
            let inst = Alu(u64::from_le_bytes(*word));
            if let Some(slot) = g.insts.get_mut(g.len) {
                *slot = inst;
            }
            g.len += 1;
            at += 8;
            g.literals_needed = g.literals_needed.max(inst.literals_needed());
            if inst.last() {
                g.ended = true;
                break;
            }
        }
        for (i, lit) in g.literals.iter_mut().enumerate().take(g.literals_needed.div_ceil(2) * 2) {
            if let Some(w) = bytes.get(at + 4 * i..).and_then(|b| b.first_chunk::<4>()) {
                *lit = u32::from_le_bytes(*w);
                g.literal_words = i + 1;
            }
        }
        g.literals_read = g.literal_words.min(g.literals_needed);
        g
    }

    /// The instructions.
    pub fn insts(&self) -> &[Alu] {
        self.insts.get(..self.len).unwrap_or(&[])
    }

    /// 64-bit slots the group takes: its instructions and its literals, two to a slot.
    pub fn slots(&self) -> usize {
        self.len + self.literals_needed.div_ceil(2)
    }
}

/// Unit indices: x, y, z, w, t.
pub(crate) const UNIT_NAMES: [&str; 5] = ["x", "y", "z", "w", "t"];
/// The t (transcendental) unit's index.
pub const T: usize = 4;

/// The unit each instruction of a group runs in, the way the R700 document and decaf assign
/// them: a transcendental-only operation goes to t, a vector-only one to the unit of its
/// `DST_CHAN`, any other to its `DST_CHAN` unit unless an earlier instruction of the group
/// took it, else to t. A unit given twice is returned as well (the group is invalid), with
/// `true` beside it.
pub fn assign_units(insts: &[Alu]) -> [(usize, bool); 5] {
    let mut taken = [false; 5];
    let mut out = [(0, false); 5];
    for (inst, slot) in insts.iter().zip(out.iter_mut()) {
        let chan = inst.get(DST_CHAN) as usize;
        let unit = match inst.units() {
            Units::Trans => T,
            Units::Vector => chan,
            Units::Any if taken.get(chan).copied().unwrap_or(true) => T,
            Units::Any => chan,
        };
        let clash = taken.get(unit).copied().unwrap_or(true);
        if let Some(t) = taken.get_mut(unit) {
            *t = true;
        }
        *slot = (unit, clash);
    }
    out
}

/// What a source operand refers to, for usage summaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// A general-purpose register (0–127).
    Gpr(u32),
    /// A locked constant of kcache bank 0 or 1 (index 0–31 in its window).
    Kcache(u32, u32),
    /// A constant-file register (uniform-register mode), 0–255.
    Cfile(u32),
    /// Anything else: an inline constant, a literal, PV/PS, a special value.
    Other,
}

impl Source {
    /// What it refers to.
    pub fn operand(&self) -> Operand {
        match self.sel {
            0..=127 => Operand::Gpr(self.sel),
            128..=159 => Operand::Kcache(0, self.sel - src::KCACHE0),
            160..=191 => Operand::Kcache(1, self.sel - src::KCACHE1),
            256..=511 => Operand::Cfile(self.sel - src::CFILE),
            _ => Operand::Other,
        }
    }
}

/// The name of a source select that is not a register, a constant or a literal. R700
/// defines 244–255; 219–243 are Evergreen's (decaf names them) and are `None` here.
fn special(sel: u32) -> Option<&'static str> {
    Some(match sel {
        244 => "1.0_L",
        245 => "1.0_M",
        246 => "0.5_L",
        247 => "0.5_M",
        248 => "0.0f",
        249 => "1.0f",
        250 => "1",
        251 => "-1",
        252 => "0.5f",
        _ => return None,
    })
}

/// `[AR.x]`, `[AL]`, … for a relative operand under `INDEX_MODE` `mode`.
fn index_text(mode: u32) -> &'static str {
    match mode {
        0 => "[AR.x]",
        1 => "[AR.y]",
        2 => "[AR.z]",
        3 => "[AR.w]",
        4 => "[AL]",
        // R700's INDEX_GLOBAL and INDEX_GLOBAL_AR_X (decaf: `[UNKNOWN]`).
        5 => "[GLOBAL]",
        6 => "[GLOBAL+AR.x]",
        _ => "[UNKNOWN]",
    }
}

const CHANNELS: [&str; 4] = [".x", ".y", ".z", ".w"];

/// One operand as decaf writes it: `-|R1.x|`, `KC0[3].y`, `C12[AR.x].w`, `PV4.z`, `PS4`,
/// `0.5f`, `(0x3F800000, 1)`. `literals` holds the group's literals that were read.
fn operand_text(line: &mut Line, s: Source, index_mode: u32, group: i64, literals: &[u32]) {
    if s.neg {
        line.push_str("-");
    }
    if s.abs {
        line.push_str("|");
    }
    let mut channel = true;
    match s.sel {
        0..=127 => register(line, "R", s.sel),
        128..=159 => register_bracket(line, "KC0[", s.sel - src::KCACHE0),
        160..=191 => register_bracket(line, "KC1[", s.sel - src::KCACHE1),
        256..=511 => register(line, "C", s.sel - src::CFILE),
        src::PV => {
            line.style(Style::Register);
            line.push_str("PV");
            push_i64(line, group - 1);
        }
        src::PS => {
            channel = false;
            line.style(Style::Register);
            line.push_str("PS");
            push_i64(line, group - 1);
        }
        src::LITERAL => {
            channel = false;
            line.style(Style::Literal);
            match literals.get(s.chan as usize) {
                Some(&bits) => {
                    line.push_str("(0x");
                    push_hex8(line, bits, true);
                    line.push_str(", ");
                    line.push_short(&float::f32_shortest_text(bits));
                    line.push_str(")");
                }
                None => line.push_str("(missing literal)"),
            }
        }
        sel => {
            channel = false;
            line.style(Style::Literal);
            match special(sel) {
                Some(name) => line.push_str(name),
                None => {
                    line.push_str("UNKNOWN(");
                    line.push_u64(u64::from(sel));
                    line.push_str(")");
                }
            }
        }
    }
    if s.rel {
        line.push_str(index_text(index_mode));
    }
    if channel {
        line.push_str(CHANNELS.get(s.chan as usize).copied().unwrap_or(".?"));
    }
    line.reset();
    if s.abs {
        line.push_str("|");
    }
}

fn register(line: &mut Line, prefix: &str, n: u32) {
    line.style(Style::Register);
    line.push_str(prefix);
    push_number(line, u64::from(n));
}

fn register_bracket(line: &mut Line, prefix: &str, n: u32) {
    register(line, prefix, n);
    line.push_str("]");
}

fn push_i64(line: &mut Line, v: i64) {
    if v < 0 {
        line.push_str("-");
    }
    push_number(line, v.unsigned_abs());
}

/// The instruction's text after its unit (`MULADD          R123.x, R1.z, KC0[2].y, PV0.x`):
/// the name (with its output modifier) left-aligned in 15 columns, the destination or `____`,
/// the sources, then `CLAMP`, the bank swizzle, the predicate select and the OP2 update flags.
/// `group` is the group's number in the program (PV and PS name the one before), `literals`
/// the group's literals that were read.
pub fn write_text(line: &mut Line, inst: Alu, group: i64, literals: &[u32]) {
    let op = inst.op();
    let start = line.len();
    line.style(Style::Mnemonic);
    match op {
        Some(op) => line.push_str(op.name),
        None => {
            line.push_str(if inst.is_op3() { "OP3_INST(" } else { "OP2_INST(" });
            line.push_u64(u64::from(inst.opcode()));
            line.push_str(")");
        }
    }
    let op2 = !inst.is_op3();
    if op2 && !inst.bit(UPDATE_EXECUTE_MASK) {
        match inst.get(OMOD) {
            1 => line.push_str("*2"),
            2 => line.push_str("*4"),
            3 => line.push_str("/2"),
            _ => {}
        }
    }
    line.reset();
    // The name is ASCII: its length is its width.
    line.push_spaces(15usize.saturating_sub(line.len() - start));
    line.push_str(" ");
    line.start_operand();
    if inst.writes() {
        let dst = Source {
            sel: inst.get(DST_GPR),
            rel: inst.bit(DST_REL),
            chan: inst.get(DST_CHAN),
            neg: false,
            abs: false,
        };
        operand_text(line, dst, inst.get(INDEX_MODE), group, literals);
    } else {
        line.style(Style::Register);
        line.push_str("____");
        line.reset();
    }
    line.end_operand();
    for i in 0..inst.src_count() {
        line.push_str(", ");
        line.start_operand();
        operand_text(line, inst.source(i), inst.get(INDEX_MODE), group, literals);
        line.end_operand();
    }
    let flag = |line: &mut Line, text: &str| {
        line.push_str(" ");
        line.style(Style::Directive);
        line.push_str(text);
        line.reset();
    };
    if inst.bit(CLAMP) {
        flag(line, "CLAMP");
    }
    let swizzle = inst.get(BANK_SWIZZLE);
    // decaf names the bank swizzle after the operation, not the unit (see the module docs).
    if op.is_some_and(|op| op.units == Units::Trans) {
        match swizzle {
            0 => flag(line, "SCL_210"),
            1 => flag(line, "SCL_122"),
            2 => flag(line, "SCL_212"),
            3 => flag(line, "SCL_221"),
            _ => bank_swizzle(line, swizzle),
        }
    } else {
        match swizzle {
            0 => {}
            1 => flag(line, "VEC_021"),
            2 => flag(line, "VEC_120"),
            3 => flag(line, "VEC_102"),
            4 => flag(line, "VEC_201"),
            5 => flag(line, "VEC_210"),
            _ => bank_swizzle(line, swizzle),
        }
    }
    match inst.get(PRED_SEL) {
        0 => {}
        2 => flag(line, "PRED_SEL_ZERO"),
        3 => flag(line, "PRED_SEL_ONE"),
        _ => flag(line, "PRED_SEL(1)"),
    }
    if op2 {
        if inst.bit(UPDATE_EXECUTE_MASK) {
            flag(line, "UPDATE_EXEC_MASK");
        }
        if inst.bit(UPDATE_PRED) {
            flag(line, "UPDATE_PRED");
        }
    }
}

/// A bank swizzle value its unit does not define: ` BANK_SWIZZLE(6)`.
fn bank_swizzle(line: &mut Line, v: u32) {
    line.push_str(" ");
    line.style(Style::Directive);
    line.push_str("BANK_SWIZZLE(");
    line.push_u64(u64::from(v));
    line.push_str(")");
    line.reset();
}
