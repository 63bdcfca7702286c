//! Which code an executable runs: its entry range and the procedures it calls.

use super::instruction::Instruction;
use super::opcodes::Op;
use std::collections::HashSet;

/// The procedures of one executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Procedures {
    /// Word ranges `[start, end)`, sorted: the entry range and every range that CALL, CALLC or
    /// CALLU reach from it, transitively.
    pub ranges: Vec<(u32, u32)>,
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
pub(crate) fn procedures(insts: &[Instruction], main: u32, endmain: u32, max_words: usize) -> Procedures {
    let len = u32::try_from(insts.len()).unwrap_or(u32::MAX);
    let start = main.min(len);
    let end = endmain.clamp(start, len);
    let clamped = (start, end) != (main, endmain);
    let mut ranges = vec![(start, end)];
    let mut seen: HashSet<(u32, u32)> = ranges.iter().copied().collect();
    let mut budget = (end - start) as usize;
    let mut truncated = false;
    let mut next = 0;
    'walk: while let Some(&(s, e)) = ranges.get(next) {
        next += 1;
        for i in insts.get(s as usize..e as usize).unwrap_or(&[]) {
            if !matches!(i.op, Op::Call | Op::Callc | Op::Callu) {
                continue;
            }
            let (t, n) = (u32::from(i.target), u32::from(i.num));
            if n == 0 || t.checked_add(n).is_none_or(|x| x > len) || seen.contains(&(t, t + n)) {
                continue;
            }
            if budget + n as usize > max_words {
                truncated = true;
                break 'walk;
            }
            budget += n as usize;
            seen.insert((t, t + n));
            ranges.push((t, t + n));
        }
    }
    ranges.sort_unstable();
    let entry = ranges.iter().position(|r| *r == (start, end)).unwrap_or(0);
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
        assert_eq!(p.ranges, vec![(1, 4), (4, 6), (7, 8)]);
        assert_eq!((p.entry, p.clamped, p.truncated), (0, false, false));
        let p = procedures(&code, 1, 4, 4);
        assert_eq!((p.ranges.len(), p.truncated), (1, true));
        let p = procedures(&code, 6, 99, 1000);
        assert_eq!((p.ranges[p.entry], p.clamped), ((6, 8), true));
    }
}
