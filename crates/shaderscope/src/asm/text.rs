//! The text toolkit every assembler reads its listing with: a [`Cursor`] over one line, the
//! numbers listings print ([`Cursor::number`], [`float_bits`], MSVC's `1.#INF`), the error of
//! a line ([`Syntax`]: the column and what was expected there) and of a whole text
//! ([`LineError`]: the line too), and the guard that bounds nesting ([`Cursor::deeper`]).
//!
//! Nothing here knows an instruction set: an assembler reads its own grammar with these
//! pieces, so that every assembler reports the same way (`line 3, column 14: expected an
//! operand`) and reads numbers alike.
//!
//! ```
//! use shaderscope::asm::text::{Cursor, LineError, Syntax};
//!
//! let mut c = Cursor::new("  mad r0, 0x10, 1.#INF");
//! c.skip_space();
//! assert_eq!(c.word(), "mad");
//! c.skip_space();
//! assert!(c.eat("r") && c.u32()? == 0 && c.eat(", "));
//! assert_eq!(c.number()?, 16);
//! c.expect(", ")?;
//! assert_eq!(shaderscope::asm::text::float_bits(c.number_text()), Some(0x7f80_0000));
//! assert!(c.at_end());
//!
//! let e: Syntax = c.fail::<()>("an operand").unwrap_err();
//! assert_eq!(e.at_line(3).to_string(), "line 3, column 23: expected an operand");
//! # Ok::<(), Syntax>(())
//! ```

use crate::print::float::{FloatStyle, write_f32_fixed, write_f64_fixed};

/// Why a line did not read: the column (0-based byte offset in the line) and what was
/// expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Syntax {
    /// Byte offset in the line.
    pub column: usize,
    /// What the assembler expected to find there.
    pub expected: String,
}

impl Syntax {
    /// This error, in line `line` (1-based) of a whole text.
    pub fn at_line(self, line: usize) -> LineError {
        LineError { file: None, line, syntax: self }
    }
}

impl std::fmt::Display for Syntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: expected {}", self.column + 1, self.expected)
    }
}

impl std::error::Error for Syntax {}

/// Where a whole text did not read: the line (1-based) and the [`Syntax`] error in it, and the
/// file when the text has a name (an assembler given several files, or a line marker
/// `# 12 "lighting.v.pica"` of a preprocessor naming the file the lines come from).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// The file, when known.
    pub file: Option<String>,
    /// Line number, from 1.
    pub line: usize,
    /// What went wrong in it.
    pub syntax: Syntax,
}

impl LineError {
    /// An error at `line`, column `column` (0-based), expecting `expected`.
    pub fn new(line: usize, column: usize, expected: impl Into<String>) -> Self {
        LineError { file: None, line, syntax: Syntax { column, expected: expected.into() } }
    }

    /// This error in file `name`, unless a line marker named its file already.
    pub fn in_file(mut self, name: &str) -> Self {
        self.file.get_or_insert_with(|| name.to_string());
        self
    }
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        write!(f, "line {}, {}", self.line, self.syntax)
    }
}

impl std::error::Error for LineError {}

type Result<T> = std::result::Result<T, Syntax>;

/// A cursor over one line: `text` and the byte offset `at` reached in it (the column of any
/// error). Readers that fail leave `at` where the error is; a reader may set `at` back to
/// report an error at the start of what it read.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    /// The line.
    pub text: &'a str,
    /// Byte offset reached in it.
    pub at: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Cursor { text, at: 0 }
    }

    /// What is left of the line.
    pub fn rest(&self) -> &'a str {
        self.text.get(self.at..).unwrap_or("")
    }

    /// An error here, expecting `expected`.
    pub fn fail<T>(&self, expected: impl Into<String>) -> Result<T> {
        Err(Syntax { column: self.at, expected: expected.into() })
    }

    /// An error at `column`, expecting `expected` (the cursor stays).
    pub fn fail_at<T>(&self, column: usize, expected: impl Into<String>) -> Result<T> {
        Err(Syntax { column, expected: expected.into() })
    }

    /// Moves past spaces.
    pub fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    /// Takes `s` when the text goes on with it.
    pub fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.at += s.len();
            true
        } else {
            false
        }
    }

    /// Takes `s`, or fails expecting it (`` expected `,` ``).
    pub fn expect(&mut self, s: &str) -> Result<()> {
        if self.eat(s) { Ok(()) } else { self.fail(format!("`{s}`")) }
    }

    /// The longest run of characters `f` accepts (possibly empty).
    pub fn take_while(&mut self, f: impl Fn(char) -> bool) -> &'a str {
        let rest = self.rest();
        let n = rest.find(|c| !f(c)).unwrap_or(rest.len());
        self.at += n;
        rest.get(..n).unwrap_or("")
    }

    /// A run of letters, digits and `_` (possibly empty).
    pub fn word(&mut self) -> &'a str {
        self.take_while(|c| c.is_ascii_alphanumeric() || c == '_')
    }

    /// The text of a number as listings print them, not yet read: letters, digits, `.`,
    /// `-`, `+`, `#` (`-1.500000`, `0x3f800000`, `1.#INF`, `1e-5`); read it with
    /// [`float_bits`], [`double_bits`] or `str::parse`.
    pub fn number_text(&mut self) -> &'a str {
        self.take_while(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '-' | '+' | '#'))
    }

    /// Nothing but spaces left.
    pub fn at_end(&self) -> bool {
        self.rest().trim().is_empty()
    }

    /// An unsigned decimal or `0x` hexadecimal number.
    pub fn number(&mut self) -> Result<u64> {
        let start = self.at;
        let text = self.take_while(|c| c.is_ascii_alphanumeric());
        let value = match text.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => text.parse().ok(),
        };
        match value {
            Some(v) => Ok(v),
            None => {
                self.at = start;
                self.fail("a number")
            }
        }
    }

    /// [`Cursor::number`] below 2^32.
    pub fn u32(&mut self) -> Result<u32> {
        let start = self.at;
        let v = self.number()?;
        u32::try_from(v).or_else(|_| {
            self.at = start;
            self.fail("a number below 2^32")
        })
    }

    /// A [`Cursor::number`] with an optional `-`.
    pub fn signed(&mut self) -> Result<i64> {
        let negative = self.eat("-");
        let v = self.number()? as i64;
        Ok(if negative { -v } else { v })
    }

    /// The guard of a recursive reader: `depth + 1` when `depth` is below `limit`, else an
    /// error here expecting `expected()`. Every reader that recurses on text (a relative
    /// index holding a register with its own index) goes through it, so no text, however
    /// deeply it nests, makes the reading recurse more than `limit` levels.
    pub fn deeper(&self, depth: u8, limit: u8, expected: impl FnOnce() -> String) -> Result<u8> {
        if depth < limit { Ok(depth + 1) } else { self.fail(expected()) }
    }
}

/// MSVC's spellings of infinities and NaNs, as fxc prints them (`%f` of the C runtime), and
/// Rust's: the 32-bit float's bits.
pub(crate) fn special_float(text: &str) -> Option<u32> {
    Some(match text {
        "1.#INF00" | "1.#INF" | "inf" => 0x7f80_0000,
        "-1.#INF00" | "-1.#INF" | "-inf" => 0xff80_0000,
        "-1.#IND00" | "-1.#IND" => 0xffc0_0000,
        "1.#IND00" | "1.#IND" => 0x7fc0_0000,
        "1.#QNAN0" | "1.#QNAN" | "nan" => 0x7fc0_0000,
        "-1.#QNAN0" | "-1.#QNAN" | "-nan" => 0xffc0_0000,
        _ => return None,
    })
}

/// A 32-bit float's bits from its decimal text (or MSVC's `1.#INF`, …).
pub fn float_bits(text: &str) -> Option<u32> {
    special_float(text).or_else(|| text.parse::<f32>().ok().map(f32::to_bits))
}

/// A 64-bit float's bits from its decimal text (or MSVC's `1.#INF`, …, widened).
pub fn double_bits(text: &str) -> Option<u64> {
    match special_float(text) {
        Some(bits) => Some(f64::from(f32::from_bits(bits)).to_bits()),
        None => text.parse::<f64>().ok().map(f64::to_bits),
    }
}

/// Whether the `%f` text of a 32-bit float reads back to the same bits (what a printer asks
/// before printing a literal as fxc does when its text must assemble back exactly).
pub fn f32_text_is_exact(bits: u32, style: FloatStyle) -> bool {
    let mut text = String::new();
    write_f32_fixed(&mut text, bits, style).is_ok() && float_bits(&text) == Some(bits)
}

/// Whether the `%f` text of a 64-bit float reads back to the same bits.
pub fn f64_text_is_exact(bits: u64, style: FloatStyle) -> bool {
    let mut text = String::new();
    write_f64_fixed(&mut text, bits, style).is_ok() && double_bits(&text) == Some(bits)
}
