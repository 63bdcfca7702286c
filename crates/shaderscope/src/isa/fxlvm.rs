//! FXLVM: the expression code of Direct3D effects. An fx_2_0 effect runs it on the CPU before
//! a shader ("preshader", in a `PRES` comment of the program) to compute constants from the
//! effect's parameters, and as standalone expressions for states; a Direct3D 10/11 effect
//! (fx_4_0 … fx_5_0) keeps the same code, in a container of its own, for states and array
//! indices computed from variables (`DepthFunc = i + 2`).
//!
//! An expression is a token stream: the version token `0x4658_02xx` ("FX" and 2.x), then
//! comment tokens (`0xFFFE` and a length in words in the high half), each tagged: `CTAB` (the
//! inputs, a constant table as a shader's), `CLIT` (a count and that many `f64` literals),
//! `FXLC` (the code) and `PRSI` (how outputs map to the shader's constants); an end token
//! `0x0000FFFF` may follow. In `FXLC`, after the instruction count, each instruction is an
//! opcode word (the opcode in bits 20–30, bit 31 set when the first source is one component
//! given to all, the component count in bits 0–7), the count of its sources, then each
//! source and the destination as `(array count, register set, item)` followed by
//! `(register set, item)` per array index. Items count components: item 9 of set 2 is
//! `c2.y`. Sets: 1 literal (`CLIT`), 2 input (`c`, the `CTAB`'s), 4 output (`c`, the
//! shader's constants), 7 temporary (`r`).
//!
//! The FX 4 form ([`Expression::parse_fx4`]) is a DXBC container of three chunks: `CTAB`
//! (the variables read), `CLI4` (a count and that many 32-bit literals, typed by the
//! instruction that reads them) and `FXLC` (the same code, with integer and bitwise opcodes
//! beside the float ones). [`eval_text`] prints it as fxc does: `eval(iadd expr.x, i.x, (2))`.
//!
//! [`write_listing`] prints it as fxc does inside an effect's listing:
//!
//! ```text
//!     preshader
//!     add r0.x, c2.x, (5.5)
//!     mul c9.xyz, c0.xyz, c1.xyz
//!
//! // approximately 2 instructions used
//! ```
//!
//! ```
//! use shaderscope::isa::fxlvm::{Expression, write_listing};
//! use shaderscope::print::TextBuf;
//!
//! // One literal (2.0) and `mul c0.x, c1.x, (2)`: sources (input c1.x, literal 0), then the
//! // destination (output c0.x).
//! let [lo, hi] = [2f64.to_bits() as u32, (2f64.to_bits() >> 32) as u32];
//! let clit = [u32::from_le_bytes(*b"CLIT"), 1, lo, hi];
//! let fxlc = [u32::from_le_bytes(*b"FXLC"), 1, 0x2050_0001, 2, 0, 2, 4, 0, 1, 0, 0, 4, 0];
//! let mut words = vec![0x4658_0201, 0xfffe | (4 << 16)];
//! words.extend(clit);
//! words.push(0xfffe | (13 << 16));
//! words.extend(fxlc);
//! let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! let e = Expression::parse(&bytes, 0)?;
//! let mut out = TextBuf::default();
//! write_listing(&e, false, &mut out).unwrap();
//! assert_eq!(out.as_str(), "    preshader\n    mul c0.x, c1.x, (2)\n\n// approximately 1 instruction used\n");
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::isa::d3d9::ConstantTable;
use crate::print::float::g9_msvc;
use crate::print::{Printer, Style};
use crate::toolkit::{Endian, Reader};
use std::collections::BTreeMap;
use std::fmt::{self, Write};

/// An expression: its inputs, literals and code.
#[derive(Debug, Clone, PartialEq)]
pub struct Expression {
    /// Absolute offset of the version token (fx_2_0) or of the container (FX 4).
    pub offset: u64,
    /// The version token (`0x46580201`); 0 in the FX 4 form, which has none.
    pub version: u32,
    /// The inputs, when the `CTAB` reads.
    pub inputs: Option<ConstantTable>,
    /// The `CLIT` literals (fx_2_0).
    pub literals: Vec<f64>,
    /// The `CLI4` literals (FX 4): 32-bit values, integers or floats as the instruction
    /// reading them takes them.
    pub cli4: Vec<u32>,
    /// The `FXLC` code.
    pub instructions: Vec<Instruction>,
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// Absolute offset of its opcode word.
    pub offset: u64,
    /// The opcode (bits 20–30 of its first word; [`mnemonic`] names it).
    pub opcode: u32,
    /// Whether the first source is one component, given to all (bit 31).
    pub scalar: bool,
    /// Components each operand has (bits 0–7).
    pub components: u32,
    /// Sources, in order.
    pub sources: Vec<Operand>,
    /// The destination.
    pub destination: Operand,
}

/// An operand: a register set and the index of its first component, and, for an array
/// element chosen at run time, the array's first component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operand {
    /// Register set: 1 literal, 2 input, 4 output, 7 temporary.
    pub set: u32,
    /// The first component's index (register × 4 + component).
    pub item: u32,
    /// For `array[index]`: the array's set and first component (the operand itself is then
    /// the index register).
    pub array: Option<(u32, u32)>,
}

/// The tag of an expression's version token (high half: "FX").
const TAG: u32 = 0x4658;

/// Whether `data` starts as an expression (version token `0x4658_02xx`).
pub fn is_expression(data: &[u8]) -> bool {
    data.first_chunk::<4>().is_some_and(|b| u32::from_le_bytes(*b) >> 8 == (TAG << 8) | 2)
}

impl Expression {
    /// Parse the expression at the start of `data` (absolute offset `base`).
    pub fn parse(data: &[u8], base: u64) -> Result<Expression> {
        let mut r = Reader::with_base(data, base, Endian::Little);
        let version = r.u32("FXLVM version token")?;
        if version >> 8 != (TAG << 8) | 2 {
            return Err(Error::invalid(
                base,
                "FXLVM version token",
                format!("0x{version:08x} is not FX 2.x"),
            ));
        }
        let mut e = Expression {
            offset: base,
            version,
            inputs: None,
            literals: Vec::new(),
            cli4: Vec::new(),
            instructions: Vec::new(),
        };
        let mut code = None;
        while r.remaining() >= 4 {
            let at = r.original_position();
            let token = r.u32("FXLVM token")?;
            if token & 0xffff != 0xfffe {
                // The end token (or whatever follows it) closes the stream.
                break;
            }
            let words = (token >> 16) as usize;
            let block = r.bytes(words * 4, "FXLVM comment")?;
            let (Some(tag), Some(body)) = (block.get(..4), block.get(4..)) else { continue };
            let body_at = at + 8;
            match tag {
                b"CTAB" => e.inputs = ConstantTable::parse(body, body_at).ok(),
                b"CLIT" => e.literals = literals(body, body_at)?,
                b"FXLC" => code = Some((body, body_at)),
                _ => {}
            }
        }
        if let Some((body, at)) = code {
            e.instructions = instructions(body, at)?;
        }
        Ok(e)
    }

    /// The expression's bytes: the version token, a `CTAB` block when it has inputs, a
    /// `CLIT` block when it has literals, the `FXLC` code, and the end token (how fxc lays
    /// out a standalone expression; a preshader's `PRSI` is not modelled).
    pub fn write(&self) -> Vec<u8> {
        let mut words = vec![self.version];
        let mut comment = |tag: &[u8; 4], body: Vec<u8>| {
            let mut body = body;
            body.resize(body.len().next_multiple_of(4), 0);
            words.push(0xfffe | ((1 + body.len() as u32 / 4) << 16));
            words.push(u32::from_le_bytes(*tag));
            words.extend(body.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap_or([0; 4]))));
        };
        if let Some(t) = &self.inputs {
            comment(b"CTAB", t.write());
        }
        if !self.literals.is_empty() {
            let mut body = (self.literals.len() as u32).to_le_bytes().to_vec();
            body.extend(self.literals.iter().flat_map(|v| v.to_le_bytes()));
            comment(b"CLIT", body);
        }
        comment(b"FXLC", self.code());
        words.push(0x0000_ffff);
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The FX 4 form's bytes: a DXBC container of `CTAB` (when the expression has inputs),
    /// `CLI4` and `FXLC`, as fxc writes one (the checksum computed).
    pub fn write_fx4(&self) -> Vec<u8> {
        let mut b = crate::format::dxbc::write::Builder::new();
        if let Some(t) = &self.inputs {
            b.push(*b"CTAB", t.write());
        }
        let mut literals = (self.cli4.len() as u32).to_le_bytes().to_vec();
        literals.extend(self.cli4.iter().flat_map(|v| v.to_le_bytes()));
        b.push(*b"CLI4", literals);
        b.push(*b"FXLC", self.code());
        // A container of three chunks always fits.
        b.finish().unwrap_or_default()
    }

    /// The `FXLC` body: the instruction count, then each instruction's words.
    fn code(&self) -> Vec<u8> {
        let mut code = vec![self.instructions.len() as u32];
        for i in &self.instructions {
            let word = u32::from(i.scalar) << 31 | (i.opcode & 0x7ff) << 20 | (i.components & 0xff);
            code.extend([word, i.sources.len() as u32]);
            for o in i.sources.iter().chain([&i.destination]) {
                code.extend([u32::from(o.array.is_some()), o.set, o.item]);
                if let Some((set, item)) = o.array {
                    code.extend([set, item]);
                }
            }
        }
        code.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Read the FX 4 form at the start of `data` (absolute offset `base`): a DXBC container
    /// with `CTAB`, `CLI4` and `FXLC` chunks.
    pub fn parse_fx4(data: &[u8], base: u64) -> Result<Expression> {
        let frame = crate::format::dxbc::Frame::parse(data).map_err(|e| e.rebase(base))?;
        let mut e = Expression {
            offset: base,
            version: 0,
            inputs: None,
            literals: Vec::new(),
            cli4: Vec::new(),
            instructions: Vec::new(),
        };
        for c in &frame.chunks {
            let at = base + c.offset as u64 + 8;
            match &c.fourcc.0 {
                b"CTAB" => e.inputs = ConstantTable::parse(c.data, at).ok(),
                b"CLI4" => {
                    let r = Reader::with_base(c.data, at, Endian::Little);
                    let n = r.u32_at(0, "CLI4 literal count")? as usize;
                    let bytes = r.bytes_at(4, n.saturating_mul(4), "CLI4 literals")?;
                    e.cli4 = bytes
                        .chunks_exact(4)
                        .map(|w| u32::from_le_bytes(w.try_into().unwrap_or([0; 4])))
                        .collect();
                }
                b"FXLC" => e.instructions = instructions(c.data, at)?,
                _ => {}
            }
        }
        Ok(e)
    }

    /// The literal at `index`.
    pub fn literal(&self, index: u32) -> Option<f64> {
        self.literals.get(index as usize).copied()
    }
}

fn literals(body: &[u8], at: u64) -> Result<Vec<f64>> {
    let r = Reader::with_base(body, at, Endian::Little);
    let n = r.u32_at(0, "literal count")? as usize;
    let bytes = r.bytes_at(4, n.saturating_mul(8), "literals")?;
    Ok(bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect())
}

fn instructions(body: &[u8], at: u64) -> Result<Vec<Instruction>> {
    let mut r = Reader::with_base(body, at, Endian::Little);
    let n = r.u32("instruction count")?;
    // Each instruction takes at least 20 bytes (two words and a destination).
    if u64::from(n) * 20 > r.remaining() as u64 {
        return Err(Error::invalid(at, "instruction count", format!("{n} instructions cannot fit")));
    }
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let offset = r.original_position();
        let word = r.u32("opcode")?;
        let count = r.u32("source count")?;
        if u64::from(count) * 12 > r.remaining() as u64 {
            return Err(Error::invalid(offset + 4, "source count", format!("{count} sources cannot fit")));
        }
        let operand = |r: &mut Reader<'_>| -> Result<Operand> {
            let arrays = r.u32("array count")?;
            let set = r.u32("register set")?;
            let item = r.u32("register")?;
            let mut array = None;
            for _ in 0..arrays.min(u32::try_from(r.remaining() / 8).unwrap_or(u32::MAX)) {
                array = Some((r.u32("array register set")?, r.u32("array register")?));
            }
            Ok(Operand { set, item, array })
        };
        let sources = (0..count).map(|_| operand(&mut r)).collect::<Result<Vec<_>>>()?;
        let destination = operand(&mut r)?;
        out.push(Instruction {
            offset,
            opcode: (word >> 20) & 0x7ff,
            scalar: word >> 31 == 1,
            components: word & 0xff,
            sources,
            destination,
        });
    }
    Ok(out)
}

/// Register sets of an operand.
const LITERAL: u32 = 1;
const INPUT: u32 = 2;
const OUTPUT: u32 = 4;
const TEMPORARY: u32 = 7;

/// Components an evaluation may write (outputs and temporaries together): far above what a
/// compiler's expression writes, it bounds a hostile one.
const MAX_WRITTEN: usize = 1 << 16;

impl Expression {
    /// Run the code as the effect runtime does before a draw, `input(item)` giving each input
    /// component (the `CTAB` parameters' values; item = register × 4 + component). Returns
    /// the output components written, by item; `None` when the code uses an opcode without a
    /// known meaning (`noise`, or one fxc's table does not name), reads a temporary or output
    /// it has not written, or writes more than any expression could.
    ///
    /// fxc does this with the parameters' defaults to choose the element of a shader array a
    /// pass names (`VertexShader = (vsArray[CurNumBones + 1])`), and lists that element.
    ///
    /// ```
    /// use shaderscope::isa::fxlvm::Expression;
    /// // `add c0.x, c0.x, (1)`: input c0.x plus literal 0.
    /// let clit = [u32::from_le_bytes(*b"CLIT"), 1, 0, 0x3ff0_0000];
    /// let fxlc = [u32::from_le_bytes(*b"FXLC"), 1, 0xa040_0001, 2, 0, 2, 0, 0, 1, 0, 0, 4, 0];
    /// let mut words = vec![0x4658_0201, 0xfffe | (4 << 16)];
    /// words.extend(clit);
    /// words.push(0xfffe | (13 << 16));
    /// words.extend(fxlc);
    /// let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    /// let e = Expression::parse(&bytes, 0)?;
    /// let out = e.evaluate(&|item| if item == 0 { 2.0 } else { 0.0 }).unwrap();
    /// assert_eq!(out.get(&0), Some(&3.0));
    /// # Ok::<(), shaderscope::Error>(())
    /// ```
    pub fn evaluate(&self, input: &dyn Fn(u32) -> f64) -> Option<BTreeMap<u32, f64>> {
        let mut temporaries = BTreeMap::new();
        let mut outputs = BTreeMap::new();
        for i in &self.instructions {
            let scalar = i.scalar;
            let n = i.components;
            // Component `c` of source `k` (the scalar forms' first source gives its first
            // component to all).
            let read = |k: usize, c: u32, temporaries: &BTreeMap<u32, f64>, outputs: &BTreeMap<u32, f64>| {
                let o = i.sources.get(k)?;
                let c = if scalar && k == 0 { 0 } else { c };
                let item = |set: u32, item: u32| -> Option<f64> {
                    match set {
                        LITERAL => self.literal(item),
                        INPUT => Some(input(item)),
                        OUTPUT => outputs.get(&item).copied(),
                        TEMPORARY => temporaries.get(&item).copied(),
                        _ => None,
                    }
                };
                match o.array {
                    // `array[index]`: the operand is the index register; the element is four
                    // components a step from the array's first.
                    Some((set, base)) => {
                        let index = item(o.set, o.item)?.floor();
                        let at = f64::from(base) + 4.0 * index + f64::from(c);
                        if !(0.0..=f64::from(u32::MAX)).contains(&at) {
                            return None;
                        }
                        item(set, at as u32)
                    }
                    None => item(o.set, o.item.checked_add(c)?),
                }
            };
            let results: Vec<f64> = match mnemonic(i.opcode)? {
                "dot" => {
                    let mut sum = 0.0;
                    for c in 0..n {
                        sum += read(0, c, &temporaries, &outputs)? * read(1, c, &temporaries, &outputs)?;
                    }
                    vec![sum]
                }
                name => (0..n)
                    .map(|c| {
                        let a = read(0, c, &temporaries, &outputs)?;
                        let b = || read(1, c, &temporaries, &outputs);
                        Some(match name {
                            "mov" => a,
                            "neg" => -a,
                            "rcp" => 1.0 / a,
                            "frc" => a - a.floor(),
                            "exp" => a.exp2(),
                            "log" => a.abs().log2(),
                            "rsq" => 1.0 / a.abs().sqrt(),
                            "sin" => a.sin(),
                            "cos" => a.cos(),
                            "asin" => a.asin(),
                            "acos" => a.acos(),
                            "atan" => a.atan(),
                            "min" => a.min(b()?),
                            "max" => a.max(b()?),
                            "lt" => f64::from(u8::from(a < b()?)),
                            "ge" => f64::from(u8::from(a >= b()?)),
                            "add" => a + b()?,
                            "mul" => a * b()?,
                            "atan2" => a.atan2(b()?),
                            "div" => a / b()?,
                            // `cmp d, a, b, c`: b where a >= 0; `movc`: b where a is not 0.
                            "cmp" | "movc" => {
                                let pick = if name == "cmp" { a >= 0.0 } else { a != 0.0 };
                                let k = if pick { 1 } else { 2 };
                                read(k, c, &temporaries, &outputs)?
                            }
                            _ => return None,
                        })
                    })
                    .collect::<Option<_>>()?,
            };
            let d = &i.destination;
            let target = match d.set {
                OUTPUT => &mut outputs,
                TEMPORARY => &mut temporaries,
                _ => return None,
            };
            for (c, v) in (0u32..).zip(results) {
                target.insert(d.item.checked_add(c)?, v);
            }
            if outputs.len() + temporaries.len() > MAX_WRITTEN {
                return None;
            }
        }
        Some(outputs)
    }
}

/// The name fxc gives an opcode (bits 20–30 of the opcode word). The integer, bitwise and
/// conversion opcodes appear in FX 4 code only.
pub fn mnemonic(opcode: u32) -> Option<&'static str> {
    Some(match opcode {
        0x100 => "mov",
        0x101 => "neg",
        0x103 => "rcp",
        0x104 => "frc",
        0x105 => "exp",
        0x106 => "log",
        0x107 => "rsq",
        0x108 => "sin",
        0x109 => "cos",
        0x10a => "asin",
        0x10b => "acos",
        0x10c => "atan",
        0x112 => "sqrt",
        0x120 => "ineg",
        0x121 => "not",
        0x130 => "itof",
        0x131 => "utof",
        0x132 => "ftoi",
        0x133 => "ftou",
        0x134 => "btof",
        0x135 => "btoi",
        0x136 => "itob",
        0x137 => "ftob",
        0x138 => "round",
        0x139 => "floor",
        0x13a => "ceil",
        0x200 => "min",
        0x201 => "max",
        0x202 => "lt",
        0x203 => "ge",
        0x204 => "add",
        0x205 => "mul",
        0x206 => "atan2",
        0x208 => "div",
        0x211 => "bilt",
        0x212 => "bieq",
        0x213 => "bine",
        0x214 => "buge",
        0x215 => "bult",
        0x216 => "iadd",
        0x219 => "imul",
        0x21a => "udiv",
        0x21d => "imin",
        0x21e => "imax",
        0x21f => "umin",
        0x220 => "umax",
        0x230 => "and",
        0x231 => "or",
        0x233 => "xor",
        0x234 => "ishl",
        0x235 => "ishr",
        0x236 => "ushr",
        0x300 => "cmp",
        0x301 => "movc",
        0x500 => "dot",
        0x502 => "noise",
        0x70e => "d3ds_dotswiz",
        _ => return None,
    })
}

const MASK: [char; 4] = ['x', 'y', 'z', 'w'];

/// `c3.xy`: a register of `letter` with `n` components from `item`.
fn register(out: &mut String, letter: &str, item: u32, n: u32) {
    let _ = write!(out, "{letter}{}{}", item / 4, mask(item % 4, n));
}

/// The components `first`, `first + 1`, … (`n` of them, wrapping past `w` as fxc does:
/// `r0.wxy`), or nothing for a whole register.
fn mask(first: u32, n: u32) -> String {
    if first == 0 && n == 4 {
        return String::new();
    }
    std::iter::once('.')
        .chain(MASK.iter().cycle().skip(first as usize).take(n.min(4) as usize).copied())
        .collect()
}

fn operand(e: &Expression, o: &Operand, n: u32, scalar: bool) -> String {
    let mut s = String::new();
    let letter = match o.set {
        2 | 4 => "c",
        7 => "r",
        1 => {
            let values: Vec<String> = (0..n)
                .map(|i| e.literal(if scalar { o.item } else { o.item + i }).map_or("?".into(), g9_msvc))
                .collect();
            return format!("({})", values.join(", "));
        }
        other => {
            let _ = write!(s, "?{other}:{}", o.item);
            return s;
        }
    };
    match o.array {
        Some((set, base)) => {
            let base_letter = if set == 7 { "r" } else { "c" };
            register(&mut s, base_letter, base, n);
            // The index register is one component, written inside the brackets.
            let mut index = String::new();
            register(&mut index, letter, o.item, 1);
            // `c0[c10.x]`: the array's swizzle (none for four components) goes after.
            let (name, swizzle) = s
                .split_once('.')
                .map_or((s.clone(), String::new()), |(a, b)| (a.to_string(), format!(".{b}")));
            format!("{name}[{index}]{swizzle}")
        }
        None => {
            register(&mut s, letter, o.item, n);
            s
        }
    }
}

/// The listing of `e` as fxc prints a preshader: its input table (when `header`: `// Generated
/// by` its creator and the parameters), `preshader`, the instructions, and the count.
pub fn write_listing(e: &Expression, header: bool, out: &mut dyn Printer) -> fmt::Result {
    if let (true, Some(t)) = (header, &e.inputs) {
        let mut text = format!("//\n// Generated by {}\n//\n", t.creator);
        t.write_text(&mut text);
        text.push('\n');
        for line in text.lines() {
            out.start_line(if line.is_empty() { None } else { Some(t.offset) });
            out.styled(Style::Comment, line)?;
            out.write_str("\n")?;
        }
    }
    out.start_line(Some(e.offset));
    writeln!(out, "    preshader")?;
    for i in &e.instructions {
        out.start_line(Some(i.offset));
        out.write_str("    ")?;
        match mnemonic(i.opcode) {
            Some(m) => out.styled(Style::Mnemonic, m)?,
            None => out.styled(Style::Mnemonic, &format!("op_{:03x}", i.opcode))?,
        }
        // Scalar forms take one component of their first source for all.
        let scalar = i.scalar;
        let n = i.components;
        let mut operands = vec![operand(e, &i.destination, n, false)];
        for (k, s) in i.sources.iter().enumerate() {
            let one = scalar && k == 0;
            operands.push(operand(e, s, if one && s.set != 1 { 1 } else { n }, one));
        }
        for (k, o) in operands.iter().enumerate() {
            out.write_str(if k == 0 { " " } else { ", " })?;
            out.start_operand();
            out.styled(Style::Register, o)?;
            out.end_operand();
        }
        out.write_str("\n")?;
    }
    out.start_line(None);
    let n = e.instructions.len();
    writeln!(out, "\n// approximately {n} instruction{} used", if n == 1 { "" } else { "s" })
}

/// FX 4 code as fxc prints it in an effect's listing: `eval(` and the instructions, one a
/// line, then `)`. The lines after the first are the caller's to indent.
pub fn eval_text(e: &Expression) -> String {
    let lines: Vec<String> = e
        .instructions
        .iter()
        .map(|i| {
            let name = mnemonic(i.opcode).map_or_else(|| format!("op_{:03x}", i.opcode), str::to_string);
            let n = i.components;
            let mut operands = vec![operand_fx4(e, &i.destination, n)];
            for (k, s) in i.sources.iter().enumerate() {
                operands.push(operand_fx4(e, s, if i.scalar && k == 0 { 1 } else { n }));
            }
            format!("{name} {}", operands.join(", "))
        })
        .collect();
    format!("eval({})", lines.join("\n"))
}

/// An FX 4 operand with `n` components: `r0.x`, a variable by name (`a.x`; a register past
/// the first of a variable that takes several as `m[3].z`), `expr.x` for the result, a
/// literal as `(2)` or `(5.000000)`.
fn operand_fx4(e: &Expression, o: &Operand, n: u32) -> String {
    match o.array {
        Some((set, base)) => {
            format!("{}[{}]", register_fx4(e, set, base, n), register_fx4(e, o.set, o.item, 1))
        }
        None => register_fx4(e, o.set, o.item, n),
    }
}

fn register_fx4(e: &Expression, set: u32, item: u32, n: u32) -> String {
    let (reg, first) = (item / 4, item % 4);
    let mask = mask(first, n);
    match set {
        LITERAL => {
            let values: Vec<String> = (0..n)
                .map(|i| match item.checked_add(i).and_then(|at| e.cli4.get(at as usize)) {
                    Some(&v) => untyped(v),
                    None => "?".to_string(),
                })
                .collect();
            format!("({})", values.join(", "))
        }
        TEMPORARY => format!("r{reg}{mask}"),
        // The result: `expr.x`, and `expr0.y` for a later component written alone.
        OUTPUT if reg == 0 && !(n == 1 && first > 0) => format!("expr{mask}"),
        OUTPUT => format!("expr{reg}{mask}"),
        INPUT => {
            let table = e.inputs.iter().flat_map(|t| &t.constants);
            let found = table.clone().find(|c| {
                let start = u32::from(c.register_index);
                (start..start + u32::from(c.register_count)).contains(&reg)
            });
            match found {
                Some(c) if c.register_count > 1 => {
                    format!("{}[{}]{mask}", c.name, reg - u32::from(c.register_index))
                }
                Some(c) => format!("{}{mask}", c.name),
                None => format!("c{reg}{mask}"),
            }
        }
        other => format!("?{other}:{item}"),
    }
}

/// A 32-bit literal whose type the listing does not know, as fxc prints one: a float when its
/// bits look like one, else an integer (the rule of a DXBC listing's `l(…)`).
fn untyped(v: u32) -> String {
    use crate::isa::sm4::{numfmt::int_text, print::untyped_is_float};
    if untyped_is_float(v) {
        let mut s = String::new();
        let _ = crate::print::float::write_f32_fixed(&mut s, v, crate::print::float::FloatStyle::Ucrt);
        s
    } else {
        int_text(v).as_str().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn an_expression_lists_its_code() {
        // CLIT: 2 literals (5.5, 7); FXLC: add r0.x, c2.x, (5.5); add c0, (7, 7, 7, 7), c0
        // (scalar add, four components); mov c1, c0[c10.x].
        let lit = |v: f64| [v.to_bits() as u32, (v.to_bits() >> 32) as u32];
        let mut clit = vec![u32::from_le_bytes(*b"CLIT"), 2];
        clit.extend(lit(5.5));
        clit.extend(lit(7.0));
        let fxlc = [
            u32::from_le_bytes(*b"FXLC"),
            3,
            0xa040_0001,
            2,
            0,
            2,
            8,
            0,
            1,
            0,
            0,
            7,
            0,
            0xa040_0004,
            2,
            0,
            1,
            1,
            0,
            2,
            0,
            0,
            4,
            0,
            0x1000_0004,
            1,
            1,
            2,
            40,
            2,
            0,
            0,
            4,
            4,
        ];
        let mut w = vec![0x4658_0201];
        w.push(0xfffe | ((clit.len() as u32) << 16));
        w.extend(&clit);
        w.push(0xfffe | ((fxlc.len() as u32) << 16));
        w.extend(fxlc);
        w.push(0xffff);
        let e = Expression::parse(&words(&w), 0x100).unwrap();
        assert_eq!(e.literals, [5.5, 7.0]);
        let mut out = crate::print::TextBuf::default();
        write_listing(&e, false, &mut out).unwrap();
        assert_eq!(
            out.as_str(),
            "    preshader\n    add r0.x, c2.x, (5.5)\n    add c0, (7, 7, 7, 7), c0\n    mov c1, c0[c10.x]\n\n\
             // approximately 3 instructions used\n"
        );
        // Cut short: the code's count claims more than the block holds.
        let cut = words(&w[..w.len() - 6]);
        assert!(Expression::parse(&cut, 0).is_err());
    }

    /// An instruction of `opcode`'s scalar form when `scalar`.
    fn op(
        opcode: u32,
        scalar: bool,
        components: u32,
        sources: &[(u32, u32)],
        destination: (u32, u32),
    ) -> Instruction {
        let o = |(set, item): (u32, u32)| Operand { set, item, array: None };
        Instruction {
            offset: 0,
            opcode,
            scalar,
            components,
            sources: sources.iter().copied().map(o).collect(),
            destination: o(destination),
        }
    }

    #[test]
    fn an_expression_runs_and_writes_back() {
        // add r0.x, c2.x, (5.5); dot c0.x, c0, c1 (four components); mov c1.x, c0[c10.x];
        // cmp c2.xy, c3.xy, (5.5, 1), r0.xy (per component: the literal where c3 >= 0, else
        // r0)
        let mut index = op(0x100, false, 1, &[(INPUT, 40)], (OUTPUT, 4));
        index.sources[0].array = Some((INPUT, 0));
        let e = Expression {
            offset: 0,
            version: 0x4658_0201,
            inputs: None,
            literals: vec![5.5, 1.0],
            cli4: Vec::new(),
            instructions: vec![
                op(0x204, true, 1, &[(INPUT, 8), (LITERAL, 0)], (TEMPORARY, 0)),
                op(0x500, false, 4, &[(INPUT, 0), (INPUT, 4)], (OUTPUT, 0)),
                index,
                op(0x300, false, 2, &[(INPUT, 12), (LITERAL, 0), (TEMPORARY, 0)], (OUTPUT, 8)),
            ],
        };
        // c0 = (1, 2, 3, 4), c1 = (5, 6, 7, 8), c2.x = 1.5, c3 = (-1, 2), c10.x = 1.
        let inputs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.5, 0.0, 0.0, 0.0, -1.0, 2.0];
        let input =
            |item: u32| if item == 40 { 1.0 } else { inputs.get(item as usize).copied().unwrap_or(0.0) };
        let out = e.evaluate(&input).unwrap();
        // dot = 5 + 12 + 21 + 32; c0[c10.x] is c1.x; cmp: c3.x < 0 gives r0.x = 7, c3.y the
        // literal at item 1 (1).
        let want: BTreeMap<u32, f64> = [(0, 70.0), (4, 5.0), (8, 7.0), (9, 1.0)].into();
        assert_eq!(out, want);
        // Written out and read again, it is the same expression and gives the same.
        let again = Expression::parse(&e.write(), 0).unwrap();
        assert_eq!(
            again.instructions.iter().map(|i| &i.sources).collect::<Vec<_>>(),
            e.instructions.iter().map(|i| &i.sources).collect::<Vec<_>>()
        );
        assert_eq!(again.evaluate(&input), Some(want));
        // An opcode without a meaning, and a temporary read before it is written: no result.
        let unknown =
            Expression { instructions: vec![op(0x7ff, false, 1, &[(INPUT, 0)], (OUTPUT, 0))], ..e.clone() };
        assert_eq!(unknown.evaluate(&input), None);
        let unwritten =
            Expression { instructions: vec![op(0x100, false, 1, &[(TEMPORARY, 4)], (OUTPUT, 0))], ..e };
        assert_eq!(unwritten.evaluate(&input), None);
    }

    /// FX 4 code lists as fxc lists it in an effect (the forms of EffectExpressions_4_0's
    /// listing: integer and float literals, a register past a variable's first, the result's
    /// `expr.x` and `expr0.y`, a whole register, a wrapping mask), and writes back.
    #[test]
    fn fx4_code_reads_lists_and_writes_back() {
        use crate::isa::d3d9::ctab::{Constant, Type as CtabType};
        let constant = |name: &str, register_index, register_count, class, ty| Constant {
            name: name.into(),
            register_set: 2,
            register_index,
            register_count,
            reserved: 0,
            ty: CtabType { class, ty, rows: 1, columns: 1, elements: 1, members: Vec::new() },
            default_value: 0,
        };
        let inputs = ConstantTable {
            offset: 0,
            size: 28,
            creator: "shaderscope".into(),
            version: 0x5458_1001,
            flags: 0,
            target: "fx_4_0".into(),
            constants: vec![constant("i", 0, 1, 0, 2), constant("m", 1, 4, 2, 3)],
        };
        let e = Expression {
            offset: 0,
            version: 0,
            inputs: Some(inputs),
            literals: Vec::new(),
            cli4: vec![2, 0x40a0_0000],
            instructions: vec![
                op(0x216, false, 1, &[(INPUT, 0), (LITERAL, 0)], (TEMPORARY, 0)),
                op(0x205, false, 1, &[(TEMPORARY, 0), (INPUT, 18)], (TEMPORARY, 1)),
                op(0x204, false, 1, &[(TEMPORARY, 1), (LITERAL, 1)], (OUTPUT, 0)),
                op(0x108, false, 4, &[(TEMPORARY, 0)], (TEMPORARY, 4)),
                op(0x204, false, 1, &[(TEMPORARY, 5), (LITERAL, 0)], (OUTPUT, 1)),
                op(0x500, false, 4, &[(INPUT, 8), (TEMPORARY, 4)], (TEMPORARY, 1)),
            ],
        };
        let want = "eval(iadd r0.x, i.x, (2)\nmul r0.y, r0.x, m[3].z\nadd expr.x, r0.y, (5.000000)\n\
                    sin r1, r0\nadd expr0.y, r1.y, (2)\ndot r0.yzwx, m[1], r1)";
        assert_eq!(eval_text(&e), want);
        let bytes = e.write_fx4();
        assert_eq!(&bytes[..4], b"DXBC");
        let again = Expression::parse_fx4(&bytes, 0x40).unwrap();
        let at_zero: Vec<Instruction> =
            again.instructions.iter().map(|i| Instruction { offset: 0, ..i.clone() }).collect();
        assert_eq!((again.offset, &again.cli4, &at_zero), (0x40, &e.cli4, &e.instructions));
        // The first instruction's offset: the FXLC chunk's data, after its count.
        let fxlc = bytes.windows(4).position(|w| w == b"FXLC").unwrap() as u64;
        assert_eq!(again.instructions[0].offset, 0x40 + fxlc + 12);
        assert_eq!(eval_text(&again), want);
        // Cut inside the code: an error at the chunk, not a panic.
        assert!(Expression::parse_fx4(&bytes[..bytes.len() - 8], 0).is_err());
    }
}
