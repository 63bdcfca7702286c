//! Bit fields of instruction encodings: where a field sits in a word (its lowest bit and its
//! width), to read it, to place a value in it, and to know which bits it covers. Words are
//! `u32` (PICA200, SM4 and D3D9 tokens), `u64` (R600 control flow and ALU words) or `u128`
//! (Mali GP); [`Field::get_bits`] reads a field at any bit position of a little-endian byte
//! string (Mali PP's variable-length instructions).
//!
//! ```
//! use shaderscope::toolkit::Field;
//!
//! const OPCODE: Field = Field::at(26, 6);
//! const DST: Field = Field::at(21, 5);
//! let word = 0x4e0a_6002u32;
//! assert_eq!((OPCODE.get(word), DST.get(word)), (0x13, 0x10));
//! assert_eq!(OPCODE.put(0x13u32) | DST.put(0x10) | (word & !(OPCODE.mask::<u32>() | DST.mask::<u32>())), word);
//! assert_eq!(Field::at(126, 2).get(3u128 << 126), 3);
//! assert_eq!(Field::at(4, 8).get_bits(&[0x21, 0x43]), 0x32);
//! ```

/// Word types a [`Field`] applies to.
pub trait Word: Copy {
    /// Bits in the word.
    const BITS: u32;
    /// No bit set.
    const ZERO: Self;
    /// `self & mask`, shifted down by `shift` (`shift` below `BITS`).
    fn extract(self, mask: Self, shift: u32) -> Self;
    /// `self` shifted up by `shift` (below `BITS`), then `& mask`.
    fn place(self, mask: Self, shift: u32) -> Self;
    /// `width` ones (1 to `BITS`) shifted up by `shift` (below `BITS`), cut to the word.
    fn ones(width: u32, shift: u32) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            #[inline]
            fn extract(self, mask: Self, shift: u32) -> Self {
                (self & mask) >> shift
            }
            #[inline]
            fn place(self, mask: Self, shift: u32) -> Self {
                (self << shift) & mask
            }
            #[inline]
            fn ones(width: u32, shift: u32) -> Self {
                (<$t>::MAX >> (<$t>::BITS - width)) << shift
            }
        }
    )*};
}
word!(u8, u16, u32, u64, u128);

/// A bit field: `width` bits from bit `shift` up (width 0: the encoding has no such field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    /// Lowest bit.
    pub shift: u16,
    /// Number of bits (0: absent).
    pub width: u8,
}

impl Field {
    /// No field.
    pub const NONE: Field = Field { shift: 0, width: 0 };

    /// `width` bits from bit `shift`.
    pub const fn at(shift: u16, width: u8) -> Field {
        Field { shift, width }
    }

    /// Whether the encoding has this field.
    #[inline]
    pub const fn present(self) -> bool {
        self.width != 0
    }

    /// The bits this field occupies in a word (the part of it that fits the word).
    #[inline]
    pub fn mask<W: Word>(self) -> W {
        let shift = u32::from(self.shift);
        if self.width == 0 || shift >= W::BITS {
            return W::ZERO;
        }
        W::ones(u32::from(self.width).min(W::BITS - shift), shift)
    }

    /// The field's value in `word`.
    #[inline]
    pub fn get<W: Word>(self, word: W) -> W {
        let shift = u32::from(self.shift);
        if self.width == 0 || shift >= W::BITS {
            return W::ZERO;
        }
        word.extract(self.mask(), shift)
    }

    /// `value` placed in the field (bits that do not fit are dropped).
    #[inline]
    pub fn put<W: Word>(self, value: W) -> W {
        let shift = u32::from(self.shift);
        if self.width == 0 || shift >= W::BITS {
            return W::ZERO;
        }
        value.place(self.mask(), shift)
    }

    /// The field (at most 64 bits wide) read from `bytes` as one little-endian bit string:
    /// bit `n` is bit `n % 8` of byte `n / 8`. Bits past the end read as 0.
    pub fn get_bits(self, bytes: &[u8]) -> u64 {
        let mut v = 0u64;
        for i in 0..u32::from(self.width.min(64)) {
            let bit = usize::from(self.shift) + i as usize;
            let set = bytes.get(bit / 8).is_some_and(|b| b >> (bit % 8) & 1 != 0);
            v |= u64::from(set) << i;
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_at_the_edges_of_every_word_size() {
        assert_eq!(Field::at(0, 32).mask::<u32>(), u32::MAX);
        assert_eq!(Field::at(31, 1).get(0x8000_0000u32), 1);
        assert_eq!(Field::at(60, 8).get(u64::MAX), 0xf);
        assert_eq!(Field::at(0, 128).get(u128::MAX), u128::MAX);
        assert_eq!(Field::NONE.get(u32::MAX), 0);
        assert_eq!(Field::NONE.put(7u32), 0);
        assert_eq!(Field::at(200, 4).get(u128::MAX), 0);
        assert_eq!(Field::at(30, 4).get(u32::MAX), 3);
        assert_eq!(Field::at(30, 4).mask::<u32>(), 0xc000_0000);
        assert_eq!(Field::at(4, 8).get(0xabcu16), 0xab);
        assert_eq!(Field::at(28, 8).put(0xffu32), 0xf000_0000);
        assert_eq!(Field::at(14, 4).get_bits(&[0, 0xc0, 0x03]), 0xf);
        assert_eq!(Field::at(20, 8).get_bits(&[0xff, 0xff]), 0);
    }
}
