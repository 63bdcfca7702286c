//! Byte annotations for `shaderscope dump`: every byte of a file with the field it belongs to.
//!
//! A container fills an [`Annotations`] with sections (titles over a byte range) and fields
//! (the bytes of one value and what they mean). [`Annotations::render`] prints them as
//! `offset | hex | meaning`, wasm-tools style, and shows every byte no field claims as
//! `(unclaimed)`, so nothing in the file is ever hidden. Every format fills one through
//! [`Container::annotate`](crate::Container::annotate).
//!
//! ```
//! use shaderscope::dump::Annotations;
//!
//! let data = b"DVLB\x01\0\0\0\x10\0\0\0\xee\xee";
//! let mut a = Annotations::new();
//! a.section(0, 12, "DVLB header");
//! a.field(0, 4, "magic \"DVLB\"");
//! a.field(4, 4, "DVLE count: 1");
//! let mut text = String::new();
//! a.render(data, &mut text);
//! assert_eq!(
//!     text,
//!     "  0x0000 |                         | == DVLB header (0x0..0xc)\n\
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
//! a.render(&bytes, &mut text);
//! assert_eq!(text.lines().nth(3), Some("  0x0008 | 8c 00 00 00             | DVLE 0 offset: 0x8c"));
//! assert!(!text.contains("(unclaimed)"));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use std::fmt::Write;

#[derive(Debug, Clone)]
struct Item {
    start: u64,
    len: u64,
    section: bool,
    text: String,
}

impl Item {
    fn range(&self) -> (std::ops::Range<u64>, &str) {
        (self.start..self.start.saturating_add(self.len), &self.text)
    }
}

/// Annotated byte ranges of one file.
#[derive(Debug, Default, Clone)]
pub struct Annotations {
    items: Vec<Item>,
}

/// Bytes shown per dump line.
const PER_LINE: u64 = 8;

impl Annotations {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// A titled range (a header, a table) whose fields are added separately.
    pub fn section(&mut self, start: u64, len: u64, text: impl Into<String>) {
        self.items.push(Item { start, len, section: true, text: text.into() });
    }

    /// The bytes of one value and what they mean.
    pub fn field(&mut self, start: u64, len: u64, text: impl Into<String>) {
        self.items.push(Item { start, len, section: false, text: text.into() });
    }

    /// Number of sections and fields.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when nothing was annotated.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Each section (a titled range): its bytes and title, in the order they were added.
    pub fn sections(&self) -> impl Iterator<Item = (std::ops::Range<u64>, &str)> + '_ {
        self.items.iter().filter(|i| i.section).map(Item::range)
    }

    /// Each field (one value): its bytes and meaning, in the order they were added.
    pub fn fields(&self) -> impl Iterator<Item = (std::ops::Range<u64>, &str)> + '_ {
        self.items.iter().filter(|i| !i.section).map(Item::range)
    }

    /// Render against the file bytes.
    pub fn render(&self, data: &[u8], out: &mut String) {
        let mut items: Vec<&Item> = self.items.iter().collect();
        // Sections before the fields they contain; longer sections first.
        items.sort_by(|a, b| a.start.cmp(&b.start).then(b.section.cmp(&a.section)).then(b.len.cmp(&a.len)));
        let width = format!("{:x}", data.len().max(1)).len().max(4);
        let end = data.len() as u64;
        let mut covered = 0u64; // first byte not yet shown by a field
        for it in items {
            if !it.section && it.start > covered {
                unclaimed(data, covered, it.start.min(end), width, out);
            }
            if it.section {
                if it.start > covered {
                    unclaimed(data, covered, it.start.min(end), width, out);
                    covered = it.start;
                }
                let _ = writeln!(
                    out,
                    "  0x{:0width$x} | {:<w2$} | == {} (0x{:x}..0x{:x})",
                    it.start,
                    "",
                    it.text,
                    it.start,
                    it.start.saturating_add(it.len),
                    w2 = (PER_LINE * 3 - 1) as usize
                );
                continue;
            }
            hex_lines(data, it.start, it.start.saturating_add(it.len).min(end), width, &it.text, out);
            covered = covered.max(it.start.saturating_add(it.len));
        }
        if covered < end {
            unclaimed(data, covered, end, width, out);
        }
    }
}

fn unclaimed(data: &[u8], from: u64, to: u64, width: usize, out: &mut String) {
    if from < to {
        hex_lines(data, from, to, width, "(unclaimed)", out);
    }
}

fn hex_lines(data: &[u8], from: u64, to: u64, width: usize, text: &str, out: &mut String) {
    let mut at = from;
    let mut first = true;
    if from >= to {
        let _ = writeln!(out, "  0x{from:0width$x} | {:<23} | {text}", "");
        return;
    }
    while at < to {
        let n = (to - at).min(PER_LINE);
        let mut hex = String::with_capacity(24);
        for i in 0..n {
            if let Some(b) = data.get((at + i) as usize) {
                if i > 0 {
                    hex.push(' ');
                }
                let _ = write!(hex, "{b:02x}");
            }
        }
        let meaning = if first { text } else { "" };
        let _ = writeln!(out, "  0x{at:0width$x} | {hex:<23} | {meaning}");
        first = false;
        at += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_every_byte() {
        let data = b"DVLB\x01\0\0\0\x10\0\0\0ZZ";
        let mut a = Annotations::new();
        a.section(0, 12, "DVLB header");
        a.field(0, 4, "magic \"DVLB\"");
        a.field(4, 4, "DVLE count: 1");
        let mut s = String::new();
        a.render(data, &mut s);
        assert_eq!(
            s,
            "  0x0000 |                         | == DVLB header (0x0..0xc)\n\
             \x20 0x0000 | 44 56 4c 42             | magic \"DVLB\"\n\
             \x20 0x0004 | 01 00 00 00             | DVLE count: 1\n\
             \x20 0x0008 | 10 00 00 00 5a 5a       | (unclaimed)\n"
        );
        let sections: Vec<_> = a.sections().collect();
        assert_eq!(sections, [(0..12, "DVLB header")]);
        let fields: Vec<_> = a.fields().collect();
        assert_eq!(fields, [(0..4, "magic \"DVLB\""), (4..8, "DVLE count: 1")]);
    }
}
