//! Unit tests with hand-built chunks. Expected listing text is copied from fxc's own listings
//! in the corpus (the files named next to each test), not from this code's output.

use super::write::Builder;
use super::*;

/// A little-endian blob with back-patching, for building chunk payloads.
#[derive(Default)]
struct Blob(Vec<u8>);

impl Blob {
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn at(&self) -> u32 {
        self.0.len() as u32
    }
    fn patch(&mut self, at: u32, v: u32) {
        self.0[at as usize..at as usize + 4].copy_from_slice(&v.to_le_bytes());
    }
    fn cstr(&mut self, s: &str) -> u32 {
        let at = self.at();
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        at
    }
}

/// The comment tables of `d` as fxc `generation` prints them.
fn header_text(d: &Dxbc<'_>, generation: Generation) -> String {
    let mut t = crate::print::TextBuf::default();
    listing::header(d, generation, &mut t).unwrap();
    t.into_string()
}

fn container(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut b = Builder::new();
    for (tag, data) in chunks {
        b.push(**tag, data.clone());
    }
    b.finish().unwrap()
}

/// ISGN/OSGN payload: (name, index, system value, component type, register, mask, rw).
fn signature(elements: &[(&str, u32, u32, u32, u32, u8, u8)]) -> Vec<u8> {
    let mut b = Blob::default();
    b.u32(elements.len() as u32).u32(8);
    let mut name_fields = Vec::new();
    for &(_, idx, sv, ty, reg, mask, rw) in elements {
        name_fields.push(b.at());
        b.u32(0).u32(idx).u32(sv).u32(ty).u32(reg);
        b.0.extend_from_slice(&[mask, rw, 0, 0]);
    }
    for (i, e) in elements.iter().enumerate() {
        let at = b.cstr(e.0);
        b.patch(name_fields[i], at);
    }
    b.0
}

/// An SM4 RDEF like the `$Globals` + `transforms` buffers of HLSLCrossCompiler's
/// `tests/vs4/struct_const.hlsl` (two struct variables with members).
fn rdef_struct_const() -> Vec<u8> {
    let mut b = Blob::default();
    b.u32(1).u32(0).u32(1).u32(0); // 1 cbuffer, 1 binding (offsets patched)
    b.0.extend_from_slice(&[0, 4]);
    b.u16(0xFFFE).u32(0x100).u32(0);
    // binding
    let bind_at = b.at();
    b.patch(12, bind_at);
    let bind_name = b.at();
    b.u32(0).u32(0).u32(0).u32(0).u32(0).u32(0).u32(1).u32(0);
    // cbuffer
    let cb_at = b.at();
    b.patch(4, cb_at);
    let cb_name = b.at();
    b.u32(0).u32(2).u32(0).u32(160).u32(0).u32(0);
    let vars_at = b.at();
    b.patch(cb_at + 8, vars_at);
    let var_fields: Vec<u32> = (0..2)
        .map(|i| {
            let at = b.at();
            let (start, size) = if i == 0 { (0, 68) } else { (80, 80) };
            b.u32(0).u32(start).u32(size).u32(2).u32(0).u32(0);
            at
        })
        .collect();
    // types: float4x4, int, struct A {float4x4 modelview; int unusedTestA}, struct B {int; float4x4}
    let t_mat = b.at();
    b.u16(3).u16(3).u16(4).u16(4).u16(0).u16(0).u32(0);
    let t_int = b.at();
    b.u16(0).u16(2).u16(1).u16(1).u16(0).u16(0).u32(0);
    let members_a = b.at();
    let ma: Vec<u32> = (0..2)
        .map(|_| {
            let at = b.at();
            b.u32(0).u32(0).u32(0);
            at
        })
        .collect();
    let members_b = b.at();
    let mb: Vec<u32> = (0..2)
        .map(|_| {
            let at = b.at();
            b.u32(0).u32(0).u32(0);
            at
        })
        .collect();
    let t_a = b.at();
    b.u16(5).u16(0).u16(1).u16(17).u16(0).u16(2).u32(members_a);
    let t_b = b.at();
    b.u16(5).u16(0).u16(1).u16(20).u16(0).u16(2).u32(members_b);
    b.patch(var_fields[0] + 16, t_a);
    b.patch(var_fields[1] + 16, t_b);
    for (field, name, ty, off) in [
        (ma[0], "modelview", t_mat, 0),
        (ma[1], "unusedTestA", t_int, 64),
        (mb[0], "unusedTestB", t_int, 0),
        (mb[1], "projection", t_mat, 16),
    ] {
        let n = b.cstr(name);
        b.patch(field, n);
        b.patch(field + 4, ty);
        b.patch(field + 8, off);
    }
    let n = b.cstr("A");
    b.patch(var_fields[0], n);
    let n = b.cstr("B");
    b.patch(var_fields[1], n);
    let n = b.cstr("transforms");
    b.patch(cb_name, n);
    b.patch(bind_name, n);
    let creator = b.cstr("Microsoft (R) HLSL Shader Compiler 9.30.9200.20499");
    b.patch(24, creator);
    b.0
}

#[test]
fn rdef_sm4_structs_parse_with_members_and_print_as_fxc_does() {
    let data = rdef_struct_const();
    let r = rdef::Rdef::parse(&data, 0x100).unwrap();
    assert_eq!(r.creator.text(), "Microsoft (R) HLSL Shader Compiler 9.30.9200.20499");
    assert_eq!((r.major, r.minor, r.program_type), (4, 0, 0xFFFE));
    assert!(r.rd11.is_none());
    let cb = &r.constant_buffers[0];
    assert_eq!(cb.name.text(), "transforms");
    assert_eq!(cb.variables.len(), 2);
    let b = &cb.variables[1];
    assert_eq!((b.name.text().as_ref(), b.start, b.size), ("B", 80, 80));
    let ty = r.ty(b.ty).unwrap();
    assert_eq!(ty.class, 5);
    assert_eq!(ty.members.len(), 2);
    assert_eq!(ty.members[1].name.text(), "projection");
    assert_eq!(r.ty(ty.members[1].ty).unwrap().rows, 4);
    assert_eq!(r.bindings[0].name.text(), "transforms");
    assert_eq!(r.bindings[0].offset, 0x100 + 28);

    let bytes = container(&[(b"RDEF", data.clone())]);
    let d = Dxbc::parse(&bytes).unwrap();
    let s = header_text(&d, Generation::Fxc9_30);
    // James-Jones__HLSLCrossCompiler/tests/vs4/struct_const.asm, lines 24-45.
    let want = "\
// cbuffer transforms
// {
//
//   struct
//   {
//       
//       float4x4 modelview;            // Offset:    0
//       int unusedTestA;               // Offset:   64
//
//   } A;                               // Offset:    0 Size:    68
//   
//   struct
//   {
//       
//       int unusedTestB;               // Offset:   80
//       float4x4 projection;           // Offset:   96
//
//   } B;                               // Offset:   80 Size:    80
//
// }
";
    assert!(s.contains(want), "{s}");
    assert!(s.starts_with(
        "//\n// Generated by Microsoft (R) HLSL Shader Compiler 9.30.9200.20499\n//\n//\n///\n// Buffer Definitions: \n"
    ));
    assert!(s.contains(
        "// Resource Bindings:\n//\n// Name                                 Type  Format         Dim Slot Elements\n\
         // ------------------------------ ---------- ------- ----------- ---- --------\n\
         // transforms                        cbuffer      NA          NA    0        1\n//\n//\n"
    ), "{s}");
}

#[test]
fn rdef_errors_carry_the_offset_of_the_problem() {
    let mut data = rdef_struct_const();
    // constant buffer count far beyond the chunk
    data[0..4].copy_from_slice(&0x0100_0000u32.to_le_bytes());
    let e = rdef::Rdef::parse(&data, 0x40).unwrap_err();
    assert_eq!(e.offset(), 0x40);
    assert!(e.to_string().contains("16777216 records of 24 bytes"), "{e}");
    // creator offset outside the chunk: the error is where it points
    let mut data = rdef_struct_const();
    data[24..28].copy_from_slice(&0xFFFFu32.to_le_bytes());
    let e = rdef::Rdef::parse(&data, 0x40).unwrap_err();
    let end = 0x40 + data.len();
    assert_eq!(
        e.to_string(),
        format!(
            "RDEF creator at offset 0x1003f points outside its range (0x1003f + 0x1 is outside 0x{end:x})"
        )
    );
    // a struct whose member is itself
    let mut data = rdef_struct_const();
    let r = rdef::Rdef::parse(&data, 0).unwrap();
    let a = r.ty(r.constant_buffers[0].variables[0].ty).unwrap();
    let member = a.members[0].offset;
    let own = a.offset as u32;
    data[member + 4..member + 8].copy_from_slice(&own.to_le_bytes());
    let e = rdef::Rdef::parse(&data, 0).unwrap_err();
    assert_eq!(e.offset(), member as u64 + 4);
    assert!(e.to_string().contains("contains itself"), "{e}");
}

#[test]
fn sm5_rd11_header_and_51_bindings() {
    let mut b = Blob::default();
    b.u32(0).u32(0).u32(1).u32(0);
    b.0.extend_from_slice(&[1, 5]);
    b.u16(0xFFFF).u32(0).u32(0);
    b.u32(rdef::RD11_51).u32(60).u32(24).u32(40).u32(40).u32(36).u32(12).u32(0);
    let bind = b.at();
    b.patch(12, bind);
    let name_field = b.at();
    // texture, float return, dim buf, samples, bind point 0, count 1, flags (4 components), space 0, id 0
    b.u32(0).u32(2).u32(5).u32(1).u32(0xFFFF_FFFF).u32(0).u32(1).u32(0xC).u32(0).u32(0);
    let n = b.cstr("xe_apply_gamma_ramp");
    b.patch(name_field, n);
    let c = b.cstr("Microsoft (R) HLSL Shader Compiler 10.1");
    b.patch(24, c);
    let r = rdef::Rdef::parse(&b.0, 0).unwrap();
    assert_eq!(r.bindings[0].space_id, Some([0, 0]));
    let bytes = container(&[(b"RDEF", b.0.clone())]);
    let d = Dxbc::parse(&bytes).unwrap();
    assert_eq!(d.generation(), (Generation::Fxc10, GenerationSource::RdefCreator));
    let s = header_text(&d, Generation::Fxc10);
    // xenia d3d12_5_1/apply_gamma_table_ps.fxc.asm, Resource Bindings.
    let want = "\
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- ------- -------------- ------
// xe_apply_gamma_ramp               texture  float4         buf      T0             t0      1 
";
    assert!(s.contains(want), "{s}");
}

#[test]
fn signatures_print_fxc_columns_in_both_generations() {
    let isgn = signature(&[("SV_InstanceID", 0, 8, 1, 0, 1, 1), ("SV_VertexID", 0, 6, 1, 1, 1, 1)]);
    let osgn = signature(&[("SV_Position", 0, 1, 3, 0, 15, 0)]);
    let bytes = container(&[(b"ISGN", isgn), (b"OSGN", osgn)]);
    let d = Dxbc::parse(&bytes).unwrap();
    let s = header_text(&d, Generation::Fxc10);
    // tgjones__slimshader/.../FxDis/test_VS.asm (fxc 9.30 columns).
    let want = "\
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_InstanceID            0   x           0   INSTID    uint   x   
// SV_VertexID              0   x           1   VERTID    uint   x   
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
";
    assert_eq!(s, format!("//\n// Generated by Microsoft (R) D3D Shader Disassembler\n//\n{want}"));
    let s = header_text(&d, Generation::Fxc9_29);
    // 9.29 (James-Jones__HLSLCrossCompiler/tests/ps5/interfaces.asm): one column narrower.
    assert!(s.contains("// Name                 Index   Mask Register SysValue Format   Used\n"));
    assert!(s.contains("// SV_Position              0   xyzw        0      POS  float   xyzw\n"));
}

/// Names that are not ASCII pad by characters (their lossy text), names longer than the
/// column push the row to the right, and unnamed system values print their number.
#[test]
fn signature_names_of_any_length_and_encoding_pad_by_characters() {
    let long = "L".repeat(70);
    let isgn = signature(&[("Pos\u{e9}", 1, 0, 3, 2, 3, 1), (&long, 0, 99, 1, 12345, 15, 15)]);
    let mut bytes_isgn = isgn.clone();
    // One invalid UTF-8 byte in the first name ("Pos\xff" after the 2-byte sequence).
    let at = bytes_isgn.windows(3).position(|w| w == b"Pos").unwrap() + 3;
    bytes_isgn[at] = 0xff;
    for (payload, name) in [(isgn, "Pos\u{e9}"), (bytes_isgn, "Pos\u{fffd}\u{fffd}")] {
        // `{:<20}` pads by characters, as fxc's columns count them.
        let first = format!("// {name:<20}     1   xy          2     NONE   float   x   \n");
        let bytes = container(&[(b"ISGN", payload)]);
        let d = Dxbc::parse(&bytes).unwrap();
        let s = header_text(&d, Generation::Fxc10);
        assert!(s.contains(&first), "{s}");
        assert!(s.contains(&format!("// {long}     0   xyzw    12345       99    uint   xyzw\n")), "{s}");
    }
}

#[test]
fn depth_outputs_print_na_and_the_register_name() {
    // rw = 0: written; register 0xFFFFFFFF as fxc stores it.
    let osgn = signature(&[("SV_Depth", 0, 65, 3, 0xFFFF_FFFF, 1, 0xE)]);
    let bytes = container(&[(b"OSGN", osgn)]);
    let d = Dxbc::parse(&bytes).unwrap();
    let s = header_text(&d, Generation::Fxc9_30);
    // James-Jones__HLSLCrossCompiler/tests/ps5/twoSideDepthWrite.asm
    assert!(s.contains("// SV_Depth                 0    N/A   oDepth    DEPTH   float    YES\n"), "{s}");
}

#[test]
fn stat_sfi0_and_notes() {
    let mut stat = Blob::default();
    for i in 0..37u32 {
        stat.u32(if i == 0 { 14 } else { 0 });
    }
    let sfi0 = 1u64.to_le_bytes().to_vec();
    let rdef = rdef_struct_const();
    let bytes = container(&[(b"RDEF", rdef), (b"SFI0", sfi0), (b"STAT", stat.0)]);
    let d = Dxbc::parse(&bytes).unwrap();
    assert_eq!(d.stat.as_ref().unwrap().words.len(), 37);
    assert_eq!(d.sfi0.as_ref().unwrap().names(), vec!["doubles".to_string()]);
    let s = header_text(&d, Generation::Fxc9_30);
    // tgjones__slimshader/.../BasicCompute11_Raw_Double.asm
    assert!(s.contains(
        "///\n// Note: shader requires additional functionality:\n//       Double-precision floating point\n//\n//\n// Buffer Definitions: \n"
    ));
    let mut p = crate::print::TextBuf::default();
    listing::write_listing(&d, &crate::DisasmOptions::default(), &mut p).unwrap();
    assert!(p.as_str().ends_with("// Approximately 14 instruction slots used\n"));
}

#[test]
fn aon9_tables_are_parsed_and_printed() {
    // Header, 5 table headers, one cb mapping, one sampler mapping, then a ps_2_0 "end" program.
    let mut b = Blob::default();
    b.u32(0).u32(0xFFFF_0200).u32(8).u32(0);
    b.u16(1).u16(40).u16(0).u16(52).u16(0).u16(52).u16(1).u16(36).u16(0).u16(52);
    b.0.extend_from_slice(&[0, 0, 0, 0]); // sampler: s0 <- s0 / t0
    b.u16(0).u16(1).u16(2).u16(0).u32(0); // c0 <- cb0[1..+2]
    let prog = b.at();
    b.patch(12, prog);
    b.u32(0xFFFF_0200).u32(0x0000_FFFF);
    let size = b.at();
    b.patch(0, size);
    let a = chunks::Aon9::parse(&b.0, 0x38).unwrap();
    assert_eq!(a.cb_mappings[0].start, 1);
    assert_eq!(a.cb_mappings[0].count, 2);
    assert_eq!(a.program, &[0x00, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]);
    assert_eq!(a.program_position(), 0x38 + 52);
    let bytes = container(&[(b"Aon9", b.0.clone())]);
    let d = Dxbc::parse(&bytes).unwrap();
    let s = header_text(&d, Generation::Fxc6_3);
    // microsoft__DirectXTK/2013-10-efdcec02/.../AlphaTestEffect_PSAlphaTestLtGt.fxc.asm
    let want = "\
//
// Constant buffer to DX9 shader constant mappings:
//
// Target Reg Buffer  Start Reg # of Regs        Data Conversion
// ---------- ------- --------- --------- ----------------------
// c0         cb0             1         2  ( FLT, FLT, FLT, FLT)
//
//
// Sampler/Resource to DX9 shader sampler mappings:
//
// Target Sampler Source Sampler  Source Resource
// -------------- --------------- ----------------
// s0             s0              t0               
//
//
// Level9 shader bytecode:
//
";
    let got: Vec<&str> = s.lines().map(str::trim_end).collect();
    let want: Vec<&str> = want.lines().map(str::trim_end).collect();
    let at = got.iter().position(|l| l.starts_with("// Constant buffer")).unwrap() - 1;
    assert_eq!(&got[at..at + want.len()], &want[..]);
    // The record's bytes are resource, sampler, target: fxc lists `02 00 01 00` as
    // `s1 s0 t2` (DynamicShaderLinkageFX11's level-9 pixel shader).
    let mut other = b.0.clone();
    other[36..40].copy_from_slice(&[2, 0, 1, 0]);
    let m = chunks::Aon9::parse(&other, 0).unwrap().sampler_mappings[0];
    assert_eq!((m.target, m.sampler, m.resource), (1, 0, 2));
}

#[test]
fn root_signature_10_and_11() {
    for version in [1u32, 2] {
        let mut b = Blob::default();
        b.u32(version).u32(3).u32(24).u32(1).u32(0).u32(0x1);
        let params = b.at();
        b.u32(0).u32(0).u32(0); // table
        b.u32(1).u32(5).u32(0); // constants
        b.u32(2).u32(1).u32(0); // CBV
        let table = b.at();
        b.patch(params + 8, table);
        b.u32(1).u32(0);
        let ranges = b.at();
        b.patch(table + 4, ranges);
        b.u32(0).u32(4).u32(1).u32(0);
        if version == 2 {
            b.u32(0x8);
        }
        b.u32(0xFFFF_FFFF);
        let consts = b.at();
        b.patch(params + 20, consts);
        b.u32(3).u32(0).u32(16);
        let cbv = b.at();
        b.patch(params + 32, cbv);
        b.u32(0).u32(1);
        if version == 2 {
            b.u32(2);
        }
        let samplers = b.at();
        b.patch(16, samplers);
        for w in [21u32, 1, 1, 1, 0, 16, 4, 2, 0, 0x7F7F_FFFF, 0, 0, 5] {
            b.u32(w);
        }
        let rs = chunks::RootSignature::parse(&b.0, 0).unwrap();
        assert_eq!(rs.version, version);
        assert_eq!(rs.parameters.len(), 3);
        match &rs.parameters[0].payload {
            chunks::RootPayload::Table { ranges } => {
                assert_eq!(ranges[0].count, 4);
                assert_eq!(ranges[0].base_register, 1);
                assert_eq!(ranges[0].flags, if version == 2 { Some(8) } else { None });
                assert_eq!(ranges[0].table_offset, 0xFFFF_FFFF);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            rs.parameters[1].payload,
            chunks::RootPayload::Constants { register: 3, space: 0, count: 16 }
        );
        assert_eq!(
            rs.parameters[2].payload,
            chunks::RootPayload::Descriptor { register: 0, space: 1, flags: (version == 2).then_some(2) }
        );
        assert_eq!(rs.static_samplers[0].register, 0);
        assert_eq!(rs.static_samplers[0].visibility, 5);
        assert_eq!(rs.static_samplers[0].max_lod, f32::MAX);
        let mut text = crate::print::TextBuf::default();
        listing::root_signature(&rs, "//   ", &mut text).unwrap();
        let text = text.into_string();
        let flags = if version == 2 { ", flags=0x8" } else { "" };
        assert!(
            text.contains(&format!("//   DescriptorTable(SRV(t1, numDescriptors=4, space=0{flags}))\n")),
            "{text}"
        );
        assert!(text.contains(
            "//   RootConstants(num32BitConstants=16, b3, space=0, visibility=SHADER_VISIBILITY_PIXEL)\n"
        ));
    }
}

#[test]
fn ifce_class_tables() {
    let mut b = Blob::default();
    // instances, types, slot records, slots, type-id offset, class offset, slot offset, 2 words
    b.u32(0).u32(2).u32(1).u32(1).u32(0).u32(0).u32(0).u32(0x4E47_534F).u32(0x0010_0020);
    let classes = b.at();
    b.patch(20, classes);
    let names: Vec<u32> = (0..2)
        .map(|i| {
            let at = b.at();
            b.u32(0).u16(i).u16(0).u16(0).u16(0);
            at
        })
        .collect();
    let slots = b.at();
    b.patch(24, slots);
    b.u32(1).u32(2).u32(0).u32(0);
    let type_ids = b.at();
    b.patch(slots + 8, type_ids);
    b.u16(0).u16(1);
    let table_ids = b.at();
    b.patch(slots + 12, table_ids);
    b.u32(0).u32(1);
    for (f, n) in names.iter().zip(["cUnchangedColour", "cHalfColour"]) {
        let at = b.cstr(n);
        b.patch(*f, at);
    }
    let i = chunks::Ifce::parse(&b.0, 0).unwrap();
    assert_eq!(i.class_types[1].name.text(), "cHalfColour");
    assert_eq!(i.slots[0].type_ids, vec![0, 1]);
    let bytes = container(&[(b"IFCE", b.0.clone())]);
    let d = Dxbc::parse(&bytes).unwrap();
    let s = header_text(&d, Generation::Fxc9_29);
    // James-Jones__HLSLCrossCompiler/tests/ps5/interfaces.asm (trailing blanks trimmed)
    let want = "\
// Available Class Types:
//
// Name                             ID CB Stride Texture Sampler
// ------------------------------ ---- --------- ------- -------
// cUnchangedColour                  0         0       0       0
// cHalfColour                       1         0       0       0
//
// Interface slots, 1 total:
//
//             Slots
// +----------+---------+---------------------------------------
// | Type ID  |   0     |0    1
// | Table ID |         |0    1
// +----------+---------+---------------------------------------
";
    let got: String = s.lines().map(|l| format!("{}\n", l.trim_end())).collect();
    assert!(got.contains(want), "{got}");
}

/// An array of class instances is one record whose second word counts its elements; fxc
/// names it `name[N]` (spacehamster/DXDecompiler's EffectInterfaces_5.asm).
#[test]
fn ifce_instance_arrays_show_their_count() {
    let mut b = Blob::default();
    // instances, types, slot records, slots, type-id offset, class offset, slot offset, 2 words
    b.u32(2).u32(1).u32(1).u32(1).u32(0).u32(0).u32(0).u32(0x4E47_534F).u32(0x0010_0020);
    let classes = b.at();
    b.patch(20, classes);
    let ty = b.at();
    b.u32(0).u16(0).u16(2).u16(0).u16(0);
    let instances: Vec<u32> = [(1u16, 3u16), (3, 5)]
        .iter()
        .map(|&(elements, cb_offset)| {
            let at = b.at();
            b.u32(0).u16(0).u16(elements).u16(0).u16(cb_offset).u16(0xffff).u16(0xffff);
            at
        })
        .collect();
    let slots = b.at();
    b.patch(24, slots);
    b.u32(1).u32(1).u32(0).u32(0);
    let type_ids = b.at();
    b.patch(slots + 8, type_ids);
    b.u16(0).u16(0);
    let table_ids = b.at();
    b.patch(slots + 12, table_ids);
    b.u32(0);
    for (f, n) in
        [ty, instances[0], instances[1]].iter().zip(["cClass2", "gAbstractInterface7", "gAbstractInterface8"])
    {
        let at = b.cstr(n);
        b.patch(*f, at);
    }
    let i = chunks::Ifce::parse(&b.0, 0).unwrap();
    assert_eq!(i.class_instances.iter().map(|c| c.elements).collect::<Vec<_>>(), [1, 3]);
    let bytes = container(&[(b"IFCE", b.0.clone())]);
    let d = Dxbc::parse(&bytes).unwrap();
    let s = header_text(&d, Generation::Fxc10);
    let want = "\
// Available Class Instances:
//
// Name                        Type CB CB Offset Texture Sampler
// --------------------------- ---- -- --------- ------- -------
// gAbstractInterface7            0  0         3       -       -
// gAbstractInterface8[3]         0  0         5       -       -
//
";
    assert!(s.contains(want), "{s}");
}

#[test]
fn frame_errors_name_the_structure_and_offset() {
    let e = Dxbc::parse(b"DXBC").unwrap_err();
    assert_eq!(e.to_string(), "truncated DXBC header at offset 0x0 (need 32 bytes, have 4)");
    let mut good = container(&[(b"ABCD", vec![1, 2, 3, 4])]);
    good.truncate(good.len() - 2);
    let e = Dxbc::parse(&good).unwrap_err();
    assert_eq!(e.to_string(), "truncated DXBC container at offset 0x0 (need 48 bytes, have 46)");
    let mut bad = container(&[(b"ABCD", vec![1, 2, 3, 4])]);
    bad[32..36].copy_from_slice(&1000u32.to_le_bytes());
    let e = Dxbc::parse(&bad).unwrap_err();
    assert_eq!(e.offset(), 32);
    assert!(e.to_string().contains("chunk 0 offset"), "{e}");
    let mut bad = container(&[(b"ABCD", vec![1, 2, 3, 4])]);
    bad[40..44].copy_from_slice(&100u32.to_le_bytes());
    let e = Dxbc::parse(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "chunk 0 ABCD chunk at offset 0x28 points outside its range (0x2c + 0x64 is outside 0x30)"
    );
    let mut bad = container(&[]);
    bad[28..32].copy_from_slice(&0x4000_0000u32.to_le_bytes());
    let e = Dxbc::parse(&bad).unwrap_err();
    assert_eq!(e.offset(), 28);
}

#[test]
fn a_broken_chunk_is_reported_but_the_container_still_parses() {
    let bytes = container(&[(b"ISGN", vec![0xFF, 0xFF, 0xFF, 0x0F, 8, 0, 0, 0]), (b"XXXX", vec![7; 4])]);
    let d = Dxbc::parse(&bytes).unwrap();
    assert_eq!(d.chunk_errors.len(), 1);
    let v = crate::container::Container::validate(&d);
    assert!(v.iter().any(|f| f.message.contains("elements of 24 bytes")), "{v:?}");
    assert!(
        crate::container::Container::disasm(&d, &Default::default(), &mut crate::print::TextBuf::default())
            .is_err()
    );
    assert_eq!(crate::container::Container::write(&d).unwrap(), bytes);
    assert_eq!(crate::container::Container::part(&d, "XXXX").unwrap().bytes, vec![7; 4]);
}

#[test]
fn repeated_tags_are_index_qualified_parts() {
    let bytes = container(&[(b"PRIV", vec![1; 4]), (b"PRIV", vec![2; 4]), (b"STAT", vec![0; 4])]);
    let d = Dxbc::parse(&bytes).unwrap();
    let names: Vec<String> = crate::container::Container::parts(&d).into_iter().map(|p| p.name).collect();
    assert_eq!(names, vec!["PRIV.0", "PRIV.1", "STAT"]);
    assert_eq!(crate::container::Container::part(&d, "PRIV.1").unwrap().bytes, vec![2; 4]);
    assert!(crate::container::Container::part(&d, "PRIV").is_err());
}

#[test]
fn generation_comes_from_the_creator_strings() {
    assert_eq!(
        Generation::from_creator("Microsoft (R) HLSL Shader Compiler 9.29.952.3111"),
        Some(Generation::Fxc9_29)
    );
    assert_eq!(
        Generation::from_creator("Microsoft (R) HLSL Shader Compiler 9.30.9200.20714"),
        Some(Generation::Fxc9_30)
    );
    assert_eq!(
        Generation::from_creator("Microsoft (R) HLSL Shader Compiler 6.3.9600.16384"),
        Some(Generation::Fxc6_3)
    );
    assert_eq!(Generation::from_creator("Microsoft (R) HLSL Shader Compiler 10.1"), Some(Generation::Fxc10));
    assert_eq!(Generation::from_creator("vkd3d-shader 1.14"), None);
    assert_eq!(
        aon9_creator(b"\xfe\xff\x10\x00DBUG....Microsoft (R) HLSL Shader Compiler 10.1\0TEXCOORD"),
        Some("Microsoft (R) HLSL Shader Compiler 10.1".to_string())
    );
    // Every alignment, after near misses, and at the very end without a NUL.
    for pad in 0..17 {
        let mut p = vec![b'M'; pad];
        p.extend_from_slice(b"Microsoft (R) HLSL Shader Compile\0");
        p.extend_from_slice(b"Microsoft (R) HLSL Shader Compiler 9.29.952.3111");
        assert_eq!(aon9_creator(&p).as_deref(), Some("Microsoft (R) HLSL Shader Compiler 9.29.952.3111"));
        assert_eq!(aon9_creator(&p[..p.len() - 20]), None);
    }
}

#[test]
fn nested_shared_struct_types_cannot_blow_up_the_listing() {
    // 12 levels of struct types, each with 40 members of the next level: 40^12 declarations if
    // expanded naively.
    let (levels, members) = (12u32, 40u32);
    let mut b = Blob::default();
    b.u32(1).u32(28).u32(0).u32(0);
    b.0.extend_from_slice(&[0, 4]);
    b.u16(0xFFFE).u32(0).u32(0);
    let cb_name = b.at();
    b.u32(0).u32(1).u32(0).u32(16).u32(0).u32(0);
    let var = b.at();
    b.patch(cb_name + 8, var);
    b.u32(0).u32(0).u32(16).u32(2).u32(0).u32(0);
    let leaf = b.at();
    b.u16(0).u16(3).u16(1).u16(1).u16(0).u16(0).u32(0);
    let mut next = leaf;
    let name = b.cstr("m");
    for _ in 0..levels {
        let table = b.at();
        for _ in 0..members {
            b.u32(name).u32(next).u32(0);
        }
        let t = b.at();
        b.u16(5).u16(0).u16(1).u16(1).u16(0).u16(members as u16).u32(table);
        next = t;
    }
    b.patch(var + 16, next);
    b.patch(var, name);
    b.patch(cb_name, name);
    let c = b.cstr("x");
    b.patch(24, c);
    let bytes = container(&[(b"RDEF", b.0.clone())]);
    let d = Dxbc::parse(&bytes).unwrap();
    let start = std::time::Instant::now();
    let s = header_text(&d, Generation::Fxc10);
    let json = crate::container::Container::info_json(&d).to_string();
    assert!(s.lines().count() < 1_000_000, "{} lines", s.lines().count());
    assert!(json.len() < 100_000_000);
    assert!(start.elapsed() < std::time::Duration::from_secs(10), "{:?}", start.elapsed());
}

#[test]
fn a_chunk_header_cut_by_the_container_end_is_named() {
    let mut bytes = container(&[(b"ABCD", vec![])]);
    // Point the only chunk 4 bytes before the end: its size field is missing.
    let at = (bytes.len() - 4) as u32;
    bytes[32..36].copy_from_slice(&at.to_le_bytes());
    let e = Dxbc::parse(&bytes).unwrap_err();
    assert_eq!(e.to_string(), "truncated chunk 0 header at offset 0x2c (need 4 bytes, have 0)");
}

/// Each comment line reaches the printer as one line: its offset (the chunk of a title line,
/// the record of a row), its text one comment token without the line break.
#[test]
fn comment_lines_are_one_token_each_with_the_offset_of_what_they_show() {
    let isgn = signature(&[("POSITION", 0, 0, 3, 0, 15, 15)]);
    let bytes = container(&[(b"ISGN", isgn)]);
    let d = Dxbc::parse(&bytes).unwrap();
    // Header 32 bytes and a 4-byte index: the chunk at 36, its payload at 44, the element after
    // the 8-byte signature header at 52.
    assert_eq!(d.input.as_ref().unwrap().elements[0].offset, 52);
    let lines = [
        (None, "//"),
        (None, "// Generated by Microsoft (R) D3D Shader Disassembler"),
        (None, "//"),
        (None, "//"),
        (Some(36), "// Input signature:"),
        (None, "//"),
        (None, "// Name                 Index   Mask Register SysValue  Format   Used"),
        (None, "// -------------------- ----- ------ -------- -------- ------- ------"),
        (Some(52), "// POSITION                 0   xyzw        0     NONE   float   xyzw"),
        (None, "//"),
    ];
    let mut html = crate::print::Html::default();
    listing::header(&d, Generation::Fxc10, &mut html).unwrap();
    let want: String = lines
        .iter()
        .map(|(offset, text)| match offset {
            Some(o) => format!("<div data-offset=\"{o}\"><span class=\"cm\">{text}</span></div>\n"),
            None => format!("<div><span class=\"cm\">{text}</span></div>\n"),
        })
        .collect();
    assert_eq!(html.finish(), want);
    let mut ansi = crate::print::Ansi::default();
    listing::header(&d, Generation::Fxc10, &mut ansi).unwrap();
    let want: String = lines.iter().map(|(_, text)| format!("\x1b[2m{text}\x1b[0m\n")).collect();
    assert_eq!(ansi.out, want);
}

/// fxc 9.30's lone `/` of a container without RDEF is glued to the next line, in every sink.
#[test]
fn the_lone_slash_of_fxc_9_30_starts_the_next_line() {
    let bytes = container(&[(b"ISGN", signature(&[]))]);
    let d = Dxbc::parse(&bytes).unwrap();
    let text = header_text(&d, Generation::Fxc9_30);
    assert!(
        text.starts_with(
            "//\n// Generated by Microsoft (R) D3D Shader Disassembler\n//\n///\n// Input signature:\n"
        ),
        "{text}"
    );
    let mut html = crate::print::Html::default();
    listing::header(&d, Generation::Fxc9_30, &mut html).unwrap();
    assert!(
        html.finish()
            .contains("<div><span class=\"cm\">//</span></div>\n<div><span class=\"cm\">///</span></div>\n")
    );
    // With nothing after it, the `/` ends the tables without a line break.
    let bytes = container(&[(b"STAT", vec![0; 4])]);
    let d = Dxbc::parse(&bytes).unwrap();
    assert!(header_text(&d, Generation::Fxc9_30).ends_with("//\n/"));
}

/// Bytes between chunks are kept, annotated and, when not zero, reported where they are;
/// an index entry that repeats another's offset is reported.
#[test]
fn gaps_and_overlaps_are_found_where_they_are() {
    let mut bytes = container(&[(b"AAAA", vec![1; 4]), (b"BBBB", vec![2; 4])]);
    // A 4-byte gap of 0xEE before the second chunk (which moves from 52 to 56).
    bytes.splice(52..52, [0xEE; 4]);
    bytes[36..40].copy_from_slice(&56u32.to_le_bytes());
    let total = bytes.len() as u32;
    bytes[24..28].copy_from_slice(&total.to_le_bytes());
    let sum = checksum::compute(&bytes);
    bytes[4..20].copy_from_slice(&sum);
    let d = Dxbc::parse(&bytes).unwrap();
    let findings = crate::container::Container::validate(&d);
    let texts: Vec<(u64, &str)> = findings.iter().map(|f| (f.offset, f.message.as_str())).collect();
    assert_eq!(texts, vec![(52, "4 non-zero bytes between chunks before chunk 1 (BBBB)")]);
    let mut a = crate::dump::Annotations::new();
    crate::container::Container::annotate(&d, &mut a);
    let mut dump = String::new();
    a.render(&bytes, &mut dump).unwrap();
    assert!(dump.contains("0x0034 | ee ee ee ee             | bytes outside every chunk"), "{dump}");
    assert_eq!(crate::container::Container::write(&d).unwrap(), bytes);

    // The second index entry points at the first chunk (checksum left as it was).
    bytes[36..40].copy_from_slice(&40u32.to_le_bytes());
    let d = Dxbc::parse(&bytes).unwrap();
    let findings = crate::container::Container::validate(&d);
    let texts: Vec<(u64, &str)> = findings.iter().skip(1).map(|f| (f.offset, f.message.as_str())).collect();
    // The same bytes reached again are one finding, at the index entry, not an overlap.
    assert_eq!(
        texts,
        vec![(
            36,
            "1 index entry, chunk 1, repeats chunk 0's (AAAA) offset 0x28: the same bytes are reached again"
        )]
    );
    assert_eq!(crate::container::Container::write(&d).unwrap(), bytes);
    // The dump shows the chunk once, and both index entries.
    let mut a = crate::dump::Annotations::new();
    crate::container::Container::annotate(&d, &mut a);
    let mut dump = String::new();
    a.render(&bytes, &mut dump).unwrap();
    let rows: Vec<&str> = dump.lines().skip(9).collect();
    assert_eq!(
        rows,
        [
            "  0x0020 | 28 00 00 00             | chunk 0 (AAAA) at 0x28",
            "  0x0024 | 28 00 00 00             | chunk 1 (AAAA) at 0x28",
            "         |                         | == chunk 0 AAAA (unknown chunk) (0x28..0x34)",
            "  0x0028 | 41 41 41 41             | FourCC \"AAAA\"",
            "  0x002c | 04 00 00 00             | size: 4",
            "  0x0030 | 01 01 01 01             | payload (kept as bytes, not modelled)",
            "  0x0034 | ee ee ee ee 42 42 42 42 | bytes outside every chunk",
            "  0x003c | 04 00 00 00 02 02 02 02 |",
        ]
    );
}

/// Struct types that contain each other (A's first member is a B, B's first member an A)
/// cannot be laid out: the RDEF is damaged, at the member that closes the cycle, for every
/// command alike (the listing notes it and goes on; `validate` says it once).
#[test]
fn a_cycle_of_struct_types_is_damage() {
    let mut data = rdef_struct_const();
    let r = rdef::Rdef::parse(&data, 0).unwrap();
    let a = r.ty(r.constant_buffers[0].variables[0].ty).unwrap();
    let b = r.ty(r.constant_buffers[0].variables[1].ty).unwrap();
    let (a_at, b_at) = (a.offset, b.offset);
    let (a_member, b_member) = (a.members[0].offset, b.members[0].offset);
    data[a_member + 4..a_member + 8].copy_from_slice(&(b_at as u32).to_le_bytes());
    data[b_member + 4..b_member + 8].copy_from_slice(&(a_at as u32).to_le_bytes());
    let bytes = container(&[(b"RDEF", data)]);
    let d = Dxbc::parse(&bytes).unwrap();
    let rdef_at = d.chunk(b"RDEF").unwrap().data_offset();
    // A is read first (the first variable's type), then its member's type B, whose member
    // closes the cycle.
    let why = format!(
        "unusedTestB of the type at 0x{:x} has the type at 0x{:x}, which contains it: the struct types form a cycle",
        rdef_at + b_at,
        rdef_at + a_at
    );
    let text = format!("invalid RDEF struct member at offset 0x{:x}: {why}", rdef_at + b_member + 4);
    let damage: Vec<String> = crate::container::Container::damage(&d).iter().map(|e| e.to_string()).collect();
    assert_eq!(damage, [text.as_str()]);
    let findings = crate::container::Container::validate(&d);
    let errors: Vec<(u64, &str)> = findings
        .iter()
        .filter(|f| f.severity == crate::model::Severity::Error)
        .map(|f| (f.offset, f.message.as_str()))
        .collect();
    let finding = format!("invalid RDEF struct member: {why}");
    assert_eq!(errors, [((rdef_at + b_member + 4) as u64, finding.as_str())]);
    // The listing notes the damaged chunk and goes on.
    let mut listing = crate::print::TextBuf::default();
    let e = crate::container::Container::disasm(&d, &crate::model::DisasmOptions::default(), &mut listing);
    assert_eq!(e.unwrap_err().to_string(), text);
    let listing = listing.into_string();
    assert!(
        listing.contains(&format!("// Note: chunk 0 (RDEF) is damaged and not shown: {text}\n")),
        "{listing}"
    );
}
