//! The one walk over a program: which code an executable runs (its entry range, the
//! procedures it calls and the code only jumps reach: [`procedures`], [`reached`]) and, within
//! a procedure, the order in which the listing shows it ([`walk_range`]: instructions, labels,
//! the `.else`/`.end` of IF and LOOP blocks, the places picasso pads with a NOP). The listing
//! and the records both print [`Step`]s of [`walk_range`]; the checks of an executable, the
//! listing of code no executable runs, and [`Executables`] (what the container asks about its
//! DVLEs) take the ranges. All of them read the instructions of one decoded
//! [`Program`](super::Program).

use super::decode::{Instruction, Program};
use super::opcodes::Op;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Per word of `insts`, whether one of the executables with entry ranges `entries`
/// (`main..endmain`) runs it: its entry range, what that calls, and the code jumps reach
/// ([`procedures`] of each, within the work a listing allows).
pub(crate) fn reached(insts: &[Instruction], entries: &[(u32, u32)]) -> Vec<bool> {
    let mut reached = vec![false; insts.len()];
    for &(main, endmain) in entries {
        for r in procedures(insts, main, endmain, 4 * insts.len() + 4096).ranges {
            if let Some(s) = reached.get_mut(r.start as usize..r.end as usize) {
                s.fill(true);
            }
        }
    }
    reached
}

/// A word range `[start, end)` of code the executable runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Range {
    pub start: u32,
    pub end: u32,
    /// Reached only by JMPC/JMPU (not the entry, not a CALL target).
    pub by_jump: bool,
}

/// The procedures of one executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Procedures {
    /// Sorted ranges: the entry range, every range that CALL, CALLC or CALLU reach from it,
    /// transitively, and the code reached only by jumps.
    pub ranges: Vec<Range>,
    /// Index of the entry range in `ranges`.
    pub entry: usize,
    /// The entry range as given did not fit the code and was clamped to it.
    pub clamped: bool,
    /// More ranges were reachable than `max_words` allows; the rest were left out.
    pub truncated: bool,
}

/// The end of the entry range of an executable with entry point `main` and header field
/// `endmain`. The PICA200 takes only the entry point and runs until an END; `endmain` says
/// where the entry procedure ends for tools, and nihstro leaves it 0. So `endmain` 0 means
/// "not recorded": the range then runs through the END that ends main, the first one that
/// main reaches on every path (an END inside an IF block runs on one path only, unless both
/// blocks end with one), or to the end of the code when no END does.
///
/// `known` holds the answers of earlier walks (one slot per word, empty or too short for
/// none): every word a walk passes reaches the same END, so walks from many entry points
/// cost one pass over the code in all.
pub(crate) fn entry_end(insts: &[Instruction], main: u32, endmain: u32, known: &mut [Option<u32>]) -> u32 {
    let len = u32::try_from(insts.len()).unwrap_or(u32::MAX);
    if endmain != 0 || main >= len {
        return if endmain != 0 { endmain } else { main };
    }
    let ends_with_end = |block_end: u32| {
        block_end.checked_sub(1).and_then(|k| insts.get(k as usize)).is_some_and(|i| i.op == Op::End)
    };
    let mut passed = Vec::new();
    let mut at = main;
    let end = loop {
        let Some(i) = insts.get(at as usize) else { break len };
        if let Some(Some(end)) = known.get(at as usize) {
            break *end;
        }
        passed.push(at);
        match i.op {
            Op::End => break at + 1,
            Op::Ifc | Op::Ifu => {
                // The IF block runs at+1..t, the ELSE block t..t+n; then code goes on at t+n.
                let (t, n) = (u32::from(i.target), u32::from(i.num));
                if t > at && t + n <= len {
                    if t > at + 1 && n > 0 && ends_with_end(t) && ends_with_end(t + n) {
                        break t + n;
                    }
                    at = t + n;
                    continue;
                }
            }
            _ => {}
        }
        at += 1;
    };
    for a in passed {
        if let Some(slot) = known.get_mut(a as usize) {
            *slot = Some(end);
        }
    }
    end
}

/// What the executables of one code blob run (the DVLEs of a DVLB share theirs), read from
/// the blob's [`Program`]: each one's entry range and the input registers it reads. However many
/// executables ask, the work stays linear in the code: entry ranges are found in one pass over
/// it in all, and input registers over at most `4 × words + 4096` words of ranges in all
/// (an executable asking past that gets `None`; the same range asked again is remembered).
///
/// ```
/// use shaderscope::isa::pica::{Executables, Program};
///
/// // mov o1, v0; end; mov o1, v1; end
/// let code = [0x4c20_0000, 0x8800_0000, 0x4c20_1000, 0x8800_0000];
/// let program = Program::new(&code);
/// let mut x = Executables::new(&program);
/// // endmain 0 (as nihstro writes it): main runs to its end instruction.
/// assert_eq!((x.entry_end(0, 0), x.entry_end(2, 0), x.entry_end(0, 4)), (2, 4, 4));
/// assert_eq!((x.inputs_read(0, 0), x.inputs_read(2, 0), x.inputs_read(0, 4)), (Some(0b01), Some(0b10), Some(0b11)));
/// ```
#[derive(Debug, Clone)]
pub struct Executables<'p> {
    insts: &'p [Instruction],
    /// Per word, the end of an entry range that starts there with `endmain` 0, once known.
    ends: Vec<Option<u32>>,
    /// The input registers of each entry range asked for, by its start and end.
    inputs: HashMap<(u32, u32), u16>,
    /// Words of ranges that input registers may still be read from.
    budget: usize,
}

impl<'p> Executables<'p> {
    /// The executables of the code blob `program`.
    pub fn new(program: &'p Program<'_>) -> Executables<'p> {
        let insts = program.instructions();
        let budget = 4 * insts.len() + 4096;
        Executables { ends: vec![None; insts.len()], insts, inputs: HashMap::new(), budget }
    }

    /// The end of the entry range of the executable with entry point `main` and header field
    /// `endmain`: `endmain`, or where it is 0 (nihstro leaves it so; the PICA200 itself takes
    /// only the entry point and runs until an END) the word after the END that ends main, the
    /// first one main reaches on every path (an END inside an IF block runs on one path only),
    /// or the end of the code when no END does.
    pub fn entry_end(&mut self, main: u32, endmain: u32) -> u32 {
        entry_end(self.insts, main, endmain, &mut self.ends)
    }

    /// The input registers (bit n = vn) the executable reads: in its entry range and every
    /// range it calls or jumps to, as its listing shows them; `None` once the work allowed for
    /// the whole code is spent.
    pub fn inputs_read(&mut self, main: u32, endmain: u32) -> Option<u16> {
        let end = self.entry_end(main, endmain);
        if let Some(mask) = self.inputs.get(&(main, end)) {
            return Some(*mask);
        }
        let len = self.insts.len() as u32;
        let entry_words = end.min(len).saturating_sub(main.min(len)) as usize;
        let found = (entry_words <= self.budget).then(|| ranges_from(self.insts, main, end, self.budget));
        let Some(found) = found.filter(|f| !f.truncated) else {
            self.budget = 0;
            return None;
        };
        let words: usize = found.ranges.iter().map(|r| (r.end - r.start) as usize).sum();
        self.budget = self.budget.saturating_sub(words);
        let mask = inputs_read(self.insts, &found.ranges);
        self.inputs.insert((main, end), mask);
        Some(mask)
    }
}

/// The input registers (bit n = vn) that the instructions in `ranges` read, by the register
/// each source field names (a relatively addressed source counts its base register).
pub(crate) fn inputs_read(insts: &[Instruction], ranges: &[Range]) -> u16 {
    let mut mask = 0u16;
    for r in ranges {
        for i in insts.get(r.start as usize..r.end as usize).unwrap_or(&[]) {
            for f in i.src.iter().take(i.source_count()) {
                if *f < 0x10 {
                    mask |= 1 << f;
                }
            }
        }
    }
    mask
}

/// Find the procedures of the executable whose entry range is `main..endmain` (`endmain` 0:
/// main to the END that ends it, see [`entry_end`]), visiting at most
/// `max_words` instruction words in total (calls with many different ranges could otherwise
/// make the work quadratic). Calls with an empty or out-of-range target are not followed.
///
/// Code that JMPC/JMPU reach outside every procedure runs too, so it becomes a range of its
/// own: from the target through the first END, which is where execution falling through from
/// the target stops (without an END, to the next range or the end of the code). Its extent
/// depends only on the code from the target on, so a listing that prints it as a procedure
/// and is re-assembled gives the same range again wherever the procedure lands. Calls are
/// followed to the end before such a range is made, and the lowest target goes first.
pub(crate) fn procedures(insts: &[Instruction], main: u32, endmain: u32, max_words: usize) -> Procedures {
    let end = entry_end(insts, main, endmain, &mut []);
    ranges_from(insts, main, end, max_words)
}

/// [`procedures`] of the executable whose entry range is `main..endmain`, its end found
/// ([`entry_end`]).
fn ranges_from(insts: &[Instruction], main: u32, endmain: u32, max_words: usize) -> Procedures {
    let len = u32::try_from(insts.len()).unwrap_or(u32::MAX);
    let start = main.min(len);
    let end = endmain.clamp(start, len);
    let clamped = (start, end) != (main, endmain);
    let entry_range = Range { start, end, by_jump: false };
    let mut ranges = vec![entry_range];
    let mut seen: HashSet<(u32, u32)> = HashSet::from([(start, end)]);
    let mut budget = (end - start) as usize;
    let mut truncated = false;
    let mut next = 0;
    let mut jumps: Vec<u32> = Vec::new();
    'walk: loop {
        while let Some(&r) = ranges.get(next) {
            next += 1;
            for i in insts.get(r.start as usize..r.end as usize).unwrap_or(&[]) {
                let (t, n) = (u32::from(i.target), u32::from(i.num));
                match i.op {
                    Op::Jmpc | Op::Jmpu if t < len => jumps.push(t),
                    Op::Call | Op::Callc | Op::Callu => {
                        if n == 0 || t.checked_add(n).is_none_or(|x| x > len) || seen.contains(&(t, t + n)) {
                            continue;
                        }
                        if budget + n as usize > max_words {
                            truncated = true;
                            break 'walk;
                        }
                        budget += n as usize;
                        seen.insert((t, t + n));
                        ranges.push(Range { start: t, end: t + n, by_jump: false });
                    }
                    _ => {}
                }
            }
        }
        // The lowest jump target outside every range starts a range of its own.
        let Some(t) =
            jumps.iter().copied().filter(|t| !ranges.iter().any(|r| r.start <= *t && *t < r.end)).min()
        else {
            break;
        };
        let end_at = insts.get(t as usize..).and_then(|rest| rest.iter().position(|i| i.op == Op::End));
        let e = match end_at {
            Some(k) => t + k as u32 + 1,
            None => ranges.iter().map(|r| r.start).filter(|s| *s > t).min().unwrap_or(len),
        };
        if budget + (e - t) as usize > max_words {
            truncated = true;
            break;
        }
        budget += (e - t) as usize;
        seen.insert((t, e));
        ranges.push(Range { start: t, end: e, by_jump: true });
    }
    ranges.sort_unstable();
    let entry = ranges.iter().position(|r| *r == entry_range).unwrap_or(0);
    Procedures { ranges, entry, clamped, truncated }
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

/// One step of a procedure's listing (see [`walk_range`]).
pub(crate) enum Step<'l> {
    /// `.else` or `.end` at `depth`.
    Directive { depth: usize, text: &'static str },
    /// A note where picasso inserts a NOP the binary lacks, inside a block at `depth`.
    Padding { depth: usize },
    /// A label line, and the label-table entry it shows.
    Label { name: &'l str, at: Option<u64> },
    /// The instruction at word `a`, at block `depth`; `dropped` says why it cannot be written
    /// as source (it is then shown in a comment).
    Instruction { a: u32, inst: &'l Instruction, depth: usize, dropped: Option<String> },
}

/// Walk the procedure `start..end` of `insts` in listing order: its instructions, the
/// labels `label` gives word addresses (with the label-table entry each comes from), the
/// block directives and the padding notes between them, ending with its `.end`. The
/// listing and the records both take their lines from here.
pub(crate) fn walk_range<'l>(
    insts: &'l [Instruction],
    start: u32,
    end: u32,
    label: impl Fn(u32) -> Option<(&'l str, Option<u64>)>,
    mut step: impl FnMut(Step<'l>) -> fmt::Result,
) -> fmt::Result {
    let mut stack: Vec<Block> = Vec::new();
    // picasso's padding rules, to point out where it will insert a NOP that the binary lacks.
    let mut last_was_end = false;
    let mut last_op: Option<Op> = None;
    let mut opened_at: Vec<u32> = Vec::new();
    for a in start..=end {
        // Close or switch blocks that end here.
        while let Some(&top) = stack.last() {
            if top.is_if && !top.in_else && a == top.split && top.end > top.split {
                let body = a.saturating_sub(opened_at.last().copied().unwrap_or(a));
                if last_was_end || ends_block_badly(last_op, false) || body < 2 {
                    step(Step::Padding { depth: stack.len() })?;
                }
                if let Some(t) = stack.last_mut() {
                    t.in_else = true;
                }
                last_was_end = false;
                step(Step::Directive { depth: stack.len(), text: ".else" })?;
            } else if a == top.part_end() {
                let is_loop = !top.is_if;
                let body = a.saturating_sub(opened_at.last().copied().unwrap_or(a));
                if last_was_end || ends_block_badly(last_op, is_loop) || body < 2 {
                    step(Step::Padding { depth: stack.len() })?;
                }
                stack.pop();
                opened_at.pop();
                step(Step::Directive { depth: stack.len() + 1, text: ".end" })?;
                last_was_end = true;
            } else {
                break;
            }
        }
        if let Some((name, at)) = label(a) {
            step(Step::Label { name, at })?;
        }
        if a == end {
            break;
        }
        let Some(inst) = insts.get(a as usize) else { break };
        let depth = stack.len() + 1;
        let dropped = block_problem(inst, a, stack.last().map(Block::part_end).unwrap_or(end));
        let opens = dropped.is_none();
        step(Step::Instruction { a, inst, depth, dropped })?;
        last_was_end = false;
        last_op = Some(inst.op);
        if opens {
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
        step(Step::Directive { depth: stack.len() + 1, text: ".end" })?;
        last_was_end = true;
    }
    if last_was_end || ends_block_badly(last_op, false) || end == start {
        step(Step::Padding { depth: 0 })?;
    }
    step(Step::Directive { depth: 0, text: ".end" })
}

/// Why an IF/LOOP at `a` cannot be written as a block ending inside `limit`, if it cannot.
fn block_problem(inst: &Instruction, a: u32, limit: u32) -> Option<String> {
    let t = u32::from(inst.target);
    match inst.op {
        Op::Ifc | Op::Ifu => {
            let end = t + u32::from(inst.num);
            (t <= a || end > limit)
                .then(|| format!("if-block 0x{a:03x}..0x{t:03x}+{} is not nested", inst.num))
        }
        Op::Loop => (t <= a || t >= limit).then(|| format!("loop body 0x{a:03x}..0x{t:03x} is not nested")),
        Op::Unknown => Some("unknown opcode".into()),
        _ => None,
    }
}

/// Whether picasso pads a block that ends after `op` (flow instructions must not end a block;
/// loops also must not end in BREAK/BREAKC).
fn ends_block_badly(op: Option<Op>, is_loop: bool) -> bool {
    matches!(op, Some(Op::Jmpc | Op::Jmpu | Op::Call | Op::Callc | Op::Callu))
        || (is_loop && matches!(op, Some(Op::Break | Op::Breakc)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::pica::decode;

    fn call(op: Op, target: u16, num: u8) -> Instruction {
        Instruction { op, target, num, ..Instruction::default() }
    }

    #[test]
    fn endmain_0_ends_main_at_the_end_every_path_reaches() {
        let (nop, end) = (decode(0x8400_0000), decode(0x8800_0000));
        let ifu = |target: u16, num: u8| Instruction { op: Op::Ifu, target, num, ..Instruction::default() };
        let r = |start, end, by_jump| Range { start, end, by_jump };
        // A recorded endmain is the end.
        assert_eq!(entry_end(&[nop, end, nop], 0, 2, &mut []), 2);
        // Straight code: through the first END from main (here main 1; the END at 0 is before it).
        assert_eq!(entry_end(&[end, nop, end, nop, end], 1, 0, &mut []), 3);
        // An END inside an IF block (1..3, ELSE block 3..4) runs on one path: main goes on to 5.
        let code = [ifu(3, 1), nop, end, nop, nop, end, nop, end];
        assert_eq!(entry_end(&code, 0, 0, &mut []), 6);
        // Both blocks ending with one: main ends with the ELSE block.
        let code = [ifu(3, 2), nop, end, nop, end, nop, end];
        assert_eq!(entry_end(&code, 0, 0, &mut []), 5);
        // An empty IF block: the END in the ELSE block is still one path's.
        let code = [ifu(1, 1), end, nop, end];
        assert_eq!(entry_end(&code, 0, 0, &mut []), 4);
        // Walks remember what each word they pass reaches: a later walk stops there.
        let code = [nop, nop, end, nop, end];
        let mut known = vec![None; code.len()];
        assert_eq!(entry_end(&code, 0, 0, &mut known), 3);
        assert_eq!(known, [Some(3), Some(3), Some(3), None, None]);
        let mut known = vec![None, Some(99), None, None, None];
        assert_eq!(entry_end(&code, 0, 0, &mut known), 99);
        assert_eq!(known[0], Some(99));
        // No END: to the end of the code; main past the code stays where it is.
        assert_eq!(entry_end(&[nop, nop], 0, 0, &mut []), 2);
        assert_eq!(entry_end(&[nop, nop], 5, 0, &mut []), 5);
        // The procedures of such an executable: the entry range found, what it calls, not clamped.
        let code = [call(Op::Call, 3, 2), end, nop, nop, end];
        let p = procedures(&code, 0, 0, 1000);
        assert_eq!(p.ranges, vec![r(0, 2, false), r(3, 5, false)]);
        assert_eq!((p.entry, p.clamped), (0, false));
        assert_eq!(inputs_read(&code, &p.ranges), 0);
    }

    #[test]
    fn inputs_read_are_the_source_fields_naming_v_registers() {
        // add r0, v1, v3 (src1 7 bits, src2 5 bits); mov r1, v2; dp4 r0, c0, r0; end
        let add = decode(0x0200_0000 | 0x10 << 21 | 0x01 << 12 | 0x03 << 7);
        let mov = decode(0x4c00_0000 | 0x11 << 21 | 0x02 << 12);
        let dp4 = decode(0x0800_0000 | 0x10 << 21 | 0x20 << 12 | 0x10 << 7);
        let code = [add, mov, dp4, decode(0x8800_0000)];
        let all = [Range { start: 0, end: 4, by_jump: false }];
        assert_eq!(inputs_read(&code, &all), 0b1110);
        assert_eq!(inputs_read(&code, &[Range { start: 1, end: 4, by_jump: false }]), 0b0100);
    }

    #[test]
    fn code_reached_by_jumps_outside_procedures_is_a_range() {
        let nop = decode(0x8400_0000);
        let jmp = |t| Instruction { op: Op::Jmpc, target: t, ..Instruction::default() };
        // main 0..2 jumps to 5 (in nothing) and to 2 (the end of main, where code follows).
        // The lower target goes first: its range runs through the END at 6 (taking in 5) and
        // calls 7..8.
        let end = decode(0x8800_0000);
        let code = [jmp(5), jmp(2), nop, nop, nop, call(Op::Call, 7, 1), end, nop, nop];
        let p = procedures(&code, 0, 2, 1000);
        let r = |start, end, by_jump| Range { start, end, by_jump };
        assert_eq!(p.ranges, vec![r(0, 2, false), r(2, 7, true), r(7, 8, false)]);
        // Without an END the range stops at the next one.
        let p = procedures(&[jmp(2), nop, nop, call(Op::Call, 4, 1), nop, nop], 0, 2, 1000);
        assert_eq!(p.ranges, vec![r(0, 2, false), r(2, 6, true), r(4, 5, false)]);
        // A jump past the code is no range.
        let p = procedures(&[jmp(1)], 0, 1, 1000);
        assert_eq!(p.ranges, vec![r(0, 1, false)]);
    }

    #[test]
    fn calls_are_followed_transitively_and_sorted() {
        let nop = decode(0x8400_0000);
        let code = [
            nop,
            call(Op::Call, 4, 2), // 1: main calls 4..6
            nop,
            call(Op::Callu, 4, 2), // 3: same range again
            call(Op::Callc, 7, 1), // 4: the callee calls 7..8
            nop,
            call(Op::Call, 6, 0), // 6: empty range: not followed
            nop,
        ];
        let p = procedures(&code, 1, 4, 1000);
        let r = |start, end| Range { start, end, by_jump: false };
        assert_eq!(p.ranges, vec![r(1, 4), r(4, 6), r(7, 8)]);
        assert_eq!((p.entry, p.clamped, p.truncated), (0, false, false));
        let p = procedures(&code, 1, 4, 4);
        assert_eq!((p.ranges.len(), p.truncated), (1, true));
        let p = procedures(&code, 6, 99, 1000);
        assert_eq!((p.ranges[p.entry], p.clamped), (r(6, 8), true));
    }
}
