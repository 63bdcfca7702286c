//! Assembly throughput over the corpus (issue 13): every DXBC binary's listing, as
//! `disasm --exact-floats` prints it, assembled back into a whole container (program,
//! signatures, RDEF, STAT, SFI0, Aon9, checksum). `Throughput::Bytes` is the total size of the
//! listings read; the SM4 program alone (`asm-program`) is measured too.
//!
//! `cargo bench -p shaderscope --bench asm` (the corpus comes from `SHADERSCOPE_CORPUS` or
//! `../shared/corpus`).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::DisasmOptions;
use shaderscope::format::dxbc::listing::write_listing;
use shaderscope::format::dxbc::{Dxbc, assemble};
use shaderscope::isa::sm4::asm::parse_program;
use shaderscope::print::TextBuf;
use std::hint::black_box;

/// The listing of every corpus container with an SM4/5 program.
fn listings() -> Vec<String> {
    let Some(root) = common::corpus_dir() else { return Vec::new() };
    let mut opts = DisasmOptions::default();
    opts.exact_floats = true;
    common::files(&root, "dxbc", "dxbc-binary")
        .filter_map(|(_, _, data)| {
            let d = Dxbc::parse(&data).ok().filter(|d| d.program.is_some())?;
            let mut text = TextBuf::default();
            write_listing(&d, &opts, &mut text).ok()?;
            Some(text.as_str().to_string())
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let texts = listings();
    if texts.is_empty() {
        return;
    }
    let bytes: u64 = texts.iter().map(|t| t.len() as u64).sum();
    let mut g = c.benchmark_group("asm");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("container", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(assemble::assemble(black_box(t)).ok());
            }
        })
    });
    g.bench_function("program", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(parse_program(black_box(t)).ok());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
