//! What a `build.rs` does to ship 3DS shaders without picasso: assemble the project's picasso
//! sources into one SHBIN in `OUT_DIR`, and write Rust constants for its uniforms (what
//! picasso's `-h` header gives C programs), so the game code sets uniforms by name.
//!
//! ```text
//! cargo run -p shaderscope --example pica_build -- samples/vshader.v.pica
//! ```
//!
//! In a real `build.rs`, the same `build` call with the project's shader paths, and
//! `include_bytes!(concat!(env!("OUT_DIR"), "/shaders.shbin"))` /
//! `include!(concat!(env!("OUT_DIR"), "/shader_uniforms.rs"))` in the crate. Outside a build
//! script (no `OUT_DIR`), this example writes into the system's temporary folder.

use shaderscope::format::shbin::assemble::{self, Shbin};
use shaderscope::isa::pica::ShaderType;
use shaderscope::isa::pica::asm::UniformFile;
use std::fmt::Write;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut sources: Vec<String> = std::env::args().skip(1).collect();
    if sources.is_empty() {
        sources.push("samples/vshader.v.pica".to_string());
    }
    let out_dir = std::env::var_os("OUT_DIR").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    // An error names the file, the line and the column: cargo shows it as the build's failure.
    let (shbin, constants) = build(&sources, |path| std::fs::read_to_string(path))?;
    for s in &sources {
        println!("cargo:rerun-if-changed={s}");
    }
    std::fs::write(out_dir.join("shaders.shbin"), &shbin.bytes)?;
    std::fs::write(out_dir.join("shader_uniforms.rs"), &constants)?;
    println!(
        "wrote {} ({} bytes) and shader_uniforms.rs:",
        out_dir.join("shaders.shbin").display(),
        shbin.bytes.len()
    );
    print!("{constants}");
    Ok(())
}

/// Assemble `sources` (read through `read`) and write the uniforms every vertex shader shares
/// as Rust constants: each uniform's first register in its file and its length, named as
/// picasso's header names them (`VSH_FVEC_projection` becomes `VSH_FVEC_PROJECTION`).
pub fn build(
    sources: &[String],
    read: impl FnMut(&str) -> std::io::Result<String>,
) -> Result<(Shbin, String), shaderscope::asm::LineError> {
    let shbin = assemble::assemble_files(sources, read)?;
    let mut rust = String::from("// Generated from the shaders' sources by shaderscope.\n");
    // picasso names them after the first executable's type.
    let geometry = shbin.program.executables.first().is_some_and(|e| e.shader_type == ShaderType::Geometry);
    let prefix = if geometry { "GSH" } else { "VSH" };
    for u in &shbin.program.shared_uniforms {
        // A name starting with `_` is hidden, as picasso hides it.
        if u.name.starts_with('_') {
            continue;
        }
        let name = u.name.to_ascii_uppercase();
        let (kind, first) = match u.file {
            UniformFile::Float => ("FVEC", u.register - 0x20),
            UniformFile::Int => ("IVEC", u.register - 0x80),
            UniformFile::Bool => ("FLAG", u.register - 0x88),
        };
        let _ = writeln!(rust, "pub const {prefix}_{kind}_{name}: u8 = 0x{first:02X};");
        let _ = writeln!(rust, "pub const {prefix}_ULEN_{name}: u8 = {};", u.size);
    }
    Ok((shbin, rust))
}
