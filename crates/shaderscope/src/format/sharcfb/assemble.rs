//! A SHARCFB archive rebuilt from `disasm`'s listing of its binaries (`asm LISTING --like
//! FILE.sharcfb`): each shader of the listing replaces a binary's programs in place. Which
//! binary is said by its `; binary N: …` heading (`disasm`'s listing of the whole archive, or
//! any part of it), or, for a listing of bare shaders, by a program variation
//! ([`Variation`], `--set MACRO=VALUE`): its VS, PS and GS binaries take the listing's `VS`,
//! `PS` and `GS` shaders. Binaries the listing does not name stay as they are.
//!
//! An edited program replaces the original's bytes inside the binary's data; when its size
//! changes, what follows it in the data moves by whole 0x100 units and the struct's pointers
//! to it follow, and the data grows or shrinks by whole units (zeros at its end), so that
//! every program, in this binary and the ones after it, stays on the file's 0x100 boundary
//! where AGL's archives put microcode; the struct takes the new size and the register fields that follow
//! ([`Shader::edit`](gx2::Shader::edit)). The archive's record sizes are recomputed by its
//! writer. An unedited listing gives the original back, byte for byte.
//!
//! ```
//! use shaderscope::format::sharcfb::{Sharcfb, assemble::{Variation, assemble_like}};
//!
//! let bytes = shaderscope::format::sharcfb::build::example();
//! let archive = Sharcfb::parse(&bytes)?;
//! let mut text = shaderscope::print::TextBuf::default();
//! shaderscope::Container::disasm(&archive, &Default::default(), &mut text)?;
//! assert_eq!(assemble_like(text.as_str(), &archive, None)?.bytes, bytes);
//!
//! // The pixel shader of variation TINT=on alone, edited: binary 3 changes.
//! let pixel = "PS mode=0 ubs=0 uvs=2 samplers=0\n---- pixel (16 bytes) ----\n\
//!              ; zeros at +0x8: 8 bytes\n00 EXP_DONE: PIX0, R1.xyzw\n\nEND_OF_PROGRAM\n";
//! let set = [("TINT".to_string(), "on".to_string())];
//! let v = Variation { program: None, set: &set };
//! let rebuilt = Sharcfb::parse(&assemble_like(pixel, &archive, Some(v))?.bytes)?;
//! assert_ne!(rebuilt.binaries.items[3], archive.binaries.items[3]);
//! assert_eq!(rebuilt.binaries.items[1], archive.binaries.items[1]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{Binary, Sharcfb};
pub use crate::asm::Variation;
use crate::asm::{Comparison, Error, LineError, Original, Rebuilt, differs};
use crate::format::gx2::{
    self, PointerKind,
    assemble::{compare_structs, match_section, sections, summary_kind},
};
use crate::toolkit::Endian;

/// AGL's archives keep microcode on 0x100-byte boundaries of the file: what follows an
/// edited program moves by whole units of this.
const PROGRAM_ALIGN: usize = super::build::PROGRAM_ALIGN as usize;

/// Rebuild `original` from an edited listing of (some of) its binaries.
pub fn assemble_like(
    text: &str,
    original: &Sharcfb,
    variation: Option<Variation<'_>>,
) -> Result<Rebuilt, Error> {
    let sections = sections(text)?;
    let chosen = variation.map(|v| pick(original, v)).transpose()?;
    let mut archive = original.clone();
    let mut notes = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for section in &sections {
        let (line, n) = section.summary;
        let index =
            match (section.binary, &chosen) {
                (Some((i, _)), None) => i,
                (heading, Some(binaries)) => {
                    let kind = summary_kind(line).map(gx2::Kind::name).unwrap_or("");
                    let Some(&(_, i)) = binaries.iter().find(|(stage, _)| *stage == kind) else {
                        return Err(LineError::new(n, 0, "a shader of a stage the variation has").into());
                    };
                    if let Some((h, hn)) = heading.filter(|&(h, _)| h != i) {
                        return Err(LineError::new(
                            hn,
                            0,
                            format!("binary {i}, the variation's {kind} shader (not {h})"),
                        )
                        .into());
                    }
                    i
                }
                (None, None) => {
                    return Err(LineError::new(n, 0,
                    "a `; binary N: …` line before the shader (or --set, to replace a variation's binaries)",
                )
                .into());
                }
            };
        let line_of = section.binary.map_or(n, |(_, l)| l);
        if !seen.insert(index) {
            return Err(LineError::new(
                line_of,
                0,
                format!("another binary (binary {index} is listed before)"),
            )
            .into());
        }
        let Some(b) = usize::try_from(index).ok().and_then(|i| original.binaries.items.get(i)) else {
            let count = original.binaries.items.len();
            return Err(LineError::new(line_of, 0, format!("one of the original's {count} binaries")).into());
        };
        if let Some(new) = replace(b, index, original.endian, section)? {
            if let Some(b) = archive.binaries.items.get_mut(index as usize) {
                b.data = new.bytes;
            }
            notes.extend(new.notes);
        }
    }
    let bytes = archive.write()?;
    Ok(Rebuilt { bytes, notes })
}

/// The variation's binaries by stage (`vertex`, `pixel`, `geometry`).
fn pick(f: &Sharcfb, v: Variation<'_>) -> Result<Vec<(&'static str, u64)>, Error> {
    let program = match (v.program, f.programs.items.as_slice()) {
        (Some(name), _) => name.to_string(),
        (None, [only]) => only.name.text().into_owned(),
        (None, all) => {
            let names: Vec<_> = all.iter().map(|p| format!("\"{}\"", p.name.shown())).collect();
            return Err(Original::Unsupported(format!(
                "the archive has {} programs: name the one the variation is of ({})",
                all.len(),
                names.join(", ")
            ))
            .into());
        }
    };
    let r = f.resolve(&program, v.set).map_err(|e| Original::Unsupported(e.to_string()))?;
    Ok(r.binaries.iter().map(|b| (b.stage, b.index)).collect())
}

/// Binary `b`'s data with a section's programs in it, and what changed for the user; `None`
/// when the programs are the original's.
fn replace(
    b: &Binary,
    index: u64,
    endian: Endian,
    section: &gx2::assemble::Section<'_>,
) -> Result<Option<Rebuilt>, Error> {
    let shader = b.gx2(endian).map_err(|e| Original::Unsupported(format!("binary {index}: {e}")))?;
    let kind = shader.kind;
    let title = format!("binary {index} ({} shader)", kind.name());
    let mut codes = [None, None];
    for (slot, &(_, copy)) in codes.iter_mut().zip(kind.programs()) {
        *slot = b.program(&shader, copy).map_err(|e| Original::Unsupported(e.to_string()))?;
    }
    let present: Vec<bool> = codes.iter().take(kind.programs().len()).map(Option::is_some).collect();
    let texts = match_section(section, &shader.summary(), kind, &present)?;
    let mut new = [None, None];
    for ((t, old), slot) in texts.iter().zip(&codes).zip(&mut new) {
        let (Some(t), Some((old, _))) = (t, old) else { continue };
        let code = t.assemble()?;
        if code.as_slice() != *old {
            *slot = Some(code);
        }
    }
    if new.iter().all(Option::is_none) {
        return Ok(None);
    }
    let edit = shader.edit(&title, new[0].as_deref(), new[1].as_deref());
    let base = b.data_at();
    let mut data = b.data.clone();
    for &(at, value) in &edit.words {
        let at = (at - base) as usize;
        if let Some(w) = data.get_mut(at..at + 4) {
            w.copy_from_slice(&endian.u32_bytes(value));
        }
    }
    // Each edited program in the original's place; what follows one moves (pointers too).
    let mut spans: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for ((code, old), &(_, copy)) in new.into_iter().zip(&codes).zip(kind.programs()) {
        let (Some(mut code), Some((old, _))) = (code, old) else { continue };
        let Some(start) = (if copy { shader.copy_program_offset() } else { shader.program_offset() }) else {
            continue;
        };
        let (start, end) = (start as usize, start as usize + old.len());
        // Nothing after it: the data ends with the new program. Else what follows moves by
        // whole alignment units, zeros filling the gap.
        if data.len() > end {
            let grown = code.len().saturating_sub(old.len()).div_ceil(PROGRAM_ALIGN) * PROGRAM_ALIGN;
            code.resize(old.len() + grown, 0);
        }
        spans.push((start, end, code));
    }
    spans.sort_by_key(|s| s.0);
    // Where an offset of the original's data is in the new data.
    let moved = |o: u64| -> u64 {
        let shift: i64 =
            spans.iter().filter(|s| s.1 as u64 <= o).map(|s| s.2.len() as i64 - (s.1 - s.0) as i64).sum();
        o.saturating_add_signed(shift)
    };
    let mut out = Vec::with_capacity(data.len());
    let mut from = 0;
    for (start, end, code) in &spans {
        out.extend_from_slice(data.get(from..*start).unwrap_or(&[]));
        out.extend_from_slice(code);
        from = *end;
    }
    out.extend_from_slice(data.get(from..).unwrap_or(&[]));
    // The binaries after this one keep their programs on the file's 0x100 boundaries: the
    // data changes size by whole units, zeros at its end.
    let pad = (data.len() as i64 - out.len() as i64).rem_euclid(PROGRAM_ALIGN as i64);
    out.resize(out.len() + pad as usize, 0);
    for (field, stored, text) in shader.pointer_fields() {
        let Some(target) = PointerKind::Offset.resolve(stored) else { continue };
        let (field, target) = (field - base, u64::from(target));
        if moved(field) != field || moved(target) != target {
            let at = moved(field) as usize;
            let value = PointerKind::Offset.encode(moved(target) as u32, text);
            if let Some(w) = out.get_mut(at..at + 4) {
                w.copy_from_slice(&endian.u32_bytes(value));
            }
        }
    }
    Ok(Some(Rebuilt { bytes: out, notes: edit.notes }))
}

/// `asm --verify` of a SHARCFB: one line per binary (`binary 3 (pixel shader)  differs from
/// offset 0x1f0 (…)`), the struct words that differ, then `programs` (the program records).
pub fn compare(ours: &Sharcfb, theirs: &Sharcfb) -> Comparison {
    let mut lines = Vec::new();
    let mut same = ours.binaries.items.len() == theirs.binaries.items.len();
    for (i, (a, b)) in ours.binaries.items.iter().zip(&theirs.binaries.items).enumerate() {
        let kind = a.kind.gx2().map_or("unknown", gx2::Kind::name);
        let title = format!("binary {i} ({kind} shader)");
        let line = differs(&a.data, &b.data);
        same &= line == "same";
        lines.push(format!("{title}  {line}"));
        if let (Ok(x), Ok(y)) = (a.gx2(ours.endian), b.gx2(theirs.endian)) {
            lines.extend(compare_structs(&title, &x, &y));
        }
    }
    if ours.binaries.items.len() != theirs.binaries.items.len() {
        lines.push(format!(
            "binaries  {} (the original {})",
            ours.binaries.items.len(),
            theirs.binaries.items.len()
        ));
    }
    // Where a record sits is not what it says.
    let records = |f: &Sharcfb| {
        f.programs.items.iter().map(|p| super::Program { at: 0, ..p.clone() }).collect::<Vec<_>>()
    };
    let programs = records(ours) == records(theirs);
    same &= programs;
    lines.push(format!("programs  {}", if programs { "same" } else { "differ" }));
    Comparison { lines, same }
}
