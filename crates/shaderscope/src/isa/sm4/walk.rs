//! The one walk over a program: every instruction and declaration in order, decoded as far as
//! its header ([`Instruction::decode`]), then the error where the instruction stream stops.
//! The listing, the instruction records, the checks and the `dump` annotations are what it
//! feeds ([`crate::isa::walk::Visit`]); it stops early when its visitor has met an error.
//!
//! The parts of an instruction (its operands, the DWORDs its declaration reads) are decoded by
//! whoever needs them, in the same order: the printer as it prints them, and everyone else
//! through [`Instruction::decode_all`], which gives the error the printer stops at without
//! printing anything ([`check`]).

use super::decode::{Instruction, Program};
use crate::error::{Error, Result};
use crate::isa::walk::Visit;

/// Visit every instruction of `program`, then the error that ends the stream early, if one
/// does; stop as soon as `v` says it has [stopped](Visit::stopped).
pub(crate) fn walk<'a>(program: &Program<'a>, v: &mut impl Visit<Instruction<'a>>) {
    for inst in program.instructions() {
        match inst {
            Ok(inst) => v.step(inst),
            Err(e) => v.problem(e),
        }
        if v.stopped() {
            return;
        }
    }
}

/// The error the listing of `program` stops at, if any: every instruction and every part of
/// it decoded as [`write_listing`](super::write_listing) decodes them, without printing. A
/// container uses it to call a program whose instruction stream is damaged what it is,
/// whichever command reads the file.
pub fn check(program: &Program<'_>) -> Result<()> {
    let mut v = Whole { sm51: program.is_sm51(), error: None };
    walk(program, &mut v);
    v.error.map_or(Ok(()), Err)
}

/// Decodes each instruction whole; keeps the first error.
struct Whole {
    sm51: bool,
    error: Option<Error>,
}

impl Visit<Instruction<'_>> for Whole {
    fn step(&mut self, inst: Instruction<'_>) {
        if let Err(e) = inst.decode_all(self.sm51) {
            self.problem(e);
        }
    }
    fn problem(&mut self, error: Error) {
        self.error.get_or_insert(error);
    }
    fn stopped(&self) -> bool {
        self.error.is_some()
    }
}
