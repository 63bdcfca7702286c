//! GFD `.gsh` throughput over the corpus (bytes/s): parse only (every block, relocation table
//! and GX2 struct), parse + the listing of every shader, parse + `info --json`, and parse +
//! write back. `cargo bench -p shaderscope --bench gx2`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::format::gfd::Gfd;
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};
use std::path::{Path, PathBuf};

fn files() -> Vec<Vec<u8>> {
    let corpus = std::env::var_os("SHADERSCOPE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let manifest = std::fs::read_to_string(corpus.join("gx2/MANIFEST.tsv")).unwrap_or_default();
    let mut v: Vec<Vec<u8>> = manifest
        .lines()
        .skip(1)
        .filter(|l| l.split('\t').nth(6) == Some("gsh"))
        .filter_map(|l| std::fs::read(corpus.join("gx2").join(l.split('\t').next()?)).ok())
        .collect();
    if v.is_empty() {
        eprintln!("corpus not found; benchmarking the built example only");
        v.push(shaderscope::format::gfd::build::example());
    }
    v
}

fn bench(c: &mut Criterion) {
    let files = files();
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let mut g = c.benchmark_group("gx2");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for f in &files {
                std::hint::black_box(Gfd::parse(f).ok());
            }
        })
    });
    g.bench_function("parse+disasm", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for f in &files {
                out.clear();
                if let Ok(gfd) = Gfd::parse(f) {
                    let _ = gfd.disasm(&DisasmOptions::default(), &mut out);
                }
                std::hint::black_box(out.as_str());
            }
        })
    });
    g.bench_function("parse+info", |b| {
        b.iter(|| {
            for f in &files {
                if let Ok(gfd) = Gfd::parse(f) {
                    std::hint::black_box(gfd.info_json());
                }
            }
        })
    });
    g.bench_function("parse+write", |b| {
        b.iter(|| {
            for f in &files {
                if let Ok(gfd) = Gfd::parse(f) {
                    std::hint::black_box(gfd.write().ok());
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
