//! The Direct3D 9 assembler against the corpus: every D3D9 program (the standalone d3dbc files
//! and the program in each DXBC `Aon9` chunk) printed by the library and assembled back, fxc's
//! own listings assembled, and the whole `Aon9` chunk rebuilt from a DXBC listing.
//!
//! A program that does not come back byte for byte must differ only in what the listing does
//! not print, each reason named: a `DBUG` comment (debug information), the constant table's
//! compile flags, or its constants' reserved half-words (fxc writes `4 × register + 2` there for
//! constants bound with `register(…)`). Anything else fails the test.

mod common;

use shaderscope::dxbc::Dxbc;
use shaderscope::dxbc::assemble::{Listing, aon9};
use shaderscope::isa::d3d9::{self, Item, ListingOptions, Program, asm};
use shaderscope::isa::sm4::asm::LineError;
use shaderscope::print::TextBuf;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A D3D9 program of the corpus.
struct Case {
    path: String,
    /// The program's bytes.
    bytes: Vec<u8>,
    /// A standalone file (printed with its header), not a DXBC's Aon9 program.
    standalone: bool,
    /// fxc's own listing beside the binary, if any.
    fxc: Option<PathBuf>,
    /// The whole DXBC file, for an Aon9 program.
    dxbc: Option<Vec<u8>>,
}

fn cases(corpus: &Path) -> Vec<Case> {
    let mut v = Vec::new();
    for r in common::manifest(corpus, "dxbc") {
        if r.kind != "d3dbc-binary" && r.kind != "dxbc-binary" {
            continue;
        }
        let file = corpus.join("dxbc").join(&r.path);
        let fxc = r
            .notes
            .split(';')
            .find_map(|n| n.trim().strip_prefix("paired_asm="))
            .and_then(|name| Some(file.parent()?.join(name)))
            .filter(|p| p.is_file());
        let data = std::fs::read(&file).unwrap();
        if r.kind == "d3dbc-binary" {
            v.push(Case { path: r.path, bytes: data, standalone: true, fxc, dxbc: None });
            continue;
        }
        let Some(program) = Dxbc::parse(&data).ok().and_then(|d| d.aon9.map(|a| a.program.to_vec())) else {
            continue;
        };
        v.push(Case { path: r.path, bytes: program, standalone: false, fxc, dxbc: Some(data) });
    }
    v
}

/// The listing the library prints for a program.
fn print(bytes: &[u8], header: bool) -> String {
    let p = Program::parse(bytes, 0).unwrap();
    let mut out = TextBuf::default();
    d3d9::write_listing(&p, &ListingOptions { header, ..Default::default() }, &mut out).unwrap();
    out.into_string()
}

/// The program without its comment blocks.
fn without_comments(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut p = Program::parse(bytes, 0).ok()?;
    p.items.retain(|i| !matches!(i, Item::Comment { .. }));
    Some(p.write())
}

/// The comment blocks of a program by FourCC.
fn comments(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let Ok(p) = Program::parse(bytes, 0) else { return BTreeMap::new() };
    p.comments()
        .map(|(_, d)| (String::from_utf8_lossy(d.get(..4).unwrap_or(d)).into_owned(), d.to_vec()))
        .collect()
}

/// How an assembled program compares with the original.
enum Outcome {
    Identical,
    /// Identical but for comments, each difference named by what the text does not carry.
    Comments(Vec<String>),
    /// Anything else.
    Differs(String),
}

/// Compare: the same bytes, or the same instructions and comments that differ only as the
/// module docs of `asm` say they may.
fn compare(got: &[u8], want: &[u8]) -> Outcome {
    if got == want {
        return Outcome::Identical;
    }
    if without_comments(got) != without_comments(want) {
        let n = got.iter().zip(want).take_while(|(a, b)| a == b).count();
        return Outcome::Differs(format!("instructions differ from byte {n:#x}"));
    }
    let (ours, theirs) = (comments(got), comments(want));
    let mut why = Vec::new();
    for (tag, data) in &theirs {
        match (tag.as_str(), ours.get(tag)) {
            ("DBUG", None) => why.push("DBUG (debug information) is not in the text".to_string()),
            ("CTAB", Some(ours)) => match ctab_difference(ours, data) {
                Ok(reasons) => why.extend(reasons),
                Err(e) => return Outcome::Differs(e),
            },
            (tag, _) => return Outcome::Differs(format!("comment {tag} not rebuilt as it was")),
        }
    }
    if let Some(tag) = ours.keys().find(|t| !theirs.contains_key(*t)) {
        return Outcome::Differs(format!("comment {tag} written but not in the original"));
    }
    Outcome::Comments(why)
}

/// Why our CTAB differs from fxc's: its flags word and the reserved half-words. Those set to
/// ours, the bytes must be the same.
fn ctab_difference(ours: &[u8], theirs: &[u8]) -> Result<Vec<String>, String> {
    let word = |b: &[u8], at: usize| b.get(at..at + 4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    // After the FourCC: flags at 20, the constant count at 12 and records from the offset at 16.
    let mut patched = theirs.to_vec();
    let mut why = Vec::new();
    if word(theirs, 4 + 20) != word(ours, 4 + 20) {
        why.push(format!("CTAB flags {:#x} (not printed)", word(theirs, 24).unwrap_or(0)));
        patched[24..28].copy_from_slice(&ours[24..28]);
    }
    let count = word(theirs, 4 + 12).unwrap_or(0) as usize;
    let records = word(theirs, 4 + 16).unwrap_or(0) as usize;
    let mut reserved = false;
    for k in 0..count {
        let at = 4 + records + 20 * k + 10;
        if let (Some(a), Some(b)) = (theirs.get(at..at + 2), ours.get(at..at + 2))
            && a != b
        {
            reserved = true;
            let ours = [b[0], b[1]];
            patched[at..at + 2].copy_from_slice(&ours);
        }
    }
    if reserved {
        why.push("CTAB reserved half-words (register(…) bindings, not printed)".to_string());
    }
    if patched == ours {
        Ok(why)
    } else {
        let n = patched.iter().zip(ours).take_while(|(a, b)| a == b).count();
        Err(format!(
            "CTAB differs at byte {n:#x} of the block ({} bytes theirs, {} ours)",
            theirs.len(),
            ours.len()
        ))
    }
}

/// Counts of a run, printed and checked.
#[derive(Default)]
struct Tally {
    total: usize,
    identical: usize,
    comments: usize,
    reasons: BTreeMap<String, usize>,
    bad: Vec<String>,
}

impl Tally {
    fn add(&mut self, path: &str, assembled: Result<Vec<u8>, LineError>, want: &[u8]) {
        self.total += 1;
        let got = match assembled {
            Ok(b) => b,
            Err(e) => {
                self.bad.push(format!("{path}: {e}"));
                return;
            }
        };
        match compare(&got, want) {
            Outcome::Identical => self.identical += 1,
            Outcome::Comments(why) => {
                self.comments += 1;
                for w in why {
                    *self.reasons.entry(w).or_default() += 1;
                }
            }
            Outcome::Differs(why) => self.bad.push(format!("{path}: {why}")),
        }
    }

    fn report(&self, what: &str) {
        println!(
            "{what}: {} programs, {} byte-identical, {} identical but for comments, {} differ",
            self.total,
            self.identical,
            self.comments,
            self.bad.len()
        );
        for (why, n) in &self.reasons {
            println!("  {n:4} {why}");
        }
        for b in &self.bad {
            println!("  DIFFERS {b}");
        }
    }
}

#[test]
fn printed_programs_assemble_to_their_bytes() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut standalone, mut level9) = (Tally::default(), Tally::default());
    for case in cases(&corpus) {
        let text = print(&case.bytes, case.standalone);
        let tally = if case.standalone { &mut standalone } else { &mut level9 };
        tally.add(&case.path, asm::parse_program(&text), &case.bytes);
    }
    standalone.report("d3dbc files");
    level9.report("Aon9 programs");
    for t in [&standalone, &level9] {
        assert!(t.total > 0, "no D3D9 program in the corpus");
        assert!(t.bad.is_empty(), "{} programs differ beyond what the text does not carry", t.bad.len());
        assert_eq!(t.identical + t.comments, t.total);
    }
    // An Aon9 program differs only when it carries debug information.
    assert_eq!(
        level9.comments,
        level9.reasons.get("DBUG (debug information) is not in the text").copied().unwrap_or(0)
    );
}

#[test]
fn fxc_listings_assemble_to_their_binaries() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut standalone, mut level9) = (Tally::default(), Tally::default());
    for case in cases(&corpus) {
        let Some(path) = &case.fxc else { continue };
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let tally = if case.standalone { &mut standalone } else { &mut level9 };
        tally.add(&case.path, asm::parse_program(&text), &case.bytes);
    }
    standalone.report("fxc .asm of d3dbc files");
    level9.report("fxc .asm Level9 sections");
    for t in [&standalone, &level9] {
        assert!(t.total > 0, "no fxc listing of a D3D9 program in the corpus");
        assert!(t.bad.is_empty(), "{} programs differ beyond what the text does not carry", t.bad.len());
    }
}

#[test]
fn constant_tables_write_back() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut total, mut same) = (0, 0);
    for case in cases(&corpus) {
        let Ok(p) = Program::parse(&case.bytes, 0) else { continue };
        let Some((offset, blob)) = p.comment_block(b"CTAB") else { continue };
        total += 1;
        let table = d3d9::ConstantTable::parse(blob, offset).unwrap();
        if table.write() == blob {
            same += 1;
        } else {
            println!("  {}: CTAB writes back differently", case.path);
        }
    }
    println!("CTAB blocks written back byte-identical: {same}/{total}");
    assert!(total > 0);
    assert_eq!(same, total);
}

#[test]
fn aon9_chunks_rebuild_from_the_dxbc_listing() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut ours, mut fxc) = (Aon9Tally::default(), Aon9Tally::default());
    for case in cases(&corpus) {
        let Some(data) = &case.dxbc else { continue };
        let d = Dxbc::parse(data).unwrap();
        let Some(chunk) = d.frame.chunks.iter().find(|c| &c.fourcc.0 == b"Aon9") else { continue };
        let mut out = TextBuf::default();
        shaderscope::dxbc::listing::write_listing(&d, &Default::default(), &mut out).unwrap();
        ours.add(&case, &out.into_string(), chunk.data);
        if let Some(path) = &case.fxc {
            fxc.add(&case, &String::from_utf8_lossy(&std::fs::read(path).unwrap()), chunk.data);
        }
    }
    for (what, t) in [("library listings", &ours), ("fxc listings", &fxc)] {
        println!(
            "Aon9 chunks from {what}: {}, byte-identical {}, differing only by the program's DBUG block {}",
            t.total, t.identical, t.debug
        );
        for b in &t.bad {
            println!("  DIFFERS {b}");
        }
        assert!(t.total > 0);
        assert!(t.bad.is_empty(), "{} Aon9 chunks differ", t.bad.len());
        assert_eq!(t.identical + t.debug, t.total);
    }
}

/// Counts of Aon9 chunks rebuilt from listings.
#[derive(Default)]
struct Aon9Tally {
    total: usize,
    identical: usize,
    debug: usize,
    bad: Vec<String>,
}

impl Aon9Tally {
    fn add(&mut self, case: &Case, text: &str, want: &[u8]) {
        self.total += 1;
        let got = match aon9::from_listing(&Listing::new(text)) {
            Ok(Some(got)) => got,
            Ok(None) => return self.bad.push(format!("{}: no Aon9 rebuilt", case.path)),
            Err(e) => return self.bad.push(format!("{}: {e}", case.path)),
        };
        if got == want {
            self.identical += 1;
        } else if comments(&case.bytes).contains_key("DBUG")
            && aon9_without_program(&got) == aon9_without_program(want)
        {
            self.debug += 1;
        } else {
            let n = got.iter().zip(want).take_while(|(a, b)| a == b).count();
            self.bad.push(format!("{}: differs from byte {n:#x}", case.path));
        }
    }
}

/// An Aon9 payload with its program's comments removed and the sizes that depend on them
/// zeroed: the mapping tables must still be the same.
fn aon9_without_program(payload: &[u8]) -> Vec<u8> {
    let word =
        |at: usize| payload.get(at..at + 4).map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    let offset = word(12) as usize;
    let mut head = payload.get(..offset).unwrap_or(payload).to_vec();
    for at in [0, 8] {
        if let Some(w) = head.get_mut(at..at + 4) {
            w.fill(0);
        }
    }
    head.extend(without_comments(payload.get(offset..).unwrap_or(&[])).unwrap_or_default());
    head
}

#[test]
fn errors_name_the_line_column_and_what_was_expected() {
    let err = |text: &str| {
        let e = asm::parse_program(text).unwrap_err();
        (e.line, e.syntax.column, e.syntax.expected)
    };
    assert_eq!(err("    ps_2_0\n    texld r0, t0\n"), (2, 16, "`,`".to_string()));
    assert_eq!(err("    ps_3_0\n    if_xx r0.x, c0.x\n"), (2, 4, "a mnemonic".to_string()));
    assert_eq!(
        err("    vs_3_0\n    mov o0, c0[r0.x]\n"),
        (2, 15, "an address register (`a0.x`, `aL`)".to_string())
    );
    assert_eq!(
        err("    vs_2_0\n    mov r0, !r1_abs\n"),
        (2, 12, "a source modifier fxc writes (`-r0_abs`, not `!r0_abs`)".to_string())
    );
    assert_eq!(
        err("    ps_3_0\n    (p0.x) def c0, 1, 2, 3, 4\n"),
        (2, 11, "an instruction (a declaration takes no predicate)".to_string())
    );
    assert_eq!(err("    vs_2_0\n    defi i0, 1, 2, 3, 4.5\n"), (2, 22, "an integer".to_string()));
    let header =
        "//\n// Parameters:\n//\n//   float5q x;\n//\n// Registers:\n//\n//   x c0 1\n//\n    vs_2_0\n";
    assert_eq!(err(header), (4, 5, "a type (`float4`, `row_major float4x4`, `sampler2D`)".to_string()));

    // The Aon9 tables of a DXBC listing.
    let listing = "//\n// Constant buffer to DX9 shader constant mappings:\n//\n\
                   // Target Reg Buffer  Start Reg # of Regs        Data Conversion\n\
                   // ---------- ------- --------- --------- ----------------------\n\
                   // c0         cb0             1         2  ( FLT, FLT, XYZ, FLT)\n//\n//\n\
                   // Level9 shader bytecode:\n//\n    vs_2_0\n    mov oPos, v0\n";
    let e = aon9::from_listing(&Listing::new(listing)).unwrap_err();
    assert_eq!((e.line, e.syntax.column), (6, 43));
    assert_eq!(e.syntax.expected, "four data conversions (`( FLT, FLT, INT,BOOL)`)");
    let e = aon9::from_listing(&Listing::new(&listing.replace("mov oPos, v0", "mov oPos,"))).unwrap_err();
    assert_eq!((e.line, e.syntax.column, e.syntax.expected.as_str()), (12, 13, "an operand"));
}

/// With the original at hand (`asm --like`), every corpus program comes back whole: the
/// comment blocks the text does not carry are the original's.
#[test]
fn with_the_original_every_program_comes_back_whole() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut n, mut bad) = (0, Vec::new());
    for case in cases(&corpus) {
        n += 1;
        let like = Program::parse(&case.bytes, 0).unwrap();
        match asm::parse_program_like(&print(&case.bytes, true), &like) {
            Ok(bytes) if bytes == case.bytes => {}
            Ok(_) => bad.push(format!("{}: differs", case.path)),
            Err(e) => bad.push(format!("{}: {e}", case.path)),
        }
    }
    println!("{n} programs, {} differ with --like", bad.len());
    for b in bad.iter().take(20) {
        println!("FAILED {b}");
    }
    assert!(n > 200, "{n}");
    assert!(bad.is_empty(), "{} programs differ", bad.len());
}
