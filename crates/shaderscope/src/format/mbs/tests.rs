//! Hand-made inputs: damaged files with their exact errors, edits written and read back, the
//! struct tree, and the layout findings.

use super::build::{example_fragment_shader, example_vertex_shader};
use super::{Body, Mbs, Node, Symbol, SymbolType, Table};
use crate::Container;
use crate::dump::Annotations;

fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn messages(m: &Mbs<'_>) -> Vec<(u64, String)> {
    m.validate().into_iter().map(|f| (f.offset, f.message)).collect()
}

#[test]
fn a_child_larger_than_its_parent_is_an_error_with_its_path_and_offset() {
    let mut b = example_vertex_shader();
    put32(&mut b, 0x2c, 0x1000);
    assert_eq!(
        Mbs::parse(&b).unwrap_err().to_string(),
        "MBS1/CVER/SUNI chunk at offset 0x2c points outside its range (0x30 + 0x1000 is outside 0x20c)"
    );
    let mut b = example_vertex_shader();
    put32(&mut b, 0x64, 0x100);
    assert_eq!(
        Mbs::parse(&b).unwrap_err().to_string(),
        "MBS1/CVER/SUNI/VUNI/VIDX chunk at offset 0x64 points outside its range (0x68 + 0x100 is outside 0x8c)"
    );
    let b = example_vertex_shader();
    assert_eq!(
        Mbs::parse(&b[..0x100]).unwrap_err().to_string(),
        "MBS1 chunk at offset 0x4 points outside its range (0x8 + 0x204 is outside 0x100)"
    );
}

#[test]
fn a_count_larger_than_the_table_damages_the_file() {
    let mut b = example_vertex_shader();
    put32(&mut b, 0x178, 5);
    let m = Mbs::parse(&b).unwrap();
    let damage: Vec<String> = m.damage().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        damage,
        ["invalid MBS1/CVER/SATT count at offset 0x178: 5 is larger than the table's 1 records"]
    );
    // The rest still reads and writes back.
    assert_eq!(m.write().unwrap(), b);
}

#[test]
fn a_name_without_nul_is_an_error() {
    let mut b = example_vertex_shader();
    assert_eq!(&b[0x48..0x4c], b"mvp\0");
    b[0x4b] = b'X';
    assert_eq!(
        Mbs::parse(&b).unwrap_err().to_string(),
        "invalid MBS1/CVER/SUNI/VUNI/STRI string at offset 0x48: no NUL in its 4 bytes"
    );
    // A record cut short after its name.
    let mut b = example_vertex_shader();
    put32(&mut b, 0x180, 28);
    assert_eq!(
        Mbs::parse(&b).unwrap_err().to_string(),
        "truncated MBS1/CVER/SATT/VATT record at offset 0x198 (need 16 bytes, have 8)"
    );
    // A symbol that does not start with its name.
    let mut b = example_vertex_shader();
    b[0x184..0x188].copy_from_slice(b"STRX");
    assert_eq!(
        Mbs::parse(&b).unwrap_err().to_string(),
        "bad MBS1/CVER/SATT/VATT name magic at offset 0x184: expected \"STRI\", found \"STRX\""
    );
}

#[test]
fn a_renamed_symbol_and_an_added_initial_value_read_back() {
    let b = example_vertex_shader();
    let mut m = Mbs::parse(&b).unwrap();
    let shader = m.shader_mut().unwrap();
    let Body::Table(t) = &mut shader.children[1].body else { panic!("SUNI") };
    let Body::Symbol(mvp) = &mut t.children[0].body else { panic!("VUNI") };
    mvp.name.set_text(&b"modelViewProjection"[..]);
    mvp.children.push(Node::new(*b"VINI", Body::Vini(vec![2.5f32.to_bits(), (-1.0f32).to_bits()])));
    let out = m.write_model();
    assert_eq!(out.len(), b.len() + 16 + 20, "the name grows by 16 bytes, the VINI takes 20");
    let again = Mbs::parse(&out).unwrap();
    let uniforms = again.shader().unwrap().table(*b"SUNI").unwrap();
    let first = uniforms.symbols().next().unwrap();
    assert_eq!(first.name.to_string(), "modelViewProjection");
    assert_eq!(first.name.pad.len(), 0);
    assert_eq!(first.initial_values(), Some(&[2.5f32.to_bits(), (-1.0f32).to_bits()][..]));
    assert_eq!(uniforms.symbols().nth(1).unwrap().name.to_string(), "gl_mali_ViewportTransform");
    assert_eq!(again.write().unwrap(), out);
    assert!(again.validate().is_empty(), "{:?}", again.validate());
    assert!(again.damage().is_empty());
}

#[test]
fn unknown_chunks_anywhere_are_kept_and_shown() {
    let b = example_vertex_shader();
    let mut m = Mbs::parse(&b).unwrap();
    let shader = m.shader_mut().unwrap();
    shader.children.insert(1, Node::new(*b"XTRA", Body::Bytes(b"abcd"[..].into())));
    let Body::Table(t) = &mut shader.children[2].body else { panic!("SUNI") };
    let Body::Symbol(mvp) = &mut t.children[0].body else { panic!("VUNI") };
    mvp.children.push(Node::new(*b"VNEW", Body::Bytes(vec![1, 2, 3, 4, 5, 6, 7, 8].into())));
    let out = m.write_model();
    let again = Mbs::parse(&out).unwrap();
    assert_eq!(again.write().unwrap(), out);
    let info = again.info_text();
    assert!(info.contains("      XTRA at 0x28 (4 bytes, unknown: kept as bytes)\n"), "{info}");
    assert!(info.contains("VNEW (8 bytes, unknown)"), "{info}");
    assert!(again.validate().is_empty(), "{:?}", again.validate());
    let mut a = Annotations::new();
    again.annotate(&mut a);
    let mut text = String::new();
    a.render(&out, &mut text).unwrap();
    assert!(!text.contains("(unclaimed)"), "{text}");
    assert!(text.contains("| XTRA payload (4 bytes, not read)"), "{text}");
}

#[test]
fn layout_findings_have_offsets() {
    let mut b = example_vertex_shader();
    put32(&mut b, 0x20, 3);
    assert_eq!(
        messages(&Mbs::parse(&b).unwrap()),
        [(0x20, "MBS1/CVER/FINS gives 3 instructions but DBIN holds 2".into())]
    );

    let mut b = example_vertex_shader();
    b[0x5e..0x60].copy_from_slice(&7u16.to_le_bytes());
    assert_eq!(
        messages(&Mbs::parse(&b).unwrap()),
        [(0x5e, "MBS1/CVER/SUNI symbol 0 (mvp): parent index 7 is outside the table's 3 symbols".into())]
    );

    let mut b = example_vertex_shader();
    b[0x1e0..0x1e2].copy_from_slice(&2u16.to_le_bytes());
    assert_eq!(
        messages(&Mbs::parse(&b).unwrap()),
        [(
            0x1e0,
            "MBS1/CVER/SVAR symbol 0 (gl_Position): offset 2 is not a multiple of its alignment 4".into()
        )]
    );

    let mut b = example_vertex_shader();
    put32(&mut b, 0x34, 8);
    assert_eq!(
        messages(&Mbs::parse(&b).unwrap()),
        [(0x34, "MBS1/CVER/SUNI: total slots 8 is less than the uniforms' extent 24".into())]
    );

    // GP code that is not whole instructions (the DBIN of the sample is at 0x1e4, its payload
    // at 0x1ec): the sample's first instruction and 4 bytes more, the cut instruction the GP
    // disassembler's problem.
    let b = example_vertex_shader();
    let mut m = Mbs::parse(&b).unwrap();
    let dbin = m.shader_mut().unwrap().children.iter_mut().find(|n| n.tag.0 == *b"DBIN").unwrap();
    let mut code = b[0x1ec..0x1fc].to_vec();
    code.extend([0; 4]);
    dbin.body = Body::Code(code.into());
    let out = m.write_model();
    assert_eq!(
        messages(&Mbs::parse(&out).unwrap()),
        [
            (0x20, "MBS1/CVER/FINS gives 2 instructions but DBIN holds 1".into()),
            // The finding has its offset; its message is the damage's reason (said once).
            (0x1fc, "truncated Mali GP instruction (need 16 bytes, have 4)".into()),
        ]
    );
}

#[test]
fn structs_nest_in_the_tree() {
    let light = Symbol { component_count: 2, ..Symbol::new("light", SymbolType::STRUCT, 2, 8, 0) };
    let color = Symbol { parent: Some(0), ..Symbol::new("color", SymbolType::FLOAT, 4, 4, 0) };
    let pos = Symbol { parent: Some(0), ..Symbol::new("pos", SymbolType::FLOAT, 3, 4, 4) };
    let other = Symbol::new("other", SymbolType::FLOAT, 1, 1, 8);
    let children = [light, color, pos, other]
        .into_iter()
        .map(|s| Node::new(*b"VUNI", Body::Symbol(Box::new(s))))
        .collect();
    let fragment = example_fragment_shader();
    let mut m = Mbs::parse(&fragment).unwrap();
    let shader = m.shader_mut().unwrap();
    let Some(n) = shader.children.iter_mut().find(|n| n.tag.0 == *b"SUNI") else { panic!("SUNI") };
    n.body = Body::Table(Table { count: 4, total_slots: Some(12), children });
    let out = m.write_model();
    let m = Mbs::parse(&out).unwrap();
    let info = m.info_text();
    let lines: Vec<&str> = info.lines().skip_while(|l| !l.starts_with("uniforms")).take(5).collect();
    assert!(lines[1].starts_with("  [0] highp struct light (type struct, 2 components"), "{info}");
    assert!(lines[2].starts_with("    [1] highp vec4 color ("), "{info}");
    assert!(lines[2].ends_with(", parent 0, unknown_0 0)"), "{info}");
    assert!(lines[3].starts_with("    [2] highp vec3 pos ("), "{info}");
    assert!(lines[4].starts_with("  [3] highp float other ("), "{info}");
    let json = m.info_json().to_value();
    assert_eq!(json["shader"]["tables"][0]["symbols"][2]["parent"], 0);
    assert_eq!(json["shader"]["tables"][0]["symbols"][0]["type_name"], "struct");
}

#[test]
fn every_byte_of_the_samples_is_claimed_once() {
    for b in [example_vertex_shader(), example_fragment_shader()] {
        let m = Mbs::parse(&b).unwrap();
        let mut a = Annotations::new();
        m.annotate(&mut a);
        let mut text = String::new();
        a.render(&b, &mut text).unwrap();
        assert!(!text.contains("(unclaimed)"), "{text}");
        assert_eq!(a.errors().count(), 0);
    }
}
