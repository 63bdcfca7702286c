//! Token decoding: the program header, instructions (with extended opcode tokens) and operands
//! (with extended operand tokens, immediate and relative indices), straight from the bytes.
//!
//! Nothing here allocates: an [`Instruction`] borrows its tokens, its operands are decoded on
//! demand by [`Instruction::operands`], and a relative index keeps the tokens of its nested
//! operand so that it can be decoded again when printed.
//!
//! ```
//! use shaderscope::isa::sm4::{Components, Program, operand_type};
//!
//! let words = [
//!     0x0000_0040u32, 13, // ps_4_0, 13 DWORDs
//!     0x0a00_0038,     // mul (opcode 0x38), 10 DWORDs:
//!     0x0010_20f2, 0,  //   o0.xyzw: output register file, mask mode, index 0
//!     0x0010_0e46, 0,  //   r0.xyzw: temp register file, swizzle mode
//!     0x0620_8006, 0, 3, 0x0010_000a, 1, // cb0[r1.x + 3].xxxx: index 1 = 3 plus an operand
//!     0x0100_003e,     // ret
//! ];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let program = Program::parse(&bytes, 0x100)?;
//! assert_eq!((program.version_name().as_str(), program.byte_len()), ("ps_4_0", 52));
//!
//! let instructions = program.instructions().collect::<Result<Vec<_>, _>>()?;
//! let mul = &instructions[0];
//! assert_eq!((mul.offset, mul.opcode, mul.mnemonic(), mul.len_dwords()), (0x108, 0x38, Some("mul"), 10));
//! assert_eq!((instructions[1].offset, instructions[1].mnemonic()), (0x130, Some("ret")));
//!
//! let [o0, r0, cb] = mul.operands().collect::<Result<Vec<_>, _>>()?[..] else { unreachable!() };
//! assert_eq!((o0.offset, o0.ty, o0.components), (0x10c, operand_type::OUTPUT, Components::Mask(0b1111)));
//! assert_eq!((r0.ty, r0.imm_index(0)), (operand_type::TEMP, Some(0)));
//! assert_eq!(r0.components, Components::Swizzle([0, 1, 2, 3]));
//! assert_eq!((cb.ty, cb.index_dim, cb.imm_index(0)), (operand_type::CONSTANT_BUFFER, 2, Some(0)));
//! assert!(cb.is_relative(1));
//! // The relative part of cb0's second index is an operand of its own, decoded on demand.
//! let index = cb.index(1).unwrap();
//! let r1 = index.rel.unwrap().decode()?;
//! assert_eq!((index.imm, r1.offset, r1.ty, r1.imm_index(0)), (3, 0x128, operand_type::TEMP, Some(1)));
//! assert_eq!(r1.components, Components::Select(0));
//!
//! // A program shorter than its length token is an error at its offset.
//! assert_eq!(
//!     Program::parse(&bytes[..40], 0x100).unwrap_err().to_string(),
//!     "truncated SM4 program at offset 0x100 (need 52 bytes, have 40)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::opcodes::{self, Format, OpInfo};
use crate::error::{Error, Result};
use crate::model::Stage;
use crate::print::count;
use crate::toolkit::Field;
use zerocopy::FromBytes;
use zerocopy::little_endian::U32;

/// A little-endian token slice, read without copying and without alignment requirements.
pub(crate) type Tokens<'a> = &'a [U32];

/// Token `i` of `t`, or `None` past the end.
#[inline]
pub(crate) fn tok(t: Tokens<'_>, i: usize) -> Option<u32> {
    t.get(i).map(|v| v.get())
}

/// The bytes of `data` as tokens (a trailing partial token is ignored).
pub(crate) fn tokens(data: &[u8]) -> Tokens<'_> {
    let whole = data.len() / 4 * 4;
    let bytes = data.get(..whole).unwrap_or(&[]);
    <[U32]>::ref_from_bytes(bytes).unwrap_or(&[])
}

/// Deepest relative-address nesting accepted (`cb0[x0[r0.x + 0].y + 2]` is depth 2). fxc never
/// nests deeper than one level; the limit keeps hostile input from recursing without end, and
/// the assembler reads no deeper (`asm::parse_instruction`).
pub(crate) const MAX_REL_DEPTH: u8 = 4;

/// The bit fields of the tokens, named after `d3d11TokenizedProgramFormat.hpp` (the
/// `D3D10_SB_…_MASK`/`_SHIFT` pairs, without the `D3D1x_SB_` prefix).
///
/// ```
/// use shaderscope::isa::sm4::decode::field;
///
/// // The opcode token of `if_nz` (3 DWORDs) and the operand token of `cb0[3].x`.
/// let (opcode, operand) = (0x0304_001fu32, 0x0020_800au32);
/// assert_eq!(field::OPCODE_TYPE.get(opcode), 0x1f);
/// assert_eq!(field::TOKENIZED_INSTRUCTION_LENGTH.get(opcode), 3);
/// assert_eq!(field::INSTRUCTION_TEST_BOOLEAN.get(opcode), 1);
/// assert_eq!(field::OPERAND_TYPE.get(operand), 8); // constant buffer
/// assert_eq!(field::OPERAND_INDEX_DIMENSION.get(operand), 2); // cb0[3]
/// assert_eq!(field::OPERAND_4_COMPONENT_SELECT_1.get(operand), 0); // .x
/// // And back: the operand token of `r1.y` (temp, one index, select-1 mode, component 1).
/// let r1_y = field::OPERAND_TYPE.put(0u32)
///     | field::OPERAND_INDEX_DIMENSION.put(1)
///     | field::OPERAND_NUM_COMPONENTS.put(2)
///     | field::OPERAND_4_COMPONENT_SELECTION_MODE.put(2)
///     | field::OPERAND_4_COMPONENT_SELECT_1.put(1);
/// assert_eq!(r1_y, 0x0010_001a);
/// ```
pub mod field {
    use crate::toolkit::Field;

    // The version token.
    /// `D3D10_SB_TOKENIZED_PROGRAM_MINOR_VERSION`.
    pub const PROGRAM_MINOR_VERSION: Field = Field::at(0, 4);
    /// `D3D10_SB_TOKENIZED_PROGRAM_MAJOR_VERSION`.
    pub const PROGRAM_MAJOR_VERSION: Field = Field::at(4, 4);
    /// `D3D10_SB_TOKENIZED_PROGRAM_TYPE` (a `D3D10_SB_TOKENIZED_PROGRAM_TYPE` value).
    pub const PROGRAM_TYPE: Field = Field::at(16, 16);

    // The opcode token.
    /// `D3D10_SB_OPCODE_TYPE`: the opcode number.
    pub const OPCODE_TYPE: Field = Field::at(0, 11);
    /// `D3D10_SB_OPCODE_SPECIFIC_CONTROL`: bits 11–23, whose meaning depends on the opcode.
    pub const OPCODE_SPECIFIC_CONTROL: Field = Field::at(11, 13);
    /// `D3D10_SB_RESINFO_INSTRUCTION_RETURN_TYPE` (and `sampleinfo`'s).
    pub const RESINFO_INSTRUCTION_RETURN_TYPE: Field = Field::at(11, 2);
    /// `D3D10_SB_INSTRUCTION_SATURATE`: `_sat`.
    pub const INSTRUCTION_SATURATE: Field = Field::at(13, 1);
    /// `D3D10_SB_INSTRUCTION_TEST_BOOLEAN`: `_nz` (1) or `_z` (0).
    pub const INSTRUCTION_TEST_BOOLEAN: Field = Field::at(18, 1);
    /// `D3D11_SB_INSTRUCTION_PRECISE_VALUES`: one bit per destination component.
    pub const INSTRUCTION_PRECISE_VALUES: Field = Field::at(19, 4);
    /// `D3D10_SB_TOKENIZED_INSTRUCTION_LENGTH`: DWORDs of the instruction.
    pub const TOKENIZED_INSTRUCTION_LENGTH: Field = Field::at(24, 7);
    /// `D3D10_SB_OPCODE_EXTENDED`: an extended opcode token follows (for the interface and
    /// thread-group declarations whose length may not fit in 7 bits: a length token follows).
    pub const OPCODE_EXTENDED: Field = Field::at(31, 1);
    /// `D3D10_SB_CUSTOMDATA_CLASS` of a custom-data block.
    pub const CUSTOMDATA_CLASS: Field = Field::at(11, 21);

    // Extended opcode tokens.
    /// `D3D10_SB_EXTENDED_OPCODE_TYPE`.
    pub const EXTENDED_OPCODE_TYPE: Field = Field::at(0, 6);
    /// `D3D10_SB_IMMEDIATE_ADDRESS_OFFSET` u, v and w (signed 4-bit texel offsets).
    pub const IMMEDIATE_ADDRESS_OFFSET: [Field; 3] = [Field::at(9, 4), Field::at(13, 4), Field::at(17, 4)];
    /// `D3D11_SB_EXTENDED_RESOURCE_DIMENSION`.
    pub const EXTENDED_RESOURCE_DIMENSION: Field = Field::at(6, 5);
    /// `D3D11_SB_EXTENDED_RESOURCE_DIMENSION_STRUCTURE_STRIDE`.
    pub const EXTENDED_RESOURCE_DIMENSION_STRUCTURE_STRIDE: Field = Field::at(11, 12);
    /// `D3D11_SB_EXTENDED_RESOURCE_RETURN_TYPE` of x, y, z and w.
    pub const EXTENDED_RESOURCE_RETURN_TYPE: [Field; 4] =
        [Field::at(6, 4), Field::at(10, 4), Field::at(14, 4), Field::at(18, 4)];
    /// `D3D10_SB_OPCODE_DOUBLE_EXTENDED`: another extended opcode token follows.
    pub const OPCODE_DOUBLE_EXTENDED: Field = Field::at(31, 1);

    // The operand token.
    /// `D3D10_SB_OPERAND_NUM_COMPONENTS`.
    pub const OPERAND_NUM_COMPONENTS: Field = Field::at(0, 2);
    /// `D3D10_SB_OPERAND_4_COMPONENT_SELECTION_MODE`: mask, swizzle or select-1.
    pub const OPERAND_4_COMPONENT_SELECTION_MODE: Field = Field::at(2, 2);
    /// `D3D10_SB_OPERAND_4_COMPONENT_MASK`.
    pub const OPERAND_4_COMPONENT_MASK: Field = Field::at(4, 4);
    /// `D3D10_SB_OPERAND_4_COMPONENT_SWIZZLE`: two bits per component, x first.
    pub const OPERAND_4_COMPONENT_SWIZZLE: Field = Field::at(4, 8);
    /// `D3D10_SB_OPERAND_4_COMPONENT_SELECT_1`.
    pub const OPERAND_4_COMPONENT_SELECT_1: Field = Field::at(4, 2);
    /// `D3D10_SB_OPERAND_TYPE`: the register file.
    pub const OPERAND_TYPE: Field = Field::at(12, 8);
    /// `D3D10_SB_OPERAND_INDEX_DIMENSION`: 0–3 indices.
    pub const OPERAND_INDEX_DIMENSION: Field = Field::at(20, 2);
    /// `D3D10_SB_OPERAND_INDEX_REPRESENTATION` of the first, second and third index.
    pub const OPERAND_INDEX_REPRESENTATION: [Field; 3] =
        [Field::at(22, 3), Field::at(25, 3), Field::at(28, 3)];
    /// `D3D10_SB_OPERAND_EXTENDED`: an extended operand token follows.
    pub const OPERAND_EXTENDED: Field = Field::at(31, 1);

    // Extended operand tokens.
    /// `D3D10_SB_EXTENDED_OPERAND_TYPE`.
    pub const EXTENDED_OPERAND_TYPE: Field = Field::at(0, 6);
    /// `D3D10_SB_OPERAND_MODIFIER`: none, `-`, `|…|`, `-|…|`.
    pub const OPERAND_MODIFIER: Field = Field::at(6, 8);
    /// `D3D11_SB_OPERAND_MIN_PRECISION`.
    pub const OPERAND_MIN_PRECISION: Field = Field::at(14, 3);
    /// `D3D12_SB_OPERAND_NON_UNIFORM`.
    pub const OPERAND_NON_UNIFORM: Field = Field::at(17, 1);
    /// `D3D10_SB_OPERAND_DOUBLE_EXTENDED`: another extended operand token follows.
    pub const OPERAND_DOUBLE_EXTENDED: Field = Field::at(31, 1);
}

use field::*;

/// Whether the one-bit field `f` is set in `token`.
#[inline]
fn is_set(f: Field, token: u32) -> bool {
    f.get(token) != 0
}

/// A decoded SHDR/SHEX program: the version and length tokens and a view of the instruction
/// stream. Parsing only checks the header; instructions are decoded lazily by
/// [`Program::instructions`].
#[derive(Debug, Clone, Copy)]
pub struct Program<'a> {
    tokens: Tokens<'a>,
    base: u64,
    /// The stage, from the program type of the version token.
    pub stage: Stage,
    /// Major shader model (4 or 5).
    pub major: u8,
    /// Minor shader model (0 or 1).
    pub minor: u8,
    /// The length token: DWORDs in the program including the version and length tokens.
    pub declared_len: u32,
}

impl<'a> Program<'a> {
    /// Parse the data of an SHDR/SHEX chunk whose first byte is at absolute offset `base`.
    ///
    /// The model comes from the version token, never from the chunk tag (fxc puts SM4.0
    /// compute shaders in SHEX, and some SM5.0 programs sit in SHDR); a program type the
    /// format does not define is an error at the version token. The instruction stream ends
    /// at the length token; bytes after it (padding) are ignored.
    pub fn parse(data: &'a [u8], base: u64) -> Result<Program<'a>> {
        let all = tokens(data);
        let (Some(version), Some(len)) = (tok(all, 0), tok(all, 1)) else {
            return Err(Error::truncated(base, "SM4 program header", 8, data.len() as u64));
        };
        if len < 2 {
            return Err(Error::invalid(
                base + 4,
                "SM4 program length token",
                format!("{} is shorter than the 2-DWORD header", count(len, "DWORD")),
            ));
        }
        let program_type = PROGRAM_TYPE.get(version);
        let Some(stage) = Stage::from_sm4(program_type) else {
            return Err(Error::invalid(
                base,
                "SM4 version token",
                format!("program type {program_type} is not one the format defines"),
            ));
        };
        let Some(tokens) = all.get(..len as usize) else {
            return Err(Error::truncated(base, "SM4 program", u64::from(len) * 4, data.len() as u64));
        };
        Ok(Program {
            tokens,
            base,
            stage,
            major: PROGRAM_MAJOR_VERSION.get(version) as u8,
            minor: PROGRAM_MINOR_VERSION.get(version) as u8,
            declared_len: len,
        })
    }

    /// Absolute offset of the version token.
    #[inline]
    pub fn base(&self) -> u64 {
        self.base
    }

    /// The version token as stored.
    pub fn version_token(&self) -> u32 {
        tok(self.tokens, 0).unwrap_or(0)
    }

    /// Whether the model is 5.1 or later (register ranges and spaces in declarations).
    #[inline]
    pub fn is_sm51(&self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }

    /// Whether the model is 5.0 or later.
    pub fn is_sm5(&self) -> bool {
        self.major >= 5
    }

    /// The version line fxc prints, e.g. `ps_5_0`.
    pub fn version_name(&self) -> String {
        format!("{}_{}_{}", self.stage.prefix(), self.major, self.minor)
    }

    /// Size of the program in bytes (from the length token).
    pub fn byte_len(&self) -> u64 {
        u64::from(self.declared_len) * 4
    }

    /// The instructions in order, each with its absolute byte offset.
    #[inline]
    pub fn instructions(&self) -> Instructions<'a> {
        Instructions { tokens: self.tokens, pos: 2, base: self.base, done: false }
    }
}

/// Iterator over the instructions of a [`Program`]. After an error it stops.
#[derive(Debug, Clone)]
pub struct Instructions<'a> {
    tokens: Tokens<'a>,
    pos: usize,
    base: u64,
    done: bool,
}

impl<'a> Iterator for Instructions<'a> {
    type Item = Result<Instruction<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.pos >= self.tokens.len() {
            return None;
        }
        let rest = self.tokens.get(self.pos..).unwrap_or(&[]);
        let offset = self.base + self.pos as u64 * 4;
        match Instruction::decode(rest, offset) {
            Ok(inst) => {
                self.pos += inst.tokens.len();
                Some(Ok(inst))
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Extended opcode tokens of an instruction (`D3D10_SB_EXTENDED_OPCODE_*`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extended {
    /// `D3D10_SB_EXTENDED_OPCODE_SAMPLE_CONTROLS`: immediate texel offsets u, v, w.
    pub offsets: Option<[i8; 3]>,
    /// `D3D11_SB_EXTENDED_OPCODE_RESOURCE_DIM`: resource dimension and structure stride.
    pub resource_dim: Option<(u8, u16)>,
    /// `D3D11_SB_EXTENDED_OPCODE_RESOURCE_RETURN_TYPE`: return type of x, y, z, w.
    pub return_type: Option<[u8; 4]>,
}

/// One decoded instruction or declaration.
#[derive(Debug, Clone, Copy)]
pub struct Instruction<'a> {
    /// Absolute byte offset of the opcode token.
    pub offset: u64,
    /// Every token of the instruction, the opcode token first.
    pub tokens: Tokens<'a>,
    /// Opcode number (bits 0–10).
    pub opcode: u16,
    /// The opcode's table row, `None` when the number is not defined by the format.
    pub info: Option<&'static OpInfo>,
    /// Index of the first token after the opcode token(s).
    body: usize,
}

impl<'a> Instruction<'a> {
    /// Decode the instruction at the start of `t` (whose first token is at absolute `offset`).
    /// Only the length and the extended opcode tokens are read here.
    #[inline]
    pub fn decode(t: Tokens<'a>, offset: u64) -> Result<Instruction<'a>> {
        let op0 = tok(t, 0).ok_or_else(|| Error::truncated(offset, "SM4 instruction", 4, 0))?;
        let opcode = OPCODE_TYPE.get(op0) as u16;
        let info = opcodes::info(opcode);
        let have = t.len() as u64 * 4;
        // Length: custom data keeps it in the second token; a few declarations may move it
        // there when it does not fit in 7 bits (bit 31 then means "length follows").
        let (len, mut body) = if opcode == opcodes::CUSTOMDATA {
            let len = tok(t, 1).ok_or_else(|| Error::truncated(offset, "custom data length", 8, have))?;
            (len as usize, 2)
        } else {
            let len = TOKENIZED_INSTRUCTION_LENGTH.get(op0) as usize;
            if is_set(OPCODE_EXTENDED, op0) && long_form(opcode) {
                let len = tok(t, 1).ok_or_else(|| Error::truncated(offset, "instruction length", 8, have))?;
                (len as usize, 2)
            } else {
                (len, 1)
            }
        };
        if len < body {
            return Err(Error::invalid(
                offset,
                "SM4 instruction length",
                format!("opcode {opcode} says {}, fewer than its own header", count(len, "DWORD")),
            ));
        }
        let Some(tokens) = t.get(..len) else {
            return Err(Error::truncated(offset, "SM4 instruction", len as u64 * 4, have));
        };
        let is_custom = opcode == opcodes::CUSTOMDATA;
        if !is_custom && body == 1 && is_set(OPCODE_EXTENDED, op0) {
            // Any number of extended opcode tokens can be chained (bit 31 of each).
            loop {
                let Some(ext) = tok(tokens, body) else {
                    return Err(Error::truncated(offset + body as u64 * 4, "extended opcode token", 4, 0));
                };
                body += 1;
                if !is_set(OPCODE_DOUBLE_EXTENDED, ext) {
                    break;
                }
            }
        }
        Ok(Instruction { offset, tokens, opcode, info, body })
    }

    /// The extended opcode tokens (`D3D10_SB_EXTENDED_OPCODE_*`), decoded.
    #[inline]
    pub fn extended(&self) -> Extended {
        let mut extended = Extended::default();
        if !self.has_extended() {
            return extended;
        }
        for ext in self.tokens.get(1..self.body).unwrap_or(&[]) {
            let ext = ext.get();
            match EXTENDED_OPCODE_TYPE.get(ext) {
                // D3D10_SB_EXTENDED_OPCODE_SAMPLE_CONTROLS: signed 4-bit offsets.
                1 => {
                    extended.offsets = Some(IMMEDIATE_ADDRESS_OFFSET.map(|f| ((f.get(ext) as i8) << 4) >> 4))
                }
                // D3D11_SB_EXTENDED_OPCODE_RESOURCE_DIM
                2 => {
                    extended.resource_dim = Some((
                        EXTENDED_RESOURCE_DIMENSION.get(ext) as u8,
                        EXTENDED_RESOURCE_DIMENSION_STRUCTURE_STRIDE.get(ext) as u16,
                    ))
                }
                // D3D11_SB_EXTENDED_OPCODE_RESOURCE_RETURN_TYPE
                3 => extended.return_type = Some(EXTENDED_RESOURCE_RETURN_TYPE.map(|f| f.get(ext) as u8)),
                _ => {}
            }
        }
        extended
    }

    /// The extended opcode tokens, in order (chaining bits included).
    pub fn extended_tokens(&self) -> impl Iterator<Item = u32> + 'a {
        let ext = if self.has_extended() { self.tokens.get(1..self.body).unwrap_or(&[]) } else { &[] };
        ext.iter().map(|t| t.get())
    }

    /// Whether the length is in a DWORD of its own after the opcode token (custom data, and
    /// the declarations whose length may not fit in 7 bits when they set bit 31).
    pub fn has_length_token(&self) -> bool {
        self.body == 2 && !self.has_extended()
    }

    /// Whether extended opcode tokens follow the opcode token.
    #[inline]
    pub fn has_extended(&self) -> bool {
        self.body > 1
            && self.opcode != opcodes::CUSTOMDATA
            && !long_form(self.opcode)
            && is_set(OPCODE_EXTENDED, self.token0())
    }

    /// The opcode token.
    #[inline]
    pub fn token0(&self) -> u32 {
        tok(self.tokens, 0).unwrap_or(0)
    }

    /// The opcode-specific control bits 11–23 of the opcode token, shifted down.
    #[inline]
    pub fn controls(&self) -> u32 {
        OPCODE_SPECIFIC_CONTROL.get(self.token0())
    }

    /// fxc's mnemonic, or `None` for an unknown opcode.
    #[inline]
    pub fn mnemonic(&self) -> Option<&'static str> {
        self.info.map(|i| i.mnemonic)
    }

    /// Length in DWORDs.
    #[inline]
    pub fn len_dwords(&self) -> usize {
        self.tokens.len()
    }

    /// The tokens after the opcode token(s) (and after the length token of custom data).
    #[inline]
    pub fn body(&self) -> Tokens<'a> {
        self.tokens.get(self.body..).unwrap_or(&[])
    }

    /// Absolute byte offset of body token `i`.
    #[inline]
    pub fn body_offset(&self, i: usize) -> u64 {
        self.offset + (self.body + i) as u64 * 4
    }

    /// Body token `i`, or an error naming `what` when the instruction is too short.
    #[inline]
    pub fn body_token(&self, i: usize, what: &'static str) -> Result<u32> {
        tok(self.body(), i).ok_or_else(|| Error::truncated(self.body_offset(i), what, 4, 0))
    }

    /// `_sat` (bit 13).
    #[inline]
    pub fn saturate(&self) -> bool {
        is_set(INSTRUCTION_SATURATE, self.token0())
    }

    /// `_nz` (true) or `_z` (false) of conditional instructions (bit 18).
    #[inline]
    pub fn test_nonzero(&self) -> bool {
        is_set(INSTRUCTION_TEST_BOOLEAN, self.token0())
    }

    /// The precise mask (bits 19–22), one bit per destination component.
    #[inline]
    pub fn precise_mask(&self) -> u8 {
        INSTRUCTION_PRECISE_VALUES.get(self.token0()) as u8
    }

    /// Custom-data class (bits 11–31) when this is a custom-data block.
    #[inline]
    pub fn custom_data_class(&self) -> Option<u32> {
        (self.opcode == opcodes::CUSTOMDATA).then(|| CUSTOMDATA_CLASS.get(self.token0()))
    }

    /// The operands of an instruction-format opcode, decoded one by one from the body: as
    /// many as the opcode table lists (tokens left after them are not operands; fxc leaves a
    /// zero DWORD after the last operand of `samplepos` with a texture and of the
    /// `*_s` feedback samples). For [`Format::InterfaceCall`] the leading function-index DWORD
    /// is skipped.
    #[inline]
    pub fn operands(&self) -> Operands<'a> {
        let (skip, count) = match self.info {
            Some(i) if i.format == Format::InterfaceCall => (1, 1),
            Some(i) if i.format == Format::Inst => (0, i.operands.len()),
            _ => (0, usize::MAX),
        };
        let body = self.body();
        Operands {
            tokens: body.get(skip.min(body.len())..).unwrap_or(&[]),
            offset: self.body_offset(skip),
            count,
        }
    }

    /// Tokens of the body after the operands the opcode table lists (normally none).
    pub fn trailing_tokens(&self) -> Result<Tokens<'a>> {
        let mut ops = self.operands();
        for op in ops.by_ref() {
            op?;
        }
        Ok(ops.remaining())
    }

    /// The first operand of the body (declarations: the register being declared); its
    /// [`Operand::len`] says where the rest of the body starts.
    #[inline]
    pub fn first_operand(&self) -> Result<Operand<'a>> {
        Operand::decode(self.body(), self.body_offset(0), 0)
    }

    /// Decode every part of the instruction its listing line shows, in the order the line
    /// shows them: each operand the table lists (with the operands nested in it), and each
    /// DWORD its format or declaration layout reads ([`Piece`](opcodes::Piece)). The first
    /// part that does not decode is the error, the one the listing stops at; nothing is
    /// kept. `sm51`: the program is SM5.1, whose declarations read a register space.
    pub(crate) fn decode_all(&self, sm51: bool) -> Result<()> {
        use opcodes::Piece;
        let Some(info) = self.info else { return Ok(()) };
        match info.format {
            Format::Inst => {
                let mut ops = self.operands();
                ops.try_for_each(|o| o.map(|_| ()))
            }
            Format::InterfaceCall => {
                self.body_token(0, "fcall function index")?;
                self.operands().next().transpose().map(|_| ())
            }
            Format::Sync | Format::Phase => Ok(()),
            // D3D11_SB_CUSTOMDATA_SHADER_MESSAGE; the other blocks are data.
            Format::CustomData if self.custom_data_class() == Some(4) => self.shader_message().map(|_| ()),
            Format::CustomData => Ok(()),
            Format::Decl(_) => {
                let register = if info.declares_register() { Some(self.first_operand()?) } else { None };
                let used = register.map_or(0, |o| o.len());
                for &piece in info.glued_and_rest().1 {
                    if let Some(word) = self.piece_word(piece, used, sm51) {
                        word?;
                    }
                    match piece {
                        Piece::IndexableTemp => {
                            self.indexable_temp()?;
                        }
                        Piece::FunctionTable => self.function_table()?.1.try_for_each(|e| e.map(|_| ()))?,
                        Piece::Interface => self.interface()?.tables.try_for_each(|t| t.map(|_| ()))?,
                        _ => {}
                    }
                }
                Ok(())
            }
        }
    }

    /// The one DWORD a piece of a declaration's layout reads, named as its error names it
    /// (`used`: the DWORDs the declared register takes; `sm51`: the program reads register
    /// spaces); `None` for a piece that reads no DWORD or several. The printer and
    /// [`Instruction::decode_all`] read each piece's DWORDs through here and the readers
    /// after it, so they meet the same error at the same place.
    pub(crate) fn piece_word(&self, piece: opcodes::Piece, used: usize, sm51: bool) -> Option<Result<u32>> {
        use opcodes::Piece;
        let (k, what) = match piece {
            Piece::Value(k, what) | Piece::Label(_, k, what) | Piece::Float(k, what) => (k, what),
            Piece::SystemValue(k) => (k, "system value name"),
            Piece::ReturnType(k) => (k, "resource return type"),
            Piece::Space(k) | Piece::SpaceOrBlank(k) if sm51 => (k, "register space"),
            Piece::ConstantBuffer if sm51 => (0, "constant buffer size"),
            _ => return None,
        };
        Some(self.body_token(used + usize::from(k), what))
    }

    /// [`Piece::IndexableTemp`](opcodes::Piece::IndexableTemp): the register and the size,
    /// DWORDs 0 and 1.
    pub(crate) fn indexable_temp(&self) -> Result<(u32, u32)> {
        Ok((self.body_token(0, "indexable temp register")?, self.body_token(1, "indexable temp size")?))
    }

    /// [`Piece::FunctionTable`](opcodes::Piece::FunctionTable): the table's id, then each
    /// function body it lists, read as it is asked for (the count is DWORD 1).
    pub(crate) fn function_table(&self) -> Result<(u32, impl Iterator<Item = Result<u32>> + '_)> {
        let id = self.body_token(0, "function table id")?;
        let n = self.body_token(1, "function table length")? as usize;
        Ok((id, (0..n).map(move |i| self.body_token(2 + i, "function table entry"))))
    }

    /// [`Piece::Interface`](opcodes::Piece::Interface): the interface's id, its table
    /// length and array length, then each function table it lists, read as it is asked for.
    pub(crate) fn interface(&self) -> Result<InterfaceDecl<impl Iterator<Item = Result<u32>> + '_>> {
        let id = self.body_token(0, "interface id")?;
        let table_length = self.body_token(1, "interface table length")?;
        let lengths = self.body_token(2, "interface array length")?;
        let tables =
            (0..(lengths & 0xffff) as usize).map(move |i| self.body_token(3 + i, "interface function table"));
        Ok(InterfaceDecl { id, table_length, array_length: lengths >> 16, tables })
    }

    /// A shader-message block (`D3D11_SB_CUSTOMDATA_SHADER_MESSAGE`, custom-data class 4):
    /// its message id, its text (`chars` bytes at most, in the DWORDs after the operands) and
    /// its operands, each decoded. The operands are read up to the count the block gives or
    /// the end of their DWORDs, whichever comes first.
    pub(crate) fn shader_message(&self) -> Result<ShaderMessage<'a>> {
        let id = self.body_token(0, "shader message id")?;
        let _format = self.body_token(1, "shader message format")?;
        let chars = self.body_token(2, "shader message length")? as usize;
        let n_ops = self.body_token(3, "shader message operand count")?;
        let ops_len = self.body_token(4, "shader message operand length")? as usize;
        let body = self.body();
        let ops_tokens = body.get(5..).and_then(|t| t.get(..ops_len)).ok_or_else(|| {
            Error::truncated(self.body_offset(5), "shader message operands", ops_len as u64 * 4, 0)
        })?;
        let text = body.get(ops_len.saturating_add(5)..).unwrap_or(&[]);
        let mut operands = Vec::new();
        let mut offset = self.body_offset(5);
        let mut rest = ops_tokens;
        for _ in 0..n_ops {
            if rest.is_empty() {
                break;
            }
            let o = Operand::decode(rest, offset, 0)?;
            rest = rest.get(o.len()..).unwrap_or(&[]);
            offset += o.len() as u64 * 4;
            operands.push(o);
        }
        Ok(ShaderMessage { id, chars, text, operands })
    }
}

/// A `dcl_interface` read ([`Instruction::interface`]): `fp{id}[{array_length}][{table_length}] = {tables}`.
pub(crate) struct InterfaceDecl<T> {
    pub(crate) id: u32,
    /// The number of function tables each instance may be bound to.
    pub(crate) table_length: u32,
    /// The array size of the interface (the high 16 bits of DWORD 2).
    pub(crate) array_length: u32,
    /// The function tables, one per DWORD after the three (the low 16 bits of DWORD 2 count them).
    pub(crate) tables: T,
}

/// A decoded shader-message block ([`Instruction::shader_message`]): `printf`/`errorf`.
pub(crate) struct ShaderMessage<'a> {
    /// The message id: `0x00200103` for `errorf`, anything else `printf`.
    pub(crate) id: u32,
    /// The most bytes of `text` the message has.
    pub(crate) chars: usize,
    /// The DWORDs holding the text, NUL-padded.
    pub(crate) text: Tokens<'a>,
    /// The operands, each decoded (at most one per DWORD of the operand area).
    pub(crate) operands: Vec<Operand<'a>>,
}

/// Declarations whose length may not fit in 7 bits; bit 31 then means "a length DWORD follows".
#[inline]
pub(crate) fn long_form(opcode: u16) -> bool {
    use opcodes::op::*;
    matches!(
        opcode,
        D3D11_SB_OPCODE_DCL_FUNCTION_BODY
            | D3D11_SB_OPCODE_DCL_FUNCTION_TABLE
            | D3D11_SB_OPCODE_DCL_INTERFACE
            | D3D11_SB_OPCODE_INTERFACE_CALL
            | D3D11_SB_OPCODE_DCL_THREAD_GROUP
    )
}

/// Iterator over the operands of an instruction body.
#[derive(Debug, Clone)]
pub struct Operands<'a> {
    tokens: Tokens<'a>,
    offset: u64,
    count: usize,
}

impl<'a> Operands<'a> {
    /// Tokens not yet consumed.
    #[inline]
    pub fn remaining(&self) -> Tokens<'a> {
        self.tokens
    }
}

impl<'a> Iterator for Operands<'a> {
    type Item = Result<Operand<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.tokens.is_empty() || self.count == 0 {
            return None;
        }
        self.count -= 1;
        match Operand::decode(self.tokens, self.offset, 0) {
            Ok(op) => {
                let used = op.len();
                self.tokens = self.tokens.get(used..).unwrap_or(&[]);
                self.offset += used as u64 * 4;
                Some(Ok(op))
            }
            Err(e) => {
                self.tokens = &[];
                Some(Err(e))
            }
        }
    }
}

/// Operand register file (`D3D10_SB_OPERAND_TYPE`), raw.
pub type OperandType = u8;

/// Operand types by their header names (`D3D10_SB_OPERAND_TYPE_TEMP` is [`TEMP`](operand_type::TEMP)).
///
/// ```
/// use shaderscope::isa::sm4::{Program, operand_type};
///
/// // ps_4_0; mov r0.x, cb0[3].x
/// let words = [0x0000_0040u32, 8, 0x0600_0036, 0x0010_0012, 0, 0x0020_800a, 0, 3];
/// let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
/// let program = Program::parse(&bytes, 0)?;
/// let mov = program.instructions().next().unwrap()?;
/// let types = mov.operands().map(|o| o.map(|o| o.ty)).collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(types, [operand_type::TEMP, operand_type::CONSTANT_BUFFER]);
/// # Ok::<(), shaderscope::Error>(())
/// ```
#[allow(missing_docs)]
pub mod operand_type {
    use super::OperandType;
    pub const TEMP: OperandType = 0;
    pub const INPUT: OperandType = 1;
    pub const OUTPUT: OperandType = 2;
    pub const INDEXABLE_TEMP: OperandType = 3;
    pub const IMMEDIATE32: OperandType = 4;
    pub const IMMEDIATE64: OperandType = 5;
    pub const SAMPLER: OperandType = 6;
    pub const RESOURCE: OperandType = 7;
    pub const CONSTANT_BUFFER: OperandType = 8;
    pub const IMMEDIATE_CONSTANT_BUFFER: OperandType = 9;
    pub const LABEL: OperandType = 10;
    pub const INPUT_PRIMITIVEID: OperandType = 11;
    pub const OUTPUT_DEPTH: OperandType = 12;
    pub const NULL: OperandType = 13;
    pub const RASTERIZER: OperandType = 14;
    pub const OUTPUT_COVERAGE_MASK: OperandType = 15;
    pub const STREAM: OperandType = 16;
    pub const FUNCTION_BODY: OperandType = 17;
    pub const FUNCTION_TABLE: OperandType = 18;
    pub const INTERFACE: OperandType = 19;
    pub const FUNCTION_INPUT: OperandType = 20;
    pub const FUNCTION_OUTPUT: OperandType = 21;
    pub const OUTPUT_CONTROL_POINT_ID: OperandType = 22;
    pub const INPUT_FORK_INSTANCE_ID: OperandType = 23;
    pub const INPUT_JOIN_INSTANCE_ID: OperandType = 24;
    pub const INPUT_CONTROL_POINT: OperandType = 25;
    pub const OUTPUT_CONTROL_POINT: OperandType = 26;
    pub const INPUT_PATCH_CONSTANT: OperandType = 27;
    pub const INPUT_DOMAIN_POINT: OperandType = 28;
    pub const THIS_POINTER: OperandType = 29;
    pub const UNORDERED_ACCESS_VIEW: OperandType = 30;
    pub const THREAD_GROUP_SHARED_MEMORY: OperandType = 31;
    pub const INPUT_THREAD_ID: OperandType = 32;
    pub const INPUT_THREAD_GROUP_ID: OperandType = 33;
    pub const INPUT_THREAD_ID_IN_GROUP: OperandType = 34;
    pub const INPUT_COVERAGE_MASK: OperandType = 35;
    pub const INPUT_THREAD_ID_IN_GROUP_FLATTENED: OperandType = 36;
    pub const INPUT_GS_INSTANCE_ID: OperandType = 37;
    pub const OUTPUT_DEPTH_GREATER_EQUAL: OperandType = 38;
    pub const OUTPUT_DEPTH_LESS_EQUAL: OperandType = 39;
    pub const CYCLE_COUNTER: OperandType = 40;
    pub const OUTPUT_STENCIL_REF: OperandType = 41;
    pub const INNER_COVERAGE: OperandType = 42;
}

/// Component selection of a 4-component operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Components {
    /// `D3D10_SB_OPERAND_0_COMPONENT`
    Zero,
    /// `D3D10_SB_OPERAND_1_COMPONENT`
    One,
    /// Mask mode: bit 0 = x … bit 3 = w.
    Mask(u8),
    /// Swizzle mode: component index for x, y, z, w.
    Swizzle([u8; 4]),
    /// Select-1 mode: one component.
    Select(u8),
    /// `D3D10_SB_OPERAND_N_COMPONENT` (not defined by the format).
    N,
}

impl Components {
    /// The component selection of an operand token; `None` for the undefined selection mode 3.
    #[inline]
    pub fn of(tok0: u32) -> Option<Components> {
        Some(match OPERAND_NUM_COMPONENTS.get(tok0) {
            0 => Components::Zero,
            1 => Components::One,
            2 => match OPERAND_4_COMPONENT_SELECTION_MODE.get(tok0) {
                0 => Components::Mask(OPERAND_4_COMPONENT_MASK.get(tok0) as u8),
                1 => {
                    let s = OPERAND_4_COMPONENT_SWIZZLE.get(tok0) as u8;
                    Components::Swizzle([s & 3, (s >> 2) & 3, (s >> 4) & 3, s >> 6])
                }
                2 => Components::Select(OPERAND_4_COMPONENT_SELECT_1.get(tok0) as u8),
                _ => return None,
            },
            _ => Components::N,
        })
    }
}

/// Source modifier (`D3D10_SB_OPERAND_MODIFIER`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Modifier {
    /// None.
    #[default]
    None,
    /// `-x`
    Neg,
    /// `|x|`
    Abs,
    /// `-|x|`
    AbsNeg,
}

/// One index of an operand (`D3D10_SB_OPERAND_INDEX_REPRESENTATION`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Index<'a> {
    /// The immediate part (0 for a purely relative index).
    pub imm: u64,
    /// The relative part, if any: tokens of a nested operand and their absolute offset.
    pub rel: Option<RelOperand<'a>>,
}

/// The nested operand of a relative index, decoded on demand.
#[derive(Debug, Clone, Copy)]
pub struct RelOperand<'a> {
    tokens: Tokens<'a>,
    offset: u64,
    depth: u8,
}

impl<'a> RelOperand<'a> {
    /// Decode the nested operand.
    #[inline]
    pub fn decode(&self) -> Result<Operand<'a>> {
        Operand::decode(self.tokens, self.offset, self.depth)
    }
}

/// One decoded operand. Kept small (it is copied per operand while printing); the nested
/// operands of relative indices are decoded once to check them, then kept as tokens until
/// [`Operand::index`] asks for them.
#[derive(Debug, Clone, Copy)]
pub struct Operand<'a> {
    /// Absolute byte offset of the operand token.
    pub offset: u64,
    /// The tokens of this operand (including nested relative operands).
    tokens: Tokens<'a>,
    /// Immediate parts of the indices.
    index_imm: [u64; 3],
    /// Immediate values: 1 or 4 DWORDs for `l(…)`, 2 or 4 for `d(…)` (low word first).
    pub imm: [u32; 4],
    /// Register file.
    pub ty: OperandType,
    /// Component selection.
    pub components: Components,
    /// Source modifier from the extended operand token.
    pub modifier: Modifier,
    /// Minimum precision (`D3D11_SB_OPERAND_MIN_PRECISION`), 0 = default.
    pub min_precision: u8,
    /// `D3D12_SB_OPERAND_NON_UNIFORM`.
    pub non_uniform: bool,
    /// Number of indices (0–3).
    pub index_dim: u8,
    /// Number of immediate DWORDs in `imm`.
    pub imm_len: u8,
    /// Token position (within `tokens`) of each index's relative operand; 0 = none.
    index_rel: [u8; 3],
    /// Relative-addressing nesting depth of this operand.
    depth: u8,
}

impl<'a> Operand<'a> {
    /// Decode the operand at the start of `t` (first token at absolute `offset`), nested
    /// `depth` levels deep in relative addressing. [`Operand::len`] tells how many tokens it used.
    #[inline]
    pub fn decode(t: Tokens<'a>, offset: u64, depth: u8) -> Result<Operand<'a>> {
        let have = t.len() as u64 * 4;
        let tok0 = tok(t, 0).ok_or_else(|| Error::truncated(offset, "SM4 operand", 4, have))?;
        let mut pos = 1usize;
        let Some(components) = Components::of(tok0) else {
            return Err(Error::invalid(offset, "SM4 operand", "component selection mode 3 is undefined"));
        };
        let ty = OPERAND_TYPE.get(tok0) as u8;
        let index_dim = OPERAND_INDEX_DIMENSION.get(tok0) as u8;
        let reps = OPERAND_INDEX_REPRESENTATION.map(|f| f.get(tok0));
        let dim = usize::from(index_dim);
        // The commonest operand by far, read straight: a register with no extended operand
        // token and immediate 32-bit indices (`r0.xyzw`, `cb0[12].x`, `v[1][2]`).
        if !is_set(OPERAND_EXTENDED, tok0)
            && ty != operand_type::IMMEDIATE32
            && ty != operand_type::IMMEDIATE64
            && reps.iter().take(dim).all(|&r| r == 0)
        {
            // (Indices missing: the general reading below says which.)
            if let Some(index) = t.get(1..1 + dim) {
                let i = |d: usize| index.get(d).map_or(0, |v| u64::from(v.get()));
                return Ok(Operand {
                    offset,
                    tokens: t.get(..1 + dim).unwrap_or(&[]),
                    index_imm: [i(0), i(1), i(2)],
                    imm: [0; 4],
                    ty,
                    components,
                    modifier: Modifier::None,
                    min_precision: 0,
                    non_uniform: false,
                    index_dim,
                    imm_len: 0,
                    index_rel: [0; 3],
                    depth,
                });
            }
        }
        // Fields are gathered in locals and the operand is written once at the end: writing
        // it field by field and then moving it stalls store forwarding in hot loops.
        let (mut modifier, mut min_precision, mut non_uniform) = (Modifier::None, 0u8, false);
        // Scalars rather than arrays, so that the final write comes from registers.
        let (mut m0, mut m1, mut m2, mut m3) = (0u32, 0u32, 0u32, 0u32);
        let mut imm_len = 0u8;
        let (mut x0, mut x1, mut x2) = (0u64, 0u64, 0u64);
        let (mut r0, mut r1, mut r2) = (0u8, 0u8, 0u8);
        // Extended operand tokens (chained by bit 31).
        let mut extended = is_set(OPERAND_EXTENDED, tok0);
        while extended {
            let at = offset + pos as u64 * 4;
            let ext = tok(t, pos).ok_or_else(|| Error::truncated(at, "extended operand token", 4, 0))?;
            pos += 1;
            // D3D10_SB_EXTENDED_OPERAND_MODIFIER
            if EXTENDED_OPERAND_TYPE.get(ext) == 1 {
                modifier = match OPERAND_MODIFIER.get(ext) {
                    1 => Modifier::Neg,
                    2 => Modifier::Abs,
                    3 => Modifier::AbsNeg,
                    _ => Modifier::None,
                };
                min_precision = OPERAND_MIN_PRECISION.get(ext) as u8;
                non_uniform = is_set(OPERAND_NON_UNIFORM, ext);
            }
            extended = is_set(OPERAND_DOUBLE_EXTENDED, ext);
        }
        if ty == operand_type::IMMEDIATE32 || ty == operand_type::IMMEDIATE64 {
            let words = match (components, ty) {
                (Components::One, operand_type::IMMEDIATE32) => 1,
                (Components::One, _) => 2,
                (Components::Zero, _) => 0,
                _ => 4,
            };
            for i in 0..words {
                let at = offset + pos as u64 * 4;
                let v = tok(t, pos).ok_or_else(|| Error::truncated(at, "immediate operand value", 4, 0))?;
                match i {
                    0 => m0 = v,
                    1 => m1 = v,
                    2 => m2 = v,
                    _ => m3 = v,
                }
                pos += 1;
            }
            imm_len = words as u8;
        }
        for (d, &rep) in reps.iter().enumerate().take(dim) {
            let at = offset + pos as u64 * 4;
            let mut value = 0u64;
            match rep {
                0 | 3 => {
                    value =
                        u64::from(tok(t, pos).ok_or_else(|| Error::truncated(at, "operand index", 4, 0))?);
                    pos += 1;
                }
                1 | 4 => {
                    // 64-bit immediates are stored high word first.
                    let hi = tok(t, pos).ok_or_else(|| Error::truncated(at, "operand index", 8, 0))?;
                    let lo = tok(t, pos + 1).ok_or_else(|| Error::truncated(at, "operand index", 8, 4))?;
                    value = (u64::from(hi) << 32) | u64::from(lo);
                    pos += 2;
                }
                2 => {}
                _ => {
                    return Err(Error::invalid(
                        offset,
                        "SM4 operand",
                        format!("index representation {rep} is undefined"),
                    ));
                }
            }
            match d {
                0 => x0 = value,
                1 => x1 = value,
                _ => x2 = value,
            }
            if rep >= 2 {
                if depth >= MAX_REL_DEPTH {
                    return Err(Error::invalid(
                        offset,
                        "SM4 operand",
                        "relative addressing nested too deeply",
                    ));
                }
                let Ok(rel_pos) = u8::try_from(pos) else {
                    return Err(Error::invalid(
                        offset,
                        "SM4 operand",
                        "relative operand too far into the operand",
                    ));
                };
                let rest = t.get(pos..).unwrap_or(&[]);
                // Decoded whole here, so that an operand either decodes with every operand
                // nested in it or not at all: the printer's and the walk's (`decode_all`)
                // errors are then the same.
                let used = Operand::decode(rest, offset + pos as u64 * 4, depth + 1)?.len();
                match d {
                    0 => r0 = rel_pos,
                    1 => r1 = rel_pos,
                    _ => r2 = rel_pos,
                }
                pos += used;
            }
        }
        Ok(Operand {
            offset,
            tokens: t.get(..pos).unwrap_or(&[]),
            index_imm: [x0, x1, x2],
            imm: [m0, m1, m2, m3],
            ty,
            components,
            modifier,
            min_precision,
            non_uniform,
            index_dim,
            imm_len,
            index_rel: [r0, r1, r2],
            depth,
        })
    }

    /// An operand with no tokens (a placeholder for [`Operand::decode_into`]).
    pub const EMPTY: Operand<'static> = Operand {
        offset: 0,
        tokens: &[],
        index_imm: [0; 3],
        imm: [0; 4],
        ty: 0,
        components: Components::Zero,
        modifier: Modifier::None,
        min_precision: 0,
        non_uniform: false,
        index_dim: 0,
        imm_len: 0,
        index_rel: [0; 3],
        depth: 0,
    };

    /// [`Operand::decode`] into an existing value. On error `op` is unchanged.
    #[inline]
    pub fn decode_into(t: Tokens<'a>, offset: u64, depth: u8, op: &mut Operand<'a>) -> Result<()> {
        *op = Operand::decode(t, offset, depth)?;
        Ok(())
    }

    /// The operand token.
    #[inline]
    pub fn token0(&self) -> u32 {
        tok(self.tokens, 0).unwrap_or(0)
    }

    /// The operand token and its extended operand tokens: what says the operand's type,
    /// components and modifiers, before its immediate values and indices.
    pub fn header(&self) -> Tokens<'a> {
        let mut n = 1;
        let mut more = is_set(OPERAND_EXTENDED, self.token0());
        while more && n < self.tokens.len() {
            more = tok(self.tokens, n).is_some_and(|t| is_set(OPERAND_DOUBLE_EXTENDED, t));
            n += 1;
        }
        self.tokens.get(..n).unwrap_or(self.tokens)
    }

    /// Number of tokens the operand occupies.
    #[inline]
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Always false: an operand has at least its operand token.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Index `i` (0-based), if the operand has that many.
    #[inline]
    pub fn index(&self, i: usize) -> Option<Index<'a>> {
        if i >= usize::from(self.index_dim) {
            return None;
        }
        let imm = self.index_imm.get(i).copied().unwrap_or(0);
        let rel = match self.index_rel.get(i).copied().unwrap_or(0) {
            0 => None,
            p => Some(RelOperand {
                tokens: self.tokens.get(usize::from(p)..).unwrap_or(&[]),
                offset: self.offset + u64::from(p) * 4,
                depth: self.depth + 1,
            }),
        };
        Some(Index { imm, rel })
    }

    /// The immediate part of index `i`, when it has no relative part.
    #[inline]
    pub fn imm_index(&self, i: usize) -> Option<u64> {
        if i < usize::from(self.index_dim) && self.index_rel.get(i) == Some(&0) {
            self.index_imm.get(i).copied()
        } else {
            None
        }
    }

    /// Whether index `i` has a relative part.
    #[inline]
    pub fn is_relative(&self, i: usize) -> bool {
        i < usize::from(self.index_dim) && self.index_rel.get(i).is_some_and(|&p| p != 0)
    }

    /// The write mask (mask mode), the components read (swizzle/select), as bits x=1 … w=8.
    pub fn component_bits(&self) -> u8 {
        match self.components {
            Components::Mask(m) => m,
            Components::Swizzle(s) => s.iter().fold(0, |acc, c| acc | (1 << c)),
            Components::Select(c) => 1 << c,
            Components::One => 1,
            Components::Zero | Components::N => 0,
        }
    }

    /// The same operand without its component selection (declarations print none).
    pub fn without_components(&self) -> Operand<'a> {
        Operand { components: Components::Zero, ..*self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn header_gives_model_from_the_version_token() {
        // vs_4_0, 2 DWORDs: no instructions.
        let data = bytes(&[0x0001_0040, 2]);
        let p = Program::parse(&data, 0x100).unwrap();
        assert_eq!(p.version_name(), "vs_4_0");
        assert_eq!(p.instructions().count(), 0);
        assert_eq!(p.stage, Stage::Vertex);
        let data = bytes(&[0x0005_0051, 9]);
        let e = Program::parse(&data, 0x100).unwrap_err();
        assert_eq!(e.to_string(), "truncated SM4 program at offset 0x100 (need 36 bytes, have 8)");
    }

    #[test]
    fn a_program_type_the_format_does_not_define_is_an_error_at_the_version_token() {
        let data = bytes(&[0x0006_0050, 2]);
        let e = Program::parse(&data, 0x100).unwrap_err();
        assert_eq!(e.offset(), 0x100);
        assert_eq!(
            e.to_string(),
            "invalid SM4 version token at offset 0x100: program type 6 is not one the format defines"
        );
        let data = bytes(&[0xfffe_0050, 2]);
        assert!(Program::parse(&data, 0).is_err());
        let data = bytes(&[0x0005_0050, 2]);
        assert_eq!(Program::parse(&data, 0).unwrap().stage, Stage::Compute);
    }

    #[test]
    fn operand_with_relative_index_and_modifier() {
        // -cb0[r1.y + 26].xyzw: 4-component swizzle, 2D, index 1 = imm32 + relative.
        let tok0 = 2 | (1 << 2) | (0xe4 << 4) | (8 << 12) | (2 << 20) | (3 << 25) | (1 << 31);
        let rel = 2 | (2 << 2) | (1 << 4) | (1 << 20); // r1.y
        let words = [tok0, 1 | (1 << 6), 0, 26, rel, 1];
        let data = bytes(&words);
        let t = tokens(&data);
        let op = Operand::decode(t, 0x40, 0).unwrap();
        assert_eq!(op.len(), 6);
        assert_eq!(op.ty, operand_type::CONSTANT_BUFFER);
        assert_eq!(op.modifier, Modifier::Neg);
        assert_eq!(op.imm_index(0), Some(0));
        let idx = op.index(1).unwrap();
        assert_eq!(idx.imm, 26);
        let r = idx.rel.unwrap().decode().unwrap();
        assert_eq!((r.ty, r.components, r.imm_index(0)), (0, Components::Select(1), Some(1)));
        assert_eq!(r.offset, 0x40 + 16);
    }

    #[test]
    fn zero_length_instruction_is_an_error_not_a_hang() {
        let data = bytes(&[0x0000_0040, 3, 0x0000_003e]);
        let p = Program::parse(&data, 0).unwrap();
        let all: Vec<_> = p.instructions().collect();
        assert_eq!(all.len(), 1);
        assert!(all[0].is_err());
    }
}
