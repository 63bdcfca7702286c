//! `disasm`'s listing of an MBS file → that file again, with the program the listing gives
//! (`asm LISTING --like ORIGINAL.mbs`).
//!
//! The listing's comment header (the shader line, the symbol tables, the `; code (DBIN): …`
//! line) describes the original and is not assembled: it must be the original's, but for the
//! byte count of the code line (a listing of a rebuilt file says its own). The program after
//! it goes through the Mali GP assembler for a vertex shader (`CVER`), the Mali PP one for a
//! fragment shader (`CFRA`). The file is the original's model with the `DBIN` code replaced:
//! the writer computes every chunk size again (`DBIN`, the shader chunk, `MBS1`), and a GP
//! shader's `FINS` instruction count follows the code. Nothing else of the file depends on
//! the code's length, so every other chunk stays the original's, and an unedited listing
//! gives the original byte for byte.
//!
//! ```
//! use shaderscope::format::mbs::{Mbs, assemble::assemble_like, build};
//! use shaderscope::{Container, DisasmOptions, print::TextBuf};
//!
//! let bytes = build::example_fragment_shader();
//! let original = Mbs::parse(&bytes)?;
//! let mut listing = TextBuf::default();
//! original.disasm(&DisasmOptions::default(), &mut listing)?;
//! let text = listing.into_string();
//! assert_eq!(assemble_like(&text, &original)?, bytes);
//!
//! // The header is the original's; a program line is read at its line of the whole text.
//! let e = assemble_like(&text.replace("0 symbols, 0 slots", "1 symbol, 4 slots"), &original).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "line 2, column 1: expected the original's line `; uniforms (SUNI): 0 symbols, 0 slots` \
//!      (the header is the original's and cannot be edited)"
//! );
//! let e = assemble_like(&text.replace("load.v $0", "load.v $16"), &original).unwrap_err();
//! assert_eq!(e.to_string(), "line 6, column 17: expected a register ($0 to $14) or ^discard");
//!
//! // An instruction more: the code grows, the sizes follow.
//! let longer = text.replace(", stop", "") + "@ 1: mov.v1 $0 ^const0, const0 1.0 1.0 1.0 1.0, stop\n";
//! let rebuilt = assemble_like(&longer, &original)?;
//! assert_eq!(Mbs::parse(&rebuilt)?.shader().unwrap().code().unwrap().0.len(), 12 + 20);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{Body, Core, Mbs, Node};
use crate::asm::{self, LineError};
use crate::container::{Container, DisasmOptions};
use crate::print::{TextBuf, count};
use std::borrow::Cow;

/// The start of the listing's line before the code.
const CODE_LINE: &str = "; code (DBIN): ";

/// Assemble `text`, `disasm`'s listing of `original` (edited or not), into a copy of
/// `original` holding the listed program (see the module doc). Errors: an original with no
/// shader or no code (nothing to assemble into), a header line that is not the original's,
/// a program line that does not assemble; the line numbers are those of the whole text.
pub fn assemble_like(text: &str, original: &Mbs<'_>) -> Result<Vec<u8>, asm::Error> {
    let Some(view) = original.shader() else {
        return Err(
            asm::Original::Unsupported("the original holds no shader chunk (CFRA or CVER)".into()).into()
        );
    };
    let core = view.core();
    let header = header(original).ok_or_else(|| {
        asm::Original::Unsupported(format!(
            "the original's {} holds no code (DBIN) to replace",
            view.node.tag
        ))
    })?;
    let (skipped, program) = program_part(text, &header, core)?;
    let words = match core {
        Core::Gp => crate::isa::mali_gp::asm::assemble(program),
        Core::Pp => crate::isa::mali_pp::asm::assemble(program),
    }
    .map_err(|e| LineError { line: e.line + skipped, ..e })?;
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Ok(with_code(original, code).write()?)
}

/// The lines of the original's listing up to its `; code (DBIN): …` line (the last), or
/// `None` when it lists no code.
fn header(original: &Mbs<'_>) -> Option<Vec<String>> {
    let mut listing = TextBuf::default();
    // Code that does not decode stops the listing after the header, which is all that is
    // read here.
    let _ = original.disasm(&DisasmOptions::default(), &mut listing);
    let mut lines = Vec::new();
    for line in listing.as_str().lines() {
        lines.push(line.to_string());
        if line.starts_with(CODE_LINE) {
            return Some(lines);
        }
    }
    None
}

/// The program's text after the header (blank lines before it skipped), and the number of
/// lines before it; an error at the first header line that is not the original's.
fn program_part<'t>(text: &'t str, header: &[String], core: Core) -> Result<(usize, &'t str), LineError> {
    let mut lines = text.split_inclusive('\n');
    let (mut n, mut used) = (0, 0);
    let mut line = lines.next();
    while let Some(l) = line.filter(|l| l.trim().is_empty()) {
        (n, used) = (n + 1, used + l.len());
        line = lines.next();
    }
    let code_suffix = format!(" of {} code", core.isa());
    for (i, want) in header.iter().enumerate() {
        n += 1;
        let same = line.map(|l| l.trim_end_matches(['\n', '\r'])).is_some_and(|l| {
            // The code line's byte count is the text's: a listing of a rebuilt file says its own.
            if i + 1 == header.len() {
                l.starts_with(CODE_LINE) && l.ends_with(&code_suffix)
            } else {
                l == want
            }
        });
        if !same {
            return Err(LineError::new(
                n,
                0,
                format!("the original's line `{want}` (the header is the original's and cannot be edited)"),
            ));
        }
        used += line.map_or(0, str::len);
        line = lines.next();
    }
    Ok((n, text.get(used..).unwrap_or("")))
}

/// `original` with `code` as its DBIN payload and, in a GP shader whose instruction count
/// changes, that count in FINS (the writer computes the chunk sizes).
fn with_code<'a>(original: &Mbs<'a>, code: Vec<u8>) -> Mbs<'a> {
    let gp = original.shader().is_some_and(|v| v.core() == Core::Gp);
    let mut m = original.clone();
    let Some(shader) = m.shader_mut() else { return m };
    let per = super::code::GP_INSTRUCTION;
    let (new, mut old) = (code.len() / per, None);
    if let Some(c) = shader.children.iter_mut().find_map(|n| match &mut n.body {
        Body::Code(c) => Some(c),
        _ => None,
    }) {
        old = Some(c.len() / per);
        *c = Cow::Owned(code);
    }
    if gp && old != Some(new) {
        if let Some(Node { body: Body::Fins { instructions, .. }, .. }) =
            shader.children.iter_mut().find(|n| n.tag.0 == *b"FINS")
        {
            *instructions = new as u32;
        }
    }
    m
}

/// Compare two parsed MBS files part by part (`asm --verify`): the shader's version, each
/// chunk of the original's shader in its order (`DBIN  same`, `DBIN  differs from offset
/// 0x30 (64 bytes, the original 32)`, `FINS  instructions 4 (the original 2)`, `SUNI
/// missing (the original has 60 bytes)`), the chunks only `ours` has (`FDIS  not in the
/// original`), the sizes the code's length changes (`CVER size`, `MBS1 size`), then `layout`
/// when the parts are the same and the bytes are not.
pub fn compare(ours: &Mbs<'_>, theirs: &Mbs<'_>) -> asm::Comparison {
    let mut lines = Vec::new();
    match (ours.shader(), theirs.shader()) {
        (Some(a), Some(b)) => {
            let tag = b.node.tag;
            lines.push(if a.node.tag != tag {
                format!(
                    "shader  {} version {} (the original {tag} version {})",
                    a.node.tag, a.shader.version, b.shader.version
                )
            } else if a.shader.version != b.shader.version {
                format!("{tag} version  {} (the original {})", a.shader.version, b.shader.version)
            } else {
                format!("{tag} version  same")
            });
            let (mine, theirs_kids) = (&a.shader.children, &b.shader.children);
            let mut used = vec![false; mine.len()];
            for (k, t) in theirs_kids.iter().enumerate() {
                // The same tag at the same rank among its like.
                let rank = theirs_kids.get(..k).map_or(0, |s| s.iter().filter(|n| n.tag == t.tag).count());
                let found = mine.iter().enumerate().filter(|(_, n)| n.tag == t.tag).nth(rank);
                lines.push(match found {
                    Some((i, n)) => {
                        if let Some(u) = used.get_mut(i) {
                            *u = true;
                        }
                        chunk_line(n, ours.data, t, theirs.data)
                    }
                    None => format!("{}  missing (the original has {})", t.tag, count(t.size, "byte")),
                });
            }
            for (n, _) in mine.iter().zip(&used).filter(|(_, u)| !**u) {
                lines.push(format!("{}  not in the original", n.tag));
            }
            lines.push(size_line(&format!("{tag} size"), a.node.size, b.node.size));
        }
        (a, b) => lines.push(format!(
            "shader  {} (the original {})",
            a.map_or("none".to_string(), |v| v.node.tag.to_string()),
            b.map_or("none".to_string(), |v| v.node.tag.to_string())
        )),
    }
    lines.push(size_line("MBS1 size", ours.root.size, theirs.root.size));
    if lines.iter().all(|l| l.ends_with("  same")) && ours.data != theirs.data {
        lines.push(format!("layout  {}", differs(ours.data, theirs.data)));
    }
    let same = lines.iter().all(|l| l.ends_with("  same"));
    asm::Comparison { lines, same }
}

/// `NAME  same`, or `NAME  N (the original M)`.
fn size_line(name: &str, ours: u32, theirs: u32) -> String {
    if ours == theirs { format!("{name}  same") } else { format!("{name}  {ours} (the original {theirs})") }
}

/// `differs from offset 0x… (N bytes, the original M)`.
fn differs(ours: &[u8], theirs: &[u8]) -> String {
    let at = ours.iter().zip(theirs).position(|(x, y)| x != y).unwrap_or(ours.len().min(theirs.len()));
    format!("differs from offset 0x{at:x} ({}, the original {})", count(ours.len(), "byte"), theirs.len())
}

/// One chunk of the shader against the original's: FINS by its fields, any other by its
/// payload's bytes (DBIN's offsets are the code's).
fn chunk_line(ours: &Node<'_>, ours_data: &[u8], theirs: &Node<'_>, theirs_data: &[u8]) -> String {
    let tag = theirs.tag;
    if let (
        Body::Fins { unknown_0: u0, instructions: i0, attrib_prefetch: p0 },
        Body::Fins { unknown_0: u1, instructions: i1, attrib_prefetch: p1 },
    ) = (&ours.body, &theirs.body)
    {
        let fields = [("unknown_0", u0, u1), ("instructions", i0, i1), ("attrib_prefetch", p0, p1)];
        let diff: Vec<String> = fields
            .iter()
            .filter(|(_, a, b)| a != b)
            .map(|(name, a, b)| format!("{name} {a} (the original {b})"))
            .collect();
        return if diff.is_empty() { format!("{tag}  same") } else { format!("{tag}  {}", diff.join(", ")) };
    }
    let payload = |n: &Node<'_>, data: &'_ [u8]| -> Vec<u8> {
        match &n.body {
            Body::Code(c) => c.to_vec(),
            _ => {
                let from = n.data_offset() as usize;
                data.get(from..).and_then(|d| d.get(..n.size as usize)).unwrap_or(&[]).to_vec()
            }
        }
    };
    let (a, b) = (payload(ours, ours_data), payload(theirs, theirs_data));
    if a == b { format!("{tag}  same") } else { format!("{tag}  {}", differs(&a, &b)) }
}
