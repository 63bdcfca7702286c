//! Bare programs: an instruction stream with no container around it, such as `extract` writes
//! (the data of a DXBC `SHDR`/`SHEX` chunk, a Direct3D 9 token stream, the PICA200 code words
//! of a DVLP), or a byte range of a larger file.
//!
//! A [`Bare`] names the instruction set, the bytes and the absolute offset of their first
//! byte in the input, so every offset it reports is a file offset; [`select`] cuts the range
//! out of a larger input as llvm-objdump's `--start-address`/`--stop-address` do. The listing
//! is the one the instruction set prints inside its container, through the same printer:
//!
//! | [`Isa`] | bytes | listing |
//! |---|---|---|
//! | `sm4` | an SM4/5 token stream: version token, length token, instructions (bytes after the length the length token gives are ignored) | fxc's program text, from the version line to the last instruction ([`crate::isa::sm4`]); the fxc generation from [`DisasmOptions::generation`](crate::DisasmOptions::generation), fxc 10 by default |
//! | `d3d9` | a Direct3D 9 token stream, version token to end token | fxc's listing with the constant table of its `CTAB` comment ([`crate::isa::d3d9`]) |
//! | `mali-pp` | Mali-200/400 fragment (PP) code as an MBS `DBIN` chunk holds it: variable-length instructions from byte 0 | Mesa lima's listing ([`crate::isa::mali_pp`]) |
//! | `latte` | R600/R700 microcode as the GPU reads it (32-bit little-endian words: a GFD `.gsh` program block, a SHARCFB binary's microcode), control flow from byte 0 | decaf-emu's listing ([`crate::isa::latte`]) |
//! | `mali-gp` | Mali Utgard GP (vertex processor) code: 128-bit instructions (an MBS `DBIN` payload of a vertex shader) | Mesa's lima listing ([`crate::isa::mali_gp`]) |
//! | `pica` | PICA200 code words | picasso source ([`crate::isa::pica`]): `main` is the longest stretch of words no call reaches ([`crate::isa::pica::bare_entry`]), each called range a procedure; words neither reaches follow as comments. Without an operand-descriptor table ([`Bare::with_opdescs`]) masks and swizzles show as the identity and each instruction that uses a descriptor says so |
//!
//! ```
//! use shaderscope::bare::{Bare, Isa, select};
//! use shaderscope::print::TextBuf;
//! use shaderscope::DisasmOptions;
//!
//! // An SM4 program 8 bytes into a larger input: ps_4_0; ret.
//! let mut file = vec![0u8; 8];
//! for w in [0x0000_0040u32, 3, 0x0100_003e] {
//!     file.extend(w.to_le_bytes());
//! }
//! let (bytes, base) = select(&file, Some(8), None)?;
//! let program = Bare::new(Isa::Sm4, bytes).at(base);
//! let mut text = TextBuf::default();
//! program.disasm(&DisasmOptions::default().with_file_offsets(true), &mut text)?;
//! assert_eq!(text.as_str(), "0x00000008: ps_4_0\n0x00000010: ret \n");
//! assert_eq!(program.records(&DisasmOptions::default())?[0].offset, 0x10);
//!
//! // PICA200 words without their operand descriptors: what can be printed, and why not more.
//! let code: Vec<u8> = [0x4e00_0000u32, 0x8800_0000].iter().flat_map(|w| w.to_le_bytes()).collect();
//! let mut text = TextBuf::default();
//! Bare::new(Isa::Pica, &code).disasm(&DisasmOptions::default(), &mut text)?;
//! assert!(text.as_str().contains("\tmov r0, v0 ; opdesc 0x00 is outside the table\n"));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::isa::{Code, InstructionRecord, InstructionSet};
use crate::model::DisasmOptions;
use crate::print::Printer;
use crate::print::count;
use std::fmt;

/// The instruction set of a bare program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Isa {
    /// Direct3D 10–12 shader model 4.0–5.1 tokens (the data of a DXBC `SHDR`/`SHEX` chunk).
    Sm4,
    /// Direct3D 9 shader model 1–3 tokens.
    D3d9,
    /// Nintendo 3DS PICA200 code words.
    Pica,
    /// Wii U Latte (AMD R600/R700) microcode.
    Latte,
    /// ARM Mali Utgard GP (vertex processor) code.
    MaliGp,
    /// ARM Mali-200/400 fragment processor (PP) code (the DBIN chunk of an MBS `CFRA`).
    MaliPp,
}

impl Isa {
    /// Every instruction set a bare program can be.
    pub const ALL: [Isa; 6] = [Isa::Sm4, Isa::D3d9, Isa::Pica, Isa::Latte, Isa::MaliGp, Isa::MaliPp];

    /// The name used on the command line and in JSON: `sm4`, `d3d9`, `pica`, `latte`,
    /// `mali-gp`, `mali-pp`.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Sm4 => "sm4",
            Isa::D3d9 => "d3d9",
            Isa::Pica => "pica",
            Isa::Latte => "latte",
            Isa::MaliGp => "mali-gp",
            Isa::MaliPp => "mali-pp",
        }
    }

    /// The instruction set named `name` (any case).
    pub fn from_name(name: &str) -> Option<Isa> {
        Isa::ALL.into_iter().find(|i| i.name().eq_ignore_ascii_case(name))
    }

    /// Whether a program of this instruction set takes an operand-descriptor table
    /// ([`Bare::with_opdescs`], the command line's `--opdesc`): PICA200 code only.
    ///
    /// ```
    /// use shaderscope::bare::Isa;
    /// assert!(Isa::Pica.check_opdescs().is_ok());
    /// let refused = Isa::Latte.check_opdescs().unwrap_err();
    /// assert_eq!(refused.to_string(), "--opdesc applies only to --format pica (not --format latte)");
    /// ```
    pub fn check_opdescs(self) -> std::result::Result<(), crate::Inapplicable> {
        if self == Isa::Pica {
            Ok(())
        } else {
            Err(crate::Inapplicable(format!("--opdesc applies only to --format pica (not --format {self})")))
        }
    }

    /// What the bytes are, for messages.
    pub fn description(self) -> &'static str {
        match self {
            Isa::Sm4 => "SM4/SM5 token stream",
            Isa::D3d9 => "Direct3D 9 token stream",
            Isa::Pica => "PICA200 code",
            Isa::Latte => "Latte microcode",
            Isa::MaliGp => "Mali GP code",
            Isa::MaliPp => "Mali PP code",
        }
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The bytes `start..stop` of `data` (either end optional) and the absolute offset of the
/// first: the range a bare program is read from (and `dump` shows). An end past the input or
/// before the start, or a range given that holds no byte, is an error naming both ends.
pub fn select(data: &[u8], start: Option<u64>, stop: Option<u64>) -> Result<(&[u8], u64)> {
    let len = data.len() as u64;
    let begin = start.unwrap_or(0);
    let end = stop.unwrap_or(len);
    if begin > len || end > len {
        let at = if begin > len { begin } else { end };
        return Err(Error::invalid(
            at,
            "byte range",
            format!("0x{begin:x}..0x{end:x} reaches past the end of the input (0x{len:x} bytes)"),
        ));
    }
    if begin > end {
        return Err(Error::invalid(
            begin,
            "byte range",
            format!("the start 0x{begin:x} is after the stop 0x{end:x}"),
        ));
    }
    if begin == end && (start.is_some() || stop.is_some()) {
        return Err(Error::invalid(
            begin,
            "byte range",
            format!("0x{begin:x}..0x{end:x} is empty: the stop is the first byte not shown"),
        ));
    }
    // Both ends are within `data`, whose length fits a usize.
    let bytes = data.get(begin as usize..end as usize).unwrap_or(&[]);
    Ok((bytes, begin))
}

/// The operand descriptors of a PICA200 operand-descriptor table as a DVLP stores it (and
/// `extract FILE opdescs` writes it): 8 bytes per entry, the descriptor in the first 4
/// (little-endian). `base` is the absolute offset of the table, for errors.
pub fn opdesc_table(bytes: &[u8], base: u64) -> Result<Vec<u32>> {
    if bytes.len() % 8 != 0 {
        return Err(Error::invalid(
            base,
            "operand descriptor table",
            format!("{} is not a whole number of 8-byte entries", count(bytes.len(), "byte")),
        ));
    }
    Ok(bytes.chunks_exact(8).filter_map(|e| e.first_chunk::<4>()).map(|w| u32::from_le_bytes(*w)).collect())
}

/// A program with no container: its instruction set, its bytes and where they are.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Bare<'a> {
    /// The instruction set.
    pub isa: Isa,
    /// The program's bytes.
    pub bytes: &'a [u8],
    /// Absolute offset of the first byte in the input.
    pub base: u64,
    /// PICA200: the operand descriptors, if known.
    pub opdescs: Option<Vec<u32>>,
}

impl<'a> Bare<'a> {
    /// `bytes` as a program of `isa`, at offset 0.
    pub fn new(isa: Isa, bytes: &'a [u8]) -> Self {
        Bare { isa, bytes, base: 0, opdescs: None }
    }

    /// The bytes sit at absolute offset `base` of the input.
    pub fn at(mut self, base: u64) -> Self {
        self.base = base;
        self
    }

    /// PICA200: the operand descriptors the code's instructions point into.
    pub fn with_opdescs(mut self, opdescs: Vec<u32>) -> Self {
        self.opdescs = Some(opdescs);
        self
    }

    /// The listing, written through `out` (see the [module documentation](self) for what each
    /// instruction set prints). On an error the text written so far stays in `out`.
    pub fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        self.instruction_set()?.write_listing(&self.code(), opts, out)
    }

    /// Every instruction as an [`InstructionRecord`], printed by the listing's printer
    /// ([`Bare::each_record`]'s records collected).
    pub fn records(&self, opts: &DisasmOptions) -> Result<Vec<InstructionRecord>> {
        let mut out = Vec::new();
        self.each_record(opts, |r| out.push(r))?;
        Ok(out)
    }

    /// Each instruction's [`InstructionRecord`], handed to `f` as it is made; an error where
    /// the program does not decode (after the records before it).
    pub fn each_record(&self, opts: &DisasmOptions, mut f: impl FnMut(InstructionRecord)) -> Result<()> {
        self.instruction_set()?.each_record(&self.code(), opts, &mut f)
    }

    /// The bytes as the instruction set reads them.
    fn code(&self) -> Code<'_> {
        Code { bytes: self.bytes, base: self.base, opdescs: self.opdescs.as_deref() }
    }

    /// The instruction set's implementation: the one place a bare program's ISA is matched
    /// on. An instruction set whose family this build leaves out is an error.
    fn instruction_set(&self) -> Result<&'static dyn InstructionSet> {
        Ok(match self.isa {
            #[cfg(feature = "direct3d")]
            Isa::Sm4 => &crate::isa::sm4::Sm4,
            #[cfg(feature = "direct3d")]
            Isa::D3d9 => &crate::isa::d3d9::D3d9,
            #[cfg(feature = "n3ds")]
            Isa::Pica => &crate::isa::pica::Pica,
            #[cfg(feature = "wiiu")]
            Isa::Latte => &crate::isa::latte::Latte,
            #[cfg(feature = "mali")]
            Isa::MaliGp => &crate::isa::mali_gp::MaliGp,
            #[cfg(feature = "mali")]
            Isa::MaliPp => &crate::isa::mali_pp::MaliPp,
            #[allow(unreachable_patterns)]
            _ => {
                return Err(Error::unsupported(
                    self.base,
                    self.isa.description(),
                    crate::detect::NOT_IN_BUILD,
                ));
            }
        })
    }

    /// The listing as data, in the one `disasm` record shape, given to `out` piece by piece
    /// ([`crate::json::DisasmSink`]): the text, then one program (named `program`, its `isa`,
    /// `offset` and `size` those of the bytes) and its instruction records.
    pub fn write_disasm_json(
        &self,
        opts: &DisasmOptions,
        out: &mut dyn crate::json::DisasmSink,
    ) -> Result<()> {
        self.disasm(opts, out.listing())?;
        out.program(crate::json::Program::new(
            "program",
            self.isa.name(),
            self.base,
            self.bytes.len() as u64,
        ));
        self.each_record(opts, |r| out.instruction(r))
    }

    /// [`Bare::write_disasm_json`]'s pieces, collected into one value.
    pub fn disasm_json(&self, opts: &DisasmOptions) -> Result<crate::json::Disasm> {
        crate::json::Disasm::collect(|out| self.write_disasm_json(opts, out))
    }

    /// The `disasm --json` record of the program read from `path`, written to `out` field by
    /// field ([`crate::json::write_disasm_record`]): a bare program has no container format,
    /// so `format` is null and its program's `isa` says what the bytes were read as. Returns
    /// whether the record says the program is valid (false: it does not decode).
    pub fn write_disasm_record(
        &self,
        path: &str,
        opts: &DisasmOptions,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<bool> {
        let record = crate::json::Record::new(crate::json::RecordType::Disasm, path, None);
        crate::json::write_disasm_record(record, None, out, |sink| self.write_disasm_json(opts, sink))
    }
}
