//! The programs in `examples/` run on the samples the project ships and print what the samples
//! hold (the samples are made by the project's own writers: see `tests/samples.rs`), and on
//! files those writers build here.

#[allow(dead_code)]
#[path = "../examples/dxbc_instructions.rs"]
mod dxbc_instructions;
#[allow(dead_code)]
#[path = "../examples/gfd_variables.rs"]
mod gfd_variables;
#[allow(dead_code)]
#[path = "../examples/mbs_symbols.rs"]
mod mbs_symbols;
#[allow(dead_code)]
#[path = "../examples/pica_build.rs"]
mod pica_build;
#[allow(dead_code)]
#[path = "../examples/sharcfb_programs.rs"]
mod sharcfb_programs;
#[allow(dead_code)]
#[path = "../examples/shbin_dvles.rs"]
mod shbin_dvles;

use shaderscope::format::mbs::{Body, Mbs, Node, Symbol, SymbolType, Table};

fn sample(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn dxbc_instructions_lists_each_instruction_with_offset_text_and_tokens() {
    let mut out = String::new();
    dxbc_instructions::run(&sample("ps_color.dxbc"), &mut out).unwrap();
    assert_eq!(
        out,
        "ps_4_0 program, 56 bytes at 0x98\n\
         0x00a0  dcl_input_ps linear v0.xyzw          03001062 001010f2 00000000\n\
         0x00ac  dcl_output o0.xyzw                   03000065 001020f2 00000000\n\
         0x00b8  mov o0.xyzw, v0.xyzw                 05000036 001020f2 00000000 00101e46 00000000\n\
         0x00cc  ret                                  0100003e\n"
    );
    let e = dxbc_instructions::run(&sample("vshader.shbin"), &mut out).unwrap_err();
    assert_eq!(e.to_string(), "not a DXBC container");
}

#[test]
fn shbin_dvles_walks_uniforms_outputs_and_code() {
    let mut out = String::new();
    shbin_dvles::run(&sample("vshader.shbin"), &mut out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "DVLE 0 at 0x8c: vertex shader, entry 0x0..0x8");
    assert_eq!(lines[1], "  uniform inpos                    v0");
    assert_eq!(lines[3], "  uniform projection               c0-c3");
    assert_eq!(lines[4], "  output  o0                       position");
    assert_eq!(lines[5], "  output  o1                       color");
    assert_eq!(lines[6], "  0x000034  4e000000  mov r0.xyz, inpos");
    assert_eq!(lines.last(), Some(&"  0x000050  88000000  end"));
    assert_eq!(lines.len(), 6 + 8);
}

#[test]
fn pica_build_assembles_the_sample_source_into_the_sample_shbin() {
    let sources = ["vshader.v.pica".to_string()];
    let read = |name: &str| Ok(String::from_utf8(sample(name)).unwrap());
    let (shbin, constants) = pica_build::build(&sources, read).unwrap();
    assert!(shbin.bytes == sample("vshader.shbin"));
    assert_eq!(
        constants,
        "// Generated from the shaders' sources by shaderscope.\n\
         pub const VSH_FVEC_PROJECTION: u8 = 0x00;\n\
         pub const VSH_ULEN_PROJECTION: u8 = 4;\n"
    );
    let e = pica_build::build(&["missing.v.pica".to_string()], |_| Err(std::io::Error::other("gone")))
        .unwrap_err();
    assert_eq!(e.to_string(), "missing.v.pica: line 1, column 1: expected a readable file (gone)");
}

#[test]
fn gfd_variables_lists_each_shaders_uniforms_and_attributes() {
    let mut out = String::new();
    gfd_variables::run(&sample("shader.gsh"), &mut out).unwrap();
    assert_eq!(
        out,
        "vertex shader 0: GX2_SHADER_MODE_UNIFORM_REGISTER, 16 bytes of microcode\n\
         \x20 uniform   uProjection      GX2_VAR_TYPE_MAT4 [1] at offset 0\n\
         \x20 attribute aPosition        GX2_VAR_TYPE_VEC4 location 0\n\
         pixel shader 0: GX2_SHADER_MODE_UNIFORM_REGISTER, 16 bytes of microcode\n\
         \x20 uniform   uColor           GX2_VAR_TYPE_VEC4 [1] at offset 0\n"
    );
    let e = gfd_variables::run(&sample("vertex.mbs"), &mut out).unwrap_err();
    assert_eq!(e.to_string(), "not a GFD file");
}

#[test]
fn sharcfb_programs_lists_each_variation_and_its_binaries() {
    let mut out = String::new();
    sharcfb_programs::run(&sample("shaders.sharcfb"), &mut out).unwrap();
    assert_eq!(
        out,
        "archive \"demo\": 4 binaries\n\
         program \"color\": 2 variations\n\
         \x20 macro TINT = off | on\n\
         \x20 uniform uProjection: used by variations 0, 1\n\
         \x20 uniform uColor: used by variations 0, 1\n\
         \x20 uniform uTint: used by variations 1\n\
         \x20 attribute aPosition: used by variations 0, 1\n\
         \x20 variation 0 (TINT=off): vertex binary 0 (475 bytes at 0x35), pixel binary 1 (496 bytes at 0x220)\n\
         \x20 variation 1 (TINT=on): vertex binary 2 (496 bytes at 0x420), pixel binary 3 (496 bytes at 0x620)\n"
    );
    let e = sharcfb_programs::run(&sample("shader.gsh"), &mut out).unwrap_err();
    assert_eq!(e.to_string(), "not a SHARCFB archive");
}

#[test]
fn mbs_symbols_prints_the_chunk_tree_with_its_symbols() {
    let mut out = String::new();
    mbs_symbols::run(&sample("vertex.mbs"), &mut out).unwrap();
    assert_eq!(
        out,
        "MBS1 at 0x0\n\
         \x20 CVER at 0x8: version 6\n\
         \x20   FINS at 0x14\n\
         \x20   SUNI at 0x28: 3 symbols\n\
         \x20     highp mat4 mvp (slot 0)\n\
         \x20     highp vec4[2] gl_mali_ViewportTransform (slot 16)\n\
         \x20     highp float ?__maligp2_constant_000 (slot 24)\n\
         \x20   SATT at 0x170: 1 symbol\n\
         \x20     highp vec4 position (slot 0)\n\
         \x20   SVAR at 0x1a8: 1 symbol\n\
         \x20     highp vec4 gl_Position (slot 0)\n\
         \x20   DBIN at 0x1e4: 32 bytes of code\n"
    );
    // A struct uniform's members sit under it: the fragment sample with a uniform table of
    // `light` (a struct of `color` and `pos`) and `other`, written by the MBS writer.
    let fragment = sample("fragment.mbs");
    let mut mbs = Mbs::parse(&fragment).unwrap();
    let light = Symbol { component_count: 2, ..Symbol::new("light", SymbolType::STRUCT, 2, 8, 0) };
    let color = Symbol { parent: Some(0), ..Symbol::new("color", SymbolType::FLOAT, 4, 4, 0) };
    let pos = Symbol { parent: Some(0), ..Symbol::new("pos", SymbolType::FLOAT, 3, 4, 4) };
    let other = Symbol::new("other", SymbolType::FLOAT, 1, 1, 8);
    let children = [light, color, pos, other]
        .into_iter()
        .map(|s| Node::new(*b"VUNI", Body::Symbol(Box::new(s))))
        .collect();
    let shader = mbs.shader_mut().unwrap();
    let suni = shader.children.iter_mut().find(|n| n.tag.0 == *b"SUNI").unwrap();
    suni.body = Body::Table(Table { count: 4, total_slots: Some(12), children });
    let mut out = String::new();
    mbs_symbols::run(&mbs.write_model(), &mut out).unwrap();
    assert_eq!(
        out,
        "MBS1 at 0x0\n\
         \x20 CFRA at 0x8: version 7\n\
         \x20   FSTA at 0x14\n\
         \x20   FDIS at 0x24\n\
         \x20   FBUU at 0x30\n\
         \x20   SUNI at 0x40: 4 symbols\n\
         \x20     highp struct light (slot 0)\n\
         \x20       highp vec4 color (slot 0)\n\
         \x20       highp vec3 pos (slot 4)\n\
         \x20     highp float other (slot 8)\n\
         \x20   SVAR at 0xfc: 1 symbol\n\
         \x20     mediump vec4 color (slot 0)\n\
         \x20   DBIN at 0x134: 12 bytes of code\n"
    );
}
