//! GFD `.gsh` throughput over the corpus (bytes/s): parse only (every block, relocation table
//! and GX2 struct), parse + the listing of every shader, parse + `info --json`, and parse +
//! write back; the same over the SHARCFB archives (group `sharcfb`).
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

/// One group of `name`: parse only, parse + the listing of every shader, parse + `info
/// --json`, parse + write back, each over all of `files` with `parse`.
fn group<'a, C: Container + 'a>(
    c: &mut Criterion,
    name: &str,
    files: &'a [Vec<u8>],
    parse: impl Fn(&'a [u8]) -> shaderscope::Result<C>,
) {
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("parse", |b| {
        b.iter(|| files.iter().for_each(|f| drop(std::hint::black_box(parse(f).ok()))))
    });
    g.bench_function("parse+disasm", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for f in files {
                out.clear();
                if let Ok(file) = parse(f) {
                    let _ = file.disasm(&DisasmOptions::default(), &mut out);
                }
                std::hint::black_box(out.as_str());
            }
        })
    });
    g.bench_function("parse+info", |b| {
        b.iter(|| {
            files
                .iter()
                .filter_map(|f| parse(f).ok())
                .for_each(|file| drop(std::hint::black_box(file.info_json())))
        })
    });
    g.bench_function("parse+write", |b| {
        b.iter(|| {
            files
                .iter()
                .filter_map(|f| parse(f).ok())
                .for_each(|file| drop(std::hint::black_box(file.write().ok())))
        })
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let mut gsh = files("gsh");
    if gsh.is_empty() {
        eprintln!("corpus not found; benchmarking the built example only");
        gsh.push(shaderscope::format::gfd::build::example());
    }
    group(c, "gx2", &gsh, Gfd::parse);
    let sharcfb = files("sharcfb");
    if !sharcfb.is_empty() {
        group(c, "sharcfb", &sharcfb, Sharcfb::parse);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
