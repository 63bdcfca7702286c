//! The one walk over a program: control-flow instructions from offset 0 to `END_OF_PROGRAM`,
//! each followed by the clause it runs, in the order decaf-emu lists them. The listing, the
//! instruction records, the usage summary, the dump annotations and the checks are visitors
//! of this walk ([`crate::isa::walk`]), so they all see the same instructions.
//!
//! The walk is bounded by the bytes: every instruction is read once, a clause's reach is
//! checked against the program's end, and the control flow stops at the first clause it
//! would run into. What cannot be read is reported as an [`Error`] at its absolute offset,
//! and the walk goes on with what can.

use super::alu::{self, Group};
use super::cf::{Cf, CfKind, ClauseKind, inst};
use crate::error::Error;
use crate::isa::walk::Visit;

/// One step of the walk, in listing order.
#[derive(Clone, Copy)]
pub(crate) enum Step<'a> {
    /// A control-flow instruction: its number, absolute offset, loop depth.
    Cf { pc: u32, at: u64, cf: Cf, depth: usize },
    /// An ALU group of the clause the last control-flow instruction runs: its number in the
    /// program, the absolute offset of its first instruction, the loop depth of the clause's
    /// instruction, the unit of each instruction (and whether it clashes with an earlier
    /// one), and whether it is the clause's first group.
    Group { number: u64, at: u64, depth: usize, group: &'a Group, units: &'a [(usize, bool); 5], first: bool },
    /// A fetch instruction of the clause the last control-flow instruction runs, and the
    /// padding word of the program's first fetch (the one the listing names once).
    Fetch { number: u64, at: u64, depth: usize, kind: ClauseKind, inst: u128, padding: u32 },
    /// The control-flow instruction and its clause are done; `ends` when it ends the
    /// program.
    CfDone { ends: bool },
    /// The walk is over: the program's bytes, the runs of them no instruction reached
    /// (`gaps`, byte ranges from the program's start, in order) and the padding word of the
    /// program's first fetch. The listing shows what an assembler needs of them before the
    /// program (`head`: [`write_listing`](super::write_listing) hands the step of a first
    /// walk to the printing one before it starts), where no reader of decaf's lines looks.
    Rest { code: &'a [u8], gaps: &'a [(usize, usize)], padding: Option<u32>, head: bool },
}

/// Walk the program `code` whose first byte is at absolute offset `base`.
pub(crate) fn walk(code: &[u8], base: u64, v: &mut impl for<'s> Visit<Step<'s>>) {
    let n = code.len();
    let at = |off: usize| base.saturating_add(off as u64);
    // The lowest clause start seen: the control flow ends before it.
    let mut clauses = n;
    let mut depth = 0usize;
    let mut number = 0u64;
    let mut last_return = false;
    let mut pc = 0u32;
    // Clauses of a valid program do not overlap, so together they read at most the whole
    // program. Instructions that run the same bytes again and again (a damaged program)
    // stop being expanded past that, or the listing could grow without bound.
    let mut budget = Some(n + 2048);
    // The byte ranges instructions were read from, and the first fetch's padding word.
    let mut reached: Vec<(usize, usize)> = Vec::new();
    let mut padding = None;
    loop {
        let off = pc as usize * 8;
        if off >= clauses || off + 8 > n {
            if off < clauses && off < n {
                v.problem(Error::truncated(at(off), "control-flow instruction", 8, (n - off) as u64));
            } else if !last_return {
                let why = if off >= clauses && clauses < n {
                    format!(
                        "the control flow reaches the clause at 0x{:x} without END_OF_PROGRAM",
                        at(clauses)
                    )
                } else {
                    "the control flow ends without END_OF_PROGRAM".to_string()
                };
                v.problem(Error::invalid(at(off.min(n)), "Latte program", why));
            }
            break;
        }
        let Some(bytes) = code.get(off..off + 8).and_then(|b| b.first_chunk::<8>()) else { break };
        let cf = Cf(u64::from_le_bytes(*bytes));
        reached.push((off, off + 8));
        let step = cf.loop_step();
        if step < 0 && depth == 0 {
            v.problem(Error::invalid(at(off), "LOOP_END", "no loop is open"));
        }
        v.step(Step::Cf { pc, at: at(off), cf, depth });
        if step > 0 {
            depth += 1;
        } else if step < 0 {
            depth = depth.saturating_sub(1);
        }
        if let Some((addr, count)) = cf.alu_clause() {
            let start = addr as usize * 8;
            note_clause(v, &mut clauses, start, off, at);
            if afford(v, &mut budget, code, start, 8 * count as usize, off, at) {
                let end = alu_clause(code, base, start, count as usize, off, depth, &mut number, v);
                reached.push((start, end));
            }
        } else if let Some((kind, addr, count)) = cf.fetch_clause() {
            let start = addr as usize * 8;
            note_clause(v, &mut clauses, start, off, at);
            if afford(v, &mut budget, code, start, 16 * count as usize, off, at) {
                padding = padding.or_else(|| {
                    code.get(start + 12..start + 16)
                        .and_then(|b| b.first_chunk::<4>())
                        .map(|b| u32::from_le_bytes(*b))
                });
                let pad = padding.unwrap_or(0);
                let end =
                    fetch_clause(code, base, start, count as usize, off, depth, kind, pad, &mut number, v);
                reached.push((start, end));
            }
        }
        let ends = cf.ends_program();
        v.step(Step::CfDone { ends });
        if ends {
            break;
        }
        last_return = cf.kind() == CfKind::Normal && cf.inst() == inst::RETURN;
        pc += 1;
    }
    let gaps = gaps(&mut reached, n);
    v.step(Step::Rest { code, gaps: &gaps, padding, head: false });
}

/// The byte ranges of `0..n` outside every range of `reached` (which it sorts).
fn gaps(reached: &mut [(usize, usize)], n: usize) -> Vec<(usize, usize)> {
    reached.sort_unstable();
    let mut out = Vec::new();
    let mut at = 0;
    for &(start, end) in reached.iter() {
        if start > at {
            out.push((at, start.min(n)));
        }
        at = at.max(end);
    }
    if at < n {
        out.push((at, n));
    }
    out
}

/// Whether the clause at `start` (`len` bytes, cut to the program) may still be read: the
/// bytes clauses read so far stay within the budget. The first clause over it is reported.
fn afford(
    v: &mut impl for<'s> Visit<Step<'s>>,
    budget: &mut Option<usize>,
    code: &[u8],
    start: usize,
    len: usize,
    off: usize,
    at: impl Fn(usize) -> u64,
) -> bool {
    let cost = len.min(code.len().saturating_sub(start));
    match budget {
        Some(left) if cost <= *left => {
            *left -= cost;
            true
        }
        Some(_) => {
            *budget = None;
            v.problem(Error::invalid(
                at(off),
                "control-flow instruction",
                "its clauses read more bytes than the program has (they overlap): no more clauses are listed",
            ));
            false
        }
        None => false,
    }
}

/// A clause starts at byte `start`: it bounds the control flow, unless it starts at or
/// before the instruction `off` that runs it (a clause inside the control flow).
fn note_clause(
    v: &mut impl for<'s> Visit<Step<'s>>,
    clauses: &mut usize,
    start: usize,
    off: usize,
    at: impl Fn(usize) -> u64,
) {
    if start <= off {
        v.problem(Error::invalid(
            at(off),
            "control-flow instruction",
            format!("its clause at 0x{:x} lies inside the control flow", at(start)),
        ));
    } else {
        *clauses = (*clauses).min(start);
    }
}

#[allow(clippy::too_many_arguments)]
fn alu_clause(
    code: &[u8],
    base: u64,
    start: usize,
    count: usize,
    cf_off: usize,
    depth: usize,
    number: &mut u64,
    v: &mut impl for<'s> Visit<Step<'s>>,
) -> usize {
    let n = code.len();
    let at = |off: usize| base.saturating_add(off as u64);
    let want = start + 8 * count;
    if start >= n {
        v.problem(Error::out_of_bounds(at(cf_off), "ALU clause", at(start), 8 * count as u64, at(n)));
        return start;
    }
    if want > n {
        v.problem(Error::truncated(at(start), "ALU clause", 8 * count as u64, (n - start) as u64));
    }
    let end = want.min(n);
    let mut pos = start;
    let mut first = true;
    while pos < end {
        let Some(bytes) = code.get(pos..end) else { break };
        if bytes.len() < 8 {
            break;
        }
        let g = Group::read(bytes);
        if !g.ended && g.len < 5 {
            v.problem(Error::invalid(
                at(pos),
                "ALU group",
                "the clause ends before an instruction with LAST",
            ));
        }
        if g.literals_read < g.literals_needed {
            v.problem(Error::truncated(
                at(pos + 8 * g.len),
                "ALU group literals",
                4 * g.literals_needed as u64,
                4 * g.literals_read as u64,
            ));
        }
        let units = alu::assign_units(g.insts());
        for (i, (unit, clash)) in units.iter().enumerate().take(g.len) {
            if *clash {
                v.problem(Error::invalid(
                    at(pos + 8 * i),
                    "ALU instruction",
                    format!(
                        "unit {} is already taken in its group",
                        alu::UNIT_NAMES.get(*unit).unwrap_or(&"?")
                    ),
                ));
            }
        }
        v.step(Step::Group { number: *number, at: at(pos), depth, group: &g, units: &units, first });
        first = false;
        *number += 1;
        pos += 8 * g.slots();
    }
    pos.min(end)
}

#[allow(clippy::too_many_arguments)]
fn fetch_clause(
    code: &[u8],
    base: u64,
    start: usize,
    count: usize,
    cf_off: usize,
    depth: usize,
    kind: ClauseKind,
    padding: u32,
    number: &mut u64,
    v: &mut impl for<'s> Visit<Step<'s>>,
) -> usize {
    let n = code.len();
    let at = |off: usize| base.saturating_add(off as u64);
    let what = match kind {
        ClauseKind::Tex => "TEX clause",
        ClauseKind::Vtx => "VTX clause",
    };
    if start >= n {
        v.problem(Error::out_of_bounds(at(cf_off), what, at(start), 16 * count as u64, at(n)));
        return start;
    }
    for i in 0..count {
        let pos = start + 16 * i;
        let Some(bytes) = code.get(pos..).and_then(|b| b.first_chunk::<16>()) else {
            v.problem(Error::truncated(at(pos), what, 16 * (count - i) as u64, n.saturating_sub(pos) as u64));
            return pos;
        };
        v.step(Step::Fetch {
            number: *number,
            at: at(pos),
            depth,
            kind,
            inst: u128::from_le_bytes(*bytes),
            padding,
        });
        *number += 1;
    }
    start + 16 * count
}

/// What [`Step::Rest`] says of a program, kept.
#[derive(Default)]
pub(crate) struct Rest {
    pub(crate) gaps: Vec<(usize, usize)>,
    pub(crate) padding: Option<u32>,
}

impl Visit<Step<'_>> for Rest {
    fn step(&mut self, step: Step<'_>) {
        if let Step::Rest { gaps, padding, .. } = step {
            self.gaps = gaps.to_vec();
            self.padding = padding;
        }
    }
    fn problem(&mut self, _error: Error) {}
}
