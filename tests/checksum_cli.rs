//! `shaderscope checksum`: output and exit status of --verify and --fix.

use shaderscope::format::dxbc::{checksum, write::Builder};
use std::process::Command;

fn container() -> Vec<u8> {
    let mut b = Builder::new();
    b.push(*b"STAT", vec![7u8; 4 * 37]);
    b.finish().unwrap()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shaderscope")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn verify_accepts_a_good_checksum_and_rejects_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.dxbc");
    let data = container();
    std::fs::write(&good, &data).unwrap();
    let sum = checksum::hex(&checksum::compute(&data));
    let (code, out, _) = run(&["checksum", "--verify", good.to_str().unwrap()]);
    assert_eq!((code, out), (0, format!("ok {sum}\n")));

    let mut bad = data.clone();
    bad[4] ^= 0xFF;
    let bad_path = dir.path().join("bad.dxbc");
    std::fs::write(&bad_path, &bad).unwrap();
    let stored = checksum::hex(bad[4..20].try_into().unwrap());
    let (code, out, _) = run(&["checksum", "--verify", bad_path.to_str().unwrap()]);
    assert_eq!((code, out), (1, format!("mismatch: stored {stored}, computed {sum}\n")));
    // A mismatch is a failing check with or without --verify.
    let (code, out, _) = run(&["checksum", bad_path.to_str().unwrap()]);
    assert_eq!((code, out), (1, format!("mismatch: stored {stored}, computed {sum}\n")));

    let fixed = dir.path().join("fixed.dxbc");
    let (code, out, _) =
        run(&["checksum", "--fix", "-o", fixed.to_str().unwrap(), bad_path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(std::fs::read(&fixed).unwrap(), data);
}

#[test]
fn unsigned_containers_pass_unless_a_signature_is_required() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = container();
    data[4..20].fill(0);
    let p = dir.path().join("unsigned.dxbc");
    std::fs::write(&p, &data).unwrap();
    let (code, out, _) = run(&["checksum", "--verify", p.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.starts_with("unsigned: stored 00000000000000000000000000000000, computed "), "{out}");
    let (code, _, _) = run(&["checksum", "--verify", "--require-signed", p.to_str().unwrap()]);
    assert_eq!(code, 1);
}

#[test]
fn usage_errors_and_other_formats_exit_2_and_invalid_input_exits_1() {
    let (code, _, err) = run(&["checksum", "--fix", "x.dxbc"]);
    assert_eq!(code, 2, "{err}");
    let dir = tempfile::tempdir().unwrap();
    let p = format!("{}/samples/vshader.shbin", env!("CARGO_MANIFEST_DIR"));
    let p = p.as_str();
    let (code, _, err) = run(&["checksum", "--verify", p]);
    assert_eq!(
        (code, err),
        (
            2,
            format!(
                "error: {p}: checksum applies only to DXBC containers (this file: Nintendo 3DS shader binary (DVLB))\n"
            )
        )
    );
    let mut short = container();
    short.truncate(40);
    let q = dir.path().join("short.dxbc");
    std::fs::write(&q, &short).unwrap();
    let q = q.to_str().unwrap();
    let (code, _, err) = run(&["checksum", q]);
    assert_eq!(
        (code, err),
        (
            1,
            format!(
                "error: {q}: truncated DXBC container at offset 0x0 (need {} bytes, have 40)\n",
                container().len()
            )
        )
    );
}

/// `disasm` hashes the checksums of a group of files side by side; each listing must still get
/// its own file's verdict (fxc's note on a wrong checksum), whatever the sizes and the order.
#[test]
fn disasm_notes_exactly_the_containers_with_a_wrong_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    let mut bad = Vec::new();
    for i in 0..75usize {
        let mut b = Builder::new();
        b.push(*b"STAT", vec![i as u8; 4 * 37]);
        // Sizes across the padding cases and a few multi-block bodies.
        b.push(*b"PRIV", vec![0xA5; (i * 37) % 300]);
        let mut data = b.finish().unwrap();
        if i % 7 == 3 {
            data[4 + i % 16] ^= 0x40;
            bad.push(i);
        }
        let p = dir.path().join(format!("f{i:02}.dxbc"));
        std::fs::write(&p, &data).unwrap();
        paths.push(p.to_str().unwrap().to_string());
    }
    let mut args = vec!["disasm"];
    args.extend(paths.iter().map(String::as_str));
    for after in ["1000000000", "0"] {
        let out = Command::new(env!("CARGO_BIN_EXE_shaderscope"))
            .args(&args)
            .env("SHADERSCOPE_PARALLEL_AFTER", after)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        let noted: Vec<usize> = text
            .split("// /")
            .skip(1)
            .enumerate()
            .filter(|(_, listing)| listing.contains("SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED"))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(noted, bad, "parallel after {after} bytes");
    }
}

/// --fix on a container whose program is cut inside a declaration (an indexable temp
/// declaration with no room for its register) writes the repaired copy, says that its
/// checksum is fixed and that the file is still invalid, and exits 1; `checksum --help` says
/// what that status means.
#[test]
fn fix_says_the_file_is_still_invalid_when_a_part_is_damaged() {
    let dir = tempfile::tempdir().unwrap();
    // `ps_4_0`, 3 tokens: the last one opens `dcl_indexableTemp` (1 DWORD long).
    let tokens: Vec<u8> = [0x40u32, 3, 0x0100_0069].iter().flat_map(|t| t.to_le_bytes()).collect();
    let good = Builder::new().push(*b"SHDR", tokens).finish().unwrap();
    let mut bad = good.clone();
    bad[4] ^= 0xff;
    let (input, fixed) = (dir.path().join("bad.dxbc"), dir.path().join("fixed.dxbc"));
    std::fs::write(&input, &bad).unwrap();
    let (input, fixed) = (input.to_str().unwrap(), fixed.to_str().unwrap());
    let (stored, computed) =
        (checksum::hex(bad[4..20].try_into().unwrap()), checksum::hex(&checksum::compute(&good)));
    let (code, out, err) = run(&["checksum", "--fix", "-o", fixed, input]);
    assert_eq!(
        (code, out, err),
        (
            1,
            format!("{input}: checksum {stored} replaced by {computed}; wrote {fixed}\n"),
            format!(
                "error: {input}: fixed the checksum → {fixed}; the file is still invalid: truncated \
                 indexable temp register at offset 0x38 (need 4 bytes, have 0)\n"
            )
        )
    );
    assert_eq!(std::fs::read(fixed).unwrap(), good);
    let (code, help, _) = run(&["checksum", "--help"]);
    assert_eq!(code, 0);
    assert!(
        help.contains("with --fix: the fixed file was written, but a part of it is damaged, which a checksum\n     does not repair"),
        "{help}"
    );
}
