//! `dump` annotations of a GX2 shader struct: every word of the struct, every array entry and
//! every name string, at their absolute offsets.

use super::raw::{self, U};
use super::{Array, Kind, Name, PointerKind, RBuffer, Shader, resource_flags_text};
use crate::dump::Annotations;
use std::fmt::Write as _;
use std::mem::offset_of;

impl Shader<'_> {
    /// Where a stored pointer leads: `none`, or the absolute offset (with GFD's tag named).
    pub fn pointer_text(&self, raw: u32) -> String {
        let Some(offset) = self.pointers.resolve(raw) else { return "none".to_string() };
        let target = self.at + u64::from(offset);
        match self.pointers {
            PointerKind::Offset => format!("0x{offset:x} (at 0x{target:x})"),
            PointerKind::Tagged => {
                let tag = match raw >> 20 {
                    super::GFD_DATA_TAG => "data".to_string(),
                    super::GFD_TEXT_TAG => "text".to_string(),
                    t => format!("tag 0x{t:03x}"),
                };
                format!("{tag} +0x{offset:x} (at 0x{target:x})")
            }
        }
    }

    /// The C name of the struct: `GX2VertexShader`, …
    pub fn struct_name(&self) -> &'static str {
        match self.kind {
            Kind::Vertex => "GX2VertexShader",
            Kind::Pixel => "GX2PixelShader",
            Kind::Geometry => "GX2GeometryShader",
        }
    }

    /// Annotate the struct, its arrays and its names; `title` names the shader (`vertex
    /// shader 0`).
    pub fn annotate(&self, a: &mut Annotations, title: &str) {
        let l = self.layout();
        let at = self.at;
        a.section(at, u64::from(self.len), format_args!("{title}: {}", self.struct_name()));
        for w in self.registers() {
            let text = w.describe();
            let sep = if text.is_empty() { "" } else { ": " };
            a.field(at + 4 * w.word as u64, 4, format_args!("{}{sep}{text}", w.label()));
        }
        let field =
            |a: &mut Annotations, o: usize, text: &dyn std::fmt::Display| a.field(at + o as u64, 4, text);
        field(a, l.size, &format_args!("program size: {} bytes", self.size));
        field(a, l.size + 4, &format_args!("program pointer: {}", self.pointer_text(self.program)));
        if let Some(c) = l.copy {
            field(a, c, &format_args!("copy program size: {} bytes", self.copy_size));
            field(a, c + 4, &format_args!("copy program pointer: {}", self.pointer_text(self.copy_program)));
        }
        field(a, l.mode, &format_args!("mode: {} ({})", self.mode, self.mode.0));
        let pairs = [
            (self.uniform_blocks.count, self.uniform_blocks.pointer),
            (self.uniform_vars.count, self.uniform_vars.pointer),
            (self.initial_values.count, self.initial_values.pointer),
            (self.loop_vars.count, self.loop_vars.pointer),
            (self.sampler_vars.count, self.sampler_vars.pointer),
        ];
        for (k, (count, pointer)) in pairs.iter().enumerate() {
            let name = super::ARRAY_NAMES.get(k).copied().unwrap_or("");
            field(a, l.arrays + 8 * k, &format_args!("{name}: {count}"));
            field(a, l.arrays + 8 * k + 4, &format_args!("{name} pointer: {}", self.pointer_text(*pointer)));
        }
        if let Some(o) = l.attribs {
            field(a, o, &format_args!("attrib vars: {}", self.attrib_vars.count));
            field(
                a,
                o + 4,
                &format_args!("attrib vars pointer: {}", self.pointer_text(self.attrib_vars.pointer)),
            );
        }
        if let Some(r) = l.ring {
            field(a, r, &format_args!("ring item size: {}", self.ring_item_size));
            field(a, r + 4, &format_args!("has stream out: {}", self.has_stream_out));
            for (k, s) in self.stream_out_stride.iter().enumerate() {
                field(a, r + 8 + 4 * k, &format_args!("stream-out stride {k}: {s}"));
            }
        }
        if let Some(b) = &self.gx2r {
            rbuffer(a, at + l.gx2r as u64, b, "GX2R buffer");
        }
        if let (Some(b), Some(o)) = (&self.copy_gx2r, l.copy_gx2r) {
            rbuffer(a, at + o as u64, b, "copy GX2R buffer");
        }
        self.annotate_arrays(a);
    }

    fn annotate_arrays(&self, a: &mut Annotations) {
        let [ub, uv, iv, lv, sv, av] = raw::ENTRY_SIZES.map(|n| n as u64);
        section(a, &self.uniform_blocks, ub, "uniform blocks");
        for (i, x) in self.uniform_blocks.items.iter().enumerate() {
            let f = |o: usize| x.at + o as u64;
            type E = raw::GX2UniformBlock<U>;
            name(a, self, f(offset_of!(E, name)), &x.name, "uniform block", i);
            a.field(
                f(offset_of!(E, offset)),
                4,
                format_args!("uniform block {i} offset (buffer location): {}", x.offset),
            );
            a.field(f(offset_of!(E, size)), 4, format_args!("uniform block {i} size: {} bytes", x.size));
        }
        section(a, &self.uniform_vars, uv, "uniform vars");
        for (i, x) in self.uniform_vars.items.iter().enumerate() {
            let f = |o: usize| x.at + o as u64;
            type E = raw::GX2UniformVar<U>;
            name(a, self, f(offset_of!(E, name)), &x.name, "uniform var", i);
            a.field(f(offset_of!(E, r#type)), 4, format_args!("uniform var {i} type: {}", x.ty));
            a.field(f(offset_of!(E, count)), 4, format_args!("uniform var {i} count: {}", x.count));
            a.field(f(offset_of!(E, offset)), 4, format_args!("uniform var {i} offset: {}", x.offset));
            a.field(f(offset_of!(E, block)), 4, format_args!("uniform var {i} block: {}", x.block));
        }
        section(a, &self.initial_values, iv, "initial values");
        for (i, x) in self.initial_values.items.iter().enumerate() {
            let f = |o: usize| x.at + o as u64;
            type E = raw::GX2UniformInitialValue<U>;
            for (k, v) in x.value.iter().enumerate() {
                let mut text = String::new();
                let _ = crate::print::float::write_f32_g9(&mut text, *v);
                let at = f(offset_of!(E, value) + 4 * k);
                a.field(at, 4, format_args!("initial value {i}[{k}]: {text}"));
            }
            a.field(f(offset_of!(E, offset)), 4, format_args!("initial value {i} offset: {}", x.offset));
        }
        section(a, &self.loop_vars, lv, "loop vars");
        for (i, x) in self.loop_vars.items.iter().enumerate() {
            let f = |o: usize| x.at + o as u64;
            type E = raw::GX2LoopVar<U>;
            a.field(f(offset_of!(E, offset)), 4, format_args!("loop var {i} offset: {}", x.offset));
            a.field(f(offset_of!(E, value)), 4, format_args!("loop var {i} value: 0x{:08x}", x.value));
        }
        section(a, &self.sampler_vars, sv, "sampler vars");
        for (i, x) in self.sampler_vars.items.iter().enumerate() {
            let f = |o: usize| x.at + o as u64;
            type E = raw::GX2SamplerVar<U>;
            name(a, self, f(offset_of!(E, name)), &x.name, "sampler var", i);
            a.field(f(offset_of!(E, r#type)), 4, format_args!("sampler var {i} type: {}", x.ty));
            a.field(f(offset_of!(E, location)), 4, format_args!("sampler var {i} location: {}", x.location));
        }
        section(a, &self.attrib_vars, av, "attrib vars");
        for (i, x) in self.attrib_vars.items.iter().enumerate() {
            let f = |o: usize| x.at + o as u64;
            type E = raw::GX2AttribVar<U>;
            name(a, self, f(offset_of!(E, name)), &x.name, "attrib var", i);
            a.field(f(offset_of!(E, r#type)), 4, format_args!("attrib var {i} type: {}", x.ty));
            a.field(f(offset_of!(E, count)), 4, format_args!("attrib var {i} count: {}", x.count));
            a.field(f(offset_of!(E, location)), 4, format_args!("attrib var {i} location: {}", x.location));
        }
    }
}

fn section<T>(a: &mut Annotations, arr: &Array<T>, entry: u64, title: &str) {
    if let Some(at) = arr.at {
        a.section(at, entry * arr.items.len() as u64, format_args!("{title} ({})", arr.items.len()));
    }
}

/// The name pointer of entry `i` at `at`, and the string it leads to.
fn name(a: &mut Annotations, s: &Shader<'_>, at: u64, n: &Name<'_>, item: &str, i: usize) {
    let mut text = format!("{item} {i} name: {}", s.pointer_text(n.pointer));
    if let Some(t) = n.text {
        let _ = write!(text, " \"{n}\"");
        a.field(t.offset, t.bytes.len() as u64 + 1, format_args!("{item} {i} name \"{n}\""));
    }
    a.field(at, 4, text);
}

fn rbuffer(a: &mut Annotations, at: u64, b: &RBuffer, title: &str) {
    type B = raw::GX2RBuffer<U>;
    let f = |o: usize| at + o as u64;
    a.field(f(offset_of!(B, flags)), 4, format_args!("{title} flags: {}", resource_flags_text(b.flags)));
    a.field(f(offset_of!(B, elem_size)), 4, format_args!("{title} element size: {}", b.elem_size));
    a.field(f(offset_of!(B, elem_count)), 4, format_args!("{title} element count: {}", b.elem_count));
    a.field(f(offset_of!(B, buffer)), 4, format_args!("{title} pointer: 0x{:x}", b.buffer));
}
