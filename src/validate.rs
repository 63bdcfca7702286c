//! `shaderscope validate`: silent on success, findings with offsets on stderr.

use crate::batch::{self, Outcome};
use shaderscope::Container;
use shaderscope::Severity;
use shaderscope::json::RecordType;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    /// Treat warnings as errors
    #[arg(long)]
    strict: bool,
    /// JSON Lines: one record per file with its findings, on stdout (schema in
    /// schema/shaderscope.schema.json)
    #[arg(long)]
    json: bool,
}

pub fn run(o: Opts) -> u8 {
    let json = o.json.then_some(RecordType::Validate);
    if let Some(t) = json {
        batch::json_records(t);
    }
    batch::run_all(&o.files, |path, data| {
        let file = match shaderscope::parse(data) {
            Ok(f) => f,
            Err(e) => return batch::failure(path, data, &e, json),
        };
        if o.json {
            let r = file.validate_record(path, o.strict);
            let status = if r.valid { batch::OK } else { batch::INVALID };
            return Outcome { stdout: r.to_line(), status, ..Default::default() };
        }
        let findings = file.validate();
        let bad = findings
            .iter()
            .any(|f| f.severity == Severity::Error || (o.strict && f.severity == Severity::Warning));
        let status = if bad { batch::INVALID } else { batch::OK };
        let mut err = String::new();
        for f in &findings {
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            err.push_str(&format!("{sev}: {path}: offset 0x{:x}: {}\n", f.offset, f.message));
        }
        Outcome { stderr: err, status, ..Default::default() }
    })
}
