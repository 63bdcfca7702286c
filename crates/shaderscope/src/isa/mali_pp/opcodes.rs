//! The PP's operation tables: the opcodes of each ALU unit as Mesa's `ir/pp/codegen.h`
//! numbers them (`ppir_codegen_vec4_mul_op`, `ppir_codegen_vec4_acc_op`,
//! `ppir_codegen_float_mul_op`, `ppir_codegen_float_acc_op`, `ppir_codegen_combine_scalar_op`)
//! with the name and source count its disassembler gives each (the `asm_op` tables of
//! `ir/pp/disasm.c`), and the other numbers the listing names: output modifiers
//! (`ppir_codegen_outmod`), the pipeline registers (`ppir_codegen_vec4_reg`), the uniform
//! unit's sources (`ppir_codegen_uniform_src`), the sampler types and the branch conditions.
//!
//! The decoder gives each ALU field's row ([`super::decode::operation`]); the printer prints
//! the row's name and as many sources as it says; the checks warn of an opcode without a row.
//! Only the ALU units have opcodes: the loads, the temporary write, the branch and the
//! constants have one operation each, told apart by their fields (see the printer).

use super::decode::Unit;

/// One operation of an ALU unit (Mesa's `asm_op`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Op {
    /// The mnemonic (`mul`, `sum4`, `rsqrt`).
    pub(crate) name: &'static str,
    /// The sources the listing shows: the second (`arg1`) only where this is 2.
    pub(crate) srcs: u8,
    /// A multiplier's opcodes 1–7: `mul` with its result scaled by 2 to the opcode, printed
    /// `<<N` after the first source.
    pub(crate) shift: bool,
}

const fn op(name: &'static str, srcs: u8) -> Option<Op> {
    Some(Op { name, srcs, shift: false })
}

/// The multipliers' table: `ppir_codegen_vec4_mul_op` and `ppir_codegen_float_mul_op` have
/// the same values. 0 is `mul`, 1–7 `mul` with a scale; `mov` passes its one source on.
// Built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const MUL_OPS: [Option<Op>; 32] = {
    let mut t: [Option<Op>; 32] = [None; 32];
    t[0x00] = op("mul", 2);
    let mut scale = 1;
    while scale < 8 {
        t[scale] = Some(Op { name: "mul", srcs: 2, shift: true });
        scale += 1;
    }
    t[0x08] = op("not", 1);
    t[0x09] = op("and", 2);
    t[0x0A] = op("or", 2);
    t[0x0B] = op("xor", 2);
    t[0x0C] = op("ne", 2);
    t[0x0D] = op("gt", 2);
    t[0x0E] = op("ge", 2);
    t[0x0F] = op("eq", 2);
    t[0x10] = op("min", 2);
    t[0x11] = op("max", 2);
    t[0x1F] = op("mov", 1);
    t
};

/// The adders' table: `ppir_codegen_vec4_acc_op` (`vector`) and `ppir_codegen_float_acc_op`,
/// the same values but for `sum3` and `sum4`, which only the vector adder has. `sel` chooses
/// between its sources by the scalar multiplier's result.
// Built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn acc_ops(vector: bool) -> [Option<Op>; 32] {
    let mut t: [Option<Op>; 32] = [None; 32];
    t[0x00] = op("add", 2);
    t[0x04] = op("fract", 1);
    t[0x08] = op("ne", 2);
    t[0x09] = op("gt", 2);
    t[0x0A] = op("ge", 2);
    t[0x0B] = op("eq", 2);
    t[0x0C] = op("floor", 1);
    t[0x0D] = op("ceil", 1);
    t[0x0E] = op("min", 2);
    t[0x0F] = op("max", 2);
    if vector {
        t[0x10] = op("sum3", 1);
        t[0x11] = op("sum4", 1);
    }
    t[0x14] = op("dFdx", 2);
    t[0x15] = op("dFdy", 2);
    t[0x17] = op("sel", 2);
    t[0x1F] = op("mov", 1);
    t
}

/// The vector multiplier's operations (`op`, 5 bits), by opcode.
pub(crate) static VEC4_MUL: [Option<Op>; 32] = MUL_OPS;
/// The scalar multiplier's operations (`op`, 5 bits), by opcode.
pub(crate) static FLOAT_MUL: [Option<Op>; 32] = MUL_OPS;
/// The vector adder's operations (`op`, 5 bits), by opcode.
pub(crate) static VEC4_ACC: [Option<Op>; 32] = acc_ops(true);
/// The scalar adder's operations (`op`, 5 bits), by opcode.
pub(crate) static FLOAT_ACC: [Option<Op>; 32] = acc_ops(false);

/// The combiner's scalar functions (`scalar.op`, 4 bits), by opcode; 10–15 are undefined.
/// Each shows its second source by the field's `arg1_en`, not by its count (Mesa's table
/// gives every one a single source).
pub(crate) static COMBINE: [Option<Op>; 16] = [
    op("rcp", 1),
    op("mov", 1),
    op("sqrt", 1),
    op("rsqrt", 1),
    op("exp2", 1),
    op("log2", 1),
    op("sin", 1),
    op("cos", 1),
    op("atan", 1),
    op("atan2", 1),
    None,
    None,
    None,
    None,
    None,
    None,
];

/// The combiner's other form: with `dest_vec` and `arg1_en` both set the field is a scalar ×
/// vector multiply, whatever its `op` bits (which then hold the vector source).
pub(crate) const COMBINE_MUL: Op = Op { name: "mul", srcs: 2, shift: false };

/// The table of an ALU unit's opcodes, by opcode; `None` for a unit without opcodes.
pub(crate) fn table(unit: Unit) -> Option<&'static [Option<Op>]> {
    Some(match unit {
        Unit::Vec4Mul => &VEC4_MUL,
        Unit::FloatMul => &FLOAT_MUL,
        Unit::Vec4Acc => &VEC4_ACC,
        Unit::FloatAcc => &FLOAT_ACC,
        Unit::Combine => &COMBINE,
        _ => return None,
    })
}

/// `unit`'s operation `opcode`; `None` where the unit's table has no row for it (printed
/// `opN`, and a warning of the checks), or the unit has no opcodes.
#[inline]
pub(crate) fn op_of(unit: Unit, opcode: u32) -> Option<Op> {
    table(unit)?.get(opcode as usize).copied().flatten()
}

/// What the listing writes after an ALU unit's mnemonic (and its output modifier) to say
/// which unit it is, and after the varying unit's `load`.
pub(crate) fn suffix(unit: Unit) -> &'static str {
    match unit {
        Unit::Varying => ".v",
        Unit::Vec4Mul => ".v0",
        Unit::FloatMul => ".s0",
        Unit::Vec4Acc => ".v1",
        Unit::FloatAcc => ".s1",
        Unit::Combine => ".s2",
        _ => "",
    }
}

/// `ppir_codegen_outmod` (2 bits) as the listing appends it to the mnemonic: 1 clamps to
/// 0–1, 2 to 0 and above, 3 rounds; 0 is nothing.
pub(crate) const OUTMOD: [Option<&str>; 4] = [None, Some(".sat"), Some(".pos"), Some(".int")];

/// `ppir_codegen_vec4_reg_constant0`: vec4 register 12, constant register 0.
pub(crate) const REG_CONSTANT0: u32 = 12;
/// `ppir_codegen_vec4_reg_constant1`: vec4 register 13, constant register 1.
pub(crate) const REG_CONSTANT1: u32 = 13;
/// `ppir_codegen_vec4_reg_texture`: vec4 register 14, the sampler's result.
pub(crate) const REG_TEXTURE: u32 = 14;
/// `ppir_codegen_vec4_reg_uniform`: vec4 register 15, the uniform unit's result.
pub(crate) const REG_UNIFORM: u32 = 15;
/// `ppir_codegen_vec4_reg_discard`: register 15 as the varying unit's destination, `^discard`
/// (the value only goes to the sampler's coordinates).
pub(crate) const REG_DISCARD: u32 = 15;

/// The name of a vec4 source register that is a pipeline register (12–15); `None` for a
/// general register (`$N`).
pub(crate) fn pipeline_register(r: u32) -> Option<&'static str> {
    Some(match r {
        REG_CONSTANT0 => "^const0",
        REG_CONSTANT1 => "^const1",
        REG_TEXTURE => "^texture",
        REG_UNIFORM => "^uniform",
        _ => return None,
    })
}

/// `ppir_codegen_uniform_src` (2 bits) as the listing writes it after `load.`: 0 uniforms,
/// 3 temporaries; `None` for 1 and 2, which Mesa names nothing (printed `.uN`).
pub(crate) fn uniform_source(source: u32) -> Option<&'static str> {
    match source {
        0 => Some("u"),
        3 => Some("t"),
        _ => None,
    }
}

/// `ppir_codegen_sampler_type_generic`: the sampler's `type` (5 bits) of a 2D texture, no
/// suffix.
pub(crate) const SAMPLER_TYPE_GENERIC: u32 = 0;
/// `ppir_codegen_sampler_type_cube`: `.cube`. Other types print as `_tN`.
pub(crate) const SAMPLER_TYPE_CUBE: u32 = 0x1f;

/// The branch conditions by `cond_lt | cond_eq << 1 | cond_gt << 2` (Mesa's `cond`): `nv`
/// never branches, 7 (all three) always, printed with no condition or sources.
pub(crate) const BRANCH_COND: [&str; 8] = ["nv", "lt", "eq", "le", "gt", "ne", "ge", ""];

/// The branch condition that is always true.
pub(crate) const BRANCH_ALWAYS: u32 = 7;

/// The other words of the listing, which the printer writes and the assembler reads back
/// (one list for both).
pub(crate) mod words {
    /// The varying and uniform loads' mnemonic, before their suffixes.
    pub(crate) const LOAD: &str = "load";
    /// The varying load's `perspective` (2 bits) after `load` for a varying or register
    /// source; 0 is nothing.
    pub(crate) const PERSPECTIVE: [&str; 4] =
        ["", ".perspective.unknown", ".perspective.z", ".perspective.w"];
    /// The varying load's destination 15 (`REG_DISCARD`).
    pub(crate) const DISCARD_DEST: &str = "^discard";
    /// The varying load's cube-map source (`source_type` 2, `perspective` 0 or 1).
    pub(crate) const CUBE: &str = "cube";
    /// The varying load's normalized register (`source_type` 2, `perspective` 2).
    pub(crate) const NORMALIZE: &str = "normalize";
    /// `source_type` 2, `perspective` 3.
    pub(crate) const FRAG_COORD: &str = "gl_FragCoord";
    /// `source_type` 3, `perspective` not 0.
    pub(crate) const FRONT_FACING: &str = "gl_FrontFacing";
    /// `source_type` 3, `perspective` 0.
    pub(crate) const POINT_COORD: &str = "gl_PointCoord";
    /// A source's absolute value, `abs(…)`.
    pub(crate) const ABS: &str = "abs";
    /// The sampler's mnemonic.
    pub(crate) const TEXLD: &str = "texld";
    /// The sampler's `lod_bias_en`.
    pub(crate) const LOD_BIAS: &str = ".b";
    /// The sampler type `SAMPLER_TYPE_CUBE`.
    pub(crate) const TYPE_CUBE: &str = ".cube";
    /// Before any other sampler type's number.
    pub(crate) const TYPE_N: &str = "_t";
    /// The temporary write's mnemonic.
    pub(crate) const STORE_TEMP: &str = "store.t";
    /// The framebuffer reads (`fb_read.source` 1 and 0).
    pub(crate) const FB_COLOR: &str = "fb_color";
    /// See [`FB_COLOR`].
    pub(crate) const FB_DEPTH: &str = "fb_depth";
    /// The branch unit's discard pattern.
    pub(crate) const DISCARD: &str = "discard";
    /// The branch unit's branch.
    pub(crate) const BRANCH: &str = "branch";
    /// The constant registers' fields.
    pub(crate) const CONST: [&str; 2] = ["const0", "const1"];
    /// The control word's flags as the listing ends the line with them.
    pub(crate) const SYNC: &str = "sync";
    /// See [`SYNC`].
    pub(crate) const STOP: &str = "stop";
    /// The control word's fields beyond Mesa's text, each `name=value` (see `asm`).
    pub(crate) const COUNT: &str = "count";
    /// See [`COUNT`].
    pub(crate) const NEXT_COUNT: &str = "next_count";
    /// See [`COUNT`].
    pub(crate) const PREFETCH: &str = "prefetch";
    /// See [`COUNT`].
    pub(crate) const UNKNOWN: &str = "unknown";
    /// The instruction's length, where its `count` is more than its fields take but runs
    /// past the end of the program (the walk goes on after the fields).
    pub(crate) const WORDS: &str = "words";
}

/// The adder's first source when it is the multiplier's result (`mul_in`): `^v0` for the
/// vector adder, `^s0` for the scalar one.
pub(crate) fn mul_result(unit: Unit) -> &'static str {
    if unit == Unit::Vec4Acc { "^v0" } else { "^s0" }
}
