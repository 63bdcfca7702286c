//! The listing's fast path: plain text straight from the token stream.
//!
//! [`write_listing`](super::write_listing) prints a parsed [`Program`], whose instructions are
//! each decoded into an [`Instruction`](super::Instruction) first. [`write_listing_text`]
//! prints the same text for shader model 2 and 3 (the level-9 programs of DXBC files) without
//! that model, in one walk over the tokens that prints, counts slots and meets what
//! [`Program::parse`] would reject (then the text is taken back). The `DBUG` block is looked
//! for among the comments before the first instruction, where fxc writes it; one found later
//! means a second walk. Common instructions (declarations, `def`, arithmetic, comparisons and
//! texture loads whose operands are registers, sources possibly addressed relatively:
//! `c26[a0.x]`) are written from their tokens with tables built at compile time; any other
//! (predicated, malformed, relative destinations, unusual modifiers or registers) is decoded
//! alone and printed by the general code. The tests check that both paths give the same text
//! on every corpus program and on damaged ones.

use super::opcode::{self, Form, OpInfo};
use super::print::{self, DebugLines, ListingOptions};
use super::{Program, ShaderKind, SlotCounts, Version, float};
use crate::error::{Error, Result};
use crate::print::{TextBuf, Writer, mask_letters, swizzle_letters};
use crate::toolkit::le_u32;

/// Print the program at the start of `data` (absolute offset `base`) exactly as
/// [`write_listing`](super::write_listing) prints what [`Program::parse`] makes of it, or
/// return the error `parse` gives, having written nothing.
pub fn write_listing_text(data: &[u8], base: u64, opts: &ListingOptions, out: &mut TextBuf) -> Result<()> {
    let (_, version) = super::read_version(data, base)?;
    // Shader model 1 has no instruction lengths (the general decoder works them out), and the
    // header needs the constant table: both are rare, and take the general path.
    if !version.has_lengths() || opts.header {
        let program = Program::parse(data, base)?;
        // Writing into a TextBuf cannot fail.
        let _ = print::write_listing(&program, opts, out);
        return Ok(());
    }
    let start = out.len();
    let leading = first_debug_block(data, base, true);
    let mut printed = print_program(data, base, version, opts, leading, leading.is_none(), out);
    if let Ok(false) = printed {
        // A `DBUG` block after the first instruction: print again with it.
        out.truncate(start);
        printed = print_program(data, base, version, opts, first_debug_block(data, base, false), false, out);
    }
    printed.map(|_| ()).inspect_err(|_| out.truncate(start))
}

/// The first `DBUG` comment (absolute offset of its data after the FourCC, that data), as
/// [`Program::comment_block`] finds it; only among the comments before the first instruction
/// when `leading`.
fn first_debug_block(data: &[u8], base: u64, leading: bool) -> Option<(u64, &[u8])> {
    let mut pos = 4usize;
    loop {
        let token = le_u32(data, pos)?;
        if token == opcode::END_TOKEN {
            return None;
        }
        let start = pos + 4;
        if token as u16 == opcode::COMMENT {
            let words = ((token >> 16) & 0x7fff) as usize;
            let comment = data.get(start..).and_then(|r| r.get(..words * 4))?;
            if let Some(d) = comment.strip_prefix(b"DBUG") {
                return Some((base + start as u64 + 4, d));
            }
            pos = start + words * 4;
        } else if leading {
            return None;
        } else {
            pos = start + 4 * ((token >> 24) & 0xf) as usize;
        }
    }
}

/// Print the program, with the debug lines of the `DBUG` block `debug`, as [`Program::parse`]
/// walks it for shader model 2 and later: the same errors where it fails (the caller takes
/// back the text written). False, when `stop_at_debug`, at a `DBUG` comment.
fn print_program(
    data: &[u8],
    base: u64,
    version: Version,
    opts: &ListingOptions,
    debug: Option<(u64, &[u8])>,
    stop_at_debug: bool,
    out: &mut TextBuf,
) -> Result<bool> {
    let at = |pos: usize| base + pos as u64;
    let debug = debug.and_then(|(o, d)| DebugLines::from_block(d, o));
    let regs = registers(version);
    let _ = print::write_version_line(base, version, out);
    let mut slots = SlotCounts::default();
    let (mut level, mut previous, mut cursor) = (0usize, None, 0usize);
    let mut pos = 4usize;
    loop {
        let Some(token) = le_u32(data, pos) else {
            if pos == data.len() {
                break;
            }
            return Err(Error::truncated(at(pos), "d3d9 token", 4, (data.len() - pos) as u64));
        };
        if token == opcode::END_TOKEN {
            break;
        }
        let start = pos + 4;
        if token as u16 == opcode::COMMENT {
            let words = ((token >> 16) & 0x7fff) as usize;
            let comment = data.get(start..).and_then(|r| r.get(..words * 4)).ok_or_else(|| {
                Error::truncated(at(start), "d3d9 comment", words as u64 * 4, (data.len() - start) as u64)
            })?;
            if stop_at_debug && comment.starts_with(b"DBUG") {
                return Ok(false);
            }
            pos = start + words * 4;
            continue;
        }
        let len = ((token >> 24) & 0xf) as usize;
        let Some(body) = data.get(start..).and_then(|r| r.get(..len * 4)) else {
            return Err(Error::truncated(
                at(pos),
                "d3d9 instruction",
                4 + len as u64 * 4,
                (data.len() - pos) as u64,
            ));
        };
        let offset = at(pos);
        let record = debug.as_ref().and_then(|d| d.record_from(pos as u64, &mut cursor));
        if let Some((line, file)) =
            record.zip(debug.as_ref()).and_then(|(r, d)| d.directive(r, &mut previous))
        {
            write_directive(line, file, out);
        }
        let row = opcode::row(token as u16);
        let info = row.and_then(|r| opcode::TABLE.get(r));
        if let Some(info) = info {
            let (total, texture) = info.cost.slots(version);
            slots.total += total;
            slots.texture += texture;
        }
        let op = info.map(|i| i.opcode);
        if print::closes_block(op) {
            level = level.saturating_sub(1);
        }
        // `print::write_line_start` for plain text.
        if opts.offsets {
            write_offset(offset, out);
        }
        out.push_spaces(print::INDENT.len() + 2 * level.min(print::MAX_DEPTH));
        let fast = match (row, info) {
            (Some(row), Some(info)) => instruction(token, body, row, info, version, regs, out),
            _ => false,
        };
        if !fast {
            write_decoded(data, pos, base, version, out)?;
        }
        if let (Some(r), Some(d)) = (record, &debug) {
            out.push_ascii(d.comment(r.0));
        }
        if opts.raw {
            write_raw(token, body, out);
        }
        out.push('\n');
        if print::opens_block(op) {
            level += 1;
        }
        pos = start + 4 * len;
    }
    let _ = print::write_slots(slots, out);
    Ok(true)
}

// The rare parts of a line, kept out of the printing loop, where they would only crowd the
// registers.

/// `0x00000040: ` (`--offsets`).
#[cold]
#[inline(never)]
fn write_offset(offset: u64, out: &mut TextBuf) {
    out.push_str("0x");
    out.push_hex(offset, 8);
    out.push_str(": ");
}

/// `#line 83 "Lighting.fxh"` (the name when the file changes) after an empty line.
#[inline(never)]
fn write_directive(line: u16, file: Option<&str>, out: &mut TextBuf) {
    out.push_str("\n#line ");
    out.push_u64(u64::from(line));
    if let Some(name) = file {
        out.push_str(" \"");
        out.push_str(name);
        out.push('"');
    }
    out.push('\n');
}

/// An instruction of none of the fast forms, decoded alone and printed by the general printer.
#[cold]
#[inline(never)]
fn write_decoded(data: &[u8], pos: usize, base: u64, version: Version, out: &mut TextBuf) -> Result<()> {
    let ins = super::decode_instruction(data, pos, base, version)?;
    let _ = print::write_instruction(&ins, version, out);
    Ok(())
}

/// The instruction's tokens as a comment (`--raw`).
#[cold]
#[inline(never)]
fn write_raw(token: u32, body: &[u8], out: &mut TextBuf) {
    let words = (0..body.len() / 4).filter_map(|i| le_u32(body, 4 * i));
    let _ = print::write_raw(token, words, out);
}

/// Room made for an instruction's text, counting the slack of the fixed-size copies: the
/// longest fast form fits (mnemonic 16, variant 8, shift 8, result modifiers 16, space, a
/// destination of 20 and four sources of 38 with their separators: 221 bytes).
const ROOM: usize = 224;

/// Room added for each relative address (`[`, register 12, swizzle 5, `]`).
const RELATIVE_ROOM: usize = 20;

/// Bit 13 of a parameter token: relative addressing.
const RELATIVE: u32 = 1 << 13;

/// Print the instruction `token` with `body` (the tokens after it) when it has a common form,
/// exactly as the general printer would; false, with nothing written, otherwise.
#[inline]
fn instruction(
    token: u32,
    body: &[u8],
    row: usize,
    info: &OpInfo,
    version: Version,
    regs: &Registers,
    out: &mut TextBuf,
) -> bool {
    // Bit 28: predicated (the predicate comes first, in parentheses).
    if token & (1 << 28) != 0 {
        return false;
    }
    let Some(&(name, name_len)) = MNEMONICS.get(row) else { return false };
    if info.form == Form::Def {
        return def(body, name, name_len, regs, out);
    }
    // Tokens beyond one per parameter are (in a well-formed instruction) relative addresses.
    let params =
        usize::from(info.dst) + usize::from(info.srcs.get(version.src_column()).copied().unwrap_or(0));
    let room = ROOM + RELATIVE_ROOM * (body.len() / 4).saturating_sub(params);
    out.write_with(room, |w| {
        operation(token, body, info, (name, name_len), version, regs, w).is_some() && w.commit()
    })
}

/// `def c0, 1, 0.5, -2, 0`: the register through the writer, the floats formatted after it.
/// Kept out of the printing loop, where it is rare and would only crowd the registers.
#[inline(never)]
fn def(body: &[u8], name: [u8; NAME_MAX], name_len: usize, regs: &Registers, out: &mut TextBuf) -> bool {
    let (Some(d), 20) = (le_u32(body, 0), body.len()) else { return false };
    let ok = out.write_with(64, |w| {
        w.put(&name, name_len);
        destination(d, SPACE, regs, w).is_some() && w.commit()
    });
    if ok {
        for i in 1..5 {
            out.push_str(", ");
            let _ = float::write_g9(f32::from_bits(le_u32(body, 4 * i).unwrap_or(0)), out);
        }
    }
    ok
}

/// The text of a declaration or an operation (plain, comparison, texture load) whose
/// parameters take one token each; `None` for any other form.
#[inline]
fn operation(
    token: u32,
    body: &[u8],
    info: &OpInfo,
    (name, name_len): ([u8; NAME_MAX], usize),
    version: Version,
    regs: &Registers,
    w: &mut Writer<'_>,
) -> Option<()> {
    let control = (token >> 16) & 0xff;
    match info.form {
        Form::Dcl => {
            let (usage, d) = (le_u32(body, 0)?, le_u32(body, 4)?);
            if body.len() != 8 {
                return None;
            }
            w.put(b"dcl", 3);
            dcl_suffix(usage, d, version, w)?;
            result_modifiers(d, w)?;
            return destination(d, SPACE, regs, w);
        }
        Form::Plain => w.put(&name, name_len),
        Form::Compare => {
            w.put(&name, name_len);
            let (text, n) = COMPARISONS.get((control & 7) as usize).filter(|c| c.1 > 0)?;
            w.put(&text.to_le_bytes(), *n);
        }
        // Shader model 2 and later: bits 16–17 choose the variant.
        Form::Tex => match control & 3 {
            1 => w.put(b"texldp", 6),
            2 => w.put(b"texldb", 6),
            _ => w.put(b"texld", 5),
        },
        _ => return None,
    }
    let dst = usize::from(info.dst);
    let srcs = usize::from(*info.srcs.get(version.src_column())?);
    if dst + srcs > 5 {
        return None;
    }
    let mut sep = SPACE;
    if dst > 0 {
        let d = le_u32(body, 0)?;
        let (shift, n) = SHIFTS.get(((d >> 24) & 0xf) as usize).filter(|s| s.1 != usize::MAX)?;
        // Shifts and modifiers are rare: a test costs less than an empty copy.
        if *n > 0 {
            w.put(&shift.to_le_bytes(), *n);
        }
        result_modifiers(d, w)?;
        destination(d, SPACE, regs, w)?;
        sep = COMMA;
    }
    // A source with bit 13 set is followed by its address token.
    let mut at = 4 * dst;
    for _ in 0..srcs {
        let s = le_u32(body, at)?;
        let address = if s & RELATIVE != 0 { le_u32(body, at + 4) } else { None };
        at += if address.is_some() { 8 } else { 4 };
        source(s, address, sep, regs, w)?;
        sep = COMMA;
    }
    // As many parameters as the opcode takes and nothing after them; otherwise the general
    // decoder marks the instruction malformed.
    (at == body.len()).then_some(())
}

/// `_2d`, `_texcoord1`… after `dcl` (see the general printer's `dcl_suffix`).
#[inline]
fn dcl_suffix(usage: u32, d: u32, version: Version, w: &mut Writer<'_>) -> Option<()> {
    let ty = register_type(d);
    if ty == SAMPLER {
        let (text, n) = TEXTURE_TYPES.get(((usage >> 27) & 0xf) as usize)?;
        w.put(&text.to_le_bytes(), *n);
        return Some(());
    }
    if (version.kind == ShaderKind::Pixel && version.major < 3) || ty == MISC {
        return Some(());
    }
    let (text, n) = USAGES.get((usage & 0x1f) as usize)?;
    w.put(text, *n);
    let index = (usage >> 16) & 0xf;
    if index > 0 {
        let (digits, n) = number(index);
        w.put(&digits.to_le_bytes(), n);
    }
    Some(())
}

/// `_sat`, `_pp`, `_centroid` of a destination (rare: tested before the copy).
#[inline]
fn result_modifiers(d: u32, w: &mut Writer<'_>) -> Option<()> {
    let (mods, n) = RESULT_MODIFIERS.get(((d >> 20) & 0xf) as usize)?;
    if *n > 0 {
        w.put(mods, *n);
    }
    Some(())
}

/// A destination after `prefix` (a space or a comma): register and write mask.
#[inline]
fn destination(d: u32, prefix: Text, regs: &Registers, w: &mut Writer<'_>) -> Option<()> {
    put_joined(prefix, register(d, regs)?, w);
    let (mask, n) = MASKS.get(((d >> 16) & 0xf) as usize)?;
    w.put(&mask.to_le_bytes(), *n);
    Some(())
}

/// A source after `sep`: modifier, register, relative address (`c26[a0.x]`, from the
/// `address` token that follows a source with bit 13 set), swizzle; `None` for a modifier
/// without a name.
#[inline]
fn source(s: u32, address: Option<u32>, sep: Text, regs: &Registers, w: &mut Writer<'_>) -> Option<()> {
    let m = ((s >> 24) & 0xf) as usize;
    let (before, after) = SOURCE_MODIFIERS.get(m)?;
    if after.1 == usize::MAX {
        return None;
    }
    // The separator (2 bytes at most) and the modifier before (4) fit in one word.
    let prefix = (sep.0 | before.0 << (8 * sep.1), sep.1 + before.1);
    match address {
        None => put_joined(prefix, register(s, regs)?, w),
        Some(a) => {
            // The general printer names the address register by its type and number alone.
            put_joined(prefix, register_name(s, regs)?, w);
            put_joined(text(b"["), register_name(a, regs)?, w);
            let (swizzle, n) = SWIZZLES.get(((a >> 16) & 0xff) as usize)?;
            w.put(&swizzle.to_le_bytes(), *n);
            w.put(b"]", 1);
        }
    }
    if after.1 > 0 {
        w.put(&after.0.to_le_bytes(), after.1);
    }
    let (swizzle, n) = SWIZZLES.get(((s >> 16) & 0xff) as usize)?;
    w.put(&swizzle.to_le_bytes(), *n);
    Some(())
}

/// Up to eight bytes of text as a `u64` (first byte lowest, zeros after) and their number.
type Text = (u64, usize);

/// The separators before parameters.
const SPACE: Text = text(b" ");
const COMMA: Text = text(b", ");

/// `prefix` then `text`: in one copy when both fit in eight bytes, as they usually do.
#[inline]
fn put_joined(prefix: Text, text: Text, w: &mut Writer<'_>) {
    let len = prefix.1 + text.1;
    match text.0.checked_shl(8 * prefix.1 as u32) {
        Some(shifted) if len <= 8 => w.put(&(prefix.0 | shifted).to_le_bytes(), len),
        _ => {
            w.put(&prefix.0.to_le_bytes(), prefix.1);
            w.put(&text.0.to_le_bytes(), text.1);
        }
    }
}

/// The register of a parameter without relative addressing, named as
/// `operand::write_register_name` names it; `None` for the registers it spells otherwise.
#[inline]
fn register(p: u32, regs: &Registers) -> Option<Text> {
    if p & RELATIVE != 0 {
        return None;
    }
    register_name(p, regs)
}

/// [`register`] whatever bit 13 says.
#[inline]
fn register_name(p: u32, regs: &Registers) -> Option<Text> {
    let n = p & 0x7ff;
    let reg = regs.get(register_type(p))?;
    match reg.shape {
        Shape::Numbered => {
            // At most four letters and four digits.
            let (digits, len) = number(n);
            Some((reg.text | u64::from(digits) << (8 * reg.len), reg.len + len))
        }
        Shape::Fixed => Some((reg.text, reg.len)),
        Shape::ByNumber(names) => names.get(n as usize).copied(),
        Shape::General => None,
    }
}

/// A register number (0–2047) or a usage index: its digits (first lowest) and their number.
#[inline]
fn number(n: u32) -> (u32, usize) {
    let digits = NUMBERS.get(n as usize).copied().unwrap_or(0);
    (digits as u32, (digits >> 32) as usize)
}

/// The 5-bit register type of a parameter token (bits 28–30 low, 11–12 high).
#[inline]
fn register_type(p: u32) -> usize {
    (((p >> 28) & 7) | ((p >> 8) & 0x18)) as usize
}

/// `D3DSPR_SAMPLER`.
const SAMPLER: usize = 10;
/// `D3DSPR_MISCTYPE`.
const MISC: usize = 17;

/// The register files of `version`: names differ between vertex shaders before 3.0, vs_3_0
/// and pixel shaders.
fn registers(version: Version) -> &'static Registers {
    match version.kind {
        ShaderKind::Vertex if version.major >= 3 => &VS3_REGISTERS,
        ShaderKind::Vertex => &VS_REGISTERS,
        ShaderKind::Pixel => &PS_REGISTERS,
    }
}

/// How a register file's registers are named.
#[derive(Clone, Copy)]
enum Shape {
    /// The text, then the number: `r3`.
    Numbered,
    /// The text alone, whatever the number: `oDepth`, `aL`.
    Fixed,
    /// A name per number (`oPos`, `oFog`, `oPts`; `vPos`, `vFace`); others take the general path.
    ByNumber(&'static [(u64, usize)]),
    /// The general path names it (`D3DSPR_CONST2`–`4`, which add to the number).
    General,
}

/// A register file: its name (bytes of a `u64`, first byte lowest) and how numbers follow.
#[derive(Clone, Copy)]
struct Register {
    text: u64,
    len: usize,
    shape: Shape,
}

/// Register types 0–19 (`D3DSPR_TEMP` to `D3DSPR_PREDICATE`); others take the general path.
type Registers = [Register; 20];

static VS_REGISTERS: Registers = build_registers(ShaderKind::Vertex, false);
static VS3_REGISTERS: Registers = build_registers(ShaderKind::Vertex, true);
static PS_REGISTERS: Registers = build_registers(ShaderKind::Pixel, false);

/// `D3DSPR_RASTOUT` registers 0–2.
const RAST_OUT: [(u64, usize); 3] = [text(b"oPos"), text(b"oFog"), text(b"oPts")];
/// `D3DSPR_MISCTYPE` registers 0–1.
const MISC_TYPE: [(u64, usize); 2] = [text(b"vPos"), text(b"vFace")];

/// Up to eight bytes as a `u64` (first byte lowest) and their number.
#[allow(clippy::indexing_slicing)]
const fn text(b: &[u8]) -> (u64, usize) {
    assert!(b.len() <= 8);
    let mut v = 0u64;
    let mut i = 0;
    while i < b.len() {
        v |= (b[i] as u64) << (8 * i);
        i += 1;
    }
    (v, b.len())
}

// Tables below are only built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn build_registers(kind: ShaderKind, vs3: bool) -> Registers {
    let vertex = matches!(kind, ShaderKind::Vertex);
    let general = Register { text: 0, len: 0, shape: Shape::General };
    let mut t = [general; 20];
    t[0] = numbered(b"r");
    t[1] = numbered(b"v");
    t[2] = numbered(b"c");
    t[3] = numbered(if vertex { b"a" } else { b"t" });
    t[4] = Register { text: 0, len: 0, shape: Shape::ByNumber(&RAST_OUT) };
    t[5] = numbered(b"oD");
    t[6] = numbered(if vs3 { b"o" } else { b"oT" });
    t[7] = numbered(b"i");
    t[8] = numbered(b"oC");
    let (depth, depth_len) = text(b"oDepth");
    t[9] = Register { text: depth, len: depth_len, shape: Shape::Fixed };
    t[10] = numbered(b"s");
    t[14] = numbered(b"b");
    let (al, al_len) = text(b"aL");
    t[15] = Register { text: al, len: al_len, shape: Shape::Fixed };
    t[16] = numbered(b"h");
    t[17] = Register { text: 0, len: 0, shape: Shape::ByNumber(&MISC_TYPE) };
    t[18] = numbered(b"l");
    t[19] = numbered(b"p");
    t
}

const fn numbered(b: &[u8]) -> Register {
    // Room for four digits after it in a `u64`.
    assert!(b.len() <= 4);
    let (text, len) = text(b);
    Register { text, len, shape: Shape::Numbered }
}

/// Decimal digits of 0–2047 as bytes of the low `u32`, first digit lowest, and their number
/// in the high one.
static NUMBERS: [u64; 2048] = build_numbers();

#[allow(clippy::indexing_slicing)]
const fn build_numbers() -> [u64; 2048] {
    let mut t = [0u64; 2048];
    let mut n = 0;
    while n < 2048 {
        let mut digits = [0u8; 4];
        let mut len = 0;
        let mut v = n;
        loop {
            digits[len] = b'0' + (v % 10) as u8;
            len += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        let mut word = (len as u64) << 32;
        let mut i = 0;
        while i < len {
            word |= (digits[len - 1 - i] as u64) << (8 * i);
            i += 1;
        }
        t[n] = word;
        n += 1;
    }
    t
}

/// Write-mask text: `.xz`, nothing for `.xyzw`, `.` for an empty mask.
static MASKS: [(u64, usize); 16] = build_masks();

#[allow(clippy::indexing_slicing)]
const fn build_masks() -> [(u64, usize); 16] {
    let mut t = [(0, 0); 16];
    let mut m = 0;
    while m < 15 {
        t[m] = mask_letters(m);
        m += 1;
    }
    t
}

/// Swizzle text: nothing for `.xyzw`, one letter when the four are the same, else four.
static SWIZZLES: [(u64, usize); 256] = build_swizzles();

#[allow(clippy::indexing_slicing)]
const fn build_swizzles() -> [(u64, usize); 256] {
    let mut t = [(0, 0); 256];
    let mut s = 0;
    while s < 256 {
        let v = swizzle_letters(s);
        let first = s & 3;
        let same = (s >> 2) & 3 == first && (s >> 4) & 3 == first && (s >> 6) & 3 == first;
        t[s] = if s == 0xe4 {
            (0, 0)
        } else if same {
            (v & 0xffff, 2)
        } else {
            (v, 5)
        };
        s += 1;
    }
    t
}

/// Source modifiers (`D3DSHADER_PARAM_SRCMOD_TYPE`): the text before the register and after
/// it; a length of `usize::MAX` after marks the values the general printer spells out.
static SOURCE_MODIFIERS: [((u64, usize), (u64, usize)); 16] = build_source_modifiers();

#[allow(clippy::indexing_slicing)]
const fn build_source_modifiers() -> [((u64, usize), (u64, usize)); 16] {
    let none = (0, 0);
    let minus = text(b"-");
    let mut t = [(none, none); 16];
    t[1] = (minus, none);
    t[2] = (none, text(b"_bias"));
    t[3] = (minus, text(b"_bias"));
    t[4] = (none, text(b"_bx2"));
    t[5] = (minus, text(b"_bx2"));
    t[6] = (text(b"1 - "), none);
    t[7] = (none, text(b"_x2"));
    t[8] = (minus, text(b"_x2"));
    t[9] = (none, text(b"_dz"));
    t[10] = (none, text(b"_dw"));
    t[11] = (none, text(b"_abs"));
    t[12] = (minus, text(b"_abs"));
    t[13] = (text(b"!"), none);
    t[14] = (none, (0, usize::MAX));
    t[15] = (none, (0, usize::MAX));
    t
}

/// Destination shifts (bits 24–27, signed): `_x2` … `_d8`; `usize::MAX` for the others.
static SHIFTS: [(u64, usize); 16] = build_shifts();

#[allow(clippy::indexing_slicing)]
const fn build_shifts() -> [(u64, usize); 16] {
    let mut t = [(0, usize::MAX); 16];
    t[0] = (0, 0);
    t[1] = text(b"_x2");
    t[2] = text(b"_x4");
    t[3] = text(b"_x8");
    t[15] = text(b"_d2");
    t[14] = text(b"_d4");
    t[13] = text(b"_d8");
    t
}

/// Result modifiers (bits 20–23): `_sat`, `_pp`, `_centroid` in that order.
static RESULT_MODIFIERS: [([u8; 16], usize); 16] = build_result_modifiers();

#[allow(clippy::indexing_slicing)]
const fn build_result_modifiers() -> [([u8; 16], usize); 16] {
    let mut t = [([0; 16], 0); 16];
    let mut m = 0;
    while m < 16 {
        let mut n = 0;
        let parts: [&[u8]; 3] = [b"_sat", b"_pp", b"_centroid"];
        let mut k = 0;
        while k < 3 {
            if m & (1 << k) != 0 {
                let mut i = 0;
                while i < parts[k].len() {
                    t[m].0[n] = parts[k][i];
                    n += 1;
                    i += 1;
                }
            }
            k += 1;
        }
        t[m].1 = n;
        m += 1;
    }
    t
}

/// Comparison suffixes (`D3DSHADER_COMPARISON`); length 0 for the values without a name.
static COMPARISONS: [(u64, usize); 8] =
    [(0, 0), text(b"_gt"), text(b"_eq"), text(b"_ge"), text(b"_lt"), text(b"_ne"), text(b"_le"), (0, 0)];

/// Sampler types after `dcl` (`D3DSP_TEXTURETYPE`), 0 to 4; others take the general path.
static TEXTURE_TYPES: [(u64, usize); 5] =
    [(0, 0), text(b"_1d"), text(b"_2d"), text(b"_cube"), text(b"_volume")];

/// `D3DDECLUSAGE` suffixes, `_` and the name of [`usage_name`](super::usage_name).
static USAGES: [([u8; 16], usize); 14] = build_usages();

#[allow(clippy::indexing_slicing)]
const fn build_usages() -> [([u8; 16], usize); 14] {
    let mut t = [([0; 16], 0); 14];
    let mut u = 0;
    while u < 14 {
        let name = match print::usage_name(u as u32) {
            Some(n) => n.as_bytes(),
            None => b"",
        };
        t[u].0[0] = b'_';
        let mut i = 0;
        while i < name.len() {
            t[u].0[i + 1] = name[i];
            i += 1;
        }
        t[u].1 = name.len() + 1;
        u += 1;
    }
    t
}

/// Longest mnemonic (`texm3x3vspec`) fits.
const NAME_MAX: usize = 16;

/// The mnemonic of each row of the opcode table, padded for a copy of known size.
static MNEMONICS: [([u8; NAME_MAX], usize); opcode::ROWS.len()] = build_mnemonics();

#[allow(clippy::indexing_slicing)]
const fn build_mnemonics() -> [([u8; NAME_MAX], usize); opcode::ROWS.len()] {
    let mut t = [([0; NAME_MAX], 0); opcode::ROWS.len()];
    let mut r = 0;
    while r < opcode::ROWS.len() {
        let name = opcode::ROWS[r].name.as_bytes();
        let mut i = 0;
        while i < name.len() {
            t[r].0[i] = name[i];
            i += 1;
        }
        t[r].1 = name.len();
        r += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dxbc::Dxbc;
    use crate::test_corpus::{Rng, corpus_dir, manifest};

    /// Listing options the fast path is checked under.
    const OPTIONS: [ListingOptions; 4] = [
        ListingOptions { header: false, offsets: false, raw: false },
        ListingOptions { header: false, offsets: true, raw: false },
        ListingOptions { header: false, offsets: false, raw: true },
        ListingOptions { header: false, offsets: true, raw: true },
    ];

    /// The text or error of both paths for `data` at `base`, asserted equal.
    fn same(data: &[u8], base: u64, what: &str) {
        for opts in OPTIONS {
            let mut fast = TextBuf::default();
            fast.push_str("// before\n");
            let r = write_listing_text(data, base, &opts, &mut fast);
            let fast = match r {
                Ok(()) => Ok(fast.into_string()),
                Err(e) => {
                    assert_eq!(fast.as_str(), "// before\n", "{what}: text written before an error");
                    Err(e.to_string())
                }
            };
            let general = Program::parse(data, base)
                .map(|p| format!("// before\n{}", p.listing(&opts)))
                .map_err(|e| e.to_string());
            assert!(fast == general, "{what} ({opts:?}): the fast path differs\n{fast:?}\n{general:?}");
        }
    }

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Hand-made instructions that take each branch of the fast path and of its fallbacks.
    #[test]
    fn instructions_print_as_the_general_printer_prints_them() {
        let op = |code: u32, len: u32| code | (len << 24);
        let dst = |ty: u32, n: u32, mask: u32| {
            0x8000_0000 | ((ty & 7) << 28) | ((ty & 0x18) << 8) | (mask << 16) | n
        };
        let src = |ty: u32, n: u32, swz: u32, m: u32| {
            0x8000_0000 | ((ty & 7) << 28) | ((ty & 0x18) << 8) | (swz << 16) | (m << 24) | n
        };
        let mut body = Vec::new();
        // Source modifiers, swizzles and masks of every value.
        for m in 0..16 {
            body.extend([
                op(4, 4),
                dst(0, m, m),
                src(1, m, 0xe4, m),
                src(2, 200 + m, m * 17, 0),
                src(0, 1, 0x1b, m),
            ]);
        }
        // Shifts and result modifiers of every value, on mov and on a comparison.
        for s in 0..16 {
            body.extend([op(1, 2), dst(0, 0, 0xf) | (s << 24) | (s << 20), src(0, 1, 0xe4, 0)]);
            body.extend([
                op(0x5e, 3) | (s << 16),
                dst(19, 0, 1) | (s << 20),
                src(0, 1, 0, 0),
                src(2, 3, 0x55, 0),
            ]);
        }
        // Every register type, as a destination and a source, with small and large numbers.
        for ty in 0..32 {
            for n in [0, 1, 2, 3, 12, 2047] {
                body.extend([op(1, 2), dst(ty, n, 3), src(ty, n, 0xe4, 0)]);
            }
        }
        // texld variants, dcl of samplers and of usages, def, defi, defb.
        for c in 0..4 {
            body.extend([op(0x42, 3) | (c << 16), dst(0, 0, 0xf), src(3, 0, 0xe4, 0), src(10, 0, 0xe4, 0)]);
        }
        for t in 0..8 {
            body.extend([op(0x1f, 2), 0x8000_0000 | (t << 27), dst(10, t, 0xf)]);
        }
        for u in 0..20 {
            for index in [0, 1, 15] {
                body.extend([op(0x1f, 2), 0x8000_0000 | u | (index << 16), dst(1, u, 0x3) | (1 << 21)]);
                body.extend([op(0x1f, 2), 0x8000_0000 | u, dst(17, 0, 0xf)]);
            }
        }
        body.extend([op(0x51, 5), dst(2, 7, 0xf), 0x3f80_0000, 0xbf00_0000, 0x7f80_0000, 0x0000_0001]);
        body.extend([op(0x30, 5), dst(7, 1, 0xf), 1, 0xffff_ffff, 0, 7]);
        body.extend([op(0x2f, 2), dst(14, 3, 0xf), 1]);
        // Blocks, no-operand instructions, predication, relative addressing, wrong lengths,
        // unknown opcodes.
        body.extend([op(0x28, 1), src(14, 0, 0, 0), op(1, 2), dst(0, 0, 1), src(0, 0, 0, 0), op(0x2a, 0)]);
        body.extend([op(0x2b, 0), op(0x1b, 0), op(0x1c, 0)]);
        body.extend([op(1, 3) | (1 << 28), dst(0, 0, 1), src(19, 0, 0, 0), src(0, 1, 0, 0)]);
        body.extend([op(1, 3), dst(0, 0, 1), src(2, 4, 0, 0) | RELATIVE, src(3, 0, 0, 0)]);
        body.extend([op(1, 3), dst(0, 0, 1) | RELATIVE, src(15, 0, 0, 0), src(2, 4, 0, 0)]);
        body.extend([op(1, 3), dst(0, 0, 1), src(0, 1, 0, 0), src(0, 2, 0, 0)]);
        body.extend([op(1, 1), dst(0, 0, 1)]);
        body.extend([op(0x51, 4), dst(2, 7, 0xf), 0, 0, 0]);
        body.extend([op(0x1f, 3), 0x8000_0000, dst(1, 0, 0xf), 0]);
        body.extend([op(0x3f, 2), 1, 2, op(0x31, 0)]);
        // Relative sources: address registers of every type and swizzle, source modifiers,
        // two relative sources, a missing address token, an address token with bit 13 set.
        for ty in 0..32 {
            for (swz, m) in [(0, 0), (0x55, 1), (0xe4, 11), (0x1b, 12), (0xaa, 14), (0xff, 6)] {
                body.extend([
                    op(4, 5),
                    dst(0, 1, 0xf),
                    src(2, 26, 0xe4, m) | RELATIVE,
                    src(ty, 0, swz, 0),
                    src(1, 4, 0, 0),
                    src(0, 1, 0xe4, 0),
                ]);
            }
        }
        body.extend([
            op(2, 5),
            dst(0, 0, 3),
            src(2, 3, 0x55, 0) | RELATIVE,
            src(3, 0, 0, 0),
            src(1, 5, 0xe4, 1) | RELATIVE,
            src(15, 0, 0xe4, 0),
        ]);
        body.extend([op(1, 2), dst(0, 0, 0xf), src(2, 3, 0xe4, 0) | RELATIVE]);
        body.extend([op(1, 3), dst(0, 0, 0xf), src(2, 3, 0xe4, 0) | RELATIVE, src(3, 0, 0, 0) | RELATIVE]);
        body.extend([
            op(1, 4),
            dst(0, 0, 0xf),
            src(2, 3, 0xe4, 0) | RELATIVE,
            src(3, 0, 0, 0),
            src(0, 0, 0, 0),
        ]);
        for version in
            [0xfffe_0200u32, 0xfffe_0201, 0xfffe_0300, 0xfffe_03ff, 0xffff_0200, 0xffff_0201, 0xffff_0300]
        {
            let mut words = vec![version];
            words.extend_from_slice(&body);
            for end in [Some(opcode::END_TOKEN), None] {
                let mut words = words.clone();
                words.extend(end);
                same(&bytes(&words), 0x40, &format!("version {version:08x}"));
            }
        }
    }

    /// A `DBUG` comment for instructions at `offsets` (bytes from the version token): each on
    /// its own line of `a.fx`, the first two writing the entry point's parameter `pin`.
    fn debug_comment(offsets: &[u32]) -> Vec<u32> {
        let n = offsets.len() as u32;
        let (lines_at, vars_at) = (44, 44 + 8 * n);
        let (writes_at, strings) = (vars_at + 20, vars_at + 44);
        let (file, entry, name, creator) = (strings, strings + 5, strings + 10, strings + 14);
        let mut w =
            vec![u32::from_le_bytes(*b"DBUG"), 40, creator, 0, 1, 40, n, lines_at, 1, vars_at, entry, file];
        for (k, &o) in offsets.iter().enumerate() {
            w.extend([10 + 4 * k as u32, o]);
        }
        w.extend([entry, name, 0, 2, writes_at]);
        w.extend([0, 0x0001_0000, 0xffff_ffff, 1, 0xffff_0002, 0x0003_ffff]);
        w.extend(b"a.fx\0main\0pin\0cc\0\0\0\0".chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())));
        let mut comment = vec![0xfffe | ((w.len() as u32) << 16)];
        comment.extend(w);
        comment
    }

    /// The `DBUG` block is found wherever it is: before the instructions (where fxc writes it
    /// and the listing looks for it first), after some (a second walk), or not at all when the
    /// first one is broken.
    #[test]
    fn debug_blocks_anywhere_print_as_the_general_printer_prints_them() {
        let mov = [0x0200_0001, 0x800f_0000, 0x80e4_0001];
        // `D`: the debug comment, `B`: a broken one, `C`: another comment, `I`: an instruction.
        for layout in ["DIII", "IDII", "IIID", "BIDII", "CIDII", "DIBII", "IIIBD", "CDIII"] {
            // Every item but the debug comment takes three words.
            let size = |item: char| if item == 'D' { debug_comment(&[0; 3]).len() * 4 } else { 12 };
            let mut offsets = Vec::new();
            let mut at = 4;
            for item in layout.chars() {
                if item == 'I' {
                    offsets.push(at as u32);
                }
                at += size(item);
            }
            let mut words = vec![0xfffe_0200u32];
            for item in layout.chars() {
                match item {
                    'D' => words.extend(debug_comment(&offsets)),
                    'B' => words.extend([0x0002_fffe, u32::from_le_bytes(*b"DBUG"), 7]),
                    'C' => words.extend([0x0002_fffe, u32::from_le_bytes(*b"CTAB"), 7]),
                    _ => words.extend(mov),
                }
            }
            words.push(opcode::END_TOKEN);
            let data = bytes(&words);
            same(&data, 0x40, layout);
            let mut out = TextBuf::default();
            write_listing_text(&data, 0x40, &ListingOptions::default(), &mut out).unwrap();
            let debug_lines = out.as_str().contains("#line 14") && out.as_str().contains("  // pin<0,1>");
            let broken_first = layout.find('B').is_some_and(|b| b < layout.find('D').unwrap());
            assert_eq!(debug_lines, !broken_first, "{layout}:\n{}", out.as_str());
        }
    }

    /// Which instructions the fast path prints by itself.
    #[test]
    fn common_forms_take_the_fast_path() {
        let ps20 = Version::from_token(0xffff_0200).unwrap();
        let vs30 = Version::from_token(0xfffe_0300).unwrap();
        let fast = |version: Version, words: &[u32]| {
            let token = words[0];
            let row = opcode::row(token as u16).unwrap();
            let mut out = TextBuf::default();
            let info = &opcode::TABLE[row];
            let ok =
                instruction(token, &bytes(&words[1..]), row, info, version, registers(version), &mut out);
            (ok, out.into_string())
        };
        let yes =
            |version, words: &[u32], text: &str| assert_eq!(fast(version, words), (true, text.to_string()));
        let no = |version, words: &[u32]| assert_eq!(fast(version, words), (false, String::new()));
        yes(
            ps20,
            &[0x0400_0004, 0x8013_0000, 0x8b00_0001, 0xa144_0002, 0xb0e4_0000],
            "mad_sat r0.xy, r1_abs.x, -c2.xyxy, t0",
        );
        yes(ps20, &[0x0200_001f, 0x9000_0000, 0xa00f_0800], "dcl_2d s0");
        yes(vs30, &[0x0200_001f, 0x8001_0005, 0xe00f_0002], "dcl_texcoord1 o2");
        yes(ps20, &[0x0300_0042 | 1 << 16, 0x800f_0000, 0xb0e4_0000, 0xa0e4_0800], "texldp r0, t0, s0");
        yes(vs30, &[0x0500_0051, 0xa00f_0001, 0x3f80_0000, 0, 0, 0], "def c1, 1, 0, 0, 0");
        let vs20 = Version::from_token(0xfffe_0200).unwrap();
        yes(
            vs20,
            &[0x0500_0004, 0x800f_0001, 0xa0e4_201a, 0xb055_0000, 0x9000_0004, 0x80e4_0001],
            "mad r1, c26[a0.y], v4.x, r1",
        );
        yes(vs20, &[0x0300_0001, 0x8001_0000, 0xace4_2002, 0xb000_0000], "mov r0.x, -c2[a0.x]_abs");
        // Predicated, relative destination, missing address token, wrong length, `_shift4`:
        // the general path.
        no(vs30, &[0x1300_0001, 0x800f_0000, 0xb000_1000, 0x80e4_0001]);
        no(vs30, &[0x0300_0001, 0xe00f_2000, 0xf000_0800, 0x80e4_0000]);
        no(vs30, &[0x0200_0001, 0x800f_0000, 0xa0e4_2000]);
        no(vs30, &[0x0300_0001, 0x800f_0000, 0x80e4_0001, 0x80e4_0001]);
        no(vs30, &[0x0200_0001, 0x840f_0000, 0x80e4_0001]);
    }

    /// Every corpus D3D9 program (the level-9 programs of DXBC files and standalone `.o`
    /// files), and damaged copies of each (bits flipped, cut short), print the same with and
    /// without the fast path: text, or error.
    #[test]
    fn corpus_programs_print_as_the_general_printer_prints_them() {
        let Some(root) = corpus_dir() else { return };
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut level9, mut standalone) = (0, 0);
        for row in manifest(&root, "dxbc") {
            if row.kind != "dxbc-binary" && row.kind != "d3dbc-binary" {
                continue;
            }
            let path = root.join("dxbc").join(&row.path);
            let data = std::fs::read(&path).unwrap();
            let (program, base) = if row.kind == "dxbc-binary" {
                let Some(a) = Dxbc::parse(&data).ok().and_then(|d| d.aon9) else { continue };
                level9 += 1;
                (a.program.to_vec(), a.program_position() as u64)
            } else {
                standalone += 1;
                (data.clone(), 0)
            };
            let what = path.display().to_string();
            same(&program, base, &what);
            for _ in 0..6 {
                let mut v = program.clone();
                for _ in 0..1 + rng.below(3) {
                    let at = 4 + rng.below(v.len().saturating_sub(4));
                    if let Some(b) = v.get_mut(at) {
                        *b ^= 1 << rng.below(8);
                    }
                }
                same(&v, base, &format!("{what} (damaged)"));
            }
            let cut = rng.below(program.len());
            same(&program[..cut], base, &format!("{what} (cut at {cut})"));
        }
        assert!(
            level9 > 150 && standalone > 10,
            "expected the corpus programs, found {level9} and {standalone}"
        );
    }
}
