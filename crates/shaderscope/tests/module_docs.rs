//! Every public module of the library shows its use in a doc example that runs as a doctest.
//!
//! The walk starts at `src/lib.rs` and follows every `pub mod name;` (to `name.rs` or
//! `name/mod.rs` beside the parent, or under the parent's own folder), and reads each module's
//! `//!` lines. A module written inline (`pub mod name {`, also inside a macro) is documented by
//! the `///` lines above it. A module passes when one of its code blocks is tested by rustdoc: a
//! fence with no info string or with `rust` (plus `should_panic`/`editionNNNN`); `no_run`,
//! `ignore`, `compile_fail`, `text` and any other language do not count.

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
    out.push(Module { path: path.to_string(), file: rel.clone(), runnable: runnable_examples(&text) > 0 });
    let is_root = matches!(file.file_name().and_then(|n| n.to_str()), Some("lib.rs" | "mod.rs"));
    let dir = if is_root { file.parent().unwrap_or(src).to_path_buf() } else { file.with_extension("") };
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if let Some(name) =
            line.trim_start().strip_prefix("pub mod ").and_then(|rest| rest.strip_suffix(" {"))
        {
            let docs = item_docs(&lines[..i]);
            let rel = format!("{rel}:{}", i + 1);
            out.push(Module {
                path: format!("{path}::{name}"),
                file: rel,
                runnable: runnable_examples(&docs) > 0,
            });
            continue;
        }
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

/// The `///` docs of the item whose declaration follows `above` (attributes may stand between),
/// as `//!` lines.
fn item_docs(above: &[&str]) -> String {
    let mut docs: Vec<String> = above
        .iter()
        .rev()
        .map(|l| l.trim_start())
        .skip_while(|l| l.starts_with("#["))
        .map_while(|l| l.strip_prefix("///"))
        .map(|doc| format!("//!{doc}\n"))
        .collect();
    docs.reverse();
    docs.concat()
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
        "public modules without a runnable example in their docs:\n  {}",
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
    assert_eq!(find("shaderscope::toolkit::layout"), Some("toolkit/layout.rs"));
    // `pub(crate) mod` is not public either.
    assert_eq!(find("shaderscope::toolkit::bits"), None);
    // Inline modules, by file and line, also one a macro declares.
    let inline = |path: &str| find(path).and_then(|f| f.split_once(':')).map(|(file, _)| file.to_string());
    assert_eq!(inline("shaderscope::isa::sm4::decode::operand_type").as_deref(), Some("isa/sm4/decode.rs"));
    assert_eq!(inline("shaderscope::isa::sm4::opcodes::op").as_deref(), Some("isa/sm4/opcodes.rs"));
    // Private modules (`mod x;`) are not part of the public API.
    assert_eq!(find("shaderscope::format::dxbc::container"), None);
    assert_eq!(find("shaderscope::isa::pica::print"), None);
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
    // An inline module's docs are the `///` lines above it, past its attributes.
    let above = ["/// Flags.", "///", "/// ```", "/// let x = 1;", "/// ```", "#[allow(missing_docs)]"];
    assert_eq!(runnable_examples(&item_docs(&above)), 1);
    assert_eq!(runnable_examples(&item_docs(&["/// ```text", "/// x", "/// ```"])), 0);
    assert_eq!(item_docs(&["/// Other item.", "fn f() {}", "#[allow(x)]"]), "");
}
