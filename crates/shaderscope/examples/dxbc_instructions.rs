//! List the instructions of a Direct3D shader (a DXBC container) with their byte offsets and
//! encodings: what a tool that patches or annotates shaders starts from.
//!
//! ```text
//! cargo run -p shaderscope --example dxbc_instructions -- samples/ps_color.dxbc
//! ```

use shaderscope::File;
use shaderscope::sm4::{self, ListingStyle};
use std::fmt::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: dxbc_instructions FILE.dxbc")?;
    let mut text = String::new();
    run(&std::fs::read(&path)?, &mut text)?;
    print!("{text}");
    Ok(())
}

/// The program's model and each instruction: absolute offset, text and tokens.
pub fn run(bytes: &[u8], out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let File::Dxbc(dxbc) = shaderscope::parse(bytes)? else {
        return Err("not a DXBC container".into());
    };
    let program = dxbc.sm4()?;
    writeln!(
        out,
        "{} program, {} bytes at 0x{:x}",
        program.version_name(),
        program.byte_len(),
        program.base()
    )?;
    for r in sm4::records(&program, &ListingStyle::default())? {
        let words: Vec<String> = r.words.iter().map(|w| format!("{w:08x}")).collect();
        writeln!(out, "0x{:04x}  {:<36} {}", r.offset, r.text, words.join(" "))?;
    }
    Ok(())
}
