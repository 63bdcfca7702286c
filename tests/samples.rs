//! The files in `samples/` are produced by the library's own writers; this test keeps them in
//! step with the code (`BLESS=1 cargo test --test samples` rewrites them).

use base64::Engine;
use shaderscope::Container;
use shaderscope::format::shbin::build;

fn samples() -> Vec<(&'static str, Vec<u8>)> {
    let vs = build::example_vertex_shader();
    let mut csdr = base64::engine::general_purpose::STANDARD.encode(&vs).into_bytes();
    // Wrap at 76 columns, as base64 text files usually are.
    csdr = csdr.chunks(76).flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
    vec![
        ("vshader.shbin", vs),
        ("vshader.csdr", csdr),
        ("ps_color.dxbc", pixel_shader_dxbc()),
        ("vertex.mbs", shaderscope::format::mbs::build::example_vertex_shader()),
        ("fragment.mbs", shaderscope::format::mbs::build::example_fragment_shader()),
    ]
}

/// `ps_4_0` that returns its interpolated colour, darkened: `samples/ps_color.asm` (written
/// by hand) assembled into a whole container by the DXBC assembler.
fn pixel_shader_dxbc() -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let text = std::fs::read_to_string(dir.join("ps_color.asm")).unwrap();
    shaderscope::format::dxbc::assemble::assemble(&text).unwrap()
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
