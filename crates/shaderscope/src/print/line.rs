//! [`Line`]: one line of a listing being built, with the marks of its tokens, handed to a
//! sink whole ([`Printer::write_line`]).
//!
//! A listing is thousands of short tokens. Built into a `Line` they cost a copy each into a
//! buffer that always has room, and the sink gets one call a line ([`Printer::write_line`]): the
//! styling sinks replay the marks (a style, its end, an operand's start and end) at their
//! positions; the plain-text sink, which keeps only the text, gets a few lines a call
//! ([`Line::end_line`]) and copies them at once. The commonest tokens (register names, component selections,
//! small numbers, mnemonics) come from tables of [`Short`] texts, padded to a fixed size, so
//! that copying one is a few moves whatever its length.
//!
//! ```
//! use shaderscope::print::{Html, Line, Short, Style, TextBuf};
//!
//! const MOV: Short<8> = Short::new("mov");
//! fn build(line: &mut Line) {
//!     line.start(Some(0x20));
//!     line.style(Style::Mnemonic);
//!     line.push_short(&MOV);
//!     line.reset();
//!     line.push_str(" ");
//!     line.start_operand();
//!     line.style(Style::Register);
//!     line.push_str("r0.x");
//!     line.reset();
//!     line.end_operand();
//!     line.push_str("\n");
//! }
//! let mut line = Line::new();
//! let mut text = TextBuf::default();
//! build(&mut line);
//! line.flush(&mut text).unwrap();
//! assert_eq!(text.as_str(), "mov r0.x\n");
//! let mut html = Html::default();
//! build(&mut line);
//! line.flush(&mut html).unwrap();
//! assert_eq!(
//!     html.finish(),
//!     "<div data-offset=\"32\"><span class=\"mn\">mov</span> <span class=\"reg\">r0.x</span></div>\n"
//! );
//! ```

use super::{Printer, Style, decimal};
use std::fmt;

/// What happens at a position of a line (see [`Printer::write_line`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// The text from here has this style.
    Style(Style),
    /// The text from here is unstyled.
    Reset,
    /// An operand begins.
    StartOperand,
    /// The operand ends.
    EndOperand,
}

/// A line keeps each mark in one `u32`: the position times 16 plus the mark's code, so that
/// recording one is a single store.
const MARK_BITS: u32 = 4;

impl Mark {
    /// Every style, by code.
    const STYLES: [Style; 7] = [
        Style::Mnemonic,
        Style::Register,
        Style::Literal,
        Style::Comment,
        Style::Label,
        Style::Directive,
        Style::Address,
    ];

    #[inline]
    const fn code(self) -> u32 {
        match self {
            Mark::Style(s) => s as u32,
            Mark::Reset => 8,
            Mark::StartOperand => 9,
            Mark::EndOperand => 10,
        }
    }

    fn from_code(code: u32) -> Mark {
        match code {
            8 => Mark::Reset,
            9 => Mark::StartOperand,
            10 => Mark::EndOperand,
            c => Mark::Style(Mark::STYLES.get(c as usize).copied().unwrap_or(Style::Comment)),
        }
    }
}

/// A text of at most `N` bytes, padded with zeros to `N`, for tables of tokens
/// ([`Line::push_short`] copies all `N` bytes and keeps the text's length).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Short<const N: usize> {
    bytes: [u8; N],
    len: u8,
}

impl<const N: usize> Short<N> {
    /// `text` padded; the text must fit (a constant that does not fails to compile).
    ///
    /// # Panics
    /// When `text` is longer than `N` bytes (made for tables built at compile time).
    // Indexing is bounded by the assertion; a table with a text too long does not compile.
    #[allow(clippy::indexing_slicing)]
    pub const fn new(text: &str) -> Short<N> {
        let b = text.as_bytes();
        assert!(b.len() <= N && N < 256, "text longer than its Short");
        let mut bytes = [0u8; N];
        let mut i = 0;
        while i < b.len() {
            bytes[i] = b[i];
            i += 1;
        }
        Short { bytes, len: b.len() as u8 }
    }

    /// `bytes` padded; they must be ASCII and fit (a constant that does not fails to compile).
    ///
    /// # Panics
    /// When `b` is longer than `N` bytes or not ASCII.
    #[allow(clippy::indexing_slicing)]
    pub const fn from_ascii(b: &[u8]) -> Short<N> {
        assert!(b.len() <= N && N < 256, "text longer than its Short");
        let mut bytes = [0u8; N];
        let mut i = 0;
        while i < b.len() {
            assert!(b[i].is_ascii(), "text not ASCII");
            bytes[i] = b[i];
            i += 1;
        }
        Short { bytes, len: b.len() as u8 }
    }

    /// The first `len` of `bytes` (the crate's number formatters: they are ASCII).
    #[inline]
    pub(crate) fn from_ascii_bytes(bytes: [u8; N], len: usize) -> Short<N> {
        Short { bytes, len: len.min(N).min(255) as u8 }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.bytes.get(..usize::from(self.len)).unwrap_or(&[])).unwrap_or("")
    }
}

/// A point of a line's writing ([`Line::point`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    len: usize,
    marks: usize,
}

/// Bytes of text a line holds in place; a longer line moves to the heap.
const TEXT_IN_PLACE: usize = 384;
/// Marks a line holds in place; more move to the heap.
const MARKS_IN_PLACE: usize = 64;
/// A line for a text-only sink keeps the lines ended before it while they are shorter than
/// this ([`Line::end_line`]): the sink gets them in one call.
const BATCH: usize = 256;

/// One line of a listing being built: its text, the marks of its tokens, and the input offset
/// it shows.
///
/// The text and the marks are kept in arrays inside the line as long as they fit (nearly
/// always), so that adding a piece is one comparison with a constant and one copy; a longer
/// line moves to buffers on the heap.
///
/// A line built for a sink that keeps only the text ([`Line::for_sink`], [`Printer::text_only`])
/// records no marks, and [`Line::end_line`] keeps the ended lines of such a sink until they
/// fill a few hundred bytes: the sink gets them in one [`Printer::write_line`]. Whoever builds
/// lines ends with [`Line::flush`], which writes what is left.
#[derive(Debug, Clone)]
pub struct Line {
    /// The text while it fits (`len` at most [`TEXT_IN_PLACE`]).
    text: [u8; TEXT_IN_PLACE],
    /// Bytes of text.
    len: usize,
    /// The whole text once it is longer than [`TEXT_IN_PLACE`].
    long_text: Vec<u8>,
    /// The marks while they fit (see [`MARK_BITS`]).
    marks: [u32; MARKS_IN_PLACE],
    /// Number of marks.
    n_marks: usize,
    /// All the marks once there are more than [`MARKS_IN_PLACE`].
    more_marks: Vec<u32>,
    /// The absolute input offset the line shows.
    offset: Option<u64>,
    /// Built for a sink that keeps only the text ([`Line::for_sink`]): no marks are recorded
    /// and ended lines wait for the next ones.
    text_only: bool,
    /// Bytes of ended lines waiting at the start of the text (only with `text_only`).
    done: usize,
}

impl Default for Line {
    fn default() -> Self {
        Line::new()
    }
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line {
            text: [0; TEXT_IN_PLACE],
            len: 0,
            long_text: Vec::new(),
            marks: [0; MARKS_IN_PLACE],
            n_marks: 0,
            more_marks: Vec::new(),
            offset: None,
            text_only: false,
            done: 0,
        }
    }

    /// An empty line for `sink`. When the sink keeps only the text ([`Printer::text_only`]:
    /// plain text), the line records no marks and ended lines wait for the next ones
    /// ([`Line::end_line`]); such a line is for that sink only (another would get unstyled
    /// text without line offsets).
    pub fn for_sink<P: Printer + ?Sized>(sink: &P) -> Line {
        Line { text_only: sink.text_only(), ..Line::new() }
    }

    /// Start a new line that shows the input at `offset`, dropping the text of the line being
    /// built (not the ended lines that wait for the sink).
    #[inline]
    pub fn start(&mut self, offset: Option<u64>) {
        if self.len > TEXT_IN_PLACE || self.n_marks > MARKS_IN_PLACE {
            self.drop_long();
        }
        self.len = self.done;
        self.n_marks = 0;
        self.offset = offset;
    }

    /// Back to the ended lines, in place, from a line that had moved to the heap.
    #[cold]
    #[inline(never)]
    fn drop_long(&mut self) {
        self.back_to(Point { len: self.done, marks: 0 });
        self.long_text.clear();
        self.more_marks.clear();
    }

    /// The text so far (with the ended lines that wait for a text-only sink).
    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 sequences are ever written.
        std::str::from_utf8(self.bytes()).unwrap_or("")
    }

    /// The text as bytes (whole UTF-8 sequences: only `&str` and [`Short`] texts are written).
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        match self.text.get(..self.len) {
            Some(text) => text,
            None => &self.long_text,
        }
    }

    /// The marks with their byte positions in the text, in order.
    pub fn marks(&self) -> impl Iterator<Item = (usize, Mark)> + '_ {
        let marks = match self.marks.get(..self.n_marks) {
            Some(marks) => marks,
            None => &self.more_marks,
        };
        marks.iter().map(|&m| ((m >> MARK_BITS) as usize, Mark::from_code(m & ((1 << MARK_BITS) - 1))))
    }

    /// Bytes of text so far (positions in the text, as [`Line::mark_token`] takes them, count
    /// from the start of the ended lines that wait for a text-only sink).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no text at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the line being built starts in the text: 0, but after the ended lines that wait
    /// for a text-only sink.
    #[inline]
    pub fn line_start(&self) -> usize {
        self.done
    }

    /// Bytes of the line being built (after the ended lines that wait for a text-only sink).
    #[inline]
    pub fn line_len(&self) -> usize {
        self.len - self.done
    }

    /// Where the writing of the line is: [`Line::back_to`] goes back there.
    pub fn point(&self) -> Point {
        Point { len: self.len, marks: self.n_marks }
    }

    /// Drop the text and the marks written since `point` (one this line gave).
    pub fn back_to(&mut self, point: Point) {
        let len = self.len.min(point.len);
        let keep = self.n_marks.min(point.marks);
        if self.len > TEXT_IN_PLACE {
            self.long_text.truncate(len);
            if let (Some(to), Some(from)) = (self.text.get_mut(..len), self.long_text.get(..len)) {
                to.copy_from_slice(from);
                self.long_text.clear();
            }
        }
        self.len = len;
        if self.n_marks > MARKS_IN_PLACE {
            self.more_marks.truncate(keep);
            if let (Some(to), Some(from)) = (self.marks.get_mut(..keep), self.more_marks.get(..keep)) {
                to.copy_from_slice(from);
                self.more_marks.clear();
            }
        }
        self.n_marks = keep;
    }

    /// Append `s`.
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        self.push_bytes(s.as_bytes());
    }

    /// Append bytes that are whole UTF-8 sequences. Inlined, a text of known length is a copy
    /// of that size.
    #[inline]
    fn push_bytes(&mut self, b: &[u8]) {
        let room = self.text.get_mut(self.len..);
        match room.and_then(|d| d.first_chunk_mut::<16>()) {
            Some(dst) if b.len() <= 16 => copy_short(dst, b),
            _ => match self.text.get_mut(self.len..).and_then(|d| d.get_mut(..b.len())) {
                Some(dst) => dst.copy_from_slice(b),
                None => self.push_long(b),
            },
        }
        self.len += b.len();
    }

    /// Append `b` to a text that it makes (or that already is) longer than fits in place.
    #[cold]
    #[inline(never)]
    fn push_long(&mut self, b: &[u8]) {
        if self.len <= TEXT_IN_PLACE {
            self.long_text.clear();
            self.long_text.extend_from_slice(self.text.get(..self.len).unwrap_or(&[]));
        }
        self.long_text.extend_from_slice(b);
    }

    /// Append a table text: all `N` bytes are copied (a copy of a size known at compile
    /// time), the text's length is kept.
    #[inline]
    pub fn push_short<const N: usize>(&mut self, s: &Short<N>) {
        match self.text.get_mut(self.len..).and_then(|d| d.first_chunk_mut::<N>()) {
            Some(dst) => *dst = s.bytes,
            // Near the end of the room, or past it.
            None => self.push_short_slow(s.bytes.get(..usize::from(s.len)).unwrap_or(&[])),
        }
        self.len += usize::from(s.len);
    }

    #[cold]
    #[inline(never)]
    fn push_short_slow(&mut self, b: &[u8]) {
        match self.text.get_mut(self.len..).and_then(|d| d.get_mut(..b.len())) {
            Some(dst) => dst.copy_from_slice(b),
            None => self.push_long(b),
        }
    }

    /// Append bytes meant as text (a name read from a file): ASCII, nearly always, as it is
    /// (a check a word at a time); anything else as [`String::from_utf8_lossy`] reads it.
    pub fn push_lossy(&mut self, b: &[u8]) {
        if b.is_ascii() {
            self.push_bytes(b);
        } else {
            self.push_str(&String::from_utf8_lossy(b));
        }
    }

    /// Append `n` spaces.
    #[inline]
    pub fn push_spaces(&mut self, n: usize) {
        const SPACES: Short<32> = Short::new("                                ");
        let mut n = n;
        while n > 32 {
            self.push_short(&SPACES);
            n -= 32;
        }
        // All 32 spaces are copied (a copy of a fixed size), `n` of them kept.
        match self.text.get_mut(self.len..).and_then(|d| d.first_chunk_mut::<32>()) {
            Some(dst) => {
                *dst = SPACES.bytes;
                self.len += n;
            }
            None => self.push_bytes(SPACES.bytes.get(..n).unwrap_or(&[])),
        }
    }

    /// Append `s` left-aligned in `width` columns, like `{:<width}`: the text, then spaces (a
    /// longer text is not cut).
    pub fn push_left(&mut self, s: &str, width: usize) {
        self.push_str(s);
        self.push_spaces(width.saturating_sub(columns(s.as_bytes())));
    }

    /// Append `s` right-aligned in `width` columns, like `{:>width}`.
    pub fn push_right(&mut self, s: &str, width: usize) {
        self.push_spaces(width.saturating_sub(columns(s.as_bytes())));
        self.push_str(s);
    }

    /// Append `v` in decimal, right-aligned in `width` columns (`{:>width}`).
    pub fn push_u64_right(&mut self, v: u64, width: usize) {
        self.push_spaces(width.saturating_sub(decimal_len(v)));
        self.push_u64(v);
    }

    /// Append spaces until what was written since byte `start` (a length this line reported)
    /// fills `width` columns: a cell of a table, left-aligned.
    pub fn pad_from(&mut self, start: usize, width: usize) {
        let written = self.bytes().get(start..).map_or(0, columns);
        self.push_spaces(width.saturating_sub(written));
    }

    /// Append `v` in decimal.
    #[inline]
    pub fn push_u64(&mut self, v: u64) {
        match SMALL.get(v.min(SMALL.len() as u64) as usize) {
            Some(s) => self.push_short(s),
            None => self.push_large(v),
        }
    }

    #[inline(never)]
    fn push_large(&mut self, v: u64) {
        let (digits, n) = decimal(v);
        self.push_bytes(digits.get(..n).unwrap_or(&[]));
    }

    #[inline]
    fn mark(&mut self, m: Mark) {
        if !self.text_only {
            self.push_mark(pack(self.len, m));
        }
    }

    #[inline]
    fn push_mark(&mut self, packed: u32) {
        match self.marks.get_mut(self.n_marks) {
            Some(slot) => *slot = packed,
            None => self.push_more_marks(packed),
        }
        self.n_marks += 1;
    }

    #[cold]
    #[inline(never)]
    fn push_more_marks(&mut self, packed: u32) {
        if self.n_marks == MARKS_IN_PLACE {
            self.more_marks.clear();
            self.more_marks.extend_from_slice(&self.marks);
        }
        self.more_marks.push(packed);
    }

    /// The marks of an operand written from byte `start` to the end of the text so far, whose
    /// one token (bytes `token`, in order) has `style`: what [`Line::start_operand`],
    /// [`Line::style`], [`Line::reset`] and [`Line::end_operand`] at those positions give, at
    /// the cost of one.
    #[inline]
    pub fn mark_operand(&mut self, start: usize, token: std::ops::Range<usize>, style: Style) {
        if self.text_only {
            return;
        }
        let marks = [
            pack(start, Mark::StartOperand),
            pack(token.start, Mark::Style(style)),
            pack(token.end, Mark::Reset),
            pack(self.len, Mark::EndOperand),
        ];
        match self.marks.get_mut(self.n_marks..).and_then(|m| m.first_chunk_mut::<4>()) {
            Some(slots) => {
                *slots = marks;
                self.n_marks += 4;
            }
            None => {
                for m in marks {
                    self.push_mark(m);
                }
            }
        }
    }

    /// The marks of a token (bytes `token` of the text) in `style`: [`Line::style`] and
    /// [`Line::reset`] at its ends. No mark may follow its start yet.
    #[inline]
    pub fn mark_token(&mut self, token: std::ops::Range<usize>, style: Style) {
        if self.text_only {
            return;
        }
        self.push_mark(pack(token.start, Mark::Style(style)));
        self.push_mark(pack(token.end, Mark::Reset));
    }

    /// Set the input offset the line shows (when it is known only once the line is written).
    pub fn set_offset(&mut self, offset: Option<u64>) {
        self.offset = offset;
    }

    /// The text from here has `style`.
    #[inline]
    pub fn style(&mut self, style: Style) {
        self.mark(Mark::Style(style));
    }

    /// The text from here is unstyled.
    #[inline]
    pub fn reset(&mut self) {
        self.mark(Mark::Reset);
    }

    /// An operand begins here.
    #[inline]
    pub fn start_operand(&mut self) {
        self.mark(Mark::StartOperand);
    }

    /// The operand ends here.
    #[inline]
    pub fn end_operand(&mut self) {
        self.mark(Mark::EndOperand);
    }

    /// Write the line to `out` ([`Printer::start_line`] with its offset, then
    /// [`Printer::write_line`]), with the ended lines that wait for a text-only sink, and start
    /// an empty one.
    pub fn flush<P: Printer + ?Sized>(&mut self, out: &mut P) -> fmt::Result {
        out.start_line(self.offset);
        let r = out.write_line(self);
        self.done = 0;
        self.start(None);
        r
    }

    /// The line is complete: it goes to `out` now ([`Line::flush`]), or, built for a sink that
    /// keeps only the text ([`Line::for_sink`]), with the lines after it once they fill a
    /// few hundred bytes. What follows is a new line (as after [`Line::start`] with no offset).
    #[inline]
    pub fn end_line<P: Printer + ?Sized>(&mut self, out: &mut P) -> fmt::Result {
        if self.text_only && self.len < BATCH {
            // No marks to drop, no offset the sink would look at.
            self.done = self.len;
            return Ok(());
        }
        self.flush(out)
    }
}

impl fmt::Write for Line {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }

    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        self.push_str(c.encode_utf8(&mut [0; 4]));
        Ok(())
    }
}

/// A mark at byte `pos` as a line keeps it. (A line longer than 2^28 bytes is not a
/// listing's; its marks would only be misplaced.)
#[inline]
fn pack(pos: usize, m: Mark) -> u32 {
    (pos as u32) << MARK_BITS | m.code()
}

/// Copy `b` (at most 16 bytes) to the start of `dst` as two copies of a fixed size that may
/// overlap (the first and the last 8, 4, 2 or 1 bytes): a short text of a length known only
/// at run time costs a few moves instead of a call to `memcpy`.
#[inline]
fn copy_short(dst: &mut [u8; 16], b: &[u8]) {
    fn two<const N: usize>(dst: &mut [u8; 16], b: &[u8]) {
        if let (Some(head), Some(tail)) = (b.first_chunk::<N>(), b.last_chunk::<N>()) {
            let n = b.len();
            if let Some(d) = dst.first_chunk_mut::<N>() {
                *d = *head;
            }
            if let Some(d) = dst.get_mut(n - N..).and_then(|d| d.first_chunk_mut::<N>()) {
                *d = *tail;
            }
        }
    }
    match b.len() {
        8.. => two::<8>(dst, b),
        4..8 => two::<4>(dst, b),
        2..4 => two::<2>(dst, b),
        1 => two::<1>(dst, b),
        _ => {}
    }
}

/// Columns (characters) of UTF-8 text.
fn columns(text: &[u8]) -> usize {
    if text.is_ascii() { text.len() } else { text.iter().filter(|&&b| (b as i8) >= -0x40).count() }
}

/// Number of decimal digits of `v`.
fn decimal_len(v: u64) -> usize {
    let mut n = 1;
    let mut v = v;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// `0` to `99`.
static SMALL: [Short<2>; 100] = small_numbers();

// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn small_numbers() -> [Short<2>; 100] {
    let mut t = [Short { bytes: [0; 2], len: 0 }; 100];
    let mut v = 0;
    while v < 100 {
        t[v] = if v < 10 {
            Short { bytes: [b'0' + v as u8, 0], len: 1 }
        } else {
            Short { bytes: [b'0' + (v / 10) as u8, b'0' + (v % 10) as u8], len: 2 }
        };
        v += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::{Ansi, TextBuf};

    #[test]
    fn numbers_shorts_and_truncation() {
        let mut l = Line::new();
        for v in [0u64, 7, 10, 99, 100, 12345, u64::MAX] {
            l.push_u64(v);
            l.push_str(" ");
        }
        const LONG: Short<32> = Short::new("dcl_input_ps_siv");
        l.push_short(&LONG);
        assert_eq!(l.as_str(), format!("0 7 10 99 100 12345 {} dcl_input_ps_siv", u64::MAX));
        l.style(Style::Comment);
        let at = l.len();
        let point = l.point();
        l.push_str("// gone");
        l.reset();
        l.style(Style::Literal);
        l.back_to(point);
        assert_eq!(l.marks().collect::<Vec<_>>(), vec![(at, Mark::Style(Style::Comment))]);
        assert_eq!(l.len(), at);
        // A line longer than the first buffer grows it.
        let long = "x".repeat(1000);
        l.push_str(&long);
        l.push_short(&LONG);
        assert!(l.as_str().ends_with(&format!("{long}dcl_input_ps_siv")));
    }

    #[test]
    fn bytes_from_a_file_are_text_with_invalid_sequences_replaced() {
        let mut l = Line::new();
        for b in [&b"POSITION"[..], "é".as_bytes(), b"a\xffb", b""] {
            let at = l.len();
            l.push_lossy(b);
            l.pad_from(at, 10);
            l.push_str("|");
        }
        assert_eq!(l.as_str(), "POSITION  |é         |a\u{fffd}b       |          |");
    }

    #[test]
    fn marks_reach_styling_sinks_and_plain_text_gets_the_text() {
        let mut l = Line::new();
        let build = |l: &mut Line| {
            l.start(None);
            l.style(Style::Comment);
            l.push_str("// a");
            l.reset();
            l.push_str("\n");
        };
        build(&mut l);
        let mut t = TextBuf::default();
        l.flush(&mut t).unwrap();
        assert_eq!(t.as_str(), "// a\n");
        build(&mut l);
        let mut a = Ansi::default();
        l.flush(&mut a).unwrap();
        assert_eq!(a.out, "\x1b[2m// a\x1b[0m\n");
        assert!(l.is_empty());
    }

    #[test]
    fn a_line_for_plain_text_records_no_marks_and_hands_over_several_lines_at_once() {
        let build = |l: &mut Line, n: usize| {
            l.start(Some(4 * n as u64));
            l.style(Style::Mnemonic);
            l.push_str("mov");
            l.reset();
            l.push_str(" ");
            let at = l.len();
            l.push_str("r");
            l.push_u64(n as u64);
            l.mark_operand(at, at..l.len(), Style::Register);
            l.push_str("\n");
        };
        /// A plain-text sink that counts the calls it gets.
        #[derive(Default)]
        struct Calls(TextBuf, usize);
        impl fmt::Write for Calls {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0.write_str(s)
            }
        }
        impl Printer for Calls {
            fn text_only(&self) -> bool {
                true
            }
            fn write_line(&mut self, line: &Line) -> fmt::Result {
                self.1 += 1;
                self.0.write_line(line)
            }
        }
        let mut t = Calls::default();
        let mut l = Line::for_sink(&t);
        let mut want = String::new();
        for n in 0..100 {
            build(&mut l, n);
            assert_eq!(l.marks().count(), 0);
            l.end_line(&mut t).unwrap();
            want += &format!("mov r{n}\n");
        }
        // A line begun and dropped leaves the ended ones.
        l.start(None);
        l.push_str("gone");
        l.start(None);
        l.push_str(&"x".repeat(500));
        l.start(None);
        assert!(l.line_len() == 0 && l.line_start() > 0 && !l.is_empty());
        l.flush(&mut t).unwrap();
        assert_eq!(t.0.as_str(), want);
        assert!(t.1 < 10, "{} calls", t.1);
        // Any other sink gets each line with its marks when it ends.
        let mut a = Ansi::default();
        let mut l = Line::for_sink(&a);
        build(&mut l, 1);
        assert_eq!(l.marks().count(), 6);
        l.end_line(&mut a).unwrap();
        assert_eq!(a.out, "\x1b[1;34mmov\x1b[0m \x1b[32mr1\x1b[0m\n");
        assert!(l.is_empty() && l.line_start() == 0);
        let mut t = &mut t;
        assert!(TextBuf::default().text_only() && !a.text_only() && Printer::text_only(&&mut t));
    }
}
