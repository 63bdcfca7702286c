//! The PICA200 instruction set over every SHBIN of the corpus: word round trips, program
//! checks, and the picasso listing of every DVLE.

mod common;

use shaderscope::format::shbin::Dvlb;
use shaderscope::format::shbin::dvlb::DvleNames;
use shaderscope::isa::pica::{self, Op, SourceContext, decode};
use shaderscope::print::{Printer, TextBuf};
use std::fmt;

/// One corpus SHBIN with what the ISA needs from it.
struct File {
    path: String,
    dvlb: Dvlb,
    opdescs: Vec<u32>,
    names: Vec<DvleNames>,
}

impl File {
    /// DVLE `k` in the code decoded once (`program`, from [`Dvlb::program`]).
    fn context<'a>(&'a self, program: &'a pica::Program<'a>, k: usize) -> SourceContext<'a> {
        self.dvlb.source_context(k, program, &self.names[k], &self.opdescs, 0).unwrap()
    }
}

/// Every corpus SHBIN, parsed by the container.
fn corpus() -> Vec<File> {
    let Some(dir) = common::corpus_dir() else { return Vec::new() };
    common::manifest(&dir, "shbin")
        .into_iter()
        .filter(|r| r.kind == "shbin")
        .map(|r| {
            let bytes = std::fs::read(dir.join("shbin").join(&r.path)).unwrap();
            let dvlb = Dvlb::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", r.path));
            let opdescs = dvlb.opdesc_words();
            let names = dvlb.dvles.iter().map(|e| e.names()).collect();
            File { path: r.path, dvlb, opdescs, names }
        })
        .collect()
}

#[test]
fn every_corpus_word_reencodes_to_itself() {
    let files = corpus();
    let mut words = 0;
    for File { path, dvlb, .. } in &files {
        for (k, &w) in dvlb.dvlp.code.iter().enumerate() {
            let i = decode(w);
            assert_eq!(i.encode(), w, "{path} word {k}");
            assert_ne!(i.op, Op::Unknown, "{path} word {k}: 0x{w:08x}");
            words += 1;
        }
    }
    println!("{} files, {words} words decoded and re-encoded", files.len());
    assert!(files.is_empty() || words >= 2900, "only {words} words");
}

#[test]
fn corpus_programs_pass_the_checks() {
    // The corpus is known-good (every opdesc index and flow target is in range), and none of
    // it trips the warnings either.
    for f in corpus() {
        let path = &f.path;
        let program = f.dvlb.program();
        let issues = pica::check_program(&program, f.opdescs.len());
        assert!(issues.is_empty(), "{path}: {issues:?}");
        for k in 0..f.dvlb.dvles.len() {
            let issues = pica::check_executable(&f.context(&program, k));
            assert!(issues.is_empty(), "{path} DVLE {k}: {issues:?}");
        }
    }
}

/// A printer that records the offset of each instruction line.
#[derive(Default)]
struct Recording {
    text: TextBuf,
    offsets: Vec<u64>,
}

impl fmt::Write for Recording {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text.write_str(s)
    }
}

impl Printer for Recording {
    fn start_line(&mut self, offset: Option<u64>) {
        self.offsets.extend(offset);
    }
}

#[test]
fn every_dvle_lists_completely_and_cleanly() {
    let mut dvles = 0;
    for f in corpus() {
        let path = &f.path;
        let program = f.dvlb.program();
        for k in 0..f.dvlb.dvles.len() {
            dvles += 1;
            let ctx = f.context(&program, k);
            let mut p = Recording::default();
            pica::write_source(&ctx, &mut p).unwrap();
            let text = p.text.as_str();
            let at = format!("{path} DVLE {k}");
            // Every word of the entry range is printed as an instruction line: the lines that
            // show code bytes, and the records of the listing's instructions, list the same
            // words.
            let code = ctx.code_offset..ctx.code_offset + 4 * ctx.program.len() as u64;
            let listed: Vec<u32> = p
                .offsets
                .iter()
                .filter(|o| code.contains(o))
                .map(|o| ((o - ctx.code_offset) / 4) as u32)
                .collect();
            for a in ctx.main..ctx.endmain {
                assert!(listed.contains(&a), "{at}: word 0x{a:03x} is not listed\n{text}");
            }
            let records = pica::records(&ctx);
            let recorded: Vec<u32> =
                records.iter().map(|r| ((r.offset - ctx.code_offset) / 4) as u32).collect();
            assert_eq!(recorded, listed, "{at}");
            for r in &records {
                let word = ctx.program.words()[((r.offset - ctx.code_offset) / 4) as usize];
                assert_eq!(r.words, [word], "{at}");
                // The record is the instruction line's text, without indentation and comments.
                assert!(text.lines().any(|l| l.trim_start().starts_with(&r.text)), "{at}: {}", r.text);
            }
            // Every other line that shows bytes shows the DVLE header.
            let header = ctx.header_offset.unwrap();
            assert!(p.offsets.iter().all(|o| code.contains(o) || *o == header), "{at}");
            // Nothing had to be commented out and picasso pads nothing on its own.
            for bad in ["not nested", "unknown opcode", "cannot", "picasso inserts", "outside"] {
                assert!(!text.contains(bad), "{at}: \"{bad}\"\n{text}");
            }
            // Blocks balance.
            let opens = text
                .lines()
                .map(str::trim_start)
                .filter(|l| {
                    l.starts_with(".proc ")
                        || l.starts_with("ifc ")
                        || l.starts_with("ifu ")
                        || l.starts_with("for ")
                        || (l.starts_with(".constfa ") && l.contains("[]"))
                })
                .count();
            let ends = text.lines().filter(|l| l.trim() == ".end").count();
            assert_eq!(opens, ends, "{at}\n{text}");
            // Every uniform is declared under its identifier.
            for u in ctx.uniforms {
                let ident: String = u.name.chars().map(|c| if c == '.' { '$' } else { c }).collect();
                let declared = text.lines().any(|l| {
                    let mut w = l.split_whitespace();
                    matches!(w.next(), Some(".in" | ".fvec" | ".ivec" | ".bool"))
                        && w.next().is_some_and(|n| n.split('[').next() == Some(ident.as_str()))
                });
                assert!(declared, "{at}: uniform {} not declared\n{text}", u.name);
            }
            // One .out per output-table entry.
            assert_eq!(text.lines().filter(|l| l.starts_with(".out ")).count(), ctx.outputs.len(), "{at}");
        }
    }
    println!("{dvles} DVLEs listed");
}
