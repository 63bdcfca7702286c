//! Which code an executable runs: its entry range and the procedures it calls.

use super::instruction::Instruction;
use super::opcodes::Op;
use std::collections::HashSet;

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

/// Find the procedures of the executable whose entry range is `main..endmain`, visiting at most
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::pica::decode;

    fn call(op: Op, target: u16, num: u8) -> Instruction {
        Instruction { op, target, num, ..Instruction::default() }
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
