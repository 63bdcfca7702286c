//! `shaderscope`: read, validate, explain, disassemble and write compiled GPU shader binaries.
//!
//! Each subcommand lives in its own file and is a thin layer over the `shaderscope` library.

mod batch;
mod checksum;
mod disasm;
mod dump;
mod extract;
mod info;
mod rewrite;
mod scan;
mod validate;
mod view;

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::process::ExitCode;

const EXIT_STATUS: &str = "Exit status:\n  0  every input is fine\n  1  an input is invalid (parse error, finding, mismatch)\n  2  usage or I/O error";

/// Read, validate, explain, disassemble and write compiled GPU shader binaries.
///
/// Formats: Direct3D DXBC containers (fxc listings, reflection, checksum); Nintendo 3DS SHBIN
/// (DVLB/DVLP/DVLE, DVOJ/DVOB, CGFX .bcsdr, base64 .csdr) with PICA200 disassembly as picasso
/// source; Direct3D 9 SM1-3 bytecode with fxc listings. `-` as a FILE reads standard input.
#[derive(Parser, Debug)]
#[command(name = "shaderscope", version, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// What a file is: format, version, programs and tables, in a readable summary
    #[command(alias = "summary", after_help = EXIT_STATUS)]
    Info(info::Opts),
    /// Disassemble: the listing of every program in the file
    #[command(alias = "dis", after_help = EXIT_STATUS)]
    Disasm(disasm::Opts),
    /// Every byte annotated: offset | hex | meaning
    #[command(alias = "hexdump", after_help = EXIT_STATUS)]
    Dump(dump::Opts),
    /// Check a file; silent when it is fine, findings with offsets on stderr
    #[command(alias = "check", after_help = EXIT_STATUS)]
    Validate(validate::Opts),
    /// List or pull out an embedded part (a DVLB out of a CGFX, one DVLE's code, ...)
    #[command(after_help = EXIT_STATUS)]
    Extract(extract::Opts),
    /// Parse and re-encode; with --check, exit 0 only if the bytes are identical
    #[command(alias = "roundtrip", after_help = EXIT_STATUS)]
    Rewrite(rewrite::Opts),
    /// Find and summarise every shader binary under a folder
    #[command(after_help = EXIT_STATUS)]
    Scan(scan::Opts),
    /// DXBC: show, verify (--verify) or repair (--fix -o OUT) the container checksum
    #[command(after_help = checksum::HELP)]
    Checksum(checksum::Opts),
    /// One standalone HTML page: the listing beside a hex view of the file, linked both ways
    #[command(after_help = EXIT_STATUS)]
    View(view::Opts),
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let command = match plain_disasm(args) {
        Ok(files) => Command::Disasm(disasm::Opts::files_only(files)),
        Err(args) => Cli::parse_from(args).command,
    };
    let status = match command {
        Command::Info(o) => info::run(o),
        Command::Disasm(o) => disasm::run(o),
        Command::Dump(o) => dump::run(o),
        Command::Validate(o) => validate::run(o),
        Command::Extract(o) => extract::run(o),
        Command::Rewrite(o) => rewrite::run(o),
        Command::Scan(o) => scan::run(o),
        Command::Checksum(o) => checksum::run(o),
        Command::View(o) => view::run(o),
    };
    ExitCode::from(status)
}

/// The files of `shaderscope disasm FILE...` when every FILE is a plain name: valid UTF-8 and
/// not starting with `-` (so no flag, no `-` for stdin, no `--`), which clap would take as
/// nothing but positional files, everything else at its default. Such a command line is
/// built directly, because clap's per-value work (a copy, a UTF-8 check and a shared
/// allocation for each value, then a copy out) was about 4% of the CPU time of a run over
/// 5000 files; the names are moved out of `args`, not copied. Any other command line is given
/// back for clap; a test checks both agree.
fn plain_disasm(args: Vec<OsString>) -> Result<Vec<String>, Vec<OsString>> {
    let plain = |f: &OsString| f.to_str().is_some_and(|f| !f.starts_with('-'));
    let is_plain = match args.get(1..).and_then(<[OsString]>::split_first) {
        Some((command, files)) => {
            matches!(command.to_str(), Some("disasm" | "dis")) && !files.is_empty() && files.iter().all(plain)
        }
        None => false,
    };
    if !is_plain {
        return Err(args);
    }
    // Every name is valid UTF-8 (checked above), so each converts without a copy.
    Ok(args.into_iter().skip(2).filter_map(|f| f.into_string().ok()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path of [`plain_disasm`] gives what clap gives, and leaves every other command
    /// line to clap.
    #[test]
    fn plain_disasm_agrees_with_clap() {
        let plain: &[&[&str]] = &[
            &["x", "disasm", "a.dxbc"],
            &["x", "dis", "a", "b/c.dxbc", "", "help", "disasm", "a=b", "/abs/p"],
        ];
        for argv in plain {
            let args: Vec<OsString> = argv.iter().map(OsString::from).collect();
            let files = plain_disasm(args.clone()).expect("plain command line");
            let fast = format!("{:?}", Command::Disasm(disasm::Opts::files_only(files)));
            let clap = format!("{:?}", Cli::try_parse_from(&args).expect("clap parses it").command);
            assert_eq!(fast, clap, "{argv:?}");
        }
        let other: &[&[&str]] = &[
            &["x"],
            &["x", "disasm"],
            &["x", "disasm", "-"],
            &["x", "disasm", "a", "--raw"],
            &["x", "disasm", "--", "a"],
            &["x", "disasm", "a", "-h"],
            &["x", "info", "a"],
            &["x", "--version"],
        ];
        for argv in other {
            let args: Vec<OsString> = argv.iter().map(OsString::from).collect();
            assert_eq!(plain_disasm(args.clone()), Err(args), "{argv:?}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let args = vec!["x".into(), "disasm".into(), OsString::from_vec(vec![0xff, b'a'])];
            assert_eq!(plain_disasm(args.clone()), Err(args));
        }
    }
}
