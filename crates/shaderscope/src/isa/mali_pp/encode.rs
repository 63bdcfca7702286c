//! The owned instruction → words ([`Instruction::encode`]): the control word, then each
//! present unit's field bits back to back. Decoding then encoding gives back exactly the
//! words read (tests: every program of the corpus, built ones).
//!
//! ```
//! use shaderscope::isa::mali_pp::instructions;
//!
//! // `load.v $1 1, rcp.s2 $0.y  $1.w ` (glmark2's shadow.frag, by lima_compiler).
//! let words = [0x0240_4083u32, 0xf104_3c60, 0x0000_0004];
//! let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! assert_eq!(instructions(&code, 0)[0].encode(), words);
//! ```

use super::decode::{Instruction, Unit};

impl Instruction {
    /// The instruction encoded again: the control word, then each present unit's field
    /// bits back to back from the first bit after it (LSB first), in [`Unit`] order, and
    /// zero bits up to [`Instruction::words`] words (at least the words its fields need).
    /// A whole instruction read from a program encodes back to the program's words wherever
    /// the bits after its last field are zero, as compilers write them.
    ///
    /// ```
    /// use shaderscope::isa::mali_pp::instructions;
    ///
    /// // `load.v $1 1, rcp.s2 $0.y  $1.w ` (glmark2's shadow.frag, by lima_compiler).
    /// let words = [0x0240_4083u32, 0xf104_3c60, 0x0000_0004];
    /// let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    /// assert_eq!(instructions(&code, 0)[0].encode(), words);
    /// ```
    pub fn encode(&self) -> Vec<u32> {
        let mut words = vec![0u32; self.words.max(self.ctrl.words_by_fields()) as usize];
        if let Some(w) = words.first_mut() {
            *w = self.ctrl.0;
        }
        let mut start = 32;
        for u in Unit::ALL.into_iter().filter(|u| self.ctrl.has(*u)) {
            let field = self.fields.get(u as usize).copied().unwrap_or(0);
            for i in (0..u.bits()).filter(|i| field >> i & 1 != 0) {
                let bit = start + i;
                if let Some(w) = words.get_mut((bit / 32) as usize) {
                    *w |= 1 << (bit % 32);
                }
            }
            start += u.bits();
        }
        words
    }
}
