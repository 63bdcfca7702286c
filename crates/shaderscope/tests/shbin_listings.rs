//! Listing snapshots (insta) of every corpus SHBIN: the full `disasm` text and, per DVLE, the
//! `--offsets --raw` form. The picasso round trip and nihstro agreement that make these
//! listings right are tested in `pica_reassemble.rs` and `pica_nihstro.rs`; the snapshots pin
//! the exact text so that any change to it is seen and reviewed (`cargo insta review`).

mod common;

use shaderscope::DisasmOptions;
use shaderscope::print::PlainText;

#[test]
fn corpus_listings_match_their_snapshots() {
    let Some(corpus) = common::corpus_dir() else { return };
    let rows = common::manifest(&corpus, "shbin");
    let mut n = 0;
    for row in rows.iter().filter(|r| r.kind == "shbin") {
        let data = std::fs::read(corpus.join("shbin").join(&row.path)).unwrap();
        let file = shaderscope::parse(&data).unwrap();
        let mut full = PlainText::default();
        file.disasm(&DisasmOptions::default(), &mut full).unwrap();
        let mut detailed = PlainText::default();
        file.disasm(&DisasmOptions { offsets: true, raw: true, ..Default::default() }, &mut detailed)
            .unwrap();
        let name = row.path.replace(['/', '#', '@'], "__");
        insta::with_settings!({snapshot_path => "snapshots/shbin", prepend_module_to_snapshot => false, description => row.path.as_str()}, {
            insta::assert_snapshot!(name.clone(), full.out);
            insta::assert_snapshot!(format!("{name}.raw"), detailed.out);
        });
        n += 1;
    }
    assert!(n >= 80, "only {n} corpus SHBINs listed");
}
