//! `shaderscope disasm`: the listing.

use crate::batch::{self, ColorChoice, Outcome};
use shaderscope::format::dxbc::Generation;
use shaderscope::json::RecordType;
use shaderscope::page;
use shaderscope::print::{Ansi, Html};
use shaderscope::{Container, DisasmOptions};

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
    /// JSON Lines: one record per file with the listing and every program's instructions
    /// (offset, words, mnemonic, operands, text)
    #[arg(long)]
    json: bool,
    /// A standalone HTML page: the listing with each token coloured by kind, each line with its
    /// file offset in `data-offset` (`shaderscope view` adds a hex view of the file)
    #[arg(long, conflicts_with = "json")]
    html: bool,
    /// Colour the listing
    #[arg(long, value_enum, default_value_t)]
    color: ColorChoice,
    /// DXBC: the fxc generation to imitate (by default the one the creator string names);
    /// `10-legacy-crt` is fxc 10 on a C runtime that rounds ties away from zero (before 2019)
    #[arg(long, value_enum, value_name = "GENERATION", default_value_t)]
    fxc: Fxc,
}

/// `--fxc`: which fxc's listing to reproduce.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Fxc {
    /// From the file (creator string, shader model)
    #[default]
    Auto,
    /// fxc 9.29 (DirectX SDK June 2010)
    #[value(name = "9.29")]
    V9_29,
    /// fxc 9.30 (Windows 8 SDK)
    #[value(name = "9.30")]
    V9_30,
    /// fxc 6.3 (Windows 8.1 SDK)
    #[value(name = "6.3")]
    V6_3,
    /// fxc 10.x (Windows 10 SDK)
    #[value(name = "10")]
    V10,
    /// fxc 10.x with a C runtime from before 2019
    #[value(name = "10-legacy-crt")]
    V10LegacyCrt,
}

impl Fxc {
    fn options(self) -> (Option<Generation>, bool) {
        match self {
            Fxc::Auto => (None, false),
            Fxc::V9_29 => (Some(Generation::Fxc9_29), false),
            Fxc::V9_30 => (Some(Generation::Fxc9_30), false),
            Fxc::V6_3 => (Some(Generation::Fxc6_3), false),
            Fxc::V10 => (Some(Generation::Fxc10), false),
            Fxc::V10LegacyCrt => (Some(Generation::Fxc10), true),
        }
    }
}

impl Opts {
    /// `disasm FILE...` with every option at its default.
    pub fn files_only(files: Vec<String>) -> Self {
        Opts {
            files,
            dvle: None,
            offsets: false,
            raw: false,
            json: false,
            html: false,
            color: ColorChoice::default(),
            fxc: Fxc::default(),
        }
    }
}

pub fn run(o: Opts) -> u8 {
    let mut opts = DisasmOptions::default();
    opts.program = o.dvle;
    opts.offsets = o.offsets;
    opts.raw = o.raw;
    (opts.dxbc.generation, opts.dxbc.legacy_crt) = o.fxc.options();
    let color = o.color.enabled();
    let many = o.files.len() > 1;
    let json = o.json.then_some(RecordType::Disasm);
    if let Some(t) = json {
        batch::json_records(t);
    }
    // The DXBC checksums of a group of files are hashed side by side (several times faster
    // than one after the other); each listing then gets its file's.
    let prepare = shaderscope::dxbc::checksum::compute_where_dxbc;
    // An HTML page starts before the first file's listing and ends after the last.
    if o.html {
        let title =
            if many { "shaderscope disasm" } else { o.files.first().map_or("", |f| batch::display_name(f)) };
        let status = batch::write_stdout(page::listing_head(title).as_bytes());
        if status != batch::OK {
            return status;
        }
    }
    let status = batch::run_grouped(&o.files, prepare, |path, data, checksum, out| {
        let mut opts = opts.clone();
        opts.dxbc.checksum = checksum.copied().flatten();
        let opts = &opts;
        let file = match shaderscope::parse(data) {
            Ok(f) => f,
            Err(e) => return out.push(batch::failure(path, data, &e, json)),
        };
        if o.json {
            let r = file.disasm_record(path, opts);
            let status = if r.valid { batch::OK } else { batch::INVALID };
            return out.push(Outcome { stdout: r.to_line(), status, ..Default::default() });
        }
        let result = if o.html {
            let mut p = Html::default();
            let r = file.disasm(opts, &mut p);
            let mut section = String::new();
            page::listing_file(&mut section, path, p);
            out.stdout.push_str(&section);
            r
        } else {
            if many {
                out.stdout.push_str("// ");
                out.stdout.push_str(path);
                out.stdout.push('\n');
            }
            if color {
                let mut p = Ansi::default();
                let r = file.disasm(opts, &mut p);
                out.stdout.push_str(&p.out);
                r
            } else {
                // Plain text goes straight into the output buffer: no per-file string, no copy.
                file.disasm(opts, &mut out.stdout)
            }
        };
        if let Err(e) = result {
            out.fail(path, e, batch::INVALID);
        }
    });
    if o.html {
        return status.max(batch::write_stdout(page::LISTING_TAIL.as_bytes()));
    }
    status
}
