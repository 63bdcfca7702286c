//! Printer sinks: one disassembler writes plain text, ANSI colour or HTML through this trait.
//!
//! A printer is a [`std::fmt::Write`] with optional style hooks. Disassemblers call
//! [`Printer::style`] before a mnemonic, register, literal… and [`Printer::reset`] after it;
//! the plain-text sink ignores both, so the unstyled path costs nothing but the calls.

use std::fmt;

mod text;
pub use text::TextBuf;
pub(crate) use text::{Writer, decimal, mask_letters, swizzle_letters};

/// The kind of token about to be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// An assembler directive (`.proc`, `.out`…).
    Directive,
    /// An address or raw word shown beside an instruction.
    Address,
}

/// Destination for disassembly text.
pub trait Printer: fmt::Write {
    /// A new output line begins; `offset` is the absolute input byte it describes, if any.
    fn start_line(&mut self, _offset: Option<u64>) {}
    /// Whether this sink uses the offsets given to [`Printer::start_line`]; disassemblers may
    /// skip announcing every line (and print in bulk) when it does not.
    fn wants_line_offsets(&self) -> bool {
        false
    }
    /// Whether [`Printer::style`] and [`Printer::reset`] do nothing, so a disassembler may
    /// write text straight into the sink instead of building it to split it into styled parts.
    fn is_plain(&self) -> bool {
        false
    }
    /// The next text has this style.
    fn style(&mut self, _style: Style) {}
    /// Back to unstyled text.
    fn reset(&mut self) {}
    /// Write `text` in `style`.
    fn styled(&mut self, style: Style, text: &str) -> fmt::Result {
        self.style(style);
        self.write_str(text)?;
        self.reset();
        Ok(())
    }
}

impl Printer for TextBuf {
    fn is_plain(&self) -> bool {
        true
    }
}

/// Plain text into a `String`.
#[derive(Debug, Default, Clone)]
pub struct PlainText {
    /// The text written so far.
    pub out: String,
}

impl fmt::Write for PlainText {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.out.push_str(s);
        Ok(())
    }
}

impl Printer for PlainText {
    fn is_plain(&self) -> bool {
        true
    }
}

/// Text with ANSI colour escapes, for terminals.
#[derive(Debug, Default, Clone)]
pub struct Ansi {
    /// The text written so far.
    pub out: String,
}

impl fmt::Write for Ansi {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.out.push_str(s);
        Ok(())
    }
}

impl Printer for Ansi {
    fn style(&mut self, style: Style) {
        self.out.push_str(match style {
            Style::Mnemonic => "\x1b[1;34m",
            Style::Register => "\x1b[32m",
            Style::Literal => "\x1b[33m",
            Style::Comment => "\x1b[2m",
            Style::Label => "\x1b[1;35m",
            Style::Directive => "\x1b[36m",
            Style::Address => "\x1b[2;37m",
        });
    }
    fn reset(&mut self) {
        self.out.push_str("\x1b[0m");
    }
}

/// HTML with one `<span class="…">` per styled token and `data-offset` on each line, for a
/// viewer that highlights the bytes behind a line.
#[derive(Debug, Default, Clone)]
pub struct Html {
    /// The markup written so far.
    pub out: String,
    open_line: bool,
}

impl fmt::Write for Html {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            match c {
                '<' => self.out.push_str("&lt;"),
                '>' => self.out.push_str("&gt;"),
                '&' => self.out.push_str("&amp;"),
                '\n' if self.open_line => {
                    self.out.push_str("</div>\n");
                    self.open_line = false;
                }
                c => self.out.push(c),
            }
        }
        Ok(())
    }
}

impl Printer for Html {
    fn wants_line_offsets(&self) -> bool {
        true
    }
    fn start_line(&mut self, offset: Option<u64>) {
        if self.open_line {
            self.out.push_str("</div>");
        }
        match offset {
            Some(o) => self.out.push_str(&format!("<div data-offset=\"{o}\">")),
            None => self.out.push_str("<div>"),
        }
        self.open_line = true;
    }
    fn style(&mut self, style: Style) {
        let class = match style {
            Style::Mnemonic => "mn",
            Style::Register => "reg",
            Style::Literal => "lit",
            Style::Comment => "cm",
            Style::Label => "lbl",
            Style::Directive => "dir",
            Style::Address => "addr",
        };
        self.out.push_str(&format!("<span class=\"{class}\">"));
    }
    fn reset(&mut self) {
        self.out.push_str("</span>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(p: &mut dyn Printer) {
        p.start_line(Some(8));
        p.styled(Style::Mnemonic, "mov").unwrap();
        p.write_str(" ").unwrap();
        p.styled(Style::Register, "o0").unwrap();
        p.write_str("\n").unwrap();
    }

    #[test]
    fn the_same_calls_give_three_renderings() {
        let mut t = PlainText::default();
        sample(&mut t);
        assert_eq!(t.out, "mov o0\n");
        let mut a = Ansi::default();
        sample(&mut a);
        assert_eq!(a.out, "\x1b[1;34mmov\x1b[0m \x1b[32mo0\x1b[0m\n");
        let mut h = Html::default();
        sample(&mut h);
        assert_eq!(
            h.out,
            "<div data-offset=\"8\"><span class=\"mn\">mov</span> <span class=\"reg\">o0</span></div>\n"
        );
    }
}
