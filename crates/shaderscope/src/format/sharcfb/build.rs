//! Building SHARCFB archives in code: a binary from a GX2 shader struct and its microcode,
//! laid out as AGL's archives hold them (the struct with plain-offset pointers, its arrays and
//! names, then the microcode on a 0x100 boundary of the file: [`Sharcfb::push_gx2`]), and
//! [`example`], the small archive behind `samples/`.
//!
//! ```
//! use shaderscope::format::sharcfb::{Sharcfb, build};
//!
//! let archive = Sharcfb::parse(&build::example())?;
//! let program = &archive.programs.items[0];
//! assert_eq!((program.name.text(), program.variation_count()), ("color".into(), Some(2)));
//! // Each binary's data holds a GX2 struct the reader finds its microcode through, on a
//! // 0x100 boundary of the file.
//! let b = &archive.binaries.items[1];
//! let shader = b.gx2(archive.endian)?;
//! assert_eq!(shader.uniform_vars.items[0].name.text.map(|t| t.bytes), Some(&b"uColor"[..]));
//! let (code, at) = b.program(&shader, false)?.unwrap();
//! assert_eq!((code.len(), at % build::PROGRAM_ALIGN), (16, 0));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::res::{Symbol, Variation};
use super::{BINARY_HEADER, Binary, BinaryType, HEADER_SIZE, Program, Sharcfb};
use crate::format::gfd;
use crate::format::gx2::{Kind, PointerKind, Shader};
use crate::toolkit::Endian;
use crate::toolkit::layout::Placement;

/// The boundary AGL's archives put microcode on, counted from the start of the file (the GPU
/// reads it where the archive is loaded, which is aligned at least as much).
pub const PROGRAM_ALIGN: u64 = 0x100;

impl Sharcfb {
    /// Add a binary holding `shader` laid out afresh in the archive's byte order, where the
    /// writer will put it (after the binaries already added): the struct, its arrays and its
    /// names (pointers as offsets from the data's start), then `program` and (a geometry
    /// shader) `copy`, each on a [`PROGRAM_ALIGN`] boundary of the file as AGL's archives
    /// place microcode. The struct's sizes and program pointers name them.
    pub fn push_gx2(&mut self, shader: &Shader<'_>, program: &[u8], copy: &[u8]) {
        let kind = match shader.kind {
            Kind::Vertex => BinaryType::VERTEX,
            Kind::Pixel => BinaryType::PIXEL,
            Kind::Geometry => BinaryType::GEOMETRY,
        };
        // The header and name, the binary array's size and count, the binaries before this
        // one, and this one's header.
        let before: u64 = self.binaries.items.iter().map(Binary::size).sum();
        let data_at = (HEADER_SIZE + self.name.len() + 8 + BINARY_HEADER) as u64 + before;
        let aligned = |relative: u64| (data_at + relative).next_multiple_of(PROGRAM_ALIGN) - data_at;
        let laid = shader.lay_out(0, PointerKind::Offset);
        let mut s = laid.shader;
        let program_at = aligned(laid.text.end);
        let copy_at = aligned(program_at + program.len() as u64);
        s.size = program.len() as u32;
        s.program = if program.is_empty() { 0 } else { program_at as u32 };
        if s.kind == Kind::Geometry {
            s.copy_size = copy.len() as u32;
            s.copy_program = if copy.is_empty() { 0 } else { copy_at as u32 };
        }
        let mut p = Placement::new(self.endian, 0);
        s.place(&mut p, 0);
        p.put_at(program_at as usize, program);
        p.put_at(copy_at as usize, copy);
        self.binaries.items.push(Binary::new(kind, p.finish(&[])));
    }
}

/// A small big-endian archive built in code: program `color` (a vertex and a pixel shader)
/// with one variation macro, `TINT` (`off`, `on`; default `on`), so two variations of two
/// binaries each: the vertex and pixel shaders of [`gfd::build::example`] (uniforms
/// `uProjection`, `uColor`, attribute `aPosition`), the pixel shader of `TINT=on` with a second
/// uniform, `uTint`. The program's symbols name the uniforms and the attribute, with the
/// variations that use them. For examples and tests.
pub fn example() -> Vec<u8> {
    let (vs, vs_code) = gfd::build::example_shader(Kind::Vertex);
    let (ps, ps_code) = gfd::build::example_shader(Kind::Pixel);
    let mut tinted = ps.clone();
    if let Some(mut tint) = tinted.uniform_vars.items.first().copied() {
        tint.name.text = tint.name.text.map(|t| crate::toolkit::Cstr { bytes: b"uTint", ..t });
        tint.offset = 4;
        tinted.uniform_vars.items.push(tint);
    }
    let mut archive = Sharcfb::new("demo", Endian::Big);
    for (shader, code) in [(&vs, vs_code), (&ps, ps_code), (&vs, vs_code), (&tinted, ps_code)] {
        archive.push_gx2(shader, code, &[]);
    }
    let mut program = Program::new("color", 0b011, 0);
    program.variations.items.push(Variation::new("TINT", &["off", "on"], "tint"));
    program.defaults.items.push(Variation::new("TINT", &["on"], "tint"));
    // Uniform vars, then attrib vars; the used flags are per variation.
    program.symbols[0].items.push(Symbol::new("uProjection", "uProjection", 0, &[], &[1, 1]));
    program.symbols[0].items.push(Symbol::new("uColor", "uColor", 0, &[], &[1, 1]));
    program.symbols[0].items.push(Symbol::new("uTint", "uTint", 4, &[], &[0, 1]));
    program.symbols[3].items.push(Symbol::new("aPosition", "aPosition", 0, &[], &[1, 1]));
    archive.programs.items.push(program);
    // Four small binaries always fit.
    archive.write().unwrap_or_default()
}
