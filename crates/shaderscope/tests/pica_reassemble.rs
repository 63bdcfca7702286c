//! The listing means what the binary means: every corpus DVLE is listed, the listing is read
//! back the way picasso 2.7.1 reads it (its register allocation for `.fvec`/`.ivec`/`.bool`
//! upward and `.constf`/`.constfa`/`.consti` downward, explicit `.in`/`.out`/`.set*`, aliases
//! with `[offset]`, swizzles padded with their last component), and every instruction line is
//! compared with the word it was printed from, as are the DVLE's uniform, constant and output
//! tables and geometry mode.
//!
//! The real check is picasso itself (see `../shared/tools/check.py shbin`); this test keeps the
//! same guarantee inside `cargo test`, where picasso is not available. The rules below are
//! written from picasso's manual and source, not from the printer.

#[path = "common/built.rs"]
mod built;
mod common;

use shaderscope::format::shbin::Dvlb;
use shaderscope::isa::pica::{self, Instruction, Op, OperandDescriptor, SourceContext, float24};
use shaderscope::print::{Printer, TextBuf};
use std::collections::HashMap;
use std::fmt;

/// The listing text with the original word address of each instruction line.
#[derive(Default)]
struct Recording {
    text: TextBuf,
    /// (line number, byte offset) of each line that shows input bytes.
    at: Vec<(usize, u64)>,
    lines: usize,
}

impl fmt::Write for Recording {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text.write_str(s)
    }
}

impl Printer for Recording {
    fn start_line(&mut self, offset: Option<u64>) {
        self.lines = self.text.as_str().matches('\n').count();
        if let Some(o) = offset {
            self.at.push((self.lines, o));
        }
    }
}

/// A register after alias resolution, in picasso's numbering: v 0x00, r 0x10, c 0x20, o 0x00
/// (destinations), i 0x80, b 0x88.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Operand {
    reg: u32,
    negate: bool,
    idx: u8,
    swizzle: [u8; 4],
}

fn comp(c: char) -> u8 {
    match c {
        'x' | 'r' | 's' => 0,
        'y' | 'g' | 't' => 1,
        'z' | 'b' | 'p' => 2,
        'w' | 'a' | 'q' => 3,
        _ => panic!("component {c}"),
    }
}

/// picasso's swizzle text: up to four components, the last repeated.
fn parse_swizzle(s: &str) -> [u8; 4] {
    let c: Vec<u8> = s.chars().map(comp).collect();
    assert!((1..=4).contains(&c.len()), "swizzle {s}");
    std::array::from_fn(|k| *c.get(k).unwrap_or(c.last().unwrap()))
}

/// What the listing declared.
#[derive(Default)]
struct Decls {
    aliases: HashMap<String, u32>,
    /// Non-hidden uniforms: (name, first, last) in the DVLE table's numbering.
    uniforms: Vec<(String, u16, u16)>,
    constants: Vec<pica::Constant>,
    outputs: Vec<pica::Output>,
    geometry: Option<[u8; 4]>,
    fvec_next: u32,
    fvec_local: u32,
    ivec_next: u32,
    ivec_local: u32,
    bool_next: u32,
    array: Option<(String, Vec<[u32; 4]>)>,
}

impl Decls {
    fn new() -> Decls {
        Decls {
            fvec_next: 0x20,
            fvec_local: 0x80,
            ivec_next: 0x80,
            ivec_local: 0x84,
            bool_next: 0x88,
            ..Decls::default()
        }
    }

    /// `name`, `name[k]`, `v3`, `o6[1]`… without index registers.
    fn register(&self, text: &str) -> u32 {
        let (base, offset) = match text.split_once('[') {
            Some((b, rest)) => (b, rest.trim_end_matches(']').trim().parse::<u32>().unwrap()),
            None => (text, 0),
        };
        if let Some(r) = self.aliases.get(base) {
            return r + offset;
        }
        let n: u32 = base[1..].parse().unwrap_or_else(|_| panic!("register {text}"));
        let r = match base.as_bytes()[0] {
            b'v' => {
                assert!(n < 15, "picasso rejects {base}");
                n
            }
            b'o' => n,
            b'r' => 0x10 + n,
            b'c' => 0x20 + n,
            b'i' => 0x80 + n,
            b'b' => 0x88 + n,
            _ => panic!("register {text}"),
        };
        r + offset
    }

    /// A source operand: `-name[a0.x+2].wzyx`.
    fn operand(&self, text: &str) -> Operand {
        let (negate, t) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let (t, swizzle) = match t.rfind('.') {
            Some(p) if !t[..p].ends_with("a0") => (&t[..p], parse_swizzle(&t[p + 1..])),
            _ => (t, [0, 1, 2, 3]),
        };
        let (base, idx, offset) = match t.split_once('[') {
            Some((b, rest)) => {
                let inner = rest.trim_end_matches(']');
                let (ix, off) = match inner.split_once('+') {
                    Some((ix, off)) => (ix, off.parse::<u32>().unwrap()),
                    None if inner.starts_with('a') => (inner, 0),
                    None => ("", inner.parse::<u32>().unwrap()),
                };
                let idx = match ix {
                    "" => 0,
                    "a0.x" => 1,
                    "a0.y" => 2,
                    "aL" => 3,
                    _ => panic!("index {ix}"),
                };
                (b, idx, off)
            }
            None => (t, 0, 0),
        };
        Operand { reg: self.register(base) + offset, negate, idx, swizzle }
    }

    fn declare(&mut self, line: &str, geometry: bool) {
        let mut words = line.split_whitespace();
        let directive = words.next().unwrap();
        let rest = line[directive.len()..].trim();
        match directive {
            ".gsh" => {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let first = self.register(w[1]);
                self.fvec_next = first;
                self.bool_next = 0x88;
                self.geometry = Some(match w[0] {
                    "point" => [0, 0, 0, 0],
                    "variable" => [1, 0, w[2].parse().unwrap(), 0],
                    "fixed" => {
                        let start = self.register(w[2]);
                        assert!(start < first, "picasso: the array must lie below the allocation pool");
                        [2, (start - 0x20) as u8, 0, w[3].parse().unwrap()]
                    }
                    m => panic!("mode {m}"),
                });
            }
            ".fvec" | ".ivec" | ".bool" => {
                let (name, size) = match rest.split_once('[') {
                    Some((n, s)) => (n, s.trim_end_matches(']').parse::<u32>().unwrap()),
                    None => (rest, 1),
                };
                let (next, limit) = match directive {
                    ".fvec" => (&mut self.fvec_next, self.fvec_local),
                    ".ivec" => (&mut self.ivec_next, self.ivec_local),
                    // picasso keeps b15 out of a geometry shader's allocation.
                    _ => (&mut self.bool_next, if geometry { 0x97 } else { 0x98 }),
                };
                let pos = *next;
                assert!(pos + size <= limit, "picasso: not enough uniform space for {name}");
                *next += size;
                self.aliases.insert(name.to_string(), pos);
                if !name.starts_with('_') {
                    // The DVLE table numbers c, i and b 0x10 below picasso's internal numbers.
                    let first = (pos - 0x10) as u16;
                    self.uniforms.push((name.replace('$', "."), first, first + size as u16 - 1));
                }
            }
            ".in" => {
                let (name, reg) = rest.split_once(' ').unwrap();
                let r = self.register(reg.trim());
                self.aliases.insert(name.to_string(), r);
                self.uniforms.push((name.replace('$', "."), r as u16, r as u16));
            }
            ".constf" | ".consti" | ".setf" | ".seti" => {
                let (name, args) = rest.split_once('(').unwrap();
                let values: Vec<&str> = args.trim_end_matches(')').split(',').map(str::trim).collect();
                let float = directive.ends_with('f');
                let reg = if directive.starts_with(".set") {
                    self.register(name)
                } else if float {
                    self.fvec_local -= 1;
                    assert!(self.fvec_local >= self.fvec_next, "picasso: no space for {name}");
                    self.aliases.insert(name.to_string(), self.fvec_local);
                    self.fvec_local
                } else {
                    self.ivec_local -= 1;
                    assert!(self.ivec_local >= self.ivec_next, "picasso: no space for {name}");
                    self.aliases.insert(name.to_string(), self.ivec_local);
                    self.ivec_local
                };
                self.constants.push(if float {
                    pica::Constant::new((reg - 0x20) as u8, pica::ConstantValue::Float(floats(&values)))
                } else {
                    let v: Vec<u8> =
                        values.iter().map(|v| (v.parse::<i64>().unwrap() & 0xff) as u8).collect();
                    pica::Constant::new((reg - 0x80) as u8, pica::ConstantValue::Int(v.try_into().unwrap()))
                });
            }
            ".constfa" => {
                if let Some(values) = rest.strip_prefix('(') {
                    let v: Vec<&str> = values.trim_end_matches(')').split(',').map(str::trim).collect();
                    self.array.as_mut().unwrap().1.push(floats(&v));
                } else {
                    self.array = Some((rest.trim_end_matches("[]").to_string(), Vec::new()));
                }
            }
            ".setb" => {
                let (reg, value) = rest.split_once(' ').unwrap();
                let r = self.register(reg);
                self.constants.push(pica::Constant::new(
                    (r - 0x88) as u8,
                    pica::ConstantValue::Bool(value.trim() == "true"),
                ));
            }
            ".out" => {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let semantic = [
                    "position",
                    "normalquat",
                    "color",
                    "texcoord0",
                    "texcoord0w",
                    "texcoord1",
                    "texcoord2",
                    "",
                    "view",
                    "dummy",
                ]
                .iter()
                .position(|s| *s == w[1])
                .unwrap() as u16;
                let (reg, mask) = match w[2].split_once('.') {
                    Some((r, m)) => (r, m.chars().fold(0u16, |a, c| a | (1 << comp(c)))),
                    None => (w[2], 0xF),
                };
                let register = self.register(reg) as u16;
                if w[0] != "-" {
                    self.aliases.insert(w[0].to_string(), u32::from(register));
                }
                self.outputs.push(pica::Output::new(semantic, register, mask));
            }
            ".alias" => {
                let (name, reg) = rest.split_once(' ').unwrap();
                let r = self.register(reg.trim());
                self.aliases.insert(name.to_string(), r);
            }
            ".end" if self.array.is_some() => {
                let (name, values) = self.array.take().unwrap();
                self.fvec_local -= values.len() as u32;
                assert!(self.fvec_local >= self.fvec_next, "picasso: no space for {name}");
                self.aliases.insert(name, self.fvec_local);
                for (k, value) in values.into_iter().enumerate() {
                    self.constants.push(pica::Constant::new(
                        (self.fvec_local - 0x20) as u8 + k as u8,
                        pica::ConstantValue::Float(value),
                    ));
                }
            }
            ".entry" => {}
            d => panic!("directive {d}"),
        }
    }
}

/// picasso reads constants with `atof` into a float and truncates to float24.
fn floats(v: &[&str]) -> [u32; 4] {
    std::array::from_fn(|k| float24::from_f32(v[k].parse::<f64>().unwrap() as f32))
}

/// The source lanes picasso keeps when it shares operand descriptors (its `optimizeOpdesc`):
/// bit l set = lane l of source n matters.
fn lanes(op: Op, mask: u8, n: usize) -> u8 {
    let written = (0..4).fold(0, |m, l| if mask & (8 >> l) != 0 { m | (1 << l) } else { m });
    match op {
        Op::Add
        | Op::Mul
        | Op::Sge
        | Op::Sgei
        | Op::Slt
        | Op::Slti
        | Op::Flr
        | Op::Max
        | Op::Min
        | Op::Mov
        | Op::Mad
        | Op::Madi => written,
        Op::Dp3 => 0b0111,
        Op::Dph | Op::Dphi if n == 0 => 0b0111,
        Op::Ex2 | Op::Lg2 | Op::Rcp | Op::Rsq => 0b0001,
        Op::Mova => written & 0b0011,
        Op::Cmp if n == 0 => 0b0011,
        _ => 0b1111,
    }
}

/// The flag condition of format-2 instructions: `cmp.x && !cmp.y` → (refx, refy, condop).
fn flag(t: &str) -> (bool, &str) {
    (t.trim().starts_with('!'), t.trim().trim_start_matches('!'))
}

fn condition(text: &str) -> (Option<bool>, Option<bool>, u8) {
    let one = |t: &str| {
        let (neg, f) = flag(t);
        if f == "cmp.x" { (Some(!neg), None, 2) } else { (None, Some(!neg), 3) }
    };
    for (sep, op) in [("&&", 1), ("||", 0)] {
        if let Some((a, b)) = text.split_once(sep) {
            let (na, fa) = flag(a);
            let (nb, _) = flag(b);
            assert_eq!(fa, "cmp.x");
            return (Some(!na), Some(!nb), op);
        }
    }
    one(text)
}

fn compare_dvle(path: &str, k: usize, ctx: &SourceContext<'_>) {
    let at = format!("{path} DVLE {k}");
    let mut rec = Recording::default();
    pica::write_source(ctx, &mut rec).unwrap();
    let text = rec.text.as_str().to_string();
    // Instruction lines are the lines that show bytes of the code (the others show the DVLE
    // header or table entries).
    let code = ctx.code_offset..ctx.code_offset + 4 * ctx.program.len() as u64;
    let addr_of: HashMap<usize, u32> = rec
        .at
        .iter()
        .filter(|(_, off)| code.contains(off))
        .map(|&(line, off)| (line, ((off - ctx.code_offset) / 4) as u32))
        .collect();
    let geometry = ctx.shader_type == pica::ShaderType::Geometry;
    let mut d = Decls::new();

    // First pass: declarations, and where procedures and labels are (as original addresses).
    let mut procs: HashMap<String, (u32, u32)> = HashMap::new();
    let mut labels: HashMap<String, u32> = HashMap::new();
    let mut pending_labels: Vec<String> = Vec::new();
    let mut current: Option<(String, Option<u32>, u32)> = None; // name, first, last
    let mut depth = 0;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split(';').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        if let Some(&a) = addr_of.get(&n) {
            for l in pending_labels.drain(..) {
                labels.insert(l, a);
            }
            let c = current
                .as_mut()
                .unwrap_or_else(|| panic!("{at}: line {n} {raw:?} outside a procedure\n{text}"));
            c.1.get_or_insert(a);
            c.2 = a;
            if line.starts_with("ifc ") || line.starts_with("ifu ") || line.starts_with("for ") {
                depth += 1;
            }
        } else if let Some(l) = line.strip_suffix(':') {
            pending_labels.push(l.to_string());
        } else if let Some(name) = line.strip_prefix(".proc ") {
            current = Some((name.to_string(), None, 0));
            depth = 1;
        } else if line == ".end" && current.is_some() && depth > 0 {
            depth -= 1;
            if depth == 0 {
                let (name, first, last) = current.take().unwrap();
                let first = first.expect("empty procedure");
                for l in pending_labels.drain(..) {
                    labels.insert(l, last + 1);
                }
                procs.insert(name, (first, last + 1 - first));
            }
        } else if line.starts_with('.') && line != ".else" {
            d.declare(line, geometry);
        }
    }

    // The tables picasso writes from these declarations are the DVLE's.
    let mut want_uniforms: Vec<(String, u16, u16)> =
        ctx.uniforms.iter().map(|u| (u.name.clone(), u.first, u.last)).collect();
    want_uniforms.sort_by_key(|u| (u.1, u.2));
    d.uniforms.sort_by_key(|u| (u.1, u.2));
    let ranges = |u: &[(String, u16, u16)]| u.iter().map(|x| (x.1, x.2)).collect::<Vec<_>>();
    assert_eq!(ranges(&d.uniforms), ranges(&want_uniforms), "{at}: uniform registers");
    for (got, want) in d.uniforms.iter().zip(&want_uniforms) {
        let plain = want.0.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
            && !want.0.starts_with(|c: char| c == '_' || c.is_ascii_digit());
        if plain {
            assert_eq!(got.0, want.0, "{at}: uniform name");
        }
    }
    assert_eq!(d.constants, ctx.constants, "{at}: constants");
    assert_eq!(d.outputs, ctx.outputs, "{at}: outputs");
    if geometry {
        let g = ctx.geometry;
        let want = match g.mode {
            0 => [0, 0, 0, 0],
            1 => [1, 0, g.variable_count, 0],
            _ => [2, g.fixed_start, 0, g.fixed_count],
        };
        assert_eq!(d.geometry, Some(want), "{at}: geometry mode");
    }

    // Second pass: every instruction line against its word.
    let mut blocks: Vec<(u32, Option<u32>)> = Vec::new(); // (IF/LOOP address, else start)
    let mut last = 0u32;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split(';').next().unwrap().trim();
        let Some(&a) = addr_of.get(&n) else {
            match line {
                ".else" => blocks.last_mut().unwrap().1 = Some(last + 1),
                ".end" if !blocks.is_empty() => {
                    let (b, els) = blocks.pop().unwrap();
                    let i = ctx.program.instructions()[b as usize];
                    match (i.op, els) {
                        (Op::Loop, _) => assert_eq!(u32::from(i.target), last, "{at}: loop at 0x{b:03x}"),
                        (_, None) => {
                            assert_eq!((u32::from(i.target), i.num), (last + 1, 0), "{at}: if at 0x{b:03x}")
                        }
                        (_, Some(e)) => assert_eq!(
                            (u32::from(i.target), u32::from(i.num)),
                            (e, last + 1 - e),
                            "{at}: if/else at 0x{b:03x}"
                        ),
                    }
                }
                _ => {}
            }
            continue;
        };
        last = a;
        let (word, i) = (ctx.program.words()[a as usize], ctx.program.instructions()[a as usize]);
        let here = format!("{at} 0x{a:03x} [{word:08x}] {line}");
        let (mnemonic, args) = line.split_once(' ').unwrap_or((line, ""));
        let args: Vec<&str> = if args.is_empty() { vec![] } else { args.split(',').map(str::trim).collect() };
        let desc = OperandDescriptor(ctx.opdescs.get(usize::from(i.desc)).copied().unwrap_or(0));
        if mnemonic == "nop" && i.op != Op::Nop {
            // Printed as nop only when the instruction writes nothing.
            let none = if i.op == Op::Mova { desc.mask() & 0xC == 0 } else { desc.mask() == 0 };
            assert!(none, "{here}");
            continue;
        }
        assert_eq!(mnemonic, i.info().mnemonic, "{here}");
        compare_instruction(&d, &i, desc, &args, &procs, &labels, &here);
        if matches!(i.op, Op::Ifc | Op::Ifu | Op::Loop) {
            blocks.push((a, None));
        }
    }
    assert!(blocks.is_empty(), "{at}: unclosed blocks");
}

fn compare_instruction(
    d: &Decls,
    i: &Instruction,
    desc: OperandDescriptor,
    args: &[&str],
    procs: &HashMap<String, (u32, u32)>,
    labels: &HashMap<String, u32>,
    here: &str,
) {
    let source = |n: usize, text: &str| {
        let o = d.operand(text);
        let wide = i.wide_source() == Some(n);
        assert_eq!(o.reg, u32::from(i.src[n]), "{here}: source {} register", n + 1);
        assert_eq!(o.idx, if wide { i.idx } else { 0 }, "{here}: source {} index", n + 1);
        assert_eq!(o.negate, desc.negate(n), "{here}: source {} negation", n + 1);
        let used = lanes(i.op, desc.mask(), n);
        let want = desc.swizzle(n).lanes();
        for (l, (got, want)) in o.swizzle.iter().zip(want).enumerate() {
            if used & (1 << l) != 0 {
                assert_eq!(*got, want, "{here}: source {} lane {l}", n + 1);
            }
        }
    };
    let destination = |text: &str| {
        let (reg, mask) = match text.rsplit_once('.') {
            Some((r, m)) => (r, m.chars().fold(0u8, |a, c| a | (8 >> comp(c)))),
            None => (text, 0xF),
        };
        assert_eq!(d.register(reg), u32::from(i.dst), "{here}: destination");
        assert_eq!(mask, desc.mask(), "{here}: write mask");
    };
    let flow_target = |name: &str| -> (u32, u32) {
        if let Some(&(s, n)) = procs.get(name) {
            (s, n)
        } else {
            (*labels.get(name).unwrap_or_else(|| panic!("{here}: undefined {name}")), 0)
        }
    };
    let uniform = |text: &str, base: u32| -> (bool, u32) {
        let (neg, t) = match text.strip_prefix('!') {
            Some(t) => (true, t),
            None => (false, text),
        };
        (neg, d.register(t) - base)
    };
    let check_condition = |text: &str| {
        let (rx, ry, op) = condition(text);
        assert_eq!(op, i.condop, "{here}: condition");
        if let Some(rx) = rx {
            assert_eq!(rx, i.refs[0], "{here}: cmp.x");
        }
        if let Some(ry) = ry {
            assert_eq!(ry, i.refs[1], "{here}: cmp.y");
        }
    };
    match i.op {
        Op::Nop | Op::End | Op::Break | Op::Emit => assert!(args.is_empty(), "{here}"),
        Op::Mova => {
            let mask = match args[0] {
                "a0.x" => 8,
                "a0.y" => 4,
                "a0.xy" => 12,
                m => panic!("{here}: {m}"),
            };
            assert_eq!(mask, desc.mask() & 0xC, "{here}: mova mask");
            source(0, args[1]);
        }
        Op::Cmp => {
            let ops = ["eq", "ne", "lt", "le", "gt", "ge"];
            source(0, args[0]);
            assert_eq!(ops.iter().position(|o| *o == args[1]), Some(usize::from(i.cmp[0])), "{here}");
            assert_eq!(ops.iter().position(|o| *o == args[2]), Some(usize::from(i.cmp[1])), "{here}");
            source(1, args[3]);
        }
        Op::Breakc | Op::Ifc => check_condition(args[0]),
        Op::Callc | Op::Jmpc => {
            check_condition(args[0]);
            let (t, n) = flow_target(args[1]);
            assert_eq!(t, u32::from(i.target), "{here}: target");
            if i.op == Op::Callc {
                assert_eq!(n, u32::from(i.num), "{here}: length");
            }
        }
        Op::Call => assert_eq!(flow_target(args[0]), (u32::from(i.target), u32::from(i.num)), "{here}"),
        Op::Callu | Op::Ifu | Op::Jmpu => {
            let (neg, b) = uniform(args[0], 0x88);
            assert_eq!(b, u32::from(i.uniform), "{here}: boolean");
            assert_eq!(neg, i.op == Op::Jmpu && i.negate, "{here}: inversion");
            if i.op != Op::Ifu {
                let (t, n) = flow_target(args[1]);
                assert_eq!(t, u32::from(i.target), "{here}: target");
                if i.op == Op::Callu {
                    assert_eq!(n, u32::from(i.num), "{here}: length");
                }
            }
        }
        Op::Loop => assert_eq!(uniform(args[0], 0x80).1, u32::from(i.uniform), "{here}: integer uniform"),
        Op::Setemit => {
            let (v, flags) = match args {
                [v] => (*v, ""),
                [v, f] => (*v, *f),
                _ => panic!("{here}"),
            };
            assert_eq!(v.parse::<u8>().unwrap(), i.vertex, "{here}");
            assert_eq!(flags.contains("prim"), i.primitive, "{here}");
            assert_eq!(flags.contains("inv"), i.invert, "{here}");
        }
        _ => {
            destination(args[0]);
            for n in 0..i.source_count() {
                source(n, args[n + 1]);
            }
            assert_eq!(args.len(), 1 + i.source_count(), "{here}");
        }
    }
}

#[test]
fn every_listing_reads_back_as_its_binary() {
    let Some(dir) = common::corpus_dir() else { return };
    let mut dvles = 0;
    for r in common::manifest(&dir, "shbin").into_iter().filter(|r| r.kind == "shbin") {
        let bytes = std::fs::read(dir.join("shbin").join(&r.path)).unwrap();
        let dvlb = Dvlb::parse(&bytes).unwrap();
        let (program, opdescs) = (dvlb.program(), dvlb.opdesc_words());
        for k in 0..dvlb.dvles.len() {
            let names = dvlb.dvles[k].names();
            let ctx = dvlb.source_context(k, &program, &names, &opdescs, 0).unwrap();
            compare_dvle(&r.path, k, &ctx);
            dvles += 1;
        }
    }
    println!("{dvles} DVLE listings read back");
}

/// A DVLE whose header leaves `endmain` 0, as nihstro writes it, built with the project's
/// builder: its listing has main's code (to the end instruction that ends it, with what main
/// calls), and that listing reads back as the binary. (Before, `.proc main` was empty.)
#[test]
fn a_dvle_with_endmain_0_lists_main_and_reads_back() {
    for (what, dvlb) in [
        ("endmain 0", built::endmain_0()),
        ("endmain 0 with a call", built::endmain_0_calling()),
        ("endmain 0 with nihstro's return labels", built::endmain_0_return_labels()),
    ] {
        let bytes = dvlb.write().unwrap();
        let dvlb = Dvlb::parse(&bytes).unwrap();
        let (program, opdescs) = (dvlb.program(), dvlb.opdesc_words());
        let names = dvlb.dvles[0].names();
        let ctx = dvlb.source_context(0, &program, &names, &opdescs, 0).unwrap();
        assert_eq!(ctx.endmain, 0);
        compare_dvle(what, 0, &ctx);
    }
}
