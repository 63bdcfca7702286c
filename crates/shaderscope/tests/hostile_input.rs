//! Hostile input, round two (issue 22), through the library: counts read from a file never
//! overflow arithmetic (an exact finding instead), text of any nesting never recurses without
//! a bound (an error at its line and column), and every command's work grows near-linearly
//! with the tables of a file. Every input is built here (`hostile/`).

mod hostile;

use shaderscope::dump::Annotations;
use shaderscope::isa::{d3d9, sm4};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions, Severity};
use std::time::Instant;

// ------------------------------------------------------------------ arithmetic

/// The fuzzer's input (fuzz/regressions/mbs/): a GP uniform claiming 65 535 components at
/// slot 3. `lane + component_count` overflowed u16 (a panic with overflow checks, a missed
/// finding without); widened, it is the vec4-boundary error at the symbol's offset field.
#[test]
fn a_uniform_of_65535_components_is_the_vec4_finding_at_its_offset() {
    let data = hostile::mbs_uniform(b"a", 0xffff, 3);
    let regression = include_bytes!("../../../fuzz/regressions/mbs/uniform-65535-components.mbs");
    assert_eq!(data, regression, "the generator makes the fuzzer's input");
    let file = shaderscope::parse(&data).unwrap();
    let errors: Vec<_> = file
        .validate()
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| (f.offset, f.message))
        .collect();
    assert!(
        errors.contains(&(
            0x48,
            "MBS1/CVER/SUNI symbol 0 (a): 65535 components from offset 3 cross a vec4 boundary".to_string()
        )),
        "{errors:?}"
    );
    // Four components from slot 0 fit.
    let four = hostile::mbs_uniform(b"a", 4, 0);
    let fits = shaderscope::parse(&four).unwrap();
    assert!(!fits.validate().iter().any(|f| f.message.contains("vec4 boundary")));
}

// ------------------------------------------------------------------ nesting

/// Column (1-based) of the first character of the fifth nested register of `nested_sm4`:
/// what the relative index past the decoder's four levels starts with.
fn fifth_level(open: &str) -> usize {
    "mov r0.x, ".len() + 5 * open.len() + 1
}

#[test]
fn sm4_operands_nested_100000_deep_are_an_error_at_their_column() {
    for open in ["x0[", "cb0["] {
        let text = hostile::nested_sm4(open, 100_000);
        let e = sm4::asm::parse_program(&text).unwrap_err();
        let want = format!(
            "line 2, column {}: expected an immediate index: relative indices nest at most 4 levels deep \
             (fxc writes one)",
            fifth_level(open)
        );
        assert_eq!(e.to_string(), want);
        // The container's assembler (what `asm` runs) says the same.
        let e = shaderscope::asm::assemble(&text, None).unwrap_err();
        assert!(e.to_string().contains(&want), "{e}");
        // Four levels are what the decoder reads: they assemble and list back.
        let four = hostile::nested_sm4(open, 4);
        sm4::asm::parse_program(&four).unwrap();
    }
}

#[test]
fn d3d9_addresses_nested_100000_deep_are_an_error_at_their_column() {
    let text = hostile::nested_d3d9(100_000);
    let e = d3d9::asm::parse_program(&text).unwrap_err();
    let want = "line 2, column 14: expected `]` (a relative address does not nest: its register has none)";
    assert_eq!(e.to_string(), want);
    let e = shaderscope::asm::assemble(&text, None).unwrap_err();
    assert!(e.to_string().contains(want), "{e}");
    // One level is the format's.
    let one = hostile::nested_d3d9(1).replace("c0[a0.x]", "c0[a0.x + 1]");
    d3d9::asm::parse_program(&one).unwrap();
}

// ------------------------------------------------------------------ linear time

/// What every command does with a file: parse, list, describe, dump, check, list its parts
/// and take the last one by name.
fn every_command(data: &[u8]) {
    let file = shaderscope::parse(data).unwrap();
    let mut text = TextBuf::default();
    let _ = file.disasm(&DisasmOptions::default(), &mut text);
    let _ = file.disasm_json(&DisasmOptions::default());
    let _ = file.info_text();
    let _ = file.info_json();
    let mut a = Annotations::new();
    file.annotate(&mut a);
    let mut dump = String::new();
    a.render(data, &mut dump).unwrap();
    let _ = file.validate();
    let parts = file.parts();
    if let Some(last) = parts.last() {
        assert!(file.part(&last.name).is_ok());
    }
}

/// The part list and a lookup by name (`extract FILE`, `extract FILE NAME`) alone: the work
/// the per-part walks of the whole table made quadratic, timed without the rest diluting it.
fn part_list(data: &[u8]) {
    let file = shaderscope::parse(data).unwrap();
    let parts = file.parts();
    if let Some(last) = parts.last() {
        assert!(file.part(&last.name).is_ok());
    }
}

/// Seconds `work` takes on `data`: the least of three runs (the machine is shared).
fn seconds(data: &[u8], work: &dyn Fn(&[u8])) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            work(data);
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The work on an input whose table is 4 times larger takes less than 8 times as long
/// (linear work: 4 times; the quadratic lookups this replaces: 16 times).
fn assert_near_linear(what: &str, build: fn(usize) -> Vec<u8>, n: usize, work: &dyn Fn(&[u8])) {
    let (small, large) = (build(n), build(4 * n));
    work(&small); // warm up
    let (a, b) = (seconds(&small, work), seconds(&large, work));
    println!("{what}: {n} → {:.3} s, {} → {:.3} s ({:.1}×)", a, 4 * n, b, b / a);
    assert!(b < 8.0 * a.max(1e-3), "{what}: {:.3} s for {n}, {:.3} s for {} ({:.1}×)", a, b, 4 * n, b / a);
}

#[test]
fn every_command_is_near_linear_in_a_dxbc_chunk_table() {
    assert_near_linear("DXBC part list", hostile::many_chunks, 8_000, &part_list);
    assert_near_linear("DXBC chunks", hostile::many_chunks, 8_000, &every_command);
}

#[test]
fn every_command_is_near_linear_in_sharc_sources() {
    assert_near_linear("SHARC part list", hostile::many_sources, 8_000, &part_list);
    assert_near_linear("SHARC sources", hostile::many_sources, 8_000, &every_command);
}

#[test]
fn every_command_and_program_lookup_is_near_linear_in_sharcfb_programs() {
    use shaderscope::format::sharcfb::Sharcfb;
    let work = |data: &[u8]| {
        every_command(data);
        // `extract`'s part list and `variant` of the last program.
        let a = Sharcfb::parse(data).unwrap();
        let sizes = a.default_gsh_sizes();
        assert!(sizes.iter().all(Option::is_some));
        let last = a.programs.items.len() - 1;
        assert!(a.resolve_index(last, &[]).is_ok());
    };
    assert_near_linear("SHARCFB programs", hostile::many_programs, 1_500, &work);
}

#[test]
fn every_command_is_near_linear_in_a_dvlb_table() {
    assert_near_linear("DVLB entries", |n| hostile::repeated_dvle(n as u32), 20_000, &every_command);
}

/// The size `extract` lists for a program's variation is the size of the file it writes.
#[test]
fn listed_gsh_sizes_are_the_written_files_sizes() {
    use shaderscope::format::sharcfb::Sharcfb;
    let data = hostile::many_programs(3);
    let a = Sharcfb::parse(&data).unwrap();
    let sizes = a.default_gsh_sizes();
    for (p, size) in a.programs.items.iter().zip(&sizes) {
        let (_, bytes) = a.gsh(&p.name.text(), &[]).unwrap();
        assert_eq!(*size, Some(bytes.len() as u64));
    }
}

#[test]
fn every_command_is_near_linear_in_mbs_symbols() {
    assert_near_linear("MBS uniforms", |n| hostile::mbs_symbols(n as u16), 3_000, &every_command);
}

#[test]
fn every_command_is_near_linear_in_a_d3d9_program() {
    assert_near_linear("D3D9 instructions", hostile::d3d9_movs, 5_000, &every_command);
}

#[test]
fn every_command_is_near_linear_in_gfd_blocks() {
    assert_near_linear("GFD blocks", hostile::many_gfd_shaders, 1_000, &every_command);
}
