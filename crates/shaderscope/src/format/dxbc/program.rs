//! The program parts of the listing, delegated to the instruction-set modules: the SM4/5
//! token stream ([`crate::isa::sm4`]) and the Direct3D 9 program of Aon9
//! ([`crate::isa::d3d9`]).

use super::{Dxbc, Program};
use crate::error::Result;
use crate::isa::{d3d9, sm4};
use crate::model::Finding;
use crate::print::Printer;

/// Decode the SHDR/SHEX token stream.
pub fn decode<'a>(p: &Program<'a>) -> Result<sm4::Program<'a>> {
    sm4::Program::parse(p.chunk.data, p.chunk.data_offset() as u64)
}

/// Print the SM4/5 program, from the version line to the last instruction, into `out`: each
/// token with its style, each line with its instruction's offset, in the printer settings
/// the listing's context gives ([`super::listing::Context::sm4_style`]). On a decoding error
/// the text decoded so far stays in `out`.
pub fn print<P: Printer + ?Sized>(p: &Program<'_>, style: &sm4::ListingStyle, out: &mut P) -> Result<()> {
    let program = decode(p)?;
    sm4::write_listing(&program, style, out).map(|_| ())
}

/// Print the Aon9 D3D9 program, 4-space indented, with its slot line, as `opts` say (fxc's
/// switches; its header is the DXBC listing's). Nothing when the program does not parse.
pub fn level9<P: Printer + ?Sized>(
    _d: &Dxbc<'_>,
    a: &super::chunks::Aon9<'_>,
    opts: &d3d9::ListingOptions,
    out: &mut P,
) {
    if let Ok(program) = d3d9::Program::parse(a.program, a.program_position() as u64) {
        let _ = d3d9::write_listing(&program, opts, out);
    }
}

/// Program-level findings from [`crate::isa::sm4`]'s checks (undecodable instructions,
/// unknown opcodes, registers used but not declared, indices outside declared sizes,
/// unbalanced blocks) and the Aon9 program.
pub fn validate(d: &Dxbc<'_>, p: &Program<'_>) -> Vec<Finding> {
    let mut out = match decode(p) {
        Err(e) => vec![Finding::error(e.offset(), e.reason())],
        Ok(program) => sm4::validate(&program),
    };
    if let Some(a) = &d.aon9 {
        if let Err(e) = d3d9::Program::parse(a.program, a.program_position() as u64) {
            out.push(Finding::error(e.offset(), format!("Aon9 D3D9 program: {}", e.reason())));
        }
    }
    out
}

/// What the program declares (thread-group size, GS/HS/DS parameters), for reflection.
pub fn declarations(p: &Program<'_>) -> Option<sm4::info::Declarations> {
    let program = decode(p).ok()?;
    sm4::info::Declarations::collect(&program).ok()
}
