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

use clap::{Parser, Subcommand};
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Info(o) => info::run(o),
        Command::Disasm(o) => disasm::run(o),
        Command::Dump(o) => dump::run(o),
        Command::Validate(o) => validate::run(o),
        Command::Extract(o) => extract::run(o),
        Command::Rewrite(o) => rewrite::run(o),
        Command::Scan(o) => scan::run(o),
        Command::Checksum(o) => checksum::run(o),
    };
    ExitCode::from(status)
}
