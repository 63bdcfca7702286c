//! Mali PP throughput over the corpus programs (bytes/s of code): decode + Mesa-style listing
//! into one text buffer, decode + instruction records, and the checks.
//! `cargo bench -p shaderscope --bench mali_pp`.
//!
//! The programs are the DBIN chunks of the corpus's fragment-shader MBS files (MBS1 → CFRA →
//! the core version word, then chunks → DBIN), found with the toolkit's chunk reader, so no
//! container is parsed here.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::DisasmOptions;
use shaderscope::isa::mali_pp;
use shaderscope::print::TextBuf;
use shaderscope::toolkit::{Chunks, Endian, FourCC, Reader};
use std::path::{Path, PathBuf};

/// The DBIN payload of a fragment-shader MBS.
fn fragment_dbin(data: &[u8]) -> Option<Vec<u8>> {
    let top = Chunks::new(Reader::with_base(data, 0, Endian::Little)).next()?.ok()?;
    let shader = Chunks::new(top.reader(Endian::Little)).next()?.ok()?;
    if top.fourcc != FourCC(*b"MBS1") || shader.fourcc != FourCC(*b"CFRA") {
        return None;
    }
    let rest = shader.data.get(4..)?;
    let r = Reader::with_base(rest, 0, Endian::Little);
    Chunks::new(r).filter_map(Result::ok).find(|c| c.fourcc == FourCC(*b"DBIN")).map(|c| c.data.to_vec())
}

fn programs() -> Vec<Vec<u8>> {
    let corpus = std::env::var_os("SHADERSCOPE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let manifest = std::fs::read_to_string(corpus.join("mbs/MANIFEST.tsv")).unwrap_or_default();
    let mut out = Vec::new();
    for row in manifest.lines().skip(1).filter(|l| l.split('\t').nth(6) == Some("mbs")) {
        let Some(path) = row.split('\t').next() else { continue };
        let Ok(data) = std::fs::read(corpus.join("mbs").join(path)) else { continue };
        out.extend(fragment_dbin(&data));
    }
    if out.is_empty() {
        eprintln!("corpus not found; benchmarking a small built-in program only");
        // limare's clear shader.
        let words = [0x0002_1025u32, 0x0000_0e4c, 0x03c0_07cf, 0x03c0_03c0, 0x0000_03c0];
        out.push(words.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    out
}

fn bench(c: &mut Criterion) {
    let programs = programs();
    let bytes: u64 = programs.iter().map(|p| p.len() as u64).sum();
    eprintln!("{} programs, {bytes} bytes of code", programs.len());
    let mut g = c.benchmark_group("mali_pp");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("listing", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for p in &programs {
                out.clear();
                let _ = mali_pp::write_listing(p, 0, &DisasmOptions::default(), &mut out);
                std::hint::black_box(out.as_bytes());
            }
        })
    });
    g.bench_function("records", |b| {
        b.iter(|| {
            for p in &programs {
                std::hint::black_box(mali_pp::records(p, 0));
            }
        })
    });
    g.bench_function("check", |b| {
        b.iter(|| {
            for p in &programs {
                std::hint::black_box(mali_pp::check(p, 0));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
