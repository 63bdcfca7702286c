//! Direct3D 10/11/12 shader model 4.0 – 5.1 token programs (the data of a DXBC container's
//! SHDR or SHEX chunk): decoding, fxc-exact program text, reflection and validation.
//!
//! - [`Program::parse`] reads the version and length tokens; the model comes from the version
//!   token, never from the chunk tag. [`Program::instructions`] then decodes lazily, each
//!   [`Instruction`] borrowing its tokens and knowing its absolute byte offset; its
//!   [`Instruction::operands`] decode on demand.
//! - [`write_listing`] prints the program exactly as fxc's `D3DDisassemble` does, from the
//!   version line to the last instruction, into any [`Printer`](crate::print::Printer): every
//!   token with its kind (mnemonic, register, literal, …), every line with the offset of its
//!   instruction, so plain text, colour and HTML come from the same printer, and so do the
//!   [`records`] of the instructions. [`ListingStyle`] carries what the text depends on but
//!   the token stream does not say (which fxc generation disassembled it), fxc's listing
//!   switches (`/No` offsets, `/Ni` numbering, `/Lx` hexadecimal literals) and what this tool
//!   adds (file offsets, raw words).
//! - `walk.rs` is the one walk over a program: each instruction in order, then the error
//!   where the stream stops. The listing, the records, [`validate`] and [`check()`] are its
//!   visitors; [`check()`] decodes every part of every instruction as the printer does and
//!   gives the error the listing would stop at, without printing.
//! - [`Declarations::collect`] gathers what the program declares (bindings, inputs/outputs,
//!   thread-group size, GS/HS/DS parameters, per-phase registers) for reflection.
//! - [`validate`](mod@check) reports registers used but not declared, indices outside declared sizes,
//!   unbalanced blocks and unknown opcodes, with offsets.
//!
//! The opcode table in [`opcodes`] is the single source of truth for decoding and printing;
//! the token fields are named in [`decode::field`]. An unknown opcode does not stop anything:
//! it is skipped by the length in its opcode token, reported in
//! [`ListingReport::unknown_opcodes`] and printed as a `//` comment line.
//!
//! How a container prints the program part of its listing, here on a hand-made pixel shader
//! with an opcode the format does not define:
//!
//! ```
//! use shaderscope::isa::sm4::{ListingStyle, Program, records, validate, write_listing};
//! use shaderscope::print::TextBuf;
//!
//! // The data of an SHDR chunk: the version token (ps_4_0), the length in DWORDs, then each
//! // instruction: an opcode token (opcode in bits 0–10, length in 24–30) and its operands.
//! let words = [
//!     0x0000_0040u32, 16,
//!     0x0300_0065, 0x0010_20f2, 0, // dcl_output o0.xyzw
//!     0x0800_0036, 0x0010_20f2, 0, 0x0000_4002, 0, 0, 0, 0x3f80_0000, // mov o0.xyzw, l(0,0,0,1)
//!     0x0200_00f0, 7, // opcode 240, 2 DWORDs: not defined by the format
//!     0x0100_003e, // ret
//! ];
//! let shdr: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! // The chunk data starts at byte 0x40 of its file: every offset below is absolute.
//! let program = Program::parse(&shdr, 0x40)?;
//!
//! // The container knows which fxc made the file (DXBC: the RDEF creator string).
//! let mut text = TextBuf::default();
//! let report = write_listing(&program, &ListingStyle::FXC_10, &mut text)?;
//! assert_eq!(
//!     text.as_str(),
//!     "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0,0,0,1.000000)\n\
//!      // unknown opcode 240 (2 DWORDs) skipped\nret \n"
//! );
//! assert_eq!(report.unknown_opcodes, [(0x74, 240)]);
//!
//! // The same printer gives each instruction as a record.
//! let mov = &records(&program, &ListingStyle::FXC_10)?[1];
//! assert_eq!((mov.offset, mov.mnemonic.as_str(), mov.operands.len()), (0x54, "mov", 2));
//!
//! let findings = validate(&program);
//! assert_eq!(findings.len(), 1);
//! assert_eq!(findings[0].offset, 0x74);
//! assert_eq!(findings[0].message, "unknown opcode 240 (2 DWORDs skipped)");
//! # Ok::<(), shaderscope::Error>(())
//! ```

//! ## What fxc's text cannot carry
//!
//! fxc's text has no place for a few things that fxc never writes but other compilers may:
//! opcode-token control bits (bits 11–23) that no suffix or value of the line shows (fxc's
//! text shows `_sat`, `_nz`/`_z`, `[precise(…)]`, `_uint`/`_rcpFloat`, `sync`'s flags and each
//! declaration's named values: [`OpInfo::shown_controls`]), and DWORDs after an instruction's
//! operands other than fxc's (none; a zero after the `sample*_s` feedback samples and after
//! `samplepos` of a texture: [`OpInfo::trailing_zero`]). The listing shows them in an
//! end-of-line comment that the assembler ([`asm::parse_program`]) reads back, so that such a
//! program, too, comes back from its text token for token:
//!
//! - `  // trailing 0x00000005`: the DWORDs after the operands, in hexadecimal (several are
//!   separated by spaces); `  // trailing none` where fxc's zero is absent;
//! - `  // opcode bits 0x00004000`: the control bits the text does not show, as they stand in
//!   the opcode token (the assembler sets them beside those the text gives);
//! - both: `  // opcode bits 0x00004000, trailing 0x00000005`.
//!
//! Where the tokens are fxc's there is no such comment: fxc's programs list as fxc lists them.
//! `--raw`'s words follow it after a second `//`.
//!
//! ```
//! use shaderscope::isa::sm4::{ListingStyle, Program, asm, write_listing};
//! use shaderscope::print::TextBuf;
//!
//! // ps_5_0: `sample_l_s` with 5 where fxc writes its zero, then `ret` with bit 14 set.
//! let sample = asm::parse_line("sample_l_s r0.xyzw, r1.x, v0.xyxx, t0.xyzw, s0, l(0.000000)", false)?;
//! let mut words = vec![0x50, 0];
//! sample.encode(&mut words).unwrap();
//! *words.last_mut().unwrap() = 5;
//! words.push(0x0100_403e);
//! words[1] = words.len() as u32;
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let mut text = TextBuf::default();
//! write_listing(&Program::parse(&bytes, 0).unwrap(), &ListingStyle::FXC_10, &mut text).unwrap();
//! assert_eq!(
//!     text.as_str(),
//!     "ps_5_0\n\
//!      sample_l_s r0.xyzw, r1.x, v0.xyxx, t0.xyzw, s0, l(0.000000)  // trailing 0x00000005\n\
//!      ret   // opcode bits 0x00004000\n"
//! );
//! assert_eq!(asm::parse_program(text.as_str()).unwrap(), words);
//! # Ok::<(), shaderscope::asm::text::Syntax>(())
//! ```

pub mod asm;
pub mod check;
pub mod decode;
pub mod encode;
pub mod info;
pub mod names;
pub mod numfmt;
pub mod opcodes;
pub mod print;
#[cfg(test)]
mod tests;
mod walk;

pub use crate::print::float::FloatStyle;
pub use check::validate;
pub use decode::{
    Components, Extended, Index, Instruction, Instructions, Modifier, Operand, OperandType, Operands,
    Program, RelOperand, operand_type,
};
pub use info::{Binding, BindingKind, Declarations, IndexableTemp, IoDecl, Phase, PhaseDecls};
pub use opcodes::{Decl, Format, OpInfo, Ty};
pub use print::{ListingReport, ListingStyle, each_record, records, write_listing};
pub use walk::check;

use crate::isa::{Code, InstructionRecord};
use crate::model::{DisasmOptions, Generation};

/// SM4/5 token streams (version token, length token, instructions) as an
/// [`InstructionSet`](crate::isa::InstructionSet), printed as the fxc generation `opts` names:
/// fxc 10, the disassembler that still ships, when none is (nothing in a bare program says).
#[derive(Debug, Clone, Copy)]
pub struct Sm4;

impl Sm4 {
    /// The printer's settings for a bare program under `opts`.
    fn style(opts: &DisasmOptions) -> ListingStyle {
        ListingStyle::of(opts.generation.unwrap_or(Generation::Fxc10), opts)
    }
}

impl crate::isa::InstructionSet for Sm4 {
    fn write_listing(
        &self,
        code: &Code<'_>,
        opts: &DisasmOptions,
        out: &mut dyn crate::print::Printer,
    ) -> crate::Result<()> {
        let program = Program::parse(code.bytes, code.base)?;
        write_listing(&program, &Sm4::style(opts), out).map(|_| ())
    }
    fn each_record(
        &self,
        code: &Code<'_>,
        opts: &DisasmOptions,
        f: &mut dyn FnMut(InstructionRecord),
    ) -> crate::Result<()> {
        let program = Program::parse(code.bytes, code.base)?;
        each_record(&program, &Sm4::style(opts), |_, r| r.into_iter().for_each(&mut *f))?;
        Ok(())
    }
}
