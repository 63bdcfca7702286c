//! `shaderscope info`: what a file is.

use crate::batch::{self, Settings};
use shaderscope::Container;
use shaderscope::json::RecordType;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    /// JSON Lines: one record per file (schema in schema/shaderscope.schema.json), with
    /// absolute offsets
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    out: batch::OutputArg,
}

pub fn run(o: Opts) -> u8 {
    o.out.open();
    let many = o.files.len() > 1;
    let json = o.json.then_some(RecordType::Info);
    if let Some(t) = json {
        batch::json_records(t);
    }
    let settings = Settings { json: o.json, ..Settings::default() };
    batch::run_each(&o.files, settings, |path, data, out| match shaderscope::parse(data) {
        Err(e) => out.push(batch::failure(path, data, &e, json)),
        Ok(file) => {
            if o.json {
                // Written into the output as it is serialised (a damaged file's record says
                // `valid: false`; the damage is reported below).
                let written = file.write_info_record(path, out).map(|()| true);
                batch::record_written(path, written, out);
            } else {
                // A write fails only once the output is closed, which the run's status
                // already reports.
                let _ = write_text(&file, path, many, out);
            }
            batch::damage(path, &file, None, out);
        }
    })
}

/// The text summary of one file, written into the output as it is made (never held whole),
/// under a `== path` heading when the run has several files.
fn write_text(
    file: &shaderscope::File,
    path: &str,
    many: bool,
    out: &mut dyn std::fmt::Write,
) -> std::fmt::Result {
    if many {
        writeln!(out, "== {path}")?;
    }
    file.write_info_text(out)?;
    if many {
        out.write_char('\n')?;
    }
    Ok(())
}
