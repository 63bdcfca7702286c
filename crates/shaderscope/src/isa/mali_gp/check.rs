//! The checks of a program: its problems as errors (among them reads from before the start
//! of the program, [`reads_before_start`]), and as warnings what Mesa's tables leave
//! undefined.

use super::decode::Instr;
use super::opcodes::{ACC_OPS, LOAD_OFF_NONE, STORE_SRC_UNKNOWN, Unit, complex_name, mul_op, pass_name, src};
use super::print::{Piece, pieces};
use super::walk::Step;
use crate::error::Error;
use crate::isa::walk::Visit;
use crate::model::Finding;

/// The sources a piece reads: (source, unit, source number).
fn sources(i: &Instr, piece: Piece) -> ([(u16, Unit, u8); 4], usize) {
    let mut out = [(src::UNUSED, Unit::Acc0, 0); 4];
    let list: &[(u16, Unit, u8)] = match piece {
        Piece::Acc(0) => &[(i.acc0_src0, Unit::Acc0, 0), (i.acc0_src1, Unit::Acc0, 1)],
        Piece::Acc(_) => &[(i.acc1_src0, Unit::Acc1, 0), (i.acc1_src1, Unit::Acc1, 1)],
        Piece::Mul(0) => &[(i.mul0_src0, Unit::Mul0, 0), (i.mul0_src1, Unit::Mul0, 1)],
        Piece::Mul(_) => &[(i.mul1_src0, Unit::Mul1, 0), (i.mul1_src1, Unit::Mul1, 1)],
        Piece::Wide => &[
            (i.mul0_src0, Unit::Mul0, 0),
            (i.mul0_src1, Unit::Mul0, 1),
            (i.mul1_src0, Unit::Mul1, 0),
            (i.mul1_src1, Unit::Mul1, 1),
        ],
        Piece::Complex => &[(i.complex_src, Unit::Complex, 0)],
        Piece::Pass => &[(i.pass_src, Unit::Pass, 0)],
        _ => &[],
    };
    // Only the sources Mesa prints are read: one for a move or a one-source adder
    // operation, three for `select`.
    let used = match piece {
        Piece::Acc(k) => {
            let (s1, n1) =
                if k == 0 { (i.acc0_src1, i.acc0_src1_neg) } else { (i.acc1_src1, i.acc1_src1_neg) };
            if s1 == src::IDENT && n1 != 0 {
                1
            } else {
                ACC_OPS.get(usize::from(i.acc_op)).copied().flatten().map_or(1, |(_, n)| usize::from(n))
            }
        }
        Piece::Mul(k) => {
            let (s1, neg) = if k == 0 { (i.mul0_src1, i.mul0_neg) } else { (i.mul1_src1, i.mul1_neg) };
            if s1 == src::IDENT && neg == 0 { 1 } else { 2 }
        }
        Piece::Wide if i.mul_op == mul_op::SELECT => 3,
        _ => list.len(),
    };
    for (slot, s) in out.iter_mut().zip(list) {
        *slot = *s;
    }
    (out, used.min(list.len()))
}

/// How many instructions back a source reads a result from (0: none; the identity value of
/// an adder's or multiplier's second source reads nothing).
fn reads_back(s: u16, unit: Unit, num: u8) -> u64 {
    match s {
        16..=20 | 28..=31 => 1,
        src::IDENT if num == 1 && !matches!(unit, Unit::Complex | Unit::Pass) => 0,
        src::IDENT => 1,
        23..=27 => 2,
        _ => 0,
    }
}

/// Each source of instruction `index` that reads a result from before the start of the
/// program (Mesa reads the memory before its array there): the source and what it reads.
pub(crate) fn reads_before_start(index: u64, i: &Instr) -> Vec<(u16, &'static str)> {
    let mut out = Vec::new();
    let (list, n) = pieces(i);
    for &piece in list.iter().take(n) {
        let (srcs, m) = sources(i, piece);
        for &(s, unit, num) in srcs.iter().take(m) {
            let back = reads_back(s, unit, num);
            if back > index {
                out.push((
                    s,
                    if s >= src::P1_ATTRIB_X {
                        "the register-0 port of the previous instruction (listed as none)"
                    } else if back == 1 {
                        "a result of the previous instruction"
                    } else {
                        "a result of the instruction two before"
                    },
                ));
            }
        }
    }
    out
}

/// The findings of a walk.
#[derive(Default)]
pub(crate) struct Check {
    pub(crate) findings: Vec<Finding>,
}

impl Check {
    fn warn(&mut self, at: u64, index: u64, message: std::fmt::Arguments<'_>) {
        self.findings.push(Finding::warning(at, format!("instruction {index:03}: {message}")));
    }
}

impl Visit<Step<'_>> for Check {
    fn step(&mut self, step: Step<'_>) {
        if let Step::Instr { index, at, instr, .. } = step {
            self.instr(index, at, instr);
        }
    }

    fn problem(&mut self, error: Error) {
        self.findings.push(Finding::error(error.offset(), error.reason()));
    }
}

impl Check {
    fn instr(&mut self, index: u64, at: u64, i: &Instr) {
        let (list, n) = pieces(i);
        let mut loads = false;
        let mut acc_undefined = false;
        for &piece in list.iter().take(n) {
            let (srcs, m) = sources(i, piece);
            for &(s, _, _) in srcs.iter().take(m) {
                if (8..=11).contains(&s) {
                    self.warn(
                        at,
                        index,
                        format_args!("source {s} (unknown{}) is undefined", s - src::UNKNOWN_0),
                    );
                }
                loads |= (12..=15).contains(&s);
            }
            match piece {
                Piece::Acc(k)
                    if !acc_undefined && ACC_OPS.get(usize::from(i.acc_op)).copied().flatten().is_none() =>
                {
                    // A move (`add x, -0`) does not use the operation.
                    let (s1, n1) =
                        if k == 0 { (i.acc0_src1, i.acc0_src1_neg) } else { (i.acc1_src1, i.acc1_src1_neg) };
                    if !(s1 == src::IDENT && n1 != 0) {
                        acc_undefined = true;
                        self.warn(at, index, format_args!("acc_op {} is undefined", i.acc_op));
                    }
                }
                Piece::Wide if !matches!(i.mul_op, mul_op::COMPLEX1 | mul_op::SELECT) => {
                    self.warn(at, index, format_args!("mul_op {} is undefined", i.mul_op));
                }
                Piece::Complex if complex_name(i.complex_op).is_none() => {
                    self.warn(at, index, format_args!("complex_op {} is undefined", i.complex_op));
                }
                Piece::Pass if pass_name(i.pass_op).is_none() => {
                    self.warn(at, index, format_args!("pass_op {} is undefined", i.pass_op));
                }
                Piece::Pass if i.pass_op == super::opcodes::pass_op::CLAMP => loads = true,
                _ => {}
            }
        }
        if loads && !matches!(i.load_offset, 1..=3 | LOAD_OFF_NONE) {
            self.warn(at, index, format_args!("load_offset {} is undefined", i.load_offset));
        }
        for (name, s) in [
            ("store0_src_x", i.store0_src_x),
            ("store0_src_y", i.store0_src_y),
            ("store1_src_z", i.store1_src_z),
            ("store1_src_w", i.store1_src_w),
        ] {
            if s == STORE_SRC_UNKNOWN {
                self.warn(at, index, format_args!("{name} {s} names no unit"));
            }
        }
    }
}
