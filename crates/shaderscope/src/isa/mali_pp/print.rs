//! The printer: Mesa's text of each unit (`ppir_disassemble_instr` and its `print_*`
//! functions in `ir/pp/disasm.c`), space for space: a destination's trailing space (`$1.x `
//! before the combiner's extra separator), the vector multiplier's space after its last
//! source, `.` alone for an empty write mask, `load..u1` for an unknown uniform source, `%f`
//! constants; an instruction's text ([`write_text`]); and how each step of the
//! [walk](super::walk) prints through it ([`PrintStep`]).

use super::asm;
use super::decode::{
    Branch, Combine, Ctrl, FloatAlu, Instruction, Sampler, TempWrite, Uniform, Unit, Varying, Vec4Alu,
    const_values,
};
use super::opcodes::{
    self, BRANCH_ALWAYS, BRANCH_COND, OUTMOD, Op, REG_DISCARD, SAMPLER_TYPE_CUBE, SAMPLER_TYPE_GENERIC, words,
};
use super::walk::Step;
use crate::isa::InstructionRecord;
use crate::isa::walk::{Annotate, Listing, PrintStep, Records};
use crate::print::float::{FloatStyle, write_f32_fixed};
use crate::print::{Line, Printer, Style};
use std::fmt::Write as _;

const XYZW: [&str; 4] = ["x", "y", "z", "w"];

fn comp(c: u32) -> &'static str {
    XYZW.get((c & 3) as usize).copied().unwrap_or("x")
}

/// The operation's name, or `opN` for an opcode without a row; its source count (0 for an
/// unknown one, as Mesa's zeroed table entry has).
fn op_name(line: &mut Line, op: Option<Op>, number: u32) -> u8 {
    line.style(Style::Mnemonic);
    let srcs = match op {
        Some(op) => {
            line.push_str(op.name);
            op.srcs
        }
        None => {
            line.push_str("op");
            line.push_u64(u64::from(number));
            0
        }
    };
    line.reset();
    srcs
}

/// `print_outmod`, part of the mnemonic.
fn outmod(line: &mut Line, modifier: u32) {
    let Some(text) = OUTMOD.get(modifier as usize).copied().flatten() else {
        return;
    };
    line.style(Style::Mnemonic);
    line.push_str(text);
    line.reset();
}

/// The unit suffix after the mnemonic (`.v0 `), part of it but for the space.
fn unit_suffix(line: &mut Line, unit: Unit) {
    line.style(Style::Mnemonic);
    line.push_str(opcodes::suffix(unit));
    line.reset();
    line.push_str(" ");
}

/// `print_reg`: `$N`, or a pipeline register.
fn reg(line: &mut Line, r: u32) {
    line.style(Style::Register);
    match opcodes::pipeline_register(r) {
        Some(name) => line.push_str(name),
        None => {
            line.push_str("$");
            line.push_u64(u64::from(r));
        }
    }
    line.reset();
}

/// `print_swizzle`: nothing for the identity 0xE4.
fn swizzle(line: &mut Line, s: u32) {
    if s & 0xff == 0xe4 {
        return;
    }
    line.style(Style::Register);
    line.push_str(".");
    for i in 0..4 {
        line.push_str(comp(s >> (2 * i)));
    }
    line.reset();
}

/// `print_mask`: nothing for 0xF, a lone `.` for 0.
fn mask(line: &mut Line, m: u32) {
    if m & 0xf == 0xf {
        return;
    }
    line.style(Style::Register);
    line.push_str(".");
    for (i, c) in XYZW.iter().enumerate() {
        if m >> i & 1 != 0 {
            line.push_str(c);
        }
    }
    line.reset();
}

/// `print_vector_source`.
fn vector_source(line: &mut Line, r: u32, special: Option<&str>, swz: u32, abs: bool, neg: bool) {
    modified(line, abs, neg, |line| {
        match special {
            Some(s) => special_register(line, s),
            None => reg(line, r),
        }
        swizzle(line, swz);
    });
}

/// `print_source_scalar`: register × 4 + component.
fn scalar_source(line: &mut Line, r: u32, special: Option<&str>, abs: bool, neg: bool) {
    modified(line, abs, neg, |line| match special {
        Some(s) => special_register(line, s),
        None => {
            reg(line, r >> 2);
            line.style(Style::Register);
            line.push_str(".");
            line.push_str(comp(r));
            line.reset();
        }
    });
}

/// One source operand with its modifiers: `-` before, `abs(…)` around.
fn modified(line: &mut Line, abs: bool, neg: bool, operand: impl FnOnce(&mut Line)) {
    line.start_operand();
    if neg {
        line.push_str("-");
    }
    if abs {
        line.push_str(words::ABS);
        line.push_str("(");
    }
    operand(line);
    if abs {
        line.push_str(")");
    }
    line.end_operand();
}

/// A source named by what it carries (`^v0`, `^s0`: the multiplier's result read by the adder).
fn special_register(line: &mut Line, name: &str) {
    line.style(Style::Register);
    line.push_str(name);
    line.reset();
}

/// `print_dest_scalar`, with its trailing space.
fn dest_scalar(line: &mut Line, r: u32) {
    line.start_operand();
    line.style(Style::Register);
    line.push_str("$");
    line.push_u64(u64::from(r >> 2));
    line.push_str(".");
    line.push_str(comp(r));
    line.reset();
    line.end_operand();
    line.push_str(" ");
}

fn literal_u(line: &mut Line, v: u32) {
    line.style(Style::Literal);
    line.push_u64(u64::from(v));
    line.reset();
}

/// `print_varying_source`: the varying's index by its alignment, and the offset register.
fn varying_source(line: &mut Line, v: &Varying) {
    line.start_operand();
    line.style(Style::Literal);
    match v.alignment {
        0 => {
            line.push_u64(u64::from(v.index >> 2));
            line.push_str(".");
            line.push_str(comp(v.index));
        }
        1 => {
            line.push_u64(u64::from(v.index >> 1));
            line.push_str(if v.index & 1 != 0 { ".zw" } else { ".xy" });
        }
        _ => line.push_u64(u64::from(v.index)),
    }
    line.reset();
    line.end_operand();
    if v.offset_vector != 15 {
        line.push_str("+");
        scalar_source(line, (v.offset_vector << 2) + v.offset_scalar, None, false, false);
    }
}

/// `print_varying`.
pub(crate) fn varying(line: &mut Line, v: &Varying) {
    line.style(Style::Mnemonic);
    line.push_str(words::LOAD);
    if v.source_type < 2 {
        line.push_str(words::PERSPECTIVE.get(v.perspective as usize).copied().unwrap_or(""));
    }
    line.reset();
    unit_suffix(line, Unit::Varying);
    line.start_operand();
    if v.dest == REG_DISCARD {
        line.style(Style::Register);
        line.push_str(words::DISCARD_DEST);
        line.reset();
    } else {
        line.style(Style::Register);
        line.push_str("$");
        line.push_u64(u64::from(v.dest));
        line.reset();
    }
    mask(line, v.mask);
    line.end_operand();
    line.push_str(" ");
    let reg_source = |line: &mut Line| vector_source(line, v.source, None, v.swizzle, v.absolute, v.negate);
    match v.source_type {
        1 => reg_source(line),
        2 => match v.perspective {
            0 => {
                line.push_str(words::CUBE);
                line.push_str("(");
                varying_source(line, v);
                line.push_str(")");
            }
            1 => {
                line.push_str(words::CUBE);
                line.push_str("(");
                reg_source(line);
                line.push_str(")");
            }
            2 => {
                line.push_str(words::NORMALIZE);
                line.push_str("(");
                reg_source(line);
                line.push_str(")");
            }
            _ => builtin(line, words::FRAG_COORD),
        },
        3 => builtin(line, if v.perspective != 0 { words::FRONT_FACING } else { words::POINT_COORD }),
        _ => varying_source(line, v),
    }
}

fn builtin(line: &mut Line, name: &str) {
    line.start_operand();
    line.style(Style::Register);
    line.push_str(name);
    line.reset();
    line.end_operand();
}

/// `print_sampler`.
pub(crate) fn sampler(line: &mut Line, s: &Sampler) {
    line.style(Style::Mnemonic);
    line.push_str(words::TEXLD);
    if s.lod_bias_en {
        line.push_str(words::LOD_BIAS);
    }
    match s.sampler_type {
        SAMPLER_TYPE_GENERIC => {}
        SAMPLER_TYPE_CUBE => line.push_str(words::TYPE_CUBE),
        t => {
            line.push_str(words::TYPE_N);
            line.push_u64(u64::from(t));
        }
    }
    line.reset();
    line.push_str(" ");
    line.start_operand();
    literal_u(line, s.index);
    line.end_operand();
    if s.offset_en {
        line.push_str("+");
        scalar_source(line, s.index_offset, None, false, false);
    }
    if s.lod_bias_en {
        line.push_str(" ");
        scalar_source(line, s.lod_bias, None, false, false);
    }
}

/// A uniform or temporary index by its alignment, as `%d` of the signed 16-bit index (C's
/// division, which truncates toward zero, and `& 1`/`& 3` of the two's complement).
fn aligned_index(line: &mut Line, index: i16, alignment: u32) {
    let i = i32::from(index);
    line.start_operand();
    line.style(Style::Literal);
    match alignment {
        2 => literal_inline(line, i64::from(i)),
        1 => {
            literal_inline(line, i64::from(i / 2));
            line.push_str(if i & 1 != 0 { ".zw" } else { ".xy" });
        }
        _ => {
            literal_inline(line, i64::from(i / 4));
            line.push_str(".");
            line.push_str(comp(i as u32));
        }
    }
    line.reset();
    line.end_operand();
}

fn literal_inline(line: &mut Line, v: i64) {
    if v < 0 {
        line.push_str("-");
    }
    line.push_u64(v.unsigned_abs());
}

/// `print_uniform`.
pub(crate) fn uniform(line: &mut Line, u: &Uniform) {
    line.style(Style::Mnemonic);
    line.push_str(words::LOAD);
    line.push_str(".");
    match opcodes::uniform_source(u.source) {
        Some(name) => line.push_str(name),
        None => {
            line.push_str(".u");
            line.push_u64(u64::from(u.source));
        }
    }
    line.reset();
    line.push_str(" ");
    aligned_index(line, u.index, u.alignment);
    if u.offset_en {
        line.push_str("+");
        scalar_source(line, u.offset_reg, None, false, false);
    }
}

/// `print_vec4_mul` (`unit` [`Unit::Vec4Mul`]) and `print_vec4_acc` ([`Unit::Vec4Acc`]).
pub(crate) fn vec4(line: &mut Line, f: &Vec4Alu, unit: Unit) {
    let acc = unit == Unit::Vec4Acc;
    let op = f.operation(unit);
    let srcs = op_name(line, op, f.op);
    outmod(line, f.dest_modifier);
    unit_suffix(line, unit);
    if f.mask != 0 {
        line.start_operand();
        reg_plain(line, f.dest);
        mask(line, f.mask);
        line.end_operand();
        line.push_str(" ");
    }
    let special = (acc && f.mul_in).then_some(opcodes::mul_result(unit));
    vector_source(line, f.arg0_source, special, f.arg0_swizzle, f.arg0_absolute, f.arg0_negate);
    if acc {
        if srcs > 1 {
            line.push_str(" ");
            vector_source(line, f.arg1_source, None, f.arg1_swizzle, f.arg1_absolute, f.arg1_negate);
        }
        return;
    }
    shift(line, op, f.op);
    line.push_str(" ");
    if srcs > 1 {
        vector_source(line, f.arg1_source, None, f.arg1_swizzle, f.arg1_absolute, f.arg1_negate);
    }
}

/// A multiplier's scale, `<<N` after the first source, where the operation is a scaled `mul`.
fn shift(line: &mut Line, op: Option<Op>, opcode: u32) {
    if op.is_some_and(|op| op.shift) {
        line.style(Style::Literal);
        line.push_str("<<");
        line.push_u64(u64::from(opcode));
        line.reset();
    }
}

/// `$N` whatever N is (a destination: Mesa prints 12–15 as numbers there).
fn reg_plain(line: &mut Line, r: u32) {
    line.style(Style::Register);
    line.push_str("$");
    line.push_u64(u64::from(r));
    line.reset();
}

/// `print_float_mul` (`unit` [`Unit::FloatMul`]) and `print_float_acc` ([`Unit::FloatAcc`]).
pub(crate) fn float(line: &mut Line, f: &FloatAlu, unit: Unit) {
    let acc = unit == Unit::FloatAcc;
    let op = f.operation(unit);
    let srcs = op_name(line, op, f.op);
    outmod(line, f.dest_modifier);
    unit_suffix(line, unit);
    if f.output_en {
        dest_scalar(line, f.dest);
    }
    let special = (acc && f.mul_in).then_some(opcodes::mul_result(unit));
    scalar_source(line, f.arg0_source, special, f.arg0_absolute, f.arg0_negate);
    shift(line, op, f.op);
    if srcs > 1 {
        line.push_str(" ");
        scalar_source(line, f.arg1_source, None, f.arg1_absolute, f.arg1_negate);
    }
}

/// `print_combine`.
pub(crate) fn combine(line: &mut Line, c: &Combine) {
    op_name(line, c.operation(), c.op);
    if !c.dest_vec {
        outmod(line, c.dest_modifier);
    }
    unit_suffix(line, Unit::Combine);
    if c.dest_vec {
        line.start_operand();
        reg_plain(line, c.vector_dest);
        mask(line, c.vector_mask);
        line.end_operand();
    } else {
        dest_scalar(line, c.dest);
    }
    line.push_str(" ");
    scalar_source(line, c.arg0_src, None, c.arg0_absolute, c.arg0_negate);
    line.push_str(" ");
    if c.arg1_en {
        if c.dest_vec {
            vector_source(line, c.vector_arg1_source, None, c.vector_arg1_swizzle, false, false);
        } else {
            scalar_source(line, c.arg1_src, None, c.arg1_absolute, c.arg1_negate);
        }
    }
}

/// `print_temp_write`.
pub(crate) fn temp_write(line: &mut Line, t: &TempWrite) {
    if t.is_fb_read() {
        line.style(Style::Mnemonic);
        line.push_str(if t.fb_source { words::FB_COLOR } else { words::FB_DEPTH });
        line.reset();
        line.push_str(" ");
        line.start_operand();
        reg_plain(line, t.fb_dest);
        line.end_operand();
        return;
    }
    line.style(Style::Mnemonic);
    line.push_str(words::STORE_TEMP);
    line.reset();
    line.push_str(" ");
    aligned_index(line, t.index, t.alignment);
    if t.offset_en {
        line.push_str("+");
        scalar_source(line, t.offset_reg, None, false, false);
    }
    line.push_str(" ");
    if t.alignment != 0 {
        line.start_operand();
        reg(line, t.source >> 2);
        line.end_operand();
    } else {
        scalar_source(line, t.source, None, false, false);
    }
}

/// `print_branch`.
pub(crate) fn branch(line: &mut Line, b: &Branch, pc: u32) {
    if b.discard {
        line.style(Style::Mnemonic);
        line.push_str(words::DISCARD);
        line.reset();
        return;
    }
    let cond = b.cond_mask();
    line.style(Style::Mnemonic);
    line.push_str(words::BRANCH);
    if cond != BRANCH_ALWAYS {
        line.push_str(".");
        line.push_str(BRANCH_COND.get(cond as usize).copied().unwrap_or(""));
    }
    line.reset();
    if cond != BRANCH_ALWAYS {
        line.push_str(" ");
        scalar_source(line, b.arg0_source, None, false, false);
        line.push_str(" ");
        scalar_source(line, b.arg1_source, None, false, false);
    }
    line.push_str(" ");
    line.start_operand();
    line.style(Style::Label);
    literal_inline(line, i64::from(b.absolute_target(pc)));
    line.reset();
    line.end_operand();
}

/// An IEEE half as the `f32` with the same value (every half is exactly a float).
pub(crate) fn half_to_f32_bits(h: u16) -> u32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from(h >> 10) & 0x1f;
    let man = u32::from(h) & 0x3ff;
    match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: normalise (value = man × 2^-24).
            let shift = man.leading_zeros() - 21; // brings the top bit to bit 10
            let m = (man << shift) & 0x3ff;
            let e = 127 - 15 + 1 - shift;
            sign | (e << 23) | (m << 13)
        }
        (31, 0) => sign | 0x7f80_0000,
        (31, _) => sign | 0x7fc0_0000 | (man << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    }
}

/// One constant as C's `printf("%f")` (glibc) prints the half converted to a float: exact
/// digits, ties to even, `inf`, `-inf`, `nan`, `-nan`.
pub(crate) fn half_fixed<W: std::fmt::Write + ?Sized>(out: &mut W, h: u16) {
    let bits = half_to_f32_bits(h);
    let neg = h >> 15 != 0;
    if h & 0x7c00 == 0x7c00 {
        let _ = out.write_str(match (h & 0x3ff != 0, neg) {
            (true, false) => "nan",
            (true, true) => "-nan",
            (false, false) => "inf",
            (false, true) => "-inf",
        });
        return;
    }
    let _ = write_f32_fixed(out, bits, FloatStyle::Ucrt);
}

/// `print_const`.
pub(crate) fn constant(line: &mut Line, which: u32, v: u128) {
    line.style(Style::Mnemonic);
    line.push_str(words::CONST.get(which as usize).copied().unwrap_or(""));
    line.reset();
    for h in const_values(v) {
        line.push_str(" ");
        line.start_operand();
        line.style(Style::Literal);
        half_fixed(line, h);
        line.reset();
        line.end_operand();
    }
}

/// The text of `unit`'s field `v` in the instruction at word `pc`.
pub(crate) fn unit(line: &mut Line, unit: Unit, v: u128, pc: u32) {
    match unit {
        Unit::Varying => varying(line, &Varying::decode(v)),
        Unit::Sampler => sampler(line, &Sampler::decode(v)),
        Unit::Uniform => uniform(line, &Uniform::decode(v)),
        Unit::Vec4Mul | Unit::Vec4Acc => vec4(line, &Vec4Alu::decode(v), unit),
        Unit::FloatMul | Unit::FloatAcc => float(line, &FloatAlu::decode(v), unit),
        Unit::Combine => combine(line, &Combine::decode(v)),
        Unit::TempWrite => temp_write(line, &TempWrite::decode(v)),
        Unit::Branch => branch(line, &Branch::decode(v), pc),
        Unit::Vec4Const0 => constant(line, 0, v),
        Unit::Vec4Const1 => constant(line, 1, v),
    }
}

/// The instruction's text as Mesa prints it after `@%6d: `: the units present, in order,
/// joined by `, ` (each one operand), then `, sync` and `, stop`; then what Mesa's text does
/// not carry where it is not what the assembler writes for it (`, count=7`, `, varying=0x…`:
/// see [`super::asm`]), `next` being the next instruction's control word.
pub(crate) fn write_text(line: &mut Line, inst: &Instruction, next: Option<Ctrl>) {
    let mut first = true;
    for (u, bits, _) in inst.units() {
        if !first {
            line.push_str(", ");
        }
        first = false;
        line.start_operand();
        unit(line, u, bits, inst.pc);
        line.end_operand();
    }
    for (on, flag) in [(inst.ctrl.sync(), words::SYNC), (inst.ctrl.stop(), words::STOP)] {
        if on {
            line.push_str(", ");
            line.style(Style::Directive);
            line.push_str(flag);
            line.reset();
        }
    }
    let ctrl = inst.ctrl;
    let (count, next_count, prefetch) = asm::derived_ctrl(ctrl, next);
    for (name, value, derived) in [
        (words::COUNT, ctrl.count(), count),
        (words::NEXT_COUNT, ctrl.next_count(), next_count),
        (words::PREFETCH, u32::from(ctrl.prefetch()), u32::from(prefetch)),
        (words::UNKNOWN, ctrl.unknown(), 0),
    ] {
        if value != derived {
            extra(line, name, |line| line.push_u64(u64::from(value)));
        }
    }
    if inst.words != asm::length(ctrl.count(), ctrl.words_by_fields()) {
        extra(line, words::WORDS, |line| line.push_u64(u64::from(inst.words)));
    }
    for (u, bits, _) in inst.units() {
        if asm::canonical(u, bits) != bits {
            extra(line, u.name(), |line| {
                let _ = write!(line, "0x{bits:x}");
            });
        }
    }
}

/// `, name=value`: a field Mesa's text does not carry.
fn extra(line: &mut Line, name: &str, value: impl FnOnce(&mut Line)) {
    line.push_str(", ");
    line.style(Style::Directive);
    line.push_str(name);
    line.reset();
    line.push_str("=");
    line.style(Style::Literal);
    value(line);
    line.reset();
}

/// `@%6d: ` (the word offset), as an address.
fn write_pc(line: &mut Line, pc: u32) {
    line.style(Style::Address);
    line.push_str("@");
    line.push_u64_right(u64::from(pc), 6);
    line.push_str(":");
    line.reset();
    line.push_str(" ");
}

/// What the control word says, for `dump`.
fn describe_ctrl(ctrl: Ctrl) -> String {
    let mut s = format!("control word: count {}", ctrl.count());
    if ctrl.stop() {
        s.push_str(", stop");
    }
    if ctrl.sync() {
        s.push_str(", sync");
    }
    s.push_str(", fields ");
    let names: Vec<&str> = Unit::ALL.iter().filter(|u| ctrl.has(**u)).map(|u| u.name()).collect();
    s.push_str(if names.is_empty() { "none" } else { "" });
    s.push_str(&names.join("|"));
    s.push_str(&format!(", next_count {}", ctrl.next_count()));
    if ctrl.prefetch() {
        s.push_str(", prefetch");
    }
    if ctrl.unknown() != 0 {
        s.push_str(&format!(", unknown 0x{:x}", ctrl.unknown()));
    }
    s
}

/// The line's text with the trailing spaces Mesa leaves inside it kept, but none at the end.
fn unit_text(line: &mut Line, u: Unit, bits: u128, pc: u32) -> String {
    line.start(None);
    unit(line, u, bits, pc);
    line.as_str().trim_end().to_string()
}

/// Mesa's line per instruction, `@` and its word offset then its text; a record per
/// instruction (its words, its text, each unit's text an operand); and for `dump` each
/// instruction a section titled with its listing text, its control word a field, each
/// unit's field a field over the bytes it starts in up to where the next begins (fields are
/// bit strings that share bytes), the bits after the last field as padding.
impl PrintStep for Step<'_> {
    fn list<P: Printer + ?Sized>(&self, l: &mut Listing<'_, P>) {
        let Step { inst, bytes, next } = *self;
        l.begin(
            inst.at,
            bytes.chunks_exact(4).filter_map(|w| w.first_chunk::<4>()).map(|w| u32::from_le_bytes(*w)),
        );
        write_pc(&mut l.line, inst.pc);
        write_text(&mut l.line, inst, next);
        l.end();
    }

    fn record<F: FnMut(InstructionRecord)>(&self, r: &mut Records<F>) {
        let Step { inst, bytes, next } = *self;
        write_text(r.start(inst.at), inst, next);
        r.take(
            inst.at,
            bytes
                .chunks_exact(4)
                .filter_map(|w| w.first_chunk::<4>())
                .map(|w| u32::from_le_bytes(*w))
                .collect(),
        );
    }

    fn annotate(&self, an: &mut Annotate<'_>) {
        let Step { inst, bytes, next } = *self;
        an.line.start(None);
        write_text(&mut an.line, inst, next);
        let title = format!("instruction @{}: {}", inst.pc, an.line.as_str().trim_end());
        let len = bytes.len() as u64;
        an.a.section(inst.at, len, title);
        an.a.field(inst.at, len.min(4), describe_ctrl(inst.ctrl));
        let body = inst.at + 4;
        let units: Vec<(Unit, u128, u32)> = inst.units().collect();
        let field_end = inst.ctrl.field_bits();
        for (i, (unit, bits, start)) in units.iter().enumerate() {
            let end_bit = start + unit.bits();
            let next = units.get(i + 1).map_or(end_bit.div_ceil(8), |n| n.2 / 8);
            let from = u64::from(start / 8);
            let to = u64::from(next).max(from + 1);
            let text = unit_text(&mut an.line, *unit, *bits, inst.pc);
            an.a.field(
                body + from,
                to - from,
                format_args!("{} (bits {}..{} after the control word): {text}", unit.name(), start, end_bit),
            );
        }
        let used = u64::from(field_end.div_ceil(8));
        let body_len = len.saturating_sub(4);
        if body_len > used {
            an.a.field(body + used, body_len - used, "padding (no unit field)");
        }
    }
}
