//! One DVLE as complete picasso 2.7.1 source.
//!
//! The listing is written so that picasso re-assembles it to the same instructions, tables and
//! register placement, and so that listing the result again gives the same text (a fixpoint):
//!
//! * Uniforms are declared in register order with hidden `_gap_…` uniforms filling the holes,
//!   because picasso allocates `.fvec`/`.ivec`/`.bool` upward from the first free register and
//!   has no explicit-register syntax for them.
//! * Constants use `.constf`/`.constfa`/`.consti` where picasso's downward allocation (from c95
//!   and i3) puts them at their register, `.setf`/`.seti` elsewhere, and `.setb` for booleans.
//! * Source swizzles show only the components the instruction reads as picasso counts them
//!   (see [`Lanes`]): picasso shares operand descriptors between instructions that agree on
//!   those, so the other components do not survive re-assembly.
//! * Every instruction is printed, including the padding NOPs picasso would insert itself, so
//!   picasso inserts none; where the binary lacks one that picasso will insert, a comment says so.
//! * Procedures are the entry range plus every CALL/CALLC/CALLU target range, printed in
//!   address order (picasso lays procedures out in source order).

use super::flow;
use super::instruction::{COMPONENTS, Instruction, OperandDescriptor, decode};
use super::names::{NameSet, label_name, sanitize};
use super::opcodes::{CMP_OPERATORS, Lanes, Op, Syntax};
use super::{Constant, ShaderType, SourceContext, float24};
use crate::print::{Printer, Style};
use std::collections::BTreeMap;
use std::fmt::{self, Write};

/// Most instruction lines one listing prints (procedures called with many different ranges
/// could otherwise repeat the code without bound).
const MAX_LINES: usize = 1 << 16;

/// A register's spelling through an alias: `name`, `name[offset]` for arrays.
#[derive(Debug, Clone, Copy)]
struct AliasRef {
    alias: u32,
    offset: u8,
    array: bool,
}

/// Register files that can carry aliases.
#[derive(Debug)]
struct Aliases {
    names: Vec<String>,
    v: [Option<AliasRef>; 16],
    c: [Option<AliasRef>; 96],
    i: [Option<AliasRef>; 4],
    b: [Option<AliasRef>; 16],
    o: [Option<AliasRef>; 16],
    /// Aliases for v/r registers used with an address register (picasso only accepts an index
    /// on a float uniform written as a register, but accepts it on any alias).
    rel: [Option<u32>; 32],
}

impl Default for Aliases {
    fn default() -> Self {
        Aliases {
            names: Vec::new(),
            v: [None; 16],
            c: [None; 96],
            i: [None; 4],
            b: [None; 16],
            o: [None; 16],
            rel: [None; 32],
        }
    }
}

impl Aliases {
    fn add(&mut self, name: String) -> u32 {
        self.names.push(name);
        u32::try_from(self.names.len() - 1).unwrap_or(u32::MAX)
    }

    fn name(&self, a: u32) -> &str {
        self.names.get(a as usize).map(String::as_str).unwrap_or("?")
    }
}

/// A declaration line before the code.
#[derive(Debug)]
enum Decl {
    Uniform { directive: &'static str, name: String, size: u16, original: Option<String>, first: String },
    Input { name: String, register: String, original: Option<String> },
    ConstF { name: String, value: [u32; 4], register: u8 },
    ConstFa { name: String, values: Vec<[u32; 4]>, register: u8 },
    ConstI { name: String, value: [u8; 4], register: u8 },
    SetF { register: u8, value: [u32; 4] },
    SetI { register: u8, value: [u8; 4] },
    SetB { register: u8, value: bool },
    Out { name: Option<String>, semantic: &'static str, register: String },
    Alias { name: String, register: String },
    Comment(String),
}

/// One procedure of the listing: a word range of the code.
#[derive(Debug, Clone)]
struct Proc {
    start: u32,
    end: u32,
    /// Reached only by jumps.
    by_jump: bool,
    name: String,
}

/// A block opened by IFC/IFU/LOOP.
#[derive(Debug, Clone, Copy)]
struct Block {
    /// IF: where the else part starts (the IF's target); LOOP: the end.
    split: u32,
    /// First word after the block.
    end: u32,
    is_if: bool,
    in_else: bool,
}

impl Block {
    /// Where the part being printed ends.
    fn part_end(&self) -> u32 {
        if self.is_if && !self.in_else { self.split } else { self.end }
    }
}

/// Everything resolved before printing.
struct Listing<'c> {
    ctx: &'c SourceContext<'c>,
    insts: Vec<Instruction>,
    geometry: bool,
    aliases: Aliases,
    gsh: Option<String>,
    decls: Vec<Decl>,
    procs: Vec<Proc>,
    entry: usize,
    /// The DVLE label of the entry, where it is not `main`.
    entry_label: Option<String>,
    /// (start, length) of a CALL range → procedure index.
    proc_by_range: BTreeMap<(u32, u32), usize>,
    /// (procedure, word address) → label name.
    labels: BTreeMap<(usize, u32), String>,
    /// Jump instruction (procedure, address) → label name, or None when the target is
    /// outside every procedure.
    jumps: BTreeMap<(usize, u32), Option<String>>,
    notes: Vec<String>,
}

/// Print one executable as complete picasso source.
pub fn write_source(ctx: &SourceContext<'_>, out: &mut dyn Printer) -> fmt::Result {
    let listing = Listing::new(ctx);
    listing.write(out)
}

/// One-line text of an instruction word without DVLE names (registers spelled plainly,
/// targets as word addresses), for byte dumps.
pub fn describe_word(word: u32, opdescs: &[u32]) -> String {
    let ctx = SourceContext {
        code: &[],
        opdescs,
        main: 0,
        endmain: 0,
        shader_type: ShaderType::Vertex,
        merge_outmaps: false,
        geometry: super::GeometryMode { mode: 0, fixed_start: 0, variable_count: 0, fixed_count: 0 },
        uniforms: &[],
        outputs: &[],
        constants: &[],
        labels: &[],
        code_offset: 0,
        offsets: false,
        raw: false,
    };
    let listing = Listing::bare(&ctx);
    let mut s = crate::print::TextBuf::default();
    let _ = listing.write_instruction(&mut s, &decode(word), None, true);
    s.into_string()
}

/// One-line text of an operand descriptor: mask, then each source's negation and swizzle.
pub fn describe_opdesc(word: u32) -> String {
    let d = OperandDescriptor(word);
    let mut s = String::from("mask .");
    for (lane, c) in COMPONENTS.iter().enumerate() {
        if d.writes(lane) {
            s.push(*c);
        }
    }
    for n in 0..3 {
        let _ = write!(s, ", src{} {}.{}", n + 1, if d.negate(n) { "-" } else { "+" }, d.swizzle(n));
    }
    if word & 0x8000_0000 != 0 {
        s.push_str(", bit 31 set");
    }
    s
}

/// Full write mask, identity swizzles, no negation.
const IDENTITY_DESC: u32 = 0x0d86_c36f;

/// Output semantics picasso can name.
fn semantic_name(s: u16) -> Option<(&'static str, &'static str)> {
    Some(match s {
        0 => ("position", "outpos"),
        1 => ("normalquat", "outnq"),
        2 => ("color", "outclr"),
        3 => ("texcoord0", "outtc0"),
        4 => ("texcoord0w", "outtc0w"),
        5 => ("texcoord1", "outtc1"),
        6 => ("texcoord2", "outtc2"),
        8 => ("view", "outview"),
        9 => ("dummy", "outdummy"),
        _ => return None,
    })
}

/// Mask text in lane order (`xy`, `xzw`…), bit 0 = x as in the output table.
fn out_mask(mask: u16) -> String {
    COMPONENTS.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| *c).collect()
}

impl<'c> Listing<'c> {
    fn bare(ctx: &'c SourceContext<'c>) -> Listing<'c> {
        Listing {
            ctx,
            insts: Vec::new(),
            geometry: false,
            aliases: Aliases::default(),
            gsh: None,
            decls: Vec::new(),
            procs: Vec::new(),
            entry: 0,
            entry_label: None,
            proc_by_range: BTreeMap::new(),
            labels: BTreeMap::new(),
            jumps: BTreeMap::new(),
            notes: Vec::new(),
        }
    }

    fn new(ctx: &'c SourceContext<'c>) -> Listing<'c> {
        let mut l = Listing::bare(ctx);
        l.insts = ctx.code.iter().map(|w| decode(*w)).collect();
        l.geometry = ctx.shader_type == ShaderType::Geometry;
        if let ShaderType::Other(t) = ctx.shader_type {
            l.notes.push(format!(
                "DVLE shader type {t} is neither vertex (0) nor geometry (1); listed as vertex"
            ));
        }
        let mut names = NameSet::default();
        l.find_procs();
        let first_free = l.geometry_header();
        l.declare_uniforms(&mut names, first_free);
        l.declare_outputs(&mut names);
        l.declare_relative_aliases(&mut names);
        l.name_procs_and_labels(&mut names);
        l
    }

    // ------------------------------------------------------------------ procedures

    /// The entry range and every called range, transitively, in address order.
    fn find_procs(&mut self) {
        let found = flow::procedures(&self.insts, self.ctx.main, self.ctx.endmain, MAX_LINES);
        if found.clamped {
            let (s, e) = found.ranges.get(found.entry).map_or((0, 0), |r| (r.start, r.end));
            self.notes.push(format!(
                "entry range 0x{:03x}..0x{:03x} is not inside the {} code words; listed as 0x{s:03x}..0x{e:03x}",
                self.ctx.main,
                self.ctx.endmain,
                self.insts.len()
            ));
        }
        if found.truncated {
            self.notes.push("too many procedure ranges; the listing leaves some out".into());
        }
        self.entry = found.entry;
        self.procs = found
            .ranges
            .iter()
            .map(|r| Proc { start: r.start, end: r.end, by_jump: r.by_jump, name: String::new() })
            .collect();
        for (k, p) in self.procs.iter().enumerate() {
            self.proc_by_range.insert((p.start, p.end - p.start), k);
        }
    }

    fn name_procs_and_labels(&mut self, names: &mut NameSet) {
        let ctx = self.ctx;
        // One DVLE label per address; Nintendo's tables also mark where each routine ends
        // (`endmain`, `endlength` at the address of whatever follows), so a name that is `end`
        // plus another label's name gives way to any other name at its address.
        let marks_an_end =
            |n: &str| n.strip_prefix("end").is_some_and(|r| ctx.labels.iter().any(|l| l.name == r));
        let mut by_address: BTreeMap<u32, &str> = BTreeMap::new();
        for l in ctx.labels {
            let better = match by_address.get(&l.address) {
                None => true,
                Some(old) => marks_an_end(old) && !marks_an_end(&l.name),
            };
            if better {
                by_address.insert(l.address, &l.name);
            }
        }
        // The entry keeps its DVLE label as its name where that is a usable identifier, else it
        // is `main`; an `.entry` line always names it, so picasso puts main where it was.
        self.entry_label = by_address
            .get(&self.procs.get(self.entry).map_or(u32::MAX, |p| p.start))
            .and_then(|n| (*n != "main").then(|| n.to_string()));
        if let Some(p) = self.procs.get(self.entry) {
            by_address.remove(&p.start);
        }
        let mut pick = |names: &mut NameSet, at: u32, fallback: String| -> String {
            match by_address.get(&at).and_then(|n| label_name(n)) {
                Some(n) if names.is_free_label(&n) => {
                    by_address.remove(&at);
                    names.claim_label(&n)
                }
                _ => names.claim_label(&fallback),
            }
        };
        let order: Vec<usize> =
            std::iter::once(self.entry).chain((0..self.procs.len()).filter(|k| *k != self.entry)).collect();
        for k in order {
            let Some(p) = self.procs.get(k) else { continue };
            let start = p.start;
            let name = if k == self.entry {
                let own = self.entry_label.as_deref().and_then(label_name).filter(|n| names.is_free_label(n));
                names.claim_label(own.as_deref().unwrap_or("main"))
            } else {
                pick(names, start, format!("proc_{start:03x}"))
            };
            if let Some(p) = self.procs.get_mut(k) {
                p.name = name;
            }
        }
        // Jump targets: a label in the jumping procedure if the target is inside it, else in the
        // range made for code reached only by jumps, else in the first procedure that contains
        // it. (Re-assembled, the jump then leads into the same range, which the procedure walk
        // finds again.)
        let mut wanted: Vec<(usize, u32, u32)> = Vec::new();
        for (k, p) in self.procs.iter().enumerate() {
            for a in p.start..p.end {
                let Some(i) = self.insts.get(a as usize) else { continue };
                if matches!(i.op, Op::Jmpc | Op::Jmpu) {
                    wanted.push((k, a, u32::from(i.target)));
                }
            }
        }
        let len = self.insts.len() as u64;
        let last = self.procs.len().checked_sub(1);
        for (k, a, t) in wanted {
            let inside = |p: &Proc| p.start <= t && t < p.end;
            // Past the last word: the end of the last procedure, which re-assembled is the end
            // of the code again.
            let past_the_end = (u64::from(t) == len).then_some(last).flatten();
            let home = self
                .procs
                .get(k)
                .filter(|p| inside(p))
                .map(|_| k)
                .or_else(|| self.procs.iter().position(|p| p.by_jump && inside(p)))
                .or_else(|| self.procs.iter().position(inside))
                .or(past_the_end);
            let label = home.map(|h| {
                let at = self.procs.get(h).filter(|p| !inside(p)).map_or(t, |p| p.end);
                if let Some(n) = self.labels.get(&(h, at)) {
                    return n.clone();
                }
                let n = pick(names, t, format!("l_{t:03x}"));
                self.labels.insert((h, at), n.clone());
                n
            });
            if label.is_none() {
                self.notes.push(format!(
                    "jump at 0x{a:03x} targets 0x{t:03x}, outside every procedure of this DVLE"
                ));
            }
            self.jumps.insert((k, a), label);
        }
    }

    // ------------------------------------------------------------------ declarations

    /// The `.gsh` line; returns the first float uniform picasso may allocate.
    fn geometry_header(&mut self) -> u8 {
        if !self.geometry {
            return 0;
        }
        let g = self.ctx.geometry;
        let lowest_uniform = self
            .ctx
            .uniforms
            .iter()
            .filter(|u| (0x10..0x70).contains(&u.first) && u.last < 0x70 && u.last >= u.first)
            .map(|u| (u.first - 0x10) as u8)
            .min();
        let fixed_floor = g.fixed_start.saturating_add(1).min(95);
        let first = match g.mode {
            2 => lowest_uniform.unwrap_or(fixed_floor).max(fixed_floor),
            _ => lowest_uniform.unwrap_or(0),
        };
        self.gsh = Some(match g.mode {
            1 => format!("variable c{first} {}", g.variable_count),
            2 => format!("fixed c{first} c{} {}", g.fixed_start, g.fixed_count),
            m => {
                if m != 0 {
                    self.notes.push(format!("geometry mode {m} is unknown; listed as point mode"));
                }
                format!("point c{first}")
            }
        });
        first
    }

    fn declare_uniforms(&mut self, names: &mut NameSet, first_free: u8) {
        // (directive, unified base, registers in the file, registers picasso allocates, letter,
        // allocator start). picasso keeps b15 out of a geometry shader's allocation.
        let bool_limit = if self.geometry { 15 } else { 16 };
        let classes: [(&'static str, u16, u16, u16, char, u16); 3] = [
            (".fvec", 0x10, 96, 96, 'c', u16::from(first_free)),
            (".ivec", 0x70, 4, 4, 'i', 0),
            (".bool", 0x78, 16, bool_limit, 'b', 0),
        ];
        let mut sorted: Vec<&super::Uniform> = self.ctx.uniforms.iter().collect();
        sorted.sort_by_key(|u| (u.first, u.last));
        // Inputs.
        for u in sorted.iter().filter(|u| u.first < 0x10) {
            let original = u.name.clone();
            let name = names.claim(&sanitize(&u.name));
            if u.last != u.first {
                self.decls.push(Decl::Comment(format!(
                    "input \"{}\" covers v{}-v{}; picasso's .in takes one register",
                    printable(&original),
                    u.first,
                    u.last
                )));
            }
            let a = self.aliases.add(name.clone());
            if let Some(slot) = self.aliases.v.get_mut(usize::from(u.first)) {
                *slot = Some(AliasRef { alias: a, offset: 0, array: false });
            }
            let register = if u.first == 15 { "v14[1]".to_string() } else { format!("v{}", u.first) };
            let original = (sanitize(&original).replace('$', ".") != original).then_some(original);
            self.decls.push(Decl::Input { name, register, original });
        }
        let mut alloc_end = [0u16; 3];
        for (ci, &(directive, base, span, count, letter, start)) in classes.iter().enumerate() {
            let mut next = start;
            for u in sorted.iter().filter(|u| u.first >= base && u.first < base + span) {
                let (first, last) = (u.first - base, u.last.wrapping_sub(base));
                let original = u.name.clone();
                let fits = u.last >= u.first && last < count && first >= next;
                if !fits {
                    // No declaration: re-assembled, the uniform would land elsewhere. Its
                    // registers are printed plainly and the table entry is lost.
                    self.decls.push(Decl::Comment(format!(
                        "uniform \"{}\" ({letter}{first}-{letter}{last}) cannot be placed by picasso's allocator here",
                        printable(&original)
                    )));
                    continue;
                }
                let name = names.claim(&sanitize(&u.name));
                let size = last - first + 1;
                let a = self.aliases.add(name.clone());
                let table = match letter {
                    'c' => self.aliases.c.as_mut_slice(),
                    'i' => self.aliases.i.as_mut_slice(),
                    _ => self.aliases.b.as_mut_slice(),
                };
                for k in 0..size {
                    if let Some(slot) = table.get_mut(usize::from(first + k)) {
                        slot.get_or_insert(AliasRef { alias: a, offset: k as u8, array: size > 1 });
                    }
                }
                if first > next {
                    let gap = names.claim(&format!("_gap_{letter}{next}"));
                    let size = first - next;
                    self.decls.push(Decl::Uniform {
                        directive,
                        name: gap,
                        size,
                        original: None,
                        first: format!("{letter}{next}"),
                    });
                }
                let shown = (sanitize(&original).replace('$', ".") != original).then_some(original);
                self.decls.push(Decl::Uniform {
                    directive,
                    name,
                    size,
                    original: shown,
                    first: format!("{letter}{first}"),
                });
                next = last + 1;
            }
            if let Some(e) = alloc_end.get_mut(ci) {
                *e = next;
            }
        }
        for u in sorted.iter().filter(|u| u.first >= 0x88 || (0x74..0x78).contains(&u.first)) {
            self.decls.push(Decl::Comment(format!(
                "uniform \"{}\" has register 0x{:x}-0x{:x}, which is no register",
                printable(&u.name),
                u.first,
                u.last
            )));
        }
        self.declare_constants(names, alloc_end);
    }

    fn declare_constants(&mut self, names: &mut NameSet, alloc_end: [u16; 3]) {
        let [fstart, istart, _] = alloc_end;
        let (mut fend, mut iend) = (96u16, 4u16);
        let consts = self.ctx.constants;
        let mut k = 0;
        while let Some(c) = consts.get(k) {
            k += 1;
            match *c {
                Constant::Float { register, value } => {
                    let r = u16::from(register);
                    if r >= 96 {
                        self.decls.push(Decl::Comment(format!("constant for c{r}, which does not exist")));
                        continue;
                    }
                    let want = fend.saturating_sub(r);
                    let run = 1 + consts
                        .get(k..)
                        .unwrap_or(&[])
                        .iter()
                        .enumerate()
                        .take_while(|(j, c)| {
                            matches!(c, Constant::Float { register: q, .. } if u16::from(*q) == r + 1 + *j as u16)
                        })
                        .count() as u16;
                    if want >= 1
                        && r >= fstart
                        && run >= want
                        && self.aliases.c.get(usize::from(r)).is_some_and(Option::is_none)
                    {
                        let name = names.claim(&format!("const_c{r}"));
                        let a = self.aliases.add(name.clone());
                        for j in 0..want {
                            if let Some(slot) = self.aliases.c.get_mut(usize::from(r + j)) {
                                slot.get_or_insert(AliasRef { alias: a, offset: j as u8, array: want > 1 });
                            }
                        }
                        if want == 1 {
                            self.decls.push(Decl::ConstF { name, value, register });
                        } else {
                            let mut values = vec![value];
                            for _ in 1..want {
                                if let Some(Constant::Float { value, .. }) = consts.get(k) {
                                    values.push(*value);
                                }
                                k += 1;
                            }
                            self.decls.push(Decl::ConstFa { name, values, register });
                        }
                        fend = r;
                    } else {
                        self.decls.push(Decl::SetF { register, value });
                    }
                }
                Constant::Int { register, value } => {
                    let r = u16::from(register);
                    if r >= 4 {
                        self.decls.push(Decl::Comment(format!("constant for i{r}, which does not exist")));
                    } else if r + 1 == iend
                        && r >= istart
                        && self.aliases.i.get(usize::from(r)).is_some_and(Option::is_none)
                    {
                        let name = names.claim(&format!("const_i{r}"));
                        let a = self.aliases.add(name.clone());
                        if let Some(slot) = self.aliases.i.get_mut(usize::from(r)) {
                            *slot = Some(AliasRef { alias: a, offset: 0, array: false });
                        }
                        self.decls.push(Decl::ConstI { name, value, register });
                        iend = r;
                    } else {
                        self.decls.push(Decl::SetI { register, value });
                    }
                }
                Constant::Bool { register, value } => {
                    if register >= 16 {
                        self.decls
                            .push(Decl::Comment(format!("constant for b{register}, which does not exist")));
                    } else {
                        self.decls.push(Decl::SetB { register, value });
                    }
                }
            }
        }
    }

    fn declare_outputs(&mut self, names: &mut NameSet) {
        let max_reg = if self.geometry { 7 } else { 16 };
        let outputs = self.ctx.outputs;
        let mut used = [0u16; 16];
        for o in outputs {
            let Some((semantic, base)) = semantic_name(o.semantic) else {
                self.decls.push(Decl::Comment(format!(
                    "output o{} with semantic {} (no picasso name), mask .{}",
                    o.register,
                    o.semantic,
                    out_mask(o.mask)
                )));
                continue;
            };
            // picasso: o7 and up are dummy-only (and absent in a geometry shader), a mask needs
            // a component, and two outputs may not share a component of a register.
            let taken = used.get(usize::from(o.register)).copied().unwrap_or(0);
            if o.register >= max_reg
                || (o.register >= 7 && o.semantic != 9)
                || o.mask & 0xF == 0
                || taken & o.mask != 0
            {
                self.decls.push(Decl::Comment(format!(
                    "output {semantic} on o{} mask 0x{:x} cannot be declared in picasso",
                    o.register, o.mask
                )));
                continue;
            }
            if let Some(u) = used.get_mut(usize::from(o.register)) {
                *u |= o.mask & 0xF;
            }
            let mask = if o.mask & 0xF == 0xF { String::new() } else { format!(".{}", out_mask(o.mask)) };
            let register = format!("o{}{mask}", o.register);
            let slot = self.aliases.o.get(usize::from(o.register)).copied().flatten();
            let name = if slot.is_none() {
                let twice = outputs.iter().filter(|p| p.semantic == o.semantic).count() > 1;
                let base = if twice { format!("{base}_o{}", o.register) } else { base.to_string() };
                let name = names.claim(&base);
                let a = self.aliases.add(name.clone());
                if let Some(s) = self.aliases.o.get_mut(usize::from(o.register)) {
                    *s = Some(AliasRef { alias: a, offset: 0, array: false });
                }
                Some(name)
            } else {
                None
            };
            self.decls.push(Decl::Out { name, semantic, register });
        }
        let dummy = outputs.iter().any(|o| o.semantic == 9);
        if self.ctx.merge_outmaps != (dummy && self.geometry) {
            self.notes.push(format!(
                "the DVLE's merge-outmaps flag is {}; picasso sets it exactly for geometry shaders with a dummy output",
                u8::from(self.ctx.merge_outmaps)
            ));
        }
    }

    /// `.alias` lines for v/r registers that some printed instruction indexes.
    fn declare_relative_aliases(&mut self, names: &mut NameSet) {
        let mut need = [false; 32];
        for p in &self.procs {
            for a in p.start..p.end {
                let Some(i) = self.insts.get(a as usize) else { continue };
                if i.idx == 0 {
                    continue;
                }
                if let Some(w) = i.wide_source() {
                    let f = i.src.get(w).copied().unwrap_or(0x20);
                    if let Some(n) = need.get_mut(usize::from(f)) {
                        *n = true;
                    }
                }
            }
        }
        for (f, _) in need.iter().enumerate().filter(|(_, n)| **n) {
            let reg = if f < 16 { format!("v{f}") } else { format!("r{}", f - 16) };
            let name = names.claim(&format!("rel_{reg}"));
            let a = self.aliases.add(name.clone());
            if let Some(s) = self.aliases.rel.get_mut(f) {
                *s = Some(a);
            }
            let register = if f == 15 { "v14[1]".to_string() } else { reg };
            self.decls.push(Decl::Alias { name, register });
        }
    }

    // ------------------------------------------------------------------ printing

    fn write(&self, out: &mut dyn Printer) -> fmt::Result {
        let ctx = self.ctx;
        let kind = if self.geometry { "geometry" } else { "vertex" };
        comment_line(
            out,
            &format!(
                "{kind} shader: entry 0x{:03x}..0x{:03x} of {} code words, {} operand descriptors",
                ctx.main,
                ctx.endmain,
                ctx.code.len(),
                ctx.opdescs.len()
            ),
        )?;
        for n in &self.notes {
            comment_line(out, n)?;
        }
        if let Some(g) = &self.gsh {
            out.start_line(None);
            out.styled(Style::Directive, ".gsh")?;
            writeln!(out, " {g}")?;
        }
        for d in &self.decls {
            self.write_decl(out, d)?;
        }
        if let Some(p) = self.procs.get(self.entry) {
            out.start_line(None);
            out.styled(Style::Directive, ".entry")?;
            out.write_char(' ')?;
            out.styled(Style::Label, &p.name)?;
            out.write_char('\n')?;
        }
        for (k, p) in self.procs.iter().enumerate() {
            out.start_line(None);
            out.write_char('\n')?;
            self.write_proc(out, k, p)?;
        }
        Ok(())
    }

    fn write_decl(&self, out: &mut dyn Printer, d: &Decl) -> fmt::Result {
        out.start_line(None);
        match d {
            Decl::Uniform { directive, name, size, original, first } => {
                out.styled(Style::Directive, directive)?;
                write!(out, " {name}")?;
                if *size != 1 {
                    write!(out, "[{size}]")?;
                }
                out.style(Style::Comment);
                write!(out, " ; {first}")?;
                if let Some(o) = original {
                    write!(out, " \"{}\"", printable(o))?;
                }
                out.reset();
            }
            Decl::Input { name, register, original } => {
                out.styled(Style::Directive, ".in")?;
                write!(out, " {name} ")?;
                out.styled(Style::Register, register)?;
                if let Some(o) = original {
                    out.style(Style::Comment);
                    write!(out, " ; \"{}\"", printable(o))?;
                    out.reset();
                }
            }
            Decl::ConstF { name, value, register } => {
                out.styled(Style::Directive, ".constf")?;
                write!(out, " {name}")?;
                write_f24s(out, value)?;
                out.style(Style::Comment);
                write!(out, " ; c{register}")?;
                out.reset();
            }
            Decl::ConstFa { name, values, register } => {
                out.styled(Style::Directive, ".constfa")?;
                write!(out, " {name}[]")?;
                out.style(Style::Comment);
                write!(out, " ; c{register}-c{}", usize::from(*register) + values.len() - 1)?;
                out.reset();
                out.write_char('\n')?;
                for v in values {
                    out.start_line(None);
                    out.styled(Style::Directive, ".constfa ")?;
                    write_f24s(out, v)?;
                    out.write_char('\n')?;
                }
                out.start_line(None);
                out.styled(Style::Directive, ".end")?;
            }
            Decl::ConstI { name, value, register } => {
                out.styled(Style::Directive, ".consti")?;
                write!(out, " {name}")?;
                write_ints(out, value)?;
                out.style(Style::Comment);
                write!(out, " ; i{register}")?;
                out.reset();
            }
            Decl::SetF { register, value } => {
                out.styled(Style::Directive, ".setf")?;
                out.write_char(' ')?;
                out.style(Style::Register);
                write!(out, "c{register}")?;
                out.reset();
                write_f24s(out, value)?;
            }
            Decl::SetI { register, value } => {
                out.styled(Style::Directive, ".seti")?;
                out.write_char(' ')?;
                out.style(Style::Register);
                write!(out, "i{register}")?;
                out.reset();
                write_ints(out, value)?;
            }
            Decl::SetB { register, value } => {
                out.styled(Style::Directive, ".setb")?;
                out.write_char(' ')?;
                out.style(Style::Register);
                write!(out, "b{register}")?;
                out.reset();
                out.write_char(' ')?;
                out.styled(Style::Literal, if *value { "true" } else { "false" })?;
            }
            Decl::Out { name, semantic, register } => {
                out.styled(Style::Directive, ".out")?;
                write!(out, " {} {semantic} ", name.as_deref().unwrap_or("-"))?;
                out.styled(Style::Register, register)?;
            }
            Decl::Alias { name, register } => {
                out.styled(Style::Directive, ".alias")?;
                write!(out, " {name} ")?;
                out.styled(Style::Register, register)?;
            }
            Decl::Comment(c) => {
                out.style(Style::Comment);
                write!(out, "; {}", printable(c))?;
                out.reset();
            }
        }
        out.write_char('\n')
    }

    fn write_proc(&self, out: &mut dyn Printer, k: usize, p: &Proc) -> fmt::Result {
        out.start_line(None);
        out.styled(Style::Directive, ".proc")?;
        out.write_char(' ')?;
        out.styled(Style::Label, &p.name)?;
        if let Some(l) = self.entry_label.as_ref().filter(|l| k == self.entry && **l != p.name) {
            out.style(Style::Comment);
            write!(out, " ; DVLE label \"{}\"", printable(l))?;
            out.reset();
        }
        out.write_char('\n')?;
        let mut stack: Vec<Block> = Vec::new();
        // picasso's padding rules, to point out where it will insert a NOP that the binary lacks.
        let mut last_was_end = false;
        let mut last_op: Option<Op> = None;
        let mut opened_at: Vec<u32> = Vec::new();
        for a in p.start..=p.end {
            // Close or switch blocks that end here.
            while let Some(&top) = stack.last() {
                if top.is_if && !top.in_else && a == top.split && top.end > top.split {
                    let body = a.saturating_sub(opened_at.last().copied().unwrap_or(a));
                    if last_was_end || ends_block_badly(last_op, false) || body < 2 {
                        self.padding_note(out, stack.len())?;
                    }
                    if let Some(t) = stack.last_mut() {
                        t.in_else = true;
                    }
                    last_was_end = false;
                    self.directive_line(out, stack.len(), ".else")?;
                } else if a == top.part_end() {
                    let is_loop = !top.is_if;
                    let body = a.saturating_sub(opened_at.last().copied().unwrap_or(a));
                    if last_was_end || ends_block_badly(last_op, is_loop) || body < 2 {
                        self.padding_note(out, stack.len())?;
                    }
                    stack.pop();
                    opened_at.pop();
                    self.directive_line(out, stack.len() + 1, ".end")?;
                    last_was_end = true;
                } else {
                    break;
                }
            }
            if let Some(name) = self.labels.get(&(k, a)) {
                out.start_line(None);
                out.styled(Style::Label, name)?;
                out.write_str(":\n")?;
            }
            if a == p.end {
                break;
            }
            let Some(inst) = self.insts.get(a as usize) else { break };
            let depth = stack.len() + 1;
            out.start_line(Some(self.ctx.code_offset.saturating_add(4 * u64::from(a))));
            indent(out, depth)?;
            let dropped = self.block_problem(inst, a, stack.last().map(Block::part_end).unwrap_or(p.end));
            if let Some(problem) = &dropped {
                out.style(Style::Comment);
                write!(out, "; {problem}: ")?;
                self.write_instruction(out, inst, Some((k, a)), true)?;
                out.reset();
            } else {
                self.write_instruction(out, inst, Some((k, a)), false)?;
            }
            self.write_trailer(out, a)?;
            out.write_char('\n')?;
            last_was_end = false;
            last_op = Some(inst.op);
            if dropped.is_none() {
                match inst.op {
                    Op::Ifc | Op::Ifu => {
                        let split = u32::from(inst.target);
                        stack.push(Block {
                            split,
                            end: split + u32::from(inst.num),
                            is_if: true,
                            in_else: false,
                        });
                        opened_at.push(a);
                    }
                    Op::Loop => {
                        stack.push(Block {
                            split: 0,
                            end: u32::from(inst.target) + 1,
                            is_if: false,
                            in_else: false,
                        });
                        opened_at.push(a);
                    }
                    _ => {}
                }
            }
        }
        // Blocks still open cannot happen (targets are checked against the enclosing part), but
        // keep the output balanced whatever the input.
        while stack.pop().is_some() {
            self.directive_line(out, stack.len() + 1, ".end")?;
            last_was_end = true;
        }
        if last_was_end || ends_block_badly(last_op, false) || p.end == p.start {
            self.padding_note(out, 0)?;
        }
        self.directive_line(out, 0, ".end")
    }

    /// Why an IF/LOOP at `a` cannot be written as a block ending inside `limit`, if it cannot.
    fn block_problem(&self, inst: &Instruction, a: u32, limit: u32) -> Option<String> {
        let t = u32::from(inst.target);
        match inst.op {
            Op::Ifc | Op::Ifu => {
                let end = t + u32::from(inst.num);
                (t <= a || end > limit)
                    .then(|| format!("if-block 0x{a:03x}..0x{t:03x}+{} is not nested", inst.num))
            }
            Op::Loop => {
                (t <= a || t >= limit).then(|| format!("loop body 0x{a:03x}..0x{t:03x} is not nested"))
            }
            Op::Unknown => Some("unknown opcode".into()),
            _ => None,
        }
    }

    fn padding_note(&self, out: &mut dyn Printer, depth: usize) -> fmt::Result {
        out.start_line(None);
        indent(out, depth + 1)?;
        out.styled(Style::Comment, "; picasso inserts a padding nop here, which this binary does not have\n")
    }

    fn directive_line(&self, out: &mut dyn Printer, depth: usize, d: &str) -> fmt::Result {
        out.start_line(None);
        indent(out, depth)?;
        out.styled(Style::Directive, d)?;
        out.write_char('\n')
    }

    fn write_trailer(&self, out: &mut dyn Printer, a: u32) -> fmt::Result {
        if !self.ctx.offsets && !self.ctx.raw {
            return Ok(());
        }
        out.style(Style::Address);
        out.write_str(" ;")?;
        if self.ctx.offsets {
            write!(out, " 0x{:06x}", self.ctx.code_offset.saturating_add(4 * u64::from(a)))?;
        }
        if self.ctx.raw {
            let w = self.ctx.code.get(a as usize).copied().unwrap_or(0);
            write!(out, " {w:08x}")?;
        }
        out.reset();
        Ok(())
    }

    /// One instruction. `at` is (procedure, address) in a listing, None for a bare word;
    /// `describe` prints targets numerically instead of through labels and blocks.
    fn write_instruction(
        &self,
        out: &mut dyn Printer,
        i: &Instruction,
        at: Option<(usize, u32)>,
        describe: bool,
    ) -> fmt::Result {
        let info = i.info();
        // A missing descriptor is shown as the identity (full mask, no negation or swizzle).
        let d =
            OperandDescriptor(self.ctx.opdescs.get(usize::from(i.desc)).copied().unwrap_or(IDENTITY_DESC));
        let desc_ok = !i.has_desc() || usize::from(i.desc) < self.ctx.opdescs.len();
        // An instruction that writes no component does nothing: print it as the NOP it is.
        let writes_nothing = desc_ok
            && match info.syntax {
                Syntax::DstSrcSrc | Syntax::DstSrc | Syntax::Mad => d.mask() == 0,
                Syntax::Mova => d.mask() & 0xC == 0,
                _ => false,
            };
        if writes_nothing && !describe {
            out.styled(Style::Mnemonic, "nop")?;
            out.style(Style::Comment);
            write!(out, " ; {} with an empty write mask", info.mnemonic)?;
            out.reset();
            return Ok(());
        }
        out.styled(Style::Mnemonic, info.mnemonic)?;
        match info.syntax {
            Syntax::Bare => {}
            Syntax::DstSrcSrc | Syntax::DstSrc | Syntax::Mad => {
                out.write_char(' ')?;
                self.write_dst(out, i.dst, d.mask())?;
                for n in 0..i.source_count() {
                    out.write_str(", ")?;
                    self.write_src(out, i, n, d)?;
                }
            }
            Syntax::Mova => {
                out.write_char(' ')?;
                out.styled(
                    Style::Register,
                    match d.mask() & 0xC {
                        8 => "a0.x",
                        4 => "a0.y",
                        _ => "a0.xy",
                    },
                )?;
                out.write_str(", ")?;
                self.write_src(out, i, 0, d)?;
            }
            Syntax::Cmp => {
                out.write_char(' ')?;
                self.write_src(out, i, 0, d)?;
                for op in i.cmp {
                    out.write_str(", ")?;
                    match CMP_OPERATORS.get(usize::from(op)) {
                        Some(s) => out.styled(Style::Literal, s)?,
                        None => {
                            out.style(Style::Literal);
                            write!(out, "op{op}")?;
                            out.reset();
                        }
                    }
                }
                out.write_str(", ")?;
                self.write_src(out, i, 1, d)?;
            }
            Syntax::Cond | Syntax::CondBlock => {
                out.write_char(' ')?;
                write_condition(out, i)?;
            }
            Syntax::CondProc | Syntax::CondLabel => {
                out.write_char(' ')?;
                write_condition(out, i)?;
                out.write_str(", ")?;
                self.write_target(out, i, at, describe)?;
            }
            Syntax::Proc => {
                out.write_char(' ')?;
                self.write_target(out, i, at, describe)?;
            }
            Syntax::BoolProc | Syntax::BoolLabel | Syntax::BoolBlock => {
                out.write_char(' ')?;
                if i.op == Op::Jmpu && i.negate {
                    out.write_char('!')?;
                }
                self.write_uniform(out, 'b', i.uniform)?;
                if info.syntax != Syntax::BoolBlock {
                    out.write_str(", ")?;
                    self.write_target(out, i, at, describe)?;
                }
            }
            Syntax::Loop => {
                out.write_char(' ')?;
                self.write_uniform(out, 'i', i.uniform)?;
            }
            Syntax::SetEmit => {
                out.style(Style::Literal);
                write!(out, " {}", i.vertex)?;
                out.reset();
                if i.primitive || i.invert {
                    out.write_char(',')?;
                    if i.primitive {
                        out.styled(Style::Literal, " prim")?;
                    }
                    if i.invert {
                        out.styled(Style::Literal, " inv")?;
                    }
                }
            }
            Syntax::Raw => {
                out.style(Style::Literal);
                write!(out, " 0x{:08x}", i.encode())?;
                out.reset();
            }
        }
        if describe {
            match info.syntax {
                Syntax::CondBlock | Syntax::BoolBlock => {
                    write!(out, " (else 0x{:03x}, {} words)", i.target, i.num)?;
                }
                Syntax::Loop => write!(out, " (to 0x{:03x})", i.target)?,
                _ => {}
            }
            if i.has_desc() {
                write!(out, " [opdesc 0x{:02x}]", i.desc)?;
            }
        }
        if !desc_ok {
            out.style(Style::Comment);
            write!(out, " ; opdesc 0x{:02x} is outside the table", i.desc)?;
            out.reset();
        }
        if i.unused != 0 && i.op != Op::Unknown {
            out.style(Style::Comment);
            write!(out, " ; unused bits 0x{:08x} set", i.unused)?;
            out.reset();
        }
        Ok(())
    }

    fn write_target(
        &self,
        out: &mut dyn Printer,
        i: &Instruction,
        at: Option<(usize, u32)>,
        describe: bool,
    ) -> fmt::Result {
        out.style(Style::Label);
        let r = if describe || at.is_none() {
            match i.op {
                Op::Jmpc | Op::Jmpu => write!(out, "0x{:03x}", i.target),
                _ => write!(out, "0x{:03x}+{}", i.target, i.num),
            }
        } else if matches!(i.op, Op::Jmpc | Op::Jmpu) {
            match at.and_then(|k| self.jumps.get(&k)).cloned().flatten() {
                Some(name) => out.write_str(&name),
                None => write!(out, "l_{:03x}", i.target),
            }
        } else {
            match self
                .proc_by_range
                .get(&(u32::from(i.target), u32::from(i.num)))
                .and_then(|k| self.procs.get(*k))
            {
                Some(p) => out.write_str(&p.name),
                None => write!(out, "invalid_0x{:03x}_{}", i.target, i.num),
            }
        };
        out.reset();
        r
    }

    fn write_uniform(&self, out: &mut dyn Printer, letter: char, n: u8) -> fmt::Result {
        let table = if letter == 'b' { self.aliases.b.as_slice() } else { self.aliases.i.as_slice() };
        out.style(Style::Register);
        match table.get(usize::from(n)).copied().flatten() {
            Some(a) => self.write_alias(out, a, None)?,
            None => write!(out, "{letter}{n}")?,
        }
        out.reset();
        Ok(())
    }

    fn write_alias(&self, out: &mut dyn Printer, a: AliasRef, idx: Option<&str>) -> fmt::Result {
        out.write_str(self.aliases.name(a.alias))?;
        match (idx, a.array) {
            (Some(ix), true) if a.offset > 0 => write!(out, "[{ix}+{}]", a.offset),
            (Some(ix), _) => write!(out, "[{ix}]"),
            (None, true) => write!(out, "[{}]", a.offset),
            (None, false) => Ok(()),
        }
    }

    fn write_dst(&self, out: &mut dyn Printer, field: u8, mask: u8) -> fmt::Result {
        out.style(Style::Register);
        if field < 0x10 {
            match self.aliases.o.get(usize::from(field)).copied().flatten() {
                Some(a) => self.write_alias(out, a, None)?,
                // picasso only names o0–o6 in a geometry shader; o6[k] reaches the rest.
                None if self.geometry && field >= 7 => write!(out, "o6[{}]", field - 6)?,
                None => write!(out, "o{field}")?,
            }
        } else {
            write!(out, "r{}", field - 0x10)?;
        }
        if mask & 0xF != 0xF {
            out.write_char('.')?;
            for (lane, c) in COMPONENTS.iter().enumerate() {
                if mask & (8 >> lane) != 0 {
                    out.write_char(*c)?;
                }
            }
        }
        out.reset();
        Ok(())
    }

    /// Source `n` of `i` with its negation, register, relative index and swizzle.
    fn write_src(
        &self,
        out: &mut dyn Printer,
        i: &Instruction,
        n: usize,
        d: OperandDescriptor,
    ) -> fmt::Result {
        let field = i.src.get(n).copied().unwrap_or(0);
        let idx = if i.wide_source() == Some(n) && i.idx != 0 {
            Some(["", "a0.x", "a0.y", "aL"].get(usize::from(i.idx)).copied().unwrap_or(""))
        } else {
            None
        };
        out.style(Style::Register);
        if d.negate(n) {
            out.write_char('-')?;
        }
        match field {
            0x00..=0x1F => match (idx, self.aliases.rel.get(usize::from(field)).copied().flatten()) {
                (Some(ix), Some(a)) => write!(out, "{}[{ix}]", self.aliases.name(a))?,
                (Some(ix), None) => write!(out, "{}[{ix}]", super::instruction::Register::source(field))?,
                _ if field < 0x10 => match self.aliases.v.get(usize::from(field)).copied().flatten() {
                    Some(a) => self.write_alias(out, a, None)?,
                    None if field == 15 => out.write_str("v14[1]")?,
                    None => write!(out, "v{field}")?,
                },
                _ => write!(out, "r{}", field - 0x10)?,
            },
            _ => {
                let c = field - 0x20;
                match (self.aliases.c.get(usize::from(c)).copied().flatten(), idx) {
                    (Some(a), ix) => self.write_alias(out, a, ix)?,
                    (None, Some(ix)) => write!(out, "c{c}[{ix}]")?,
                    (None, None) => write!(out, "c{c}")?,
                }
            }
        }
        write_swizzle(out, d, n, used_lanes(i.info().lanes, d, n))?;
        out.reset();
        Ok(())
    }
}

/// The source lanes an instruction reads, as picasso counts them (bit i = lane i, x = 0).
fn used_lanes(lanes: Lanes, d: OperandDescriptor, n: usize) -> u8 {
    let mask_lanes = (0..4).filter(|l| d.writes(*l)).fold(0u8, |m, l| m | (1 << l));
    match (lanes, n) {
        (Lanes::All, _) => 0xF,
        (Lanes::PerComponent, _) => mask_lanes,
        (Lanes::Dp3, _) => 0x7,
        (Lanes::Dph, 0) => 0x7,
        (Lanes::Dph, _) => 0xF,
        (Lanes::Scalar, _) => 0x1,
        (Lanes::Mova, _) => mask_lanes & 0x3,
        (Lanes::Cmp, 0) => 0x3,
        (Lanes::Cmp, _) => 0xF,
    }
}

/// A swizzle showing only the lanes read: nothing when they read their own component,
/// otherwise the lanes with unread ones repeating their left neighbour, and trailing repeats
/// dropped (picasso repeats the last component).
fn write_swizzle(out: &mut dyn Printer, d: OperandDescriptor, n: usize, used: u8) -> fmt::Result {
    let sw = d.swizzle(n).lanes();
    let identity = (0..4).all(|l| used & (1 << l) == 0 || usize::from(sw.get(l).copied().unwrap_or(0)) == l);
    if identity || used == 0 {
        return Ok(());
    }
    let first_used = (0..4).find(|l| used & (1 << l) != 0).unwrap_or(0);
    let mut t = [0u8; 4];
    let mut prev = sw.get(first_used).copied().unwrap_or(0);
    for (l, slot) in t.iter_mut().enumerate() {
        if used & (1 << l) != 0 {
            prev = sw.get(l).copied().unwrap_or(0);
        }
        *slot = prev;
    }
    let mut len = 4;
    while len > 1 && t.get(len - 1) == t.get(len - 2) {
        len -= 1;
    }
    out.write_char('.')?;
    for s in t.iter().take(len) {
        out.write_char(COMPONENTS.get(usize::from(*s)).copied().unwrap_or('x'))?;
    }
    Ok(())
}

fn write_condition(out: &mut dyn Printer, i: &Instruction) -> fmt::Result {
    out.style(Style::Register);
    let flag = |out: &mut dyn Printer, n: usize| -> fmt::Result {
        if !i.refs.get(n).copied().unwrap_or(true) {
            out.write_char('!')?;
        }
        out.write_str(if n == 0 { "cmp.x" } else { "cmp.y" })
    };
    match i.condop {
        0 | 1 => {
            flag(out, 0)?;
            out.write_str(if i.condop == 0 { " || " } else { " && " })?;
            flag(out, 1)?;
        }
        2 => flag(out, 0)?,
        _ => flag(out, 1)?,
    }
    out.reset();
    Ok(())
}

/// Whether picasso pads a block that ends after `op` (flow instructions must not end a block;
/// loops also must not end in BREAK/BREAKC).
fn ends_block_badly(op: Option<Op>, is_loop: bool) -> bool {
    matches!(op, Some(Op::Jmpc | Op::Jmpu | Op::Call | Op::Callc | Op::Callu))
        || (is_loop && matches!(op, Some(Op::Break | Op::Breakc)))
}

fn indent(out: &mut dyn Printer, depth: usize) -> fmt::Result {
    for _ in 0..depth {
        out.write_char('\t')?;
    }
    Ok(())
}

fn comment_line(out: &mut dyn Printer, text: &str) -> fmt::Result {
    out.start_line(None);
    out.style(Style::Comment);
    write!(out, "; {}", printable(text))?;
    out.reset();
    out.write_char('\n')
}

fn write_f24s(out: &mut dyn Printer, v: &[u32; 4]) -> fmt::Result {
    out.write_char('(')?;
    out.style(Style::Literal);
    for (k, x) in v.iter().enumerate() {
        if k > 0 {
            out.write_str(", ")?;
        }
        float24::write(out, *x)?;
    }
    out.reset();
    out.write_char(')')
}

fn write_ints(out: &mut dyn Printer, v: &[u8; 4]) -> fmt::Result {
    let [x, y, z, w] = *v;
    out.style(Style::Literal);
    write!(out, "({x}, {y}, {z}, {w})")?;
    out.reset();
    Ok(())
}

/// Text safe inside a one-line comment (no line breaks or control characters).
fn printable(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { '?' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{GeometryMode, Label, Output, Swizzle, Uniform};
    use super::*;
    use crate::print::TextBuf;

    fn ins(op: Op) -> Instruction {
        Instruction { op, ..Instruction::default() }
    }

    fn alu(op: Op, dst: u8, src: [u8; 3], desc: u8) -> u32 {
        Instruction { op, dst, src, desc, ..Instruction::default() }.encode()
    }

    fn sw(s: &str) -> Swizzle {
        let mut l = [0u8; 4];
        for (k, c) in s.chars().enumerate() {
            l[k] = COMPONENTS.iter().position(|x| *x == c).unwrap() as u8;
        }
        Swizzle::from_lanes(l)
    }

    fn ctx<'a>(code: &'a [u32], opdescs: &'a [u32]) -> SourceContext<'a> {
        SourceContext {
            code,
            opdescs,
            main: 0,
            endmain: code.len() as u32,
            shader_type: ShaderType::Vertex,
            merge_outmaps: false,
            geometry: GeometryMode { mode: 0, fixed_start: 0, variable_count: 0, fixed_count: 0 },
            uniforms: &[],
            outputs: &[],
            constants: &[],
            labels: &[],
            code_offset: 0x40,
            offsets: false,
            raw: false,
        }
    }

    fn listing(ctx: &SourceContext<'_>) -> String {
        let mut p = TextBuf::default();
        write_source(ctx, &mut p).unwrap();
        p.into_string()
    }

    const ID: (bool, Swizzle) = (false, Swizzle::IDENTITY);

    #[test]
    fn a_vertex_shader_with_every_kind_of_declaration() {
        let opdescs = [
            OperandDescriptor::new(0xF, [ID, ID, ID]).0,
            OperandDescriptor::new(0x8, [ID, ID, ID]).0,
            OperandDescriptor::new(0x0, [(false, sw("xxxx")), (false, sw("wwww")), ID]).0,
            OperandDescriptor::new(0xF, [(false, sw("yyyy")), ID, ID]).0,
            OperandDescriptor::new(0xC, [ID, ID, ID]).0,
            OperandDescriptor::new(0x8, [(true, sw("wwww")), ID, ID]).0,
        ];
        let code = [
            alu(Op::Dp4, 0x10, [0x20, 0x00, 0], 1),
            alu(Op::Mova, 0, [0x10, 0, 0], 1),
            Instruction { idx: 1, ..decode(alu(Op::Mov, 0x11, [0x24, 0, 0], 0)) }.encode(),
            Instruction { cmp: [2, 5], ..decode(alu(Op::Cmp, 0, [0x26, 0x11, 0], 2)) }.encode(),
            Instruction { refs: [true, false], condop: 1, target: 6, num: 2, ..ins(Op::Ifc) }.encode(),
            alu(Op::Mul, 0x00, [0x7F, 0x11, 0], 3),
            alu(Op::Mov, 0x00, [0x11, 0, 0], 0),
            ins(Op::Nop).encode(),
            Instruction { uniform: 3, target: 9, ..ins(Op::Loop) }.encode(),
            alu(Op::Add, 0x12, [0x34, 0x12, 0], 0),
            ins(Op::Nop).encode(),
            Instruction { uniform: 1, target: 16, num: 1, ..ins(Op::Callu) }.encode(),
            Instruction { refs: [false, true], condop: 2, target: 15, ..ins(Op::Jmpc) }.encode(),
            alu(Op::Mad, 0x01, [0x11, 0x34, 0x12], 4),
            Instruction { idx: 1, ..decode(alu(Op::Madi, 0x13, [0x11, 0x12, 0x21], 0)) }.encode(),
            ins(Op::End).encode(),
            alu(Op::Rcp, 0x14, [0x11, 0, 0], 5),
        ];
        let uniforms = [
            Uniform { name: "aPosition.xyz".into(), first: 0x00, last: 0x00 },
            Uniform { name: "uColor".into(), first: 0x16, last: 0x16 },
            Uniform { name: "uProj".into(), first: 0x10, last: 0x13 },
            Uniform { name: "bFlag".into(), first: 0x79, last: 0x79 },
            Uniform { name: "iCount".into(), first: 0x70, last: 0x70 },
        ];
        let constants = [
            Constant::Float { register: 95, value: [0x3f0000, 0, 0x3e0000, 0xbf0000] },
            Constant::Float { register: 20, value: [0x3d0000; 4] },
            Constant::Int { register: 3, value: [3, 0, 1, 0] },
            Constant::Bool { register: 2, value: true },
        ];
        let outputs = [
            Output { semantic: 0, register: 0, mask: 0xF },
            Output { semantic: 3, register: 1, mask: 0x3 },
            Output { semantic: 4, register: 1, mask: 0x4 },
        ];
        let mut c = ctx(&code, &opdescs);
        c.endmain = 16;
        c.uniforms = &uniforms;
        c.constants = &constants;
        c.outputs = &outputs;
        let expected = "\
; vertex shader: entry 0x000..0x010 of 17 code words, 6 operand descriptors
.in aPosition$xyz v0
.fvec uProj[4] ; c0
.fvec _gap_c4[2] ; c4
.fvec uColor ; c6
.ivec iCount ; i0
.bool _gap_b0 ; b0
.bool bFlag ; b1
.constf const_c95(1.0, 0.0, 0.5, -1.0) ; c95
.setf c20(0.25, 0.25, 0.25, 0.25)
.consti const_i3(3, 0, 1, 0) ; i3
.setb b2 true
.out outpos position o0
.out outtc0 texcoord0 o1.xy
.out - texcoord0w o1.z
.entry main

.proc main
	dp4 r0.x, uProj[0], aPosition$xyz
	mova a0.x, r0
	mov r1, c4[a0.x]
	cmp uColor.x, lt, ge, r1.w
	ifc cmp.x && !cmp.y
		mul outpos, const_c95.y, r1
	.else
		mov outpos, r1
		nop
	.end
	for const_i3
		add r2, c20, r2
	.end
	nop
	callu bFlag, proc_010
	jmpc !cmp.x, l_00f
	mad outtc0.xy, r1, c20, r2
	mad r3, r1, r2, uProj[a0.x+1]
l_00f:
	end
.end

.proc proc_010
	rcp r4.x, -r1.w
.end
";
        assert_eq!(listing(&c), expected);
    }

    #[test]
    fn a_geometry_shader_in_fixed_mode() {
        let opdescs = [OperandDescriptor::new(0xF, [ID, ID, ID]).0];
        let code = [
            Instruction { vertex: 0, primitive: true, ..ins(Op::Setemit) }.encode(),
            alu(Op::Mov, 0x00, [0x20, 0, 0], 0),
            alu(Op::Mov, 0x08, [0x0F, 0, 0], 0),
            ins(Op::Emit).encode(),
            Instruction { vertex: 2, invert: true, ..ins(Op::Setemit) }.encode(),
            ins(Op::End).encode(),
        ];
        let uniforms = [Uniform { name: "_secret".into(), first: 0x18, last: 0x19 }];
        let outputs =
            [Output { semantic: 0, register: 0, mask: 0xF }, Output { semantic: 9, register: 1, mask: 0xF }];
        let mut c = ctx(&code, &opdescs);
        c.shader_type = ShaderType::Geometry;
        c.merge_outmaps = true;
        c.geometry = GeometryMode { mode: 2, fixed_start: 0, variable_count: 0, fixed_count: 4 };
        c.uniforms = &uniforms;
        c.outputs = &outputs;
        let labels = [Label { name: "gmain".into(), address: 0 }];
        c.labels = &labels;
        let expected = "\
; geometry shader: entry 0x000..0x006 of 6 code words, 1 operand descriptors
.gsh fixed c8 c0 4
.fvec u_secret[2] ; c8 \"_secret\"
.out outpos position o0
.out outdummy dummy o1
.entry gmain

.proc gmain
	setemit 0, prim
	mov outpos, c0
	mov o6[2], v14[1]
	emit
	setemit 2, inv
	end
.end
";
        assert_eq!(listing(&c), expected);
    }

    #[test]
    fn the_entry_is_main_unless_an_alias_took_the_name() {
        let code = [ins(Op::End).encode()];
        let uniforms = [Uniform { name: "main".into(), first: 0x10, last: 0x10 }];
        let mut c = ctx(&code, &[]);
        c.uniforms = &uniforms;
        let text = listing(&c);
        assert!(text.ends_with(".fvec main ; c0\n.entry main_2\n\n.proc main_2\n\tend\n.end\n"), "{text}");
    }

    #[test]
    fn offsets_and_raw_words_are_trailing_comments() {
        let code = [ins(Op::Nop).encode(), ins(Op::End).encode()];
        let mut c = ctx(&code, &[]);
        c.offsets = true;
        c.raw = true;
        let text = listing(&c);
        assert!(text.contains("\tnop ; 0x000040 84000000\n\tend ; 0x000044 88000000\n"), "{text}");
    }

    #[test]
    fn printer_lines_carry_instruction_offsets() {
        #[derive(Default)]
        struct Lines(Vec<Option<u64>>, String);
        impl fmt::Write for Lines {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.1.push_str(s);
                Ok(())
            }
        }
        impl Printer for Lines {
            fn start_line(&mut self, offset: Option<u64>) {
                self.0.push(offset);
            }
        }
        let code = [ins(Op::Nop).encode(), ins(Op::End).encode()];
        let c = ctx(&code, &[]);
        let mut p = Lines::default();
        write_source(&c, &mut p).unwrap();
        let with_offsets: Vec<u64> = p.0.iter().flatten().copied().collect();
        assert_eq!(with_offsets, vec![0x40, 0x44]);
        assert_eq!(p.0.len(), p.1.lines().count());
    }

    #[test]
    fn conditional_calls_breaks_and_jumps() {
        let opdescs = [OperandDescriptor::new(0xF, [ID, ID, ID]).0];
        let code = [
            Instruction { uniform: 0, target: 5, ..ins(Op::Loop) }.encode(),
            Instruction { refs: [true, true], condop: 0, ..ins(Op::Breakc) }.encode(),
            Instruction { refs: [false, false], condop: 3, target: 8, num: 1, ..ins(Op::Callc) }.encode(),
            Instruction { uniform: 4, target: 7, negate: true, ..ins(Op::Jmpu) }.encode(),
            ins(Op::Break).encode(),
            ins(Op::Nop).encode(),
            Instruction { uniform: 2, target: 7, num: 1, ..ins(Op::Ifu) }.encode(),
            ins(Op::End).encode(),
            Instruction { target: 9, num: 1, ..ins(Op::Call) }.encode(),
            ins(Op::Nop).encode(),
        ];
        let mut c = ctx(&code, &opdescs);
        c.endmain = 8;
        let text = listing(&c);
        let body: Vec<&str> = text.lines().skip_while(|l| !l.starts_with(".proc")).collect();
        assert_eq!(
            body,
            [
                ".proc main",
                "\tfor i0",
                "\t\tbreakc cmp.x || cmp.y",
                "\t\tcallc !cmp.y, proc_008",
                "\t\tjmpu !b4, l_007",
                "\t\tbreak",
                "\t\tnop",
                "\t.end",
                "\tifu b2",
                "\t\t; picasso inserts a padding nop here, which this binary does not have",
                "\t.else",
                "l_007:",
                "\t\tend",
                "\t.end",
                "\t; picasso inserts a padding nop here, which this binary does not have",
                ".end",
                "",
                ".proc proc_008",
                "\tcall proc_009",
                "\t; picasso inserts a padding nop here, which this binary does not have",
                ".end",
                "",
                ".proc proc_009",
                "\tnop",
                ".end",
            ]
        );
    }

    #[test]
    fn code_reached_only_by_jumps_is_listed() {
        let opdescs = [OperandDescriptor::new(0xF, [ID, ID, ID]).0];
        let code = [
            Instruction { refs: [true, true], condop: 2, target: 3, ..ins(Op::Jmpc) }.encode(),
            ins(Op::End).encode(),
            ins(Op::Nop).encode(), // never runs: not listed
            Instruction { uniform: 0, target: 5, ..ins(Op::Jmpu) }.encode(),
            ins(Op::End).encode(),
        ];
        let mut c = ctx(&code, &opdescs);
        c.endmain = 2;
        let text = listing(&c);
        let body: Vec<&str> = text.lines().skip_while(|l| !l.starts_with(".proc")).collect();
        assert_eq!(
            body,
            [
                ".proc main",
                "\tjmpc cmp.x, l_003",
                "\tend",
                ".end",
                "",
                ".proc proc_003",
                "l_003:",
                "\tjmpu b0, l_005",
                "\tend",
                "l_005:",
                ".end",
            ]
        );
    }

    #[test]
    fn unprintable_instructions_become_comments() {
        let opdescs = [OperandDescriptor::new(0x0, [ID, ID, ID]).0];
        let code = [
            0x4000_1234,                                                // unknown opcode 0x10
            alu(Op::Mov, 0x10, [0x11, 0, 0], 0),                        // empty mask
            Instruction { target: 0, num: 1, ..ins(Op::Ifc) }.encode(), // target before itself
            alu(Op::Mov, 0x10, [0x11, 0, 0], 1),                        // opdesc outside the table
            ins(Op::End).encode(),
        ];
        let text = listing(&ctx(&code, &opdescs));
        let body: Vec<&str> = text.lines().skip_while(|l| !l.starts_with(".proc")).collect();
        assert_eq!(
            body,
            [
                ".proc main",
                "\t; unknown opcode: unk10 0x40001234",
                "\tnop ; mov with an empty write mask",
                "\t; if-block 0x002..0x000+1 is not nested: ifc !cmp.x || !cmp.y (else 0x000, 1 words)",
                "\tmov r0, r1 ; opdesc 0x01 is outside the table",
                "\tend",
                ".end",
            ]
        );
    }

    /// Arbitrary words and tables: no panic, balanced output, bounded size.
    #[test]
    fn arbitrary_programs_and_tables_list_without_panicking() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..3000 {
            let len = (next() % 48) as usize;
            // Bias toward flow instructions so that targets and blocks get exercised.
            let code: Vec<u32> = (0..len)
                .map(|_| {
                    let w = next() as u32;
                    if w & 1 == 0 { (w & 0x03ff_ffff) | ((0x20 + (w >> 28) % 14) << 26) } else { w }
                })
                .collect();
            let opdescs: Vec<u32> = (0..next() % 4).map(|_| next() as u32).collect();
            let uniforms: Vec<Uniform> = (0..next() % 5)
                .map(|k| {
                    let first = (next() % 0x90) as u16;
                    Uniform {
                        name: format!("u.{k}\n"),
                        first,
                        last: first.wrapping_add((next() % 6) as u16).wrapping_sub(1),
                    }
                })
                .collect();
            let constants: Vec<Constant> = (0..next() % 5)
                .map(|_| match next() % 3 {
                    0 => Constant::Bool { register: (next() % 20) as u8, value: next() % 2 == 0 },
                    1 => Constant::Int { register: (next() % 6) as u8, value: [1, 2, 3, 4] },
                    _ => Constant::Float { register: (next() % 100) as u8, value: [next() as u32; 4] },
                })
                .collect();
            let outputs: Vec<Output> = (0..next() % 4)
                .map(|_| Output {
                    semantic: (next() % 12) as u16,
                    register: (next() % 18) as u16,
                    mask: (next() % 17) as u16,
                })
                .collect();
            let labels: Vec<Label> = (0..next() % 3)
                .map(|_| Label { name: "end".into(), address: (next() % 50) as u32 })
                .collect();
            let mut c = ctx(&code, &opdescs);
            c.main = (next() % 50) as u32;
            c.endmain = (next() % 50) as u32;
            c.shader_type = [ShaderType::Vertex, ShaderType::Geometry, ShaderType::Other(7)][round % 3];
            c.geometry = GeometryMode {
                mode: (next() % 4) as u8,
                fixed_start: next() as u8,
                variable_count: 3,
                fixed_count: 4,
            };
            c.uniforms = &uniforms;
            c.constants = &constants;
            c.outputs = &outputs;
            c.labels = &labels;
            c.code_offset = u64::MAX - 8;
            c.offsets = true;
            c.raw = true;
            let text = listing(&c);
            assert!(text.len() < 64 * 1024, "{}", text.len());
            // Every line is a comment, directive, label or (indented) instruction: names with
            // line breaks in them must not start lines of their own.
            for l in text.lines().filter(|l| !l.is_empty()) {
                let label = l.ends_with(':')
                    && l.chars().take(l.len() - 1).all(|c| c.is_ascii_alphanumeric() || c == '_');
                assert!(l.starts_with([';', '.', '\t']) || label, "{l:?}");
            }
            let procs = text.lines().filter(|l| l.starts_with(".proc ")).count();
            assert!(procs >= 1, "{text}");
            let _ = super::super::check_program(&code, opdescs.len());
            let _ = super::super::check_executable(&c);
        }
    }

    #[test]
    fn words_and_descriptors_describe_themselves() {
        let opdescs = [OperandDescriptor::new(0x8, [(true, sw("wzyx")), ID, ID]).0];
        assert_eq!(
            describe_word(alu(Op::Mov, 0x10, [0x24, 0, 0], 0), &opdescs),
            "mov r0.x, -c4.w [opdesc 0x00]"
        );
        assert_eq!(
            describe_word(Instruction { target: 0x12, num: 3, ..ins(Op::Call) }.encode(), &[]),
            "call 0x012+3"
        );
        assert_eq!(describe_word(0x4400_0000, &[]), "unk11 0x44000000");
        assert_eq!(
            describe_opdesc(opdescs[0] | 0x8000_0000),
            "mask .x, src1 -.wzyx, src2 +.xyzw, src3 +.xyzw, bit 31 set"
        );
    }
}
