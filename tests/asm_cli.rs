//! `shaderscope asm`: listings back into binaries, --like, --verify, errors and exit status.

use std::path::Path;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shaderscope")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name).to_str().unwrap().to_string()
}

#[test]
fn a_disassembled_sample_assembles_back_to_the_same_container() {
    let dir = tempfile::tempdir().unwrap();
    let (listing, out) = (dir.path().join("ps.asm"), dir.path().join("ps.dxbc"));
    let original = sample("ps_color.dxbc");
    let (code, text, _) = run(&["disasm", "--exact-floats", &original]);
    assert_eq!(code, 0);
    std::fs::write(&listing, &text).unwrap();
    let (code, stdout, stderr) = run(&["asm", listing.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&original).unwrap());
    // --verify says every chunk is the same.
    let (code, stdout, _) = run(&["asm", listing.to_str().unwrap(), "--verify", &original]);
    assert_eq!((code, stdout.as_str()), (0, "ISGN  same\nOSGN  same\nSHDR  same\n"));
}

#[test]
fn an_edit_is_reported_by_verify_and_kept_by_like() {
    let dir = tempfile::tempdir().unwrap();
    let (listing, out) = (dir.path().join("ps.asm"), dir.path().join("ps.dxbc"));
    let original = sample("ps_color.dxbc");
    let text = std::fs::read_to_string(sample("ps_color.asm")).unwrap().replace("0.900000", "0.500000");
    std::fs::write(&listing, &text).unwrap();
    let (code, stdout, _) = run(&[
        "asm",
        listing.to_str().unwrap(),
        "--like",
        &original,
        "--verify",
        &original,
        "-o",
        out.to_str().unwrap(),
    ]);
    // mul's literal values start at token 14 of the program: byte 0x38 of the chunk.
    assert_eq!(
        (code, stdout.as_str()),
        (1, "ISGN  same\nOSGN  same\nSHDR  differs from payload offset 0x38 (96 bytes, the original 96)\n")
    );
    let (code, listed, _) = run(&["disasm", out.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(listed.contains("mul o0.xyz, v0.xyzx, l(0.500000, 0.500000, 0.500000, 0.000000)"), "{listed}");
    // The checksum of the edited container is computed again.
    assert_eq!(run(&["checksum", out.to_str().unwrap()]).0, 0);
}

#[test]
fn a_bad_line_is_named_with_its_column_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (listing, out) = (dir.path().join("bad.asm"), dir.path().join("bad.dxbc"));
    std::fs::write(&listing, "ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzq\nret\n").unwrap();
    let (code, stdout, stderr) = run(&["asm", listing.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            1,
            "",
            format!("error: {}: line 3, column 20: expected the end of the line\n", listing.display())
                .as_str()
        )
    );
    assert!(!out.exists());
    // Usage: an output or --verify is needed; --like applies to DXBC.
    assert_eq!(run(&["asm", listing.to_str().unwrap()]).0, 2);
    std::fs::write(&listing, "vs_2_0\ndcl_position v0\nmov oPos, v0\n").unwrap();
    let (code, _, stderr) =
        run(&["asm", listing.to_str().unwrap(), "--like", &sample("ps_color.dxbc"), "-o", "-"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn a_direct3d_9_listing_gives_its_bytecode() {
    let dir = tempfile::tempdir().unwrap();
    let (listing, out) = (dir.path().join("vs.asm"), dir.path().join("vs.o"));
    let text =
        "    vs_2_0\n    dcl_position v0\n    mov oPos, v0\n\n// approximately 1 instruction slot used\n";
    std::fs::write(&listing, text).unwrap();
    let (code, _, stderr) = run(&["asm", listing.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let words: Vec<u32> =
        std::fs::read(&out).unwrap().chunks(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect();
    assert_eq!(
        words,
        [0xfffe0200, 0x0200001f, 0x80000000, 0x900f0000, 0x02000001, 0xc00f0000, 0x90e40000, 0xffff]
    );
    let (code, listed, _) = run(&["disasm", "--no-header", out.to_str().unwrap()]);
    assert_eq!((code, listed.as_str()), (0, text));
    let (code, stdout, _) = run(&["asm", listing.to_str().unwrap(), "--verify", out.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (0, "program  same\n"));
}
