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

use crate::error::{Error, Result};
use std::borrow::Cow;

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
pub struct Variable {
    /// Function the variable belongs to; `None` for the entry point's locals.
    pub scope: Option<String>,
    /// Name.
    pub name: String,
    /// `(instruction record index, component per destination component)`.
    pub writes: Vec<(u32, [u16; 4])>,
}

/// The parts of a `DBUG` block the listing needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugInfo {
    /// Compiler that wrote it.
    pub creator: String,
    /// Entry-point function name.
    pub entry: String,
    /// Source file names.
    pub files: Vec<String>,
    /// One record per instruction, in program order.
    pub lines: Vec<LineRecord>,
    /// Variables.
    pub variables: Vec<Variable>,
}

#[derive(Clone, Copy)]
struct Blob<'a> {
    b: &'a [u8],
    base: u64,
}

impl<'a> Blob<'a> {
    fn u32(&self, at: usize) -> Result<u32> {
        crate::toolkit::le_u32(self.b, at).ok_or_else(|| {
            Error::truncated(self.base + at as u64, "DBUG field", 4, self.b.len().saturating_sub(at) as u64)
        })
    }

    fn u16(&self, at: usize) -> Result<u16> {
        match self.b.get(at..at.saturating_add(2)) {
            Some(&[a, b]) => Ok(u16::from_le_bytes([a, b])),
            _ => Err(Error::truncated(self.base + at as u64, "DBUG field", 2, 0)),
        }
    }

    /// The bytes of the NUL-terminated string at `at`.
    fn str_bytes(&self, at: u32) -> Result<&'a [u8]> {
        let rest = self.b.get(at as usize..).unwrap_or(&[]);
        let n = memchr::memchr(0, rest).ok_or_else(|| {
            Error::invalid(self.base + u64::from(at), "DBUG string", "no terminating NUL inside the block")
        })?;
        Ok(rest.get(..n).unwrap_or(&[]))
    }

    fn string(&self, at: u32) -> Result<Cow<'a, str>> {
        // Names are ASCII in practice: the plain check is quicker than the lossy conversion.
        self.str_bytes(at)
            .map(|b| std::str::from_utf8(b).map_or_else(|_| String::from_utf8_lossy(b), Cow::Borrowed))
    }

    /// Check that `count` records of `size` bytes fit at `at`.
    fn table(&self, at: u32, count: u32, size: u64, what: &'static str, field: usize) -> Result<usize> {
        let len = u64::from(count) * size;
        if u64::from(at) + len > self.b.len() as u64 {
            return Err(Error::out_of_bounds(
                self.base + field as u64,
                what,
                self.base + u64::from(at),
                len,
                self.base + self.b.len() as u64,
            ));
        }
        Ok(at as usize)
    }
}

/// A `DBUG` block read in place: [`DebugView::parse`] checks every table and string once (the
/// same checks, in the same order, as [`DebugInfo::parse`], which is built on it), then
/// records and strings are read on demand, so a listing allocates nothing for the block.
#[derive(Clone, Copy)]
pub(crate) struct DebugView<'a> {
    blob: Blob<'a>,
    creator: u32,
    entry: u32,
    files_at: usize,
    file_count: u32,
    lines_at: usize,
    line_count: u32,
    vars_at: usize,
    var_count: u32,
}

/// A variable record of a [`DebugView`].
#[derive(Clone, Copy)]
pub(crate) struct VariableView {
    /// Offset of the scope name; 0 for none.
    scope: u32,
    name: u32,
    writes_at: usize,
    write_count: u32,
}

impl<'a> DebugView<'a> {
    /// Check the bytes after the `DBUG` FourCC; `base` is their absolute offset.
    pub(crate) fn parse(b: &'a [u8], base: u64) -> Result<DebugView<'a>> {
        let blob = Blob { b, base };
        let creator = blob.u32(4)?;
        blob.str_bytes(creator)?;
        let file_count = blob.u32(12)?;
        let files_at = blob.table(blob.u32(16)?, file_count, 4, "DBUG file table", 16)?;
        for i in 0..file_count as usize {
            blob.str_bytes(blob.u32(files_at + 4 * i)?)?;
        }
        let line_count = blob.u32(20)?;
        let lines_at = blob.table(blob.u32(24)?, line_count, 8, "DBUG instruction table", 24)?;
        let var_count = blob.u32(28)?;
        let vars_at = blob.table(blob.u32(32)?, var_count, 20, "DBUG variable table", 32)?;
        let entry = blob.u32(36)?;
        blob.str_bytes(entry)?;
        let view = DebugView {
            blob,
            creator,
            entry,
            files_at,
            file_count,
            lines_at,
            line_count,
            vars_at,
            var_count,
        };
        for i in 0..var_count as usize {
            let at = vars_at + 20 * i;
            let scope = blob.u32(at)?;
            if scope != 0 {
                blob.str_bytes(scope)?;
            }
            blob.str_bytes(blob.u32(at + 4)?)?;
            let count = blob.u32(at + 12)?;
            blob.table(blob.u32(at + 16)?, count, 12, "DBUG variable entries", at + 16)?;
        }
        Ok(view)
    }

    /// The string at `at` (checked by [`DebugView::parse`]).
    fn string(&self, at: u32) -> Cow<'a, str> {
        self.blob.string(at).unwrap_or_default()
    }

    /// Entry-point function name.
    pub(crate) fn entry(&self) -> Cow<'a, str> {
        self.string(self.entry)
    }

    /// Source file `i`.
    pub(crate) fn file(&self, i: usize) -> Option<Cow<'a, str>> {
        if i >= self.file_count as usize {
            return None;
        }
        Some(self.string(self.blob.u32(self.files_at + 4 * i).ok()?))
    }

    /// Number of source files.
    pub(crate) fn file_count(&self) -> usize {
        self.file_count as usize
    }

    /// Number of instruction records.
    pub(crate) fn line_count(&self) -> usize {
        self.line_count as usize
    }

    /// Instruction record `i`.
    pub(crate) fn line(&self, i: usize) -> Option<LineRecord> {
        if i >= self.line_count as usize {
            return None;
        }
        let at = self.lines_at + 8 * i;
        Some(LineRecord {
            line: self.blob.u16(at).ok()?,
            file: self.blob.u16(at + 2).ok()?,
            offset: self.blob.u32(at + 4).ok()?,
        })
    }

    /// The instruction records, 8 bytes each (checked by [`DebugView::parse`]), for callers
    /// that step through them without a bounds check against the whole block per field.
    pub(crate) fn line_table(&self) -> &'a [u8] {
        let len = 8 * self.line_count as usize;
        self.blob.b.get(self.lines_at..self.lines_at.saturating_add(len)).unwrap_or(&[])
    }

    /// Number of variables.
    pub(crate) fn variable_count(&self) -> usize {
        self.var_count as usize
    }

    /// Variable `i`.
    pub(crate) fn variable(&self, i: usize) -> Option<VariableView> {
        if i >= self.var_count as usize {
            return None;
        }
        let at = self.vars_at + 20 * i;
        Some(VariableView {
            scope: self.blob.u32(at).ok()?,
            name: self.blob.u32(at + 4).ok()?,
            writes_at: self.blob.u32(at + 16).ok()? as usize,
            write_count: self.blob.u32(at + 12).ok()?,
        })
    }

    /// Scope of a variable; `None` for the entry point's locals.
    pub(crate) fn scope(&self, v: &VariableView) -> Option<Cow<'a, str>> {
        (v.scope != 0).then(|| self.string(v.scope))
    }

    /// Name of a variable.
    pub(crate) fn name(&self, v: &VariableView) -> Cow<'a, str> {
        self.string(v.name)
    }

    /// The bytes of [`DebugView::string`]: as stored when they are ASCII, as names are in
    /// practice (a quicker check than UTF-8's).
    fn text(&self, at: u32) -> Cow<'a, [u8]> {
        match self.blob.str_bytes(at) {
            Ok(b) if b.is_ascii() => Cow::Borrowed(b),
            _ => match self.string(at) {
                Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
                Cow::Owned(s) => Cow::Owned(s.into_bytes()),
            },
        }
    }

    /// [`DebugView::entry`] as bytes ([`DebugView::text`]).
    pub(crate) fn entry_text(&self) -> Cow<'a, [u8]> {
        self.text(self.entry)
    }

    /// [`DebugView::scope`] as bytes ([`DebugView::text`]).
    pub(crate) fn scope_text(&self, v: &VariableView) -> Option<Cow<'a, [u8]>> {
        (v.scope != 0).then(|| self.text(v.scope))
    }

    /// [`DebugView::name`] as bytes ([`DebugView::text`]).
    pub(crate) fn name_text(&self, v: &VariableView) -> Cow<'a, [u8]> {
        self.text(v.name)
    }

    /// The writes of a variable, in order: `(instruction record index, component per
    /// destination component)`. Read from the table [`DebugView::parse`] checked.
    pub(crate) fn writes(&self, v: &VariableView) -> impl Iterator<Item = (u32, [u16; 4])> + use<'a> {
        let len = 12 * v.write_count as usize;
        let table = self.blob.b.get(v.writes_at..v.writes_at.saturating_add(len)).unwrap_or(&[]);
        table.chunks_exact(12).map(|e| {
            let word = |i: usize| crate::toolkit::le_u32(e, i).unwrap_or(0);
            let (xy, zw) = (word(4), word(8));
            (word(0), [xy as u16, (xy >> 16) as u16, zw as u16, (zw >> 16) as u16])
        })
    }

    /// Number of writes of a variable.
    pub(crate) fn write_count(v: &VariableView) -> usize {
        v.write_count as usize
    }

    /// How many variable writes in all are read from the block. Each write table fits in the
    /// block, but many variables can name the same table, so the total could grow with the
    /// square of the block's size; fxc's tables do not overlap (12 bytes a write), and this
    /// leaves room for three times as many before further writes are ignored.
    pub(crate) fn write_budget(&self) -> usize {
        self.blob.b.len() / 4
    }
}

impl DebugInfo {
    /// Parse the bytes after the `DBUG` FourCC; `base` is their absolute offset.
    pub fn parse(b: &[u8], base: u64) -> Result<DebugInfo> {
        let view = DebugView::parse(b, base)?;
        let files = (0..view.file_count as usize).filter_map(|i| view.file(i)).map(Cow::into_owned).collect();
        let lines = (0..view.line_count()).filter_map(|i| view.line(i)).collect();
        let mut budget = view.write_budget();
        let variables = (0..view.variable_count())
            .filter_map(|i| view.variable(i))
            .map(|v| {
                let n = DebugView::write_count(&v).min(budget);
                budget -= n;
                Variable {
                    scope: view.scope(&v).map(Cow::into_owned),
                    name: view.name(&v).into_owned(),
                    writes: view.writes(&v).take(n).collect(),
                }
            })
            .collect();
        Ok(DebugInfo {
            creator: view.string(view.creator).into_owned(),
            entry: view.entry().into_owned(),
            files,
            lines,
            variables,
        })
    }

    /// The name fxc prints for a variable: `color` for a parameter of the entry point,
    /// `::color` for its locals, `ApplyFog::color` for those of an inlined function.
    pub fn variable_label(&self, v: &Variable) -> String {
        match &v.scope {
            None => format!("::{}", v.name),
            Some(s) if *s == self.entry => v.name.clone(),
            Some(s) => format!("{s}::{}", v.name),
        }
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
        let d = DebugInfo::parse(&sample(), 0).unwrap();
        assert_eq!(d.files, ["a.fx"]);
        assert_eq!(d.entry, "main");
        assert_eq!(d.creator, "cc");
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
