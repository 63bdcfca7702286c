//! Every `--json` record the corpus gives agrees with the documented schema
//! (`schema/shaderscope.schema.json`): `info`, `disasm` and `validate` (its `finding` records
//! and the closing `validate` record) of every corpus file, and the records of a damaged copy
//! of each; and the schema refuses what it should.
//!
//! The records are built by the same library calls the CLI makes (`File::info_record`, …).

mod common;

use serde_json::Value;
use shaderscope::json::{ErrorInfo, Record, RecordType};
use shaderscope::{DisasmOptions, Format};

fn schema() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schema/shaderscope.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("schema file")).expect("schema is JSON")
}

fn validator() -> jsonschema::Validator {
    jsonschema::draft202012::new(&schema()).expect("a valid draft 2020-12 schema")
}

/// The schema's complaints about one record line (empty when it is valid).
fn problems(v: &jsonschema::Validator, line: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(line).expect("a record is one JSON object");
    v.iter_errors(&value).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

#[test]
fn schema_rejects_a_record_without_format_or_with_an_undocumented_field() {
    let v = validator();
    let bytes = shaderscope::shbin::build::example_vertex_shader();
    let file = shaderscope::parse(&bytes).unwrap();
    let line = file.info_record("v.shbin").to_line();
    assert_eq!(problems(&v, &line), Vec::<String>::new());

    let mut record: Value = serde_json::from_str(&line).unwrap();
    record.as_object_mut().unwrap().remove("format");
    assert!(!v.is_valid(&record), "a record without format passes");

    let mut record: Value = serde_json::from_str(&line).unwrap();
    record["dvlbs"][0]["dvles"][0]["colour"] = Value::from(1);
    assert!(!v.is_valid(&record), "an undocumented nested field passes");

    let mut record: Value = serde_json::from_str(&line).unwrap();
    record["schema"] = Value::from(1);
    assert!(!v.is_valid(&record), "schema version 1 passes");

    // valid: true with an error is a contradiction.
    let mut record: Value = serde_json::from_str(&line).unwrap();
    record["error"] = serde_json::json!({"message": "x", "kind": "io"});
    assert!(!v.is_valid(&record));
}

#[test]
fn error_records_follow_the_schema() {
    let v = validator();
    let io =
        Record::failure(RecordType::Info, "missing.dxbc", None, ErrorInfo::other("io", "cannot read: gone"));
    assert_eq!(problems(&v, &io.to_line()), Vec::<String>::new());
    let e = shaderscope::parse(b"DXBC\x01").unwrap_err();
    let line =
        Record::failure(RecordType::Disasm, "x", Some(Format::Dxbc), ErrorInfo::from_error(&e)).to_line();
    assert_eq!(problems(&v, &line), Vec::<String>::new());
    let value: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(value["error"]["kind"], "truncated");
    assert_eq!(value["error"]["offset"], 0);
    // An error record has no command fields.
    let mut value = value;
    value["listing"] = Value::from("");
    assert!(!v.is_valid(&value));
}

#[test]
fn every_corpus_record_follows_the_schema() {
    let Some(corpus) = common::corpus_dir() else { return };
    let v = validator();
    let kinds =
        ["dxbc-binary", "d3dbc-binary", "dxbc-container-noshader", "dxil-container", "shbin", "gsh", "mbs"];
    let mut checked = 0usize;
    let mut findings = 0usize;
    let mut failures = Vec::new();
    for (_, path, bytes) in common::files_of(&corpus, &kinds) {
        let name = path.display().to_string();
        let mut lines = Vec::new();
        match shaderscope::parse(&bytes) {
            Ok(file) => {
                lines.push(file.info_record(&name).to_line());
                lines.push(file.disasm_record(&name, &DisasmOptions::default()).to_line());
                lines.extend(file.validate_records(&name, false).iter().map(|r| r.to_line()));
            }
            Err(e) => {
                let t = RecordType::Info;
                lines.push(
                    Record::failure(t, &name, shaderscope::detect(&bytes), ErrorInfo::from_error(&e))
                        .to_line(),
                );
            }
        }
        // A copy cut in half: the record of whatever that gives.
        let half = bytes.get(..bytes.len() / 2).unwrap_or(&[]);
        match shaderscope::parse(half) {
            Ok(file) => {
                lines.push(file.disasm_record(&name, &DisasmOptions::default()).to_line());
                // A damaged file has findings: each is a record of its own.
                let records = file.validate_records(&name, true);
                findings += records.len() - 1;
                lines.extend(records.iter().map(|r| r.to_line()));
            }
            Err(e) => lines.push(
                Record::failure(
                    RecordType::Disasm,
                    &name,
                    shaderscope::detect(half),
                    ErrorInfo::from_error(&e),
                )
                .to_line(),
            ),
        }
        for line in &lines {
            checked += 1;
            let p = problems(&v, line);
            if !p.is_empty() && failures.len() < 10 {
                failures.push(format!("{name}: {}", p.join("; ")));
            }
        }
    }
    assert!(failures.is_empty(), "records that break the schema:\n{}", failures.join("\n"));
    assert!(checked > 5000, "only {checked} records checked");
    assert!(findings >= 10, "only {findings} finding records checked");
}

#[test]
fn mbs_records_follow_the_schema_and_it_refuses_an_undocumented_symbol_field() {
    let v = validator();
    for bytes in [
        shaderscope::format::mbs::build::example_vertex_shader(),
        shaderscope::format::mbs::build::example_fragment_shader(),
    ] {
        let file = shaderscope::parse(&bytes).unwrap();
        for line in [
            file.info_record("x.mbs").to_line(),
            file.disasm_record("x.mbs", &DisasmOptions::default()).to_line(),
        ]
        .into_iter()
        .chain(file.validate_records("x.mbs", false).iter().map(|r| r.to_line()))
        {
            assert_eq!(problems(&v, &line), Vec::<String>::new(), "{line}");
        }
    }
    let bytes = shaderscope::format::mbs::build::example_vertex_shader();
    let line = shaderscope::parse(&bytes).unwrap().info_record("x.mbs").to_line();
    let mut record: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(record["shader"]["tables"][0]["symbols"][2]["initial_values"][0], 1.0);
    record["shader"]["tables"][0]["symbols"][0]["colour"] = Value::from(1);
    assert!(!v.is_valid(&record), "an undocumented symbol field passes");
    let mut record: Value = serde_json::from_str(&line).unwrap();
    record["chunks"][0]["children"][0]["colour"] = Value::from(1);
    assert!(!v.is_valid(&record), "an undocumented chunk field passes");
}

#[test]
fn mgfx_records_follow_the_schema_and_it_refuses_an_undocumented_pass_field() {
    let v = validator();
    use shaderscope::format::mgfx::{Profile, build};
    // Version 10 for DirectX_11 and OpenGL, in an XNB; version 11 (DirectX_12: DXIL shaders,
    // each shader's source file and entry point); version 7 (no names).
    let in_xnb = shaderscope::format::xnb::Xnb::effect(b'd').write(&build::example_opengl(), false).unwrap();
    for bytes in [
        build::example(),
        build::example_opengl(),
        in_xnb,
        build::effect_bytes(11, Profile::DirectX12),
        build::effect_bytes(7, Profile::DirectX11),
    ] {
        let file = shaderscope::parse(&bytes).unwrap();
        for line in [
            file.info_record("x.mgfxo").to_line(),
            file.disasm_record("x.mgfxo", &DisasmOptions::default()).to_line(),
        ]
        .into_iter()
        .chain(file.validate_records("x.mgfxo", false).iter().map(|r| r.to_line()))
        {
            assert_eq!(problems(&v, &line), Vec::<String>::new(), "{line}");
        }
    }
    let bytes = build::example();
    let file = shaderscope::parse(&bytes).unwrap();
    let disasm: Value =
        serde_json::from_str(&file.disasm_record("x.mgfxo", &DisasmOptions::default()).to_line()).unwrap();
    let names: Vec<&str> =
        disasm["programs"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["shader0: SHDR", "shader1: SHDR"]);
    let line = file.info_record("x.mgfxo").to_line();
    let mut record: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(record["techniques"][0]["passes"][0]["pixel_shader"], "shader1");
    assert_eq!(record["shaders"][0]["model"], "vs_4_0");
    record["techniques"][0]["passes"][0]["colour"] = Value::from(1);
    assert!(!v.is_valid(&record), "an undocumented pass field passes");
}

/// `validate`'s records: each finding of a damaged DXBC a record of its own, and the closing
/// record with the counts; the schema refuses a finding record without its message, with an
/// undocumented field or with an error, and version 2's `findings` array.
#[test]
fn validate_records_follow_the_schema_and_it_refuses_the_old_layout() {
    let v = validator();
    // A `ps_4_0` program of 3 tokens ending in an indexable temp declaration with no register.
    let tokens: Vec<u8> = [0x40u32, 3, 0x0100_0069].iter().flat_map(|t| t.to_le_bytes()).collect();
    let bytes = shaderscope::dxbc::write::Builder::new().push(*b"SHDR", tokens).finish().unwrap();
    let file = shaderscope::parse(&bytes).unwrap();
    let lines: Vec<String> = file.validate_records("x.dxbc", false).iter().map(|r| r.to_line()).collect();
    assert!(lines.len() >= 2, "{lines:?}");
    for line in &lines {
        assert_eq!(problems(&v, line), Vec::<String>::new(), "{line}");
    }
    let finding: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!((&finding["type"], &finding["valid"]), (&Value::from("finding"), &Value::from(false)));
    let refused = |change: &dyn Fn(&mut Value), what: &str| {
        let mut r = finding.clone();
        change(&mut r);
        assert!(!v.is_valid(&r), "{what} passes: {r}");
    };
    refused(&|r| r["colour"] = Value::from(1), "an undocumented field");
    refused(&|r| _ = r.as_object_mut().unwrap().remove("message"), "a finding without its message");
    refused(&|r| r["error"] = serde_json::json!({"message": "x", "kind": "io"}), "a finding with an error");
    refused(&|r| r["severity"] = Value::from("note"), "another severity");
    let mut close: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(close["type"], "validate");
    close["findings"] = serde_json::json!([]);
    assert!(!v.is_valid(&close), "version 2's findings array passes");
    let mut close: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    close.as_object_mut().unwrap().remove("warnings");
    assert!(!v.is_valid(&close), "a closing record without its counts passes");
}

/// An fx_2_0 effect's records (the writer's sample) follow the schema, which refuses an
/// undocumented field of a pass's shader binding.
#[test]
fn fx9_records_follow_the_schema() {
    let v = validator();
    use shaderscope::format::{fx9::build, xnb};
    // Bare, as XNA Game Studio 4 content, and that LZX-compressed.
    let xna = build::xna_content(&build::example(), &[0; 8], b'w').unwrap();
    for bytes in [build::example(), xna.clone(), xnb::pack(&xna).unwrap()] {
        let file = shaderscope::parse(&bytes).unwrap();
        let info = file.info_record("x.fxo").to_line();
        for line in [info.clone(), file.disasm_record("x.fxo", &DisasmOptions::default()).to_line()]
            .into_iter()
            .chain(file.validate_records("x.fxo", false).iter().map(|r| r.to_line()))
        {
            assert_eq!(problems(&v, &line), Vec::<String>::new(), "{line}");
        }
    }
    let record: Value =
        serde_json::from_str(&shaderscope::parse(&xna).unwrap().info_record("x.xnb").to_line()).unwrap();
    assert_eq!(
        (&record["xnb"]["platform"], &record["xna_header"]["words"]),
        (&Value::from("w"), &Value::from("0000000000000000"))
    );
    let bytes = build::example();
    let file = shaderscope::parse(&bytes).unwrap();
    let info = file.info_record("x.fxo").to_line();
    let mut record: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(record["techniques"][0]["passes"][0]["shaders"][1]["shader"], "shader2");
    record["techniques"][0]["passes"][0]["shaders"][1]["colour"] = Value::from(1);
    assert!(!v.is_valid(&record), "an undocumented binding field passes");
}

#[test]
fn fx11_records_follow_the_schema_and_it_refuses_an_undocumented_pass_field() {
    let v = validator();
    for bytes in
        [shaderscope::format::fx11::build::example(), shaderscope::format::fx11::build::example_fx_4_0()]
    {
        let file = shaderscope::parse(&bytes).unwrap();
        for line in [
            file.info_record("x.fxo").to_line(),
            file.disasm_record("x.fxo", &DisasmOptions::default()).to_line(),
        ]
        .into_iter()
        .chain(file.validate_records("x.fxo", false).iter().map(|r| r.to_line()))
        {
            assert_eq!(problems(&v, &line), Vec::<String>::new(), "{line}");
        }
    }
    let bytes = shaderscope::format::fx11::build::example();
    let line = shaderscope::parse(&bytes).unwrap().info_record("x.fxo").to_line();
    let mut record: Value = serde_json::from_str(&line).unwrap();
    let pass = &mut record["groups"][0]["techniques"][0]["passes"][0];
    assert_eq!(pass["assignments"][0]["shader"], "shader0 (vs_5_0)");
    pass["colour"] = Value::from(1);
    assert!(!v.is_valid(&record), "an undocumented pass field passes");
}
