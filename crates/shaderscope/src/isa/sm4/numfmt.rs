//! Integers as fxc's disassembler prints them. Floats are C's `%f`, in
//! [`crate::print::float`].
//!
//! Numbers below 1000 are slices of one string of all of them; the digits of larger ones go
//! out one `write_char` each. Either way no digit string needs a UTF-8 check.
//!
//! ```
//! use shaderscope::isa::sm4::numfmt::{write_hex8, write_i64, write_int, write_u64};
//!
//! let mut s = String::new();
//! // An integer literal token: signed decimal up to 10000 in magnitude, else `0x%08x`.
//! for token in [8192, 10001, -2i32 as u32, 0x3f80_0000] {
//!     write_int(&mut s, token)?;
//!     s.push(' ');
//! }
//! assert_eq!(s, "8192 0x00002711 -2 0x3f800000 ");
//!
//! s.clear();
//! write_u64(&mut s, 4_294_967_296)?;
//! s.push(' ');
//! write_i64(&mut s, -17)?;
//! s.push(' ');
//! write_hex8(&mut s, 0xcccc)?;
//! assert_eq!(s, "4294967296 -17 0x0000cccc");
//! # Ok::<(), std::fmt::Error>(())
//! ```

use crate::print::{Short, decimal};
use std::fmt;

/// Largest magnitude fxc prints in decimal; anything bigger is printed as `0x%08x`.
/// The corpus shows 8192 in decimal and 0x00002720 (10016) in hex.
const DECIMAL_LIMIT: i64 = 10000;

/// An integer literal: signed decimal when small, `0x%08x` otherwise.
pub fn write_int<W: fmt::Write + ?Sized>(out: &mut W, v: u32) -> fmt::Result {
    out.write_str(int_text(v).as_str())
}

/// [`write_int`]'s text as a [`Short`] (for a [`Line`](crate::print::Line), which copies it
/// whole).
pub(crate) fn int_text(v: u32) -> Short<16> {
    let mut b = [0u8; 16];
    let s = i64::from(v as i32);
    if !(-DECIMAL_LIMIT..=DECIMAL_LIMIT).contains(&s) {
        for (i, to) in b.iter_mut().take(10).enumerate() {
            *to = match i {
                0 => b'0',
                1 => b'x',
                _ => HEX.get(((v >> (36 - 4 * i)) & 0xf) as usize).copied().unwrap_or(b'0'),
            };
        }
        return Short::from_ascii_bytes(b, 10);
    }
    // The sign, then at most 5 digits (|s| <= 10000).
    let sign = usize::from(s < 0);
    if let Some(first) = b.first_mut() {
        *first = b'-';
    }
    let (digits, n) = decimal(s.unsigned_abs());
    if let Some(to) = b.get_mut(sign..).and_then(|t| t.first_chunk_mut::<8>())
        && let Some(from) = digits.first_chunk::<8>()
    {
        *to = *from;
    }
    Short::from_ascii_bytes(b, sign + n)
}

/// `%d`.
pub fn write_i64<W: fmt::Write + ?Sized>(out: &mut W, v: i64) -> fmt::Result {
    if v < 0 {
        out.write_char('-')?;
    }
    write_u64(out, v.unsigned_abs())
}

/// `%u`: numbers below 1000 as slices of one string of all of them, others a digit at a
/// time.
pub fn write_u64<W: fmt::Write + ?Sized>(out: &mut W, v: u64) -> fmt::Result {
    if let Some(text) = decimal_text(v) {
        return out.write_str(text);
    }
    let (digits, n) = decimal(v);
    digits.iter().take(n).try_for_each(|&d| out.write_char(char::from(d)))
}

/// The decimal text of `v` when it is below 1000 (register numbers, indices, most literals):
/// a slice of one string of every such number, so writing it needs no digit loop.
pub(crate) fn decimal_text(v: u64) -> Option<&'static str> {
    let (at, len) = match v {
        0..10 => (v as usize, 1),
        10..100 => (10 + 2 * (v as usize - 10), 2),
        100..1000 => (190 + 3 * (v as usize - 100), 3),
        _ => return None,
    };
    DECIMALS.get(at..at + len)
}

/// `0123…9101112…999`: every number below 1000, one after the other.
const DECIMALS: &str = match std::str::from_utf8(&decimals()) {
    Ok(s) => s,
    Err(_) => "",
};

/// The bytes of [`DECIMALS`].
// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn decimals() -> [u8; 2890] {
    let mut t = [b'0'; 2890];
    let (mut v, mut at) = (0, 0);
    while v < 1000 {
        if v >= 100 {
            t[at] = b'0' + (v / 100) as u8;
            at += 1;
        }
        if v >= 10 {
            t[at] = b'0' + (v / 10 % 10) as u8;
            at += 1;
        }
        t[at] = b'0' + (v % 10) as u8;
        at += 1;
        v += 1;
    }
    t
}

/// `0x%08x`.
pub fn write_hex8<W: fmt::Write + ?Sized>(out: &mut W, v: u32) -> fmt::Result {
    out.write_str("0x")?;
    (0..8).rev().try_for_each(|i| {
        let digit = HEX.get(((v >> (4 * i)) & 0xf) as usize).copied().unwrap_or(b'0');
        out.write_char(char::from(digit))
    })
}

/// Hexadecimal digits by value.
const HEX: [u8; 16] = *b"0123456789abcdef";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_switch_to_hex_when_large() {
        let p = |v: u32| {
            let mut s = String::new();
            write_int(&mut s, v).unwrap();
            s
        };
        assert_eq!(p(0), "0");
        assert_eq!(p(8192), "8192");
        assert_eq!(p(10000), "10000");
        assert_eq!(p(-10000i32 as u32), "-10000");
        assert_eq!(p(-2i32 as u32), "-2");
        assert_eq!(p(10001), "0x00002711");
        assert_eq!(p(10016), "0x00002720");
        assert_eq!(p(0x3f80_0000), "0x3f800000");
        assert_eq!(p(0xffff_8001), "0xffff8001");
    }

    #[test]
    fn decimal_text_is_the_number() {
        for v in 0..1200u64 {
            assert_eq!(decimal_text(v).map(str::to_string), (v < 1000).then(|| v.to_string()));
            let mut s = String::new();
            write_u64(&mut s, v * 1_000_003).unwrap();
            assert_eq!(s, (v * 1_000_003).to_string());
        }
    }
}
