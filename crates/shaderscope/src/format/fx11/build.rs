//! Effects built from a model in code, for examples, tests and the shipped sample
//! (`samples/effect11.fxo`): one constant buffer with one `float4` (with a default value), one
//! technique of one pass that binds a vertex and a pixel shader, each assembled from its
//! listing by the project's assembler and written by the DXBC writer. The writer lays out the
//! unstructured block (strings, the type, the default value, the shader blocks) and counts
//! every offset and size itself.
//!
//! ```
//! use shaderscope::Container;
//! use shaderscope::format::fx11::{Fx11, build};
//!
//! let bytes = build::example_fx_4_0();
//! let fx = Fx11::parse(&bytes)?;
//! assert_eq!((fx.profile(), fx.container.is_some()), ("fx_4_0", true));
//! assert!(fx.validate().is_empty());
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::{TAG_FX_4_0, TAG_FX_5_0, assign};

/// What an example effect holds.
#[derive(Debug, Clone)]
pub struct Spec<'s> {
    /// fx_5_0 (a bare blob with a group) or fx_4_0 (in a DXBC container).
    pub fx5: bool,
    /// The constant buffer's name.
    pub cbuffer: &'s str,
    /// The variable's name (a `float4` at offset 0).
    pub variable: &'s str,
    /// Its default value.
    pub default: [f32; 4],
    /// The technique's name.
    pub technique: &'s str,
    /// The pass's name.
    pub pass: &'s str,
    /// The vertex shader (a whole DXBC file).
    pub vertex: Vec<u8>,
    /// The pixel shader (a whole DXBC file).
    pub pixel: Vec<u8>,
    /// Further states of the pass, each set by FX 4 expression code (`DepthFunc = i + 2`):
    /// the state's number and the code ([`crate::isa::fxlvm::Expression::write_fx4`]).
    pub expressions: Vec<(u32, Vec<u8>)>,
}

/// The unstructured block as it is laid out: every offset is where a piece starts.
struct Heap(Vec<u8>);

impl Heap {
    fn at(&self) -> u32 {
        self.0.len() as u32
    }
    fn string(&mut self, s: &str) -> u32 {
        let at = self.at();
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        at
    }
    /// Words start on a multiple of 4 (fxc does not align them; readers take either).
    fn words(&mut self, w: &[u32]) -> u32 {
        while self.0.len() % 4 != 0 {
            self.0.push(0);
        }
        let at = self.at();
        for x in w {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
        at
    }
    fn block(&mut self, bytes: &[u8]) -> u32 {
        let at = self.words(&[bytes.len() as u32]);
        self.0.extend_from_slice(bytes);
        at
    }
}

fn put(out: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// The effect `spec` describes, as fxc lays one out.
pub fn effect(spec: &Spec<'_>) -> Vec<u8> {
    let mut heap = Heap(vec![0; 4]);
    let cb_name = heap.string(spec.cbuffer);
    let type_name = heap.string("float4");
    // float4: numeric, 16 bytes; layout 2 (vector), scalar type 1 (float), 1 row, 4 columns.
    let desc = 2 | (1 << 3) | (1 << 8) | (4 << 11);
    let ty = heap.words(&[type_name, 1, 0, 16, 16, 16, desc]);
    let var_name = heap.string(spec.variable);
    let default = heap.words(&spec.default.map(f32::to_bits));
    let technique = heap.string(spec.technique);
    let pass = heap.string(spec.pass);
    let vs = heap.block(&spec.vertex);
    let ps = heap.block(&spec.pixel);
    let expressions: Vec<(u32, u32)> =
        spec.expressions.iter().map(|(state, code)| (*state, heap.block(code))).collect();
    // The inline shaders' initializers: SBinaryShaderData5 (fx_5) or {oShader, oSODecl}.
    let (kind, vs_init, ps_init) = if spec.fx5 {
        let unbound = |s: u32| [s, 0, 0, 0, 0, 0, 0, 0, 0];
        (assign::INLINE_SHADER_5, heap.words(&unbound(vs)), heap.words(&unbound(ps)))
    } else {
        (assign::INLINE_SHADER, heap.words(&[vs, 0]), heap.words(&[ps, 0]))
    };
    let mut structured = Vec::new();
    // cbuffer: name, size, flags, 1 variable, no bind point; no annotations.
    put(&mut structured, &[cb_name, 16, 0, 1, u32::MAX, 0]);
    // The variable: name, type, no semantic, offset 0, default, flags; no annotations.
    put(&mut structured, &[var_name, ty, 0, 0, default, 0, 0]);
    if spec.fx5 {
        // One unnamed group of one technique, no annotations.
        put(&mut structured, &[0, 1, 0]);
    }
    put(&mut structured, &[technique, 1, 0, pass, 2 + expressions.len() as u32, 0]);
    // VertexShader (state 6) and PixelShader (state 7), inline.
    put(&mut structured, &[6, 0, kind, vs_init, 7, 0, kind, ps_init]);
    for (state, code) in expressions {
        put(&mut structured, &[state, 0, assign::EXPRESSION, code]);
    }
    let mut header = vec![if spec.fx5 { TAG_FX_5_0 } else { TAG_FX_4_0 }];
    // 1 cbuffer, 1 numeric variable, no objects, no pool, 1 technique, the unstructured size,
    // no strings/resources/state blocks/views, 2 shaders, both inline.
    header.extend([1, 1, 0, 0, 0, 0, 1, heap.at(), 0, 0, 0, 0, 0, 0, 0, 0, 2, 2]);
    if spec.fx5 {
        // 1 group, no UAVs, no interfaces.
        header.extend([1, 0, 0, 0, 0]);
    }
    let mut blob = Vec::new();
    put(&mut blob, &header);
    blob.extend_from_slice(&heap.0);
    blob.extend_from_slice(&structured);
    if spec.fx5 {
        return blob;
    }
    let mut b = crate::format::dxbc::write::Builder::new();
    b.push(*b"FX10", blob);
    // The writer computes every size and the checksum; it cannot fail on one small chunk.
    b.finish().unwrap_or_default()
}

const VERTEX: &str = "//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_POSITION              0   xyzw        0      POS   float   xyzw
//
vs_5_0
dcl_globalFlags refactoringAllowed
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
mov o0.xyzw, v0.xyzw
ret 
// Approximately 2 instruction slots used
";

const PIXEL: &str = "//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_POSITION              0   xyzw        0      POS   float       
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TARGET                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[1], immediateIndexed
dcl_output o0.xyzw
mov o0.xyzw, cb0[0].xyzw
ret 
// Approximately 2 instruction slots used
";

/// A shader assembled from its listing (the listings above assemble).
fn shader(listing: &str) -> Vec<u8> {
    crate::asm::assemble(listing, None).map(|a| a.bytes).unwrap_or_default()
}

/// The example's description for `fx5` (fx_5_0 with vs_5_0/ps_5_0, or fx_4_0 with
/// vs_4_0/ps_4_0).
pub fn example_spec(fx5: bool) -> Spec<'static> {
    let (vs, ps) = if fx5 {
        (shader(VERTEX), shader(PIXEL))
    } else {
        let four = |s: &str, m5: &str, m4: &str| {
            shader(&s.replace("dcl_globalFlags refactoringAllowed\n", "").replace(m5, m4))
        };
        (four(VERTEX, "vs_5_0", "vs_4_0"), four(PIXEL, "ps_5_0", "ps_4_0"))
    };
    Spec {
        fx5,
        cbuffer: "$Globals",
        variable: "tint",
        default: [1.0, 0.5, 0.25, 1.0],
        technique: "Render",
        pass: "P0",
        vertex: vs,
        pixel: ps,
        expressions: Vec::new(),
    }
}

/// The fx_5_0 example (`samples/effect11.fxo`).
pub fn example() -> Vec<u8> {
    effect(&example_spec(true))
}

/// The same effect as fx_4_0, in its DXBC container.
pub fn example_fx_4_0() -> Vec<u8> {
    effect(&example_spec(false))
}

/// The fx_4_0 example with one more state in its pass, `DepthFunc`, set by FX 4 code:
/// `imul r0.x, c0.x, (3)` then `iadd expr.x, r0.x, c0.y` (no constant table: fxc's listing
/// names the registers by number).
///
/// ```
/// use shaderscope::Container;
/// use shaderscope::format::fx11::{Fx11, build};
/// let bytes = build::expression_example();
/// assert!(Fx11::parse(&bytes)?.info_text().contains("DepthFunc = eval(imul r0.x, c0.x, (3); "));
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub fn expression_example() -> Vec<u8> {
    use crate::isa::fxlvm::{Expression, Instruction, Operand};
    let o = |set, item| Operand { set, item, array: None };
    let op = |opcode, sources: Vec<Operand>, destination| Instruction {
        offset: 0,
        opcode,
        scalar: false,
        components: 1,
        sources,
        destination,
    };
    let code = Expression {
        offset: 0,
        version: 0,
        inputs: None,
        literals: Vec::new(),
        cli4: vec![3],
        instructions: vec![
            op(0x219, vec![o(2, 0), o(1, 0)], o(7, 0)),
            op(0x216, vec![o(7, 0), o(2, 1)], o(4, 0)),
        ],
    };
    let mut spec = example_spec(false);
    // DepthFunc's number in FX11's state table.
    let depth_func = super::states::STATES.iter().position(|s| s.name == "DepthFunc");
    spec.expressions.extend(depth_func.map(|n| (n as u32, code.write_fx4())));
    effect(&spec)
}
