//! The `--json` records the command writes: one envelope for every command, instruction
//! records for every instruction set, a record for inputs that cannot be read or parsed, and
//! every record agreeing with `schema/shaderscope.schema.json`.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_shaderscope")
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name).display().to_string()
}

/// Exit status and the records on stdout.
fn records(args: &[&str]) -> (i32, Vec<Value>) {
    let out = Command::new(bin()).args(args).output().expect("run shaderscope");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let v = text.lines().map(|l| serde_json::from_str(l).expect("one JSON object a line")).collect();
    (out.status.code().unwrap_or(-1), v)
}

fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/shaderscope.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft202012::new(&schema).expect("a valid schema")
}

fn assert_valid(v: &jsonschema::Validator, records: &[Value]) {
    for r in records {
        let errors: Vec<String> = v.iter_errors(r).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{r}\n{}", errors.join("\n"));
    }
}

#[test]
fn every_command_writes_the_same_envelope() {
    let v = validator();
    let files =
        [sample("ps_color.dxbc"), sample("vshader.shbin"), sample("vshader.csdr"), sample("vertex.mbs")];
    for command in ["info", "disasm", "validate"] {
        let mut args = vec![command, "--json"];
        args.extend(files.iter().map(String::as_str));
        let (code, recs) = records(&args);
        assert_eq!(code, 0, "{command}");
        assert_eq!(recs.len(), 4, "{command}");
        assert_valid(&v, &recs);
        for (r, (file, format)) in recs.iter().zip(files.iter().zip(["dxbc", "shbin", "csdr", "mbs"])) {
            assert_eq!(
                (&r["schema"], r["type"].as_str(), r["format"].as_str(), r["path"].as_str(), &r["valid"]),
                (&Value::from(3), Some(command), Some(format), Some(file.as_str()), &Value::from(true))
            );
            if command == "validate" {
                // A fine file gives only its closing record, with nothing counted.
                assert_eq!((&r["errors"], &r["warnings"]), (&Value::from(0), &Value::from(0)), "{file}");
            }
        }
    }
    let (code, recs) = records(&["scan", "--json", &sample("")]);
    assert_eq!(code, 0);
    assert_valid(&v, &recs);
    let last = recs.last().unwrap();
    assert_eq!(
        (last["type"].as_str(), last["shaders"].as_u64(), &last["format"]),
        (Some("scan-summary"), Some(22), &Value::Null)
    );
}

#[test]
fn disasm_records_carry_instruction_records_with_file_offsets() {
    let (_, recs) = records(&["disasm", "--json", &sample("ps_color.dxbc"), &sample("vshader.shbin")]);
    let dxbc = &recs[0]["programs"][0];
    assert_eq!(
        (dxbc["isa"].as_str(), dxbc["model"].as_str(), dxbc["offset"].as_u64()),
        (Some("sm4"), Some("ps_4_0"), Some(0x98))
    );
    let mov = &dxbc["instructions"][2];
    assert_eq!(
        mov,
        &serde_json::json!({"offset": 0xb8, "words": [0x0500_0036, 0x0010_20f2, 0, 0x0010_1e46, 0],
                            "mnemonic": "mov", "operands": ["o0.xyzw", "v0.xyzw"], "text": "mov o0.xyzw, v0.xyzw"})
    );
    assert_eq!(recs[0]["fxc"], serde_json::json!({"generation": "10", "source": "default"}));
    assert!(recs[0]["listing"].as_str().unwrap().contains("\nmov o0.xyzw, v0.xyzw\n"));
    let pica = &recs[1]["programs"][0];
    assert_eq!(
        (pica["isa"].as_str(), pica["stage"].as_str(), pica["dvle_offset"].as_u64()),
        (Some("pica"), Some("vertex"), Some(0x8c))
    );
    assert_eq!(
        pica["instructions"][0],
        serde_json::json!({"offset": 0x34, "words": [0x4e00_0000], "mnemonic": "mov", "operands": ["r0.xyz", "inpos"], "text": "mov r0.xyz, inpos"})
    );
}

#[test]
fn inputs_that_cannot_be_read_or_parsed_still_give_a_record() {
    let v = validator();
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    let cut = dir.path().join("cut.dxbc");
    std::fs::write(&cut, &std::fs::read(sample("ps_color.dxbc")).unwrap()[..40]).unwrap();
    let missing = dir.path().join("missing.dxbc");
    let (empty, cut, missing) =
        (empty.display().to_string(), cut.display().to_string(), missing.display().to_string());
    for command in ["info", "disasm", "validate"] {
        let (code, recs) = records(&[command, "--json", &empty, &cut, &missing, &sample("vshader.shbin")]);
        assert_eq!(code, 2, "{command}: a missing file is an I/O error");
        assert_valid(&v, &recs);
        let errors: Vec<(&str, &Value, &Value)> = recs
            .iter()
            .take(3)
            .map(|r| (r["error"]["kind"].as_str().unwrap_or(""), &r["error"]["offset"], &r["format"]))
            .collect();
        assert_eq!(
            errors,
            [
                ("invalid", &Value::from(0), &Value::Null),
                ("truncated", &Value::from(0), &Value::from("dxbc")),
                ("io", &Value::Null, &Value::Null),
            ],
            "{command}"
        );
        assert!(recs.iter().take(3).all(|r| r["valid"] == false && r["type"] == command));
        assert_eq!(
            recs[1]["error"]["message"],
            "truncated DXBC container at offset 0x0 (need 208 bytes, have 40)"
        );
        assert_eq!(recs[3]["valid"], true);
    }
}

/// `dump --json` and bare-program `disasm --format … --json` records follow the same schema:
/// intact files, a file cut short (rows up to the failure, the error listed, `valid: false`),
/// and a bare SM4 program whose record names no container format.
#[test]
fn dump_and_bare_program_records_follow_the_schema() {
    let v = validator();
    for (file, format) in [("ps_color.dxbc", "dxbc"), ("vshader.shbin", "shbin"), ("vshader.csdr", "csdr")] {
        let (code, recs) = records(&["dump", "--json", &sample(file)]);
        assert_eq!(code, 0, "{file}");
        assert_valid(&v, &recs);
        let r = &recs[0];
        assert_eq!(
            (r["type"].as_str(), r["format"].as_str(), &r["valid"]),
            (Some("dump"), Some(format), &Value::from(true))
        );
        // Every byte is in exactly one field, note-free row or unclaimed row, in order.
        let mut next = 0;
        for row in r["rows"].as_array().unwrap() {
            if matches!(row["kind"].as_str(), Some("field" | "unclaimed")) {
                assert_eq!(row["offset"].as_u64(), Some(next), "{file}: {row}");
                next += row["length"].as_u64().unwrap();
            }
        }
        assert_eq!(Some(next), r["size"].as_u64(), "{file}");
    }
    let data = std::fs::read(sample("ps_color.dxbc")).unwrap();
    let cut = std::env::temp_dir().join(format!("shaderscope-json-cut-{}.dxbc", std::process::id()));
    std::fs::write(&cut, &data[..100]).unwrap();
    let (code, recs) = records(&["dump", "--json", cut.to_str().unwrap()]);
    let _ = std::fs::remove_file(&cut);
    assert_eq!(code, 1);
    assert_valid(&v, &recs);
    assert_eq!(recs[0]["valid"], Value::from(false));
    assert!(!recs[0]["errors"].as_array().unwrap().is_empty());

    let (code, recs) =
        records(&["disasm", "--format", "sm4", "--json", "--start", "0x98", &sample("ps_color.dxbc")]);
    assert_eq!(code, 0);
    assert_valid(&v, &recs);
    assert_eq!((recs[0]["format"].is_null(), recs[0]["programs"][0]["isa"].as_str()), (true, Some("sm4")));
}

/// A DXBC whose signature does not read, or whose instruction stream is cut short, still gives
/// its listing and the instructions before the damage in `disasm --json`, with `valid: false`
/// and the damage as the record's error; every command exits 1 on both files.
#[test]
fn a_damaged_dxbc_gives_a_partial_disasm_record() {
    let v = validator();
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read(sample("ps_color.dxbc")).unwrap();
    // The ISGN element's name offset points past the chunk.
    let mut bad_signature = good.clone();
    bad_signature[0x3c..0x40].copy_from_slice(&0x400u32.to_le_bytes());
    // `mov o0.xyzw, v0.xyzw` (5 tokens at 0xb8) says it is 3 tokens long: it is read as `mov
    // o0.xyzw`, and its source operand's first token then reads as an instruction of length 0.
    let mut cut = good.clone();
    let token = u32::from_le_bytes(cut[0xb8..0xbc].try_into().unwrap());
    cut[0xb8..0xbc].copy_from_slice(&((token & !(0x7f << 24)) | (3 << 24)).to_le_bytes());
    let cases = [
        (
            bad_signature,
            "signature element name at offset 0x3c points outside its range (0x434 + 0x1 is outside 0x5c)",
            0x3c,
            4,
        ),
        (
            cut,
            "invalid SM4 instruction length at offset 0xc4: opcode 1606 says 0 DWORDs, fewer than its own header",
            0xc4,
            3,
        ),
    ];
    for (bytes, message, offset, instructions) in cases {
        let path = dir.path().join("damaged.dxbc");
        std::fs::write(&path, &bytes).unwrap();
        let path = path.display().to_string();
        let (code, recs) = records(&["disasm", "--json", &path]);
        assert_eq!(code, 1, "{message}");
        assert_valid(&v, &recs);
        let r = &recs[0];
        assert_eq!(
            (&r["valid"], &r["error"]["message"], &r["error"]["offset"]),
            (&Value::from(false), &Value::from(message), &Value::from(offset))
        );
        assert!(
            r["listing"]
                .as_str()
                .unwrap()
                .contains("ps_4_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\n")
        );
        let program = &r["programs"][0];
        assert_eq!(program["name"], "SHDR");
        assert_eq!(program["instructions"].as_array().unwrap().len(), instructions, "{message}");
        for command in [
            &["info"][..],
            &["info", "--json"],
            &["disasm"],
            &["dump"],
            &["validate"],
            &["extract"],
            &["rewrite", "--check"],
        ] {
            let args: Vec<&str> = command.iter().copied().chain([path.as_str()]).collect();
            let out = Command::new(bin()).args(&args).output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{args:?} {message}");
            let err = String::from_utf8_lossy(&out.stderr);
            // Every command, validate too, says the damage in the same words.
            assert!(err.contains(message), "{args:?}: {err}");
        }
    }
}

/// Runs `args`: exit status, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin()).args(args).output().expect("run shaderscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

/// Files to validate, made from the DXBC sample: a damaged one whose program findings word
/// the damage as the damage words itself (its `ret` at 0xcc made an indexable temp
/// declaration with no room for its register; its checksum no longer matches), one whose
/// damage the container's findings word (a signature name pointing past its chunk), one with
/// two warnings and no error (the signature chunks repeated), and the sample itself.
fn validate_inputs(dir: &Path) -> Vec<String> {
    let good = std::fs::read(sample("ps_color.dxbc")).unwrap();
    let mut unworded = good.clone();
    unworded[0xcc..0xd0].copy_from_slice(&0x0100_0069u32.to_le_bytes());
    let mut worded = good.clone();
    worded[0x3c..0x40].copy_from_slice(&0x400u32.to_le_bytes());
    let d = shaderscope::format::dxbc::Dxbc::parse(&good).unwrap();
    let mut b = shaderscope::format::dxbc::write::Builder::new();
    for c in d.chunks() {
        b.push(c.fourcc.0, c.data.to_vec());
    }
    for c in d.chunks().iter().filter(|c| c.fourcc.0 != *b"SHDR") {
        b.push(c.fourcc.0, c.data.to_vec());
    }
    let warned = b.finish().unwrap();
    let mut paths = Vec::new();
    for (name, bytes) in
        [("unworded.dxbc", unworded), ("worded.dxbc", worded), ("warned.dxbc", warned), ("good.dxbc", good)]
    {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        paths.push(p.display().to_string());
    }
    paths
}

/// `validate --json` gives one `finding` record per line the text output prints, in the same
/// order, with the same offset and message, then one closing `validate` record whose counts
/// and `valid` agree with them; `--strict` makes warnings fail in both; the exit status is the
/// same in both modes; every record follows the schema.
#[test]
fn validate_json_gives_one_record_per_finding_in_the_text_order() {
    let v = validator();
    let dir = tempfile::tempdir().unwrap();
    let paths = validate_inputs(dir.path());
    let mut counted = [0usize; 2];
    for strict in [false, true] {
        let flags: &[&str] = if strict { &["--strict"] } else { &[] };
        let mut all = Vec::new();
        for path in &paths {
            let args: Vec<&str> = ["validate"].iter().chain(flags).copied().chain([path.as_str()]).collect();
            let (text_code, _, text) = run(&args);
            let args: Vec<&str> =
                ["validate", "--json"].iter().chain(flags).copied().chain([path.as_str()]).collect();
            let (code, recs) = records(&args);
            assert_eq!(code, text_code, "{args:?}");
            assert_valid(&v, &recs);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(recs.len(), lines.len() + 1, "{args:?}: {text}");
            let (findings, close) = recs.split_at(lines.len());
            for (line, r) in lines.iter().zip(findings) {
                assert_eq!(
                    (r["type"].as_str(), r["format"].as_str(), r["path"].as_str()),
                    (Some("finding"), Some("dxbc"), Some(path.as_str()))
                );
                let (severity, offset, message) = (
                    r["severity"].as_str().unwrap(),
                    r["offset"].as_u64().unwrap(),
                    r["message"].as_str().unwrap(),
                );
                let as_finding = format!("{severity}: {path}: offset {offset:#x}: {message}");
                // A damaged part is printed as every command prints it: the offset inside.
                let as_damage = line.replacen(&format!(" at offset {offset:#x}"), "", 1);
                assert!(
                    *line == as_finding
                        || (severity == "error" && as_damage == format!("error: {path}: {message}")),
                    "{line}\n{r}"
                );
                let fails = severity == "error" || strict;
                assert_eq!(r["valid"], !fails, "{r}");
            }
            let close = &close[0];
            let count = |s: &str| findings.iter().filter(|r| r["severity"] == s).count();
            assert_eq!(
                (
                    close["type"].as_str(),
                    close["path"].as_str(),
                    close["errors"].as_u64(),
                    close["warnings"].as_u64()
                ),
                (
                    Some("validate"),
                    Some(path.as_str()),
                    Some(count("error") as u64),
                    Some(count("warning") as u64)
                )
            );
            assert_eq!(close["valid"], findings.iter().all(|r| r["valid"] == true), "{close}");
            assert_eq!(close["valid"], code == 0, "{close}");
            counted[0] += count("error");
            counted[1] += count("warning");
            all.extend(recs);
        }
        // All files at once: the same records, file after file.
        let args: Vec<&str> = ["validate", "--json"]
            .iter()
            .chain(flags)
            .copied()
            .chain(paths.iter().map(String::as_str))
            .collect();
        let (code, together) = records(&args);
        assert_eq!((code, &together), (1, &all));
    }
    assert!(counted[0] >= 2 * 4 && counted[1] >= 2 * 2, "{counted:?}");
}

/// The damage `disasm` reports of a DXBC whose program does not decode to its end is one
/// error `finding` record of `validate --json` (the message without its offset), and it makes
/// the file invalid; the repeated chunks are warnings that fail the check only with
/// `--strict`.
#[test]
fn damage_is_a_finding_record_and_strict_fails_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let paths = validate_inputs(dir.path());
    for path in &paths[..2] {
        let (code, recs) = records(&["disasm", "--json", path]);
        assert_eq!(code, 1);
        let error = &recs[0]["error"];
        let offset = error["offset"].as_u64().unwrap();
        let message = error["message"].as_str().unwrap().replacen(&format!(" at offset {offset:#x}"), "", 1);
        let (code, recs) = records(&["validate", "--json", path]);
        assert_eq!(code, 1);
        let damage = recs
            .iter()
            .find(|r| r["offset"] == offset && r["message"].as_str().is_some_and(|m| m.ends_with(&message)));
        let damage = damage.unwrap_or_else(|| panic!("{path}: no finding for {error}: {recs:?}"));
        assert_eq!(
            (&damage["type"], &damage["severity"], &damage["valid"]),
            (&Value::from("finding"), &Value::from("error"), &Value::from(false))
        );
        assert_eq!(recs.last().unwrap()["valid"], false);
    }
    // `scan` calls a file invalid exactly when `validate` (without --strict) does.
    let (_, found) = records(&["scan", "--json", dir.path().to_str().unwrap()]);
    let found: Vec<&Value> = found.iter().filter(|r| r["type"] == "scan").collect();
    assert_eq!(found.len(), paths.len());
    for r in found {
        let (_, recs) = records(&["validate", "--json", r["path"].as_str().unwrap()]);
        assert_eq!(r["valid"], recs.last().unwrap()["valid"], "{r}");
    }
    // The damage is said once, in the text as every command prints it.
    let (_, _, text) = run(&["validate", &paths[0]]);
    let (_, _, disasm) = run(&["disasm", &paths[0]]);
    assert!(text.ends_with(&disasm), "{text}\n{disasm}");
    assert_eq!(text.matches("at offset 0xd0").count(), 1, "{text}");
    let warned = paths[2].as_str();
    for (strict, code, valid) in [(false, 0, true), (true, 1, false)] {
        let args: Vec<&str> = if strict {
            vec!["validate", "--json", "--strict", warned]
        } else {
            vec!["validate", "--json", warned]
        };
        let (got, recs) = records(&args);
        assert_eq!(got, code, "{args:?}");
        let (close, findings) = recs.split_last().unwrap();
        assert!(
            !findings.is_empty()
                && findings.iter().all(|r| r["severity"] == "warning" && r["valid"] == valid),
            "{recs:?}"
        );
        assert_eq!(
            (&close["valid"], close["errors"].as_u64(), close["warnings"].as_u64()),
            (&Value::from(valid), Some(0), Some(findings.len() as u64))
        );
    }
}

/// The README's `validate` example is real output: the sample with its `ret` token made an
/// indexable temp declaration, its checksum fixed, validated as text and as JSON.
#[test]
fn the_readme_validate_example_is_real_output() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let shown = |start: &str| -> String {
        readme
            .lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with(start) && l.contains("bad.dxbc"))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(sample("ps_color.dxbc")).unwrap();
    bytes[0xcc..0xd0].copy_from_slice(&0x0100_0069u32.to_le_bytes());
    std::fs::write(dir.path().join("patched.dxbc"), bytes).unwrap();
    let fixed = Command::new(bin())
        .current_dir(dir.path())
        .args(["checksum", "--fix", "-o", "bad.dxbc", "patched.dxbc"])
        .output()
        .unwrap();
    // It writes the file, and exits 1 on the damage.
    assert_eq!(fixed.status.code(), Some(1));
    assert!(dir.path().join("bad.dxbc").exists());
    let run_here = |args: &[&str]| {
        let out = Command::new(bin()).current_dir(dir.path()).args(args).output().unwrap();
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let (_, text) = run_here(&["validate", "bad.dxbc"]);
    assert_eq!(text, shown("error: bad.dxbc: "));
    let (json, _) = run_here(&["validate", "--json", "bad.dxbc"]);
    assert_eq!(json, shown(r#"{"schema":3,"type":"#));
    assert_eq!(json.lines().count(), 2);
}
