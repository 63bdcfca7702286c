//! [`Lines`]: the viewer's listing sink. Each line reaches the page as its text and its styled
//! runs, not as spans: a browser lays out a page of plain lines many times faster than one
//! with a span per token (a large `.gsh`'s 84 000 lines and 800 000 tokens took minutes), so
//! the page's script makes the spans only for the lines near the view.

use crate::print::{Printer, Style, escape_control};
use std::fmt::{self, Write as _};

/// A closed listing line.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line<'l> {
    /// The input byte the line describes, if any.
    pub offset: Option<u64>,
    /// The text shown (control characters escaped as every text output escapes them; not
    /// HTML-escaped).
    pub text: &'l str,
    /// The styled runs of `text`, each `GAP CLASS LEN` run together (`0addr2 1mn7`): the
    /// unstyled UTF-16 units before it (since the previous run), the class of its style
    /// ([`Style::class`]), its length in UTF-16 units (what JavaScript's strings count). The
    /// spans they give are the ones the [`Html`](crate::print::Html) sink writes for the same
    /// printing, one per run.
    pub runs: &'l str,
}

/// Where [`Lines`] hands each line.
type EachLine<'a> = &'a mut dyn FnMut(Line<'_>) -> fmt::Result;

/// A [`Printer`] that hands each line over as soon as it is closed, as a [`Line`]. Styles
/// work as in the HTML sink: a run starts at the first text after [`Printer::style`], a line
/// break ends it and the style goes on on the next line, and an error from the receiver stops
/// the printing.
pub(super) struct Lines<'a> {
    text: String,
    runs: String,
    /// A line is open, and the offset it describes.
    open: bool,
    line_offset: Option<u64>,
    /// The offset of the line to open next.
    offset: Option<u64>,
    style: Option<Style>,
    /// The open line's length and where its last run ended, in UTF-16 units.
    units: usize,
    last_end: usize,
    /// Where the current style's run started, once it has text.
    run_start: Option<usize>,
    /// Text being escaped (reused).
    shown: String,
    each: EachLine<'a>,
    failed: bool,
}

impl<'a> Lines<'a> {
    pub fn new(each: EachLine<'a>) -> Self {
        Lines {
            text: String::new(),
            runs: String::new(),
            open: false,
            line_offset: None,
            offset: None,
            style: None,
            units: 0,
            last_end: 0,
            run_start: None,
            shown: String::new(),
            each,
            failed: false,
        }
    }

    /// Close the open line, handing it over.
    pub fn finish(mut self) {
        self.close_line();
    }

    fn close_run(&mut self) {
        if let (Some(start), Some(style)) = (self.run_start.take(), self.style)
            && self.units > start
        {
            if !self.runs.is_empty() {
                self.runs.push(' ');
            }
            let _ = write!(self.runs, "{}{}{}", start - self.last_end, style.class(), self.units - start);
            self.last_end = self.units;
        }
    }

    fn close_line(&mut self) {
        self.close_run();
        if !std::mem::take(&mut self.open) {
            return;
        }
        let line = Line { offset: self.line_offset.take(), text: &self.text, runs: &self.runs };
        if !self.failed {
            self.failed = (self.each)(line).is_err();
        }
        self.text.clear();
        self.runs.clear();
        self.units = 0;
        self.last_end = 0;
    }
}

impl fmt::Write for Lines<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for (i, part) in s.split('\n').enumerate() {
            if i > 0 {
                if !self.open {
                    self.open = true;
                    self.line_offset = self.offset.take();
                }
                self.close_line();
            }
            if part.is_empty() {
                continue;
            }
            if !self.open {
                self.open = true;
                self.line_offset = self.offset.take();
            }
            if self.style.is_some() && self.run_start.is_none() {
                self.run_start = Some(self.units);
            }
            self.shown.clear();
            escape_control(part, &mut self.shown);
            self.units += self.shown.encode_utf16().count();
            self.text.push_str(&self.shown);
        }
        if self.failed { Err(fmt::Error) } else { Ok(()) }
    }
}

impl Printer for Lines<'_> {
    fn start_line(&mut self, offset: Option<u64>) {
        self.close_line();
        self.offset = offset;
    }
    fn style(&mut self, style: Style) {
        self.close_run();
        self.style = Some(style);
    }
    fn reset(&mut self) {
        self.close_run();
        self.style = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::Html;

    /// The spans a line's runs give, as the page's script makes them.
    fn spans(line: &Line<'_>) -> String {
        let text: Vec<u16> = line.text.encode_utf16().collect();
        let piece = |r: std::ops::Range<usize>| {
            let mut out = String::new();
            crate::print::escape_into(&mut out, &String::from_utf16(&text[r]).unwrap());
            out
        };
        let (mut at, mut out) = (0, String::new());
        for run in line.runs.split_whitespace() {
            let class_at = run.find(|c: char| c.is_ascii_alphabetic()).unwrap();
            let class_end = run.rfind(|c: char| c.is_ascii_alphabetic()).unwrap() + 1;
            let start = at + run[..class_at].parse::<usize>().unwrap();
            let end = start + run[class_end..].parse::<usize>().unwrap();
            out += &piece(at..start);
            out += &format!("<span class=\"{}\">{}</span>", &run[class_at..class_end], piece(start..end));
            at = end;
        }
        out + &piece(at..text.len())
    }

    /// The same printing through both sinks: each line's runs give the HTML sink's spans.
    #[test]
    fn runs_give_the_html_sinks_spans() {
        fn print(p: &mut dyn Printer) {
            p.start_line(Some(4));
            p.styled(Style::Address, "00").unwrap();
            p.write_str(" ").unwrap();
            p.styled(Style::Mnemonic, "mov").unwrap();
            p.style(Style::Register);
            p.write_str("").unwrap();
            p.reset();
            p.write_str(" a<b \u{1} ").unwrap();
            p.styled(Style::Literal, "é𝄞1").unwrap();
            p.styled(Style::Literal, "2").unwrap();
            p.style(Style::Comment);
            p.write_str("; two\n; lines").unwrap();
            p.reset();
            p.start_line(None);
            p.write_str("\n").unwrap();
        }
        let mut html = Html::default();
        print(&mut html);
        let html = html.finish();
        let mut got = Vec::new();
        let mut runs = Vec::new();
        let mut each = |line: Line<'_>| {
            runs.push(line.runs.to_string());
            let mut div = String::new();
            Html::div(&mut div, line.offset, &spans(&line))?;
            got.push(div);
            Ok(())
        };
        let mut sink = Lines::new(&mut each);
        print(&mut sink);
        sink.finish();
        assert_eq!(got.concat(), html);
        assert_eq!(runs, ["0addr2 1mn3 10lit4 0lit1 0cm5", "0cm7", ""]);
    }
}
