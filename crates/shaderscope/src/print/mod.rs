//! Printer sinks: every disassembler writes its text once, through [`Printer`], and the sink
//! decides what becomes of it: plain text ([`TextBuf`], the fast case: one reused buffer),
//! ANSI colour ([`Ansi`]), HTML with one span per token and the byte offset of every line
//! ([`Html`]), or instruction records ([`crate::isa::Capture`]).
//!
//! A printer is a [`std::fmt::Write`] with hooks that plain text ignores:
//! - [`Printer::start_line`] before each line, with the absolute input offset of the bytes the
//!   line shows (an instruction, a table row), if any;
//! - [`Printer::style`] before a token (a mnemonic, a register, a literal, …) and
//!   [`Printer::reset`] after it; a styled token never contains a line break;
//! - [`Printer::start_operand`] / [`Printer::end_operand`] around each operand of an
//!   instruction.
//!
//! Disassemblers are generic over the printer (`P: Printer + ?Sized`), so the plain-text
//! instance compiles the hooks away.
//!
//! ```
//! use shaderscope::print::{Ansi, Html, Printer, Style, TextBuf};
//!
//! fn line(p: &mut (impl Printer + ?Sized)) {
//!     p.start_line(Some(8));
//!     p.styled(Style::Mnemonic, "mov").unwrap();
//!     p.write_str(" ").unwrap();
//!     p.start_operand();
//!     p.styled(Style::Register, "o0").unwrap();
//!     p.end_operand();
//!     p.write_str("\n").unwrap();
//! }
//! let mut text = TextBuf::default();
//! line(&mut text);
//! assert_eq!(text.as_str(), "mov o0\n");
//! let mut ansi = Ansi::default();
//! line(&mut ansi);
//! assert_eq!(ansi.out, "\x1b[1;34mmov\x1b[0m \x1b[32mo0\x1b[0m\n");
//! let mut html = Html::default();
//! line(&mut html);
//! assert_eq!(
//!     html.finish(),
//!     "<div data-offset=\"8\"><span class=\"mn\">mov</span> <span class=\"reg\">o0</span></div>\n"
//! );
//! ```

use std::fmt;

pub mod float;
mod html;
mod line;
mod nested;
mod text;
pub use html::Html;
pub(crate) use html::escape_into;
pub use line::{Line, Mark, Point, Short};
pub use nested::Nested;
pub(crate) use text::decimal;
pub use text::{TextBuf, escape_control, needs_escape};

/// The kind of token about to be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    /// An instruction or declaration name.
    Mnemonic,
    /// A register or operand.
    Register,
    /// A number or immediate.
    Literal,
    /// A comment.
    Comment,
    /// A label or symbol name.
    Label,
    /// An assembler directive (`.proc`, `.out`…) or a program's version line.
    Directive,
    /// An address or raw word shown beside an instruction.
    Address,
}

impl Style {
    /// The CSS class the HTML sink gives the token.
    pub fn class(self) -> &'static str {
        match self {
            Style::Mnemonic => "mn",
            Style::Register => "reg",
            Style::Literal => "lit",
            Style::Comment => "cm",
            Style::Label => "lbl",
            Style::Directive => "dir",
            Style::Address => "addr",
        }
    }

    /// The ANSI escape that starts the token.
    pub fn ansi(self) -> &'static str {
        match self {
            Style::Mnemonic => "\x1b[1;34m",
            Style::Register => "\x1b[32m",
            Style::Literal => "\x1b[33m",
            Style::Comment => "\x1b[2m",
            Style::Label => "\x1b[1;35m",
            Style::Directive => "\x1b[36m",
            Style::Address => "\x1b[2;37m",
        }
    }
}

/// Destination for disassembly text (see the [module documentation](self)).
pub trait Printer: fmt::Write {
    /// A new output line begins; `offset` is the absolute input byte it describes, if any.
    fn start_line(&mut self, _offset: Option<u64>) {}
    /// The next text has this style.
    fn style(&mut self, _style: Style) {}
    /// Back to unstyled text.
    fn reset(&mut self) {}
    /// An operand of the current instruction begins.
    fn start_operand(&mut self) {}
    /// The operand ends.
    fn end_operand(&mut self) {}
    /// Write `text` in `style`.
    fn styled(&mut self, style: Style, text: &str) -> fmt::Result {
        self.style(style);
        self.write_str(text)?;
        self.reset();
        Ok(())
    }
    /// Whether the sink keeps nothing but the text: line offsets ([`Printer::start_line`]),
    /// styles and operand boundaries leave no trace in it (plain text: [`TextBuf`]). A
    /// [`Line`] built for such a sink ([`Line::for_sink`]) records no marks and hands it
    /// several lines at a time ([`Line::end_line`]): every line still reaches the sink through
    /// [`Printer::write_line`], without the hooks it would ignore.
    fn text_only(&self) -> bool {
        false
    }
    /// Write a whole [`Line`]: its text, with the hooks its marks give at their positions
    /// (styles, operand boundaries). Sinks that ignore styles and operands may copy the text
    /// at once.
    fn write_line(&mut self, line: &Line) -> fmt::Result {
        let text = line.as_str();
        let mut at = 0;
        for (pos, mark) in line.marks() {
            let pos = pos.clamp(at, text.len());
            if pos > at {
                self.write_str(text.get(at..pos).unwrap_or(""))?;
            }
            at = pos;
            match mark {
                Mark::Style(s) => self.style(s),
                Mark::Reset => self.reset(),
                Mark::StartOperand => self.start_operand(),
                Mark::EndOperand => self.end_operand(),
            }
        }
        match text.get(at..) {
            Some(rest) if !rest.is_empty() => self.write_str(rest),
            _ => Ok(()),
        }
    }
}

/// A sink that keeps nothing: a listing printed only for what it returns (whether it fails,
/// and where), as [`crate::isa::sm4::check()`] prints one, and the first pass of a
/// `disasm --json` record, which learns whether the listing fails before the record is
/// written. It takes text as plain text does ([`Printer::text_only`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct Discard;

impl fmt::Write for Discard {
    #[inline]
    fn write_str(&mut self, _: &str) -> fmt::Result {
        Ok(())
    }
}

impl Printer for Discard {
    #[inline]
    fn text_only(&self) -> bool {
        true
    }
    #[inline]
    fn write_line(&mut self, _: &Line) -> fmt::Result {
        Ok(())
    }
}

/// Plain text: styles and operands leave no trace, so a marked line is its text.
impl Printer for TextBuf {
    #[inline]
    fn text_only(&self) -> bool {
        true
    }
    #[inline]
    fn write_line(&mut self, line: &Line) -> fmt::Result {
        // A line holds whole UTF-8 sequences only, as this buffer does.
        self.push_utf8(line.bytes());
        Ok(())
    }
}

impl<P: Printer + ?Sized> Printer for &mut P {
    #[inline]
    fn start_line(&mut self, offset: Option<u64>) {
        (**self).start_line(offset)
    }
    #[inline]
    fn style(&mut self, style: Style) {
        (**self).style(style)
    }
    #[inline]
    fn reset(&mut self) {
        (**self).reset()
    }
    #[inline]
    fn start_operand(&mut self) {
        (**self).start_operand()
    }
    #[inline]
    fn end_operand(&mut self) {
        (**self).end_operand()
    }
    #[inline]
    fn styled(&mut self, style: Style, text: &str) -> fmt::Result {
        (**self).styled(style, text)
    }
    #[inline]
    fn text_only(&self) -> bool {
        (**self).text_only()
    }
    #[inline]
    fn write_line(&mut self, line: &Line) -> fmt::Result {
        (**self).write_line(line)
    }
}

/// A number with a noun that agrees with it, as every message and table says counts:
/// `count(1, "word")` shows `1 word`, `count(2, "entry")` shows `2 entries`, `count(0, "DVLE")`
/// shows `0 DVLEs`.
///
/// ```
/// use shaderscope::print::count;
/// assert_eq!(count(1u32, "word").to_string(), "1 word");
/// assert_eq!(count(3usize, "entry").to_string(), "3 entries");
/// assert_eq!(count(0u64, "DWORD").to_string(), "0 DWORDs");
/// assert_eq!(count(2u8, "pass").to_string(), "2 passes");
/// ```
pub fn count(n: impl TryInto<u64>, noun: &str) -> Count<'_> {
    Count(n.try_into().unwrap_or(u64::MAX), noun)
}

/// See [`count`].
#[derive(Debug, Clone, Copy)]
pub struct Count<'a>(pub u64, pub &'a str);

impl fmt::Display for Count<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Count(n, noun) = *self;
        if n == 1 {
            return write!(f, "1 {noun}");
        }
        // A consonant and `y`: `entry` → `entries`; a hissing end takes `es` (`pass` →
        // `passes`); anything else takes an `s`.
        let b = noun.as_bytes();
        let consonant_y = b.len() >= 2
            && b.last() == Some(&b'y')
            && !matches!(b.get(b.len() - 2), Some(b'a' | b'e' | b'i' | b'o' | b'u'));
        match noun.strip_suffix('y').filter(|_| consonant_y) {
            Some(stem) => write!(f, "{n} {stem}ies"),
            None if ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end)) => write!(f, "{n} {noun}es"),
            None => write!(f, "{n} {noun}s"),
        }
    }
}

/// `v` in decimal.
#[inline]
pub fn write_u64<W: fmt::Write + ?Sized>(out: &mut W, v: u64) -> fmt::Result {
    // Most numbers of a listing are register indices and small counts: their text is a slice
    // of a constant string, which needs no digit loop and no UTF-8 check.
    const PAIRS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                         40414243444546474849505152535455565758596061626364656667686970717273747576777879\
                         8081828384858687888990919293949596979899";
    if v < 100 {
        let at = 2 * v as usize + usize::from(v < 10);
        return out.write_str(PAIRS.get(at..2 * v as usize + 2).unwrap_or(""));
    }
    write_large(out, v)
}

/// [`write_u64`] of 100 and more, apart so that the common case inlines.
#[inline(never)]
fn write_large<W: fmt::Write + ?Sized>(out: &mut W, v: u64) -> fmt::Result {
    let (digits, n) = decimal(v);
    out.write_str(ascii(digits.get(..n).unwrap_or(&[])))
}

/// `v` in lowercase hexadecimal with at least `digits` digits (`{:0digits$x}`).
pub fn write_hex<W: fmt::Write + ?Sized>(out: &mut W, v: u64, digits: usize) -> fmt::Result {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [b'0'; 16];
    let need = (64 - v.leading_zeros() as usize).div_ceil(4).clamp(digits.clamp(1, 16), 16);
    for (i, b) in buf.iter_mut().rev().take(need).enumerate() {
        *b = HEX.get(((v >> (4 * i)) & 0xf) as usize).copied().unwrap_or(b'0');
    }
    out.write_str(ascii(buf.get(16 - need..).unwrap_or(&[])))
}

/// `bytes` in lowercase hexadecimal, two digits a byte: checksums and digests as every output
/// shows them.
pub fn hex_bytes(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        // Writing into a String cannot fail.
        let _ = write_hex(&mut s, u64::from(b), 2);
    }
    s
}

/// `n` spaces.
pub fn write_spaces<W: fmt::Write + ?Sized>(out: &mut W, n: usize) -> fmt::Result {
    const SPACES: &str = "                                ";
    let mut n = n;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.write_str(SPACES.get(..k).unwrap_or(""))?;
        n -= k;
    }
    Ok(())
}

/// Bytes known to be ASCII as a `str`.
fn ascii(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("")
}

/// Text with ANSI colour escapes, for terminals. A style is reset before every line break
/// (and taken up again after it), so no colour leaks into the next line.
#[derive(Debug, Default, Clone)]
pub struct Ansi {
    /// The text written so far.
    pub out: String,
    /// The current style.
    styled: Option<Style>,
    /// Its escape has been written on this line.
    active: bool,
}

impl fmt::Write for Ansi {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for (i, part) in s.split('\n').enumerate() {
            if i > 0 {
                if self.active {
                    self.out.push_str("\x1b[0m");
                    self.active = false;
                }
                self.out.push('\n');
            }
            if part.is_empty() {
                continue;
            }
            if let (Some(style), false) = (self.styled, self.active) {
                self.out.push_str(style.ansi());
                self.active = true;
            }
            escape_control(part, &mut self.out);
        }
        Ok(())
    }
}

impl Printer for Ansi {
    fn style(&mut self, style: Style) {
        self.reset();
        self.out.push_str(style.ansi());
        self.styled = Some(style);
        self.active = true;
    }
    fn reset(&mut self) {
        if self.active {
            self.out.push_str("\x1b[0m");
        }
        self.styled = None;
        self.active = false;
    }
}

/// A printer that keeps each line the printer starts, with its offset, and the text written
/// on it (text before the first line goes on a line of no offset): what tests check offsets
/// with, and how `asm --like` finds the word each line of a listing came from.
#[cfg(any(test, feature = "n3ds"))]
#[derive(Debug, Default)]
pub(crate) struct LinesAt(pub(crate) Vec<(Option<u64>, String)>);

#[cfg(any(test, feature = "n3ds"))]
impl fmt::Write for LinesAt {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.0.last_mut() {
            Some(line) => line.1.push_str(s),
            None => self.0.push((None, s.to_string())),
        }
        Ok(())
    }
}

#[cfg(any(test, feature = "n3ds"))]
impl Printer for LinesAt {
    fn start_line(&mut self, offset: Option<u64>) {
        self.0.push((offset, String::new()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    #[test]
    fn tokens_that_span_lines_are_closed_before_each_break() {
        let mut a = Ansi::default();
        a.styled(Style::Comment, "// a\n// b\n").unwrap();
        assert_eq!(a.out, "\x1b[2m// a\x1b[0m\n\x1b[2m// b\x1b[0m\n");
        let mut h = Html::default();
        h.start_line(Some(4));
        h.styled(Style::Comment, "// a\n// <b>").unwrap();
        h.write_str("\n\n").unwrap();
        assert_eq!(
            h.finish(),
            "<div data-offset=\"4\"><span class=\"cm\">// a</span></div>\n\
             <div><span class=\"cm\">// &lt;b&gt;</span></div>\n<div></div>\n"
        );
    }

    #[test]
    fn numbers_match_fmt() {
        let mut s = String::new();
        for v in (0..=100).chain([4096, u64::MAX]) {
            write_u64(&mut s, v).unwrap();
            s.push(' ');
            write_hex(&mut s, v, 4).unwrap();
            s.push('|');
        }
        write_spaces(&mut s, 40).unwrap();
        let mut want = String::new();
        for v in (0u64..=100).chain([4096, u64::MAX]) {
            want += &format!("{v} {v:04x}|");
        }
        want += &" ".repeat(40);
        assert_eq!(s, want);
    }
}
