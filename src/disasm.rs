//! `shaderscope disasm`: the listing.

use crate::batch::{self, ColorChoice, Outcome, Settings};
use shaderscope::format::dxbc::Generation;
use shaderscope::print::{Ansi, Html};
use shaderscope::{Container, DisasmOptions, File, Format};

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

pub fn run(o: Opts) -> u8 {
    let mut opts = DisasmOptions::default();
    opts.program = o.dvle;
    opts.offsets = o.offsets;
    opts.raw = o.raw;
    (opts.dxbc.generation, opts.dxbc.legacy_crt) = o.fxc.options();
    let color = o.color.enabled();
    let many = o.files.len() > 1;
    // The DXBC checksums of a group of files are hashed side by side (several times faster
    // than one after the other); each listing then gets its file's.
    let prepare = shaderscope::dxbc::checksum::compute_where_dxbc;
    let settings = Settings { json: o.json, ..Settings::default() };
    batch::run_grouped(&o.files, settings, prepare, |path, data, checksum, out| {
        let mut opts = opts.clone();
        opts.dxbc.checksum = checksum.copied().flatten();
        let opts = &opts;
        let file = match shaderscope::parse(data) {
            Ok(f) => f,
            Err(e) => return out.push(batch::parse_failure(path, &e, o.json)),
        };
        if let Err(usage) = applies(&o, &file) {
            return out.fail(path, usage, batch::IO);
        }
        if o.json {
            out.push(match file.disasm_json(opts) {
                Ok(v) => Outcome::out(batch::record("disasm", path, v)),
                Err(e) => batch::parse_failure(path, &e, true),
            });
            return batch::damage(path, &file, None, out);
        }
        let result = if o.html {
            let mut p = Html::default();
            let r = file.disasm(opts, &mut p);
            out.stdout.push_str(&p.finish());
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
        let failed = result.err();
        if let Some(e) = &failed {
            out.fail(path, e, batch::INVALID);
        }
        batch::damage(path, &file, failed.as_ref(), out);
    })
}

/// Whether the options given apply to this file: `--dvle N` to a file with DVLEs (and N
/// among them), `--fxc` to a DXBC container. Otherwise the usage error's message.
fn applies(o: &Opts, file: &File<'_>) -> Result<(), String> {
    let format = file.format();
    if let Some(n) = o.dvle {
        let count = match file.programs() {
            Some(count) => count,
            None => {
                return Err(format!(
                    "--dvle applies only to 3DS shader binaries with DVLEs (this file: {})",
                    format.description()
                ));
            }
        };
        if n >= count {
            let has = match count {
                0 => "no DVLE".to_string(),
                1 => "1 DVLE (--dvle 0)".to_string(),
                _ => format!("{count} DVLEs (--dvle 0 to {})", count - 1),
            };
            return Err(format!("--dvle {n} is out of range: the file has {has}"));
        }
    }
    if o.fxc != Fxc::Auto && format != Format::Dxbc {
        return Err(format!("--fxc applies only to DXBC containers (this file: {})", format.description()));
    }
    Ok(())
}
