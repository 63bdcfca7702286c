//! The Mali GP listing against Mesa's (`lima_disasm` of Mesa 22.3.6), for every vertex
//! shader (`CVER`) MBS file of the corpus: every line of the reference listing is a line of
//! ours, in order, consecutively (the code is the `DBIN` chunk's payload). Also: the records
//! agree with the listing, and every truncation and byte flip of the corpus code lists
//! without a panic, failing only with the first of its problems.

mod common;

use shaderscope::DisasmOptions;
use shaderscope::format::mbs::{Core, Mbs};
use shaderscope::isa::mali_gp;
use shaderscope::print::TextBuf;

/// The `DBIN` payload of a vertex shader MBS and its absolute offset (`None`: not a vertex
/// shader), as the MBS reader finds it.
fn gp_code(data: &[u8]) -> Option<(&[u8], u64)> {
    let mbs = Mbs::parse(data).ok()?;
    let (code, at) = mbs.shader().filter(|v| v.core() == Core::Gp)?.code()?;
    Some((data.get(at as usize..)?.get(..code.len())?, at))
}

/// Every vertex shader of the corpus: (path relative to the MBS folder, file bytes).
fn vertex_shaders() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = common::corpus_dir()?;
    let rows = common::files(&dir, "mbs", "mbs").filter(|(_, _, data)| gp_code(data).is_some());
    Some(rows.map(|(row, _, data)| (row.path, data)).collect())
}

/// Whether `want` appears as consecutive lines of `have`.
fn contains(have: &[&str], want: &[&str]) -> bool {
    want.is_empty() || have.windows(want.len()).any(|w| w == want)
}

#[test]
fn every_line_of_mesas_listing_is_in_ours() {
    let Some(shaders) = vertex_shaders() else { return };
    let root = common::corpus_dir().unwrap().join("mbs/reference/mesa-lima");
    let mut compared = 0;
    for (rel, data) in &shaders {
        let (code, base) = gp_code(data).unwrap();
        let mut text = TextBuf::default();
        mali_gp::write_listing(code, base, &DisasmOptions::default(), &mut text)
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        let Ok(reference) = std::fs::read_to_string(root.join(format!("{rel}.mesa-lima_disasm.txt"))) else {
            continue;
        };
        let want: Vec<&str> = reference.lines().collect();
        let have: Vec<&str> = text.as_str().lines().collect();
        assert!(want.len() > 4, "{rel}: the reference has {} lines", want.len());
        if !contains(&have, &want) {
            let first = want.iter().zip(&have).position(|(a, b)| a != b);
            panic!(
                "{rel}: Mesa's listing is not in ours; first difference at line {first:?}:\n  mesa: {:?}\n  ours: {:?}",
                first.and_then(|i| want.get(i)),
                first.and_then(|i| have.get(i))
            );
        }
        assert!(mali_gp::problems(code, base).is_empty(), "{rel}");
        compared += 1;
    }
    println!("{compared} vertex shaders compared with Mesa's listing");
    assert!(compared >= 9, "only {compared} vertex shaders had a reference");
}

#[test]
fn records_are_the_listing_lines() {
    let Some(shaders) = vertex_shaders() else { return };
    for (rel, data) in &shaders {
        let (code, base) = gp_code(data).unwrap();
        let mut text = TextBuf::default();
        mali_gp::write_listing(code, base, &DisasmOptions::default(), &mut text).unwrap();
        let lines: Vec<String> = text
            .as_str()
            .lines()
            .map(|l| l.split_once('\t').map_or(l, |(_, t)| t).trim().to_string())
            // What Mesa's text does not carry, after the program (`isa::mali_gp::asm`).
            .filter(|l| !l.starts_with("; fields "))
            .collect();
        let records = mali_gp::records(code, base);
        let texts: Vec<String> = records.iter().map(|r| r.text.clone()).collect();
        assert_eq!(texts, lines, "{rel}");
        for r in &records {
            let at = (r.offset - base) as usize;
            assert_eq!(at % 16, 0, "{rel}");
            let words: Vec<u32> = code[at..at + 16]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            assert_eq!(words, r.words, "{rel} at 0x{:x}", r.offset);
            assert!(r.text.starts_with(&r.mnemonic), "{rel}: {}", r.text);
        }
        let mut a = shaderscope::dump::Annotations::new();
        mali_gp::annotate(code, base, &mut a);
        assert_eq!(a.fields().count(), code.len() / 16, "{rel}");
        assert_eq!(a.errors().count(), 0, "{rel}");
        assert!(mali_gp::check(code, base).is_empty(), "{rel}: {:?}", mali_gp::check(code, base));
    }
}

/// Every truncation of every corpus program, and every single-bit flip of its first 64
/// bytes and a byte flip of every byte, lists without a panic; the listing fails only with
/// the first problem, and the records never reach past the code.
#[test]
fn truncations_and_flips_of_the_corpus_code_never_panic() {
    let Some(shaders) = vertex_shaders() else { return };
    let mut runs = 0;
    let mut one = |code: &[u8], base: u64| {
        let mut text = TextBuf::default();
        let r = mali_gp::write_listing(
            code,
            base,
            &DisasmOptions::default().with_offsets(true).with_raw(true),
            &mut text,
        );
        assert_eq!(r.err(), mali_gp::problems(code, base).into_iter().next());
        for rec in mali_gp::records(code, base) {
            assert!(rec.offset + 16 <= base + code.len() as u64);
        }
        let _ = mali_gp::check(code, base);
        mali_gp::annotate(code, base, &mut shaderscope::dump::Annotations::new());
        runs += 1;
    };
    for (_, data) in &shaders {
        let (code, base) = gp_code(data).unwrap();
        for len in 0..=code.len() {
            one(&code[..len], base);
        }
        let mut m = code.to_vec();
        for at in 0..m.len() {
            m[at] ^= 0xff;
            one(&m, base);
            m[at] ^= 0xff;
        }
        for bit in 0..(64.min(m.len()) * 8) {
            m[bit / 8] ^= 1 << (bit % 8);
            one(&m, base);
            m[bit / 8] ^= 1 << (bit % 8);
        }
    }
    assert!(shaders.is_empty() || runs > 1000, "{runs}");
}

/// Decode then encode gives back the exact four words of every instruction of every vertex
/// shader of the corpus.
#[test]
fn decode_then_encode_gives_back_every_word_of_every_program() {
    use shaderscope::isa::mali_gp::decode::{Instr, bits_of};
    let Some(shaders) = vertex_shaders() else { return };
    let mut n = 0;
    for (name, data) in &shaders {
        let (code, at) = gp_code(data).unwrap();
        for (i, chunk) in code.chunks_exact(16).enumerate() {
            let words = common::le_words(chunk);
            let instr = Instr::decode(bits_of(chunk.try_into().unwrap()));
            assert_eq!(
                instr.words().to_vec(),
                words,
                "{name}: instruction {i} at 0x{:x}",
                at + 16 * i as u64
            );
            n += 1;
        }
    }
    println!("{n} instructions of {} programs decode and encode back", shaders.len());
    assert!(!shaders.is_empty() && n >= shaders.len());
}
