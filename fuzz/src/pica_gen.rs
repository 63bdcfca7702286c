//! Valid picasso 2.7.1 programs made from a fuzzer's bytes: declarations (float, integer and
//! boolean uniforms, float and integer constants, a constant array, aliases, inputs, outputs),
//! helper procedures and `main`, whose bodies hold instructions of the PICA200 opcode table
//! ([`OPCODES`]) with operands of the kinds each position takes, `ifu`/`ifc` blocks with or
//! without `.else`, `for` loops with `break`/`breakc`, calls of the procedures and jumps to
//! labels.
//!
//! Every program is one the assembler must accept: each source position gets a register of a
//! file it takes (a uniform only where the encoding has a wide field, an index register only on
//! a float uniform), an instruction reads at most one input register, names are declared once
//! and are no register names, every label jumped to is defined, the tables stay within
//! picasso's limits (96 uniforms, 128 operand descriptors, fewer than 32 of them for `mad`,
//! 512 instructions). An `Err` from assembling one is an assembler bug, not the generator's.

use crate::sm4_gen::Choices;
use shaderscope::isa::pica::opcodes::{OPCODES, Op, Syntax};
use std::fmt::Write;

/// Output semantics picasso names.
const SEMANTICS: [&str; 8] =
    ["position", "normalquat", "color", "texcoord0", "texcoord0w", "texcoord1", "texcoord2", "view"];

/// Float constant values (as written; picasso reads them with `atof`).
const FLOATS: [&str; 10] = ["0.0", "1.0", "-1.0", "0.5", "2.0", "0.125", "3.5", "-0.25", "100.0", "1e-3"];

/// What the program declared, which operands may name.
#[derive(Default)]
struct Names {
    /// Float uniforms and their sizes.
    fvecs: Vec<(String, u32)>,
    /// Integer uniforms and integer constants (each one `i` register).
    ints: Vec<String>,
    /// Boolean uniforms.
    bools: Vec<String>,
    /// Float constants and constant arrays with their sizes.
    consts: Vec<(String, u32)>,
    /// Aliases of temporaries (written and read) and of float registers (read only).
    temp_aliases: Vec<String>,
    float_aliases: Vec<String>,
    /// The aliases of temporaries with neither `-` nor a swizzle, which destinations take.
    plain_aliases: Vec<String>,
    /// Inputs, in order: `.in` gives the next free input register, so input k is `v`k.
    inputs: Vec<String>,
    /// Outputs.
    outputs: Vec<String>,
    /// Helper procedures.
    procs: Vec<String>,
}

struct Gen<'c, 'd> {
    c: &'c mut Choices<'d>,
    n: Names,
    out: String,
    /// The declarations' lines.
    decls: String,
    /// Instructions left to write (every block and call counts as one).
    budget: usize,
    /// `mad` instructions left (each may take its own descriptor below 32).
    mads: usize,
    /// Labels defined so far, and how many names were made.
    defined: Vec<String>,
    labels: usize,
    /// Labels jumped to.
    used: Vec<String>,
    /// Procedures called (in `main`, after it clears this).
    called: Vec<String>,
}

/// A whole program: declarations, helper procedures and `main`.
pub fn program(c: &mut Choices<'_>) -> String {
    let mut g = Gen {
        c,
        n: Names::default(),
        out: String::new(),
        decls: String::new(),
        budget: 96,
        mads: 24,
        defined: Vec::new(),
        labels: 0,
        used: Vec::new(),
        called: Vec::new(),
    };
    g.declarations();
    let procs = g.c.below(3);
    g.n.procs = (0..procs).map(|k| format!("p{k}")).collect();
    let mut texts = Vec::new();
    for k in 0..procs {
        let _ = writeln!(g.out, ".proc p{k}");
        let len = g.c.below(6);
        g.body(len, 1, false);
        g.out.push_str(".end\n");
        texts.push(std::mem::take(&mut g.out));
    }
    // `main` last: it defines the labels jumped to and not yet defined.
    g.main();
    texts.push(std::mem::take(&mut g.out));
    let at = g.c.below(texts.len());
    let main = texts.pop().unwrap_or_default();
    texts.insert(at, main);
    // Known library bug (regressions/pica_print_assemble/open/): a call of an empty procedure
    // at word 0 lists as `call invalid_0x000_0`, which does not assemble. Until it is fixed,
    // an empty procedure is never first (`main`, which holds `end`, never is empty).
    while texts.first().is_some_and(|t| t.lines().count() == 2) {
        texts.rotate_left(1);
    }
    g.out = std::mem::take(&mut g.decls);
    for t in texts {
        g.out.push_str(&t);
    }
    g.out
}

impl Gen<'_, '_> {
    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.out.push('\t');
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn declarations(&mut self) {
        let (mut floats, mut ints) = (0u32, 0usize);
        let mut decls: Vec<String> = Vec::new();
        for k in 0..self.c.below(4) {
            let size = if self.c.one_in(2) { 1 } else { self.c.below(6) as u32 + 1 };
            floats += size;
            decls.push(if size == 1 && self.c.one_in(2) {
                format!(".fvec fu{k}")
            } else {
                format!(".fvec fu{k}[{size}]")
            });
            self.n.fvecs.push((format!("fu{k}"), size));
        }
        for k in 0..self.c.below(3) {
            decls.push(format!(".ivec iu{k}"));
            self.n.ints.push(format!("iu{k}"));
            ints += 1;
        }
        for k in 0..self.c.below(3) {
            decls.push(format!(".bool bu{k}"));
            self.n.bools.push(format!("bu{k}"));
        }
        for k in 0..self.c.below(4) {
            let v: [&str; 4] = [0; 4].map(|_| self.c.pick(&FLOATS));
            decls.push(format!(".constf k{k}({}, {}, {}, {})", v[0], v[1], v[2], v[3]));
            self.n.consts.push((format!("k{k}"), 1));
            floats += 1;
        }
        if ints < 4 && self.c.one_in(3) {
            let v = [0; 4].map(|_| self.c.below(256));
            decls.push(format!(".consti ki0({}, {}, {}, {})", v[0], v[1], v[2], v[3]));
            self.n.ints.push("ki0".into());
        }
        if self.c.one_in(4) {
            let size = self.c.below(3) as u32 + 1;
            let mut d =
                format!(".constfa ka[{}]\n", if self.c.one_in(2) { size.to_string() } else { String::new() });
            let elements = if d.contains("[]") { size } else { 1 + self.c.below(size as usize) as u32 };
            for _ in 0..elements {
                let v: [&str; 4] = [0; 4].map(|_| self.c.pick(&FLOATS));
                let _ = writeln!(d, ".constfa ({}, {}, {}, {})", v[0], v[1], v[2], v[3]);
            }
            d.push_str(".end");
            decls.push(d);
            self.n.consts.push(("ka".into(), size));
            floats += size;
        }
        debug_assert!(floats < 96);
        for k in 0..self.c.below(3) {
            let reg = self.c.below(16);
            let neg = if self.c.one_in(3) { "-" } else { "" };
            let sw = self.swizzle_suffix();
            if neg.is_empty() && sw.is_empty() {
                // Written as well as read.
                self.n.plain_aliases.push(format!("at{k}"));
            }
            decls.push(format!(".alias at{k} {neg}r{reg}{sw}"));
            self.n.temp_aliases.push(format!("at{k}"));
        }
        for k in 0..self.c.below(2) {
            let reg = self.c.below(96);
            let sw = self.swizzle_suffix();
            decls.push(format!(".alias af{k} c{reg}{sw}"));
            self.n.float_aliases.push(format!("af{k}"));
        }
        for k in 0..self.c.below(4) {
            decls.push(format!(".in in{k}"));
            self.n.inputs.push(format!("in{k}"));
        }
        let mut semantics = SEMANTICS.to_vec();
        for k in 0..self.c.below(5) {
            let s = semantics.remove(self.c.below(semantics.len()));
            let mask = if self.c.one_in(4) { format!(".{}", self.mask()) } else { String::new() };
            decls.push(format!(".out on{k} {s}{mask}"));
            self.n.outputs.push(format!("on{k}"));
        }
        // Declarations in any order (a name is declared before it is used: every use is in a
        // procedure below them).
        for k in (1..decls.len()).rev() {
            let j = self.c.below(k + 1);
            decls.swap(j, k);
        }
        for d in decls {
            self.decls.push_str(&d);
            self.decls.push('\n');
        }
    }

    fn main(&mut self) {
        self.out.push_str(".proc main\n");
        let len = 1 + self.c.below(24);
        self.called.clear();
        self.body(len, 1, false);
        // Every procedure main does not call yet: the listing prints code no DVLE runs as
        // comments, so code only `--like` gives back.
        for p in self.n.procs.clone() {
            if !self.called.contains(&p) {
                let _ = writeln!(self.out, "\tcall {p}");
            }
        }
        // Every label jumped to and not yet defined: here, before `end`.
        let missing: Vec<String> = self.used.iter().filter(|l| !self.defined.contains(l)).cloned().collect();
        for l in missing {
            let _ = writeln!(self.out, "{l}:");
            self.defined.push(l);
        }
        self.out.push_str("\tend\n.end\n");
    }

    /// `len` statements at nesting `depth`; `in_loop`: inside a `for`.
    fn body(&mut self, len: usize, depth: usize, in_loop: bool) {
        for _ in 0..len {
            if self.budget == 0 || self.c.done() {
                return;
            }
            self.budget -= 1;
            if self.c.one_in(10) {
                let l = format!("l{}", self.labels);
                self.labels += 1;
                let _ = writeln!(self.out, "{l}:");
                self.defined.push(l);
            }
            self.statement(depth, in_loop);
        }
    }

    fn statement(&mut self, depth: usize, in_loop: bool) {
        let nested = depth < 4;
        match self.c.below(20) {
            0 if nested => {
                let head = if self.c.one_in(2) {
                    format!("ifu {}", self.bool_uniform())
                } else {
                    format!("ifc {}", self.condition())
                };
                self.line(depth, &head);
                let len = self.c.below(4);
                self.body(len, depth + 1, in_loop);
                if self.c.one_in(2) {
                    self.line(depth, ".else");
                    let len = self.c.below(4);
                    self.body(len, depth + 1, in_loop);
                }
                self.line(depth, ".end");
            }
            1 if nested => {
                let head = format!("for {}", self.int_uniform());
                self.line(depth, &head);
                let len = self.c.below(5);
                self.body(len, depth + 1, true);
                self.line(depth, ".end");
            }
            2 if in_loop => {
                let s = if self.c.one_in(2) {
                    "break".to_string()
                } else {
                    format!("breakc {}", self.condition())
                };
                self.line(depth, &s);
            }
            3 if !self.n.procs.is_empty() => {
                let p = name(self.c, &self.n.procs);
                self.called.push(p.clone());
                let s = match self.c.below(3) {
                    0 => format!("call {p}"),
                    1 => format!("callc {}, {p}", self.condition()),
                    _ => format!("callu {}, {p}", self.bool_uniform()),
                };
                self.line(depth, &s);
            }
            4 => {
                let l = if !self.defined.is_empty() && self.c.one_in(2) {
                    name(self.c, &self.defined)
                } else {
                    let l = format!("l{}", self.labels);
                    self.labels += 1;
                    l
                };
                if !self.used.contains(&l) {
                    self.used.push(l.clone());
                }
                let s = if self.c.one_in(2) {
                    format!("jmpc {}, {l}", self.condition())
                } else {
                    let not = if self.c.one_in(2) { "!" } else { "" };
                    format!("jmpu {not}{}, {l}", self.bool_uniform())
                };
                self.line(depth, &s);
            }
            5 => self.line(depth, "nop"),
            _ => {
                let s = self.arithmetic();
                self.line(depth, &s);
            }
        }
    }

    /// An instruction of the table with a descriptor (arithmetic, `mova`, `cmp`, `mad`).
    fn arithmetic(&mut self) -> String {
        let rows: Vec<_> = OPCODES
            .iter()
            .filter(|r| {
                matches!(
                    r.syntax,
                    Syntax::DstSrc | Syntax::DstSrcSrc | Syntax::Mova | Syntax::Cmp | Syntax::Mad
                ) && !matches!(r.op, Op::Dphi | Op::Dsti | Op::Sgei | Op::Slti | Op::Madi)
            })
            .collect();
        let mut row = self.c.pick(&rows);
        if row.syntax == Syntax::Mad {
            if self.mads == 0 {
                row = &OPCODES[Op::Mov as usize];
            } else {
                self.mads -= 1;
            }
        }
        let m = row.mnemonic;
        // The one input register this instruction may read.
        let input = self.input();
        match row.syntax {
            Syntax::DstSrc => format!("{m} {}, {}", self.destination(), self.wide(&input)),
            Syntax::Mova => {
                let a = self.c.pick(&["a0.x", "a0.y", "a0.xy", "a0", "a1", "a01"]);
                format!("mova {a}, {}", self.wide(&input))
            }
            Syntax::Cmp => {
                const OPS: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];
                let (x, y) = (self.c.pick(&OPS), self.c.pick(&OPS));
                format!("cmp {}, {x}, {y}, {}", self.wide(&input), self.narrow(&input))
            }
            Syntax::Mad => {
                let d = self.destination();
                let a = self.narrow(&input);
                if self.c.one_in(2) {
                    format!("mad {d}, {a}, {}, {}", self.wide(&input), self.narrow(&input))
                } else {
                    format!("mad {d}, {a}, {}, {}", self.narrow(&input), self.uniform_source())
                }
            }
            _ => {
                let d = self.destination();
                let swappable = matches!(row.op, Op::Dph | Op::Dst | Op::Sge | Op::Slt);
                if swappable && self.c.one_in(2) {
                    format!("{m} {d}, {}, {}", self.narrow(&input), self.uniform_source())
                } else {
                    format!("{m} {d}, {}, {}", self.wide(&input), self.narrow(&input))
                }
            }
        }
    }

    /// The input register an instruction's sources may read: `v`k or an input's name.
    fn input(&mut self) -> String {
        name_or_register(self.c, &self.n.inputs, 'v', 15)
    }

    fn destination(&mut self) -> String {
        let reg = match self.c.below(6) {
            0 if !self.n.outputs.is_empty() => name(self.c, &self.n.outputs),
            1 => format!("o{}", self.c.below(16)),
            2 if !self.n.plain_aliases.is_empty() => name(self.c, &self.n.plain_aliases),
            _ => format!("r{}", self.c.below(16)),
        };
        if self.c.one_in(4) { reg } else { format!("{reg}.{}", self.mask()) }
    }

    /// A source of a narrow field: an input or a temporary.
    fn narrow(&mut self, input: &str) -> String {
        let reg = match self.c.below(5) {
            0 => input.to_string(),
            1 if !self.n.temp_aliases.is_empty() => name(self.c, &self.n.temp_aliases),
            _ => format!("r{}", self.c.below(16)),
        };
        self.source(reg)
    }

    /// A source of a wide field: an input, a temporary or a float uniform.
    fn wide(&mut self, input: &str) -> String {
        if self.c.one_in(2) { self.uniform_source() } else { self.narrow(input) }
    }

    /// A float uniform (a register, a uniform, a constant, an alias), offset into an array
    /// and indexed by an address register now and then.
    fn uniform_source(&mut self) -> String {
        let (name, size) = match self.c.below(5) {
            0 if !self.n.fvecs.is_empty() => self.n.fvecs[self.c.below(self.n.fvecs.len())].clone(),
            1 if !self.n.consts.is_empty() => self.n.consts[self.c.below(self.n.consts.len())].clone(),
            2 if !self.n.float_aliases.is_empty() => (name(self.c, &self.n.float_aliases), 1),
            _ => (format!("c{}", self.c.below(96)), 1),
        };
        let offset = self.c.below(size as usize);
        let index = if self.c.one_in(4) {
            Some(self.c.pick(&["a0.x", "a0.y", "aL", "a0", "a1", "lcnt"]))
        } else {
            None
        };
        let reg = match (index, offset) {
            (Some(i), 0) if self.c.one_in(2) => format!("{name}[{i}]"),
            (Some(i), o) => format!("{name}[{i}+{o}]"),
            (None, 0) if size == 1 || self.c.one_in(2) => name,
            (None, o) => format!("{name}[{o}]"),
        };
        self.source(reg)
    }

    /// `reg` negated and swizzled now and then.
    fn source(&mut self, reg: String) -> String {
        let neg = if self.c.one_in(4) { "-" } else { "" };
        let sw = self.swizzle_suffix();
        format!("{neg}{reg}{sw}")
    }

    /// `.` and one to four components, or nothing.
    fn swizzle_suffix(&mut self) -> String {
        if self.c.one_in(3) {
            return String::new();
        }
        let n = self.c.below(4) + 1;
        let set = self.c.pick(&["xyzw", "rgba", "stpq"]).as_bytes();
        let s: String = (0..n).map(|_| set[self.c.below(4)] as char).collect();
        format!(".{s}")
    }

    /// A destination mask: components in order, at least one.
    fn mask(&mut self) -> String {
        let bits = self.c.below(15) + 1;
        "xyzw".chars().enumerate().filter(|(k, _)| bits & (8 >> k) != 0).map(|(_, ch)| ch).collect()
    }

    fn condition(&mut self) -> String {
        let flag =
            |c: &mut Choices<'_>, which: &str| format!("{}cmp.{which}", if c.one_in(2) { "!" } else { "" });
        let (a, b) = if self.c.one_in(2) { ("x", "y") } else { ("y", "x") };
        match self.c.below(4) {
            0 | 1 => flag(self.c, a),
            2 => format!("{} && {}", flag(self.c, a), flag(self.c, b)),
            _ => format!("{} || {}", flag(self.c, a), flag(self.c, b)),
        }
    }

    fn bool_uniform(&mut self) -> String {
        name_or_register(self.c, &self.n.bools, 'b', 16)
    }

    fn int_uniform(&mut self) -> String {
        name_or_register(self.c, &self.n.ints, 'i', 4)
    }
}

/// One of `names` (not empty), cloned.
fn name(c: &mut Choices<'_>, names: &[String]) -> String {
    names[c.below(names.len())].clone()
}

/// One of `names` (declared for the register file), or half the time (always when there are
/// none) register `letter` 0..`count` itself.
fn name_or_register(c: &mut Choices<'_>, names: &[String], letter: char, count: usize) -> String {
    if !names.is_empty() && c.one_in(2) { name(c, names) } else { format!("{letter}{}", c.below(count)) }
}
