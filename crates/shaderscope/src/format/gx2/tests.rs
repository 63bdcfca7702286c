//! Unit tests of the GX2 structs: reading both byte orders and pointer kinds, writing back,
//! laying out afresh, the checks, and the errors of damaged structs.

use super::*;
use crate::toolkit::layout::Placement;

fn name(s: &'static [u8]) -> Name<'static> {
    Name { pointer: 1, text: Some(Cstr { bytes: s, offset: 0 }) }
}

/// A vertex shader with one entry in every array.
fn vertex() -> Shader<'static> {
    let mut s = Shader::empty(Kind::Vertex, PointerKind::Offset);
    s.regs[0] = 0x103;
    s.size = 0x40;
    s.mode = ShaderMode(1);
    s.uniform_blocks.items.push(UniformBlock { at: 0, name: name(b"Mat"), offset: 1, size: 64 });
    s.uniform_vars.items.push(UniformVar {
        at: 0,
        name: name(b"world"),
        ty: VarType(29),
        count: 1,
        offset: 0,
        block: 0,
    });
    s.initial_values.items.push(InitialValue { at: 0, value: [0x3f80_0000, 0, 0, 0xbf80_0000], offset: 8 });
    s.loop_vars.items.push(LoopVar { at: 0, offset: 0, value: 0xffff_ffff });
    s.sampler_vars.items.push(SamplerVar { at: 0, name: name(b"tex"), ty: SamplerType(1), location: 0 });
    s.attrib_vars.items.push(AttribVar {
        at: 0,
        name: name(b"aPos"),
        ty: VarType(10),
        count: 0,
        location: 0,
    });
    s
}

fn bytes_of(s: &Shader<'_>, order: Endian, size: u64) -> Vec<u8> {
    let mut p = Placement::new(order, size as usize);
    s.place(&mut p, s.at);
    p.finish(&[])
}

#[test]
fn a_laid_out_struct_reads_back_in_either_order_and_pointer_kind() {
    for order in [Endian::Little, Endian::Big] {
        for kind in [PointerKind::Offset, PointerKind::Tagged] {
            let laid = vertex().lay_out(0x40, kind);
            let bytes = bytes_of(&laid.shader, order, laid.text.end - 0x40);
            let back = Shader::read(Kind::Vertex, &bytes, 0x40, order, kind).unwrap();
            assert_eq!(back, laid.shader, "{order:?} {kind:?}");
            assert_eq!(back.uniform_vars.items[0].name.to_string(), "world");
            assert_eq!(back.initial_values.items[0].value[3], 0xbf80_0000);
            // "aPos" and its NUL end the names; the 3 bytes of padding after them are no item's.
            assert_eq!(back.end(), laid.text.end - 3);
            // Written back: the same bytes.
            assert_eq!(bytes_of(&back, order, bytes.len() as u64), bytes);
        }
    }
}

#[test]
fn fresh_layout_follows_decafs_order() {
    let laid = vertex().lay_out(0, PointerKind::Tagged);
    let s = &laid.shader;
    // The arrays in struct order right after the 0x134-byte struct, then the names.
    assert_eq!(s.uniform_blocks.at, Some(0x134));
    assert_eq!(s.uniform_vars.at, Some(0x140));
    assert_eq!(s.initial_values.at, Some(0x154));
    assert_eq!(s.loop_vars.at, Some(0x168));
    assert_eq!(s.sampler_vars.at, Some(0x170));
    assert_eq!(s.attrib_vars.at, Some(0x17c));
    assert_eq!(laid.text, 0x18c..0x1a4);
    assert_eq!(s.uniform_vars.pointer, 0xD060_0140);
    assert_eq!(s.uniform_blocks.items[0].name.pointer, 0xCA70_018C);
    assert_eq!(laid.data_fields, [0xE0, 0xE8, 0xF0, 0xF8, 0x100, 0x108]);
    assert_eq!(laid.text_fields, [0x134, 0x140, 0x170, 0x17c]);
}

#[test]
fn summary_lines_of_the_three_kinds() {
    assert_eq!(vertex().summary(), "VS mode=1 ubs=0 uvs=0 ivs=0 loops=0 samplers=0 attribs=0 ring=0");
    let laid = vertex().lay_out(0, PointerKind::Offset).shader;
    assert_eq!(laid.summary(), "VS mode=1 ubs=1 uvs=1 ivs=1 loops=1 samplers=1 attribs=1 ring=0");
    let mut gs = Shader::empty(Kind::Geometry, PointerKind::Offset);
    gs.mode = ShaderMode(2);
    gs.ring_item_size = 4;
    assert_eq!(gs.summary(), "GS mode=2 ubs=0 uvs=0 ivs=0 loops=0 samplers=0 ring=4");
    assert_eq!(Shader::empty(Kind::Pixel, PointerKind::Offset).summary(), "PS mode=0 ubs=0 uvs=0 samplers=0");
}

#[test]
fn damaged_structs_give_errors_at_the_field() {
    let laid = vertex().lay_out(0, PointerKind::Offset);
    let good = bytes_of(&laid.shader, Endian::Big, laid.text.end);
    let read = |b: &[u8]| {
        Shader::read(Kind::Vertex, b, 0x1000, Endian::Big, PointerKind::Offset).unwrap_err().to_string()
    };
    assert_eq!(
        read(&good[..0x100]),
        "truncated vertex shader struct at offset 0x1000 (need 308 bytes, have 256)"
    );
    // A count larger than the bytes there are (uniform vars: count at 0xE4).
    let mut b = good.clone();
    b[0xE4..0xE8].copy_from_slice(&1000u32.to_be_bytes());
    assert_eq!(
        read(&b),
        "vertex shader uniform vars at offset 0x10e8 points outside its range (0x1140 + 0x4e20 is outside 0x11a4)"
    );
    // Entries but no pointer.
    let mut b = good.clone();
    b[0xE8..0xEC].copy_from_slice(&0u32.to_be_bytes());
    assert_eq!(read(&b), "invalid vertex shader uniform vars at offset 0x10e8: 1 entries but no pointer");
    // A name that runs to the end without its NUL.
    let mut b = good.clone();
    for c in &mut b[0x1a0..] {
        *c = b'x';
    }
    assert_eq!(
        read(&b),
        "invalid vertex shader attrib var name at offset 0x119c: string has no terminating NUL"
    );
    // A name pointer past the data.
    let mut b = good.clone();
    b[0x134..0x138].copy_from_slice(&0x2000u32.to_be_bytes());
    assert_eq!(
        read(&b),
        "vertex shader uniform block name at offset 0x1134 points outside its range (0x3000 + 0x1 is outside 0x11a4)"
    );
}

#[test]
fn gfd_pointers_keep_their_tag_and_other_tags_still_resolve() {
    assert_eq!(PointerKind::Tagged.resolve(0xD060_0134), Some(0x134));
    assert_eq!(PointerKind::Tagged.resolve(0xCA70_0010), Some(0x10));
    assert_eq!(PointerKind::Tagged.resolve(0x1234_5678), Some(0x45678));
    assert_eq!(PointerKind::Tagged.resolve(0), None);
    assert_eq!(PointerKind::Offset.resolve(0x134), Some(0x134));
    assert_eq!(PointerKind::Tagged.encode(0x20, true), 0xCA70_0020);
    assert_eq!(PointerKind::Tagged.tag(0xD060_0020), Some(GFD_DATA_TAG));
    assert_eq!(PointerKind::Offset.tag(0x20), None);
}

#[test]
fn a_pixel_shader_without_gx2r_and_geometry_shaders_of_both_sizes() {
    let ps = Shader::empty(Kind::Pixel, PointerKind::Tagged);
    let bytes = bytes_of(&ps, Endian::Big, 0xD8);
    let back =
        Shader::read_sized(Kind::Pixel, &bytes[..0xD8], 0, Endian::Big, PointerKind::Tagged, false).unwrap();
    assert_eq!((back.len, back.gx2r), (0xD8, None));
    assert!(Shader::read(Kind::Pixel, &bytes[..0xD8], 0, Endian::Big, PointerKind::Tagged).is_err());

    // decaf's 0xC0-byte geometry shader, and wut's 0xB0 one whose arrays start at 0xB0.
    let mut gs = Shader::empty(Kind::Geometry, PointerKind::Offset);
    gs.sampler_vars.items.push(SamplerVar { at: 0, name: name(b"s"), ty: SamplerType(1), location: 0 });
    let laid = gs.lay_out(0, PointerKind::Offset);
    assert_eq!(laid.shader.sampler_vars.at, Some(0xC0));
    let bytes = bytes_of(&laid.shader, Endian::Little, laid.text.end);
    let back = Shader::read(Kind::Geometry, &bytes, 0, Endian::Little, PointerKind::Offset).unwrap();
    assert_eq!((back.len, back.copy_gx2r.is_some()), (0xC0, true));
    let mut short = bytes.clone();
    short.drain(0xB0..0xC0);
    short[0x84..0x88].copy_from_slice(&0xB0u32.to_le_bytes());
    short[0xB0..0xB4].copy_from_slice(&0xBCu32.to_le_bytes());
    let back = Shader::read(Kind::Geometry, &short, 0, Endian::Little, PointerKind::Offset).unwrap();
    assert_eq!(
        (back.len, back.copy_gx2r, back.sampler_vars.items[0].name.to_string()),
        (0xB0, None, "s".into())
    );
}

#[test]
fn checks_name_the_registers_that_disagree() {
    let mut vs = vertex().lay_out(0, PointerKind::Offset).shader;
    let set = |s: &mut Shader<'_>, name: &str, v: u32| {
        let i = regs::index_of(s.layout().regs, name).unwrap();
        s.regs[i] = v;
    };
    set(&mut vs, "num_spi_vs_out_id", 2);
    set(&mut vs, "SPI_VS_OUT_CONFIG", 2 << 1);
    set(&mut vs, "num_sq_vtx_semantic", 1);
    set(&mut vs, "SQ_VTX_SEMANTIC_CLEAR", 0xFFFF_FFFC);
    set(&mut vs, "SQ_VTX_SEMANTIC", 5);
    vs.uniform_vars.items[0].block = 3;
    let mut f = Vec::new();
    vs.check("vertex shader 0", &mut f);
    let text: Vec<String> = f.iter().map(|f| format!("0x{:x}: {}", f.offset, f.message)).collect();
    assert_eq!(
        text,
        [
            "0xc: vertex shader 0: num_spi_vs_out_id is 2 but SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT 2 means 3 exports in 1 SPI_VS_OUT_ID words",
            "0x3c: vertex shader 0: SQ_VTX_SEMANTIC_CLEAR is 0xfffffffc but 1 semantics are used (0xfffffffe)",
            "0x44: vertex shader 0: SQ_VTX_SEMANTIC[0] is semantic 5, the location of no attrib var",
            "0x150: vertex shader 0: uniform var 0 is in block 3 but the shader has 1 uniform blocks",
        ]
    );
    let mut ps = Shader::empty(Kind::Pixel, PointerKind::Offset);
    set(&mut ps, "num_spi_ps_input_cntl", 40);
    set(&mut ps, "CB_SHADER_MASK", 0xF0);
    let mut f = Vec::new();
    ps.check("pixel shader 0", &mut f);
    let text: Vec<&str> = f.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        text,
        [
            "pixel shader 0: num_spi_ps_input_cntl 40 is more than the 32 SPI_PS_INPUT_CNTL words",
            "pixel shader 0: CB_SHADER_CONTROL.RT1_ENABLE is 0 but CB_SHADER_MASK.OUTPUT1_ENABLE is 0xf",
        ]
    );
    assert_eq!(f[0].severity, crate::model::Severity::Error);
}

/// Names that all point into one long string: one scan of it in all, and what is shown of
/// each is bounded.
#[test]
fn names_into_one_long_string_are_cheap_and_shown_cut() {
    let n = 2000usize;
    let mut data = vec![0u8; 0xE8];
    data[0xB8..0xBC].copy_from_slice(&(n as u32).to_le_bytes());
    data[0xBC..0xC0].copy_from_slice(&0xE8u32.to_le_bytes());
    let text = 0xE8 + 0x14 * n;
    for i in 0..n {
        let mut e = [0u8; 0x14];
        e[..4].copy_from_slice(&((text + i) as u32).to_le_bytes());
        e[16..].copy_from_slice(&(-1i32).to_le_bytes());
        data.extend_from_slice(&e);
    }
    data.extend(std::iter::repeat_n(b'a', 100_000));
    data.push(0);
    let ps = Shader::read(Kind::Pixel, &data, 0, Endian::Little, PointerKind::Offset).unwrap();
    let v = &ps.uniform_vars.items;
    assert_eq!(
        (v.len(), v[0].name.text.unwrap().len(), v[n - 1].name.text.unwrap().len()),
        (n, 100_000, 100_000 - n + 1)
    );
    let shown = v[0].name.to_string();
    assert_eq!((shown.len(), shown.ends_with('…')), (NAME_SHOWN + '…'.len_utf8(), true));
    // No NUL at all after a name: an error at the string.
    data.pop();
    let e = Shader::read(Kind::Pixel, &data, 0, Endian::Little, PointerKind::Offset).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("invalid pixel shader uniform var name at offset 0x{text:x}: string has no terminating NUL")
    );
}

/// `cemu_hash` reads the registers Cemu's hashes take from the struct: the pixel shader of the
/// `cemu_hash` module's worked example (one interpolated input with semantic 0, all colour
/// channels written, no texture, 16 zero bytes of microcode) gives
/// `0000000000008000_000000000000000f`; a 2D sampler adds its dimension (1) to the aux hash;
/// a vertex shader gets only its aux hash (stream-out strides, in dwords).
#[test]
fn cemu_hashes_come_from_the_struct_registers() {
    fn put(data: &mut [u8], at: usize, v: u32) {
        data[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    let mut ps = vec![0u8; 0x100];
    put(&mut ps, 0x08, 1); // SPI_PS_IN_CONTROL_0: NUM_INTERP 1
    put(&mut ps, 0x10, 1); // num_spi_ps_input_cntl
    put(&mut ps, 0x14, 0x100); // SPI_PS_INPUT_CNTL[0]
    put(&mut ps, 0x94, 0xf); // CB_SHADER_MASK
    let code = [0u8; 16];
    let s = Shader::read(Kind::Pixel, &ps, 0, Endian::Little, PointerKind::Offset).unwrap();
    assert_eq!(cemu_hash(&s, Some(&code)), Some(CemuHash { base: Some(0x8000), aux: 0xf }));
    assert_eq!(cemu_hash(&s, None), None);
    // One GX2_SAMPLER_TYPE_2D sampler var at 0xE8, its name at 0xF4.
    put(&mut ps, 0xD0, 1);
    put(&mut ps, 0xD4, 0xE8);
    put(&mut ps, 0xE8, 0xF4);
    put(&mut ps, 0xEC, 1);
    ps[0xF4..0xF8].copy_from_slice(b"tex\0");
    let s = Shader::read(Kind::Pixel, &ps, 0, Endian::Little, PointerKind::Offset).unwrap();
    assert_eq!(cemu_hash(&s, Some(&code)).map(|h| h.aux), Some((0xf_u64 << 3) + 1));

    let mut vs = vec![0u8; 0x134];
    put(&mut vs, 0x110, 1); // hasStreamOut
    put(&mut vs, 0x114, 16); // stream-out stride 0: 16 bytes, 4 dwords
    let s = Shader::read(Kind::Vertex, &vs, 0, Endian::Little, PointerKind::Offset).unwrap();
    assert_eq!(cemu_hash(&s, Some(&code)), Some(CemuHash { base: None, aux: 4 }));
}

/// A finding as the tests below expect it: offset, severity, message.
type Expected = (u64, crate::model::Severity, &'static str);

/// `check_program` compares the registers with what the microcode uses: a pixel shader whose
/// one instruction is `EXP_DONE: PIX0, R5.xyzw` (END_OF_PROGRAM) needs NUM_GPRS of at least 6,
/// announces one colour export (`SQ_PGM_EXPORTS_PS.EXPORT_MODE` 2) and enables target 0.
#[test]
fn registers_are_checked_against_the_microcode() {
    use crate::model::Severity::{Error, Warning};
    // Export: RW_GPR 5 (bits 15–21), type pixel; SEL_XYZW xyzw, END_OF_PROGRAM, CF_INST
    // EXP_DONE (0x28), BARRIER.
    let code: Vec<u8> = [0x0002_8000u32, 0x9420_0688].iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut ps = vec![0u8; 0xE8];
    let cases: [(u32, u32, u32, Vec<Expected>); 4] = [
        (
            1,
            2,
            0xF,
            vec![(0x40, Error, "pixel shader: the microcode uses R5, but SQ_PGM_RESOURCES_PS.NUM_GPRS is 1")],
        ),
        (6, 2, 0xF, vec![]),
        (
            6,
            5,
            0xF,
            vec![(
                0x44,
                Error,
                "pixel shader: SQ_PGM_EXPORTS_PS.EXPORT_MODE is 5 (2 colours and depth), but the microcode exports 1 colour (2)",
            )],
        ),
        (
            6,
            2,
            0xF0,
            vec![
                (
                    0xD4,
                    Warning,
                    "pixel shader: CB_SHADER_MASK.OUTPUT0_ENABLE is 0x0, but the microcode exports colour 0",
                ),
                (
                    0xD4,
                    Warning,
                    "pixel shader: CB_SHADER_MASK.OUTPUT1_ENABLE is 0xf, but the microcode does not export colour 1",
                ),
            ],
        ),
    ];
    for (gprs, exports, mask, want) in cases {
        ps[..4].copy_from_slice(&gprs.to_le_bytes());
        ps[4..8].copy_from_slice(&exports.to_le_bytes());
        ps[0x94..0x98].copy_from_slice(&mask.to_le_bytes());
        let s = Shader::read(Kind::Pixel, &ps, 0x40, Endian::Little, PointerKind::Offset).unwrap();
        let mut out = Vec::new();
        s.check_program("pixel shader", &code, 0x200, &mut out);
        let got: Vec<_> = out.iter().map(|f| (f.offset, f.severity, f.message.as_str())).collect();
        assert_eq!(got, want);
    }
}

/// A vertex shader whose one instruction is `EXP_DONE: PARAM0, R5.xyzw BURSTCNT(1)` exports
/// two parameters: `SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT` 1 says so; 0 loses one (an error), 3
/// promises two that nothing writes (a warning).
#[test]
fn parameter_exports_are_checked_against_vs_export_count() {
    use crate::model::Severity::{Error, Warning};
    // TYPE 2 param (bits 13–14), RW_GPR 5 (a burst of two: R5, R6); BURST_COUNT 1 (bits 17–20).
    let code: Vec<u8> = [0x0002_C000u32, 0x9422_0688].iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut vs = vec![0u8; 0x134];
    vs[..4].copy_from_slice(&7u32.to_le_bytes());
    let cases: [(u32, Vec<Expected>); 3] = [
        (
            0,
            vec![(
                0x48,
                Error,
                "vertex shader: the microcode exports 2 parameters, but SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT is 0 (1 parameter)",
            )],
        ),
        (1, vec![]),
        (
            3,
            vec![(
                0x48,
                Warning,
                "vertex shader: the microcode exports 2 parameters, but SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT is 3 (4 parameters)",
            )],
        ),
    ];
    for (count, want) in cases {
        vs[8..12].copy_from_slice(&(count << 1).to_le_bytes());
        let s = Shader::read(Kind::Vertex, &vs, 0x40, Endian::Little, PointerKind::Offset).unwrap();
        let mut out = Vec::new();
        s.check_program("vertex shader", &code, 0x200, &mut out);
        let got: Vec<_> = out.iter().map(|f| (f.offset, f.severity, f.message.as_str())).collect();
        assert_eq!(got, want);
    }
}
