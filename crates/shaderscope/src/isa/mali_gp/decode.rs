//! Words → the owned instruction: the 128-bit GP instruction as named fields, the layout of
//! Mesa's `gpir_codegen_instr` (`src/gallium/drivers/lima/ir/gp/codegen.h`), bit 0 being the
//! lowest bit of the first little-endian word, each field packed after the one before.
//! [`Instr::encode`] (in `encode.rs`) packs them back.
//!
//! ```
//! use shaderscope::isa::mali_gp::decode::{Instr, at};
//!
//! // The first instruction of lima-memtester's libMali vertex shader.
//! let words = [0xad40_b42f_u32, 0x4380_42b5, 0x0807_e980, 0x000a_d500];
//! let bits = words.iter().rev().fold(0u128, |v, w| v << 32 | u128::from(*w));
//! let i = Instr::decode(bits);
//! // mul.m0 ^2/$2.y t[1].w a0.y: load_w (15) times attrib_y (1); the load unit reads 1.
//! assert_eq!((i.mul0_src0, i.mul0_src1, i.load_addr, i.register0_attribute), (15, 1, 1, 1));
//! assert_eq!((at::load_addr.shift, at::load_addr.width), (46, 9));
//! assert_eq!(i.encode(), bits);
//! ```

use crate::toolkit::Field;

/// One field of the encoding: its name in `gpir_codegen_instr` and where it sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named {
    /// The name in `gpir_codegen_instr`.
    pub name: &'static str,
    /// Its bits.
    pub field: Field,
}

/// One `Field` constant per field, each placed after the one before.
macro_rules! positions {
    ($shift:expr;) => {};
    ($shift:expr; $name:ident : $width:literal, $($rest:tt)*) => {
        #[doc = concat!("`", stringify!($name), "`.")]
        pub const $name: Field = Field::at($shift, $width);
        positions!($shift + $width; $($rest)*);
    };
}

macro_rules! layout {
    ($( $name:ident : $width:literal ),* $(,)?) => {
        /// Where each field sits, by its name in `gpir_codegen_instr`.
        ///
        /// ```
        /// use shaderscope::isa::mali_gp::decode::at;
        ///
        /// assert_eq!((at::branch_target.shift, at::branch_target.width), (120, 8));
        /// assert_eq!(at::complex_op.get(9u128 << 86), 9);
        /// ```
        #[allow(non_upper_case_globals)]
        pub mod at {
            use crate::toolkit::Field;
            positions!(0; $($name : $width,)*);
        }

        /// Every field, in encoding order (from bit 0 up), with its name.
        pub const FIELDS: &[Named] = &[$(Named { name: stringify!($name), field: at::$name }),*];

        /// A GP instruction, field by field (the names of Mesa's `gpir_codegen_instr`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
        #[allow(missing_docs)]
        pub struct Instr {
            $(pub $name: u16,)*
        }

        impl Instr {
            /// The fields of the instruction `bits` (bit 0: the lowest bit of the first word).
            #[inline]
            pub fn decode(bits: u128) -> Instr {
                Instr { $($name: at::$name.get(bits) as u16),* }
            }

            /// Each field's value, in the order of [`FIELDS`] (what
            /// [`encode`](Instr::encode) packs).
            pub(crate) fn values(&self) -> [u16; FIELDS.len()] {
                [$(self.$name),*]
            }
        }
    };
}

layout! {
    mul0_src0: 5,
    mul0_src1: 5,
    mul1_src0: 5,
    mul1_src1: 5,
    mul0_neg: 1,
    mul1_neg: 1,
    acc0_src0: 5,
    acc0_src1: 5,
    acc1_src0: 5,
    acc1_src1: 5,
    acc0_src0_neg: 1,
    acc0_src1_neg: 1,
    acc1_src0_neg: 1,
    acc1_src1_neg: 1,
    load_addr: 9,
    load_offset: 3,
    register0_addr: 4,
    register0_attribute: 1,
    register1_addr: 4,
    store0_temporary: 1,
    store1_temporary: 1,
    branch: 1,
    branch_target_lo: 1,
    store0_src_x: 3,
    store0_src_y: 3,
    store1_src_z: 3,
    store1_src_w: 3,
    acc_op: 3,
    complex_op: 4,
    store0_addr: 4,
    store0_varying: 1,
    store1_addr: 4,
    store1_varying: 1,
    mul_op: 3,
    pass_op: 3,
    complex_src: 5,
    pass_src: 5,
    unknown_1: 4,
    branch_target: 8,
}

impl Instr {
    /// An instruction that does nothing (Mesa lists it as `nop`): every multiply and add
    /// source unused (21), no load offset (7), no store (7), the complex and pass units
    /// reading nothing (21), all else 0. Build others from it with `Instr { …, ..Instr::idle() }`.
    pub fn idle() -> Instr {
        Instr {
            mul0_src0: 21,
            mul0_src1: 21,
            mul1_src0: 21,
            mul1_src1: 21,
            acc0_src0: 21,
            acc0_src1: 21,
            acc1_src0: 21,
            acc1_src1: 21,
            load_offset: 7,
            store0_src_x: 7,
            store0_src_y: 7,
            store1_src_z: 7,
            store1_src_w: 7,
            complex_src: 21,
            pass_src: 21,
            ..Instr::default()
        }
    }

    /// The instruction a branch goes to: `branch_target`, plus 0x100 unless
    /// `branch_target_lo` is set.
    pub fn target(&self) -> u32 {
        u32::from(self.branch_target) + if self.branch_target_lo != 0 { 0 } else { 0x100 }
    }
}

/// The instruction's four little-endian words as one 128-bit value.
#[inline]
pub fn bits_of(bytes: &[u8; 16]) -> u128 {
    u128::from_le_bytes(*bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_fill_the_128_bits_where_the_research_notes_put_them() {
        let end = FIELDS.last().map(|f| f.field.shift + u16::from(f.field.width));
        assert_eq!(end, Some(128));
        let at = |n: &str| FIELDS.iter().find(|f| f.name == n).map(|f| (f.field.shift, f.field.width));
        assert_eq!(at("load_addr"), Some((46, 9)));
        assert_eq!(at("register0_attribute"), Some((62, 1)));
        assert_eq!(at("branch"), Some((69, 1)));
        assert_eq!(at("acc_op"), Some((83, 3)));
        assert_eq!(at("complex_op"), Some((86, 4)));
        assert_eq!(at("mul_op"), Some((100, 3)));
        assert_eq!(at("pass_src"), Some((111, 5)));
        assert_eq!(at("unknown_1"), Some((116, 4)));
        assert_eq!(at("branch_target"), Some((120, 8)));
    }

    #[test]
    fn every_instruction_reencodes_to_itself() {
        let mut x = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834u128;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(Instr::decode(x).encode(), x);
            assert_eq!(
                Instr::decode(x).words(),
                [x as u32, (x >> 32) as u32, (x >> 64) as u32, (x >> 96) as u32]
            );
        }
        let i = Instr::decode(0);
        assert_eq!((i.target(), Instr { branch_target_lo: 1, branch_target: 7, ..i }.target()), (0x100, 7));
    }
}
