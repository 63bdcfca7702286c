//! A word → the owned [`Instruction`], and what its operands name: operand descriptors,
//! registers, swizzles.
//!
//! [`decode`] never fails: every word decodes, unused opcodes to [`Op::Unknown`] with the word
//! kept whole, and bits that no field of an instruction covers are kept in
//! [`Instruction::unused`]. So `decode(w).encode() == w` for every 32-bit word
//! ([`Instruction::encode`], in `encode.rs`). An instruction is one word, so its byte range is
//! the word's: a [`Program`] (a code blob decoded once) holds each at its word address, and
//! the walk, the listing, the records and the checks all read it from there.

use super::opcodes::{self, Lanes, Op, OpInfo, Syntax};
use crate::toolkit::Field;
use std::fmt;

/// One decoded instruction. Fields the instruction does not have are 0 (see the table's
/// [`opcodes::Layout`] for which it has); values are the raw field contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Instruction {
    /// What it is.
    pub op: Op,
    /// Destination register field (see [`Register::destination`]).
    pub dst: u8,
    /// Address register applied to the wide source: 0 none, 1 a0.x, 2 a0.y, 3 aL.
    pub idx: u8,
    /// Source register fields (see [`Register::source`]).
    pub src: [u8; 3],
    /// Operand-descriptor index.
    pub desc: u8,
    /// CMP operators for x and y (0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge).
    pub cmp: [u8; 2],
    /// Condition reference values for cmp.x and cmp.y (the flag must equal it).
    pub refs: [bool; 2],
    /// Condition combination: 0 or, 1 and, 2 x only, 3 y only.
    pub condop: u8,
    /// Boolean uniform b0–b15 (CALLU, IFU, JMPU) or integer uniform i0–i3 (LOOP).
    pub uniform: u8,
    /// Word address: branch target, end of the if-block, last word of a loop, procedure.
    pub target: u16,
    /// Count: procedure length (CALL*), else-block length (IF*).
    pub num: u8,
    /// JMPU: jump when the boolean is false.
    pub negate: bool,
    /// SETEMIT vertex id.
    pub vertex: u8,
    /// SETEMIT: emit a primitive.
    pub primitive: bool,
    /// SETEMIT: inverted winding.
    pub invert: bool,
    /// Bits of the word that no field of this instruction covers (0 in well-formed code);
    /// for [`Op::Unknown`], the whole word.
    pub unused: u32,
}

#[inline]
fn get(f: Field, w: u32) -> u32 {
    f.get(w)
}

/// Decode one word (never fails).
#[inline]
pub fn decode(word: u32) -> Instruction {
    let row = opcodes::info(word);
    let l = &row.layout;
    Instruction {
        op: row.op,
        dst: get(l.dst, word) as u8,
        idx: get(l.idx, word) as u8,
        src: [get(l.src1, word) as u8, get(l.src2, word) as u8, get(l.src3, word) as u8],
        desc: get(l.desc, word) as u8,
        cmp: [get(l.cmpx, word) as u8, get(l.cmpy, word) as u8],
        refs: [get(l.refx, word) != 0, get(l.refy, word) != 0],
        condop: get(l.condop, word) as u8,
        uniform: get(l.uniform, word) as u8,
        target: get(l.target, word) as u16,
        num: get(l.num, word) as u8,
        negate: get(l.negate, word) != 0,
        vertex: get(l.vertex, word) as u8,
        primitive: get(l.primitive, word) != 0,
        invert: get(l.invert, word) != 0,
        unused: word & !row.covered,
    }
}

/// A code blob decoded once: every word's [`Instruction`] at its word address (instruction
/// `a` is the word at byte `4 × a` of the blob, whose absolute offset the
/// [`SourceContext`](super::SourceContext) or the caller knows), with the words as read. The
/// walk ([`Executables`](super::Executables)), the listing and the records
/// ([`write_source`](super::write_source), [`records`](super::records)), the checks
/// ([`check_program`](super::check_program)) and the listing of code no executable runs
/// ([`write_unreached`](super::write_unreached)) all read the same one.
///
/// ```
/// use shaderscope::isa::pica::{Op, Program};
///
/// // mov r0, v0; end
/// let words = [0x4e00_0000, 0x8800_0000];
/// let program = Program::new(&words);
/// let ops: Vec<Op> = program.instructions().iter().map(|i| i.op).collect();
/// assert_eq!((ops, program.words()), (vec![Op::Mov, Op::End], &words[..]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program<'w> {
    words: &'w [u32],
    insts: Vec<Instruction>,
}

impl<'w> Program<'w> {
    /// Decode every word of `words`.
    pub fn new(words: &'w [u32]) -> Program<'w> {
        Program { words, insts: words.iter().map(|w| decode(*w)).collect() }
    }

    /// The words as read (word address = index).
    pub fn words(&self) -> &'w [u32] {
        self.words
    }

    /// Every word decoded, in order (word address = index).
    pub fn instructions(&self) -> &[Instruction] {
        &self.insts
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.insts.len()
    }

    /// Whether the blob has no words.
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }
}

impl Instruction {
    /// The table row (for an unknown opcode, the row of the opcode the word carries).
    #[inline]
    pub fn info(&self) -> &'static OpInfo {
        match self.op {
            Op::Unknown => opcodes::info(self.unused),
            op => op.info(),
        }
    }

    /// The bits of descriptor `desc` this instruction reads (0 for one with no descriptor):
    /// two descriptors that agree on them make it do the same.
    pub fn descriptor_bits(&self, desc: u32) -> u32 {
        let (d, s) = (OperandDescriptor::DST, OperandDescriptor::SRC);
        let info = self.info();
        let fields = match info.syntax {
            Syntax::DstSrc | Syntax::Mova => d | s[0],
            Syntax::DstSrcSrc => d | s[0] | s[1],
            Syntax::Cmp => s[0] | s[1],
            Syntax::Mad => d | s[0] | s[1] | s[2],
            _ => 0,
        };
        OperandDescriptor(desc).read_bits(info.lanes, fields)
    }

    /// Number of source operands (0–3).
    pub fn source_count(&self) -> usize {
        let l = &self.info().layout;
        usize::from(l.src1.present()) + usize::from(l.src2.present()) + usize::from(l.src3.present())
    }

    /// Which source (0, 1 or 2) is the wide one (7 bits: may name a float uniform, and takes
    /// the address register), if any.
    pub fn wide_source(&self) -> Option<usize> {
        let l = &self.info().layout;
        [l.src1, l.src2, l.src3].iter().position(|f| f.width == 7)
    }

    /// Source register `n` (0-based).
    pub fn source(&self, n: usize) -> Register {
        Register::source(self.src.get(n).copied().unwrap_or(0))
    }

    /// Destination register, if the instruction has one.
    pub fn destination(&self) -> Option<Register> {
        self.info().layout.dst.present().then(|| Register::destination(self.dst))
    }

    /// Whether this instruction reads an operand descriptor.
    pub fn has_desc(&self) -> bool {
        self.info().layout.desc.present()
    }

    /// Whether this is a flow-control instruction with a target address.
    pub fn has_target(&self) -> bool {
        self.info().layout.target.present()
    }
}

/// Register file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegisterFile {
    /// v0–v15: vertex attributes.
    Input,
    /// r0–r15: temporaries.
    Temporary,
    /// c0–c95: float uniforms.
    FloatUniform,
    /// o0–o15: outputs.
    Output,
}

impl RegisterFile {
    /// picasso's register letter.
    pub fn letter(self) -> char {
        match self {
            RegisterFile::Input => 'v',
            RegisterFile::Temporary => 'r',
            RegisterFile::FloatUniform => 'c',
            RegisterFile::Output => 'o',
        }
    }
}

/// A vector register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Register {
    /// Which file.
    pub file: RegisterFile,
    /// Index in that file.
    pub index: u8,
}

impl Register {
    /// A source field: 0x00–0x0F v0–v15, 0x10–0x1F r0–r15, 0x20–0x7F c0–c95.
    pub fn source(field: u8) -> Register {
        match field {
            0x00..=0x0F => Register { file: RegisterFile::Input, index: field },
            0x10..=0x1F => Register { file: RegisterFile::Temporary, index: field - 0x10 },
            _ => Register { file: RegisterFile::FloatUniform, index: field - 0x20 },
        }
    }

    /// A destination field: 0x00–0x0F o0–o15, 0x10–0x1F r0–r15.
    pub fn destination(field: u8) -> Register {
        match field {
            0x00..=0x0F => Register { file: RegisterFile::Output, index: field },
            _ => Register { file: RegisterFile::Temporary, index: field.wrapping_sub(0x10) & 0x0F },
        }
    }
}

impl fmt::Display for Register {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file.letter(), self.index)
    }
}

/// Component names, lane order.
pub const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// Four 2-bit component selectors, the x lane in the top bits (identity `.xyzw` = 0x1B).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// `.xyzw`
    pub const IDENTITY: Swizzle = Swizzle(0x1B);

    /// The component read by `lane` (0 = x … 3 = w).
    #[inline]
    pub fn lane(self, lane: usize) -> u8 {
        (self.0 >> (6 - 2 * (lane & 3))) & 3
    }

    /// The four selectors.
    pub fn lanes(self) -> [u8; 4] {
        [self.lane(0), self.lane(1), self.lane(2), self.lane(3)]
    }

    /// Build from four selectors.
    pub fn from_lanes(l: [u8; 4]) -> Swizzle {
        Swizzle(((l[0] & 3) << 6) | ((l[1] & 3) << 4) | ((l[2] & 3) << 2) | (l[3] & 3))
    }
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in self.lanes() {
            f.write_fmt(format_args!("{}", COMPONENTS.get(usize::from(s & 3)).copied().unwrap_or('x')))?;
        }
        Ok(())
    }
}

/// An operand descriptor: destination mask, and negation and swizzle per source.
/// Bit 31 is not used by the hardware (Nintendo's linker sets it on entries 0–31).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperandDescriptor(pub u32);

impl OperandDescriptor {
    /// Destination write mask, bit 3 = x … bit 0 = w.
    #[inline]
    pub fn mask(self) -> u8 {
        (self.0 & 0xF) as u8
    }

    /// Whether `lane` (0 = x … 3 = w) is written.
    #[inline]
    pub fn writes(self, lane: usize) -> bool {
        self.0 & (8 >> (lane & 3)) != 0
    }

    /// Whether source `n` (0-based, 0–2) is negated.
    #[inline]
    pub fn negate(self, n: usize) -> bool {
        self.0 & (1 << (4 + 9 * (n % 3))) != 0
    }

    /// The swizzle of source `n` (0-based, 0–2).
    #[inline]
    pub fn swizzle(self, n: usize) -> Swizzle {
        Swizzle((self.0 >> (5 + 9 * (n % 3))) as u8)
    }

    /// The write mask's bits in a descriptor word.
    pub(crate) const DST: u32 = 0xF;
    /// Each source's bits (negation, then swizzle) in a descriptor word.
    pub(crate) const SRC: [u32; 3] = [0x1FF << 4, 0x1FF << 13, 0x1FF << 22];

    /// The lanes of source `n` (bit i = lane i, x = 0) an instruction whose opcode reads
    /// `lanes` takes from this descriptor, as picasso counts them: its merging keeps no
    /// others, and a listing shows no others.
    pub fn lanes_read(self, lanes: Lanes, n: usize) -> u8 {
        let mask_lanes = (0..4).filter(|l| self.writes(*l)).fold(0u8, |m, l| m | (1 << l));
        match (lanes, n) {
            (Lanes::All, _) => 0xF,
            (Lanes::PerComponent, _) => mask_lanes,
            (Lanes::Dp3, _) => 0x7,
            (Lanes::Dph, 0) => 0x7,
            (Lanes::Dph, _) => 0xF,
            (Lanes::Scalar, _) => 0x1,
            (Lanes::Mova, _) => mask_lanes & 0x3,
            (Lanes::Cmp, 0) => 0x3,
            (Lanes::Cmp, _) => 0xF,
        }
    }

    /// The bits of this descriptor read from `fields` (its write mask [`Self::DST`] and the
    /// sources [`Self::SRC`] an instruction has): the mask, and per source its negation and
    /// the swizzle lanes [`Self::lanes_read`] gives.
    pub(crate) fn read_bits(self, lanes: Lanes, fields: u32) -> u32 {
        let mut bits = fields & Self::DST;
        for (n, src) in Self::SRC.iter().enumerate() {
            if fields & src == 0 {
                continue;
            }
            let base = 4 + 9 * n;
            bits |= 1 << base;
            let used = self.lanes_read(lanes, n);
            for l in (0..4).filter(|l| used & (1 << l) != 0) {
                bits |= 3 << (base + 1 + 2 * (3 - l));
            }
        }
        bits
    }

    /// Build a descriptor (bit 31 clear).
    pub fn new(mask: u8, sources: [(bool, Swizzle); 3]) -> OperandDescriptor {
        let mut w = u32::from(mask & 0xF);
        for (n, (neg, sw)) in sources.iter().enumerate() {
            w |= (u32::from(*neg) << (4 + 9 * n)) | (u32::from(sw.0) << (5 + 9 * n));
        }
        OperandDescriptor(w)
    }
}
