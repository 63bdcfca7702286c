//! Listing text → Direct3D 9 program bytes: the way back from fxc's listing (and
//! [`write_listing`](super::write_listing), which prints the same text). Each instruction line
//! is read into the owned [`Instruction`] the decoder gives, and the encoder
//! ([`Instruction::encode`]) writes its tokens, the length field included.
//!
//! [`parse_program`] reads a whole listing: fxc's comment header when there is one (the
//! creator line and the `// Parameters:` / `// Registers:` tables become the `CTAB` comment,
//! placed right after the version token as fxc places it), the version line, one instruction a
//! line, up to the `// approximately … used` line. Given a DXBC listing it reads the program of
//! its `// Level9 shader bytecode:` section (which has no constant table) and stops there.
//! Columns of fxc's `/Ni` and `/No`, `#line` directives and trailing comments are skipped.
//!
//! Every name is read back through the printer's own tables (opcode names, comparison,
//! usage, texture-type, shift and modifier suffixes, register names, masks, swizzles), so
//! text and bytes cannot disagree. What the text does not say is written as fxc writes it:
//! - a `dcl` usage token has bit 31 set; a ps_1_x/ps_2_x `t#`/`v#` and `vPos`/`vFace` declare
//!   usage 0;
//! - a relative address token is the printed register and swizzle with bit 31 set
//!   (`a0.x` 0xB0000000, `aL` 0xF0E40800); shader model 1 has no such token;
//! - the instruction length (bits 24–27) from shader model 2 on, nothing in model 1 (as
//!   `d3d9types.h` says; the corpus has no model-1 program to check).
//!
//! Debug information (a `DBUG` comment) is not in the text and is not written. The constant
//! table is laid out as [`ConstantTable::write`] says, but the text alone cannot give all of
//! it:
//! - its flags (`D3DXSHADER_*` compile flags) are not printed: written as 0x100
//!   (`D3DXSHADER_NO_PRESHADER`, 14 of the corpus's 16 programs; two have 0x104, 4 being
//!   `D3DXSHADER_SKIPOPTIMIZATION`);
//! - each constant's reserved half-word is 0 for registers the compiler chose, but
//!   `4 × register + 2` in fxc's output for a constant bound with `register(…)` (six of the
//!   corpus's 16 programs); the text does not show the binding: written as 0;
//! - default values are not printed: no constant gets one;
//! - the target string of a `_2_x` program (fxc's `vs_2_a`, `ps_2_a` or `ps_2_b`): written as
//!   `vs_2_a` / `ps_2_a`;
//! - a struct's type record: 1 row, as many columns as its members have components (as fxc
//!   9.29 writes `struct { float4 color; float4 position; float4 direction; } lights[8]`:
//!   12 columns, 8 elements; librw's headers).
//!
//! Every version line fxc prints reads back (`vs_2_x`, `ps_2_x`, `vs_2_sw`, `ps_3_sw`, …), and
//! every `_2_x` and `_3_0` form: predicates (`(p0)`, `(!p0.x)`), `setp_*`, `if_*`, `if p0.x`,
//! `if b0`, `rep`/`loop`/`break`/`break_*`/`breakp`, `call`/`callnz`/`label`/`ret`, `dcl` with
//! usages, sampler types and `_pp`/`_centroid`, `dsx`/`dsy`/`texldd`/`texldp`/`texldb`,
//! `sincos` with two or no scratch constants. A word that is no instruction is an error that
//! names it and the version: "expected a ps_2_x instruction (`frob` is none this assembler
//! knows)".
//!
//! On the corpus (tests/d3d9_asm.rs), from the library's listings and from fxc's own alike:
//! 8 of the 16 standalone programs and 121 of the 215 Aon9 programs come back byte for byte;
//! the other 8 differ only in the CTAB fields above, the other 94 only by their `DBUG` block.
//! The `*_level_9_3` containers (Aon9 `ps_2_x`/`vs_2_x`) come back as the level 9_1 ones do;
//! tests/d3d9_asm.rs builds them, as the corpus has none.
//!
//! ```
//! use shaderscope::isa::d3d9::{asm, ListingOptions, Program, write_listing};
//! use shaderscope::print::TextBuf;
//!
//! let text = "    vs_2_0\n    dcl_position v0\n    mov oPos, v0\n";
//! let bytes = asm::parse_program(text)?;
//! let program = Program::parse(&bytes, 0).unwrap();
//! let mut out = TextBuf::default();
//! write_listing(&program, &ListingOptions::default(), &mut out).unwrap();
//! assert!(out.as_str().starts_with(text));
//!
//! let e = asm::parse_program("    ps_2_0\n    mul r0, r1,\n").unwrap_err();
//! assert_eq!((e.line, e.syntax.column, e.syntax.expected.as_str()), (2, 15, "an operand"));
//! # Ok::<(), shaderscope::asm::LineError>(())
//! ```

use super::ctab::{self, Constant, ConstantTable, Member, Type};
use super::decode::{Instruction, Operand, Operands};
use super::fields::{
    D3DSHADER_ADDRESSMODE, D3DSHADER_INSTRUCTION_PREDICATED, D3DSI_COISSUE, D3DSI_COMMENTSIZE, D3DSI_OPCODE,
    D3DSP_DCL_USAGE, D3DSP_DCL_USAGEINDEX, D3DSP_DSTMOD, D3DSP_DSTSHIFT, D3DSP_OPCODESPECIFICCONTROL,
    D3DSP_REGNUM, D3DSP_SRCMOD, D3DSP_SWIZZLE, D3DSP_TEXTURETYPE, D3DSP_WRITEMASK, PARAM_TOKEN,
    put_register_type,
};
use super::opcodes::{self, Form, OpInfo, TABLE};
use super::operand::{self, Param, RegisterType};
use super::print::{
    DISASSEMBLER, RESULT_MODIFIERS, SHIFTS, SOURCE_MODIFIERS, TEXTURE_TYPES, head_name, usage_name,
};
use super::{ShaderKind, Version};
use crate::asm::text::{Cursor, LineError, Syntax, float_bits};

type Result<T> = std::result::Result<T, Syntax>;

/// A listing assembled into the program `like` (`asm --like`): the comment blocks are the
/// original's, where they were among the instructions (the constant table's fields the text
/// does not print, debug data), the version and the instructions are the text's.
pub fn parse_program_like(text: &str, like: &super::Program<'_>) -> std::result::Result<Vec<u8>, LineError> {
    let bytes = parse_program(text)?;
    let Ok(ours) = super::Program::parse(&bytes, 0) else { return Ok(bytes) };
    let is_comment = |i: &&super::Item<'_>| matches!(i, super::Item::Comment { .. });
    let mut code = ours.items.iter().filter(|i| !is_comment(i));
    let mut merged = like.clone();
    merged.version_token = ours.version_token;
    merged.items = like
        .items
        .iter()
        .filter_map(|i| if is_comment(&i) { Some(i.clone()) } else { code.next().cloned() })
        .collect();
    merged.items.extend(code.cloned());
    merged.trailing = &[];
    // The instructions were read back from bytes just encoded: they encode again.
    Ok(merged.write().unwrap_or(bytes))
}

/// A whole listing as the program's bytes: the version token, the `CTAB` comment when the
/// header describes one, the instructions, the end token.
pub fn parse_program(text: &str) -> std::result::Result<Vec<u8>, LineError> {
    parse_lines(text.lines().enumerate().map(|(i, l)| (i + 1, l)))
}

/// What the header says, read line by line before the version line.
#[derive(Default)]
struct Header<'a> {
    /// `// Generated by …`.
    creator: Option<&'a str>,
    /// The table being read.
    section: Option<Table>,
    /// Lines of the two tables: (line number, the line).
    parameters: Vec<(usize, &'a str)>,
    registers: Vec<(usize, &'a str)>,
    /// The text is a DXBC listing whose `Level9 shader bytecode` section was reached.
    level9: bool,
}

/// The two tables of the constant table's text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Table {
    Parameters,
    Registers,
}

impl<'a> Header<'a> {
    /// One comment line (`body` after its `//`).
    fn comment(&mut self, n: usize, raw: &'a str, body: &'a str) {
        let body = body.trim();
        if body == "Level9 shader bytecode:" {
            // The D3D9 program of a DXBC listing: the header above is the container's.
            *self = Header { level9: true, ..Header::default() };
            return;
        }
        if self.level9 {
            return;
        }
        match (body, self.section) {
            ("Parameters:", _) => self.section = Some(Table::Parameters),
            ("Registers:", _) => self.section = Some(Table::Registers),
            (_, Some(Table::Parameters)) => self.parameters.push((n, raw)),
            (_, Some(Table::Registers)) => self.registers.push((n, raw)),
            (_, None) => {
                if let Some(creator) = body.strip_prefix("Generated by ") {
                    self.creator = Some(creator);
                }
            }
        }
    }

    /// The constant table's bytes (after the FourCC) when the header describes one.
    fn table(&self, version: Version, token: u32) -> std::result::Result<Option<Vec<u8>>, LineError> {
        if self.level9 || (self.parameters.is_empty() && self.creator.is_none_or(|c| c == DISASSEMBLER)) {
            return Ok(None);
        }
        let constants = constants(&self.parameters, &self.registers)?;
        let target = match (version.kind, version.major, version.minor) {
            (ShaderKind::Vertex, 2, 1) => "vs_2_a".to_string(),
            (ShaderKind::Pixel, 2, 1) => "ps_2_a".to_string(),
            _ => version.name(),
        };
        let creator = self.creator.filter(|c| *c != DISASSEMBLER).unwrap_or("");
        let table = ConstantTable {
            offset: 0,
            size: 28,
            creator: creator.to_string(),
            version: token,
            flags: 0x100,
            target,
            constants,
        };
        Ok(Some(table.write()))
    }
}

/// The text after the `//` of a comment line.
fn comment_body(raw: &str) -> Option<&str> {
    raw.trim_start().strip_prefix("//")
}

/// Numbered listing lines as a program (see [`parse_program`]); the Aon9 reader hands the
/// lines of its section.
pub(crate) fn parse_lines<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
) -> std::result::Result<Vec<u8>, LineError> {
    let mut header = Header::default();
    let mut program: Option<(Version, Vec<u32>)> = None;
    let mut last = 0;
    for (n, raw) in lines {
        last = n;
        let at = |syntax: Syntax| LineError { file: None, line: n, syntax };
        if let Some(body) = comment_body(raw) {
            match program {
                None => header.comment(n, raw, body),
                Some(_) if body.trim_start().starts_with("approximately ") => break,
                Some(_) => {}
            }
            continue;
        }
        let start = strip_columns(raw);
        // A trailing comment (debug information's variable names) is not code.
        let code = raw.get(..raw.find("//").unwrap_or(raw.len())).unwrap_or(raw);
        let mut c = Cursor { text: code, at: start };
        c.skip_space();
        if c.at_end() || c.rest().starts_with("#line") {
            continue;
        }
        match &mut program {
            None => {
                // fxc 9.30 writes a stray `/` before the version line when it has no table.
                if c.rest().starts_with('/') {
                    c.at += 1;
                    c.skip_space();
                }
                let word_at = c.at;
                let word = c.word();
                let Some(version) = version_named(word) else {
                    return Err(at(Syntax {
                        column: word_at,
                        expected: "a Direct3D 9 version line (`vs_2_0`, `ps_3_0`, …)".into(),
                    }));
                };
                if !c.at_end() {
                    return Err(at(Syntax { column: c.at, expected: "the end of the line".into() }));
                }
                let token = version.token();
                let mut words = vec![token];
                if let Some(mut table) = header.table(version, token)? {
                    let mut data = b"CTAB".to_vec();
                    data.append(&mut table);
                    let len = (data.len() / 4) as u32;
                    if len > 0x7fff {
                        return Err(at(Syntax {
                            column: 0,
                            expected: "a constant table under 128 KiB (a comment's length has 15 bits)"
                                .into(),
                        }));
                    }
                    words.push(u32::from(opcodes::COMMENT) | D3DSI_COMMENTSIZE.put(len));
                    words.extend(
                        data.chunks_exact(4).map(|w| <[u8; 4]>::try_from(w).map_or(0, u32::from_le_bytes)),
                    );
                }
                program = Some((version, words));
            }
            Some((version, words)) => {
                let word_at = c.at;
                if other_version(c.word()) {
                    // The SM4 program after a DXBC listing's Level9 section.
                    break;
                }
                c.at = word_at;
                instruction(&mut c, *version, words).map_err(at)?;
            }
        }
    }
    let Some((_, mut words)) = program else {
        return Err(LineError {
            file: None,
            line: last + 1,
            syntax: Syntax {
                column: 0,
                expected: "a Direct3D 9 version line (`vs_2_0`, `ps_3_0`, …)".into(),
            },
        });
    };
    words.push(opcodes::END_TOKEN);
    Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// Where the code of a listing line starts after the columns fxc's `/Ni` and `/No` put
/// before it (`  12: `, `  12  0x00000040: `, `0x00000040: `, six spaces).
fn strip_columns(line: &str) -> usize {
    let mut c = Cursor::new(line);
    c.skip_space();
    let start = c.at;
    if !c.rest().starts_with("0x") && !c.take_while(|ch| ch.is_ascii_digit()).is_empty() {
        if c.eat(": ") {
            return c.at;
        }
        c.skip_space();
    }
    if c.eat("0x") && !c.take_while(|ch| ch.is_ascii_hexdigit()).is_empty() && c.eat(": ") {
        return c.at;
    }
    start
}

/// The version a version line's word names ([`Version::name`] read back).
fn version_named(word: &str) -> Option<Version> {
    let kinds = [ShaderKind::Vertex, ShaderKind::Pixel];
    kinds.into_iter().flat_map(|kind| (1..=3).map(move |major| (kind, major))).find_map(|(kind, major)| {
        (0..=4).chain([0xff]).map(|minor| Version { kind, major, minor }).find(|v| v.name() == word)
    })
}

/// Whether `word` is the version of a later shader model's program (`ps_4_0`, `vs_5_0`).
fn other_version(word: &str) -> bool {
    let mut parts = word.split('_');
    let kind = parts.next().unwrap_or("");
    let major = parts.next().and_then(|m| m.parse::<u32>().ok());
    kind.len() == 2 && kind.ends_with('s') && major.is_some_and(|m| m >= 4)
}

/// What a mnemonic says besides the opcode.
#[derive(Default)]
struct Suffixes<'a> {
    /// Bits 16–23 of the instruction token (comparison, `texld` variant).
    control: u32,
    shift: i8,
    modifiers: u8,
    /// The usage or texture type after `dcl`, read once the register is known.
    dcl: &'a str,
}

/// The table row and suffixes of a mnemonic: the row whose printed name (in `version`) the
/// word starts with, and whose form the rest of the word fits.
fn mnemonic(word: &str, version: Version) -> Option<(&'static OpInfo, Suffixes<'_>)> {
    TABLE.iter().find_map(|info| {
        let variants = if info.form == Form::Tex { 0..3 } else { 0..1 };
        variants.into_iter().find_map(|variant| {
            let tail = word.strip_prefix(head_name(info, version, variant))?;
            if !(tail.is_empty() || tail.starts_with('_')) {
                return None;
            }
            let mut s = suffixes(info, tail)?;
            s.control |= variant;
            Some((info, s))
        })
    })
}

fn suffixes<'a>(info: &OpInfo, tail: &'a str) -> Option<Suffixes<'a>> {
    let mut s = Suffixes::default();
    let mut parts = tail.split('_').skip(1).peekable();
    match info.form {
        Form::Def | Form::DefI | Form::DefB if !tail.is_empty() => return None,
        Form::Compare => {
            let part = parts.next()?;
            s.control = (0..8)
                .find(|&k| opcodes::comparison_name(k) == Some(part))
                .or_else(|| part.strip_prefix("cmp").and_then(|k| k.parse().ok()).filter(|&k: &u32| k < 8))?;
        }
        Form::Dcl => {
            if let Some(part) = parts.peek()
                && !RESULT_MODIFIERS.iter().any(|(_, m)| m.get(1..) == Some(part))
            {
                s.dcl = part;
                parts.next();
            }
        }
        _ => {}
    }
    for part in parts {
        if let Some((bit, _)) = RESULT_MODIFIERS.iter().find(|(_, m)| m.get(1..) == Some(part)) {
            s.modifiers |= bit;
        } else if info.form == Form::Dcl {
            return None;
        } else if let Some((shift, _)) = SHIFTS.iter().find(|(_, m)| m.get(1..) == Some(part)) {
            s.shift = *shift;
        } else if let Some(shift) =
            part.strip_prefix("shift").and_then(|n| n.parse::<i8>().ok()).filter(|s| (-8..=7).contains(s))
        {
            s.shift = shift;
        } else {
            return None;
        }
    }
    Some(s)
}

/// One instruction line (the cursor after its columns) read into an [`Instruction`], whose
/// encoding is appended to `words`.
fn instruction(c: &mut Cursor<'_>, version: Version, words: &mut Vec<u32>) -> Result<()> {
    let coissue = c.eat("+");
    c.skip_space();
    let mut predicate = None;
    if c.eat("(") {
        c.skip_space();
        predicate = Some(source(c, version)?);
        c.skip_space();
        c.expect(")")?;
        c.skip_space();
    }
    let word_at = c.at;
    // `-` for the shifts fxc has no name for (`_shift-5`).
    let word = c.take_while(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-');
    let mut token = D3DSI_COISSUE.put(u32::from(coissue));
    if let Some(code) = word.strip_prefix("opcode_0x") {
        // An opcode the table does not know, its tokens in hexadecimal.
        let Ok(code) = u16::from_str_radix(code, 16) else {
            c.at = word_at;
            return c.fail("a mnemonic");
        };
        return raw(c, token | D3DSI_OPCODE.put(u32::from(code)), version, words);
    }
    let Some((info, s)) = mnemonic(word, version) else {
        c.at = word_at;
        return c.fail(format!("a {} instruction (`{word}` is none this assembler knows)", version.name()));
    };
    if predicate.is_some() && matches!(info.form, Form::Dcl | Form::Def | Form::DefI | Form::DefB) {
        c.at = word_at;
        return c.fail("an instruction (a declaration takes no predicate)");
    }
    token |= D3DSI_OPCODE.put(u32::from(info.code)) | D3DSP_OPCODESPECIFICCONTROL.put(s.control);
    c.skip_space();
    if c.rest().starts_with("0x") {
        // An instruction whose tokens did not fit its layout, printed as they are.
        return raw(c, token, version, words);
    }
    let mut body = Operands::new();
    let mut first = true;
    let mut next = |c: &mut Cursor<'_>| -> Result<()> {
        c.skip_space();
        if !std::mem::take(&mut first) {
            c.expect(",")?;
            c.skip_space();
        }
        if c.at_end() {
            return c.fail("an operand");
        }
        Ok(())
    };
    match info.form {
        Form::Dcl => {
            next(c)?;
            let (ty, dst) = destination(c, version, 0, s.modifiers)?;
            let usage = dcl_usage(s.dcl, ty, version).ok_or(Syntax {
                column: word_at + 3,
                expected: "a usage (`_texcoord1`) or a sampler type (`_2d`) that fits the register".into(),
            })?;
            body.push(Operand::Usage(usage));
            body.push(Operand::Dst(dst));
        }
        Form::Def | Form::DefI | Form::DefB => {
            next(c)?;
            body.push(Operand::Dst(destination(c, version, 0, 0)?.1));
            let n = if info.form == Form::DefB { 1 } else { 4 };
            for _ in 0..n {
                next(c)?;
                body.push(Operand::Imm(literal(c, info.form)?));
            }
        }
        _ => {
            if info.dst > 0 {
                next(c)?;
                body.push(Operand::Dst(destination(c, version, s.shift, s.modifiers)?.1));
            } else if s.shift != 0 || s.modifiers != 0 {
                c.at = word_at;
                return c.fail("a mnemonic without destination modifiers");
            }
            if let Some(p) = predicate.take() {
                body.push(Operand::Pred(p));
                token |= D3DSHADER_INSTRUCTION_PREDICATED.put(1);
            }
            let want = info.srcs.get(version.src_column()).copied().unwrap_or(0);
            for _ in 0..want {
                next(c)?;
                body.push(Operand::Src(source(c, version)?));
            }
        }
    }
    c.skip_space();
    if !c.at_end() {
        return c.fail("the end of the line");
    }
    finish(c, token, body, version, words)
}

/// The instruction of `token` and `operands`, placed after `words` and encoded onto them (the
/// encoder writes the length from shader model 2 on).
fn finish(
    c: &Cursor<'_>,
    token: u32,
    operands: Operands,
    version: Version,
    words: &mut Vec<u32>,
) -> Result<()> {
    let ins = Instruction::new(4 * words.len() as u64, token, operands);
    // The operands read here are consistent (an address token exactly where bit 13 is set
    // and the model has one), so only the length can be refused.
    ins.encode(version, words).or_else(|_| c.fail("at most 15 tokens after the instruction token"))
}

/// The tokens of an instruction printed as hexadecimal words.
fn raw(c: &mut Cursor<'_>, token: u32, version: Version, words: &mut Vec<u32>) -> Result<()> {
    let mut body = Operands::new();
    c.skip_space();
    while !c.at_end() {
        if !body.is_empty() {
            c.expect(",")?;
            c.skip_space();
        }
        body.push(Operand::Raw(hex(c)?));
        c.skip_space();
    }
    finish(c, token, body, version, words)
}

/// `0x` and up to eight hexadecimal digits.
fn hex(c: &mut Cursor<'_>) -> Result<u32> {
    let at = c.at;
    let digits = if c.eat("0x") { c.take_while(|ch| ch.is_ascii_hexdigit()) } else { "" };
    u32::from_str_radix(digits, 16).or_else(|_| {
        c.at = at;
        c.fail("a hexadecimal token (`0x0000ffff`)")
    })
}

/// The usage token of `dcl` for its suffix and the declared register's type.
fn dcl_usage(suffix: &str, ty: RegisterType, version: Version) -> Option<u32> {
    if ty == RegisterType::Sampler {
        let t = TEXTURE_TYPES
            .iter()
            .position(|t| t.get(1..) == Some(suffix))
            .map(|t| t as u32)
            .or_else(|| suffix.strip_prefix("textype")?.parse().ok().filter(|&t| t < 16))?;
        return Some(PARAM_TOKEN | D3DSP_TEXTURETYPE.put(t));
    }
    if (version.kind == ShaderKind::Pixel && version.major < 3) || ty == RegisterType::MiscType {
        return suffix.is_empty().then_some(PARAM_TOKEN);
    }
    let split = suffix.find(|c: char| c.is_ascii_digit()).unwrap_or(suffix.len());
    let (name, index) = suffix.split_at(split);
    let (usage, index) = if name == "usage" {
        (index.parse::<u32>().ok()?, 0)
    } else {
        let usage = (0..32).find(|&u| usage_name(u) == Some(name)).or(suffix.is_empty().then_some(0))?;
        (usage, if index.is_empty() { 0 } else { index.parse::<u32>().ok()? })
    };
    (usage < 32 && index < 16)
        .then(|| PARAM_TOKEN | D3DSP_DCL_USAGE.put(usage) | D3DSP_DCL_USAGEINDEX.put(index))
}

/// A literal of `def` (a float, `1.#INF`, or its bits in hexadecimal), `defi` (an integer)
/// or `defb` (`true`/`false`).
fn literal(c: &mut Cursor<'_>, form: Form) -> Result<u32> {
    let at = c.at;
    let text = c.number_text();
    let value = if let Some(digits) = text.strip_prefix("0x") {
        u32::from_str_radix(digits, 16).ok()
    } else {
        match form {
            Form::Def => float_bits(text),
            Form::DefI => text.parse::<i32>().ok().map(|v| v as u32),
            _ => match text {
                "true" => Some(1),
                "false" => Some(0),
                _ => text.parse::<u32>().ok(),
            },
        }
    };
    value.ok_or(Syntax {
        column: at,
        expected: match form {
            Form::Def => "a float",
            Form::DefI => "an integer",
            _ => "`true` or `false`",
        }
        .into(),
    })
}

/// A register name, its relative address and the number the address adds: the register's
/// type bits and number, and the relative flag and address token.
struct Register {
    ty: u8,
    number: u32,
    relative: Option<Option<u32>>,
}

impl Register {
    fn token(&self) -> u32 {
        PARAM_TOKEN
            | put_register_type(self.ty)
            | D3DSP_REGNUM.put(self.number)
            | D3DSHADER_ADDRESSMODE.put(u32::from(self.relative.is_some()))
    }

    /// The parameter of `token` (this register's, with the operand's other fields) and the
    /// address token; its offset is set where the instruction is placed.
    fn param(&self, token: u32) -> Param {
        Param { token, rel: self.relative.flatten(), offset: 0 }
    }
}

/// `c12`, `oPos`, `c3[a0.x]`, `c[a0.x + 3]`, `o[aL]`: a register as
/// [`operand::write_register_name`] prints it, and its relative address (`nested`: the
/// register of an address, which has none: relative addresses do not nest, so reading them
/// never recurses more than once).
fn register(c: &mut Cursor<'_>, version: Version, nested: bool) -> Result<Register> {
    let at = c.at;
    let letters = c.take_while(|ch| ch.is_ascii_alphabetic());
    let digits = c.take_while(|ch| ch.is_ascii_digit());
    // `reg21_5`: a type no name is known for.
    let unknown = if letters == "reg" && !digits.is_empty() && c.eat("_") {
        let n = c.take_while(|ch| ch.is_ascii_digit());
        Some((digits, n))
    } else {
        None
    };
    let mut relative = None;
    let mut offset = 0u32;
    if c.rest().starts_with('[') {
        c.deeper(u8::from(nested), 1, || {
            "`]` (a relative address does not nest: its register has none)".into()
        })?;
        let (token, add) = address(c, version)?;
        relative = Some(token);
        offset = add;
    }
    let fail = |expected: &str| Err(Syntax { column: at, expected: expected.into() });
    if let Some((ty, n)) = unknown {
        let (Ok(ty), Ok(number)) = (ty.parse::<u8>(), n.parse::<u32>()) else { return fail("a register") };
        if ty >= 32 || number > 2047 {
            return fail("a register");
        }
        return Ok(Register { ty, number, relative });
    }
    let number = if digits.is_empty() { None } else { digits.parse::<u32>().ok() };
    if !digits.is_empty() && number.is_none() {
        return fail("a register");
    }
    let number = match (number, offset) {
        (None, 0) => None,
        (n, o) => Some(n.unwrap_or(0).saturating_add(o)),
    };
    match register_named(letters, number, version) {
        Some((ty, number)) => Ok(Register { ty, number, relative }),
        None => fail("a register"),
    }
}

/// The register type and number that [`operand::write_register_name`] prints as `letters`
/// followed by `number` (`c2050` is `D3DSPR_CONST2` 2).
fn register_named(letters: &str, number: Option<u32>, version: Version) -> Option<(u8, u32)> {
    let candidates: Vec<u32> = match number {
        Some(n) => [0, 2048, 4096, 6144].iter().filter_map(|base| n.checked_sub(*base)).collect(),
        None => vec![0, 1, 2],
    };
    let mut name = String::with_capacity(letters.len() + 5);
    name.push_str(letters);
    if let Some(n) = number {
        name.push_str(&n.to_string());
    }
    let mut printed = String::new();
    (0..32u8).find_map(|ty| {
        candidates.iter().filter(|&&n| n <= 2047).find_map(|&n| {
            printed.clear();
            operand::write_register_name(RegisterType::from_bits(ty), n, version, &mut printed).ok()?;
            (printed == name).then_some((ty, n))
        })
    })
}

/// `[a0.x]`, `[aL]`, `[a0.x + 3]`: the address token (none in shader model 1, where only
/// `a0.x` exists) and the number added.
fn address(c: &mut Cursor<'_>, version: Version) -> Result<(Option<u32>, u32)> {
    c.expect("[")?;
    c.skip_space();
    let at = c.at;
    let r = register(c, version, true)?;
    let allowed = matches!(RegisterType::from_bits(r.ty), RegisterType::AddrOrTexture | RegisterType::Loop);
    if r.relative.is_some() || !allowed {
        c.at = at;
        return c.fail("an address register (`a0.x`, `aL`)");
    }
    let swizzle = if c.rest().starts_with('.') { swizzle(c)? } else { operand::IDENTITY_SWIZZLE };
    c.skip_space();
    let mut add = 0;
    if c.eat("+") {
        c.skip_space();
        let n_at = c.at;
        add = c.take_while(|ch| ch.is_ascii_digit()).parse().or_else(|_| {
            c.at = n_at;
            c.fail("a number")
        })?;
        c.skip_space();
    }
    c.expect("]")?;
    let token = r.token() | D3DSP_SWIZZLE.put(u32::from(swizzle));
    Ok((version.has_lengths().then_some(token), add))
}

/// `.xyzw`-style swizzle (after the dot): one letter replicated, four as written; two or
/// three repeat the last, as Microsoft's assembler does.
fn swizzle(c: &mut Cursor<'_>) -> Result<u8> {
    let at = c.at;
    c.expect(".")?;
    let letters = c.take_while(|ch| ch.is_ascii_alphanumeric());
    let mut text = String::from(".");
    text.push_str(letters);
    while (2..4).contains(&(text.len() - 1)) {
        let last = text.chars().last().unwrap_or('x');
        text.push(last);
    }
    let mut printed = String::new();
    (0..=255u8)
        .find(|&s| {
            printed.clear();
            operand::write_swizzle(s, &mut printed).is_ok() && printed == text
        })
        .ok_or_else(|| Syntax { column: at, expected: "a swizzle (`.x`, `.xyzw`)".into() })
}

/// A destination: register, relative address, write mask, with the mnemonic's shift and
/// result modifiers; its register type and the parameter.
fn destination(
    c: &mut Cursor<'_>,
    version: Version,
    shift: i8,
    modifiers: u8,
) -> Result<(RegisterType, Param)> {
    let r = register(c, version, false)?;
    let mut mask = 0xf;
    if c.rest().starts_with('.') {
        let at = c.at;
        c.at += 1;
        let letters = c.take_while(|ch| ch.is_ascii_alphanumeric());
        let mut printed = String::new();
        mask = (0..16u8)
            .find(|&m| {
                printed.clear();
                operand::write_mask(m, &mut printed).is_ok() && printed.get(1..) == Some(letters)
            })
            .ok_or(Syntax { column: at, expected: "a write mask (`.xz`)".into() })?;
    }
    let token = r.token()
        | D3DSP_WRITEMASK.put(u32::from(mask))
        | D3DSP_DSTMOD.put(u32::from(modifiers))
        | D3DSP_DSTSHIFT.put(shift as u32);
    Ok((RegisterType::from_bits(r.ty), r.param(token)))
}

/// A source: modifier, register, relative address, swizzle (`-r0_abs.x`, `1 - t0`, `!p0.x`).
fn source(c: &mut Cursor<'_>, version: Version) -> Result<Param> {
    let at = c.at;
    let before = ["1 - ", "-", "!"].into_iter().find(|b| c.eat(b)).unwrap_or("");
    let r = register(c, version, false)?;
    let after = SOURCE_MODIFIERS
        .iter()
        .map(|(_, a)| *a)
        .filter(|a| !a.is_empty())
        .find(|a| {
            c.rest().starts_with(a)
                && !c
                    .rest()
                    .get(a.len()..)
                    .is_some_and(|r| r.starts_with(|ch: char| ch.is_ascii_alphanumeric()))
        })
        .unwrap_or("");
    c.at += after.len();
    let Some(modifier) = SOURCE_MODIFIERS.iter().position(|&m| m == (before, after)) else {
        c.at = at;
        return c.fail("a source modifier fxc writes (`-r0_abs`, not `!r0_abs`)");
    };
    let swizzle = if c.rest().starts_with('.') { swizzle(c)? } else { operand::IDENTITY_SWIZZLE };
    let token = r.token() | D3DSP_SWIZZLE.put(u32::from(swizzle)) | D3DSP_SRCMOD.put(modifier as u32);
    Ok(r.param(token))
}

// ------------------------------------------------------------------ constant table

/// The constants of the `// Parameters:` declarations (table order) with the registers the
/// `// Registers:` rows give them.
fn constants(
    parameters: &[(usize, &str)],
    registers: &[(usize, &str)],
) -> std::result::Result<Vec<Constant>, LineError> {
    let mut rows = Vec::new();
    for &(n, raw) in registers {
        let body = comment_body(raw).unwrap_or("");
        let column = raw.len() - body.len();
        let mut words = body.split_whitespace();
        let (Some(name), Some(reg), Some(size), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            if body.trim().is_empty() {
                continue;
            }
            return Err(LineError {
                file: None,
                line: n,
                syntax: Syntax { column, expected: "a row `name reg size`".into() },
            });
        };
        if name == "Name" || name.starts_with('-') {
            continue;
        }
        let set = (0..4u16).find(|&s| reg.starts_with(ctab::register_set_letter(s)));
        let index = reg.get(1..).and_then(|i| i.parse::<u16>().ok());
        let (Some(set), Some(index), Ok(count)) = (set, index, size.parse::<u16>()) else {
            let column = column + body.find(reg).unwrap_or(0);
            return Err(LineError {
                file: None,
                line: n,
                syntax: Syntax { column, expected: "a register (`c4`, `s0`) and a size".into() },
            });
        };
        rows.push((n, name, set, index, count, false));
    }
    let mut constants = Vec::new();
    // Struct blocks being read: their members so far.
    let mut open: Vec<Vec<Member>> = Vec::new();
    for &(n, raw) in parameters {
        let body = comment_body(raw).unwrap_or("");
        let text = body.trim();
        let column = raw.len() - body.trim_start().len();
        let fail = |expected: &str| LineError {
            file: None,
            line: n,
            syntax: Syntax { column, expected: expected.into() },
        };
        if text.is_empty() || text == "{" {
            continue;
        }
        if text == "struct" {
            if open.len() >= 16 {
                return Err(fail("structs nested less deeply"));
            }
            open.push(Vec::new());
            continue;
        }
        let (ty, declared) = if let Some(rest) = text.strip_prefix('}') {
            let members = open.pop().ok_or_else(|| fail("a declaration"))?;
            let columns = members.iter().map(|m| components(&m.ty)).sum::<u32>();
            let ty =
                Type { class: 5, ty: 0, rows: 1, columns: columns.min(0xffff) as u16, elements: 1, members };
            (ty, rest.trim())
        } else {
            let Some((ty, declared)) = text.rsplit_once(' ') else { return Err(fail("`type name;`")) };
            (
                type_named(ty.trim())
                    .ok_or_else(|| fail("a type (`float4`, `row_major float4x4`, `sampler2D`)"))?,
                declared,
            )
        };
        let declared = declared.strip_suffix(';').ok_or_else(|| fail("`;` after the name"))?;
        let (name, elements) = match declared.split_once('[') {
            Some((name, count)) => {
                let count = count.strip_suffix(']').and_then(|c| c.parse::<u16>().ok());
                (name, count.ok_or_else(|| fail("an array size (`[4]`)"))?)
            }
            None => (declared, 1),
        };
        let ty = Type { elements, ..ty };
        if let Some(members) = open.last_mut() {
            members.push(Member { name: name.to_string(), ty });
            continue;
        }
        let Some(row) = rows.iter_mut().find(|r| r.1 == name && !r.5) else {
            return Err(fail(&format!("a row for `{name}` under `// Registers:`")));
        };
        row.5 = true;
        constants.push(Constant {
            name: name.to_string(),
            register_set: row.2,
            register_index: row.3,
            register_count: row.4,
            reserved: 0,
            ty,
            default_value: 0,
        });
    }
    if let Some(&(n, ..)) = rows.iter().find(|r| !r.5) {
        return Err(LineError {
            file: None,
            line: n,
            syntax: Syntax { column: 0, expected: "a constant declared under `// Parameters:`".into() },
        });
    }
    Ok(constants)
}

/// Components a type takes (a struct's columns count its members').
fn components(t: &Type) -> u32 {
    let own = if t.class == 5 { u32::from(t.columns) } else { u32::from(t.rows) * u32::from(t.columns) };
    own.saturating_mul(u32::from(t.elements))
}

/// A type as [`ctab::type_text`] prints it, read back: `float`, `float4`, `float4x4`,
/// `row_major float3x4`, `sampler2D`, `Texture2D`.
fn type_named(text: &str) -> Option<Type> {
    if let Some(ty) = (5..=9u16).find(|&ty| ctab::dx10_texture_name(ty) == Some(text)) {
        let (rows, columns) = (1, ctab::DX10_TEXTURE_COLUMNS);
        return Some(Type { class: 4, ty, rows, columns, elements: 1, members: Vec::new() });
    }
    let (row_major, text) = match text.strip_prefix("row_major ") {
        Some(t) => (true, t.trim_start()),
        None => (false, text),
    };
    let base = |t: &Type| Type { members: Vec::new(), ..t.clone() };
    (0..=18u16).find_map(|ty| {
        let rest = text.strip_prefix(ctab::type_name(ty))?;
        let t = Type { class: 0, ty, rows: 1, columns: 1, elements: 1, members: Vec::new() };
        let t = if rest.is_empty() {
            Type { class: if ty >= 4 { 4 } else { 0 }, ..t }
        } else if let Some((rows, columns)) = rest.split_once('x') {
            let (rows, columns) = (rows.parse().ok()?, columns.parse().ok()?);
            Type { class: if row_major { 2 } else { 3 }, rows, columns, ..t }
        } else {
            Type { class: 1, columns: rest.parse().ok()?, ..t }
        };
        // Printing the type must give the text back.
        (ctab::type_text(&t) == if row_major { format!("row_major {text}") } else { text.to_string() })
            .then(|| base(&t))
    })
}

#[cfg(test)]
mod tests {
    use super::super::fields::D3DSI_INSTLENGTH;
    use super::*;

    fn err(text: &str) -> (usize, usize, String) {
        let e = parse_program(text).unwrap_err();
        (e.line, e.syntax.column, e.syntax.expected)
    }

    fn words(text: &str) -> Vec<u32> {
        parse_program(text)
            .unwrap()
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    #[test]
    fn instructions_encode_as_fxc_does() {
        // The tokens of tests.rs, hand-computed there from d3d9types.h.
        assert_eq!(
            words("vs_2_0\nmad r0.xy, r1.x, c2.xyxy, v0"),
            [0xfffe_0200, 0x0400_0004, 0x8003_0000, 0x8000_0001, 0xa044_0002, 0x90e4_0000, 0xffff]
        );
        assert_eq!(words("ps_3_0\nadd r0, -r1, r2_abs.y")[1..4], [0x0300_0002, 0x800f_0000, 0x81e4_0001]);
        // Relative addressing: c3[a0.x] and its alternative spelling.
        let a = words("vs_2_0\nmov r0, c3[a0.x]");
        assert_eq!(a, words("vs_2_0\nmov r0, c[a0.x + 3]"));
        assert_eq!(a[1..5], [0x0300_0001, 0x800f_0000, 0xa0e4_2003, 0xb000_0000]);
        // Shader model 1: no length, no address token.
        assert_eq!(words("vs_1_1\nmov r0, c3[a0.x]")[1..4], [0x0000_0001, 0x800f_0000, 0xa0e4_2003]);
        // Co-issue and a destination shift.
        assert_eq!(words("ps_1_4\n+mul_x2_sat r0.w, r1, r2")[1..3], [0x4000_0005, 0x8118_0000]);
    }

    #[test]
    fn tabs_crlf_and_the_stray_slash_read_alike() {
        let spaces = words("    vs_2_0\n    dcl_position v0\n    mov oPos, v0\n");
        assert_eq!(words("\tvs_2_0\r\n\tdcl_position v0\r\n\tmov\toPos,\tv0\r\n"), spaces);
        // fxc 9.30's header without a table ends in a `/` that the version line follows.
        let stray = words("//\n// Generated by X\n//\n/    vs_2_0\n    dcl_position v0\n    mov oPos, v0\n");
        assert_eq!(
            (stray[0], stray[1] & 0xffff, stray.len() - spaces.len()),
            (spaces[0], 0xfffe, 1 + 1 + 7 + 3)
        );
    }

    #[test]
    fn errors_name_line_column_and_what_was_expected() {
        assert_eq!(err("\n    vs_2_0\n    mov r0, q1\n"), (3, 12, "a register".into()));
        assert_eq!(
            err("    vs_2_0\n    mvo r0, r1\n"),
            (2, 4, "a vs_2_0 instruction (`mvo` is none this assembler knows)".into())
        );
        assert_eq!(err("    vs_2_0\n    mov r0 r1\n"), (2, 11, "`,`".into()));
        assert_eq!(err("    vs_2_0\n    mov r0, r1, r2\n"), (2, 14, "the end of the line".into()));
        assert_eq!(err("    vs_2_0\n    def c0, 1, x, 0, 0\n"), (2, 15, "a float".into()));
        assert_eq!(err("    vs_2_0\n    mov r0.xq, r1\n"), (2, 10, "a write mask (`.xz`)".into()));
        assert_eq!(
            err("    vs_2_0\n    dcl_2d v0\n"),
            (2, 7, "a usage (`_texcoord1`) or a sampler type (`_2d`) that fits the register".into())
        );
        assert_eq!(err("    ps_4_0\n"), (1, 4, "a Direct3D 9 version line (`vs_2_0`, `ps_3_0`, …)".into()));
        assert_eq!(err("// nothing\n"), (2, 0, "a Direct3D 9 version line (`vs_2_0`, `ps_3_0`, …)".into()));
        let table = "// Generated by X\n// Parameters:\n//\n//   float4 a;\n//\n// Registers:\n//\n//   b c0 1\nvs_2_0\n";
        assert_eq!(err(table), (4, 5, "a row for `a` under `// Registers:`".into()));
    }

    /// A program of `version` holding one well-formed instruction of every opcode the version
    /// has (several variants of some), built from tokens.
    fn every_opcode(version: Version) -> Vec<u32> {
        let sm2 = version.has_lengths();
        let param = |ty: u8, n: u32| PARAM_TOKEN | put_register_type(ty) | D3DSP_REGNUM.put(n);
        let mut words = vec![version.token()];
        let mut k = 0u32;
        let push = |words: &mut Vec<u32>, token: u32, body: Vec<u32>| {
            let len = if sm2 { D3DSI_INSTLENGTH.put(body.len() as u32) } else { 0 };
            words.push(token | len);
            words.extend(body);
        };
        for info in TABLE.iter().filter(|i| i.available(version)) {
            let variants: &[u32] = match info.form {
                Form::Compare => &[1, 2, 3, 4, 5, 6],
                Form::Tex if sm2 => &[0, 1, 2],
                _ => &[0],
            };
            for &control in variants {
                k += 1;
                let token = u32::from(info.code) | D3DSP_OPCODESPECIFICCONTROL.put(control);
                let dst = |k: u32| {
                    param(0, k % 8)
                        | D3DSP_WRITEMASK.put(1 + k % 15)
                        | D3DSP_DSTMOD.put(k % 8)
                        | D3DSP_DSTSHIFT.put([0, 1, 2, 3, 13, 14, 15, 4, 7, 8, 12][k as usize % 11])
                };
                let body = match info.form {
                    Form::Dcl => {
                        let (usage, reg) = match (version.kind, version.major) {
                            (ShaderKind::Vertex, _) => {
                                (D3DSP_DCL_USAGE.put(5) | D3DSP_DCL_USAGEINDEX.put(1), param(1, 2))
                            }
                            (_, 3) => (D3DSP_DCL_USAGE.put(10), param(1, 1)),
                            _ => (0, param(3, 1)),
                        };
                        push(&mut words, token, vec![PARAM_TOKEN | usage, reg | D3DSP_WRITEMASK.put(3)]);
                        if version.kind == ShaderKind::Pixel {
                            vec![
                                PARAM_TOKEN | D3DSP_TEXTURETYPE.put(3),
                                param(10, 2) | D3DSP_WRITEMASK.put(15),
                            ]
                        } else {
                            vec![PARAM_TOKEN, param(1, 0) | D3DSP_WRITEMASK.put(15)]
                        }
                    }
                    Form::Def => vec![
                        param(2, 7) | D3DSP_WRITEMASK.put(15),
                        0x3f00_0000,
                        0xbf80_0000,
                        0x3727_c5ac,
                        0x7f80_0000,
                    ],
                    Form::DefI => vec![param(7, 1) | D3DSP_WRITEMASK.put(15), 3, 0xffff_fffe, 0, 255],
                    Form::DefB => vec![param(14, 2) | D3DSP_WRITEMASK.put(15), 1],
                    _ => {
                        let mut body = Vec::new();
                        if info.dst > 0 {
                            body.push(dst(k));
                        }
                        let predicated = sm2 && version.minor > 0 && k % 3 == 0;
                        if predicated {
                            body.push(
                                param(19, 0) | D3DSP_SWIZZLE.put(0x55) | D3DSP_SRCMOD.put(13 * (k % 2)),
                            );
                        }
                        let n = info.srcs.get(version.src_column()).copied().unwrap_or(0);
                        for j in 0..u32::from(n) {
                            let m = (k + j) % 16;
                            let relative = j == 1 && version.kind == ShaderKind::Vertex;
                            let src = param(2, 3 + j)
                                | D3DSP_SWIZZLE.put((k * 37 + j * 11) % 256)
                                | D3DSP_SRCMOD.put(m)
                                | D3DSHADER_ADDRESSMODE.put(u32::from(relative));
                            body.push(src);
                            if relative && sm2 {
                                body.push(param(3, 0) | D3DSP_SWIZZLE.put(0x55 * (k % 4)));
                            }
                        }
                        let coissue = version.kind == ShaderKind::Pixel && !sm2 && k % 2 == 0;
                        let extra = D3DSHADER_INSTRUCTION_PREDICATED.put(u32::from(predicated))
                            | D3DSI_COISSUE.put(u32::from(coissue));
                        push(&mut words, token | extra, body);
                        continue;
                    }
                };
                push(&mut words, token, body);
            }
        }
        words.push(opcodes::END_TOKEN);
        words
    }

    #[test]
    fn every_opcode_of_every_version_comes_back() {
        use super::super::ListingOptions;
        use crate::print::TextBuf;
        let mut versions = Vec::new();
        for (kind, minors) in [
            (ShaderKind::Vertex, &[(1, 1), (2, 0), (2, 1), (3, 0), (3, 0xff)][..]),
            (ShaderKind::Pixel, &[(1, 1), (1, 2), (1, 3), (1, 4), (2, 0), (2, 1), (3, 0)][..]),
        ] {
            versions.extend(minors.iter().map(|&(major, minor)| Version { kind, major, minor }));
        }
        for version in versions {
            let words = every_opcode(version);
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let program = super::super::Program::parse(&bytes, 0).unwrap();
            assert!(program.instructions().all(|i| i.malformed.is_none()), "{}", version.name());
            // fxc's columns (`/Ni`, `/No`), `/Lx` literals and the raw-token comments change
            // nothing.
            let plain = ListingOptions::default();
            let all =
                ListingOptions { offsets: true, numbering: true, hex_literals: true, raw: true, ..plain };
            let numbered = ListingOptions { numbering: true, ..plain };
            for opts in [plain, all, numbered, ListingOptions { offsets: true, ..plain }] {
                let mut text = TextBuf::default();
                super::super::write_listing(&program, &opts, &mut text).unwrap();
                let back = parse_program(text.as_str())
                    .unwrap_or_else(|e| panic!("{}: {e}\n{}", version.name(), text.as_str()));
                assert_eq!(back, bytes, "{}:\n{}", version.name(), text.as_str());
            }
        }
    }

    #[test]
    fn every_register_name_reads_back() {
        for version in [
            Version { kind: ShaderKind::Vertex, major: 3, minor: 0 },
            Version { kind: ShaderKind::Pixel, major: 2, minor: 0 },
        ] {
            for ty in 0..32u8 {
                for n in [0, 1, 2, 9, 2047] {
                    let mut name = String::new();
                    operand::write_register_name(RegisterType::from_bits(ty), n, version, &mut name).unwrap();
                    let mut c = Cursor { text: &name, at: 0 };
                    let r = register(&mut c, version, false).unwrap_or_else(|e| panic!("{name}: {e}"));
                    let mut again = String::new();
                    operand::write_register_name(
                        RegisterType::from_bits(r.ty),
                        r.number,
                        version,
                        &mut again,
                    )
                    .unwrap();
                    assert_eq!((again.as_str(), c.at), (name.as_str(), name.len()));
                }
            }
        }
    }

    #[test]
    fn undecoded_instructions_come_back_as_their_tokens() {
        // An unknown opcode (0x37) and a `mov` with a source too many, in ps_2_0.
        let words = [
            0xffff_0200u32,
            0x0200_0037,
            0x1234_5678,
            0x8000_0000,
            0x0300_0001,
            0x800f_0000,
            0x80e4_0001,
            0x80e4_0002,
            opcodes::END_TOKEN,
        ];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let program = super::super::Program::parse(&bytes, 0).unwrap();
        let mut text = crate::print::TextBuf::default();
        super::super::write_listing(&program, &Default::default(), &mut text).unwrap();
        assert!(text.as_str().contains("opcode_0x0037 0x12345678, 0x80000000"), "{}", text.as_str());
        assert_eq!(parse_program(text.as_str()).unwrap(), bytes);
    }

    #[test]
    fn cut_and_damaged_text_gives_errors_not_panics() {
        let version = Version { kind: ShaderKind::Pixel, major: 1, minor: 4 };
        let bytes: Vec<u8> = every_opcode(version).iter().flat_map(|w| w.to_le_bytes()).collect();
        let program = super::super::Program::parse(&bytes, 0).unwrap();
        let mut text = crate::print::TextBuf::default();
        super::super::write_listing(&program, &Default::default(), &mut text).unwrap();
        let header = "//\n// Generated by X\n//\n// Parameters:\n//\n//   struct\n//   {\n//       float4 a[2];\n//\n//   } s;\n//   row_major float3x4 m;\n//\n//\n// Registers:\n//\n//   s c0 2\n//   m c2 3\n//\n";
        let text = format!("{header}{}", text.as_str());
        let assembled = parse_program(&text).unwrap();
        let program = super::super::Program::parse(&assembled, 0).unwrap();
        let table = program.constant_table().unwrap().unwrap();
        let mut tables = String::new();
        table.write_text(&mut tables);
        assert_eq!(
            tables,
            "// Parameters:\n//\n//   struct\n//   {\n//       float4 a[2];\n//\n//   } s;\n//   \n\
             //   row_major float3x4 m;\n//\n//\n// Registers:\n//\n//   Name         Reg   Size\n\
             //   ------------ ----- ----\n//   s            c0       2\n//   m            c2       3\n//\n"
        );
        assert_eq!((table.creator.as_str(), table.target.as_str(), table.flags), ("X", "ps_1_4", 0x100));
        for (cut, _) in text.char_indices() {
            let _ = parse_program(&text[..cut]);
            let mut damaged = text.clone();
            damaged.replace_range(cut..cut + text[cut..].chars().next().map_or(0, char::len_utf8), "[");
            let _ = parse_program(&damaged);
        }
    }
}
