//! `shaderscope scan`: find every shader binary under folders — whole files, and ones embedded
//! by magic in any file (DXBC in executables and packs, DVLBs in CGFX/BCRES, GFD and SHARCFB
//! in SARC archives, also Yaz0-compressed) — one line per find, then a summary by format and
//! stage with duplicates counted by hash ([`shaderscope::find`] does the finding).
//!
//! Every file is read whole (within `--max-size`) and searched; files are worked on in
//! parallel (rayon, [`crate::batch`]) and printed in walk order. A broken find makes the scan
//! exit 1; an unreadable file, or a path named that is no regular file or folder (a device,
//! a FIFO), is reported once and the scan goes on (exit 2, as for every command).

use crate::batch::{self, Output, Settings};
use shaderscope::find::{self, Find};
use shaderscope::walk::{Entry, Walk};
use std::fmt::Write as _;
use std::io::Read;
use std::sync::Mutex;

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// Folders or files to search; `-` reads a list of paths from stdin (one a line, or
    /// NUL-separated as `find -print0` writes them)
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<String>,
    /// JSON Lines: one record per find, then a summary record (schema in
    /// schema/shaderscope.schema.json)
    #[arg(long)]
    json: bool,
    /// Also list files in which nothing was found
    #[arg(long)]
    all: bool,
    /// Follow each path by a NUL byte instead of a tab (for `xargs -0`)
    #[arg(short = '0', long = "null")]
    null: bool,
    /// Descend at most this many folders below each DIR (0: only DIR itself)
    #[arg(long, value_name = "NUM")]
    max_depth: Option<usize>,
    /// Follow symbolic links
    #[arg(short = 'L', long)]
    follow: bool,
    /// Worker threads (default: one per core)
    #[arg(short = 'j', long, value_name = "NUM")]
    threads: Option<usize>,
    /// Only files matching this glob (`*.szs`; `!GLOB` excludes); a glob without `/` matches
    /// the file name, else the path below DIR. May be repeated
    #[arg(short = 'g', long = "glob", value_name = "GLOB", allow_hyphen_values = true)]
    globs: Vec<String>,
    /// Write every find to this folder as a file named after its path and location
    #[arg(long, value_name = "DIR")]
    extract: Option<String>,
    #[command(flatten)]
    out: batch::OutputArg,
}

pub fn run(o: Opts) -> u8 {
    o.out.open();
    if let Some(n) = o.threads {
        // The global pool is built once per process; this is the first use of it.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(n.max(1)).build_global();
    }
    let walker = match Walk::new(&o.globs) {
        Ok(w) => w.with_max_depth(o.max_depth).with_follow(o.follow),
        Err(e) => {
            eprintln!("error: --glob: {e}");
            return batch::IO;
        }
    };
    if let Some(dir) = &o.extract {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: {dir}: cannot create the folder: {e}");
            return batch::IO;
        }
    }
    let (files, mut status) = walk(&o, &walker);
    let seen = Mutex::new(find::Summary::default());
    let settings = Settings { json: o.json, raw: true, ..Settings::default() };
    let sep = if o.null { Sep::Nul } else { Sep::Tab };
    status = status.max(batch::run_each(&files, settings, |path, data, out| {
        let mut any = false;
        let mut here = find::Summary::default();
        let cuts = find::each(data, &mut |f, bytes| {
            any = true;
            line(&o, path, sep, &f, out);
            if let Some(dir) = &o.extract {
                let name = extract_name(path, &f);
                let to = std::path::Path::new(dir).join(&name);
                if let Err(e) = std::fs::write(&to, bytes) {
                    out.fail(&to.display().to_string(), format!("cannot write: {e}"), batch::IO);
                }
            }
            here.add(&f);
        });
        // A person reads this in either mode, as the hint of an unread file.
        for c in cuts {
            let _ = writeln!(
                out.stderr,
                "warning: {path}: the Yaz0 stream at {} decodes to {} bytes; the first {} were searched \
                 (the streams of a file decode to at most 16 times its size together, at least 32 MiB, \
                 at most 256 MiB)",
                c.location(),
                c.size,
                c.decoded
            );
        }
        if !any && o.all && !o.json {
            out.stdout.push_str(path);
            sep.push(&mut out.stdout);
            out.stdout.push_str("-\tno shader binary found\n");
        }
        if let Ok(mut s) = seen.lock() {
            s.extend(here);
        }
    }));
    let seen = seen.into_inner().unwrap_or_default();
    let label = o.dirs.join(" ");
    let text = if o.json { seen.record(&label, files.len()).to_line() } else { seen.text(files.len()) };
    status.max(batch::write_out(text.as_bytes()))
}

/// The line (or JSON record) of one find; a broken one sets status 1.
fn line(o: &Opts, path: &str, sep: Sep, f: &Find, out: &mut Output) {
    if f.problem.is_some() {
        out.status = out.status.max(batch::INVALID);
    }
    if o.json {
        out.stdout.push_str(&f.record(path).to_line());
        return;
    }
    let dash = |s: &str| if s.is_empty() { "-".to_string() } else { s.to_string() };
    let status = f.problem.as_ref().map_or_else(|| "ok".to_string(), |p| format!("invalid: {}", p.message));
    out.stdout.push_str(path);
    sep.push(&mut out.stdout);
    out.stdout.push_str(&format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{status}\n",
        f.location(),
        f.format.name(),
        dash(&f.stages.join(",")),
        f.model.as_deref().unwrap_or("-"),
        f.size,
        f.hash,
        f.hashes.as_ref().map_or_else(|| "-".to_string(), |h| h.pairs()),
    ));
}

/// Every file under the DIRs (and the paths `-` lists), as [`Walk`] meets them; paths passed
/// over (unreadable folders, devices named) are reported (status 2).
fn walk(o: &Opts, walk: &Walk) -> (Vec<String>, u8) {
    let mut roots = Vec::new();
    for d in &o.dirs {
        if d == "-" {
            let mut text = Vec::new();
            if let Err(e) = std::io::stdin().lock().read_to_end(&mut text) {
                eprintln!("error: <stdin>: {e}");
                return (Vec::new(), batch::IO);
            }
            let split = if text.contains(&0) { 0 } else { b'\n' };
            for p in text.split(|b| *b == split) {
                let p = String::from_utf8_lossy(p);
                let p = p.trim_end_matches('\r');
                if !p.is_empty() {
                    roots.push(p.to_string());
                }
            }
        } else {
            roots.push(d.clone());
        }
    }
    let mut files = Vec::new();
    let mut status = batch::OK;
    for root in &roots {
        for entry in walk.entries(root) {
            match entry {
                Entry::File(path) => files.push(path),
                other => {
                    eprintln!("error: {other}");
                    status = batch::IO;
                }
            }
        }
    }
    (files, status)
}

/// What follows a path in a text line: a tab, or with `--null` a NUL (the one control character
/// a text output writes on purpose: every other is escaped).
#[derive(Clone, Copy)]
enum Sep {
    Tab,
    Nul,
}

impl Sep {
    fn push(self, out: &mut shaderscope::print::TextBuf) {
        match self {
            Sep::Tab => out.push('\t'),
            Sep::Nul => out.push_nul(),
        }
    }
}

/// A file name for a find that no other find's can be: its path and location (SARC entry
/// names in it) with `%`, the path separators and the control characters escaped (`%25`,
/// `%2F`, `%1B`: it is one name inside the folder, never a path out of it), a leading `-` as
/// `%2D`, and its format's usual extension; a name too long for a file
/// system keeps its start and ends in the MD5 of the whole name.
fn extract_name(path: &str, f: &Find) -> String {
    let ext = f.format.extension();
    let escape = |s: &str| {
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            if matches!(c, '%' | '/' | '\\' | '\x7f') || shaderscope::print::needs_escape(c) {
                out.push_str(&format!("%{:02X}", c as u32));
            } else {
                out.push(c);
            }
        }
        out
    };
    let mut stem = format!("{}@{}", escape(path.trim_start_matches("./")), escape(&f.location()));
    // Not an option to whatever is run on the folder's files (`rm *`).
    if stem.starts_with('-') {
        stem.replace_range(..1, "%2D");
    }
    if stem.len() <= 200 {
        return format!("{stem}.{ext}");
    }
    let mut cut = 160;
    while !stem.is_char_boundary(cut) {
        cut -= 1;
    }
    let digest = find::md5_hex(stem.as_bytes());
    format!("{}~{digest}.{ext}", stem.get(..cut).unwrap_or(""))
}
