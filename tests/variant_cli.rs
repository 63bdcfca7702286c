//! `shaderscope variant` and the other commands on SHARCFB archives, through the binary:
//! exact text, exit statuses (2 for names that do not exist, with what does), JSON records.

use shaderscope::format::sharcfb::res::Variation;
use shaderscope::format::sharcfb::{Binary, BinaryType, Program, Sharcfb};
use shaderscope::toolkit::Endian;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shaderscope")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Program "water" (VS+PS, two macros of 2 and 3 values, QUALITY defaulting to "high") over
/// binaries 0..12, written to a temporary file.
fn archive(dir: &tempfile::TempDir) -> String {
    let mut a = Sharcfb::new("demo", Endian::Little);
    for k in 0..12u8 {
        // A GX2 struct with no arrays and no program (0x134 bytes for a vertex shader, 0xE8
        // for a pixel shader), its first register word telling the binaries apart. Binaries
        // start at 0x25, each after a 0x10-byte header: binary n of 2k at 0x25 + k * 0x23c.
        let (kind, size) = if k % 2 == 0 { (BinaryType::VERTEX, 0x134) } else { (BinaryType::PIXEL, 0xE8) };
        let mut data = vec![0u8; size];
        data[0] = k;
        if kind == BinaryType::VERTEX {
            // SQ_VTX_SEMANTIC_CLEAR: no semantic used, every one cleared.
            data[0x3c..0x40].copy_from_slice(&[0xff; 4]);
        }
        a.binaries.items.push(Binary::new(kind, data));
    }
    let mut p = Program::new("water", 3, 0);
    p.variations.items.push(Variation::new("REFLECT", &["0", "1"], "reflect"));
    p.variations.items.push(Variation::new("QUALITY", &["low", "mid", "high"], "quality"));
    p.defaults.items.push(Variation::new("QUALITY", &["high"], "quality"));
    a.programs.items.push(p);
    let path = dir.path().join("demo.sharcfb");
    std::fs::write(&path, a.write().unwrap()).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn variant_names_the_binaries_of_a_variation() {
    let dir = tempfile::tempdir().unwrap();
    let file = archive(&dir);
    let (code, out, err) = run(&["variant", &file, "water"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "program \"water\" (program 0), variation 2 of 6\n  \
         REFLECT=0 (value 0, first; ID reflect)\n  \
         QUALITY=high (value 2, default; ID quality)\n\
         VS: binary 4 at 0x49d, data at 0x4ad, 0x134 bytes\n\
         PS: binary 5 at 0x5e1, data at 0x5f1, 0xe8 bytes\n"
    );
    // By ID, and the last --set of a macro wins.
    let (code, out, _) = run(&[
        "variant",
        &file,
        "water",
        "--set",
        "reflect=1",
        "--set",
        "QUALITY=low",
        "--set",
        "QUALITY=mid",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("program \"water\" (program 0), variation 4 of 6\n"), "{out}");
    assert!(out.contains("VS: binary 8 at 0x915, data at 0x925, 0x134 bytes\n"), "{out}");
    let (code, out, _) = run(&["variant", &file, "water", "--set", "REFLECT=1", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["type"].as_str(), v["format"].as_str(), v["valid"].as_bool()),
        (Some("variant"), Some("sharcfb"), Some(true))
    );
    assert_eq!(v["variation"], 5);
    assert_eq!(
        v["binaries"][1],
        serde_json::json!({"stage": "pixel", "index": 11, "type": "PS", "header_offset": 0xc95, "offset": 0xca5, "size": 0xe8, "type_matches": true})
    );
}

#[test]
fn names_that_do_not_exist_are_usage_errors_that_list_what_does() {
    let dir = tempfile::tempdir().unwrap();
    let file = archive(&dir);
    let cases: [(&[&str], &str); 4] = [
        (&["variant", &file, "sky"], "no program named \"sky\" (programs: \"water\")"),
        (
            &["variant", &file, "water", "--set", "FOG=1"],
            "program \"water\" has no variation macro \"FOG\" (macros: \"REFLECT\", \"QUALITY\")",
        ),
        (
            &["variant", &file, "water", "--set", "QUALITY=ultra"],
            "macro \"QUALITY\" has no value \"ultra\" (values: \"low\", \"mid\", \"high\")",
        ),
        (&["variant", &file, "water", "--set", "REFLECT"], ""),
    ];
    for (args, message) in cases {
        let (code, out, err) = run(args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        if message.is_empty() {
            assert!(err.contains("\"REFLECT\" is not MACRO=VALUE"), "{err}");
        } else {
            assert_eq!(err, format!("error: {file}: {message}\n"));
        }
    }
    let (code, out, _) = run(&["variant", &file, "sky", "--json"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((v["valid"].as_bool(), v["error"]["kind"].as_str()), (Some(false), Some("usage")));
    // Not a SHARCFB: the command does not apply.
    let other = dir.path().join("x.shbin");
    std::fs::write(&other, b"DVLB\0\0\0\0").unwrap();
    let (code, _, _) = run(&["variant", &other.to_string_lossy(), "p"]);
    assert!(code == 1 || code == 2);
    // A broken archive (a binary past the end) is invalid input: exit 1.
    let mut a = Sharcfb::parse(&std::fs::read(&file).unwrap()).unwrap();
    a.binaries.items.truncate(3);
    let broken = dir.path().join("broken.sharcfb");
    std::fs::write(&broken, a.write().unwrap()).unwrap();
    let (code, _, err) = run(&["variant", &broken.to_string_lossy(), "water"]);
    assert_eq!(code, 1);
    // At the program's base index.
    let at = Sharcfb::parse(&std::fs::read(&broken).unwrap()).unwrap().programs.items[0].at + 12;
    assert!(
        err.ends_with(&format!(
            "invalid SHARCFB program \"water\" at offset {at:#x}: variation 2 takes binary 4 as its VS, but the archive has 3 binaries\n"
        )),
        "{err}"
    );
}

#[test]
fn every_command_reads_a_sharcfb() {
    let dir = tempfile::tempdir().unwrap();
    let file = archive(&dir);
    for cmd in [&["info"][..], &["disasm"], &["dump"], &["validate"], &["rewrite", "--check"], &["extract"]] {
        let args: Vec<&str> = cmd.iter().copied().chain([file.as_str()]).collect();
        let (code, out, err) = run(&args);
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
        assert!(out.is_empty() == matches!(cmd[0], "validate" | "rewrite"), "{args:?}: {out}");
    }
    let out_path = dir.path().join("b3.bin");
    let (code, _, _) = run(&["extract", &file, "binary3", "-o", &out_path.to_string_lossy()]);
    assert_eq!(code, 0);
    let mut want = vec![0u8; 0xE8];
    want[0] = 3;
    assert_eq!(std::fs::read(out_path).unwrap(), want);
}

#[test]
fn extract_writes_a_programs_variation_as_a_gsh() {
    let dir = tempfile::tempdir().unwrap();
    let file = archive(&dir);
    let gsh = dir.path().join("water.gsh");
    let gsh_path = gsh.to_string_lossy().into_owned();
    // REFLECT=1, QUALITY=mid: variation 1 * 3 + 1 = 4, binaries 8 and 9.
    let (code, out, err) =
        run(&["extract", &file, "water", "--set", "REFLECT=1", "--set", "quality=mid", "-o", &gsh_path]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let bytes = std::fs::read(&gsh).unwrap();
    let gfd = shaderscope::format::gfd::Gfd::parse(&bytes).unwrap();
    let firsts: Vec<_> = gfd
        .shaders
        .iter()
        .map(|s| {
            let g = s.gx2().unwrap();
            let reg = if s.kind == shaderscope::format::gx2::Kind::Vertex {
                "SQ_PGM_RESOURCES_VS"
            } else {
                "SQ_PGM_RESOURCES_PS"
            };
            (s.kind.short(), g.reg(reg))
        })
        .collect();
    assert_eq!(firsts, [("VS", Some(8)), ("PS", Some(9))]);
    // The listing names the program; --set on anything but a program, or a value the macro
    // does not have, is a usage error.
    let (code, out, _) = run(&["extract", &file]);
    assert_eq!(code, 0);
    let row = out.lines().find(|l| l.starts_with("water ")).unwrap();
    assert!(
        row.ends_with("program: its default variation as a GFD .gsh (--set MACRO=VALUE for another)"),
        "{row}"
    );
    let (code, _, err) = run(&["extract", &file, "binary0", "--set", "REFLECT=1", "-o", &gsh_path]);
    assert_eq!(code, 2);
    assert!(
        err.ends_with("--set applies to the program of a SHARCFB archive, and \"binary0\" is none\n"),
        "{err}"
    );
    let (code, _, err) = run(&["extract", &file, "water", "--set", "QUALITY=ultra", "-o", &gsh_path]);
    assert_eq!(code, 2);
    assert!(
        err.ends_with("macro \"QUALITY\" has no value \"ultra\" (values: \"low\", \"mid\", \"high\")\n"),
        "{err}"
    );
}

/// A program whose variations reach past the binaries (40 macros of two values, each
/// defaulting to its second: variation 2^40 - 1 of an archive with 2 binaries) cannot be laid
/// out: damage that every command reports, once, at the program's base index, and exits 1 on
/// (`info`, `disasm`, `dump`, `view` exited 0). `variant` and `extract FILE PROGRAM` then say
/// which binary their variation misses, at the same offset (they gave no offset).
#[test]
fn a_variation_past_the_binaries_is_an_error_at_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = Sharcfb::new("demo", Endian::Little);
    a.binaries.items.push(Binary::new(BinaryType::VERTEX, vec![0; 0x134]));
    a.binaries.items.push(Binary::new(BinaryType::PIXEL, vec![0; 0xE8]));
    let mut p = Program::new("big", 3, 0);
    for k in 0..40 {
        let name = format!("M{k}");
        p.variations.items.push(Variation::new(&name, &["0", "1"], &name));
        p.defaults.items.push(Variation::new(&name, &["1"], &name));
    }
    a.programs.items.push(p);
    let bytes = a.write().unwrap();
    let base_at = Sharcfb::parse(&bytes).unwrap().programs.items[0].at + 12;
    let path = dir.path().join("big.sharcfb");
    std::fs::write(&path, &bytes).unwrap();
    let file = path.to_string_lossy().into_owned();
    // The program cannot be laid out over the binaries: damage, which every command reports
    // in one wording at the base index, and exits 1 on.
    let damage = format!(
        "error: {file}: invalid SHARCFB program \"big\" at offset {base_at:#x}: 1099511627776 variations from base \
         index 0 need 2199023255552 binaries, the archive has 2\n"
    );
    let want = format!(
        "{damage}error: {file}: invalid SHARCFB program \"big\" at offset {base_at:#x}: variation 1099511627775 takes \
         binary 2199023255550 as its VS, but the archive has 2 binaries\n"
    );
    let gsh = dir.path().join("big.gsh").to_string_lossy().into_owned();
    for args in [&["variant", &file, "big"][..], &["extract", &file, "big", "-o", &gsh]] {
        let (code, out, err) = run(args);
        assert_eq!((code, out.as_str(), err.as_str()), (1, "", want.as_str()), "{args:?}");
    }
    let (code, out, _) = run(&["variant", &file, "big", "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["error"]["kind"].as_str(), Some("invalid"), "{out}");
    let page = dir.path().join("big.html").to_string_lossy().into_owned();
    for args in [
        &["info", &file][..],
        &["info", "--json", &file],
        &["disasm", &file],
        &["disasm", "--json", &file],
        &["dump", &file],
        &["view", &file, "-o", &page],
        &["extract", &file],
        &["validate", &file],
        &["rewrite", "--check", &file],
    ] {
        let (code, _, err) = run(args);
        assert_eq!((code, err.matches(&damage).count()), (1, 1), "{args:?}: {err}");
    }
}
