//! Shared helpers for tests that read the real-file corpus in `../shared/corpus`; the
//! library's own unit tests include this file too (`lib.rs`, `test_corpus`).
//!
//! The corpus path comes from `SHADERSCOPE_CORPUS`, defaulting to `../shared/corpus` beside the
//! project. A relative `SHADERSCOPE_CORPUS` is taken from the folder the command runs in
//! ([`invoking_dir`]), not from the crate folder cargo runs each test binary in. Where the
//! corpus is absent a test skips (its `skipped: corpus not found` line is captured like any
//! test output); `tests/corpus.rs` says it once where it shows without `--nocapture`. With
//! `SHADERSCOPE_REQUIRE_CORPUS` set (CI sets it), a missing corpus fails instead.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The corpus root, or `None` (after printing the skip line) when it is absent.
pub fn corpus_dir() -> Option<PathBuf> {
    let p = corpus_path();
    if p.is_dir() {
        return Some(p);
    }
    if required() {
        panic!("corpus not found at {} and SHADERSCOPE_REQUIRE_CORPUS is set", p.display());
    }
    println!("skipped: corpus not found at {}", p.display());
    None
}

/// Whether a missing corpus is a failure (`SHADERSCOPE_REQUIRE_CORPUS` set, as CI does).
pub fn required() -> bool {
    std::env::var_os("SHADERSCOPE_REQUIRE_CORPUS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Where the corpus is looked for: `SHADERSCOPE_CORPUS` (relative to [`invoking_dir`]) or
/// `../shared/corpus` beside the workspace.
pub fn corpus_path() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let pwd = std::env::var_os("PWD");
    resolve(std::env::var_os("SHADERSCOPE_CORPUS").as_deref(), invoking_dir(pwd.as_deref()).as_deref(), &root)
}

/// The folder the command runs in. Cargo runs each test binary in its crate's folder, so the
/// process's own current folder is not it; `PWD`, which the shell sets to the folder the user
/// typed the command in and cargo passes on unchanged, is (when it names a folder by an
/// absolute path). Without it (a launcher that is no shell), `None`.
pub fn invoking_dir(pwd: Option<&OsStr>) -> Option<PathBuf> {
    let pwd = PathBuf::from(pwd?);
    (pwd.is_absolute() && pwd.is_dir()).then_some(pwd)
}

/// `value` (an absolute path as it is, a relative one joined to `invoking`, else to the
/// workspace `root`), or the default `root/../shared/corpus`.
pub fn resolve(value: Option<&OsStr>, invoking: Option<&Path>, root: &Path) -> PathBuf {
    match value.filter(|v| !v.is_empty()) {
        None => root.join("../shared/corpus"),
        Some(v) if Path::new(v).is_absolute() => PathBuf::from(v),
        Some(v) => invoking.unwrap_or(root).join(v),
    }
}

/// One row of a corpus `MANIFEST.tsv`.
#[derive(Debug, Clone)]
pub struct Row {
    /// Path relative to the format folder.
    pub path: String,
    /// The `kind` column (`shbin`, `dxbc-binary`, …).
    pub kind: String,
    /// The `notes` column (DXBC: `paired_asm=…` etc.); empty where absent.
    pub notes: String,
    /// All columns, for anything else.
    pub cols: Vec<String>,
}

/// Rows of `<corpus>/<format>/MANIFEST.tsv` (header skipped).
pub fn manifest(corpus: &Path, format: &str) -> Vec<Row> {
    let text = std::fs::read_to_string(corpus.join(format).join("MANIFEST.tsv")).unwrap_or_default();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (kind_i, notes_i) = (col("kind").unwrap_or(6), col("notes"));
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let cols: Vec<String> = l.split('\t').map(str::to_string).collect();
            Row {
                path: cols.first().cloned().unwrap_or_default(),
                kind: cols.get(kind_i).cloned().unwrap_or_default(),
                notes: notes_i.and_then(|i| cols.get(i).cloned()).unwrap_or_default(),
                cols,
            }
        })
        .collect()
}

/// Every file of `kind` in `<corpus>/<format>/MANIFEST.tsv`, read: its row, its path and its
/// bytes (a listed file that cannot be read fails the test: the corpus is incomplete).
pub fn files<'a>(
    corpus: &Path,
    format: &str,
    kind: &'a str,
) -> impl Iterator<Item = (Row, PathBuf, Vec<u8>)> + 'a {
    let dir = corpus.join(format);
    manifest(corpus, format).into_iter().filter(move |r| r.kind == kind).map(move |row| {
        let path = dir.join(&row.path);
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        (row, path, data)
    })
}

/// Every file of any of `kinds` in the four format folders' manifests (dxbc, shbin, gx2, mbs),
/// read: its row, its path and its bytes, in manifest order folder by folder.
pub fn files_of<'a>(
    corpus: &'a Path,
    kinds: &'a [&str],
) -> impl Iterator<Item = (Row, PathBuf, Vec<u8>)> + 'a {
    ["dxbc", "shbin", "gx2", "mbs"].into_iter().flat_map(move |format| {
        let dir = corpus.join(format);
        manifest(corpus, format).into_iter().filter(|r| kinds.contains(&r.kind.as_str())).map(move |row| {
            let path = dir.join(&row.path);
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (row, path, data)
        })
    })
}

/// The file a manifest row names in its notes as `paired_asm=NAME` (fxc's listing beside a
/// binary), read as text.
pub fn paired_listing(row: &Row, path: &Path) -> Option<String> {
    let name = row.notes.split(';').find_map(|n| n.trim().strip_prefix("paired_asm="))?;
    let listing = path.parent().unwrap_or(Path::new(".")).join(name);
    let bytes = std::fs::read(&listing).unwrap_or_else(|e| panic!("{}: {e}", listing.display()));
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// A small deterministic generator (xorshift), so damage sweeps need no extra crate and are
/// reproducible.
pub struct Rng(pub u64);

impl Rng {
    /// A value below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// The format name a manifest `kind` is read as; `None` for sources, listings and headers.
pub fn kind_format(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "dxbc-binary" | "dxil-container" | "dxbc-container-noshader" => "dxbc",
        "d3dbc-binary" => "d3d9",
        "gsh" => "gfd",
        "sharc" => "sharc",
        "sharcfb" => "sharcfb",
        "mbs" => "mbs",
        "shbin" => "shbin",
        _ => return None,
    })
}

/// `bytes` as little-endian 32-bit words (a last partial word is left out).
pub fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect()
}
