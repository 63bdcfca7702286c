//! DVLEs whose header leaves `endmain` 0, as nihstro writes it (it never fills `endmain` or the
//! used-register masks; the PICA200 takes only the entry point and runs to an end
//! instruction, and libctru/citro3d read `endmain` without using it). Built with the
//! project's builder (`common/built.rs`): the listing has main's code, `info` says what the
//! code reads and the output table names, `validate` warns at the field, `dump`, `extract`
//! and the JSON records agree. `pica_reassemble.rs` reads the listing back as the binary.

#[path = "common/built.rs"]
mod built;

use shaderscope::dump::Annotations;
use shaderscope::isa::pica::{Instruction, Op};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions, Severity};

fn parse(bytes: &[u8]) -> shaderscope::File<'_> {
    shaderscope::parse(bytes).unwrap()
}

fn listing(file: &shaderscope::File<'_>, opts: &DisasmOptions) -> String {
    let mut out = TextBuf::default();
    file.disasm(opts, &mut out).unwrap();
    out.into_string()
}

/// The DVLE's declarations, as for the builder's model (`shbin::build`).
const DECLARATIONS: &str = ".fvec projection[4] ; c0\n.constf const_c95(0.0, 1.0, -1.0, 0.09999943) ; c95\n\
                            .out outpos position o0\n.out outclr color o1\n.entry main\n";

#[test]
fn main_is_listed_to_its_end_instruction() {
    let bytes = built::endmain_0().write().unwrap();
    let file = parse(&bytes);
    let source = format!(
        "; vertex shader: entry 0x000..0x008 of 8 code words, 7 operand descriptors\n\
         ; endmain is 0 (nihstro writes this): main is listed to the end instruction that ends it\n\
         {DECLARATIONS}\n.proc main\n\
         \tmov r0.xyz, v0\n\tmov r0.w, const_c95.y\n\
         \tdp4 outpos.x, projection[0], r0\n\tdp4 outpos.y, projection[1], r0\n\
         \tdp4 outpos.z, projection[2], r0\n\tdp4 outpos.w, projection[3], r0\n\
         \tmov outclr, v1\n\tend\n.end\n"
    );
    // With --dvle or without: the DVLE's header line, the source, and no code left unrun.
    let source = format!("; DVLE 0: vertex shader, main 0x0, endmain 0x0\n{source}");
    assert_eq!(listing(&file, &DisasmOptions::default().with_program(0)), source);
    assert_eq!(listing(&file, &DisasmOptions::default()), source);
    // With the columns: each instruction's file offset and word.
    let columns = listing(&file, &DisasmOptions::default().with_program(0).with_offsets(true).with_raw(true));
    assert!(columns.contains("\tmov r0.xyz, v0 ; 0x000034 4e000000\n"), "{columns}");
    assert!(columns.contains("\tend ; 0x000050 88000000\n"), "{columns}");

    // The JSON record: every instruction of main, and where the entry range ends.
    let json = file.disasm_json(&DisasmOptions::default()).unwrap();
    let program = &json.programs[0];
    let texts: Vec<&str> = program.instructions.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(texts.len(), 8);
    assert_eq!((texts[0], texts[7]), ("mov r0.xyz, v0", "end"));
    assert_eq!((program.instructions[0].offset, program.instructions[7].offset), (0x34, 0x50));
    let extra = |k: &str| program.extra.get(k).cloned();
    assert_eq!(
        (extra("main"), extra("endmain"), extra("entry_end")),
        (Some(0.into()), Some(0.into()), Some(8.into()))
    );

    // The code part of the DVLE is its entry range.
    let part = file.part("dvle0.code").unwrap();
    assert_eq!((part.offset, part.bytes.len()), (0x34, 32));
}

#[test]
fn main_is_listed_with_what_it_calls() {
    let bytes = built::endmain_0_calling().write().unwrap();
    let file = parse(&bytes);
    let source = listing(&file, &DisasmOptions::default().with_program(0));
    let expected = format!(
        "; DVLE 0: vertex shader, main 0x0, endmain 0x0\n\
         ; vertex shader: entry 0x000..0x008 of 9 code words, 7 operand descriptors\n\
         ; endmain is 0 (nihstro writes this): main is listed to the end instruction that ends it\n\
         {DECLARATIONS}\n.proc main\n\
         \tmov r0.xyz, v0\n\tmov r0.w, const_c95.y\n\
         \tdp4 outpos.x, projection[0], r0\n\tdp4 outpos.y, projection[1], r0\n\
         \tdp4 outpos.z, projection[2], r0\n\tdp4 outpos.w, projection[3], r0\n\
         \tcall proc_008\n\tend\n.end\n\n.proc proc_008\n\tmov outclr, v1\n.end\n"
    );
    assert_eq!(source, expected);
    assert!(!listing(&file, &DisasmOptions::default()).contains("code no DVLE runs"));
}

/// nihstro writes a label for every `name:` line, the return labels of `call name until
/// end_name` among them, so each routine after main shares its address with the return label
/// of the routine before it (Caelina's vertex_lighting_3ds.vsh: `end_pow` and `length`). The
/// routine is named by its own label, as Nintendo's `endlength` gives way to `normalize`.
#[test]
fn routines_are_named_by_their_own_label_not_the_return_label_before_them() {
    let bytes = built::endmain_0_return_labels().write().unwrap();
    let file = parse(&bytes);
    let expected = format!(
        "; DVLE 0: vertex shader, main 0x0, endmain 0x0\n\
         ; vertex shader: entry 0x000..0x009 of 11 code words, 7 operand descriptors\n\
         ; endmain is 0 (nihstro writes this): main is listed to the end instruction that ends it\n\
         {DECLARATIONS}\n.proc main\n\
         \tmov r0.xyz, v0\n\tmov r0.w, const_c95.y\n\
         \tdp4 outpos.x, projection[0], r0\n\tdp4 outpos.y, projection[1], r0\n\
         \tdp4 outpos.z, projection[2], r0\n\tdp4 outpos.w, projection[3], r0\n\
         \tcall first\n\tcall second\n\tend\n.end\n\n\
         .proc first\n\tmov outclr, v1\n.end\n\n.proc second\n\tmov r0.xyz, v0\n.end\n"
    );
    assert_eq!(listing(&file, &DisasmOptions::default().with_program(0)), expected);
}

#[test]
fn info_says_what_the_code_reads_and_the_output_table_names() {
    let bytes = built::endmain_0().write().unwrap();
    let file = parse(&bytes);
    let info = file.info_text();
    assert_eq!(
        info,
        "format: Nintendo 3DS shader binary (DVLB)\n\
         summary: 1 DVLB, 1 DVLE (vertex), producer picasso\n\
         DVLB at 0x0: 260 bytes, 1 DVLE, producer picasso\n  \
         DVLP at 0xc: version 0x0, 40-byte header, 8 instructions (code at 0x34), 7 operand descriptors\n  \
         DVLE 0 at 0x8c: vertex shader, version 0x1002, main 0x0, endmain 0x0 (not recorded: main runs 0x0..0x8, to its end instruction)\n    \
         inputs: v0 v1 (read by the code; the header's mask is 0); outputs: o0 o1 (from the output table; the header's mask is 0)\n    \
         output table: o0 position.xyzw, o1 color.xyzw\n    \
         uniforms: projection c0-c3\n    \
         constant c95 = (0, 1, -1, 0.09999943)\n"
    );
    let v = file.info_json().to_value();
    let dvle = &v["dvlbs"][0]["dvles"][0];
    assert_eq!(
        (
            &dvle["endmain"],
            &dvle["entry_end"],
            &dvle["input_mask"],
            &dvle["inputs_read"],
            &dvle["output_mask"]
        ),
        (&0.into(), &8.into(), &0.into(), &3.into(), &0.into())
    );
}

#[test]
fn validate_warns_at_the_endmain_field() {
    let bytes = built::endmain_0().write().unwrap();
    let file = parse(&bytes);
    let findings = file.validate();
    assert_eq!(findings.len(), 1, "{findings:?}");
    let f = &findings[0];
    // The DVLE header is at 0x8c; endmain is its word at +0xc.
    assert_eq!((f.severity, f.offset), (Severity::Warning, 0x98));
    assert_eq!(
        f.message,
        "DVLE 0: endmain is 0 (nihstro writes this): the code from main to its end instruction, 0x0..0x8, is taken as the program"
    );
    // The checks of the code a DVLE runs cover that program: an `emit` in it is found.
    let mut dvlb = built::endmain_0();
    dvlb.dvlp.code[1] = Instruction { op: Op::Emit, ..Instruction::default() }.encode();
    let bytes = dvlb.write().unwrap();
    let findings = parse(&bytes).validate();
    let at_1: Vec<&str> = findings.iter().filter(|f| f.offset == 0x38).map(|f| f.message.as_str()).collect();
    assert_eq!(at_1, ["DVLE 0: instruction 0x001: emit in a vertex shader"]);

    // With no end instruction after main, the warning says the program runs off the code.
    let mut dvlb = built::endmain_0();
    dvlb.dvlp.code[7] = 0x8400_0000; // nop instead of end
    let bytes = dvlb.write().unwrap();
    let findings = parse(&bytes).validate();
    let messages: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
    assert!(
        messages.contains(
            &"DVLE 0: endmain is 0 (nihstro writes this) and no end instruction ends main: the code from main to the end of the code, 0x0..0x8, is taken as the program"
        ),
        "{messages:?}"
    );
}

#[test]
fn dump_says_endmain_is_not_recorded() {
    let bytes = built::endmain_0().write().unwrap();
    let file = parse(&bytes);
    let mut a = Annotations::new();
    file.annotate(&mut a);
    let endmain: Vec<&str> = a.fields().filter(|(r, _)| r.start == 0x98).map(|(_, t)| t).collect();
    assert_eq!(
        endmain,
        ["endmain: 0x0 (not recorded, as nihstro writes it: main runs to its end instruction)"]
    );
}
