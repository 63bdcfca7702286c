//! `shaderscope view`: one standalone HTML page with the listing beside a hex view of the file,
//! linked both ways (`shaderscope::page::write_viewer`), written to the output as it is made.

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
    let opts = o.listing.options();
    if let Err(usage) = opts.check(&file) {
        eprintln!("error: {path}: {usage}");
        return batch::IO;
    }
    let mut out = std::io::BufWriter::new(batch::destination());
    let view = shaderscope::page::write_viewer(&file, &data, &path, &opts, &mut out);
    // A closed pipe ends the page quietly, as every command's output.
    let status = view.io.map_or_else(|e| batch::broken_pipe_or(e, batch::OK), |()| batch::OK);
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
