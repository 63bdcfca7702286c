//! `shaderscope validate`: silent on success, findings with offsets on stderr.

use crate::batch::{self, Outcome, Settings};
use shaderscope::Severity;
use shaderscope::json::RecordType;
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    /// Treat warnings as errors
    #[arg(long)]
    strict: bool,
    /// JSON Lines on stdout (schema in schema/shaderscope.schema.json): one `finding` record
    /// per finding, in the order the text lists them (valid: false when it fails the check),
    /// then one `validate` record per file with `valid` and the counts `errors` and
    /// `warnings` (a fine file gives only that record)
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    out: batch::OutputArg,
}

pub fn run(o: Opts) -> u8 {
    o.out.open();
    let json = o.json.then_some(RecordType::Validate);
    if let Some(t) = json {
        batch::json_records(t);
    }
    let settings = Settings { json: o.json, ..Settings::default() };
    batch::run_each(&o.files, settings, |path, data, out| {
        let file = match shaderscope::parse(data) {
            Ok(f) => f,
            Err(e) => return out.push(batch::failure(path, data, &e, json)),
        };
        if o.json {
            let records = file.validate_records(path, o.strict);
            let valid = records.last().is_none_or(|r| r.valid);
            let stdout: String = records.iter().map(|r| r.to_line()).collect();
            let status = if valid { batch::OK } else { batch::INVALID };
            return out.push(Outcome { stdout, status, ..Default::default() });
        }
        // The library decides what is reported (the findings, then the damage they do not
        // list), so that this text and the JSON records say the same, line for record.
        let reported = file.validation();
        let mut err = String::new();
        for r in &reported {
            let f = &r.finding;
            let _ = match (&r.damage, f.severity) {
                // A damaged part is worded as every command words it.
                (Some(e), _) => writeln!(err, "error: {path}: {e}"),
                (None, Severity::Error) => {
                    writeln!(err, "error: {path}: offset 0x{:x}: {}", f.offset, f.message)
                }
                (None, Severity::Warning) => {
                    writeln!(err, "warning: {path}: offset 0x{:x}: {}", f.offset, f.message)
                }
            };
        }
        let status =
            if reported.iter().any(|r| r.finding.fails(o.strict)) { batch::INVALID } else { batch::OK };
        out.push(Outcome { stderr: err, status, ..Default::default() });
    })
}
