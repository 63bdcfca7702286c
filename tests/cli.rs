//! The command-line contract: exit statuses, stdin, JSON records, silence on success, quiet
//! exit on a closed pipe. Runs the built binary on the shipped samples.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_shaderscope"))
}

fn sample(name: &str) -> String {
    format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = bin().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn info_summarises_a_sample() {
    let (code, out, err) = run(&["info", &sample("vshader.shbin")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("summary: 1 DVLB, 1 DVLE (vertex), producer picasso\n"), "{out}");
    assert!(out.contains("    uniforms: inpos v0, inclr v1, projection c0-c3\n"), "{out}");
    assert!(out.contains("    output table: o0 position.xyzw, o1 color.xyzw\n"), "{out}");
}

#[test]
fn info_json_is_one_record_per_file_with_integer_offsets() {
    let (code, out, _) = run(&["info", "--json", &sample("vshader.shbin"), &sample("vshader.csdr")]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["schema"], 3);
    assert_eq!(v["type"], "info");
    assert_eq!(v["format"], "shbin");
    assert_eq!(v["valid"], true);
    let dvle = &v["dvlbs"][0]["dvles"][0];
    assert_eq!(dvle["offset"], 0x8c);
    assert_eq!(dvle["uniforms"][0]["name"], "inpos");
    assert_eq!(dvle["uniforms"][0]["registers"], "v0");
    assert_eq!(dvle["uniforms"][2]["name"], "projection");
    assert_eq!(dvle["uniforms"][2]["registers"], "c0-c3");
    assert_eq!(dvle["constants"][0]["register"], "c95");
    let w: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(w["format"], "csdr");
    assert_eq!(w["decoded_size"], 288);
}

#[test]
fn validate_is_silent_on_success() {
    let (code, out, err) = run(&["validate", &sample("vshader.shbin")]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

#[test]
fn exit_status_separates_bad_input_from_io_errors() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"hello world").unwrap();
    let junk = junk.to_str().unwrap();
    let (code, _, err) = run(&["info", junk]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        format!(
            "error: {junk}: invalid file at offset 0x0: not a shader binary this tool knows (first bytes \"hell\")\n"
        )
    );
    let (code, _, err) = run(&["info", "/nonexistent/x.shbin"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: /nonexistent/x.shbin: cannot read:"), "{err}");
    // 2 beats 1 when a batch has both.
    assert_eq!(run(&["validate", junk, "/nonexistent/x.shbin"]).0, 2);
    assert_eq!(run(&["bogus-subcommand"]).0, 2);
    // A program index out of range is a usage error (tests/contract.rs has more).
    let s = sample("vshader.shbin");
    let (code, _, err) = run(&["disasm", "--dvle", "3", &s]);
    assert_eq!(
        (code, err),
        (2, format!("error: {s}: --dvle 3 is out of range: the file has 1 DVLE (--dvle 0)\n"))
    );
}

#[test]
fn dash_reads_stdin() {
    let mut child = bin().args(["info", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(sample("vshader.shbin")).unwrap()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("producer picasso"));
}

#[test]
fn rewrite_check_extract_and_dump() {
    assert_eq!(run(&["rewrite", "--check", &sample("vshader.shbin"), &sample("vshader.csdr")]).0, 0);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("code.bin");
    let (code, _, err) =
        run(&["extract", &sample("vshader.shbin"), "dvle0.code", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let code_bytes = std::fs::read(&out).unwrap();
    let file = std::fs::read(sample("vshader.shbin")).unwrap();
    assert_eq!(&code_bytes[..], &file[0x34..0x54]);
    let (code, list, _) = run(&["extract", &sample("vshader.shbin")]);
    assert_eq!(code, 0);
    assert!(list.contains("dvle0.code"), "{list}");
    let (code, dump, _) = run(&["dump", &sample("vshader.shbin")]);
    assert_eq!(code, 0);
    assert!(dump.contains("  0x0000 | 44 56 4c 42             | magic \"DVLB\"\n"), "{dump}");
    assert!(!dump.contains("(unclaimed)"), "the sample has no byte outside a structure");
}

#[test]
fn an_empty_part_is_extracted_as_an_empty_file() {
    // The sample's chunks and an empty one, written by the library's DXBC writer.
    let data = std::fs::read(sample("ps_color.dxbc")).unwrap();
    let file = shaderscope::format::dxbc::Dxbc::parse(&data).unwrap();
    let mut b = shaderscope::format::dxbc::write::Builder::new();
    for c in file.chunks() {
        b.push(c.fourcc.0, c.data.to_vec());
    }
    b.push(*b"PRIV", Vec::new());
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("empty.dxbc"), dir.path().join("priv.bin"));
    std::fs::write(&input, b.finish().unwrap()).unwrap();
    let (code, list, err) = run(&["extract", input.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        list.lines().any(|l| l.starts_with("PRIV ") && l.split_whitespace().nth(2) == Some("0")),
        "{list}"
    );
    let (code, _, err) = run(&["extract", input.to_str().unwrap(), "PRIV", "-o", out.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(std::fs::read(&out).unwrap(), b"");
}

/// `-o -` is stdout for every command that takes `-o` (as it is for `asm`): no file named `-`.
#[test]
fn dash_output_is_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let dxbc = sample("ps_color.dxbc");
    let shdr = shaderscope::parse(&std::fs::read(&dxbc).unwrap()).unwrap().extract("SHDR", &[]).unwrap();
    for (args, want) in [
        (vec!["extract", &dxbc, "SHDR", "-o", "-"], shdr),
        (vec!["disasm", &dxbc, "-o", "-"], bin().args(["disasm", &dxbc]).output().unwrap().stdout),
        (
            vec!["info", "--json", &dxbc, "-o", "-"],
            bin().args(["info", "--json", &dxbc]).output().unwrap().stdout,
        ),
    ] {
        let o = bin().args(&args).current_dir(dir.path()).output().unwrap();
        assert_eq!((o.status.code(), String::from_utf8_lossy(&o.stderr).as_ref()), (Some(0), ""), "{args:?}");
        assert_eq!(o.stdout, want, "{args:?}");
        assert!(!want.is_empty());
        assert!(!dir.path().join("-").exists(), "{args:?} wrote a file named -");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let s = sample("vshader.shbin");
    let args: Vec<&str> = std::iter::once("disasm").chain(std::iter::repeat_n(s.as_str(), 3000)).collect();
    let mut child = bin().args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // The reader is dropped here: the pipe closes while the tool is still writing.
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}

#[test]
fn scan_finds_the_samples() {
    let (code, out, _) = run(&["scan", &format!("{}/samples", env!("CARGO_MANIFEST_DIR"))]);
    assert_eq!(code, 0);
    assert!(
        out.ends_with(
            "22 shader binaries (18 unique) in 14 files, 0 invalid; formats: \
             csdr 1 (1 unique), d3d9 6 (2 unique), dxbc 6 (6 unique), fx11 1 (1 unique), fx9 2 (2 unique), gfd 1 (1 unique), mbs 2 (2 unique), mgfx 1 (1 unique), sharcfb 1 (1 unique), shbin 1 (1 unique); \
             stages: pixel 13 (12 unique), vertex 15 (12 unique)\n"
        ),
        "{out}"
    );
}

/// Long runs continue on every core; the output must be the same bytes in the same order.
#[test]
fn parallel_batches_print_in_input_order() {
    let (a, b) = (sample("vshader.shbin"), sample("vshader.csdr"));
    let missing = sample("no-such-file.shbin");
    let mut args = vec!["disasm".to_string()];
    for i in 0..150 {
        args.push(if i % 3 == 0 { b.clone() } else { a.clone() });
        if i == 97 {
            args.push(missing.clone());
        }
    }
    let run_with = |after: &str| {
        let o = bin().args(&args).env("SHADERSCOPE_PARALLEL_AFTER", after).output().unwrap();
        (o.status.code(), o.stdout, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let sequential = run_with("1000000000");
    let parallel = run_with("0");
    assert_eq!(sequential.0, Some(2));
    assert!(sequential.2.contains("no-such-file.shbin: cannot read"), "{}", sequential.2);
    assert_eq!(sequential.1.len(), parallel.1.len());
    assert!(sequential.1 == parallel.1, "parallel output differs");
    assert_eq!((parallel.0, parallel.2.as_str()), (sequential.0, sequential.2.as_str()));
    let headers = String::from_utf8_lossy(&parallel.1).matches("// /").count();
    assert_eq!(headers, 150);
}

#[test]
fn fxc_option_chooses_the_listing_generation() {
    let (code, auto, _) = run(&["disasm", &sample("ps_color.dxbc")]);
    assert_eq!(code, 0);
    // The sample has no creator string: the default is fxc 6.3's wider Format column.
    assert!(
        auto.contains("// Name                 Index   Mask Register SysValue  Format   Used\n"),
        "{auto}"
    );
    let (code, old, _) = run(&["disasm", "--fxc", "9.29", &sample("ps_color.dxbc")]);
    assert_eq!(code, 0);
    assert!(old.contains("// Name                 Index   Mask Register SysValue Format   Used\n"), "{old}");
    assert!(old.contains("// COLOR                    0   xyzw        0     NONE  float   xyzw\n"), "{old}");
    let (_, json, _) = run(&["disasm", "--json", "--fxc", "10-legacy-crt", &sample("ps_color.dxbc")]);
    let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!((v["fxc"]["generation"].as_str(), v["fxc"]["source"].as_str()), (Some("10"), Some("option")));
    let (code, _, err) = run(&["disasm", "--fxc", "11", &sample("ps_color.dxbc")]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn info_json_names_reflection_enums() {
    let (code, out, err) = run(&["info", "--json", &sample("ps_color.dxbc")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let out_sig = &v["output_signature"]["elements"][0];
    assert_eq!(out_sig["system_value_name"], "D3D_NAME_TARGET");
    assert_eq!(out_sig["component_type_name"], "D3D_REGISTER_COMPONENT_FLOAT32");
    assert_eq!(out_sig["min_precision_name"], "D3D_MIN_PRECISION_DEFAULT");
}

/// `info` of a root signature alone lists its parameters, ranges and static samplers as
/// `disasm` does, and says nothing of fxc.
#[test]
fn info_lists_a_root_signature() {
    use shaderscope::format::dxbc::write::Builder;
    // Root signature 1.0: flags 0x1; a descriptor table (pixel) of one CBV range b0..b1 in
    // space 0; a static sampler s0 (all stages).
    let mut words = vec![1u32, 1, 24, 1, 64, 1];
    words.extend([0, 5, 36]); // parameter 0: table, pixel, at 36
    words.extend([1, 44]); // its range, at 44
    words.extend([2, 2, 0, 0, u32::MAX]); // CBV, 2 descriptors, b0, space 0, append
    words.extend([0x55, 3, 3, 3, 0, 1, 2, 0, 0, 0x7f7f_ffff, 0, 0, 0]); // sampler
    let mut b = Builder::new();
    b.push(*b"RTS0", words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rs.dxbc");
    std::fs::write(&path, b.finish().unwrap()).unwrap();
    let (code, out, err) = run(&["info", path.to_str().unwrap()]);
    assert_eq!((code, err.as_str()), (0, ""));
    let tail = &out[out.find("chunks:").unwrap()..];
    assert_eq!(
        tail,
        "chunks:    1 chunk\n\
         \x20  0  RTS0   header 0x000024  data 0x00002c  size     116  root signature\n\
         root signature at 0x2c: version 1.0, flags 0x1, 1 parameter, 1 static sampler\n\
         \x20 RootFlags(0x1)\n\
         \x20 DescriptorTable(CBV(b0, numDescriptors=2, space=0), visibility=SHADER_VISIBILITY_PIXEL)\n\
         \x20 StaticSampler(s0, space=0, filter=0x55, addressU=3, addressV=3, addressW=3, mipLODBias=0.0, \
         maxAnisotropy=1, comparisonFunc=2, borderColor=0, minLOD=0.0, maxLOD=3.4028235e38)\n"
    );
    assert!(!out.contains("fxc:"), "{out}");
}

/// `--color` takes an optional value (`--color[=WHEN]`), as ripgrep's and git's do: alone it
/// means always, and it never takes the next argument as its value, so `--color FILE` reads
/// FILE. Checked on every command whose help lists it.
#[test]
fn color_alone_means_always_and_never_eats_a_file() {
    let (_, help, _) = run(&["--help"]);
    let commands: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    let with_color: Vec<&String> =
        commands.iter().filter(|c| run(&[c.as_str(), "--help"]).1.contains("--color[=<WHEN>]")).collect();
    assert_eq!(with_color, ["disasm", "dump"]);
    let file = sample("ps_color.dxbc");
    for cmd in with_color {
        let cmd = cmd.as_str();
        let (code, plain, err) = run(&[cmd, &file]);
        assert_eq!(code, 0, "{err}");
        assert!(!plain.contains('\x1b'));
        let (code, coloured, err) = run(&[cmd, "--color", &file]);
        assert_eq!((code, err.as_str()), (0, ""), "{cmd} --color FILE");
        assert!(coloured.contains("\x1b["), "{cmd} --color FILE");
        assert_eq!(run(&[cmd, &file, "--color"]), (0, coloured.clone(), String::new()));
        assert_eq!(run(&[cmd, "--color=always", &file]), (0, coloured.clone(), String::new()));
        assert_eq!(run(&[cmd, "--color=never", &file]), (0, plain.clone(), String::new()));
        // Not a terminal: auto does not colour.
        assert_eq!(run(&[cmd, "--color=auto", &file]), (0, plain.clone(), String::new()));
        // A value is only ever given with `=`: in `--color never`, `never` is a file (one too
        // many for dump, a missing one for disasm).
        assert_eq!(run(&[cmd, "--color", "never", &file]).0, 2, "{cmd}");
        let (code, _, err) = run(&[cmd, "--color=sometimes", &file]);
        assert_eq!(code, 2, "{cmd}");
        assert!(err.contains("invalid value 'sometimes' for '--color[=<WHEN>]'"), "{err}");
    }
}
