//! SM4/SM5 program text against fxc's own listings, and a decode sweep over every DXBC program
//! of the corpus.
//!
//! The DXBC container finds SHDR/SHEX and says which fxc generation made the file (its RDEF
//! creator string, or the one in the Aon9 debug block); the generation only selects the
//! [`ListingStyle`] (see its docs).

mod common;
use common::Rng;

use shaderscope::dxbc::{Dxbc, Generation, GenerationSource};
use shaderscope::isa::sm4::{Declarations, ListingStyle, Program, check, records, validate, write_listing};
use shaderscope::print::TextBuf;
use std::collections::BTreeMap;

/// Pairs whose listing cannot be reproduced from the binary, with the reason.
const EXCEPTIONS: &[(&str, &str)] = &[];

/// Corpus programs that are invalid on purpose, with the finding `validate` must report.
const EXPECTED_FINDINGS: &[(&str, &str)] = &[(
    // Wine's test_invalid_shaders feeds the runtime a `break` outside any loop.
    "emtee40__wine-vkd3d/tests/vkd3d_shader_api.c.extracted/test_invalid_shaders__ps_break_code.dxbc",
    "break outside a loop or switch",
)];

/// The program of a DXBC container: its chunk data, the data's absolute offset, the style of
/// the fxc generation the container points to, and whether the container says which one it
/// is (a creator string) rather than leaving it to a default.
struct Container<'a> {
    program: Option<(&'a [u8], u64)>,
    style: ListingStyle,
    known: bool,
}

fn style_of(generation: Generation) -> ListingStyle {
    match generation {
        Generation::Fxc9_29 => ListingStyle::FXC_9_29,
        Generation::Fxc9_30 | Generation::Fxc6_3 => ListingStyle::FXC_9_30,
        Generation::Fxc10 => ListingStyle::FXC_10,
    }
}

fn walk(data: &[u8]) -> Option<Container<'_>> {
    let d = Dxbc::parse(data).ok()?;
    let (generation, source) = d.generation();
    Some(Container {
        program: d.program.map(|p| (p.chunk.data, p.chunk.data_offset() as u64)),
        style: style_of(generation),
        known: matches!(source, GenerationSource::RdefCreator | GenerationSource::Aon9Creator),
    })
}

fn is_version_line(l: &str) -> bool {
    let b = l.as_bytes();
    b.len() == 6
        && matches!(&l[..3], "vs_" | "ps_" | "gs_" | "hs_" | "ds_" | "cs_")
        && b[3].is_ascii_digit()
        && b[4] == b'_'
        && b[5].is_ascii_digit()
}

/// The SM4 program part of an fxc listing: from the version line on, without comments,
/// `#line` directives, blank lines and trailing whitespace.
fn reference_program(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut started = false;
    for l in text.lines() {
        let l = l.trim_end();
        if !started {
            started = is_version_line(l);
        }
        if started && !l.is_empty() && !l.starts_with("//") && !l.starts_with("#line") {
            out.push(l.to_string());
        }
    }
    out
}

fn our_program(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(str::to_string)
        .collect()
}

#[test]
fn program_text_matches_fxc_listings() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut per_source: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut excepted = 0;
    for (row, path, data) in common::files(&corpus, "dxbc", "dxbc-binary") {
        let Some(listing) = common::paired_listing(&row, &path) else { continue };
        let source = row.path.split('/').next().unwrap_or("").to_string();
        let entry = per_source.entry(source).or_default();
        entry.1 += 1;
        let c = walk(&data).expect("DXBC container");
        let (chunk, base) = c.program.expect("SHDR/SHEX chunk");
        let program = Program::parse(chunk, base).expect("program header");
        let theirs = reference_program(&listing);
        let derived = c.style;
        // What the binary does not say is accepted in every known variant, and counted apart:
        // without a creator string, which disassembler generation printed the listing; with
        // fxc 10, how the Windows C runtime rounded exact ties.
        let candidates: &[ListingStyle] = match c.known {
            false => &[
                derived,
                ListingStyle::FXC_10,
                ListingStyle::FXC_10_LEGACY_UCRT,
                ListingStyle::FXC_9_30,
                ListingStyle::FXC_9_29,
            ],
            true if derived == ListingStyle::FXC_10 => &[derived, ListingStyle::FXC_10_LEGACY_UCRT],
            true => &[derived],
        };
        let mut first: Option<(Vec<String>, Option<String>)> = None;
        let mut matched = None;
        for (i, style) in candidates.iter().enumerate() {
            let mut text = TextBuf::default();
            let result = write_listing(&program, style, &mut text);
            let ours = our_program(text.as_str());
            if result.is_ok() && ours == theirs {
                matched = Some(i);
                break;
            }
            if first.is_none() {
                first = Some((ours, result.err().map(|e| e.to_string())));
            }
        }
        if let Some(i) = matched {
            entry.0 += 1;
            if i == 0 {
                entry.2 += 1;
            }
            continue;
        }
        if EXCEPTIONS.iter().any(|(p, _)| *p == row.path) {
            excepted += 1;
            continue;
        }
        let (ours, err) = first.unwrap_or_default();
        let first = (0..ours.len().max(theirs.len()))
            .find(|&i| ours.get(i) != theirs.get(i))
            .map(|i| {
                format!(
                    "line {}: fxc {:?} / ours {:?}",
                    i + 1,
                    theirs.get(i).map(String::as_str).unwrap_or("<end>"),
                    ours.get(i).map(String::as_str).unwrap_or("<end>")
                )
            })
            .unwrap_or_else(|| format!("{err:?}"));
        failures.push(format!("{}: {first}", row.path));
    }
    let (mut same, mut total, mut derived) = (0, 0, 0);
    for (source, (s, t, d)) in &per_source {
        println!("{source}: {s}/{t} program texts identical ({d} with the style derived from the binary)");
        same += s;
        total += t;
        derived += d;
    }
    println!("all: {same}/{total} identical ({derived} with the derived style), {excepted} excepted");
    for f in &failures {
        println!("MISMATCH {f}");
    }
    assert!(total > 600, "expected the 653 DXBC pairs, found {total}");
    assert!(failures.is_empty(), "{} program texts differ from fxc's", failures.len());
}

#[test]
fn every_corpus_program_decodes_and_validates() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut n, mut bad) = (0, Vec::new());
    for (row, _, data) in common::files(&corpus, "dxbc", "dxbc-binary") {
        let Some(c) = walk(&data) else {
            bad.push(format!("{}: not a DXBC container", row.path));
            continue;
        };
        let Some((chunk, base)) = c.program else {
            bad.push(format!("{}: no SHDR/SHEX", row.path));
            continue;
        };
        n += 1;
        if let Ok(p) = Program::parse(chunk, base) {
            let findings = validate(&p);
            let expected: Vec<&str> =
                EXPECTED_FINDINGS.iter().filter(|(p, _)| *p == row.path).map(|(_, m)| *m).collect();
            let got: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
            if got != expected {
                bad.push(format!("{}: validate: {got:?}, expected {expected:?}", row.path));
            }
            if let Err(e) = Declarations::collect(&p) {
                bad.push(format!("{}: declarations: {e}", row.path));
            }
        }
        let mut text = TextBuf::default();
        match Program::parse(chunk, base).and_then(|p| write_listing(&p, &c.style, &mut text)) {
            Ok(report) if report.unknown_opcodes.is_empty() => {}
            Ok(report) => bad.push(format!("{}: unknown opcodes {:?}", row.path, report.unknown_opcodes)),
            Err(e) => bad.push(format!("{}: {e}", row.path)),
        }
        // The records are the listing's lines, one per instruction that prints one.
        if let Ok(r) = Program::parse(chunk, base).and_then(|p| records(&p, &c.style)) {
            let lines: Vec<&str> = text.as_str().lines().skip(1).map(str::trim).collect();
            let texts: Vec<&str> = r.iter().flat_map(|r| r.text.lines().map(str::trim)).collect();
            if lines != texts {
                bad.push(format!("{}: records differ from the listing", row.path));
            }
        }
    }
    println!("{n} programs decoded");
    for b in &bad {
        println!("FAILED {b}");
    }
    assert!(n > 1200, "expected the 1,291 corpus programs, found {n}");
    assert!(bad.is_empty(), "{} programs failed to decode", bad.len());
}

/// Everything the module offers over one (possibly damaged) program: must return, never
/// panic; and [`check`], which decodes without printing, must stop at the error the listing
/// and the records stop at.
fn exercise(data: &[u8]) {
    let Ok(p) = Program::parse(data, 0x40) else { return };
    let checked = check(&p).err();
    for style in [ListingStyle::FXC_10, ListingStyle::FXC_9_29] {
        let mut text = TextBuf::default();
        let listed = write_listing(&p, &ListingStyle { offsets: true, raw: true, ..style }, &mut text).err();
        assert_eq!(checked, listed, "check and the listing stop at different errors");
        assert_eq!(checked, records(&p, &style).err(), "check and the records stop at different errors");
    }
    let _ = validate(&p);
    let _ = Declarations::collect(&p);
}

#[test]
fn damaged_programs_give_errors_not_panics() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0usize;
    for (n, (_, _, data)) in common::files(&corpus, "dxbc", "dxbc-binary").enumerate() {
        let Some((chunk, _)) = walk(&data).and_then(|c| c.program) else { continue };
        // Every program: truncations, bit flips and edge values written over whole tokens.
        for i in 0..6 {
            let mut v = chunk.to_vec();
            match i % 3 {
                0 => v.truncate(rng.below(chunk.len() + 1)),
                1 => {
                    let at = rng.below(v.len());
                    if let Some(b) = v.get_mut(at) {
                        *b ^= 1 << rng.below(8);
                    }
                }
                _ => {
                    let at = rng.below(v.len().saturating_sub(3)) & !3;
                    let val: u32 =
                        [0xffff_ffff, 0x7fff_ffff, 0x8000_0000, 0, 0x10, 0x8000_0001][rng.below(6)];
                    if let Some(dst) = v.get_mut(at..at + 4) {
                        dst.copy_from_slice(&val.to_le_bytes());
                    }
                }
            }
            exercise(&v);
            runs += 1;
        }
        // Every 100th program: every truncation point and every byte inverted.
        if n % 100 == 0 && chunk.len() <= 4096 {
            for len in 0..chunk.len() {
                exercise(chunk.get(..len).unwrap_or(&[]));
                let mut v = chunk.to_vec();
                if let Some(b) = v.get_mut(len) {
                    *b = !*b;
                }
                exercise(&v);
                runs += 2;
            }
        }
    }
    println!("{runs} damaged programs exercised");
    assert!(runs > 10_000);
}

/// Every instruction of every corpus program, decoded into an owned [`Inst`] and encoded
/// again, gives its own tokens: the encoder reads the same fields and table as the decoder.
#[test]
fn every_corpus_instruction_encodes_back_to_its_tokens() {
    use shaderscope::isa::sm4::encode::Inst;
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut programs, mut instructions, mut bad) = (0, 0, Vec::new());
    for (row, _, data) in common::files(&corpus, "dxbc", "dxbc-binary") {
        let Some((chunk, base)) = walk(&data).and_then(|c| c.program) else { continue };
        let Ok(p) = Program::parse(chunk, base) else { continue };
        programs += 1;
        for inst in p.instructions() {
            let Ok(inst) = inst else { break };
            instructions += 1;
            let want: Vec<u32> = inst.tokens.iter().map(|t| t.get()).collect();
            let mut got = Vec::new();
            match Inst::from_decoded(&inst).and_then(|m| m.encode(&mut got)) {
                Ok(()) if got == want => {}
                Ok(()) => bad.push(format!(
                    "{} at 0x{:x}: {:08x?} came back as {:08x?}",
                    row.path, inst.offset, want, got
                )),
                Err(e) => bad.push(format!("{} at 0x{:x}: {e}", row.path, inst.offset)),
            }
        }
    }
    println!("{programs} programs, {instructions} instructions");
    for b in bad.iter().take(20) {
        println!("FAILED {b}");
    }
    assert!(programs > 1200, "{programs} programs");
    assert!(bad.is_empty(), "{} of {instructions} instructions did not come back", bad.len());
}

/// Every line (custom-data blocks aside) of every corpus program's listing, with its
/// literals in hexadecimal (`/Lx`), reads back to the instruction's own tokens.
#[test]
fn every_corpus_listing_line_assembles_to_its_tokens() {
    use shaderscope::isa::sm4::{asm, opcodes};
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut lines, mut bad) = (0, Vec::new());
    let mut by_mnemonic: BTreeMap<String, usize> = BTreeMap::new();
    for (row, _, data) in common::files(&corpus, "dxbc", "dxbc-binary") {
        let Some(c) = walk(&data) else { continue };
        let Some((chunk, base)) = c.program else { continue };
        let Ok(p) = Program::parse(chunk, base) else { continue };
        let style = ListingStyle { hex_literals: true, ..c.style };
        let Ok(recs) = records(&p, &style) else { continue };
        for r in recs {
            let custom = r
                .words
                .first()
                .and_then(|w| opcodes::info((w & 0x7ff) as u16))
                .is_none_or(|i| i.format == opcodes::Format::CustomData);
            if custom {
                continue;
            }
            lines += 1;
            let mut got = Vec::new();
            let result = asm::parse_line(&r.text, p.is_sm51())
                .map_err(|e| e.to_string())
                .and_then(|i| i.encode(&mut got).map_err(|e| e.to_string()));
            match result {
                Ok(()) if got == r.words => {}
                Ok(()) => {
                    *by_mnemonic.entry(r.mnemonic.clone()).or_default() += 1;
                    bad.push(format!("{} `{}`: {:08x?} came back as {:08x?}", row.path, r.text, r.words, got))
                }
                Err(e) => {
                    *by_mnemonic.entry(r.mnemonic.clone()).or_default() += 1;
                    bad.push(format!("{} `{}`: {e}", row.path, r.text))
                }
            }
        }
    }
    println!("{lines} lines, {} differ; by mnemonic: {by_mnemonic:?}", bad.len());
    for b in bad.iter().take(30) {
        println!("FAILED {b}");
    }
    assert!(lines > 40000, "{lines} lines");
    assert!(bad.is_empty(), "{} of {lines} lines did not assemble to their tokens", bad.len());
}

/// Every corpus program printed as `disasm --exact-floats` prints it (fxc's text, but a float
/// literal `%f` would round in hexadecimal) assembles back to its own chunk, word for word,
/// except programs holding custom-data blocks the listing does not print (comments, debug
/// data): those are counted, and must be the only differences.
#[test]
fn every_corpus_program_assembles_from_its_listing() {
    use shaderscope::isa::sm4::asm;
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut same, mut unprinted, mut hex, mut bad) = (0, 0, 0, Vec::new());
    for (row, _, data) in common::files(&corpus, "dxbc", "dxbc-binary") {
        let Some(c) = walk(&data) else { continue };
        let Some((chunk, base)) = c.program else { continue };
        let Ok(p) = Program::parse(chunk, base) else { continue };
        let mut text = TextBuf::default();
        let style = ListingStyle { exact_floats: true, ..c.style };
        if write_listing(&p, &style, &mut text).is_err() {
            continue;
        }
        // A literal `%f` rounds is printed in hexadecimal: the text differs from fxc's.
        let mut fxc = TextBuf::default();
        if write_listing(&p, &c.style, &mut fxc).is_ok() && fxc.as_str() != text.as_str() {
            hex += 1;
        }
        let want = common::le_words(chunk);
        let want = &want[..want.len().min(p.declared_len as usize)];
        let silent =
            p.instructions().flatten().any(|i| i.custom_data_class().is_some_and(|c| c != 3 && c != 4));
        match asm::parse_program(text.as_str()) {
            Ok(words) if words == want => same += 1,
            _ if silent => unprinted += 1,
            Ok(words) => bad.push(format!("{}: {} words came back as {}", row.path, want.len(), words.len())),
            Err(e) => bad.push(format!("{}: {e}", row.path)),
        }
    }
    println!(
        "{same} programs assemble to their chunk ({hex} with a literal in hexadecimal); \
         {unprinted} hold custom data the listing does not print"
    );
    for b in bad.iter().take(20) {
        println!("FAILED {b}");
    }
    assert!(same > 1200 && hex > 0, "{same}, {hex}");
    assert!(bad.is_empty(), "{} programs differ", bad.len());
}

/// Every fxc listing of the corpus (the `.asm` beside a binary) assembles to the binary's
/// program chunk, but for literals fxc's `%f` rounded: those programs are counted and listed.
#[test]
fn fxc_listings_assemble_to_their_binaries_program() {
    use shaderscope::isa::sm4::asm;
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut n, mut same, mut rounded, mut bad) = (0, 0, Vec::new(), Vec::new());
    for (row, path, data) in common::files(&corpus, "dxbc", "dxbc-binary") {
        let Some(listing) = common::paired_listing(&row, &path) else { continue };
        let Some((chunk, base)) = walk(&data).and_then(|c| c.program) else { continue };
        let Ok(p) = Program::parse(chunk, base) else { continue };
        n += 1;
        let want = common::le_words(chunk);
        let want = &want[..want.len().min(p.declared_len as usize)];
        match asm::parse_program(&listing) {
            Ok(words) if words == want => same += 1,
            Ok(words) if same_but_literals(&words, want) => rounded.push(row.path.clone()),
            Ok(words) => bad.push(format!("{}: {} words came back as {}", row.path, want.len(), words.len())),
            Err(e) => bad.push(format!("{}: {e}", row.path)),
        }
    }
    println!(
        "{n} fxc listings: {same} assemble to their program; {} differ only where literals were rounded:",
        rounded.len()
    );
    for r in &rounded {
        println!("  {r}");
    }
    for b in bad.iter().take(30) {
        println!("FAILED {b}");
    }
    assert!(n > 600 && same > n / 2, "{same} of {n}");
    assert!(bad.is_empty(), "{} listings did not assemble", bad.len());
}

/// Whether two programs are the same instructions with the same operands, literal values
/// (and immediate-constant-buffer entries) aside: what `%f` rounding changes.
fn same_but_literals(a: &[u32], b: &[u32]) -> bool {
    use shaderscope::isa::sm4::encode::{Inst, Op, Part};
    fn strip(o: &mut Op) {
        for v in &mut o.imm {
            *v = 0;
        }
    }
    fn model(words: &[u32]) -> Option<Vec<Inst>> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let p = Program::parse(&bytes, 0).ok()?;
        let mut v = Vec::new();
        for i in p.instructions() {
            let mut m = Inst::from_decoded(&i.ok()?).ok()?;
            let literal_words = m.opcode == shaderscope::isa::sm4::opcodes::CUSTOMDATA && m.controls == 3;
            for part in &mut m.body {
                match part {
                    Part::Op(o) => strip(o),
                    Part::Word(w) if literal_words => *w = 0,
                    Part::Word(_) => {}
                }
            }
            v.push(m);
        }
        Some(v)
    }
    a.len() == b.len() && model(a).is_some_and(|x| Some(x) == model(b))
}
