//! Unit tests of the PICA200 ISA as a whole: decode and encode (every word back, field by
//! field), the listing's text, the records and the checks. Tests of a private helper of the
//! walk sit next to it in `walk.rs`.

use super::*;
use crate::print::{LinesAt, TextBuf};

// ------------------------------------------------------------------ decode and encode
fn words() -> impl Iterator<Item = u32> {
    // A fixed xorshift sequence plus every opcode with all-ones and all-zero operands.
    let mut x: u32 = 0x9E37_79B9;
    let random = std::iter::from_fn(move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        Some(x)
    })
    .take(2_000_000);
    (0..64u32).flat_map(|o| [o << 26, (o << 26) | 0x03FF_FFFF]).chain(random)
}

#[test]
fn every_word_reencodes_to_itself() {
    for w in words() {
        let i = decode(w);
        assert_eq!(i.encode(), w, "{w:08x} {i:?}");
    }
}

#[test]
fn unused_bits_are_zero_in_encoded_fields() {
    for w in words().take(100_000) {
        let i = decode(w);
        let row = i.info();
        assert_eq!(i.unused & row.covered, 0);
        assert_eq!(row.covered, row.layout.mask() | row.opcode_mask);
    }
}

#[test]
fn format_1_fields() {
    // nwfont_RectDrawerShader 0x1c: dp4 r4.x, r1, r2 (opdesc 1)
    let i = decode(0x0a81_1901);
    assert_eq!(i.op, Op::Dp4);
    assert_eq!(i.destination(), Some(Register { file: RegisterFile::Temporary, index: 4 }));
    assert_eq!((i.src[0], i.src[1], i.desc, i.idx), (0x11, 0x12, 1, 0));
    // 0x30: dp4 r3.x, c32[a0.x], r4 (opdesc 0xc)
    let i = decode(0x0a6c_0a0c);
    assert_eq!((i.dst, i.idx, i.src[0], i.src[1], i.desc), (0x13, 1, 0x40, 0x14, 0x0c));
    assert_eq!(i.source(0).to_string(), "c32");
}

#[test]
fn format_1i_fields() {
    // coverage shader: dphi r1.y, r0, c1 (opdesc 3)
    let i = decode(0x6224_1083);
    assert_eq!(i.op, Op::Dphi);
    assert_eq!((i.dst, i.src[0], i.src[1], i.desc), (0x11, 0x10, 0x21, 3));
    assert_eq!(i.wide_source(), Some(1));
    // slti r4, r0, c95 (opdesc 6)
    let i = decode(0x6e84_3f86);
    assert_eq!((i.op, i.dst, i.src[0], i.src[1], i.desc), (Op::Slti, 0x14, 0x10, 0x7f, 6));
}

#[test]
fn format_1u_and_mova_fields() {
    // mov r0, c6[a0.x] (opdesc 2)
    let i = decode(0x4e0a_6002);
    assert_eq!((i.op, i.dst, i.idx, i.src[0], i.desc, i.unused), (Op::Mov, 0x10, 1, 0x26, 2, 0));
    assert_eq!(i.source_count(), 1);
    // mova from v5 (opdesc 2)
    let i = decode(0x4800_5002);
    assert_eq!((i.op, i.src[0], i.desc, i.destination()), (Op::Mova, 5, 2, None));
    // bits 11..7 of a format-1u word are not a source: they are kept as unused bits
    let i = decode(0x4e0a_6002 | 0x180);
    assert_eq!(i.unused, 0x180);
    assert_eq!(i.encode(), 0x4e0a_6182);
}

#[test]
fn format_1c_fields() {
    // cmp c5, ne, ne, r4 (opdesc 7)
    let i = decode(0xb922_5a07);
    assert_eq!((i.op, i.cmp, i.src[0], i.src[1], i.desc), (Op::Cmp, [1, 1], 0x25, 0x14, 7));
    // cmp c5, ge, ge, r0 (opcode 0x2F: the x operator's top bit is the opcode's low bit)
    let i = decode(0xbda2_5816);
    assert_eq!((i.cmp, i.src[0], i.src[1], i.desc), ([5, 5], 0x25, 0x10, 0x16));
    // coverage: cmp c95, lt, ge, r0
    let i = decode(0xbaa7_f800);
    assert_eq!((i.cmp, i.src[0], i.src[1]), ([2, 5], 0x7f, 0x10));
}

#[test]
fn format_2_fields() {
    // ifc cmp.x && cmp.y, else at 0x1b (byte 0x6c), no else block
    let i = decode(0xa340_6c00);
    assert_eq!((i.op, i.refs, i.condop, i.target, i.num), (Op::Ifc, [true, true], 1, 0x1b, 0));
    // ifc !cmp.x && !cmp.y
    let i = decode(0xa040_9c00);
    assert_eq!((i.refs, i.condop, i.target), ([false, false], 1, 0x27));
    // callc cmp.x && !cmp.y, 0x32, 1 word
    let i = decode(0x9640_c801);
    assert_eq!((i.op, i.refs, i.condop, i.target, i.num), (Op::Callc, [true, false], 1, 0x32, 1));
    // breakc cmp.x: single-flag form keeps refy = 1
    let i = decode(0x8f80_0000);
    assert_eq!((i.op, i.refs, i.condop), (Op::Breakc, [true, true], 2));
}

#[test]
fn format_3_fields() {
    // jmpu b0 (num bit 0 set: jump when false) to 0x2c
    let i = decode(0xb400_b001);
    assert_eq!((i.op, i.uniform, i.target, i.negate), (Op::Jmpu, 0, 0x2c, true));
    // jmpu b1 to 0x2e
    let i = decode(0xb440_b800);
    assert_eq!((i.uniform, i.target, i.negate), (1, 0x2e, false));
    // loop i3, last body word 0x1e
    let i = decode(0xa4c0_7800);
    assert_eq!((i.op, i.uniform, i.target), (Op::Loop, 3, 0x1e));
    // ifu b1, else at 0x28, 1 word
    let i = decode(0x9c40_a001);
    assert_eq!((i.op, i.uniform, i.target, i.num), (Op::Ifu, 1, 0x28, 1));
}

#[test]
fn format_4_fields() {
    let i = decode(0xaec0_0000);
    assert_eq!((i.op, i.vertex, i.primitive, i.invert), (Op::Setemit, 2, true, true));
    let i = decode(0xad00_0000);
    assert_eq!((i.vertex, i.primitive, i.invert), (1, false, false));
}

#[test]
fn format_5_fields() {
    // nwfont 0x68: mad with src2 wide
    let i = decode(0xf328_5260);
    assert_eq!(i.op, Op::Mad);
    assert_eq!((i.dst, i.idx, i.src, i.desc), (0x13, 0, [0x14, 0x14, 0x13], 0));
    assert_eq!(i.wide_source(), Some(1));
    // coverage: madi r12, r0, r1, c95 (src3 wide)
    let i = decode(0xdc21_1fe6);
    assert_eq!(i.op, Op::Madi);
    assert_eq!((i.dst, i.idx, i.src, i.desc), (0x1c, 0, [0x10, 0x11, 0x7f], 6));
    assert_eq!(i.wide_source(), Some(2));
}

#[test]
fn unknown_opcodes_keep_the_word() {
    for op in [0x10u32, 0x11, 0x14, 0x15, 0x16, 0x17, 0x1c, 0x1d, 0x1e, 0x1f] {
        let w = (op << 26) | 0x0123_4567;
        let i = decode(w);
        assert_eq!(i.op, Op::Unknown);
        assert_eq!(i.unused, w);
        assert_eq!(i.encode(), w);
    }
}

#[test]
fn operand_descriptors() {
    // nwfont opdesc 0x14 (nihstro: `add r4._y__ -c4.zzzz r4.zzzz`): mask 4 = y
    let d = OperandDescriptor(0x802a_9554 & 0x7fff_ffff);
    assert_eq!(d.mask(), 4);
    assert!(d.writes(1) && !d.writes(0) && !d.writes(2));
    assert!(d.negate(0) && !d.negate(1));
    assert_eq!(d.swizzle(0).to_string(), "zzzz");
    assert_eq!(d.swizzle(1).to_string(), "zzzz");
    // nwfont opdesc 0x22: full mask, src1 identity; opdesc 2: src1 .wzyx
    let d = OperandDescriptor(0x0000_036f);
    assert_eq!((d.mask(), d.swizzle(0)), (0xf, Swizzle::IDENTITY));
    assert_eq!(OperandDescriptor(0x8000_1c8f).swizzle(0).to_string(), "wzyx");
    // identity in all three sources
    let d = OperandDescriptor(0x0d86_c36f);
    for n in 0..3 {
        assert_eq!(d.swizzle(n), Swizzle::IDENTITY);
    }
    let id = (false, Swizzle::IDENTITY);
    assert_eq!(OperandDescriptor::new(0xf, [id, id, id]).0, 0x0d86_c36f);
}

/// Fields in the order of [`Layout::fields`], as the instruction holds them.
fn field_values(i: &Instruction) -> [u32; 18] {
    let b = u32::from;
    [
        b(i.dst),
        b(i.idx),
        b(i.src[0]),
        b(i.src[1]),
        b(i.src[2]),
        b(i.desc),
        b(i.cmp[0]),
        b(i.cmp[1]),
        u32::from(i.refs[0]),
        u32::from(i.refs[1]),
        b(i.condop),
        b(i.uniform),
        u32::from(i.target),
        b(i.num),
        u32::from(i.negate),
        b(i.vertex),
        u32::from(i.primitive),
        u32::from(i.invert),
    ]
}

#[test]
fn every_opcode_with_varied_fields_decodes_field_by_field_and_encodes_back() {
    // Every row of the table; each field in turn set to 0, 1, its largest value and two bit
    // patterns, the other fields empty, full or patterned, the bits no field covers clear or
    // set. Decoding reads each value back from its field; encoding gives the word back.
    let mut seen = 0usize;
    for (o, row) in OPCODES.iter().enumerate() {
        if row.op == Op::Unknown {
            // An opcode the table does not use: the whole word is kept, whatever it holds.
            for rest in [0, 1, 0x03FF_FFFF, 0x0155_5555, 0x02AA_AAAA] {
                let w = (o as u32) << 26 | rest;
                let i = decode(w);
                assert_eq!((i.op, i.unused, i.encode()), (Op::Unknown, w, w), "{w:08x}");
            }
            continue;
        }
        let fields = row.layout.fields();
        let field_bits = row.covered & !row.opcode_mask;
        for base in [0, field_bits, 0x5555_5555 & field_bits, 0xAAAA_AAAA & field_bits] {
            for extra in [0, !row.covered, 0x0124_8000 & !row.covered] {
                // With no field set, and with each field in turn set to each value.
                let w = row.opcode_bits() | extra;
                assert_eq!(decode(w).encode(), w, "{w:08x}");
                for (k, f) in fields.iter().enumerate().filter(|(_, f)| f.present()) {
                    let max = f.mask::<u32>() >> f.shift;
                    for v in [0, 1, max, max >> 1, 0x5555_5555 & max, 0xAAAA_AAAA & max] {
                        let w = row.opcode_bits() | (base & !f.mask::<u32>()) | f.put(v) | extra;
                        let i = decode(w);
                        assert_eq!(i.encode(), w, "{w:08x} {i:?}");
                        assert_eq!(i.op, row.op, "{w:08x}");
                        assert_eq!(field_values(&i)[k], v, "{w:08x} field {k} of {:?}", row.op);
                        assert_eq!(i.unused, extra, "{w:08x}");
                        seen += 1;
                    }
                }
            }
        }
    }
    // Every known opcode contributed (a table row without fields would add none).
    assert!(seen > 10_000, "{seen}");
}

#[test]
fn executables_stay_within_their_work() {
    // mov o1, v0 … 64 times, end: ranges of 65 words, 4 × 65 + 4096 words of work.
    let mut code = vec![0x4c20_0000; 64];
    code.push(0x8800_0000);
    let program = Program::new(&code);
    let mut x = Executables::new(&program);
    // The same range again costs nothing: asked for ever so often, it answers.
    for _ in 0..1000 {
        assert_eq!(x.inputs_read(0, 0), Some(1));
    }
    // Different ranges spend the work (65 × 64 / 2 ranges of 32 words on average, far more
    // than 4356 words); then the answer is None, but for a range already answered.
    let ranges: Vec<(u32, u32)> = (0..65).flat_map(|m| (m + 1..=65).map(move |e| (m, e))).collect();
    let answered = ranges.iter().filter(|(m, e)| x.inputs_read(*m, *e).is_some()).count();
    assert!((100..ranges.len() / 4).contains(&answered), "{answered} of {}", ranges.len());
    assert_eq!((x.inputs_read(60, 64), x.inputs_read(0, 0)), (None, Some(1)));
    // Entry ranges are still found.
    assert_eq!(x.entry_end(3, 0), 65);
}

// ------------------------------------------------------------------ checks
#[test]
fn clean_code_has_no_issues() {
    // mov r0, v0 ; end
    assert_eq!(check_program(&Program::new(&[0x4e00_0000, 0x8800_0000]), 1), vec![]);
}

#[test]
fn each_problem_names_its_word() {
    let code = [
        0x4e00_0005,                 // 0: mov with opdesc 5 of 1
        0x4000_0000,                 // 1: unknown opcode 0x10
        0x9000_0000 | (9 << 10) | 2, // 2: call 0x009+2 beyond 4 words
        0xa000_0000 | (1 << 10),     // 3: ifc with a target before itself
    ];
    let issues = check_program(&Program::new(&code), 1);
    let at: Vec<(usize, bool)> = issues.iter().map(|i| (i.index, i.error)).collect();
    assert_eq!(at, vec![(0, true), (1, true), (2, true), (3, true)]);
    assert!(issues[0].message.contains("operand descriptor 0x05"), "{}", issues[0].message);
    assert!(issues[1].message.contains("unknown opcode 0x10"));
    assert!(issues[2].message.contains("outside the program"));
}

#[test]
fn call_running_off_the_end() {
    let code = [0x9000_0000 | (1 << 10) | 5, 0x8800_0000];
    let issues = check_program(&Program::new(&code), 0);
    assert_eq!(issues.len(), 1);
    assert!(issues[0].message.contains("runs off the end"));
}

#[test]
fn two_input_registers() {
    // add r0, v0, v1 (opdesc 0)
    let issues = check_program(&Program::new(&[0x0200_0080]), 1);
    assert_eq!(issues.len(), 1);
    assert!(!issues[0].error);
    // add r0, v1, v1 is fine
    assert!(check_program(&Program::new(&[0x0200_1080]), 1).is_empty());
}

#[test]
fn geometry_outputs() {
    // mov o8, r0 in a geometry shader
    let code = [0x4d01_0000, 0x8800_0000];
    let program = Program::new(&code);
    let mut ctx = SourceContext::new(&program, &[0xf]);
    ctx.shader_type = ShaderType::Geometry;
    let issues = check_executable(&ctx);
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].index, 0);
    assert!(issues[0].message.contains("o8"));
}

// ------------------------------------------------------------------ listing and records
fn ins(op: Op) -> Instruction {
    Instruction { op, ..Instruction::default() }
}

fn alu(op: Op, dst: u8, src: [u8; 3], desc: u8) -> u32 {
    Instruction { op, dst, src, desc, ..Instruction::default() }.encode()
}

fn sw(s: &str) -> Swizzle {
    let mut l = [0u8; 4];
    for (k, c) in s.chars().enumerate() {
        l[k] = COMPONENTS.iter().position(|x| *x == c).unwrap() as u8;
    }
    Swizzle::from_lanes(l)
}

fn ctx<'a>(program: &'a Program<'a>, opdescs: &'a [u32]) -> SourceContext<'a> {
    let mut c = SourceContext::new(program, opdescs);
    c.code_offset = 0x40;
    c
}

fn listing(ctx: &SourceContext<'_>) -> String {
    let mut p = TextBuf::default();
    write_source(ctx, &mut p).unwrap();
    p.into_string()
}

const ID: (bool, Swizzle) = (false, Swizzle::IDENTITY);

#[test]
fn a_vertex_shader_with_every_kind_of_declaration() {
    let opdescs = [
        OperandDescriptor::new(0xF, [ID, ID, ID]).0,
        OperandDescriptor::new(0x8, [ID, ID, ID]).0,
        OperandDescriptor::new(0x0, [(false, sw("xxxx")), (false, sw("wwww")), ID]).0,
        OperandDescriptor::new(0xF, [(false, sw("yyyy")), ID, ID]).0,
        OperandDescriptor::new(0xC, [ID, ID, ID]).0,
        OperandDescriptor::new(0x8, [(true, sw("wwww")), ID, ID]).0,
    ];
    let code = [
        alu(Op::Dp4, 0x10, [0x20, 0x00, 0], 1),
        alu(Op::Mova, 0, [0x10, 0, 0], 1),
        Instruction { idx: 1, ..decode(alu(Op::Mov, 0x11, [0x24, 0, 0], 0)) }.encode(),
        Instruction { cmp: [2, 5], ..decode(alu(Op::Cmp, 0, [0x26, 0x11, 0], 2)) }.encode(),
        Instruction { refs: [true, false], condop: 1, target: 6, num: 2, ..ins(Op::Ifc) }.encode(),
        alu(Op::Mul, 0x00, [0x7F, 0x11, 0], 3),
        alu(Op::Mov, 0x00, [0x11, 0, 0], 0),
        ins(Op::Nop).encode(),
        Instruction { uniform: 3, target: 9, ..ins(Op::Loop) }.encode(),
        alu(Op::Add, 0x12, [0x34, 0x12, 0], 0),
        ins(Op::Nop).encode(),
        Instruction { uniform: 1, target: 16, num: 1, ..ins(Op::Callu) }.encode(),
        Instruction { refs: [false, true], condop: 2, target: 15, ..ins(Op::Jmpc) }.encode(),
        alu(Op::Mad, 0x01, [0x11, 0x34, 0x12], 4),
        Instruction { idx: 1, ..decode(alu(Op::Madi, 0x13, [0x11, 0x12, 0x21], 0)) }.encode(),
        ins(Op::End).encode(),
        alu(Op::Rcp, 0x14, [0x11, 0, 0], 5),
    ];
    let uniforms = [
        Uniform::new("aPosition.xyz", 0x00, 0x00),
        Uniform::new("uColor", 0x16, 0x16),
        Uniform::new("uProj", 0x10, 0x13),
        Uniform::new("bFlag", 0x79, 0x79),
        Uniform::new("iCount", 0x70, 0x70),
    ];
    let constants = [
        Constant::new(95, ConstantValue::Float([0x3f0000, 0, 0x3e0000, 0xbf0000])),
        Constant::new(20, ConstantValue::Float([0x3d0000; 4])),
        Constant::new(3, ConstantValue::Int([3, 0, 1, 0])),
        Constant::new(2, ConstantValue::Bool(true)),
    ];
    let outputs = [Output::new(0, 0, 0xF), Output::new(3, 1, 0x3), Output::new(4, 1, 0x4)];
    let program = Program::new(&code);
    let mut c = ctx(&program, &opdescs);
    c.endmain = 16;
    c.uniforms = &uniforms;
    c.constants = &constants;
    c.outputs = &outputs;
    let expected = "\
; vertex shader: entry 0x000..0x010 of 17 code words, 6 operand descriptors
.in aPosition$xyz v0
.fvec uProj[4] ; c0
.fvec _gap_c4[2] ; c4
.fvec uColor ; c6
.ivec iCount ; i0
.bool _gap_b0 ; b0
.bool bFlag ; b1
.constf const_c95(1.0, 0.0, 0.5, -1.0) ; c95
.setf c20(0.25, 0.25, 0.25, 0.25)
.consti const_i3(3, 0, 1, 0) ; i3
.setb b2 true
.out outpos position o0
.out outtc0 texcoord0 o1.xy
.out - texcoord0w o1.z
.entry main

.proc main
	dp4 r0.x, uProj[0], aPosition$xyz
	mova a0.x, r0
	mov r1, c4[a0.x]
	cmp uColor.x, lt, ge, r1.w
	ifc cmp.x && !cmp.y
		mul outpos, const_c95.y, r1
	.else
		mov outpos, r1
		nop
	.end
	for const_i3
		add r2, c20, r2
	.end
	nop
	callu bFlag, proc_010
	jmpc !cmp.x, l_00f
	mad outtc0.xy, r1, c20, r2
	mad r3, r1, r2, uProj[a0.x+1]
l_00f:
	end
.end

.proc proc_010
	rcp r4.x, -r1.w
.end
";
    assert_eq!(listing(&c), expected);
}

#[test]
fn a_geometry_shader_in_fixed_mode() {
    let opdescs = [OperandDescriptor::new(0xF, [ID, ID, ID]).0];
    let code = [
        Instruction { vertex: 0, primitive: true, ..ins(Op::Setemit) }.encode(),
        alu(Op::Mov, 0x00, [0x20, 0, 0], 0),
        alu(Op::Mov, 0x08, [0x0F, 0, 0], 0),
        ins(Op::Emit).encode(),
        Instruction { vertex: 2, invert: true, ..ins(Op::Setemit) }.encode(),
        ins(Op::End).encode(),
    ];
    let uniforms = [Uniform::new("_secret", 0x18, 0x19)];
    let outputs = [Output::new(0, 0, 0xF), Output::new(9, 1, 0xF)];
    let program = Program::new(&code);
    let mut c = ctx(&program, &opdescs);
    c.shader_type = ShaderType::Geometry;
    c.merge_outmaps = true;
    c.geometry = GeometryMode { mode: 2, fixed_start: 0, variable_count: 0, fixed_count: 4 };
    c.uniforms = &uniforms;
    c.outputs = &outputs;
    let labels = [Label::new("gmain", 0)];
    c.labels = &labels;
    let expected = "\
; geometry shader: entry 0x000..0x006 of 6 code words, 1 operand descriptors
.gsh fixed c8 c0 4
.fvec u_secret[2] ; c8 \"_secret\"
.out outpos position o0
.out outdummy dummy o1
.entry gmain

.proc gmain
	setemit 0, prim
	mov outpos, c0
	mov o6[2], v14[1]
	emit
	setemit 2, inv
	end
.end
";
    assert_eq!(listing(&c), expected);
}

#[test]
fn the_entry_is_main_unless_an_alias_took_the_name() {
    let code = [ins(Op::End).encode()];
    let uniforms = [Uniform::new("main", 0x10, 0x10)];
    let program = Program::new(&code);
    let mut c = ctx(&program, &[]);
    c.uniforms = &uniforms;
    let text = listing(&c);
    assert!(text.ends_with(".fvec main ; c0\n.entry main_2\n\n.proc main_2\n\tend\n.end\n"), "{text}");
}

#[test]
fn offsets_and_raw_words_are_trailing_comments() {
    let code = [ins(Op::Nop).encode(), ins(Op::End).encode()];
    let program = Program::new(&code);
    let mut c = ctx(&program, &[]);
    c.offsets = true;
    c.raw = true;
    let text = listing(&c);
    assert!(text.contains("\tnop ; 0x000040 84000000\n\tend ; 0x000044 88000000\n"), "{text}");
}

#[test]
fn printer_lines_carry_instruction_offsets() {
    let code = [ins(Op::Nop).encode(), ins(Op::End).encode()];
    let program = Program::new(&code);
    let c = ctx(&program, &[]);
    let mut p = LinesAt::default();
    write_source(&c, &mut p).unwrap();
    let with_offsets: Vec<u64> = p.0.iter().filter_map(|l| l.0).collect();
    assert_eq!(with_offsets, vec![0x40, 0x44]);
    // Every line the printer writes was started with `start_line`: one line of text each.
    assert!(p.0.iter().all(|(_, text)| text.lines().count() == 1 && text.ends_with('\n')), "{:?}", p.0);
}

#[test]
fn conditional_calls_breaks_and_jumps() {
    let opdescs = [OperandDescriptor::new(0xF, [ID, ID, ID]).0];
    let code = [
        Instruction { uniform: 0, target: 5, ..ins(Op::Loop) }.encode(),
        Instruction { refs: [true, true], condop: 0, ..ins(Op::Breakc) }.encode(),
        Instruction { refs: [false, false], condop: 3, target: 8, num: 1, ..ins(Op::Callc) }.encode(),
        Instruction { uniform: 4, target: 7, negate: true, ..ins(Op::Jmpu) }.encode(),
        ins(Op::Break).encode(),
        ins(Op::Nop).encode(),
        Instruction { uniform: 2, target: 7, num: 1, ..ins(Op::Ifu) }.encode(),
        ins(Op::End).encode(),
        Instruction { target: 9, num: 1, ..ins(Op::Call) }.encode(),
        ins(Op::Nop).encode(),
    ];
    let program = Program::new(&code);
    let mut c = ctx(&program, &opdescs);
    c.endmain = 8;
    let text = listing(&c);
    let body: Vec<&str> = text.lines().skip_while(|l| !l.starts_with(".proc")).collect();
    assert_eq!(
        body,
        [
            ".proc main",
            "\tfor i0",
            "\t\tbreakc cmp.x || cmp.y",
            "\t\tcallc !cmp.y, proc_008",
            "\t\tjmpu !b4, l_007",
            "\t\tbreak",
            "\t\tnop",
            "\t.end",
            "\tifu b2",
            "\t\t; picasso inserts a padding nop here, which this binary does not have",
            "\t.else",
            "l_007:",
            "\t\tend",
            "\t.end",
            "\t; picasso inserts a padding nop here, which this binary does not have",
            ".end",
            "",
            ".proc proc_008",
            "\tcall proc_009",
            "\t; picasso inserts a padding nop here, which this binary does not have",
            ".end",
            "",
            ".proc proc_009",
            "\tnop",
            ".end",
        ]
    );
}

#[test]
fn code_reached_only_by_jumps_is_listed() {
    let opdescs = [OperandDescriptor::new(0xF, [ID, ID, ID]).0];
    let code = [
        Instruction { refs: [true, true], condop: 2, target: 3, ..ins(Op::Jmpc) }.encode(),
        ins(Op::End).encode(),
        ins(Op::Nop).encode(), // never runs: not listed
        Instruction { uniform: 0, target: 5, ..ins(Op::Jmpu) }.encode(),
        ins(Op::End).encode(),
    ];
    let program = Program::new(&code);
    let mut c = ctx(&program, &opdescs);
    c.endmain = 2;
    let text = listing(&c);
    let body: Vec<&str> = text.lines().skip_while(|l| !l.starts_with(".proc")).collect();
    assert_eq!(
        body,
        [
            ".proc main",
            "\tjmpc cmp.x, l_003",
            "\tend",
            ".end",
            "",
            ".proc proc_003",
            "l_003:",
            "\tjmpu b0, l_005",
            "\tend",
            "l_005:",
            ".end",
        ]
    );
}

#[test]
fn unprintable_instructions_become_comments() {
    let opdescs = [OperandDescriptor::new(0x0, [ID, ID, ID]).0];
    let code = [
        0x4000_1234,                                                // unknown opcode 0x10
        alu(Op::Mov, 0x10, [0x11, 0, 0], 0),                        // empty mask
        Instruction { target: 0, num: 1, ..ins(Op::Ifc) }.encode(), // target before itself
        alu(Op::Mov, 0x10, [0x11, 0, 0], 1),                        // opdesc outside the table
        ins(Op::End).encode(),
    ];
    let program = Program::new(&code);
    let text = listing(&ctx(&program, &opdescs));
    let body: Vec<&str> = text.lines().skip_while(|l| !l.starts_with(".proc")).collect();
    assert_eq!(
        body,
        [
            ".proc main",
            "\t; unknown opcode: unk10 0x40001234",
            "\tnop ; mov with an empty write mask",
            "\t; if-block 0x002..0x000+1 is not nested: ifc !cmp.x || !cmp.y (else 0x000, 1 word)",
            "\tmov r0, r1 ; opdesc 0x01 is outside the table",
            "\tend",
            ".end",
        ]
    );
}

/// Arbitrary words and tables: no panic, balanced output, bounded size.
#[test]
fn arbitrary_programs_and_tables_list_without_panicking() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..3000 {
        let len = (next() % 48) as usize;
        // Bias toward flow instructions so that targets and blocks get exercised.
        let code: Vec<u32> = (0..len)
            .map(|_| {
                let w = next() as u32;
                if w & 1 == 0 { (w & 0x03ff_ffff) | ((0x20 + (w >> 28) % 14) << 26) } else { w }
            })
            .collect();
        let opdescs: Vec<u32> = (0..next() % 4).map(|_| next() as u32).collect();
        let uniforms: Vec<Uniform> = (0..next() % 5)
            .map(|k| {
                let first = (next() % 0x90) as u16;
                Uniform::new(
                    format!("u.{k}\n"),
                    first,
                    first.wrapping_add((next() % 6) as u16).wrapping_sub(1),
                )
            })
            .collect();
        let constants: Vec<Constant> = (0..next() % 5)
            .map(|_| match next() % 3 {
                0 => Constant::new((next() % 20) as u8, ConstantValue::Bool(next() % 2 == 0)),
                1 => Constant::new((next() % 6) as u8, ConstantValue::Int([1, 2, 3, 4])),
                _ => Constant::new((next() % 100) as u8, ConstantValue::Float([next() as u32; 4])),
            })
            .collect();
        let outputs: Vec<Output> = (0..next() % 4)
            .map(|_| Output::new((next() % 12) as u16, (next() % 18) as u16, (next() % 17) as u16))
            .collect();
        let labels: Vec<Label> = (0..next() % 3).map(|_| Label::new("end", (next() % 50) as u32)).collect();
        let program = Program::new(&code);
        let mut c = ctx(&program, &opdescs);
        c.main = (next() % 50) as u32;
        c.endmain = (next() % 50) as u32;
        c.shader_type = [ShaderType::Vertex, ShaderType::Geometry, ShaderType::Other(7)][round % 3];
        c.geometry = GeometryMode {
            mode: (next() % 4) as u8,
            fixed_start: next() as u8,
            variable_count: 3,
            fixed_count: 4,
        };
        c.uniforms = &uniforms;
        c.constants = &constants;
        c.outputs = &outputs;
        c.labels = &labels;
        c.code_offset = u64::MAX - 8;
        c.offsets = true;
        c.raw = true;
        let text = listing(&c);
        assert!(text.len() < 64 * 1024, "{}", text.len());
        // Every line is a comment, directive, label or (indented) instruction: names with
        // line breaks in them must not start lines of their own.
        for l in text.lines().filter(|l| !l.is_empty()) {
            let label = l.ends_with(':')
                && l.chars().take(l.len() - 1).all(|c| c.is_ascii_alphanumeric() || c == '_');
            assert!(l.starts_with([';', '.', '\t']) || label, "{l:?}");
        }
        let procs = text.lines().filter(|l| l.starts_with(".proc ")).count();
        assert!(procs >= 1, "{text}");
        let _ = check_program(&program, opdescs.len());
        let _ = check_executable(&c);
    }
}

#[test]
fn words_and_descriptors_describe_themselves() {
    let opdescs = [OperandDescriptor::new(0x8, [(true, sw("wzyx")), ID, ID]).0];
    assert_eq!(describe_word(alu(Op::Mov, 0x10, [0x24, 0, 0], 0), &opdescs), "mov r0.x, -c4.w [opdesc 0x00]");
    assert_eq!(
        describe_word(Instruction { target: 0x12, num: 3, ..ins(Op::Call) }.encode(), &[]),
        "call 0x012+3"
    );
    assert_eq!(describe_word(0x4400_0000, &[]), "unk11 0x44000000");
    assert_eq!(
        describe_opdesc(opdescs[0] | 0x8000_0000),
        "mask .x, src1 -.wzyx, src2 +.xyzw, src3 +.xyzw, bit 31 set"
    );
}
