//! Mesa's lima listing → GP words: the listing [`write_listing`](super::write_listing)
//! prints (with [`DisasmOptions::default()`](crate::DisasmOptions)), of a bare program or of
//! a whole MBS (its `; …` header lines are comments), read back into [`Instr`]s and encoded.
//!
//! ```
//! use shaderscope::isa::mali_gp::asm::assemble;
//!
//! let words = assemble("000:\tmul.m0 ^2/$2.y t[1].w a0.y\n\tmul.m1 ^3/$2.x t[1].y a0.y\n")?;
//! assert_eq!(words, [0xad40_b42f, 0x4380_42b5, 0x0807_e980, 0x000a_d500]);
//! let e = assemble("000:\tmul.m0 ^3 t[1].w a0.y\n").unwrap_err();
//! assert_eq!(e.to_string(), "line 1, column 13: expected `^2`");
//! # Ok::<(), shaderscope::asm::text::LineError>(())
//! ```
//!
//! # The text
//!
//! `NNN:` (the instruction's index, in order) starts an instruction; each tab then starts a
//! unit's text, which runs to the end of the line. A tab followed by nothing, another tab, an
//! instruction number or `;` is Mesa's stray tab: a complex unit with a source and the `nop`
//! operation. `;` starts a comment (the MBS header, problems), except `; fields …` below;
//! blank lines are skipped. A unit line may also start with spaces.
//!
//! # What Mesa's text does not carry, and what is written for it
//!
//! Mesa prints only the units an instruction uses. For every field the text does not show
//! this assembler writes what both ARM's compiler (libMali) and lima's compiler write in every
//! corpus program: an idle unit's sources `unused` (21) and negations 0, an unused
//! `acc_op`/`mul_op`/`complex_op` 0, `pass_op` 2 (`pass`), the load unit `t[0]`, the
//! register ports `$0` (attribute bit 0, address 0), a store slot's sources 7 (none) and its
//! register, varying and temporary bits 0, no branch with target 0, `unknown_1` 0. A
//! single-source adder (`floor`, `sign`, `op3`) leaves its second source `unused`; `sel.m01`
//! its fourth; Mesa's stray tab reads source 0.
//!
//! The text also says less than the bits where two encodings print alike: `aN.c` is this
//! instruction's register-0 port or the previous instruction's (sources 0–3 or 28–31),
//! `$N.c` also the register-1 port (4–7); `mov.m0` and `mul.m1` do not say `complex2`
//! (`mul_op` 3) from `mul`, `mov.aN` not the adders' operation. The assembler takes `mul`
//! and `add`, and gives each port read, in order, the first port that agrees with the reads
//! before it: the previous instruction's port first when it holds that register and that
//! instruction read the same component through its own port (both compilers read such a
//! value again a cycle later that way), else register 1 (for `$N`), register 0, the previous
//! port; when that leaves a read without a port, the first assignment of ports to registers
//! that fits. The corpus programs then read back exactly but for 14 instructions of 5 of
//! the 9 distinct programs (which of two alike encodings a compiler chose, and the register
//! fields of an unused port or store slot, are not in the text, and the two compilers, even
//! two libMali builds, choose differently in the same text).
//!
//! Every field of an instruction that differs from what this reading gives is printed after
//! the program, one line per instruction, as a comment other tools skip:
//! `; fields 003: mul0_src0=28 mul1_src1=28` (the names of Mesa's `gpir_codegen_instr`, the
//! values in decimal). The assembler reads these lines wherever they are and writes each
//! value over the instruction's field, so every 128-bit instruction prints to text that
//! assembles back to its bits; Mesa's own lines stay together and unchanged.

use super::decode::{FIELDS, Instr};
use super::opcodes::{self, ACC_OPS, LOAD_OFF_NONE, UNITS, Unit, XYZW, complex_op, mul_op, pass_op, src};
use super::print::{Context, Piece, pieces, write_piece};
use crate::asm::text::{Cursor, LineError, Syntax};
use crate::print::Line;

type Result<T> = std::result::Result<T, Syntax>;

/// The start of the comment that carries fields the text does not show.
pub(crate) const FIELDS_COMMENT: &str = "; fields ";

/// What an instruction's fields are where its text says nothing (see the module doc).
pub(crate) fn fill() -> Instr {
    Instr { pass_op: pass_op::PASS, ..Instr::idle() }
}

/// One piece of an instruction's text: a unit's text (its line, the line's text and where the
/// unit starts), or a stray tab.
#[derive(Debug, Clone, Copy)]
enum Item<'a> {
    Unit { line: usize, text: &'a str, at: usize },
    Stray { line: usize, at: usize },
}

/// A `; fields NNN:` line: its instruction, where that number is, and the values.
struct Fields {
    line: usize,
    at: usize,
    index: u64,
    values: Vec<(usize, u16)>,
}

/// The listing `text` → the program's words, four per instruction (see the module doc).
pub fn assemble(text: &str) -> std::result::Result<Vec<u32>, LineError> {
    let (instrs, fields) = split(text)?;
    let mut out = Vec::with_capacity(instrs.len() * 4);
    let mut prev: Option<Instr> = None;
    for (index, items) in instrs.iter().enumerate() {
        let mut i = read_instr(items, index as u64, prev.as_ref()).map_err(|(line, e)| e.at_line(line))?;
        for f in fields.iter().filter(|f| f.index == index as u64) {
            apply(&mut i, &f.values);
        }
        out.extend_from_slice(&i.words());
        prev = Some(i);
    }
    if let Some(f) = fields.iter().find(|f| f.index >= instrs.len() as u64) {
        return Err(LineError::new(
            f.line,
            f.at,
            format!("an instruction number below {} (the program's instructions)", instrs.len()),
        ));
    }
    Ok(out)
}

fn apply(i: &mut Instr, values: &[(usize, u16)]) {
    let mut v = i.values();
    for &(k, value) in values {
        if let Some(slot) = v.get_mut(k) {
            *slot = value;
        }
    }
    *i = Instr::decode(FIELDS.iter().zip(v).fold(0, |bits, (f, v)| bits | f.field.put(u128::from(v))));
}

type Split<'a> = (Vec<Vec<Item<'a>>>, Vec<Fields>);

/// The lines → each instruction's items (with the line of its number), and the fields lines.
fn split(text: &str) -> std::result::Result<Split<'_>, LineError> {
    let mut instrs: Vec<Vec<Item<'_>>> = Vec::new();
    let mut fields = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let mut c = Cursor::new(raw);
        let err = |e: Syntax| e.at_line(line);
        // Spaces before a unit's text stand for its tab.
        if c.rest().starts_with(' ') {
            c.skip_space();
            if c.at_end() {
                continue;
            }
            if !c.rest().starts_with(';') && !c.rest().starts_with(|ch: char| ch.is_ascii_digit()) {
                let items = instrs.last_mut().ok_or_else(|| err(first_number(&c)))?;
                items.push(Item::Unit { line, text: raw, at: c.at });
                continue;
            }
        }
        loop {
            // Tabs are not space here: a tab alone is a stray tab.
            if c.rest().trim_start_matches(' ').is_empty() {
                break;
            }
            let rest = c.rest();
            if rest.starts_with(|ch: char| ch.is_ascii_digit()) {
                let start = c.at;
                let number = c.number().map_err(err)?;
                if number != instrs.len() as u64 {
                    return Err(LineError::new(
                        line,
                        start,
                        format!("instruction number {:03}", instrs.len()),
                    ));
                }
                c.expect(":").map_err(err)?;
                instrs.push(Vec::new());
            } else if c.eat("\t") {
                let at = c.at - 1;
                let items = instrs.last_mut().ok_or_else(|| LineError::new(line, at, first_number_text()))?;
                let next = c.rest();
                if next.is_empty()
                    || next.starts_with(['\t', ';'])
                    || next.starts_with(|ch: char| ch.is_ascii_digit())
                {
                    items.push(Item::Stray { line, at });
                } else {
                    items.push(Item::Unit { line, text: raw, at: c.at });
                    break;
                }
            } else if rest.starts_with(';') {
                if rest.starts_with(FIELDS_COMMENT) {
                    fields.push(read_fields(&mut c).map_err(err)?.with_line(line));
                }
                break;
            } else {
                return Err(err(here(&c, "an instruction number (`000:`), a tab or `;`")));
            }
        }
    }
    Ok((instrs, fields))
}

/// An error at the cursor.
fn here(c: &Cursor<'_>, expected: &str) -> Syntax {
    Syntax { column: c.at, expected: expected.into() }
}

fn first_number_text() -> &'static str {
    "an instruction number (`000:`) before the first unit"
}

fn first_number(c: &Cursor<'_>) -> Syntax {
    Syntax { column: c.at, expected: first_number_text().into() }
}

impl Fields {
    fn with_line(mut self, line: usize) -> Self {
        self.line = line;
        self
    }
}

/// `; fields NNN: name=value …`.
fn read_fields(c: &mut Cursor<'_>) -> Result<Fields> {
    c.expect(FIELDS_COMMENT)?;
    let at = c.at;
    let index = c.number()?;
    c.expect(":")?;
    let mut values = Vec::new();
    let mut seen = 0u64;
    loop {
        if c.at_end() {
            break;
        }
        c.expect(" ")?;
        let start = c.at;
        let name = c.word();
        let Some(k) = FIELDS.iter().position(|f| f.name == name) else {
            c.at = start;
            return c.fail("a field of `gpir_codegen_instr` (`mul0_src0` … `branch_target`)");
        };
        if seen & (1 << k) != 0 {
            c.at = start;
            return c.fail("a field not named before on this line");
        }
        seen |= 1 << k;
        c.expect("=")?;
        let vat = c.at;
        let width = FIELDS.get(k).map_or(0, |f| f.field.width);
        let v = c.number()?;
        if v >> width != 0 {
            c.at = vat;
            return c.fail(format!("a value below {} ({name} has {width} bits)", 1u32 << width));
        }
        values.push((k, v as u16));
    }
    if values.is_empty() {
        return c.fail("` name=value`");
    }
    Ok(Fields { line: 0, at, index, values })
}

/// A register a port holds, as the text names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Port {
    /// `aN`.
    Attr(u16),
    /// `$N`.
    Reg(u16),
    /// `none`: the previous port of instruction 0.
    None,
}

impl Port {
    fn of(i: &Instr) -> Port {
        if i.register0_attribute != 0 { Port::Attr(i.register0_addr) } else { Port::Reg(i.register0_addr) }
    }
}

/// Where a port source resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Reg1,
    Own,
    Prev,
}

/// The source fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SrcField {
    Mul(u8, u8),
    Acc(u8, u8),
    Complex,
    Pass,
}

impl SrcField {
    fn set(self, i: &mut Instr, v: u16) {
        *match self {
            SrcField::Mul(0, 0) => &mut i.mul0_src0,
            SrcField::Mul(0, _) => &mut i.mul0_src1,
            SrcField::Mul(_, 0) => &mut i.mul1_src0,
            SrcField::Mul(_, _) => &mut i.mul1_src1,
            SrcField::Acc(0, 0) => &mut i.acc0_src0,
            SrcField::Acc(0, _) => &mut i.acc0_src1,
            SrcField::Acc(_, 0) => &mut i.acc1_src0,
            SrcField::Acc(_, _) => &mut i.acc1_src1,
            SrcField::Complex => &mut i.complex_src,
            SrcField::Pass => &mut i.pass_src,
        } = v;
    }
}

/// A source read through a port, resolved once the instruction is read.
#[derive(Debug, Clone, Copy)]
struct PortRead {
    field: SrcField,
    port: Port,
    comp: u16,
    line: usize,
    at: usize,
}

/// An instruction being read.
struct Build<'p> {
    i: Instr,
    index: u64,
    prev: Option<&'p Instr>,
    units: u16,
    acc_op: Option<u16>,
    mul_op: Option<u16>,
    load: Option<(u16, u16)>,
    slots: [Option<(u16, u16, u16)>; 2],
    stored: u8,
    reads: [Option<PortRead>; 12],
    nreads: usize,
    line: usize,
}

const ACC0: u16 = 1;
const MUL0: u16 = 4;
const WIDE: u16 = 16;
const COMPLEX: u16 = 32;
const PASS: u16 = 64;
const BRANCH: u16 = 128;
const UNKNOWN1: u16 = 256;

type LResult<T> = std::result::Result<T, (usize, Syntax)>;

/// One instruction's items → the instruction (before any `; fields` line), `prev` being the
/// instruction before it as finally written.
fn read_instr(items: &[Item<'_>], index: u64, prev: Option<&Instr>) -> LResult<Instr> {
    let mut b = Build {
        i: fill(),
        index,
        prev,
        units: 0,
        acc_op: None,
        mul_op: None,
        load: None,
        slots: [None; 2],
        stored: 0,
        reads: [None; 12],
        nreads: 0,
        line: 0,
    };
    for item in items {
        match *item {
            Item::Stray { line, at } => {
                if b.units & COMPLEX != 0 {
                    return Err((
                        line,
                        Syntax { column: at, expected: "one complex unit per instruction".into() },
                    ));
                }
                b.units |= COMPLEX;
                b.i.complex_src = 0;
            }
            Item::Unit { line, text, at } => {
                b.line = line;
                let mut c = Cursor { text, at };
                b.unit(&mut c).map_err(|e| (line, e))?;
                if !c.at_end() {
                    return Err((line, here(&c, "the end of the line")));
                }
            }
        }
    }
    b.finish()
}

impl Build<'_> {
    fn claim(&mut self, c: &Cursor<'_>, start: usize, unit: u16, what: &str) -> Result<()> {
        if self.units & unit != 0 {
            return c.fail_at(start, format!("a unit not written before in this instruction ({what} is)"));
        }
        self.units |= unit;
        Ok(())
    }

    fn unit(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        let start = c.at;
        let mnemonic = c.take_while(|ch| ch != ' ');
        let (name, suffix) = mnemonic.rsplit_once('.').unwrap_or((mnemonic, ""));
        match suffix {
            "a0" | "a1" => self.acc(c, start, name, u8::from(suffix == "a1")),
            "m0" | "m1" => self.mul(c, start, name, u8::from(suffix == "m1")),
            "m01" => self.wide(c, start, name),
            "c" => self.complex(c, start, mnemonic, name),
            "p" => self.pass(c, start, mnemonic, name),
            _ => match mnemonic {
                "branch" => {
                    self.claim(c, start, BRANCH, "a branch")?;
                    self.expect_dest_number(c, Unit::Pass as i64)?;
                    if !c.eat(" ") {
                        return c.fail("a space and a branch target");
                    }
                    let at = c.at;
                    let target = c.number()?;
                    if target > 511 {
                        c.at = at;
                        return c.fail("a branch target below 512");
                    }
                    self.i.branch = 1;
                    self.i.branch_target_lo = u16::from(target < 256);
                    self.i.branch_target = (target & 0xff) as u16;
                    Ok(())
                }
                "unknown_1" => {
                    self.claim(c, start, UNKNOWN1, "unknown_1")?;
                    if !c.eat(" ") {
                        return c.fail("a space and a value");
                    }
                    let at = c.at;
                    let v = c.number()?;
                    if v == 0 || v > 15 {
                        c.at = at;
                        return c.fail("a value from 1 to 15");
                    }
                    self.i.unknown_1 = v as u16;
                    Ok(())
                }
                "nop" => Ok(()),
                _ => c.fail_at(
                    start,
                    "a unit's operation (`add.a0`, `mul.m1`, `rcp.c`, `mov.p`, `branch`, `nop`, …)",
                ),
            },
        }
    }

    fn acc(&mut self, c: &mut Cursor<'_>, start: usize, name: &str, k: u8) -> Result<()> {
        self.claim(c, start, ACC0 << k, if k == 0 { "adder 0" } else { "adder 1" })?;
        let unit = if k == 0 { Unit::Acc0 } else { Unit::Acc1 };
        let (op, srcs) = if name == "mov" {
            (None, 1)
        } else if let Some(v) = ACC_OPS.iter().position(|o| o.is_some_and(|(n, _)| n == name)) {
            (Some(v as u16), ACC_OPS.get(v).copied().flatten().map_or(1, |(_, n)| n))
        } else if let Some(v) = numbered(name, "op").filter(|&v| ACC_OPS.get(usize::from(v)) == Some(&None)) {
            (Some(v), 1)
        } else {
            return c.fail_at(
                start,
                "an adder operation (`add`, `floor`, `sign`, `ge`, `lt`, `min`, `max`, `mov`, `op3`)",
            );
        };
        if let Some(op) = op {
            match self.acc_op {
                Some(was) if was != op => {
                    return c.fail_at(start, "the operation of the other adder (the adders share one)");
                }
                _ => self.acc_op = Some(op),
            }
        }
        self.dest(c, unit)?;
        let neg0 = self.source(c, unit, SrcField::Acc(k, 0), 0, true)?;
        let neg1 = if op.is_none() {
            SrcField::Acc(k, 1).set(&mut self.i, src::IDENT);
            true
        } else if srcs > 1 {
            self.source(c, unit, SrcField::Acc(k, 1), 1, true)?
        } else {
            false
        };
        if k == 0 {
            (self.i.acc0_src0_neg, self.i.acc0_src1_neg) = (u16::from(neg0), u16::from(neg1));
        } else {
            (self.i.acc1_src0_neg, self.i.acc1_src1_neg) = (u16::from(neg0), u16::from(neg1));
        }
        Ok(())
    }

    fn mul(&mut self, c: &mut Cursor<'_>, start: usize, name: &str, k: u8) -> Result<()> {
        if self.units & WIDE != 0 {
            return c.fail_at(start, "no multiplier after a two-multiplier operation (`.m01`)");
        }
        self.claim(c, start, MUL0 << k, if k == 0 { "multiplier 0" } else { "multiplier 1" })?;
        let unit = if k == 0 { Unit::Mul0 } else { Unit::Mul1 };
        let op = match (name, k) {
            ("mov", _) | ("mul", _) => None,
            ("complex2", 0) => Some(mul_op::COMPLEX2),
            _ => return c.fail_at(start, "a multiplier operation (`mul`, `mov`, `complex2` on m0)"),
        };
        if op.is_some() {
            self.mul_op = op;
        }
        self.dest(c, unit)?;
        self.source(c, unit, SrcField::Mul(k, 0), 0, false)?;
        let neg = if name == "mov" {
            SrcField::Mul(k, 1).set(&mut self.i, src::IDENT);
            false
        } else {
            self.source(c, unit, SrcField::Mul(k, 1), 1, true)?
        };
        if k == 0 {
            self.i.mul0_neg = u16::from(neg);
        } else {
            self.i.mul1_neg = u16::from(neg);
        }
        Ok(())
    }

    fn wide(&mut self, c: &mut Cursor<'_>, start: usize, name: &str) -> Result<()> {
        if self.units & (MUL0 | MUL0 << 1) != 0 {
            return c.fail_at(start, "no two-multiplier operation (`.m01`) beside a multiplier");
        }
        self.claim(c, start, WIDE, "a two-multiplier operation")?;
        let op = match name {
            "complex1" => mul_op::COMPLEX1,
            "sel" => mul_op::SELECT,
            _ => {
                match numbered(name, "unknown").filter(|v| matches!(v, 2 | 5 | 6 | 7)) {
                    Some(v) => v,
                    None => {
                        return c.fail_at(start, "a two-multiplier operation (`complex1`, `sel`, `unknown2`, `unknown5` … `unknown7`)");
                    }
                }
            }
        };
        self.mul_op = Some(op);
        self.dest(c, Unit::Mul0)?;
        let order: &[(SrcField, Unit, u8)] = if op == mul_op::SELECT {
            &[
                (SrcField::Mul(0, 1), Unit::Mul0, 1),
                (SrcField::Mul(0, 0), Unit::Mul0, 0),
                (SrcField::Mul(1, 0), Unit::Mul1, 0),
            ]
        } else {
            &[
                (SrcField::Mul(0, 0), Unit::Mul0, 0),
                (SrcField::Mul(0, 1), Unit::Mul0, 1),
                (SrcField::Mul(1, 0), Unit::Mul1, 0),
                (SrcField::Mul(1, 1), Unit::Mul1, 1),
            ]
        };
        for &(f, unit, num) in order {
            self.source(c, unit, f, num, false)?;
        }
        Ok(())
    }

    fn complex(&mut self, c: &mut Cursor<'_>, start: usize, mnemonic: &str, name: &str) -> Result<()> {
        self.claim(c, start, COMPLEX, "the complex unit")?;
        let op = (1..16).find(|&v| opcodes::complex_name(v) == Some(mnemonic)).or_else(|| {
            numbered(name, "unk").filter(|&v| v != 0 && v < 16 && opcodes::complex_name(v).is_none())
        });
        let Some(op) = op else {
            return c.fail_at(
                start,
                "a complex operation (`exp2.c`, `log2.c`, `rsqrt.c`, `rcp.c`, `mov.c`, `unkN.c`)",
            );
        };
        self.i.complex_op = op;
        self.dest(c, Unit::Complex)?;
        self.source(c, Unit::Complex, SrcField::Complex, 0, false)?;
        Ok(())
    }

    fn pass(&mut self, c: &mut Cursor<'_>, start: usize, mnemonic: &str, name: &str) -> Result<()> {
        self.claim(c, start, PASS, "the pass unit")?;
        let op = (0..8)
            .find(|&v| opcodes::pass_name(v) == Some(mnemonic))
            .or_else(|| numbered(name, "unk").filter(|&v| v < 8 && opcodes::pass_name(v).is_none()));
        let Some(op) = op else {
            return c.fail_at(
                start,
                "a pass operation (`mov.p`, `preexp2.p`, `postlog2.p`, `clamp.p`, `unkN.p`)",
            );
        };
        self.i.pass_op = op;
        self.dest(c, Unit::Pass)?;
        self.source(c, Unit::Pass, SrcField::Pass, 0, false)?;
        if op == pass_op::CLAMP {
            for want in [src::LOAD_X, src::LOAD_Y] {
                if !c.eat(" ") {
                    return c.fail("a space and the load unit's bound (`t[N].x`, `t[N].y`)");
                }
                let at = c.at;
                let got = self.load(c)?;
                if got != want {
                    c.at = at;
                    return c.fail(format!(
                        "the load unit's `.{}` (clamp's bound)",
                        XYZW.get(usize::from(want & 3)).copied().unwrap_or("x")
                    ));
                }
            }
        }
        Ok(())
    }

    /// `^K` of this instruction's `unit`.
    fn expect_dest_number(&self, c: &mut Cursor<'_>, unit: i64) -> Result<()> {
        let want = (self.index as i64).saturating_mul(UNITS).saturating_add(unit);
        if !c.eat(" ") {
            return c.fail(format!("a space and `^{want}`"));
        }
        let at = c.at;
        let ok = c.eat("^") && c.signed().ok() == Some(want);
        if !ok {
            c.at = at;
            return c.fail(format!("`^{want}`"));
        }
        Ok(())
    }

    /// `^K` and the stores that take it (`/$N.xy`, `/vN.z`, `/t[addr0].w`, `/addrN`).
    fn dest(&mut self, c: &mut Cursor<'_>, unit: Unit) -> Result<()> {
        self.expect_dest_number(c, unit as i64)?;
        while c.eat("/") {
            let at = c.at;
            let kind = if c.eat("t[addr0]") {
                (1, 0, 0)
            } else if c.eat("addr") {
                let nat = c.at;
                let n = c.number()?;
                if unit != Unit::Complex || self.i.complex_op != complex_op::PASS || n > 3 {
                    c.at = at - 1;
                    return c.fail("`/addr0` … `/addr3` only after `mov.c`, once");
                }
                let _ = nat;
                self.i.complex_op = complex_op::TEMP_STORE_ADDR + n as u16;
                continue;
            } else if c.eat("$") || c.eat("v") {
                let varying = u16::from(c.text.as_bytes().get(at) == Some(&b'v'));
                let nat = c.at;
                let n = c.number()?;
                if n > 15 {
                    c.at = nat;
                    return c.fail("a register below 16");
                }
                (0, varying, n as u16)
            } else {
                return c.fail("a store (`$N`, `vN`, `t[addr0]`) or `addrN`");
            };
            c.expect(".")?;
            let cat = c.at;
            let comps = c.take_while(|ch| matches!(ch, 'x' | 'y' | 'z' | 'w'));
            let slot = match comps {
                "x" | "y" | "xy" => 0,
                "z" | "w" | "zw" => 1,
                _ => {
                    c.at = cat;
                    return c.fail("components of one store slot (`x`, `y`, `xy`, `z`, `w`, `zw`)");
                }
            };
            match self.slots.get(slot).copied().flatten() {
                Some(was) if was != kind => {
                    c.at = at;
                    return c.fail("the register the other unit stores this slot to (a slot has one)");
                }
                _ => {}
            }
            if let Some(s) = self.slots.get_mut(slot) {
                *s = Some(kind);
            }
            for ch in comps.bytes() {
                let k = match ch {
                    b'x' => 0,
                    b'y' => 1,
                    b'z' => 2,
                    _ => 3,
                };
                if self.stored & (1 << k) != 0 {
                    c.at = cat;
                    return c.fail("a component no other unit stores");
                }
                self.stored |= 1 << k;
                let v = unit.store_src();
                match k {
                    0 => self.i.store0_src_x = v,
                    1 => self.i.store0_src_y = v,
                    2 => self.i.store1_src_z = v,
                    _ => self.i.store1_src_w = v,
                }
            }
        }
        Ok(())
    }

    /// `t[N(+addrK|+unkK)].c`: the load unit; gives the source value.
    fn load(&mut self, c: &mut Cursor<'_>) -> Result<u16> {
        let at = c.at;
        c.expect("t[")?;
        let nat = c.at;
        let addr = c.number()?;
        if addr > 511 {
            c.at = nat;
            return c.fail("a load address below 512");
        }
        let offset = if c.eat("+addr") {
            let oat = c.at;
            let k = c.number()?;
            if !(1..=3).contains(&k) {
                c.at = oat;
                return c.fail("an address register 1 to 3");
            }
            k as u16
        } else if c.eat("+unk") {
            let oat = c.at;
            let k = c.number()?;
            if !matches!(k, 0 | 4..=6) {
                c.at = oat;
                return c.fail("an undefined load offset (0, 4, 5, 6)");
            }
            k as u16
        } else {
            LOAD_OFF_NONE
        };
        c.expect("]")?;
        let comp = component(c)?;
        let load = (addr as u16, offset);
        match self.load {
            Some(was) if was != load => {
                c.at = at;
                c.fail("the address the instruction's other loads read (one load unit)")
            }
            _ => {
                self.load = Some(load);
                Ok(src::LOAD_X + comp)
            }
        }
    }

    /// A space and a source of `unit` (`num`: its first or second); gives its `-`.
    fn source(
        &mut self,
        c: &mut Cursor<'_>,
        unit: Unit,
        f: SrcField,
        num: u8,
        may_negate: bool,
    ) -> Result<bool> {
        if !c.eat(" ") {
            return c.fail("a space and a source");
        }
        let at = c.at;
        let neg = c.eat("-");
        if neg && !may_negate {
            c.at = at;
            return c.fail("a source without `-` (this source cannot be negated)");
        }
        let rest = c.rest();
        let v = if rest.starts_with("t[") {
            self.load(c)?
        } else if c.eat("^") {
            let nat = c.at;
            let k = c.signed()?;
            let i = self.index as i64;
            let (j, u) = (k.div_euclid(UNITS), k.rem_euclid(UNITS));
            let v = match (i - j, u) {
                (1, 0..=4) => Some(src::P1_ACC_0 + u as u16),
                (1, 5) if num == 0 || matches!(unit, Unit::Complex | Unit::Pass) => Some(src::IDENT),
                (2, 0..=3) => Some(src::P2_ACC_0 + u as u16),
                (2, 4) => Some(src::P2_PASS),
                _ => None,
            };
            match v {
                Some(v) => v,
                None => {
                    c.at = nat;
                    return c.fail(format!(
                        "a result of the previous instruction (`^{}` … `^{}`) or of the one before (`^{}` … `^{}`)",
                        (i - 1) * UNITS,
                        (i - 1) * UNITS + if num == 1 && matches!(unit, Unit::Acc0 | Unit::Acc1 | Unit::Mul0 | Unit::Mul1) { 4 } else { 5 },
                        (i - 2) * UNITS,
                        (i - 2) * UNITS + 4
                    ));
                }
            }
        } else if c.eat("unused") {
            src::UNUSED
        } else if c.eat("unknown") {
            let nat = c.at;
            let n = c.number()?;
            if n > 3 {
                c.at = nat;
                return c.fail("`unknown0` … `unknown3`");
            }
            src::UNKNOWN_0 + n as u16
        } else if num == 1
            && ((rest.starts_with('0') && matches!(unit, Unit::Acc0 | Unit::Acc1))
                || (rest.starts_with('1') && matches!(unit, Unit::Mul0 | Unit::Mul1)))
        {
            // The identity: 0 as an adder's second source, 1 as a multiplier's.
            c.at += 1;
            src::IDENT
        } else {
            let port = if c.eat("none") {
                Port::None
            } else if c.eat("a") || c.eat("$") {
                let attr = c.text.as_bytes().get(c.at - 1) == Some(&b'a');
                let nat = c.at;
                let n = c.number()?;
                if n > 15 {
                    c.at = nat;
                    return c.fail("a register below 16");
                }
                if attr { Port::Attr(n as u16) } else { Port::Reg(n as u16) }
            } else {
                return c.fail("a source (`aN.x`, `$N.x`, `t[N].x`, `^K`, `unused`, …)");
            };
            let comp = component(c)?;
            let read = PortRead { field: f, port, comp, line: self.line, at };
            match self.reads.get_mut(self.nreads) {
                Some(slot) => *slot = Some(read),
                None => return c.fail_at(at, "fewer sources"),
            }
            self.nreads += 1;
            return Ok(neg);
        };
        f.set(&mut self.i, v);
        Ok(neg)
    }

    /// The ports, the shared operations and the load unit written in.
    fn finish(mut self) -> LResult<Instr> {
        self.i.acc_op = self.acc_op.unwrap_or(0);
        self.i.mul_op = self.mul_op.unwrap_or(mul_op::MUL);
        if let Some((addr, offset)) = self.load {
            self.i.load_addr = addr;
            self.i.load_offset = offset;
        }
        for (k, slot) in self.slots.iter().enumerate() {
            if let Some((temporary, varying, addr)) = *slot {
                if k == 0 {
                    (self.i.store0_temporary, self.i.store0_varying, self.i.store0_addr) =
                        (temporary, varying, addr);
                } else {
                    (self.i.store1_temporary, self.i.store1_varying, self.i.store1_addr) =
                        (temporary, varying, addr);
                }
            }
        }
        // The registers read through ports, each given a port: register 1 first for `$N`,
        // then register 0, then the previous instruction's port.
        let reads: Vec<PortRead> = self.reads.iter().take(self.nreads).flatten().copied().collect();
        let mut names: [Option<(Port, usize)>; 3] = [None; 3];
        let mut n = 0;
        for (k, r) in reads.iter().enumerate() {
            if names.iter().take(n).flatten().any(|(p, _)| *p == r.port) {
                continue;
            }
            match names.get_mut(n) {
                Some(slot) => *slot = Some((r.port, k)),
                None => return Err(too_many(Some(r))),
            }
            n += 1;
        }
        let prev_port = self.prev.map(Port::of);
        if self.greedy(&reads, prev_port) {
            return Ok(self.i);
        }
        let choices = |p: Port| -> &'static [Slot] {
            match p {
                Port::Reg(_) => &[Slot::Reg1, Slot::Own, Slot::Prev],
                Port::Attr(_) => &[Slot::Own, Slot::Prev],
                Port::None => &[Slot::Prev],
            }
        };
        let mut best: Option<[Slot; 3]> = None;
        let empty: &[Slot] = &[Slot::Prev];
        let list = |k: usize| names.get(k).copied().flatten().map_or(empty, |(p, _)| choices(p));
        'search: for &a in list(0) {
            for &b in list(1) {
                for &c in list(2) {
                    let pick = [a, b, c];
                    let ok = names.iter().take(n).zip(pick).enumerate().all(|(k, (name, s))| {
                        let Some((p, _)) = name else { return false };
                        let fits = match s {
                            Slot::Prev => match (prev_port, p) {
                                (Some(q), p) => q == *p,
                                (None, Port::None) => true,
                                (None, _) => false,
                            },
                            _ => true,
                        };
                        fits && !pick.iter().take(k).any(|&t| t == s)
                    });
                    if ok {
                        best = Some(pick);
                        break 'search;
                    }
                }
            }
        }
        let Some(pick) = best else {
            let last = names.iter().take(n).flatten().last().map_or(0, |(_, k)| *k);
            return Err(too_many(reads.get(last)));
        };
        for (name, slot) in names.iter().take(n).zip(pick) {
            let Some((port, _)) = *name else { continue };
            match (slot, port) {
                (Slot::Reg1, Port::Reg(a)) => self.i.register1_addr = a,
                (Slot::Own, Port::Reg(a)) => (self.i.register0_attribute, self.i.register0_addr) = (0, a),
                (Slot::Own, Port::Attr(a)) => (self.i.register0_attribute, self.i.register0_addr) = (1, a),
                _ => {}
            }
            for r in reads.iter().filter(|r| r.port == port) {
                let base = match slot {
                    Slot::Reg1 => src::REGISTER_X,
                    Slot::Own => src::ATTRIB_X,
                    Slot::Prev => src::P1_ATTRIB_X,
                };
                r.field.set(&mut self.i, base + r.comp);
            }
        }
        Ok(self.i)
    }
}

impl Build<'_> {
    /// Each read given a port in turn, the first that agrees with those given before: the
    /// previous instruction's port first when it holds the register and read that
    /// component through its own port (the compilers keep such a value a cycle), else this
    /// instruction's own ports (register 1 first for `$N`). False when that fails.
    fn greedy(&mut self, reads: &[PortRead], prev_port: Option<Port>) -> bool {
        let prev_reads = self.prev.map_or(0u8, |p| {
            [
                p.mul0_src0,
                p.mul0_src1,
                p.mul1_src0,
                p.mul1_src1,
                p.acc0_src0,
                p.acc0_src1,
                p.acc1_src0,
                p.acc1_src1,
                p.complex_src,
                p.pass_src,
            ]
            .iter()
            .filter(|&&s| s < src::REGISTER_X)
            .fold(0, |m, &s| m | 1 << s)
        });
        let (mut own, mut reg1): (Option<Port>, Option<Port>) = (None, None);
        let mut picks = [Slot::Own; 12];
        for (k, r) in reads.iter().enumerate() {
            let prev_ok = match prev_port {
                Some(q) => q == r.port,
                None => r.port == Port::None,
            };
            let kept = prev_ok && prev_reads & (1 << r.comp) != 0;
            let order: &[Slot] = match (r.port, kept) {
                (Port::None, _) => &[Slot::Prev],
                (Port::Reg(_), true) => &[Slot::Prev, Slot::Reg1, Slot::Own],
                (Port::Reg(_), false) => &[Slot::Reg1, Slot::Own, Slot::Prev],
                (Port::Attr(_), true) => &[Slot::Prev, Slot::Own],
                (Port::Attr(_), false) => &[Slot::Own, Slot::Prev],
            };
            let pick = order.iter().copied().find(|s| match s {
                Slot::Prev => prev_ok,
                Slot::Own => own.is_none_or(|p| p == r.port),
                Slot::Reg1 => reg1.is_none_or(|p| p == r.port),
            });
            let Some(pick) = pick else { return false };
            match pick {
                Slot::Own => own = Some(r.port),
                Slot::Reg1 => reg1 = Some(r.port),
                Slot::Prev => {}
            }
            if let Some(p) = picks.get_mut(k) {
                *p = pick;
            }
        }
        match own {
            Some(Port::Attr(a)) => (self.i.register0_attribute, self.i.register0_addr) = (1, a),
            Some(Port::Reg(a)) => (self.i.register0_attribute, self.i.register0_addr) = (0, a),
            _ => {}
        }
        if let Some(Port::Reg(a)) = reg1 {
            self.i.register1_addr = a;
        }
        for (r, pick) in reads.iter().zip(picks) {
            let base = match pick {
                Slot::Reg1 => src::REGISTER_X,
                Slot::Own => src::ATTRIB_X,
                Slot::Prev => src::P1_ATTRIB_X,
            };
            r.field.set(&mut self.i, base + r.comp);
        }
        true
    }
}

fn too_many(r: Option<&PortRead>) -> (usize, Syntax) {
    (
        r.map_or(0, |r| r.line),
        Syntax {
            column: r.map_or(0, |r| r.at),
            expected: "a register the ports hold (register 1, register 0 and the previous instruction's register 0: \
                       one `aN` or `$N` each)"
                .into(),
        },
    )
}

/// `.x` … `.w`.
fn component(c: &mut Cursor<'_>) -> Result<u16> {
    c.expect(".")?;
    for (k, name) in XYZW.iter().enumerate() {
        if c.eat(name) {
            return Ok(k as u16);
        }
    }
    c.fail("a component (`x`, `y`, `z`, `w`)")
}

/// `N` of `{prefix}N`.
fn numbered(name: &str, prefix: &str) -> Option<u16> {
    let digits = name.strip_prefix(prefix)?;
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// What the assembler reads from the text Mesa's listing prints of `instr` (index `index`,
/// after `prev`): the instruction itself but where the text does not carry a field.
pub(crate) fn implied(instr: &Instr, prev: Option<&Instr>, index: u64, line: &mut Line) -> Option<Instr> {
    let c = Context { instr, prev, index };
    let (list, n) = pieces(instr);
    line.start(None);
    // Each piece's text range in the line (`None`: a stray tab).
    let mut ranges = [None; 9];
    for (range, &piece) in ranges.iter_mut().zip(list.iter().take(n)) {
        let start = line.len();
        if piece != Piece::StrayTab {
            write_piece(line, &c, piece);
            *range = Some((start, line.len()));
        }
    }
    let text = line.as_str();
    let mut items = [Item::Stray { line: 0, at: 0 }; 9];
    for (item, range) in items.iter_mut().zip(ranges) {
        if let Some((s, e)) = range {
            *item = Item::Unit { line: 0, text: text.get(s..e)?, at: 0 };
        }
    }
    read_instr(items.get(..n)?, index, prev).ok()
}

/// The fields of `instr` that differ from what its text reads back as.
pub(crate) fn differing(instr: &Instr, implied: &Instr) -> impl Iterator<Item = (&'static str, u16)> {
    let (have, want) = (implied.values(), instr.values());
    FIELDS.iter().zip(have.into_iter().zip(want)).filter(|(_, (h, w))| h != w).map(|(f, (_, w))| (f.name, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stray_tab_and_fields_read_back() {
        let i = Instr { complex_src: 3, ..fill() };
        let mut line = Line::new();
        let got = implied(&i, None, 0, &mut line).unwrap();
        assert_eq!(got.complex_src, 0);
        assert_eq!(differing(&i, &got).collect::<Vec<_>>(), [("complex_src", 3)]);
    }
}
