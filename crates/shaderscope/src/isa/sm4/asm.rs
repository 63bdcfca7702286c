//! Text → instruction: one line of an fxc listing read back into an [`Inst`], which
//! [`Inst::encode`] turns into tokens. The grammar is the listing's own ([`super::print`] prints
//! it): the mnemonic with everything glued to it (`sample_l_aoffimmi_indexable(-1,0,0)
//! (texture2d)(float,float,float,float)`, `mov_sat`, `resinfo_uint`), an optional
//! `[precise(xz)]`, then the operands separated by commas.
//!
//! What the text does not say is chosen as fxc chooses it: a destination's components are a
//! mask, a source's a swizzle (four letters) or a selected component (one).
//!
//! ```
//! use shaderscope::asm::Syntax;
//! use shaderscope::isa::sm4::asm::parse_instruction;
//!
//! let mut words = Vec::new();
//! parse_instruction("mul_sat r0.xy, -r1.xyxx, cb0[r2.x + 3].zwzz", false)?.encode(&mut words).unwrap();
//! assert_eq!(words[0] & 0x7ff, 0x38); // mul
//! let e = parse_instruction("mul r0.xy, r1.xyxx, ", false).unwrap_err();
//! assert_eq!((e.column, e.expected.as_str()), (19, "an operand"));
//! # Ok::<(), Syntax>(())
//! ```

use super::decode::{Components, MAX_REL_DEPTH, Modifier, OperandType, operand_type as ot};
use super::encode::{ExtOpcode, Idx, Inst, Op, Part};
use super::names::{self, register_file_by_name};
use super::opcodes::{self, Format, OpInfo, Piece, Ty, flag};
use crate::asm::text::{Cursor, LineError, Syntax, double_bits, float_bits, special_float};

type Result<T> = std::result::Result<T, Syntax>;

/// The opcode row of every mnemonic (the table's; `sync` and phases included).
fn row_of(mnemonic: &str) -> Option<&'static OpInfo> {
    opcodes::all().iter().find(|r| r.mnemonic == mnemonic)
}

/// What a mnemonic's glued suffixes say.
#[derive(Default)]
struct Suffixes {
    test: Option<bool>,
    saturate: bool,
    ret_type: u32,
    sync: u32,
    aoffimmi: bool,
    indexable: bool,
}

/// Splits `word` (the mnemonic with its underscore suffixes, before any `(`) into the table
/// row and the suffixes: the longest mnemonic of the table that the rest of the word follows
/// as known suffixes.
fn split_mnemonic(word: &str) -> Option<(&'static OpInfo, Suffixes)> {
    let mut cut = word.len();
    loop {
        let (head, tail) = word.split_at(cut);
        if let Some(row) = row_of(head) {
            if let Some(s) = suffixes(row, tail) {
                return Some((row, s));
            }
        }
        cut = head.rfind('_')?;
    }
}

/// What one suffix sets.
type SetSuffix = fn(&mut Suffixes);

fn suffixes(row: &OpInfo, mut tail: &str) -> Option<Suffixes> {
    let mut s = Suffixes::default();
    while !tail.is_empty() {
        let known: &[(&str, SetSuffix)] = &[
            ("_nz", |s| s.test = Some(true)),
            ("_z", |s| s.test = Some(false)),
            ("_sat", |s| s.saturate = true),
            ("_aoffimmi", |s| s.aoffimmi = true),
            ("_indexable", |s| s.indexable = true),
            ("_uglobal", |s| s.sync |= 8),
            ("_ugroup", |s| s.sync |= 4),
            ("_g", |s| s.sync |= 2),
            ("_t", |s| s.sync |= 1),
        ];
        let whole = |k: &str| {
            tail.starts_with(k)
                && !tail.get(k.len()..).is_some_and(|r| r.starts_with(|c: char| c.is_ascii_lowercase()))
        };
        if let Some(&(value, suffix)) = row.return_type_suffixes().iter().find(|(_, k)| whole(k)) {
            s.ret_type = value;
            tail = tail.get(suffix.len()..).unwrap_or("");
            continue;
        }
        let (suffix, set) = known.iter().find(|(k, _)| whole(k))?;
        let allowed = match *suffix {
            "_nz" | "_z" => row.has(flag::TEST),
            "_uglobal" | "_ugroup" | "_g" | "_t" => row.format == Format::Sync,
            _ => row.format == Format::Inst,
        };
        if !allowed {
            return None;
        }
        set(&mut s);
        tail = tail.get(suffix.len()..).unwrap_or("");
    }
    Some(s)
}

/// A name that `names` gives for some value below `n`, read back.
fn value_named(name: &str, n: u32, f: fn(u32) -> Option<&'static str>) -> Option<u32> {
    (0..n).find(|&v| f(v) == Some(name))
}

/// One instruction line (not a declaration) of a listing, without its indentation or a
/// trailing comment. `sm51`: the program is shader model 5.1 (descriptors print upper case).
pub fn parse_instruction(line: &str, sm51: bool) -> Result<Inst> {
    let mut c = Cursor::new(line.trim_end());
    c.skip_space();
    let start = c.at;
    let word = c.word();
    let Some((row, s)) = split_mnemonic(word) else {
        c.at = start;
        return c.fail("an instruction mnemonic");
    };
    let mut inst =
        Inst { opcode: row.opcode, controls: 0, extended: Vec::new(), long_length: false, body: Vec::new() };
    // Bits 11–23 of the opcode token, as listing.rs reads them.
    let mut controls = 0u32;
    // `discard` without `_nz`/`_z` (fxc before 10 prints none) is `_nz`.
    if let Some(nz) = s.test.or((row.opcode == opcodes::op::D3D10_SB_OPCODE_DISCARD).then_some(true)) {
        controls |= u32::from(nz) << 7;
    }
    if s.saturate {
        controls |= 1 << 2;
    }
    controls |= s.ret_type | s.sync;
    // Glued groups: texel offsets, resource dimension, return types.
    if s.aoffimmi || (row.format == Format::Inst && offsets_follow(&c)) {
        c.expect("(")?;
        let mut o = [0i8; 3];
        for (k, v) in o.iter_mut().enumerate() {
            if k > 0 {
                c.expect(",")?;
            }
            let at = c.at;
            let n = c.signed()?;
            *v = i8::try_from(n)
                .ok()
                .filter(|v| (-8..8).contains(v))
                .ok_or(Syntax { column: at, expected: "a texel offset from -8 to 7".into() })?;
        }
        c.expect(")")?;
        inst.extended.push(ExtOpcode::SampleControls(o));
    }
    if s.indexable {
        c.expect("(")?;
        let at = c.at;
        let name = c.word();
        let Some(dim) = value_named(name, 32, names::resource_dimension) else {
            c.at = at;
            return c.fail("a resource dimension (`texture2d`, `buffer`, …)");
        };
        let mut stride = 0;
        if c.eat(", stride=") {
            let at = c.at;
            stride = u16::try_from(c.number()?)
                .map_err(|_| Syntax { column: at, expected: "a stride below 4096".into() })?;
        }
        c.expect(")")?;
        inst.extended.push(ExtOpcode::ResourceDim(dim as u8, stride));
        if c.rest().starts_with('(') {
            c.expect("(")?;
            let mut rt = [0u8; 4];
            for (k, v) in rt.iter_mut().enumerate() {
                if k > 0 {
                    c.expect(",")?;
                }
                let at = c.at;
                let name = c.word();
                *v = value_named(name, 16, names::return_type)
                    .ok_or(Syntax { column: at, expected: "a return type (`float`, `uint`, …)".into() })?
                    as u8;
            }
            c.expect(")")?;
            inst.extended.push(ExtOpcode::ReturnType(rt));
        }
    }
    if let Some(&(value, _)) = row.return_type_suffixes().iter().find(|(_, k)| c.eat(k)) {
        controls |= value;
    }
    c.skip_space();
    if c.eat("[precise(") {
        let at = c.at;
        let letters = c.word();
        let mask = mask_of(letters).ok_or(Syntax { column: at, expected: "components (`xyzw`)".into() })?;
        controls |= u32::from(mask) << 8;
        c.expect(")]")?;
    }
    inst.controls = controls;
    match row.format {
        Format::Inst => {
            let destinations = destination_count(row);
            for (k, &ty) in row.operands.iter().enumerate() {
                c.skip_space();
                if k > 0 {
                    if c.rest().is_empty() {
                        break;
                    }
                    c.expect(",")?;
                    c.skip_space();
                }
                if c.rest().is_empty() {
                    if k == 0 {
                        break;
                    }
                    return c.fail("an operand");
                }
                let o = operand(&mut c, ty, k < destinations && ty == Ty::R, sm51)?;
                inst.body.push(Part::Op(o));
            }
            if trailing_zero(row, &inst.body) {
                inst.body.push(Part::Word(0));
            }
        }
        Format::InterfaceCall => {
            c.skip_space();
            let mut o = operand(&mut c, Ty::R, false, sm51)?;
            // `fp0[1][2]`: the last bracket is the function index.
            let Some(Idx::Imm32(function)) = o.indices.pop() else {
                return c.fail("an interface with its function index (`fp0[1][2]`)");
            };
            inst.body.push(Part::Word(function));
            inst.body.push(Part::Op(o));
        }
        Format::Sync | Format::Phase => {}
        _ => {
            c.at = start;
            return c.fail("an instruction (declarations are read elsewhere)");
        }
    }
    c.skip_space();
    if !c.rest().is_empty() {
        return c.fail("the end of the line");
    }
    Ok(inst)
}

/// Whether `(` after a mnemonic opens texel offsets (`(-1,0,0)`) rather than a resource
/// dimension.
fn offsets_follow(c: &Cursor<'_>) -> bool {
    c.rest().strip_prefix('(').is_some_and(|r| r.starts_with(|ch: char| ch == '-' || ch.is_ascii_digit()))
}

/// The write mask of `xyzw` letters in order (`xz` → 0b0101); `None` when they are not.
fn mask_of(letters: &str) -> Option<u8> {
    let mut mask = 0u8;
    let mut last = -1i8;
    for ch in letters.chars() {
        let c = component(ch)? as i8;
        if c <= last {
            return None;
        }
        last = c;
        mask |= 1 << c;
    }
    (mask != 0).then_some(mask)
}

fn component(ch: char) -> Option<u8> {
    "xyzw".find(ch).map(|i| i as u8)
}

/// How many of an instruction's leading operands it writes: two for the instructions with
/// a second result (`imul`'s high half, `sincos`'s cosine, the `imm_atomic_*` UAV, the
/// feedback of the `*_s` samples), else one.
fn destination_count(row: &OpInfo) -> usize {
    if row.has(flag::TWO_DESTINATIONS) { 2 } else { 1 }
}

/// Whether fxc writes a zero DWORD after the operands ([`flag::TRAILING_ZERO`]; `samplepos`
/// only of a texture, not of the rasterizer).
fn trailing_zero(row: &OpInfo, body: &[Part]) -> bool {
    row.has(flag::TRAILING_ZERO)
        && (row.opcode != opcodes::op::D3D10_1_SB_OPCODE_SAMPLE_POS
            || matches!(body.get(1), Some(Part::Op(o)) if o.ty != ot::RASTERIZER))
}

/// Register files a destination can be: what instructions write.
fn is_written(t: OperandType) -> bool {
    matches!(
        t,
        ot::TEMP
            | ot::OUTPUT
            | ot::INDEXABLE_TEMP
            | ot::NULL
            | ot::OUTPUT_DEPTH
            | ot::OUTPUT_COVERAGE_MASK
            | ot::UNORDERED_ACCESS_VIEW
            | ot::THREAD_GROUP_SHARED_MEMORY
            | ot::FUNCTION_OUTPUT
            | ot::OUTPUT_DEPTH_GREATER_EQUAL
            | ot::OUTPUT_DEPTH_LESS_EQUAL
            | ot::OUTPUT_STENCIL_REF
    )
}

/// One operand: modifiers, register or literal, indices, components, precision.
fn operand(c: &mut Cursor<'_>, ty: Ty, destination: bool, sm51: bool) -> Result<Op> {
    operand_at(c, ty, destination, sm51, 0)
}

/// An operand `depth` relative indices deep (0: an instruction's own operand).
fn operand_at(c: &mut Cursor<'_>, ty: Ty, destination: bool, sm51: bool, depth: u8) -> Result<Op> {
    let neg = c.eat("-");
    let abs = c.eat("|");
    let modifier = match (neg, abs) {
        (false, false) => Modifier::None,
        (true, false) => Modifier::Neg,
        (false, true) => Modifier::Abs,
        (true, true) => Modifier::AbsNeg,
    };
    let mut o = if c.eat("l(") {
        literal32(c, ty)?
    } else if c.eat("d(") {
        literal64(c)?
    } else {
        register(c, destination, sm51, depth)?
    };
    if abs {
        c.expect("|")?;
    }
    o.modifier = modifier;
    if c.rest().starts_with(" {") && !c.rest().starts_with(" {nonuniform}") {
        c.eat(" {");
        let at = c.at;
        let name = c.word();
        let p = (0..8u8)
            .find(|&p| names::min_precision(p) == name)
            .ok_or(Syntax { column: at, expected: "a precision (`min16f`, …)".into() })?;
        o.min_precision = p;
        if c.eat(" as ") {
            c.word();
        }
        c.expect("}")?;
    }
    if c.eat(" {nonuniform}") {
        o.non_uniform = true;
    }
    o.extended = o.modifier != Modifier::None || o.min_precision != 0 || o.non_uniform;
    Ok(o)
}

/// The values of `l(…)` (after `l(`): one or four 32-bit values.
fn literal32(c: &mut Cursor<'_>, ty: Ty) -> Result<Op> {
    let mut values = Vec::new();
    loop {
        c.skip_space();
        values.push(value32(c, ty)?);
        c.skip_space();
        if c.eat(")") {
            break;
        }
        c.expect(",")?;
    }
    let components = match values.len() {
        1 => Components::One,
        4 => Components::Mask(0),
        _ => return c.fail("one or four values"),
    };
    Ok(Op { imm: values, ..Op::register(ot::IMMEDIATE32, &[], components) })
}

/// One 32-bit literal value: hexadecimal bits, an integer, or a float (`1.000000`, `-1.#INF`).
fn value32(c: &mut Cursor<'_>, ty: Ty) -> Result<u32> {
    let at = c.at;
    let text = c.number_text();
    let fail = || Syntax { column: at, expected: "a number".into() };
    if let Some(hex) = text.strip_prefix("0x") {
        return u32::from_str_radix(hex, 16).map_err(|_| fail());
    }
    if let Some(bits) = special_float(text) {
        return Ok(bits);
    }
    let float = text.contains('.') || matches!(ty, Ty::F | Ty::D);
    if float {
        return float_bits(text).ok_or_else(fail);
    }
    match text.strip_prefix('-') {
        Some(n) => n.parse::<u32>().map(|v| v.wrapping_neg()).map_err(|_| fail()),
        None => text.parse::<u32>().map_err(|_| fail()),
    }
}

/// The values of `d(…)` (after `d(`): one or two doubles, each two DWORDs, low word first.
fn literal64(c: &mut Cursor<'_>) -> Result<Op> {
    let mut values = Vec::new();
    loop {
        c.skip_space();
        let at = c.at;
        let text = c.number_text();
        let text = text.strip_suffix('l').unwrap_or(text);
        let bits = match text.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => double_bits(text),
        }
        .ok_or(Syntax { column: at, expected: "a double".into() })?;
        values.extend([bits as u32, (bits >> 32) as u32]);
        c.skip_space();
        if c.eat(")") {
            break;
        }
        c.expect(",")?;
    }
    let components = match values.len() {
        2 => Components::One,
        4 => Components::Mask(0),
        _ => return c.fail("one or two doubles"),
    };
    Ok(Op { imm: values, ..Op::register(ot::IMMEDIATE64, &[], components) })
}

/// A register `depth` relative indices deep: its file's name, indices, components.
fn register(c: &mut Cursor<'_>, destination: bool, sm51: bool, depth: u8) -> Result<Op> {
    let at = c.at;
    let name = c.take_while(|ch| ch.is_ascii_alphabetic());
    let Some((file, bracketed)) = register_file_by_name(name, sm51) else {
        c.at = at;
        return c.fail("a register or a literal");
    };
    // A resource or a buffer among the leading operands is read, not written.
    let destination = destination && is_written(file);
    let indices = indices(c, bracketed, false, sm51, depth)?;
    let components = if c.eat(".") {
        let at = c.at;
        let letters = c.take_while(|ch| "xyzw".contains(ch));
        components_of(letters, destination)
            .ok_or(Syntax { column: at, expected: "components (`xyzw`)".into() })?
    } else {
        no_components(file)
    };
    Ok(Op { indices, ..Op::register(file, &[], components) })
}

/// A register's indices after its name: the first one attached (`r0`, `cb0[3]`) unless the
/// file brackets them all, then `[n]` or `[r1.x + n]`; with `ranges`, a declared SM5.1 range
/// `[lower:upper]` (`*` for unbounded) as two indices. A relative index is an operand one level
/// deeper than the register's `depth`; past [`MAX_REL_DEPTH`] levels (what the decoder
/// reads) it is an error, so no text makes the reading recurse further.
fn indices(c: &mut Cursor<'_>, bracketed: bool, ranges: bool, sm51: bool, depth: u8) -> Result<Vec<Idx>> {
    let mut indices = Vec::new();
    if !bracketed && c.rest().starts_with(|ch: char| ch.is_ascii_digit()) {
        indices.push(Idx::Imm32(c.u32()?));
    }
    while c.rest().starts_with('[') {
        // What an instruction's operand holds (a declaration's ranges are counted when
        // they are turned into its indices).
        if !ranges && indices.len() >= 3 {
            return c.fail("no further index: an SM4 operand has at most 3");
        }
        c.eat("[");
        c.skip_space();
        if c.rest().starts_with(|ch: char| ch.is_ascii_digit()) {
            indices.push(Idx::Imm32(c.u32()?));
            if ranges && c.eat(":") {
                indices.push(Idx::Imm32(if c.eat("*") { u32::MAX } else { c.u32()? }));
            }
        } else {
            let deeper = c.deeper(depth, MAX_REL_DEPTH, || {
                format!(
                    "an immediate index: relative indices nest at most {MAX_REL_DEPTH} levels deep \
                     (fxc writes one)"
                )
            })?;
            let rel = operand_at(c, Ty::I, false, sm51, deeper)?;
            c.expect(" + ")?;
            let imm = c.u32()?;
            // fxc writes a relative index whose immediate part is 0 as purely relative.
            indices.push(if imm == 0 {
                Idx::Relative(Box::new(rel))
            } else {
                Idx::Imm32Relative(imm, Box::new(rel))
            });
        }
        c.expect("]")?;
    }
    Ok(indices)
}

/// The components `letters` say: a destination's mask; a source's swizzle (four letters) or
/// selected component (one).
fn components_of(letters: &str, destination: bool) -> Option<Components> {
    let cs: Vec<u8> = letters.chars().map(component).collect::<Option<_>>()?;
    let mask = mask_of(letters);
    match (destination, cs.as_slice()) {
        (false, [x]) => Some(Components::Select(*x)),
        (false, [x, y, z, w]) => Some(Components::Swizzle([*x, *y, *z, *w])),
        // Letters no mask can say are a swizzle even where a destination was expected.
        (true, [x, y, z, w]) if mask.is_none() => Some(Components::Swizzle([*x, *y, *z, *w])),
        _ => mask.map(Components::Mask),
    }
}

/// The components of a register printed without any: four for most files (mask 0 when it
/// has components at all), one or none for the scalar system values.
fn no_components(file: OperandType) -> Components {
    match file {
        ot::NULL
        | ot::RASTERIZER
        | ot::LABEL
        | ot::FUNCTION_BODY
        | ot::FUNCTION_TABLE
        | ot::INTERFACE
        | ot::STREAM
        | ot::THIS_POINTER
        | ot::UNORDERED_ACCESS_VIEW
        | ot::THREAD_GROUP_SHARED_MEMORY
        | ot::SAMPLER => Components::Zero,
        ot::INPUT_PRIMITIVEID
        | ot::OUTPUT_DEPTH
        | ot::OUTPUT_COVERAGE_MASK
        | ot::OUTPUT_CONTROL_POINT_ID
        | ot::INPUT_FORK_INSTANCE_ID
        | ot::INPUT_JOIN_INSTANCE_ID
        | ot::INPUT_COVERAGE_MASK
        | ot::INPUT_GS_INSTANCE_ID
        | ot::OUTPUT_DEPTH_GREATER_EQUAL
        | ot::OUTPUT_DEPTH_LESS_EQUAL
        | ot::OUTPUT_STENCIL_REF
        | ot::INNER_COVERAGE => Components::One,
        _ => Components::Mask(0),
    }
}

/// The row of a declaration mnemonic and what is glued after it (`dcl_resource_texture2d`:
/// `dcl_resource` and `_texture2d`; `dcl_uav_raw_glc`: `dcl_uav_raw` and `_glc`).
fn split_declaration(word: &str) -> Option<(&'static OpInfo, &str)> {
    let mut cut = word.len();
    loop {
        let (head, tail) = word.split_at(cut);
        if let Some(row) = row_of(head).filter(|r| matches!(r.format, Format::Decl(_))) {
            return Some((row, tail));
        }
        cut = head.rfind('_')?;
    }
}

/// The longest name `f` gives for a value below `n` that the text starts with.
fn named_prefix(c: &mut Cursor<'_>, n: u32, f: fn(u32) -> Option<&'static str>) -> Option<u32> {
    let best = (0..n)
        .filter_map(|v| f(v).filter(|s| !s.is_empty() && c.rest().starts_with(s)).map(|s| (v, s.len())))
        .max_by_key(|&(_, len)| len)?;
    c.at += best.1;
    Some(best.0)
}

fn named(c: &mut Cursor<'_>, n: u32, f: fn(u32) -> Option<&'static str>, what: &str) -> Result<u32> {
    match named_prefix(c, n, f) {
        Some(v) => Ok(v),
        None if c.rest().starts_with(|ch: char| ch.is_ascii_digit()) => c.u32(),
        None => c.fail(what.to_string()),
    }
}

/// The components fxc gives a declared register the listing prints without any: SM5.1
/// descriptors and constant buffers a swizzle `xyzw`, other descriptors none; system values
/// one or none.
fn declared_components(file: OperandType, sm51: bool) -> Components {
    match file {
        ot::CONSTANT_BUFFER => Components::Swizzle([0, 1, 2, 3]),
        ot::RESOURCE | ot::SAMPLER | ot::UNORDERED_ACCESS_VIEW if sm51 => Components::Swizzle([0, 1, 2, 3]),
        ot::INPUT_COVERAGE_MASK
        | ot::INNER_COVERAGE
        | ot::OUTPUT_DEPTH
        | ot::OUTPUT_DEPTH_GREATER_EQUAL
        | ot::OUTPUT_DEPTH_LESS_EQUAL
        | ot::OUTPUT_STENCIL_REF => Components::One,
        _ => Components::Zero,
    }
}

/// A declared register: `t0`, `cb0[4]`, SM5.1 ranges `T0[0:3]` (`*` for unbounded), with the
/// components the listing prints (`v0.xy`) or fxc's for none, and a precision.
fn declared(c: &mut Cursor<'_>, sm51: bool) -> Result<Op> {
    let at = c.at;
    let name = c.take_while(|ch| ch.is_ascii_alphabetic());
    let Some((file, bracketed)) =
        register_file_by_name(name, sm51).or_else(|| (name == "CB").then_some((ot::CONSTANT_BUFFER, false)))
    else {
        c.at = at;
        return c.fail("a register");
    };
    let indices = indices(c, bracketed, true, sm51, 0)?;
    let components = if c.eat(".") {
        let at = c.at;
        let letters = c.take_while(|ch| "xyzw".contains(ch));
        mask_of(letters)
            .map(Components::Mask)
            .ok_or(Syntax { column: at, expected: "a write mask (`xyzw`)".into() })?
    } else {
        declared_components(file, sm51)
    };
    let mut o = Op { indices, ..Op::register(file, &[], components) };
    if c.eat(" {") {
        let at = c.at;
        let name = c.word();
        o.min_precision = (0..8u8)
            .find(|&p| names::min_precision(p) == name)
            .ok_or(Syntax { column: at, expected: "a precision (`min16f`, …)".into() })?;
        c.expect("}")?;
        o.extended = true;
    }
    Ok(o)
}

/// `(float,float,float,float)` as the packed return-type DWORD of a typed declaration.
fn return_type_word(c: &mut Cursor<'_>) -> Result<u32> {
    c.expect("(")?;
    let mut word = 0;
    for k in 0..4 {
        if k > 0 {
            c.expect(",")?;
        }
        word |= named(c, 16, names::return_type, "a return type (`float`, `uint`, …)")? << (4 * k);
    }
    c.expect(")")?;
    Ok(word)
}

/// `fb3`, `ft0`: a numbered label.
fn label(c: &mut Cursor<'_>, prefix: &str) -> Result<u32> {
    c.expect(prefix)?;
    c.u32()
}

/// One declaration line of a listing (custom data blocks aside), read as the layout in its
/// row of the opcode table says: the mnemonic and the pieces glued to it, then the others.
pub(crate) fn parse_declaration(line: &str, sm51: bool) -> Result<Inst> {
    let mut c = Cursor::new(line.trim_end());
    c.skip_space();
    let start = c.at;
    let word = c.word();
    let word_end = c.at;
    let Some((row, _)) = split_declaration(word) else {
        c.at = start;
        return c.fail("a declaration mnemonic");
    };
    let mut controls = 0u32;
    let mut register = None;
    // The DWORDs after the register, by their number in the layout.
    let mut words: Vec<Option<u32>> = Vec::new();
    let mut put = |k: usize, v: u32| {
        if words.len() <= k {
            words.resize(k + 1, None);
        }
        if let Some(w) = words.get_mut(k) {
            *w = Some(v);
        }
    };
    let (glued, rest) = row.glued_and_rest();
    c.at = start + row.mnemonic.len();
    for &piece in glued {
        match piece {
            Piece::Dimension => {
                c.expect("_")?;
                controls |= named(&mut c, 32, names::resource_dimension, "a resource dimension")?;
            }
            // `dcl_resource_texture2dms(4)`.
            Piece::SampleCount if c.eat("(") => {
                controls |= c.u32()? << 5;
                c.expect(")")?;
            }
            Piece::Flag(bit, suffix) if c.eat(suffix) => controls |= bit,
            _ => {}
        }
    }
    if c.at < word_end {
        return c.fail("the end of the mnemonic");
    }
    c.skip_space();
    for &piece in rest {
        match piece {
            Piece::Text(text) => c.expect(text)?,
            // Read as the line's end is.
            Piece::Blank => {}
            Piece::Operand | Piece::Register => register = Some(declared(&mut c, sm51)?),
            Piece::ConstantBuffer => {
                let mut o = declared(&mut c, sm51)?;
                // `CB0[0:0][4]`: the size is the last bracket, a DWORD of its own.
                if sm51 {
                    if let Some(Idx::Imm32(size)) = o.indices.pop() {
                        put(0, size);
                    }
                }
                register = Some(o);
            }
            Piece::Named(mask, names) => {
                controls |= named(&mut c, mask + 1, names.of(), names.what())?;
            }
            Piece::Count(_) => controls |= c.u32()?,
            Piece::Interpolation(sgv) => {
                controls |= match named_prefix(&mut c, 8, names::interpolation) {
                    Some(mode) => {
                        c.expect(" ")?;
                        mode
                    }
                    // fxc before 10 prints none on system-generated values: they are constant.
                    None if sgv => 1,
                    None => 0,
                };
            }
            Piece::Value(k, _) => put(usize::from(k), c.u32()?),
            Piece::SystemValue(k) => {
                // Only the values below `SYSTEM_VALUES` have names: no need to try the others.
                let name = named(&mut c, names::SYSTEM_VALUES, names::system_value, "a system value")?;
                put(usize::from(k), name);
            }
            Piece::ReturnType(k) => put(usize::from(k), return_type_word(&mut c)?),
            Piece::Label(prefix, k, _) => put(usize::from(k), label(&mut c, prefix)?),
            Piece::Float(k, _) => {
                c.expect("l(")?;
                put(usize::from(k), value32(&mut c, Ty::F)?);
                c.expect(")")?;
            }
            Piece::Space(k) | Piece::SpaceOrBlank(k) => {
                if sm51 {
                    c.expect(", space=")?;
                    put(usize::from(k), c.u32()?);
                }
            }
            Piece::IndexableTemp => {
                c.expect("x")?;
                put(0, c.u32()?);
                c.expect("[")?;
                put(1, c.u32()?);
                c.expect("]")?;
            }
            Piece::GlobalFlags => loop {
                let at = c.at;
                if c.rest().starts_with("0x") {
                    controls |= c.u32()? >> 11;
                } else {
                    let name = c.word();
                    let Some((bit, _)) = names::GLOBAL_FLAGS.iter().find(|(_, n)| *n == name) else {
                        c.at = at;
                        return c.fail("a global flag (`refactoringAllowed`, …)");
                    };
                    controls |= bit >> 11;
                }
                if !c.eat(" | ") {
                    break;
                }
            },
            Piece::FunctionTable => {
                put(0, label(&mut c, "ft")?);
                c.expect(" = {")?;
                let mut bodies = Vec::new();
                while !c.eat("}") {
                    if !bodies.is_empty() {
                        c.expect(", ")?;
                    }
                    bodies.push(label(&mut c, "fb")?);
                }
                put(1, bodies.len() as u32);
                for (k, b) in bodies.into_iter().enumerate() {
                    put(2 + k, b);
                }
            }
            Piece::Interface => {
                put(0, label(&mut c, "fp")?);
                c.expect("[")?;
                let array_len = c.u32()?;
                c.expect("][")?;
                put(1, c.u32()?);
                c.expect("] = {")?;
                let mut tables = Vec::new();
                while !c.eat("}") {
                    if !tables.is_empty() {
                        c.expect(", ")?;
                    }
                    tables.push(label(&mut c, "ft")?);
                }
                put(2, (array_len << 16) | tables.len() as u32);
                for (k, t) in tables.into_iter().enumerate() {
                    put(3 + k, t);
                }
            }
            Piece::Dimension | Piece::SampleCount | Piece::Flag(..) => {}
        }
    }
    c.skip_space();
    if !c.rest().is_empty() {
        return c.fail("the end of the line");
    }
    let body =
        register.map(Part::Op).into_iter().chain(words.into_iter().flatten().map(Part::Word)).collect();
    Ok(Inst { opcode: row.opcode, controls, extended: Vec::new(), long_length: false, body })
}

/// One line of a listing's program: a declaration, an instruction or a shader message
/// (the immediate constant buffer, over several lines, is read by [`parse_program`]).
pub fn parse_line(line: &str, sm51: bool) -> Result<Inst> {
    let word =
        line.trim_start().split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).next().unwrap_or("");
    if word == "printf" || word == "errorf" {
        shader_message(line, sm51)
    } else if word.starts_with("dcl_") && split_declaration(word).is_some() {
        parse_declaration(line, sm51)
    } else {
        parse_instruction(line, sm51)
    }
}

/// The program type (`D3D10_SB_TOKENIZED_PROGRAM_TYPE`) of a version line's prefix.
fn program_type(prefix: &str) -> Option<u32> {
    Some(match prefix {
        "ps" => 0,
        "vs" => 1,
        "gs" => 2,
        "hs" => 3,
        "ds" => 4,
        "cs" => 5,
        _ => return None,
    })
}

/// What an end-of-line comment carries back into `inst` when it is the listing's note of
/// what the text does not show ([`crate::isa::sm4`] describes the form): `opcode bits
/// 0x00004000` (opcode-token control bits, set beside those the text gives) and `trailing
/// 0x00000005 …` or `trailing none` (the DWORDs after an instruction's operands, instead of
/// fxc's). Any other comment (`--raw`'s words after a second `//` among them) is left alone;
/// `comment` is the text after the `//`.
fn unshown(comment: &str, inst: &mut Inst) -> Result<()> {
    use super::decode::field::OPCODE_SPECIFIC_CONTROL;
    let note = comment.split("//").next().unwrap_or("");
    let lead = note.len() - note.trim_start().len();
    let mut c = Cursor { text: note.trim_end(), at: lead };
    if !["opcode bits 0x", "trailing 0x", "trailing none"].iter().any(|k| c.rest().starts_with(k)) {
        return Ok(());
    }
    if c.eat("opcode bits ") {
        let at = c.at;
        let bits = c.u32()?;
        if bits & !OPCODE_SPECIFIC_CONTROL.mask::<u32>() != 0 || inst.opcode == opcodes::CUSTOMDATA {
            c.at = at;
            return c.fail("opcode-token control bits (bits 11 to 23 of an instruction's opcode token)");
        }
        inst.controls |= OPCODE_SPECIFIC_CONTROL.get(bits);
        if !c.eat(", ") {
            c.skip_space();
            return if c.rest().is_empty() {
                Ok(())
            } else {
                c.fail("`, trailing` or the end of the comment")
            };
        }
    }
    let at = c.at;
    c.expect("trailing ")?;
    if opcodes::info(inst.opcode).is_none_or(|r| r.format != Format::Inst) {
        c.at = at;
        return c.fail("no `trailing` (only an instruction has DWORDs after its operands)");
    }
    // The words after the operands replace fxc's zero.
    while matches!(inst.body.last(), Some(Part::Word(_))) {
        inst.body.pop();
    }
    if !c.eat("none") {
        inst.body.push(Part::Word(c.u32()?));
        while c.rest().starts_with(" 0x") {
            c.skip_space();
            inst.body.push(Part::Word(c.u32()?));
        }
    }
    c.skip_space();
    if !c.rest().is_empty() {
        return c.fail("the end of the comment");
    }
    Ok(())
}

/// A listing line without what fxc's `/Ni` and `/No` switches put before it (`  12: `,
/// `0x00000040: `).
fn strip_columns(line: &str) -> &str {
    let t = line.trim_start();
    let mut rest = t;
    for _ in 0..2 {
        let digits = rest.strip_prefix("0x").unwrap_or(rest);
        let n = digits.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(digits.len());
        if n > 0 && digits.get(n..).is_some_and(|r| r.starts_with(": ")) {
            rest = digits.get(n + 2..).unwrap_or("").trim_start();
        } else {
            break;
        }
    }
    if rest.len() == t.len() { line } else { rest }
}

/// A whole program's text (an fxc listing, its comment header and all) as the tokens of an
/// SHDR/SHEX chunk: the version token, the length, every instruction.
pub fn parse_program(text: &str) -> std::result::Result<Vec<u32>, LineError> {
    let mut words = Vec::new();
    let mut sm51 = false;
    let mut lines = text.lines().enumerate();
    let mut version = false;
    let mut d3d9 = false;
    while let Some((n, raw)) = lines.next() {
        let at = |syntax: Syntax| LineError { file: None, line: n + 1, syntax };
        let line = strip_columns(raw);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        if !version {
            let mut c = Cursor::new(trimmed);
            let word = c.word();
            // `vs_4_0_level_9_1`: an SM4 program with a Direct3D 9 one beside it.
            let word = word.split_once("_level_9_").map_or(word, |(w, _)| w);
            let mut parts = word.split('_');
            let (Some(ty), Some(major), Some(minor), None) =
                (parts.next().and_then(program_type), parts.next(), parts.next(), parts.next())
            else {
                if d3d9 {
                    continue;
                }
                return Err(at(Syntax { column: 0, expected: "a version line (`ps_5_0`, …)".into() }));
            };
            if major.parse::<u32>().is_ok_and(|m| m < 4) {
                // fxc lists a Level9 (Direct3D 9) program before the SM4 one, its version
                // `vs_2_0`, `ps_2_x`, `vs_2_sw`…: skipped (the Direct3D 9 assembler reads it).
                d3d9 = true;
                continue;
            }
            let (Ok(major), Ok(minor)) = (major.parse::<u32>(), minor.parse::<u32>()) else {
                if d3d9 {
                    continue;
                }
                return Err(at(Syntax { column: 0, expected: "a version line (`ps_5_0`, …)".into() }));
            };
            sm51 = (major, minor) >= (5, 1);
            words.push(ty << 16 | (major & 0xf) << 4 | (minor & 0xf));
            words.push(0);
            version = true;
            continue;
        }
        if trimmed.starts_with("dcl_immediateConstantBuffer") {
            // The rows run over several lines, until the braces close.
            let mut block = trimmed.to_string();
            let mut depth = brace_depth(trimmed);
            while depth > 0 {
                let Some((_, more)) = lines.next() else {
                    return Err(at(Syntax {
                        column: trimmed.len(),
                        expected: "the rest of the immediate constant buffer".into(),
                    }));
                };
                let more = strip_columns(more).trim();
                depth += brace_depth(more);
                block.push(' ');
                block.push_str(more);
            }
            immediate_constant_buffer(&block)
                .map_err(at)?
                .encode(&mut words)
                .map_err(|e| at(unencodable("an instruction", 0, &e)))?;
            continue;
        }
        // A trailing comment is not part of the instruction, but may say what its text
        // cannot (`// trailing 0x00000005`).
        let (code, comment) = trimmed.split_once("//").unwrap_or((trimmed, ""));
        let mut inst = parse_line(code, sm51).map_err(at)?;
        unshown(comment, &mut inst)
            .map_err(|e| at(Syntax { column: code.len() + 2 + e.column, expected: e.expected }))?;
        inst.encode(&mut words).map_err(|e| at(unencodable("an instruction", 0, &e)))?;
    }
    if !version {
        return Err(LineError {
            file: None,
            line: text.lines().count() + 1,
            syntax: Syntax { column: 0, expected: "a version line (`ps_5_0`, …)".into() },
        });
    }
    let len = words.len() as u32;
    if let Some(w) = words.get_mut(1) {
        *w = len;
    }
    Ok(words)
}

/// What the encoder refused in text that reads (an instruction too long for its length
/// field), at `column`: worded as what it is, not as an error at an offset of a binary.
fn unencodable(what: &str, column: usize, e: &crate::Error) -> Syntax {
    Syntax { column, expected: format!("{what} SM4 can encode: {}", e.kind()) }
}

fn brace_depth(s: &str) -> i32 {
    s.chars()
        .map(|c| match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        })
        .sum()
}

/// `dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0}, … }` (joined into one line) as its
/// custom-data block.
fn immediate_constant_buffer(text: &str) -> Result<Inst> {
    let mut c = Cursor::new(text);
    c.expect("dcl_immediateConstantBuffer")?;
    c.skip_space();
    c.expect("{")?;
    let mut body = Vec::new();
    loop {
        c.skip_space();
        if c.eat("}") {
            break;
        }
        if !body.is_empty() {
            c.expect(",")?;
            c.skip_space();
        }
        c.expect("{")?;
        for k in 0..4 {
            c.skip_space();
            if k > 0 {
                c.expect(",")?;
                c.skip_space();
            }
            body.push(Part::Word(value32(&mut c, Ty::X)?));
        }
        c.skip_space();
        c.expect("}")?;
    }
    // D3D10_SB_CUSTOMDATA_DCL_IMMEDIATE_CONSTANT_BUFFER
    Ok(Inst { opcode: opcodes::CUSTOMDATA, controls: 3, extended: Vec::new(), long_length: false, body })
}

/// `printf "fmt", r0.x` / `errorf …`: a shader-message custom-data block
/// (`D3D11_SB_CUSTOMDATA_SHADER_MESSAGE`): the message id, format 1 (ANSI text), the text's
/// length, the operand count and length, the operands, then the text, NUL-padded to a DWORD.
fn shader_message(line: &str, sm51: bool) -> Result<Inst> {
    let mut c = Cursor::new(line.trim_end());
    c.skip_space();
    let id = if c.eat("errorf") {
        0x0020_0103
    } else {
        c.expect("printf")?;
        0x0020_0102
    };
    c.expect(" \"")?;
    let start = c.at;
    let Some(len) = c.rest().find('"') else { return c.fail("the closing `\"`") };
    let text = c.rest().get(..len).unwrap_or("").as_bytes().to_vec();
    c.at = start + len + 1;
    let mut ops = Vec::new();
    let mut count = 0u32;
    while c.eat(", ") {
        let at = c.at;
        operand(&mut c, Ty::X, false, sm51)?
            .encode(&mut ops)
            .map_err(|e| unencodable("an operand", at, &e))?;
        count += 1;
    }
    c.skip_space();
    if !c.rest().is_empty() {
        return c.fail("`, ` and an operand, or the end of the line");
    }
    let mut body: Vec<Part> = [id, 1, text.len() as u32, count, ops.len() as u32].map(Part::Word).into();
    body.extend(ops.into_iter().map(Part::Word));
    let mut padded = text;
    padded.push(0);
    padded.resize(padded.len().div_ceil(4) * 4, 0);
    body.extend(
        padded.chunks_exact(4).map(|w| Part::Word(<[u8; 4]>::try_from(w).map_or(0, u32::from_le_bytes))),
    );
    Ok(Inst { opcode: opcodes::CUSTOMDATA, controls: 4, extended: Vec::new(), long_length: false, body })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A negated first operand is not texel offsets: `(` must open them (the SM4 generator of
    /// the `sm4_print_assemble` fuzz target found `continuec_z -|r14|` read as offsets).
    #[test]
    fn a_negated_first_operand_is_an_operand() {
        let mut words = Vec::new();
        parse_instruction("continuec_z -|r14.x|", false).unwrap().encode(&mut words).unwrap();
        assert_eq!(words, [0x0400_0008, 0x8010_000a, 0x0000_0003 << 6 | 1, 14]);
        let mut offsets = Vec::new();
        parse_instruction("sample_l(0,-1,0) r0.xyzw, v0.xyxx, t0.xyzw, s0, l(0)", false)
            .unwrap()
            .encode(&mut offsets)
            .unwrap();
        assert_eq!(offsets[1] & 0x3f, 1, "an extended sample-controls token");
    }
}
