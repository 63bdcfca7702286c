//! Semantic checks of a program beyond what decoding needs: registers used but not declared,
//! indices outside declared sizes, unbalanced blocks, unknown opcodes, missing operands.
//! Every compiler-produced program in the corpus passes without a finding.
//!
//! ```
//! use shaderscope::isa::sm4::{Program, validate};
//! use shaderscope::Severity;
//!
//! let words = [
//!     0x0000_0040u32, 13,                                        // ps_4_0
//!     0x0200_0068, 1,                                            // dcl_temps 1
//!     0x0500_0036, 0x0010_0012, 1, 0x0000_4001, 0x3f80_0000,     // mov r1.x, l(1.000000)
//!     0x0304_001f, 0x0010_000a, 0,                               // if_nz r0.x
//!     0x0100_003e,                                               // ret (no endif)
//! ];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let findings = validate(&Program::parse(&bytes, 0)?);
//! let found: Vec<_> = findings.iter().map(|f| (f.severity, f.offset, f.message.as_str())).collect();
//! assert_eq!(
//!     found,
//!     [
//!         (Severity::Error, 20, "r1 is used but dcl_temps declares 1 temporary registers"),
//!         (Severity::Error, 36, "if is never closed"),
//!     ]
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::decode::{Instruction, Operand, Program, operand_type as ot};
use super::info::{Declarations, PhaseDecls};
use super::names::register_prefix;
use super::opcodes::{Format, flag, op};
use super::walk::{check, walk};
use crate::isa::walk::Visit;
use crate::model::Finding;
use crate::print::count;

/// Check `program`; an empty result means nothing was found.
pub fn validate(program: &Program<'_>) -> Vec<Finding> {
    let mut v = Validator {
        findings: Vec::new(),
        sm51: program.is_sm51(),
        decls: Declarations::default(),
        program,
        listing_error: None,
        phase: 0,
        blocks: Vec::new(),
        stopped: false,
    };
    match Declarations::collect(program) {
        Ok(d) => v.decls = d,
        Err(e) => {
            v.decode_error(e);
            return v.findings;
        }
    }
    if !matches!(program.major, 4 | 5) {
        v.findings.push(Finding::warning(
            program.base(),
            format!("shader model {}.{} is not one this format defines", program.major, program.minor),
        ));
    }
    walk(program, &mut v);
    v.close_blocks();
    v.findings
}

struct Validator<'p, 'a> {
    findings: Vec<Finding>,
    sm51: bool,
    decls: Declarations,
    program: &'p Program<'a>,
    /// Where the listing stops ([`check`]), found at the first decoding error.
    listing_error: Option<Option<crate::Error>>,
    /// The hull-shader phase (0: the declarations before the first).
    phase: usize,
    /// The blocks open: opcode and offset of each opener.
    blocks: Vec<(u16, u64)>,
    /// The instruction stream stopped being readable.
    stopped: bool,
}

impl<'a> Visit<Instruction<'a>> for Validator<'_, 'a> {
    fn step(&mut self, inst: Instruction<'a>) {
        let Some(info) = inst.info else {
            self.findings.push(Finding::warning(
                inst.offset,
                format!("unknown opcode {} ({} skipped)", inst.opcode, count(inst.len_dwords(), "DWORD")),
            ));
            return;
        };
        match info.format {
            Format::Phase => {
                self.close_blocks();
                if inst.opcode != op::D3D11_SB_OPCODE_HS_DECLS {
                    self.phase += 1;
                }
            }
            Format::Inst | Format::InterfaceCall => {
                self.structure(&inst, info.flags);
                self.operands(&inst, info.operands.len());
            }
            _ => {}
        }
    }
    fn problem(&mut self, error: crate::Error) {
        self.decode_error(error);
        self.stopped = true;
    }
    fn stopped(&self) -> bool {
        self.stopped
    }
}

impl Validator<'_, '_> {
    /// A part of the program that does not decode, as one error finding. Where the listing
    /// stops too, its error is the one reported: that is the damage every command reports
    /// (`Container::damage`), so `validate` says it once, in one wording, whichever reader
    /// met it first.
    fn decode_error(&mut self, e: crate::Error) {
        let program = self.program;
        let e = self.listing_error.get_or_insert_with(|| check(program).err()).clone().unwrap_or(e);
        let f = Finding::error(e.offset(), e.reason());
        if !self.findings.contains(&f) {
            self.findings.push(f);
        }
    }

    fn close_blocks(&mut self) {
        for (opcode, offset) in self.blocks.drain(..) {
            let name = super::opcodes::info(opcode).map(|i| i.mnemonic).unwrap_or("block");
            self.findings.push(Finding::error(offset, format!("{name} is never closed")));
        }
    }

    /// Block nesting: if/else/endif, loop/endloop, switch/case/default/endswitch, break.
    fn structure(&mut self, inst: &Instruction<'_>, flags: u16) {
        use op::*;
        let top = self.blocks.last().map(|b| b.0);
        let opener = match inst.opcode {
            D3D10_SB_OPCODE_ENDIF | D3D10_SB_OPCODE_ELSE => Some(D3D10_SB_OPCODE_IF),
            D3D10_SB_OPCODE_ENDLOOP => Some(D3D10_SB_OPCODE_LOOP),
            D3D10_SB_OPCODE_ENDSWITCH => Some(D3D10_SB_OPCODE_SWITCH),
            _ => None,
        };
        if let Some(opener) = opener {
            if top != Some(opener) {
                let name = inst.mnemonic().unwrap_or("?");
                self.findings
                    .push(Finding::error(inst.offset, format!("{name} without a matching open block")));
                return;
            }
            if flags & flag::CLOSE != 0 {
                self.blocks.pop();
            }
            return;
        }
        let inside = |o: u16| self.blocks.iter().any(|b| b.0 == o);
        let finding = match inst.opcode {
            D3D10_SB_OPCODE_CASE | D3D10_SB_OPCODE_DEFAULT if top != Some(D3D10_SB_OPCODE_SWITCH) => {
                Some("case outside a switch")
            }
            D3D10_SB_OPCODE_BREAK | D3D10_SB_OPCODE_BREAKC
                if !inside(D3D10_SB_OPCODE_LOOP) && !inside(D3D10_SB_OPCODE_SWITCH) =>
            {
                Some("break outside a loop or switch")
            }
            D3D10_SB_OPCODE_CONTINUE | D3D10_SB_OPCODE_CONTINUEC if !inside(D3D10_SB_OPCODE_LOOP) => {
                Some("continue outside a loop")
            }
            _ => None,
        };
        if let Some(message) = finding {
            self.findings.push(Finding::error(inst.offset, message));
        }
        if flags & flag::OPEN != 0 {
            self.blocks.push((inst.opcode, inst.offset));
        }
    }

    fn operands(&mut self, inst: &Instruction<'_>, expected: usize) {
        let mut n = 0;
        for o in inst.operands() {
            match o {
                Ok(o) => self.operand(&o, self.phase),
                Err(e) => {
                    self.decode_error(e);
                    return;
                }
            }
            n += 1;
        }
        if inst.info.is_some_and(|i| i.format == Format::Inst) && n < expected {
            let name = inst.mnemonic().unwrap_or("?");
            self.findings.push(Finding::error(
                inst.offset,
                format!("{name} has {n} operands, the instruction takes {expected}"),
            ));
        }
    }

    fn operand(&mut self, o: &Operand<'_>, phase: usize) {
        // Nested operands of relative indices are registers too.
        for i in 0..usize::from(o.index_dim) {
            if let Some(rel) = o.index(i).and_then(|x| x.rel) {
                match rel.decode() {
                    Ok(r) => self.operand(&r, phase),
                    Err(e) => self.decode_error(e),
                }
            }
        }
        let name = register_prefix(o.ty, self.sm51);
        let local = self.decls.phases.get(phase);
        let global = self.decls.phases.first();
        let in_phases = |f: &dyn Fn(&PhaseDecls) -> bool| local.is_some_and(f) || global.is_some_and(f);
        match o.ty {
            ot::TEMP => {
                let Some(r) = o.imm_index(0) else { return };
                let temps = local.map(|p| p.temps).unwrap_or(0);
                if r >= u64::from(temps) {
                    let msg = format!("r{r} is used but dcl_temps declares {temps} temporary registers");
                    self.findings.push(Finding::error(o.offset, msg));
                }
            }
            ot::INDEXABLE_TEMP => {
                let Some(x) = o.imm_index(0) else { return };
                let decl = local
                    .into_iter()
                    .chain(global)
                    .flat_map(|p| p.indexable_temps.iter())
                    .find(|t| u64::from(t.register) == x)
                    .copied();
                match (decl, o.imm_index(1)) {
                    (None, _) => {
                        self.findings.push(Finding::error(o.offset, format!("x{x} is used but not declared")))
                    }
                    (Some(t), Some(i)) if i >= u64::from(t.size) => self.findings.push(Finding::error(
                        o.offset,
                        format!("x{x}[{i}] is outside dcl_indexableTemp x{x}[{}]", t.size),
                    )),
                    _ => {}
                }
            }
            ot::INPUT
            | ot::OUTPUT
            | ot::INPUT_CONTROL_POINT
            | ot::OUTPUT_CONTROL_POINT
            | ot::INPUT_PATCH_CONSTANT => {
                let dim = usize::from(o.index_dim);
                if dim == 0 || o.is_relative(dim - 1) {
                    return;
                }
                let Some(reg) = o.imm_index(dim - 1) else { return };
                let output = o.ty == ot::OUTPUT;
                let found = in_phases(&|p: &PhaseDecls| {
                    let list = if output { &p.outputs } else { &p.inputs };
                    list.iter().any(|d| d.file == o.ty && d.register.map(u64::from) == Some(reg))
                });
                if !found {
                    let what = if output { "output" } else { "input" };
                    let msg = format!("{what} register {name}{reg} is used but not declared");
                    self.findings.push(Finding::error(o.offset, msg));
                }
            }
            ot::INPUT_PRIMITIVEID
            | ot::OUTPUT_DEPTH
            | ot::OUTPUT_COVERAGE_MASK
            | ot::OUTPUT_CONTROL_POINT_ID
            | ot::INPUT_FORK_INSTANCE_ID
            | ot::INPUT_JOIN_INSTANCE_ID
            | ot::INPUT_DOMAIN_POINT
            | ot::INPUT_THREAD_ID
            | ot::INPUT_THREAD_GROUP_ID
            | ot::INPUT_THREAD_ID_IN_GROUP
            | ot::INPUT_COVERAGE_MASK
            | ot::INPUT_THREAD_ID_IN_GROUP_FLATTENED
            | ot::INPUT_GS_INSTANCE_ID
            | ot::OUTPUT_DEPTH_GREATER_EQUAL
            | ot::OUTPUT_DEPTH_LESS_EQUAL
            | ot::OUTPUT_STENCIL_REF
            | ot::INNER_COVERAGE => {
                let found =
                    in_phases(&|p: &PhaseDecls| p.inputs.iter().chain(&p.outputs).any(|d| d.file == o.ty));
                if !found {
                    self.findings.push(Finding::error(o.offset, format!("{name} is used but not declared")));
                }
            }
            ot::CONSTANT_BUFFER
            | ot::SAMPLER
            | ot::RESOURCE
            | ot::UNORDERED_ACCESS_VIEW
            | ot::THREAD_GROUP_SHARED_MEMORY => self.binding(o, name),
            ot::IMMEDIATE_CONSTANT_BUFFER => match (self.decls.icb_rows, o.imm_index(0)) {
                (None, _) => self.findings.push(Finding::error(
                    o.offset,
                    "icb is used but no immediate constant buffer is declared",
                )),
                (Some(rows), Some(i)) if i >= u64::from(rows) => self.findings.push(Finding::error(
                    o.offset,
                    format!("icb[{i}] is outside the {rows}-row immediate constant buffer"),
                )),
                _ => {}
            },
            ot::STREAM => {
                if let Some(m) = o.imm_index(0) {
                    if !self.decls.streams.iter().any(|&s| u64::from(s) == m) {
                        self.findings
                            .push(Finding::error(o.offset, format!("m{m} is used but not declared")));
                    }
                }
            }
            _ => {}
        }
    }

    /// cb#/s#/t#/u#/g#: the register (SM5.1: the range ID and the index in the range) is
    /// declared, and an immediate constant-buffer location is inside the declared size.
    fn binding(&mut self, o: &Operand<'_>, name: &str) {
        let Some(id) = o.imm_index(0) else { return };
        let sm51 = self.sm51 && o.ty != ot::THREAD_GROUP_SHARED_MEMORY;
        let decl = self
            .decls
            .bindings_of(o.ty)
            .find(|b| if sm51 { u64::from(b.id) == id } else { b.contains(id) })
            .copied();
        let Some(b) = decl else {
            self.findings.push(Finding::error(o.offset, format!("{name}{id} is used but not declared")));
            return;
        };
        if sm51 {
            if let Some(i) = o.imm_index(1) {
                if !b.contains(i) {
                    let upper = if b.upper == u32::MAX { "*".to_string() } else { b.upper.to_string() };
                    self.findings.push(Finding::error(
                        o.offset,
                        format!("{name}{id}[{i}] is outside the declared range [{}:{upper}]", b.lower),
                    ));
                }
            }
        }
        if o.ty == ot::CONSTANT_BUFFER {
            let loc = if sm51 { 2 } else { 1 };
            let size = b.size.unwrap_or(0);
            if let Some(i) = o.imm_index(loc) {
                if size > 0 && i >= u64::from(size) {
                    self.findings.push(Finding::error(
                        o.offset,
                        format!("{name}{id}[{i}] is outside the declared size of {size} vectors"),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Severity;

    fn program(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    // Operand tokens used below.
    const R_MASK_X: u32 = 2 | (1 << 4) | (1 << 20); // rN.x (mask), 1D immediate
    const R_SEL_X: u32 = 2 | (2 << 2) | (1 << 20); // rN.x (select)
    const CB_SEL_X: u32 = 2 | (2 << 2) | (8 << 12) | (2 << 20); // cbN[M].x

    #[test]
    fn undeclared_and_out_of_range_registers_are_reported_with_offsets() {
        // vs_4_0; dcl_constantbuffer cb0[2]; dcl_temps 1; mov r1.x, cb0[3].x; mov r0.x, cb1[0].x; ret
        let words = [
            0x0001_0040,
            15 + 2,
            0x0400_0059,
            2 | (0xe4 << 4) | (1 << 2) | (8 << 12) | (2 << 20),
            0,
            2,
            0x0200_0068,
            1,
            0x0600_0036,
            R_MASK_X,
            1,
            CB_SEL_X,
            0,
            3,
            0x0600_0036,
            R_MASK_X,
            0,
            CB_SEL_X,
            1,
            0,
            0x0100_003e,
        ];
        let mut words = words.to_vec();
        words[1] = words.len() as u32;
        let data = program(&words);
        let p = Program::parse(&data, 0x100).unwrap();
        let f = validate(&p);
        let msgs: Vec<(u64, &str)> = f.iter().map(|f| (f.offset, f.message.as_str())).collect();
        assert_eq!(
            msgs,
            vec![
                (0x100 + 9 * 4, "r1 is used but dcl_temps declares 1 temporary registers"),
                (0x100 + 11 * 4, "cb0[3] is outside the declared size of 2 vectors"),
                (0x100 + 17 * 4, "cb1 is used but not declared"),
            ]
        );
        assert!(f.iter().all(|f| f.severity == Severity::Error));
    }

    #[test]
    fn unbalanced_blocks_and_unknown_opcodes() {
        // ps_4_0; dcl_temps 1; if_nz r0.x; <opcode 240, 2 DWORDs>; ret  (no endif)
        let words = [0x0000_0040, 0, 0x0200_0068, 1, 0x0304_001f, R_SEL_X, 0, 0x0200_00f0, 7, 0x0100_003e];
        let mut words = words.to_vec();
        words[1] = words.len() as u32;
        let data = program(&words);
        let p = Program::parse(&data, 0).unwrap();
        let f = validate(&p);
        let msgs: Vec<(u64, Severity, &str)> =
            f.iter().map(|f| (f.offset, f.severity, f.message.as_str())).collect();
        assert_eq!(
            msgs,
            vec![
                (28, Severity::Warning, "unknown opcode 240 (2 DWORDs skipped)"),
                (16, Severity::Error, "if is never closed"),
            ]
        );
    }

    #[test]
    fn endif_without_if() {
        let words = [0x0000_0040, 3, 0x0100_0015];
        let data = program(&words);
        let p = Program::parse(&data, 0).unwrap();
        let f = validate(&p);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].message, "endif without a matching open block");
        assert_eq!(f[0].offset, 8);
    }

    /// A declaration cut short is worded as the listing words it (the damage every command
    /// reports), once, whichever reader meets it first: the reflection reader calls these
    /// values "declaration value".
    #[test]
    fn a_declaration_cut_short_is_one_finding_in_the_listings_words() {
        // cs_5_0; dcl_thread_group with a length of 2 DWORDs (one size of three).
        let data = program(&[0x0005_0050, 4, 0x0200_009b, 8]);
        let p = Program::parse(&data, 0x40).unwrap();
        let found: Vec<_> = validate(&p).into_iter().map(|f| (f.severity, f.offset, f.message)).collect();
        assert_eq!(
            found,
            [(Severity::Error, 0x50, "truncated thread group size (need 4 bytes, have 0)".to_string())]
        );
        assert_eq!(
            check(&p).unwrap_err().to_string(),
            "truncated thread group size at offset 0x50 (need 4 bytes, have 0)"
        );
        // ps_4_0; dcl_indexableTemp with no room for its register.
        let data = program(&[0x0000_0040, 3, 0x0100_0069]);
        let p = Program::parse(&data, 0x30).unwrap();
        let found: Vec<_> = validate(&p).into_iter().map(|f| (f.offset, f.message)).collect();
        assert_eq!(found, [(0x3c, "truncated indexable temp register (need 4 bytes, have 0)".to_string())]);
    }
}
