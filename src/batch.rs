//! Shared plumbing: reading inputs (`-` is stdin), running per-file work in parallel while
//! printing in input order, exit statuses, quiet exit on a closed pipe, colour decisions, and
//! JSON records.

use rayon::prelude::*;
use std::io::{self, IsTerminal, Read, Write};

/// Everything is fine.
pub const OK: u8 = 0;
/// An input is invalid.
pub const INVALID: u8 = 1;
/// Usage or I/O error.
pub const IO: u8 = 2;

/// Version of the `--json` record layout.
pub const SCHEMA: u32 = 1;

/// What one input produced.
#[derive(Default)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub status: u8,
}

impl Outcome {
    /// An outcome with only text on stdout.
    pub fn out(text: impl Into<Vec<u8>>) -> Self {
        Outcome { stdout: text.into(), ..Default::default() }
    }
    /// An outcome that failed with `status`, reporting `msg` for `path` on stderr.
    pub fn fail(path: &str, msg: impl std::fmt::Display, status: u8) -> Self {
        Outcome { stderr: format!("error: {path}: {msg}\n"), status, ..Default::default() }
    }
}

/// Read a whole input; `-` reads stdin.
pub fn read_input(path: &str) -> io::Result<Vec<u8>> {
    if path == "-" {
        let mut v = Vec::new();
        io::stdin().lock().read_to_end(&mut v)?;
        Ok(v)
    } else {
        std::fs::read(path)
    }
}

/// The name of an input in messages.
pub fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}

/// Run `work` on every input (in parallel, in bounded groups) and print the outcomes in input
/// order. Returns the worst status: 2 beats 1 beats 0. A closed stdout ends the run quietly.
pub fn run_all<F>(paths: &[String], work: F) -> u8
where
    F: Fn(&str, &[u8]) -> Outcome + Sync,
{
    let progress = progress_bar(paths.len());
    let mut status = OK;
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    // Groups bound the memory held by finished-but-unprinted outcomes.
    for group in paths.chunks(256) {
        let outcomes: Vec<Outcome> = group
            .par_iter()
            .map(|p| {
                let name = display_name(p);
                let o = match read_input(p) {
                    Ok(data) => work(name, &data),
                    Err(e) => Outcome::fail(name, format!("cannot read: {e}"), IO),
                };
                if let Some(pb) = &progress {
                    pb.inc(1);
                }
                o
            })
            .collect();
        for o in outcomes {
            if !o.stderr.is_empty() {
                if let Some(pb) = &progress {
                    pb.suspend(|| eprint!("{}", o.stderr));
                } else {
                    eprint!("{}", o.stderr);
                }
            }
            status = status.max(o.status);
            if let Err(e) = out.write_all(&o.stdout) {
                return broken_pipe_or(e, status);
            }
        }
    }
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    match out.flush() {
        Ok(()) => status,
        Err(e) => broken_pipe_or(e, status),
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

/// A JSON Lines record: `{"schema":1,"type":…,"path":…, …fields}`.
pub fn record(kind: &str, path: &str, fields: serde_json::Value) -> Vec<u8> {
    let mut m = serde_json::Map::new();
    m.insert("schema".into(), SCHEMA.into());
    m.insert("type".into(), kind.into());
    m.insert("path".into(), path.into());
    if let serde_json::Value::Object(f) = fields {
        m.extend(f);
    } else {
        m.insert("data".into(), fields);
    }
    let mut line = serde_json::to_vec(&serde_json::Value::Object(m)).unwrap_or_default();
    line.push(b'\n');
    line
}

/// The JSON record for a parse error.
pub fn error_record(path: &str, e: &shaderscope::Error) -> Vec<u8> {
    let kind = match e.kind() {
        shaderscope::ErrorKind::Truncated { .. } => "truncated",
        shaderscope::ErrorKind::BadMagic { .. } => "bad-magic",
        shaderscope::ErrorKind::OutOfBounds { .. } => "out-of-bounds",
        shaderscope::ErrorKind::Overflow => "overflow",
        shaderscope::ErrorKind::Unsupported(_) => "unsupported",
        _ => "invalid",
    };
    record(
        "error",
        path,
        serde_json::json!({"offset": e.offset(), "what": e.what(), "kind": kind, "message": e.to_string()}),
    )
}

/// Parse-failure outcome in text or JSON form.
pub fn parse_failure(path: &str, e: &shaderscope::Error, json: bool) -> Outcome {
    if json {
        Outcome { stdout: error_record(path, e), status: INVALID, stderr: String::new() }
    } else {
        Outcome::fail(path, e, INVALID)
    }
}
