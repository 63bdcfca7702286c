//! `shaderscope info`: what a file is.

use crate::batch::{self, Outcome};
use shaderscope::Container;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    /// JSON Lines: one record per file, with integer offsets
    #[arg(long)]
    json: bool,
}

pub fn run(o: Opts) -> u8 {
    let many = o.files.len() > 1;
    batch::run_all(&o.files, |path, data| match shaderscope::parse(data) {
        Err(e) => batch::parse_failure(path, &e, o.json),
        Ok(file) => {
            let mut out = if o.json {
                Outcome::out(batch::record("file", path, file.info_json()))
            } else {
                let mut s = String::new();
                if many {
                    s.push_str(&format!("== {path}\n"));
                }
                file.info_text(&mut s);
                if many {
                    s.push('\n');
                }
                Outcome::out(s)
            };
            // A damaged part: what could be read is shown, the damage reported.
            for d in file.damage() {
                out.stderr.push_str(&format!("error: {path}: {}\n", d.message));
                out.status = batch::INVALID;
            }
            out
        }
    })
}
