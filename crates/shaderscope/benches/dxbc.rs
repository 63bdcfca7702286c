//! DXBC throughput over the corpus, side by side with the `dxbc` crate 0.1.0 in the same run:
//! parse only, and parse + full listing. `Throughput::Bytes` is the total size of the files.
//!
//! `cargo bench -p shaderscope --bench dxbc` (the corpus comes from `SHADERSCOPE_CORPUS` or
//! `../shared/corpus`).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::DisasmOptions;
use shaderscope::format::dxbc::{Dxbc, listing};
use shaderscope::print::TextBuf;
use std::hint::black_box;

fn corpus() -> Vec<Vec<u8>> {
    let Some(root) = common::corpus_dir() else { return Vec::new() };
    common::manifest(&root, "dxbc")
        .into_iter()
        .filter(|r| r.kind == "dxbc-binary")
        .filter_map(|r| std::fs::read(root.join("dxbc").join(&r.path)).ok())
        .collect()
}

fn peer_listing(data: &[u8]) -> Option<String> {
    let container = dxbc::scan_dxbc(data).into_iter().next()?;
    container.chunks.iter().find_map(|chunk| match chunk.parse() {
        dxbc::ChunkData::Shader(program) => Some(format!("{program}")),
        _ => None,
    })
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    if files.is_empty() {
        return;
    }
    // The peer panics on some inputs; keep only the files it handles so both sides see the same set.
    let files: Vec<Vec<u8>> = files
        .into_iter()
        .filter(|f| std::panic::catch_unwind(|| peer_listing(f)).is_ok_and(|t| t.is_some()))
        .collect();
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();

    let mut g = c.benchmark_group("dxbc-parse");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("shaderscope", |b| {
        b.iter(|| {
            for f in &files {
                black_box(Dxbc::parse(black_box(f)).ok());
            }
        })
    });
    g.bench_function("dxbc-crate", |b| {
        b.iter(|| {
            for f in &files {
                for c in dxbc::scan_dxbc(black_box(f)) {
                    for chunk in &c.chunks {
                        black_box(chunk.parse());
                    }
                }
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("dxbc-listing");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("shaderscope", |b| {
        // As `shaderscope disasm` does it: what is cheaper done for 32 files at a time (their
        // checksums, hashed side by side) prepared per group, then each file parsed and its
        // listing appended to one reused text buffer.
        let mut out = TextBuf::default();
        let opts = DisasmOptions::default();
        b.iter(|| {
            for group in files.chunks(32) {
                let data: Vec<&[u8]> = group.iter().map(|f| black_box(f.as_slice())).collect();
                for (f, prepared) in data.iter().zip(shaderscope::prepare(&data)) {
                    out.clear();
                    if let Ok(shaderscope::File::Dxbc(d)) = shaderscope::parse_prepared(f, &prepared) {
                        let _ = listing::write_listing(&d, &opts, &mut out);
                    }
                    black_box(out.len());
                }
            }
        })
    });
    g.bench_function("dxbc-crate", |b| {
        b.iter(|| {
            for f in &files {
                black_box(peer_listing(black_box(f)));
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
