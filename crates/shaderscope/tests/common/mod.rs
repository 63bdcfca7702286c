//! Shared helpers for tests that read the real-file corpus in `../shared/corpus`; the
//! library's own unit tests include this file too (`lib.rs`, `test_corpus`).
//!
//! The corpus path comes from `SHADERSCOPE_CORPUS`, defaulting to `../shared/corpus` beside the
//! project. Where it is absent the test prints one `skipped: corpus not found` line and passes,
//! unless `SHADERSCOPE_REQUIRE_CORPUS` is set (CI sets it), in which case a missing corpus fails.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The corpus root, or `None` (after printing the skip line) when it is absent.
pub fn corpus_dir() -> Option<PathBuf> {
    let p = std::env::var_os("SHADERSCOPE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if p.is_dir() {
        return Some(p);
    }
    if std::env::var_os("SHADERSCOPE_REQUIRE_CORPUS").is_some() {
        panic!("corpus not found at {} and SHADERSCOPE_REQUIRE_CORPUS is set", p.display());
    }
    println!("skipped: corpus not found at {}", p.display());
    None
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
