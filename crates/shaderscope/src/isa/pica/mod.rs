//! PICA200 (Nintendo 3DS) vertex/geometry shader instruction set.
//!
//! Every instruction is one little-endian 32-bit word; arithmetic instructions point into an
//! operand-descriptor table (swizzles, negation, write mask). This module decodes and encodes
//! words, and prints whole programs as picasso source (the de-facto text syntax, which
//! picasso 2.7.1 re-assembles to the same instructions).
//!
//! A code blob is decoded once, into a [`Program`] (every word's [`Instruction`] at its word
//! address); the walk, the listing, the records, the checks and the listing of code no
//! executable runs all read that one, and none decodes words of its own. The container
//! ([`crate::format::shbin`]) decodes each blob once per command (`Dvlb::program`) and hands
//! it to each of them.
//!
//! * [`opcodes`]: the one opcode table (3dbrew name, picasso mnemonic, encoding, bit layout,
//!   operand syntax, source lanes read) that decoding, encoding and printing all follow.
//! * [`decode`] / [`Program`] / [`Instruction::encode`] (`decode.rs`, `encode.rs`): every word
//!   decodes (unused opcodes to [`Op::Unknown`]) and re-encodes to itself; [`OperandDescriptor`]
//!   and [`Register`] read the operands.
//! * `walk.rs`: the one walk over a [`Program`]: which code an executable runs
//!   ([`Executables`] for the container) and each procedure's instructions, labels and block
//!   directives in listing order, which the listing and the records both print.
//! * [`write_source`] (`print.rs`): one DVLE as complete picasso source, through any
//!   [`Printer`](crate::print::Printer): every token styled with its kind, every line started
//!   with the input offset of what it shows (an instruction its word, a declaration its table
//!   entry, the header comment the DVLE header).
//! * [`records`]: the same listing's instructions as
//!   [`InstructionRecord`](crate::isa::InstructionRecord)s, printed by the same instruction
//!   printer ([`each_record`]: one at a time); [`code_records`] ([`each_code_record`]),
//!   [`write_instruction`] / [`describe_instruction`] ([`write_word`] / [`describe_word`] for
//!   a single word) and [`write_opdesc`] / [`describe_opdesc`]: instructions and descriptors
//!   without DVLE names, for byte dumps; [`write_unreached`]: code no executable runs, as
//!   comments.
//! * [`check_program`] / [`check_executable`] (`check.rs`): semantic findings per word, over
//!   the whole blob and over the code the executable runs.
//! * [`float24`]: the 24-bit float both ways.
//! * [`asm`]: picasso 2.7.1 source (one file or several) → statements → code words, operand
//!   descriptors and each DVLE's tables, as picasso makes them; the SHBIN around them is the
//!   container's ([`crate::format::shbin::assemble`]).
//! * `tests.rs`: the unit tests of the whole (decode and encode over every opcode of the
//!   table, listing text, records, checks); `asm_tests.rs`, the assembler's.
//!
//! The container ([`crate::format::shbin`]) owns the tables; it hands them, with the offsets
//! of their entries and the decoded code, to [`write_source`] through a [`SourceContext`].
//! This module never looks at container bytes.
//!
//! ```
//! use shaderscope::isa::pica::{self, Op, Program, SourceContext, Uniform};
//! use shaderscope::print::TextBuf;
//!
//! // mov r0.xyz, v0 (descriptor 0); dp4 o0.x, c0, r0 (descriptor 1); end
//! let code = [0x4e00_0000, 0x0802_0801, 0x8800_0000];
//! // Descriptors: write mask in bits 3..0 (bit 3 is x), then the sources' swizzles (.xyzw).
//! let opdescs = [0x0006_c36e, 0x0006_c368];
//!
//! let dp4 = pica::decode(code[1]);
//! assert_eq!((dp4.op, dp4.dst, dp4.src[0], dp4.src[1], dp4.desc), (Op::Dp4, 0x00, 0x20, 0x10, 1));
//! assert_eq!(dp4.encode(), code[1]);
//! assert_eq!(pica::describe_word(code[1], &opdescs), "dp4 o0.x, c0, r0 [opdesc 0x01]");
//!
//! // The whole program, decoded once, as picasso source with a uniform named.
//! let program = Program::new(&code);
//! let uniforms = [Uniform::new("projection", 0x10, 0x13)];
//! let mut ctx = SourceContext::new(&program, &opdescs);
//! ctx.uniforms = &uniforms;
//! let mut out = TextBuf::default();
//! pica::write_source(&ctx, &mut out).unwrap();
//! assert_eq!(
//!     out.as_str(),
//!     "; vertex shader: entry 0x000..0x003 of 3 code words, 2 operand descriptors\n\
//!      .fvec projection[4] ; c0\n.entry main\n\n.proc main\n\
//!      \tmov r0.xyz, v0\n\tdp4 o0.x, projection[0], r0\n\tend\n.end\n"
//! );
//! let records = pica::records(&ctx);
//! assert_eq!((records[1].offset, records[1].words.as_slice()), (4, &code[1..2]));
//! assert!(pica::check_program(&program, opdescs.len()).is_empty());
//! ```

pub mod asm;
#[cfg(test)]
mod asm_tests;
mod check;
mod decode;
mod encode;
pub mod float24;
mod names;
pub mod opcodes;
mod print;
#[cfg(test)]
mod tests;
mod walk;

pub use check::{check_executable, check_program};
pub use decode::{
    COMPONENTS, Instruction, OperandDescriptor, Program, Register, RegisterFile, Swizzle, decode,
};
pub use opcodes::{Format, Lanes, Layout, OPCODES, Op, OpInfo, Syntax};
pub use print::{
    bare_entry, code_records, describe_instruction, describe_opdesc, describe_word, each_code_record,
    each_record, records, write_instruction, write_opdesc, write_source, write_unlisted, write_unreached,
    write_word,
};
pub use walk::Executables;

/// PICA200 code words with no executable around them as an
/// [`InstructionSet`](crate::isa::InstructionSet): listed as a vertex shader whose `main` is
/// the longest stretch of words no call reaches ([`bare_entry`]), each called range a
/// procedure. Without an operand-descriptor table masks and swizzles show as the identity,
/// and the listing says why first.
#[derive(Debug, Clone, Copy)]
pub struct Pica;

impl Pica {
    /// The code words; a length that is not a whole number of words is an error.
    fn words(code: &crate::isa::Code<'_>) -> crate::Result<Vec<u32>> {
        let whole = code.bytes.len() / 4 * 4;
        if whole != code.bytes.len() {
            return Err(crate::Error::invalid(
                code.base.saturating_add(whole as u64),
                "PICA200 code",
                format!(
                    "{} is not a whole number of 4-byte words",
                    crate::print::count(code.bytes.len(), "byte")
                ),
            ));
        }
        Ok(code
            .bytes
            .chunks_exact(4)
            .filter_map(|w| w.first_chunk::<4>())
            .map(|w| u32::from_le_bytes(*w))
            .collect())
    }

    /// How the words are listed: from their longest stretch no call reaches.
    fn context<'c>(program: &'c Program<'c>, opdescs: &'c [u32], base: u64) -> SourceContext<'c> {
        let mut ctx = SourceContext::new(program, opdescs);
        (ctx.main, ctx.endmain) = bare_entry(program);
        ctx.code_offset = base;
        ctx
    }
}

impl crate::isa::InstructionSet for Pica {
    fn write_listing(
        &self,
        code: &crate::isa::Code<'_>,
        opts: &crate::DisasmOptions,
        out: &mut dyn crate::print::Printer,
    ) -> crate::Result<()> {
        use crate::print::Style;
        let failed = |_| crate::Error::invalid(code.base, "listing", "the printer failed");
        let words = Pica::words(code)?;
        if code.opdescs.is_none() {
            out.start_line(None);
            out.styled(
                Style::Comment,
                "; no operand descriptors (they sit in the DVLP: `extract FILE opdescs`, then \
                 --opdesc): write masks and swizzles are shown as the identity",
            )
            .map_err(failed)?;
            out.write_str("\n").map_err(failed)?;
        }
        let opdescs = code.opdescs.unwrap_or(&[]);
        let program = Program::new(&words);
        let mut ctx = Pica::context(&program, opdescs, code.base);
        ctx.offsets = opts.offsets || opts.file_offsets;
        ctx.raw = opts.raw;
        write_source(&ctx, out).map_err(failed)?;
        write_unlisted(out, &program, opdescs, code.base, (ctx.main, ctx.endmain)).map_err(failed)
    }
    fn each_record(
        &self,
        code: &crate::isa::Code<'_>,
        _: &crate::DisasmOptions,
        f: &mut dyn FnMut(crate::isa::InstructionRecord),
    ) -> crate::Result<()> {
        let words = Pica::words(code)?;
        let program = Program::new(&words);
        each_record(&Pica::context(&program, code.opdescs.unwrap_or(&[]), code.base), f);
        Ok(())
    }
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

impl ShaderType {
    /// The type of a DVLE type byte (0 vertex, 1 geometry).
    pub fn from_byte(t: u8) -> ShaderType {
        match t {
            0 => ShaderType::Vertex,
            1 => ShaderType::Geometry,
            t => ShaderType::Other(t),
        }
    }

    /// The pipeline stage, if the type is one.
    pub fn stage(self) -> Option<crate::model::Stage> {
        match self {
            ShaderType::Vertex => Some(crate::model::Stage::Vertex),
            ShaderType::Geometry => Some(crate::model::Stage::Geometry),
            ShaderType::Other(_) => None,
        }
    }
}

/// Geometry shader primitive mode (DVLE byte 0x14) and its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
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

impl GeometryMode {
    /// The mode from the four DVLE bytes 0x14..0x18.
    pub fn from_bytes([mode, fixed_start, variable_count, fixed_count]: [u8; 4]) -> GeometryMode {
        GeometryMode { mode, fixed_start, variable_count, fixed_count }
    }
}

/// A uniform-table entry, in the DVLE's unified register numbering
/// (0x00–0x0F v0–v15, 0x10–0x6F c0–c95, 0x70–0x73 i0–i3, 0x78–0x87 b0–b15).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Uniform {
    /// Symbol name as stored (may contain `.swizzle` text in Nintendo files).
    pub name: String,
    /// First register, unified numbering.
    pub first: u16,
    /// Last register (== first for non-arrays), unified numbering.
    pub last: u16,
    /// Absolute offset of the table entry in the input, if it came from one.
    pub offset: Option<u64>,
}

impl Uniform {
    /// The uniform `name` on registers `first..=last` (unified numbering).
    pub fn new(name: impl Into<String>, first: u16, last: u16) -> Uniform {
        Uniform { name: name.into(), first, last, offset: None }
    }

    /// The same, read from the table entry at absolute `offset`.
    pub fn at(self, offset: Option<u64>) -> Uniform {
        Uniform { offset, ..self }
    }

    /// `c0-c3`, `v1`, `b2`, or the raw numbers when outside the unified register space.
    pub fn registers(&self) -> String {
        register_range(self.first, self.last)
    }
}

/// `c0-c3`, `v1` or raw numbers when outside the unified register space, for a range of the
/// DVLE uniform table's unified numbering.
pub fn register_range(first: u16, last: u16) -> String {
    match (unified_register_name(first), unified_register_name(last)) {
        (Some(a), _) if first == last => a,
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => format!("registers 0x{first:x}-0x{last:x}"),
    }
}

/// `v3`, `c12`, `i1`, `b4` for a register of the DVLE uniform table's unified numbering.
pub fn unified_register_name(reg: u16) -> Option<String> {
    match reg {
        0x00..=0x0f => Some(format!("v{reg}")),
        0x10..=0x6f => Some(format!("c{}", reg - 0x10)),
        0x70..=0x73 => Some(format!("i{}", reg - 0x70)),
        0x78..=0x87 => Some(format!("b{}", reg - 0x78)),
        _ => None,
    }
}

/// An output-table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Output {
    /// Semantic: 0 position, 1 normalquat, 2 color, 3 texcoord0, 4 texcoord0w, 5 texcoord1,
    /// 6 texcoord2, 8 view, 9 picasso's dummy; others are printed numerically.
    pub semantic: u16,
    /// Output register index (o0–o15).
    pub register: u16,
    /// Component mask (bit 0 = x … bit 3 = w).
    pub mask: u16,
    /// Absolute offset of the table entry in the input, if it came from one.
    pub offset: Option<u64>,
}

impl Output {
    /// Output register `register` with `semantic` and component `mask` (bit 0 = x).
    pub fn new(semantic: u16, register: u16, mask: u16) -> Output {
        Output { semantic, register, mask, offset: None }
    }

    /// The same, read from the table entry at absolute `offset`.
    pub fn at(self, offset: Option<u64>) -> Output {
        Output { offset, ..self }
    }

    /// The semantic as picasso spells it (`position`, `texcoord0`, …), if it has a name.
    pub fn semantic_name(&self) -> Option<&'static str> {
        semantic_names(self.semantic).map(|(name, _)| name)
    }
}

/// An output semantic's picasso name and the alias a listing gives its register.
pub(crate) fn semantic_names(s: u16) -> Option<(&'static str, &'static str)> {
    Some(match s {
        0 => ("position", "outpos"),
        1 => ("normalquat", "outnq"),
        2 => ("color", "outclr"),
        3 => ("texcoord0", "outtc0"),
        4 => ("texcoord0w", "outtc0w"),
        5 => ("texcoord1", "outtc1"),
        6 => ("texcoord2", "outtc2"),
        8 => ("view", "outview"),
        9 => ("dummy", "outdummy"),
        _ => return None,
    })
}

/// A constant-table entry's value (the register number is the plain index: c5 = 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstantValue {
    /// `.setb bN value`
    Bool(bool),
    /// `.seti`/`.consti` iN (x = loop count − 1, y = initial aL, z = step, w unused).
    Int([u8; 4]),
    /// `.constf`/`.setf` cN as four raw float24 values (x, y, z, w; low 24 bits).
    Float([u32; 4]),
}

/// A constant-table entry of a known type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Constant {
    /// Register index in the file the value's type names (b0–b15, i0–i3, c0–c95).
    pub register: u8,
    /// The value.
    pub value: ConstantValue,
    /// Absolute offset of the table entry in the input, if it came from one.
    pub offset: Option<u64>,
}

impl Constant {
    /// `value` for register `register` of its file.
    pub fn new(register: u8, value: ConstantValue) -> Constant {
        Constant { register, value, offset: None }
    }

    /// The same, read from the table entry at absolute `offset`.
    pub fn at(self, offset: Option<u64>) -> Constant {
        Constant { offset, ..self }
    }
}

/// A label-table entry (word address into the shared code blob).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Label {
    /// Symbol name.
    pub name: String,
    /// Word address.
    pub address: u32,
    /// Absolute offset of the table entry in the input, if it came from one.
    pub offset: Option<u64>,
}

impl Label {
    /// Label `name` at word `address`.
    pub fn new(name: impl Into<String>, address: u32) -> Label {
        Label { name: name.into(), address, offset: None }
    }

    /// The same, read from the table entry at absolute `offset`.
    pub fn at(self, offset: Option<u64>) -> Label {
        Label { offset, ..self }
    }
}

/// Everything needed to print one executable (DVLE) as picasso source. The container makes
/// one (`shbin::DvleRef::source_context`); [`SourceContext::new`] starts one for bare code.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SourceContext<'a> {
    /// The whole code blob shared by all DVLEs, decoded once.
    pub program: &'a Program<'a>,
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
    /// Byte offset of the executable's header in the input (the lines that show its fields
    /// point there), if it has one.
    pub header_offset: Option<u64>,
    /// Show each instruction's address (as a comment).
    pub offsets: bool,
    /// Show each instruction's raw word (as a comment).
    pub raw: bool,
}

impl<'a> SourceContext<'a> {
    /// A vertex shader whose entry range is all of `program`, with no tables, at offset 0.
    pub fn new(program: &'a Program<'a>, opdescs: &'a [u32]) -> SourceContext<'a> {
        SourceContext {
            program,
            opdescs,
            main: 0,
            endmain: u32::try_from(program.len()).unwrap_or(u32::MAX),
            shader_type: ShaderType::Vertex,
            merge_outmaps: false,
            geometry: GeometryMode::default(),
            uniforms: &[],
            outputs: &[],
            constants: &[],
            labels: &[],
            code_offset: 0,
            header_offset: None,
            offsets: false,
            raw: false,
        }
    }
}

/// A problem found in a program by [`check_program`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProgramIssue {
    /// Word index of the instruction.
    pub index: usize,
    /// What is wrong (lowercase, no trailing period).
    pub message: String,
    /// True when the hardware cannot run it as intended (false: merely suspicious).
    pub error: bool,
}
