//! The checks of a program: every problem of the [walk](super::walk) as an error, and values
//! the R700 document leaves undefined as warnings.

use super::alu;
use super::cf::ClauseKind;
use super::vtx::Vtx;
use super::walk::Step;
use crate::error::Error;
use crate::isa::walk::Visit;
use crate::model::Finding;

/// The visitor behind [`check`](super::check()): every problem of the walk as an error, and
/// values the R700 document leaves undefined as warnings.
#[derive(Default)]
pub(crate) struct CheckVisitor {
    pub(crate) findings: Vec<Finding>,
}

impl CheckVisitor {
    fn warn(&mut self, at: u64, message: String) {
        self.findings.push(Finding::warning(at, message));
    }
}

impl Visit<Step<'_>> for CheckVisitor {
    fn step(&mut self, step: Step<'_>) {
        match step {
            Step::Cf { pc, at, cf, .. } => {
                if cf.name().is_none() {
                    self.warn(
                        at,
                        format!("control-flow instruction {pc} has an undefined CF_INST 0x{:02x}", cf.inst()),
                    );
                }
            }
            Step::Group { number, at, group, units, .. } => self.group(number, at, group, units),
            Step::Fetch { number, at, kind, inst, .. } => self.fetch(number, at, kind, inst),
            Step::CfDone { .. } | Step::Rest { .. } => {}
        }
    }

    fn problem(&mut self, error: Error) {
        self.findings.push(Finding::error(error.offset(), error.reason()));
    }
}

impl CheckVisitor {
    fn group(&mut self, number: u64, at: u64, group: &alu::Group, units: &[(usize, bool); 5]) {
        for (i, (&inst, (unit, _))) in group.insts().iter().zip(units).enumerate() {
            let at = at + 8 * i as u64;
            let kind = if inst.is_op3() { "OP3" } else { "OP2" };
            if inst.op().is_none() {
                self.warn(at, format!("ALU group {number}: undefined {kind} opcode 0x{:02x}", inst.opcode()));
            }
            let swizzle = inst.get(alu::BANK_SWIZZLE);
            if swizzle > if *unit == alu::T { 3 } else { 5 } {
                self.warn(at, format!("ALU group {number}: undefined bank swizzle {swizzle}"));
            }
            if inst.get(alu::PRED_SEL) == 1 {
                self.warn(at, format!("ALU group {number}: undefined PRED_SEL 1"));
            }
            for s in 0..inst.src_count() {
                let sel = inst.source(s).sel;
                if (192..244).contains(&sel) {
                    self.warn(
                        at,
                        format!("ALU group {number}: source {s} selects the undefined value {sel}"),
                    );
                }
            }
        }
    }

    fn fetch(&mut self, number: u64, at: u64, kind: ClauseKind, raw: u128) {
        let defined = match kind {
            ClauseKind::Tex => true,
            ClauseKind::Vtx => super::opcodes::vtx_name(Vtx(raw).inst()).is_some(),
        };
        if !defined {
            self.warn(at, format!("fetch {number}: undefined VTX_INST {}", Vtx(raw).inst()));
        }
    }
}
