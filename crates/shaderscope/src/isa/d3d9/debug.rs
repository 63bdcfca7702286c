//! The debug-information comment (`DBUG`) that fxc writes with `/Zi`, as far as its listing uses
//! it: source lines (`#line 83 "Lighting.fxh"`) and which HLSL variable components an
//! instruction writes (`// ::color<0,1,2,3>`).
//!
//! Microsoft never documented this block; the layout below was worked out from the corpus
//! (DirectXTK 2020 level-9 shaders) and holds for every file there. After the FourCC, offsets
//! are relative to the first byte after it:
//!
//! | offset | field |
//! |---|---|
//! | 0 | header size (40) |
//! | 4 | offset of the creator string |
//! | 8 | unknown (0) |
//! | 12, 16 | source file count, offset of a table of name offsets |
//! | 20, 24 | instruction count, offset of 8-byte records: u16 line, u16 file (0xffff: none), u32 byte offset of the instruction from the version token |
//! | 28, 32 | variable count, offset of 20-byte records: scope name, name, type (CTAB layout), entry count, entries |
//! | 36 | offset of the entry-point name |
//!
//! A variable entry is 12 bytes: u32 instruction number (an index into the instruction
//! records), then four u16 component numbers of the variable written by the x, y, z and w of the
//! destination (0xffff where nothing is written).
//!
//! [`Program::debug_info`](super::Program::debug_info) finds and parses it.
//!
//! ```
//! use shaderscope::isa::d3d9::{DebugInfo, debug::LineRecord};
//!
//! // Header: size, creator at 104, 0, 1 file (table at 40), 1 instruction (records at 44),
//! // 1 variable (record at 52, its one write at 72), entry-point name at 93.
//! let mut b = Vec::new();
//! let mut w = |v: u32| b.extend(v.to_le_bytes());
//! [40, 104, 0, 1, 40, 1, 44, 1, 52, 93].into_iter().for_each(&mut w);
//! w(84); // 40: file 0's name
//! [0x0000_0007, 0x4].into_iter().for_each(&mut w); // 44: line 7 of file 0, at byte 4
//! [0, 98, 0, 1, 72].into_iter().for_each(&mut w); // 52: local `color`, one write
//! [0, 0x0001_0000, 0x0003_0002].into_iter().for_each(&mut w); // 72: instruction 0 writes .xyzw
//! b.extend(b"Light.fx\0main\0color\0fxc\0"); // 84, 93, 98, 104
//!
//! let d = DebugInfo::parse(&b, 0x100)?;
//! assert_eq!((d.files[0].text(), d.entry.text(), d.creator.text()), ("Light.fx".into(), "main".into(), "fxc".into()));
//! assert_eq!(d.lines, [LineRecord { line: 7, file: 0, offset: 4 }]);
//! let v = &d.variables[0];
//! assert_eq!((d.variable_label(v), v.writes.as_slice()), ("::color".to_string(), &[(0, [0, 1, 2, 3])][..]));
//! b[20] = 200; // instruction count
//! assert_eq!(
//!     DebugInfo::parse(&b, 0x100).unwrap_err().to_string(),
//!     "DBUG instruction table at offset 0x118 points outside its range (0x12c + 0x640 is outside 0x16c)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::Result;
use crate::toolkit::raw::{LittleEndian, U16, U32};
use crate::toolkit::{Cstr, Endian, Reader};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// Source position of one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRecord {
    /// Source line.
    pub line: u16,
    /// Index into [`DebugInfo::files`]; 0xffff for instructions without a position.
    pub file: u16,
    /// Byte offset of the instruction from the version token.
    pub offset: u32,
}

/// A variable and the instructions that write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable<'a> {
    /// Function the variable belongs to; `None` for the entry point's locals.
    pub scope: Option<Cstr<'a>>,
    /// Name.
    pub name: Cstr<'a>,
    /// `(instruction record index, component per destination component)`.
    pub writes: Vec<(u32, [u16; 4])>,
}

/// The parts of a `DBUG` block the listing needs; strings are read in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugInfo<'a> {
    /// Compiler that wrote it.
    pub creator: Cstr<'a>,
    /// Entry-point function name.
    pub entry: Cstr<'a>,
    /// Source file names.
    pub files: Vec<Cstr<'a>>,
    /// One record per instruction, in program order.
    pub lines: Vec<LineRecord>,
    /// Variables.
    pub variables: Vec<Variable<'a>>,
}

/// Variable writes read in all at most, for a block of `len` bytes. Each write table fits in
/// the block, but many variables can name the same table, so the total could grow with the
/// square of the block's size; fxc's tables do not overlap (12 bytes a write), and this leaves
/// room for three times as many before further writes are ignored.
fn write_budget(len: usize) -> usize {
    len / 4
}

/// An instruction record.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct RawLine {
    line: U16<LittleEndian>,
    file: U16<LittleEndian>,
    offset: U32<LittleEndian>,
}

/// A variable record.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct RawVariable {
    scope: U32<LittleEndian>,
    name: U32<LittleEndian>,
    type_info: U32<LittleEndian>,
    writes: U32<LittleEndian>,
    writes_at: U32<LittleEndian>,
}

/// A variable entry.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct RawWrite {
    record: U32<LittleEndian>,
    components: [U16<LittleEndian>; 4],
}

/// The `count` records at `at` of `r`, an offset read from the field at `field`.
fn table<'a, T>(r: &Reader<'a>, at: u32, field: usize, count: u32, what: &'static str) -> Result<&'a [T]>
where
    T: FromBytes + KnownLayout + Immutable + Unaligned,
{
    let len = u64::from(count) * size_of::<T>() as u64;
    r.sub(u64::from(at), len, what, r.base() + field as u64)?.slice_of(count as usize, what)
}

impl<'a> DebugInfo<'a> {
    /// Parse the bytes after the `DBUG` FourCC; `base` is their absolute offset.
    pub fn parse(b: &'a [u8], base: u64) -> Result<DebugInfo<'a>> {
        let r = Reader::with_base(b, base, Endian::Little);
        let string = |at: u32| r.cstr_at(at as usize, "DBUG string");
        let creator = string(r.u32_at(4, "DBUG field")?)?;
        let file_count = r.u32_at(12, "DBUG field")?;
        let files_at = r.u32_at(16, "DBUG field")?;
        let files = table::<U32<LittleEndian>>(&r, files_at, 16, file_count, "DBUG file table")?
            .iter()
            .map(|at| string(at.get()))
            .collect::<Result<Vec<_>>>()?;
        let line_count = r.u32_at(20, "DBUG field")?;
        let lines_at = r.u32_at(24, "DBUG field")?;
        let lines = table::<RawLine>(&r, lines_at, 24, line_count, "DBUG instruction table")?;
        let var_count = r.u32_at(28, "DBUG field")?;
        let vars_at = r.u32_at(32, "DBUG field")?;
        let raw_variables = table::<RawVariable>(&r, vars_at, 32, var_count, "DBUG variable table")?;
        let entry = string(r.u32_at(36, "DBUG field")?)?;
        let mut variables = Vec::with_capacity(raw_variables.len());
        let mut budget = write_budget(b.len());
        for (i, v) in raw_variables.iter().enumerate() {
            let scope = match v.scope.get() {
                0 => None,
                at => Some(string(at)?),
            };
            let name = string(v.name.get())?;
            let field = vars_at as usize + 20 * i + 16;
            let writes =
                table::<RawWrite>(&r, v.writes_at.get(), field, v.writes.get(), "DBUG variable entries")?;
            let n = writes.len().min(budget);
            budget -= n;
            let writes =
                writes.iter().take(n).map(|w| (w.record.get(), w.components.map(|c| c.get()))).collect();
            variables.push(Variable { scope, name, writes });
        }
        let lines = lines
            .iter()
            .map(|l| LineRecord { line: l.line.get(), file: l.file.get(), offset: l.offset.get() })
            .collect();
        Ok(DebugInfo { creator, entry, files, lines, variables })
    }

    /// The name fxc prints for a variable: `color` for a parameter of the entry point,
    /// `::color` for its locals, `ApplyFog::color` for those of an inlined function.
    pub fn variable_label(&self, v: &Variable<'_>) -> String {
        match &v.scope {
            None => format!("::{}", v.name),
            Some(s) if self.is_entry(s) => v.name.to_string(),
            Some(s) => format!("{s}::{}", v.name),
        }
    }

    /// Whether `scope` names the entry point (compared as text, as fxc prints them).
    pub fn is_entry(&self, scope: &Cstr<'_>) -> bool {
        scope.text() == self.entry.text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut b = Vec::new();
        let mut w = |v: u32| b.extend_from_slice(&v.to_le_bytes());
        // 0: header: size, creator at 140, 0, 1 file at 40, 2 instructions at 44, 2 variables at
        // 60, entry-point name at 129
        [40, 140, 0, 1, 40, 2, 44, 2, 60, 129].into_iter().for_each(&mut w);
        w(124); // 40: name of file 0
        // 44: (line 0, no file, offset 0x10), (line 7, file 0, offset 0x1c)
        [0xffff_0000, 0x10, 0x0000_0007, 0x1c].into_iter().for_each(&mut w);
        // 60: "pin" in scope "main" (the entry point), one write at 100; 80: local "c" at 112
        [129, 134, 0, 1, 100].into_iter().for_each(&mut w);
        [0, 138, 0, 1, 112].into_iter().for_each(&mut w);
        // 100: instruction 1 writes pin.x, pin.y; 112: instruction 0 writes c component 3 from .y
        [1, 0x0001_0000, 0xffff_ffff].into_iter().for_each(&mut w);
        [0, 0x0003_ffff, 0xffff_ffff].into_iter().for_each(&mut w);
        b.extend_from_slice(b"a.fx\0main\0pin\0c\0cc\0"); // 124, 129, 134, 138, 140
        b
    }

    #[test]
    fn reads_lines_and_variables() {
        let b = sample();
        let d = DebugInfo::parse(&b, 0).unwrap();
        assert_eq!(d.files.iter().map(|f| f.text()).collect::<Vec<_>>(), ["a.fx"]);
        assert_eq!((d.files[0].offset, d.entry.text(), d.entry.offset), (124, "main".into(), 129));
        assert_eq!(d.creator.text(), "cc");
        assert_eq!(d.lines[1], LineRecord { line: 7, file: 0, offset: 0x1c });
        assert_eq!(d.lines[0].file, 0xffff);
        assert_eq!(d.variable_label(&d.variables[0]), "pin");
        assert_eq!(d.variable_label(&d.variables[1]), "::c");
        assert_eq!(d.variables[0].writes, [(1, [0, 1, 0xffff, 0xffff])]);
        assert_eq!(d.variables[1].writes, [(0, [0xffff, 3, 0xffff, 0xffff])]);
    }

    #[test]
    fn shared_write_tables_stay_within_the_budget() {
        // 200 variables all naming one table of 400 writes: 80,000 writes if each were read.
        let (vars, writes) = (200u32, 400u32);
        let vars_at = 40 + 8;
        let writes_at = vars_at + 20 * vars;
        let strings = writes_at + 12 * writes;
        let mut b = Vec::new();
        let mut w = |v: u32| b.extend_from_slice(&v.to_le_bytes());
        [40, strings, 0, 0, 40, 1, 40, vars, vars_at, strings].into_iter().for_each(&mut w);
        [0, 0x10].into_iter().for_each(&mut w);
        for _ in 0..vars {
            [0, strings, 0, writes, writes_at].into_iter().for_each(&mut w);
        }
        for _ in 0..writes {
            [0, 0, 0].into_iter().for_each(&mut w);
        }
        b.extend_from_slice(b"x\0");
        let d = DebugInfo::parse(&b, 0).unwrap();
        let total: usize = d.variables.iter().map(|v| v.writes.len()).sum();
        assert_eq!(d.variables.len(), vars as usize);
        assert_eq!(total, b.len() / 4);
        assert_eq!(d.variables[0].writes.len(), writes as usize);
    }

    #[test]
    fn counts_beyond_the_block_are_errors() {
        let mut b = sample();
        b[20..24].copy_from_slice(&0x1000_0000u32.to_le_bytes());
        assert!(DebugInfo::parse(&b, 0).is_err());
        assert!(DebugInfo::parse(&b[..30], 0).is_err());
    }
}
