//! Reading a program instruction by instruction: the control word, the length by the unit
//! fields' sizes, each present unit's field bits, and what cannot be read.

use super::codegen::{Branch, Ctrl, Unit};
use super::text::branch_target;
use crate::error::Error;

/// One instruction as read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Instruction {
    /// Its offset in words from the program's start (what Mesa prints after `@`).
    pub pc: u32,
    /// Absolute offset of its control word.
    pub at: u64,
    /// The control word.
    pub ctrl: Ctrl,
    /// Its length in words, the length the walk goes on by: `count` where the fields fit in
    /// it and it fits in the program (padding words after the fields are the instruction's,
    /// as Mesa and the hardware take them), else the length the fields' sizes give.
    pub words: u32,
    /// Words of it that are in the program (fewer than `words` when it is cut off).
    pub words_read: u32,
    /// Each unit's field bits (0 for a unit absent or cut off), by [`Unit`] number.
    pub fields: [u128; 12],
    /// Units present and read (bit per [`Unit`]).
    pub read: u16,
    /// Units present but past the end of the program.
    pub missing: u16,
}

impl Instruction {
    /// The units present and read, in order, with their field bits and their first bit
    /// (counted from the first bit after the control word).
    pub fn units(&self) -> impl Iterator<Item = (Unit, u128, u32)> + '_ {
        let mut bit = 0;
        Unit::ALL.into_iter().filter(|u| self.ctrl.has(*u)).filter_map(move |u| {
            let start = bit;
            bit += u.bits();
            (self.read >> (u as u32) & 1 != 0)
                .then(|| (u, self.fields.get(u as usize).copied().unwrap_or(0), start))
        })
    }

    /// The unit's field bits, if present and read.
    pub fn field(&self, unit: Unit) -> Option<u128> {
        (self.read >> (unit as u32) & 1 != 0).then(|| self.fields.get(unit as usize).copied().unwrap_or(0))
    }

    /// The branch field, when it is a branch (not a discard).
    pub fn branch(&self) -> Option<Branch> {
        self.field(Unit::Branch).map(Branch::decode).filter(|b| !b.discard)
    }

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

/// What a walk reports.
pub(crate) trait Visit {
    /// An instruction, with its bytes (those of it that are in the program).
    fn instruction(&mut self, inst: &Instruction, bytes: &[u8]);
    /// Something that cannot be read, after the instruction it concerns.
    fn problem(&mut self, error: Error);
}

/// `width` bits (at most 73) of `bytes` from bit `start`, LSB first; `None` when they reach
/// past the end.
fn bits_at(bytes: &[u8], start: u32, width: u32) -> Option<u128> {
    let end = start.checked_add(width)?;
    if end as usize > bytes.len() * 8 {
        return None;
    }
    let first = (start / 8) as usize;
    let mut v = 0u128;
    for (i, b) in bytes.iter().skip(first).take(10).enumerate() {
        v |= u128::from(*b) << (8 * i);
    }
    v >>= start % 8;
    Some(v & ((1u128 << width) - 1))
}

/// The length the walk goes on by (see [`Instruction::words`]).
fn length(count: u32, by_fields: u32, left: u32) -> u32 {
    if count >= by_fields && count <= left { count } else { by_fields }
}

/// Read the instruction at byte `pos` of `code` (at least 4 bytes remain).
pub(crate) fn read(code: &[u8], pos: usize, base: u64) -> Instruction {
    let ctrl_bytes = code.get(pos..pos + 4).and_then(|b| b.first_chunk::<4>()).copied().unwrap_or_default();
    let ctrl = Ctrl(u32::from_le_bytes(ctrl_bytes));
    let by_fields = ctrl.words_by_fields();
    let left = (code.len().saturating_sub(pos) / 4) as u32;
    let words = length(ctrl.count(), by_fields, left);
    let words_read = words.min(left);
    let body = code.get(pos + 4..pos + 4 * words_read as usize).unwrap_or(&[]);
    let mut inst = Instruction {
        pc: (pos / 4) as u32,
        at: base.saturating_add(pos as u64),
        ctrl,
        words,
        words_read,
        ..Instruction::default()
    };
    let mut bit = 0;
    for u in Unit::ALL {
        if !ctrl.has(u) {
            continue;
        }
        match bits_at(body, bit, u.bits()) {
            Some(v) => {
                if let Some(f) = inst.fields.get_mut(u as usize) {
                    *f = v;
                }
                inst.read |= 1 << (u as u32);
            }
            None => inst.missing |= 1 << (u as u32),
        }
        bit += u.bits();
    }
    inst
}

/// Walk the program: each instruction in order, by the length its fields' sizes give, and
/// the problems of each after it. Every step goes on by at least one word, so the walk ends.
pub(crate) fn walk(code: &[u8], base: u64, v: &mut impl Visit) {
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
        v.instruction(&inst, bytes);
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
            let target = i64::from(branch_target(&b, inst.pc));
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
