//! Shared plumbing: running per-file work over inputs read through [`crate::input`] (on one
//! thread for short runs, on every core for long ones) while printing each file's output in
//! input order as it is done, exit statuses, quiet exit on a closed pipe, colour decisions, and
//! JSON records.

use crate::input::{self, Refusal};
use shaderscope::Container;
use shaderscope::json::{ErrorInfo, Record, RecordType};
use shaderscope::print::TextBuf;
use std::io::{self, IsTerminal, Write};
use std::sync::OnceLock;

/// `-o FILE`: where a command's output goes instead of stdout (the same option, the same text
/// and the same behaviour for every command that prints).
#[derive(clap::Args, Debug, Default)]
pub struct OutputArg {
    /// Write the output to this file instead of stdout (created or truncated; `-` is stdout)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
}

impl OutputArg {
    /// Send this run's output to the file `-o` names, if any (`-o -` is stdout, as for
    /// `asm`). The file is created (or truncated) when the first output is written, so a
    /// command that has nothing to write, such as one whose input does not parse, leaves no
    /// file behind.
    pub fn open(&self) {
        if let Some(path) = self.output.as_ref().filter(|p| *p != "-") {
            let _ = OUTPUT_PATH.set(path.clone());
        }
    }
}

/// The file `-o` named ([`OutputArg::open`]).
static OUTPUT_PATH: OnceLock<String> = OnceLock::new();
/// That file, once the first output is written to it (or why it could not be created).
static OUTPUT_FILE: OnceLock<Result<std::fs::File, String>> = OnceLock::new();

/// Where this run's output goes: the `-o` file (created on the first call), or stdout. A file
/// that cannot be created gives a writer whose writes fail with the file's name and the reason.
pub fn destination() -> Box<dyn Write> {
    let Some(path) = OUTPUT_PATH.get() else { return Box::new(io::stdout().lock()) };
    let file = OUTPUT_FILE.get_or_init(|| std::fs::File::create(path).map_err(|e| format!("{path}: {e}")));
    match file {
        Ok(f) => Box::new(f),
        Err(why) => Box::new(Unwritable(why)),
    }
}

/// Flush what was written to the output. A `-o` file is written unbuffered, and is not
/// created by a flush when nothing was written to it.
fn flush_output() -> io::Result<()> {
    match OUTPUT_PATH.get() {
        Some(_) => Ok(()),
        None => io::stdout().lock().flush(),
    }
}

/// The output file that could not be created: every write says why.
struct Unwritable(&'static String);

impl Write for Unwritable {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::other(self.0.clone()))
    }
    fn flush(&mut self) -> io::Result<()> {
        Err(io::Error::other(self.0.clone()))
    }
}

/// Whether the output goes to a terminal (never when `-o` names a file).
pub fn to_terminal() -> bool {
    OUTPUT_PATH.get().is_none() && io::stdout().is_terminal()
}

/// A byte offset option (`--start`, `--stop`): `0x` and hexadecimal digits, or decimal.
pub fn parse_offset(s: &str) -> Result<u64, String> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    };
    parsed.map_err(|_| format!("`{s}` is not a byte offset (0x1c or 28)"))
}

/// Everything is fine.
pub const OK: u8 = 0;
/// An input cannot be used as asked: it is invalid (it does not parse, or a part of it is
/// damaged), a check fails (a finding, a checksum mismatch, a re-encoding that differs), or its
/// format is recognised but not supported yet (said so, not called invalid).
pub const INVALID: u8 = 1;
/// Usage or I/O error: an option that does not apply to the file's format, a program index
/// out of range, a missing or unreadable file, the size limit, `-` named twice.
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
/// that goes to stdout), messages to `stderr`, and the worst status so far to `status`. The
/// text is made for a terminal: its control characters are escaped as it is appended
/// ([`TextBuf::for_terminal`]), and so are the messages when printed ([`eprint_text`]).
///
/// Output written through [`io::Write`] (the JSON records and HTML pages the library writes
/// field by field) goes out in blocks of [`FLUSH_AT`] while the file is worked on when the
/// run is printing in input order on this thread ([`Output::streaming`]): one file's output
/// is never held whole, however large. A parallel run holds each file's output until its turn.
pub struct Output {
    pub stdout: TextBuf,
    pub stderr: String,
    pub status: u8,
    /// Whether stdout text is written out as it grows (the sequential part of a run).
    streaming: bool,
    /// The output was closed (`| head`): nothing more is written.
    closed: bool,
}

impl Default for Output {
    fn default() -> Self {
        Output {
            stdout: TextBuf::for_terminal(),
            stderr: String::new(),
            status: OK,
            streaming: false,
            closed: false,
        }
    }
}

impl Output {
    /// An output whose stdout text goes out in blocks as it is written ([`io::Write`]).
    pub fn streaming() -> Self {
        Output { streaming: true, ..Output::default() }
    }
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
    /// In the sequential part of a run, send the stdout text out once a block of it is made.
    fn stream_out(&mut self) {
        if self.streaming && self.stdout.len() >= FLUSH_AT {
            self.write_stdout();
        }
    }
    /// Write the stdout text so far to the output and empty it; a closed pipe ends the writing
    /// quietly (every later text is dropped), another error is exit status 2.
    fn write_stdout(&mut self) {
        if !self.stdout.is_empty() && !self.closed {
            if let Err(e) = destination().write_all(self.stdout.as_bytes()) {
                self.status = broken_pipe_or(e, self.status);
                self.closed = true;
            }
        }
        self.stdout.clear();
    }
}

/// What the library's record and page writers write: text that is already safe (JSON escapes
/// control characters, HTML pages escape them as the text sinks do), appended as it is.
impl io::Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stdout.push_bytes(buf);
        self.stream_out();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the library's text summaries write ([`shaderscope::Container::write_info_text`]),
/// escaped for a terminal as every text is. Once the output is closed (`| head`) a write
/// fails, so the writer stops early; the run's status already says why.
impl std::fmt::Write for Output {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.closed {
            return Err(std::fmt::Error);
        }
        self.stdout.push_str(s);
        self.stream_out();
        Ok(())
    }
}

/// How a run reads its inputs and reports the ones it cannot read.
#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    /// The command prints JSON Lines: an input refused for what its first bytes are (empty,
    /// not a shader, not supported yet) gives an error record on stdout instead of a message.
    pub json: bool,
    /// `scan`: an input that is no format this build reads is not refused; its first bytes
    /// (at most [`shaderscope::Format::HEAD`]) are given to the work, the rest is not read.
    pub heads: bool,
    /// `disasm --format`: every input is read whole whatever its first bytes are (a bare
    /// program has no magic).
    pub raw: bool,
}

/// A reusable buffer that holds the contents of a whole group of inputs back to back, read
/// through [`crate::input`] (first bytes, then the rest within the size limit). One buffer for
/// the group (rather than one per file) grows to about the size of a group's inputs, not to
/// the largest file each slot ever saw.
#[derive(Default)]
struct Inputs {
    buf: Vec<u8>,
    /// Where each input of the group is in `buf`, or why it was not read.
    spans: Vec<Result<std::ops::Range<usize>, Refusal>>,
}

impl Inputs {
    /// Read every input of a group, replacing the previous group.
    fn read_group(&mut self, files: &[String], settings: Settings) {
        self.buf.clear();
        self.spans.clear();
        for path in files {
            let start = self.buf.len();
            let r = if settings.raw {
                input::read_raw(path, &mut self.buf)
            } else if settings.heads {
                input::read_or_head(path, &mut self.buf)
            } else {
                input::read(path, &mut self.buf).map(|_| ())
            };
            self.spans.push(r.map(|()| start..self.buf.len()));
        }
    }

    /// Let go of a buffer that grew past [`INPUT_KEEP`] for a rare huge input.
    fn trim(&mut self) {
        if self.buf.capacity() > INPUT_KEEP {
            *self = Inputs::default();
        }
    }
}

/// Report an input that was not read. A refusal for what the first bytes are is a JSON error
/// record in JSON mode; I/O errors (a missing file, the size limit) are messages on stderr.
// The JSON records of missing and unreadable inputs are to come (a record with `valid: false`
// for every refusal): this is the one place that decides.
fn refused(path: &str, r: Refusal, settings: Settings, out: &mut Output) {
    // The hint is for a person: on stderr in either mode.
    let hint = r.hint.clone().unwrap_or_default();
    if !settings.json {
        out.fail(path, r.message, r.status);
        return out.stderr.push_str(&hint);
    }
    // Under --json every input gets its record, an unread one with `valid: false`; an I/O
    // failure (no error of the file's own) is also said on stderr.
    let t = JSON_RECORDS.get().copied().unwrap_or(RecordType::Info);
    let error =
        r.error.as_ref().map_or_else(|| ErrorInfo::other("io", r.message.clone()), ErrorInfo::from_error);
    let record = Record::failure(t, path, None, error).to_line();
    match r.error {
        Some(_) => out.push(Outcome { stdout: record, status: r.status, stderr: hint }),
        None => {
            out.stdout.push_str(&record);
            out.fail(path, r.message, r.status)
        }
    }
}

/// One whole input (a file or `-`) within the size limit, for the commands that take one
/// file: with `recognise`, refused at once when its first bytes are no format this build reads
/// ([`input::read`]); without, whatever its bytes are ([`input::read_raw`]).
pub fn read_input(path: &str, recognise: bool) -> Result<Vec<u8>, Refusal> {
    let mut buf = Vec::new();
    if recognise { input::read(path, &mut buf).map(|_| ()) } else { input::read_raw(path, &mut buf) }
        .map(|()| buf)
}

/// Standard input can be read once: `-` named twice is a usage error.
pub fn stdin_once(paths: &[String]) -> Result<(), u8> {
    if paths.iter().filter(|p| *p == "-").count() > 1 {
        eprintln!("error: `-` (standard input) is named more than once; it can be read only once");
        return Err(IO);
    }
    Ok(())
}

/// The name of an input in messages.
pub fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}

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
#[allow(dead_code)] // for commands that give one outcome per file
pub fn run_all<F>(paths: &[String], settings: Settings, work: F) -> u8
where
    F: Fn(&str, &[u8]) -> Outcome + Sync,
{
    run_each(paths, settings, |path, data, out| out.push(work(path, data)))
}

/// Run `work` on every input, each appending to one [`Output`], and print in input order.
/// Returns the worst status: 2 beats 1 beats 0. A closed stdout ends the run quietly.
pub fn run_each<F>(paths: &[String], settings: Settings, work: F) -> u8
where
    F: Fn(&str, &[u8], &mut Output) + Sync,
{
    run_grouped(
        paths,
        settings,
        |_| Vec::<()>::new(),
        |path, data, _: Option<&()>, out| work(path, data, out),
    )
}

/// [`run_each`] with a step over each group of [`GROUP`] inputs before they are worked on:
/// `prepare` gets the contents of the group's readable inputs and returns one value per input
/// (in order) that `work` then receives with it. It serves work that is cheaper done for many
/// files at once ([`shaderscope::prepare`]).
///
/// Every input is read through [`crate::input`] (refused from its first bytes when it is no
/// shader, bounded by `--max-size`); `-` may be named once. Groups are done one after the
/// other on this thread, reading into reused buffers, and each file's output goes to stdout
/// as soon as it is done (in blocks of [`FLUSH_AT`]); once the run has read [`PARALLEL_AFTER`]
/// bytes, the remaining groups are shared among all cores and printed in order.
pub fn run_grouped<P, S, F>(paths: &[String], settings: Settings, prepare: P, work: F) -> u8
where
    P: Fn(&[&[u8]]) -> Vec<S> + Sync,
    F: Fn(&str, &[u8], Option<&S>, &mut Output) + Sync,
{
    if let Err(status) = stdin_once(paths) {
        return status;
    }
    let progress = progress_bar(paths.len());
    let mut run = Run { status: OK, progress, closed: false };
    let mut inputs = Inputs::default();
    let mut out = Output::streaming();
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
                    parallel(&rest, settings, &prepare, &work, threads, &mut run);
                }
                return run.finish();
            }
        }
        // Each file's output is printed once it is done (when there is a block of it, or a
        // message), so a batch never holds more than one file's output and a block.
        let mut after_each = |out: &mut Output| {
            if !out.stderr.is_empty() || out.stdout.len() >= FLUSH_AT {
                run.emit(out);
            }
            !run.closed
        };
        read += group(files, settings, &mut inputs, &prepare, &work, &mut out, &mut after_each);
        if let Some(pb) = &run.progress {
            pb.inc(files.len() as u64);
        }
        if run.closed {
            return run.finish();
        }
    }
    run.emit(&mut out);
    run.finish()
}

/// Read a group of inputs (into `inputs`, reused), prepare them, and run `work` on each,
/// calling `after_each` after each input (it returns false to stop: stdout is closed).
/// Returns the number of bytes read.
fn group<P, S, F>(
    files: &[String],
    settings: Settings,
    inputs: &mut Inputs,
    prepare: &P,
    work: &F,
    out: &mut Output,
    after_each: &mut dyn FnMut(&mut Output) -> bool,
) -> u64
where
    P: Fn(&[&[u8]]) -> Vec<S>,
    F: Fn(&str, &[u8], Option<&S>, &mut Output),
{
    inputs.read_group(files, settings);
    let Inputs { buf, spans } = &mut *inputs;
    let data = |span: &std::ops::Range<usize>| buf.get(span.clone()).unwrap_or(&[]);
    let readable: Vec<&[u8]> = spans.iter().filter_map(|r| r.as_ref().ok()).map(data).collect();
    let bytes = readable.iter().map(|d| d.len() as u64).sum();
    let prepared = prepare(&readable);
    let mut next = prepared.iter();
    for (path, r) in files.iter().zip(spans.drain(..)) {
        let name = display_name(path);
        match r {
            Ok(span) => work(name, data(&span), next.next(), out),
            Err(r) => refused(name, r, settings, out),
        }
        if !after_each(out) {
            break;
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
    status: u8,
    progress: Option<indicatif::ProgressBar>,
    closed: bool,
}

impl Run {
    /// Print and empty `out`; remember its status.
    fn emit(&mut self, out: &mut Output) {
        if !out.stderr.is_empty() {
            if let Some(pb) = &self.progress {
                pb.suspend(|| eprint!("{}", out.stderr));
            } else {
                eprint!("{}", out.stderr);
            }
            out.stderr.clear();
        }
        out.closed |= self.closed;
        out.write_stdout();
        self.closed = out.closed;
        self.status = self.status.max(out.status);
        out.status = OK;
    }

    fn finish(mut self) -> u8 {
        if let Some(pb) = self.progress.take() {
            pb.finish_and_clear();
        }
        if self.closed {
            return self.status;
        }
        match flush_output() {
            Ok(()) => self.status,
            Err(e) => broken_pipe_or(e, self.status),
        }
    }
}

/// The rest of a long run on all cores (rayon), a window of groups at a time, printed in input
/// order. Each worker thread keeps its own reusable input buffer.
fn parallel<P, S, F>(
    chunks: &[&[String]],
    settings: Settings,
    prepare: &P,
    work: &F,
    threads: usize,
    run: &mut Run,
) where
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
                group(files, settings, inputs, prepare, work, &mut out, &mut |_| true);
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

/// Write text to the output ([`write_out`]) with its control characters escaped, as every
/// text output ([`shaderscope::print::escape_control`]; the batch's [`TextBuf`] does it as it
/// is written).
pub fn write_text(text: &str) -> u8 {
    let mut safe = String::with_capacity(text.len());
    shaderscope::print::escape_control(text, &mut safe);
    write_out(safe.as_bytes())
}

/// What `eprint!` and `eprintln!` (the crate's own, in main.rs) write: the text with its
/// control characters escaped, so no string of a file reaches the terminal raw through a
/// message.
pub fn eprint_text(text: std::fmt::Arguments<'_>) {
    let mut safe = String::new();
    shaderscope::print::escape_control(&text.to_string(), &mut safe);
    let _ = io::stderr().lock().write_all(safe.as_bytes());
}

/// Write bytes to the output ([`destination`]), handling a closed pipe.
pub fn write_out(bytes: &[u8]) -> u8 {
    if bytes.is_empty() {
        return OK;
    }
    write_file(bytes)
}

/// Write `bytes` as the whole output: a `-o` file is created even when they are none (an
/// empty part that `extract` writes is still a file).
pub fn write_file(bytes: &[u8]) -> u8 {
    // The flush reports a `-o` file that could not be created when there is nothing to write.
    let mut out = destination();
    match out.write_all(bytes).and_then(|()| out.flush()) {
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
    /// Whether to colour the output.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                to_terminal()
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
    Record::failure(t, path, shaderscope::Format::of(data), ErrorInfo::from_error(e)).to_line()
}

/// Parse-failure outcome of `data`: the message on stderr, or with `json` the error record
/// on stdout (naming the format when `data`'s first bytes are recognised).
pub fn failure(path: &str, data: &[u8], e: &shaderscope::Error, json: Option<RecordType>) -> Outcome {
    match json {
        Some(t) => Outcome { stdout: error_record(t, path, data, e), status: INVALID, stderr: String::new() },
        None => Outcome::fail(path, e, INVALID),
    }
}

/// What writing one JSON record into `out` gave: a record that says its input is not valid
/// makes the status invalid; a record that could not be written is an I/O error.
pub fn record_written(path: &str, written: io::Result<bool>, out: &mut Output) {
    match written {
        Ok(true) => {}
        Ok(false) => out.status = out.status.max(INVALID),
        Err(e) => out.fail(path, format_args!("cannot write the record: {e}"), IO),
    }
}

/// Report the damaged parts of a parsed file ([`Container::damage`]), each as an error on
/// stderr, and mark the input invalid: every command exits 1 on such a file. `reported` is an
/// error the command has printed already (it is not repeated).
pub fn damage(path: &str, file: &dyn Container, reported: Option<&shaderscope::Error>, out: &mut Output) {
    for e in file.damage() {
        if Some(&e) != reported {
            out.fail(path, e, INVALID);
        }
        out.status = out.status.max(INVALID);
    }
}
