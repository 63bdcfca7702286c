//! The opcode table: the single source of truth for every opcode of the tokenized program
//! format (SM4.0 – SM5.1). Decoding, the fxc mnemonic, the operand literal types, the printing
//! rules and each declaration's layout (what its text shows of which tokens, read alike by the
//! printer and the assembler) all come from [`info`].
//!
//! Numbers and constant names follow `d3d12TokenizedProgramFormat.hpp`
//! (`D3D10_SB_OPCODE_*`, `D3D10_1_SB_*`, `D3D11_SB_*`, `D3D11_1_SB_*`, `D3DWDDM1_3_SB_*`);
//! mnemonics are the ones fxc's `D3DDisassemble` prints.
//!
//! ```
//! use shaderscope::isa::sm4::opcodes::{self, Decl, Format, Ty, flag, op};
//!
//! let mul = opcodes::info(op::D3D10_SB_OPCODE_MUL).unwrap();
//! assert_eq!((mul.opcode, mul.name, mul.mnemonic), (0x38, "D3D10_SB_OPCODE_MUL", "mul"));
//! // A destination register and two float sources (their literals print as `%f`).
//! assert_eq!((mul.format, mul.operands), (Format::Inst, &[Ty::R, Ty::F, Ty::F][..]));
//!
//! // `if` has a `_z`/`_nz` test and opens a block.
//! let if_ = opcodes::info(op::D3D10_SB_OPCODE_IF).unwrap();
//! assert!(if_.has(flag::TEST) && if_.has(flag::OPEN) && !if_.is_declaration());
//!
//! let cb = opcodes::info(op::D3D10_SB_OPCODE_DCL_CONSTANT_BUFFER).unwrap();
//! assert_eq!((cb.mnemonic, cb.format), ("dcl_constantbuffer", Format::Decl(Decl::ConstantBuffer)));
//! assert!(cb.is_declaration());
//!
//! // Numbers the format leaves undefined have no row.
//! assert!(opcodes::info(107).is_none());
//! assert!(opcodes::all().iter().all(|row| opcodes::info(row.opcode) == Some(row)));
//! ```

/// How the tokens after the opcode token are laid out, and how the instruction is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// An instruction: a list of operands, typed by [`OpInfo::operands`].
    Inst,
    /// `sync_*`: no operands, flags in bits 11–14.
    Sync,
    /// `fcall`: a function-index DWORD, then the interface operand.
    InterfaceCall,
    /// A custom-data block (`D3D10_SB_OPCODE_CUSTOMDATA`): length in the second DWORD.
    CustomData,
    /// A hull-shader phase marker (`hs_decls`, `hs_fork_phase`, …).
    Phase,
    /// A declaration: which one. How its tokens are laid out and printed is the layout in
    /// its row.
    Decl(Decl),
}

/// The declarations, one per `D3D1x_SB_OPCODE_DCL_*` (what each one's text shows of which
/// tokens is the layout in its row of the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
#[non_exhaustive]
pub enum Decl {
    Resource,
    ConstantBuffer,
    Sampler,
    IndexRange,
    GsOutputTopology,
    GsInputPrimitive,
    MaxOutputVertexCount,
    Input,
    InputSgv,
    InputSiv,
    InputPs,
    InputPsSgv,
    InputPsSiv,
    Output,
    OutputSgv,
    OutputSiv,
    Temps,
    IndexableTemp,
    GlobalFlags,
    Stream,
    FunctionBody,
    FunctionTable,
    Interface,
    InputControlPointCount,
    OutputControlPointCount,
    TessDomain,
    TessPartitioning,
    TessOutputPrimitive,
    HsMaxTessFactor,
    HsForkPhaseInstanceCount,
    HsJoinPhaseInstanceCount,
    ThreadGroup,
    UavTyped,
    UavRaw,
    UavStructured,
    TgsmRaw,
    TgsmStructured,
    ResourceRaw,
    ResourceStructured,
    GsInstanceCount,
}

/// One piece of a declaration's text and the tokens it stands for. A declaration's row lists
/// its pieces in the order of the text ([`OpInfo::layout`]): the pieces glued to the mnemonic
/// first, then, after a space, the others. The printer walks the list to
/// print a declaration, the assembler to read one back, and [`OpInfo::shown_controls`] to know
/// which control bits the text shows, so that a declaration's shape is written once.
///
/// `k` numbers the DWORDs of the body after the declared register (from the first DWORD of
/// the body when there is none); `what` names the DWORD in the error of a body too short for
/// it. Control bits are bits 11–23 of the opcode token, shifted down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Piece {
    /// Glued: `_texture2d`, the resource dimension (`D3D10_SB_RESOURCE_DIMENSION`, control
    /// bits 0–4).
    Dimension,
    /// Glued: `(4)`, the sample count of a multisampled texture (control bits 5–11); nothing
    /// for the other dimensions.
    SampleCount,
    /// Glued: a suffix for a control bit (`_glc`: `D3D11_SB_GLOBALLY_COHERENT_ACCESS`).
    Flag(u32, &'static str),
    /// Punctuation between pieces: `, `.
    Text(&'static str),
    /// fxc's space at the end of a few declarations (`dcl_outputtopology trianglestrip `);
    /// the assembler reads lines without their trailing blanks.
    Blank,
    /// The declared register as instructions print it, components included: `v0.xy`,
    /// `o[2][1].x`.
    Operand,
    /// The declared register without its components; SM5.1 ranges as `T0[1:3]`.
    Register,
    /// The constant buffer with its size: `cb0[4]` (the size is the operand's second index)
    /// before SM5.1, `CB0[0:0][4]` (the size is DWORD 0, bracketed after the range) from it.
    /// Irregular: the size is written inside the register, and comes from a different token.
    ConstantBuffer,
    /// A named value of the control bits under the mask, as an operand (the number where
    /// the names have none).
    Named(u32, Names),
    /// A number in the control bits under the mask, as an operand.
    Count(u32),
    /// The interpolation mode (`D3D10_SB_INTERPOLATION_MODE`, control bits 0–3) and a space;
    /// nothing for mode 0. `true` for a system-generated value, whose mode fxc 9 does not show
    /// ([`ListingStyle::sgv_interpolation`](super::ListingStyle::sgv_interpolation)) and the
    /// assembler reads as `constant` when the text has none.
    Interpolation(bool),
    /// DWORD `k` in decimal, as an operand.
    Value(u8, &'static str),
    /// `position`: the system value (`D3D10_SB_NAME`) in the low 16 bits of DWORD `k`.
    SystemValue(u8),
    /// `(float,float,float,float)`: the four return types (`D3D10_SB_RESOURCE_RETURN_TYPE`,
    /// 4 bits each) in DWORD `k`.
    ReturnType(u8),
    /// `fb3`: DWORD `k` after a label prefix, as an operand.
    Label(&'static str, u8, &'static str),
    /// `l(64.000000)`: DWORD `k` as a float literal.
    Float(u8, &'static str),
    /// `, space=0`: the register space in DWORD `k`, from SM5.1 on; nothing before.
    Space(u8),
    /// [`Piece::Space`] from SM5.1 on, before it fxc's trailing space
    /// (`dcl_resource_structured t0, 16 `).
    SpaceOrBlank(u8),
    /// `x0[4]`: an indexable temp's register and size, DWORDs 0 and 1. Irregular: a register
    /// written from two plain DWORDs.
    IndexableTemp,
    /// `refactoringAllowed | enableRawAndStructuredBuffers`: the flags in control bits 0–8 by
    /// name, those the format does not name in hexadecimal. Irregular: a set, not a value.
    GlobalFlags,
    /// `ft0 = {fb0, fb1}`: the table id (DWORD 0), then as many function bodies as DWORD 1
    /// says. Irregular: a list whose length is a DWORD before it.
    FunctionTable,
    /// `fp0[2][1] = {ft0, ft1}`: the interface id (DWORD 0), the array length (high half of
    /// DWORD 2), the number of tables each call site expects (DWORD 1), then as many function
    /// tables as the low half of DWORD 2 says. Irregular: the array length and the list's
    /// length share a DWORD, printed in another order than the tokens'.
    Interface,
}

impl Piece {
    /// Whether the piece is glued to the mnemonic (and printed in its style).
    const fn is_glued(self) -> bool {
        matches!(self, Piece::Dimension | Piece::SampleCount | Piece::Flag(..))
    }

    /// The control bits the piece shows (a sample count aside: [`Facts::sample_count`]).
    const fn shown_controls(self) -> u32 {
        match self {
            Piece::Dimension => 0x1f,
            Piece::Flag(bit, _) => bit,
            Piece::Named(mask, _) | Piece::Count(mask) => mask,
            Piece::Interpolation(_) => 0xf,
            // Every flag, by name or (those the format does not name) in hexadecimal.
            Piece::GlobalFlags => 0x1fff,
            _ => 0,
        }
    }
}

/// What the printer, the assembler and [`OpInfo::shown_controls`] ask of a declaration's
/// layout on every line, worked out from it when the table is built ([`Facts::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Facts {
    /// How many pieces, first in the layout, are glued to the mnemonic.
    pub(crate) glued: usize,
    /// Whether a piece is the declared register, the operand the body starts with.
    pub(crate) register: bool,
    /// Whether that register prints as instructions print operands ([`Piece::Operand`]).
    pub(crate) operand: bool,
    /// The control bits the pieces show, the sample count aside.
    shown: u32,
    /// Whether the layout shows a multisampled texture's sample count (control bits 5–11).
    sample_count: bool,
}

impl Facts {
    /// The facts of `layout`.
    // Only evaluated at compile time (for the table): an index out of range fails the build.
    #[allow(clippy::indexing_slicing)]
    const fn of(layout: &[Piece]) -> Facts {
        let mut f = Facts { glued: 0, register: false, operand: false, shown: 0, sample_count: false };
        let mut i = 0;
        let mut gluing = true;
        while i < layout.len() {
            let p = layout[i];
            gluing = gluing && p.is_glued();
            if gluing {
                f.glued += 1;
            }
            f.register |= matches!(p, Piece::Operand | Piece::Register | Piece::ConstantBuffer);
            f.operand |= matches!(p, Piece::Operand);
            f.sample_count |= matches!(p, Piece::SampleCount);
            f.shown |= p.shown_controls();
            i += 1;
        }
        f
    }
}

/// The enumerations a [`Piece::Named`] value takes its names from ([`super::names`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Names {
    /// `D3D10_SB_CONSTANT_BUFFER_ACCESS_PATTERN`: `immediateIndexed`, `dynamicIndexed`.
    ConstantBufferAccessPattern,
    /// `D3D10_SB_SAMPLER_MODE`: `mode_default`, …
    SamplerMode,
    /// `D3D10_SB_PRIMITIVE_TOPOLOGY`: `trianglestrip`, …
    PrimitiveTopology,
    /// `D3D10_SB_PRIMITIVE`: `triangle`, `patch3`, …
    Primitive,
    /// `D3D11_SB_TESSELLATOR_DOMAIN`: `domain_tri`, …
    TessellatorDomain,
    /// `D3D11_SB_TESSELLATOR_PARTITIONING`: `partitioning_integer`, …
    TessellatorPartitioning,
    /// `D3D11_SB_TESSELLATOR_OUTPUT_PRIMITIVE`: `output_triangle_cw`, …
    TessellatorOutputPrimitive,
}

impl Names {
    /// fxc's names: the function that gives the name of a value, `None` where the format
    /// defines none.
    pub(crate) fn of(self) -> fn(u32) -> Option<&'static str> {
        use super::names;
        match self {
            Names::ConstantBufferAccessPattern => names::constant_buffer_access_pattern,
            Names::SamplerMode => names::sampler_mode,
            Names::PrimitiveTopology => names::topology,
            Names::Primitive => names::primitive,
            Names::TessellatorDomain => names::tess_domain,
            Names::TessellatorPartitioning => names::tess_partitioning,
            Names::TessellatorOutputPrimitive => names::tess_output_primitive,
        }
    }

    /// What the assembler expected where a name does not read.
    pub(crate) fn what(self) -> &'static str {
        match self {
            Names::ConstantBufferAccessPattern => "`immediateIndexed` or `dynamicIndexed`",
            Names::SamplerMode => "a sampler mode",
            Names::PrimitiveTopology => "a topology",
            Names::Primitive => "a primitive",
            Names::TessellatorDomain => "a tessellator domain",
            Names::TessellatorPartitioning => "a partitioning",
            Names::TessellatorOutputPrimitive => "an output primitive",
        }
    }
}

/// What an operand position holds; it decides how an immediate (`l(…)`/`d(…)`) is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A register (destination, resource, sampler, …): immediates here are unusual.
    R,
    /// Float source: `%f`.
    F,
    /// Integer source: decimal when small, `0x%08x` otherwise.
    I,
    /// Untyped move source: each component printed as float or integer by its bits.
    X,
    /// Double source: `d(%f, %f)`.
    D,
}

/// Flags of an opcode ([`OpInfo::flags`], tested with [`OpInfo::has`]).
///
/// ```
/// use shaderscope::isa::sm4::opcodes::{all, flag};
///
/// // The opcodes that open a block and those that close one (the listing indents between).
/// let with = |f| all().iter().filter(move |r| r.has(f)).map(|r| r.mnemonic).collect::<Vec<_>>();
/// assert_eq!(with(flag::OPEN), ["if", "loop", "switch"]);
/// assert_eq!(with(flag::CLOSE), ["endif", "endloop", "endswitch"]);
/// assert_eq!(with(flag::ELSE), ["else"]);
/// ```
pub mod flag {
    /// Bit 18 selects `_z`/`_nz` (`D3D10_SB_INSTRUCTION_TEST_BOOLEAN`).
    pub const TEST: u16 = 1;
    /// Bits 11–12 select `resinfo`'s return type suffix
    /// (`D3D10_SB_RESINFO_INSTRUCTION_RETURN_TYPE`: 1 `_rcpFloat`, 2 `_uint`).
    pub const RET_TYPE: u16 = 2;
    /// Opens a block (`if`, `loop`, `switch`): following lines are indented.
    pub const OPEN: u16 = 4;
    /// Closes a block (`endif`, `endloop`, `endswitch`).
    pub const CLOSE: u16 = 8;
    /// `else`: printed one level out, the block continues.
    pub const ELSE: u16 = 16;
    /// A double-precision instruction: write masks and swizzles count 64-bit pairs.
    pub const DOUBLE: u16 = 32;
    /// Writes two destinations (`imul`, `udiv`, `sincos`, `swapc`, `imm_atomic_*`, the `*_s`
    /// feedback forms): the assembler reads the first two operands as written.
    pub const TWO_DESTINATIONS: u16 = 64;
    /// fxc ends the instruction with a zero DWORD after its operands (the `sample*_s` feedback
    /// samples; `samplepos` of a texture, not of the rasterizer).
    pub const TRAILING_ZERO: u16 = 128;
    /// Bits 11–12 select `sampleinfo`'s return type suffix, a different enum from
    /// `resinfo`'s (`D3D10_SB_INSTRUCTION_RETURN_TYPE`: 1 `_uint`; fxc lists
    /// `sampleinfo_uint` with 1 there).
    pub const UINT_RET_TYPE: u16 = 256;
}

/// One row of the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OpInfo {
    /// Opcode number (bits 0–10 of the opcode token).
    pub opcode: u16,
    /// The constant's name in `d3d12TokenizedProgramFormat.hpp`.
    pub name: &'static str,
    /// fxc's mnemonic.
    pub mnemonic: &'static str,
    /// Token layout and printing.
    pub format: Format,
    /// [`flag`] bits.
    pub flags: u16,
    /// What each operand position holds (destinations first); unused for declarations.
    pub operands: &'static [Ty],
    /// A declaration's text and tokens, piece by piece; empty for the other opcodes.
    pub(crate) layout: &'static [Piece],
    /// What the layout says that every line asks.
    pub(crate) facts: Facts,
}

impl OpInfo {
    /// Whether `f` (a [`flag`] constant) is set.
    pub fn has(&self, f: u16) -> bool {
        self.flags & f != 0
    }

    /// The return-type suffixes bits 11–12 of the opcode token select, with their values
    /// ([`flag::RET_TYPE`], [`flag::UINT_RET_TYPE`]); none for other opcodes.
    ///
    /// ```
    /// use shaderscope::isa::sm4::opcodes::{info, op};
    ///
    /// let resinfo = info(op::D3D10_SB_OPCODE_RESINFO).unwrap();
    /// assert_eq!(resinfo.return_type_suffixes(), [(1, "_rcpFloat"), (2, "_uint")]);
    /// let sampleinfo = info(op::D3D10_1_SB_OPCODE_SAMPLE_INFO).unwrap();
    /// assert_eq!(sampleinfo.return_type_suffixes(), [(1, "_uint")]);
    /// ```
    pub fn return_type_suffixes(&self) -> &'static [(u32, &'static str)] {
        if self.has(flag::RET_TYPE) {
            &[(1, "_rcpFloat"), (2, "_uint")]
        } else if self.has(flag::UINT_RET_TYPE) {
            &[(1, "_uint")]
        } else {
            &[]
        }
    }

    /// Whether the body starts with the register the declaration declares (an operand)
    /// rather than with plain DWORDs.
    pub(crate) fn declares_register(&self) -> bool {
        self.facts.register
    }

    /// The pieces glued to the mnemonic, and the others.
    pub(crate) fn glued_and_rest(&self) -> (&'static [Piece], &'static [Piece]) {
        self.layout.split_at_checked(self.facts.glued).unwrap_or((&[], self.layout))
    }

    /// Whether this is a declaration (including hull-shader phase markers and custom data).
    pub fn is_declaration(&self) -> bool {
        matches!(self.format, Format::Decl(_) | Format::CustomData)
    }

    /// Whether fxc ends the instruction with a zero DWORD after its operands
    /// ([`flag::TRAILING_ZERO`]), given the register file of its second operand: `samplepos`
    /// has it after a texture, not after the rasterizer. The assembler writes it; the
    /// listing says so when the DWORDs after the operands are anything else.
    pub fn trailing_zero(&self, second: Option<super::OperandType>) -> bool {
        self.has(flag::TRAILING_ZERO)
            && (self.opcode != op::D3D10_1_SB_OPCODE_SAMPLE_POS
                || second.is_some_and(|t| t != super::operand_type::RASTERIZER))
    }

    /// The opcode-specific control bits (bits 11–23 of the opcode token, shifted down as
    /// [`Instruction::controls`](super::Instruction::controls) gives them, `controls` being
    /// the instruction's) that fxc's text of this instruction shows: a suffix (`_sat`, `_nz`,
    /// `_uint`, `_glc`), a `[precise(…)]`, a declaration's named value. The assembler writes
    /// the others as 0, so the listing shows any that are set in a comment
    /// ([`crate::isa::sm4`] names its form). Custom data (whose bits 11–31 are its class)
    /// shows them all.
    pub fn shown_controls(&self, controls: u32) -> u32 {
        const SATURATE: u32 = 1 << 2;
        const TEST: u32 = 1 << 7;
        const PRECISE: u32 = 0xf << 8;
        match self.format {
            Format::Inst => {
                SATURATE
                    | PRECISE
                    | if self.has(flag::TEST) { TEST } else { 0 }
                    // The return type, where a suffix names it (`resinfo`'s 3 and `sampleinfo`'s 2
                    // and 3 have none).
                    | if self.return_type_suffixes().iter().any(|&(v, _)| v == controls & 3) { 3 } else { 0 }
            }
            Format::Sync => 0xf,
            Format::InterfaceCall | Format::Phase => 0,
            Format::CustomData => u32::MAX,
            // The sample count, of a multisampled texture.
            Format::Decl(_) if self.facts.sample_count && matches!(controls & 0x1f, 4 | 9) => {
                self.facts.shown | 0x7f << 5
            }
            Format::Decl(_) => self.facts.shown,
        }
    }
}

/// The opcode number of `D3D10_SB_OPCODE_CUSTOMDATA`.
pub const CUSTOMDATA: u16 = 53;

macro_rules! opcodes {
    ($( $num:literal $name:ident $mn:literal $fmt:expr, $flags:expr, [$($ty:ident),*] $(=> [$($piece:expr),*])?; )*) => {
        /// Opcode numbers by their `d3d12TokenizedProgramFormat.hpp` names.
        ///
        /// ```
        /// use shaderscope::isa::sm4::opcodes::{info, op};
        ///
        /// assert_eq!((op::D3D10_SB_OPCODE_RET, op::D3D11_SB_OPCODE_DCL_THREAD_GROUP), (0x3e, 0x9b));
        /// let row = info(op::D3D11_SB_OPCODE_DCL_THREAD_GROUP);
        /// assert_eq!(row.map(|r| r.mnemonic), Some("dcl_thread_group"));
        /// ```
        #[allow(missing_docs, non_upper_case_globals)]
        pub mod op {
            $( pub const $name: u16 = $num; )*
        }

        static TABLE: &[OpInfo] = &[
            $( OpInfo {
                opcode: $num,
                name: stringify!($name),
                mnemonic: $mn,
                format: $fmt,
                flags: $flags,
                operands: &[$(Ty::$ty),*],
                layout: &[$($($piece),*)?],
                facts: Facts::of(&[$($($piece),*)?]),
            }, )*
        ];
    };
}

use crate::print::Short;
use Decl as D;
use Format::{CustomData, Decl as Dcl, Inst, InterfaceCall, Phase, Sync};
use Names::*;
use Piece::*;
use flag::{CLOSE, DOUBLE, ELSE, OPEN, RET_TYPE, TEST, TRAILING_ZERO, TWO_DESTINATIONS, UINT_RET_TYPE};

/// The UAV declarations' flags among the control bits (`D3D11_SB_GLOBALLY_COHERENT_ACCESS`,
/// `D3D11_SB_RASTERIZER_ORDERED_ACCESS`, `D3D11_SB_UAV_HAS_ORDER_PRESERVING_COUNTER`).
const GLC: u32 = 1 << 5;
const ROV: u32 = 1 << 6;
const OPC: u32 = 1 << 12;

// Rows in opcode order. A declaration's row ends with its layout (`=> [pieces]`, see `Piece`).
opcodes! {
    0 D3D10_SB_OPCODE_ADD "add" Inst, 0, [R, F, F];
    1 D3D10_SB_OPCODE_AND "and" Inst, 0, [R, I, I];
    2 D3D10_SB_OPCODE_BREAK "break" Inst, 0, [];
    3 D3D10_SB_OPCODE_BREAKC "breakc" Inst, TEST, [I];
    4 D3D10_SB_OPCODE_CALL "call" Inst, 0, [R];
    5 D3D10_SB_OPCODE_CALLC "callc" Inst, TEST, [I, R];
    6 D3D10_SB_OPCODE_CASE "case" Inst, 0, [I];
    7 D3D10_SB_OPCODE_CONTINUE "continue" Inst, 0, [];
    8 D3D10_SB_OPCODE_CONTINUEC "continuec" Inst, TEST, [I];
    9 D3D10_SB_OPCODE_CUT "cut" Inst, 0, [];
    10 D3D10_SB_OPCODE_DEFAULT "default" Inst, 0, [];
    11 D3D10_SB_OPCODE_DERIV_RTX "deriv_rtx" Inst, 0, [R, F];
    12 D3D10_SB_OPCODE_DERIV_RTY "deriv_rty" Inst, 0, [R, F];
    13 D3D10_SB_OPCODE_DISCARD "discard" Inst, TEST, [I];
    14 D3D10_SB_OPCODE_DIV "div" Inst, 0, [R, F, F];
    15 D3D10_SB_OPCODE_DP2 "dp2" Inst, 0, [R, F, F];
    16 D3D10_SB_OPCODE_DP3 "dp3" Inst, 0, [R, F, F];
    17 D3D10_SB_OPCODE_DP4 "dp4" Inst, 0, [R, F, F];
    18 D3D10_SB_OPCODE_ELSE "else" Inst, ELSE, [];
    19 D3D10_SB_OPCODE_EMIT "emit" Inst, 0, [];
    20 D3D10_SB_OPCODE_EMITTHENCUT "emit_then_cut" Inst, 0, [];
    21 D3D10_SB_OPCODE_ENDIF "endif" Inst, CLOSE, [];
    22 D3D10_SB_OPCODE_ENDLOOP "endloop" Inst, CLOSE, [];
    23 D3D10_SB_OPCODE_ENDSWITCH "endswitch" Inst, CLOSE, [];
    24 D3D10_SB_OPCODE_EQ "eq" Inst, 0, [R, F, F];
    25 D3D10_SB_OPCODE_EXP "exp" Inst, 0, [R, F];
    26 D3D10_SB_OPCODE_FRC "frc" Inst, 0, [R, F];
    27 D3D10_SB_OPCODE_FTOI "ftoi" Inst, 0, [R, F];
    28 D3D10_SB_OPCODE_FTOU "ftou" Inst, 0, [R, F];
    29 D3D10_SB_OPCODE_GE "ge" Inst, 0, [R, F, F];
    30 D3D10_SB_OPCODE_IADD "iadd" Inst, 0, [R, I, I];
    31 D3D10_SB_OPCODE_IF "if" Inst, TEST | OPEN, [I];
    32 D3D10_SB_OPCODE_IEQ "ieq" Inst, 0, [R, I, I];
    33 D3D10_SB_OPCODE_IGE "ige" Inst, 0, [R, I, I];
    34 D3D10_SB_OPCODE_ILT "ilt" Inst, 0, [R, I, I];
    35 D3D10_SB_OPCODE_IMAD "imad" Inst, 0, [R, I, I, I];
    36 D3D10_SB_OPCODE_IMAX "imax" Inst, 0, [R, I, I];
    37 D3D10_SB_OPCODE_IMIN "imin" Inst, 0, [R, I, I];
    38 D3D10_SB_OPCODE_IMUL "imul" Inst, TWO_DESTINATIONS, [R, R, I, I];
    39 D3D10_SB_OPCODE_INE "ine" Inst, 0, [R, I, I];
    40 D3D10_SB_OPCODE_INEG "ineg" Inst, 0, [R, I];
    41 D3D10_SB_OPCODE_ISHL "ishl" Inst, 0, [R, I, I];
    42 D3D10_SB_OPCODE_ISHR "ishr" Inst, 0, [R, I, I];
    43 D3D10_SB_OPCODE_ITOF "itof" Inst, 0, [R, I];
    44 D3D10_SB_OPCODE_LABEL "label" Inst, 0, [R];
    45 D3D10_SB_OPCODE_LD "ld" Inst, 0, [R, I, R];
    46 D3D10_SB_OPCODE_LD_MS "ldms" Inst, 0, [R, I, R, I];
    47 D3D10_SB_OPCODE_LOG "log" Inst, 0, [R, F];
    48 D3D10_SB_OPCODE_LOOP "loop" Inst, OPEN, [];
    49 D3D10_SB_OPCODE_LT "lt" Inst, 0, [R, F, F];
    50 D3D10_SB_OPCODE_MAD "mad" Inst, 0, [R, F, F, F];
    51 D3D10_SB_OPCODE_MIN "min" Inst, 0, [R, F, F];
    52 D3D10_SB_OPCODE_MAX "max" Inst, 0, [R, F, F];
    53 D3D10_SB_OPCODE_CUSTOMDATA "customdata" CustomData, 0, [];
    54 D3D10_SB_OPCODE_MOV "mov" Inst, 0, [R, X];
    55 D3D10_SB_OPCODE_MOVC "movc" Inst, 0, [R, X, X, X];
    56 D3D10_SB_OPCODE_MUL "mul" Inst, 0, [R, F, F];
    57 D3D10_SB_OPCODE_NE "ne" Inst, 0, [R, F, F];
    58 D3D10_SB_OPCODE_NOP "nop" Inst, 0, [];
    59 D3D10_SB_OPCODE_NOT "not" Inst, 0, [R, I];
    60 D3D10_SB_OPCODE_OR "or" Inst, 0, [R, I, I];
    61 D3D10_SB_OPCODE_RESINFO "resinfo" Inst, RET_TYPE, [R, I, R];
    62 D3D10_SB_OPCODE_RET "ret" Inst, 0, [];
    63 D3D10_SB_OPCODE_RETC "retc" Inst, TEST, [I];
    64 D3D10_SB_OPCODE_ROUND_NE "round_ne" Inst, 0, [R, F];
    65 D3D10_SB_OPCODE_ROUND_NI "round_ni" Inst, 0, [R, F];
    66 D3D10_SB_OPCODE_ROUND_PI "round_pi" Inst, 0, [R, F];
    67 D3D10_SB_OPCODE_ROUND_Z "round_z" Inst, 0, [R, F];
    68 D3D10_SB_OPCODE_RSQ "rsq" Inst, 0, [R, F];
    69 D3D10_SB_OPCODE_SAMPLE "sample" Inst, 0, [R, F, R, R];
    70 D3D10_SB_OPCODE_SAMPLE_C "sample_c" Inst, 0, [R, F, R, R, F];
    71 D3D10_SB_OPCODE_SAMPLE_C_LZ "sample_c_lz" Inst, 0, [R, F, R, R, F];
    72 D3D10_SB_OPCODE_SAMPLE_L "sample_l" Inst, 0, [R, F, R, R, F];
    73 D3D10_SB_OPCODE_SAMPLE_D "sample_d" Inst, 0, [R, F, R, R, F, F];
    74 D3D10_SB_OPCODE_SAMPLE_B "sample_b" Inst, 0, [R, F, R, R, F];
    75 D3D10_SB_OPCODE_SQRT "sqrt" Inst, 0, [R, F];
    76 D3D10_SB_OPCODE_SWITCH "switch" Inst, OPEN, [I];
    77 D3D10_SB_OPCODE_SINCOS "sincos" Inst, TWO_DESTINATIONS, [R, R, F];
    78 D3D10_SB_OPCODE_UDIV "udiv" Inst, TWO_DESTINATIONS, [R, R, I, I];
    79 D3D10_SB_OPCODE_ULT "ult" Inst, 0, [R, I, I];
    80 D3D10_SB_OPCODE_UGE "uge" Inst, 0, [R, I, I];
    81 D3D10_SB_OPCODE_UMUL "umul" Inst, TWO_DESTINATIONS, [R, R, I, I];
    82 D3D10_SB_OPCODE_UMAD "umad" Inst, 0, [R, I, I, I];
    83 D3D10_SB_OPCODE_UMAX "umax" Inst, 0, [R, I, I];
    84 D3D10_SB_OPCODE_UMIN "umin" Inst, 0, [R, I, I];
    85 D3D10_SB_OPCODE_USHR "ushr" Inst, 0, [R, I, I];
    86 D3D10_SB_OPCODE_UTOF "utof" Inst, 0, [R, I];
    87 D3D10_SB_OPCODE_XOR "xor" Inst, 0, [R, I, I];
    88 D3D10_SB_OPCODE_DCL_RESOURCE "dcl_resource" Dcl(D::Resource), 0, [] => [Dimension, SampleCount, ReturnType(0), Text(" "), Register, Space(1)];
    89 D3D10_SB_OPCODE_DCL_CONSTANT_BUFFER "dcl_constantbuffer" Dcl(D::ConstantBuffer), 0, [] => [ConstantBuffer, Text(", "), Named(1, ConstantBufferAccessPattern), Space(1)];
    90 D3D10_SB_OPCODE_DCL_SAMPLER "dcl_sampler" Dcl(D::Sampler), 0, [] => [Register, Text(", "), Named(0xf, SamplerMode), Space(0)];
    91 D3D10_SB_OPCODE_DCL_INDEX_RANGE "dcl_indexrange" Dcl(D::IndexRange), 0, [] => [Operand, Text(" "), Value(0, "index range count")];
    92 D3D10_SB_OPCODE_DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY "dcl_outputtopology" Dcl(D::GsOutputTopology), 0, [] => [Named(0x3f, PrimitiveTopology), Blank];
    93 D3D10_SB_OPCODE_DCL_GS_INPUT_PRIMITIVE "dcl_inputprimitive" Dcl(D::GsInputPrimitive), 0, [] => [Named(0x3f, Primitive), Blank];
    94 D3D10_SB_OPCODE_DCL_MAX_OUTPUT_VERTEX_COUNT "dcl_maxout" Dcl(D::MaxOutputVertexCount), 0, [] => [Value(0, "declaration value")];
    95 D3D10_SB_OPCODE_DCL_INPUT "dcl_input" Dcl(D::Input), 0, [] => [Operand];
    96 D3D10_SB_OPCODE_DCL_INPUT_SGV "dcl_input_sgv" Dcl(D::InputSgv), 0, [] => [Operand, Text(", "), SystemValue(0)];
    97 D3D10_SB_OPCODE_DCL_INPUT_SIV "dcl_input_siv" Dcl(D::InputSiv), 0, [] => [Operand, Text(", "), SystemValue(0)];
    98 D3D10_SB_OPCODE_DCL_INPUT_PS "dcl_input_ps" Dcl(D::InputPs), 0, [] => [Interpolation(false), Operand];
    99 D3D10_SB_OPCODE_DCL_INPUT_PS_SGV "dcl_input_ps_sgv" Dcl(D::InputPsSgv), 0, [] => [Interpolation(true), Operand, Text(", "), SystemValue(0)];
    100 D3D10_SB_OPCODE_DCL_INPUT_PS_SIV "dcl_input_ps_siv" Dcl(D::InputPsSiv), 0, [] => [Interpolation(false), Operand, Text(", "), SystemValue(0)];
    101 D3D10_SB_OPCODE_DCL_OUTPUT "dcl_output" Dcl(D::Output), 0, [] => [Operand];
    102 D3D10_SB_OPCODE_DCL_OUTPUT_SGV "dcl_output_sgv" Dcl(D::OutputSgv), 0, [] => [Operand, Text(", "), SystemValue(0)];
    103 D3D10_SB_OPCODE_DCL_OUTPUT_SIV "dcl_output_siv" Dcl(D::OutputSiv), 0, [] => [Operand, Text(", "), SystemValue(0)];
    104 D3D10_SB_OPCODE_DCL_TEMPS "dcl_temps" Dcl(D::Temps), 0, [] => [Value(0, "declaration value")];
    105 D3D10_SB_OPCODE_DCL_INDEXABLE_TEMP "dcl_indexableTemp" Dcl(D::IndexableTemp), 0, [] => [IndexableTemp, Text(", "), Value(2, "indexable temp components")];
    106 D3D10_SB_OPCODE_DCL_GLOBAL_FLAGS "dcl_globalFlags" Dcl(D::GlobalFlags), 0, [] => [GlobalFlags];
    // 107 D3D10_SB_OPCODE_RESERVED0: not an instruction.
    108 D3D10_1_SB_OPCODE_LOD "lod" Inst, 0, [R, F, R, R];
    109 D3D10_1_SB_OPCODE_GATHER4 "gather4" Inst, 0, [R, F, R, R];
    110 D3D10_1_SB_OPCODE_SAMPLE_POS "samplepos" Inst, TRAILING_ZERO, [R, R, I];
    111 D3D10_1_SB_OPCODE_SAMPLE_INFO "sampleinfo" Inst, UINT_RET_TYPE, [R, R];
    // 112 D3D10_1_SB_OPCODE_RESERVED1: not an instruction.
    113 D3D11_SB_OPCODE_HS_DECLS "hs_decls" Phase, 0, [];
    114 D3D11_SB_OPCODE_HS_CONTROL_POINT_PHASE "hs_control_point_phase" Phase, 0, [];
    115 D3D11_SB_OPCODE_HS_FORK_PHASE "hs_fork_phase" Phase, 0, [];
    116 D3D11_SB_OPCODE_HS_JOIN_PHASE "hs_join_phase" Phase, 0, [];
    117 D3D11_SB_OPCODE_EMIT_STREAM "emit_stream" Inst, 0, [R];
    118 D3D11_SB_OPCODE_CUT_STREAM "cut_stream" Inst, 0, [R];
    119 D3D11_SB_OPCODE_EMITTHENCUT_STREAM "emit_then_cut_stream" Inst, 0, [R];
    120 D3D11_SB_OPCODE_INTERFACE_CALL "fcall" InterfaceCall, 0, [R];
    121 D3D11_SB_OPCODE_BUFINFO "bufinfo" Inst, 0, [R, R];
    122 D3D11_SB_OPCODE_DERIV_RTX_COARSE "deriv_rtx_coarse" Inst, 0, [R, F];
    123 D3D11_SB_OPCODE_DERIV_RTX_FINE "deriv_rtx_fine" Inst, 0, [R, F];
    124 D3D11_SB_OPCODE_DERIV_RTY_COARSE "deriv_rty_coarse" Inst, 0, [R, F];
    125 D3D11_SB_OPCODE_DERIV_RTY_FINE "deriv_rty_fine" Inst, 0, [R, F];
    126 D3D11_SB_OPCODE_GATHER4_C "gather4_c" Inst, 0, [R, F, R, R, F];
    127 D3D11_SB_OPCODE_GATHER4_PO "gather4_po" Inst, 0, [R, F, I, R, R];
    128 D3D11_SB_OPCODE_GATHER4_PO_C "gather4_po_c" Inst, 0, [R, F, I, R, R, F];
    129 D3D11_SB_OPCODE_RCP "rcp" Inst, 0, [R, F];
    130 D3D11_SB_OPCODE_F32TOF16 "f32tof16" Inst, 0, [R, F];
    131 D3D11_SB_OPCODE_F16TOF32 "f16tof32" Inst, 0, [R, I];
    132 D3D11_SB_OPCODE_UADDC "uaddc" Inst, TWO_DESTINATIONS, [R, R, I, I];
    133 D3D11_SB_OPCODE_USUBB "usubb" Inst, TWO_DESTINATIONS, [R, R, I, I];
    134 D3D11_SB_OPCODE_COUNTBITS "countbits" Inst, 0, [R, I];
    135 D3D11_SB_OPCODE_FIRSTBIT_HI "firstbit_hi" Inst, 0, [R, I];
    136 D3D11_SB_OPCODE_FIRSTBIT_LO "firstbit_lo" Inst, 0, [R, I];
    137 D3D11_SB_OPCODE_FIRSTBIT_SHI "firstbit_shi" Inst, 0, [R, I];
    138 D3D11_SB_OPCODE_UBFE "ubfe" Inst, 0, [R, I, I, I];
    139 D3D11_SB_OPCODE_IBFE "ibfe" Inst, 0, [R, I, I, I];
    140 D3D11_SB_OPCODE_BFI "bfi" Inst, 0, [R, I, I, I, I];
    141 D3D11_SB_OPCODE_BFREV "bfrev" Inst, 0, [R, I];
    142 D3D11_SB_OPCODE_SWAPC "swapc" Inst, TWO_DESTINATIONS, [R, R, I, X, X];
    143 D3D11_SB_OPCODE_DCL_STREAM "dcl_stream" Dcl(D::Stream), 0, [] => [Operand];
    144 D3D11_SB_OPCODE_DCL_FUNCTION_BODY "dcl_function_body" Dcl(D::FunctionBody), 0, [] => [Label("fb", 0, "declaration value")];
    145 D3D11_SB_OPCODE_DCL_FUNCTION_TABLE "dcl_function_table" Dcl(D::FunctionTable), 0, [] => [FunctionTable];
    146 D3D11_SB_OPCODE_DCL_INTERFACE "dcl_interface" Dcl(D::Interface), 0, [] => [Flag(1, "_dynamicindexed"), Interface];
    147 D3D11_SB_OPCODE_DCL_INPUT_CONTROL_POINT_COUNT "dcl_input_control_point_count" Dcl(D::InputControlPointCount), 0, [] => [Count(0x3f)];
    148 D3D11_SB_OPCODE_DCL_OUTPUT_CONTROL_POINT_COUNT "dcl_output_control_point_count" Dcl(D::OutputControlPointCount), 0, [] => [Count(0x3f)];
    149 D3D11_SB_OPCODE_DCL_TESS_DOMAIN "dcl_tessellator_domain" Dcl(D::TessDomain), 0, [] => [Named(3, TessellatorDomain)];
    150 D3D11_SB_OPCODE_DCL_TESS_PARTITIONING "dcl_tessellator_partitioning" Dcl(D::TessPartitioning), 0, [] => [Named(7, TessellatorPartitioning)];
    151 D3D11_SB_OPCODE_DCL_TESS_OUTPUT_PRIMITIVE "dcl_tessellator_output_primitive" Dcl(D::TessOutputPrimitive), 0, [] => [Named(7, TessellatorOutputPrimitive)];
    152 D3D11_SB_OPCODE_DCL_HS_MAX_TESSFACTOR "dcl_hs_max_tessfactor" Dcl(D::HsMaxTessFactor), 0, [] => [Float(0, "max tessfactor")];
    153 D3D11_SB_OPCODE_DCL_HS_FORK_PHASE_INSTANCE_COUNT "dcl_hs_fork_phase_instance_count" Dcl(D::HsForkPhaseInstanceCount), 0, [] => [Value(0, "declaration value")];
    154 D3D11_SB_OPCODE_DCL_HS_JOIN_PHASE_INSTANCE_COUNT "dcl_hs_join_phase_instance_count" Dcl(D::HsJoinPhaseInstanceCount), 0, [] => [Value(0, "declaration value")];
    155 D3D11_SB_OPCODE_DCL_THREAD_GROUP "dcl_thread_group" Dcl(D::ThreadGroup), 0, [] => [Value(0, "thread group size"), Text(", "), Value(1, "thread group size"), Text(", "), Value(2, "thread group size")];
    156 D3D11_SB_OPCODE_DCL_UNORDERED_ACCESS_VIEW_TYPED "dcl_uav_typed" Dcl(D::UavTyped), 0, [] => [Dimension, Flag(GLC, "_glc"), Flag(ROV, "_rov"), ReturnType(0), Text(" "), Register, Space(1)];
    157 D3D11_SB_OPCODE_DCL_UNORDERED_ACCESS_VIEW_RAW "dcl_uav_raw" Dcl(D::UavRaw), 0, [] => [Flag(GLC, "_glc"), Flag(ROV, "_rov"), Register, Space(0)];
    158 D3D11_SB_OPCODE_DCL_UNORDERED_ACCESS_VIEW_STRUCTURED "dcl_uav_structured" Dcl(D::UavStructured), 0, [] => [Flag(GLC, "_glc"), Flag(ROV, "_rov"), Flag(OPC, "_opc"), Register, Text(", "), Value(0, "structure stride"), Space(1)];
    159 D3D11_SB_OPCODE_DCL_THREAD_GROUP_SHARED_MEMORY_RAW "dcl_tgsm_raw" Dcl(D::TgsmRaw), 0, [] => [Register, Text(", "), Value(0, "shared memory size")];
    160 D3D11_SB_OPCODE_DCL_THREAD_GROUP_SHARED_MEMORY_STRUCTURED "dcl_tgsm_structured" Dcl(D::TgsmStructured), 0, [] => [Register, Text(", "), Value(0, "structure stride"), Text(", "), Value(1, "structure count")];
    161 D3D11_SB_OPCODE_DCL_RESOURCE_RAW "dcl_resource_raw" Dcl(D::ResourceRaw), 0, [] => [Register, Space(0)];
    162 D3D11_SB_OPCODE_DCL_RESOURCE_STRUCTURED "dcl_resource_structured" Dcl(D::ResourceStructured), 0, [] => [Register, Text(", "), Value(0, "structure stride"), SpaceOrBlank(1)];
    163 D3D11_SB_OPCODE_LD_UAV_TYPED "ld_uav_typed" Inst, 0, [R, I, R];
    164 D3D11_SB_OPCODE_STORE_UAV_TYPED "store_uav_typed" Inst, 0, [R, X, X];
    165 D3D11_SB_OPCODE_LD_RAW "ld_raw" Inst, 0, [R, I, R];
    166 D3D11_SB_OPCODE_STORE_RAW "store_raw" Inst, 0, [R, I, X];
    167 D3D11_SB_OPCODE_LD_STRUCTURED "ld_structured" Inst, 0, [R, I, I, R];
    168 D3D11_SB_OPCODE_STORE_STRUCTURED "store_structured" Inst, 0, [R, I, I, X];
    169 D3D11_SB_OPCODE_ATOMIC_AND "atomic_and" Inst, 0, [R, I, I];
    170 D3D11_SB_OPCODE_ATOMIC_OR "atomic_or" Inst, 0, [R, I, I];
    171 D3D11_SB_OPCODE_ATOMIC_XOR "atomic_xor" Inst, 0, [R, I, I];
    172 D3D11_SB_OPCODE_ATOMIC_CMP_STORE "atomic_cmp_store" Inst, 0, [R, I, I, I];
    173 D3D11_SB_OPCODE_ATOMIC_IADD "atomic_iadd" Inst, 0, [R, I, I];
    174 D3D11_SB_OPCODE_ATOMIC_IMAX "atomic_imax" Inst, 0, [R, I, I];
    175 D3D11_SB_OPCODE_ATOMIC_IMIN "atomic_imin" Inst, 0, [R, I, I];
    176 D3D11_SB_OPCODE_ATOMIC_UMAX "atomic_umax" Inst, 0, [R, I, I];
    177 D3D11_SB_OPCODE_ATOMIC_UMIN "atomic_umin" Inst, 0, [R, I, I];
    178 D3D11_SB_OPCODE_IMM_ATOMIC_ALLOC "imm_atomic_alloc" Inst, TWO_DESTINATIONS, [R, R];
    179 D3D11_SB_OPCODE_IMM_ATOMIC_CONSUME "imm_atomic_consume" Inst, TWO_DESTINATIONS, [R, R];
    180 D3D11_SB_OPCODE_IMM_ATOMIC_IADD "imm_atomic_iadd" Inst, TWO_DESTINATIONS, [R, R, I, I];
    181 D3D11_SB_OPCODE_IMM_ATOMIC_AND "imm_atomic_and" Inst, TWO_DESTINATIONS, [R, R, I, I];
    182 D3D11_SB_OPCODE_IMM_ATOMIC_OR "imm_atomic_or" Inst, TWO_DESTINATIONS, [R, R, I, I];
    183 D3D11_SB_OPCODE_IMM_ATOMIC_XOR "imm_atomic_xor" Inst, TWO_DESTINATIONS, [R, R, I, I];
    184 D3D11_SB_OPCODE_IMM_ATOMIC_EXCH "imm_atomic_exch" Inst, TWO_DESTINATIONS, [R, R, I, I];
    185 D3D11_SB_OPCODE_IMM_ATOMIC_CMP_EXCH "imm_atomic_cmp_exch" Inst, TWO_DESTINATIONS, [R, R, I, I, I];
    186 D3D11_SB_OPCODE_IMM_ATOMIC_IMAX "imm_atomic_imax" Inst, TWO_DESTINATIONS, [R, R, I, I];
    187 D3D11_SB_OPCODE_IMM_ATOMIC_IMIN "imm_atomic_imin" Inst, TWO_DESTINATIONS, [R, R, I, I];
    188 D3D11_SB_OPCODE_IMM_ATOMIC_UMAX "imm_atomic_umax" Inst, TWO_DESTINATIONS, [R, R, I, I];
    189 D3D11_SB_OPCODE_IMM_ATOMIC_UMIN "imm_atomic_umin" Inst, TWO_DESTINATIONS, [R, R, I, I];
    190 D3D11_SB_OPCODE_SYNC "sync" Sync, 0, [];
    191 D3D11_SB_OPCODE_DADD "dadd" Inst, DOUBLE, [R, D, D];
    192 D3D11_SB_OPCODE_DMAX "dmax" Inst, DOUBLE, [R, D, D];
    193 D3D11_SB_OPCODE_DMIN "dmin" Inst, DOUBLE, [R, D, D];
    194 D3D11_SB_OPCODE_DMUL "dmul" Inst, DOUBLE, [R, D, D];
    195 D3D11_SB_OPCODE_DEQ "deq" Inst, DOUBLE, [R, D, D];
    196 D3D11_SB_OPCODE_DGE "dge" Inst, DOUBLE, [R, D, D];
    197 D3D11_SB_OPCODE_DLT "dlt" Inst, DOUBLE, [R, D, D];
    198 D3D11_SB_OPCODE_DNE "dne" Inst, DOUBLE, [R, D, D];
    199 D3D11_SB_OPCODE_DMOV "dmov" Inst, DOUBLE, [R, D];
    200 D3D11_SB_OPCODE_DMOVC "dmovc" Inst, DOUBLE, [R, I, D, D];
    201 D3D11_SB_OPCODE_DTOF "dtof" Inst, DOUBLE, [R, D];
    202 D3D11_SB_OPCODE_FTOD "ftod" Inst, DOUBLE, [R, F];
    203 D3D11_SB_OPCODE_EVAL_SNAPPED "eval_snapped" Inst, 0, [R, R, I];
    204 D3D11_SB_OPCODE_EVAL_SAMPLE_INDEX "eval_sample_index" Inst, 0, [R, R, I];
    205 D3D11_SB_OPCODE_EVAL_CENTROID "eval_centroid" Inst, 0, [R, R];
    206 D3D11_SB_OPCODE_DCL_GS_INSTANCE_COUNT "dcl_gsinstances" Dcl(D::GsInstanceCount), 0, [] => [Value(0, "declaration value")];
    207 D3D11_SB_OPCODE_ABORT "abort" Inst, 0, [];
    208 D3D11_SB_OPCODE_DEBUG_BREAK "debug_break" Inst, 0, [];
    // 209 D3D11_SB_OPCODE_RESERVED0: not an instruction.
    210 D3D11_1_SB_OPCODE_DDIV "ddiv" Inst, DOUBLE, [R, D, D];
    211 D3D11_1_SB_OPCODE_DFMA "dfma" Inst, DOUBLE, [R, D, D, D];
    212 D3D11_1_SB_OPCODE_DRCP "drcp" Inst, DOUBLE, [R, D];
    213 D3D11_1_SB_OPCODE_MSAD "msad" Inst, 0, [R, I, I, I];
    214 D3D11_1_SB_OPCODE_DTOI "dtoi" Inst, DOUBLE, [R, D];
    215 D3D11_1_SB_OPCODE_DTOU "dtou" Inst, DOUBLE, [R, D];
    216 D3D11_1_SB_OPCODE_ITOD "itod" Inst, DOUBLE, [R, I];
    217 D3D11_1_SB_OPCODE_UTOD "utod" Inst, DOUBLE, [R, I];
    // 218 D3D11_1_SB_OPCODE_RESERVED0: not an instruction.
    219 D3DWDDM1_3_SB_OPCODE_GATHER4_FEEDBACK "gather4_s" Inst, TWO_DESTINATIONS, [R, R, F, R, R];
    220 D3DWDDM1_3_SB_OPCODE_GATHER4_C_FEEDBACK "gather4_c_s" Inst, TWO_DESTINATIONS, [R, R, F, R, R, F];
    221 D3DWDDM1_3_SB_OPCODE_GATHER4_PO_FEEDBACK "gather4_po_s" Inst, TWO_DESTINATIONS, [R, R, F, I, R, R];
    222 D3DWDDM1_3_SB_OPCODE_GATHER4_PO_C_FEEDBACK "gather4_po_c_s" Inst, TWO_DESTINATIONS, [R, R, F, I, R, R, F];
    223 D3DWDDM1_3_SB_OPCODE_LD_FEEDBACK "ld_s" Inst, TWO_DESTINATIONS, [R, R, I, R];
    224 D3DWDDM1_3_SB_OPCODE_LD_MS_FEEDBACK "ldms_s" Inst, TWO_DESTINATIONS, [R, R, I, R, I];
    225 D3DWDDM1_3_SB_OPCODE_LD_UAV_TYPED_FEEDBACK "ld_uav_typed_s" Inst, TWO_DESTINATIONS, [R, R, I, R];
    226 D3DWDDM1_3_SB_OPCODE_LD_RAW_FEEDBACK "ld_raw_s" Inst, TWO_DESTINATIONS, [R, R, I, R];
    227 D3DWDDM1_3_SB_OPCODE_LD_STRUCTURED_FEEDBACK "ld_structured_s" Inst, TWO_DESTINATIONS, [R, R, I, I, R];
    228 D3DWDDM1_3_SB_OPCODE_SAMPLE_L_FEEDBACK "sample_l_s" Inst, TWO_DESTINATIONS | TRAILING_ZERO, [R, R, F, R, R, F];
    229 D3DWDDM1_3_SB_OPCODE_SAMPLE_C_LZ_FEEDBACK "sample_c_lz_s" Inst, TWO_DESTINATIONS | TRAILING_ZERO, [R, R, F, R, R, F];
    230 D3DWDDM1_3_SB_OPCODE_SAMPLE_CLAMP_FEEDBACK "sample_cl_s" Inst, TWO_DESTINATIONS | TRAILING_ZERO, [R, R, F, R, R, F];
    231 D3DWDDM1_3_SB_OPCODE_SAMPLE_B_CLAMP_FEEDBACK "sample_b_cl_s" Inst, TWO_DESTINATIONS | TRAILING_ZERO, [R, R, F, R, R, F, F];
    232 D3DWDDM1_3_SB_OPCODE_SAMPLE_D_CLAMP_FEEDBACK "sample_d_cl_s" Inst, TWO_DESTINATIONS | TRAILING_ZERO, [R, R, F, R, R, F, F, F];
    233 D3DWDDM1_3_SB_OPCODE_SAMPLE_C_CLAMP_FEEDBACK "sample_c_cl_s" Inst, TWO_DESTINATIONS | TRAILING_ZERO, [R, R, F, R, R, F, F];
    234 D3DWDDM1_3_SB_OPCODE_CHECK_ACCESS_FULLY_MAPPED "check_access_fully_mapped" Inst, 0, [R, I];
}

/// Highest opcode number in the table.
const MAX_OPCODE: usize = 234;

/// Opcode number → row of [`TABLE`], built once at compile time.
static INDEX: [u8; MAX_OPCODE + 1] = build_index();

// Only ever evaluated at compile time (for `INDEX`): an out-of-range index fails the build, so
// the indexing below cannot panic at run time.
#[allow(clippy::indexing_slicing)]
const fn build_index() -> [u8; MAX_OPCODE + 1] {
    let mut index = [u8::MAX; MAX_OPCODE + 1];
    let mut row = 0;
    while row < TABLE.len() {
        let op = TABLE[row].opcode as usize;
        assert!(op <= MAX_OPCODE && row < u8::MAX as usize);
        index[op] = row as u8;
        row += 1;
    }
    index
}

/// The table row of `opcode`, or `None` for a number the format does not define.
#[inline]
pub fn info(opcode: u16) -> Option<&'static OpInfo> {
    let row = *INDEX.get(usize::from(opcode))?;
    TABLE.get(usize::from(row))
}

/// The mnemonics of the table's rows as table texts, for the listing.
static MNEMONICS: [Short<32>; TABLE.len()] = mnemonics();

// Only evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn mnemonics() -> [Short<32>; TABLE.len()] {
    let mut t = [Short::new(""); TABLE.len()];
    let mut row = 0;
    while row < TABLE.len() {
        t[row] = Short::new(TABLE[row].mnemonic);
        row += 1;
    }
    t
}

/// fxc's mnemonic of a defined opcode, as a table text.
#[inline]
pub(crate) fn mnemonic_short(opcode: u16) -> Option<&'static Short<32>> {
    let row = *INDEX.get(usize::from(opcode))?;
    MNEMONICS.get(usize::from(row))
}

/// Every row of the table, in opcode order.
pub fn all() -> &'static [OpInfo] {
    TABLE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_sorted_unique_and_indexed() {
        for w in all().windows(2) {
            assert!(w[0].opcode < w[1].opcode, "{} before {}", w[0].name, w[1].name);
        }
        for row in all() {
            assert_eq!(info(row.opcode).map(|r| r.name), Some(row.name));
        }
        for reserved in [107, 112, 209, 218, 235, 2047] {
            assert!(info(reserved).is_none(), "{reserved}");
        }
    }

    #[test]
    fn numbers_match_the_header() {
        assert_eq!(op::D3D10_SB_OPCODE_CUSTOMDATA, CUSTOMDATA);
        assert_eq!(op::D3D10_SB_OPCODE_DCL_CONSTANT_BUFFER, 0x59);
        assert_eq!(op::D3D10_SB_OPCODE_DCL_GLOBAL_FLAGS, 0x6a);
        assert_eq!(op::D3D11_SB_OPCODE_SYNC, 0xbe);
        assert_eq!(op::D3D11_SB_OPCODE_EVAL_SNAPPED, 0xcb);
        assert_eq!(op::D3D11_1_SB_OPCODE_UTOD, 0xd9);
    }
}
