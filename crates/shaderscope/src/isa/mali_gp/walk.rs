//! The one walk over a program: every whole instruction, then the bytes after the last. The
//! listing, the records, the problems, the dump annotations and the checks are what it
//! feeds ([`crate::isa::walk`]).

use super::decode::{Instr, bits_of};
use crate::error::Error;
use crate::isa::walk::Visit;
use crate::print::count;

/// Bytes of one instruction.
pub(crate) const INSTR_SIZE: usize = 16;

/// One step of the walk.
#[derive(Clone, Copy)]
pub(crate) enum Step<'a> {
    /// Instruction `index`, at absolute offset `at`, its bits, after `prev`.
    Instr { index: u64, at: u64, bits: u128, instr: &'a Instr, prev: Option<&'a Instr> },
    /// `len` bytes at `at` after the last whole instruction (reported as a problem next).
    Trailing { at: u64, len: u64 },
    /// Instruction `index` (at `at`) has fields its text does not carry: `implied` is what
    /// the text reads back as ([`super::asm`]).
    Fields { index: u64, at: u64, instr: &'a Instr, implied: &'a Instr },
}

/// Visit every instruction of `code` (first byte at absolute offset `base`), then the bytes
/// after the last whole instruction. A branch past the end is reported after its
/// instruction.
pub(crate) fn walk(code: &[u8], base: u64, v: &mut impl for<'s> Visit<Step<'s>>) {
    let whole = code.chunks_exact(INSTR_SIZE);
    let rest = whole.remainder().len();
    let n = (code.len() / INSTR_SIZE) as u64;
    let mut prev: Option<Instr> = None;
    for (index, bytes) in whole.enumerate() {
        let Some(bytes) = bytes.first_chunk::<INSTR_SIZE>() else { break };
        let index = index as u64;
        let at = base.saturating_add(index * INSTR_SIZE as u64);
        let bits = bits_of(bytes);
        let instr = Instr::decode(bits);
        v.step(Step::Instr { index, at, bits, instr: &instr, prev: prev.as_ref() });
        for (s, what) in super::check::reads_before_start(index, &instr) {
            v.problem(Error::invalid(
                at,
                "Mali GP instruction",
                format!("instruction {index:03}: source {s} reads {what}, which is before the start of the program"),
            ));
        }
        if instr.branch != 0 {
            let target = u64::from(instr.target());
            // The target is an absolute instruction index (0–511), so it cannot be before
            // the start; the end of the program (index n) is where a branch may go.
            if target > n {
                v.problem(Error::invalid(
                    at,
                    "Mali GP branch",
                    format!(
                        "instruction {index:03} branches to instruction {target:03} (offset 0x{:x}), past the \
                         end of the program ({})",
                        base.saturating_add(target * INSTR_SIZE as u64),
                        count(n, "instruction")
                    ),
                ));
            }
        }
        prev = Some(instr);
    }
    if rest != 0 {
        let at = base.saturating_add((code.len() - rest) as u64);
        v.step(Step::Trailing { at, len: rest as u64 });
        // The last instruction is cut short: `lima_disasm` lists size / 16 instructions.
        v.problem(Error::truncated(at, "Mali GP instruction", INSTR_SIZE as u64, rest as u64));
    }
}

/// After the listing: a [`Step::Fields`] for every instruction whose text reads back as other
/// bits than its own (see [`super::asm`]).
pub(crate) fn fields(code: &[u8], base: u64, v: &mut impl for<'s> Visit<Step<'s>>) {
    let mut line = crate::print::Line::new();
    let mut prev: Option<Instr> = None;
    for (index, bytes) in code.chunks_exact(INSTR_SIZE).enumerate() {
        let Some(bytes) = bytes.first_chunk::<INSTR_SIZE>() else { break };
        let index = index as u64;
        let instr = Instr::decode(bits_of(bytes));
        let implied = super::asm::implied(&instr, prev.as_ref(), index, &mut line).unwrap_or_default();
        if implied != instr {
            let at = base.saturating_add(index * INSTR_SIZE as u64);
            v.step(Step::Fields { index, at, instr: &instr, implied: &implied });
        }
        prev = Some(instr);
    }
}
