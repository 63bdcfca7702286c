//! List the programs of a Wii U AGL shader archive (SHARCFB): their variation macros, their
//! symbols with the variations that use them, and every variation with the macro settings
//! that pick it and the shader binaries (vertex, pixel, geometry) it takes, resolved as AGL
//! resolves them at run time.
//!
//! ```text
//! cargo run -p shaderscope --example sharcfb_programs -- samples/shaders.sharcfb
//! ```

use shaderscope::File;
use std::fmt::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: sharcfb_programs FILE.sharcfb")?;
    let mut text = String::new();
    run(&std::fs::read(&path)?, &mut text)?;
    print!("{text}");
    Ok(())
}

/// Each program: its macros and symbols, then per variation the settings and the binaries it
/// takes.
pub fn run(bytes: &[u8], out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let File::Sharcfb(archive) = shaderscope::parse(bytes)? else {
        return Err("not a SHARCFB archive".into());
    };
    writeln!(out, "archive \"{}\": {} binaries", archive.name.text(), archive.binaries.items.len())?;
    for program in &archive.programs.items {
        let variations = program.variation_count().ok_or("too many variations to count")?;
        writeln!(out, "program \"{}\": {variations} variations", program.name.text())?;
        for m in &program.variations.items {
            let values: Vec<&str> = m.values().iter().map(|v| v.text).collect();
            writeln!(out, "  macro {} = {}", m.name.text(), values.join(" | "))?;
        }
        // The symbols the program's sources declare, with the variations that use them.
        for (kind, symbols) in
            ["uniform", "uniform block", "sampler", "attribute"].iter().zip(&program.symbols)
        {
            for symbol in &symbols.items {
                let used: Vec<String> = (0..symbol.used.len())
                    .filter(|v| symbol.used_in(*v) == Some(true))
                    .map(|v| v.to_string())
                    .collect();
                writeln!(out, "  {kind} {}: used by variations {}", symbol.name.text(), used.join(", "))?;
            }
        }
        // An archive can make millions of variations; the first SHOWN make the point.
        const SHOWN: u64 = 64;
        for variation in 0..variations.min(SHOWN) {
            let settings = archive.settings(program, variation);
            let resolved = archive.resolve(&program.name.text(), &settings)?;
            let settings: Vec<String> =
                resolved.settings.iter().map(|s| format!("{}={}", s.name, s.value)).collect();
            let binaries: Vec<String> = resolved
                .binaries
                .iter()
                .map(|b| format!("{} binary {} ({} bytes at 0x{:x})", b.stage, b.index, b.size, b.offset))
                .collect();
            writeln!(out, "  variation {variation} ({}): {}", settings.join(", "), binaries.join(", "))?;
        }
        if variations > SHOWN {
            writeln!(out, "  ... and {} more variations", variations - SHOWN)?;
        }
    }
    Ok(())
}
