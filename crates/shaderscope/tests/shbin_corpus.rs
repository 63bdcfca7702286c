//! SHBIN over the real corpus: every file parses, re-encodes byte for byte, is recognised as
//! the producer the manifest names, validates clean; and no truncation or byte flip of any
//! file makes the parser panic or report an offset that does not fit the damage.

mod common;

use shaderscope::Container;
use shaderscope::format::shbin::{Dvlb, producer};
use shaderscope::{ErrorKind, detect};
use std::path::PathBuf;

fn shbin_files() -> Option<Vec<(PathBuf, String)>> {
    let corpus = common::corpus_dir()?;
    let rows = common::manifest(&corpus, "shbin");
    let files: Vec<_> = rows
        .into_iter()
        .filter(|r| r.kind == "shbin")
        .map(|r| (corpus.join("shbin").join(&r.path), r.cols.get(7).cloned().unwrap_or_default()))
        .collect();
    assert!(files.len() >= 80, "the shbin manifest lists only {} binaries", files.len());
    Some(files)
}

#[test]
fn every_corpus_shbin_parses_round_trips_and_validates() {
    let Some(files) = shbin_files() else { return };
    for (path, expected_producer) in &files {
        let data = std::fs::read(path).unwrap();
        let d = Dvlb::parse(&data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The DVLE count is the header's word at offset 4.
        assert_eq!(d.dvles.len() as u32, u32::from_le_bytes(data[4..8].try_into().unwrap()));
        assert_eq!(d.write().unwrap(), data, "{} does not round-trip", path.display());
        assert_eq!(producer(&d), expected_producer, "{}: producer", path.display());
        let file = shaderscope::parse(&data).unwrap();
        let errors: Vec<_> =
            file.validate().into_iter().filter(|f| f.severity == shaderscope::Severity::Error).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
}

/// Parse a damaged file; it may fail, but never panic, and a success must still re-encode to
/// exactly the bytes it came from. With `deep`, everything the CLI does with a parsed file
/// (validate, dump, listing) runs on it too.
fn check_damaged(data: &[u8], label: &str, deep: bool) -> Option<shaderscope::Error> {
    match detect(data) {
        Some(shaderscope::Format::Dvlb) => {}
        _ => return None,
    }
    match Dvlb::parse(data) {
        Ok(d) => {
            assert_eq!(d.write().unwrap(), data, "{label}: parsed but does not round-trip");
            if !deep {
                return None;
            }
            let file = shaderscope::parse(data).unwrap();
            let _ = file.validate();
            let mut a = shaderscope::dump::Annotations::new();
            file.annotate(&mut a);
            let mut p = shaderscope::print::TextBuf::default();
            let _ = file.disasm(&shaderscope::DisasmOptions::default(), &mut p);
            None
        }
        Err(e) => Some(e),
    }
}

#[test]
fn every_truncation_is_ok_or_points_at_the_cut() {
    let Some(files) = shbin_files() else { return };
    for (path, _) in &files {
        let data = std::fs::read(path).unwrap();
        for cut in 0..data.len() {
            let label = format!("{} cut at {cut}", path.display());
            let Some(e) = check_damaged(&data[..cut], &label, true) else { continue };
            match e.kind() {
                // What is missing runs exactly to the cut.
                ErrorKind::Truncated { have, .. } => {
                    assert_eq!(e.offset() + have, cut as u64, "{label}: {e}")
                }
                // A table that no longer fits is bounded by the cut.
                ErrorKind::OutOfBounds { limit, start, len } => {
                    assert_eq!(*limit, cut as u64, "{label}: {e}");
                    assert!(start + len > *limit, "{label}: {e}");
                }
                _ => panic!("{label}: unexpected error {e}"),
            }
        }
    }
}

#[test]
fn byte_flips_never_panic_and_parsed_results_round_trip() {
    let Some(files) = shbin_files() else { return };
    for (path, _) in &files {
        let data = std::fs::read(path).unwrap();
        for at in 0..data.len() {
            for mask in [0x01u8, 0x80, 0xff] {
                let mut d = data.clone();
                d[at] ^= mask;
                // Every flip is parsed and re-encoded; one in eight also goes through the CLI work.
                let deep = (at + mask as usize) % 8 == 0;
                if let Some(e) =
                    check_damaged(&d, &format!("{} flip {mask:#x} at {at}", path.display()), deep)
                {
                    assert!(e.offset() <= d.len() as u64, "{}: offset {e}", path.display());
                }
            }
        }
    }
}
