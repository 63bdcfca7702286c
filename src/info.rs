//! `shaderscope info`: what a file is.

use crate::batch::{self, Outcome};
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
}

pub fn run(o: Opts) -> u8 {
    let many = o.files.len() > 1;
    let json = o.json.then_some(RecordType::Info);
    if let Some(t) = json {
        batch::json_records(t);
    }
    batch::run_all(&o.files, |path, data| match shaderscope::parse(data) {
        Err(e) => batch::failure(path, data, &e, json),
        Ok(file) if o.json => Outcome::out(file.info_record(path).to_line()),
        Ok(file) => {
            let mut s = String::new();
            if many {
                s.push_str(&format!("== {path}\n"));
            }
            file.info_text(&mut s);
            if many {
                s.push('\n');
            }
            Outcome::out(s)
        }
    })
}
