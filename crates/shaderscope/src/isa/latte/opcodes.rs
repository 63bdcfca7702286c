//! The opcode tables of the R600/R700 ("Latte") instruction words: control flow (normal,
//! export, ALU clause), ALU OP2 and OP3, texture fetch and vertex fetch. Names are the AMD
//! documents' (`SQ_CF_INST_*`, `SQ_OP2_INST_*`, …) without their prefixes, as decaf-emu prints
//! them; see the [module documentation](super) for where a table follows AMD's R700 document
//! rather than decaf.
//!
//! ```
//! use shaderscope::isa::latte::opcodes::{self, Units};
//!
//! let mov = opcodes::op2(0x19).unwrap();
//! assert_eq!((mov.name, mov.srcs, mov.units), ("MOV", 1, Units::Any));
//! assert_eq!(opcodes::op2(0x66).map(|o| o.units), Some(Units::Trans)); // RECIP_IEEE
//! assert_eq!(opcodes::op3(0x10).map(|o| o.name), Some("MULADD"));
//! assert!(opcodes::op3(0x07).is_none()); // Evergreen's FMA
//! assert_eq!((opcodes::cf_name(0x13), opcodes::tex_name(0x10)), (Some("CALL_FS"), "SAMPLE"));
//! ```

/// Which ALU units of a VLIW group an operation may run in: this decides the unit an
/// instruction goes to ([`crate::isa::latte::assign_units`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Units {
    /// Any of x, y, z, w and t (decaf: `ALU_VEC | ALU_TRANS`, and operations it does not know).
    Any,
    /// The vector units only (x, y, z, w): DOT4, CUBE, MOVA, the 64-bit operations.
    Vector,
    /// The transcendental unit t only: EXP_IEEE, RECIP_*, SIN, MULLO_INT, conversions.
    Trans,
}

/// One ALU operation of the OP2 or OP3 table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AluOp {
    /// The name (`MULADD`).
    pub name: &'static str,
    /// Source operands the listing shows (and whose literal channels count).
    pub srcs: u8,
    /// The units it may run in.
    pub units: Units,
}

const fn op(name: &'static str, srcs: u8, units: Units) -> Option<AluOp> {
    Some(AluOp { name, srcs, units })
}

use Units::{Any, Trans, Vector};

/// ALU OP2 operations (`ALU_INST`, 11 bits of word 1 from bit 7; values from 0x80 up are not
/// operations of R700), by opcode. `None`: not an R700 operation.
// Built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
pub static OP2: [Option<AluOp>; 128] = {
    let mut t: [Option<AluOp>; 128] = [None; 128];
    t[0x00] = op("ADD", 2, Any);
    t[0x01] = op("MUL", 2, Any);
    t[0x02] = op("MUL_IEEE", 2, Any);
    t[0x03] = op("MAX", 2, Any);
    t[0x04] = op("MIN", 2, Any);
    t[0x05] = op("MAX_DX10", 2, Any);
    t[0x06] = op("MIN_DX10", 2, Any);
    t[0x07] = op("FREXP_64", 1, Vector);
    t[0x08] = op("SETE", 2, Any);
    t[0x09] = op("SETGT", 2, Any);
    t[0x0A] = op("SETGE", 2, Any);
    t[0x0B] = op("SETNE", 2, Any);
    t[0x0C] = op("SETE_DX10", 2, Any);
    t[0x0D] = op("SETGT_DX10", 2, Any);
    t[0x0E] = op("SETGE_DX10", 2, Any);
    t[0x0F] = op("SETNE_DX10", 2, Any);
    t[0x10] = op("FRACT", 1, Any);
    t[0x11] = op("TRUNC", 1, Any);
    t[0x12] = op("CEIL", 1, Any);
    t[0x13] = op("RNDNE", 1, Any);
    t[0x14] = op("FLOOR", 1, Any);
    t[0x15] = op("MOVA", 1, Vector);
    t[0x16] = op("MOVA_FLOOR", 1, Vector);
    t[0x17] = op("ADD_64", 2, Any);
    t[0x18] = op("MOVA_INT", 1, Vector);
    t[0x19] = op("MOV", 1, Any);
    t[0x1A] = op("NOP", 0, Any);
    t[0x1B] = op("MUL_64", 2, Vector);
    t[0x1C] = op("FLT64_TO_FLT32", 1, Vector);
    t[0x1D] = op("FLT32_TO_FLT64", 1, Vector);
    t[0x1E] = op("PRED_SETGT_UINT", 2, Any);
    t[0x1F] = op("PRED_SETGE_UINT", 2, Any);
    t[0x20] = op("PRED_SETE", 2, Any);
    t[0x21] = op("PRED_SETGT", 2, Any);
    t[0x22] = op("PRED_SETGE", 2, Any);
    t[0x23] = op("PRED_SETNE", 2, Any);
    // One source (decaf: two).
    t[0x24] = op("PRED_SET_INV", 1, Any);
    t[0x25] = op("PRED_SET_POP", 2, Any);
    // No source (decaf: two).
    t[0x26] = op("PRED_SET_CLR", 0, Any);
    // One source (decaf: two).
    t[0x27] = op("PRED_SET_RESTORE", 1, Any);
    t[0x28] = op("PRED_SETE_PUSH", 2, Any);
    t[0x29] = op("PRED_SETGT_PUSH", 2, Any);
    t[0x2A] = op("PRED_SETGE_PUSH", 2, Any);
    t[0x2B] = op("PRED_SETNE_PUSH", 2, Any);
    t[0x2C] = op("KILLE", 2, Any);
    t[0x2D] = op("KILLGT", 2, Any);
    t[0x2E] = op("KILLGE", 2, Any);
    t[0x2F] = op("KILLNE", 2, Any);
    t[0x30] = op("AND_INT", 2, Any);
    t[0x31] = op("OR_INT", 2, Any);
    t[0x32] = op("XOR_INT", 2, Any);
    // One source in the ISA; two as decaf prints it, which the corpus listings show.
    t[0x33] = op("NOT_INT", 2, Any);
    t[0x34] = op("ADD_INT", 2, Any);
    t[0x35] = op("SUB_INT", 2, Any);
    t[0x36] = op("MAX_INT", 2, Any);
    t[0x37] = op("MIN_INT", 2, Any);
    t[0x38] = op("MAX_UINT", 2, Any);
    t[0x39] = op("MIN_UINT", 2, Any);
    t[0x3A] = op("SETE_INT", 2, Any);
    t[0x3B] = op("SETGT_INT", 2, Any);
    t[0x3C] = op("SETGE_INT", 2, Any);
    t[0x3D] = op("SETNE_INT", 2, Any);
    t[0x3E] = op("SETGT_UINT", 2, Any);
    t[0x3F] = op("SETGE_UINT", 2, Any);
    t[0x40] = op("KILLGT_UINT", 2, Any);
    t[0x41] = op("KILLGE_UINT", 2, Any);
    t[0x42] = op("PRED_SETE_INT", 2, Any);
    t[0x43] = op("PRED_SETGT_INT", 2, Any);
    t[0x44] = op("PRED_SETGE_INT", 2, Any);
    t[0x45] = op("PRED_SETNE_INT", 2, Any);
    t[0x46] = op("KILLE_INT", 2, Any);
    t[0x47] = op("KILLGT_INT", 2, Any);
    t[0x48] = op("KILLGE_INT", 2, Any);
    t[0x49] = op("KILLNE_INT", 2, Any);
    t[0x4A] = op("PRED_SETE_PUSH_INT", 2, Any);
    t[0x4B] = op("PRED_SETGT_PUSH_INT", 2, Any);
    t[0x4C] = op("PRED_SETGE_PUSH_INT", 2, Any);
    t[0x4D] = op("PRED_SETNE_PUSH_INT", 2, Any);
    t[0x4E] = op("PRED_SETLT_PUSH_INT", 2, Any);
    t[0x4F] = op("PRED_SETLE_PUSH_INT", 2, Any);
    t[0x50] = op("DOT4", 2, Vector);
    t[0x51] = op("DOT4_IEEE", 2, Vector);
    t[0x52] = op("CUBE", 2, Vector);
    // One source (decaf: two).
    t[0x53] = op("MAX4", 1, Vector);
    // 0x54..=0x5C are Evergreen operations (GROUP_BARRIER … MULHI_INT24) in decaf's table.
    // R600's MOVA_GPR_INT: one source, t only (decaf: two sources, vector only).
    t[0x60] = op("MOVA_GPR_INT", 1, Trans);
    t[0x61] = op("EXP_IEEE", 1, Trans);
    t[0x62] = op("LOG_CLAMPED", 1, Trans);
    t[0x63] = op("LOG_IEEE", 1, Trans);
    t[0x64] = op("RECIP_CLAMPED", 1, Trans);
    t[0x65] = op("RECIP_FF", 1, Trans);
    t[0x66] = op("RECIP_IEEE", 1, Trans);
    t[0x67] = op("RECIPSQRT_CLAMPED", 1, Trans);
    t[0x68] = op("RECIPSQRT_FF", 1, Trans);
    t[0x69] = op("RECIPSQRT_IEEE", 1, Trans);
    t[0x6A] = op("SQRT_IEEE", 1, Trans);
    t[0x6B] = op("FLT_TO_INT", 1, Trans);
    t[0x6C] = op("INT_TO_FLT", 1, Trans);
    t[0x6D] = op("UINT_TO_FLT", 1, Trans);
    t[0x6E] = op("SIN", 1, Trans);
    t[0x6F] = op("COS", 1, Trans);
    t[0x70] = op("ASHR_INT", 2, Any);
    t[0x71] = op("LSHR_INT", 2, Any);
    t[0x72] = op("LSHL_INT", 2, Any);
    t[0x73] = op("MULLO_INT", 2, Trans);
    t[0x74] = op("MULHI_INT", 2, Trans);
    t[0x75] = op("MULLO_UINT", 2, Trans);
    t[0x76] = op("MULHI_UINT", 2, Trans);
    t[0x77] = op("RECIP_INT", 1, Trans);
    t[0x78] = op("RECIP_UINT", 1, Trans);
    t[0x79] = op("FLT_TO_UINT", 1, Trans);
    t[0x7A] = op("LDEXP_64", 2, Vector);
    t[0x7B] = op("FRACT_64", 1, Vector);
    t[0x7C] = op("PRED_SETGT_64", 2, Vector);
    t[0x7D] = op("PRED_SETE_64", 2, Vector);
    t[0x7E] = op("PRED_SETGE_64", 2, Vector);
    t
};

/// ALU OP3 operations (`ALU_INST`, 5 bits of word 1 from bit 13; 0–3 would be OP2), by
/// opcode. `None`: not an R700 operation (4–7 are Evergreen's BFE_UINT, BFE_INT, BFI_INT and
/// FMA in decaf's table).
// Built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
pub static OP3: [Option<AluOp>; 32] = {
    let mut t: [Option<AluOp>; 32] = [None; 32];
    t[0x08] = op("MULADD_64", 3, Vector);
    t[0x09] = op("MULADD_64_M2", 3, Vector);
    t[0x0A] = op("MULADD_64_M4", 3, Vector);
    t[0x0B] = op("MULADD_64_D2", 3, Vector);
    t[0x0C] = op("MUL_LIT", 3, Trans);
    t[0x0D] = op("MUL_LIT_M2", 3, Trans);
    t[0x0E] = op("MUL_LIT_M4", 3, Trans);
    t[0x0F] = op("MUL_LIT_D2", 3, Trans);
    t[0x10] = op("MULADD", 3, Any);
    t[0x11] = op("MULADD_M2", 3, Any);
    t[0x12] = op("MULADD_M4", 3, Any);
    t[0x13] = op("MULADD_D2", 3, Any);
    t[0x14] = op("MULADD_IEEE", 3, Any);
    t[0x15] = op("MULADD_IEEE_M2", 3, Any);
    t[0x16] = op("MULADD_IEEE_M4", 3, Any);
    t[0x17] = op("MULADD_IEEE_D2", 3, Any);
    t[0x18] = op("CNDE", 3, Any);
    t[0x19] = op("CNDGT", 3, Any);
    t[0x1A] = op("CNDGE", 3, Any);
    t[0x1C] = op("CNDE_INT", 3, Any);
    t[0x1D] = op("CNDGT_INT", 3, Any);
    t[0x1E] = op("CNDGE_INT", 3, Any);
    t
};

/// Normal control-flow instructions (`CF_INST` 0–31 of `SQ_CF_WORD1`), by opcode.
// Built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
pub static CF: [Option<&str>; 32] = {
    let mut t: [Option<&str>; 32] = [None; 32];
    t[0x00] = Some("NOP");
    t[0x01] = Some("TEX");
    t[0x02] = Some("VTX");
    t[0x03] = Some("VTX_TC");
    t[0x04] = Some("LOOP_START");
    t[0x05] = Some("LOOP_END");
    t[0x06] = Some("LOOP_START_DX10");
    t[0x07] = Some("LOOP_START_NO_AL");
    t[0x08] = Some("LOOP_CONTINUE");
    t[0x09] = Some("LOOP_BREAK");
    t[0x0A] = Some("JUMP");
    t[0x0B] = Some("PUSH");
    t[0x0C] = Some("PUSH_ELSE");
    t[0x0D] = Some("ELSE");
    t[0x0E] = Some("POP");
    t[0x0F] = Some("POP_JUMP");
    t[0x10] = Some("POP_PUSH");
    t[0x11] = Some("POP_PUSH_ELSE");
    t[0x12] = Some("CALL");
    t[0x13] = Some("CALL_FS");
    t[0x14] = Some("RETURN");
    t[0x15] = Some("EMIT_VERTEX");
    t[0x16] = Some("EMIT_CUT_VERTEX");
    t[0x17] = Some("CUT_VERTEX");
    t[0x18] = Some("KILL");
    t[0x19] = Some("END_PROGRAM");
    t[0x1A] = Some("WAIT_ACK");
    t[0x1B] = Some("TEX_ACK");
    t[0x1C] = Some("VTX_ACK");
    t[0x1D] = Some("VTX_TC_ACK");
    t
};

/// Export and memory-export instructions (`CF_INST` 32–63 of `SQ_CF_ALLOC_EXPORT_WORD1`),
/// by opcode minus 32.
// Built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
pub(crate) static EXPORT: [Option<&str>; 32] = {
    let mut t: [Option<&str>; 32] = [None; 32];
    t[0x00] = Some("MEM_STREAM0");
    t[0x01] = Some("MEM_STREAM1");
    t[0x02] = Some("MEM_STREAM2");
    t[0x03] = Some("MEM_STREAM3");
    t[0x04] = Some("MEM_SCRATCH");
    t[0x05] = Some("MEM_REDUCTION");
    t[0x06] = Some("MEM_RING");
    t[0x07] = Some("EXP");
    t[0x08] = Some("EXP_DONE");
    t[0x1A] = Some("MEM_EXPORT");
    t
};

/// ALU clause instructions (`CF_INST` of `SQ_CF_ALU_WORD1`, 4 bits: 8–15), by opcode minus 8.
pub(crate) static CF_ALU: [&str; 8] = [
    "ALU",
    "ALU_PUSH_BEFORE",
    "ALU_POP_AFTER",
    "ALU_POP2_AFTER",
    "ALU_EXT",
    "ALU_CONTINUE",
    "ALU_BREAK",
    "ALU_ELSE_AFTER",
];

/// Texture-clause instructions (`TEX_INST`, 5 bits), by opcode; decaf's names (0 and 1 are
/// vertex fetches inside a texture clause, printed as VTX instructions).
pub static TEX: [&str; 32] = [
    "VTX_FETCH",
    "VTX_SEMANTIC",
    "MEM",
    "LD",
    "GET_TEXTURE_INFO",
    "GET_SAMPLE_INFO",
    "GET_COMP_TEX_LOD",
    "GET_GRADIENTS_H",
    "GET_GRADIENTS_V",
    "GET_LERP",
    "KEEP_GRADIENTS",
    "SET_GRADIENTS_H",
    "SET_GRADIENTS_V",
    "PASS",
    "SET_CUBEMAP_INDEX",
    "FETCH4",
    "SAMPLE",
    "SAMPLE_L",
    "SAMPLE_LB",
    "SAMPLE_LZ",
    "SAMPLE_G",
    "SAMPLE_G_L",
    "SAMPLE_G_LB",
    "SAMPLE_G_LZ",
    "SAMPLE_C",
    "SAMPLE_C_L",
    "SAMPLE_C_LB",
    "SAMPLE_C_LZ",
    "SAMPLE_C_G",
    "SAMPLE_C_G_L",
    "SAMPLE_C_G_LB",
    "SAMPLE_C_G_LZ",
];

/// Vertex-fetch instructions (`VTX_INST`, 5 bits), by opcode.
pub(crate) fn vtx_name(inst: u32) -> Option<&'static str> {
    match inst {
        0 => Some("FETCH"),
        1 => Some("SEMANTIC"),
        2 => Some("MEM"),
        _ => None,
    }
}

/// The OP2 operation `inst` (the 11-bit field), if R700 has it.
pub fn op2(inst: u32) -> Option<AluOp> {
    OP2.get(inst as usize).copied().flatten()
}

/// The OP3 operation `inst` (the 5-bit field), if R700 has it.
pub fn op3(inst: u32) -> Option<AluOp> {
    OP3.get(inst as usize).copied().flatten()
}

/// The normal control-flow instruction `inst` (0–31).
pub fn cf_name(inst: u32) -> Option<&'static str> {
    CF.get(inst as usize).copied().flatten()
}

/// The export instruction `inst` (32–63).
pub(crate) fn export_name(inst: u32) -> Option<&'static str> {
    EXPORT.get((inst as usize).wrapping_sub(32)).copied().flatten()
}

/// The ALU clause instruction `inst` (8–15).
pub(crate) fn alu_cf_name(inst: u32) -> &'static str {
    CF_ALU.get((inst as usize).wrapping_sub(8)).copied().unwrap_or("ALU")
}

/// The texture instruction `inst` (0–31).
pub fn tex_name(inst: u32) -> &'static str {
    TEX.get(inst as usize).copied().unwrap_or("UNKNOWN")
}
