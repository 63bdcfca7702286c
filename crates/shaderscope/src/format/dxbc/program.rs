//! The program parts of the listing, delegated to the instruction-set modules: the SM4/5
//! token stream (`isa::sm4`, pending: until it lands only the version line is printed) and the
//! Direct3D 9 program of Aon9 ([`crate::isa::d3d9`]).

use super::listing::{ListingOptions, ProgramContext};
use super::{Dxbc, Program};
use crate::error::Result;
use crate::isa::d3d9;
use crate::print::{PlainText, Printer, Style};

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
pub fn level9(_d: &Dxbc<'_>, a: &super::chunks::Aon9<'_>, s: &mut String) {
    let Ok(program) = d3d9::Program::parse(a.program, a.program_position() as u64) else {
        return;
    };
    let mut p = PlainText { out: std::mem::take(s) };
    let _ = d3d9::write_listing(&program, &d3d9::ListingOptions::default(), &mut p);
    *s = p.out;
}

/// Program-level findings: the Aon9 D3D9 program.
pub fn validate(d: &Dxbc<'_>, _p: &Program<'_>) -> Vec<crate::any::Finding> {
    let mut out = Vec::new();
    if let Some(a) = &d.aon9 {
        if let Err(e) = d3d9::Program::parse(a.program, a.program_position() as u64) {
            out.push(crate::any::Finding::error(e.offset(), format!("Aon9 D3D9 program: {e}")));
        }
    }
    out
}
