//! The code of a shader chunk (`DBIN`), handed to its instruction set. Until the Mali GP and
//! PP disassemblers (`isa::mali_gp`, `isa::mali_pp`) are merged, this is the one place that
//! stands in for them: [`write_code`] lists the words, and the records, findings, problems and
//! annotations are those of code not yet decoded. At merge time each function becomes the
//! call of the ISA's function of the same name (`write_listing`, `records`, `check`,
//! `problems`, `annotate`), with `code` the `DBIN` payload and `base` its absolute offset.

use super::Core;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::isa::InstructionRecord;
use crate::model::{DisasmOptions, Finding};
use crate::print::{Printer, Style};

/// Bytes of one GP instruction.
pub(super) const GP_INSTRUCTION: usize = 16;

fn printer_failed(_: std::fmt::Error) -> Error {
    Error::invalid(0, "listing", "the printer failed")
}

/// The listing of `code` (at absolute `base`) for `core`. Placeholder: one line per GP
/// instruction (its four words) or per four PP words, until the ISAs are merged.
pub(super) fn write_code(
    core: Core,
    code: &[u8],
    base: u64,
    opts: &DisasmOptions,
    out: &mut dyn Printer,
) -> Result<()> {
    let step = match core {
        Core::Gp => GP_INSTRUCTION,
        Core::Pp => 16,
    };
    for (i, chunk) in code.chunks(step).enumerate() {
        let at = base + (i * step) as u64;
        out.start_line(Some(at));
        if opts.offsets || opts.file_offsets {
            out.styled(Style::Address, &format!("{at:06x}: ")).map_err(printer_failed)?;
        }
        out.styled(Style::Label, &format!("{i:03}:")).map_err(printer_failed)?;
        for w in chunk.chunks(4) {
            let mut b = [0u8; 4];
            for (d, s) in b.iter_mut().zip(w) {
                *d = *s;
            }
            out.write_char(' ').map_err(printer_failed)?;
            out.styled(Style::Literal, &format!("{:08x}", u32::from_le_bytes(b))).map_err(printer_failed)?;
        }
        out.write_char('\n').map_err(printer_failed)?;
    }
    Ok(())
}

/// The instruction records of `code`. Placeholder: none until the ISAs are merged.
pub(super) fn records(_core: Core, _code: &[u8], _base: u64) -> Vec<InstructionRecord> {
    Vec::new()
}

/// The instruction set's findings on `code`. Placeholder: none until the ISAs are merged.
pub(super) fn check(_core: Core, _code: &[u8], _base: u64) -> Vec<Finding> {
    Vec::new()
}

/// What of `code` cannot be decoded. Placeholder: nothing until the ISAs are merged.
pub(super) fn problems(_core: Core, _code: &[u8], _base: u64) -> Vec<Error> {
    Vec::new()
}

/// Claim the bytes of `code` for `dump`. Placeholder: GP instructions as a table of 16-byte
/// entries, PP code as one range, until the ISAs are merged.
pub(super) fn annotate(core: Core, code: &[u8], base: u64, a: &mut Annotations) {
    let len = code.len() as u64;
    match core {
        Core::Gp => {
            fn gp(d: &[u8], i: u64, at: u64, out: &mut String) {
                let words: Vec<String> = d
                    .get(at as usize..)
                    .unwrap_or(&[])
                    .chunks(4)
                    .take(4)
                    .map(|w| w.iter().rev().map(|b| format!("{b:02x}")).collect())
                    .collect();
                out.push_str(&format!("GP instruction {i}: {}", words.join(" ")));
            }
            let n = len / GP_INSTRUCTION as u64;
            a.table(base, GP_INSTRUCTION as u64, n, gp);
            a.fallback(base, len, "Mali GP code");
        }
        Core::Pp => a.fallback(base, len, "Mali PP code"),
    }
}
