//! Tests of the effect reader and writer, on the writer's examples and on hand-made edge cases.

use super::build::{self, example, example_fx_4_0};
use super::*;
use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::print::TextBuf;

fn listing(fx: &Fx11<'_>) -> String {
    let mut t = TextBuf::default();
    fx.disasm(&DisasmOptions::default(), &mut t).unwrap();
    t.into_string()
}

fn dump(bytes: &[u8]) -> String {
    let mut a = Annotations::new();
    crate::annotate(bytes, &mut a).unwrap();
    let mut text = String::new();
    a.render(bytes, &mut text).unwrap();
    text
}

fn put(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn the_examples_read_and_write_back() {
    for (bytes, profile, container) in [(example(), "fx_5_0", false), (example_fx_4_0(), "fx_4_0", true)] {
        let fx = Fx11::parse(&bytes).unwrap();
        assert_eq!((fx.profile(), fx.container.is_some()), (profile, container));
        assert_eq!(fx.write().unwrap(), bytes);
        assert_eq!(fx.cbuffers.len(), 1);
        assert_eq!(fx.text(fx.cbuffers[0].name), "$Globals");
        assert_eq!(fx.text(fx.cbuffers[0].variables[0].name), "tint");
        assert_eq!(fx.groups.len(), 1);
        let pass = &fx.groups[0].techniques[0].passes[0];
        assert_eq!((fx.text(pass.name).as_str(), pass.assignments.len()), ("P0", 2));
        assert_eq!(fx.shaders.len(), 2);
        assert!(fx.validate().is_empty(), "{:?}", fx.validate());
        assert!(fx.damage().is_empty());
        // The parts are the two shaders as whole DXBC files (and the blob, for fx_4_0).
        let parts = fx.parts();
        let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
        let expect: &[&str] =
            if container { &["shader0", "shader1", "effect"] } else { &["shader0", "shader1"] };
        assert_eq!(names, expect);
        for p in &parts[..2] {
            assert_eq!(crate::detect(&p.bytes), Some(Format::Dxbc));
            assert_eq!(&bytes[p.offset as usize..][..p.bytes.len()], &p.bytes[..]);
        }
        assert_eq!(fx.embedded().len(), 2);
    }
}

#[test]
fn detection_and_the_facade() {
    let bytes = example();
    assert_eq!(crate::detect(&bytes), Some(Format::Fx11));
    let file = crate::parse(&bytes).unwrap();
    assert!(matches!(file, crate::File::Fx11(_)));
    assert_eq!(file.format(), Format::Fx11);
    let four = example_fx_4_0();
    assert_eq!(crate::detect(&four), Some(Format::Fx11));
    assert_eq!(crate::parse(&four).unwrap().write().unwrap(), four);
}

#[test]
fn an_edited_model_writes_what_it_holds() {
    let bytes = example();
    let mut fx = Fx11::parse(&bytes).unwrap();
    // Drop the pixel shader's assignment: the pass count and the file shrink by one record.
    fx.groups[0].techniques[0].passes[0].assignments.pop();
    let out = fx.write().unwrap();
    assert_eq!(out.len(), bytes.len() - 16);
    let again = Fx11::parse(&out).unwrap();
    assert_eq!(again.groups[0].techniques[0].passes[0].assignments.len(), 1);
    assert_eq!(again.shaders.len(), 1);
    // The fx_4_0 container is written around the new blob, its checksum computed again.
    let four = example_fx_4_0();
    let mut fx = Fx11::parse(&four).unwrap();
    fx.cbuffers[0].variables[0].offset = 0;
    fx.cbuffers[0].size = 32;
    let out = fx.write().unwrap();
    let d = crate::format::dxbc::Dxbc::parse(&out).unwrap();
    assert!(d.checksum_ok());
    assert_eq!(Fx11::parse(&out).unwrap().cbuffers[0].size, 32);
}

#[test]
fn every_byte_is_annotated() {
    for bytes in [example(), example_fx_4_0()] {
        let text = dump(&bytes);
        assert!(!text.contains("(unclaimed)"), "{text}");
        assert!(!text.contains("no record points to"), "{text}");
        assert!(text.contains("| shader0 size: "), "{text}");
        // The embedded shaders are annotated by the DXBC annotator, at their place.
        assert!(text.contains("magic \"DXBC\""), "{text}");
    }
}

#[test]
fn a_bare_blob_and_edge_cases_round_trip() {
    // fx_4_0 without its container (as vkd3d's parser takes it): read and written as it is.
    let four = example_fx_4_0();
    let fx = Fx11::parse(&four).unwrap();
    let blob = fx.blob().to_vec();
    let bare = Fx11::parse(&blob).unwrap();
    assert_eq!((bare.profile(), bare.container.is_some()), ("fx_4_0", false));
    assert_eq!(bare.write().unwrap(), blob);
    // Bytes after the structured block are kept.
    let mut tail = example();
    tail.extend_from_slice(&[0xaa, 0xbb, 0xcc]);
    let fx = Fx11::parse(&tail).unwrap();
    assert_eq!(fx.trailing, &[0xaa, 0xbb, 0xcc]);
    assert_eq!(fx.write().unwrap(), tail);
    // An effect with nothing in it: a header and the empty-string word.
    let mut empty = vec![0u8; 96 + 4];
    put(&mut empty, 0, TAG_FX_5_0);
    put(&mut empty, 32, 4);
    let fx = Fx11::parse(&empty).unwrap();
    assert_eq!(fx.write().unwrap(), empty);
    assert_eq!(listing(&fx), "//\n// FX Version: fx_5_0\n");
}

#[test]
fn damaged_files_say_where_and_why() {
    let bytes = example();
    // Cut inside the header.
    assert_eq!(
        Fx11::parse(&bytes[..50]).unwrap_err().to_string(),
        "truncated effect header at offset 0x0 (need 96 bytes, have 50)"
    );
    // An unstructured block larger than the file.
    let mut big = bytes.clone();
    put(&mut big, 32, 0x10000);
    assert_eq!(
        Fx11::parse(&big).unwrap_err().to_string(),
        format!(
            "unstructured block at offset 0x20 points outside its range (0x60 + 0x10000 is outside 0x{:x})",
            bytes.len()
        )
    );
    let fx = Fx11::parse(&bytes).unwrap();
    let pass = &fx.groups[0].techniques[0].passes[0];
    // The vertex shader's inline initializer points past the unstructured block.
    let at = pass.assignments[0].at as usize + 12;
    let mut off = bytes.clone();
    put(&mut off, at, 0x4000);
    let end = fx.unstructured_at() + fx.unstructured.len() as u64;
    assert_eq!(
        Fx11::parse(&off).unwrap_err().to_string(),
        format!(
            "inline shader at offset 0x{at:x} points outside its range (0x{:x} + 0x4 is outside 0x{end:x})",
            0x60 + 0x4000
        )
    );
    // The first shader block's size reaches past the end of the unstructured block.
    let s = &fx.shaders[0];
    let mut size = bytes.clone();
    put(&mut size, s.at as usize, 0x7fff_0000);
    assert_eq!(
        Fx11::parse(&size).unwrap_err().to_string(),
        format!(
            "shader block at offset 0x{:x} points outside its range (0x{:x} + 0x7fff0000 is outside 0x{end:x})",
            s.at,
            s.at + 4
        )
    );
    // A structured block cut short: the record that does not fit.
    let cut = &bytes[..bytes.len() - 6];
    assert_eq!(
        Fx11::parse(cut).unwrap_err().to_string(),
        format!("truncated assignment at offset 0x{:x} (need 16 bytes, have 10)", bytes.len() - 16)
    );
    // `dump` of a damaged file still annotates the header and reports the failure.
    let mut a = Annotations::new();
    assert_eq!(crate::annotate(&bytes[..50], &mut a).unwrap(), Format::Fx11);
    let mut text = String::new();
    a.render(&bytes[..50], &mut text).unwrap();
    assert!(text.contains("| constant buffers (cCBs)"), "{text}");
    assert_eq!(a.errors().count(), 1);
}

#[test]
fn validate_reports_unknown_states_and_names_outside_the_block() {
    let bytes = example();
    let fx = Fx11::parse(&bytes).unwrap();
    let a = &fx.groups[0].techniques[0].passes[0].assignments[1];
    let mut bad = bytes.clone();
    put(&mut bad, a.at as usize, 99);
    let c = &fx.cbuffers[0];
    put(&mut bad, c.at as usize, 0x9999);
    let findings = Fx11::parse(&bad).unwrap().validate();
    let texts: Vec<String> = findings.iter().map(|f| format!("0x{:x}: {}", f.offset, f.message)).collect();
    let end = fx.unstructured_at() + fx.unstructured.len() as u64;
    assert_eq!(
        texts,
        [
            format!("0x{:x}: assignment state 99 is not a known state (0–58)", a.at),
            format!(
                "0x{:x}: name points outside its range (0x{:x} + 0x1 is outside 0x{end:x})",
                c.at,
                0x60 + 0x9999
            ),
        ]
    );
}

#[test]
fn info_and_listing_of_the_sample() {
    let bytes = example();
    let fx = Fx11::parse(&bytes).unwrap();
    let info = fx.info_text();
    let text = listing(&fx);
    assert_eq!(info, SAMPLE_INFO);
    assert_eq!(text, SAMPLE_LISTING);
    let json = fx.info_json().to_value();
    assert_eq!(json["profile"], "fx_5_0");
    let d = fx.disasm_json(&DisasmOptions::default()).unwrap();
    let names: Vec<&str> = d.programs.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].starts_with("shader0: "), "{names:?}");
    // Each program's offset is where its chunk is in the effect, inside its shader block.
    for (p, s) in d.programs.iter().zip(&fx.shaders) {
        assert!((s.data_offset()..s.data_offset() + s.bytes.len() as u64).contains(&p.offset), "{p:?}");
    }
}

/// `info` of the sample (`samples/effect11.fxo`).
const SAMPLE_INFO: &str = r#"format: Direct3D 10/11 effect (fx_4_0, fx_4_1, fx_5_0)
profile: fx_5_0
size: 824 bytes
header: constant buffers (cCBs) 1, numeric variables (cNumericVariables) 1, techniques (cTechniques) 1, unstructured size (cbUnstructured) 608, shaders (cTotalShaders) 2, inline shaders (cInlineShaders) 2, groups (cGroups) 1
constant buffers:
  cbuffer $Globals at 0x2c0: 16 bytes
    float4 tint at 0x2d8: offset 0, 16 bytes, default value
group (unnamed) at 0x2f4
  technique Render at 0x300
    pass P0 at 0x30c
      VertexShader = shader0 (vs_5_0)
      PixelShader = shader1 (ps_5_0)
shaders:
  shader0: vs_5_0, 220 bytes at 0xb8
  shader1: ps_5_0, 224 bytes at 0x198
"#;

/// The listing of the sample, as fxc lays out an effect's.
const SAMPLE_LISTING: &str = r#"//
// FX Version: fx_5_0
//
// 1 local buffer(s)
//
cbuffer $Globals
{
    float4  tint = { 1, 0.5, 0.25, 1 }; // Offset:    0, size:   16
}

//
// 1 groups(s)
//
fxgroup
{
    //
    // 1 technique(s)
    //
    technique11 Render
    {
        pass P0
        {
            VertexShader = asm {
                //
                // Generated by Microsoft (R) D3D Shader Disassembler
                //
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
                // SV_POSITION              0   xyzw        0      POS   float   xyzw
                //
                vs_5_0
                dcl_globalFlags refactoringAllowed
                dcl_input v0.xyzw
                dcl_output_siv o0.xyzw, position
                mov o0.xyzw, v0.xyzw
                ret 
                // Approximately 0 instruction slots used
                            
            };
            PixelShader = asm {
                //
                // Generated by Microsoft (R) D3D Shader Disassembler
                //
                //
                // Input signature:
                //
                // Name                 Index   Mask Register SysValue  Format   Used
                // -------------------- ----- ------ -------- -------- ------- ------
                // SV_POSITION              0   xyzw        0      POS   float       
                //
                //
                // Output signature:
                //
                // Name                 Index   Mask Register SysValue  Format   Used
                // -------------------- ----- ------ -------- -------- ------- ------
                // SV_TARGET                0   xyzw        0   TARGET   float   xyzw
                //
                ps_5_0
                dcl_globalFlags refactoringAllowed
                dcl_constantbuffer CB0[1], immediateIndexed
                dcl_output o0.xyzw
                mov o0.xyzw, cb0[0].xyzw
                ret 
                // Approximately 0 instruction slots used
                            
            };
        }

    }

}

"#;

/// A pass state set by FX 4 code lists as fxc lists one: `eval(` and the first instruction
/// after the state's name, the others 16 columns further in than the state, `)` and `;`
/// after the last; `info` keeps it on one line.
#[test]
fn expressions_list_as_fxc_lists_them() {
    let bytes = build::expression_example();
    let fx = Fx11::parse(&bytes).unwrap();
    assert_eq!(fx.write().unwrap(), bytes);
    let text = listing(&fx);
    assert!(
        text.contains("        DepthFunc = eval(imul r0.x, c0.x, (3)\n                        iadd expr.x, r0.x, c0.y);\n"),
        "{text}"
    );
    assert!(
        fx.info_text().contains("DepthFunc = eval(imul r0.x, c0.x, (3); iadd expr.x, r0.x, c0.y)\n"),
        "{}",
        fx.info_text()
    );
}

/// Default values as fxc prints them: floats as `%.9g` with three-digit exponents
/// (GPUBoids' `g_fG = 6.67300035e-011`), a struct's as its packed words in hexadecimal
/// (Instancing's `light_struct g_lights[4] = { 0x3f1eca58, … }`).
#[test]
fn default_values_print_as_fxc_prints_them() {
    let mut spec = build::example_spec(false);
    spec.default = [6.673e-11, 1.0, 0.5, -0.0];
    let bytes = build::effect(&spec);
    let text = listing(&Fx11::parse(&bytes).unwrap());
    assert!(
        text.contains("    float4  tint = { 6.67300035e-011, 1, 0.5, -0 };// Offset:    0, size:   16\n"),
        "{text}"
    );
    // The same variable with its type made a struct of no members: class 3, member count 0
    // (the type record: name, class, elements, sizes 16, 16, 16, then the count).
    let record: Vec<u8> = [1u32, 0, 16, 16, 16].iter().flat_map(|w| w.to_le_bytes()).collect();
    let at = bytes.windows(record.len()).position(|w| w == record).unwrap();
    let mut patched = bytes.clone();
    patched[at..at + 4].copy_from_slice(&3u32.to_le_bytes());
    patched[at + 20..at + 24].copy_from_slice(&0u32.to_le_bytes());
    let text = listing(&Fx11::parse(&patched).unwrap());
    let words = format!("0x{:08x}, 0x3f800000, 0x3f000000, 0x80000000", 6.673e-11f32.to_bits());
    assert!(text.contains(&format!("    float4  tint = {{ {words} }};// Offset:")), "{text}");
}
