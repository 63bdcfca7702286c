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
//!   (see [`Lanes`](super::opcodes::Lanes)): picasso shares operand descriptors between instructions that agree on
//!   those, so the other components do not survive re-assembly.
//! * Every instruction is printed, including the padding NOPs picasso would insert itself, so
//!   picasso inserts none; where the binary lacks one that picasso will insert, a comment says so.
//! * Procedures are the entry range plus every CALL/CALLC/CALLU target range, printed in
//!   address order (picasso lays procedures out in source order).

use super::decode::{COMPONENTS, Instruction, OperandDescriptor, Program, decode};
use super::names::{NameSet, label_name, sanitize};
use super::opcodes::{CMP_OPERATORS, Op, Syntax};
use super::walk::{self, Step};
use super::{Constant, ConstantValue, Label, ShaderType, SourceContext, float24, semantic_names};
use crate::isa::{Capture, InstructionRecord};
use crate::print::{Printer, Style, TextBuf, write_hex, write_u64};
use std::collections::BTreeMap;
use std::fmt;

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

/// A declaration line before the code. `at` is the table entry the line shows.
#[derive(Debug)]
enum Decl {
    Uniform {
        directive: &'static str,
        name: String,
        size: u16,
        original: Option<String>,
        first: String,
        at: Option<u64>,
    },
    Input {
        name: String,
        register: String,
        original: Option<String>,
        at: Option<u64>,
    },
    ConstF {
        name: String,
        value: [u32; 4],
        register: u8,
        at: Option<u64>,
    },
    /// A `.constfa` array: one line per element, each showing its entry.
    ConstFa {
        name: String,
        values: Vec<([u32; 4], Option<u64>)>,
        register: u8,
    },
    ConstI {
        name: String,
        value: [u8; 4],
        register: u8,
        at: Option<u64>,
    },
    SetF {
        register: u8,
        value: [u32; 4],
        at: Option<u64>,
    },
    SetI {
        register: u8,
        value: [u8; 4],
        at: Option<u64>,
    },
    SetB {
        register: u8,
        value: bool,
        at: Option<u64>,
    },
    Out {
        name: Option<String>,
        semantic: &'static str,
        register: String,
        at: Option<u64>,
    },
    Alias {
        name: String,
        register: String,
    },
    Comment(String, Option<u64>),
}

/// The `.gsh` line: mode, first free float uniform, fixed-mode start register, vertex count.
#[derive(Debug)]
struct Gsh {
    mode: &'static str,
    first: u8,
    fixed_start: Option<u8>,
    count: Option<u8>,
}

/// One procedure of the listing: a word range of the code.
#[derive(Debug, Clone)]
struct Proc {
    start: u32,
    end: u32,
    /// Reached only by jumps.
    by_jump: bool,
    name: String,
    /// The label-table entry the name comes from.
    at: Option<u64>,
}

/// Everything resolved before printing.
struct Listing<'c> {
    ctx: &'c SourceContext<'c>,
    /// The code blob's instructions (none for [`Listing::bare`]).
    insts: &'c [Instruction],
    geometry: bool,
    aliases: Aliases,
    gsh: Option<Gsh>,
    decls: Vec<Decl>,
    procs: Vec<Proc>,
    entry: usize,
    /// The DVLE label of the entry.
    entry_label: Option<&'c Label>,
    /// (start, length) of a CALL range → procedure index.
    proc_by_range: BTreeMap<(u32, u32), usize>,
    /// (procedure, word address) → label name, and the label-table entry it comes from.
    labels: BTreeMap<(usize, u32), (String, Option<u64>)>,
    /// Jump instruction (procedure, address) → label name, or None when the target is
    /// outside every procedure.
    jumps: BTreeMap<(usize, u32), Option<String>>,
    notes: Vec<String>,
}

/// Print one executable as complete picasso source.
pub fn write_source<P: Printer + ?Sized>(ctx: &SourceContext<'_>, out: &mut P) -> fmt::Result {
    Listing::new(ctx).write(out)
}

/// The instructions of one executable as records, in the order its listing
/// ([`write_source`]) prints them, each printed by the listing's own instruction printer into
/// a [`Capture`]: the same text, names and labels. An instruction the listing can only show in
/// a comment (an unknown opcode, a block that does not nest) is recorded with its targets as
/// word addresses. `offset` is absolute; `words` holds the code word.
///
/// ```
/// use shaderscope::isa::pica::{self, Program, SourceContext};
///
/// // mov r0, v0 (operand descriptor 0: full mask, identity swizzles); end
/// let (code, opdescs) = ([0x4e00_0000, 0x8800_0000], [0x0d86_c36f]);
/// let program = Program::new(&code);
/// let records = pica::records(&SourceContext::new(&program, &opdescs));
/// assert_eq!(records[0].text, "mov r0, v0");
/// assert_eq!((records[0].mnemonic.as_str(), &records[0].operands[..]), ("mov", &["r0".to_string(), "v0".to_string()][..]));
/// assert_eq!((records[1].offset, &records[1].words[..]), (4, &[0x8800_0000][..]));
/// ```
pub fn records(ctx: &SourceContext<'_>) -> Vec<InstructionRecord> {
    let mut out = Vec::new();
    each_record(ctx, |r| out.push(r));
    out
}

/// Each record [`records`] gives, handed to `f` as it is made, in listing order.
pub fn each_record(ctx: &SourceContext<'_>, mut f: impl FnMut(InstructionRecord)) {
    let listing = Listing::new(ctx);
    let mut capture = Capture::default();
    for (k, p) in listing.procs.iter().enumerate() {
        let _ = listing.walk_proc(k, p, |step| {
            if let Step::Instruction { a, inst, dropped, .. } = step {
                listing.write_instruction(&mut capture, inst, Some((k, a)), dropped.is_some())?;
                let word = ctx.program.words().get(a as usize).copied().unwrap_or(0);
                f(capture.record(ctx.code_offset.saturating_add(4 * u64::from(a)), vec![word]));
            }
            Ok(())
        });
    }
}

/// Every word of a code blob as a record, printed as [`write_word`] prints it (registers
/// spelled plainly, targets as word addresses); word 0 sits at absolute `code_offset`
/// ([`each_code_record`]'s records collected).
pub fn code_records(program: &Program<'_>, opdescs: &[u32], code_offset: u64) -> Vec<InstructionRecord> {
    let mut out = Vec::with_capacity(program.len());
    each_code_record(program, opdescs, code_offset, |r| out.push(r));
    out
}

/// Each record [`code_records`] gives, handed to `f` as it is made, word by word.
pub fn each_code_record(
    program: &Program<'_>,
    opdescs: &[u32],
    code_offset: u64,
    mut f: impl FnMut(InstructionRecord),
) {
    let none = Program::default();
    let ctx = SourceContext::new(&none, opdescs);
    let listing = Listing::bare(&ctx);
    let mut capture = Capture::default();
    let mut at = code_offset;
    for (inst, &w) in program.instructions().iter().zip(program.words()) {
        let _ = listing.write_instruction(&mut capture, inst, None, true);
        f(capture.record(at, vec![w]));
        at = at.saturating_add(4);
    }
}

/// Print one instruction word without DVLE names (registers spelled plainly, targets as word
/// addresses, block extents and the operand descriptor index in brackets), through the
/// listing's instruction printer.
pub fn write_word<P: Printer + ?Sized>(out: &mut P, word: u32, opdescs: &[u32]) -> fmt::Result {
    write_instruction(out, &decode(word), opdescs)
}

/// [`write_word`] for an instruction already decoded (one of a [`Program`]'s).
pub fn write_instruction<P: Printer + ?Sized>(
    out: &mut P,
    inst: &Instruction,
    opdescs: &[u32],
) -> fmt::Result {
    let none = Program::default();
    let ctx = SourceContext::new(&none, opdescs);
    Listing::bare(&ctx).write_instruction(out, inst, None, true)
}

/// [`write_word`] as a string, for byte dumps.
pub fn describe_word(word: u32, opdescs: &[u32]) -> String {
    describe_instruction(&decode(word), opdescs)
}

/// [`write_instruction`] as a string, for byte dumps.
pub fn describe_instruction(inst: &Instruction, opdescs: &[u32]) -> String {
    let mut s = TextBuf::default();
    let _ = write_instruction(&mut s, inst, opdescs);
    s.into_string()
}

/// Print an operand descriptor: the write mask, then each source's negation and swizzle, with
/// the letters the listing's instruction printer uses.
pub fn write_opdesc<W: fmt::Write + ?Sized>(out: &mut W, word: u32) -> fmt::Result {
    let d = OperandDescriptor(word);
    out.write_str("mask .")?;
    write_mask(out, d.mask())?;
    for n in 0..3 {
        out.write_str(", src")?;
        write_u64(out, n as u64 + 1)?;
        out.write_str(if d.negate(n) { " -." } else { " +." })?;
        write_lanes(out, &d.swizzle(n).lanes())?;
    }
    if word & 0x8000_0000 != 0 {
        out.write_str(", bit 31 set")?;
    }
    Ok(())
}

/// [`write_opdesc`] as a string, for byte dumps.
pub fn describe_opdesc(word: u32) -> String {
    let mut s = TextBuf::default();
    let _ = write_opdesc(&mut s, word);
    s.into_string()
}

/// The words of `program` that none of the executables with entry ranges `entries`
/// (`main..endmain`) runs (an uncalled subroutine, dead code after the last program), as
/// comments after a blank line: word address, word and the instruction as [`write_word`]
/// prints it, each line at the word's offset (word 0 at absolute `code_offset`). Nothing
/// when every word runs. (Per-executable picasso source cannot carry these words: picasso
/// would re-emit them and move the code.)
pub fn write_unreached<P: Printer + ?Sized>(
    out: &mut P,
    program: &Program<'_>,
    opdescs: &[u32],
    code_offset: u64,
    entries: &[(u32, u32)],
) -> fmt::Result {
    write_words_outside(out, program, opdescs, code_offset, entries, "code no DVLE runs:")
}

/// The entry range a code blob with no executable around it is listed with (as `main`): the
/// longest run of words that no CALL, CALLC or CALLU anywhere in the blob reaches (the first
/// of equally long ones), so that each called procedure is listed once, as a procedure of
/// its own; all of the code when every word is called or nothing is.
///
/// ```
/// use shaderscope::isa::pica;
///
/// // 0: mov; 1: end (a subroutine), then main at 2..5: call 0..2; mov; end.
/// let code = [0x4e00_0000, 0x8800_0000, 0x9000_0002, 0x4e00_0000, 0x8800_0000];
/// assert_eq!(pica::bare_entry(&pica::Program::new(&code)), (2, 5));
/// ```
pub fn bare_entry(program: &Program<'_>) -> (u32, u32) {
    let insts = program.instructions();
    let len = u32::try_from(insts.len()).unwrap_or(u32::MAX);
    let found = walk::procedures(insts, 0, len, 4 * insts.len() + 4096);
    let mut called = vec![false; insts.len()];
    for (k, r) in found.ranges.iter().enumerate() {
        if k != found.entry
            && let Some(s) = called.get_mut(r.start as usize..r.end as usize)
        {
            s.fill(true);
        }
    }
    let (mut best, mut run_start) = ((0, 0), None);
    for (a, c) in called.iter().chain([&true]).enumerate() {
        let a = a as u32;
        match (c, run_start) {
            (false, None) => run_start = Some(a),
            (true, Some(s)) => {
                if a - s > best.1 - best.0 {
                    best = (s, a);
                }
                run_start = None;
            }
            _ => {}
        }
    }
    if best.1 == best.0 { (0, len) } else { best }
}

/// The words of `code` that the executables with entry ranges `entries` do not run, as
/// comments under `title`: [`write_unreached`] for a code blob listed without its
/// executables (the entry range of [`bare_entry`]).
pub fn write_unlisted<P: Printer + ?Sized>(
    out: &mut P,
    program: &Program<'_>,
    opdescs: &[u32],
    code_offset: u64,
    entry: (u32, u32),
) -> fmt::Result {
    write_words_outside(out, program, opdescs, code_offset, &[entry], "code the entry range does not run:")
}

fn write_words_outside<P: Printer + ?Sized>(
    out: &mut P,
    program: &Program<'_>,
    opdescs: &[u32],
    code_offset: u64,
    entries: &[(u32, u32)],
    title: &str,
) -> fmt::Result {
    let insts = program.instructions();
    let reached = walk::reached(insts, entries);
    if reached.iter().all(|r| *r) {
        return Ok(());
    }
    let none = Program::default();
    let ctx = SourceContext::new(&none, opdescs);
    let listing = Listing::bare(&ctx);
    out.start_line(None);
    out.write_char('\n')?;
    comment_line(out, None, title)?;
    for (a, (inst, seen)) in insts.iter().zip(&reached).enumerate() {
        if *seen {
            continue;
        }
        out.start_line(Some(code_offset.saturating_add(4 * a as u64)));
        out.style(Style::Comment);
        out.write_str(";   0x")?;
        write_hex(out, a as u64, 3)?;
        out.write_str("  ")?;
        write_hex(out, u64::from(program.words().get(a).copied().unwrap_or(0)), 8)?;
        out.write_str("  ")?;
        listing.write_instruction(&mut Unstyled(&mut *out), inst, None, true)?;
        out.reset();
        out.write_char('\n')?;
    }
    Ok(())
}

/// Full write mask, identity swizzles, no negation.
const IDENTITY_DESC: u32 = 0x0d86_c36f;

/// Mask text in lane order (`xy`, `xzw`…), bit 0 = x as in the output table.
fn out_mask(mask: u16) -> String {
    COMPONENTS.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| *c).collect()
}

impl<'c> Listing<'c> {
    fn bare(ctx: &'c SourceContext<'c>) -> Listing<'c> {
        Listing {
            ctx,
            insts: &[],
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
        l.insts = ctx.program.instructions();
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
        let found = walk::procedures(self.insts, self.ctx.main, self.ctx.endmain, MAX_LINES);
        if found.clamped {
            let (s, e) = found.ranges.get(found.entry).map_or((0, 0), |r| (r.start, r.end));
            self.notes.push(format!(
                "entry range 0x{:03x}..0x{:03x} is not inside the {} code words; listed as 0x{s:03x}..0x{e:03x}",
                self.ctx.main,
                self.ctx.endmain,
                self.insts.len()
            ));
        }
        if self.ctx.endmain == 0 && (self.ctx.main as usize) < self.insts.len() {
            // The header comment shows the range found.
            let e = found.ranges.get(found.entry).map_or(0, |r| r.end);
            let ended =
                e.checked_sub(1).and_then(|k| self.insts.get(k as usize)).is_some_and(|i| i.op == Op::End);
            self.notes.push(if ended {
                "endmain is 0 (nihstro writes this): main is listed to the end instruction that ends it".into()
            } else {
                "endmain is 0 (nihstro writes this) and no end instruction ends main: listed to the end of the code"
                    .into()
            });
        }
        if found.truncated {
            self.notes.push("too many procedure ranges; the listing leaves some out".into());
        }
        self.entry = found.entry;
        self.procs = found
            .ranges
            .iter()
            .map(|r| Proc { start: r.start, end: r.end, by_jump: r.by_jump, name: String::new(), at: None })
            .collect();
        for (k, p) in self.procs.iter().enumerate() {
            self.proc_by_range.insert((p.start, p.end - p.start), k);
        }
    }

    fn name_procs_and_labels(&mut self, names: &mut NameSet) {
        let ctx = self.ctx;
        // One DVLE label per address; the tables also mark where each routine ends, at the
        // address of whatever follows: Nintendo's `endmain`, `endlength`, and nihstro's return
        // labels (`call pow until end_pow`, written `end_pow:` after the routine). So a name
        // that is `end` or `end_` plus another label's name gives way to any other name at its
        // address.
        let marks_an_end = |n: &str| {
            n.strip_prefix("end")
                .map(|r| r.strip_prefix('_').unwrap_or(r))
                .is_some_and(|r| ctx.labels.iter().any(|l| l.name == r))
        };
        let mut by_address: BTreeMap<u32, &'c Label> = BTreeMap::new();
        for l in ctx.labels {
            let better = match by_address.get(&l.address) {
                None => true,
                Some(old) => marks_an_end(&old.name) && !marks_an_end(&l.name),
            };
            if better {
                by_address.insert(l.address, l);
            }
        }
        // The entry keeps its DVLE label as its name where that is a usable identifier, else it
        // is `main`; an `.entry` line always names it, so picasso puts main where it was.
        self.entry_label = by_address.get(&self.procs.get(self.entry).map_or(u32::MAX, |p| p.start)).copied();
        if let Some(p) = self.procs.get(self.entry) {
            by_address.remove(&p.start);
        }
        // A name from the label table where it is free, with the entry it comes from.
        let mut pick = |names: &mut NameSet, at: u32, fallback: String| -> (String, Option<u64>) {
            let label = by_address.get(&at).copied();
            match label.and_then(|l| label_name(&l.name)) {
                Some(n) if names.is_free_label(&n) => {
                    by_address.remove(&at);
                    (names.claim_label(&n), label.and_then(|l| l.offset))
                }
                _ => (names.claim_label(&fallback), None),
            }
        };
        let order: Vec<usize> =
            std::iter::once(self.entry).chain((0..self.procs.len()).filter(|k| *k != self.entry)).collect();
        for k in order {
            let Some(p) = self.procs.get(k) else { continue };
            let start = p.start;
            let (name, at) = if k == self.entry {
                // The `.proc` line shows the entry's label whether or not it names it.
                let label = self.entry_label;
                let own = label.and_then(|l| label_name(&l.name)).filter(|n| names.is_free_label(n));
                (names.claim_label(own.as_deref().unwrap_or("main")), label.and_then(|l| l.offset))
            } else {
                pick(names, start, format!("proc_{start:03x}"))
            };
            if let Some(p) = self.procs.get_mut(k) {
                p.name = name;
                p.at = at;
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
                if let Some((n, _)) = self.labels.get(&(h, at)) {
                    return n.clone();
                }
                let (n, entry) = pick(names, t, format!("l_{t:03x}"));
                self.labels.insert((h, at), (n.clone(), entry));
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
            1 => Gsh { mode: "variable", first, fixed_start: None, count: Some(g.variable_count) },
            2 => Gsh { mode: "fixed", first, fixed_start: Some(g.fixed_start), count: Some(g.fixed_count) },
            m => {
                if m != 0 {
                    self.notes.push(format!("geometry mode {m} is unknown; listed as point mode"));
                }
                Gsh { mode: "point", first, fixed_start: None, count: None }
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
                self.decls.push(Decl::Comment(
                    format!(
                        "input \"{}\" covers v{}-v{}; picasso's .in takes one register",
                        printable(&original),
                        u.first,
                        u.last
                    ),
                    u.offset,
                ));
            }
            let a = self.aliases.add(name.clone());
            if let Some(slot) = self.aliases.v.get_mut(usize::from(u.first)) {
                *slot = Some(AliasRef { alias: a, offset: 0, array: false });
            }
            let register = if u.first == 15 { "v14[1]".to_string() } else { format!("v{}", u.first) };
            let original = (sanitize(&original).replace('$', ".") != original).then_some(original);
            self.decls.push(Decl::Input { name, register, original, at: u.offset });
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
                    self.decls.push(Decl::Comment(
                        format!(
                            "uniform \"{}\" ({letter}{first}-{letter}{last}) cannot be placed by picasso's allocator here",
                            printable(&original)
                        ),
                        u.offset,
                    ));
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
                        at: None,
                    });
                }
                let shown = (sanitize(&original).replace('$', ".") != original).then_some(original);
                self.decls.push(Decl::Uniform {
                    directive,
                    name,
                    size,
                    original: shown,
                    first: format!("{letter}{first}"),
                    at: u.offset,
                });
                next = last + 1;
            }
            if let Some(e) = alloc_end.get_mut(ci) {
                *e = next;
            }
        }
        for u in sorted.iter().filter(|u| u.first >= 0x88 || (0x74..0x78).contains(&u.first)) {
            self.decls.push(Decl::Comment(
                format!(
                    "uniform \"{}\" has register 0x{:x}-0x{:x}, which is no register",
                    printable(&u.name),
                    u.first,
                    u.last
                ),
                u.offset,
            ));
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
            let (register, at) = (c.register, c.offset);
            match c.value {
                ConstantValue::Float(value) => {
                    let r = u16::from(register);
                    if r >= 96 {
                        self.decls
                            .push(Decl::Comment(format!("constant for c{r}, which does not exist"), at));
                        continue;
                    }
                    let want = fend.saturating_sub(r);
                    let run = 1 + consts
                        .get(k..)
                        .unwrap_or(&[])
                        .iter()
                        .enumerate()
                        .take_while(|(j, c)| {
                            matches!(c.value, ConstantValue::Float(_))
                                && u16::from(c.register) == r + 1 + *j as u16
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
                            self.decls.push(Decl::ConstF { name, value, register, at });
                        } else {
                            let mut values = vec![(value, at)];
                            for _ in 1..want {
                                if let Some(Constant { value: ConstantValue::Float(value), offset, .. }) =
                                    consts.get(k)
                                {
                                    values.push((*value, *offset));
                                }
                                k += 1;
                            }
                            self.decls.push(Decl::ConstFa { name, values, register });
                        }
                        fend = r;
                    } else {
                        self.decls.push(Decl::SetF { register, value, at });
                    }
                }
                ConstantValue::Int(value) => {
                    let r = u16::from(register);
                    if r >= 4 {
                        self.decls
                            .push(Decl::Comment(format!("constant for i{r}, which does not exist"), at));
                    } else if r + 1 == iend
                        && r >= istart
                        && self.aliases.i.get(usize::from(r)).is_some_and(Option::is_none)
                    {
                        let name = names.claim(&format!("const_i{r}"));
                        let a = self.aliases.add(name.clone());
                        if let Some(slot) = self.aliases.i.get_mut(usize::from(r)) {
                            *slot = Some(AliasRef { alias: a, offset: 0, array: false });
                        }
                        self.decls.push(Decl::ConstI { name, value, register, at });
                        iend = r;
                    } else {
                        self.decls.push(Decl::SetI { register, value, at });
                    }
                }
                ConstantValue::Bool(value) => {
                    if register >= 16 {
                        self.decls.push(Decl::Comment(
                            format!("constant for b{register}, which does not exist"),
                            at,
                        ));
                    } else {
                        self.decls.push(Decl::SetB { register, value, at });
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
            let Some((semantic, base)) = semantic_names(o.semantic) else {
                self.decls.push(Decl::Comment(
                    format!(
                        "output o{} with semantic {} (no picasso name), mask .{}",
                        o.register,
                        o.semantic,
                        out_mask(o.mask)
                    ),
                    o.offset,
                ));
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
                self.decls.push(Decl::Comment(
                    format!(
                        "output {semantic} on o{} mask 0x{:x} cannot be declared in picasso",
                        o.register, o.mask
                    ),
                    o.offset,
                ));
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
            self.decls.push(Decl::Out { name, semantic, register, at: o.offset });
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

    fn write<P: Printer + ?Sized>(&self, out: &mut P) -> fmt::Result {
        let ctx = self.ctx;
        let kind = if self.geometry { "geometry" } else { "vertex" };
        // `endmain` 0 records no end (nihstro): the end found from main, which a note explains.
        let end = match self.procs.get(self.entry) {
            Some(p) if ctx.endmain == 0 => p.end,
            _ => ctx.endmain,
        };
        out.start_line(ctx.header_offset);
        out.style(Style::Comment);
        write!(
            out,
            "; {kind} shader: entry 0x{:03x}..0x{end:03x} of {} code words, {} operand descriptors",
            ctx.main,
            ctx.program.len(),
            ctx.opdescs.len()
        )?;
        out.reset();
        out.write_char('\n')?;
        for n in &self.notes {
            comment_line(out, None, n)?;
        }
        if let Some(g) = &self.gsh {
            out.start_line(ctx.header_offset);
            out.styled(Style::Directive, ".gsh")?;
            out.write_char(' ')?;
            out.styled(Style::Literal, g.mode)?;
            out.write_char(' ')?;
            register(out, 'c', g.first)?;
            if let Some(r) = g.fixed_start {
                out.write_char(' ')?;
                register(out, 'c', r)?;
            }
            if let Some(n) = g.count {
                out.write_char(' ')?;
                literal_u64(out, u64::from(n))?;
            }
            out.write_char('\n')?;
        }
        for d in &self.decls {
            self.write_decl(out, d)?;
        }
        if let Some(p) = self.procs.get(self.entry) {
            out.start_line(ctx.header_offset);
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

    fn write_decl<P: Printer + ?Sized>(&self, out: &mut P, d: &Decl) -> fmt::Result {
        match d {
            Decl::Uniform { directive, name, size, original, first, at } => {
                out.start_line(*at);
                out.styled(Style::Directive, directive)?;
                out.write_char(' ')?;
                alias(out, name)?;
                if *size != 1 {
                    out.write_char('[')?;
                    literal_u64(out, u64::from(*size))?;
                    out.write_char(']')?;
                }
                out.write_char(' ')?;
                out.style(Style::Comment);
                write!(out, "; {first}")?;
                if let Some(o) = original {
                    write!(out, " \"{}\"", printable(o))?;
                }
                out.reset();
            }
            Decl::Input { name, register, original, at } => {
                out.start_line(*at);
                out.styled(Style::Directive, ".in")?;
                out.write_char(' ')?;
                alias(out, name)?;
                out.write_char(' ')?;
                alias(out, register)?;
                if let Some(o) = original {
                    out.write_char(' ')?;
                    out.style(Style::Comment);
                    write!(out, "; \"{}\"", printable(o))?;
                    out.reset();
                }
            }
            Decl::ConstF { name, value, register, at } => {
                out.start_line(*at);
                out.styled(Style::Directive, ".constf")?;
                out.write_char(' ')?;
                alias(out, name)?;
                write_f24s(out, value)?;
                out.write_char(' ')?;
                out.style(Style::Comment);
                write!(out, "; c{register}")?;
                out.reset();
            }
            Decl::ConstFa { name, values, register } => {
                out.start_line(values.first().and_then(|v| v.1));
                out.styled(Style::Directive, ".constfa")?;
                out.write_char(' ')?;
                alias(out, name)?;
                out.write_str("[] ")?;
                out.style(Style::Comment);
                write!(out, "; c{register}-c{}", usize::from(*register) + values.len() - 1)?;
                out.reset();
                out.write_char('\n')?;
                for (v, at) in values {
                    out.start_line(*at);
                    out.styled(Style::Directive, ".constfa")?;
                    out.write_char(' ')?;
                    write_f24s(out, v)?;
                    out.write_char('\n')?;
                }
                out.start_line(None);
                out.styled(Style::Directive, ".end")?;
            }
            Decl::ConstI { name, value, register, at } => {
                out.start_line(*at);
                out.styled(Style::Directive, ".consti")?;
                out.write_char(' ')?;
                alias(out, name)?;
                write_ints(out, value)?;
                out.write_char(' ')?;
                out.style(Style::Comment);
                write!(out, "; i{register}")?;
                out.reset();
            }
            Decl::SetF { register: r, value, at } => {
                out.start_line(*at);
                out.styled(Style::Directive, ".setf")?;
                out.write_char(' ')?;
                register(out, 'c', *r)?;
                write_f24s(out, value)?;
            }
            Decl::SetI { register: r, value, at } => {
                out.start_line(*at);
                out.styled(Style::Directive, ".seti")?;
                out.write_char(' ')?;
                register(out, 'i', *r)?;
                write_ints(out, value)?;
            }
            Decl::SetB { register: r, value, at } => {
                out.start_line(*at);
                out.styled(Style::Directive, ".setb")?;
                out.write_char(' ')?;
                register(out, 'b', *r)?;
                out.write_char(' ')?;
                out.styled(Style::Literal, if *value { "true" } else { "false" })?;
            }
            Decl::Out { name, semantic, register, at } => {
                out.start_line(*at);
                out.styled(Style::Directive, ".out")?;
                out.write_char(' ')?;
                match name {
                    Some(n) => alias(out, n)?,
                    None => out.write_char('-')?,
                }
                out.write_char(' ')?;
                out.styled(Style::Literal, semantic)?;
                out.write_char(' ')?;
                alias(out, register)?;
            }
            Decl::Alias { name, register } => {
                out.start_line(None);
                out.styled(Style::Directive, ".alias")?;
                out.write_char(' ')?;
                alias(out, name)?;
                out.write_char(' ')?;
                alias(out, register)?;
            }
            Decl::Comment(c, at) => {
                out.start_line(*at);
                out.style(Style::Comment);
                write!(out, "; {}", printable(c))?;
                out.reset();
            }
        }
        out.write_char('\n')
    }

    fn write_proc<P: Printer + ?Sized>(&self, out: &mut P, k: usize, p: &Proc) -> fmt::Result {
        out.start_line(p.at);
        out.styled(Style::Directive, ".proc")?;
        out.write_char(' ')?;
        out.styled(Style::Label, &p.name)?;
        let shown = self.entry_label.filter(|l| k == self.entry && l.name != "main" && l.name != p.name);
        if let Some(l) = shown {
            out.write_char(' ')?;
            out.style(Style::Comment);
            write!(out, "; DVLE label \"{}\"", printable(&l.name))?;
            out.reset();
        }
        out.write_char('\n')?;
        self.walk_proc(k, p, |step| match step {
            Step::Directive { depth, text } => {
                out.start_line(None);
                indent(out, depth)?;
                out.styled(Style::Directive, text)?;
                out.write_char('\n')
            }
            Step::Padding { depth } => {
                out.start_line(None);
                indent(out, depth + 1)?;
                out.styled(
                    Style::Comment,
                    "; picasso inserts a padding nop here, which this binary does not have",
                )?;
                out.write_char('\n')
            }
            Step::Label { name, at } => {
                out.start_line(at);
                out.styled(Style::Label, name)?;
                out.write_str(":\n")
            }
            Step::Instruction { a, inst, depth, dropped } => {
                out.start_line(Some(self.ctx.code_offset.saturating_add(4 * u64::from(a))));
                indent(out, depth)?;
                if let Some(problem) = &dropped {
                    // The whole line is one comment.
                    out.style(Style::Comment);
                    write!(out, "; {problem}: ")?;
                    self.write_instruction(&mut Unstyled(&mut *out), inst, Some((k, a)), true)?;
                    out.reset();
                } else {
                    self.write_instruction(out, inst, Some((k, a)), false)?;
                }
                self.write_trailer(out, a)?;
                out.write_char('\n')
            }
        })
    }

    /// Walk procedure `k` in listing order ([`walk::walk_range`] with its labels).
    fn walk_proc(&self, k: usize, p: &Proc, step: impl FnMut(Step<'_>) -> fmt::Result) -> fmt::Result {
        walk::walk_range(
            self.insts,
            p.start,
            p.end,
            |a| self.labels.get(&(k, a)).map(|(n, at)| (n.as_str(), *at)),
            step,
        )
    }

    /// The `--offsets`/`--raw` columns after an instruction, as one comment.
    fn write_trailer<P: Printer + ?Sized>(&self, out: &mut P, a: u32) -> fmt::Result {
        if !self.ctx.offsets && !self.ctx.raw {
            return Ok(());
        }
        out.write_char(' ')?;
        out.style(Style::Address);
        out.write_char(';')?;
        if self.ctx.offsets {
            out.write_str(" 0x")?;
            write_hex(out, self.ctx.code_offset.saturating_add(4 * u64::from(a)), 6)?;
        }
        if self.ctx.raw {
            out.write_char(' ')?;
            write_hex(out, u64::from(self.ctx.program.words().get(a as usize).copied().unwrap_or(0)), 8)?;
        }
        out.reset();
        Ok(())
    }

    /// One instruction. `at` is (procedure, address) in a listing, None for a bare word;
    /// `describe` prints targets numerically instead of through labels and blocks.
    fn write_instruction<P: Printer + ?Sized>(
        &self,
        out: &mut P,
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
            out.write_char(' ')?;
            out.style(Style::Comment);
            write!(out, "; {} with an empty write mask", info.mnemonic)?;
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
                let a0 = match d.mask() & 0xC {
                    8 => "a0.x",
                    4 => "a0.y",
                    _ => "a0.xy",
                };
                alias(out, a0)?;
                out.write_str(", ")?;
                self.write_src(out, i, 0, d)?;
            }
            Syntax::Cmp => {
                out.write_char(' ')?;
                self.write_src(out, i, 0, d)?;
                for op in i.cmp {
                    out.write_str(", ")?;
                    out.start_operand();
                    out.style(Style::Literal);
                    match CMP_OPERATORS.get(usize::from(op)) {
                        Some(s) => out.write_str(s)?,
                        None => {
                            out.write_str("op")?;
                            write_u64(out, u64::from(op))?;
                        }
                    }
                    out.reset();
                    out.end_operand();
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
                self.write_uniform(out, 'b', i.uniform, i.op == Op::Jmpu && i.negate)?;
                if info.syntax != Syntax::BoolBlock {
                    out.write_str(", ")?;
                    self.write_target(out, i, at, describe)?;
                }
            }
            Syntax::Loop => {
                out.write_char(' ')?;
                self.write_uniform(out, 'i', i.uniform, false)?;
            }
            Syntax::SetEmit => {
                out.write_char(' ')?;
                out.start_operand();
                literal_u64(out, u64::from(i.vertex))?;
                out.end_operand();
                if i.primitive || i.invert {
                    out.write_str(", ")?;
                    out.start_operand();
                    if i.primitive {
                        out.styled(Style::Literal, "prim")?;
                    }
                    if i.invert {
                        if i.primitive {
                            out.write_char(' ')?;
                        }
                        out.styled(Style::Literal, "inv")?;
                    }
                    out.end_operand();
                }
            }
            Syntax::Raw => {
                out.write_char(' ')?;
                out.start_operand();
                literal_hex(out, u64::from(i.encode()), 8)?;
                out.end_operand();
            }
        }
        if describe {
            match info.syntax {
                Syntax::CondBlock | Syntax::BoolBlock => {
                    out.write_str(" (else ")?;
                    literal_hex(out, u64::from(i.target), 3)?;
                    out.write_str(", ")?;
                    literal_u64(out, u64::from(i.num))?;
                    out.write_str(if i.num == 1 { " word)" } else { " words)" })?;
                }
                Syntax::Loop => {
                    out.write_str(" (to ")?;
                    literal_hex(out, u64::from(i.target), 3)?;
                    out.write_char(')')?;
                }
                _ => {}
            }
            if i.has_desc() {
                out.write_str(" [opdesc ")?;
                literal_hex(out, u64::from(i.desc), 2)?;
                out.write_char(']')?;
            }
        }
        if !desc_ok {
            out.write_char(' ')?;
            out.style(Style::Comment);
            out.write_str("; opdesc 0x")?;
            write_hex(out, u64::from(i.desc), 2)?;
            out.write_str(" is outside the table")?;
            out.reset();
        }
        if i.unused != 0 && i.op != Op::Unknown {
            out.write_char(' ')?;
            out.style(Style::Comment);
            out.write_str("; unused bits 0x")?;
            write_hex(out, u64::from(i.unused), 8)?;
            out.write_str(" set")?;
            out.reset();
        }
        Ok(())
    }

    fn write_target<P: Printer + ?Sized>(
        &self,
        out: &mut P,
        i: &Instruction,
        at: Option<(usize, u32)>,
        describe: bool,
    ) -> fmt::Result {
        out.start_operand();
        out.style(Style::Label);
        let jump = matches!(i.op, Op::Jmpc | Op::Jmpu);
        if describe || at.is_none() {
            out.write_str("0x")?;
            write_hex(out, u64::from(i.target), 3)?;
            if !jump {
                out.write_char('+')?;
                write_u64(out, u64::from(i.num))?;
            }
        } else if jump {
            match at.and_then(|k| self.jumps.get(&k)).and_then(Option::as_deref) {
                Some(name) => out.write_str(name)?,
                None => {
                    out.write_str("l_")?;
                    write_hex(out, u64::from(i.target), 3)?;
                }
            }
        } else {
            match self
                .proc_by_range
                .get(&(u32::from(i.target), u32::from(i.num)))
                .and_then(|k| self.procs.get(*k))
            {
                Some(p) => out.write_str(&p.name)?,
                None => {
                    out.write_str("invalid_0x")?;
                    write_hex(out, u64::from(i.target), 3)?;
                    out.write_char('_')?;
                    write_u64(out, u64::from(i.num))?;
                }
            }
        }
        out.reset();
        out.end_operand();
        Ok(())
    }

    /// A boolean (`b`) or integer (`i`) uniform operand, through its alias; `not` puts `!`
    /// before it.
    fn write_uniform<P: Printer + ?Sized>(&self, out: &mut P, letter: char, n: u8, not: bool) -> fmt::Result {
        let table = if letter == 'b' { self.aliases.b.as_slice() } else { self.aliases.i.as_slice() };
        out.start_operand();
        out.style(Style::Register);
        if not {
            out.write_char('!')?;
        }
        match table.get(usize::from(n)).copied().flatten() {
            Some(a) => self.write_alias(out, a, None)?,
            None => {
                out.write_char(letter)?;
                write_u64(out, u64::from(n))?;
            }
        }
        out.reset();
        out.end_operand();
        Ok(())
    }

    fn write_alias<P: Printer + ?Sized>(&self, out: &mut P, a: AliasRef, idx: Option<&str>) -> fmt::Result {
        out.write_str(self.aliases.name(a.alias))?;
        match (idx, a.array) {
            (Some(ix), true) if a.offset > 0 => {
                out.write_char('[')?;
                out.write_str(ix)?;
                out.write_char('+')?;
                write_u64(out, u64::from(a.offset))?;
                out.write_char(']')
            }
            (Some(ix), _) => {
                out.write_char('[')?;
                out.write_str(ix)?;
                out.write_char(']')
            }
            (None, true) => {
                out.write_char('[')?;
                write_u64(out, u64::from(a.offset))?;
                out.write_char(']')
            }
            (None, false) => Ok(()),
        }
    }

    fn write_dst<P: Printer + ?Sized>(&self, out: &mut P, field: u8, mask: u8) -> fmt::Result {
        out.start_operand();
        out.style(Style::Register);
        if field < 0x10 {
            match self.aliases.o.get(usize::from(field)).copied().flatten() {
                Some(a) => self.write_alias(out, a, None)?,
                // picasso only names o0–o6 in a geometry shader; o6[k] reaches the rest.
                None if self.geometry && field >= 7 => {
                    out.write_str("o6[")?;
                    write_u64(out, u64::from(field - 6))?;
                    out.write_char(']')?;
                }
                None => {
                    out.write_char('o')?;
                    write_u64(out, u64::from(field))?;
                }
            }
        } else {
            out.write_char('r')?;
            write_u64(out, u64::from(field - 0x10))?;
        }
        if mask & 0xF != 0xF {
            out.write_char('.')?;
            write_mask(out, mask)?;
        }
        out.reset();
        out.end_operand();
        Ok(())
    }

    /// Source `n` of `i` with its negation, register, relative index and swizzle.
    fn write_src<P: Printer + ?Sized>(
        &self,
        out: &mut P,
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
        out.start_operand();
        out.style(Style::Register);
        if d.negate(n) {
            out.write_char('-')?;
        }
        let indexed = |out: &mut P, ix: &str| -> fmt::Result {
            out.write_char('[')?;
            out.write_str(ix)?;
            out.write_char(']')
        };
        match field {
            0x00..=0x1F => match (idx, self.aliases.rel.get(usize::from(field)).copied().flatten()) {
                (Some(ix), Some(a)) => {
                    out.write_str(self.aliases.name(a))?;
                    indexed(out, ix)?;
                }
                (Some(ix), None) => {
                    write_register(out, super::decode::Register::source(field))?;
                    indexed(out, ix)?;
                }
                _ if field < 0x10 => match self.aliases.v.get(usize::from(field)).copied().flatten() {
                    Some(a) => self.write_alias(out, a, None)?,
                    None if field == 15 => out.write_str("v14[1]")?,
                    None => {
                        out.write_char('v')?;
                        write_u64(out, u64::from(field))?;
                    }
                },
                _ => {
                    out.write_char('r')?;
                    write_u64(out, u64::from(field - 0x10))?;
                }
            },
            _ => {
                let c = field - 0x20;
                match (self.aliases.c.get(usize::from(c)).copied().flatten(), idx) {
                    (Some(a), ix) => self.write_alias(out, a, ix)?,
                    (None, ix) => {
                        out.write_char('c')?;
                        write_u64(out, u64::from(c))?;
                        if let Some(ix) = ix {
                            indexed(out, ix)?;
                        }
                    }
                }
            }
        }
        write_swizzle(out, d, n, d.lanes_read(i.info().lanes, n))?;
        out.reset();
        out.end_operand();
        Ok(())
    }
}

/// A printer that passes the text on and drops every style and operand mark: an instruction
/// shown inside a comment is part of that one token.
struct Unstyled<'p, P: ?Sized>(&'p mut P);

impl<P: Printer + ?Sized> fmt::Write for Unstyled<'_, P> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write_str(s)
    }
    fn write_char(&mut self, c: char) -> fmt::Result {
        self.0.write_char(c)
    }
}

impl<P: Printer + ?Sized> Printer for Unstyled<'_, P> {}

/// A swizzle showing only the lanes read: nothing when they read their own component,
/// otherwise the lanes with unread ones repeating their left neighbour, and trailing repeats
/// dropped (picasso repeats the last component).
fn write_swizzle<W: fmt::Write + ?Sized>(
    out: &mut W,
    d: OperandDescriptor,
    n: usize,
    used: u8,
) -> fmt::Result {
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
    write_lanes(out, t.get(..len).unwrap_or(&[]))
}

/// Component letters of lane selectors (0 = x … 3 = w).
fn write_lanes<W: fmt::Write + ?Sized>(out: &mut W, selectors: &[u8]) -> fmt::Result {
    for s in selectors {
        out.write_char(COMPONENTS.get(usize::from(*s & 3)).copied().unwrap_or('x'))?;
    }
    Ok(())
}

/// The letters of a destination write mask (bit 3 = x … bit 0 = w), in lane order.
fn write_mask<W: fmt::Write + ?Sized>(out: &mut W, mask: u8) -> fmt::Result {
    for (lane, c) in COMPONENTS.iter().enumerate() {
        if mask & (8 >> lane) != 0 {
            out.write_char(*c)?;
        }
    }
    Ok(())
}

/// A condition operand: `cmp.x && !cmp.y`, `cmp.x || cmp.y`, `!cmp.x`, `cmp.y`.
fn write_condition<P: Printer + ?Sized>(out: &mut P, i: &Instruction) -> fmt::Result {
    let flag = |out: &mut P, n: usize| -> fmt::Result {
        out.style(Style::Register);
        if !i.refs.get(n).copied().unwrap_or(true) {
            out.write_char('!')?;
        }
        out.write_str(if n == 0 { "cmp.x" } else { "cmp.y" })?;
        out.reset();
        Ok(())
    };
    out.start_operand();
    match i.condop {
        0 | 1 => {
            flag(out, 0)?;
            out.write_str(if i.condop == 0 { " || " } else { " && " })?;
            flag(out, 1)?;
        }
        2 => flag(out, 0)?,
        _ => flag(out, 1)?,
    }
    out.end_operand();
    Ok(())
}

fn indent<P: Printer + ?Sized>(out: &mut P, depth: usize) -> fmt::Result {
    for _ in 0..depth {
        out.write_char('\t')?;
    }
    Ok(())
}

/// A line that is one comment, showing the input bytes at `at`.
fn comment_line<P: Printer + ?Sized>(out: &mut P, at: Option<u64>, text: &str) -> fmt::Result {
    out.start_line(at);
    out.style(Style::Comment);
    out.write_str("; ")?;
    out.write_str(&printable(text))?;
    out.reset();
    out.write_char('\n')
}

/// A register or alias (or any text that stands for one) as one operand.
fn alias<P: Printer + ?Sized>(out: &mut P, text: &str) -> fmt::Result {
    out.start_operand();
    out.styled(Style::Register, text)?;
    out.end_operand();
    Ok(())
}

/// Register `n` of the file `letter` as one operand.
fn register<P: Printer + ?Sized>(out: &mut P, letter: char, n: u8) -> fmt::Result {
    out.start_operand();
    out.style(Style::Register);
    out.write_char(letter)?;
    write_u64(out, u64::from(n))?;
    out.reset();
    out.end_operand();
    Ok(())
}

/// `v3`, `r0`, `c12`.
fn write_register<W: fmt::Write + ?Sized>(out: &mut W, r: super::decode::Register) -> fmt::Result {
    out.write_char(r.file.letter())?;
    write_u64(out, u64::from(r.index))
}

/// A decimal number token.
fn literal_u64<P: Printer + ?Sized>(out: &mut P, v: u64) -> fmt::Result {
    out.style(Style::Literal);
    write_u64(out, v)?;
    out.reset();
    Ok(())
}

/// A `0x…` number token with at least `digits` digits.
fn literal_hex<P: Printer + ?Sized>(out: &mut P, v: u64, digits: usize) -> fmt::Result {
    out.style(Style::Literal);
    out.write_str("0x")?;
    write_hex(out, v, digits)?;
    out.reset();
    Ok(())
}

/// `(x, y, z, w)` of float24 values, each a number token.
fn write_f24s<P: Printer + ?Sized>(out: &mut P, v: &[u32; 4]) -> fmt::Result {
    out.write_char('(')?;
    for (k, x) in v.iter().enumerate() {
        if k > 0 {
            out.write_str(", ")?;
        }
        out.style(Style::Literal);
        float24::write(out, *x)?;
        out.reset();
    }
    out.write_char(')')
}

/// `(x, y, z, w)` of integers, each a number token.
fn write_ints<P: Printer + ?Sized>(out: &mut P, v: &[u8; 4]) -> fmt::Result {
    out.write_char('(')?;
    for (k, x) in v.iter().enumerate() {
        if k > 0 {
            out.write_str(", ")?;
        }
        literal_u64(out, u64::from(*x))?;
    }
    out.write_char(')')
}

/// Text safe inside a one-line comment (no line breaks or control characters).
fn printable(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { '?' } else { c }).collect()
}
