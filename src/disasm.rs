//! `shaderscope disasm`: the listing.

use crate::batch::{self, ColorChoice, Outcome};
use shaderscope::DisasmOptions;
use shaderscope::print::{Ansi, Html, PlainText, Printer};

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    /// Only program N (SHBIN: DVLE N, printed as complete picasso source)
    #[arg(long, visible_alias = "program", value_name = "N")]
    dvle: Option<usize>,
    /// Show each instruction's byte address
    #[arg(long)]
    offsets: bool,
    /// Show each instruction's raw encoding
    #[arg(long)]
    raw: bool,
    /// JSON Lines: the listing as data, one record per file
    #[arg(long)]
    json: bool,
    /// HTML with one span per token and the byte offset of each line
    #[arg(long, conflicts_with = "json")]
    html: bool,
    /// Colour the listing
    #[arg(long, value_enum, default_value_t)]
    color: ColorChoice,
}

pub fn run(o: Opts) -> u8 {
    let opts = DisasmOptions { program: o.dvle, offsets: o.offsets, raw: o.raw };
    let color = o.color.enabled();
    let many = o.files.len() > 1;
    batch::run_all(&o.files, |path, data| {
        let file = match shaderscope::parse(data) {
            Ok(f) => f,
            Err(e) => return batch::parse_failure(path, &e, o.json),
        };
        if o.json {
            return match file.disasm_json(&opts) {
                Ok(v) => Outcome::out(batch::record("disasm", path, v)),
                Err(e) => batch::parse_failure(path, &e, true),
            };
        }
        let mut header = String::new();
        if many && !o.html {
            header = format!("// {path}\n");
        }
        let (result, text) = if o.html {
            let mut p = Html::default();
            let r = file.disasm(&opts, &mut p);
            (r, p.out)
        } else if color {
            let mut p = Ansi::default();
            let r = print_with(&mut p, &*file, &opts);
            (r, p.out)
        } else {
            // Listings run to several times the input's size; reserve once instead of regrowing.
            header.reserve(data.len() * 8);
            let mut p = PlainText { out: header };
            header = String::new();
            let r = print_with(&mut p, &*file, &opts);
            (r, p.out)
        };
        // The header is empty unless several files are listed; avoid copying the listing then.
        let mut out = Outcome::out(if header.is_empty() { text } else { header + &text });
        if let Err(e) = result {
            out.stderr = format!("error: {path}: {e}\n");
            out.status = batch::INVALID;
        }
        out
    })
}

fn print_with(
    p: &mut dyn Printer,
    file: &dyn shaderscope::Container,
    opts: &DisasmOptions,
) -> shaderscope::Result<()> {
    file.disasm(opts, p)
}
