//! Every public module of the library shows its use in a doc example that runs as a doctest.
//!
//! The walk starts at `src/lib.rs` and follows every `pub mod name;` (to `name.rs` or
//! `name/mod.rs` beside the parent, or under the parent's own folder), and reads each module's
//! `//!` lines. A module passes when one of its code blocks is tested by rustdoc: a fence with no
//! info string or with `rust` (plus `should_panic`/`editionNNNN`); `no_run`, `ignore`,
//! `compile_fail`, `text` and any other language do not count.

use std::path::{Path, PathBuf};

/// A public module and whether its docs have a runnable example.
struct Module {
    /// `shaderscope::format::dxbc`.
    path: String,
    /// Its file, relative to `src/`.
    file: String,
    runnable: bool,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// `file` (the module `path`) and every public module under it, in declaration order.
fn walk(src: &Path, file: &Path, path: &str, out: &mut Vec<Module>) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let rel = file.strip_prefix(src).unwrap_or(file).display().to_string().replace('\\', "/");
    out.push(Module { path: path.to_string(), file: rel, runnable: runnable_examples(&text) > 0 });
    let is_root = matches!(file.file_name().and_then(|n| n.to_str()), Some("lib.rs" | "mod.rs"));
    let dir = if is_root { file.parent().unwrap_or(src).to_path_buf() } else { file.with_extension("") };
    for line in text.lines() {
        let Some(name) = line.strip_prefix("pub mod ").and_then(|rest| rest.strip_suffix(';')) else {
            continue;
        };
        let child = [dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")]
            .into_iter()
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{}: no file for `pub mod {name};`", file.display()));
        walk(src, &child, &format!("{path}::{name}"), out);
    }
}

/// Every public module of the crate.
fn public_modules() -> Vec<Module> {
    let src = src_dir();
    let mut out = Vec::new();
    walk(&src, &src.join("lib.rs"), "shaderscope", &mut out);
    out
}

/// The code blocks of a file's `//!` docs that rustdoc runs.
fn runnable_examples(text: &str) -> usize {
    let mut open = false;
    let mut runnable = 0;
    for line in text.lines() {
        let Some(info) = line.strip_prefix("//!").and_then(|doc| doc.trim_start().strip_prefix("```")) else {
            continue;
        };
        // A fence line closes the open block, or opens one with its info string.
        open = !open;
        let rust = |t: &str| t == "rust" || t == "should_panic" || t.starts_with("edition");
        if open && info.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).all(rust) {
            runnable += 1;
        }
    }
    runnable
}

/// The public modules without a runnable example, as `path (file)`.
fn missing() -> Vec<String> {
    public_modules().into_iter().filter(|m| !m.runnable).map(|m| format!("{} ({})", m.path, m.file)).collect()
}

#[test]
fn every_public_module() {
    let missing = missing();
    assert!(
        missing.is_empty(),
        "public modules without a runnable example in their //! docs:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn the_walk_follows_pub_mod_only() {
    let modules = public_modules();
    let find = |path: &str| modules.iter().find(|m| m.path == path).map(|m| m.file.as_str());
    assert_eq!(modules.first().map(|m| m.path.as_str()), Some("shaderscope"));
    assert_eq!(find("shaderscope::format::dxbc::checksum"), Some("format/dxbc/checksum/mod.rs"));
    assert_eq!(find("shaderscope::isa::pica::float24"), Some("isa/pica/float24.rs"));
    assert_eq!(find("shaderscope::toolkit::bits"), Some("toolkit/bits.rs"));
    // Private modules (`mod x;`) are not part of the public API.
    assert_eq!(find("shaderscope::format::dxbc::container"), None);
    assert_eq!(find("shaderscope::isa::pica::source"), None);
}

#[test]
fn only_blocks_that_rustdoc_runs_count() {
    let doc = |info: &str| format!("//! Text.\n//!\n//! ```{info}\n//! let x = 1;\n//! ```\nfn f() {{}}\n");
    for info in ["", "rust", "should_panic", "rust,edition2024"] {
        assert_eq!(runnable_examples(&doc(info)), 1, "```{info}");
    }
    for info in ["text", "no_run", "ignore", "compile_fail", "rust,no_run", "sh"] {
        assert_eq!(runnable_examples(&doc(info)), 0, "```{info}");
    }
    // The closing fence of a `text` block is not an opening one.
    assert_eq!(runnable_examples(&format!("{}{}", doc("text"), doc(""))), 1);
    // Examples on items (`///`) and indented inner docs are not the module's.
    assert_eq!(runnable_examples("/// ```\n/// let x = 1;\n/// ```\nfn f() {}\n"), 0);
    assert_eq!(runnable_examples("mod m {\n    //! ```\n    //! let x = 1;\n    //! ```\n}\n"), 0);
}
