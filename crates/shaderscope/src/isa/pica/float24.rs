//! The PICA200's 24-bit float (s1 e7 m16, bias 63, no denormals).

/// Exact value of a float24 bit pattern (low 24 bits of `raw`).
pub fn to_f32(raw: u32) -> f32 {
    let raw = raw & 0x00ff_ffff;
    if raw & 0x7f_ffff == 0 {
        return if raw & 0x80_0000 != 0 { -0.0 } else { 0.0 };
    }
    let sign = (raw >> 23) & 1;
    let exp = (raw >> 16) & 0x7f;
    let mant = raw & 0xffff;
    if exp == 0 {
        // No denormals: exponent 0 is zero.
        return if sign != 0 { -0.0 } else { 0.0 };
    }
    f32::from_bits((sign << 31) | ((exp + 64) << 23) | (mant << 7))
}
