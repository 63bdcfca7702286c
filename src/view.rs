//! `shaderscope view`: one standalone HTML page with the listing beside a hex view of the file,
//! linked both ways (`shaderscope::page::viewer`).

use crate::batch;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input file (`-` for stdin)
    file: String,
    /// Write the page here instead of stdout
    #[arg(short, long, value_name = "PAGE")]
    output: Option<String>,
}

pub fn run(o: Opts) -> u8 {
    let path = batch::display_name(&o.file).to_string();
    let data = match batch::read_input(&o.file, true) {
        Ok(d) => d,
        Err(r) => {
            eprintln!("error: {path}: {}", r.message);
            return r.status;
        }
    };
    let file = match shaderscope::parse(&data) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return batch::INVALID;
        }
    };
    let view = shaderscope::page::viewer(&file, &data, &path, &shaderscope::DisasmOptions::default());
    let status = match o.output {
        Some(out) => match std::fs::write(&out, view.html.as_bytes()) {
            Ok(()) => batch::OK,
            Err(e) => {
                eprintln!("error: {out}: cannot write: {e}");
                return batch::IO;
            }
        },
        None => batch::write_stdout(view.html.as_bytes()),
    };
    match view.error {
        // The page holds what was listed before the error, and says so.
        Some(e) => {
            eprintln!("error: {path}: {e}");
            status.max(batch::INVALID)
        }
        None => status,
    }
}
