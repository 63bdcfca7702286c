//! Unit tests that take the printer and the assembler together: text → tokens → text.

use super::asm::{parse_declaration, parse_line};
use super::opcodes::{self, Format};
use super::print::write_listing_general;
use super::{ListingStyle, Program, check, records, write_listing};
use crate::print::TextBuf;

/// The bytes of a program of version token `version` (`0x50`: `ps_5_0`) with `body`.
fn program(version: u32, body: &[u32]) -> Vec<u8> {
    [version, body.len() as u32 + 2]
        .into_iter()
        .chain(body.iter().copied())
        .flat_map(u32::to_le_bytes)
        .collect()
}

/// The listing of [`program`]`(version, body)` in `style`, by the printer with and without its
/// specialisations (they must agree).
fn listing(version: u32, body: &[u32], style: ListingStyle) -> String {
    let bytes = program(version, body);
    let program = Program::parse(&bytes, 0).unwrap();
    let mut text = TextBuf::default();
    let report = write_listing(&program, &style, &mut text).unwrap();
    assert!(report.unknown_opcodes.is_empty());
    let mut general = TextBuf::default();
    write_listing_general(&program, &style, &mut general).unwrap();
    assert_eq!(text.as_str(), general.as_str());
    text.into_string()
}

/// One example of every declaration, as fxc 10 prints it (SM5.0, then SM5.1 where the
/// layout has a register space), read by the assembler and printed again from the tokens
/// by walking the same row; every declaration row of the table has one.
const DECLARATIONS: &[(u32, &str)] = &[
    (0x50, "dcl_resource_texture2dms(4) (float,float,float,float) t0"),
    (0x51, "dcl_resource_texture2darray (uint,sint,unorm,snorm) T0[0:3], space=1"),
    (0x40, "dcl_constantbuffer CB0[4], immediateIndexed"),
    (0x51, "dcl_constantbuffer CB1[1:1][16], dynamicIndexed, space=0"),
    (0x50, "dcl_sampler s0, mode_comparison"),
    (0x51, "dcl_sampler S0[0:0], mode_default, space=3"),
    (0x50, "dcl_indexrange o1.xyzw 3"),
    (0x20050, "dcl_outputtopology trianglestrip "),
    (0x20050, "dcl_inputprimitive triangle "),
    (0x20050, "dcl_maxout 3"),
    (0x10050, "dcl_input v0.xy"),
    (0x10050, "dcl_input_sgv v1.x, vertex_id"),
    (0x20050, "dcl_input_siv v[3][0].xyzw, position"),
    (0x50, "dcl_input_ps linear centroid v1.xy"),
    (0x50, "dcl_input_ps_sgv constant v2.x, primitive_id"),
    (0x50, "dcl_input_ps_siv linear noperspective v0.xyzw, position"),
    (0x50, "dcl_output o0.xyzw"),
    (0x20050, "dcl_output_sgv o1.x, primitive_id"),
    (0x10050, "dcl_output_siv o0.xyzw, position"),
    (0x50, "dcl_temps 4"),
    (0x50, "dcl_indexableTemp x0[4], 4"),
    (0x50, "dcl_globalFlags refactoringAllowed | enableRawAndStructuredBuffers"),
    (0x20050, "dcl_stream m0"),
    (0x50, "dcl_function_body fb0"),
    (0x50, "dcl_function_table ft0 = {fb0, fb1}"),
    (0x50, "dcl_interface_dynamicindexed fp0[2][1] = {ft0, ft1}"),
    (0x30050, "dcl_input_control_point_count 3"),
    (0x30050, "dcl_output_control_point_count 4"),
    (0x30050, "dcl_tessellator_domain domain_tri"),
    (0x30050, "dcl_tessellator_partitioning partitioning_fractional_odd"),
    (0x30050, "dcl_tessellator_output_primitive output_triangle_cw"),
    (0x30050, "dcl_hs_max_tessfactor l(64.000000)"),
    (0x30050, "dcl_hs_fork_phase_instance_count 3"),
    (0x30050, "dcl_hs_join_phase_instance_count 2"),
    (0x50050, "dcl_thread_group 8, 4, 1"),
    (0x50050, "dcl_uav_typed_texture2d_glc (float,float,float,float) u0"),
    (0x50051, "dcl_uav_typed_buffer_rov (uint,uint,uint,uint) U0[0:*], space=2"),
    (0x50050, "dcl_uav_raw_glc u1"),
    (0x50051, "dcl_uav_raw U1[1:1], space=0"),
    (0x50050, "dcl_uav_structured_glc_opc u2, 16"),
    (0x50051, "dcl_uav_structured U2[2:2], 4, space=0"),
    (0x50050, "dcl_tgsm_raw g0, 1024"),
    (0x50050, "dcl_tgsm_structured g1, 4, 64"),
    (0x50050, "dcl_resource_raw t1"),
    (0x50051, "dcl_resource_raw T1[1:1], space=0"),
    (0x50050, "dcl_resource_structured t2, 16"),
    (0x50051, "dcl_resource_structured T2[2:2], 16, space=0"),
    (0x20050, "dcl_gsinstances 4"),
];

/// fxc 9.x ends `dcl_resource_structured` with a blank, fxc 10 does not (the row above);
/// the assembler reads either.
#[test]
fn a_structured_resource_ends_in_a_blank_before_fxc_10() {
    let inst = parse_declaration("dcl_resource_structured t2, 16 ", false).unwrap();
    let mut body = Vec::new();
    inst.encode(&mut body).unwrap();
    let text = listing(0x50050, &body, ListingStyle::FXC_9_30);
    assert_eq!(text.lines().nth(1), Some("dcl_resource_structured t2, 16 "));
    assert_eq!(parse_declaration("dcl_resource_structured t2, 16", false).unwrap(), inst);
}

#[test]
fn every_declaration_prints_and_reads_back_by_its_row() {
    let mut seen = Vec::new();
    for &(version, line) in DECLARATIONS {
        let sm51 = version & 0xff == 0x51;
        let inst = parse_declaration(line, sm51).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        seen.push(inst.opcode);
        let mut body = Vec::new();
        inst.encode(&mut body).unwrap();
        let text = listing(version, &body, ListingStyle::FXC_10);
        assert_eq!(text.lines().nth(1), Some(line), "{body:08x?}");
        // The record of the line has its words and its mnemonic.
        let bytes = program(version, &body);
        let record = &records(&Program::parse(&bytes, 0).unwrap(), &ListingStyle::FXC_10).unwrap()[0];
        assert_eq!(record.words, body);
        assert_eq!(Some(record.mnemonic.as_str()), line.split(' ').next());
    }
    for row in opcodes::all().iter().filter(|r| matches!(r.format, Format::Decl(_))) {
        assert!(seen.contains(&row.opcode), "no example of {}", row.name);
    }
}

/// The tokens of the declarations whose text and tokens are in different orders.
#[test]
fn declarations_put_each_dword_where_the_format_has_it() {
    let tokens = |line: &str, sm51: bool| {
        let mut words = Vec::new();
        parse_declaration(line, sm51).unwrap().encode(&mut words).unwrap();
        words
    };
    // The return types follow the register; the sample count is in bits 16–22.
    assert_eq!(
        tokens("dcl_resource_texture2dms(4) (float,float,float,float) t0", false),
        [0x0400_0000 | 0x58 | (4 << 11) | (4 << 16), 0x0010_7000, 0, 0x5555]
    );
    // SM5.1: the size after the range, then the space.
    assert_eq!(
        tokens("dcl_constantbuffer CB1[1:1][16], dynamicIndexed, space=2", true),
        [0x0700_0059 | (1 << 11), 0x0030_8e46, 1, 1, 1, 16, 2]
    );
    // The number of tables and the array length share the third DWORD.
    assert_eq!(
        tokens("dcl_interface fp3[2][1] = {ft0, ft4}", false),
        [0x0600_0092, 3, 1, (2 << 16) | 2, 0, 4]
    );
    // fxc 9 prints no interpolation on a system-generated value: it is `constant`.
    assert_eq!(tokens("dcl_input_ps_sgv v2.x, primitive_id", false)[0] >> 11 & 0xf, 1);
}

/// `sampleinfo`'s bits 11–12 are `D3D10_SB_INSTRUCTION_RETURN_TYPE` (1 is `_uint`), not
/// `resinfo`'s enum (1 is `_rcpFloat`); a typed UAV store's literal address is listed
/// untyped (`l(1,1,1,1)`), as fxc lists both (ANGLE's `resolvecolor2dps`,
/// D3D12TranslationLayer's `DrawAutoCS`). The assembler reads the text back to the same
/// tokens.
#[test]
fn sampleinfo_uint_and_a_typed_store_address_as_fxc_lists_them() {
    let lines = [
        "ps_5_0",
        "sampleinfo_uint r0.z, t0.x",
        "resinfo_rcpFloat r0.xy, l(0), t0.xyzw",
        "resinfo_uint r0.xy, l(0), t0.xyzw",
        "store_uav_typed u0.xyzw, l(1,1,1,1), r0.xxxx",
        "ret ",
    ];
    let mut body = Vec::new();
    for line in &lines[1..] {
        parse_line(line, false).unwrap().encode(&mut body).unwrap();
    }
    // sampleinfo (opcode 111) with return type 1.
    assert_eq!((body[0] & 0x7ff, body[0] >> 11 & 3), (111, 1));
    assert_eq!(listing(0x0000_0050, &body, ListingStyle::FXC_10), lines.join("\n") + "\n");
}

/// The assembler tries the system values below `SYSTEM_VALUES` only: no other has a name.
#[test]
fn only_the_system_values_below_the_bound_have_names() {
    use super::names::{SYSTEM_VALUES, system_value};
    assert!(system_value(SYSTEM_VALUES - 1).is_some());
    assert!((SYSTEM_VALUES..=0xffff).all(|v| system_value(v).is_none()));
}

/// The listing of `bytes` in fxc 10's style: its text, and the error it stops at.
fn listing_and_error(bytes: &[u8]) -> (String, Option<crate::Error>) {
    let program = Program::parse(bytes, 0).unwrap();
    let mut text = TextBuf::default();
    let error = write_listing(&program, &ListingStyle::FXC_10, &mut text).err();
    (text.into_string(), error)
}

/// Every declaration cut short, DWORD by DWORD (its length token says so): [`check`], which
/// decodes without printing, stops at the error the listing stops at, and every cut is one.
#[test]
fn every_declaration_cut_short_stops_check_where_the_listing_stops() {
    use super::decode::field::TOKENIZED_INSTRUCTION_LENGTH;
    let mut cuts = 0;
    for &(version, line) in DECLARATIONS {
        let inst = parse_declaration(line, version & 0xff == 0x51).unwrap();
        let mut body = Vec::new();
        inst.encode(&mut body).unwrap();
        let Some(&tok0) = body.first() else { continue };
        // The long forms carry their length in the second DWORD: cut the short ones.
        if TOKENIZED_INSTRUCTION_LENGTH.get(tok0) as usize != body.len() {
            continue;
        }
        for cut in 1..body.len() {
            let mut words = body[..cut].to_vec();
            words[0] = TOKENIZED_INSTRUCTION_LENGTH.put(cut as u32)
                | (tok0 & !TOKENIZED_INSTRUCTION_LENGTH.put(0x7f));
            let bytes = program(version, &words);
            let (_, listed) = listing_and_error(&bytes);
            let checked = check(&Program::parse(&bytes, 0).unwrap()).err();
            assert!(listed.is_some(), "{line} cut to {cut} DWORDs lists whole");
            assert_eq!(checked, listed, "{line} cut to {cut} DWORDs");
            cuts += 1;
        }
    }
    assert!(cuts > 60, "{cuts}");
}

/// The errors of damaged parts, each where it is: `check` gives what the listing gives, and
/// the listing keeps the line up to the damaged part.
#[test]
fn damaged_parts_give_the_listings_error_without_printing() {
    let cases: &[(&[u32], &str, &str)] = &[
        // dcl_function_table ft0 = {…} of 3 entries with 1: the second is missing (offset 24).
        (
            &[0x0400_0091, 0, 3, 7],
            "truncated function table entry at offset 0x18 (need 4 bytes, have 0)",
            "dcl_function_table ft0 = {fb7, ",
        ),
        // mov r0.x, r1[<operand with selection mode 3> + 1].x: the nested operand, at 28.
        (
            &[0x0600_0036, 0x0010_0012, 0, 0x00d0_000a, 1, 0x0000_000e],
            "invalid SM4 operand at offset 0x1c: component selection mode 3 is undefined",
            "mov r0.x, ",
        ),
    ];
    for &(body, error, line) in cases {
        let bytes = program(0x50, body);
        let (text, listed) = listing_and_error(&bytes);
        let checked = check(&Program::parse(&bytes, 0).unwrap()).err();
        assert_eq!(checked, listed);
        assert_eq!(checked.map(|e| e.to_string()).as_deref(), Some(error));
        assert_eq!(text.lines().nth(1).unwrap_or(""), line, "{text}");
    }
}
