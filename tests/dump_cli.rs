//! `dump` and partial results at the command line: rows, JSON, byte ranges, and what a damaged
//! file gives (the rest printed, the damage on stderr, exit status 1). Damaged inputs are made
//! here from the shipped samples.

use std::process::Command;

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Run the tool on `input` written to a file; (status, stdout, stderr).
fn run(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input");
    std::fs::write(&path, input).unwrap();
    let path = path.to_str().unwrap();
    let args: Vec<&str> = args.iter().map(|a| if *a == "FILE" { path } else { a }).collect();
    let o = Command::new(env!("CARGO_BIN_EXE_shaderscope")).args(&args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).replace(path, "FILE");
    (o.status.code().unwrap_or(-1), text(&o.stdout), text(&o.stderr))
}

#[test]
fn every_byte_once_with_a_range_and_as_json() {
    let vs = sample("vshader.shbin");
    let (code, out, err) = run(&["dump", "FILE"], &vs);
    assert_eq!((code, err.as_str()), (0, ""));
    let offsets: Vec<&str> =
        out.lines().filter_map(|l| l.get(2..8)).filter(|o| o.starts_with("0x")).collect();
    let mut sorted = offsets.clone();
    sorted.dedup();
    assert_eq!(offsets, sorted, "no offset is shown twice");

    let (code, out, _) = run(&["dump", "FILE", "--start", "0x30", "--stop", "60"], &vs);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "  offset | bytes                   | meaning\n\
         \x20        |                         | == DVLP header (0xc..0x34)\n\
         \x20 0x0030 | 00 00 00 00             | filename table size: 0 bytes\n\
         \x20        |                         | == code (0x34..0x54)\n\
         \x20 0x0034 | 00 00 00 4e             | [000] mov r0.xyz, v0 [opdesc 0x00]\n\
         \x20 0x0038 | 01 f0 07 4e             | [001] mov r0.w, c95.y [opdesc 0x01]\n"
    );

    let (code, out, _) = run(&["dump", "--json", "FILE", "--stop", "4"], &vs);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "{\"schema\":3,\"type\":\"dump\",\"format\":\"shbin\",\"path\":\"FILE\",\"valid\":true,\"size\":288,\
         \"errors\":[],\"rows\":[{\"kind\":\"section\",\"offset\":0,\"length\":12,\"depth\":0,\"title\":\"DVLB header\"},\
         {\"kind\":\"field\",\"offset\":0,\"length\":4,\"meaning\":\"magic \\\"DVLB\\\"\"}]}\n"
    );
    let record: serde_json::Value = serde_json::from_str(&run(&["dump", "--json", "FILE"], &vs).1).unwrap();
    assert_eq!(record["rows"].as_array().unwrap().len(), out_rows(&run(&["dump", "FILE"], &vs).1));

    let (code, _, err) = run(&["dump", "FILE", "--start", "zz"], &vs);
    assert_eq!(code, 2);
    assert!(err.contains("`zz` is not a byte offset (0x1c or 28)"), "{err}");
}

/// A range that shows no byte (reversed, empty, past the end of the file) is a usage error
/// with both ends, as `disasm --format`'s range is; it printed the header alone and exited 0.
#[test]
fn a_range_without_bytes_is_a_usage_error() {
    let vs = sample("vshader.shbin");
    for (args, why) in [
        (&["--start", "0x80", "--stop", "0x10"][..], "at offset 0x80: the start 0x80 is after the stop 0x10"),
        (
            &["--start", "0x10", "--stop", "16"],
            "at offset 0x10: 0x10..0x10 is empty: the stop is the first byte not shown",
        ),
        (&["--start", "288"], "at offset 0x120: 0x120..0x120 is empty: the stop is the first byte not shown"),
        (&["--stop", "0x200"], "at offset 0x200: 0x0..0x200 reaches past the end of the input (0x120 bytes)"),
    ] {
        for mode in [&[][..], &["--json"], &["--html"]] {
            let all: Vec<&str> = ["dump", "FILE"].iter().chain(args).chain(mode).copied().collect();
            let (code, out, err) = run(&all, &vs);
            assert_eq!(
                (code, out.as_str(), err),
                (2, "", format!("error: FILE: invalid byte range {why}\n")),
                "{all:?}"
            );
        }
    }
    // The last byte alone is a range.
    let (code, out, _) = run(&["dump", "FILE", "--start", "258"], &vs);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l.starts_with("  0x0102 | ")), "{out}");
}

/// Rows of a text dump (lines after the heading).
fn out_rows(text: &str) -> usize {
    text.lines().skip(1).filter(|l| !l.ends_with('|')).count()
}

#[test]
fn a_cut_file_is_dumped_up_to_the_cut_and_exits_1() {
    let vs = sample("vshader.shbin");
    let (code, out, err) = run(&["dump", "FILE"], &vs[..0x3a]);
    let error = "DVLP code at offset 0x14 points outside its range (0x34 + 0x20 is outside 0x3a)";
    assert_eq!(code, 1);
    assert_eq!(err, format!("error: FILE: {error}\n"));
    assert!(out.ends_with(&format!("  0x0038 | 01 f0                   | not read: {error}\n")), "{out}");
    assert!(out.contains("  0x0004 | 01 00 00 00             | DVLE count: 1\n"), "{out}");

    let (code, out, err) = run(&["dump", "--json", "FILE"], &vs[..0x3a]);
    assert_eq!((code, err.as_str()), (1, ""));
    let record: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(record["valid"], false);
    assert_eq!(record["errors"], serde_json::json!([{"offset": 0x14, "message": error}]));

    // Not a shader at all: nothing to dump.
    let (code, out, err) = run(&["dump", "FILE"], b"hello");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.starts_with("error: FILE: invalid file at offset 0x0: not a shader binary"), "{err}");
}

#[test]
fn a_dxbc_with_a_broken_chunk_still_lists_its_program() {
    let mut ps = sample("ps_color.dxbc");
    // The ISGN element's name offset points past the chunk.
    ps[0x3c..0x40].copy_from_slice(&0x400u32.to_le_bytes());
    let error =
        "signature element name at offset 0x3c points outside its range (0x434 + 0x1 is outside 0x5c)";
    let (code, out, err) = run(&["disasm", "FILE"], &ps);
    assert_eq!(code, 1);
    assert_eq!(err, format!("error: FILE: {error}\n"));
    assert_eq!(
        out,
        format!(
            "//\n// Generated by Microsoft (R) D3D Shader Disassembler\n//\n\
             // Note: chunk 0 (ISGN) is damaged and not shown: {error}\n//\n//\n\
             // Note: SHADER WILL ONLY WORK WITH THE DEBUG SDK LAYER ENABLED.\n//\n//\n//\n\
             // Output signature:\n//\n\
             // Name                 Index   Mask Register SysValue  Format   Used\n\
             // -------------------- ----- ------ -------- -------- ------- ------\n\
             // SV_Target                0   xyzw        0   TARGET   float   xyzw\n//\n\
             ps_4_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret \n\
             // Approximately 0 instruction slots used\n"
        )
    );
    let (code, out, err) = run(&["info", "FILE"], &ps);
    assert_eq!(code, 1);
    assert!(out.contains("program:   ps_4_0 (pixel shader) in SHDR: 14 tokens at 0x98, 56 bytes\n"), "{out}");
    assert_eq!(err, format!("error: FILE: {error}\n"));
    let (code, out, err) = run(&["dump", "FILE"], &ps);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!("  0x0034 | 01 00 00 00 08 00 00 00 | payload not read: {error}\n")),
        "{out}"
    );
    assert_eq!(err, format!("error: FILE: {error}\n"));
}

/// `--color` and `--html` show the same text as the plain dump: with the escapes (or tags)
/// taken out, line for line; every HTML line that shows bytes carries the offset of its
/// first byte; colour never runs past a line break; the page is whole.
#[test]
fn color_and_html_dumps_show_the_plain_text() {
    for name in ["ps_color.dxbc", "vshader.shbin"] {
        let file = sample(name);
        let (_, plain, _) = run(&["dump", "FILE"], &file);
        let (code, ansi, _) = run(&["dump", "FILE", "--color=always"], &file);
        assert_eq!(code, 0);
        assert!(ansi.contains("\x1b[33m"), "bytes are coloured");
        // The last escape of each coloured line is a reset.
        assert!(
            ansi.lines().filter_map(|l| l.rfind('\x1b').map(|i| &l[i..])).all(|e| e.starts_with("\x1b[0m"))
        );
        let stripped: String = {
            let mut s = String::new();
            let mut rest = ansi.as_str();
            while let Some(i) = rest.find('\x1b') {
                s.push_str(&rest[..i]);
                rest = &rest[i..];
                rest = &rest[rest.find('m').unwrap() + 1..];
            }
            s + rest
        };
        assert_eq!(stripped, plain, "{name}");

        let (code, html, _) = run(&["dump", "FILE", "--html"], &file);
        assert_eq!(code, 0);
        assert!(html.starts_with("<!DOCTYPE html>\n") && html.ends_with("</html>\n"));
        let mut lines = Vec::new();
        for l in html.lines().filter(|l| l.starts_with("<div") && l.ends_with("</div>")) {
            let offset = l
                .strip_prefix("<div data-offset=\"")
                .map(|r| r[..r.find('"').unwrap()].parse::<u64>().unwrap());
            let mut text = String::new();
            let mut in_tag = false;
            for c in l.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            let text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
            if let Some(o) = offset {
                let column = text.trim_start().strip_prefix("0x").unwrap().split(' ').next().unwrap();
                assert_eq!(u64::from_str_radix(column, 16).unwrap(), o, "{text}");
            }
            lines.push(text);
        }
        assert_eq!(lines.join("\n") + "\n", plain, "{name}");
    }
}
