//! Listing snapshots (insta) of every corpus SHBIN: the full `disasm` text and, per DVLE, the
//! `--offsets --raw` form. The picasso round trip and nihstro agreement that make these
//! listings right are tested in `pica_reassemble.rs` and `pica_nihstro.rs`; the snapshots pin
//! the exact text so that any change to it is seen and reviewed (`cargo insta review`).

mod common;

use shaderscope::Container;
use shaderscope::DisasmOptions;
use shaderscope::print::TextBuf;

#[test]
fn corpus_listings_match_their_snapshots() {
    let Some(corpus) = common::corpus_dir() else { return };
    let rows = common::manifest(&corpus, "shbin");
    let mut n = 0;
    for row in rows.iter().filter(|r| r.kind == "shbin") {
        let data = std::fs::read(corpus.join("shbin").join(&row.path)).unwrap();
        let file = shaderscope::parse(&data).unwrap();
        let mut full = TextBuf::default();
        file.disasm(&DisasmOptions::default(), &mut full).unwrap();
        let mut detailed = TextBuf::default();
        file.disasm(&DisasmOptions::default().with_offsets(true).with_raw(true), &mut detailed).unwrap();
        let name = row.path.replace(['/', '#', '@'], "__");
        insta::with_settings!({snapshot_path => "snapshots/shbin", prepend_module_to_snapshot => false, description => row.path.as_str()}, {
            insta::assert_snapshot!(name.clone(), full.as_str());
            insta::assert_snapshot!(format!("{name}.raw"), detailed.as_str());
        });
        n += 1;
    }
    assert!(n >= 80, "only {n} corpus SHBINs listed");
}
