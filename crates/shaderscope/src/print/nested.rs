//! A listing inside another: a file that carries whole shader files (an effect's programs)
//! lists each through its own format's printer, indented under its heading and with its
//! offsets counted from the outer file's first byte.

use super::{Printer, Style};
use std::fmt;

/// A [`Printer`] that hands everything to `inner` with every line indented by `indent` spaces
/// (blank lines too, as fxc indents an effect's shaders) and every line offset moved by
/// `base` (the inner file's absolute offset).
///
/// ```
/// use shaderscope::print::{Nested, Printer, TextBuf};
/// use std::fmt::Write;
///
/// let mut out = TextBuf::default();
/// let mut nested = Nested::new(&mut out, 4, 0x100);
/// nested.start_line(Some(8));
/// nested.write_str("vs_2_0\n\nmov oPos, v0\n")?;
/// assert_eq!(out.as_str(), "    vs_2_0\n    \n    mov oPos, v0\n");
/// # Ok::<(), std::fmt::Error>(())
/// ```
pub struct Nested<'p> {
    inner: &'p mut dyn Printer,
    indent: usize,
    base: u64,
    /// Whether the next character starts a line (the indent is written before it).
    at_start: bool,
}

impl<'p> Nested<'p> {
    /// Lines go to `inner`, `indent` spaces in, offsets moved by `base`.
    pub fn new(inner: &'p mut dyn Printer, indent: usize, base: u64) -> Self {
        Nested { inner, indent, base, at_start: true }
    }
}

impl Nested<'_> {
    /// The indent, when a line starts here: before the first text, style or operand of a line
    /// (a styled token starts after it).
    fn indent_here(&mut self) -> fmt::Result {
        if self.at_start && self.indent > 0 {
            self.at_start = false;
            super::write_spaces(&mut *self.inner, self.indent)?;
        }
        Ok(())
    }
}

impl fmt::Write for Nested<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.indent == 0 {
            return self.inner.write_str(s);
        }
        for piece in s.split_inclusive('\n') {
            self.indent_here()?;
            self.inner.write_str(piece)?;
            self.at_start = piece.ends_with('\n');
        }
        Ok(())
    }
}

impl Printer for Nested<'_> {
    fn start_line(&mut self, offset: Option<u64>) {
        self.inner.start_line(offset.map(|o| o.saturating_add(self.base)))
    }
    fn style(&mut self, style: Style) {
        // A failing sink fails again at the next text, which reports it.
        let _ = self.indent_here();
        self.inner.style(style)
    }
    fn reset(&mut self) {
        self.inner.reset()
    }
    fn start_operand(&mut self) {
        let _ = self.indent_here();
        self.inner.start_operand()
    }
    fn end_operand(&mut self) {
        self.inner.end_operand()
    }
    fn text_only(&self) -> bool {
        self.inner.text_only()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::Html;
    use std::fmt::Write;

    #[test]
    fn offsets_move_and_styles_pass() {
        let mut html = Html::default();
        {
            let mut n = Nested::new(&mut html, 2, 0x40);
            n.start_line(Some(4));
            n.styled(Style::Mnemonic, "mov").unwrap();
            n.write_str("\n").unwrap();
        }
        assert_eq!(html.finish(), "<div data-offset=\"68\">  <span class=\"mn\">mov</span></div>\n");
    }

    #[test]
    fn pieces_of_one_line_are_indented_once() {
        let mut out = crate::print::TextBuf::default();
        let mut n = Nested::new(&mut out, 3, 0);
        for piece in ["a", "b\nc", "\n", "", "d\n"] {
            n.write_str(piece).unwrap();
        }
        assert_eq!(out.as_str(), "   ab\n   c\n   d\n");
    }
}
