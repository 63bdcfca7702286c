//! STAT (the compiler's instruction statistics) recomputed from the program tokens.
//!
//! The counting rules are fxc 10's, worked out from the corpus's 289 STAT chunks (the 96 that
//! fxc 10 wrote agree with them word for word; the field names are those of
//! [`STAT_FIELDS`](crate::format::dxbc::chunks::STAT_FIELDS)). Each instruction counts once
//! in the total (labels do not) and once in its class: float (`add`, `mul`, `dp3`, …), int
//! (`iadd`, `ishl`, …), uint and bitwise (`ushr`, `and`, `udiv`, …), conversions (`ftoi`,
//! `itof`, `round_*`, `frc`, …), `mov`, `movc`, static flow control (`break`, `else`, `ret`,
//! …), dynamic flow control (`if`, `loop`, `switch`), the sample/load/gather/store/atomic
//! kinds; bit-field, `f16tof32` and similar instructions count in the total only. The
//! temp count is the largest `dcl_temps` (of any hull-shader phase), the "def" count the
//! vec4s of the immediate constant buffer, the declaration count the input/output
//! declarations (for a hull shader: those of the phase that has the most), and the
//! geometry, tessellation and sample-frequency words come from their declarations.
//!
//! Older fxc (9.29, 9.30) counted several classes on its code before optimisation and
//! counted only one hull-shader phase: their `mov`, float, flow-control and declaration
//! counts cannot be recomputed from the program. Over the corpus the recount gives the STAT
//! chunk byte for byte for 108 of 289 containers: 91 of 91 from fxc 10.1, 4 of 5 from fxc
//! 10.0, 13 of 193 from fxc 9.x (`cargo test --release --test dxbc_rdef_stat -- --nocapture`).
//! That is why [`assemble_like`](super::assemble_like) recounts an edited program's STAT only
//! where the recount gives the original's STAT for the original's program.
//!
//! ```
//! use shaderscope::format::dxbc::assemble::stat;
//! use shaderscope::isa::sm4::asm::parse_program;
//!
//! let words = parse_program("ps_5_0\ndcl_output o0.xyzw\ndcl_temps 1\nadd r0.xyzw, r0.xyzw, l(1.0, 1.0, 1.0, 1.0)\nmov o0.xyzw, r0.xyzw\nret\n")?;
//! let payload = stat::from_program(&words);
//! let word = |i: usize| u32::from_le_bytes(payload[4 * i..4 * i + 4].try_into().unwrap());
//! // Instructions, temps, defs, declarations, float instructions.
//! assert_eq!((word(0), word(1), word(2), word(3), word(4)), (3, 1, 0, 1, 1));
//! # Ok::<(), shaderscope::asm::LineError>(())
//! ```

use crate::isa::sm4::decode::{Program, operand_type};
use crate::isa::sm4::opcodes::{Format, op};

/// Word indexes of the STAT fields (see `STAT_FIELDS`).
mod w {
    pub const INSTRUCTIONS: usize = 0;
    pub const TEMPS: usize = 1;
    pub const DEFS: usize = 2;
    pub const DCLS: usize = 3;
    pub const FLOAT: usize = 4;
    pub const INT: usize = 5;
    pub const UINT: usize = 6;
    pub const STATIC_FLOW: usize = 7;
    pub const DYNAMIC_FLOW: usize = 8;
    pub const TEMP_ARRAYS: usize = 10;
    pub const ARRAY_INSTRUCTIONS: usize = 11;
    pub const CUT: usize = 12;
    pub const EMIT: usize = 13;
    pub const SAMPLE: usize = 14;
    pub const LOAD: usize = 15;
    pub const SAMPLE_C: usize = 16;
    pub const SAMPLE_BIAS: usize = 17;
    pub const SAMPLE_GRAD: usize = 18;
    pub const MOV: usize = 19;
    pub const MOVC: usize = 20;
    pub const CONVERSION: usize = 21;
    pub const GS_INPUT: usize = 23;
    pub const GS_OUTPUT: usize = 24;
    pub const GS_MAX_VERTICES: usize = 25;
    pub const GATHER: usize = 26;
    pub const LOD: usize = 27;
    pub const SAMPLE_FREQUENCY: usize = 28;
    pub const GS_INSTANCES: usize = 29;
    pub const CONTROL_POINTS: usize = 30;
    pub const HS_OUTPUT_PRIMITIVE: usize = 31;
    pub const HS_PARTITIONING: usize = 32;
    pub const TESS_DOMAIN: usize = 33;
    pub const BARRIERS: usize = 34;
    pub const INTERLOCKED: usize = 35;
    pub const STORES: usize = 36;
}

/// The class word an (instruction-format) opcode counts in, besides the total.
fn class(opcode: u16) -> Option<usize> {
    use op::*;
    Some(match opcode {
        D3D10_SB_OPCODE_ADD
        | D3D10_SB_OPCODE_DIV
        | D3D10_SB_OPCODE_DP2
        | D3D10_SB_OPCODE_DP3
        | D3D10_SB_OPCODE_DP4
        | D3D10_SB_OPCODE_EQ
        | D3D10_SB_OPCODE_EXP
        | D3D10_SB_OPCODE_GE
        | D3D10_SB_OPCODE_LOG
        | D3D10_SB_OPCODE_LT
        | D3D10_SB_OPCODE_MAD
        | D3D10_SB_OPCODE_MIN
        | D3D10_SB_OPCODE_MAX
        | D3D10_SB_OPCODE_MUL
        | D3D10_SB_OPCODE_NE
        | D3D10_SB_OPCODE_RSQ
        | D3D10_SB_OPCODE_SQRT
        | D3D10_SB_OPCODE_SINCOS
        | D3D11_SB_OPCODE_RCP
        | D3D10_SB_OPCODE_DERIV_RTX
        | D3D10_SB_OPCODE_DERIV_RTY
        | D3D11_SB_OPCODE_DERIV_RTX_COARSE
        | D3D11_SB_OPCODE_DERIV_RTX_FINE
        | D3D11_SB_OPCODE_DERIV_RTY_COARSE
        | D3D11_SB_OPCODE_DERIV_RTY_FINE
        | D3D11_SB_OPCODE_DADD
        | D3D11_SB_OPCODE_DMAX
        | D3D11_SB_OPCODE_DMIN
        | D3D11_SB_OPCODE_DMUL
        | D3D11_SB_OPCODE_DEQ
        | D3D11_SB_OPCODE_DGE
        | D3D11_SB_OPCODE_DLT
        | D3D11_SB_OPCODE_DNE
        | D3D11_1_SB_OPCODE_DDIV
        | D3D11_1_SB_OPCODE_DFMA
        | D3D11_1_SB_OPCODE_DRCP => w::FLOAT,
        D3D10_SB_OPCODE_IADD | D3D10_SB_OPCODE_IEQ | D3D10_SB_OPCODE_IGE | D3D10_SB_OPCODE_ILT
        | D3D10_SB_OPCODE_IMAD | D3D10_SB_OPCODE_IMAX | D3D10_SB_OPCODE_IMIN | D3D10_SB_OPCODE_IMUL
        | D3D10_SB_OPCODE_INE | D3D10_SB_OPCODE_INEG | D3D10_SB_OPCODE_ISHL | D3D10_SB_OPCODE_ISHR => w::INT,
        D3D10_SB_OPCODE_AND | D3D10_SB_OPCODE_NOT | D3D10_SB_OPCODE_OR | D3D10_SB_OPCODE_XOR
        | D3D10_SB_OPCODE_UDIV | D3D10_SB_OPCODE_ULT | D3D10_SB_OPCODE_UGE | D3D10_SB_OPCODE_UMUL
        | D3D10_SB_OPCODE_UMAD | D3D10_SB_OPCODE_UMAX | D3D10_SB_OPCODE_UMIN | D3D10_SB_OPCODE_USHR => {
            w::UINT
        }
        D3D10_SB_OPCODE_FTOI
        | D3D10_SB_OPCODE_FTOU
        | D3D10_SB_OPCODE_ITOF
        | D3D10_SB_OPCODE_UTOF
        | D3D10_SB_OPCODE_ROUND_NE
        | D3D10_SB_OPCODE_ROUND_NI
        | D3D10_SB_OPCODE_ROUND_PI
        | D3D10_SB_OPCODE_ROUND_Z
        | D3D10_SB_OPCODE_FRC => w::CONVERSION,
        D3D10_SB_OPCODE_MOV => w::MOV,
        D3D10_SB_OPCODE_MOVC => w::MOVC,
        D3D10_SB_OPCODE_BREAK
        | D3D10_SB_OPCODE_ELSE
        | D3D10_SB_OPCODE_RET
        | D3D10_SB_OPCODE_CONTINUE
        | D3D10_SB_OPCODE_CALL => w::STATIC_FLOW,
        D3D10_SB_OPCODE_IF | D3D10_SB_OPCODE_LOOP | D3D10_SB_OPCODE_SWITCH => w::DYNAMIC_FLOW,
        D3D10_SB_OPCODE_CUT | D3D11_SB_OPCODE_CUT_STREAM => w::CUT,
        D3D10_SB_OPCODE_EMIT | D3D11_SB_OPCODE_EMIT_STREAM => w::EMIT,
        D3D10_SB_OPCODE_SAMPLE => w::SAMPLE,
        D3D10_SB_OPCODE_SAMPLE_C | D3D10_SB_OPCODE_SAMPLE_C_LZ => w::SAMPLE_C,
        D3D10_SB_OPCODE_SAMPLE_B => w::SAMPLE_BIAS,
        D3D10_SB_OPCODE_SAMPLE_D => w::SAMPLE_GRAD,
        D3D10_SB_OPCODE_LD
        | D3D10_SB_OPCODE_LD_MS
        | D3D10_SB_OPCODE_SAMPLE_L
        | D3D11_SB_OPCODE_LD_UAV_TYPED
        | D3D11_SB_OPCODE_LD_RAW
        | D3D11_SB_OPCODE_LD_STRUCTURED => w::LOAD,
        D3D10_1_SB_OPCODE_GATHER4
        | D3D11_SB_OPCODE_GATHER4_C
        | D3D11_SB_OPCODE_GATHER4_PO
        | D3D11_SB_OPCODE_GATHER4_PO_C => w::GATHER,
        D3D10_1_SB_OPCODE_LOD => w::LOD,
        D3D11_SB_OPCODE_SYNC => w::BARRIERS,
        D3D11_SB_OPCODE_STORE_UAV_TYPED | D3D11_SB_OPCODE_STORE_RAW | D3D11_SB_OPCODE_STORE_STRUCTURED => {
            w::STORES
        }
        D3D11_SB_OPCODE_ATOMIC_AND..=D3D11_SB_OPCODE_IMM_ATOMIC_UMIN => w::INTERLOCKED,
        _ => return None,
    })
}

/// The STAT payload for `program` (SHDR/SHEX tokens, version token first): 29 words before
/// shader model 5, 37 from it on. A program that does not decode gives the counts of the
/// instructions before the damage.
pub fn from_program(program: &[u32]) -> Vec<u8> {
    let bytes: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
    let major = program.first().map_or(4, |v| (v >> 4) & 0xF);
    let mut s = [0u32; 37];
    if let Ok(p) = Program::parse(&bytes, 0) {
        count(&p, &mut s);
    }
    let words = if major >= 5 { 37 } else { 29 };
    s.iter().take(words).flat_map(|w| w.to_le_bytes()).collect()
}

fn count(p: &Program<'_>, s: &mut [u32; 37]) {
    let hull = p.version_token() >> 16 == 3;
    let bump = |s: &mut [u32; 37], i: usize, by: u32| {
        if let Some(x) = s.get_mut(i) {
            *x = x.saturating_add(by);
        }
    };
    // Input/output declarations of the current hull-shader phase.
    let mut phase_dcls = 0u32;
    for i in p.instructions() {
        let Ok(i) = i else { break };
        let Some(info) = i.info else { continue };
        let body = |k: usize| i.body_token(k, "STAT").unwrap_or(0);
        match info.format {
            Format::Phase => {
                s[w::DCLS] = s[w::DCLS].max(phase_dcls);
                phase_dcls = 0;
            }
            Format::CustomData => {
                // The immediate constant buffer: its vec4s are the "def" count.
                if i.custom_data_class() == Some(3) {
                    bump(s, w::DEFS, (i.body().len() / 4) as u32);
                }
            }
            Format::Decl(_) => match i.opcode {
                op::D3D10_SB_OPCODE_DCL_TEMPS => s[w::TEMPS] = s[w::TEMPS].max(body(0)),
                op::D3D10_SB_OPCODE_DCL_INDEXABLE_TEMP => bump(s, w::TEMP_ARRAYS, body(1)),
                op::D3D10_SB_OPCODE_DCL_INPUT..=op::D3D10_SB_OPCODE_DCL_OUTPUT_SIV => {
                    if hull {
                        phase_dcls += 1;
                    } else {
                        bump(s, w::DCLS, 1);
                    }
                    let sample = matches!(
                        i.opcode,
                        op::D3D10_SB_OPCODE_DCL_INPUT_PS | op::D3D10_SB_OPCODE_DCL_INPUT_PS_SIV
                    ) && matches!(i.controls() & 0xF, 6 | 7);
                    let sample_index = i.opcode == op::D3D10_SB_OPCODE_DCL_INPUT_PS_SGV
                        && i.first_operand().ok().and_then(|o| i.body_token(o.len(), "STAT").ok())
                            == Some(10);
                    if sample || sample_index {
                        s[w::SAMPLE_FREQUENCY] = 1;
                    }
                }
                op::D3D10_SB_OPCODE_DCL_GS_INPUT_PRIMITIVE => s[w::GS_INPUT] = i.controls() & 0x3F,
                op::D3D10_SB_OPCODE_DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY => s[w::GS_OUTPUT] = i.controls() & 0x3F,
                op::D3D10_SB_OPCODE_DCL_MAX_OUTPUT_VERTEX_COUNT => s[w::GS_MAX_VERTICES] = body(0),
                op::D3D11_SB_OPCODE_DCL_GS_INSTANCE_COUNT => s[w::GS_INSTANCES] = body(0),
                op::D3D11_SB_OPCODE_DCL_INPUT_CONTROL_POINT_COUNT => {
                    let n = i.controls() & 0x3F;
                    if hull {
                        // D3D_PRIMITIVE_1_CONTROL_POINT_PATCH is 8.
                        s[w::GS_INPUT] = n + 7;
                    } else {
                        s[w::CONTROL_POINTS] = n;
                    }
                }
                op::D3D11_SB_OPCODE_DCL_OUTPUT_CONTROL_POINT_COUNT => {
                    s[w::CONTROL_POINTS] = i.controls() & 0x3F
                }
                op::D3D11_SB_OPCODE_DCL_TESS_DOMAIN => s[w::TESS_DOMAIN] = i.controls() & 7,
                op::D3D11_SB_OPCODE_DCL_TESS_PARTITIONING => s[w::HS_PARTITIONING] = i.controls() & 7,
                op::D3D11_SB_OPCODE_DCL_TESS_OUTPUT_PRIMITIVE => s[w::HS_OUTPUT_PRIMITIVE] = i.controls() & 7,
                _ => {}
            },
            _ => {
                if i.opcode != op::D3D10_SB_OPCODE_LABEL {
                    bump(s, w::INSTRUCTIONS, 1);
                }
                if let Some(c) = class(i.opcode) {
                    bump(s, c, 1);
                }
                let indexable = i.operands().flatten().any(|o| o.ty == operand_type::INDEXABLE_TEMP);
                if indexable {
                    bump(s, w::ARRAY_INSTRUCTIONS, 1);
                }
            }
        }
    }
    s[w::DCLS] = s[w::DCLS].max(phase_dcls);
}
