//! Whole Wii U files back from their listing (`asm --like`): every corpus `.gsh` and SHARCFB
//! comes back byte for byte from `disasm`'s listing; an edited program (grown by a zero tail,
//! so that everything after it moves, alignment kept) rebuilds into a file that `validate` accepts, whose
//! edited program is the new one and whose other programs are the original's; a SHARCFB
//! variation's bare shaders replace that variation's binaries.

mod common;

use shaderscope::asm::{self, File, Variation};
use shaderscope::container::Container;
use shaderscope::{DisasmOptions, Severity};

/// Every corpus `.gsh` and SHARCFB: (path, bytes).
fn corpus() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = common::corpus_dir()?;
    let mut out = Vec::new();
    for kind in ["gsh", "sharcfb"] {
        out.extend(common::files(&dir, "gx2", kind).map(|(row, _, data)| (row.path.clone(), data)));
    }
    Some(out)
}

/// How much an edit grows a program: a word, so that whatever follows it is no longer where
/// alignment would put it unless the rebuild keeps it there.
const GROWTH: usize = 8;

fn listing(data: &[u8]) -> String {
    let file = shaderscope::parse(data).unwrap();
    let mut out = shaderscope::print::TextBuf::default();
    file.disasm(&DisasmOptions::default(), &mut out).unwrap();
    out.into_string()
}

/// The programs of a file by part name (`vertex0.program`, `binary3.program`).
fn programs(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let file = shaderscope::parse(data).unwrap();
    let parts = file.parts().into_iter().filter(|p| p.name.ends_with("program"));
    parts.map(|p| (p.name.clone(), p.bytes.to_vec())).collect()
}

fn errors(data: &[u8]) -> Vec<String> {
    let file = shaderscope::parse(data).unwrap();
    file.validate().into_iter().filter(|f| f.severity == Severity::Error).map(|f| f.message).collect()
}

/// Each program's absolute offset modulo `unit`, by part name.
fn residues(data: &[u8], unit: u64) -> Vec<(String, u64)> {
    let file = shaderscope::parse(data).unwrap();
    let parts = file.parts().into_iter().filter(|p| p.name.ends_with("program"));
    parts.map(|p| (p.name.clone(), p.offset % unit)).collect()
}

/// The boundary the format keeps programs on, if it does: a SHARCFB's on 0x100 of the file, a
/// `.gsh` with its align flag on 0x200 (by padding blocks).
fn alignment(data: &[u8]) -> Option<u64> {
    match &data[..4] {
        b"Gfx2" => (data[0x17] == 1).then_some(0x200),
        _ => Some(0x100),
    }
}

/// The listing with its first program grown by `GROWTH` zero bytes: its size, and the text.
fn grow_first_program(text: &str) -> Option<(usize, String)> {
    let mut out = String::new();
    let mut size = None;
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        if size.is_none() {
            if let Some(n) = line.strip_prefix("---- ").and_then(|l| l.split_once(" (")) {
                let n: usize = n.1.strip_suffix(" bytes) ----")?.parse().ok()?;
                out.push_str(&format!("; zeros at +0x0: {} bytes\n", n + GROWTH));
                size = Some(n);
            }
        }
    }
    Some((size?, out))
}

#[test]
fn every_corpus_file_comes_back_from_its_listing() {
    let Some(files) = corpus() else { return };
    let mut same = 0;
    let mut failures = Vec::new();
    for (path, data) in &files {
        match asm::assemble(&listing(data), Some(data)) {
            Ok(a) if a.bytes == *data && a.notes.is_empty() => same += 1,
            Ok(a) => failures.push(format!(
                "{path}: {} bytes, the original {}; {:?}",
                a.bytes.len(),
                data.len(),
                a.notes
            )),
            Err(e) => failures.push(format!("{path}: {e}")),
        }
    }
    println!("{same}/{} .gsh and SHARCFB files back from their listing", files.len());
    assert!(failures.is_empty(), "{same}/{}; {:#?}", files.len(), &failures[..failures.len().min(5)]);
    assert!(same >= 400, "{same} files");
}

#[test]
fn a_grown_program_rebuilds_into_a_valid_file() {
    let Some(files) = corpus() else { return };
    let mut tried = 0;
    for (path, data) in files.iter().step_by(7) {
        let Some((size, text)) = grow_first_program(&listing(data)) else { continue };
        let a = asm::assemble(&text, Some(data)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(errors(&a.bytes), errors(data), "{path}");
        let (before, after) = (programs(data), programs(&a.bytes));
        assert_eq!(before.len(), after.len(), "{path}");
        // The first program listed with a size is the first part that has one.
        let first = before.iter().position(|(_, code)| code.len() == size).unwrap();
        for (k, ((name, old), (name2, new))) in before.iter().zip(&after).enumerate() {
            assert_eq!(name, name2, "{path}");
            if k == first {
                assert_eq!(new.len(), old.len() + GROWTH, "{path} {name}");
                assert_eq!(&new[..old.len()], old.as_slice(), "{path} {name}");
                assert!(new[old.len()..].iter().all(|&b| b == 0), "{path} {name}");
            } else {
                assert_eq!(new, old, "{path} {name}");
            }
        }
        if let Some(unit) = alignment(data) {
            assert_eq!(residues(&a.bytes, unit), residues(data, unit), "{path}");
        }
        // The note names the shader and its Cemu hash; the new file lists into itself.
        assert!(a.notes.iter().any(|n| n.contains(": Cemu hash ")), "{path}: {:?}", a.notes);
        assert_eq!(asm::assemble(&listing(&a.bytes), Some(&a.bytes)).unwrap().bytes, a.bytes, "{path}");
        tried += 1;
    }
    println!("{tried} files rebuilt with a grown program");
    assert!(tried >= 55, "{tried}");
}

#[test]
fn a_variation_s_bare_shaders_replace_its_binaries() {
    let Some(files) = corpus() else { return };
    let mut tried = 0;
    for (path, data) in files.iter().filter(|(p, _)| p.to_lowercase().ends_with(".sharcfb")) {
        let archive = shaderscope::format::sharcfb::Sharcfb::parse(data).unwrap();
        let Some(program) = archive.programs.items.first() else { continue };
        let name = program.name.text().into_owned();
        let resolved = archive.resolve(&name, &[]).unwrap();
        // The variation's shaders, cut from the whole listing without their `; binary` lines.
        let text = listing(data);
        let mut bare = String::new();
        let mut keep = false;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("; binary ") {
                let n: u64 = rest.split(':').next().unwrap().parse().unwrap();
                keep = resolved.binaries.iter().any(|b| b.index == n);
                continue;
            }
            if keep {
                bare.push_str(line);
                bare.push('\n');
            }
        }
        let v = Variation { program: Some(&name), set: &[] };
        let files = [File { name: "", text: &bare }];
        let back =
            asm::assemble_variation(&files, Some(data), Some(v)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(back.bytes, *data, "{path}");
        let (size, grown) = grow_first_program(&bare).unwrap();
        let files = [File { name: "", text: &grown }];
        let a =
            asm::assemble_variation(&files, Some(data), Some(v)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let vs = resolved.binaries.first().unwrap().index;
        let (before, after) = (programs(data), programs(&a.bytes));
        for ((name, old), (_, new)) in before.iter().zip(&after) {
            if *name == format!("binary{vs}.program") {
                assert_eq!((old.len(), new.len()), (size, size + GROWTH), "{path}");
            } else {
                assert_eq!(new, old, "{path} {name}");
            }
        }
        assert_eq!(errors(&a.bytes), errors(data), "{path}");
        assert_eq!(residues(&a.bytes, 0x100), residues(data, 0x100), "{path}");
        tried += 1;
    }
    assert!(tried >= 1, "no SHARCFB in the corpus");
}

#[test]
fn a_listing_that_is_not_the_original_s_is_refused_at_its_line() {
    let data = shaderscope::format::gfd::build::example();
    let text = listing(&data);
    let fail = |t: &str| asm::assemble(t, Some(&data)).unwrap_err().to_string();
    assert_eq!(
        fail(&text.replace("PS mode=0 ubs=0 uvs=1", "PS mode=0 ubs=0 uvs=2")),
        "line 9, column 1: expected the original's summary line `PS mode=0 ubs=0 uvs=1 samplers=0` \
         (a shader's struct is not assembled from text)"
    );
    assert_eq!(
        fail(&text.replace("R0.xyzw", "R0.xyzq")),
        "line 12, column 23: expected four components (`xyzw`, `xy__`)"
    );
    let first = text.split("PS mode").next().unwrap();
    assert_eq!(
        fail(first),
        "line 8, column 1: expected the original's pixel shader 0 after this line (it has 2 shaders)"
    );
    assert_eq!(
        fail(&format!("{text}{first}")),
        "line 16, column 1: expected the end of the listing (the original has 2 shaders)"
    );
    assert_eq!(
        asm::assemble(&text, None).unwrap_err().to_string(),
        "a listing of a .gsh or SHARCFB is rebuilt into its original: give the original with --like \
         (or assemble one program alone with --format latte)"
    );
}
