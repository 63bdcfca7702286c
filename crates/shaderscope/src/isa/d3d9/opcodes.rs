//! The Direct3D 9 opcode table: the one place that knows each instruction's code, mnemonic,
//! operand layout and instruction-slot cost.
//!
//! Codes and names follow `D3DSHADER_INSTRUCTION_OPCODE_TYPE` in Microsoft's `d3d9types.h`
//! (`D3DSIO_*`). Operand counts matter for shader model 1, whose instruction tokens carry no
//! length; from shader model 2 on, the length field in bits 24–27 is authoritative and the
//! counts here are only checked. Each row's [`Slots`] are what the "approximately N instruction
//! slots used" line of fxc's listings counts for it in each shader model.
//!
//! ```
//! use shaderscope::isa::d3d9::opcodes::{self, Form, Opcode};
//! use shaderscope::isa::d3d9::Version;
//!
//! // Bits 0-15 of an instruction token: 0x42 is D3DSIO_TEX.
//! let tex = opcodes::lookup(0x42).unwrap();
//! assert_eq!((tex.opcode, tex.name, tex.form), (Opcode::Tex, "texld", Form::Tex));
//! let ps_1_1 = Version::from_token(0xffff_0101).unwrap();
//! let ps_3_0 = Version::from_token(0xffff_0300).unwrap();
//! assert!(tex.available(ps_1_1) && tex.available(ps_3_0));
//! assert_eq!(tex.srcs[ps_1_1.src_column()], 0); // `tex t0`: no source in ps_1_1
//! // (total, of which texture) slots.
//! assert_eq!(tex.slots.in_version(ps_3_0), (1, 1));
//!
//! let sincos = opcodes::lookup(0x25).unwrap();
//! assert_eq!((sincos.name, sincos.slots.in_version(ps_3_0)), ("sincos", (8, 0)));
//! assert_eq!(opcodes::lookup(0x31), None);
//! assert_eq!(opcodes::comparison_name(4), Some("lt"));
//! ```

use super::{ShaderKind, Version};

/// How many source parameters an instruction takes, by shader model:
/// `[1.0–1.3, 1.4, 2.x, 3.0]` (index with [`Version::src_column`]).
pub type SrcCounts = [u8; 4];

/// The instruction slots fxc's statistics line (`// approximately 12 instruction slots used
/// (3 texture, 9 arithmetic)`) counts for one instruction, per shader-model column
/// ([`Version::slot_column`]): vs_1_1, vs_2_0/vs_2_x/vs_2_sw, vs_3_0/vs_3_sw, ps_1_0 to ps_1_3,
/// ps_1_4, ps_2_0/ps_2_x/ps_2_sw, ps_3_0/ps_3_sw; each column (arithmetic, texture).
///
/// The numbers are those of Microsoft's per-version instruction tables
/// (`dx9-graphics-reference-asm-{vs,ps}-instructions-*`), which count what the hardware
/// executes, corrected where fxc's own listings count otherwise:
/// - `lrp` is 1 slot everywhere (the tables say 2 from shader model 2 on): fxc's ps_3_0
///   listings in the corpus, fxc 9.29's vs_2_0 listings (librw) and fxc 10.1's ps_2_0;
/// - `nop` is no slot (the tables say 1 from shader model 2 on): fxc 6.3's ps_2_x listings
///   (the level-9 programs of nanovg's headers), as the ps_1_x table says;
/// - `texkill` is an arithmetic slot from ps_2_0 on, `texldl` 2 texture slots, `texldd` 1
///   texture and 2 arithmetic slots, `texldp` and `texldb` 1 texture slot (the corpus);
///   the tables count more for some of them on some hardware (their notes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slots(pub [(u8, u8); 7]);

impl Slots {
    /// `(total slots, of which texture slots)` in `version`.
    pub fn in_version(self, version: Version) -> (u32, u32) {
        let (arithmetic, texture) = self.0.get(version.slot_column()).copied().unwrap_or((0, 0));
        (u32::from(arithmetic) + u32::from(texture), u32::from(texture))
    }
}

/// `n` arithmetic (or flow-control) slots in every version.
const fn alu(n: u8) -> Slots {
    Slots([(n, 0); 7])
}

/// `n` texture slots in every version.
const fn tex(n: u8) -> Slots {
    Slots([(0, n); 7])
}

/// Arithmetic slots per column.
const fn alu_by(c: [u8; 7]) -> Slots {
    Slots([(c[0], 0), (c[1], 0), (c[2], 0), (c[3], 0), (c[4], 0), (c[5], 0), (c[6], 0)])
}

/// No slot: declarations, definitions, labels, `nop`.
const FREE: Slots = alu(0);
/// `exp` and `log`, macros of 10 slots in vs_1_1.
const EXP_LOG: Slots = alu_by([10, 1, 1, 1, 1, 1, 1]);
/// `cmp` and `dp4`: 2 slots in ps_1_2 and ps_1_3.
const PS12_TWO: Slots = alu_by([1, 1, 1, 2, 1, 1, 1]);
/// `texkill`: a texture instruction in ps_1_x, an arithmetic one from ps_2_0 on.
const TEXKILL: Slots = Slots([(1, 0), (1, 0), (1, 0), (0, 1), (0, 1), (1, 0), (1, 0)]);

/// How an instruction is laid out and named beyond "destination, then sources".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Destination (if any), optional predicate, sources.
    Plain,
    /// Bits 16–18 of the instruction token hold a comparison (`D3DSHADER_COMPARISON`),
    /// printed as a suffix: `if_lt`, `break_ge`, `setp_ne`.
    Compare,
    /// `D3DSIO_TEX`: `tex` in ps_1_0–1_3, `texld` in ps_1_4, and from ps_2_0 `texld`, `texldp`
    /// or `texldb` after bits 16–17 (`D3DSI_TEXLD_PROJECT`, `D3DSI_TEXLD_BIAS`).
    Tex,
    /// `D3DSIO_TEXCOORD`: `texcoord` in ps_1_0–1_3, `texcrd` in ps_1_4.
    TexCoord,
    /// `D3DSIO_DCL`: a usage token (`D3DSP_DCL_USAGE`, `D3DSP_TEXTURETYPE`), then the register.
    Dcl,
    /// `D3DSIO_DEF`: a register and four raw floats.
    Def,
    /// `D3DSIO_DEFI`: a register and four signed integers.
    DefI,
    /// `D3DSIO_DEFB`: a register and one boolean.
    DefB,
}

/// The shader versions an opcode exists in, as packed `major << 4 | minor` bounds (minor 1 of
/// model 2 is `_2_x`; a software `_sw` target counts as minor 15). `[0, 0]`: never.
pub type Versions = [u8; 2];

/// Every version.
const A: Versions = [0x10, 0x3f];
/// None.
const N: Versions = [0, 0];
/// Shader model 2.0 and later.
const S2: Versions = [0x20, 0x3f];
/// `_2_x` and later (the 2.0 extended caps).
const S2X: Versions = [0x21, 0x3f];
/// Shader model 3.
const S3: Versions = [0x30, 0x3f];
/// ps_1_0 to ps_1_4.
const PS1: Versions = [0x10, 0x14];
/// ps_1_0 to ps_1_3 (the texture-addressing instructions ps_1_4 replaced).
const PS13: Versions = [0x10, 0x13];
/// ps_1_2 and ps_1_3.
const PS12_13: Versions = [0x12, 0x13];
/// ps_1_3 only.
const PS13_13: Versions = [0x13, 0x13];
/// ps_1_4 only.
const PS14: Versions = [0x14, 0x14];
/// ps_1_2 and later.
const P12UP: Versions = [0x12, 0x3f];

/// One row of the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// Value of bits 0–15 of the instruction token.
    pub code: u16,
    /// Mnemonic as fxc prints it (before suffixes).
    pub name: &'static str,
    /// Destination parameters (0 or 1).
    pub dst: u8,
    /// Source parameters per shader model, see [`SrcCounts`].
    pub srcs: SrcCounts,
    /// Layout and naming.
    pub form: Form,
    /// Instruction slots fxc counts.
    pub slots: Slots,
    /// Vertex shader versions it exists in.
    pub vs: Versions,
    /// Pixel shader versions it exists in.
    pub ps: Versions,
}

macro_rules! opcodes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $name:literal, $vs:ident, $ps:ident,
        dst $dst:literal, src $srcs:expr, $form:ident, $slots:expr; )*) => {
        /// A Direct3D 9 opcode (`D3DSIO_*`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Opcode {
            $( $(#[$doc])* $variant, )*
        }

        /// Every opcode with its properties, in code order.
        pub static TABLE: &[OpInfo] = &[
            $( OpInfo {
                opcode: Opcode::$variant,
                code: $code,
                name: $name,
                dst: $dst,
                srcs: $srcs,
                form: Form::$form,
                slots: $slots,
                vs: $vs,
                ps: $ps,
            }, )*
        ];
    };
}

/// The same source count in every shader model.
const fn n(k: u8) -> SrcCounts {
    [k, k, k, k]
}

opcodes! {
    /// `D3DSIO_NOP`.
    Nop = 0x00, "nop", A, A, dst 0, src n(0), Plain, FREE;
    /// `D3DSIO_MOV`.
    Mov = 0x01, "mov", A, A, dst 1, src n(1), Plain, alu(1);
    /// `D3DSIO_ADD`.
    Add = 0x02, "add", A, A, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_SUB`.
    Sub = 0x03, "sub", A, A, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_MAD`.
    Mad = 0x04, "mad", A, A, dst 1, src n(3), Plain, alu(1);
    /// `D3DSIO_MUL`.
    Mul = 0x05, "mul", A, A, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_RCP`.
    Rcp = 0x06, "rcp", A, S2, dst 1, src n(1), Plain, alu(1);
    /// `D3DSIO_RSQ`.
    Rsq = 0x07, "rsq", A, S2, dst 1, src n(1), Plain, alu(1);
    /// `D3DSIO_DP3`.
    Dp3 = 0x08, "dp3", A, A, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_DP4`.
    Dp4 = 0x09, "dp4", A, P12UP, dst 1, src n(2), Plain, PS12_TWO;
    /// `D3DSIO_MIN`.
    Min = 0x0a, "min", A, S2, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_MAX`.
    Max = 0x0b, "max", A, S2, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_SLT`.
    Slt = 0x0c, "slt", A, N, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_SGE`.
    Sge = 0x0d, "sge", A, N, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_EXP`: emulated with 10 slots in vs_1_1.
    Exp = 0x0e, "exp", A, S2, dst 1, src n(1), Plain, EXP_LOG;
    /// `D3DSIO_LOG`: emulated with 10 slots in vs_1_1.
    Log = 0x0f, "log", A, S2, dst 1, src n(1), Plain, EXP_LOG;
    /// `D3DSIO_LIT`: 1 slot in vs_1_1, 3 later.
    Lit = 0x10, "lit", A, N, dst 1, src n(1), Plain, alu_by([1, 3, 3, 3, 3, 3, 3]);
    /// `D3DSIO_DST`.
    Dst = 0x11, "dst", A, N, dst 1, src n(2), Plain, alu(1);
    /// `D3DSIO_LRP`.
    Lrp = 0x12, "lrp", S2, A, dst 1, src n(3), Plain, alu(1);
    /// `D3DSIO_FRC`: 3 slots in vs_1_1.
    Frc = 0x13, "frc", A, S2, dst 1, src n(1), Plain, alu_by([3, 1, 1, 1, 1, 1, 1]);
    /// `D3DSIO_M4x4`.
    M4x4 = 0x14, "m4x4", A, S2, dst 1, src n(2), Plain, alu(4);
    /// `D3DSIO_M4x3`.
    M4x3 = 0x15, "m4x3", A, S2, dst 1, src n(2), Plain, alu(3);
    /// `D3DSIO_M3x4`.
    M3x4 = 0x16, "m3x4", A, S2, dst 1, src n(2), Plain, alu(4);
    /// `D3DSIO_M3x3`.
    M3x3 = 0x17, "m3x3", A, S2, dst 1, src n(2), Plain, alu(3);
    /// `D3DSIO_M3x2`.
    M3x2 = 0x18, "m3x2", A, S2, dst 1, src n(2), Plain, alu(2);
    /// `D3DSIO_CALL`.
    Call = 0x19, "call", S2, S2X, dst 0, src n(1), Plain, alu(2);
    /// `D3DSIO_CALLNZ`.
    CallNz = 0x1a, "callnz", S2, S2X, dst 0, src n(2), Plain, alu(3);
    /// `D3DSIO_LOOP`.
    Loop = 0x1b, "loop", S2, S3, dst 0, src n(2), Plain, alu(3);
    /// `D3DSIO_RET`.
    Ret = 0x1c, "ret", S2, S2X, dst 0, src n(0), Plain, alu(1);
    /// `D3DSIO_ENDLOOP`.
    EndLoop = 0x1d, "endloop", S2, S3, dst 0, src n(0), Plain, alu(2);
    /// `D3DSIO_LABEL`.
    Label = 0x1e, "label", S2, S2X, dst 0, src n(1), Plain, FREE;
    /// `D3DSIO_DCL`.
    Dcl = 0x1f, "dcl", A, S2, dst 1, src n(0), Dcl, FREE;
    /// `D3DSIO_POW`.
    Pow = 0x20, "pow", S2, S2, dst 1, src n(2), Plain, alu(3);
    /// `D3DSIO_CRS`.
    Crs = 0x21, "crs", S2, S2, dst 1, src n(2), Plain, alu(2);
    /// `D3DSIO_SGN`: three sources in vs_2_x (two scratch registers), one in vs_3_0.
    Sgn = 0x22, "sgn", S2, N, dst 1, src [3, 3, 3, 1], Plain, alu(3);
    /// `D3DSIO_ABS`.
    Abs = 0x23, "abs", S2, S2, dst 1, src n(1), Plain, alu(1);
    /// `D3DSIO_NRM`.
    Nrm = 0x24, "nrm", S2, S2, dst 1, src n(1), Plain, alu(3);
    /// `D3DSIO_SINCOS`: three sources in shader model 2 (two constants), one in 3.0.
    SinCos = 0x25, "sincos", S2, S2, dst 1, src [3, 3, 3, 1], Plain, alu(8);
    /// `D3DSIO_REP`.
    Rep = 0x26, "rep", S2, S2X, dst 0, src n(1), Plain, alu(3);
    /// `D3DSIO_ENDREP`.
    EndRep = 0x27, "endrep", S2, S2X, dst 0, src n(0), Plain, alu(2);
    /// `D3DSIO_IF`.
    If = 0x28, "if", S2, S2X, dst 0, src n(1), Plain, alu(3);
    /// `D3DSIO_IFC`: `if_gt` … `if_le`.
    IfC = 0x29, "if", S2X, S2X, dst 0, src n(2), Compare, alu(3);
    /// `D3DSIO_ELSE`.
    Else = 0x2a, "else", S2, S2X, dst 0, src n(0), Plain, alu(1);
    /// `D3DSIO_ENDIF`.
    EndIf = 0x2b, "endif", S2, S2X, dst 0, src n(0), Plain, alu(1);
    /// `D3DSIO_BREAK`.
    Break = 0x2c, "break", S2X, S2X, dst 0, src n(0), Plain, alu(1);
    /// `D3DSIO_BREAKC`: `break_gt` … `break_le`.
    BreakC = 0x2d, "break", S2X, S2X, dst 0, src n(2), Compare, alu(3);
    /// `D3DSIO_MOVA`.
    MovA = 0x2e, "mova", S2, N, dst 1, src n(1), Plain, alu(1);
    /// `D3DSIO_DEFB`.
    DefB = 0x2f, "defb", S2, S2X, dst 1, src n(0), DefB, FREE;
    /// `D3DSIO_DEFI`.
    DefI = 0x30, "defi", S2, S2X, dst 1, src n(0), DefI, FREE;
    /// `D3DSIO_TEXCOORD`: `texcoord t#` in ps_1_0–1_3, `texcrd r#, t#` in ps_1_4.
    TexCoord = 0x40, "texcoord", N, PS1, dst 1, src [0, 1, 1, 1], TexCoord, tex(1);
    /// `D3DSIO_TEXKILL`.
    TexKill = 0x41, "texkill", N, A, dst 1, src n(0), Plain, TEXKILL;
    /// `D3DSIO_TEX`: `tex`, `texld`, `texldp`, `texldb`.
    Tex = 0x42, "texld", N, A, dst 1, src [0, 1, 2, 2], Tex, tex(1);
    /// `D3DSIO_TEXBEM`.
    TexBem = 0x43, "texbem", N, PS13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXBEML`.
    TexBemL = 0x44, "texbeml", N, PS13, dst 1, src n(1), Plain, Slots([(1, 1); 7]);
    /// `D3DSIO_TEXREG2AR`.
    TexReg2Ar = 0x45, "texreg2ar", N, PS13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXREG2GB`.
    TexReg2Gb = 0x46, "texreg2gb", N, PS13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXM3x2PAD`.
    TexM3x2Pad = 0x47, "texm3x2pad", N, PS13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXM3x2TEX`.
    TexM3x2Tex = 0x48, "texm3x2tex", N, PS13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXM3x3PAD`.
    TexM3x3Pad = 0x49, "texm3x3pad", N, PS13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXM3x3TEX`.
    TexM3x3Tex = 0x4a, "texm3x3tex", N, PS13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXM3x3DIFF` (reserved; never shipped in a shader model).
    TexM3x3Diff = 0x4b, "texm3x3diff", N, N, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXM3x3SPEC`: the eye-ray constant is a second source.
    TexM3x3Spec = 0x4c, "texm3x3spec", N, PS13, dst 1, src n(2), Plain, tex(1);
    /// `D3DSIO_TEXM3x3VSPEC`.
    TexM3x3VSpec = 0x4d, "texm3x3vspec", N, PS13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_EXPP`.
    ExpP = 0x4e, "expp", A, N, dst 1, src n(1), Plain, alu(1);
    /// `D3DSIO_LOGP`.
    LogP = 0x4f, "logp", A, N, dst 1, src n(1), Plain, alu(1);
    /// `D3DSIO_CND`.
    Cnd = 0x50, "cnd", N, PS1, dst 1, src n(3), Plain, alu(1);
    /// `D3DSIO_DEF`.
    Def = 0x51, "def", A, A, dst 1, src n(0), Def, FREE;
    /// `D3DSIO_TEXREG2RGB`.
    TexReg2Rgb = 0x52, "texreg2rgb", N, PS12_13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXDP3TEX`.
    TexDp3Tex = 0x53, "texdp3tex", N, PS12_13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXM3x2DEPTH`.
    TexM3x2Depth = 0x54, "texm3x2depth", N, PS13_13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXDP3`.
    TexDp3 = 0x55, "texdp3", N, PS12_13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXM3x3`.
    TexM3x3 = 0x56, "texm3x3", N, PS12_13, dst 1, src n(1), Plain, tex(1);
    /// `D3DSIO_TEXDEPTH`.
    TexDepth = 0x57, "texdepth", N, PS14, dst 1, src n(0), Plain, tex(1);
    /// `D3DSIO_CMP`.
    Cmp = 0x58, "cmp", N, P12UP, dst 1, src n(3), Plain, PS12_TWO;
    /// `D3DSIO_BEM`.
    Bem = 0x59, "bem", N, PS14, dst 1, src n(2), Plain, alu(2);
    /// `D3DSIO_DP2ADD`.
    Dp2Add = 0x5a, "dp2add", N, S2, dst 1, src n(3), Plain, alu(2);
    /// `D3DSIO_DSX`.
    Dsx = 0x5b, "dsx", N, S2X, dst 1, src n(1), Plain, alu(2);
    /// `D3DSIO_DSY`.
    Dsy = 0x5c, "dsy", N, S2X, dst 1, src n(1), Plain, alu(2);
    /// `D3DSIO_TEXLDD`.
    TexLdd = 0x5d, "texldd", N, S2X, dst 1, src n(4), Plain, Slots([(2, 1); 7]);
    /// `D3DSIO_SETP`: `setp_gt` … `setp_le`.
    SetP = 0x5e, "setp", S2X, S2X, dst 1, src n(2), Compare, alu(1);
    /// `D3DSIO_TEXLDL`.
    TexLdl = 0x5f, "texldl", S3, S3, dst 1, src n(2), Plain, tex(2);
    /// `D3DSIO_BREAKP`.
    BreakP = 0x60, "breakp", S2X, S2X, dst 0, src n(1), Plain, alu(3);
    /// `D3DSIO_PHASE`: ps_1_4's switch from the first to the second phase.
    Phase = 0xfffd, "phase", N, PS14, dst 0, src n(0), Plain, FREE;
}

impl OpInfo {
    /// Whether the opcode exists in `version`.
    pub fn available(&self, version: Version) -> bool {
        let [lo, hi] = match version.kind {
            ShaderKind::Vertex => self.vs,
            ShaderKind::Pixel => self.ps,
        };
        let v = version.major << 4 | version.minor.min(0xf);
        lo != 0 && (lo..=hi).contains(&v)
    }
}

/// Bits 0–15 of a comment token (`D3DSIO_COMMENT`); the length in tokens is in bits 16–30.
pub(crate) const COMMENT: u16 = 0xfffe;
/// The end token (`D3DSIO_END`).
pub(crate) const END_TOKEN: u32 = 0x0000_ffff;

/// The table row for `code`, if it is a known opcode.
pub fn lookup(code: u16) -> Option<&'static OpInfo> {
    TABLE.get(row(code)?)
}

/// The index of `code`'s row in [`TABLE`].
fn row(code: u16) -> Option<usize> {
    // Codes 0x00–0x30 and 0x40–0x60 are dense and in order; phase is the last row.
    let index = match code {
        0x00..=0x30 => usize::from(code),
        0x40..=0x60 => usize::from(code) - 0x40 + 0x31,
        0xfffd => TABLE.len().checked_sub(1)?,
        _ => return None,
    };
    TABLE.get(index).is_some_and(|i| i.code == code).then_some(index)
}

/// Name of a `D3DSHADER_COMPARISON` value (bits 16–18 of the instruction token).
pub fn comparison_name(c: u32) -> Option<&'static str> {
    Some(match c {
        1 => "gt",
        2 => "eq",
        3 => "ge",
        4 => "lt",
        5 => "ne",
        6 => "le",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_finds_every_row_by_its_code() {
        for row in TABLE {
            assert_eq!(lookup(row.code).map(|r| r.opcode), Some(row.opcode), "{}", row.name);
        }
        assert!(lookup(0x31).is_none());
        assert!(lookup(0x3f).is_none());
        assert!(lookup(0x61).is_none());
        assert!(lookup(COMMENT).is_none());
    }

    #[test]
    fn availability_by_version() {
        let v = |kind, major, minor| Version { kind, major, minor };
        let row = |code| lookup(code).copied().unwrap();
        let (ps11, ps14, ps20, ps2x, ps30) = (
            v(ShaderKind::Pixel, 1, 1),
            v(ShaderKind::Pixel, 1, 4),
            v(ShaderKind::Pixel, 2, 0),
            v(ShaderKind::Pixel, 2, 1),
            v(ShaderKind::Pixel, 3, 0),
        );
        assert!(row(0x43).available(ps11)); // texbem
        assert!(!row(0x43).available(ps14));
        assert!(row(0xfffd).available(ps14)); // phase
        assert!(!row(0x1f).available(ps11)); // dcl
        assert!(row(0x1f).available(v(ShaderKind::Vertex, 1, 1)));
        assert!(!row(0x5b).available(ps20)); // dsx needs ps_2_x
        assert!(row(0x5b).available(ps2x));
        assert!(!row(0x1b).available(ps2x)); // loop needs ps_3_0
        assert!(row(0x1b).available(ps30));
        assert!(!row(0x2e).available(ps30)); // mova is vertex-only
        assert!(row(0x5f).available(v(ShaderKind::Vertex, 3, 0xff))); // texldl in vs_3_sw
    }

    #[test]
    fn slots_follow_the_version() {
        let v = |kind, major, minor| Version { kind, major, minor };
        let vs11 = v(ShaderKind::Vertex, 1, 1);
        let vs20 = v(ShaderKind::Vertex, 2, 0);
        let vs3sw = v(ShaderKind::Vertex, 3, 0xff);
        let ps13 = v(ShaderKind::Pixel, 1, 3);
        let ps14 = v(ShaderKind::Pixel, 1, 4);
        let ps20 = v(ShaderKind::Pixel, 2, 0);
        let ps2x = v(ShaderKind::Pixel, 2, 1);
        let ps30 = v(ShaderKind::Pixel, 3, 0);
        let slots = |code, version| lookup(code).map(|r| r.slots.in_version(version));
        assert_eq!(slots(0x0e, vs11), Some((10, 0))); // exp
        assert_eq!(slots(0x0e, vs20), Some((1, 0)));
        assert_eq!(slots(0x10, vs11), Some((1, 0))); // lit
        assert_eq!(slots(0x10, vs3sw), Some((3, 0)));
        for version in [vs20, ps13, ps20, ps2x, ps30] {
            assert_eq!(slots(0x12, version), Some((1, 0))); // lrp
            assert_eq!(slots(0x00, version), Some((0, 0))); // nop
        }
        assert_eq!(slots(0x58, ps13), Some((2, 0))); // cmp
        assert_eq!(slots(0x58, ps14), Some((1, 0)));
        assert_eq!(slots(0x41, ps13), Some((1, 1))); // texkill
        assert_eq!(slots(0x41, ps20), Some((1, 0)));
        assert_eq!(slots(0x25, ps2x), Some((8, 0))); // sincos
        assert_eq!(slots(0x44, ps13), Some((2, 1))); // texbeml
        assert_eq!(slots(0x5d, ps30), Some((3, 1))); // texldd
        assert_eq!(slots(0x5f, ps30), Some((2, 2))); // texldl
    }
}
