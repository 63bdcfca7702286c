//! `shaderscope checksum`: show, verify or repair the checksum of DXBC containers.

use crate::batch::{self, Outcome, Settings};
use shaderscope::{Checksum, Container};

pub const HELP: &str = "\
Examples:
  shaderscope checksum shader.dxbc                 print stored and computed checksum
  shaderscope checksum *.cso                       exit 1 if any checksum does not match
  shaderscope checksum --fix -o fixed.dxbc in.dxbc write a copy with the computed checksum

The checksum is the MD5 variant Direct3D checks (bytes 4..20, over everything after them).
An all-zero checksum marks an unsigned container (DXC output that the validator has not signed
yet): it is reported as `unsigned` and accepted unless --require-signed is given.

Exit status:
  0  every checksum matches (with --fix: the fixed file was written, and it is valid)
  1  a checksum does not match (or is absent, with --require-signed), or an input is invalid
     (not a shader binary, a DXBC container that does not parse or has a damaged chunk);
     with --fix: the fixed file was written, but a part of it is damaged, which a checksum
     does not repair (`error: FILE: fixed the checksum → OUT; the file is still invalid: …`)
  2  usage or I/O error, or an input that is no DXBC container (checksums are DXBC's)";

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// DXBC files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    /// Exit 1 when a stored checksum differs from the computed one: what `checksum` always
    /// does (the flag is kept for scripts)
    #[arg(long, conflicts_with = "fix")]
    verify: bool,
    /// Also fail on unsigned (all-zero) checksums
    #[arg(long, conflicts_with = "fix")]
    require_signed: bool,
    /// Write the container with the computed checksum (needs -o, one input)
    #[arg(long, requires = "output")]
    fix: bool,
    /// Where --fix writes
    #[arg(short, long, value_name = "OUT")]
    output: Option<String>,
}

pub fn run(o: Opts) -> u8 {
    if o.fix && o.files.len() != 1 {
        eprintln!("error: --fix takes exactly one input");
        return batch::IO;
    }
    if o.output.is_some() && !o.fix {
        eprintln!("error: -o is only used with --fix");
        return batch::IO;
    }
    let many = o.files.len() > 1;
    batch::run_each(&o.files, Settings::default(), |path, data, out| {
        let file = match shaderscope::parse(data) {
            Ok(f) => f,
            Err(e) => return out.fail(path, e, batch::INVALID),
        };
        let sum = match file.checksum() {
            Ok(sum) => sum,
            Err(usage) => return out.fail(path, usage, batch::IO),
        };
        let stored = Checksum::hex(&sum.stored);
        let computed = Checksum::hex(&sum.computed);
        if o.fix {
            let bytes = match file.with_computed_checksum() {
                Ok(b) => b,
                Err(e) => return out.fail(path, e, batch::INVALID),
            };
            let to = o.output.as_deref().unwrap_or("-");
            if let Err(e) = std::fs::write(to, &bytes) {
                return out.fail(to, format!("cannot write: {e}"), batch::IO);
            }
            let msg = if sum.ok() {
                format!("{path}: checksum already correct ({computed}); wrote {to}\n")
            } else {
                format!("{path}: checksum {stored} replaced by {computed}; wrote {to}\n")
            };
            out.push(Outcome::out(msg));
            // The checksum is right now, but a damaged part is not repaired by it: said as
            // such, so that exit status 1 is not read as a failed fix.
            for e in file.damage() {
                out.fail(
                    path,
                    format!("fixed the checksum → {to}; the file is still invalid: {e}"),
                    batch::INVALID,
                );
            }
            return;
        }
        let prefix = if many { format!("{path}: ") } else { String::new() };
        if sum.ok() {
            out.push(Outcome::out(format!("{prefix}ok {computed}\n")));
        } else {
            let state = if sum.unsigned() { "unsigned" } else { "mismatch" };
            let text = format!("{prefix}{state}: stored {stored}, computed {computed}\n");
            let status = if !sum.unsigned() || o.require_signed { batch::INVALID } else { batch::OK };
            out.push(Outcome { stdout: text, status, ..Default::default() });
        }
        batch::damage(path, &file, None, out);
    })
}
