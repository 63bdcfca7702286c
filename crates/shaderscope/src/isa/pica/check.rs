//! Semantic checks over code: what a loader would not notice but the hardware (or an
//! emulator) would trip over.

use super::decode::{OperandDescriptor, Program};
use super::opcodes::Op;
use super::walk;
use super::{ProgramIssue, ShaderType, SourceContext};
use crate::print::count;

/// A mnemonic in lower case, without allocating.
struct Lower(&'static str);

impl std::fmt::Display for Lower {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.chars().try_for_each(|c| std::fmt::Write::write_char(f, c.to_ascii_lowercase()))
    }
}

fn issue(out: &mut Vec<ProgramIssue>, index: usize, error: bool, message: String) {
    out.push(ProgramIssue { index, message, error });
}

/// Checks over a whole code blob: operand-descriptor indices inside the table, flow targets and
/// ranges inside the program, CALL ranges that run off the end, unknown opcodes, undefined
/// comparison operators, vertex ids, unused bits, and sources that name two different input
/// registers (the hardware reads only one reliably).
pub fn check_program(program: &Program<'_>, opdesc_count: usize) -> Vec<ProgramIssue> {
    let mut out = Vec::new();
    let len = program.len();
    for (index, i) in program.instructions().iter().enumerate() {
        let info = i.info();
        if i.op == Op::Unknown {
            // An unknown opcode keeps its whole word in `unused`.
            let word = i.unused;
            issue(&mut out, index, true, format!("unknown opcode 0x{:02x} (word 0x{word:08x})", word >> 26));
            continue;
        }
        if i.has_desc() && usize::from(i.desc) >= opdesc_count {
            issue(
                &mut out,
                index,
                true,
                format!(
                    "{} uses operand descriptor 0x{:02x}, but the table has {}",
                    Lower(info.name),
                    i.desc,
                    count(opdesc_count, "entry")
                ),
            );
        }
        if i.unused != 0 {
            issue(
                &mut out,
                index,
                false,
                format!("{} has unused bits set (0x{:08x})", Lower(info.name), i.unused),
            );
        }
        let target = usize::from(i.target);
        let num = usize::from(i.num);
        match i.op {
            Op::Call | Op::Callc | Op::Callu => {
                if target >= len {
                    issue(
                        &mut out,
                        index,
                        true,
                        format!(
                            "{} target 0x{target:03x} is outside the program ({})",
                            Lower(info.name),
                            count(len, "word")
                        ),
                    );
                } else if target + num > len {
                    issue(
                        &mut out,
                        index,
                        true,
                        format!(
                            "{} range 0x{target:03x}+{num} runs off the end of the program ({})",
                            Lower(info.name),
                            count(len, "word")
                        ),
                    );
                } else if num == 0 {
                    issue(
                        &mut out,
                        index,
                        false,
                        format!("{} calls an empty range at 0x{target:03x}", Lower(info.name)),
                    );
                }
            }
            Op::Ifc | Op::Ifu => {
                if target <= index {
                    issue(
                        &mut out,
                        index,
                        true,
                        format!(
                            "{} else-target 0x{target:03x} is not after the instruction",
                            Lower(info.name)
                        ),
                    );
                } else if target + num > len {
                    issue(
                        &mut out,
                        index,
                        true,
                        format!(
                            "{} block 0x{target:03x}+{num} runs off the end of the program ({})",
                            Lower(info.name),
                            count(len, "word")
                        ),
                    );
                }
            }
            Op::Loop if target <= index || target >= len => {
                issue(
                    &mut out,
                    index,
                    true,
                    format!(
                        "loop body end 0x{target:03x} is not between the instruction and the end of the program"
                    ),
                );
            }
            Op::Jmpc | Op::Jmpu if target >= len => {
                issue(
                    &mut out,
                    index,
                    true,
                    format!(
                        "{} target 0x{target:03x} is outside the program ({})",
                        Lower(info.name),
                        count(len, "word")
                    ),
                );
            }
            Op::Cmp => {
                for (c, op) in ["x", "y"].iter().zip(i.cmp) {
                    if op > 5 {
                        issue(&mut out, index, false, format!("cmp operator {op} for {c} is undefined"));
                    }
                }
            }
            Op::Setemit if i.vertex > 2 => {
                issue(
                    &mut out,
                    index,
                    false,
                    format!("setemit vertex id {} is out of range (0-2)", i.vertex),
                );
            }
            _ => {}
        }
        let inputs: Vec<u8> =
            (0..i.source_count()).filter_map(|n| i.src.get(n).copied()).filter(|f| *f < 0x10).collect();
        if inputs.iter().any(|f| Some(f) != inputs.first()) {
            issue(
                &mut out,
                index,
                false,
                format!("{} reads two different input registers", Lower(info.name)),
            );
        }
    }
    out
}

/// Checks that need the executable (DVLE), over the code it runs (its entry range and what it
/// calls; the blob is shared with other DVLEs): output registers a geometry shader does not
/// have, geometry-only instructions in a vertex shader, MOVA writing no address register.
/// The container checks the DVLE's header and tables itself, with their exact offsets.
pub fn check_executable(ctx: &SourceContext<'_>) -> Vec<ProgramIssue> {
    let mut out = Vec::new();
    let geometry = ctx.shader_type == ShaderType::Geometry;
    // Only the code this executable runs: the code blob is shared with the other DVLEs.
    let insts = ctx.program.instructions();
    let visited = walk::reached(insts, &[(ctx.main, ctx.endmain)]);
    for (index, i) in insts.iter().enumerate().filter(|(k, _)| visited.get(*k).copied().unwrap_or(false)) {
        match i.destination() {
            Some(r) if geometry && r.file == super::RegisterFile::Output && r.index >= 7 => {
                issue(
                    &mut out,
                    index,
                    true,
                    format!("{} writes {r}, which a geometry shader does not have", Lower(i.info().name)),
                );
            }
            _ => {}
        }
        if !geometry && matches!(i.op, Op::Emit | Op::Setemit) {
            issue(&mut out, index, false, format!("{} in a vertex shader", Lower(i.info().name)));
        }
        if matches!(i.op, Op::Mova) {
            let d = OperandDescriptor(ctx.opdescs.get(usize::from(i.desc)).copied().unwrap_or(0xC));
            if d.mask() & 0xC == 0 {
                issue(&mut out, index, false, "mova writes neither a0.x nor a0.y".into());
            }
        }
    }
    out
}
