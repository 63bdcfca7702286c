//! DVOJ objects, DVLBs inside CGFX and base64 `.csdr` text, built with the library's writers
//! (no public sample of these exists).

use shaderscope::Container;
use shaderscope::format::shbin::tables::{ConstantEntry, LabelEntry, LineEntry, OutputEntry, UniformEntry};
use shaderscope::format::shbin::{Cgfx, Dvoj, build};
use shaderscope::{DisasmOptions, Format, detect, print::TextBuf};

fn object() -> Dvoj {
    let vs = build::example_vertex_dvlb();
    let mut symbols = b"vsh.vsh\0projection\0main\0".to_vec();
    symbols.push(0);
    let mut o = Dvoj::new(*b"DVOJ");
    o.constants = vec![ConstantEntry { kind: 2, register: 95, payload: [0, 0x3f0000, 0xbf0000, 0x3b9999] }];
    o.labels = vec![LabelEntry { id: 0x10000, address: 0, length: 8, name_offset: 19 }];
    o.code = vs.dvlp.code.clone();
    o.opdescs = vs.dvlp.opdescs.clone();
    o.line_numbers = (0..8).map(|i| LineEntry { file_offset: 0, line: 10 + i }).collect();
    o.relocations = vec![[2, 1, 0], [3, 1, 1]];
    o.outputs = vec![OutputEntry { semantic: 0, register: 0, mask: 0xf, pad: 0 }];
    o.uniforms = vec![UniformEntry { name_offset: 8, first: 0x10, last: 0x13 }];
    o.symbols = symbols;
    o
}

#[test]
fn dvoj_objects_write_parse_and_round_trip() {
    let o = object();
    let bytes = o.write().unwrap();
    assert_eq!(&bytes[..4], b"DVOJ");
    // Tables are packed after the 0x58-byte header in header order.
    assert_eq!(u32::from_le_bytes(bytes[0x10..0x14].try_into().unwrap()), 0x58);
    assert_eq!(detect(&bytes), Some(Format::Dvoj));
    let back = Dvoj::parse(&bytes).unwrap();
    assert_eq!(back.code, o.code);
    assert_eq!(back.line_numbers, o.line_numbers);
    assert_eq!(back.relocations, o.relocations);
    assert_eq!(back.symbol(back.uniforms[0].name_offset), "projection");
    assert_eq!(back.write().unwrap(), bytes);
    let file = shaderscope::parse(&bytes).unwrap();
    assert_eq!(file.write().unwrap(), bytes);
    let info = file.info_text();
    assert!(
        info.contains(
            "DVOJ: 8 instructions (code at 0x7c), 7 operand descriptors, 8 line numbers, 2 relocations"
        ),
        "{info}"
    );
    assert_eq!(file.part("code").unwrap().bytes.len(), 32);
    let mut p = TextBuf::default();
    file.disasm(&DisasmOptions::default(), &mut p).unwrap();
    // A DVOJ whose header is cut short is a clean error.
    assert_eq!(
        Dvoj::parse(&bytes[..0x30]).unwrap_err().to_string(),
        "truncated DVOJ header at offset 0x0 (need 88 bytes, have 48)"
    );
}

/// A CGFX-like file: header, a block holding a false "DVLB" magic, the DVLB, trailing data.
fn cgfx(dvlb: &[u8]) -> (Vec<u8>, usize) {
    let mut f = b"CGFX\xff\xfe\x14\x00\x00\x00\x00\x05".to_vec();
    f.extend(0u32.to_le_bytes()); // file size, patched below
    f.extend(2u32.to_le_bytes());
    f.extend(b"DATA\x20\x00\x00\x00DVLB\xff\xff\xff\xff");
    f.extend([0u8; 12]);
    let at = f.len();
    f.extend(dvlb);
    f.resize(f.len().next_multiple_of(4), 0xee);
    f.extend(b"IMAG\x10\0\0\0texturedata!");
    let n = f.len() as u32;
    f[12..16].copy_from_slice(&n.to_le_bytes());
    (f, at)
}

#[test]
fn dvlbs_inside_cgfx_are_found_extracted_and_rewritten_in_place() {
    let vs = build::example_vertex_shader();
    let (file, at) = cgfx(&vs);
    assert_eq!(detect(&file), Some(Format::Cgfx));
    let c = Cgfx::parse(&file).unwrap();
    assert_eq!(c.dvlbs.len(), 1, "the fake DVLB magic in DATA must not count");
    assert_eq!(c.dvlbs[0].0, at as u64);
    assert_eq!(c.write().unwrap(), file);
    let any = shaderscope::parse(&file).unwrap();
    // An embedded DVLB ends with its last structure: the standalone file's padding to 4
    // bytes is the CGFX's.
    let part = any.part("dvlb0").unwrap().bytes;
    assert_eq!(part[..], vs[..part.len()]);
    assert!(vs[part.len()..].iter().all(|b| *b == 0) && vs.len() - part.len() < 4);
    assert_eq!(any.write().unwrap(), file);
    let names: Vec<String> = any.parts().into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["dvlb0", "dvlb0.code", "dvlb0.opdescs", "dvlb0.dvle0.code"]);
    let mut p = TextBuf::default();
    any.disasm(&DisasmOptions::default().with_program(0), &mut p).unwrap();
}

#[test]
fn csdr_text_decodes_and_keeps_its_layout() {
    let text = std::fs::read(sample("vshader.csdr")).unwrap();
    let file = shaderscope::parse(&text).unwrap();
    assert_eq!(file.format(), Format::Csdr);
    assert_eq!(file.part("decoded").unwrap().bytes, std::fs::read(sample("vshader.shbin")).unwrap());
    assert_eq!(file.write().unwrap(), text);
    assert_eq!(
        shaderscope::parse(b"RFZMQgEAAAA*").err().unwrap().to_string(),
        "invalid base64 text at offset 0xb: byte 0x2a is neither base64 nor whitespace"
    );
}

#[test]
fn code_no_dvle_runs_is_listed_as_comments() {
    let mut d = build::example_vertex_dvlb();
    d.dvlp.code.push(0x8400_0000); // a nop after endmain that no DVLE reaches
    let bytes = d.write().unwrap();
    let file = shaderscope::parse(&bytes).unwrap();
    let mut p = TextBuf::default();
    file.disasm(&DisasmOptions::default(), &mut p).unwrap();
    assert!(
        p.as_str().ends_with(".end\n\n; code no DVLE runs:\n;   0x008  84000000  nop\n"),
        "{}",
        p.as_str()
    );
    // The picasso source of the DVLE does not carry it (picasso would re-emit it).
    let mut one = TextBuf::default();
    file.disasm(&DisasmOptions::default().with_program(0), &mut one).unwrap();
    assert!(!one.as_str().contains("code no DVLE runs"));
}

fn sample(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples").join(name)
}

/// The listing of every DVLE of `bytes`, as `disasm` prints it.
fn listing(bytes: &[u8]) -> String {
    let mut p = TextBuf::default();
    shaderscope::parse(bytes).unwrap().disasm(&DisasmOptions::default(), &mut p).unwrap();
    p.as_str().to_string()
}

/// `asm --like` puts the DVLB back into its CGFX or `.csdr`: unedited, the file comes back
/// byte for byte; an edited instruction changes the DVLB in place.
#[test]
fn like_puts_the_dvlb_back_into_its_container() {
    let vs = std::fs::read(sample("vshader.shbin")).unwrap();
    let (cgfx_file, at) = cgfx(&vs);
    let csdr = std::fs::read(sample("vshader.csdr")).unwrap();
    for original in [&cgfx_file, &csdr] {
        let text = listing(original);
        assert_eq!(&shaderscope::asm::assemble(&text, Some(original)).unwrap().bytes, original);
        // `mov outclr, inclr` → `mov outclr, inpos`: source 1 from v1 to v0.
        let edited = text.replace("mov outclr, inclr", "mov outclr, inpos");
        assert_ne!(edited, text);
        let back = shaderscope::asm::assemble(&edited, Some(original)).unwrap().bytes;
        assert_eq!(back.len(), original.len());
        assert_eq!(listing(&back), edited);
        let report = shaderscope::asm::compare(&back, original).unwrap();
        assert_eq!(
            report.lines.iter().filter(|l| !l.ends_with("  same")).collect::<Vec<_>>(),
            ["code  differs from word 6 (8 words, the original 8)"]
        );
    }
    // In the CGFX, the word alone changed, at the DVLB's place.
    let back = shaderscope::asm::assemble(
        &listing(&cgfx_file).replace("mov outclr, inclr", "mov outclr, inpos"),
        Some(&cgfx_file),
    )
    .unwrap()
    .bytes;
    let differ: Vec<usize> = (0..back.len()).filter(|&i| back[i] != cgfx_file[i]).collect();
    let word6 = at + shaderscope::format::shbin::Dvlb::parse(&vs).unwrap().code_offset() as usize + 6 * 4;
    assert!(
        !differ.is_empty() && differ.iter().all(|i| (word6..word6 + 4).contains(i)),
        "{differ:?} vs {word6:#x}"
    );
    // A table that grows cannot be relinked into a CGFX.
    let grown = listing(&cgfx_file).replace(".in  inpos v0", ".in inpos v0\n.fvec more[8]");
    let grown = grown.replace(".in inpos v0", ".in inpos v0\n.fvec more[8]");
    let e = shaderscope::asm::assemble(&grown, Some(&cgfx_file)).unwrap_err();
    assert!(e.to_string().contains("CGFX relinking is not implemented"), "{e}");
}

/// A DVLB whose offset table names one DVLE twice: the listing shows it once, `--like` gives
/// the file back, and an edit of the DVLE is the edit of both entries.
#[test]
fn like_keeps_a_dvle_the_offset_table_repeats() {
    let mut d =
        shaderscope::format::shbin::Dvlb::parse(&std::fs::read(sample("vshader.shbin")).unwrap()).unwrap();
    d.dvles.push(d.dvles[0].clone());
    d.layout = None;
    let bytes = d.write().unwrap();
    let text = listing(&bytes);
    assert!(text.contains("; DVLE 1: the same bytes as DVLE 0"), "{text}");
    assert_eq!(shaderscope::asm::assemble(&text, Some(&bytes)).unwrap().bytes, bytes);
    let edited = text.replace(".in inclr v1\n", ".in inclr v1\n.fvec tint\n");
    let back = shaderscope::asm::assemble(&edited, Some(&bytes)).unwrap().bytes;
    let again = shaderscope::format::shbin::Dvlb::parse(&back).unwrap();
    assert_eq!(again.same_as(1), Some(0));
    assert!(again.dvles[1].names().uniforms.iter().any(|u| u.name == "tint"));
}
