//! Resource bounds on hostile inputs built here, in memory: a structure reached again through
//! a repeated offset is read and shown once and then referred to, so that every output (listing,
//! dump, info, JSON, findings) stays within a small multiple of the input's size.

mod hostile;

use hostile::{repeated_chunk, repeated_dvle};
use shaderscope::dump::Annotations;
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions, Severity};

/// Text output may be at most this many times the input, plus [`SLACK`] bytes; JSON twice
/// that (a 4-byte table entry becomes a record of its own, about 200 bytes).
const FACTOR: usize = 32;
/// The constant part of the bound: headings, a listing of the one real program.
const SLACK: usize = 64 * 1024;

/// Every output of `data`, with its size: listing, dump, info, the JSON of each, findings.
fn outputs(data: &[u8]) -> Vec<(&'static str, String)> {
    let file = shaderscope::parse(data).unwrap();
    let mut listing = TextBuf::default();
    // A part that does not read (a SHARCFB binary of no GX2 struct) leaves the rest listed.
    let _ = file.disasm(&DisasmOptions::default(), &mut listing);
    let mut a = Annotations::new();
    file.annotate(&mut a);
    let mut dump = String::new();
    a.render(data, &mut dump).unwrap();
    let mut dump_json = String::new();
    a.render_json(data, 0..data.len() as u64, &mut dump_json).unwrap();
    let info = file.info_text();
    // As `validate` prints them (with a short path).
    let findings: String = file
        .validate()
        .iter()
        .map(|f| {
            let sev = if f.severity == Severity::Error { "error" } else { "warning" };
            format!("{sev}: a.bin: offset 0x{:x}: {}\n", f.offset, f.message)
        })
        .collect();
    vec![
        ("disasm", listing.into_string()),
        (
            "disasm --json",
            file.disasm_json(&DisasmOptions::default())
                .map(|j| serde_json::to_string(&j).unwrap())
                .unwrap_or_default(),
        ),
        ("dump", dump),
        ("dump --json", dump_json),
        ("info", info),
        ("info --json", file.info_json().get().to_string()),
        ("validate", findings),
    ]
}

fn assert_bounded(data: &[u8]) {
    for (what, text) in outputs(data) {
        let factor = if what.ends_with("--json") { 2 * FACTOR } else { FACTOR };
        println!("{what}: {} bytes of output for {} bytes of input", text.len(), data.len());
        assert!(
            text.len() <= factor * data.len() + SLACK,
            "{what}: {} bytes of output for {} bytes of input",
            text.len(),
            data.len()
        );
    }
}

#[test]
fn a_dvle_reached_again_is_listed_once_and_referred_to() {
    let data = repeated_dvle(3);
    let file = shaderscope::parse(&data).unwrap();
    let mut listing = TextBuf::default();
    file.disasm(&DisasmOptions::default(), &mut listing).unwrap();
    let listing = listing.into_string();
    // The DVLE sits after the three-entry table: 0x8c + 8.
    assert_eq!(listing.matches("; DVLE 0: vertex shader").count(), 1);
    assert!(listing.contains("\n; DVLE 1: the same bytes as DVLE 0 (offset 0x94)\n"), "{listing}");
    assert!(listing.contains("\n; DVLE 2: the same bytes as DVLE 0 (offset 0x94)\n"), "{listing}");
    assert_eq!(listing.matches(".proc main").count(), 1, "{listing}");

    let info = file.info_text();
    assert!(
        info.contains("summary: 1 DVLB, 3 DVLEs (vertex; 2 repeat an earlier one), producer picasso"),
        "{info}"
    );
    assert!(info.contains("\n  DVLE 2 at 0x94: the same bytes as DVLE 0\n"), "{info}");
    let json = file.info_json().to_value();
    assert_eq!(json["dvlbs"][0]["dvles"][1], serde_json::json!({"index": 1, "offset": 0x94, "same_as": 0}));
    assert_eq!(json["dvlbs"][0]["dvles"][0]["type"], "vertex");
    let disasm = serde_json::to_value(file.disasm_json(&DisasmOptions::default()).unwrap()).unwrap();
    assert_eq!(disasm["programs"][2]["same_as"], 0);
    assert_eq!(disasm["programs"][2]["instructions"], serde_json::json!([]));
    assert_eq!(disasm["programs"].as_array().unwrap().len(), 3);

    // One finding for the DVLE named again, at the first entry that repeats it.
    let findings = file.validate();
    let repeats: Vec<_> = findings.iter().filter(|f| f.message.contains("reached again")).collect();
    assert_eq!(repeats.len(), 1, "{findings:?}");
    assert_eq!((repeats[0].offset, repeats[0].severity), (0xc, Severity::Warning));
    assert_eq!(
        repeats[0].message,
        "2 offset-table entries, from DVLE 1 on, repeat DVLE 0's offset 0x94: the same bytes are reached again"
    );

    let mut a = Annotations::new();
    file.annotate(&mut a);
    let mut dump = String::new();
    a.render(&data, &mut dump).unwrap();
    assert!(dump.contains("| DVLE 2 offset: 0x94 (the same bytes as DVLE 0)\n"), "{dump}");
    assert_eq!(dump.matches("DVLE 0 header").count(), dump.matches("DVLE 1 header").count() + 1, "{dump}");

    // Written back byte for byte.
    assert_eq!(file.write().unwrap(), data);
}

#[test]
fn a_dvle_table_pointing_at_one_dvle_many_times_gives_bounded_output() {
    let data = repeated_dvle(20_000);
    assert_bounded(&data);
}

/// The model of a DVLB whose table names one DVLE a hundred thousand times holds that DVLE
/// once: every entry is the same `Arc`, so the model costs a pointer per entry (with its
/// offset and table offsets), not a copy of the DVLE and its tables. `validate` says so once.
#[test]
fn a_dvle_named_many_times_is_held_once_and_one_finding() {
    let n = 100_000;
    let data = repeated_dvle(n);
    let d = shaderscope::format::shbin::Dvlb::parse(&data).unwrap();
    assert_eq!(d.dvles.len(), n as usize);
    assert!(d.dvles.iter().all(|e| std::sync::Arc::ptr_eq(e, &d.dvles[0])));
    assert_eq!(std::sync::Arc::strong_count(&d.dvles[0]), n as usize);
    assert_eq!(d.write().unwrap(), data);

    let file = shaderscope::parse(&data).unwrap();
    let findings = file.validate();
    let repeats: Vec<(u64, &str)> = findings
        .iter()
        .filter(|f| f.message.contains("reached again"))
        .map(|f| (f.offset, f.message.as_str()))
        .collect();
    let at = 0x8c + 4 * (n - 1);
    let text = format!(
        "99999 offset-table entries, from DVLE 1 on, repeat DVLE 0's offset 0x{at:x}: the same bytes are reached again"
    );
    assert_eq!(repeats, vec![(0xc, text.as_str())]);
    // Every other finding is about the one DVLE or the code, not per entry.
    assert!(findings.len() < 16, "{} findings", findings.len());
}

/// Two DVLEs, each named twice more: one finding per DVLE, at its first repeating entry.
#[test]
fn each_dvle_named_again_is_one_finding() {
    let one = shaderscope::shbin::build::example_vertex_dvlb();
    let mut d = one.clone();
    let second = std::sync::Arc::new((*d.dvles[0]).clone());
    let first = d.dvles[0].clone();
    d.dvles = vec![first.clone(), second.clone(), second.clone(), first.clone(), first, second];
    let bytes = d.write().unwrap();
    let back = shaderscope::format::shbin::Dvlb::parse(&bytes).unwrap();
    assert_eq!(
        (0..6).map(|i| back.same_as(i)).collect::<Vec<_>>(),
        [None, None, Some(1), Some(0), Some(0), Some(1)]
    );
    let o: Vec<u64> = (0..2).map(|i| back.dvle_offset(i).unwrap()).collect();
    let file = shaderscope::parse(&bytes).unwrap();
    let repeats: Vec<(u64, String)> = file
        .validate()
        .into_iter()
        .filter(|f| f.message.contains("reached again"))
        .map(|f| (f.offset, f.message))
        .collect();
    assert_eq!(
        repeats,
        vec![
            (
                0x10,
                format!(
                    "2 offset-table entries, from DVLE 2 on, repeat DVLE 1's offset 0x{:x}: the same bytes are reached again",
                    o[1]
                )
            ),
            (
                0x14,
                format!(
                    "2 offset-table entries, from DVLE 3 on, repeat DVLE 0's offset 0x{:x}: the same bytes are reached again",
                    o[0]
                )
            ),
        ]
    );
}

/// Editing one entry of a shared DVLE (`Arc::make_mut` copies it first) gives it bytes of its
/// own when written; the entries left alone still share theirs.
#[test]
fn an_entry_edited_alone_is_written_alone() {
    let data = repeated_dvle(3);
    let mut d = shaderscope::format::shbin::Dvlb::parse(&data).unwrap();
    std::sync::Arc::make_mut(&mut d.dvles[2]).main = 1;
    assert!(std::sync::Arc::ptr_eq(&d.dvles[0], &d.dvles[1]));
    let bytes = d.write().unwrap();
    let back = shaderscope::format::shbin::Dvlb::parse(&bytes).unwrap();
    assert_eq!((back.same_as(1), back.same_as(2)), (Some(0), None));
    assert_eq!((back.dvles[0].main, back.dvles[2].main), (0, 1));
    assert_ne!(back.dvle_offset(2), back.dvle_offset(0));
}

#[test]
fn a_dxbc_chunk_index_pointing_at_one_chunk_many_times_gives_bounded_output() {
    let data = repeated_chunk(20_000);
    assert_bounded(&data);
}

#[test]
fn a_dxbc_chunk_reached_again_is_one_finding_and_described_once() {
    let data = repeated_chunk(3);
    let file = shaderscope::parse(&data).unwrap();
    let findings = file.validate();
    let repeats: Vec<_> = findings.iter().filter(|f| f.message.contains("reached again")).collect();
    assert_eq!(repeats.len(), 1, "{findings:?}");
    assert_eq!((repeats[0].offset, repeats[0].severity), (36, Severity::Warning));
    assert_eq!(
        repeats[0].message,
        "2 index entries, from chunk 1 on, repeat chunk 0's (SHDR) offset 0x2c: the same bytes are reached again"
    );
    assert!(!findings.iter().any(|f| f.message.contains("overlaps")), "{findings:?}");
    let info = file.info_text();
    assert!(info.contains("\nchunks:    3 chunks\n"), "{info}");
    assert!(info.contains("\n   2  SHDR   header 0x00002c  the same bytes as chunk 0\n"), "{info}");
    assert_eq!(file.info_json().to_value()["chunks"][2]["same_as"], 0);
    assert_eq!(file.info_json().to_value()["chunks"][0].get("same_as"), None);
}

/// Two DVLEs whose headers differ but whose tables are the same bytes: DVLE 0's header, then
/// DVLE 1's, then the one set of tables both point at.
#[test]
fn dvles_sharing_bytes_are_a_validate_error() {
    let one = shaderscope::shbin::build::example_vertex_shader();
    let old = u32::from_le_bytes(one[8..12].try_into().unwrap()) as usize;
    let at = old + 4;
    let mut v = b"DVLB".to_vec();
    v.extend(2u32.to_le_bytes());
    v.extend((at as u32).to_le_bytes());
    v.extend((at as u32 + 0x40).to_le_bytes());
    v.extend(&one[12..old]);
    let mut first = one[old..old + 0x40].to_vec();
    for k in 0..5 {
        let f = 0x18 + 8 * k;
        let rel = u32::from_le_bytes(first[f..f + 4].try_into().unwrap());
        first[f..f + 4].copy_from_slice(&(rel + 0x40).to_le_bytes());
    }
    v.extend(&first);
    v.extend(&one[old..]);
    // Where the shared tables start: the first non-empty table of the example's DVLE.
    let d = shaderscope::format::shbin::Dvlb::parse(&one).unwrap();
    let pieces = d.dvle_pieces(0).unwrap();
    let shared = pieces[1..].iter().map(|r| r.start).min().unwrap() - old as u64 + at as u64 + 0x40;
    let shared_end = pieces[1..]
        .iter()
        .filter(|r| r.start + at as u64 + 0x40 - old as u64 == shared)
        .map(|r| r.end)
        .max()
        .unwrap()
        - old as u64
        + at as u64
        + 0x40;

    let file = shaderscope::parse(&v).unwrap();
    let findings = file.validate();
    let overlaps: Vec<(u64, &str)> = findings
        .iter()
        .filter(|f| f.message.contains("shares bytes"))
        .map(|f| (f.offset, f.message.as_str()))
        .collect();
    let text = format!("DVLE 1 shares bytes with DVLE 0 (from 0x{shared:x} to 0x{shared_end:x})");
    assert_eq!(overlaps, vec![(shared, text.as_str())], "{findings:?}");
    assert!(findings.iter().any(|f| f.message == text && f.severity == Severity::Error));
    // The example itself is fine.
    let file = shaderscope::parse(&one).unwrap();
    assert!(!file.validate().iter().any(|f| f.message.contains("shares bytes")));
}

/// A SHARCFB whose programs all take the same binaries, with long names and many macros: every
/// line about a binary names its first user (name and settings cut) and counts the rest, so
/// the lines cost the same whatever the programs hold. Before, each binary's heading repeated
/// every program's whole name and every macro setting.
fn shared_binaries(programs: usize, name: usize, macros: usize) -> Vec<u8> {
    use shaderscope::format::sharcfb::res::Variation;
    use shaderscope::format::sharcfb::{Binary, BinaryType, Program, Sharcfb};
    let mut a = Sharcfb::new("hostile", shaderscope::toolkit::Endian::Big);
    // 8 macros of two values: 256 variations, 512 binaries of no data.
    for k in 0..512 {
        let kind = if k % 2 == 0 { BinaryType::VERTEX } else { BinaryType::PIXEL };
        a.binaries.items.push(Binary::new(kind, Vec::new()));
    }
    for p in 0..programs {
        let mut program = Program::new(&format!("{p}{}", "n".repeat(name)), 0b011, 0);
        for m in 0..macros {
            let values: &[&str] = if m < 8 { &["0", "1"] } else { &["x"] };
            program.variations.items.push(Variation::new(&format!("M{m}{}", "m".repeat(name)), values, "id"));
        }
        a.programs.items.push(program);
    }
    a.write().unwrap()
}

#[test]
fn sharcfb_programs_sharing_binaries_give_bounded_output() {
    let data = shared_binaries(16, 1024, 24);
    assert_bounded(&data);
    let file = shaderscope::parse(&data).unwrap();
    let shared = file.validate().into_iter().filter(|f| f.message.contains("reached again")).count();
    assert_eq!(shared, 15);
}
