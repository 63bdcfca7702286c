//! Unit tests of the Latte decoder and listing, on hand-encoded words: each field set by
//! its name in AMD's R700 document, the text as decaf-emu prints it (or as the module
//! documentation says where this listing differs from decaf, and why).

use super::alu::{self, Alu};
use super::cf::{self, Cf};
use super::tex::{self, Tex};
use super::vtx::{self, Vtx};
use super::*;
use crate::print::{Html, Line, TextBuf};
use crate::toolkit::Field;

fn cfw(fields: &[(Field, u32)]) -> Cf {
    Cf(fields.iter().fold(0u64, |v, (f, x)| v | f.put(u64::from(*x))))
}

fn aluw(fields: &[(Field, u32)]) -> Alu {
    Alu(fields.iter().fold(0u64, |v, (f, x)| v | f.put(u64::from(*x))))
}

fn fetchw(fields: &[(Field, u32)]) -> u128 {
    fields.iter().fold(0u128, |v, (f, x)| v | f.put(u128::from(*x)))
}

/// `f` widened to `width` bits: the four selects of a swizzle (or the three offsets, the
/// four coordinate types) set at once.
fn wide(f: Field, width: u8) -> Field {
    Field::at(f.shift, width)
}

fn cf_text(c: Cf) -> String {
    let mut l = Line::new();
    cf::write_text(&mut l, c);
    l.as_str().to_string()
}

fn alu_text(a: Alu, group: i64, literals: &[u32]) -> String {
    let mut l = Line::new();
    alu::write_text(&mut l, a, group, literals);
    l.as_str().to_string()
}

fn tex_text(t: u128) -> String {
    let mut l = Line::new();
    tex::write_text(&mut l, Tex(t));
    l.as_str().to_string()
}

fn vtx_text(v: u128) -> String {
    let mut l = Line::new();
    vtx::write_text(&mut l, Vtx(v));
    l.as_str().to_string()
}

/// `name` as decaf pads it: 15 columns and a space.
fn pad(name: &str) -> String {
    format!("{name:<15} ")
}

fn normal(inst: u32, more: &[(Field, u32)]) -> Cf {
    let mut f = vec![(cf::CF_INST, inst), (cf::BARRIER, 1)];
    f.extend_from_slice(more);
    cfw(&f)
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn listing(code: &[u8], opts: &DisasmOptions) -> (String, Result<()>) {
    let mut t = TextBuf::default();
    let r = write_listing(code, 0x40, opts, &mut t);
    (t.as_str().to_string(), r)
}

#[test]
fn every_normal_cf_instruction_has_its_name_and_fields() {
    use cf::inst::*;
    // Clause instructions: ADDR, CNT (COUNT + COUNT_3 + 1), then the flags in decaf's order.
    let tex = normal(
        TEX,
        &[
            (cf::ADDR, 176),
            (cf::COUNT, 2),
            (cf::COUNT_3, 1),
            (cf::COND, 2),
            (cf::CF_CONST, 5),
            (cf::WHOLE_QUAD_MODE, 1),
            (cf::VALID_PIXEL_MODE, 1),
        ],
    );
    assert_eq!(cf_text(tex), "TEX: ADDR(176) CNT(11) CND(BOOL) CF_CONST(5) WHOLE_QUAD VALID_PIX");
    assert_eq!(cf_text(cfw(&[(cf::CF_INST, VTX), (cf::ADDR, 4)])), "VTX: ADDR(4) CNT(1) NO_BARRIER");
    assert_eq!(
        cf_text(normal(VTX_TC, &[(cf::ADDR, 6), (cf::COND, 3)])),
        "VTX_TC: ADDR(6) CNT(1) CND(NOT_BOOL) CF_CONST(0)"
    );
    // Loops: CF_CONST for LOOP_START and LOOP_END without a condition; the jump addresses.
    assert_eq!(
        cf_text(normal(LOOP_START, &[(cf::CF_CONST, 3), (cf::ADDR, 9)])),
        "LOOP_START CF_CONST(3) FAIL_JUMP_ADDR(9)"
    );
    assert_eq!(cf_text(normal(LOOP_START_DX10, &[(cf::ADDR, 7)])), "LOOP_START_DX10 FAIL_JUMP_ADDR(7)");
    assert_eq!(
        cf_text(normal(LOOP_START_NO_AL, &[(cf::ADDR, 7), (cf::VALID_PIXEL_MODE, 1)])),
        "LOOP_START_NO_AL FAIL_JUMP_ADDR(7) VALID_PIX"
    );
    assert_eq!(cf_text(normal(LOOP_END, &[(cf::ADDR, 2)])), "LOOP_END CF_CONST(0) PASS_JUMP_ADDR(2)");
    assert_eq!(
        cf_text(normal(LOOP_CONTINUE, &[(cf::ADDR, 5), (cf::POP_COUNT, 1)])),
        "LOOP_CONTINUE ADDR(5) POP_CNT(1)"
    );
    assert_eq!(cf_text(cfw(&[(cf::CF_INST, LOOP_BREAK), (cf::ADDR, 5)])), "LOOP_BREAK ADDR(5) NO_BARRIER");
    // Jumps, calls, else, return.
    assert_eq!(cf_text(normal(JUMP, &[(cf::POP_COUNT, 1), (cf::ADDR, 9)])), "JUMP POP_CNT(1) ADDR(9)");
    assert_eq!(cf_text(normal(ELSE, &[(cf::POP_COUNT, 1), (cf::ADDR, 18)])), "ELSE POP_CNT(1) ADDR(18)");
    assert_eq!(
        cf_text(normal(CALL, &[(cf::CALL_COUNT, 2), (cf::ADDR, 30), (cf::COND, 1)])),
        "CALL CALL_COUNT(2) CND(FALSE) CF_CONST(0) ADDR(30)"
    );
    assert_eq!(cf_text(cfw(&[(cf::CF_INST, CALL_FS)])), "CALL_FS NO_BARRIER");
    assert_eq!(cf_text(normal(RETURN, &[])), "RETURN");
    // POP_JUMP jumps to ADDR (decaf does not show it).
    assert_eq!(
        cf_text(normal(POP_JUMP, &[(cf::POP_COUNT, 2), (cf::ADDR, 3)])),
        "POP_JUMP POP_CNT(2) ADDR(3)"
    );
    // Push/pop, kill, GS emits, the rest.
    assert_eq!(cf_text(normal(PUSH, &[(cf::COND, 2), (cf::CF_CONST, 1)])), "PUSH CND(BOOL) CF_CONST(1)");
    assert_eq!(cf_text(normal(PUSH_ELSE, &[(cf::POP_COUNT, 1)])), "PUSH_ELSE POP_CNT(1)");
    assert_eq!(
        cf_text(normal(POP, &[(cf::POP_COUNT, 1), (cf::VALID_PIXEL_MODE, 1)])),
        "POP POP_CNT(1) VALID_PIX"
    );
    assert_eq!(cf_text(normal(POP_PUSH, &[])), "POP_PUSH");
    assert_eq!(cf_text(normal(POP_PUSH_ELSE, &[(cf::POP_COUNT, 3)])), "POP_PUSH_ELSE POP_CNT(3)");
    assert_eq!(cf_text(normal(KILL, &[(cf::COND, 3), (cf::CF_CONST, 2)])), "KILL CND(NOT_BOOL) CF_CONST(2)");
    assert_eq!(cf_text(normal(EMIT_VERTEX, &[])), "EMIT_VERTEX");
    assert_eq!(cf_text(cfw(&[(cf::CF_INST, EMIT_CUT_VERTEX)])), "EMIT_CUT_VERTEX NO_BARRIER");
    assert_eq!(cf_text(cfw(&[(cf::CF_INST, CUT_VERTEX)])), "CUT_VERTEX NO_BARRIER");
    assert_eq!(cf_text(normal(END_PROGRAM, &[])), "END_PROGRAM");
    assert_eq!(cf_text(normal(0, &[])), "NOP");
    assert_eq!(cf_text(normal(WAIT_ACK, &[])), "WAIT_ACK");
    assert_eq!(cf_text(normal(TEX_ACK, &[(cf::ADDR, 8)])), "TEX_ACK: ADDR(8) CNT(1)");
    assert_eq!(cf_text(normal(VTX_ACK, &[(cf::ADDR, 8)])), "VTX_ACK: ADDR(8) CNT(1)");
    assert_eq!(cf_text(normal(VTX_TC_ACK, &[(cf::ADDR, 8)])), "VTX_TC_ACK: ADDR(8) CNT(1)");
    // CF_INST 0x1E and 0x1F are not R700 instructions.
    assert_eq!(cf_text(normal(0x1E, &[])), "UNKNOWN(0x1E) UNK_FORMAT");
    assert!(normal(0x1F, &[]).name().is_none());
}

#[test]
fn alu_clause_instructions_show_their_kcache_windows() {
    let names = [
        "ALU",
        "ALU_PUSH_BEFORE",
        "ALU_POP_AFTER",
        "ALU_POP2_AFTER",
        "ALU_EXT",
        "ALU_CONTINUE",
        "ALU_BREAK",
        "ALU_ELSE_AFTER",
    ];
    for (i, name) in names.iter().enumerate() {
        let c = cfw(&[
            (cf::ALU_CF_INST, 8 + i as u32),
            (cf::ALU_ADDR, 32),
            (cf::ALU_COUNT, 13),
            (cf::BARRIER, 1),
        ]);
        assert_eq!(c.kind(), CfKind::Alu);
        assert_eq!(cf_text(c), format!("{name}: ADDR(32) CNT(14)"));
    }
    // Lock 1 set (16 constants), lock 2 sets (32), 2 sets indexed by the loop index.
    let c = cfw(&[
        (cf::ALU_CF_INST, 8),
        (cf::ALU_ADDR, 478),
        (cf::ALU_COUNT, 1),
        (cf::KCACHE_MODE0, 1),
        (cf::KCACHE_BANK0, 1),
        (cf::KCACHE_MODE1, 3),
        (cf::KCACHE_BANK1, 3),
        (cf::KCACHE_ADDR1, 2),
        (cf::WHOLE_QUAD_MODE, 1),
        (cf::ALT_CONST, 1),
    ]);
    assert_eq!(
        cf_text(c),
        "ALU: ADDR(478) CNT(2) NO_BARRIER WHOLE_QUAD KCACHE0(CB1:0-15) KCACHE1(CB3:AL+32-AL+63) ALT_CONST"
    );
    let c = cfw(&[
        (cf::ALU_CF_INST, 9),
        (cf::KCACHE_MODE0, 2),
        (cf::KCACHE_BANK0, 15),
        (cf::KCACHE_ADDR0, 255),
        (cf::BARRIER, 1),
    ]);
    assert_eq!(cf_text(c), "ALU_PUSH_BEFORE: ADDR(0) CNT(1) KCACHE0(CB15:4080-4111)");
}

#[test]
fn exports_show_their_slot_register_swizzle_and_burst() {
    use cf::inst::*;
    let exp = |inst: u32, more: &[(Field, u32)]| {
        let mut f = vec![(cf::CF_INST, inst), (cf::BARRIER, 1), (wide(cf::SEL_X, 12), 0x688)];
        f.extend_from_slice(more);
        cfw(&f)
    };
    assert_eq!(
        cf_text(exp(EXP_DONE, &[(cf::ARRAY_BASE, 60), (cf::TYPE, 1), (cf::RW_GPR, 1)])),
        "EXP_DONE: POS0, R1.xyzw"
    );
    assert_eq!(
        cf_text(exp(
            EXP,
            &[(cf::ARRAY_BASE, 1), (cf::TYPE, 2), (cf::RW_GPR, 3), (cf::BURST_COUNT, 2), (cf::ELEM_SIZE, 3)]
        )),
        "EXP: PARAM1, R3.xyzw ELEM_SIZE(3) BURSTCNT(2)"
    );
    // Selects 0 and 1, and masked components; relative to the loop index; flags.
    let swiz = cfw(&[
        (cf::CF_INST, EXP_DONE),
        (wide(cf::SEL_X, 12), 5 << 3 | 4 << 6 | 7 << 9),
        (cf::RW_GPR, 4),
        (cf::RW_REL, 1),
        (cf::WHOLE_QUAD_MODE, 1),
        (cf::VALID_PIXEL_MODE, 1),
    ]);
    assert_eq!(cf_text(swiz), "EXP_DONE: PIX0, R[AL + 4].x10_ NO_BARRIER WHOLE_QUAD VALID_PIX");
    assert_eq!(cf_text(exp(EXP, &[(cf::TYPE, 3), (cf::ARRAY_BASE, 9)])), "EXP: INVALID9, R0.xyzw");
    // Memory exports: byte address (dwords ×4, scratch and reduction ×16), component mask,
    // array size; indexed forms name the index register.
    let mem = |inst: u32, more: &[(Field, u32)]| {
        let mut f =
            vec![(cf::CF_INST, inst), (cf::BARRIER, 1), (cf::COMP_MASK, 0b1011), (cf::ARRAY_SIZE, 16)];
        f.extend_from_slice(more);
        cfw(&f)
    };
    assert_eq!(
        cf_text(mem(MEM_STREAM0, &[(cf::ARRAY_BASE, 3), (cf::RW_GPR, 2)])),
        "MEM_STREAM0: WRITE(12), R2.xy_w ARRAY_SIZE(16)"
    );
    assert_eq!(
        cf_text(mem(MEM_RING, &[(cf::ARRAY_BASE, 4), (cf::TYPE, 1), (cf::INDEX_GPR, 5), (cf::RW_GPR, 1)])),
        "MEM_RING: WRITE(16 + R5), R1.xy_w ARRAY_SIZE(16)"
    );
    assert_eq!(
        cf_text(mem(MEM_SCRATCH, &[(cf::ARRAY_BASE, 2), (cf::TYPE, 2)])),
        "MEM_SCRATCH: READ(32), R0.xy_w ARRAY_SIZE(16)"
    );
    assert_eq!(
        cf_text(mem(MEM_REDUCTION, &[(cf::ARRAY_BASE, 1), (cf::TYPE, 3)])),
        "MEM_REDUCTION: READ(16 + R0), R0.xy_w ARRAY_SIZE(16)"
    );
    assert_eq!(cf_text(mem(0x22, &[(cf::TYPE, 2)])), "MEM_STREAM2: INVALID_READ, R0.xy_w ARRAY_SIZE(16)");
    assert_eq!(
        cf_text(mem(MEM_EXPORT, &[(cf::ARRAY_BASE, 1)])),
        "MEM_EXPORT: WRITE(4), R0.xy_w ARRAY_SIZE(16)"
    );
    assert_eq!(cf_text(mem(0x29, &[])), "UNKNOWN(0x29): WRITE(0), R0.xy_w ARRAY_SIZE(16)");
}

#[test]
fn alu_instructions_show_every_field() {
    let mov = |more: &[(Field, u32)]| {
        let mut f = vec![(alu::OP2_INST, 0x19), (alu::WRITE_MASK, 1), (alu::DST_GPR, 1), (alu::DST_CHAN, 2)];
        f.extend_from_slice(more);
        aluw(&f)
    };
    assert_eq!(
        alu_text(mov(&[(alu::SRC0_SEL, 5), (alu::SRC0_CHAN, 3)]), 1, &[]),
        format!("{}R1.z, R5.w", pad("MOV"))
    );
    // Output modifiers; none shown with UPDATE_EXECUTE_MASK (the field means something else).
    for (omod, name) in [(1, "MOV*2"), (2, "MOV*4"), (3, "MOV/2")] {
        assert_eq!(alu_text(mov(&[(alu::OMOD, omod)]), 1, &[]), format!("{}R1.z, R0.x", pad(name)));
    }
    assert_eq!(
        alu_text(mov(&[(alu::OMOD, 1), (alu::UPDATE_EXECUTE_MASK, 1), (alu::UPDATE_PRED, 1)]), 1, &[]),
        format!("{}R1.z, R0.x UPDATE_EXEC_MASK UPDATE_PRED", pad("MOV"))
    );
    // No write: ____. Negate and absolute; kcache banks; constant file; relative addressing.
    let add = aluw(&[
        (alu::OP2_INST, 0),
        (alu::SRC0_SEL, 130),
        (alu::SRC0_CHAN, 1),
        (alu::SRC0_NEG, 1),
        (alu::SRC0_ABS, 1),
        (alu::SRC1_SEL, 161),
        (alu::SRC1_ABS, 1),
    ]);
    assert_eq!(alu_text(add, 1, &[]), format!("{}____, -|KC0[2].y|, |KC1[1].x|", pad("ADD")));
    let rel = aluw(&[
        (alu::OP2_INST, 1),
        (alu::WRITE_MASK, 1),
        (alu::DST_GPR, 2),
        (alu::DST_REL, 1),
        (alu::SRC0_SEL, 256 + 12),
        (alu::SRC0_REL, 1),
        (alu::SRC0_CHAN, 3),
        (alu::SRC1_SEL, 3),
        (alu::SRC1_REL, 1),
        (alu::INDEX_MODE, 4),
    ]);
    assert_eq!(alu_text(rel, 1, &[]), format!("{}R2[AL].x, C12[AL].w, R3[AL].x", pad("MUL")));
    for (mode, text) in [
        (0, "[AR.x]"),
        (1, "[AR.y]"),
        (2, "[AR.z]"),
        (3, "[AR.w]"),
        (5, "[GLOBAL]"),
        (6, "[GLOBAL+AR.x]"),
        (7, "[UNKNOWN]"),
    ] {
        let a =
            aluw(&[(alu::OP2_INST, 0x19), (alu::SRC0_SEL, 7), (alu::SRC0_REL, 1), (alu::INDEX_MODE, mode)]);
        assert_eq!(alu_text(a, 1, &[]), format!("{}____, R7{text}.x", pad("MOV")));
    }
    // Inline constants, PV and PS of the group before, the R700 double halves.
    let two = |a: u32, b: u32, chan: u32| {
        aluw(&[
            (alu::OP2_INST, 0),
            (alu::SRC0_SEL, a),
            (alu::SRC0_CHAN, chan),
            (alu::SRC1_SEL, b),
            (alu::SRC1_CHAN, chan),
        ])
    };
    assert_eq!(alu_text(two(248, 249, 0), 7, &[]), format!("{}____, 0.0f, 1.0f", pad("ADD")));
    assert_eq!(alu_text(two(250, 251, 0), 7, &[]), format!("{}____, 1, -1", pad("ADD")));
    assert_eq!(alu_text(two(252, 244, 0), 7, &[]), format!("{}____, 0.5f, 1.0_L", pad("ADD")));
    assert_eq!(alu_text(two(254, 255, 2), 7, &[]), format!("{}____, PV6.z, PS6", pad("ADD")));
    // A literal: its bits and its value; channel w needs four literals.
    assert_eq!(
        alu_text(two(253, 253, 3), 7, &[0, 0, 0, 0xC049_0FDB]),
        format!("{}____, (0xC0490FDB, -3.1415927), (0xC0490FDB, -3.1415927)", pad("ADD"))
    );
    assert_eq!(alu_text(two(253, 0, 1), 7, &[0]), format!("{}____, (missing literal), R0.y", pad("ADD")));
    // CLAMP, bank swizzles, predicate selects.
    let flags = |more: &[(Field, u32)]| {
        let mut f = vec![(alu::OP2_INST, 0x19)];
        f.extend_from_slice(more);
        aluw(&f)
    };
    for (v, name) in [
        (1, "VEC_021"),
        (2, "VEC_120"),
        (3, "VEC_102"),
        (4, "VEC_201"),
        (5, "VEC_210"),
        (6, "BANK_SWIZZLE(6)"),
    ] {
        assert_eq!(
            alu_text(flags(&[(alu::BANK_SWIZZLE, v)]), 1, &[]),
            format!("{}____, R0.x {name}", pad("MOV"))
        );
    }
    assert_eq!(
        alu_text(flags(&[(alu::CLAMP, 1), (alu::PRED_SEL, 2)]), 1, &[]),
        format!("{}____, R0.x CLAMP PRED_SEL_ZERO", pad("MOV"))
    );
    assert_eq!(
        alu_text(flags(&[(alu::PRED_SEL, 3)]), 1, &[]),
        format!("{}____, R0.x PRED_SEL_ONE", pad("MOV"))
    );
    assert_eq!(
        alu_text(flags(&[(alu::PRED_SEL, 1)]), 1, &[]),
        format!("{}____, R0.x PRED_SEL(1)", pad("MOV"))
    );
    // Transcendental-only operations always show their scalar swizzle.
    for (v, name) in [(0, "SCL_210"), (1, "SCL_122"), (2, "SCL_212"), (3, "SCL_221"), (4, "BANK_SWIZZLE(4)")]
    {
        let a = aluw(&[(alu::OP2_INST, 0x66), (alu::BANK_SWIZZLE, v), (alu::SRC0_SEL, 161)]);
        assert_eq!(alu_text(a, 1, &[]), format!("{}____, KC1[1].x {name}", pad("RECIP_IEEE")));
    }
    // OP3: three sources (the third negated), always writes; no OMOD or update flags.
    let muladd = aluw(&[
        (alu::OP3_INST, 0x10),
        (alu::DST_GPR, 123),
        (alu::DST_CHAN, 1),
        (alu::SRC0_SEL, 1),
        (alu::SRC0_CHAN, 2),
        (alu::SRC1_SEL, 130),
        (alu::SRC2_SEL, 254),
        (alu::SRC2_NEG, 1),
        (alu::SRC2_CHAN, 1),
    ]);
    assert!(muladd.is_op3());
    assert_eq!(alu_text(muladd, 1, &[]), format!("{}R123.y, R1.z, KC0[2].x, -PV0.y", pad("MULADD")));
}

#[test]
fn every_r700_alu_operation_has_a_name_and_unknown_ones_show_their_number() {
    let mut op2 = 0;
    for code in 0..128u32 {
        if let Some(op) = opcodes::op2(code) {
            op2 += 1;
            let a = aluw(&[(alu::OP2_INST, code)]);
            assert!(alu_text(a, 1, &[]).starts_with(op.name));
        }
    }
    let op3 = (0..32u32).filter(|&c| opcodes::op3(c).is_some()).count();
    // R700: 115 OP2 operations (with R600's MOVA_GPR_INT), 22 OP3.
    assert_eq!((op2, op3), (115, 22));
    // Evergreen's operations in decaf's table are not R700's: shown with their number and
    // every source the encoding has.
    assert_eq!(
        alu_text(aluw(&[(alu::OP2_INST, 0x54), (alu::SRC1_SEL, 3)]), 1, &[]),
        format!("{}____, R0.x, R3.x", pad("OP2_INST(84)"))
    );
    assert_eq!(
        alu_text(aluw(&[(alu::OP2_INST, 0x80)]), 1, &[]),
        format!("{}____, R0.x, R0.x", pad("OP2_INST(128)"))
    );
    assert_eq!(
        alu_text(aluw(&[(alu::OP3_INST, 4)]), 1, &[]),
        format!("{}R0.x, R0.x, R0.x, R0.x", pad("OP3_INST(4)"))
    );
    // A source select R700 leaves undefined (Evergreen's LDS_OQ_A).
    assert_eq!(
        alu_text(aluw(&[(alu::OP2_INST, 0x19), (alu::SRC0_SEL, 219)]), 1, &[]),
        format!("{}____, UNKNOWN(219)", pad("MOV"))
    );
}

#[test]
fn where_decaf_and_the_r700_document_differ() {
    // NOT_INT: one source in the ISA; decaf prints two, as the corpus shows
    // (`NOT_INT         R126.y, R1.z, 0.0f`), and that is kept.
    let not = aluw(&[
        (alu::OP2_INST, 0x33),
        (alu::WRITE_MASK, 1),
        (alu::DST_GPR, 126),
        (alu::DST_CHAN, 1),
        (alu::SRC0_SEL, 1),
        (alu::SRC0_CHAN, 2),
        (alu::SRC1_SEL, 248),
    ]);
    assert_eq!(alu_text(not, 1, &[]), "NOT_INT         R126.y, R1.z, 0.0f");
    // PRED_SET_CLR has no source, PRED_SET_INV, PRED_SET_RESTORE and MAX4 one (decaf: two).
    assert_eq!(
        alu_text(aluw(&[(alu::OP2_INST, 0x26), (alu::SRC1_SEL, 253)]), 1, &[]),
        format!("{}____", pad("PRED_SET_CLR"))
    );
    assert_eq!(
        alu_text(aluw(&[(alu::OP2_INST, 0x24), (alu::SRC1_SEL, 9)]), 1, &[]),
        format!("{}____, R0.x", pad("PRED_SET_INV"))
    );
    assert_eq!(
        alu_text(aluw(&[(alu::OP2_INST, 0x27)]), 1, &[]),
        format!("{}____, R0.x", pad("PRED_SET_RESTORE"))
    );
    assert_eq!(alu_text(aluw(&[(alu::OP2_INST, 0x53)]), 1, &[]), format!("{}____, R0.x", pad("MAX4")));
    // An unused source naming a literal needs no literal word.
    assert_eq!(
        aluw(&[(alu::OP2_INST, 0x26), (alu::SRC1_SEL, 253), (alu::SRC1_CHAN, 3)]).literals_needed(),
        0
    );
    // A t-unit MULADD names its bank swizzle as decaf does, after the operation (VEC_021),
    // although the t unit reads the value as SCL_122: the corpus prints
    // `t: MULADD          R4.y, -KC0[0].w, PV31.w, R0.y VEC_021`.
    let units = assign_units(&[
        aluw(&[(alu::OP3_INST, 0x10), (alu::DST_CHAN, 1)]),
        aluw(&[(alu::OP3_INST, 0x10), (alu::DST_CHAN, 1), (alu::BANK_SWIZZLE, 1), (alu::LAST, 1)]),
    ]);
    assert_eq!((units[0], units[1]), ((1, false), (alu::T, false)));
    assert!(alu_text(aluw(&[(alu::OP3_INST, 0x10), (alu::BANK_SWIZZLE, 1)]), 1, &[]).ends_with(" VEC_021"));
    // R600's MOVA_GPR_INT: one source, the t unit (decaf: two, vector).
    assert_eq!(opcodes::op2(0x60).map(|o| (o.srcs, o.units)), Some((1, Units::Trans)));
    // Evergreen's OP2 0x54..=0x5C and OP3 4..=7 are not R700 operations.
    assert!((0x54..=0x5C).all(|c| opcodes::op2(c).is_none()));
    assert!((4..=7).all(|c| opcodes::op3(c).is_none()));
}

#[test]
fn units_follow_dst_chan_the_operation_and_what_is_taken() {
    let a = |op2: u32, chan: u32| aluw(&[(alu::OP2_INST, op2), (alu::DST_CHAN, chan)]);
    // MUL to x, y, z, w, a fifth MUL to x goes to t; RECIP_IEEE always to t; DOT4 to its
    // channel even when taken (a clash).
    let units = assign_units(&[a(1, 0), a(1, 1), a(1, 2), a(1, 3), a(1, 0)]);
    assert_eq!(units.map(|u| u.0), [0, 1, 2, 3, 4]);
    let units = assign_units(&[a(0x66, 0), a(1, 0)]);
    assert_eq!((units[0], units[1]), ((4, false), (0, false)));
    let units = assign_units(&[a(1, 1), a(0x50, 1)]);
    assert_eq!(units[1], (1, true));
    let units = assign_units(&[a(0x66, 0), a(0x61, 1)]);
    assert_eq!(units[1], (4, true));
}

#[test]
fn groups_read_their_literals_two_to_a_slot() {
    let w = |a: Alu| a.words();
    let lit = |chan: u32, last: bool| {
        aluw(&[
            (alu::OP2_INST, 0),
            (alu::SRC0_SEL, 253),
            (alu::SRC0_CHAN, chan),
            (alu::LAST, u32::from(last)),
        ])
    };
    let mut words = Vec::new();
    words.extend(w(lit(0, false)));
    words.extend(w(lit(2, true)));
    words.extend([0x3F80_0000, 0x4000_0000, 0x4040_0000, 0]);
    let g = Group::read(&bytes(&words));
    assert_eq!((g.len, g.ended, g.literals_needed, g.literals_read, g.slots()), (2, true, 3, 3, 4));
    assert_eq!((g.literals, g.literal_words), ([0x3F80_0000, 0x4000_0000, 0x4040_0000, 0], 4));
    // Five instructions end a group even without LAST.
    let five: Vec<u32> = (0..6).flat_map(|_| w(aluw(&[(alu::OP2_INST, 0x1A)]))).collect();
    let g = Group::read(&bytes(&five));
    assert_eq!((g.len, g.ended, g.slots()), (5, false, 5));
}

#[test]
fn texture_fetches_show_every_field() {
    let sample = fetchw(&[
        (tex::TEX_INST, 0x10),
        (tex::RESOURCE_ID, 1),
        (tex::SRC_GPR, 0),
        (tex::DST_GPR, 4),
        (wide(tex::DST_SEL_X, 12), 0x688),
        (wide(tex::SRC_SEL_X, 12), 1 << 3 | 4 << 6),
        (tex::SAMPLER_ID, 1),
        (wide(tex::COORD_TYPE_X, 4), 0xF),
    ]);
    assert_eq!(tex_text(sample), format!("{}R4.xyzw, R0.xy0x, t1, s1", pad("SAMPLE")));
    // LOD bias (1.3.3 fixed point: -12/8), offsets (1.3.1: 1/2, -2/2, 7/2), unnormalized X
    // and Y, and every flag.
    let all = fetchw(&[
        (tex::TEX_INST, 0x11),
        (tex::RESOURCE_ID, 2),
        (tex::SRC_GPR, 3),
        (tex::SRC_REL, 1),
        (tex::DST_GPR, 5),
        (tex::DST_REL, 1),
        (wide(tex::DST_SEL_X, 12), 7 | 7 << 3 | 2 << 6 | 5 << 9),
        (wide(tex::SRC_SEL_X, 12), 3 | 2 << 3 | 1 << 6),
        (tex::LOD_BIAS, 0x74),
        (tex::FETCH_WHOLE_QUAD, 1),
        (tex::BC_FRAC_MODE, 1),
        (tex::ALT_CONST, 1),
        (wide(tex::COORD_TYPE_X, 4), 0b1100),
        (wide(tex::OFFSET_X, 15), 1 | 0x1E << 5 | 7 << 10),
        (tex::SAMPLER_ID, 17),
    ]);
    assert_eq!(
        tex_text(all),
        format!(
            "{}R5[AL].__z1, R3[AL].wzyx, t2, s17 LOD(-1.5) WHOLE_QUAD BC_FRAC_MODE ALT_CONST DENORM(XY) XOFFSET(0.5) YOFFSET(-1) ZOFFSET(3.5)",
            pad("SAMPLE_L")
        )
    );
    // Every component masked: ____; the name of each TEX_INST.
    let masked = fetchw(&[
        (tex::TEX_INST, 0x07),
        (wide(tex::DST_SEL_X, 12), 0xFFF),
        (wide(tex::COORD_TYPE_X, 4), 0xF),
        (wide(tex::SRC_SEL_X, 12), 0x688),
    ]);
    assert_eq!(tex_text(masked), format!("{}____, R0.xyzw, t0, s0", pad("GET_GRADIENTS_H")));
    for (code, name) in [(3, "LD"), (4, "GET_TEXTURE_INFO"), (0x13, "SAMPLE_LZ"), (0x1F, "SAMPLE_C_G_LZ")] {
        assert!(tex_text(fetchw(&[(tex::TEX_INST, code)])).starts_with(name));
    }
}

#[test]
fn vertex_fetches_show_every_field() {
    // From the corpus: FETCH R16.xyzw, R1.x, b130 FETCH_TYPE(NO_INDEX_OFFSET) MEGA(16) OFFSET(0).
    let fetch = fetchw(&[
        (vtx::FETCH_TYPE, 2),
        (vtx::BUFFER_ID, 130),
        (vtx::SRC_GPR, 1),
        (vtx::MEGA_FETCH_COUNT, 15),
        (vtx::DST_GPR, 16),
        (wide(vtx::DST_SEL_X, 12), 0x688),
        (vtx::USE_CONST_FIELDS, 1),
        (vtx::MEGA_FETCH, 1),
    ]);
    assert_eq!(
        vtx_text(fetch),
        format!("{}R16.xyzw, R1.x, b130 FETCH_TYPE(NO_INDEX_OFFSET) MEGA(16) OFFSET(0)", pad("FETCH"))
    );
    // Its own format fields, a mini fetch, endian swap and the other flags.
    let formatted = fetchw(&[
        (vtx::FETCH_TYPE, 1),
        (vtx::SRC_GPR, 2),
        (vtx::SRC_REL, 1),
        (vtx::SRC_SEL_X, 3),
        (vtx::MEGA_FETCH_COUNT, 3),
        (vtx::DST_GPR, 1),
        (vtx::DST_REL, 1),
        (wide(vtx::DST_SEL_X, 12), 1 << 3 | 4 << 6 | 5 << 9),
        (vtx::DATA_FORMAT, 35),
        (vtx::NUM_FORMAT_ALL, 2),
        (vtx::FORMAT_COMP_ALL, 1),
        (vtx::SRF_MODE_ALL, 1),
        (vtx::OFFSET, 12),
        (vtx::ENDIAN_SWAP, 2),
        (vtx::FETCH_WHOLE_QUAD, 1),
        (vtx::CONST_BUF_NO_STRIDE, 1),
        (vtx::ALT_CONST, 1),
    ]);
    assert_eq!(
        vtx_text(formatted),
        format!(
            "{}R1[AL].xy01, R2[AL].w, b0 FETCH_TYPE(INSTANCE_DATA) FORMAT( 35 SCALED SIGNED 1) MINI(4) OFFSET(12) WHOLE_QUAD ENDIAN_SWAP(8IN32) CONST_BUF_NO_STRIDE ALT_CONST",
            pad("FETCH")
        )
    );
    let semantic = fetchw(&[
        (vtx::VTX_INST, 1),
        (vtx::SEMANTIC_ID, 3),
        (wide(vtx::DST_SEL_X, 12), 0x688),
        (vtx::USE_CONST_FIELDS, 1),
        (vtx::ENDIAN_SWAP, 1),
    ]);
    assert_eq!(
        vtx_text(semantic),
        format!(
            "{}SEM[3].xyzw, R0.x, b0 FETCH_TYPE(VERTEX_DATA) MINI(1) OFFSET(0) ENDIAN_SWAP(8IN16)",
            pad("SEMANTIC")
        )
    );
    let odd = fetchw(&[
        (vtx::VTX_INST, 9),
        (vtx::FETCH_TYPE, 3),
        (wide(vtx::DST_SEL_X, 12), 0xFFF),
        (vtx::NUM_FORMAT_ALL, 3),
        (vtx::ENDIAN_SWAP, 3),
    ]);
    assert_eq!(
        vtx_text(odd),
        format!(
            "{}____, R0.x, b0 FETCH_TYPE(3) FORMAT( 03 UNSIGNED 0) MINI(1) OFFSET(0) ENDIAN_SWAP(3)",
            pad("VTX_INST(9)")
        )
    );
    // A vertex fetch inside a texture clause prints as one.
    assert_eq!(tex_text(fetch), vtx_text(fetch));
}

/// A program: CALL_FS, a loop around an ALU clause with a literal and a TEX clause, an export
/// with END_OF_PROGRAM, then the clauses.
fn program() -> Vec<u32> {
    use cf::inst::*;
    let w = |c: Cf| c.words();
    let mut words = Vec::new();
    words.extend(w(normal(CALL_FS, &[])));
    words.extend(w(normal(LOOP_START_DX10, &[(cf::ADDR, 4)])));
    words.extend(w(cfw(&[
        (cf::ALU_CF_INST, 8),
        (cf::ALU_ADDR, 6),
        (cf::ALU_COUNT, 3),
        (cf::BARRIER, 1),
        (cf::KCACHE_MODE0, 1),
        (cf::KCACHE_BANK0, 1),
    ])));
    words.extend(w(normal(TEX, &[(cf::ADDR, 10), (cf::COUNT, 1)])));
    words.extend(w(normal(LOOP_END, &[(cf::ADDR, 2)])));
    words.extend(w(cfw(&[
        (cf::CF_INST, EXP_DONE),
        (cf::BARRIER, 1),
        (cf::END_OF_PROGRAM, 1),
        (cf::ARRAY_BASE, 60),
        (cf::TYPE, 1),
        (cf::RW_GPR, 1),
        (wide(cf::SEL_X, 12), 0x688),
        (cf::BURST_COUNT, 1),
    ])));
    // ALU clause at slot 6: MUL R1.x, R0.x, literal; MOV R1.y, KC0[0].y (last); literal pair.
    words.extend(
        aluw(&[(alu::OP2_INST, 1), (alu::WRITE_MASK, 1), (alu::DST_GPR, 1), (alu::SRC1_SEL, 253)]).words(),
    );
    words.extend(
        aluw(&[
            (alu::OP2_INST, 0x19),
            (alu::WRITE_MASK, 1),
            (alu::DST_GPR, 1),
            (alu::DST_CHAN, 1),
            (alu::SRC0_SEL, 128),
            (alu::SRC0_CHAN, 1),
            (alu::LAST, 1),
        ])
        .words(),
    );
    words.extend([0x3F00_0000, 0]);
    // A second group: ADD R2.x, PV.x, PS (last).
    words.extend(
        aluw(&[
            (alu::OP2_INST, 0),
            (alu::WRITE_MASK, 1),
            (alu::DST_GPR, 2),
            (alu::SRC0_SEL, 254),
            (alu::SRC1_SEL, 255),
            (alu::LAST, 1),
        ])
        .words(),
    );
    // TEX clause at slot 10: two samples.
    for gpr in [3, 4] {
        let t = fetchw(&[
            (tex::TEX_INST, 0x10),
            (tex::DST_GPR, gpr),
            (wide(tex::DST_SEL_X, 12), 0x688),
            (wide(tex::SRC_SEL_X, 12), 0x688),
            (wide(tex::COORD_TYPE_X, 4), 0xF),
            (tex::RESOURCE_ID, 2),
            (tex::SAMPLER_ID, 1),
        ]);
        words.extend(Tex(t).words());
    }
    words
}

#[test]
fn a_whole_program_lists_as_decaf_lays_it_out() {
    let code = bytes(&program());
    let (text, r) = listing(&code, &DisasmOptions::default());
    r.unwrap();
    // The fetches built here are padded with 0, not gshCompile's word: the listing says so.
    let want = "; fetch padding 0x00000000
00 CALL_FS

01 LOOP_START_DX10 FAIL_JUMP_ADDR(4)

  02 ALU: ADDR(6) CNT(4) KCACHE0(CB1:0-15)
    0   x: MUL             R1.x, R0.x, (0x3F000000, 0.5)
        y: MOV             R1.y, KC0[0].y ; SRC1_SEL(0)

    1   x: ADD             R2.x, PV0.x, PS0

  03 TEX: ADDR(10) CNT(2)

    2      SAMPLE          R3.xyzw, R0.xyzw, t2, s1

    3      SAMPLE          R4.xyzw, R0.xyzw, t2, s1

  04 LOOP_END CF_CONST(0) PASS_JUMP_ADDR(2)

05 EXP_DONE: POS0, R1.xyzw BURSTCNT(1)

END_OF_PROGRAM
";
    assert_eq!(text, want);
    // With offsets and words: each line shows its own (a group's literals with its last
    // instruction); lines that show no bytes get blank columns.
    let (text, _) = listing(&code, &DisasmOptions::default().with_offsets(true).with_raw(true));
    let lines: Vec<&str> = text.lines().collect();
    let w = program();
    let hex = |ws: &[u32]| ws.iter().map(|w| format!("{w:08x}")).collect::<Vec<_>>().join(" ");
    assert_eq!(lines[0], format!("{:49}; fetch padding 0x00000000", ""));
    assert_eq!(lines[1], format!("0x00000040: {:<36} 00 CALL_FS", hex(&w[0..2])));
    assert_eq!(
        lines[7],
        format!(
            "0x00000078: {:<36}         y: MOV             R1.y, KC0[0].y ; SRC1_SEL(0)",
            hex(&w[14..18])
        )
    );
    assert_eq!(
        lines[13],
        format!("0x00000090: {:<36}     2      SAMPLE          R3.xyzw, R0.xyzw, t2, s1", hex(&w[20..24]))
    );
    assert_eq!(*lines.last().unwrap(), format!("{:49}END_OF_PROGRAM", ""));
}

/// Decode then encode gives back every word of the program: each control-flow instruction,
/// each ALU group with its literal pair, each fetch, at its offset, in listing order, and
/// together they are the whole program.
#[test]
fn decode_then_encode_gives_back_every_word() {
    let words = program();
    let code = bytes(&words);
    let got = instructions(&code, 0x40);
    let kinds: Vec<&str> = got
        .iter()
        .map(|i| match i.kind {
            Kind::Cf(_) => "cf",
            Kind::Alu(_) => "alu",
            Kind::Tex(_) => "tex",
            Kind::Vtx(_) => "vtx",
        })
        .collect();
    assert_eq!(kinds, ["cf", "cf", "cf", "alu", "alu", "cf", "tex", "tex", "cf", "cf"]);
    let mut covered = 0;
    for i in &got {
        let w = i.encode();
        let start = ((i.at - 0x40) / 4) as usize;
        assert_eq!(w, words[start..start + w.len()], "at 0x{:x}", i.at);
        covered += w.len();
    }
    assert_eq!(covered, words.len());
    // The first group: two instructions and its literal pair.
    assert_eq!((got[3].at, got[3].encode().len()), (0x40 + 6 * 8, 6));
    // A vertex fetch, read and written back alone.
    let vfetch = [0x1234_5678u32, 0x9abc_def0, 0x0fed_cba9, 0];
    let bits = u128::from_le_bytes(bytes(&vfetch).try_into().unwrap());
    assert_eq!(Instruction { at: 8, kind: Kind::Vtx(Vtx(bits)) }.encode(), vfetch);
}

#[test]
fn every_line_carries_its_offset_and_every_token_its_style() {
    let code = bytes(&program());
    let mut html = Html::default();
    write_listing(&code, 0x40, &DisasmOptions::default(), &mut html).unwrap();
    let html = html.finish();
    assert!(html.contains(
        "<div data-offset=\"112\">    <span class=\"addr\">0  </span> <span class=\"dir\">x</span>: \
         <span class=\"mn\">MUL</span>             <span class=\"reg\">R1.x</span>, <span class=\"reg\">R0.x</span>, \
         <span class=\"lit\">(0x3F000000, 0.5)</span></div>"
    ), "{html}");
    assert!(
        html.contains(
            "<div data-offset=\"64\"><span class=\"addr\">00</span> <span class=\"mn\">CALL_FS</span></div>"
        ),
        "{html}"
    );
    assert!(html.contains("<span class=\"lbl\">ADDR(6)</span>"));
    assert!(html.contains("<span class=\"reg\">KCACHE0(CB1:0-15)</span>"));
    assert!(html.contains("<div><span class=\"dir\">END_OF_PROGRAM</span></div>"));
    // Records: one per CF instruction, ALU instruction and fetch, from the same printer.
    let r = records(&code, 0x40);
    assert_eq!(r.len(), 6 + 3 + 2);
    assert_eq!((r[2].offset, r[2].mnemonic.as_str(), r[2].words.len()), (0x50, "ALU", 2));
    assert_eq!(r[2].text, "ALU: ADDR(6) CNT(4) KCACHE0(CB1:0-15)");
    assert_eq!(r[2].operands, ["ADDR(6)", "CNT(4)", "KCACHE0(CB1:0-15)"]);
    let mul = r.iter().find(|r| r.mnemonic == "MUL").unwrap();
    assert_eq!(mul.offset, 0x70);
    assert_eq!(mul.text, "x: MUL             R1.x, R0.x, (0x3F000000, 0.5)");
    assert_eq!(mul.operands, ["R1.x", "R0.x", "(0x3F000000, 0.5)"]);
    let sample = r.iter().find(|r| r.mnemonic == "SAMPLE").unwrap();
    assert_eq!((sample.offset, sample.words.len()), (0x90, 4));
    assert_eq!(sample.operands, ["R3.xyzw", "R0.xyzw", "t2", "s1"]);
}

#[test]
fn usage_counts_registers_exports_and_resources() {
    let u = usage(&bytes(&program()), 0);
    assert!(u.calls_fetch_shader && u.ends);
    assert_eq!(u.loops, 1);
    assert_eq!(u.gprs_written.iter().collect::<Vec<_>>(), [1, 2, 3, 4]);
    // R0 read by the MUL and the samples; R1 and R2 by the export burst.
    assert_eq!(u.gprs_read.iter().collect::<Vec<_>>(), [0, 1, 2]);
    assert!(!u.relative_gprs);
    assert_eq!(u.exports.positions.iter().collect::<Vec<_>>(), [0, 1]);
    assert!(u.exports.params.is_empty() && u.exports.pixels.is_empty());
    assert_eq!(u.constant_buffers.iter().collect::<Vec<_>>(), [1]);
    assert_eq!((u.textures.max(), u.samplers.max(), u.buffers.len()), (Some(2), Some(1), 0));
    assert!(check(&bytes(&program()), 0).is_empty());
}

#[test]
fn damaged_programs_list_what_they_can_and_say_where_they_stop() {
    use cf::inst::*;
    let alu_cf = |addr: u32, count: u32| {
        cfw(&[(cf::ALU_CF_INST, 8), (cf::ALU_ADDR, addr), (cf::ALU_COUNT, count - 1), (cf::BARRIER, 1)])
    };
    let end = cfw(&[
        (cf::CF_INST, EXP_DONE),
        (cf::END_OF_PROGRAM, 1),
        (wide(cf::SEL_X, 12), 0x688),
        (cf::BARRIER, 1),
    ]);
    // An ALU clause that reaches past the end: the group that is there is listed.
    let mut words = Vec::new();
    words.extend(alu_cf(2, 4).words());
    words.extend(end.words());
    words.extend(aluw(&[(alu::OP2_INST, 0x19), (alu::LAST, 1)]).words());
    let (text, r) = listing(&bytes(&words), &DisasmOptions::default());
    let e = r.unwrap_err();
    assert_eq!(e.to_string(), "truncated ALU clause at offset 0x50 (need 32 bytes, have 8)");
    assert_eq!(
        text,
        format!(
            // The MOV built here reads source 1 as R0.x, where compilers write 0.0.
            "00 ALU: ADDR(2) CNT(4)\n; truncated ALU clause at offset 0x50 (need 32 bytes, have 8)\n  0   x: {}____, R0.x ; SRC1_SEL(0)\n\n\
             01 EXP_DONE: PIX0, R0.xyzw\n\nEND_OF_PROGRAM\n",
            pad("MOV")
        )
    );

    // A clause address past the end; a TEX clause cut short; no END_OF_PROGRAM.
    let mut words = Vec::new();
    words.extend(cfw(&[(cf::ALU_CF_INST, 8), (cf::ALU_ADDR, 100), (cf::BARRIER, 1)]).words());
    words.extend(normal(TEX, &[(cf::ADDR, 3), (cf::COUNT, 1)]).words());
    words.extend([0, 0]);
    words.extend([0x10, 0, 0, 0]);
    let texts: Vec<String> = problems(&bytes(&words), 0x40).iter().map(|e| e.to_string()).collect();
    assert_eq!(
        texts,
        [
            "ALU clause at offset 0x40 points outside its range (0x360 + 0x8 is outside 0x68)",
            "truncated TEX clause at offset 0x68 (need 16 bytes, have 0)",
            "invalid Latte program at offset 0x58: the control flow reaches the clause at 0x58 without END_OF_PROGRAM",
        ]
    );

    // LOOP_END with no loop open, literals past their clause, a unit given twice.
    let mut words = Vec::new();
    words.extend(normal(LOOP_END, &[]).words());
    words.extend(alu_cf(3, 2).words());
    words.extend(end.words());
    words.extend(aluw(&[(alu::OP2_INST, 1), (alu::DST_CHAN, 0)]).words());
    words.extend(
        aluw(&[(alu::OP2_INST, 0x50), (alu::DST_CHAN, 0), (alu::SRC0_SEL, 253), (alu::LAST, 1)]).words(),
    );
    let texts: Vec<String> = problems(&bytes(&words), 0).iter().map(|e| e.to_string()).collect();
    assert_eq!(
        texts,
        [
            "invalid LOOP_END at offset 0x0: no loop is open",
            "truncated ALU group literals at offset 0x28 (need 4 bytes, have 0)",
            "invalid ALU instruction at offset 0x20: unit x is already taken in its group",
        ]
    );

    // A clause that ends before an instruction with LAST.
    let mut words = Vec::new();
    words.extend(alu_cf(2, 1).words());
    words.extend(end.words());
    words.extend(aluw(&[(alu::OP2_INST, 0x19)]).words());
    let p = problems(&bytes(&words), 0);
    assert_eq!(p.len(), 1);
    assert_eq!(
        p[0].to_string(),
        "invalid ALU group at offset 0x10: the clause ends before an instruction with LAST"
    );

    // A control-flow instruction cut short.
    let mut code = bytes(&normal(NOP, &[]).words());
    code.extend([0; 4]);
    let p = problems(&code, 0);
    assert_eq!(p[0].to_string(), "truncated control-flow instruction at offset 0x8 (need 8 bytes, have 4)");

    // Empty input, and words that only ever fail: nothing panics, the listing says why.
    assert_eq!(
        problems(&[], 0)[0].to_string(),
        "invalid Latte program at offset 0x0: the control flow ends without END_OF_PROGRAM"
    );
    let (text, r) = listing(&[0xFF; 64], &DisasmOptions::default());
    assert!(r.is_err() && text.starts_with("00 ALU_ELSE_AFTER: ADDR(4194303) CNT(128) WHOLE_QUAD"), "{text}");
}

#[test]
fn a_fetch_shader_ends_with_return_and_is_no_problem() {
    use cf::inst::*;
    let mut words = Vec::new();
    words.extend(normal(VTX, &[(cf::ADDR, 2)]).words());
    words.extend(normal(RETURN, &[]).words());
    words.extend(
        Tex(fetchw(&[(wide(vtx::DST_SEL_X, 12), 0x688), (vtx::USE_CONST_FIELDS, 1), (vtx::BUFFER_ID, 160)]))
            .words(),
    );
    let code = bytes(&words);
    assert!(problems(&code, 0).is_empty());
    let (text, r) = listing(&code, &DisasmOptions::default());
    r.unwrap();
    assert_eq!(
        text,
        format!(
            "; fetch padding 0x00000000\n00 VTX: ADDR(2) CNT(1)\n\n  0      {}R0.xyzw, R0.x, b160 FETCH_TYPE(VERTEX_DATA) MINI(1) OFFSET(0)\n\n01 RETURN\n\n",
            pad("FETCH")
        )
    );
}

#[test]
fn check_warns_of_values_the_document_leaves_undefined() {
    use cf::inst::*;
    let mut words = Vec::new();
    words.extend(cfw(&[(cf::ALU_CF_INST, 8), (cf::ALU_ADDR, 2), (cf::BARRIER, 1)]).words());
    words.extend(cfw(&[(cf::CF_INST, EXP_DONE), (cf::END_OF_PROGRAM, 1)]).words());
    words.extend(
        aluw(&[
            (alu::OP2_INST, 0x55),
            (alu::BANK_SWIZZLE, 7),
            (alu::PRED_SEL, 1),
            (alu::SRC0_SEL, 230),
            (alu::LAST, 1),
        ])
        .words(),
    );
    let f = check(&bytes(&words), 0);
    let texts: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        texts,
        [
            "ALU group 0: undefined OP2 opcode 0x55",
            "ALU group 0: undefined bank swizzle 7",
            "ALU group 0: undefined PRED_SEL 1",
            "ALU group 0: source 0 selects the undefined value 230",
        ]
    );
    assert!(f.iter().all(|f| f.severity == crate::Severity::Warning && f.offset == 0x10));
}

#[test]
fn dump_annotations_name_every_instruction_and_literal() {
    let code = bytes(&program());
    let mut a = crate::dump::Annotations::new();
    annotate(&code, 0, &mut a);
    let mut text = String::new();
    a.render(&code, &mut text).unwrap();
    let row = |offset: usize, meaning: &str| {
        let hex: Vec<String> = code[offset..offset + 8].iter().map(|b| format!("{b:02x}")).collect();
        format!("  0x{offset:04x} | {} | {meaning}\n", hex.join(" "))
    };
    for want in [
        row(0, "CF 00: CALL_FS"),
        row(0x10, "CF 02: ALU: ADDR(6) CNT(4) KCACHE0(CB1:0-15)"),
        "== ALU clause of CF 02 (0x30..0x50)".to_string(),
        row(0x30, "ALU group 0 x: MUL R1.x, R0.x, (0x3F000000, 0.5)"),
        row(0x40, "ALU group 0 literals 0: 0x3F000000 (0.5) 0x00000000 (0)"),
        row(0x48, "ALU group 1 x: ADD R2.x, PV0.x, PS0"),
        "== TEX clause of CF 03 (0x50..0x70)".to_string(),
        row(0x50, "fetch 2: SAMPLE R3.xyzw, R0.xyzw, t2, s1"),
    ] {
        assert!(text.contains(&want), "{want}\n{text}");
    }
    assert!(!text.contains("(unclaimed)"));
    assert_eq!(a.errors().count(), 0);
}

#[test]
fn clauses_read_over_and_over_stop_being_listed() {
    // 200 ALU instructions that each run the same 128-slot clause: the listing stays near
    // the program's size.
    let mut words = Vec::new();
    for _ in 0..200 {
        words.extend(
            cfw(&[(cf::ALU_CF_INST, 8), (cf::ALU_ADDR, 201), (cf::ALU_COUNT, 127), (cf::BARRIER, 1)]).words(),
        );
    }
    words.extend(cfw(&[(cf::CF_INST, cf::inst::EXP_DONE), (cf::END_OF_PROGRAM, 1)]).words());
    for _ in 0..128 {
        words.extend(aluw(&[(alu::OP2_INST, 0x1A), (alu::LAST, 1)]).words());
    }
    let code = bytes(&words);
    let p = problems(&code, 0);
    assert_eq!(
        p.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        [
            "invalid control-flow instruction at offset 0x20: its clauses read more bytes than the program has (they overlap): no more clauses are listed"
        ]
    );
    let (text, _) = listing(&code, &DisasmOptions::default());
    assert!(text.len() < 100 * code.len(), "{} bytes of listing for {}", text.len(), code.len());
    assert!(
        text.ends_with("200 EXP_DONE: PIX0, R0.xxxx NO_BARRIER\n\nEND_OF_PROGRAM\n"),
        "{}",
        &text[text.len() - 200..]
    );
}
