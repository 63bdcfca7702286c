//! `shaderscope scan`: find and summarise every shader binary under a folder.
//!
//! Each file is recognised from its first bytes ([`shaderscope::detect::HEAD`]); only the
//! shader binaries this build reads are read whole. A file that is recognised but fails to
//! parse is reported and makes the scan exit 1.

use crate::batch::{self, Outcome, Settings};
use shaderscope::Container;
use shaderscope::json::{ErrorInfo, Record, RecordType};
use std::collections::BTreeMap;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Folder to walk
    dir: String,
    /// JSON Lines: one record per shader file, then a summary record (schema in
    /// schema/shaderscope.schema.json)
    #[arg(long)]
    json: bool,
    /// Also list files that are not shader binaries
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    out: batch::OutputArg,
}

/// Per format: files seen, files read without error.
type Counts = BTreeMap<&'static str, (u64, u64)>;

pub fn run(o: Opts) -> u8 {
    o.out.open();
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&o.dir).sort_by_file_name() {
        match entry {
            Ok(e) if e.file_type().is_file() => files.push(e.path().display().to_string()),
            Ok(_) => {}
            Err(e) => {
                eprintln!("error: {}: {e}", o.dir);
                return batch::IO;
            }
        }
    }
    let counts = std::sync::Mutex::new(Counts::new());
    let settings = Settings { json: o.json, heads: true, ..Settings::default() };
    let status = batch::run_all(&files, settings, |path, data| {
        let Some(format) = shaderscope::detect(data) else {
            return if o.all && !o.json {
                Outcome::out(format!("{path}\t-\tnot a shader binary\n"))
            } else {
                Outcome::default()
            };
        };
        // Recognised but not supported yet: listed, not a failure (only its first bytes were read).
        let (summary, ok, status, error) = if !format.supported() {
            let text = "recognised, not supported yet".to_string();
            let error = ErrorInfo::other("unsupported", text.clone());
            (text, false, batch::OK, Some(error))
        } else {
            match shaderscope::parse(data) {
                Ok(f) => match f.damage() {
                    d if d.is_empty() => (one_line(&f.info_json()), true, batch::OK, None),
                    d => (
                        d.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "),
                        false,
                        batch::INVALID,
                        d.first().map(ErrorInfo::from_error),
                    ),
                },
                Err(e) => (e.to_string(), false, batch::INVALID, Some(ErrorInfo::from_error(&e))),
            }
        };
        if let Ok(mut c) = counts.lock() {
            let slot = c.entry(format.name()).or_default();
            slot.0 += 1;
            slot.1 += u64::from(ok);
        }
        let text = if o.json {
            let body = serde_json::json!({"size": data.len(), "summary": summary});
            let r = match error {
                None => Record::new(RecordType::Scan, path, Some(format)),
                Some(e) => Record::failure(RecordType::Scan, path, Some(format), e),
            };
            r.with_body(body).to_line()
        } else {
            format!("{path}\t{}\t{}\n", format.name(), summary)
        };
        Outcome { stdout: text, status, ..Default::default() }
    });
    let counts = counts.into_inner().unwrap_or_default();
    let total: u64 = counts.values().map(|c| c.0).sum();
    let out = if o.json {
        let by: serde_json::Map<String, serde_json::Value> = counts
            .iter()
            .map(|(k, (n, ok))| (k.to_string(), serde_json::json!({"files": n, "parsed": ok})))
            .collect();
        let parsed: u64 = counts.values().map(|c| c.1).sum();
        Record::new(RecordType::ScanSummary, &o.dir, None)
            .with_body(serde_json::json!({"files": files.len(), "shaders": total, "formats": by}))
            .with_valid(parsed == total)
            .to_line()
    } else {
        let mut s = format!(
            "{total} shader {} in {} {}",
            plural(total, "binary", "binaries"),
            files.len(),
            plural(files.len() as u64, "file", "files")
        );
        for (k, (n, ok)) in &counts {
            s.push_str(&format!("; {k}: {n} ({ok} parsed)"));
        }
        s.push('\n');
        s
    };
    status.max(batch::write_out(out.as_bytes()))
}

fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// A short summary of an `info --json` value: its `summary` field when the format gives one.
fn one_line(v: &serde_json::Value) -> String {
    match v.get("summary").and_then(|s| s.as_str()) {
        Some(s) => s.to_string(),
        None => v.get("format").and_then(|s| s.as_str()).unwrap_or("").to_string(),
    }
}
