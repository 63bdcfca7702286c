//! `shaderscope extract`: list or pull out embedded parts.

use crate::batch::{self, Outcome};
use shaderscope::Container;
use std::io::IsTerminal;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input file (`-` for stdin)
    file: String,
    /// The part to extract; without it, the parts are listed
    part: Option<String>,
    /// Write the part here instead of stdout
    #[arg(short, long, value_name = "OUT")]
    output: Option<String>,
}

pub fn run(o: Opts) -> u8 {
    let path = batch::display_name(&o.file).to_string();
    let data = match batch::read_input(&o.file) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {path}: cannot read: {e}");
            return batch::IO;
        }
    };
    let file = match shaderscope::parse(&data) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return batch::INVALID;
        }
    };
    let Some(name) = o.part else {
        let mut s = String::from("part                 offset      size  description\n");
        for p in file.parts() {
            s.push_str(&format!("{:<18} {:>#9x} {:>9}  {}\n", p.name, p.offset, p.size(), p.description));
        }
        return batch::write_stdout(s.as_bytes());
    };
    let bytes = match file.part(&name) {
        Ok(p) => p.bytes,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return batch::IO;
        }
    };
    match o.output {
        Some(out) => match std::fs::write(&out, &bytes) {
            Ok(()) => batch::OK,
            Err(e) => {
                eprintln!("error: {out}: cannot write: {e}");
                batch::IO
            }
        },
        None if std::io::stdout().is_terminal() => {
            let o =
                Outcome::fail(&path, "refusing to write binary output to a terminal; use -o FILE", batch::IO);
            eprint!("{}", o.stderr);
            o.status
        }
        None => batch::write_stdout(&bytes),
    }
}
