//! Words → the owned instruction of one program step, with its absolute offset: a
//! control-flow instruction ([`Cf`]), an ALU group ([`Group`]: its instructions and
//! literals), a texture fetch ([`Tex`]) or a vertex fetch ([`Vtx`]). Each kind reads its own
//! bits (`Cf(u64)`, [`Group::read`], `Tex(u128)`, `Vtx(u128)`, the words little-endian); which kind the words at an offset are is what the
//! program's one walk knows (the control flow from offset 0, each clause by the instruction
//! that runs it), so a program's instructions are the walk's steps
//! ([`instructions`](super::instructions)). [`Instruction::encode`] gives the words back.
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

use super::alu::Group;
use super::cf::{Cf, ClauseKind};
use super::tex::Tex;
use super::vtx::Vtx;
use super::walk::Step;
use crate::error::Error;
use crate::isa::walk::Visit;

/// One instruction of a program as read: what it is and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instruction {
    /// Absolute offset of its first byte.
    pub at: u64,
    /// The instruction.
    pub kind: Kind,
}

/// The four kinds of instruction a program holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A control-flow instruction (8 bytes).
    Cf(Cf),
    /// An ALU group of a clause: one to five 8-byte instructions, then its literal slots.
    Alu(Group),
    /// A texture fetch (16 bytes).
    Tex(Tex),
    /// A vertex fetch (16 bytes).
    Vtx(Vtx),
}

/// The instructions of a walk, in listing order.
#[derive(Default)]
pub(crate) struct Collect(pub(crate) Vec<Instruction>);

impl Visit<Step<'_>> for Collect {
    fn step(&mut self, step: Step<'_>) {
        let i = match step {
            Step::Cf { at, cf, .. } => Instruction { at, kind: Kind::Cf(cf) },
            Step::Group { at, group, .. } => Instruction { at, kind: Kind::Alu(*group) },
            Step::Fetch { at, kind: ClauseKind::Tex, inst, .. } => {
                Instruction { at, kind: Kind::Tex(Tex(inst)) }
            }
            Step::Fetch { at, kind: ClauseKind::Vtx, inst, .. } => {
                Instruction { at, kind: Kind::Vtx(Vtx(inst)) }
            }
            Step::CfDone { .. } | Step::Rest { .. } => return,
        };
        self.0.push(i);
    }
    fn problem(&mut self, _error: Error) {}
}
