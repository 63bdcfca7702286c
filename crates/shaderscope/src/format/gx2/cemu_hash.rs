//! The hashes Cemu keys a shader by: the base hash and the auxiliary hash that name its
//! shader dumps and graphic-pack replacements, `<base>_<aux>_vs.txt` (`_gs`, `_ps`), both
//! printed as 16 hexadecimal digits.
//!
//! Read from Cemu's public source (cemu-project/Cemu, `src/Cafe/HW/Latte/Core/LatteShader.cpp`,
//! `FetchShader.cpp`; `src/Cafe/OS/libs/gx2/GX2_shader_legacy.cpp` and `GX2_Shader.cpp` for the
//! registers GX2 loads from a shader struct), for the OpenGL and Vulkan renderers (the Metal
//! renderer mixes in more state):
//!
//! - **Program hash** ([`program_hashes`]): over the program's 32-bit words as the host reads
//!   them (little-endian, the microcode's own order): `h1 = rotl(h1 + w, 3)`,
//!   `h2 = rotr(h2 ^ w, 7)`, from 0. The length hashed is what GX2 loads into `SQ_PGM_SIZE`
//!   (`size >> 3`, in 8-byte units), so the size rounded down to 8 ([`hashed_len`]).
//! - **PS input key** ([`ps_input_key`]): from `SPI_PS_IN_CONTROL_0` (NUM_INTERP, the
//!   position and parameter-generation fields) and the first NUM_INTERP `SPI_PS_INPUT_CNTL_n`
//!   words, which `GX2SetPixelShader` loads from the pixel shader's registers.
//! - **Base hash**: pixel `h1 + h2 + ps input key` (plus the geometry program's `h1` when a
//!   geometry shader runs); geometry `h1 + h2 + the vertex shader's ring parameter count`
//!   (+21 with stream-out); vertex `h1 + h2 + fetch shader key + ps input key` plus draw state
//!   ([`VertexState`]). The vertex hash therefore depends on the fetch shader GX2 builds from
//!   the application's attribute streams, which no shader file contains.
//! - **Aux hash**: pixel from `CB_SHADER_MASK`, the alpha test and the dimension of each
//!   texture the shader samples ([`pixel_aux_hash`]); vertex from the stream-out strides and
//!   integer-format textures ([`vertex_aux_hash`]); geometry 0.
//!
//! ```
//! use shaderscope::format::gx2::cemu_hash::{self, Stage};
//!
//! // A pixel shader with one interpolated input (semantic 0) and no texture.
//! let code = [0u8; 16];
//! let key = cemu_hash::ps_input_key(0x1, &[0x100]);
//! let base = cemu_hash::pixel_base_hash(&code, key, None);
//! let aux = cemu_hash::pixel_aux_hash(0xf, None, &[]);
//! assert_eq!(cemu_hash::file_name(base, aux, Stage::Pixel), "0000000000008000_000000000000000f_ps");
//! ```

/// Which kind of shader a name is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// `_vs`.
    Vertex,
    /// `_gs`.
    Geometry,
    /// `_ps`.
    Pixel,
}

/// `<base>_<aux>_<vs|gs|ps>`: the name of a shader in Cemu's `dump/shaders` folder and in a
/// graphic pack (with `.txt` for GLSL, `.bin` for the raw program).
pub fn file_name(base: u64, aux: u64, stage: Stage) -> String {
    let suffix = match stage {
        Stage::Vertex => "vs",
        Stage::Geometry => "gs",
        Stage::Pixel => "ps",
    };
    format!("{base:016x}_{aux:016x}_{suffix}")
}

/// The number of program bytes Cemu hashes for a shader struct whose program size field is
/// `size`: GX2 loads `size >> 3` into `SQ_PGM_SIZE_*` and Cemu reads it back `<< 3`.
pub fn hashed_len(size: u32) -> usize {
    (size & !7) as usize
}

/// `_calcShaderHashGeneric`: the two running hashes over the 32-bit little-endian words of
/// `code` (a trailing part of fewer than four bytes is not hashed). Pass the program's first
/// [`hashed_len`] bytes.
pub fn program_hashes(code: &[u8]) -> (u64, u64) {
    let mut h1 = 0u64;
    let mut h2 = 0u64;
    for w in code.chunks_exact(4).filter_map(|w| w.first_chunk::<4>()) {
        let w = u64::from(u32::from_le_bytes(*w));
        h1 = h1.wrapping_add(w).rotate_left(3);
        h2 = (h2 ^ w).rotate_right(7);
    }
    (h1, h2)
}

/// `LatteShader_CreatePSInputTable`'s key: from `SPI_PS_IN_CONTROL_0` and the
/// `SPI_PS_INPUT_CNTL_n` words (`spi_ps_input_cntl[n]`; the first NUM_INTERP of them, at most
/// 32, are used; a missing one counts as 0).
pub fn ps_input_key(spi_ps_in_control_0: u32, spi_ps_input_cntl: &[u32]) -> u64 {
    let c0 = spi_ps_in_control_0;
    let position = (c0 >> 8) & 1 != 0;
    let position_addr = if position { (c0 >> 10) & 0x1f } else { u32::MAX };
    let param_gen = u64::from((c0 >> 15) & 0xf);
    let param_gen_addr = u64::from((c0 >> 19) & 0x7f);
    let inputs = (c0 & 0x3f).min(32);
    let mut key = 0u64;
    if position {
        key = key.wrapping_add(u64::from(position_addr) + 1);
    }
    if param_gen != 0 {
        key = key.wrapping_add(param_gen.rotate_right(7));
        key = key.wrapping_add(param_gen_addr.rotate_right(3));
    }
    for f in 0..inputs {
        let cntl = spi_ps_input_cntl.get(f as usize).copied().unwrap_or(0);
        key = key.wrapping_add(u64::from(cntl)).rotate_left(7);
        if f == position_addr {
            key = key.wrapping_add(0x33);
        }
    }
    key
}

/// The pixel shader's base hash: its program hashes plus the PS input key, plus the geometry
/// program's first hash (`h1` of [`program_hashes`]) when a geometry shader runs.
pub fn pixel_base_hash(code: &[u8], ps_input_key: u64, geometry_h1: Option<u64>) -> u64 {
    let (h1, h2) = program_hashes(code);
    h1.wrapping_add(h2).wrapping_add(ps_input_key).wrapping_add(geometry_h1.unwrap_or(0))
}

/// The geometry shader's base hash: its program hashes, plus the number of ring parameters
/// the vertex shader (running as the export shader) writes, plus 21 when stream-out is on.
pub fn geometry_base_hash(code: &[u8], ring_parameter_count: u64, streamout: bool) -> u64 {
    let (h1, h2) = program_hashes(code);
    h1.wrapping_add(h2).wrapping_add(ring_parameter_count).wrapping_add(if streamout { 21 } else { 0 })
}

/// The draw state a vertex shader's base hash mixes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexState {
    /// The fetch shader's key (`LatteShader_calculateFSKey`, from its attribute formats,
    /// swizzles, buffers and semantics).
    pub fetch_shader_key: u64,
    /// The PS input key of the pixel shader drawn with it ([`ps_input_key`]).
    pub ps_input_key: u64,
    /// A geometry shader runs (+0x1111).
    pub geometry_shader: bool,
    /// `PA_CL_VTE_CNTL` (`GX2SetDefaultState` sets 0x43f, which adds nothing).
    pub pa_cl_vte_cntl: u32,
    /// `VGT_PRIMITIVE_TYPE` (1 points: +71; 0x11 rects: +13).
    pub primitive_type: u32,
    /// `VGT_STRMOUT_EN` is set (+21).
    pub streamout: bool,
    /// `PA_CL_CLIP_CNTL.DX_CLIP_SPACE_DEF` (GX2's half-Z, +0x1537).
    pub dx_clip_space: bool,
}

impl Default for VertexState {
    /// GX2's default state drawing triangles: nothing added but the two keys.
    fn default() -> Self {
        VertexState {
            fetch_shader_key: 0,
            ps_input_key: 0,
            geometry_shader: false,
            pa_cl_vte_cntl: 0x43f,
            primitive_type: 4,
            streamout: false,
            dx_clip_space: false,
        }
    }
}

/// The vertex shader's base hash (`LatteSHRC_UpdateVSBaseHash`, OpenGL and Vulkan).
pub fn vertex_base_hash(code: &[u8], state: &VertexState) -> u64 {
    let (h1, h2) = program_hashes(code);
    let mut h = h1
        .wrapping_add(h2)
        .wrapping_add(state.fetch_shader_key)
        .wrapping_add(state.ps_input_key)
        .wrapping_add(if state.geometry_shader { 0x1111 } else { 0 });
    h = h.wrapping_add(u64::from(state.pa_cl_vte_cntl ^ 0x43f));
    match state.primitive_type & 0x3f {
        0x11 => h = h.wrapping_add(13),
        0x1 => h = h.wrapping_add(71),
        _ => {}
    }
    if state.streamout {
        h = h.wrapping_add(21);
    }
    if state.dx_clip_space {
        h = h.wrapping_add(0x1537);
    }
    h
}

/// The pixel shader's aux hash (`LatteSHRC_CalcPSAuxHash`, OpenGL and Vulkan): `CB_SHADER_MASK`,
/// the alpha test function (`SX_ALPHA_TEST_CONTROL`, when enabled), then the `SQ_TEX_DIM` of
/// the texture bound to each unit the shader samples, in unit order (0 1D, 1 2D, 2 3D,
/// 3 cube map, 4 1D array, 5 2D array, 6 2D MSAA, 7 2D MSAA array).
pub fn pixel_aux_hash(cb_shader_mask: u32, alpha_test: Option<u32>, texture_dims: &[u32]) -> u64 {
    let mut h = 0u64.rotate_right(3).wrapping_add(u64::from(cb_shader_mask));
    if let Some(func) = alpha_test {
        h = h.wrapping_add(u64::from(func & 7)).rotate_right(3).wrapping_add(1);
    }
    for &dim in texture_dims {
        h = h.rotate_left(3).wrapping_add(u64::from(dim & 7));
    }
    h
}

/// The vertex shader's aux hash (`LatteSHRC_CalcVSAuxHash`): the stride register
/// (`VGT_STRMOUT_VTX_STRIDE_n`, the byte stride `>> 2` as GX2 loads it) of each stream-out
/// buffer the shader writes, in buffer order, plus 0x333 per integer-format texture it samples.
pub fn vertex_aux_hash(streamout_strides: &[u32], integer_textures: usize) -> u64 {
    let mut h = 0u64;
    for &s in streamout_strides {
        h = h.rotate_left(7).wrapping_add(u64::from(s));
    }
    let mut t = 0u64;
    for _ in 0..integer_textures {
        t = t.rotate_left(7).wrapping_add(0x333);
    }
    h.wrapping_add(t)
}

/// The geometry shader's aux hash (`LatteSHRC_CalcGSAuxHash`): always 0.
pub(crate) const GEOMETRY_AUX_HASH: u64 = 0;

/// The `SQ_TEX_DIM` of a texture of the kind a `GX2SamplerVarType` declares (what a pixel
/// shader's aux hash counts when the bound textures match their samplers): 1D, 2D, 3D, cube,
/// their arrays, shadow and multisample forms (types 0 to 18); `None` for the buffer type and
/// the types past 18 (the integer forms, whose numbering is not pinned down here).
pub(crate) fn sampler_dim(sampler_type: u32) -> Option<u32> {
    // 0 1D, 1 2D, 2 2D_RECT, 3 3D, 4 CUBE, 5 1D_SHADOW, 6 2D_SHADOW, 7 2D_RECT_SHADOW,
    // 8 CUBE_SHADOW, 9 1D_ARRAY, 10 2D_ARRAY, 11 1D_ARRAY_SHADOW, 12 2D_ARRAY_SHADOW,
    // 13 CUBE_ARRAY, 14 CUBE_ARRAY_SHADOW, 15 BUFFER, 16 reserved, 17 2D_MS, 18 2D_MS_ARRAY.
    const DIMS: [Option<u32>; 19] = [
        Some(0),
        Some(1),
        Some(1),
        Some(2),
        Some(3),
        Some(0),
        Some(1),
        Some(1),
        Some(3),
        Some(4),
        Some(5),
        Some(4),
        Some(5),
        Some(3),
        Some(3),
        None,
        None,
        Some(6),
        Some(7),
    ];
    DIMS.get(sampler_type as usize).copied().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_hash_by_hand() {
        // One word 1: h1 = rotl(1, 3) = 8; h2 = rotr(1, 7) = 1 << 57.
        assert_eq!(program_hashes(&[1, 0, 0, 0]), (8, 1 << 57));
        // Then word 2: h1 = rotl(8 + 2, 3) = 0x50; h2 = rotr((1 << 57) ^ 2, 7)
        // = (1 << 50) | (2 << 57).
        assert_eq!(program_hashes(&[1, 0, 0, 0, 2, 0, 0, 0]), (0x50, (1 << 50) | (1 << 58)));
        // Words are little-endian; a partial last word is not hashed.
        assert_eq!(program_hashes(&[0, 0, 0, 0x80, 9]), (0x4_0000_0000, 0x0100_0000));
        // The carry out of the top bit wraps: 0xffffffff three times.
        let (h1, _) = program_hashes(&[0xff; 12]);
        let mut x = 0u64;
        for _ in 0..3 {
            x = (x + 0xffff_ffff).rotate_left(3);
        }
        assert_eq!(h1, x);
        assert_eq!(hashed_len(0x4257), 0x4250);
        assert_eq!(hashed_len(0x40), 0x40);
    }

    #[test]
    fn ps_input_key_by_hand() {
        // Two inputs, no position: ((0x100) rotl 7 + 0x101) rotl 7.
        let k = ps_input_key(2, &[0x100, 0x101]);
        assert_eq!(k, ((0x100u64 << 7) + 0x101) << 7);
        assert_eq!(k, 0x40_8080);
        // Position in input 1 (POSITION_ENA bit 8, POSITION_ADDR 1 at bit 10): 1 + 1 first,
        // then 0x33 after input 1.
        let c0 = 2 | (1 << 8) | (1 << 10);
        assert_eq!(ps_input_key(c0, &[0x100, 0x101]), ((((2 + 0x100u64) << 7) + 0x101) << 7) + 0x33);
        // Parameter generation 0x3 at GPR 5: rotr(3, 7) + rotr(5, 3).
        let c0 = 3 << 15 | 5 << 19;
        assert_eq!(ps_input_key(c0, &[]), 3u64.rotate_right(7).wrapping_add(5u64.rotate_right(3)));
        // NUM_INTERP above 32 counts 32; missing words count as 0.
        assert_eq!(ps_input_key(0x3f, &[]), 0);
        assert_eq!(ps_input_key(0x3f, &[1]), 1u64.rotate_left(7 * 32));
    }

    #[test]
    fn base_hashes_by_hand() {
        let code = [1, 0, 0, 0];
        let (h1, h2) = (8u64, 1u64 << 57);
        assert_eq!(pixel_base_hash(&code, 5, None), h1 + h2 + 5);
        assert_eq!(pixel_base_hash(&code, 5, Some(0x10)), h1 + h2 + 5 + 0x10);
        assert_eq!(geometry_base_hash(&code, 4, true), h1 + h2 + 4 + 21);
        let s = VertexState { fetch_shader_key: 0x100, ps_input_key: 5, ..VertexState::default() };
        assert_eq!(vertex_base_hash(&code, &s), h1 + h2 + 0x105);
        let s = VertexState {
            geometry_shader: true,
            pa_cl_vte_cntl: 0x43e,
            primitive_type: 1,
            streamout: true,
            dx_clip_space: true,
            ..s
        };
        assert_eq!(vertex_base_hash(&code, &s), h1 + h2 + 0x105 + 0x1111 + 1 + 71 + 21 + 0x1537);
        let rects = VertexState { primitive_type: 0x11, ..VertexState::default() };
        assert_eq!(vertex_base_hash(&[], &rects), 13);
    }

    /// Aux hashes of pixel shaders in the published cemu_graphic_packs repository
    /// (cemu-project/cemu_graphic_packs @ 44250129): the number is the file name's second
    /// part; the inputs are read from the same file's GLSL, which Cemu wrote for that shader
    /// (`passPixelColorN` outputs give CB_SHADER_MASK 0xf per colour target, `textureUnitPSn`
    /// samplers give each unit's dimension in unit order, `uf_alphaTestRef` an enabled alpha
    /// test). Of the 260 `_ps` files there, 257 agree this way; the other 3 are edited
    /// copies whose samplers were changed by hand.
    #[test]
    fn pixel_aux_hashes_of_published_graphic_packs() {
        /// File name, CB_SHADER_MASK, alpha test function, texture dimensions, aux hash.
        type Case = (&'static str, u32, Option<u32>, &'static [u32], u64);
        let cases: &[Case] = &[
            // NewSuperMarioBrosU/Graphics: one target, two sampler2D.
            ("50e29e8929cea348_00000000000003c9_ps", 0xf, None, &[1, 1], 0x3c9),
            // NewSuperMarioBrosU/Graphics: one target, one sampler2D.
            ("03285368cf940e37_0000000000000079_ps", 0xf, None, &[1], 0x79),
            // SuperMario3DWorld_NoHUD: a sampler2DArray.
            ("b84517cef3bb49ad_000000000000007d_ps", 0xf, None, &[5], 0x7d),
            // KirbyRainbow_AA_Removal: two targets (0xff), one sampler2D.
            ("0d781b1e5042ecaa_00000000000007f9_ps", 0xff, None, &[1], 0x7f9),
            // VCN64 Undarken: no texture.
            ("1494f789ce9ac901_000000000000000f_ps", 0xf, None, &[], 0xf),
            // BreathOfTheWild CelShading: a sampler2D and no colour output.
            ("2f7ecb9f0022d8ca_0000000000000001_ps", 0, None, &[1], 0x1),
            // XenobladeChroniclesX Brightness: sampler2D, sampler3D, sampler3D.
            ("d936195db0dd8e7d_0000000000001e52_ps", 0xf, None, &[1, 2, 2], 0x1e52),
            // Splatoon Graphics: sampler2D, sampler2DArrayShadow, sampler2D.
            ("b4196905d6fff2bb_0000000000001e69_ps", 0xf, None, &[1, 5, 1], 0x1e69),
            // Bayonetta2 Contrasty: alpha test (function 4), one sampler2D.
            ("93bde02ae446a30f_000000000000001c_ps", 0xf, Some(4), &[1], 0x1c),
            // NewSuperMarioBrosU RemoveHUD: alpha test (function 7), one sampler2D.
            ("2802e519ac163806_000000000000001f_ps", 0xf, Some(7), &[1], 0x1f),
            // BreathOfTheWild RemoveFog: alpha test 4, four sampler2D and a samplerCubeArray.
            ("527591781440691a_000000000001c24b_ps", 0xf, Some(4), &[1, 1, 1, 1, 3], 0x1c24b),
            // CaptainToad_Resolution: four targets, a sampler2DArray.
            ("83f42767ee584d5a_000000000007fffd_ps", 0xffff, None, &[5], 0x7fffd),
            // BreathOfTheWild Graphics: targets 0, 1, 3 and 5; eight textures.
            (
                "a1cb9f79d093badb_0000f0f0ff34db6d_ps",
                0xf0f0ff,
                None,
                &[1, 5, 1, 5, 5, 5, 5, 5],
                0xf0f0_ff34_db6d,
            ),
        ];
        for &(name, mask, alpha, dims, aux) in cases {
            assert_eq!(pixel_aux_hash(mask, alpha, dims), aux, "{name}");
            assert!(name.contains(&format!("_{aux:016x}_")), "{name}");
        }
    }

    #[test]
    fn vertex_aux_hash_by_hand() {
        assert_eq!(vertex_aux_hash(&[], 0), 0);
        assert_eq!(vertex_aux_hash(&[4, 8], 0), (4u64 << 7) + 8);
        assert_eq!(vertex_aux_hash(&[], 2), (0x333u64 << 7) + 0x333);
        assert_eq!(vertex_aux_hash(&[4], 1), 4 + 0x333);
    }

    #[test]
    fn names_and_sampler_dims() {
        assert_eq!(
            file_name(0x70b8_2af4_d170_24d2, 0, Stage::Vertex),
            "70b82af4d17024d2_0000000000000000_vs"
        );
        assert_eq!(file_name(1, GEOMETRY_AUX_HASH, Stage::Geometry), "0000000000000001_0000000000000000_gs");
        assert_eq!(
            [0, 1, 3, 4, 10, 12, 13, 17, 15, 99].map(sampler_dim),
            [Some(0), Some(1), Some(2), Some(3), Some(5), Some(5), Some(3), Some(6), None, None]
        );
    }
}
