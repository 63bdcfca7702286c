//! Whether the real-file corpus is there, said once per `cargo test` where it shows.
//!
//! The corpus tests skip quietly where the corpus is absent (their own `skipped` lines are
//! test output, which cargo shows only with `--nocapture`). This test writes one
//! `skipped: corpus not found at PATH` line straight to stderr, which the test harness does not
//! capture, so a plain `cargo test` shows it; with `SHADERSCOPE_REQUIRE_CORPUS` set it fails.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

#[test]
fn corpus_is_present() {
    let p = common::corpus_path();
    if p.is_dir() {
        return;
    }
    assert!(!common::required(), "corpus not found at {} and SHADERSCOPE_REQUIRE_CORPUS is set", p.display());
    // Straight to the stream: print!/eprint! would be captured.
    let _ = writeln!(
        std::io::stderr(),
        "skipped: corpus not found at {} (set SHADERSCOPE_CORPUS to its folder)",
        p.display()
    );
}

#[test]
fn a_relative_corpus_path_is_resolved_from_where_the_command_runs() {
    let root = Path::new("/ws");
    let here = Path::new("/home/me/project");
    let rel = std::ffi::OsStr::new("../shared/corpus");
    assert_eq!(common::resolve(Some(rel), Some(here), root), Path::new("/home/me/project/../shared/corpus"));
    assert_eq!(common::resolve(Some(rel), None, root), Path::new("/ws/../shared/corpus"));
    let abs = std::ffi::OsStr::new("/data/corpus");
    assert_eq!(common::resolve(Some(abs), Some(here), root), Path::new("/data/corpus"));
    assert_eq!(common::resolve(None, Some(here), root), Path::new("/ws/../shared/corpus"));
    assert_eq!(common::resolve(Some("".as_ref()), Some(here), root), Path::new("/ws/../shared/corpus"));
    // PWD counts only when it names a folder by an absolute path.
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(common::invoking_dir(Some(dir.path().as_os_str())).as_deref(), Some(dir.path()));
    assert_eq!(common::invoking_dir(Some("relative/dir".as_ref())), None);
    assert_eq!(common::invoking_dir(Some(dir.path().join("nothing").as_os_str())), None);
    assert_eq!(common::invoking_dir(None), None);
}

/// End to end, as cargo runs it: the test binary in the crate's folder, the user's shell in
/// another one (PWD), a relative `SHADERSCOPE_CORPUS`. The visible line names the path under
/// the user's folder; with `SHADERSCOPE_REQUIRE_CORPUS=1` the test fails.
#[test]
fn the_skip_line_shows_and_names_the_path_from_the_users_folder() {
    let user = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let child = |require: bool| {
        let mut c = Command::new(&exe);
        c.args(["--exact", "corpus_is_present", "--test-threads", "1"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PWD", user.path())
            .env("SHADERSCOPE_CORPUS", "no/corpus/here")
            .env_remove("SHADERSCOPE_REQUIRE_CORPUS");
        if require {
            c.env("SHADERSCOPE_REQUIRE_CORPUS", "1");
        }
        c.output().unwrap()
    };
    let want = user.path().join("no/corpus/here");
    let o = child(false);
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("skipped: corpus not found at {} (set SHADERSCOPE_CORPUS to its folder)\n", want.display())
    );
    let o = child(true);
    assert!(!o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(&format!(
            "corpus not found at {} and SHADERSCOPE_REQUIRE_CORPUS is set",
            want.display()
        )),
        "{out}"
    );
}
