//! The checks of a program: the problems of the [walk](super::walk) as errors; `next_count`
//! against the next instruction's count, the end without `stop`, undefined control bits,
//! opcodes Mesa does not name and branch targets between instructions as warnings.

use super::decode::{Ctrl, operation};
use super::walk::Step;
use crate::error::Error;
use crate::isa::walk::Visit;
use crate::model::Finding;

/// The checks: the problems as errors; `next_count` against the next instruction's count,
/// the end without `stop`, undefined control bits, opcodes Mesa does not name and branch
/// targets between instructions as warnings.
#[derive(Default)]
pub(crate) struct Check {
    pub(crate) findings: Vec<Finding>,
    /// Word offset, absolute offset and control word of each instruction, in order.
    instructions: Vec<(u32, u64, Ctrl)>,
    /// Each branch: its instruction's absolute offset and its absolute target word.
    branches: Vec<(u64, i64)>,
}

impl Visit<Step<'_>> for Check {
    fn step(&mut self, step: Step<'_>) {
        let inst = step.inst;
        self.instructions.push((inst.pc, inst.at, inst.ctrl));
        if inst.ctrl.unknown() != 0 {
            self.findings.push(Finding::warning(
                inst.at,
                format!("control word bits 26-31 are 0x{:x} (0 in every known program)", inst.ctrl.unknown()),
            ));
        }
        for (unit, bits, _) in inst.units() {
            if let Some((op, None)) = operation(unit, bits) {
                self.findings.push(Finding::warning(
                    inst.at,
                    format!("{} opcode {op} is not one Mesa names (listed as op{op})", unit.name()),
                ));
            }
        }
        if let Some(b) = inst.branch() {
            self.branches.push((inst.at, i64::from(b.absolute_target(inst.pc))));
        }
    }

    fn problem(&mut self, error: Error) {
        self.findings.push(Finding::error(error.offset(), error.reason()));
    }
}

impl Check {
    /// The findings that need the whole program.
    pub(crate) fn finish(mut self) -> Vec<Finding> {
        for pair in self.instructions.windows(2) {
            if let [(_, at, ctrl), (_, _, next)] = pair
                && ctrl.next_count() != next.count()
            {
                self.findings.push(Finding::warning(
                    *at,
                    format!(
                        "next_count is {} but the next instruction's count is {}",
                        ctrl.next_count(),
                        next.count()
                    ),
                ));
            }
        }
        if let Some((_, at, ctrl)) = self.instructions.last() {
            if ctrl.next_count() != 0 {
                self.findings.push(Finding::warning(
                    *at,
                    format!(
                        "the last instruction's next_count is {} (0 where no instruction follows)",
                        ctrl.next_count()
                    ),
                ));
            }
            if !ctrl.stop() {
                self.findings.push(Finding::warning(
                    *at,
                    "the last instruction has no stop bit: the program runs past its end",
                ));
            }
        }
        for (at, target) in &self.branches {
            let starts = self.instructions.binary_search_by_key(target, |(pc, _, _)| i64::from(*pc)).is_ok();
            let inside =
                self.instructions.last().is_some_and(|(pc, _, _)| *target >= 0 && *target <= i64::from(*pc));
            if inside && !starts {
                self.findings.push(Finding::warning(
                    *at,
                    format!("branch target {target} is not the start of an instruction"),
                ));
            }
        }
        self.findings.sort_by_key(|f| f.offset);
        self.findings
    }
}
