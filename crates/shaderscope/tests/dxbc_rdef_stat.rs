//! RDEF rebuilt from listings and STAT recomputed from programs, against every corpus binary:
//! the library's own listing of each binary, fxc's `.asm` beside it where there is one, and
//! the program for STAT. Counts are printed with the reasons for the rest, and held as floors.

mod common;

use shaderscope::format::dxbc::assemble::{Listing, rdef, stat};
use shaderscope::format::dxbc::{Dxbc, listing};
use shaderscope::print::TextBuf;
use std::collections::BTreeMap;
use std::path::Path;

/// Where two RDEF payloads first differ, named by the part of the chunk.
fn rdef_difference(want: &[u8], got: &[u8]) -> String {
    if want.len() != got.len() {
        return format!("length {} instead of {}", got.len(), want.len());
    }
    let at = want.iter().zip(got).position(|(a, b)| a != b).unwrap_or(0);
    let word =
        |b: &[u8]| b.get(at / 4 * 4..at / 4 * 4 + 4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    let part = match at {
        20..=23 => "header compile flags",
        0..=59 => "header",
        _ => "tables",
    };
    format!(
        "{part} at 0x{at:x}: 0x{:08x} instead of 0x{:08x}",
        word(got).unwrap_or(0),
        word(want).unwrap_or(0)
    )
}

#[test]
fn rdef_and_stat_come_back_from_listings_and_programs() {
    let Some(corpus) = common::corpus_dir() else { return };
    let dir = corpus.join("dxbc");
    let (mut rdefs, mut same, mut asm_rdefs, mut asm_same, mut stats, mut stat_same) = (0, 0, 0, 0, 0, 0);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut stat_fields: BTreeMap<(String, usize), usize> = BTreeMap::new();
    let mut stat_by_creator: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut examples = Vec::new();
    for row in common::manifest(&corpus, "dxbc") {
        if row.kind != "dxbc-binary" {
            continue;
        }
        let path = dir.join(&row.path);
        let data = std::fs::read(&path).expect("corpus file");
        let Ok(d) = Dxbc::parse(&data) else { continue };
        let Some(p) = d.program else { continue };
        let program = common::le_words(p.chunk.data);
        let version = program.first().copied().unwrap_or(0);
        let creator = d.rdef.as_ref().map(|r| r.creator.text().into_owned()).unwrap_or_default();
        if let Some(st) = d.chunk(b"STAT") {
            stats += 1;
            let got = stat::from_program(&program);
            let e = stat_by_creator.entry(creator.clone()).or_default();
            e.1 += 1;
            if got == st.data {
                stat_same += 1;
                e.0 += 1;
            } else {
                for (i, (a, b)) in common::le_words(st.data).iter().zip(common::le_words(&got)).enumerate() {
                    if *a != b {
                        *stat_fields.entry((creator.clone(), i)).or_default() += 1;
                    }
                }
            }
        }
        let Some(chunk) = d.chunk(b"RDEF") else { continue };
        rdefs += 1;
        let mut text = TextBuf::default();
        listing::write_listing(&d, &Default::default(), &mut text).expect("listing");
        let got = rdef::from_listing(&Listing::new(text.as_str()), version);
        match &got {
            Ok(Some(b)) if b.as_slice() == chunk.data => same += 1,
            Ok(Some(b)) => {
                let why = rdef_difference(chunk.data, b);
                *reasons.entry(why.split(" at ").next().unwrap_or("").to_string()).or_default() += 1;
                examples.push(format!("{}: {why}", row.path));
            }
            Ok(None) => examples.push(format!("{}: no RDEF from the listing", row.path)),
            Err(e) => examples.push(format!("{}: {e}", row.path)),
        }
        let Some(asm) = row.notes.split(';').find_map(|n| n.trim().strip_prefix("paired_asm=")) else {
            continue;
        };
        let listing_path = path.parent().unwrap_or(Path::new(".")).join(asm);
        let Ok(fxc) = std::fs::read(&listing_path) else { continue };
        let fxc = String::from_utf8_lossy(&fxc).replace("\r\n", "\n");
        asm_rdefs += 1;
        if let Ok(Some(b)) = rdef::from_listing(&Listing::new(&fxc), version)
            && b.as_slice() == chunk.data
        {
            asm_same += 1;
        }
    }
    println!("RDEF from our listings: {same}/{rdefs} byte-identical");
    for (why, n) in &reasons {
        println!("  {n}: {why}");
    }
    for e in examples.iter().take(40) {
        println!("  DIFF {e}");
    }
    println!("RDEF from fxc's listings: {asm_same}/{asm_rdefs} byte-identical");
    println!("STAT from programs: {stat_same}/{stats} byte-identical");
    for (c, (s, n)) in &stat_by_creator {
        println!("  {c}: {s}/{n}");
    }
    for ((c, i), n) in &stat_fields {
        println!(
            "  {c}: word {i} ({}) differs in {n}",
            shaderscope::format::dxbc::chunks::STAT_FIELDS.get(*i).unwrap_or(&"?")
        );
    }
    assert!(rdefs >= 289 && stats >= 289, "{rdefs} RDEF, {stats} STAT chunks");
    // Floors: what this version achieves (see the module docs of rdef.rs and stat.rs for
    // what the text and the program do not determine).
    assert!(same >= 221, "RDEF from our listings: {same}");
    assert!(asm_same >= 216, "RDEF from fxc's listings: {asm_same}");
    assert!(stat_same >= 108, "STAT: {stat_same}");
    let fxc10 = stat_by_creator.get("Microsoft (R) HLSL Shader Compiler 10.1").copied().unwrap_or_default();
    assert_eq!(fxc10.0, fxc10.1, "every STAT fxc 10.1 wrote comes back");
}
