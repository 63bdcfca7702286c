//! decaf's listing → Latte microcode: [`assemble`] reads the text [`write_listing`](super::write_listing) prints
//! (control-flow lines `NN NAME …`, each clause's ALU groups or fetches after the line that
//! runs it, `END_OF_PROGRAM`) and writes the program's words.
//!
//! ```
//! use shaderscope::isa::latte;
//!
//! let text = "00 ALU: ADDR(2) CNT(4)\n\
//!     \x20 0   x: MOV             R0.x, C0.x\n\
//!     \x20     y: MOV             R0.y, C0.y\n\
//!     \x20     z: MOV             R0.z, C0.z\n\
//!     \x20     w: MOV             R0.w, C0.w\n\
//!     \n\
//!     01 EXP_DONE: PIX0, R0.xyzw\n\
//!     \n\
//!     END_OF_PROGRAM\n";
//! let words = latte::asm::assemble(text)?;
//! assert_eq!(
//!     words,
//!     [
//!         0x0000_0002, 0xA00C_0000, 0x0000_0000, 0x9420_0688, // CF
//!         // ALU clause: each MOV's unused second source is 0.0 (248), as AMD's compiler writes it
//!         0x001F_0100, 0x0000_0C90, 0x001F_0500, 0x2000_0C90,
//!         0x001F_0900, 0x4000_0C90, 0x801F_0D00, 0x6000_0C90,
//!     ]
//! );
//! # Ok::<(), shaderscope::asm::LineError>(())
//! ```
//!
//! # What the text says, and what the assembler chooses
//!
//! Control-flow instructions sit at their numbers (`NN`), eight bytes each; a clause at its
//! `ADDR(…)`, in 64-bit units. A clause's count is the instructions listed after the line
//! that runs it (its `CNT(…)` is recounted). `END_OF_PROGRAM` sets that bit of the
//! control-flow instruction before it. An ALU group is its lines up to the next numbered
//! line; its literals are the distinct values its `(0x…, …)` operands name, in the order they
//! first appear, padded with a zero word to a whole slot.
//!
//! Every field decaf's text leaves out (a source select the operation does not read, the
//! channel of `PS` or of an inline constant, `INDEX_MODE` with no relative operand, a
//! fetch's padding word, …) is written as the compilers write it, 0 unless said otherwise.
//! Where a program holds another value there, the listing names the field after the
//! instruction (` ; POP_COUNT(1)`) and the assembler reads it back, so that every program
//! lists into text that assembles back to its words.

use super::alu::{self, Alu};
use super::cf::{self, Cf, inst};
use super::opcodes;
use super::tex;
use super::vtx;
use crate::asm::text::{Cursor, LineError, Syntax};
use crate::toolkit::Field;

type Result<T> = std::result::Result<T, Syntax>;

/// Assemble a Latte listing into the program's words.
pub fn assemble(text: &str) -> std::result::Result<Vec<u32>, LineError> {
    let mut p = Program::default();
    for (n, line) in text.lines().enumerate() {
        p.line(line).map_err(|e| e.at_line(n + 1))?;
    }
    p.finish().map_err(|(line, e)| e.at_line(line))
}

/// What a clause holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Alu,
    Tex,
    Vtx,
}

/// One clause as listed: where it goes, what it holds, the control-flow instruction that
/// runs it.
#[derive(Debug)]
struct Clause {
    kind: Kind,
    /// `ADDR`, in 64-bit units.
    addr: u32,
    words: Vec<u32>,
    /// The fetches' padding words that follow the program's (`; fetch padding`).
    pads: Vec<usize>,
    /// Index of its control-flow instruction.
    cf: usize,
    /// The line of that instruction (for errors).
    line: usize,
}

/// An ALU group being read.
#[derive(Debug, Default)]
struct Group {
    insts: Vec<Alu>,
    literals: Vec<u32>,
    /// The literal words were given (`LITERALS(…)`), not gathered from the operands.
    explicit: bool,
    /// An instruction named its own `LAST` bit.
    last_given: bool,
}

#[derive(Debug, Default)]
struct Program {
    cf: Vec<Cf>,
    clauses: Vec<Clause>,
    /// The group being read (ALU clauses).
    group: Option<Group>,
    /// Words no instruction reaches (`; data at +0x…:`), by word index.
    data: Vec<(usize, u32)>,
    /// The program's length in words, at least (`; zeros at +0x…: N bytes`).
    len: usize,
    /// Every fetch's padding word unless it names its own (`; fetch padding 0x…`).
    padding: Option<u32>,
    /// The current line (1-based), for errors found at the end.
    line: usize,
}

impl Program {
    fn line(&mut self, line: &str) -> Result<()> {
        self.line += 1;
        let mut c = Cursor::new(line);
        c.skip_space();
        if c.rest().starts_with(';') {
            return self.comment(&mut c);
        }
        // Fields the listing adds after decaf's text follow a `;`.
        let (body, extra) = match line.find(';') {
            Some(i) => (line.get(..i).unwrap_or(""), Some(Cursor { text: line, at: i + 1 })),
            None => (line, None),
        };
        c.text = body;
        if c.at_end() {
            return Ok(());
        }
        if c.eat("END_OF_PROGRAM") {
            self.end_group();
            end(&c)?;
            return match self.cf.last_mut() {
                Some(last) if last.kind() != cf::CfKind::Alu => {
                    last.0 |= cf::END_OF_PROGRAM.put(1u64);
                    Ok(())
                }
                _ => c.fail_at(
                    0,
                    "a control-flow instruction before END_OF_PROGRAM (an export or a normal one)",
                ),
            };
        }
        if c.rest().starts_with(|ch: char| ch.is_ascii_digit()) {
            let number = c.u32()?;
            let spaces = c.take_while(|ch| ch == ' ').len();
            if unit(&c).is_some() {
                self.end_group();
                self.group = Some(Group::default());
                return self.alu(&mut c, extra);
            }
            self.end_group();
            if spaces == 1 {
                if number as usize != self.cf.len() {
                    return c.fail_at(
                        0,
                        format!("control-flow instruction {:02} (the one after the last)", self.cf.len()),
                    );
                }
                return self.cf_line(&mut c, number, extra);
            }
            if spaces == 0 {
                return c.fail("a space after the number");
            }
            return self.fetch(&mut c, extra);
        }
        if unit(&c).is_some() {
            if self.group.is_none() {
                return c.fail("a group number before the first ALU instruction of a group");
            }
            return self.alu(&mut c, extra);
        }
        c.fail("a control-flow instruction (`NN NAME`), an ALU instruction, a fetch or END_OF_PROGRAM")
    }

    /// A line that is a comment: the words no instruction reaches and the fetches' padding
    /// word are read back; any other comment is skipped.
    fn comment(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        if c.eat("; data at +") {
            let at = c.at;
            let off = c.number()? as usize;
            if off % 4 != 0 || off >= 1 << 26 {
                return c.fail_at(at, "a word offset below 2^26");
            }
            c.expect(":")?;
            let mut i = off / 4;
            loop {
                c.skip_space();
                if c.at_end() {
                    return Ok(());
                }
                let w = c.u32()?;
                self.data.push((i, w));
                i += 1;
            }
        }
        if c.eat("; zeros at +") {
            let at = c.at;
            let off = c.number()? as usize;
            c.expect(": ")?;
            let len = c.number()? as usize;
            c.expect(" bytes")?;
            let last = off.saturating_add(len);
            if off % 4 != 0 || len % 4 != 0 || last >= 1 << 26 {
                return c.fail_at(at, "whole words below 2^26");
            }
            self.len = self.len.max(last / 4);
            return end(c);
        }
        if c.eat("; fetch padding ") {
            self.padding = Some(c.u32()?);
            return end(c);
        }
        Ok(())
    }

    /// The group being read goes into its clause: `LAST` on its last instruction, then its
    /// literals.
    fn end_group(&mut self) {
        let Some(g) = self.group.take() else { return };
        if let Some(clause) = self.clauses.last_mut() {
            clause.words.extend(g.words());
        }
    }

    /// A control-flow line after its number.
    fn cf_line(&mut self, c: &mut Cursor<'_>, pc: u32, extra: Option<Cursor<'_>>) -> Result<()> {
        let cf = cf_inst(c, pc, extra)?;
        let clause = match cf.kind() {
            cf::CfKind::Alu => Some((Kind::Alu, cf.get(cf::ALU_ADDR))),
            cf::CfKind::Export => None,
            cf::CfKind::Normal => cf.fetch_clause().map(|(k, addr, _)| match k {
                cf::ClauseKind::Tex => (Kind::Tex, addr),
                cf::ClauseKind::Vtx => (Kind::Vtx, addr),
            }),
        };
        if let Some((kind, addr)) = clause {
            self.clauses.push(Clause {
                kind,
                addr,
                words: Vec::new(),
                pads: Vec::new(),
                cf: self.cf.len(),
                line: self.line,
            });
        }
        self.cf.push(cf);
        Ok(())
    }

    /// An ALU instruction line from its unit (`x: MUL …`).
    fn alu(&mut self, c: &mut Cursor<'_>, extra: Option<Cursor<'_>>) -> Result<()> {
        let Some(Clause { kind: Kind::Alu, .. }) = self.clauses.last() else {
            return c.fail_at(0, "an ALU clause instruction (`NN ALU: …`) before ALU instructions");
        };
        let Some(group) = self.group.as_mut() else { return c.fail("a group") };
        group.line(c, extra)
    }

    /// A fetch line after its number.
    fn fetch(&mut self, c: &mut Cursor<'_>, extra: Option<Cursor<'_>>) -> Result<()> {
        let kind = match self.clauses.last() {
            Some(Clause { kind: k @ (Kind::Tex | Kind::Vtx), .. }) => *k,
            _ => return c.fail_at(0, "a TEX or VTX clause instruction before fetches"),
        };
        let (bits, own_pad) = fetch_inst(c, kind == Kind::Vtx, PAD_FILL, extra)?;
        if let Some(clause) = self.clauses.last_mut() {
            if !own_pad {
                clause.pads.push(clause.words.len() + 3);
            }
            clause.words.extend([bits as u32, (bits >> 32) as u32, (bits >> 64) as u32, (bits >> 96) as u32]);
        }
        Ok(())
    }

    /// The words: control flow from 0, each clause at its address (recounted), zeros between.
    fn finish(mut self) -> std::result::Result<Vec<u32>, (usize, Syntax)> {
        self.end_group();
        if let Some(pad) = self.padding {
            for clause in &mut self.clauses {
                for &i in &clause.pads {
                    if let Some(w) = clause.words.get_mut(i) {
                        *w = pad;
                    }
                }
            }
        }
        let mut out: Vec<u32> = self.cf.iter().flat_map(|c| c.words()).collect();
        // Which words are taken, by whom (for overlaps).
        let mut owner: Vec<Option<usize>> = vec![None; out.len()];
        for (k, clause) in self.clauses.iter().enumerate() {
            let fail = |what: String| (clause.line, Syntax { column: 0, expected: what });
            let Some(cf) = self.cf.get_mut(clause.cf) else { continue };
            let count = clause.words.len() / if clause.kind == Kind::Alu { 2 } else { 4 };
            if count > 0 {
                set_count(cf, count).map_err(fail)?;
            }
            let start = 2 * clause.addr as usize;
            if start < 2 * self.cf.len() && count > 0 {
                return Err(fail(format!(
                    "a clause address past the control-flow instructions (ADDR({}) is inside them)",
                    clause.addr
                )));
            }
            let end = start + clause.words.len();
            if end > 1 << 24 {
                return Err(fail("a clause address below 2^23".into()));
            }
            if out.len() < end {
                out.resize(end, 0);
                owner.resize(end, None);
            }
            for (i, &w) in clause.words.iter().enumerate() {
                let (Some(slot), Some(who)) = (out.get_mut(start + i), owner.get_mut(start + i)) else {
                    continue;
                };
                match *who {
                    // The same clause run twice is fine.
                    Some(other) if *slot != w => {
                        let other = self.clauses.get(other).map_or(0, |c| c.cf);
                        return Err(fail(format!(
                            "a clause that does not overlap another (it overlaps the clause of control-flow instruction {other:02})"
                        )));
                    }
                    _ => {
                        *slot = w;
                        *who = Some(k);
                    }
                }
            }
        }
        for (i, cf) in self.cf.iter().enumerate() {
            let [w0, w1] = cf.words();
            if let Some(w) = out.get_mut(2 * i) {
                *w = w0;
            }
            if let Some(w) = out.get_mut(2 * i + 1) {
                *w = w1;
            }
        }
        let len = self.data.iter().map(|(i, _)| i + 1).max().unwrap_or(0).max(self.len);
        if out.len() < len {
            out.resize(len, 0);
        }
        for (i, w) in self.data {
            if let Some(slot) = out.get_mut(i) {
                *slot = w;
            }
        }
        Ok(out)
    }
}

/// The clause count of `cf` set to `count` instructions (ALU slots or fetches).
fn set_count(cf: &mut Cf, count: usize) -> std::result::Result<(), String> {
    let n = count as u64 - 1;
    if cf.kind() == cf::CfKind::Alu {
        if count > 128 {
            return Err("at most 128 slots in an ALU clause".into());
        }
        cf.0 = cf.0 & !cf::ALU_COUNT.mask::<u64>() | cf::ALU_COUNT.put(n);
    } else {
        if count > 16 {
            return Err("at most 16 fetches in a clause".into());
        }
        cf.0 = cf.0 & !(cf::COUNT.mask::<u64>() | cf::COUNT_3.mask::<u64>())
            | cf::COUNT.put(n & 7)
            | cf::COUNT_3.put(n >> 3);
    }
    Ok(())
}

impl Group {
    /// One instruction line of the group, from its unit.
    fn line(&mut self, c: &mut Cursor<'_>, extra: Option<Cursor<'_>>) -> Result<()> {
        let unit = unit(c).unwrap_or(0);
        c.at += 2;
        c.skip_space();
        if self.insts.len() == 5 {
            return c.fail_at(0, "at most five instructions in a group");
        }
        if let Some(l) = extra.clone().map(|mut e| literal_list(&mut e)).transpose()?.flatten() {
            if !self.insts.is_empty() {
                return c.fail_at(0, "LITERALS(…) on the group's first instruction");
            }
            self.literals = l;
            self.explicit = true;
        }
        // The lowest vector channel the group's instructions so far take.
        let units = alu::assign_units(&self.insts);
        let lowest = (0..4).find(|u| units.iter().take(self.insts.len()).any(|(v, _)| v == u)).unwrap_or(0);
        let mut inst = alu_inst(c, unit, lowest as u32, &mut self.literals, self.explicit)?;
        if let Some(mut e) = extra {
            let table = if inst.is_op3() { OP3_FIELDS } else { ALU_FIELDS };
            for (f, v) in extras(&mut e, table)? {
                self.last_given |= f == alu::LAST;
                inst.0 = inst.0 & !f.mask::<u64>() | f.put(v as u64);
            }
        }
        self.insts.push(inst);
        Ok(())
    }

    /// Its words: the instructions, `LAST` on the last one, then the literals padded to a
    /// whole slot.
    fn words(mut self) -> Vec<u32> {
        let ends = self.insts.last().map(|i| i.0 & alu::LAST.mask::<u64>() != 0);
        if let (Some(last), Some(false)) = (self.insts.last_mut(), ends) {
            if !self.last_given {
                last.0 |= alu::LAST.put(1u64);
            }
        }
        if self.literals.len() % 2 == 1 && !self.explicit {
            self.literals.push(0);
        }
        let mut out: Vec<u32> = self.insts.iter().flat_map(|i| i.words()).collect();
        out.extend(&self.literals);
        out
    }
}

/// The unit of an ALU line (`x:` … `t:`), if the text is at one.
fn unit(c: &Cursor<'_>) -> Option<usize> {
    let b = c.rest().as_bytes();
    match b {
        [u, b':', ..] => alu::UNIT_NAMES.iter().position(|n| n.as_bytes() == [*u]),
        _ => None,
    }
}

/// Nothing but spaces left, or an error.
fn end(c: &Cursor<'_>) -> Result<()> {
    if c.at_end() { Ok(()) } else { c.fail("the end of the line") }
}

/// A control-flow instruction's value by name: `CF_INST` of the normal and export
/// encodings (0–63), `0x40 +` the ALU clause encoding's (8–15).
fn named_cf(name: &str) -> Option<u32> {
    if let Some(i) = opcodes::CF.iter().position(|n| *n == Some(name)) {
        return Some(i as u32);
    }
    if let Some(i) = opcodes::EXPORT.iter().position(|n| *n == Some(name)) {
        return Some(32 + i as u32);
    }
    opcodes::CF_ALU.iter().position(|n| *n == name).map(|i| 0x40 + 8 + i as u32)
}

/// `value` into `field` of `word`, which must hold it.
fn set(c: &Cursor<'_>, start: usize, word: &mut u64, field: Field, value: u64) -> Result<()> {
    if field.width < 64 && value >> field.width != 0 {
        return c.fail_at(start, format!("a value below {}", 1u64 << field.width));
    }
    *word = *word & !field.mask::<u64>() | field.put(value);
    Ok(())
}

/// The flags and labels after a control-flow instruction's operands, in any order.
fn flags(c: &mut Cursor<'_>, cf: &mut Cf) -> Result<()> {
    let kind = cf.kind();
    let normal = kind == cf::CfKind::Normal;
    let alu = kind == cf::CfKind::Alu;
    // The labels with a number of each encoding, and the field each sets.
    let labels: &[(&str, Field)] = match kind {
        cf::CfKind::Normal => &[
            ("CF_CONST(", cf::CF_CONST),
            ("POP_CNT(", cf::POP_COUNT),
            ("CALL_COUNT(", cf::CALL_COUNT),
            ("PASS_JUMP_ADDR(", cf::ADDR),
            ("FAIL_JUMP_ADDR(", cf::ADDR),
            ("ADDR(", cf::ADDR),
        ],
        cf::CfKind::Alu => &[("ADDR(", cf::ALU_ADDR)],
        cf::CfKind::Export => {
            &[("ARRAY_SIZE(", cf::ARRAY_SIZE), ("ELEM_SIZE(", cf::ELEM_SIZE), ("BURSTCNT(", cf::BURST_COUNT)]
        }
    };
    loop {
        c.skip_space();
        if c.at_end() {
            return Ok(());
        }
        let start = c.at;
        let w = &mut cf.0;
        if c.eat("NO_BARRIER") {
            *w &= !cf::BARRIER.mask::<u64>();
        } else if c.eat("WHOLE_QUAD") {
            *w |= cf::WHOLE_QUAD_MODE.put(1u64);
        } else if c.eat("VALID_PIX") {
            *w |= cf::VALID_PIXEL_MODE.put(1u64);
        } else if alu && c.eat("ALT_CONST") {
            *w |= cf::ALT_CONST.put(1u64);
        } else if alu && c.rest().starts_with("KCACHE") {
            kcache(c, w)?;
        } else if normal && c.eat("CND(") {
            let v = match c.word() {
                "FALSE" => 1,
                "BOOL" => 2,
                "NOT_BOOL" => 3,
                _ => return c.fail_at(start + 4, "FALSE, BOOL or NOT_BOOL"),
            };
            c.expect(")")?;
            *w |= cf::COND.put(v);
        } else if normal && c.eat("UNK_FORMAT") {
            // An undefined instruction's mark: nothing to set.
        } else if let Some(&(label, f)) = labels.iter().find(|(l, _)| c.rest().starts_with(l)) {
            c.at += label.len();
            let at = c.at;
            let v = c.u32()?;
            c.expect(")")?;
            set(c, at, w, f, u64::from(v))?;
        } else if c.eat("CNT(") {
            // Recounted from the clause's lines, when it has any.
            let at = c.at;
            let n = c.u32()?;
            c.expect(")")?;
            if n == 0 {
                return c.fail_at(at, "a count from 1");
            }
            set_count(cf, n as usize).or_else(|e| c.fail_at(at, e))?;
        } else {
            c.at = start;
            return c.fail("a flag of the instruction (NO_BARRIER, ADDR(…), …)");
        }
    }
}

/// ` KCACHE0(CB1:0-15)`, ` KCACHE1(CB2:AL+0-AL+31)`.
fn kcache(c: &mut Cursor<'_>, w: &mut u64) -> Result<()> {
    let start = c.at;
    let (bank, mode, addr) = if c.eat("KCACHE0(CB") {
        (cf::KCACHE_BANK0, cf::KCACHE_MODE0, cf::KCACHE_ADDR0)
    } else if c.eat("KCACHE1(CB") {
        (cf::KCACHE_BANK1, cf::KCACHE_MODE1, cf::KCACHE_ADDR1)
    } else {
        return c.fail("KCACHE0(CB…) or KCACHE1(CB…)");
    };
    let b = c.u32()?;
    set(c, start, w, bank, u64::from(b))?;
    c.expect(":")?;
    let looped = c.eat("AL+");
    let first_at = c.at;
    let first = c.u32()?;
    c.expect("-")?;
    if looped {
        c.expect("AL+")?;
    }
    let last = c.u32()?;
    c.expect(")")?;
    let m = match (looped, last.wrapping_sub(first)) {
        (false, 15) => 1,
        (false, 31) => 2,
        (true, 31) => 3,
        _ => return c.fail_at(first_at, "a window of 16 or 32 constants (0-15, 0-31, AL+0-AL+31)"),
    };
    if first % 16 != 0 {
        return c.fail_at(first_at, "a window starting at a multiple of 16");
    }
    set(c, first_at, w, addr, u64::from(first / 16))?;
    *w = *w & !mode.mask::<u64>() | mode.put(m);
    Ok(())
}

/// An export's target and source (`POS0, R1.xyzw`, `WRITE(64 + R2), R3.xy__ ARRAY_SIZE(4)`).
fn export(c: &mut Cursor<'_>, cf: &mut Cf) -> Result<()> {
    c.skip_space();
    let id = cf.inst();
    let w = &mut cf.0;
    let exp = matches!(id, inst::EXP | inst::EXP_DONE);
    if exp {
        let (ty, word) = if c.eat("PIX") {
            (0, "PIX")
        } else if c.eat("POS") {
            (1, "POS")
        } else if c.eat("PARAM") {
            (2, "PARAM")
        } else if c.eat("INVALID") {
            (3, "INVALID")
        } else {
            return c.fail("PIX, POS, PARAM or INVALID");
        };
        let n_at = c.at;
        let n = c.signed()?;
        let base = if word == "POS" { n + 60 } else { n };
        if !(0..1 << 13).contains(&base) {
            return c.fail_at(n_at, "an export index within ARRAY_BASE (13 bits)");
        }
        *w |= cf::TYPE.put(ty) | cf::ARRAY_BASE.put(base as u64);
    } else if c.eat("INVALID_READ") {
        *w |= cf::TYPE.put(2u64);
    } else {
        let read = if c.eat("WRITE(") {
            false
        } else if c.eat("READ(") {
            true
        } else {
            return c.fail("WRITE(…) or READ(…)");
        };
        let n_at = c.at;
        let n = c.number()?;
        let scale = if matches!(id, inst::MEM_SCRATCH | inst::MEM_REDUCTION) { 16 } else { 4 };
        if n % scale != 0 || n / scale >= 1 << 13 {
            return c.fail_at(n_at, format!("a multiple of {scale} below {}", scale << 13));
        }
        let indexed = c.eat(" + R");
        if indexed {
            let g = c.at;
            let r = c.u32()?;
            set(c, g, w, cf::INDEX_GPR, u64::from(r))?;
        }
        c.expect(")")?;
        *w |= cf::TYPE.put(u64::from(read) * 2 + u64::from(indexed)) | cf::ARRAY_BASE.put(n / scale);
    }
    c.expect(", ")?;
    if c.eat("R[AL + ") {
        let g = c.at;
        let r = c.u32()?;
        set(c, g, w, cf::RW_GPR, u64::from(r))?;
        c.expect("]")?;
        *w |= cf::RW_REL.put(1u64);
    } else {
        c.expect("R")?;
        let g = c.at;
        let r = c.u32()?;
        set(c, g, w, cf::RW_GPR, u64::from(r))?;
    }
    c.expect(".")?;
    let sel_at = c.at;
    let sels = c.take_while(|ch| "xyzw01_?".contains(ch));
    if sels.len() != 4 {
        c.at = sel_at;
        return c.fail("four components (`xyzw`, `xy__`)");
    }
    for (i, ch) in sels.chars().enumerate() {
        if exp {
            let v = match ch {
                'x' => 0,
                'y' => 1,
                'z' => 2,
                'w' => 3,
                '0' => 4,
                '1' => 5,
                '?' => 6,
                _ => 7,
            };
            *w |= Field::at(cf::SEL_X.shift + 3 * i as u16, 3).put(v);
        } else {
            let want = ["x", "y", "z", "w"].get(i).copied().unwrap_or("");
            if ch.to_string() == want {
                *w |= cf::COMP_MASK.put(1u64 << i);
            } else if ch != '_' {
                c.at = sel_at + i;
                return c.fail(format!("`{want}` or `_`"));
            }
        }
    }
    Ok(())
}

/// The special source selects by name (the printer's), longest first.
const SPECIALS: [(&str, u32); 9] = [
    ("1.0_L", 244),
    ("1.0_M", 245),
    ("0.5_L", 246),
    ("0.5_M", 247),
    ("0.0f", 248),
    ("1.0f", 249),
    ("0.5f", 252),
    ("-1", 251),
    ("1", 250),
];

/// The index names of relative operands, by `INDEX_MODE`.
const INDEXES: [&str; 8] =
    ["[AR.x]", "[AR.y]", "[AR.z]", "[AR.w]", "[AL]", "[GLOBAL]", "[GLOBAL+AR.x]", "[UNKNOWN]"];

/// One operand as read: the source fields and the index mode it names, if relative.
struct Operand {
    src: alu::Source,
    index: Option<u32>,
    /// A literal's bits.
    literal: Option<u32>,
}

/// An operand (`-|R1.x|`, `KC0[3].y`, `C12[AR.x].w`, `PV4.z`, `PS4`, `0.5f`,
/// `(0x3F800000, 1)`); a literal's bits are in [`Operand::literal`], its channel chosen by the
/// caller.
fn operand(c: &mut Cursor<'_>) -> Result<Operand> {
    let mut s = alu::Source { sel: 0, rel: false, chan: 0, neg: false, abs: false };
    // `-1` is the constant, not a negated `1`.
    let minus_one = c
        .rest()
        .strip_prefix("-1")
        .is_some_and(|r| !r.starts_with(|ch: char| ch.is_ascii_alphanumeric() || ch == '.'));
    if !minus_one {
        s.neg = c.eat("-");
        s.abs = c.eat("|");
    }
    let mut channel = true;
    let mut literal = None;
    let reg = |c: &mut Cursor<'_>, limit: u32| -> Result<u32> {
        let at = c.at;
        let n = c.u32()?;
        if n >= limit {
            return c.fail_at(at, format!("a number below {limit}"));
        }
        Ok(n)
    };
    if minus_one {
        c.at += 2;
        s.sel = 251;
        channel = false;
    } else if c.eat("KC0[") {
        s.sel = alu::src::KCACHE0 + reg(c, 32)?;
        c.expect("]")?;
    } else if c.eat("KC1[") {
        s.sel = alu::src::KCACHE1 + reg(c, 32)?;
        c.expect("]")?;
    } else if c.eat("PV") {
        s.sel = alu::src::PV;
        c.signed()?;
    } else if c.eat("PS") {
        s.sel = alu::src::PS;
        c.signed()?;
        channel = false;
    } else if c.eat("(0x") {
        let at = c.at;
        let hex = c.take_while(|ch| ch.is_ascii_hexdigit());
        let Ok(bits) = u32::from_str_radix(hex, 16) else {
            c.at = at;
            return c.fail("a literal's 32 bits in hexadecimal");
        };
        c.expect(", ")?;
        c.take_while(|ch| ch != ')');
        c.expect(")")?;
        s.sel = alu::src::LITERAL;
        literal = Some(bits);
        channel = false;
    } else if c.eat("UNKNOWN(") {
        s.sel = reg(c, 512)?;
        c.expect(")")?;
        channel = false;
    } else if c.eat("R") {
        s.sel = reg(c, 128)?;
    } else if c.eat("C") {
        s.sel = alu::src::CFILE + reg(c, 256)?;
    } else if let Some(&(name, sel)) = SPECIALS.iter().find(|(n, _)| c.rest().starts_with(n)) {
        c.at += name.len();
        s.sel = sel;
        channel = false;
    } else {
        return c.fail("an operand (R…, KC0[…], C…, PV…, PS…, a literal or a constant)");
    }
    let mut index = None;
    if c.rest().starts_with('[') {
        let at = c.at;
        match INDEXES.iter().position(|i| c.rest().starts_with(i)) {
            Some(mode) => {
                c.at += INDEXES.get(mode).map_or(0, |i| i.len());
                s.rel = true;
                index = Some(mode as u32);
            }
            None => return c.fail_at(at, "an index ([AR.x], [AL], …)"),
        }
    }
    if channel {
        c.expect(".")?;
        let at = c.at;
        s.chan = match c.take_while(|ch| ch.is_ascii_alphabetic()) {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            "w" => 3,
            _ => return c.fail_at(at, "a channel (x, y, z or w)"),
        };
    }
    if s.abs {
        c.expect("|")?;
    }
    Ok(Operand { src: s, index, literal })
}

/// The OP2 or OP3 operation by name: (OP3, opcode).
fn named_alu(name: &str) -> Option<(bool, u32)> {
    if let Some(i) = opcodes::OP2.iter().position(|o| o.is_some_and(|o| o.name == name)) {
        return Some((false, i as u32));
    }
    opcodes::OP3.iter().position(|o| o.is_some_and(|o| o.name == name)).map(|i| (true, i as u32))
}

/// An ALU instruction after its unit: `MULADD  R123.x, R1.z, KC0[2].y, PV0.x VEC_021`.
fn alu_inst(
    c: &mut Cursor<'_>,
    unit: usize,
    before: u32,
    literals: &mut Vec<u32>,
    explicit: bool,
) -> Result<Alu> {
    let start = c.at;
    let name = c.word();
    let (op3, opcode) = match name {
        "OP2_INST" | "OP3_INST" => {
            c.expect("(")?;
            let at = c.at;
            let v = c.u32()?;
            c.expect(")")?;
            let op3 = name == "OP3_INST";
            if op3 && !(4..32).contains(&v) || !op3 && v >= 256 {
                return c
                    .fail_at(at, if op3 { "an OP3 opcode from 4 to 31" } else { "an OP2 opcode below 256" });
            }
            (op3, v)
        }
        _ => match named_alu(name) {
            Some(v) => v,
            None => return c.fail_at(start, "an ALU operation"),
        },
    };
    let mut w: u64 = if op3 {
        alu::OP3_INST.put(u64::from(opcode))
    } else {
        alu::OP2_INST.put(u64::from(opcode)) | alu::WRITE_MASK.put(1u64)
    };
    let omod = if c.eat("*2") {
        1
    } else if c.eat("*4") {
        2
    } else if c.eat("/2") {
        3
    } else {
        0
    };
    if omod != 0 && op3 {
        return c.fail_at(start + name.len(), "no output modifier on an OP3 operation");
    }
    w |= alu::OMOD.put(omod);
    let probe = Alu(w);
    let srcs = probe.src_count();
    c.skip_space();
    let mut index: Option<u32> = None;
    let mut note = |c: &Cursor<'_>, at: usize, i: Option<u32>| -> Result<()> {
        match (index, i) {
            (Some(a), Some(b)) if a != b => c.fail_at(
                at,
                format!(
                    "the index of the other relative operands ({})",
                    INDEXES.get(a as usize).copied().unwrap_or("?")
                ),
            ),
            (_, Some(b)) => {
                index = Some(b);
                Ok(())
            }
            _ => Ok(()),
        }
    };
    if c.eat("____") {
        if op3 {
            return c.fail_at(c.at - 4, "a destination register (OP3 operations write one)");
        }
        w &= !alu::WRITE_MASK.mask::<u64>();
        // A vector unit's channel is its own; the compilers give t the lowest channel
        // whose unit the group uses before it.
        w |= alu::DST_CHAN.put(if unit < 4 { unit as u64 } else { u64::from(before) });
    } else {
        let at = c.at;
        let d = operand(c)?;
        if d.src.sel >= 128 || d.src.neg || d.src.abs {
            return c.fail_at(at, "a destination register (R0–R127)");
        }
        note(c, at, d.index)?;
        w |= alu::DST_GPR.put(u64::from(d.src.sel))
            | alu::DST_REL.put(u64::from(d.src.rel))
            | alu::DST_CHAN.put(u64::from(d.src.chan));
    }
    let fields = [
        (alu::SRC0_SEL, alu::SRC0_REL, alu::SRC0_CHAN, alu::SRC0_NEG, alu::SRC0_ABS),
        (alu::SRC1_SEL, alu::SRC1_REL, alu::SRC1_CHAN, alu::SRC1_NEG, alu::SRC1_ABS),
        (alu::SRC2_SEL, alu::SRC2_REL, alu::SRC2_CHAN, alu::SRC2_NEG, Field::NONE),
    ];
    let mut read = Vec::with_capacity(srcs);
    for _ in 0..srcs {
        c.expect(", ")?;
        let at = c.at;
        let o = operand(c)?;
        if o.src.abs && op3 {
            return c.fail_at(at, "no |…| on an OP3 operation's source");
        }
        note(c, at, o.index)?;
        read.push((at, o));
    }
    // The compilers give an instruction's literals their channels from its last source to
    // its first.
    for (at, o) in read.iter_mut().rev() {
        if let Some(bits) = o.literal {
            o.src.chan = match literals.iter().position(|&l| l == bits) {
                Some(i) => i as u32,
                None if explicit => return c.fail_at(*at, "a value of the group's LITERALS(…)"),
                None if literals.len() < 4 => {
                    literals.push(bits);
                    literals.len() as u32 - 1
                }
                None => return c.fail_at(*at, "at most four distinct literals in a group"),
            };
        }
    }
    for ((sel, rel, chan, neg, abs), (_, o)) in fields.into_iter().zip(&read) {
        w |= sel.put(u64::from(o.src.sel))
            | rel.put(u64::from(o.src.rel))
            | chan.put(u64::from(o.src.chan))
            | neg.put(u64::from(o.src.neg))
            | abs.put(u64::from(o.src.abs));
    }
    // An OP2 operation of one source reads 0.0 as its second; NOP reads PV in its own
    // channel for both.
    if !op3 && srcs == 1 {
        w |= alu::SRC1_SEL.put(248u64);
    } else if !op3 && srcs == 0 {
        let chan = alu::DST_CHAN.get(w);
        w |= alu::SRC0_SEL.put(u64::from(alu::src::PV))
            | alu::SRC1_SEL.put(u64::from(alu::src::PV))
            | alu::SRC0_CHAN.put(chan)
            | alu::SRC1_CHAN.put(chan);
    }
    if let Some(mode) = index {
        w |= alu::INDEX_MODE.put(u64::from(mode));
    }
    let trans = probe.op().is_some_and(|op| op.units == opcodes::Units::Trans);
    loop {
        c.skip_space();
        if c.at_end() {
            break;
        }
        let at = c.at;
        let word = c.take_while(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        let swizzle = |v: u64| alu::BANK_SWIZZLE.put(v);
        match word {
            "CLAMP" => w |= alu::CLAMP.put(1u64),
            "SCL_210" if trans => w |= swizzle(0),
            "SCL_122" if trans => w |= swizzle(1),
            "SCL_212" if trans => w |= swizzle(2),
            "SCL_221" if trans => w |= swizzle(3),
            "VEC_021" if !trans => w |= swizzle(1),
            "VEC_120" if !trans => w |= swizzle(2),
            "VEC_102" if !trans => w |= swizzle(3),
            "VEC_201" if !trans => w |= swizzle(4),
            "VEC_210" if !trans => w |= swizzle(5),
            "BANK_SWIZZLE" => {
                c.expect("(")?;
                let v_at = c.at;
                let v = c.u32()?;
                c.expect(")")?;
                if v >= 8 {
                    return c.fail_at(v_at, "a bank swizzle below 8");
                }
                w = w & !alu::BANK_SWIZZLE.mask::<u64>() | swizzle(u64::from(v));
            }
            "PRED_SEL_ZERO" => w |= alu::PRED_SEL.put(2u64),
            "PRED_SEL_ONE" => w |= alu::PRED_SEL.put(3u64),
            "PRED_SEL" => {
                c.expect("(1)")?;
                w |= alu::PRED_SEL.put(1u64);
            }
            "UPDATE_EXEC_MASK" if !op3 => w |= alu::UPDATE_EXECUTE_MASK.put(1u64),
            "UPDATE_PRED" if !op3 => w |= alu::UPDATE_PRED.put(1u64),
            _ => return c.fail_at(at, "CLAMP, a bank swizzle, a predicate select or an update flag"),
        }
    }
    Ok(Alu(w))
}

/// `R4[AL].xyzw` or `____` (every component masked): (register, relative, selects).
fn fetch_dst(c: &mut Cursor<'_>, semantic: bool) -> Result<(u32, bool, [u32; 4])> {
    if c.eat("____") {
        return Ok((0, false, [7; 4]));
    }
    let at = c.at;
    let limit = if semantic {
        c.expect("SEM[")?;
        256
    } else {
        c.expect("R")?;
        128
    };
    let n = c.u32()?;
    if n >= limit {
        return c.fail_at(at, format!("a number below {limit}"));
    }
    if semantic {
        c.expect("]")?;
    }
    let rel = !semantic && c.eat("[AL]");
    c.expect(".")?;
    Ok((n, rel, selects(c)?))
}

/// Four component selects (`xyzw`, `xy0_`).
fn selects(c: &mut Cursor<'_>) -> Result<[u32; 4]> {
    let mut out = [0; 4];
    for s in &mut out {
        *s = match c.rest().chars().next() {
            Some('x') => 0,
            Some('y') => 1,
            Some('z') => 2,
            Some('w') => 3,
            Some('0') => 4,
            Some('1') => 5,
            Some('?') => 6,
            Some('_') => 7,
            _ => return c.fail("a component select (x, y, z, w, 0, 1 or _)"),
        };
        c.at += 1;
    }
    Ok(out)
}

/// Four 3-bit selects from `first` on.
fn put_sels(first: Field, sels: [u32; 4]) -> u128 {
    sels.iter()
        .enumerate()
        .fold(0, |v, (i, &s)| v | Field::at(first.shift + 3 * i as u16, 3).put(u128::from(s)))
}

/// A signed fixed-point value `f` with `frac` fraction bits in `width` bits.
fn fixed(c: &Cursor<'_>, at: usize, text: &str, width: u32, frac: u32) -> Result<u128> {
    let Some(v) = text.parse::<f32>().ok() else { return c.fail_at(at, "a number") };
    let raw = v * (1u32 << frac) as f32;
    let lim = (1i32 << (width - 1)) as f32;
    if raw.fract() != 0.0 || raw < -lim || raw >= lim {
        return c.fail_at(
            at,
            format!(
                "a multiple of {} from {} to {}",
                1.0 / (1u32 << frac) as f32,
                -lim / (1u32 << frac) as f32,
                (lim - 1.0) / (1u32 << frac) as f32
            ),
        );
    }
    Ok((raw as i32 as u32 & ((1 << width) - 1)) as u128)
}

/// A texture fetch: `SAMPLE  R4.xyzw, R0.xy0x, t1, s1 LOD(…) …`.
fn tex_line(c: &mut Cursor<'_>) -> Result<u128> {
    let start = c.at;
    let name = c.word();
    let Some(op) = opcodes::TEX.iter().position(|n| *n == name).filter(|&i| i > 1) else {
        return c.fail_at(start, "a texture instruction");
    };
    let t = |f: Field, v: u32| f.put(u128::from(v));
    let mut v = t(tex::TEX_INST, op as u32);
    c.skip_space();
    let (dst, rel, sels) = fetch_dst(c, false)?;
    v |= t(tex::DST_GPR, dst) | t(tex::DST_REL, rel.into()) | put_sels(tex::DST_SEL_X, sels);
    c.expect(", R")?;
    let at = c.at;
    let src = c.u32()?;
    if src >= 128 {
        return c.fail_at(at, "a number below 128");
    }
    v |= t(tex::SRC_GPR, src);
    if c.eat("[AL]") {
        v |= t(tex::SRC_REL, 1);
    }
    c.expect(".")?;
    v |= put_sels(tex::SRC_SEL_X, selects(c)?);
    c.expect(", t")?;
    let at = c.at;
    let r = c.u32()?;
    if r >= 256 {
        return c.fail_at(at, "a resource below 256");
    }
    c.expect(", s")?;
    let at = c.at;
    let s = c.u32()?;
    if s >= 32 {
        return c.fail_at(at, "a sampler below 32");
    }
    v |= t(tex::RESOURCE_ID, r) | t(tex::SAMPLER_ID, s);
    // Normalized coordinates unless DENORM names the axis.
    v |= (0..4).fold(0, |v, i| v | Field::at(tex::COORD_TYPE_X.shift + i, 1).put(1u128));
    loop {
        c.skip_space();
        if c.at_end() {
            return Ok(v);
        }
        let at = c.at;
        let word = c.word();
        match word {
            "WHOLE_QUAD" => v |= t(tex::FETCH_WHOLE_QUAD, 1),
            "BC_FRAC_MODE" => v |= t(tex::BC_FRAC_MODE, 1),
            "ALT_CONST" => v |= t(tex::ALT_CONST, 1),
            "DENORM" => {
                c.expect("(")?;
                let axes = c.take_while(|ch| "XYZW".contains(ch));
                for a in axes.chars() {
                    let i = "XYZW".find(a).unwrap_or(0) as u16;
                    v &= !Field::at(tex::COORD_TYPE_X.shift + i, 1).mask::<u128>();
                }
                c.expect(")")?;
            }
            "LOD" | "XOFFSET" | "YOFFSET" | "ZOFFSET" => {
                c.expect("(")?;
                let n_at = c.at;
                let text = c.number_text();
                c.expect(")")?;
                v |= match word {
                    "LOD" => tex::LOD_BIAS.put(fixed(c, n_at, text, 7, 3)?),
                    _ => {
                        let i =
                            ["XOFFSET", "YOFFSET", "ZOFFSET"].iter().position(|n| *n == word).unwrap_or(0);
                        Field::at(tex::OFFSET_X.shift + 5 * i as u16, 5).put(fixed(c, n_at, text, 5, 1)?)
                    }
                };
            }
            _ => {
                return c
                    .fail_at(at, "a texture fetch's flag (LOD(…), WHOLE_QUAD, DENORM(…), XOFFSET(…), …)");
            }
        }
    }
}

/// A vertex fetch: `FETCH  R16.xyzw, R1.x, b130 FETCH_TYPE(NO_INDEX_OFFSET) MEGA(16) OFFSET(0)`.
fn vtx_line(c: &mut Cursor<'_>) -> Result<u128> {
    let start = c.at;
    let name = c.word();
    let op = match name {
        "FETCH" => 0,
        "SEMANTIC" => 1,
        "MEM" => 2,
        "VTX_INST" => {
            c.expect("(")?;
            let at = c.at;
            let v = c.u32()?;
            c.expect(")")?;
            if v >= 32 {
                return c.fail_at(at, "a value below 32");
            }
            v
        }
        _ => return c.fail_at(start, "a vertex fetch (FETCH, SEMANTIC, MEM)"),
    };
    let t = |f: Field, v: u32| f.put(u128::from(v));
    let mut v = t(vtx::VTX_INST, op);
    c.skip_space();
    let (dst, rel, sels) = fetch_dst(c, op == 1)?;
    v |= put_sels(vtx::DST_SEL_X, sels);
    v |= if op == 1 { t(vtx::SEMANTIC_ID, dst) } else { t(vtx::DST_GPR, dst) | t(vtx::DST_REL, rel.into()) };
    c.expect(", R")?;
    let at = c.at;
    let src = c.u32()?;
    if src >= 128 {
        return c.fail_at(at, "a number below 128");
    }
    v |= t(vtx::SRC_GPR, src);
    if c.eat("[AL]") {
        v |= t(vtx::SRC_REL, 1);
    }
    c.expect(".")?;
    let at = c.at;
    let sel = match c.rest().chars().next() {
        Some('x') => 0,
        Some('y') => 1,
        Some('z') => 2,
        Some('w') => 3,
        _ => return c.fail("a component (x, y, z or w)"),
    };
    let _ = at;
    c.at += 1;
    v |= t(vtx::SRC_SEL_X, sel);
    c.expect(", b")?;
    let at = c.at;
    let b = c.u32()?;
    if b >= 256 {
        return c.fail_at(at, "a buffer below 256");
    }
    v |= t(vtx::BUFFER_ID, b);
    c.expect(" FETCH_TYPE(")?;
    let at = c.at;
    let ty = match c.word() {
        "VERTEX_DATA" => 0,
        "INSTANCE_DATA" => 1,
        "NO_INDEX_OFFSET" => 2,
        "3" => 3,
        _ => return c.fail_at(at, "VERTEX_DATA, INSTANCE_DATA or NO_INDEX_OFFSET"),
    };
    c.expect(")")?;
    v |= t(vtx::FETCH_TYPE, ty);
    // The format from the fetch constant unless FORMAT(…) gives it.
    v |= t(vtx::USE_CONST_FIELDS, 1);
    let mut mega = false;
    loop {
        c.skip_space();
        if c.at_end() {
            break;
        }
        let at = c.at;
        let word = c.word();
        match word {
            "FORMAT" => {
                c.expect("( ")?;
                let n_at = c.at;
                let digits = c.take_while(|ch| ch.is_ascii_digit());
                // decaf glues an undefined NUM_FORMAT_ALL (3) to the data format.
                let (format, num) = if c.eat(" NORM") {
                    (digits, 0)
                } else if c.eat(" INT") {
                    (digits, 1)
                } else if c.eat(" SCALED") {
                    (digits, 2)
                } else {
                    (digits.get(..digits.len().saturating_sub(1)).unwrap_or(""), 3)
                };
                let Some(format) = format.parse::<u32>().ok().filter(|&f| f < 64) else {
                    return c.fail_at(n_at, "a data format below 64");
                };
                let signed = if c.eat(" SIGNED ") {
                    1
                } else {
                    c.expect(" UNSIGNED ")?;
                    0
                };
                let srf_at = c.at;
                let srf = c.u32()?;
                if srf > 1 {
                    return c.fail_at(srf_at, "0 or 1");
                }
                c.expect(")")?;
                v &= !vtx::USE_CONST_FIELDS.mask::<u128>();
                v |= t(vtx::DATA_FORMAT, format)
                    | t(vtx::NUM_FORMAT_ALL, num)
                    | t(vtx::FORMAT_COMP_ALL, signed)
                    | t(vtx::SRF_MODE_ALL, srf);
            }
            "MEGA" | "MINI" => {
                c.expect("(")?;
                let n_at = c.at;
                let n = c.u32()?;
                c.expect(")")?;
                if !(1..=64).contains(&n) {
                    return c.fail_at(n_at, "a fetch size from 1 to 64");
                }
                mega = word == "MEGA";
                v |= t(vtx::MEGA_FETCH_COUNT, n - 1);
            }
            "OFFSET" => {
                c.expect("(")?;
                let n_at = c.at;
                let n = c.u32()?;
                c.expect(")")?;
                if n >= 1 << 16 {
                    return c.fail_at(n_at, "an offset below 65536");
                }
                v |= t(vtx::OFFSET, n);
            }
            "WHOLE_QUAD" => v |= t(vtx::FETCH_WHOLE_QUAD, 1),
            "ENDIAN_SWAP" => {
                c.expect("(")?;
                let n_at = c.at;
                let e = match c.word() {
                    "8IN16" => 1,
                    "8IN32" => 2,
                    "3" => 3,
                    _ => return c.fail_at(n_at, "8IN16 or 8IN32"),
                };
                c.expect(")")?;
                v |= t(vtx::ENDIAN_SWAP, e);
            }
            "CONST_BUF_NO_STRIDE" => v |= t(vtx::CONST_BUF_NO_STRIDE, 1),
            "ALT_CONST" => v |= t(vtx::ALT_CONST, 1),
            _ => return c.fail_at(at, "a vertex fetch's flag (FORMAT(…), MEGA(…), OFFSET(…), …)"),
        }
    }
    if mega {
        v |= t(vtx::MEGA_FETCH, 1);
    }
    Ok(v)
}

/// A named field of an instruction word.
pub(super) type Named = (&'static str, Field);

/// The fields a listing may name after `;` for the control-flow instruction `cf` (they
/// cover its 64 bits).
pub(super) fn cf_fields(cf: &Cf) -> &'static [Named] {
    match cf.kind() {
        cf::CfKind::Normal => NORMAL_FIELDS,
        cf::CfKind::Export if matches!(cf.inst(), inst::EXP | inst::EXP_DONE) => EXP_FIELDS,
        cf::CfKind::Export => MEM_FIELDS,
        cf::CfKind::Alu => ALU_CF_FIELDS,
    }
}

const NORMAL_FIELDS: &[Named] = &[
    ("ADDR", cf::ADDR),
    ("POP_COUNT", cf::POP_COUNT),
    ("CF_CONST", cf::CF_CONST),
    ("COND", cf::COND),
    ("COUNT", cf::COUNT),
    ("CALL_COUNT", cf::CALL_COUNT),
    ("COUNT_3", cf::COUNT_3),
    ("W1_BIT20", Field::at(52, 1)),
    ("END_OF_PROGRAM", cf::END_OF_PROGRAM),
    ("VALID_PIXEL_MODE", cf::VALID_PIXEL_MODE),
    ("CF_INST", cf::CF_INST),
    ("WHOLE_QUAD_MODE", cf::WHOLE_QUAD_MODE),
    ("BARRIER", cf::BARRIER),
];

/// The export encoding's fields but word 1's low 17 bits.
macro_rules! export_fields {
    ($($extra:expr),*) => {
        &[
            ("ARRAY_BASE", cf::ARRAY_BASE),
            ("TYPE", cf::TYPE),
            ("RW_GPR", cf::RW_GPR),
            ("RW_REL", cf::RW_REL),
            ("INDEX_GPR", cf::INDEX_GPR),
            ("ELEM_SIZE", cf::ELEM_SIZE),
            $($extra,)*
            ("W1_BIT16", Field::at(48, 1)),
            ("BURST_COUNT", cf::BURST_COUNT),
            ("END_OF_PROGRAM", cf::END_OF_PROGRAM),
            ("VALID_PIXEL_MODE", cf::VALID_PIXEL_MODE),
            ("CF_INST", cf::CF_INST),
            ("WHOLE_QUAD_MODE", cf::WHOLE_QUAD_MODE),
            ("BARRIER", cf::BARRIER),
        ]
    };
}

const EXP_FIELDS: &[Named] = export_fields!(
    ("SEL_X", Field::at(32, 3)),
    ("SEL_Y", Field::at(35, 3)),
    ("SEL_Z", Field::at(38, 3)),
    ("SEL_W", Field::at(41, 3)),
    ("W1_BITS12_15", Field::at(44, 4))
);

const MEM_FIELDS: &[Named] = export_fields!(("ARRAY_SIZE", cf::ARRAY_SIZE), ("COMP_MASK", cf::COMP_MASK));

const ALU_CF_FIELDS: &[Named] = &[
    ("ADDR", cf::ALU_ADDR),
    ("KCACHE_BANK0", cf::KCACHE_BANK0),
    ("KCACHE_BANK1", cf::KCACHE_BANK1),
    ("KCACHE_MODE0", cf::KCACHE_MODE0),
    ("KCACHE_MODE1", cf::KCACHE_MODE1),
    ("KCACHE_ADDR0", cf::KCACHE_ADDR0),
    ("KCACHE_ADDR1", cf::KCACHE_ADDR1),
    ("COUNT", cf::ALU_COUNT),
    ("ALT_CONST", cf::ALT_CONST),
    ("CF_INST", cf::ALU_CF_INST),
    ("WHOLE_QUAD_MODE", cf::WHOLE_QUAD_MODE),
    ("BARRIER", cf::BARRIER),
];

/// The ALU fields of word 0 and those word 1 has in both encodings.
macro_rules! alu_fields {
    ($($extra:expr),*) => {
        &[
            ("SRC0_SEL", alu::SRC0_SEL),
            ("SRC0_REL", alu::SRC0_REL),
            ("SRC0_CHAN", alu::SRC0_CHAN),
            ("SRC0_NEG", alu::SRC0_NEG),
            ("SRC1_SEL", alu::SRC1_SEL),
            ("SRC1_REL", alu::SRC1_REL),
            ("SRC1_CHAN", alu::SRC1_CHAN),
            ("SRC1_NEG", alu::SRC1_NEG),
            ("INDEX_MODE", alu::INDEX_MODE),
            ("PRED_SEL", alu::PRED_SEL),
            ("LAST", alu::LAST),
            $($extra,)*
            ("BANK_SWIZZLE", alu::BANK_SWIZZLE),
            ("DST_GPR", alu::DST_GPR),
            ("DST_REL", alu::DST_REL),
            ("DST_CHAN", alu::DST_CHAN),
            ("CLAMP", alu::CLAMP),
        ]
    };
}

/// An OP2 instruction's fields (word 1 from bit 0: the abs and update flags, `WRITE_MASK`,
/// `OMOD`, the 11-bit opcode).
pub(super) const ALU_FIELDS: &[Named] = alu_fields!(
    ("SRC0_ABS", alu::SRC0_ABS),
    ("SRC1_ABS", alu::SRC1_ABS),
    ("UPDATE_EXECUTE_MASK", alu::UPDATE_EXECUTE_MASK),
    ("UPDATE_PRED", alu::UPDATE_PRED),
    ("WRITE_MASK", alu::WRITE_MASK),
    ("OMOD", alu::OMOD),
    ("ALU_INST", alu::OP2_INST)
);

/// An OP3 instruction's fields (word 1 from bit 0: the third source, the 5-bit opcode).
pub(super) const OP3_FIELDS: &[Named] = alu_fields!(
    ("SRC2_SEL", alu::SRC2_SEL),
    ("SRC2_REL", alu::SRC2_REL),
    ("SRC2_CHAN", alu::SRC2_CHAN),
    ("SRC2_NEG", alu::SRC2_NEG),
    ("ALU_INST", alu::OP3_INST)
);

/// A fetch's padding word and what the compilers fill it with.
const PAD: Field = Field::at(96, 32);
/// gshCompile's padding word; decaf's latte-assembler writes 0 (its listings say so with a
/// `; fetch padding 0x00000000` line).
pub(super) const PAD_FILL: u32 = 0x0DEA_DFEC;

/// Four 3-bit selects as fields named `NAME_X` … `NAME_W`.
macro_rules! sel_fields {
    ($x:literal, $y:literal, $z:literal, $w:literal, $first:expr) => {
        [
            ($x, Field::at($first.shift, 3)),
            ($y, Field::at($first.shift + 3, 3)),
            ($z, Field::at($first.shift + 6, 3)),
            ($w, Field::at($first.shift + 9, 3)),
        ]
    };
}

const TEX_DST_SELS: [Named; 4] =
    sel_fields!("DST_SEL_X", "DST_SEL_Y", "DST_SEL_Z", "DST_SEL_W", tex::DST_SEL_X);
const TEX_SRC_SELS: [Named; 4] =
    sel_fields!("SRC_SEL_X", "SRC_SEL_Y", "SRC_SEL_Z", "SRC_SEL_W", tex::SRC_SEL_X);

pub(super) const TEX_FIELDS: &[Named] = &[
    ("TEX_INST", tex::TEX_INST),
    ("BC_FRAC_MODE", tex::BC_FRAC_MODE),
    ("W0_BIT6", Field::at(6, 1)),
    ("FETCH_WHOLE_QUAD", tex::FETCH_WHOLE_QUAD),
    ("RESOURCE_ID", tex::RESOURCE_ID),
    ("SRC_GPR", tex::SRC_GPR),
    ("SRC_REL", tex::SRC_REL),
    ("ALT_CONST", tex::ALT_CONST),
    ("W0_BITS25_31", Field::at(25, 7)),
    ("DST_GPR", tex::DST_GPR),
    ("DST_REL", tex::DST_REL),
    ("W1_BIT8", Field::at(40, 1)),
    TEX_DST_SELS[0],
    TEX_DST_SELS[1],
    TEX_DST_SELS[2],
    TEX_DST_SELS[3],
    ("LOD_BIAS", tex::LOD_BIAS),
    ("COORD_TYPE_X", Field::at(60, 1)),
    ("COORD_TYPE_Y", Field::at(61, 1)),
    ("COORD_TYPE_Z", Field::at(62, 1)),
    ("COORD_TYPE_W", Field::at(63, 1)),
    ("OFFSET_X", Field::at(64, 5)),
    ("OFFSET_Y", Field::at(69, 5)),
    ("OFFSET_Z", Field::at(74, 5)),
    ("SAMPLER_ID", tex::SAMPLER_ID),
    TEX_SRC_SELS[0],
    TEX_SRC_SELS[1],
    TEX_SRC_SELS[2],
    TEX_SRC_SELS[3],
    ("PAD", PAD),
];

const VTX_DST_SELS: [Named; 4] =
    sel_fields!("DST_SEL_X", "DST_SEL_Y", "DST_SEL_Z", "DST_SEL_W", vtx::DST_SEL_X);

pub(super) const VTX_FIELDS: &[Named] = &[
    ("VTX_INST", vtx::VTX_INST),
    ("FETCH_TYPE", vtx::FETCH_TYPE),
    ("FETCH_WHOLE_QUAD", vtx::FETCH_WHOLE_QUAD),
    ("BUFFER_ID", vtx::BUFFER_ID),
    ("SRC_GPR", vtx::SRC_GPR),
    ("SRC_REL", vtx::SRC_REL),
    ("SRC_SEL_X", vtx::SRC_SEL_X),
    ("MEGA_FETCH_COUNT", vtx::MEGA_FETCH_COUNT),
    ("DST_GPR", vtx::DST_GPR),
    ("DST_REL", vtx::DST_REL),
    ("W1_BIT8", Field::at(40, 1)),
    VTX_DST_SELS[0],
    VTX_DST_SELS[1],
    VTX_DST_SELS[2],
    VTX_DST_SELS[3],
    ("USE_CONST_FIELDS", vtx::USE_CONST_FIELDS),
    ("DATA_FORMAT", vtx::DATA_FORMAT),
    ("NUM_FORMAT_ALL", vtx::NUM_FORMAT_ALL),
    ("FORMAT_COMP_ALL", vtx::FORMAT_COMP_ALL),
    ("SRF_MODE_ALL", vtx::SRF_MODE_ALL),
    ("OFFSET", vtx::OFFSET),
    ("ENDIAN_SWAP", vtx::ENDIAN_SWAP),
    ("CONST_BUF_NO_STRIDE", vtx::CONST_BUF_NO_STRIDE),
    ("MEGA_FETCH", vtx::MEGA_FETCH),
    ("ALT_CONST", vtx::ALT_CONST),
    ("W2_BITS21_31", Field::at(85, 11)),
    ("PAD", PAD),
];

/// The fields a listing names after an instruction's `;` (`NAME(value)`, each overwriting
/// its bits; an ALU group's `LITERALS(…)` is read before its first instruction).
fn extras(c: &mut Cursor<'_>, table: &[Named]) -> Result<Vec<(Field, u128)>> {
    let mut fields = Vec::new();
    loop {
        c.skip_space();
        if c.at_end() {
            return Ok(fields);
        }
        let at = c.at;
        let name = c.word();
        c.expect("(")?;
        if name == "LITERALS" && (std::ptr::eq(table, ALU_FIELDS) || std::ptr::eq(table, OP3_FIELDS)) {
            // Read by `literal_list` before the instruction.
            c.take_while(|ch| ch != ')');
            c.expect(")")?;
            continue;
        }
        let Some(&(_, field)) = table.iter().find(|(n, _)| *n == name) else {
            return c.fail_at(at, "a field of the instruction (`NAME(value)`)");
        };
        let v_at = c.at;
        let v = c.number()?;
        c.expect(")")?;
        if field.width < 64 && v >> field.width != 0 {
            return c.fail_at(v_at, format!("a value below {}", 1u64 << field.width));
        }
        fields.push((field, u128::from(v)));
    }
}

/// The literal words `LITERALS(0x… 0x…)` among an ALU instruction's fields, if named.
fn literal_list(c: &mut Cursor<'_>) -> Result<Option<Vec<u32>>> {
    let Some(i) = c.rest().find("LITERALS(") else { return Ok(None) };
    c.at += i + "LITERALS(".len();
    let mut words = Vec::new();
    loop {
        c.skip_space();
        if c.eat(")") {
            return Ok(Some(words));
        }
        if words.len() == 4 {
            return c.fail("`)` after at most four literal words");
        }
        words.push(c.u32()?);
    }
}

/// A control-flow instruction after its number `pc` (`ALU: ADDR(32) CNT(14) …`), with the
/// fields its `;` names.
fn cf_inst(c: &mut Cursor<'_>, pc: u32, extra: Option<Cursor<'_>>) -> Result<Cf> {
    let start = c.at;
    let value = match c.word() {
        "UNKNOWN" => {
            c.expect("(")?;
            let v = c.u32()?;
            c.expect(")")?;
            if !(0..64).contains(&v) || opcodes::cf_name(v).is_some() || opcodes::export_name(v).is_some() {
                return c.fail_at(start, "an undefined CF_INST below 0x40");
            }
            v
        }
        name => match named_cf(name) {
            Some(v) => v,
            None => return c.fail_at(start, "a control-flow instruction"),
        },
    };
    let word = match value {
        0x40.. => cf::ALU_CF_INST.put(u64::from(value - 0x40)),
        _ => cf::CF_INST.put(u64::from(value)),
    };
    // BARRIER unless the text says NO_BARRIER.
    let mut cf = Cf(word | cf::BARRIER.put(1u64));
    let kind = cf.kind();
    if kind != cf::CfKind::Normal || c.rest().starts_with(':') {
        c.expect(":")?;
    }
    if kind == cf::CfKind::Export {
        export(c, &mut cf)?;
    }
    // The compilers point a POP at the next instruction.
    if kind == cf::CfKind::Normal && cf.inst() == inst::POP {
        cf.0 |= cf::ADDR.put(u64::from(pc) + 1);
    }
    flags(c, &mut cf)?;
    if let Some(mut e) = extra {
        for (f, v) in extras(&mut e, cf_fields(&cf))? {
            cf.0 = cf.0 & !f.mask::<u64>() | f.put(v as u64);
        }
    }
    Ok(cf)
}

/// A fetch after its number, in a VTX clause (`vertex`) or a TEX one, with the fields its
/// `;` names; its padding word is `pad` unless it names its own (then `true`).
fn fetch_inst(c: &mut Cursor<'_>, vertex: bool, pad: u32, extra: Option<Cursor<'_>>) -> Result<(u128, bool)> {
    let save = c.at;
    let name = c.word();
    c.at = save;
    let vertex = vertex || matches!(name, "FETCH" | "SEMANTIC");
    let mut bits = if vertex { vtx_line(c)? } else { tex_line(c)? } | PAD.put(u128::from(pad));
    let mut own = false;
    if let Some(mut e) = extra {
        for (f, v) in extras(&mut e, if vertex { VTX_FIELDS } else { TEX_FIELDS })? {
            own |= f == PAD;
            bits = bits & !f.mask::<u128>() | f.put(v);
        }
    }
    Ok((bits, own))
}

/// What the assembler writes for a control-flow instruction's text (after `NN `), as
/// instruction `pc`: what a listing compares the instruction with to name the fields its
/// text does not carry.
pub(super) fn cf_canonical(text: &str, pc: u32) -> Option<Cf> {
    cf_inst(&mut Cursor::new(text), pc, None).ok()
}

/// What the assembler writes for a fetch's text (after its number) in a VTX clause
/// (`vertex`) or a TEX one, padded with `pad`.
pub(super) fn fetch_canonical(text: &str, vertex: bool, pad: u32) -> Option<u128> {
    fetch_inst(&mut Cursor::new(text), vertex, pad, None).map(|(bits, _)| bits).ok()
}

/// What the assembler writes for an ALU group's lines (`x: MUL …` each, with the literal
/// words given when `literals`): its instructions, then its literal words.
pub(super) fn group_canonical(lines: &[String], literals: Option<&[u32]>) -> Option<(Vec<Alu>, Vec<u32>)> {
    let mut g = Group::default();
    if let Some(l) = literals {
        g.literals = l.to_vec();
        g.explicit = true;
    }
    for line in lines {
        g.line(&mut Cursor::new(line), None).ok()?;
    }
    let words = g.words();
    let n = 2 * lines.len();
    let insts = words
        .chunks_exact(2)
        .take(lines.len())
        .map(|w| Alu::new(w.first().copied().unwrap_or(0), w.get(1).copied().unwrap_or(0)))
        .collect();
    Some((insts, words.get(n..).unwrap_or(&[]).to_vec()))
}
