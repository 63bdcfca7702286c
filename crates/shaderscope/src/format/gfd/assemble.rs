//! A `.gsh` rebuilt from `disasm`'s listing of it (`asm LISTING --like FILE.gsh`): the
//! listing's shaders are the file's, in order ([`sections`]); each program is
//! assembled, and where one differs from the original's its block takes the new microcode,
//! its header block's struct the new size and the register fields that follow
//! ([`Shader::edit`](crate::format::gx2::Shader::edit)). The blocks are then written again in the original's
//! order: a padding block keeps the next block's data at the same offset modulo 0x200 (GX2
//! wants programs aligned), every other block is the original's. An unedited listing gives
//! the original back, byte for byte.
//!
//! ```
//! use shaderscope::format::gfd::{Gfd, assemble::assemble_like};
//!
//! let bytes = shaderscope::format::gfd::build::example();
//! let gfd = Gfd::parse(&bytes)?;
//! let mut text = shaderscope::print::TextBuf::default();
//! shaderscope::Container::disasm(&gfd, &Default::default(), &mut text)?;
//! assert_eq!(assemble_like(text.as_str(), &gfd)?.bytes, bytes);
//!
//! // The pixel shader exports R1 instead of R0: one byte of its program changes, and the
//! // pixel shader now uses two registers.
//! let edited = text.as_str().replace("PIX0, R0.xyzw", "PIX0, R1.xyzw");
//! let rebuilt = assemble_like(&edited, &gfd)?;
//! assert_eq!(rebuilt.notes[0], "pixel shader 0: SQ_PGM_RESOURCES_PS.NUM_GPRS 1 → 2");
//! assert!(rebuilt.notes[1].starts_with("pixel shader 0: Cemu hash "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{BlockType, Gfd};
use crate::asm::{Comparison, Error, LineError, Rebuilt, differs};
use crate::format::gx2::assemble::{compare_structs, match_section, sections};
use std::collections::HashMap;

/// Where a block's data size sits in its header.
const DATA_SIZE_AT: usize = 0x14;

/// Rebuild `original` from its edited listing.
pub fn assemble_like(text: &str, original: &Gfd<'_>) -> Result<Rebuilt, Error> {
    let sections = sections(text)?;
    // Per block: its new data (a program) or the struct words to write (a header).
    let mut programs: HashMap<usize, Vec<u8>> = HashMap::new();
    let mut words: HashMap<usize, Vec<(u64, u32)>> = HashMap::new();
    let mut notes = Vec::new();
    let last_line = text.lines().count().max(1);
    for (k, s) in original.shaders.iter().enumerate() {
        let Some(section) = sections.get(k) else {
            return Err(LineError::new(
                last_line,
                0,
                format!(
                    "the original's {} after this line (it has {} shaders)",
                    s.title(),
                    original.shaders.len()
                ),
            )
            .into());
        };
        if let Some((_, n)) = section.binary {
            return Err(
                LineError::new(n, 0, "a shader's summary line (a .gsh has no `; binary` lines)").into()
            );
        }
        if let Some((_, Err(e))) = &s.header {
            return Err(crate::asm::Original::Unsupported(format!(
                "the original's {} header does not read ({e}): a .gsh is rebuilt when every shader's struct reads",
                s.title()
            ))
            .into());
        }
        let blocks: Vec<Option<usize>> = s
            .kind
            .programs()
            .iter()
            .map(|&(_, copy)| if copy { s.copy_program } else { s.program })
            .collect();
        let present: Vec<bool> = blocks.iter().map(Option::is_some).collect();
        let texts = match_section(section, &Gfd::heading(s), s.kind, &present)?;
        let mut new = [None, None];
        for ((t, block), slot) in texts.iter().zip(&blocks).zip(&mut new) {
            let (Some(t), Some(b)) = (t, block) else { continue };
            let code = t.assemble()?;
            if original.blocks.get(*b).is_some_and(|blk| blk.data != code.as_slice()) {
                *slot = Some(code);
            }
        }
        if new.iter().all(Option::is_none) {
            continue;
        }
        // A program block with no header block has no struct to follow it.
        if let Some((h, Ok(shader))) = &s.header {
            let edit = shader.edit(&s.title(), new[0].as_deref(), new[1].as_deref());
            notes.extend(edit.notes);
            words.insert(*h, edit.words);
        }
        for (code, block) in new.into_iter().zip(blocks) {
            if let (Some(code), Some(b)) = (code, block) {
                programs.insert(b, code);
            }
        }
    }
    if let Some(extra) = sections.get(original.shaders.len()) {
        return Err(LineError::new(
            extra.summary.1,
            0,
            format!("the end of the listing (the original has {} shaders)", original.shaders.len()),
        )
        .into());
    }
    if programs.is_empty() {
        return Ok(Rebuilt { bytes: original.data.to_vec(), notes });
    }
    Ok(Rebuilt { bytes: relayout(original, &programs, &words)?, notes })
}

/// The blocks written again with the new programs and struct words.
fn relayout(
    g: &Gfd<'_>,
    programs: &HashMap<usize, Vec<u8>>,
    words: &HashMap<usize, Vec<(u64, u32)>>,
) -> Result<Vec<u8>, Error> {
    let d = g.data;
    let start = g.blocks.first().map_or(g.trailing_at, |b| b.offset) as usize;
    let mut out = d.get(..start).unwrap_or(d).to_vec();
    for (i, b) in g.blocks.iter().enumerate() {
        let head = d.get(b.offset as usize..b.data_offset() as usize).unwrap_or(&[]);
        let mut data = match programs.get(&i) {
            Some(code) => code.clone(),
            None => b.data.to_vec(),
        };
        let moved = out.len() as u64 != b.offset;
        if b.kind() == BlockType::PADDING && moved {
            if let Some(next) = g.blocks.get(i + 1) {
                // The next block's data at the original's offset modulo 0x200.
                let next_head = u64::from(next.header_size());
                let here = (out.len() + head.len()) as u64 + next_head;
                let len = next.data_offset().wrapping_sub(here) & 0x1FF;
                if len != b.data.len() as u64 {
                    data = vec![0; len as usize];
                }
            }
        }
        for &(at, value) in words.get(&i).into_iter().flatten() {
            let at = (at - b.data_offset()) as usize;
            if let Some(w) = data.get_mut(at..at + 4) {
                w.copy_from_slice(&value.to_be_bytes());
            }
        }
        let size = u32::try_from(data.len())
            .map_err(|_| crate::Error::invalid(b.offset, "GFD block", "a program of 4 GiB or more"))?;
        let mut head = head.to_vec();
        if let Some(w) = head.get_mut(DATA_SIZE_AT..DATA_SIZE_AT + 4) {
            w.copy_from_slice(&size.to_be_bytes());
        }
        out.extend_from_slice(&head);
        out.extend_from_slice(&data);
    }
    out.extend_from_slice(g.trailing());
    Ok(out)
}

/// `asm --verify` of a `.gsh`: one line per block (`block 2 (vertex shader program)  differs
/// from offset 0x8 (24 bytes, the original 16)`), then the struct words that differ, per
/// shader; `layout  differs …` when the blocks are not the same kinds in the same order.
pub fn compare(ours: &Gfd<'_>, theirs: &Gfd<'_>) -> Comparison {
    let kinds = |g: &Gfd<'_>| g.blocks.iter().map(|b| b.kind()).collect::<Vec<_>>();
    if kinds(ours) != kinds(theirs) {
        let line =
            format!("layout  differs ({} blocks, the original {})", ours.blocks.len(), theirs.blocks.len());
        return Comparison { lines: vec![line], same: false };
    }
    let mut lines: Vec<String> = ours
        .blocks
        .iter()
        .zip(&theirs.blocks)
        .enumerate()
        .map(|(i, (a, b))| format!("block {i} ({})  {}", a.kind(), differs(a.data, b.data)))
        .collect();
    let mut same = lines.iter().all(|l| l.ends_with("  same")) && ours.trailing() == theirs.trailing();
    for (a, b) in ours.shaders.iter().zip(&theirs.shaders) {
        if let (Some(x), Some(y)) = (a.gx2(), b.gx2()) {
            let more = compare_structs(&a.title(), x, y);
            same &= more.is_empty();
            lines.extend(more);
        }
    }
    Comparison { lines, same }
}
