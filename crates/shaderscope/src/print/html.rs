//! [`Html`]: the HTML sink, one `<div>` a line and one `<span>` a styled token.

use super::{Printer, Style, write_u64};
use std::fmt;

/// HTML: one `<div>` a line, with `data-offset` when the line describes input bytes, and one
/// `<span class="…">` per styled token (classes from [`Style::class`]). A span never crosses a
/// line. Call [`Html::finish`] for the markup; or make the sink with [`Html::each_line`] to
/// have each line handed over as soon as it is closed (the pages of [`crate::page`] are
/// written as they are produced, and the viewer gives its lines attributes of its own).
#[derive(Default)]
pub struct Html<'a> {
    /// The markup of every closed line, when the sink keeps it ([`Html::default`]).
    out: String,
    /// The markup of the open line (its content: text and spans).
    line: String,
    /// A `<div>` is open.
    open: bool,
    /// The offset of the line to open next.
    offset: Option<u64>,
    /// The offset of the open line.
    line_offset: Option<u64>,
    /// The current style, and whether its span is open.
    styled: Option<(Style, bool)>,
    /// Where each closed line goes instead of `out` ([`Html::each_line`]).
    each: Option<EachLine<'a>>,
    /// `each` failed: no line is handed over any more and every write fails.
    failed: bool,
}

/// Where [`Html::each_line`] hands each line: its offset and its markup.
type EachLine<'a> = &'a mut dyn FnMut(Option<u64>, &str) -> fmt::Result;

impl fmt::Debug for Html<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Html")
            .field("out", &self.out)
            .field("line", &self.line)
            .field("offset", &self.offset)
            .field("line_offset", &self.line_offset)
            .field("each_line", &self.each.is_some())
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl<'a> Html<'a> {
    /// A sink that keeps only the open line: each line goes to `each` as soon as it is closed,
    /// with its offset and its markup (the content of its `<div>`: text and spans, escaped).
    /// An error from `each` ends the printing: the lines after it are dropped and every later
    /// write fails, so the printer stops.
    ///
    /// ```
    /// use shaderscope::print::{Html, Printer, Style};
    ///
    /// let mut got = Vec::new();
    /// let mut keep = |offset: Option<u64>, markup: &str| {
    ///     got.push((offset, markup.to_string()));
    ///     Ok(())
    /// };
    /// let mut h = Html::each_line(&mut keep);
    /// h.start_line(Some(0x40));
    /// h.styled(Style::Mnemonic, "ret").unwrap();
    /// h.styled(Style::Comment, "\n// a < b\n").unwrap();
    /// h.finish();
    /// assert_eq!(
    ///     got,
    ///     [
    ///         (Some(0x40), "<span class=\"mn\">ret</span>".to_string()),
    ///         (None, "<span class=\"cm\">// a &lt; b</span>".to_string())
    ///     ]
    /// );
    /// ```
    pub fn each_line(each: &'a mut dyn FnMut(Option<u64>, &str) -> fmt::Result) -> Self {
        Html { each: Some(each), ..Html::default() }
    }

    /// The markup, with any open line closed. A sink made by [`Html::each_line`] hands the
    /// open line over and returns nothing.
    pub fn finish(mut self) -> String {
        self.close_line();
        self.out
    }

    /// One line as [`Html::finish`]'s markup holds it: `<div data-offset="…">` (`<div>` for a
    /// line that shows no bytes), its markup, `</div>` and a line break. For the lines
    /// [`Html::each_line`] hands over, written elsewhere as the sink would have kept them.
    pub fn div<W: fmt::Write + ?Sized>(out: &mut W, offset: Option<u64>, markup: &str) -> fmt::Result {
        match offset {
            Some(o) => {
                out.write_str("<div data-offset=\"")?;
                write_u64(out, o)?;
                out.write_str("\">")?;
            }
            None => out.write_str("<div>")?,
        }
        out.write_str(markup)?;
        out.write_str("</div>\n")
    }

    fn open_line(&mut self) {
        if !self.open {
            self.open = true;
            self.line_offset = self.offset.take();
        }
    }

    fn close_span(&mut self) {
        if let Some((_, open @ true)) = &mut self.styled {
            *open = false;
            self.line.push_str("</span>");
        }
    }

    fn close_line(&mut self) {
        self.close_span();
        if !std::mem::take(&mut self.open) {
            return;
        }
        let offset = self.line_offset.take();
        match &mut self.each {
            Some(each) if !self.failed => self.failed = each(offset, &self.line).is_err(),
            Some(_) => {}
            None => {
                let _ = Html::div(&mut self.out, offset, &self.line);
            }
        }
        self.line.clear();
    }
}

impl fmt::Write for Html<'_> {
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
                self.line.push_str("<span class=\"");
                self.line.push_str(style.class());
                self.line.push_str("\">");
            }
            escape_into(&mut self.line, part);
        }
        if self.failed { Err(fmt::Error) } else { Ok(()) }
    }
}

impl Printer for Html<'_> {
    fn start_line(&mut self, offset: Option<u64>) {
        self.close_line();
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

    /// What the sink keeps and what it hands over a line at a time are the same lines.
    #[test]
    fn lines_and_markup_agree() {
        fn print(h: &mut Html<'_>) {
            h.start_line(Some(4));
            h.styled(Style::Comment, "// a\n// <b>").unwrap();
            h.write_str("\n\n").unwrap();
            h.start_line(Some(9));
            h.write_str("x & y").unwrap();
        }
        let mut h = Html::default();
        print(&mut h);
        let markup = h.finish();
        assert_eq!(
            markup,
            "<div data-offset=\"4\"><span class=\"cm\">// a</span></div>\n\
             <div><span class=\"cm\">// &lt;b&gt;</span></div>\n<div></div>\n\
             <div data-offset=\"9\">x &amp; y</div>\n"
        );
        let mut lines = Vec::new();
        let mut again = String::new();
        let mut each = |offset: Option<u64>, line: &str| {
            lines.push((offset, line.to_string()));
            Html::div(&mut again, offset, line)
        };
        let mut h = Html::each_line(&mut each);
        print(&mut h);
        assert_eq!(h.finish(), "");
        assert_eq!(again, markup);
        assert_eq!(
            lines,
            [
                (Some(4), "<span class=\"cm\">// a</span>".to_string()),
                (None, "<span class=\"cm\">// &lt;b&gt;</span>".to_string()),
                (None, String::new()),
                (Some(9), "x &amp; y".to_string()),
            ]
        );
    }

    /// The first error of the line writer ends the printing: later writes fail and no line
    /// is handed over after it.
    #[test]
    fn a_failed_line_stops_the_printing() {
        let mut calls = 0;
        let mut each = |_: Option<u64>, _: &str| {
            calls += 1;
            Err(fmt::Error)
        };
        let mut h = Html::each_line(&mut each);
        assert_eq!(h.write_str("a"), Ok(()));
        assert_eq!(h.write_str("\nb"), Err(fmt::Error));
        h.start_line(None);
        assert_eq!(h.write_str("c\n"), Err(fmt::Error));
        h.finish();
        assert_eq!(calls, 1);
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
