//! The program text exactly as fxc's `D3DDisassemble` prints it: from the version line to the
//! last instruction, with fxc's indentation, operand syntax and literal formatting.
//!
//! One printer makes every form of it: [`write_listing`] writes each token into a
//! [`Printer`] with its kind, so plain text ([`TextBuf`](crate::print::TextBuf)), colour,
//! HTML and [`records`] all come from the same code:
//!
//! | token | [`Style`] |
//! |---|---|
//! | the version line (`ps_5_0`) | [`Style::Directive`] |
//! | the mnemonic with everything glued to it (`sample_l_aoffimmi_indexable(-1,0,0)(texture2d)(float,float,float,float)`, `dcl_resource_texture2d`, `discard_nz`, `mov_sat`) | [`Style::Mnemonic`] |
//! | a register with its indices and components (`r0.xyzw`, `cb0[3].x`, `CB0[0:0][26]`) | [`Style::Register`] |
//! | a literal (`l(1.000000, 2)`, `d(1.000000l)`, the numbers of declarations and immediate constant buffers, a shader message's string) | [`Style::Literal`] |
//! | a function body, table or interface (`fb0`, `ft1`, `fp0[1][2]`) and a label (`l3`) | [`Style::Label`] |
//! | `// unknown opcode …` | [`Style::Comment`] |
//! | the `--offsets` prefix and the `--raw` words | [`Style::Address`] |
//!
//! Punctuation, white space, modifiers (`-`, `|`, ` {min16f}`, ` [precise(x)]`) and the names
//! of declarations (`linear`, `position`, `immediateIndexed`) are unstyled. Each line starts
//! with [`Printer::start_line`] and the absolute offset of its instruction (the version line:
//! the program's), the continuation lines of an immediate constant buffer with `None`. Each
//! operand is framed by [`Printer::start_operand`] and [`Printer::end_operand`]: the operands
//! of an instruction, the declared register and each value after it in a declaration, each
//! row of an immediate constant buffer; the operand of a relative index is framed inside its
//! register (and the register's style is paused around it: `cb0[` `r1.y` ` + 26].x`).
//!
//! A few details of the text are not stored in the binary but depend on which fxc build
//! disassembled it; [`ListingStyle`] carries them (see its fields for the evidence).
//!
//! ```
//! use shaderscope::isa::sm4::{ListingStyle, Program, records, write_listing};
//! use shaderscope::print::{Html, TextBuf};
//!
//! let words = [
//!     0x0000_0040u32, 21,                           // ps_4_0
//!     0x0400_0059, 0x0020_8e46, 0, 4,               // dcl_constantbuffer cb0[4], immediateIndexed
//!     0x0300_0065, 0x0010_20f2, 0,                  // dcl_output o0.xyzw
//!     0x0b00_0038, 0x0010_20f2, 0, 0x0020_8006, 0, 3, // mul o0.xyzw, cb0[3].xxxx,
//!     0x0000_4002, 0x3f80_0000, 0x3f00_0000, 0x4196_d000, 0xc000_0000, // l(1, 0.5, 18.8515625, -2)
//!     0x0100_003e,                                  // ret
//! ];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let program = Program::parse(&bytes, 0)?;
//!
//! let mut text = TextBuf::default();
//! write_listing(&program, &ListingStyle::FXC_10, &mut text)?;
//! assert_eq!(
//!     text.as_str(),
//!     "ps_4_0\n\
//!      dcl_constantbuffer CB0[4], immediateIndexed\n\
//!      dcl_output o0.xyzw\n\
//!      mul o0.xyzw, cb0[3].xxxx, l(1.000000, 0.500000, 18.851562, -2.000000)\n\
//!      ret \n"
//! );
//!
//! // fxc 9.30 prints the declared buffer in lower case, and its C runtime rounds the tie
//! // 18.8515625 up; the offsets and raw columns are this tool's.
//! let style = ListingStyle { offsets: true, raw: true, ..ListingStyle::FXC_9_30 };
//! let mut text = TextBuf::default();
//! write_listing(&program, &style, &mut text)?;
//! let lines: Vec<&str> = text.as_str().lines().collect();
//! assert_eq!(
//!     lines[1],
//!     "0x00000008: dcl_constantbuffer cb0[4], immediateIndexed  // 04000059 00208e46 00000000 00000004"
//! );
//! assert!(lines[3].starts_with(
//!     "0x00000024: mul o0.xyzw, cb0[3].xxxx, l(1.000000, 0.500000, 18.851563, -2.000000)  // 0b000038"
//! ));
//!
//! // Every token with its kind, and every line with its offset.
//! let mut html = Html::default();
//! write_listing(&program, &ListingStyle::FXC_10, &mut html)?;
//! assert_eq!(
//!     html.finish().lines().nth(3),
//!     Some(
//!         "<div data-offset=\"36\"><span class=\"mn\">mul</span> <span class=\"reg\">o0.xyzw</span>, \
//!          <span class=\"reg\">cb0[3].xxxx</span>, \
//!          <span class=\"lit\">l(1.000000, 0.500000, 18.851562, -2.000000)</span></div>"
//!     )
//! );
//!
//! // The same printer makes the records.
//! let mul = &records(&program, &ListingStyle::FXC_10)?[2];
//! assert_eq!((mul.offset, mul.mnemonic.as_str(), mul.words.len()), (36, "mul", 11));
//! assert_eq!(mul.operands, ["o0.xyzw", "cb0[3].xxxx", "l(1.000000, 0.500000, 18.851562, -2.000000)"]);
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::decode::field::OPERAND_NUM_COMPONENTS;
use super::decode::{
    Components, Extended, Instruction, Modifier, Operand, Program, Tokens, operand_type as ot,
};
use super::names::{self, Shape};
use super::numfmt::{int_text, write_hex8, write_i64};
use super::opcodes::{Format, OpInfo, Piece, Ty, flag, op};
use super::walk::walk;
use crate::error::{Error, Result};
use crate::isa::walk::Visit;
use crate::isa::{Capture, InstructionRecord};
use crate::model::{DisasmOptions, Generation};
use crate::print::float::{FloatStyle, f32_fixed_text, write_f32_fixed, write_f64_fixed};
use crate::print::{Line, Printer, Short, Style, write_hex, write_spaces};
use std::fmt;

/// The parts of fxc's text that do not come from the token stream, and the columns this tool
/// adds (`offsets`, `raw`).
///
/// Three disassembler generations are seen in the corpus, one constant each; which one made a
/// listing is a question about the container (DXBC's RDEF creator string), not about the
/// token stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ListingStyle {
    /// `dcl_constantbuffer CB0[4]` (fxc 10.x) instead of `cb0[4]` (fxc 9.x) in SM4.0–5.0
    /// declarations. Instructions always print `cb0[…]`; SM5.1 always prints `CB0`.
    /// Evidence: 37 DirectXTK shaders whose SHDR chunks are byte-identical in the 2013 and
    /// 2020 snapshots print `cb0` in the 2013 listings and `CB0` in the 2020 (fxc 10.0.19041)
    /// ones, so only the disassembler decides.
    pub upper_case_cb_decl: bool,
    /// Texel offsets print as `_aoffimmi(u,v,w)` (fxc 9.30 and later) or as a bare `(u,v,w)`
    /// (fxc 9.29: `sample_l_indexable(0,-1,0)(texture2d)…`, `sample_l(0,1,0)`).
    pub aoffimmi: bool,
    /// Which C runtime formatted floats (fxc 9.x: 17 significant digits; 10.x: exact, with
    /// exact ties rounded the way the Windows build that ran fxc did; see [`FloatStyle`]).
    pub floats: FloatStyle,
    /// `discard_nz`/`discard_z` (fxc 9.30 and later) or a bare `discard` (fxc 9.29: the 2012
    /// DirectXTK listings print `discard r1.x` for the same token, 0x0304000d, that the 2013
    /// ones print as `discard_nz r1.x`).
    pub discard_test: bool,
    /// `dcl_input_ps_sgv constant v4.x, is_front_face` (fxc 10.x) or without the
    /// interpolation mode (fxc 9.x), for the same tokens (interpolation bits = constant).
    /// Evidence: every 9.29/9.30 listing of the corpus omits it; public fxc 10.1 listings
    /// (vvvv/Stride shader logs with `SV_IsFrontFace`) print it.
    pub sgv_interpolation: bool,
    /// `dcl_resource_structured t0, 16 ` ends in a blank (fxc 9.x: every 9.29/9.30 listing
    /// of the corpus) or not (fxc 10.x: DirectXTex's `D3D Shader Disassembler` listings and
    /// the fxc 10.1 effect listings of spacehamster/DXDecompiler).
    pub structured_blank: bool,
    /// Prefix every line with fxc's `/No` byte offset (`0x0000001C: `), counted from the
    /// version token.
    pub offsets: bool,
    /// End each instruction's line (the last line of a multi-line one) with its tokens as
    /// hexadecimal words: `ret   // 0100003e` (not fxc text).
    pub raw: bool,
    /// fxc's `/Ni`: number the instructions from 0 (`  12: mul …`; with offsets
    /// `  12  0x000000F4: mul …`); the version line and the declarations get six spaces
    /// instead (see `write_fxc_prefix` in [`crate::isa`]).
    pub numbering: bool,
    /// fxc's `/Lx`: every value of a literal (`l(…)`, `d(…)`, an immediate constant buffer)
    /// as its bits in hexadecimal, `0x%08x` (`0x%016x` for a double).
    pub hex_literals: bool,
    /// A float literal whose `%f` text does not read back to its bits (digits lost, a
    /// denormal, a NaN's payload) in hexadecimal instead, so that the listing assembles to the
    /// same program; the others stay fxc's text.
    pub exact_floats: bool,
    /// The offset column counts from the start of the input (the absolute offsets the
    /// printer gets) instead of from the version token, in the `/No` layout.
    pub file_offsets: bool,
}

impl Default for ListingStyle {
    fn default() -> Self {
        ListingStyle::FXC_10
    }
}

impl ListingStyle {
    /// fxc 10.x (Windows 10 SDK `d3dcompiler_47`).
    pub const FXC_10: ListingStyle = ListingStyle {
        upper_case_cb_decl: true,
        aoffimmi: true,
        floats: FloatStyle::Ucrt,
        discard_test: true,
        sgv_interpolation: true,
        structured_blank: false,
        offsets: false,
        raw: false,
        numbering: false,
        hex_literals: false,
        exact_floats: false,
        file_offsets: false,
    };
    /// fxc 10.x run on a Windows whose UCRT predates 2019 (ties round away from zero).
    pub const FXC_10_LEGACY_UCRT: ListingStyle =
        ListingStyle { floats: FloatStyle::UcrtLegacy, ..ListingStyle::FXC_10 };
    /// fxc 9.30 (Windows 8 SDK) and 6.3 (Windows 8.1 SDK).
    pub const FXC_9_30: ListingStyle = ListingStyle {
        upper_case_cb_decl: false,
        aoffimmi: true,
        floats: FloatStyle::Msvcrt,
        discard_test: true,
        sgv_interpolation: false,
        structured_blank: true,
        offsets: false,
        raw: false,
        numbering: false,
        hex_literals: false,
        exact_floats: false,
        file_offsets: false,
    };
    /// fxc 9.29 (DirectX SDK, June 2010).
    pub const FXC_9_29: ListingStyle = ListingStyle {
        upper_case_cb_decl: false,
        aoffimmi: false,
        floats: FloatStyle::Msvcrt,
        discard_test: false,
        sgv_interpolation: false,
        structured_blank: true,
        offsets: false,
        raw: false,
        numbering: false,
        hex_literals: false,
        exact_floats: false,
        file_offsets: false,
    };

    /// The settings of a listing in the text of fxc `generation` (fxc 10's on an old C
    /// runtime with [`DisasmOptions::legacy_crt`]) with the configuration's columns and
    /// switches: the one place a listing configuration becomes SM4 printer settings, for a
    /// DXBC container's program, its JSON records and a bare program alike.
    pub fn of(generation: Generation, opts: &DisasmOptions) -> ListingStyle {
        let style = match generation {
            Generation::Fxc9_29 => ListingStyle::FXC_9_29,
            Generation::Fxc9_30 | Generation::Fxc6_3 => ListingStyle::FXC_9_30,
            Generation::Fxc10 if opts.legacy_crt => ListingStyle::FXC_10_LEGACY_UCRT,
            Generation::Fxc10 => ListingStyle::FXC_10,
        };
        ListingStyle {
            offsets: opts.offsets,
            raw: opts.raw,
            numbering: opts.numbering,
            hex_literals: opts.hex_literals,
            exact_floats: opts.exact_floats,
            file_offsets: opts.file_offsets,
            ..style
        }
    }
}

/// What [`write_listing`] noticed while printing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListingReport {
    /// Instructions and declarations printed.
    pub instructions: usize,
    /// Opcodes the format does not define: (absolute offset, opcode number). Each was skipped
    /// using the length in its opcode token.
    pub unknown_opcodes: Vec<(u64, u16)>,
}

/// Print `program` as fxc does, from the version line to the last instruction, into `out`
/// (one `\n` after each line; see the [module documentation](self) for the tokens and line
/// offsets the printer gets). On a decoding error the text printed so far stays in `out` and
/// the error is returned; a printer that refuses text gives an error at the program's offset.
pub fn write_listing<P: Printer + ?Sized>(
    program: &Program<'_>,
    style: &ListingStyle,
    out: &mut P,
) -> Result<ListingReport> {
    write_program(program, style, out, true)
}

/// [`write_listing`] without its specialisations: every line printed from the decoded
/// instruction and every operand by the general operand printer, never by
/// [`Lister::plain_line`] or [`Lister::plain_operand`]. The fuzz target `sm4_specialised`
/// checks that both print the same. Not for other uses.
#[doc(hidden)]
pub fn write_listing_general<P: Printer + ?Sized>(
    program: &Program<'_>,
    style: &ListingStyle,
    out: &mut P,
) -> Result<ListingReport> {
    write_program(program, style, out, false)
}

fn write_program<P: Printer + ?Sized>(
    program: &Program<'_>,
    style: &ListingStyle,
    out: &mut P,
    specialised: bool,
) -> Result<ListingReport> {
    let mut l = Lister::new(program, style, out);
    l.specialised = specialised;
    let listed = l.program(program);
    // Lines that wait for a text-only sink go to it, after an error too.
    l.flush();
    let report = listed?;
    l.check()?;
    Ok(report)
}

/// Every instruction of `program` as an [`InstructionRecord`], printed by the same printer as
/// [`write_listing`] (so the text is the listing's, without indentation, offsets and raw
/// words): the mnemonic with its suffixes, each operand, and the instruction's tokens as its
/// words. Blocks that print nothing (comments, debug data) give no record; an unknown opcode
/// gives one with its words and no text.
pub fn records(program: &Program<'_>, style: &ListingStyle) -> Result<Vec<InstructionRecord>> {
    let mut out = Vec::new();
    each_record(program, style, |_, record| out.extend(record))?;
    Ok(out)
}

/// Every instruction of `program` in order, each with its [`InstructionRecord`] (as
/// [`records`] makes it) or `None` for a block that prints nothing: what byte annotations
/// need, instruction by instruction. On a decoding error `f` has had every instruction before
/// it, and the error is returned.
pub fn each_record<'a>(
    program: &Program<'a>,
    style: &ListingStyle,
    f: impl FnMut(&Instruction<'a>, Option<InstructionRecord>),
) -> Result<()> {
    let mut capture = Capture::default();
    let mut v = Recorder { l: Lister::new(program, style, &mut capture), f, error: None };
    walk(program, &mut v);
    v.error.map_or(Ok(()), Err)
}

/// The walk's visitor that makes the records: each instruction's line printed into a
/// [`Capture`] and handed on with the instruction; the first error stops the walk.
struct Recorder<'c, F> {
    l: Lister<'c, Capture>,
    f: F,
    error: Option<Error>,
}

impl<'a, F: FnMut(&Instruction<'a>, Option<InstructionRecord>)> Visit<Instruction<'a>> for Recorder<'_, F> {
    fn step(&mut self, inst: Instruction<'a>) {
        if !prints_line(&inst) {
            (self.f)(&inst, None);
            return;
        }
        if let Err(e) = self.l.line(&inst) {
            return self.problem(e);
        }
        let words = inst.tokens.iter().map(|t| t.get()).collect();
        (self.f)(&inst, Some(self.l.out.record(inst.offset, words)));
    }
    fn problem(&mut self, error: Error) {
        self.error.get_or_insert(error);
    }
    fn stopped(&self) -> bool {
        self.error.is_some()
    }
}

/// Whether the instruction prints a line: everything but the custom-data blocks that are not
/// an immediate constant buffer or a shader message (comments, debug data, opaque data).
#[inline]
fn prints_line(inst: &Instruction<'_>) -> bool {
    inst.info.is_none_or(|i| i.format != Format::CustomData)
        || matches!(inst.custom_data_class(), Some(3 | 4))
}

/// The printer of one program: its settings, the block depth, the line being built, and the
/// sink.
///
/// Each line is built in a [`Line`] (the text and the marks of its tokens) and handed to the
/// sink whole when the next begins or the instruction ends; a line cut short by a decoding
/// error is handed over as it is.
struct Lister<'o, P: ?Sized> {
    line: Line,
    /// The sink, borrowed: its methods are then called directly (through a `&mut &mut P`,
    /// the standard library's forwarding impl would be a call per piece of text).
    out: &'o mut P,
    style: ListingStyle,
    sm51: bool,
    /// Absolute offset of the version token.
    base: u64,
    /// Block depth (two spaces each).
    indent: usize,
    /// The number of the next instruction (`numbering`).
    number: u64,
    /// The sink refused some text (reported after the line).
    refused: bool,
    /// Whether the specialisations ([`Lister::plain_line`], [`Lister::plain_operand`]) may
    /// print what they know.
    specialised: bool,
}

impl<'o, P: Printer + ?Sized> Lister<'o, P> {
    fn new(program: &Program<'_>, style: &ListingStyle, out: &'o mut P) -> Self {
        Lister {
            line: Line::for_sink(&*out),
            out,
            style: *style,
            sm51: program.is_sm51(),
            base: program.base(),
            indent: 0,
            number: 0,
            refused: false,
            specialised: true,
        }
    }

    /// The version line and every instruction's line.
    fn program(&mut self, program: &Program<'_>) -> Result<ListingReport> {
        self.version_line(program);
        let mut v = Lines { l: self, report: ListingReport::default(), error: None };
        walk(program, &mut v);
        v.error.map_or(Ok(v.report), Err)
    }

    /// The error for a sink that refused text, if it did.
    fn check(&self) -> Result<()> {
        if self.refused {
            return Err(Error::invalid(self.base, "SM4 listing output", "the printer refused the text"));
        }
        Ok(())
    }

    /// Text, in the current style.
    #[inline]
    fn text(&mut self, s: &str) {
        self.line.push_str(s);
    }

    /// The next text is in `style`.
    #[inline]
    fn begin(&mut self, style: Style) {
        self.line.style(style);
    }

    /// The next text is unstyled.
    #[inline]
    fn end(&mut self) {
        self.line.reset();
    }

    #[inline]
    fn start_operand(&mut self) {
        self.line.start_operand();
    }

    #[inline]
    fn end_operand(&mut self) {
        self.line.end_operand();
    }

    /// The line built so far is complete: it goes to the sink ([`Line::end_line`]).
    #[inline]
    fn end_line(&mut self) {
        if self.line.line_len() > 0 && self.line.end_line(self.out).is_err() {
            self.refused = true;
        }
    }

    /// Hand everything built so far to the sink: the line being built and the lines that
    /// wait for a text-only sink.
    fn flush(&mut self) {
        if !self.line.is_empty() && self.line.flush(self.out).is_err() {
            self.refused = true;
        }
    }

    /// A new line, showing the input at `offset`, begins (the one before is complete).
    #[inline]
    fn start_line(&mut self, offset: Option<u64>) {
        self.end_line();
        self.line.start(offset);
    }

    /// A whole token in `style`.
    #[inline]
    fn token(&mut self, style: Style, s: &str) {
        self.begin(style);
        self.text(s);
        self.end();
    }

    /// Text of at most five bytes, written as a copy of a size known at compile time (for
    /// plain text: a few moves rather than a `memcpy` call). Register names, indices and
    /// component selections are nearly all this short.
    #[inline(always)]
    fn short(&mut self, s: &str) {
        match s.len() {
            1 => self.text(s.get(..1).unwrap_or_default()),
            2 => self.text(s.get(..2).unwrap_or_default()),
            3 => self.text(s.get(..3).unwrap_or_default()),
            4 => self.text(s.get(..4).unwrap_or_default()),
            5 => self.text(s.get(..5).unwrap_or_default()),
            _ => self.text(s),
        }
    }

    /// `v` in decimal, in the current style.
    #[inline]
    fn number(&mut self, v: u64) {
        self.line.push_u64(v);
    }

    /// `v` in decimal as a [`Style::Literal`] token.
    #[inline]
    fn literal(&mut self, v: u64) {
        self.begin(Style::Literal);
        self.number(v);
        self.end();
    }

    /// A declaration's value after the mnemonic or a comma, as an operand.
    fn value(&mut self, v: u64) {
        self.start_operand();
        self.literal(v);
        self.end_operand();
    }

    /// A name the table gives, or the raw value when the format does not define it.
    fn name(&mut self, name: Option<&str>, raw: u32) {
        match name {
            Some(n) => self.text(n),
            None => self.number(u64::from(raw)),
        }
    }

    /// A declaration's named value (`immediateIndexed`, `position`, `mode_default`) as an
    /// operand.
    fn name_operand(&mut self, name: Option<&str>, raw: u32) {
        self.start_operand();
        self.name(name, raw);
        self.end_operand();
    }

    /// The version line: `ps_5_0`.
    fn version_line(&mut self, program: &Program<'_>) {
        self.start_line(Some(self.base));
        self.line_prefix(self.base, false);
        self.begin(Style::Directive);
        self.text(program.stage.prefix());
        self.text("_");
        self.number(u64::from(program.major));
        self.text("_");
        self.number(u64::from(program.minor));
        self.end();
        self.text("\n");
        self.end_line();
    }

    /// One instruction's line (or lines, for an immediate constant buffer); nothing for a
    /// block that prints nothing.
    fn line(&mut self, inst: &Instruction<'_>) -> Result<()> {
        let Some(info) = inst.info else {
            self.start_line(Some(inst.offset));
            self.begin(Style::Comment);
            self.text("// unknown opcode ");
            self.number(u64::from(inst.opcode));
            self.text(" (");
            self.number(inst.len_dwords() as u64);
            self.text(" DWORDs) skipped");
            self.end();
            if self.style.raw {
                self.raw(inst.tokens);
            }
            self.text("\n");
            self.end_line();
            return self.check();
        };
        if !prints_line(inst) {
            return Ok(());
        }
        if info.has(flag::CLOSE) || info.has(flag::ELSE) {
            self.indent = self.indent.saturating_sub(1);
        }
        self.start_line(Some(inst.offset));
        // Declarations (an immediate constant buffer among them) and phase marks get no number.
        let numbered = match info.format {
            Format::Decl(_) | Format::Phase => false,
            Format::CustomData => inst.custom_data_class() != Some(3),
            _ => true,
        };
        self.line_prefix(inst.offset, numbered);
        // The words after an instruction's operands, where they are not what the assembler
        // writes there.
        let mut trailing = None;
        let printed = match info.format {
            Format::Inst => self.instruction(inst, info).map(|t| trailing = t),
            Format::Sync => {
                self.sync(inst);
                Ok(())
            }
            Format::InterfaceCall => self.interface_call(inst),
            Format::Phase => {
                self.token(Style::Mnemonic, info.mnemonic);
                self.text(" ");
                Ok(())
            }
            Format::CustomData => self.custom_data(inst),
            Format::Decl(_) => self.declaration(inst, info),
        };
        if let Err(e) = printed {
            // What was printed of the line stays.
            self.flush();
            return Err(e);
        }
        let c = inst.controls();
        let hidden = c & !info.shown_controls(c);
        if hidden != 0 || trailing.is_some() {
            self.unshown(hidden, trailing);
        }
        if self.style.raw {
            self.raw(inst.tokens);
        }
        self.text("\n");
        self.end_line();
        if info.has(flag::OPEN) || info.has(flag::ELSE) {
            self.indent += 1;
        }
        self.check()
    }

    /// What starts a line (`numbered` when it shows an instruction rather than a declaration):
    /// fxc's numbering and offset columns, then the block indentation.
    #[inline(always)]
    fn line_prefix(&mut self, offset: u64, numbered: bool) {
        if self.style.offsets | self.style.numbering | self.style.file_offsets {
            self.columns(offset, numbered);
        }
        if self.indent > 0 {
            self.line.push_spaces(2 * self.indent);
        }
    }

    /// The numbering and offset columns of a line ([`Lister::line_prefix`]).
    #[inline(never)]
    fn columns(&mut self, offset: u64, numbered: bool) {
        let number = self.style.numbering.then(|| {
            numbered.then(|| {
                self.number += 1;
                self.number - 1
            })
        });
        let offset = if self.style.file_offsets {
            Some(offset)
        } else {
            self.style.offsets.then(|| offset.saturating_sub(self.base))
        };
        crate::isa::write_fxc_prefix(&mut self.line, number, offset);
    }

    /// `  // opcode bits 0x00004000, trailing 0x00000005`: what the text of the instruction
    /// does not otherwise carry, so that the assembler gives the same tokens back: opcode-token
    /// control bits no suffix or value shows (`hidden`, as [`Instruction::controls`] gives
    /// them), and the DWORDs after the operands where they are not fxc's (`trailing`: none,
    /// or one zero where [`OpInfo::trailing_zero`]; `trailing none` when that zero is absent).
    #[cold]
    fn unshown(&mut self, hidden: u32, trailing: Option<Tokens<'_>>) {
        use super::decode::field::OPCODE_SPECIFIC_CONTROL;
        self.begin(Style::Comment);
        self.text("  //");
        if hidden != 0 {
            self.text(" opcode bits ");
            let _ = write_hex8(self, OPCODE_SPECIFIC_CONTROL.put(hidden));
        }
        if let Some(words) = trailing {
            if hidden != 0 {
                self.text(",");
            }
            self.text(" trailing");
            if words.is_empty() {
                self.text(" none");
            }
            for w in words {
                self.text(" ");
                let _ = write_hex8(self, w.get());
            }
        }
        self.end();
    }

    /// `  // 0100003e …`: the instruction's tokens (`--raw`).
    fn raw(&mut self, tokens: Tokens<'_>) {
        self.begin(Style::Address);
        self.text("  //");
        for t in tokens {
            self.text(" ");
            let _ = write_hex(self, u64::from(t.get()), 8);
        }
        self.end();
    }

    /// The commonest line, printed straight from the tokens: an instruction
    /// ([`Format::Inst`]) without extended opcode tokens, all of whose operands
    /// [`Lister::plain_operand`] prints (nine lines in ten in the corpus). It prints what
    /// [`Lister::line`] prints for the instruction, without decoding its operands first;
    /// `false`, with nothing written, for any other line.
    #[inline]
    fn plain_line(&mut self, inst: &Instruction<'_>) -> bool {
        use super::decode::field::OPCODE_SPECIFIC_CONTROL;
        if !self.specialised || inst.has_extended() {
            return false;
        }
        let Some(info) = inst.info.filter(|i| i.format == Format::Inst) else { return false };
        let (tok0, offset) = (inst.token0(), inst.offset);
        let mut rest = inst.body();
        // Control bits the text does not show: the general printer says what they are.
        let c = OPCODE_SPECIFIC_CONTROL.get(tok0);
        if c & !info.shown_controls(c) != 0 {
            return false;
        }
        let indent = self.indent;
        if info.has(flag::CLOSE) || info.has(flag::ELSE) {
            self.indent = indent.saturating_sub(1);
        }
        self.line.start(Some(offset));
        let number = self.number;
        self.line_prefix(offset, true);
        self.opcode_text(tok0, info, &Extended::default());
        let mut first = true;
        for &ty in info.operands {
            if rest.is_empty() {
                break;
            }
            if first {
                self.text(" ");
            } else {
                self.text(", ");
            }
            let Some(used) = self.plain_operand(rest, ty) else {
                self.line.start(None);
                self.indent = indent;
                self.number = number;
                return false;
            };
            rest = rest.get(used..).unwrap_or(&[]);
            first = false;
        }
        if !rest.is_empty() || info.has(flag::TRAILING_ZERO) {
            // DWORDs after the operands, or fxc's zero: the general printer checks them.
            self.line.start(None);
            self.indent = indent;
            self.number = number;
            return false;
        }
        if first {
            self.text(" ");
        }
        if self.style.raw {
            self.raw(inst.tokens);
        }
        self.text("\n");
        self.end_line();
        if info.has(flag::OPEN) || info.has(flag::ELSE) {
            self.indent += 1;
        }
        true
    }

    /// An instruction's text; gives the DWORDs after its operands when they are not what the
    /// assembler writes there ([`OpInfo::trailing_zero`]).
    fn instruction<'t>(&mut self, inst: &Instruction<'t>, info: &OpInfo) -> Result<Option<Tokens<'t>>> {
        use super::decode::field::OPERAND_TYPE;
        self.opcode_text(inst.token0(), info, &inst.extended());
        // The operands the table lists: tokens after them are not operands. A source shows
        // its precision when it differs from the destination's.
        let mut dst_precision = None;
        let mut rest = inst.body();
        let mut offset = inst.body_offset(0);
        let mut second = None;
        for (k, &ty) in info.operands.iter().enumerate() {
            if rest.is_empty() {
                break;
            }
            if k == 1 {
                second = rest.first().map(|t| OPERAND_TYPE.get(t.get()) as u8);
            }
            if dst_precision.is_some() {
                self.text(", ");
            } else {
                self.text(" ");
            }
            // A source shows no precision of its own when the destination has none.
            if dst_precision.is_none_or(|p| p == 0)
                && let Some(used) = self.plain_operand(rest, ty)
            {
                dst_precision.get_or_insert(0);
                rest = rest.get(used..).unwrap_or(&[]);
                offset += used as u64 * 4;
                continue;
            }
            // Printed where it was decoded: moving the operand costs more than decoding it.
            match Operand::decode(rest, offset, 0) {
                Ok(ref o) => {
                    self.operand(o, ty, dst_precision)?;
                    dst_precision.get_or_insert(o.min_precision);
                    rest = rest.get(o.len()..).unwrap_or(&[]);
                    offset += o.len() as u64 * 4;
                }
                Err(e) => return Err(e),
            }
        }
        if dst_precision.is_none() {
            self.text(" ");
        }
        let fxc =
            if info.trailing_zero(second) { matches!(rest, [w] if w.get() == 0) } else { rest.is_empty() };
        Ok((!fxc).then_some(rest))
    }

    /// An instruction's mnemonic with everything glued to it, from its opcode token `tok0`
    /// and its extended opcode tokens `ext`: `sample_l_aoffimmi_indexable(-1,0,0)(texture2d)(float,float,float,float)`,
    /// `discard_nz`, `resinfo_uint`, `mov_sat`; then ` [precise(xz)]`.
    #[inline(always)]
    fn opcode_text(&mut self, tok0: u32, info: &OpInfo, ext: &Extended) {
        use super::decode::field::{
            INSTRUCTION_PRECISE_VALUES, INSTRUCTION_SATURATE, INSTRUCTION_TEST_BOOLEAN,
            RESINFO_INSTRUCTION_RETURN_TYPE,
        };
        self.begin(Style::Mnemonic);
        match super::opcodes::mnemonic_short(info.opcode) {
            Some(m) => self.line.push_short(m),
            None => self.text(info.mnemonic),
        }
        if info.has(flag::TEST) && (self.style.discard_test || info.opcode != op::D3D10_SB_OPCODE_DISCARD) {
            if INSTRUCTION_TEST_BOOLEAN.get(tok0) != 0 {
                self.text("_nz");
            } else {
                self.text("_z");
            }
        }
        if INSTRUCTION_SATURATE.get(tok0) != 0 {
            self.text("_sat");
        }
        if ext.offsets.is_some() && self.style.aoffimmi {
            self.text("_aoffimmi");
        }
        if ext.resource_dim.is_some() {
            self.text("_indexable");
        }
        if let Some(o) = ext.offsets {
            self.text("(");
            for (i, v) in o.iter().enumerate() {
                if i > 0 {
                    self.text(",");
                }
                let _ = write_i64(self, i64::from(*v));
            }
            self.text(")");
        }
        if let Some((dim, stride)) = ext.resource_dim {
            self.text("(");
            self.name(names::resource_dimension(u32::from(dim)), u32::from(dim));
            if dim == 12 {
                self.text(", stride=");
                self.number(u64::from(stride));
            }
            self.text(")");
        }
        if let Some(rt) = ext.return_type {
            self.return_types(rt.map(u32::from));
        }
        let ret_type = RESINFO_INSTRUCTION_RETURN_TYPE.get(tok0);
        if let Some((_, suffix)) = info.return_type_suffixes().iter().find(|(v, _)| *v == ret_type) {
            self.text(suffix);
        }
        self.end();
        let precise = INSTRUCTION_PRECISE_VALUES.get(tok0) as u8;
        if precise != 0 {
            // The letters of the destination components marked precise.
            self.text(" [precise(");
            self.text(
                components_text(Components::Mask(precise)).and_then(|t| t.as_str().get(1..)).unwrap_or(""),
            );
            self.text(")]");
        }
    }

    /// `fcall fp0[1][2]`: the interface operand, then the function index.
    fn interface_call(&mut self, inst: &Instruction<'_>) -> Result<()> {
        self.token(Style::Mnemonic, "fcall");
        self.text(" ");
        let function = inst.body_token(0, "fcall function index")?;
        if let Some(o) = inst.operands().next() {
            self.operand(&o?, Ty::R, None)?;
        }
        self.text("[");
        self.literal(u64::from(function));
        self.text("]");
        Ok(())
    }

    /// The commonest operands, printed straight from their tokens: a register whose indices
    /// are all immediate (`r3.xyzx`, `cb0[4].x`, `v[1][2].y`, `icb[7].xy`, `vThreadID.x`) or a
    /// 32-bit literal (`l(1.000000, 2)`), with at most one extended operand token, holding
    /// nothing but a modifier (`-r0.x`, `|r1.y|`); 98 operands in 100 in the corpus. It prints
    /// what [`Lister::operand`] prints for them, without decoding an [`Operand`] first (for a
    /// source, when the destination has the default precision). `None`, with nothing written,
    /// for any other operand: the general printer prints it, or reports what is wrong with
    /// it. Gives the tokens it used.
    #[inline(always)]
    fn plain_operand(&mut self, t: Tokens<'_>, ty: Ty) -> Option<usize> {
        use super::decode::field::{
            EXTENDED_OPERAND_TYPE, OPERAND_EXTENDED, OPERAND_INDEX_DIMENSION, OPERAND_MODIFIER, OPERAND_TYPE,
        };
        if !self.specialised {
            return None;
        }
        let tok0 = t.first()?.get();
        let (modifier, head) = if OPERAND_EXTENDED.get(tok0) == 0 {
            (0, 1)
        } else {
            let ext = t.get(1)?.get();
            // A precision, `nonuniform` or another extended token (bits 14 and up).
            if ext >> 14 != 0 {
                return None;
            }
            (if EXTENDED_OPERAND_TYPE.get(ext) == 1 { OPERAND_MODIFIER.get(ext) } else { 0 }, 2)
        };
        let file = OPERAND_TYPE.get(tok0) as u8;
        let dim = OPERAND_INDEX_DIMENSION.get(tok0) as usize;
        let selection = selection_text(tok0)?;
        // Relative indices (and the undefined representations) need the general printer:
        // the representations of the `dim` indices, three bits each from bit 22, are zero.
        let immediate_indices = (tok0 >> 22) & !(u32::MAX << (3 * dim)) == 0;
        if file == ot::IMMEDIATE32 && dim == 0 {
            let n = match OPERAND_NUM_COMPONENTS.get(tok0) {
                0 => 0,
                1 => 1,
                _ => 4,
            };
            let values = t.get(head..head + n)?;
            let start = self.line.len();
            self.modifier_before(modifier);
            let token = self.line.len();
            self.text("l(");
            self.literal_values(values.iter().map(|v| v.get()), ty);
            self.text(")");
            let token = token..self.line.len();
            self.modifier_after(modifier);
            self.line.mark_operand(start, token, Style::Literal);
            return Some(head + n);
        }
        if matches!(file, ot::IMMEDIATE32 | ot::IMMEDIATE64) || !immediate_indices {
            return None;
        }
        let index = t.get(head..head + dim)?;
        let register = register_file(file, self.sm51);
        // The first index follows the name (`r3`, `cb0[4]`) except for registers whose
        // indices are all bracketed (`icb[7]`) and 2D inputs and outputs (`v[1][2]`).
        let attached =
            register.shape == Shape::Attached && !(dim >= 2 && matches!(file, ot::INPUT | ot::OUTPUT));
        let start = self.line.len();
        self.modifier_before(modifier);
        let token = self.line.len();
        self.line.push_short(&register.text);
        if register.shape != Shape::Fixed {
            for (i, v) in index.iter().enumerate() {
                if i == 0 && attached {
                    self.number(u64::from(v.get()));
                } else {
                    self.text("[");
                    self.number(u64::from(v.get()));
                    self.text("]");
                }
            }
        }
        self.line.push_short(selection);
        let token = token..self.line.len();
        self.modifier_after(modifier);
        self.line.mark_operand(start, token, register.style);
        Some(head + dim)
    }

    /// What a source modifier (`D3D10_SB_OPERAND_MODIFIER`) puts before the register: `-`,
    /// `|`, `-|`; other values print nothing.
    #[inline(always)]
    fn modifier_before(&mut self, modifier: u32) {
        match modifier {
            1 => self.text("-"),
            2 => self.text("|"),
            3 => self.text("-|"),
            _ => {}
        }
    }

    /// What a source modifier puts after the register: `|` for the absolute values.
    #[inline]
    fn modifier_after(&mut self, modifier: u32) {
        if matches!(modifier, 2 | 3) {
            self.text("|");
        }
    }

    /// One operand. `dst_precision` is `None` for the destination (or a declared register)
    /// and the destination's precision for sources.
    fn operand(&mut self, o: &Operand<'_>, ty: Ty, dst_precision: Option<u8>) -> Result<()> {
        self.start_operand();
        match o.modifier {
            Modifier::None => {}
            Modifier::Neg => self.text("-"),
            Modifier::Abs => self.text("|"),
            Modifier::AbsNeg => self.text("-|"),
        }
        self.register(o, ty, false)?;
        if matches!(o.modifier, Modifier::Abs | Modifier::AbsNeg) {
            self.text("|");
        }
        if o.min_precision != 0 || dst_precision.is_some_and(|d| d != 0) {
            self.precision(o.min_precision, dst_precision);
        }
        if o.non_uniform {
            self.text(" {nonuniform}");
        }
        self.end_operand();
        Ok(())
    }

    /// Register name, indices and component selection (no modifiers), or a literal. `decl`
    /// selects the declaration forms of SM5.1 ranges (`T1[1:1]`).
    fn register(&mut self, o: &Operand<'_>, ty: Ty, decl: bool) -> Result<()> {
        match o.ty {
            ot::IMMEDIATE32 => {
                self.begin(Style::Literal);
                self.text("l(");
                let n = usize::from(o.imm_len);
                self.literal_values(o.imm.iter().copied().take(n), ty);
                self.text(")");
                self.end();
                return Ok(());
            }
            ot::IMMEDIATE64 => {
                self.begin(Style::Literal);
                self.text("d(");
                let n = if o.imm_len == 2 { 1 } else { 2 };
                for i in 0..n {
                    if i > 0 {
                        self.text(", ");
                    }
                    let lo = o.imm.get(2 * i).copied().unwrap_or(0);
                    let hi = o.imm.get(2 * i + 1).copied().unwrap_or(0);
                    let bits = (u64::from(hi) << 32) | u64::from(lo);
                    if self.style.hex_literals
                        || (self.style.exact_floats
                            && !crate::asm::text::f64_text_is_exact(bits, self.style.floats))
                    {
                        self.text("0x");
                        let _ = write_hex(self, bits, 16);
                        continue;
                    }
                    let _ = write_f64_fixed(self, bits, self.style.floats);
                    // fxc marks double literals with a trailing `l` (`d(1.000000l, 0.000000l)`),
                    // as RenderDoc's and vkd3d's fxc-style printers also do.
                    self.text("l");
                }
                self.text(")");
                self.end();
                return Ok(());
            }
            _ => {}
        }
        let file = register_file(o.ty, self.sm51);
        let style = file.style;
        self.begin(style);
        self.line.push_short(&file.text);
        match file.shape {
            Shape::Attached => self.indices_attached(o, decl, style)?,
            Shape::Bracketed => {
                for i in 0..usize::from(o.index_dim) {
                    self.index(o, i, style)?;
                }
            }
            Shape::Fixed => {}
        }
        self.components(o.components);
        self.end();
        Ok(())
    }

    /// `r0`, `cb0[3]`, `v[r0.x + 0]`, `T1[1:1]`: the first index follows the name unless it
    /// is relative (or the register is a 2D input); `style` is the register's.
    fn indices_attached(&mut self, o: &Operand<'_>, decl: bool, style: Style) -> Result<()> {
        let dim = usize::from(o.index_dim);
        if dim == 0 {
            return Ok(());
        }
        let first_bracketed = matches!(o.ty, ot::INPUT | ot::OUTPUT) && dim >= 2;
        match o.imm_index(0) {
            Some(v) if !first_bracketed => self.number(v),
            _ => self.index(o, 0, style)?,
        }
        if decl && self.sm51 && dim == 3 && is_descriptor(o.ty) {
            // Declared range: [lower:upper], upper 0xffffffff meaning unbounded.
            self.text("[");
            self.number(o.index(1).map(|x| x.imm).unwrap_or(0));
            self.text(":");
            match o.index(2).map(|x| x.imm) {
                Some(0xffff_ffff) => self.text("*"),
                v => self.number(v.unwrap_or(0)),
            }
            self.text("]");
            return Ok(());
        }
        for i in 1..dim {
            self.index(o, i, style)?;
        }
        Ok(())
    }

    /// `[imm]` or `[rel + imm]`; the register's `style` pauses around a relative operand.
    fn index(&mut self, o: &Operand<'_>, i: usize, style: Style) -> Result<()> {
        let Some(ix) = o.index(i) else { return Ok(()) };
        self.text("[");
        if let Some(rel) = ix.rel {
            let r = rel.decode()?;
            self.end();
            self.operand(&r, Ty::I, None)?;
            self.begin(style);
            self.text(" + ");
        }
        self.number(ix.imm);
        self.text("]");
        Ok(())
    }

    /// The component selection: `.xyzw`, `.x`; nothing for an operand without one.
    #[inline]
    fn components(&mut self, c: Components) {
        if let Some(text) = components_text(c) {
            self.line.push_short(text);
        }
    }

    /// The values inside `l(…)`, each printed as the operand's type says (or in hexadecimal,
    /// `hex_literals`).
    #[inline]
    fn literal_values(&mut self, values: impl Iterator<Item = u32>, ty: Ty) {
        for (i, v) in values.enumerate() {
            if i > 0 {
                // Untyped values are joined without a space.
                if ty == Ty::X {
                    self.text(",");
                } else {
                    self.text(", ");
                }
            }
            if self.style.hex_literals {
                let _ = write_hex8(self, v);
                continue;
            }
            match ty {
                Ty::F | Ty::D => self.float(v),
                Ty::I | Ty::R => self.int(v),
                Ty::X => self.untyped(v),
            }
        }
    }

    /// `%f` of a 32-bit float.
    #[inline]
    fn float(&mut self, bits: u32) {
        if self.style.exact_floats && !crate::asm::text::f32_text_is_exact(bits, self.style.floats) {
            let _ = write_hex8(self, bits);
            return;
        }
        match f32_fixed_text(bits, self.style.floats) {
            Some(text) => self.line.push_short(&text),
            None => {
                let _ = write_f32_fixed(self, bits, self.style.floats);
            }
        }
    }

    /// An integer literal, decimal or `0x%08x`.
    #[inline]
    fn int(&mut self, v: u32) {
        if v < 100 {
            self.number(u64::from(v));
        } else {
            self.line.push_short(&int_text(v));
        }
    }

    /// An untyped 32-bit value: a float unless its bits look like an integer.
    #[inline]
    fn untyped(&mut self, v: u32) {
        if untyped_is_float(v) { self.float(v) } else { self.int(v) }
    }

    fn custom_data(&mut self, inst: &Instruction<'_>) -> Result<()> {
        match inst.custom_data_class() {
            // D3D10_SB_CUSTOMDATA_DCL_IMMEDIATE_CONSTANT_BUFFER
            Some(3) => {
                const MNEMONIC: &str = "dcl_immediateConstantBuffer";
                self.token(Style::Mnemonic, MNEMONIC);
                self.text(" { ");
                let rows = inst.body().chunks(4);
                let n = rows.len();
                if n == 0 {
                    self.text("}");
                }
                for (r, row) in rows.enumerate() {
                    if r > 0 {
                        // Rows line up under the first one.
                        self.text(",\n");
                        self.start_line(None);
                        let _ = write_spaces(self, 2 * self.indent + MNEMONIC.len() + 3);
                    }
                    self.start_operand();
                    self.text("{ ");
                    for (c, v) in row.iter().enumerate() {
                        if c > 0 {
                            self.text(", ");
                        }
                        self.begin(Style::Literal);
                        if self.style.hex_literals {
                            let _ = write_hex8(self, v.get());
                        } else {
                            self.untyped(v.get());
                        }
                        self.end();
                    }
                    self.text("}");
                    self.end_operand();
                    if r + 1 == n {
                        self.text(" }");
                    }
                }
                Ok(())
            }
            // D3D11_SB_CUSTOMDATA_SHADER_MESSAGE
            Some(4) => self.shader_message(inst),
            // Comments, debug info, opaque data and DX9 clip-plane mappings print nothing.
            _ => Ok(()),
        }
    }

    /// `printf "fmt", r0.x` / `errorf "fmt", …` from a shader-message block.
    fn shader_message(&mut self, inst: &Instruction<'_>) -> Result<()> {
        let m = inst.shader_message()?;
        self.token(Style::Mnemonic, if m.id == 0x0020_0103 { "errorf" } else { "printf" });
        self.text(" ");
        self.start_operand();
        self.begin(Style::Literal);
        self.text("\"");
        let text = m.text.iter().flat_map(|t| t.get().to_le_bytes()).take(m.chars).take_while(|&b| b != 0);
        for b in text {
            let _ = fmt::Write::write_char(self, char::from(b));
        }
        self.text("\"");
        self.end();
        self.end_operand();
        for o in &m.operands {
            self.text(", ");
            self.operand(o, Ty::X, None)?;
        }
        Ok(())
    }

    /// `sync` with its flags: `_uglobal`, `_ugroup`, `_g` (shared memory), `_t` (thread group).
    fn sync(&mut self, inst: &Instruction<'_>) {
        let c = inst.controls();
        self.begin(Style::Mnemonic);
        self.text("sync");
        for (bit, suffix) in [(8, "_uglobal"), (4, "_ugroup"), (2, "_g"), (1, "_t")] {
            if c & bit != 0 {
                self.text(suffix);
            }
        }
        self.end();
    }

    /// `(float,float,float,float)`.
    fn return_types(&mut self, rt: [u32; 4]) {
        self.text("(");
        for (i, t) in rt.iter().enumerate() {
            if i > 0 {
                self.text(",");
            }
            self.name(names::return_type(*t), *t);
        }
        self.text(")");
    }

    /// ` {min16f}` on a destination; ` {def32 as min16f}` on a source whose precision differs
    /// from the destination's.
    fn precision(&mut self, p: u8, dst: Option<u8>) {
        match dst {
            Some(d) if d != p => {
                self.text(" {");
                self.text(names::min_precision(p));
                self.text(" as ");
                self.text(names::min_precision(d));
                self.text("}");
            }
            _ if p != 0 => {
                self.text(" {");
                self.text(names::min_precision(p));
                self.text("}");
            }
            _ => {}
        }
    }

    /// A declaration, as the layout in its row says ([`Piece`]): the mnemonic with the pieces
    /// glued to it, a space, then the other pieces. The declared register is decoded before
    /// anything is printed, so that a declaration whose register does not decode prints
    /// nothing; one that [`Lister::plain_operand`] prints (`dcl_input v0.xy`) is not decoded.
    fn declaration(&mut self, inst: &Instruction<'_>, info: &OpInfo) -> Result<()> {
        if self.specialised && info.facts.operand {
            let start = self.line.point();
            if self.decl_pieces(inst, info, None)? {
                return Ok(());
            }
            self.line.back_to(start);
        }
        let register = if info.declares_register() { Some(inst.first_operand()?) } else { None };
        self.decl_pieces(inst, info, register.as_ref()).map(|_| ())
    }

    /// The pieces of a declaration whose decoded register is `register`. Without it, the
    /// register is printed by [`Lister::plain_operand`] where it can be; `false` where it
    /// cannot (the line is then incomplete).
    fn decl_pieces(
        &mut self,
        inst: &Instruction<'_>,
        info: &OpInfo,
        register: Option<&Operand<'_>>,
    ) -> Result<bool> {
        let c = inst.controls();
        let (glued, rest) = info.glued_and_rest();
        self.begin(Style::Mnemonic);
        self.text(info.mnemonic);
        for &piece in glued {
            match piece {
                Piece::Dimension => {
                    let dim = c & 0x1f;
                    self.text("_");
                    self.name(names::resource_dimension(dim), dim);
                }
                Piece::SampleCount if matches!(c & 0x1f, 4 | 9) => {
                    self.text("(");
                    self.number(u64::from((c >> 5) & 0x7f));
                    self.text(")");
                }
                Piece::Flag(bit, suffix) if c & bit != 0 => self.text(suffix),
                _ => {}
            }
        }
        self.end();
        self.text(" ");
        // The length of the register: the DWORDs the other pieces read follow it.
        let mut used = register.map_or(0, |o| o.len());
        let sm51 = self.sm51;
        for &piece in rest {
            // The piece's DWORD, for the arms below whose piece reads one.
            let at = used;
            let word = || inst.piece_word(piece, at, sm51).unwrap_or(Ok(0));
            match piece {
                Piece::Text(text) => self.text(text),
                Piece::Blank => self.text(" "),
                Piece::Operand => match register {
                    Some(o) => self.operand(o, Ty::R, None)?,
                    None => match self.plain_operand(inst.body(), Ty::R) {
                        Some(n) => used = n,
                        None => return Ok(false),
                    },
                },
                Piece::Register => match register {
                    Some(o) => self.decl_register(o)?,
                    None => return Ok(false),
                },
                Piece::ConstantBuffer => match register {
                    Some(o) => self.constant_buffer(inst, o)?,
                    None => return Ok(false),
                },
                Piece::Named(mask, names) => self.name_operand(names.of()(c & mask), c & mask),
                Piece::Count(mask) => self.value(u64::from(c & mask)),
                Piece::Interpolation(sgv) => {
                    // fxc 9.x shows no interpolation mode on system-generated values although
                    // the bits say `constant`; fxc 10.x shows it.
                    let mode = if sgv && !self.style.sgv_interpolation { 0 } else { c & 0xf };
                    let text = names::interpolation(mode);
                    if text != Some("") {
                        self.name(text, mode);
                        self.text(" ");
                    }
                }
                Piece::Value(..) => self.value(u64::from(word()?)),
                Piece::SystemValue(_) => {
                    let name = word()? & 0xffff;
                    self.name_operand(names::system_value(name), name);
                }
                Piece::ReturnType(_) => {
                    let rt = word()?;
                    self.return_types([rt & 0xf, (rt >> 4) & 0xf, (rt >> 8) & 0xf, (rt >> 12) & 0xf]);
                }
                Piece::Label(prefix, ..) => self.label(prefix, word()?),
                Piece::Float(..) => {
                    let v = word()?;
                    self.start_operand();
                    self.begin(Style::Literal);
                    self.text("l(");
                    self.float(v);
                    self.text(")");
                    self.end();
                    self.end_operand();
                }
                Piece::Space(_) | Piece::SpaceOrBlank(_) if self.sm51 => self.space(word()?),
                Piece::Space(_) => {}
                Piece::SpaceOrBlank(_) if self.style.structured_blank => self.text(" "),
                Piece::SpaceOrBlank(_) => {}
                Piece::IndexableTemp => self.indexable_temp(inst)?,
                Piece::GlobalFlags => self.global_flags(inst.token0()),
                Piece::FunctionTable => self.function_table(inst)?,
                Piece::Interface => self.interface(inst)?,
                Piece::Dimension | Piece::SampleCount | Piece::Flag(..) => {}
            }
        }
        Ok(true)
    }

    /// [`Piece::ConstantBuffer`]: `cb0[4]` (`CB0[4]`, [`ListingStyle::upper_case_cb_decl`])
    /// before SM5.1, `CB0[0:0][4]` from it, as an operand.
    fn constant_buffer(&mut self, inst: &Instruction<'_>, o: &Operand<'_>) -> Result<()> {
        self.start_operand();
        if self.sm51 {
            self.register(&o.without_components(), Ty::R, true)?;
            self.precision(o.min_precision, None);
            self.begin(Style::Register);
            self.text("[");
            let size = inst.piece_word(Piece::ConstantBuffer, o.len(), true).unwrap_or(Ok(0))?;
            self.number(u64::from(size));
            self.text("]");
            self.end();
        } else {
            // cb#[size]: the slot follows the name, the size is bracketed.
            self.begin(Style::Register);
            self.text(if self.style.upper_case_cb_decl { "CB" } else { "cb" });
            self.indices_attached(o, false, Style::Register)?;
            self.end();
        }
        self.end_operand();
        Ok(())
    }

    /// [`Piece::IndexableTemp`]: `x0[4]`, as an operand.
    fn indexable_temp(&mut self, inst: &Instruction<'_>) -> Result<()> {
        let (register, size) = inst.indexable_temp()?;
        self.start_operand();
        self.begin(Style::Register);
        self.text("x");
        self.number(u64::from(register));
        self.text("[");
        self.number(u64::from(size));
        self.text("]");
        self.end();
        self.end_operand();
        Ok(())
    }

    /// [`Piece::GlobalFlags`] of the opcode token `bits`, as an operand.
    fn global_flags(&mut self, bits: u32) {
        self.start_operand();
        let mut first = true;
        for (bit, name) in names::GLOBAL_FLAGS {
            if bits & bit != 0 {
                if !first {
                    self.text(" | ");
                }
                self.text(name);
                first = false;
            }
        }
        let unknown = bits & 0x00ff_f800 & !0x000f_f800;
        if unknown != 0 {
            if !first {
                self.text(" | ");
            }
            self.begin(Style::Literal);
            let _ = write_hex8(self, unknown);
            self.end();
        }
        self.end_operand();
    }

    /// [`Piece::FunctionTable`]: `ft0 = {fb0, fb1}`.
    fn function_table(&mut self, inst: &Instruction<'_>) -> Result<()> {
        let (id, bodies) = inst.function_table()?;
        self.label("ft", id);
        self.text(" = {");
        for (i, body) in bodies.enumerate() {
            if i > 0 {
                self.text(", ");
            }
            self.label("fb", body?);
        }
        self.text("}");
        Ok(())
    }

    /// [`Piece::Interface`]: `fp0[2][1] = {ft0, ft1}`.
    fn interface(&mut self, inst: &Instruction<'_>) -> Result<()> {
        let fp = inst.interface()?;
        self.start_operand();
        self.begin(Style::Label);
        self.text("fp");
        self.number(u64::from(fp.id));
        self.text("[");
        self.number(u64::from(fp.array_length));
        self.text("][");
        self.number(u64::from(fp.table_length));
        self.text("]");
        self.end();
        self.end_operand();
        self.text(" = {");
        for (i, table) in fp.tables.enumerate() {
            if i > 0 {
                self.text(", ");
            }
            self.label("ft", table?);
        }
        self.text("}");
        Ok(())
    }

    /// `fb3`, `ft0`: a function body or table named in a declaration, as an operand.
    fn label(&mut self, prefix: &str, v: u32) {
        self.start_operand();
        self.begin(Style::Label);
        self.text(prefix);
        self.number(u64::from(v));
        self.end();
        self.end_operand();
    }

    /// A declared register as an operand: SM5.1 ranges print `T1[1:1]`, earlier models `t1`;
    /// the component selection of the declared operand is not printed.
    fn decl_register(&mut self, o: &Operand<'_>) -> Result<()> {
        self.start_operand();
        self.register(&o.without_components(), Ty::R, true)?;
        self.precision(o.min_precision, None);
        self.end_operand();
        Ok(())
    }

    /// `, space=N` after SM5.1 descriptor declarations, as an operand.
    fn space(&mut self, space: u32) {
        self.text(", ");
        self.start_operand();
        self.text("space=");
        self.literal(u64::from(space));
        self.end_operand();
    }
}

/// The walk's visitor that prints the listing: each instruction's line, what
/// [`ListingReport`] counts, and the first error, which stops the walk.
struct Lines<'l, 'o, P: Printer + ?Sized> {
    l: &'l mut Lister<'o, P>,
    report: ListingReport,
    error: Option<Error>,
}

impl<P: Printer + ?Sized> Visit<Instruction<'_>> for Lines<'_, '_, P> {
    #[inline]
    fn step(&mut self, inst: Instruction<'_>) {
        self.report.instructions += 1;
        let printed = if self.l.plain_line(&inst) {
            self.l.check()
        } else {
            if inst.info.is_none() {
                self.report.unknown_opcodes.push((inst.offset, inst.opcode));
            }
            self.l.line(&inst)
        };
        if let Err(e) = printed {
            self.problem(e);
        }
    }
    fn problem(&mut self, error: Error) {
        self.error.get_or_insert(error);
    }
    fn stopped(&self) -> bool {
        self.error.is_some()
    }
}

/// The listing's number and float writers write through the lister, which notes a sink that
/// refuses text (reported after the line); this never fails.
impl<P: Printer + ?Sized> fmt::Write for Lister<'_, P> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.short(s);
        Ok(())
    }
    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        let mut b = [0u8; 4];
        self.line.push_str(c.encode_utf8(&mut b));
        Ok(())
    }
}

/// The component selection of an operand token as [`components_text`] gives it, read from
/// the token: the empty text for none, `None` for the undefined selection mode.
#[inline]
fn selection_text(tok0: u32) -> Option<&'static Short<8>> {
    use super::decode::field::{OPERAND_4_COMPONENT_SELECTION_MODE, OPERAND_4_COMPONENT_SWIZZLE};
    if OPERAND_NUM_COMPONENTS.get(tok0) != 2 {
        return COMPONENTS.first();
    }
    // The mask (4 bits), swizzle (8) or selected component (2) all start at bit 4.
    let bits = OPERAND_4_COMPONENT_SWIZZLE.get(tok0) as usize;
    match OPERAND_4_COMPONENT_SELECTION_MODE.get(tok0) {
        0 => COMPONENTS.get(bits & 15),
        1 => COMPONENTS.get(16 + bits),
        2 => COMPONENTS.get(16 + 256 + (bits & 3)),
        _ => None,
    }
}

/// The text of a component selection: a `.` and the letters (`None` for none).
#[inline]
fn components_text(c: Components) -> Option<&'static Short<8>> {
    let at = match c {
        Components::Mask(0) | Components::Zero | Components::One | Components::N => return None,
        Components::Mask(m) => usize::from(m & 15),
        Components::Swizzle([x, y, z, w]) => {
            16 + usize::from((x & 3) | (y & 3) << 2 | (z & 3) << 4 | (w & 3) << 6)
        }
        Components::Select(v) => 16 + 256 + usize::from(v & 3),
    };
    COMPONENTS.get(at)
}

/// Every component selection: the 16 write masks (bit 0 x … bit 3 w), the 256 swizzles by
/// the swizzle byte of the operand token (two bits a component, x lowest), the 4 selects.
static COMPONENTS: [Short<8>; 16 + 256 + 4] = component_texts();

// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn component_texts() -> [Short<8>; 16 + 256 + 4] {
    const XYZW: &[u8; 4] = b"xyzw";
    let mut t = [Short::new(""); 16 + 256 + 4];
    let mut m = 1;
    while m < 16 {
        let mut b = [b'.'; 5];
        let mut n = 1;
        let mut c = 0;
        while c < 4 {
            if m & (1 << c) != 0 {
                b[n] = XYZW[c];
                n += 1;
            }
            c += 1;
        }
        t[m] = Short::from_ascii(b.split_at(n).0);
        m += 1;
    }
    let mut s = 0;
    while s < 256 {
        let b = [b'.', XYZW[s & 3], XYZW[(s >> 2) & 3], XYZW[(s >> 4) & 3], XYZW[(s >> 6) & 3]];
        t[16 + s] = Short::from_ascii(&b);
        s += 1;
    }
    let mut c = 0;
    while c < 4 {
        t[16 + 256 + c] = Short::from_ascii(&[b'.', XYZW[c]]);
        c += 1;
    }
    t
}

/// How the listing prints a register file: fxc's name ([`names::register_file`]) as a table
/// text, how its indices print, and the style of its tokens (function bodies, tables,
/// interfaces and labels are [`Style::Label`], everything else [`Style::Register`]).
#[derive(Debug, Clone, Copy)]
struct RegisterFile {
    text: Short<32>,
    shape: Shape,
    style: Style,
}

/// The register file `t` (a `D3D10_SB_OPERAND_TYPE`), from a table built at compile time.
#[inline]
fn register_file(t: u8, sm51: bool) -> &'static RegisterFile {
    REGISTER_FILES.get(usize::from(sm51)).and_then(|r| r.get(usize::from(t))).unwrap_or(&UNKNOWN_REGISTER)
}

/// Every register file the format defines (`D3D10_SB_OPERAND_TYPE` 0–42), before SM5.1 and
/// from SM5.1 on.
static REGISTER_FILES: [[RegisterFile; 43]; 2] = [register_files(false), register_files(true)];

/// What the listing prints for a number the format does not define.
const UNKNOWN_REGISTER: RegisterFile = describe_register_file(u8::MAX, false);

// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn register_files(sm51: bool) -> [RegisterFile; 43] {
    let mut t = [UNKNOWN_REGISTER; 43];
    let mut i = 0;
    while i < t.len() {
        t[i] = describe_register_file(i as u8, sm51);
        i += 1;
    }
    t
}

const fn describe_register_file(t: u8, sm51: bool) -> RegisterFile {
    let (name, shape) = names::register_file(t, sm51);
    let style = match t {
        ot::LABEL | ot::FUNCTION_BODY | ot::FUNCTION_TABLE | ot::INTERFACE => Style::Label,
        _ => Style::Register,
    };
    RegisterFile { text: Short::new(name), shape, style }
}

#[inline]
fn is_descriptor(t: u8) -> bool {
    matches!(t, ot::SAMPLER | ot::RESOURCE | ot::CONSTANT_BUFFER | ot::UNORDERED_ACCESS_VIEW)
}

/// fxc's choice for an untyped (`mov`-family) immediate component: a float when the exponent
/// field is neither all zeros nor all ones, and for `-0.0`; integers (small values are
/// denormal patterns, negative ones have all exponent bits set), NaN and Inf print as integers.
/// Corpus evidence: `l(0,128,0.000000,0)` (0x00800000 is a float), `l(0,0x00008000,-0.000000,0)`.
#[inline]
pub(crate) fn untyped_is_float(v: u32) -> bool {
    let exp = (v >> 23) & 0xff;
    (exp != 0 && exp != 0xff) || v == 0x8000_0000
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::{Html, TextBuf};

    /// Operand token helpers (d3d12TokenizedProgramFormat.hpp layout).
    fn reg(ty: u32, dim: u32) -> u32 {
        (ty << 12) | (dim << 20)
    }
    fn mask(m: u32) -> u32 {
        2 | (m << 4)
    }
    fn swz(s: [u32; 4]) -> u32 {
        2 | (1 << 2) | ((s[0] | (s[1] << 2) | (s[2] << 4) | (s[3] << 6)) << 4)
    }
    fn sel(c: u32) -> u32 {
        2 | (2 << 2) | (c << 4)
    }
    fn op(opcode: u32, len: u32) -> u32 {
        opcode | (len << 24)
    }

    /// The bytes of a program: the version token, the length token and `body`.
    fn program(version: u32, body: &[u32]) -> Vec<u8> {
        let mut words = vec![version, 0];
        words.extend_from_slice(body);
        words[1] = words.len() as u32;
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn listing(version: u32, body: &[u32], style: ListingStyle) -> String {
        let data = program(version, body);
        let p = Program::parse(&data, 0).unwrap();
        let mut s = TextBuf::default();
        let report = write_listing(&p, &style, &mut s).unwrap();
        assert!(report.unknown_opcodes.is_empty());
        s.into_string()
    }

    #[test]
    fn declarations_and_untyped_literals_as_fxc_prints_them() {
        let body = [
            op(0x59, 4),
            reg(8, 2) | swz([0, 1, 2, 3]),
            0,
            4,
            op(0x65, 3),
            reg(2, 1) | mask(0xf),
            0,
            op(0x68, 2),
            1,
            // mov r0.xyzw, l(0,0,0,1.000000)
            op(0x36, 8),
            reg(0, 1) | mask(0xf),
            0,
            reg(4, 0) | 2,
            0,
            0,
            0,
            0x3f80_0000,
            // mul o0.xyzw, r0.xyzw, cb0[3].xxxx
            op(0x38, 8),
            reg(2, 1) | mask(0xf),
            0,
            reg(0, 1) | swz([0, 1, 2, 3]),
            0,
            reg(8, 2) | swz([0, 0, 0, 0]),
            0,
            3,
            op(0x3e, 1),
        ];
        let text = listing(0x0001_0040, &body, ListingStyle::FXC_9_30);
        assert_eq!(
            text,
            "vs_4_0\ndcl_constantbuffer cb0[4], immediateIndexed\ndcl_output o0.xyzw\ndcl_temps 1\n\
             mov r0.xyzw, l(0,0,0,1.000000)\nmul o0.xyzw, r0.xyzw, cb0[3].xxxx\nret \n"
        );
        // fxc 10 prints the declared slot upper case, and nothing else changes.
        let text = listing(0x0001_0040, &body, ListingStyle::FXC_10);
        assert!(text.contains("dcl_constantbuffer CB0[4], immediateIndexed\n"));
        assert!(text.contains("cb0[3].xxxx"));
    }

    #[test]
    fn function_tables_in_short_and_long_form() {
        // dcl_function_table ft0 = {fb0, fb2}: length in the opcode token, or (bit 31) in the
        // DWORD after it.
        let short = [op(145, 5), 0, 2, 0, 2];
        let long = [145 | 0x8000_0000, 6, 0, 2, 0, 2];
        for body in [&short[..], &long[..]] {
            let text = listing(0x0000_0050, body, ListingStyle::FXC_10);
            assert_eq!(text, "ps_5_0\ndcl_function_table ft0 = {fb0, fb2}\n");
        }
    }

    #[test]
    fn system_generated_inputs_show_their_interpolation_from_fxc_10_on() {
        // dcl_input_ps_sgv v4.x, is_front_face with the interpolation bits set to constant.
        let body = [op(99, 4) | (1 << 11), reg(1, 1) | mask(1), 4, 9];
        let new = listing(0x0000_0050, &body, ListingStyle::FXC_10);
        assert_eq!(new, "ps_5_0\ndcl_input_ps_sgv constant v4.x, is_front_face\n");
        let old = listing(0x0000_0050, &body, ListingStyle::FXC_9_30);
        assert_eq!(old, "ps_5_0\ndcl_input_ps_sgv v4.x, is_front_face\n");
    }

    #[test]
    fn blocks_indent_two_spaces_and_operandless_lines_keep_a_space() {
        let body = [
            op(0x68, 2),
            1,
            // if_nz r0.x
            op(0x1f, 3) | (1 << 18),
            reg(0, 1) | sel(0),
            0,
            // loop / break / endloop
            op(0x30, 1),
            op(0x02, 1),
            op(0x16, 1),
            op(0x12, 1),
            // discard_z r0.x
            op(0x0d, 3),
            reg(0, 1) | sel(0),
            0,
            op(0x15, 1),
            op(0x3e, 1),
        ];
        let text = listing(0x0000_0041, &body, ListingStyle::FXC_9_30);
        assert_eq!(
            text,
            "ps_4_1\ndcl_temps 1\nif_nz r0.x\n  loop \n    break \n  endloop \nelse \n  discard_z r0.x\nendif \nret \n"
        );
        // fxc 9.29 prints discard without its test.
        let text = listing(0x0000_0041, &body, ListingStyle::FXC_9_29);
        assert!(text.contains("\n  discard r0.x\n"));
    }

    #[test]
    fn texel_offsets_resource_types_and_relative_addressing() {
        // sample_l_indexable with offsets (-1,0,0), texture2d, float x4:
        //   sample_l r0.xyzw, v1.xyxx, t0.xyzw, s3, l(0.000000)
        let ext_off = 0x8000_0000 | 1 | ((0xf) << 9); // u = -1, chained
        let ext_dim = 0x8000_0000 | 2 | (3 << 6);
        let ext_ret = 3 | (5 << 6) | (5 << 10) | (5 << 14) | (5 << 18);
        let body = [
            op(0x48, 14) | 0x8000_0000,
            ext_off,
            ext_dim,
            ext_ret,
            reg(0, 1) | mask(0xf),
            0,
            reg(1, 1) | swz([0, 1, 0, 0]),
            1,
            reg(7, 1) | swz([0, 1, 2, 3]),
            0,
            reg(6, 1),
            3,
            reg(4, 0) | 1,
            0,
            // mov r0.x, cb0[r1.y + 26].x
            op(0x36, 8),
            reg(0, 1) | mask(1),
            0,
            reg(8, 2) | sel(0) | (3 << 25),
            0,
            26,
            reg(0, 1) | sel(1),
            1,
        ];
        let text = listing(0x0000_0050, &body, ListingStyle::FXC_9_30);
        assert_eq!(
            text,
            "ps_5_0\nsample_l_aoffimmi_indexable(-1,0,0)(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, \
             t0.xyzw, s3, l(0.000000)\nmov r0.x, cb0[r1.y + 26].x\n"
        );
        let text = listing(0x0000_0050, &body, ListingStyle::FXC_9_29);
        assert!(
            text.starts_with(
                "ps_5_0\nsample_l_indexable(-1,0,0)(texture2d)(float,float,float,float) r0.xyzw"
            )
        );
    }

    #[test]
    fn sm51_ranges_spaces_and_immediate_constant_buffer_rows() {
        let body = [
            // dcl_constantbuffer CB0[0:0][26], immediateIndexed, space=0
            op(0x59, 7),
            reg(8, 3) | swz([0, 1, 2, 3]),
            0,
            0,
            0,
            26,
            0,
            // dcl_resource_texture2d (float,float,float,float) T1[1:1], space=0
            op(0x58, 7) | (3 << 11),
            reg(7, 3) | swz([0, 1, 2, 3]),
            1,
            1,
            1,
            0x5555,
            0,
            // immediate constant buffer, 2 rows
            53 | (3 << 11),
            10,
            1,
            8,
            0x3f80_0000,
            0xbf80_0000,
            0x4100_0000,
            0xffff_ffff,
            0,
            0x0000_cccc,
        ];
        let text = listing(0x0000_0051, &body, ListingStyle::FXC_10);
        assert_eq!(
            text,
            "ps_5_1\ndcl_constantbuffer CB0[0:0][26], immediateIndexed, space=0\n\
             dcl_resource_texture2d (float,float,float,float) T1[1:1], space=0\n\
             dcl_immediateConstantBuffer { { 1, 8, 1.000000, -1.000000},\n\
             \x20                             { 8.000000, -1, 0, 0x0000cccc} }\n"
        );
    }

    #[test]
    fn repeated_operands_keep_their_precision_context() {
        // mov r0.x, r1.x / mov r2.x {min16f}, r1.x: the second r1.x must show its conversion
        // even though the same tokens printed plainly before.
        let min16f = 1 | (1 << 14);
        let body = [
            op(0x36, 5),
            reg(0, 1) | mask(1),
            0,
            reg(0, 1) | sel(0),
            1,
            op(0x36, 6),
            reg(0, 1) | mask(1) | 0x8000_0000,
            min16f,
            2,
            reg(0, 1) | sel(0),
            1,
            op(0x36, 5),
            reg(0, 1) | mask(1),
            3,
            reg(0, 1) | sel(0),
            1,
        ];
        let text = listing(0x0000_0050, &body, ListingStyle::FXC_10);
        assert_eq!(
            text,
            "ps_5_0\nmov r0.x, r1.x\nmov r2.x {min16f}, r1.x {def32 as min16f}\nmov r3.x, r1.x\n"
        );
    }

    #[test]
    fn printer_sink_gets_each_line_with_its_offset() {
        let data = program(0x0000_0040, &[op(0x68, 2), 1, 53 | (3 << 11), 10, 0, 0, 0, 0, 0, 0, 0, 0]);
        let p = Program::parse(&data, 0).unwrap();
        let mut sink = crate::print::LinesAt::default();
        write_listing(&p, &ListingStyle::FXC_10, &mut sink).unwrap();
        let got: Vec<(Option<u64>, &str)> = sink.0.iter().map(|(o, s)| (*o, s.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (Some(0), "ps_4_0\n"),
                (Some(8), "dcl_temps 1\n"),
                (Some(16), "dcl_immediateConstantBuffer { { 0, 0, 0, 0},\n"),
                (None, "                              { 0, 0, 0, 0} }\n"),
            ]
        );
    }

    #[test]
    fn offsets_prefix_like_fxc_no() {
        let body = [op(0x3e, 1)];
        let style = ListingStyle { offsets: true, ..ListingStyle::FXC_10 };
        assert_eq!(listing(0x0005_0050, &body, style), "0x00000000: cs_5_0\n0x00000008: ret \n");
    }

    /// A printer that keeps every event: lines with their offsets, tokens with their styles,
    /// operand boundaries.
    #[derive(Default)]
    struct Events {
        log: Vec<String>,
        style: Option<Style>,
    }

    impl fmt::Write for Events {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            match self.style {
                Some(style) => self.log.push(format!("{style:?}({s})")),
                None => self.log.push(format!("{s:?}")),
            }
            Ok(())
        }
    }

    impl Printer for Events {
        fn start_line(&mut self, offset: Option<u64>) {
            self.log.push(format!("@{offset:x?}"));
        }
        fn style(&mut self, style: Style) {
            self.style = Some(style);
        }
        fn reset(&mut self) {
            self.style = None;
        }
        fn start_operand(&mut self) {
            self.log.push("<".into());
        }
        fn end_operand(&mut self) {
            self.log.push(">".into());
        }
    }

    /// Adjacent writes in the same style (and unstyled ones) merged, so that the test does
    /// not depend on how a token is cut into writes.
    fn merged(log: &[String]) -> String {
        let mut out: Vec<String> = Vec::new();
        for e in log {
            let kind = |s: &str| s.split_once('(').map(|(k, _)| k.to_string()).filter(|_| s.ends_with(')'));
            match (out.last_mut(), e.starts_with('"')) {
                (Some(last), true) if last.starts_with('"') => {
                    last.pop();
                    last.push_str(&e[1..]);
                }
                (Some(last), false) if kind(last).is_some() && kind(last) == kind(e) => {
                    let k = kind(e).unwrap_or_default();
                    last.pop();
                    last.push_str(&e[k.len() + 1..]);
                }
                _ => out.push(e.clone()),
            }
        }
        out.join(" ")
    }

    #[test]
    fn every_token_reaches_the_printer_with_its_style_and_every_line_its_offset() {
        let body = [
            op(0x68, 2),
            1,
            // mov_sat r0.x, l(1.000000)
            op(0x36, 5) | (1 << 13),
            reg(0, 1) | mask(1),
            0,
            reg(4, 0) | 1,
            0x3f80_0000,
            // mov r1.y, -cb0[r0.x + 2].z
            op(0x36, 9),
            reg(0, 1) | mask(2),
            1,
            reg(8, 2) | sel(2) | (3 << 25) | 1 << 31,
            1 << 6 | 1,
            0,
            2,
            reg(0, 1) | sel(0),
            0,
            // an opcode the format does not define
            op(0x7ff, 1),
        ];
        let data = program(0x0000_0050, &body);
        let p = Program::parse(&data, 0x40).unwrap();
        let mut e = Events::default();
        let report =
            write_listing(&p, &ListingStyle { offsets: true, ..ListingStyle::FXC_10 }, &mut e).unwrap();
        assert_eq!(report.unknown_opcodes, vec![(0x40 + 4 * 18, 0x7ff)]);
        assert_eq!(
            merged(&e.log),
            [
                "@Some(40) Address(0x00000000: ) Directive(ps_5_0) \"\\n\"",
                "@Some(48) Address(0x00000008: ) Mnemonic(dcl_temps) \" \" < Literal(1) > \"\\n\"",
                "@Some(50) Address(0x00000010: ) Mnemonic(mov_sat) \" \" < Register(r0.x) > \", \" < Literal(l(1.000000)) > \"\\n\"",
                "@Some(64) Address(0x00000024: ) Mnemonic(mov) \" \" < Register(r1.y) > \", \" < \"-\" Register(cb0[) < Register(r0.x) > Register( + 2].z) > \"\\n\"",
                "@Some(88) Comment(// unknown opcode 2047 (1 DWORDs) skipped) \"\\n\"",
            ]
            .join(" ")
        );
    }

    /// The text, the events and the outcome of a listing with and without the
    /// specialisations ([`Lister::plain_line`], [`Lister::plain_operand`]).
    fn same_with_and_without_specialisations(p: &Program<'_>, what: &str) {
        let styles = [
            ListingStyle::FXC_10,
            ListingStyle::FXC_9_29,
            ListingStyle { offsets: true, raw: true, ..ListingStyle::FXC_9_30 },
            ListingStyle::FXC_10_LEGACY_UCRT,
            ListingStyle { numbering: true, hex_literals: true, file_offsets: true, ..ListingStyle::FXC_10 },
        ];
        for style in styles {
            let mut got = Vec::new();
            for specialised in [true, false] {
                let mut text = TextBuf::default();
                let mut events = Hooks::default();
                let report = write_program(p, &style, &mut text, specialised);
                write_program(p, &style, &mut events, specialised).ok();
                // The plain-text sink gets several lines at a call, the other sinks one: the
                // same text (between the hooks).
                let between_hooks: String = events.0.split('\u{1}').step_by(2).collect();
                assert_eq!(text.as_str(), between_hooks, "{what} ({style:?}): text-only sink");
                got.push((text.into_string(), events.0, format!("{report:?}")));
            }
            assert!(got[0] == got[1], "{what} ({style:?}): the specialised listing differs\n{got:#?}");
        }
    }

    /// Every call a printer gets, in order (adjacent text joined).
    #[derive(Default)]
    struct Hooks(String);

    impl fmt::Write for Hooks {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0.push_str(s);
            Ok(())
        }
    }

    impl Printer for Hooks {
        fn start_line(&mut self, offset: Option<u64>) {
            self.0 += &format!("\u{1}line {offset:?}\u{1}");
        }
        fn style(&mut self, style: Style) {
            self.0 += &format!("\u{1}{style:?}\u{1}");
        }
        fn reset(&mut self) {
            self.0 += "\u{1}reset\u{1}";
        }
        fn start_operand(&mut self) {
            self.0 += "\u{1}<\u{1}";
        }
        fn end_operand(&mut self) {
            self.0 += "\u{1}>\u{1}";
        }
    }

    /// Hand-made programs that take each branch of the specialisations and of their
    /// fallbacks to the general printer.
    #[test]
    fn specialised_lines_print_as_the_general_printer_prints_them() {
        let min16f = 1 | (1 << 14);
        let bodies: Vec<Vec<u32>> = vec![
            // mad_sat r0.xz, -|r1.wzyx|, cb0[12].y, l(1.5, -2, 0, 3e9) [precise(x)]
            vec![
                op(0x32, 14) | (1 << 13) | (1 << 19),
                reg(0, 1) | mask(5),
                0,
                reg(0, 1) | swz([3, 2, 1, 0]) | 1 << 31,
                3 << 6 | 1,
                1,
                reg(8, 2) | sel(1),
                0,
                12,
                reg(4, 0) | swz([0, 1, 2, 3]),
                0x3fc0_0000,
                0xc000_0000,
                0,
                0x4f32_d05e,
            ],
            // mov o[3][1].x, v[2][0].xyzw; mov r0, icb[7].xy; mov r0.x, vThreadID.x;
            // mov x1[2].y, l(4) (untyped); iadd r0.x, r1.x, l(-70000)
            vec![
                op(0x36, 7),
                reg(2, 2) | mask(1),
                3,
                1,
                reg(1, 2) | swz([0, 1, 2, 3]),
                2,
                0,
                op(0x36, 5),
                reg(0, 1),
                0,
                reg(9, 1) | mask(3),
                7,
                op(0x36, 4),
                reg(0, 1) | mask(1),
                0,
                reg(32, 0) | sel(0),
                op(0x36, 6),
                reg(3, 2) | mask(2),
                1,
                2,
                reg(4, 0) | 1,
                4,
                op(0x1e, 7),
                reg(0, 1) | mask(1),
                0,
                reg(0, 1) | sel(0),
                1,
                reg(4, 0) | 1,
                (-70000i32) as u32,
            ],
            // Blocks and tests: if_nz r0.x / discard_z r0.w / else / ret / endif, resinfo_uint
            vec![
                op(0x1f, 3) | (1 << 18),
                reg(0, 1) | sel(0),
                0,
                op(0x0d, 3),
                reg(0, 1) | sel(3),
                0,
                op(0x12, 1),
                op(0x3e, 1),
                op(0x15, 1),
                op(0x3d, 6) | (2 << 11),
                reg(0, 1) | mask(15),
                0,
                reg(0, 1) | sel(0),
                0,
                reg(7, 1) | swz([0, 1, 2, 3]),
            ],
            // Fallbacks, each after a plain `ret`: a relative index, a precision on the
            // destination and on a source, `nonuniform`, a chained extended token, selection
            // mode 3, a 64-bit literal, indices after a literal, an undefined index
            // representation, a length past the end.
            vec![
                op(0x3e, 1),
                op(0x36, 8),
                reg(0, 1) | mask(1),
                0,
                reg(8, 2) | sel(0) | (3 << 25),
                0,
                1,
                reg(0, 1) | sel(0),
                1,
            ],
            vec![op(0x3e, 1), op(0x36, 6), reg(0, 1) | mask(1) | 1 << 31, min16f, 0, reg(0, 1) | sel(0), 1],
            vec![op(0x3e, 1), op(0x36, 6), reg(0, 1) | mask(1), 0, reg(0, 1) | sel(0) | 1 << 31, min16f, 1],
            vec![
                op(0x3e, 1),
                op(0x36, 6),
                reg(0, 1) | mask(1),
                0,
                reg(0, 1) | sel(0) | 1 << 31,
                1 | 1 << 17,
                1,
            ],
            vec![
                op(0x3e, 1),
                op(0x36, 7),
                reg(0, 1) | mask(1),
                0,
                reg(0, 1) | sel(0) | 1 << 31,
                1 << 31 | 1,
                1 << 6 | 1,
                1,
            ],
            vec![op(0x3e, 1), op(0x36, 5), reg(0, 1) | mask(1), 0, reg(0, 1) | 2 | 3 << 2, 1],
            vec![op(0x3e, 1), op(0xc7, 7), reg(0, 1) | mask(3), 0, reg(5, 0) | 1, 0, 0x3ff0_0000, 0],
            vec![op(0x3e, 1), op(0x36, 6), reg(0, 1) | mask(1), 0, reg(4, 1) | 1, 5, 0],
            vec![op(0x3e, 1), op(0x36, 6), reg(0, 1) | mask(1), 0, reg(0, 1) | sel(0) | (5 << 22), 0, 0],
            vec![op(0x3e, 1), op(0x36, 9), reg(0, 1) | mask(1), 0],
            // Declarations: dcl_input v0.xy, dcl_output o0.xyzw {min16f}, a relative range.
            vec![
                op(0x5f, 3),
                reg(1, 1) | mask(3),
                0,
                op(0x65, 4),
                reg(2, 1) | mask(15) | 1 << 31,
                min16f,
                0,
                op(0x5f, 3),
                reg(1, 1) | mask(3) | (2 << 22),
                reg(0, 1) | sel(0),
            ],
        ];
        for (k, body) in bodies.iter().enumerate() {
            for version in [0x0000_0050u32, 0x0000_0051, 0x0001_0040] {
                let data = program(version, body);
                let p = Program::parse(&data, 0x40).unwrap();
                same_with_and_without_specialisations(&p, &format!("body {k}"));
            }
        }
    }

    /// Every corpus program, and damaged copies of each, list the same with and without the
    /// specialisations: text, tokens, line offsets, report or error.
    #[test]
    fn corpus_programs_print_the_same_with_and_without_specialisations() {
        use crate::test_corpus::{Rng, corpus_dir, manifest};
        let Some(root) = corpus_dir() else { return };
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut programs = 0;
        for row in manifest(&root, "dxbc").into_iter().filter(|r| r.kind == "dxbc-binary") {
            let path = root.join("dxbc").join(&row.path);
            let data = std::fs::read(&path).unwrap();
            let Ok(d) = crate::format::dxbc::Dxbc::parse(&data) else { continue };
            let Some(chunk) = d.program.map(|p| p.chunk) else { continue };
            let base = chunk.data_offset() as u64;
            let Ok(p) = Program::parse(chunk.data, base) else { continue };
            same_with_and_without_specialisations(&p, &path.display().to_string());
            programs += 1;
            let mut damaged = chunk.data.to_vec();
            for _ in 0..3 {
                let at = 8 + rng.below(damaged.len().saturating_sub(8));
                if let Some(b) = damaged.get_mut(at) {
                    *b ^= 1 << rng.below(8);
                }
            }
            if let Ok(p) = Program::parse(&damaged, base) {
                same_with_and_without_specialisations(&p, &format!("{} (damaged)", path.display()));
            }
        }
        assert!(programs > 1000, "expected the corpus programs, found {programs}");
    }

    #[test]
    fn html_and_colour_get_the_same_text_in_spans() {
        let body = [op(0x36, 5), reg(0, 1) | mask(1), 0, reg(4, 0) | 1, 0x3f80_0000];
        let data = program(0x0000_0050, &body);
        let p = Program::parse(&data, 0x40).unwrap();
        let mut h = Html::default();
        write_listing(&p, &ListingStyle::FXC_10, &mut h).unwrap();
        assert_eq!(
            h.finish(),
            "<div data-offset=\"64\"><span class=\"dir\">ps_5_0</span></div>\n\
             <div data-offset=\"72\"><span class=\"mn\">mov</span> <span class=\"reg\">r0.x</span>, \
             <span class=\"lit\">l(1.000000)</span></div>\n"
        );
        let mut a = crate::print::Ansi::default();
        write_listing(&p, &ListingStyle::FXC_10, &mut a).unwrap();
        assert_eq!(
            a.out,
            "\x1b[36mps_5_0\x1b[0m\n\x1b[1;34mmov\x1b[0m \x1b[32mr0.x\x1b[0m, \x1b[33ml(1.000000)\x1b[0m\n"
        );
    }

    #[test]
    fn raw_words_end_each_instructions_last_line() {
        let body = [op(0x68, 2), 1, 53 | (3 << 11), 10, 0, 0, 0, 0, 0, 0, 0, 0x3f80_0000, op(0x3e, 1)];
        let style = ListingStyle { raw: true, ..ListingStyle::FXC_10 };
        assert_eq!(
            listing(0x0000_0040, &body, style),
            "ps_4_0\ndcl_temps 1  // 02000068 00000001\n\
             dcl_immediateConstantBuffer { { 0, 0, 0, 0},\n\
             \x20                             { 0, 0, 0, 1.000000} }  \
             // 00001835 0000000a 00000000 00000000 00000000 00000000 00000000 00000000 00000000 3f800000\n\
             ret   // 0100003e\n"
        );
        let style = ListingStyle { raw: true, offsets: true, ..ListingStyle::FXC_10 };
        assert_eq!(
            listing(0x0005_0050, &[op(0x3e, 1)], style),
            "0x00000000: cs_5_0\n0x00000008: ret   // 0100003e\n"
        );
    }

    #[test]
    fn records_come_from_the_same_printer() {
        let body = [
            op(0x68, 2),
            1,
            // a comment block prints nothing and gives no record
            53,
            3,
            0x1234,
            // mul r0.xy, r1.xyxx, cb0[2].xyxx
            op(0x38, 8),
            reg(0, 1) | mask(3),
            0,
            reg(0, 1) | swz([0, 1, 0, 0]),
            1,
            reg(8, 2) | swz([0, 1, 0, 0]),
            0,
            2,
            // if_nz r0.x / ret / endif
            op(0x1f, 3) | (1 << 18),
            reg(0, 1) | sel(0),
            0,
            op(0x3e, 1),
            op(0x15, 1),
        ];
        let data = program(0x0000_0050, &body);
        let p = Program::parse(&data, 0x100).unwrap();
        let style = ListingStyle { offsets: true, raw: true, ..ListingStyle::FXC_10 };
        let r = records(&p, &style).unwrap();
        let got: Vec<(u64, &str, Vec<&str>, &str, usize)> = r
            .iter()
            .map(|r| {
                (
                    r.offset,
                    r.mnemonic.as_str(),
                    r.operands.iter().map(String::as_str).collect(),
                    r.text.as_str(),
                    r.words.len(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (0x108, "dcl_temps", vec!["1"], "dcl_temps 1", 2),
                (0x11c, "mul", vec!["r0.xy", "r1.xyxx", "cb0[2].xyxx"], "mul r0.xy, r1.xyxx, cb0[2].xyxx", 8),
                (0x13c, "if_nz", vec!["r0.x"], "if_nz r0.x", 3),
                (0x148, "ret", vec![], "ret", 1),
                (0x14c, "endif", vec![], "endif", 1),
            ]
        );
        assert_eq!(r[1].words, body[5..13].to_vec());
    }

    /// A small program for fxc's `/Ni`, `/No` and `/Lx` layouts: a declaration, an immediate
    /// constant buffer, a block, literals of each type.
    fn switches_program() -> Vec<u32> {
        vec![
            op(0x68, 2), // dcl_temps 1
            1,
            // dcl_immediateConstantBuffer { { 1.0, 2, 0x7f800000, 0 } }
            0x35 | (3 << 11),
            6,
            0x3f80_0000,
            2,
            0x7f80_0000,
            0,
            // mov r0.xy, l(0.5, -2.0, 0, 0)
            op(0x36, 8),
            reg(0, 1) | mask(3),
            0,
            0x0000_4002,
            0x3f00_0000,
            0xc000_0000,
            0,
            0,
            // if_nz r0.x
            op(0x1f, 3) | (1 << 18),
            reg(0, 1) | sel(0),
            0,
            // iadd r1.x, r0.x, l(300)
            op(0x1e, 7),
            reg(0, 1) | mask(1),
            1,
            reg(0, 1) | sel(0),
            0,
            0x0000_4001,
            300,
            op(0x15, 1), // endif
            op(0x3e, 1), // ret
        ]
    }

    #[test]
    fn numbering_offsets_and_hex_literals_in_fxc_layouts() {
        let body = switches_program();
        let plain = listing(0x0000_0040, &body, ListingStyle::FXC_10);
        assert_eq!(
            plain,
            "ps_4_0\n\
             dcl_temps 1\n\
             dcl_immediateConstantBuffer { { 1.000000, 2, 0x7f800000, 0} }\n\
             mov r0.xy, l(0.500000,-2.000000,0,0)\n\
             if_nz r0.x\n\
             \x20 iadd r1.x, r0.x, l(300)\n\
             endif \n\
             ret \n"
        );
        // /Ni: the version line and the declarations get six spaces, instructions their number.
        let ni = listing(0x0000_0040, &body, ListingStyle { numbering: true, ..ListingStyle::FXC_10 });
        assert_eq!(
            ni,
            "      ps_4_0\n\
             \x20     dcl_temps 1\n\
             \x20     dcl_immediateConstantBuffer { { 1.000000, 2, 0x7f800000, 0} }\n\
             \x20  0: mov r0.xy, l(0.500000,-2.000000,0,0)\n\
             \x20  1: if_nz r0.x\n\
             \x20  2:   iadd r1.x, r0.x, l(300)\n\
             \x20  3: endif \n\
             \x20  4: ret \n"
        );
        // /No: every line, upper-case hexadecimal, from the version token.
        let no = listing(0x0000_0040, &body, ListingStyle { offsets: true, ..ListingStyle::FXC_10 });
        assert_eq!(
            no,
            "0x00000000: ps_4_0\n\
             0x00000008: dcl_temps 1\n\
             0x00000010: dcl_immediateConstantBuffer { { 1.000000, 2, 0x7f800000, 0} }\n\
             0x00000028: mov r0.xy, l(0.500000,-2.000000,0,0)\n\
             0x00000048: if_nz r0.x\n\
             0x00000054:   iadd r1.x, r0.x, l(300)\n\
             0x00000070: endif \n\
             0x00000074: ret \n"
        );
        // /Ni /No together: four columns of number, two spaces, the offset.
        let both = listing(
            0x0000_0040,
            &body,
            ListingStyle { numbering: true, offsets: true, ..ListingStyle::FXC_10 },
        );
        assert_eq!(
            both,
            "      0x00000000: ps_4_0\n\
             \x20     0x00000008: dcl_temps 1\n\
             \x20     0x00000010: dcl_immediateConstantBuffer { { 1.000000, 2, 0x7f800000, 0} }\n\
             \x20  0  0x00000028: mov r0.xy, l(0.500000,-2.000000,0,0)\n\
             \x20  1  0x00000048: if_nz r0.x\n\
             \x20  2  0x00000054:   iadd r1.x, r0.x, l(300)\n\
             \x20  3  0x00000070: endif \n\
             \x20  4  0x00000074: ret \n"
        );
        // /Lx: every literal value as its bits.
        let lx = listing(0x0000_0040, &body, ListingStyle { hex_literals: true, ..ListingStyle::FXC_10 });
        assert!(lx.contains(
            "\ndcl_immediateConstantBuffer { { 0x3f800000, 0x00000002, 0x7f800000, 0x00000000} }\n"
        ));
        assert!(lx.contains("\nmov r0.xy, l(0x3f000000,0xc0000000,0x00000000,0x00000000)\n"));
        assert!(lx.contains("\n  iadd r1.x, r0.x, l(0x0000012c)\n"));
        // File offsets: the same layout, counted from the start of the input.
        let data = program(0x0000_0040, &body);
        let p = Program::parse(&data, 0x1c0).unwrap();
        let mut s = TextBuf::default();
        write_listing(
            &p,
            &ListingStyle { file_offsets: true, numbering: true, ..ListingStyle::FXC_10 },
            &mut s,
        )
        .unwrap();
        let lines: Vec<&str> = s.as_str().lines().collect();
        assert_eq!(lines[0], "      0x000001C0: ps_4_0");
        assert_eq!(lines[5], "   2  0x00000214:   iadd r1.x, r0.x, l(300)");
        // The columns are addresses; the records do not carry them.
        let r =
            records(&p, &ListingStyle { numbering: true, offsets: true, ..ListingStyle::FXC_10 }).unwrap();
        assert_eq!((r[4].offset, r[4].text.as_str()), (0x214, "iadd r1.x, r0.x, l(300)"));
    }
}
