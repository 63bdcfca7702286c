//! Latte throughput over the corpus programs (bytes/s of microcode): decode + decaf-style
//! listing into one text buffer, and decode + instruction records; and the assembler's, in
//! bytes/s of listing text (`latte_asm/assemble`: every program's listing back to its words).
//! `cargo bench -p shaderscope --bench latte`.
//!
//! The programs are the words of decaf's reference listings (`gx2/reference/decaf/*.txt`:
//! the hex lines after each `---- vertex|pixel (N bytes) ----` line, the `.gsh` program
//! blocks as the GPU reads them), so no container is parsed here.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::DisasmOptions;
use shaderscope::isa::latte;
use shaderscope::print::TextBuf;

#[path = "../tests/common/mod.rs"]
mod common;

fn programs() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    // Without a corpus, no rows: the built-in program below.
    let root = common::corpus_dir().unwrap_or_default();
    for row in common::manifest(&root, "gx2").iter().filter(|r| r.kind == "gsh") {
        let Ok(text) =
            std::fs::read_to_string(root.join("gx2/reference/decaf").join(format!("{}.txt", row.path)))
        else {
            continue;
        };
        let mut code = Vec::new();
        let mut in_hex = false;
        for l in text.lines().map(str::trim_end) {
            if l.starts_with("---- ") {
                in_hex = true;
                continue;
            }
            let hex =
                !l.is_empty() && l.split(' ').all(|w| w.len() == 8 && u32::from_str_radix(w, 16).is_ok());
            if in_hex && hex {
                code.extend(l.split(' ').flat_map(|w| u32::from_str_radix(w, 16).unwrap_or(0).to_le_bytes()));
            } else if in_hex {
                in_hex = false;
                out.push(std::mem::take(&mut code));
            }
        }
        if !code.is_empty() {
            out.push(code);
        }
    }
    if out.is_empty() {
        eprintln!("corpus not found; benchmarking a small built-in program only");
        let words = [
            0x0000_0002u32,
            0xA00C_0000,
            0x0000_0000,
            0x9420_0688,
            0x0000_0100,
            0x0000_0C90,
            0x0000_0500,
            0x2000_0C90,
            0x0000_0900,
            0x4000_0C90,
            0x8000_0D00,
            0x6000_0C90,
        ];
        out.push(words.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    out
}

fn bench(c: &mut Criterion) {
    let programs = programs();
    let bytes: u64 = programs.iter().map(|p| p.len() as u64).sum();
    eprintln!("{} programs, {bytes} bytes of microcode", programs.len());
    let mut g = c.benchmark_group("latte");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("listing", |b| {
        let mut out = TextBuf::default();
        b.iter(|| {
            for p in &programs {
                out.clear();
                let _ = latte::write_listing(p, 0, &DisasmOptions::default(), &mut out);
                std::hint::black_box(out.as_bytes());
            }
        })
    });
    g.bench_function("records", |b| {
        b.iter(|| {
            for p in &programs {
                std::hint::black_box(latte::records(p, 0));
            }
        })
    });
    g.bench_function("usage", |b| {
        b.iter(|| {
            for p in &programs {
                std::hint::black_box(latte::usage(p, 0));
            }
        })
    });
    g.finish();

    let listings: Vec<String> = programs
        .iter()
        .map(|p| {
            let mut out = TextBuf::default();
            let _ = latte::write_listing(p, 0, &DisasmOptions::default(), &mut out);
            out.into_string()
        })
        .collect();
    let text: u64 = listings.iter().map(|l| l.len() as u64).sum();
    let mut g = c.benchmark_group("latte_asm");
    g.throughput(Throughput::Bytes(text));
    g.bench_function("assemble", |b| {
        b.iter(|| {
            for l in &listings {
                let _ = std::hint::black_box(latte::asm::assemble(l));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
