//! The printer: decaf's listing of each step of the [walk](super::walk), the instruction
//! records and the `dump` annotations, each instruction printed by its kind's `write_text`
//! ([`cf`], [`alu`], [`tex`], [`vtx`]); and the small pieces of listing text those share: a
//! styled token, an operand after a space, a flag, a number inside a label (`ADDR(32)`).

use super::alu;
use super::asm::{self, Named};
use super::cf;
use super::cf::ClauseKind;
use super::tex::{self, Tex};
use super::vtx::{self, Vtx};
use super::walk::Step;
use crate::isa::InstructionRecord;
use crate::isa::walk::{Annotate, Listing, PrintStep, Records};
use crate::print::{Line, Printer, Short, Style};

/// `n` in decimal, then spaces to `width` columns.
fn number_left(line: &mut Line, n: u64, width: usize) {
    push_number(line, n);
    line.push_spaces(width.saturating_sub(number_len(n)));
}

/// A fetch's text.
/// An ALU instruction as the listing and its record show it: its unit, then its text
/// (`x: MUL R0.x, R1.x, KC0[0].x`).
fn write_alu(line: &mut Line, unit: usize, inst: alu::Alu, number: u64, group: &alu::Group) {
    line.style(Style::Directive);
    line.push_str(alu::UNIT_NAMES.get(unit).copied().unwrap_or("?"));
    line.reset();
    line.push_str(": ");
    alu::write_text(line, inst, number as i64, group.literals.get(..group.literals_read).unwrap_or(&[]));
}

/// An empty line (no columns), as decaf puts between clauses and ALU groups.
fn blank<P: Printer + ?Sized>(l: &mut Listing<'_, P>) {
    l.line.start(None);
    l.end();
}

/// The annotation line's text with its column padding as single spaces; the line is emptied.
fn take_text(an: &mut Annotate<'_>) -> String {
    let text = an.line.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
    an.line.start(None);
    text
}

fn write_fetch(line: &mut Line, kind: ClauseKind, inst: u128) {
    match kind {
        ClauseKind::Tex => tex::write_text(line, Tex(inst)),
        ClauseKind::Vtx => vtx::write_text(line, Vtx(inst)),
    }
}

impl PrintStep for Step<'_> {
    fn list<P: Printer + ?Sized>(&self, l: &mut Listing<'_, P>) {
        match *self {
            Step::Cf { pc, at, cf, depth } => {
                l.begin(at, cf.words());
                let line = &mut l.line;
                line.push_spaces(2 * depth);
                line.style(Style::Address);
                if pc < 10 {
                    line.push_str("0");
                }
                line.push_u64(u64::from(pc));
                line.reset();
                line.push_str(" ");
                let start = line.len();
                cf::write_text(line, cf);
                if let Some(canon) = asm::cf_canonical(line.as_str().get(start..).unwrap_or(""), pc) {
                    // A clause's count and END_OF_PROGRAM follow from the lines after it.
                    let count = cf::COUNT.mask::<u64>() | cf::COUNT_3.mask::<u64>();
                    let follows = match cf.kind() {
                        cf::CfKind::Alu => cf::ALU_COUNT.mask::<u64>(),
                        _ if cf.fetch_clause().is_some() => count | cf::END_OF_PROGRAM.mask::<u64>(),
                        _ => cf::END_OF_PROGRAM.mask::<u64>(),
                    };
                    let canon = canon.0 & !follows | cf.0 & follows;
                    unshown(line, cf.0.into(), canon.into(), asm::cf_fields(&cf));
                }
                l.end();
            }
            Step::Group { number, at, depth, group, units, first } => {
                if !first {
                    blank(l);
                }
                let extra = group_extras(group, units, number);
                for (i, (inst, (unit, _))) in group.insts().iter().zip(units).enumerate() {
                    let at = at + 8 * i as u64;
                    let line = &mut l.line;
                    line.start(Some(at));
                    if l.columns.any() {
                        let mut words = [0u32; 6];
                        let [w0, w1] = inst.words();
                        words[0] = w0;
                        words[1] = w1;
                        let mut n = 2;
                        // The group's literals show with its last instruction.
                        if i + 1 == group.len {
                            for (w, lit) in
                                words.iter_mut().skip(2).zip(group.literals.iter().take(group.literal_words))
                            {
                                *w = *lit;
                                n += 1;
                            }
                        }
                        l.columns.write(line, Some(at), words.get(..n).unwrap_or(&[]).iter().copied());
                    }
                    line.push_spaces(2 * depth + 2);
                    if i == 0 {
                        line.style(Style::Address);
                        number_left(line, number, 3);
                        line.reset();
                    } else {
                        line.push_spaces(3);
                    }
                    line.push_str(" ");
                    write_alu(line, *unit, *inst, number, group);
                    if let Some(extra) = extra.get(i).filter(|e| !e.is_empty()) {
                        line.push_str(" ;");
                        line.push_str(extra);
                    }
                    l.end();
                }
            }
            Step::Fetch { number, at, depth, kind, inst, padding } => {
                blank(l);
                l.begin(at, Tex(inst).words());
                let line = &mut l.line;
                line.push_spaces(2 * depth + 2);
                line.style(Style::Address);
                number_left(line, number, 3);
                line.reset();
                line.push_spaces(4);
                let start = line.len();
                write_fetch(line, kind, inst);
                let text = line.as_str().get(start..).unwrap_or("");
                if let Some(canon) = asm::fetch_canonical(text, kind == ClauseKind::Vtx, padding) {
                    let vertex = kind == ClauseKind::Vtx || Tex(inst).is_vertex_fetch();
                    unshown(line, inst, canon, if vertex { asm::VTX_FIELDS } else { asm::TEX_FIELDS });
                }
                l.end();
            }
            Step::CfDone { ends, .. } => {
                blank(l);
                if ends {
                    l.line.start(None);
                    l.columns.write(&mut l.line, None, []);
                    l.line.style(Style::Directive);
                    l.line.push_str("END_OF_PROGRAM");
                    l.line.reset();
                    l.end();
                }
            }
            Step::Rest { code, gaps, padding, head: true } => rest(l, code, gaps, padding),
            Step::Rest { head: false, .. } => {}
        }
    }

    /// One record per control-flow instruction, ALU instruction (its text starts with its
    /// unit) and fetch.
    fn record<F: FnMut(InstructionRecord)>(&self, r: &mut Records<F>) {
        match *self {
            Step::Cf { at, cf, .. } => {
                cf::write_text(r.start(at), cf);
                r.take(at, cf.words().to_vec());
            }
            Step::Group { number, at, group, units, .. } => {
                for (i, (inst, (unit, _))) in group.insts().iter().zip(units).enumerate() {
                    let at = at + 8 * i as u64;
                    write_alu(r.start(at), *unit, *inst, number, group);
                    r.take(at, inst.words().to_vec());
                }
            }
            Step::Fetch { at, kind, inst, .. } => {
                write_fetch(r.start(at), kind, inst);
                r.take(at, Tex(inst).words().to_vec());
            }
            Step::CfDone { .. } | Step::Rest { .. } => {}
        }
    }

    /// Each control-flow instruction, ALU instruction, literal pair and fetch a field with
    /// its listing text, each clause a section. The caller claims the rest (padding no
    /// instruction reaches).
    fn annotate(&self, an: &mut Annotate<'_>) {
        match *self {
            Step::Cf { pc, at, cf, .. } => {
                an.line.start(None);
                cf::write_text(&mut an.line, cf);
                let text = format!("CF {pc:02}: {}", take_text(an));
                an.a.field(at, 8, text);
                if let Some((addr, count)) = cf.alu_clause() {
                    an.a.section(
                        at.saturating_sub(8 * u64::from(pc)) + 8 * u64::from(addr),
                        8 * u64::from(count),
                        format_args!("ALU clause of CF {pc:02}"),
                    );
                } else if let Some((kind, addr, count)) = cf.fetch_clause() {
                    let what = match kind {
                        ClauseKind::Tex => "TEX",
                        ClauseKind::Vtx => "VTX",
                    };
                    an.a.section(
                        at.saturating_sub(8 * u64::from(pc)) + 8 * u64::from(addr),
                        16 * u64::from(count),
                        format_args!("{what} clause of CF {pc:02}"),
                    );
                }
            }
            Step::Group { number, at, group, units, .. } => {
                let literals = group.literals.get(..group.literals_read).unwrap_or(&[]);
                for (i, (inst, (unit, _))) in group.insts().iter().zip(units).enumerate() {
                    an.line.start(None);
                    alu::write_text(&mut an.line, *inst, number as i64, literals);
                    let unit = alu::UNIT_NAMES.get(*unit).copied().unwrap_or("?");
                    let text = format!("ALU group {number} {unit}: {}", take_text(an));
                    an.a.field(at + 8 * i as u64, 8, text);
                }
                let lits = at + 8 * group.len as u64;
                for (pair, words) in
                    group.literals.chunks(2).take(group.literal_words.div_ceil(2)).enumerate()
                {
                    let shown = words.iter().take(group.literal_words.saturating_sub(2 * pair));
                    let mut text = format!("ALU group {number} literals {}:", 2 * pair);
                    for w in shown {
                        text.push_str(&format!(
                            " 0x{w:08X} ({})",
                            crate::print::float::f32_shortest_text(*w).as_str()
                        ));
                    }
                    let len = 4 * (group.literal_words.saturating_sub(2 * pair)).min(2) as u64;
                    an.a.field(lits + 8 * pair as u64, len, text);
                }
            }
            Step::Fetch { number, at, kind, inst, .. } => {
                an.line.start(None);
                write_fetch(&mut an.line, kind, inst);
                let text = format!("fetch {number}: {}", take_text(an));
                an.a.field(at, 16, text);
            }
            Step::CfDone { .. } | Step::Rest { .. } => {}
        }
    }
}

/// ` ; NAME(value) …`: the fields whose value in `actual` is not the one the assembler
/// writes for the text (`canonical`), so that the line assembles back to `actual`.
fn unshown(line: &mut Line, actual: u128, canonical: u128, table: &[Named]) {
    let mut first = true;
    for &(name, field) in table {
        let v = field.get(actual);
        if v == field.get(canonical) {
            continue;
        }
        line.push_str(if first { " ; " } else { " " });
        first = false;
        line.style(Style::Directive);
        line.push_str(name);
        line.push_str("(");
        if field.width >= 16 {
            line.push_str("0x");
            push_hex(line, v as u64, 1);
        } else {
            line.push_u64(v as u64);
        }
        line.push_str(")");
        line.reset();
    }
}

/// The fields each instruction of `group` has beyond what its text makes the assembler write
/// (` LITERALS(…)` on the first when the literal words are not the ones its operands give,
/// in the order the compilers write them), as text to append after ` ;`.
fn group_extras(group: &alu::Group, units: &[(usize, bool); 5], number: u64) -> Vec<String> {
    let lines: Vec<String> = group
        .insts()
        .iter()
        .zip(units)
        .map(|(inst, (unit, _))| {
            let mut line = Line::new();
            write_alu(&mut line, *unit, *inst, number, group);
            line.as_str().to_string()
        })
        .collect();
    let actual_lits = group.literals.get(..group.literal_words).unwrap_or(&[]);
    let Some((mut canon, lits)) = asm::group_canonical(&lines, None) else { return Vec::new() };
    let mut out = vec![String::new(); lines.len()];
    if lits != actual_lits {
        // The channels the operands have when the literal words are the group's own.
        match asm::group_canonical(&lines, Some(actual_lits)) {
            Some((c, _)) => canon = c,
            None => return Vec::new(),
        }
        if let Some(first) = out.first_mut() {
            first.push_str(" LITERALS(");
            for (i, w) in actual_lits.iter().enumerate() {
                if i > 0 {
                    first.push(' ');
                }
                first.push_str(&format!("0x{w:08X}"));
            }
            first.push(')');
        }
    }
    for ((inst, canon), text) in group.insts().iter().zip(&canon).zip(&mut out) {
        let table = if inst.is_op3() { asm::OP3_FIELDS } else { asm::ALU_FIELDS };
        let mut line = Line::new();
        unshown(&mut line, inst.0.into(), canon.0.into(), table);
        if let Some(rest) = line.as_str().strip_prefix(" ;") {
            text.push_str(rest);
        }
    }
    out
}

/// Before the program: the padding word of its fetches when it is not gshCompile's, and the
/// words no instruction reaches (`; data at +0x190: 0x00B44C42 …`; a run of zeros only at
/// the end, as `; zeros at +0x200: 256 bytes`), so that the listing assembles back to every
/// word of the program.
fn rest<P: Printer + ?Sized>(
    l: &mut Listing<'_, P>,
    code: &[u8],
    gaps: &[(usize, usize)],
    padding: Option<u32>,
) {
    let comment = |l: &mut Listing<'_, P>, text: &str| {
        l.line.start(None);
        l.columns.write(&mut l.line, None, []);
        l.line.style(Style::Comment);
        l.line.push_str(text);
        l.line.reset();
        l.end();
    };
    if let Some(p) = padding.filter(|&p| p != asm::PAD_FILL) {
        comment(l, &format!("; fetch padding 0x{p:08X}"));
    }
    for &(start, end) in gaps {
        let start = start.next_multiple_of(4);
        let end = end - end % 4;
        let Some(bytes) = code.get(start..end).filter(|b| !b.is_empty()) else { continue };
        if bytes.iter().all(|&b| b == 0) {
            if end == code.len() - code.len() % 4 {
                comment(l, &format!("; zeros at +0x{start:x}: {} bytes", bytes.len()));
            }
            continue;
        }
        for (k, chunk) in bytes.chunks(32).enumerate() {
            let mut text = format!("; data at +0x{:x}:", start + 32 * k);
            for w in chunk.chunks_exact(4).filter_map(|w| w.first_chunk::<4>()) {
                text.push_str(&format!(" 0x{:08X}", u32::from_le_bytes(*w)));
            }
            comment(l, &text);
        }
    }
}

/// The instruction name, styled as a mnemonic.
#[inline]
pub(super) fn mnemonic(line: &mut Line, name: &str) {
    line.style(Style::Mnemonic);
    line.push_str(name);
    line.reset();
}

/// A space, then one operand that `body` writes.
#[inline]
pub(super) fn operand(line: &mut Line, body: impl FnOnce(&mut Line)) {
    line.push_str(" ");
    line.start_operand();
    body(line);
    line.end_operand();
}

/// A space, then a modifier of the instruction (`NO_BARRIER`, `VALID_PIX`).
#[inline]
pub(super) fn flag(line: &mut Line, text: &str) {
    line.push_str(" ");
    line.style(Style::Directive);
    line.push_str(text);
    line.reset();
}

/// `prefix`, `n` in decimal, `suffix` as one token of `style` (`ADDR(32)`).
#[inline]
pub(super) fn number_in(line: &mut Line, style: Style, prefix: &str, n: u32, suffix: &str) {
    line.style(style);
    line.push_str(prefix);
    push_number(line, u64::from(n));
    line.push_str(suffix);
    line.reset();
}

/// `v` in upper-case hexadecimal with at least `digits` digits.
pub(super) fn push_hex(line: &mut Line, v: u64, digits: usize) {
    const HEX: [&str; 16] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"];
    let need = (64 - v.leading_zeros() as usize).div_ceil(4).clamp(digits.clamp(1, 16), 16);
    for i in (0..need).rev() {
        line.push_str(HEX.get((v >> (4 * i) & 0xf) as usize).copied().unwrap_or("0"));
    }
}

/// `n` in decimal: register, constant, group and slot numbers (below 2048) from a table.
#[inline]
pub(super) fn push_number(line: &mut Line, n: u64) {
    match NUMBERS.get(n as usize) {
        Some(s) => line.push_short(s),
        None => line.push_u64(n),
    }
}

/// Decimal digits of `n` below 2048.
pub(super) fn number_len(n: u64) -> usize {
    NUMBERS.get(n as usize).map_or(20, |s| s.as_str().len())
}

/// `0` to `2047`.
static NUMBERS: [Short<4>; 2048] = numbers();

// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn numbers() -> [Short<4>; 2048] {
    let mut t = [Short::new(""); 2048];
    let mut v = 0;
    while v < 2048 {
        let mut b = [0u8; 4];
        let len = if v >= 1000 {
            4
        } else if v >= 100 {
            3
        } else if v >= 10 {
            2
        } else {
            1
        };
        let mut i = len;
        let mut x = v;
        while i > 0 {
            b[i - 1] = b'0' + (x % 10) as u8;
            x /= 10;
            i -= 1;
        }
        let (digits, _) = b.split_at(len);
        t[v] = Short::from_ascii(digits);
        v += 1;
    }
    t
}
