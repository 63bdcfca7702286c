//! The owned instruction → its words: each kind's `words` (`Cf::words`, `Alu::words`,
//! `Tex::words`, [`Vtx::words`]), and a group's instructions followed by its literal words.
//! Decoding then encoding gives back exactly the words read (tests: every program of the
//! corpus, and built ones).
//!
//! ```
//! use shaderscope::isa::latte::{Kind, instructions};
//!
//! // One control-flow instruction: NOP with END_OF_PROGRAM (word 1, bit 21).
//! let words = [0u32, 1 << 21];
//! let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let program = instructions(&code, 0x100);
//! assert_eq!(program.len(), 1);
//! assert!(matches!(program[0].kind, Kind::Cf(_)));
//! assert_eq!((program[0].at, program[0].encode()), (0x100, words.to_vec()));
//! ```

use super::decode::{Instruction, Kind};
use super::vtx::Vtx;

impl Instruction {
    /// The instruction's 32-bit words, first word first: two for a control-flow
    /// instruction, two per ALU instruction then the group's literal words (the padding word
    /// of an odd count included, as far as they were read), four for a fetch.
    pub fn encode(&self) -> Vec<u32> {
        match &self.kind {
            Kind::Cf(cf) => cf.words().to_vec(),
            Kind::Alu(group) => {
                let mut out: Vec<u32> = group.insts().iter().flat_map(|i| i.words()).collect();
                out.extend(group.literals.iter().take(group.literal_words));
                out
            }
            Kind::Tex(tex) => tex.words().to_vec(),
            Kind::Vtx(vtx) => vtx.words().to_vec(),
        }
    }
}

impl Vtx {
    /// Its four words (the last is padding).
    pub fn words(self) -> [u32; 4] {
        [self.0 as u32, (self.0 >> 32) as u32, (self.0 >> 64) as u32, (self.0 >> 96) as u32]
    }
}
