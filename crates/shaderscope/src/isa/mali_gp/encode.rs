//! The owned instruction → words: [`Instr::encode`] packs every field back into its bits
//! ([`FIELDS`]), [`Instr::words`] gives them as the four words a
//! program stores. Decoding then encoding gives back exactly the 128 bits read (tests: every
//! program of the corpus, random bits).
//!
//! ```
//! use shaderscope::isa::mali_gp::Instr;
//!
//! // Any 128 bits decode, and encode back to themselves.
//! let bits = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
//! let instr = Instr::decode(bits);
//! assert_eq!(instr.encode(), bits);
//! assert_eq!(instr.words(), [0x7654_3210, 0xfedc_ba98, 0x89ab_cdef, 0x0123_4567]);
//! ```

use super::decode::{FIELDS, Instr};

impl Instr {
    /// The 128 bits of the instruction (a value too wide for its field loses its high bits).
    pub fn encode(&self) -> u128 {
        FIELDS.iter().zip(self.values()).fold(0, |bits, (f, v)| bits | f.field.put(u128::from(v)))
    }

    /// The instruction's four 32-bit words, first word first.
    pub fn words(&self) -> [u32; 4] {
        words_of(self.encode())
    }
}

/// The four 32-bit words of an instruction, first word first.
#[inline]
pub(crate) fn words_of(bits: u128) -> [u32; 4] {
    [bits as u32, (bits >> 32) as u32, (bits >> 64) as u32, (bits >> 96) as u32]
}
