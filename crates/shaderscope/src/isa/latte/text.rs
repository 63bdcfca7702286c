//! Small pieces of listing text shared by the instruction printers: a styled token, an
//! operand after a space, a flag, a number inside a label (`ADDR(32)`).

use crate::print::{Line, Short, Style};

/// The instruction name, styled as a mnemonic.
#[inline]
pub(super) fn mnemonic(line: &mut Line, name: &str) {
    line.style(Style::Mnemonic);
    line.push_str(name);
    line.reset();
}

/// A space, then one operand that `body` writes.
#[inline]
pub(super) fn operand(line: &mut Line, body: impl FnOnce(&mut Line)) {
    line.push_str(" ");
    line.start_operand();
    body(line);
    line.end_operand();
}

/// A space, then a modifier of the instruction (`NO_BARRIER`, `VALID_PIX`).
#[inline]
pub(super) fn flag(line: &mut Line, text: &str) {
    line.push_str(" ");
    line.style(Style::Directive);
    line.push_str(text);
    line.reset();
}

/// `prefix`, `n` in decimal, `suffix` as one token of `style` (`ADDR(32)`).
#[inline]
pub(super) fn number_in(line: &mut Line, style: Style, prefix: &str, n: u32, suffix: &str) {
    line.style(style);
    line.push_str(prefix);
    push_number(line, u64::from(n));
    line.push_str(suffix);
    line.reset();
}

/// `v` in upper-case hexadecimal with at least `digits` digits.
pub(super) fn push_hex(line: &mut Line, v: u64, digits: usize) {
    const HEX: [&str; 16] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"];
    let need = (64 - v.leading_zeros() as usize).div_ceil(4).clamp(digits.clamp(1, 16), 16);
    for i in (0..need).rev() {
        line.push_str(HEX.get((v >> (4 * i) & 0xf) as usize).copied().unwrap_or("0"));
    }
}

/// `v` as eight upper-case hexadecimal digits.
#[inline]
pub(super) fn push_hex8(line: &mut Line, v: u32) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut b = [0u8; 8];
    for (i, d) in b.iter_mut().enumerate() {
        *d = HEX.get((v >> (28 - 4 * i) & 0xf) as usize).copied().unwrap_or(b'0');
    }
    line.push_short(&Short::from_ascii_bytes(b, 8));
}

/// `n` in decimal: register, constant, group and slot numbers (below 2048) from a table.
#[inline]
pub(super) fn push_number(line: &mut Line, n: u64) {
    match NUMBERS.get(n as usize) {
        Some(s) => line.push_short(s),
        None => line.push_u64(n),
    }
}

/// Decimal digits of `n` below 2048.
pub(super) fn number_len(n: u64) -> usize {
    NUMBERS.get(n as usize).map_or(20, |s| s.as_str().len())
}

/// `0` to `2047`.
static NUMBERS: [Short<4>; 2048] = numbers();

// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn numbers() -> [Short<4>; 2048] {
    let mut t = [Short::new(""); 2048];
    let mut v = 0;
    while v < 2048 {
        let mut b = [0u8; 4];
        let len = if v >= 1000 {
            4
        } else if v >= 100 {
            3
        } else if v >= 10 {
            2
        } else {
            1
        };
        let mut i = len;
        let mut x = v;
        while i > 0 {
            b[i - 1] = b'0' + (x % 10) as u8;
            x /= 10;
            i -= 1;
        }
        let (digits, _) = b.split_at(len);
        t[v] = Short::from_ascii(digits);
        v += 1;
    }
    t
}
