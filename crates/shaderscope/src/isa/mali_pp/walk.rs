//! The one walk over a program: instruction by instruction ([`read`](super::decode) each), by
//! the length its fields' sizes give, and what cannot be read. The listing, the records, the
//! problems, the dump annotations and the checks are what it feeds ([`crate::isa::walk`]).

use super::decode::{Ctrl, Instruction, read};
use crate::error::Error;
use crate::isa::walk::Visit;

/// One step of the walk: an instruction, with its bytes (those of it that are in the
/// program).
#[derive(Clone, Copy)]
pub(crate) struct Step<'a> {
    pub(crate) inst: &'a Instruction,
    pub(crate) bytes: &'a [u8],
    /// The next instruction's control word, when a whole word follows this instruction: what
    /// the control word's `next_count` and `prefetch` are derived from (see `asm`).
    pub(crate) next: Option<Ctrl>,
}

/// Walk the program: each instruction in order, by the length its fields' sizes give, and
/// the problems of each after it. Every step goes on by at least one word, so the walk ends.
pub(crate) fn walk(code: &[u8], base: u64, v: &mut impl for<'s> Visit<Step<'s>>) {
    let total = (code.len() / 4) as u32;
    let mut pos = 0usize;
    while pos < code.len() {
        let at = base.saturating_add(pos as u64);
        let have = code.len() - pos;
        if have < 4 {
            v.problem(Error::truncated(at, "Mali PP control word", 4, have as u64));
            return;
        }
        let inst = read(code, pos, base);
        let bytes = code.get(pos..pos + 4 * inst.words_read as usize).unwrap_or(&[]);
        let after = pos + 4 * inst.words as usize;
        let next = code
            .get(after..after + 4)
            .and_then(|w| w.first_chunk::<4>())
            .map(|w| Ctrl(u32::from_le_bytes(*w)));
        v.step(Step { inst: &inst, bytes, next });
        let count = inst.ctrl.count();
        let left = total - inst.pc;
        let by_fields = inst.ctrl.words_by_fields();
        if count == 0 {
            v.problem(Error::invalid(
                at,
                "Mali PP control word",
                format!(
                    "count is 0 (Mesa's lima_disasm loops forever here); the unit fields take {}, \
                     the listing goes on after them",
                    words_text(by_fields)
                ),
            ));
        } else if count != by_fields {
            let (past, after) = if count > left {
                (format!(", and reaches past the end ({} left)", words_text(left)), "the fields")
            } else if count > by_fields {
                (String::new(), "its count")
            } else {
                (String::new(), "the fields")
            };
            v.problem(Error::invalid(
                at,
                "Mali PP control word",
                format!(
                    "count {count} disagrees with the unit fields, which take {}{past}; the listing goes on after {after}",
                    words_text(by_fields)
                ),
            ));
        }
        if inst.missing != 0 {
            v.problem(Error::truncated(at, "Mali PP instruction", 4 * u64::from(inst.words), have as u64));
            return;
        }
        if let Some(b) = inst.branch() {
            let target = i64::from(b.absolute_target(inst.pc));
            if target < 0 || target >= i64::from(total) {
                v.problem(Error::invalid(
                    at,
                    "Mali PP branch",
                    format!(
                        "target {target} is outside the program (words 0 to {})",
                        total.saturating_sub(1)
                    ),
                ));
            }
        }
        pos += 4 * inst.words as usize;
    }
}

fn words_text(n: u32) -> String {
    if n == 1 { "1 word".to_string() } else { format!("{n} words") }
}
