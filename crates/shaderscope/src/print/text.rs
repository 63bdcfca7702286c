//! [`TextBuf`]: the plain-text output buffer of the listings.

use std::fmt;

/// An output buffer of text that is ASCII almost everywhere: `push` of an ASCII `char` is a
/// single byte store, and only whole UTF-8 sequences are ever appended, so the bytes are always
/// valid UTF-8. Listings write straight into one (the CLI's output buffer, which goes to stdout
/// as bytes), so text is neither copied nor validated on its way out.
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
        if c.is_ascii() {
            self.0.push(c as u8);
        } else {
            let mut b = [0u8; 4];
            self.0.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
        }
    }

    /// Append a string.
    #[inline]
    pub fn push_str(&mut self, s: &str) {
        self.push_ascii(s.as_bytes());
    }

    /// Append bytes that are whole UTF-8 sequences (in practice ASCII).
    #[inline]
    pub(crate) fn push_ascii(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }

    /// Append the first `len` bytes of `b` (whole UTF-8 sequences): copies the whole array,
    /// whose size is known at compile time, and drops the rest, which is cheaper for short
    /// text than a copy of unknown length.
    #[inline]
    pub(crate) fn push_prefix<const N: usize>(&mut self, b: &[u8; N], len: usize) {
        let at = self.0.len();
        self.0.extend_from_slice(b);
        self.0.truncate(at + len.min(N));
    }

    /// Append text through a [`Writer`] over `room` bytes made after the text: `f` writes
    /// into them, and what it [committed](Writer::commit) stays (the rest is dropped). For
    /// hot loops that write many short pieces: a piece costs one length check and one copy.
    #[inline]
    pub(crate) fn write_with<R>(&mut self, room: usize, f: impl FnOnce(&mut Writer<'_>) -> R) -> R {
        let at = self.0.len();
        // Zeroing the room costs far less than the checks the writer saves.
        self.0.resize(at.saturating_add(room), 0);
        let (r, kept) = {
            let rest = self.0.get_mut(at..).unwrap_or_default();
            let mut w = Writer { room: rest.len(), rest, committed: 0, short: false };
            let r = f(&mut w);
            (r, w.committed)
        };
        self.0.truncate(at + kept);
        r
    }

    /// Append `n` spaces.
    #[inline]
    pub fn push_spaces(&mut self, n: usize) {
        // Columns are short: one fixed-size copy of 32 spaces, cut to length, usually does.
        const SPACES: [u8; 32] = [b' '; 32];
        let mut n = n;
        while n > 0 {
            let k = n.min(SPACES.len());
            self.push_prefix(&SPACES, k);
            n -= k;
        }
    }

    /// Append `v` in decimal.
    #[inline]
    pub fn push_u64(&mut self, v: u64) {
        if v < 10 {
            self.0.push(b'0' + v as u8);
            return;
        }
        let (digits, n) = decimal(v);
        self.push_prefix(&digits, n);
    }

    /// Append `v` in decimal, right-aligned in `width` columns.
    pub fn push_u64_right(&mut self, v: u64, width: usize) {
        let digits = decimal_len(v);
        self.push_spaces(width.saturating_sub(digits));
        self.push_u64(v);
    }

    /// Append `v` in lowercase hexadecimal with at least `digits` digits (`{:0N x}`).
    pub fn push_hex(&mut self, v: u64, digits: usize) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let need = ((64 - v.leading_zeros() as usize).div_ceil(4)).max(digits).clamp(1, 16);
        for i in (0..need).rev() {
            let nib = if i < 16 { (v >> (4 * i)) & 0xf } else { 0 };
            self.0.push(HEX.get(nib as usize).copied().unwrap_or(b'0'));
        }
    }

    /// Append `text` left-aligned in `width` columns (`{:<width}`; columns count characters).
    pub fn push_left(&mut self, text: &str, width: usize) {
        self.push_str(text);
        self.push_spaces(width.saturating_sub(char_count(text)));
    }

    /// Append `text` right-aligned in `width` columns (`{:>width}`).
    pub fn push_right(&mut self, text: &str, width: usize) {
        self.push_spaces(width.saturating_sub(char_count(text)));
        self.push_str(text);
    }

    /// Characters (not bytes) written since position `from`.
    pub fn chars_since(&self, from: usize) -> usize {
        self.0.get(from..).map_or(0, |b| b.iter().filter(|&&c| (c as i8) >= -0x40).count())
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

    /// Bytes the buffer can hold without growing.
    pub fn capacity(&self) -> usize {
        self.0.capacity()
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

/// Writes into room made after the text of a [`TextBuf`] ([`TextBuf::write_with`]), keeping
/// the unwritten room as a slice, so that appending a piece is one length check, one copy of a
/// size known at compile time, and moving the slice on.
pub(crate) struct Writer<'a> {
    /// The room not written yet.
    rest: &'a mut [u8],
    /// Bytes of room at the start.
    room: usize,
    /// Bytes written and kept.
    committed: usize,
    /// A piece did not fit since the last commit.
    short: bool,
}

impl Writer<'_> {
    /// Append the first `len` bytes of `b` (see [`TextBuf::push_prefix`]).
    #[inline]
    pub(crate) fn put<const N: usize>(&mut self, b: &[u8; N], len: usize) {
        let rest = std::mem::take(&mut self.rest);
        match rest.split_first_chunk_mut::<N>() {
            Some((head, _)) => *head = *b,
            None => {
                self.short = true;
                self.rest = rest;
                return;
            }
        }
        self.rest = rest.get_mut(len.min(N)..).unwrap_or_default();
    }

    /// Bytes of room left.
    #[inline]
    pub(crate) fn left(&self) -> usize {
        self.rest.len()
    }

    /// Bytes written since the writer started (committed or not).
    #[inline]
    pub(crate) fn written(&self) -> usize {
        self.room - self.rest.len()
    }

    /// Keep everything written so far; false (and nothing kept since the last commit) when a
    /// piece did not fit.
    #[inline]
    pub(crate) fn commit(&mut self) -> bool {
        if self.short {
            return false;
        }
        self.committed = self.written();
        true
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

/// Component letters, x first.
const XYZW: [u8; 4] = *b"xyzw";

/// `.` and the letters of the components set in `mask` (bit 0 x … bit 3 w) as the bytes of a
/// `u64`, first byte lowest, with their count: the listings' write-mask tables are built from
/// it at compile time.
// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn mask_letters(mask: usize) -> (u64, usize) {
    let mut text = b'.' as u64;
    let mut n = 1;
    let mut c = 0;
    while c < 4 {
        if mask & (1 << c) != 0 {
            text |= (XYZW[c] as u64) << (8 * n);
            n += 1;
        }
        c += 1;
    }
    (text, n)
}

/// `.` and the four letters of a swizzle byte (two bits a component, the first lowest) as
/// the bytes of a `u64`, first byte lowest: the listings' swizzle tables are built from it.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn swizzle_letters(swizzle: usize) -> u64 {
    let mut text = b'.' as u64;
    let mut c = 0;
    while c < 4 {
        text |= (XYZW[(swizzle >> (2 * c)) & 3] as u64) << (8 * (c + 1));
        c += 1;
    }
    text
}

/// Powers of ten that fit in a `u64`.
const POW10: [u64; 20] = powers_of_ten();

// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn powers_of_ten() -> [u64; 20] {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
}

/// Decimal digits of `v`: estimated from its bit length (log10 2 ≈ 1233 / 4096), then
/// corrected by one comparison.
#[inline]
pub(crate) fn decimal_len(v: u64) -> usize {
    let bits = 64 - (v | 1).leading_zeros() as usize;
    let guess = (bits * 1233) >> 12;
    (guess + usize::from(POW10.get(guess).is_some_and(|&p| v >= p))).max(1)
}

/// `v` in decimal, left-aligned in an array, and its number of digits.
#[inline]
pub(crate) fn decimal(v: u64) -> ([u8; 20], usize) {
    let mut digits = [b'0'; 20];
    let n = decimal_len(v);
    // Two digits at a time from the right, from a table of the pairs 00–99.
    let mut v = v;
    let mut end = n;
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        end -= 2;
        copy_pair(&mut digits, end, pair);
    }
    if v >= 10 {
        copy_pair(&mut digits, end - 2, v as usize * 2);
    } else if let Some(d) = digits.get_mut(end - 1) {
        *d = b'0' + v as u8;
    }
    (digits, n)
}

/// The pairs of digits `00` to `99`, one after the other.
static PAIRS: [u8; 200] = digit_pairs();

#[allow(clippy::indexing_slicing)]
const fn digit_pairs() -> [u8; 200] {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
}

#[inline]
fn copy_pair(digits: &mut [u8; 20], at: usize, pair: usize) {
    if let (Some(d), Some(p)) = (digits.get_mut(at..at + 2), PAIRS.get(pair..pair + 2)) {
        d.copy_from_slice(p);
    }
}

fn char_count(s: &str) -> usize {
    if s.is_ascii() { s.len() } else { s.chars().count() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_columns_match_fmt() {
        let mut t = TextBuf::default();
        for v in [0u64, 7, 10, 99, 100, 12345, u64::MAX] {
            t.push_u64(v);
            t.push(' ');
            t.push_u64_right(v, 6);
            t.push(' ');
            t.push_hex(v, 8);
            t.push(' ');
            t.push_hex(v, 1);
            t.push('|');
        }
        t.push_left("ab", 4);
        t.push_right("é", 3);
        t.push_left("toolongtext", 3);
        let mut want = String::new();
        for v in [0u64, 7, 10, 99, 100, 12345, u64::MAX] {
            want += &format!("{v} {v:>6} {v:08x} {v:x}|");
        }
        want += &format!("{:<4}{:>3}{:<3}", "ab", "é", "toolongtext");
        assert_eq!(t.as_str(), want);
        assert_eq!(t.chars_since(t.len() - 14), 13);
    }

    #[test]
    fn decimal_digits_at_every_power_of_ten() {
        let mut values = vec![0u64, 1, 9, u64::MAX];
        for p in POW10 {
            values.extend([p - 1, p, p + 1]);
        }
        for v in values {
            let (digits, n) = decimal(v);
            assert_eq!(std::str::from_utf8(&digits[..n]).unwrap(), v.to_string());
            assert_eq!(decimal_len(v), v.to_string().len());
        }
    }
}
