//! Direct3D 10/11/12 shader model 4.0 – 5.1 token programs (the SHDR/SHEX chunk of a DXBC
//! container): decoding and fxc-exact program text.
//!
//! ```no_run
//! use shaderscope::isa::sm4::{ListingStyle, Program, write_listing};
//! # fn f(shex_data: &[u8], shex_data_offset: u64, creator: Option<&str>) -> shaderscope::Result<()> {
//! let program = Program::parse(shex_data, shex_data_offset)?;
//! let mut text = String::new();
//! let report = write_listing(&program, &ListingStyle::for_creator(creator), &mut text)?;
//! assert!(report.unknown_opcodes.is_empty());
//! # Ok(()) }
//! ```
//!
//! The opcode table in [`opcodes`] is the single source of truth for decoding and printing.

pub mod decode;
pub mod info;
pub mod listing;
pub mod names;
pub mod numfmt;
pub mod opcodes;
pub mod validate;

pub use decode::{
    Components, Extended, Index, Instruction, Instructions, Modifier, Operand, OperandType, Operands,
    Program, ProgramType, RelOperand, operand_type,
};
pub use info::{Binding, BindingKind, Declarations, IndexableTemp, IoDecl, Phase, PhaseDecls};
pub use listing::{ListingReport, ListingStyle, write_listing};
pub use numfmt::FloatStyle;
pub use opcodes::{Decl, Format, OpInfo, Ty};
pub use validate::validate;
