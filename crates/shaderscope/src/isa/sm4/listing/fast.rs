//! The listing's fast path for plain instructions.
//!
//! Most of a program is plain instructions (no extended opcode token) whose operands are
//! registers with immediate indices, possibly negated or absolute, and `l(…)` literals. Such
//! a line is printed here straight from its tokens: the mnemonic from the opcode's print plan
//! ([`opcodes::plan`]), suffixes from the opcode token's bits, register names and component
//! selections from tables built at compile time. Nothing is decoded into an [`Operand`]
//! (super::Operand) first.
//!
//! Any other form (declarations, extended opcode tokens, relative addressing, minimum
//! precision, `{nonuniform}`, 64-bit literals, undefined fields, tokens missing) makes
//! [`Printer::fast_line`] take back what it wrote and return `None`; the general printer
//! ([`Printer::line`]) then prints the instruction, or reports its error. The tests check
//! that both give the same text on every corpus program and on damaged ones.

use super::{Printer, Shape, register_name, untyped_is_float};
use crate::isa::sm4::decode::operand_type as ot;
use crate::isa::sm4::numfmt;
use crate::isa::sm4::opcodes::{self, Ty, flag, op};
use crate::print::{Writer, decimal, mask_letters, swizzle_letters};
use zerocopy::little_endian::U32;

/// A register file's name padded to a fixed size (so that printing it is one copy of known
/// size, cut to length), its first eight bytes in a `u64` for a smaller copy of short names,
/// and how its indices print.
#[derive(Clone, Copy)]
struct Name {
    text: [u8; NAME_MAX],
    len: usize,
    /// The first 8 bytes (all of a short name), first byte lowest.
    short: u64,
    shape: Shape,
}

/// Longest register name (`vThreadIDInGroupFlattened`) fits.
const NAME_MAX: usize = 32;
/// Register files the format defines (`D3D10_SB_OPERAND_TYPE` 0–42); others take the
/// general path.
const REGISTER_FILES: usize = 43;

/// [`register_name`] for every register file, before SM5.1 and from SM5.1 on.
static NAMES: [[Name; REGISTER_FILES]; 2] = [build_names(false), build_names(true)];

#[allow(clippy::indexing_slicing)]
const fn build_names(sm51: bool) -> [Name; REGISTER_FILES] {
    let mut names = [Name { text: [0; NAME_MAX], len: 0, short: 0, shape: Shape::Fixed }; REGISTER_FILES];
    let mut t = 0;
    while t < REGISTER_FILES {
        let (name, shape) = register_name(t as u8, sm51);
        let bytes = name.as_bytes();
        assert!(bytes.len() <= NAME_MAX);
        let mut i = 0;
        while i < bytes.len() {
            names[t].text[i] = bytes[i];
            if i < 8 {
                names[t].short |= (bytes[i] as u64) << (8 * i);
            }
            i += 1;
        }
        names[t].len = bytes.len();
        names[t].shape = shape;
        t += 1;
    }
    names
}

/// `.x`, `.xz`, … for each write mask (mask mode; nothing for an empty mask) as bytes of a
/// `u64`, first byte lowest, with the length.
static MASKS: [(u64, usize); 16] = build_masks();
/// `.xyzw`, `.wzyx`, … for each swizzle byte, first byte lowest; its first two bytes are the
/// select-1 text.
static SWIZZLES: [u64; 256] = build_swizzles();

// Tables below are only built at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn build_masks() -> [(u64, usize); 16] {
    let mut masks = [(0, 0); 16];
    let mut m = 1;
    while m < 16 {
        masks[m] = mask_letters(m);
        m += 1;
    }
    masks
}

#[allow(clippy::indexing_slicing)]
const fn build_swizzles() -> [u64; 256] {
    let mut s = [0; 256];
    let mut v = 0;
    while v < 256 {
        s[v] = swizzle_letters(v);
        v += 1;
    }
    s
}

/// The text of an operand token's component selection (bytes of a `u64`, first byte lowest)
/// and its length, as [`components`](super::components) prints it; `None` for the undefined
/// selection mode.
#[inline]
fn selection(tok0: u32) -> Option<(u64, usize)> {
    if tok0 & 3 != 2 {
        // No components, one component, or the undefined count: nothing printed.
        return Some((0, 0));
    }
    let bits = ((tok0 >> 4) & 0xff) as usize;
    match (tok0 >> 2) & 3 {
        0 => MASKS.get(bits & 0xf).copied(),
        1 => SWIZZLES.get(bits).map(|&text| (text, 5)),
        2 => SWIZZLES.get(bits & 3).map(|&text| (text, 2)),
        _ => None,
    }
}

/// `-`, `|`, `-|` before an operand, by modifier (`D3D10_SB_OPERAND_MODIFIER`; other values
/// print nothing), as bytes of a `u64` with their lengths.
const MODIFIER_BEFORE: [(u64, usize); 4] = [(0, 0), (b'-' as u64, 1), (b'|' as u64, 1), (0x7c2d, 2)];

/// Room a line can need: indentation, mnemonic and suffixes, then at most 49 bytes a token
/// (`, -|vThreadIDInGroupFlattened.xyzw|` for an operand token, `[4294967295]` for an index,
/// `, -1234567890123.000000` for a literal that the fast path formats).
fn line_room(indent: usize, tokens: usize) -> usize {
    2 * indent + 128 + 64 * tokens
}

/// Most room made for a run of lines at once (they take a few dozen bytes each, about 12 a
/// token).
const RUN_ROOM: usize = 1536;

/// Whether the instruction at the start of `t` looks like one for [`Printer::fast_line`]: a
/// plain instruction without extended opcode tokens.
#[inline]
pub(super) fn is_plain(t: &[U32]) -> bool {
    t.first().is_some_and(|t| {
        let tok0 = t.get();
        let opcode = (tok0 & 0x7ff) as u16;
        tok0 & 0x8000_0000 == 0
            && (opcodes::plan(opcode).is_some_and(|p| p.inst) || is_fast_declaration(opcode))
    })
}

/// The declarations [`Printer::fast_declaration`] prints: the commonest ones, a register or
/// a number after the mnemonic.
#[inline]
fn is_fast_declaration(opcode: u16) -> bool {
    matches!(
        opcode,
        op::D3D10_SB_OPCODE_DCL_INPUT
            | op::D3D10_SB_OPCODE_DCL_OUTPUT
            | op::D3D10_SB_OPCODE_DCL_TEMPS
            | op::D3D10_SB_OPCODE_DCL_CONSTANT_BUFFER
    )
}

/// Why [`Printer::fast_run`] stopped.
pub(super) enum Stop {
    /// At the end of the program.
    End,
    /// At an instruction the general printer must print.
    General,
    /// Out of room: another run needs this much.
    Room(usize),
}

impl Printer {
    /// Room to make for the next run of plain instructions, when `tokens` are left and the
    /// last run stopped for want of `need` bytes.
    pub(super) fn run_room(&self, need: usize, tokens: usize) -> usize {
        tokens.saturating_mul(12).clamp(256, RUN_ROOM).max(need) + 2 * self.indent
    }

    /// Print plain instructions from token `pos` of the program `body` on, one after the
    /// other, as long as [`Printer::fast_line`] can; `at` is where the writer's room starts in
    /// the output (for `lines`). Returns the position reached, the instructions printed and
    /// why it stopped.
    pub(super) fn fast_run(
        &mut self,
        body: &[U32],
        mut pos: usize,
        at: usize,
        mut lines: Option<&mut Vec<super::LineStart>>,
        w: &mut Writer<'_>,
    ) -> (usize, usize, Stop) {
        let mut printed = 0;
        loop {
            let Some(t) = body.get(pos..).filter(|t| !t.is_empty()) else {
                return (pos, printed, Stop::End);
            };
            let len = t.first().map_or(0, |t| ((t.get() >> 24) & 0x7f) as usize);
            let need = line_room(self.indent, len);
            if w.left() < need {
                return (pos, printed, Stop::Room(need));
            }
            let offset = self.base + (2 + pos as u64) * 4;
            let line_start = at + w.written();
            let indent = self.indent;
            match self.fast_line(t, offset, w) {
                Some(used) if w.commit() => {
                    if let Some(l) = lines.as_deref_mut() {
                        l.push(super::LineStart { text: line_start, offset });
                    }
                    pos += used;
                    printed += 1;
                }
                _ => {
                    self.indent = indent;
                    return (pos, printed, Stop::General);
                }
            }
        }
    }

    /// Print the instruction at the start of `t` (at absolute `offset`) when it is a plain
    /// instruction with common operands, exactly as [`Printer::line`] would, and return its
    /// length in tokens; the caller commits the line. `None` for anything else.
    #[inline]
    fn fast_line(&mut self, t: &[U32], offset: u64, w: &mut Writer<'_>) -> Option<usize> {
        let tok0 = t.first()?.get();
        // Bit 31: extended opcode tokens follow.
        if tok0 & 0x8000_0000 != 0 {
            return None;
        }
        let opcode = (tok0 & 0x7ff) as u16;
        let plan = opcodes::plan(opcode)?;
        let len = ((tok0 >> 24) & 0x7f) as usize;
        // A length of 0 or past the end is an error the general path reports.
        let body = t.get(1..len)?;
        if !plan.inst {
            return self.fast_declaration(opcode, tok0, body, offset, w).map(|()| len);
        }
        let indent = if plan.flags & (flag::CLOSE | flag::ELSE) != 0 {
            self.indent.saturating_sub(1)
        } else {
            self.indent
        };
        self.line_start(offset, indent, w);
        w.put(&plan.mnemonic, plan.mnemonic_len);
        if plan.flags & (flag::TEST | flag::RET_TYPE) != 0 || tok0 & 0x0078_2000 != 0 {
            self.suffixes(plan.flags, tok0, w)?;
        }
        // Only the operands the table lists: tokens after them are not operands.
        let mut rest = body;
        let mut any = false;
        for &ty in plan.operands {
            if rest.is_empty() {
                break;
            }
            if any {
                w.put(b", ", 2);
            } else {
                w.put(b" ", 1);
            }
            any = true;
            let used = self.fast_operand(rest, ty, w)?;
            rest = rest.get(used..).unwrap_or(&[]);
        }
        if any {
            w.put(b"\n", 1);
        } else {
            w.put(b" \n", 2);
        }
        self.indent = if plan.flags & (flag::OPEN | flag::ELSE) != 0 { indent + 1 } else { indent };
        Some(len)
    }

    /// The offset (with `--offsets`) and the indentation that start a line.
    #[inline]
    fn line_start(&self, offset: u64, indent: usize, w: &mut Writer<'_>) {
        if self.style.offsets {
            w.put(b"0x", 2);
            w.put(&numfmt::hex8_text(offset.saturating_sub(self.base) as u32), 8);
            w.put(b": ", 2);
        }
        let mut spaces = 2 * indent;
        while spaces > 0 {
            const SPACES: [u8; 16] = [b' '; 16];
            let n = spaces.min(SPACES.len());
            w.put(&SPACES, n);
            spaces -= n;
        }
    }

    /// Print a declaration of [`is_fast_declaration`] (its opcode token `tok0` without
    /// extended tokens, `body` the tokens after it) as [`Printer::line`] prints it: `dcl_input`
    /// and `dcl_output` of a register without extended operand tokens, `dcl_temps N`, and
    /// `dcl_constantbuffer` before SM5.1 with immediate indices. `None` for anything else.
    fn fast_declaration(
        &self,
        opcode: u16,
        tok0: u32,
        body: &[U32],
        offset: u64,
        w: &mut Writer<'_>,
    ) -> Option<()> {
        let plan = opcodes::plan(opcode)?;
        self.line_start(offset, self.indent, w);
        w.put(&plan.mnemonic, plan.mnemonic_len);
        w.put(b" ", 1);
        match opcode {
            op::D3D10_SB_OPCODE_DCL_TEMPS => index(u64::from(body.first()?.get()), w),
            op::D3D10_SB_OPCODE_DCL_INPUT | op::D3D10_SB_OPCODE_DCL_OUTPUT => {
                // A register, printed as `Printer::operand` prints it.
                let reg = body.first()?.get();
                let file = ((reg >> 12) & 0xff) as u8;
                if reg & 0x8000_0000 != 0 || matches!(file, ot::IMMEDIATE32 | ot::IMMEDIATE64) {
                    return None;
                }
                self.fast_operand(body, Ty::R, w)?;
            }
            op::D3D10_SB_OPCODE_DCL_CONSTANT_BUFFER if !self.sm51 => {
                // `cb#[size]`: the slot follows the name, the size is bracketed; no components.
                let reg = body.first()?.get();
                let dim = ((reg >> 20) & 3) as usize;
                if reg & 0x8000_0000 != 0
                    || ((reg >> 12) & 0xff) as u8 != ot::CONSTANT_BUFFER
                    || !(1..=2).contains(&dim)
                    || (reg >> 22) & !(u32::MAX << (3 * dim)) != 0
                {
                    return None;
                }
                // The selection must be one the decoder accepts, though it is not printed.
                selection(reg)?;
                let indices = body.get(1..1 + dim)?;
                w.put(if self.style.upper_case_cb_decl { b"CB" } else { b"cb" }, 2);
                if let Some((first, more)) = indices.split_first() {
                    index(u64::from(first.get()), w);
                    for i in more {
                        bracketed(u64::from(i.get()), w);
                    }
                }
                // Bit 11: the access pattern.
                if tok0 & (1 << 11) != 0 {
                    w.put(b", dynamicIndexed", 16);
                } else {
                    w.put(b", immediateIndexed", 18);
                }
            }
            _ => return None,
        }
        w.put(b"\n", 1);
        Some(())
    }

    /// What follows the mnemonic of a plain instruction: `_nz`/`_z`, `_sat`, `resinfo`'s
    /// return type and ` [precise(…)]`, from the opcode token.
    fn suffixes(&self, flags: u16, tok0: u32, w: &mut Writer<'_>) -> Option<()> {
        let opcode = (tok0 & 0x7ff) as u16;
        if flags & flag::TEST != 0 && (self.style.discard_test || opcode != op::D3D10_SB_OPCODE_DISCARD) {
            if tok0 & (1 << 18) != 0 {
                w.put(b"_nz", 3);
            } else {
                w.put(b"_z", 2);
            }
        }
        if tok0 & (1 << 13) != 0 {
            w.put(b"_sat", 4);
        }
        if flags & flag::RET_TYPE != 0 {
            match (tok0 >> 11) & 3 {
                1 => w.put(b"_rcpFloat", 9),
                2 => w.put(b"_uint", 5),
                _ => {}
            }
        }
        let precise = ((tok0 >> 19) & 0xf) as usize;
        if precise != 0 {
            // ` [precise(xz)]`: the letters of the write mask `.xz`.
            let (letters, n) = MASKS.get(precise)?;
            w.put(b" [precise(", 10);
            w.put(&(letters >> 8).to_le_bytes(), n - 1);
            w.put(b")]", 2);
        }
        Some(())
    }

    /// Print the operand at the start of `t` as [`Printer::operand`] prints it (for a source
    /// of an instruction whose destination has the default precision) when it is a register
    /// with immediate 32-bit indices or a 32-bit literal, with at most one extended token that
    /// holds only a modifier; returns the tokens it took. `None` for any other operand.
    // Always inlined: as a call (it has two callers) it costs a fifth more than the whole
    // operand.
    #[inline(always)]
    fn fast_operand(&self, t: &[U32], ty: Ty, w: &mut Writer<'_>) -> Option<usize> {
        let tok0 = t.first()?.get();
        let mut used = 1;
        let mut modifier = 0;
        if tok0 & 0x8000_0000 != 0 {
            let ext = t.get(1)?.get();
            // One modifier token, not chained, with default precision (bits 14–16) and no
            // non-uniform flag (bit 17).
            if ext & 0x8000_0000 != 0 || ext & 0x3f != 1 || (ext >> 14) & 0xf != 0 {
                return None;
            }
            modifier = ((ext >> 6) & 0xff) as usize;
            if modifier > 3 {
                modifier = 0;
            }
            if modifier != 0 {
                let (before, n) = MODIFIER_BEFORE.get(modifier)?;
                w.put(&before.to_le_bytes(), *n);
            }
            used = 2;
        }
        let dim = ((tok0 >> 20) & 3) as usize;
        let file = ((tok0 >> 12) & 0xff) as u8;
        if file == ot::IMMEDIATE32 {
            // One value, or four (with a defined selection mode); no indices.
            let n = match tok0 & 3 {
                1 => 1,
                2 if (tok0 >> 2) & 3 != 3 => 4,
                _ => return None,
            };
            if dim != 0 {
                return None;
            }
            let values = t.get(used..used + n)?;
            w.put(b"l(", 2);
            self.fast_literal(values, ty, w)?;
            w.put(b")", 1);
            used += n;
        } else if file == ot::IMMEDIATE64 {
            return None;
        } else {
            used = self.fast_register(t, tok0, used, w)?;
        }
        if modifier >= 2 {
            w.put(b"|", 1);
        }
        Some(used)
    }

    /// A register operand with token `tok0` whose indices start at `t[at]`: name, indices
    /// and component selection, as [`Printer::register`] prints them; returns the position
    /// after its last token. Indices are immediate 32-bit values, or relative ones
    /// ([`Printer::relative_indices`]).
    #[inline(always)]
    fn fast_register(&self, t: &[U32], tok0: u32, at: usize, w: &mut Writer<'_>) -> Option<usize> {
        let dim = ((tok0 >> 20) & 3) as usize;
        let file = ((tok0 >> 12) & 0xff) as u8;
        let name = NAMES.get(usize::from(self.sm51))?.get(usize::from(file))?;
        let (components, components_len) = selection(tok0)?;
        // Whether the first index follows the name (`r3`, `cb0[4]`) or is bracketed too
        // (`icb[3]`, and `v[0][1]`: 2D inputs and outputs).
        let attached = match name.shape {
            Shape::Attached => !(dim >= 2 && matches!(file, ot::INPUT | ot::OUTPUT)),
            Shape::Bracketed => false,
            // Fixed names print no index.
            Shape::Fixed if dim == 0 => false,
            Shape::Fixed => return None,
        };
        if name.len <= 8 {
            w.put(&name.short.to_le_bytes(), name.len);
        } else {
            w.put(&name.text, name.len);
        }
        let mut used = at;
        // The representation of each index (3 bits each): 0 for all immediate 32-bit ones.
        if (tok0 >> 22) & !(u32::MAX << (3 * dim)) == 0 {
            let indices = t.get(used..used + dim)?;
            if let Some((first, more)) = indices.split_first() {
                let v = u64::from(first.get());
                if attached {
                    index(v, w);
                } else {
                    bracketed(v, w);
                }
                for i in more {
                    bracketed(u64::from(i.get()), w);
                }
            }
            used += dim;
        } else {
            used = self.relative_indices(t, used, tok0, attached, w)?;
        }
        w.put(&components.to_le_bytes(), components_len);
        Some(used)
    }

    /// The indices of the operand token `tok0` when some are relative (`cb0[r1.x + 4]`,
    /// `x0[r2.w + 0]`, `o[r0.x + 3]`), their tokens from `t[at]` on; returns the position
    /// after them. The relative part must be a register with immediate indices and no
    /// extended token; `None` for anything else. A relative first index is bracketed.
    #[inline(never)]
    fn relative_indices(
        &self,
        t: &[U32],
        mut at: usize,
        tok0: u32,
        attached: bool,
        w: &mut Writer<'_>,
    ) -> Option<usize> {
        let dim = ((tok0 >> 20) & 3) as usize;
        for d in 0..dim {
            match (tok0 >> (22 + 3 * d)) & 7 {
                0 => {
                    let v = u64::from(t.get(at)?.get());
                    at += 1;
                    if d == 0 && attached {
                        index(v, w);
                    } else {
                        bracketed(v, w);
                    }
                }
                // Relative (2), or an immediate plus relative (3): the immediate comes first.
                rep @ (2 | 3) => {
                    let imm = if rep == 3 {
                        at += 1;
                        t.get(at - 1)?.get()
                    } else {
                        0
                    };
                    let rel = t.get(at)?.get();
                    let rel_file = ((rel >> 12) & 0xff) as u8;
                    if rel & 0x8000_0000 != 0
                        || (rel >> 22) & !(u32::MAX << (3 * ((rel >> 20) & 3))) != 0
                        || matches!(rel_file, ot::IMMEDIATE32 | ot::IMMEDIATE64)
                    {
                        return None;
                    }
                    w.put(b"[", 1);
                    at = self.fast_register(t, rel, at + 1, w)?;
                    w.put(b" + ", 3);
                    index(u64::from(imm), w);
                    w.put(b"]", 1);
                }
                _ => return None,
            }
        }
        Some(at)
    }
    /// The values of `l(…)` as [`Printer::literal_values`] prints them; `None` for a float
    /// the fast formatter leaves to the exact one.
    #[inline]
    fn fast_literal(&self, values: &[U32], ty: Ty, w: &mut Writer<'_>) -> Option<()> {
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                // Untyped values are joined without a space.
                if ty == Ty::X {
                    w.put(b",", 1);
                } else {
                    w.put(b", ", 2);
                }
            }
            let v = v.get();
            let float = match ty {
                Ty::F | Ty::D => true,
                Ty::I | Ty::R => false,
                Ty::X => untyped_is_float(v),
            };
            if float {
                let (text, n) = numfmt::f32_text(v, self.style.floats)?;
                w.put(&text, n);
            } else {
                let (text, n) = numfmt::int_text(v);
                w.put(&text.to_le_bytes(), n);
            }
        }
        Some(())
    }
}

/// An index that follows the register name: `3` in `r3`.
#[inline]
fn index(v: u64, w: &mut Writer<'_>) {
    if v < 10 {
        w.put(&[b'0' + v as u8], 1);
    } else {
        let (digits, n) = decimal(v);
        w.put(&digits, n);
    }
}

/// A bracketed index: `[3]`.
#[inline]
fn bracketed(v: u64, w: &mut Writer<'_>) {
    if v < 10 {
        w.put(&[b'[', b'0' + v as u8, b']'], 3);
    } else {
        w.put(b"[", 1);
        let (digits, n) = decimal(v);
        w.put(&digits, n);
        w.put(b"]", 1);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{LineStart, ListingStyle, Printer, Program, write_program_with};
    use crate::format::dxbc::Dxbc;
    use crate::print::TextBuf;
    use crate::test_corpus::{Rng, corpus_dir, manifest};

    /// The text, report or error, and line starts of a listing, with or without the fast path.
    fn print(p: &Program<'_>, style: &ListingStyle, fast: bool) -> (String, String, Vec<(usize, u64)>) {
        let mut out = TextBuf::default();
        out.push_str("// before\n");
        let mut lines = Vec::new();
        let r = write_program_with(p, style, &mut out, Some(&mut lines), fast);
        let mut plain = TextBuf::default();
        let r2 = write_program_with(p, style, &mut plain, None, fast);
        assert_eq!(format!("{r:?}"), format!("{r2:?}"));
        assert_eq!(out.as_str().strip_prefix("// before\n"), Some(plain.as_str()));
        let lines = lines.iter().map(|l: &LineStart| (l.text, l.offset)).collect();
        (out.into_string(), format!("{r:?}"), lines)
    }

    fn same(p: &Program<'_>, what: &str) {
        let styles = [
            ListingStyle::FXC_10,
            ListingStyle::FXC_9_29,
            ListingStyle { offsets: true, ..ListingStyle::FXC_9_30 },
            ListingStyle::FXC_10_LEGACY_UCRT,
        ];
        for style in styles {
            let fast = print(p, &style, true);
            let general = print(p, &style, false);
            assert!(fast == general, "{what} ({style:?}): the fast path differs\n{fast:?}\n{general:?}");
        }
    }

    /// Programs of hand-made tokens that take each branch of the fast path and of its fallbacks.
    #[test]
    fn plain_instructions_print_as_the_general_printer_prints_them() {
        let reg = |ty: u32, dim: u32| (ty << 12) | (dim << 20);
        let mask = |m: u32| 2 | (m << 4);
        let swz = |s: u32| 2 | (1 << 2) | (s << 4);
        let sel = |c: u32| 2 | (2 << 2) | (c << 4);
        let op = |opcode: u32, len: u32| opcode | (len << 24);
        let bodies: Vec<Vec<u32>> = vec![
            // mad_sat r0.xz, -|r1.wzyx|, cb0[12].y, l(1.5, -2, 0, 3e9)
            vec![
                op(0x32, 14) | (1 << 13),
                reg(0, 1) | mask(5),
                0,
                reg(0, 1) | swz(0x1b) | 1 << 31,
                3 << 6 | 1,
                1,
                reg(8, 2) | sel(1),
                0,
                12,
                reg(4, 0) | swz(0xe4),
                0x3fc0_0000,
                0xc000_0000,
                0,
                0x4f32_d05e,
            ],
            // mov o[3][1].x, v[2][0].xyzw (2D inputs and outputs), mov r0, icb[7].xy
            vec![
                op(0x36, 7),
                reg(2, 2) | mask(1),
                3,
                1,
                reg(1, 2) | swz(0xe4),
                2,
                0,
                op(0x36, 5),
                reg(0, 1),
                0,
                reg(9, 1) | mask(3),
                7,
            ],
            // untyped literals, integer literals, precise, test suffixes, blocks
            vec![
                op(0x36, 8) | (0x5 << 19),
                reg(0, 1) | mask(0xf),
                0,
                reg(4, 0) | swz(0xe4),
                0,
                0x8000_0000,
                0x7f80_0000,
                0x3f80_0000,
                op(0x1e, 7),
                reg(0, 1) | mask(1),
                0,
                reg(4, 0) | 1,
                0xffff_d8f0,
                reg(4, 0) | 1,
                10001,
                op(0x1f, 3) | (1 << 18),
                reg(0, 1) | sel(0),
                0,
                op(0x12, 1),
                op(0x0d, 3),
                reg(0, 1) | sel(3),
                0,
                op(0x15, 1),
                op(0x3e, 1),
            ],
            // fixed names, 3D SM5.1-style indices, large indices, a modifier on a literal
            vec![
                op(0x36, 5),
                reg(0, 1) | mask(7),
                12345,
                reg(32, 0) | swz(0xe4) | 1 << 31,
                1 << 6 | 1,
                op(0x36, 7),
                reg(0, 1) | mask(1),
                3,
                reg(8, 3) | sel(2),
                0,
                1,
                4_000_000_000u32,
                op(0x36, 6),
                reg(0, 1) | mask(1),
                0,
                reg(4, 0) | 1 | 1 << 31,
                1 << 6 | 1,
                0x3f80_0000,
            ],
            // Relative indices after a plain `ret`: mov r0.x, cb0[r1.x + 1].x
            vec![
                op(0x3e, 1),
                op(0x36, 8),
                reg(0, 1) | mask(1),
                0,
                reg(8, 2) | sel(0) | (3 << 25),
                0,
                1,
                reg(0, 1) | sel(0),
                1,
            ],
            // mov o[r0.x + 3].y, -icb[r2.w + 0].x (a relative first index is bracketed),
            // mov r1.xy, vicp[r0.y + 6][1].xyxx (2D input), mov x0[r7.z + 0].x, l(4)
            vec![
                op(0x36, 9),
                reg(2, 1) | mask(2) | (3 << 22),
                3,
                reg(0, 1) | sel(0),
                0,
                reg(9, 1) | sel(0) | (2 << 22) | 1 << 31,
                1 << 6 | 1,
                reg(0, 1) | sel(3),
                2,
                op(0x36, 8),
                reg(0, 1) | mask(3),
                1,
                reg(25, 2) | swz(0x04) | (3 << 22),
                6,
                reg(0, 1) | sel(1),
                0,
                1,
                op(0x36, 7),
                reg(3, 2) | mask(1) | (2 << 25),
                0,
                reg(0, 1) | sel(2),
                7,
                reg(4, 0) | 1,
                4,
            ],
            // Fallbacks, each after a plain `ret`: relative part that is itself relative,
            // a literal, or has an extended token; index representation 5.
            vec![
                op(0x3e, 1),
                op(0x36, 10),
                reg(0, 1) | mask(1),
                0,
                reg(9, 1) | sel(0) | (2 << 22),
                reg(0, 1) | sel(0) | (2 << 22),
                reg(0, 1) | sel(1),
                0,
                0,
                0,
            ],
            vec![
                op(0x3e, 1),
                op(0x36, 6),
                reg(0, 1) | mask(1),
                0,
                reg(9, 1) | sel(0) | (2 << 22),
                reg(4, 0) | 1,
                2,
            ],
            vec![
                op(0x3e, 1),
                op(0x36, 7),
                reg(0, 1) | mask(1),
                0,
                reg(9, 1) | sel(0) | (2 << 22),
                reg(0, 1) | sel(0) | 1 << 31,
                1 << 6 | 1,
                0,
            ],
            vec![op(0x3e, 1), op(0x36, 6), reg(0, 1) | mask(1), 0, reg(9, 1) | sel(0) | (5 << 22), 0, 0],
            // Other fallbacks: precision, non-uniform, chained extended token, selection
            // mode 3, 64-bit literal, fixed name with an index, length past the end.
            vec![
                op(0x3e, 1),
                op(0x36, 6),
                reg(0, 1) | mask(1) | 1 << 31,
                1 | 1 << 14,
                0,
                reg(0, 1) | sel(0),
                1,
            ],
            vec![
                op(0x3e, 1),
                op(0x36, 6),
                reg(0, 1) | mask(1),
                0,
                reg(0, 1) | sel(0) | 1 << 31,
                1 | 1 << 17,
                1,
            ],
            vec![
                op(0x3e, 1),
                op(0x36, 7),
                reg(0, 1) | mask(1),
                0,
                reg(0, 1) | sel(0) | 1 << 31,
                1 << 31 | 1,
                1 << 6 | 1,
                1,
            ],
            vec![op(0x3e, 1), op(0x36, 5), reg(0, 1) | mask(1), 0, reg(0, 1) | 2 | 3 << 2, 1],
            vec![op(0x3e, 1), op(0xc7, 7), reg(0, 1) | mask(3), 0, reg(5, 0) | 1, 0, 0x3ff0_0000, 0],
            vec![op(0x3e, 1), op(0x36, 5), reg(0, 1) | mask(1), 0, reg(12, 1), 4],
            vec![op(0x3e, 1), op(0x36, 9), reg(0, 1) | mask(1), 0],
        ];
        // Instructions the fast path prints by itself in each body.
        let plain = [1, 2, 7, 3, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
        for (k, body) in bodies.iter().enumerate() {
            for version in [0x0000_0050u32, 0x0000_0051, 0x0001_0040] {
                let mut words = vec![version, 0];
                words.extend_from_slice(body);
                words[1] = words.len() as u32;
                let data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                let p = Program::parse(&data, 0x40).unwrap();
                same(&p, &format!("body {k}"));
                let mut printer =
                    Printer { style: ListingStyle::FXC_10, sm51: p.is_sm51(), base: p.base(), indent: 0 };
                let mut out = TextBuf::default();
                let (_, printed, _) =
                    out.write_with(4096, |w| printer.fast_run(p.body_tokens(), 0, 0, None, w));
                assert_eq!(
                    printed,
                    plain[k],
                    "body {k}: {}\n{}",
                    out.as_str(),
                    print(&p, &ListingStyle::FXC_10, false).0
                );
            }
        }
    }

    /// Every corpus program, and damaged copies of each (bits of operand and opcode tokens
    /// flipped), print the same with and without the fast path: text, line starts, report or
    /// error.
    #[test]
    fn corpus_programs_print_as_the_general_printer_prints_them() {
        let Some(root) = corpus_dir() else { return };
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut programs = 0;
        for row in manifest(&root, "dxbc").into_iter().filter(|r| r.kind == "dxbc-binary") {
            let path = root.join("dxbc").join(&row.path);
            let data = std::fs::read(&path).unwrap();
            let Ok(d) = Dxbc::parse(&data) else { continue };
            let Some(chunk) = d.program.map(|p| p.chunk) else { continue };
            let base = chunk.data_offset() as u64;
            let Ok(p) = Program::parse(chunk.data, base) else { continue };
            same(&p, &path.display().to_string());
            programs += 1;
            for _ in 0..4 {
                let mut v = chunk.data.to_vec();
                for _ in 0..3 {
                    let at = 8 + rng.below(v.len().saturating_sub(8));
                    if let Some(b) = v.get_mut(at) {
                        *b ^= 1 << rng.below(8);
                    }
                }
                if let Ok(p) = Program::parse(&v, base) {
                    same(&p, &format!("{} (damaged)", path.display()));
                }
            }
        }
        assert!(programs > 1200, "expected the corpus programs, found {programs}");
    }
}
