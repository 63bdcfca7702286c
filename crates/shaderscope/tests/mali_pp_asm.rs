//! The Mali PP assembler (`isa::mali_pp::asm`): every fragment shader of the corpus listed and
//! assembled back gives its words (from the bare listing and from the whole MBS's), random
//! programs of every unit print and assemble back to their words, bad texts get exact
//! errors, and a long text reads in linear time.

mod common;

use shaderscope::format::mbs::{Core, Mbs};
use shaderscope::isa::mali_pp::{self, Instruction, Unit, asm::assemble};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};

fn listing(code: &[u8]) -> String {
    let mut text = TextBuf::default();
    let _ = mali_pp::write_listing(code, 0, &DisasmOptions::default(), &mut text);
    text.into_string()
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn every_corpus_program_assembles_back_from_its_listing() {
    let Some(dir) = common::corpus_dir() else { return };
    let (mut programs, mut words) = (0, 0);
    for row in common::manifest(&dir, "mbs").into_iter().filter(|r| r.kind == "mbs") {
        let data = std::fs::read(dir.join("mbs").join(&row.path)).unwrap();
        let Ok(mbs) = Mbs::parse(&data) else { continue };
        let Some((code, at)) = mbs.shader().filter(|v| v.core() == Core::Pp).and_then(|v| v.code()) else {
            continue;
        };
        let code = &data[at as usize..][..code.len()];
        let expected = common::le_words(code);
        let text = listing(code);
        // Nothing beyond Mesa's text: every field is what the assembler writes.
        assert!(!text.contains('='), "{}:\n{text}", row.path);
        assert_eq!(
            assemble(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", row.path)),
            expected,
            "{}",
            row.path
        );
        // The whole file's listing: its `; …` header lines are comments.
        let file = shaderscope::parse(&data).unwrap();
        let mut whole = TextBuf::default();
        file.disasm(&DisasmOptions::default(), &mut whole).unwrap();
        assert!(whole.as_str().starts_with("; "), "{}", row.path);
        assert_eq!(assemble(whole.as_str()).unwrap(), expected, "{}", row.path);
        programs += 1;
        words += expected.len();
    }
    println!("{programs} programs, {words} words back from their listings");
    assert!(programs >= 20 && words >= 200, "{programs} programs, {words} words");
}

/// xorshift64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn u128(&mut self) -> u128 {
        u128::from(self.next()) | u128::from(self.next()) << 64
    }
}

/// A random unit field, now and then with the patterns that select its rarer forms.
fn field(r: &mut Rng, unit: Unit) -> u128 {
    let mut v = r.u128() & ((1u128 << unit.bits()) - 1);
    match (unit, r.below(6)) {
        (Unit::Branch, 0) => v = 0x007f_0003,
        (Unit::Branch, 1) => v |= 7 << 16,
        (Unit::TempWrite, 0) => v = (v & !0x3e) | 7 << 1,
        (Unit::Varying, 0) => v |= 15 << 10,
        (Unit::Uniform | Unit::TempWrite, 1) => {
            v = (v & !(0xffffu128 << 25)) | u128::from((r.below(8) as u16).wrapping_sub(4)) << 25
        }
        (Unit::Combine, 0) => v = (v & !(0xf << 22)) | 1 | 1 << (22 + r.below(4)),
        (Unit::Vec4Const0 | Unit::Vec4Const1, 0) => v &= 0x1fff_1fff_1fff_1fff,
        (Unit::Sampler, 0) => v = (v & ((1 << 42) - 1)) | 0x39001 << 42,
        _ => {}
    }
    v
}

/// A random program the decoder reads as itself (padding words 0).
fn random_program(r: &mut Rng) -> Vec<u32> {
    let n = 1 + r.below(5);
    let mut raw = Vec::new();
    for _ in 0..n {
        let mut ctrl = r.next() as u32;
        if r.below(2) == 0 {
            // Mostly a few units, the control fields as compilers write them.
            ctrl &= !(0xfff << 7);
            for _ in 0..r.below(5) {
                ctrl |= 1 << (7 + r.below(12));
            }
            ctrl &= 0x0000_007f;
        }
        let mut inst = Instruction { ctrl: mali_pp::Ctrl(ctrl), ..Instruction::default() };
        let by_fields = inst.ctrl.words_by_fields();
        if r.below(2) == 0 {
            inst.ctrl.0 = (inst.ctrl.0 & !31) | by_fields;
        }
        inst.words =
            if inst.ctrl.count() > by_fields && r.below(2) == 0 { inst.ctrl.count() } else { by_fields };
        for u in Unit::ALL {
            inst.fields[u as usize] = field(r, u);
        }
        raw.extend(inst.encode());
    }
    // Re-encoding can change how the words read (padding zeroed makes room for a count that
    // ran past the end): again until the words read as themselves.
    let mut words = raw;
    for _ in 0..8 {
        let again: Vec<u32> =
            mali_pp::instructions(&bytes(&words), 0).iter().flat_map(|i| i.encode()).collect();
        if again == words {
            break;
        }
        words = again;
    }
    words
}

#[test]
fn random_programs_print_and_assemble_back() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut instructions, mut extras) = (0, 0);
    while instructions < 100_000 {
        let words = random_program(&mut r);
        let code = bytes(&words);
        let text = listing(&code);
        let back = assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        if back != words {
            let a = mali_pp::instructions(&bytes(&back), 0);
            let b = mali_pp::instructions(&code, 0);
            for (x, y) in a.iter().zip(&b) {
                if x.encode() != y.encode() {
                    panic!("{:x} {:x}\n{:x?}\n{:x?}\n{text}", x.ctrl.0, y.ctrl.0, x.fields, y.fields);
                }
            }
        }
        assert_eq!(back, words, "\n{text}\n{} {}", back.len(), words.len());
        instructions += mali_pp::instructions(&code, 0).len();
        extras += text.matches('=').count();
    }
    println!(
        "{instructions} random instructions back from their listings ({extras} fields printed beyond Mesa's text)"
    );
}

#[test]
fn fields_beyond_mesas_text_print_only_where_they_differ() {
    // `load.v $1 1` with the offset's component 2 where there is no offset, an explicit LOD,
    // and an instruction whose count is 0: each shows.
    let words = [0x0000_0080u32 | 1 << 25 | 6 << 19 | 1 << 26, 0xf002_3c60, 0];
    let text = listing(&bytes(&words));
    assert_eq!(
        text.lines().next().unwrap(),
        "@     0: load.v $0 0, count=0, next_count=6, prefetch=1, unknown=1, varying=0xf0023c60"
    );
    assert_eq!(assemble(&text).unwrap(), words);
    // The raw field must print as the unit's text.
    assert_eq!(
        assemble("@ 0: load.v $0 1, varying=0xf0023c60").unwrap_err().to_string(),
        "line 1, column 19: expected varying bits that list as this line's varying text"
    );
}

#[test]
fn bad_texts_name_line_column_and_what_was_expected() {
    let cases = [
        ("mov.v1 $0 ^const0", "line 1, column 1: expected `@`"),
        (
            "@ 0: mov.v1 $0 ^const2, stop",
            "line 1, column 16: expected a register ($0 to $15, ^const0, ^const1, ^texture, ^uniform)",
        ),
        ("; header\n@ 0: load.v $1 64", "line 2, column 16: expected a varying index below 64"),
        (
            "@ 0: frob.v9 $0",
            "line 1, column 6: expected a unit's text (`load.v`, `texld`, `mov.v0`, …), `sync`, `stop` or `name=value`",
        ),
        ("@ 0: stop, stop", "line 1, column 12: expected `stop` once"),
        ("@ 0: mov.v0 $0 $1.xyz", "line 1, column 18: expected a swizzle of four components (`.xxyz`)"),
        ("@ 0: add.s1 $0.q $1.x $2.y", "line 1, column 16: expected a component (`.x`, `.y`, `.z` or `.w`)"),
        (
            "@ 0: mul.v0 $0 $1<<9 $2",
            "line 1, column 18: expected a scale `<<1` to `<<7` after a `mul`'s first source, or a space",
        ),
        (
            "@ 0: rcp.sat.s2 $0 $1.x ",
            "line 1, column 9: expected `.s2` (a vector destination takes no output modifier)",
        ),
        (
            "@ 0: branch.xx $0.x $0.y 4",
            "line 1, column 13: expected a condition (`lt`, `eq`, `le`, `gt`, `ne`, `ge`, `nv`)",
        ),
        (
            "@ 0: branch 99999999",
            "line 1, column 13: expected a target within 2^26 words of this instruction (word 0)",
        ),
        (
            "@ 0: const0 1.0 2.0 x 4.0",
            "line 1, column 21: expected a 16-bit float (`1.500000`, `inf`, `nan`)",
        ),
        ("@ 0: const1 1 1 1 70000", "line 1, column 19: expected a 16-bit float (`1.500000`, `inf`, `nan`)"),
        (
            "@ 0: load.u 1, load.u 2",
            "line 1, column 16: expected a unit not already in this instruction (a second uniform)",
        ),
        ("@ 0: texld 3, count=99", "line 1, column 21: expected a number up to 31"),
        (
            "@ 0: texld 3, varying=0x1",
            "line 1, column 15: expected a unit of this instruction (it has no varying field)",
        ),
        ("@ 0: load.t 70000", "line 1, column 13: expected an index (a signed number)"),
        ("@ 0: mov.v1 $0 $1 $2", "line 1, column 19: expected `,`"),
    ];
    for (text, message) in cases {
        assert_eq!(assemble(text).unwrap_err().to_string(), message, "{text}");
    }
}

#[test]
fn a_very_long_text_reads_in_linear_time() {
    let line = "@     0: load.v $1 1, rcp.s2 $0.y  $1.w , mul.v0 $0 $1<<3 -abs(^texture.xxyz)\n";
    let text = line.repeat(100_000);
    let start = std::time::Instant::now();
    let words = assemble(&text).unwrap();
    assert_eq!(words.len(), 100_000 * 5);
    let long = format!("@ 0: {}", "x".repeat(1 << 20));
    assert!(assemble(&long).is_err());
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
