//! `shaderscope asm`: a listing back into a whole binary (a DXBC container for SM4/SM5
//! listings, Direct3D 9 bytecode for SM1–3 ones, a SHBIN for picasso sources, a `.gsh` or
//! SHARCFB for a Wii U listing and an MBS file for a Mali one, with --like).

use crate::batch::{self, display_name};
use crate::disasm::BareIsa;
use shaderscope::asm;

pub const HELP: &str = "\
Examples:
  shaderscope disasm --exact-floats in.dxbc > in.asm     a listing that assembles back exactly
  shaderscope asm in.asm -o out.dxbc                      the whole container, checksum computed
  shaderscope asm edited.asm --like in.dxbc -o out.dxbc   RDEF, STAT, … taken from the original
  shaderscope asm edited.asm --like in.dxbc --verify in.dxbc -o out.dxbc
                                                          the same, and which chunks differ
  shaderscope asm vshader.v.pica -o vshader.shbin         picasso source into a SHBIN
  shaderscope asm main.v.pica lib.v.pica -o out.shbin      several sources, one DVLB
  shaderscope disasm in.bcsdr > in.pica                   a 3DS shader file as source
  shaderscope asm in.pica --like in.bcsdr -o out.bcsdr    edited, back into the original
  shaderscope asm --format pica code.pica -o code.bin --opdesc op.bin
                                                          bare code, as disasm --format reads it
  shaderscope disasm in.gsh > in.txt                      a Wii U .gsh (or SHARCFB) as text
  shaderscope asm in.txt --like in.gsh -o out.gsh         edited, back into the original
  shaderscope asm vs.txt --like in.sharcfb --program color --set TINT=on -o out.sharcfb
                                                          one variation's shaders replaced
  shaderscope disasm in.mbs > in.txt                      a Mali MBS file as text
  shaderscope asm in.txt --like in.mbs -o out.mbs         the program edited, back into the file
(--verify without --like always reports RDEF, whose compile-flags word the text does not
carry, and every other chunk the text does not carry.)

The listing is shaderscope's own `disasm` output or fxc's /Fc listing, with or without the
comment header; literals may be hexadecimal (`l(0x3f800000)`) or MSVC's `1.#INF`/`-1.#IND`.
A DXIL container's listing and a root signature's cannot be assembled (the DXIL is not
disassembled; root signatures are not assembled from text): asm says so and exits 1.
A Direct3D 9 listing (vs_1_1 ... ps_3_0) gives the program's bytecode, with the constant table
(CTAB) its header describes; with --like, the original program's comment blocks (its constant
table as it was, debug data) instead.
The program, the signature tables and the required-feature notes are assembled; RDEF and
STAT are rebuilt from the header's tables where the listing has them. --like takes every
chunk the text does not determine from the original binary; STAT, too, unless the program
was edited and recounting the original's program gives the original's STAT (fxc 10's
counts): it is then recounted. Where it is kept, --verify says `STAT  kept from the original
(the program changed; its counts may be stale)`.
What fxc's text has no place for (opcode-token bits no suffix shows, DWORDs after an
instruction's operands other than fxc's) is an end-of-line comment in shaderscope's
listing, which asm reads back: `// opcode bits 0x00004000`, `// trailing 0x00000005`.
With --like, a chunk whose listing is the same as the original's (a signature the original
holds as ISG1 or OSG1, bits other compilers set that the text does not show) is the original's.

A picasso source (its first statement a directive: `.fvec`, `.proc`, ...) is assembled as
picasso 2.7.1 assembles it, into the bytes picasso writes: several sources make one DVLB
with one DVLE per source (procedures and vertex-shader uniforms shared, aliases and labels
per file), as `picasso -o out.shbin a.v.pica b.v.pica` does. Errors name the file (or the one
a preprocessor's `# 12 \"file\"` line marker names), the line and the column.

With --like, a listing of a 3DS shader file (`disasm`'s: every DVLE after its `; DVLE k:`
line) goes back into that file, whoever wrote it (Nintendo's tools, nihstro, picasso): an
unedited listing gives the original byte for byte; an edited instruction changes only the
bits the edit changed (bits no listing shows stay) and gets a descriptor the table has or a
new one at its end; an edited table (uniforms, constants, outputs) is the text's. The code
keeps its layout: a listing with instructions added or removed is refused with --like. A
CGFX (.bcsdr, .bcres) gets its DVLB back in place, a .csdr is encoded again. --verify names
each table that differs (`code`, `DVLE 0 uniforms`, ...).

With --like, a Wii U listing (`disasm`'s of a .gsh or SHARCFB: each shader's summary line,
its `---- vertex (N bytes) ----` programs in decaf's Latte text) goes back into that file: an
unedited listing gives the original byte for byte. An edited program replaces the
original's; its size, and the register fields that follow from it (NUM_GPRS when it uses a
higher register, a vertex shader's VS_EXPORT_COUNT, a pixel shader's EXPORT_MODE,
CB_SHADER_MASK and Z_EXPORT_ENABLE) are recomputed; STACK_SIZE is kept. asm prints each
change and the shader's Cemu hash (the name a graphic pack gives its replacement) on stderr.
The summary lines are the original's and are checked, not read. A .gsh's listing gives every
shader in order; a SHARCFB's names each binary it replaces by its `; binary N:` line, or,
with --set (and --program when the archive has several), is a listing of bare shaders that
replace that variation's VS, PS and GS binaries. --verify names each block or binary and
each register word that differs.

With --like, an MBS listing (`disasm`'s: the comment header, then the Mali GP or PP program)
goes back into that file: the header repeats the original's (only the code line's byte count
may change); the program is assembled into the DBIN chunk, and the chunk sizes and (GP) the
FINS instruction count are recomputed. Instructions may be added or removed.

Exit status:
  0  the binary was written (and, with --verify, every chunk is the same)
  1  the listing does not assemble (line, column and what was expected are said; with
     --like too, whatever the original), or --verify found a chunk that differs
  2  usage or I/O error: a missing or unreadable file, an original asm does not rebuild or
     not the kind the listing makes, a Wii U or MBS listing without --like";

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// The listing (`-` for stdin); several picasso sources make one SHBIN
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Where to write the binary (`-` for stdout)
    #[arg(short, long, value_name = "OUT", required_unless_present = "verify")]
    output: Option<String>,
    /// Take every chunk the listing does not determine (RDEF, STAT, Aon9, IFCE, RTS0, debug
    /// data, …) from this original, keeping its chunk order; for a Direct3D 9 listing, the
    /// original's comment blocks (constant table, debug data); for a 3DS shader file, its
    /// layout, tables and every bit the listing does not show; for a Wii U .gsh or SHARCFB or
    /// an MBS file, everything but the programs (these listings need it)
    #[arg(long, value_name = "ORIGINAL")]
    like: Option<String>,
    /// Compare the result with this binary chunk by chunk and say which chunks differ
    /// (exit 1 if any does)
    #[arg(long, value_name = "ORIGINAL")]
    verify: Option<String>,
    /// With --like FILE.sharcfb: the program whose variation (--set) a listing of bare
    /// shaders replaces (needed when the archive has several)
    #[arg(long, value_name = "NAME", requires = "like")]
    program: Option<String>,
    /// With --like FILE.sharcfb: set a variation macro (by its name or ID) to a value; the
    /// variation's binaries take the listing's shaders (VS, PS, GS); repeat for more
    #[arg(long = "set", value_name = "MACRO=VALUE", value_parser = crate::variant::setting, requires = "like")]
    set: Vec<(String, String)>,
    /// The listing is of a bare program of this instruction set (`disasm --format ISA`'s
    /// output): its words are written, no container
    #[arg(long, value_enum, value_name = "ISA", conflicts_with_all = ["like", "verify"])]
    format: Option<BareIsa>,
    /// With --format pica: write the operand descriptors to this file, as `extract FILE
    /// opdescs` writes them and `disasm --format pica --opdesc FILE` reads them
    #[arg(long, value_name = "FILE", requires = "format")]
    opdesc: Option<String>,
}

/// An original binary named by --like or --verify, read (whether it is a binary an assembler
/// makes is said by the library).
fn original(path: &str) -> Result<Vec<u8>, u8> {
    batch::read_input(path, false).map_err(|r| {
        eprint!("{}", r.text(display_name(path)));
        batch::IO
    })
}

pub fn run(o: Opts) -> u8 {
    let paths: Vec<String> =
        o.files.iter().chain(o.like.as_ref()).chain(o.verify.as_ref()).cloned().collect();
    if let Err(status) = batch::stdin_once(&paths) {
        return status;
    }
    let mut texts = Vec::with_capacity(o.files.len());
    for path in &o.files {
        match batch::read_input(path, false) {
            Ok(bytes) => texts.push(String::from_utf8_lossy(&bytes).into_owned()),
            Err(r) => {
                eprint!("{}", r.text(display_name(path)));
                return r.status;
            }
        }
    }
    // A listing of what cannot be assembled says so before anything else is read.
    if let (Some(path), Some(text)) = (o.files.first(), texts.first()) {
        if let Err(e) = asm::refuse(text) {
            eprintln!("error: {}: {e}", display_name(path));
            return batch::INVALID;
        }
    }
    if let Some(isa) = o.format {
        return bare(&o, isa, &texts);
    }
    let like = match o.like.as_deref().map(original).transpose() {
        Ok(l) => l,
        Err(status) => return status,
    };
    let files: Vec<asm::File<'_>> =
        o.files.iter().zip(&texts).map(|(p, t)| asm::File { name: display_name(p), text: t }).collect();
    let variation = (o.program.is_some() || !o.set.is_empty())
        .then(|| asm::Variation { program: o.program.as_deref(), set: &o.set });
    let bytes = match asm::assemble_variation(&files, like.as_deref(), variation) {
        Ok(a) => {
            for note in &a.notes {
                eprintln!("{note}");
            }
            a.bytes
        }
        Err(e @ asm::Error::NeedsOriginal(..)) => {
            eprintln!("error: {}: {e}", o.files.first().map_or("", |p| display_name(p)));
            return batch::IO;
        }
        Err(asm::Error::Original(e)) => {
            eprintln!("error: {}: {e}", o.like.as_deref().map_or("", display_name));
            return batch::IO;
        }
        // A text's error names its file; another is the first file's.
        Err(e @ (asm::Error::Text(asm::LineError { file: Some(_), .. }) | asm::Error::Several(_))) => {
            eprintln!("error: {e}");
            return batch::INVALID;
        }
        Err(e) => {
            eprintln!("error: {}: {e}", o.files.first().map_or("", |p| display_name(p)));
            return batch::INVALID;
        }
    };
    if let Some(to) = &o.output {
        let written = if to == "-" { batch::write_out(&bytes) } else { write_file(to, &bytes) };
        if written != batch::OK {
            return written;
        }
    }
    match &o.verify {
        Some(path) => verify(&bytes, path),
        None => batch::OK,
    }
}

/// `asm --format ISA FILE -o OUT [--opdesc FILE]`: a bare program's words.
fn bare(o: &Opts, isa: BareIsa, texts: &[String]) -> u8 {
    let ([path], [text]) = (o.files.as_slice(), texts) else {
        eprintln!("error: asm --format takes one listing");
        return batch::IO;
    };
    if o.opdesc.is_some() {
        if let Err(e) = shaderscope::bare::Isa::from(isa).check_opdescs() {
            eprintln!("error: {e}");
            return batch::IO;
        }
    }
    let program = match asm::assemble_bare(isa.into(), text) {
        Ok(p) => p,
        Err(e @ asm::Error::NoAssembler(_)) => {
            eprintln!("error: {e}");
            return batch::IO;
        }
        Err(e) => {
            eprintln!("error: {}: {e}", display_name(path));
            return batch::INVALID;
        }
    };
    let outputs = [(o.output.as_deref(), Some(program.code)), (o.opdesc.as_deref(), program.opdescs)];
    for (to, bytes) in outputs {
        let (Some(to), Some(bytes)) = (to, bytes) else { continue };
        let written = if to == "-" { batch::write_out(&bytes) } else { write_file(to, &bytes) };
        if written != batch::OK {
            return written;
        }
    }
    batch::OK
}

fn write_file(to: &str, bytes: &[u8]) -> u8 {
    match std::fs::write(to, bytes) {
        Ok(()) => batch::OK,
        Err(e) => {
            eprintln!("error: {to}: cannot write: {e}");
            batch::IO
        }
    }
}

/// Compare the assembled binary with `path` part by part; one line per part that is not the
/// same, on stdout, and exit 1 if there is one.
fn verify(ours: &[u8], path: &str) -> u8 {
    let theirs = match original(path) {
        Ok(b) => b,
        Err(status) => return status,
    };
    let report = match asm::compare(ours, &theirs) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}: {e}", display_name(path));
            return batch::IO;
        }
    };
    let mut out = String::new();
    for line in &report.lines {
        out.push_str(line);
        out.push('\n');
    }
    let status = batch::write_out(out.as_bytes());
    if status != batch::OK {
        return status;
    }
    if report.same { batch::OK } else { batch::INVALID }
}
