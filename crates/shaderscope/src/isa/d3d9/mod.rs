//! Direct3D 9 shader bytecode (shader models 1.x, 2.x and 3.0, "d3dbc").
//!
//! A program is a stream of little-endian 32-bit tokens: a version token (`0xFFFEmmnn` for
//! vertex, `0xFFFFmmnn` for pixel shaders), instructions, comments (`0xFFFE` with a length in
//! bits 16–30, holding the `CTAB` constant table or `DBUG` debug information), and the end
//! token `0x0000FFFF`. [`Program::parse`] reads it into a model that keeps every token, each
//! instruction [`decode`]d into an owned [`Instruction`] (`decode.rs`), so [`Program::write`]
//! gives the same bytes back through [`Instruction::encode`] (`encode.rs`), the encoder the
//! assembler ([`asm`]) hands its instructions to; [`write_listing`] prints it exactly as fxc's
//! disassembler does; [`Program::slots`] counts instruction slots the way fxc's statistics
//! line does (the slots of each instruction per shader model are in the opcode table,
//! [`opcodes::Slots`]); [`asm`] reads the listing back.
//!
//! One walk over a parsed program (`walk.rs`) hands each step in stream order (the version
//! token, each comment, instruction and the end token, then a missing end token, the bytes
//! after it, or where a partial reading stopped) to a visitor: the listing
//! ([`write_listing`], `print.rs`), the instruction records ([`each_record`]), the `dump`
//! annotations ([`annotate_program`], `annotate.rs`) and the checks ([`check_program`],
//! `check.rs`) are those visitors, none with a loop over the program of its own.
//!
//! The version line is [`Version::name`], the one place that names a version: `vs_2_0`,
//! `ps_1_4`, `vs_3_sw` (minor 0xff), and `ps_2_x`/`vs_2_x` for minor 1, the token of every
//! `_2_x` profile (`ps_2_a`, `ps_2_b`, `vs_2_a`, and the `*_level_9_3` targets' programs).
//!
//! The same module serves standalone `.o` files ([`crate::format::d3d9`]) and the level-9
//! program a DXBC container carries in its `Aon9` chunk. For the latter, parse the program where
//! the chunk header points (`Aon9` data: u32 size, u32 version token, u32 program size, u32
//! program offset from the start of the chunk data) with its absolute file offset as `base`, and
//! print it without the header; the text is exactly the `// Level9 shader bytecode:` section
//! of fxc's listing, from the indented version line to `// approximately …`. The program's own
//! version token names it (`ps_2_x` for level 9_3); the chunk header's is the same with minor
//! 0, as fxc writes it. Every token goes
//! through the [`Printer`](crate::print::Printer) with its kind (mnemonic, register, literal,
//! comment…), and [`records`] gives each instruction as an
//! [`InstructionRecord`](crate::isa::InstructionRecord) printed by the same code ([`each_record`]
//! hands them over one at a time):
//!
//! ```
//! use shaderscope::isa::d3d9::{self, ListingOptions, Program};
//! use shaderscope::print::TextBuf;
//!
//! // vs_2_0: dcl_position v0; mov oPos, v0; end
//! let words = [0xfffe0200u32, 0x0200001f, 0x80000000, 0x900f0000, 0x02000001, 0xc00f0000, 0x90e40000, 0xffff];
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let program = Program::parse(&bytes, 0x34).unwrap();
//! let mut out = TextBuf::default();
//! d3d9::write_listing(&program, &ListingOptions::default(), &mut out).unwrap();
//! assert_eq!(
//!     out.as_str(),
//!     "    vs_2_0\n    dcl_position v0\n    mov oPos, v0\n\n// approximately 1 instruction slot used\n"
//! );
//! let records = d3d9::records(&program, &ListingOptions::default());
//! assert_eq!((records[1].offset, records[1].text.as_str()), (0x44, "mov oPos, v0"));
//! assert_eq!(records[1].words, [0x02000001, 0xc00f0000, 0x90e40000]);
//! assert_eq!(program.slots().total, 1);
//! assert!(d3d9::check_program(&program).is_empty());
//! assert_eq!(program.write().unwrap(), bytes);
//! ```

mod annotate;
pub mod asm;
mod check;
pub mod ctab;
pub mod debug;
mod decode;
mod encode;
pub mod fields;
pub mod opcodes;
pub mod operand;
mod print;
mod walk;

pub use annotate::{annotate_partial, annotate_program, comment_fourcc};
pub use check::check_program;
pub use ctab::ConstantTable;
pub use debug::DebugInfo;
pub use decode::{Instruction, Operand, Operands, decode};
pub use opcodes::{Form, OpInfo, Opcode, Slots};
pub use operand::{Param, RegisterType};
pub use print::{ListingOptions, each_record, records, usage_name, write_listing};

/// Direct3D 9 token streams (version token to end token) as an
/// [`InstructionSet`](crate::isa::InstructionSet), with the constant table of their `CTAB`
/// comment.
#[derive(Debug, Clone, Copy)]
pub struct D3d9;

impl crate::isa::InstructionSet for D3d9 {
    fn write_listing(
        &self,
        code: &crate::isa::Code<'_>,
        opts: &crate::DisasmOptions,
        out: &mut dyn crate::print::Printer,
    ) -> Result<()> {
        let program = Program::parse(code.bytes, code.base)?;
        write_listing(&program, &ListingOptions::of(opts), out)
            .map_err(|_| Error::invalid(code.base, "listing", "the printer failed"))
    }
    fn each_record(
        &self,
        code: &crate::isa::Code<'_>,
        opts: &crate::DisasmOptions,
        f: &mut dyn FnMut(crate::isa::InstructionRecord),
    ) -> Result<()> {
        each_record(&Program::parse(code.bytes, code.base)?, &ListingOptions::of(opts), f);
        Ok(())
    }
}

use crate::error::{Error, Result};
use crate::toolkit::{Endian, Reader, Writer};
use fields::{
    D3DSHADER_VERSION_MAJOR, D3DSHADER_VERSION_MINOR, D3DSHADER_VERSION_TYPE, D3DSI_COMMENTSIZE, D3DSI_OPCODE,
};

/// Vertex or pixel shader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// `vs_*`.
    Vertex,
    /// `ps_*`.
    Pixel,
}

/// A shader model version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    /// Vertex or pixel.
    pub kind: ShaderKind,
    /// Major version (1–3).
    pub major: u8,
    /// Minor version; 1 in a 2.x program means `_2_x`, 0xff means a software (`_sw`) target.
    pub minor: u8,
}

impl Version {
    /// The version of a version token, if it is a vertex or pixel shader of model 1 to 3.
    pub fn from_token(token: u32) -> Option<Version> {
        let kind = match D3DSHADER_VERSION_TYPE.get(token) {
            0xfffe => ShaderKind::Vertex,
            0xffff => ShaderKind::Pixel,
            _ => return None,
        };
        let major = D3DSHADER_VERSION_MAJOR.get(token) as u8;
        let minor = D3DSHADER_VERSION_MINOR.get(token) as u8;
        (1..=3).contains(&major).then_some(Version { kind, major, minor })
    }

    /// The version token.
    pub fn token(&self) -> u32 {
        let kind = match self.kind {
            ShaderKind::Vertex => 0xfffe,
            ShaderKind::Pixel => 0xffff,
        };
        D3DSHADER_VERSION_TYPE.put(kind)
            | D3DSHADER_VERSION_MAJOR.put(u32::from(self.major))
            | D3DSHADER_VERSION_MINOR.put(u32::from(self.minor))
    }

    /// The profile name fxc prints: `vs_2_0`, `ps_2_x`, `vs_3_sw`, `ps_1_4`.
    pub fn name(&self) -> String {
        let kind = match self.kind {
            ShaderKind::Vertex => "vs",
            ShaderKind::Pixel => "ps",
        };
        match (self.major, self.minor) {
            (_, 0xff) => format!("{kind}_{}_sw", self.major),
            (2, 1) => format!("{kind}_2_x"),
            (major, minor) => format!("{kind}_{major}_{minor}"),
        }
    }

    /// Column of [`opcodes::SrcCounts`] for this version.
    pub fn src_column(&self) -> usize {
        match self.major {
            0 | 1 if self.kind == ShaderKind::Pixel && self.minor >= 4 => 1,
            0 | 1 => 0,
            2 => 2,
            _ => 3,
        }
    }

    /// Column of [`opcodes::Slots`] for this version: vs_1_1, vs_2_*, vs_3_*, ps_1_0–ps_1_3,
    /// ps_1_4, ps_2_*, ps_3_*.
    pub fn slot_column(&self) -> usize {
        let major = usize::from(self.major.clamp(1, 3));
        match self.kind {
            ShaderKind::Vertex => major - 1,
            ShaderKind::Pixel if major == 1 => 3 + usize::from(self.minor >= 4),
            ShaderKind::Pixel => major + 3,
        }
    }

    /// Whether instruction tokens carry their length and relative addresses their own token
    /// (shader model 2 and later).
    pub fn has_lengths(&self) -> bool {
        self.major >= 2
    }
}

/// One element of the token stream after the version token.
// Instructions, with their operands inline, make most of the items: boxing them would bring
// back an allocation per instruction.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item<'a> {
    /// A comment block: the token (with its length) and the bytes it holds.
    Comment {
        /// Absolute byte offset of the comment token.
        offset: u64,
        /// The comment token.
        token: u32,
        /// The comment's bytes (a FourCC such as `CTAB` usually comes first).
        data: &'a [u8],
    },
    /// An instruction.
    Instruction(Instruction),
    /// The end token.
    End {
        /// Absolute byte offset.
        offset: u64,
        /// The token (`0x0000FFFF`).
        token: u32,
    },
}

impl Item<'_> {
    /// Absolute byte offset of the item's first token.
    pub fn offset(&self) -> u64 {
        match self {
            Item::Comment { offset, .. } | Item::End { offset, .. } => *offset,
            Item::Instruction(i) => i.offset,
        }
    }
}

/// Instruction-slot statistics, as fxc's `// approximately N instruction slots used` line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SlotCounts {
    /// All slots.
    pub total: u32,
    /// Of which texture slots.
    pub texture: u32,
}

impl SlotCounts {
    /// Arithmetic (and flow-control) slots.
    pub fn arithmetic(&self) -> u32 {
        self.total.wrapping_sub(self.texture)
    }

    /// Count the slots of an instruction of `info` in `version`; its `(total, texture)`.
    /// Wraps rather than fails: no count past `u32::MAX` slots (a stream of tens of
    /// megabytes) means anything.
    pub(crate) fn add(&mut self, info: &OpInfo, version: Version) -> (u32, u32) {
        let (total, texture) = info.slots.in_version(version);
        self.total = self.total.wrapping_add(total);
        self.texture = self.texture.wrapping_add(texture);
        (total, texture)
    }
}

/// A parsed program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program<'a> {
    /// Absolute offset of the version token.
    pub base: u64,
    /// The shader version.
    pub version: Version,
    /// The version token as stored.
    pub version_token: u32,
    /// Everything after the version token, up to and including the end token.
    pub items: Vec<Item<'a>>,
    /// Bytes after the end token (or after the last whole token when there is none).
    pub trailing: &'a [u8],
}

impl<'a> Program<'a> {
    /// Parse the program at the start of `data`, which sits at absolute offset `base` of the
    /// input (so every error and offset points into the original file). Parsing stops after
    /// the end token; anything beyond is kept as [`Program::trailing`].
    pub fn parse(data: &'a [u8], base: u64) -> Result<Program<'a>> {
        match Self::parse_partial(data, base)? {
            (program, None) => Ok(program),
            (_, Some(e)) => Err(e),
        }
    }

    /// [`Program::parse`] that keeps what it read before a failure: the program up to the
    /// item that fails (with no trailing bytes), and the error. Fails only when there is no
    /// version token of a Direct3D 9 program.
    pub fn parse_partial(data: &'a [u8], base: u64) -> Result<(Program<'a>, Option<Error>)> {
        let mut r = Reader::with_base(data, base, Endian::Little);
        let version_token = r.u32("D3D9 version token")?;
        let version = Version::from_token(version_token).ok_or_else(|| {
            Error::invalid(base, "D3D9 version token", format!("0x{version_token:08x} is not vs/ps 1.x–3.0"))
        })?;
        // Most instructions take three or four tokens: room for an item every three.
        let mut items = Vec::with_capacity(data.len() / 12);
        let read = (|| {
            while !r.is_empty() {
                let offset = r.original_position();
                let token = r.u32_at(r.position(), "D3D9 token")?;
                if token == opcodes::END_TOKEN {
                    r.skip(4, "D3D9 token")?;
                    items.push(Item::End { offset, token });
                    break;
                }
                if D3DSI_OPCODE.get(token) == u32::from(opcodes::COMMENT) {
                    r.skip(4, "D3D9 token")?;
                    let data = r.bytes(4 * D3DSI_COMMENTSIZE.get(token) as usize, "D3D9 comment")?;
                    items.push(Item::Comment { offset, token, data });
                    continue;
                }
                // Decoded where it is kept: an instruction, with its operands inline, is large.
                let info = opcodes::lookup(D3DSI_OPCODE.get(token) as u16);
                items.push(Item::Instruction(Instruction {
                    offset,
                    token,
                    info,
                    operands: Operands::new(),
                    malformed: None,
                }));
                if let Some(Item::Instruction(ins)) = items.last_mut() {
                    if let Err(e) = decode::decode_into(&mut r, ins, version) {
                        // A partial reading keeps only whole instructions.
                        items.pop();
                        return Err(e);
                    }
                }
            }
            Ok(())
        })();
        let trailing = if read.is_ok() { data.get(r.position()..).unwrap_or(&[]) } else { &[] };
        Ok((Program { base, version, version_token, items, trailing }, read.err()))
    }

    /// The instructions in order.
    pub fn instructions(&self) -> impl Iterator<Item = &Instruction> {
        self.items.iter().filter_map(|i| if let Item::Instruction(x) = i { Some(x) } else { None })
    }

    /// Comments in order: `(absolute offset of the comment token, bytes)`.
    pub fn comments(&self) -> impl Iterator<Item = (u64, &'a [u8])> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Comment { offset, data, .. } => Some((*offset, *data)),
            _ => None,
        })
    }

    /// The first comment whose bytes start with `fourcc`: `(absolute offset of its data after
    /// the FourCC, that data)`.
    pub fn comment_block(&self, fourcc: &[u8; 4]) -> Option<(u64, &'a [u8])> {
        self.comments().find(|(_, d)| d.starts_with(fourcc)).map(|(o, d)| (o + 8, d.get(4..).unwrap_or(&[])))
    }

    /// The constant table, if the program has a `CTAB` comment (`None` when absent; an error
    /// when it is present but broken).
    pub fn constant_table(&self) -> Option<Result<ConstantTable>> {
        self.comment_block(b"CTAB").map(|(o, d)| ConstantTable::parse(d, o))
    }

    /// The debug information, if the program has a `DBUG` comment.
    pub fn debug_info(&self) -> Option<Result<DebugInfo<'a>>> {
        self.comment_block(b"DBUG").map(|(o, d)| DebugInfo::parse(d, o))
    }

    /// Whether the stream ends with the end token.
    pub fn has_end(&self) -> bool {
        matches!(self.items.last(), Some(Item::End { .. }))
    }

    /// Bytes from the version token to the end token (inclusive).
    pub fn program_len(&self) -> u64 {
        let last = self.items.last().map(|i| match i {
            Item::Comment { offset, data, .. } => offset + 4 + data.len() as u64,
            Item::Instruction(x) => x.offset + x.byte_len(),
            Item::End { offset, .. } => offset + 4,
        });
        last.unwrap_or(self.base + 4) - self.base
    }

    /// Instruction slots as fxc counts them.
    pub fn slots(&self) -> SlotCounts {
        let mut s = SlotCounts::default();
        for info in self.instructions().filter_map(|i| i.info) {
            s.add(info, self.version);
        }
        s
    }

    /// Re-encode: the version token, every item's tokens (each instruction through
    /// [`Instruction::encode`]), and the trailing bytes. Fails only where an instruction does
    /// not encode (one built with more tokens than its length field holds).
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new(Endian::Little);
        w.u32(self.version_token);
        let mut tokens = Vec::new();
        for item in &self.items {
            match item {
                Item::Comment { token, data, .. } => {
                    w.u32(*token);
                    w.bytes(data);
                }
                Item::End { token, .. } => w.u32(*token),
                Item::Instruction(ins) => {
                    tokens.clear();
                    ins.encode(self.version, &mut tokens)?;
                    tokens.iter().for_each(|t| w.u32(*t));
                }
            }
        }
        w.bytes(self.trailing);
        Ok(w.finish())
    }
}

#[cfg(test)]
mod tests;
