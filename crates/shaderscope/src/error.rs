//! The one error type of the library.
//!
//! Every error names the structure being read (`what`), the absolute byte offset in the input
//! where the problem is, and why. `Display` reads like
//! `truncated DVLE header at offset 0x1c4 (need 64 bytes, have 12)`.
//! The payload is boxed so that `Result<T>` stays small on the happy path.
//!
//! ```
//! use shaderscope::{Error, ErrorKind};
//! use shaderscope::format::shbin::Dvlb;
//!
//! // A DVLB cut short inside its header.
//! let e = Dvlb::parse(b"DVLB\x01\0").unwrap_err();
//! assert_eq!(e.to_string(), "truncated DVLB header at offset 0x0 (need 8 bytes, have 6)");
//! assert_eq!((e.offset(), e.what()), (0, "DVLB header"));
//! assert_eq!(e.kind(), &ErrorKind::Truncated { need: 8, have: 6 });
//!
//! // An error found in an embedded blob, moved to where the blob sits in the file.
//! let e = Error::truncated(0x1c4, "DVLE header", 64, 12).context("DVLB 1 ").rebase(0x100);
//! assert_eq!(e.to_string(), "truncated DVLB 1 DVLE header at offset 0x2c4 (need 64 bytes, have 12)");
//! ```

use std::borrow::Cow;
use std::fmt;

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong, without the location (that lives in [`Error`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Fewer bytes remain than the structure needs.
    #[error("need {need} bytes, have {have}")]
    Truncated {
        /// Bytes the structure needs.
        need: u64,
        /// Bytes available from the offset to the end of the input.
        have: u64,
    },
    /// The four-character code is not the expected one.
    #[error("expected \"{expected}\", found \"{found}\"")]
    BadMagic {
        /// Expected magic, as text.
        expected: String,
        /// What was found, with non-printable bytes escaped.
        found: String,
    },
    /// An offset/size pair reaches outside its enclosing range.
    #[error("{}", bounds_text(*start, *len, *limit))]
    OutOfBounds {
        /// Start offset (absolute).
        start: u64,
        /// Length in bytes.
        len: u64,
        /// End of the enclosing range (absolute).
        limit: u64,
    },
    /// Offset or size arithmetic overflowed.
    #[error("offset arithmetic overflows")]
    Overflow,
    /// A value is not allowed here.
    #[error("{0}")]
    Invalid(String),
    /// Valid for the format, but this build cannot read it yet.
    #[error("{0}")]
    Unsupported(String),
    /// The file has no such structure; the text says why (a DXIL container has no SM4
    /// program).
    #[error("{0}")]
    Absent(String),
    /// There are no bytes at all (an empty file), so there is nothing to recognise.
    #[error("no bytes")]
    Empty,
}

fn bounds_text(start: u64, len: u64, limit: u64) -> String {
    if len == 0 {
        format!("0x{start:x} is past the end 0x{limit:x}")
    } else {
        format!("0x{start:x} + 0x{len:x} is outside 0x{limit:x}")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    offset: u64,
    what: Cow<'static, str>,
}

/// A parse, validation or write failure with its absolute byte offset.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

impl Error {
    /// A new error about `what` at absolute `offset`.
    #[cold]
    pub fn new(kind: ErrorKind, offset: u64, what: impl Into<Cow<'static, str>>) -> Self {
        Error(Box::new(Inner { kind, offset, what: what.into() }))
    }

    /// Not enough bytes for `what` at `offset`.
    #[cold]
    pub fn truncated(offset: u64, what: impl Into<Cow<'static, str>>, need: u64, have: u64) -> Self {
        Self::new(ErrorKind::Truncated { need, have }, offset, what)
    }

    /// A value of `what` at `offset` is not allowed; `why` says which and why.
    #[cold]
    pub fn invalid(offset: u64, what: impl Into<Cow<'static, str>>, why: impl Into<String>) -> Self {
        Self::new(ErrorKind::Invalid(why.into()), offset, what)
    }

    /// The input has no `what`; `why` says why (what it holds instead).
    #[cold]
    pub fn absent(offset: u64, what: impl Into<Cow<'static, str>>, why: impl Into<String>) -> Self {
        Self::new(ErrorKind::Absent(why.into()), offset, what)
    }

    /// Something this build does not read yet.
    #[cold]
    pub fn unsupported(offset: u64, what: impl Into<Cow<'static, str>>, why: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported(why.into()), offset, what)
    }

    /// `what` (an input) has no bytes at all: `empty file`.
    #[cold]
    pub fn empty(what: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorKind::Empty, 0, what)
    }

    /// Overflowing offset arithmetic while locating `what`.
    #[cold]
    pub fn overflow(offset: u64, what: impl Into<Cow<'static, str>>) -> Self {
        Self::new(ErrorKind::Overflow, offset, what)
    }

    /// `what` spans `start..start+len`, which leaves the range ending at `limit`.
    #[cold]
    pub fn out_of_bounds(
        offset: u64,
        what: impl Into<Cow<'static, str>>,
        start: u64,
        len: u64,
        limit: u64,
    ) -> Self {
        Self::new(ErrorKind::OutOfBounds { start, len, limit }, offset, what)
    }

    /// The magic of `what` at `offset` is not `expected`.
    #[cold]
    pub fn bad_magic(offset: u64, what: impl Into<Cow<'static, str>>, expected: &[u8], found: &[u8]) -> Self {
        Self::new(
            ErrorKind::BadMagic { expected: escape_bytes(expected), found: escape_bytes(found) },
            offset,
            what,
        )
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// Absolute byte offset in the input.
    pub fn offset(&self) -> u64 {
        self.0.offset
    }

    /// The structure being read, e.g. `DVLE header`.
    pub fn what(&self) -> &str {
        &self.0.what
    }

    /// The message without its offset, for a caller that shows the offset beside it (a
    /// finding of `validate` is printed as `offset 0x1c4: truncated DVLE header (need 64 bytes,
    /// have 12)`).
    pub fn reason(&self) -> String {
        Text { error: self, offset: false }.to_string()
    }

    /// The same error with `prefix` put before the structure name, e.g. `DVLE 2 ` + `label table`.
    pub fn context(mut self, prefix: &str) -> Self {
        self.0.what = Cow::Owned(format!("{prefix}{}", self.0.what));
        self
    }

    /// A pointer that leads outside its range named at the field that holds it (absolute
    /// `field`): the offset it points at may lie past the end of the file, where nobody can
    /// look; the message keeps it. Other errors are returned as they are.
    pub fn at_field(mut self, field: u64) -> Self {
        if matches!(self.0.kind, ErrorKind::OutOfBounds { .. }) {
            self.0.offset = field;
        }
        self
    }

    /// The same error moved by `base` bytes: for structures parsed from an embedded blob.
    pub fn rebase(mut self, base: u64) -> Self {
        self.0.offset = self.0.offset.saturating_add(base);
        if let ErrorKind::OutOfBounds { start, limit, .. } = &mut self.0.kind {
            *start = start.saturating_add(base);
            *limit = limit.saturating_add(base);
        }
        self
    }
}

/// Printable rendering of a magic or tag: ASCII as is, anything else as `\xNN`.
pub fn escape_bytes(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len());
    for &c in b {
        if (0x20..0x7f).contains(&c) && c != b'\\' && c != b'"' {
            s.push(c as char);
        } else {
            s.push_str(&format!("\\x{c:02x}"));
        }
    }
    s
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Text { error: self, offset: true }.fmt(f)
    }
}

/// An error's message, with or without ` at offset 0x…`.
struct Text<'a> {
    error: &'a Error,
    offset: bool,
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Inner { kind, offset, what } = &*self.error.0;
        let at = At(self.offset.then_some(*offset));
        match kind {
            ErrorKind::Truncated { .. } => write!(f, "truncated {what}{at} ({kind})"),
            ErrorKind::BadMagic { .. } => write!(f, "bad {what} magic{at}: {kind}"),
            ErrorKind::OutOfBounds { .. } => write!(f, "{what}{at} points outside its range ({kind})"),
            ErrorKind::Overflow => write!(f, "{what}{at}: {kind}"),
            ErrorKind::Invalid(_) => write!(f, "invalid {what}{at}: {kind}"),
            ErrorKind::Unsupported(_) => write!(f, "unsupported {what}{at}: {kind}"),
            ErrorKind::Absent(_) => write!(f, "no {what}{at}: {kind}"),
            // Nothing to locate: the whole input is missing.
            ErrorKind::Empty => write!(f, "empty {what}"),
        }
    }
}

/// ` at offset 0x…`, or nothing.
struct At(Option<u64>);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(offset) => write!(f, " at offset 0x{offset:x}"),
            None => Ok(()),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_reads_like_the_design() {
        let e = Error::truncated(0x1c4, "DVLE header", 64, 12);
        assert_eq!(e.to_string(), "truncated DVLE header at offset 0x1c4 (need 64 bytes, have 12)");
        let e = Error::bad_magic(8, "DVLP", b"DVLP", b"DV\0\xff");
        assert_eq!(e.to_string(), r#"bad DVLP magic at offset 0x8: expected "DVLP", found "DV\x00\xff""#);
        let e = Error::out_of_bounds(0x18, "constant table", 0x200, 0x28, 0x1e0);
        assert_eq!(
            e.to_string(),
            "constant table at offset 0x18 points outside its range (0x200 + 0x28 is outside 0x1e0)"
        );
        assert_eq!(e.context("DVLE 1 ").what(), "DVLE 1 constant table");
        assert_eq!(Error::empty("file").to_string(), "empty file");
    }

    #[test]
    fn reason_is_the_message_without_the_offset() {
        let e = Error::truncated(0x1c4, "DVLE header", 64, 12);
        assert_eq!(e.reason(), "truncated DVLE header (need 64 bytes, have 12)");
        let e = Error::invalid(0x30, "RDEF struct member", "a struct contains itself");
        assert_eq!(e.reason(), "invalid RDEF struct member: a struct contains itself");
        let e = Error::out_of_bounds(0x18, "constant table", 0x200, 0x28, 0x1e0);
        assert_eq!(e.reason(), "constant table points outside its range (0x200 + 0x28 is outside 0x1e0)");
        assert_eq!(
            Error::bad_magic(8, "DVLP", b"DVLP", b"DVLE").reason(),
            r#"bad DVLP magic: expected "DVLP", found "DVLE""#
        );
    }

    #[test]
    fn rebase_moves_offsets() {
        let e = Error::out_of_bounds(4, "x", 8, 4, 10).rebase(0x100);
        assert_eq!(e.offset(), 0x104);
        assert_eq!(e.kind(), &ErrorKind::OutOfBounds { start: 0x108, len: 4, limit: 0x10a });
    }
}
