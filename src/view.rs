//! `shaderscope view`: one standalone HTML page with the listing beside a hex view of the file,
//! linked both ways (`shaderscope::page::viewer`).

use crate::batch;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input file (`-` for stdin)
    file: String,
    /// The listing's options, as `disasm` takes them
    #[command(flatten)]
    listing: crate::disasm::ListingArgs,
    #[command(flatten)]
    out: batch::OutputArg,
}

pub fn run(o: Opts) -> u8 {
    o.out.open();
    let path = batch::display_name(&o.file).to_string();
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
    if let Err(usage) = o.listing.check(&file) {
        eprintln!("error: {path}: {usage}");
        return batch::IO;
    }
    let view = shaderscope::page::viewer(&file, &data, &path, &o.listing.options());
    let status = batch::write_out(view.html.as_bytes());
    // As `disasm` reports them: the error the listing stopped at (the page holds what was
    // listed before it, and says so), then every damaged part not said yet (the page notes
    // them too): the file is invalid for every command.
    let mut report = batch::Output::default();
    if let Some(e) = &view.error {
        report.fail(&path, e, batch::INVALID);
    }
    batch::damage(&path, &file, view.error.as_ref(), &mut report);
    eprint!("{}", report.stderr);
    status.max(report.status)
}
