//! `shaderscope disasm`: the listing.

use crate::batch::{self, ColorChoice, Outcome};
use shaderscope::DisasmOptions;
use shaderscope::print::{Ansi, Html, Printer};

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
    let opts = DisasmOptions { program: o.dvle, offsets: o.offsets, raw: o.raw, ..Default::default() };
    let color = o.color.enabled();
    let many = o.files.len() > 1;
    // The DXBC checksums of a group of files are hashed side by side (several times faster
    // than one after the other); each listing then gets its file's.
    let prepare = |group: &[&[u8]]| {
        let dxbc: Vec<&[u8]> = group.iter().copied().filter(|d| d.starts_with(b"DXBC")).collect();
        let mut sums = shaderscope::format::dxbc::checksum::compute_many(&dxbc).into_iter();
        group.iter().map(|d| if d.starts_with(b"DXBC") { sums.next() } else { None }).collect::<Vec<_>>()
    };
    batch::run_grouped(&o.files, prepare, |path, data, checksum, out| {
        let opts = &DisasmOptions { dxbc_checksum: checksum.copied().flatten(), ..opts.clone() };
        let file = match shaderscope::parse(data) {
            Ok(f) => f,
            Err(e) => return out.push(batch::parse_failure(path, &e, o.json)),
        };
        if o.json {
            return out.push(match file.disasm_json(opts) {
                Ok(v) => Outcome::out(batch::record("disasm", path, v)),
                Err(e) => batch::parse_failure(path, &e, true),
            });
        }
        let result = if o.html {
            let mut p = Html::default();
            let r = file.disasm(opts, &mut p);
            out.stdout.push_str(&p.out);
            r
        } else {
            if many {
                out.stdout.push_str("// ");
                out.stdout.push_str(path);
                out.stdout.push('\n');
            }
            if color {
                let mut p = Ansi::default();
                let r = print_with(&mut p, &*file, opts);
                out.stdout.push_str(&p.out);
                r
            } else {
                // Plain text goes straight into the output buffer: no per-file string, no copy.
                file.disasm_text(opts, &mut out.stdout)
            }
        };
        if let Err(e) = result {
            out.fail(path, e, batch::INVALID);
        }
    })
}

fn print_with(
    p: &mut dyn Printer,
    file: &dyn shaderscope::Container,
    opts: &DisasmOptions,
) -> shaderscope::Result<()> {
    file.disasm(opts, p)
}
