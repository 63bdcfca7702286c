//! Effects built from a model, through the writer: the sample (`samples/effect.mgfxo`) and
//! test inputs. The model is what MonoGame's compiler would write for an effect of one
//! technique with one pass, a vertex shader that transforms by a matrix in a constant buffer
//! and a pixel shader that returns a constant colour. For DirectX_11 both shaders are DXBC
//! containers made by the project's assembler from their listings; for OpenGL they are the
//! GLSL text MojoShader makes of such shaders.
//!
//! ```
//! use shaderscope::Container;
//! use shaderscope::format::mgfx::{Mgfx, build};
//!
//! let bytes = build::example();
//! let fx = Mgfx::parse(&bytes)?;
//! assert_eq!(fx.write()?, bytes);
//! assert_eq!(fx.embedded().len(), 2); // its vertex and pixel shader, DXBC containers
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::{
    Attribute, ConstantBuffer, Mgfx, Parameter, Pass, Profile, Shader, StateBlock, StateKind, Str, Technique,
};
use std::borrow::Cow;

/// The vertex shader's listing (fxc's layout, so that the signatures are written too).
const VERTEX_LISTING: &str = "\
//
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
// SV_Position              0   xyzw        0      POS   float   xyzw
//
vs_4_0
dcl_constantbuffer cb0[4], immediateIndexed
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dp4 o0.x, v0.xyzw, cb0[0].xyzw
dp4 o0.y, v0.xyzw, cb0[1].xyzw
dp4 o0.z, v0.xyzw, cb0[2].xyzw
dp4 o0.w, v0.xyzw, cb0[3].xyzw
ret
";

/// The pixel shader's listing.
const PIXEL_LISTING: &str = "\
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// no Input
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_4_0
dcl_output o0.xyzw
mov o0.xyzw, l(1.000000, 0.500000, 0.000000, 1.000000)
ret
";

/// The GLSL text of the vertex shader, as MojoShader writes it for MonoGame.
const VERTEX_GLSL: &str = "\
#ifdef GL_ES
precision highp float;
precision mediump int;
#endif

uniform vec4 vs_uniforms_vec4[4];
attribute vec4 vs_v0;
#define vs_o0 gl_Position

void main()
{
\tvs_o0.x = dot(vs_v0, vs_uniforms_vec4[0]);
\tvs_o0.y = dot(vs_v0, vs_uniforms_vec4[1]);
\tvs_o0.z = dot(vs_v0, vs_uniforms_vec4[2]);
\tvs_o0.w = dot(vs_v0, vs_uniforms_vec4[3]);
}
";

/// The GLSL text of the pixel shader.
const PIXEL_GLSL: &str = "\
#ifdef GL_ES
precision mediump float;
precision mediump int;
#endif

const vec4 ps_c0 = vec4(1.0, 0.5, 0.0, 1.0);
#define ps_oC0 gl_FragColor

void main()
{
\tps_oC0 = ps_c0;
}
";

/// A DXBC container assembled from `listing`; the listings above assemble, so an error here
/// is the assembler's (the result is then empty, which the tests see).
fn assemble(listing: &str) -> Vec<u8> {
    crate::asm::assemble(listing, None).map(|a| a.bytes).unwrap_or_default()
}

/// A DXBC container of one `DXIL` part: a shader model 6 program header over bitcode that
/// is only LLVM's magic (a stand-in for DXC's output: the effect's structure is what is
/// tested).
fn dxil(program_version: u32) -> Vec<u8> {
    let mut b = crate::format::dxbc::write::Builder::new();
    b.push(*b"DXIL", crate::format::dxbc::dxil::program_part(program_version, 0x100, b"BC\xc0\xde"));
    b.finish().unwrap_or_default()
}

fn shader(
    is_vertex: bool,
    origin: Option<(Str, Str)>,
    code: Vec<u8>,
    cbuffers: Vec<u8>,
    attributes: Vec<Attribute>,
) -> Shader<'static> {
    Shader {
        at: 0,
        is_vertex: u8::from(is_vertex),
        origin,
        code_at: 0,
        code: Cow::Owned(code),
        samplers: Vec::new(),
        cbuffers,
        attributes,
    }
}

/// The example effect's model at `version` (7 to 11) and `profile` (DirectX_12's shaders are
/// DXIL stand-ins; from version 11 each shader names `Effect.fx` and its entry point).
pub fn effect(version: u8, profile: Profile) -> Mgfx<'static> {
    let (vertex, pixel, attributes) = match profile {
        Profile::DirectX11 => (assemble(VERTEX_LISTING), assemble(PIXEL_LISTING), Vec::new()),
        Profile::DirectX12 => (dxil(0x0001_0060), dxil(0x0000_0060), Vec::new()),
        Profile::OpenGl => (
            VERTEX_GLSL.as_bytes().to_vec(),
            PIXEL_GLSL.as_bytes().to_vec(),
            vec![Attribute { name: Str::new("vs_v0"), usage: 0, index: 0, location: 0 }],
        ),
    };
    let origin = |entry: &str| (version > 10).then(|| (Str::new("Effect.fx"), Str::new(entry)));
    // Version 7's DirectX_11 effects carry no names and no attributes.
    let named = super::names(version, profile.byte());
    let attributes = if named { attributes } else { Vec::new() };
    // An identity matrix.
    let one = 1.0f32.to_bits();
    let values = (0..16).map(|i| if i % 5 == 0 { one } else { 0 }).collect();
    let matrix = Parameter {
        at: 0,
        class: 2,
        ty: 3,
        name: Str::new("WorldViewProj"),
        semantic: Str::new(""),
        rows: 4,
        columns: 4,
        elements: Vec::new(),
        members: Vec::new(),
        values,
    };
    // CullMode None, no depth bias, FillMode Solid, no multisampling, no scissor test.
    let rasterizer = vec![0u8; StateKind::Rasterizer.size()];
    let pass = Pass {
        at: 0,
        name: Str::new("P0"),
        index_at: 0,
        vertex_shader: 0,
        pixel_shader: 1,
        blend: None,
        depth_stencil: None,
        rasterizer: Some(StateBlock::new(StateKind::Rasterizer, rasterizer)),
    };
    Mgfx {
        data: &[],
        xnb: None,
        at: 0,
        version,
        profile: profile.byte(),
        key: 0x5eed_f00d,
        constant_buffers: vec![ConstantBuffer {
            at: 0,
            name: Str::new(if named { "Parameters" } else { "" }),
            size: 64,
            parameters: vec![(0, 0)],
        }],
        shaders: vec![
            shader(true, origin("VS"), vertex, vec![0], attributes),
            shader(false, origin("PS"), pixel, Vec::new(), Vec::new()),
        ],
        parameters: vec![matrix],
        techniques: vec![Technique { at: 0, name: Str::new("Solid"), passes: vec![pass] }],
        trailing: Cow::Borrowed(&[]),
    }
}

/// The bytes of [`effect`]`(version, profile)`.
pub fn effect_bytes(version: u8, profile: Profile) -> Vec<u8> {
    effect(version, profile).write_model().unwrap_or_default()
}

/// The sample, `samples/effect.mgfxo`: version 10, DirectX_11.
pub fn example() -> Vec<u8> {
    effect_bytes(10, Profile::DirectX11)
}

/// The same effect for OpenGL (GLSL text shaders), version 10.
pub fn example_opengl() -> Vec<u8> {
    effect_bytes(10, Profile::OpenGl)
}
