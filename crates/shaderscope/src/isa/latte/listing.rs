//! The listing and the instruction records: two visitors of the [walk](super::walk) that
//! write every instruction through the same per-instruction printers ([`cf::write_text`],
//! [`alu::write_text`], [`tex::write_text`], [`vtx::write_text`]).

use super::alu::{self, Group};
use super::cf::{self, Cf, ClauseKind};
use super::tex::{self, Tex};
use super::text::{number_len, push_number};
use super::vtx::{self, Vtx};
use super::walk::Visit;
use crate::error::Error;
use crate::isa::columns::Columns;
use crate::isa::{Capture, InstructionRecord};
use crate::print::{Line, Printer, Style};
use std::fmt;

/// `n` in decimal, then spaces to `width` columns.
fn number_left(line: &mut Line, n: u64, width: usize) {
    push_number(line, n);
    line.push_spaces(width.saturating_sub(number_len(n)));
}

/// The listing as decaf prints it, into a printer.
pub(crate) struct Listing<'p, P: Printer + ?Sized> {
    out: &'p mut P,
    line: Line,
    columns: Columns,
    /// The first error the printer gave.
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

    fn blank(&mut self) {
        self.line.start(None);
        self.end();
    }

    /// Write what is left; the printer's first error, if any.
    pub(crate) fn finish(mut self) -> fmt::Result {
        let r = self.line.flush(self.out);
        self.failed.and(r)
    }
}

impl<P: Printer + ?Sized> Visit for Listing<'_, P> {
    fn cf(&mut self, pc: u32, at: u64, cf: Cf, depth: usize) {
        let line = &mut self.line;
        line.start(Some(at));
        self.columns.write(line, Some(at), cf.words());
        line.push_spaces(2 * depth);
        line.style(Style::Address);
        if pc < 10 {
            line.push_str("0");
        }
        line.push_u64(u64::from(pc));
        line.reset();
        line.push_str(" ");
        cf::write_text(line, cf);
        self.end();
    }

    fn group(
        &mut self,
        number: u64,
        at: u64,
        depth: usize,
        group: &Group,
        units: &[(usize, bool); 5],
        first: bool,
    ) {
        if !first {
            self.blank();
        }
        for (i, (inst, (unit, _))) in group.insts().iter().zip(units).enumerate() {
            let at = at + 8 * i as u64;
            let line = &mut self.line;
            line.start(Some(at));
            if self.columns.any() {
                let mut words = [0u32; 6];
                let [w0, w1] = inst.words();
                words[0] = w0;
                words[1] = w1;
                let mut n = 2;
                // The group's literals show with its last instruction.
                if i + 1 == group.len {
                    for (w, lit) in
                        words.iter_mut().skip(2).zip(group.literals.iter().take(group.literal_words))
                    {
                        *w = *lit;
                        n += 1;
                    }
                }
                self.columns.write(line, Some(at), words.get(..n).unwrap_or(&[]).iter().copied());
            }
            line.push_spaces(2 * depth + 2);
            if i == 0 {
                line.style(Style::Address);
                number_left(line, number, 3);
                line.reset();
            } else {
                line.push_spaces(3);
            }
            line.push_str(" ");
            line.style(Style::Directive);
            line.push_str(alu::UNIT_NAMES.get(*unit).copied().unwrap_or("?"));
            line.reset();
            line.push_str(": ");
            alu::write_text(
                line,
                *inst,
                number as i64,
                group.literals.get(..group.literals_read).unwrap_or(&[]),
            );
            self.end();
        }
    }

    fn fetch(&mut self, number: u64, at: u64, depth: usize, kind: ClauseKind, inst: u128) {
        self.blank();
        let line = &mut self.line;
        line.start(Some(at));
        self.columns.write(line, Some(at), Tex(inst).words());
        line.push_spaces(2 * depth + 2);
        line.style(Style::Address);
        number_left(line, number, 3);
        line.reset();
        line.push_spaces(4);
        match kind {
            ClauseKind::Tex => tex::write_text(line, Tex(inst)),
            ClauseKind::Vtx => vtx::write_text(line, Vtx(inst)),
        }
        self.end();
    }

    fn cf_done(&mut self, _cf: Cf, ends: bool) {
        self.blank();
        if ends {
            self.line.start(None);
            self.columns.write(&mut self.line, None, []);
            self.line.style(Style::Directive);
            self.line.push_str("END_OF_PROGRAM");
            self.line.reset();
            self.end();
        }
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

/// The instruction records: one per control-flow instruction, ALU instruction and fetch,
/// each printed by the listing's printer into a [`Capture`] and handed to `f` as it is made.
pub(crate) struct Records<F> {
    f: F,
    line: Line,
    capture: Capture,
}

impl<F: FnMut(InstructionRecord)> Records<F> {
    pub(crate) fn new(f: F) -> Self {
        Records { f, line: Line::new(), capture: Capture::default() }
    }

    fn take(&mut self, at: u64, words: Vec<u32>) {
        self.line.push_str("\n");
        let _ = self.line.flush(&mut self.capture);
        (self.f)(self.capture.record(at, words));
    }
}

impl<F: FnMut(InstructionRecord)> Visit for Records<F> {
    fn cf(&mut self, _pc: u32, at: u64, cf: Cf, _depth: usize) {
        self.line.start(Some(at));
        cf::write_text(&mut self.line, cf);
        self.take(at, cf.words().to_vec());
    }

    fn group(
        &mut self,
        number: u64,
        at: u64,
        _depth: usize,
        group: &Group,
        units: &[(usize, bool); 5],
        _first: bool,
    ) {
        for (i, (inst, (unit, _))) in group.insts().iter().zip(units).enumerate() {
            let at = at + 8 * i as u64;
            self.line.start(Some(at));
            self.line.style(Style::Directive);
            self.line.push_str(alu::UNIT_NAMES.get(*unit).copied().unwrap_or("?"));
            self.line.reset();
            self.line.push_str(": ");
            alu::write_text(
                &mut self.line,
                *inst,
                number as i64,
                group.literals.get(..group.literals_read).unwrap_or(&[]),
            );
            self.take(at, inst.words().to_vec());
        }
    }

    fn fetch(&mut self, _number: u64, at: u64, _depth: usize, kind: ClauseKind, inst: u128) {
        self.line.start(Some(at));
        match kind {
            ClauseKind::Tex => tex::write_text(&mut self.line, Tex(inst)),
            ClauseKind::Vtx => vtx::write_text(&mut self.line, Vtx(inst)),
        }
        self.take(at, Tex(inst).words().to_vec());
    }

    fn cf_done(&mut self, _cf: Cf, _ends: bool) {}

    fn problem(&mut self, _error: Error) {}
}

/// The problems of a walk, in listing order.
#[derive(Default)]
pub(crate) struct Problems(pub(crate) Vec<Error>);

impl Visit for Problems {
    fn cf(&mut self, _pc: u32, _at: u64, _cf: Cf, _depth: usize) {}
    fn group(&mut self, _: u64, _: u64, _: usize, _: &Group, _: &[(usize, bool); 5], _: bool) {}
    fn fetch(&mut self, _: u64, _: u64, _: usize, _: ClauseKind, _: u128) {}
    fn cf_done(&mut self, _cf: Cf, _ends: bool) {}
    fn problem(&mut self, error: Error) {
        self.0.push(error);
    }
}

/// The `dump` annotations of a program: each control-flow instruction, ALU instruction,
/// literal pair and fetch as a field with its listing text, each clause as a section, and the
/// walk's problems as errors. The caller claims the rest (padding no instruction reaches).
pub(crate) struct Annotate<'a> {
    pub(crate) a: &'a mut crate::dump::Annotations,
    line: Line,
    text: String,
    /// The number of the control-flow instruction whose clause comes next.
    pc: u32,
}

impl<'a> Annotate<'a> {
    pub(crate) fn new(a: &'a mut crate::dump::Annotations) -> Self {
        Annotate { a, line: Line::new(), text: String::new(), pc: 0 }
    }

    /// The line's text with its column padding as single spaces.
    fn take_text(&mut self) -> &str {
        self.text.clear();
        for (i, word) in self.line.as_str().split_whitespace().enumerate() {
            if i > 0 {
                self.text.push(' ');
            }
            self.text.push_str(word);
        }
        self.line.start(None);
        &self.text
    }
}

impl Visit for Annotate<'_> {
    fn cf(&mut self, pc: u32, at: u64, cf: Cf, _depth: usize) {
        self.pc = pc;
        self.line.start(None);
        cf::write_text(&mut self.line, cf);
        let text = format!("CF {pc:02}: {}", self.take_text());
        self.a.field(at, 8, text);
        if let Some((addr, count)) = cf.alu_clause() {
            self.a.section(
                at.saturating_sub(8 * u64::from(pc)) + 8 * u64::from(addr),
                8 * u64::from(count),
                format_args!("ALU clause of CF {pc:02}"),
            );
        } else if let Some((kind, addr, count)) = cf.fetch_clause() {
            let what = match kind {
                ClauseKind::Tex => "TEX",
                ClauseKind::Vtx => "VTX",
            };
            self.a.section(
                at.saturating_sub(8 * u64::from(pc)) + 8 * u64::from(addr),
                16 * u64::from(count),
                format_args!("{what} clause of CF {pc:02}"),
            );
        }
    }

    fn group(&mut self, number: u64, at: u64, _: usize, group: &Group, units: &[(usize, bool); 5], _: bool) {
        let literals = group.literals.get(..group.literals_read).unwrap_or(&[]);
        for (i, (inst, (unit, _))) in group.insts().iter().zip(units).enumerate() {
            self.line.start(None);
            alu::write_text(&mut self.line, *inst, number as i64, literals);
            let unit = alu::UNIT_NAMES.get(*unit).copied().unwrap_or("?");
            let text = format!("ALU group {number} {unit}: {}", self.take_text());
            self.a.field(at + 8 * i as u64, 8, text);
        }
        let lits = at + 8 * group.len as u64;
        for (pair, words) in group.literals.chunks(2).take(group.literal_words.div_ceil(2)).enumerate() {
            let shown = words.iter().take(group.literal_words.saturating_sub(2 * pair));
            let mut text = format!("ALU group {number} literals {}:", 2 * pair);
            for w in shown {
                text.push_str(&format!(
                    " 0x{w:08X} ({})",
                    crate::print::float::f32_shortest_text(*w).as_str()
                ));
            }
            let len = 4 * (group.literal_words.saturating_sub(2 * pair)).min(2) as u64;
            self.a.field(lits + 8 * pair as u64, len, text);
        }
    }

    fn fetch(&mut self, number: u64, at: u64, _: usize, kind: ClauseKind, inst: u128) {
        self.line.start(None);
        match kind {
            ClauseKind::Tex => tex::write_text(&mut self.line, Tex(inst)),
            ClauseKind::Vtx => vtx::write_text(&mut self.line, Vtx(inst)),
        }
        let text = format!("fetch {number}: {}", self.take_text());
        self.a.field(at, 16, text);
    }

    fn cf_done(&mut self, _cf: Cf, _ends: bool) {}

    fn problem(&mut self, error: Error) {
        self.a.error(error.offset(), error);
    }
}
