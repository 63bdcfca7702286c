//! Shared plumbing: reading inputs (`-` is stdin), running per-file work (on one thread for
//! short runs, on every core for long ones) while printing in input order, exit statuses, quiet exit on a closed pipe, colour decisions, and
//! JSON records.

use shaderscope::json::{ErrorInfo, Record, RecordType};
use shaderscope::print::TextBuf;
use std::io::{self, IsTerminal, Read, Write};
use std::sync::OnceLock;

/// Everything is fine.
pub const OK: u8 = 0;
/// An input is invalid.
pub const INVALID: u8 = 1;
/// Usage or I/O error.
pub const IO: u8 = 2;

/// What one input produced.
#[derive(Default)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub status: u8,
}

impl Outcome {
    /// An outcome with only text on stdout.
    pub fn out(text: impl Into<String>) -> Self {
        Outcome { stdout: text.into(), ..Default::default() }
    }
    /// An outcome that failed with `status`, reporting `msg` for `path` on stderr.
    pub fn fail(path: &str, msg: impl std::fmt::Display, status: u8) -> Self {
        Outcome { stderr: format!("error: {path}: {msg}\n"), status, ..Default::default() }
    }
}

/// Where per-file work writes: text for stdout is appended to `stdout` (shared by every file
/// of a run or of a parallel chunk, so a listing is written once, straight into the buffer
/// that goes to stdout), messages to `stderr`, and the worst status so far to `status`.
#[derive(Default)]
pub struct Output {
    pub stdout: TextBuf,
    pub stderr: String,
    pub status: u8,
}

impl Output {
    /// Append what an [`Outcome`] says.
    pub fn push(&mut self, o: Outcome) {
        self.stdout.push_str(&o.stdout);
        self.stderr.push_str(&o.stderr);
        self.status = self.status.max(o.status);
    }
    /// Report a failure of `path` with `status`.
    pub fn fail(&mut self, path: &str, msg: impl std::fmt::Display, status: u8) {
        use std::fmt::Write as _;
        let _ = writeln!(self.stderr, "error: {path}: {msg}");
        self.status = self.status.max(status);
    }
}

/// Read a whole input; `-` reads stdin.
pub fn read_input(path: &str) -> io::Result<Vec<u8>> {
    let mut inputs = Inputs::default();
    inputs.append(path)?;
    inputs.buf.truncate(inputs.used);
    Ok(inputs.buf)
}

/// A reusable buffer that holds the contents of a whole group of inputs back to back. Its
/// vector is kept initialised to its full length (the data is its first `used` bytes), so
/// reading the next file into it needs no zeroing, no allocation, and no size query: open,
/// read until end of file, close. One buffer for the group (rather than one per file) grows
/// to about the size of a group's inputs, not to the largest file each slot ever saw.
#[derive(Default)]
struct Inputs {
    buf: Vec<u8>,
    used: usize,
    /// Where each input of the group is in `buf`, or why it could not be read.
    spans: Vec<io::Result<std::ops::Range<usize>>>,
}

impl Inputs {
    /// Read every input of a group, replacing the previous group.
    fn read_group(&mut self, files: &[String]) {
        self.used = 0;
        self.spans.clear();
        for path in files {
            let start = self.used;
            let span = self.append(path).map(|()| start..self.used);
            if span.is_err() {
                self.used = start;
            }
            self.spans.push(span);
        }
    }

    /// Read a whole input after the data so far; `-` reads stdin.
    fn append(&mut self, path: &str) -> io::Result<()> {
        if path == "-" {
            return self.read_to_end(&mut io::stdin().lock());
        }
        self.read_to_end(&mut std::fs::File::open(path)?)
    }

    /// Read `r` to its end after the data so far, straight into the buffer.
    fn read_to_end(&mut self, r: &mut impl Read) -> io::Result<()> {
        loop {
            if self.used == self.buf.len() {
                self.grow();
            }
            match r.read(self.buf.get_mut(self.used..).unwrap_or(&mut [])) {
                Ok(0) => return Ok(()),
                Ok(n) => self.used += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Double the room (the new half is zeroed once, then reused by every later group).
    fn grow(&mut self) {
        let len = (2 * self.buf.len()).max(INPUT_BUFFER);
        self.buf.resize(len, 0);
    }

    /// Let go of a buffer that grew past [`INPUT_KEEP`] for a rare huge input.
    fn trim(&mut self) {
        if self.buf.len() > INPUT_KEEP {
            *self = Inputs::default();
        }
    }
}

/// The name of an input in messages.
pub fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}

/// Room first given to a group's input buffer (a group of DXBC files is typically tens of KiB).
const INPUT_BUFFER: usize = 1 << 16;
/// A buffer that grew past this for a rare huge input is released after its group.
const INPUT_KEEP: usize = 1 << 22;
/// Stdout text is handed to the OS in blocks of about this size.
const FLUSH_AT: usize = 1 << 16;
/// A run that has read this much input continues on every core (16 MiB is about a fifth of a
/// second of single-core work for DXBC listings). Smaller runs stay on one thread: each file
/// takes microseconds, and threads would only add CPU time (start-up, hand-offs, one
/// allocator arena each) to a run that is over in the blink of an eye. Counting bytes rather
/// than time keeps the choice the same on a busy machine.
/// `SHADERSCOPE_PARALLEL_AFTER` (bytes) overrides it; tests use 0 to exercise the parallel path.
const PARALLEL_AFTER: u64 = 16 << 20;
/// Files read, prepared and worked on together; also the unit of parallel work.
const GROUP: usize = 32;

fn parallel_after() -> u64 {
    std::env::var("SHADERSCOPE_PARALLEL_AFTER").ok().and_then(|v| v.parse().ok()).unwrap_or(PARALLEL_AFTER)
}

/// Run `work` on every input and print the outcomes in input order. Returns the worst status:
/// 2 beats 1 beats 0. A closed stdout ends the run quietly.
pub fn run_all<F>(paths: &[String], work: F) -> u8
where
    F: Fn(&str, &[u8]) -> Outcome + Sync,
{
    run_each(paths, |path, data, out| out.push(work(path, data)))
}

/// Run `work` on every input, each appending to one [`Output`], and print in input order.
/// Returns the worst status: 2 beats 1 beats 0. A closed stdout ends the run quietly.
pub fn run_each<F>(paths: &[String], work: F) -> u8
where
    F: Fn(&str, &[u8], &mut Output) + Sync,
{
    run_grouped(paths, |_| Vec::<()>::new(), |path, data, _: Option<&()>, out| work(path, data, out))
}

/// [`run_each`] with a step over each group of [`GROUP`] inputs before they are worked on:
/// `prepare` gets the contents of the group's readable inputs and returns one value per input
/// (in order) that `work` then receives with it. It serves work that is cheaper done for many
/// files at once (the DXBC checksums of a group are hashed side by side).
///
/// Groups are done one after the other on this thread, reading into reused buffers and
/// writing into one output buffer; once the run has read [`PARALLEL_AFTER`] bytes, the remaining
/// groups are shared among all cores and printed in order.
pub fn run_grouped<P, S, F>(paths: &[String], prepare: P, work: F) -> u8
where
    P: Fn(&[&[u8]]) -> Vec<S> + Sync,
    F: Fn(&str, &[u8], Option<&S>, &mut Output) + Sync,
{
    let progress = progress_bar(paths.len());
    let mut run = Run { stdout: io::stdout(), status: OK, progress, closed: false };
    let mut inputs = Inputs::default();
    let mut out = Output::default();
    let mut read = 0u64;
    let parallel_after = parallel_after();
    let mut groups = paths.chunks(GROUP).enumerate();
    while let Some((g, files)) = groups.next() {
        let left = paths.len() - g * GROUP;
        if g > 0 && left > 2 * GROUP && read >= parallel_after {
            if let Some(threads) = helpers() {
                run.emit(&mut out);
                if !run.closed {
                    let rest: Vec<&[String]> = std::iter::once(files).chain(groups.map(|(_, f)| f)).collect();
                    parallel(&rest, &prepare, &work, threads, &mut run);
                }
                return run.finish();
            }
        }
        read += group(files, &mut inputs, &prepare, &work, &mut out);
        if let Some(pb) = &run.progress {
            pb.inc(files.len() as u64);
        }
        if !out.stderr.is_empty() || out.stdout.len() >= FLUSH_AT {
            run.emit(&mut out);
            if run.closed {
                return run.finish();
            }
        }
    }
    run.emit(&mut out);
    run.finish()
}

/// Read a group of inputs (into `inputs`, reused), prepare them, and run `work` on each.
/// Returns the number of bytes read.
fn group<P, S, F>(files: &[String], inputs: &mut Inputs, prepare: &P, work: &F, out: &mut Output) -> u64
where
    P: Fn(&[&[u8]]) -> Vec<S>,
    F: Fn(&str, &[u8], Option<&S>, &mut Output),
{
    inputs.read_group(files);
    let Inputs { buf, spans, .. } = &mut *inputs;
    let data = |span: &std::ops::Range<usize>| buf.get(span.clone()).unwrap_or(&[]);
    let readable: Vec<&[u8]> = spans.iter().filter_map(|r| r.as_ref().ok()).map(data).collect();
    let bytes = readable.iter().map(|d| d.len() as u64).sum();
    let prepared = prepare(&readable);
    let mut next = prepared.iter();
    for (path, r) in files.iter().zip(spans.drain(..)) {
        let name = display_name(path);
        match r {
            Ok(span) => work(name, data(&span), next.next(), out),
            Err(e) => {
                let message = format!("cannot read: {e}");
                if let Some(&t) = JSON_RECORDS.get() {
                    let r = Record::failure(t, name, None, ErrorInfo::other("io", message.clone()));
                    out.stdout.push_str(&r.to_line());
                }
                out.fail(name, message, IO)
            }
        }
    }
    // A rare huge input should not pin its buffer for the rest of the run.
    inputs.trim();
    bytes
}

/// Worker threads for the parallel part, when the machine has more than one core.
fn helpers() -> Option<usize> {
    let n = rayon::current_num_threads();
    (n > 1).then_some(n)
}

/// The printing side of a run.
struct Run {
    stdout: io::Stdout,
    status: u8,
    progress: Option<indicatif::ProgressBar>,
    closed: bool,
}

impl Run {
    /// Print and empty `out`; remember its status.
    fn emit(&mut self, out: &mut Output) {
        self.status = self.status.max(out.status);
        out.status = OK;
        if !out.stderr.is_empty() {
            if let Some(pb) = &self.progress {
                pb.suspend(|| eprint!("{}", out.stderr));
            } else {
                eprint!("{}", out.stderr);
            }
            out.stderr.clear();
        }
        if !out.stdout.is_empty() && !self.closed {
            if let Err(e) = self.stdout.lock().write_all(out.stdout.as_bytes()) {
                self.status = broken_pipe_or(e, self.status);
                self.closed = true;
            }
        }
        out.stdout.clear();
    }

    fn finish(mut self) -> u8 {
        if let Some(pb) = self.progress.take() {
            pb.finish_and_clear();
        }
        if self.closed {
            return self.status;
        }
        match self.stdout.lock().flush() {
            Ok(()) => self.status,
            Err(e) => broken_pipe_or(e, self.status),
        }
    }
}

/// The rest of a long run on all cores (rayon), a window of groups at a time, printed in input
/// order. Each worker thread keeps its own reusable input buffer.
fn parallel<P, S, F>(chunks: &[&[String]], prepare: &P, work: &F, threads: usize, run: &mut Run)
where
    P: Fn(&[&[u8]]) -> Vec<S> + Sync,
    F: Fn(&str, &[u8], Option<&S>, &mut Output) + Sync,
{
    use rayon::prelude::*;
    // A few groups per thread in flight bounds the memory of finished, unprinted output.
    for window in chunks.chunks(4 * threads) {
        let outs: Vec<Output> = window
            .par_iter()
            .map_init(Inputs::default, |inputs, files| {
                let mut out = Output::default();
                group(files, inputs, prepare, work, &mut out);
                out
            })
            .collect();
        for (files, mut out) in window.iter().zip(outs) {
            if let Some(pb) = &run.progress {
                pb.inc(files.len() as u64);
            }
            run.emit(&mut out);
            if run.closed {
                return;
            }
        }
    }
}

/// A closed pipe (`| head`) ends quietly with the status so far; anything else is an I/O error.
pub fn broken_pipe_or(e: io::Error, status: u8) -> u8 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        status
    } else {
        eprintln!("error: cannot write output: {e}");
        IO
    }
}

/// Write bytes to stdout, handling a closed pipe.
pub fn write_stdout(bytes: &[u8]) -> u8 {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => OK,
        Err(e) => broken_pipe_or(e, OK),
    }
}

fn progress_bar(n: usize) -> Option<indicatif::ProgressBar> {
    if n < 50 || !io::stderr().is_terminal() {
        return None;
    }
    let pb = indicatif::ProgressBar::new(n as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed}") {
        pb.set_style(style);
    }
    Some(pb)
}

/// When to colour output.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour stdout.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none()
                    && std::env::var("TERM").map(|t| t != "dumb").unwrap_or(true)
            }
        }
    }
}

/// The kind of JSON record this run writes, when it writes JSON: an input that cannot be read
/// then gets a record too (`valid: false`, error kind `io`), besides the message on stderr.
static JSON_RECORDS: OnceLock<RecordType> = OnceLock::new();

/// Say that this run writes JSON records of type `t` (once, before the run).
pub fn json_records(t: RecordType) {
    let _ = JSON_RECORDS.set(t);
}

/// The JSON record of an input that failed to parse (`valid: false`, with the error and its
/// offset); `data` names the format when its first bytes are recognised.
pub fn error_record(t: RecordType, path: &str, data: &[u8], e: &shaderscope::Error) -> String {
    Record::failure(t, path, shaderscope::detect(data), ErrorInfo::from_error(e)).to_line()
}

/// Parse-failure outcome of `data`: the message on stderr, or with `json` the error record
/// on stdout (naming the format when `data`'s first bytes are recognised).
pub fn failure(path: &str, data: &[u8], e: &shaderscope::Error, json: Option<RecordType>) -> Outcome {
    match json {
        Some(t) => Outcome { stdout: error_record(t, path, data, e), status: INVALID, stderr: String::new() },
        None => Outcome::fail(path, e, INVALID),
    }
}
