//! `find` over the whole shared corpus held in memory (every file, shader or not, as `scan`
//! reads them): group `scan-bytes` gives MB/s, group `scan-files` files/s; `one-thread` is
//! [`shaderscope::find::each`] file after file. `cargo bench -p shaderscope --bench scan`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "../tests/common/mod.rs"]
mod common;

fn files() -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    let mut dirs: Vec<_> = common::corpus_dir().into_iter().collect();
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                dirs.push(p);
            } else if let Ok(b) = std::fs::read(&p) {
                v.push(b);
            }
        }
    }
    if v.is_empty() {
        eprintln!("corpus not found; benchmarking the built examples only");
        v.push(shaderscope::format::gfd::build::example());
        v.push(shaderscope::format::mbs::build::example_vertex_shader());
    }
    v
}

fn bench(c: &mut Criterion) {
    let files = files();
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    eprintln!("{} files, {bytes} bytes", files.len());
    let run = || {
        let mut n = 0usize;
        for f in &files {
            shaderscope::find::each(f, &mut |find, _| n += find.size as usize);
        }
        std::hint::black_box(n)
    };
    for (name, t) in
        [("scan-bytes", Throughput::Bytes(bytes)), ("scan-files", Throughput::Elements(files.len() as u64))]
    {
        let mut g = c.benchmark_group(name);
        g.sample_size(10);
        g.throughput(t);
        g.bench_function("one-thread", |b| b.iter(run));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
