//! The shape every walk of an instruction set has (Latte, Mali GP, Mali PP, SM4): one walk
//! over a program hands its visitor each step, in listing order, and each problem where it
//! is found ([`Visit`]). What a step is belongs to the instruction set (Latte: a control-flow
//! instruction, an ALU group, a fetch, the end of a clause; Mali GP: an instruction, the
//! bytes after the last whole one; Mali PP: an instruction with its bytes; SM4: an
//! instruction decoded as far as its header); how one step prints too ([`PrintStep`]). The
//! visitors whose code is the same for the code-only instruction sets are here, written once
//! (SM4's printer keeps its own line plumbing for fxc's layout): the listing's line and printer-error plumbing ([`Listing`]), the instruction
//! records made through a [`Capture`] ([`Records`]), the problems ([`Problems`], [`First`])
//! and the `dump` annotations ([`Annotate`]). The checks and Latte's usage summary are each
//! instruction set's own visitors.

#[cfg(any(feature = "wiiu", feature = "mali"))]
use super::columns::Columns;
use super::{Capture, InstructionRecord};
#[cfg(any(feature = "wiiu", feature = "mali"))]
use crate::dump::Annotations;
use crate::error::Error;
#[cfg(any(feature = "wiiu", feature = "mali"))]
use crate::error::Result;
use crate::print::Line;
#[cfg(any(feature = "wiiu", feature = "mali"))]
use crate::print::{Printer, Style};
#[cfg(any(feature = "wiiu", feature = "mali"))]
use std::fmt;

/// What a walk reports, in listing order: each step `S` (the instruction set's own type),
/// and what cannot be read or is invalid, as an [`Error`] at its absolute offset.
pub(crate) trait Visit<S> {
    /// One step of the walk.
    fn step(&mut self, step: S);
    /// Something that cannot be read or is invalid, where it is found.
    fn problem(&mut self, error: Error);
    /// Whether the visitor has met an error it cannot go past, so the walk is to stop. Only
    /// the SM4 walk asks: its printer decodes operands as it prints them and stops at the
    /// first that does not decode; the other walks go on to their end.
    #[cfg_attr(not(feature = "direct3d"), allow(dead_code))]
    fn stopped(&self) -> bool {
        false
    }
}

/// How one step of a walk prints: its listing lines, its instruction records and its `dump`
/// annotations, each through the plumbing here.
#[cfg(any(feature = "wiiu", feature = "mali"))]
pub(crate) trait PrintStep {
    /// Whether a problem's listing line shows the offset column. Mali GP's do (a problem is
    /// at its instruction's offset and may go on the line a stray tab left open); Latte's
    /// and Mali PP's leave it blank, as they always have.
    const PROBLEM_OFFSET: bool = false;

    /// The step's listing lines.
    fn list<P: Printer + ?Sized>(&self, l: &mut Listing<'_, P>);
    /// The step's instruction records, each printed on [`Records::start`]'s line and handed
    /// on by [`Records::take`].
    fn record<F: FnMut(InstructionRecord)>(&self, r: &mut Records<F>);
    /// The step's `dump` fields and sections.
    fn annotate(&self, a: &mut Annotate<'_>);
}

/// Run `walk` with a [`Listing`] into `out` with `columns`: the first problem is the `Err`
/// (once the rest is written), else a printer failure (`what` listing at `base`).
#[cfg(any(feature = "wiiu", feature = "mali"))]
pub(crate) fn write_listing<P: Printer + ?Sized>(
    out: &mut P,
    columns: Columns,
    base: u64,
    what: &'static str,
    walk: impl FnOnce(&mut First<Listing<'_, P>>),
) -> Result<()> {
    let mut v = First { inner: Listing::new(out, columns), first: None };
    walk(&mut v);
    let printed = v.inner.finish();
    if let Some(e) = v.first {
        return Err(e);
    }
    printed.map_err(|_| Error::invalid(base, what, "the printer failed"))
}

/// A visitor that keeps the first problem and passes everything on.
#[cfg(any(feature = "wiiu", feature = "mali"))]
pub(crate) struct First<V> {
    pub(crate) inner: V,
    pub(crate) first: Option<Error>,
}

#[cfg(any(feature = "wiiu", feature = "mali"))]
impl<S, V: Visit<S>> Visit<S> for First<V> {
    #[inline]
    fn step(&mut self, step: S) {
        self.inner.step(step);
    }
    fn problem(&mut self, error: Error) {
        if self.first.is_none() {
            self.first = Some(error.clone());
        }
        self.inner.problem(error);
    }
    fn stopped(&self) -> bool {
        self.inner.stopped()
    }
}

/// The problems of a walk, in listing order.
#[cfg(any(feature = "wiiu", feature = "mali"))]
#[derive(Default)]
pub(crate) struct Problems(pub(crate) Vec<Error>);

#[cfg(any(feature = "wiiu", feature = "mali"))]
impl<S> Visit<S> for Problems {
    #[inline]
    fn step(&mut self, _step: S) {}
    fn problem(&mut self, error: Error) {
        self.0.push(error);
    }
}

/// The listing, into a printer: one [`Line`] reused for every line, the columns the options
/// ask for, and the printer's first error. A problem is a `; …` comment line.
#[cfg(any(feature = "wiiu", feature = "mali"))]
pub(crate) struct Listing<'p, P: Printer + ?Sized> {
    out: &'p mut P,
    pub(crate) line: Line,
    pub(crate) columns: Columns,
    /// A line is started and not ended. Only Mali GP leaves one open (Mesa wrote the tab of
    /// a unit and nothing else: a complex unit with a source and the `nop` operation), so
    /// the next text goes on it; Latte and Mali PP end every line they start.
    pub(crate) open: bool,
    /// The first error the printer gave.
    failed: fmt::Result,
}

#[cfg(any(feature = "wiiu", feature = "mali"))]
impl<'p, P: Printer + ?Sized> Listing<'p, P> {
    pub(crate) fn new(out: &'p mut P, columns: Columns) -> Self {
        let line = Line::for_sink(&*out);
        Listing { out, line, columns, open: false, failed: Ok(()) }
    }

    /// Start a line for the bytes at `at` with their columns (`words` in the raw column),
    /// unless one is open.
    #[inline]
    pub(crate) fn begin(&mut self, at: u64, words: impl IntoIterator<Item = u32>) {
        if !self.open {
            self.line.start(Some(at));
            self.columns.write(&mut self.line, Some(at), words);
            self.open = true;
        }
    }

    /// End the line.
    #[inline]
    pub(crate) fn end(&mut self) {
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

#[cfg(any(feature = "wiiu", feature = "mali"))]
impl<P: Printer + ?Sized, S: PrintStep> Visit<S> for Listing<'_, P> {
    #[inline]
    fn step(&mut self, step: S) {
        step.list(self);
    }

    fn problem(&mut self, error: Error) {
        if !self.open {
            let at = error.offset();
            self.line.start(Some(at));
            self.columns.write(&mut self.line, S::PROBLEM_OFFSET.then_some(at), []);
        }
        self.line.style(Style::Comment);
        self.line.push_str("; ");
        let _ = fmt::Write::write_fmt(&mut self.line, format_args!("{error}"));
        self.line.reset();
        self.end();
    }
}

/// The instruction records: each printed by the listing's printer into a [`Capture`] and
/// handed to `f` as it is made.
pub(crate) struct Records<F> {
    f: F,
    line: Line,
    capture: Capture,
}

impl<F: FnMut(InstructionRecord)> Records<F> {
    pub(crate) fn new(f: F) -> Self {
        Records { f, line: Line::new(), capture: Capture::default() }
    }

    /// The line to print the record of the instruction at `at` on.
    #[inline]
    pub(crate) fn start(&mut self, at: u64) -> &mut Line {
        self.line.start(Some(at));
        &mut self.line
    }

    /// Hand on the record of what was printed, for the instruction at `at` encoded as
    /// `words`.
    pub(crate) fn take(&mut self, at: u64, words: Vec<u32>) {
        self.line.push_str("\n");
        let _ = self.line.flush(&mut self.capture);
        (self.f)(self.capture.record(at, words));
    }
}

#[cfg(any(feature = "wiiu", feature = "mali"))]
impl<F: FnMut(InstructionRecord), S: PrintStep> Visit<S> for Records<F> {
    #[inline]
    fn step(&mut self, step: S) {
        step.record(self);
    }
    fn problem(&mut self, _error: Error) {}
}

/// The `dump` annotations: what each step gives, and the problems as errors.
#[cfg(any(feature = "wiiu", feature = "mali"))]
pub(crate) struct Annotate<'a> {
    pub(crate) a: &'a mut Annotations,
    /// A line to print a step's text on.
    pub(crate) line: Line,
}

#[cfg(any(feature = "wiiu", feature = "mali"))]
impl<'a> Annotate<'a> {
    pub(crate) fn new(a: &'a mut Annotations) -> Self {
        Annotate { a, line: Line::new() }
    }
}

#[cfg(any(feature = "wiiu", feature = "mali"))]
impl<S: PrintStep> Visit<S> for Annotate<'_> {
    fn step(&mut self, step: S) {
        step.annotate(self);
    }
    fn problem(&mut self, error: Error) {
        self.a.error(error.offset(), error);
    }
}
