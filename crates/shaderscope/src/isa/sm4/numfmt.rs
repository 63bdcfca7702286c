//! Number formatting exactly as fxc's disassembler prints it, without temporary allocations.
//!
//! Floats go through the C runtime's `%f`. Which runtime depends on the compiler build:
//! fxc 9.x links the old `msvcrt`, whose `%f` keeps only 17 significant digits and pads with
//! zeros (`-1237951254905777100000000000.000000` in SlimShader's `BC7Encode_137.asm`), while
//! fxc 10.x uses the UCRT, which prints the exact value (`340282346638528859811704183484516925440.000000`
//! for `FLT_MAX` in DirectXTex's listings). How an exact tie at the sixth decimal rounds depends
//! on the UCRT the listing was made with, which is part of Windows, not of fxc: the same token
//! 0x4196d000 (18.8515625) prints `18.851563` in DirectXTK's 2020 listing of
//! `ToneMap_PSHDR10` and `18.851562` in DirectXTK12's, both from fxc 10.0.19041. Older UCRTs
//! (and msvcrt) round ties away from zero (`1/128` prints `0.007813`); newer ones round them to
//! even (`0.8359375` still prints `0.835938`).

pub use crate::print::TextBuf;
use crate::print::decimal;

/// Which C runtime's `%f` to imitate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FloatStyle {
    /// Old `msvcrt.dll` (fxc 9.x): 17 significant digits, then zeros; `1.#INF00`, `-1.#IND00`.
    Msvcrt,
    /// Universal CRT as shipped since 2019 (fxc 10.x): exact digits, exact ties to even;
    /// `inf`, `nan`.
    #[default]
    Ucrt,
    /// Universal CRT before 2019: exact digits, exact ties away from zero.
    UcrtLegacy,
}

/// Largest magnitude fxc prints in decimal; anything bigger is printed as `0x%08x`.
/// The corpus shows 8192 in decimal and 0x00002720 (10016) in hex.
const DECIMAL_LIMIT: i64 = 10000;

/// An integer literal: signed decimal when small, `0x%08x` otherwise.
#[inline]
pub fn write_int(out: &mut TextBuf, v: u32) {
    let s = i64::from(v as i32);
    if (-DECIMAL_LIMIT..=DECIMAL_LIMIT).contains(&s) {
        write_i64(out, s);
    } else {
        write_hex8(out, v);
    }
}

/// The text of [`write_int`] as bytes of a `u128` (first byte lowest), and its length: a
/// register-sized value the caller stores in one piece. Decimal values have at most five
/// digits, so they are built a digit at a time without a table or an array.
#[inline]
pub(crate) fn int_text(v: u32) -> (u128, usize) {
    if v < 10 {
        // The commonest by far.
        return (u128::from(b'0' + v as u8), 1);
    }
    let s = v as i32;
    if !(-(DECIMAL_LIMIT as i32)..=DECIMAL_LIMIT as i32).contains(&s) {
        let hex = u64::from_le_bytes(hex8_text(v));
        return (u128::from(u16::from_le_bytes(*b"0x")) | (u128::from(hex) << 16), 10);
    }
    let mut m = s.unsigned_abs();
    let mut text = 0u64;
    let mut n = 0;
    // From the last digit to the first, each shifting the others up a byte.
    loop {
        text = (text << 8) | u64::from(b'0' + (m % 10) as u8);
        n += 1;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if s < 0 {
        text = (text << 8) | u64::from(b'-');
        n += 1;
    }
    (u128::from(text), n)
}

/// `%d` without going through `fmt`.
#[inline]
pub fn write_i64(out: &mut TextBuf, v: i64) {
    if v < 0 {
        out.push('-');
    }
    write_u64(out, v.unsigned_abs());
}

/// `%u` without going through `fmt`.
#[inline]
pub fn write_u64(out: &mut TextBuf, v: u64) {
    out.push_u64(v);
}

/// `0x%08x`.
#[inline]
pub fn write_hex8(out: &mut TextBuf, v: u32) {
    out.push_prefix(b"0x", 2);
    out.push_prefix(&hex8_text(v), 8);
}

/// `%08x`: eight lowercase hexadecimal digits.
#[inline]
pub(crate) fn hex8_text(v: u32) -> [u8; 8] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = [b'0'; 8];
    for (i, t) in text.iter_mut().enumerate() {
        let nib = (v >> (28 - 4 * i)) & 0xf;
        *t = HEX.get(nib as usize).copied().unwrap_or(b'0');
    }
    text
}

/// Copy `bytes` into `text` at `at` (nothing if they do not fit).
#[inline]
fn put<const N: usize>(text: &mut [u8; N], at: usize, bytes: &[u8]) {
    if let Some(d) = text.get_mut(at..at + bytes.len()) {
        d.copy_from_slice(bytes);
    }
}

/// `%f` of a 32-bit float given by its bits (converted to double, as C's varargs do).
#[inline]
pub fn write_f32(out: &mut TextBuf, bits: u32, style: FloatStyle) {
    match f32_text(bits, style) {
        Some((text, len)) => out.push_prefix(&text, len),
        None => write_f64(out, f64::from(f32::from_bits(bits)).to_bits(), style),
    }
}

/// The common case of [`write_f32`] in integer arithmetic, as text in an array and its length:
/// values below 2^40 that are not within a hair of a rounding tie under msvcrt's 17-digit
/// pre-rounding (at most 21 bytes: `-1099511627775.999999`). `None` when the general path
/// must be taken.
#[inline]
pub(crate) fn f32_text(bits: u32, style: FloatStyle) -> Option<([u8; 24], usize)> {
    let exp = ((bits >> 23) & 0xff) as i32;
    if exp == 0xff {
        return None;
    }
    let frac = u64::from(bits & 0x7f_ffff);
    // value = mant * 2^e
    let (mant, e) = if exp == 0 { (frac, -149) } else { (frac | 0x80_0000, exp - 150) };
    let neg = bits >> 31 != 0;
    let (int, dec) = if e >= 0 {
        if e > 16 {
            return None;
        }
        (mant << e, 0u64)
    } else {
        let k = e.unsigned_abs();
        if k > 100 {
            // Below 2^-76: prints as zero under every runtime.
            (0, 0)
        } else if k <= 40 {
            // mant < 2^24, so the fraction times 10^6 stays below 2^64.
            let int = mant >> k;
            let fr = mant & ((1u64 << k) - 1);
            let scaled = fr * 1_000_000;
            round_decimals(int, scaled >> k, scaled & ((1u64 << k) - 1), 1u64 << (k - 1), k, style)?
        } else {
            let int = if k >= 64 { 0 } else { mant >> k };
            let fr = u128::from(mant) & ((1u128 << k) - 1);
            let scaled = fr * 1_000_000;
            let r = scaled & ((1u128 << k) - 1);
            let half = 1u128 << (k - 1);
            // Compare the remainder with the half in the 64-bit routine's terms: only its
            // relation to `half` (and, for msvcrt, the distance) matters.
            let up = match style {
                FloatStyle::Ucrt => r > half || (r == half && (scaled >> k) % 2 == 1),
                FloatStyle::UcrtLegacy => r >= half,
                FloatStyle::Msvcrt => {
                    if r.abs_diff(half) <= (1u128 << k) / 1000 {
                        return None;
                    }
                    r >= half
                }
            };
            carry(int, (scaled >> k) as u64, up)
        }
    };
    let mut text = [b'0'; 24];
    put(&mut text, 0, b"-");
    let sign = usize::from(neg);
    let n = if int < 10 {
        // Most literals: no call, no table.
        put(&mut text, sign, &[b'0' + int as u8]);
        1
    } else {
        let (digits, n) = decimal(int);
        put(&mut text, sign, digits.get(..n).unwrap_or(&[]));
        n
    };
    // `.dddddd` as bytes of a `u64`, from the last digit to the first.
    let mut fraction = 0u64;
    let mut d = dec;
    for _ in 0..6 {
        fraction = (fraction << 8) | (b'0' as u64 + d % 10);
        d /= 10;
    }
    put(&mut text, sign + n, &((fraction << 8) | u64::from(b'.')).to_le_bytes());
    Some((text, sign + n + 7))
}

/// Round `int` + `q`/10^6 (with remainder `r` out of 2^k, `half` = 2^(k-1)) to six decimals as
/// `style` does; `None` when msvcrt's pre-rounding could matter (too close to the tie).
#[inline]
fn round_decimals(int: u64, q: u64, r: u64, half: u64, k: u32, style: FloatStyle) -> Option<(u64, u64)> {
    let up = match style {
        FloatStyle::Ucrt => r > half || (r == half && q % 2 == 1),
        FloatStyle::UcrtLegacy => r >= half,
        FloatStyle::Msvcrt => {
            // Pre-rounding to 17 significant digits moves a value below 2^24 by less than
            // 0.0005 units of the sixth decimal, so it can only matter this close to the tie;
            // leave those to the exact path.
            if r.abs_diff(half) <= (1u64 << k) / 1000 {
                return None;
            }
            r >= half
        }
    };
    Some(carry(int, q, up))
}

/// `int` + `q`/10^6, plus one millionth when `up`.
#[inline]
fn carry(int: u64, q: u64, up: bool) -> (u64, u64) {
    if !up {
        return (int, q);
    }
    if q + 1 == 1_000_000 { (int + 1, 0) } else { (int, q + 1) }
}

/// `%f` of a 64-bit float given by its bits.
pub fn write_f64(out: &mut TextBuf, bits: u64, style: FloatStyle) {
    let neg = bits >> 63 != 0;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        write_special(out, neg, frac, style);
        return;
    }
    // value = mant * 2^e exactly.
    let (mant, e) = if exp == 0 { (frac, -1074) } else { (frac | (1u64 << 52), exp - 1075) };
    if neg {
        out.push('-');
    }
    let mut d = Digits::new();
    d.fill(mant, e);
    if style == FloatStyle::Msvcrt {
        d.round_significant(17);
    }
    d.round_decimals(style == FloatStyle::Ucrt);
    d.write(out);
}

fn write_special(out: &mut TextBuf, neg: bool, frac: u64, style: FloatStyle) {
    let quiet = frac & (1u64 << 51) != 0;
    match style {
        FloatStyle::Msvcrt => {
            let body = match (frac == 0, quiet, neg) {
                (true, _, _) => "1.#INF00",
                // The default NaN produced by the FPU (negative, quiet) is "indefinite".
                (false, true, true) => "1.#IND00",
                (false, true, false) => "1.#QNAN0",
                (false, false, _) => "1.#SNAN0",
            };
            if neg {
                out.push('-');
            }
            out.push_str(body);
        }
        FloatStyle::Ucrt | FloatStyle::UcrtLegacy => {
            if neg {
                out.push('-');
            }
            out.push_str(match (frac == 0, quiet, neg) {
                (true, _, _) => "inf",
                (false, true, true) => "nan(ind)",
                (false, true, false) => "nan",
                (false, false, _) => "nan(snan)",
            });
        }
    }
}

/// Number of fractional digits `%f` prints.
const DECIMALS: usize = 6;
/// Fractional digits kept while rounding: enough for 17 significant digits of any value that
/// does not print as zero (such values are at least 1e-7, so at most 7 leading zeros).
const FRAC_DIGITS: usize = 26;

/// The decimal expansion of a non-negative value: all integer digits, `FRAC_DIGITS`
/// fractional digits, and whether anything non-zero was cut off after them.
struct Digits {
    /// Integer digits, most significant first (at least one).
    int: [u8; 330],
    int_len: usize,
    frac: [u8; FRAC_DIGITS],
    /// Non-zero digits exist beyond `frac`.
    sticky: bool,
}

impl Digits {
    fn new() -> Self {
        Digits { int: [0; 330], int_len: 0, frac: [0; FRAC_DIGITS], sticky: false }
    }

    /// Expand `mant * 2^e`.
    fn fill(&mut self, mant: u64, e: i32) {
        if e >= 0 {
            self.fill_int_shifted(mant, e as u32);
            return;
        }
        let k = e.unsigned_abs();
        let (int_part, frac_num) =
            if k >= 64 { (0, u128::from(mant)) } else { (mant >> k, u128::from(mant & ((1u64 << k) - 1))) };
        self.fill_int_shifted(int_part, 0);
        if k > 120 {
            // mant < 2^53, so the value is below 2^-67: every printed digit is zero and no
            // rounding step can reach the sixth decimal.
            self.sticky = frac_num != 0;
            return;
        }
        let mut num = frac_num;
        for slot in self.frac.iter_mut() {
            num *= 10;
            *slot = (num >> k) as u8;
            num &= (1u128 << k) - 1;
        }
        self.sticky = num != 0;
    }

    /// Integer digits of `v << shift` (shift up to 971, so up to 309 digits).
    fn fill_int_shifted(&mut self, v: u64, shift: u32) {
        // Big integer in base 2^32, little-endian limbs; 1024 + 64 bits is enough.
        let mut limbs = [0u32; 34];
        let word = (shift / 32) as usize;
        let bit = shift % 32;
        let wide = u128::from(v) << bit;
        for i in 0..3 {
            if let Some(l) = limbs.get_mut(word + i) {
                *l = (wide >> (32 * i)) as u32;
            }
        }
        let mut len = limbs.len();
        while len > 0 && limbs.get(len - 1) == Some(&0) {
            len -= 1;
        }
        // Repeated division by 10^9 produces 9-digit groups, least significant first.
        let mut groups = [0u32; 40];
        let mut n_groups = 0;
        while len > 0 {
            let mut rem = 0u64;
            for l in limbs.get_mut(..len).unwrap_or(&mut []).iter_mut().rev() {
                let cur = (rem << 32) | u64::from(*l);
                *l = (cur / 1_000_000_000) as u32;
                rem = cur % 1_000_000_000;
            }
            if let Some(g) = groups.get_mut(n_groups) {
                *g = rem as u32;
            }
            n_groups += 1;
            while len > 0 && limbs.get(len - 1) == Some(&0) {
                len -= 1;
            }
        }
        self.int_len = 0;
        if n_groups == 0 {
            self.push_int(0);
            return;
        }
        for (gi, &g) in groups.get(..n_groups).unwrap_or(&[]).iter().enumerate().rev() {
            let mut tmp = [0u8; 9];
            let mut x = g;
            for t in tmp.iter_mut().rev() {
                *t = (x % 10) as u8;
                x /= 10;
            }
            let skip_leading = gi + 1 == n_groups;
            let mut started = !skip_leading;
            for &digit in &tmp {
                if !started && digit == 0 {
                    continue;
                }
                started = true;
                self.push_int(digit);
            }
        }
        if self.int_len == 0 {
            self.push_int(0);
        }
    }

    fn push_int(&mut self, d: u8) {
        if let Some(slot) = self.int.get_mut(self.int_len) {
            *slot = d;
            self.int_len += 1;
        }
    }

    /// Digit at position `p` of the whole expansion (integer digits first, then fraction).
    fn digit(&self, p: usize) -> u8 {
        if p < self.int_len {
            self.int.get(p).copied().unwrap_or(0)
        } else {
            self.frac.get(p - self.int_len).copied().unwrap_or(0)
        }
    }

    fn set_digit(&mut self, p: usize, d: u8) {
        if p < self.int_len {
            if let Some(s) = self.int.get_mut(p) {
                *s = d;
            }
        } else if let Some(s) = self.frac.get_mut(p - self.int_len) {
            *s = d;
        }
    }

    fn total(&self) -> usize {
        self.int_len + FRAC_DIGITS
    }

    /// Round so that only the digits before position `keep` remain (the rest become zero),
    /// half up or, with `even`, exact ties to even; a carry out of the first digit grows the
    /// integer part.
    fn round_at(&mut self, keep: usize, even: bool) {
        if keep >= self.total() {
            return;
        }
        let d = self.digit(keep);
        let up = if even && d == 5 {
            let rest = self.sticky || (keep + 1..self.total()).any(|p| self.digit(p) != 0);
            rest || (keep > 0 && self.digit(keep - 1) % 2 == 1)
        } else {
            d >= 5
        };
        for p in keep..self.total() {
            self.set_digit(p, 0);
        }
        if !up {
            return;
        }
        let mut p = keep;
        while p > 0 {
            p -= 1;
            let d = self.digit(p) + 1;
            if d < 10 {
                self.set_digit(p, d);
                return;
            }
            self.set_digit(p, 0);
        }
        // Carry out of the most significant digit: prepend a 1.
        if self.int_len < self.int.len() {
            self.int.copy_within(0..self.int_len, 1);
            if let Some(s) = self.int.first_mut() {
                *s = 1;
            }
            self.int_len += 1;
        }
    }

    /// Keep `n` significant digits (msvcrt's conversion), rounding half up.
    fn round_significant(&mut self, n: usize) {
        let first = (0..self.total()).find(|&p| self.digit(p) != 0);
        if let Some(first) = first {
            self.round_at(first + n, false);
        }
    }

    /// Round to the six decimals `%f` prints.
    fn round_decimals(&mut self, even: bool) {
        self.round_at(self.int_len + DECIMALS, even);
    }

    fn write(&self, out: &mut TextBuf) {
        for &d in self.int.get(..self.int_len).unwrap_or(&[]) {
            out.push(char::from(b'0' + d));
        }
        out.push('.');
        for &d in self.frac.get(..DECIMALS).unwrap_or(&[]) {
            out.push(char::from(b'0' + d));
        }
    }
}

/// `%f` of `v` for tests and callers that have a value rather than bits.
pub fn f64_to_string(v: f64, style: FloatStyle) -> String {
    let mut s = TextBuf::default();
    write_f64(&mut s, v.to_bits(), style);
    s.into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: f32, style: FloatStyle) -> String {
        let mut s = TextBuf::default();
        write_f32(&mut s, v.to_bits(), style);
        s.into_string()
    }

    /// The fast path's integer text is [`write_int`]'s at every boundary.
    #[test]
    fn int_text_is_write_int() {
        let mut values = vec![0u32, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 10001, u32::MAX, 0x8000_0000];
        for v in [1i32, 9, 10, 99, 100, 9999, 10000, 10001] {
            values.push((-v) as u32);
        }
        for v in values {
            let mut want = TextBuf::default();
            write_int(&mut want, v);
            let (text, n) = int_text(v);
            assert_eq!(&text.to_le_bytes()[..n], want.as_bytes(), "{v:#x}");
        }
    }

    #[test]
    fn small_values_round_like_printf() {
        for style in [FloatStyle::Msvcrt, FloatStyle::Ucrt, FloatStyle::UcrtLegacy] {
            assert_eq!(f32s(1.0, style), "1.000000");
            assert_eq!(f32s(0.5, style), "0.500000");
            assert_eq!(f32s(-0.0, style), "-0.000000");
            assert_eq!(f32s(1.0 / 1024.0, style), "0.000977");
            assert_eq!(f32s(0.835_937_5, style), "0.835938");
            assert_eq!(f32s(1e-30, style), "0.000000");
            assert_eq!(f32s(f32::from_bits(1), style), "0.000000");
            assert_eq!(f32s(0.999_999_9, style), "1.000000");
            assert_eq!(f64_to_string(9.999_999_6, style), "10.000000");
            assert_eq!(f64_to_string(99.999_999_6, style), "100.000000");
        }
    }

    #[test]
    fn exact_ties_depend_on_the_runtime() {
        // DirectXTK 2020 listings: ties away from zero; DirectXTK12: ties to even.
        assert_eq!(f32s(1.0 / 128.0, FloatStyle::UcrtLegacy), "0.007813");
        assert_eq!(f32s(f32::from_bits(0x4196_d000), FloatStyle::UcrtLegacy), "18.851563");
        assert_eq!(f32s(f32::from_bits(0x4196_d000), FloatStyle::Ucrt), "18.851562");
        assert_eq!(f32s(-f32::from_bits(0x4196_d000), FloatStyle::Ucrt), "-18.851562");
        assert_eq!(f32s(1.0 / 128.0, FloatStyle::Ucrt), "0.007812");
        assert_eq!(f32s(1.0 / 128.0, FloatStyle::Msvcrt), "0.007813");
    }

    #[test]
    fn big_values_follow_the_runtime() {
        // Exact (UCRT), as in DirectXTex's fxc 10 listings.
        assert_eq!(f32s(f32::MAX, FloatStyle::Ucrt), "340282346638528859811704183484516925440.000000");
        assert_eq!(f32s(1e20, FloatStyle::Ucrt), "100000002004087734272.000000");
        // 17 significant digits then zeros (msvcrt), as in SlimShader's fxc 9.30 listings.
        let v = -1.237_951_3e27_f32;
        assert_eq!(f32s(v, FloatStyle::Msvcrt), "-1237951254905777100000000000.000000");
        assert_eq!(f32s(v, FloatStyle::Ucrt), "-1237951254905777090306506752.000000");
        assert_eq!(f32s(f32::MAX, FloatStyle::Msvcrt), "340282346638528860000000000000000000000.000000");
    }

    #[test]
    fn doubles_and_specials() {
        assert_eq!(f64_to_string(f64::MAX, FloatStyle::Ucrt).len(), 309 + 7);
        assert_eq!(f64_to_string(f64::INFINITY, FloatStyle::Msvcrt), "1.#INF00");
        assert_eq!(f64_to_string(f64::NEG_INFINITY, FloatStyle::Msvcrt), "-1.#INF00");
        assert_eq!(f64_to_string(-f64::NAN, FloatStyle::Msvcrt), "-1.#IND00");
        assert_eq!(f64_to_string(f64::INFINITY, FloatStyle::Ucrt), "inf");
    }

    #[test]
    fn integers_switch_to_hex_when_large() {
        let p = |v: u32| {
            let mut s = TextBuf::default();
            write_int(&mut s, v);
            s.into_string()
        };
        assert_eq!(p(0), "0");
        assert_eq!(p(8192), "8192");
        assert_eq!(p(-2i32 as u32), "-2");
        assert_eq!(p(10016), "0x00002720");
        assert_eq!(p(0x3f80_0000), "0x3f800000");
        assert_eq!(p(0xffff_8001), "0xffff8001");
    }
}
