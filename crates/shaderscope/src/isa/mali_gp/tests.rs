//! Unit tests of the GP decoder and listing on hand-built instructions: each field set by
//! its name in Mesa's `gpir_codegen_instr`, the expected text worked out from the rules of
//! Mesa's `gpir_disassemble_program` (or from the module documentation where this listing
//! differs from Mesa, and why).

use super::*;
use crate::model::Severity;
use crate::print::{Html, TextBuf};

/// An idle instruction as the compilers write it (`pass_op` 2): its text carries every field,
/// so no `; fields` line follows the program.
fn idle() -> Instr {
    asm::fill()
}

fn code(instrs: &[Instr]) -> Vec<u8> {
    instrs.iter().flat_map(|i| i.encode().to_le_bytes()).collect()
}

fn listing(code: &[u8], opts: &DisasmOptions) -> (String, Result<()>) {
    let mut t = TextBuf::default();
    let r = write_listing(code, 0x40, opts, &mut t);
    (t.as_str().to_string(), r)
}

fn plain(code: &[u8]) -> String {
    let (text, r) = listing(code, &DisasmOptions::default());
    r.unwrap();
    text
}

/// Instruction 1 of a program whose instruction 0 is idle: every unit, the stores, the
/// branch and `unknown_1`.
fn busy() -> Instr {
    Instr {
        // add.a0: attribute 3 .x + the load unit's .y (uniform 5 + address register 1).
        acc0_src0: 0,
        acc0_src1: 13,
        register0_attribute: 1,
        register0_addr: 3,
        load_addr: 5,
        load_offset: 1,
        // mov.a1: register 2 .z + -0.
        acc1_src0: 6,
        acc1_src1: 22,
        acc1_src1_neg: 1,
        register1_addr: 2,
        // mul.m0: the previous acc0 times -1; mov.m1: the load unit's .z times 1.
        mul0_src0: 16,
        mul0_src1: 22,
        mul0_neg: 1,
        mul1_src0: 14,
        mul1_src1: 22,
        // rcp.c of the pass result two back (before the program: ^-2).
        complex_op: 5,
        complex_src: 23,
        // clamp.p of the previous pass result.
        pass_op: 6,
        pass_src: 20,
        // acc0 to $4.xy; complex and pass to v1.z and v1.w.
        store0_src_x: 0,
        store0_src_y: 0,
        store0_addr: 4,
        store1_src_z: 6,
        store1_src_w: 4,
        store1_addr: 1,
        store1_varying: 1,
        branch: 1,
        branch_target_lo: 1,
        branch_target: 0,
        unknown_1: 12,
        ..idle()
    }
}

#[test]
fn every_unit_prints_in_mesas_order_with_its_stores() {
    let (text, _) = listing(&code(&[idle(), busy()]), &DisasmOptions::default());
    assert_eq!(
        text,
        "000:\tnop\n\
         001:\tadd.a0 ^6/$4.xy a3.x t[5+addr1].y\n\
         \tmov.a1 ^7 $2.z\n\
         \tmul.m0 ^8 ^0 -1\n\
         \tmov.m1 ^9 t[5+addr1].z\n\
         \trcp.c ^11/v1.z ^-2\n\
         \tclamp.p ^10/v1.w ^4 t[5+addr1].x t[5+addr1].y\n\
         \tbranch ^10 000\n\
         \tunknown_1 12\n\
         ; invalid Mali GP instruction at offset 0x50: instruction 001: source 23 reads a result of the \
         instruction two before, which is before the start of the program\n"
    );
    // The p2 read of instruction 1 reaches before the start (a problem); nothing else is
    // wrong.
    let f = check(&code(&[idle(), busy()]), 0x40);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].severity, Severity::Error);
    assert_eq!(f[0].offset, 0x50);
    // The finding has the offset; its message is the problem's reason (said once).
    assert_eq!(
        f[0].message,
        "invalid Mali GP instruction: instruction 001: source 23 reads a result of the \
         instruction two before, which is before the start of the program"
    );
}

#[test]
fn two_unit_operations_and_the_identity() {
    let base = Instr { register1_addr: 9, ..idle() };
    // complex1: four sources, the second of each multiplier 22 = 1.
    let c1 = Instr { mul_op: 1, mul0_src0: 0, mul0_src1: 22, mul1_src0: 5, mul1_src1: 22, ..base };
    // complex2 renames multiplier 0 only; a multiplier with one unused source is idle.
    let c2 = Instr { mul_op: 3, mul0_src0: 4, mul0_src1: 7, mul1_src0: 4, mul1_src1: 12, ..base };
    let c2_idle = Instr { mul_op: 3, mul0_src0: 4, mul0_src1: 21, ..base };
    // select: mul0_src1, mul0_src0, mul1_src0 (its fourth source is not printed).
    let sel = Instr { mul_op: 4, mul0_src0: 4, mul0_src1: 22, mul1_src0: 17, mul1_src1: 3, ..base };
    // An undefined mul_op prints all four sources, unused ones too.
    let unk = Instr { mul_op: 2, ..base };
    let text = plain(&code(&[c1, c2, c2_idle, sel, unk]));
    assert_eq!(
        text,
        "000:\tcomplex1.m01 ^2 $0.x 1 $9.y 1\n\
         001:\tcomplex2.m0 ^8 $9.x $9.w\n\
         \tmul.m1 ^9 $9.x t[0].x\n\
         002:\tnop\n\
         003:\tsel.m01 ^20 1 $9.x ^13\n\
         004:\tunknown2.m01 ^26 unused unused unused unused\n\
         ; fields 000: mul0_src0=0 mul1_src0=5 register0_addr=0 register1_addr=9\n\
         ; fields 002: mul0_src0=4 register1_addr=9 mul_op=3\n\
         ; fields 003: mul1_src1=3\n\
         ; fields 004: register1_addr=9\n"
    );
    let f = check(&code(&[c1, c2, c2_idle, sel, unk]), 0);
    assert_eq!(
        f.iter().map(|f| f.message.as_str()).collect::<Vec<_>>(),
        ["instruction 004: mul_op 2 is undefined"]
    );
}

#[test]
fn undefined_values_print_as_mesa_prints_them_and_are_warnings() {
    let i = Instr {
        acc_op: 3,
        acc0_src0: 8,
        acc0_src1: 0,
        // A move even with the undefined operation.
        acc1_src0: 1,
        acc1_src1: 22,
        acc1_src1_neg: 1,
        complex_op: 1,
        complex_src: 12,
        load_offset: 0,
        load_addr: 300,
        pass_op: 0,
        pass_src: 2,
        ..idle()
    };
    let floor = Instr { acc_op: 1, acc0_src0: 3, acc0_src0_neg: 1, acc0_src1: 4, store0_src_x: 5, ..idle() };
    assert_eq!(
        plain(&code(&[i, floor])),
        "000:\top3.a0 ^0 unknown0\n\
         \tmov.a1 ^1 $0.y\n\
         \tunk1.c ^5 t[300+unk0].x\n\
         \tunk0.p ^4 $0.z\n\
         001:\tfloor.a0 ^6 -$0.w\n\
         ; fields 000: acc0_src1=0 acc1_src0=1 pass_src=2\n\
         ; fields 001: acc0_src0=3 acc0_src1=4 store0_src_x=5\n"
    );
    let f = check(&code(&[i, floor]), 0);
    let messages: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "instruction 000: source 8 (unknown0) is undefined",
            "instruction 000: acc_op 3 is undefined",
            "instruction 000: complex_op 1 is undefined",
            "instruction 000: pass_op 0 is undefined",
            "instruction 000: load_offset 0 is undefined",
            "instruction 001: store0_src_x 5 names no unit",
        ]
    );
    assert!(f.iter().all(|f| f.severity == Severity::Warning));
    assert!(problems(&code(&[i, floor]), 0).is_empty());
}

#[test]
fn address_register_writes_and_temporary_stores() {
    let i = Instr {
        complex_op: 12,
        complex_src: 4,
        acc0_src0: 12,
        acc0_src1: 22,
        acc0_src1_neg: 1,
        store0_src_x: 0,
        store0_temporary: 1,
        store1_src_z: 6,
        store1_src_w: 0,
        store1_addr: 15,
        ..idle()
    };
    let j = Instr { complex_op: 15, complex_src: 4, ..idle() };
    assert_eq!(
        plain(&code(&[i, j])),
        "000:\tmov.a0 ^0/t[addr0].x/$15.w t[0].x\n\
         \tmov.c ^5/$15.z/addr0 $0.x\n\
         001:\tmov.c ^11/addr3 $0.x\n"
    );
}

#[test]
fn results_from_before_the_program_and_the_missing_previous_instruction() {
    // Instruction 0: the previous acc1 (^-5), the previous complex as a pass source (^-1),
    // the previous register-0 port (none: there is no previous instruction).
    let first = Instr {
        acc0_src0: 17,
        acc0_src1: 22,
        acc0_src1_neg: 1,
        pass_op: 2,
        pass_src: 22,
        mul0_src0: 29,
        mul0_src1: 22,
        register0_attribute: 1,
        register0_addr: 7,
        ..idle()
    };
    // Instruction 1 reads instruction 0's register-0 port: a7.w.
    let second = Instr { pass_op: 2, pass_src: 31, ..idle() };
    let c = code(&[first, second]);
    let why = [
        "source 17 reads a result of the previous instruction",
        "source 29 reads the register-0 port of the previous instruction (listed as none)",
        "source 22 reads a result of the previous instruction",
    ]
    .map(|w| format!("invalid Mali GP instruction at offset 0x40: instruction 000: {w}, which is before the start of the program"));
    // Listed as Mesa lists it, each read a problem after its instruction; the listing goes on.
    let mut text = TextBuf::default();
    let first = write_listing(&c, 0x40, &DisasmOptions::default(), &mut text).unwrap_err();
    assert_eq!(first.to_string(), why[0]);
    assert_eq!(
        text.as_str(),
        format!(
            "000:\tmov.a0 ^0 ^-5\n\tmov.m0 ^2 none.y\n\tmov.p ^4 ^-1\n; {}\n; {}\n; {}\n001:\tmov.p ^10 a7.w\n\
             ; fields 000: register0_addr=7 register0_attribute=1\n\
             ; fields 001: register0_addr=0 register0_attribute=0 pass_src=31\n",
            why[0], why[1], why[2]
        )
    );
    let messages: Vec<String> = check(&c, 0x40).into_iter().map(|f| f.message).collect();
    let reasons: Vec<String> = why.iter().map(|w| w.replace(" at offset 0x40", "")).collect();
    assert_eq!(messages, reasons);
    assert_eq!(problems(&c, 0x40).len(), 3);
}

#[test]
fn a_complex_unit_with_a_source_and_no_operation_leaves_mesas_tab() {
    let stray = Instr { complex_src: 0, complex_op: 0, ..idle() };
    let with_pass = Instr { pass_op: 2, pass_src: 4, ..stray };
    let with_acc = Instr { acc0_src0: 5, acc0_src1: 6, ..stray };
    let c = code(&[with_pass, with_acc, idle(), stray, with_acc]);
    assert_eq!(
        plain(&c),
        "000:\t\tmov.p ^4 $0.x\n\
         001:\tadd.a0 ^6 $0.y $0.z\n\
         \t002:\tnop\n\
         003:\t\tnop\n\
         004:\tadd.a0 ^24 $0.y $0.z\n\
         \t\n"
    );
    // The records have no empty unit.
    let r = records(&c, 0);
    assert_eq!(
        r.iter().map(|r| r.text.as_str()).collect::<Vec<_>>(),
        ["mov.p ^4 $0.x", "add.a0 ^6 $0.y $0.z", "nop", "nop", "add.a0 ^24 $0.y $0.z"]
    );
}

#[test]
fn a_branch_past_the_end_is_a_problem_and_the_listing_goes_on() {
    let to =
        |target: u16, lo: u16| Instr { branch: 1, branch_target: target, branch_target_lo: lo, ..idle() };
    // To the end (instruction 3 of 3): fine. To 4, and to 0x100 + 1: past the end.
    let c = code(&[to(3, 1), to(4, 1), to(1, 0)]);
    let (text, r) = listing(&c, &DisasmOptions::default());
    assert_eq!(
        text,
        "000:\tbranch ^4 003\n\
         001:\tbranch ^10 004\n\
         ; invalid Mali GP branch at offset 0x50: instruction 001 branches to instruction 004 (offset 0x80), past \
         the end of the program (3 instructions)\n\
         002:\tbranch ^16 257\n\
         ; invalid Mali GP branch at offset 0x60: instruction 002 branches to instruction 257 (offset 0x1050), past \
         the end of the program (3 instructions)\n"
    );
    let e = r.unwrap_err();
    assert_eq!(e.offset(), 0x50);
    let p = problems(&c, 0x40);
    assert_eq!(p.iter().map(Error::offset).collect::<Vec<_>>(), [0x50, 0x60]);
    assert_eq!(p[0], e);
    let f = check(&c, 0x40);
    assert_eq!(f.len(), 2);
    assert!(f.iter().all(|f| f.severity == Severity::Error));
    assert_eq!(f[1].message, p[1].reason());
}

#[test]
fn bytes_after_the_last_instruction_are_reported_where_they_start() {
    let mut c = code(&[idle()]);
    c.extend([1, 2, 3, 4, 5]);
    let (text, r) = listing(&c, &DisasmOptions::default());
    assert_eq!(text, "000:\tnop\n; truncated Mali GP instruction at offset 0x50 (need 16 bytes, have 5)\n");
    assert_eq!(r.unwrap_err().offset(), 0x50);
    let mut a = crate::dump::Annotations::new();
    annotate(&c, 0x40, &mut a);
    let fields: Vec<_> = a.fields().map(|(r, t)| (r, t.to_string())).collect();
    assert_eq!(
        fields,
        [
            (0x40..0x50, "000: nop".to_string()),
            (0x50..0x55, "trailing bytes (not a whole 16-byte instruction)".into())
        ]
    );
    assert_eq!(a.errors().map(|(o, _)| o).collect::<Vec<_>>(), [0x50]);
    // Fewer bytes than one instruction: nothing listed, the problem at the start.
    let (text, r) = listing(&[0; 15], &DisasmOptions::default());
    assert_eq!(text, "; truncated Mali GP instruction at offset 0x40 (need 16 bytes, have 15)\n");
    assert!(r.is_err());
    // No bytes: an empty listing.
    assert_eq!(listing(&[], &DisasmOptions::default()).0, "");
}

#[test]
fn offset_and_raw_columns_start_every_line() {
    let i = Instr { acc0_src0: 0, acc0_src1: 4, acc1_src0: 1, acc1_src1: 5, ..idle() };
    let c = code(&[i]);
    let w = super::encode::words_of(i.encode());
    let (text, _) = listing(&c, &DisasmOptions::default().with_offsets(true).with_raw(true));
    assert_eq!(
        text,
        format!(
            "0x00000040: {:08x} {:08x} {:08x} {:08x}  000:\tadd.a0 ^0 $0.x $0.x\n\
             0x00000040: {:37}\tadd.a1 ^1 $0.y $0.y\n\
             0x00000040: {:37}; fields 000: acc0_src0=0 acc1_src0=1\n",
            w[0], w[1], w[2], w[3], "", ""
        )
    );
    let (text, _) = listing(&c, &DisasmOptions::default().with_file_offsets(true));
    assert_eq!(
        text,
        "0x00000040: 000:\tadd.a0 ^0 $0.x $0.x\n0x00000040: \tadd.a1 ^1 $0.y $0.y\n\
         0x00000040: ; fields 000: acc0_src0=0 acc1_src0=1\n"
    );
}

#[test]
fn every_line_carries_its_offset_and_every_token_its_style() {
    let c = code(&[idle(), busy()]);
    let mut html = Html::default();
    // Instruction 1 reads from before the start: a problem, listed after it.
    assert!(write_listing(&c, 0x40, &DisasmOptions::default(), &mut html).is_err());
    let html = html.finish();
    assert!(
        html.starts_with(
            "<div data-offset=\"64\"><span class=\"addr\">000:</span>\t<span class=\"mn\">nop</span></div>\n"
        ),
        "{html}"
    );
    assert!(
        html.contains(
            "<div data-offset=\"80\"><span class=\"addr\">001:</span>\t<span class=\"mn\">add.a0</span> \
             <span class=\"reg\">^6/$4.xy</span> <span class=\"reg\">a3.x</span> \
             <span class=\"reg\">t[5+addr1].y</span></div>"
        ),
        "{html}"
    );
    assert!(html.contains("<span class=\"reg\">^0</span> -<span class=\"lit\">1</span>"), "{html}");
    assert!(html.contains(
        "<span class=\"mn\">branch</span> <span class=\"reg\">^10</span> <span class=\"lbl\">000</span>"
    ));
    assert!(html.contains("<span class=\"mn\">unknown_1</span> <span class=\"lit\">12</span>"));
    // Records: one per unit line, each with the instruction's offset and four words.
    let r = records(&c, 0x40);
    assert_eq!(r.len(), 1 + 8);
    assert_eq!((r[0].offset, r[0].mnemonic.as_str(), r[0].text.as_str()), (0x40, "nop", "nop"));
    let mul = &r[3];
    assert_eq!((mul.offset, mul.mnemonic.as_str()), (0x50, "mul.m0"));
    assert_eq!(mul.operands, ["^8", "^0", "-1"]);
    assert_eq!(mul.words, super::encode::words_of(busy().encode()));
    assert_eq!(r[7].operands, ["^10", "000"]);
    // Dump: each instruction one field with its units' text.
    let mut a = crate::dump::Annotations::new();
    annotate(&c, 0x40, &mut a);
    let fields: Vec<_> = a.fields().map(|(r, t)| (r, t.to_string())).collect();
    assert_eq!(fields[0], (0x40..0x50, "000: nop".to_string()));
    assert_eq!(
        fields[1].1,
        "001: add.a0 ^6/$4.xy a3.x t[5+addr1].y; mov.a1 ^7 $2.z; mul.m0 ^8 ^0 -1; mov.m1 ^9 t[5+addr1].z; \
         rcp.c ^11/v1.z ^-2; clamp.p ^10/v1.w ^4 t[5+addr1].x t[5+addr1].y; branch ^10 000; unknown_1 12"
    );
}

#[test]
fn numbers_of_three_four_and_more_digits() {
    // ^K passes 100 at instruction 17, 1000 at 167, 10000 at 1667; the index is %03d.
    let mov = |s: u16| Instr { pass_op: 2, pass_src: s, ..idle() };
    let mut program = vec![idle(); 1668];
    program[17] = mov(20);
    program[199] = mov(23);
    program[1000] = Instr { branch: 1, branch_target_lo: 1, branch_target: 7, ..mov(20) };
    program[1667] = mov(23);
    let text = plain(&code(&program));
    for line in [
        "017:\tmov.p ^106 ^100\n",
        "199:\tmov.p ^1198 ^1186\n",
        "1000:\tmov.p ^6004 ^5998\n\tbranch ^6004 007\n",
        "1667:\tmov.p ^10006 ^9994\n",
    ] {
        assert!(text.contains(line), "{line}");
    }
}
