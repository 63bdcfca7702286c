//! Words → the owned instruction ([`Instruction`]: its control word and each present unit's
//! field bits, with its offsets), and the encoding named as Mesa's `ir/pp/codegen.h` names it: the
//! control word ([`Ctrl`], `ppir_codegen_ctrl`), the twelve units ([`Unit`],
//! `ppir_codegen_field_shift`) with their sizes in bits, and each unit's field decoded into
//! its named parts (`ppir_codegen_field_varying` … `ppir_codegen_field_branch`).
//!
//! Each unit's field is read from the instruction's bits after the control word as one
//! little-endian bit string, the present units back to back in unit order; a field is at most
//! 73 bits (the branch), so every field fits a `u128` here.
//!
//! ```
//! use shaderscope::isa::mali_pp::decode::{Ctrl, Unit, Varying};
//!
//! // The first instruction of glmark2's shadow.frag as lima_compiler writes it:
//! // `load.v $1 1, rcp.s2 $0.y  $1.w `.
//! let ctrl = Ctrl(0x0240_4083);
//! assert_eq!((ctrl.count(), ctrl.next_count(), ctrl.prefetch(), ctrl.stop()), (3, 8, true, false));
//! assert!(ctrl.has(Unit::Varying) && ctrl.has(Unit::Combine));
//! assert_eq!((ctrl.field_bits(), ctrl.words_by_fields()), (64, 3));
//! // The varying field: the first 34 bits after the control word.
//! let v = Varying::decode(0xf104_3c60 & ((1 << 34) - 1));
//! assert_eq!((v.dest, v.mask, v.index, v.alignment, v.offset_vector), (1, 0xf, 1, 3, 15));
//! ```

use super::opcodes::{COMBINE_MUL, Op, op_of};
use crate::toolkit::Field;

/// `f`'s bits of `v` (a unit field, at most 73 bits) as a `u32` (every part is at most 32 bits).
#[inline]
fn get(v: u128, f: Field) -> u32 {
    f.get(v) as u32
}

#[inline]
fn flag(v: u128, bit: u16) -> bool {
    get(v, Field::at(bit, 1)) != 0
}

/// The control word (`ppir_codegen_ctrl`), the first word of every instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ctrl(pub u32);

impl Ctrl {
    /// `count`: the instruction's words, this one included.
    pub const COUNT: Field = Field::at(0, 5);
    /// `stop`: the program ends after this instruction.
    pub const STOP: Field = Field::at(5, 1);
    /// `sync`: quad synchronisation (texture fetches, derivatives).
    pub const SYNC: Field = Field::at(6, 1);
    /// `fields`: one bit per [`Unit`] present, bit 0 the varying unit.
    pub const FIELDS: Field = Field::at(7, 12);
    /// `next_count`: the next instruction's count (0 after the last).
    pub const NEXT_COUNT: Field = Field::at(19, 6);
    /// `prefetch`: set where execution can go on to the next instruction.
    pub const PREFETCH: Field = Field::at(25, 1);
    /// `unknown`: 0 in every known program.
    pub const UNKNOWN: Field = Field::at(26, 6);

    /// `count`.
    pub fn count(self) -> u32 {
        Self::COUNT.get(self.0)
    }
    /// `stop`.
    pub fn stop(self) -> bool {
        Self::STOP.get(self.0) != 0
    }
    /// `sync`.
    pub fn sync(self) -> bool {
        Self::SYNC.get(self.0) != 0
    }
    /// `fields`.
    pub fn fields(self) -> u32 {
        Self::FIELDS.get(self.0)
    }
    /// `next_count`.
    pub fn next_count(self) -> u32 {
        Self::NEXT_COUNT.get(self.0)
    }
    /// `prefetch`.
    pub fn prefetch(self) -> bool {
        Self::PREFETCH.get(self.0) != 0
    }
    /// `unknown`.
    pub fn unknown(self) -> u32 {
        Self::UNKNOWN.get(self.0)
    }
    /// Whether `unit`'s field is present.
    pub fn has(self, unit: Unit) -> bool {
        self.fields() >> (unit as u32) & 1 != 0
    }
    /// Bits the present units' fields take.
    pub fn field_bits(self) -> u32 {
        Unit::ALL.iter().filter(|u| self.has(**u)).map(|u| u.bits()).sum()
    }
    /// Words the instruction takes by its fields' sizes: the control word and the fields,
    /// rounded up to whole words (what `count` should be).
    pub fn words_by_fields(self) -> u32 {
        1 + self.field_bits().div_ceil(32)
    }
}

/// The units of an instruction, in the order their fields are stored
/// (`ppir_codegen_field_shift`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Varying load (`load.v`).
    Varying = 0,
    /// Texture sampler (`texld`).
    Sampler = 1,
    /// Uniform or temporary load (`load.u`, `load.t`).
    Uniform = 2,
    /// Vector multiplier (`.v0`).
    Vec4Mul = 3,
    /// Scalar multiplier (`.s0`).
    FloatMul = 4,
    /// Vector adder (`.v1`).
    Vec4Acc = 5,
    /// Scalar adder (`.s1`).
    FloatAcc = 6,
    /// Result combiner: scalar functions, scalar × vector multiply (`.s2`).
    Combine = 7,
    /// Temporary write or framebuffer read (`store.t`, `fb_color`, `fb_depth`).
    TempWrite = 8,
    /// Branch or discard.
    Branch = 9,
    /// Constant register 0: four fp16 values.
    Vec4Const0 = 10,
    /// Constant register 1: four fp16 values.
    Vec4Const1 = 11,
}

impl Unit {
    /// Every unit, in storage order.
    pub const ALL: [Unit; 12] = [
        Unit::Varying,
        Unit::Sampler,
        Unit::Uniform,
        Unit::Vec4Mul,
        Unit::FloatMul,
        Unit::Vec4Acc,
        Unit::FloatAcc,
        Unit::Combine,
        Unit::TempWrite,
        Unit::Branch,
        Unit::Vec4Const0,
        Unit::Vec4Const1,
    ];

    /// The size of the unit's field in bits (`ppir_codegen_field_size`).
    pub const fn bits(self) -> u32 {
        match self {
            Unit::Varying => 34,
            Unit::Sampler => 62,
            Unit::Uniform => 41,
            Unit::Vec4Mul => 43,
            Unit::FloatMul => 30,
            Unit::Vec4Acc => 44,
            Unit::FloatAcc => 31,
            Unit::Combine => 30,
            Unit::TempWrite => 41,
            Unit::Branch => 73,
            Unit::Vec4Const0 | Unit::Vec4Const1 => 64,
        }
    }

    /// codegen.h's name of the unit (`ppir_codegen_field_shift_*`).
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Varying => "varying",
            Unit::Sampler => "sampler",
            Unit::Uniform => "uniform",
            Unit::Vec4Mul => "vec4_mul",
            Unit::FloatMul => "float_mul",
            Unit::Vec4Acc => "vec4_acc",
            Unit::FloatAcc => "float_acc",
            Unit::Combine => "combine",
            Unit::TempWrite => "temp_write",
            Unit::Branch => "branch",
            Unit::Vec4Const0 => "vec4_const_0",
            Unit::Vec4Const1 => "vec4_const_1",
        }
    }
}

/// The varying unit's field (`ppir_codegen_field_varying`, both views: `imm` and `reg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Varying {
    /// `perspective` (bits 0–1): 2 divides by z, 3 by w; with `source_type` 2 and 3 it selects
    /// the source.
    pub perspective: u32,
    /// `source_type` (2–3): 0 a varying, 1 a register, 2 cube/normalize/`gl_FragCoord`,
    /// 3 `gl_FrontFacing`/`gl_PointCoord`.
    pub source_type: u32,
    /// `imm.alignment` (5–6): 0 float, 1 vec2, 2–3 vec4.
    pub alignment: u32,
    /// `imm.offset_vector` (10–13): the register of the index offset, 15 for none.
    pub offset_vector: u32,
    /// `imm.offset_scalar` (16–17): its component.
    pub offset_scalar: u32,
    /// `imm.index` (18–23).
    pub index: u32,
    /// `dest` (24–27); 15 is `^discard` (only the sampler's coordinates).
    pub dest: u32,
    /// `mask` (28–31).
    pub mask: u32,
    /// `reg.normalize` (6).
    pub normalize: bool,
    /// `reg.source` (10–13).
    pub source: u32,
    /// `reg.negate` (14).
    pub negate: bool,
    /// `reg.absolute` (15).
    pub absolute: bool,
    /// `reg.swizzle` (16–23).
    pub swizzle: u32,
}

impl Varying {
    /// Decode the field's bits.
    pub fn decode(v: u128) -> Varying {
        Varying {
            perspective: get(v, Field::at(0, 2)),
            source_type: get(v, Field::at(2, 2)),
            alignment: get(v, Field::at(5, 2)),
            offset_vector: get(v, Field::at(10, 4)),
            offset_scalar: get(v, Field::at(16, 2)),
            index: get(v, Field::at(18, 6)),
            dest: get(v, Field::at(24, 4)),
            mask: get(v, Field::at(28, 4)),
            normalize: flag(v, 6),
            source: get(v, Field::at(10, 4)),
            negate: flag(v, 14),
            absolute: flag(v, 15),
            swizzle: get(v, Field::at(16, 8)),
        }
    }
}

/// The constant bits 42–61 of a sampler field as compilers write them (`unknown_2`).
pub const SAMPLER_UNKNOWN_2: u32 = 0x39001;

/// The texture sampler's field (`ppir_codegen_field_sampler`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sampler {
    /// `lod_bias` (bits 0–5): scalar register of the bias.
    pub lod_bias: u32,
    /// `index_offset` (6–11): scalar register added to the index.
    pub index_offset: u32,
    /// `explicit_lod` (17).
    pub explicit_lod: bool,
    /// `lod_bias_en` (18).
    pub lod_bias_en: bool,
    /// `type` (24–28): 0 generic (2D), 0x1F cube.
    pub sampler_type: u32,
    /// `offset_en` (29).
    pub offset_en: bool,
    /// `index` (30–41): the sampler.
    pub index: u32,
    /// `unknown_2` (42–61): 0x39001 as written by compilers.
    pub unknown_2: u32,
}

impl Sampler {
    /// Decode the field's bits.
    pub fn decode(v: u128) -> Sampler {
        Sampler {
            lod_bias: get(v, Field::at(0, 6)),
            index_offset: get(v, Field::at(6, 6)),
            explicit_lod: flag(v, 17),
            lod_bias_en: flag(v, 18),
            sampler_type: get(v, Field::at(24, 5)),
            offset_en: flag(v, 29),
            index: get(v, Field::at(30, 12)),
            unknown_2: get(v, Field::at(42, 20)),
        }
    }
}

/// The uniform/temporary load's field (`ppir_codegen_field_uniform`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Uniform {
    /// `source` (bits 0–1): 0 uniform, 3 temporary.
    pub source: u32,
    /// `alignment` (10–11): 0 float, 1 vec2, 2 vec4.
    pub alignment: u32,
    /// `offset_reg` (18–23): scalar register added to the index.
    pub offset_reg: u32,
    /// `offset_en` (24).
    pub offset_en: bool,
    /// `index` (25–40), signed as Mesa prints it.
    pub index: i16,
}

impl Uniform {
    /// Decode the field's bits.
    pub fn decode(v: u128) -> Uniform {
        Uniform {
            source: get(v, Field::at(0, 2)),
            alignment: get(v, Field::at(10, 2)),
            offset_reg: get(v, Field::at(18, 6)),
            offset_en: flag(v, 24),
            index: get(v, Field::at(25, 16)) as u16 as i16,
        }
    }
}

/// A vector ALU field: `ppir_codegen_field_vec4_mul` and `ppir_codegen_field_vec4_acc` (the
/// adder has `mul_in` on top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Vec4Alu {
    /// `arg0_source` (bits 0–3).
    pub arg0_source: u32,
    /// `arg0_swizzle` (4–11).
    pub arg0_swizzle: u32,
    /// `arg0_absolute` (12).
    pub arg0_absolute: bool,
    /// `arg0_negate` (13).
    pub arg0_negate: bool,
    /// `arg1_source` (14–17).
    pub arg1_source: u32,
    /// `arg1_swizzle` (18–25).
    pub arg1_swizzle: u32,
    /// `arg1_absolute` (26).
    pub arg1_absolute: bool,
    /// `arg1_negate` (27).
    pub arg1_negate: bool,
    /// `dest` (28–31).
    pub dest: u32,
    /// `mask` (32–35); 0 writes no register (the result only feeds the adder).
    pub mask: u32,
    /// `dest_modifier` (36–37): `ppir_codegen_outmod`.
    pub dest_modifier: u32,
    /// `op` (38–42).
    pub op: u32,
    /// `mul_in` (43, adder only): arg0 is the multiplier's result `^v0`.
    pub mul_in: bool,
}

impl Vec4Alu {
    /// Decode the field's bits (for the multiplier, bit 43 is not part of it and reads 0).
    pub fn decode(v: u128) -> Vec4Alu {
        Vec4Alu {
            arg0_source: get(v, Field::at(0, 4)),
            arg0_swizzle: get(v, Field::at(4, 8)),
            arg0_absolute: flag(v, 12),
            arg0_negate: flag(v, 13),
            arg1_source: get(v, Field::at(14, 4)),
            arg1_swizzle: get(v, Field::at(18, 8)),
            arg1_absolute: flag(v, 26),
            arg1_negate: flag(v, 27),
            dest: get(v, Field::at(28, 4)),
            mask: get(v, Field::at(32, 4)),
            dest_modifier: get(v, Field::at(36, 2)),
            op: get(v, Field::at(38, 5)),
            mul_in: flag(v, 43),
        }
    }

    /// The operation of the field as `unit`'s ([`Unit::Vec4Mul`] or [`Unit::Vec4Acc`]) table
    /// names it; `None` for an opcode it has no row for.
    pub(crate) fn operation(&self, unit: Unit) -> Option<Op> {
        op_of(unit, self.op)
    }
}

/// A scalar ALU field: `ppir_codegen_field_float_mul` and `ppir_codegen_field_float_acc`
/// (the adder has `mul_in` on top).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FloatAlu {
    /// `arg0_source` (bits 0–5): register × 4 + component.
    pub arg0_source: u32,
    /// `arg0_absolute` (6).
    pub arg0_absolute: bool,
    /// `arg0_negate` (7).
    pub arg0_negate: bool,
    /// `arg1_source` (8–13).
    pub arg1_source: u32,
    /// `arg1_absolute` (14).
    pub arg1_absolute: bool,
    /// `arg1_negate` (15).
    pub arg1_negate: bool,
    /// `dest` (16–21).
    pub dest: u32,
    /// `output_en` (22): the result is written to `dest`.
    pub output_en: bool,
    /// `dest_modifier` (23–24).
    pub dest_modifier: u32,
    /// `op` (25–29).
    pub op: u32,
    /// `mul_in` (30, adder only): arg0 is the multiplier's result `^s0`.
    pub mul_in: bool,
}

impl FloatAlu {
    /// Decode the field's bits (for the multiplier, bit 30 is not part of it and reads 0).
    pub fn decode(v: u128) -> FloatAlu {
        FloatAlu {
            arg0_source: get(v, Field::at(0, 6)),
            arg0_absolute: flag(v, 6),
            arg0_negate: flag(v, 7),
            arg1_source: get(v, Field::at(8, 6)),
            arg1_absolute: flag(v, 14),
            arg1_negate: flag(v, 15),
            dest: get(v, Field::at(16, 6)),
            output_en: flag(v, 22),
            dest_modifier: get(v, Field::at(23, 2)),
            op: get(v, Field::at(25, 5)),
            mul_in: flag(v, 30),
        }
    }

    /// The operation of the field as `unit`'s ([`Unit::FloatMul`] or [`Unit::FloatAcc`])
    /// table names it; `None` for an opcode it has no row for.
    pub(crate) fn operation(&self, unit: Unit) -> Option<Op> {
        op_of(unit, self.op)
    }
}

/// The combiner's field (`ppir_codegen_field_combine`, both views: `scalar` and `vector`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Combine {
    /// `dest_vec` (bit 0).
    pub dest_vec: bool,
    /// `arg1_en` (1). With `dest_vec`, the field is a scalar × vector `mul`.
    pub arg1_en: bool,
    /// `scalar.op` (2–5): `ppir_codegen_combine_scalar_op`.
    pub op: u32,
    /// `scalar.arg1_absolute` (6).
    pub arg1_absolute: bool,
    /// `scalar.arg1_negate` (7).
    pub arg1_negate: bool,
    /// `scalar.arg1_src` (8–13).
    pub arg1_src: u32,
    /// `scalar.arg0_absolute` (14).
    pub arg0_absolute: bool,
    /// `scalar.arg0_negate` (15).
    pub arg0_negate: bool,
    /// `scalar.arg0_src` (16–21).
    pub arg0_src: u32,
    /// `scalar.dest_modifier` (22–23).
    pub dest_modifier: u32,
    /// `scalar.dest` (24–29).
    pub dest: u32,
    /// `vector.arg1_swizzle` (2–9).
    pub vector_arg1_swizzle: u32,
    /// `vector.arg1_source` (10–13).
    pub vector_arg1_source: u32,
    /// `vector.mask` (22–25).
    pub vector_mask: u32,
    /// `vector.dest` (26–29).
    pub vector_dest: u32,
}

impl Combine {
    /// Decode the field's bits.
    pub fn decode(v: u128) -> Combine {
        Combine {
            dest_vec: flag(v, 0),
            arg1_en: flag(v, 1),
            op: get(v, Field::at(2, 4)),
            arg1_absolute: flag(v, 6),
            arg1_negate: flag(v, 7),
            arg1_src: get(v, Field::at(8, 6)),
            arg0_absolute: flag(v, 14),
            arg0_negate: flag(v, 15),
            arg0_src: get(v, Field::at(16, 6)),
            dest_modifier: get(v, Field::at(22, 2)),
            dest: get(v, Field::at(24, 6)),
            vector_arg1_swizzle: get(v, Field::at(2, 8)),
            vector_arg1_source: get(v, Field::at(10, 4)),
            vector_mask: get(v, Field::at(22, 4)),
            vector_dest: get(v, Field::at(26, 4)),
        }
    }

    /// The combiner's operation: the scalar × vector `mul` where `dest_vec` and `arg1_en` are
    /// both set (the `op` bits are then part of the vector source), else `op`'s row of the
    /// combiner's table (`None` for 10–15).
    pub(crate) fn operation(&self) -> Option<Op> {
        if self.dest_vec && self.arg1_en { Some(COMBINE_MUL) } else { op_of(Unit::Combine, self.op) }
    }
}

/// The temporary-write unit's field (`ppir_codegen_field_temp_write`, both views:
/// `temp_write` and `fb_read`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TempWrite {
    /// `temp_write.dest` (bits 0–1): 3.
    pub dest: u32,
    /// `temp_write.source` (4–9): register × 4 + component.
    pub source: u32,
    /// `temp_write.alignment` (10–11): 0 float, 1 vec2, 2 vec4.
    pub alignment: u32,
    /// `temp_write.offset_reg` (18–23).
    pub offset_reg: u32,
    /// `temp_write.offset_en` (24).
    pub offset_en: bool,
    /// `temp_write.index` (25–40), signed as Mesa prints it.
    pub index: i16,
    /// `fb_read.source` (0): 1 colour, 0 depth.
    pub fb_source: bool,
    /// `fb_read.unknown_0` (1–5): 7 makes the field a framebuffer read.
    pub fb_unknown_0: u32,
    /// `fb_read.dest` (6–9).
    pub fb_dest: u32,
}

impl TempWrite {
    /// Decode the field's bits.
    pub fn decode(v: u128) -> TempWrite {
        TempWrite {
            dest: get(v, Field::at(0, 2)),
            source: get(v, Field::at(4, 6)),
            alignment: get(v, Field::at(10, 2)),
            offset_reg: get(v, Field::at(18, 6)),
            offset_en: flag(v, 24),
            index: get(v, Field::at(25, 16)) as u16 as i16,
            fb_source: flag(v, 0),
            fb_unknown_0: get(v, Field::at(1, 5)),
            fb_dest: get(v, Field::at(6, 4)),
        }
    }

    /// Whether the field is a framebuffer read (`fb_read.unknown_0 == 0x7`).
    pub fn is_fb_read(&self) -> bool {
        self.fb_unknown_0 == 7
    }
}

/// `PPIR_CODEGEN_DISCARD_WORD0`: a branch field whose first word is this, and whose other
/// 41 bits are 0, is a `discard`.
pub const DISCARD_WORD0: u32 = 0x007f_0003;

/// The branch unit's field (`ppir_codegen_field_branch`, both views: `branch` and `discard`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Branch {
    /// `arg1_source` (bits 4–9).
    pub arg1_source: u32,
    /// `arg0_source` (10–15).
    pub arg0_source: u32,
    /// `cond_gt` (16).
    pub cond_gt: bool,
    /// `cond_eq` (17).
    pub cond_eq: bool,
    /// `cond_lt` (18).
    pub cond_lt: bool,
    /// `target` (41–67): signed, in words from this instruction.
    pub target: i32,
    /// `next_count` (68–72).
    pub next_count: u32,
    /// The `discard` view's pattern (`word0` = [`DISCARD_WORD0`], `word1` and `word2` 0).
    pub discard: bool,
}

impl Branch {
    /// The absolute target of the branch at word `pc`, as Mesa computes and prints it:
    /// `target + pc` in 32-bit arithmetic (printed `%d`).
    pub fn absolute_target(&self, pc: u32) -> i32 {
        self.target.wrapping_add(pc as i32)
    }

    /// Decode the field's bits.
    pub fn decode(v: u128) -> Branch {
        let target = get(v, Field::at(41, 27));
        Branch {
            arg1_source: get(v, Field::at(4, 6)),
            arg0_source: get(v, Field::at(10, 6)),
            cond_gt: flag(v, 16),
            cond_eq: flag(v, 17),
            cond_lt: flag(v, 18),
            target: ((target << 5) as i32) >> 5,
            next_count: get(v, Field::at(68, 5)),
            discard: v & ((1u128 << 73) - 1) == u128::from(DISCARD_WORD0),
        }
    }

    /// The condition: `cond_lt` | `cond_eq` << 1 | `cond_gt` << 2; 7 is unconditional.
    pub fn cond_mask(&self) -> u32 {
        u32::from(self.cond_lt) | u32::from(self.cond_eq) << 1 | u32::from(self.cond_gt) << 2
    }
}

/// The opcode of an ALU unit's field `v` and the field's operation (`None` where the unit's
/// table has no row for the opcode); `None` for the units without opcodes (the loads, the
/// temporary write, the branch, the constants).
pub(crate) fn operation(unit: Unit, v: u128) -> Option<(u32, Option<Op>)> {
    match unit {
        Unit::Vec4Mul | Unit::Vec4Acc => {
            let f = Vec4Alu::decode(v);
            Some((f.op, f.operation(unit)))
        }
        Unit::FloatMul | Unit::FloatAcc => {
            let f = FloatAlu::decode(v);
            Some((f.op, f.operation(unit)))
        }
        Unit::Combine => {
            let c = Combine::decode(v);
            Some((c.op, c.operation()))
        }
        _ => None,
    }
}

/// A constant register's field: four fp16 values, x first.
pub(crate) fn const_values(v: u128) -> [u16; 4] {
    [0, 16, 32, 48].map(|s| (v >> s) as u16)
}

/// One instruction as read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Instruction {
    /// Its offset in words from the program's start (what Mesa prints after `@`).
    pub pc: u32,
    /// Absolute offset of its control word.
    pub at: u64,
    /// The control word.
    pub ctrl: Ctrl,
    /// Its length in words, the length the walk goes on by: `count` where the fields fit in
    /// it and it fits in the program (padding words after the fields are the instruction's,
    /// as Mesa and the hardware take them), else the length the fields' sizes give.
    pub words: u32,
    /// Words of it that are in the program (fewer than `words` when it is cut off).
    pub words_read: u32,
    /// Each unit's field bits (0 for a unit absent or cut off), by [`Unit`] number.
    pub fields: [u128; 12],
    /// Units present and read (bit per [`Unit`]).
    pub read: u16,
    /// Units present but past the end of the program.
    pub missing: u16,
}

impl Instruction {
    /// The units present and read, in order, with their field bits and their first bit
    /// (counted from the first bit after the control word).
    pub fn units(&self) -> impl Iterator<Item = (Unit, u128, u32)> + '_ {
        let mut bit = 0;
        Unit::ALL.into_iter().filter(|u| self.ctrl.has(*u)).filter_map(move |u| {
            let start = bit;
            bit += u.bits();
            (self.read >> (u as u32) & 1 != 0)
                .then(|| (u, self.fields.get(u as usize).copied().unwrap_or(0), start))
        })
    }

    /// The unit's field bits, if present and read.
    pub fn field(&self, unit: Unit) -> Option<u128> {
        (self.read >> (unit as u32) & 1 != 0).then(|| self.fields.get(unit as usize).copied().unwrap_or(0))
    }

    /// The branch field, when it is a branch (not a discard).
    pub fn branch(&self) -> Option<Branch> {
        self.field(Unit::Branch).map(Branch::decode).filter(|b| !b.discard)
    }
}

/// `width` bits (at most 73) of `bytes` from bit `start`, LSB first; `None` when they reach
/// past the end.
fn bits_at(bytes: &[u8], start: u32, width: u32) -> Option<u128> {
    let end = start.checked_add(width)?;
    if end as usize > bytes.len() * 8 {
        return None;
    }
    let first = (start / 8) as usize;
    let mut v = 0u128;
    for (i, b) in bytes.iter().skip(first).take(10).enumerate() {
        v |= u128::from(*b) << (8 * i);
    }
    v >>= start % 8;
    Some(v & ((1u128 << width) - 1))
}

/// The length the walk goes on by (see [`Instruction::words`]).
fn length(count: u32, by_fields: u32, left: u32) -> u32 {
    if count >= by_fields && count <= left { count } else { by_fields }
}

/// Read the instruction at byte `pos` of `code` (at least 4 bytes remain).
pub(crate) fn read(code: &[u8], pos: usize, base: u64) -> Instruction {
    let ctrl_bytes = code.get(pos..pos + 4).and_then(|b| b.first_chunk::<4>()).copied().unwrap_or_default();
    let ctrl = Ctrl(u32::from_le_bytes(ctrl_bytes));
    let by_fields = ctrl.words_by_fields();
    let left = (code.len().saturating_sub(pos) / 4) as u32;
    let words = length(ctrl.count(), by_fields, left);
    let words_read = words.min(left);
    let body = code.get(pos + 4..pos + 4 * words_read as usize).unwrap_or(&[]);
    let mut inst = Instruction {
        pc: (pos / 4) as u32,
        at: base.saturating_add(pos as u64),
        ctrl,
        words,
        words_read,
        ..Instruction::default()
    };
    let mut bit = 0;
    for u in Unit::ALL {
        if !ctrl.has(u) {
            continue;
        }
        match bits_at(body, bit, u.bits()) {
            Some(v) => {
                if let Some(f) = inst.fields.get_mut(u as usize) {
                    *f = v;
                }
                inst.read |= 1 << (u as u32);
            }
            None => inst.missing |= 1 << (u as u32),
        }
        bit += u.bits();
    }
    inst
}
