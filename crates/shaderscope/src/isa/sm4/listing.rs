//! The program text exactly as fxc's `D3DDisassemble` prints it: from the version line to the
//! last instruction, with fxc's indentation, operand syntax and literal formatting.
//!
//! A few details of the text are not stored in the binary but depend on which fxc build
//! disassembled it; [`ListingStyle`] carries them (see its fields for the evidence).

use super::decode::{Components, Instruction, Modifier, Operand, Program, operand_type as ot};
use super::names;
use super::numfmt::{self, FloatStyle, TextBuf, write_hex8, write_i64, write_int, write_u64};
use super::opcodes::{Decl, Format, OpInfo, Ty, flag, op};
use crate::error::{Error, Result};

mod fast;

/// The parts of fxc's text that do not come from the token stream.
///
/// Three disassembler generations are seen in the corpus; [`ListingStyle::for_creator`] picks
/// one from the RDEF creator string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ListingStyle {
    /// `dcl_constantbuffer CB0[4]` (fxc 10.x) instead of `cb0[4]` (fxc 9.x) in SM4.0–5.0
    /// declarations. Instructions always print `cb0[…]`; SM5.1 always prints `CB0`.
    /// Evidence: 37 DirectXTK shaders whose SHDR chunks are byte-identical in the 2013 and
    /// 2020 snapshots print `cb0` in the 2013 listings and `CB0` in the 2020 (fxc 10.0.19041)
    /// ones, so only the disassembler decides.
    pub upper_case_cb_decl: bool,
    /// Texel offsets print as `_aoffimmi(u,v,w)` (fxc 9.30 and later) or as a bare `(u,v,w)`
    /// (fxc 9.29: `sample_l_indexable(0,-1,0)(texture2d)…`, `sample_l(0,1,0)`).
    pub aoffimmi: bool,
    /// Which C runtime formatted floats (fxc 9.x: 17 significant digits; 10.x: exact, with
    /// exact ties rounded the way the Windows build that ran fxc did; see [`FloatStyle`]).
    pub floats: FloatStyle,
    /// `discard_nz`/`discard_z` (fxc 9.30 and later) or a bare `discard` (fxc 9.29: the 2012
    /// DirectXTK listings print `discard r1.x` for the same token, 0x0304000d, that the 2013
    /// ones print as `discard_nz r1.x`).
    pub discard_test: bool,
    /// `dcl_input_ps_sgv constant v4.x, is_front_face` (fxc 10.x) or without the
    /// interpolation mode (fxc 9.x), for the same tokens (interpolation bits = constant).
    /// Evidence: every 9.29/9.30 listing of the corpus omits it; public fxc 10.1 listings
    /// (vvvv/Stride shader logs with `SV_IsFrontFace`) print it.
    pub sgv_interpolation: bool,
    /// Prefix every line with fxc's `/No` byte offset (`0x00000008: `), counted from the
    /// version token.
    pub offsets: bool,
}

impl Default for ListingStyle {
    fn default() -> Self {
        ListingStyle::FXC_10
    }
}

impl ListingStyle {
    /// fxc 10.x (Windows 10 SDK `d3dcompiler_47`).
    pub const FXC_10: ListingStyle = ListingStyle {
        upper_case_cb_decl: true,
        aoffimmi: true,
        floats: FloatStyle::Ucrt,
        discard_test: true,
        sgv_interpolation: true,
        offsets: false,
    };
    /// fxc 10.x run on a Windows whose UCRT predates 2019 (ties round away from zero).
    pub const FXC_10_LEGACY_UCRT: ListingStyle =
        ListingStyle { floats: FloatStyle::UcrtLegacy, ..ListingStyle::FXC_10 };
    /// fxc 9.30 (Windows 8 SDK) and 6.3 (Windows 8.1 SDK).
    pub const FXC_9_30: ListingStyle = ListingStyle {
        upper_case_cb_decl: false,
        aoffimmi: true,
        floats: FloatStyle::Msvcrt,
        discard_test: true,
        sgv_interpolation: false,
        offsets: false,
    };
    /// fxc 9.29 (DirectX SDK, June 2010).
    pub const FXC_9_29: ListingStyle = ListingStyle {
        upper_case_cb_decl: false,
        aoffimmi: false,
        floats: FloatStyle::Msvcrt,
        discard_test: false,
        sgv_interpolation: false,
        offsets: false,
    };

    /// The style of the compiler named by an RDEF creator string such as
    /// `Microsoft (R) HLSL Shader Compiler 9.29.952.3111` (`…10.1`, `…6.3.9600.16384`);
    /// `None` or an unrecognised string gives fxc 10.x, the disassembler that still ships.
    pub fn for_creator(creator: Option<&str>) -> ListingStyle {
        let Some(c) = creator else { return ListingStyle::FXC_10 };
        let version = c.rsplit(' ').next().unwrap_or("");
        let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
        let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
        match (major, minor) {
            (9, m) if m <= 29 => ListingStyle::FXC_9_29,
            (9, _) | (6, _) => ListingStyle::FXC_9_30,
            _ => ListingStyle::FXC_10,
        }
    }

    /// The best guess for a whole container. `creator` is the RDEF creator string or, for
    /// level-9 shaders built with `/Zi`, the one in the debug comment of the embedded SM2
    /// program (both say which fxc built the file). Without one, a container with a level-9
    /// (Aon9) program is taken to come from fxc 9.30: every such container in the corpus
    /// (121, DirectXTK 2012 and 2013) was built by fxc 9.x, while fxc 10 builds carried debug
    /// info; the 2012 ones are really fxc 9.29 and differ only in a bare `discard` (4 files),
    /// which the binary cannot tell apart (their chunks are byte-identical to the 2013 ones).
    pub fn for_container(creator: Option<&str>, has_level9: bool) -> ListingStyle {
        match creator {
            Some(_) => ListingStyle::for_creator(creator),
            None if has_level9 => ListingStyle::FXC_9_30,
            None => ListingStyle::FXC_10,
        }
    }
}

/// What [`write_listing`] noticed while printing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListingReport {
    /// Instructions and declarations printed.
    pub instructions: usize,
    /// Opcodes the format does not define: (absolute offset, opcode number). Each was skipped
    /// using the length in its opcode token.
    pub unknown_opcodes: Vec<(u64, u16)>,
}

/// Print `program` as fxc does, from the version line to the last instruction, appending to
/// `out` (one `\n` after each line). On a decoding error the text printed so far stays in
/// `out` and the error is returned.
pub fn write_listing(program: &Program<'_>, style: &ListingStyle, out: &mut String) -> Result<ListingReport> {
    let mut buf = TextBuf::from(std::mem::take(out));
    let result = write_program(program, style, &mut buf, None);
    *out = buf.into_string();
    result
}

/// [`write_listing`] appended to a [`TextBuf`] (no copy, no UTF-8 check of the text before it).
pub fn write_listing_buf(
    program: &Program<'_>,
    style: &ListingStyle,
    out: &mut TextBuf,
) -> Result<ListingReport> {
    write_program(program, style, out, None)
}

/// Where the text of one instruction starts in the output of [`write_listing_with_lines`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineStart {
    /// Byte index in the output string where the instruction's first line starts.
    pub text: usize,
    /// Absolute byte offset of the instruction (of the version token for the first line).
    pub offset: u64,
}

/// [`write_listing`], also recording where each instruction's text starts, so that a viewer
/// can link lines to bytes. Instructions that print nothing (comment blocks) get no entry.
pub fn write_listing_with_lines(
    program: &Program<'_>,
    style: &ListingStyle,
    out: &mut String,
    lines: &mut Vec<LineStart>,
) -> Result<ListingReport> {
    let mut buf = TextBuf::from(std::mem::take(out));
    let result = write_program(program, style, &mut buf, Some(lines));
    *out = buf.into_string();
    result
}

/// [`write_listing`] into a [`Printer`](crate::print::Printer) sink: every line is announced
/// with [`start_line`](crate::print::Printer::start_line) and the absolute offset of its
/// instruction (continuation lines of an immediate constant buffer with `None`). The text is
/// written unstyled, line by line.
pub fn write_listing_printer(
    program: &Program<'_>,
    style: &ListingStyle,
    out: &mut dyn crate::print::Printer,
) -> Result<ListingReport> {
    let (mut text, mut lines) = (String::new(), Vec::new());
    let result = write_listing_with_lines(program, style, &mut text, &mut lines);
    let mut starts = lines.iter().peekable();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let offset = match starts.peek() {
            Some(s) if s.text == pos => starts.next().map(|s| s.offset),
            _ => None,
        };
        out.start_line(offset);
        let written = out.write_str(line);
        if written.is_err() {
            return Err(Error::invalid(program.base(), "listing output", "the printer refused the text"));
        }
        pos += line.len();
    }
    result
}

fn write_program(
    program: &Program<'_>,
    style: &ListingStyle,
    out: &mut TextBuf,
    lines: Option<&mut Vec<LineStart>>,
) -> Result<ListingReport> {
    write_program_with(program, style, out, lines, true)
}

/// Print the program; `fast` lets plain instructions take [`Printer::fast_line`] (tests turn
/// it off to compare with the general printer).
fn write_program_with(
    program: &Program<'_>,
    style: &ListingStyle,
    out: &mut TextBuf,
    mut lines: Option<&mut Vec<LineStart>>,
    fast: bool,
) -> Result<ListingReport> {
    let mut p = Printer { style: *style, sm51: program.is_sm51(), base: program.base(), indent: 0 };
    let mut report = ListingReport::default();
    out.reserve(program.byte_len() as usize * 3);
    if let Some(l) = lines.as_deref_mut() {
        l.push(LineStart { text: out.len(), offset: program.base() });
    }
    if style.offsets {
        out.push_str("0x00000000: ");
    }
    out.push_str(program.program_type.prefix());
    out.push('_');
    out.push_u64(u64::from(program.major));
    out.push('_');
    out.push_u64(u64::from(program.minor));
    out.push('\n');
    // The instructions one after the other, as `Program::instructions` decodes them: runs of
    // plain ones printed by the fast path, the others decoded and printed one by one.
    let body = program.body_tokens();
    let mut pos = 0;
    let mut need = 0;
    while pos < body.len() {
        if fast && fast::is_plain(body.get(pos..).unwrap_or(&[])) {
            let at = out.len();
            let room = p.run_room(need, body.len() - pos);
            let (next, printed, stop) =
                out.write_with(room, |w| p.fast_run(body, pos, at, lines.as_deref_mut(), w));
            report.instructions += printed;
            pos = next;
            match stop {
                fast::Stop::End => break,
                fast::Stop::Room(n) => {
                    need = n;
                    continue;
                }
                fast::Stop::General => {}
            }
        }
        let rest = body.get(pos..).unwrap_or(&[]);
        let offset = program.base() + (2 + pos as u64) * 4;
        let start = out.len();
        let inst = Instruction::decode(rest, offset)?;
        report.instructions += 1;
        if inst.info.is_none() {
            report.unknown_opcodes.push((inst.offset, inst.opcode));
        }
        p.line(&inst, out)?;
        if let Some(l) = lines.as_deref_mut() {
            if out.len() > start {
                l.push(LineStart { text: start, offset });
            }
        }
        pos += inst.tokens.len();
    }
    Ok(report)
}

struct Printer {
    style: ListingStyle,
    sm51: bool,
    base: u64,
    indent: usize,
}

/// A plain register operand ([`Printer::simple_operand`]).
struct Simple {
    name: &'static str,
    i0: u32,
    i1: Option<u32>,
    selection: Components,
    /// Tokens it takes.
    len: usize,
}

/// Characters of the component names.
const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

impl Printer {
    fn line(&mut self, inst: &Instruction<'_>, out: &mut TextBuf) -> Result<()> {
        let Some(info) = inst.info else {
            out.push_str("// unknown opcode ");
            write_u64(out, u64::from(inst.opcode));
            out.push_str(" (");
            write_u64(out, inst.len_dwords() as u64);
            out.push_str(" DWORDs) skipped\n");
            return Ok(());
        };
        if info.has(flag::CLOSE) || info.has(flag::ELSE) {
            self.indent = self.indent.saturating_sub(1);
        }
        let start = out.len();
        if self.style.offsets {
            out.push_str("0x");
            let rel = inst.offset.saturating_sub(self.base) as u32;
            for shift in (0..8).rev() {
                let nib = (rel >> (shift * 4)) & 0xf;
                out.push(char::from_digit(nib, 16).unwrap_or('0'));
            }
            out.push_str(": ");
        }
        out.push_spaces(2 * self.indent);
        let body_start = out.len();
        match info.format {
            Format::Inst => self.instruction(inst, info, out)?,
            Format::Sync => sync(inst, out),
            Format::InterfaceCall => self.interface_call(inst, out)?,
            Format::Phase => {
                out.push_str(info.mnemonic);
                out.push(' ');
            }
            Format::CustomData => self.custom_data(inst, out)?,
            Format::Decl(d) => self.declaration(inst, info, d, out)?,
        }
        if out.len() == body_start {
            // Nothing to print (e.g. a comment block): drop the indentation too.
            out.truncate(start);
        } else {
            out.push('\n');
        }
        if info.has(flag::OPEN) || info.has(flag::ELSE) {
            self.indent += 1;
        }
        Ok(())
    }

    fn instruction(&mut self, inst: &Instruction<'_>, info: &OpInfo, out: &mut TextBuf) -> Result<()> {
        match super::opcodes::padded_mnemonic(inst.opcode) {
            Some((padded, len)) => out.push_prefix(padded, len),
            None => out.push_str(info.mnemonic),
        }
        if info.has(flag::TEST) && (self.style.discard_test || inst.opcode != op::D3D10_SB_OPCODE_DISCARD) {
            if inst.test_nonzero() {
                out.push_str("_nz");
            } else {
                out.push_str("_z");
            }
        }
        if inst.saturate() {
            out.push_str("_sat");
        }
        let ext = if inst.has_extended() { inst.extended() } else { Default::default() };
        if ext.offsets.is_some() && self.style.aoffimmi {
            out.push_str("_aoffimmi");
        }
        if ext.resource_dim.is_some() {
            out.push_str("_indexable");
        }
        if let Some(o) = ext.offsets {
            out.push('(');
            for (i, v) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_i64(out, i64::from(*v));
            }
            out.push(')');
        }
        if let Some((dim, stride)) = ext.resource_dim {
            out.push('(');
            push_name(out, names::resource_dimension(u32::from(dim)), u32::from(dim));
            if dim == 12 {
                out.push_str(", stride=");
                write_u64(out, u64::from(stride));
            }
            out.push(')');
        }
        if let Some(rt) = ext.return_type {
            return_types(out, rt.map(u32::from));
        }
        if info.has(flag::RET_TYPE) {
            match inst.controls() & 3 {
                1 => out.push_str("_rcpFloat"),
                2 => out.push_str("_uint"),
                _ => {}
            }
        }
        let precise = inst.precise_mask();
        if precise != 0 {
            precise_components(u32::from(precise), out);
        }
        let mut dst_precision = 0;
        let mut any = false;
        let mut rest = inst.body();
        let mut offset = inst.body_offset(0);
        let mut i = 0;
        // Only the operands the table lists: tokens after them are not operands.
        while !rest.is_empty() && i < info.operands.len() {
            // Two constant pushes, not one of a length known only at run time (a `memcpy` call).
            if any {
                out.push_str(", ");
            } else {
                out.push(' ');
            }
            any = true;
            let ty = info.operands.get(i).copied().unwrap_or(Ty::X);
            // The commonest operands print straight from their tokens; they print the same
            // wherever they are, unless a source has to show its precision against a
            // non-default destination.
            if i == 0 || dst_precision == 0 {
                if let Some(simple) = self.simple_operand(rest) {
                    let n = simple.len;
                    Self::write_simple(&simple, out);
                    rest = rest.get(n..).unwrap_or(&[]);
                    offset += n as u64 * 4;
                    if i == 0 {
                        dst_precision = 0;
                    }
                    i += 1;
                    continue;
                }
            }
            // Borrowed out of the result rather than moved: moving the freshly written operand
            // costs more than decoding it.
            let decoded = Operand::decode(rest, offset, 0);
            let operand = match &decoded {
                Ok(o) => o,
                Err(e) => return Err(e.clone()),
            };
            let used = operand.len();
            rest = rest.get(used..).unwrap_or(&[]);
            offset += used as u64 * 4;
            if i == 0 {
                dst_precision = operand.min_precision;
                self.operand(operand, ty, None, out)?;
            } else {
                self.operand(operand, ty, Some(dst_precision), out)?;
            }
            i += 1;
        }
        if !any {
            out.push(' ');
        }
        Ok(())
    }

    /// A register with no extended token and one or two immediate 32-bit indices, whose first
    /// index follows the name (`r3.xyzx`, `cb0[4].x`, `T1[1]`): such operands, the commonest,
    /// are printed by [`Printer::write_simple`] without being decoded into an [`Operand`].
    /// `None` for any other operand.
    #[inline]
    fn simple_operand(&self, t: &[zerocopy::little_endian::U32]) -> Option<Simple> {
        let tok0 = t.first()?.get();
        if tok0 & 0x8000_0000 != 0 || (tok0 >> 22) & 0x3f != 0 {
            return None;
        }
        let ty = ((tok0 >> 12) & 0xff) as u8;
        let (name, shape) = register_name(ty, self.sm51);
        let selection = Components::of(tok0)?;
        let dim = (tok0 >> 20) & 3;
        // Attached names never belong to immediates; 2D inputs and outputs bracket both indices.
        if shape != Shape::Attached
            || dim == 0
            || dim > 2
            || (dim == 2 && matches!(ty, ot::INPUT | ot::OUTPUT))
        {
            return None;
        }
        let i0 = t.get(1)?.get();
        let i1 = if dim == 2 { Some(t.get(2)?.get()) } else { None };
        Some(Simple { name, i0, i1, selection, len: 1 + dim as usize })
    }

    /// The text of a [`Simple`] operand: the same as [`Printer::operand`] gives for it.
    #[inline]
    fn write_simple(s: &Simple, out: &mut TextBuf) {
        match s.name.as_bytes() {
            &[c] => out.push_ascii(&[c]),
            _ => out.push_str(s.name),
        }
        write_u64(out, u64::from(s.i0));
        if let Some(i1) = s.i1 {
            out.push('[');
            write_u64(out, u64::from(i1));
            out.push(']');
        }
        components(s.selection, out);
    }

    /// The first operand of a declaration body, printed as [`Printer::operand`] does; returns
    /// its length in tokens. The mnemonic and a space come first, written once the operand is
    /// known to decode (a broken one leaves nothing of the line).
    fn decl_operand(&self, inst: &Instruction<'_>, mnemonic: &str, out: &mut TextBuf) -> Result<usize> {
        if let Some(simple) = self.simple_operand(inst.body()) {
            out.push_str(mnemonic);
            out.push(' ');
            Self::write_simple(&simple, out);
            return Ok(simple.len);
        }
        let o = inst.first_operand()?;
        out.push_str(mnemonic);
        out.push(' ');
        self.operand(&o, Ty::R, None, out)?;
        Ok(o.len())
    }

    fn interface_call(&self, inst: &Instruction<'_>, out: &mut TextBuf) -> Result<()> {
        out.push_str("fcall ");
        let function = inst.body_token(0, "fcall function index")?;
        let mut ops = inst.operands();
        if let Some(op) = ops.next() {
            self.operand(&op?, Ty::R, None, out)?;
        }
        out.push('[');
        write_u64(out, u64::from(function));
        out.push(']');
        Ok(())
    }

    /// One operand. `dst_precision` is `None` for the destination (or a declared register)
    /// and the destination's precision for sources.
    fn operand(&self, o: &Operand<'_>, ty: Ty, dst_precision: Option<u8>, out: &mut TextBuf) -> Result<()> {
        match o.modifier {
            Modifier::None => {}
            Modifier::Neg => out.push('-'),
            Modifier::Abs => out.push('|'),
            Modifier::AbsNeg => out.push_str("-|"),
        }
        self.register(o, ty, false, out)?;
        if matches!(o.modifier, Modifier::Abs | Modifier::AbsNeg) {
            out.push('|');
        }
        if o.min_precision != 0 || dst_precision.is_some_and(|d| d != 0) {
            precision(o.min_precision, dst_precision, out);
        }
        if o.non_uniform {
            out.push_str(" {nonuniform}");
        }
        Ok(())
    }

    /// Register name, indices and component selection (no modifiers). `decl` selects the
    /// declaration forms of SM5.1 ranges (`T1[1:1]`).
    fn register(&self, o: &Operand<'_>, ty: Ty, decl: bool, out: &mut TextBuf) -> Result<()> {
        match o.ty {
            ot::IMMEDIATE32 => {
                out.push_str("l(");
                self.imm32(o, ty, out);
                out.push(')');
                return Ok(());
            }
            ot::IMMEDIATE64 => {
                out.push_str("d(");
                let n = if o.imm_len == 2 { 1 } else { 2 };
                for i in 0..n {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let lo = o.imm.get(2 * i).copied().unwrap_or(0);
                    let hi = o.imm.get(2 * i + 1).copied().unwrap_or(0);
                    numfmt::write_f64(out, (u64::from(hi) << 32) | u64::from(lo), self.style.floats);
                    // fxc marks double literals with a trailing `l` (`d(1.000000l, 0.000000l)`),
                    // as RenderDoc's and vkd3d's fxc-style printers also do.
                    out.push('l');
                }
                out.push(')');
                return Ok(());
            }
            _ => {}
        }
        let (name, shape) = register_name(o.ty, self.sm51);
        match name.as_bytes() {
            // Most registers (`r`, `v`, `o`, `t`, …) are one letter: skip the copy call.
            &[c] => out.push_ascii(&[c]),
            _ => out.push_str(name),
        }
        match shape {
            Shape::Attached => self.indices_attached(o, decl, out)?,
            Shape::Bracketed => {
                for i in 0..usize::from(o.index_dim) {
                    self.index(o, i, out)?;
                }
            }
            Shape::Fixed => {}
        }
        components(o.components, out);
        Ok(())
    }

    /// `r0`, `cb0[3]`, `v[r0.x + 0]`, `T1[1:1]`: the first index follows the name unless it
    /// is relative (or the register is a 2D input).
    fn indices_attached(&self, o: &Operand<'_>, decl: bool, out: &mut TextBuf) -> Result<()> {
        let dim = usize::from(o.index_dim);
        if dim == 0 {
            return Ok(());
        }
        let first_bracketed = matches!(o.ty, ot::INPUT | ot::OUTPUT) && dim >= 2;
        match o.imm_index(0) {
            Some(v) if !first_bracketed => write_u64(out, v),
            _ => self.index(o, 0, out)?,
        }
        if decl && self.sm51 && dim == 3 && is_descriptor(o.ty) {
            // Declared range: [lower:upper], upper 0xffffffff meaning unbounded.
            out.push('[');
            write_u64(out, o.index(1).map(|x| x.imm).unwrap_or(0));
            out.push(':');
            match o.index(2).map(|x| x.imm) {
                Some(0xffff_ffff) => out.push('*'),
                v => write_u64(out, v.unwrap_or(0)),
            }
            out.push(']');
            return Ok(());
        }
        for i in 1..dim {
            self.index(o, i, out)?;
        }
        Ok(())
    }

    /// `[imm]` or `[rel + imm]`.
    fn index(&self, o: &Operand<'_>, i: usize, out: &mut TextBuf) -> Result<()> {
        let Some(ix) = o.index(i) else { return Ok(()) };
        out.push('[');
        if let Some(rel) = ix.rel {
            let r = rel.decode()?;
            self.operand(&r, Ty::I, None, out)?;
            out.push_str(" + ");
        }
        write_u64(out, ix.imm);
        out.push(']');
        Ok(())
    }

    fn imm32(&self, o: &Operand<'_>, ty: Ty, out: &mut TextBuf) {
        let n = usize::from(o.imm_len);
        self.literal_values(o.imm.get(..n).unwrap_or(&[]).iter().copied(), ty, out);
    }

    /// The values inside `l(…)`, each printed as the operand's type says.
    #[inline]
    fn literal_values(&self, vals: impl Iterator<Item = u32>, ty: Ty, out: &mut TextBuf) {
        for (i, v) in vals.enumerate() {
            if i > 0 {
                // Untyped values are joined without a space.
                if ty == Ty::X {
                    out.push(',');
                } else {
                    out.push_str(", ");
                }
            }
            match ty {
                Ty::F | Ty::D => numfmt::write_f32(out, v, self.style.floats),
                Ty::I | Ty::R => write_int(out, v),
                Ty::X => self.untyped(v, out),
            }
        }
    }

    /// An untyped 32-bit value: a float unless its bits look like an integer.
    fn untyped(&self, v: u32, out: &mut TextBuf) {
        if untyped_is_float(v) {
            numfmt::write_f32(out, v, self.style.floats);
        } else {
            write_int(out, v);
        }
    }

    fn custom_data(&self, inst: &Instruction<'_>, out: &mut TextBuf) -> Result<()> {
        match inst.custom_data_class() {
            // D3D10_SB_CUSTOMDATA_DCL_IMMEDIATE_CONSTANT_BUFFER
            Some(3) => {
                const OPEN: &str = "dcl_immediateConstantBuffer { ";
                out.push_str(OPEN);
                let body = inst.body();
                let rows = body.chunks(4);
                let n = rows.len();
                if n == 0 {
                    out.push('}');
                }
                for (r, row) in rows.enumerate() {
                    if r > 0 {
                        out.push_str(",\n");
                        for _ in 0..self.indent {
                            out.push_str("  ");
                        }
                        for _ in 0..OPEN.len() {
                            out.push(' ');
                        }
                    }
                    out.push_str("{ ");
                    for (c, v) in row.iter().enumerate() {
                        if c > 0 {
                            out.push_str(", ");
                        }
                        self.untyped(v.get(), out);
                    }
                    out.push('}');
                    if r + 1 == n {
                        out.push_str(" }");
                    }
                }
                Ok(())
            }
            // D3D11_SB_CUSTOMDATA_SHADER_MESSAGE
            Some(4) => self.shader_message(inst, out),
            // Comments, debug info, opaque data and DX9 clip-plane mappings print nothing.
            _ => Ok(()),
        }
    }

    /// `printf "fmt", r0.x` / `errorf "fmt", …` from a shader-message block.
    fn shader_message(&self, inst: &Instruction<'_>, out: &mut TextBuf) -> Result<()> {
        let id = inst.body_token(0, "shader message id")?;
        let _format = inst.body_token(1, "shader message format")?;
        let chars = inst.body_token(2, "shader message length")? as usize;
        let n_ops = inst.body_token(3, "shader message operand count")?;
        let ops_len = inst.body_token(4, "shader message operand length")? as usize;
        out.push_str(if id == 0x0020_0103 { "errorf" } else { "printf" });
        let body = inst.body();
        let ops_tokens = body.get(5..).and_then(|t| t.get(..ops_len)).ok_or_else(|| {
            Error::truncated(inst.body_offset(5), "shader message operands", ops_len as u64 * 4, 0)
        })?;
        let text_tokens = body.get(ops_len.saturating_add(5)..).unwrap_or(&[]);
        out.push_str(" \"");
        let mut written = 0;
        'text: for t in text_tokens {
            for b in t.get().to_le_bytes() {
                if written == chars || b == 0 {
                    break 'text;
                }
                out.push(char::from(b));
                written += 1;
            }
        }
        out.push('"');
        let mut offset = inst.body_offset(5);
        let mut rest = ops_tokens;
        for _ in 0..n_ops {
            if rest.is_empty() {
                break;
            }
            let o = Operand::decode(rest, offset, 0)?;
            let used = o.len();
            out.push_str(", ");
            self.operand(&o, Ty::X, None, out)?;
            rest = rest.get(used..).unwrap_or(&[]);
            offset += used as u64 * 4;
        }
        Ok(())
    }

    fn declaration(&self, inst: &Instruction<'_>, info: &OpInfo, d: Decl, out: &mut TextBuf) -> Result<()> {
        let c = inst.controls();
        let mn = info.mnemonic;
        match d {
            Decl::Resource => {
                let o = inst.first_operand()?;
                let dim = c & 0x1f;
                out.push_str("dcl_resource_");
                push_name(out, names::resource_dimension(dim), dim);
                if dim == 4 || dim == 9 {
                    out.push('(');
                    write_u64(out, u64::from((c >> 5) & 0x7f));
                    out.push(')');
                }
                self.typed_tail(inst, &o, out)?;
            }
            Decl::ConstantBuffer => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                out.push(' ');
                if self.sm51 {
                    self.decl_register(&o, out)?;
                    out.push('[');
                    write_u64(out, u64::from(inst.body_token(used, "constant buffer size")?));
                    out.push(']');
                } else {
                    // cb#[size]: the slot follows the name, the size is bracketed.
                    out.push_str(if self.style.upper_case_cb_decl { "CB" } else { "cb" });
                    self.indices_attached(&o, false, out)?;
                }
                out.push_str(if c & 1 != 0 { ", dynamicIndexed" } else { ", immediateIndexed" });
                if self.sm51 {
                    self.space(inst, used + 1, out)?;
                }
            }
            Decl::Sampler => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                out.push(' ');
                self.decl_register(&o, out)?;
                out.push_str(", ");
                let mode = c & 0xf;
                push_name(out, names::sampler_mode(mode), mode);
                self.space(inst, used, out)?;
            }
            Decl::IndexRange => {
                let used = self.decl_operand(inst, mn, out)?;
                out.push(' ');
                write_u64(out, u64::from(inst.body_token(used, "index range count")?));
            }
            Decl::GsOutputTopology => {
                out.push_str(mn);
                out.push(' ');
                let v = c & 0x3f;
                push_name(out, names::topology(v), v);
                out.push(' ');
            }
            Decl::GsInputPrimitive => {
                out.push_str(mn);
                out.push(' ');
                let v = c & 0x3f;
                push_name(out, names::primitive(v), v);
                out.push(' ');
            }
            Decl::MaxOutputVertexCount
            | Decl::HsForkPhaseInstanceCount
            | Decl::HsJoinPhaseInstanceCount
            | Decl::GsInstanceCount
            | Decl::Temps
            | Decl::FunctionBody => {
                out.push_str(mn);
                out.push(' ');
                if d == Decl::FunctionBody {
                    out.push_str("fb");
                }
                write_u64(out, u64::from(inst.body_token(0, "declaration value")?));
            }
            Decl::Input | Decl::Output | Decl::Stream => {
                self.decl_operand(inst, mn, out)?;
            }
            Decl::InputSgv | Decl::InputSiv | Decl::OutputSgv | Decl::OutputSiv => {
                let used = self.decl_operand(inst, mn, out)?;
                out.push_str(", ");
                let name = inst.body_token(used, "system value name")? & 0xffff;
                push_name(out, names::system_value(name), name);
            }
            Decl::InputPs | Decl::InputPsSgv | Decl::InputPsSiv => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                out.push(' ');
                // fxc 9.x shows no interpolation mode on system-generated values although the
                // bits say `constant`; fxc 10.x shows it.
                let interp = if d == Decl::InputPsSgv && !self.style.sgv_interpolation { 0 } else { c & 0xf };
                let text = names::interpolation(interp);
                if text != Some("") {
                    push_name(out, text, interp);
                    out.push(' ');
                }
                self.operand(&o, Ty::R, None, out)?;
                if d != Decl::InputPs {
                    out.push_str(", ");
                    let name = inst.body_token(used, "system value name")? & 0xffff;
                    push_name(out, names::system_value(name), name);
                }
            }
            Decl::IndexableTemp => {
                out.push_str(mn);
                out.push_str(" x");
                write_u64(out, u64::from(inst.body_token(0, "indexable temp register")?));
                out.push('[');
                write_u64(out, u64::from(inst.body_token(1, "indexable temp size")?));
                out.push_str("], ");
                write_u64(out, u64::from(inst.body_token(2, "indexable temp components")?));
            }
            Decl::GlobalFlags => {
                out.push_str(mn);
                out.push(' ');
                let bits = inst.token0();
                let mut first = true;
                for (bit, name) in names::GLOBAL_FLAGS {
                    if bits & bit != 0 {
                        if !first {
                            out.push_str(" | ");
                        }
                        out.push_str(name);
                        first = false;
                    }
                }
                let unknown = bits & 0x00ff_f800 & !0x000f_f800;
                if unknown != 0 {
                    if !first {
                        out.push_str(" | ");
                    }
                    write_hex8(out, unknown);
                }
            }
            Decl::FunctionTable => {
                out.push_str(mn);
                out.push_str(" ft");
                write_u64(out, u64::from(inst.body_token(0, "function table id")?));
                out.push_str(" = {");
                let n = inst.body_token(1, "function table length")?;
                for i in 0..n as usize {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str("fb");
                    write_u64(out, u64::from(inst.body_token(2 + i, "function table entry")?));
                }
                out.push('}');
            }
            Decl::Interface => {
                out.push_str(mn);
                if c & 1 != 0 {
                    out.push_str("_dynamicindexed");
                }
                out.push_str(" fp");
                write_u64(out, u64::from(inst.body_token(0, "interface id")?));
                let expected = inst.body_token(1, "interface table length")?;
                let lens = inst.body_token(2, "interface array length")?;
                out.push('[');
                write_u64(out, u64::from(lens >> 16));
                out.push_str("][");
                write_u64(out, u64::from(expected));
                out.push_str("] = {");
                for i in 0..(lens & 0xffff) as usize {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str("ft");
                    write_u64(out, u64::from(inst.body_token(3 + i, "interface function table")?));
                }
                out.push('}');
            }
            Decl::InputControlPointCount | Decl::OutputControlPointCount => {
                out.push_str(mn);
                out.push(' ');
                write_u64(out, u64::from(c & 0x3f));
            }
            Decl::TessDomain => {
                out.push_str(mn);
                out.push(' ');
                push_name(out, names::tess_domain(c & 3), c & 3);
            }
            Decl::TessPartitioning => {
                out.push_str(mn);
                out.push(' ');
                push_name(out, names::tess_partitioning(c & 7), c & 7);
            }
            Decl::TessOutputPrimitive => {
                out.push_str(mn);
                out.push(' ');
                push_name(out, names::tess_output_primitive(c & 7), c & 7);
            }
            Decl::HsMaxTessFactor => {
                out.push_str(mn);
                out.push_str(" l(");
                numfmt::write_f32(out, inst.body_token(0, "max tessfactor")?, self.style.floats);
                out.push(')');
            }
            Decl::ThreadGroup => {
                out.push_str(mn);
                out.push(' ');
                for i in 0..3 {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_u64(out, u64::from(inst.body_token(i, "thread group size")?));
                }
            }
            Decl::UavTyped => {
                let o = inst.first_operand()?;
                let dim = c & 0x1f;
                out.push_str("dcl_uav_typed_");
                push_name(out, names::resource_dimension(dim), dim);
                uav_flags(c, false, out);
                self.typed_tail(inst, &o, out)?;
            }
            Decl::UavRaw => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                uav_flags(c, false, out);
                out.push(' ');
                self.decl_register(&o, out)?;
                self.space(inst, used, out)?;
            }
            Decl::UavStructured => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                uav_flags(c, true, out);
                out.push(' ');
                self.decl_register(&o, out)?;
                out.push_str(", ");
                write_u64(out, u64::from(inst.body_token(used, "structure stride")?));
                self.space(inst, used + 1, out)?;
            }
            Decl::TgsmRaw => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                out.push(' ');
                self.decl_register(&o, out)?;
                out.push_str(", ");
                write_u64(out, u64::from(inst.body_token(used, "shared memory size")?));
            }
            Decl::TgsmStructured => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                out.push(' ');
                self.decl_register(&o, out)?;
                out.push_str(", ");
                write_u64(out, u64::from(inst.body_token(used, "structure stride")?));
                out.push_str(", ");
                write_u64(out, u64::from(inst.body_token(used + 1, "structure count")?));
            }
            Decl::ResourceRaw => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                out.push(' ');
                self.decl_register(&o, out)?;
                self.space(inst, used, out)?;
            }
            Decl::ResourceStructured => {
                let o = inst.first_operand()?;
                let used = o.len();
                out.push_str(mn);
                out.push(' ');
                self.decl_register(&o, out)?;
                out.push_str(", ");
                write_u64(out, u64::from(inst.body_token(used, "structure stride")?));
                if self.sm51 {
                    self.space(inst, used + 1, out)?;
                } else {
                    out.push(' ');
                }
            }
        }
        Ok(())
    }

    /// A declared register: SM5.1 ranges print `T1[1:1]`, earlier models `t1`; the
    /// component selection of the declared operand is not printed.
    fn decl_register(&self, o: &Operand<'_>, out: &mut TextBuf) -> Result<()> {
        self.register(&o.without_components(), Ty::R, true, out)?;
        precision(o.min_precision, None, out);
        Ok(())
    }

    /// What follows the mnemonic of a typed resource or UAV declaration: ` (float,float,float,float) t0`
    /// and the SM5.1 space; the return-type token follows the operand.
    fn typed_tail(&self, inst: &Instruction<'_>, o: &Operand, out: &mut TextBuf) -> Result<()> {
        let used = o.len();
        out.push(' ');
        let rt = inst.body_token(used, "resource return type")?;
        return_types(out, [rt & 0xf, (rt >> 4) & 0xf, (rt >> 8) & 0xf, (rt >> 12) & 0xf]);
        out.push(' ');
        self.decl_register(o, out)?;
        self.space(inst, used + 1, out)
    }

    /// `, space=N` after SM5.1 descriptor declarations (token `at` of the body).
    fn space(&self, inst: &Instruction<'_>, at: usize, out: &mut TextBuf) -> Result<()> {
        if self.sm51 {
            out.push_str(", space=");
            write_u64(out, u64::from(inst.body_token(at, "register space")?));
        }
        Ok(())
    }
}

/// ` [precise(xy)]`: the destination components marked precise (bits x=1 … w=8).
fn precise_components(mask: u32, out: &mut TextBuf) {
    out.push_str(" [precise(");
    for (i, c) in XYZW.iter().enumerate() {
        if mask & (1 << i) != 0 {
            out.push(*c);
        }
    }
    out.push_str(")]");
}

/// `sync` with its flags: `_uglobal`, `_ugroup`, `_g` (shared memory), `_t` (thread group).
fn sync(inst: &Instruction<'_>, out: &mut TextBuf) {
    let c = inst.controls();
    out.push_str("sync");
    if c & 8 != 0 {
        out.push_str("_uglobal");
    }
    if c & 4 != 0 {
        out.push_str("_ugroup");
    }
    if c & 2 != 0 {
        out.push_str("_g");
    }
    if c & 1 != 0 {
        out.push_str("_t");
    }
}

/// `_glc` (globally coherent), `_opc` (order-preserving counter), `_rov`.
fn uav_flags(c: u32, structured: bool, out: &mut TextBuf) {
    if c & (1 << 5) != 0 {
        out.push_str("_glc");
    }
    if c & (1 << 6) != 0 {
        out.push_str("_rov");
    }
    if structured && c & (1 << 12) != 0 {
        out.push_str("_opc");
    }
}

/// `(float,float,float,float)`.
fn return_types(out: &mut TextBuf, rt: [u32; 4]) {
    out.push('(');
    for (i, t) in rt.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_name(out, names::return_type(*t), *t);
    }
    out.push(')');
}

/// ` {min16f}` on a destination; ` {def32 as min16f}` on a source whose precision differs
/// from the destination's.
fn precision(p: u8, dst: Option<u8>, out: &mut TextBuf) {
    match dst {
        Some(d) if d != p => {
            out.push_str(" {");
            out.push_str(names::min_precision(p));
            out.push_str(" as ");
            out.push_str(names::min_precision(d));
            out.push('}');
        }
        _ if p != 0 => {
            out.push_str(" {");
            out.push_str(names::min_precision(p));
            out.push('}');
        }
        _ => {}
    }
}

fn push_name(out: &mut TextBuf, name: Option<&str>, raw: u32) {
    match name {
        Some(n) => out.push_str(n),
        None => write_u64(out, u64::from(raw)),
    }
}

fn components(c: Components, out: &mut TextBuf) {
    const L: [u8; 4] = *b"xyzw";
    let l = |v: u8| L.get(usize::from(v & 3)).copied().unwrap_or(b'x');
    match c {
        Components::Mask(m) if m != 0 => {
            let mut b = [b'.'; 5];
            let mut n = 1;
            for (i, ch) in L.iter().enumerate() {
                if m & (1 << i) != 0 {
                    if let Some(slot) = b.get_mut(n) {
                        *slot = *ch;
                    }
                    n += 1;
                }
            }
            out.push_prefix(&b, n);
        }
        Components::Swizzle(s) => out.push_ascii(&[b'.', l(s[0]), l(s[1]), l(s[2]), l(s[3])]),
        Components::Select(v) => out.push_ascii(&[b'.', l(v)]),
        _ => {}
    }
}

/// How a register file prints its indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `r0`, `cb0[4]`, `x1[2]`: the first index follows the name.
    Attached,
    /// `icb[3]`, `vicp[0][1]`: every index bracketed.
    Bracketed,
    /// `vThreadID`, `oDepth`: no index.
    Fixed,
}

fn is_descriptor(t: u8) -> bool {
    matches!(t, ot::SAMPLER | ot::RESOURCE | ot::CONSTANT_BUFFER | ot::UNORDERED_ACCESS_VIEW)
}

/// fxc's prefix of a register file (`r`, `cb`, `vThreadID`, …; SM5.1 descriptors upper case).
pub(crate) fn register_prefix(t: u8, sm51: bool) -> &'static str {
    register_name(t, sm51).0
}

/// fxc's name of a register file; SM5.1 descriptors are upper case.
const fn register_name(t: u8, sm51: bool) -> (&'static str, Shape) {
    use Shape::*;
    match t {
        ot::TEMP => ("r", Attached),
        ot::INPUT => ("v", Attached),
        ot::OUTPUT => ("o", Attached),
        ot::INDEXABLE_TEMP => ("x", Attached),
        ot::SAMPLER => (if sm51 { "S" } else { "s" }, Attached),
        ot::RESOURCE => (if sm51 { "T" } else { "t" }, Attached),
        ot::CONSTANT_BUFFER => (if sm51 { "CB" } else { "cb" }, Attached),
        ot::UNORDERED_ACCESS_VIEW => (if sm51 { "U" } else { "u" }, Attached),
        ot::IMMEDIATE_CONSTANT_BUFFER => ("icb", Bracketed),
        ot::LABEL => ("l", Attached),
        ot::INPUT_PRIMITIVEID => ("vPrim", Fixed),
        ot::OUTPUT_DEPTH => ("oDepth", Fixed),
        ot::NULL => ("null", Fixed),
        ot::RASTERIZER => ("rasterizer", Fixed),
        ot::OUTPUT_COVERAGE_MASK => ("oMask", Fixed),
        ot::STREAM => ("m", Attached),
        ot::FUNCTION_BODY => ("fb", Attached),
        ot::FUNCTION_TABLE => ("ft", Attached),
        ot::INTERFACE => ("fp", Attached),
        ot::FUNCTION_INPUT => ("fi", Attached),
        ot::FUNCTION_OUTPUT => ("fo", Attached),
        ot::OUTPUT_CONTROL_POINT_ID => ("vOutputControlPointID", Fixed),
        ot::INPUT_FORK_INSTANCE_ID => ("vForkInstanceID", Fixed),
        ot::INPUT_JOIN_INSTANCE_ID => ("vJoinInstanceID", Fixed),
        ot::INPUT_CONTROL_POINT => ("vicp", Bracketed),
        ot::OUTPUT_CONTROL_POINT => ("vocp", Bracketed),
        ot::INPUT_PATCH_CONSTANT => ("vpc", Attached),
        ot::INPUT_DOMAIN_POINT => ("vDomain", Fixed),
        ot::THIS_POINTER => ("this", Bracketed),
        ot::THREAD_GROUP_SHARED_MEMORY => ("g", Attached),
        ot::INPUT_THREAD_ID => ("vThreadID", Fixed),
        ot::INPUT_THREAD_GROUP_ID => ("vThreadGroupID", Fixed),
        ot::INPUT_THREAD_ID_IN_GROUP => ("vThreadIDInGroup", Fixed),
        ot::INPUT_COVERAGE_MASK => ("vCoverage", Fixed),
        ot::INPUT_THREAD_ID_IN_GROUP_FLATTENED => ("vThreadIDInGroupFlattened", Fixed),
        ot::INPUT_GS_INSTANCE_ID => ("vGSInstanceID", Fixed),
        ot::OUTPUT_DEPTH_GREATER_EQUAL => ("oDepthGE", Fixed),
        ot::OUTPUT_DEPTH_LESS_EQUAL => ("oDepthLE", Fixed),
        ot::CYCLE_COUNTER => ("vCycleCounter", Fixed),
        ot::OUTPUT_STENCIL_REF => ("oStencilRef", Fixed),
        ot::INNER_COVERAGE => ("vInnerCoverage", Fixed),
        _ => ("unknown_register", Bracketed),
    }
}

/// fxc's choice for an untyped (`mov`-family) immediate component: a float when the exponent
/// field is neither all zeros nor all ones, and for `-0.0`; integers (small values are
/// denormal patterns, negative ones have all exponent bits set), NaN and Inf print as integers.
/// Corpus evidence: `l(0,128,0.000000,0)` (0x00800000 is a float), `l(0,0x00008000,-0.000000,0)`.
pub(crate) fn untyped_is_float(v: u32) -> bool {
    let exp = (v >> 23) & 0xff;
    (exp != 0 && exp != 0xff) || v == 0x8000_0000
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Operand token helpers (d3d12TokenizedProgramFormat.hpp layout).
    fn reg(ty: u32, dim: u32) -> u32 {
        (ty << 12) | (dim << 20)
    }
    fn mask(m: u32) -> u32 {
        2 | (m << 4)
    }
    fn swz(s: [u32; 4]) -> u32 {
        2 | (1 << 2) | ((s[0] | (s[1] << 2) | (s[2] << 4) | (s[3] << 6)) << 4)
    }
    fn sel(c: u32) -> u32 {
        2 | (2 << 2) | (c << 4)
    }
    fn op(opcode: u32, len: u32) -> u32 {
        opcode | (len << 24)
    }

    fn listing(version: u32, body: &[u32], style: ListingStyle) -> String {
        let mut words = vec![version, 0];
        words.extend_from_slice(body);
        words[1] = words.len() as u32;
        let data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let p = Program::parse(&data, 0).unwrap();
        let mut s = String::new();
        let report = write_listing(&p, &style, &mut s).unwrap();
        assert!(report.unknown_opcodes.is_empty());
        s
    }

    #[test]
    fn declarations_and_untyped_literals_as_fxc_prints_them() {
        let body = [
            op(0x59, 4),
            reg(8, 2) | swz([0, 1, 2, 3]),
            0,
            4,
            op(0x65, 3),
            reg(2, 1) | mask(0xf),
            0,
            op(0x68, 2),
            1,
            // mov r0.xyzw, l(0,0,0,1.000000)
            op(0x36, 8),
            reg(0, 1) | mask(0xf),
            0,
            reg(4, 0) | 2,
            0,
            0,
            0,
            0x3f80_0000,
            // mul o0.xyzw, r0.xyzw, cb0[3].xxxx
            op(0x38, 8),
            reg(2, 1) | mask(0xf),
            0,
            reg(0, 1) | swz([0, 1, 2, 3]),
            0,
            reg(8, 2) | swz([0, 0, 0, 0]),
            0,
            3,
            op(0x3e, 1),
        ];
        let text = listing(0x0001_0040, &body, ListingStyle::FXC_9_30);
        assert_eq!(
            text,
            "vs_4_0\ndcl_constantbuffer cb0[4], immediateIndexed\ndcl_output o0.xyzw\ndcl_temps 1\n\
             mov r0.xyzw, l(0,0,0,1.000000)\nmul o0.xyzw, r0.xyzw, cb0[3].xxxx\nret \n"
        );
        // fxc 10 prints the declared slot upper case, and nothing else changes.
        let text = listing(0x0001_0040, &body, ListingStyle::FXC_10);
        assert!(text.contains("dcl_constantbuffer CB0[4], immediateIndexed\n"));
        assert!(text.contains("cb0[3].xxxx"));
    }

    #[test]
    fn function_tables_in_short_and_long_form() {
        // dcl_function_table ft0 = {fb0, fb2}: length in the opcode token, or (bit 31) in the
        // DWORD after it.
        let short = [op(145, 5), 0, 2, 0, 2];
        let long = [145 | 0x8000_0000, 6, 0, 2, 0, 2];
        for body in [&short[..], &long[..]] {
            let text = listing(0x0000_0050, body, ListingStyle::FXC_10);
            assert_eq!(text, "ps_5_0\ndcl_function_table ft0 = {fb0, fb2}\n");
        }
    }

    #[test]
    fn system_generated_inputs_show_their_interpolation_from_fxc_10_on() {
        // dcl_input_ps_sgv v4.x, is_front_face with the interpolation bits set to constant.
        let body = [op(99, 4) | (1 << 11), reg(1, 1) | mask(1), 4, 9];
        let new = listing(0x0000_0050, &body, ListingStyle::FXC_10);
        assert_eq!(new, "ps_5_0\ndcl_input_ps_sgv constant v4.x, is_front_face\n");
        let old = listing(0x0000_0050, &body, ListingStyle::FXC_9_30);
        assert_eq!(old, "ps_5_0\ndcl_input_ps_sgv v4.x, is_front_face\n");
    }

    #[test]
    fn blocks_indent_two_spaces_and_operandless_lines_keep_a_space() {
        let body = [
            op(0x68, 2),
            1,
            // if_nz r0.x
            op(0x1f, 3) | (1 << 18),
            reg(0, 1) | sel(0),
            0,
            // loop / break / endloop
            op(0x30, 1),
            op(0x02, 1),
            op(0x16, 1),
            op(0x12, 1),
            // discard_z r0.x
            op(0x0d, 3),
            reg(0, 1) | sel(0),
            0,
            op(0x15, 1),
            op(0x3e, 1),
        ];
        let text = listing(0x0000_0041, &body, ListingStyle::FXC_9_30);
        assert_eq!(
            text,
            "ps_4_1\ndcl_temps 1\nif_nz r0.x\n  loop \n    break \n  endloop \nelse \n  discard_z r0.x\nendif \nret \n"
        );
        // fxc 9.29 prints discard without its test.
        let text = listing(0x0000_0041, &body, ListingStyle::FXC_9_29);
        assert!(text.contains("\n  discard r0.x\n"));
    }

    #[test]
    fn texel_offsets_resource_types_and_relative_addressing() {
        // sample_l_indexable with offsets (-1,0,0), texture2d, float x4:
        //   sample_l r0.xyzw, v1.xyxx, t0.xyzw, s3, l(0.000000)
        let ext_off = 0x8000_0000 | 1 | ((0xf) << 9); // u = -1, chained
        let ext_dim = 0x8000_0000 | 2 | (3 << 6);
        let ext_ret = 3 | (5 << 6) | (5 << 10) | (5 << 14) | (5 << 18);
        let body = [
            op(0x48, 14) | 0x8000_0000,
            ext_off,
            ext_dim,
            ext_ret,
            reg(0, 1) | mask(0xf),
            0,
            reg(1, 1) | swz([0, 1, 0, 0]),
            1,
            reg(7, 1) | swz([0, 1, 2, 3]),
            0,
            reg(6, 1),
            3,
            reg(4, 0) | 1,
            0,
            // mov r0.x, cb0[r1.y + 26].x
            op(0x36, 8),
            reg(0, 1) | mask(1),
            0,
            reg(8, 2) | sel(0) | (3 << 25),
            0,
            26,
            reg(0, 1) | sel(1),
            1,
        ];
        let text = listing(0x0000_0050, &body, ListingStyle::FXC_9_30);
        assert_eq!(
            text,
            "ps_5_0\nsample_l_aoffimmi_indexable(-1,0,0)(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, \
             t0.xyzw, s3, l(0.000000)\nmov r0.x, cb0[r1.y + 26].x\n"
        );
        let text = listing(0x0000_0050, &body, ListingStyle::FXC_9_29);
        assert!(
            text.starts_with(
                "ps_5_0\nsample_l_indexable(-1,0,0)(texture2d)(float,float,float,float) r0.xyzw"
            )
        );
    }

    #[test]
    fn sm51_ranges_spaces_and_immediate_constant_buffer_rows() {
        let body = [
            // dcl_constantbuffer CB0[0:0][26], immediateIndexed, space=0
            op(0x59, 7),
            reg(8, 3) | swz([0, 1, 2, 3]),
            0,
            0,
            0,
            26,
            0,
            // dcl_resource_texture2d (float,float,float,float) T1[1:1], space=0
            op(0x58, 7) | (3 << 11),
            reg(7, 3) | swz([0, 1, 2, 3]),
            1,
            1,
            1,
            0x5555,
            0,
            // immediate constant buffer, 2 rows
            53 | (3 << 11),
            10,
            1,
            8,
            0x3f80_0000,
            0xbf80_0000,
            0x4100_0000,
            0xffff_ffff,
            0,
            0x0000_cccc,
        ];
        let text = listing(0x0000_0051, &body, ListingStyle::FXC_10);
        assert_eq!(
            text,
            "ps_5_1\ndcl_constantbuffer CB0[0:0][26], immediateIndexed, space=0\n\
             dcl_resource_texture2d (float,float,float,float) T1[1:1], space=0\n\
             dcl_immediateConstantBuffer { { 1, 8, 1.000000, -1.000000},\n\
             \x20                             { 8.000000, -1, 0, 0x0000cccc} }\n"
        );
    }

    #[test]
    fn line_starts_map_text_to_instruction_offsets() {
        let body = [op(0x68, 2), 1, op(0x3e, 1)];
        let mut words = vec![0x0000_0040, 0];
        words.extend_from_slice(&body);
        words[1] = words.len() as u32;
        let data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let p = Program::parse(&data, 0x30).unwrap();
        let (mut s, mut lines) = (String::new(), Vec::new());
        write_listing_with_lines(&p, &ListingStyle::FXC_10, &mut s, &mut lines).unwrap();
        assert_eq!(s, "ps_4_0\ndcl_temps 1\nret \n");
        let starts: Vec<(usize, u64)> = lines.iter().map(|l| (l.text, l.offset)).collect();
        assert_eq!(starts, vec![(0, 0x30), (7, 0x38), (19, 0x40)]);
    }

    #[test]
    fn repeated_operands_keep_their_precision_context() {
        // mov r0.x, r1.x / mov r2.x {min16f}, r1.x: the second r1.x must show its conversion
        // even though the same tokens printed plainly before.
        let min16f = 1 | (1 << 14);
        let body = [
            op(0x36, 5),
            reg(0, 1) | mask(1),
            0,
            reg(0, 1) | sel(0),
            1,
            op(0x36, 6),
            reg(0, 1) | mask(1) | 0x8000_0000,
            min16f,
            2,
            reg(0, 1) | sel(0),
            1,
            op(0x36, 5),
            reg(0, 1) | mask(1),
            3,
            reg(0, 1) | sel(0),
            1,
        ];
        let text = listing(0x0000_0050, &body, ListingStyle::FXC_10);
        assert_eq!(
            text,
            "ps_5_0\nmov r0.x, r1.x\nmov r2.x {min16f}, r1.x {def32 as min16f}\nmov r3.x, r1.x\n"
        );
    }

    #[test]
    fn printer_sink_gets_each_line_with_its_offset() {
        #[derive(Default)]
        struct Lines(Vec<(Option<u64>, String)>);
        impl std::fmt::Write for Lines {
            fn write_str(&mut self, s: &str) -> std::fmt::Result {
                if let Some(l) = self.0.last_mut() {
                    l.1.push_str(s);
                }
                Ok(())
            }
        }
        impl crate::print::Printer for Lines {
            fn start_line(&mut self, offset: Option<u64>) {
                self.0.push((offset, String::new()));
            }
        }
        let mut words = vec![0x0000_0040, 0, op(0x68, 2), 1, 53 | (3 << 11), 10, 0, 0, 0, 0, 0, 0, 0, 0];
        words[1] = words.len() as u32;
        let data: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let p = Program::parse(&data, 0).unwrap();
        let mut sink = Lines::default();
        write_listing_printer(&p, &ListingStyle::FXC_10, &mut sink).unwrap();
        let got: Vec<(Option<u64>, &str)> = sink.0.iter().map(|(o, s)| (*o, s.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (Some(0), "ps_4_0\n"),
                (Some(8), "dcl_temps 1\n"),
                (Some(16), "dcl_immediateConstantBuffer { { 0, 0, 0, 0},\n"),
                (None, "                              { 0, 0, 0, 0} }\n"),
            ]
        );
    }

    #[test]
    fn offsets_prefix_like_fxc_no() {
        let body = [op(0x3e, 1)];
        let style = ListingStyle { offsets: true, ..ListingStyle::FXC_10 };
        assert_eq!(listing(0x0005_0050, &body, style), "0x00000000: cs_5_0\n0x00000008: ret \n");
    }

    #[test]
    fn creators_pick_the_disassembler_generation() {
        let c = |s: &str| ListingStyle::for_creator(Some(s));
        assert_eq!(c("Microsoft (R) HLSL Shader Compiler 9.29.952.3111"), ListingStyle::FXC_9_29);
        assert_eq!(c("Microsoft (R) HLSL Shader Compiler 9.30.9200.20714"), ListingStyle::FXC_9_30);
        assert_eq!(c("Microsoft (R) HLSL Shader Compiler 10.1"), ListingStyle::FXC_10);
        assert_eq!(ListingStyle::for_container(None, true), ListingStyle::FXC_9_30);
        assert_eq!(ListingStyle::for_container(None, false), ListingStyle::FXC_10);
    }
}
