//! AMD R600/R700 microcode, as the Wii U's "Latte" GPU runs it (GX2 vertex, pixel and
//! geometry shaders), listed the way decaf-emu's disassembler prints it.
//!
//! # The program
//!
//! A program is 32-bit little-endian words (the bytes the GPU reads, as a GFD `.gsh` program
//! block and a SHARCFB binary store them, unswapped). It starts with the control-flow (CF)
//! program: 64-bit instructions from offset 0 ([`cf`]) up to the one with `END_OF_PROGRAM`.
//! Clauses sit after it and are addressed in 64-bit units: ALU clauses of VLIW groups
//! ([`alu`]: one to five 64-bit instructions for the units x, y, z, w and t, then up to four
//! literal words padded to a whole slot), texture clauses ([`tex`]) and vertex-fetch clauses
//! ([`vtx`]) of 128-bit instructions. The tables of every CF, ALU (OP2 and OP3), TEX and VTX
//! opcode of R700 are in [`opcodes`].
//!
//! # What this module gives
//!
//! | function | what |
//! |---|---|
//! | [`write_listing`] | decaf's listing through any [`Printer`]: every line started with the absolute offset of the words it shows, every token styled, every operand marked; `--offsets` and `--raw` columns from [`DisasmOptions`]; lines `; …` where the program cannot be read, and the first such problem as the `Err` once the rest is written |
//! | [`records`], [`each_record`] | the same instructions as [`InstructionRecord`]s (one per CF instruction, ALU instruction and fetch), printed by the same per-instruction printers |
//! | [`instructions`] | each instruction as read ([`Instruction`]: a control-flow instruction, an ALU group with its literals, a fetch) with its offset; [`Instruction::encode`] gives its words back |
//! | [`usage`] | a [`Usage`]: registers read and written, exports by type, resources, constant buffers, loops, `CALL_FS` — what a container's `validate` compares with `SQ_PGM_RESOURCES_*`, `SPI_VS_OUT_CONFIG`, `SQ_PGM_EXPORTS_PS` |
//! | [`problems`] | what cannot be read, as errors at absolute offsets (a clause past the end, a group without `LAST`, a unit given twice, no `END_OF_PROGRAM`) |
//! | [`annotate`] | the `dump` annotations: every instruction and literal pair a field with its listing text, each clause a section |
//! | [`check`] | [`problems`] as error findings, and undefined values (opcodes, bank swizzles, `PRED_SEL`, source selects) as warnings |
//!
//! The caller (a container, or `disasm --format latte` for bare microcode) hands over the
//! program's bytes and the absolute offset of the first; nothing here knows a container.
//!
//! ```
//! use shaderscope::isa::latte;
//! use shaderscope::print::TextBuf;
//! use shaderscope::DisasmOptions;
//!
//! // ALU clause at slot 2 (four MOVs from the constant file), then EXP_DONE with
//! // END_OF_PROGRAM: the pixel shader of MultiDRCSpaceDemo's colorShader, clause moved. Its
//! // MOVs read R0.x as their unused second source, where AMD's compiler writes 0.0: the
//! // listing says so, for the assembler.
//! let words = [
//!     0x0000_0002u32, 0xA00C_0000, 0x0000_0000, 0x9420_0688, // CF
//!     0x0000_0100, 0x0000_0C90, 0x0000_0500, 0x2000_0C90, // ALU clause
//!     0x0000_0900, 0x4000_0C90, 0x8000_0D00, 0x6000_0C90,
//! ];
//! let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let mut text = TextBuf::default();
//! latte::write_listing(&code, 0x100, &DisasmOptions::default(), &mut text)?;
//! assert_eq!(
//!     text.as_str(),
//!     "00 ALU: ADDR(2) CNT(4)\n\
//!      \x20 0   x: MOV             R0.x, C0.x ; SRC1_SEL(0)\n\
//!      \x20     y: MOV             R0.y, C0.y ; SRC1_SEL(0)\n\
//!      \x20     z: MOV             R0.z, C0.z ; SRC1_SEL(0)\n\
//!      \x20     w: MOV             R0.w, C0.w ; SRC1_SEL(0)\n\
//!      \n\
//!      01 EXP_DONE: PIX0, R0.xyzw\n\
//!      \n\
//!      END_OF_PROGRAM\n"
//! );
//! let records = latte::records(&code, 0x100);
//! assert_eq!((records[1].offset, records[1].mnemonic.as_str()), (0x110, "MOV"));
//! assert_eq!(records[1].operands, ["R0.x", "C0.x"]);
//! let usage = latte::usage(&code, 0x100);
//! assert_eq!(usage.gprs_written.max(), Some(0));
//! assert_eq!(usage.exports.pixels.iter().collect::<Vec<_>>(), [0]);
//! assert!(latte::problems(&code, 0x100).is_empty());
//! # Ok::<(), shaderscope::Error>(())
//! ```
//!
//! # decaf's layout
//!
//! Each CF instruction is a line `NN NAME…` (its number, two digits), indented two spaces per
//! open loop and followed by a blank line; an ALU clause's groups follow their CF line, each
//! numbered (`{:<3}`, one count over the whole program that TEX and VTX instructions advance
//! too), one line per instruction with its unit (`x:` … `t:`), the name left-aligned in 15
//! columns; PV and PS name the group before (`PV3.x`, `PS3`); a literal prints as its bits
//! and its value (`(0x3F800000, 1)`, the value as {fmt} writes a float:
//! [`float::write_f32_shortest`](crate::print::float::write_f32_shortest)); each fetch of a
//! TEX or VTX clause is a numbered line after a blank one; the program ends with a blank line
//! and `END_OF_PROGRAM`.
//!
//! # Where this listing and decaf differ, and why
//!
//! decaf-emu's tables mix R600, R700 and Evergreen. Where decaf disagrees with AMD's
//! "R700-Family Instruction Set Architecture" (and the R6xx/R7xx register headers AMD
//! published with the X.org driver, `r600_reg_r7xx.h`; Mesa's r600 `r600_isa.h` gives the
//! per-generation source counts and slots), this module follows the document unless the
//! corpus listings print decaf's form:
//!
//! | what | decaf | here | evidence |
//! |---|---|---|---|
//! | `NOT_INT` sources | two | two (decaf) | one in the ISA (Mesa `r600_isa.h`: 1); the corpus prints `NOT_INT R126.y, R1.z, 0.0f` 119 times, so decaf's form is kept |
//! | bank swizzle of a t-unit instruction whose operation can also run in x–w (`t: MULADD … VEC_021`) | named after the operation (`VEC_*`) | decaf's | the t unit reads the field as `SQ_ALU_SCL_*` (`SCL_122` for 1); the corpus prints `VEC_021` on t lines |
//! | `PRED_SET_INV`, `PRED_SET_RESTORE` / `PRED_SET_CLR` / `MAX4` sources | two | one / none / one | Mesa `r600_isa.h` src counts; not in the corpus |
//! | OP2 0x54–0x5C (`GROUP_BARRIER` … `MULHI_INT24`), OP3 4–7 (`BFE_UINT`, `BFE_INT`, `BFI_INT`, `FMA`) | named | `OP2_INST(84)`, `OP3_INST(4)`, every source of the encoding shown | Evergreen operations (Mesa: opcode −1 for r6xx/r7xx); not in the corpus |
//! | `MOVA_GPR_INT` (OP2 0x60) | two sources, vector units | one source, t only | R600's operation (Mesa: r6xx `AF_S`, one source; none on r7xx); not in the corpus |
//! | source selects 219–243 (`LDS_OQ_A` … `PRIM_MASK_LO`) | named | `UNKNOWN(219)` | Evergreen values; R700 defines 244–255 (`r600_reg_r7xx.h`: `ALU_SRC_1_DBL_L` = 0xF4 …) |
//! | `INDEX_MODE` 5, 6 | `[UNKNOWN]` | `[GLOBAL]`, `[GLOBAL+AR.x]` | `R7xx_SQ_INDEX_GLOBAL` = 5, `R7xx_SQ_INDEX_GLOBAL_AR_X` = 6 |
//! | `POP_JUMP` | no `ADDR(…)` | ` ADDR(n)` | it pops, then jumps to `ADDR` like `JUMP`; not in the corpus |
//! | `ALT_CONST` of an ALU clause (`SQ_CF_ALU_WORD1` bit 25) | not shown | ` ALT_CONST` | `R7xx_SQ_CF_ALU_WORD1__ALT_CONST_bit` |
//! | `WAIT_ACK`, `TEX_ACK`, `VTX_ACK`, `VTX_TC_ACK` | aborts | listed (the `_ACK` clauses like TEX and VTX) | `R7xx_SQ_CF_INST_WAIT_ACK` = 0x1A … |
//!
//! Where decaf aborts or prints garbage on values no valid program has, this module prints
//! them plainly and reports them: an undefined bank swizzle (` BANK_SWIZZLE(6)`), `PRED_SEL` 1
//! (` PRED_SEL(1)`), an undefined CF instruction (`UNKNOWN(0x1E)`), two instructions of a
//! group in one unit (listed; a problem), `PV` in a program's first group (`PV-1`), a
//! position export below slot 60 (`POS-3`), a `LOOP_END` with no loop open.
//!
//! # Damaged programs
//!
//! decaf reads clauses wherever their addresses point and walks the control flow until
//! `END_OF_PROGRAM`. Here every read is bounded by the bytes: a clause that starts past the
//! end, or reaches past it, lists what is there and is reported; a group is cut at its
//! clause's end; the control flow stops at the first clause start it reaches (a fetch shader
//! ending in `RETURN` there is no problem) or at the end of the bytes; and once clauses have
//! read as many bytes as the program has (valid clauses do not overlap) no further clause is
//! expanded, so a listing stays proportional to its input.

pub mod alu;
pub mod asm;
pub mod cf;
mod check;
pub mod decode;
pub mod encode;
pub mod opcodes;
mod print;
pub mod tex;
mod usage;
pub mod vtx;
mod walk;

pub use alu::{Alu, Group, Source, assign_units};
pub use cf::{Cf, CfKind, ClauseKind};
pub use decode::{Instruction, Kind};
pub use opcodes::{AluOp, Units};
pub use tex::Tex;
pub use usage::{Exports, IdSet, Usage};
pub use vtx::Vtx;

use crate::error::{Error, Result};
use crate::isa::InstructionRecord;
use crate::model::{DisasmOptions, Finding};
use crate::print::Printer;

/// Write the listing of the program `code`, whose first byte is at absolute offset `base`,
/// to `out` (see the [module documentation](self)). `opts.offsets` or `opts.file_offsets`
/// starts each line with the absolute offset of the words it shows; `opts.raw` with the
/// words. Every problem shows as a `; …` line where it is found and the listing goes on;
/// the first one is the `Err` (the text stays in `out`).
pub fn write_listing<P: Printer + ?Sized>(
    code: &[u8],
    base: u64,
    opts: &DisasmOptions,
    out: &mut P,
) -> Result<()> {
    // Four words: a fetch instruction.
    let columns = super::columns::Columns::new(opts, 4);
    // What no instruction shows goes first: a walk finds it.
    let mut rest = walk::Rest::default();
    walk::walk(code, base, &mut rest);
    crate::isa::walk::write_listing(out, columns, base, "Latte listing", |v| {
        use crate::isa::walk::Visit;
        v.step(walk::Step::Rest { code, gaps: &rest.gaps, padding: rest.padding, head: true });
        walk::walk(code, base, v)
    })
}

/// Every instruction of the program as an [`InstructionRecord`]: one per CF instruction
/// (two words), ALU instruction (two words; its text starts with its unit, `x: MOV …`) and
/// fetch (four words), in listing order, printed by the listing's printer ([`each_record`]'s
/// records collected).
pub fn records(code: &[u8], base: u64) -> Vec<InstructionRecord> {
    let mut out = Vec::new();
    each_record(code, base, |r| out.push(r));
    out
}

/// Each instruction's [`InstructionRecord`] (as [`records`] gives them), handed to `f` as it
/// is made, in listing order.
pub fn each_record(code: &[u8], base: u64, f: impl FnMut(InstructionRecord)) {
    walk::walk(code, base, &mut crate::isa::walk::Records::new(f));
}

crate::isa::code_instruction_set! {
    /// Latte microcode as an [`InstructionSet`](crate::isa::InstructionSet): control flow from
    /// the first byte.
    Latte
}

/// Every instruction of the program as read ([`Instruction`]: a control-flow instruction,
/// an ALU group, a fetch, each with its absolute offset), in listing order; each encodes back
/// to the words it was read from ([`Instruction::encode`]).
pub fn instructions(code: &[u8], base: u64) -> Vec<Instruction> {
    let mut v = decode::Collect::default();
    walk::walk(code, base, &mut v);
    v.0
}

/// What the program uses (registers, exports, resources, constants, loops).
pub fn usage(code: &[u8], base: u64) -> Usage {
    let mut v = usage::UsageVisitor::default();
    walk::walk(code, base, &mut v);
    v.usage
}

/// What cannot be read, in listing order, each at its absolute offset.
pub fn problems(code: &[u8], base: u64) -> Vec<Error> {
    let mut v = crate::isa::walk::Problems::default();
    walk::walk(code, base, &mut v);
    v.0
}

/// The `dump` annotations of the program: each control-flow instruction, ALU instruction,
/// literal pair and fetch as a field with its listing text (`CF 01: ALU: ADDR(32) CNT(14)`,
/// `ALU group 0 x: MUL ____, (0x3F800000, 1), C3.x`), each clause as a section, the rest of
/// the bytes (padding no instruction reaches) as a fallback, the problems as errors.
pub fn annotate(code: &[u8], base: u64, a: &mut crate::dump::Annotations) {
    a.fallback(base, code.len() as u64, "Latte microcode (no instruction reaches it: padding)");
    walk::walk(code, base, &mut crate::isa::walk::Annotate::new(a));
}

/// [`problems`] as error findings, and values the R700 document leaves undefined as
/// warnings.
pub fn check(code: &[u8], base: u64) -> Vec<Finding> {
    let mut v = check::CheckVisitor::default();
    walk::walk(code, base, &mut v);
    v.findings
}

#[cfg(test)]
mod tests;
