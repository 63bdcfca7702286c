//! The command contract, point by point, for DXBC, Direct3D 9 and SHBIN: the exit status of
//! every command on the same input, option applicability, bounded input, and the exact
//! messages. Runs the built binary on files made here by the library's writers.

use shaderscope::format::dxbc::write::Builder;
use shaderscope::format::shbin::build;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Every command that reads a shader, as it is run on one FILE.
const COMMANDS: &[&[&str]] = &[
    &["info"],
    &["info", "--json"],
    &["disasm"],
    &["disasm", "--json"],
    &["dump"],
    &["validate"],
    &["validate", "--json"],
    &["extract"],
    &["rewrite", "--check"],
    &["checksum"],
    &["view"],
];

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shaderscope"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = bin().args(args).stdin(Stdio::null()).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A folder of test files that lives as long as the test.
struct Files(tempfile::TempDir);

impl Files {
    fn new() -> Self {
        Files(tempfile::tempdir().unwrap())
    }
    fn put(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.0.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    }
    fn path(&self) -> &Path {
        self.0.path()
    }
}

/// `vs_2_0` with one `mov oPos, v0` and the end token.
fn d3d9() -> Vec<u8> {
    let words: [u32; 5] = [0xFFFE_0200, 0x0200_0001, 0xC00F_0000, 0x90E4_0000, 0x0000_FFFF];
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The sample DVLB with its DVLE twice (two copies, at two offsets).
fn two_dvles() -> Vec<u8> {
    let mut d = build::example_vertex_dvlb();
    d.dvles.push(std::sync::Arc::new((*d.dvles[0]).clone()));
    d.write().unwrap()
}

/// The DXBC sample with an RDEF whose struct types contain each other: one struct type with
/// a member of its own type (`two` false), or two whose members are each of the other type.
fn cyclic_rdef(two: bool) -> Vec<u8> {
    let mut r = Vec::new();
    let u32s = |r: &mut Vec<u8>, ws: &[u32]| ws.iter().for_each(|w| r.extend_from_slice(&w.to_le_bytes()));
    let name = if two { 132 } else { 104 };
    // Header: 1 constant buffer at 28, no bindings, ps_4_0, creator at the name.
    u32s(&mut r, &[1, 28, 0, 0, 0xFFFF_0400, 0, name]);
    // Constant buffer: 1 variable at 52, 16 bytes.
    u32s(&mut r, &[name, 1, 52, 16, 0, 0]);
    // Variable: offset 0, 16 bytes, used, type at 76.
    u32s(&mut r, &[name, 0, 16, 2, 76, 0]);
    if two {
        // Types at 76 and 92: structs (class 5), 1 row, 4 columns, 1 member at 108 and 120.
        u32s(&mut r, &[5, 1 | 4 << 16, 1 << 16, 108]);
        u32s(&mut r, &[5, 1 | 4 << 16, 1 << 16, 120]);
        // Member at 108: type 92; member at 120: type 76 (which contains it).
        u32s(&mut r, &[name, 92, 0]);
        u32s(&mut r, &[name, 76, 0]);
    } else {
        // Type at 76: a struct (class 5), 1 row, 4 columns, 1 member at 92.
        u32s(&mut r, &[5, 1 | 4 << 16, 1 << 16, 92]);
        // Member at 92: type 76 (the struct itself), offset 0.
        u32s(&mut r, &[name, 76, 0]);
    }
    r.extend_from_slice(b"s\0\0\0");
    let sample = sample("ps_color.dxbc");
    let d = shaderscope::format::dxbc::Dxbc::parse(&sample).unwrap();
    let mut b = Builder::new();
    b.push(*b"RDEF", r);
    for c in d.chunks() {
        b.push(c.fourcc.0, c.data.to_vec());
    }
    b.finish().unwrap()
}

/// The sample MBS vertex shader with its first two uniforms made structs whose parent links
/// loop: each the other's parent (`two`), or the first its own. Also the offsets of their
/// records.
fn looping_mbs(two: bool) -> (Vec<u8>, Vec<u64>) {
    use shaderscope::format::mbs::{Mbs, SymbolType};
    let bytes = shaderscope::format::mbs::build::example_vertex_shader();
    let mbs = Mbs::parse(&bytes).unwrap();
    let records: Vec<u64> =
        mbs.shader().unwrap().table(*b"SUNI").unwrap().symbols().map(|s| s.record_at).collect();
    let mut bad = bytes.clone();
    let links: &[(usize, u16)] = if two { &[(0, 1), (1, 0)] } else { &[(0, 0)] };
    for &(k, parent) in links {
        let r = records[k] as usize;
        bad[r + 1] = SymbolType::STRUCT.0;
        bad[r + 18..r + 20].copy_from_slice(&parent.to_le_bytes());
    }
    (bad, records)
}

/// Exit 0 for every command on a good file of each format (`checksum` applies to DXBC only:
/// 2 elsewhere, with the reason).
#[test]
fn a_good_file_is_fine_for_every_command() {
    let f = Files::new();
    let files = [
        ("dxbc", f.put("ps.dxbc", &sample("ps_color.dxbc")), "Direct3D DXBC container"),
        ("d3d9", f.put("vs.o", &d3d9()), "Direct3D 9 shader bytecode"),
        ("shbin", f.put("vs.shbin", &sample("vshader.shbin")), "Nintendo 3DS shader binary (DVLB)"),
    ];
    for (format, path, description) in &files {
        for cmd in COMMANDS {
            let args: Vec<&str> = cmd.iter().copied().chain([path.as_str()]).collect();
            let (code, _, err) = run(&args);
            if cmd[0] == "checksum" && *format != "dxbc" {
                let want = format!(
                    "error: {path}: checksum applies only to DXBC containers (this file: {description})\n"
                );
                assert_eq!((code, err), (2, want), "{args:?}");
            } else {
                assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
            }
        }
    }
}

/// An input that is no shader, an empty one, and a truncated one of each format: exit 1 for
/// every command, with the same message.
#[test]
fn an_invalid_input_exits_1_for_every_command() {
    let f = Files::new();
    let mut dxbc = sample("ps_color.dxbc");
    dxbc.truncate(100);
    let mut shbin = sample("vshader.shbin");
    shbin.truncate(0x90);
    let mut d3d9 = d3d9();
    d3d9.truncate(12);
    let cases = [
        (f.put("empty.bin", b""), "empty file".to_string()),
        (
            f.put("text.txt", b"hello world"),
            r#"invalid file at offset 0x0: not a shader binary this tool knows (first bytes "hell")"#
                .to_string(),
        ),
        (
            f.put("cut.dxbc", &dxbc),
            "truncated DXBC container at offset 0x0 (need 208 bytes, have 100)".into(),
        ),
        (f.put("cut.shbin", &shbin), "truncated DVLE 0 header at offset 0x8c (need 64 bytes, have 4)".into()),
        (f.put("cut.o", &d3d9), "truncated D3D9 instruction at offset 0x4 (need 12 bytes, have 8)".into()),
    ];
    for (path, message) in &cases {
        for cmd in COMMANDS {
            if cmd.contains(&"--json") {
                continue;
            }
            let args: Vec<&str> = cmd.iter().copied().chain([path.as_str()]).collect();
            let (code, _, err) = run(&args);
            let first = format!("error: {path}: {message}\n");
            if cmd[0] == "dump" {
                // dump shows every byte up to the failure, then also names the structures the
                // cut left unread.
                assert_eq!((code, err.starts_with(&first)), (1, true), "{args:?}: {err}");
            } else {
                assert_eq!((code, err), (1, first), "{args:?}");
            }
        }
    }
}

/// A structure that cannot be laid out (a struct type that contains itself, directly or
/// through another: RDEF A → A, A → B → A; MBS symbols whose parent links loop) is damage:
/// the rest of the file reads, and every command says so, in the same words, and exits 1.
/// (Only `validate` said it of A → B → A and of MBS loops; the rest exited 0.)
#[test]
fn a_damaged_part_exits_1_for_every_command() {
    let f = Files::new();
    let (mbs_two, records) = looping_mbs(true);
    let (mbs_one, _) = looping_mbs(false);
    let cases = [
        // The member's type word: 0x38 (the RDEF chunk's data) + 92 + 4.
        (
            f.put("self.dxbc", &cyclic_rdef(false)),
            0x98,
            "RDEF struct member",
            "a struct contains itself".to_string(),
        ),
        // The second type's member closes the cycle: 0x38 + 120 + 4.
        (
            f.put("two.dxbc", &cyclic_rdef(true)),
            0xb4,
            "RDEF struct member",
            "s of the type at 0x94 has the type at 0x84, which contains it: the struct types form a cycle"
                .into(),
        ),
        (
            f.put("two.mbs", &mbs_two),
            records[0] + 18,
            "MBS1/CVER/SUNI symbol 0 (mvp)",
            "its parent index 1 leads back to it (a cycle of 2 symbols): structs cannot contain each other"
                .into(),
        ),
        (
            f.put("self.mbs", &mbs_one),
            records[0] + 18,
            "MBS1/CVER/SUNI symbol 0 (mvp)",
            "its parent index 0 is the symbol itself: a struct cannot contain itself".into(),
        ),
    ];
    for (path, at, what, why) in &cases {
        let message = format!("invalid {what} at offset {at:#x}: {why}");
        for cmd in COMMANDS {
            if cmd[0] == "checksum" && path.ends_with(".mbs") {
                continue;
            }
            let args: Vec<&str> = cmd.iter().copied().chain([path.as_str()]).collect();
            let (code, out, err) = run(&args);
            // `validate` too words it as every command does.
            let want = if cmd == &["validate", "--json"] {
                // The same finding as its own record, then the file's closing record.
                assert_eq!(
                    validate_records(&out),
                    [
                        format!("finding valid=false error {at:#x}: invalid {what}: {why}"),
                        "validate valid=false errors=1 warnings=0".into()
                    ],
                    "{out}"
                );
                String::new()
            } else {
                format!("error: {path}: {message}\n")
            };
            assert_eq!((code, err), (1, want), "{args:?}");
            if cmd == &["view"] {
                assert!(out.contains(&format!("<p class=\"error\">Damaged: {message}</p>\n")), "{out}");
            }
        }
    }
}

/// A Direct3D 9 program whose constant table does not read: the listing is printed without
/// it, and every command exits 1 on the damaged file, `view` too (its page names the damage).
#[test]
fn a_damaged_constant_table_exits_1_for_every_command() {
    let words: [u32; 14] = [
        0xFFFE_0200,
        0x0008_FFFE,
        u32::from_le_bytes(*b"CTAB"),
        28,
        0,
        0xFFFE_0200,
        100, // 100 constants of 20 bytes cannot fit in the comment
        28,
        0,
        0,
        0x0200_0001,
        0xC00F_0000,
        0x90E4_0000,
        0x0000_FFFF,
    ];
    let f = Files::new();
    let path = f.put("ctab.o", &words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>());
    let why = "CTAB constant info at offset 0x1c points outside its range (0x28 + 0x7d0 is outside 0x28)";
    for cmd in COMMANDS {
        let args: Vec<&str> = cmd.iter().copied().chain([path.as_str()]).collect();
        let (code, out, err) = run(&args);
        let want = match *cmd {
            ["validate"] => format!(
                "error: {path}: offset 0x1c: constant table: CTAB constant info points outside its range (0x28 + 0x7d0 is outside 0x28)\n"
            ),
            ["validate", "--json"] => {
                assert_eq!(
                    validate_records(&out),
                    [
                        "finding valid=false error 0x1c: constant table: CTAB constant info points outside its range (0x28 + 0x7d0 is outside 0x28)",
                        "validate valid=false errors=1 warnings=0"
                    ],
                    "{out}"
                );
                String::new()
            }
            ["checksum"] => {
                assert_eq!(code, 2);
                continue;
            }
            _ => format!("error: {path}: {why}\n"),
        };
        assert_eq!((code, err), (1, want), "{args:?}");
        if cmd == &["disasm"] {
            assert!(
                out.ends_with("    vs_2_0\n    mov oPos, v0\n\n// approximately 1 instruction slot used\n"),
                "{out}"
            );
        }
        // The viewer's page is written, and names the damage as the message does (it exited
        // 0 with no message).
        if cmd == &["view"] {
            assert!(out.contains(&format!("<p class=\"error\">Damaged: {why}</p>\n")), "{out}");
            assert!(!out.contains("The listing stopped early"), "{out}");
        }
    }
}

/// The records of `validate --json`, one line each: type and valid, then a finding's severity,
/// offset and message, or the closing record's counts.
fn validate_records(out: &str) -> Vec<String> {
    out.lines()
        .map(|l| {
            let r: serde_json::Value = serde_json::from_str(l).unwrap();
            let (t, valid) = (r["type"].as_str().unwrap(), &r["valid"]);
            match r["offset"].as_u64() {
                Some(o) => format!(
                    "{t} valid={valid} {} {o:#x}: {}",
                    r["severity"].as_str().unwrap(),
                    r["message"].as_str().unwrap()
                ),
                None => format!("{t} valid={valid} errors={} warnings={}", r["errors"], r["warnings"]),
            }
        })
        .collect()
}

/// Options that do not apply to the file's format, and a program index out of range, are
/// usage errors (2) that say why.
#[test]
fn options_that_do_not_apply_are_usage_errors() {
    let f = Files::new();
    let dxbc = f.put("ps.dxbc", &sample("ps_color.dxbc"));
    let d3d9 = f.put("vs.o", &d3d9());
    let shbin = f.put("vs.shbin", &sample("vshader.shbin"));
    let two = f.put("two.shbin", &two_dvles());
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["disasm", "--dvle", "0", &dxbc],
            format!(
                "error: {dxbc}: --dvle applies only to 3DS shader binaries with DVLEs (this file: Direct3D DXBC container)\n"
            ),
        ),
        (
            vec!["disasm", "--dvle", "0", &d3d9],
            format!(
                "error: {d3d9}: --dvle applies only to 3DS shader binaries with DVLEs (this file: Direct3D 9 shader bytecode)\n"
            ),
        ),
        (
            vec!["disasm", "--fxc", "9.29", &shbin],
            format!(
                "error: {shbin}: --fxc applies only to DXBC containers and the effects that hold them (this file: Nintendo 3DS shader binary (DVLB))\n"
            ),
        ),
        (
            vec!["disasm", "--fxc", "10", &d3d9],
            format!(
                "error: {d3d9}: --fxc applies to Direct3D 9 listings only as 10-legacy-crt (a C runtime that rounds ties away from zero) (this file: Direct3D 9 shader bytecode)\n"
            ),
        ),
        (
            vec!["disasm", "--dvle", "5", &two],
            format!("error: {two}: --dvle 5 is out of range: the file has 2 DVLEs (--dvle 0 to 1)\n"),
        ),
        (
            vec!["disasm", "--json", "--dvle", "2", &two],
            format!("error: {two}: --dvle 2 is out of range: the file has 2 DVLEs (--dvle 0 to 1)\n"),
        ),
        (
            vec!["extract", &shbin, "-o", "out.bin"],
            format!("error: -o needs a PART to write (`shaderscope extract {shbin}` lists the parts)\n"),
        ),
        (
            vec!["info", "-", "-"],
            "error: `-` (standard input) is named more than once; it can be read only once\n".into(),
        ),
        (
            vec!["validate", &shbin, "-", &dxbc, "-"],
            "error: `-` (standard input) is named more than once; it can be read only once\n".into(),
        ),
    ];
    for (args, want) in cases {
        let (code, out, err) = run(&args);
        assert_eq!((code, out.as_str(), err), (2, "", want), "{args:?}");
    }
    // The index in range prints that DVLE.
    let (code, out, _) = run(&["disasm", "--dvle", "1", &two]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(
            "; DVLE 1: vertex shader, main 0x0, endmain 0x8\n; vertex shader: entry 0x000..0x008"
        ),
        "{out}"
    );
    // --fxc auto is no option given.
    assert_eq!(run(&["disasm", "--fxc", "auto", &shbin]).0, 0);
}

/// A missing file and a folder are I/O errors (2); in a batch, 2 beats 1 and the other files
/// are still done.
#[test]
fn missing_files_and_folders_exit_2() {
    let f = Files::new();
    let good = f.put("ps.dxbc", &sample("ps_color.dxbc"));
    let junk = f.put("junk", b"junk");
    let missing = f.path().join("missing.dxbc");
    let missing = missing.to_str().unwrap();
    let dir = f.path().to_str().unwrap();
    for cmd in COMMANDS {
        let args: Vec<&str> = cmd.iter().copied().chain([missing]).collect();
        let (code, _, err) = run(&args);
        assert_eq!(
            (code, err),
            (2, format!("error: {missing}: cannot read: No such file or directory (os error 2)\n")),
            "{args:?}"
        );
        let args: Vec<&str> = cmd.iter().copied().chain([dir]).collect();
        let (code, _, err) = run(&args);
        assert_eq!(
            (code, err),
            (
                2,
                format!(
                    "error: {dir}: is a directory (to look for shader binaries inside it: shaderscope scan {dir})\n"
                )
            ),
            "{args:?}"
        );
    }
    // The suggested command is one shell word however the folder is named.
    let odd = f.path().join("my shaders");
    std::fs::create_dir(&odd).unwrap();
    let odd = odd.to_str().unwrap();
    let (code, _, err) = run(&["info", odd]);
    assert_eq!(
        (code, err),
        (
            2,
            format!(
                "error: {odd}: is a directory (to look for shader binaries inside it: shaderscope scan '{odd}')\n"
            )
        )
    );
    let (code, out, err) = run(&["info", &junk, missing, &good]);
    assert_eq!(code, 2);
    assert!(out.contains("format:    DXBC container"), "{out}");
    assert_eq!(err.lines().count(), 2, "{err}");
}

/// A file that is no shader binary but holds some (a pack: bytes, a DXBC container, bytes,
/// the same container): every command refuses it as before (exit 1), then a hint says how
/// many shader binaries `scan` finds in it and how to pull them out; standard input too. A
/// file without any gets no hint.
#[test]
fn a_file_holding_shaders_gets_a_hint_to_scan_it() {
    let f = Files::new();
    let dxbc = sample("ps_color.dxbc");
    let pack = f.put("pack.bin", &[&b"PACK"[..], &dxbc, &[7; 13], &dxbc, b"end"].concat());
    let one = f.put("one.bin", &[&b"PACK"[..], &dxbc].concat());
    let none = f.put("none.bin", b"PACK and nothing else");
    let refusal = |path: &str| {
        format!(
            "error: {path}: invalid file at offset 0x0: not a shader binary this tool knows (first bytes \"PACK\")\n"
        )
    };
    for cmd in COMMANDS {
        let args: Vec<&str> = cmd.iter().copied().chain([pack.as_str()]).collect();
        let (code, _, err) = run(&args);
        let hint = format!(
            "hint: it holds 2 shader binaries that scan finds: shaderscope scan --extract DIR {pack}\n"
        );
        let error = if cmd.contains(&"--json") { String::new() } else { refusal(&pack) };
        assert_eq!((code, err), (1, error + &hint), "{args:?}");
    }
    let (code, _, err) = run(&["info", &one]);
    assert_eq!(
        (code, err),
        (
            1,
            refusal(&one)
                + &format!(
                    "hint: it holds 1 shader binary that scan finds: shaderscope scan --extract DIR {one}\n"
                )
        )
    );
    assert_eq!(run(&["disasm", &none]), (1, String::new(), refusal(&none)));
    let o = bin().args(["info", "-"]).stdin(std::fs::File::open(&pack).unwrap()).output().unwrap();
    assert_eq!(
        (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned()),
        (
            Some(1),
            refusal("<stdin>")
                + "hint: it holds 2 shader binaries that scan finds: shaderscope scan --extract DIR FILE\n"
        )
    );
    // What the hint says to run finds them.
    let (code, out, _) = run(&["scan", &pack]);
    assert_eq!(code, 0);
    assert!(out.starts_with(&format!("{pack}\t0x4\tdxbc\t")), "{out}");
    assert!(out.contains(&format!("{pack}\t0xe1\tdxbc\t")), "{out}");
}

/// Every format of the product is read now; a file of the last one to be read (MBS, which
/// used to say "recognised, not supported yet") exits 0 or 1 for every command, as promised,
/// never 2, and is no longer called unsupported.
#[test]
fn the_last_format_read_exits_0_or_1() {
    let f = Files::new();
    let empty = f.put("a.mbs", b"MBS1\0\0\0\0");
    // (`checksum` applies to DXBC only: a usage error on any other format.)
    for cmd in COMMANDS.iter().filter(|c| c[0] != "checksum") {
        let args: Vec<&str> = cmd.iter().copied().chain([empty.as_str()]).collect();
        let (code, out, err) = run(&args);
        assert!(code <= 1, "{args:?}: {code}");
        assert!(!err.contains("not supported yet") && !out.contains("not supported yet"), "{args:?}: {err}");
    }
    // Without a shader chunk it is not valid.
    let (code, _, err) = run(&["validate", &empty]);
    assert_eq!(
        (code, err.as_str()),
        (1, format!("error: {empty}: offset 0x0: MBS1 holds no CFRA or CVER chunk\n").as_str())
    );
}

/// `checksum` on a mismatching DXBC exits 1 with or without --verify; an unsigned one passes
/// unless a signature is required.
#[test]
fn a_failing_check_exits_1() {
    let f = Files::new();
    let mut bad = sample("ps_color.dxbc");
    bad[4] ^= 1;
    let bad = f.put("bad.dxbc", &bad);
    for args in [vec!["checksum", &bad], vec!["checksum", "--verify", &bad]] {
        let (code, out, _) = run(&args);
        assert_eq!(code, 1, "{args:?}");
        assert!(out.starts_with("mismatch: stored e0f1305f"), "{out}");
    }
    // validate reports it as a finding.
    let (code, _, err) = run(&["validate", &bad]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!("error: {bad}: offset 0x4: checksum mismatch (stored e0f1305f")),
        "{err}"
    );
    // The listing is fine (fxc's note about the checksum is part of it).
    assert_eq!(run(&["disasm", &bad]).0, 0);
}

/// A whole file that `info` calls a broken Direct3D 9 program (a 12-byte vs_3_0 whose comment
/// claims 16 tokens) is a broken find of `scan`, with the same reason, and exit 1 (it was
/// dropped: "0 shader binaries", exit 0). Direct3D 9 has no magic, so bytes that only start
/// like a version token and hold a shader binary further on give that find instead.
#[test]
fn scan_reports_a_broken_d3d9_file_as_info_does() {
    let f = Files::new();
    let words: [u32; 3] = [0xFFFE_0300, 0x0010_FFFE, 0];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let path = f.put("cut.o", &bytes);
    let why = "truncated D3D9 comment at offset 0x8 (need 64 bytes, have 4)";
    let (code, _, err) = run(&["info", &path]);
    assert_eq!((code, err), (1, format!("error: {path}: {why}\n")));
    let (code, out, err) = run(&["scan", &path]);
    assert_eq!((code, err.as_str()), (1, ""));
    let line = out.lines().next().unwrap();
    assert!(
        line.starts_with(&format!("{path}\t-\td3d9\t-\t-\t12\t{}\t", shaderscope::find::md5_hex(&bytes))),
        "{out}"
    );
    assert!(line.ends_with(&format!("\tinvalid: {why}")), "{out}");
    assert!(
        out.ends_with("1 shader binary (1 unique) in 1 file, 1 invalid; formats: d3d9 1 (1 unique)\n"),
        "{out}"
    );
    let (code, out, _) = run(&["scan", "--json", &path]);
    assert_eq!(code, 1);
    let r: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!((r["valid"].as_bool(), r["error"]["offset"].as_u64()), (Some(false), Some(8)), "{out}");
    // A version token and a comment longer than the file before a DXBC container: the
    // container is what scan finds.
    let dxbc = sample("ps_color.dxbc");
    let head: Vec<u8> = [0xFFFE_0300u32, 0x7FFF_FFFE].iter().flat_map(|w| w.to_le_bytes()).collect();
    let pack = f.put("pack.o", &[&head[..], &dxbc].concat());
    assert_eq!(run(&["info", &pack]).0, 1);
    let (code, out, _) = run(&["scan", &pack]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with(&format!("{pack}\t0x8\tdxbc\tpixel\tps_4_0\t208\t")), "{out}");
    assert!(out.contains("\n1 shader binary (1 unique) in 1 file, 0 invalid"), "{out}");
}

/// `scan` reads every file whole and searches it: a large file of something else gives no
/// find; a file over `--max-size` is an I/O error (reported, the scan goes on); a broken
/// shader file makes it exit 1.
#[test]
fn scan_reads_every_file_and_fails_on_broken_ones() {
    let f = Files::new();
    f.put("a.dxbc", &sample("ps_color.dxbc"));
    f.put("b.mbs", &sample("vertex.mbs"));
    f.put("c.bin", &vec![0u8; 1 << 20]);
    let dir = f.path().to_str().unwrap();
    let (code, out, err) = run(&["scan", dir]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains(&format!("{dir}/b.mbs\t-\tmbs\tvertex\tMALI_400_GP\t")), "{out}");
    assert!(out.ends_with("2 shader binaries (2 unique) in 3 files, 0 invalid; formats: dxbc 1 (1 unique), mbs 1 (1 unique); stages: pixel 1 (1 unique), vertex 1 (1 unique)\n"), "{out}");
    let (code, out, err) = run(&["--max-size", "64k", "scan", dir]);
    assert_eq!(
        (code, err),
        (2, format!("error: {dir}/c.bin: 1048576 bytes, over the --max-size limit of 64 KiB\n"))
    );
    assert!(out.contains(&format!("{dir}/b.mbs\t")), "{out}");
    let mut cut = sample("vshader.shbin");
    cut.truncate(0x90);
    f.put("d.shbin", &cut);
    let (code, out, _) = run(&["scan", dir]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!(
            "{dir}/d.shbin\t-\tshbin\t-\t-\t144\t{}\t-\tinvalid: truncated DVLE 0 header at offset 0x8c (need 64 bytes, have 4)\n",
            shaderscope::find::md5_hex(&cut)
        )),
        "{out}"
    );
    // A shader over the limit is an I/O error.
    let (code, _, err) = run(&["--max-size", "100", "scan", dir]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("error: {dir}/a.dxbc: 208 bytes, over the --max-size limit of 100 bytes\n")),
        "{err}"
    );
}

/// The size limit: checked against a file's length before reading, and while reading a stream
/// (an endless one stops at the limit).
#[test]
fn the_size_limit_holds_for_files_and_streams() {
    let f = Files::new();
    let path = f.put("ps.dxbc", &sample("ps_color.dxbc"));
    let (code, _, err) = run(&["--max-size", "207", "info", &path]);
    assert_eq!(
        (code, err),
        (2, format!("error: {path}: 208 bytes, over the --max-size limit of 207 bytes\n"))
    );
    assert_eq!(run(&["--max-size", "208", "info", &path]).0, 0);
    let (code, _, err) = run(&["info", "--max-size", "1x", &path]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown unit `x` (use k, M or G)"), "{err}");
    // An endless stream that starts like a DXBC container.
    let mut child = bin()
        .args(["--max-size", "1M", "info", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let block = [0u8; 1 << 16];
        let _ = stdin.write_all(b"DXBC");
        // Until the reader stops reading (a closed pipe), at most 64 MiB.
        for _ in 0..1024 {
            if stdin.write_all(&block).is_err() {
                return true;
            }
        }
        false
    });
    let o = child.wait_with_output().unwrap();
    assert!(writer.join().unwrap(), "the tool read on past its limit");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: <stdin>: more than the --max-size limit of 1 MiB; stopped reading\n"
    );
    // A stream that is no shader is refused from its first bytes.
    #[cfg(unix)]
    {
        let (code, _, err) = run(&["info", "/dev/zero"]);
        assert_eq!(
            (code, err),
            (
                1,
                r#"error: /dev/zero: invalid file at offset 0x0: not a shader binary this tool knows (first bytes "\x00\x00\x00\x00")"#
                    .to_string()
                    + "\n"
            )
        );
    }
}

/// Standard input is read when named once, whichever command.
#[test]
fn stdin_is_read_once() {
    for cmd in COMMANDS {
        let mut child = bin()
            .args(cmd.iter().copied().chain(["-"]))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&sample("ps_color.dxbc")).unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!((o.status.code(), String::from_utf8_lossy(&o.stderr).as_ref()), (Some(0), ""), "{cmd:?}");
    }
}

/// Part names match without regard to case; an unknown name is a usage error that lists the
/// parts.
#[test]
fn extract_matches_part_names_in_any_case() {
    let f = Files::new();
    let path = f.put("vs.shbin", &sample("vshader.shbin"));
    let out = f.path().join("code.bin");
    for name in ["dvle0.code", "DVLE0.CODE", "Dvle0.Code"] {
        let (code, _, err) = run(&["extract", &path, name, "-o", out.to_str().unwrap()]);
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        assert_eq!(std::fs::read(&out).unwrap(), sample("vshader.shbin")[0x34..0x54]);
    }
    let (code, _, err) = run(&["extract", &path, "nothing"]);
    assert_eq!(code, 2);
    assert_eq!(err, format!("error: {path}: no part named \"nothing\" (parts: code, opdescs, dvle0.code)\n"));
}

/// Messages: an impossible DXBC chunk count is called that, with the room the file has.
#[test]
fn an_impossible_chunk_count_is_called_that() {
    let f = Files::new();
    let mut d = sample("ps_color.dxbc");
    d[28..32].copy_from_slice(&65535u32.to_le_bytes());
    let path = f.put("count.dxbc", &d);
    let (code, _, err) = run(&["info", &path]);
    assert_eq!(
        (code, err),
        (
            1,
            format!(
                "error: {path}: invalid DXBC header at offset 0x1c: chunk count 65535 is impossible: \
                 the 208-byte container has room for at most 44 chunks\n"
            )
        )
    );
    // A count the index has room for, but whose entries run into the first chunk (its tag is
    // read as an offset).
    let mut big = sample("ps_color.dxbc");
    big[28..32].copy_from_slice(&4u32.to_le_bytes());
    let path = f.put("count4.dxbc", &big);
    let (code, _, err) = run(&["info", &path]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        format!(
            "error: {path}: invalid DXBC header at offset 0x1c: chunk count 4 is impossible: entry 3 of the index \
             (0x2c) lies in chunk 0 (ISGN) at 0x2c, and its value 0x4e475349 is past the end 0xd0\n"
        )
    );
}

/// `shaderscope completions SHELL` prints a script that names the subcommands.
#[test]
fn completions_are_printed_for_a_shell() {
    let (code, out, _) = run(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("shaderscope__subcmd__disasm") && out.contains("--max-size"),
        "{}",
        &out[..out.len().min(400)]
    );
    assert_eq!(run(&["completions", "nosuchshell"]).0, 2);
}

/// Output goes out as the batch goes, not at its end: the listings of the first files are on
/// stdout while a later input is still to be read (here: the tool is still waiting for stdin).
#[test]
fn output_is_written_as_the_batch_goes() {
    let dir = Files::new();
    let first = dir.put("ps.dxbc", &sample("ps_color.dxbc"));
    // A listing over the block size, so that it is written before the next input is read.
    let many: Vec<String> = std::iter::repeat_n(first, 400).collect();
    let mut child = bin()
        .arg("disasm")
        .args(&many)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut got = vec![0u8; 1 << 16];
    let mut have = 0;
    use std::io::Read;
    while have < got.len() {
        let n = stdout.read(&mut got[have..]).unwrap();
        assert!(n > 0, "stdout closed early");
        have += n;
    }
    // stdin is still open: everything read so far came before the last input.
    child.stdin.take().unwrap().write_all(&sample("ps_color.dxbc")).unwrap();
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
}

/// `-o FILE` writes exactly what stdout would get, for every command that prints, on every
/// format; a file that cannot be created is an I/O error (2) naming it; `extract` writes a
/// part there (and refuses `-o` without one, see `options_that_do_not_apply_are_usage_errors`);
/// a command that fails with nothing to write leaves no file behind.
#[test]
fn dash_o_writes_what_stdout_gets() {
    let f = Files::new();
    let inputs = [
        f.put("ps.dxbc", &sample("ps_color.dxbc")),
        f.put("vs.o", &d3d9()),
        f.put("vs.shbin", &sample("vshader.shbin")),
    ];
    let dir = f.path().to_str().unwrap().to_string();
    let out = f.path().join("out").to_str().unwrap().to_string();
    for input in &inputs {
        let commands: &[&[&str]] = &[
            &["info", input],
            &["info", "--json", input],
            &["disasm", input],
            &["disasm", "--json", input],
            &["disasm", "--html", input],
            &["disasm", "--color=always", input],
            &["dump", input],
            &["dump", "--json", input],
            &["validate", "--json", input],
            &["view", input],
            &["scan", &dir],
        ];
        for cmd in commands {
            let (code, stdout, _) = run(cmd);
            assert_eq!(code, 0, "{cmd:?}");
            assert!(!stdout.is_empty(), "{cmd:?}");
            let args: Vec<&str> = cmd.iter().copied().chain(["-o", &out]).collect();
            let (code, to_stdout, err) = run(&args);
            assert_eq!((code, to_stdout.as_str(), err.as_str()), (0, "", ""), "{args:?}");
            assert_eq!(std::fs::read_to_string(&out).unwrap(), stdout, "{args:?}");
        }
    }
    // Colour is decided for the file, not for the terminal the command runs in.
    let (_, _, _) = run(&["disasm", &inputs[0], "-o", &out]);
    assert!(!std::fs::read_to_string(&out).unwrap().contains('\x1b'));
    let bad = format!("{dir}/no/such/folder/x.txt");
    let (code, stdout, err) = run(&["disasm", &inputs[0], "-o", &bad]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(err.starts_with(&format!("error: cannot write output: {bad}: ")), "{err}");
    let part = f.path().join("part.bin");
    let (code, _, _) = run(&["extract", &inputs[0], "nosuch", "-o", part.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(!part.exists());
    let junk = f.put("junk.bin", b"not a shader");
    for cmd in ["info", "disasm", "dump", "view"] {
        let (code, _, _) = run(&[cmd, &junk, "-o", part.to_str().unwrap()]);
        assert_eq!(code, 1, "{cmd}");
        assert!(!part.exists(), "{cmd}");
    }
    let (code, _, _) = run(&["extract", &inputs[0], "shdr", "-o", part.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&part).unwrap(), run_bytes(&["extract", &inputs[0], "shdr"]));
}

fn run_bytes(args: &[&str]) -> Vec<u8> {
    bin().args(args).stdin(Stdio::null()).output().unwrap().stdout
}
