//! ARM Mali Utgard GP (the vertex processor of the Mali-200/300/400/450), listed the way
//! Mesa's lima disassembler (`gpir_disassemble_program`, `src/gallium/drivers/lima/ir/gp/
//! disasm.c`) prints it.
//!
//! # The program
//!
//! A GP program (the payload of a vertex shader's `DBIN` chunk in an MBS file) is a run of
//! 128-bit VLIW instructions, four little-endian words each, with no header. Every
//! instruction drives six scalar units at once: two adders (`acc`), two multipliers (`mul`),
//! the complex unit (reciprocal, square root, exponent, logarithm, address registers) and the
//! pass unit, plus a load port (uniforms and temporaries), two register read ports
//! (attributes or registers), two store slots of two components each and a conditional
//! branch. No unit names a destination: a result is read by the next instruction or the
//! one after through the source mux, or stored. The fields are those of Mesa's
//! `gpir_codegen_instr` ([`decode`]), the operation and source names those of its enums.
//!
//! # What this module gives
//!
//! | function | what |
//! |---|---|
//! | [`write_listing`] | Mesa's listing through any [`Printer`]: every line started with the absolute offset of its instruction, every token styled, every operand marked; `--offsets` and `--raw` columns from [`DisasmOptions`]; a line `; …` where a problem is found, and the first problem as the `Err` once the rest is written |
//! | [`records`], [`each_record`] | one [`InstructionRecord`] per unit line (`mul.m0 ^2/$2.y t[1].w a0.y`; a `nop` instruction gives one `nop`), each with its instruction's offset and four words, printed by the listing's printer |
//! | [`problems`] | what cannot be read, as errors at absolute offsets: bytes after the last whole instruction, a branch past the end |
//! | [`annotate`] | the `dump` annotations: each instruction a field with its text |
//! | [`check`] | the problems as error findings; as warnings, values Mesa's tables leave undefined |
//!
//! ```
//! use shaderscope::isa::mali_gp;
//! use shaderscope::print::TextBuf;
//! use shaderscope::DisasmOptions;
//!
//! // The first instruction of lima-memtester's libMali vertex shader: two multiplies of
//! // uniforms by attribute 0, stored to register 2.
//! let code = [0xad40_b42f_u32, 0x4380_42b5, 0x0807_e980, 0x000a_d500]
//!     .iter()
//!     .flat_map(|w| w.to_le_bytes())
//!     .collect::<Vec<u8>>();
//! let mut text = TextBuf::default();
//! mali_gp::write_listing(&code, 0x100, &DisasmOptions::default(), &mut text)?;
//! assert_eq!(text.as_str(), "000:\tmul.m0 ^2/$2.y t[1].w a0.y\n\tmul.m1 ^3/$2.x t[1].y a0.y\n");
//! let records = mali_gp::records(&code, 0x100);
//! assert_eq!((records[1].offset, records[1].mnemonic.as_str()), (0x100, "mul.m1"));
//! assert_eq!(records[1].operands, ["^3/$2.x", "t[1].y", "a0.y"]);
//! assert!(mali_gp::problems(&code, 0x100).is_empty());
//! # Ok::<(), shaderscope::Error>(())
//! ```
//!
//! # Mesa's text
//!
//! Each instruction starts a line with its index (`%03d:`); each unit it uses then writes a
//! tab, its text and a line break, in the order adder 0, adder 1, multiplier 0, multiplier 1
//! (or one operation of both, `.m01`), complex, pass, then `branch ^K NNN` and
//! `unknown_1 N` (a field Mesa does not know, when not 0); an instruction with none of
//! these is `nop`. A unit's text is its operation and unit (`add.a0`, `mov.m1`, `rcp.c`,
//! `clamp.p`), its result `^K` (K = 6 × instruction + unit: acc0, acc1, mul0, mul1, pass,
//! complex) with the stores that take it (`/$N.xy` a register, `/vN.zw` a varying,
//! `/t[addr0].x` a temporary; `/addrN` when the complex unit sets an address register),
//! then its sources (`aN.c` attribute, `$N.c` register, `t[N+addrK].c` the load unit,
//! `^K` a result of one or two instructions back, `0`/`1` the identity, a `-` before a
//! negated one). This module prints the same text byte for byte, Mesa's quirks included:
//!
//! - A result from before the program (instruction 0 reading the previous instruction's,
//!   or 0 and 1 reading two back) is numbered below 0, as Mesa's unsigned arithmetic
//!   printed with `%d` gives: `^-6`. [`check`] warns.
//! - A complex unit with a source and the `nop` operation: Mesa writes its tab and nothing
//!   more, so the next text continues that line (`\t\tmov.p …`, `\t\tnop`, or the next
//!   instruction's `\t001:` when nothing follows).
//! - An undefined operation prints as `opN.a0`, `unknownN.m01`, `unkN.c`, `unkN.p`, an
//!   undefined load offset as `+unkN`, the undefined sources 8–11 as `unknownN`.
//!
//! # Where this listing and Mesa differ, and why
//!
//! | what | Mesa | here |
//! |---|---|---|
//! | instruction 0 reading the register-0 port of the previous instruction (sources 28–31) | reads the 16 bytes before its array (whatever precedes the code in memory) | `none.x` … `none.w`, then a problem: there is no previous instruction |
//! | an instruction reading a result of one or two instructions before the start (`^-5`) | prints the negative value number | the same, then a problem `; invalid Mali GP instruction at offset …: instruction NNN: source S reads a result of the previous instruction, which is before the start of the program`; the listing goes on |
//! | a branch past the end of the program | printed | printed, then a problem `; Mali GP branch at offset …: instruction NNN branches to instruction TTT (offset …), past the end of the program (N instructions)`. The target is an absolute index (`branch_target`, plus 0x100 unless `branch_target_lo`), so it can never be before the start; a branch to index N, the end of the program, is not a problem |
//! | fields Mesa's text does not carry (an idle unit's sources, an unused port's register, which of two encodings that print alike) | not printed | after the program, a line `; fields NNN: name=value …` per instruction whose text [`asm`] reads back as other bits: the fields that differ, by their `gpir_codegen_instr` names; so every instruction's listing assembles back to its bits and Mesa's lines stay together |
//! | bytes after the last whole instruction | not read (`lima_disasm` takes size / 16 instructions) | a problem at the offset of the first such byte (`; truncated Mali GP instruction at offset … (need 16 bytes, have N)`); the whole instructions are listed |

pub mod asm;
mod check;
pub mod decode;
pub mod encode;
mod opcodes;
mod print;
mod walk;

pub use decode::Instr;

use crate::error::{Error, Result};
use crate::isa::InstructionRecord;
use crate::model::{DisasmOptions, Finding};
use crate::print::Printer;

/// Write the listing of the program `code`, whose first byte is at absolute offset `base`,
/// to `out` (see the [module documentation](self)). `opts.offsets` or `opts.file_offsets`
/// starts each line with the absolute offset of its instruction; `opts.raw` the first line
/// of each instruction with its four words. Every problem shows as a `; …` line where it
/// is found and the listing goes on; the first one is the `Err` (the text stays in `out`).
pub fn write_listing<P: Printer + ?Sized>(
    code: &[u8],
    base: u64,
    opts: &DisasmOptions,
    out: &mut P,
) -> Result<()> {
    let columns = super::columns::Columns::new(opts, 4);
    crate::isa::walk::write_listing(out, columns, base, "Mali GP listing", |v| {
        walk::walk(code, base, v);
        walk::fields(code, base, v);
    })
}

/// Every unit line of the program as an [`InstructionRecord`] (see the
/// [module documentation](self)), in listing order: [`each_record`]'s records collected.
pub fn records(code: &[u8], base: u64) -> Vec<InstructionRecord> {
    let mut out = Vec::new();
    each_record(code, base, |r| out.push(r));
    out
}

/// Each unit line's [`InstructionRecord`], handed to `f` as it is made, in listing order: a
/// program's records need not be held together (a `disasm --json` record is written one
/// instruction at a time).
pub fn each_record(code: &[u8], base: u64, f: impl FnMut(InstructionRecord)) {
    walk::walk(code, base, &mut crate::isa::walk::Records::new(f));
}

crate::isa::code_instruction_set! {
    /// Mali GP code: 128-bit instructions from the first byte, as an
    /// [`InstructionSet`](crate::isa::InstructionSet).
    MaliGp
}

/// What cannot be read, in listing order, each at its absolute offset.
pub fn problems(code: &[u8], base: u64) -> Vec<Error> {
    let mut v = crate::isa::walk::Problems::default();
    walk::walk(code, base, &mut v);
    v.0
}

/// The `dump` annotations of the program: each instruction a 16-byte field with its text
/// (`000: mul.m0 ^2/$2.y t[1].w a0.y; mul.m1 ^3/$2.x t[1].y a0.y`), bytes after the last
/// whole instruction a field, the problems errors.
pub fn annotate(code: &[u8], base: u64, a: &mut crate::dump::Annotations) {
    walk::walk(code, base, &mut crate::isa::walk::Annotate::new(a));
}

/// [`problems`] as error findings; as warnings, values Mesa's tables leave undefined
/// (`acc_op` 3, `mul_op` 2 and 5–7, complex and pass operations without a name, load
/// offsets 0 and 4–6, sources 8–11, store source 5) and reads of results from before the
/// start of the program.
pub fn check(code: &[u8], base: u64) -> Vec<Finding> {
    let mut v = check::Check::default();
    walk::walk(code, base, &mut v);
    v.findings
}

#[cfg(test)]
mod tests;
