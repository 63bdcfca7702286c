//! picasso 2.7.1 source → PICA200 code words, operand descriptors and executables: the
//! PICA200 assembler, whose program [`crate::format::shbin::assemble`] writes as the SHBIN
//! picasso writes.
//!
//! Two steps, as picasso takes them:
//! - `parse`: lines → statements (labels, directives, instructions with their operands as
//!   written), every error a [`LineError`] with the line and 1-based column. Nothing is
//!   resolved yet: an operand is a name (register or alias), an offset, an index register, a
//!   swizzle. A preprocessor's line marker (`# 12 "lighting.v.pica" 1`) numbers the lines after
//!   it and names their file.
//! - [`assemble_files`]: each file's statements in order, as picasso runs them, into one
//!   [`Assembled`] program: each instruction an owned [`Instruction`] (encoded with the
//!   decoder's own table), the operand-descriptor table, procedures, and one [`Executable`]
//!   (DVLE) per file with its entry range and uniform, constant and output tables.
//!   [`assemble_text`] is one file with no name.
//!
//! What picasso does that a reader may not expect, and which this module does too:
//! - **Operand descriptors are shared first-fit.** Each instruction's descriptor (mask,
//!   negations, swizzles) counts only the bits the instruction reads: source lanes it does not
//!   read ([`Lanes`], the opcode table's column) are left out. The first table entry that
//!   agrees on every bit both know is taken, and the bits only the new instruction knows are
//!   written into it; a new entry keeps the swizzle lanes as written, read or not.
//! - **MAD's descriptor must be below 32** (its field has 5 bits): when the entry found is 32
//!   or more, picasso swaps it with the first entry below 32 no MAD uses, and rewrites the
//!   descriptor field of every instruction already written.
//! - **The swapped-source forms are chosen from the operands**: `dph`, `dst`, `sge`, `slt` take
//!   the `…I` encoding when the first source is a v/r register and the second is not; `mad`
//!   takes MADI when the second source is a v/r register and the third is a uniform, or is
//!   indexed when the second is not. Writing `dphi` or `madi` does not force the form.
//! - **Padding NOPs**: `.else` and `.end` insert a `nop` after a block that just ended, after
//!   a jump or call, after `break`/`breakc` at the end of a `for`, and into an empty block
//!   (but not into an empty procedure at word 0).
//! - **Counts are not masked**: a call's procedure length and an `.else` part's length are
//!   ORed into the word as they are, so 256 words or more run into the unused bits beside
//!   the 8-bit count (a call of a 260-word procedure sets bit 8).
//! - **A condition's untested flag is 1**: `ifc cmp.x` writes the y reference bit set, where
//!   Nintendo's binaries leave it 0, so a listing of theirs reads back with that one bit
//!   changed.
//! - **Aliases compose**: an alias's `-` and the operand's cancel (`.alias n -r3` makes `-n`
//!   plain `r3`), and the operand's swizzle picks from the alias's.
//! - **Register numbers are shared**: an output register is register 0x00–0x0F as an input
//!   is, so `v3` written as a destination is `o3` and `o3` as a source is `v3`; an offset
//!   (`o15[1]`) may move a register into the next file. `v15` cannot be written (picasso's
//!   check stops at v14); `v14[1]` reaches it.
//! - **Numbers are read as C's `atof` reads them**: `.constf k(1.0/128.0, …)` is 1.0, the
//!   rest of the text ignored. A register offset cannot be negative (the manual's `r4[-2]`
//!   is refused).
//! - Any open block takes instructions: inside a `.constfa` array too. Procedures nest, and
//!   their names are not checked as identifiers.
//! - The DVLE's uniform table is sorted by register (`.in` inputs first); constants and
//!   outputs stay in source order.
//! - A vertex shader may hold 513 instructions: the limit (512) is checked before each one is
//!   added.
//! - A `.nodvle` file assembles here with no entry range; picasso refuses a run that makes no
//!   DVLE.
//!
//! Stricter than picasso, with an error where it reads on: a register letter in upper case
//! (picasso takes `R5` as register 5 of no file), `i4`–`i7` (picasso accepts them and writes
//! bit 24), text after a register name, offset, swizzle or closing parenthesis, an offset that
//! is no number (picasso reads `[x]` as `[0]`), register numbers in octal or hexadecimal,
//! values that do not start as numbers (`inf`).
//!
//! Several files (`picasso -o out.shbin a.v.pica b.v.pica lib.v.pica`) make one program:
//! - **What files share**: the code, the descriptor table, procedures (a file calls a
//!   procedure of any file; the entry may be another file's), and the register space of vertex
//!   shaders: a uniform declared again in a later file under the same name is the same
//!   register (of the same kind and size, else an error).
//! - **What each file has alone**: aliases, labels, and its executable, made when the file
//!   first needs one (an instruction, or any directive but `.proc`, `.else`, `.end` and
//!   `.alias`, though `.alias` to a literal `o` register makes one); a file of procedures
//!   alone makes none, nor does a `.nodvle` file.
//! - **Constants start at c95 again in each file, but the lowest constant stays a bound**:
//!   uniforms a later file declares stop below the lowest constant any earlier file placed.
//!   A `.gsh` geometry shader with a mode allocates in a space of its own from its first
//!   free register.
//! - **A padding `nop` owed at the end of one file** is owed in the next (picasso keeps the
//!   flag between files).
//! - The uniform table is sorted stably (picasso's sort is not stable, which shows only for
//!   more than 16 uniforms at one register, `.in` twice with the same register).
//!
//! ```
//! use shaderscope::isa::pica::asm;
//!
//! let text = ".fvec projection[4]\n.in pos v0\n.out outpos position\n\
//!             .proc main\n\tdp4 outpos.x, projection[0], pos\n\tmov outpos.yzw, pos\n\tend\n.end\n";
//! let program = asm::assemble_text(text)?;
//! assert_eq!(program.code, [0x0802_0000, 0x4c00_0001, 0x8800_0000]);
//! assert_eq!(program.opdescs, [0x0006_c368, 0x0000_0367]);
//! assert_eq!(program.executables[0].entry, (0, 3));
//!
//! let e = asm::assemble_text(".proc main\n\tmov r0, r1.xk\n.end\n").unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "line 2, column 14: expected a component (x, y, z, w or r, g, b, a or s, t, p, q)"
//! );
//! # Ok::<(), shaderscope::asm::LineError>(())
//! ```

use super::decode::Instruction;
use super::opcodes::{Lanes, OPCODES, Op, Syntax as Form};
use super::{Constant, ConstantValue, GeometryMode, Output, ShaderType, Uniform, float24, semantic_names};
pub use crate::asm::File;
use crate::asm::text::{Cursor, LineError, Syntax};
use std::collections::HashMap;

type Result<T> = std::result::Result<T, Syntax>;

/// How deep blocks (`.proc`, `ifu`/`ifc`, `for`, `.constfa`) nest: picasso's limit.
pub const MAX_NESTING: u8 = 32;

/// Instructions a vertex shader may hold before picasso refuses the next one (its check comes
/// before the word is added, so 513 fit).
const MAX_VERTEX_WORDS: usize = 512;

/// picasso's table sizes: operand descriptors, DVLE uniforms, DVLE constants, outputs.
const MAX_OPDESCS: usize = 128;
const MAX_UNIFORMS: usize = 0x60;
const MAX_CONSTANTS: usize = 0x60;
const MAX_OUTPUTS: usize = 16;

// ------------------------------------------------------------------ the statements

/// A whole source text, line by line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Source {
    /// Every line that holds a label or a statement.
    pub lines: Vec<Line>,
    /// The file names line markers (`# 12 "lighting.v.pica"`) gave, which [`Line::file`]
    /// indexes.
    pub files: Vec<String>,
}

/// One line: its labels and its statement.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    /// The file a line marker said the line comes from (an index into [`Source::files`]);
    /// `None` before the first marker: the text's own file.
    pub file: Option<usize>,
    /// 1-based line number (as line markers number it).
    pub number: usize,
    /// `name:` prefixes, in order.
    pub labels: Vec<Name>,
    /// Column (0-based) where the statement starts.
    pub column: usize,
    /// The directive or instruction, if the line has one.
    pub statement: Option<Statement>,
}

/// A name as written and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Name {
    /// The text.
    pub text: String,
    /// Its column (0-based).
    pub column: usize,
}

/// A directive or an instruction.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Statement {
    /// `.fvec`, `.proc`, `.end`, …
    Directive(Directive),
    /// An instruction with its operands as written.
    Instruction(Written),
}

/// A register operand as written: `-name[a0.x+2].xyz`, before names are resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Operand {
    /// Column (0-based) of the operand.
    pub column: usize,
    /// A leading `-`.
    pub negate: bool,
    /// Register (`r3`) or alias name.
    pub name: String,
    /// The `[n]` or `[idx+n]` offset.
    pub offset: u32,
    /// The index register (1 a0.x, 2 a0.y, 3 aL) and its column.
    pub index: Option<(u8, usize)>,
    /// The swizzle or mask, its last component repeated to four lanes (0 x … 3 w).
    pub swizzle: Option<[u8; 4]>,
}

/// A flow condition on `cmp.x` / `cmp.y`, as encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Condition {
    /// The value each flag must have (x, y).
    pub refs: [bool; 2],
    /// 0 or, 1 and, 2 x only, 3 y only.
    pub condop: u8,
}

/// An instruction as written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Written {
    /// The instruction; the plain form (`Dph`, `Mad`): the swapped one is chosen from the
    /// operands.
    pub op: Op,
    /// Its operands.
    pub operands: Operands,
}

/// The operands of an instruction, by its syntax.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Operands {
    /// `nop`, `end`, `emit`, `break`.
    None,
    /// The destination, then the sources.
    Vector(Vec<Operand>),
    /// `mova a0.xy, src`: the mask (bit 3 a0.x, bit 2 a0.y) and the source.
    Mova {
        /// Write mask.
        mask: u8,
        /// The source.
        source: Operand,
    },
    /// `cmp src1, opx, opy, src2`.
    Cmp {
        /// The two sources.
        sources: Box<[Operand; 2]>,
        /// The x and y operators (0 eq … 5 ge).
        operators: [u8; 2],
    },
    /// `breakc cond`, `ifc cond`, `callc cond, proc`, `jmpc cond, label`.
    Condition {
        /// The condition.
        condition: Condition,
        /// The procedure or label, where there is one.
        target: Option<Name>,
    },
    /// `call proc`.
    Call(Name),
    /// `ifu b`, `callu b, proc`, `jmpu [!]b, label`.
    Bool {
        /// `!` (jmpu only).
        not: bool,
        /// The boolean uniform.
        uniform: Operand,
        /// The procedure or label, where there is one.
        target: Option<Name>,
    },
    /// `for i`.
    Loop(Operand),
    /// `setemit vertex[, flags]`.
    SetEmit {
        /// Vertex id 0–2.
        vertex: u8,
        /// `prim`.
        primitive: bool,
        /// `inv`.
        invert: bool,
    },
}

/// Which uniform file a directive allocates in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UniformFile {
    /// `.fvec`, `.constf`, `.setf`: c0–c95.
    Float,
    /// `.ivec`, `.consti`, `.seti`: i0–i3.
    Int,
    /// `.bool`, `.setb`: b0–b15.
    Bool,
}

/// The four values of `.constf`/`.consti`/`.setf`/`.seti`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Values {
    /// Floats (as `atof` read them, then to 32 bits).
    Float([f32; 4]),
    /// Integers (as `atoi` read them, cut to 8 bits).
    Int([u8; 4]),
}

/// The `.gsh` line with its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Gsh {
    /// 0 point, 1 variable, 2 fixed.
    pub mode: u8,
    /// The first float uniform free for allocation.
    pub first: Operand,
    /// Fixed mode: where the vertex array starts.
    pub fixed_start: Option<Operand>,
    /// Variable/fixed mode: the vertex count.
    pub count: u8,
}

/// A directive.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Directive {
    /// `.proc name`
    Proc(Name),
    /// `.else`
    Else,
    /// `.end`
    End,
    /// `.alias name register`
    Alias {
        /// The alias.
        name: Name,
        /// What it stands for.
        register: Operand,
    },
    /// `.fvec`/`.ivec`/`.bool name, name[size], …`
    Uniform {
        /// The file.
        file: UniformFile,
        /// Each name with its size.
        names: Vec<(Name, u32)>,
    },
    /// `.constf`/`.consti name(x, y, z, w)`
    Const {
        /// The name.
        name: Name,
        /// The values (their kind is the file).
        values: Values,
    },
    /// `.constfa name[]` or `.constfa name[size]`
    ConstArray {
        /// The name.
        name: Name,
        /// The size, when given.
        size: Option<u32>,
    },
    /// `.constfa (x, y, z, w)`
    ConstArrayElement([f32; 4]),
    /// `.setf`/`.seti register(x, y, z, w)`
    Set {
        /// The register.
        register: Operand,
        /// The values.
        values: Values,
    },
    /// `.setb register value`
    SetBool {
        /// The register.
        register: Operand,
        /// The value.
        value: bool,
    },
    /// `.in name [register]`
    In {
        /// The alias.
        name: Name,
        /// The register, when given.
        register: Option<Operand>,
    },
    /// `.out name|- semantic[.mask] [register]`
    Out {
        /// The alias, unless `-`.
        name: Option<Name>,
        /// The output semantic (0 position … 9 dummy).
        semantic: u16,
        /// The mask written after the semantic (only without a register).
        mask: Option<[u8; 4]>,
        /// The register, when given.
        register: Option<Operand>,
    },
    /// `.entry name`
    Entry(Name),
    /// `.nodvle`
    NoDvle,
    /// `.gsh` with its mode, or the legacy form without one.
    Gsh(Option<Gsh>),
}

// ------------------------------------------------------------------ reading lines

/// The characters of a picasso identifier (C's, and `$`).
fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Whether `s` is an identifier as picasso checks one: a letter, `_` or `$`, then those or
/// digits.
fn is_identifier(s: &str) -> bool {
    s.chars()
        .enumerate()
        .all(|(i, c)| c.is_ascii_alphabetic() || c == '_' || c == '$' || (i > 0 && c.is_ascii_digit()))
}

const IDENTIFIER: &str = "an identifier (a letter, `_` or `$`, then letters, digits, `_` or `$`)";

/// A piece of a line between separators, trimmed, with its column.
#[derive(Debug, Clone, Copy)]
struct Piece<'a> {
    text: &'a str,
    column: usize,
}

impl<'a> Piece<'a> {
    /// A cursor over the line up to the end of this piece, at its start.
    fn cursor(&self, line: &'a str) -> Cursor<'a> {
        Cursor { text: line.get(..self.column + self.text.len()).unwrap_or(line), at: self.column }
    }
}

/// The pieces of `line[from..]` between commas, each trimmed (none when nothing is left).
fn commas(line: &str, from: usize) -> Vec<Piece<'_>> {
    let rest = line.get(from..).unwrap_or("");
    if rest.trim().is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut start = from;
    for part in rest.split(',') {
        let lead = part.len() - part.trim_start().len();
        out.push(Piece { text: part.trim(), column: start + lead });
        start += part.len() + 1;
    }
    out
}

/// The pieces of `line[from..]` between spaces or tabs.
fn words(line: &str, from: usize) -> Vec<Piece<'_>> {
    let rest = line.get(from..).unwrap_or("");
    let mut out = Vec::new();
    let mut at = from;
    for part in rest.split([' ', '\t']) {
        if !part.is_empty() {
            out.push(Piece { text: part, column: at });
        }
        at += part.len() + 1;
    }
    out
}

/// Read a whole source text into statements (nothing resolved yet).
pub(crate) fn parse(text: &str) -> std::result::Result<Source, LineError> {
    let mut source = Source { lines: Vec::new(), files: Vec::new() };
    let (mut file, mut number) = (None, 1);
    for raw in text.split('\n') {
        let at = |e: Syntax| LineError {
            file: file.and_then(|k| source.files.get(k).cloned()),
            ..e.at_line(number)
        };
        match parse_line(raw).map_err(at)? {
            Parsed::Nothing => {}
            Parsed::Marker { line, name } => {
                if let Some(name) = name {
                    file = Some(match source.files.iter().position(|f| *f == name) {
                        Some(k) => k,
                        None => {
                            source.files.push(name);
                            source.files.len() - 1
                        }
                    });
                }
                // The marker numbers the line after it.
                number = line;
                continue;
            }
            Parsed::Line { labels, column, statement } => {
                source.lines.push(Line { file, number, labels, column, statement })
            }
        }
        number += 1;
    }
    Ok(source)
}

/// What one line holds.
enum Parsed {
    /// Nothing: blank, or a comment.
    Nothing,
    /// A preprocessor's line marker, `# 12 "lighting.v.pica" 1`: the next line's number and
    /// the file it comes from.
    Marker { line: usize, name: Option<String> },
    /// Labels and perhaps a statement.
    Line { labels: Vec<Name>, column: usize, statement: Option<Statement> },
}

/// A line marker's number and name: `12 "name" flags…` (the text after `#`). A `#` line of
/// another kind (`#define` left by a missing preprocessor run) is `None`: skipped.
fn line_marker(rest: &str) -> Option<(usize, Option<String>)> {
    let rest = rest.trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let line = rest.get(..digits)?.parse().ok()?;
    let after = rest.get(digits..)?;
    if !after.is_empty() && !after.starts_with([' ', '\t']) {
        return None;
    }
    let name =
        after.trim_start().strip_prefix('"').and_then(|n| n.split_once('"')).map(|(n, _)| n.to_string());
    Some((line, name))
}

/// One line: its labels and its statement, a line marker, or nothing.
fn parse_line(raw: &str) -> Result<Parsed> {
    // Everything from `;` on is a comment; a `\r` before the line break is space.
    let line = raw.split(';').next().unwrap_or("").trim_end();
    let mut c = Cursor::new(line);
    let mut labels = Vec::new();
    c.skip_space();
    while let Some(colon) = c.rest().find(':') {
        let text = c.rest().get(..colon).unwrap_or("").trim_end();
        if !is_identifier(text) || text.is_empty() {
            return c.fail(format!("a label name: {IDENTIFIER}"));
        }
        labels.push(Name { text: text.to_string(), column: c.at });
        c.at += colon + 1;
        c.skip_space();
    }
    if c.at_end() {
        return Ok(if labels.is_empty() {
            Parsed::Nothing
        } else {
            Parsed::Line { labels, column: c.at, statement: None }
        });
    }
    let column = c.at;
    if c.eat("#") {
        return Ok(match line_marker(c.rest()) {
            Some((line, name)) if labels.is_empty() => Parsed::Marker { line, name },
            _ if labels.is_empty() => Parsed::Nothing,
            _ => Parsed::Line { labels, column, statement: None },
        });
    }
    let statement = if c.eat(".") {
        let name = c.word();
        Statement::Directive(directive(line, &mut c, name, column)?)
    } else {
        let name = c.take_while(|ch| !ch.is_whitespace());
        Statement::Instruction(instruction(line, &mut c, name, column)?)
    };
    Ok(Parsed::Line { labels, column, statement: Some(statement) })
}

/// What a directive's arguments must be read as.
fn directive(line: &str, c: &mut Cursor<'_>, name: &str, column: usize) -> Result<Directive> {
    let lower = name.to_ascii_lowercase();
    let after = c.at;
    let args = commas(line, after);
    let spaced = words(line, after);
    let none = |d: Directive| -> Result<Directive> {
        match args.first() {
            Some(p) => Cursor::new(line).fail_at(p.column, "the end of the line"),
            None => Ok(d),
        }
    };
    let exactly = |n: usize, what: &str| -> Result<()> {
        match (spaced.get(n), spaced.len() < n) {
            (Some(extra), _) => Cursor::new(line).fail_at(extra.column, "the end of the line"),
            (None, true) => Cursor::new(line).fail_at(line.trim_end().len(), what.to_string()),
            _ => Ok(()),
        }
    };
    let name_at = |p: &Piece<'_>| -> Result<Name> {
        if is_identifier(p.text) && !p.text.is_empty() {
            Ok(Name { text: p.text.to_string(), column: p.column })
        } else {
            Cursor::new(line).fail_at(p.column, IDENTIFIER)
        }
    };
    let missing = |what: &str| -> Result<Directive> {
        Cursor::new(line).fail_at(line.trim_end().len(), what.to_string())
    };
    Ok(match lower.as_str() {
        "proc" | "entry" => {
            let Some(p) = spaced.first() else { return missing("a procedure name") };
            exactly(1, "a procedure name")?;
            let n = name_at(p)?;
            if lower == "proc" { Directive::Proc(n) } else { Directive::Entry(n) }
        }
        "else" => none(Directive::Else)?,
        "end" => none(Directive::End)?,
        "nodvle" => none(Directive::NoDvle)?,
        "alias" => {
            exactly(2, "an alias name and a register")?;
            let (Some(n), Some(r)) = (spaced.first(), spaced.get(1)) else {
                return missing("an alias name and a register");
            };
            let name = name_at(n)?;
            let register = operand(line, r)?;
            Directive::Alias { name, register }
        }
        "fvec" | "ivec" | "bool" => {
            let file = match lower.as_str() {
                "fvec" => UniformFile::Float,
                "ivec" => UniformFile::Int,
                _ => UniformFile::Bool,
            };
            let mut names = Vec::new();
            for p in &args {
                let mut pc = p.cursor(line);
                let text = pc.take_while(ident_char);
                let size = if pc.eat("[") {
                    pc.skip_space();
                    let at = pc.at;
                    let n = pc.u32()?;
                    pc.skip_space();
                    pc.expect("]")?;
                    if n < 1 {
                        return pc.fail_at(at, "a uniform size of 1 or more");
                    }
                    n
                } else {
                    1
                };
                if !pc.at_end() {
                    return pc.fail("`[`, `,` or the end of the line");
                }
                names.push((name_at(&Piece { text, column: p.column })?, size));
            }
            if names.is_empty() {
                return missing("a uniform name");
            }
            Directive::Uniform { file, names }
        }
        "constf" | "consti" => {
            let mut pc = Cursor::new(line);
            pc.at = after;
            pc.skip_space();
            let at = pc.at;
            let text = pc.take_while(|ch| ch != '(').trim_end();
            if pc.at_end() {
                return pc.fail("a name and `(`");
            }
            let name = name_at(&Piece { text, column: at })?;
            let values = four(line, &mut pc, lower == "constf")?;
            Directive::Const { name, values }
        }
        "setf" | "seti" => {
            let mut pc = Cursor::new(line);
            pc.at = after;
            pc.skip_space();
            let at = pc.at;
            let text = pc.take_while(|ch| ch != '(').trim_end();
            if pc.at_end() {
                return pc.fail("a register and `(`");
            }
            let register = operand(line, &Piece { text, column: at })?;
            let values = four(line, &mut pc, lower == "setf")?;
            Directive::Set { register, values }
        }
        "constfa" => {
            let mut pc = Cursor::new(line);
            pc.at = after;
            pc.skip_space();
            if pc.rest().starts_with('(') {
                match four(line, &mut pc, true)? {
                    Values::Float(v) => Directive::ConstArrayElement(v),
                    Values::Int(_) => return pc.fail("four numbers"),
                }
            } else {
                let at = pc.at;
                let text = pc.take_while(ident_char);
                let name = name_at(&Piece { text, column: at })?;
                pc.skip_space();
                pc.expect("[")?;
                pc.skip_space();
                let size = if pc.eat("]") {
                    None
                } else {
                    let at = pc.at;
                    let n = pc.u32()?;
                    pc.skip_space();
                    pc.expect("]")?;
                    if n < 1 {
                        return pc.fail_at(at, "an array size of 1 or more");
                    }
                    Some(n)
                };
                if !pc.at_end() {
                    return pc.fail("the end of the line");
                }
                Directive::ConstArray { name, size }
            }
        }
        "setb" => {
            exactly(2, "a boolean register and a value")?;
            let (Some(r), Some(v)) = (spaced.first(), spaced.get(1)) else {
                return missing("a boolean register and a value");
            };
            let register = operand(line, r)?;
            let value = match v.text.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => true,
                "false" | "off" | "0" => false,
                _ => return Cursor::new(line).fail_at(v.column, "`true`, `false`, `on`, `off`, `1` or `0`"),
            };
            Directive::SetBool { register, value }
        }
        "in" => {
            let Some(n) = spaced.first() else { return missing("an input name") };
            exactly(spaced.len().clamp(1, 2), "an input name")?;
            let register = spaced.get(1).map(|p| operand(line, p)).transpose()?;
            Directive::In { name: name_at(n)?, register }
        }
        "out" => {
            let (Some(n), Some(t)) = (spaced.first(), spaced.get(1)) else {
                return missing("an output name (or `-`) and an output type");
            };
            exactly(spaced.len().clamp(2, 3), "an output type")?;
            let name = if n.text == "-" { None } else { Some(name_at(n)?) };
            let register = spaced.get(2).map(|p| operand(line, p)).transpose()?;
            let (type_text, mask) = match (t.text.split_once('.'), &register) {
                (Some((ty, m)), None) => {
                    let mut mc = Cursor::new(line);
                    mc.at = t.column + ty.len() + 1;
                    let mc_text = line.get(..mc.at + m.len()).unwrap_or(line);
                    let mut mc = Cursor { text: mc_text, at: mc.at };
                    (ty, Some(swizzle(&mut mc)?))
                }
                _ => (t.text, None),
            };
            let Some(semantic) = semantic_of(type_text) else {
                return Cursor::new(line).fail_at(
                    t.column,
                    "an output type (position, normalquat, color, texcoord0, texcoord0w, texcoord1, \
                     texcoord2, view or dummy)",
                );
            };
            Directive::Out { name, semantic, mask, register }
        }
        "gsh" => {
            let Some(m) = spaced.first() else { return Ok(Directive::Gsh(None)) };
            let mode = match m.text.to_ascii_lowercase().as_str() {
                "point" => 0,
                "variable" | "subdivision" => 1,
                "fixed" | "particle" => 2,
                _ => {
                    return Cursor::new(line)
                        .fail_at(m.column, "a geometry shader mode (point, variable or fixed)");
                }
            };
            let want = [2, 3, 4].get(usize::from(mode)).copied().unwrap_or(2);
            exactly(want, "the parameters of this geometry shader mode")?;
            let first = spaced.get(1).map(|p| operand(line, p)).transpose()?;
            let Some(first) = first else { return missing("the first free float uniform") };
            let fixed_start =
                if mode == 2 { spaced.get(2).map(|p| operand(line, p)).transpose()? } else { None };
            let count = match spaced.get(want - 1) {
                Some(p) if mode != 0 => {
                    let mut pc = p.cursor(line);
                    let at = pc.at;
                    let n = pc.u32()?;
                    if !pc.at_end() {
                        return pc.fail("the end of the line");
                    }
                    u8::try_from(n).or_else(|_| pc.fail_at(at, "a vertex count from 0 to 255"))?
                }
                _ => 0,
            };
            Directive::Gsh(Some(Gsh { mode, first, fixed_start, count }))
        }
        _ => {
            return Cursor::new(line).fail_at(
                column,
                "a directive (.proc .end .else .alias .fvec .ivec .bool .constf .consti .constfa \
                 .setf .seti .setb .in .out .entry .nodvle .gsh)",
            );
        }
    })
}

/// An output semantic by picasso's long or short name.
fn semantic_of(text: &str) -> Option<u16> {
    let lower = text.to_ascii_lowercase();
    let short = match lower.as_str() {
        "pos" => Some(0),
        "nquat" => Some(1),
        "clr" => Some(2),
        "tcoord0" => Some(3),
        "tcoord0w" => Some(4),
        "tcoord1" => Some(5),
        "tcoord2" => Some(6),
        _ => None,
    };
    short.or_else(|| (0..16).find(|s| semantic_names(*s).is_some_and(|(n, _)| n == lower)))
}

/// `(x, y, z, w)` from the cursor (at `(`) to the end of the line.
fn four(line: &str, c: &mut Cursor<'_>, float: bool) -> Result<Values> {
    c.expect("(")?;
    let close = match c.rest().find(')') {
        Some(k) => c.at + k,
        None => return c.fail_at(line.trim_end().len(), "`)`"),
    };
    let pieces = commas(line.get(..close).unwrap_or(line), c.at);
    if pieces.len() != 4 {
        let at = pieces.get(4).map_or(close, |p| p.column);
        return c.fail_at(at, "four values");
    }
    let mut f = [0f32; 4];
    let mut n = [0u8; 4];
    for (k, p) in pieces.iter().enumerate() {
        if let Some(slot) = f.get_mut(k) {
            *slot = c_atof(p.text);
        }
        if let Some(slot) = n.get_mut(k) {
            *slot = (c_atoi(p.text) & 0xFF) as u8;
        }
        let starts_a_number =
            p.text.trim_start_matches(['-', '+']).starts_with(|ch: char| ch.is_ascii_digit() || ch == '.');
        if !starts_a_number {
            return c.fail_at(p.column, "a number");
        }
    }
    c.at = close + 1;
    if !c.at_end() {
        return c.fail("the end of the line");
    }
    Ok(if float { Values::Float(f) } else { Values::Int(n) })
}

/// C's `atof`: the longest prefix that is a decimal number, as a double, then a float (0 when
/// there is none).
fn c_atof(text: &str) -> f32 {
    let t = text.trim_start();
    let b = t.as_bytes();
    let mut k = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        k += 1;
    }
    let digits = |k: &mut usize| {
        let s = *k;
        while b.get(*k).is_some_and(u8::is_ascii_digit) {
            *k += 1;
        }
        *k - s
    };
    let mut n = digits(&mut k);
    if b.get(k) == Some(&b'.') {
        k += 1;
        n += digits(&mut k);
    }
    if n == 0 {
        return 0.0;
    }
    let mantissa_end = k;
    if matches!(b.get(k), Some(b'e' | b'E')) {
        let mut e = k + 1;
        if matches!(b.get(e), Some(b'-' | b'+')) {
            e += 1;
        }
        if digits(&mut e) > 0 {
            k = e;
        }
    }
    let end = if k > mantissa_end { k } else { mantissa_end };
    t.get(..end).and_then(|s| s.parse::<f64>().ok()).map_or(0.0, |v| v as f32)
}

/// C's `atoi`: an optional sign and the digits that follow (0 when there are none).
fn c_atoi(text: &str) -> i64 {
    let t = text.trim_start();
    let (neg, rest) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let v = rest
        .bytes()
        .take_while(u8::is_ascii_digit)
        .fold(0i64, |v, d| v.saturating_mul(10).saturating_add(i64::from(d - b'0')));
    if neg { -v } else { v }
}

/// A swizzle or mask after the `.`: one to four components, the last repeated.
fn swizzle(c: &mut Cursor<'_>) -> Result<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut n = 0;
    let mut last = 0u8;
    while !c.at_end() {
        let Some(ch) = c.rest().chars().next() else { break };
        let comp = match ch.to_ascii_lowercase() {
            'x' | 'r' | 's' => 0,
            'y' | 'g' | 't' => 1,
            'z' | 'b' | 'p' => 2,
            'w' | 'a' | 'q' => 3,
            _ => return c.fail("a component (x, y, z, w or r, g, b, a or s, t, p, q)"),
        };
        if n == 4 {
            return c.fail("the end of the swizzle (it has at most four components)");
        }
        if let Some(slot) = out.get_mut(n) {
            *slot = comp;
        }
        last = comp;
        n += 1;
        c.at += 1;
    }
    if n == 0 {
        return c.fail("a component (x, y, z, w or r, g, b, a or s, t, p, q)");
    }
    for slot in out.iter_mut().skip(n) {
        *slot = last;
    }
    Ok(out)
}

/// An index register by its names, old and new.
fn index_register(text: &str) -> Option<u8> {
    match text.to_ascii_lowercase().as_str() {
        "a0" | "a0.x" => Some(1),
        "a1" | "a0.y" => Some(2),
        "a2" | "lcnt" | "al" => Some(3),
        _ => None,
    }
}

/// `s` trimmed, with the column of what is left (`s` starts at column `at`).
fn trim_at(s: &str, at: usize) -> (&str, usize) {
    (s.trim(), at + (s.len() - s.trim_start().len()))
}

/// A register operand: `-`, a name, `[offset]` or `[idx]` or `[idx+offset]`, `.swizzle`.
fn operand(line: &str, p: &Piece<'_>) -> Result<Operand> {
    let mut c = p.cursor(line);
    let column = c.at;
    let negate = c.eat("-");
    let name = c.take_while(ident_char);
    if name.is_empty() {
        return c.fail("a register or an alias");
    }
    let mut offset = 0;
    let mut index = None;
    if c.eat("[") {
        let Some(close) = c.rest().find(']') else { return c.fail_at(c.text.len(), "`]`") };
        let inner_end = c.at + close;
        let inner = c.rest().get(..close).unwrap_or("");
        let (whole, whole_at) = trim_at(inner, c.at);
        let (idx_part, off_part) = match whole.find('+') {
            Some(k) => (
                Some(trim_at(whole.get(..k).unwrap_or(""), whole_at)),
                Some(trim_at(whole.get(k + 1..).unwrap_or(""), whole_at + k + 1)),
            ),
            None if index_register(whole).is_some() => (Some((whole, whole_at)), None),
            None => (None, Some((whole, whole_at))),
        };
        if let Some((t, at)) = idx_part {
            match index_register(t) {
                Some(r) => index = Some((r, at)),
                None => return c.fail_at(at, "an index register (a0.x, a0.y or aL)"),
            }
        }
        if let Some((t, at)) = off_part {
            if t.starts_with('-') {
                return c.fail_at(at, "an offset of 0 or more (picasso refuses a negative one)");
            }
            let mut oc = Cursor { text: line.get(..at + t.len()).unwrap_or(line), at };
            offset = oc.u32().or_else(|_| {
                oc.fail_at(at, "a register offset (a number) or an index register (a0.x, a0.y or aL)")
            })?;
            if !oc.at_end() {
                return oc.fail("`]`");
            }
        }
        c.at = inner_end + 1;
    }
    let swizzle = if c.eat(".") { Some(self::swizzle(&mut c)?) } else { None };
    if !c.at_end() {
        return c.fail(if swizzle.is_some() {
            "`,` or the end of the line"
        } else {
            "`[`, `.`, `,` or the end of the line"
        });
    }
    Ok(Operand { column, negate, name: name.to_string(), offset, index, swizzle })
}

/// The plain form of an instruction whose swapped-source form picasso picks from operands.
fn plain(op: Op) -> Op {
    match op {
        Op::Dphi => Op::Dph,
        Op::Dsti => Op::Dst,
        Op::Sgei => Op::Sge,
        Op::Slti => Op::Slt,
        Op::Madi => Op::Mad,
        op => op,
    }
}

/// The swapped-source form of an instruction, if it has one.
fn swapped(op: Op) -> Option<Op> {
    match op {
        Op::Dph => Some(Op::Dphi),
        Op::Dst => Some(Op::Dsti),
        Op::Sge => Some(Op::Sgei),
        Op::Slt => Some(Op::Slti),
        Op::Mad => Some(Op::Madi),
        _ => None,
    }
}

/// An instruction by its mnemonic (any case; the `…i` names of the swapped forms too).
fn mnemonic(word: &str) -> Option<Op> {
    let lower = word.to_ascii_lowercase();
    let find = |m: &str| OPCODES.iter().find(|r| r.op != Op::Unknown && r.mnemonic == m).map(|r| plain(r.op));
    find(&lower).or_else(|| lower.strip_suffix('i').and_then(find).filter(|op| swapped(*op).is_some()))
}

/// A condition: `[!]cmp.x`, `[!]cmp.y`, joined by `&&`/`&` or `||`/`|`.
fn condition(line: &str, p: &Piece<'_>) -> Result<Condition> {
    let flag = |text: &str, column: usize| -> Result<(usize, bool)> {
        let t = text.trim();
        let lead = text.len() - text.trim_start().len();
        let bangs = t.len() - t.trim_start_matches('!').len();
        let not = bangs % 2 == 1;
        match t.trim_start_matches('!').to_ascii_lowercase().as_str() {
            "cmp.x" => Ok((0, not)),
            "cmp.y" => Ok((1, not)),
            _ => Cursor::new(line)
                .fail_at(column + lead, "a condition flag (`cmp.x` or `cmp.y`, `!` to negate)"),
        }
    };
    let mut refs = [true, true];
    let (condop, flags) = match p.text.find(['&', '|']) {
        Some(k) => {
            let (a, b) = p.text.split_at(k);
            let and = b.starts_with('&');
            let skip = if b.get(1..2) == b.get(..1) { 2 } else { 1 };
            let second = b.get(skip..).unwrap_or("");
            let f1 = flag(a, p.column)?;
            let f2 = flag(second, p.column + k + skip)?;
            if f1.0 == f2.0 {
                return Cursor::new(line)
                    .fail_at(p.column + k + skip, "the other flag (a condition tests each flag once)");
            }
            (u8::from(and), vec![f1, f2])
        }
        None => {
            let f = flag(p.text, p.column)?;
            (2 + f.0 as u8, vec![f])
        }
    };
    for (which, not) in flags {
        if let Some(r) = refs.get_mut(which) {
            *r = !not;
        }
    }
    Ok(Condition { refs, condop })
}

/// A name operand (procedure or label).
fn target(line: &str, p: &Piece<'_>) -> Result<Name> {
    if is_identifier(p.text) && !p.text.is_empty() {
        Ok(Name { text: p.text.to_string(), column: p.column })
    } else {
        Cursor::new(line).fail_at(p.column, format!("a procedure or label name: {IDENTIFIER}"))
    }
}

/// An instruction's operands by the syntax of its opcode table row.
fn instruction(line: &str, c: &mut Cursor<'_>, name: &str, column: usize) -> Result<Written> {
    let Some(op) = mnemonic(name) else {
        return c.fail_at(column, format!("an instruction or a directive (`{name}` is neither)"));
    };
    let args = commas(line, c.at);
    let form = op.info().syntax;
    let want = match form {
        Form::Bare => 0,
        Form::DstSrc | Form::Mova | Form::CondProc | Form::CondLabel | Form::BoolProc | Form::BoolLabel => 2,
        Form::DstSrcSrc => 3,
        Form::Cmp | Form::Mad => 4,
        Form::Cond | Form::CondBlock | Form::Proc | Form::BoolBlock | Form::Loop => 1,
        Form::SetEmit => args.len().clamp(1, 2),
        Form::Raw => 0,
    };
    if let Some(extra) = args.get(want) {
        let comma = line.get(..extra.column).and_then(|t| t.rfind(',')).unwrap_or(extra.column);
        return c.fail_at(comma, "the end of the line");
    }
    if args.len() < want {
        let end = line.trim_end().len();
        return c.fail_at(end, if args.is_empty() { "an operand" } else { "`,` and another operand" });
    }
    let arg = |k: usize| args.get(k).copied().unwrap_or(Piece { text: "", column: line.len() });
    let op_name = |p: Piece<'_>| -> Result<u8> {
        match p.text.to_ascii_lowercase().as_str() {
            "eq" => Ok(0),
            "ne" => Ok(1),
            "lt" => Ok(2),
            "le" => Ok(3),
            "gt" => Ok(4),
            "ge" => Ok(5),
            _ => c.fail_at(p.column, "a comparison (eq, ne, lt, le, gt or ge)"),
        }
    };
    let operands = match form {
        Form::Bare | Form::Raw => Operands::None,
        Form::DstSrc | Form::DstSrcSrc | Form::Mad => {
            Operands::Vector(args.iter().map(|p| operand(line, p)).collect::<Result<_>>()?)
        }
        Form::Mova => {
            let t = arg(0);
            let mask = match t.text.to_ascii_lowercase().as_str() {
                "a0" | "a0.x" => 8,
                "a1" | "a0.y" => 4,
                "a01" | "a0.xy" => 12,
                _ => return c.fail_at(t.column, "an address register (a0.x, a0.y or a0.xy)"),
            };
            Operands::Mova { mask, source: operand(line, &arg(1))? }
        }
        Form::Cmp => {
            let a = operand(line, &arg(0))?;
            let operators = [op_name(arg(1))?, op_name(arg(2))?];
            let b = operand(line, &arg(3))?;
            Operands::Cmp { sources: Box::new([a, b]), operators }
        }
        Form::Cond | Form::CondBlock => {
            Operands::Condition { condition: condition(line, &arg(0))?, target: None }
        }
        Form::CondProc | Form::CondLabel => {
            Operands::Condition { condition: condition(line, &arg(0))?, target: Some(target(line, &arg(1))?) }
        }
        Form::Proc => Operands::Call(target(line, &arg(0))?),
        Form::BoolProc | Form::BoolLabel | Form::BoolBlock => {
            let p = arg(0);
            let not = p.text.starts_with('!');
            if not && op != Op::Jmpu {
                return c.fail_at(p.column, "a boolean uniform (only jmpu may negate it with `!`)");
            }
            let p = if not { Piece { text: p.text.get(1..).unwrap_or(""), column: p.column + 1 } } else { p };
            let uniform = operand(line, &p)?;
            let target = if form == Form::BoolBlock { None } else { Some(target(line, &arg(1))?) };
            Operands::Bool { not, uniform, target }
        }
        Form::Loop => Operands::Loop(operand(line, &arg(0))?),
        Form::SetEmit => {
            let v = arg(0);
            let mut vc = v.cursor(line);
            let n = vc.u32()?;
            if !vc.at_end() {
                return vc.fail("`,` or the end of the line");
            }
            if n > 2 {
                return c.fail_at(v.column, "a vertex id from 0 to 2");
            }
            let (mut primitive, mut invert) = (false, false);
            if let Some(f) = args.get(1) {
                for w in words(line.get(..f.column + f.text.len()).unwrap_or(line), f.column) {
                    match w.text.to_ascii_lowercase().as_str() {
                        "prim" | "primitive" => primitive = true,
                        "inv" | "invert" => invert = true,
                        _ => return c.fail_at(w.column, "an emit flag (prim or inv)"),
                    }
                }
            }
            Operands::SetEmit { vertex: n as u8, primitive, invert }
        }
    };
    Ok(Written { op, operands })
}

// ------------------------------------------------------------------ assembling

/// A procedure: where its code starts and how many words it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Procedure {
    /// Its name.
    pub name: String,
    /// First word.
    pub start: u32,
    /// Number of words.
    pub len: u32,
}

/// A program assembled from one or more source files: the code, operand descriptors and
/// executables picasso writes for them (one DVLB).
#[derive(Debug, Clone, PartialEq)]
pub struct Assembled {
    /// Each code word's instruction.
    pub instructions: Vec<Instruction>,
    /// The code words ([`Instruction::encode`] of each).
    pub code: Vec<u32>,
    /// The operand-descriptor table.
    pub opdescs: Vec<u32>,
    /// Where each word comes from: the file (an index into [`Assembled::files`]) and its
    /// 1-based line (a padding `nop`: the `.else`/`.end` that inserted it).
    pub lines: Vec<(usize, usize)>,
    /// The files' names: those given, in order, then those line markers gave.
    pub files: Vec<String>,
    /// Procedures in source order (every file's: a procedure is called from any file).
    pub procedures: Vec<Procedure>,
    /// One executable (DVLE) per file that declares or assembles anything of one, in file
    /// order; a `.nodvle` file gives none.
    pub executables: Vec<Executable>,
    /// The uniforms every vertex shader shares, in the order they were declared (a name
    /// declared again in a later file is listed again, at the same register): what
    /// picasso's `-h` header lists.
    pub shared_uniforms: Vec<SharedUniform>,
}

/// One executable (DVLE): its entry range and its tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Executable {
    /// The file it comes from (an index into [`Assembled::files`]).
    pub file: usize,
    /// The entry procedure's range (`main..endmain`, word addresses).
    pub entry: (u32, u32),
    /// Vertex or geometry.
    pub shader_type: ShaderType,
    /// The geometry shader mode (`.gsh`).
    pub geometry: GeometryMode,
    /// Whether the output maps merge (a geometry shader with a dummy output).
    pub merge_outmaps: bool,
    /// The input registers `.in` declares (bit k: v*k*).
    pub input_mask: u16,
    /// The output registers `.out` declares (bit k: o*k*).
    pub output_mask: u16,
    /// The uniform table (unified numbering), `.in` inputs included, sorted by register.
    pub uniforms: Vec<Uniform>,
    /// The constant table, in source order.
    pub constants: Vec<Constant>,
    /// The output table, in source order.
    pub outputs: Vec<Output>,
}

/// A uniform in the register space vertex shaders share: the same name in two files is the
/// same register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedUniform {
    /// As declared (`$` not yet `.`; a leading `_` hides it from the DVLE's table).
    pub name: String,
    /// Which register file.
    pub file: UniformFile,
    /// First register, in picasso's numbering (c0 0x20, i0 0x80, b0 0x88).
    pub register: u32,
    /// Registers it takes.
    pub size: u32,
}

/// An alias: a register in picasso's numbering (v/o 0x00, r 0x10, c 0x20, i 0x80, b 0x88),
/// its negation and swizzle.
#[derive(Debug, Clone, Copy)]
struct Alias {
    reg: u32,
    negate: bool,
    swizzle: [u8; 4],
}

/// An operand resolved to a register.
#[derive(Debug, Clone, Copy)]
struct Resolved {
    reg: u32,
    negate: bool,
    swizzle: [u8; 4],
    index: u8,
}

impl Resolved {
    /// The 9 bits of a source in an operand descriptor: negation, then the swizzle.
    fn source_bits(&self) -> u32 {
        let sw = self.swizzle.iter().fold(0u32, |s, c| (s << 2) | u32::from(*c & 3));
        u32::from(self.negate) | (sw << 1)
    }

    /// The write mask of a destination (bit 3 x … bit 0 w): every component its swizzle names.
    fn mask(&self) -> u32 {
        self.swizzle.iter().fold(0, |m, c| m | (8 >> (c & 3)))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Proc,
    If,
    For,
    Array,
}

#[derive(Debug, Clone)]
struct Block {
    kind: BlockKind,
    /// Word where the block starts (the if/for instruction, or the procedure's first word).
    pos: usize,
    /// Where the else part starts.
    else_at: Option<usize>,
    name: String,
    at: Place,
}

/// A range picasso allocates uniforms in: globals upward from `start`, constants downward from
/// `end`; `bound` is the lowest constant ever placed, which globals of later files do not
/// pass either; `top` is where each file's constants start again.
#[derive(Debug, Clone, Copy)]
struct Pool {
    start: u32,
    end: u32,
    bound: u32,
    top: u32,
}

impl Pool {
    fn new(start: u32, end: u32) -> Pool {
        Pool { start, end, bound: end, top: end }
    }
    /// A new file's constants start from the top again (the bound stays).
    fn clear_local(&mut self) {
        self.end = self.top;
    }
    fn global(&mut self, size: u32) -> Option<u32> {
        let r = self.start;
        (r.checked_add(size)? <= self.bound).then(|| {
            self.start += size;
            r
        })
    }
    fn local(&mut self, size: u32) -> Option<u32> {
        let pos = self.end.checked_sub(size).filter(|p| *p >= self.start)?;
        self.bound = self.bound.min(pos);
        self.end = pos;
        Some(pos)
    }
}

/// A `.constfa` array being read: its name and column, its size if given, its elements.
#[derive(Debug)]
struct ConstArray {
    name: String,
    column: usize,
    size: Option<u32>,
    elements: Vec<[f32; 4]>,
}

/// A word whose target is a name resolved later: a label (at the end of its file) or a
/// procedure (once every file is read).
#[derive(Debug)]
struct Reference {
    word: usize,
    name: String,
    at: Place,
}

/// Where a statement is: file (an index into [`Assembled::files`]), line, column.
#[derive(Debug, Clone, Copy)]
struct Place {
    file: usize,
    line: usize,
    column: usize,
}

impl Place {
    /// An error here (a file with no name, a text given alone, is not named).
    fn error(self, files: &[String], what: impl Into<String>) -> LineError {
        let file = files.get(self.file).filter(|f| !f.is_empty()).cloned();
        LineError { file, ..LineError::new(self.line, self.column, what) }
    }
}

/// A DVLE while its file is read.
struct Dvle {
    exe: Executable,
    nodvle: bool,
    /// A geometry shader, and one in the vertex shaders' register space (`.gsh` with no
    /// mode, or `setemit` in a shader that had none).
    geometry: bool,
    compat_geometry: bool,
    /// The output components declared, 4 bits per register.
    output_used: u64,
    /// `.entry`'s procedure, where it was named.
    entry: Option<(String, Place)>,
}

/// Everything picasso keeps while it reads the files: the program and what files share
/// (code, descriptors, procedures, the shared uniform space), then what it clears before
/// each file (aliases, labels, the file's DVLE).
struct State {
    out: Assembled,
    /// Each descriptor's bits that some instruction reads.
    known: Vec<u32>,
    mad_descs: u32,
    procs: HashMap<String, (u32, u32)>,
    calls: Vec<Reference>,
    /// Not cleared between files: picasso pads after a block that ended in the file before.
    last_was_end: bool,
    /// The register space vertex shaders (and compatible geometry shaders) share, and the one
    /// a `.gsh` with a mode starts afresh.
    pools: [Pool; 3],
    gsh_pools: [Pool; 3],
    dvles: Vec<Dvle>,
    // Per file: the file read, the file its current line comes from (another when a line
    // marker names one), its DVLE once something needs one.
    file: usize,
    line_file: usize,
    current: Option<Dvle>,
    aliases: HashMap<String, Alias>,
    labels: HashMap<String, u32>,
    jumps: Vec<Reference>,
    stack: Vec<Block>,
    array: Option<ConstArray>,
}

/// Assemble source files into one program, as picasso does given them in this order: the
/// code, operand descriptors, procedures and shared uniforms are the files' together; each
/// file has its own aliases and labels and gives one executable (DVLE) unless it is
/// `.nodvle` or declares nothing of one. Errors name the file (or the file a line marker
/// named), the line and the column.
pub fn assemble_files(files: &[File<'_>]) -> std::result::Result<Assembled, LineError> {
    let mut s = State {
        out: Assembled {
            instructions: Vec::new(),
            code: Vec::new(),
            opdescs: Vec::new(),
            lines: Vec::new(),
            files: files.iter().map(|f| f.name.to_string()).collect(),
            procedures: Vec::new(),
            executables: Vec::new(),
            shared_uniforms: Vec::new(),
        },
        known: Vec::new(),
        mad_descs: 0,
        procs: HashMap::new(),
        calls: Vec::new(),
        last_was_end: false,
        pools: [Pool::new(0x20, 0x80), Pool::new(0x80, 0x84), Pool::new(0x88, 0x98)],
        gsh_pools: [Pool::new(0x20, 0x80), Pool::new(0x80, 0x84), Pool::new(0x88, 0x97)],
        dvles: Vec::new(),
        file: 0,
        line_file: 0,
        current: None,
        aliases: HashMap::new(),
        labels: HashMap::new(),
        jumps: Vec::new(),
        stack: Vec::new(),
        array: None,
    };
    for (k, f) in files.iter().enumerate() {
        let source = parse(f.text).map_err(|e| if f.name.is_empty() { e } else { e.in_file(f.name) })?;
        s.read_file(k, &source)?;
    }
    s.finish()
}

/// Assemble one source text with no file name ([`assemble_files`] of one file).
pub fn assemble_text(text: &str) -> std::result::Result<Assembled, LineError> {
    assemble_files(&[File { name: "", text }])
}

impl State {
    /// Read one file's statements; at its end, its blocks must be closed and its labels
    /// resolve.
    fn read_file(&mut self, k: usize, source: &Source) -> std::result::Result<(), LineError> {
        self.file = k;
        self.aliases.clear();
        self.labels.clear();
        for p in &mut self.pools {
            p.clear_local();
        }
        let named: Vec<usize> = source.files.iter().map(|n| self.file_index(n)).collect();
        for l in &source.lines {
            self.line_file = l.file.and_then(|i| named.get(i).copied()).unwrap_or(k);
            if let Err(e) = self.line(l) {
                return Err(self.place(l, e.column).error(&self.out.files, e.expected));
            }
        }
        if let Some(b) = self.stack.last() {
            let what = match b.kind {
                BlockKind::Proc => "`.end` of this procedure before the end of the file",
                BlockKind::Array => "`.end` of this constant array before the end of the file",
                _ => "`.end` of this block before the end of the file",
            };
            return Err(b.at.error(&self.out.files, what));
        }
        for r in std::mem::take(&mut self.jumps) {
            let Some(&a) = self.labels.get(&r.name) else {
                let what = format!("a label (`{}` is not defined in this file)", r.name);
                return Err(r.at.error(&self.out.files, what));
            };
            if let Some(i) = self.out.instructions.get_mut(r.word) {
                patch(i, |w| set_target(w, a as usize));
            }
        }
        if let Some(d) = self.current.take() {
            self.dvles.push(d);
        }
        Ok(())
    }

    /// The index of file `name` in [`Assembled::files`], added if new.
    fn file_index(&mut self, name: &str) -> usize {
        match self.out.files.iter().position(|f| f == name) {
            Some(k) => k,
            None => {
                self.out.files.push(name.to_string());
                self.out.files.len() - 1
            }
        }
    }

    /// The file's DVLE, made when first needed (picasso makes one for any instruction and for
    /// every directive but `.proc`, `.else`, `.end` and `.alias`).
    fn dvle(&mut self) -> &mut Dvle {
        let file = self.file;
        self.current.get_or_insert_with(|| Dvle {
            exe: Executable {
                file,
                entry: (0, 0),
                shader_type: ShaderType::Vertex,
                geometry: GeometryMode::default(),
                merge_outmaps: false,
                input_mask: 0,
                output_mask: 0,
                uniforms: Vec::new(),
                constants: Vec::new(),
                outputs: Vec::new(),
            },
            nodvle: false,
            geometry: false,
            compat_geometry: false,
            output_used: 0,
            entry: None,
        })
    }

    /// Where column `column` of line `l` is.
    fn place(&self, l: &Line, column: usize) -> Place {
        Place { file: self.line_file, line: l.number, column }
    }

    /// The uniform space the DVLE allocates in, of register file `k` (float, int, bool).
    fn pool(&mut self, k: usize) -> Option<&mut Pool> {
        if self.uses_gsh_space() { self.gsh_pools.get_mut(k) } else { self.pools.get_mut(k) }
    }

    fn line(&mut self, l: &Line) -> Result<()> {
        for n in &l.labels {
            if self.labels.contains_key(&n.text) {
                return self.fail(n.column, "a label name not used before in this file");
            }
            self.labels.insert(n.text.clone(), self.out.instructions.len() as u32);
        }
        match &l.statement {
            None => Ok(()),
            Some(Statement::Directive(d)) => self.directive(d, l),
            Some(Statement::Instruction(w)) => {
                if self.stack.is_empty() {
                    return self.fail(
                        l.column,
                        "`.proc` before the first instruction (picasso assembles code only inside a \
                         procedure)",
                    );
                }
                self.last_was_end = false;
                if !self.dvle().geometry && self.out.instructions.len() > MAX_VERTEX_WORDS {
                    return self.fail(
                        l.column,
                        "no more instructions: a vertex shader holds at most 512 (picasso lets 513 in)",
                    );
                }
                self.instruction(w, l)
            }
        }
    }

    /// An error at `column` of the statement's line.
    fn fail<T>(&self, column: usize, what: impl Into<String>) -> Result<T> {
        Err(Syntax { column, expected: what.into() })
    }

    fn push(&mut self, i: Instruction, line: usize) {
        self.out.instructions.push(i);
        self.out.lines.push((self.line_file, line));
    }

    fn max_output(&self) -> u32 {
        if self.current.as_ref().is_some_and(|d| d.geometry) { 7 } else { 16 }
    }

    fn uses_gsh_space(&self) -> bool {
        self.current.as_ref().is_some_and(|d| d.geometry && !d.compat_geometry)
    }

    /// An operand's register, negation, swizzle and index, through aliases. `index_ok`: the
    /// position accepts an index register.
    fn resolve(&self, o: &Operand, index_ok: bool) -> Result<Resolved> {
        let index = match o.index {
            Some((_, at)) if !index_ok => return self.fail(at, "`]` (no index register here)"),
            Some((r, _)) => r,
            None => 0,
        };
        let sw = o.swizzle.unwrap_or([0, 1, 2, 3]);
        if let Some(a) = self.aliases.get(&o.name) {
            let swizzle = sw.map(|c| a.swizzle.get(usize::from(c & 3)).copied().unwrap_or(0));
            return Ok(Resolved {
                reg: a.reg.saturating_add(o.offset),
                negate: o.negate ^ a.negate,
                swizzle,
                index,
            });
        }
        let mut chars = o.name.chars();
        let letter = chars.next().unwrap_or(' ');
        let digits = chars.as_str();
        let not_a_register = || {
            self.fail(
                o.column + usize::from(o.negate),
                format!("a register or an alias (`{}` is neither)", o.name),
            )
        };
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.is_empty() || !"ovrcib".contains(letter) {
            return not_a_register();
        }
        let n: u32 = digits.parse().unwrap_or(u32::MAX);
        let (base, count, what) = match letter {
            'o' => (0, self.max_output(), "an output register (o0-o15, o0-o6 in a geometry shader)"),
            'v' => (0, 15, "an input register (v0-v14; v15 is written v14[1])"),
            'r' => (0x10, 16, "a temporary register (r0-r15)"),
            'c' => (0x20, 96, "a float uniform (c0-c95)"),
            'i' => (0x80, 4, "an integer uniform (i0-i3)"),
            _ => (0x88, 16, "a boolean uniform (b0-b15)"),
        };
        if n >= count {
            return self.fail(o.column + usize::from(o.negate), what);
        }
        if index != 0 && letter != 'c' {
            if let Some((_, at)) = o.index {
                return self
                    .fail(at, "`]`: only a float uniform (c0-c95) or an alias takes an index register");
            }
        }
        Ok(Resolved { reg: (base + n).saturating_add(o.offset), negate: o.negate, swizzle: sw, index })
    }

    fn destination(&self, o: &Operand) -> Result<Resolved> {
        let r = self.resolve(o, false)?;
        if r.reg >= 0x20 {
            return self.fail(o.column, "a destination register (o0-o15 or r0-r15)");
        }
        Ok(r)
    }

    fn wide(&self, r: &Resolved, o: &Operand) -> Result<()> {
        if r.reg >= 0x80 {
            return self.fail(o.column, "a source register (v0-v15, r0-r15 or c0-c95)");
        }
        Ok(())
    }

    fn narrow(&self, r: &Resolved, o: &Operand) -> Result<()> {
        if r.reg >= 0x20 {
            return self.fail(
                o.column,
                "an input or temporary register (v0-v15, r0-r15): this source cannot be a uniform",
            );
        }
        if r.index != 0 {
            if let Some((_, at)) = o.index {
                return self.fail(at, "`]`: this source takes no index register");
            }
        }
        Ok(())
    }

    /// picasso's descriptor lookup: the bits `mask` (less the lanes `lanes` leaves unread)
    /// matched first-fit against the table, merged into the entry found, else a new entry.
    fn opdesc(&mut self, lanes: Lanes, desc: u32, mask: u32, column: usize) -> Result<u8> {
        let mask = super::OperandDescriptor(desc).read_bits(lanes, mask);
        let table = &mut self.out.opdescs;
        for (k, (entry, known)) in table.iter_mut().zip(self.known.iter_mut()).enumerate() {
            let both = mask & *known;
            if desc & both == *entry & both {
                *entry = (*entry & !mask) | (desc & mask);
                *known |= mask;
                return Ok(k as u8);
            }
        }
        if table.len() == MAX_OPDESCS {
            return self.fail(column, "fewer distinct operand descriptors (picasso's table holds 128)");
        }
        table.push(desc);
        self.known.push(mask);
        Ok((table.len() - 1) as u8)
    }

    fn instruction(&mut self, w: &Written, l: &Line) -> Result<()> {
        let op = w.op;
        let lanes = op.info().lanes;
        let mut i = Instruction { op, ..Instruction::default() };
        const D: u32 = super::OperandDescriptor::DST;
        const S1: u32 = super::OperandDescriptor::SRC[0];
        const S2: u32 = super::OperandDescriptor::SRC[1];
        const S3: u32 = super::OperandDescriptor::SRC[2];
        match &w.operands {
            Operands::None => {}
            Operands::Vector(ops) if op == Op::Mad => {
                let [d, a, b, c] = ops.as_slice() else { return self.fail(l.column, "four operands") };
                let rd = self.destination(d)?;
                let ra = self.resolve(a, false)?;
                self.narrow(&ra, a)?;
                let rb = self.resolve(b, true)?;
                let rc = self.resolve(c, true)?;
                let inverted = rb.reg < 0x20 && (rc.reg >= 0x20 || (rc.index != 0 && rb.index == 0));
                if inverted {
                    self.narrow(&rb, b)?;
                    self.wide(&rc, c)?;
                    i.op = Op::Madi;
                    i.idx = rc.index;
                } else {
                    self.wide(&rb, b)?;
                    self.narrow(&rc, c)?;
                    i.idx = rb.index;
                }
                let inputs = [ra.reg, rb.reg, rc.reg];
                if inputs.iter().any(|x| inputs.iter().any(|y| *x < 0x10 && *y < 0x10 && x != y)) {
                    return self.fail(a.column, "at most one input register (v0-v15) among the sources");
                }
                let desc =
                    rd.mask() | (ra.source_bits() << 4) | (rb.source_bits() << 13) | (rc.source_bits() << 22);
                let mut k = self.opdesc(lanes, desc, D | S1 | S2 | S3, l.column)?;
                if k >= 32 {
                    let Some(free) = (0..32u8).find(|n| self.mad_descs & (1 << n) == 0) else {
                        return self.fail(
                            l.column,
                            "a free operand descriptor below 32 for mad (all 32 are taken by mad)",
                        );
                    };
                    self.swap_opdescs(free, k);
                    k = free;
                }
                self.mad_descs |= 1 << k;
                i.dst = rd.reg as u8;
                i.src = [ra.reg as u8, rb.reg as u8, rc.reg as u8];
                i.desc = k;
            }
            Operands::Vector(ops) => {
                let d = ops.first();
                let a = ops.get(1);
                let (Some(d), Some(a)) = (d, a) else { return self.fail(l.column, "operands") };
                let rd = self.destination(d)?;
                let ra = self.resolve(a, true)?;
                match ops.get(2) {
                    None => {
                        self.wide(&ra, a)?;
                        let desc = rd.mask() | (ra.source_bits() << 4);
                        i.desc = self.opdesc(lanes, desc, D | S1, l.column)?;
                        i.src = [ra.reg as u8, 0, 0];
                        i.idx = ra.index;
                    }
                    Some(b) => {
                        let rb = self.resolve(b, true)?;
                        let inverted = swapped(op).is_some() && ra.reg < 0x20 && rb.reg >= 0x20;
                        if inverted {
                            self.narrow(&ra, a)?;
                            self.wide(&rb, b)?;
                            i.op = swapped(op).unwrap_or(op);
                            i.idx = rb.index;
                        } else {
                            self.wide(&ra, a)?;
                            self.narrow(&rb, b)?;
                            i.idx = ra.index;
                        }
                        if ra.reg < 0x10 && rb.reg < 0x10 && ra.reg != rb.reg {
                            return self.fail(
                                b.column,
                                "the same input register as the other source (the PICA200 reads one \
                                 per instruction)",
                            );
                        }
                        let desc = rd.mask() | (ra.source_bits() << 4) | (rb.source_bits() << 13);
                        i.desc = self.opdesc(lanes, desc, D | S1 | S2, l.column)?;
                        i.src = [ra.reg as u8, rb.reg as u8, 0];
                    }
                }
                i.dst = rd.reg as u8;
            }
            Operands::Mova { mask, source } => {
                let r = self.resolve(source, true)?;
                self.wide(&r, source)?;
                let desc = u32::from(*mask) | (r.source_bits() << 4);
                i.desc = self.opdesc(lanes, desc, D | S1, l.column)?;
                i.src = [r.reg as u8, 0, 0];
                i.idx = r.index;
            }
            Operands::Cmp { sources, operators } => {
                let [a, b] = sources.as_ref();
                let ra = self.resolve(a, true)?;
                self.wide(&ra, a)?;
                let rb = self.resolve(b, false)?;
                self.narrow(&rb, b)?;
                let desc = (ra.source_bits() << 4) | (rb.source_bits() << 13);
                i.desc = self.opdesc(lanes, desc, S1 | S2, l.column)?;
                i.src = [ra.reg as u8, rb.reg as u8, 0];
                i.idx = ra.index;
                i.cmp = *operators;
            }
            Operands::Condition { condition, target } => {
                i.refs = condition.refs;
                i.condop = condition.condop;
                if let Some(t) = target {
                    self.refer(op == Op::Callc, t, l);
                }
                if op == Op::Ifc {
                    self.open(BlockKind::If, String::new(), l)?;
                }
            }
            Operands::Call(t) => self.refer(true, t, l),
            Operands::Bool { not, uniform, target } => {
                let r = self.resolve(uniform, false)?;
                if !(0x88..0x98).contains(&r.reg) {
                    return self.fail(uniform.column, "a boolean uniform (b0-b15)");
                }
                i.uniform = (r.reg - 0x88) as u8;
                i.negate = *not;
                if let Some(t) = target {
                    self.refer(op == Op::Callu, t, l);
                }
                if op == Op::Ifu {
                    self.open(BlockKind::If, String::new(), l)?;
                }
            }
            Operands::Loop(o) => {
                let r = self.resolve(o, false)?;
                if !(0x80..0x84).contains(&r.reg) {
                    return self.fail(o.column, "an integer uniform (i0-i3)");
                }
                i.uniform = (r.reg - 0x80) as u8;
                self.open(BlockKind::For, String::new(), l)?;
            }
            Operands::SetEmit { vertex, primitive, invert } => {
                let d = self.dvle();
                if !d.geometry {
                    d.geometry = true;
                    d.compat_geometry = true;
                }
                i.vertex = *vertex;
                i.primitive = *primitive;
                i.invert = *invert;
            }
        }
        self.push(i, l.number);
        Ok(())
    }

    /// The word about to be written names `target`: a procedure (`call`, `callc`, `callu`,
    /// resolved once every file is read) or a label of this file (resolved at its end).
    fn refer(&mut self, procedure: bool, target: &Name, l: &Line) {
        let r = Reference {
            word: self.out.instructions.len(),
            name: target.text.clone(),
            at: self.place(l, target.column),
        };
        if procedure { self.calls.push(r) } else { self.jumps.push(r) }
    }

    /// picasso's swap of descriptors `a` and `b`, every non-MAD instruction rewritten.
    fn swap_opdescs(&mut self, a: u8, b: u8) {
        let (ua, ub) = (usize::from(a), usize::from(b));
        self.out.opdescs.swap(ua, ub);
        self.known.swap(ua, ub);
        for i in &mut self.out.instructions {
            if i.has_desc() && !matches!(i.op, Op::Mad | Op::Madi) {
                if i.desc == a {
                    i.desc = b;
                } else if i.desc == b {
                    i.desc = a;
                }
            }
        }
    }

    fn open(&mut self, kind: BlockKind, name: String, l: &Line) -> Result<()> {
        let depth = u8::try_from(self.stack.len()).unwrap_or(u8::MAX);
        // The guard every nesting reader goes through, at the statement that opens the block.
        Cursor { text: "", at: l.column }.deeper(depth, MAX_NESTING, || {
            "`.end` before another block (picasso nests blocks at most 32 deep)".to_string()
        })?;
        self.stack.push(Block {
            kind,
            pos: self.out.instructions.len(),
            else_at: None,
            name,
            at: self.place(l, l.column),
        });
        Ok(())
    }

    fn padding(&mut self, line: usize) {
        self.push(Instruction { op: Op::Nop, ..Instruction::default() }, line);
    }

    fn last_op(&self) -> Option<Op> {
        self.out.instructions.last().map(|i| i.op)
    }

    fn directive(&mut self, d: &Directive, l: &Line) -> Result<()> {
        match d {
            Directive::Proc(n) => {
                self.open(BlockKind::Proc, n.text.clone(), l)?;
                if self.procs.contains_key(&n.text) {
                    return self.fail(n.column, "a procedure name not used before");
                }
            }
            Directive::Else => {
                let Some(b) = self.stack.last() else {
                    return self.fail(l.column, "an `ifu`/`ifc` block before `.else`");
                };
                if b.kind != BlockKind::If {
                    return self.fail(l.column, "an `ifu`/`ifc` block before `.else`");
                }
                if b.else_at.is_some() {
                    return self.fail(l.column, "`.end` (this block has its `.else`)");
                }
                let pos = b.pos;
                let jumps =
                    matches!(self.last_op(), Some(Op::Jmpc | Op::Jmpu | Op::Call | Op::Callc | Op::Callu));
                if self.last_was_end {
                    self.padding(l.number);
                    self.last_was_end = false;
                } else if jumps || self.out.instructions.len() - pos < 2 {
                    self.padding(l.number);
                }
                let here = self.out.instructions.len();
                if let Some(b) = self.stack.last_mut() {
                    b.else_at = Some(here);
                }
                if let Some(i) = self.out.instructions.get_mut(pos) {
                    patch(i, |w| set_target(w, here));
                }
            }
            Directive::End => self.end(l)?,
            Directive::Alias { name, register } => {
                if name.text.len() > 1
                    && "ovrcib".contains(&name.text.get(..1).unwrap_or(" ").to_ascii_lowercase())
                    && name.text.as_bytes().get(1).is_some_and(u8::is_ascii_digit)
                {
                    return self.fail(name.column, "an alias name that is no register name");
                }
                if register.name.starts_with('o') && !self.aliases.contains_key(&register.name) {
                    // picasso asks the DVLE how many output registers there are.
                    self.dvle();
                }
                let r = self.resolve(register, false)?;
                if self.aliases.contains_key(&name.text) {
                    return self.fail(name.column, "a name not used before in this file");
                }
                self.aliases
                    .insert(name.text.clone(), Alias { reg: r.reg, negate: r.negate, swizzle: r.swizzle });
            }
            Directive::Uniform { file, names } => {
                let shared = !self.uses_gsh_space();
                self.dvle();
                let k = *file as usize;
                for (n, size) in names {
                    if self.aliases.contains_key(&n.text) {
                        return self.fail(n.column, "a name not used before in this file");
                    }
                    // A name an earlier file declared in the shared space is the same register.
                    let known = self.out.shared_uniforms.iter().find(|u| shared && u.name == n.text);
                    let pos = match known {
                        Some(u) if u.file != *file => {
                            return self.fail(
                                n.column,
                                format!(
                                    "a uniform of the kind `{}` was declared as in an earlier file",
                                    n.text
                                ),
                            );
                        }
                        Some(u) if u.size != *size => {
                            return self.fail(
                                n.column,
                                format!("size {} (as an earlier file declared `{}`)", u.size, n.text),
                            );
                        }
                        Some(u) => u.register,
                        None => match self.pool(k).and_then(|p| p.global(*size)) {
                            Some(pos) => pos,
                            None => {
                                return self
                                    .fail(n.column, "fewer uniforms: there is no room left for this one");
                            }
                        },
                    };
                    if shared {
                        if self.out.shared_uniforms.len() == MAX_UNIFORMS {
                            return self
                                .fail(n.column, "fewer uniforms (the files together declare at most 96)");
                        }
                        let u =
                            SharedUniform { name: n.text.clone(), file: *file, register: pos, size: *size };
                        self.out.shared_uniforms.push(u);
                    }
                    if !n.text.starts_with('_') {
                        let uniforms = &mut self.dvle().exe.uniforms;
                        if uniforms.len() == MAX_UNIFORMS {
                            return self.fail(n.column, "fewer uniforms (a DVLE holds 96)");
                        }
                        uniforms.push(Uniform::new(
                            n.text.replace('$', "."),
                            (pos - 0x10) as u16,
                            (pos + size - 1 - 0x10) as u16,
                        ));
                    }
                    self.aliases
                        .insert(n.text.clone(), Alias { reg: pos, negate: false, swizzle: [0, 1, 2, 3] });
                }
            }
            Directive::Const { name, values } => {
                self.dvle();
                let k = if matches!(values, Values::Float(_)) { 0 } else { 1 };
                if self.aliases.contains_key(&name.text) {
                    return self.fail(name.column, "a name not used before in this file");
                }
                let Some(pos) = self.pool(k).and_then(|p| p.local(1)) else {
                    return self.fail(name.column, "fewer constants: there is no room left for this one");
                };
                self.constant(pos, *values, l)?;
                self.aliases
                    .insert(name.text.clone(), Alias { reg: pos, negate: false, swizzle: [0, 1, 2, 3] });
            }
            Directive::ConstArray { name, size } => {
                if self.array.is_some() {
                    return self.fail(l.column, "`.constfa (x, y, z, w)` inside a constant array");
                }
                self.open(BlockKind::Array, name.text.clone(), l)?;
                self.array = Some(ConstArray {
                    name: name.text.clone(),
                    column: name.column,
                    size: *size,
                    elements: Vec::new(),
                });
            }
            Directive::ConstArrayElement(v) => {
                let Some(ConstArray { size, elements: elems, .. }) = &mut self.array else {
                    return self.fail(l.column, "`.constfa name[]` before its elements");
                };
                if size.is_some_and(|s| s as usize == elems.len()) {
                    return self.fail(l.column, "`.end`: the array has all its elements");
                }
                elems.push(*v);
            }
            Directive::Set { register, values } => {
                self.dvle();
                let r = self.resolve(register, false)?;
                let ok = match values {
                    Values::Float(_) => (0x20..0x80).contains(&r.reg),
                    Values::Int(_) => (0x80..0x84).contains(&r.reg),
                };
                if !ok {
                    let what = if matches!(values, Values::Float(_)) {
                        "a float uniform (c0-c95)"
                    } else {
                        "an integer uniform (i0-i3)"
                    };
                    return self.fail(register.column, what);
                }
                self.constant(r.reg, *values, l)?;
            }
            Directive::SetBool { register, value } => {
                self.dvle();
                let r = self.resolve(register, false)?;
                if !(0x88..0x98).contains(&r.reg) {
                    return self.fail(register.column, "a boolean uniform (b0-b15)");
                }
                self.push_constant(Constant::new((r.reg - 0x88) as u8, ConstantValue::Bool(*value)), l)?;
            }
            Directive::In { name, register } => {
                self.dvle();
                if self.aliases.contains_key(&name.text) {
                    return self.fail(name.column, "a name not used before in this file");
                }
                let reg = match register {
                    Some(o) => {
                        let r = self.resolve(o, false)?;
                        if r.reg >= 0x10 {
                            return self.fail(o.column, "an input register (v0-v15)");
                        }
                        r.reg
                    }
                    None => match (0..16).find(|k| self.dvle().exe.input_mask & (1 << k) == 0) {
                        Some(k) => k,
                        None => return self.fail(name.column, "fewer inputs (there are 16)"),
                    },
                };
                let exe = &mut self.dvle().exe;
                if exe.uniforms.len() == MAX_UNIFORMS {
                    return self.fail(name.column, "fewer uniforms (a DVLE holds 96)");
                }
                exe.input_mask |= 1 << reg;
                exe.uniforms.push(Uniform::new(name.text.replace('$', "."), reg as u16, reg as u16));
                self.aliases.insert(name.text.clone(), Alias { reg, negate: false, swizzle: [0, 1, 2, 3] });
            }
            Directive::Out { name, semantic, mask, register } => {
                self.dvle();
                let (oid, sw) = match register {
                    Some(o) => {
                        let r = self.resolve(o, false)?;
                        if r.reg >= self.max_output() {
                            return self
                                .fail(o.column, "an output register (o0-o15, o0-o6 in a geometry shader)");
                        }
                        (Some(r.reg), r.swizzle)
                    }
                    None => (None, mask.unwrap_or([0, 1, 2, 3])),
                };
                let bits = sw.iter().fold(0u16, |m, c| m | (1 << (c & 3)));
                let oid = match oid {
                    Some(o) => {
                        if self.dvle().output_used & (u64::from(bits) << (4 * o)) != 0 {
                            return self.fail(
                                l.column,
                                "an output that shares no component with one declared before",
                            );
                        }
                        o
                    }
                    None => {
                        let free = self.dvle().exe.output_mask;
                        match (0..self.max_output()).find(|k| free & (1 << k) == 0) {
                            Some(k) => k,
                            None => return self.fail(l.column, "fewer outputs: no output register is free"),
                        }
                    }
                };
                if self.dvle().exe.outputs.len() == MAX_OUTPUTS {
                    return self.fail(l.column, "fewer outputs (a DVLE holds 16)");
                }
                if let Some(n) = name {
                    if self.aliases.contains_key(&n.text) {
                        return self.fail(n.column, "a name not used before in this file");
                    }
                }
                if oid >= 7 && *semantic != 9 {
                    return self.fail(l.column, "a register below o7 (o7-o15 take only dummy outputs)");
                }
                let merge = *semantic == 9 && self.uses_gsh_space();
                let d = self.dvle();
                d.exe.outputs.push(Output::new(*semantic, oid as u16, bits));
                d.exe.output_mask |= 1 << oid;
                d.output_used |= u64::from(bits) << (4 * oid);
                d.exe.merge_outmaps |= merge;
                if let Some(n) = name {
                    self.aliases
                        .insert(n.text.clone(), Alias { reg: oid, negate: false, swizzle: [0, 1, 2, 3] });
                }
            }
            Directive::Entry(n) => {
                let at = self.place(l, n.column);
                self.dvle().entry = Some((n.text.clone(), at));
            }
            Directive::NoDvle => self.dvle().nodvle = true,
            Directive::Gsh(None) => {
                let d = self.dvle();
                d.geometry = true;
                d.compat_geometry = true;
            }
            Directive::Gsh(Some(g)) => {
                let d = self.dvle();
                if d.geometry {
                    return self.fail(l.column, "one `.gsh` (it was used before)");
                }
                if !d.exe.constants.is_empty() || !d.exe.uniforms.is_empty() || d.exe.output_mask != 0 {
                    return self.fail(l.column, "`.gsh` before any constant, uniform or output");
                }
                d.geometry = true;
                d.exe.geometry.mode = g.mode;
                let first = self.resolve(&g.first, false)?;
                if !(0x20..0x80).contains(&first.reg) {
                    return self.fail(g.first.column, "a float uniform (c0-c95)");
                }
                self.gsh_pools = [Pool::new(first.reg, 0x80), Pool::new(0x80, 0x84), Pool::new(0x88, 0x97)];
                match g.mode {
                    1 => self.dvle().exe.geometry.variable_count = g.count,
                    2 => {
                        let Some(o) = &g.fixed_start else {
                            return self.fail(l.column, "the array start register");
                        };
                        let r = self.resolve(o, false)?;
                        if !(0x20..0x80).contains(&r.reg) {
                            return self.fail(o.column, "a float uniform (c0-c95)");
                        }
                        if r.reg >= first.reg {
                            return self.fail(
                                o.column,
                                "a register below the first free one (the array may not overlap the \
                                 uniforms)",
                            );
                        }
                        let geometry = &mut self.dvle().exe.geometry;
                        geometry.fixed_start = (r.reg - 0x20) as u8;
                        geometry.fixed_count = g.count;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn constant(&mut self, reg: u32, values: Values, l: &Line) -> Result<()> {
        let c = match values {
            Values::Float(v) => {
                Constant::new((reg - 0x20) as u8, ConstantValue::Float(v.map(float24::from_f32)))
            }
            Values::Int(v) => Constant::new((reg - 0x80) as u8, ConstantValue::Int(v)),
        };
        self.push_constant(c, l)
    }

    fn push_constant(&mut self, c: Constant, l: &Line) -> Result<()> {
        let constants = &mut self.dvle().exe.constants;
        if constants.len() == MAX_CONSTANTS {
            return self.fail(l.column, "fewer constants (a DVLE holds 96)");
        }
        constants.push(c);
        Ok(())
    }

    fn end(&mut self, l: &Line) -> Result<()> {
        let Some(b) = self.stack.pop() else {
            return self.fail(l.column, "a block to end (`.end` ends none)");
        };
        let len = self.out.instructions.len();
        if b.kind != BlockKind::Array && self.last_was_end {
            self.padding(l.number);
            self.last_was_end = false;
        } else if b.kind != BlockKind::Array && len > 0 {
            let last = self.last_op();
            let jumps = matches!(last, Some(Op::Jmpc | Op::Jmpu | Op::Call | Op::Callc | Op::Callu));
            let breaks = b.kind == BlockKind::For && matches!(last, Some(Op::Break | Op::Breakc));
            let least = if b.kind == BlockKind::Proc { 1 } else { 2 };
            if jumps || breaks || len - b.pos < least {
                self.padding(l.number);
            }
        }
        let here = self.out.instructions.len();
        match b.kind {
            BlockKind::Proc => {
                let size = (here - b.pos) as u32;
                self.procs.entry(b.name.clone()).or_insert((b.pos as u32, size));
                self.out.procedures.push(Procedure { name: b.name, start: b.pos as u32, len: size });
            }
            BlockKind::For => {
                if let Some(i) = self.out.instructions.get_mut(b.pos) {
                    patch(i, |w| set_target(w, here.saturating_sub(1)));
                }
                self.last_was_end = true;
            }
            BlockKind::If => {
                if let Some(i) = self.out.instructions.get_mut(b.pos) {
                    match b.else_at {
                        None => patch(i, |w| set_target(w, here)),
                        Some(e) => patch(i, |w| (w & !0x3FF) | (here - e) as u32),
                    }
                }
                self.last_was_end = true;
            }
            BlockKind::Array => {
                let Some(ConstArray { name, size, elements: mut elems, column }) = self.array.take() else {
                    return Ok(());
                };
                if self.aliases.contains_key(&name) {
                    return self.fail(column, "a name not used before in this file");
                }
                self.dvle();
                let n = elems.len().max(size.map_or(0, |s| s as usize));
                if n == 0 {
                    return self
                        .fail(l.column, "`.constfa (x, y, z, w)` before `.end` (the array has no elements)");
                }
                let Some(pos) = u32::try_from(n).ok().and_then(|n| self.pool(0)?.local(n)) else {
                    return self.fail(column, "a smaller array: there is no room left for it");
                };
                elems.resize(n, [0.0; 4]);
                for (k, v) in elems.into_iter().enumerate() {
                    self.constant(pos + k as u32, Values::Float(v), l)?;
                }
                self.aliases.insert(name, Alias { reg: pos, negate: false, swizzle: [0, 1, 2, 3] });
            }
        }
        Ok(())
    }

    /// Every file read: calls find their procedures (in any file), each DVLE its entry.
    fn finish(mut self) -> std::result::Result<Assembled, LineError> {
        for r in std::mem::take(&mut self.calls) {
            let Some(&(start, len)) = self.procs.get(&r.name) else {
                let what = format!("a procedure (`{}` is not defined in any file)", r.name);
                return Err(r.at.error(&self.out.files, what));
            };
            if let Some(i) = self.out.instructions.get_mut(r.word) {
                patch(i, |w| (w & !0x3F_FFFF) | len | (start << 10));
            }
        }
        for d in std::mem::take(&mut self.dvles) {
            if d.nodvle {
                continue;
            }
            let mut exe = d.exe;
            let (name, at) =
                d.entry.unwrap_or_else(|| ("main".to_string(), Place { file: exe.file, line: 1, column: 0 }));
            let Some(&(start, len)) = self.procs.get(&name) else {
                let what = format!("an entry procedure (`{name}` is not defined in any file)");
                return Err(at.error(&self.out.files, what));
            };
            exe.entry = (start, start + len);
            // picasso writes the table sorted by register.
            exe.uniforms.sort_by_key(|u| u.first);
            exe.shader_type = if d.geometry { ShaderType::Geometry } else { ShaderType::Vertex };
            self.out.executables.push(exe);
        }
        self.out.code = self.out.instructions.iter().map(Instruction::encode).collect();
        Ok(self.out)
    }
}

/// Rewrite the word of `i` as picasso patches its words in place (a target, a count), then
/// read it again: a count or address too wide for its field runs into the bits beside it, as
/// it does in picasso's output.
fn patch(i: &mut Instruction, f: impl FnOnce(u32) -> u32) {
    *i = super::decode(f(i.encode()));
}

/// `w` with the 12-bit target field (bits 21..10) set to `address`, as picasso ORs it in.
fn set_target(w: u32, address: usize) -> u32 {
    (w & !(0xFFF << 10)) | ((address as u32) << 10)
}
