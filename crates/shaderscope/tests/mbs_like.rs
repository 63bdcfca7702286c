//! `asm LISTING --like ORIGINAL.mbs` (`format::mbs::assemble`): every MBS file of the corpus
//! and the shipped samples come back byte for byte from their `disasm` listing; an edited
//! program gives a valid file with the new code, its chunk sizes and FINS count recomputed;
//! `asm --verify`'s comparison names what differs; a header line edited and a bad program
//! line get exact errors at their line of the whole text.

mod common;

use shaderscope::asm::{self, Kind};
use shaderscope::format::mbs::{Body, Core, Mbs, Node, Shader, assemble::assemble_like};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};
use std::path::{Path, PathBuf};

fn listing(mbs: &Mbs<'_>) -> String {
    let mut text = TextBuf::default();
    mbs.disasm(&DisasmOptions::default(), &mut text).unwrap();
    text.into_string()
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples").join(name)).unwrap()
}

/// Every MBS file of the corpus (its manifest's `mbs` rows).
fn corpus_files(corpus: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    common::files(corpus, "mbs", "mbs").map(|(_, path, data)| (path, data)).collect()
}

/// The DBIN payload and the FINS instruction count of a file.
fn code_and_count(bytes: &[u8]) -> (Vec<u8>, Option<u32>) {
    let mbs = Mbs::parse(bytes).unwrap();
    let v = mbs.shader().unwrap();
    let code = v.code().unwrap().0.to_vec();
    let count = v.child(*b"FINS").map(|n| {
        let at = n.data_offset() as usize + 4;
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    });
    (code, count)
}

/// The listing with one instruction more: GP, a `nop` after the last instruction; PP, a
/// five-word `mov` after the last.
fn with_an_instruction_more(text: &str, core: Core, instructions: usize) -> String {
    let line = match core {
        Core::Gp => format!("{instructions:03}:\tnop\n"),
        Core::Pp => {
            "@     0: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n".to_string()
        }
    };
    // GP's `; fields` lines follow the program: the new instruction goes before them.
    match text.find("\n; fields ") {
        Some(at) if core == Core::Gp => format!("{}\n{line}{}", &text[..at], &text[at + 1..]),
        _ => format!("{text}{line}"),
    }
}

/// Rebuild `original` from its listing with an instruction more, and check the file.
fn check_edited(name: &str, original: &[u8]) -> Vec<u8> {
    let mbs = Mbs::parse(original).unwrap();
    let core = mbs.shader().unwrap().core();
    let old_code = mbs.shader().unwrap().code().unwrap().0.to_vec();
    let text = with_an_instruction_more(&listing(&mbs), core, old_code.len() / 16);
    let edited = asm::assemble(&text, Some(original)).unwrap_or_else(|e| panic!("{name}: {e}")).bytes;
    // The program alone, through the bare assembler, is what DBIN now holds.
    let program = text.split_once("\n; code (DBIN)").unwrap().1.split_once('\n').unwrap().1;
    let words = match core {
        Core::Gp => shaderscope::isa::mali_gp::asm::assemble(program).unwrap(),
        Core::Pp => shaderscope::isa::mali_pp::asm::assemble(program).unwrap(),
    };
    let expected: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let added = match core {
        Core::Gp => 16,
        Core::Pp => 20,
    };
    assert_eq!(expected.len(), old_code.len() + added, "{name}");
    let (code, count) = code_and_count(&edited);
    assert_eq!(code, expected, "{name}");
    if core == Core::Gp {
        assert_eq!(count, Some((expected.len() / 16) as u32), "{name}");
    }
    let file = shaderscope::parse(&edited).unwrap_or_else(|e| panic!("{name}: {e}"));
    let errors: Vec<_> =
        file.validate().into_iter().filter(|f| f.severity == shaderscope::Severity::Error).collect();
    assert_eq!(errors, [], "{name}");
    // Everything else is the original's: the file is the original but for the sizes, the
    // count and the code.
    assert_eq!(edited.len(), original.len() + added, "{name}");
    let comparison = asm::compare(&edited, original).unwrap();
    let differ: Vec<&str> = comparison
        .lines
        .iter()
        .filter(|l| !l.ends_with("  same"))
        .map(|l| l.split("  ").next().unwrap())
        .collect();
    let tag = if core == Core::Gp { "CVER" } else { "CFRA" };
    let size = format!("{tag} size");
    let mut want = vec!["DBIN", size.as_str(), "MBS1 size"];
    if core == Core::Gp {
        want.insert(0, "FINS");
    }
    let mut differ_sorted = differ.clone();
    differ_sorted.sort();
    want.sort();
    assert_eq!(differ_sorted, want, "{name}: {:?}", comparison.lines);
    edited
}

#[test]
fn every_corpus_mbs_comes_back_from_its_listing() {
    let Some(corpus) = common::corpus_dir() else { return };
    let files = corpus_files(&corpus);
    let listed = common::manifest(&corpus, "mbs").into_iter().filter(|r| r.kind == "mbs").count();
    let mut back = 0;
    for (path, bytes) in &files {
        let name = path.display();
        let mbs = Mbs::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = listing(&mbs);
        assert_eq!(Kind::of(&text), Kind::Mbs, "{name}");
        let a = asm::assemble(&text, Some(bytes)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(a.kind, Kind::Mbs);
        assert!(a.bytes == *bytes, "{name} does not come back");
        let c = asm::compare(&a.bytes, bytes).unwrap();
        assert!(c.same, "{name}: {:?}", c.lines);
        back += 1;
    }
    println!("{back}/{} MBS files back byte for byte from their listing", files.len());
    assert!(
        back == files.len() && back >= listed && back >= 27,
        "{back} of {} ({listed} listed)",
        files.len()
    );
}

#[test]
fn every_corpus_mbs_takes_an_instruction_more() {
    let Some(corpus) = common::corpus_dir() else { return };
    let files = corpus_files(&corpus);
    for (path, bytes) in &files {
        check_edited(&path.display().to_string(), bytes);
    }
    assert!(files.len() >= 27);
}

#[test]
fn the_samples_come_back_and_take_an_edit() {
    for name in ["vertex.mbs", "fragment.mbs"] {
        let bytes = sample(name);
        let text = listing(&Mbs::parse(&bytes).unwrap());
        assert_eq!(asm::assemble(&text, Some(&bytes)).unwrap().bytes, bytes, "{name}");
        check_edited(name, &bytes);
    }
}

#[test]
fn verify_names_the_parts_that_differ() {
    let bytes = sample("vertex.mbs");
    let text = listing(&Mbs::parse(&bytes).unwrap());
    let text = text.replace("001:\tnop\n", "001:\tnop\n002:\tnop\n");
    let edited = asm::assemble(&text, Some(&bytes)).unwrap().bytes;
    let c = asm::compare(&edited, &bytes).unwrap();
    assert!(!c.same);
    assert_eq!(
        c.lines,
        [
            "CVER version  same",
            "FINS  instructions 3 (the original 2)",
            "SUNI  same",
            "SATT  same",
            "SVAR  same",
            "DBIN  differs from offset 0x20 (48 bytes, the original 32)",
            "CVER size  524 (the original 508)",
            "MBS1 size  532 (the original 516)",
        ]
    );
    // A listing of the rebuilt file says its own code size: it goes into the original too.
    let again = listing(&Mbs::parse(&edited).unwrap());
    assert!(again.contains("; code (DBIN): 48 bytes of mali-gp code\n"));
    assert_eq!(asm::assemble(&again, Some(&bytes)).unwrap().bytes, edited);

    let fragment = sample("fragment.mbs");
    let same = asm::compare(&fragment, &fragment).unwrap();
    assert!(same.same);
    assert_eq!(
        same.lines,
        [
            "CFRA version  same",
            "FSTA  same",
            "FDIS  same",
            "FBUU  same",
            "SUNI  same",
            "SVAR  same",
            "DBIN  same",
            "CFRA size  same",
            "MBS1 size  same"
        ]
    );
}

#[test]
fn errors_are_said_at_their_line_of_the_whole_text() {
    let bytes = sample("vertex.mbs");
    let text = listing(&Mbs::parse(&bytes).unwrap());
    let err = |t: &str| asm::assemble(t, Some(&bytes)).unwrap_err().to_string();
    // A header line edited.
    assert_eq!(
        err(&text.replace("3 symbols, 24 slots", "3 symbols, 28 slots")),
        "line 2, column 1: expected the original's line `; uniforms (SUNI): 3 symbols, 24 slots` (the header \
         is the original's and cannot be edited)"
    );
    // A header line removed: the next is not the one expected there.
    let no_attributes = text.replace("; attributes (SATT): 1 symbol\n", "");
    assert!(
        err(&no_attributes)
            .starts_with("line 6, column 1: expected the original's line `; attributes (SATT)")
    );
    // The code line's count is free, its instruction set is not.
    assert_eq!(
        err(&text.replace("32 bytes of mali-gp code", "32 bytes of mali-pp code")),
        "line 10, column 1: expected the original's line `; code (DBIN): 32 bytes of mali-gp code` (the header \
         is the original's and cannot be edited)"
    );
    assert_eq!(asm::assemble(&text.replace("32 bytes", "7 bytes"), Some(&bytes)).unwrap().bytes, bytes);
    // The header cut short.
    let header: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert!(err(&header).starts_with(
        "line 4, column 1: expected the original's line `;  [1] highp vec4[2] gl_mali_ViewportTransform"
    ));
    // A bad program line, at its line of the whole text (the program starts at line 11).
    assert_eq!(text.lines().nth(10), Some("000:\tmov.a0 ^0/v0.x a0.x"));
    assert_eq!(
        err(&text.replace("mov.a0 ^0/v0.x a0.x", "mov.a0 ^0/v0.x q0.x")),
        "line 11, column 21: expected a source (`aN.x`, `$N.x`, `t[N].x`, `^K`, `unused`, …)"
    );
    // Blank lines before the header count.
    assert_eq!(
        asm::assemble(&format!("\n\n{}", text.replace("^0/v0.x a0.x", "^0/v0.x q0.x")), Some(&bytes))
            .unwrap_err()
            .to_string()
            .split(',')
            .next(),
        Some("line 13")
    );
    // The fragment sample: its program starts at line 6.
    let fragment = sample("fragment.mbs");
    let text = listing(&Mbs::parse(&fragment).unwrap());
    assert_eq!(
        asm::assemble(&text.replace("load.v $0 0", "load.v $0 0 0"), Some(&fragment))
            .unwrap_err()
            .to_string(),
        "line 6, column 22: expected `,`"
    );
}

#[test]
fn an_mbs_listing_needs_its_original() {
    let bytes = sample("vertex.mbs");
    let text = listing(&Mbs::parse(&bytes).unwrap());
    assert_eq!(Kind::of(&text), Kind::Mbs);
    assert_eq!(Kind::of(&format!("\n  {text}")), Kind::Mbs);
    let e = asm::assemble(&text, None).unwrap_err();
    assert!(matches!(e, asm::Error::NeedsOriginal(..)));
    assert_eq!(
        e.to_string(),
        "a listing of an MBS file is rebuilt into its original: give the original with --like (or assemble \
         one program alone with --format mali-gp|mali-pp)"
    );
    // Another kind of binary: the text is read first.
    let dxbc = sample("ps_color.dxbc");
    let e = asm::assemble(&text, Some(&dxbc)).unwrap_err();
    assert!(matches!(e, asm::Error::Original(asm::Original::OtherKind)), "{e}");
    let e = asm::assemble(&text.replace("a0.x\n", "q0.x\n"), Some(&dxbc)).unwrap_err();
    assert!(e.to_string().starts_with("line 11, column 21: expected a source"), "{e}");
    // The other stage's MBS: its header is not this one.
    let e = asm::assemble(&text, Some(&sample("fragment.mbs"))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 1, column 1: expected the original's line `; fragment shader, CFRA version 7 (MALI_400_PP)` (the \
         header is the original's and cannot be edited)"
    );
}

#[test]
fn an_original_without_code_or_shader_is_refused() {
    let shader = Shader { version: 6, children: Vec::new() };
    let root = Node::new(*b"MBS1", Body::Chunks(vec![Node::new(*b"CVER", Body::Shader(shader))]));
    let bytes = Mbs::from_root(root).write_model();
    let text = listing(&Mbs::parse(&bytes).unwrap());
    assert_eq!(text, "; vertex shader, CVER version 6 (MALI_400_GP)\n; no code (DBIN)\n");
    let e = asm::assemble(&text, Some(&bytes)).unwrap_err();
    assert!(matches!(e, asm::Error::Original(asm::Original::Unsupported(_))));
    assert_eq!(e.to_string(), "the original's CVER holds no code (DBIN) to replace");

    let empty = Mbs::from_root(Node::new(*b"MBS1", Body::Chunks(Vec::new()))).write_model();
    let e = assemble_like(&text, &Mbs::parse(&empty).unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "the original holds no shader chunk (CFRA or CVER)");
}
