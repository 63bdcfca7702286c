//! [`TextBuf`]: the plain-text sink, terminal-safe text ([`escape_control`]), and the decimal
//! digits every number printer uses.

use std::fmt;

/// Plain text in one growable buffer: the sink of the plain listings. Only whole UTF-8
/// sequences are ever appended, so the bytes are always valid UTF-8.
///
/// A buffer made for a terminal ([`TextBuf::for_terminal`]: the CLI appends every file's
/// text output to one, which goes to stdout as bytes) puts everything appended through
/// [`escape_control`], so no string of a file (a creator string, a symbol or archive entry
/// name) reaches a terminal as a control sequence, whichever format printed it. The default
/// buffer keeps the text as it is: the library prints into it what its JSON records carry,
/// which JSON escapes its own way.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TextBuf {
    bytes: Vec<u8>,
    terminal: bool,
}

/// Whether `c` is written escaped: the C0 controls but tab and line feed. They are what a
/// terminal acts on (ESC starts its sequences, BEL rings, CR and BS overwrite what was
/// printed), and exactly the characters JSON escapes (`\u001b`), so text and JSON agree and
/// a JSON record written through the same sink is never changed. Everything else (DEL, C1,
/// Unicode text) is written as it is, as JSON writes it; a format's strings that are not
/// UTF-8 were decoded before (U+FFFD where they do not decode).
#[inline]
pub fn needs_escape(c: char) -> bool {
    c < ' ' && c != '\n' && c != '\t'
}

/// A byte that is such a character.
#[inline]
fn may_need_escape(b: u8) -> bool {
    b < 0x20 && b != b'\n' && b != b'\t'
}

/// `s` with every character [`needs_escape`] takes written as Rust writes it in a string
/// literal (`\x1b`): the one rule of every text output. A [`TextBuf::for_terminal`] and the
/// [`Ansi`](super::Ansi) and [`Html`](super::Html) sinks apply it to everything written to
/// them.
///
/// ```
/// let mut out = String::new();
/// shaderscope::print::escape_control("a\x1b[2J\x1b]0;X\x07b\tc\n", &mut out);
/// assert_eq!(out, "a\\x1b[2J\\x1b]0;X\\x07b\tc\n");
/// ```
pub fn escape_control(s: &str, out: &mut String) {
    if !s.bytes().any(may_need_escape) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        if needs_escape(c) {
            push_escaped(c, |t| out.push_str(t));
        } else {
            out.push(c);
        }
    }
}

/// The escape of `c`, handed to `put`.
fn push_escaped(c: char, mut put: impl FnMut(&str)) {
    use std::fmt::Write as _;
    let mut t = String::with_capacity(4);
    let _ = write!(t, "\\x{:02x}", c as u32);
    put(&t);
}

impl TextBuf {
    /// An empty buffer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        TextBuf { bytes: Vec::with_capacity(n), terminal: false }
    }

    /// An empty buffer whose text is [`escape_control`]led as it is appended.
    pub fn for_terminal() -> Self {
        TextBuf { bytes: Vec::new(), terminal: true }
    }

    /// Append a character ([`escape_control`]led for a terminal).
    #[inline]
    pub fn push(&mut self, c: char) {
        if self.terminal && needs_escape(c) {
            push_escaped(c, |t| self.bytes.extend_from_slice(t.as_bytes()));
        } else {
            let mut b = [0u8; 4];
            self.bytes.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
        }
    }

    /// Append a string ([`escape_control`]led for a terminal).
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        self.push_utf8(s.as_bytes());
    }

    /// Append bytes that are whole UTF-8 sequences (a [`Line`](super::Line)'s text),
    /// [`escape_control`]led for a terminal.
    #[inline]
    pub(crate) fn push_utf8(&mut self, b: &[u8]) {
        if !self.terminal || !b.iter().copied().any(may_need_escape) {
            self.bytes.extend_from_slice(b);
            return;
        }
        for c in String::from_utf8_lossy(b).chars() {
            self.push(c);
        }
    }

    /// Append bytes that a writer of text wrote through [`std::io::Write`] (a JSON record, an
    /// HTML page: each write a whole `&str`), [`escape_control`]led for a terminal. Bytes that
    /// are not UTF-8 are appended as U+FFFD, so the buffer stays valid UTF-8.
    pub fn push_bytes(&mut self, b: &[u8]) {
        match std::str::from_utf8(b) {
            Ok(s) => self.push_str(s),
            Err(_) => self.push_str(&String::from_utf8_lossy(b)),
        }
    }

    /// Append a NUL: the separator of NUL-delimited output (`scan --null`), the one control
    /// character a text output writes on purpose.
    pub fn push_nul(&mut self) {
        self.bytes.push(0);
    }

    /// Append what an [`Ansi`](super::Ansi) sink wrote: its text was escaped as it was
    /// written, its colour codes are its own.
    pub fn push_ansi(&mut self, a: &super::Ansi) {
        self.bytes.extend_from_slice(a.out.as_bytes());
    }

    /// Length in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Drop everything after `len` bytes (`len` must be a position this buffer reported).
    pub fn truncate(&mut self, len: usize) {
        self.bytes.truncate(len);
    }

    /// Empty the buffer, keeping its allocation.
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Reserve room for `n` more bytes.
    pub fn reserve(&mut self, n: usize) {
        self.bytes.reserve(n);
    }

    /// The text as bytes (valid UTF-8).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The text as a `String`.
    pub fn into_string(self) -> String {
        // Only whole UTF-8 sequences are ever written, so this never loses anything.
        String::from_utf8(self.bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes).unwrap_or("")
    }
}

impl From<String> for TextBuf {
    fn from(s: String) -> Self {
        TextBuf { bytes: s.into_bytes(), terminal: false }
    }
}

impl fmt::Write for TextBuf {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        self.push(c);
        Ok(())
    }
}

/// The decimal digits of `v`, left-aligned in an array, and how many there are.
#[inline]
pub(crate) fn decimal(v: u64) -> ([u8; 20], usize) {
    let mut rev = [0u8; 20];
    let mut n = 0;
    let mut v = v;
    loop {
        if let Some(d) = rev.get_mut(n) {
            *d = b'0' + (v % 10) as u8;
        }
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let mut digits = [b'0'; 20];
    for (d, r) in digits.iter_mut().zip(rev.get(..n).unwrap_or(&[]).iter().rev()) {
        *d = *r;
    }
    (digits, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_digits_at_every_power_of_ten() {
        let mut values = vec![0u64, 1, 9, u64::MAX];
        let mut p = 1u64;
        for _ in 0..19 {
            p *= 10;
            values.extend([p - 1, p, p + 1]);
        }
        for v in values {
            let (digits, n) = decimal(v);
            assert_eq!(std::str::from_utf8(&digits[..n]).unwrap(), v.to_string());
        }
    }

    #[test]
    fn control_characters_are_escaped_for_a_terminal_and_everything_else_kept() {
        let mut plain = TextBuf::default();
        plain.push_str("\x1b[2J\r");
        assert_eq!(plain.as_str(), "\x1b[2J\r");
        let mut t = TextBuf::for_terminal();
        t.push_str("\x1b[2J\x1b]0;X\x07 tab\tline\n\r\x7fé…→");
        t.push('\0');
        assert_eq!(t.as_str(), "\\x1b[2J\\x1b]0;X\\x07 tab\tline\n\\x0d\x7fé…→\\x00");
        t.push_nul();
        assert_eq!(t.as_bytes().last(), Some(&0));
        let mut s = String::new();
        escape_control("\x1b[2J…", &mut s);
        assert_eq!(s, "\\x1b[2J…");
    }

    #[test]
    fn characters_and_strings_are_appended_as_utf8() {
        let mut t = TextBuf::with_capacity(8);
        t.push('a');
        t.push('é');
        t.push_str("bc");
        assert_eq!(t.as_str(), "aébc");
        assert_eq!(t.len(), 5);
        t.truncate(1);
        assert_eq!(t.clone().into_string(), "a");
        t.clear();
        assert!(t.is_empty());
    }
}
