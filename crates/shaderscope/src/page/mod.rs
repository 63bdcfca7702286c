//! Standalone HTML pages: a listing page (`shaderscope disasm --html`) and the viewer
//! (`shaderscope view`), which shows a file's listing beside a hex view of its bytes, linked
//! both ways.
//!
//! Both are complete documents (`<!DOCTYPE html>`, inline CSS and script, no fonts, images or
//! scripts from elsewhere), so a page opens from disk with no network. The listing page's
//! listing is the [`Html`] sink's: one `<div>` a line, `data-offset` the absolute file offset
//! of the bytes the line shows, one `<span>` per token with its kind's class
//! ([`Style::class`]), in a monospace font with `white-space: pre`.
//!
//! The viewer is made for listings of any length: its lines are text with their styled runs
//! in `data-k` (`GAP CLASS LEN`, in UTF-16 units), from which its script makes the same spans
//! for the lines near the view, and they come in blocks of 256 that the browser lays out only
//! when shown (`content-visibility: auto`). Every line's text is in the page from the start
//! (the browser's find and copy see all of it).
//!
//! Both are written as they are produced, to any [`io::Write`]: a listing line as soon as the
//! [`Html`] sink closes it ([`Html::each_line`]), the viewer's embedded annotations as
//! [`Annotations::rows`] gives them, its file's base64 a block at a time. Besides the parsed
//! file, the viewer holds its annotations, the dump's sections and two numbers per listing
//! line while it writes; never the page.
//!
//! The viewer adds, for each line that shows bytes, the length of its range (`data-len`):
//! - an instruction whose record ([`Container::disasm_json`], `instructions[]` with `offset`
//!   and `words`) starts at the line's offset covers its words;
//! - any other line runs from its offset to the next offset at which a line of the listing
//!   starts, and no further than the end of the innermost dump section (a chunk, a table, a
//!   program) that holds its offset. So consecutive instructions and table rows divide their
//!   structure between them, and the last of them ends with it.
//!
//! The page embeds the file (base64) and its dump annotations as `dump` resolves them
//! ([`Annotations::rows`]: each section, and each byte's meaning once, table entries and
//! unmodelled ranges included), from which its script draws the hex rows in view. Clicking a line highlights its
//! bytes; clicking a byte highlights the field that holds it, the line that shows it and names
//! the structures around it; each byte's tooltip is its field's meaning and those structures.
//!
//! ```
//! use shaderscope::{DisasmOptions, page};
//!
//! let bytes = shaderscope::shbin::build::example_vertex_shader();
//! let file = shaderscope::parse(&bytes)?;
//! let mut html = Vec::new();
//! let page = page::write_viewer(&file, &bytes, "vshader.shbin", &DisasmOptions::default(), &mut html);
//! assert!(page.error.is_none() && page.io.is_ok());
//! let html = String::from_utf8(html).unwrap();
//! assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
//! // The first instruction: one 4-byte code word at 0x34, `mov` in its mnemonic's style.
//! assert!(html.contains("<div class=\"l\" data-offset=\"52\" data-len=\"4\" data-addr=\"0034\" data-k=\"1mn3 1reg6 2reg2\">\tmov r0.xyz, v0</div>"));
//! # Ok::<(), shaderscope::Error>(())
//! ```
//!
//! [`Style::class`]: crate::print::Style::class

use crate::container::Container;
use crate::detect::Format;
use crate::dump::{Annotations, Row};
use crate::error::Error;
use crate::model::DisasmOptions;
use crate::print::count;
use crate::print::{Html, Printer, escape_into, write_hex, write_u64};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::{self, Write as _};
use std::io;
use std::ops::Range;

mod lines;

use lines::{Line, Lines};

const CSS: &str = include_str!("page.css");
/// Listing lines per block of the viewer: a block off screen is not laid out
/// (`content-visibility: auto`), so a page of any length opens as fast as a few blocks.
const BLOCK: usize = 256;
const VIEWER_JS: &str = include_str!("viewer.js");

/// The start of a listing page titled `title`, up to the first file's section: the document
/// head with its style sheet. Follow it with [`write_listing_file`] for each file and end it
/// with [`LISTING_TAIL`].
///
/// ```
/// use shaderscope::print::{Printer, Style};
/// use shaderscope::page;
///
/// let mut html = page::listing_head("a.dxbc").into_bytes();
/// let written = page::write_listing_file(&mut html, "a.dxbc", |p| {
///     p.start_line(Some(0x40));
///     p.styled(Style::Mnemonic, "ret").unwrap();
///     Ok(())
/// });
/// assert!(written.error.is_none() && written.io.is_ok());
/// html.extend_from_slice(page::LISTING_TAIL.as_bytes());
/// let html = String::from_utf8(html).unwrap();
/// assert!(html.starts_with("<!DOCTYPE html>"));
/// assert!(html.contains("<div data-offset=\"64\"><span class=\"mn\">ret</span></div>"));
/// assert!(html.ends_with("</html>\n"));
/// ```
pub fn listing_head(title: &str) -> String {
    let mut out = String::new();
    head(&mut out, title);
    out.push_str("<body class=\"listings\">\n<main>\n");
    out
}

/// One file's listing, as a section of a listing page headed by its name, written to `out` a
/// line at a time as `listing` prints it into the [`Html`] sink it is given (the writer is not
/// flushed: the page goes on).
pub fn write_listing_file(
    out: &mut dyn io::Write,
    name: &str,
    listing: impl FnOnce(&mut dyn Printer) -> crate::Result<()>,
) -> Written {
    let mut out = Out::new(out);
    let mut listed = Ok(());
    let written = Section::start(&mut out, name).and_then(|mut section| {
        let mut each = |offset: Option<u64>, markup: &str| section.line(offset, markup);
        let mut sink = Html::each_line(&mut each);
        listed = listing(&mut sink);
        sink.finish();
        section.end()
    });
    let io = out.result(written);
    // A listing stopped because its lines could not be written has no error of its own.
    let error = if io.is_ok() { listed.err() } else { None };
    Written { error, io }
}

/// A file's section of a listing page as it is written: its heading, the lines of [`Html`]
/// sinks ([`Html::each_line`]) in blocks of 256 that a browser lays out only when shown (a
/// page of any length opens as fast as a few blocks), its end. [`write_listing_file`] writes
/// one; `dump --html` writes its rows into one.
pub struct Section<'w> {
    out: &'w mut dyn fmt::Write,
    blocks: Blocks,
}

impl fmt::Debug for Section<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Section").field("blocks", &self.blocks).finish_non_exhaustive()
    }
}

impl<'w> Section<'w> {
    /// The section of the file shown as `name`: its heading written to `out`.
    pub fn start(out: &'w mut dyn fmt::Write, name: &str) -> Result<Self, fmt::Error> {
        let mut heading = String::from("<section class=\"file\">\n<h2>");
        escape_into(&mut heading, name);
        heading.push_str("</h2>\n<div class=\"listing\">\n");
        out.write_str(&heading)?;
        Ok(Section { out, blocks: Blocks::default() })
    }

    /// One line as [`Html::div`] writes it.
    pub fn line(&mut self, offset: Option<u64>, markup: &str) -> fmt::Result {
        self.blocks.before_line(self.out, None)?;
        Html::div(self.out, offset, markup)
    }

    /// The end of the section.
    pub fn end(self) -> fmt::Result {
        self.blocks.end(self.out)?;
        self.out.write_str("</div>\n</section>\n")
    }
}

/// Listing lines in blocks of [`BLOCK`]: `<div class="k">` (page.css gives it
/// `content-visibility: auto` and the height of 256 lines until it is laid out).
#[derive(Debug, Default)]
struct Blocks {
    lines: usize,
}

impl Blocks {
    /// Before each line: after [`BLOCK`] lines a block ends and the next begins, with its
    /// height when the number of lines still to come (`left`, this one included) is known.
    fn before_line(&mut self, out: &mut dyn fmt::Write, left: Option<usize>) -> fmt::Result {
        if self.lines % BLOCK == 0 {
            if self.lines > 0 {
                out.write_str("</div>\n")?;
            }
            match left {
                Some(n) => writeln!(
                    out,
                    "<div class=\"k\" style=\"contain-intrinsic-size:auto {}px\">",
                    n.clamp(1, BLOCK) * 18
                )?,
                None => out.write_str("<div class=\"k\">\n")?,
            }
        }
        self.lines += 1;
        Ok(())
    }

    /// After the last line.
    fn end(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        if self.lines > 0 { out.write_str("</div>\n") } else { Ok(()) }
    }
}

/// The end of a listing page.
pub const LISTING_TAIL: &str = "</main>\n</body>\n</html>\n";

fn head(out: &mut String, title: &str) {
    out.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"shaderscope ",
    );
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str("\">\n<title>");
    escape_into(out, title);
    out.push_str(" · shaderscope</title>\n<style>\n");
    out.push_str(CSS);
    out.push_str("</style>\n</head>\n");
}

/// How writing a page went.
#[derive(Debug)]
#[non_exhaustive]
pub struct Written {
    /// Why the listing stopped early, if it did (the page shows what was listed before, and
    /// says so). The viewer's page also names each damaged part ([`Container::damage`]), as
    /// every command reports it.
    pub error: Option<Error>,
    /// The writer's first error, if one stopped the writing: the page ends where it failed.
    pub io: io::Result<()>,
}

/// A viewer page and how its listing went: [`write_viewer`] into memory.
#[derive(Debug)]
#[non_exhaustive]
pub struct Viewer {
    /// The page.
    pub html: String,
    /// Why the listing stopped early, if it did ([`Written::error`]).
    pub error: Option<Error>,
}

/// The viewer page of `file` (parsed from `data`, shown as `name`), its listing printed with
/// `opts`, as one string: [`write_viewer`] into memory, for a page known to be small.
pub fn viewer(file: &dyn Container, data: &[u8], name: &str, opts: &DisasmOptions) -> Viewer {
    let mut html = Vec::new();
    let written = write_viewer(file, data, name, opts, &mut html);
    Viewer { html: String::from_utf8_lossy(&html).into_owned(), error: written.error }
}

/// Write the viewer page of `file` (parsed from `data`, shown as `name`), its listing printed
/// with `opts`, to `out` as it is produced, and flush it: see the
/// [module documentation](self).
///
/// The listing is printed twice: once for where its lines start (a line's `data-len` depends
/// on where the next one starts) and for the error it stops at (which the page's header
/// names), then into the page. A base64 `.csdr` is shown decoded: its listing's offsets are
/// those of the binary it holds.
pub fn write_viewer(
    file: &dyn Container,
    data: &[u8],
    name: &str,
    opts: &DisasmOptions,
    out: &mut dyn io::Write,
) -> Written {
    if file.format() == Format::Csdr
        && let Ok(part) = file.part("decoded")
        && let Ok(inner) = crate::parse(&part.bytes)
    {
        let note = format!("base64 text, shown decoded ({} of text)", count(data.len(), "byte"));
        return page(&inner, &part.bytes, name, Some(&note), opts, out);
    }
    page(file, data, name, None, opts, out)
}

fn page(
    file: &dyn Container,
    data: &[u8],
    name: &str,
    note: Option<&str>,
    opts: &DisasmOptions,
    out: &mut dyn io::Write,
) -> Written {
    let size = data.len() as u64;
    // Where the listing's lines start, how many there are, and the error it stops at.
    let mut starts: Vec<u64> = Vec::new();
    let mut count = 0usize;
    let mut each = |line: Line<'_>| {
        count += 1;
        if let Some(o) = line.offset.filter(|&o| o < size && starts.last() != Some(&o)) {
            starts.push(o);
        }
        Ok(())
    };
    let mut sink = Lines::new(&mut each);
    let error = file.disasm(opts, &mut sink).err();
    sink.finish();
    // Each large thing is made when the page needs it and let go of before the next: the
    // info text, the annotations (of the instruction records only their lengths are kept).
    let exact = instruction_lengths(file, opts);
    let mut out = Out::new(out);
    let written = header(&mut out, file, size, name, note, error.as_ref())
        .and_then(|()| listing_and_bytes(&mut out, file, data, opts, (starts, count), exact))
        .and_then(|()| out.flush());
    Written { error, io: out.result(written) }
}

/// The page up to its listing: the document head, the file's name, format, size and info,
/// the error the listing stopped at and each damaged part.
fn header(
    out: &mut Out<'_>,
    file: &dyn Container,
    size: u64,
    name: &str,
    note: Option<&str>,
    error: Option<&Error>,
) -> fmt::Result {
    let mut start = String::new();
    head(&mut start, name);
    out.write_str(&start)?;
    out.write_str("<body class=\"viewer\">\n<header><h1>")?;
    out.escaped(name)?;
    out.write_str("</h1><span class=\"meta\">")?;
    out.write_str(file.format().name())?;
    out.write_str(" · ")?;
    write_u64(out, size)?;
    out.write_str(if size == 1 { " byte" } else { " bytes" })?;
    if let Some(note) = note {
        out.write_str(" · ")?;
        out.escaped(note)?;
    }
    out.write_str("</span><span class=\"legend\">")?;
    for (class, kind) in [
        ("mn", "mnemonic"),
        ("reg", "register"),
        ("lit", "literal"),
        ("lbl", "label"),
        ("dir", "directive"),
        ("cm", "comment"),
        ("addr", "address"),
    ] {
        write!(out, "<span class=\"{class}\">{kind}</span>")?;
    }
    out.write_str("</span>\n<details class=\"info\"><summary>info</summary><pre>")?;
    file.write_info_text(&mut Escaped(out))?;
    out.write_str("</pre></details>\n")?;
    // What every command reports about the file: the error the listing stopped at, and each
    // damaged part (the listing leaves it out or stops at it).
    let damage = file.damage();
    if let Some(e) = error.filter(|e| !damage.contains(e)) {
        out.write_str("<p class=\"error\">The listing stopped early: ")?;
        out.escaped(&e.to_string())?;
        out.write_str("</p>\n")?;
    }
    for e in &damage {
        out.write_str("<p class=\"error\">Damaged: ")?;
        out.escaped(&e.to_string())?;
        out.write_str("</p>\n")?;
    }
    out.write_str("</header>\n")
}

/// The rest of the page: the listing, each line with the bytes it shows (from where the lines
/// start, the dump's sections and the instructions' exact lengths), the hex pane, and the
/// data its script draws from.
fn listing_and_bytes(
    out: &mut Out<'_>,
    file: &dyn Container,
    data: &[u8],
    opts: &DisasmOptions,
    (starts, count): (Vec<u64>, usize),
    exact: Vec<(u64, u64)>,
) -> fmt::Result {
    let size = data.len() as u64;
    let mut notes = Annotations::new();
    file.annotate(&mut notes);
    // The sections `dump` shows, each once; the fields are written as the page reaches them.
    let mut sections: Vec<(Range<u64>, String)> = Vec::new();
    let _ = notes.rows(data, 0..u64::MAX, |row| {
        if let Row::Section { start, len, title, .. } = row {
            sections.push((start..start.saturating_add(len), title.into()));
        }
        Ok::<(), ()>(())
    });
    sections.sort_by(|a, b| a.0.start.cmp(&b.0.start).then(b.0.end.cmp(&a.0.end)));
    let ends = LineEnds::new(starts, sections.iter().map(|(r, _)| r.clone()), &exact, size);
    drop(exact);
    out.write_str("<main>\n<section id=\"listing\" class=\"listing\">\n")?;
    let digits = format!("{:x}", size.saturating_sub(1)).len().max(4);
    let mut blocks = Blocks::default();
    let mut each = |line: Line<'_>| {
        // A block's height before it is laid out: its lines', as the first printing counted them.
        blocks.before_line(out, Some(count.saturating_sub(blocks.lines)))?;
        out.write_str("<div class=\"l\"")?;
        if let Some(o) = line.offset {
            out.write_str(" data-offset=\"")?;
            write_u64(out, o)?;
            out.write_char('"')?;
            if let Some(r) = ends.range(o) {
                out.write_str(" data-len=\"")?;
                write_u64(out, r.end - r.start)?;
                out.write_char('"')?;
            }
            out.write_str(" data-addr=\"")?;
            write_hex(out, o, digits)?;
            out.write_char('"')?;
        }
        if !line.runs.is_empty() {
            out.write_str(" data-k=\"")?;
            out.write_str(line.runs)?;
            out.write_char('"')?;
        }
        out.write_char('>')?;
        out.escaped(line.text)?;
        out.write_str("</div>\n")
    };
    let mut sink = Lines::new(&mut each);
    // The listing stops where it did the first time (its error is in the header already).
    let _ = file.disasm(opts, &mut sink);
    sink.finish();
    blocks.end(out)?;
    drop(ends);
    out.write_str(
        "</section>\n<section id=\"hexpane\" class=\"hex\">\n\
         <details id=\"outline\"><summary>structures (",
    )?;
    write_u64(out, sections.len() as u64)?;
    out.write_str(
        ")</summary><div id=\"tree\"></div></details>\n<div id=\"hexhead\"></div>\n\
         <div id=\"hex\"><div id=\"hexsizer\"><div id=\"hexrows\"></div></div></div>\n\
         </section>\n</main>\n<footer id=\"status\"></footer>\n\
         <script type=\"application/json\" id=\"ss-data\">",
    )?;
    embed_data(&mut ScriptSafe(out), data, &sections, &notes).map_err(|_| fmt::Error)?;
    out.write_str("</script>\n<script>\n")?;
    out.write_str(VIEWER_JS)?;
    out.write_str("</script>\n</body>\n</html>\n")
}

/// Input bytes encoded to base64 at a time (a multiple of 3, so that the blocks' text joins
/// into the whole's).
const BASE64_BLOCK: usize = 3 << 14;

/// The page's data as JSON: `{"size", "data" (base64), "sections", "fields"}`, each range as
/// `[start, end, text]`; the fields are the rows `dump` shows (every byte's meaning once,
/// table entries and what a format did not model included), written as
/// [`Annotations::rows`] gives them.
fn embed_data(
    out: &mut dyn io::Write,
    data: &[u8],
    sections: &[(Range<u64>, String)],
    notes: &Annotations,
) -> io::Result<()> {
    use base64::Engine;
    write!(out, "{{\"size\":{},\"data\":\"", data.len())?;
    let mut text = String::new();
    for block in data.chunks(BASE64_BLOCK) {
        text.clear();
        base64::engine::general_purpose::STANDARD.encode_string(block, &mut text);
        out.write_all(text.as_bytes())?;
    }
    out.write_all(b"\",\"sections\":[")?;
    for (i, (r, title)) in sections.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write!(out, "[{},{},", r.start, r.end)?;
        serde_json::to_writer(&mut *out, title)?;
        out.write_all(b"]")?;
    }
    out.write_all(b"],\"fields\":[")?;
    let mut first = true;
    notes.rows(data, 0..u64::MAX, |row| {
        let Row::Field { start, len, text: meaning, from } = row else { return Ok(()) };
        if !std::mem::take(&mut first) {
            out.write_all(b",")?;
        }
        write!(out, "[{},{},", start, start.saturating_add(len))?;
        if from < start {
            text.clear();
            let _ = write!(text, "{meaning} (continued from 0x{from:x})");
            serde_json::to_writer(&mut *out, &text)?;
        } else {
            serde_json::to_writer(&mut *out, meaning)?;
        }
        out.write_all(b"]")
    })?;
    out.write_all(b"]}")
}

/// The writer of a page: its pieces are formatted straight into `w`; the first I/O error is
/// kept and every write after it fails.
struct Out<'w> {
    w: &'w mut dyn io::Write,
    error: Option<io::Error>,
    /// Escaped text on its way out (reused).
    escaped: String,
}

impl<'w> Out<'w> {
    fn new(w: &'w mut dyn io::Write) -> Self {
        Out { w, error: None, escaped: String::new() }
    }

    fn bytes(&mut self, b: &[u8]) -> fmt::Result {
        if self.error.is_none()
            && let Err(e) = self.w.write_all(b)
        {
            self.error = Some(e);
        }
        if self.error.is_some() { Err(fmt::Error) } else { Ok(()) }
    }

    /// `text` as element content (`<`, `>`, `&` and control characters escaped), a line at a
    /// time.
    fn escaped(&mut self, text: &str) -> fmt::Result {
        let mut escaped = std::mem::take(&mut self.escaped);
        let mut r = Ok(());
        for line in text.split_inclusive('\n') {
            escaped.clear();
            escape_into(&mut escaped, line);
            r = self.bytes(escaped.as_bytes());
            if r.is_err() {
                break;
            }
        }
        self.escaped = escaped;
        r
    }

    fn flush(&mut self) -> fmt::Result {
        if self.error.is_none()
            && let Err(e) = self.w.flush()
        {
            self.error = Some(e);
        }
        if self.error.is_some() { Err(fmt::Error) } else { Ok(()) }
    }

    /// How the writing went, given what the writing of the page returned.
    fn result(&mut self, written: fmt::Result) -> io::Result<()> {
        match (self.error.take(), written) {
            (Some(e), _) => Err(e),
            (None, Ok(())) => Ok(()),
            (None, Err(fmt::Error)) => Err(io::Error::other("the page could not be formatted")),
        }
    }
}

impl fmt::Write for Out<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.bytes(s.as_bytes())
    }
}

/// Text written into the page HTML-escaped as it comes (the info summary, which is not held
/// whole).
struct Escaped<'o, 'w>(&'o mut Out<'w>);

impl fmt::Write for Escaped<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.escaped(s)
    }
}

/// The JSON in the page's script element: every `<` written `\u003c` as it is written, so
/// no text can end the element.
struct ScriptSafe<'o, 'w>(&'o mut Out<'w>);

impl io::Write for ScriptSafe<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let failed = |_| io::Error::other("the page could not be written");
        for (i, piece) in buf.split(|&b| b == b'<').enumerate() {
            if i > 0 {
                self.0.bytes(b"\\u003c").map_err(failed)?;
            }
            self.0.bytes(piece).map_err(failed)?;
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The byte length of each instruction of every program in a file's `disasm` records, by
/// offset (none where the records fail), each taken as its record is made: no record, and no
/// listing text, is kept.
fn instruction_lengths(file: &dyn Container, opts: &DisasmOptions) -> Vec<(u64, u64)> {
    let mut lengths = Vec::new();
    let visited = crate::json::Disasm::visit(
        |sink| file.write_disasm_json(opts, sink),
        |_| {},
        |record| lengths.push((record.offset, 4 * record.words.len() as u64)),
    );
    match visited {
        Ok(()) => lengths,
        Err(_) => Vec::new(),
    }
}

/// The bytes each listing line shows (see the module documentation), from where the lines
/// start, the dump sections and the exact lengths (offset, bytes) that instruction records
/// give: the offsets at which lines start, in order and each once, and where each one's
/// bytes end.
#[derive(Debug)]
struct LineEnds {
    starts: Vec<u64>,
    ends: Vec<u64>,
}

impl LineEnds {
    /// `starts`: the offsets of the lines that show bytes, below `size`, in any order.
    fn new(
        mut starts: Vec<u64>,
        sections: impl Iterator<Item = Range<u64>>,
        exact: &[(u64, u64)],
        size: u64,
    ) -> Self {
        starts.sort_unstable();
        starts.dedup();
        starts.shrink_to_fit();
        let mut by_start: Vec<Range<u64>> = sections.filter(|r| r.start < r.end).collect();
        by_start.sort_by_key(|r| r.start);
        // Sweep the starts in order, keeping the ends of the sections open at each.
        let mut open = BinaryHeap::new();
        let mut next_section = by_start.into_iter().peekable();
        let mut ends = Vec::with_capacity(starts.len());
        for (i, &o) in starts.iter().enumerate() {
            while let Some(r) = next_section.next_if(|r| r.start <= o) {
                open.push(Reverse(r.end));
            }
            while open.peek().is_some_and(|Reverse(e)| *e <= o) {
                open.pop();
            }
            let next = starts.get(i + 1).copied().unwrap_or(size);
            let cap = open.peek().map_or(size, |Reverse(e)| (*e).min(size));
            ends.push(next.min(cap));
        }
        for &(o, len) in exact {
            if len > 0
                && let Ok(i) = starts.binary_search(&o)
                && let Some(end) = ends.get_mut(i)
            {
                *end = o.saturating_add(len).min(size);
            }
        }
        LineEnds { starts, ends }
    }

    /// The bytes the line at `offset` shows: none when no line starts there below the size.
    fn range(&self, offset: u64) -> Option<Range<u64>> {
        let i = self.starts.binary_search(&offset).ok()?;
        self.ends.get(i).map(|&e| offset..e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The range of each line of a listing whose lines have these offsets.
    fn ranges(
        offsets: &[Option<u64>],
        sections: &[Range<u64>],
        exact: &[(u64, u64)],
        size: u64,
    ) -> Vec<Option<Range<u64>>> {
        let starts = offsets.iter().flatten().copied().filter(|&o| o < size).collect();
        let ends = LineEnds::new(starts, sections.iter().cloned(), exact, size);
        offsets.iter().map(|o| o.and_then(|o| ends.range(o))).collect()
    }

    #[test]
    fn lines_divide_their_section() {
        // A header line at 0, three instructions at 8, 12, 20 in a section 8..28, a table row
        // at 40 in a section 32..48, a line without bytes, and one past the end.
        let offsets = [Some(0), None, Some(8), Some(12), Some(20), Some(40), Some(12), Some(99)];
        let sections = [0..64, 8..28, 32..48];
        let got = ranges(&offsets, &sections, &[], 64);
        assert_eq!(
            got,
            [Some(0..8), None, Some(8..12), Some(12..20), Some(20..28), Some(40..48), Some(12..20), None]
        );
        // Records give exact lengths; without sections the file's end is the last cap.
        let got = ranges(&offsets, &[], &[(20, 4), (8, 0)], 64);
        assert_eq!(
            got,
            [Some(0..8), None, Some(8..12), Some(12..20), Some(20..24), Some(40..64), Some(12..20), None]
        );
    }

    /// Every instruction of every program gives its exact byte range: the SM4 program of the
    /// sample DXBC starts with its version token (24 bytes into the SHEX data, which starts
    /// after the chunk header) and each record's length is its opcode token's.
    #[test]
    fn instruction_records_give_exact_lengths() {
        let dxbc: &[u8] = include_bytes!("../../../../samples/ps_color.dxbc");
        let file = crate::parse(dxbc).unwrap();
        let lengths = instruction_lengths(&file, &DisasmOptions::default());
        assert!(!lengths.is_empty());
        for (offset, len) in lengths {
            let start = usize::try_from(offset).unwrap();
            let token = u32::from_le_bytes(dxbc[start..start + 4].try_into().unwrap());
            let from_token = u64::from(token >> 24 & 0x7f);
            // Declarations and instructions say their length in bits 24..31; the version and
            // length tokens have no such field and are one word each.
            assert!(len == 4 * from_token || len == 4, "{offset:#x}: {len} bytes, token {token:#010x}");
        }
    }
    /// Damaged files give whole pages whose lines stay inside the bytes shown.
    #[test]
    fn damaged_files_give_whole_pages() {
        let dxbc: &[u8] = include_bytes!("../../../../samples/ps_color.dxbc");
        let shbin = crate::shbin::build::example_vertex_shader();
        for good in [dxbc, &shbin] {
            let mut inputs: Vec<Vec<u8>> = (0..good.len()).map(|n| good[..n].to_vec()).collect();
            for i in 0..good.len() {
                let mut bad = good.to_vec();
                bad[i] ^= 0xff;
                inputs.push(bad);
            }
            for data in inputs {
                let Ok(file) = crate::parse(&data) else { continue };
                let view = viewer(&file, &data, "x", &DisasmOptions::default());
                assert!(view.html.ends_with("</html>\n"));
                for line in view.html.lines().filter(|l| l.starts_with("<div class=\"l\" data-offset=")) {
                    let num = |key: &str| -> Option<u64> {
                        let at = line.find(key)? + key.len();
                        line[at..].split('"').next()?.parse().ok()
                    };
                    if let (Some(o), Some(n)) = (num("data-offset=\""), num("data-len=\"")) {
                        assert!(n > 0 && o + n <= data.len() as u64, "{line}");
                    }
                }
            }
        }
    }

    /// The page's JSON as [`embed_data`] writes it through [`ScriptSafe`].
    fn embedded(data: &[u8], sections: &[(Range<u64>, String)], notes: &Annotations) -> String {
        let mut bytes = Vec::new();
        let mut out = Out::new(&mut bytes);
        embed_data(&mut ScriptSafe(&mut out), data, sections, notes).unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn embedded_text_cannot_close_the_script() {
        let mut notes = Annotations::new();
        notes.field(0, 2, "x <y");
        notes.field(2, 1, "z");
        let out = embedded(b"\x00\xff<", &[(0..3, "a </script> b".into())], &notes);
        assert_eq!(
            out,
            "{\"size\":3,\"data\":\"AP88\",\"sections\":[[0,3,\"a \\u003c/script> b\"]],\
             \"fields\":[[0,2,\"x \\u003cy\"],[2,3,\"z\"]]}"
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["sections"][0][2], "a </script> b");
        assert_eq!(v["fields"][0][2], "x <y");
    }

    /// The base64 written a block at a time is the whole data's.
    #[test]
    fn base64_blocks_join_into_the_whole() {
        use base64::Engine;
        let data: Vec<u8> = (0..2 * BASE64_BLOCK + 2).map(|i| (i * 7 % 251) as u8).collect();
        let out = embedded(&data, &[], &Annotations::new());
        let whole = base64::engine::general_purpose::STANDARD.encode(&data);
        assert_eq!(
            out,
            format!("{{\"size\":{},\"data\":\"{whole}\",\"sections\":[],\"fields\":[]}}", data.len())
        );
    }

    /// A writer that fails stops the page where it failed, with the writer's error; the
    /// listing's error is still told.
    #[test]
    fn a_failing_writer_gives_its_error() {
        struct Fails(usize);
        impl io::Write for Fails {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                if self.0 < buf.len() {
                    return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
                }
                self.0 -= buf.len();
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let dxbc: &[u8] = include_bytes!("../../../../samples/ps_color.dxbc");
        let file = crate::parse(dxbc).unwrap();
        let whole = viewer(&file, dxbc, "x", &DisasmOptions::default()).html;
        for at in [0, 100, whole.len() / 2, whole.len() - 1] {
            let written = write_viewer(&file, dxbc, "x", &DisasmOptions::default(), &mut Fails(at));
            assert_eq!(written.io.unwrap_err().kind(), io::ErrorKind::BrokenPipe, "{at}");
            assert!(written.error.is_none());
        }
        let written = write_viewer(&file, dxbc, "x", &DisasmOptions::default(), &mut Fails(whole.len()));
        assert!(written.io.is_ok());
    }
}
