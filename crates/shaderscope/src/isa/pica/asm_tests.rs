//! Unit tests of the PICA200 assembler (`asm.rs`): the words and descriptors picasso 2.7.1
//! writes for each instruction form (taken from its output for the same text), and the exact
//! errors with their line and column.

use super::asm::{self, Directive, Operand, Operands, Statement};
use super::{ConstantValue, Op, float24};

/// Every instruction form, with aliases, uniforms, inputs, outputs, blocks and padding.
const EVERY_FORM: &str = "; every instruction form
.fvec m[4], k
.bool flag
.ivec loops
.constf half(0.5, 1.0, 1.0/128.0, -2.0)
.alias neg -r3.wzyx
.in pos v0
.in nrm v1
.out opos position
.out oclr color.rgb
.proc sub
\trcp r0.x, r1.w
\tend
.end
.proc main
\tmov r0, pos
\tdph r1.x, r0, m[1]
\tsge r2, r0.xyzw, k.x
\tmad r3, r0, k, r1
\tmad r4, r0, r1, k.yxzw
\tcmp pos.xy, lt, ge, r0
\tmova a0.xy, r0
\tmov r5, m[a0.x+2]
\tadd r6, -neg.xy, r5
\tifu flag
\t\tex2 r7.y, r0.x
\t.else
\t\tlg2 r7, r1
\t.end
\tifc cmp.x && !cmp.y
\t\tcall sub
\t.end
\tfor loops
\t\tbreakc !cmp.x || cmp.y
\t.end
\tcallc cmp.y, sub
\tcallu flag, sub
\tjmpc !cmp.x, done
\tjmpu !flag, done
\tdp3 opos, half, r0
done:
\tmov oclr, half.zzzw
\tend
.end
";

#[test]
fn every_form_is_written_as_picasso_writes_it() {
    let a = asm::assemble_text(EVERY_FORM).unwrap();
    // picasso 2.7.1's DVLP for the same text.
    assert_eq!(
        a.code,
        [
            0x3a01_1000, // rcp r0.x, r1.w
            0x8800_0000, // end
            0x4e00_0001, // mov r0, v0
            0x6224_1082, // dph r1.x, r0, c1: DPHI (the uniform is second)
            0x6a44_1201, // sge r2, r0, c4.x: SGEI
            0xf320_9223, // mad r3, r0, c4, r1: MAD
            0xd421_1484, // mad r4, r0, r1, c4.yxzw: MADI
            0xbaa0_0802, // cmp v0, lt, ge, r0
            0x4801_0005, // mova a0.xy, r0
            0x4eaa_2001, // mov r5, c0[a0.x+2]
            0x02c1_3a86, // add r6, r3.wz, r5: the alias's `-` and the operand's cancel
            0x9c00_3401, // ifu b0, else at 0x00d, 1 word
            0x16e1_0007, // ex2 r7.y, r0.x
            0x1ae1_1001, // lg2 r7, r1
            0xa240_4400, // ifc cmp.x && !cmp.y, to 0x011
            0x9000_0002, // call sub (0x000, 2 words)
            0x8400_0000, // the padding nop after a call that ends a block
            0xa400_4c00, // for i0, to 0x013
            0x8d00_0000, // breakc !cmp.x || cmp.y
            0x8400_0000, // the padding nop after a break that ends a for
            0x97c0_0002, // callc cmp.y, sub
            0x9800_0002, // callu b0, sub
            0xb180_6400, // jmpc !cmp.x, done
            0xb400_6401, // jmpu !b0, done
            0x0407_f803, // dp3 o0, c95, r0
            0x4c27_f008, // mov o1, c95.zzzw
            0x8800_0000, // end
        ]
    );
    assert_eq!(
        a.opdescs,
        [
            0x0000_1fe8,
            0x0000_036f,
            0x0006_c368,
            0x0d86_c36f,
            0x2586_c36f,
            0x0000_036c,
            0x0006_dd4f,
            0x0000_0004,
            0x0000_156f
        ]
    );
    let [e] = a.executables.as_slice() else { panic!("one DVLE: {:?}", a.executables) };
    assert_eq!(e.entry, (2, 27));
    assert_eq!((e.input_mask, e.output_mask), (0b11, 0b11));
    let procs: Vec<_> = a.procedures.iter().map(|p| (p.name.as_str(), p.start, p.len)).collect();
    assert_eq!(procs, [("sub", 0, 2), ("main", 2, 25)]);
    // The uniform table sorted by register, in the DVLE's numbering.
    let uniforms: Vec<_> = e.uniforms.iter().map(|u| (u.name.as_str(), u.first, u.last)).collect();
    assert_eq!(
        uniforms,
        [
            ("pos", 0, 0),
            ("nrm", 1, 1),
            ("m", 0x10, 0x13),
            ("k", 0x14, 0x14),
            ("loops", 0x70, 0x70),
            ("flag", 0x78, 0x78)
        ]
    );
    // `1.0/128.0` is read as C's atof reads it: 1.0.
    let f = [0.5, 1.0, 1.0, -2.0].map(float24::from_f32);
    assert_eq!(
        e.constants.iter().map(|c| (c.register, c.value)).collect::<Vec<_>>(),
        [(95, ConstantValue::Float(f))]
    );
    let outputs: Vec<_> = e.outputs.iter().map(|o| (o.semantic, o.register, o.mask)).collect();
    assert_eq!(outputs, [(0, 0, 0xF), (2, 1, 0x7)]);
}

#[test]
fn a_mad_descriptor_past_31_is_swapped_below_32() {
    // 33 distinct `mov` descriptors, then two MADs: picasso swaps each MAD's new entry (0x21,
    // 0x22) with the first entry below 32 no MAD uses (0, then 1) and renumbers the `mov`s.
    let mut text = String::from(".proc main\n");
    let c = ['x', 'y', 'z', 'w'];
    for n in 0..33 {
        text += &format!("\tmov r0, r1.{}{}{}\n", c[n / 16], c[n / 4 % 4], c[n % 4]);
    }
    text += "\tmad r0, r1, r2, r3.wzyx\n\tmad r0, r1, r2, r3.xxxx\n\tend\n.end\n";
    let a = asm::assemble_text(&text).unwrap();
    assert_eq!((a.code[0], a.code[1], a.code[0x1f]), (0x4e01_1021, 0x4e01_1022, 0x4e01_101f));
    assert_eq!((a.code[0x21], a.code[0x22]), (0xf022_4a60, 0xf022_4a61));
    assert_eq!((a.opdescs[0], a.opdescs[1], a.opdescs[0x21]), (0x7206_c36f, 0x0006_c36f, 0x0000_000f));
}

#[test]
fn descriptors_are_shared_on_the_lanes_read() {
    // `mov r0.x` and `rcp` read only x of their source, so `rcp` takes the `mov`'s entry. The
    // first `dp4` reads every lane but agrees on every bit the entry knows (x): it takes the
    // entry too and writes its other lanes into it. The second `dp4` disagrees on y: a new one.
    let text = ".proc main\n\tmov r0.x, r1.xzzz\n\trcp r2.x, r3.xyyy\n\tdp4 r2.x, r3.xyyy, r1\n\
                \tdp4 r2.x, r3.xzzz, r1\n\tend\n.end\n";
    let a = asm::assemble_text(text).unwrap();
    assert_eq!(a.code, [0x4e01_1000, 0x3a41_3000, 0x0a41_3880, 0x0a41_3881, 0x8800_0000]);
    assert_eq!(a.opdescs, [0x0006_c2a8, 0x0006_c548]);
}

#[test]
fn operands_read_into_their_parts() {
    let s = asm::parse("l1: l2:\tmov r0.xy, -m[a0.x + 2].wz ; comment\n").unwrap();
    let line = &s.lines[0];
    assert_eq!(
        line.labels.iter().map(|n| (n.text.as_str(), n.column)).collect::<Vec<_>>(),
        [("l1", 0), ("l2", 4)]
    );
    let Some(Statement::Instruction(w)) = &line.statement else { panic!("{line:?}") };
    assert_eq!(w.op, Op::Mov);
    let Operands::Vector(ops) = &w.operands else { panic!("{w:?}") };
    assert_eq!(
        ops[1],
        Operand {
            column: 19,
            negate: true,
            name: "m".into(),
            offset: 2,
            index: Some((1, 22)),
            swizzle: Some([3, 2, 2, 2])
        }
    );
    assert_eq!(ops[0].swizzle, Some([0, 1, 1, 1]));
    // The swapped forms' names read as the plain instruction: picasso picks the form.
    let s = asm::parse("dphi r0, r1, r2\n.constfa (1, 2, 3, 4)\n.OUT - TCOORD0.xy\n").unwrap();
    assert!(matches!(&s.lines[0].statement, Some(Statement::Instruction(w)) if w.op == Op::Dph));
    assert_eq!(
        s.lines[1].statement,
        Some(Statement::Directive(Directive::ConstArrayElement([1.0, 2.0, 3.0, 4.0])))
    );
    assert!(matches!(
        &s.lines[2].statement,
        Some(Statement::Directive(Directive::Out {
            name: None,
            semantic: 3,
            mask: Some([0, 1, 1, 1]),
            register: None
        }))
    ));
}

/// The error `text` gives, read and assembled.
fn error(text: &str) -> String {
    asm::assemble_text(text).unwrap_err().to_string()
}

#[test]
fn errors_name_the_line_the_column_and_what_was_expected() {
    let cases: [(&str, &str); 14] = [
        ("\tfoo r0\n", "line 1, column 2: expected an instruction or a directive (`foo` is neither)"),
        (
            "mov r0, r1\n",
            "line 1, column 1: expected `.proc` before the first instruction (picasso assembles code only \
             inside a procedure)",
        ),
        (
            ".proc main\n\tmov r0, v15\n.end\n",
            "line 2, column 10: expected an input register (v0-v14; v15 is written v14[1])",
        ),
        (
            ".proc main\n\tmov r0, c4[-1]\n.end\n",
            "line 2, column 13: expected an offset of 0 or more (picasso refuses a negative one)",
        ),
        (
            ".proc main\n\tdp3 o0, r0, c1\n.end\n",
            "line 2, column 14: expected an input or temporary register (v0-v15, r0-r15): this source \
             cannot be a uniform",
        ),
        (".proc main\n\tmov r0,\n.end\n", "line 2, column 9: expected a register or an alias"),
        (".proc main\n\tmov r0\n.end\n", "line 2, column 8: expected `,` and another operand"),
        (".proc main\n\tmov r0, r1, r2\n.end\n", "line 2, column 12: expected the end of the line"),
        (
            ".proc main\n\tmov r0, r1.xyzwx\n.end\n",
            "line 2, column 17: expected the end of the swizzle (it has at most four components)",
        ),
        (
            ".proc main\n\tadd r0, v0, v1\n.end\n",
            "line 2, column 14: expected the same input register as the other source (the PICA200 reads one \
             per instruction)",
        ),
        (
            ".proc main\n\tmov r0, r1[a0.x]\n.end\n",
            "line 2, column 13: expected `]`: only a float uniform (c0-c95) or an alias takes an index \
             register",
        ),
        (
            ".proc main\n\tjmpc cmp.x, nowhere\n.end\n",
            "line 2, column 14: expected a label (`nowhere` is not defined in this file)",
        ),
        (
            ".proc main\n\tend\n",
            "line 1, column 1: expected `.end` of this procedure before the end of the file",
        ),
        (
            ".proc sub\n\tend\n.end\n",
            "line 1, column 1: expected an entry procedure (`main` is not defined in any file)",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(error(text), want, "{text:?}");
    }
}

#[test]
fn blocks_nest_32_deep_whatever_the_text() {
    // picasso's stack holds 32 blocks: the procedure and 31 `ifu`; the 32nd `ifu` (line 33)
    // is refused, however deep the text goes.
    let text = format!(".proc main\n{}", "ifu b0\n".repeat(100_000));
    assert_eq!(
        error(&text),
        "line 33, column 1: expected `.end` before another block (picasso nests blocks at most 32 deep)"
    );
    let text = format!(".proc main\n{}", "for i0\n".repeat(31));
    assert_eq!(error(&text), "line 32, column 1: expected `.end` of this block before the end of the file");
    // Brackets and signs do not nest at all.
    let text = format!(".proc main\n\tmov r0, c0{}\n.end\n", "[".repeat(100_000));
    assert_eq!(error(&text), "line 2, column 100012: expected `]`");
    let text = format!(".proc main\n\tmov r0, {}c0\n.end\n", "-".repeat(100_000));
    assert_eq!(error(&text), "line 2, column 11: expected a register or an alias");
}

#[test]
fn any_text_reads_or_fails_cleanly() {
    // Every prefix of a real source, and its lines shuffled: never a panic.
    for end in (0..EVERY_FORM.len()).filter(|k| EVERY_FORM.is_char_boundary(*k)) {
        let _ = asm::assemble_text(&EVERY_FORM[..end]);
    }
    for junk in
        ["\u{0}", "]", ".", ":", "::", "[", "-", "!", ",,,,", "(", ")", "\r", "é", ".constfa", ".gsh fixed"]
    {
        for place in [0, 11, 40, 200] {
            let mut t = EVERY_FORM.to_string();
            let at = (0..=place.min(t.len())).rev().find(|k| t.is_char_boundary(*k)).unwrap_or(0);
            t.insert_str(at, junk);
            let _ = asm::assemble_text(&t);
        }
    }
}

#[test]
fn limits_and_libraries_are_picassos() {
    // 513 words fit a vertex shader (picasso checks before it adds one); the 514th is refused.
    let words = |n: usize| format!(".proc main\n{}\tend\n.end\n", "\tnop\n".repeat(n - 1));
    assert_eq!(asm::assemble_text(&words(513)).unwrap().code.len(), 513);
    assert_eq!(
        error(&words(514)),
        "line 515, column 2: expected no more instructions: a vertex shader holds at most 512 (picasso \
         lets 513 in)"
    );
    // v15 is reached as v14[1]; i4 is refused (picasso writes bit 24 for it).
    let a = asm::assemble_text(".proc main\n\tmov r0, v14[1]\n\tend\n.end\n").unwrap();
    assert_eq!(a.code[0], 0x4e00_f000);
    assert_eq!(
        error(".proc main\n\tfor i4\n\t.end\n.end\n"),
        "line 2, column 6: expected an integer uniform (i0-i3)"
    );
    // A `.nodvle` file is a library: its procedures, no entry.
    let a = asm::assemble_text(".nodvle\n.proc helper\n\tmov r0, r1\n\tend\n.end\n").unwrap();
    assert_eq!((a.executables.len(), a.procedures.len(), a.code.len()), (0, 1, 2));
}

#[test]
fn counts_too_wide_for_their_field_run_into_the_next_bits() {
    // picasso ORs a procedure's length and an else part's length into the word unmasked: 260
    // words set bit 8 beside the 8-bit count (picasso 2.7.1's words for these texts).
    let text = format!(
        ".proc big\n{}\tend\n.end\n.proc main\n\tcall big\n\tifu b0\n{}\t.else\n{}\t.end\n\tend\n.end\n",
        "\tnop\n".repeat(259),
        "\t\tnop\n".repeat(3),
        "\t\tmov r0, r1\n".repeat(240)
    );
    let a = asm::assemble_text(&text).unwrap();
    assert_eq!((a.code[0x104], a.code[0x105]), (0x9000_0104, 0x9c04_24f0));
    assert_eq!(a.instructions[0x104].unused, 0x100);
    let text = format!(
        ".proc big\n{}\tend\n.end\n.proc main\n\tcall big\n\tifu b0\n{}\t.else\n{}\t.end\n\tend\n.end\n",
        "\tnop\n".repeat(99),
        "\t\tnop\n".repeat(3),
        "\t\tmov r0, r1\n".repeat(300)
    );
    assert_eq!(asm::assemble_text(&text).unwrap().code[0x65], 0x9c01_a52c);
}
