//! The visitors of the [walk](super::walk): the listing, the instruction records, the
//! problems, the `dump` annotations and the checks. The first two write each instruction
//! through the same per-instruction printer, [`write_text`].

use super::codegen::{Ctrl, Unit};
use super::text;
use super::walk::{Instruction, Visit};
use crate::error::Error;
use crate::isa::columns::Columns;
use crate::isa::{Capture, InstructionRecord};
use crate::model::Finding;
use crate::print::{Line, Printer, Style};
use std::fmt;

/// The instruction's text as Mesa prints it after `@%6d: `: the units present, in order,
/// joined by `, ` (each one operand), then `, sync` and `, stop`.
pub(crate) fn write_text(line: &mut Line, inst: &Instruction) {
    let mut first = true;
    for (unit, bits, _) in inst.units() {
        if !first {
            line.push_str(", ");
        }
        first = false;
        line.start_operand();
        text::unit(line, unit, bits, inst.pc);
        line.end_operand();
    }
    for (on, flag) in [(inst.ctrl.sync(), "sync"), (inst.ctrl.stop(), "stop")] {
        if on {
            line.push_str(", ");
            line.style(Style::Directive);
            line.push_str(flag);
            line.reset();
        }
    }
}

/// `@%6d: ` (the word offset), as an address.
fn write_pc(line: &mut Line, pc: u32) {
    line.style(Style::Address);
    line.push_str("@");
    line.push_u64_right(u64::from(pc), 6);
    line.push_str(":");
    line.reset();
    line.push_str(" ");
}

/// The listing, into a printer.
pub(crate) struct Listing<'p, P: Printer + ?Sized> {
    out: &'p mut P,
    line: Line,
    columns: Columns,
    failed: fmt::Result,
}

impl<'p, P: Printer + ?Sized> Listing<'p, P> {
    pub(crate) fn new(out: &'p mut P, columns: Columns) -> Self {
        let line = Line::for_sink(&*out);
        Listing { out, line, columns, failed: Ok(()) }
    }

    fn end(&mut self) {
        self.line.push_str("\n");
        if let Err(e) = self.line.end_line(self.out) {
            self.failed = self.failed.and(Err(e));
        }
    }

    /// Write what is left; the printer's first error, if any.
    pub(crate) fn finish(mut self) -> fmt::Result {
        let r = self.line.flush(self.out);
        self.failed.and(r)
    }
}

impl<P: Printer + ?Sized> Visit for Listing<'_, P> {
    fn instruction(&mut self, inst: &Instruction, bytes: &[u8]) {
        self.line.start(Some(inst.at));
        self.columns.write(
            &mut self.line,
            Some(inst.at),
            bytes.chunks_exact(4).filter_map(|w| w.first_chunk::<4>()).map(|w| u32::from_le_bytes(*w)),
        );
        write_pc(&mut self.line, inst.pc);
        write_text(&mut self.line, inst);
        self.end();
    }

    fn problem(&mut self, error: Error) {
        self.line.start(Some(error.offset()));
        self.columns.write(&mut self.line, None, []);
        self.line.style(Style::Comment);
        self.line.push_str("; ");
        let _ = fmt::Write::write_fmt(&mut self.line, format_args!("{error}"));
        self.line.reset();
        self.end();
    }
}

/// A visitor that keeps the first problem and passes everything on.
pub(crate) struct First<V> {
    pub(crate) inner: V,
    pub(crate) first: Option<Error>,
}

impl<V: Visit> Visit for First<V> {
    fn instruction(&mut self, inst: &Instruction, bytes: &[u8]) {
        self.inner.instruction(inst, bytes);
    }
    fn problem(&mut self, error: Error) {
        if self.first.is_none() {
            self.first = Some(error.clone());
        }
        self.inner.problem(error);
    }
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).filter_map(|w| w.first_chunk::<4>()).map(|w| u32::from_le_bytes(*w)).collect()
}

/// The instruction records, each printed by [`write_text`] into a [`Capture`] and handed to
/// `f` as it is made.
pub(crate) struct Records<F> {
    f: F,
    line: Line,
    capture: Capture,
}

impl<F: FnMut(InstructionRecord)> Records<F> {
    pub(crate) fn new(f: F) -> Self {
        Records { f, line: Line::new(), capture: Capture::default() }
    }
}

impl<F: FnMut(InstructionRecord)> Visit for Records<F> {
    fn instruction(&mut self, inst: &Instruction, bytes: &[u8]) {
        self.line.start(Some(inst.at));
        write_text(&mut self.line, inst);
        self.line.push_str("\n");
        let _ = self.line.flush(&mut self.capture);
        (self.f)(self.capture.record(inst.at, words_of(bytes)));
    }
    fn problem(&mut self, _error: Error) {}
}

/// The problems of a walk, in listing order.
#[derive(Default)]
pub(crate) struct Problems(pub(crate) Vec<Error>);

impl Visit for Problems {
    fn instruction(&mut self, _inst: &Instruction, _bytes: &[u8]) {}
    fn problem(&mut self, error: Error) {
        self.0.push(error);
    }
}

/// What the control word says, for `dump`.
fn describe_ctrl(ctrl: Ctrl) -> String {
    let mut s = format!("control word: count {}", ctrl.count());
    if ctrl.stop() {
        s.push_str(", stop");
    }
    if ctrl.sync() {
        s.push_str(", sync");
    }
    s.push_str(", fields ");
    let names: Vec<&str> = Unit::ALL.iter().filter(|u| ctrl.has(**u)).map(|u| u.name()).collect();
    s.push_str(if names.is_empty() { "none" } else { "" });
    s.push_str(&names.join("|"));
    s.push_str(&format!(", next_count {}", ctrl.next_count()));
    if ctrl.prefetch() {
        s.push_str(", prefetch");
    }
    if ctrl.unknown() != 0 {
        s.push_str(&format!(", unknown 0x{:x}", ctrl.unknown()));
    }
    s
}

/// The line's text with the trailing spaces Mesa leaves inside it kept, but none at the end.
fn unit_text(line: &mut Line, unit: Unit, bits: u128, pc: u32) -> String {
    line.start(None);
    text::unit(line, unit, bits, pc);
    line.as_str().trim_end().to_string()
}

/// The `dump` annotations: each instruction a section titled with its listing line, its
/// control word a field, each unit's field a field over the bytes it starts in up to where
/// the next begins (fields are bit strings that share bytes), the bits after the last
/// field as padding; the problems as errors.
pub(crate) struct Annotate<'a> {
    pub(crate) a: &'a mut crate::dump::Annotations,
    line: Line,
}

impl<'a> Annotate<'a> {
    pub(crate) fn new(a: &'a mut crate::dump::Annotations) -> Self {
        Annotate { a, line: Line::new() }
    }
}

impl Visit for Annotate<'_> {
    fn instruction(&mut self, inst: &Instruction, bytes: &[u8]) {
        self.line.start(None);
        write_text(&mut self.line, inst);
        let title = format!("instruction @{}: {}", inst.pc, self.line.as_str().trim_end());
        let len = bytes.len() as u64;
        self.a.section(inst.at, len, title);
        self.a.field(inst.at, len.min(4), describe_ctrl(inst.ctrl));
        let body = inst.at + 4;
        let units: Vec<(Unit, u128, u32)> = inst.units().collect();
        let field_end = inst.ctrl.field_bits();
        for (i, (unit, bits, start)) in units.iter().enumerate() {
            let end_bit = start + unit.bits();
            let next = units.get(i + 1).map_or(end_bit.div_ceil(8), |n| n.2 / 8);
            let from = u64::from(start / 8);
            let to = u64::from(next).max(from + 1);
            let text = unit_text(&mut self.line, *unit, *bits, inst.pc);
            self.a.field(
                body + from,
                to - from,
                format_args!("{} (bits {}..{} after the control word): {text}", unit.name(), start, end_bit),
            );
        }
        let used = u64::from(field_end.div_ceil(8));
        let body_len = len.saturating_sub(4);
        if body_len > used {
            self.a.field(body + used, body_len - used, "padding (no unit field)");
        }
    }

    fn problem(&mut self, error: Error) {
        self.a.error(error.offset(), error);
    }
}

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

impl Visit for Check {
    fn instruction(&mut self, inst: &Instruction, _bytes: &[u8]) {
        self.instructions.push((inst.pc, inst.at, inst.ctrl));
        if inst.ctrl.unknown() != 0 {
            self.findings.push(Finding::warning(
                inst.at,
                format!("control word bits 26-31 are 0x{:x} (0 in every known program)", inst.ctrl.unknown()),
            ));
        }
        for (unit, bits, _) in inst.units() {
            if let Some(op) = text::unknown_opcode(unit, bits) {
                self.findings.push(Finding::warning(
                    inst.at,
                    format!("{} opcode {op} is not one Mesa names (listed as op{op})", unit.name()),
                ));
            }
        }
        if let Some(b) = inst.branch() {
            self.branches.push((inst.at, i64::from(text::branch_target(&b, inst.pc))));
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
