//! The files in `samples/` are produced by the library's own writers and assemblers; this test
//! keeps them in step with the code (`BLESS=1 cargo test --test samples` rewrites them).

use base64::Engine;
use shaderscope::Container;

fn samples() -> Vec<(&'static str, Vec<u8>)> {
    // The 3DS samples are the PICA200 source beside them, assembled.
    let source = include_str!("../samples/vshader.v.pica");
    let file = shaderscope::asm::File { name: "vshader.v.pica", text: source };
    let vs = shaderscope::format::shbin::assemble::assemble(&[file]).unwrap().bytes;
    let mut csdr = base64::engine::general_purpose::STANDARD.encode(&vs).into_bytes();
    // Wrap at 76 columns, as base64 text files usually are.
    csdr = csdr.chunks(76).flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
    // The textured DXBC sample is the fxc listing beside it, assembled.
    let listing = include_str!("../samples/ps_texture.asm");
    let textured = shaderscope::asm::assemble(listing, None).unwrap().bytes;
    vec![
        ("vshader.shbin", vs),
        ("vshader.csdr", csdr),
        ("ps_color.dxbc", pixel_shader_dxbc()),
        ("ps_texture.dxbc", textured),
        ("vertex.mbs", shaderscope::format::mbs::build::example_vertex_shader()),
        ("fragment.mbs", shaderscope::format::mbs::build::example_fragment_shader()),
        ("shader.gsh", shaderscope::format::gfd::build::example()),
        ("shaders.sharcfb", shaderscope::format::sharcfb::build::example()),
        ("effect.fxo", shaderscope::format::fx9::build::example()),
        // The same effect as XNA Game Studio 4's content pipeline stores it.
        ("effect.xnb", {
            let fx = shaderscope::format::fx9::build::example();
            shaderscope::format::fx9::build::xna_content(&fx, &[0; 8], b'w').unwrap()
        }),
        ("effect.mgfxo", shaderscope::format::mgfx::build::example()),
        ("effect11.fxo", shaderscope::format::fx11::build::example()),
    ]
}

/// A signature chunk (ISGN/OSGN layout): one element per (name, system value, register).
fn signature(elements: &[(&str, u32, u32)]) -> Vec<u8> {
    let mut head = Vec::new();
    let mut names = Vec::new();
    let table_end = 8 + 24 * elements.len();
    head.extend((elements.len() as u32).to_le_bytes());
    head.extend(8u32.to_le_bytes());
    for (name, system_value, register) in elements {
        let name_at = (table_end + names.len()) as u32;
        names.extend(name.as_bytes());
        names.push(0);
        // name offset, semantic index, system value, component type (3 = float32),
        // register, mask xyzw, read/write mask (all read / none unwritten), padding.
        for w in [name_at, 0, *system_value, 3, *register] {
            head.extend(w.to_le_bytes());
        }
        head.extend([0x0f, if *system_value == 0 { 0x0f } else { 0x00 }, 0, 0]);
    }
    names.resize(names.len().next_multiple_of(4), 0xab);
    head.extend(names);
    head
}

/// `ps_4_0` that returns its interpolated colour: hand-assembled tokens in a container written
/// by the DXBC writer (which computes the checksum).
fn pixel_shader_dxbc() -> Vec<u8> {
    let tokens: [u32; 14] = [
        0x0000_0040, // ps_4_0
        14,          // length in tokens
        0x0300_1062, // dcl_input_ps linear, 3 tokens
        0x0010_10f2, // v0.xyzw
        0,
        0x0300_0065, // dcl_output, 3 tokens
        0x0010_20f2, // o0.xyzw
        0,
        0x0500_0036, // mov, 5 tokens
        0x0010_20f2, // o0.xyzw
        0,
        0x0010_1e46, // v0.xyzw (swizzle)
        0,
        0x0100_003e, // ret
    ];
    let shdr: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    let mut b = shaderscope::format::dxbc::write::Builder::new();
    b.push(*b"ISGN", signature(&[("COLOR", 0, 0)]));
    b.push(*b"OSGN", signature(&[("SV_Target", 0x40, 0)]));
    b.push(*b"SHDR", shdr);
    b.finish().unwrap()
}

#[test]
fn samples_are_what_the_writers_produce() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    for (name, bytes) in samples() {
        let path = dir.join(name);
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path).unwrap_or_default();
        assert_eq!(on_disk, bytes, "{name} is stale: run BLESS=1 cargo test --test samples");
        // Every sample parses and re-encodes to itself.
        let file = shaderscope::parse(&bytes).unwrap();
        assert_eq!(file.write().unwrap(), bytes, "{name} does not round-trip");
    }
}
