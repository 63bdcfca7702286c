//! Writing fx_2_0 effects: [`write()`] gives a parsed effect's bytes back, and [`Builder`] makes
//! a new one (the samples and tests are made with it) from parameters, techniques, passes and
//! Direct3D 9 programs.
//!
//! ```
//! use shaderscope::Container;
//! use shaderscope::format::fx9::{Fx9, build};
//!
//! let bytes = build::example();
//! let fx = Fx9::parse(&bytes)?;
//! assert_eq!(build::write(&fx), bytes);
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::{BASE, Fx9, TAG, classes, types};

/// The bytes of `fx`: its header, its unstructured block as kept, and every record of the
/// structured part written from the model.
pub fn write(fx: &Fx9<'_>) -> Vec<u8> {
    let mut w = Words(Vec::with_capacity(fx.data.len()));
    w.u32(TAG);
    w.u32(fx.unstructured.len() as u32);
    w.0.extend_from_slice(fx.unstructured);
    w.u32(fx.parameters.len() as u32);
    w.u32(fx.techniques.len() as u32);
    w.u32(fx.shader_count);
    w.u32(fx.object_count);
    let annotations = |w: &mut Words, list: &[super::Annotation]| {
        for a in list {
            w.u32(a.type_offset);
            w.u32(a.value_offset);
        }
    };
    for p in &fx.parameters {
        w.u32(p.type_offset);
        w.u32(p.value_offset);
        w.u32(p.flags);
        w.u32(p.annotations.len() as u32);
        annotations(&mut w, &p.annotations);
    }
    for t in &fx.techniques {
        w.u32(t.name_offset);
        w.u32(t.annotations.len() as u32);
        w.u32(t.passes.len() as u32);
        annotations(&mut w, &t.annotations);
        for p in &t.passes {
            w.u32(p.name_offset);
            w.u32(p.annotations.len() as u32);
            w.u32(p.states.len() as u32);
            annotations(&mut w, &p.annotations);
            for s in &p.states {
                for v in [s.operation, s.index, s.type_offset, s.value_offset] {
                    w.u32(v);
                }
            }
        }
    }
    w.u32(fx.objects.len() as u32);
    w.u32(fx.resources.len() as u32);
    for o in &fx.objects {
        w.u32(o.id);
        w.u32(o.data.len() as u32);
        w.0.extend_from_slice(o.data);
        w.0.extend_from_slice(o.padding);
    }
    for r in &fx.resources {
        for v in [r.technique, r.index, r.element, r.state, r.usage, r.data.len() as u32] {
            w.u32(v);
        }
        w.0.extend_from_slice(r.data);
        w.0.extend_from_slice(r.padding);
    }
    w.0.extend_from_slice(fx.trailing);
    w.0
}

#[derive(Debug, Clone)]
struct Words(Vec<u8>);

impl Words {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// `bytes` padded with zeros to a multiple of 4.
    fn padded(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
        self.0.resize(self.0.len().next_multiple_of(4), 0);
    }
}

/// A pass as the builder keeps it: its name's offset and its states (operation, index, type
/// offset, value offset).
type PassRecord = (u32, Vec<[u32; 4]>);

/// A large object to write, when there is one: its usage and bytes.
type LargeObject = Option<(u32, Vec<u8>)>;

/// A new fx_2_0 effect, made as fxc lays one out: strings, types and values in the
/// unstructured block; shader-typed parameters' programs as small objects, passes' programs
/// as large objects.
///
/// ```
/// use shaderscope::format::fx9::{Fx9, build::Builder};
///
/// let mut b = Builder::new();
/// b.float4("Tint", Some("COLOR"), [1.0, 0.5, 0.25, 1.0]);
/// let t = b.technique("Main");
/// b.pass(t, "P0", None, None);
/// let fx = b.finish();
/// let parsed = Fx9::parse(&fx)?;
/// assert_eq!(parsed.parameters[0].ty.hlsl(), "float4");
/// assert_eq!(parsed.parameters[0].ty.semantic.as_deref(), Some("COLOR"));
/// assert_eq!(parsed.techniques[0].passes[0].name, "P0");
/// # Ok::<(), shaderscope::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    block: Words,
    parameters: Vec<[u32; 3]>,
    techniques: Vec<(u32, Vec<PassRecord>)>,
    objects: Vec<(u32, Vec<u8>)>,
    resources: Vec<([u32; 5], Vec<u8>)>,
    next_id: u32,
    shader_count: u32,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// An empty effect.
    pub fn new() -> Builder {
        // Offset 0 of the unstructured block means "none": it starts with a zero word.
        Builder {
            block: Words(vec![0; 4]),
            parameters: Vec::new(),
            techniques: Vec::new(),
            objects: Vec::new(),
            resources: Vec::new(),
            next_id: 1,
            shader_count: 0,
        }
    }

    fn here(&self) -> u32 {
        self.block.0.len() as u32
    }

    /// A string record (length with the NUL, bytes, padding); its offset.
    fn string(&mut self, s: &str) -> u32 {
        let at = self.here();
        self.block.u32(s.len() as u32 + 1);
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        self.block.padded(&bytes);
        at
    }

    /// A type record; its offset. `dims` are the class's two numbers in the record's order.
    fn type_record(
        &mut self,
        ty: u32,
        class: u32,
        name: &str,
        semantic: Option<&str>,
        elements: u32,
        dims: Option<[u32; 2]>,
    ) -> u32 {
        let name = if name.is_empty() { 0 } else { self.string(name) };
        let semantic = semantic.map_or(0, |s| self.string(s));
        let at = self.here();
        for v in [ty, class, name, semantic, elements] {
            self.block.u32(v);
        }
        for v in dims.into_iter().flatten() {
            self.block.u32(v);
        }
        at
    }

    /// A `float4` parameter with its default value.
    pub fn float4(&mut self, name: &str, semantic: Option<&str>, value: [f32; 4]) {
        let ty = self.type_record(3, classes::VECTOR, name, semantic, 0, Some([4, 1]));
        let at = self.here();
        for v in value {
            self.block.u32(v.to_bits());
        }
        self.parameters.push([ty, at, 0]);
    }

    /// A shader-typed parameter (`vertexshader NAME = compile …`) holding `program`.
    pub fn shader_parameter(&mut self, name: &str, vertex: bool, program: Vec<u8>) {
        let kind = if vertex { types::VERTEXSHADER } else { types::PIXELSHADER };
        let ty = self.type_record(kind, classes::OBJECT, name, None, 0, None);
        let at = self.here();
        let id = self.next_id;
        self.next_id += 1;
        self.block.u32(id);
        self.parameters.push([ty, at, 0]);
        self.objects.push((id, program));
    }

    /// An `int` parameter with its default value.
    pub fn int(&mut self, name: &str, value: i32) {
        let ty = self.type_record(2, classes::SCALAR, name, None, 0, Some([1, 1]));
        let at = self.here();
        self.block.u32(value as u32);
        self.parameters.push([ty, at, 0]);
    }

    /// A shader array parameter (`vertexshader NAME[N] = { compile …, … }`) holding
    /// `programs`, one object each.
    pub fn shader_array(&mut self, name: &str, vertex: bool, programs: Vec<Vec<u8>>) {
        let kind = if vertex { types::VERTEXSHADER } else { types::PIXELSHADER };
        let ty = self.type_record(kind, classes::OBJECT, name, None, programs.len() as u32, None);
        let at = self.here();
        for program in programs {
            let id = self.next_id;
            self.next_id += 1;
            self.block.u32(id);
            self.objects.push((id, program));
        }
        self.parameters.push([ty, at, 0]);
    }

    /// A technique; its index for [`Builder::pass`].
    pub fn technique(&mut self, name: &str) -> usize {
        let name = self.string(name);
        self.techniques.push((name, Vec::new()));
        self.techniques.len() - 1
    }

    /// A pass of technique `technique` that binds the vertex and pixel programs given (each
    /// stored as a large object of the pass's VertexShader / PixelShader state).
    pub fn pass(&mut self, technique: usize, name: &str, vertex: Option<Vec<u8>>, pixel: Option<Vec<u8>>) {
        self.pass_with(technique, name, vertex.map(|p| (0, p)), pixel.map(|p| (0, p)));
    }

    /// A pass of technique `technique` whose vertex (or pixel) shader is the element of
    /// shader array `array` that FXLVM code `selector` computes
    /// (`VertexShader = (array[expression])`): a large object of usage 2, the array's name
    /// then the code.
    pub fn pass_selecting(
        &mut self,
        technique: usize,
        name: &str,
        vertex: bool,
        array: &str,
        selector: &[u8],
    ) {
        let mut name_bytes = array.as_bytes().to_vec();
        name_bytes.push(0);
        name_bytes.resize(name_bytes.len().next_multiple_of(4), 0);
        let mut data = (name_bytes.len() as u32).to_le_bytes().to_vec();
        data.extend(name_bytes);
        data.extend_from_slice(selector);
        let chosen = Some((2, data));
        if vertex {
            self.pass_with(technique, name, chosen, None);
        } else {
            self.pass_with(technique, name, None, chosen);
        }
    }

    /// A pass whose vertex and pixel shader states are each filled by a large object:
    /// `(usage, bytes)`.
    fn pass_with(&mut self, technique: usize, name: &str, vertex: LargeObject, pixel: LargeObject) {
        let name = if name.is_empty() { 0 } else { self.string(name) };
        let pass = self.techniques.get(technique).map_or(0, |t| t.1.len()) as u32;
        let mut states = Vec::new();
        for (vertex, object) in [(true, vertex), (false, pixel)] {
            let Some((usage, data)) = object else { continue };
            let (operation, kind) =
                if vertex { (0x92, types::VERTEXSHADER) } else { (0x93, types::PIXELSHADER) };
            let ty = self.type_record(kind, classes::OBJECT, "", None, 0, None);
            let at = self.here();
            let id = self.next_id;
            self.next_id += 1;
            self.block.u32(id);
            let state = states.len() as u32;
            states.push([operation, 0, ty, at]);
            self.resources.push(([technique as u32, pass, u32::MAX, state, usage], data));
            if usage == 0 {
                self.shader_count += 1;
            }
        }
        if let Some(t) = self.techniques.get_mut(technique) {
            t.1.push((name, states));
        }
    }

    /// The effect's bytes.
    pub fn finish(self) -> Vec<u8> {
        let mut w = Words(Vec::new());
        w.u32(TAG);
        w.u32(self.block.0.len() as u32);
        w.0.extend_from_slice(&self.block.0);
        w.u32(self.parameters.len() as u32);
        w.u32(self.techniques.len() as u32);
        w.u32(self.shader_count);
        w.u32(self.next_id);
        for p in &self.parameters {
            for v in p.iter().chain(&[0]) {
                w.u32(*v);
            }
        }
        for (name, passes) in &self.techniques {
            for v in [*name, 0, passes.len() as u32] {
                w.u32(v);
            }
            for (name, states) in passes {
                for v in [*name, 0, states.len() as u32] {
                    w.u32(v);
                }
                for s in states.iter().flatten() {
                    w.u32(*s);
                }
            }
        }
        w.u32(self.objects.len() as u32);
        w.u32(self.resources.len() as u32);
        for (id, data) in &self.objects {
            w.u32(*id);
            w.u32(data.len() as u32);
            w.padded(data);
        }
        for (head, data) in &self.resources {
            for v in head {
                w.u32(*v);
            }
            w.u32(data.len() as u32);
            w.padded(data);
        }
        debug_assert_eq!(BASE, 8);
        w.0
    }
}

/// `effect` as XNA Game Studio 4's content pipeline stores it (`samples/effect.xnb` is the
/// sample effect so): after XNA's effect header, with `words` between the header and the
/// effect, in an XNB file for `platform`, HiDef, uncompressed.
///
/// ```
/// use shaderscope::format::fx9::{Fx9, build};
/// let bytes = build::xna_content(&build::example(), &[0; 8], b'w')?;
/// let fx = Fx9::parse(&bytes)?;
/// assert_eq!((fx.xnb.unwrap().platform, fx.xna.unwrap().words), (b'w', vec![0; 8]));
/// assert_eq!(fx.effect, &build::example()[..]);
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub fn xna_content(effect: &[u8], words: &[u8], platform: u8) -> crate::Result<Vec<u8>> {
    let mut code = Vec::new();
    super::XnaHeader { at: 0, words: words.to_vec() }.write(&mut code);
    code.extend_from_slice(effect);
    crate::format::xnb::Xnb::effect(platform).write(&code, false)
}

/// The sample effect (`samples/effect.fxo`): a `Tint` parameter, a named vertex shader
/// parameter, and technique `Main` whose pass `P0` binds a vertex and a pixel shader.
pub fn example() -> Vec<u8> {
    let program = |text: &str| crate::isa::d3d9::asm::parse_program(text).unwrap_or_default();
    let vs = program("vs_2_0\ndcl_position v0\nmov oPos, v0\n");
    let ps = program("ps_2_0\ndcl v0\nmov oC0, v0\n");
    let mut b = Builder::new();
    b.float4("Tint", Some("COLOR"), [1.0, 0.5, 0.25, 1.0]);
    b.shader_parameter("PassThroughVS", true, vs.clone());
    let t = b.technique("Main");
    b.pass(t, "P0", Some(vs), Some(ps));
    b.finish()
}

/// An effect with `int CurNumBones`, `vertexshader vsArray[2]` and a pass whose vertex shader
/// is `vsArray[CurNumBones + 1]` (fxc's Effect_ShaderArray): the selector is FXLVM code,
/// `add c0.x, c0.x, (1)` over a constant table naming the parameter. `bones` is the
/// parameter's default: with 0, the pass lists `vsArray[1]`.
///
/// ```
/// use shaderscope::format::fx9::{Binding, Fx9, build};
/// let bytes = build::selector_example(0);
/// let fx = Fx9::parse(&bytes)?;
/// assert!(matches!(fx.state_shader(0, 0, 0), Binding::Selected { by_default: Some((1, _)), .. }));
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub fn selector_example(bones: i32) -> Vec<u8> {
    use crate::isa::d3d9::ctab::{Constant, ConstantTable, Type as CtabType};
    use crate::isa::fxlvm::{Expression, Instruction, Operand};
    let program = |n: u32| {
        crate::isa::d3d9::asm::parse_program(&format!("vs_2_0\ndef c0, {n}, 0, 0, 0\nmov oPos, c0.x\n"))
            .unwrap_or_default()
    };
    let ty = CtabType { class: 0, ty: 2, rows: 1, columns: 1, elements: 1, members: Vec::new() };
    let constant = Constant {
        name: "CurNumBones".into(),
        register_set: 2,
        register_index: 0,
        register_count: 1,
        reserved: 0,
        ty,
        default_value: 0,
    };
    let inputs = ConstantTable {
        offset: 0,
        size: 28,
        creator: "shaderscope".into(),
        version: 0x4658_0201,
        flags: 0,
        target: "tx".into(),
        constants: vec![constant],
    };
    let o = |set, item| Operand { set, item, array: None };
    let add = Instruction {
        offset: 0,
        // add, in its scalar form.
        opcode: 0x204,
        scalar: true,
        components: 1,
        sources: vec![o(2, 0), o(1, 0)],
        destination: o(4, 0),
    };
    let selector = Expression {
        offset: 0,
        version: 0x4658_0201,
        inputs: Some(inputs),
        literals: vec![1.0],
        cli4: Vec::new(),
        instructions: vec![add],
    };
    let mut b = Builder::new();
    b.int("CurNumBones", bones);
    b.shader_array("vsArray", true, vec![program(1), program(2)]);
    let t = b.technique("Technique1");
    b.pass_selecting(t, "", true, "vsArray", &selector.write());
    b.finish()
}
