//! `find`: shader binaries embedded at known offsets in junk, in SARC archives and in Yaz0
//! streams built here, are found with their offset, size, format, stages and hash; every
//! shader binary of the corpus is found whole with the format its manifest says.

mod common;

use md5::{Digest, Md5};
use shaderscope::find::{Find, Step, find_all, sarc_archive, yaz0_literal};
use shaderscope::format::{gfd, mbs};

fn md5(b: &[u8]) -> String {
    Md5::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

fn dxbc() -> Vec<u8> {
    let mut b = shaderscope::dxbc::write::Builder::new();
    b.push(*b"STAT", vec![0u8; 4 * 37]);
    b.finish().unwrap()
}

/// `(location, format, stages, size, hash, problem)` of a find.
type Line = (String, &'static str, String, u64, String, Option<String>);

fn lines(finds: &[Find]) -> Vec<Line> {
    finds
        .iter()
        .map(|f| {
            (
                f.location(),
                f.format.name(),
                f.stages.join(","),
                f.size,
                f.hash.clone(),
                f.problem.as_ref().map(|p| p.message.clone()),
            )
        })
        .collect()
}

#[test]
fn dxbc_and_mbs_embedded_in_junk_are_found_at_their_offsets() {
    let (d, m) = (dxbc(), mbs::build::example_vertex_shader());
    // Junk that holds both magics without a header that makes sense.
    let mut file = b"MZ\x90\0 DXBC is a word here; MBS1 too ".to_vec();
    file.resize(0x100, 0xcc);
    file.extend_from_slice(&d);
    file.resize(0x400, 0);
    file.extend_from_slice(&m);
    file.extend_from_slice(b"trailing junk");
    let finds = find_all(&file);
    assert_eq!(
        lines(&finds),
        vec![
            ("0x100".into(), "dxbc", String::new(), d.len() as u64, md5(&d), None),
            ("0x400".into(), "mbs", "vertex".into(), m.len() as u64, md5(&m), None),
        ]
    );
    assert!(finds.iter().all(|f| !f.whole && f.within.is_empty()));
}

#[test]
fn a_cut_dxbc_is_found_capped_and_invalid() {
    let d = dxbc();
    let mut file = b"\0\0\0\0".to_vec();
    file.extend_from_slice(&d[..d.len() - 4]);
    let finds = find_all(&file);
    assert_eq!(finds.len(), 1);
    assert_eq!((finds[0].offset, finds[0].size), (4, d.len() as u64 - 4));
    // The kind and offset `scan --json` gives, the offset counted from the find's first byte.
    let p = finds[0].problem.as_ref().unwrap();
    assert_eq!((p.kind, p.offset, p.what.as_deref()), ("truncated", Some(0), Some("DXBC container")));
    assert_eq!(
        p.message,
        format!("truncated DXBC container at offset 0x0 (need {} bytes, have {})", d.len(), d.len() - 4)
    );
}

#[test]
fn gsh_in_a_sarc_and_a_yaz0_sarc() {
    let gsh = gfd::build::example();
    let sarc = sarc_archive(&[("readme.txt", b"no shader"), ("shaders/a.gsh", &gsh)]).unwrap();
    let want =
        |loc: String| vec![(loc, "gfd", "vertex,pixel".to_string(), gsh.len() as u64, md5(&gsh), None)];
    let finds = find_all(&sarc);
    assert_eq!(lines(&finds), want("sarc@0x0:shaders/a.gsh/0x200".into()));
    assert!(finds[0].whole);
    assert_eq!(&sarc[0x200..0x200 + gsh.len()], &gsh[..]);

    let szs = yaz0_literal(&sarc).unwrap();
    let finds = find_all(&szs);
    assert_eq!(lines(&finds), want("yaz0@0x0/sarc@0x0:shaders/a.gsh/0x200".into()));
    assert_eq!(
        finds[0].within,
        vec![
            Step { kind: "yaz0", offset: 0, name: None },
            Step { kind: "sarc", offset: 0, name: Some("shaders/a.gsh".into()) }
        ]
    );
    // A Yaz0 SARC embedded after junk, twice: two finds with the same hash.
    let mut pack = vec![0x11; 0x30];
    pack.extend_from_slice(&szs);
    pack.extend_from_slice(&szs);
    let finds = find_all(&pack);
    let at2 = 0x30 + szs.len();
    assert_eq!(
        finds.iter().map(Find::location).collect::<Vec<_>>(),
        vec![
            "yaz0@0x30/sarc@0x0:shaders/a.gsh/0x200".to_string(),
            format!("yaz0@{at2:#x}/sarc@0x0:shaders/a.gsh/0x200")
        ]
    );
    assert_eq!(finds[0].hash, finds[1].hash);
}

#[test]
fn a_whole_file_is_one_find() {
    let gsh = gfd::build::example();
    let finds = find_all(&gsh);
    assert_eq!(
        lines(&finds),
        vec![("-".into(), "gfd", "vertex,pixel".into(), gsh.len() as u64, md5(&gsh), None)]
    );
}

#[test]
fn every_corpus_shader_binary_is_found_with_its_manifest_format() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut seen = 0;
    for dir in ["dxbc", "gx2", "mbs", "shbin"] {
        for row in common::manifest(&corpus, dir) {
            let Some(format) = common::kind_format(&row.kind) else { continue };
            let data = std::fs::read(corpus.join(dir).join(&row.path)).unwrap();
            let finds = find_all(&data);
            let first = finds.first().unwrap_or_else(|| panic!("{}: nothing found", row.path));
            assert_eq!(
                (first.format.name(), first.whole, first.size),
                (format, true, data.len() as u64),
                "{}",
                row.path
            );
            seen += 1;
        }
    }
    assert!(seen > 1000, "{seen}");
}

/// What `scan` shows of each find comes from `program_heads`, which the Wii U formats give
/// without disassembling: it must be exactly the programs of `disasm --json` without their
/// instructions (every fourth GFD and every SHARCFB of the corpus, and the shipped samples of
/// the other formats through the default).
#[test]
fn program_heads_are_the_disasm_programs_without_instructions() {
    use shaderscope::{Container, DisasmOptions};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<std::path::PathBuf> = ["vshader.shbin", "vertex.mbs", "fragment.mbs"]
        .iter()
        .map(|s| root.join("samples").join(s))
        .collect();
    if let Some(corpus) = common::corpus_dir() {
        let rows = common::manifest(&corpus, "gx2");
        for (ext, step) in [(".gsh", 4), (".sharcfb", 1)] {
            let rows = rows.iter().filter(|r| r.path.ends_with(ext)).step_by(step);
            files.extend(rows.map(|r| corpus.join("gx2").join(&r.path)));
        }
    }
    let mut checked = 0usize;
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let file = shaderscope::parse(&data).unwrap();
        let want: Vec<_> = file
            .disasm_json(&DisasmOptions::default())
            .unwrap()
            .programs
            .into_iter()
            .map(|mut p| {
                p.instructions.clear();
                p
            })
            .collect();
        assert_eq!(file.program_heads(), want, "{}", path.display());
        checked += usize::from(!want.is_empty());
    }
    assert!(checked >= if common::corpus_dir().is_some() { 100 } else { 3 }, "{checked} files with programs");
}
