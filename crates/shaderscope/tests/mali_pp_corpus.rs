//! The Mali PP listing against Mesa's (`lima_disasm`, Mesa 22.3.6), for every fragment
//! shader (`CFRA`) MBS of the corpus: every line of `reference/mesa-lima/<path>.mesa-lima_disasm.txt`
//! must be a line of ours, in order and consecutive, byte for byte (trailing spaces
//! included). The program is the `DBIN` chunk of the `CFRA` chunk. Then every truncation
//! and a sweep of byte flips of each program list without a panic or a hang.

mod common;

use shaderscope::DisasmOptions;
use shaderscope::format::mbs::{Core, Mbs};
use shaderscope::isa::mali_pp;
use shaderscope::print::TextBuf;
use std::path::Path;

/// The DBIN payload of a fragment shader MBS and its absolute offset, or `None` for a vertex
/// shader, as the MBS reader finds it.
fn fragment_dbin(data: &[u8]) -> Option<(&[u8], u64)> {
    let mbs = Mbs::parse(data).ok()?;
    let (code, at) = mbs.shader().filter(|v| v.core() == Core::Pp)?.code()?;
    Some((data.get(at as usize..)?.get(..code.len())?, at))
}

/// Every fragment MBS of the corpus: (path, DBIN payload, its offset, Mesa's listing).
fn programs(dir: &Path) -> Vec<(String, Vec<u8>, u64, String)> {
    let mut out = Vec::new();
    for row in common::manifest(dir, "mbs").into_iter().filter(|r| r.kind == "mbs") {
        let data = std::fs::read(dir.join("mbs").join(&row.path)).unwrap();
        let Some((code, base)) = fragment_dbin(&data) else { continue };
        let reference =
            dir.join("mbs/reference/mesa-lima").join(format!("{}.mesa-lima_disasm.txt", row.path));
        let text =
            std::fs::read_to_string(&reference).unwrap_or_else(|e| panic!("{}: {e}", reference.display()));
        out.push((row.path, code.to_vec(), base, text));
    }
    out
}

fn listing(code: &[u8], base: u64) -> (String, bool) {
    let mut text = TextBuf::default();
    let ok = mali_pp::write_listing(code, base, &DisasmOptions::default(), &mut text).is_ok();
    (text.into_string(), ok)
}

#[test]
fn every_line_of_mesas_listing_is_in_ours() {
    let Some(dir) = common::corpus_dir() else { return };
    let programs = programs(&dir);
    assert!(programs.len() >= 20, "only {} fragment shaders found", programs.len());
    let mut lines_checked = 0;
    for (path, code, base, reference) in &programs {
        let (ours, ok) = listing(code, *base);
        assert!(ok, "{path}: {:?}", mali_pp::problems(code, *base));
        let ours: Vec<&str> = ours.lines().collect();
        let theirs: Vec<&str> = reference.lines().filter(|l| !l.trim().is_empty()).collect();
        assert!(!theirs.is_empty(), "{path}: empty reference");
        let found = ours.windows(theirs.len()).any(|w| w == theirs.as_slice());
        assert!(found, "{path}:\nours:\n{}\nMesa's:\n{}", ours.join("\n"), theirs.join("\n"));
        lines_checked += theirs.len();
        // Records and listing agree: one record per line, the same text.
        let records = mali_pp::records(code, *base);
        assert_eq!(records.len(), ours.len(), "{path}");
        for (r, l) in records.iter().zip(&ours) {
            assert_eq!(l.split_once(": ").map(|(_, t)| t.trim()), Some(r.text.as_str()), "{path}");
        }
        // No finding on a program a compiler wrote.
        assert_eq!(mali_pp::check(code, *base), [], "{path}");
    }
    assert!(lines_checked >= 40, "{lines_checked} lines");
}

#[test]
fn truncations_and_byte_flips_list_without_panic() {
    let Some(dir) = common::corpus_dir() else { return };
    for (path, code, base, _) in programs(&dir) {
        let whole = listing(&code, base).0.lines().count();
        for len in 0..code.len() {
            let cut = &code[..len];
            let (text, ok) = listing(cut, base);
            assert!(text.lines().count() <= whole + 3, "{path} cut at {len}");
            // A cut inside an instruction is a problem; at an instruction boundary it is not.
            if len % 4 != 0 {
                assert!(!ok, "{path} cut at {len}");
            }
            let _ = mali_pp::records(cut, base);
            let _ = mali_pp::check(cut, base);
            let mut a = shaderscope::dump::Annotations::new();
            mali_pp::annotate(cut, base, &mut a);
        }
        for i in 0..code.len() {
            for flip in [0x01u8, 0x10, 0x80, 0xff] {
                let mut bad = code.clone();
                bad[i] ^= flip;
                let (text, _) = listing(&bad, base);
                // At most one line per word, and one problem line per line.
                assert!(text.lines().count() <= 2 * (bad.len() / 4) + 2, "{path} flip {flip:#x} at {i}");
                let _ = mali_pp::records(&bad, base);
                let _ = mali_pp::check(&bad, base);
                let mut a = shaderscope::dump::Annotations::new();
                mali_pp::annotate(&bad, base, &mut a);
            }
        }
    }
}

/// Decode then encode gives back the exact words of every instruction of every fragment
/// shader of the corpus (padding words included).
#[test]
fn decode_then_encode_gives_back_every_word_of_every_program() {
    let Some(dir) = common::corpus_dir() else { return };
    let programs = programs(&dir);
    let mut n = 0;
    for (path, code, base, _) in &programs {
        let instructions = mali_pp::instructions(code, *base);
        assert!(!instructions.is_empty(), "{path}");
        for i in &instructions {
            let words = i.encode();
            let start = (i.at - base) as usize;
            let read = common::le_words(&code[start..start + 4 * words.len()]);
            assert_eq!(words, read, "{path}: instruction @{} at 0x{:x}", i.pc, i.at);
            n += 1;
        }
        // The instructions cover the program, word for word.
        let covered: u32 = instructions.iter().map(|i| i.words).sum();
        assert_eq!(4 * covered as usize, code.len(), "{path}");
    }
    println!("{n} instructions of {} programs decode and encode back", programs.len());
    assert!(!programs.is_empty());
}
