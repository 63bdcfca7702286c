//! The one walk over a parsed program: the version token, then every comment, instruction and
//! the end token in stream order, then what follows. The listing, the instruction records,
//! the `dump` annotations and the checks are what it feeds ([`crate::isa::walk`]); each is
//! a visitor of its own (in `print.rs`, `annotate.rs`, `check.rs`), as fxc's listing does not
//! show every step (comments and the end token print nothing) and the others show them their
//! own way.

use super::{Instruction, Item, Program, Version};
use crate::error::Error;
use crate::isa::walk::Visit;

/// One step of the walk, borrowed from the program.
#[derive(Clone, Copy)]
pub(crate) enum Step<'p> {
    /// The version token at `at`, the program's first byte; `len` bytes from it to the end
    /// token (inclusive), or to the last whole item when there is none.
    Version { at: u64, token: u32, version: Version, len: u64 },
    /// A comment block: its token at `at` (with the length) and the bytes it holds.
    Comment { at: u64, token: u32, data: &'p [u8] },
    /// An instruction of the program's version.
    Instruction(&'p Instruction),
    /// The end token at `at`.
    End { at: u64, token: u32 },
    /// The stream (as far as it was read) stops at `at`, after its last item, without an end
    /// token.
    NoEnd { at: u64 },
    /// Bytes after the end token, from `at`.
    Trailing { at: u64, bytes: &'p [u8] },
}

/// Visit every step of `program` in stream order. `stop`, when the program was read only up
/// to a failure ([`Program::parse_partial`]), is the problem reported last, where reading
/// stopped.
pub(crate) fn walk<'p>(program: &'p Program<'_>, stop: Option<&Error>, v: &mut impl Visit<Step<'p>>) {
    let len = program.program_len();
    v.step(Step::Version { at: program.base, token: program.version_token, version: program.version, len });
    for item in &program.items {
        v.step(match item {
            Item::Comment { offset, token, data } => Step::Comment { at: *offset, token: *token, data },
            Item::Instruction(ins) => Step::Instruction(ins),
            Item::End { offset, token } => Step::End { at: *offset, token: *token },
        });
    }
    let after = program.base.saturating_add(len);
    if !program.has_end() {
        v.step(Step::NoEnd { at: after });
    }
    if !program.trailing.is_empty() {
        v.step(Step::Trailing { at: after, bytes: program.trailing });
    }
    if let Some(e) = stop {
        v.problem(e.clone());
    }
}
