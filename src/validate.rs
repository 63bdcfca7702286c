//! `shaderscope validate`: silent on success, findings with offsets on stderr.

use crate::batch::{self, Outcome, Settings};
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
        let all_damage = file.damage();
        let damaged = !all_damage.is_empty();
        if o.json {
            let mut r = file.validate_record(path, o.strict);
            r.valid = r.valid && !damaged;
            let status = if r.valid { batch::OK } else { batch::INVALID };
            return out.push(Outcome { stdout: r.to_line(), status, ..Default::default() });
        }
        let findings = file.validate();
        let status = if findings.iter().any(|f| f.fails(o.strict)) { batch::INVALID } else { batch::OK };
        // A damaged part is an error finding of its own where the format does not list it.
        let listed = |e: &shaderscope::Error| {
            let reason = e.reason();
            findings.iter().any(|f| {
                f.severity == Severity::Error && f.offset == e.offset() && f.message.ends_with(&reason)
            })
        };
        let damage: Vec<_> = all_damage.into_iter().filter(|e| !listed(e)).collect();
        let mut err = String::new();
        for f in &findings {
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            err.push_str(&format!("{sev}: {path}: offset 0x{:x}: {}\n", f.offset, f.message));
        }
        out.push(Outcome { stderr: err, status, ..Default::default() });
        for e in damage {
            out.fail(path, e, batch::INVALID);
        }
        if damaged {
            out.status = out.status.max(batch::INVALID);
        }
    })
}
