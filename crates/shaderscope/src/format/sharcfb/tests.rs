//! Unit tests of the SHARCFB model on archives built in code.

use super::res::{Symbol, Variation};
use super::*;

/// `v` as a word of a file in byte order `e`.
fn word(v: u32, e: Endian) -> [u8; 4] {
    match e {
        Endian::Little => v.to_le_bytes(),
        Endian::Big => v.to_be_bytes(),
    }
}

/// A program with a geometry shader and two macros (2 × 3 values): 6 variations, 18 binaries
/// from base index 1 (binary 0 belongs to no program). Each binary's data is 0x140 bytes
/// whose first word is its index in the archive's byte order (and whose GX2 struct fields are otherwise zero, but for a
/// vertex shader's SQ_VTX_SEMANTIC_CLEAR, all ones as for no semantic).
fn archive(endian: Endian) -> Sharcfb {
    let mut a = Sharcfb::new("test", endian);
    a.binaries.items.push(Binary::new(BinaryType::PIXEL, vec![0xee; 8]));
    for v in 0..6u32 {
        for (k, kind) in [BinaryType::VERTEX, BinaryType::PIXEL, BinaryType::GEOMETRY].into_iter().enumerate()
        {
            let mut data = vec![0u8; 0x140];
            let index = 1 + v * 3 + k as u32;
            data[..4].copy_from_slice(&word(index, endian));
            if kind == BinaryType::VERTEX {
                // SQ_VTX_SEMANTIC_CLEAR: no semantic used, every one cleared.
                data[0x3c..0x40].copy_from_slice(&[0xff; 4]);
            }
            a.binaries.items.push(Binary::new(kind, data));
        }
    }
    let mut p = Program::new("lit", 0b111, 1);
    p.variations.items.push(Variation::new("FOG", &["off", "on"], "fog_mode"));
    p.variations.items.push(Variation::new("LIGHTS", &["0", "1", "4"], "light_count"));
    p.defaults.items.push(Variation::new("LIGHTS", &["4"], "light_count"));
    let one = match endian {
        Endian::Little => 1.0f32.to_bits().to_le_bytes(),
        Endian::Big => 1.0f32.to_bits().to_be_bytes(),
    };
    p.symbols[0].items.push(Symbol::new("cColor", "color", 0x10, &one, &[1, 1, 0, 0, 1, 1]));
    p.symbols[1].items.push(Symbol::new("Mat", "Mat", 0, &[1, 2, 3, 4, 5], &[1; 6]));
    p.symbols[2].items.push(Symbol::new("tex", "_a0", -1, &[], &[1; 6]));
    p.symbols[3].items.push(Symbol::new("aPos", "_p0", -1, &[], &[1; 6]));
    a.programs.items.push(p);
    a
}

fn set(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(m, v)| (m.to_string(), v.to_string())).collect()
}

#[test]
fn a_built_archive_writes_parses_and_writes_back() {
    for endian in [Endian::Big, Endian::Little] {
        let bytes = archive(endian).write().unwrap();
        let f = Sharcfb::parse(&bytes).unwrap();
        assert_eq!(f.write().unwrap(), bytes);
        assert_eq!(
            (f.binaries.items.len(), f.programs.items.len(), f.file_size()),
            (19, 1, bytes.len() as u64)
        );
        assert!(f.validate().is_empty(), "{:?}", f.validate());
        let p = &f.programs.items[0];
        assert_eq!(p.variation_count(), Some(6));
        assert_eq!(f.binaries.items[1].data_at(), f.binaries.items[1].at + 0x10);
        assert_eq!(&bytes[f.binaries.items[1].data_at() as usize..][..4], &word(1, endian));
    }
}

#[test]
fn variations_resolve_as_seed_002_says() {
    let f = Sharcfb::parse(&archive(Endian::Big).write().unwrap()).unwrap();
    // Defaults: FOG has none (its first value, "off"), LIGHTS defaults to "4": index 0*3+2.
    let r = f.resolve("lit", &[]).unwrap();
    assert_eq!(r.variation, 2);
    let idx: Vec<u64> = r.binaries.iter().map(|b| b.index).collect();
    assert_eq!(idx, [7, 8, 9]);
    assert_eq!(r.settings.iter().map(|s| s.source).collect::<Vec<_>>(), ["first", "default"]);
    // FOG=on LIGHTS=1: 1*3+1 = 4; binaries 1 + 4*3 = 13, 14, 15.
    let r = f.resolve("lit", &set(&[("FOG", "on"), ("light_count", "1")])).unwrap();
    assert_eq!((r.variation, r.binaries[0].index, r.binaries[2].index), (4, 13, 15));
    assert!(r.binaries.iter().all(|b| b.type_matches));
    // The resolved data is the binary's: its first word is its index.
    for b in &r.binaries {
        let bin = &f.binaries.items[b.index as usize];
        assert_eq!((b.offset, b.size), (bin.data_at(), 0x140));
        assert_eq!(bin.data[..4], word(b.index as u32, f.endian));
    }
    // Every variation's settings give it back.
    let p = &f.programs.items[0];
    for v in 0..6 {
        let s = f.settings(p, v);
        assert_eq!(f.resolve("lit", &s).unwrap().variation, v);
        for (k, b) in f.resolve("lit", &s).unwrap().binaries.iter().enumerate() {
            assert_eq!(f.owners(b.index as usize), [(0, v, k as u64)]);
        }
    }
    assert!(f.owners(0).is_empty());
    let mut text = String::new();
    f.resolve("lit", &set(&[("FOG", "on")])).unwrap().write_text(&mut text);
    assert_eq!(
        text,
        "program \"lit\" (program 0), variation 5 of 6\n  \
         FOG=on (value 1, set; ID fog_mode)\n  \
         LIGHTS=4 (value 2, default; ID light_count)\n\
         VS: binary 16 at 0x13ed, data at 0x13fd, 0x140 bytes\n\
         PS: binary 17 at 0x153d, data at 0x154d, 0x140 bytes\n\
         GS: binary 18 at 0x168d, data at 0x169d, 0x140 bytes\n"
    );
}

#[test]
fn bad_names_say_what_exists() {
    let f = Sharcfb::parse(&archive(Endian::Little).write().unwrap()).unwrap();
    let e = f.resolve("unlit", &[]).unwrap_err();
    assert!(e.is_usage());
    assert_eq!(e.to_string(), "no program named \"unlit\" (programs: \"lit\")");
    let e = f.resolve("lit", &set(&[("SHADOW", "1")])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "program \"lit\" has no variation macro \"SHADOW\" (macros: \"FOG\", \"LIGHTS\")"
    );
    let e = f.resolve("lit", &set(&[("LIGHTS", "2")])).unwrap_err();
    assert_eq!(e.to_string(), "macro \"LIGHTS\" has no value \"2\" (values: \"0\", \"1\", \"4\")");
    // Names are matched exactly first, then without regard to case.
    assert_eq!(f.resolve("LIT", &[]).unwrap().program, "lit");
}

#[test]
fn broken_archives_are_not_usage_errors() {
    let mut a = archive(Endian::Big);
    a.binaries.items.truncate(10);
    a.binaries.items[3].kind = BinaryType(7);
    let f = Sharcfb::parse(&a.write().unwrap()).unwrap();
    let e = f.resolve("lit", &set(&[("FOG", "on")])).unwrap_err();
    assert!(!e.is_usage());
    // At the program's base index, where `validate` says the program needs more binaries.
    let base_at = f.programs.items[0].at + 12;
    assert_eq!(
        e.to_string(),
        format!(
            "invalid SHARCFB program \"lit\" at offset {base_at:#x}: variation 5 takes binary 16 as its VS, but the archive has 10 binaries"
        )
    );
    let offsets: Vec<u64> = f.validate().into_iter().map(|x| x.offset).collect();
    assert!(offsets.contains(&base_at), "{offsets:?}");
    let r = f.resolve("lit", &set(&[("LIGHTS", "0")])).unwrap();
    assert_eq!(
        (r.binaries[2].index, r.binaries[2].kind.as_str(), r.binaries[2].type_matches),
        (3, "type 7", false)
    );
    let findings: Vec<String> = f.validate().into_iter().map(|x| x.message).collect();
    assert_eq!(
        findings,
        [
            "binary 3 has unknown type 7",
            "invalid SHARCFB program \"lit\": 6 variations from base index 1 need 19 binaries, the archive has 10",
        ]
    );
    // A program that cannot be laid out over the binaries is damage, for every command: said
    // once, at its base index, in the words `validate` uses.
    // (Binary 0, 8 bytes of a pixel shader, is damage of its own.)
    let damage: Vec<String> = f.damage().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        damage,
        [
            "truncated pixel shader struct at offset 0x35 (need 232 bytes, have 8)".to_string(),
            format!(
                "invalid SHARCFB program \"lit\" at offset {base_at:#x}: 6 variations from base index 1 need 19 binaries, the archive has 10"
            )
        ]
    );
    // Macros whose value counts multiply past 64 bits: damage at the program's header.
    let mut a = archive(Endian::Big);
    for k in 0..9 {
        let values: Vec<String> = (0..256).map(|v| v.to_string()).collect();
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        a.programs.items[0].variations.items.push(Variation::new(
            &format!("M{k}"),
            &values,
            &format!("m{k}"),
        ));
    }
    let f = Sharcfb::parse(&a.write().unwrap()).unwrap();
    let at = f.programs.items[0].at;
    assert_eq!(
        f.damage().iter().skip(1).map(|e| e.to_string()).collect::<Vec<_>>(),
        [format!(
            "invalid SHARCFB program \"lit\" at offset {at:#x}: its variation macros make more variations than 64 bits count"
        )]
    );
}

#[test]
fn byte_order_conversion_swaps_words_but_not_strings_or_block_defaults() {
    let le = archive(Endian::Little);
    let be = le.to_endian(Endian::Big).unwrap();
    assert_eq!((be.endian, be.endian_field), (Endian::Big, 0));
    let bytes = be.write().unwrap();
    assert_eq!(&bytes[..8], b"SHAB\0\0\0\x08");
    let parsed = Sharcfb::parse(&bytes).unwrap();
    let p = &parsed.programs.items[0];
    // The uniform's default is a word: swapped; the block's bytes stay.
    assert_eq!(p.symbols[0].items[0].default, 1.0f32.to_bits().to_be_bytes());
    assert_eq!(p.symbols[1].items[0].default, [1, 2, 3, 4, 5]);
    // The struct's first word (the test's index) is a register word: swapped.
    assert_eq!(parsed.binaries.items[1].data[..4], 1u32.to_be_bytes());
    let indexes =
        |f: &Sharcfb| f.resolve("lit", &[]).unwrap().binaries.iter().map(|b| b.index).collect::<Vec<_>>();
    assert_eq!(indexes(&parsed), indexes(&le));
    let back = parsed.to_endian(Endian::Little).unwrap().write().unwrap();
    assert_eq!(back, le.write().unwrap());
    // An endian field that does not say the magic's byte order (the fuzzer's 0x101) is kept
    // as stored both ways, so the round trip gives the input back.
    let mut odd = archive(Endian::Little);
    odd.endian_field = 0x101;
    let there = odd.to_endian(Endian::Big).unwrap();
    assert_eq!(there.endian_field, 0x101);
    let again = Sharcfb::parse(&there.write().unwrap()).unwrap().to_endian(Endian::Little).unwrap();
    assert_eq!(again.write().unwrap(), odd.write().unwrap());
    // A little-endian file whose field says big (0) says little (1) once big, and 0 again
    // once back (the fuzzer found 0 coming back as 1).
    let mut odd = archive(Endian::Little);
    odd.endian_field = 0;
    let there = odd.to_endian(Endian::Big).unwrap();
    assert_eq!(there.endian_field, 1);
    let again = Sharcfb::parse(&there.write().unwrap()).unwrap().to_endian(Endian::Little).unwrap();
    assert_eq!((again.endian_field, again.write().unwrap()), (0, odd.write().unwrap()));
    // A binary of unknown type cannot be converted.
    let mut odd = archive(Endian::Little);
    odd.binaries.items[0].kind = BinaryType(9);
    assert_eq!(
        odd.to_endian(Endian::Big).unwrap_err().to_string(),
        "unsupported shader binary 0 type at offset 0x4: type 9: the layout of its data is unknown, so it cannot change byte order"
    );
}

#[test]
fn exact_errors_for_damaged_archives() {
    let bytes = archive(Endian::Big).write().unwrap();
    let e = |b: &[u8]| Sharcfb::parse(b).unwrap_err().to_string();
    assert_eq!(e(&bytes[..3]), "truncated SHARCFB header at offset 0x0 (need 24 bytes, have 3)");
    assert_eq!(
        e(b"SHAX\0\0\0\x08"),
        r#"bad SHARCFB header magic at offset 0x0: expected "SHAB", found "SHAX""#
    );
    assert_eq!(
        e(&bytes[..0x100]),
        format!("truncated SHARCFB file at offset 0x0 (need {} bytes, have 256)", bytes.len())
    );
    let mut v = bytes.clone();
    v[7] = 7;
    assert_eq!(e(&v), "unsupported SHARCFB version at offset 0x4: version 7 (8 and 9 are read)");
    // A binary whose size is smaller than its header.
    let mut v = bytes.clone();
    v[0x25..0x29].copy_from_slice(&4u32.to_be_bytes());
    assert_eq!(
        e(&v),
        "invalid shader binary 0 at offset 0x25: size 0x4 is smaller than its 0x10-byte header"
    );
    // A binary count that cannot fit.
    let mut v = bytes.clone();
    v[0x21..0x25].copy_from_slice(&0x1000_0000u32.to_be_bytes());
    assert!(
        e(&v).starts_with("invalid shader binary count at offset 0x21: impossible count 268435456"),
        "{}",
        e(&v)
    );
    // A data offset pointing back into the header.
    let mut v = bytes.clone();
    v[0x2d..0x31].copy_from_slice(&(-4i32).to_be_bytes());
    assert_eq!(
        e(&v),
        "invalid shader binary 0 data offset at offset 0x2d: -4 points back into the binary's header"
    );
}

#[test]
fn version_9_keeps_its_extra_section() {
    let mut a = archive(Endian::Little);
    a.version = 9;
    a.programs.items[0].extra = Some(vec![0; 4]);
    let bytes = a.write().unwrap();
    let f = Sharcfb::parse(&bytes).unwrap();
    assert_eq!(f.programs.items[0].extra.as_deref(), Some(&[0u8; 4][..]));
    assert_eq!(f.programs.items[0].symbols[1].items[0].name.text(), "Mat");
    assert_eq!(f.write().unwrap(), bytes);
    // Read as version 8 the same bytes take the extra section (size 8, no records) for the
    // uniform blocks: every array moves up one and the last is left in the program's tail.
    let mut v8 = bytes.clone();
    v8[4] = 8;
    let f8 = Sharcfb::parse(&v8).unwrap();
    let p8 = &f8.programs.items[0];
    assert!(p8.symbols[1].items.is_empty());
    assert_eq!(p8.symbols[2].items[0].name.text(), "Mat");
    assert!(!p8.tail.is_empty());
    assert_eq!(f8.write().unwrap(), v8);
    let text = f.info_text();
    assert!(text.contains("    version-9 section: 8 bytes\n"), "{text}");
    a.programs.items[0].extra = Some(vec![1; 4]);
    assert_eq!(
        a.to_endian(Endian::Big).unwrap_err().to_string(),
        "unsupported version-9 program section at offset 0x0: its layout is unknown, so it cannot change byte order"
    );
}

#[test]
fn dump_claims_every_byte_once_and_info_agrees_with_json() {
    let bytes = archive(Endian::Little).write().unwrap();
    let f = Sharcfb::parse(&bytes).unwrap();
    let mut a = Annotations::new();
    f.annotate(&mut a);
    let mut next = 0;
    a.rows(&bytes, 0..u64::MAX, |row| {
        match row {
            crate::dump::Row::Field { start, len, .. } => {
                assert_eq!(start, next, "{row:?}");
                next = start + len;
            }
            crate::dump::Row::Unclaimed { .. } => panic!("unclaimed {row:?}"),
            _ => {}
        }
        Ok::<(), ()>(())
    })
    .unwrap();
    assert_eq!(next, bytes.len() as u64);
    let json = f.info_json().to_value();
    assert_eq!(json["programs"][0]["macros"][1]["values"], serde_json::json!(["0", "1", "4"]));
    assert_eq!(json["programs"][0]["macros"][1]["default"], "4");
    assert_eq!(json["programs"][0]["symbols"]["uniform_vars"][0]["default_words"][0], 0x3f80_0000);
    assert_eq!(json["binaries"][0]["used_by"], serde_json::json!([]));
    let text = f.info_text();
    assert!(text.contains("    macro LIGHTS (ID light_count) at 0x"), "{text}");
    assert!(text.contains(": 0 | 1 | 4; default 4\n"), "{text}");
    assert!(text.contains("      cColor (ID color) at 0x"), "{text}");
    assert!(text.contains(", offset 0x10, default 0x3f800000, used by 4 of 6 variations\n"), "{text}");
}

#[test]
fn disasm_names_the_program_variation_of_each_binary() {
    let f = Sharcfb::parse(&archive(Endian::Big).write().unwrap()).unwrap();
    let mut out = crate::print::TextBuf::default();
    // Binary 0 is 8 bytes, no pixel shader struct: it is damage, and the others still list.
    let e = f.disasm(&DisasmOptions::default(), &mut out).unwrap_err();
    let why = "truncated pixel shader struct at offset 0x35 (need 232 bytes, have 8)";
    assert_eq!(e.to_string(), why);
    assert_eq!(f.damage(), [e]);
    let text = out.into_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "; binary 0: PS at 0x25, used by no program variation");
    assert_eq!(lines[1], format!("PS header unreadable: {why}"));
    assert_eq!(lines[3], "; binary 1: VS of program \"lit\" variation 0 (FOG=off LIGHTS=0)");
    assert_eq!(lines[4], "VS mode=0 ubs=0 uvs=0 ivs=0 loops=0 samplers=0 attribs=0 ring=0");
    assert_eq!(lines[5], "---- vertex: no program ----");
    assert!(text.contains("; binary 18: GS of program \"lit\" variation 5 (FOG=on LIGHTS=4)\n"));
    let d = f.disasm_json(&DisasmOptions::default()).unwrap();
    assert_eq!(d.programs.len(), 19);
    assert_eq!(
        d.programs[18].extra["used_by"][0]["settings"][1],
        serde_json::json!({"macro": "LIGHTS", "value": "4"})
    );
}

#[test]
fn record_headers_are_agl_sizes_and_read_back_as_stored() {
    use super::res::{ResArrayData, ResShaderSymbolData, ResShaderVariationData};
    use zerocopy::IntoBytes;
    assert_eq!(
        [
            size_of::<ResBinaryShaderArchiveData<Endian>>(),
            size_of::<ResShaderBinaryData<Endian>>(),
            size_of::<ResBinaryShaderProgramData<Endian>>(),
            size_of::<ResArrayData<Endian>>(),
            size_of::<ResShaderVariationData<Endian>>(),
            size_of::<ResShaderSymbolData<Endian>>(),
        ],
        [0x18, 0x10, 0x10, 8, 0x10, 0x18]
    );
    for endian in [Endian::Big, Endian::Little] {
        let bytes = archive(endian).write().unwrap();
        let f = Sharcfb::parse(&bytes).unwrap();
        let r = Reader::new(&bytes, endian);
        // Each header read in place holds the model's values, and its bytes are the file's.
        fn back<T: IntoBytes + zerocopy::Immutable>(bytes: &[u8], at: u64, t: &T) {
            assert_eq!(t.as_bytes(), &bytes[at as usize..][..size_of::<T>()]);
        }
        let h: &ResBinaryShaderArchiveData<Endian> = r.read_at(0, "header").unwrap();
        assert_eq!((h.version.get_in(endian), h.file_size.get_in(endian) as usize), (8, bytes.len()));
        assert_eq!(h.signature, if endian == Endian::Big { *b"SHAB" } else { *b"BAHS" });
        back(&bytes, 0, h);
        let a: &ResArrayData<Endian> = r.read_at(f.binaries.at as usize, "array").unwrap();
        assert_eq!(a.num.get_in(endian), 19);
        back(&bytes, f.binaries.at, a);
        for b in &f.binaries.items {
            let h: &ResShaderBinaryData<Endian> = r.read_at(b.at as usize, "binary").unwrap();
            assert_eq!(
                (h.shader_type.get_in(endian), h.data_size.get_in(endian) as usize),
                (b.kind.0, b.data.len())
            );
            assert_eq!(h.size.get_in(endian) as u64, b.size());
            back(&bytes, b.at, h);
        }
        let p = &f.programs.items[0];
        let h: &ResBinaryShaderProgramData<Endian> = r.read_at(p.at as usize, "program").unwrap();
        assert_eq!(
            (h.kind.get_in(endian), h.base_index.get_in(endian), h.size.get_in(endian) as u64),
            (7, 1, p.size())
        );
        back(&bytes, p.at, h);
        let v = &p.variations.items[1];
        let h: &ResShaderVariationData<Endian> = r.read_at(v.at as usize, "variation").unwrap();
        assert_eq!((h.value_num.get_in(endian), h.name_len.get_in(endian)), (3, 7));
        back(&bytes, v.at, h);
        let s = &p.symbols[0].items[0];
        let h: &ResShaderSymbolData<Endian> = r.read_at(s.at as usize, "symbol").unwrap();
        assert_eq!((h.offset.get_in(endian), h.variation_num.get_in(endian)), (0x10, 6));
        back(&bytes, s.at, h);
    }
}
