//! [`Html`]: the HTML sink, one `<div>` a line and one `<span>` a styled token.

use super::{Printer, Style, write_u64};
use std::fmt;
use std::ops::Range;

/// HTML: one `<div>` a line, with `data-offset` when the line describes input bytes, and one
/// `<span class="…">` per styled token (classes from [`Style::class`]). A span never crosses a
/// line. Call [`Html::finish`] for the markup, or [`Html::into_lines`] for each line's offset
/// and markup apart (the page builders of [`crate::page`] give lines attributes of their own).
#[derive(Debug, Default, Clone)]
pub struct Html {
    out: String,
    /// A `<div>` is open; its content starts at this byte of `out`.
    open_line: Option<usize>,
    /// The offset of the line to open next.
    offset: Option<u64>,
    /// The offset of the open line.
    line_offset: Option<u64>,
    /// The current style, and whether its span is open.
    styled: Option<(Style, bool)>,
    /// Every closed line: its offset and where its content is in `out`.
    lines: Vec<(Option<u64>, Range<usize>)>,
}

/// The lines an [`Html`] sink wrote, each with its offset and its markup (the content of its
/// `<div>`: text and spans, escaped).
///
/// ```
/// use shaderscope::print::{Html, Printer, Style};
///
/// let mut h = Html::default();
/// h.start_line(Some(0x40));
/// h.styled(Style::Mnemonic, "ret").unwrap();
/// h.styled(Style::Comment, "\n// a < b\n").unwrap();
/// let lines = h.into_lines();
/// let got: Vec<_> = lines.iter().collect();
/// assert_eq!(
///     got,
///     [(Some(0x40), "<span class=\"mn\">ret</span>"), (None, "<span class=\"cm\">// a &lt; b</span>")]
/// );
/// ```
#[derive(Debug, Default, Clone)]
pub struct HtmlLines {
    out: String,
    lines: Vec<(Option<u64>, Range<usize>)>,
}

impl HtmlLines {
    /// Each line's offset and markup, in order.
    pub fn iter(&self) -> impl Iterator<Item = (Option<u64>, &str)> + '_ {
        self.lines.iter().map(|(o, r)| (*o, self.out.get(r.clone()).unwrap_or("")))
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// True when no line was written.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

impl Html {
    /// The markup, with any open line closed.
    pub fn finish(mut self) -> String {
        self.close_line();
        self.out
    }

    /// The lines apart, with any open line closed.
    pub fn into_lines(mut self) -> HtmlLines {
        self.close_line();
        HtmlLines { out: self.out, lines: self.lines }
    }

    fn open_line(&mut self) {
        if self.open_line.is_some() {
            return;
        }
        self.line_offset = self.offset.take();
        match self.line_offset {
            Some(o) => {
                self.out.push_str("<div data-offset=\"");
                let _ = write_u64(&mut self.out, o);
                self.out.push_str("\">");
            }
            None => self.out.push_str("<div>"),
        }
        self.open_line = Some(self.out.len());
    }

    fn close_span(&mut self) {
        if let Some((_, open @ true)) = &mut self.styled {
            *open = false;
            self.out.push_str("</span>");
        }
    }

    fn close_line(&mut self) {
        self.close_span();
        if let Some(start) = self.open_line.take() {
            self.lines.push((self.line_offset.take(), start..self.out.len()));
            self.out.push_str("</div>\n");
        }
    }
}

impl fmt::Write for Html {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for (i, part) in s.split('\n').enumerate() {
            if i > 0 {
                self.open_line();
                self.close_line();
            }
            if part.is_empty() {
                continue;
            }
            self.open_line();
            if let Some((style, open @ false)) = &mut self.styled {
                *open = true;
                self.out.push_str("<span class=\"");
                self.out.push_str(style.class());
                self.out.push_str("\">");
            }
            escape_into(&mut self.out, part);
        }
        Ok(())
    }
}

impl Printer for Html {
    fn start_line(&mut self, offset: Option<u64>) {
        if self.open_line.is_some() {
            self.close_line();
        }
        self.offset = offset;
    }
    fn style(&mut self, style: Style) {
        self.close_span();
        self.styled = Some((style, false));
    }
    fn reset(&mut self) {
        self.close_span();
        self.styled = None;
    }
}

/// Append `text` with `<`, `>` and `&` escaped (enough for element content).
pub(crate) fn escape_into(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(i) = rest.find(['<', '>', '&']) {
        super::escape_control(rest.get(..i).unwrap_or(""), out);
        out.push_str(match rest.as_bytes().get(i) {
            Some(b'<') => "&lt;",
            Some(b'>') => "&gt;",
            _ => "&amp;",
        });
        rest = rest.get(i + 1..).unwrap_or("");
    }
    super::escape_control(rest, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    #[test]
    fn lines_and_markup_agree() {
        let mut h = Html::default();
        h.start_line(Some(4));
        h.styled(Style::Comment, "// a\n// <b>").unwrap();
        h.write_str("\n\n").unwrap();
        h.start_line(Some(9));
        h.write_str("x & y").unwrap();
        let markup = h.clone().finish();
        assert_eq!(
            markup,
            "<div data-offset=\"4\"><span class=\"cm\">// a</span></div>\n\
             <div><span class=\"cm\">// &lt;b&gt;</span></div>\n<div></div>\n\
             <div data-offset=\"9\">x &amp; y</div>\n"
        );
        let lines = h.into_lines();
        let got: Vec<_> = lines.iter().collect();
        assert_eq!(
            got,
            [
                (Some(4), "<span class=\"cm\">// a</span>"),
                (None, "<span class=\"cm\">// &lt;b&gt;</span>"),
                (None, ""),
                (Some(9), "x &amp; y"),
            ]
        );
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn a_start_line_without_text_leaves_no_line() {
        let mut h = Html::default();
        h.start_line(Some(1));
        h.start_line(Some(2));
        h.write_str("a\n").unwrap();
        assert_eq!(h.finish(), "<div data-offset=\"2\">a</div>\n");
    }
}
