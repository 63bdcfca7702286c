//! Writing a new GFD file from GX2 shader structs and their microcode, laid out as decaf-emu's
//! GFD writer (and its latte-assembler) lays them out: for each shader its header block (the
//! struct, its arrays, the names, the relocation table, the `}BLK` trailer) and its program
//! block(s), blocks numbered in order; then the end-of-file block. With `align`, a padding
//! block before each program block puts its data on a 0x200 boundary, as decaf does.
//!
//! The structs may come from any container (a SHARCFB archive's shaders become a `.gsh` this
//! way): their pointers are laid out afresh ([`Shader::lay_out`]).
//!
//! ```
//! use shaderscope::format::gfd::{Gfd, build::Builder};
//!
//! let bytes = shaderscope::format::gfd::build::example();
//! let gfd = Gfd::parse(&bytes)?;
//! // The same shaders, written again by the builder: the same file.
//! let mut b = Builder::new();
//! for s in &gfd.shaders {
//!     let program = gfd.program(s, false).map(|p| p.data).unwrap_or(&[]);
//!     b.push(s.gx2().unwrap(), program, &[]);
//! }
//! assert_eq!(b.finish()?, bytes);
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::{BlockHeader, BlockType, FileHeader, HEADER_SIZE, RELOCATION_SIZE, RelocationHeader};
use crate::error::{Error, Result};
use crate::format::gx2::{AttribVar, Kind, Name, PointerKind, Shader, ShaderMode, UniformVar, VarType, regs};
use crate::toolkit::layout::Placement;
use crate::toolkit::raw::U32;
use crate::toolkit::{Cstr, Endian};
use zerocopy::IntoBytes;

/// A GFD file being built: shaders in the order pushed.
#[derive(Debug, Clone, Default)]
pub struct Builder<'a> {
    shaders: Vec<(Shader<'a>, &'a [u8], &'a [u8])>,
    align: bool,
}

impl<'a> Builder<'a> {
    /// An empty file (no alignment).
    pub fn new() -> Self {
        Builder::default()
    }

    /// Align each program's data to 0x200 with padding blocks (the file header's align flag).
    pub fn align(mut self, on: bool) -> Self {
        self.align = on;
        self
    }

    /// Add a shader: its struct, its microcode and (geometry) its copy program's.
    pub fn push(&mut self, shader: &Shader<'a>, program: &'a [u8], copy: &'a [u8]) {
        self.shaders.push((shader.clone(), program, copy));
    }

    /// The file. Fails when a shader's header block would not fit GFD's 20-bit offsets (1 MiB).
    pub fn finish(&self) -> Result<Vec<u8>> {
        let mut p = Placement::new(Endian::Big, 0);
        p.put_at(0, FileHeader::new(7, 1, 2, u32::from(self.align), [0, 0]).as_bytes());
        let mut pos = HEADER_SIZE as usize;
        let mut id = 0u32;
        let mut count = [0u32; 3];
        let mut block = |p: &mut Placement, pos: &mut usize, kind: BlockType, index: u32, data_len: usize| {
            p.put_at(*pos, BlockHeader::new(kind, data_len as u32, id, index).as_bytes());
            id += 1;
            let data = *pos + HEADER_SIZE as usize;
            *pos = data + data_len;
            data
        };
        let pad =
            |p: &mut Placement,
             pos: &mut usize,
             block: &mut dyn FnMut(&mut Placement, &mut usize, BlockType, u32, usize) -> usize| {
                // The next block's data starts 0x20 after its header; padding needs a header too.
                let mut n = (0x200 - ((*pos + HEADER_SIZE as usize) & 0x1FF)) & 0x1FF;
                if n == 0 {
                    return;
                }
                if n < HEADER_SIZE as usize {
                    n += 0x200;
                }
                n -= HEADER_SIZE as usize;
                block(p, pos, BlockType::PADDING, 0, n);
            };
        for (shader, program, copy) in &self.shaders {
            let (header, prog) = match shader.kind {
                Kind::Vertex => (BlockType::VERTEX_HEADER, BlockType::VERTEX_PROGRAM),
                Kind::Pixel => (BlockType::PIXEL_HEADER, BlockType::PIXEL_PROGRAM),
                Kind::Geometry => (BlockType::GEOMETRY_HEADER, BlockType::GEOMETRY_PROGRAM),
            };
            let slot = match shader.kind {
                Kind::Vertex => 0,
                Kind::Pixel => 1,
                Kind::Geometry => 2,
            };
            let index = count.get(slot).copied().unwrap_or(0);
            if let Some(c) = count.get_mut(slot) {
                *c += 1;
            }
            let data = header_data(shader, program.len(), copy.len())?;
            let at = block(&mut p, &mut pos, header, index, data.len());
            p.put_at(at, &data);
            if self.align {
                pad(&mut p, &mut pos, &mut block);
            }
            if !program.is_empty() || shader.kind != Kind::Geometry {
                let at = block(&mut p, &mut pos, prog, index, program.len());
                p.put_at(at, program);
            }
            if shader.kind == Kind::Geometry && !copy.is_empty() {
                if self.align {
                    pad(&mut p, &mut pos, &mut block);
                }
                let at = block(&mut p, &mut pos, BlockType::GEOMETRY_COPY_PROGRAM, index, copy.len());
                p.put_at(at, copy);
            }
        }
        block(&mut p, &mut pos, BlockType::END_OF_FILE, 0, 0);
        Ok(p.finish(&[]))
    }
}

/// The data of a shader's header block: the struct laid out from offset 0, the names, the
/// patch table (data pointers, then text pointers) and the `}BLK` trailer.
/// Bytes of a file [`Builder::finish`] writes with no shader: the file header and the end block.
pub(crate) const EMPTY_SIZE: u64 = 2 * HEADER_SIZE as u64;

/// Bytes [`Builder::finish`] (unaligned) adds for one shader: its header block, its program
/// block (a geometry shader's only when it has one) and a geometry shader's copy block; what
/// a file's size is made of without writing it (tests/sharcfb_corpus.rs checks the two agree).
pub(crate) fn shader_size(shader: &Shader<'_>, program: usize, copy: usize) -> Result<u64> {
    let block = u64::from(HEADER_SIZE);
    let mut n = block + header_data(shader, program, copy)?.len() as u64;
    if program != 0 || shader.kind != Kind::Geometry {
        n += block + program as u64;
    }
    if shader.kind == Kind::Geometry && copy != 0 {
        n += block + copy as u64;
    }
    Ok(n)
}

fn header_data(shader: &Shader<'_>, program: usize, copy: usize) -> Result<Vec<u8>> {
    let laid = shader.lay_out(0, PointerKind::Tagged);
    let limit = u64::from(crate::format::gx2::GFD_OFFSET_MASK);
    let size = laid.text.end + 4 * (laid.data_fields.len() + laid.text_fields.len()) as u64;
    if size > limit {
        return Err(Error::invalid(
            0,
            "GFD header block",
            format!(
                "the {} shader's struct, arrays and names take 0x{size:x} bytes, more than GFD's 20-bit offsets reach",
                shader.kind.name()
            ),
        ));
    }
    let mut s = laid.shader;
    s.size = program as u32;
    if s.kind == Kind::Geometry {
        s.copy_size = copy as u32;
    }
    let patches_at = laid.text.end as usize;
    let n = laid.data_fields.len() + laid.text_fields.len();
    let trailer = patches_at + 4 * n;
    let mut p = Placement::new(Endian::Big, trailer + RELOCATION_SIZE as usize);
    s.place(&mut p, 0);
    let tag = |offset: u64, text: bool| PointerKind::Tagged.encode(offset as u32, text);
    let entries =
        laid.data_fields.iter().map(|f| tag(*f, false)).chain(laid.text_fields.iter().map(|f| tag(*f, true)));
    for (k, e) in entries.enumerate() {
        p.patch_u32(patches_at + 4 * k, e);
    }
    let trailer_header = RelocationHeader {
        magic: super::RELOCATION_MAGIC,
        header_size: U32::new(RELOCATION_SIZE),
        unk1: U32::new(0),
        data_size: U32::new(patches_at as u32),
        data_offset: U32::new(tag(0, false)),
        text_size: U32::new((laid.text.end - laid.text.start) as u32),
        text_offset: U32::new(tag(laid.text.start, false)),
        patch_base: U32::new(0),
        patch_count: U32::new(n as u32),
        patch_offset: U32::new(tag(patches_at as u64, false)),
    };
    p.put_at(trailer, trailer_header.as_bytes());
    Ok(p.finish(&[]))
}

/// A small `.gsh` built in code: a vertex shader that transforms `aPosition` by the
/// `uProjection` matrix (uniform-register mode) and a pixel shader that outputs `uColor`, each
/// with a placeholder program of 16 bytes. For examples and tests.
pub fn example() -> Vec<u8> {
    let mut b = Builder::new();
    let shaders = [example_shader(Kind::Vertex), example_shader(Kind::Pixel)];
    for (shader, code) in &shaders {
        b.push(shader, code, &[]);
    }
    // Two small shaders always fit.
    b.finish().unwrap_or_default()
}

/// [`example`]'s vertex program: CALL_FS; then EXP_DONE POS0, R1 with END_OF_PROGRAM
/// (little-endian words).
const VS_CODE: [u8; 16] = [0, 0, 0, 0, 0, 0, 0x80, 0x09, 0x3c, 0xa0, 0, 0, 0x88, 0x06, 0x20, 0x94];
/// [`example`]'s pixel program: EXP_DONE PIX0, R0 with END_OF_PROGRAM; a NOP.
const PS_CODE: [u8; 16] = [0, 0, 0, 0, 0x88, 0x06, 0x20, 0x94, 0, 0, 0, 0, 0, 0, 0, 0];

/// [`example`]'s shader of `kind` (vertex or pixel; any other kind is a pixel shader): its
/// struct and its program.
pub fn example_shader(kind: Kind) -> (Shader<'static>, &'static [u8]) {
    let kind = if kind == Kind::Vertex { Kind::Vertex } else { Kind::Pixel };
    let empty = PointerKind::Tagged;
    let l = kind.layout();
    let mut regs_words = vec![0u32; regs::words(l.regs)];
    let mut set = |name: &str, v: u32| {
        if let Some(w) = regs::index_of(l.regs, name).and_then(|i| regs_words.get_mut(i)) {
            *w = v;
        }
    };
    let name = |s: &'static [u8]| Name { pointer: 1, text: Some(Cstr { bytes: s, offset: 0 }) };
    let mut shader = Shader::empty(kind, empty);
    match kind {
        Kind::Vertex => {
            set("SQ_PGM_RESOURCES_VS", 2);
            set("SPI_VS_OUT_CONFIG", 0);
            set("num_spi_vs_out_id", 0);
            set("SQ_VTX_SEMANTIC_CLEAR", 0xFFFF_FFFE);
            set("num_sq_vtx_semantic", 1);
            set("VGT_VERTEX_REUSE_BLOCK_CNTL", 14);
            set("VGT_HOS_REUSE_DEPTH", 16);
            for i in 0..10 {
                if let Some(w) =
                    regs::index_of(l.regs, "SPI_VS_OUT_ID").and_then(|k| regs_words.get_mut(k + i))
                {
                    *w = u32::MAX;
                }
            }
            for i in 1..32 {
                if let Some(w) =
                    regs::index_of(l.regs, "SQ_VTX_SEMANTIC").and_then(|k| regs_words.get_mut(k + i))
                {
                    *w = 0xFF;
                }
            }
            shader.uniform_vars.items.push(UniformVar {
                at: 0,
                name: name(b"uProjection"),
                ty: VarType(29),
                count: 1,
                offset: 0,
                block: -1,
            });
            shader.attrib_vars.items.push(AttribVar {
                at: 0,
                name: name(b"aPosition"),
                ty: VarType(11),
                count: 0,
                location: 0,
            });
        }
        _ => {
            set("SQ_PGM_RESOURCES_PS", 1);
            set("SQ_PGM_EXPORTS_PS", 2);
            set("CB_SHADER_MASK", 0xF);
            set("CB_SHADER_CONTROL", 1);
            set("DB_SHADER_CONTROL", 0x10);
            shader.uniform_vars.items.push(UniformVar {
                at: 0,
                name: name(b"uColor"),
                ty: VarType(11),
                count: 1,
                offset: 0,
                block: -1,
            });
        }
    }
    shader.regs = regs_words;
    shader.mode = ShaderMode(0);
    (shader, if kind == Kind::Vertex { &VS_CODE } else { &PS_CODE })
}
