//! The DXIL program header of every DXC container in the corpus: the shader model it names is
//! the one the corpus manifest gives (the profile the file was compiled with), the bitcode
//! starts with the LLVM magic and the sizes agree, and the `bitcode` part is those bytes.

mod common;

use shaderscope::Container;
use shaderscope::format::dxbc::{Dxbc, dxil};

#[test]
fn every_dxil_container_names_its_model_and_gives_its_bitcode() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut seen = 0;
    for row in common::manifest(&corpus, "dxbc") {
        if row.kind != "dxil-container" {
            continue;
        }
        let path = corpus.join("dxbc").join(&row.path);
        let bytes = std::fs::read(&path).expect("corpus file");
        let d = Dxbc::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", row.path));
        let p = d.dxil.as_ref().unwrap_or_else(|| panic!("{}: no DXIL program header", row.path));
        // The manifest's shader_model column: `cs_6_6(dxil)`.
        let expected = row.cols.get(7).and_then(|m| m.strip_suffix("(dxil)")).unwrap_or_default();
        assert_eq!(p.model(), expected, "{}", row.path);
        assert_eq!(p.major, 6, "{}", row.path);
        assert_eq!(p.bitcode.get(..4), Some(&dxil::BITCODE_MAGIC[..]), "{}", row.path);
        assert_eq!(p.bitcode.len(), p.bitcode_size as usize, "{}", row.path);
        assert_eq!(4 * p.size_in_dwords as usize, p.chunk.data.len(), "{}", row.path);
        assert!(
            8 + p.bitcode_offset as usize + p.bitcode.len() <= p.chunk.data.len(),
            "{}: bitcode past the chunk",
            row.path
        );
        assert!(p.validate().is_empty(), "{}: {:?}", row.path, p.validate());
        let part = d.part("bitcode").expect("a bitcode part");
        assert_eq!((part.offset, &part.bytes[..]), (p.bitcode_position() as u64, p.bitcode), "{}", row.path);
        assert_eq!(bytes.get(p.bitcode_position()..p.bitcode_position() + 4), Some(&b"BC\xc0\xde"[..]));
        // info says it in text and JSON alike.
        let mut text = String::new();
        d.info_text(&mut text);
        assert!(text.contains(&format!("program:   DXIL {} (", p.model())), "{}: {text}", row.path);
        assert!(
            text.contains(&format!(
                "bitcode at 0x{:x} (header + {}), {} bytes",
                p.bitcode_position(),
                p.bitcode_offset,
                p.bitcode_size
            )),
            "{text}"
        );
        let json = d.info_json().to_value();
        assert_eq!(json["dxil"]["model"], p.model());
        assert_eq!(json["dxil"]["bitcode_offset"], p.bitcode_position());
        assert_eq!(json["dxil"]["bitcode_size"], p.bitcode_size);
        seen += 1;
    }
    assert!(seen >= 250, "only {seen} DXIL containers");
}
