//! The owned [`Instruction`] → its word, through the same table rows and bit fields
//! ([`Layout`](super::opcodes::Layout)) that [`decode`](super::decode) reads: `decode(w).encode() == w` for
//! every 32-bit word (the unit tests in `tests.rs` show it over every opcode of the table
//! with varied fields and two million other words; tests/pica_corpus.rs over every word of
//! the corpus). The assembler ([`asm`](super::asm)) hands its instructions here.
//!
//! ```
//! use shaderscope::isa::pica::{Instruction, Op};
//!
//! // dp4 o0.x, c0, r0 with operand descriptor 1.
//! let dp4 = Instruction { op: Op::Dp4, dst: 0x00, src: [0x20, 0x10, 0], desc: 1, ..Instruction::default() };
//! assert_eq!(dp4.encode(), 0x0802_0801);
//! ```

use super::decode::Instruction;

impl Instruction {
    /// Encode. Values too wide for a field are cut to the field's width.
    pub fn encode(&self) -> u32 {
        let row = self.info();
        let l = &row.layout;
        fn b(v: impl Into<u32>) -> u32 {
            v.into()
        }
        row.opcode_bits()
            | l.dst.put(b(self.dst))
            | l.idx.put(b(self.idx))
            | l.src1.put(b(self.src[0]))
            | l.src2.put(b(self.src[1]))
            | l.src3.put(b(self.src[2]))
            | l.desc.put(b(self.desc))
            | l.cmpx.put(b(self.cmp[0]))
            | l.cmpy.put(b(self.cmp[1]))
            | l.refx.put(b(self.refs[0]))
            | l.refy.put(b(self.refs[1]))
            | l.condop.put(b(self.condop))
            | l.uniform.put(b(self.uniform))
            | l.target.put(b(self.target))
            | l.num.put(b(self.num))
            | l.negate.put(b(self.negate))
            | l.vertex.put(b(self.vertex))
            | l.primitive.put(b(self.primitive))
            | l.invert.put(b(self.invert))
            | (self.unused & !row.covered)
    }
}
