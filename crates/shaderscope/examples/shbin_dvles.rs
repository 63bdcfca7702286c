//! Walk the DVLEs of a 3DS shader binary and print what a loader needs from each: its stage,
//! its uniforms with their registers, its outputs with their semantics, and its instructions.
//!
//! ```text
//! cargo run -p shaderscope --example shbin_dvles -- samples/vshader.shbin
//! ```

use shaderscope::File;
use std::fmt::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: shbin_dvles FILE.shbin")?;
    let mut text = String::new();
    run(&std::fs::read(&path)?, &mut text)?;
    print!("{text}");
    Ok(())
}

/// Each DVLE: where it is, its stage and entry range (main to `endmain`, or to main's end
/// instruction where `endmain` is 0, as nihstro leaves it), uniforms, outputs and instructions.
pub fn run(bytes: &[u8], out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let File::Shbin(file) = shaderscope::parse(bytes)? else {
        return Err("not a 3DS shader file".into());
    };
    for dvle in file.dvles() {
        let stage = dvle.stage().map_or("unknown", |s| s.name());
        let at = dvle.offset().unwrap_or(dvle.base);
        writeln!(
            out,
            "DVLE {} at 0x{at:x}: {stage} shader, entry 0x{:x}..0x{:x}",
            dvle.index,
            dvle.dvle.main,
            dvle.entry_end()
        )?;
        let names = dvle.names();
        for u in &names.uniforms {
            writeln!(out, "  uniform {:<24} {}", u.name, u.registers())?;
        }
        for o in &names.outputs {
            let semantic =
                o.semantic_name().map_or_else(|| format!("semantic {}", o.semantic), str::to_string);
            writeln!(out, "  output  o{:<23} {semantic}", o.register)?;
        }
        for r in dvle.records() {
            writeln!(out, "  0x{:06x}  {:08x}  {}", r.offset, r.words.first().copied().unwrap_or(0), r.text)?;
        }
    }
    Ok(())
}
