//! The `text` of every `disasm --json` instruction record is that instruction's text in the
//! listing printed with the same configuration: the listing's lines of the instruction (the
//! lines announced with its offset), without the offset, numbering and raw columns and the
//! comments (what the printers style [`Style::Address`] and [`Style::Comment`]), without the
//! white space around it. Over every corpus file of every format, under every listing switch,
//! and for the program of each DXBC and Direct3D 9 file read bare (`disasm --format sm4|d3d9`).

mod common;

use shaderscope::Generation;
use shaderscope::bare::{Bare, Isa};
use shaderscope::print::{Printer, Style};
use shaderscope::{Container, DisasmOptions};
use std::collections::HashMap;
use std::fmt;

/// A listing's lines as a record sees them: each line's offset and its text without the
/// address and comment columns.
#[derive(Default)]
struct Lines {
    lines: Vec<(Option<u64>, String)>,
    style: Option<Style>,
}

impl Lines {
    /// The text of the instruction whose record is `r`: the next line announced with its
    /// offset that shows anything (a Direct3D 9 `#line` comment before it shows nothing),
    /// after the lines earlier records at that offset took, and as many lines as the record's
    /// text has (an immediate constant buffer's rows follow on lines of their own offsets),
    /// trimmed. Records at one offset take its lines in order: a Mali GP instruction's slots
    /// are one record and one line each, and the DVLEs of one DVLB list the same code one
    /// after the other.
    fn instruction(&self, index: &mut Index, r: &shaderscope::isa::InstructionRecord) -> Option<String> {
        let (positions, next) = index.get_mut(&r.offset)?;
        let shows = |i: usize| self.lines.get(i).is_some_and(|l| !l.1.trim().is_empty());
        let k = (*next..positions.len()).find(|&k| positions.get(k).is_some_and(|&i| shows(i)))?;
        let start = *positions.get(k)?;
        let n = r.text.lines().count().max(1);
        *next = positions.partition_point(|&i| i < start + n);
        let text: String = self.lines.iter().skip(start).take(n).map(|l| l.1.as_str()).collect();
        Some(text.trim().to_string())
    }

    /// The lines announced with each offset, in order, and how many of them records took.
    fn index(&self) -> Index {
        let mut out = Index::new();
        for (i, (offset, _)) in self.lines.iter().enumerate() {
            if let Some(o) = offset {
                out.entry(*o).or_default().0.push(i);
            }
        }
        out
    }
}

/// For each offset, the listing lines announced with it and the first one no record took.
type Index = HashMap<u64, (Vec<usize>, usize)>;

impl fmt::Write for Lines {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if matches!(self.style, Some(Style::Address | Style::Comment)) {
            return Ok(());
        }
        if self.lines.is_empty() {
            self.lines.push((None, String::new()));
        }
        if let Some((_, text)) = self.lines.last_mut() {
            text.push_str(s);
        }
        Ok(())
    }
}

impl Printer for Lines {
    fn start_line(&mut self, offset: Option<u64>) {
        self.lines.push((offset, String::new()));
    }
    fn style(&mut self, style: Style) {
        self.style = Some(style);
    }
    fn reset(&mut self) {
        self.style = None;
    }
}

/// Every listing switch alone, each fxc generation, and all of fxc's switches at once.
fn configs() -> Vec<(String, DisasmOptions)> {
    let base = DisasmOptions::default;
    let mut v = vec![
        ("default".to_string(), base()),
        ("--offsets".into(), base().with_offsets(true)),
        ("--file-offsets".into(), base().with_file_offsets(true)),
        ("--raw".into(), base().with_raw(true)),
        ("--numbering".into(), base().with_numbering(true)),
        ("--hex-literals".into(), base().with_hex_literals(true)),
        ("--exact-floats".into(), base().with_exact_floats(true)),
        ("--no-header".into(), base().with_no_header(true)),
        ("--instruction-only".into(), base().with_instruction_only(true)),
        ("--fxc 10-legacy-crt".into(), base().with_generation(Generation::Fxc10).with_legacy_crt(true)),
        (
            "all".into(),
            base()
                .with_offsets(true)
                .with_raw(true)
                .with_numbering(true)
                .with_hex_literals(true)
                .with_exact_floats(true),
        ),
    ];
    for g in [Generation::Fxc9_29, Generation::Fxc9_30, Generation::Fxc6_3, Generation::Fxc10] {
        v.push((format!("--fxc {}", g.name()), base().with_generation(g)));
        v.push((
            format!("--fxc {} --hex-literals", g.name()),
            base().with_generation(g).with_hex_literals(true),
        ));
    }
    v
}

/// Counts of one comparison: records whose text is their listing lines', records of
/// instructions the listing does not show (a level-9 program under `--no-header`), and the
/// records that differ, described.
#[derive(Default)]
struct Tally {
    same: usize,
    unlisted: usize,
    differ: Vec<String>,
}

impl Tally {
    fn compare<'r>(
        &mut self,
        what: &str,
        lines: &Lines,
        records: impl Iterator<Item = &'r shaderscope::isa::InstructionRecord>,
    ) {
        let mut index = lines.index();
        for r in records {
            match lines.instruction(&mut index, r) {
                None => self.unlisted += 1,
                Some(text) if text == r.text => self.same += 1,
                // A Latte line may go on with the fields its text does not carry
                // (` ; SRC0_CHAN(1)`): a note for the assembler, not the instruction's text.
                Some(text)
                    if text.strip_prefix(r.text.as_str()).is_some_and(|rest| rest.starts_with(" ; ")) =>
                {
                    self.same += 1
                }
                Some(text) => self
                    .differ
                    .push(format!("{what} at {:#x}: record {:?}, listing {:?}", r.offset, r.text, text)),
            }
        }
    }
}

/// Compare the records of `file` (read from `name`) with its listing under each of `configs`
/// that applies to it (the switches a front end refuses for its format are left out).
fn compare_file(
    name: &str,
    file: &shaderscope::File<'_>,
    configs: &[(String, DisasmOptions)],
    tally: &mut Tally,
    per_switch: &mut HashMap<String, usize>,
) {
    for (switches, config) in configs {
        if config.check(file).is_err() {
            continue;
        }
        let mut lines = Lines::default();
        // A damaged file lists what it can: that is compared too.
        let _ = file.disasm(config, &mut lines);
        let Ok(json) = file.disasm_json(config) else { continue };
        let before = tally.same;
        let records = json.programs.iter().flat_map(|p| p.instructions.iter());
        tally.compare(&format!("{name} {switches}"), &lines, records);
        *per_switch.entry(switches.clone()).or_default() += tally.same - before;
        // The program read bare, as `disasm --format` reads an extracted one.
        let bare = match file.format() {
            shaderscope::Format::Dxbc => {
                ["SHDR", "SHEX"].iter().find_map(|p| file.part(p).ok()).map(|p| (Isa::Sm4, p))
            }
            shaderscope::Format::D3d9 => file.part("program").ok().map(|p| (Isa::D3d9, p)),
            _ => None,
        };
        if let Some((isa, part)) = bare.filter(|(isa, _)| config.check_bare(*isa).is_ok()) {
            let program = Bare::new(isa, &part.bytes).at(part.offset);
            let mut lines = Lines::default();
            let _ = program.disasm(config, &mut lines);
            if let Ok(records) = program.records(config) {
                tally.compare(&format!("{name} as bare {isa} {switches}"), &lines, records.iter());
            }
        }
    }
}

#[test]
fn record_text_is_the_listing_text_under_every_switch() {
    let Some(corpus) = common::corpus_dir() else { return };
    let kinds = [
        "dxbc-binary",
        "d3dbc-binary",
        "dxbc-container-noshader",
        "dxil-container",
        "shbin",
        "gsh",
        "mbs",
        "sharcfb",
    ];
    let configs = configs();
    let files: Vec<_> = common::files_of(&corpus, &kinds).collect();
    // The files are dealt out between the cores, one each in turn: each compares its share.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let results: Vec<(Tally, HashMap<String, usize>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|k| {
                let (configs, files) = (&configs, &files);
                scope.spawn(move || {
                    let (mut tally, mut per_switch) = (Tally::default(), HashMap::new());
                    for (_, path, bytes) in files.iter().skip(k).step_by(threads) {
                        if let Ok(file) = shaderscope::parse(bytes) {
                            compare_file(
                                &path.display().to_string(),
                                &file,
                                configs,
                                &mut tally,
                                &mut per_switch,
                            );
                        }
                    }
                    (tally, per_switch)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a comparing thread panicked")).collect()
    });
    let mut tally = Tally::default();
    let mut per_switch: HashMap<String, usize> = HashMap::new();
    for (t, p) in results {
        tally.same += t.same;
        tally.unlisted += t.unlisted;
        tally.differ.extend(t.differ);
        for (k, n) in p {
            *per_switch.entry(k).or_default() += n;
        }
    }
    println!("{} records the same, {} of unlisted instructions", tally.same, tally.unlisted);
    let shown: Vec<&String> = tally.differ.iter().take(12).collect();
    assert!(
        tally.differ.is_empty(),
        "{} records differ from their listing text:\n{shown:#?}",
        tally.differ.len()
    );
    for (switches, _) in &configs {
        let n = per_switch.get(switches.as_str()).copied().unwrap_or(0);
        assert!(n > 20_000, "{switches}: only {n} records compared");
    }
}
