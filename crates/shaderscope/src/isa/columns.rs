//! The columns a listing line may start with, the same in every instruction set whose
//! listing has them (Latte, Mali GP, Mali PP): `--offsets`/`--file-offsets` put the absolute
//! offset of the bytes the line shows (`0x00000208: `), `--raw` their 32-bit words in
//! lower-case hexadecimal, in a column a set number of words wide (a longer instruction
//! pushes the text on). A line that shows no bytes gets blank columns.

use crate::model::DisasmOptions;
use crate::print::{Line, Short, Style};

/// Which columns a listing's lines start with.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Columns {
    offsets: bool,
    raw: bool,
    /// Width of the raw column in words.
    raw_words: usize,
}

impl Columns {
    /// The columns `opts` asks for, with a raw column `raw_words` words wide.
    pub(crate) fn new(opts: &DisasmOptions, raw_words: usize) -> Self {
        Columns { offsets: opts.offsets || opts.file_offsets, raw: opts.raw, raw_words }
    }

    /// Whether a line starts with any column.
    pub(crate) fn any(self) -> bool {
        self.offsets || self.raw
    }

    /// Write the columns for a line showing `words` at `at` (a blank offset column when `at`
    /// is `None`, a blank raw column when there are no words).
    pub(crate) fn write(self, line: &mut Line, at: Option<u64>, words: impl IntoIterator<Item = u32>) {
        if !self.any() {
            return;
        }
        line.style(Style::Address);
        if self.offsets {
            match at {
                Some(at) => {
                    line.push_str("0x");
                    if at > u64::from(u32::MAX) {
                        push_hex8(line, (at >> 32) as u32, false);
                    }
                    push_hex8(line, at as u32, false);
                    line.push_str(": ");
                }
                None => line.push_spaces(12),
            }
        }
        if self.raw {
            let start = line.len();
            for w in words {
                push_hex8(line, w, false);
                line.push_str(" ");
            }
            line.pad_from(start, 9 * self.raw_words);
            line.push_str(" ");
        }
        line.reset();
    }
}

/// `v` as eight hexadecimal digits, upper-case where `upper` (the column is lower-case;
/// Latte's literals print upper-case, `(0x3F800000, 1)`).
#[inline]
pub(crate) fn push_hex8(line: &mut Line, v: u32, upper: bool) {
    let hex: &[u8; 16] = if upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    let mut digits = [b'0'; 8];
    for (i, d) in digits.iter_mut().enumerate() {
        *d = hex.get((v >> (28 - 4 * i) & 0xf) as usize).copied().unwrap_or(b'0');
    }
    line.push_short(&Short::from_ascii_bytes(digits, 8));
}
