//! `shaderscope`: read, validate, explain, disassemble and write compiled GPU shader binaries.
//!
//! Each subcommand lives in its own file and is a thin layer over the `shaderscope` library;
//! every input is read through [`input`] and every batch runs through [`batch`].

/// Every message on stderr has its control characters escaped
/// ([`shaderscope::print::escape_control`]): these shadow the standard macros in every module
/// of the CLI, so no message can forget it.
macro_rules! eprint {
    ($($arg:tt)*) => { $crate::batch::eprint_text(format_args!($($arg)*)) };
}
macro_rules! eprintln {
    () => { $crate::batch::eprint_text(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::batch::eprint_text(format_args!("{}\n", format_args!($($arg)*))) };
}

mod asm;
mod batch;
mod checksum;
mod disasm;
mod dump;
mod extract;
mod info;
mod input;
mod rewrite;
mod scan;
mod validate;
mod variant;
mod view;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

const EXIT_STATUS: &str = "\
Exit status (the same for every command on the same input):
  0  every input is fine
  1  an input is invalid (it does not parse, or a part of it is damaged), a check fails
     (a finding, a checksum mismatch, a re-encoding that differs, a broken find of scan),
     or its format is recognised but not supported yet (said so, not called invalid)
  2  usage or I/O error: an option that does not apply to the file's format, a program index
     out of range, a --start/--stop range that holds no byte, a missing or unreadable file
     (or one scan cannot read: a device, a FIFO), an input over --max-size, `-` named twice";

/// Read, validate, explain, disassemble and write compiled GPU shader binaries.
///
/// Formats: Direct3D DXBC containers (fxc listings, reflection, checksum); Nintendo 3DS SHBIN
/// (DVLB/DVLP/DVLE, DVOJ/DVOB, CGFX .bcsdr, base64 .csdr) with PICA200 disassembly as picasso
/// source; Direct3D 9 SM1-3 bytecode with fxc listings; Wii U GFD .gsh files (GX2 shader
/// structs, Latte microcode) and AGL shader archives (SHARCFB, .sharc); ARM Mali-200/400 MBS
/// files (chunk tree, symbol tables, Mali GP/PP code). `-` as a FILE reads standard input.
#[derive(Parser, Debug)]
#[command(name = "shaderscope", version, after_help = EXIT_STATUS)]
struct Cli {
    /// Refuse inputs larger than this many bytes (suffixes k, M, G: KiB, MiB, GiB); checked
    /// before reading a file and while reading a stream
    #[arg(long, global = true, value_name = "BYTES", value_parser = input::parse_size, default_value = "1G")]
    max_size: u64,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// What a file is: format, version, programs and tables, in a readable summary (DXBC and
    /// D3D9: also the hashes 3Dmigoto names the shader by)
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
    /// Find every shader binary under folders, whole files and ones embedded in any file
    /// (DXBC in executables, DVLBs in CGFX, GFD/SHARCFB in SARC and Yaz0 archives): one line
    /// per find (path, location, format, stages, model, size, MD5, the hashes modding tools
    /// key DXBC and D3D9 shaders by, status), then a summary by format and stage with
    /// duplicates counted by hash
    #[command(after_help = EXIT_STATUS)]
    Scan(scan::Opts),
    /// DXBC: show and verify (exit 1 on a mismatch) or repair (--fix -o OUT) the checksum
    #[command(after_help = checksum::HELP)]
    Checksum(checksum::Opts),
    /// SHARCFB: the binaries one variation of a program uses (--set MACRO=VALUE, else the
    /// defaults)
    #[command(after_help = EXIT_STATUS)]
    Variant(variant::Opts),
    /// One standalone HTML page: the listing beside a hex view of the file, linked both ways
    #[command(after_help = EXIT_STATUS)]
    View(view::Opts),
    /// Assemble a listing (shaderscope's `disasm`, fxc's /Fc, picasso source) back into a
    /// whole binary: a DXBC container (program, signatures, RDEF, STAT, checksum), Direct3D 9
    /// bytecode with its constant table, a SHBIN; with --like, edited programs back into a 3DS,
    /// Wii U (.gsh, SHARCFB) or MBS file (--verify compares part by part)
    #[command(after_help = asm::HELP)]
    Asm(asm::Opts),
    /// Print a completion script for a shell (e.g. `shaderscope completions bash`)
    Completions {
        /// The shell to complete for
        shell: clap_complete::Shell,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    input::set_max_size(cli.max_size);
    let status = match cli.command {
        Command::Info(o) => info::run(o),
        Command::Disasm(o) => disasm::run(o),
        Command::Dump(o) => dump::run(o),
        Command::Validate(o) => validate::run(o),
        Command::Extract(o) => extract::run(o),
        Command::Rewrite(o) => rewrite::run(o),
        Command::Scan(o) => scan::run(o),
        Command::Checksum(o) => checksum::run(o),
        Command::Variant(o) => variant::run(o),
        Command::View(o) => view::run(o),
        Command::Asm(o) => asm::run(o),
        Command::Completions { shell } => completions(shell),
    };
    ExitCode::from(status)
}

/// Write the completion script for `shell` to stdout.
fn completions(shell: clap_complete::Shell) -> u8 {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "shaderscope", &mut script);
    batch::write_out(&script)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
