//! The code of a shader chunk (`DBIN`), handed to its instruction set: Mali GP code
//! ([`crate::isa::mali_gp`]) in a vertex shader (`CVER`), Mali PP code
//! ([`crate::isa::mali_pp`]) in a fragment shader (`CFRA`). `code` is the `DBIN` payload and
//! `base` its absolute offset.

use super::Core;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::isa::{InstructionRecord, mali_gp, mali_pp};
use crate::model::{DisasmOptions, Finding};
use crate::print::Printer;

/// Bytes of one GP instruction.
pub(super) const GP_INSTRUCTION: usize = 16;

/// The listing of `code` in Mesa lima's syntax.
pub(super) fn write_code(
    core: Core,
    code: &[u8],
    base: u64,
    opts: &DisasmOptions,
    out: &mut dyn Printer,
) -> Result<()> {
    match core {
        Core::Gp => mali_gp::write_listing(code, base, opts, out),
        Core::Pp => mali_pp::write_listing(code, base, opts, out),
    }
}

/// The instruction records of `code`, handed to `f` one at a time.
pub(super) fn each_record(core: Core, code: &[u8], base: u64, f: impl FnMut(InstructionRecord)) {
    match core {
        Core::Gp => mali_gp::each_record(code, base, f),
        Core::Pp => mali_pp::each_record(code, base, f),
    }
}

/// The instruction set's findings on `code`.
pub(super) fn check(core: Core, code: &[u8], base: u64) -> Vec<Finding> {
    match core {
        Core::Gp => mali_gp::check(code, base),
        Core::Pp => mali_pp::check(code, base),
    }
}

/// What of `code` cannot be decoded.
pub(super) fn problems(core: Core, code: &[u8], base: u64) -> Vec<Error> {
    match core {
        Core::Gp => mali_gp::problems(code, base),
        Core::Pp => mali_pp::problems(code, base),
    }
}

/// Claim the bytes of `code` for `dump`: each instruction with its listing text.
pub(super) fn annotate(core: Core, code: &[u8], base: u64, a: &mut Annotations) {
    match core {
        Core::Gp => mali_gp::annotate(code, base, a),
        Core::Pp => mali_pp::annotate(code, base, a),
    }
}
