//! The GX2 shader structs as the Wii U lays them out, declared once with the field names of
//! wut's `gx2/shaders.h` (decaf-emu's `gx2_shaders.h` checks the same offsets), in the byte
//! order `O`: big-endian in a GFD file, either order in a SHARCFB archive (whose `BAHS` files
//! hold them little-endian). [`Shader::read`](super::Shader::read) reads them in place,
//! [`Shader::place`](super::Shader::place) writes them as their bytes, and
//! [`Kind::layout`](super::Kind::layout) takes every offset `dump` and the checks name from
//! them (`offset_of!`). Pointers are stored as the container says
//! ([`PointerKind`](super::PointerKind)); every field is a 32-bit word.

use super::regs;
use super::{RBuffer, Shader};
use crate::toolkit::raw::{ByteOrder, I32, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// Words of the `regs` block of [`GX2VertexShader`].
pub(crate) const VERTEX_REGS: usize = 52;
/// Words of the `regs` block of [`GX2PixelShader`].
pub(crate) const PIXEL_REGS: usize = 41;
/// Words of the `regs` block of [`GX2GeometryShader`].
pub(crate) const GEOMETRY_REGS: usize = 19;

/// `GX2RBuffer`: how GX2R allocated a buffer (all 0 in files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2RBuffer<O> {
    pub flags: U32<O>,
    pub elem_size: U32<O>,
    pub elem_count: U32<O>,
    pub buffer: U32<O>,
}

/// `GX2UniformBlock`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2UniformBlock<O> {
    pub name: U32<O>,
    pub offset: U32<O>,
    pub size: U32<O>,
}

/// `GX2UniformVar`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2UniformVar<O> {
    pub name: U32<O>,
    pub r#type: U32<O>,
    pub count: U32<O>,
    pub offset: U32<O>,
    pub block: I32<O>,
}

/// `GX2UniformInitialValue`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2UniformInitialValue<O> {
    /// Four floats, as their IEEE bits.
    pub value: [U32<O>; 4],
    pub offset: U32<O>,
}

/// `GX2LoopVar`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2LoopVar<O> {
    pub offset: U32<O>,
    pub value: U32<O>,
}

/// `GX2SamplerVar`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2SamplerVar<O> {
    pub name: U32<O>,
    pub r#type: U32<O>,
    pub location: U32<O>,
}

/// `GX2AttribVar`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2AttribVar<O> {
    pub name: U32<O>,
    pub r#type: U32<O>,
    pub count: U32<O>,
    pub location: U32<O>,
}

/// `GX2VertexShader` (0x134 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2VertexShader<O> {
    /// The register words, as [`regs::VERTEX`] names them.
    pub regs: [U32<O>; VERTEX_REGS],
    pub size: U32<O>,
    pub program: U32<O>,
    pub mode: U32<O>,
    pub uniform_block_count: U32<O>,
    pub uniform_blocks: U32<O>,
    pub uniform_var_count: U32<O>,
    pub uniform_vars: U32<O>,
    pub initial_value_count: U32<O>,
    pub initial_values: U32<O>,
    pub loop_var_count: U32<O>,
    pub loop_vars: U32<O>,
    pub sampler_var_count: U32<O>,
    pub sampler_vars: U32<O>,
    pub attrib_var_count: U32<O>,
    pub attrib_vars: U32<O>,
    pub ring_item_size: U32<O>,
    pub has_stream_out: U32<O>,
    pub stream_out_stride: [U32<O>; 4],
    pub gx2r_buffer: GX2RBuffer<O>,
}

/// `GX2PixelShader` (0xE8 bytes; a GFD pixel shader header of block version 0 ends before
/// `gx2r_buffer`, at 0xD8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2PixelShader<O> {
    /// The register words, as [`regs::PIXEL`] names them.
    pub regs: [U32<O>; PIXEL_REGS],
    pub size: U32<O>,
    pub program: U32<O>,
    pub mode: U32<O>,
    pub uniform_block_count: U32<O>,
    pub uniform_blocks: U32<O>,
    pub uniform_var_count: U32<O>,
    pub uniform_vars: U32<O>,
    pub initial_value_count: U32<O>,
    pub initial_values: U32<O>,
    pub loop_var_count: U32<O>,
    pub loop_vars: U32<O>,
    pub sampler_var_count: U32<O>,
    pub sampler_vars: U32<O>,
    pub gx2r_buffer: GX2RBuffer<O>,
}

/// `GX2GeometryShader` as decaf-emu declares it (0xC0 bytes); wut's ends before
/// `vertex_program_gx2r_buffer`, at 0xB0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct GX2GeometryShader<O> {
    /// The register words, as [`regs::GEOMETRY`] names them.
    pub regs: [U32<O>; GEOMETRY_REGS],
    pub size: U32<O>,
    pub program: U32<O>,
    /// The copy program (the vertex program that reads the GS→VS ring).
    pub vertex_program_size: U32<O>,
    pub vertex_program: U32<O>,
    pub mode: U32<O>,
    pub uniform_block_count: U32<O>,
    pub uniform_blocks: U32<O>,
    pub uniform_var_count: U32<O>,
    pub uniform_vars: U32<O>,
    pub initial_value_count: U32<O>,
    pub initial_values: U32<O>,
    pub loop_var_count: U32<O>,
    pub loop_vars: U32<O>,
    pub sampler_var_count: U32<O>,
    pub sampler_vars: U32<O>,
    pub ring_item_size: U32<O>,
    pub has_stream_out: U32<O>,
    pub stream_out_stride: [U32<O>; 4],
    pub gx2r_buffer: GX2RBuffer<O>,
    pub vertex_program_gx2r_buffer: GX2RBuffer<O>,
}

// The sizes wut and decaf-emu check, and the `regs` blocks the register tables name.
const _: () = assert!(size_of::<GX2RBuffer<U>>() == 0x10);
const _: () = assert!(size_of::<GX2UniformBlock<U>>() == 0xC);
const _: () = assert!(size_of::<GX2UniformVar<U>>() == 0x14);
const _: () = assert!(size_of::<GX2UniformInitialValue<U>>() == 0x14);
const _: () = assert!(size_of::<GX2LoopVar<U>>() == 0x8);
const _: () = assert!(size_of::<GX2SamplerVar<U>>() == 0xC);
const _: () = assert!(size_of::<GX2AttribVar<U>>() == 0x10);
const _: () = assert!(size_of::<GX2VertexShader<U>>() == 0x134);
const _: () = assert!(size_of::<GX2PixelShader<U>>() == 0xE8);
const _: () = assert!(size_of::<GX2GeometryShader<U>>() == 0xC0);

/// The size of an entry of each array, in struct order: uniform blocks, uniform vars, initial
/// values, loop vars, sampler vars, attrib vars.
pub(crate) const ENTRY_SIZES: [usize; 6] = [
    size_of::<GX2UniformBlock<U>>(),
    size_of::<GX2UniformVar<U>>(),
    size_of::<GX2UniformInitialValue<U>>(),
    size_of::<GX2LoopVar<U>>(),
    size_of::<GX2SamplerVar<U>>(),
    size_of::<GX2AttribVar<U>>(),
];

/// Any order, for the sizes and offsets (which do not depend on it).
pub(crate) type U = crate::toolkit::raw::BigEndian;

impl<O: ByteOrder> GX2RBuffer<O> {
    /// The buffer as the model keeps it.
    pub fn get(&self, o: O) -> RBuffer {
        RBuffer {
            flags: self.flags.get_in(o),
            elem_size: self.elem_size.get_in(o),
            elem_count: self.elem_count.get_in(o),
            buffer: self.buffer.get_in(o),
        }
    }

    /// `b` stored in `o`.
    pub fn new(o: O, b: &RBuffer) -> Self {
        GX2RBuffer {
            flags: U32::new_in(o, b.flags),
            elem_size: U32::new_in(o, b.elem_size),
            elem_count: U32::new_in(o, b.elem_count),
            buffer: U32::new_in(o, b.buffer),
        }
    }
}

/// The `regs` words of the model (0 where it has fewer), stored in `o`.
fn regs_of<O: ByteOrder, const N: usize>(o: O, s: &Shader<'_>) -> [U32<O>; N] {
    std::array::from_fn(|i| U32::new_in(o, s.regs.get(i).copied().unwrap_or(0)))
}

fn words<O: ByteOrder, const N: usize>(o: O, w: [u32; N]) -> [U32<O>; N] {
    w.map(|v| U32::new_in(o, v))
}

/// The words of a struct of any kind, as the model keeps them (a kind's absent fields 0).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Fields {
    pub regs: Vec<u32>,
    pub size: u32,
    pub program: u32,
    pub copy_size: u32,
    pub copy_program: u32,
    pub mode: u32,
    /// (count, pointer) of the uniform blocks, uniform vars, initial values, loop vars,
    /// sampler vars and attrib vars.
    pub arrays: [(u32, u32); 6],
    pub ring_item_size: u32,
    pub has_stream_out: u32,
    pub stream_out_stride: [u32; 4],
    pub gx2r: RBuffer,
    pub copy_gx2r: RBuffer,
}

/// A struct of one kind: read into [`Fields`], made from a [`Shader`].
pub(crate) trait ShaderStruct<O: ByteOrder>: FromBytes + IntoBytes + Immutable + Sized {
    fn fields(&self, o: O) -> Fields;
    fn of(o: O, s: &Shader<'_>) -> Self;
}

fn pair<O: ByteOrder>(o: O, count: U32<O>, pointer: U32<O>) -> (u32, u32) {
    (count.get_in(o), pointer.get_in(o))
}

impl<O: ByteOrder> ShaderStruct<O> for GX2VertexShader<O> {
    fn fields(&self, o: O) -> Fields {
        Fields {
            regs: self.regs.iter().map(|w| w.get_in(o)).collect(),
            size: self.size.get_in(o),
            program: self.program.get_in(o),
            mode: self.mode.get_in(o),
            arrays: [
                pair(o, self.uniform_block_count, self.uniform_blocks),
                pair(o, self.uniform_var_count, self.uniform_vars),
                pair(o, self.initial_value_count, self.initial_values),
                pair(o, self.loop_var_count, self.loop_vars),
                pair(o, self.sampler_var_count, self.sampler_vars),
                pair(o, self.attrib_var_count, self.attrib_vars),
            ],
            ring_item_size: self.ring_item_size.get_in(o),
            has_stream_out: self.has_stream_out.get_in(o),
            stream_out_stride: self.stream_out_stride.map(|w| w.get_in(o)),
            gx2r: self.gx2r_buffer.get(o),
            ..Fields::default()
        }
    }

    fn of(o: O, s: &Shader<'_>) -> Self {
        let w = |v: u32| U32::new_in(o, v);
        GX2VertexShader {
            regs: regs_of(o, s),
            size: w(s.size),
            program: w(s.program),
            mode: w(s.mode.0),
            uniform_block_count: w(s.uniform_blocks.count),
            uniform_blocks: w(s.uniform_blocks.pointer),
            uniform_var_count: w(s.uniform_vars.count),
            uniform_vars: w(s.uniform_vars.pointer),
            initial_value_count: w(s.initial_values.count),
            initial_values: w(s.initial_values.pointer),
            loop_var_count: w(s.loop_vars.count),
            loop_vars: w(s.loop_vars.pointer),
            sampler_var_count: w(s.sampler_vars.count),
            sampler_vars: w(s.sampler_vars.pointer),
            attrib_var_count: w(s.attrib_vars.count),
            attrib_vars: w(s.attrib_vars.pointer),
            ring_item_size: w(s.ring_item_size),
            has_stream_out: w(s.has_stream_out),
            stream_out_stride: words(o, s.stream_out_stride),
            gx2r_buffer: GX2RBuffer::new(o, &s.gx2r.unwrap_or_default()),
        }
    }
}

impl<O: ByteOrder> ShaderStruct<O> for GX2PixelShader<O> {
    fn fields(&self, o: O) -> Fields {
        Fields {
            regs: self.regs.iter().map(|w| w.get_in(o)).collect(),
            size: self.size.get_in(o),
            program: self.program.get_in(o),
            mode: self.mode.get_in(o),
            arrays: [
                pair(o, self.uniform_block_count, self.uniform_blocks),
                pair(o, self.uniform_var_count, self.uniform_vars),
                pair(o, self.initial_value_count, self.initial_values),
                pair(o, self.loop_var_count, self.loop_vars),
                pair(o, self.sampler_var_count, self.sampler_vars),
                (0, 0),
            ],
            gx2r: self.gx2r_buffer.get(o),
            ..Fields::default()
        }
    }

    fn of(o: O, s: &Shader<'_>) -> Self {
        let w = |v: u32| U32::new_in(o, v);
        GX2PixelShader {
            regs: regs_of(o, s),
            size: w(s.size),
            program: w(s.program),
            mode: w(s.mode.0),
            uniform_block_count: w(s.uniform_blocks.count),
            uniform_blocks: w(s.uniform_blocks.pointer),
            uniform_var_count: w(s.uniform_vars.count),
            uniform_vars: w(s.uniform_vars.pointer),
            initial_value_count: w(s.initial_values.count),
            initial_values: w(s.initial_values.pointer),
            loop_var_count: w(s.loop_vars.count),
            loop_vars: w(s.loop_vars.pointer),
            sampler_var_count: w(s.sampler_vars.count),
            sampler_vars: w(s.sampler_vars.pointer),
            gx2r_buffer: GX2RBuffer::new(o, &s.gx2r.unwrap_or_default()),
        }
    }
}

impl<O: ByteOrder> ShaderStruct<O> for GX2GeometryShader<O> {
    fn fields(&self, o: O) -> Fields {
        Fields {
            regs: self.regs.iter().map(|w| w.get_in(o)).collect(),
            size: self.size.get_in(o),
            program: self.program.get_in(o),
            copy_size: self.vertex_program_size.get_in(o),
            copy_program: self.vertex_program.get_in(o),
            mode: self.mode.get_in(o),
            arrays: [
                pair(o, self.uniform_block_count, self.uniform_blocks),
                pair(o, self.uniform_var_count, self.uniform_vars),
                pair(o, self.initial_value_count, self.initial_values),
                pair(o, self.loop_var_count, self.loop_vars),
                pair(o, self.sampler_var_count, self.sampler_vars),
                (0, 0),
            ],
            ring_item_size: self.ring_item_size.get_in(o),
            has_stream_out: self.has_stream_out.get_in(o),
            stream_out_stride: self.stream_out_stride.map(|w| w.get_in(o)),
            gx2r: self.gx2r_buffer.get(o),
            copy_gx2r: self.vertex_program_gx2r_buffer.get(o),
        }
    }

    fn of(o: O, s: &Shader<'_>) -> Self {
        let w = |v: u32| U32::new_in(o, v);
        GX2GeometryShader {
            regs: regs_of(o, s),
            size: w(s.size),
            program: w(s.program),
            vertex_program_size: w(s.copy_size),
            vertex_program: w(s.copy_program),
            mode: w(s.mode.0),
            uniform_block_count: w(s.uniform_blocks.count),
            uniform_blocks: w(s.uniform_blocks.pointer),
            uniform_var_count: w(s.uniform_vars.count),
            uniform_vars: w(s.uniform_vars.pointer),
            initial_value_count: w(s.initial_values.count),
            initial_values: w(s.initial_values.pointer),
            loop_var_count: w(s.loop_vars.count),
            loop_vars: w(s.loop_vars.pointer),
            sampler_var_count: w(s.sampler_vars.count),
            sampler_vars: w(s.sampler_vars.pointer),
            ring_item_size: w(s.ring_item_size),
            has_stream_out: w(s.has_stream_out),
            stream_out_stride: words(o, s.stream_out_stride),
            gx2r_buffer: GX2RBuffer::new(o, &s.gx2r.unwrap_or_default()),
            vertex_program_gx2r_buffer: GX2RBuffer::new(o, &s.copy_gx2r.unwrap_or_default()),
        }
    }
}

// The register tables name every word of each `regs` block.
const _: () = assert!(regs::words(regs::VERTEX) == VERTEX_REGS);
const _: () = assert!(regs::words(regs::PIXEL) == PIXEL_REGS);
const _: () = assert!(regs::words(regs::GEOMETRY) == GEOMETRY_REGS);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::gx2::{
        AttribVar, InitialValue, Kind, LoopVar, Name, PointerKind, SamplerType, SamplerVar, UniformBlock,
        UniformVar, VarType,
    };
    use crate::toolkit::Endian;
    use crate::toolkit::layout::Placement;
    use crate::toolkit::{Cstr, Reader};

    #[test]
    fn structs_are_the_sizes_wut_and_decaf_give() {
        assert_eq!(size_of::<GX2RBuffer<Endian>>(), 0x10);
        assert_eq!(size_of::<GX2UniformBlock<Endian>>(), 0xC);
        assert_eq!(size_of::<GX2UniformVar<Endian>>(), 0x14);
        assert_eq!(size_of::<GX2UniformInitialValue<Endian>>(), 0x14);
        assert_eq!(size_of::<GX2LoopVar<Endian>>(), 0x8);
        assert_eq!(size_of::<GX2SamplerVar<Endian>>(), 0xC);
        assert_eq!(size_of::<GX2AttribVar<Endian>>(), 0x10);
        assert_eq!(size_of::<GX2VertexShader<Endian>>(), 0x134);
        assert_eq!(size_of::<GX2PixelShader<Endian>>(), 0xE8);
        assert_eq!(size_of::<GX2GeometryShader<Endian>>(), 0xC0);
        // The offsets the register tables and the documentation give.
        let (v, p, g) = (Kind::Vertex.layout(), Kind::Pixel.layout(), Kind::Geometry.layout());
        assert_eq!(
            (v.size, v.mode, v.arrays, v.attribs, v.ring, v.gx2r),
            (0xD0, 0xD8, 0xDC, Some(0x104), Some(0x10C), 0x124)
        );
        assert_eq!((p.size, p.mode, p.arrays, p.gx2r), (0xA4, 0xAC, 0xB0, 0xD8));
        assert_eq!(
            (g.size, g.copy, g.mode, g.arrays, g.ring, g.gx2r, g.copy_gx2r),
            (0x4C, Some(0x54), 0x5C, 0x60, Some(0x88), 0xA0, Some(0xB0))
        );
    }

    fn put(order: Endian, data: &mut [u8], at: usize, v: u32) {
        let b = if order == Endian::Big { v.to_be_bytes() } else { v.to_le_bytes() };
        data[at..at + 4].copy_from_slice(&b);
    }

    #[test]
    fn every_shader_struct_reads_then_writes_back_its_bytes() {
        for order in [Endian::Big, Endian::Little] {
            for kind in [Kind::Vertex, Kind::Pixel, Kind::Geometry] {
                let l = kind.layout();
                // Every word different; no arrays (their counts 0).
                let mut data = vec![0u8; l.size_of];
                for i in 0..l.size_of / 4 {
                    put(order, &mut data, 4 * i, 0x0101_0000 * i as u32 + 7);
                }
                for count in (0..5).map(|k| l.arrays + 8 * k).chain(l.attribs) {
                    put(order, &mut data, count, 0);
                }
                let s = Shader::read(kind, &data, 0x40, order, PointerKind::Offset).unwrap();
                let word = |at: usize| Reader::new(&data, order).u32_at(at, "word").unwrap();
                assert_eq!((s.size, s.mode.0, s.len as usize), (word(l.size), word(l.mode), l.size_of));
                assert_eq!(s.gx2r.unwrap().buffer, word(l.gx2r + 12));
                assert_eq!(s.regs.len(), regs::words(l.regs));
                let mut p = Placement::new(order, data.len());
                s.place(&mut p, 0x40);
                assert_eq!(p.finish(&[]), data, "{kind:?} {order:?}");
            }
        }
    }

    #[test]
    fn every_entry_struct_reads_then_writes_back_its_bytes() {
        let name = |s: &'static [u8]| Name { pointer: 1, text: Some(Cstr { bytes: s, offset: 0 }) };
        let mut s = Shader::empty(Kind::Vertex, PointerKind::Offset);
        s.uniform_blocks.items.push(UniformBlock { at: 0, name: name(b"ub"), offset: 3, size: 0x40 });
        let ty = VarType(11);
        let uv = UniformVar { at: 0, name: name(b"uv"), ty, count: 2, offset: 5, block: -1 };
        s.uniform_vars.items.push(uv);
        s.initial_values.items.push(InitialValue { at: 0, value: [1, 2, 3, 0x3f80_0000], offset: 9 });
        s.loop_vars.items.push(LoopVar { at: 0, offset: 1, value: 0x0102_0304 });
        let sv = SamplerVar { at: 0, name: name(b"sv"), ty: SamplerType(1), location: 4 };
        s.sampler_vars.items.push(sv);
        s.attrib_vars.items.push(AttribVar { at: 0, name: name(b"av"), ty, count: 0, location: 6 });
        let laid = s.lay_out(0, PointerKind::Offset).shader;
        for order in [Endian::Big, Endian::Little] {
            let mut p = Placement::new(order, 0);
            laid.place(&mut p, 0);
            let data = p.finish(&[]);
            let read = Shader::read(Kind::Vertex, &data, 0, order, PointerKind::Offset).unwrap();
            assert_eq!(read, laid);
            let mut p = Placement::new(order, data.len());
            read.place(&mut p, 0);
            assert_eq!(p.finish(&[]), data);
            // Each entry, read in place, holds what the model says.
            let at = |x: u64| &data[x as usize..];
            let ub =
                GX2UniformBlock::<Endian>::ref_from_prefix(at(read.uniform_blocks.items[0].at)).unwrap().0;
            assert_eq!((ub.offset.get_in(order), ub.size.get_in(order)), (3, 0x40));
            let uv = GX2UniformVar::<Endian>::ref_from_prefix(at(read.uniform_vars.items[0].at)).unwrap().0;
            assert_eq!(
                (uv.r#type.get_in(order), uv.count.get_in(order), uv.block.get_in(order)),
                (11, 2, -1)
            );
            let iv = GX2UniformInitialValue::<Endian>::ref_from_prefix(at(read.initial_values.items[0].at))
                .unwrap()
                .0;
            assert_eq!((iv.value[3].get_in(order), iv.offset.get_in(order)), (0x3f80_0000, 9));
            let lv = GX2LoopVar::<Endian>::ref_from_prefix(at(read.loop_vars.items[0].at)).unwrap().0;
            assert_eq!(lv.value.get_in(order), 0x0102_0304);
            let sv = GX2SamplerVar::<Endian>::ref_from_prefix(at(read.sampler_vars.items[0].at)).unwrap().0;
            assert_eq!((sv.r#type.get_in(order), sv.location.get_in(order)), (1, 4));
            let av = GX2AttribVar::<Endian>::ref_from_prefix(at(read.attrib_vars.items[0].at)).unwrap().0;
            assert_eq!(
                (av.name.get_in(order), av.location.get_in(order)),
                (read.attrib_vars.items[0].name.pointer, 6)
            );
            let b = GX2RBuffer::<Endian>::ref_from_prefix(at(Kind::Vertex.layout().gx2r as u64)).unwrap().0;
            assert_eq!(b.get(order), RBuffer::default());
        }
    }
}
