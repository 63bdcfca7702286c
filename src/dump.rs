//! `shaderscope dump`: every byte annotated, written row by row as it is resolved.

use crate::batch;
use shaderscope::dump::{self, Annotations, json_string};
use shaderscope::page;
use shaderscope::print::{Ansi, Html};
use std::fmt;
use std::io::{self, Write};

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Input file (`-` for stdin)
    file: String,
    /// One JSON record: the format, whether the file is intact, what could not be read, and
    /// every row (section, field, note, unclaimed) with its absolute offset and length
    #[arg(long)]
    json: bool,
    /// A standalone HTML page: each row a line with its file offset in `data-offset`, every
    /// token coloured by kind
    #[arg(long, conflicts_with = "json")]
    html: bool,
    /// Colour the dump: `--color` alone or `--color=always` always, `--color=auto` (the
    /// default) when stdout is a terminal and NO_COLOR is unset, `--color=never` never
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value_t,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "always",
        conflicts_with_all = ["json", "html"]
    )]
    color: batch::ColorChoice,
    /// Only the bytes from this offset on (hex with 0x, or decimal)
    #[arg(long, value_name = "OFFSET", value_parser = batch::parse_offset)]
    start: Option<u64>,
    /// Only the bytes before this offset (hex with 0x, or decimal). A range that holds no
    /// byte, or reaches past the end of the file, is a usage error
    #[arg(long, value_name = "OFFSET", value_parser = batch::parse_offset)]
    stop: Option<u64>,
    #[command(flatten)]
    out: batch::OutputArg,
}

/// `fmt::Write` over an `io::Write`, keeping the I/O error that stopped it.
struct Sink<W> {
    out: W,
    error: Option<io::Error>,
}

impl<W: Write> Sink<W> {
    fn write_bytes(&mut self, b: &[u8]) -> fmt::Result {
        self.out.write_all(b).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }

    /// A row an [`Ansi`] sink coloured (its text escaped as it was written).
    fn write_ansi(&mut self, a: &Ansi) -> fmt::Result {
        self.write_bytes(a.out.as_bytes())
    }
}

/// Text with its control characters escaped, as every text output
/// ([`shaderscope::print::escape_control`]).
impl<W: Write> fmt::Write for Sink<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if !s.chars().any(shaderscope::print::needs_escape) {
            return self.write_bytes(s.as_bytes());
        }
        let mut safe = String::new();
        shaderscope::print::escape_control(s, &mut safe);
        self.write_bytes(safe.as_bytes())
    }
}

pub fn run(o: Opts) -> u8 {
    o.out.open();
    let json = o.json.then_some(shaderscope::json::RecordType::Dump);
    if let Some(t) = json {
        batch::json_records(t);
    }
    // Read as every command reads: an input that is no shader is refused from its first
    // bytes (a JSON error record with --json), `/dev/zero` and endless pipes included.
    let settings = batch::Settings { json: o.json, ..batch::Settings::default() };
    batch::run_each(std::slice::from_ref(&o.file), settings, |path, data, out| {
        let status = dump(&o, path, data, out);
        out.status = out.status.max(status);
    })
}

/// The dump of one input, written to stdout row by row; its messages go to `out`.
fn dump(o: &Opts, path: &str, data: &[u8], out: &mut batch::Output) -> u8 {
    // The range shown: one that holds no byte, or reaches past the end, is a usage error
    // (as `disasm --format`'s), not a dump of the header alone.
    if let Err(e) = shaderscope::bare::select(data, o.start, o.stop) {
        out.stderr.push_str(&format!("error: {path}: {e}\n"));
        return batch::IO;
    }
    // Without --stop, to the end of everything shown (what a cut file left unread too).
    let range = o.start.unwrap_or(0)..o.stop.unwrap_or(u64::MAX);
    let mut a = Annotations::new();
    let format = match shaderscope::annotate(data, &mut a) {
        Ok(f) => f,
        Err(e) => {
            let json = o.json.then_some(shaderscope::json::RecordType::Dump);
            let failure = batch::failure(path, data, &e, json);
            out.stderr.push_str(&failure.stderr);
            return failure.status.max(batch::write_out(failure.stdout.as_bytes()));
        }
    };
    let mut sink = Sink { out: io::BufWriter::with_capacity(1 << 16, batch::destination()), error: None };
    let written = if o.json {
        json(&mut sink, path, format, data, &a, range)
    } else if o.html {
        html(&mut sink, path, data, &a, range)
    } else if o.color.enabled() {
        // Each row coloured on its own and written as it is done: the output is never whole
        // in memory.
        let mut ansi = Ansi::default();
        let mut row = |p: &mut dyn FnMut(&mut Ansi) -> fmt::Result| {
            ansi.out.clear();
            p(&mut ansi)?;
            sink.write_ansi(&ansi)
        };
        row(&mut |p| dump::print_heading(data, p))
            .and_then(|()| a.rows(data, range, |r| row(&mut |p| dump::print_row(data, &r, p))))
    } else {
        a.render_range(data, range, &mut sink)
    };
    let status = if a.errors().next().is_some() { batch::INVALID } else { batch::OK };
    let flushed = written.map_err(|_| ()).and_then(|()| sink.out.flush().map_err(|e| sink.error = Some(e)));
    if flushed.is_err() {
        if let Some(e) = sink.error.take() {
            return batch::broken_pipe_or(e, status);
        }
    }
    if !o.json {
        for (_, message) in a.errors() {
            out.fail(path, message, batch::OK);
        }
    }
    status
}

/// A standalone HTML page of the dump, written a row at a time.
fn html(
    out: &mut dyn fmt::Write,
    path: &str,
    data: &[u8],
    a: &Annotations,
    range: std::ops::Range<u64>,
) -> fmt::Result {
    out.write_str(&page::listing_head(&format!("dump of {path}")))?;
    let mut section = page::Section::start(out, path)?;
    let mut each = |offset: Option<u64>, markup: &str| section.line(offset, markup);
    let mut h = Html::each_line(&mut each);
    dump::print_heading(data, &mut h)?;
    a.rows(data, range, |r| dump::print_row(data, &r, &mut h))?;
    h.finish();
    section.end()?;
    out.write_str(page::LISTING_TAIL)
}

/// The JSON record: the envelope of every record (`schema`, `type`: `dump`, `format`, `path`,
/// `valid`), then `size`, `errors` (what could not be read: offset and message) and `rows`
/// ([`Annotations::render_json`]), written as it goes.
fn json(
    out: &mut dyn fmt::Write,
    path: &str,
    format: shaderscope::Format,
    data: &[u8],
    a: &Annotations,
    range: std::ops::Range<u64>,
) -> fmt::Result {
    let mut head = format!(r#"{{"schema":{},"type":"dump","format":"#, shaderscope::json::SCHEMA_VERSION);
    json_string(&mut head, format.name());
    head.push_str(r#","path":"#);
    json_string(&mut head, path);
    let valid = a.errors().next().is_none();
    head.push_str(&format!(r#","valid":{valid},"size":{},"errors":["#, data.len()));
    for (i, (offset, message)) in a.errors().enumerate() {
        if i > 0 {
            head.push(',');
        }
        head.push_str(&format!(r#"{{"offset":{offset},"message":"#));
        json_string(&mut head, message);
        head.push('}');
    }
    head.push_str(r#"],"rows":"#);
    out.write_str(&head)?;
    a.render_json(data, range, out)?;
    out.write_str("}\n")
}
