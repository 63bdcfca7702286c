//! Latte programs made from a fuzzer's bytes, laid out as the compilers lay them out: the
//! control flow from 0 (ALU clauses, TEX and VTX clauses, exports, other instructions with
//! any bits but their kind), then each clause after it, with random instruction bits but a
//! valid shape: an ALU group ends with `LAST` and is followed by the literal words its sources
//! read, a fetch clause holds whole 16-byte fetches. Programs the walk finds a problem in (two
//! instructions of a group in one unit, a loop end with no loop, …) are skipped by the round
//! trip; every other must list into text that assembles back to every word.

use crate::sm4_gen::Choices;
use shaderscope::isa::latte::alu::{self, Alu};
use shaderscope::isa::latte::cf::{self, Cf};

/// A program of up to eight control-flow instructions and their clauses, ending with
/// `EXP_DONE` and `END_OF_PROGRAM`; sometimes with words after it no instruction reaches.
pub fn program(c: &mut Choices<'_>) -> Vec<u32> {
    let n = 1 + c.below(8);
    let mut cfs: Vec<Cf> = Vec::new();
    let mut clauses: Vec<(usize, Vec<u32>)> = Vec::new();
    for _ in 0..n {
        match c.below(5) {
            0 | 1 => {
                let words = alu_clause(c);
                let bits = u64::from(c.u32()) << 32 | u64::from(c.u32());
                let word = bits & !(cf::ALU_ADDR.mask::<u64>() | cf::ALU_COUNT.mask::<u64>())
                    | (2 + c.below(2) as u64) << 60;
                clauses.push((cfs.len(), words));
                cfs.push(Cf(word));
            }
            2 => {
                let count = 1 + c.below(4);
                let words: Vec<u32> = (0..4 * count).map(|_| c.u32()).collect();
                let inst = if c.one_in(2) { cf::inst::TEX } else { cf::inst::VTX };
                let bits = u64::from(c.u32()) << 32 | u64::from(c.u32());
                let keep = cf::POP_COUNT.mask::<u64>()
                    | cf::CF_CONST.mask::<u64>()
                    | cf::COND.mask::<u64>()
                    | cf::VALID_PIXEL_MODE.mask::<u64>()
                    | cf::WHOLE_QUAD_MODE.mask::<u64>()
                    | cf::BARRIER.mask::<u64>();
                let word = bits & keep | cf::CF_INST.put(u64::from(inst));
                clauses.push((cfs.len(), words));
                cfs.push(Cf(word));
            }
            3 => {
                // An export of any bits but its END_OF_PROGRAM.
                let bits = u64::from(c.u32()) << 32 | u64::from(c.u32());
                let inst =
                    c.pick(&[cf::inst::EXP, cf::inst::EXP_DONE, cf::inst::MEM_STREAM0, cf::inst::MEM_RING]);
                let word = bits & !(cf::CF_INST.mask::<u64>() | cf::END_OF_PROGRAM.mask::<u64>())
                    | cf::CF_INST.put(u64::from(inst));
                cfs.push(Cf(word));
            }
            _ => {
                // Flow control that runs no clause and opens no loop.
                let inst = c.pick(&[
                    cf::inst::NOP,
                    cf::inst::JUMP,
                    cf::inst::PUSH,
                    cf::inst::ELSE,
                    cf::inst::POP,
                    cf::inst::CALL_FS,
                    cf::inst::KILL,
                    cf::inst::EMIT_VERTEX,
                ]);
                let bits = u64::from(c.u32()) << 32 | u64::from(c.u32());
                let word = bits & !(cf::CF_INST.mask::<u64>() | cf::END_OF_PROGRAM.mask::<u64>() | 3 << 60)
                    | cf::CF_INST.put(u64::from(inst));
                cfs.push(Cf(word));
            }
        }
    }
    let end = cf::CF_INST.put(u64::from(cf::inst::EXP_DONE))
        | cf::END_OF_PROGRAM.put(1u64)
        | cf::BARRIER.put(1u64)
        | (0x688u64 << 32);
    cfs.push(Cf(end));
    // Clauses after the control flow, each at an even 64-bit unit.
    let mut words: Vec<u32> = vec![0; 2 * cfs.len()];
    for (k, body) in &clauses {
        if !words.len().is_multiple_of(4) {
            words.extend([0, 0]);
        }
        let addr = (words.len() / 2) as u64;
        let cf = &mut cfs[*k];
        if cf.kind() == cf::CfKind::Alu {
            let count = body.len() as u64 / 2 - 1;
            cf.0 = cf.0 & !(cf::ALU_ADDR.mask::<u64>() | cf::ALU_COUNT.mask::<u64>())
                | cf::ALU_ADDR.put(addr)
                | cf::ALU_COUNT.put(count);
        } else {
            let count = body.len() as u64 / 4 - 1;
            cf.0 = cf.0 & !(cf::ADDR.mask::<u64>() | cf::COUNT.mask::<u64>() | cf::COUNT_3.mask::<u64>())
                | cf::ADDR.put(addr)
                | cf::COUNT.put(count & 7)
                | cf::COUNT_3.put(count >> 3);
        }
        words.extend(body);
    }
    for (i, cf) in cfs.iter().enumerate() {
        let [a, b] = cf.words();
        words[2 * i] = a;
        words[2 * i + 1] = b;
    }
    if c.one_in(4) {
        words.extend((0..1 + c.below(6)).map(|_| c.u32()));
    }
    words
}

/// One to six groups of one to five instructions of any bits, `LAST` on each group's last,
/// each followed by the literal words its sources read (a zero word padding an odd count).
fn alu_clause(c: &mut Choices<'_>) -> Vec<u32> {
    let mut out = Vec::new();
    for _ in 0..1 + c.below(6) {
        let len = 1 + c.below(5);
        let mut needed = 0;
        for i in 0..len {
            let bits = u64::from(c.u32()) << 32 | u64::from(c.u32());
            let last = if i + 1 == len { alu::LAST.put(1u64) } else { 0 };
            let inst = Alu(bits & !alu::LAST.mask::<u64>() | last);
            needed = needed.max(inst.literals_needed());
            out.extend(inst.words());
        }
        let words = needed.div_ceil(2) * 2;
        for i in 0..words {
            // Now and then two channels of one value, or a padding word not zero.
            out.push(if i > 0 && c.one_in(8) { out[out.len() - 1] } else { c.u32() });
        }
    }
    out
}
