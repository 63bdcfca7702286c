//! Print the chunk tree of an ARM Mali offline-compiler file (MBS) with its symbols: each
//! chunk's tag and offset, and in the uniform, attribute and varying tables every symbol with
//! its GLSL type, precision and slot, a struct's members under it (by their parent index).
//!
//! ```text
//! cargo run -p shaderscope --example mbs_symbols -- samples/vertex.mbs
//! ```

use shaderscope::File;
use shaderscope::format::mbs::{Body, Node, Symbol, Table, glsl_type, precision_name};
use std::fmt::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: mbs_symbols FILE.mbs")?;
    let mut text = String::new();
    run(&std::fs::read(&path)?, &mut text)?;
    print!("{text}");
    Ok(())
}

/// The tree from the `MBS1` chunk down.
pub fn run(bytes: &[u8], out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let File::Mbs(mbs) = shaderscope::parse(bytes)? else {
        return Err("not an MBS file".into());
    };
    chunk(&mbs.root, 0, out)?;
    Ok(())
}

/// A chunk and what it holds, `depth` levels in.
fn chunk(node: &Node<'_>, depth: usize, out: &mut String) -> std::fmt::Result {
    let pad = "  ".repeat(depth);
    write!(out, "{pad}{} at 0x{:x}", node.tag, node.at)?;
    match &node.body {
        Body::Shader(s) => writeln!(out, ": version {}", s.version)?,
        Body::Table(t) => {
            writeln!(out, ": {} symbol{}", t.count, if t.count == 1 { "" } else { "s" })?;
            return symbols(t, depth + 1, out);
        }
        Body::Code(code) => writeln!(out, ": {} bytes of code", code.len())?,
        _ => writeln!(out)?,
    }
    node.children().iter().try_for_each(|c| chunk(c, depth + 1, out))
}

/// A table's symbols as a tree: those with no parent, each followed by its members.
fn symbols(table: &Table<'_>, depth: usize, out: &mut String) -> std::fmt::Result {
    let all: Vec<&Symbol<'_>> = table.symbols().collect();
    let mut stack: Vec<(usize, usize)> = all
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, s)| s.parent_index().is_none())
        .map(|(i, _)| (i, depth))
        .collect();
    // Each symbol has one parent, so each is listed once; symbols whose parent links form a
    // cycle (a damaged file) reach no root and are not listed.
    while let Some((i, d)) = stack.pop() {
        let s = all[i];
        let precision = precision_name(s.precision).unwrap_or("?");
        writeln!(out, "{}{precision} {} {} (slot {})", "  ".repeat(d), glsl_type(s), s.name, s.offset)?;
        let members = all.iter().enumerate().rev().filter(|(_, m)| m.parent_index() == Some(i as u16));
        stack.extend(members.map(|(k, _)| (k, d + 1)));
    }
    Ok(())
}
