//! Byte annotations of a program for `shaderscope dump`: every token with what it means. The
//! offsets are absolute, so a container can annotate an embedded program (DXBC `Aon9`) with the
//! same function.

use super::fields::{D3DSP_DCL_USAGE, D3DSP_DCL_USAGEINDEX, D3DSP_TEXTURETYPE};
use super::print::{write_destination, write_instruction, write_source};
use super::walk::{Step, walk};
use super::{ConstantTable, Instruction, Operand, Param, Program, Version, ctab, usage_name};
use crate::dump::Annotations;
use crate::error::Error;
use crate::isa::walk::Visit;
use crate::print::TextBuf;
use crate::print::count;
use crate::toolkit::{Endian, Reader};

/// The FourCC that opens a comment block (`CTAB`, `DBUG`…), when it is alphanumeric.
pub fn comment_fourcc(data: &[u8]) -> Option<&str> {
    let f = data.get(..4)?;
    f.iter().all(|c| c.is_ascii_alphanumeric()).then(|| std::str::from_utf8(f).ok()).flatten()
}

/// Annotate every token of `p` (usable for an embedded program too: offsets are absolute).
pub fn annotate_program(p: &Program<'_>, a: &mut Annotations) {
    walk(p, None, &mut Annotate { a, version: p.version, done: p.base, end: p.base });
}

/// Annotate a program read only up to a failure ([`Program::parse_partial`]): its items, then
/// the bytes from the failure to absolute `end` as not read, saying why.
pub fn annotate_partial(p: &Program<'_>, error: &Error, end: u64, a: &mut Annotations) {
    walk(p, Some(error), &mut Annotate { a, version: p.version, done: p.base, end });
}

/// The annotations of the walk's steps: the program a section, every token a field, each
/// comment a section with its inside; where reading stopped, the bytes up to `end` a field.
struct Annotate<'a> {
    a: &'a mut Annotations,
    version: Version,
    /// Where the program's items end (from the version step).
    done: u64,
    /// Where the program's bytes end, when reading stopped before.
    end: u64,
}

impl Visit<Step<'_>> for Annotate<'_> {
    fn step(&mut self, step: Step<'_>) {
        let (a, version) = (&mut *self.a, self.version);
        match step {
            Step::Version { at, token, version, len } => {
                self.done = at + len;
                a.section(at, len, format!("Direct3D 9 program ({})", version.name()));
                a.field(at, 4, format!("version token 0x{token:08x}: {}", version.name()));
            }
            Step::Comment { at, token, data } => {
                let fourcc = comment_fourcc(data);
                a.section(at, 4 + data.len() as u64, format!("comment {}", fourcc.unwrap_or("(untagged)")));
                a.field(
                    at,
                    4,
                    format!("comment token 0x{token:08x}: {} follow", count(data.len() / 4, "token")),
                );
                annotate_comment(at + 4, data, a);
            }
            Step::End { at, token } => a.field(at, 4, format!("end token 0x{token:08x}")),
            Step::Instruction(ins) => annotate_instruction(ins, version, a),
            Step::NoEnd { .. } => {}
            Step::Trailing { at, bytes } => a.field(at, bytes.len() as u64, "bytes after the end token"),
        }
    }

    fn problem(&mut self, error: Error) {
        if self.end > self.done {
            self.a.field(self.done, self.end - self.done, format_args!("tokens not read: {error}"));
        }
    }
}

/// The instruction token with the instruction's text, then each operand's tokens.
fn annotate_instruction(ins: &Instruction, version: Version, a: &mut Annotations) {
    let mut text = TextBuf::default();
    // Writing into a TextBuf cannot fail.
    let _ = write_instruction(ins, version, &mut text);
    let text = text.as_str();
    a.field(ins.offset, 4, format!("instruction 0x{:08x}: {text} (opcode 0x{:04x})", ins.token, ins.code()));
    let mut at = ins.offset + 4;
    for op in &ins.operands {
        let text = match op {
            Operand::Dst(prm) | Operand::Pred(prm) | Operand::Src(prm) => {
                let role = match op {
                    Operand::Dst(_) => "destination",
                    Operand::Pred(_) => "predicate",
                    _ => "source",
                };
                let mut shown = String::new();
                // Writing into a String cannot fail.
                let _ = match op {
                    Operand::Dst(_) => write_destination(prm, version, &mut shown),
                    _ => write_source(prm, version, &mut shown),
                };
                let ty = prm.register_type().d3d_name(version.kind);
                a.field(at, 4, format!("{role} 0x{:08x}: {shown} ({ty})", prm.token));
                at += 4;
                let Some(r) = prm.rel else { continue };
                let addr = Param { token: r, rel: None, offset: at };
                let mut shown = String::new();
                let _ = write_source(&addr, version, &mut shown);
                format!("address 0x{r:08x}: {shown}")
            }
            Operand::Usage(u) => format!(
                "dcl usage 0x{u:08x}: {}, index {}, texture type {}",
                usage_name(D3DSP_DCL_USAGE.get(*u)).unwrap_or("?"),
                D3DSP_DCL_USAGEINDEX.get(*u),
                D3DSP_TEXTURETYPE.get(*u)
            ),
            Operand::Imm(v) => {
                // The float as fxc writes a `def` constant (`%.9g`).
                let mut float = String::new();
                let _ = crate::print::float::write_f32_g9(&mut float, *v);
                format!("literal 0x{v:08x} ({float} as float, {} as int)", *v as i32)
            }
            Operand::Raw(v) => format!("token 0x{v:08x} (does not fit the instruction's layout)"),
        };
        a.field(at, 4, text);
        at += 4;
    }
}

/// The inside of a comment block: the FourCC and, for a constant table, its header and
/// constant records; the rest as one field per gap.
fn annotate_comment(at: u64, data: &[u8], a: &mut Annotations) {
    let mut claimed: Vec<(u64, u64)> = Vec::new();
    let mut field = |a: &mut Annotations, start: u64, len: u64, text: String| {
        a.field(at + start, len, text);
        claimed.push((start, len));
    };
    if data.len() >= 4 {
        field(a, 0, 4, format!("FourCC \"{}\"", crate::error::escape_bytes(data.get(..4).unwrap_or(&[]))));
    }
    let table = Reader::with_base(data.get(4..).unwrap_or(&[]), at + 4, Endian::Little);
    if data.starts_with(b"CTAB")
        && let Ok(t) = ConstantTable::parse(table.data(), table.base())
        && let Ok(h) = table.read_at::<ctab::RawHeader>(0, "CTAB header")
    {
        let fields = [
            format!("CTAB size: {}", h.size.get()),
            format!("CTAB creator at 0x{:x}: \"{}\"", h.creator.get(), t.creator),
            format!("CTAB version: 0x{:08x}", h.version.get()),
            format!("CTAB constant count: {}", h.constants.get()),
            format!("CTAB constant info at 0x{:x}", h.constant_info.get()),
            format!("CTAB flags: 0x{:08x}", h.flags.get()),
            format!("CTAB target at 0x{:x}: \"{}\"", h.target.get(), t.target),
        ];
        for (i, text) in fields.into_iter().enumerate() {
            field(a, 4 + 4 * i as u64, 4, text);
        }
        let info_at = u64::from(h.constant_info.get()) + 4;
        for (i, c) in t.constants.iter().enumerate() {
            let text = format!(
                "CTAB constant {i}: {} {} in {}, {}",
                ctab::type_text(&c.ty),
                c.name,
                c.register_text(),
                count(c.register_count, "register")
            );
            field(a, info_at + 20 * i as u64, 20, text);
        }
    }
    // Everything not described above, as contiguous ranges.
    claimed.sort_unstable();
    let mut pos = 0u64;
    let end = data.len() as u64;
    let mut gaps = Vec::new();
    for (s, l) in claimed {
        if s > pos {
            gaps.push((pos, s - pos));
        }
        pos = pos.max(s + l);
    }
    if pos < end {
        gaps.push((pos, end - pos));
    }
    let rest = match data.get(..4) {
        Some(b"CTAB") => "constant table types, names and strings",
        Some(b"DBUG") => "debug information: source files, line records, variables, strings",
        _ => "comment data",
    };
    for (s, l) in gaps {
        a.field(at + s, l, rest);
    }
}
