//! The PICA200 opcode table: the single source of truth for decoding, encoding, mnemonics,
//! operand syntax and the source components each instruction reads.
//!
//! Names follow 3dbrew's "Shader Instruction Set" page (upper case, e.g. `LOOP`) and picasso's
//! source syntax (lower case, e.g. `for`). Bit layouts follow 3dbrew and nihstro's
//! `shader_bytecode.h`, cross-checked against every word of the corpus.
//!
//! ```
//! use shaderscope::isa::pica::opcodes::{self, Format, OPCODES, Op};
//!
//! let word = 0x4e00_0000; // mov r0.xyz, v0
//! let row = opcodes::info(word);
//! assert_eq!((row.op, row.name, row.mnemonic, row.format), (Op::Mov, "MOV", "mov", Format::OneU));
//! let l = &row.layout;
//! assert_eq!((l.dst.get(word), l.src1.get(word), l.desc.get(word)), (0x10, 0x00, 0));
//! // LOOP is `for` in picasso's syntax; MAD's opcode is bits 31..29, so it has eight rows.
//! assert_eq!((Op::Loop.info().name, Op::Loop.info().mnemonic), ("LOOP", "for"));
//! assert_eq!(OPCODES.iter().filter(|r| r.op == Op::Mad).count(), 8);
//! assert_eq!(opcodes::info(0x4000_0000).op, Op::Unknown);
//! ```

use crate::toolkit::Field;

/// The bits `f` covers in a 32-bit word, at compile time (the table below is a constant;
/// [`Field::mask`] is the same for run-time use).
const fn bits(f: Field) -> u32 {
    if f.width == 0 || f.width > 32 || f.shift >= 32 {
        0
    } else {
        (u32::MAX >> (32 - f.width as u32)) << f.shift
    }
}

/// Where each operand of an instruction lives in its word. Fields an instruction lacks are
/// [`Field::NONE`]; bits covered by no field (and not by the opcode) are kept verbatim by the
/// decoder so that re-encoding is exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Layout {
    /// Destination register (5 bits: o0–o15, r0–r15).
    pub dst: Field,
    /// Address register applied to the wide source (0 none, 1 a0.x, 2 a0.y, 3 aL).
    pub idx: Field,
    /// First source register.
    pub src1: Field,
    /// Second source register.
    pub src2: Field,
    /// Third source register (MAD/MADI).
    pub src3: Field,
    /// Operand-descriptor index.
    pub desc: Field,
    /// CMP operator for the x component.
    pub cmpx: Field,
    /// CMP operator for the y component.
    pub cmpy: Field,
    /// Condition: reference value for cmp.x.
    pub refx: Field,
    /// Condition: reference value for cmp.y.
    pub refy: Field,
    /// Condition: combination (0 or, 1 and, 2 x only, 3 y only).
    pub condop: Field,
    /// Boolean (b0–b15) or integer (i0–i3) uniform.
    pub uniform: Field,
    /// Word address of the target (branch, block end, procedure).
    pub target: Field,
    /// Instruction count (procedure length, else-block length).
    pub num: Field,
    /// JMPU: jump when the boolean is false.
    pub negate: Field,
    /// SETEMIT: vertex id.
    pub vertex: Field,
    /// SETEMIT: emit a primitive after this vertex.
    pub primitive: Field,
    /// SETEMIT: invert the winding of that primitive.
    pub invert: Field,
}

impl Layout {
    /// An instruction with no operands.
    pub const EMPTY: Layout = Layout {
        dst: Field::NONE,
        idx: Field::NONE,
        src1: Field::NONE,
        src2: Field::NONE,
        src3: Field::NONE,
        desc: Field::NONE,
        cmpx: Field::NONE,
        cmpy: Field::NONE,
        refx: Field::NONE,
        refy: Field::NONE,
        condop: Field::NONE,
        uniform: Field::NONE,
        target: Field::NONE,
        num: Field::NONE,
        negate: Field::NONE,
        vertex: Field::NONE,
        primitive: Field::NONE,
        invert: Field::NONE,
    };

    /// Every field, for masks and exhaustive checks.
    pub const fn fields(&self) -> [Field; 18] {
        [
            self.dst,
            self.idx,
            self.src1,
            self.src2,
            self.src3,
            self.desc,
            self.cmpx,
            self.cmpy,
            self.refx,
            self.refy,
            self.condop,
            self.uniform,
            self.target,
            self.num,
            self.negate,
            self.vertex,
            self.primitive,
            self.invert,
        ]
    }

    /// The bits covered by some field.
    pub const fn mask(&self) -> u32 {
        bits(self.dst)
            | bits(self.idx)
            | bits(self.src1)
            | bits(self.src2)
            | bits(self.src3)
            | bits(self.desc)
            | bits(self.cmpx)
            | bits(self.cmpy)
            | bits(self.refx)
            | bits(self.refy)
            | bits(self.condop)
            | bits(self.uniform)
            | bits(self.target)
            | bits(self.num)
            | bits(self.negate)
            | bits(self.vertex)
            | bits(self.primitive)
            | bits(self.invert)
    }
}

/// Format 1: two sources, the first wide (7 bits, may be a float uniform and relative).
const L1: Layout = Layout {
    dst: Field::at(21, 5),
    idx: Field::at(19, 2),
    src1: Field::at(12, 7),
    src2: Field::at(7, 5),
    desc: Field::at(0, 7),
    ..Layout::EMPTY
};
/// Format 1i: two sources, the second wide (DPHI, DSTI, SGEI, SLTI).
const L1I: Layout = Layout {
    dst: Field::at(21, 5),
    idx: Field::at(19, 2),
    src1: Field::at(14, 5),
    src2: Field::at(7, 7),
    desc: Field::at(0, 7),
    ..Layout::EMPTY
};
/// Format 1u: one wide source; bits 11..7 are unused.
const L1U: Layout = Layout { src2: Field::NONE, ..L1 };
/// MOVA: format 1u without a destination register (the mask selects a0.x / a0.y).
const LMOVA: Layout = Layout { dst: Field::NONE, ..L1U };
/// Format 1c: CMP, with the two comparison operators where format 1 has its destination.
/// The x operator's top bit is the opcode's lowest bit, which is why CMP owns two opcodes.
const L1C: Layout = Layout { dst: Field::NONE, cmpx: Field::at(24, 3), cmpy: Field::at(21, 3), ..L1 };
/// Format 2 condition fields.
const LCOND: Layout =
    Layout { refx: Field::at(25, 1), refy: Field::at(24, 1), condop: Field::at(22, 2), ..Layout::EMPTY };
/// Format 2 with a target and a count (CALLC, IFC).
const L2: Layout = Layout { target: Field::at(10, 12), num: Field::at(0, 8), ..LCOND };
/// JMPC: format 2 without a count.
const L2JMP: Layout = Layout { num: Field::NONE, ..L2 };
/// CALL: format 2 without a condition.
const L2CALL: Layout = Layout { target: Field::at(10, 12), num: Field::at(0, 8), ..Layout::EMPTY };
/// Format 3: a boolean uniform, a target and a count (CALLU, IFU).
const L3: Layout =
    Layout { uniform: Field::at(22, 4), target: Field::at(10, 12), num: Field::at(0, 8), ..Layout::EMPTY };
/// JMPU: the count's lowest bit inverts the test.
const L3JMP: Layout = Layout { num: Field::NONE, negate: Field::at(0, 1), ..L3 };
/// LOOP: an integer uniform (2 bits) and the address of the last body instruction.
const L3LOOP: Layout = Layout { uniform: Field::at(22, 2), target: Field::at(10, 12), ..Layout::EMPTY };
/// Format 4: SETEMIT.
const L4: Layout = Layout {
    vertex: Field::at(24, 2),
    primitive: Field::at(23, 1),
    invert: Field::at(22, 1),
    ..Layout::EMPTY
};
/// Format 5: MAD, second source wide. Only 5 descriptor bits: opdescs 0–31.
const L5: Layout = Layout {
    dst: Field::at(24, 5),
    idx: Field::at(22, 2),
    src1: Field::at(17, 5),
    src2: Field::at(10, 7),
    src3: Field::at(5, 5),
    desc: Field::at(0, 5),
    ..Layout::EMPTY
};
/// Format 5i: MADI, third source wide.
const L5I: Layout = Layout { src2: Field::at(12, 5), src3: Field::at(5, 7), ..L5 };

/// Instruction identity. The discriminant is the (lowest) opcode value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Op {
    Add = 0x00,
    Dp3 = 0x01,
    Dp4 = 0x02,
    Dph = 0x03,
    Dst = 0x04,
    Ex2 = 0x05,
    Lg2 = 0x06,
    Litp = 0x07,
    Mul = 0x08,
    Sge = 0x09,
    Slt = 0x0A,
    Flr = 0x0B,
    Max = 0x0C,
    Min = 0x0D,
    Rcp = 0x0E,
    Rsq = 0x0F,
    Mova = 0x12,
    Mov = 0x13,
    Dphi = 0x18,
    Dsti = 0x19,
    Sgei = 0x1A,
    Slti = 0x1B,
    Break = 0x20,
    #[default]
    Nop = 0x21,
    End = 0x22,
    Breakc = 0x23,
    Call = 0x24,
    Callc = 0x25,
    Callu = 0x26,
    Ifu = 0x27,
    Ifc = 0x28,
    Loop = 0x29,
    Emit = 0x2A,
    Setemit = 0x2B,
    Jmpc = 0x2C,
    Jmpu = 0x2D,
    Cmp = 0x2E,
    Madi = 0x30,
    Mad = 0x38,
    /// An unused opcode (0x10, 0x11, 0x14–0x17, 0x1C–0x1F): the word is kept raw.
    Unknown = 0xFF,
}

/// Encoding family, as numbered on 3dbrew.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Format 0: no operands.
    Zero,
    /// Format 1: dst, wide src1, narrow src2.
    One,
    /// Format 1i: dst, narrow src1, wide src2.
    OneI,
    /// Format 1u: dst, wide src1.
    OneU,
    /// Format 1c: comparison.
    OneC,
    /// Format 2: condition flags, target, count.
    Two,
    /// Format 3: boolean/integer uniform, target, count.
    Three,
    /// Format 4: SETEMIT.
    Four,
    /// Format 5: MAD.
    Five,
    /// Format 5i: MADI.
    FiveI,
    /// Unused opcode.
    Unknown,
}

/// How the operands are written in picasso source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// `nop`
    Bare,
    /// `add dst, src1, src2`
    DstSrcSrc,
    /// `mov dst, src1`
    DstSrc,
    /// `mova a0.xy, src1`
    Mova,
    /// `cmp src1, opx, opy, src2`
    Cmp,
    /// `mad dst, src1, src2, src3`
    Mad,
    /// `breakc cond`
    Cond,
    /// `callc cond, proc`
    CondProc,
    /// `jmpc cond, label`
    CondLabel,
    /// `ifc cond` … `.else` … `.end`
    CondBlock,
    /// `call proc`
    Proc,
    /// `callu bN, proc`
    BoolProc,
    /// `jmpu [!]bN, label`
    BoolLabel,
    /// `ifu bN` … `.else` … `.end`
    BoolBlock,
    /// `for iN` … `.end`
    Loop,
    /// `setemit vtx, prim inv`
    SetEmit,
    /// No picasso spelling.
    Raw,
}

/// Which source components an instruction reads, as picasso's operand-descriptor merging
/// assumes (picasso shares one descriptor between instructions that agree on these lanes, so
/// the others are not preserved by re-assembly and a listing must not show them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lanes {
    /// Every component of every source.
    All,
    /// Component-wise: a source lane is read only where the destination mask writes.
    PerComponent,
    /// DP3: x, y, z of both sources.
    Dp3,
    /// DPH: x, y, z of the first source, all of the second.
    Dph,
    /// Scalar (EX2, LG2, RCP, RSQ): x of the source.
    Scalar,
    /// MOVA: x and/or y of the source, as the mask selects a0.x / a0.y.
    Mova,
    /// CMP: x, y of the first source, all of the second.
    Cmp,
}

/// One row of the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpInfo {
    /// Identity.
    pub op: Op,
    /// 3dbrew name.
    pub name: &'static str,
    /// picasso mnemonic (the i-forms are written with the plain mnemonic; picasso picks the
    /// encoding from the operand kinds).
    pub mnemonic: &'static str,
    /// Encoding family.
    pub format: Format,
    /// Field positions.
    pub layout: Layout,
    /// The bits that identify the opcode (CMP uses bits 31..27, MAD/MADI 31..29, others 31..26).
    pub opcode_mask: u32,
    /// The bits the opcode and the fields cover together; the rest of a word is unused.
    pub covered: u32,
    /// Source syntax.
    pub syntax: Syntax,
    /// Components read.
    pub lanes: Lanes,
}

impl OpInfo {
    /// The opcode bits of this instruction.
    #[inline]
    pub const fn opcode_bits(&self) -> u32 {
        ((self.op as u32) << 26) & self.opcode_mask
    }
}

const OPC6: u32 = 0xFC00_0000;

const fn row(
    op: Op,
    name: &'static str,
    mnemonic: &'static str,
    format: Format,
    layout: Layout,
    syntax: Syntax,
    lanes: Lanes,
) -> OpInfo {
    let opcode_mask = match format {
        Format::OneC => 0xF800_0000,
        Format::Five | Format::FiveI => 0xE000_0000,
        Format::Unknown => 0,
        _ => OPC6,
    };
    let covered = layout.mask() | opcode_mask;
    OpInfo { op, name, mnemonic, format, layout, opcode_mask, covered, syntax, lanes }
}

const fn unknown(name: &'static str) -> OpInfo {
    row(Op::Unknown, name, name, Format::Unknown, Layout::EMPTY, Syntax::Raw, Lanes::All)
}

use Format as F;
use Lanes as Ln;
use Syntax as S;

const ADD: OpInfo = row(Op::Add, "ADD", "add", F::One, L1, S::DstSrcSrc, Ln::PerComponent);
const CMP: OpInfo = row(Op::Cmp, "CMP", "cmp", F::OneC, L1C, S::Cmp, Ln::Cmp);
const MADI: OpInfo = row(Op::Madi, "MADI", "mad", F::FiveI, L5I, S::Mad, Ln::PerComponent);
const MAD: OpInfo = row(Op::Mad, "MAD", "mad", F::Five, L5, S::Mad, Ln::PerComponent);

/// The table, indexed by bits 31..26 of the word.
pub static OPCODES: [OpInfo; 64] = [
    ADD,
    row(Op::Dp3, "DP3", "dp3", F::One, L1, S::DstSrcSrc, Ln::Dp3),
    row(Op::Dp4, "DP4", "dp4", F::One, L1, S::DstSrcSrc, Ln::All),
    row(Op::Dph, "DPH", "dph", F::One, L1, S::DstSrcSrc, Ln::Dph),
    row(Op::Dst, "DST", "dst", F::One, L1, S::DstSrcSrc, Ln::All),
    row(Op::Ex2, "EX2", "ex2", F::OneU, L1U, S::DstSrc, Ln::Scalar),
    row(Op::Lg2, "LG2", "lg2", F::OneU, L1U, S::DstSrc, Ln::Scalar),
    row(Op::Litp, "LITP", "litp", F::OneU, L1U, S::DstSrc, Ln::All),
    row(Op::Mul, "MUL", "mul", F::One, L1, S::DstSrcSrc, Ln::PerComponent),
    row(Op::Sge, "SGE", "sge", F::One, L1, S::DstSrcSrc, Ln::PerComponent),
    row(Op::Slt, "SLT", "slt", F::One, L1, S::DstSrcSrc, Ln::PerComponent),
    row(Op::Flr, "FLR", "flr", F::OneU, L1U, S::DstSrc, Ln::PerComponent),
    row(Op::Max, "MAX", "max", F::One, L1, S::DstSrcSrc, Ln::PerComponent),
    row(Op::Min, "MIN", "min", F::One, L1, S::DstSrcSrc, Ln::PerComponent),
    row(Op::Rcp, "RCP", "rcp", F::OneU, L1U, S::DstSrc, Ln::Scalar),
    row(Op::Rsq, "RSQ", "rsq", F::OneU, L1U, S::DstSrc, Ln::Scalar),
    unknown("unk10"),
    unknown("unk11"),
    row(Op::Mova, "MOVA", "mova", F::OneU, LMOVA, S::Mova, Ln::Mova),
    row(Op::Mov, "MOV", "mov", F::OneU, L1U, S::DstSrc, Ln::PerComponent),
    unknown("unk14"),
    unknown("unk15"),
    unknown("unk16"),
    unknown("unk17"),
    row(Op::Dphi, "DPHI", "dph", F::OneI, L1I, S::DstSrcSrc, Ln::Dph),
    row(Op::Dsti, "DSTI", "dst", F::OneI, L1I, S::DstSrcSrc, Ln::All),
    row(Op::Sgei, "SGEI", "sge", F::OneI, L1I, S::DstSrcSrc, Ln::PerComponent),
    row(Op::Slti, "SLTI", "slt", F::OneI, L1I, S::DstSrcSrc, Ln::PerComponent),
    unknown("unk1c"),
    unknown("unk1d"),
    unknown("unk1e"),
    unknown("unk1f"),
    row(Op::Break, "BREAK", "break", F::Zero, Layout::EMPTY, S::Bare, Ln::All),
    row(Op::Nop, "NOP", "nop", F::Zero, Layout::EMPTY, S::Bare, Ln::All),
    row(Op::End, "END", "end", F::Zero, Layout::EMPTY, S::Bare, Ln::All),
    row(Op::Breakc, "BREAKC", "breakc", F::Two, LCOND, S::Cond, Ln::All),
    row(Op::Call, "CALL", "call", F::Two, L2CALL, S::Proc, Ln::All),
    row(Op::Callc, "CALLC", "callc", F::Two, L2, S::CondProc, Ln::All),
    row(Op::Callu, "CALLU", "callu", F::Three, L3, S::BoolProc, Ln::All),
    row(Op::Ifu, "IFU", "ifu", F::Three, L3, S::BoolBlock, Ln::All),
    row(Op::Ifc, "IFC", "ifc", F::Two, L2, S::CondBlock, Ln::All),
    row(Op::Loop, "LOOP", "for", F::Three, L3LOOP, S::Loop, Ln::All),
    row(Op::Emit, "EMIT", "emit", F::Zero, Layout::EMPTY, S::Bare, Ln::All),
    row(Op::Setemit, "SETEMIT", "setemit", F::Four, L4, S::SetEmit, Ln::All),
    row(Op::Jmpc, "JMPC", "jmpc", F::Two, L2JMP, S::CondLabel, Ln::All),
    row(Op::Jmpu, "JMPU", "jmpu", F::Three, L3JMP, S::BoolLabel, Ln::All),
    CMP,
    CMP,
    MADI,
    MADI,
    MADI,
    MADI,
    MADI,
    MADI,
    MADI,
    MADI,
    MAD,
    MAD,
    MAD,
    MAD,
    MAD,
    MAD,
    MAD,
    MAD,
];

/// The row for [`Op::Unknown`] when no opcode value is at hand.
static UNKNOWN: OpInfo = unknown("unknown");

/// The table row for a word.
#[inline]
pub fn info(word: u32) -> &'static OpInfo {
    // `word >> 26` is below 64, so the fallback is never taken.
    OPCODES.get((word >> 26) as usize).unwrap_or(&UNKNOWN)
}

impl Op {
    /// The table row of this instruction.
    pub fn info(self) -> &'static OpInfo {
        match self {
            Op::Unknown => &UNKNOWN,
            op => OPCODES.get(op as usize).unwrap_or(&UNKNOWN),
        }
    }
}

/// CMP operators 0–5 as picasso spells them (6 and 7 have no spelling; emulators treat them
/// as always true).
pub(crate) const CMP_OPERATORS: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_sit_at_their_opcode() {
        for (i, r) in OPCODES.iter().enumerate() {
            if r.op != Op::Unknown {
                let base = r.op as usize;
                match r.format {
                    Format::OneC => assert_eq!(i & !1, base, "{}", r.name),
                    Format::Five | Format::FiveI => assert_eq!(i & !7, base, "{}", r.name),
                    _ => assert_eq!(i, base, "{}", r.name),
                }
            }
        }
    }

    #[test]
    fn fields_never_overlap_each_other_or_the_opcode() {
        for r in &OPCODES {
            let mut seen = r.opcode_mask;
            for f in r.layout.fields() {
                assert_eq!(bits(f), f.mask::<u32>(), "{}", r.name);
                assert_eq!(seen & bits(f), 0, "{} overlaps", r.name);
                seen |= bits(f);
            }
        }
    }

    #[test]
    fn formats_cover_the_documented_bits() {
        // Formats 1, 1i, 1c, 5 and 5i use every bit of the word.
        for op in [Op::Add, Op::Dphi, Op::Cmp, Op::Mad, Op::Madi] {
            let r = op.info();
            assert_eq!(r.layout.mask() | r.opcode_mask, u32::MAX, "{}", r.name);
        }
        assert_eq!(Op::Mov.info().layout.mask(), 0x03ff_f07f);
        assert_eq!(Op::Mova.info().layout.mask(), 0x001f_f07f);
        assert_eq!(Op::Ifc.info().layout.mask(), 0x03ff_fcff);
        assert_eq!(Op::Loop.info().layout.mask(), 0x00ff_fc00);
        assert_eq!(Op::Setemit.info().layout.mask(), 0x03c0_0000);
    }

    #[test]
    fn lookups_agree() {
        assert_eq!(info(0x4e0a_6002).op, Op::Mov);
        assert_eq!(info(0xb922_5a07).op, Op::Cmp);
        assert_eq!(info(0xbda2_5816).op, Op::Cmp);
        assert_eq!(info(0xf328_5260).op, Op::Mad);
        assert_eq!(info(0xdc21_1fe6).op, Op::Madi);
        assert_eq!(info(0x4000_0000).op, Op::Unknown);
        assert_eq!(Op::Loop.info().mnemonic, "for");
        assert_eq!(Op::Slti.info().mnemonic, "slt");
        assert_eq!(Op::Unknown.info().format, Format::Unknown);
    }
}
