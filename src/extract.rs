//! `shaderscope extract`: list or pull out embedded parts.

use crate::batch::{self, Output};
use shaderscope::Container;

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
            for p in file.program_gshs() {
                let size = p.size.map_or("-".into(), |n| n.to_string());
                let what = "program: its default variation as a GFD .gsh (--set MACRO=VALUE for another)";
                s.push_str(&format!("{:<18} {:>#9x} {size:>9}  {what}\n", p.name, p.offset));
            }
            batch::write_text(&s)
        }
        Some(name) => match file.extract(&name, &o.set) {
            Ok(_) if batch::to_terminal() => {
                eprintln!("error: {path}: refusing to write binary output to a terminal; use -o FILE");
                batch::IO
            }
            Ok(bytes) => batch::write_file(&bytes),
            Err(e) => {
                eprintln!("error: {path}: {e}");
                if e.is_usage() { batch::IO } else { batch::INVALID }
            }
        },
    };
    status.max(damage.status)
}
