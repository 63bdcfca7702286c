//! Instruction sets: one module per ISA, each with one opcode table that drives decoding,
//! encoding and printing. An ISA never depends on a container: a container hands it bytes and
//! their absolute offset.
//!
//! Every ISA prints through one path into a [`Printer`]; the same path
//! gives [`InstructionRecord`]s, the shape every ISA shares for data consumers (JSON, the
//! library API): print an instruction into a [`Capture`] and take the record.
//!
//! ```
//! use shaderscope::isa::Capture;
//! use shaderscope::print::{Printer, Style};
//! use std::fmt::Write;
//!
//! let mut c = Capture::default();
//! c.styled(Style::Address, "0x0010: ").unwrap();
//! c.write_str("  ").unwrap();
//! c.styled(Style::Mnemonic, "mul").unwrap();
//! c.write_str(" ").unwrap();
//! for (i, reg) in ["r0.xy", "r1.xyxx", "cb0[2].xyxx"].iter().enumerate() {
//!     if i > 0 {
//!         c.write_str(", ").unwrap();
//!     }
//!     c.start_operand();
//!     c.styled(Style::Register, reg).unwrap();
//!     c.end_operand();
//! }
//! c.write_str("\n").unwrap();
//! let r = c.record(0x10, vec![0x0800_0038]);
//! assert_eq!(r.text, "mul r0.xy, r1.xyxx, cb0[2].xyxx");
//! assert_eq!((r.mnemonic.as_str(), r.operands.len()), ("mul", 3));
//! ```

#[cfg(any(feature = "wiiu", feature = "mali"))]
mod columns;
#[cfg(feature = "direct3d")]
pub mod d3d9;
#[cfg(feature = "direct3d")]
pub mod fxlvm;
#[cfg(feature = "wiiu")]
pub mod latte;
#[cfg(feature = "mali")]
pub mod mali_gp;
#[cfg(feature = "mali")]
pub mod mali_pp;
#[cfg(feature = "n3ds")]
pub mod pica;
#[cfg(feature = "direct3d")]
pub mod sm4;
#[cfg(any(feature = "direct3d", feature = "wiiu", feature = "mali"))]
pub(crate) mod walk;

#[cfg(feature = "direct3d")]
use crate::print::Line;
use crate::print::{Printer, Style};
use serde::Serialize;
use std::fmt;

/// Bytes an instruction set reads with no container around them ([`crate::bare::Bare`]):
/// the program's bytes, the absolute offset of the first, and (PICA200) the operand
/// descriptors its instructions point into, where they are known.
#[derive(Debug, Clone, Copy)]
pub struct Code<'a> {
    /// The program's bytes.
    pub bytes: &'a [u8],
    /// The absolute offset of the first byte in the input.
    pub base: u64,
    /// PICA200: the operand-descriptor table, where it is known.
    pub opdescs: Option<&'a [u32]>,
}

/// What every instruction set does with a program it is handed alone: its listing through
/// the sink, and its instruction records, each record's text printed by the listing's
/// printer with the listing's settings. Each instruction set implements it once, in its
/// `mod.rs` (`sm4::Sm4`, `d3d9::D3d9`, `pica::Pica`, `latte::Latte`, `mali_gp::MaliGp`,
/// `mali_pp::MaliPp`); [`crate::bare`] picks the implementation in one place.
pub trait InstructionSet: Sync {
    /// The listing of `code` under `opts`, written through `out`; on an error the text
    /// written so far stays in `out`.
    fn write_listing(
        &self,
        code: &Code<'_>,
        opts: &crate::DisasmOptions,
        out: &mut dyn Printer,
    ) -> crate::Result<()>;

    /// Each instruction's record, handed to `f` as it is made; an error where the program
    /// does not decode (after the records before it).
    fn each_record(
        &self,
        code: &Code<'_>,
        opts: &crate::DisasmOptions,
        f: &mut dyn FnMut(InstructionRecord),
    ) -> crate::Result<()>;
}

/// The [`InstructionSet`] of an instruction set whose program is its code alone, read from the
/// first byte with nothing else to know (Latte, Mali GP, Mali PP): a unit struct `$name` whose
/// listing and records are its module's `write_listing(bytes, base, opts, out)` and
/// `each_record(bytes, base, f)`.
#[cfg(any(feature = "wiiu", feature = "mali"))]
macro_rules! code_instruction_set {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name;

        impl $crate::isa::InstructionSet for $name {
            fn write_listing(
                &self,
                code: &$crate::isa::Code<'_>,
                opts: &$crate::DisasmOptions,
                out: &mut dyn $crate::print::Printer,
            ) -> $crate::Result<()> {
                write_listing(code.bytes, code.base, opts, out)
            }
            fn each_record(
                &self,
                code: &$crate::isa::Code<'_>,
                _: &$crate::DisasmOptions,
                f: &mut dyn FnMut($crate::isa::InstructionRecord),
            ) -> $crate::Result<()> {
                each_record(code.bytes, code.base, f);
                Ok(())
            }
        }
    };
}
#[cfg(any(feature = "wiiu", feature = "mali"))]
pub(crate) use code_instruction_set;

/// What `D3DDisassemble` puts before a program line with its instruction-numbering (fxc `/Ni`)
/// and instruction-offset (fxc `/No`) switches, shared by the SM4 and Direct3D 9 printers:
///
/// - `number`: `None` without numbering; `Some(None)` for a line that gets no number (a
///   declaration, the SM4 version line), six spaces; `Some(Some(n))` for a numbered line,
///   `n` right-aligned in four columns, then `: ` (`   7: mul …`), or two spaces when an
///   offset follows (`   7  0x000000F4: mul …`).
/// - `offset`: `0x%08X: `, upper-case hexadecimal (more digits past 4 GiB).
///
/// Both are one [`Style::Address`] token. Seen in public fxc listings: 3Dmigoto ShaderFixes
/// dumps made with `/Ni /No` (SM5 and ps_3_0), Unity's compiled-shader view (`/Ni`).
#[cfg(feature = "direct3d")]
pub(crate) fn write_fxc_prefix(line: &mut Line, number: Option<Option<u64>>, offset: Option<u64>) {
    if number.is_none() && offset.is_none() {
        return;
    }
    line.style(Style::Address);
    match number {
        None => {}
        Some(None) => line.push_spaces(6),
        Some(Some(n)) => {
            line.push_u64_right(n, 4);
            line.push_str(if offset.is_some() { "  " } else { ": " });
        }
    }
    if let Some(offset) = offset {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        let digits = (64 - offset.leading_zeros() as usize).div_ceil(4).max(8);
        let mut buf = [b'0'; 16];
        for (i, b) in buf.iter_mut().rev().take(digits).enumerate() {
            *b = HEX.get(((offset >> (4 * i)) & 0xf) as usize).copied().unwrap_or(b'0');
        }
        line.push_str("0x");
        line.push_str(std::str::from_utf8(buf.get(16 - digits..).unwrap_or(&[])).unwrap_or(""));
        line.push_str(": ");
    }
    line.reset();
}

/// One instruction as every instruction set reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct InstructionRecord {
    /// Absolute byte offset of the instruction's first byte.
    pub offset: u64,
    /// Its encoding, as the ISA's words (32-bit tokens or code words; 64-bit Latte words as
    /// two, low word first).
    pub words: Vec<u32>,
    /// The mnemonic as the listing prints it (with its suffixes, e.g. `sample_indexable`).
    pub mnemonic: String,
    /// Each operand's text.
    pub operands: Vec<String>,
    /// The instruction's text as the listing printed with the same configuration prints it
    /// (its literals, float digits, …), without indentation, offsets, numbering, raw words or
    /// comments.
    pub text: String,
}

/// A [`Printer`] that keeps what an instruction printer writes, to make an
/// [`InstructionRecord`] of it: the text (without address/raw columns, comments and
/// surrounding white space), the mnemonic (the text styled [`Style::Mnemonic`]) and each
/// operand (the text between [`Printer::start_operand`] and [`Printer::end_operand`]).
#[derive(Debug, Default, Clone)]
pub struct Capture {
    text: String,
    mnemonic: String,
    operands: Vec<String>,
    /// Operand nesting depth (an operand may hold others, e.g. a relative index).
    depth: usize,
    style: Option<Style>,
}

impl Capture {
    /// The record of what was written, for the instruction at `offset` encoded as `words`;
    /// the capture is emptied for the next instruction.
    pub fn record(&mut self, offset: u64, words: Vec<u32>) -> InstructionRecord {
        let c = std::mem::take(self);
        InstructionRecord {
            offset,
            words,
            mnemonic: c.mnemonic.trim().to_string(),
            operands: c.operands.into_iter().map(|o| o.trim().to_string()).collect(),
            text: c.text.trim().to_string(),
        }
    }
}

impl fmt::Write for Capture {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.style {
            Some(Style::Address | Style::Comment) => return Ok(()),
            Some(Style::Mnemonic) if self.depth == 0 => self.mnemonic.push_str(s),
            _ => {}
        }
        if self.depth > 0
            && let Some(o) = self.operands.last_mut()
        {
            o.push_str(s);
        }
        self.text.push_str(s);
        Ok(())
    }
}

impl Printer for Capture {
    fn style(&mut self, style: Style) {
        self.style = Some(style);
    }
    fn reset(&mut self) {
        self.style = None;
    }
    fn start_operand(&mut self) {
        if self.depth == 0 {
            self.operands.push(String::new());
        }
        self.depth += 1;
    }
    fn end_operand(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}
