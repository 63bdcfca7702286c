//! The Latte assembler against the corpus: every program of every `.gsh` and SHARCFB, listed
//! as `disasm --format latte` lists it, assembles back to its words.

mod common;

use shaderscope::DisasmOptions;
use shaderscope::container::Container;
use shaderscope::isa::latte;
use shaderscope::print::TextBuf;

/// Every Latte program of the corpus: (file and part, bytes).
fn programs() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = common::corpus_dir()?;
    let mut out = Vec::new();
    for kind in ["gsh", "sharcfb"] {
        for (row, _, data) in common::files(&dir, "gx2", kind) {
            let Ok(file) = shaderscope::parse(&data) else { continue };
            for part in file.parts().into_iter().filter(|p| p.name.ends_with("program")) {
                out.push((format!("{} {}", row.path, part.name), part.bytes.to_vec()));
            }
        }
    }
    Some(out)
}

fn listing(code: &[u8]) -> String {
    let mut out = TextBuf::default();
    let _ = latte::write_listing(code, 0, &DisasmOptions::default(), &mut out);
    out.into_string()
}

#[test]
fn every_corpus_program_comes_back_from_its_listing() {
    let Some(programs) = programs() else { return };
    let mut same = 0;
    let mut failures = Vec::new();
    for (name, code) in &programs {
        let text = listing(code);
        let want = common::le_words(code);
        match latte::asm::assemble(&text) {
            Ok(words) if words == want => same += 1,
            Ok(words) => {
                let at =
                    words.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(words.len().min(want.len()));
                failures.push(format!(
                    "{name}: word {at} (of {} / {}): ours {:08x?} theirs {:08x?}",
                    words.len(),
                    want.len(),
                    words.get(at),
                    want.get(at)
                ));
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!("{same}/{} programs back from their listing", programs.len());
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{same}/{} programs; first: {:?}", programs.len(), failures.first());
}

/// A seeded xorshift.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Any bits of a clause instruction list into text that assembles back to them: every
/// corpus program with one random bit of its clauses flipped, 5 times over, where the flip
/// leaves a program that reads without problems (a damaged one, a clause cut by the end of
/// the bytes, lists `(missing literal)` and is not assembled back).
#[test]
fn flipped_clause_bits_come_back_from_the_listing() {
    let Some(programs) = programs() else { return };
    let mut rng = Rng(0x1a77e);
    let (mut tried, mut back) = (0, 0);
    let mut failures = Vec::new();
    for (name, code) in &programs {
        // The clauses start after the control flow: flip bits from the first clause on.
        let Some(first) = latte::instructions(code, 0)
            .iter()
            .filter(|i| !matches!(i.kind, latte::Kind::Cf(_)))
            .map(|i| i.at as usize)
            .min()
        else {
            continue;
        };
        for _ in 0..5 {
            let mut bytes = code.clone();
            let bit = first * 8 + (rng.next() as usize) % ((bytes.len() - first) * 8);
            bytes[bit / 8] ^= 1 << (bit % 8);
            if !latte::problems(&bytes, 0).is_empty() {
                continue;
            }
            tried += 1;
            let text = listing(&bytes);
            match latte::asm::assemble(&text) {
                Ok(words) if words == common::le_words(&bytes) => back += 1,
                other if failures.len() < 5 => {
                    failures.push(format!("{name} bit {bit}: {:?}\n{text}", other.map(|w| w.len())))
                }
                _ => {}
            }
        }
    }
    println!("{back}/{tried} flipped programs back from their listing");
    assert!(failures.is_empty(), "{back}/{tried}; first: {}", failures[0]);
    assert!(tried > 3000, "only {tried} flipped programs read without problems");
}

#[test]
fn errors_name_the_line_and_column() {
    let cases = [
        (
            "00 ALU: ADDR(2) CNT(1)\n  0   x: MOVE R0.x, R1.x\n",
            "line 2, column 10: expected an ALU operation",
        ),
        (
            "00 ALU: ADDR(2) CNT(1)\n  0   x: MOV R0.x, R1.q\n",
            "line 2, column 23: expected a channel (x, y, z or w)",
        ),
        (
            "00 ALU: ADDR(2) CNT(1)\n  0   x: MOV R0.x, R1.x ; NOPE(1)\n",
            "line 2, column 27: expected a field of the instruction (`NAME(value)`)",
        ),
        (
            "00 EXP_DONE: POS0, R1.xyzw\n\n02 NOP\n",
            "line 3, column 1: expected control-flow instruction 01 (the one after the last)",
        ),
        (
            "00 TEX: ADDR(2) CNT(1)\n  0      SAMPLE R0.xyzw, R1.xy, t0, s0\n",
            "line 2, column 31: expected a component select (x, y, z, w, 0, 1 or _)",
        ),
        (
            "END_OF_PROGRAM\n",
            "line 1, column 1: expected a control-flow instruction before END_OF_PROGRAM (an export or a normal one)",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(latte::asm::assemble(text).unwrap_err().to_string(), want, "{text}");
    }
}
