//! `shaderscope disasm`: the listing.

use crate::batch::{self, ColorChoice, Output, Settings};
use clap::ValueEnum;
use shaderscope::bare::{self, Bare, Isa};
use shaderscope::json::RecordType;
use shaderscope::page;
use shaderscope::print::{Ansi, Printer};
use shaderscope::{Container, DisasmOptions};

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input files (`-` for stdin)
    #[arg(required = true)]
    files: Vec<String>,
    #[command(flatten)]
    pub listing: ListingArgs,
    /// JSON Lines: one record per file with the listing and every program's instructions
    /// (offset, words, mnemonic, operands, text)
    #[arg(long)]
    json: bool,
    /// A standalone HTML page: the listing with each token coloured by kind, each line with its
    /// file offset in `data-offset` (`shaderscope view` adds a hex view of the file)
    #[arg(long, conflicts_with = "json")]
    html: bool,
    /// Colour the listing: `--color` alone or `--color=always` always, `--color=auto` (the
    /// default) when stdout is a terminal and NO_COLOR is unset, `--color=never` never
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value_t,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "always"
    )]
    color: ColorChoice,
    /// Read each FILE as a bare program of this instruction set, with no container: the data
    /// of a DXBC SHDR/SHEX chunk, a Direct3D 9 token stream, PICA200 code words, Latte
    /// microcode, Mali GP code (what `extract` writes)
    #[arg(long, value_enum, value_name = "ISA", conflicts_with = "dvle")]
    format: Option<BareIsa>,
    /// With --format: the program starts at this byte of the file (0x.. or decimal); offsets
    /// shown are the file's
    #[arg(long, value_name = "OFFSET", value_parser = batch::parse_offset, requires = "format")]
    start: Option<u64>,
    /// With --format: the program ends before this byte of the file (0x.. or decimal)
    #[arg(long, value_name = "OFFSET", value_parser = batch::parse_offset, requires = "format")]
    stop: Option<u64>,
    /// With --format pica: the operand descriptors, as `extract FILE opdescs` writes them
    #[arg(long, value_name = "FILE", requires = "format")]
    opdesc: Option<String>,
    #[command(flatten)]
    out: batch::OutputArg,
}

/// The listing options `disasm` and `view` share, and the checks that they apply to a file.
#[derive(clap::Args, Debug)]
pub struct ListingArgs {
    /// Only program N (SHBIN: DVLE N, printed as complete picasso source; GFD: shader N)
    #[arg(long, visible_alias = "program", value_name = "N")]
    pub dvle: Option<usize>,
    /// Show each instruction's byte offset: for DXBC and Direct3D 9 fxc's /No column (from
    /// the program's version token, 0x0000001C: ), for other formats the absolute file offset
    /// (a base64 .csdr: the offset in its decoded binary, which `extract FILE decoded` writes)
    #[arg(long)]
    offsets: bool,
    /// Show each instruction's absolute file offset, in every format (DXBC and Direct3D 9: in
    /// the layout of fxc's /No column; a base64 .csdr: in its decoded binary)
    #[arg(long, conflicts_with = "offsets")]
    file_offsets: bool,
    /// Show each instruction's raw encoding: the 32-bit little-endian words the file holds at
    /// its offset, in hexadecimal
    #[arg(long)]
    raw: bool,
    /// DXBC, fx_4/fx_5 effects and --format sm4: the fxc generation to imitate (by default the
    /// one the creator string names; fxc 10 for a bare program); `10-legacy-crt` is fxc 10 on
    /// a C runtime that rounds ties away from zero (before 2019), which is the one choice for
    /// Direct3D 9 programs and fx_2_0 effects (their `def` values)
    #[arg(long, value_enum, value_name = "GENERATION", default_value_t)]
    fxc: Fxc,
    /// DXBC, Direct3D 9: number the instructions as fxc /Ni does
    #[arg(long)]
    numbering: bool,
    /// DXBC, Direct3D 9: literal values as their bits in hexadecimal, as fxc /Lx prints them
    #[arg(long)]
    hex_literals: bool,
    /// DXBC: a float literal that fxc's `%f` would round in hexadecimal, so that `asm` rebuilds
    /// the same program (every other literal stays as fxc prints it)
    #[arg(long)]
    exact_floats: bool,
    /// DXBC, Direct3D 9: the program without fxc's comment tables
    #[arg(long)]
    no_header: bool,
    /// DXBC, Direct3D 9: the version line and the instructions only
    /// (D3DDisassemble's D3D_DISASM_INSTRUCTION_ONLY)
    #[arg(long)]
    instruction_only: bool,
}

/// `--format`: the instruction set of a bare program.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BareIsa {
    /// SM4/SM5 tokens (an extracted SHDR or SHEX chunk)
    Sm4,
    /// Direct3D 9 tokens, version token to end token
    D3d9,
    /// PICA200 code words (an extracted DVLP code blob)
    Pica,
    /// Wii U Latte (R600/R700) microcode (a GX2 shader's program)
    Latte,
    /// ARM Mali Utgard GP (vertex processor) code (an MBS vertex shader's DBIN)
    MaliGp,
    /// Mali-200/400 fragment (PP) code (the DBIN chunk of an MBS fragment shader)
    MaliPp,
}

impl From<BareIsa> for Isa {
    fn from(i: BareIsa) -> Isa {
        match i {
            BareIsa::Sm4 => Isa::Sm4,
            BareIsa::D3d9 => Isa::D3d9,
            BareIsa::Pica => Isa::Pica,
            BareIsa::Latte => Isa::Latte,
            BareIsa::MaliGp => Isa::MaliGp,
            BareIsa::MaliPp => Isa::MaliPp,
        }
    }
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

impl ListingArgs {
    /// The library's listing configuration for these switches, filled once and handed
    /// unchanged to every listing.
    pub fn options(&self) -> DisasmOptions {
        // The value's name is one of the library's `FXC_NAMES` (a test holds them equal).
        let fxc = self.fxc.to_possible_value().and_then(|v| DisasmOptions::default().with_fxc(v.get_name()));
        let mut opts = fxc
            .unwrap_or_default()
            .with_offsets(self.offsets)
            .with_file_offsets(self.file_offsets)
            .with_raw(self.raw)
            .with_numbering(self.numbering)
            .with_hex_literals(self.hex_literals)
            .with_exact_floats(self.exact_floats)
            .with_no_header(self.no_header)
            .with_instruction_only(self.instruction_only);
        if let Some(n) = self.dvle {
            opts = opts.with_program(n);
        }
        opts
    }
}

pub fn run(o: Opts) -> u8 {
    o.out.open();
    let opts = o.listing.options();
    let json = o.json.then_some(RecordType::Disasm);
    if let Some(t) = json {
        batch::json_records(t);
    }
    if let Some(isa) = o.format {
        return run_bare(&o, isa.into(), &opts);
    }
    let settings = Settings { json: o.json, ..Settings::default() };
    let opts = &opts;
    in_page(&o, || {
        // What is cheaper done for a group of files at once is worked out per group.
        batch::run_grouped(&o.files, settings, shaderscope::prepare, |path, data, prepared, out| {
            let file = match shaderscope::parse_prepared(data, prepared.unwrap_or(&Default::default())) {
                Ok(f) => f,
                Err(e) => return out.push(batch::failure(path, data, &e, json)),
            };
            if let Err(usage) = opts.check(&file) {
                return out.fail(path, usage, batch::IO);
            }
            if o.json {
                // Written into the output field by field as the listing and the records are
                // made (a damaged file's record says `valid: false`; the damage is reported
                // below).
                let written = file.write_disasm_record(path, opts, out);
                batch::record_written(path, written, out);
                return batch::damage(path, &file, None, out);
            }
            let failed = write_listing(&o, path, out, |p| file.disasm(opts, p)).err();
            if let Some(e) = &failed {
                out.fail(path, e, batch::INVALID);
            }
            batch::damage(path, &file, failed.as_ref(), out);
        })
    })
}

/// Run `body` (the listings), inside one HTML page with `--html`: the page starts before the
/// first file's listing and ends after the last.
fn in_page(o: &Opts, body: impl FnOnce() -> u8) -> u8 {
    if !o.html {
        return body();
    }
    let title = if o.files.len() > 1 {
        "shaderscope disasm"
    } else {
        o.files.first().map_or("", |f| batch::display_name(f))
    };
    let status = batch::write_out(page::listing_head(title).as_bytes());
    if status != batch::OK {
        return status;
    }
    body().max(batch::write_out(page::LISTING_TAIL.as_bytes()))
}

/// One file's listing into the batch output in the mode asked: a section of the HTML page
/// (written a line at a time), ANSI colour, or plain text (straight into the output buffer: no
/// per-file string, no copy), after a `// PATH` line when several files are listed.
fn write_listing(
    o: &Opts,
    path: &str,
    out: &mut Output,
    listing: impl FnOnce(&mut dyn Printer) -> shaderscope::Result<()>,
) -> shaderscope::Result<()> {
    if o.html {
        // Written a line at a time: `Output` never fails a write (a closed pipe drops what
        // follows), so the listing's own error is all there is to tell.
        let written = page::write_listing_file(out, path, listing);
        return written.error.map_or(Ok(()), Err);
    }
    if o.files.len() > 1 {
        out.stdout.push_str("// ");
        out.stdout.push_str(path);
        out.stdout.push('\n');
    }
    if o.color.enabled() {
        let mut p = Ansi::default();
        let r = listing(&mut p);
        out.stdout.push_ansi(&p);
        r
    } else {
        listing(&mut out.stdout)
    }
}

/// `disasm --format ISA FILE...`: each FILE (or its `--start`/`--stop` range) as a bare program.
fn run_bare(o: &Opts, isa: Isa, opts: &DisasmOptions) -> u8 {
    let usage = |msg: String| {
        eprintln!("error: {msg}");
        batch::IO
    };
    if let Err(e) = opts.check_bare(isa) {
        return usage(e.to_string());
    }
    let opdescs = match &o.opdesc {
        None => None,
        Some(path) => {
            if let Err(e) = isa.check_opdescs() {
                return usage(e.to_string());
            }
            let table = batch::read_input(path, false)
                .map_err(|r| format!("{}: {}", batch::display_name(path), r.message));
            match table.and_then(|t| bare::opdesc_table(&t, 0).map_err(|e| format!("{path}: {e}"))) {
                Ok(t) => Some(t),
                Err(e) => return usage(e),
            }
        }
    };
    let settings = Settings { json: o.json, raw: true, ..Settings::default() };
    in_page(o, || {
        batch::run_each(&o.files, settings, |path, data, out| {
            let (bytes, base) = match bare::select(data, o.start, o.stop) {
                Ok(range) => range,
                Err(e) => return out.fail(path, e, batch::IO),
            };
            let mut program = Bare::new(isa, bytes).at(base);
            if let Some(t) = &opdescs {
                program = program.with_opdescs(t.clone());
            }
            if o.json {
                // A bare program has no container format: the record's `format` is null and its
                // program's `isa` says what the bytes were read as.
                let written = program.write_disasm_record(path, opts, out);
                batch::record_written(path, written, out);
                return;
            }
            if let Err(e) = write_listing(o, path, out, |p| program.disasm(opts, p)) {
                out.fail(path, e, batch::INVALID);
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fxc_switch_takes_the_library_s_names() {
        let names: Vec<String> = Fxc::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect();
        assert_eq!(names, DisasmOptions::FXC_NAMES);
        #[derive(clap::Parser)]
        struct Args {
            #[command(flatten)]
            listing: ListingArgs,
        }
        let legacy = <Args as clap::Parser>::try_parse_from(["x", "--fxc", "10-legacy-crt"])
            .map(|a| a.listing.options());
        assert_eq!(legacy.ok(), DisasmOptions::default().with_fxc("10").map(|o| o.with_legacy_crt(true)));
    }
}
