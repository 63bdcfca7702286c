//! Standalone HTML pages: a listing page (`shaderscope disasm --html`) and the viewer
//! (`shaderscope view`), which shows a file's listing beside a hex view of its bytes, linked
//! both ways.
//!
//! Both are complete documents (`<!DOCTYPE html>`, inline CSS and script, no fonts, images or
//! scripts from elsewhere), so a page opens from disk with no network. The listing is the
//! [`Html`] sink's: one `<div>` a line, `data-offset` the absolute file offset of the bytes
//! the line shows, one `<span>` per token with its kind's class ([`Style::class`]), in a
//! monospace font with `white-space: pre`.
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
//! let view = page::viewer(&file, &bytes, "vshader.shbin", &DisasmOptions::default());
//! assert!(view.error.is_none());
//! assert!(view.html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
//! // The first instruction: one 4-byte code word at 0x34.
//! assert!(view.html.contains("<div class=\"l\" data-offset=\"52\" data-len=\"4\""));
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
use crate::print::{Html, escape_into, write_hex, write_u64};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt::Write as _;
use std::ops::Range;

const CSS: &str = include_str!("page.css");
const VIEWER_JS: &str = include_str!("viewer.js");

/// The start of a listing page titled `title`, up to the first file's section: the document
/// head with its style sheet. Follow it with [`listing_file`] for each file and end it with
/// [`LISTING_TAIL`].
///
/// ```
/// use shaderscope::print::{Html, Printer, Style};
/// use shaderscope::page;
///
/// let mut listing = Html::default();
/// listing.start_line(Some(0x40));
/// listing.styled(Style::Mnemonic, "ret").unwrap();
/// let mut page = page::listing_head("a.dxbc");
/// page::listing_file(&mut page, "a.dxbc", listing);
/// page.push_str(page::LISTING_TAIL);
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// assert!(page.contains("<div data-offset=\"64\"><span class=\"mn\">ret</span></div>"));
/// assert!(page.ends_with("</html>\n"));
/// ```
pub fn listing_head(title: &str) -> String {
    let mut out = String::new();
    head(&mut out, title);
    out.push_str("<body class=\"listings\">\n<main>\n");
    out
}

/// One file's listing, as a section of a listing page headed by its name.
pub fn listing_file(out: &mut String, name: &str, listing: Html) {
    out.push_str(&listing_file_start(name));
    out.push_str(&listing.finish());
    out.push_str(LISTING_FILE_END);
}

/// The start of [`listing_file`]'s section, for a listing written a piece at a time (the
/// lines of [`Html`] sinks follow, then [`LISTING_FILE_END`]).
pub fn listing_file_start(name: &str) -> String {
    let mut out = String::from("<section class=\"file\">\n<h2>");
    escape_into(&mut out, name);
    out.push_str("</h2>\n<div class=\"listing\">\n");
    out
}

/// The end of a file's section of a listing page.
pub const LISTING_FILE_END: &str = "</div>\n</section>\n";

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

/// A viewer page and how its listing went.
#[derive(Debug)]
#[non_exhaustive]
pub struct Viewer {
    /// The page.
    pub html: String,
    /// Why the listing stopped early, if it did (the page shows what was listed before, and
    /// says so). The page also names each damaged part ([`Container::damage`]), as every
    /// command reports it.
    pub error: Option<Error>,
}

/// The viewer page of `file` (parsed from `data`, shown as `name`), its listing printed with
/// `opts`: see the [module documentation](self).
///
/// A base64 `.csdr` is shown decoded: its listing's offsets are those of the binary it holds.
pub fn viewer(file: &dyn Container, data: &[u8], name: &str, opts: &DisasmOptions) -> Viewer {
    if file.format() == Format::Csdr
        && let Ok(part) = file.part("decoded")
        && let Ok(inner) = crate::parse(&part.bytes)
    {
        let note = format!("base64 text, shown decoded ({} of text)", count(data.len(), "byte"));
        return page(&inner, &part.bytes, name, Some(&note), opts);
    }
    page(file, data, name, None, opts)
}

fn page(file: &dyn Container, data: &[u8], name: &str, note: Option<&str>, opts: &DisasmOptions) -> Viewer {
    let mut sink = Html::default();
    let error = file.disasm(opts, &mut sink).err();
    let lines = sink.into_lines();
    let mut notes = Annotations::new();
    file.annotate(&mut notes);
    // The rows `dump` shows: every byte's meaning once (table entries and what a format
    // did not model included), each section once.
    let mut sections: Vec<(Range<u64>, String)> = Vec::new();
    let mut fields: Vec<(Range<u64>, String)> = Vec::new();
    let _ = notes.rows(data, 0..u64::MAX, |row| {
        match row {
            Row::Section { start, len, title, .. } => {
                sections.push((start..start.saturating_add(len), title.into()))
            }
            Row::Field { start, len, text, from } if from < start => {
                fields.push((start..start + len, format!("{text} (continued from 0x{from:x})")))
            }
            Row::Field { start, len, text, .. } => fields.push((start..start + len, text.into())),
            Row::Note { .. } | Row::Unclaimed { .. } => {}
        }
        Ok::<(), ()>(())
    });
    sections.sort_by(|a, b| a.0.start.cmp(&b.0.start).then(b.0.end.cmp(&a.0.end)));
    let exact = match file.disasm_json(opts) {
        Ok(v) => instruction_lengths(&v),
        Err(_) => Vec::new(),
    };
    let size = data.len() as u64;
    let offsets: Vec<Option<u64>> = lines.iter().map(|(o, _)| o).collect();
    let spans: Vec<Range<u64>> = sections.iter().map(|(r, _)| r.clone()).collect();
    let ranges = line_ranges(&offsets, &spans, &exact, size);
    let digits = format!("{:x}", size.saturating_sub(1)).len().max(4);

    let mut out = String::with_capacity(data.len() * 4 + lines.len() * 80 + CSS.len() + VIEWER_JS.len());
    head(&mut out, name);
    out.push_str("<body class=\"viewer\">\n<header><h1>");
    escape_into(&mut out, name);
    out.push_str("</h1><span class=\"meta\">");
    out.push_str(file.format().name());
    out.push_str(" · ");
    let _ = write_u64(&mut out, size);
    out.push_str(if size == 1 { " byte" } else { " bytes" });
    if let Some(note) = note {
        out.push_str(" · ");
        escape_into(&mut out, note);
    }
    out.push_str("</span><span class=\"legend\">");
    for (class, kind) in [
        ("mn", "mnemonic"),
        ("reg", "register"),
        ("lit", "literal"),
        ("lbl", "label"),
        ("dir", "directive"),
        ("cm", "comment"),
        ("addr", "address"),
    ] {
        let _ = write!(out, "<span class=\"{class}\">{kind}</span>");
    }
    out.push_str("</span>\n<details class=\"info\"><summary>info</summary><pre>");
    let mut info = String::new();
    file.info_text(&mut info);
    escape_into(&mut out, &info);
    out.push_str("</pre></details>\n");
    // What every command reports about the file: the error the listing stopped at, and each
    // damaged part (the listing leaves it out or stops at it).
    let damage = file.damage();
    if let Some(e) = error.as_ref().filter(|e| !damage.contains(e)) {
        out.push_str("<p class=\"error\">The listing stopped early: ");
        escape_into(&mut out, &e.to_string());
        out.push_str("</p>\n");
    }
    for e in &damage {
        out.push_str("<p class=\"error\">Damaged: ");
        escape_into(&mut out, &e.to_string());
        out.push_str("</p>\n");
    }
    out.push_str("</header>\n<main>\n<section id=\"listing\" class=\"listing\">\n");
    for ((offset, markup), range) in lines.iter().zip(&ranges) {
        out.push_str("<div class=\"l\"");
        if let Some(o) = offset {
            out.push_str(" data-offset=\"");
            let _ = write_u64(&mut out, o);
            out.push('"');
            if let Some(r) = range {
                out.push_str(" data-len=\"");
                let _ = write_u64(&mut out, r.end - r.start);
                out.push('"');
            }
            out.push_str(" data-addr=\"");
            let _ = write_hex(&mut out, o, digits);
            out.push('"');
        }
        out.push('>');
        out.push_str(markup);
        out.push_str("</div>\n");
    }
    out.push_str(
        "</section>\n<section id=\"hexpane\" class=\"hex\">\n\
         <details id=\"outline\"><summary>structures (",
    );
    let _ = write_u64(&mut out, sections.len() as u64);
    out.push_str(
        ")</summary><div id=\"tree\"></div></details>\n<div id=\"hexhead\"></div>\n\
         <div id=\"hex\"><div id=\"hexsizer\"><div id=\"hexrows\"></div></div></div>\n\
         </section>\n</main>\n<footer id=\"status\"></footer>\n\
         <script type=\"application/json\" id=\"ss-data\">",
    );
    embed_data(&mut out, data, &sections, &fields);
    out.push_str("</script>\n<script>\n");
    out.push_str(VIEWER_JS);
    out.push_str("</script>\n</body>\n</html>\n");
    Viewer { html: out, error }
}

/// The page's data as JSON: `{"size", "data" (base64), "sections", "fields"}`, each range as
/// `[start, end, text]`. Every `<` is written `\u003c`, so no text can end the script element.
fn embed_data(
    out: &mut String,
    data: &[u8],
    sections: &[(Range<u64>, String)],
    fields: &[(Range<u64>, String)],
) {
    use base64::Engine;
    let start = out.len();
    out.push_str("{\"size\":");
    let _ = write_u64(out, data.len() as u64);
    out.push_str(",\"data\":\"");
    base64::engine::general_purpose::STANDARD.encode_string(data, out);
    out.push('"');
    for (key, list) in [("sections", sections), ("fields", fields)] {
        let _ = write!(out, ",\"{key}\":[");
        for (i, (r, text)) in list.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "[{},{},", r.start, r.end);
            out.push_str(&serde_json::Value::from(text.as_str()).to_string());
            out.push(']');
        }
        out.push(']');
    }
    out.push('}');
    if out.get(start..).is_some_and(|s| s.contains('<')) {
        let safe = out.get(start..).unwrap_or("").replace('<', "\\u003c");
        out.truncate(start);
        out.push_str(&safe);
    }
}

/// The byte length of each instruction record of every program in a file's `disasm` records,
/// by offset.
fn instruction_lengths(d: &crate::json::Disasm) -> Vec<(u64, u64)> {
    d.programs.iter().flat_map(|p| &p.instructions).map(|i| (i.offset, 4 * i.words.len() as u64)).collect()
}

/// The bytes each listing line shows, from the lines' offsets, the dump sections and the
/// exact lengths (offset, bytes) that instruction records give (see the module
/// documentation). A line without an offset, or whose offset is past the end, shows none.
fn line_ranges(
    offsets: &[Option<u64>],
    sections: &[Range<u64>],
    exact: &[(u64, u64)],
    size: u64,
) -> Vec<Option<Range<u64>>> {
    let mut starts: Vec<u64> = offsets.iter().flatten().copied().filter(|&o| o < size).collect();
    starts.sort_unstable();
    starts.dedup();
    let mut by_start: Vec<&Range<u64>> = sections.iter().filter(|r| r.start < r.end).collect();
    by_start.sort_by_key(|r| r.start);
    // Sweep the starts in order, keeping the ends of the sections open at each.
    let mut ends = BinaryHeap::new();
    let mut next_section = by_start.into_iter().peekable();
    let mut end_of: HashMap<u64, u64> = HashMap::with_capacity(starts.len());
    for (i, &o) in starts.iter().enumerate() {
        while let Some(r) = next_section.next_if(|r| r.start <= o) {
            ends.push(Reverse(r.end));
        }
        while ends.peek().is_some_and(|Reverse(e)| *e <= o) {
            ends.pop();
        }
        let next = starts.get(i + 1).copied().unwrap_or(size);
        let cap = ends.peek().map_or(size, |Reverse(e)| (*e).min(size));
        end_of.insert(o, next.min(cap));
    }
    for &(o, len) in exact {
        if o < size && len > 0 {
            end_of.insert(o, o.saturating_add(len).min(size));
        }
    }
    offsets.iter().map(|o| o.and_then(|o| end_of.get(&o).map(|&e| o..e))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_divide_their_section() {
        // A header line at 0, three instructions at 8, 12, 20 in a section 8..28, a table row
        // at 40 in a section 32..48, a line without bytes, and one past the end.
        let offsets = [Some(0), None, Some(8), Some(12), Some(20), Some(40), Some(12), Some(99)];
        let sections = [0..64, 8..28, 32..48];
        let got = line_ranges(&offsets, &sections, &[], 64);
        assert_eq!(
            got,
            [Some(0..8), None, Some(8..12), Some(12..20), Some(20..28), Some(40..48), Some(12..20), None]
        );
        // Records give exact lengths; without sections the file's end is the last cap.
        let got = line_ranges(&offsets, &[], &[(20, 4), (8, 0)], 64);
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
        let records = file.disasm_json(&DisasmOptions::default()).unwrap();
        let lengths = instruction_lengths(&records);
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

    #[test]
    fn embedded_text_cannot_close_the_script() {
        let mut out = String::new();
        embed_data(&mut out, b"\x00\xff<", &[(0..3, "a </script> b".into())], &[]);
        assert_eq!(
            out,
            "{\"size\":3,\"data\":\"AP88\",\"sections\":[[0,3,\"a \\u003c/script> b\"]],\"fields\":[]}"
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["sections"][0][2], "a </script> b");
    }
}
