//! `shaderscope rewrite`: parse and re-encode.

use crate::batch::{self, Outcome};
use shaderscope::Container;

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
    batch::run_all(&o.files, |path, data| {
        let bytes = match shaderscope::parse(data).and_then(|f| f.write()) {
            Ok(b) => b,
            Err(e) => return Outcome::fail(path, e, batch::INVALID),
        };
        if let Some(out) = &o.output {
            return match std::fs::write(out, &bytes) {
                Ok(()) => Outcome::default(),
                Err(e) => Outcome::fail(out, format!("cannot write: {e}"), batch::IO),
            };
        }
        if bytes == data {
            return Outcome::default();
        }
        let first = bytes.iter().zip(data).position(|(a, b)| a != b).unwrap_or(bytes.len().min(data.len()));
        Outcome::fail(
            path,
            format!(
                "re-encoding differs from the input at offset 0x{first:x} (input {} bytes, re-encoded {} bytes)",
                data.len(),
                bytes.len()
            ),
            batch::INVALID,
        )
    })
}
