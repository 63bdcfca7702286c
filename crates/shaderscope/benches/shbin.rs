//! SHBIN throughput over the corpus (bytes/s): parse only, parse + every DVLE printed as
//! picasso source, and parse + every DVLE's instruction records.
//! `cargo bench -p shaderscope --bench shbin`.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::Container;
use shaderscope::DisasmOptions;
use shaderscope::format::shbin::Dvlb;
use shaderscope::print::TextBuf;

fn files() -> Vec<Vec<u8>> {
    let corpus = common::corpus_path();
    let manifest = std::fs::read_to_string(corpus.join("shbin/MANIFEST.tsv")).unwrap_or_default();
    let mut v: Vec<Vec<u8>> = manifest
        .lines()
        .skip(1)
        .filter(|l| l.split('\t').nth(6) == Some("shbin"))
        .filter_map(|l| std::fs::read(corpus.join("shbin").join(l.split('\t').next()?)).ok())
        .collect();
    if v.is_empty() {
        eprintln!("corpus not found; benchmarking the shipped sample only");
        v.push(shaderscope::format::shbin::build::example_vertex_shader());
    }
    v
}

fn bench(c: &mut Criterion) {
    let files = files();
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let mut g = c.benchmark_group("shbin");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for f in &files {
                std::hint::black_box(Dvlb::parse(f).ok());
            }
        })
    });
    g.bench_function("parse+disasm", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for f in &files {
                out.clear();
                if let Ok(file) = shaderscope::parse(f) {
                    let _ = file.disasm(&DisasmOptions::default(), &mut out);
                }
                std::hint::black_box(out.as_str());
            }
        })
    });
    g.bench_function("parse+records", |b| {
        b.iter(|| {
            for f in &files {
                if let Ok(shaderscope::File::Shbin(file)) = shaderscope::parse(f) {
                    for dvle in file.dvles() {
                        std::hint::black_box(dvle.records());
                    }
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
