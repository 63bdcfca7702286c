//! The printer: one unit of an instruction as Mesa's `gpir_disassemble_program` prints it
//! (`mul.m0 ^2/$2.y t[1].w a0.y`), the one per-unit printer the listing, the records and the
//! dump annotations all use; and how each step of the [walk](super::walk) prints through
//! them ([`PrintStep`]).

use super::decode::Instr;
use super::encode::words_of;
use super::opcodes::{self, ACC_OPS, LOAD_OFF_NONE, UNITS, Unit, XYZW, complex_op, mul_op, pass_op, src};
use super::walk::{INSTR_SIZE, Step};
use crate::isa::InstructionRecord;
use crate::isa::walk::{Annotate, Listing, PrintStep, Records};
use crate::print::{Line, Printer, Short, Style};

/// What an instruction prints, in Mesa's order: the adders, the multipliers (or one
/// two-unit operation), the complex unit, the pass unit, the branch, `unknown_1`, or `nop`
/// when none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// Adder 0 or 1.
    Acc(u8),
    /// Multiplier 0 or 1 (`mul_op` `mul` or `complex2`).
    Mul(u8),
    /// `complex1.m01`, `sel.m01` or `unknownN.m01`: the multipliers together.
    Wide,
    /// The complex unit.
    Complex,
    /// The complex unit has a source but its operation is `nop`: Mesa then writes the tab
    /// that starts a unit's line and nothing else, so the next text (a unit, `nop`, or the
    /// next instruction's number) continues that line.
    StrayTab,
    /// The pass unit.
    Pass,
    /// `branch ^K NNN`.
    Branch,
    /// `unknown_1 N`: the field Mesa does not know, when not 0.
    Unknown1,
    /// Nothing else was printed.
    Nop,
}

/// The pieces of `i`, in order; at most 9.
pub fn pieces(i: &Instr) -> ([Piece; 9], usize) {
    let mut out = [Piece::Nop; 9];
    let mut n = 0;
    let mut push = |p: Piece| {
        if let Some(slot) = out.get_mut(n) {
            *slot = p;
            n += 1;
        }
    };
    let mut printed = false;
    for (k, s0) in [(0, i.acc0_src0), (1, i.acc1_src0)] {
        if s0 != src::UNUSED {
            push(Piece::Acc(k));
            printed = true;
        }
    }
    match i.mul_op {
        mul_op::MUL | mul_op::COMPLEX2 => {
            for (k, s0, s1) in [(0, i.mul0_src0, i.mul0_src1), (1, i.mul1_src0, i.mul1_src1)] {
                if s0 != src::UNUSED && s1 != src::UNUSED {
                    push(Piece::Mul(k));
                    printed = true;
                }
            }
        }
        _ => {
            push(Piece::Wide);
            printed = true;
        }
    }
    if i.complex_src != src::UNUSED {
        if i.complex_op == complex_op::NOP {
            push(Piece::StrayTab);
        } else {
            push(Piece::Complex);
            printed = true;
        }
    }
    if i.pass_src != src::UNUSED {
        push(Piece::Pass);
        printed = true;
    }
    if i.branch != 0 {
        push(Piece::Branch);
        printed = true;
    }
    if i.unknown_1 != 0 {
        push(Piece::Unknown1);
        printed = true;
    }
    if !printed {
        push(Piece::Nop);
    }
    (out, n)
}

/// The instruction a piece belongs to.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The instruction.
    pub instr: &'a Instr,
    /// The one before it (`None` for the first).
    pub prev: Option<&'a Instr>,
    /// Its index in the program.
    pub index: u64,
}

impl Context<'_> {
    /// `^K` of `unit` in the instruction `back` instructions before this one (Mesa's
    /// numbering: it goes below 0 at the start of the program, and Mesa prints that).
    fn value(&self, back: i64, unit: i64) -> i64 {
        (self.index as i64).saturating_sub(back).saturating_mul(UNITS).saturating_add(unit)
    }
}

/// `n` in decimal. `^K` numbers pass 100 after 17 instructions: up to four digits are
/// made here in one short copy (the line's own table covers 0–99).
#[inline]
fn push_number(line: &mut Line, n: u64) {
    if !(100..10_000).contains(&n) {
        return line.push_u64(n);
    }
    let d = |k: u64| b'0' + (n / k % 10) as u8;
    if n < 1000 {
        line.push_short(&Short::from_ascii_bytes([d(100), d(10), d(1), 0], 3));
    } else {
        line.push_short(&Short::from_ascii_bytes([d(1000), d(100), d(10), d(1)], 4));
    }
}

#[inline]
fn push_signed(line: &mut Line, n: i64) {
    if n < 0 {
        line.push_str("-");
    }
    push_number(line, n.unsigned_abs());
}

/// `n` with at least three digits (C `%03d`).
pub(crate) fn push_03(line: &mut Line, n: u64) {
    if n < 10 {
        line.push_str("00");
    } else if n < 100 {
        line.push_str("0");
    }
    push_number(line, n);
}

#[inline]
fn mnemonic(line: &mut Line, name: &str) {
    line.style(Style::Mnemonic);
    line.push_str(name);
    line.reset();
}

/// The mnemonic of `name` and a unit suffix, `name{suffix}` (`op3.a0`).
fn mnemonic_n(line: &mut Line, name: &str, n: u16, suffix: &str) {
    line.style(Style::Mnemonic);
    line.push_str(name);
    push_number(line, u64::from(n));
    line.push_str(suffix);
    line.reset();
}

/// A space, then an operand: `neg` as a `-` before it, its text written by `body` in
/// `style`.
#[inline]
fn operand(line: &mut Line, neg: bool, style: Style, body: impl FnOnce(&mut Line)) {
    line.push_str(" ");
    line.start_operand();
    if neg {
        line.push_str("-");
    }
    line.style(style);
    body(line);
    line.reset();
    line.end_operand();
}

/// The destination of `unit`: `^K`, then the stores that take its result (`/$N.xy`,
/// `/vN.zw`, `/t[addr0].x`) and, for the complex unit, the address register it sets.
fn dest(line: &mut Line, c: &Context<'_>, unit: Unit) {
    operand(line, false, Style::Register, |line| {
        let i = c.instr;
        line.push_str("^");
        push_signed(line, c.value(0, unit as i64));
        let s = unit.store_src();
        for (a, b, temporary, varying, addr, ca, cb) in [
            (i.store0_src_x, i.store0_src_y, i.store0_temporary, i.store0_varying, i.store0_addr, "x", "y"),
            (i.store1_src_z, i.store1_src_w, i.store1_temporary, i.store1_varying, i.store1_addr, "z", "w"),
        ] {
            if a != s && b != s {
                continue;
            }
            if temporary != 0 {
                line.push_str("/t[addr0]");
            } else {
                line.push_str(if varying != 0 { "/v" } else { "/$" });
                push_number(line, u64::from(addr));
            }
            line.push_str(".");
            if a == s {
                line.push_str(ca);
            }
            if b == s {
                line.push_str(cb);
            }
        }
        if unit == Unit::Complex {
            match i.complex_op {
                complex_op::TEMP_STORE_ADDR => line.push_str("/addr0"),
                complex_op::TEMP_LOAD_ADDR_0 => line.push_str("/addr1"),
                14 => line.push_str("/addr2"),
                15 => line.push_str("/addr3"),
                _ => {}
            }
        }
    });
}

/// `.x` … `.w` for the low two bits of a source.
#[inline]
fn component(line: &mut Line, s: u16) {
    line.push_str(".");
    line.push_str(XYZW.get(usize::from(s & 3)).copied().unwrap_or("x"));
}

/// The register-0 port as `aN` (attribute) or `$N` (register).
fn port0(line: &mut Line, attribute: u16, addr: u16) {
    line.push_str(if attribute != 0 { "a" } else { "$" });
    push_number(line, u64::from(addr));
}

/// Source `s` of `unit` (its source number `num`: the identity value 22 reads 0 as an
/// adder's second source and 1 as a multiplier's), with a `-` before it when `neg`.
fn source(line: &mut Line, c: &Context<'_>, s: u16, unit: Unit, num: u8, neg: bool) {
    let i = c.instr;
    if s == src::IDENT && num == 1 {
        match unit {
            Unit::Acc0 | Unit::Acc1 => return operand(line, neg, Style::Literal, |l| l.push_str("0")),
            Unit::Mul0 | Unit::Mul1 => return operand(line, neg, Style::Literal, |l| l.push_str("1")),
            _ => {}
        }
    }
    operand(line, neg, Style::Register, |line| match s {
        src::ATTRIB_X..=3 => {
            port0(line, i.register0_attribute, i.register0_addr);
            component(line, s);
        }
        src::REGISTER_X..=7 => {
            line.push_str("$");
            push_number(line, u64::from(i.register1_addr));
            component(line, s);
        }
        src::UNKNOWN_0..=11 => {
            line.push_str("unknown");
            push_number(line, u64::from(s - src::UNKNOWN_0));
        }
        src::LOAD_X..=15 => {
            line.push_str("t[");
            push_number(line, u64::from(i.load_addr));
            match i.load_offset {
                1 => line.push_str("+addr1"),
                2 => line.push_str("+addr2"),
                3 => line.push_str("+addr3"),
                LOAD_OFF_NONE => {}
                other => {
                    line.push_str("+unk");
                    push_number(line, u64::from(other));
                }
            }
            line.push_str("]");
            component(line, s);
        }
        src::P1_ACC_0..=20 => {
            line.push_str("^");
            push_signed(line, c.value(1, i64::from(s - src::P1_ACC_0)));
        }
        src::UNUSED => line.push_str("unused"),
        src::IDENT => {
            line.push_str("^");
            push_signed(line, c.value(1, Unit::Complex as i64));
        }
        src::P2_PASS => {
            line.push_str("^");
            push_signed(line, c.value(2, Unit::Pass as i64));
        }
        src::P2_ACC_0..=27 => {
            line.push_str("^");
            push_signed(line, c.value(2, i64::from(s - src::P2_ACC_0)));
        }
        _ => {
            match c.prev {
                Some(p) => port0(line, p.register0_attribute, p.register0_addr),
                // Instruction 0 has no previous instruction (Mesa reads before its array).
                None => line.push_str("none"),
            }
            component(line, s);
        }
    });
}

/// Write `piece` of the instruction `c` (without the tab Mesa puts before it).
pub(crate) fn write_piece(line: &mut Line, c: &Context<'_>, piece: Piece) {
    let i = c.instr;
    match piece {
        Piece::Acc(k) => {
            let (unit, s0, s1, n0, n1) = if k == 0 {
                (Unit::Acc0, i.acc0_src0, i.acc0_src1, i.acc0_src0_neg, i.acc0_src1_neg)
            } else {
                (Unit::Acc1, i.acc1_src0, i.acc1_src1, i.acc1_src0_neg, i.acc1_src1_neg)
            };
            let suffix = if k == 0 { ".a0" } else { ".a1" };
            let mut srcs = 0;
            if s1 == src::IDENT && n1 != 0 {
                // add x, -0: a move.
                mnemonic_n_str(line, "mov", suffix);
                srcs = 1;
            } else {
                match ACC_OPS.get(usize::from(i.acc_op)).copied().flatten() {
                    Some((name, n)) => {
                        mnemonic_n_str(line, name, suffix);
                        srcs = n;
                    }
                    None => mnemonic_n(line, "op", i.acc_op, suffix),
                }
            }
            dest(line, c, unit);
            source(line, c, s0, unit, 0, n0 != 0);
            if srcs > 1 {
                source(line, c, s1, unit, 1, n1 != 0);
            }
        }
        Piece::Mul(k) => {
            let (unit, s0, s1, neg) = if k == 0 {
                (Unit::Mul0, i.mul0_src0, i.mul0_src1, i.mul0_neg)
            } else {
                (Unit::Mul1, i.mul1_src0, i.mul1_src1, i.mul1_neg)
            };
            if s1 == src::IDENT && neg == 0 {
                mnemonic(line, if k == 0 { "mov.m0" } else { "mov.m1" });
                dest(line, c, unit);
                source(line, c, s0, unit, 0, false);
            } else {
                let name = match (k, i.mul_op) {
                    (0, mul_op::COMPLEX2) => "complex2.m0",
                    (0, _) => "mul.m0",
                    _ => "mul.m1",
                };
                mnemonic(line, name);
                dest(line, c, unit);
                source(line, c, s0, unit, 0, false);
                source(line, c, s1, unit, 1, neg != 0);
            }
        }
        Piece::Wide => {
            match i.mul_op {
                mul_op::COMPLEX1 => mnemonic(line, "complex1.m01"),
                mul_op::SELECT => mnemonic(line, "sel.m01"),
                op => mnemonic_n(line, "unknown", op, ".m01"),
            }
            dest(line, c, Unit::Mul0);
            if i.mul_op == mul_op::SELECT {
                source(line, c, i.mul0_src1, Unit::Mul0, 1, false);
                source(line, c, i.mul0_src0, Unit::Mul0, 0, false);
                source(line, c, i.mul1_src0, Unit::Mul1, 0, false);
            } else {
                source(line, c, i.mul0_src0, Unit::Mul0, 0, false);
                source(line, c, i.mul0_src1, Unit::Mul0, 1, false);
                source(line, c, i.mul1_src0, Unit::Mul1, 0, false);
                source(line, c, i.mul1_src1, Unit::Mul1, 1, false);
            }
        }
        Piece::Complex => {
            match opcodes::complex_name(i.complex_op) {
                Some(name) => mnemonic(line, name),
                None => mnemonic_n(line, "unk", i.complex_op, ".c"),
            }
            dest(line, c, Unit::Complex);
            source(line, c, i.complex_src, Unit::Complex, 0, false);
        }
        Piece::StrayTab => {}
        Piece::Pass => {
            match opcodes::pass_name(i.pass_op) {
                Some(name) => mnemonic(line, name),
                None => mnemonic_n(line, "unk", i.pass_op, ".p"),
            }
            dest(line, c, Unit::Pass);
            source(line, c, i.pass_src, Unit::Pass, 0, false);
            if i.pass_op == pass_op::CLAMP {
                source(line, c, src::LOAD_X, Unit::Pass, 1, false);
                source(line, c, src::LOAD_Y, Unit::Pass, 2, false);
            }
        }
        Piece::Branch => {
            mnemonic(line, "branch");
            // The condition is the pass unit's result of this instruction.
            operand(line, false, Style::Register, |line| {
                line.push_str("^");
                push_signed(line, c.value(0, Unit::Pass as i64));
            });
            operand(line, false, Style::Label, |line| push_03(line, u64::from(i.target())));
        }
        Piece::Unknown1 => {
            mnemonic(line, "unknown_1");
            operand(line, false, Style::Literal, |line| push_number(line, u64::from(i.unknown_1)));
        }
        Piece::Nop => mnemonic(line, "nop"),
    }
}

/// A mnemonic made of a name and a unit suffix (`add` + `.a0`).
#[inline]
fn mnemonic_n_str(line: &mut Line, name: &str, suffix: &str) {
    line.style(Style::Mnemonic);
    line.push_str(name);
    line.push_str(suffix);
    line.reset();
}

/// Mesa's text: `NNN:` and the first unit, then a line `\t…` per further unit. A record per
/// unit line (a `nop` instruction: one `nop`), each with the instruction's offset and four
/// words. A dump field per instruction with its units' text
/// (`000: mul.m0 ^2/$2.y t[1].w a0.y; mul.m1 ^3/$2.x t[1].y a0.y`), one for the trailing
/// bytes.
impl PrintStep for Step<'_> {
    const PROBLEM_OFFSET: bool = true;

    fn list<P: Printer + ?Sized>(&self, l: &mut Listing<'_, P>) {
        if let Step::Fields { index, at, instr, implied } = *self {
            l.begin(at, []);
            l.line.style(Style::Comment);
            l.line.push_str(super::asm::FIELDS_COMMENT);
            push_03(&mut l.line, index);
            l.line.push_str(":");
            for (name, value) in super::asm::differing(instr, implied) {
                l.line.push_str(" ");
                l.line.push_str(name);
                l.line.push_str("=");
                push_number(&mut l.line, u64::from(value));
            }
            l.line.reset();
            l.end();
            return;
        }
        let Step::Instr { index, at, bits, instr, prev } = *self else { return };
        let c = Context { instr, prev, index };
        let (list, n) = pieces(instr);
        l.begin(at, words_of(bits));
        l.line.style(Style::Address);
        push_03(&mut l.line, index);
        l.line.push_str(":");
        l.line.reset();
        for &piece in list.iter().take(n) {
            l.begin(at, []);
            l.line.push_str("\t");
            if piece != Piece::StrayTab {
                write_piece(&mut l.line, &c, piece);
                l.end();
            }
        }
    }

    fn record<F: FnMut(InstructionRecord)>(&self, r: &mut Records<F>) {
        let Step::Instr { index, at, bits, instr, prev } = *self else { return };
        let c = Context { instr, prev, index };
        let (list, n) = pieces(instr);
        for &piece in list.iter().take(n) {
            if piece == Piece::StrayTab {
                continue;
            }
            write_piece(r.start(at), &c, piece);
            r.take(at, words_of(bits).to_vec());
        }
    }

    fn annotate(&self, an: &mut Annotate<'_>) {
        match *self {
            Step::Instr { index, at, instr, prev, .. } => {
                let c = Context { instr, prev, index };
                let (list, n) = pieces(instr);
                let line = &mut an.line;
                line.start(None);
                push_03(line, index);
                line.push_str(":");
                let mut first = true;
                for &piece in list.iter().take(n) {
                    if piece == Piece::StrayTab {
                        continue;
                    }
                    line.push_str(if first { " " } else { "; " });
                    write_piece(line, &c, piece);
                    first = false;
                }
                an.a.field(at, INSTR_SIZE as u64, an.line.as_str());
            }
            Step::Trailing { at, len } => {
                an.a.field(at, len, "trailing bytes (not a whole 16-byte instruction)");
            }
            Step::Fields { .. } => {}
        }
    }
}
