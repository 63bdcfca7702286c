//! ARM Mali Utgard throughput over the corpus code (bytes/s of `DBIN` payload): groups
//! `mali-gp` (vertex shaders) and `mali-pp` (fragment shaders), each the listing in Mesa's
//! text into one buffer, the instruction records and the checks.
//! `cargo bench -p shaderscope --bench mali` (the corpus comes from `SHADERSCOPE_CORPUS` or
//! `../shared/corpus`; without it, a small built-in program of each).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::format::mbs::{Core, Mbs};
use shaderscope::isa::{InstructionRecord, mali_gp, mali_pp};
use shaderscope::print::TextBuf;
use shaderscope::{DisasmOptions, Finding};

/// The `DBIN` payload of every corpus MBS file of `core`.
fn programs(core: Core) -> Vec<Vec<u8>> {
    let root = common::corpus_dir().unwrap_or_default();
    let mut out = Vec::new();
    for row in common::manifest(&root, "mbs").iter().filter(|r| r.kind == "mbs") {
        let Ok(data) = std::fs::read(root.join("mbs").join(&row.path)) else { continue };
        let Ok(mbs) = Mbs::parse(&data) else { continue };
        let Some(v) = mbs.shader().filter(|v| v.core() == core) else { continue };
        out.extend(v.code().map(|(code, _)| code.to_vec()));
    }
    out
}

/// The functions of one instruction set.
struct Isa {
    listing: fn(&[u8], u64, &DisasmOptions, &mut TextBuf) -> shaderscope::Result<()>,
    records: fn(&[u8], u64) -> Vec<InstructionRecord>,
    check: fn(&[u8], u64) -> Vec<Finding>,
}

fn group(c: &mut Criterion, name: &str, mut programs: Vec<Vec<u8>>, fallback: &[u32], isa: &Isa) {
    if programs.is_empty() {
        eprintln!("corpus not found; benchmarking a small built-in {name} program only");
        programs.push(fallback.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    let bytes: u64 = programs.iter().map(|p| p.len() as u64).sum();
    eprintln!("{name}: {} programs, {bytes} bytes of code", programs.len());
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("listing", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for p in &programs {
                out.clear();
                let _ = (isa.listing)(p, 0, &DisasmOptions::default(), &mut out);
                std::hint::black_box(out.as_bytes());
            }
        })
    });
    g.bench_function("records", |b| {
        b.iter(|| programs.iter().for_each(|p| drop(std::hint::black_box((isa.records)(p, 0)))))
    });
    g.bench_function("check", |b| {
        b.iter(|| programs.iter().for_each(|p| drop(std::hint::black_box((isa.check)(p, 0)))))
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let gp = Isa { listing: mali_gp::write_listing, records: mali_gp::records, check: mali_gp::check };
    // One instruction of a corpus vertex shader.
    group(c, "mali-gp", programs(Core::Gp), &[0xad40_b42f, 0x4380_42b5, 0x0807_e980, 0x000a_d500], &gp);
    let pp = Isa { listing: mali_pp::write_listing, records: mali_pp::records, check: mali_pp::check };
    // limare's clear shader.
    group(
        c,
        "mali-pp",
        programs(Core::Pp),
        &[0x0002_1025, 0x0000_0e4c, 0x03c0_07cf, 0x03c0_03c0, 0x0000_03c0],
        &pp,
    );
}

/// Mali PP assembly (`isa::mali_pp::asm::assemble`): bytes of listing text per second over
/// every corpus fragment shader's listing (without the corpus, limare's clear shader's).
fn mali_pp_assemble(c: &mut Criterion) {
    let mut programs = programs(Core::Pp);
    if programs.is_empty() {
        let clear = [0x0002_1025u32, 0x0000_0e4c, 0x03c0_07cf, 0x03c0_03c0, 0x0000_03c0];
        programs.push(clear.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    let texts: Vec<String> = programs
        .iter()
        .map(|p| {
            let mut out = TextBuf::default();
            let _ = mali_pp::write_listing(p, 0, &DisasmOptions::default(), &mut out);
            out.into_string()
        })
        .collect();
    let bytes: u64 = texts.iter().map(|t| t.len() as u64).sum();
    eprintln!("mali-pp assemble: {} listings, {bytes} bytes of text", texts.len());
    let mut g = c.benchmark_group("mali-pp");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("assemble", |b| {
        b.iter(|| texts.iter().for_each(|t| drop(std::hint::black_box(mali_pp::asm::assemble(t)))))
    });
    g.finish();
}

/// GP assembly: every corpus vertex shader's listing (Mesa's text, as `disasm` prints the
/// bare program) read back into words; throughput in bytes of listing text.
fn mali_gp_assemble(c: &mut Criterion) {
    let mut programs = programs(Core::Gp);
    if programs.is_empty() {
        programs.push(
            [0xad40_b42f_u32, 0x4380_42b5, 0x0807_e980, 0x000a_d500]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect(),
        );
    }
    let texts: Vec<String> = programs
        .iter()
        .map(|p| {
            let mut out = TextBuf::default();
            let _ = mali_gp::write_listing(p, 0, &DisasmOptions::default(), &mut out);
            out.as_str().to_string()
        })
        .collect();
    let bytes: u64 = texts.iter().map(|t| t.len() as u64).sum();
    eprintln!("mali-gp-asm: {} listings, {bytes} bytes of text", texts.len());
    let mut g = c.benchmark_group("mali-gp-asm");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("assemble", |b| {
        b.iter(|| texts.iter().for_each(|t| drop(std::hint::black_box(mali_gp::asm::assemble(t)))))
    });
    g.finish();
}

criterion_group!(benches, bench, mali_gp_assemble, mali_pp_assemble);
criterion_main!(benches);
