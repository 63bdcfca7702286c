//! `shaderscope rewrite`: parse and re-encode.

use crate::batch::{self, Settings};
use shaderscope::Container;
use shaderscope::print::count;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    /// Only compare: exit 0 if every re-encoding is byte-identical to its input
    #[arg(long)]
    check: bool,
    /// Write the re-encoded file here (one input only)
    #[arg(short, long, value_name = "OUT", conflicts_with = "check")]
    output: Option<String>,
}

pub fn run(o: Opts) -> u8 {
    if !o.check && o.output.is_none() {
        eprintln!("error: pass --check, or -o OUT to write the re-encoded file");
        return batch::IO;
    }
    if o.output.is_some() && o.files.len() != 1 {
        eprintln!("error: -o takes exactly one input");
        return batch::IO;
    }
    batch::run_each(&o.files, Settings::default(), |path, data, out| {
        let file = match shaderscope::parse(data) {
            Ok(f) => f,
            Err(e) => return out.fail(path, e, batch::INVALID),
        };
        let bytes = match file.write() {
            Ok(b) => b,
            Err(e) => return out.fail(path, e, batch::INVALID),
        };
        if let Some(to) = &o.output {
            if let Err(e) = std::fs::write(to, &bytes) {
                out.fail(to, format!("cannot write: {e}"), batch::IO);
            }
        } else if bytes != data {
            let first =
                bytes.iter().zip(data).position(|(a, b)| a != b).unwrap_or(bytes.len().min(data.len()));
            out.fail(
                path,
                format!(
                    "re-encoding differs from the input at offset 0x{first:x} (input {}, re-encoded {})",
                    count(data.len(), "byte"),
                    count(bytes.len(), "byte")
                ),
                batch::INVALID,
            );
        }
        batch::damage(path, &file, None, out);
    })
}
