//! `shaderscope info`: what a file is.

use crate::batch::{self, Outcome, Settings};
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
    let settings = Settings { json: o.json, ..Settings::default() };
    batch::run_each(&o.files, settings, |path, data, out| match shaderscope::parse(data) {
        Err(e) => out.push(batch::parse_failure(path, &e, o.json)),
        Ok(file) => {
            if o.json {
                out.push(Outcome::out(batch::record("file", path, file.info_json())));
            } else {
                let mut s = String::new();
                if many {
                    s.push_str(&format!("== {path}\n"));
                }
                file.info_text(&mut s);
                if many {
                    s.push('\n');
                }
                out.push(Outcome::out(s));
            }
            batch::damage(path, &file, None, out);
        }
    })
}
