//! The programs in `examples/` run on the samples the project ships and print what the samples
//! hold (the samples are made by the project's own writers: see `tests/samples.rs`).

#[allow(dead_code)]
#[path = "../examples/dxbc_instructions.rs"]
mod dxbc_instructions;
#[allow(dead_code)]
#[path = "../examples/shbin_dvles.rs"]
mod shbin_dvles;

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
    assert_eq!(lines[1], "  uniform projection               c0-c3");
    assert_eq!(lines[2], "  output  o0                       position");
    assert_eq!(lines[3], "  output  o1                       color");
    assert_eq!(lines[4], "  0x000034  4e000000  mov r0.xyz, v0");
    assert_eq!(lines.last(), Some(&"  0x000050  88000000  end"));
    assert_eq!(lines.len(), 4 + 8);
}
