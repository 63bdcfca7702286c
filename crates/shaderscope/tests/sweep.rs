//! A mutation sweep over a fixed sample of every format's corpus: each file is cut at every
//! structure boundary its dump annotations name, has one bit flipped in a sample of its
//! fields, and has its count, offset and size words overwritten with 0, 0x7fffffff and
//! 0xffffffff. Every result must be a parse, or an error naming an offset inside the file;
//! nothing may panic; and every output (listing, dump, info, findings, their JSON) stays
//! within [`FACTOR`] times the input plus [`SLACK`].

mod common;

use shaderscope::dump::Annotations;
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

/// Text output may be at most this many times the input (JSON twice that), plus [`SLACK`].
const FACTOR: usize = 32;
/// The constant part of the bound.
const SLACK: usize = 256 * 1024;
/// Files per format, and the largest file sampled (debug builds are slow).
const PER_FORMAT: usize = 3;
const MAX_SIZE: usize = 24 * 1024;
/// Mutants of each kind per file (spread evenly over the candidates).
const PER_KIND: usize = 48;

/// Every output of `data` must be bounded; returns the largest output/input ratio seen.
fn check(name: &str, data: &[u8]) -> Result<(), String> {
    let bound = |what: &str, len: usize| {
        LARGEST.with(|l| {
            let mut l = l.borrow_mut();
            // By ratio, for inputs past the constant part's reach.
            if len * l.1.max(1) > l.0 * data.len().max(1) && data.len() > 1024 {
                *l = (len, data.len(), what.to_string());
            }
        });
        let factor = if what.ends_with("json") { 2 * FACTOR } else { FACTOR };
        if len > factor * data.len() + SLACK {
            Err(format!("{name}: {what} printed {len} bytes for {} bytes of input", data.len()))
        } else {
            Ok(())
        }
    };
    // The dump works on damaged files too.
    let mut a = Annotations::new();
    let _ = shaderscope::annotate(data, &mut a);
    let mut dump = String::new();
    a.render(data, &mut dump).map_err(|e| format!("{name}: dump: {e}"))?;
    bound("dump", dump.len())?;
    let mut dump_json = String::new();
    a.render_json(data, 0..data.len() as u64, &mut dump_json)
        .map_err(|e| format!("{name}: dump json: {e}"))?;
    bound("dump json", dump_json.len())?;
    let file = match shaderscope::parse(data) {
        Ok(f) => f,
        Err(e) if e.offset() <= data.len() as u64 => return Ok(()),
        Err(e) => {
            return Err(format!(
                "{name}: error names offset 0x{:x} past the end 0x{:x}: {e}",
                e.offset(),
                data.len()
            ));
        }
    };
    let opts = DisasmOptions::default();
    let mut listing = TextBuf::default();
    let _ = file.disasm(&opts, &mut listing);
    bound("disasm", listing.into_string().len())?;
    if let Ok(j) = file.disasm_json(&opts) {
        bound("disasm json", serde_json::to_string(&j).map(|s| s.len()).unwrap_or(0))?;
    }
    let info = file.info_text();
    bound("info", info.len())?;
    bound("info json", file.info_json().get().len())?;
    let findings: usize = file.validate().iter().map(|f| f.message.len() + 40).sum();
    bound("validate", findings)?;
    once_per_offset(name, &file)?;
    for f in file.validate() {
        if f.offset > data.len() as u64 {
            return Err(format!(
                "{name}: finding at 0x{:x} past the end 0x{:x}: {}",
                f.offset,
                data.len(),
                f.message
            ));
        }
    }
    Ok(())
}

/// `validate` says each damage once: where the file has damage (the errors every command
/// reports, [`Container::damage`]), `validate` has as many errors at that offset as there are
/// damages there, no more (a reader's finding and the damage in two wordings were two).
fn once_per_offset(name: &str, file: &shaderscope::File<'_>) -> Result<(), String> {
    let mut damage: BTreeMap<u64, usize> = BTreeMap::new();
    for e in file.damage() {
        *damage.entry(e.offset()).or_default() += 1;
    }
    let reported = file.validation();
    for (&offset, &n) in &damage {
        let said: Vec<&str> = reported
            .iter()
            .filter(|r| r.finding.severity == shaderscope::Severity::Error && r.finding.offset == offset)
            .map(|r| r.finding.message.as_str())
            .collect();
        if said.len() != n {
            return Err(format!(
                "{name}: {} at 0x{offset:x}, validate says: `{}`",
                if n == 1 { "1 damage".to_string() } else { format!("{n} damages") },
                said.join("`, `")
            ));
        }
    }
    Ok(())
}

/// The program chunks `tokens` (version and length tokens first) gives with one instruction
/// made shorter than its operands: its length field set to 1 DWORD and to one DWORD less, the
/// instructions after it dropped and the program's length token set to what is left. (Every
/// declaration, one other instruction in eight.)
fn shortened_instructions(tokens: &[u32]) -> Vec<(String, Vec<u8>)> {
    let (mut declarations, mut starts) = (Vec::new(), Vec::new());
    let mut t = 2;
    while let Some(&tok0) = tokens.get(t) {
        let long = tok0 & 0x7ff == 0x35 || tok0 >> 24 & 0x7f == 0;
        let len = if long {
            tokens.get(t + 1).copied().unwrap_or(0) as usize
        } else {
            (tok0 >> 24 & 0x7f) as usize
        };
        if len == 0 {
            break;
        }
        let declaration =
            shaderscope::sm4::opcodes::info((tok0 & 0x7ff) as u16).is_some_and(|i| i.is_declaration());
        if !long && len > 1 {
            if declaration { &mut declarations } else { &mut starts }.push((t, len));
        }
        t += len;
    }
    let mut out = Vec::new();
    declarations.extend(spread(&starts, starts.len().div_ceil(8)));
    for (t, len) in declarations {
        for short in [1, len - 1] {
            let mut v = tokens[..t + short].to_vec();
            v[t] = v[t] & !(0x7f << 24) | (short as u32) << 24;
            v[1] = v.len() as u32;
            let bytes = v.iter().flat_map(|w| w.to_le_bytes()).collect();
            out.push((format!("instruction at token {t} cut to {short} of {len} DWORDs"), bytes));
        }
    }
    out
}

/// Every chunk of a sample of the corpus's DXBC containers cut short (at token boundaries
/// spread over it; a program with its length token set to the cut too, so that the cut falls
/// inside an instruction rather than before the stream's stated end), and programs with an
/// instruction whose length field leaves out some of its operands or declared values
/// ([`shortened_instructions`]), each in an otherwise whole container with a right checksum:
/// `validate` names each damage once.
#[test]
fn validate_names_each_damage_of_a_cut_chunk_once() {
    use shaderscope::dxbc::{Dxbc, write::ChecksumPolicy};
    let Some(corpus) = common::corpus_dir() else { return };
    let mut paths = Vec::new();
    let mut stack = vec![corpus.join("dxbc")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    let (mut failures, mut count) = (Vec::new(), 0usize);
    for path in spread(&paths, 40) {
        let data = std::fs::read(&path).unwrap();
        let Ok(d) = Dxbc::parse(&data) else { continue };
        let name = path.strip_prefix(&corpus).unwrap_or(&path).display().to_string();
        for (i, c) in d.chunks().iter().enumerate() {
            let program = matches!(&c.fourcc.0, b"SHDR" | b"SHEX");
            let cuts: Vec<usize> = (0..c.data.len() / 4).map(|k| 4 * k).collect();
            let mut variants = Vec::new();
            for cut in spread(&cuts, 48) {
                variants.push((format!("cut at 0x{cut:x}"), c.data[..cut].to_vec()));
                if program && cut >= 8 {
                    let mut bytes = c.data[..cut].to_vec();
                    bytes[4..8].copy_from_slice(&(cut as u32 / 4).to_le_bytes());
                    variants.push((format!("cut at 0x{cut:x}, length token too"), bytes));
                }
            }
            if program {
                let tokens = common::le_words(c.data);
                variants.extend(shortened_instructions(&tokens));
            }
            for (what, bytes) in variants {
                let mut b = d.to_builder();
                b.chunks[i].data = bytes.into();
                b.checksum = ChecksumPolicy::Compute;
                let Ok(mutant) = b.finish() else { continue };
                count += 1;
                if let Ok(file) = shaderscope::parse(&mutant) {
                    failures.extend(once_per_offset(&format!("{name}: {} {what}", c.fourcc), &file).err());
                }
            }
        }
    }
    println!("{count} containers with a cut chunk");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

thread_local! {
    /// The largest output for its input (over 1 KiB) seen: (its bytes, the input's bytes,
    /// which output).
    static LARGEST: std::cell::RefCell<(usize, usize, String)> = const { std::cell::RefCell::new((0, 0, String::new())) };
}

/// `n` items spread evenly over `v` (all of them when there are fewer).
fn spread<T: Clone>(v: &[T], n: usize) -> Vec<T> {
    if v.len() <= n {
        return v.to_vec();
    }
    (0..n).filter_map(|k| v.get(k * v.len() / n).cloned()).collect()
}

/// A format's files up to `MAX_SIZE`, and its smallest larger one (size, path).
type Candidates = (Vec<PathBuf>, Option<(usize, PathBuf)>);

/// The sample: per detected format, `PER_FORMAT` files spread over the sorted list of those
/// no larger than `MAX_SIZE` that parse (for a format with none, its smallest file up to
/// eight times that).
fn sample(corpus: &std::path::Path) -> BTreeMap<&'static str, Vec<PathBuf>> {
    let mut all = Vec::new();
    let mut stack = vec![corpus.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(m) = e.metadata().map(|m| m.len() as usize)
                && m > 0
                && m <= 8 * MAX_SIZE
            {
                all.push((m, p));
            }
        }
    }
    all.sort_by(|a, b| a.1.cmp(&b.1));
    // Per format: the files up to MAX_SIZE, or (a format with none) its smallest one.
    let mut by: BTreeMap<&'static str, Candidates> = BTreeMap::new();
    for (size, p) in all {
        let Ok(data) = std::fs::read(&p) else { continue };
        if let Some(f) = shaderscope::detect::detect(&data).filter(|_| shaderscope::parse(&data).is_ok()) {
            let (small, smallest) = by.entry(f.name()).or_default();
            if size <= MAX_SIZE {
                small.push(p);
            } else if smallest.as_ref().is_none_or(|(s, _)| size < *s) {
                *smallest = Some((size, p));
            }
        }
    }
    by.into_iter()
        .map(|(f, (small, smallest))| {
            let v = if small.is_empty() { smallest.map(|s| vec![s.1]).unwrap_or_default() } else { small };
            (f, spread(&v, PER_FORMAT))
        })
        .collect()
}

/// The mutants of `data`: (what was done, bytes).
fn mutants(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut a = Annotations::new();
    let _ = shaderscope::annotate(data, &mut a);
    let len = data.len() as u64;
    let mut bounds = BTreeSet::new();
    for (r, _) in a.sections().chain(a.fields()) {
        bounds.insert(r.start.min(len));
        bounds.insert(r.end.min(len));
    }
    let bounds: Vec<u64> = bounds.into_iter().filter(|&b| b < len).collect();
    let fields: Vec<(std::ops::Range<u64>, String)> =
        a.fields().map(|(r, t)| (r, t.to_lowercase())).collect();
    let mut out = Vec::new();
    for b in spread(&bounds, PER_KIND) {
        out.push((format!("cut at 0x{b:x}"), data.get(..b as usize).unwrap_or(data).to_vec()));
    }
    let starts: Vec<u64> = fields.iter().map(|(r, _)| r.start).filter(|&s| s < len).collect();
    for (k, s) in spread(&starts, PER_KIND).into_iter().enumerate() {
        let bit = (k * 5 + 3) % 8;
        let mut v = data.to_vec();
        if let Some(b) = v.get_mut(s as usize) {
            *b ^= 1 << bit;
        }
        out.push((format!("bit {bit} of 0x{s:x} flipped"), v));
    }
    let words: Vec<u64> = fields
        .iter()
        .filter(|(r, t)| {
            r.end - r.start == 4
                && r.end <= len
                && ["count", "offset", "size", "entries", "length", "number"].iter().any(|w| t.contains(w))
        })
        .map(|(r, _)| r.start)
        .collect();
    for s in spread(&words, PER_KIND) {
        for value in [0u32, 0x7fff_ffff, 0xffff_ffff] {
            let mut v = data.to_vec();
            // Both byte orders' extremes are the same bytes except 0x7fffffff: write both.
            for (order, bytes) in [("le", value.to_le_bytes()), ("be", value.to_be_bytes())] {
                if order == "be" && value != 0x7fff_ffff {
                    continue;
                }
                if let Some(w) = v.get_mut(s as usize..s as usize + 4) {
                    w.copy_from_slice(&bytes);
                }
                out.push((format!("word at 0x{s:x} set to 0x{value:x} ({order})"), v.clone()));
            }
        }
    }
    out
}

#[test]
fn mutated_corpus_files_parse_or_fail_at_an_offset_without_panic_or_unbounded_output() {
    let Some(corpus) = common::corpus_dir() else { return };
    let started = std::time::Instant::now();
    let sample = sample(&corpus);
    let mut failures = Vec::new();
    let mut count = 0usize;
    for (format, files) in &sample {
        for path in files {
            let data = std::fs::read(path).unwrap();
            let name = path.strip_prefix(&corpus).unwrap_or(path).display().to_string();
            for (what, bytes) in mutants(&data) {
                count += 1;
                let label = format!("{name} ({format}): {what}");
                match catch_unwind(AssertUnwindSafe(|| check(&label, &bytes))) {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => failures.push(e),
                    Err(_) => failures.push(format!("{label}: panicked")),
                }
            }
        }
    }
    let (out, input, what) = LARGEST.with(|l| l.borrow().clone());
    println!("largest output for its input: {what}, {out} bytes for {input} bytes");
    let formats: Vec<&str> = sample.keys().copied().collect();
    println!(
        "{count} mutants of {} files ({}) in {:?}",
        sample.values().map(Vec::len).sum::<usize>(),
        formats.join(", "),
        started.elapsed()
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
