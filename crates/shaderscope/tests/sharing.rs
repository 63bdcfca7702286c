//! `validate` on the tables of the Wii U and Mali formats: structures that share bytes and
//! references that reach the same bytes again, each built by hand from a file that is fine.

use shaderscope::format::gfd::Gfd;
use shaderscope::format::gx2::PointerKind;
use shaderscope::format::sharcfb::res::Variation;
use shaderscope::format::sharcfb::{Binary, BinaryType, Program, Sharcfb};
use shaderscope::toolkit::Endian;
use shaderscope::{Container, Finding, Severity};

fn be(bytes: &mut [u8], at: u64, v: u32) {
    bytes[at as usize..at as usize + 4].copy_from_slice(&v.to_be_bytes());
}

/// The findings whose message contains `what`, as (offset, severity, message).
fn with(findings: &[Finding], what: &str) -> Vec<(u64, Severity, String)> {
    findings
        .iter()
        .filter(|f| f.message.contains(what))
        .map(|f| (f.offset, f.severity, f.message.clone()))
        .collect()
}

#[test]
fn gfd_arrays_and_names_sharing_bytes_are_findings() {
    let bytes = shaderscope::format::gfd::build::example();
    let fine = Gfd::parse(&bytes).unwrap();
    assert!(fine.validate().is_empty(), "{:?}", fine.validate());
    let g = fine.shaders[0].gx2().unwrap();
    let (at, l) = (g.at, g.layout());
    let uniform = g.uniform_vars.items[0].at;
    let attrib_name = g.attrib_vars.items[0].name;
    let uniform_name = g.uniform_vars.items[0].name.text.unwrap();

    // The uniform var's name pointer takes the attrib var's name: the same bytes named twice.
    let mut named_twice = bytes.clone();
    be(&mut named_twice, uniform, attrib_name.pointer);
    let f = Gfd::parse(&named_twice).unwrap().validate();
    let name_at = attrib_name.text.unwrap().offset;
    assert_eq!(
        with(&f, "reached again"),
        vec![(
            g.attrib_vars.items[0].at,
            Severity::Warning,
            format!(
                "vertex shader 0: the name of attrib var 0 is the name of uniform var 0 (at 0x{name_at:x}): the same bytes are reached again"
            )
        )]
    );
    assert!(with(&f, "share bytes").is_empty(), "{f:?}");

    // The uniform var array moved onto the struct's first bytes (a tagged offset 0). Its
    // entry's name pointer is now the struct's first word, SQ_PGM_RESOURCES_VS = 2: the name
    // at offset 2 of the data, the struct's NUL byte at +2, inside the struct too.
    let mut on_struct = bytes.clone();
    be(&mut on_struct, at + l.arrays as u64 + 12, PointerKind::Tagged.encode(0, false));
    assert_eq!(&on_struct[at as usize..at as usize + 4], &2u32.to_be_bytes());
    let f = Gfd::parse(&on_struct).unwrap().validate();
    assert_eq!(
        with(&f, "share bytes"),
        vec![
            (
                at,
                Severity::Error,
                format!(
                    "vertex shader 0: the struct and the uniform vars share bytes (from 0x{at:x} to 0x{:x})",
                    at + 0x14
                )
            ),
            (
                at + 2,
                Severity::Error,
                format!(
                    "vertex shader 0: the name of uniform var 0 and the struct share bytes (from 0x{:x} to 0x{:x})",
                    at + 2,
                    at + 3
                )
            ),
        ]
    );

    // The uniform var's name pointed one byte into the attrib var's name ("Position" inside
    // "aPosition"): names that overlap without being the same are a warning.
    let mut suffix = bytes.clone();
    be(&mut suffix, uniform, attrib_name.pointer + 1);
    let f = Gfd::parse(&suffix).unwrap().validate();
    let end = name_at + "aPosition".len() as u64 + 1;
    assert_eq!(
        with(&f, "share bytes"),
        vec![(
            name_at + 1,
            Severity::Warning,
            format!(
                "vertex shader 0: the name of uniform var 0 and the name of attrib var 0 share bytes (from 0x{:x} to 0x{end:x})",
                name_at + 1
            )
        )]
    );
    // The untouched name string is left where it was, unclaimed.
    assert!(uniform_name.offset > 0);
}

/// An archive of `programs` programs, each with the two binaries of its one variation, whose
/// programs all start at binary `base` (0: they all share the first two).
fn archive(programs: usize, shared: bool) -> Sharcfb {
    let mut a = Sharcfb::new("demo", Endian::Big);
    for p in 0..programs {
        a.binaries.items.push(Binary::new(BinaryType::VERTEX, vec![0; 4]));
        a.binaries.items.push(Binary::new(BinaryType::PIXEL, vec![0; 4]));
        let base = if shared { 0 } else { 2 * p as u32 };
        a.programs.items.push(Program::new(&format!("p{p}"), 0b011, base));
    }
    a
}

#[test]
fn sharcfb_programs_sharing_binaries_are_one_finding_each() {
    let fine = Sharcfb::parse(&archive(3, false).write().unwrap()).unwrap();
    assert!(with(&fine.validate(), "reached again").is_empty());

    let bytes = archive(3, true).write().unwrap();
    let f = Sharcfb::parse(&bytes).unwrap();
    let findings = f.validate();
    let at = |p: usize| f.programs.items[p].at + 12;
    assert_eq!(
        with(&findings, "reached again"),
        vec![
            (
                at(1),
                Severity::Warning,
                "program 1 \"p1\": binaries 0 to 1 are also program 0 \"p0\"'s: the same binaries are reached again"
                    .to_string()
            ),
            (
                at(2),
                Severity::Warning,
                "program 2 \"p2\": binaries 0 to 1 are also program 0 \"p0\"'s: the same binaries are reached again"
                    .to_string()
            ),
        ]
    );
    // The listing names the first user of a binary and counts the rest.
    let mut text = shaderscope::print::TextBuf::default();
    let _ = f.disasm(&shaderscope::DisasmOptions::default(), &mut text);
    let text = text.into_string();
    assert!(text.contains("; binary 1: PS of program \"p0\" variation 0 (no macros)\n"), "{text}");
    assert!(
        text.contains("; binary 1: and 2 more program variations (the same binary reached again)\n"),
        "{text}"
    );
    assert!(!text.contains("program \"p1\""), "{text}");
    let info = f.info_text();
    assert!(info.contains(": VS, data at 0x"), "{info}");
    assert!(info.contains("used as vertex of program \"p0\" variation 0, and 2 more\n"), "{info}");
    assert_eq!(f.info_json().to_value()["binaries"][0]["used_by"].as_array().unwrap().len(), 1);
    // Where nothing is shared, every line is as before.
    let mut text = shaderscope::print::TextBuf::default();
    let _ = fine.disasm(&shaderscope::DisasmOptions::default(), &mut text);
    let text = text.into_string();
    assert!(text.contains("; binary 5: PS of program \"p2\" variation 0 (no macros)\n"), "{text}");
    assert!(!text.contains("more program variations"), "{text}");
}

/// The program and the GX2 struct of a SHARCFB binary are in one block of data: a program
/// pointer onto the struct is a finding.
#[test]
fn a_sharcfb_program_on_its_struct_is_a_finding() {
    // A GFD's vertex shader struct, its arrays and names, laid out with plain offsets, then
    // its microcode: the data of a SHARCFB binary.
    let gfd = shaderscope::format::gfd::build::example();
    let parsed = Gfd::parse(&gfd).unwrap();
    let g = parsed.shaders[0].gx2().unwrap();
    let laid = g.lay_out(0, PointerKind::Offset);
    let mut p = shaderscope::toolkit::layout::Placement::new(Endian::Big, laid.text.end as usize);
    laid.shader.place(&mut p, 0);
    let mut data = p.finish(&[]);
    let code = parsed.program(&parsed.shaders[0], false).unwrap().data;
    let program_at = data.len() as u32;
    data.extend(code);
    let l = g.layout();
    // size, then the program pointer (an offset into the data).
    let mut good = data.clone();
    be(&mut good, l.size as u64 + 4, program_at);
    let mut bad = data.clone();
    be(&mut bad, l.size as u64 + 4, 8);
    let build = |data: Vec<u8>| {
        let mut a = Sharcfb::new("demo", Endian::Big);
        a.binaries.items.push(Binary::new(BinaryType::VERTEX, data));
        Sharcfb::parse(&a.write().unwrap()).unwrap()
    };
    let fine = build(good);
    assert!(with(&fine.validate(), "share bytes").is_empty(), "{:?}", fine.validate());
    let f = build(bad);
    let data_at = f.binaries.items[0].data_at();
    assert_eq!(
        with(&f.validate(), "share bytes"),
        vec![(
            data_at + 8,
            Severity::Error,
            format!(
                "binary 0 (vertex shader): the program and the struct share bytes (from 0x{:x} to 0x{:x})",
                data_at + 8,
                data_at + 8 + code.len() as u64
            )
        )]
    );
}

#[test]
fn sharcfb_settings_lines_are_bounded() {
    // 4 macros of two values, then 20 of one value: 16 variations, 32 binaries, each line
    // showing 16 settings and counting the other 8.
    let mut a = Sharcfb::new("demo", Endian::Big);
    for k in 0..32 {
        let kind = if k % 2 == 0 { BinaryType::VERTEX } else { BinaryType::PIXEL };
        a.binaries.items.push(Binary::new(kind, vec![0; 4]));
    }
    let mut program = Program::new("p", 0b011, 0);
    for m in 0..24 {
        let values: &[&str] = if m < 4 { &["0", "1"] } else { &["x"] };
        program.variations.items.push(Variation::new(&format!("M{m}"), values, &format!("m{m}")));
    }
    a.programs.items.push(program);
    let f = Sharcfb::parse(&a.write().unwrap()).unwrap();
    let mut text = shaderscope::print::TextBuf::default();
    let _ = f.disasm(&shaderscope::DisasmOptions::default(), &mut text);
    let text = text.into_string();
    let settings: String = (4..16).map(|m| format!("M{m}=x ")).collect();
    // Variation 15 is the last: every two-valued macro at "1".
    assert!(
        text.contains(&format!(
            "; binary 31: PS of program \"p\" variation 15 (M0=1 M1=1 M2=1 M3=1 {settings}(+8 more))\n"
        )),
        "{text}"
    );
    // What is shown agrees with `settings`.
    let full = f.settings(&f.programs.items[0], 15);
    assert_eq!(full.len(), 24);
    assert_eq!(full[3], ("M3".to_string(), "1".to_string()));
    let shown = shaderscope::format::sharcfb::ShownSettings::new(&f.programs.items[0]);
    for v in 0..16 {
        assert_eq!(shown.of(v), f.settings(&f.programs.items[0], v)[..16]);
    }
}

/// MBS chunks nest by size and cannot share bytes; what can reach the same symbols again is a
/// chain of parent links: two structs each the other's parent, which no layout can hold, so
/// the table is damaged (every command reports it) and `validate` says it once.
#[test]
fn mbs_parent_links_in_a_cycle_are_damage() {
    use shaderscope::format::mbs::{Mbs, SymbolType};
    let bytes = shaderscope::format::mbs::build::example_vertex_shader();
    let mbs = Mbs::parse(&bytes).unwrap();
    assert!(mbs.validate().is_empty());
    let records: Vec<u64> =
        mbs.shader().unwrap().table(*b"SUNI").unwrap().symbols().map(|s| s.record_at).collect();
    let mut bad = bytes.clone();
    for (k, parent) in [(0usize, 1u16), (1, 0)] {
        let r = records[k] as usize;
        bad[r + 1] = SymbolType::STRUCT.0;
        bad[r + 18..r + 20].copy_from_slice(&parent.to_le_bytes());
    }
    let file = shaderscope::parse(&bad).unwrap();
    let damage: Vec<String> = file.damage().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        damage,
        [format!(
            "invalid MBS1/CVER/SUNI symbol 0 (mvp) at offset {:#x}: its parent index 1 leads back to it (a cycle of 2 symbols): structs cannot contain each other",
            records[0] + 18
        )]
    );
    let reported: Vec<(u64, Severity, String)> = file
        .validation()
        .into_iter()
        .map(|r| (r.finding.offset, r.finding.severity, r.finding.message))
        .collect();
    assert_eq!(
        reported,
        [(
            records[0] + 18,
            Severity::Error,
            "invalid MBS1/CVER/SUNI symbol 0 (mvp): its parent index 1 leads back to it (a cycle of 2 symbols): structs cannot contain each other"
                .to_string()
        )]
    );
}
