//! The facade's listing, as the front ends ask for it (`Shader::file().disasm` into a
//! terminal-escaped `TextBuf`, the text the CLI prints and the Python package returns), over
//! every shader binary of each corpus folder's manifest, parsed beforehand: bytes of files
//! listed per second. The Python package's `File.disasm()` is measured against these figures
//! (`python/tests/bench_disasm.py`). `cargo bench -p shaderscope --bench facade`.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions, Shader};

fn bench(c: &mut Criterion) {
    let Some(root) = common::corpus_dir() else { return };
    let mut g = c.benchmark_group("facade-disasm");
    for folder in ["dxbc", "shbin", "gx2", "mbs"] {
        let shaders: Vec<Shader> = common::manifest(&root, folder)
            .iter()
            .filter(|r| common::kind_format(&r.kind).is_some())
            .filter_map(|r| std::fs::read(root.join(folder).join(&r.path)).ok())
            .filter_map(|data| Shader::parse(data).ok())
            .collect();
        let bytes: u64 = shaders.iter().map(|s| s.bytes().len() as u64).sum();
        g.throughput(Throughput::Bytes(bytes));
        let opts = DisasmOptions::default();
        g.bench_function(folder, |b| {
            b.iter(|| {
                for s in &shaders {
                    let mut out = TextBuf::for_terminal();
                    let _ = s.file().disasm(&opts, &mut out);
                    std::hint::black_box(out.into_string());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
