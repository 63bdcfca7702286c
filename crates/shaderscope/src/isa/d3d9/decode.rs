//! Tokens → the owned [`Instruction`]: the instruction token, its table row and its operands
//! in token order, each knowing its absolute offset.
//!
//! An operand keeps its tokens ([`Param`]: the parameter token and the relative-address token
//! that follows it from shader model 2 on) and reads its fields through the accessors of
//! [`super::operand`] and the masks of [`super::fields`], so the printer, the checks, the
//! dump's annotations and the encoder ([`Instruction::encode`], in `encode.rs`) all read one
//! decoding. Decoding never fails on tokens that do not fit the opcode's layout from shader
//! model 2 on: the instruction length says where the next one starts, so such an instruction
//! keeps its tokens as [`Operand::Raw`] and says why in [`Instruction::malformed`].
//!
//! ```
//! use shaderscope::isa::d3d9::{self, Operand, Opcode, Version};
//!
//! // vs_2_0 `mov r0, c3[a0.x]`: the source's bit 13 is set, its address token follows.
//! let words = [0x0300_0001u32, 0x800f_0000, 0xa0e4_2003, 0xb000_0000];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let vs_2_0 = Version::from_token(0xfffe_0200).unwrap();
//! let mov = d3d9::decode(&bytes, 0x40, vs_2_0)?;
//! assert_eq!((mov.offset, mov.opcode(), mov.byte_len()), (0x40, Some(Opcode::Mov), 16));
//! let src = mov.srcs().next().unwrap();
//! assert_eq!((src.number(), src.rel, src.offset), (3, Some(0xb000_0000), 0x48));
//! assert!(matches!(mov.operands[0], Operand::Dst(d) if d.write_mask() == 0xf));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::Version;
use super::fields::{
    D3DSHADER_COMPARISON, D3DSHADER_INSTRUCTION_PREDICATED, D3DSI_COISSUE, D3DSI_INSTLENGTH, D3DSI_OPCODE,
    D3DSP_OPCODESPECIFICCONTROL,
};
use super::opcodes::{self, Form, OpInfo, Opcode};
use super::operand::Param;
use crate::error::{Error, Result};
use crate::print::count;
use crate::toolkit::raw::{LittleEndian, U32};
use crate::toolkit::{Endian, Reader};
use zerocopy::FromBytes;

/// One operand slot of an instruction, in token order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// The destination parameter.
    Dst(Param),
    /// The predicate (`p0`) of a predicated instruction (bit 28 of the instruction token).
    Pred(Param),
    /// A source parameter.
    Src(Param),
    /// The usage token of `dcl` (`D3DSP_DCL_USAGE` / `D3DSP_TEXTURETYPE`).
    Usage(u32),
    /// A literal of `def`, `defi` or `defb`.
    Imm(u32),
    /// A token that does not fit the instruction's layout (kept for lossless output).
    Raw(u32),
}

impl Operand {
    /// Tokens this operand takes (2 for a parameter with an address token).
    pub fn token_count(&self) -> usize {
        match self {
            Operand::Dst(p) | Operand::Pred(p) | Operand::Src(p) => 1 + usize::from(p.rel.is_some()),
            _ => 1,
        }
    }
}

/// The operands of one instruction, stored inline up to six (a predicated `texldd`, the most
/// any well-formed instruction has), so decoding a program allocates nothing per instruction;
/// only the raw tokens of a malformed one may spill to the heap.
pub type Operands = smallvec::SmallVec<[Operand; 6]>;

/// A decoded instruction, owned: what [`decode`] reads and [`Instruction::encode`] writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// Absolute byte offset of the instruction token.
    pub offset: u64,
    /// The instruction token: opcode, controls (comparison, `texld` variant), the predicated
    /// and co-issue flags and, from shader model 2 on, the length as read (the encoder writes
    /// the length of the operands it is given).
    pub token: u32,
    /// Its table row; `None` for an opcode this table does not know.
    pub info: Option<&'static OpInfo>,
    /// Operands in token order.
    pub operands: Operands,
    /// Why the tokens do not fit the opcode's layout, when they do not.
    pub malformed: Option<String>,
}

impl Instruction {
    /// The instruction at absolute `offset` with instruction token `token` (its row looked up)
    /// and `operands`, each parameter given the offset of its token in that layout.
    pub fn new(offset: u64, token: u32, operands: Operands) -> Instruction {
        let mut ins = Instruction { offset, token, info: None, operands, malformed: None };
        ins.info = opcodes::lookup(ins.code());
        let mut at = offset + 4;
        for op in &mut ins.operands {
            if let Operand::Dst(p) | Operand::Pred(p) | Operand::Src(p) = op {
                p.offset = at;
            }
            at += 4 * op.token_count() as u64;
        }
        ins
    }

    /// Bits 0–15 of the instruction token.
    pub fn code(&self) -> u16 {
        D3DSI_OPCODE.get(self.token) as u16
    }

    /// The opcode, if known.
    pub fn opcode(&self) -> Option<Opcode> {
        self.info.map(|i| i.opcode)
    }

    /// Bits 16–23 of the instruction token (comparison, texld variant).
    pub fn control(&self) -> u32 {
        D3DSP_OPCODESPECIFICCONTROL.get(self.token)
    }

    /// The comparison of `ifc`, `breakc` and `setp` (bits 16–18, `D3DSHADER_COMPARISON`).
    pub fn comparison(&self) -> u32 {
        D3DSHADER_COMPARISON.get(self.token)
    }

    /// Bit 28: executed under a predicate.
    pub fn is_predicated(&self) -> bool {
        D3DSHADER_INSTRUCTION_PREDICATED.get(self.token) != 0
    }

    /// Bit 30: a ps_1_x co-issued instruction (printed with a `+`).
    pub fn is_coissue(&self) -> bool {
        D3DSI_COISSUE.get(self.token) != 0
    }

    /// The destination parameter.
    pub fn dst(&self) -> Option<&Param> {
        self.operands.iter().find_map(|o| if let Operand::Dst(p) = o { Some(p) } else { None })
    }

    /// The predicate parameter.
    pub fn predicate(&self) -> Option<&Param> {
        self.operands.iter().find_map(|o| if let Operand::Pred(p) = o { Some(p) } else { None })
    }

    /// Source parameters in order.
    pub fn srcs(&self) -> impl Iterator<Item = &Param> {
        self.operands.iter().filter_map(|o| if let Operand::Src(p) = o { Some(p) } else { None })
    }

    /// Literal tokens (`def`, `defi`, `defb`).
    pub fn immediates(&self) -> impl Iterator<Item = u32> + '_ {
        self.operands.iter().filter_map(|o| if let Operand::Imm(v) = o { Some(*v) } else { None })
    }

    /// The tokens after the instruction token, in stream order (address tokens included).
    pub fn tokens(&self) -> impl Iterator<Item = u32> + '_ {
        self.operands.iter().flat_map(|op| {
            let (first, second) = match op {
                Operand::Dst(p) | Operand::Pred(p) | Operand::Src(p) => (p.token, p.rel),
                Operand::Usage(v) | Operand::Imm(v) | Operand::Raw(v) => (*v, None),
            };
            std::iter::once(first).chain(second)
        })
    }

    /// Number of tokens after the instruction token.
    pub fn body_tokens(&self) -> usize {
        self.operands.iter().map(Operand::token_count).sum()
    }

    /// Size in bytes, the instruction token included.
    pub fn byte_len(&self) -> u64 {
        4 * (1 + self.body_tokens() as u64)
    }
}

/// Decode the instruction whose token starts `data`, at absolute offset `offset`, in a program
/// of `version`. Fails where the tokens end early, and in shader model 1 (which has no length
/// field to skip by) on an unknown opcode or tokens that do not fit the opcode's layout.
pub fn decode(data: &[u8], offset: u64, version: Version) -> Result<Instruction> {
    let mut r = Reader::with_base(data, offset, Endian::Little);
    let token = r.u32_at(r.position(), "D3D9 instruction")?;
    let mut ins = Instruction {
        offset,
        token,
        info: opcodes::lookup(D3DSI_OPCODE.get(token) as u16),
        operands: Operands::new(),
        malformed: None,
    };
    decode_into(&mut r, &mut ins, version)?;
    Ok(ins)
}

/// Decode the operands of `ins` (its offset, token and table row set, no operands yet), whose
/// token is at the reader's position, and move past it. [`decode`] and
/// [`Program::parse`](super::Program::parse) both decode with it; the latter where the
/// instruction is kept, as an instruction with its operands inline is large. Always inlined:
/// it is the loop body of [`Program::parse`](super::Program::parse), which is 5% slower
/// (callgrind, `disasm` of the corpus's Direct3D 9 programs) calling it.
#[inline(always)]
pub(super) fn decode_into(r: &mut Reader<'_>, ins: &mut Instruction, version: Version) -> Result<()> {
    let offset = ins.offset;
    let code = ins.code();
    let info = ins.info;
    if version.has_lengths() {
        let len = D3DSI_INSTLENGTH.get(ins.token) as usize;
        let body = body(r, len)?;
        match info {
            None => {
                ins.operands = raw(body);
                ins.malformed = Some(format!("unknown opcode 0x{code:04x}"));
            }
            Some(info) => {
                if let Err(why) = layout(info, ins, body, version, true) {
                    ins.operands = raw(body);
                    ins.malformed = Some(why);
                }
            }
        }
        return Ok(());
    }
    // Shader model 1: no length field; the table's operand counts say how many tokens follow.
    let info = info.ok_or_else(|| {
        Error::invalid(
            offset,
            "D3D9 instruction",
            format!("unknown opcode 0x{code:04x} (shader model 1 has no length field to skip it)"),
        )
    })?;
    let count = match info.form {
        Form::Dcl => 2,
        Form::Def | Form::DefI => 5,
        Form::DefB => 2,
        _ => {
            usize::from(info.dst)
                + usize::from(ins.is_predicated())
                + usize::from(info.srcs.get(version.src_column()).copied().unwrap_or(0))
        }
    };
    let body = body(r, count)?;
    layout(info, ins, body, version, false).map_err(|why| Error::invalid(offset, "D3D9 instruction", why))
}

/// The `len` tokens after the instruction token at the reader's position; the reader moves
/// past them.
fn body<'a>(r: &mut Reader<'a>, len: usize) -> Result<&'a [U32<LittleEndian>]> {
    let all = r.bytes(4 + 4 * len, "D3D9 instruction")?;
    // Whole tokens: the view of `4 * len` bytes cannot fail.
    Ok(<[U32<LittleEndian>]>::ref_from_bytes(all.get(4..).unwrap_or(&[])).unwrap_or(&[]))
}

/// Every token of `body` as [`Operand::Raw`].
fn raw(body: &[U32<LittleEndian>]) -> Operands {
    body.iter().map(|t| Operand::Raw(t.get())).collect()
}

/// Split an instruction body into the operands of `ins` (which has none yet) following the
/// opcode's form. `rel_tokens`: a parameter with bit 13 set is followed by its address token
/// (shader model 2 and later).
fn layout(
    info: &OpInfo,
    ins: &mut Instruction,
    tokens: &[U32<LittleEndian>],
    version: Version,
    rel_tokens: bool,
) -> std::result::Result<(), String> {
    let predicated = ins.is_predicated();
    // Absolute offset of the first token after the instruction token.
    let base = ins.offset + 4;
    let ops = &mut ins.operands;
    let mut body = tokens.iter();
    let next = |body: &mut std::slice::Iter<'_, U32<LittleEndian>>| body.next().map(|t| t.get());
    let param = |body: &mut std::slice::Iter<'_, U32<LittleEndian>>| -> std::result::Result<Param, String> {
        let offset = base + 4 * (tokens.len() - body.len()) as u64;
        let token = next(body).ok_or("too few parameter tokens")?;
        let mut p = Param { token, rel: None, offset };
        if rel_tokens && p.is_relative() {
            p.rel = Some(next(body).ok_or("relative address token missing")?);
        }
        Ok(p)
    };
    match info.form {
        Form::Dcl => {
            ops.push(Operand::Usage(next(&mut body).ok_or("dcl without a usage token")?));
            ops.push(Operand::Dst(param(&mut body)?));
        }
        Form::Def | Form::DefI | Form::DefB => {
            ops.push(Operand::Dst(param(&mut body)?));
            let n = if info.form == Form::DefB { 1 } else { 4 };
            for _ in 0..n {
                ops.push(Operand::Imm(next(&mut body).ok_or("too few literal tokens")?));
            }
        }
        _ => {
            if info.dst > 0 {
                ops.push(Operand::Dst(param(&mut body)?));
            }
            if predicated {
                ops.push(Operand::Pred(param(&mut body)?));
            }
            let mut have = 0usize;
            while !body.as_slice().is_empty() {
                ops.push(Operand::Src(param(&mut body)?));
                have += 1;
            }
            let want = info.srcs.get(version.src_column()).copied().unwrap_or(0);
            if have != usize::from(want) {
                return Err(format!("{} takes {want} source parameters here, found {have}", info.name));
            }
        }
    }
    if !body.as_slice().is_empty() {
        return Err(format!("{} left after the operands", count(body.len(), "token")));
    }
    Ok(())
}
