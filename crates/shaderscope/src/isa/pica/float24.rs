//! The PICA200's 24-bit float: sign bit 23, exponent bits 22..16 (bias 63), mantissa 15..0.
//!
//! [`to_f32`] follows Citra's conversion (the one emulators and nihstro agree on): a pattern
//! whose low 23 bits are zero is ±0, anything else maps to f32 bits
//! `(s << 31) | ((e + 64) << 23) | (m << 7)`. Every float24 is exactly representable as an
//! f32, so this is exact. [`from_f32`] is picasso's conversion: the mantissa is truncated,
//! exponents below the range flush to signed zero and above it saturate to exponent 0x7F.
//! The two are inverse: `from_f32(to_f32(x)) == x` for every 24-bit pattern `x`. (Exponent 0
//! with a non-zero mantissa reads as 2^-63·(1 + m/2^16) here; the hardware probably treats it
//! as zero, but picasso produces such patterns for values in [2^-63, 2^-62), so this is the
//! reading that lets a listing re-assemble to the same bits.)
//!
//! ```
//! use shaderscope::isa::pica::float24;
//!
//! assert_eq!((float24::to_f32(0x3f0000), float24::to_f32(0xbf0000)), (1.0, -1.0));
//! // 0.1 has no exact float24: picasso truncates the mantissa.
//! assert_eq!(float24::from_f32(0.1), 0x3b9999);
//! let mut text = String::new();
//! float24::write(&mut text, 0x3b9999).unwrap();
//! assert_eq!(text, "0.09999943");
//! // The text assembles back to the same bits.
//! assert_eq!(float24::from_f32(text.parse().unwrap()), 0x3b9999);
//! ```

/// Exact value of a float24 bit pattern (the low 24 bits of `raw`).
pub fn to_f32(raw: u32) -> f32 {
    let raw = raw & 0x00ff_ffff;
    let sign = (raw >> 23) & 1;
    if raw & 0x7f_ffff == 0 {
        return f32::from_bits(sign << 31);
    }
    let exp = (raw >> 16) & 0x7f;
    let mant = raw & 0xffff;
    f32::from_bits((sign << 31) | ((exp + 64) << 23) | (mant << 7))
}

/// picasso's f32 → float24: truncate the mantissa, rebias the exponent, flush underflow to
/// signed zero and saturate overflow (including infinities and NaNs) to exponent 0x7F.
pub fn from_f32(value: f32) -> u32 {
    let bits = value.to_bits();
    let sign = bits >> 31;
    let mant = (bits & 0x7f_ffff) >> 7;
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 63;
    if exp < 0 {
        sign << 23
    } else if exp > 0x7f {
        (sign << 23) | (0x7f << 16)
    } else {
        (sign << 23) | ((exp as u32) << 16) | mant
    }
}

/// Write a float24 as decimal text that picasso (`atof`, then f32, then [`from_f32`]) turns
/// back into the same bits: the shortest text that round-trips the exact f32 value.
pub fn write<W: std::fmt::Write + ?Sized>(out: &mut W, raw: u32) -> std::fmt::Result {
    write!(out, "{:?}", to_f32(raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_values() {
        // docs/shbin-pica.md §4, and nwfont's c5 = (0, 1, 2, 3).
        for (raw, v) in [
            (0x3f0000, 1.0f32),
            (0xbf0000, -1.0),
            (0x3e0000, 0.5),
            (0x400000, 2.0),
            (0x408000, 3.0),
            (0x000000, 0.0),
        ] {
            assert_eq!(to_f32(raw), v, "{raw:06x}");
            assert_eq!(from_f32(v), raw, "{v}");
        }
        // 0.1 truncates (0x3dcccccd → mantissa 0x9999), as picasso writes it
        assert_eq!(from_f32(0.1), 0x3b9999);
        assert_eq!(to_f32(0x3b9999), f32::from_bits(0x3dcc_cc80));
        assert_eq!(from_f32(1e-3), 0x350624);
        assert_eq!(to_f32(0x800000).to_bits(), (-0.0f32).to_bits());
        assert_eq!(from_f32(-0.0), 0x800000);
    }

    #[test]
    fn edges_of_the_range() {
        assert_eq!(from_f32(f32::INFINITY), 0x7f0000);
        assert_eq!(from_f32(f32::NEG_INFINITY), 0xff0000);
        assert_eq!(from_f32(f32::NAN) & 0x7fffff, 0x7f0000);
        assert_eq!(from_f32(1e-30), 0);
        assert_eq!(from_f32(-1e-30), 0x800000);
        assert_eq!(to_f32(0x7fffff), f32::from_bits(0x5fffff80));
        // exponent 0 with a mantissa is 2^-63 (1 + m/2^16), which picasso also produces
        assert_eq!(to_f32(0x000001), f32::from_bits(0x2000_0080));
        assert_eq!(from_f32(to_f32(0x000001)), 0x000001);
        // only the top 24 bits of the argument count
        assert_eq!(to_f32(0xff3f0000), 1.0);
    }

    #[test]
    fn printed_values_reassemble_to_the_same_bits() {
        // Through the same path as picasso: decimal → double (atof) → float → from_f32.
        let mut s = String::new();
        for raw in (0..0x0100_0000u32).step_by(7).chain([0x7fffff, 0xffffff, 0x800001, 0x000001]) {
            s.clear();
            write(&mut s, raw).unwrap();
            let back = from_f32(s.parse::<f64>().unwrap() as f32);
            assert_eq!(back, raw, "{raw:06x} printed as {s}");
        }
    }
}
