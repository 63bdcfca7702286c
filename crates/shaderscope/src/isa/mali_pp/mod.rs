//! ARM Mali-200/400 "Utgard" fragment processor (PP) code, as the DBIN chunk of an MBS
//! fragment shader (`CFRA`) holds it, listed the way Mesa's lima driver prints it
//! (`lima_disasm`, Mesa 22.3: `ppir_disassemble_instr` in `ir/pp/disasm.c`).
//!
//! # The program
//!
//! A program is a sequence of instructions of variable length, each a whole number of
//! little-endian 32-bit words. The first word is the control word ([`Ctrl`]): the
//! instruction's `count` of words, `stop`, `sync`, a mask of the units present, the next
//! instruction's count and `prefetch`. The fields of the units present follow as one bit
//! string, back to back in unit order ([`Unit`]: varying, sampler, uniform, vec4 mul, float
//! mul, vec4 acc, float acc, combine, temp write, branch, const0, const1, of 34, 62, 41, 43,
//! 30, 44, 31, 30, 41, 73, 64 and 64 bits), padded to a whole word. Each unit's field is
//! decoded into the parts Mesa's `codegen.h` names ([`decode`]). Five units have opcodes: the
//! vector and scalar multipliers and adders (5 bits) and the combiner (4 bits); the others
//! have one operation each, told apart by their fields.
//!
//! # The files
//!
//! As every instruction set's ([`crate::isa`]): `opcodes.rs` is the opcode table, one per
//! unit that has opcodes, each row the operation's name, the sources it shows and whether it
//! is a multiplier's scaled `mul` (Mesa's `asm_op` tables), with the other numbered names of
//! the encoding (output modifiers, pipeline registers, uniform sources, sampler types, branch
//! conditions); the decoder gives each ALU field's row, the printer prints from it, the checks
//! warn of an opcode without one. `decode.rs` reads words into the owned [`Instruction`],
//! `encode.rs` writes it back, `walk.rs` is the one walk that the listing, the records, the
//! checks and the dump annotations share, `print.rs` prints through the [`Printer`] sink,
//! `check.rs` makes the findings, and [`asm`] reads the listing back into the words.
//!
//! # What this module gives
//!
//! | function | what |
//! |---|---|
//! | [`write_listing`] | Mesa's listing through any [`Printer`]: one line per instruction, `@` and its word offset in six columns, the units' texts joined by `, `, then `, sync` and `, stop`; every line started with the absolute offset of the instruction, every token styled, each unit's text one operand; `--offsets` and `--raw` columns from [`DisasmOptions`]; a `; …` line after an instruction that cannot be read as it says, and the first such problem as the `Err` once the rest is written |
//! | [`records`], [`each_record`] | the same instructions as [`InstructionRecord`]s: the words, the text, each unit's text as an operand; no mnemonic (an instruction is up to twelve operations) |
//! | [`problems`] | what cannot be read, as errors at absolute offsets |
//! | [`annotate`] | the `dump` annotations: each instruction a section titled with its text, the control word a field, each unit's field a field with its text, the padding after the last |
//! | [`check`] | [`problems`] as error findings; `next_count` that is not the next instruction's count, a program whose last instruction has no `stop`, undefined control bits, opcodes Mesa does not name and branch targets between instructions as warnings |
//! | [`asm::assemble`] | the listing back to the program's words |
//!
//! ```
//! use shaderscope::isa::mali_pp;
//! use shaderscope::print::TextBuf;
//! use shaderscope::DisasmOptions;
//!
//! // The clear shader of limare (open-gpu-tools): `gl_FragColor = vec4(1.0)`, a vec4 add
//! // unit moving const0 to $0, with const0 itself, and stop.
//! let words = [0x0002_1025u32, 0x0000_0e4c, 0x03c0_07cf, 0x03c0_03c0, 0x0000_03c0];
//! let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let mut text = TextBuf::default();
//! mali_pp::write_listing(&code, 0x40, &DisasmOptions::default(), &mut text)?;
//! assert_eq!(
//!     text.as_str(),
//!     "@     0: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n"
//! );
//! let records = mali_pp::records(&code, 0x40);
//! assert_eq!(records[0].operands, ["mov.v1 $0 ^const0", "const0 1.000000 1.000000 1.000000 1.000000"]);
//! assert!(mali_pp::problems(&code, 0x40).is_empty());
//! # Ok::<(), shaderscope::Error>(())
//! ```
//!
//! # Mesa's text, quirks included
//!
//! Every unit prints as Mesa 22.3.6 prints it, spaces included, so that its listings are
//! found line for line in ours: the scalar destination's trailing space (`rcp.s2 $0.y  $1.w `:
//! the destination's space, the separator's, and the one after the source), the vector
//! multiplier's space after its last source (`mov.v0 $0 ^texture `), a lone `.` for an empty
//! write mask, `load..u1` for an undefined uniform source, `%f` constants as glibc prints them
//! (`0.150391`, `inf`, `-nan`), `, stop` after an instruction with no unit, the branch target
//! as `target + offset` in 32-bit arithmetic; undefined opcodes print as `opN`.
//!
//! What Mesa's text leaves out of an instruction shows after it, and only where it is not
//! what the assembler writes for it ([`asm`]: the compilers' values, or what follows from the
//! program): `, count=0`, `, next_count=9`, `, prefetch=1`, `, unknown=3`, `, words=3`, and a
//! unit's whole field, `, varying=0xf0023c60`. No corpus program shows any.
//!
//! One difference, on purpose: Mesa's combiner table names opcodes 0–9 only and indexes it
//! with the 4-bit opcode, so for 10–15 it reads past the table (undefined behaviour: its
//! build here printed the names of the next table, `add`, `fract`…); here they print as
//! `op10`…`op15`, as every other undefined opcode does. Checked by compiling Mesa 22.3.6's
//! `disasm.c` outside the project and listing 50,000 random instructions (every unit, every
//! opcode, exact and padded counts) with both: the lines are identical but for that case.
//!
//! # Damaged programs
//!
//! Mesa goes on by each control word's `count`: a count of 0 loops forever, and a count
//! larger than the words left, or smaller than the fields take, reads past the instruction
//! (and past the buffer). Here a count that is not the length the present fields give (their
//! sizes rounded up to words, plus the control word) is a problem, and the walk goes on by
//! the count where the fields fit in it and it fits in the program (the words after the
//! fields are then padding, as the hardware and Mesa take them), else by the fields' length
//! (a count of 0, one past the end, one the fields overflow); the listing then goes on from
//! the next instruction. An instruction whose fields reach past the end lists the units that
//! fit and ends the listing with a problem (as does a last word cut short). A
//! branch whose target is outside the program is a problem too.

pub mod asm;
mod check;
pub mod decode;
pub mod encode;
mod opcodes;
mod print;
mod walk;

pub use decode::{
    Branch, Combine, Ctrl, FloatAlu, Instruction, Sampler, TempWrite, Uniform, Unit, Varying, Vec4Alu,
};

use crate::error::{Error, Result};
use crate::isa::InstructionRecord;
use crate::model::{DisasmOptions, Finding};
use crate::print::Printer;

/// Write the listing of the program `code`, whose first byte is at absolute offset `base`,
/// to `out` (see the [module documentation](self)). `opts.offsets` or `opts.file_offsets`
/// starts each line with the absolute offset of the instruction; `opts.raw` with its words.
/// Every problem shows as a `; …` line where it is found and the listing goes on; the first
/// one is the `Err` (the text stays in `out`).
pub fn write_listing<P: Printer + ?Sized>(
    code: &[u8],
    base: u64,
    opts: &DisasmOptions,
    out: &mut P,
) -> Result<()> {
    // Six words, and longer instructions push the text on.
    let columns = super::columns::Columns::new(opts, 6);
    crate::isa::walk::write_listing(out, columns, base, "Mali PP listing", |v| walk::walk(code, base, v))
}

/// Every instruction of the program as an [`InstructionRecord`]: its words, its text as the
/// listing prints it after `@N: `, and each unit's text as an operand ([`each_record`]'s
/// records collected).
pub fn records(code: &[u8], base: u64) -> Vec<InstructionRecord> {
    let mut out = Vec::new();
    each_record(code, base, |r| out.push(r));
    out
}

/// Each instruction's [`InstructionRecord`] (as [`records`] gives them), handed to `f` as it
/// is made, in program order.
pub fn each_record(code: &[u8], base: u64, f: impl FnMut(InstructionRecord)) {
    walk::walk(code, base, &mut crate::isa::walk::Records::new(f));
}

crate::isa::code_instruction_set! {
    /// Mali PP code: variable-length instructions from the first byte, as an
    /// [`InstructionSet`](crate::isa::InstructionSet).
    MaliPp
}

/// Every instruction of the program as read, in order (the units' field bits, the control
/// word, the offsets).
pub fn instructions(code: &[u8], base: u64) -> Vec<Instruction> {
    struct Collect(Vec<Instruction>);
    impl crate::isa::walk::Visit<walk::Step<'_>> for Collect {
        fn step(&mut self, step: walk::Step<'_>) {
            self.0.push(*step.inst);
        }
        fn problem(&mut self, _error: Error) {}
    }
    let mut v = Collect(Vec::new());
    walk::walk(code, base, &mut v);
    v.0
}

/// What cannot be read, in listing order, each at its absolute offset.
pub fn problems(code: &[u8], base: u64) -> Vec<Error> {
    let mut v = crate::isa::walk::Problems::default();
    walk::walk(code, base, &mut v);
    v.0
}

/// The `dump` annotations of the program: each instruction a section titled with its
/// listing text, its control word and each unit's field as fields, the padding after the
/// fields; the problems as errors; bytes no instruction covers (a word cut short at the end,
/// what follows an instruction cut short) as a fallback.
pub fn annotate(code: &[u8], base: u64, a: &mut crate::dump::Annotations) {
    a.fallback(base, code.len() as u64, "Mali PP code (no instruction covers it)");
    walk::walk(code, base, &mut crate::isa::walk::Annotate::new(a));
}

/// [`problems`] as error findings, and what is suspicious as warnings (see the
/// [module documentation](self)), in offset order.
pub fn check(code: &[u8], base: u64) -> Vec<Finding> {
    let mut v = check::Check::default();
    walk::walk(code, base, &mut v);
    v.finish()
}

#[cfg(test)]
mod tests;
