//! Semantic checks of a parsed program: what the Direct3D 9 runtime's validator would reject
//! beyond the token structure that parsing already enforces.
//!
//! Register limits are the ones Microsoft documents per shader model ("Registers - vs_2_0",
//! "ps_3_0 Registers", …). Where a limit depends on device caps (vertex-shader constants, the
//! extended temporaries of `_2_x`) the documented maximum is used and exceeding the guaranteed
//! minimum is only a warning.

use super::operand::RegisterType;
use super::walk::{Step, walk};
use super::{ConstantTable, DebugInfo, Instruction, Opcode, Operand, Param, Program, ShaderKind, Version};
use crate::error::Error;
use crate::isa::walk::Visit;
use crate::model::Finding;
use crate::print::count;

/// How many registers of a type a version has: `Fixed(n)` is a hard limit, `Caps(n)` the
/// guaranteed minimum of a caps-dependent file, `None` means the type does not exist there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    Fixed(u32),
    Caps(u32),
}

fn limit(v: Version, ty: RegisterType) -> Option<Limit> {
    use Limit::{Caps, Fixed};
    use RegisterType::*;
    let (vs, ps) = (v.kind == ShaderKind::Vertex, v.kind == ShaderKind::Pixel);
    let (m, minor) = (v.major, v.minor);
    Some(match ty {
        Temp if vs && m == 1 => Fixed(12),
        Temp if ps && m == 1 => Fixed(if minor >= 4 { 6 } else { 2 }),
        Temp if m == 2 && minor == 0 => Fixed(12),
        Temp => Fixed(32),
        Input if vs => Fixed(16),
        Input if m == 3 => Fixed(10),
        Input => Fixed(2),
        Const if vs && m == 1 => Caps(96),
        Const if vs => Caps(256),
        Const if m == 1 => Fixed(8),
        Const if m == 2 => Fixed(32),
        Const => Fixed(224),
        Const2 | Const3 | Const4 if vs && m >= 2 => Fixed(2048),
        AddrOrTexture if vs => Fixed(1),
        AddrOrTexture if m == 1 => Fixed(if minor >= 4 { 6 } else { 4 }),
        AddrOrTexture if m == 2 => Fixed(8),
        RastOut if vs && m < 3 => Fixed(3),
        AttrOut if vs && m < 3 => Fixed(2),
        Output if vs && m < 3 => Fixed(8),
        Output if vs => Fixed(12),
        ConstInt | ConstBool if m >= 2 => Fixed(16),
        ColorOut if ps && m >= 2 => Fixed(4),
        DepthOut if ps && m >= 2 => Fixed(1),
        Sampler if ps && m >= 2 => Fixed(16),
        Sampler if vs && m == 3 => Fixed(4),
        Loop if (vs && m >= 2) || m == 3 => Fixed(1),
        MiscType if ps && m == 3 => Fixed(2),
        Label if m >= 2 => Fixed(2048),
        Predicate if m > 2 || (m == 2 && minor > 0) => Fixed(1),
        _ => return None,
    })
}

/// Findings for `program`, sorted by offset; empty when it is fine: what the Direct3D 9
/// runtime's validator would reject beyond the token structure that parsing already enforces
/// (registers past the limits of the shader model, instructions it lacks, unclosed blocks, a
/// missing end token, a constant table for another version).
///
/// ```
/// use shaderscope::isa::d3d9::{Program, check_program};
/// use shaderscope::model::Severity;
///
/// // vs_2_0: mov r12, v0 (vs_2_0 has r0-r11), and no end token.
/// let words = [0xfffe0200u32, 0x02000001, 0x800f000c, 0x90e40000];
/// let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
/// let findings = check_program(&Program::parse(&bytes, 0)?);
/// let found: Vec<_> = findings.iter().map(|f| (f.severity, f.offset, f.message.as_str())).collect();
/// assert_eq!(
///     found,
///     [
///         (Severity::Error, 0x8, "register r12 is out of range: vs_2_0 has 12"),
///         (Severity::Error, 0x10, "program has no end token (0x0000ffff)"),
///     ]
/// );
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub fn check_program(program: &Program<'_>) -> Vec<Finding> {
    let mut v = Check {
        version: program.version,
        name: program.version.name(),
        token: program.version_token,
        out: Vec::new(),
        blocks: Vec::new(),
        constant_table: None,
        debug_info: None,
    };
    walk(program, None, &mut v);
    v.finish()
}

/// The findings of a walk: each step's as it comes; the blocks left open, then the constant
/// table's and the debug information's after all others of their offset, at the end.
struct Check {
    version: Version,
    /// [`Version::name`].
    name: String,
    out: Vec<Finding>,
    /// The open `if`/`loop`/`rep` blocks: opcode and offset.
    blocks: Vec<(Opcode, u64)>,
    /// The version token as stored.
    token: u32,
    /// The finding of the first `CTAB` comment, if any, once it is seen.
    constant_table: Option<Option<Finding>>,
    /// The finding of the first `DBUG` comment, if any, once it is seen.
    debug_info: Option<Option<Finding>>,
}

impl Visit<Step<'_>> for Check {
    fn step(&mut self, step: Step<'_>) {
        match step {
            Step::Version { at, .. } => self.version_token(at),
            Step::Instruction(ins) => self.instruction(ins),
            Step::Comment { at, data, .. } => self.comment(at, data),
            Step::End { .. } => {}
            Step::NoEnd { at } => self.out.push(Finding::error(at, "program has no end token (0x0000ffff)")),
            Step::Trailing { at, bytes } => self
                .out
                .push(Finding::warning(at, format!("{} after the end token", count(bytes.len(), "byte")))),
        }
    }

    fn problem(&mut self, error: Error) {
        self.out.push(Finding::error(error.offset(), error.reason()));
    }
}

impl Check {
    /// A minor version the shader model does not have.
    fn version_token(&mut self, at: u64) {
        let v = self.version;
        let known_minor = match (v.kind, v.major) {
            (_, 2 | 3) if v.minor == 0xff => true,
            (ShaderKind::Vertex, 1) => v.minor <= 1,
            (ShaderKind::Pixel, 1) => v.minor <= 4,
            (_, 2) => v.minor <= 1,
            _ => v.minor == 0,
        };
        if !known_minor {
            self.out.push(Finding::warning(
                at,
                format!("{} is not a shader model Direct3D 9 defines", self.name),
            ));
        }
    }

    fn instruction(&mut self, ins: &Instruction) {
        let (v, name, out) = (self.version, self.name.as_str(), &mut self.out);
        let Some(info) = ins.info else {
            out.push(Finding::error(ins.offset, format!("unknown opcode 0x{:04x}", ins.code())));
            return;
        };
        if let Some(why) = &ins.malformed {
            out.push(Finding::error(ins.offset, format!("malformed {}: {why}", info.name)));
            return;
        }
        if !info.available(v) {
            out.push(Finding::error(ins.offset, format!("{} does not exist in {name}", info.name)));
        }
        if ins.is_predicated() && limit(v, RegisterType::Predicate).is_none() {
            out.push(Finding::error(
                ins.offset,
                format!("predicated {} in {name}, which has no p0", info.name),
            ));
        }
        for op in &ins.operands {
            if let Operand::Dst(p) | Operand::Pred(p) | Operand::Src(p) = op {
                check_param(p, v, name, out);
            }
        }
        nesting(ins, &mut self.blocks, out);
    }

    /// The first constant table (one that does not read, is for another version, or has a
    /// header of another size) and the first debug information (one that does not read).
    fn comment(&mut self, at: u64, data: &[u8]) {
        // As `Program::comment_block` finds them: the data after the FourCC.
        let (o, d) = (at.saturating_add(8), data.get(4..).unwrap_or(&[]));
        if data.starts_with(b"CTAB") && self.constant_table.is_none() {
            self.constant_table = Some(match ConstantTable::parse(d, o) {
                Err(e) => Some(Finding::error(e.offset(), format!("constant table: {}", e.reason()))),
                Ok(t) if t.version != self.token => Some(Finding::warning(
                    t.offset + 8,
                    format!(
                        "constant table is for version 0x{:08x}, the program is {}",
                        t.version, self.name
                    ),
                )),
                Ok(t) if t.size != 28 => Some(Finding::warning(
                    t.offset,
                    format!("constant table header size is {}, not 28", t.size),
                )),
                Ok(_) => None,
            });
        }
        if data.starts_with(b"DBUG") && self.debug_info.is_none() {
            self.debug_info = Some(
                DebugInfo::parse(d, o)
                    .err()
                    .map(|e| Finding::warning(e.offset(), format!("debug information: {}", e.reason()))),
            );
        }
    }

    /// The findings, sorted by offset (those of one offset in the order found).
    fn finish(mut self) -> Vec<Finding> {
        for (op, at) in std::mem::take(&mut self.blocks) {
            self.out.push(Finding::error(at, format!("{} block is never closed", opener_name(op))));
        }
        self.out.extend(self.constant_table.flatten());
        self.out.extend(self.debug_info.flatten());
        self.out.sort_by_key(|f| f.offset);
        self.out
    }
}

fn check_param(p: &Param, v: Version, name: &str, out: &mut Vec<Finding>) {
    let ty = p.register_type();
    let reg = || {
        let mut s = String::new();
        // Writing into a String cannot fail.
        let _ = super::operand::write_register_name(ty, p.number(), v, &mut s);
        s
    };
    match limit(v, ty) {
        None => out.push(Finding::error(
            p.offset,
            format!("register {} ({}) does not exist in {name}", reg(), ty.d3d_name(v.kind)),
        )),
        Some(Limit::Fixed(n)) if p.number() >= n => {
            out.push(Finding::error(p.offset, format!("register {} is out of range: {name} has {n}", reg())))
        }
        Some(Limit::Caps(n)) if p.number() >= n => out.push(Finding::warning(
            p.offset,
            format!("register {} is beyond the {n} {name} guarantees; it needs a device with more", reg()),
        )),
        _ => {}
    }
    if let Some(r) = p.rel {
        let rt = super::operand::register_type(r);
        let ok = matches!(rt, RegisterType::Loop)
            || (matches!(rt, RegisterType::AddrOrTexture) && v.kind == ShaderKind::Vertex);
        if !ok {
            out.push(Finding::error(
                p.offset + 4,
                format!("relative address register {}", rt.d3d_name(v.kind)),
            ));
        }
    }
}

fn opener_name(op: Opcode) -> &'static str {
    match op {
        Opcode::Loop => "loop",
        Opcode::Rep => "rep",
        _ => "if",
    }
}

/// Track `if`/`loop`/`rep` blocks and report stray closers.
fn nesting(ins: &Instruction, blocks: &mut Vec<(Opcode, u64)>, out: &mut Vec<Finding>) {
    let Some(op) = ins.opcode() else { return };
    let top = blocks.last().map(|b| b.0);
    let is_if = |o: Option<Opcode>| matches!(o, Some(Opcode::If | Opcode::IfC));
    match op {
        Opcode::If | Opcode::IfC | Opcode::Loop | Opcode::Rep => blocks.push((op, ins.offset)),
        Opcode::Else if is_if(top) => {}
        Opcode::EndIf if is_if(top) => {
            blocks.pop();
        }
        Opcode::EndLoop if top == Some(Opcode::Loop) => {
            blocks.pop();
        }
        Opcode::EndRep if top == Some(Opcode::Rep) => {
            blocks.pop();
        }
        Opcode::Else | Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => {
            let name = ins.info.map(|i| i.name).unwrap_or("?");
            out.push(Finding::error(ins.offset, format!("{name} without a matching opening instruction")));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(words: &[u32]) -> Vec<String> {
        let data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let p = Program::parse(&data, 0).unwrap();
        check_program(&p)
            .iter()
            .map(|f| format!("{:?} 0x{:x}: {}", f.severity, f.offset, f.message))
            .collect()
    }

    #[test]
    fn a_valid_program_is_silent() {
        // vs_2_0: dcl_position v0; mov oPos, v0; end
        let w = [
            0xfffe_0200,
            0x0200_001f,
            0x8000_0000,
            0x900f_0000,
            0x0200_0001,
            0xc00f_0000,
            0x90e4_0000,
            0xffff,
        ];
        assert!(findings(&w).is_empty());
    }

    #[test]
    fn reports_registers_opcodes_nesting_and_end() {
        // ps_2_0: mov r12, t8 (both out of range), texm3x2pad (ps_1_x only), endif, no end token
        let w = [
            0xffff_0200,
            0x0200_0001,
            0x800f_000c,
            0xb0e4_0008,
            0x0200_0047,
            0xb00f_0001,
            0xb0e4_0000,
            0x0000_002b,
        ];
        assert_eq!(
            findings(&w),
            [
                "Error 0x8: register r12 is out of range: ps_2_0 has 12",
                "Error 0xc: register t8 is out of range: ps_2_0 has 8",
                "Error 0x10: texm3x2pad does not exist in ps_2_0",
                "Error 0x1c: endif does not exist in ps_2_0",
                "Error 0x1c: endif without a matching opening instruction",
                "Error 0x20: program has no end token (0x0000ffff)",
            ]
        );
    }

    #[test]
    fn reports_unknown_opcodes_and_open_blocks() {
        // vs_2_0: rep i0; opcode 0x37; end
        let w = [0xfffe_0200, 0x0100_0026, 0xf0e4_0000, 0x0000_0037, 0xffff, 0xabab_abab];
        assert_eq!(
            findings(&w),
            [
                "Error 0x4: rep block is never closed",
                "Error 0xc: unknown opcode 0x0037",
                "Warning 0x14: 4 bytes after the end token",
            ]
        );
    }

    #[test]
    fn unknown_minor_versions_are_flagged() {
        assert_eq!(
            findings(&[0xffff_0105, 0xffff]),
            ["Warning 0x0: ps_1_5 is not a shader model Direct3D 9 defines"]
        );
        assert!(findings(&[0xfffe_03ff, 0xffff]).is_empty());
    }

    #[test]
    fn sampler_in_vs_2_0_and_big_constants() {
        // vs_2_0: mov r0, s0 ; mov r0, c300 (beyond the guaranteed 256: a warning)
        let w = [
            0xfffe_0200,
            0x0200_0001,
            0x800f_0000,
            0xa0e4_0800,
            0x0200_0001,
            0x800f_0000,
            0xa0e4_012c,
            0xffff,
        ];
        assert_eq!(
            findings(&w),
            [
                "Error 0xc: register s0 (D3DSPR_SAMPLER) does not exist in vs_2_0",
                "Warning 0x18: register c300 is beyond the 256 vs_2_0 guarantees; it needs a device with more",
            ]
        );
    }
}
