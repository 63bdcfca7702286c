//! Float text as fxc writes `def` constants: C's `%.9g` with the Microsoft C runtime's
//! three-digit exponent (`-1.55009923e-006`) and its spellings of infinities and NaNs.

/// `v` formatted like MSVC's `printf("%.9g", v)`.
pub fn format_g9(v: f32, out: &mut String) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
