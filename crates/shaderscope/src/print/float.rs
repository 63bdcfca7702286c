//! Float text: the crate's one place for turning float bits into the decimal text a reference
//! tool prints.
//!
//! Today it holds C's `printf("%f")` as the Microsoft C runtimes write it, which is how fxc's
//! disassembler prints the literals of SM4/SM5 programs ([`write_f32_fixed`],
//! [`write_f64_fixed`]). Which runtime depends on the compiler build ([`FloatStyle`]):
//!
//! - fxc 9.x links the old `msvcrt`, whose `%f` keeps only 17 significant digits and pads with
//!   zeros (`-1237951254905777100000000000.000000` in SlimShader's `BC7Encode_137.asm`);
//! - fxc 10.x uses the UCRT, which prints the exact value
//!   (`340282346638528859811704183484516925440.000000` for `FLT_MAX` in DirectXTex's listings).
//!   How an exact tie at the sixth decimal rounds depends on the UCRT the listing was made
//!   with, which is part of Windows, not of fxc: the same token 0x4196d000 (18.8515625) prints
//!   `18.851563` in DirectXTK's 2020 listing of `ToneMap_PSHDR10` and `18.851562` in
//!   DirectXTK12's, both from fxc 10.0.19041. Older UCRTs (and msvcrt) round ties away from
//!   zero (`1/128` prints `0.007813`); newer ones round them to even (`0.8359375` still prints
//!   `0.835938`).
//!
//! Every function writes into any [`fmt::Write`] (a [`Printer`](super::Printer) or a
//! `String`), and the digits are exact: they are computed from the bits in integer
//! arithmetic, never through Rust's own float formatting.
//!
//! ```
//! use shaderscope::print::float::{FloatStyle, write_f32_fixed, write_f64_fixed};
//!
//! let mut s = String::new();
//! write_f32_fixed(&mut s, 0x4196_d000, FloatStyle::Ucrt).unwrap();
//! s.push(' ');
//! write_f32_fixed(&mut s, 0x4196_d000, FloatStyle::UcrtLegacy).unwrap();
//! s.push(' ');
//! write_f64_fixed(&mut s, f64::INFINITY.to_bits(), FloatStyle::Msvcrt).unwrap();
//! assert_eq!(s, "18.851562 18.851563 1.#INF00");
//! ```

use super::Short;
use std::fmt;

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

/// `%f` of a 32-bit float given by its bits (converted to double first, as C's varargs do).
pub fn write_f32_fixed<W: fmt::Write + ?Sized>(out: &mut W, bits: u32, style: FloatStyle) -> fmt::Result {
    match f32_fixed_text(bits, style) {
        Some(text) => out.write_str(text.as_str()),
        None => write_f64_fixed(out, f64::from(f32::from_bits(bits)).to_bits(), style),
    }
}

/// [`write_f32_fixed`]'s text as a [`Short`] (for a [`Line`](super::Line), which copies it
/// whole) when the value is below 2^40 and, for msvcrt, not within reach of its 17-digit
/// pre-rounding of a tie: nearly every literal of a program. `None` for the others.
pub fn f32_fixed_text(bits: u32, style: FloatStyle) -> Option<Short<24>> {
    Small::of_f32(bits, style).map(|s| s.text())
}

/// `%f` of a 64-bit float given by its bits.
pub fn write_f64_fixed<W: fmt::Write + ?Sized>(out: &mut W, bits: u64, style: FloatStyle) -> fmt::Result {
    let neg = bits >> 63 != 0;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return out.write_str(special(neg, frac, style));
    }
    // value = mant * 2^e exactly.
    let (mant, e) = if exp == 0 { (frac, -1074) } else { (frac | (1u64 << 52), exp - 1075) };
    let mut d = Digits::new();
    d.fill(mant, e);
    if style == FloatStyle::Msvcrt {
        d.round_significant(17);
    }
    d.round_decimals(style == FloatStyle::Ucrt);
    d.write(neg, out)
}

/// The text of an infinity or a NaN (`frac` is the fraction field of the double).
fn special(neg: bool, frac: u64, style: FloatStyle) -> &'static str {
    let quiet = frac & (1u64 << 51) != 0;
    // The default NaN produced by the FPU (negative, quiet) is "indefinite".
    match (style, frac == 0, quiet, neg) {
        (FloatStyle::Msvcrt, true, _, false) => "1.#INF00",
        (FloatStyle::Msvcrt, true, _, true) => "-1.#INF00",
        (FloatStyle::Msvcrt, false, true, true) => "-1.#IND00",
        (FloatStyle::Msvcrt, false, true, false) => "1.#QNAN0",
        (FloatStyle::Msvcrt, false, false, false) => "1.#SNAN0",
        (FloatStyle::Msvcrt, false, false, true) => "-1.#SNAN0",
        (_, true, _, false) => "inf",
        (_, true, _, true) => "-inf",
        (_, false, true, true) => "-nan(ind)",
        (_, false, true, false) => "nan",
        (_, false, false, false) => "nan(snan)",
        (_, false, false, true) => "-nan(snan)",
    }
}

/// The common case of a 32-bit float, worked out in integer arithmetic: a value below 2^40
/// is `mant / 2^k`, so its integer part is `mant >> k`, its six decimals are
/// `(fraction * 10^6) >> k`, and the remainder of that division decides the rounding.
struct Small {
    neg: bool,
    int: u64,
    /// The six decimals, rounded.
    micros: u64,
}

impl Small {
    /// `None` for infinities, NaNs, values of 2^40 and more, and (for msvcrt) values so close
    /// to a rounding tie that its 17-digit pre-rounding could decide it: the exact path
    /// ([`Digits`]) prints those.
    fn of_f32(bits: u32, style: FloatStyle) -> Option<Small> {
        let exp = (bits >> 23) & 0xff;
        if exp == 0xff {
            return None;
        }
        let frac = u64::from(bits & 0x7f_ffff);
        // value = mant * 2^e
        let (mant, e) = if exp == 0 { (frac, -149) } else { (frac | 0x80_0000, exp as i32 - 150) };
        let neg = bits >> 31 != 0;
        if e >= 0 {
            if e > 16 {
                return None;
            }
            return Some(Small { neg, int: mant << e, micros: 0 });
        }
        let k = e.unsigned_abs();
        if k > 44 {
            // Below 2^-21 (mant < 2^24): prints as zero under every runtime, and is too far
            // from the tie at 0.0000005 for msvcrt's pre-rounding to matter.
            return Some(Small { neg, int: 0, micros: 0 });
        }
        // mant < 2^24 and k <= 44, so fraction * 10^6 < 2^64.
        let int = mant >> k;
        let fraction = mant & ((1u64 << k) - 1);
        let scaled = fraction * 1_000_000;
        let micros = scaled >> k;
        let rest = scaled & ((1u64 << k) - 1);
        let half = 1u64 << (k - 1);
        let up = match style {
            FloatStyle::Ucrt => rest > half || (rest == half && micros % 2 == 1),
            FloatStyle::UcrtLegacy => rest >= half,
            FloatStyle::Msvcrt => {
                // Pre-rounding to 17 significant digits moves a value below 2^24 by less than
                // 0.0005 units of the sixth decimal, so it can only matter this close to the
                // tie.
                if rest.abs_diff(half) <= (1u64 << k) / 1000 {
                    return None;
                }
                rest >= half
            }
        };
        Some(match (up, micros + 1 == 1_000_000) {
            (false, _) => Small { neg, int, micros },
            (true, false) => Small { neg, int, micros: micros + 1 },
            (true, true) => Small { neg, int: int + 1, micros: 0 },
        })
    }

    /// The text: sign, integer digits (at most 13: the value is below 2^40), point and six
    /// decimals.
    fn text(&self) -> Short<24> {
        let mut b = [0u8; 24];
        let mut n = 0;
        if self.neg
            && let Some(sign) = b.first_mut()
        {
            *sign = b'-';
            n = 1;
        }
        if self.int < 10 {
            if let Some(d) = b.get_mut(n) {
                *d = b'0' + self.int as u8;
            }
            n += 1;
        } else {
            let (digits, len) = super::decimal(self.int);
            if let Some(to) = b.get_mut(n..).and_then(|t| t.first_chunk_mut::<20>()) {
                *to = digits;
            }
            n += len;
        }
        let m = self.micros;
        let decimals = match m {
            // Whole numbers, the commonest literals.
            0 => *b".000000",
            _ => {
                let ([a, b1], [c, d], [e, f]) = (pair(m / 10_000), pair(m / 100 % 100), pair(m % 100));
                [b'.', a, b1, c, d, e, f]
            }
        };
        if let Some(to) = b.get_mut(n..).and_then(|t| t.first_chunk_mut::<7>()) {
            *to = decimals;
        }
        Short::from_ascii_bytes(b, n + 7)
    }
}

/// The two digits of `v` (below 100).
#[inline]
fn pair(v: u64) -> [u8; 2] {
    [b'0' + (v / 10 % 10) as u8, b'0' + (v % 10) as u8]
}

/// Number of fractional digits `%f` prints.
const DECIMALS: usize = 6;
/// Fractional digits kept while rounding: enough for 17 significant digits of any value that
/// does not print as zero (such values are at least 1e-7, so at most 7 leading zeros).
const FRAC_DIGITS: usize = 26;
/// Integer digits of the largest double (309) and a carry.
const INT_DIGITS: usize = 330;

/// The decimal expansion of a non-negative value: all integer digits, `FRAC_DIGITS`
/// fractional digits, and whether anything non-zero was cut off after them.
struct Digits {
    /// Integer digits (values 0–9), most significant first (at least one).
    int: [u8; INT_DIGITS],
    int_len: usize,
    frac: [u8; FRAC_DIGITS],
    /// Non-zero digits exist beyond `frac`.
    sticky: bool,
}

impl Digits {
    fn new() -> Self {
        Digits { int: [0; INT_DIGITS], int_len: 0, frac: [0; FRAC_DIGITS], sticky: false }
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
        for (gi, &g) in groups.get(..n_groups).unwrap_or(&[]).iter().enumerate().rev() {
            let mut group = [0u8; 9];
            let mut x = g;
            for d in group.iter_mut().rev() {
                *d = (x % 10) as u8;
                x /= 10;
            }
            // The most significant group without its leading zeros.
            let skip = if gi + 1 == n_groups { group.iter().take_while(|&&d| d == 0).count() } else { 0 };
            for &d in group.get(skip..).unwrap_or(&[]) {
                self.push_int(d);
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
        let slot = if p < self.int_len { self.int.get_mut(p) } else { self.frac.get_mut(p - self.int_len) };
        if let Some(s) = slot {
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
        if let Some(first) = (0..self.total()).find(|&p| self.digit(p) != 0) {
            self.round_at(first + n, false);
        }
    }

    /// Round to the six decimals `%f` prints.
    fn round_decimals(&mut self, even: bool) {
        self.round_at(self.int_len + DECIMALS, even);
    }

    /// The text: sign, integer digits, point and six decimals.
    fn write<W: fmt::Write + ?Sized>(&self, neg: bool, out: &mut W) -> fmt::Result {
        if neg {
            out.write_char('-')?;
        }
        for &d in self.int.get(..self.int_len).unwrap_or(&[]) {
            out.write_char(char::from(b'0' + d))?;
        }
        out.write_char('.')?;
        for &d in self.frac.get(..DECIMALS).unwrap_or(&[]) {
            out.write_char(char::from(b'0' + d))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: f32, style: FloatStyle) -> String {
        let mut s = String::new();
        write_f32_fixed(&mut s, v.to_bits(), style).unwrap();
        s
    }

    fn f64s(v: f64, style: FloatStyle) -> String {
        let mut s = String::new();
        write_f64_fixed(&mut s, v.to_bits(), style).unwrap();
        s
    }

    const STYLES: [FloatStyle; 3] = [FloatStyle::Msvcrt, FloatStyle::Ucrt, FloatStyle::UcrtLegacy];

    #[test]
    fn small_values_round_like_printf() {
        for style in STYLES {
            assert_eq!(f32s(1.0, style), "1.000000");
            assert_eq!(f32s(0.5, style), "0.500000");
            assert_eq!(f32s(-0.0, style), "-0.000000");
            assert_eq!(f32s(-2.5, style), "-2.500000");
            assert_eq!(f32s(1.0 / 1024.0, style), "0.000977");
            assert_eq!(f32s(0.835_937_5, style), "0.835938");
            assert_eq!(f32s(1e-30, style), "0.000000");
            assert_eq!(f32s(f32::from_bits(1), style), "0.000000");
            assert_eq!(f32s(0.999_999_9, style), "1.000000");
            assert_eq!(f32s(1_099_511_627_775.0, style), "1099511627776.000000");
            assert_eq!(f64s(9.999_999_6, style), "10.000000");
            assert_eq!(f64s(99.999_999_6, style), "100.000000");
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
        assert_eq!(f64s(f64::MAX, FloatStyle::Ucrt).len(), 309 + 7);
        assert_eq!(f64s(-f64::MAX, FloatStyle::Msvcrt).len(), 1 + 309 + 7);
        assert_eq!(f64s(f64::INFINITY, FloatStyle::Msvcrt), "1.#INF00");
        assert_eq!(f64s(f64::NEG_INFINITY, FloatStyle::Msvcrt), "-1.#INF00");
        assert_eq!(f64s(-f64::NAN, FloatStyle::Msvcrt), "-1.#IND00");
        assert_eq!(f64s(f64::NAN, FloatStyle::Msvcrt), "1.#QNAN0");
        assert_eq!(f64s(f64::INFINITY, FloatStyle::Ucrt), "inf");
        assert_eq!(f64s(-f64::NAN, FloatStyle::UcrtLegacy), "-nan(ind)");
        let signalling = f64::from_bits(0xfff4_0000_0000_0000);
        assert_eq!(f64s(signalling, FloatStyle::Ucrt), "-nan(snan)");
        assert_eq!(f64s(signalling, FloatStyle::Msvcrt), "-1.#SNAN0");
    }

    /// The integer shortcut of `write_f32_fixed` gives the exact path's text on floats of every
    /// exponent, near ties and away from them.
    #[test]
    fn the_shortcut_agrees_with_the_exact_expansion() {
        let mut x = 0x2545_f491u32;
        let mut bits = vec![0u32, 0x8000_0000, 0x3c00_0000, 0x4196_d000, 0x5380_0000];
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            bits.push(x);
            // Exponents where the six decimals matter, and values 1/2^20 away from a tie.
            bits.push((x & 0x807f_ffff) | ((100 + x % 60) << 23));
            bits.push(((x & 0x7f) << 20) | (120 << 23));
        }
        for b in bits {
            for style in STYLES {
                let Some(small) = Small::of_f32(b, style) else { continue };
                let fast = small.text().as_str().to_string();
                let mut exact = String::new();
                write_f64_fixed(&mut exact, f64::from(f32::from_bits(b)).to_bits(), style).unwrap();
                assert_eq!(fast, exact, "{b:#010x} {style:?}");
            }
        }
    }
}
