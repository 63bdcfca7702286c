//! fxc's listing switches (`/Ni` numbering, `/No` offsets, `/Lx` hexadecimal literals,
//! instruction-only, no header), file offsets, and bare programs, over every corpus file.
//!
//! The layouts follow public fxc listings (3Dmigoto ShaderFixes dumps made with `/Ni /No`,
//! Unity's `/Ni` view): with `/No` every SM4 line starts `0x%08X: ` (upper case, from the
//! version token); with `/Ni` an SM4 instruction starts with its number from 0 in four columns
//! and `: ` (two spaces before an offset), a declaration and the version line with six spaces;
//! a Direct3D 9 instruction shows the arithmetic slots used before it, its version line stays
//! bare. The exact text of hand-made programs is checked in the `sm4` and `d3d9` unit tests;
//! here every corpus listing must follow the rules, and switching them on must change nothing
//! but the prefix (or the literals).

mod common;

use shaderscope::bare::{self, Bare, Isa};
use shaderscope::format::dxbc::Dxbc;
use shaderscope::isa::{d3d9, sm4};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions, File};

fn listing(file: &dyn Container, opts: &DisasmOptions) -> String {
    let mut out = TextBuf::default();
    file.disasm(opts, &mut out).unwrap();
    out.into_string()
}

/// A line's prefix: `(number column, offset)`, where the number column is `None` for six
/// spaces and the offset `None` when there is no offset column. `numbered` says whether the
/// numbering column is expected.
fn split_prefix(line: &str, numbered: bool, offsets: bool) -> Option<(Option<u64>, Option<u64>, &str)> {
    let (number, rest) = if numbered {
        let (col, rest) = (line.get(..6)?, line.get(6..)?);
        if col == "      " {
            (None, rest)
        } else {
            let sep = if offsets { "  " } else { ": " };
            let digits = col.strip_suffix(sep)?.trim_start();
            (Some(digits.parse().ok()?), rest)
        }
    } else {
        (None, line)
    };
    if !offsets {
        return Some((number, None, rest));
    }
    let hex = rest.strip_prefix("0x")?;
    let (digits, text) = (hex.get(..8)?, hex.get(8..)?.strip_prefix(": ")?);
    if digits.bytes().any(|b| b.is_ascii_lowercase()) {
        return None;
    }
    Some((number, Some(u64::from_str_radix(digits, 16).ok()?), text))
}

/// What one line of a listing with the switches says, against the same line without them.
#[derive(Debug, PartialEq)]
enum Kind {
    /// The same text (comment tables, blank lines, `#line`, continuation rows).
    Same,
    /// A prefixed program line: the number column (if numbered) and the offset (if shown).
    Program { number: Option<u64>, offset: Option<u64> },
}

/// Pair the lines of `switched` with those of `plain`: each must be the same or the plain
/// line behind a well-formed prefix.
fn classify(plain: &str, switched: &str, numbering: bool, offsets: bool, what: &str) -> Vec<(Kind, String)> {
    let (p, s): (Vec<&str>, Vec<&str>) = (plain.lines().collect(), switched.lines().collect());
    assert_eq!(p.len(), s.len(), "{what}: line counts differ");
    p.iter()
        .zip(&s)
        .map(|(p, s)| {
            if p == s {
                return (Kind::Same, p.to_string());
            }
            let (number, offset, rest) = split_prefix(s, numbering, offsets)
                .unwrap_or_else(|| panic!("{what}: malformed prefix in {s:?}"));
            assert_eq!(rest, *p, "{what}: the switched line is not the plain one behind its prefix");
            (Kind::Program { number, offset }, p.to_string())
        })
        .collect()
}

fn is_sm4_version(text: &str) -> bool {
    ["ps_", "vs_", "gs_", "hs_", "ds_", "cs_"].iter().any(|p| text.starts_with(p)) && !text.contains(' ')
}

/// SM4 rules: the version line and declarations (and hull-shader phase marks) unnumbered,
/// every other line numbered 0, 1, 2, …; offsets those of the records, from the version token.
fn check_sm4(
    lines: &[(Kind, String)],
    records: &[shaderscope::InstructionRecord],
    base: u64,
    numbering: bool,
    what: &str,
) {
    let program: Vec<(&Option<u64>, &Option<u64>, &str)> = lines
        .iter()
        .filter_map(|(k, t)| match k {
            Kind::Program { number, offset } => Some((number, offset, t.as_str())),
            Kind::Same => None,
        })
        .collect();
    let (first, rest) = program.split_first().unwrap_or_else(|| panic!("{what}: no program lines"));
    assert!(is_sm4_version(first.2), "{what}: {first:?}");
    assert_eq!((*first.0, first.1.unwrap_or(0)), (None, 0), "{what}: version line");
    assert_eq!(rest.len(), records.len(), "{what}: one prefixed line per record");
    let mut next = 0;
    for ((number, offset, text), r) in rest.iter().zip(records) {
        let text = text.trim_start();
        let declaration = text.starts_with("dcl_") || text.starts_with("hs_");
        match number {
            Some(n) => {
                assert!(!declaration, "{what}: numbered declaration {text}");
                assert_eq!(*n, next, "{what}: {text}");
                next += 1;
            }
            None => assert!(declaration || !numbering, "{what}: unnumbered instruction {text}"),
        }
        if let Some(o) = offset {
            assert_eq!(*o, r.offset - base, "{what}: {text}");
        }
    }
}

/// Direct3D 9 rules: the version line bare, declarations unnumbered, each instruction the
/// arithmetic slots used before it; the count after the last is the statistics line's.
fn check_d3d9(lines: &[(Kind, String)], program: &d3d9::Program<'_>, numbering: bool, what: &str) -> usize {
    let prefixed: Vec<(&Option<u64>, &Option<u64>, &str)> = lines
        .iter()
        .filter_map(|(k, t)| match k {
            Kind::Program { number, offset } => Some((number, offset, t.as_str())),
            Kind::Same => None,
        })
        .collect();
    let instructions: Vec<&d3d9::Instruction> = program.instructions().collect();
    assert_eq!(prefixed.len(), instructions.len(), "{what}: one prefixed line per instruction");
    let mut slots = 0u64;
    for ((number, offset, text), ins) in prefixed.iter().zip(&instructions) {
        let declaration = ins.info.is_some_and(|i| {
            matches!(
                i.form,
                d3d9::opcodes::Form::Dcl
                    | d3d9::opcodes::Form::Def
                    | d3d9::opcodes::Form::DefI
                    | d3d9::opcodes::Form::DefB
            )
        });
        assert_eq!(**number, (numbering && !declaration).then_some(slots), "{what}: {text}");
        if let Some(o) = offset {
            assert_eq!(*o, ins.offset - program.base, "{what}: {text}");
        }
        if let Some(info) = ins.info {
            let (total, texture) = info.slots.in_version(program.version);
            slots += u64::from(total - texture);
        }
    }
    assert_eq!(
        slots,
        u64::from(program.slots().arithmetic()),
        "{what}: the count ends at the statistics line's"
    );
    prefixed.len()
}

/// The literal values of a line (inside `l(…)`, `d(…)`, the rows of an immediate constant
/// buffer and the values of `def`/`defi`) replaced by `#`, and the values themselves.
fn literals(line: &str) -> (String, Vec<String>) {
    let mut skeleton = String::new();
    let mut values = Vec::new();
    let trimmed = line.trim_start();
    let def = trimmed.starts_with("def ") || trimmed.starts_with("defi ");
    if def {
        let mut parts = line.split(", ");
        skeleton.push_str(parts.next().unwrap_or(""));
        for v in parts {
            skeleton.push_str(", #");
            values.push(v.to_string());
        }
        return (skeleton, values);
    }
    let icb = trimmed.starts_with("dcl_immediateConstantBuffer") || trimmed.starts_with("{ ");
    let mut rest = line;
    while let Some(open) = literal_start(rest, icb) {
        let close = rest[open..].find(['}', ')']).map(|c| open + c).unwrap_or(rest.len());
        skeleton.push_str(&rest[..open]);
        skeleton.push('#');
        values.extend(rest[open..close].split(',').map(|v| v.trim().to_string()));
        rest = &rest[close..];
    }
    skeleton.push_str(rest);
    (skeleton, values)
}

/// Where the values of the next literal start: after `l(` or `d(` (not the end of a name such
/// as `sample_l(`), or after the `{ ` of an immediate constant buffer's row.
fn literal_start(rest: &str, icb: bool) -> Option<usize> {
    if icb && let Some(i) = rest.find("{ ") {
        let mut at = i + 2;
        while rest[at..].starts_with("{ ") {
            at += 2;
        }
        return Some(at);
    }
    let b = rest.as_bytes();
    let name = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    (1..b.len())
        .find(|&i| b[i] == b'(' && matches!(b[i - 1], b'l' | b'd') && (i < 2 || !name(b[i - 2])))
        .map(|i| i + 1)
}

/// `/Lx` changes nothing but the literal values, each now `0x` and 8 (or 16) hex digits.
fn check_hex(plain: &str, hex: &str, what: &str) {
    let (p, h): (Vec<&str>, Vec<&str>) = (plain.lines().collect(), hex.lines().collect());
    assert_eq!(p.len(), h.len(), "{what}");
    for (p, h) in p.iter().zip(&h) {
        if p == h {
            continue;
        }
        let (ps, pv) = literals(p);
        let (hs, hv) = literals(h);
        assert_eq!(ps, hs, "{what}: only literals may change\n{p}\n{h}");
        assert_eq!(pv.len(), hv.len(), "{what}: {h}");
        for v in &hv {
            let digits = v.strip_prefix("0x").unwrap_or_else(|| panic!("{what}: {v} in {h}"));
            assert!(
                matches!(digits.len(), 8 | 16)
                    && digits.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
                "{what}: {v} in {h}"
            );
        }
    }
}

/// Every DXBC binary of the corpus: numbering and offsets (SM4 program and level-9 program),
/// file offsets, hexadecimal literals, no header, instruction only, and the program as a bare
/// SM4 token stream (as `extract` writes it, and as a byte range of the container).
#[test]
fn dxbc_listings_follow_fxc_switches_and_bare_programs_match() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut checked = (0, 0, 0);
    for row in common::manifest(&corpus, "dxbc") {
        if row.kind != "dxbc-binary" {
            continue;
        }
        let what = row.path.as_str();
        let data = std::fs::read(corpus.join("dxbc").join(what)).unwrap();
        let Ok(d) = Dxbc::parse(&data) else { continue };
        let Some(program) = d.program else { continue };
        if !d.chunk_errors.is_empty() {
            continue;
        }
        let base = program.chunk.data_offset() as u64;
        let Ok(p) = sm4::Program::parse(program.chunk.data, base) else { continue };
        let generation = d.generation().0;
        let fxc_of_file = DisasmOptions::default().with_generation(generation);
        let plain = listing(&d, &DisasmOptions::default());
        let no = listing(&d, &DisasmOptions::default().with_offsets(true));
        let ni = listing(&d, &DisasmOptions::default().with_numbering(true));
        let both = listing(&d, &DisasmOptions::default().with_offsets(true).with_numbering(true));
        let style = sm4::ListingStyle::default();
        let records = sm4::records(&p, &style).unwrap();

        // The SM4 part is everything from its version line on; a level-9 program comes before.
        for (switched, numbering, offsets) in [(&no, false, true), (&ni, true, false), (&both, true, true)] {
            let lines = classify(&plain, switched, numbering, offsets, what);
            let sm4_at = lines
                .iter()
                .position(|(k, t)| matches!(k, Kind::Program { .. }) && is_sm4_version(t))
                .unwrap_or_else(|| panic!("{what}: no SM4 version line"));
            check_sm4(&lines[sm4_at..], &records, base, numbering, what);
            if let Some(a) = &d.aon9
                && let Ok(l9) = d3d9::Program::parse(a.program, a.program_position() as u64)
            {
                check_d3d9(&lines[..sm4_at], &l9, numbering, what);
                checked.2 += 1;
            }
        }

        // File offsets: the /No layout, each offset moved by where its program sits.
        let file = listing(&d, &DisasmOptions::default().with_file_offsets(true).with_numbering(true));
        let (b, f): (Vec<&str>, Vec<&str>) = (both.lines().collect(), file.lines().collect());
        let l9_base = d.aon9.as_ref().map(|a| a.program_position() as u64);
        let mut in_sm4 = false;
        for (b, f) in b.iter().zip(&f) {
            if b == f {
                continue;
            }
            let (nb, ob, tb) = split_prefix(b, true, true).unwrap();
            let (nf, of, tf) = split_prefix(f, true, true).unwrap();
            in_sm4 |= is_sm4_version(tb);
            let shift = if in_sm4 { base } else { l9_base.unwrap_or(0) };
            assert_eq!((nb, tb), (nf, tf), "{what}");
            assert_eq!(ob.unwrap() + shift, of.unwrap(), "{what}: {tb}");
        }

        // Hexadecimal literals.
        let hex = listing(&d, &DisasmOptions::default().with_hex_literals(true));
        check_hex(&plain, &hex, what);

        // No header: the listing from the SM4 version line on; instructions only: without the
        // statistics line too.
        let no_header = listing(&d, &DisasmOptions::default().with_no_header(true));
        let version_line = format!("\n{}\n", plain.lines().find(|l| is_sm4_version(l)).unwrap());
        let from = plain.find(&version_line).map(|i| i + 1).unwrap_or(0);
        assert_eq!(no_header, plain[from..], "{what}: --no-header");
        let only = listing(&d, &DisasmOptions::default().with_instruction_only(true));
        let footer = no_header.lines().last().unwrap();
        assert!(footer.starts_with("// Approximately "), "{what}: {footer}");
        assert_eq!(only, no_header[..no_header.len() - footer.len() - 1], "{what}: --instruction-only");

        // The program as a bare token stream: extracted (offsets from 0 = from the version
        // token, as fxc's /No counts) and as the container's byte range (file offsets).
        let o = fxc_of_file.clone().with_instruction_only(true);
        let extracted = Bare::new(Isa::Sm4, program.chunk.data);
        let mut text = TextBuf::default();
        extracted.disasm(&o, &mut text).unwrap();
        assert_eq!(text.as_str(), listing(&d, &o), "{what}: bare SM4");
        let no_o = o.clone().with_offsets(true);
        let mut text = TextBuf::default();
        extracted.disasm(&no_o, &mut text).unwrap();
        assert_eq!(text.as_str(), listing(&d, &no_o), "{what}: bare SM4 with offsets");
        let end = base + program.chunk.data.len() as u64;
        let (bytes, at) = bare::select(&data, Some(base), Some(end)).unwrap();
        let ranged = Bare::new(Isa::Sm4, bytes).at(at);
        let file_o = o.clone().with_file_offsets(true);
        let mut text = TextBuf::default();
        ranged.disasm(&file_o, &mut text).unwrap();
        assert_eq!(text.as_str(), listing(&d, &file_o), "{what}: bare SM4 range with file offsets");
        assert_eq!(ranged.records(&o).unwrap(), sm4::records(&p, &sm4_style(&d)).unwrap(), "{what}: records");
        checked.0 += 1;
    }
    println!("{} DXBC listings checked, {} level-9 programs", checked.0, checked.2 / 3);
    assert!(checked.0 > 1000, "{checked:?}");
}

/// The SM4 style a DXBC listing of `d` uses (no switches).
fn sm4_style(d: &Dxbc<'_>) -> sm4::ListingStyle {
    match d.generation().0 {
        shaderscope::format::dxbc::Generation::Fxc9_29 => sm4::ListingStyle::FXC_9_29,
        shaderscope::format::dxbc::Generation::Fxc10 => sm4::ListingStyle::FXC_10,
        _ => sm4::ListingStyle::FXC_9_30,
    }
}

/// Every standalone Direct3D 9 program of the corpus: the same rules, and the file as a bare
/// token stream gives the same listing.
#[test]
fn d3d9_listings_follow_fxc_switches_and_bare_programs_match() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut checked = 0;
    for row in common::manifest(&corpus, "dxbc") {
        if row.kind != "d3dbc-binary" {
            continue;
        }
        let what = row.path.as_str();
        let data = std::fs::read(corpus.join("dxbc").join(what)).unwrap();
        let Ok(File::D3d9(file)) = shaderscope::parse(&data) else { continue };
        let p = d3d9::Program::parse(&data, 0).unwrap();
        let plain = listing(&file, &DisasmOptions::default());
        for (o, numbering, offsets) in [
            (DisasmOptions::default().with_offsets(true), false, true),
            (DisasmOptions::default().with_numbering(true), true, false),
            (DisasmOptions::default().with_offsets(true).with_numbering(true), true, true),
            (DisasmOptions::default().with_file_offsets(true).with_numbering(true), true, true),
        ] {
            let switched = listing(&file, &o);
            let lines = classify(&plain, &switched, numbering, offsets, what);
            check_d3d9(&lines, &p, numbering, what);
        }
        let hex = listing(&file, &DisasmOptions::default().with_hex_literals(true));
        check_hex(&plain, &hex, what);
        let no_header = listing(&file, &DisasmOptions::default().with_no_header(true));
        // (fxc 9.30 glues a lone `/` before the version line.)
        let from = plain.find("    vs_").or_else(|| plain.find("    ps_")).unwrap_or(0);
        assert_eq!(no_header, plain[from..], "{what}: --no-header");
        let only = listing(&file, &DisasmOptions::default().with_instruction_only(true));
        assert!(
            no_header.starts_with(&only) && no_header[only.len()..].starts_with("\n// approximately "),
            "{what}"
        );
        for o in
            [DisasmOptions::default(), DisasmOptions::default().with_file_offsets(true).with_numbering(true)]
        {
            let mut text = TextBuf::default();
            Bare::new(Isa::D3d9, &data).disasm(&o, &mut text).unwrap();
            assert_eq!(text.as_str(), listing(&file, &o), "{what}: bare D3D9");
        }
        checked += 1;
    }
    println!("{checked} Direct3D 9 listings checked");
    assert!(checked >= 10);
}

/// Every SHBIN of the corpus: `--file-offsets` is its offset column, and the shared code blob
/// as bare PICA200 words (with the operand-descriptor table `extract` gives) shows every
/// instruction of every DVLE at the same offset, with the same word and mnemonic; without the
/// table it still lists every word.
#[test]
fn shbin_code_blobs_as_bare_pica_match_the_dvle_listings() {
    let Some(corpus) = common::corpus_dir() else { return };
    let mut checked = 0;
    for row in common::manifest(&corpus, "shbin") {
        if row.kind != "shbin" {
            continue;
        }
        let what = row.path.as_str();
        let data = std::fs::read(corpus.join("shbin").join(what)).unwrap();
        let Ok(file) = shaderscope::parse(&data) else { continue };
        assert_eq!(
            listing(&file, &DisasmOptions::default().with_file_offsets(true)),
            listing(&file, &DisasmOptions::default().with_offsets(true)),
            "{what}"
        );
        let File::Shbin(s) = &file else { continue };
        let (Ok(code), Ok(table)) = (file.part("code"), file.part("opdescs")) else { continue };
        let opdescs = bare::opdesc_table(&table.bytes, table.offset).unwrap();
        let program = Bare::new(Isa::Pica, &code.bytes).at(code.offset).with_opdescs(opdescs);
        let records = program.records(&DisasmOptions::default()).unwrap();
        // What the DVLE listings show, the bare listing shows at the same offset: as an
        // instruction of its procedures, or among the words they do not run.
        let mut matched = 0;
        for dvle in s.dvles() {
            for r in dvle.records() {
                if let Some(b) = records.iter().find(|b| b.offset == r.offset) {
                    assert_eq!((&b.words, &b.mnemonic), (&r.words, &r.mnemonic), "{what}: 0x{:x}", r.offset);
                    matched += 1;
                }
            }
        }
        assert!(matched > 0, "{what}");
        let bare_text = {
            let mut t = TextBuf::default();
            let o = DisasmOptions::default().with_file_offsets(true);
            Bare::new(Isa::Pica, &code.bytes).at(code.offset).disasm(&o, &mut t).unwrap();
            t.into_string()
        };
        assert!(bare_text.starts_with("; no operand descriptors"), "{what}");
        // Each word once, at its file offset: in a procedure (`; 0x000034` at the end), or
        // commented out with its word address (`;   0x00d  4e000000  mov …`).
        let mut shown: Vec<u64> = bare_text
            .lines()
            .filter_map(|l| match l.strip_prefix(";   0x") {
                Some(w) => {
                    w.get(..3).and_then(|a| u64::from_str_radix(a, 16).ok()).map(|a| code.offset + 4 * a)
                }
                None => l.rsplit_once("; 0x").and_then(|(_, o)| u64::from_str_radix(o, 16).ok()),
            })
            .collect();
        shown.sort_unstable();
        let words: Vec<u64> = (0..code.bytes.len() as u64 / 4).map(|k| code.offset + 4 * k).collect();
        assert_eq!(shown, words, "{what}: one line per word");
        checked += 1;
    }
    println!("{checked} SHBIN code blobs checked");
    assert!(checked > 50);
}
