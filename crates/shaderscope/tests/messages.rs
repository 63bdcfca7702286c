//! What shaderscope says in its own words (info text, dump rows, findings, errors) agrees in
//! number: never `1 bytes`, `1 words`, `1 entries` over the whole corpus and a cut copy of
//! every file. (Listings are the reference tools' exact text and are not checked here.)

mod common;

use shaderscope::Container;
use shaderscope::dump::Annotations;

/// Plural nouns the tool counts things in.
const PLURALS: &[&str] = &[
    "bytes",
    "words",
    "tokens",
    "entries",
    "instructions",
    "DWORDs",
    "dwords",
    "registers",
    "slots",
    "parameters",
    "members",
    "rows",
    "elements",
    "records",
    "constants",
    "descriptors",
    "numbers",
    "relocations",
    "samplers",
    "instances",
    "types",
    "DVLEs",
    "DVLBs",
    "chunks",
    "files",
    "mappings",
    "symbols",
    "uniforms",
    "varyings",
    "attributes",
    "programs",
    "binaries",
    "shaders",
    "blocks",
    "variations",
    "patches",
    "macros",
    "values",
    "sources",
];

/// Each `1 <plural>` in `text`.
fn disagreements(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for w in words.windows(2) {
            let number = w[0].trim_start_matches(['(', '[', ',']);
            let noun = w[1].trim_end_matches([',', ')', ';', ':', '.', ']']);
            if number == "1" && PLURALS.contains(&noun) {
                found.push(line.to_string());
            }
        }
    }
    found
}

#[test]
fn counts_agree_with_their_nouns_over_the_corpus() {
    let Some(corpus) = common::corpus_dir() else { return };
    let kinds = [
        "dxbc-binary",
        "d3dbc-binary",
        "dxbc-container-noshader",
        "dxil-container",
        "shbin",
        "gsh",
        "sharcfb",
        "sharc",
        "mbs",
    ];
    let mut found = Vec::new();
    let mut files = 0;
    for (row, _, bytes) in common::files_of(&corpus, &kinds) {
        files += 1;
        for data in [&bytes[..], &bytes[..bytes.len() / 2]] {
            let mut text = String::new();
            match shaderscope::parse(data) {
                Ok(file) => {
                    text.push_str(&file.info_text());
                    for f in file.validate() {
                        text.push_str(&f.message);
                        text.push('\n');
                    }
                    for e in file.damage() {
                        text.push_str(&e.to_string());
                        text.push('\n');
                    }
                }
                Err(e) => text.push_str(&e.to_string()),
            }
            let mut notes = Annotations::new();
            if shaderscope::annotate(data, &mut notes).is_ok() {
                notes.render(data, &mut text).unwrap();
            }
            found.extend(disagreements(&text).into_iter().map(|l| format!("{}: {l}", row.path)));
        }
    }
    assert!(files > 1000, "only {files} files");
    // One line of each kind (numbers and offsets left out) is enough to see what to fix.
    let mut kinds = std::collections::BTreeSet::new();
    found.retain(|l| {
        kinds.insert(l.split(": ").last().unwrap_or("").replace(|c: char| c.is_ascii_hexdigit(), ""))
    });
    found.truncate(20);
    assert!(found.is_empty(), "counts that disagree with their nouns:\n{}", found.join("\n"));
}
