//! `shaderscope scan`: find and summarise every shader binary under a folder.

use crate::batch::{self, Outcome};
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
}

pub fn run(o: Opts) -> u8 {
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
    let counts = std::sync::Mutex::new(BTreeMap::<String, (u64, u64)>::new());
    let status = batch::run_all(&files, |path, data| {
        let Some(format) = shaderscope::detect(data) else {
            return if o.all && !o.json {
                Outcome::out(format!("{path}\t-\tnot a shader binary\n"))
            } else {
                Outcome::default()
            };
        };
        let (summary, error) = match shaderscope::parse(data) {
            Ok(f) => {
                let v = f.info_json();
                (one_line(&v), None)
            }
            Err(e) => (e.to_string(), Some(e)),
        };
        let ok = error.is_none();
        if let Ok(mut c) = counts.lock() {
            let slot = c.entry(format.name().to_string()).or_default();
            slot.0 += 1;
            slot.1 += u64::from(ok);
        }
        let text = if o.json {
            let body = serde_json::json!({"size": data.len(), "summary": summary});
            let r = match &error {
                None => Record::new(RecordType::Scan, path, Some(format)),
                Some(e) => Record::failure(RecordType::Scan, path, Some(format), ErrorInfo::from_error(e)),
            };
            r.with_body(body).to_line()
        } else {
            format!("{path}\t{}\t{}\n", format.name(), summary)
        };
        // Files that fail to parse are reported, not failures of the scan.
        Outcome::out(text)
    });
    let counts = counts.into_inner().unwrap_or_default();
    let total: u64 = counts.values().map(|c| c.0).sum();
    let out = if o.json {
        let by: serde_json::Map<String, serde_json::Value> = counts
            .iter()
            .map(|(k, (n, ok))| (k.clone(), serde_json::json!({"files": n, "parsed": ok})))
            .collect();
        let parsed: u64 = counts.values().map(|c| c.1).sum();
        Record::new(RecordType::ScanSummary, &o.dir, None)
            .with_body(serde_json::json!({"files": files.len(), "shaders": total, "formats": by}))
            .with_valid(parsed == total)
            .to_line()
    } else {
        let mut s = format!("{total} shader binaries in {} files", files.len());
        for (k, (n, ok)) in &counts {
            s.push_str(&format!("; {k}: {n} ({ok} parsed)"));
        }
        s.push('\n');
        s
    };
    status.max(batch::write_stdout(out.as_bytes()))
}

/// A short summary of an `info --json` value: its `summary` field when the format gives one.
fn one_line(v: &serde_json::Value) -> String {
    match v.get("summary").and_then(|s| s.as_str()) {
        Some(s) => s.to_string(),
        None => v.get("format").and_then(|s| s.as_str()).unwrap_or("").to_string(),
    }
}
