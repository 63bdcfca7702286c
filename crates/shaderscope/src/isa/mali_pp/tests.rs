//! Unit tests of the Mali PP disassembler on hand-encoded instructions.
//!
//! The expected lines of `every_form_prints_as_mesa_prints_it` are Mesa 22.3.6's own output
//! for those words: `ir/pp/disasm.c` from Debian's `mesa_22.3.6` source, compiled outside the
//! project with a driver that runs `lima_disasm`'s loop over bare words (each instruction
//! alone, at word 0). The instructions were chosen among random ones to cover every unit,
//! every opcode table and every special form (cube, normalize, built-ins, framebuffer reads,
//! discard, pipeline registers, shifts, unknown opcodes, NaN constants).

use super::decode::*;
use super::opcodes;
use super::print::half_to_f32_bits;
use super::*;
use crate::print::{Html, TextBuf};

/// Mesa's line for each instruction, alone at word 0.
const MESA: &[(&[u32], &str)] = &[
    (
        &[0x01a91368, 0xcd613e30, 0x70e1aef1, 0x8409f134, 0x17f5c4a0, 0x830bf68f, 0xd0dbc728, 0x067fffff],
        "@     0: texld_t13 3015, load..u1 8324.xy, mov.pos.v1 $1.xzw -$9.xzwz, branch.ne $1.x $1.z -3, sync, stop",
    ),
    (&[0x00580443, 0xbe6521cc, 0x00000661], "@     0: op25.pos.v0 $11.x -^const0.xwyx , sync"),
    (
        &[0x00703cc7, 0x4efbc8d6, 0x7590f096, 0x6036d2fa, 0xc4863d6d, 0x9ad1b1d0, 0x00228917],
        "@     0: load.perspective.z.v $14.z -abs($2.wzww), op18.int.v0 $9.yzw -abs($5.zxxw) , op21.pos.s0 $10.w -^const1.z, ne.int.v1 $3.yz abs(^v0.xwxx) -$2.zyxz, op2.pos.s1 ^s0, sync",
    ),
    (
        &[0x03a41c67, 0xd8f33418, 0xcb68c49f, 0xc79d9751, 0x78fea137, 0x236c472f, 0x001913b4],
        "@     0: op18.sat.v0 $13 -abs($8.yxxy) , op21.s0 $6.x, op29.sat.v1 ^v0.xwzw, const1 63712.000000 796.500000 -0.009972 -9.226562, sync, stop",
    ),
    (&[0x03710004, 0x007f0003, 0x00000a00, 0x00000000], "@     0: branch 5"),
    (
        &[0x00e14846, 0xe0675f29, 0x78b7199c, 0xbd50e009, 0x43879399, 0x0000001f],
        "@     0: min.s0 $9.w $10.y abs($7.w), mul.s2 $8.xyw abs($7.x) $9.xwyz, branch.le $0.x $2.y 35404956, sync",
    ),
    (
        &[0x01c43087, 0x6518093d, 0x48f4a952, 0x91512a39, 0x990501e1, 0x105e8405, 0x00001ef9],
        "@     0: load.v $5.yz gl_FrontFacing, ge.v1 $5.yzw -^v0.yyzz $4.wwxz, op3.int.s1 abs($1.x), const1 -8.312500 0.008148 -0.000045 -31872.000000",
    ),
    (
        &[0x03f14466, 0x409a8a78, 0x6104680b, 0xa5a0112e, 0x375c53ec, 0x000247cd],
        "@     0: mul.v0 $4.xyw $8.wyzz $10.zyzx, rsqrt.s2 $9.xyz $3.x , branch.eq ^const1.x $0.x 32722391, sync, stop",
    ),
    (
        &[0x03ac81e8, 0x56cefcec, 0xb2a459e5, 0x18ae013e, 0xd67393d6, 0x0d153ac2, 0x321654b0, 0x000001d4],
        "@     0: load.v $6.xz gl_PointCoord, texld_t12 318+$6.y, store.t 6234.w ^uniform.y, const1 -0.000202 128.750000 0.000219 -3122.000000, sync, stop",
    ),
    (
        &[0x03d44607, 0xfc4a447e, 0x22ca9310, 0x6a710a78, 0x9cac56b6, 0x4d0c8835, 0x0000adc4],
        "@     0: load..u2 -15297.xy, mul.v0 $3.xz -$9.xyyy<<2 -abs($5.xyxx), mul.s2 $1.xz abs($10.w) $9.yzzz, const1 1835.000000 0.011818 0.000886 0.058136",
    ),
    (
        &[0x00405064, 0x6156c4df, 0xdd406ddb, 0x00000096],
        "@     0: sel.sat.v1 $6.xyw ^v0.ywxy $11.yyyy, mov.sat.s2 $2.y  -abs($11.y) $5.x, sync, stop",
    ),
    (
        &[0x0088eae8, 0xc82ad589, 0x487af39b, 0x8aa6a466, 0xc668b072, 0x1fe59ab3, 0x31e033a4, 0x00007662],
        "@     0: load.v $8.zw cube(-abs($5.zzzx)), load..u2 -7373.y, mul.s0 $4.y -abs($5.x)<<7 abs($5.x), floor.int.s1 $8.w abs(^s0), sin.s2 $9.x  -abs($7.w) -$9.y, fb_depth $3, sync, stop",
    ),
    (
        &[0x03f281e8, 0x106ee2ab, 0x67e1b237, 0xf8449562, 0x74b31bcf, 0xfd4bae39, 0x512ec391, 0x0000013c],
        "@     0: load.v $0.x gl_FragCoord, texld_t25 1378, fb_color $15, const0 -0.022812 -9.984375 -0.001801 -0.006012, sync, stop",
    ),
    (
        &[0x02113247, 0xd2511c38, 0xbabab9bb, 0x05aac6a3, 0x0a4d5ae3, 0xf5f4b222, 0x1c920552],
        "@     0: load.u -2181.y, dFdy.pos.v1 $5.xy abs(^const0.yyyw) $5.wywy, dFdy.sat.s1 $5.w ^s0 $6.x, branch.eq $2.x $2.z -57660777, sync",
    ),
    (
        &[0x02f160c7, 0x3bc8bd6b, 0x0eb1fe99, 0x724efb3d, 0x770dc662, 0x00001b88, 0x000000a0],
        "@     0: load.v $11.xy gl_FragCoord, op1.int.s1 -^s0, cos.s2 $14.y  abs($9.w) -^uniform.y, branch.ge $8.w $3.x 27, sync",
    ),
    (&[0x03802042, 0x1bdaedd6], "@     0: ceil.int.s1 $6.z -abs($5.z), sync"),
    (
        &[0x0288c9c8, 0x6c2f5ecc, 0xa09b97c4, 0x714699be, 0x65437163, 0x0f235622, 0xfb0c12c6, 0x00000002],
        "@     0: load.v $12.yz gl_PointCoord, texld.b_t8 2494+$5.w ^const0.y, op18.pos.s0 $0.w abs($8.w), sqrt.s2 $15.y abs($3.y) , store.t 1526.x $1, sync",
    ),
    (
        &[0x036a9227, 0x1997e8f3, 0x9f2c2de9, 0xe36bf05f, 0x38e0bebc, 0xebbb2d51, 0x0238beb4],
        "@     0: load.t -2932+$9.y, sel.int.v1 $2.w abs($6.yxzy) -abs(^texture.wxww), store.t -3647.xy+^uniform.y ^const0, const0 -0.329102 -0.108154 -55904.000000 0.000149, stop",
    ),
    (&[0x01d04002, 0x25fdd8d2], "@     0: exp2.int.s2 $9.y  -abs(^uniform.y) -abs($6.x)"),
    (
        &[0x01dc8487, 0x21464b6d, 0x5c23ce80, 0x9139e9b7, 0xc2a24122, 0xbbf5ccc8, 0x0008404f],
        "@     0: load.v $1.y gl_FrontFacing, and.pos.v0 $13.xzw -abs($0.zzwx) abs($3.zxxw), fb_color $7, const1 0.013748 -115.187500 1.733398 0.009773",
    ),
    (
        &[0x008a9a68, 0x852571d4, 0x1a2d4f00, 0x0a73f381, 0xfa328913, 0xfc8a9ac5, 0x7119fe69, 0x073aa110],
        "@     0: load.u -8175.z+$2.y, mul.sat.s0 -$9.w $5.z, dFdx.sat.v1 $2.y -$7.zwwy abs($3.yyxz), store.t -3541.y+$5.z ^const1, const0 -1695.000000 0.000686 0.000614 15696.000000, sync, stop",
    ),
    (
        &[0x02f025e7, 0xecd78663, 0x889e4144, 0x44d50171, 0x76e099f9, 0x93834a2c, 0x0000017d],
        "@     0: load.perspective.w.v $12.yzw 53+$1.w, texld.b_t2 369+$0.y $4.y, not.pos.v0 $7.zw abs($9.wwyz) , sel.int.s1 abs($10.y) abs(^const0.x), sync, stop",
    ),
    (&[0x02c04002, 0x06c5e9d5], "@     0: log2.s2 $1.xyw -abs($1.y) "),
    (
        &[0x00fd0a08, 0xf5c74033, 0x3222281d, 0x32e4bc44, 0x000f20c1, 0xdd25f000, 0x922e445d, 0x00007dc7],
        "@     0: load.t 958.z+^const0.y, max.s0 $5.x $4.y, branch.ne ^const0.z $5.w 15, const1 -329.250000 4.363281 -0.000754 nan",
    ),
    (
        &[0x01e0c064, 0x118334ce, 0xc082769b, 0x00000041],
        "@     0: rsqrt.pos.s2 $4.y  $0.w -abs(^const1.x), store.t -31871 $9, sync, stop",
    ),
    (&[0x031000c3, 0x7d0b6da5, 0x00000000], "@     0: load.perspective.unknown.v $13.xyz -$11.wzxx, sync"),
    (
        &[0x00e01c86, 0x08427e40, 0x353444e0, 0x54f3d646, 0xe4ca2119, 0x00791047],
        "@     0: load.v $8. 16, op22.sat.v0 $8.x abs($8.wxyx) , mul.sat.s0 $2.z -$7.z<<4 -$9.w, op28.pos.v1 $0.y abs(^v0.xyyz)",
    ),
    (&[0x00190064, 0x8cf86e57, 0x00002aa4, 0x00000080], "@     0: branch.nv $6.w $9.y 21, sync, stop"),
    (
        &[0x03704ec7, 0x78bfa79c, 0x4f1d4aea, 0xc8ee9f55, 0x84a4e429, 0x7c27f46d, 0x00018b45],
        "@     0: load.v $8.xyz gl_PointCoord, load..u2 -1365.y+^const0.y, op18.sat.v0 $8.zw abs($3.ywyw) , eq.int.s0 $4.y $4.z -^const1.z, rcp.pos.s2 $6.x  abs(^const1.x) -abs($5.w), sync",
    ),
    (&[0x02b00822, 0x17679101], "@     0: xor.pos.s0 $9.w $0.y -$4.y, stop"),
    (
        &[0x02905588, 0xdd2bf410, 0xc1a9c9e8, 0x6fc177ef, 0x4d25c859, 0xdf6f079b, 0x0d63ab3e, 0x0013c1e1],
        "@     0: load.v $13.xzw 2.z+^const1.w, texld_t16 2031+$2.y, op30.sat.v0 $4.xyw $9.yyxz , sum4.int.v1 $6.xz -^v0.zwyw, sin.pos.s2 $9.w  -abs($0.w) $0.z",
    ),
    (&[0x02d84042, 0x3c4af6a5], "@     0: atan2.s2 $15.x -abs($2.z) , sync"),
    (&[0x01b10024, 0x007f0003, 0x00000000, 0x00000000], "@     0: discard, stop"),
    (&[0x034000c3, 0xc1073f78, 0x00000003], "@     0: load.v $1.zw cube(1), sync"),
    (
        &[0x00f04285, 0x78d80c5a, 0xc1d7d03b, 0x4a52f7d4, 0x00000004],
        "@     0: load.v $8.xyz normalize($3.xzyw), load..u2 -692.xy, cos.pos.s2 $0.x  abs($2.y) abs($2.z)",
    ),
    (
        &[0x03b83245, 0x002c3805, 0x64263e1f, 0x50182823, 0x000ebe7c],
        "@     0: load..u1 3968, sum3.sat.v1 $1.z abs(^v0.yxwx), op26.int.s1 $12.w -^s0, sync",
    ),
    (&[0x01000083, 0x978a0219, 0x00000000], "@     0: load.v $7.xw cube($0.zzxz)"),
    (
        &[0x00d90126, 0xdf4ac8e5, 0x7519d8c7, 0x3e9be03c, 0x000001bd, 0x00000008],
        "@     0: texld.cube 799, branch 3, stop",
    ),
    (&[0x00020023, 0xfc007c00, 0x80000001], "@     0: const0 inf -inf 0.000000 -0.000000, stop"),
    (&[0x00040003, 0x7e00fe01, 0x3c01c000], "@     0: const1 -nan nan -2.000000 1.000977"),
];

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// An instruction of `units` (field bits each), its count and mask from them, with `flags`
/// (stop, sync, next_count, prefetch bits) in its control word.
fn enc(flags: u32, units: &[(Unit, u128)]) -> Vec<u32> {
    let mut bits = Vec::<bool>::new();
    let mut mask = 0;
    for (u, v) in units {
        mask |= 1 << (*u as u32);
        bits.extend((0..u.bits()).map(|i| v >> i & 1 != 0));
    }
    let n = bits.len().div_ceil(32);
    let mut words = vec![0u32; 1 + n];
    words[0] = (1 + n as u32) | mask << 7 | flags;
    for (i, b) in bits.iter().enumerate() {
        words[1 + i / 32] |= u32::from(*b) << (i % 32);
    }
    words
}

/// With `count` forced.
fn with_count(mut words: Vec<u32>, count: u32) -> Vec<u32> {
    words[0] = words[0] & !0x1f | count;
    words
}

const STOP: u32 = 1 << 5;
/// `load.v $0 0`: alignment vec4 (3, as compilers write it), no offset register, dest $0,
/// full mask.
const LOAD_V0: u128 = 0x60 | 0x3c00 | 0xf << 28;
/// `mov.v1 $0 ^const0`.
const MOV_CONST0: u128 = 12 | 0xe4 << 4 | 0xf << 32 | 31 << 38;
/// const0 = 1.0 four times.
const ONES: u128 = 0x3c00_3c00_3c00_3c00;
/// An unconditional branch to `target` words from here.
fn branch(target: i32) -> u128 {
    7 << 16 | u128::from(target as u32 & 0x7ff_ffff) << 41
}

fn listing(code: &[u8], base: u64, opts: &DisasmOptions) -> (String, Result<()>) {
    let mut text = TextBuf::default();
    let r = write_listing(code, base, opts, &mut text);
    (text.into_string(), r)
}

#[test]
fn every_form_prints_as_mesa_prints_it() {
    for (words, line) in MESA {
        let (text, r) = listing(&bytes(words), 0, &DisasmOptions::default());
        // Mesa's text, without the fields it does not carry (`, name=value` after it).
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("; "))
            .map(|l| {
                l.find('=').and_then(|e| l.get(..e)).and_then(|h| h.rfind(", ")).map_or(l, |cut| &l[..cut])
            })
            .collect();
        assert_eq!(lines, [*line], "{words:08x?}");
        // Branch targets outside a lone instruction are a problem; nothing else is.
        assert!(r.is_ok() || line.contains("branch"), "{words:08x?}: {r:?}");
    }
}

#[test]
fn control_word_and_fields_decode_as_codegen_h_names_them() {
    let c = Ctrl(0x0240_4083);
    assert_eq!((c.count(), c.stop(), c.sync(), c.next_count(), c.prefetch()), (3, false, false, 8, true));
    assert!(c.has(Unit::Varying) && c.has(Unit::Combine) && !c.has(Unit::Sampler));
    assert_eq!((c.field_bits(), c.words_by_fields()), (64, 3));
    let sizes: u32 = Unit::ALL.iter().map(|u| u.bits()).sum();
    assert_eq!(sizes, 557);
    let v = Varying::decode(LOAD_V0);
    assert_eq!((v.alignment, v.offset_vector, v.dest, v.mask, v.source_type), (3, 15, 0, 0xf, 0));
    let a = Vec4Alu::decode(MOV_CONST0 | 1 << 43);
    assert_eq!((a.arg0_source, a.arg0_swizzle, a.mask, a.op, a.mul_in), (12, 0xe4, 0xf, 31, true));
    let b = Branch::decode(branch(-3) | 5 << 68);
    assert_eq!((b.target, b.cond_mask(), b.next_count, b.discard), (-3, 7, 5, false));
    assert!(Branch::decode(u128::from(DISCARD_WORD0)).discard);
    assert!(!Branch::decode(u128::from(DISCARD_WORD0) | 1 << 72).discard);
    let t = TempWrite::decode(0x7 << 1 | 1 | 5 << 6);
    assert!(t.is_fb_read() && t.fb_source);
    assert_eq!(t.fb_dest, 5);
    let u = Uniform::decode(3 | 1 << 10 | 0xffffu128 << 25);
    assert_eq!((u.source, u.alignment, u.index), (3, 1, -1));
    assert_eq!(const_values(ONES), [0x3c00; 4]);
}

#[test]
fn halves_convert_exactly() {
    for h in 0..=u16::MAX {
        let f = f32::from_bits(half_to_f32_bits(h));
        let (sign, exp, man) = (h >> 15, (h >> 10) & 0x1f, f64::from(h & 0x3ff));
        let want = match exp {
            0 => man * 2f64.powi(-24),
            31 if man == 0.0 => f64::INFINITY,
            31 => f64::NAN,
            e => (1.0 + man / 1024.0) * 2f64.powi(i32::from(e) - 15),
        };
        let want = if sign == 1 { -want } else { want };
        if want.is_nan() {
            assert!(f.is_nan() && f.is_sign_negative() == (sign == 1), "{h:#x}");
        } else {
            assert_eq!(f64::from(f), want, "{h:#x}");
            assert_eq!(f.is_sign_negative(), sign == 1, "{h:#x}");
        }
    }
}

#[test]
fn a_whole_program_lists_with_offsets_and_raw_words() {
    let mut words = enc(5 << 19 | 1 << 25, &[(Unit::Varying, LOAD_V0)]);
    words.extend(enc(STOP, &[(Unit::Vec4Acc, MOV_CONST0), (Unit::Vec4Const0, ONES)]));
    let code = bytes(&words);
    let (text, r) = listing(&code, 0x40, &DisasmOptions::default());
    r.unwrap();
    assert_eq!(
        text,
        "@     0: load.v $0 0\n@     3: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n"
    );
    let (text, _) = listing(&code, 0x40, &DisasmOptions::default().with_offsets(true).with_raw(true));
    assert_eq!(
        text,
        format!(
            "0x00000040: {:08x} {:08x} {:08x} {:28}@     0: load.v $0 0\n\
             0x0000004c: {:08x} {:08x} {:08x} {:08x} {:08x} {:10}@     3: mov.v1 $0 ^const0, const0 1.000000 \
             1.000000 1.000000 1.000000, stop\n",
            words[0], words[1], words[2], "", words[3], words[4], words[5], words[6], words[7], ""
        )
    );
    assert_eq!(check(&code, 0x40), []);
}

#[test]
fn every_line_carries_its_offset_and_every_token_its_style() {
    let mut words = enc(5 << 19 | 1 << 25, &[(Unit::Varying, LOAD_V0)]);
    words.extend(enc(STOP | 1 << 6, &[(Unit::Vec4Acc, MOV_CONST0), (Unit::Vec4Const0, ONES)]));
    let code = bytes(&words);
    let mut html = Html::default();
    write_listing(&code, 0x40, &DisasmOptions::default(), &mut html).unwrap();
    let html = html.finish();
    assert!(
        html.contains(
            "<div data-offset=\"64\"><span class=\"addr\">@     0:</span> <span class=\"mn\">load</span>\
             <span class=\"mn\">.v</span> <span class=\"reg\">$0</span> <span class=\"lit\">0</span></div>"
        ),
        "{html}"
    );
    assert!(html.contains("<div data-offset=\"76\">"), "{html}");
    assert!(html.contains("<span class=\"reg\">^const0</span>"), "{html}");
    assert!(
        html.contains(", <span class=\"dir\">sync</span>, <span class=\"dir\">stop</span></div>"),
        "{html}"
    );
    let r = records(&code, 0x40);
    assert_eq!(r.len(), 2);
    assert_eq!((r[1].offset, r[1].words.len(), r[1].mnemonic.as_str()), (0x4c, 5, ""));
    assert_eq!(r[1].text, "mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, sync, stop");
    assert_eq!(r[1].operands, ["mov.v1 $0 ^const0", "const0 1.000000 1.000000 1.000000 1.000000"]);
    assert_eq!(r[0].words, &words[..3]);
}

#[test]
fn a_count_of_zero_is_a_problem_and_the_listing_goes_on_after_the_fields() {
    // `next_count` and `prefetch` as compilers write them: only the count shows beyond Mesa's text.
    let mut words = with_count(enc(5 << 19 | 1 << 25, &[(Unit::Varying, LOAD_V0)]), 0);
    words.extend(enc(STOP, &[(Unit::Vec4Acc, MOV_CONST0), (Unit::Vec4Const0, ONES)]));
    let code = bytes(&words);
    let (text, r) = listing(&code, 0x100, &DisasmOptions::default());
    let message = "invalid Mali PP control word at offset 0x100: count is 0 (Mesa's lima_disasm loops forever \
                   here); the unit fields take 3 words, the listing goes on after them";
    assert_eq!(
        text,
        format!(
            "@     0: load.v $0 0, count=0\n; {message}\n\
             @     3: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n"
        )
    );
    assert_eq!(r.unwrap_err().to_string(), message);
    assert_eq!(problems(&code, 0x100).len(), 1);
    let findings = check(&code, 0x100);
    // The finding has the offset; its message is the problem's reason (said once).
    assert_eq!(findings[0], Finding::error(0x100, message.replace(" at offset 0x100", "")));
}

#[test]
fn a_count_past_the_end_or_unlike_the_fields_is_a_problem() {
    // Count 9 with three words in the program (Mesa reads past the buffer).
    let code = bytes(&with_count(enc(STOP, &[(Unit::Varying, LOAD_V0)]), 9));
    let (text, r) = listing(&code, 0x100, &DisasmOptions::default());
    let message = "invalid Mali PP control word at offset 0x100: count 9 disagrees with the unit fields, which \
                   take 3 words, and reaches past the end (3 words left); the listing goes on after the fields";
    // The count, and the length the walk takes instead (the assembler's way back).
    assert_eq!(text, format!("@     0: load.v $0 0, stop, count=9, words=3\n; {message}\n"));
    assert_eq!(r.unwrap_err().to_string(), message);
    // Count 5 where the fields take 3, two words of padding and an instruction after:
    // listed from word 5, as Mesa lists it.
    let mut words = with_count(enc(5 << 19 | 1 << 25, &[(Unit::Varying, LOAD_V0)]), 5);
    words.extend([0, 0]);
    words.extend(enc(STOP, &[(Unit::Vec4Acc, MOV_CONST0), (Unit::Vec4Const0, ONES)]));
    let (text, _) = listing(&bytes(&words), 0, &DisasmOptions::default());
    assert_eq!(
        text,
        "@     0: load.v $0 0, count=5\n\
         ; invalid Mali PP control word at offset 0x0: count 5 disagrees with the unit fields, which take 3 \
         words; the listing goes on after its count\n\
         @     5: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n"
    );
    assert_eq!(records(&bytes(&words), 0)[0].words.len(), 5);
    // Count 2 where the fields take 3 (they overflow it): listed from word 3.
    let mut words = with_count(enc(5 << 19 | 1 << 25, &[(Unit::Varying, LOAD_V0)]), 2);
    words.extend(enc(STOP, &[(Unit::Vec4Acc, MOV_CONST0), (Unit::Vec4Const0, ONES)]));
    let (text, _) = listing(&bytes(&words), 0, &DisasmOptions::default());
    assert_eq!(
        text,
        "@     0: load.v $0 0, count=2\n\
         ; invalid Mali PP control word at offset 0x0: count 2 disagrees with the unit fields, which take 3 \
         words; the listing goes on after the fields\n\
         @     3: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop\n"
    );
}

#[test]
fn fields_past_the_end_list_the_units_that_fit_and_stop() {
    // Varying and const0 take 5 words; 3 are there.
    let words = enc(STOP, &[(Unit::Varying, LOAD_V0), (Unit::Vec4Const0, ONES)]);
    let code = bytes(&words[..3]);
    let (text, r) = listing(&code, 0x100, &DisasmOptions::default());
    let message = "truncated Mali PP instruction at offset 0x100 (need 20 bytes, have 12)";
    assert_eq!(text, format!("@     0: load.v $0 0, stop\n; {message}\n"));
    assert_eq!(r.unwrap_err().to_string(), message);
    // A word cut short after a whole instruction.
    let mut code = bytes(&enc(STOP, &[(Unit::Varying, LOAD_V0)]));
    code.extend([1, 2]);
    let (text, r) = listing(&code, 0x100, &DisasmOptions::default());
    let message = "truncated Mali PP control word at offset 0x10c (need 4 bytes, have 2)";
    assert_eq!(text, format!("@     0: load.v $0 0, stop\n; {message}\n"));
    assert_eq!(r.unwrap_err().to_string(), message);
    // Nothing at all lists nothing.
    assert_eq!(listing(&[], 0, &DisasmOptions::default()), (String::new(), Ok(())));
}

#[test]
fn branch_targets_outside_the_program_are_a_problem() {
    let mut words = enc(4 << 19 | 1 << 25, &[(Unit::Branch, branch(100))]);
    words.extend(enc(STOP, &[(Unit::Branch, branch(-4))]));
    let code = bytes(&words);
    let (text, r) = listing(&code, 0x20, &DisasmOptions::default());
    let message = "invalid Mali PP branch at offset 0x20: target 100 is outside the program (words 0 to 7)";
    assert_eq!(text, format!("@     0: branch 100\n; {message}\n@     4: branch 0, stop\n"));
    assert_eq!(r.unwrap_err().to_string(), message);
    // A discard has no target.
    let code = bytes(&enc(STOP, &[(Unit::Branch, u128::from(DISCARD_WORD0))]));
    assert_eq!(
        listing(&code, 0, &DisasmOptions::default()),
        ("@     0: discard, stop\n".to_string(), Ok(()))
    );
    // A target inside the program but between instructions is a warning.
    let mut words = enc(3 << 19, &[(Unit::Branch, branch(2))]);
    words.extend(enc(STOP, &[(Unit::Varying, LOAD_V0)]));
    let findings = check(&bytes(&words), 0);
    assert_eq!(findings, [Finding::warning(0, "branch target 2 is not the start of an instruction")]);
}

#[test]
fn check_warns_of_counts_stops_and_opcodes() {
    // next_count 6 where the next instruction has 3 words; no stop at the end; the first vec4
    // mul opcode the table has no row for (18); bits 26-31 set.
    let op = (0..32u32).find(|op| opcodes::VEC4_MUL[*op as usize].is_none()).unwrap();
    let mut words = enc(6 << 19 | 1 << 25 | 1 << 26, &[(Unit::Vec4Mul, u128::from(op) << 38 | 0xe4 << 4)]);
    words.extend(enc(2 << 19, &[(Unit::Varying, LOAD_V0)]));
    let code = bytes(&words);
    let findings = check(&code, 0x10);
    let messages: Vec<(u64, &str)> = findings.iter().map(|f| (f.offset, f.message.as_str())).collect();
    let unknown = format!("vec4_mul opcode {op} is not one Mesa names (listed as op{op})");
    assert_eq!(
        messages,
        [
            (0x10, "control word bits 26-31 are 0x1 (0 in every known program)"),
            (0x10, unknown.as_str()),
            (0x10, "next_count is 6 but the next instruction's count is 3"),
            (0x1c, "the last instruction's next_count is 2 (0 where no instruction follows)"),
            (0x1c, "the last instruction has no stop bit: the program runs past its end"),
        ]
    );
    assert!(findings.iter().all(|f| f.severity == crate::model::Severity::Warning));
    assert!(problems(&code, 0x10).is_empty());
}

/// An ALU unit's field of opcode `op`: first source $1 (or $1.x), second $7 (or $7.x),
/// destination $2 (or $2.x), every component written; the combiner's scalar form with its
/// second source on.
fn alu_field(unit: Unit, op: u32) -> u128 {
    let op = u128::from(op);
    match unit {
        Unit::Vec4Mul | Unit::Vec4Acc => {
            1 | 0xe4 << 4 | 7 << 14 | 0xe4 << 18 | 2 << 28 | 0xf << 32 | op << 38
        }
        Unit::FloatMul | Unit::FloatAcc => 4 | 28 << 8 | 8 << 16 | 1 << 22 | op << 25,
        _ => 1 << 1 | op << 2 | 28 << 8 | 4 << 16 | 8 << 24,
    }
}

/// Every opcode of every ALU unit lists as its table's row says (the name, or `opN` without a
/// row; the second source only for a row of two; `<<N` only for a scaled `mul`), and the checks
/// warn of exactly the opcodes without a row.
#[test]
fn every_opcode_lists_and_checks_as_its_table_row_says() {
    let alus = [Unit::Vec4Mul, Unit::FloatMul, Unit::Vec4Acc, Unit::FloatAcc, Unit::Combine];
    let mut rows = Vec::new();
    for unit in alus {
        let table = opcodes::table(unit).unwrap();
        assert_eq!(table.len(), 1 << (if unit == Unit::Combine { 4 } else { 5 }));
        for (op, row) in (0u32..).zip(table) {
            let code = bytes(&enc(STOP, &[(unit, alu_field(unit, op))]));
            let text = records(&code, 0).remove(0).text;
            let name = row.map_or(format!("op{op}"), |r| r.name.to_string());
            assert!(text.starts_with(&format!("{name}{}", opcodes::suffix(unit))), "{text}");
            assert_eq!(text.contains(&format!("<<{op}")), row.is_some_and(|r| r.shift), "{text}");
            if unit != Unit::Combine {
                assert_eq!(text.contains("$7"), row.is_some_and(|r| r.srcs == 2), "{text}");
            }
            let warned = check(&code, 0).iter().any(|f| f.message.contains("is not one Mesa names"));
            assert_eq!(warned, row.is_none(), "{text}");
            rows.push((unit, op, row.map(|r| r.name)));
        }
    }
    // The tables as Mesa's codegen.h numbers them: the multipliers share one, the adders one
    // but for sum3/sum4, which only the vector adder has; the combiner names 0-9.
    assert_eq!(opcodes::VEC4_MUL, opcodes::FLOAT_MUL);
    let differ: Vec<_> = (0..32).filter(|&i| opcodes::VEC4_ACC[i] != opcodes::FLOAT_ACC[i]).collect();
    assert_eq!(differ, [0x10, 0x11]);
    assert!(differ.iter().all(|&i| opcodes::FLOAT_ACC[i].is_none()));
    let named = |unit: Unit| rows.iter().filter(|r| r.0 == unit && r.2.is_some()).count();
    assert_eq!(
        alus.map(named),
        [19, 19, 16, 14, 10],
        "mul 0-17 and 31; acc 0, 4, 8-17, 20, 21, 23, 31; combine 0-9"
    );
    // The combiner's vector form is a `mul` whatever its op bits (the scalar destination bits
    // read as vector register 2 and an empty mask).
    for op in 0..16 {
        let code = bytes(&enc(STOP, &[(Unit::Combine, alu_field(Unit::Combine, op) | 1)]));
        assert!(records(&code, 0)[0].text.starts_with("mul.s2 $2. "), "{op}");
        assert!(check(&code, 0).is_empty(), "{op}");
    }
}

#[test]
fn dump_annotations_claim_each_byte_of_each_instruction_once() {
    let words = enc(STOP, &[(Unit::Vec4Acc, MOV_CONST0), (Unit::Vec4Const0, ONES)]);
    let code = bytes(&words);
    let mut a = crate::dump::Annotations::new();
    annotate(&code, 0x100, &mut a);
    let sections: Vec<_> = a.sections().map(|(r, t)| (r, t.to_string())).collect();
    assert_eq!(
        sections,
        [(
            0x100..0x114,
            "instruction @0: mov.v1 $0 ^const0, const0 1.000000 1.000000 1.000000 1.000000, stop".to_string()
        )]
    );
    let fields: Vec<_> = a.fields().map(|(r, t)| (r, t.to_string())).collect();
    assert_eq!(
        fields,
        [
            (0x100..0x104, "control word: count 5, stop, fields vec4_acc|vec4_const_0, next_count 0".to_string()),
            (0x104..0x109, "vec4_acc (bits 0..44 after the control word): mov.v1 $0 ^const0".to_string()),
            (
                0x109..0x112,
                "vec4_const_0 (bits 44..108 after the control word): const0 1.000000 1.000000 1.000000 1.000000"
                    .to_string()
            ),
            (0x112..0x114, "padding (no unit field)".to_string()),
        ]
    );
    assert_eq!(a.errors().count(), 0);
    // A problem is an error of the annotations.
    let mut a = crate::dump::Annotations::new();
    annotate(&bytes(&with_count(words, 0)), 0x100, &mut a);
    assert_eq!(a.errors().map(|(o, _)| o).collect::<Vec<_>>(), [0x100]);
}

#[test]
fn an_instruction_of_no_unit_prints_its_flags_alone() {
    // Mesa prints ", stop" after "@N: " when no unit is present (ideas-logo-shadow.frag).
    let code = bytes(&enc(STOP, &[]));
    assert_eq!(listing(&code, 0, &DisasmOptions::default()).0, "@     0: , stop\n");
    assert_eq!(instructions(&code, 0).len(), 1);
}

/// Decode then encode gives back every word of a program: each instruction's control word
/// and unit fields, a padding word its count takes past the fields included.
#[test]
fn decode_then_encode_gives_back_every_word() {
    let mut words = enc(5 << 19 | 1 << 25, &[(Unit::Varying, LOAD_V0)]);
    let padded = with_count(enc(0, &[(Unit::Branch, branch(5))]), 5);
    words.extend(&padded);
    words.push(0);
    words.extend(enc(STOP, &[(Unit::Vec4Acc, MOV_CONST0), (Unit::Vec4Const0, ONES)]));
    let code = bytes(&words);
    let got = instructions(&code, 0x40);
    assert_eq!(got.iter().map(|i| (i.pc, i.words)).collect::<Vec<_>>(), [(0, 3), (3, 5), (8, 5)]);
    let mut again = Vec::new();
    for i in &got {
        again.extend(i.encode());
    }
    assert_eq!(again, words);
}
