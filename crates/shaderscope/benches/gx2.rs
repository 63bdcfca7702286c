//! GFD `.gsh` throughput over the corpus (bytes/s): parse only (every block, relocation table
//! and GX2 struct), parse + the listing of every shader, parse + `info --json`, and parse +
//! write back; the same (but `info`) over the SHARCFB archives.
//! `cargo bench -p shaderscope --bench gx2` (the corpus comes from `SHADERSCOPE_CORPUS` or
//! `../shared/corpus`).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::format::gfd::Gfd;
use shaderscope::format::sharcfb::Sharcfb;
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};

/// The corpus files of manifest kind `kind` (`gsh`, `sharcfb`).
fn files(kind: &str) -> Vec<Vec<u8>> {
    let Some(root) = common::corpus_dir() else { return Vec::new() };
    common::manifest(&root, "gx2")
        .iter()
        .filter(|r| r.kind == kind)
        .filter_map(|r| std::fs::read(root.join("gx2").join(&r.path)).ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut files = files("gsh");
    if files.is_empty() {
        eprintln!("corpus not found; benchmarking the built example only");
        files.push(shaderscope::format::gfd::build::example());
    }
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

/// The same over the SHARCFB archives (each binary's GX2 struct and Latte listing).
fn bench_sharcfb(c: &mut Criterion) {
    let files = files("sharcfb");
    if files.is_empty() {
        eprintln!("corpus not found; no SHARCFB benchmark");
        return;
    }
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let mut g = c.benchmark_group("sharcfb");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for f in &files {
                std::hint::black_box(Sharcfb::parse(f).ok());
            }
        })
    });
    g.bench_function("parse+disasm", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for f in &files {
                out.clear();
                if let Ok(a) = Sharcfb::parse(f) {
                    let _ = a.disasm(&DisasmOptions::default(), &mut out);
                }
                std::hint::black_box(out.as_str());
            }
        })
    });
    g.bench_function("parse+write", |b| {
        b.iter(|| {
            for f in &files {
                if let Ok(a) = Sharcfb::parse(f) {
                    std::hint::black_box(a.write().ok());
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench, bench_sharcfb);
criterion_main!(benches);
