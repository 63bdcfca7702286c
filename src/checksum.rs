//! `shaderscope checksum`: show, verify or repair the checksum of DXBC containers.

use crate::batch::{self, Outcome};
use shaderscope::format::dxbc::{Dxbc, checksum, write::ChecksumPolicy};

pub const HELP: &str = "\
Examples:
  shaderscope checksum shader.dxbc                 print stored and computed checksum
  shaderscope checksum --verify *.cso              exit 1 if any checksum does not match
  shaderscope checksum --fix -o fixed.dxbc in.dxbc write a copy with the computed checksum

The checksum is the MD5 variant Direct3D checks (bytes 4..20, over everything after them).
An all-zero checksum marks an unsigned container (DXC output that the validator has not signed
yet): it is reported as `unsigned`, and --verify accepts it unless --require-signed is given.

Exit status:
  0  every checksum matches (or the fixed file was written)
  1  a checksum does not match (or is absent, with --require-signed), or an input is not a
     valid DXBC container
  2  usage or I/O error";

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// DXBC files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    /// Exit 1 when a stored checksum differs from the computed one (prints both)
    #[arg(long, conflicts_with = "fix")]
    verify: bool,
    /// With --verify: also fail on unsigned (all-zero) checksums
    #[arg(long, requires = "verify")]
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
    batch::run_all(&o.files, |path, data| {
        let d = match Dxbc::parse(data) {
            Ok(d) => d,
            Err(e) => return Outcome::fail(path, e, batch::INVALID),
        };
        let stored = checksum::hex(&d.stored_checksum());
        let computed = checksum::hex(&d.computed_checksum());
        let ok = d.checksum_ok();
        if o.fix {
            let mut b = d.to_builder();
            b.checksum = ChecksumPolicy::Compute;
            let bytes = match b.finish() {
                Ok(b) => b,
                Err(e) => return Outcome::fail(path, e, batch::INVALID),
            };
            let out = o.output.as_deref().unwrap_or("-");
            if let Err(e) = std::fs::write(out, &bytes) {
                return Outcome::fail(out, format!("cannot write: {e}"), batch::IO);
            }
            let msg = if ok {
                format!("{path}: checksum already correct ({computed}); wrote {out}\n")
            } else {
                format!("{path}: checksum {stored} replaced by {computed}; wrote {out}\n")
            };
            return Outcome::out(msg);
        }
        let prefix = if many { format!("{path}: ") } else { String::new() };
        if ok {
            return Outcome::out(format!("{prefix}ok {computed}\n"));
        }
        let unsigned = d.stored_checksum() == [0; 16];
        let state = if unsigned { "unsigned" } else { "mismatch" };
        let text = format!("{prefix}{state}: stored {stored}, computed {computed}\n");
        if o.verify && (!unsigned || o.require_signed) {
            Outcome { stdout: text, status: batch::INVALID, ..Default::default() }
        } else {
            Outcome::out(text)
        }
    })
}
