//! ARM Mali Utgard throughput over the corpus code (bytes/s of `DBIN` payload): groups
//! `mali-gp` (vertex shaders) and `mali-pp` (fragment shaders), each the listing in Mesa's
//! text into one buffer, the instruction records and the checks; `mali-gp-asm` and
//! `mali-pp-asm`, the listings assembled back (bytes of text per second).
//! `cargo bench -p shaderscope --bench mali` (the corpus comes from `SHADERSCOPE_CORPUS` or
//! `../shared/corpus`; without it, a small built-in program of each).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::asm::LineError;
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

/// One instruction set: its name, core, a program to bench without the corpus, and its
/// functions.
struct Isa {
    name: &'static str,
    core: Core,
    fallback: &'static [u32],
    listing: fn(&[u8], u64, &DisasmOptions, &mut TextBuf) -> shaderscope::Result<()>,
    records: fn(&[u8], u64) -> Vec<InstructionRecord>,
    check: fn(&[u8], u64) -> Vec<Finding>,
    assemble: fn(&str) -> Result<Vec<u32>, LineError>,
}

const ISAS: [Isa; 2] = [
    Isa {
        name: "mali-gp",
        core: Core::Gp,
        // One instruction of a corpus vertex shader.
        fallback: &[0xad40_b42f, 0x4380_42b5, 0x0807_e980, 0x000a_d500],
        listing: mali_gp::write_listing,
        records: mali_gp::records,
        check: mali_gp::check,
        assemble: mali_gp::asm::assemble,
    },
    Isa {
        name: "mali-pp",
        core: Core::Pp,
        // limare's clear shader.
        fallback: &[0x0002_1025, 0x0000_0e4c, 0x03c0_07cf, 0x03c0_03c0, 0x0000_03c0],
        listing: mali_pp::write_listing,
        records: mali_pp::records,
        check: mali_pp::check,
        assemble: mali_pp::asm::assemble,
    },
];

/// The ISA's corpus programs, or its fallback program without the corpus.
fn programs_of(isa: &Isa) -> Vec<Vec<u8>> {
    let mut programs = programs(isa.core);
    if programs.is_empty() {
        eprintln!("corpus not found; benchmarking a small built-in {} program only", isa.name);
        programs.push(isa.fallback.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    programs
}

/// Group `mali-gp`/`mali-pp`: the listing, the records and the checks, in bytes of code per
/// second.
fn group(c: &mut Criterion, isa: &Isa) {
    let programs = programs_of(isa);
    let bytes: u64 = programs.iter().map(|p| p.len() as u64).sum();
    eprintln!("{}: {} programs, {bytes} bytes of code", isa.name, programs.len());
    let mut g = c.benchmark_group(isa.name);
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

/// Group `mali-gp-asm`/`mali-pp-asm`: every program's listing (Mesa's text, as `disasm`
/// prints the bare program) read back into words, in bytes of listing text per second.
fn assemble_group(c: &mut Criterion, isa: &Isa) {
    let texts: Vec<String> = programs_of(isa)
        .iter()
        .map(|p| {
            let mut out = TextBuf::default();
            let _ = (isa.listing)(p, 0, &DisasmOptions::default(), &mut out);
            out.into_string()
        })
        .collect();
    let bytes: u64 = texts.iter().map(|t| t.len() as u64).sum();
    eprintln!("{}-asm: {} listings, {bytes} bytes of text", isa.name, texts.len());
    let mut g = c.benchmark_group(format!("{}-asm", isa.name));
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("assemble", |b| {
        b.iter(|| texts.iter().for_each(|t| drop(std::hint::black_box((isa.assemble)(t)))))
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    for isa in &ISAS {
        group(c, isa);
        assemble_group(c, isa);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
