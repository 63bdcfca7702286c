//! The Latte listing against decaf-emu's, for every shader of every `.gsh` in the corpus.
//!
//! The program words come from the reference files themselves (the hex lines after each
//! `---- vertex|pixel|geometry (N bytes) ----` line), so this test needs no GFD reader; the
//! listing lines after them are decaf's, up to the next `----` line, without the summary line
//! of the next shader (`PS mode=1 …`), which the container prints. Every shader's listing
//! must be reproduced line for line, blank lines included. The words also agree with the
//! program blocks of the `.gsh` files (checked here by reading the blocks directly: `BLK{`
//! headers of types 5, 7, 9 and 10), read as little-endian words.

mod common;

use shaderscope::DisasmOptions;
use shaderscope::isa::latte;
use shaderscope::print::TextBuf;
use std::path::Path;

/// One shader of a reference file.
struct Shader {
    /// `reference path: stage #n`.
    name: String,
    /// The program bytes (the hex words, little-endian).
    code: Vec<u8>,
    /// decaf's listing lines.
    listing: Vec<String>,
}

fn is_hex_line(l: &str) -> bool {
    let t = l.trim();
    !t.is_empty() && t.split(' ').all(|w| w.len() == 8 && w.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_summary(l: &str) -> bool {
    ["VS ", "PS ", "GS "].iter().any(|p| l.starts_with(p)) && l.contains(" mode=")
}

/// The shaders of one reference file.
fn shaders(name: &str, text: &str) -> Vec<Shader> {
    let mut out: Vec<Shader> = Vec::new();
    let mut in_hex = false;
    for l in text.lines().map(str::trim_end) {
        if let Some(rest) = l.strip_prefix("---- ") {
            let stage = rest.split(' ').next().unwrap_or("?");
            out.push(Shader {
                name: format!("{name}: {stage} #{}", out.len()),
                code: Vec::new(),
                listing: Vec::new(),
            });
            in_hex = true;
            continue;
        }
        let Some(cur) = out.last_mut() else { continue };
        if in_hex && is_hex_line(l) {
            for w in l.split_whitespace() {
                cur.code.extend(u32::from_str_radix(w, 16).unwrap().to_le_bytes());
            }
            continue;
        }
        in_hex = false;
        cur.listing.push(l.to_string());
    }
    for s in &mut out {
        while s.listing.first().is_some_and(|l| l.is_empty()) {
            s.listing.remove(0);
        }
        while s.listing.last().is_some_and(|l| l.is_empty() || is_summary(l)) {
            s.listing.pop();
        }
    }
    out
}

/// Every `.gsh` of the manifest with its reference file.
fn references(dir: &Path) -> Vec<(String, String)> {
    common::manifest(dir, "gx2")
        .into_iter()
        .filter(|r| r.kind == "gsh")
        .filter_map(|r| {
            let path = dir.join("gx2/reference/decaf").join(format!("{}.txt", r.path));
            Some((r.path, std::fs::read_to_string(path).ok()?))
        })
        .collect()
}

/// Our listing with what it shows beyond decaf's taken out: the lines before the program
/// (`; data at +…`, `; fetch padding …`) and the fields after ` ; ` that the text does not
/// carry (the assembler reads both back; decaf shows neither). `added` counts the listings
/// that have any.
fn listing_as_decaf(code: &[u8], added: &mut usize) -> Vec<String> {
    let mut out = TextBuf::default();
    latte::write_listing(code, 0, &DisasmOptions::default(), &mut out).unwrap();
    let mut any = false;
    let mut lines: Vec<String> = Vec::new();
    for l in out.as_str().lines() {
        if l.starts_with("; data at +") || l.starts_with("; fetch padding ") || l.starts_with("; zeros at +")
        {
            any = true;
            continue;
        }
        lines.push(match l.find(" ; ") {
            Some(i) => {
                any = true;
                l[..i].trim_end().to_string()
            }
            None => l.trim_end().to_string(),
        });
    }
    *added += usize::from(any);
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

#[test]
fn every_shader_listing_matches_decaf() {
    let Some(dir) = common::corpus_dir() else { return };
    let mut total = 0;
    let mut same = 0;
    let mut added = 0;
    let mut first_failures = Vec::new();
    for (path, text) in references(&dir) {
        for s in shaders(&path, &text) {
            total += 1;
            let got = listing_as_decaf(&s.code, &mut added);
            if got == s.listing {
                same += 1;
            } else if first_failures.len() < 5 {
                let at = got
                    .iter()
                    .zip(&s.listing)
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.len().min(s.listing.len()));
                first_failures.push(format!(
                    "{} line {}:\n  decaf: {:?}\n  ours:  {:?}",
                    s.name,
                    at + 1,
                    s.listing.get(at),
                    got.get(at)
                ));
            }
        }
    }
    println!("{same}/{total} shader listings identical ({added} with lines or fields decaf does not show)");
    assert!(
        first_failures.is_empty(),
        "{same}/{total} identical; first differences:\n{}",
        first_failures.join("\n")
    );
    assert!(total >= 800, "only {total} shaders in the references");
}

#[test]
fn every_shader_reads_without_problems_and_its_records_cover_the_listing() {
    let Some(dir) = common::corpus_dir() else { return };
    let mut n = 0;
    for (path, text) in references(&dir) {
        for s in shaders(&path, &text) {
            assert!(latte::problems(&s.code, 0).is_empty(), "{}", s.name);
            assert!(latte::check(&s.code, 0).is_empty(), "{}: {:?}", s.name, latte::check(&s.code, 0));
            let records = latte::records(&s.code, 0);
            // Every instruction line of decaf's listing (not blank, not END_OF_PROGRAM) is one
            // record, and each record's mnemonic is on its line.
            let lines: Vec<&String> =
                s.listing.iter().filter(|l| !l.is_empty() && *l != "END_OF_PROGRAM").collect();
            assert_eq!(records.len(), lines.len(), "{}", s.name);
            for (r, l) in records.iter().zip(&lines) {
                assert!(l.contains(&r.mnemonic), "{}: {:?} not in {l:?}", s.name, r.mnemonic);
            }
            n += 1;
        }
    }
    assert!(n == 0 || n >= 800);
}

/// The program words of the references are the program blocks of the `.gsh` files read as
/// little-endian 32-bit words (the bytes as the GPU reads them; the GFD container around
/// them is big-endian). latte-assembler files (MultiDRCSpaceDemo, gx2-texture) included.
#[test]
fn reference_words_are_the_gsh_program_blocks_read_little_endian() {
    let Some(dir) = common::corpus_dir() else { return };
    let mut checked = 0;
    for (path, text) in references(&dir) {
        let data = std::fs::read(dir.join("gx2").join(&path)).unwrap();
        let be = |at: usize| u32::from_be_bytes(data[at..at + 4].try_into().unwrap()) as usize;
        let mut blocks = Vec::new();
        let mut at = be(4);
        while at + 32 <= data.len() && &data[at..at + 4] == b"BLK{" {
            let (header, kind, size) = (be(at + 4), be(at + 16), be(at + 20));
            if matches!(kind, 5 | 7 | 9 | 10) {
                blocks.push(&data[at + header..at + header + size]);
            }
            at += header + size;
        }
        let shaders = shaders(&path, &text);
        if shaders.is_empty() {
            // decaf listed nothing for the fixture without a header block.
            continue;
        }
        assert_eq!(blocks.len(), shaders.len(), "{path}");
        for (b, s) in blocks.iter().zip(&shaders) {
            assert_eq!(*b, &s.code[..], "{}", s.name);
            checked += 1;
        }
    }
    assert!(checked == 0 || checked >= 800);
}

/// The instructions of `code` decoded, then encoded: each gives back exactly the words at its
/// offset. Returns how many there were.
fn decode_encode(code: &[u8], base: u64, name: &str) -> usize {
    let instructions = latte::instructions(code, base);
    assert!(!instructions.is_empty(), "{name}: no instruction");
    for i in &instructions {
        let words = i.encode();
        let start = (i.at - base) as usize;
        let read = common::le_words(&code[start..start + 4 * words.len()]);
        assert_eq!(words, read, "{name}: the instruction at 0x{:x} ({:?})", i.at, i.kind);
    }
    instructions.len()
}

/// Decode then encode gives back the exact words of every instruction of every Latte
/// program of the corpus: the program blocks of every `.gsh` (vertex, pixel, geometry and
/// its copy program) and every program of every SHARCFB binary.
#[test]
fn decode_then_encode_gives_back_every_word_of_every_program() {
    use shaderscope::format::sharcfb::Sharcfb;
    let Some(dir) = common::corpus_dir() else { return };
    let (mut programs, mut instructions) = (0, 0);
    for row in common::manifest(&dir, "gx2") {
        let data = std::fs::read(dir.join("gx2").join(&row.path)).unwrap();
        match row.kind.as_str() {
            "gsh" => {
                let be = |at: usize| u32::from_be_bytes(data[at..at + 4].try_into().unwrap()) as usize;
                let mut at = be(4);
                while at + 32 <= data.len() && &data[at..at + 4] == b"BLK{" {
                    let (header, kind, size) = (be(at + 4), be(at + 16), be(at + 20));
                    if matches!(kind, 5 | 7 | 9 | 10) {
                        let name = format!("{} block at 0x{at:x}", row.path);
                        instructions += decode_encode(&data[at + header..at + header + size], 0, &name);
                        programs += 1;
                    }
                    at += header + size;
                }
            }
            "sharcfb" => {
                let f = Sharcfb::parse(&data).unwrap();
                for (n, b) in f.binaries.items.iter().enumerate() {
                    let shader = b.gx2(f.endian).unwrap();
                    for copy in [false, true] {
                        if let Some((code, at)) = b.program(&shader, copy).unwrap() {
                            let name = format!("{} binary {n}", row.path);
                            instructions += decode_encode(code, at, &name);
                            programs += 1;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    println!("{instructions} instructions of {programs} programs decode and encode back");
    assert!(programs >= 800, "only {programs} programs");
}
