//! SM4/SM5 throughput over the DXBC corpus (bytes of SHDR/SHEX per second): decoding every
//! instruction and operand, and printing the fxc program text. `cargo bench -p shaderscope --bench sm4`.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::isa::sm4::{ListingStyle, Program, write_listing};
use shaderscope::print::TextBuf;

/// The SHDR/SHEX chunk data of every corpus DXBC program (a minimal chunk walk).
fn programs() -> Vec<Vec<u8>> {
    let corpus = common::corpus_path();
    let manifest = std::fs::read_to_string(corpus.join("dxbc/MANIFEST.tsv")).unwrap_or_default();
    let le32 =
        |d: &[u8], o: usize| d.get(o..o + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    let mut out = Vec::new();
    for line in manifest.lines().skip(1).filter(|l| l.split('\t').nth(6) == Some("dxbc-binary")) {
        let Some(path) = line.split('\t').next() else { continue };
        let Ok(data) = std::fs::read(corpus.join("dxbc").join(path)) else { continue };
        for i in 0..le32(&data, 28).unwrap_or(0).min(64) {
            let Some(off) = le32(&data, 32 + 4 * i) else { continue };
            let (Some(tag), Some(size)) = (data.get(off..off + 4), le32(&data, off + 4)) else { continue };
            if tag == b"SHDR" || tag == b"SHEX" {
                if let Some(body) = data.get(off + 8..off + 8 + size) {
                    out.push(body.to_vec());
                }
            }
        }
    }
    if out.is_empty() {
        eprintln!("corpus not found; nothing to benchmark");
    }
    out
}

fn bench(c: &mut Criterion) {
    let programs = programs();
    let bytes: u64 = programs.iter().map(|p| p.len() as u64).sum();
    let mut g = c.benchmark_group("sm4");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("decode", |b| {
        b.iter(|| {
            for p in &programs {
                let Ok(program) = Program::parse(p, 0) else { continue };
                for inst in program.instructions().flatten() {
                    for op in inst.operands() {
                        std::hint::black_box(op.ok());
                    }
                }
            }
        })
    });
    g.bench_function("listing", |b| {
        let mut text = TextBuf::default();
        b.iter(|| {
            for p in &programs {
                let Ok(program) = Program::parse(p, 0) else { continue };
                text.clear();
                std::hint::black_box(write_listing(&program, &ListingStyle::FXC_10, &mut text).ok());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
