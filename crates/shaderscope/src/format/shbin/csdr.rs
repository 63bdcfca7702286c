//! `.csdr`: 3DS shader binaries as base64 text; see [`Csdr`], re-exported from [`super`].

use crate::error::{Error, Result};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};

/// A `.csdr` file: 3DS shader binaries as base64 text (seen in AR Games). The decoded bytes are
/// a DVLB or a CGFX.
///
/// The text's line breaks and surrounding whitespace are recorded, so [`Csdr::write`] gives the
/// same text back while the binary inside keeps its length.
///
/// ```
/// use shaderscope::format::shbin::Csdr;
///
/// let text = b"  RFZM\r\nQgEA\r\nAA==\r\n";
/// let c = Csdr::parse(text)?;
/// assert_eq!(c.decoded, b"DVLB\x01\0\0");
/// assert_eq!(c.write(&c.decoded), text);
/// // A binary of another length is written in lines of 76 characters.
/// assert_eq!(c.write(b"DVLB"), b"RFZMQg==\n");
/// assert_eq!(
///     Csdr::parse(b"RFZMQ!").unwrap_err().to_string(),
///     "invalid base64 text at offset 0x5: byte 0x21 is neither base64 nor whitespace"
/// );
/// # Ok::<(), shaderscope::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Csdr {
    /// The decoded binary.
    pub decoded: Vec<u8>,
    /// Whitespace runs and where they sat in the text: (offset in the text, bytes).
    pub whitespace: Vec<(usize, Vec<u8>)>,
    /// Whether the base64 had `=` padding.
    pub padded: bool,
    /// Length of the base64 characters (without whitespace), to detect changed payloads.
    pub encoded_len: usize,
}

impl Csdr {
    /// Decode the text.
    pub fn parse(text: &[u8]) -> Result<Csdr> {
        let mut chars = Vec::with_capacity(text.len());
        let mut whitespace: Vec<(usize, Vec<u8>)> = Vec::new();
        for (i, &c) in text.iter().enumerate() {
            if c.is_ascii_whitespace() {
                match whitespace.last_mut() {
                    Some((at, run)) if *at + run.len() == i => run.push(c),
                    _ => whitespace.push((i, vec![c])),
                }
            } else if c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'=' {
                chars.push(c);
            } else {
                return Err(Error::invalid(
                    i as u64,
                    "base64 text",
                    format!("byte 0x{c:02x} is neither base64 nor whitespace"),
                ));
            }
        }
        let padded = chars.ends_with(b"=");
        let engine = if padded { &STANDARD } else { &STANDARD_NO_PAD };
        let decoded = engine.decode(&chars).map_err(|e| Error::invalid(0, "base64 text", e.to_string()))?;
        Ok(Csdr { decoded, whitespace, padded, encoded_len: chars.len() })
    }

    /// Encode `binary` as text with this file's layout (or 76-column lines if its length changed).
    pub fn write(&self, binary: &[u8]) -> Vec<u8> {
        let engine = if self.padded { &STANDARD } else { &STANDARD_NO_PAD };
        let enc = engine.encode(binary).into_bytes();
        if enc.len() != self.encoded_len {
            let mut out = Vec::with_capacity(enc.len() + enc.len() / 76 + 1);
            for line in enc.chunks(76) {
                out.extend_from_slice(line);
                out.push(b'\n');
            }
            return out;
        }
        let mut out =
            Vec::with_capacity(enc.len() + self.whitespace.iter().map(|w| w.1.len()).sum::<usize>());
        let mut src = enc.iter();
        let mut ws = self.whitespace.iter().peekable();
        loop {
            if let Some((at, run)) = ws.peek()
                && *at == out.len()
            {
                out.extend_from_slice(run);
                ws.next();
                continue;
            }
            match src.next() {
                Some(&c) => out.push(c),
                None => break,
            }
        }
        for (_, run) in ws {
            out.extend_from_slice(run);
        }
        out
    }
}

/// Where the base64 characters of a `.csdr` sit in its text.
#[derive(Debug)]
pub(crate) struct TextMap {
    /// (index of the character a whitespace run precedes, whitespace bytes up to and
    /// including that run), in text order.
    runs: Vec<(u64, u64)>,
    /// Base64 characters (padding included).
    chars: u64,
    /// Decoded bytes.
    decoded: u64,
    /// Length of the text.
    text: u64,
}

impl TextMap {
    pub(crate) fn new(c: &Csdr, text_len: usize) -> TextMap {
        let mut ws = 0u64;
        let runs = c
            .whitespace
            .iter()
            .map(|(at, run)| {
                let before = *at as u64 - ws;
                ws += run.len() as u64;
                (before, ws)
            })
            .collect();
        TextMap { runs, chars: c.encoded_len as u64, decoded: c.decoded.len() as u64, text: text_len as u64 }
    }

    /// The text offset where the characters of decoded byte `k` on begin: those whose first
    /// bit is in byte `k` or later (a character carries six bits, so character `j` begins in
    /// byte `6j / 8`). Whitespace before a character goes with the bytes before it; the end of
    /// the decoded bytes maps to the end of the text, padding and final line break included.
    pub(crate) fn position(&self, k: u64) -> u64 {
        let j = (4 * k).div_ceil(3);
        if k >= self.decoded || j >= self.chars {
            return self.text;
        }
        // Whitespace runs that come before character j.
        let n = self.runs.partition_point(|&(before, _)| before <= j);
        let ws = n.checked_sub(1).and_then(|i| self.runs.get(i)).map_or(0, |r| r.1);
        j + ws
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_line_breaks_and_padding() {
        let text = b"  RFZM\r\nQgEA\r\nAA==\r\n";
        let c = Csdr::parse(text).unwrap();
        assert_eq!(c.decoded, b"DVLB\x01\0\0");
        assert_eq!(c.write(&c.decoded), text.to_vec());
        let e = Csdr::parse(b"RFZMQ!").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid base64 text at offset 0x5: byte 0x21 is neither base64 nor whitespace"
        );
    }
}
