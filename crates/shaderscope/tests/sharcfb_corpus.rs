//! SHARCFB and `.sharc` over the real corpus (`gx2` in the corpus manifest): every archive
//! parses with the counts the manifest's notes give, writes back byte for byte, converts to
//! big-endian and back unchanged; every program variation resolves to binaries whose types
//! the program's kind asks for and whose microcode is the sibling `out.gsh`'s (gshCompile's own
//! output for the same program); no truncation or byte flip panics, and whatever still parses
//! writes back identically.

mod common;

use shaderscope::format::gfd::Gfd;
use shaderscope::format::sharc::Sharc;
use shaderscope::format::sharcfb::{BinaryType, Sharcfb};
use shaderscope::toolkit::Endian;
use shaderscope::{Container, Severity};
use std::path::{Path, PathBuf};

/// The corpus files of `kind` (`sharcfb`, `sharc`) with their manifest notes.
fn files(kind: &str) -> Option<Vec<(PathBuf, String)>> {
    let corpus = common::corpus_dir()?;
    let rows = common::manifest(&corpus, "gx2");
    let v: Vec<_> = rows
        .into_iter()
        .filter(|r| r.kind == kind)
        .map(|r| (corpus.join("gx2").join(&r.path), r.cols.last().cloned().unwrap_or_default()))
        .filter(|(p, _)| p.is_file())
        .collect();
    assert!(!v.is_empty(), "no {kind} in the gx2 manifest");
    Some(v)
}

/// `key=N` from a manifest note.
fn note(notes: &str, key: &str) -> Option<u64> {
    notes.split([' ', ';']).find_map(|w| w.strip_prefix(&format!("{key}="))?.parse().ok())
}

#[test]
fn every_corpus_sharcfb_parses_round_trips_and_changes_byte_order() {
    let Some(files) = files("sharcfb") else { return };
    assert_eq!(files.len(), 2);
    for (path, notes) in &files {
        let data = std::fs::read(path).unwrap();
        let name = path.display();
        let f = Sharcfb::parse(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((f.endian, f.version, f.endian_field), (Endian::Little, 8, 1), "{name}");
        assert_eq!(Some(f.binaries.items.len() as u64), note(notes, "binaries"), "{name}");
        assert_eq!(Some(f.programs.items.len() as u64), note(notes, "programs"), "{name}");
        assert_eq!(Some(f.file_size()), note(notes, "filesize_field"), "{name}");
        assert_eq!(f.write().unwrap(), data, "{name} does not round-trip");
        let errors: Vec<_> = f.validate().into_iter().filter(|x| x.severity == Severity::Error).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");

        // Big-endian and back. There is no real big-endian archive to compare with, so this
        // round trip is the evidence: every header word is swapped, the strings are not.
        let be = f.to_endian(Endian::Big).unwrap().write().unwrap();
        assert_eq!(&be[..4], b"SHAB");
        assert_eq!(be.len(), data.len());
        for w in [4usize, 8, 0x14] {
            let le: [u8; 4] = data[w..w + 4].try_into().unwrap();
            let mut swapped = le;
            swapped.reverse();
            assert_eq!(be[w..w + 4], swapped, "{name}: header word at 0x{w:x}");
        }
        assert_eq!(&be[0x18..0x18 + f.name.len()], &f.name.bytes[..]);
        let parsed = Sharcfb::parse(&be).unwrap();
        assert_eq!(parsed.endian_field, 0);
        assert_eq!(
            parsed.to_endian(Endian::Little).unwrap().write().unwrap(),
            data,
            "{name}: LE -> BE -> LE"
        );
        // The microcode is the same bytes in both (the GPU reads it little-endian either way).
        for (a, b) in f.binaries.items.iter().zip(&parsed.binaries.items) {
            assert_eq!(a.data.len(), b.data.len());
            let size_at = if a.kind == BinaryType::VERTEX { 0xd0 } else { 0xa4 };
            let ptr = u32::from_le_bytes(a.data[size_at + 4..size_at + 8].try_into().unwrap()) as usize;
            let size = u32::from_le_bytes(a.data[size_at..size_at + 4].try_into().unwrap()) as usize;
            assert_eq!(
                ptr,
                u32::from_be_bytes(b.data[size_at + 4..size_at + 8].try_into().unwrap()) as usize
            );
            assert_eq!(a.data[ptr..ptr + size], b.data[ptr..ptr + size], "{name}: microcode changed");
        }
        let info = parsed.info_text();
        assert!(info.contains(", big-endian (SHAB), endian field 0, resolved 0, "), "{info}");
    }
}

/// The program blocks (GFD block type 5 vertex, 7 pixel) of a `.gsh`, read here with the
/// block layout of the GFD documentation (a 0x20-byte file header, then `BLK{` blocks whose
/// header gives its size, the type at +0x10 and the data size at +0x14), big-endian.
fn gsh_programs(gsh: &[u8]) -> Vec<(u32, Vec<u8>)> {
    let be = |at: usize| u32::from_be_bytes(gsh[at..at + 4].try_into().unwrap()) as usize;
    assert_eq!(&gsh[..4], b"Gfx2");
    let mut at = be(4);
    let mut out = Vec::new();
    while at + 0x20 <= gsh.len() && &gsh[at..at + 4] == b"BLK{" {
        let (header, kind, size) = (be(at + 4), be(at + 0x10), be(at + 0x14));
        if kind == 5 || kind == 7 {
            out.push((kind as u32, gsh[at + header..at + header + size].to_vec()));
        }
        at += header + size;
    }
    out
}

#[test]
fn every_variation_resolves_to_binaries_the_archive_and_gshcompile_agree_on() {
    let Some(files) = files("sharcfb") else { return };
    let mut compared = 0;
    for (path, _) in &files {
        let data = std::fs::read(path).unwrap();
        let f = Sharcfb::parse(&data).unwrap();
        for p in &f.programs.items {
            let pname = p.name.text().into_owned();
            let count = p.variation_count().unwrap();
            for v in 0..count {
                let settings = f.settings(p, v);
                let r = f.resolve(&pname, &settings).unwrap();
                assert_eq!(r.variation, v);
                // Consecutive binaries from base + v * stride, of the types the kind asks for,
                // at the offsets and with the bytes the archive holds.
                let stride = if p.kind & 4 != 0 { 3 } else { 2 };
                assert_eq!(r.binaries.len() as u64, stride);
                for (k, b) in r.binaries.iter().enumerate() {
                    assert_eq!(b.index, u64::from(p.base_index) + v * stride + k as u64);
                    let bin = &f.binaries.items[b.index as usize];
                    assert_eq!(bin.kind, BinaryType(k as u32), "{pname}: binary {}", b.index);
                    assert!(b.type_matches);
                    let header = b.header_offset as usize;
                    let field = |at: usize| {
                        u32::from_le_bytes(data[header + at..header + at + 4].try_into().unwrap())
                    };
                    assert_eq!(field(4), k as u32);
                    assert_eq!(u64::from(field(12)), b.size);
                    assert_eq!(b.offset, b.header_offset + 0x10 + u64::from(field(8)));
                    assert_eq!(&data[b.offset as usize..][..b.size as usize], &bin.data[..]);
                }
                // gshCompile's own output for this program sits beside the archive.
                let gsh = path.parent().unwrap().join(&pname).join("out.gsh");
                let Ok(gsh) = std::fs::read(&gsh) else { continue };
                for (kind, program) in gsh_programs(&gsh) {
                    let b = &r.binaries[if kind == 5 { 0 } else { 1 }];
                    let bin = &data[b.offset as usize..][..b.size as usize];
                    assert!(
                        bin.windows(program.len()).any(|w| w == program.as_slice()),
                        "{pname}: the {} binary does not hold out.gsh's program",
                        b.stage
                    );
                    compared += 1;
                }
            }
        }
    }
    // mat_P, mat_player_eye, mat_player_face: a vertex and a pixel program each.
    assert_eq!(compared, 6);
}

/// What `info` says of a GX2 struct, without what depends on where it sits (absolute offsets,
/// stored pointers): the struct as GX2 loads it.
fn struct_info(g: &shaderscope::format::gx2::Shader<'_>, program: Option<&[u8]>) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.retain(|k, _| {
                    !matches!(k.as_str(), "offset" | "pointer" | "program_pointer" | "copy_program_pointer")
                });
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut info = shaderscope::format::gx2::ShaderInfo::new(g);
    info.cemu = shaderscope::format::gx2::cemu_hash(g, program);
    let mut v = serde_json::to_value(info).unwrap();
    strip(&mut v);
    v
}

/// The shaders of a GFD file: each one's struct (as [`struct_info`]) and its program's and
/// copy program's bytes.
fn gfd_shaders(bytes: &[u8]) -> Vec<(serde_json::Value, Vec<u8>, Vec<u8>)> {
    let gfd = Gfd::parse(bytes).unwrap();
    gfd.shaders
        .iter()
        .map(|s| {
            let code = |copy| gfd.program(s, copy).map_or(Vec::new(), |b| b.data.to_vec());
            let program = code(false);
            (struct_info(s.gx2().unwrap(), Some(&program)), program, code(true))
        })
        .collect()
}

#[test]
fn every_variation_extracts_as_a_gsh_with_the_archives_structs_and_microcode() {
    let Some(files) = files("sharcfb") else { return };
    let (mut extracted, mut against_gshcompile) = (0, 0);
    for (path, _) in &files {
        let data = std::fs::read(path).unwrap();
        let f = Sharcfb::parse(&data).unwrap();
        for p in &f.programs.items {
            let pname = p.name.text().into_owned();
            for v in 0..p.variation_count().unwrap() {
                let settings = f.settings(p, v);
                let (r, gsh) = f.gsh(&pname, &settings).unwrap();
                // A GFD file that reads, validates and writes back as it is…
                let gfd = Gfd::parse(&gsh).unwrap_or_else(|e| panic!("{pname} {v}: {e}"));
                assert_eq!(gfd.write().unwrap(), gsh, "{pname} {v}");
                let errors: Vec<_> =
                    gfd.validate().into_iter().filter(|x| x.severity == Severity::Error).collect();
                assert!(errors.is_empty(), "{pname} {v}: {errors:?}");
                // …holding the variation's binaries in order, each with the archive's struct
                // and microcode.
                let shaders = gfd_shaders(&gsh);
                assert_eq!(shaders.len(), r.binaries.len(), "{pname} {v}");
                for (b, (info, program, copy)) in r.binaries.iter().zip(&shaders) {
                    let bin = &f.binaries.items[b.index as usize];
                    let g = bin.gx2(f.endian).unwrap();
                    let code = |copy| bin.program(&g, copy).unwrap().map_or(Vec::new(), |(c, _)| c.to_vec());
                    assert_eq!(*info, struct_info(&g, Some(&code(false))), "{pname} {v} {}", b.stage);
                    assert_eq!((program, copy), (&code(false), &code(true)), "{pname} {v} {}", b.stage);
                    // `extract FILE binaryN.program` gives the same microcode.
                    let part = f.part(&format!("binary{}.program", b.index)).unwrap();
                    assert_eq!(*part.bytes, code(false), "{pname} {v} {}", b.stage);
                }
                extracted += 1;
                // gshCompile's own .gsh of the program (beside the archive) holds the same
                // structs and microcode, laid out its own way.
                if v == 0 {
                    let Ok(theirs) = std::fs::read(path.parent().unwrap().join(&pname).join("out.gsh"))
                    else {
                        continue;
                    };
                    assert_eq!(gfd_shaders(&theirs), shaders, "{pname}: against gshCompile's out.gsh");
                    against_gshcompile += 1;
                }
            }
        }
    }
    assert!(extracted >= files.len());
    // mat_P, mat_player_eye, mat_player_face.
    assert_eq!(against_gshcompile, 3);
}

#[test]
fn every_corpus_sharc_lists_its_programs_and_sources_and_round_trips() {
    let Some(files) = files("sharc") else { return };
    assert!(files.len() >= 4, "{} .sharc files", files.len());
    for (path, _) in &files {
        let data = std::fs::read(path).unwrap();
        let name = path.display();
        let s = Sharc::parse(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((s.version, s.endian), (11, Endian::Little), "{name}");
        assert_eq!(s.write().unwrap(), data, "{name} does not round-trip");
        assert!(s.validate().is_empty(), "{name}: {:?}", s.validate());
        assert!(!s.sources.items.is_empty() && !s.programs.items.is_empty(), "{name}");
        // Every program names sources that exist; every source is GLSL text.
        for p in &s.programs.items {
            for &i in &p.source_index {
                assert!(i == -1 || (i as usize) < s.sources.items.len(), "{name}: {}", p.name.text());
            }
        }
        for (i, src) in s.sources.items.iter().enumerate() {
            let text = src.text();
            // (Not always UTF-8: Nintendo's comments are in Shift JIS.)
            assert!(text.lines().count() > 1, "{name}: source {i} is not a text file");
            let part = s.part(&s.part_name(i)).unwrap();
            assert_eq!(part.bytes.as_ref(), src.text_bytes());
            assert_eq!(&data[part.offset as usize..][..part.bytes.len()], part.bytes.as_ref());
        }
        let info = s.info_text();
        assert!(info.starts_with("format: Wii U AGL shader source archive (SHARC)\n"), "{info}");
    }
}

/// Whatever a damaged archive gives: a clean error, or a model that writes back the same bytes.
fn check_damaged(data: &[u8], what: &str) {
    match shaderscope::parse(data) {
        Ok(file) => {
            assert_eq!(file.write().unwrap(), data, "{what}: parsed but does not write back");
            let _ = file.info_text();
            let _ = file.validate();
            let _ = file.disasm_json(&shaderscope::DisasmOptions::default());
            if let shaderscope::File::Sharcfb(f) = &file {
                for p in &f.programs.items {
                    let _ = f.resolve(&p.name.text(), &[]);
                }
            }
        }
        Err(e) => assert!(e.offset() <= data.len() as u64 + 0x1_0000_0000, "{what}: {e}"),
    }
    let mut a = shaderscope::dump::Annotations::new();
    let _ = shaderscope::annotate(data, &mut a);
}

#[test]
fn truncations_and_byte_flips_give_a_clean_error_or_the_same_bytes() {
    let Some(mut all) = files("sharcfb") else { return };
    all.extend(files("sharc").unwrap_or_default());
    for (path, _) in &all {
        let data = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        // Every cut in the header and the last tables; every 211th elsewhere.
        for cut in 0..data.len() {
            if cut < 0x300 || cut % 211 == 0 || data.len() - cut < 0x600 {
                let e = shaderscope::parse(&data[..cut]).map(|_| ()).unwrap_err();
                assert!(e.offset() <= cut as u64, "{name} cut at {cut}: {e}");
            }
        }
        let mut rng = common::Rng(0x5eed ^ data.len() as u64);
        let mut copy = data.clone();
        for n in 0..300 {
            let at = if n % 2 == 0 { rng.below(data.len()) } else { rng.below(0x200.min(data.len())) };
            let old = copy[at];
            copy[at] ^= 1 << rng.below(8);
            check_damaged(&copy, &format!("{name} flip at 0x{at:x}"));
            copy[at] = old;
        }
    }
}

#[test]
fn exact_errors_of_damaged_corpus_archives() {
    let Some(files) = files("sharcfb") else { return };
    let path: &Path =
        files.iter().find(|(p, _)| p.ends_with("obj_coin.sharcfb")).map(|(p, _)| p.as_path()).unwrap();
    let data = std::fs::read(path).unwrap();
    let e = |b: &[u8]| shaderscope::parse(b).unwrap_err().to_string();
    assert_eq!(e(&data[..0x20]), "truncated SHARCFB file at offset 0x0 (need 25307 bytes, have 32)");
    // The second binary's size made larger than the section.
    let mut v = data.clone();
    v[0x4290..0x4294].copy_from_slice(&0x10000u32.to_le_bytes());
    assert_eq!(
        e(&v),
        "shader binary 1 at offset 0x4290 points outside its range (0x4290 + 0x10000 is outside 0x4db0)"
    );
    // The program's name length past its record.
    let mut v = data.clone();
    v[0x4dbc..0x4dc0].copy_from_slice(&0x2000u32.to_le_bytes());
    assert_eq!(
        e(&v),
        "shader program 0 name at offset 0x4dc8 points outside its range (0x4dc8 + 0x2000 is outside 0x62db)"
    );
    // A symbol's default value size past its record.
    let mut v = data.clone();
    v[0x4de9 + 16..0x4de9 + 20].copy_from_slice(&0x100u32.to_le_bytes());
    assert_eq!(
        e(&v),
        "shader program 0 uniform var 0 default value at offset 0x4e17 points outside its range (0x4e17 + 0x100 is outside 0x4e28)"
    );
}

#[test]
fn every_record_of_the_archives_follows_the_schema() {
    let Some(mut all) = files("sharcfb") else { return };
    all.extend(files("sharc").unwrap_or_default());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schema/shaderscope.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::draft202012::new(&schema).unwrap();
    let check = |line: String| {
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let errors: Vec<String> =
            v.iter_errors(&value).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{errors:?}\n{line}");
    };
    for (p, _) in &all {
        let data = std::fs::read(p).unwrap();
        let file = shaderscope::parse(&data).unwrap();
        let name = p.display().to_string();
        check(file.info_record(&name).to_line());
        check(file.disasm_record(&name, &shaderscope::DisasmOptions::default()).to_line());
        for r in file.validate_records(&name, false) {
            check(r.to_line());
        }
        if let shaderscope::File::Sharcfb(f) = &file {
            for prog in &f.programs.items {
                let r = f.resolve(&prog.name.text(), &[]).unwrap();
                let record = shaderscope::json::Record::new(
                    shaderscope::json::RecordType::Variant,
                    &name,
                    Some(shaderscope::Format::Sharcfb),
                )
                .with_body(&r);
                check(record.to_line());
            }
        }
    }
    // A record with an undocumented field is refused.
    let data = std::fs::read(&all[0].0).unwrap();
    let mut value = shaderscope::parse(&data).unwrap().info_json().to_value();
    value["programs"][0]["colour"] = serde_json::Value::from(1);
    let mut record = serde_json::json!({"schema": shaderscope::json::SCHEMA_VERSION, "type": "info", "format": "sharcfb", "path": "x", "valid": true});
    for (k, x) in value.as_object().unwrap() {
        record[k] = x.clone();
    }
    assert!(!v.is_valid(&record));
}
