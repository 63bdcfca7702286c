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
use crate::asm::LineError;
use crate::isa::pica::asm::{self as pica_asm, Assembled, Executable};
use crate::isa::pica::{ConstantValue, ShaderType};
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
        let text = read(name).map_err(|e| LineError::new(1, 0, format!("a readable file ({e})")).in_file(name))?;
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
        dvles: a.executables.iter().map(|e| Arc::new(dvle(e))).collect(),
        layout: None,
    }
}

/// One executable's DVLE.
fn dvle(e: &Executable) -> Dvle {
    let mut d = Dvle {
        version: 0x1002,
        shader_type: u8::from(e.shader_type == ShaderType::Geometry),
        flags: u8::from(e.merge_outmaps),
        main: e.entry.0,
        endmain: e.entry.1,
        input_mask: e.input_mask,
        output_mask: e.output_mask,
        geometry: [e.geometry.mode, e.geometry.fixed_start, e.geometry.variable_count, e.geometry.fixed_count],
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
    for u in &e.uniforms {
        let name_offset = d.add_symbol(&u.name);
        d.uniforms.push(UniformEntry { name_offset, first: u.first, last: u.last });
    }
    d
}
