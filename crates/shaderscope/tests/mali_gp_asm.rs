//! The Mali GP assembler (`isa::mali_gp::asm`): every corpus vertex shader's listing (bare,
//! and the whole MBS listing) assembles back to its words; random instructions and programs
//! print to text that assembles back to their bits; bad texts give exact errors; long texts
//! do not hang.

mod common;

use shaderscope::DisasmOptions;
use shaderscope::format::mbs::{Core, Mbs};
use shaderscope::isa::mali_gp::{self, Instr, asm::assemble};
use shaderscope::print::TextBuf;
use shaderscope::{Container, print::Printer};

/// The `DBIN` payload of a vertex shader MBS and its absolute offset.
fn gp_code(data: &[u8]) -> Option<(&[u8], u64)> {
    let mbs = Mbs::parse(data).ok()?;
    let (code, at) = mbs.shader().filter(|v| v.core() == Core::Gp)?.code()?;
    Some((data.get(at as usize..)?.get(..code.len())?, at))
}

/// Every vertex shader MBS of the corpus: (path relative to the MBS folder, bytes).
fn vertex_shaders() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = common::corpus_dir()?;
    let rows = common::files(&dir, "mbs", "mbs").filter(|(_, _, data)| gp_code(data).is_some());
    Some(rows.map(|(row, _, data)| (row.path, data)).collect())
}

fn listing(code: &[u8]) -> String {
    let mut text = TextBuf::default();
    let _ = mali_gp::write_listing(code, 0, &DisasmOptions::default(), &mut text);
    text.as_str().to_string()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn every_corpus_program_assembles_back_from_its_listing() {
    let Some(shaders) = vertex_shaders() else { return };
    let (mut programs, mut instructions, mut with_fields, mut fields_lines) = (0, 0, 0, 0);
    for (rel, data) in &shaders {
        let (code, _) = gp_code(data).unwrap();
        let text = listing(code);
        let words = assemble(&text).unwrap_or_else(|e| panic!("{rel}: {e}\n{text}"));
        assert_eq!(words, common::le_words(code), "{rel}:\n{text}");
        // The whole MBS listing (its header lines are comments) gives the same words.
        let file = shaderscope::parse(data).unwrap();
        let mut whole = TextBuf::default();
        file.disasm(&DisasmOptions::default(), &mut whole).unwrap();
        assert_eq!(assemble(whole.as_str()).unwrap(), words, "{rel}");
        programs += 1;
        instructions += words.len() / 4;
        with_fields += usize::from(text.contains("; fields "));
        for l in text.lines().filter(|l| l.contains("; fields ")) {
            println!("{rel}: {l}");
            fields_lines += 1;
        }
    }
    println!(
        "{programs} corpus GP programs ({instructions} instructions) back word for word; \
         {fields_lines} instructions of {with_fields} programs need a `; fields` line"
    );
    // shader_v.mbs and shader_v.mbs.libmali are one program: 14 instructions of 5 programs.
    assert!(
        shaders.is_empty() || (programs, instructions, with_fields, fields_lines) == (10, 166, 6, 16),
        "{programs} {instructions} {with_fields} {fields_lines}"
    );
}

/// xorshift128+-like generator: 128-bit values from a fixed seed.
struct Rng(u64, u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let (mut a, b) = (self.0, self.1);
        a ^= a << 23;
        a ^= a >> 17;
        a ^= b ^ (b >> 26);
        self.0 = b;
        self.1 = a;
        a.wrapping_add(b)
    }
    fn bits(&mut self) -> u128 {
        u128::from(self.next()) << 64 | u128::from(self.next())
    }
}

/// Raw bits, and bits shaped like real code (idle fields, sources in range), so both
/// the fields lines and Mesa's own text are exercised.
fn instruction(r: &mut Rng) -> u128 {
    let bits = r.bits();
    if r.next() % 2 == 0 {
        return bits;
    }
    // Keep a random half of the fields at what an idle instruction has.
    let idle = Instr { pass_op: 2, ..Instr::idle() }.encode();
    let keep = r.bits();
    (bits & keep) | (idle & !keep)
}

fn round_trip(words: &[u32]) {
    let code = bytes_of(words);
    let text = listing(&code);
    match assemble(&text) {
        Ok(back) => assert_eq!(back, words, "{words:08x?}:\n{text}"),
        Err(e) => panic!("{words:08x?}: {e}\n{text}"),
    }
}

#[test]
fn random_instructions_print_and_assemble_back() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15, 0xf39c_c060_5ced_c834);
    for _ in 0..100_000 {
        let i = Instr::decode(instruction(&mut r));
        round_trip(&i.words());
    }
}

#[test]
fn random_programs_print_and_assemble_back() {
    let mut r = Rng(0x0123_4567_89ab_cdef, 0x0fed_cba9_8765_4321);
    for _ in 0..5_000 {
        let n = 2 + (r.next() % 7) as usize;
        let words: Vec<u32> = (0..n).flat_map(|_| Instr::decode(instruction(&mut r)).words()).collect();
        round_trip(&words);
    }
}

#[test]
fn hand_written_text_assembles() {
    // sample/vertex.mbs's code.
    let text = "000:\tmov.a0 ^0/v0.x a0.x\n\tmov.a1 ^1/v0.y a0.y\n\tmov.m0 ^2/v0.z a0.z\n\tmov.m1 ^3/v0.w a0.w\n001:\tnop\n";
    let words = assemble(text).unwrap();
    assert_eq!(listing(&bytes_of(&words)), text);
    // The fill: an idle instruction is `nop` with pass_op 2.
    assert_eq!(assemble("000:\tnop\n").unwrap(), Instr { pass_op: 2, ..Instr::idle() }.words());
    // A fields line sets what the text cannot say, wherever it is.
    let with = assemble("; fields 000: mul_op=3 unknown_1=0\n000:\tnop\n").unwrap();
    assert_eq!(with, Instr { pass_op: 2, mul_op: 3, ..Instr::idle() }.words());
    // Mesa's stray tab (a complex unit with a source and `nop`) last on its line, and as
    // the end of the program.
    let stray = "000:\tmov.a0 ^0 a0.x\n\t\n";
    let i = Instr {
        acc0_src0: 0,
        acc0_src1: 22,
        acc0_src1_neg: 1,
        register0_attribute: 1,
        complex_src: 0,
        ..Instr { pass_op: 2, ..Instr::idle() }
    };
    assert_eq!(listing(&bytes_of(&i.words())), stray);
    assert_eq!(assemble(stray).unwrap(), i.words());
    let two = [i.words(), Instr { register0_addr: 1, ..i }.words()].concat();
    assert_eq!(listing(&bytes_of(&two)), "000:\tmov.a0 ^0 a0.x\n\t001:\tmov.a0 ^6 a1.x\n\t\n");
    assert_eq!(assemble("000:\tmov.a0 ^0 a0.x\n\t001:\tmov.a0 ^6 a1.x\n\t\n").unwrap(), two);
    // The previous instruction's port is read again when it read that component: a0.x
    // twice is source 28 the second time.
    let again = [i.words(), Instr { acc0_src0: 28, register0_attribute: 0, ..i }.words()].concat();
    assert_eq!(listing(&bytes_of(&again)), "000:\tmov.a0 ^0 a0.x\n\t001:\tmov.a0 ^6 a0.x\n\t\n");
    // `$0.x` is register 1 first: register 0's `$0` is a field the text does not carry.
    let j = Instr { register0_attribute: 0, ..i };
    assert_eq!(listing(&bytes_of(&j.words())), "000:\tmov.a0 ^0 $0.x\n\t; fields 000: acc0_src0=0\n");
    // Units may start with spaces.
    assert_eq!(
        assemble("000:\n    mov.a0 ^0/v0.x a0.x\n").unwrap(),
        assemble("000:\tmov.a0 ^0/v0.x a0.x\n").unwrap()
    );
}

#[test]
fn bad_texts_give_exact_errors() {
    let cases: &[(&str, &str)] = &[
        ("000:\tmul.m0 ^3 t[1].w a0.y\n", "line 1, column 13: expected `^2`"),
        ("001:\tnop\n", "line 1, column 1: expected instruction number 000"),
        ("\tnop\n", "line 1, column 1: expected an instruction number (`000:`) before the first unit"),
        ("000:\tnop\nxyz\n", "line 2, column 1: expected an instruction number (`000:`), a tab or `;`"),
        (
            "000:\tfrob.a0 ^0 a0.x\n",
            "line 1, column 6: expected an adder operation (`add`, `floor`, `sign`, `ge`, `lt`, `min`, `max`, `mov`, `op3`)",
        ),
        (
            "000:\tbogus ^0\n",
            "line 1, column 6: expected a unit's operation (`add.a0`, `mul.m1`, `rcp.c`, `mov.p`, `branch`, `nop`, …)",
        ),
        ("000:\tadd.a0 ^0 a0.x t[1].q\n", "line 1, column 26: expected a component (`x`, `y`, `z`, `w`)"),
        ("000:\tadd.a0 ^0 a0.x\n", "line 1, column 20: expected a space and a source"),
        (
            "000:\tadd.a0 ^0 a0.x t[1].x\n\tmin.a1 ^1 a0.x t[1].x\n",
            "line 2, column 2: expected the operation of the other adder (the adders share one)",
        ),
        ("000:\tadd.a0 ^0 a0.x t[1].x t[2].x\n", "line 1, column 27: expected the end of the line"),
        (
            "000:\tadd.a0 ^0 t[1].x t[2].x\n",
            "line 1, column 23: expected the address the instruction's other loads read (one load unit)",
        ),
        (
            "000:\tadd.a0 ^0 a0.x a1.x\n",
            "line 1, column 21: expected a register the ports hold (register 1, register 0 and the previous instruction's register 0: one `aN` or `$N` each)",
        ),
        (
            "000:\tmov.m0 ^2/$1.x a0.x\n\tmov.m1 ^3/$2.y a0.x\n",
            "line 2, column 12: expected the register the other unit stores this slot to (a slot has one)",
        ),
        (
            "000:\tmov.m0 ^2/$1.xz a0.x\n",
            "line 1, column 19: expected components of one store slot (`x`, `y`, `xy`, `z`, `w`, `zw`)",
        ),
        (
            "000:\tmov.m0 ^2 -a0.x\n",
            "line 1, column 16: expected a source without `-` (this source cannot be negated)",
        ),
        (
            "000:\tnop\n001:\tmov.a0 ^6 ^8\n",
            "line 2, column 17: expected a result of the previous instruction (`^0` … `^5`) or of the one before (`^-6` … `^-2`)",
        ),
        ("000:\tbranch ^4 512\n", "line 1, column 16: expected a branch target below 512"),
        (
            "000:\tnop\n; fields 000: nonsense=1\n",
            "line 2, column 15: expected a field of `gpir_codegen_instr` (`mul0_src0` … `branch_target`)",
        ),
        (
            "000:\tnop\n; fields 000: acc_op=8\n",
            "line 2, column 22: expected a value below 8 (acc_op has 3 bits)",
        ),
        (
            "000:\tnop\n; fields 001: acc_op=1\n",
            "line 2, column 10: expected an instruction number below 1 (the program's instructions)",
        ),
        (
            "000:\tmov.c ^5/addr4 a0.x\n",
            "line 1, column 14: expected `/addr0` … `/addr3` only after `mov.c`, once",
        ),
        (
            "000:\tclamp.p ^4 a0.x t[0].y t[0].y\n",
            "line 1, column 22: expected the load unit's `.x` (clamp's bound)",
        ),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(text, want)| {
            let got = assemble(text).map_or_else(|e| e.to_string(), |w| format!("{w:08x?}"));
            (got != *want).then(|| format!("{text:?}: {got}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn long_and_nested_texts_do_not_hang() {
    let deep = format!("000:\tadd.a0 ^0 {}\n", "t[".repeat(200_000));
    assert_eq!(assemble(&deep).unwrap_err().to_string(), "line 1, column 18: expected a number");
    let long = format!("000:\tadd.a0 ^0 a0.x{}\n", " ".repeat(1_000_000));
    assert!(assemble(&long).is_err());
    let slashes = format!("000:\tadd.a0 ^0{} a0.x a0.y\n", "/$1.x".repeat(100_000));
    assert!(assemble(&slashes).is_err());
    // 20 000 instructions: linear.
    let mut many = String::new();
    for i in 0..20_000 {
        many.push_str(&format!("{i:03}:\tnop\n"));
    }
    assert_eq!(assemble(&many).unwrap().len(), 80_000);
    let tabs = format!("000:{}\n", "\t".repeat(100_000));
    assert_eq!(
        assemble("000:\t\t\n").unwrap_err().to_string(),
        "line 1, column 6: expected one complex unit per instruction"
    );
    assert_eq!(
        assemble(&tabs).unwrap_err().to_string(),
        "line 1, column 6: expected one complex unit per instruction"
    );
    let _ = TextBuf::default().text_only();
}
