//! Inputs built in memory for the tests of damaged and hostile files: a small SM4 program,
//! and tables that name one structure many times.
#![allow(dead_code)]

/// The example DVLB (header of 12 bytes: one DVLE offset) with its DVLE table grown to `n`
/// entries that all point at the one DVLE. The DVLP's and DVLE's own offsets are relative to
/// their headers, so only the DVLE offset moves.
pub fn repeated_dvle(n: u32) -> Vec<u8> {
    let one = shaderscope::shbin::build::example_vertex_shader();
    let old = u32::from_le_bytes(one[8..12].try_into().unwrap());
    let at = old + 4 * (n - 1);
    let mut v = b"DVLB".to_vec();
    v.extend(n.to_le_bytes());
    for _ in 0..n {
        v.extend(at.to_le_bytes());
    }
    v.extend(&one[12..]);
    v
}

/// `ps_4_0` copying its interpolated colour to the output (14 tokens).
pub fn shdr() -> Vec<u8> {
    let tokens: [u32; 14] = [
        0x0000_0040,
        14,
        0x0300_1062,
        0x0010_10f2,
        0,
        0x0300_0065,
        0x0010_20f2,
        0,
        0x0500_0036,
        0x0010_20f2,
        0,
        0x0010_1e46,
        0,
        0x0100_003e,
    ];
    tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
}

/// A DXBC whose chunk index has `n` entries that all point at its one SHDR chunk.
pub fn repeated_chunk(n: u32) -> Vec<u8> {
    let mut b = shaderscope::format::dxbc::write::Builder::new();
    b.push(*b"SHDR", shdr());
    let one = b.finish().unwrap();
    let chunk = &one[36..];
    let at = 32 + 4 * n;
    let mut v = one[..24].to_vec();
    v.extend((at + chunk.len() as u32).to_le_bytes());
    v.extend(n.to_le_bytes());
    for _ in 0..n {
        v.extend(at.to_le_bytes());
    }
    v.extend(chunk);
    v
}

/// An SM4 listing whose one instruction reads an operand nested `depth` times through `open`
/// (`x0[`, `cb0[`): `mov r0.x, x0[x0[…r0.x + 0].x…].x`.
pub fn nested_sm4(open: &str, depth: usize) -> String {
    let mut t = String::with_capacity(32 + depth * (open.len() + 8));
    t.push_str("ps_4_0\nmov r0.x, ");
    for _ in 0..depth {
        t.push_str(open);
    }
    t.push_str("r0.x");
    for _ in 0..depth {
        t.push_str(" + 0].x");
    }
    t.push('\n');
    t
}

/// A Direct3D 9 listing whose one source is a constant addressed through `depth` nested
/// constants: `mov r0, c0[c0[…a0.x…]]`.
pub fn nested_d3d9(depth: usize) -> String {
    let mut t = String::from("vs_2_0\nmov r0, ");
    t.push_str(&"c0[".repeat(depth));
    t.push_str("a0.x");
    t.push_str(&"]".repeat(depth));
    t.push('\n');
    t
}

/// An MBS vertex shader (CVER) whose SUNI table holds one float uniform `name` of
/// `components` components at scalar slot `offset` (the fuzzer's input: 65 535 components at
/// offset 3, name "a"). The symbol record starts at 0x34 + the name's padded length.
pub fn mbs_uniform(name: &[u8], components: u16, offset: u16) -> Vec<u8> {
    let mut stri = name.to_vec();
    stri.resize((name.len() + 1).next_multiple_of(4), 0);
    let mut vuni = b"STRI".to_vec();
    vuni.extend((stri.len() as u32).to_le_bytes());
    vuni.extend(&stri);
    // type float (1), component count, size 1, no entries, no strides, precision 3,
    // invariant 0, offset, no parent.
    vuni.extend([0, 1]);
    vuni.extend(components.to_le_bytes());
    vuni.extend([1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0]);
    vuni.extend(offset.to_le_bytes());
    vuni.extend([0xff, 0xff]);
    let chunk = |tag: &[u8], body: &[u8]| {
        let mut c = tag.to_vec();
        c.extend((body.len() as u32).to_le_bytes());
        c.extend(body);
        c
    };
    let mut suni = 1u32.to_le_bytes().to_vec();
    suni.extend(4u32.to_le_bytes());
    suni.extend(chunk(b"VUNI", &vuni));
    let mut cver = 6u32.to_le_bytes().to_vec();
    cver.extend(chunk(b"SUNI", &suni));
    chunk(b"MBS1", &chunk(b"CVER", &cver))
}

/// A DXBC container of `n` chunks of one unknown tag (4 bytes each) and its SHDR: a chunk
/// table that grows with `n`.
pub fn many_chunks(n: usize) -> Vec<u8> {
    let mut b = shaderscope::format::dxbc::write::Builder::new();
    b.push(*b"SHDR", shdr());
    for k in 0..n {
        b.push(*b"XTRA", (k as u32).to_le_bytes().to_vec());
    }
    b.finish().unwrap()
}

/// A SHARC source archive of `n` sources, half of them sharing names (in another case).
pub fn many_sources(n: usize) -> Vec<u8> {
    use shaderscope::format::sharc::{Sharc, Source};
    let mut a = Sharc::new("hostile", shaderscope::toolkit::Endian::Big);
    for k in 0..n {
        let name = if k % 2 == 0 { format!("s{k}.glsl") } else { format!("S{}.GLSL", k - 1) };
        a.sources.items.push(Source::new(&name, "void main() {}\n"));
    }
    a.write().unwrap()
}

/// A SHARCFB of `n` programs that all take its two binaries (VS and PS), whose GX2 structs
/// each hold `n` uniforms: the programs' table and the binaries both grow with `n`.
pub fn many_programs(n: usize) -> Vec<u8> {
    use shaderscope::format::gx2::{Kind, Name, PointerKind, Shader, UniformVar, VarType};
    use shaderscope::format::sharcfb::{Binary, BinaryType, Program, Sharcfb};
    use shaderscope::toolkit::{Cstr, Endian, layout::Placement};
    let names: Vec<String> = (0..n).map(|k| format!("u{k}")).collect();
    let binary = |kind: Kind| {
        let mut s = Shader::empty(kind, PointerKind::Offset);
        for (k, name) in names.iter().enumerate() {
            s.uniform_vars.items.push(UniformVar {
                at: 0,
                name: Name { pointer: 1, text: Some(Cstr { bytes: name.as_bytes(), offset: 0 }) },
                ty: VarType(10),
                count: 1,
                offset: 4 * k as u32,
                block: -1,
            });
        }
        let laid = s.lay_out(0, PointerKind::Offset);
        let mut p = Placement::new(Endian::Big, laid.text.end as usize);
        laid.shader.place(&mut p, 0);
        p.finish(&[])
    };
    let mut a = Sharcfb::new("hostile", Endian::Big);
    a.binaries.items.push(Binary::new(BinaryType::VERTEX, binary(Kind::Vertex)));
    a.binaries.items.push(Binary::new(BinaryType::PIXEL, binary(Kind::Pixel)));
    for k in 0..n {
        a.programs.items.push(Program::new(&format!("program{k}"), 0b011, 0));
    }
    a.write().unwrap()
}

/// A DXBC whose RDEF (SM4 layout) has one constant buffer of `variables` variables, each of its
/// own struct type; every one of those types names one table of `members` members (legal: 12
/// bytes per row). With `nested`, each member is itself a struct whose members are `members`
/// floats, so that a variable spells out `members × (members + 1)` declarations.
pub fn shared_struct_rdef(variables: u32, members: u16, nested: bool) -> Vec<u8> {
    let (v, n) = (variables as usize, usize::from(members));
    let types = 52 + 24 * v;
    let table = types + 16 * v;
    let float = table + 12 * n;
    let inner_table = float + 16;
    let inner = inner_table + 12 * n;
    let strings = inner + 16;
    let mut b = Vec::with_capacity(strings + 4);
    let u32s = |b: &mut Vec<u8>, words: &[usize]| {
        for &w in words {
            b.extend((w as u32).to_le_bytes());
        }
    };
    // Header: one constant buffer at 28, no bindings, ps_4_0, the creator after the name.
    u32s(&mut b, &[1, 28, 0, 0, 0xffff_0400, 0, strings + 2]);
    u32s(&mut b, &[strings, v, 52, 16, 0, 0]);
    for k in 0..v {
        u32s(&mut b, &[strings, 0, 16, 2, types + 16 * k, 0]);
    }
    let struct_type = |b: &mut Vec<u8>, members_at: usize| {
        for h in [5, 0, 1, members, 0, members] {
            b.extend(h.to_le_bytes());
        }
        b.extend((members_at as u32).to_le_bytes());
    };
    for _ in 0..v {
        struct_type(&mut b, table);
    }
    let member_type = if nested { inner } else { float };
    for k in 0..n {
        u32s(&mut b, &[strings, member_type, 4 * k]);
    }
    u32s(&mut b, &[0x0003_0000, 0x0001_0001, 0, 0]);
    for k in 0..n {
        u32s(&mut b, &[strings, float, 4 * k]);
    }
    struct_type(&mut b, inner_table);
    b.extend(b"m\0x\0");
    let mut d = shaderscope::format::dxbc::write::Builder::new();
    d.push(*b"RDEF", b);
    d.push(*b"SHDR", shdr());
    d.finish().unwrap()
}

/// A Yaz0 stream that states `stated` decoded bytes and makes them of one literal and copies
/// of 273 bytes from one byte back (3 bytes each, a flag byte per 8): it packs 87 times.
pub fn yaz0_copies(stated: u32) -> Vec<u8> {
    let mut v = b"Yaz0".to_vec();
    v.extend(stated.to_be_bytes());
    v.extend([0; 8]);
    v.extend([0x80, b'A']);
    v.extend([0, 0, 0xff].repeat(7));
    let mut made = 1 + 7 * 273u64;
    while made < u64::from(stated) {
        v.push(0);
        v.extend([0, 0, 0xff].repeat(8));
        made += 8 * 273;
    }
    v
}

/// A `vs_3_0` program of `n` instructions `mov r0, r1` (3 tokens each): 12 bytes per
/// instruction, so 80 000 of them make a 960 KB file.
pub fn d3d9_movs(n: usize) -> Vec<u8> {
    let mut words = vec![0xfffe_0300u32];
    for _ in 0..n {
        // mov, 2 operand tokens; r0 written .xyzw; r1 read .xyzw.
        words.extend([0x0200_0001, 0x800f_0000, 0x80e4_0001]);
    }
    words.push(0x0000_ffff);
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// An MBS vertex shader (CVER) whose SUNI table holds `n` float uniforms `u0`, `u1`, … of one
/// component each, one per scalar slot (44 bytes each: 30 000 of them make 1.3 MB).
pub fn mbs_symbols(n: u16) -> Vec<u8> {
    use shaderscope::format::mbs::{Body, Mbs, Node, Shader, Symbol, SymbolType, Table};
    let names: Vec<String> = (0..n).map(|k| format!("u{k}")).collect();
    let children = names
        .iter()
        .zip(0u16..)
        .map(|(name, k)| {
            Node::new(*b"VUNI", Body::Symbol(Box::new(Symbol::new(name, SymbolType::FLOAT, 1, 1, k))))
        })
        .collect();
    let suni = Table { count: u32::from(n), total_slots: Some(u32::from(n)), children };
    let shader = Shader { version: 6, children: vec![Node::new(*b"SUNI", Body::Table(suni))] };
    Mbs::from_root(Node::new(*b"MBS1", Body::Chunks(vec![Node::new(*b"CVER", Body::Shader(shader))])))
        .write_model()
}

/// A GFD of `n` shaders, each the example's vertex shader with its program (a header block
/// and a program block each): a block list that grows with `n`.
pub fn many_gfd_shaders(n: usize) -> Vec<u8> {
    use shaderscope::format::gfd::build::{Builder, example_shader};
    use shaderscope::format::gx2::Kind;
    let (shader, code) = example_shader(Kind::Vertex);
    let mut b = Builder::new();
    for _ in 0..n {
        b.push(&shader, code, &[]);
    }
    b.finish().unwrap()
}

/// The large hostile files of the memory tests (issue 22), each named as a file: a vs_3_0 of
/// 80 000 instructions (960 KB), an MBS of 30 000 uniforms (1.3 MB), a DVLB naming one DVLE
/// 100 000 times (400 KB), a SHARCFB of 20 000 programs (2.6 MB) and a DXBC of 20 000 RDEF
/// struct types sharing member tables (800 KB).
pub fn large_files() -> [(&'static str, Vec<u8>); 5] {
    [
        ("d3d9-80000-movs.vs", d3d9_movs(80_000)),
        ("mbs-30000-uniforms.mbs", mbs_symbols(30_000)),
        ("dvlb-100000-dvles.shbin", repeated_dvle(100_000)),
        ("sharcfb-20000-programs.sharcfb", many_programs(20_000)),
        ("rdef-shared-structs.dxbc", shared_struct_rdef(20_000, 20, true)),
    ]
}
