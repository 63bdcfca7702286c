//! FXLVM: the expression code of Direct3D effects. An fx_2_0 effect runs it on the CPU before
//! a shader ("preshader", in a `PRES` comment of the program) to compute constants from the
//! effect's parameters, and as standalone expressions for states.
//!
//! An expression is a token stream: the version token `0x4658_02xx` ("FX" and 2.x), then
//! comment tokens (`0xFFFE` and a length in words in the high half), each tagged: `CTAB` (the
//! inputs, a constant table as a shader's), `CLIT` (a count and that many `f64` literals),
//! `FXLC` (the code) and `PRSI` (how outputs map to the shader's constants); an end token
//! `0x0000FFFF` may follow. In `FXLC`, after the instruction count, each instruction is an
//! opcode word (opcode in bits 16–31, component count in bits 0–7), the count of its
//! sources, then each source and the destination as `(array count, register set, item)`
//! followed by `(register set, item)` per array index. Items count components: item 9 of
//! set 2 is `c2.y`. Sets: 1 literal (`CLIT`), 2 input (`c`, the `CTAB`'s), 4 output (`c`,
//! the shader's constants), 7 temporary (`r`).
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
use crate::print::{Printer, Style};
use crate::toolkit::{Endian, Reader};
use std::collections::BTreeMap;
use std::fmt::{self, Write};

/// An expression: its inputs, literals and code.
#[derive(Debug, Clone, PartialEq)]
pub struct Expression {
    /// Absolute offset of the version token.
    pub offset: u64,
    /// The version token (`0x46580201`).
    pub version: u32,
    /// The inputs, when the `CTAB` reads.
    pub inputs: Option<ConstantTable>,
    /// The `CLIT` literals.
    pub literals: Vec<f64>,
    /// The `FXLC` code.
    pub instructions: Vec<Instruction>,
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// Absolute offset of its opcode word.
    pub offset: u64,
    /// The opcode (bits 16–31 of its first word).
    pub opcode: u32,
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
        let mut code = vec![self.instructions.len() as u32];
        for i in &self.instructions {
            code.extend([i.opcode << 16 | (i.components & 0xff), i.sources.len() as u32]);
            for o in i.sources.iter().chain([&i.destination]) {
                code.extend([u32::from(o.array.is_some()), o.set, o.item]);
                if let Some((set, item)) = o.array {
                    code.extend([set, item]);
                }
            }
        }
        comment(b"FXLC", code.iter().flat_map(|w| w.to_le_bytes()).collect());
        words.push(0x0000_ffff);
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
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
        out.push(Instruction { offset, opcode: word >> 16, components: word & 0xff, sources, destination });
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
            let scalar = matches!(i.opcode >> 12, 0xa | 0xd);
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

/// The name fxc gives an opcode.
pub fn mnemonic(opcode: u32) -> Option<&'static str> {
    Some(match opcode {
        0x1000 => "mov",
        0x1010 => "neg",
        0x1030 => "rcp",
        0x1040 => "frc",
        0x1050 => "exp",
        0x1060 => "log",
        0x1070 => "rsq",
        0x1080 => "sin",
        0x1090 => "cos",
        0x10a0 => "asin",
        0x10b0 => "acos",
        0x10c0 => "atan",
        0x2000 | 0xa000 => "min",
        0x2010 | 0xa010 => "max",
        0x2020 | 0xa020 => "lt",
        0x2030 | 0xa030 => "ge",
        0x2040 | 0xa040 => "add",
        0x2050 | 0xa050 => "mul",
        0x2060 | 0xa060 => "atan2",
        0x2080 | 0xa080 => "div",
        0x3000 => "cmp",
        0x3010 => "movc",
        0x5000 | 0xd000 => "dot",
        0x5020 | 0xd020 => "noise",
        _ => return None,
    })
}

/// A number as the Microsoft C runtime's `%.9g` prints it (how fxc shows a literal).
fn g9(v: f64) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    if !v.is_finite() {
        return if v.is_nan() {
            "nan".into()
        } else if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let sci = format!("{v:.8e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: String| {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
    };
    if !(-4..9).contains(&exp) {
        let m = trim(mantissa.to_string());
        let sign = if exp < 0 { '-' } else { '+' };
        // Three exponent digits, as the Microsoft C runtime prints them (fxc's `1e-005`).
        return format!("{m}e{sign}{:03}", exp.abs());
    }
    let decimals = (8 - exp).max(0) as usize;
    trim(format!("{v:.decimals$}"))
}

const MASK: [char; 4] = ['x', 'y', 'z', 'w'];

/// `c3.xy`: a register of `letter` with `n` components from `item`.
fn register(out: &mut String, letter: &str, item: u32, n: u32) {
    let _ = write!(out, "{letter}{}", item / 4);
    let first = item % 4;
    if !(first == 0 && n == 4) {
        out.push('.');
        out.extend(MASK.iter().take((first + n).min(4) as usize).skip(first as usize));
    }
}

fn operand(e: &Expression, o: &Operand, n: u32, scalar: bool) -> String {
    let mut s = String::new();
    let letter = match o.set {
        2 | 4 => "c",
        7 => "r",
        1 => {
            let values: Vec<String> = (0..n)
                .map(|i| e.literal(if scalar { o.item } else { o.item + i }).map_or("?".into(), g9))
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
            None => out.styled(Style::Mnemonic, &format!("op_{:04x}", i.opcode))?,
        }
        // Scalar forms (0xA…, 0xD…) take one component of their first source for all.
        let scalar = matches!(i.opcode >> 12, 0xa | 0xd);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_print_as_fxc_prints_them() {
        for (v, text) in [
            (5.5, "5.5"),
            (0.159_154_943_091_895_35, "0.159154943"),
            (std::f64::consts::TAU, "6.28318531"),
            (-std::f64::consts::PI, "-3.14159265"),
            (f64::from(0.02f32), "0.0199999996"),
            (5.0, "5"),
            (0.0, "0"),
            (1e-5, "1e-005"),
            (-2.523_985_18e-7, "-2.52398518e-007"),
            (123_456_789_012.0, "1.23456789e+011"),
        ] {
            assert_eq!(g9(v), text);
        }
    }

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

    fn op(opcode: u32, components: u32, sources: &[(u32, u32)], destination: (u32, u32)) -> Instruction {
        let o = |(set, item): (u32, u32)| Operand { set, item, array: None };
        Instruction {
            offset: 0,
            opcode,
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
        let mut index = op(0x1000, 1, &[(INPUT, 40)], (OUTPUT, 4));
        index.sources[0].array = Some((INPUT, 0));
        let e = Expression {
            offset: 0,
            version: 0x4658_0201,
            inputs: None,
            literals: vec![5.5, 1.0],
            instructions: vec![
                op(0xa040, 1, &[(INPUT, 8), (LITERAL, 0)], (TEMPORARY, 0)),
                op(0x5000, 4, &[(INPUT, 0), (INPUT, 4)], (OUTPUT, 0)),
                index,
                op(0x3000, 2, &[(INPUT, 12), (LITERAL, 0), (TEMPORARY, 0)], (OUTPUT, 8)),
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
            Expression { instructions: vec![op(0x7777, 1, &[(INPUT, 0)], (OUTPUT, 0))], ..e.clone() };
        assert_eq!(unknown.evaluate(&input), None);
        let unwritten = Expression { instructions: vec![op(0x1000, 1, &[(TEMPORARY, 4)], (OUTPUT, 0))], ..e };
        assert_eq!(unwritten.evaluate(&input), None);
    }
}
