//! `shaderscope extract`: list or pull out embedded parts.

use crate::batch::{self, Output};
use shaderscope::{Container, File};

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input file (`-` for stdin)
    file: String,
    /// The part to extract (its name in any case), or the name of a SHARCFB program: the
    /// shaders of one of its variations as a GFD `.gsh`; without it, the parts are listed
    part: Option<String>,
    /// With a SHARCFB program: set a variation macro (by its name or its ID) to one of its
    /// values; repeat for more. A macro not set takes the program's default
    #[arg(long = "set", value_name = "MACRO=VALUE", value_parser = crate::variant::setting)]
    set: Vec<(String, String)>,
    #[command(flatten)]
    out: batch::OutputArg,
}

pub fn run(o: Opts) -> u8 {
    let path = batch::display_name(&o.file).to_string();
    if o.part.is_none() && o.out.output.is_some() {
        eprintln!("error: -o needs a PART to write (`shaderscope extract {path}` lists the parts)");
        return batch::IO;
    }
    o.out.open();
    let data = match batch::read_input(&o.file, true) {
        Ok(d) => d,
        Err(r) => {
            eprint!("{}", r.text(&path));
            return r.status;
        }
    };
    let file = match shaderscope::parse(&data) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return batch::INVALID;
        }
    };
    // A damaged part makes the file invalid, whatever is extracted from it.
    let mut damage = Output::default();
    batch::damage(&path, &file, None, &mut damage);
    eprint!("{}", damage.stderr);
    let status = match o.part {
        None => {
            let mut s = String::from("part                 offset      size  description\n");
            for p in file.parts() {
                s.push_str(&format!("{:<18} {:>#9x} {:>9}  {}\n", p.name, p.offset, p.size(), p.description));
            }
            if let File::Sharcfb(a) = &file {
                for (p, size) in a.programs.items.iter().zip(a.default_gsh_sizes()) {
                    let size = size.map_or("-".into(), |n| n.to_string());
                    let what = "program: its default variation as a GFD .gsh (--set MACRO=VALUE for another)";
                    s.push_str(&format!("{:<18} {:>#9x} {size:>9}  {what}\n", p.name.text(), p.at));
                }
            }
            batch::write_text(&s)
        }
        Some(name) => match &file {
            File::Sharcfb(a) if file.part(&name).is_err() && a.program(&name).is_some() => {
                write_gsh(&path, a, &name, &o.set)
            }
            _ if !o.set.is_empty() => {
                eprintln!(
                    "error: {path}: --set applies to the program of a SHARCFB archive, and \"{name}\" is none"
                );
                batch::IO
            }
            _ => write_part(&path, &file, &name),
        },
    };
    status.max(damage.status)
}

/// Write the shaders one variation of SHARCFB program `program` resolves to, as a GFD file,
/// to the output (`-o`).
fn write_gsh(
    path: &str,
    archive: &shaderscope::format::sharcfb::Sharcfb,
    program: &str,
    set: &[(String, String)],
) -> u8 {
    let bytes = match archive.gsh(program, set) {
        Ok((_, bytes)) => bytes,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return if e.is_usage() { batch::IO } else { batch::INVALID };
        }
    };
    if batch::to_terminal() {
        eprintln!("error: {path}: refusing to write binary output to a terminal; use -o FILE");
        return batch::IO;
    }
    batch::write_out(&bytes)
}

/// Write the part named `name` (matched without regard to case) to the output (`-o`).
fn write_part(path: &str, file: &shaderscope::File<'_>, name: &str) -> u8 {
    let bytes = match file.part(name) {
        Ok(p) => p.bytes,
        Err(e) => {
            // The reason alone: the name is not in the file, there is no offset to show.
            eprintln!("error: {path}: {}", e.kind());
            return batch::IO;
        }
    };
    if batch::to_terminal() {
        eprintln!("error: {path}: refusing to write binary output to a terminal; use -o FILE");
        return batch::IO;
    }
    batch::write_out(&bytes)
}
