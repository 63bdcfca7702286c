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
        let text = d.info_text();
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

/// DXC's parts of every DXIL container: PSV0, RDAT, HASH (and VERS) parse; `dump` claims every
/// byte of them (no unclaimed byte, nothing left "not modelled", no stray bytes inside a part);
/// the HASH digest is the MD5 of the DXIL bitcode; PSV0 names the program's stage; the
/// listing and `info` say nothing of fxc (no banner, generation, statistics).
#[test]
fn every_dxil_containers_parts_parse_and_every_byte_is_claimed() {
    use shaderscope::dump::{Annotations, Row};
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut seen, mut psv, mut rdat, mut hash) = (0, 0, 0, 0);
    for row in common::manifest(&corpus, "dxbc") {
        if row.kind != "dxil-container" {
            continue;
        }
        let path = corpus.join("dxbc").join(&row.path);
        let bytes = std::fs::read(&path).expect("corpus file");
        let d = Dxbc::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", row.path));
        assert!(d.chunk_errors.is_empty(), "{}: {:?}", row.path, d.chunk_errors);
        assert!(d.is_dxil() && !d.is_fxc(), "{}", row.path);
        let program = d.dxil.as_ref().expect("a DXIL program");
        for (tag, read) in [
            (b"PSV0", d.psv.is_some()),
            (b"RDAT", d.rdat.is_some()),
            (b"HASH", d.shader_hash.is_some()),
            (b"VERS", d.compiler_version.is_some()),
        ] {
            assert_eq!(d.chunk(tag).is_some(), read, "{}: {}", row.path, String::from_utf8_lossy(tag));
        }
        if let Some(p) = &d.psv {
            psv += 1;
            assert_eq!(p.kind().unwrap_or(program.kind), program.kind, "{}", row.path);
            assert!(p.rest.is_empty(), "{}: bytes after PSV0's tables", row.path);
        }
        if let Some(h) = &d.shader_hash {
            hash += 1;
            assert_eq!(h.matches(program.bitcode), Some(true), "{}", row.path);
        }
        rdat += usize::from(d.rdat.is_some());
        assert!(
            d.validate().iter().all(|f| f.severity != shaderscope::Severity::Error),
            "{}: {:?}",
            row.path,
            d.validate()
        );

        let mut a = Annotations::new();
        d.annotate(&mut a);
        assert_eq!(a.errors().count(), 0, "{}", row.path);
        a.rows(&bytes, 0..bytes.len() as u64, |r| -> Result<(), ()> {
            match r {
                Row::Unclaimed { start, len } => panic!("{}: 0x{start:x}, {len} bytes unclaimed", row.path),
                Row::Field { start, text, .. } => {
                    for stray in
                        ["not modelled", "bytes outside", "bytes after", "past PSVRuntimeInfo", "not read"]
                    {
                        assert!(!text.contains(stray), "{}: 0x{start:x} {text}", row.path);
                    }
                }
                _ => {}
            }
            Ok(())
        })
        .unwrap();

        let mut listing = shaderscope::print::TextBuf::default();
        d.disasm(&shaderscope::DisasmOptions::default(), &mut listing).unwrap();
        let listing = listing.into_string();
        let header = format!(
            "//\n// DXIL container (dxc): {}, DXIL {}\n//\n",
            program.model(),
            program.dxil_version_text()
        );
        assert!(listing.starts_with(&header), "{}: {listing}", row.path);
        for fxc in ["Generated by", "instruction slots used", "sample frequency"] {
            assert!(!listing.contains(fxc), "{}: {listing}", row.path);
        }
        let text = d.info_text();
        assert!(!text.contains("\nfxc:") && !text.contains("\nstatistics:"), "{}: {text}", row.path);
        assert!(d.info_json().to_value().get("fxc").is_none(), "{}", row.path);
        seen += 1;
    }
    assert_eq!((seen, psv, rdat, hash), (257, 231, 26, 257));
}

/// The containers that hold a root signature alone: their listing has no fxc banner or
/// statistics, and `info` lists the root signature with the listing's lines.
#[test]
fn every_root_signature_alone_is_listed_and_informed_alike() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut seen = 0;
    for row in common::manifest(&corpus, "dxbc") {
        let path = corpus.join("dxbc").join(&row.path);
        if row.kind != "dxbc-container-noshader" {
            continue;
        }
        let bytes = std::fs::read(&path).expect("corpus file");
        let d = Dxbc::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", row.path));
        if !d.is_root_signature_only() {
            continue;
        }
        let mut listing = shaderscope::print::TextBuf::default();
        d.disasm(&shaderscope::DisasmOptions::default(), &mut listing).unwrap();
        let listing = listing.into_string();
        assert!(
            listing.starts_with("//\n// Root signature container (RTS0 alone, no program)\n//\n"),
            "{listing}"
        );
        assert!(!listing.contains("Generated by") && !listing.contains("instruction slots"), "{listing}");
        let text = d.info_text();
        assert!(!text.contains("\nfxc:"), "{}: {text}", row.path);
        let ours: Vec<String> =
            listing.lines().filter_map(|l| l.strip_prefix("//   ")).map(|l| format!("  {l}")).collect();
        let info: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("root signature at"))
            .skip(1)
            .take(ours.len())
            .collect();
        assert_eq!(info, ours, "{}", row.path);
        assert!(ours.first().is_some_and(|l| l.starts_with("  RootFlags(")), "{}: {listing}", row.path);
        seen += 1;
    }
    assert_eq!(seen, 20);
}
