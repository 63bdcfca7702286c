//! `shaderscope scan`: exact lines for files built here (a DXBC and an MBS at known offsets in
//! junk, a SARC and a Yaz0 SARC holding a `.gsh`), the summary, stdin lists, `-0`,
//! `--max-depth`, `--glob`, `--extract`, `--json` against the schema, exit codes, and every
//! shader binary of the corpus found with the format its manifest says.

#[path = "../crates/shaderscope/tests/common/mod.rs"]
mod common;

use serde_json::Value;
use shaderscope::find::{md5_hex, sarc_archive, yaz0_literal};
use shaderscope::format::{gfd, mbs};
use std::io::Write;
use std::process::{Command, Stdio};

fn run_in(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shaderscope"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let o = child.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_in(args, b"")
}

fn dxbc() -> Vec<u8> {
    std::fs::read(format!("{}/samples/ps_color.dxbc", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A folder: `pack.bin` (junk, a DXBC at 0x100, an MBS at 0x400), `sub/a.sarc`, `sub/b.szs`
/// (the same SARC, Yaz0-compressed), `notes.txt` (no shader).
struct Tree {
    dir: tempfile::TempDir,
    d: Vec<u8>,
    m: Vec<u8>,
    gsh: Vec<u8>,
}

impl Tree {
    fn new() -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let (d, m, gsh) = (dxbc(), mbs::build::example_fragment_shader(), gfd::build::example());
        let mut pack = b"MZ\x90\0 a DXBC and an MBS1 live here ".to_vec();
        pack.resize(0x100, 0xcc);
        pack.extend_from_slice(&d);
        pack.resize(0x400, 0);
        pack.extend_from_slice(&m);
        pack.extend_from_slice(b"end");
        let sarc = sarc_archive(&[("readme.txt", b"none"), ("shaders/a.gsh", &gsh)]).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("pack.bin"), &pack).unwrap();
        std::fs::write(dir.path().join("sub/a.sarc"), &sarc).unwrap();
        std::fs::write(dir.path().join("sub/b.szs"), yaz0_literal(&sarc).unwrap()).unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"nothing to see").unwrap();
        Tree { dir, d, m, gsh }
    }

    fn path(&self) -> String {
        self.dir.path().display().to_string()
    }

    /// The lines of every find, in walk order.
    fn lines(&self) -> Vec<String> {
        let p = self.path();
        let (d, m, g) = (md5_hex(&self.d), md5_hex(&self.m), md5_hex(&self.gsh));
        let (dl, ml, gl) = (self.d.len(), self.m.len(), self.gsh.len());
        vec![
            format!("{p}/pack.bin\t0x100\tdxbc\tpixel\tps_4_0\t{dl}\t{d}\t{PS_COLOR_HASHES}\tok"),
            format!("{p}/pack.bin\t0x400\tmbs\tpixel\tMALI_400_PP\t{ml}\t{m}\t-\tok"),
            format!("{p}/sub/a.sarc\tsarc@0x0:shaders/a.gsh/0x200\tgfd\tvertex,pixel\t-\t{gl}\t{g}\t-\tok"),
            format!(
                "{p}/sub/b.szs\tyaz0@0x0/sarc@0x0:shaders/a.gsh/0x200\tgfd\tvertex,pixel\t-\t{gl}\t{g}\t-\tok"
            ),
        ]
    }
}

/// `samples/ps_color.dxbc`'s 3Dmigoto hash, bytecode hash and stored checksum as
/// DarkStarSword/3d-fixes' `dx11shaderanalyse.py -v --3dmigoto-hash --bytecode-hash` (commit
/// cef49cbe6b324dc7a2041c1928f9b41678b3c61e) prints them.
const PS_COLOR_HASHES: &str =
    "3dmigoto=e0de04052430f960 bytecode=00000000be7fed8c checksum=e1f1305f6401be48bf0083ce3817180b";

const SUMMARY: &str = "4 shader binaries (3 unique) in 4 files, 0 invalid; formats: dxbc 1 (1 unique), \
    gfd 2 (1 unique), mbs 1 (1 unique); stages: pixel 4 (3 unique), vertex 2 (1 unique)\n";

#[test]
fn every_find_is_one_line_then_the_summary() {
    let t = Tree::new();
    let (code, out, err) = run(&["scan", &t.path()]);
    assert_eq!((code, err.as_str()), (0, ""));
    let mut want = t.lines().join("\n");
    want.push('\n');
    want.push_str(SUMMARY);
    assert_eq!(out, want);
    // The same on several threads and from a list of paths on stdin, NUL-separated or not.
    let (_, threads, _) = run(&["scan", "--threads", "2", &t.path()]);
    assert_eq!(threads, want);
    let p = t.path();
    let list = format!("{p}/pack.bin\n{p}/notes.txt\n{p}/sub\n");
    assert_eq!(run_in(&["scan", "-"], list.as_bytes()).1, want);
    assert_eq!(run_in(&["scan", "-"], list.replace('\n', "\0").as_bytes()).1, want);
}

#[test]
fn filters_depth_and_nul() {
    let t = Tree::new();
    let p = t.path();
    let lines = t.lines();
    let (_, out, _) = run(&["scan", "--max-depth", "1", &p]);
    assert_eq!(
        out.lines().take(3).collect::<Vec<_>>(),
        vec![
            &lines[0][..],
            &lines[1][..],
            "2 shader binaries (2 unique) in 2 files, 0 invalid; formats: dxbc 1 (1 unique), mbs 1 (1 unique); stages: pixel 2 (2 unique)"
        ]
    );
    let (_, out, _) = run(&["scan", "-g", "*.szs", &p]);
    assert_eq!(out.lines().next(), Some(&lines[3][..]));
    assert_eq!(out.lines().count(), 2);
    let (_, out, _) = run(&["scan", "-g", "!sub/*", &p]);
    assert_eq!(out.lines().count(), 3, "{out}");
    let (_, out, _) = run(&["scan", "-0", "-g", "*.szs", &p]);
    assert!(out.starts_with(&format!("{p}/sub/b.szs\0yaz0@0x0/")), "{out}");
    let (code, _, err) = run(&["scan", "-g", "[", &p]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --glob: "), "{err}");
}

#[test]
fn extract_writes_every_find() {
    let t = Tree::new();
    let out_dir = tempfile::tempdir().unwrap();
    let o = out_dir.path().display().to_string();
    assert_eq!(run(&["scan", "--extract", &o, &t.path()]).0, 0);
    let mut names: Vec<String> = std::fs::read_dir(&o)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let p = t.path().replace('%', "%25").replace('/', "%2F");
    assert_eq!(
        names,
        vec![
            format!("{p}%2Fpack.bin@0x100.dxbc"),
            format!("{p}%2Fpack.bin@0x400.mbs"),
            format!("{p}%2Fsub%2Fa.sarc@sarc@0x0:shaders%2Fa.gsh%2F0x200.gsh"),
            format!("{p}%2Fsub%2Fb.szs@yaz0@0x0%2Fsarc@0x0:shaders%2Fa.gsh%2F0x200.gsh"),
        ]
    );
    let read = |n: &String| std::fs::read(out_dir.path().join(n)).unwrap();
    assert_eq!(
        (read(&names[0]), read(&names[1]), read(&names[3])),
        (t.d.clone(), t.m.clone(), t.gsh.clone())
    );
}

#[test]
fn broken_and_unreadable_files_are_reported_once_and_the_scan_goes_on() {
    let t = Tree::new();
    let p = t.path();
    let mut cut = t.d.clone();
    cut.truncate(100);
    std::fs::write(t.dir.path().join("cut.dxbc"), &cut).unwrap();
    let (code, out, err) = run(&["scan", &p, &format!("{p}/missing")]);
    assert_eq!(code, 2, "{out}");
    let broken: Vec<&str> = out.lines().filter(|l| l.contains("\tinvalid: ")).collect();
    assert_eq!(broken.len(), 1, "{out}");
    assert!(broken[0].starts_with(&format!("{p}/cut.dxbc\t-\tdxbc\t")), "{out}");
    // A container cut short still has its 3Dmigoto hash and checksum; the bytecode hash needs
    // the chunk index.
    let fields: Vec<&str> = broken[0].split('\t').collect();
    let fnv0 = cut.iter().fold(0u64, |h, &b| h.wrapping_mul(0x100_0000_01b3) ^ u64::from(b));
    assert_eq!(
        fields.get(7).copied(),
        Some(format!("3dmigoto={fnv0:016x} checksum=e1f1305f6401be48bf0083ce3817180b").as_str())
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("error: {p}/missing: ")), "{err}");
    assert!(out.ends_with(", 1 invalid; formats: dxbc 2 (2 unique), gfd 2 (1 unique), mbs 1 (1 unique); stages: pixel 4 (3 unique), vertex 2 (1 unique)\n"), "{out}");
    // Without the missing path: broken finds alone exit 1.
    assert_eq!(run(&["scan", &p]).0, 1);
    // The JSON record gives the parse error's kind, structure and offset.
    let (_, json, _) = run(&["scan", "--json", &p]);
    let r: Value = json
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["path"].as_str().is_some_and(|s| s.ends_with("/cut.dxbc")))
        .unwrap();
    assert_eq!(
        (&r["valid"], &r["error"]["kind"], &r["error"]["what"], &r["error"]["offset"]),
        (&Value::from(false), &Value::from("truncated"), &Value::from("DXBC container"), &Value::from(0)),
        "{r}"
    );
}

#[test]
fn json_records_follow_the_schema() {
    let t = Tree::new();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema/shaderscope.schema.json"))
            .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let (code, out, _) = run(&["scan", "--json", &t.path()]);
    assert_eq!(code, 0);
    let recs: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for r in &recs {
        let errors: Vec<String> = v.iter_errors(r).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{r}\n{}", errors.join("\n"));
    }
    assert_eq!(recs.len(), 5);
    assert_eq!((recs[0]["offset"].as_u64(), recs[0]["location"].as_str()), (Some(0x100), Some("0x100")));
    assert_eq!(recs[3]["within"][1]["name"].as_str(), Some("shaders/a.gsh"));
    assert_eq!(recs[3]["hash"], recs[2]["hash"]);
    assert_eq!(
        recs[0]["hashes"],
        serde_json::json!({"3dmigoto": "e0de04052430f960", "bytecode": "00000000be7fed8c",
            "checksum": "e1f1305f6401be48bf0083ce3817180b"})
    );
    assert_eq!(recs[1]["hashes"], Value::Null);
    let s = &recs[4];
    assert_eq!(
        (s["type"].as_str(), s["shaders"].as_u64(), s["unique"].as_u64()),
        (Some("scan-summary"), Some(4), Some(3))
    );
    assert_eq!(s["formats"]["gfd"], serde_json::json!({"finds": 2, "unique": 1, "invalid": 0}));
    // An undocumented field is refused.
    let mut bad = recs[0].clone();
    bad["extra"] = Value::from(1);
    assert!(!v.is_valid(&bad));
}

#[test]
fn scanning_the_corpus_lists_every_shader_binary_whole_with_its_manifest_format() {
    // The corpus beside this workspace (`SHADERSCOPE_CORPUS` as the library's tests take it).
    let pwd = std::env::var_os("PWD");
    let corpus = common::resolve(
        std::env::var_os("SHADERSCOPE_CORPUS").as_deref(),
        common::invoking_dir(pwd.as_deref()).as_deref(),
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
    );
    if !corpus.is_dir() {
        assert!(!common::required(), "corpus not found at {}", corpus.display());
        println!("skipped: corpus not found at {}", corpus.display());
        return;
    }
    let (_, out, _) = run(&["scan", corpus.to_str().unwrap()]);
    let whole: std::collections::HashMap<&str, &str> = out
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            let (path, loc, format) = (f.next()?, f.next()?, f.next()?);
            (loc == "-").then_some((path, format))
        })
        .collect();
    let mut seen = 0;
    for dir in ["dxbc", "gx2", "mbs", "shbin"] {
        for row in common::manifest(&corpus, dir) {
            let Some(format) = common::kind_format(&row.kind) else { continue };
            let path = corpus.join(dir).join(&row.path).display().to_string();
            assert_eq!(whole.get(path.as_str()).copied(), Some(format), "{path}");
            seen += 1;
        }
    }
    assert!(seen > 1000, "{seen}");
}

/// A path named on the command line that is neither a regular file nor a folder (a character
/// device, a FIFO) is said to be skipped, exit 2, and the other paths are scanned; it was
/// passed over in silence ("0 shader binaries … in 0 files", exit 0). One met inside a folder
/// is passed over, as ripgrep does.
#[test]
fn a_special_file_named_is_said_to_be_skipped() {
    let (code, out, err) = run(&["scan", "/dev/zero"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "0 shader binaries (0 unique) in 0 files, 0 invalid\n",
            "error: /dev/zero: a character device, not a regular file, skipped (scan reads regular files)\n"
        )
    );
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fifo = fifo.to_str().unwrap();
    let shader = dir.path().join("ps.dxbc");
    std::fs::write(&shader, dxbc()).unwrap();
    let (code, out, err) = run(&["scan", fifo, shader.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!("error: {fifo}: a FIFO, not a regular file, skipped (scan reads regular files)\n")
    );
    assert!(out.ends_with("1 shader binary (1 unique) in 1 file, 0 invalid; formats: dxbc 1 (1 unique); stages: pixel 1 (1 unique)\n"), "{out}");
    // In a folder it is passed over.
    let (code, _, err) = run(&["scan", dir.path().to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
}
