//! PICA200 (Nintendo 3DS) vertex/geometry shader instruction set.
//!
//! Every instruction is one little-endian 32-bit word; arithmetic instructions point into an
//! operand-descriptor table (swizzles, negation, write mask). This module decodes and encodes
//! single words, and prints whole programs as picasso source (the de-facto text syntax, which
//! picasso 2.7.1 re-assembles to the same instructions).
//!
//! * [`opcodes`]: the one opcode table (3dbrew name, picasso mnemonic, encoding, bit layout,
//!   operand syntax, source lanes read) that decoding, encoding and printing all follow.
//! * [`decode`] / [`Instruction::encode`]: every word decodes (unused opcodes to
//!   [`Op::Unknown`]) and re-encodes to itself; [`OperandDescriptor`] and [`Register`] read
//!   the operands.
//! * [`write_source`]: one DVLE as complete picasso source; [`describe_word`] and
//!   [`describe_opdesc`]: one-line text for byte dumps.
//! * [`check_program`] / [`check_executable`]: semantic findings per word.
//! * [`float24`]: the 24-bit float both ways.
//!
//! The container ([`crate::format::shbin`]) owns the tables; it hands them to
//! [`write_source`] through a [`SourceContext`]. This module never looks at container bytes.

mod check;
pub mod float24;
mod flow;
mod instruction;
mod names;
pub mod opcodes;
mod source;

pub use check::{check_executable, check_program};
pub use instruction::{COMPONENTS, Instruction, OperandDescriptor, Register, RegisterFile, Swizzle, decode};
pub use opcodes::{Format, Lanes, Layout, OPCODES, Op, OpInfo, Syntax};
pub use source::{describe_opdesc, describe_word, write_source};

/// The word ranges an executable with entry range `main..endmain` runs: the entry range, every
/// range its calls reach (transitively) and code reached only by jumps. Sorted, may overlap.
pub fn reached_ranges(code: &[u32], main: u32, endmain: u32) -> Vec<std::ops::Range<u32>> {
    let insts: Vec<Instruction> = code.iter().map(|w| decode(*w)).collect();
    flow::procedures(&insts, main, endmain, 4 * insts.len() + 4096)
        .ranges
        .iter()
        .map(|r| r.start..r.end)
        .collect()
}

/// Shader stage of a DVLE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShaderType {
    /// Vertex shader.
    Vertex,
    /// Geometry shader.
    Geometry,
    /// Any other value of the DVLE type byte.
    Other(u8),
}

/// Geometry shader primitive mode (DVLE byte 0x14) and its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeometryMode {
    /// 0 point, 1 variable (subdivision), 2 fixed (particle).
    pub mode: u8,
    /// Fixed mode: first float uniform register of the vertex array (DVLE byte 0x15).
    pub fixed_start: u8,
    /// Variable mode: number of fully-defined vertices (DVLE byte 0x16).
    pub variable_count: u8,
    /// Fixed mode: number of vertices (DVLE byte 0x17).
    pub fixed_count: u8,
}

/// A uniform-table entry, in the DVLE's unified register numbering
/// (0x00–0x0F v0–v15, 0x10–0x6F c0–c95, 0x70–0x73 i0–i3, 0x78–0x87 b0–b15).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uniform {
    /// Symbol name as stored (may contain `.swizzle` text in Nintendo files).
    pub name: String,
    /// First register, unified numbering.
    pub first: u16,
    /// Last register (== first for non-arrays), unified numbering.
    pub last: u16,
}

/// An output-table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Output {
    /// Semantic: 0 position, 1 normalquat, 2 color, 3 texcoord0, 4 texcoord0w, 5 texcoord1,
    /// 6 texcoord2, 8 view, 9 picasso's dummy; others are printed numerically.
    pub semantic: u16,
    /// Output register index (o0–o15).
    pub register: u16,
    /// Component mask (bit 0 = x … bit 3 = w).
    pub mask: u16,
}

/// A constant-table entry (the register number is the plain index: c5 = 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constant {
    /// `.setb bN value`
    Bool {
        /// Register b0–b15.
        register: u8,
        /// Value.
        value: bool,
    },
    /// `.seti`/`.consti` iN (x = loop count − 1, y = initial aL, z = step, w unused).
    Int {
        /// Register i0–i3.
        register: u8,
        /// x, y, z, w.
        value: [u8; 4],
    },
    /// `.constf`/`.setf` cN as four raw float24 values.
    Float {
        /// Register c0–c95.
        register: u8,
        /// x, y, z, w as float24 bit patterns (low 24 bits).
        value: [u32; 4],
    },
}

/// A label-table entry (word address into the shared code blob).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Symbol name.
    pub name: String,
    /// Word address.
    pub address: u32,
}

/// Everything needed to print one executable (DVLE) as picasso source.
#[derive(Debug, Clone)]
pub struct SourceContext<'a> {
    /// The whole code blob shared by all DVLEs.
    pub code: &'a [u32],
    /// Operand descriptors (first word of each DVLP entry; bit 31 is ignored).
    pub opdescs: &'a [u32],
    /// Entry point (word address).
    pub main: u32,
    /// End of main (word address).
    pub endmain: u32,
    /// Vertex or geometry.
    pub shader_type: ShaderType,
    /// DVLE byte 7 bit 0: merge vertex/geometry output maps.
    pub merge_outmaps: bool,
    /// Geometry-shader mode (meaningful for geometry shaders).
    pub geometry: GeometryMode,
    /// Uniform table.
    pub uniforms: &'a [Uniform],
    /// Output table.
    pub outputs: &'a [Output],
    /// Constant table.
    pub constants: &'a [Constant],
    /// Label table (may be empty: picasso writes none).
    pub labels: &'a [Label],
    /// Byte offset of `code[0]` in the input, for `--offsets` and printer line offsets.
    pub code_offset: u64,
    /// Show each instruction's address (as a comment).
    pub offsets: bool,
    /// Show each instruction's raw word (as a comment).
    pub raw: bool,
}

/// A problem found in a program by [`check_program`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramIssue {
    /// Word index of the instruction.
    pub index: usize,
    /// What is wrong (lowercase, no trailing period).
    pub message: String,
    /// True when the hardware cannot run it as intended (false: merely suspicious).
    pub error: bool,
}
