//! NUL-terminated strings inside chunks, borrowed from the input.

use crate::error::{Error, Result};
use std::borrow::Cow;

/// A string stored in a chunk: its bytes (without the NUL) and where they are.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Cstr<'a> {
    /// The bytes before the terminating NUL.
    pub bytes: &'a [u8],
    /// Absolute offset of the first byte.
    pub offset: usize,
}

impl<'a> Cstr<'a> {
    /// The string at `rel` (relative to `data`, which sits at absolute `base`); `field_at` is
    /// the absolute offset of the field that holds `rel`.
    pub fn at(data: &'a [u8], base: usize, rel: u32, what: &'static str, field_at: u64) -> Result<Self> {
        let Some(rest) = data.get(rel as usize..) else {
            return Err(Error::out_of_bounds(
                field_at,
                what,
                (base as u64).saturating_add(u64::from(rel)),
                1,
                (base + data.len()) as u64,
            ));
        };
        match memchr::memchr(0, rest) {
            Some(n) => Ok(Cstr { bytes: rest.get(..n).unwrap_or(&[]), offset: base + rel as usize }),
            None => Err(Error::invalid(field_at, what, "string has no terminating NUL inside its chunk")),
        }
    }

    /// The text, with invalid UTF-8 replaced.
    pub fn text(&self) -> Cow<'a, str> {
        // The strings are ASCII in practice: the plain check is much cheaper than the lossy
        // decoder, which is kept for the rest.
        match std::str::from_utf8(self.bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(self.bytes),
        }
    }

    /// Length in bytes (without the NUL).
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True for the empty string.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl std::fmt::Debug for Cstr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}@0x{:x}", self.text(), self.offset)
    }
}

impl std::fmt::Display for Cstr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}
