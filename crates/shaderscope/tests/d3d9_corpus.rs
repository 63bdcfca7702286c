//! Direct3D 9 bytecode against fxc's own listings in the corpus:
//! - the `Level9 shader bytecode` section of every `*_level_9_*` DXBC listing (the program in
//!   the container's `Aon9` chunk), and
//! - every standalone d3dbc `.o` file with its whole fxc listing.
//!
//! Lines are compared after trimming trailing whitespace; fxc's command-line echo
//! (`//   fxc …` and its continuation lines) is dropped from the reference, as the echo is not
//! in the binary.

mod common;
use common::Rng;
use shaderscope::Container;

use shaderscope::DisasmOptions;
use shaderscope::dump::Annotations;
use shaderscope::isa::d3d9::{self, ListingOptions, Program};
use shaderscope::print::TextBuf;
use std::path::Path;

fn lines(text: &str) -> Vec<String> {
    let mut v: Vec<String> =
        text.replace("\r\n", "\n").split('\n').map(|l| l.trim_end().to_string()).collect();
    while v.last().is_some_and(String::is_empty) {
        v.pop();
    }
    v
}

/// check.py's `drop_fxc_cmdline`: the `//   fxc …` line and the `//` lines indented by 4 or
/// more that continue it.
fn drop_fxc_cmdline(ls: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut skipping = false;
    for l in ls {
        let body = l.strip_prefix("//").unwrap_or("");
        let is_cmd = l.starts_with("//") && {
            let t = body.trim_start();
            body.len() > t.len() && (t.starts_with("fxc ") || t.starts_with("fxc.exe "))
        };
        if is_cmd {
            skipping = true;
            continue;
        }
        let indent = body.len() - body.trim_start().len();
        if skipping && l.starts_with("//") && indent >= 4 && !body.trim().is_empty() {
            continue;
        }
        skipping = false;
        out.push(l);
    }
    out
}

/// The `Aon9` chunk data of a DXBC container: `(absolute offset, bytes)`.
fn aon9_chunk(data: &[u8]) -> Option<(usize, &[u8])> {
    let u32_at = |o: usize| data.get(o..o + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    if data.get(..4)? != b"DXBC" {
        return None;
    }
    let count = u32_at(28)? as usize;
    for i in 0..count.min(64) {
        let off = u32_at(32 + 4 * i)? as usize;
        if data.get(off..off + 4)? == b"Aon9" {
            let size = u32_at(off + 4)? as usize;
            return Some((off + 8, data.get(off + 8..off + 8 + size)?));
        }
    }
    None
}

/// The level-9 program inside an `Aon9` chunk (docs/dxbc.md §4.1: chunk size, version token,
/// program size, program offset from the chunk start, then the constant mappings).
fn level9_program(data: &[u8]) -> Option<(u64, &[u8])> {
    let (at, chunk) = aon9_chunk(data)?;
    let word = |o: usize| chunk.get(o..o + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let size = word(8)? as usize;
    let offset = word(12)? as usize;
    Some(((at + offset) as u64, chunk.get(offset..offset + size)?))
}

/// The reference section: the lines after `// Level9 shader bytecode:` and its `//`, up to the
/// `// approximately …` line.
fn level9_section(listing: &str) -> Option<Vec<String>> {
    let ls = lines(listing);
    let start = ls.iter().position(|l| l == "// Level9 shader bytecode:")? + 2;
    let mut out = Vec::new();
    for l in ls.get(start..)? {
        out.push(l.clone());
        if l.starts_with("// approximately") {
            return Some(out);
        }
    }
    None
}

fn listing(program: &Program<'_>, header: bool) -> Vec<String> {
    let mut out = TextBuf::default();
    d3d9::write_listing(program, &ListingOptions { header, ..Default::default() }, &mut out).unwrap();
    lines(out.as_str())
}

fn first_difference(got: &[String], want: &[String]) -> String {
    let n = got.iter().zip(want).take_while(|(a, b)| a == b).count();
    format!(
        "line {}: got {:?}, want {:?}",
        n + 1,
        got.get(n).map(String::as_str).unwrap_or("<end>"),
        want.get(n).map(String::as_str).unwrap_or("<end>")
    )
}

struct Pair {
    path: String,
    binary: std::path::PathBuf,
    listing: std::path::PathBuf,
}

fn pairs(corpus: &Path, kind: &str) -> Vec<Pair> {
    common::manifest(corpus, "dxbc")
        .into_iter()
        .filter(|r| r.kind == kind)
        .filter_map(|r| {
            let name = r.notes.split(';').find_map(|n| n.trim().strip_prefix("paired_asm="))?.to_string();
            let binary = corpus.join("dxbc").join(&r.path);
            let listing = binary.parent()?.join(name);
            Some(Pair { path: r.path, binary, listing })
        })
        .collect()
}

#[test]
fn level9_sections_match_fxc() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut total, mut same) = (0, 0);
    let mut bad = Vec::new();
    for pair in pairs(&corpus, "dxbc-binary") {
        let Ok(text) = std::fs::read(&pair.listing) else { continue };
        let Some(want) = level9_section(&String::from_utf8_lossy(&text)) else { continue };
        let data = std::fs::read(&pair.binary).unwrap();
        total += 1;
        let Some((base, bytes)) = level9_program(&data) else {
            bad.push(format!("{}: no Aon9 program", pair.path));
            continue;
        };
        match Program::parse(bytes, base) {
            Ok(p) => {
                let got = listing(&p, false);
                if got == want {
                    same += 1;
                } else {
                    bad.push(format!("{}: {}", pair.path, first_difference(&got, &want)));
                }
            }
            Err(e) => bad.push(format!("{}: {e}", pair.path)),
        }
    }
    println!("Level9 sections identical: {same}/{total}");
    for b in &bad {
        println!("  {b}");
    }
    assert!(total > 0, "no level-9 listing in the corpus");
    assert_eq!(same, total, "{} level-9 sections differ", bad.len());
}

#[test]
fn standalone_listings_match_fxc() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut total, mut same) = (0, 0);
    let mut bad = Vec::new();
    for pair in pairs(&corpus, "d3dbc-binary") {
        let data = std::fs::read(&pair.binary).unwrap();
        let want = drop_fxc_cmdline(lines(&String::from_utf8_lossy(&std::fs::read(&pair.listing).unwrap())));
        total += 1;
        match Program::parse(&data, 0) {
            Ok(p) => {
                let got = drop_fxc_cmdline(listing(&p, true));
                if got == want {
                    same += 1;
                } else {
                    bad.push(format!("{}: {}", pair.path, first_difference(&got, &want)));
                }
                assert_eq!(p.write().unwrap(), data, "{}: re-encoding differs", pair.path);
            }
            Err(e) => bad.push(format!("{}: {e}", pair.path)),
        }
    }
    println!(".o listings identical: {same}/{total}");
    for b in &bad {
        println!("  {b}");
    }
    assert!(total > 0, "no d3dbc file with a listing in the corpus");
    assert_eq!(same, total, "{} listings differ", bad.len());
}

/// Every corpus d3d9 program: the Aon9 programs and the standalone files.
fn all_programs(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v = Vec::new();
    for pair in pairs(corpus, "d3dbc-binary") {
        v.push((pair.path.clone(), std::fs::read(&pair.binary).unwrap()));
    }
    for r in common::manifest(corpus, "dxbc").into_iter().filter(|r| r.kind == "dxbc-binary") {
        if !r.notes.contains("Aon9") {
            continue;
        }
        let data = std::fs::read(corpus.join("dxbc").join(&r.path)).unwrap();
        if let Some((_, bytes)) = level9_program(&data) {
            v.push((r.path, bytes.to_vec()));
        }
    }
    v
}

/// Every instruction of every Direct3D 9 program in the corpus (the standalone files and the
/// `Aon9` programs of the DXBC containers, DirectXTK's effects among them): decoded on its own
/// ([`d3d9::decode`]) it is the instruction the program holds, and encoded it gives back
/// exactly its tokens.
#[test]
fn every_instruction_decodes_and_encodes_back_to_its_tokens() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut programs, mut instructions) = (0, 0);
    for (path, data) in all_programs(&corpus) {
        let p = Program::parse(&data, 0).unwrap();
        programs += 1;
        let mut words = Vec::new();
        for ins in p.instructions() {
            let at = ins.offset as usize;
            let alone = d3d9::decode(&data[at..], ins.offset, p.version).unwrap();
            assert_eq!(&alone, ins, "{path} at 0x{at:x}");
            words.clear();
            ins.encode(p.version, &mut words).unwrap();
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(bytes, data[at..at + ins.byte_len() as usize], "{path} at 0x{at:x}");
            instructions += 1;
        }
    }
    println!("{instructions} instructions of {programs} programs decode and encode back");
    assert!(programs > 200 && instructions > 5000, "{programs} programs, {instructions} instructions");
}

/// Parse, list and re-encode through the program API and, for standalone files
/// (`container`) that are still recognised, through every entry point of the container; any
/// panic fails the test.
fn exercise(data: &[u8], container: bool) {
    if let Ok(p) = Program::parse(data, 0) {
        let mut out = TextBuf::default();
        let _ = d3d9::write_listing(
            &p,
            &ListingOptions { header: true, offsets: true, raw: true, ..Default::default() },
            &mut out,
        );
        let _ = d3d9::check_program(&p);
        assert_eq!(p.write().unwrap(), data);
    }
    if !container {
        return;
    }
    if let Ok(f) = shaderscope::parse(data) {
        let mut s = f.info_text();
        let _ = f.info_json();
        let _ = f.disasm_json(&DisasmOptions::default());
        let mut a = Annotations::new();
        f.annotate(&mut a);
        a.render(data, &mut s).unwrap();
        let _ = f.validate();
        for part in f.parts() {
            assert!(f.part(&part.name).is_ok());
        }
    }
}

#[test]
fn corpus_programs_validate_cleanly_and_dump_every_byte() {
    let Some(corpus) = common::corpus_dir() else { return };
    let programs = all_programs(&corpus);
    let mut files = 0;
    for (path, data) in &programs {
        let p = Program::parse(data, 0).unwrap();
        let findings = d3d9::check_program(&p);
        assert!(findings.is_empty(), "{path}: {findings:?}");
        if !path.ends_with(".o") {
            continue;
        }
        files += 1;
        let f = shaderscope::parse(data).unwrap();
        assert_eq!(f.format(), shaderscope::Format::D3d9);
        assert!(f.validate().is_empty());
        assert_eq!(f.write().unwrap(), *data);
        let mut a = Annotations::new();
        f.annotate(&mut a);
        let mut dump = String::new();
        a.render(data, &mut dump).unwrap();
        assert!(!dump.contains("(unclaimed)"), "{path}: bytes without annotation");
        let ctab = f.parts().into_iter().find(|p| p.name == "CTAB").expect("fxc writes a constant table");
        assert!(f.part("CTAB").unwrap().bytes.starts_with(b"CTAB"));
        assert_eq!(&data[ctab.offset as usize..][..4], b"CTAB");
    }
    assert!(files > 0);
}

/// Truncation at every byte and a bit flip in every byte of the standalone files (every 32nd
/// also through the whole container interface); for the (many, similar) level-9 programs, 64
/// sampled cuts (half of them on token boundaries), 64 bit flips and 16 overwrites with edge
/// values each.
#[test]
fn truncated_and_bit_flipped_programs_never_panic() {
    let Some(corpus) = common::corpus_dir() else { return };
    let programs = all_programs(&corpus);
    assert!(!programs.is_empty());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0usize;
    for (path, data) in &programs {
        let full = path.ends_with(".o");
        let cuts: Vec<usize> = if full {
            (0..data.len()).collect()
        } else {
            (0..64).map(|i| rng.below(data.len()) & if i % 2 == 0 { !3 } else { !0 }).collect()
        };
        for k in cuts {
            exercise(&data[..k], full && k % 32 == 0);
            runs += 1;
        }
        let flips = if full { data.len() } else { 64 };
        for i in 0..flips {
            let k = if full { i } else { rng.below(data.len()) };
            let mut m = data.clone();
            m[k] ^= 1 << rng.below(8);
            exercise(&m, full && i % 32 == 0);
            runs += 1;
        }
        for _ in 0..16 {
            let k = rng.below(data.len().saturating_sub(3)) & !3;
            let v = [0xffff_ffffu32, 0x7fff_ffff, 0x8000_0000, 0x0f00_0000][rng.below(4)];
            let mut m = data.clone();
            m[k..k + 4].copy_from_slice(&v.to_le_bytes());
            exercise(&m, full);
            runs += 1;
        }
    }
    println!("{} programs, {runs} mutated inputs: no panic", programs.len());
}
