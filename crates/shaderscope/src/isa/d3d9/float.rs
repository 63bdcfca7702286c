//! Float text as fxc writes `def` constants: C's `%.9g` with the Microsoft C runtime's
//! three-digit exponent (`-1.55009923e-006`) and its spellings of infinities and NaNs.
//!
//! The nine digits are computed exactly with integer arithmetic (rounded half to even on the
//! exact binary value, as Rust's `{:.8e}` does) and written without temporary strings; only
//! values below about 1e-36, whose exact scaling does not fit 128 bits, go through `fmt`.
//!
//! ```
//! use shaderscope::isa::d3d9::float::{format_g9, write_g9};
//!
//! let mut s = String::new();
//! for v in [1.0f32, 0.5, -3.14159274, -1.55009923e-6, 1.0e9, f32::INFINITY] {
//!     format_g9(v, &mut s);
//!     s.push(' ');
//! }
//! assert_eq!(s, "1 0.5 -3.14159274 -1.55009923e-006 1e+009 1.#INF ");
//! // Any writer: the bits of a `def` token.
//! let mut t = String::new();
//! write_g9(f32::from_bits(0x3f61_47ae), &mut t).unwrap();
//! assert_eq!(t, "0.879999995");
//! ```

use std::cmp::Ordering;
use std::fmt;

/// `v` formatted like MSVC's `printf("%.9g", v)`.
pub fn format_g9(v: f32, out: &mut String) {
    // Writing into a String cannot fail.
    let _ = write_g9(v, out);
}

/// [`format_g9`] into any writer, in one `write_str`.
pub fn write_g9<W: fmt::Write + ?Sized>(v: f32, out: &mut W) -> fmt::Result {
    // Whole numbers below 1e9 (most `def` constants: 0, 1, -1, 2) are their digits: nine
    // significant digits hold them exactly, and `%g` writes them without a point.
    let magnitude = v.abs();
    if magnitude < 1.0e9 {
        let whole = magnitude as u32;
        if whole as f32 == magnitude {
            if v.is_sign_negative() {
                out.write_char('-')?;
            }
            return super::operand::push_number(out, whole);
        }
    }
    let mut buf = Buf::default();
    g9(v, &mut buf);
    out.write_str(buf.as_str())
}

/// Longest text: `-1.23456789e-038` (16 bytes).
#[derive(Default)]
struct Buf {
    b: [u8; 24],
    n: usize,
}

impl Buf {
    #[inline]
    fn push(&mut self, c: u8) {
        if let Some(x) = self.b.get_mut(self.n) {
            *x = c;
            self.n += 1;
        }
    }

    #[inline]
    fn extend(&mut self, s: &[u8]) {
        s.iter().for_each(|&c| self.push(c));
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(self.b.get(..self.n).unwrap_or(&[])).unwrap_or("")
    }
}

fn g9(v: f32, out: &mut Buf) {
    if v.is_nan() {
        out.extend(if v.is_sign_negative() { b"-1.#IND" } else { b"1.#QNAN" });
        return;
    }
    if v.is_infinite() {
        out.extend(if v.is_sign_negative() { b"-1.#INF" } else { b"1.#INF" });
        return;
    }
    if v.is_sign_negative() {
        out.push(b'-');
    }
    if v == 0.0 {
        out.push(b'0');
        return;
    }
    let (n, exp) = digits9(v).unwrap_or_else(|| digits9_fmt(v));
    let (digits, _) = crate::print::decimal(u64::from(n));
    // n has exactly nine digits; trailing zeros are never printed.
    let digits = digits.get(..9).unwrap_or(&[]);
    let kept = digits.iter().rposition(|&c| c != b'0').map_or(1, |i| i + 1);
    if !(-4..9).contains(&exp) {
        let (first, rest) = digits.get(..kept).unwrap_or(&[]).split_at(1.min(kept));
        out.extend(first);
        if !rest.is_empty() {
            out.push(b'.');
            out.extend(rest);
        }
        out.push(b'e');
        out.push(if exp < 0 { b'-' } else { b'+' });
        let e = exp.unsigned_abs();
        out.extend(&[b'0' + (e / 100 % 10) as u8, b'0' + (e / 10 % 10) as u8, b'0' + (e % 10) as u8]);
        return;
    }
    // Fixed notation with 9 - 1 - exp decimals, trailing zeros removed.
    if exp < 0 {
        out.extend(b"0.");
        for _ in 0..(-exp - 1) {
            out.push(b'0');
        }
        out.extend(digits.get(..kept).unwrap_or(&[]));
    } else {
        let int_len = exp as usize + 1;
        out.extend(digits.get(..int_len).unwrap_or(&[]));
        if kept > int_len {
            out.push(b'.');
            out.extend(digits.get(int_len..kept).unwrap_or(&[]));
        }
    }
}

/// The nine significant digits of a finite nonzero `v` (sign ignored) rounded half to even,
/// and the decimal exponent of the first: `(n, k)` with `10^8 <= n < 10^9`, `|v| ≈ n·10^(k-8)`.
/// `None` when the exact scaling does not fit `u128` (only for `|v|` below about 1e-36).
fn digits9(v: f32) -> Option<(u32, i32)> {
    let bits = v.to_bits() & 0x7fff_ffff;
    let biased = (bits >> 23) as i32;
    let fraction = bits & 0x7f_ffff;
    // |v| = m·2^e exactly.
    let (m, e) = if biased == 0 { (fraction, -149) } else { (fraction | 0x80_0000, biased - 150) };
    if m == 0 {
        return None;
    }
    // 2^b <= |v| < 2^(b+1), so floor(log10 |v|) is near b·log10 2 (1233/4096, a little low);
    // the checks below move the guess by one when it is off.
    let b = e + (31 - m.leading_zeros() as i32);
    let mut k = (b * 1233) >> 12;
    for _ in 0..4 {
        let (q, rest) = scaled(m, e, k - 8)?;
        if q >= 1_000_000_000 {
            k += 1;
            continue;
        }
        if q < 100_000_000 {
            k -= 1;
            continue;
        }
        let up = rest == Ordering::Greater || (rest == Ordering::Equal && q & 1 == 1);
        let n = u32::try_from(q).ok()? + u32::from(up);
        return Some(if n == 1_000_000_000 { (100_000_000, k + 1) } else { (n, k) });
    }
    None
}

/// `floor(m·2^e / 10^s)` and how the remainder compares with half the divisor.
fn scaled(m: u32, e: i32, s: i32) -> Option<(u128, Ordering)> {
    let m = u128::from(m);
    if e >= 0 {
        let v = m.checked_shl(e.unsigned_abs()).filter(|x| x >> e.unsigned_abs() == m)?;
        if s <= 0 {
            return Some((v.checked_mul(10u128.checked_pow(s.unsigned_abs())?)?, Ordering::Less));
        }
        let d = 10u128.checked_pow(s.unsigned_abs())?;
        let (q, r) = (v / d, v % d);
        return Some((q, r.checked_mul(2)?.cmp(&d)));
    }
    if s > 0 {
        return None;
    }
    // m·2^e·10^-s = m·5^-s / 2^(-e+s).
    let num = m.checked_mul(5u128.checked_pow(s.unsigned_abs())?)?;
    let shift = -e + s;
    if shift <= 0 {
        let q = num.checked_shl(shift.unsigned_abs()).filter(|x| x >> shift.unsigned_abs() == num)?;
        return Some((q, Ordering::Less));
    }
    let shift = shift.unsigned_abs();
    if shift >= 128 {
        return None;
    }
    let r = num & ((1u128 << shift) - 1);
    Some((num >> shift, r.cmp(&(1u128 << (shift - 1)))))
}

/// [`digits9`] through `fmt` (`{:.8e}` of the exact value), for the values it cannot scale.
fn digits9_fmt(v: f32) -> (u32, i32) {
    let e = format!("{:.8e}", f64::from(v));
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let n = mantissa.bytes().filter(u8::is_ascii_digit).fold(0u32, |n, c| n * 10 + u32::from(c - b'0'));
    (n, exp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The former string-based implementation, kept as the reference of the tests: `v` formatted like MSVC's `printf("%.9g", v)`.
    pub fn format_g9_reference(v: f32, out: &mut String) {
        if v.is_nan() {
            out.push_str(if v.is_sign_negative() { "-1.#IND" } else { "1.#QNAN" });
            return;
        }
        if v.is_infinite() {
            out.push_str(if v.is_sign_negative() { "-1.#INF" } else { "1.#INF" });
            return;
        }
        // Nine significant digits, correctly rounded from the exact value: d.dddddddde[-]X.
        let e = format!("{:.8e}", f64::from(v));
        let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let negative = mantissa.starts_with('-');
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        if negative {
            out.push('-');
        }
        if !(-4..9).contains(&exp) {
            let trimmed = digits.trim_end_matches('0');
            let (first, rest) = trimmed.split_at(1.min(trimmed.len()));
            out.push_str(if first.is_empty() { "0" } else { first });
            if !rest.is_empty() {
                out.push('.');
                out.push_str(rest);
            }
            out.push('e');
            out.push(if exp < 0 { '-' } else { '+' });
            out.push_str(&format!("{:03}", exp.unsigned_abs()));
            return;
        }
        // Fixed notation with 9 - 1 - exp decimals, trailing zeros removed.
        let mut text = String::new();
        if exp < 0 {
            text.push_str("0.");
            for _ in 0..(-exp - 1) {
                text.push('0');
            }
            text.push_str(&digits);
        } else {
            let int_len = (exp + 1) as usize;
            let (int, frac) = digits.split_at(int_len.min(digits.len()));
            text.push_str(int);
            text.push('.');
            text.push_str(frac);
        }
        let text = text.trim_end_matches('0').trim_end_matches('.');
        out.push_str(text);
    }

    fn g(v: f32) -> String {
        let mut s = String::new();
        format_g9(v, &mut s);
        s
    }

    #[test]
    fn matches_fxc_def_text() {
        // `def` tokens from the corpus binaries and fxc's text for them.
        let cases = [
            (0x3f7f_fe11, "0.999970496"),
            (0x40c9_0fdb, "6.28318548"),
            (0xc049_0fdb, "-3.14159274"),
            (0xb5d0_0d01, "-1.55009923e-006"),
            (0x3988_8889, "0.00026041668"),
            (0xbd2a_aaab, "-0.0416666679"),
            (0x3ffb_4a7d, "1.9632107"),
            (0x3f61_47ae, "0.879999995"),
        ];
        for (bits, text) in cases {
            assert_eq!(g(f32::from_bits(bits)), text);
        }
        assert_eq!(g(32.0), "32");
        assert_eq!(g(-16.0), "-16");
        assert_eq!(g(0.5), "0.5");
        assert_eq!(g(0.0), "0");
        assert_eq!(g(-0.0), "-0");
    }

    #[test]
    fn switches_to_exponent_form_like_printf() {
        assert_eq!(g(1.0e9), "1e+009");
        assert_eq!(g(123456789.0), "123456792");
        // 0.0001 is 9.99999974737875e-05 as a float: %g switches to the exponent form below 1e-4.
        assert_eq!(g(0.0001), "9.99999975e-005");
        assert_eq!(g(0.0009765625), "0.0009765625");
        assert_eq!(g(0.00001), "9.99999975e-006");
        assert_eq!(g(f32::INFINITY), "1.#INF");
        assert_eq!(g(f32::NAN), "1.#QNAN");
    }

    /// Pseudo-random bits (xorshift64*), reproducible.
    fn rng(seed: u64) -> impl FnMut() -> u32 {
        let mut x = seed;
        move || {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
        }
    }

    fn same(bits: u32) {
        let v = f32::from_bits(bits);
        let mut want = String::new();
        format_g9_reference(v, &mut want);
        assert_eq!(g(v), want, "bits 0x{bits:08x}");
    }

    #[test]
    fn integer_path_matches_the_reference_on_random_bits() {
        let n = if cfg!(debug_assertions) { 1 << 18 } else { 1 << 22 };
        let mut next = rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..n {
            same(next());
        }
        // Values in the range `def` constants live in (exponents around 1e-6 to 1e6).
        for _ in 0..n / 4 {
            same((next() & 0x80ff_ffff) | ((next() % 40 + 107) << 23));
        }
    }

    #[test]
    fn whole_numbers_match_the_reference() {
        for i in -100_000i32..=100_000 {
            same((i as f32).to_bits());
        }
        for i in (0..32).map(|k| 1u32 << k).chain([999_999_936, 999_999_999, 1_000_000_000, 1_000_000_064]) {
            for b in (i as f32).to_bits().saturating_sub(2)..=(i as f32).to_bits().saturating_add(2) {
                same(b);
                same(b | 0x8000_0000);
            }
        }
        same(0x8000_0000);
    }

    #[test]
    fn integer_path_matches_the_reference_at_the_edges() {
        let mut cases: Vec<u32> = vec![0, 0x8000_0000, 1, 2, 3, 0x007f_ffff, 0x0080_0000, 0x0080_0001];
        cases.extend([0x7f7f_ffff, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0xffc0_0000, 0x7f80_0001]);
        // Powers of ten and their neighbours, and the %g switches at 1e-4 and 1e9.
        for k in -46..=39 {
            let p = format!("1e{k}").parse::<f32>().unwrap().to_bits();
            let q = format!("9.99999999e{k}").parse::<f32>().unwrap().to_bits();
            let r = format!("9.999999995e{k}").parse::<f32>().unwrap().to_bits();
            for c in [p, q, r] {
                cases.extend((c.saturating_sub(4)..=c.saturating_add(4)).flat_map(|b| [b, b | 0x8000_0000]));
            }
        }
        // Every subnormal exponent range, and all subnormals sampled.
        cases.extend((0..23).map(|i| 1u32 << i));
        cases.extend((0..0x80_0000).step_by(97));
        // Ties: 1000000.125 has exactly ten digits, the last a 5 (half to even: ...12).
        // (Written as quotients: the literals would look too precise for an f32 to clippy.)
        let (tie_even, tie_odd) = (8_000_001.0f32 / 8.0, 8_000_003.0f32 / 8.0);
        cases.extend([tie_even, tie_odd, 0.5, 2.5, 1.0e8, 999_999_999.0].map(f32::to_bits));
        for c in cases {
            same(c);
        }
        assert_eq!(g(tie_even), "1000000.12");
        assert_eq!(g(tie_odd), "1000000.38");
    }

    /// Every f32 bit pattern (about 90 minutes of CPU in release), or every `G9_STRIDE`th;
    /// run with `--ignored`.
    #[test]
    #[ignore]
    fn integer_path_matches_the_reference_everywhere() {
        let stride: u64 = std::env::var("G9_STRIDE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        std::thread::scope(|s| {
            for t in 0..threads {
                s.spawn(move || {
                    let mut bits = t * stride;
                    while bits <= u64::from(u32::MAX) {
                        same(bits as u32);
                        bits += threads * stride;
                    }
                });
            }
        });
    }
}
