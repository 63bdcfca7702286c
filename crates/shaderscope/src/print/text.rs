//! [`TextBuf`]: the plain-text sink, and the decimal digits every number printer uses.

use std::fmt;

/// Plain text in one growable buffer: the sink of the plain listings (the CLI appends every
/// file's listing to one, which goes to stdout as bytes). Only whole UTF-8 sequences are ever
/// appended, so the bytes are always valid UTF-8.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TextBuf(Vec<u8>);

impl TextBuf {
    /// An empty buffer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        TextBuf(Vec::with_capacity(n))
    }

    /// Append a character.
    #[inline]
    pub fn push(&mut self, c: char) {
        let mut b = [0u8; 4];
        self.0.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
    }

    /// Append a string.
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }

    /// Append bytes that are whole UTF-8 sequences (a [`Line`](super::Line)'s text).
    #[inline]
    pub(crate) fn push_utf8(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }

    /// Length in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Drop everything after `len` bytes (`len` must be a position this buffer reported).
    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }

    /// Empty the buffer, keeping its allocation.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Reserve room for `n` more bytes.
    pub fn reserve(&mut self, n: usize) {
        self.0.reserve(n);
    }

    /// The text as bytes (valid UTF-8).
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The text as a `String`.
    pub fn into_string(self) -> String {
        // Only whole UTF-8 sequences are ever written, so this never loses anything.
        String::from_utf8(self.0).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or("")
    }
}

impl From<String> for TextBuf {
    fn from(s: String) -> Self {
        TextBuf(s.into_bytes())
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
