//! picasso source → a whole SHBIN: the DVLB the PICA200 assembler's program
//! ([`crate::isa::pica::asm`]) goes into, laid out as picasso 2.7.1 lays it out, byte for byte.
//!
//! picasso's file: the DVLB header with one offset per executable, the DVLP (version 0,
//! a 0x28-byte header, code, then operand descriptors as 8-byte entries whose second word is
//! 0; the line-number table's offset points at the DVLP's end and counts nothing), then each
//! DVLE (version 0x1002) with its constants, an empty label table, outputs, uniforms sorted
//! by register and the symbol table of the uniforms' names (`$` written as `.`), padded to
//! 4 bytes. The symbol table holds uniform names only: picasso writes no labels.
//!
//! This is the function a build script calls ([`assemble`], [`assemble_files`]):
//!
//! ```
//! use shaderscope::format::shbin::assemble::{self, File};
//!
//! // In a build.rs, the sources would be read from disk (or given with `assemble_files`).
//! let text = ".fvec projection[4]\n.in pos v0\n.out outpos position\n\
//!             .proc main\n\tdp4 outpos.x, projection[0], pos\n\tmov outpos.yzw, pos\n\tend\n.end\n";
//! let shbin = assemble::assemble(&[File { name: "vshader.v.pica", text }])?;
//! // std::fs::write(out_dir.join("vshader.shbin"), &shbin.bytes)?;
//! assert_eq!(&shbin.bytes[..4], b"DVLB");
//! let dvle = &shbin.program.executables[0];
//! let uniforms: Vec<_> = dvle.uniforms.iter().map(|u| (u.name.as_str(), u.registers())).collect();
//! assert_eq!(uniforms, [("pos", "v0".to_string()), ("projection", "c0-c3".to_string())]);
//! assert_eq!(dvle.outputs[0].semantic_name(), Some("position"));
//!
//! // Errors name the file, the line and the column.
//! let e = assemble::assemble(&[File { name: "bad.v.pica", text: ".proc main\n\tmov r0, q1\n.end\n" }])
//!     .unwrap_err();
//! assert_eq!(e.to_string(), "bad.v.pica: line 2, column 10: expected a register or an alias (`q1` is neither)");
//! # Ok::<(), shaderscope::asm::LineError>(())
//! ```

use super::dvlb::{Dvlb, Dvle, Dvlp};
use super::tables::{ConstantEntry, OutputEntry, UniformEntry};
use super::{Payload, ShaderFile};
use crate::asm::{self, LineError};
use crate::isa::pica::asm::{self as pica_asm, Assembled, Executable};
use crate::isa::pica::opcodes::Op;
use crate::isa::pica::{ConstantValue, Instruction, ShaderType};
use std::sync::Arc;

pub use pica_asm::File;

/// An assembled SHBIN: its bytes and the program they hold (each executable's entry range,
/// uniform, constant and output tables: what a program that loads the SHBIN looks up).
#[derive(Debug, Clone, PartialEq)]
pub struct Shbin {
    /// The whole file, as picasso writes it.
    pub bytes: Vec<u8>,
    /// The program: code, descriptors, procedures, executables.
    pub program: Assembled,
}

/// Assemble source files into one SHBIN (one DVLE per file, as picasso given them in this
/// order). A run whose every file is `.nodvle` is refused, as picasso refuses it.
pub fn assemble(files: &[File<'_>]) -> Result<Shbin, LineError> {
    let program = pica_asm::assemble_files(files)?;
    if program.executables.is_empty() {
        let name = files.first().map(|f| f.name).filter(|n| !n.is_empty());
        return Err(LineError {
            file: name.map(str::to_string),
            ..LineError::new(1, 0, "an executable: a file that is not `.nodvle` (a SHBIN needs a DVLE)")
        });
    }
    let bytes = dvlb(&program).write().map_err(|e| LineError::new(1, 0, e.to_string()))?;
    Ok(Shbin { bytes, program })
}

/// [`assemble`] of the files at `paths`, each read by `read` (`std::fs::read_to_string` in a
/// build script, or anything that finds a source by its name). A file that cannot be read is
/// an error naming it.
pub fn assemble_files<P: AsRef<str>>(
    paths: &[P],
    mut read: impl FnMut(&str) -> std::io::Result<String>,
) -> Result<Shbin, LineError> {
    let mut texts = Vec::with_capacity(paths.len());
    for p in paths {
        let name = p.as_ref();
        let text =
            read(name).map_err(|e| LineError::new(1, 0, format!("a readable file ({e})")).in_file(name))?;
        texts.push(text);
    }
    let files: Vec<File<'_>> =
        paths.iter().zip(&texts).map(|(p, t)| File { name: p.as_ref(), text: t.as_str() }).collect();
    assemble(&files)
}

/// The DVLB model of an assembled program (no layout: [`Dvlb::write`] lays it out as
/// picasso does).
pub fn dvlb(a: &Assembled) -> Dvlb {
    Dvlb {
        dvlp: Dvlp {
            version: 0,
            code: a.code.clone(),
            opdescs: a.opdescs.iter().map(|d| [*d, 0]).collect(),
            ..Dvlp::default()
        },
        dvles: a.executables.iter().map(|e| Arc::new(dvle_of(e))).collect(),
        layout: None,
    }
}

/// One executable's DVLE.
fn dvle_of(e: &Executable) -> Dvle {
    let mut d = Dvle {
        version: 0x1002,
        shader_type: u8::from(e.shader_type == ShaderType::Geometry),
        flags: u8::from(e.merge_outmaps),
        main: e.entry.0,
        endmain: e.entry.1,
        input_mask: e.input_mask,
        output_mask: e.output_mask,
        geometry: [
            e.geometry.mode,
            e.geometry.fixed_start,
            e.geometry.variable_count,
            e.geometry.fixed_count,
        ],
        ..Dvle::default()
    };
    d.constants = e
        .constants
        .iter()
        .map(|c| {
            let (kind, payload) = match c.value {
                ConstantValue::Bool(b) => (0, [u32::from(b), 0, 0, 0]),
                ConstantValue::Int(v) => (1, [u32::from_le_bytes(v), 0, 0, 0]),
                ConstantValue::Float(v) => (2, v),
            };
            ConstantEntry { kind, register: u16::from(c.register), payload }
        })
        .collect();
    d.outputs = e
        .outputs
        .iter()
        .map(|o| OutputEntry { semantic: o.semantic, register: o.register, mask: o.mask, pad: 0 })
        .collect();
    add_uniforms(&mut d, &e.uniforms);
    d
}

/// Append `uniforms` to the DVLE's uniform table, their names to its symbol table.
fn add_uniforms(d: &mut Dvle, uniforms: &[crate::isa::pica::Uniform]) {
    for u in uniforms {
        let name_offset = d.add_symbol(&u.name);
        d.uniforms.push(UniformEntry { name_offset, first: u.first, last: u.last });
    }
}

// ------------------------------------------------------------------ into an original

/// Assemble `text` into `original`, a 3DS shader file holding one DVLB written by any tool
/// (`asm --like`): what the text does not carry is kept from the original, so that an
/// unedited listing gives the original back byte for byte, and an edit changes only what it
/// changed.
///
/// `text` is `disasm`'s listing of the original: every DVLE, each after its `; DVLE k: …`
/// line (`disasm --dvle k` prints that line too), or one DVLE's source with no such line
/// when the original has one DVLE. Each DVLE's text is compared with the listing of the
/// original's DVLE as shaderscope prints it: an instruction the text changes gets the change
/// in its word (the bits no listing shows, such as a condition's untested flag, stay) and a
/// descriptor that reads as the text says (an equal entry of the table, else a new one at its
/// end); a table (uniforms, constants, outputs), the entry range or the register masks the
/// text changes are taken from the text. The code keeps its layout: a listing with words
/// added or removed is refused (assemble it without an original to lay the code out afresh).
///
/// The DVLB goes back where it was: a `.shbin` is the DVLB, a CGFX (`.bcsdr`, `.bcres`) gets
/// it in place (a DVLB whose size changed cannot be relinked into one), a `.csdr` is encoded
/// again.
pub fn assemble_like(text: &str, original: &ShaderFile) -> Result<Vec<u8>, asm::Error> {
    let dvlbs = original.dvlbs();
    let [(_, old)] = dvlbs.as_slice() else {
        return Err(asm::Original::Unsupported(format!(
            "the original holds {} DVLBs; --like rebuilds a file with one",
            dvlbs.len()
        ))
        .into());
    };
    let mut dvlb = (*old).clone();
    let (program, opdescs) = (old.program(), old.opdesc_words());
    for (k, line0, section) in sections(text, old.dvles.len())? {
        let (ref_text, words) = reference(old, &program, &opdescs, k);
        like_dvle(&mut dvlb, old, k, section, &ref_text, &words).map_err(|e| match e {
            asm::Error::Text(t) => asm::Error::Text(LineError { line: t.line + line0, ..t }),
            e => e,
        })?;
    }
    let binary = |p: &Payload| -> crate::Result<Vec<u8>> {
        match p {
            Payload::Cgfx(c) => {
                let mut c = c.clone();
                if let Some((_, d)) = c.dvlbs.first_mut() {
                    *d = dvlb.clone();
                }
                c.write()
            }
            _ => dvlb.write(),
        }
    };
    let bytes = binary(&original.payload)?;
    Ok(match &original.csdr {
        Some(c) => c.write(&bytes),
        None => bytes,
    })
}

/// The DVLEs a listing gives: (index, lines before the section, the section's text).
fn sections(text: &str, dvles: usize) -> Result<Vec<(usize, usize, &str)>, asm::Error> {
    let mut starts = Vec::new();
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let index = line.strip_prefix("; DVLE ").and_then(|rest| {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            rest.get(..digits)?
                .parse::<usize>()
                .ok()
                .filter(|_| rest.get(digits..).is_some_and(|r| r.starts_with(':')))
        });
        if let Some(k) = index {
            // A DVLE listed as the same bytes as an earlier one is that one: nothing to apply.
            starts.push((k, n, at, line.contains(": the same bytes as DVLE ")));
        }
        at += line.len();
    }
    if starts.is_empty() {
        if dvles != 1 {
            return Err(LineError::new(
                1,
                0,
                format!(
                    "a `; DVLE k:` line before each DVLE's source (the original has {dvles} DVLEs; \
                     `disasm` and `disasm --dvle k` print it)"
                ),
            )
            .into());
        }
        return Ok(vec![(0, 0, text)]);
    }
    let mut out = Vec::with_capacity(starts.len());
    for (i, &(k, n, from, repeat)) in starts.iter().enumerate() {
        if k >= dvles {
            return Err(LineError::new(n + 1, 7, format!("a DVLE of the original (it has {dvles})")).into());
        }
        let to = starts.get(i + 1).map_or(text.len(), |s| s.2);
        if !repeat {
            out.push((k, n, text.get(from..to).unwrap_or("")));
        }
    }
    Ok(out)
}

/// The original's DVLE `k` as shaderscope lists it, and the word address each line shows
/// (by line number, from 1); `program` and `opdescs` are `old`'s, decoded once.
fn reference(
    old: &Dvlb,
    program: &crate::isa::pica::Program<'_>,
    opdescs: &[u32],
    k: usize,
) -> (String, Vec<Option<u32>>) {
    let names = old.names(k, 0).unwrap_or_default();
    let mut sink = crate::print::LinesAt::default();
    if let Some(mut ctx) = old.source_context(k, program, &names, opdescs, 0) {
        ctx.offsets = true;
        // A listing that does not print leaves nothing to compare with (refused below).
        let _ = crate::isa::pica::write_source(&ctx, &mut sink);
    }
    let code = old.code_offset();
    let mut text = String::new();
    // By line number: no line 0, then line 1, the one the first text starts.
    let mut words = vec![None, None];
    for (offset, part) in sink.0 {
        let word = offset
            .and_then(|o| o.checked_sub(code))
            .filter(|o| o % 4 == 0)
            .and_then(|o| u32::try_from(o / 4).ok())
            .filter(|a| (*a as usize) < old.dvlp.code.len());
        let lines = part.matches('\n').count();
        // The offset belongs to the line it starts; the lines it runs on to have none.
        if let Some(first) = words.last_mut() {
            if first.is_none() {
                *first = word;
            }
        }
        words.extend(std::iter::repeat_n(None, lines));
        text.push_str(&part);
    }
    (text, words)
}

/// Apply DVLE `k`'s text to the model `dvlb` (a copy of `old`), against the original's listing
/// `ref_text` and the word address of each of its lines, `words` ([`reference`]).
fn like_dvle(
    dvlb: &mut Dvlb,
    old: &Dvlb,
    k: usize,
    text: &str,
    ref_text: &str,
    words: &[Option<u32>],
) -> Result<(), asm::Error> {
    let theirs = pica_asm::assemble_text(ref_text).map_err(|e| {
        asm::Original::Unsupported(format!("DVLE {k}'s listing does not assemble here ({e})"))
    })?;
    let ours = pica_asm::assemble_text(text)?;
    if ours.code.len() != theirs.code.len() {
        return Err(LineError::new(
            1,
            0,
            format!(
                "the original's {} words (this text assembles to {}): --like keeps the code's layout",
                theirs.code.len(),
                ours.code.len()
            ),
        )
        .into());
    }
    // Each word of the text's program, at the original's address.
    for (i, (t, o)) in theirs.instructions.iter().zip(&ours.instructions).enumerate() {
        let line = theirs.lines.get(i).map_or(0, |l| l.1);
        let Some(address) = words.get(line).copied().flatten() else {
            // A padding `nop` picasso adds: the text must have it too.
            if t != o {
                let at = ours.lines.get(i).map_or(1, |l| l.1);
                return Err(LineError::new(at, 0, "the original's padding `nop` here").into());
            }
            continue;
        };
        let their_desc = theirs.opdescs.get(usize::from(t.desc)).copied().unwrap_or(0);
        let our_desc = ours.opdescs.get(usize::from(o.desc)).copied().unwrap_or(0);
        let their_bits = t.descriptor_bits(their_desc);
        let our_bits = o.descriptor_bits(our_desc);
        let same_desc = their_bits == our_bits && their_desc & their_bits == our_desc & our_bits;
        let plain = |i: &Instruction| Instruction { desc: 0, ..*i }.encode();
        if same_desc && plain(t) == plain(o) {
            continue;
        }
        let Some(word) = dvlb.dvlp.code.get_mut(address as usize) else { continue };
        let was = crate::isa::pica::decode(*word);
        // The change the text makes, in the original's word: bits no listing shows stay. An
        // instruction of another layout is the text's.
        let mut now = if t.op.info().layout == o.op.info().layout {
            crate::isa::pica::decode(*word ^ plain(t) ^ plain(o))
        } else {
            *o
        };
        if o.has_desc() {
            now.desc = if same_desc {
                was.desc
            } else {
                let at = ours.lines.get(i).map_or(1, |l| l.1);
                descriptor(
                    &mut dvlb.dvlp.opdescs,
                    old.dvlp.opdescs.get(usize::from(was.desc)),
                    our_desc,
                    our_bits,
                    o,
                )
                .ok_or_else(|| LineError::new(at, 0, "an operand descriptor the table has room for"))?
            };
        }
        *word = now.encode();
    }
    let (Some(t), Some(o)) = (theirs.executables.first(), ours.executables.first()) else {
        return Err(LineError::new(1, 0, "an executable (the text declares no DVLE)").into());
    };
    let Some(shared) = dvlb.dvles.get(k).cloned() else { return Ok(()) };
    let mut edited = (*shared).clone();
    let d = &mut edited;
    let map = |a: u32| theirs.lines.get(a as usize).and_then(|l| words.get(l.1).copied().flatten());
    if t.entry != o.entry {
        let main = map(o.entry.0);
        let end = o.entry.1.checked_sub(1).and_then(map).map(|a| a + 1);
        let (Some(main), Some(end)) = (main, end) else {
            return Err(LineError::new(1, 0, "an entry procedure at words the original has").into());
        };
        (d.main, d.endmain) = (main, end);
    }
    d.input_mask ^= t.input_mask ^ o.input_mask;
    d.output_mask ^= t.output_mask ^ o.output_mask;
    // The text's DVLE, whose parts replace those the text changed.
    let fresh = dvle_of(o);
    if (t.shader_type, t.geometry, t.merge_outmaps) != (o.shader_type, o.geometry, o.merge_outmaps) {
        (d.shader_type, d.flags, d.geometry) = (fresh.shader_type, fresh.flags, fresh.geometry);
    }
    if t.constants != o.constants {
        d.constants = fresh.constants;
    }
    if t.outputs != o.outputs {
        d.outputs = fresh.outputs;
    }
    if t.uniforms != o.uniforms {
        // The symbol table again: the labels' names, then the text's uniforms.
        let names = old.names(k, 0).unwrap_or_default();
        d.symbols.clear();
        for (i, named) in names.labels.iter().enumerate() {
            let at = d.add_symbol(&named.name);
            if let Some(label) = d.labels.get_mut(i) {
                label.name_offset = at;
            }
        }
        d.uniforms.clear();
        add_uniforms(d, &o.uniforms);
    }
    if edited != *shared {
        // Every entry of the offset table that named this DVLE names the edited one.
        let edited = Arc::new(edited);
        for e in dvlb.dvles.iter_mut().filter(|e| Arc::ptr_eq(e, &shared)) {
            *e = Arc::clone(&edited);
        }
    }
    Ok(())
}

/// The index of a descriptor that reads as `desc` does on `bits`: the first such entry of the
/// table, else a new one (with the second word and bit 31 of the entry the word had, as its
/// producer writes them). MAD's field reaches entries 0–31 only.
fn descriptor(
    table: &mut Vec<[u32; 2]>,
    was: Option<&[u32; 2]>,
    desc: u32,
    bits: u32,
    i: &Instruction,
) -> Option<u8> {
    let limit = if matches!(i.op, Op::Mad | Op::Madi) { 32 } else { 128 };
    if let Some(k) = table.iter().take(limit).position(|e| e[0] & bits == desc & bits) {
        return u8::try_from(k).ok();
    }
    if table.len() >= limit {
        return None;
    }
    let [w, second] = was.copied().unwrap_or([0, 0]);
    table.push([(desc & !(1 << 31)) | (w & (1 << 31)), second]);
    u8::try_from(table.len() - 1).ok()
}

// ------------------------------------------------------------------ compared

/// Compare an assembled 3DS shader file with an original table by table (`asm --verify`):
/// one line per part of each DVLB (`code  same`, `DVLE 0 uniforms  differs from entry 2
/// (5 entries, the original 4)`), then `layout` when every part is the same but the bytes
/// are not (the same tables, placed elsewhere).
pub fn compare(
    ours: &ShaderFile,
    original: &ShaderFile,
    ours_bytes: &[u8],
    original_bytes: &[u8],
) -> asm::Comparison {
    let mut lines = Vec::new();
    let (a, b) = (ours.dvlbs(), original.dvlbs());
    if a.len() != b.len() {
        lines.push(format!("DVLBs  {} (the original {})", a.len(), b.len()));
    }
    for (n, ((_, x), (_, y))) in a.iter().zip(&b).enumerate() {
        let name = |part: &str| if b.len() > 1 { format!("DVLB {n} {part}") } else { part.to_string() };
        let (p, q) = (&x.dvlp, &y.dvlp);
        lines.push(part(&name("DVLP header"), &[p.version], &[q.version], "field"));
        lines.push(part(&name("code"), &p.code, &q.code, "word"));
        lines.push(part(&name("operand descriptors"), &p.opdescs, &q.opdescs, "entry"));
        lines.push(part(&name("line numbers"), &p.line_numbers, &q.line_numbers, "entry"));
        lines.push(part(&name("filenames"), &p.filenames, &q.filenames, "byte"));
        if x.dvles.len() != y.dvles.len() {
            lines.push(format!("{}  {} (the original {})", name("DVLEs"), x.dvles.len(), y.dvles.len()));
        }
        for (k, (d, e)) in x.dvles.iter().zip(&y.dvles).enumerate() {
            let header = |v: &Dvle| {
                [
                    u32::from(v.version),
                    u32::from(v.shader_type),
                    u32::from(v.flags),
                    v.main,
                    v.endmain,
                    u32::from(v.input_mask),
                    u32::from(v.output_mask),
                    u32::from_le_bytes(v.geometry),
                ]
            };
            let dvle = |part: &str| name(&format!("DVLE {k} {part}"));
            lines.push(part(&dvle("header"), &header(d), &header(e), "field"));
            lines.push(part(&dvle("constants"), &d.constants, &e.constants, "entry"));
            lines.push(part(&dvle("labels"), &d.labels, &e.labels, "entry"));
            lines.push(part(&dvle("outputs"), &d.outputs, &e.outputs, "entry"));
            lines.push(part(&dvle("uniforms"), &d.uniforms, &e.uniforms, "entry"));
            lines.push(part(&dvle("symbols"), &d.symbols, &e.symbols, "byte"));
        }
    }
    let parts_same = lines.iter().all(|l| l.ends_with("  same"));
    if parts_same && ours_bytes != original_bytes {
        let at = ours_bytes.iter().zip(original_bytes).position(|(x, y)| x != y);
        lines.push(format!(
            "layout  differs from offset 0x{:x} ({}, the original {})",
            at.unwrap_or(ours_bytes.len().min(original_bytes.len())),
            crate::print::count(ours_bytes.len(), "byte"),
            original_bytes.len()
        ));
    }
    let same = lines.iter().all(|l| l.ends_with("  same"));
    asm::Comparison { lines, same }
}

/// `NAME  same`, or where `ours` first differs from `theirs`.
fn part<T: PartialEq>(name: &str, ours: &[T], theirs: &[T], unit: &str) -> String {
    if ours == theirs {
        return format!("{name}  same");
    }
    let at = ours.iter().zip(theirs).position(|(a, b)| a != b).unwrap_or(ours.len().min(theirs.len()));
    format!(
        "{name}  differs from {unit} {at} ({}, the original {})",
        crate::print::count(ours.len(), unit),
        theirs.len()
    )
}
