//! MBS throughput over the corpus (bytes/s): parse only (the whole chunk tree, every symbol),
//! parse + write back from the model, and parse + the listing (symbol tables and code).
//! `cargo bench -p shaderscope --bench mbs`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::format::mbs::Mbs;
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};
use std::path::{Path, PathBuf};

fn files() -> Vec<Vec<u8>> {
    let corpus = std::env::var_os("SHADERSCOPE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let manifest = std::fs::read_to_string(corpus.join("mbs/MANIFEST.tsv")).unwrap_or_default();
    let mut v: Vec<Vec<u8>> = manifest
        .lines()
        .skip(1)
        .filter(|l| l.split('\t').nth(6) == Some("mbs"))
        .filter_map(|l| std::fs::read(corpus.join("mbs").join(l.split('\t').next()?)).ok())
        .collect();
    if v.is_empty() {
        eprintln!("corpus not found; benchmarking the built examples only");
        v.push(shaderscope::format::mbs::build::example_vertex_shader());
        v.push(shaderscope::format::mbs::build::example_fragment_shader());
    }
    v
}

fn bench(c: &mut Criterion) {
    let files = files();
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let mut g = c.benchmark_group("mbs");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for f in &files {
                std::hint::black_box(Mbs::parse(f).ok());
            }
        })
    });
    g.bench_function("parse+write", |b| {
        b.iter(|| {
            for f in &files {
                if let Ok(m) = Mbs::parse(f) {
                    std::hint::black_box(m.write_model());
                }
            }
        })
    });
    g.bench_function("parse+disasm", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for f in &files {
                out.clear();
                if let Ok(m) = Mbs::parse(f) {
                    let _ = m.disasm(&DisasmOptions::default(), &mut out);
                }
                std::hint::black_box(out.as_str());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
