//! The walk over a program's instructions and its visitors: the listing, the records, the
//! problems and the dump annotations, all printing each unit through
//! [`text::write_piece`](super::text::write_piece).

use super::fields::{Instr, bits_of, words_of};
use super::text::{Context, Piece, pieces, push_03, write_piece};
use crate::error::Error;
use crate::isa::columns::Columns;
use crate::isa::{Capture, InstructionRecord};
use crate::print::{Line, Printer, Style, count};
use std::fmt;

/// Bytes of one instruction.
pub(crate) const INSTR_SIZE: usize = 16;

/// What a walk hands its visitor.
pub(crate) trait Visit {
    /// Instruction `index`, at absolute offset `at`, after `prev`.
    fn instr(&mut self, index: u64, at: u64, bits: u128, instr: &Instr, prev: Option<&Instr>);
    /// Something that cannot be read or is wrong, where it is found.
    fn problem(&mut self, error: Error);
    /// `len` bytes at `at` after the last whole instruction (reported as a problem next).
    fn trailing(&mut self, _at: u64, _len: u64) {}
}

/// Visit every instruction of `code` (first byte at absolute offset `base`), then the bytes
/// after the last whole instruction. A branch past the end is reported after its
/// instruction.
pub(crate) fn walk(code: &[u8], base: u64, v: &mut impl Visit) {
    let whole = code.chunks_exact(INSTR_SIZE);
    let rest = whole.remainder().len();
    let n = (code.len() / INSTR_SIZE) as u64;
    let mut prev: Option<Instr> = None;
    for (index, bytes) in whole.enumerate() {
        let Some(bytes) = bytes.first_chunk::<INSTR_SIZE>() else { break };
        let index = index as u64;
        let at = base.saturating_add(index * INSTR_SIZE as u64);
        let bits = bits_of(bytes);
        let instr = Instr::decode(bits);
        v.instr(index, at, bits, &instr, prev.as_ref());
        for (s, what) in super::check::reads_before_start(index, &instr) {
            v.problem(Error::invalid(
                at,
                "Mali GP instruction",
                format!("instruction {index:03}: source {s} reads {what}, which is before the start of the program"),
            ));
        }
        if instr.branch != 0 {
            let target = u64::from(instr.target());
            // The target is an absolute instruction index (0–511), so it cannot be before
            // the start; the end of the program (index n) is where a branch may go.
            if target > n {
                v.problem(Error::invalid(
                    at,
                    "Mali GP branch",
                    format!(
                        "instruction {index:03} branches to instruction {target:03} (offset 0x{:x}), past the \
                         end of the program ({})",
                        base.saturating_add(target * INSTR_SIZE as u64),
                        count(n, "instruction")
                    ),
                ));
            }
        }
        prev = Some(instr);
    }
    if rest != 0 {
        let at = base.saturating_add((code.len() - rest) as u64);
        v.trailing(at, rest as u64);
        // The last instruction is cut short: `lima_disasm` lists size / 16 instructions.
        v.problem(Error::truncated(at, "Mali GP instruction", INSTR_SIZE as u64, rest as u64));
    }
}

/// The listing, in Mesa's text: `NNN:` and the first unit, then a line `\t…` per further
/// unit.
pub(crate) struct Listing<'p, P: Printer + ?Sized> {
    out: &'p mut P,
    line: Line,
    columns: Columns,
    /// A line is started and not ended: Mesa wrote the tab of a unit and nothing else (a
    /// complex unit with a source and the `nop` operation), so the next text goes on it.
    open: bool,
    failed: fmt::Result,
}

impl<'p, P: Printer + ?Sized> Listing<'p, P> {
    pub(crate) fn new(out: &'p mut P, columns: Columns) -> Self {
        let line = Line::for_sink(&*out);
        Listing { out, line, columns, open: false, failed: Ok(()) }
    }

    /// Start a line showing the instruction at `at` (its columns), unless one is open.
    fn begin(&mut self, at: u64, words: Option<[u32; 4]>) {
        if !self.open {
            self.line.start(Some(at));
            self.columns.write(&mut self.line, Some(at), words.into_iter().flatten());
            self.open = true;
        }
    }

    fn end(&mut self) {
        self.line.push_str("\n");
        self.open = false;
        if let Err(e) = self.line.end_line(self.out) {
            self.failed = self.failed.and(Err(e));
        }
    }

    /// Write what is left; the printer's first error, if any.
    pub(crate) fn finish(mut self) -> fmt::Result {
        if self.open {
            self.end();
        }
        let r = self.line.flush(self.out);
        self.failed.and(r)
    }
}

impl<P: Printer + ?Sized> Visit for Listing<'_, P> {
    fn instr(&mut self, index: u64, at: u64, bits: u128, instr: &Instr, prev: Option<&Instr>) {
        let c = Context { instr, prev, index };
        let (list, n) = pieces(instr);
        self.begin(at, Some(words_of(bits)));
        self.line.style(Style::Address);
        push_03(&mut self.line, index);
        self.line.push_str(":");
        self.line.reset();
        for &piece in list.iter().take(n) {
            self.begin(at, None);
            self.line.push_str("\t");
            if piece != Piece::StrayTab {
                write_piece(&mut self.line, &c, piece);
                self.end();
            }
        }
    }

    fn problem(&mut self, error: Error) {
        self.begin(error.offset(), None);
        self.line.style(Style::Comment);
        self.line.push_str("; ");
        let _ = fmt::Write::write_fmt(&mut self.line, format_args!("{error}"));
        self.line.reset();
        self.end();
    }
}

/// The instruction records: one per unit line (a `nop` instruction: one `nop`), each with
/// the instruction's offset and four words, printed by the listing's printer into a
/// [`Capture`] and handed to `f` as it is made.
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
    fn instr(&mut self, index: u64, at: u64, bits: u128, instr: &Instr, prev: Option<&Instr>) {
        let c = Context { instr, prev, index };
        let (list, n) = pieces(instr);
        for &piece in list.iter().take(n) {
            if piece == Piece::StrayTab {
                continue;
            }
            self.line.start(Some(at));
            write_piece(&mut self.line, &c, piece);
            self.line.push_str("\n");
            let _ = self.line.flush(&mut self.capture);
            (self.f)(self.capture.record(at, words_of(bits).to_vec()));
        }
    }

    fn problem(&mut self, _error: Error) {}
}

/// The problems of a walk, in listing order.
#[derive(Default)]
pub(crate) struct Problems(pub(crate) Vec<Error>);

impl Visit for Problems {
    fn instr(&mut self, _: u64, _: u64, _: u128, _: &Instr, _: Option<&Instr>) {}
    fn problem(&mut self, error: Error) {
        self.0.push(error);
    }
}

/// The `dump` annotations: each instruction a field with its units' text
/// (`000: mul.m0 ^2/$2.y t[1].w a0.y; mul.m1 ^3/$2.x t[1].y a0.y`), the bytes after the
/// last whole instruction a field, the problems errors.
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
    fn instr(&mut self, index: u64, at: u64, _bits: u128, instr: &Instr, prev: Option<&Instr>) {
        let c = Context { instr, prev, index };
        let (list, n) = pieces(instr);
        self.line.start(None);
        push_03(&mut self.line, index);
        self.line.push_str(":");
        let mut first = true;
        for &piece in list.iter().take(n) {
            if piece == Piece::StrayTab {
                continue;
            }
            self.line.push_str(if first { " " } else { "; " });
            write_piece(&mut self.line, &c, piece);
            first = false;
        }
        self.a.field(at, INSTR_SIZE as u64, self.line.as_str());
    }

    fn trailing(&mut self, at: u64, len: u64) {
        self.a.field(at, len, "trailing bytes (not a whole 16-byte instruction)");
    }

    fn problem(&mut self, error: Error) {
        self.a.error(error.offset(), error);
    }
}
