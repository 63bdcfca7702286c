//! The way back: instructions and operands as owned values ([`Inst`], [`Op`]) that encode to
//! tokens with the same bit fields ([`super::decode::field`]) and the same opcode table
//! ([`super::opcodes`]) the decoder reads. The assembler builds these from text; here they
//! are also built from decoded tokens, so that decode → model → encode can be checked to give
//! the same tokens on every program of the corpus.
//!
//! A model keeps every choice the format leaves open where fxc makes one (the index
//! representation, an extended operand token that says nothing, the long length form of a
//! few declarations), so that a program fxc wrote comes back word for word.
//!
//! ```
//! use shaderscope::isa::sm4::Program;
//! use shaderscope::isa::sm4::encode::Inst;
//!
//! // ps_4_0: mul o0.xyzw, r0.xyzw, -cb0[r1.x + 3].xxxx; ret
//! let words = [
//!     0x0000_0040u32, 14,
//!     0x0b00_0038, 0x0010_20f2, 0, 0x0010_0e46, 0, 0x8620_8006, 1 | (1 << 6), 0, 3, 0x0010_000a, 1,
//!     0x0100_003e,
//! ];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let program = Program::parse(&bytes, 0)?;
//! let mut again = Vec::new();
//! for inst in program.instructions() {
//!     Inst::from_decoded(&inst?)?.encode(&mut again)?;
//! }
//! assert_eq!(again, words[2..]);
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::decode::{Components, Instruction, Modifier, Operand, OperandType, field::*, operand_type};
use super::opcodes::{self, Format};
use crate::error::{Error, Result};

/// One operand, owned: what its tokens say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    /// Register file (`D3D10_SB_OPERAND_TYPE`).
    pub ty: OperandType,
    /// Component count and selection.
    pub components: Components,
    /// Whether an extended operand token (`D3D10_SB_EXTENDED_OPERAND_MODIFIER`) follows the
    /// operand token. fxc writes one whenever the modifier, precision or non-uniform flag is
    /// set, and sometimes with none of them set.
    pub extended: bool,
    /// Source modifier.
    pub modifier: Modifier,
    /// Minimum precision (`D3D11_SB_OPERAND_MIN_PRECISION`), 0 = default.
    pub min_precision: u8,
    /// `D3D12_SB_OPERAND_NON_UNIFORM`.
    pub non_uniform: bool,
    /// The indices, at most three.
    pub indices: Vec<Idx>,
    /// Immediate values (`l(…)`: 1 or 4 DWORDs; `d(…)`: 2 or 4, low word first).
    pub imm: Vec<u32>,
}

/// One index of an operand, in one of the format's five representations
/// (`D3D10_SB_OPERAND_INDEX_REPRESENTATION`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Idx {
    /// `D3D10_SB_OPERAND_INDEX_IMMEDIATE32`: `r3`.
    Imm32(u32),
    /// `D3D10_SB_OPERAND_INDEX_IMMEDIATE64` (high word first in the tokens).
    Imm64(u64),
    /// `D3D10_SB_OPERAND_INDEX_RELATIVE`: `x0[r1.x]`.
    Relative(Box<Op>),
    /// `D3D10_SB_OPERAND_INDEX_IMMEDIATE32_PLUS_RELATIVE`: `cb0[r1.x + 3]`.
    Imm32Relative(u32, Box<Op>),
    /// `D3D10_SB_OPERAND_INDEX_IMMEDIATE64_PLUS_RELATIVE`.
    Imm64Relative(u64, Box<Op>),
}

impl Idx {
    /// The representation number.
    fn representation(&self) -> u32 {
        match self {
            Idx::Imm32(_) => 0,
            Idx::Imm64(_) => 1,
            Idx::Relative(_) => 2,
            Idx::Imm32Relative(..) => 3,
            Idx::Imm64Relative(..) => 4,
        }
    }
}

/// Deepest relative-address nesting encoded (the decoder accepts 4 levels; fxc writes 1).
const MAX_DEPTH: u8 = 4;

impl Op {
    /// A register with immediate 32-bit indices and the given components (`r0.xyzw` is
    /// `Op::register(operand_type::TEMP, &[0], Components::Mask(0xf))`).
    pub fn register(ty: OperandType, indices: &[u32], components: Components) -> Op {
        Op {
            ty,
            components,
            extended: false,
            modifier: Modifier::None,
            min_precision: 0,
            non_uniform: false,
            indices: indices.iter().map(|&i| Idx::Imm32(i)).collect(),
            imm: Vec::new(),
        }
    }

    /// The operand a decoder read, with its nested relative operands.
    pub fn from_decoded(o: &Operand<'_>) -> Result<Op> {
        let tok0 = o.token0();
        let reps = OPERAND_INDEX_REPRESENTATION.map(|f| f.get(tok0));
        let mut indices = Vec::with_capacity(usize::from(o.index_dim));
        for (i, rep) in reps.iter().enumerate().take(usize::from(o.index_dim)) {
            let Some(index) = o.index(i) else { break };
            let rel = match index.rel {
                Some(r) => Some(Box::new(Op::from_decoded(&r.decode()?)?)),
                None => None,
            };
            indices.push(match (rep, rel) {
                (0, None) => Idx::Imm32(index.imm as u32),
                (1, None) => Idx::Imm64(index.imm),
                (2, Some(r)) => Idx::Relative(r),
                (3, Some(r)) => Idx::Imm32Relative(index.imm as u32, r),
                (4, Some(r)) => Idx::Imm64Relative(index.imm, r),
                _ => {
                    return Err(Error::invalid(
                        o.offset,
                        "SM4 operand",
                        format!("index representation {rep}"),
                    ));
                }
            });
        }
        let op = Op {
            ty: o.ty,
            components: o.components,
            extended: OPERAND_EXTENDED.get(tok0) != 0,
            modifier: o.modifier,
            min_precision: o.min_precision,
            non_uniform: o.non_uniform,
            indices,
            imm: o.imm.get(..usize::from(o.imm_len)).unwrap_or(&[]).to_vec(),
        };
        // Bits no field of the model holds (a selection the component count ignores, index
        // representations past the dimension, an extended token of another type or a chain of
        // them) would not come back: such an operand is refused, not rebuilt differently.
        let header = op.header();
        if !o.header().iter().map(|t| t.get()).eq(header.iter().flatten().copied()) {
            return Err(Error::invalid(o.offset, "SM4 operand", "bits the encoder does not model"));
        }
        Ok(op)
    }

    /// The operand token and, when one is needed, the extended operand token.
    fn header(&self) -> [Option<u32>; 2] {
        let extended =
            self.extended || self.modifier != Modifier::None || self.min_precision != 0 || self.non_uniform;
        let mut tok0 = OPERAND_TYPE.put(u32::from(self.ty))
            | OPERAND_INDEX_DIMENSION.put(self.indices.len() as u32)
            | OPERAND_EXTENDED.put(u32::from(extended))
            | components_bits(self.components);
        for (f, idx) in OPERAND_INDEX_REPRESENTATION.iter().zip(&self.indices) {
            tok0 |= f.put(idx.representation());
        }
        let modifier = match self.modifier {
            Modifier::None => 0,
            Modifier::Neg => 1,
            Modifier::Abs => 2,
            Modifier::AbsNeg => 3,
        };
        let ext = extended.then(|| {
            EXTENDED_OPERAND_TYPE.put(1u32)
                | OPERAND_MODIFIER.put(modifier)
                | OPERAND_MIN_PRECISION.put(u32::from(self.min_precision))
                | OPERAND_NON_UNIFORM.put(u32::from(self.non_uniform))
        });
        [Some(tok0), ext]
    }

    /// Append the operand's tokens to `out`.
    pub fn encode(&self, out: &mut Vec<u32>) -> Result<()> {
        self.encode_at(out, 0)
    }

    fn encode_at(&self, out: &mut Vec<u32>, depth: u8) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::invalid(0, "SM4 operand", "relative addressing nested too deeply"));
        }
        if self.indices.len() > 3 {
            return Err(Error::invalid(
                0,
                "SM4 operand",
                format!("{} indices (at most 3)", self.indices.len()),
            ));
        }
        out.extend(self.header().into_iter().flatten());
        if self.ty == operand_type::IMMEDIATE32 || self.ty == operand_type::IMMEDIATE64 {
            out.extend_from_slice(&self.imm);
        }
        for idx in &self.indices {
            let (imm, rel) = match idx {
                Idx::Imm32(v) => (Some(u64::from(*v)), None),
                Idx::Imm64(v) => (Some(*v), None),
                Idx::Relative(r) => (None, Some(r)),
                Idx::Imm32Relative(v, r) => (Some(u64::from(*v)), Some(r)),
                Idx::Imm64Relative(v, r) => (Some(*v), Some(r)),
            };
            match (idx, imm) {
                (Idx::Imm64(_) | Idx::Imm64Relative(..), Some(v)) => {
                    out.push((v >> 32) as u32);
                    out.push(v as u32);
                }
                (_, Some(v)) => out.push(v as u32),
                (_, None) => {}
            }
            if let Some(r) = rel {
                r.encode_at(out, depth + 1)?;
            }
        }
        Ok(())
    }
}

/// The operand token's component bits (count, selection mode, mask/swizzle/select).
fn components_bits(c: Components) -> u32 {
    match c {
        Components::Zero => OPERAND_NUM_COMPONENTS.put(0u32),
        Components::One => OPERAND_NUM_COMPONENTS.put(1u32),
        Components::N => OPERAND_NUM_COMPONENTS.put(3u32),
        Components::Mask(m) => {
            OPERAND_NUM_COMPONENTS.put(2u32)
                | OPERAND_4_COMPONENT_SELECTION_MODE.put(0u32)
                | OPERAND_4_COMPONENT_MASK.put(u32::from(m))
        }
        Components::Swizzle(s) => {
            let bits = s.iter().rev().fold(0u32, |acc, &c| (acc << 2) | u32::from(c & 3));
            OPERAND_NUM_COMPONENTS.put(2u32)
                | OPERAND_4_COMPONENT_SELECTION_MODE.put(1u32)
                | OPERAND_4_COMPONENT_SWIZZLE.put(bits)
        }
        Components::Select(c) => {
            OPERAND_NUM_COMPONENTS.put(2u32)
                | OPERAND_4_COMPONENT_SELECTION_MODE.put(2u32)
                | OPERAND_4_COMPONENT_SELECT_1.put(u32::from(c))
        }
    }
}

/// An extended opcode token (`D3D10_SB_EXTENDED_OPCODE_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtOpcode {
    /// `D3D10_SB_EXTENDED_OPCODE_SAMPLE_CONTROLS`: immediate texel offsets u, v, w
    /// (`(1,-2,0)` after `sample_aoffimmi`).
    SampleControls([i8; 3]),
    /// `D3D11_SB_EXTENDED_OPCODE_RESOURCE_DIM`: resource dimension and structure stride.
    ResourceDim(u8, u16),
    /// `D3D11_SB_EXTENDED_OPCODE_RESOURCE_RETURN_TYPE` of x, y, z and w.
    ReturnType([u8; 4]),
    /// Any other extended opcode token, as it was (its chaining bit aside).
    Other(u32),
}

impl ExtOpcode {
    fn from_token(t: u32) -> ExtOpcode {
        let known = match EXTENDED_OPCODE_TYPE.get(t) {
            1 => ExtOpcode::SampleControls(IMMEDIATE_ADDRESS_OFFSET.map(|f| ((f.get(t) as i8) << 4) >> 4)),
            2 => ExtOpcode::ResourceDim(
                EXTENDED_RESOURCE_DIMENSION.get(t) as u8,
                EXTENDED_RESOURCE_DIMENSION_STRUCTURE_STRIDE.get(t) as u16,
            ),
            3 => ExtOpcode::ReturnType(EXTENDED_RESOURCE_RETURN_TYPE.map(|f| f.get(t) as u8)),
            _ => return ExtOpcode::Other(t & !OPCODE_DOUBLE_EXTENDED.mask::<u32>()),
        };
        // Bits the fields above do not cover keep the token as it was.
        if known.token() == t & !OPCODE_DOUBLE_EXTENDED.mask::<u32>() {
            known
        } else {
            ExtOpcode::Other(t & !OPCODE_DOUBLE_EXTENDED.mask::<u32>())
        }
    }

    /// The token, without its chaining bit.
    fn token(self) -> u32 {
        match self {
            ExtOpcode::SampleControls(o) => IMMEDIATE_ADDRESS_OFFSET
                .iter()
                .zip(o)
                .fold(EXTENDED_OPCODE_TYPE.put(1u32), |t, (f, v)| t | f.put(u32::from(v as u8 & 0xf))),
            ExtOpcode::ResourceDim(dim, stride) => {
                EXTENDED_OPCODE_TYPE.put(2u32)
                    | EXTENDED_RESOURCE_DIMENSION.put(u32::from(dim))
                    | EXTENDED_RESOURCE_DIMENSION_STRUCTURE_STRIDE.put(u32::from(stride))
            }
            ExtOpcode::ReturnType(r) => EXTENDED_RESOURCE_RETURN_TYPE
                .iter()
                .zip(r)
                .fold(EXTENDED_OPCODE_TYPE.put(3u32), |t, (f, v)| t | f.put(u32::from(v))),
            ExtOpcode::Other(t) => t & !OPCODE_DOUBLE_EXTENDED.mask::<u32>(),
        }
    }
}

/// A part of an instruction's body after its opcode token(s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// An operand.
    Op(Op),
    /// A DWORD that is not an operand: a declaration's count or size, the function index of
    /// `fcall`, custom data, fxc's zero DWORD after some operand lists.
    Word(u32),
}

/// One instruction or declaration, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inst {
    /// The opcode number (`D3D10_SB_OPCODE_TYPE`).
    pub opcode: u16,
    /// The opcode-specific control bits 11–23 (`_sat`, `_nz`, precise mask, resource
    /// dimension of a declaration, …); for custom data, its class (bits 11–31).
    pub controls: u32,
    /// The extended opcode tokens, in order.
    pub extended: Vec<ExtOpcode>,
    /// Whether the length is in a DWORD of its own after the opcode token (the declarations
    /// whose length may not fit in 7 bits: function bodies and tables, interfaces, `fcall`,
    /// thread groups). [`Inst::encode`] uses that form anyway when the length needs it.
    pub long_length: bool,
    /// What follows.
    pub body: Vec<Part>,
}

impl Inst {
    /// The instruction a decoder read.
    pub fn from_decoded(inst: &Instruction<'_>) -> Result<Inst> {
        let custom = inst.custom_data_class();
        let long_length = custom.is_none() && inst.has_length_token();
        if long_length && TOKENIZED_INSTRUCTION_LENGTH.get(inst.token0()) != 0 {
            // The 7-bit length beside a length token: no field of the model holds it.
            return Err(Error::invalid(
                inst.offset,
                "SM4 instruction",
                "a 7-bit length beside the length token",
            ));
        }
        let extended = inst.extended_tokens().map(ExtOpcode::from_token).collect();
        let words =
            |t: &[zerocopy::little_endian::U32]| t.iter().map(|w| Part::Word(w.get())).collect::<Vec<_>>();
        let body = match inst.info.map(|i| i.format) {
            Some(Format::Inst | Format::InterfaceCall) => {
                let mut body = Vec::new();
                if inst.info.is_some_and(|i| i.format == Format::InterfaceCall) {
                    body.push(Part::Word(inst.body_token(0, "function index")?));
                }
                let mut ops = inst.operands();
                for o in ops.by_ref() {
                    body.push(Part::Op(Op::from_decoded(&o?)?));
                }
                body.extend(words(ops.remaining()));
                body
            }
            Some(Format::Decl(_)) if inst.info.is_some_and(|i| i.declares_register()) => {
                let first = inst.first_operand()?;
                let mut body = vec![Part::Op(Op::from_decoded(&first)?)];
                body.extend(words(inst.body().get(first.len()..).unwrap_or(&[])));
                body
            }
            _ => words(inst.body()),
        };
        Ok(Inst {
            opcode: inst.opcode,
            controls: custom.unwrap_or_else(|| inst.controls()),
            extended,
            long_length,
            body,
        })
    }

    /// Append the instruction's tokens to `out`.
    pub fn encode(&self, out: &mut Vec<u32>) -> Result<()> {
        let start = out.len();
        let custom = self.opcode == opcodes::CUSTOMDATA;
        // Placeholders for the opcode token and (custom data, long form) the length token.
        out.push(0);
        if custom || self.long_length {
            out.push(0);
        }
        if !custom {
            for (k, e) in self.extended.iter().enumerate() {
                let more = k + 1 < self.extended.len();
                out.push(e.token() | OPCODE_DOUBLE_EXTENDED.put(u32::from(more)));
            }
        }
        for part in &self.body {
            match part {
                Part::Op(o) => o.encode(out)?,
                Part::Word(w) => out.push(*w),
            }
        }
        let len = (out.len() - start) as u32;
        let mut tok0 = OPCODE_TYPE.put(u32::from(self.opcode));
        if custom {
            tok0 |= CUSTOMDATA_CLASS.put(self.controls);
        } else {
            tok0 |= OPCODE_SPECIFIC_CONTROL.put(self.controls);
            let extended = self.long_length || !self.extended.is_empty();
            tok0 |= OPCODE_EXTENDED.put(u32::from(extended));
            if !self.long_length {
                if len > TOKENIZED_INSTRUCTION_LENGTH.get(u32::MAX) && super::decode::long_form(self.opcode) {
                    // Too long for 7 bits: the length goes in a DWORD of its own.
                    out.truncate(start);
                    return Inst { long_length: true, ..self.clone() }.encode(out);
                }
                if len > TOKENIZED_INSTRUCTION_LENGTH.get(u32::MAX) {
                    out.truncate(start);
                    return Err(Error::invalid(
                        0,
                        "SM4 instruction length",
                        format!("{len} DWORDs do not fit the 7-bit length of opcode {}", self.opcode),
                    ));
                }
                tok0 |= TOKENIZED_INSTRUCTION_LENGTH.put(len);
            }
        }
        if let Some(t) = out.get_mut(start) {
            *t = tok0;
        }
        if custom || self.long_length {
            if let Some(t) = out.get_mut(start + 1) {
                *t = len;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::sm4::Program;

    /// Operand bits the model has no field for are refused, not dropped: a swizzle in the
    /// token of a one-component operand, an extended token of another type.
    #[test]
    fn bits_the_model_does_not_keep_are_refused() {
        let program = |body: &[u32]| -> Vec<u8> {
            let len = body.len() as u32 + 2;
            [0x40, len].iter().chain(body).flat_map(|w| w.to_le_bytes()).collect()
        };
        // `continuec_nz r1.x` as fxc writes it, then with swizzle bits in a select-1 operand,
        // then with an extended operand token of type 2.
        for (body, ok) in [
            // `dcl_function_body fb0` in the long-length form, then with a 7-bit length as well
            // (the encode_decode_sm4 fuzz target found it).
            (&[0x8000_0090u32, 3, 0][..], true),
            (&[0xa700_0090, 3, 0], false),
            (&[0x0304_0008u32, 0x0010_000a, 1][..], true),
            (&[0x0304_0008, 0x0010_0f0a, 1], false),
            (&[0x0404_0008, 0x8010_000a, 2, 1], false),
        ] {
            let bytes = program(body);
            let p = Program::parse(&bytes, 0).unwrap();
            let inst = p.instructions().next().unwrap().unwrap();
            assert_eq!(Inst::from_decoded(&inst).is_ok(), ok, "{body:08x?}");
        }
    }
}
