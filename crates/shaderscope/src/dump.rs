//! Byte annotations for `shaderscope dump`: every byte of a file with the field it belongs to.
//!
//! A format fills an [`Annotations`] (through [`Container::annotate`](crate::Container::annotate))
//! with *sections* (a title over a byte range: a header, a table, a chunk), *fields* (the bytes
//! of one value and what they mean) and *tables* (runs of equal-sized entries, each described
//! only when it is shown, so that an index of millions of entries costs one record), and notes
//! what it could not read with [`Annotations::error`].
//!
//! [`Annotations::rows`] resolves them into rows in file order, the one view that every output
//! is made from (the text of `dump`, its JSON, the viewer's tooltips):
//!
//! - every byte is shown once, by the first field that claims it (fields in offset order, the
//!   longer first); a field whose bytes an earlier row already shows becomes a [`Row::Note`],
//!   one that starts inside them shows the rest of its bytes;
//! - an annotation made twice counts once, and two meanings given to the same bytes share one
//!   row;
//! - bytes no field claims are shown as [`Row::Unclaimed`], so nothing in the file is hidden.
//!
//! [`Annotations::render`] writes the rows as `offset | hex | meaning` lines (as `wasm-tools
//! dump` does; a section's title line has no offset of its own, its range is in its text) and
//! [`Annotations::render_json`] as JSON objects, both row by row into any [`fmt::Write`]: the
//! output is never built whole in memory. The text goes through [`print_heading`] and
//! [`print_row`], which write to a [`Printer`], so the same rows come out coloured or as HTML.
//!
//! ```
//! use shaderscope::dump::Annotations;
//!
//! let data = b"DVLB\x01\0\0\0\x10\0\0\0\xee\xee";
//! let mut a = Annotations::new();
//! a.section(0, 12, "DVLB header");
//! a.field(0, 4, "magic \"DVLB\"");
//! a.field(4, 4, "DVLE count: 1");
//! a.field(4, 4, "DVLE count: 1"); // made twice, shown once
//! let mut text = String::new();
//! a.render(data, &mut text)?;
//! assert_eq!(
//!     text,
//!     "  offset | bytes                   | meaning\n\
//!      \x20        |                         | == DVLB header (0x0..0xc)\n\
//!      \x20 0x0000 | 44 56 4c 42             | magic \"DVLB\"\n\
//!      \x20 0x0004 | 01 00 00 00             | DVLE count: 1\n\
//!      \x20 0x0008 | 10 00 00 00 ee ee       | (unclaimed)\n"
//! );
//!
//! // A whole file, annotated by its format.
//! use shaderscope::Container;
//! let bytes = shaderscope::shbin::build::example_vertex_shader();
//! let mut a = Annotations::new();
//! shaderscope::parse(&bytes)?.annotate(&mut a);
//! let mut text = String::new();
//! a.render(&bytes, &mut text)?;
//! assert_eq!(text.lines().nth(4), Some("  0x0008 | 8c 00 00 00             | DVLE 0 offset: 0x8c"));
//! assert!(!text.contains("(unclaimed)"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::print::{Printer, Style};
use std::fmt::{self, Write};
use std::ops::Range;

/// Describes entry `index` of a table for [`Annotations::table`]: `data` is the whole input
/// and `at` the entry's absolute offset; the text goes to `out`.
pub type Describe = fn(data: &[u8], index: u64, at: u64, out: &mut String);

/// What an annotation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// A title over a range (sorted before the fields it holds).
    Section,
    /// One value.
    Field,
    /// A run of entries (the text is the index of its [`Table`]).
    Table,
    /// What the bytes of a range that no field claims are.
    Fallback,
}

/// One annotation; its text sits in [`Annotations::text`] (or, for a table, it is the
/// index of the [`Table`]).
#[derive(Debug, Clone, Copy)]
struct Item {
    start: u64,
    len: u64,
    text: usize,
    text_len: u32,
    kind: Kind,
}

/// A run of equal-sized entries, described when shown.
#[derive(Debug, Clone, Copy)]
struct Table {
    entry: u64,
    count: u64,
    describe: Describe,
}

/// Annotated byte ranges of one file.
///
/// Compact by design: one record per annotation, the texts side by side in one buffer.
#[derive(Debug, Default, Clone)]
pub struct Annotations {
    items: Vec<Item>,
    tables: Vec<Table>,
    text: String,
    errors: Vec<(u64, String)>,
}

/// One line of the dump, as [`Annotations::rows`] gives it in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Row<'a> {
    /// A titled range (a header, a table, a chunk); its fields follow. `depth` counts the
    /// sections it sits in.
    Section {
        /// Absolute offset of its first byte.
        start: u64,
        /// Its length in bytes.
        len: u64,
        /// The sections around it.
        depth: usize,
        /// What it is.
        title: &'a str,
    },
    /// Bytes `start..start + len` and what they mean. `from` is where the value starts: before
    /// `start` when an earlier row already shows its first bytes.
    Field {
        /// Absolute offset of the first byte shown.
        start: u64,
        /// Bytes shown.
        len: u64,
        /// What they mean.
        text: &'a str,
        /// Absolute offset of the value's first byte.
        from: u64,
    },
    /// An annotation whose bytes no row of its own shows: rows above already show them, they
    /// lie past the end of the file, or there are none.
    Note {
        /// Absolute offset of the annotated range.
        start: u64,
        /// Its length in bytes.
        len: u64,
        /// What the range means.
        text: &'a str,
        /// Why it has no bytes of its own.
        reason: NoteReason,
    },
    /// Bytes that no annotation claims.
    Unclaimed {
        /// Absolute offset of the first byte.
        start: u64,
        /// Their number.
        len: u64,
    },
}

/// Why a [`Row::Note`] shows no bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteReason {
    /// Rows above show every byte of it (structures that overlap).
    Overlap,
    /// It lies past the end of the file.
    PastEnd,
    /// It has no bytes.
    Empty,
}

/// Bytes shown per dump line.
const PER_LINE: u64 = 8;

impl Annotations {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    fn push(&mut self, start: u64, len: u64, kind: Kind, text: impl fmt::Display) {
        let at = self.text.len();
        // Writing into a String cannot fail.
        let _ = write!(self.text, "{text}");
        let text_len = u32::try_from(self.text.len() - at).unwrap_or(u32::MAX);
        self.items.push(Item { start, len, text: at, text_len, kind });
    }

    /// A titled range (a header, a table, a chunk) whose fields are added separately.
    pub fn section(&mut self, start: u64, len: u64, title: impl fmt::Display) {
        self.push(start, len, Kind::Section, title);
    }

    /// The bytes of one value and what they mean.
    pub fn field(&mut self, start: u64, len: u64, text: impl fmt::Display) {
        self.push(start, len, Kind::Field, text);
    }

    /// `count` entries of `entry` bytes each from `start`, entry `i` described by
    /// `describe(data, i, offset of the entry)` when it is shown. One record, whatever the
    /// count.
    pub fn table(&mut self, start: u64, entry: u64, count: u64, describe: Describe) {
        if entry == 0 || count == 0 {
            return;
        }
        let index = self.tables.len();
        self.tables.push(Table { entry, count, describe });
        let len = entry.saturating_mul(count);
        self.items.push(Item { start, len, text: index, text_len: 0, kind: Kind::Table });
    }

    /// Add the annotations `inner` made over other bytes, `inner_data` (the binary a text
    /// file encodes), each range moved to the file by `map` (from an offset of `inner_data` to
    /// one of the file; it must not decrease): fields say in brackets where their value is in
    /// `inner_data`, section titles which range of it they cover, and tables become fields.
    pub fn absorb(&mut self, inner: &Annotations, inner_data: &[u8], map: impl Fn(u64) -> u64) {
        let mut buf = String::new();
        for it in &inner.items {
            let end = it.start.saturating_add(it.len);
            let (s, e) = (map(it.start), map(end));
            let len = e.saturating_sub(s);
            let text = inner.text_of(it);
            match it.kind {
                Kind::Section => {
                    self.section(s, len, format_args!("{text} (decoded 0x{:x}..0x{end:x})", it.start));
                }
                Kind::Field => self.field(s, len, format_args!("[0x{:04x}] {text}", it.start)),
                Kind::Fallback => self.fallback(s, len, text),
                Kind::Table => {
                    let Some(t) = inner.tables.get(it.text).copied() else { continue };
                    for n in 0..t.count {
                        let at = it.start.saturating_add(n.saturating_mul(t.entry));
                        buf.clear();
                        (t.describe)(inner_data, n, at, &mut buf);
                        let (s, e) = (map(at), map(at.saturating_add(t.entry)));
                        self.field(s, e.saturating_sub(s), format_args!("[0x{at:04x}] {buf}"));
                    }
                }
            }
        }
        for (offset, message) in &inner.errors {
            self.errors.push((map(*offset), message.clone()));
        }
    }

    /// What the bytes of a range are where no field says more: the bytes of `start..start +
    /// len` that no field claims are shown with `text` instead of as unclaimed (a payload
    /// whose structures are annotated where they are understood). The innermost range wins
    /// where such ranges nest.
    pub fn fallback(&mut self, start: u64, len: u64, text: impl fmt::Display) {
        self.push(start, len, Kind::Fallback, text);
    }

    /// Something that could not be read, at absolute `offset`: the bytes up to it are
    /// annotated, and the caller reports the failure (`dump` prints it and exits 1).
    pub fn error(&mut self, offset: u64, message: impl fmt::Display) {
        self.errors.push((offset, message.to_string()));
    }

    /// What could not be read: (absolute offset, message), in the order found.
    pub fn errors(&self) -> impl Iterator<Item = (u64, &str)> {
        self.errors.iter().map(|(o, m)| (*o, m.as_str()))
    }

    /// Number of sections, fields and tables.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when nothing was annotated.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Each section (a titled range): its bytes and title, in the order they were added.
    pub fn sections(&self) -> impl Iterator<Item = (Range<u64>, &str)> + '_ {
        self.items
            .iter()
            .filter(|i| i.kind == Kind::Section)
            .map(|i| (i.start..i.start.saturating_add(i.len), self.text_of(i)))
    }

    /// Each field (one value): its bytes and meaning, in the order they were added. Table
    /// entries and fallback ranges are not among them, and fields may overlap:
    /// [`Annotations::rows`] gives the meaning of every byte, once.
    pub fn fields(&self) -> impl Iterator<Item = (Range<u64>, &str)> + '_ {
        self.items
            .iter()
            .filter(|i| i.kind == Kind::Field)
            .map(|i| (i.start..i.start.saturating_add(i.len), self.text_of(i)))
    }

    fn text_of(&self, it: &Item) -> &str {
        self.text.get(it.text..it.text + it.text_len as usize).unwrap_or("")
    }

    /// Call `f` with each row of the bytes of `data` inside `range`, in file order (see the
    /// [module documentation](self)); stops at the first error `f` returns. A row that
    /// starts before the range or ends after it is cut to it.
    pub fn rows<E>(
        &self,
        data: &[u8],
        range: Range<u64>,
        mut f: impl FnMut(Row<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let size = data.len() as u64;
        let end = range.end.min(size);
        let start = range.start.min(end);
        let item = |i: usize| self.items.get(i).copied();
        let (fallbacks, mut order): (Vec<usize>, Vec<usize>) =
            (0..self.items.len()).partition(|&i| item(i).is_some_and(|it| it.kind == Kind::Fallback));
        // By offset; at one offset sections first, then the longer annotations, then in the
        // order made.
        order.sort_by_key(|&i| {
            item(i).map(|it| (it.start, it.kind != Kind::Section, std::cmp::Reverse(it.len), i)).unwrap_or((
                0,
                true,
                std::cmp::Reverse(0),
                i,
            ))
        });
        let mut fallbacks: Vec<(u64, u64, &str)> = fallbacks
            .into_iter()
            .filter_map(item)
            .map(|it| (it.start, it.start.saturating_add(it.len), self.text_of(&it)))
            .filter(|f| f.1 > start && f.0 < end)
            .collect();
        fallbacks.sort_by_key(|f| (f.0, std::cmp::Reverse(f.1)));
        let mut r = Resolver {
            data,
            start,
            end,
            covered: start,
            buf: String::new(),
            fallbacks,
            next_fallback: 0,
            active: Vec::new(),
        };
        let mut open: Vec<u64> = Vec::new();
        let mut last_section: Option<(u64, u64, &str)> = None;
        let mut k = 0;
        while let Some(&i) = order.get(k) {
            k += 1;
            let Some(it) = item(i) else { continue };
            let it_end = it.start.saturating_add(it.len);
            match it.kind {
                Kind::Fallback => {}
                Kind::Section => {
                    let title = self.text_of(&it);
                    if last_section == Some((it.start, it.len, title)) {
                        continue;
                    }
                    last_section = Some((it.start, it.len, title));
                    r.unclaimed_to(it.start, &mut f)?;
                    while open.last().is_some_and(|&e| e <= it.start) {
                        open.pop();
                    }
                    let inside =
                        it_end > start && it.start < end || (it.len == 0 && (start..end).contains(&it.start));
                    if inside {
                        f(Row::Section { start: it.start, len: it.len, depth: open.len(), title })?;
                    }
                    open.push(it_end);
                }
                Kind::Table => {
                    let Some(t) = self.tables.get(it.text).copied() else { continue };
                    // Entries before the range or already shown are skipped without a word.
                    let first = r.covered.max(it.start).saturating_sub(it.start) / t.entry;
                    let mut n = first;
                    while n < t.count {
                        let at = it.start.saturating_add(n.saturating_mul(t.entry));
                        if at >= end {
                            break;
                        }
                        r.buf.clear();
                        (t.describe)(data, n, at, &mut r.buf);
                        let text = std::mem::take(&mut r.buf);
                        r.field(at, t.entry, &text, &mut f)?;
                        r.buf = text;
                        n += 1;
                    }
                }
                Kind::Field => {
                    // Every field with the same range: one row with each distinct meaning.
                    let mut text = std::mem::take(&mut r.buf);
                    text.clear();
                    text.push_str(self.text_of(&it));
                    let mut seen = vec![self.text_of(&it)];
                    while let Some(next) = order.get(k).and_then(|&j| item(j)) {
                        if next.kind != Kind::Field || next.start != it.start || next.len != it.len {
                            break;
                        }
                        k += 1;
                        let t = self.text_of(&next);
                        if !seen.contains(&t) {
                            seen.push(t);
                            text.push_str("; ");
                            text.push_str(t);
                        }
                    }
                    r.field(it.start, it.len, &text, &mut f)?;
                    r.buf = text;
                }
            }
        }
        r.unclaimed_to(end, &mut f)
    }

    /// Write the dump of `data` as text: a heading line, then one line per row (a value of more
    /// than eight bytes takes more lines, its meaning on the first).
    pub fn render(&self, data: &[u8], out: &mut dyn fmt::Write) -> fmt::Result {
        self.render_range(data, 0..u64::MAX, out)
    }

    /// [`Annotations::render`] of the bytes inside `range` only.
    pub fn render_range(&self, data: &[u8], range: Range<u64>, out: &mut dyn fmt::Write) -> fmt::Result {
        let mut out = Plain(out);
        print_heading(data, &mut out)?;
        self.rows(data, range, |row| print_row(data, &row, &mut out))
    }

    /// Write the rows of `data` inside `range` as a JSON array, one object per row:
    /// `{"kind":"section","offset":…,"length":…,"depth":…,"title":…}`,
    /// `{"kind":"field","offset":…,"length":…,"meaning":…}` (with `"from"` when the value
    /// starts before the row), `{"kind":"note","offset":…,"length":…,"meaning":…,"reason":
    /// "overlap"|"past-end"|"empty"}`, `{"kind":"unclaimed","offset":…,"length":…}`.
    /// Offsets are absolute.
    ///
    /// ```
    /// use shaderscope::dump::Annotations;
    ///
    /// let mut a = Annotations::new();
    /// a.field(0, 2, "magic \"AB\"");
    /// let mut json = String::new();
    /// a.render_json(b"ABC", 0..u64::MAX, &mut json)?;
    /// assert_eq!(
    ///     json,
    ///     r#"[{"kind":"field","offset":0,"length":2,"meaning":"magic \"AB\""},{"kind":"unclaimed","offset":2,"length":1}]"#
    /// );
    /// # Ok::<(), std::fmt::Error>(())
    /// ```
    pub fn render_json(&self, data: &[u8], range: Range<u64>, out: &mut dyn fmt::Write) -> fmt::Result {
        let mut line = String::with_capacity(128);
        let mut first = true;
        out.write_char('[')?;
        self.rows(data, range, |row| {
            line.clear();
            if !first {
                line.push(',');
            }
            first = false;
            json_row(&mut line, &row);
            out.write_str(&line)
        })?;
        out.write_char(']')
    }
}

/// The state of [`Annotations::rows`]: how far the bytes are shown.
struct Resolver<'d, 't> {
    data: &'d [u8],
    /// The range shown.
    start: u64,
    end: u64,
    /// First byte not shown yet.
    covered: u64,
    /// Text of merged and table rows (reused).
    buf: String,
    /// Fallback ranges (start, end, text), by start.
    fallbacks: Vec<(u64, u64, &'t str)>,
    /// The first of `fallbacks` not yet started.
    next_fallback: usize,
    /// The fallbacks started and not yet ended, the latest last.
    active: Vec<(u64, u64, &'t str)>,
}

impl Resolver<'_, '_> {
    /// Show the bytes no field claimed up to `to`: with the text of the innermost fallback
    /// range around them, or as unclaimed.
    fn unclaimed_to<E>(&mut self, to: u64, f: &mut impl FnMut(Row<'_>) -> Result<(), E>) -> Result<(), E> {
        let to = to.min(self.end);
        while to > self.covered {
            let p = self.covered;
            while let Some(&fb) = self.fallbacks.get(self.next_fallback).filter(|fb| fb.0 <= p) {
                self.active.push(fb);
                self.next_fallback += 1;
            }
            self.active.retain(|fb| fb.1 > p);
            let next_start = self.fallbacks.get(self.next_fallback).map_or(u64::MAX, |fb| fb.0);
            let stop = to.min(next_start);
            match self.active.last() {
                Some(&(_, end, text)) => {
                    let stop = stop.min(end);
                    f(Row::Field { start: p, len: stop - p, text, from: p })?;
                    self.covered = stop;
                }
                None => {
                    f(Row::Unclaimed { start: p, len: stop - p })?;
                    self.covered = stop;
                }
            }
        }
        Ok(())
    }

    /// The row of a field of `len` bytes at `start`.
    fn field<E>(
        &mut self,
        start: u64,
        len: u64,
        text: &str,
        f: &mut impl FnMut(Row<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let end = start.saturating_add(len);
        let size = self.data.len() as u64;
        let whole_file = self.end == size;
        if len == 0 {
            if (self.start..self.end).contains(&start) || (whole_file && start == size) {
                self.unclaimed_to(start, f)?;
                return f(Row::Note { start, len, text, reason: NoteReason::Empty });
            }
            return Ok(());
        }
        if start >= size {
            if whole_file && self.start <= start {
                self.unclaimed_to(size, f)?;
                return f(Row::Note { start, len, text, reason: NoteReason::PastEnd });
            }
            return Ok(());
        }
        if end <= self.start || start >= self.end {
            return Ok(());
        }
        let shown_end = end.min(self.end);
        if shown_end <= self.covered {
            return f(Row::Note { start, len, text, reason: NoteReason::Overlap });
        }
        self.unclaimed_to(start, f)?;
        let from = self.covered.max(start);
        self.covered = shown_end;
        f(Row::Field { start: from, len: shown_end - from, text, from: start })
    }
}

/// A plain-text [`Printer`] over any [`fmt::Write`]: the text and nothing else.
struct Plain<'a>(&'a mut dyn fmt::Write);

impl fmt::Write for Plain<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write_str(s)
    }
}

impl Printer for Plain<'_> {
    fn text_only(&self) -> bool {
        true
    }
}

/// Digits of the offset column: enough for the file's size, at least four.
fn offset_width(data: &[u8]) -> usize {
    let size = data.len().max(1) as u64;
    ((64 - size.leading_zeros()).div_ceil(4) as usize).max(4)
}

/// The heading line of the text dump of `data` (`  offset | bytes | meaning`), its columns as
/// wide as the rows [`print_row`] writes for the same data.
pub fn print_heading(data: &[u8], out: &mut dyn Printer) -> fmt::Result {
    out.start_line(None);
    out.styled(Style::Comment, "  offset")?;
    spaces(out, offset_width(data) + 5 - 8)?;
    out.styled(Style::Comment, "| bytes                   | meaning")?;
    out.write_char('\n')
}

/// One row of the text dump: `offset | hex | meaning` lines, eight bytes a line, the meaning
/// on the first; a section's title line or a note has no bytes of its own. Each line starts
/// with [`Printer::start_line`] at the offset of the bytes it shows; offsets are styled as
/// addresses, bytes as literals, section titles as labels, notes and unclaimed bytes as
/// comments.
pub fn print_row(data: &[u8], row: &Row<'_>, out: &mut dyn Printer) -> fmt::Result {
    let width = offset_width(data);
    match *row {
        Row::Section { start, len, title, .. } => {
            blank_columns(out, width)?;
            out.style(Style::Label);
            write!(out, "== {title} (0x{start:x}..0x{:x})", start.saturating_add(len))?;
            out.reset();
            out.write_char('\n')
        }
        Row::Field { start, len, text, from } if from < start => {
            let text = format!("{text} (continued from 0x{from:x})");
            hex_lines(out, data, start, start + len, width, &text, None)
        }
        Row::Field { start, len, text, .. } => hex_lines(out, data, start, start + len, width, text, None),
        Row::Note { start, len, text, reason } => {
            blank_columns(out, width)?;
            let end = start.saturating_add(len);
            out.style(Style::Comment);
            match reason {
                NoteReason::Overlap => write!(out, "{text} (0x{start:x}..0x{end:x}, bytes shown above)"),
                NoteReason::PastEnd => {
                    write!(out, "{text} (0x{start:x}..0x{end:x}, past the end of the file)")
                }
                NoteReason::Empty => write!(out, "{text} (at 0x{start:x}, no bytes)"),
            }?;
            out.reset();
            out.write_char('\n')
        }
        Row::Unclaimed { start, len } => {
            hex_lines(out, data, start, start + len, width, "(unclaimed)", Some(Style::Comment))
        }
    }
}

fn spaces(out: &mut dyn Printer, n: usize) -> fmt::Result {
    const SPACES: &str = "                                ";
    let mut left = n;
    while left > 0 {
        let k = left.min(SPACES.len());
        out.write_str(SPACES.get(..k).unwrap_or(""))?;
        left -= k;
    }
    Ok(())
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `  0x0010 | `: the offset column, the line started at `at`.
fn offset_column(out: &mut dyn Printer, at: u64, width: usize) -> fmt::Result {
    out.start_line(Some(at));
    let mut col = String::with_capacity(width + 4);
    col.push_str("  0x");
    let digits = (64 - at.leading_zeros()).div_ceil(4).max(1) as usize;
    for _ in digits..width {
        col.push('0');
    }
    for k in (0..digits).rev() {
        col.push(char::from(HEX.get(((at >> (4 * k)) & 0xf) as usize).copied().unwrap_or(b'0')));
    }
    out.styled(Style::Address, &col)?;
    out.write_str(" | ")
}

/// The empty offset and bytes columns of a line that shows no bytes.
fn blank_columns(out: &mut dyn Printer, width: usize) -> fmt::Result {
    out.start_line(None);
    spaces(out, width + 5)?;
    out.write_str("|                         | ")
}

/// Lines showing `data[from..to]`, eight bytes a line, `text` (in `style`) on the first.
fn hex_lines(
    out: &mut dyn Printer,
    data: &[u8],
    from: u64,
    to: u64,
    width: usize,
    text: &str,
    style: Option<Style>,
) -> fmt::Result {
    let mut at = from;
    let mut first = true;
    let mut hex = String::with_capacity(PER_LINE as usize * 3);
    while at < to {
        let n = (to - at).min(PER_LINE);
        offset_column(out, at, width)?;
        let bytes = data.get(at as usize..(at + n) as usize).unwrap_or(&[]);
        hex.clear();
        for (i, b) in bytes.iter().enumerate() {
            if i > 0 {
                hex.push(' ');
            }
            hex.push(char::from(HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0')));
            hex.push(char::from(HEX.get(usize::from(b & 0xf)).copied().unwrap_or(b'0')));
        }
        out.styled(Style::Literal, &hex)?;
        spaces(out, (PER_LINE * 3 - 1) as usize - hex.len())?;
        out.write_str(" |")?;
        if first && !text.is_empty() {
            out.write_char(' ')?;
            match style {
                Some(s) => out.styled(s, text)?,
                None => out.write_str(text)?,
            }
        }
        out.write_char('\n')?;
        first = false;
        at += n;
    }
    Ok(())
}

fn json_row(line: &mut String, row: &Row<'_>) {
    let _ = match *row {
        Row::Section { start, len, depth, title } => {
            let _ = write!(
                line,
                r#"{{"kind":"section","offset":{start},"length":{len},"depth":{depth},"title":"#
            );
            json_string(line, title);
            line.write_char('}')
        }
        Row::Field { start, len, text, from } => {
            let _ = write!(line, r#"{{"kind":"field","offset":{start},"length":{len},"#);
            if from < start {
                let _ = write!(line, r#""from":{from},"#);
            }
            line.push_str(r#""meaning":"#);
            json_string(line, text);
            line.write_char('}')
        }
        Row::Note { start, len, text, reason } => {
            let _ = write!(line, r#"{{"kind":"note","offset":{start},"length":{len},"meaning":"#);
            json_string(line, text);
            let reason = match reason {
                NoteReason::Overlap => "overlap",
                NoteReason::PastEnd => "past-end",
                NoteReason::Empty => "empty",
            };
            write!(line, r#","reason":"{reason}"}}"#)
        }
        Row::Unclaimed { start, len } => {
            write!(line, r#"{{"kind":"unclaimed","offset":{start},"length":{len}}}"#)
        }
    };
}

/// `s` as a JSON string literal.
pub fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(a: &Annotations, data: &[u8]) -> String {
        let mut s = String::new();
        a.render(data, &mut s).unwrap();
        s.split_once('\n').unwrap().1.to_string()
    }

    #[test]
    fn renders_every_byte_once() {
        let data = b"DVLB\x01\0\0\0\x10\0\0\0ZZ";
        let mut a = Annotations::new();
        a.section(0, 12, "DVLB header");
        a.field(0, 4, "magic \"DVLB\"");
        a.field(4, 4, "DVLE count: 1");
        assert_eq!(
            text(&a, data),
            "         |                         | == DVLB header (0x0..0xc)\n\
             \x20 0x0000 | 44 56 4c 42             | magic \"DVLB\"\n\
             \x20 0x0004 | 01 00 00 00             | DVLE count: 1\n\
             \x20 0x0008 | 10 00 00 00 5a 5a       | (unclaimed)\n"
        );
        let sections: Vec<_> = a.sections().collect();
        assert_eq!(sections, [(0..12, "DVLB header")]);
        let fields: Vec<_> = a.fields().collect();
        assert_eq!(fields, [(0..4, "magic \"DVLB\""), (4..8, "DVLE count: 1")]);
    }

    #[test]
    fn repeats_merge_and_overlaps_become_notes() {
        let data = b"SV_Target\0\xab\xab0123";
        let mut a = Annotations::new();
        a.section(0, 16, "pool");
        a.section(0, 16, "pool");
        // Three elements share one name; a type shares it under another label.
        for _ in 0..3 {
            a.field(0, 10, "name \"SV_Target\"");
        }
        a.field(0, 10, "type name \"SV_Target\"");
        a.field(10, 2, "padding (0xAB)");
        a.field(10, 2, "padding (0xAB)");
        a.field(11, 1, "inside the padding");
        a.field(11, 3, "straddles");
        a.field(20, 4, "past the end");
        assert_eq!(
            text(&a, data),
            "         |                         | == pool (0x0..0x10)\n\
             \x20 0x0000 | 53 56 5f 54 61 72 67 65 | name \"SV_Target\"; type name \"SV_Target\"\n\
             \x20 0x0008 | 74 00                   |\n\
             \x20 0x000a | ab ab                   | padding (0xAB)\n\
             \x20 0x000c | 30 31                   | straddles (continued from 0xb)\n\
             \x20        |                         | inside the padding (0xb..0xc, bytes shown above)\n\
             \x20 0x000e | 32 33                   | (unclaimed)\n\
             \x20        |                         | past the end (0x14..0x18, past the end of the file)\n"
        );
    }

    #[test]
    fn tables_are_described_when_shown_and_ranges_cut_rows() {
        fn entry(data: &[u8], i: u64, at: u64, out: &mut String) {
            let b = data.get(at as usize).copied().unwrap_or(0);
            let _ = write!(out, "entry {i}: {b}");
        }
        let data: Vec<u8> = (0u8..40).collect();
        let mut a = Annotations::new();
        a.section(4, 4 * 1_000_000, "index");
        a.table(4, 4, 1_000_000, entry);
        assert_eq!(a.len(), 2);
        let mut s = String::new();
        a.render_range(&data, 10..18, &mut s).unwrap();
        assert_eq!(
            s,
            "  offset | bytes                   | meaning\n\
             \x20        |                         | == index (0x4..0x3d0904)\n\
             \x20 0x000a | 0a 0b                   | entry 1: 8 (continued from 0x8)\n\
             \x20 0x000c | 0c 0d 0e 0f             | entry 2: 12\n\
             \x20 0x0010 | 10 11                   | entry 3: 16\n"
        );
        let mut j = String::new();
        a.render_json(&data, 0..6, &mut j).unwrap();
        assert_eq!(
            j,
            r#"[{"kind":"unclaimed","offset":0,"length":4},{"kind":"section","offset":4,"length":4000000,"depth":0,"title":"index"},{"kind":"field","offset":4,"length":2,"meaning":"entry 0: 4"}]"#
        );
    }

    #[test]
    fn fallbacks_name_the_bytes_no_field_claims() {
        let data = [0u8; 16];
        let mut a = Annotations::new();
        a.fallback(2, 12, "payload not modelled");
        a.fallback(6, 2, "inner");
        a.field(4, 2, "known");
        assert_eq!(
            text(&a, &data),
            "  0x0000 | 00 00                   | (unclaimed)\n\
             \x20 0x0002 | 00 00                   | payload not modelled\n\
             \x20 0x0004 | 00 00                   | known\n\
             \x20 0x0006 | 00 00                   | inner\n\
             \x20 0x0008 | 00 00 00 00 00 00       | payload not modelled\n\
             \x20 0x000e | 00 00                   | (unclaimed)\n"
        );
    }

    #[test]
    fn sections_nest_and_json_escapes() {
        let mut a = Annotations::new();
        a.section(0, 4, "outer");
        a.section(0, 2, "inner \"q\"\n");
        a.field(0, 0, "empty");
        let mut rows = Vec::new();
        a.rows(b"abcd", 0..u64::MAX, |r| {
            rows.push(format!("{r:?}"));
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(
            rows,
            [
                r#"Section { start: 0, len: 4, depth: 0, title: "outer" }"#,
                r#"Section { start: 0, len: 2, depth: 1, title: "inner \"q\"\n" }"#,
                r#"Note { start: 0, len: 0, text: "empty", reason: Empty }"#,
                "Unclaimed { start: 0, len: 4 }",
            ]
        );
        let mut j = String::new();
        a.render_json(b"abcd", 0..1, &mut j).unwrap();
        assert!(j.contains(r#""title":"inner \"q\"\n""#), "{j}");
    }
}
