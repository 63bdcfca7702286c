//! # shaderscope
//!
//! Read, validate, explain, disassemble and write compiled GPU shader binaries:
//!
//! | container | module | instruction set |
//! |---|---|---|
//! | Direct3D DXBC (fxc/D3DCompile output; DXIL containers: program header and LLVM bitcode) | [`format::dxbc`] | SM4/5/5.1 token programs; the SM2 program of Aon9 |
//! | Direct3D 9 bytecode (`vs_1_1` … `ps_3_0`, standalone, with its constant table) | [`format::d3d9`] | SM1–3 tokens ([`isa::d3d9`]) |
//! | Nintendo 3DS SHBIN (DVLB/DVLP/DVLE, DVOJ/DVOB, CGFX `.bcsdr`, base64 `.csdr`) | [`format::shbin`] | PICA200 ([`isa::pica`]) |
//! | Wii U GFD `.gsh` (`Gfx2`) with GX2 shader structs ([`format::gx2`]) | [`format::gfd`] | R600/R700 "Latte" microcode |
//! | Wii U AGL binary shader archive (SHARCFB, `SHAB`/`BAHS`) | [`format::sharcfb`] | GX2 shaders |
//! | Wii U AGL shader source archive (`.sharc`, `SHAA`/`AAHS`) | [`format::sharc`] | GLSL sources |
//! | ARM Mali-200/400 MBS (`MBS1` chunk tree: CFRA/CVER, symbol tables, DBIN) | [`format::mbs`] | Mali GP (vertex) and PP (fragment) code |
//!
//! The library does no file I/O, contains no `unsafe`, and never panics on input: every read
//! is bounds-checked and every failure is an [`Error`] carrying the absolute byte offset, the
//! structure being read and the reason.
//!
//! ```
//! // A DXBC container built in memory, parsed back and checked.
//! use shaderscope::format::dxbc::{Dxbc, write::Builder};
//! let mut b = Builder::new();
//! b.push(*b"STAT", vec![0u8; 4 * 37]);
//! let bytes = b.finish().unwrap();
//! let d = Dxbc::parse(&bytes).unwrap();
//! assert!(d.checksum_ok());
//! assert_eq!(d.to_builder().finish().unwrap(), bytes);
//! ```
//!
//! Layout (ARCHITECTURE.md in the repository says who may use what):
//! [`model`] (findings, parts, stages), [`error`], [`toolkit`] (reads at offsets in either
//! byte order, raw structs, chunks, lossless layout, two-phase writer, bit fields),
//! [`print`](mod@print) (the printer sink: plain text, ANSI, HTML), [`isa`] (instruction sets),
//! [`format`](mod@format) (containers), [`detect`](mod@detect) (magic), [`dump`] (byte
//! annotations), [`any`] ([`File`], the [`Container`] trait, [`parse`], and the requests a
//! front end makes of a file: checksum, variant, extract), [`shader`] ([`Shader`]: a parsed
//! file that owns its bytes, for a front end that cannot hold a borrow), [`json`] (the
//! `--json` records: one versioned schema for every command and format, documented in
//! `schema/shaderscope.schema.json`), [`page`] (standalone HTML pages: a listing page, and
//! the viewer with a hex view linked to the listing),
//! [`bare`] (programs without a container: a token stream or code blob, or a byte range of a
//! file), [`asm`] (listing text back into a binary: the text toolkit every assembler reads
//! with, and `asm::assemble`, which picks the assembler).
//!
//! Cargo features choose the format families a build reads, all on by default: `direct3d`
//! (DXBC, Direct3D 9, SM4/5 and SM1–3, the assemblers), `n3ds` (SHBIN, PICA200), `wiiu`
//! (GFD, GX2, SHARCFB, SHARC, Latte), `mali` (MBS, Mali GP/PP). A build without a family
//! still recognises its files ([`Format::of`]) and refuses them as not read by this build.
//!
//! `examples/` in the crate has a runnable program per container, each run by the tests on
//! the files in the repository's `samples/`: `dxbc_instructions` (each instruction with its
//! offset and tokens), `shbin_dvles` (each DVLE's uniforms, outputs and code),
//! `gfd_variables` (each GX2 shader's uniforms and attributes), `sharcfb_programs` (each
//! program's variations and the binaries they take), `mbs_symbols` (the chunk and symbol tree).

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

#[cfg(not(any(feature = "direct3d", feature = "n3ds", feature = "wiiu", feature = "mali")))]
compile_error!("shaderscope reads no format without at least one of the features direct3d, n3ds, wiiu, mali");

pub mod any;
pub mod asm;
pub mod bare;
pub mod container;
pub mod detect;
pub mod dump;
pub mod error;
pub mod find;
pub mod format;
pub mod isa;
pub mod json;
pub mod model;
pub mod page;
pub mod print;
pub mod shader;
pub mod toolkit;
#[cfg(feature = "fs")]
pub mod walk;

/// The corpus helpers the integration tests use (`SHADERSCOPE_CORPUS`, the skip line, CI's
/// `SHADERSCOPE_REQUIRE_CORPUS`), for the unit tests that read the corpus.
#[cfg(test)]
#[path = "../tests/common/mod.rs"]
mod test_corpus;

pub use any::{
    Checksum, File, Prepared, ProgramGsh, ProgramVariations, Refusal, Reported, VariationMacro, annotate,
    parse, parse_prepared, prepare,
};
pub use container::Container;
pub use detect::{Format, detect};
pub use error::{Error, ErrorKind, Result};
#[cfg(feature = "direct3d")]
pub use format::dxbc;
#[cfg(feature = "n3ds")]
pub use format::shbin;
pub use isa::InstructionRecord;
#[cfg(feature = "wiiu")]
pub use isa::latte;
#[cfg(feature = "n3ds")]
pub use isa::pica;
#[cfg(feature = "direct3d")]
pub use isa::{d3d9, sm4};
pub use model::{DisasmOptions, Finding, Generation, Inapplicable, Part, Severity, Stage};
pub use shader::Shader;
