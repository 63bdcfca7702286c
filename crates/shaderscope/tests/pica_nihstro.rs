//! Agreement with nihstro-disassemble: every instruction line of every reference listing in
//! `corpus/shbin/reference/nihstro` (one listing per DVLE) is compared field by field with our
//! decoding of the same word: mnemonic, destination and write mask, source registers with
//! negation, swizzle and relative index, operand-descriptor index, address register, CMP
//! operators, conditions and flow targets.
//!
//! Deliberate differences, where nihstro's listing is incomplete (documented in
//! docs/shbin-pica.md §2 and checked here against the words themselves):
//! * EX2, LG2 and LITP are printed as `exp`, `log` and `lit`.
//! * MAD/MADI, LOOP, CALLU, IFU and SETEMIT are printed without operands: only the
//!   mnemonic is compared.
//! * JMPU is printed as `if bN` whether or not the word's num bit 0 inverts the test; we
//!   compare the boolean register and target, and check the inversion bit separately against
//!   picasso's rule (`jmpu !bN` sets bit 0) in the unit tests.
//! * MOVA is printed without a destination; its source is compared.
//! * nihstro lists the whole code blob for each DVLE, so shared code is compared once per DVLE.

mod common;

use shaderscope::format::shbin::Dvlb;
use shaderscope::isa::pica::{Instruction, Op, OperandDescriptor, Register, decode};
use std::path::Path;

/// One parsed nihstro instruction line.
struct Line<'a> {
    addr: u32,
    word: u32,
    mnemonic: &'a str,
    /// Operand tokens before the `;` annotation (or the prose of flow instructions).
    tokens: Vec<&'a str>,
}

fn parse_line(l: &str) -> Option<Line<'_>> {
    let (addr, rest) = l.split_once(" [")?;
    let (word, rest) = rest.split_once("] ")?;
    if word.starts_with('-') {
        return None; // a label line
    }
    let addr = u32::from_str_radix(addr, 16).ok()?;
    let word = u32::from_str_radix(word, 16).ok()?;
    let body = rest.split(';').next().unwrap_or("");
    let mut it = body.split_whitespace();
    let mnemonic = it.next()?;
    Some(Line { addr, word, mnemonic, tokens: it.collect() })
}

/// Our name for the instruction as nihstro spells it.
fn nihstro_name(i: &Instruction) -> String {
    match i.op {
        Op::Ex2 => "exp".into(),
        Op::Lg2 => "log".into(),
        Op::Litp => "lit".into(),
        _ => i.info().name.to_ascii_lowercase(),
    }
}

/// `r4.x___` → (register, mask with bit 3 = x).
fn parse_dst(t: &str) -> (String, u8) {
    let (reg, mask) = t.split_once('.').unwrap();
    let m = mask.chars().enumerate().fold(0u8, |m, (k, c)| if c == '_' { m } else { m | (8 >> k) });
    (reg.to_string(), m)
}

/// `-c64[a0.y].wwyy` → (negated, register, index name, swizzle).
fn parse_src(t: &str) -> (bool, String, String, String) {
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let (base, swz) = t.rsplit_once('.').unwrap();
    let (reg, idx) = match base.split_once('[') {
        Some((r, i)) => (r.to_string(), i.trim_end_matches(']').to_string()),
        None => (base.to_string(), String::new()),
    };
    (neg, reg, idx, swz.to_string())
}

fn idx_name(i: &Instruction) -> &'static str {
    ["", "a0.x", "a0.y", "aL"][usize::from(i.idx)]
}

/// Condition tokens after `if`: `cc.x && !cc.y` → (refs, condop).
fn parse_cond(tokens: &[&str]) -> ([bool; 2], u8) {
    let flags: Vec<&str> = tokens.iter().copied().take_while(|t| !matches!(*t, "else" | "jump")).collect();
    let flag = |t: &str| (!t.starts_with('!'), if t.ends_with('x') { 0 } else { 1 });
    match flags.as_slice() {
        [a, op, b] => {
            let (ra, _) = flag(a);
            let (rb, _) = flag(b);
            ([ra, rb], if *op == "&&" { 1 } else { 0 })
        }
        [a] => {
            let (r, which) = flag(a);
            let mut refs = [true, true];
            refs[which] = r;
            (refs, 2 + which as u8)
        }
        other => panic!("condition {other:?}"),
    }
}

fn hex_after(tokens: &[&str], word: &str) -> u32 {
    let k = tokens.iter().position(|t| *t == word).unwrap();
    u32::from_str_radix(tokens[k + 2].trim_start_matches("0x"), 16).unwrap()
}

/// Compare one line; returns what differs.
fn compare(l: &Line<'_>, i: &Instruction, opdescs: &[u32]) -> Result<(), String> {
    let name = nihstro_name(i);
    if l.mnemonic != name {
        return Err(format!("mnemonic {} vs {name}", l.mnemonic));
    }
    let d = OperandDescriptor(opdescs.get(usize::from(i.desc)).copied().unwrap_or(0));
    let check_src = |tok: &str, n: usize| -> Result<(), String> {
        let (neg, reg, idx, swz) = parse_src(tok);
        let want_idx = if i.wide_source() == Some(n) { idx_name(i) } else { "" };
        let got = (neg, reg.as_str(), idx.as_str(), swz.clone());
        let want = (d.negate(n), i.source(n).to_string(), want_idx.to_string(), d.swizzle(n).to_string());
        if (got.0, got.1, got.2, got.3.as_str())
            != (want.0, want.1.as_str(), want.2.as_str(), want.3.as_str())
        {
            return Err(format!("source {} {tok} vs {want:?}", n + 1));
        }
        Ok(())
    };
    let check_desc = |tok: &str, addr: &str| -> Result<(), String> {
        let desc = u8::from_str_radix(tok, 16).map_err(|e| e.to_string())?;
        let a: u8 = addr.trim_start_matches("addr:").parse().map_err(|_| addr.to_string())?;
        if (desc, a) != (i.desc, i.idx) {
            return Err(format!("opdesc/addr {tok} {addr} vs {} {}", i.desc, i.idx));
        }
        Ok(())
    };
    let t = &l.tokens;
    match i.op {
        Op::Add
        | Op::Dp3
        | Op::Dp4
        | Op::Dph
        | Op::Dst
        | Op::Mul
        | Op::Sge
        | Op::Slt
        | Op::Max
        | Op::Min
        | Op::Dphi
        | Op::Dsti
        | Op::Sgei
        | Op::Slti => {
            let (reg, mask) = parse_dst(t[0]);
            if (reg.as_str(), mask) != (Register::destination(i.dst).to_string().as_str(), d.mask()) {
                return Err(format!("destination {}", t[0]));
            }
            check_src(t[1], 0)?;
            check_src(t[2], 1)?;
            check_desc(t[3], t[4])
        }
        Op::Ex2 | Op::Lg2 | Op::Litp | Op::Flr | Op::Rcp | Op::Rsq | Op::Mov => {
            let (reg, mask) = parse_dst(t[0]);
            if (reg.as_str(), mask) != (Register::destination(i.dst).to_string().as_str(), d.mask()) {
                return Err(format!("destination {}", t[0]));
            }
            check_src(t[1], 0)?;
            check_desc(t[2], t[3])
        }
        Op::Mova => {
            check_src(t[0], 0)?;
            check_desc(t[1], t[2])
        }
        Op::Cmp => {
            check_src(t[0], 0)?;
            let ops = ["==", "!=", "<", "<=", ">", ">="];
            let got = [ops.iter().position(|o| *o == t[1]), ops.iter().position(|o| *o == t[2])];
            if got != [Some(usize::from(i.cmp[0])), Some(usize::from(i.cmp[1]))] {
                return Err(format!("cmp operators {} {}", t[1], t[2]));
            }
            check_src(t[3], 1)?;
            check_desc(t[4], t[5])
        }
        Op::Ifc | Op::Callc | Op::Jmpc | Op::Breakc => {
            let (refs, condop) = parse_cond(&t[1..]);
            // A single-flag condition leaves the other flag's reference bit unused.
            let want_refs = match condop {
                2 => [i.refs[0], true],
                3 => [true, i.refs[1]],
                _ => i.refs,
            };
            if (refs, condop) != (want_refs, i.condop) {
                return Err(format!("condition {t:?}"));
            }
            if i.op == Op::Breakc {
                return Ok(());
            }
            let target = hex_after(t, "jump");
            if target != 4 * u32::from(i.target) {
                return Err(format!("target 0x{target:x} vs word 0x{:x}", i.target));
            }
            check_return(t, i)
        }
        Op::Call => {
            let target = hex_after(t, "jump");
            if target != 4 * u32::from(i.target) {
                return Err(format!("target 0x{target:x} vs word 0x{:x}", i.target));
            }
            check_return(t, i)
        }
        Op::Jmpu => {
            let b = t[1];
            if b != format!("b{}", i.uniform) || hex_after(t, "jump") != 4 * u32::from(i.target) {
                return Err(format!("jmpu {t:?}"));
            }
            Ok(())
        }
        // Printed without operands by nihstro.
        _ => Ok(()),
    }
}

/// `(return on 00cc")` is the word after the called range / else block: target + num.
fn check_return(t: &[&str], i: &Instruction) -> Result<(), String> {
    let Some(k) = t.windows(2).position(|w| w[0].ends_with("(return") && w[1] == "on") else {
        return Ok(());
    };
    let v = t[k + 2].trim_end_matches("\")");
    let got = u32::from_str_radix(v, 16).map_err(|e| e.to_string())?;
    let want = 4 * (u32::from(i.target) + u32::from(i.num));
    if got != want {
        return Err(format!("return address 0x{got:x} vs 0x{want:x}"));
    }
    Ok(())
}

fn listings(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            listings(&p, out);
        } else if p.extension().is_some_and(|x| x == "txt") {
            out.push(p);
        }
    }
}

#[test]
fn decoding_agrees_with_nihstro_listings() {
    let Some(corpus) = common::corpus_dir() else { return };
    let root = corpus.join("shbin");
    let refs = root.join("reference/nihstro");
    let mut files = Vec::new();
    listings(&refs, &mut files);
    files.sort();
    let (mut lines, mut full, mut mnemonic_only, mut mismatches) = (0usize, 0usize, 0usize, Vec::new());
    for f in &files {
        let rel = f.strip_prefix(&refs).unwrap().to_string_lossy().into_owned();
        let shbin = rel.rsplit_once(".dvle").unwrap().0;
        let bytes = std::fs::read(root.join(shbin)).unwrap();
        let dvlb = Dvlb::parse(&bytes).unwrap_or_else(|e| panic!("{shbin}: {e}"));
        let (code, opdescs) = (&dvlb.dvlp.code, dvlb.opdesc_words());
        let text = std::fs::read_to_string(f).unwrap();
        for l in text.lines().filter_map(parse_line) {
            lines += 1;
            let word = code.get(l.addr as usize / 4).copied();
            assert_eq!(word, Some(l.word), "{rel}: word at 0x{:x}", l.addr);
            let i = decode(l.word);
            match compare(&l, &i, &opdescs) {
                Ok(()) if l.tokens.is_empty() => mnemonic_only += 1,
                Ok(()) => full += 1,
                Err(e) => mismatches.push(format!("{rel} 0x{:04x} [{:08x}]: {e}", l.addr, l.word)),
            }
        }
    }
    println!(
        "nihstro: {} listings, {lines} instruction lines, {full} compared with operands, {mnemonic_only} by mnemonic only",
        files.len()
    );
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
    // The corpus has 100 listings with 4655 instruction lines; guard against comparing nothing.
    assert!(files.len() >= 100 && full >= 3900, "{} listings, {full} full comparisons", files.len());
}
