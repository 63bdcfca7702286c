//! [`Line`]: one line of a listing being built, with the marks of its tokens, handed to a
//! sink whole ([`Printer::write_marked`]).
//!
//! A listing is thousands of short tokens. Built into a `Line` they cost a copy each into a
//! buffer that always has room, and the sink gets one call a line ([`Printer::write_line`]): the plain-text sink copies
//! the line at once, the styling sinks replay the marks (a style, its end, an operand's start
//! and end) at their positions. The commonest tokens (register names, component selections,
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

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.bytes.get(..usize::from(self.len)).unwrap_or(&[])).unwrap_or("")
    }
}

/// Room kept after the text, so that a [`Short`] always fits without a check of its own.
const SLACK: usize = 64;

/// One line of a listing being built: its text, the marks of its tokens, and the input offset
/// it shows.
#[derive(Debug, Clone)]
pub struct Line {
    /// The text, then zeros (at least [`SLACK`] of them).
    buf: Vec<u8>,
    /// Bytes of text.
    len: usize,
    /// The marks, at byte positions of the text, in order.
    marks: Vec<(u32, Mark)>,
    /// The absolute input offset the line shows.
    offset: Option<u64>,
}

impl Default for Line {
    fn default() -> Self {
        Line::new()
    }
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line { buf: vec![0; 4 * SLACK], len: 0, marks: Vec::with_capacity(32), offset: None }
    }

    /// Start a new line (dropping anything not flushed) that shows the input at `offset`.
    #[inline]
    pub fn start(&mut self, offset: Option<u64>) {
        self.len = 0;
        self.marks.clear();
        self.offset = offset;
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 sequences are ever written.
        std::str::from_utf8(self.buf.get(..self.len).unwrap_or(&[])).unwrap_or("")
    }

    /// The text as bytes (whole UTF-8 sequences: only `&str` and [`Short`] texts are written).
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// The marks, at byte positions of the text, in order.
    pub fn marks(&self) -> &[(u32, Mark)] {
        &self.marks
    }

    /// Bytes of text so far.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no text was written since [`Line::start`].
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Drop the text after `len` bytes (a length this line reported) and the marks after it.
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
        while self.marks.last().is_some_and(|m| m.0 as usize > self.len) {
            self.marks.pop();
        }
    }

    /// Keep [`SLACK`] bytes of room after `more` new bytes.
    #[inline]
    fn room(&mut self, more: usize) {
        let need = self.len + more + SLACK;
        if need > self.buf.len() {
            self.grow(need);
        }
    }

    #[cold]
    fn grow(&mut self, need: usize) {
        let size = need.max(2 * self.buf.len());
        self.buf.resize(size, 0);
    }

    /// Append `s`.
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        let b = s.as_bytes();
        self.room(b.len());
        if let Some(dst) = self.buf.get_mut(self.len..self.len + b.len()) {
            dst.copy_from_slice(b);
        }
        self.len += b.len();
    }

    /// Append a table text: all `N` bytes are copied, the text's length is kept.
    #[inline]
    pub fn push_short<const N: usize>(&mut self, s: &Short<N>) {
        self.room(N);
        if let Some(dst) = self.buf.get_mut(self.len..).and_then(|d| d.first_chunk_mut::<N>()) {
            *dst = s.bytes;
        }
        self.len += usize::from(s.len);
    }

    /// Append `v` in decimal.
    #[inline]
    pub fn push_u64(&mut self, v: u64) {
        match SMALL.get(v as usize) {
            Some(s) if v < 100 => self.push_short(s),
            _ => {
                let (digits, n) = decimal(v);
                self.room(20);
                if let Some(dst) = self.buf.get_mut(self.len..).and_then(|d| d.first_chunk_mut::<20>()) {
                    *dst = digits;
                }
                self.len += n;
            }
        }
    }

    #[inline]
    fn mark(&mut self, m: Mark) {
        self.marks.push((self.len as u32, m));
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
    /// [`Printer::write_line`]) and start an empty one.
    pub fn flush<P: Printer + ?Sized>(&mut self, out: &mut P) -> fmt::Result {
        out.start_line(self.offset);
        let r = out.write_line(self);
        self.start(None);
        r
    }
}

impl fmt::Write for Line {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
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
        l.push_str("// gone");
        l.reset();
        l.truncate(at);
        assert_eq!(l.marks, vec![(at as u32, Mark::Style(Style::Comment))]);
        // A line longer than the first buffer grows it.
        let long = "x".repeat(1000);
        l.push_str(&long);
        l.push_short(&LONG);
        assert!(l.as_str().ends_with(&format!("{long}dcl_input_ps_siv")));
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
}
