//! MBS files of the corpus (`mbs/`): every file parses, writes back byte for byte, is valid
//! and fully annotated; the symbols of every file whose GLSL source is known (beside it, or
//! named by the manifest's `GLSL = …` note) are declared there, with the same storage and
//! type; damaged copies (every truncation, every byte flipped) give Ok or a clean error with an
//! offset inside the file, never a panic.

mod common;

use shaderscope::format::mbs::{Mbs, glsl_type};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Every MBS file of the corpus with its manifest row's notes and its bytes.
fn files(corpus: &Path) -> Vec<(PathBuf, String, Vec<u8>)> {
    let mut v: Vec<(PathBuf, String, Vec<u8>)> = common::manifest(corpus, "mbs")
        .into_iter()
        .filter(|r| r.kind == "mbs")
        .map(|r| {
            let p = corpus.join("mbs").join(&r.path);
            let b = std::fs::read(&p).expect("corpus file");
            (p, r.notes.clone(), b)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_file_parses_round_trips_validates_and_is_fully_annotated() {
    let Some(corpus) = common::corpus_dir() else { return };
    let files = files(&corpus);
    assert!(files.len() >= 20, "only {} MBS files in the manifest", files.len());
    for (path, _, bytes) in &files {
        let name = path.display();
        let file = shaderscope::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.write().unwrap(), *bytes, "{name} does not round-trip");
        assert_eq!(file.validate(), [], "{name}");
        assert!(file.damage().is_empty(), "{name}: {:?}", file.damage());
        let mbs = Mbs::parse(bytes).unwrap();
        let shader = mbs.shader().unwrap_or_else(|| panic!("{name}: no shader chunk"));
        assert!(shader.core_name().is_some(), "{name}: version {}", shader.shader.version);
        let (code, at) = shader.code().unwrap_or_else(|| panic!("{name}: no DBIN"));
        assert!(!code.is_empty() && at < bytes.len() as u64);
        // dump: every byte claimed, nothing left unread.
        let mut a = shaderscope::dump::Annotations::new();
        shaderscope::annotate(bytes, &mut a).unwrap();
        let mut text = String::new();
        a.render(bytes, &mut text).unwrap();
        assert!(!text.contains("(unclaimed)"), "{name}:\n{text}");
        assert_eq!(a.errors().count(), 0, "{name}");
        // info and the listing name every symbol.
        let info = file.info_text();
        let mut listing = TextBuf::default();
        file.disasm(&DisasmOptions::default(), &mut listing).unwrap();
        for tag in [*b"SUNI", *b"SATT", *b"SVAR"] {
            for s in shader.table(tag).into_iter().flat_map(|t| t.symbols()) {
                let n = s.name.to_string();
                assert!(info.contains(&n) && listing.as_str().contains(&n), "{name}: {n} not shown");
            }
        }
        // Every program of disasm --json sits on the DBIN payload.
        let d = file.disasm_json(&DisasmOptions::default()).unwrap();
        assert_eq!(d.programs.len(), 1, "{name}");
        assert_eq!((d.programs[0].offset, d.programs[0].size), (at, code.len() as u64), "{name}");
    }
}

/// The GLSL source of a corpus file: beside it (its name without `.mbs`, or with `.frag` /
/// `.vert` for `.mbs`), or the `GLSL = path` of its manifest notes (relative to the file's
/// first folder, or to the copy lima_compiler was run on under `generated-limasc/`).
fn glsl_source(corpus: &Path, path: &Path, notes: &str) -> Option<String> {
    let mbs = corpus.join("mbs");
    let s = path.to_string_lossy();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(stem) = s.strip_suffix(".mbs") {
        candidates.push(PathBuf::from(stem));
        candidates.push(PathBuf::from(format!("{stem}.frag")));
        candidates.push(PathBuf::from(format!("{stem}.vert")));
    }
    if let Some(rest) = notes.split("GLSL = ").nth(1) {
        let rel = rest.split([';', ' ']).next().unwrap_or("");
        let first = path.strip_prefix(&mbs).ok()?.components().next()?;
        candidates.push(mbs.join(first).join(rel));
        candidates.push(mbs.join("generated-limasc").join(first).join(rel));
    }
    let hit = candidates
        .into_iter()
        .find(|c| c.is_file() && c.extension().is_some_and(|e| e == "frag" || e == "vert" || e == "txt"))?;
    std::fs::read_to_string(hit).ok()
}

/// The `uniform`, `attribute` and `varying` declarations of GLSL ES source: name →
/// (storage, type with `[N]` for an array).
fn declarations(src: &str) -> HashMap<String, (String, String)> {
    let mut text = String::new();
    let mut rest = src;
    // Comments out.
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, r)| r);
            text.push('\n');
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, r)| r);
            text.push(' ');
        } else {
            let c = rest.chars().next().unwrap();
            text.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    let mut out = HashMap::new();
    for statement in text.split(';') {
        let words: Vec<&str> = statement.split_whitespace().collect();
        let Some(q) = words.iter().position(|w| matches!(*w, "uniform" | "attribute" | "varying")) else {
            continue;
        };
        let storage = words[q].to_string();
        let mut it = words[q + 1..].iter().filter(|w| !matches!(**w, "lowp" | "mediump" | "highp"));
        let Some(ty) = it.next() else { continue };
        let names: String = it.copied().collect::<Vec<_>>().join(" ");
        for n in names.split(',') {
            let n: String = n.chars().filter(|c| !c.is_whitespace()).collect();
            let (name, ty) = match n.split_once('[') {
                Some((name, len)) => (name.to_string(), format!("{ty}[{}", len)),
                None => (n.clone(), ty.to_string()),
            };
            if !name.is_empty() {
                out.insert(name, (storage.clone(), ty));
            }
        }
    }
    out
}

#[test]
fn symbols_are_the_glsl_declarations() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut checked_files = 0;
    let mut checked_symbols = 0;
    for (path, notes, bytes) in files(&corpus) {
        let Some(src) = glsl_source(&corpus, &path, &notes) else { continue };
        let decl = declarations(&src);
        let mbs = Mbs::parse(&bytes).unwrap();
        let shader = mbs.shader().unwrap();
        for (tag, storage) in [(*b"SUNI", "uniform"), (*b"SATT", "attribute"), (*b"SVAR", "varying")] {
            for s in shader.table(tag).into_iter().flat_map(|t| t.symbols()) {
                let name = s.name.to_string();
                // Built-ins and compiler constants are the compiler's own.
                if name.starts_with("gl_") || name.starts_with('?') || s.parent_index().is_some() {
                    continue;
                }
                let Some((st, ty)) = decl.get(&name) else {
                    panic!("{}: {name} is not declared in its GLSL", path.display())
                };
                assert_eq!(st, storage, "{}: {name}", path.display());
                assert_eq!(*ty, glsl_type(s), "{}: {name}", path.display());
                checked_symbols += 1;
            }
        }
        checked_files += 1;
    }
    println!("checked {checked_symbols} symbols of {checked_files} files against their GLSL");
    assert!(checked_files >= 20 && checked_symbols >= 40, "{checked_files} files, {checked_symbols} symbols");
}

/// Every result of a damaged copy: Ok (then every command's view of it works) or an error at
/// an offset inside the input.
fn exercise(name: &str, data: &[u8]) {
    match shaderscope::parse(data) {
        Ok(f) => {
            let _ = f.info_text();
            let _ = f.info_json();
            let mut t = TextBuf::default();
            let _ = f.disasm(&DisasmOptions::default().with_offsets(true), &mut t);
            let _ = f.validate();
            let _ = f.damage();
            assert_eq!(f.write().unwrap(), data, "{name}: a damaged copy that parses does not round-trip");
            let mut a = shaderscope::dump::Annotations::new();
            f.annotate(&mut a);
        }
        Err(e) => {
            assert!(e.offset() <= data.len() as u64, "{name}: {e} (input of {} bytes)", data.len());
            assert!(e.to_string().contains(" at offset 0x") || data.is_empty(), "{name}: {e}");
            let mut a = shaderscope::dump::Annotations::new();
            let _ = shaderscope::annotate(data, &mut a);
        }
    }
}

#[test]
fn every_truncation_and_byte_flip_is_ok_or_a_clean_error() {
    let Some(corpus) = common::corpus_dir() else { return };
    for (path, _, bytes) in files(&corpus) {
        let name = path.display().to_string();
        for len in 0..bytes.len() {
            exercise(&name, &bytes[..len]);
        }
        for at in 0..bytes.len() {
            let mut b = bytes.clone();
            b[at] = bytes[at] ^ 0xff;
            exercise(&name, &b);
        }
    }
}

#[test]
fn the_error_of_a_cut_file_names_the_chunk_path() {
    let Some(corpus) = common::corpus_dir() else { return };
    for (path, _, bytes) in files(&corpus) {
        // Without its last word the MBS1 chunk reaches past the end: the error says so, at
        // the offset of its size.
        let cut = &bytes[..bytes.len() - 4];
        let e = Mbs::parse(cut).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "MBS1 chunk at offset 0x4 points outside its range (0x8 + 0x{:x} is outside 0x{:x})",
                bytes.len() - 8,
                cut.len()
            ),
            "{}",
            path.display()
        );
    }
}
