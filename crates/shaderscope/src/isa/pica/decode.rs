//! A word → the owned [`Instruction`], and what its operands name: operand descriptors,
//! registers, swizzles.
//!
//! [`decode`] never fails: every word decodes, unused opcodes to [`Op::Unknown`] with the word
//! kept whole, and bits that no field of an instruction covers are kept in
//! [`Instruction::unused`]. So `decode(w).encode() == w` for every 32-bit word
//! ([`Instruction::encode`], in `encode.rs`). An instruction is one word, so its byte range is
//! the word's: a [`Program`] (a code blob decoded once) holds each at its word address, and
//! the walk, the listing, the records and the checks all read it from there.

use super::opcodes::{self, Op, OpInfo};
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

    /// Build a descriptor (bit 31 clear).
    pub fn new(mask: u8, sources: [(bool, Swizzle); 3]) -> OperandDescriptor {
        let mut w = u32::from(mask & 0xF);
        for (n, (neg, sw)) in sources.iter().enumerate() {
            w |= (u32::from(*neg) << (4 + 9 * n)) | (u32::from(sw.0) << (5 + 9 * n));
        }
        OperandDescriptor(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> impl Iterator<Item = u32> {
        // A fixed xorshift sequence plus every opcode with all-ones and all-zero operands.
        let mut x: u32 = 0x9E37_79B9;
        let random = std::iter::from_fn(move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            Some(x)
        })
        .take(2_000_000);
        (0..64u32).flat_map(|o| [o << 26, (o << 26) | 0x03FF_FFFF]).chain(random)
    }

    #[test]
    fn every_word_reencodes_to_itself() {
        for w in words() {
            let i = decode(w);
            assert_eq!(i.encode(), w, "{w:08x} {i:?}");
        }
    }

    #[test]
    fn unused_bits_are_zero_in_encoded_fields() {
        for w in words().take(100_000) {
            let i = decode(w);
            let row = i.info();
            assert_eq!(i.unused & row.covered, 0);
            assert_eq!(row.covered, row.layout.mask() | row.opcode_mask);
        }
    }

    #[test]
    fn format_1_fields() {
        // nwfont_RectDrawerShader 0x1c: dp4 r4.x, r1, r2 (opdesc 1)
        let i = decode(0x0a81_1901);
        assert_eq!(i.op, Op::Dp4);
        assert_eq!(i.destination(), Some(Register { file: RegisterFile::Temporary, index: 4 }));
        assert_eq!((i.src[0], i.src[1], i.desc, i.idx), (0x11, 0x12, 1, 0));
        // 0x30: dp4 r3.x, c32[a0.x], r4 (opdesc 0xc)
        let i = decode(0x0a6c_0a0c);
        assert_eq!((i.dst, i.idx, i.src[0], i.src[1], i.desc), (0x13, 1, 0x40, 0x14, 0x0c));
        assert_eq!(i.source(0).to_string(), "c32");
    }

    #[test]
    fn format_1i_fields() {
        // coverage shader: dphi r1.y, r0, c1 (opdesc 3)
        let i = decode(0x6224_1083);
        assert_eq!(i.op, Op::Dphi);
        assert_eq!((i.dst, i.src[0], i.src[1], i.desc), (0x11, 0x10, 0x21, 3));
        assert_eq!(i.wide_source(), Some(1));
        // slti r4, r0, c95 (opdesc 6)
        let i = decode(0x6e84_3f86);
        assert_eq!((i.op, i.dst, i.src[0], i.src[1], i.desc), (Op::Slti, 0x14, 0x10, 0x7f, 6));
    }

    #[test]
    fn format_1u_and_mova_fields() {
        // mov r0, c6[a0.x] (opdesc 2)
        let i = decode(0x4e0a_6002);
        assert_eq!((i.op, i.dst, i.idx, i.src[0], i.desc, i.unused), (Op::Mov, 0x10, 1, 0x26, 2, 0));
        assert_eq!(i.source_count(), 1);
        // mova from v5 (opdesc 2)
        let i = decode(0x4800_5002);
        assert_eq!((i.op, i.src[0], i.desc, i.destination()), (Op::Mova, 5, 2, None));
        // bits 11..7 of a format-1u word are not a source: they are kept as unused bits
        let i = decode(0x4e0a_6002 | 0x180);
        assert_eq!(i.unused, 0x180);
        assert_eq!(i.encode(), 0x4e0a_6182);
    }

    #[test]
    fn format_1c_fields() {
        // cmp c5, ne, ne, r4 (opdesc 7)
        let i = decode(0xb922_5a07);
        assert_eq!((i.op, i.cmp, i.src[0], i.src[1], i.desc), (Op::Cmp, [1, 1], 0x25, 0x14, 7));
        // cmp c5, ge, ge, r0 (opcode 0x2F: the x operator's top bit is the opcode's low bit)
        let i = decode(0xbda2_5816);
        assert_eq!((i.cmp, i.src[0], i.src[1], i.desc), ([5, 5], 0x25, 0x10, 0x16));
        // coverage: cmp c95, lt, ge, r0
        let i = decode(0xbaa7_f800);
        assert_eq!((i.cmp, i.src[0], i.src[1]), ([2, 5], 0x7f, 0x10));
    }

    #[test]
    fn format_2_fields() {
        // ifc cmp.x && cmp.y, else at 0x1b (byte 0x6c), no else block
        let i = decode(0xa340_6c00);
        assert_eq!((i.op, i.refs, i.condop, i.target, i.num), (Op::Ifc, [true, true], 1, 0x1b, 0));
        // ifc !cmp.x && !cmp.y
        let i = decode(0xa040_9c00);
        assert_eq!((i.refs, i.condop, i.target), ([false, false], 1, 0x27));
        // callc cmp.x && !cmp.y, 0x32, 1 word
        let i = decode(0x9640_c801);
        assert_eq!((i.op, i.refs, i.condop, i.target, i.num), (Op::Callc, [true, false], 1, 0x32, 1));
        // breakc cmp.x: single-flag form keeps refy = 1
        let i = decode(0x8f80_0000);
        assert_eq!((i.op, i.refs, i.condop), (Op::Breakc, [true, true], 2));
    }

    #[test]
    fn format_3_fields() {
        // jmpu b0 (num bit 0 set: jump when false) to 0x2c
        let i = decode(0xb400_b001);
        assert_eq!((i.op, i.uniform, i.target, i.negate), (Op::Jmpu, 0, 0x2c, true));
        // jmpu b1 to 0x2e
        let i = decode(0xb440_b800);
        assert_eq!((i.uniform, i.target, i.negate), (1, 0x2e, false));
        // loop i3, last body word 0x1e
        let i = decode(0xa4c0_7800);
        assert_eq!((i.op, i.uniform, i.target), (Op::Loop, 3, 0x1e));
        // ifu b1, else at 0x28, 1 word
        let i = decode(0x9c40_a001);
        assert_eq!((i.op, i.uniform, i.target, i.num), (Op::Ifu, 1, 0x28, 1));
    }

    #[test]
    fn format_4_fields() {
        let i = decode(0xaec0_0000);
        assert_eq!((i.op, i.vertex, i.primitive, i.invert), (Op::Setemit, 2, true, true));
        let i = decode(0xad00_0000);
        assert_eq!((i.vertex, i.primitive, i.invert), (1, false, false));
    }

    #[test]
    fn format_5_fields() {
        // nwfont 0x68: mad with src2 wide
        let i = decode(0xf328_5260);
        assert_eq!(i.op, Op::Mad);
        assert_eq!((i.dst, i.idx, i.src, i.desc), (0x13, 0, [0x14, 0x14, 0x13], 0));
        assert_eq!(i.wide_source(), Some(1));
        // coverage: madi r12, r0, r1, c95 (src3 wide)
        let i = decode(0xdc21_1fe6);
        assert_eq!(i.op, Op::Madi);
        assert_eq!((i.dst, i.idx, i.src, i.desc), (0x1c, 0, [0x10, 0x11, 0x7f], 6));
        assert_eq!(i.wide_source(), Some(2));
    }

    #[test]
    fn unknown_opcodes_keep_the_word() {
        for op in [0x10u32, 0x11, 0x14, 0x15, 0x16, 0x17, 0x1c, 0x1d, 0x1e, 0x1f] {
            let w = (op << 26) | 0x0123_4567;
            let i = decode(w);
            assert_eq!(i.op, Op::Unknown);
            assert_eq!(i.unused, w);
            assert_eq!(i.encode(), w);
        }
    }

    #[test]
    fn operand_descriptors() {
        // nwfont opdesc 0x14 (nihstro: `add r4._y__ -c4.zzzz r4.zzzz`): mask 4 = y
        let d = OperandDescriptor(0x802a_9554 & 0x7fff_ffff);
        assert_eq!(d.mask(), 4);
        assert!(d.writes(1) && !d.writes(0) && !d.writes(2));
        assert!(d.negate(0) && !d.negate(1));
        assert_eq!(d.swizzle(0).to_string(), "zzzz");
        assert_eq!(d.swizzle(1).to_string(), "zzzz");
        // nwfont opdesc 0x22: full mask, src1 identity; opdesc 2: src1 .wzyx
        let d = OperandDescriptor(0x0000_036f);
        assert_eq!((d.mask(), d.swizzle(0)), (0xf, Swizzle::IDENTITY));
        assert_eq!(OperandDescriptor(0x8000_1c8f).swizzle(0).to_string(), "wzyx");
        // identity in all three sources
        let d = OperandDescriptor(0x0d86_c36f);
        for n in 0..3 {
            assert_eq!(d.swizzle(n), Swizzle::IDENTITY);
        }
        let id = (false, Swizzle::IDENTITY);
        assert_eq!(OperandDescriptor::new(0xf, [id, id, id]).0, 0x0d86_c36f);
    }
}
