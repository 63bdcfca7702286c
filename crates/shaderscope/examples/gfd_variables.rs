//! List each shader of a Wii U GFD file (`.gsh`) with what a renderer binds to it: its
//! uniform blocks, uniforms (type, count, offset), samplers and vertex attributes (type,
//! location), read from the GX2 shader structs.
//!
//! ```text
//! cargo run -p shaderscope --example gfd_variables -- samples/shader.gsh
//! ```

use shaderscope::File;
use std::fmt::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: gfd_variables FILE.gsh")?;
    let mut text = String::new();
    run(&std::fs::read(&path)?, &mut text)?;
    print!("{text}");
    Ok(())
}

/// Each shader: its title and mode, then its uniform blocks, uniforms, samplers and attributes.
pub fn run(bytes: &[u8], out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let File::Gfd(gfd) = shaderscope::parse(bytes)? else {
        return Err("not a GFD file".into());
    };
    for s in &gfd.shaders {
        let Some(shader) = s.gx2() else {
            writeln!(out, "{}: its header block does not read", s.title())?;
            continue;
        };
        let program = gfd.program(s, false).map_or(0, |b| b.data.len());
        writeln!(out, "{}: {}, {program} bytes of microcode", s.title(), shader.mode)?;
        for b in &shader.uniform_blocks.items {
            writeln!(out, "  uniform block {:<16} location {} size {}", b.name.text(), b.offset, b.size)?;
        }
        for u in &shader.uniform_vars.items {
            // Offsets count 32-bit words: of the registers, or of uniform block `block`.
            let block = if u.block < 0 { String::new() } else { format!(" of block {}", u.block) };
            writeln!(
                out,
                "  uniform   {:<16} {} [{}] at offset {}{block}",
                u.name.text(),
                u.ty,
                u.count,
                u.offset
            )?;
        }
        for v in &shader.sampler_vars.items {
            writeln!(out, "  sampler   {:<16} {} location {}", v.name.text(), v.ty, v.location)?;
        }
        for a in &shader.attrib_vars.items {
            writeln!(out, "  attribute {:<16} {} location {}", a.name.text(), a.ty, a.location)?;
        }
    }
    Ok(())
}
