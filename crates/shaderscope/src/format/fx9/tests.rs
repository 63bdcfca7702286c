use super::build::{self, Builder, example};
use super::*;
use crate::print::TextBuf;

/// `dump`'s text of `bytes`.
fn dump(bytes: &[u8]) -> String {
    let mut a = Annotations::new();
    crate::annotate(bytes, &mut a).unwrap();
    let mut text = String::new();
    a.render(bytes, &mut text).unwrap();
    text
}

fn listing(fx: &Fx9<'_>) -> String {
    let mut out = TextBuf::default();
    fx.disasm(&DisasmOptions::default(), &mut out).unwrap();
    out.into_string()
}

#[test]
fn the_sample_reads_lists_and_writes_back() {
    let bytes = example();
    let fx = Fx9::parse(&bytes).unwrap();
    assert_eq!(fx.write().unwrap(), bytes);
    assert_eq!(crate::detect(&bytes), Some(Format::Fx9));
    assert!(matches!(crate::parse(&bytes), Ok(crate::File::Fx9(_))));
    assert_eq!(
        fx.info_text(),
        "format: Direct3D 9 effect (fx_2_0)\n\
         summary: fx_2_0, 2 parameters, 1 technique, 1 pass, 3 shaders\n\
         objects: 4 ids, 2 shaders counted by the compiler; unstructured block 184 bytes\n\
         parameters:\n  float4 Tint : COLOR = {1, 0.5, 0.25, 1}\n  vertexshader PassThroughVS = shader0\n\
         techniques:\n  technique Main\n    pass P0: 2 states, vertex shader1 (vs_2_0), pixel shader2 (ps_2_0)\n\
         shaders:\n  shader0: vs_2_0, 32 bytes at 0x138 (object 1)\n  shader1: vs_2_0, 32 bytes at 0x170 (large object 0)\n  \
         shader2: ps_2_0, 32 bytes at 0x1a8 (large object 1)\n"
    );
    // fxc's layout: the shader parameters, then every technique's passes, programs indented
    // under `asm {` (without a header: these programs have no constant table).
    let vs =
        "    vs_2_0\n    dcl_position v0\n    mov oPos, v0\n\n// approximately 1 instruction slot used\n";
    let indented = |s: &str| s.lines().map(|l| format!("            {l}\n")).collect::<String>();
    let ps = "    ps_2_0\n    dcl v0\n    mov oC0, v0\n\n// approximately 1 instruction slot used\n";
    assert_eq!(
        listing(&fx),
        format!(
            "vertexshader PassThroughVS = \nasm {{\n{vs}}};\n\n\n\
             //listing of all techniques and passes with embedded asm listings \n\n\
             technique Main\n{{\n    pass P0\n    {{\n        vertexshader = \n            asm {{\n{}            }};\n\n        \
             pixelshader = \n            asm {{\n{}            }};\n    }}\n}}\n\n",
            indented(vs),
            indented(ps)
        )
    );
    let names: Vec<String> = fx.parts().into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["shader0", "shader1", "shader2", "unstructured"]);
    let shader = fx.part("shader2").unwrap();
    assert_eq!(crate::detect(&shader.bytes), Some(Format::D3d9));
    assert_eq!(&bytes[shader.offset as usize..][..shader.bytes.len()], &shader.bytes[..]);
    assert!(fx.validate().is_empty() && fx.damage().is_empty());
}

#[test]
fn every_byte_is_claimed_and_programs_are_annotated() {
    let bytes = example();
    let fx = Fx9::parse(&bytes).unwrap();
    let mut a = Annotations::new();
    fx.annotate(&mut a);
    let mut text = String::new();
    a.render(&bytes, &mut text).unwrap();
    assert!(!text.contains("(unclaimed)"), "{text}");
    for line in [
        "  0x0000 | 01 09 ff fe             | tag 0xfeff0901 (fx_2_0)",
        "  0x0004 | b8 00 00 00             | unstructured block size: 184 (structured part at 0xc0)",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert!(text.contains("| name \"Tint\""), "{text}");
    assert!(text.contains("| parameter Tint value: 1, 0.5, 0.25, 1"), "{text}");
    assert!(text.contains("| usage: 0 (the object's bytes)"), "{text}");
    assert!(text.contains("dcl usage 0x80000000: position, index 0"), "{text}");
}

#[test]
fn a_pass_can_name_a_shader_parameter() {
    // Pass P0's vertex shader state filled by a large object of usage 1: the parameter's name.
    let mut bytes = example();
    let fx = Fx9::parse(&bytes).unwrap();
    let r = &fx.resources[0];
    let (at, size) = (r.at as usize, r.data.len());
    // Replace the program by the parameter's name (14 bytes, padded to 16).
    let name = b"PassThroughVS\0";
    bytes[at + 16..at + 20].copy_from_slice(&1u32.to_le_bytes());
    bytes[at + 20..at + 24].copy_from_slice(&(name.len() as u32).to_le_bytes());
    let fx_bytes: Vec<u8> = bytes[..at + 24]
        .iter()
        .chain(name.iter())
        .chain([0u8, 0].iter())
        .chain(bytes[at + 24 + size..].iter())
        .copied()
        .collect();
    let fx = Fx9::parse(&fx_bytes).unwrap();
    assert_eq!(fx.state_shader(0, 0, 0), Binding::Parameter("PassThroughVS".into(), Some(0)));
    assert!(fx.info_text().contains("vertex shader0 (vs_2_0) via PassThroughVS"), "{}", fx.info_text());
    assert_eq!(fx.write().unwrap(), fx_bytes);
}

#[test]
fn damaged_effects_say_where_and_why() {
    let bytes = example();
    let err = |b: &[u8]| Fx9::parse(b).unwrap_err().to_string();
    assert_eq!(err(&bytes[..6]), "truncated unstructured size at offset 0x4 (need 4 bytes, have 2)");
    let mut big = bytes.clone();
    big[4..8].copy_from_slice(&0x1000u32.to_le_bytes());
    assert_eq!(
        err(&big),
        "unstructured block at offset 0x4 points outside its range (0x8 + 0x1000 is outside 0x1c8)"
    );
    let mut many = bytes.clone();
    many[0xc0..0xc4].copy_from_slice(&0x0100_0000u32.to_le_bytes());
    assert_eq!(
        err(&many),
        "invalid parameter count at offset 0xc0: 16777216 entries of at least 16 bytes do not fit in the 260 bytes left"
    );
    // The last object's size past the end of the file.
    let fx = Fx9::parse(&bytes).unwrap();
    let last = fx.resources.last().unwrap().at as usize;
    let mut long = bytes.clone();
    long[last + 20..last + 24].copy_from_slice(&64u32.to_le_bytes());
    assert_eq!(err(&long), "truncated large object at offset 0x1a8 (need 64 bytes, have 32)");
    let mut tag = bytes.clone();
    tag[1] = 0x0a;
    assert_eq!(err(&tag), "invalid effect tag at offset 0x0: 0xfeff0a01 is not fx_2_0 (0xfeff0901)");
    // A program that does not parse is damage: the effect still lists, the command fails.
    let mut broken = bytes.clone();
    broken[last + 24 + 4..last + 24 + 8].copy_from_slice(&0x0000_fffeu32.to_le_bytes());
    broken[last + 24 + 8..last + 24 + 12].copy_from_slice(&0x7fff_ffffu32.to_le_bytes());
    let fx = Fx9::parse(&broken).unwrap();
    let damage = fx.damage();
    assert_eq!(damage.len(), 1);
    assert!(damage[0].offset() >= last as u64 + 24, "{}", damage[0]);
    assert!(listing(&fx).contains("// the program does not parse: "));
}

#[test]
fn a_damaged_effect_still_dumps_its_header() {
    let bytes = example();
    let mut a = Annotations::new();
    crate::annotate(&bytes[..0x40], &mut a).unwrap();
    let mut text = String::new();
    a.render(&bytes[..0x40], &mut text).unwrap();
    assert!(text.contains("| tag 0xfeff0901 (fx_2_0)"), "{text}");
    assert_eq!(
        a.errors().map(|(o, m)| (o, m.to_string())).collect::<Vec<_>>(),
        [(
            4,
            "unstructured block at offset 0x4 points outside its range (0x8 + 0xb8 is outside 0x40)"
                .to_string()
        )]
    );
}

#[test]
fn scan_finds_the_programs_inside() {
    let bytes = example();
    let finds = crate::find::find_all(&bytes);
    let seen: Vec<(String, &str)> = finds.iter().map(|f| (f.location(), f.format.name())).collect();
    assert_eq!(
        seen,
        [
            ("-".to_string(), "fx9"),
            ("fx9@0x0:shader0/0x138".to_string(), "d3d9"),
            ("fx9@0x0:shader1/0x170".to_string(), "d3d9"),
            ("fx9@0x0:shader2/0x1a8".to_string(), "d3d9"),
        ]
    );
    assert!(finds.iter().all(|f| f.problem.is_none()));
}

#[test]
fn builder_parameters_and_unnamed_passes() {
    let mut b = Builder::new();
    b.float4("A", None, [0.0; 4]);
    let t = b.technique("T");
    b.pass(t, "", None, None);
    let bytes = b.finish();
    let fx = Fx9::parse(&bytes).unwrap();
    assert_eq!(fx.techniques[0].passes[0].name, "");
    assert!(fx.info_text().contains("    pass (unnamed): 0 states\n"), "{}", fx.info_text());
    assert!(listing(&fx).contains(
        "    pass \n    {\n        //No embedded vertex shader\n        //No embedded pixel shader\n    }\n"
    ));
    assert_eq!(fx.write().unwrap(), bytes);
}

#[test]
fn a_shader_array_element_is_chosen_with_the_defaults() {
    let bytes = build::selector_example(0);
    let fx = Fx9::parse(&bytes).unwrap();
    assert_eq!(fx.write().unwrap(), bytes);
    assert_eq!(
        fx.state_shader(0, 0, 0),
        Binding::Selected { array: "vsArray".into(), by_default: Some((1, Some(1))) }
    );
    assert!(
        fx.info_text().contains("pass (unnamed): 1 state, vertex shader from vsArray[] at run time (vsArray[1] = shader1 with the defaults)\n"),
        "{}",
        fx.info_text()
    );
    // fxc lists the element chosen under the pass, as it lists a pass's own shader.
    let text = listing(&fx);
    let pass = &text[text.find("    pass \n").unwrap()..];
    assert!(
        pass.starts_with("    pass \n    {\n        vertexshader = \n            asm {\n                vs_2_0\n                def c0, 2, 0, 0, 0\n"),
        "{pass}"
    );
    // Out of the array with these defaults (1 + 1): fxc's comment, and no element.
    let fx_bytes = build::selector_example(1);
    let fx = Fx9::parse(&fx_bytes).unwrap();
    assert_eq!(fx.state_shader(0, 0, 0), Binding::Selected { array: "vsArray".into(), by_default: None });
    assert!(listing(&fx).contains("    {\n        //vertex shader chosen at run time from vsArray[]\n        //No embedded pixel shader\n"));
    assert!(fx.info_text().contains("vertex shader from vsArray[] at run time\n"), "{}", fx.info_text());
    // -1 + 1 chooses the first.
    let fx_bytes = build::selector_example(-1);
    let fx = Fx9::parse(&fx_bytes).unwrap();
    assert_eq!(
        fx.state_shader(0, 0, 0),
        Binding::Selected { array: "vsArray".into(), by_default: Some((0, Some(0))) }
    );
}

/// XNA Game Studio 4's content: the effect after XNA's header, in an XNB. Read as the same
/// effect (offsets of the file), listed the same, written back whole; the effect is a part.
#[test]
fn xna_content_reads_lists_and_writes_back() {
    let bare = example();
    let words = [0x08, 0, 0, 0, 0x01, 0, 0, 0];
    let bytes = build::xna_content(&bare, &words, b'w').unwrap();
    assert_eq!(crate::detect(&bytes), Some(Format::Fx9));
    let fx = Fx9::parse(&bytes).unwrap();
    let plain = Fx9::parse(&bare).unwrap();
    let origin = bytes.len() - bare.len();
    let xna_at = origin - 16;
    assert_eq!((fx.origin, fx.effect), (origin as u64, &bare[..]));
    assert_eq!(fx.xna, Some(XnaHeader { at: xna_at as u64, words: words.to_vec() }));
    assert_eq!(&bytes[xna_at..xna_at + 8], [0xcf, 0x0b, 0xf0, 0xbc, 16, 0, 0, 0]);
    assert_eq!(fx.write().unwrap(), bytes);
    assert_eq!(listing(&fx), listing(&plain));
    let offsets = |fx: &Fx9<'_>| fx.shaders().iter().map(|s| s.offset).collect::<Vec<_>>();
    assert_eq!(offsets(&fx), offsets(&plain).iter().map(|o| o + origin as u64).collect::<Vec<_>>());
    let effect = fx.part("effect").unwrap();
    assert_eq!((effect.offset, &effect.bytes[..]), (origin as u64, &bare[..]));
    assert!(fx.validate().is_empty() && fx.damage().is_empty(), "{:?}", fx.validate());
    let info = fx.info_text();
    let lines: Vec<&str> = info.lines().take(6).collect();
    assert_eq!(
        lines,
        [
            "format: Direct3D 9 effect (fx_2_0)",
            "summary: fx_2_0 (XNA effect code in an XNB, platform 'w'), 2 parameters, 1 technique, 1 pass, 3 shaders",
            &format!(
                "XNB: platform 'w', version 5, flags 0x01, size {}, reader \"{}\" version 0",
                bytes.len(),
                crate::format::xnb::XNA_EFFECT_READER
            ),
            &format!("XNA effect header at 0x{xna_at:x}: words before the effect 0800000001000000"),
            &format!("effect at 0x{origin:x} ({} bytes)", bare.len()),
            "objects: 4 ids, 2 shaders counted by the compiler; unstructured block 184 bytes",
        ]
    );
    let text = dump(&bytes);
    assert!(!text.contains("(unclaimed)"), "{text}");
    assert!(text.contains("| XNA's words before the effect (kept)"), "{text}");

    // The effect code alone (no XNB) and FNA's bare effect in an XNB read too.
    let code = &bytes[xna_at..];
    let fx = Fx9::parse(code).unwrap();
    assert_eq!((fx.origin, fx.xnb.is_none(), fx.write().unwrap()), (16, true, code.to_vec()));
    assert_eq!(crate::detect(code), Some(Format::Fx9));
    let fna = crate::format::xnb::Xnb::effect(b'w').write(&bare, false).unwrap();
    let fx = Fx9::parse(&fna).unwrap();
    assert_eq!((fx.xna.is_none(), fx.effect, fx.write().unwrap()), (true, &bare[..], fna.clone()));

    // Damage: an offset that points outside the effect code, an effect that is not fx_2_0.
    let mut bad = bytes.clone();
    bad[xna_at + 4] = 4;
    assert_eq!(
        Fx9::parse(&bad).unwrap_err().to_string(),
        format!(
            "invalid XNA effect offset at offset 0x{:x}: 4 is not between 8 and the {} bytes the effect code has",
            xna_at + 4,
            bare.len() + 16
        )
    );
    let mut bad = bytes.clone();
    bad[origin] = 0;
    assert_eq!(
        Fx9::parse(&bad).unwrap_err().to_string(),
        format!("invalid effect tag at offset 0x{origin:x}: 0xfeff0900 is not fx_2_0 (0xfeff0901)")
    );
    let mut a = Annotations::new();
    annotate_damaged(&bad, &mut a);
    let mut text = String::new();
    a.render(&bad, &mut text).unwrap();
    assert!(text.contains("| tag 0xbcf00bcf (XNA effect code)"), "{text}");
}

/// XNA Game Studio 4 content compressed with LZX: read unpacked, written back as it was,
/// a changed model packed again.
#[test]
fn compressed_xna_content_is_read_unpacked() {
    use crate::format::xnb;
    let plain = build::xna_content(&example(), &[0; 8], b'w').unwrap();
    let packed = xnb::pack(&plain).unwrap();
    let file = crate::parse(&packed).unwrap();
    let crate::File::Packed(p) = &file else { panic!("not read packed") };
    assert_eq!((file.format(), p.unpacked()), (Format::Fx9, &plain[..]));
    assert_eq!(file.write().unwrap(), packed);
    assert!(file.validate().is_empty() && file.damage().is_empty());
    let info = file.info_text();
    assert_eq!(
        info.lines().last().unwrap(),
        format!(
            "compressed: LZX, {} bytes unpack to {} (the offsets above are the unpacked XNB's: `extract FILE unpacked`)",
            packed.len(),
            plain.len()
        )
    );
    assert_eq!(info.lines().nth(1), crate::parse(&plain).unwrap().info_text().lines().nth(1));
    let names: Vec<String> = file.parts().into_iter().map(|p| p.name).collect();
    assert_eq!(names, ["unpacked", "shader0", "shader1", "shader2", "effect", "unstructured"]);
    assert_eq!(&file.part("unpacked").unwrap().bytes[..], &plain[..]);
    assert_eq!(file.embedded().len(), 3);
    let text = dump(&packed);
    assert!(!text.contains("(unclaimed)"), "{text}");
    assert!(text.contains("| == LZX block 0 (0xe.."), "{text}");
    // A finding in the unpacked file says where it is.
    let mut odd = plain.clone();
    odd.extend([1, 2, 3, 4]);
    let odd = xnb::pack(&odd).unwrap();
    let f = crate::parse(&odd).unwrap().validate();
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].message, "in the unpacked XNB: 4 bytes after the effect in the XNB");
    assert_eq!(f[0].offset, plain.len() as u64);
    // An unpacked file that is not an effect says so, unpacked.
    let mut bad = plain.clone();
    let origin = plain.len() - example().len();
    bad[origin] = 0;
    let e = crate::parse(&xnb::pack(&bad).unwrap()).unwrap_err().to_string();
    assert_eq!(
        e,
        format!("invalid unpacked effect tag at offset 0x{origin:x}: 0xfeff0900 is not fx_2_0 (0xfeff0901)")
    );
}
