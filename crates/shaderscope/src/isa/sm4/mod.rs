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
//!   the token stream does not say (which fxc generation disassembled it), and the offsets
//!   and raw words this tool can add.
//! - [`Declarations::collect`] gathers what the program declares (bindings, inputs/outputs,
//!   thread-group size, GS/HS/DS parameters, per-phase registers) for reflection.
//! - [`validate`](mod@validate) reports registers used but not declared, indices outside declared sizes,
//!   unbalanced blocks and unknown opcodes, with offsets.
//!
//! The opcode table in [`opcodes`] is the single source of truth for decoding and printing;
//! the token fields are named in [`decode::field`]. An unknown opcode does not stop anything:
//! it is skipped by the length in its opcode token, reported in
//! [`ListingReport::unknown_opcodes`] and printed as a `//` comment line.
//!
//! How a container prints the program part of its listing:
//!
//! ```no_run
//! use shaderscope::isa::sm4::{ListingStyle, Program, validate, write_listing};
//! use shaderscope::print::TextBuf;
//! # fn f(shex: &[u8], shex_offset: u64) -> shaderscope::Result<()> {
//! // `shex` is the chunk data (after tag and size), `shex_offset` its absolute offset.
//! let program = Program::parse(shex, shex_offset)?;
//! let mut text = TextBuf::default();
//! // The container knows which fxc made the file (DXBC: the RDEF creator string).
//! let style = ListingStyle { offsets: true, ..ListingStyle::FXC_10 };
//! let report = write_listing(&program, &style, &mut text)?;
//! for (offset, opcode) in &report.unknown_opcodes {
//!     eprintln!("warning: unknown opcode {opcode} at offset 0x{offset:x}");
//! }
//! let findings = validate(&program); // Vec<crate::Finding>, empty when fine
//! # let _ = findings; Ok(()) }
//! ```

pub mod decode;
pub mod info;
pub mod listing;
pub mod names;
pub mod numfmt;
pub mod opcodes;
pub mod validate;

pub use crate::print::float::FloatStyle;
pub use decode::{
    Components, Extended, Index, Instruction, Instructions, Modifier, Operand, OperandType, Operands,
    Program, RelOperand, operand_type,
};
pub use info::{Binding, BindingKind, Declarations, IndexableTemp, IoDecl, Phase, PhaseDecls};
pub use listing::{ListingReport, ListingStyle, each_record, records, write_listing};
pub use opcodes::{Decl, Format, OpInfo, Ty};
pub use validate::validate;
