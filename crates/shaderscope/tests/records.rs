//! The `--json` records written field by field (`File::write_info_record`,
//! `File::write_disasm_record`, `Bare::write_disasm_record`, which the CLI writes through) are
//! byte for byte the records the collected values serialise to: the envelope `disasm --json`
//! gives (a failure record where the listing fails, `valid: false` and the first damage's
//! error where a part is damaged) with the fields of `Container::disasm_json` spliced after it
//! by serde. Over every corpus file with several listing options, damaged copies of each, and
//! each file's bytes read as a bare program of every instruction set.

mod common;

use serde::Serialize;
use shaderscope::bare::{Bare, Isa};
use shaderscope::dxbc::Generation;
use shaderscope::json::{ErrorInfo, Record, RecordType};
use shaderscope::{Container, DisasmOptions, Format};

/// `envelope`'s line with `body`'s members after its own, spliced as text: `{…,"valid":true`
/// + `,` + the body's members + `}` (no member: the envelope alone).
fn spliced(envelope: &Record<'_>, body: &str) -> String {
    let head = envelope.to_line();
    let head = head.strip_suffix("}\n").expect("a record line ends with }");
    let members = body.strip_prefix('{').and_then(|b| b.strip_suffix('}')).expect("an object");
    if members.is_empty() { format!("{head}}}\n") } else { format!("{head},{members}}}\n") }
}

/// The `disasm` record of what `collected` gives, as it was built before records were
/// written field by field: the listing's failure, or the collected fields serialised whole.
fn collected_record<T: Serialize>(
    path: &str,
    format: Option<Format>,
    damage: Option<&shaderscope::Error>,
    collected: shaderscope::Result<T>,
) -> String {
    match collected {
        Err(e) => Record::failure(RecordType::Disasm, path, format, ErrorInfo::from_error(&e)).to_line(),
        Ok(d) => {
            let mut envelope = Record::new(RecordType::Disasm, path, format);
            if let Some(e) = damage {
                envelope.valid = false;
                envelope.error = Some(ErrorInfo::from_error(e));
            }
            spliced(&envelope, &serde_json::to_string(&d).unwrap())
        }
    }
}

/// The listing options the records are compared with: the default, fxc's switches, the
/// columns, one program and another fxc generation.
fn option_sets() -> Vec<DisasmOptions> {
    let mut sets = vec![DisasmOptions::default()];
    let mut o = DisasmOptions::default().with_file_offsets(true);
    o.hex_literals = true;
    o.numbering = true;
    sets.push(o);
    let mut o = DisasmOptions::default().with_offsets(true);
    o.raw = true;
    o.no_header = true;
    sets.push(o);
    let mut o = DisasmOptions::default().with_program(0);
    o.generation = Some(Generation::Fxc9_29);
    o.exact_floats = true;
    o.instruction_only = true;
    sets.push(o);
    sets
}

/// Where the streamed record of `file` differs from the collected one (`None`: identical).
fn difference(file: &shaderscope::File<'_>, name: &str, opts: &DisasmOptions) -> Option<String> {
    let mut streamed = Vec::new();
    let valid = file.write_disasm_record(name, opts, &mut streamed).unwrap();
    let damage = file.damage();
    let expected = collected_record(name, Some(file.format()), damage.first(), file.disasm_json(opts));
    let streamed = String::from_utf8(streamed).unwrap();
    if streamed != expected {
        let at = streamed.bytes().zip(expected.bytes()).take_while(|(a, b)| a == b).count();
        let around = |s: &str| s.get(at.saturating_sub(40)..(at + 40).min(s.len())).unwrap_or("").to_string();
        return Some(format!(
            "{name}: byte {at}: {:?} streamed, {:?} collected",
            around(&streamed),
            around(&expected)
        ));
    }
    let v: serde_json::Value = serde_json::from_str(&streamed).unwrap();
    (v["valid"].as_bool() != Some(valid))
        .then(|| format!("{name}: returned valid {valid}, record says {}", v["valid"]))
}

#[test]
fn streamed_records_are_the_collected_records_over_the_corpus() {
    let Some(corpus) = common::corpus_dir() else { return };
    let kinds = [
        "dxbc-binary",
        "d3dbc-binary",
        "dxbc-container-noshader",
        "dxil-container",
        "shbin",
        "gsh",
        "mbs",
        "sharc",
        "sharcfb",
    ];
    let sets = option_sets();
    let (mut compared, mut damaged, mut failed) = (0usize, 0usize, 0usize);
    let mut differences = Vec::new();
    for (_, path, bytes) in common::files_of(&corpus, &kinds) {
        let name = path.display().to_string();
        // The file, and damaged copies (damaged parts, listings that fail): cut in half,
        // its last quarter 0xff, every 7th word from the middle 0xffffffff.
        let half = bytes.get(..bytes.len() / 2).unwrap_or(&[]).to_vec();
        let mut ff = bytes.clone();
        ff.iter_mut().skip(bytes.len() * 3 / 4).for_each(|b| *b = 0xff);
        let mut words = bytes.clone();
        words
            .iter_mut()
            .enumerate()
            .skip(bytes.len() / 2)
            .filter(|(i, _)| i / 4 % 7 == 0)
            .for_each(|(_, b)| *b = 0xff);
        for (data, sets) in
            [(&bytes, &sets[..]), (&half, &sets[..1]), (&ff, &sets[..1]), (&words, &sets[..1])]
        {
            let Ok(file) = shaderscope::parse(data) else { continue };
            for opts in sets {
                compared += 1;
                damaged += usize::from(!file.damage().is_empty());
                failed += usize::from(file.disasm_json(opts).is_err());
                differences.extend(difference(&file, &name, opts));
            }
            // info: the summary written into the record as it is serialised.
            let mut streamed = Vec::new();
            file.write_info_record(&name, &mut streamed).unwrap();
            let envelope = Record::new(RecordType::Info, &name, Some(file.format()))
                .with_valid(file.damage().is_empty());
            let expected = spliced(&envelope, file.info_json().get());
            if String::from_utf8(streamed).unwrap() != expected {
                differences.push(format!("{name}: info record"));
            }
            assert_eq!(file.info_record(&name).to_line(), expected, "{name}");
        }
    }
    println!("{compared} records compared: {damaged} of damaged files, {failed} whose listing fails");
    let shown: Vec<&String> = differences.iter().take(10).collect();
    assert!(differences.is_empty(), "{} records differ:\n{shown:#?}", differences.len());
    assert!(compared > 5000, "only {compared} records compared");
    assert!(damaged > 100 && failed > 10, "{damaged} damaged, {failed} failed listings compared");
}

#[test]
fn streamed_bare_records_are_the_collected_records() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut compared, mut failed) = (0usize, 0usize);
    let mut differences = Vec::new();
    for format in ["dxbc", "shbin", "gx2", "mbs"] {
        // Every 16th binary: each read as every instruction set (most of them fail, early or
        // late, which is what is compared too).
        let rows = common::manifest(&corpus, format);
        for row in rows.iter().filter(|r| common::kind_format(&r.kind).is_some()).step_by(16) {
            let path = corpus.join(format).join(&row.path);
            let name = path.display().to_string();
            let bytes = std::fs::read(&path).expect("corpus file");
            let data = bytes.get(..bytes.len().min(16 << 10)).unwrap_or(&[]);
            for isa in Isa::ALL {
                let program = Bare::new(isa, data).at(0x40);
                for opts in &option_sets()[..2] {
                    let mut streamed = Vec::new();
                    program.write_disasm_record(&name, opts, &mut streamed).unwrap();
                    let collected = program.disasm_json(opts);
                    failed += usize::from(collected.is_err());
                    let expected = collected_record(&name, None, None, collected);
                    compared += 1;
                    if String::from_utf8(streamed).unwrap() != expected {
                        differences.push(format!("{name} as {isa}"));
                    }
                }
            }
        }
    }
    assert!(
        differences.is_empty(),
        "{} records differ: {:?}",
        differences.len(),
        &differences[..differences.len().min(10)]
    );
    assert!(compared > 300 && failed > 50, "{compared} compared, {failed} failed");
}

/// The record's pieces in order: the listing's text escaped as it is printed, programs with no
/// instructions, the facts after the programs; a record whose listing fails has none of them.
#[test]
fn built_files_give_the_collected_records() {
    let built: Vec<(&str, Vec<u8>)> = vec![
        ("shbin", shaderscope::shbin::build::example_vertex_shader()),
        ("mbs vertex", shaderscope::format::mbs::build::example_vertex_shader()),
        ("mbs fragment", shaderscope::format::mbs::build::example_fragment_shader()),
        // A DXBC whose SM4 program ends in a declaration with no room for its register: the
        // record lists it up to there and says it is damaged.
        ("damaged dxbc", {
            let tokens: Vec<u8> = [0x40u32, 3, 0x0100_0069].iter().flat_map(|t| t.to_le_bytes()).collect();
            shaderscope::dxbc::write::Builder::new().push(*b"SHDR", tokens).finish().unwrap()
        }),
    ];
    for (name, bytes) in &built {
        let file = shaderscope::parse(bytes).unwrap();
        for opts in option_sets() {
            assert_eq!(difference(&file, name, &opts), None);
        }
    }
    let dxbc = shaderscope::parse(&built[3].1).unwrap();
    let line = dxbc.disasm_record("d", &DisasmOptions::default()).to_line();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!((v["valid"].as_bool(), v["error"]["offset"].as_u64()), (Some(false), Some(0x38)));
    assert_eq!(v["programs"][0]["name"], "SHDR");
    assert_eq!(v["programs"][0]["instructions"], serde_json::json!([]));
}

/// A listing's text is one JSON string written in pieces as it is printed, each escaped as
/// serde_json escapes a string: control characters, quotes and backslashes of a source archive's
/// text come out as they do from the whole string.
#[test]
fn a_listing_is_escaped_piece_by_piece_as_the_whole_string() {
    use shaderscope::format::sharc::{Sharc, Source};
    let text = "a\x1b[2J\"q\" \\ \t tab\r\x7f é → \u{0} \u{1f}\nline 2 \u{2028}\n";
    let mut archive = Sharc::new("esc", shaderscope::toolkit::Endian::Big);
    archive.sources.items.push(Source::new("e.glsl", text));
    let bytes = archive.write().unwrap();
    let file = shaderscope::parse(&bytes).unwrap();
    let mut listing = shaderscope::print::TextBuf::default();
    file.disasm(&DisasmOptions::default(), &mut listing).unwrap();
    assert!(listing.as_str().contains("\x1b[2J\"q\" \\ \t tab\r\x7f é → \u{0} \u{1f}\nline 2 \u{2028}\n"));
    let mut line = Vec::new();
    assert!(file.write_disasm_record("e.sharc", &DisasmOptions::default(), &mut line).unwrap());
    let line = String::from_utf8(line).unwrap();
    let whole = serde_json::to_string(listing.as_str()).unwrap();
    assert!(line.contains(&format!(",\"listing\":{whole},\"programs\":[]}}")), "{line}");
    assert!(
        line.contains("a\\u001b[2J\\\"q\\\" \\\\ \\t tab\\r\u{7f} é → \\u0000 \\u001f\\nline 2"),
        "{line}"
    );
    assert_eq!(difference(&file, "e.sharc", &DisasmOptions::default()), None);
}
