//! GFD `.gsh` files of the corpus (`gx2/`): every file parses, writes back byte for byte, is
//! valid and fully annotated; the GX2 structs and the Latte listings agree with decaf-emu's
//! listings (the summary line and program size of every shader, the microcode words, every
//! line of every program's listing) and with gshCompile's own C
//! dumps of the structs (`out.h` beside `out.gsh`); damaged copies give a clean error or a
//! partial result, never a panic; and the errors of damaged inputs are exact.

mod common;

use shaderscope::format::gfd::{Gfd, build::Builder};
use shaderscope::format::gx2::{Kind, Shader};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};
use std::path::{Path, PathBuf};

/// Every `.gsh` of the corpus with its bytes.
fn files(corpus: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v: Vec<(PathBuf, Vec<u8>)> = common::manifest(corpus, "gx2")
        .into_iter()
        .filter(|r| r.kind == "gsh")
        .map(|r| {
            let p = corpus.join("gx2").join(&r.path);
            let b = std::fs::read(&p).expect("corpus file");
            (p, b)
        })
        .collect();
    v.sort();
    v
}

fn listing(f: &Gfd<'_>) -> String {
    let mut t = TextBuf::default();
    f.disasm(&DisasmOptions::default(), &mut t).unwrap();
    t.into_string()
}

#[test]
fn every_file_parses_round_trips_validates_and_is_fully_annotated() {
    let Some(corpus) = common::corpus_dir() else { return };
    let files = files(&corpus);
    assert!(files.len() > 400, "{} files", files.len());
    let mut warnings = Vec::new();
    for (path, bytes) in &files {
        let name = path.display();
        let f = Gfd::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(f.damage().is_empty(), "{name}: {:?}", f.damage());
        assert_eq!(&f.write().unwrap(), bytes, "{name} does not round-trip");
        for finding in f.validate() {
            assert_ne!(finding.severity, shaderscope::Severity::Error, "{name}: {finding:?}");
            warnings.push(finding.message);
        }
        let mut a = shaderscope::dump::Annotations::new();
        f.annotate(&mut a);
        let mut unclaimed = 0u64;
        a.rows(bytes, 0..u64::MAX, |row| {
            if let shaderscope::dump::Row::Unclaimed { len, .. } = row {
                unclaimed += len;
            }
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(unclaimed, 0, "{name}: bytes no annotation claims");
        assert_eq!(a.errors().count(), 0, "{name}");
        // info in both forms, and a disasm record.
        let s = f.info_text();
        assert!(s.starts_with("format: Wii U GX2 file (GFD)\n"), "{name}");
        assert!(f.info_json().to_value()["shaders"].is_array());
        assert_eq!(f.disasm_json(&DisasmOptions::default()).unwrap().listing, listing(&f));
    }
    // The one file without a header block (rust-wiiu/gfd's vertex-program fixture) is the
    // only one with something to say.
    assert_eq!(warnings, ["vertex shader 0: a program block without a header block"]);
}

/// The summary line and each program's `---- kind (N bytes) ----` line decaf-emu printed for
/// every shader, and the program words it printed, equal ours.
#[test]
fn structs_and_microcode_agree_with_decaf_listings() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut compared = 0;
    for (path, bytes) in files(&corpus) {
        let rel = path.strip_prefix(corpus.join("gx2")).unwrap();
        let reference = corpus.join("gx2/reference/decaf").join(format!("{}.txt", rel.display()));
        let Ok(text) = std::fs::read_to_string(&reference) else { continue };
        let f = Gfd::parse(&bytes).unwrap();
        let ours = listing(&f);
        let ours: Vec<&str> =
            ours.lines().filter(|l| l.starts_with("---- ") || l.contains(" mode=")).collect();
        let theirs: Vec<&str> =
            text.lines().filter(|l| l.starts_with("---- ") || l.contains(" mode=")).collect();
        if theirs.is_empty() {
            // decaf listed nothing: the header-only fixture, and the program-only one it
            // refused.
            continue;
        }
        assert_eq!(ours, theirs, "{}", path.display());
        // decaf's listing of each program, every non-blank line in order, is in ours: the
        // lines after each `----` line that are not its hex words (the last of a block may be
        // the next shader's summary line, which ours has there too).
        // Ours without what it shows beyond decaf: the fields after ` ; ` that the text does
        // not carry (decaf-assembled programs fill them otherwise than the compilers).
        let all = listing(&f);
        let ours_lines: Vec<&str> = all
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.find(" ; ").map_or(l, |i| l[..i].trim_end()))
            .collect();
        for block in text.split("\n---- ").skip(1) {
            let want: Vec<&str> = block
                .lines()
                .skip(1)
                .filter(|l| !l.trim().is_empty())
                .filter(|l| {
                    !l.split_whitespace().all(|w| w.len() == 8 && w.chars().all(|c| c.is_ascii_hexdigit()))
                })
                .collect();
            let found = ours_lines.windows(want.len().max(1)).any(|w| w == want.as_slice());
            assert!(found, "{}: decaf's block not in our listing:\n{}", path.display(), want.join("\n"));
        }
        // The hex words after each `----` line are the program block's bytes read as
        // little-endian words.
        let mut blocks = text.split("---- ").skip(1);
        for s in &f.shaders {
            let program = f.program(s, false).unwrap();
            let block = blocks.next().unwrap();
            let words: Vec<u32> = block
                .lines()
                .skip(1)
                .take_while(|l| !l.is_empty() && l.split_whitespace().all(|w| w.len() == 8))
                .flat_map(|l| l.split_whitespace().map(|w| u32::from_str_radix(w, 16).unwrap()))
                .collect();
            let le: Vec<u32> =
                program.data.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
            assert_eq!(words, le, "{} {}", path.display(), s.title());
        }
        compared += 1;
    }
    assert!(compared >= 414, "{compared} files compared");
}

/// One C initializer list of gshCompile's `-oh` dump: `NAME[] = { {…}, … };` as the fields of
/// each entry.
fn c_table(text: &str, name: &str) -> Vec<Vec<String>> {
    let Some(start) = text.find(&format!("{name}[] = {{")) else { return Vec::new() };
    let body = &text[start..];
    let body = &body[..body.find("};").unwrap()];
    body.lines()
        .skip(1)
        .filter(|l| l.trim_start().starts_with('{'))
        .map(|l| {
            l.trim()
                .trim_start_matches('{')
                .trim_end_matches(',')
                .trim_end_matches('}')
                .split(',')
                .map(|f| f.trim().trim_matches('"').to_string())
                .filter(|f| !f.is_empty())
                .collect()
        })
        .collect()
}

/// The hexadecimal words of the first `{ … }` after `marker`.
fn c_words(text: &str, marker: &str) -> Vec<u32> {
    let Some(start) = text.find(marker) else { return Vec::new() };
    let body = &text[start..];
    let open = body.find('{').unwrap();
    let body = &body[open + 1..];
    let body = &body[..body.find('}').unwrap()];
    // Without the `// 0x0040` offset comments.
    let body: String =
        body.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    body.split(|c: char| c == ',' || c.is_whitespace())
        .filter_map(|w| w.strip_prefix("0x"))
        .map(|w| u32::from_str_radix(w, 16).unwrap())
        .collect()
}

/// The scalar fields after the registers of `static GX2… out_XS = {`: size, pointer, mode, and
/// the (count, pointer) pairs.
fn c_fields(text: &str, var: &str) -> Vec<String> {
    let start = text.find(&format!("{var} = {{")).unwrap();
    let body = &text[start..];
    let regs_end = body.find("},").unwrap();
    body[regs_end + 2..]
        .lines()
        .map(|l| l.trim().trim_end_matches(',').to_string())
        .take_while(|l| !l.starts_with('{') && !l.starts_with('}'))
        .filter(|l| !l.is_empty())
        .collect()
}

/// gshCompile wrote `out.h` (its C dump of the structs) beside each `out.gsh`: the registers,
/// sizes, mode, every uniform block, uniform var, sampler var, attrib var and loop var read
/// from the `.gsh` are those, and its program words are the program block's bytes read
/// big-endian (the PowerPC's view of the little-endian microcode).
#[test]
fn structs_agree_with_gshcompile_header_dumps() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut compared = 0;
    for (path, bytes) in files(&corpus) {
        let Ok(text) = std::fs::read_to_string(path.with_extension("h")) else { continue };
        let f = Gfd::parse(&bytes).unwrap();
        for s in &f.shaders {
            let g = s.gx2().unwrap();
            let p = match s.kind {
                Kind::Vertex => "out_VS",
                Kind::Pixel => "out_PS",
                Kind::Geometry => "out_GS",
            };
            let what = format!("{} {}", path.display(), s.title());
            assert_eq!(g.regs, c_words(&text, &format!("{p} = {{")), "{what}: registers");
            let fields = c_fields(&text, p);
            assert_eq!(fields[0], g.size.to_string(), "{what}: program size");
            assert_eq!(fields[2], g.mode.to_string(), "{what}: mode");
            let counts = [
                g.uniform_blocks.count,
                g.uniform_vars.count,
                g.initial_values.count,
                g.loop_vars.count,
                g.sampler_vars.count,
            ];
            for (k, c) in counts.iter().enumerate() {
                assert_eq!(fields[3 + 2 * k], c.to_string(), "{what}: count {k}");
            }
            let ub: Vec<Vec<String>> = g
                .uniform_blocks
                .items
                .iter()
                .map(|b| vec![b.name.to_string(), b.offset.to_string(), b.size.to_string()])
                .collect();
            assert_eq!(ub, c_table(&text, &format!("{p}_uniform_blocks")), "{what}");
            let uv: Vec<Vec<String>> = g
                .uniform_vars
                .items
                .iter()
                .map(|v| {
                    vec![
                        v.name.to_string(),
                        v.ty.to_string(),
                        v.count.to_string(),
                        v.offset.to_string(),
                        v.block.to_string(),
                    ]
                })
                .collect();
            assert_eq!(uv, c_table(&text, &format!("{p}_uniforms")), "{what}");
            let sv: Vec<Vec<String>> = g
                .sampler_vars
                .items
                .iter()
                .map(|v| vec![v.name.to_string(), v.ty.to_string(), v.location.to_string()])
                .collect();
            assert_eq!(sv, c_table(&text, &format!("{p}_sampler_vars")), "{what}");
            let av: Vec<Vec<String>> = g
                .attrib_vars
                .items
                .iter()
                .map(|v| {
                    vec![v.name.to_string(), v.ty.to_string(), v.count.to_string(), v.location.to_string()]
                })
                .collect();
            assert_eq!(av, c_table(&text, &format!("{p}_attrib_vars")), "{what}");
            let lv: Vec<u32> = g.loop_vars.items.iter().flat_map(|l| [l.offset, l.value]).collect();
            assert_eq!(lv, c_words(&text, &format!("{p}_loop_vars[")), "{what}");
            let program = f.program(s, false).unwrap().data;
            let be: Vec<u32> =
                program.chunks_exact(4).map(|c| u32::from_be_bytes(c.try_into().unwrap())).collect();
            assert_eq!(be, c_words(&text, &format!("{p}_shaderPtr[")), "{what}: program words");
        }
        compared += 1;
    }
    assert_eq!(compared, 3, "the corpus has three gshCompile dumps");
}

/// decaf-emu's writer (its latte-assembler made the files whose blocks are numbered in order)
/// lays files out as [`Builder`] does: rebuilt from their structs and programs, they are the
/// same bytes. Every other file rebuilds to a file with the same shaders.
#[test]
fn the_builder_lays_out_files_as_decaf_does() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut identical = 0;
    for (path, bytes) in files(&corpus) {
        let f = Gfd::parse(&bytes).unwrap();
        if f.shaders.iter().any(|s| s.gx2().is_none()) {
            continue;
        }
        let mut b = Builder::new().align(f.header.align.get() == 1);
        for s in &f.shaders {
            let program = f.program(s, false).map(|p| p.data).unwrap_or(&[]);
            b.push(s.gx2().unwrap(), program, &[]);
        }
        let rebuilt = b.finish().unwrap();
        let again = Gfd::parse(&rebuilt).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(again.validate().is_empty(), "{}: {:?}", path.display(), again.validate());
        assert_eq!(again.shaders.len(), f.shaders.len());
        for (x, y) in f.shaders.iter().zip(&again.shaders) {
            let (x, y) = (x.gx2().unwrap(), y.gx2().unwrap());
            assert_eq!((x.summary(), &x.regs, x.size), (y.summary(), &y.regs, y.size), "{}", path.display());
            let names = |s: &Shader<'_>| s.names().map(|n| n.to_string()).collect::<Vec<_>>();
            assert_eq!(names(x), names(y));
        }
        let sequential = f.blocks.iter().enumerate().all(|(i, b)| b.header.id.get() == i as u32);
        if sequential {
            assert_eq!(rebuilt, bytes, "{}", path.display());
            identical += 1;
        }
    }
    // decaf's latte-assembler made three; the fixture that is an end-of-file block alone is
    // numbered in order too.
    assert_eq!(identical, 4);
}

/// Truncations and byte flips of every file give a clean error or a file whose commands all
/// run: never a panic. The three smallest files are cut at every byte.
#[test]
fn damaged_copies_never_panic() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut files = files(&corpus);
    files.sort_by(|a, b| (a.1.len(), &a.1).cmp(&(b.1.len(), &b.1)));
    files.dedup_by(|a, b| a.1 == b.1);
    let mut rng = common::Rng(0x5eed_6f64);
    let exercise = |b: &[u8]| {
        let mut a = shaderscope::dump::Annotations::new();
        let _ = shaderscope::annotate(b, &mut a);
        if let Ok(f) = Gfd::parse(b) {
            let _ = f.info_text();
            let _ = f.info_json();
            let _ = f.disasm(&DisasmOptions::default(), &mut TextBuf::default());
            let _ = f.validate();
            let _ = f.parts();
            assert_eq!(f.write().unwrap(), b, "a damaged file that parses round-trips too");
        }
    };
    for (i, (_, bytes)) in files.iter().enumerate() {
        if i < 3 {
            for n in 0..bytes.len() {
                exercise(&bytes[..n]);
            }
        } else {
            for _ in 0..4 {
                exercise(&bytes[..rng.below(bytes.len())]);
            }
        }
        for _ in 0..4 {
            let mut b = bytes.clone();
            let at = rng.below(b.len());
            b[at] ^= 1 << rng.below(8);
            exercise(&b);
            // A whole word of a random value: counts and pointers go far.
            let at = rng.below(b.len().saturating_sub(4)) & !3;
            let v = (rng.below(usize::MAX) as u32).to_be_bytes();
            b[at..at + 4].copy_from_slice(&v);
            exercise(&b);
        }
    }
}

fn set_be(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

/// The errors and partial results of damaged files, word for word.
#[test]
fn damaged_inputs_give_exact_errors() {
    let good = shaderscope::format::gfd::build::example();
    let err = |b: &[u8]| shaderscope::parse(b).unwrap_err().to_string();
    assert_eq!(err(&good[..0x10]), "truncated GFD header at offset 0x0 (need 32 bytes, have 16)");
    assert_eq!(err(&good[..0x30]), "truncated block 0 header at offset 0x20 (need 32 bytes, have 16)");
    let mut b = good.clone();
    b[0x20] = b'X';
    assert_eq!(err(&b), r#"bad block 0 header magic at offset 0x20: expected "BLK{", found "XLK{""#);
    let mut b = good.clone();
    set_be(&mut b, 0x34, 0x10_0000);
    assert_eq!(
        err(&b),
        "block 0 data at offset 0x34 points outside its range (0x40 + 0x100000 is outside 0x3bc)"
    );
    let mut b = good.clone();
    set_be(&mut b, 4, 8);
    assert_eq!(err(&b), "invalid GFD header size at offset 0x4: 0x8 is smaller than the 0x20-byte header");

    // A broken struct: the file still reads, the shader is damaged and listed as such.
    let mut b = good.clone();
    set_be(&mut b, 0x40 + 0xE4, 50); // 50 uniform vars
    let f = shaderscope::parse(&b).unwrap();
    let damage: Vec<String> = f.damage().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        damage,
        [
            "block 0 vertex shader uniform vars at offset 0x128 points outside its range (0x174 + 0x3e8 is outside 0x1e8)"
        ]
    );
    let mut t = TextBuf::default();
    f.disasm(&DisasmOptions::default(), &mut t).unwrap();
    assert!(
        t.as_str()
            .starts_with("VS header unreadable: block 0 vertex shader uniform vars at offset 0x128 points"),
        "{}",
        t.as_str()
    );
    assert!(t.as_str().contains("\nPS mode=0 ubs=0 uvs=1 samplers=0\n"));

    // A relocation table that points past its block: the shader is damaged, the file reads.
    let mut b = good.clone();
    set_be(&mut b, 0x40 + 0x1a8 - 4, 0xD060_1000);
    let f = shaderscope::parse(&b).unwrap();
    let damage: Vec<String> = f.damage().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        damage,
        [
            "block 0 relocation patch table at offset 0x1e4 points outside its range (0x1040 + 0x10 is outside 0x1e8)"
        ]
    );
    assert_eq!(f.write().unwrap(), b);

    // dump of a file cut inside a block: everything before it, and the error.
    let mut a = shaderscope::dump::Annotations::new();
    shaderscope::annotate(&good[..0x210], &mut a).unwrap();
    let errors: Vec<(u64, &str)> = a.errors().collect();
    assert_eq!(
        errors,
        [(0x1fc, "block 1 data at offset 0x1fc points outside its range (0x208 + 0x10 is outside 0x210)")]
    );
    assert!(
        a.fields().any(|(r, t)| r == (0x128..0x12c) && t == "uniform vars pointer: data +0x134 (at 0x174)")
    );

    // A program block whose size disagrees with the struct; a relocation left out.
    let mut b = good.clone();
    set_be(&mut b, 0x40 + 0xD0, 20);
    let f = Gfd::parse(&b).unwrap();
    let v: Vec<String> = f.validate().iter().map(|f| format!("0x{:x}: {}", f.offset, f.message)).collect();
    assert_eq!(v, ["0x110: vertex shader 0: the struct gives the program 20 bytes but its block has 16"]);
    let g = Gfd::parse(&good).unwrap();
    let patches = g.blocks[0].relocations.as_ref().unwrap().patches_at.unwrap() as usize;
    let mut b = good.clone();
    set_be(&mut b, patches, 0);
    let f = Gfd::parse(&b).unwrap();
    let v: Vec<String> = f.validate().iter().map(|f| format!("0x{:x}: {}", f.offset, f.message)).collect();
    assert_eq!(v, ["0x128: vertex shader 0: the pointer at 0x128 is not in the relocation table"]);
}

/// The partial files of rust-wiiu/gfd's tests: an end-of-file block alone, and a program block
/// without its header.
#[test]
fn partial_files_read() {
    let Some(corpus) = common::corpus_dir() else { return };
    let dir = corpus.join("gx2/gfd/tests");
    let header_only = std::fs::read(dir.join("header-only.gsh")).unwrap();
    let f = Gfd::parse(&header_only).unwrap();
    assert_eq!((f.blocks.len(), f.shaders.len()), (1, 0));
    assert_eq!(listing(&f), "");
    let program_only = std::fs::read(dir.join("vertex-program.gsh")).unwrap();
    let f = Gfd::parse(&program_only).unwrap();
    assert_eq!(f.shaders.len(), 1);
    assert!(f.shaders[0].header.is_none());
    assert!(listing(&f).starts_with("VS (no header block)\n---- vertex (280 bytes) ----\n"));
    let parts: Vec<String> = f.parts().into_iter().map(|p| p.name).collect();
    assert_eq!(parts, ["vertex0.program"]);
}

/// The parts `extract` offers: each shader's header data and microcode.
#[test]
fn parts_are_each_shaders_struct_and_microcode() {
    let bytes = shaderscope::format::gfd::build::example();
    let f = shaderscope::parse(&bytes).unwrap();
    let parts: Vec<(String, u64, usize)> =
        f.parts().into_iter().map(|p| (p.name, p.offset, p.bytes.len())).collect();
    assert_eq!(
        parts,
        [
            ("vertex0.header".to_string(), 0x40, 0x1a8),
            ("vertex0.program".to_string(), 0x208, 16),
            ("pixel0.header".to_string(), 0x238, 0x134),
            ("pixel0.program".to_string(), 0x38c, 16),
        ]
    );
    assert_eq!(f.part("PIXEL0.PROGRAM").unwrap().bytes[4..8], [0x88, 0x06, 0x20, 0x94]);
}
