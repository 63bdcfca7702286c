//! Unit tests with hand-computed tokens, one per encoding feature.

use super::*;
use crate::print::TextBuf;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The text of the single instruction in `body` (tokens after the version token, without end).
fn one(version: u32, body: &[u32]) -> String {
    let mut words = vec![version];
    words.extend_from_slice(body);
    words.push(opcodes::END_TOKEN);
    let data = bytes(&words);
    let p = Program::parse(&data, 0).unwrap();
    assert_eq!(p.write().unwrap(), data, "round trip");
    let ins = p.instructions().next().unwrap();
    let mut s = TextBuf::default();
    print::write_instruction(ins, p.version, &mut s).unwrap();
    let record = &records(&p, &ListingOptions::default())[0];
    assert_eq!(record.text, s.as_str(), "the record has the listing's text");
    s.into_string()
}

const VS20: u32 = 0xfffe_0200;
const VS30: u32 = 0xfffe_0300;
const PS20: u32 = 0xffff_0200;
const PS30: u32 = 0xffff_0300;
const VS11: u32 = 0xfffe_0101;
const PS14: u32 = 0xffff_0104;
const PS11: u32 = 0xffff_0101;

#[test]
fn versions_print_like_fxc() {
    let name = |t| Version::from_token(t).unwrap().name();
    assert_eq!(name(VS20), "vs_2_0");
    assert_eq!(name(0xffff_0201), "ps_2_x");
    assert_eq!(name(0xfffe_03ff), "vs_3_sw");
    assert_eq!(name(PS14), "ps_1_4");
    assert!(Version::from_token(0xffff_0400).is_none());
    assert!(Version::from_token(0x4358_4244).is_none());
}

#[test]
fn arithmetic_with_masks_and_swizzles() {
    // mad r0.xy, r1.x, c2.xyxy, v0 : 0x04000004; dst r0.xy = 0x80030000;
    // src r1.x = 0x80000001 (swizzle 0x00); c2.xyxy = 0xa0440002; v0 = 0x90e40000
    assert_eq!(
        one(VS20, &[0x0400_0004, 0x8003_0000, 0x8000_0001, 0xa044_0002, 0x90e4_0000]),
        "mad r0.xy, r1.x, c2.xyxy, v0"
    );
}

#[test]
fn source_modifiers() {
    // add r0, -r1, r2_abs.y : neg = 1<<24, abs = 11<<24, swizzle .y = 0x55
    assert_eq!(one(PS30, &[0x0300_0002, 0x800f_0000, 0x81e4_0001, 0x8b55_0002]), "add r0, -r1, r2_abs.y");
    // -abs (12), bias (2), bx2 (4), comp (6), x2 (7), dz (9), dw (10)
    assert_eq!(one(PS30, &[0x0200_0001, 0x800f_0000, 0x8c00_0003]), "mov r0, -r3_abs.x");
    assert_eq!(one(PS11, &[0x0000_0001, 0x800f_0000, 0x82e4_0000]), "mov r0, r0_bias");
    assert_eq!(one(PS11, &[0x0000_0001, 0x800f_0000, 0x84e4_0000]), "mov r0, r0_bx2");
    assert_eq!(one(PS11, &[0x0000_0001, 0x800f_0000, 0x86e4_0000]), "mov r0, 1 - r0");
    assert_eq!(one(PS14, &[0x0000_0001, 0x800f_0000, 0x87e4_0000]), "mov r0, r0_x2");
    assert_eq!(one(PS14, &[0x0000_0042, 0x800f_0000, 0xb9e4_0000]), "texld r0, t0_dz");
    assert_eq!(one(PS14, &[0x0000_0042, 0x800f_0000, 0xbae4_0000]), "texld r0, t0_dw");
}

#[test]
fn result_modifiers_and_shift() {
    // mul_sat r0.xyz (mod 1) ; mad_sat_pp (3) ; ps_1_x shift _x2 (1) and _d2 (0xf)
    assert_eq!(one(PS20, &[0x0300_0005, 0x8017_0000, 0x80e4_0001, 0xa0e4_0000]), "mul_sat r0.xyz, r1, c0");
    assert_eq!(one(PS20, &[0x0300_0005, 0x803f_0000, 0x80e4_0001, 0xa0e4_0000]), "mul_sat_pp r0, r1, c0");
    assert_eq!(one(PS11, &[0x0000_0005, 0x811f_0000, 0x80e4_0001, 0xb0e4_0000]), "mul_x2_sat r0, r1, t0");
    assert_eq!(one(PS11, &[0x0000_0002, 0x8f0f_0000, 0x80e4_0001, 0xb0e4_0000]), "add_d2 r0, r1, t0");
    // coissue (bit 30) in ps_1_x: +mov r0.w, t0
    assert_eq!(one(PS11, &[0x4000_0001, 0x8008_0000, 0xb0e4_0000]), "+mov r0.w, t0");
}

#[test]
fn relative_addressing() {
    // vs_2_0 mov r3, c0[a0.x]: src 0xa0e42000 + address token a0.x = 0xb0000000
    assert_eq!(one(VS20, &[0x0300_0001, 0x800f_0003, 0xa0e4_2000, 0xb000_0000]), "mov r3, c0[a0.x]");
    // dp4 r1.w, v3, c196[aL]: address token aL = 0xf0e40800 (type 15)
    assert_eq!(
        one(VS20, &[0x0400_0009, 0x8008_0001, 0x90e4_0003, 0xa0e4_20c4, 0xf0e4_0800]),
        "dp4 r1.w, v3, c196[aL]"
    );
    // vs_1_1 has no address token: mov r0, c5[a0.x]
    assert_eq!(one(VS11, &[0x0000_0001, 0x800f_0000, 0xa0e4_2005]), "mov r0, c5[a0.x]");
    // vs_3_0 relative destination: mov o[aL], r0  -> o0[aL]
    assert_eq!(one(VS30, &[0x0300_0001, 0xe00f_2000, 0xf0e4_0800, 0x80e4_0000]), "mov o0[aL], r0");
}

#[test]
fn declarations() {
    // vs: dcl_texcoord1 v2.xy (usage 5, index 1)
    assert_eq!(one(VS20, &[0x0200_001f, 0x8001_0005, 0x9003_0002]), "dcl_texcoord1 v2.xy");
    assert_eq!(one(VS20, &[0x0200_001f, 0x8000_0000, 0x900f_0000]), "dcl_position v0");
    // vs_3_0 output: dcl_position o0
    assert_eq!(one(VS30, &[0x0200_001f, 0x8000_0000, 0xe00f_0000]), "dcl_position o0");
    // ps_2_0: dcl t0.xyz (the usage token is ignored), dcl_2d s0 (type 2 << 27)
    assert_eq!(one(PS20, &[0x0200_001f, 0x8000_0000, 0xb007_0000]), "dcl t0.xyz");
    assert_eq!(one(PS20, &[0x0200_001f, 0x9000_0000, 0xa00f_0800]), "dcl_2d s0");
    assert_eq!(one(PS20, &[0x0200_001f, 0x9800_0000, 0xa00f_0801]), "dcl_cube s1");
    assert_eq!(one(PS20, &[0x0200_001f, 0xa000_0000, 0xa00f_0802]), "dcl_volume s2");
    // ps_2_0 centroid input: dcl_centroid t1 (result modifier 4)
    assert_eq!(one(PS20, &[0x0200_001f, 0x8000_0000, 0xb04f_0001]), "dcl_centroid t1");
    // ps_3_0: dcl_texcoord v0.w, dcl_color_pp v1, dcl vPos.xy (misc type 17 = 0b10001)
    assert_eq!(one(PS30, &[0x0200_001f, 0x8000_0005, 0x9008_0000]), "dcl_texcoord v0.w");
    assert_eq!(one(PS30, &[0x0200_001f, 0x8000_000a, 0x902f_0001]), "dcl_color_pp v1");
    assert_eq!(one(PS30, &[0x0200_001f, 0x8000_0000, 0x9003_1000]), "dcl vPos.xy");
}

#[test]
fn constants() {
    // def c200, 4, 0, 1, 0
    assert_eq!(
        one(VS20, &[0x0500_0051, 0xa00f_00c8, 0x4080_0000, 0, 0x3f80_0000, 0]),
        "def c200, 4, 0, 1, 0"
    );
    // defi i0, 16, 0, -1, 0 ; defb b3, true
    assert_eq!(one(PS30, &[0x0500_0030, 0xf00f_0000, 16, 0, 0xffff_ffff, 0]), "defi i0, 16, 0, -1, 0");
    assert_eq!(one(VS20, &[0x0200_002f, 0xe00f_0803, 1]), "defb b3, true");
}

#[test]
fn flow_control_and_comparisons() {
    // if_lt r5.w, -r7.x : ifc with comparison 4 in bits 16-18
    assert_eq!(one(PS30, &[0x0204_0029, 0x80ff_0005, 0x8100_0007]), "if_lt r5.w, -r7.x");
    assert_eq!(one(PS30, &[0x0203_002d, 0x80aa_0004, 0x80ff_0004]), "break_ge r4.z, r4.w");
    // loop aL, i0 ; rep i0 ; if b0 ; callnz l1, b0
    assert_eq!(one(VS20, &[0x0200_001b, 0xf0e4_0800, 0xf0e4_0000]), "loop aL, i0");
    assert_eq!(one(VS20, &[0x0100_0026, 0xf0e4_0000]), "rep i0");
    assert_eq!(one(VS20, &[0x0100_0028, 0xe0e4_0800]), "if b0");
    assert_eq!(one(VS20, &[0x0200_001a, 0xa0e4_1001, 0xe0e4_0800]), "callnz l1, b0");
    // setp_gt p0.x, r0.x, c0.x (p0 = type 19)
    assert_eq!(one(PS30, &[0x0301_005e, 0xb001_1000, 0x8000_0000, 0xa000_0000]), "setp_gt p0.x, r0.x, c0.x");
}

#[test]
fn predication() {
    // (p0.x) mov r0, r1 and (!p0) with the not modifier (13)
    assert_eq!(one(PS30, &[0x1300_0001, 0x800f_0000, 0xb000_1000, 0x80e4_0001]), "(p0.x) mov r0, r1");
    assert_eq!(one(PS30, &[0x1300_0001, 0x800f_0000, 0xbde4_1000, 0x80e4_0001]), "(!p0) mov r0, r1");
}

#[test]
fn texture_instructions_by_version() {
    // ps_2_0 texld / texldp / texldb
    assert_eq!(one(PS20, &[0x0300_0042, 0x800f_0000, 0xb0e4_0000, 0xa0e4_0800]), "texld r0, t0, s0");
    assert_eq!(one(PS20, &[0x0301_0042, 0x800f_0000, 0xb0e4_0000, 0xa0e4_0800]), "texldp r0, t0, s0");
    assert_eq!(one(PS20, &[0x0302_0042, 0x800f_0000, 0xb0e4_0000, 0xa0e4_0800]), "texldb r0, t0, s0");
    // ps_1_1 tex t0 / texcoord t1 ; ps_1_4 texcrd r0.xyz, t0
    assert_eq!(one(PS11, &[0x0000_0042, 0xb00f_0000]), "tex t0");
    assert_eq!(one(PS11, &[0x0000_0040, 0xb00f_0001]), "texcoord t1");
    assert_eq!(one(PS14, &[0x0000_0040, 0x8007_0000, 0xb0e4_0000]), "texcrd r0.xyz, t0");
    // texldl, texldd in ps_3_0
    assert_eq!(one(PS30, &[0x0300_005f, 0x800f_0002, 0x80e4_0002, 0xa0e4_0800]), "texldl r2, r2, s0");
    assert_eq!(
        one(PS30, &[0x0500_005d, 0x800f_0007, 0x80e4_0004, 0xa0e4_0801, 0x80e9_0002, 0x80e4_0003]),
        "texldd r7, r4, s1, r2.yzzw, r3"
    );
    // sincos in vs_2_0 has three sources, in vs_3_0 one
    assert_eq!(
        one(VS20, &[0x0400_0025, 0x8003_0001, 0x80ff_0000, 0xa0e4_000e, 0xa0e4_000f]),
        "sincos r1.xy, r0.w, c14, c15"
    );
    assert_eq!(one(VS30, &[0x0200_0025, 0x8003_0001, 0x80ff_0000]), "sincos r1.xy, r0.w");
}

#[test]
fn special_registers() {
    // vs_2_0 mov oPts, c0.x (rastout 2) ; mov oD0, c1 ; mov oT2.x, r0.x ; mova a0.x, r1.w
    assert_eq!(one(VS20, &[0x0200_0001, 0xc00f_0002, 0xa000_0000]), "mov oPts, c0.x");
    assert_eq!(one(VS20, &[0x0200_0001, 0xd00f_0000, 0xa0e4_0001]), "mov oD0, c1");
    assert_eq!(one(VS20, &[0x0200_0001, 0xe001_0002, 0x8000_0000]), "mov oT2.x, r0.x");
    assert_eq!(one(VS20, &[0x0200_002e, 0xb001_0000, 0x80ff_0001]), "mova a0.x, r1.w");
    // ps: oC0, oDepth, vFace, c2050 through D3DSPR_CONST2
    assert_eq!(one(PS30, &[0x0200_0001, 0x800f_0800, 0x90e4_1001]), "mov oC0, vFace");
    assert_eq!(one(PS20, &[0x0200_0001, 0x900f_0800, 0x8000_0000]), "mov oDepth, r0.x");
    assert_eq!(one(VS30, &[0x0200_0001, 0x800f_0000, 0xb0e4_0802]), "mov r0, c2050");
}

#[test]
fn unknown_and_malformed_instructions_survive_in_sm2() {
    // opcode 0x37 with two body tokens, and a mov whose length says 3
    let text = one(VS20, &[0x0200_0037, 0x800f_0000, 0x90e4_0000]);
    assert_eq!(text, "opcode_0x0037 0x800f0000, 0x90e40000");
    let text = one(VS20, &[0x0300_0001, 0x800f_0000, 0x90e4_0000, 0x90e4_0001]);
    assert_eq!(text, "mov 0x800f0000, 0x90e40000, 0x90e40001");
    let data = bytes(&[VS20, 0x0300_0001, 0x800f_0000, 0x90e4_0000, 0x90e4_0001, 0xffff]);
    let p = Program::parse(&data, 0).unwrap();
    assert!(p.instructions().next().unwrap().malformed.is_some());
}

#[test]
fn sm1_unknown_opcodes_and_truncation_are_errors() {
    let data = bytes(&[VS11, 0x0000_0037, 0xffff]);
    let e = Program::parse(&data, 0x40).unwrap_err();
    assert_eq!(e.offset(), 0x44);
    let data = bytes(&[VS20, 0x0300_0001, 0x800f_0000]);
    let e = Program::parse(&data, 0x100).unwrap_err();
    assert_eq!(e.to_string(), "truncated D3D9 instruction at offset 0x104 (need 16 bytes, have 8)");
    let data = bytes(&[VS20, 0x0010_fffe, 0]);
    assert!(Program::parse(&data, 0).is_err());
    assert!(Program::parse(&[0, 2, 0xfe], 0).is_err());
}

#[test]
fn comments_end_and_trailing_bytes_are_kept() {
    let mut data = bytes(&[PS20, 0x0002_fffe, 0x4241_5443, 7, 0x0200_0001, 0x800f_0800, 0xa0e4_0000, 0xffff]);
    data.extend_from_slice(&[0xab, 0xab]);
    let p = Program::parse(&data, 0).unwrap();
    assert!(p.has_end());
    assert_eq!(p.trailing, &[0xab, 0xab]);
    assert_eq!(p.comments().count(), 1);
    assert_eq!(p.comment_block(b"CTAB").map(|(o, d)| (o, d.len())), Some((12, 4)));
    assert_eq!(p.program_len(), 32);
    assert_eq!(p.write().unwrap(), data);
}

/// What the walk reports, one line a step or problem.
#[derive(Default)]
struct Steps(Vec<String>);

impl crate::isa::walk::Visit<walk::Step<'_>> for Steps {
    fn step(&mut self, step: walk::Step<'_>) {
        use walk::Step::*;
        self.0.push(match step {
            Version { at, token, len, .. } => format!("0x{at:x} version 0x{token:08x}, {len} bytes"),
            Comment { at, data, .. } => format!("0x{at:x} comment of {} bytes", data.len()),
            Instruction(i) => format!("0x{:x} instruction 0x{:04x}", i.offset, i.code()),
            End { at, token } => format!("0x{at:x} end 0x{token:08x}"),
            NoEnd { at } => format!("0x{at:x} no end"),
            Trailing { at, bytes } => format!("0x{at:x} {} trailing bytes", bytes.len()),
        });
    }
    fn problem(&mut self, error: crate::error::Error) {
        self.0.push(format!("problem: {error}"));
    }
}

#[test]
fn the_walk_gives_every_step_in_stream_order() {
    // ps_2_0: a CTAB comment, mov, end token, two bytes after it; at absolute offset 0x40.
    let mut data = bytes(&[PS20, 0x0002_fffe, 0x4241_5443, 7, 0x0200_0001, 0x800f_0800, 0xa0e4_0000, 0xffff]);
    data.extend_from_slice(&[0xab, 0xab]);
    let p = Program::parse(&data, 0x40).unwrap();
    let mut v = Steps::default();
    walk::walk(&p, None, &mut v);
    assert_eq!(
        v.0,
        [
            "0x40 version 0xffff0200, 32 bytes",
            "0x44 comment of 8 bytes",
            "0x50 instruction 0x0001",
            "0x5c end 0x0000ffff",
            "0x60 2 trailing bytes",
        ]
    );
    // Without the end token: the stream stops after the instruction.
    let data = bytes(&[PS20, 0x0200_0001, 0x800f_0800, 0xa0e4_0000]);
    let p = Program::parse(&data, 0).unwrap();
    let mut v = Steps::default();
    walk::walk(&p, None, &mut v);
    assert_eq!(v.0, ["0x0 version 0xffff0200, 16 bytes", "0x4 instruction 0x0001", "0x10 no end"]);
    // Read in part: the whole items, then where reading stopped.
    let data = bytes(&[PS20, 0x0200_0001, 0x800f_0800, 0xa0e4_0000, 0x0200_0001, 0x800f_0800]);
    let (p, e) = Program::parse_partial(&data, 0).unwrap();
    let mut v = Steps::default();
    walk::walk(&p, e.as_ref(), &mut v);
    assert_eq!(
        v.0,
        [
            "0x0 version 0xffff0200, 16 bytes",
            "0x4 instruction 0x0001",
            "0x10 no end",
            "problem: truncated D3D9 instruction at offset 0x10 (need 12 bytes, have 8)",
        ]
    );
}

#[test]
fn listing_indents_blocks_and_counts_slots() {
    // boolconst.o's program: def, dcl, mov, if b0, mul, else, mul, endif, mov
    let words = [
        VS20,
        0x0500_0051,
        0xa00f_0000,
        0x4000_0000,
        0x3f80_0000,
        0x3f00_0000,
        0,
        0x0200_001f,
        0x8000_0000,
        0x900f_0000,
        0x0200_0001,
        0x800f_0000,
        0x90e4_0000,
        0x0100_0028,
        0xe0e4_0800,
        0x0300_0005,
        0x800f_0001,
        0x80e4_0000,
        0xa064_0000,
        0x0000_002a,
        0x0300_0005,
        0x800f_0001,
        0x80e4_0000,
        0xa054_0000,
        0x0000_002b,
        0x0200_0001,
        0xc00f_0000,
        0x80e4_0001,
        0xffff,
    ];
    let data = bytes(&words);
    let p = Program::parse(&data, 0).unwrap();
    let mut out = TextBuf::default();
    write_listing(&p, &ListingOptions::default(), &mut out).unwrap();
    assert_eq!(
        out.as_str(),
        "    vs_2_0\n    def c0, 2, 1, 0.5, 0\n    dcl_position v0\n    mov r0, v0\n    if b0\n      mul r1, r0, c0.xyzy\n    else\n      mul r1, r0, c0.xyyy\n    endif\n    mov oPos, r1\n\n// approximately 9 instruction slots used\n"
    );
    assert_eq!(p.slots(), SlotCounts { total: 9, texture: 0 });
}

#[test]
fn pixel_listing_splits_texture_and_arithmetic() {
    let words = [
        PS20,
        0x0200_001f,
        0x8000_0000,
        0xb003_0000,
        0x0200_001f,
        0x9000_0000,
        0xa00f_0800,
        0x0300_0042,
        0x800f_0000,
        0xb0e4_0000,
        0xa0e4_0800,
        0x0300_0005,
        0x800f_0000,
        0x80e4_0000,
        0xa0e4_0000,
        0x0200_0001,
        0x800f_0800,
        0x80e4_0000,
        0xffff,
    ];
    let data = bytes(&words);
    let p = Program::parse(&data, 0).unwrap();
    let mut out = TextBuf::default();
    write_listing(&p, &ListingOptions::default(), &mut out).unwrap();
    assert!(
        out.as_str().ends_with("\n\n// approximately 3 instruction slots used (1 texture, 2 arithmetic)\n"),
        "{}",
        out.as_str()
    );
}

/// A `CTAB` comment: one `float4 c` in c3, written by compiler "x".
fn ctab_comment() -> Vec<u32> {
    let mut w = vec![u32::from_le_bytes(*b"CTAB")];
    // Header: size, creator at 66, version, 1 constant at 28, flags, no target.
    w.extend([28, 66, PS30, 1, 28, 0, 0]);
    // 28: "c" (name at 64), set 2 (float4), index 3, count 1, type at 48.
    w.extend([64, 0x0003_0002, 1, 48, 0]);
    // 48: vector of float, 1 row, 4 columns, 1 element.
    w.extend([0x0003_0001, 0x0004_0001, 1, 0]);
    w.push(u32::from_le_bytes(*b"c\0x\0"));
    let mut comment = vec![0xfffe | ((w.len() as u32) << 16)];
    comment.extend(w);
    comment
}

/// ps_3_0 with a constant table: def, dcl, texld, a predicated mov, end.
fn styled_program() -> Vec<u8> {
    let mut words = vec![PS30];
    words.extend(ctab_comment());
    words.extend([0x0500_0051, 0xa00f_0000, 0x3f80_0000, 0x3f00_0000, 0xc000_0000, 0]);
    words.extend([0x0200_001f, 0x9000_0000, 0xa00f_0800]);
    words.extend([0x0300_0042, 0x800f_0000, 0x90e4_0000, 0xa0e4_0800]);
    words.extend([0x1300_0001, 0x800f_0800, 0xb000_1000, 0x8c00_0000]);
    words.push(opcodes::END_TOKEN);
    bytes(&words)
}

#[test]
fn html_listing_styles_every_token_and_gives_line_offsets() {
    let data = styled_program();
    let p = Program::parse(&data, 0).unwrap();
    let mut html = crate::print::Html::default();
    let opts = ListingOptions { header: true, offsets: true, raw: true, ..Default::default() };
    write_listing(&p, &opts, &mut html).unwrap();
    let html = html.finish();
    let lines: Vec<&str> = html.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "<div><span class=\"cm\">//</span></div>",
            "<div><span class=\"cm\">// Generated by x</span></div>",
            "<div><span class=\"cm\">//</span></div>",
            "<div data-offset=\"12\"><span class=\"cm\">// Parameters:</span></div>",
            "<div data-offset=\"12\"><span class=\"cm\">//</span></div>",
        ]
    );
    let program: Vec<&str> = lines.iter().copied().skip_while(|l| !l.contains("ps_3_0")).collect();
    assert_eq!(
        program,
        [
            "<div data-offset=\"0\">    <span class=\"dir\">ps_3_0</span></div>",
            "<div data-offset=\"80\"><span class=\"addr\">0x00000050: </span>    <span class=\"mn\">def</span> \
             <span class=\"reg\">c0</span>, <span class=\"lit\">1</span>, <span class=\"lit\">0.5</span>, \
             <span class=\"lit\">-2</span>, <span class=\"lit\">0</span>  <span class=\"addr\">// 05000051 \
             a00f0000 3f800000 3f000000 c0000000 00000000</span></div>",
            "<div data-offset=\"104\"><span class=\"addr\">0x00000068: </span>    <span class=\"mn\">dcl_2d</span> \
             <span class=\"reg\">s0</span>  <span class=\"addr\">// 0200001f 90000000 a00f0800</span></div>",
            "<div data-offset=\"116\"><span class=\"addr\">0x00000074: </span>    <span class=\"mn\">texld</span> \
             <span class=\"reg\">r0</span>, <span class=\"reg\">v0</span>, <span class=\"reg\">s0</span>  \
             <span class=\"addr\">// 03000042 800f0000 90e40000 a0e40800</span></div>",
            "<div data-offset=\"132\"><span class=\"addr\">0x00000084: </span>    (<span class=\"reg\">p0.x</span>) \
             <span class=\"mn\">mov</span> <span class=\"reg\">oC0</span>, <span class=\"reg\">-r0_abs.x</span>  \
             <span class=\"addr\">// 13000001 800f0800 b0001000 8c000000</span></div>",
            "<div></div>",
            "<div><span class=\"cm\">// approximately 2 instruction slots used (1 texture, 1 arithmetic)</span></div>",
        ]
    );
}

#[test]
fn plain_listing_of_the_styled_program() {
    let data = styled_program();
    let p = Program::parse(&data, 0).unwrap();
    let mut out = TextBuf::default();
    write_listing(&p, &ListingOptions { header: true, ..Default::default() }, &mut out).unwrap();
    assert_eq!(
        out.as_str(),
        "//\n// Generated by x\n//\n// Parameters:\n//\n//   float4 c;\n//\n//\n// Registers:\n//\n\
         //   Name         Reg   Size\n//   ------------ ----- ----\n//   c            c3       1\n//\n\n\
         \x20   ps_3_0\n    def c0, 1, 0.5, -2, 0\n    dcl_2d s0\n    texld r0, v0, s0\n    (p0.x) mov oC0, -r0_abs.x\n\
         \n// approximately 2 instruction slots used (1 texture, 1 arithmetic)\n"
    );
}

#[test]
fn ansi_listing_colours_mnemonics_registers_and_literals() {
    let data = bytes(&[
        VS20,
        0x0500_0051,
        0xa00f_0000,
        0x3f80_0000,
        0,
        0,
        0,
        0x0100_0028,
        0xe0e4_0800,
        0x0000_002b,
        0xffff,
    ]);
    let p = Program::parse(&data, 0).unwrap();
    let mut out = crate::print::Ansi::default();
    write_listing(&p, &ListingOptions::default(), &mut out).unwrap();
    assert_eq!(
        out.out,
        "    \x1b[36mvs_2_0\x1b[0m\n    \x1b[1;34mdef\x1b[0m \x1b[32mc0\x1b[0m, \x1b[33m1\x1b[0m, \x1b[33m0\x1b[0m, \
         \x1b[33m0\x1b[0m, \x1b[33m0\x1b[0m\n    \x1b[1;34mif\x1b[0m \x1b[32mb0\x1b[0m\n    \x1b[1;34mendif\x1b[0m\n\n\
         \x1b[2m// approximately 4 instruction slots used\x1b[0m\n"
    );
}

#[test]
fn records_have_the_listing_text_mnemonic_operands_and_words() {
    let data = styled_program();
    let p = Program::parse(&data, 0).unwrap();
    let r = records(&p, &ListingOptions::default());
    let summary: Vec<(u64, &str, Vec<&str>, &str)> = r
        .iter()
        .map(|r| {
            (r.offset, r.mnemonic.as_str(), r.operands.iter().map(String::as_str).collect(), r.text.as_str())
        })
        .collect();
    assert_eq!(
        summary,
        [
            (0x50, "def", vec!["c0", "1", "0.5", "-2", "0"], "def c0, 1, 0.5, -2, 0"),
            (0x68, "dcl_2d", vec!["s0"], "dcl_2d s0"),
            (0x74, "texld", vec!["r0", "v0", "s0"], "texld r0, v0, s0"),
            (0x84, "mov", vec!["p0.x", "oC0", "-r0_abs.x"], "(p0.x) mov oC0, -r0_abs.x"),
        ]
    );
    assert_eq!(r[1].words, [0x0200_001f, 0x9000_0000, 0xa00f_0800]);
    assert_eq!(r[3].words, [0x1300_0001, 0x800f_0800, 0xb000_1000, 0x8c00_0000]);
    // A relative address stays inside its operand; a malformed instruction's tokens are
    // literals.
    let data = bytes(&[
        VS20,
        0x0300_0001,
        0x800f_0003,
        0xa0e4_2000,
        0xb000_0000,
        0x0200_0037,
        0x800f_0000,
        7,
        0xffff,
    ]);
    let r = records(&Program::parse(&data, 0x10).unwrap(), &ListingOptions::default());
    assert_eq!((r[0].offset, r[0].operands.clone()), (0x14, vec!["r3".to_string(), "c0[a0.x]".to_string()]));
    assert_eq!(r[0].words, [0x0300_0001, 0x800f_0003, 0xa0e4_2000, 0xb000_0000]);
    assert_eq!(
        (r[1].mnemonic.as_str(), r[1].text.as_str()),
        ("opcode_0x0037", "opcode_0x0037 0x800f0000, 0x00000007")
    );
    assert_eq!(r[1].operands, ["0x800f0000", "0x00000007"]);
}

/// A `DBUG` comment for instructions at `offsets` (bytes from the version token): each on
/// its own line of `a.fx` (10, 14, 18, …), the first two writing components of the entry
/// point's parameter `pin`.
fn debug_comment(offsets: &[u32]) -> Vec<u32> {
    let n = offsets.len() as u32;
    let (lines_at, vars_at) = (44, 44 + 8 * n);
    let (writes_at, strings) = (vars_at + 20, vars_at + 44);
    let (file, entry, name, creator) = (strings, strings + 5, strings + 10, strings + 14);
    let mut w =
        vec![u32::from_le_bytes(*b"DBUG"), 40, creator, 0, 1, 40, n, lines_at, 1, vars_at, entry, file];
    for (k, &o) in offsets.iter().enumerate() {
        w.extend([10 + 4 * k as u32, o]);
    }
    w.extend([entry, name, 0, 2, writes_at]);
    w.extend([0, 0x0001_0000, 0xffff_ffff, 1, 0xffff_0002, 0x0003_ffff]);
    w.extend(b"a.fx\0main\0pin\0cc\0\0\0\0".chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())));
    let mut comment = vec![0xfffe | ((w.len() as u32) << 16)];
    comment.extend(w);
    comment
}

/// The `DBUG` block gives `#line` directives and variable comments wherever it is in the
/// stream; a broken first one gives none.
#[test]
fn debug_blocks_give_line_directives_and_variable_comments() {
    let mov = [0x0200_0001, 0x800f_0000, 0x80e4_0001];
    // `D`: the debug comment, `B`: a broken one, `C`: another comment, `I`: an instruction.
    for layout in ["DIII", "IDII", "IIID", "BIDII", "CIDII", "DIBII", "IIIBD", "CDIII"] {
        // Every item but the debug comment takes three words.
        let size = |item: char| if item == 'D' { debug_comment(&[0; 3]).len() * 4 } else { 12 };
        let mut offsets = Vec::new();
        let mut at = 4;
        for item in layout.chars() {
            if item == 'I' {
                offsets.push(at as u32);
            }
            at += size(item);
        }
        let mut words = vec![VS20];
        for item in layout.chars() {
            match item {
                'D' => words.extend(debug_comment(&offsets)),
                'B' => words.extend([0x0002_fffe, u32::from_le_bytes(*b"DBUG"), 7]),
                'C' => words.extend([0x0002_fffe, u32::from_le_bytes(*b"CTAB"), 7]),
                _ => words.extend(mov),
            }
        }
        words.push(opcodes::END_TOKEN);
        let data = bytes(&words);
        let p = Program::parse(&data, 0x40).unwrap();
        let mut out = TextBuf::default();
        write_listing(&p, &ListingOptions::default(), &mut out).unwrap();
        let broken_first = layout.find('B').is_some_and(|b| b < layout.find('D').unwrap());
        let want = if broken_first {
            "    vs_2_0\n    mov r0, r1\n    mov r0, r1\n    mov r0, r1\n\n// approximately 3 instruction slots used\n"
        } else {
            "    vs_2_0\n\n#line 10 \"a.fx\"\n    mov r0, r1  // pin<0,1>\n\n#line 14\n    mov r0, r1  // pin<2,3>\n\n\
             #line 18\n    mov r0, r1\n\n// approximately 3 instruction slots used\n"
        };
        assert_eq!(out.as_str(), want, "{layout}");
    }
}

/// A `def` value on a tie of its ninth digit (1 + 2^-9 = 1.001953125): to even by default, away
/// from zero on the legacy C runtime (`--fxc 10-legacy-crt`), as DXDecompiler's `ShadowMap`
/// listing prints it.
#[test]
fn def_ties_round_as_the_c_runtime_does() {
    let mut data = styled_program();
    let at = data.windows(4).position(|w| w == (-2.0f32).to_bits().to_le_bytes()).unwrap();
    data[at..at + 4].copy_from_slice(&0x3f80_4000u32.to_le_bytes());
    let p = Program::parse(&data, 0).unwrap();
    let def = |opts: ListingOptions| {
        let mut out = TextBuf::default();
        write_listing(&p, &opts, &mut out).unwrap();
        out.into_string().lines().find(|l| l.contains("def c0")).map(str::to_string)
    };
    assert_eq!(def(ListingOptions::default()).as_deref(), Some("    def c0, 1, 0.5, 1.00195312, 0"));
    let legacy = ListingOptions::of(&crate::DisasmOptions::default().with_fxc("10-legacy-crt").unwrap());
    assert_eq!(legacy.float_style, crate::print::float::FloatStyle::UcrtLegacy);
    assert_eq!(def(legacy).as_deref(), Some("    def c0, 1, 0.5, 1.00195313, 0"));
}

/// fxc's `/Ni`, `/No` and `/Lx` layouts (seen in public `ps_3_0` listings made with
/// `/Ni /No`): the version line alone, six spaces before a declaration, the arithmetic slots
/// used so far before an instruction (a texture instruction adds none), offsets in upper case
/// from the version token.
#[test]
fn numbering_offsets_and_hex_literals_in_fxc_layouts() {
    let data = styled_program();
    let p = Program::parse(&data, 0).unwrap();
    let text = |opts: ListingOptions| {
        let mut out = TextBuf::default();
        write_listing(&p, &opts, &mut out).unwrap();
        out.into_string()
    };
    let both = text(ListingOptions { numbering: true, offsets: true, ..Default::default() });
    assert_eq!(
        both,
        "    ps_3_0\n\
         \x20     0x00000050:     def c0, 1, 0.5, -2, 0\n\
         \x20     0x00000068:     dcl_2d s0\n\
         \x20  0  0x00000074:     texld r0, v0, s0\n\
         \x20  0  0x00000084:     (p0.x) mov oC0, -r0_abs.x\n\
         \n\
         // approximately 2 instruction slots used (1 texture, 1 arithmetic)\n"
    );
    let ni = text(ListingOptions { numbering: true, ..Default::default() });
    assert!(ni.contains("\n          def c0, 1, 0.5, -2, 0\n          dcl_2d s0\n   0:     texld r0, v0, s0\n   0:     (p0.x) mov"));
    let no = text(ListingOptions { offsets: true, ..Default::default() });
    assert!(no.starts_with("    ps_3_0\n0x00000050:     def c0, 1, 0.5, -2, 0\n0x00000068:     dcl_2d s0\n"));
    let lx = text(ListingOptions { hex_literals: true, ..Default::default() });
    assert!(lx.contains("\n    def c0, 0x3f800000, 0x3f000000, 0xc0000000, 0x00000000\n"));
    // Instructions only: no statistics line.
    let only = text(ListingOptions { instruction_only: true, ..Default::default() });
    assert!(only.ends_with("    (p0.x) mov oC0, -r0_abs.x\n"));
    // The same program 0x40 bytes into a file: /No counts from the version token, file
    // offsets from the start of the file.
    let mut shifted = vec![0u8; 0x40];
    shifted.extend_from_slice(&data);
    let q = Program::parse(shifted.get(0x40..).unwrap(), 0x40).unwrap();
    let mut out = TextBuf::default();
    write_listing(&q, &ListingOptions { offsets: true, ..Default::default() }, &mut out).unwrap();
    assert!(out.as_str().contains("\n0x00000074:     texld"));
    let mut out = TextBuf::default();
    write_listing(
        &q,
        &ListingOptions { file_offsets: true, numbering: true, ..Default::default() },
        &mut out,
    )
    .unwrap();
    assert!(out.as_str().contains("\n   0  0x000000B4:     texld r0, v0, s0\n"));
}

/// Every slot cost fxc's numbering shows in the public listings: `pow` 3, `dp2add` 2,
/// `sincos` 8, a texture load 0 (it shows the count before it).
#[test]
fn numbering_counts_arithmetic_slots() {
    // ps_2_0: texld r0, t0, s0; sincos r1.xy, r0.x, c0, c1; pow r2.x, r0.x, r0.y; mov oC0, r0
    let words = [
        0xffff_0200u32,
        0x0200_001f,
        0x8000_0000,
        0xb00f_0000, // dcl t0
        0x0200_001f,
        0x9000_0000,
        0xa00f_0800, // dcl_2d s0
        0x0300_0042,
        0x800f_0000,
        0xb0e4_0000,
        0xa0e4_0800, // texld r0, t0, s0
        0x0400_0025,
        0x8003_0001,
        0x8000_0000,
        0xa0e4_0000,
        0xa0e4_0001, // sincos r1.xy, r0.x, c0, c1
        0x0300_0020,
        0x8001_0002,
        0x8000_0000,
        0x8055_0000, // pow r2.x, r0.x, r0.y
        0x0200_0001,
        0x800f_0800,
        0x80e4_0000, // mov oC0, r0
        opcodes::END_TOKEN,
    ];
    let data = bytes(&words);
    let p = Program::parse(&data, 0).unwrap();
    let mut out = TextBuf::default();
    write_listing(&p, &ListingOptions { numbering: true, ..Default::default() }, &mut out).unwrap();
    let numbers: Vec<&str> = out.as_str().lines().skip(1).take(6).map(|l| l.get(..6).unwrap_or("")).collect();
    assert_eq!(numbers, ["      ", "      ", "   0: ", "   0: ", "   8: ", "  11: "]);
}

/// The shape of each operand, for the decode/encode tests: `D` destination, `P` predicate,
/// `S` source, `R` a parameter with its address token, `U` usage, `I` literal, `X` raw.
fn shape(ins: &Instruction) -> String {
    ins.operands
        .iter()
        .map(|o| match o {
            Operand::Dst(p) | Operand::Pred(p) | Operand::Src(p) if p.rel.is_some() => 'R',
            Operand::Dst(_) => 'D',
            Operand::Pred(_) => 'P',
            Operand::Src(_) => 'S',
            Operand::Usage(_) => 'U',
            Operand::Imm(_) => 'I',
            Operand::Raw(_) => 'X',
        })
        .collect()
}

#[test]
fn decode_then_encode_gives_every_operand_shape_back() {
    let cases: &[(u32, &[u32], &str)] = &[
        // mad r0.xy, r1.x, c2.xyxy, v0
        (VS20, &[0x0400_0004, 0x8003_0000, 0x8000_0001, 0xa044_0002, 0x90e4_0000], "DSSS"),
        // add_sat_x2 r0, -r1, r2_abs.y (result modifier, shift, source modifiers, swizzle)
        (PS30, &[0x0300_0002, 0x811f_0000, 0x81e4_0001, 0x8b55_0002], "DSS"),
        // mov r3, c0[a0.x]: a relative source and its address token
        (VS20, &[0x0300_0001, 0x800f_0003, 0xa0e4_2000, 0xb000_0000], "DR"),
        // vs_1_1 mov r0, c5[a0.x]: relative, but shader model 1 has no address token
        (VS11, &[0x0000_0001, 0x800f_0000, 0xa0e4_2005], "DS"),
        // vs_3_0 mov o0[aL], r0: a relative destination
        (VS30, &[0x0300_0001, 0xe00f_2000, 0xf0e4_0800, 0x80e4_0000], "RS"),
        // (p0.x) add r0, r1, r2: the predicate after the destination
        (PS30, &[0x1400_0002, 0x800f_0000, 0xb000_1000, 0x80e4_0001, 0x80e4_0002], "DPSS"),
        // dcl_texcoord1 v2.xy; dcl_2d s0
        (VS20, &[0x0200_001f, 0x8001_0005, 0x9003_0002], "UD"),
        (PS20, &[0x0200_001f, 0x9000_0000, 0xa00f_0800], "UD"),
        // def c200, 4, 0, 1, 0; defi i0, 16, 0, -1, 0; defb b3, true
        (VS20, &[0x0500_0051, 0xa00f_00c8, 0x4080_0000, 0, 0x3f80_0000, 0], "DIIII"),
        (PS30, &[0x0500_0030, 0xf00f_0000, 16, 0, 0xffff_ffff, 0], "DIIII"),
        (VS20, &[0x0200_002f, 0xe00f_0803, 1], "DI"),
        // ifc_lt r0.x, c0.y (a comparison in the controls); texldp r0, t0, s0 (a variant)
        (PS30, &[0x0204_0029, 0x8000_0000, 0xa055_0000], "SS"),
        (PS20, &[0x0301_0042, 0x800f_0000, 0xb0e4_0000, 0xa0e4_0800], "DSS"),
        // ps_1_4 +mul r0.w, r1, r2: co-issued, no length field
        (PS14, &[0x4000_0005, 0x8008_0000, 0x80e4_0001, 0x80e4_0002], "DSS"),
        // an unknown opcode and a mov with a source too many: their tokens, raw
        (VS20, &[0x0200_0037, 0x800f_0000, 0x90e4_0000], "XX"),
        (VS20, &[0x0300_0001, 0x800f_0000, 0x90e4_0000, 0x90e4_0001], "XXX"),
        // ret: no operands
        (VS20, &[0x0000_001c], ""),
    ];
    for &(version, words, want) in cases {
        let version = Version::from_token(version).unwrap();
        let mut data = bytes(words);
        data.extend_from_slice(&[0xaa; 8]);
        let ins = decode(&data, 0x40, version).unwrap();
        assert_eq!(shape(&ins), want, "{words:08x?}");
        assert_eq!(ins.byte_len(), 4 * words.len() as u64);
        // Each parameter knows where its token is.
        let mut at = 0x44;
        for op in &ins.operands {
            if let Operand::Dst(p) | Operand::Pred(p) | Operand::Src(p) = op {
                assert_eq!((p.offset, Some(p.token)), (at, words.get((at as usize - 0x40) / 4).copied()));
            }
            at += 4 * op.token_count() as u64;
        }
        let mut again = Vec::new();
        ins.encode(version, &mut again).unwrap();
        assert_eq!(again, words);
        // Built from its parts with no offsets and no length (as the assembler builds it), the
        // same instruction: the length is the encoder's, the offsets `Instruction::new`'s.
        let mut parts = ins.operands.clone();
        for op in &mut parts {
            if let Operand::Dst(p) | Operand::Pred(p) | Operand::Src(p) = op {
                p.offset = 0;
            }
        }
        let unsized_token = if version.has_lengths() { words[0] & 0xf0ff_ffff } else { words[0] };
        let built = Instruction::new(0x40, unsized_token, parts);
        assert_eq!((built.operands.as_slice(), built.info), (ins.operands.as_slice(), ins.info));
        let mut from_parts = Vec::new();
        built.encode(version, &mut from_parts).unwrap();
        assert_eq!(from_parts, words);
    }
}

#[test]
fn the_encoder_refuses_what_the_tokens_cannot_say() {
    let vs20 = Version::from_token(VS20).unwrap();
    let vs11 = Version::from_token(VS11).unwrap();
    // Sixteen tokens after the instruction token: the length field has four bits.
    let raw: Operands = (0..16).map(Operand::Raw).collect();
    let e = Instruction::new(0x20, 0x37, raw).encode(vs20, &mut Vec::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid D3D9 instruction at offset 0x20: 16 tokens after the instruction token; its length field holds at most 15"
    );
    // In shader model 1 there is no length to overflow.
    let raw: Operands = (0..16).map(Operand::Raw).collect();
    assert!(Instruction::new(0, 0x37, raw).encode(vs11, &mut Vec::new()).is_ok());
    // A relative source without its address token, and an address token in shader model 1.
    let dst = Operand::Dst(Param { token: 0x800f_0000, rel: None, offset: 0 });
    let bare = Operand::Src(Param { token: 0xa0e4_2003, rel: None, offset: 0 });
    let e = Instruction::new(0x20, 1, Operands::from_slice(&[dst, bare])).encode(vs20, &mut Vec::new());
    assert_eq!(
        e.unwrap_err().to_string(),
        "invalid D3D9 parameter at offset 0x28: a relative parameter without its address token"
    );
    let with = Operand::Src(Param { token: 0xa0e4_2003, rel: Some(0xb000_0000), offset: 0 });
    let e = Instruction::new(0, 1, Operands::from_slice(&[dst, with])).encode(vs11, &mut Vec::new());
    assert!(e.unwrap_err().to_string().contains("an address token after a parameter that is not relative"));
}
