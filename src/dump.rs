//! `shaderscope dump`: every byte annotated.

use crate::batch::{self, Outcome, Settings};
use shaderscope::Container;
use shaderscope::dump::Annotations;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input file (`-` for stdin)
    file: String,
}

pub fn run(o: Opts) -> u8 {
    batch::run_each(std::slice::from_ref(&o.file), Settings::default(), |path, data, out| {
        match shaderscope::parse(data) {
            Err(e) => out.push(batch::parse_failure(path, &e, false)),
            Ok(file) => {
                let mut a = Annotations::new();
                file.annotate(&mut a);
                let mut s = String::with_capacity(data.len() * 8);
                s.push_str("  offset | bytes                   | meaning\n");
                a.render(data, &mut s);
                out.push(Outcome::out(s));
                batch::damage(path, &file, None, out);
            }
        }
    })
}
