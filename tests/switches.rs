//! `disasm`'s listing switches and bare programs from the command line: fxc's `/Ni`, `/No`,
//! `/Lx`, instruction-only and no-header layouts on the DXBC sample, `--file-offsets` in every
//! format, `disasm --format sm4|d3d9|pica` on what `extract` writes and on `--start`/`--stop`
//! ranges of the container, and the usage errors (exit 2) of options that do not apply.

use std::path::PathBuf;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_shaderscope")).args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// stdout of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn sample(name: &str) -> String {
    format!("{}/samples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A scratch file for this test process.
fn scratch(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("shaderscope-switches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

/// `(offset, size)` of a part in `extract FILE`'s table.
fn part(file: &str, name: &str) -> (u64, u64) {
    let table = ok(&["extract", file]);
    let row = table.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    (u64::from_str_radix(cols[1].trim_start_matches("0x"), 16).unwrap(), cols[2].parse().unwrap())
}

#[test]
fn fxc_switches_on_the_dxbc_sample() {
    let f = sample("ps_color.dxbc");
    let program = "ps_4_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret \n";
    let footer = "// Approximately 0 instruction slots used\n";
    assert_eq!(ok(&["disasm", "--no-header", &f]), format!("{program}{footer}"));
    assert_eq!(ok(&["disasm", "--instruction-only", &f]), program);
    assert_eq!(
        ok(&["disasm", "--instruction-only", "--numbering", "--offsets", &f]),
        "      0x00000000: ps_4_0\n      0x00000008: dcl_input_ps linear v0.xyzw\n      0x00000014: dcl_output o0.xyzw\n   0  0x00000020: mov o0.xyzw, v0.xyzw\n   1  0x00000034: ret \n"
    );
    assert_eq!(
        ok(&["disasm", "--instruction-only", "--numbering", &f]),
        "      ps_4_0\n      dcl_input_ps linear v0.xyzw\n      dcl_output o0.xyzw\n   0: mov o0.xyzw, v0.xyzw\n   1: ret \n"
    );
    // The SHDR data starts at 0x98 of the file.
    assert_eq!(
        ok(&["disasm", "--instruction-only", "--file-offsets", &f]),
        "0x00000098: ps_4_0\n0x000000A0: dcl_input_ps linear v0.xyzw\n0x000000AC: dcl_output o0.xyzw\n0x000000B8: mov o0.xyzw, v0.xyzw\n0x000000CC: ret \n"
    );
    // The comment tables are untouched by the switches.
    let full = ok(&["disasm", "--numbering", "--offsets", "--hex-literals", &f]);
    let plain = ok(&["disasm", &f]);
    let header = plain.split("ps_4_0").next().unwrap();
    assert!(full.starts_with(header) && full.ends_with(footer));
}

/// `--fxc` reaches the DXBC programs of an fx_5_0 effect: fxc 9.x declares `cb0`, fxc 10 `CB0`.
#[test]
fn fxc_generation_on_the_effect_sample() {
    let f = sample("effect11.fxo");
    let line =
        |text: &str| text.lines().find(|l| l.contains("dcl_constantbuffer")).map(str::trim).map(String::from);
    assert_eq!(line(&ok(&["disasm", &f])).as_deref(), Some("dcl_constantbuffer CB0[1], immediateIndexed"));
    assert_eq!(
        line(&ok(&["disasm", "--fxc", "9.29", &f])).as_deref(),
        Some("dcl_constantbuffer cb0[1], immediateIndexed")
    );
}

/// A Direct3D 9 effect's listing takes only the legacy C runtime (its `def` ties round away
/// from zero); it is the same listing where no `def` holds a tie.
#[test]
fn legacy_crt_on_the_fx_2_0_sample() {
    let f = sample("effect.fxo");
    assert_eq!(ok(&["disasm", "--fxc", "10-legacy-crt", &f]), ok(&["disasm", &f]));
    let (code, _, err) = run(&["disasm", "--fxc", "9.29", &f]);
    assert_eq!(code, 2);
    assert!(
        err.ends_with(
            "--fxc applies to Direct3D 9 listings only as 10-legacy-crt (a C runtime that rounds ties away from zero) (this file: Direct3D 9 effect (fx_2_0))\n"
        ),
        "{err}"
    );
}

#[test]
fn file_offsets_in_every_format() {
    // SHBIN shows file offsets either way; a .csdr shows offsets in its decoded bytes.
    let f = sample("vshader.shbin");
    assert_eq!(ok(&["disasm", "--file-offsets", &f]), ok(&["disasm", "--offsets", &f]));
    assert!(ok(&["disasm", "--file-offsets", &f]).contains("\tend ; 0x000050\n"));
    let (code, _, err) = run(&["disasm", "--offsets", "--file-offsets", &f]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn bare_programs_of_the_samples() {
    // SM4: the extracted SHDR, and the same bytes as a range of the container.
    let f = sample("ps_color.dxbc");
    let shdr = scratch("ps_color.shdr");
    ok(&["extract", &f, "SHDR", "-o", &shdr]);
    assert_eq!(ok(&["disasm", "--format", "sm4", &shdr]), ok(&["disasm", "--instruction-only", &f]));
    assert_eq!(
        ok(&["disasm", "--format", "sm4", "--offsets", "--numbering", &shdr]),
        ok(&["disasm", "--instruction-only", "--offsets", "--numbering", &f])
    );
    for (start, stop) in [("0x98", "0xd0"), ("152", "208")] {
        assert_eq!(
            ok(&["disasm", "--format", "sm4", "--start", start, "--stop", stop, "--file-offsets", &f]),
            ok(&["disasm", "--instruction-only", "--file-offsets", &f])
        );
    }
    // From --start to the end of the file: the length token ends the program.
    assert_eq!(
        ok(&["disasm", "--format", "sm4", "--start", "0x98", &f]),
        ok(&["disasm", "--format", "sm4", &shdr])
    );

    // PICA200: the code blob with its operand descriptors is the DVLE's program, registers
    // named plainly (a bare blob has no tables); without them it says what is missing.
    let f = sample("vshader.shbin");
    let (code, opdescs) = (scratch("vshader.code"), scratch("vshader.opdescs"));
    ok(&["extract", &f, "code", "-o", &code]);
    ok(&["extract", &f, "opdescs", "-o", &opdescs]);
    let expected = "; vertex shader: entry 0x000..0x008 of 8 code words, 7 operand descriptors\n.entry main\n\n.proc main\n\
                    \tmov r0.xyz, v0 ; 0x000034\n\tmov r0.w, c95.y ; 0x000038\n\tdp4 o0.x, c0, r0 ; 0x00003c\n\
                    \tdp4 o0.y, c1, r0 ; 0x000040\n\tdp4 o0.z, c2, r0 ; 0x000044\n\tdp4 o0.w, c3, r0 ; 0x000048\n\
                    \tmov o1, v1 ; 0x00004c\n\tend ; 0x000050\n.end\n";
    assert_eq!(
        ok(&[
            "disasm",
            "--format",
            "pica",
            "--opdesc",
            &opdescs,
            "--start",
            "0x34",
            "--stop",
            "0x54",
            "--file-offsets",
            &f
        ]),
        expected
    );
    assert_eq!(
        ok(&["disasm", "--format", "pica", "--opdesc", &opdescs, "--offsets", &code]),
        expected.lines().map(|l| shift_pica_offset(l, 0x34)).collect::<Vec<_>>().join("\n") + "\n"
    );
    let bare = ok(&["disasm", "--format", "pica", &code]);
    assert!(bare.starts_with("; no operand descriptors"), "{bare}");
    assert!(bare.contains("\tdp4 o0, c0, r0 ; opdesc 0x02 is outside the table\n"), "{bare}");

    // D3D9 and SM4 records as JSON carry the ISA and file offsets.
    let json = ok(&["disasm", "--format", "sm4", "--json", "--start", "0x98", &sample("ps_color.dxbc")]);
    let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(
        (v["type"].as_str(), v["format"].as_str(), v["valid"].as_bool()),
        (Some("disasm"), None, Some(true))
    );
    let program = &v["programs"][0];
    assert_eq!((program["isa"].as_str(), program["offset"].as_u64()), (Some("sm4"), Some(0x98)));
    assert_eq!(program["instructions"][2]["offset"], 0xb8);
    assert_eq!(program["instructions"][2]["text"], "mov o0.xyzw, v0.xyzw");
}

/// A PICA listing line's trailing `; 0x…` offset moved back by `by` (the extracted blob
/// starts at 0).
fn shift_pica_offset(line: &str, by: u64) -> String {
    match line.rsplit_once(" ; 0x") {
        Some((text, o)) => {
            let o = u64::from_str_radix(o, 16).unwrap() - by;
            format!("{text} ; 0x{o:06x}")
        }
        None => line.to_string(),
    }
}

#[test]
fn options_that_do_not_apply_are_usage_errors() {
    let shbin = sample("vshader.shbin");
    let dxbc = sample("ps_color.dxbc");
    let cases: &[(&[&str], &str)] = &[
        (&["disasm", "--numbering", &shbin], "--numbering applies only to DXBC and Direct3D 9 listings"),
        (
            &["disasm", "--hex-literals", &shbin],
            "--hex-literals applies only to DXBC and Direct3D 9 listings",
        ),
        (&["disasm", "--no-header", &shbin], "--no-header applies only"),
        (&["disasm", "--instruction-only", &shbin], "--instruction-only applies only"),
        (
            &["disasm", "--format", "pica", "--numbering", &shbin],
            "--numbering applies only to DXBC and Direct3D 9",
        ),
        (
            &["disasm", "--format", "d3d9", "--opdesc", &shbin, &dxbc],
            "--opdesc applies only to --format pica",
        ),
        (
            &["disasm", "--format", "pica", "--fxc", "10", &shbin],
            "--fxc applies only to DXBC containers and --format sm4",
        ),
        (&["disasm", "--start", "4", &dxbc], "--format"),
        (&["disasm", "--format", "sm4", "--dvle", "0", &dxbc], "cannot be used with"),
        (&["disasm", "--format", "sm4", "--start", "0xZZ", &dxbc], "is not a byte offset"),
        (
            &["disasm", "--format", "sm4", "--start", "0x10", "--stop", "8", &dxbc],
            "the start 0x10 is after the stop 0x8",
        ),
        (&["disasm", "--format", "sm4", "--stop", "0x100000", &dxbc], "reaches past the end of the input"),
        (&["disasm", "--format", "pica", "--opdesc", "/nonexistent/opdescs", &shbin], "cannot read"),
    ];
    for (args, message) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty() && err.contains(message), "{args:?}: {err}");
    }
    // A bare program that is not one is invalid input (exit 1), with the offset.
    let (code, _, err) = run(&["disasm", "--format", "d3d9", &dxbc]);
    assert_eq!(code, 1);
    assert!(err.contains("offset 0x0"), "{err}");
    let (code, _, err) = run(&["disasm", "--format", "pica", "--start", "1", &shbin]);
    assert_eq!(code, 1);
    assert!(err.contains("not a whole number of 4-byte words"), "{err}");
}

/// The corpus, when present: for a spread of DXBC, Direct3D 9 and SHBIN files, what `extract`
/// writes disassembles as a bare program to the container's own lines, and so does the
/// container's byte range.
#[test]
fn bare_programs_of_corpus_files_match_their_containers() {
    let corpus = std::env::var_os("SHADERSCOPE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if !corpus.is_dir() {
        println!("skipped: corpus not found at {}", corpus.display());
        return;
    }
    let manifest = |format: &str, kind: &str| -> Vec<String> {
        let text = std::fs::read_to_string(corpus.join(format).join("MANIFEST.tsv")).unwrap_or_default();
        text.lines()
            .skip(1)
            .filter(|l| l.split('\t').nth(6) == Some(kind))
            .map(|l| corpus.join(format).join(l.split('\t').next().unwrap()).to_string_lossy().into_owned())
            .collect()
    };
    let mut checked = 0;
    let dxbc = manifest("dxbc", "dxbc-binary");
    for f in dxbc.iter().step_by(97) {
        let table = ok(&["extract", f]);
        let Some(tag) = ["SHEX", "SHDR"].into_iter().find(|t| table.lines().any(|l| l.starts_with(t))) else {
            continue;
        };
        let (offset, size) = part(f, tag);
        let out = scratch("program.bin");
        ok(&["extract", f, tag, "-o", &out]);
        // The container's fxc generation, so both print floats alike.
        let info = ok(&["disasm", "--json", f]);
        let v: serde_json::Value = serde_json::from_str(info.lines().next().unwrap()).unwrap();
        let generation = v["fxc"]["generation"].as_str().unwrap_or("10");
        let container =
            ok(&["disasm", "--fxc", generation, "--instruction-only", "--offsets", "--numbering", f]);
        assert_eq!(
            ok(&["disasm", "--format", "sm4", "--fxc", generation, "--offsets", "--numbering", &out]),
            container,
            "{f}"
        );
        let (start, stop) = (format!("0x{offset:x}"), format!("{}", offset + size));
        assert_eq!(
            ok(&[
                "disasm",
                "--format",
                "sm4",
                "--fxc",
                generation,
                "--file-offsets",
                "--start",
                &start,
                "--stop",
                &stop,
                f
            ]),
            ok(&["disasm", "--fxc", generation, "--instruction-only", "--file-offsets", f]),
            "{f}"
        );
        checked += 1;
    }
    for f in manifest("dxbc", "d3dbc-binary").iter().step_by(3) {
        let out = scratch("program.d3d9");
        ok(&["extract", f, "program", "-o", &out]);
        assert_eq!(
            ok(&["disasm", "--format", "d3d9", "--numbering", "--offsets", &out]),
            ok(&["disasm", "--numbering", "--offsets", f]),
            "{f}"
        );
        checked += 1;
    }
    for f in manifest("shbin", "shbin").iter().step_by(9) {
        let (offset, size) = part(f, "code");
        let (code, opdescs) = (scratch("code.bin"), scratch("opdescs.bin"));
        ok(&["extract", f, "code", "-o", &code]);
        ok(&["extract", f, "opdescs", "-o", &opdescs]);
        let extracted = ok(&["disasm", "--format", "pica", "--opdesc", &opdescs, &code]);
        let (start, stop) = (format!("{offset}"), format!("0x{:x}", offset + size));
        let ranged =
            ok(&["disasm", "--format", "pica", "--opdesc", &opdescs, "--start", &start, "--stop", &stop, f]);
        assert_eq!(extracted, ranged, "{f}");
        // Every instruction line of the DVLE listings (with file offsets and raw words) is in
        // the bare listing with the same offset and word.
        let bare = ok(&[
            "disasm",
            "--format",
            "pica",
            "--opdesc",
            &opdescs,
            "--file-offsets",
            "--raw",
            "--start",
            &start,
            "--stop",
            &stop,
            f,
        ]);
        let tail = |l: &str| l.rsplit_once(" ; ").map(|(_, t)| t.to_string());
        let bare_tails: std::collections::HashSet<String> = bare.lines().filter_map(tail).collect();
        let dvles = ok(&["disasm", "--file-offsets", "--raw", f]);
        let in_procs = dvles.lines().take_while(|l| !l.starts_with("; code no DVLE runs"));
        for l in in_procs.filter(|l| l.starts_with('\t')).filter_map(tail) {
            if l.starts_with("0x") && !bare_tails.contains(&l) {
                // Words the bare entry does not reach are listed as comments with their word.
                let word = l.split(' ').nth(1).unwrap();
                assert!(bare.contains(&format!("  {word}  ")), "{f}: {l}");
            }
        }
        checked += 1;
    }
    println!("{checked} corpus files checked");
    assert!(checked > 20);
}

/// `disasm --format mali-gp`: Mali GP code with no container, from a file of its own and as a
/// byte range of a larger one (offsets the file's), a cut-short instruction reported at its
/// offset; with the corpus, the `DBIN` range of every vertex shader MBS lists exactly Mesa's
/// reference listing.
#[test]
fn bare_mali_gp_code() {
    use shaderscope::isa::mali_gp::Instr;
    // mov.a0 of attribute 2 .w to varying 0 .x, then an instruction with nothing to do.
    // What the compilers write in an idle instruction (`pass_op` 2), so that the text
    // carries every field (no `; fields` line).
    let idle = Instr { pass_op: 2, ..Instr::idle() };
    let mov = Instr {
        acc0_src0: 3,
        acc0_src1: 22,
        acc0_src1_neg: 1,
        register0_attribute: 1,
        register0_addr: 2,
        store0_src_x: 0,
        store0_varying: 1,
        ..idle
    };
    let mut file = vec![0xAAu8; 16];
    file.extend(mov.encode().to_le_bytes());
    file.extend(idle.encode().to_le_bytes());
    let code = scratch("gp.bin");
    std::fs::write(&code, file.get(16..).unwrap()).unwrap();
    let whole = scratch("gp-in-file.bin");
    std::fs::write(&whole, &file).unwrap();
    assert_eq!(ok(&["disasm", "--format", "mali-gp", &code]), "000:\tmov.a0 ^0/v0.x a2.w\n001:\tnop\n");
    assert_eq!(
        ok(&["disasm", "--format", "mali-gp", "--file-offsets", "--start", "0x10", &whole]),
        "0x00000010: 000:\tmov.a0 ^0/v0.x a2.w\n0x00000020: 001:\tnop\n"
    );
    let json = ok(&["disasm", "--format", "mali-gp", "--json", "--start", "16", &whole]);
    let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let program = &v["programs"][0];
    assert_eq!((program["isa"].as_str(), program["offset"].as_u64()), (Some("mali-gp"), Some(16)));
    assert_eq!(program["instructions"][0]["text"].as_str(), Some("mov.a0 ^0/v0.x a2.w"));
    assert_eq!(program["instructions"][1]["offset"].as_u64(), Some(0x20));
    // Cut 4 bytes into the second instruction: the first is listed, the rest reported at
    // its file offset, exit 1.
    let (status, out, err) = run(&["disasm", "--format", "mali-gp", "--start", "16", "--stop", "36", &whole]);
    assert_eq!(status, 1, "{err}");
    assert!(out.starts_with("000:\tmov.a0 ^0/v0.x a2.w\n"), "{out}");
    assert!(err.contains("truncated Mali GP instruction at offset 0x20 (need 16 bytes, have 4)"), "{err}");
    let (status, _, err) = run(&["disasm", "--format", "mali-gp", "--numbering", &code]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("--numbering applies only to DXBC and Direct3D 9 listings"), "{err}");

    let corpus = std::env::var_os("SHADERSCOPE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let reference = corpus.join("mbs/reference/mesa-lima");
    if !reference.is_dir() {
        println!("skipped: corpus not found at {}", corpus.display());
        return;
    }
    let mut checked = 0;
    let mut stack = vec![corpus.join("mbs")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let rel = p.strip_prefix(corpus.join("mbs")).unwrap().to_string_lossy().into_owned();
            let data = std::fs::read(&p).unwrap();
            // A vertex shader: MBS1, then CVER; its code is the DBIN chunk's payload.
            if rel.starts_with("reference")
                || data.get(..4) != Some(b"MBS1")
                || data.get(8..12) != Some(b"CVER")
            {
                continue;
            }
            let Ok(want) = std::fs::read_to_string(reference.join(format!("{rel}.mesa-lima_disasm.txt")))
            else {
                continue;
            };
            let at = data.windows(4).position(|w| w == b"DBIN").unwrap();
            let size = u32::from_le_bytes(data[at + 4..at + 8].try_into().unwrap()) as usize;
            let (start, stop) = ((at + 8).to_string(), (at + 8 + size).to_string());
            let path = p.to_string_lossy();
            // Mesa's text, then the fields it does not carry (`isa::mali_gp::asm`), if any.
            let have = ok(&["disasm", "--format", "mali-gp", "--start", &start, "--stop", &stop, &path]);
            let fields = have.lines().skip(want.lines().count()).all(|l| l.starts_with("; fields "));
            assert!(have.starts_with(&want) && fields, "{rel}:\n{have}");
            checked += 1;
        }
    }
    println!("{checked} Mali GP programs checked");
    assert!(checked >= 9, "{checked}");
}

#[test]
fn bare_mali_pp_code() {
    // limare's clear shader (open-gpu-tools, MIT): its DBIN words, 8 bytes into a file.
    // Mesa's lima_disasm prints the one line below for it.
    let words = [0x0002_1025u32, 0x0000_0e4c, 0x03c0_07cf, 0x03c0_03c0, 0x0000_03c0];
    let mesa = "@     0: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n";
    let mut file = vec![0xeeu8; 8];
    file.extend(words.iter().flat_map(|w| w.to_le_bytes()));
    let (bin, code) = (scratch("clear.bin"), scratch("clear.code"));
    std::fs::write(&bin, &file).unwrap();
    std::fs::write(&code, &file[8..]).unwrap();
    assert_eq!(ok(&["disasm", "--format", "mali-pp", &code]), mesa);
    assert_eq!(
        ok(&["disasm", "--format", "mali-pp", "--start", "8", "--file-offsets", &bin]),
        format!("0x00000008: {mesa}")
    );
    assert_eq!(
        ok(&["disasm", "--format", "mali-pp", "--raw", &code]),
        format!("00021025 00000e4c 03c007cf 03c003c0 000003c0 {:10}{mesa}", "")
    );
    let json = ok(&["disasm", "--format", "mali-pp", "--json", "--start", "8", &bin]);
    let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let program = &v["programs"][0];
    assert_eq!((program["isa"].as_str(), program["offset"].as_u64()), (Some("mali-pp"), Some(8)));
    let inst = &program["instructions"][0];
    assert_eq!((inst["offset"].as_u64(), inst["words"].as_array().map(Vec::len)), (Some(8), Some(5)));
    assert_eq!(inst["operands"][0].as_str(), Some("mov.v1 $0 ^const0"));
    // A count of 0: the listing goes on, the problem is on stderr and the exit status 1.
    std::fs::write(&code, [0x00u8, 0x10, 0x02, 0x00].iter().chain(&file[12..]).copied().collect::<Vec<u8>>())
        .unwrap();
    let (status, out, err) = run(&["disasm", "--format", "mali-pp", &code]);
    assert_eq!(status, 1, "{err}");
    assert!(out.starts_with("@     0: mov.v1 $0 ^const0"), "{out}");
    assert!(err.contains("count is 0"), "{err}");
    // Listing switches of fxc do not apply.
    let (status, _, err) = run(&["disasm", "--format", "mali-pp", "--numbering", &code]);
    assert_eq!(status, 2, "{err}");
}

/// The offset and words a listing line shows with `--raw` and an offset column, in each
/// listing's layout: PICA200 `… ; 0x000034 4e000000`, fxc `0x00000098: … // 03001062 …`,
/// Latte and Mali `0x00000208: 00000000 09800000  …`.
fn raw_columns(line: &str) -> Option<(u64, Vec<u32>)> {
    let hex = |t: &str| u32::from_str_radix(t, 16).ok().filter(|_| t.len() == 8);
    if let Some((_, tail)) = line.rsplit_once(" ; 0x") {
        let mut t = tail.split(' ');
        let at = u64::from_str_radix(t.next()?, 16).ok()?;
        return Some((at, t.map(hex).collect::<Option<_>>()?));
    }
    let (at, text) = line.strip_prefix("0x")?.split_once(": ")?;
    let at = u64::from_str_radix(at, 16).ok()?;
    let words = match text.rsplit_once("  // ") {
        Some((_, w)) => w.split(' ').map(hex).collect::<Option<_>>()?,
        None => text.split(' ').map_while(hex).collect(),
    };
    Some((at, words))
}

/// Every line of `disasm --raw --file-offsets FILE` that shows words shows the bytes of
/// `bytes` (the file, or a .csdr's decoded binary) at its offset, as little-endian words; with
/// `--offsets` instead, the column is the same except where `--help` says otherwise (DXBC and
/// Direct3D 9: fxc's /No column, from the program's version token at `program_start`).
fn check_raw_against_offsets(args: &[&str], bytes: &[u8], program_start: Option<u64>) -> usize {
    let with = |switch: &str| {
        let mut a = vec!["disasm", "--raw", switch];
        a.extend_from_slice(args);
        ok(&a)
    };
    let (file, relative) = (with("--file-offsets"), with("--offsets"));
    let mut lines = 0;
    for (f, r) in file.lines().zip(relative.lines()) {
        let Some((at, words)) = raw_columns(f) else {
            assert_eq!(f, r, "{args:?}");
            continue;
        };
        let (r_at, r_words) = raw_columns(r).unwrap_or_else(|| panic!("{args:?}: {r}"));
        assert_eq!((r_at, &r_words), (at - program_start.unwrap_or(0), &words), "{args:?}: {r}");
        if words.is_empty() {
            continue; // fxc's version line: an offset and no words
        }
        let shown: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(bytes.get(at as usize..at as usize + shown.len()), Some(&shown[..]), "{args:?}: {f}");
        lines += 1;
    }
    assert_eq!(file.lines().count(), relative.lines().count(), "{args:?}");
    lines
}

#[test]
fn raw_words_are_the_bytes_at_the_offsets_in_every_format() {
    let read = |p: &str| std::fs::read(p).unwrap();
    // Containers: SHBIN, DXBC, GFD, SHARCFB, MBS (samples built by the project's writers).
    for (name, program_start, lines) in [
        ("vshader.shbin", None, 8),
        ("ps_color.dxbc", Some(0x98), 4),
        ("shader.gsh", None, 3),
        ("shaders.sharcfb", None, 6),
        ("vertex.mbs", None, 2),
        ("fragment.mbs", None, 1),
    ] {
        let f = sample(name);
        assert_eq!(check_raw_against_offsets(&[&f], &read(&f), program_start), lines, "{name}");
    }
    // Every DVLE alone, and every GFD shader alone (`--dvle N`).
    assert_eq!(
        check_raw_against_offsets(
            &["--dvle", "0", &sample("vshader.shbin")],
            &read(&sample("vshader.shbin")),
            None
        ),
        8
    );
    let gsh = sample("shader.gsh");
    assert_eq!(check_raw_against_offsets(&["--dvle", "1", &gsh], &read(&gsh), None), 1);
    // A .csdr shows the offsets of its decoded binary (as `--help` says), which `extract` writes.
    let decoded = scratch("vshader.decoded");
    ok(&["extract", &sample("vshader.csdr"), "decoded", "-o", &decoded]);
    assert_eq!(check_raw_against_offsets(&[&sample("vshader.csdr")], &read(&decoded), None), 8);
    // Direct3D 9 bytecode, assembled from a listing: its version token is at 0.
    let (listing, d3d9) = (scratch("vs.asm"), scratch("vs.d3d9"));
    std::fs::write(&listing, "vs_2_0\ndcl_position v0\nmov oPos, v0\n").unwrap();
    ok(&["asm", &listing, "-o", &d3d9]);
    assert_eq!(check_raw_against_offsets(&[&d3d9], &read(&d3d9), Some(0)), 2);
    // Bare programs: the byte range of each container's program (as `extract` names it),
    // offsets the file's (fxc's /No column from the SM4 version token for `--offsets`).
    for (isa, name, part_name, start, lines) in [
        ("pica", "vshader.shbin", "code", None, 8),
        ("sm4", "ps_color.dxbc", "SHDR", Some(0x98), 4),
        ("latte", "shader.gsh", "vertex0.program", None, 2),
        ("latte", "shaders.sharcfb", "binary1.program", None, 1),
        ("mali-gp", "vertex.mbs", "program", None, 2),
        ("mali-pp", "fragment.mbs", "program", None, 1),
    ] {
        let f = sample(name);
        let (at, size) = part(&f, part_name);
        let (from, to) = (format!("{at}"), format!("{}", at + size));
        let mut args = vec!["--format", isa, "--start", &from, "--stop", &to, &f];
        let opdescs = scratch("vshader.opdescs");
        if isa == "pica" {
            ok(&["extract", &f, "opdescs", "-o", &opdescs]);
            args.extend(["--opdesc", &opdescs]);
        }
        assert_eq!(start.unwrap_or(at), at, "{name}");
        assert_eq!(check_raw_against_offsets(&args, &read(&f), start), lines, "{args:?}");
    }
}
