//! PICA200 assembly throughput over the corpus: every picasso source of `shbin/` (outside
//! `reference/`) that assembles alone, assembled into a whole SHBIN as picasso writes it
//! (`sources`), and every corpus SHBIN's `disasm` listing assembled `--like` its original,
//! which gives the original back byte for byte (`listings-like`). `Throughput::Bytes` is the
//! total size of the texts each function reads.
//!
//! `cargo bench -p shaderscope --bench pica_asm` (the corpus comes from `SHADERSCOPE_CORPUS`
//! or `../shared/corpus`).

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::format::shbin::assemble::{File, assemble};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// Every picasso source of the corpus that assembles alone: (name, text).
fn sources(shbin: &Path) -> Vec<(String, String)> {
    let mut paths = Vec::new();
    let mut stack = vec![shbin.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p: PathBuf = e.path();
            if p.is_dir() {
                if p.file_name().is_none_or(|n| n != "reference") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "pica" || x == "vsh" || x == "gsh") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let name = p.strip_prefix(shbin).unwrap_or(&p).to_string_lossy().into_owned();
            assemble(&[File { name: &name, text: &text }]).ok()?;
            Some((name, text))
        })
        .collect()
}

/// Every corpus SHBIN's listing, with the original bytes.
fn listings(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    common::files(corpus, "shbin", "shbin")
        .filter_map(|(_, _, data)| {
            let file = shaderscope::parse(&data).ok()?;
            let mut text = TextBuf::default();
            file.disasm(&DisasmOptions::default(), &mut text).ok()?;
            let text = text.into_string();
            // Only listings that give their original back (every corpus SHBIN does).
            let back = shaderscope::asm::assemble(&text, Some(&data)).ok()?;
            (back.bytes == data).then_some((text, data))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = common::corpus_dir() else { return };
    let sources = sources(&corpus.join("shbin"));
    let listings = listings(&corpus);
    eprintln!("pica-asm: {} sources, {} listings", sources.len(), listings.len());
    let mut g = c.benchmark_group("pica-asm");
    if !sources.is_empty() {
        g.throughput(Throughput::Bytes(sources.iter().map(|(_, t)| t.len() as u64).sum()));
        g.bench_function("sources", |b| {
            b.iter(|| {
                for (name, text) in &sources {
                    black_box(assemble(&[File { name, text: black_box(text) }]).ok());
                }
            })
        });
    }
    if !listings.is_empty() {
        g.throughput(Throughput::Bytes(listings.iter().map(|(t, _)| t.len() as u64).sum()));
        g.bench_function("listings-like", |b| {
            b.iter(|| {
                for (text, original) in &listings {
                    black_box(shaderscope::asm::assemble(black_box(text), Some(original)).ok());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
