//! The listing → the program's words: the Mali PP assembler. [`assemble`] reads the text the
//! library prints for a bare program ([`super::write_listing`] with the default options), or
//! for the code of an MBS (its `; …` header lines, like every line starting with `;`, and
//! blank lines are skipped), into [`Instruction`]s and encodes them with
//! [`Instruction::encode`].
//!
//! Each line is `@N: ` and the instruction's items joined by `, `: the units' texts (in any
//! order, one per unit), `sync`, `stop`, and the `name=value` items below. `N` is not read:
//! each instruction follows the one before, and a branch's target (printed as the absolute
//! word `target + pc`) is taken relative to where its instruction lands. Names come back
//! through the printer's tables (`opcodes.rs`); spacing inside a unit's text is free.
//!
//! # What Mesa's text does not carry
//!
//! Lima's text leaves out part of the encoding. The assembler writes for it what the
//! compilers write (lima_compiler, Mesa's ppir, the ARM compiler of libMali: every program of
//! the corpus) or what follows from the program; `canonical` is that choice for a unit's
//! field, `derived_ctrl` for the control word. Where an instruction holds something else,
//! the printer adds an item after `stop`, and only then, so that every listing of a program
//! a compiler wrote is Mesa's text:
//!
//! | not in the text | written | printed when it differs |
//! |---|---|---|
//! | `count` | the words the fields take | `count=N` |
//! | `next_count` | the next instruction's `count`, 0 after the last | `next_count=N` |
//! | `prefetch` | 1 where an instruction follows | `prefetch=0` or `prefetch=1` |
//! | `unknown` (control bits 26–31) | 0 | `unknown=N` |
//! | the length, where `count` is more than the fields take | `count` (the words after the fields are padding) | `words=N`, the fields' length, where `count` runs past the end of the program and the walk goes on after the fields |
//! | the bits of a unit's field its text omits | see below | the whole field: `varying=0x…` (the unit's name as `codegen.h` names it) |
//!
//! A unit's omitted bits are written as 0 but for: the varying load's `alignment` of a vector
//! shown without a component (3), `gl_FrontFacing`'s `perspective` (1), the sampler's
//! `unknown_2` (0x39001), the temporary write's `dest` (3). Also not in the text and taken as
//! written: a branch's `next_count` (0, as lima_compiler writes it; Mesa's ppir writes the
//! target's count), a uniform or temporary index in −3…−1 printed without a sign (`0.w` is 3,
//! not −1), a constant whose `%f` text is another half's nearest (halves below 2⁻⁹), a NaN's
//! payload (`nan` is 0x7E00), a uniform's alignment 3 (as 0), a combiner's vector
//! destination of one component (read as the scalar one). A `name=0x…` field must list as the
//! unit's text in the line (else an error), so an edit of the text cannot be undone silently
//! by it.
//!
//! Padding words (after the fields, up to `count`) are written as 0, as
//! [`Instruction::encode`] writes them: a program re-encoded from its instructions lists and
//! assembles back to its words, whatever its control words and fields (tests: every corpus
//! program, random programs, the `mali_pp_print_assemble` fuzz target).
//!
//! ```
//! use shaderscope::isa::mali_pp::asm::assemble;
//!
//! let text = "@     0: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n";
//! assert_eq!(assemble(text)?, [0x0002_1025, 0x0000_0e4c, 0x03c0_07cf, 0x03c0_03c0, 0x0000_03c0]);
//! let e = assemble("@ 0: mov.v1 $0 ^const2, stop").unwrap_err();
//! assert_eq!(e.to_string(), "line 1, column 16: expected a register ($0 to $15, ^const0, ^const1, ^texture, ^uniform)");
//! # Ok::<(), shaderscope::asm::text::LineError>(())
//! ```

use super::decode::{Branch, Ctrl, DISCARD_WORD0, Instruction, SAMPLER_UNKNOWN_2, Unit};
use super::opcodes::{
    self, BRANCH_ALWAYS, BRANCH_COND, COMBINE_MUL, OUTMOD, REG_DISCARD, SAMPLER_TYPE_CUBE,
    SAMPLER_TYPE_GENERIC, op_of, words,
};
use crate::asm::text::{Cursor, LineError, Syntax};

type R<T> = Result<T, Syntax>;

/// A branch's absolute target and its column.
type Target = Option<(i64, usize)>;

const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

/// The bits `at..at + n`.
const fn ones(at: u32, n: u32) -> u128 {
    ((1u128 << n) - 1) << at
}

fn bits(v: u128, at: u32, n: u32) -> u32 {
    ((v >> at) & ((1u128 << n) - 1)) as u32
}

fn bit(v: u128, at: u32) -> bool {
    v >> at & 1 != 0
}

/// What the printer leaves out of the control word, as the assembler writes it: `count` the
/// words the fields take, `next_count` the next instruction's `count` (0 for none), `prefetch`
/// set where an instruction follows.
pub(crate) fn derived_ctrl(ctrl: Ctrl, next: Option<Ctrl>) -> (u32, u32, bool) {
    (ctrl.words_by_fields(), next.map_or(0, Ctrl::count), next.is_some())
}

/// The instruction's length the assembler takes from its `count` and the words its fields
/// take: the count where the fields fit in it (words after them are padding).
pub(crate) fn length(count: u32, by_fields: u32) -> u32 {
    count.max(by_fields)
}

/// The field `unit`'s text reads back as: the bits of `v` its text shows, and the others as
/// the assembler writes them (see the [module documentation](self)). The printer adds the
/// whole field where this is not `v`.
pub(crate) fn canonical(unit: Unit, v: u128) -> u128 {
    let v = v & ones(0, unit.bits());
    match unit {
        Unit::Varying => canonical_varying(v),
        Unit::Sampler => {
            let mut keep = ones(18, 1) | ones(24, 18);
            if bit(v, 29) {
                keep |= ones(6, 6);
            }
            if bit(v, 18) {
                keep |= ones(0, 6);
            }
            (v & keep) | u128::from(SAMPLER_UNKNOWN_2) << 42
        }
        Unit::Uniform => {
            let mut keep = ones(0, 2) | ones(24, 1);
            if bit(v, 24) {
                keep |= ones(18, 6);
            }
            let alignment = match bits(v, 10, 2) {
                3 => 0,
                a => a,
            };
            let index = canonical_index(bits(v, 25, 16) as u16 as i16, alignment);
            (v & keep) | u128::from(alignment) << 10 | u128::from(index as u16) << 25
        }
        Unit::Vec4Mul | Unit::Vec4Acc => {
            let mut out = v;
            if bits(v, 32, 4) == 0 {
                out &= !ones(28, 4);
            }
            if srcs(unit, bits(v, 38, 5)) < 2 {
                out &= !ones(14, 14);
            }
            if unit == Unit::Vec4Acc && bit(v, 43) {
                out &= !ones(0, 4);
            }
            out
        }
        Unit::FloatMul | Unit::FloatAcc => {
            let mut out = v;
            if !bit(v, 22) {
                out &= !ones(16, 6);
            }
            if srcs(unit, bits(v, 25, 5)) < 2 {
                out &= !ones(8, 8);
            }
            if unit == Unit::FloatAcc && bit(v, 30) {
                out &= !ones(0, 6);
            }
            out
        }
        Unit::Combine => {
            if bit(v, 0) && bit(v, 1) {
                return v;
            }
            let mut out = v & !ones(6, 8);
            let mask = bits(v, 22, 4);
            if bit(v, 0) && mask.count_ones() == 1 {
                // `$N.c`: the scalar destination N × 4 + c.
                let dest = bits(v, 26, 4) * 4 + mask.trailing_zeros();
                out = (out & !(ones(22, 8) | 1)) | u128::from(dest) << 24;
            }
            out
        }
        Unit::TempWrite => {
            if bits(v, 1, 5) == 7 {
                return v & ones(0, 10);
            }
            let alignment = bits(v, 10, 2);
            let mut keep = ones(4, 8) | ones(24, 1);
            if bit(v, 24) {
                keep |= ones(18, 6);
            }
            if alignment != 0 {
                keep &= !ones(4, 2);
            }
            let shown = if alignment == 3 { 0 } else { alignment };
            let index = canonical_index(bits(v, 25, 16) as u16 as i16, shown);
            (v & keep) | 3 | u128::from(index as u16) << 25
        }
        Unit::Branch => {
            if Branch::decode(v).discard {
                return v;
            }
            let mut keep = ones(16, 3) | ones(41, 27);
            if bits(v, 16, 3) != BRANCH_ALWAYS {
                keep |= ones(4, 12);
            }
            v & keep
        }
        Unit::Vec4Const0 | Unit::Vec4Const1 => {
            (0..4).fold(0, |acc, i| acc | u128::from(canonical_half(bits(v, 16 * i, 16) as u16)) << (16 * i))
        }
    }
}

fn canonical_varying(v: u128) -> u128 {
    let (perspective, source_type) = (bits(v, 0, 2), bits(v, 2, 2));
    let dest = ones(0, 4) | ones(24, 8);
    match (source_type, perspective) {
        (3, 0) | (2, 3) => v & dest,
        (3, _) => (v & (ones(2, 2) | ones(24, 8))) | 1,
        (0, _) | (2, 0) => {
            let mut keep = dest | ones(5, 2) | ones(10, 4) | ones(18, 6);
            if bits(v, 10, 4) != 15 {
                keep |= ones(16, 2);
            }
            let out = v & keep;
            if bit(v, 6) { out | 1 << 5 } else { out }
        }
        _ => v & (dest | ones(10, 14)),
    }
}

/// The index an aligned index's text reads back as: `%d` of `index / 4` (or `/ 2`) drops the
/// sign of −3…−1 (−1 for pairs), read as 1…3.
fn canonical_index(index: i16, alignment: u32) -> i16 {
    match alignment {
        0 if (-3..0).contains(&index) => index + 4,
        1 if index == -1 => 1,
        _ => index,
    }
}

/// A half as its `%f` text reads back: itself but for halves below 2⁻⁹ (their text can be
/// another's nearest) and NaNs (`nan` is 0x7E00).
fn canonical_half(h: u16) -> u16 {
    if h & 0x7c00 == 0x7c00 {
        return if h & 0x3ff != 0 { (h & 0x8000) | 0x7e00 } else { h };
    }
    if h & 0x7c00 >= 6 << 10 {
        return h;
    }
    let mut text = String::new();
    super::print::half_fixed(&mut text, h);
    half_from_text(&text).unwrap_or(h)
}

/// The nearest half to a decimal text (`inf`, `nan` and `-` too); `None` when it is no number
/// or beyond the largest half.
fn half_from_text(text: &str) -> Option<u16> {
    let (sign, body) = match text.strip_prefix('-') {
        Some(b) => (0x8000u16, b),
        None => (0, text),
    };
    let magnitude = match body {
        "inf" => 0x7c00,
        "nan" => 0x7e00,
        _ if body.starts_with(|c: char| c.is_ascii_digit()) => half_from_f64(body.parse().ok()?)?,
        _ => return None,
    };
    Some(sign | magnitude)
}

/// The nearest half (ties to even) to `a` ≥ 0; `None` past the largest.
fn half_from_f64(a: f64) -> Option<u16> {
    if !a.is_finite() {
        return None;
    }
    if a < 2f64.powi(-14) {
        return Some((a * 2f64.powi(24)).round_ties_even() as u16);
    }
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let m = (a * 2f64.powi(10 - e)).round_ties_even() as u32;
    let (e, m) = if m >= 2048 { (e + 1, 1024) } else { (e, m) };
    if e > 15 {
        return None;
    }
    Some((((e + 15) as u32) << 10 | (m - 1024)) as u16)
}

/// The sources an ALU unit's opcode shows (0 for one without a row).
fn srcs(unit: Unit, op: u32) -> u8 {
    op_of(unit, op).map_or(0, |o| o.srcs)
}

/// One instruction as read from its line, before its place in the program is known.
#[derive(Default)]
struct Parsed {
    line: usize,
    fields: [u128; 12],
    present: u16,
    stop: bool,
    sync: bool,
    count: Option<u32>,
    next_count: Option<u32>,
    prefetch: Option<bool>,
    unknown: Option<u32>,
    /// `words=N`: the fields' length where `count` is more but runs past the end (the walk
    /// then goes on after the fields), and the column of N.
    words_at: Option<(u32, usize)>,
    /// `name=0x…` fields, with their columns.
    raw: [Option<(u128, usize)>; 12],
    target: Target,
}

impl Parsed {
    fn by_fields(&self) -> u32 {
        Ctrl((self.present as u32) << 7).words_by_fields()
    }
}

/// The words of the program whose listing is `text` (see the [module documentation](self)).
pub fn assemble(text: &str) -> Result<Vec<u32>, LineError> {
    let mut list = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with(';') {
            continue;
        }
        let mut p = parse_line(line).map_err(|e| e.at_line(i + 1))?;
        if let Some((_, col)) = p.words_at.filter(|(n, _)| *n != p.by_fields()) {
            return Err(LineError::new(i + 1, col, format!("the words the fields take ({})", p.by_fields())));
        }
        p.line = i + 1;
        list.push(p);
    }
    let mut out = Vec::new();
    let mut pc = 0u32;
    for (i, p) in list.iter().enumerate() {
        let next = list.get(i + 1);
        let count = p.count.unwrap_or(p.by_fields());
        let next_count = p.next_count.unwrap_or(next.map_or(0, |n| n.count.unwrap_or(n.by_fields())));
        let prefetch = p.prefetch.unwrap_or(next.is_some());
        let ctrl = count
            | u32::from(p.stop) << 5
            | u32::from(p.sync) << 6
            | u32::from(p.present) << 7
            | next_count << 19
            | u32::from(prefetch) << 25
            | p.unknown.unwrap_or(0) << 26;
        let mut fields = p.fields;
        if let (Some((abs, col)), Some(f)) = (p.target, fields.get_mut(Unit::Branch as usize)) {
            let t = i32::try_from(abs).ok().map(|a| a.wrapping_sub(pc as i32));
            let Some(t) = t.filter(|t| (-(1 << 26)..1 << 26).contains(t)) else {
                return Err(LineError::new(
                    p.line,
                    col,
                    format!("a target within 2^26 words of this instruction (word {pc})"),
                ));
            };
            *f |= u128::from(t as u32 & ((1 << 27) - 1)) << 41;
        }
        for (u, (f, raw)) in Unit::ALL.into_iter().zip(fields.iter_mut().zip(p.raw)) {
            if let Some((r, col)) = raw {
                if canonical(u, r) != *f {
                    return Err(LineError::new(
                        p.line,
                        col,
                        format!("{} bits that list as this line's {} text", u.name(), u.name()),
                    ));
                }
                *f = r;
            }
        }
        let len = p.words_at.map_or(length(count, p.by_fields()), |(n, _)| n);
        let inst = Instruction {
            pc,
            ctrl: Ctrl(ctrl),
            words: len,
            words_read: len,
            fields,
            read: p.present,
            ..Instruction::default()
        };
        out.extend(inst.encode());
        pc = pc.wrapping_add(len);
    }
    Ok(out)
}

/// One line: `@N:` and the items.
fn parse_line(line: &str) -> R<Parsed> {
    let mut c = Cursor::new(line);
    c.skip_space();
    c.expect("@")?;
    c.skip_space();
    c.number()?;
    c.expect(":")?;
    let mut p = Parsed::default();
    c.skip_space();
    if !c.at_end() && !c.rest().starts_with(',') {
        item(&mut c, &mut p)?;
    }
    loop {
        c.skip_space();
        if c.at_end() {
            break;
        }
        c.expect(",")?;
        c.skip_space();
        item(&mut c, &mut p)?;
    }
    for (u, raw) in Unit::ALL.into_iter().zip(p.raw) {
        if let Some((_, col)) = raw
            && p.present >> (u as u32) & 1 == 0
        {
            return c.fail_at(col, format!("a unit of this instruction (it has no {} field)", u.name()));
        }
    }
    Ok(p)
}

/// The token up to a space, `,` or `=`.
fn token<'a>(c: &mut Cursor<'a>) -> &'a str {
    c.take_while(|ch| !ch.is_whitespace() && ch != ',' && ch != '=')
}

/// One item: a unit's text, `sync`, `stop` or `name=value`.
fn item(c: &mut Cursor, p: &mut Parsed) -> R<()> {
    let start = c.at;
    let word = token(c);
    if c.eat("=") {
        return extra(c, p, word, start);
    }
    let flag = match word {
        words::SYNC => &mut p.sync,
        words::STOP => &mut p.stop,
        _ => {
            c.at = start;
            let (unit, v, target) = unit(c)?;
            let n = unit as usize;
            if target.is_some() {
                p.target = target;
            }
            if p.present >> n & 1 != 0 {
                return c.fail_at(
                    start,
                    format!("a unit not already in this instruction (a second {})", unit.name()),
                );
            }
            p.present |= 1 << n;
            if let Some(f) = p.fields.get_mut(n) {
                *f = canonical(unit, v);
            }
            return Ok(());
        }
    };
    if *flag {
        return c.fail_at(start, format!("`{word}` once"));
    }
    *flag = true;
    Ok(())
}

/// `name=value`: a control field or a unit's whole field.
fn extra(c: &mut Cursor, p: &mut Parsed, name: &str, start: usize) -> R<()> {
    let value_at = c.at;
    let (slot, limit) = match name {
        words::COUNT => (&mut p.count, 31),
        words::NEXT_COUNT => (&mut p.next_count, 63),
        words::UNKNOWN => (&mut p.unknown, 63),
        words::WORDS => {
            let v = c.number()?;
            if v > 31 || p.words_at.is_some() {
                return c.fail_at(
                    if v > 31 { value_at } else { start },
                    if v > 31 { "a number up to 31" } else { "`words` once" },
                );
            }
            p.words_at = Some((v as u32, value_at));
            return Ok(());
        }
        words::PREFETCH => {
            let v = c.number()?;
            if v > 1 || p.prefetch.is_some() {
                return c.fail_at(
                    if v > 1 { value_at } else { start },
                    if v > 1 { "0 or 1" } else { "`prefetch` once" },
                );
            }
            p.prefetch = Some(v == 1);
            return Ok(());
        }
        _ => {
            let Some(unit) = Unit::ALL.into_iter().find(|u| u.name() == name) else {
                return c.fail_at(
                    start,
                    "`count`, `next_count`, `prefetch`, `unknown` or a unit's name (`varying`, `vec4_mul`, …) before `=`",
                );
            };
            let digits = if c.eat("0x") { c.take_while(|ch| ch.is_ascii_hexdigit()) } else { "" };
            let v = u128::from_str_radix(digits, 16).ok().filter(|v| *v >> unit.bits() == 0);
            let Some(v) = v else {
                return c.fail_at(value_at, format!("the {}-bit field in hexadecimal (0x…)", unit.bits()));
            };
            let raw = p.raw.get_mut(unit as usize).filter(|r| r.is_none());
            let Some(raw) = raw else {
                return c.fail_at(start, format!("`{name}=` once"));
            };
            *raw = Some((v, start));
            return Ok(());
        }
    };
    let v = c.number()?;
    if v > limit {
        return c.fail_at(value_at, format!("a number up to {limit}"));
    }
    if slot.is_some() {
        return c.fail_at(start, format!("`{name}` once"));
    }
    *slot = Some(v as u32);
    Ok(())
}

/// A unit's text: which unit, its field (bits the text omits as 0), and a branch's absolute
/// target with its column.
fn unit(c: &mut Cursor) -> R<(Unit, u128, Target)> {
    let (u, v) = match unit_field(c)? {
        Ok(uv) => uv,
        Err(v) => {
            let at = c.at;
            let target = bounded_signed(c, 1 << 31, "a target word (a signed number)")?;
            return Ok((Unit::Branch, v, Some((target, at))));
        }
    };
    Ok((u, v, None))
}

/// A number with an optional `-`, at most `limit` in magnitude.
fn bounded_signed(c: &mut Cursor, limit: u64, what: &str) -> R<i64> {
    let at = c.at;
    let neg = c.eat("-");
    match c.number() {
        Ok(n) if n <= limit => Ok(if neg { -(n as i64) } else { n as i64 }),
        _ => c.fail_at(at, what),
    }
}

/// A unit's text but a branch's target: `Ok` the unit and its field, `Err` a branch's field
/// before its target.
fn unit_field(c: &mut Cursor) -> R<Result<(Unit, u128), u128>> {
    let start = c.at;
    let mn = c.take_while(|ch| !ch.is_whitespace() && ch != ',');
    let after = |c: &mut Cursor| c.skip_space();
    if let Some(rest) = mn.strip_prefix(words::LOAD) {
        after(c);
        if let Some(middle) = rest.strip_suffix(opcodes::suffix(Unit::Varying))
            && let Some(p) = words::PERSPECTIVE.iter().position(|w| *w == middle)
        {
            return Ok(Ok((Unit::Varying, varying(c, p as u32)?)));
        }
        if let Some(name) = rest.strip_prefix('.') {
            let source = (0..4u32).find(|s| match opcodes::uniform_source(*s) {
                Some(n) => n == name,
                None => name.strip_prefix(".u") == Some(&s.to_string()),
            });
            if let Some(source) = source {
                return Ok(Ok((Unit::Uniform, uniform(c, source)?)));
            }
        }
        return c.fail_at(start, "`load.v`, `load.u`, `load.t` or `load.perspective.z.v`, …");
    }
    if let Some(rest) = mn.strip_prefix(words::TEXLD) {
        let at = c.at;
        c.at = start + words::TEXLD.len();
        let v = sampler_mnemonic(c, rest)?;
        c.at = at;
        after(c);
        return Ok(Ok((Unit::Sampler, sampler(c, v)?)));
    }
    match mn {
        words::STORE_TEMP => {
            after(c);
            return Ok(Ok((Unit::TempWrite, temp_write(c)?)));
        }
        words::FB_COLOR | words::FB_DEPTH => {
            after(c);
            let dest = plain_reg(c, "a register ($0 to $15)")?;
            return Ok(Ok((
                Unit::TempWrite,
                u128::from(mn == words::FB_COLOR) | 7 << 1 | u128::from(dest) << 6,
            )));
        }
        words::DISCARD => return Ok(Ok((Unit::Branch, u128::from(DISCARD_WORD0)))),
        _ => {}
    }
    if let Some(rest) = mn.strip_prefix(words::BRANCH) {
        let cond = match rest.strip_prefix('.') {
            None if rest.is_empty() => BRANCH_ALWAYS,
            Some(name) if !name.is_empty() => match BRANCH_COND.iter().position(|n| *n == name) {
                Some(i) => i as u32,
                None => {
                    return c.fail_at(
                        start + words::BRANCH.len() + 1,
                        "a condition (`lt`, `eq`, `le`, `gt`, `ne`, `ge`, `nv`)",
                    );
                }
            },
            _ => return c.fail_at(start + words::BRANCH.len(), "`.` and a condition, or a space"),
        };
        after(c);
        return Ok(Err(branch(c, cond)?));
    }
    if let Some(which) = words::CONST.iter().position(|w| *w == mn) {
        let unit = if which == 0 { Unit::Vec4Const0 } else { Unit::Vec4Const1 };
        let mut v = 0u128;
        for i in 0..4 {
            c.skip_space();
            let at = c.at;
            let h = half_from_text(c.number_text());
            let Some(h) = h else {
                return c.fail_at(at, "a 16-bit float (`1.500000`, `inf`, `nan`)");
            };
            v |= u128::from(h) << (16 * i);
        }
        return Ok(Ok((unit, v)));
    }
    // An ALU unit: `name[.outmod].suffix`.
    let alu = [Unit::Vec4Mul, Unit::FloatMul, Unit::Vec4Acc, Unit::FloatAcc, Unit::Combine];
    if let Some((unit, name)) =
        alu.into_iter().find_map(|u| mn.strip_suffix(opcodes::suffix(u)).map(|n| (u, n)))
    {
        let (name, outmod) = match (1..4).find_map(|i| {
            OUTMOD.get(i).copied().flatten().and_then(|m| name.strip_suffix(m)).map(|n| (n, i as u32))
        }) {
            Some((n, m)) => (n, m),
            None => (name, 0),
        };
        let op = opcode(unit, name)
            .ok_or(Syntax { column: start, expected: format!("an operation of the {} unit", unit.name()) })?;
        after(c);
        let v = match unit {
            Unit::Vec4Mul | Unit::Vec4Acc => vec4(c, unit, op, outmod)?,
            Unit::FloatMul | Unit::FloatAcc => float(c, unit, op, outmod)?,
            _ => combine(c, op, outmod, start + name.len())?,
        };
        return Ok(Ok((unit, v)));
    }
    c.fail_at(start, "a unit's text (`load.v`, `texld`, `mov.v0`, …), `sync`, `stop` or `name=value`")
}

/// The opcode named `name` in `unit`'s table (a multiplier's `mul` is 0: its scale follows the
/// first source), `opN`, or the combiner's `mul` (16).
fn opcode(unit: Unit, name: &str) -> Option<u32> {
    let table = opcodes::table(unit)?;
    if let Some(i) = table.iter().position(|o| o.is_some_and(|o| o.name == name)) {
        return Some(i as u32);
    }
    if unit == Unit::Combine && name == COMBINE_MUL.name {
        return Some(16);
    }
    let n: u32 = name.strip_prefix("op").filter(|d| d.bytes().all(|b| b.is_ascii_digit()))?.parse().ok()?;
    (n < table.len() as u32).then_some(n)
}

/// How many space-separated operands are left before `,` or the end of the line.
fn operands(c: &Cursor) -> usize {
    let rest = c.rest();
    rest.get(..rest.find(',').unwrap_or(rest.len())).unwrap_or("").split_whitespace().count()
}

/// After an operand: a space, `,` or the end of the line; then the spaces.
fn next_operand(c: &mut Cursor) -> R<()> {
    if !c.at_end() && !c.rest().starts_with([' ', '\t', ',']) {
        return c.fail("a space, `,` or the end of the line");
    }
    c.skip_space();
    Ok(())
}

const REGISTER: &str = "a register ($0 to $15, ^const0, ^const1, ^texture, ^uniform)";

/// `$N` (0–15) or a pipeline register's name.
fn reg(c: &mut Cursor) -> R<u32> {
    let at = c.at;
    if c.eat("$") {
        let n = c.number();
        return match n {
            Ok(n) if n < 16 => Ok(n as u32),
            _ => c.fail_at(at, REGISTER),
        };
    }
    for r in 12..16 {
        if let Some(name) = opcodes::pipeline_register(r)
            && c.eat(name)
        {
            return Ok(r);
        }
    }
    c.fail(REGISTER)
}

/// `$N` alone (a destination: no pipeline names).
fn plain_reg(c: &mut Cursor, what: &str) -> R<u32> {
    let at = c.at;
    if c.eat("$")
        && let Ok(n) = c.number()
        && n < 16
    {
        return Ok(n as u32);
    }
    c.fail_at(at, what)
}

/// `.c`: a component.
fn component(c: &mut Cursor) -> R<u32> {
    if c.eat(".") {
        for (i, ch) in XYZW.iter().enumerate() {
            if c.eat(&ch.to_string()) {
                return Ok(i as u32);
            }
        }
    }
    c.fail("a component (`.x`, `.y`, `.z` or `.w`)")
}

/// `.mask` after a destination (none is all four; `.` alone none).
fn write_mask(c: &mut Cursor, empty: bool) -> R<u32> {
    if !c.eat(".") {
        return Ok(0xf);
    }
    let at = c.at;
    let mut m = 0u32;
    let mut next = 0;
    while let Some(i) = XYZW.iter().position(|ch| c.rest().starts_with(*ch)) {
        if i < next {
            break;
        }
        m |= 1 << i;
        next = i + 1;
        c.at += 1;
    }
    if m == 0 && !empty {
        return c.fail_at(at, "a write mask (`x`, `y`, `z`, `w` in order)");
    }
    Ok(m)
}

/// A source's `-` and `abs(…)` around `inner`: (inner's value, absolute, negate).
fn modified<T>(c: &mut Cursor, mods: bool, inner: impl FnOnce(&mut Cursor) -> R<T>) -> R<(T, bool, bool)> {
    let neg = mods && c.eat("-");
    let abs = mods
        && c.rest().starts_with(words::ABS)
        && c.rest().get(words::ABS.len()..).is_some_and(|r| r.starts_with('('));
    if abs {
        c.at += words::ABS.len() + 1;
    }
    let v = inner(c)?;
    if abs {
        c.expect(")")?;
    }
    Ok((v, abs, neg))
}

/// A scalar source `reg.c` (register × 4 + component), or `special` (`^s0`, as 0).
fn scalar_inner(c: &mut Cursor, special: Option<&str>) -> R<(u32, bool)> {
    if let Some(s) = special
        && c.eat(s)
    {
        return Ok((0, true));
    }
    let r = reg(c)?;
    Ok((r * 4 + component(c)?, false))
}

/// A scalar source with its modifiers: bits `src | abs << 6 | neg << 7`, and whether it is the
/// multiplier's result.
fn scalar_source(c: &mut Cursor, special: Option<&str>) -> R<(u32, bool)> {
    let ((s, sp), abs, neg) = modified(c, true, |c| scalar_inner(c, special))?;
    Ok((s | u32::from(abs) << 6 | u32::from(neg) << 7, sp))
}

/// A scalar source without modifiers (offsets, branch arguments).
fn plain_scalar(c: &mut Cursor) -> R<u32> {
    Ok(scalar_inner(c, None)?.0)
}

/// A vector source: bits `src | swizzle << 4 | abs << 12 | neg << 13`, and whether it is
/// `special` (`^v0`).
fn vector_source(c: &mut Cursor, special: Option<&str>, mods: bool) -> R<(u32, bool)> {
    let ((r, sw, sp), abs, neg) = modified(c, mods, |c| {
        let (r, sp) = match special {
            Some(s) if c.eat(s) => (0, true),
            _ => (reg(c)?, false),
        };
        Ok((r, swizzle(c)?, sp))
    })?;
    Ok((r | sw << 4 | u32::from(abs) << 12 | u32::from(neg) << 13, sp))
}

/// `.xyzw` (four components), or none: 0xE4.
fn swizzle(c: &mut Cursor) -> R<u32> {
    if !c.rest().starts_with('.') {
        return Ok(0xe4);
    }
    let at = c.at;
    c.at += 1;
    let mut s = 0;
    for i in 0..4 {
        let Some(k) = XYZW.iter().position(|ch| c.rest().starts_with(*ch)) else {
            return c.fail_at(at, "a swizzle of four components (`.xxyz`)");
        };
        s |= (k as u32) << (2 * i);
        c.at += 1;
    }
    Ok(s)
}

/// `+reg.c` after an index: the offset register, if any.
fn offset(c: &mut Cursor) -> R<Option<u32>> {
    if c.eat("+") { Ok(Some(plain_scalar(c)?)) } else { Ok(None) }
}

/// An index as `aligned_index` prints it: `N` (alignment 2), `N.xy`/`N.zw` (1), `N.c` (0),
/// `N` signed; the 16-bit index and the alignment.
fn aligned_index(c: &mut Cursor) -> R<(u16, u32)> {
    let at = c.at;
    let q = bounded_signed(c, 1 << 16, "an index (a signed number)")?;
    let (i, alignment) = if c.eat(".xy") || c.eat(".zw") {
        let r = i64::from(c.text.as_bytes().get(c.at - 1) == Some(&b'w'));
        (if q < 0 { 2 * q - r } else { 2 * q + r }, 1)
    } else if c.rest().starts_with('.') {
        let r = i64::from(component(c)?);
        (if q < 0 && r != 0 { 4 * q + r - 4 } else { 4 * q + r }, 0)
    } else {
        (q, 2)
    };
    match i16::try_from(i) {
        Ok(i) => Ok((i as u16, alignment)),
        Err(_) => c.fail_at(at, "an index that fits 16 bits (−32768 to 32767)"),
    }
}

/// The varying load after its mnemonic (`perspective` from it).
fn varying(c: &mut Cursor, perspective: u32) -> R<u128> {
    let dest = if c.eat(words::DISCARD_DEST) {
        REG_DISCARD
    } else {
        plain_reg(c, "a register ($0 to $14) or ^discard")?
    };
    let mask = write_mask(c, true)?;
    next_operand(c)?;
    let mut v = u128::from(dest) << 24 | u128::from(mask) << 28;
    let at = c.at;
    let source_type: u32;
    let mut p = perspective;
    let imm = |c: &mut Cursor| -> R<u128> {
        let at = c.at;
        let n = c.number()?.min(1 << 8);
        let (index, alignment) = if c.eat(".xy") || c.eat(".zw") {
            (n * 2 + u64::from(c.text.as_bytes().get(c.at - 1) == Some(&b'w')), 1)
        } else if c.rest().starts_with('.') {
            (n * 4 + u64::from(component(c)?), 0)
        } else {
            (n, 3)
        };
        if index > 63 {
            return c.fail_at(at, "a varying index below 64");
        }
        let off_at = c.at;
        let (ov, os) = match offset(c)? {
            Some(s) if s >> 2 == 15 => {
                return c.fail_at(off_at + 1, "an offset register other than ^uniform");
            }
            Some(s) => (s >> 2, s & 3),
            None => (15, 0),
        };
        Ok(u128::from(alignment as u32) << 5
            | u128::from(ov) << 10
            | u128::from(os) << 16
            | u128::from(index as u32) << 18)
    };
    let reg_source = |c: &mut Cursor| -> R<u128> {
        let (s, _) = vector_source(c, None, true)?;
        // src 0–3, swizzle 4–11, abs 12, neg 13 → source 10–13, swizzle 16–23, abs 15, neg 14.
        Ok(u128::from(s & 15) << 10
            | u128::from(s >> 4 & 0xff) << 16
            | u128::from(s >> 12 & 1) << 15
            | u128::from(s >> 13 & 1) << 14)
    };
    let special = [words::CUBE, words::NORMALIZE, words::FRAG_COORD, words::FRONT_FACING, words::POINT_COORD];
    let named = special.into_iter().find(|w| {
        c.rest().starts_with(w)
            && !c.rest().get(w.len()..).is_some_and(|r| r.starts_with(|ch: char| ch.is_ascii_alphanumeric()))
    });
    if named.is_some() && perspective != 0 {
        return c.fail("a varying index or a register (a `.perspective` load reads no other source)");
    }
    match named {
        Some(w) if w == words::CUBE || w == words::NORMALIZE => {
            c.at += w.len();
            c.expect("(")?;
            source_type = 2;
            if w == words::NORMALIZE {
                p = 2;
                v |= reg_source(c)?;
            } else if c.rest().starts_with(|ch: char| ch.is_ascii_digit()) {
                p = 0;
                v |= imm(c)?;
            } else {
                p = 1;
                v |= reg_source(c)?;
            }
            c.expect(")")?;
        }
        Some(w) => {
            c.at += w.len();
            (source_type, p) = match w {
                words::FRAG_COORD => (2, 3),
                words::FRONT_FACING => (3, 1),
                _ => (3, 0),
            };
        }
        None if c.rest().starts_with(|ch: char| ch.is_ascii_digit()) => {
            source_type = 0;
            v |= imm(c)?;
        }
        None => {
            source_type = 1;
            if c.at_end() || c.rest().starts_with(',') {
                return c
                    .fail_at(at, "a varying index, a register or a source (`cube(…)`, `gl_FragCoord`, …)");
            }
            v |= reg_source(c)?;
        }
    }
    Ok(v | u128::from(p) | u128::from(source_type) << 2)
}

/// The sampler's mnemonic after `texld`: `.b`, then `.cube` or `_tN`.
fn sampler_mnemonic(c: &mut Cursor, rest: &str) -> R<u128> {
    let mut v = 0u128;
    let mut rest = rest;
    if let Some(r) = rest.strip_prefix(words::LOD_BIAS) {
        v |= 1 << 18;
        rest = r;
        c.at += words::LOD_BIAS.len();
    }
    let t = if rest.is_empty() {
        SAMPLER_TYPE_GENERIC
    } else if rest == words::TYPE_CUBE {
        SAMPLER_TYPE_CUBE
    } else {
        match rest.strip_prefix(words::TYPE_N).and_then(|n| n.parse::<u32>().ok()) {
            Some(n) if n != SAMPLER_TYPE_GENERIC && n < SAMPLER_TYPE_CUBE => n,
            _ => return c.fail("`.b`, `.cube` or a sampler type `_t1` to `_t30`, or a space"),
        }
    };
    Ok(v | u128::from(t) << 24)
}

/// The sampler's operands: the index, its offset, the bias.
fn sampler(c: &mut Cursor, mut v: u128) -> R<u128> {
    let at = c.at;
    let index = c.number()?;
    if index > 0xfff {
        return c.fail_at(at, "a sampler index below 4096");
    }
    v |= u128::from(index as u32) << 30;
    if let Some(s) = offset(c)? {
        v |= 1 << 29 | u128::from(s) << 6;
    }
    if bit(v, 18) {
        next_operand(c)?;
        v |= u128::from(plain_scalar(c)?);
    }
    Ok(v)
}

/// The uniform load's operands.
fn uniform(c: &mut Cursor, source: u32) -> R<u128> {
    let (index, alignment) = aligned_index(c)?;
    let mut v = u128::from(source) | u128::from(alignment) << 10 | u128::from(index) << 25;
    if let Some(s) = offset(c)? {
        v |= 1 << 24 | u128::from(s) << 18;
    }
    Ok(v)
}

/// `store.t`'s operands: the index (and offset), the source (a vector register where the
/// alignment is not a scalar's; `$N` after `N.c` is alignment 3).
fn temp_write(c: &mut Cursor) -> R<u128> {
    let (index, mut alignment) = aligned_index(c)?;
    let mut v = u128::from(index) << 25;
    if let Some(s) = offset(c)? {
        v |= 1 << 24 | u128::from(s) << 18;
    }
    next_operand(c)?;
    let r = reg(c)?;
    if c.rest().starts_with('.') {
        if alignment != 0 {
            return c.fail("a space, `,` or the end of the line (a vector store's source has no component)");
        }
        v |= u128::from(r * 4 + component(c)?) << 4;
    } else {
        if alignment == 0 {
            alignment = 3;
        }
        v |= u128::from(r * 4) << 4;
    }
    Ok(v | u128::from(alignment) << 10 | 3)
}

/// A multiplier's `<<N` after its first source: the scaled `mul`'s opcode.
fn scale(c: &mut Cursor, unit: Unit, op: u32) -> R<u32> {
    let at = c.at;
    if !c.eat("<<") {
        return Ok(op);
    }
    let n = c.number().ok().and_then(|n| u32::try_from(n).ok());
    let name = op_of(unit, op).map(|o| o.name);
    match n.and_then(|n| op_of(unit, n).map(|o| (n, o))) {
        Some((n, o)) if o.shift && Some(o.name) == name => Ok(n),
        _ => c.fail_at(at, "a scale `<<1` to `<<7` after a `mul`'s first source, or a space"),
    }
}

/// A vector multiplier's or adder's operands.
fn vec4(c: &mut Cursor, unit: Unit, mut op: u32, outmod: u32) -> R<u128> {
    let acc = unit == Unit::Vec4Acc;
    let shown = if srcs(unit, op) > 1 { 2 } else { 1 };
    let mut v = u128::from(outmod) << 36;
    if operands(c) > shown {
        let dest = plain_reg(c, "a register ($0 to $15)")?;
        let mask = write_mask(c, false)?;
        v |= u128::from(dest) << 28 | u128::from(mask) << 32;
        next_operand(c)?;
    }
    let special = acc.then(|| opcodes::mul_result(unit));
    let (a0, mul_in) = vector_source(c, special, true)?;
    v |= u128::from(a0) | u128::from(mul_in) << 43;
    if !acc {
        op = scale(c, unit, op)?;
    }
    if shown == 2 {
        next_operand(c)?;
        v |= u128::from(vector_source(c, None, true)?.0) << 14;
    }
    Ok(v | u128::from(op) << 38)
}

/// A scalar multiplier's or adder's operands.
fn float(c: &mut Cursor, unit: Unit, mut op: u32, outmod: u32) -> R<u128> {
    let acc = unit == Unit::FloatAcc;
    let shown = if srcs(unit, op) > 1 { 2 } else { 1 };
    let mut v = u128::from(outmod) << 23;
    if operands(c) > shown {
        let dest = plain_reg(c, "a register ($0 to $15)")? * 4 + component(c)?;
        v |= u128::from(dest) << 16 | 1 << 22;
        next_operand(c)?;
    }
    let special = acc.then(|| opcodes::mul_result(unit));
    let (a0, mul_in) = scalar_source(c, special)?;
    v |= u128::from(a0) | u128::from(mul_in) << 30;
    if !acc {
        op = scale(c, unit, op)?;
    }
    if shown == 2 {
        next_operand(c)?;
        v |= u128::from(scalar_source(c, None)?.0) << 8;
    }
    Ok(v | u128::from(op) << 25)
}

/// The combiner's operands (`op` 16 is its scalar × vector `mul`); `outmod_at` is where an
/// output modifier would be in the mnemonic.
fn combine(c: &mut Cursor, op: u32, outmod: u32, outmod_at: usize) -> R<u128> {
    let dest = plain_reg(c, "a register ($0 to $15)")?;
    let rest = c.rest();
    let single = rest.starts_with('.')
        && rest.chars().nth(1).is_some_and(|ch| XYZW.contains(&ch))
        && rest.get(2..).is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', ',']));
    if op == 16 || !single {
        // A vector destination: `mul`, or a scalar function written to a vector.
        if outmod != 0 {
            return c.fail_at(outmod_at, "`.s2` (a vector destination takes no output modifier)");
        }
        let mask = write_mask(c, true)?;
        next_operand(c)?;
        let a0 = combine_source(scalar_source(c, None)?.0);
        let mut v = 1 | u128::from(mask) << 22 | u128::from(dest) << 26 | u128::from(a0) << 14;
        if op == 16 {
            next_operand(c)?;
            let (a1, _) = vector_source(c, None, false)?;
            // swizzle 2–9, source 10–13.
            v |= 2 | u128::from(a1 >> 4 & 0xff) << 2 | u128::from(a1 & 15) << 10;
        } else {
            v |= u128::from(op) << 2;
        }
        return Ok(v);
    }
    let dest = dest * 4 + component(c)?;
    next_operand(c)?;
    let a0 = combine_source(scalar_source(c, None)?.0);
    let mut v =
        u128::from(op) << 2 | u128::from(a0) << 14 | u128::from(outmod) << 22 | u128::from(dest) << 24;
    if operands(c) > 0 {
        next_operand(c)?;
        let a1 = combine_source(scalar_source(c, None)?.0);
        v |= 2 | u128::from(a1) << 6;
    }
    Ok(v)
}

/// A scalar source's bits as the combiner lays them out: absolute, negate, then the source.
fn combine_source(s: u32) -> u32 {
    (s & 63) << 2 | (s >> 6 & 3)
}

/// A branch's operands after `branch[.cond]`: the sources (where there is a condition) and
/// the target (resolved once the instruction's place is known).
fn branch(c: &mut Cursor, cond: u32) -> R<u128> {
    let mut v =
        u128::from(cond >> 2 & 1) << 16 | u128::from(cond >> 1 & 1) << 17 | u128::from(cond & 1) << 18;
    if cond != BRANCH_ALWAYS {
        v |= u128::from(plain_scalar(c)?) << 10;
        next_operand(c)?;
        v |= u128::from(plain_scalar(c)?) << 4;
        next_operand(c)?;
    }
    Ok(v)
}
