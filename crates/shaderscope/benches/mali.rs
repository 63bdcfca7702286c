//! ARM Mali Utgard throughput over the corpus code (bytes/s of `DBIN` payload): group
//! `mali-gp`, the GP (vertex) listing in Mesa's text into one buffer, and the instruction
//! records. A `mali-pp` group for the fragment code goes beside it (`dbins(b"CFRA")`).
//! `cargo bench -p shaderscope --bench mali`.
//!
//! The code is each MBS file's `DBIN` payload, found with the toolkit's chunk reader (`MBS1`
//! → `CVER`/`CFRA`, a version word, then chunks → `DBIN`), so no container is parsed here.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::DisasmOptions;
use shaderscope::isa::mali_gp;
use shaderscope::print::TextBuf;
use shaderscope::toolkit::{Chunks, Endian, Reader};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The `DBIN` payload of every corpus MBS file whose shader chunk is `shader` (`CVER`:
/// vertex, `CFRA`: fragment).
fn dbins(shader: &[u8; 4]) -> Vec<Vec<u8>> {
    let corpus = std::env::var_os("SHADERSCOPE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let mut paths = Vec::new();
    files(&corpus.join("mbs"), &mut paths);
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let Ok(data) = std::fs::read(&p) else { continue };
        let Some(Ok(mbs)) = Chunks::new(Reader::with_base(&data, 0, Endian::Little)).next() else { continue };
        if &mbs.fourcc.0 != b"MBS1" {
            continue;
        }
        let Some(Ok(body)) = Chunks::new(mbs.reader(Endian::Little)).next() else { continue };
        if &body.fourcc.0 != shader {
            continue;
        }
        let Some(rest) = body.data.get(4..) else { continue };
        let chunks = Chunks::new(Reader::with_base(rest, body.data_offset() as u64 + 4, Endian::Little));
        if let Some(dbin) = chunks.filter_map(Result::ok).find(|c| &c.fourcc.0 == b"DBIN") {
            out.push(dbin.data.to_vec());
        }
    }
    out
}

fn gp(c: &mut Criterion) {
    let mut programs = dbins(b"CVER");
    if programs.is_empty() {
        eprintln!("corpus not found; benchmarking a small built-in program only");
        let words = [0xad40_b42fu32, 0x4380_42b5, 0x0807_e980, 0x000a_d500];
        programs.push(words.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    let bytes: u64 = programs.iter().map(|p| p.len() as u64).sum();
    eprintln!("{} GP programs, {bytes} bytes of code", programs.len());
    let mut g = c.benchmark_group("mali-gp");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("listing", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for p in &programs {
                out.clear();
                let _ = mali_gp::write_listing(p, 0, &DisasmOptions::default(), &mut out);
                std::hint::black_box(out.as_bytes());
            }
        })
    });
    g.bench_function("records", |b| {
        b.iter(|| {
            for p in &programs {
                std::hint::black_box(mali_gp::records(p, 0));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, gp);
criterion_main!(benches);
