//! Valid SM4/5 programs made from a fuzzer's bytes: each instruction from a row of the opcode
//! table (its format and operand types), with operands in the forms fxc writes, so that the
//! listing says everything the tokens do and the assembler can give them back. Now and then
//! an instruction also has what fxc never writes but other compilers may: opcode-token control
//! bits no suffix shows, DWORDs after the operands other than fxc's; the listing notes them in
//! a comment the assembler reads.
//!
//! Where the format allows two encodings that print alike (an extended operand token that
//! says nothing, a source mask of one component, an `Imm64` index), the generator makes the one
//! fxc makes, which is the one the assembler chooses: a difference is then a printer or
//! assembler bug, not a choice.

use shaderscope::isa::sm4::decode::{Components, Modifier, OperandType, operand_type as ot};
use shaderscope::isa::sm4::encode::{ExtOpcode, Idx, Inst, Op, Part};
use shaderscope::isa::sm4::names;
use shaderscope::isa::sm4::opcodes::{self, Decl, Format, OpInfo, Ty, flag};

/// The fuzzer's bytes read as choices; once they run out every choice is the first.
pub struct Choices<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Choices<'a> {
    /// Choices from `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Choices { data, at: 0 }
    }

    /// Whether every byte was used.
    pub fn done(&self) -> bool {
        self.at >= self.data.len()
    }

    /// The next byte (0 once they run out).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// A value below `n` (at most 65 536 kinds).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let v = if n <= 256 {
            usize::from(self.byte())
        } else {
            usize::from(self.byte()) << 8 | usize::from(self.byte())
        };
        v % n
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// Four bytes as a little-endian word.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// A small number most of the time, any 32-bit value sometimes.
    fn index(&mut self) -> u32 {
        if self.one_in(16) { self.u32() } else { self.below(16) as u32 }
    }

    /// One of `from` (not empty).
    pub fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.below(from.len())]
    }
}

/// Shader model versions generated: (program type, major, minor).
const VERSIONS: [(u32, u32, u32); 9] =
    [(0, 4, 0), (1, 4, 0), (2, 4, 1), (0, 4, 1), (0, 5, 0), (1, 5, 0), (3, 5, 0), (4, 5, 0), (5, 5, 0)];

/// A program (version token, length, instructions) of at most `max` instructions.
pub fn program(c: &mut Choices<'_>, max: usize) -> Vec<u32> {
    let (ty, major, minor) = c.pick(&VERSIONS);
    let mut words = vec![ty << 16 | major << 4 | minor, 0];
    let rows: Vec<&OpInfo> = opcodes::all()
        .iter()
        .filter(|r| matches!(r.format, Format::Inst | Format::Sync | Format::InterfaceCall | Format::Decl(_)))
        .filter(|r| !matches!(r.format, Format::Decl(d) if !DECLS.contains(&d)))
        .collect();
    for _ in 0..max {
        if c.done() {
            break;
        }
        let row = c.pick(&rows);
        let _ = instruction(c, row).encode(&mut words);
    }
    let len = words.len() as u32;
    words[1] = len;
    words
}

/// The declarations generated.
const DECLS: [Decl; 16] = [
    Decl::Temps,
    Decl::GlobalFlags,
    Decl::ThreadGroup,
    Decl::MaxOutputVertexCount,
    Decl::GsInstanceCount,
    Decl::IndexableTemp,
    Decl::Input,
    Decl::Output,
    Decl::InputPs,
    Decl::InputSiv,
    Decl::OutputSiv,
    Decl::ConstantBuffer,
    Decl::Sampler,
    Decl::Resource,
    Decl::UavRaw,
    Decl::TgsmStructured,
];

/// One instruction of `row`.
pub fn instruction(c: &mut Choices<'_>, row: &OpInfo) -> Inst {
    let mut inst =
        Inst { opcode: row.opcode, controls: 0, extended: Vec::new(), long_length: false, body: Vec::new() };
    match row.format {
        Format::Inst => {
            let mut controls = 0u32;
            if row.has(flag::TEST) {
                controls |= u32::from(c.one_in(2)) << 7;
            }
            if c.one_in(6) {
                controls |= 1 << 2;
            }
            if row.has(flag::RET_TYPE) {
                controls |= c.below(3) as u32;
            }
            if c.one_in(8) {
                controls |= (c.below(15) as u32 + 1) << 8;
            }
            inst.controls = controls;
            if c.one_in(6) {
                let o = [0; 3].map(|_: i8| c.below(16) as i8 - 8);
                inst.extended.push(ExtOpcode::SampleControls(o));
            }
            if c.one_in(6) {
                let dim = c.below(13) as u8;
                let stride = if dim == 12 { c.below(4096) as u16 } else { 0 };
                inst.extended.push(ExtOpcode::ResourceDim(dim, stride));
                if c.one_in(2) {
                    inst.extended.push(ExtOpcode::ReturnType([0; 4].map(|_: u8| c.below(9) as u8 + 1)));
                }
            }
            let destinations = destination_count(row);
            for (k, &ty) in row.operands.iter().enumerate() {
                let destination = k < destinations && ty == Ty::R;
                inst.body.push(Part::Op(operand(c, ty, destination, row.has(flag::DOUBLE))));
            }
            let second = match inst.body.get(1) {
                Some(Part::Op(o)) => Some(o.ty),
                _ => None,
            };
            if c.one_in(8) {
                // DWORDs after the operands that are not fxc's (the listing notes them).
                let n = c.below(3);
                inst.body.extend((0..n).map(|_| Part::Word(c.u32())));
            } else if row.trailing_zero(second) {
                inst.body.push(Part::Word(0));
            }
        }
        Format::Sync => inst.controls = c.below(16) as u32,
        Format::InterfaceCall => {
            inst.body.push(Part::Word(c.index()));
            let mut fp = Op::register(ot::INTERFACE, &[c.index()], Components::Zero);
            fp.indices.push(Idx::Imm32(c.index()));
            inst.body.push(Part::Op(fp));
        }
        Format::Decl(d) => declaration(c, d, &mut inst),
        _ => {}
    }
    if c.one_in(8) {
        // Opcode-token control bits the text shows no suffix or value for (the listing notes
        // them).
        inst.controls |= c.u32() & 0x1fff & !row.shown_controls(inst.controls);
    }
    inst
}

/// A declaration's controls and body.
fn declaration(c: &mut Choices<'_>, d: Decl, inst: &mut Inst) {
    let body = &mut inst.body;
    match d {
        Decl::Temps | Decl::MaxOutputVertexCount | Decl::GsInstanceCount => body.push(Part::Word(c.index())),
        Decl::GlobalFlags => {
            let mut flags = 0;
            while flags == 0 {
                for (bit, _) in names::GLOBAL_FLAGS {
                    if c.one_in(3) {
                        flags |= bit >> 11;
                    }
                }
                if c.done() {
                    flags = names::GLOBAL_FLAGS[0].0 >> 11;
                }
            }
            inst.controls = flags;
        }
        Decl::ThreadGroup => body.extend([0; 3].map(|_: u32| Part::Word(c.below(1024) as u32 + 1))),
        Decl::IndexableTemp => body.extend([c.index(), c.index(), c.below(4) as u32 + 1].map(Part::Word)),
        Decl::Input | Decl::Output | Decl::InputPs | Decl::InputSiv | Decl::OutputSiv => {
            let file = if matches!(d, Decl::Output | Decl::OutputSiv) { ot::OUTPUT } else { ot::INPUT };
            body.push(Part::Op(Op::register(file, &[c.index()], Components::Mask(c.below(15) as u8 + 1))));
            if matches!(d, Decl::InputSiv | Decl::OutputSiv) {
                body.push(Part::Word(c.pick(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])));
            }
            if d == Decl::InputPs {
                inst.controls = c.below(8) as u32;
            }
        }
        Decl::ConstantBuffer => {
            let cb =
                Op::register(ot::CONSTANT_BUFFER, &[c.index(), c.index()], Components::Swizzle([0, 1, 2, 3]));
            body.push(Part::Op(cb));
            inst.controls = c.below(2) as u32;
        }
        Decl::Sampler => {
            body.push(Part::Op(Op::register(ot::SAMPLER, &[c.index()], Components::Zero)));
            inst.controls = c.below(3) as u32;
        }
        Decl::Resource => {
            let dim = c.below(10) as u32 + 1;
            inst.controls = dim;
            if matches!(dim, 4 | 9) {
                inst.controls |= (c.below(33) as u32) << 5;
            }
            body.push(Part::Op(Op::register(ot::RESOURCE, &[c.index()], Components::Zero)));
            let rt = (0..4).fold(0, |w, k| w | (c.below(9) as u32 + 1) << (4 * k));
            body.push(Part::Word(rt));
        }
        Decl::UavRaw => {
            inst.controls = if c.one_in(2) { 1 << 5 } else { 0 };
            body.push(Part::Op(Op::register(ot::UNORDERED_ACCESS_VIEW, &[c.index()], Components::Zero)));
        }
        Decl::TgsmStructured => {
            body.push(Part::Op(Op::register(ot::THREAD_GROUP_SHARED_MEMORY, &[c.index()], Components::Zero)));
            body.extend([c.index(), c.index()].map(Part::Word));
        }
        _ => {}
    }
}

/// How many leading operands an instruction writes (as the assembler reads them).
fn destination_count(row: &OpInfo) -> usize {
    if row.has(flag::TWO_DESTINATIONS) { 2 } else { 1 }
}

/// A register file: its type, how many immediate indices it takes, and whether the listing
/// brackets its first one (`icb[3]`, not `r3`).
#[derive(Clone, Copy)]
struct File(OperandType, usize, bool);

/// Files instructions write.
const WRITTEN: [File; 6] = [
    File(ot::TEMP, 1, false),
    File(ot::OUTPUT, 1, false),
    File(ot::INDEXABLE_TEMP, 2, false),
    File(ot::NULL, 0, false),
    File(ot::UNORDERED_ACCESS_VIEW, 1, false),
    File(ot::OUTPUT_DEPTH, 0, false),
];

/// Files instructions read.
const READ: [File; 14] = [
    File(ot::TEMP, 1, false),
    File(ot::INPUT, 1, false),
    File(ot::CONSTANT_BUFFER, 2, false),
    File(ot::IMMEDIATE_CONSTANT_BUFFER, 1, true),
    File(ot::INDEXABLE_TEMP, 2, false),
    File(ot::RESOURCE, 1, false),
    File(ot::SAMPLER, 1, false),
    File(ot::UNORDERED_ACCESS_VIEW, 1, false),
    File(ot::THREAD_GROUP_SHARED_MEMORY, 1, false),
    File(ot::INPUT_CONTROL_POINT, 2, true),
    File(ot::INPUT_PRIMITIVEID, 0, false),
    File(ot::INPUT_THREAD_ID, 0, false),
    File(ot::INPUT_COVERAGE_MASK, 0, false),
    File(ot::RASTERIZER, 0, false),
];

/// One operand at a position of type `ty`.
fn operand(c: &mut Choices<'_>, ty: Ty, destination: bool, double: bool) -> Op {
    if !destination && ty != Ty::R && c.one_in(4) {
        return literal(c, ty, double);
    }
    let File(file, n, bracketed) = if destination { c.pick(&WRITTEN) } else { c.pick(&READ) };
    let mut o = Op::register(file, &[], no_components(file));
    for k in 0..n {
        // The first index of a file named with it attached is a number (`r3`); later ones and
        // bracketed ones may be relative (`cb0[r1.x + 2]`).
        let relative = (k > 0 || bracketed) && c.one_in(3);
        let imm = c.index();
        o.indices.push(if !relative {
            Idx::Imm32(imm)
        } else {
            let rel = Box::new(Op::register(ot::TEMP, &[c.index()], Components::Select(c.below(4) as u8)));
            if imm == 0 { Idx::Relative(rel) } else { Idx::Imm32Relative(imm, rel) }
        });
    }
    if c.one_in(4) {
        // As printed without components: what the assembler gives such a register.
    } else if destination && is_written(file) {
        if o.components != Components::Zero && o.components != Components::One {
            o.components = Components::Mask(c.below(15) as u8 + 1);
        }
    } else if o.components != Components::Zero && o.components != Components::One {
        o.components = match c.below(3) {
            0 => Components::Select(c.below(4) as u8),
            1 => Components::Mask(
                c.pick(&[0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100, 0b0111, 0b1011, 0b1101, 0b1110]),
            ),
            _ => Components::Swizzle([0; 4].map(|_: u8| c.below(4) as u8)),
        };
    }
    if !destination && ty != Ty::R {
        o.modifier =
            c.pick(&[Modifier::None, Modifier::None, Modifier::Neg, Modifier::Abs, Modifier::AbsNeg]);
        o.extended = o.modifier != Modifier::None;
    }
    o
}

/// `l(…)` of one or four values, or for a double position `d(…)` of one or two.
fn literal(c: &mut Choices<'_>, ty: Ty, double: bool) -> Op {
    let (file, words) = if ty == Ty::D || (double && c.one_in(2)) {
        (ot::IMMEDIATE64, if c.one_in(2) { 2 } else { 4 })
    } else {
        (ot::IMMEDIATE32, if c.one_in(2) { 1 } else { 4 })
    };
    let one = words <= 2;
    let mut o = Op::register(file, &[], if one { Components::One } else { Components::Mask(0) });
    o.imm = (0..words).map(|_| if c.one_in(2) { c.below(64) as u32 } else { c.u32() }).collect();
    o
}

/// The components the assembler gives a register printed without any.
fn no_components(file: OperandType) -> Components {
    match file {
        ot::NULL
        | ot::RASTERIZER
        | ot::INTERFACE
        | ot::UNORDERED_ACCESS_VIEW
        | ot::THREAD_GROUP_SHARED_MEMORY
        | ot::SAMPLER => Components::Zero,
        ot::INPUT_PRIMITIVEID | ot::OUTPUT_DEPTH | ot::INPUT_COVERAGE_MASK => Components::One,
        _ => Components::Mask(0),
    }
}

fn is_written(t: OperandType) -> bool {
    matches!(
        t,
        ot::TEMP | ot::OUTPUT | ot::INDEXABLE_TEMP | ot::NULL | ot::OUTPUT_DEPTH | ot::UNORDERED_ACCESS_VIEW
    )
}
