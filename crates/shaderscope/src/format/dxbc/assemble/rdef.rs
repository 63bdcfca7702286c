//! RDEF from the listing's "Buffer Definitions" and "Resource Bindings" tables and its
//! creator line: the inverse of [`crate::format::dxbc::listing`]'s tables, laid out as fxc
//! lays them out, so that the listing of an fxc binary gives back its RDEF byte for byte.
//!
//! fxc's layout (read from the corpus's 289 RDEF chunks): the header (with the RD11 block
//! from SM5 on), the binding table, the binding names, then the constant-buffer table; then
//! for each buffer its variable table followed, variable by variable, by the variable's name,
//! its type (SM5: the type's name first; a struct's member names and member types, then its
//! member table, then the struct record) and its default value; the creator string last.
//! Strings are written once (a name met again points back), records are 4-byte aligned and
//! the gaps are filled with `0xAB`, as fxc fills them. A type is written once and shared by
//! later variables with the same description, except arrays (fxc writes each array's type
//! anew) and the `$Element` types of structured buffers, which are shared among themselves
//! but not with constant-buffer types.
//!
//! What the text does not carry, and what is written instead (fxc's most common value):
//! * the compile flags word of the header: 0x500 for fxc 10.1 (90 of 91 RDEFs), else 0x100;
//! * `D3D_SIF_USERPACKED` (bit 0 of a binding's flags, an explicit `register()`): set for
//!   named constant buffers (164 of 193) and structured buffers (64 of 73), clear for
//!   `$Globals`, textures, samplers and the rest;
//! * the SM5 type-name strings: `dword` for a `uint` scalar and the listing's spelling
//!   otherwise, without `row_major` (a source that said `half4` gave `half4`; 40 types);
//! * which equal types fxc shares (above; 7 of 300 shared non-array types break the rule);
//! * a constant buffer's size: the end of its last variable rounded up to 16 bytes (a
//!   structured buffer's bind info: the `$Element` size);
//! * interface pointers' type data (the four words after the member offset).

use super::{Listing, Section, error_at};
use crate::format::dxbc::listing::{
    base_type_name, binding_dimension, binding_format, binding_type, register_prefix,
};
use crate::format::dxbc::rdef::{Binding, RD11, RD11_51};
use crate::isa::sm4::asm::LineError;
use crate::toolkit::Cstr;
use std::collections::HashMap;

/// The creator line of a listing of a binary without RDEF.
const DISASSEMBLER: &str = "Microsoft (R) D3D Shader Disassembler";

/// What fxc fills alignment gaps with.
const PAD: u8 = 0xAB;

/// The RDEF payload the listing describes, or `None` when it has neither table nor creator
/// (a stripped shader). `version` is the program's version token.
pub fn from_listing(listing: &Listing<'_>, version: u32) -> Result<Option<Vec<u8>>, LineError> {
    let buffers = listing.section("Buffer Definitions");
    let bindings = listing.section("Resource Bindings");
    let creator = match listing.creator {
        Some(c) if c != DISASSEMBLER => c,
        _ if buffers.is_none() && bindings.is_none() => return Ok(None),
        Some(c) => c,
        None => DISASSEMBLER,
    };
    let text = Text { text: listing.text };
    let mut cbs = match buffers {
        Some(s) => text.buffers(s)?,
        None => Vec::new(),
    };
    let mut binds = match bindings {
        Some(s) => text.bindings(s)?,
        None => Vec::new(),
    };
    // A structured buffer's stride is its bind info's `$Element` size.
    for b in &mut binds {
        if matches!(b.input_type, 5 | 6 | 9 | 10 | 11) {
            b.samples = cbs
                .iter()
                .find(|c| c.kind == 3 && c.name == b.name)
                .and_then(|c| c.vars.first())
                .map_or(0, |v| v.size);
        }
    }
    for c in &mut cbs {
        c.size = match c.kind {
            3 => c.vars.first().map_or(0, |v| v.size),
            _ => {
                let end = c.vars.iter().map(|v| v.start.saturating_add(v.size)).max().unwrap_or(0);
                end.saturating_add(15) & !15
            }
        };
    }
    Ok(Some(write(&cbs, &binds, creator, version)))
}

// ------------------------------------------------------------------ the model read back

/// A type as the listing declares it (`D3D11_SHADER_TYPE_DESC`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Ty {
    class: u16,
    ty: u16,
    rows: u16,
    columns: u16,
    elements: u16,
    members: Vec<Member>,
    /// SM5's type name.
    name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Member {
    name: String,
    ty: Ty,
    start: u32,
}

#[derive(Debug, Clone)]
struct Var {
    name: String,
    ty: Ty,
    start: u32,
    size: u32,
    used: bool,
    default: Option<Vec<u32>>,
}

#[derive(Debug, Clone)]
struct Buffer {
    name: String,
    kind: u32,
    size: u32,
    vars: Vec<Var>,
}

#[derive(Debug, Clone)]
struct Bind {
    name: String,
    input_type: u32,
    return_type: u32,
    dimension: u32,
    samples: u32,
    bind_point: u32,
    bind_count: u32,
    flags: u32,
    space_id: Option<[u32; 2]>,
}

/// A declaration line split: the type text, the name, the array count and the tail's
/// numbers.
struct Decl<'a> {
    ty: &'a str,
    name: &'a str,
    elements: u16,
    start: u32,
    size: Option<u32>,
    used: bool,
}

/// The whole text, for error columns.
struct Text<'a> {
    text: &'a str,
}

/// Section lines from `i` on.
struct Cursor<'s, 'a> {
    lines: &'s [(usize, &'a str)],
    i: usize,
}

impl<'a> Cursor<'_, 'a> {
    /// The next line that is not blank, consumed.
    fn next(&mut self) -> Option<(usize, &'a str)> {
        while let Some(&(n, l)) = self.lines.get(self.i) {
            self.i += 1;
            if !l.trim().is_empty() {
                return Some((n, l));
            }
        }
        None
    }

    /// The next line that is not blank, left in place.
    fn peek(&self) -> Option<(usize, &'a str)> {
        self.lines.get(self.i..)?.iter().copied().find(|(_, l)| !l.trim().is_empty())
    }
}

/// Struct nesting read at most (the listing itself stops indenting at 16).
const MAX_DEPTH: usize = 32;

impl<'a> Text<'a> {
    /// The 0-based column of `part` (a slice of line `line`) in that line.
    fn column(&self, line: usize, part: &str) -> usize {
        let Some(raw) = self.text.lines().nth(line.saturating_sub(1)) else { return 0 };
        let at = (part.as_ptr() as usize).wrapping_sub(raw.as_ptr() as usize);
        if at <= raw.len() { at } else { 0 }
    }

    fn error(&self, line: usize, part: &str, expected: &str) -> LineError {
        error_at(line, self.column(line, part), expected)
    }

    /// The end of line `line`'s text, for errors about something missing.
    fn end_of<'l>(&self, line: &'l str) -> &'l str {
        line.get(line.len()..).unwrap_or("")
    }

    fn buffers(&self, s: &Section<'a>) -> Result<Vec<Buffer>, LineError> {
        let mut c = Cursor { lines: &s.lines, i: 0 };
        let mut out = Vec::new();
        while let Some((n, l)) = c.next() {
            let t = l.trim();
            let (kind, name) = if let Some(r) = t.strip_prefix("cbuffer ") {
                (0, r)
            } else if let Some(r) = t.strip_prefix("tbuffer ") {
                (1, r)
            } else if let Some(r) = t.strip_prefix("interfaces ") {
                (2, r)
            } else if let Some(r) = t.strip_prefix("Resource bind info for ") {
                (3, r)
            } else {
                return Err(self.error(n, t, "`cbuffer`, `tbuffer` or `Resource bind info for` and a name"));
            };
            self.expect(&mut c, n, l, "{")?;
            let mut vars = Vec::new();
            loop {
                let Some((m, x)) = c.peek() else {
                    return Err(self.error(n, self.end_of(l), "the buffer's closing `}`"));
                };
                if x.trim() == "}" {
                    let _ = c.next();
                    break;
                }
                let _ = m;
                vars.push(self.variable(&mut c)?);
            }
            out.push(Buffer { name: name.to_string(), kind, size: 0, vars });
        }
        Ok(out)
    }

    /// The next line must be `want` (trimmed).
    fn expect(&self, c: &mut Cursor<'_, 'a>, n: usize, l: &str, want: &str) -> Result<(), LineError> {
        match c.next() {
            Some((_, x)) if x.trim() == want => Ok(()),
            Some((m, x)) => Err(self.error(m, x.trim_start(), &format!("`{want}`"))),
            None => Err(self.error(n, self.end_of(l), &format!("a line `{want}` after this one"))),
        }
    }

    /// A variable: its declaration (a struct spelled out), then its default value if any.
    fn variable(&self, c: &mut Cursor<'_, 'a>) -> Result<Var, LineError> {
        let (d, ty) = self.declaration(c, 0, 0)?;
        let mut default = None;
        if let Some((n, l)) = c.peek()
            && let Some(words) = l.trim().strip_prefix('=')
        {
            let _ = c.next();
            let mut v = Vec::new();
            for w in words.split_whitespace() {
                let value = w.strip_prefix("0x").and_then(|h| u32::from_str_radix(h, 16).ok());
                v.push(value.ok_or_else(|| self.error(n, w, "a default value word `0x…`"))?);
            }
            default = Some(v);
        }
        let Some(size) = d.size else {
            return Err(self.error(c.line_of_last(), "", "`Size:` after the variable's offset"));
        };
        Ok(Var { name: d.name.to_string(), ty, start: d.start, size, used: d.used, default })
    }

    /// One declaration and its type; `parent` is the offset of the enclosing struct (member
    /// offsets print absolute, records hold them relative).
    fn declaration(
        &self,
        c: &mut Cursor<'_, 'a>,
        depth: usize,
        parent: u32,
    ) -> Result<(Decl<'a>, Ty), LineError> {
        let Some((n, l)) = c.next() else {
            return Err(error_at(0, 0, "a declaration"));
        };
        let t = l.trim();
        if t == "struct" || t.starts_with("struct ") {
            if depth >= MAX_DEPTH {
                return Err(self.error(n, t, &format!("structs nested at most {MAX_DEPTH} deep")));
            }
            let name = t.get("struct".len()..).unwrap_or("").trim();
            self.expect(c, n, l, "{")?;
            let mut members = Vec::new();
            loop {
                let Some((m, x)) = c.peek() else {
                    return Err(self.error(n, self.end_of(l), "the struct's closing `}`"));
                };
                let _ = m;
                if x.trim().starts_with('}') {
                    break;
                }
                let (md, mty) = self.declaration(c, depth + 1, 0)?;
                members.push((md.name.to_string(), mty, md.start));
            }
            let (cn, cl) = c.next().unwrap_or((n, l));
            let d = self.split(cn, cl)?;
            if d.ty != "}" {
                return Err(self.error(cn, d.ty, "`}` and the struct's name"));
            }
            let mut columns = 0u16;
            let mut out = Vec::with_capacity(members.len());
            for (name, ty, start) in members {
                let each = ty.rows.saturating_mul(ty.columns);
                columns = columns.saturating_add(each.saturating_mul(ty.elements.max(1)));
                out.push(Member { name, ty, start: start.wrapping_sub(d.start) });
            }
            let ty = Ty {
                class: 5,
                ty: 0,
                rows: 1,
                columns,
                elements: d.elements,
                members: out,
                name: name.to_string(),
            };
            let _ = parent;
            return Ok((d, ty));
        }
        let d = self.split(n, l)?;
        let ty = self.scalar_type(n, d.ty, d.elements)?;
        Ok((d, ty))
    }

    /// `type name[N];   // Offset: X [Size: Y] [unused]`.
    fn split<'l>(&self, n: usize, l: &'l str) -> Result<Decl<'l>, LineError> {
        let Some(at) = l.find("// Offset:") else {
            return Err(self.error(n, self.end_of(l), "`// Offset:` after the declaration"));
        };
        let (decl, tail) = l.split_at(at);
        let decl = decl.trim();
        let Some(decl) = decl.strip_suffix(';') else {
            return Err(self.error(n, self.end_of(decl), "`;` ending the declaration"));
        };
        let (ty, name) = match decl.rfind(' ') {
            Some(i) => (decl.get(..i).unwrap_or("").trim_end(), decl.get(i + 1..).unwrap_or("")),
            None => return Err(self.error(n, decl, "a type and a name")),
        };
        let (name, elements) = match name.split_once('[') {
            Some((base, rest)) => {
                let count = rest.strip_suffix(']').and_then(|x| x.parse::<u16>().ok());
                (base, count.ok_or_else(|| self.error(n, rest, "an array count and `]`"))?)
            }
            None => (name, 0),
        };
        let mut words = tail.get("// Offset:".len()..).unwrap_or("").split_whitespace();
        let number = |w: Option<&'l str>, what: &str| -> Result<u32, LineError> {
            match w {
                Some(x) => x.parse().map_err(|_| self.error(n, x, what)),
                None => Err(self.error(n, self.end_of(l), what)),
            }
        };
        let start = number(words.next(), "the offset in bytes")?;
        let mut size = None;
        let mut used = true;
        while let Some(w) = words.next() {
            match w {
                "Size:" => size = Some(number(words.next(), "the size in bytes")?),
                "[unused]" => used = false,
                _ => return Err(self.error(n, w, "`Size:` or `[unused]`")),
            }
        }
        Ok(Decl { ty, name, elements, start, size, used })
    }

    /// A non-struct type from its spelling (`float4`, `row_major float4x4`, `uint`), read
    /// back through the listing's own type names.
    fn scalar_type(&self, n: usize, text: &str, elements: u16) -> Result<Ty, LineError> {
        let bad = || self.error(n, text, "a type such as `float`, `uint2` or `row_major float4x4`");
        if let Some(name) = text.strip_prefix("interface ") {
            return Ok(Ty {
                class: 7,
                ty: 37,
                rows: 1,
                columns: 4,
                elements,
                members: Vec::new(),
                name: name.to_string(),
            });
        }
        let (row_major, body) = match text.strip_prefix("row_major ") {
            Some(b) => (true, b),
            None => (false, text),
        };
        let mut best: Option<(usize, u16, &str)> = None;
        for ty in 0..=63u16 {
            let base = base_type_name(ty);
            if base.is_empty() || base == "unknown" || !body.starts_with(base) {
                continue;
            }
            if best.is_none_or(|(len, _, _)| base.len() > len) {
                best = Some((base.len(), ty, base));
            }
        }
        // A longer name that only leaves a count behind (`uint8` vs `uint` + 8) is checked
        // below; a shorter one is tried when the longer leaves nothing valid.
        let parse = |ty: u16, base: &str| -> Option<Ty> {
            let rest = body.get(base.len()..)?;
            let dim = |s: &str| s.parse::<u16>().ok().filter(|v| (1..=4).contains(v));
            let (class, rows, columns) = if rest.is_empty() {
                if row_major {
                    return None;
                }
                (0, 1, 1)
            } else if let Some((r, c)) = rest.split_once('x') {
                (if row_major { 2 } else { 3 }, dim(r)?, dim(c)?)
            } else {
                if row_major {
                    return None;
                }
                (1, 1, dim(rest)?)
            };
            let name = match (class, ty) {
                (0, 19) => "dword".to_string(),
                _ => body.to_string(),
            };
            Some(Ty { class, ty, rows, columns, elements, members: Vec::new(), name })
        };
        if let Some((_, ty, base)) = best
            && let Some(t) = parse(ty, base)
        {
            return Ok(t);
        }
        for ty in 0..=63u16 {
            let base = base_type_name(ty);
            if !base.is_empty()
                && base != "unknown"
                && body.starts_with(base)
                && let Some(t) = parse(ty, base)
            {
                return Ok(t);
            }
        }
        Err(bad())
    }

    fn bindings(&self, s: &Section<'a>) -> Result<Vec<Bind>, LineError> {
        let mut c = Cursor { lines: &s.lines, i: 0 };
        let Some((hn, header)) = c.next() else { return Ok(Vec::new()) };
        if !header.trim_start().starts_with("Name") {
            return Err(self.error(hn, header.trim_start(), "the table header `Name  Type  Format …`"));
        }
        let sm51 = header.contains(" ID ");
        let fxc10 = header.contains("HLSL Bind");
        match c.next() {
            Some((_, l)) if l.trim_start().starts_with("---") => {}
            Some((n, l)) => return Err(self.error(n, l.trim_start(), "the `----` line under the header")),
            None => return Err(self.error(hn, self.end_of(header), "the `----` line under the header")),
        }
        let columns = if sm51 { 6 } else { 5 };
        let mut out = Vec::new();
        while let Some((n, l)) = c.next() {
            let tokens: Vec<&str> = l.split_whitespace().collect();
            if tokens.len() <= columns {
                return Err(self.error(n, self.end_of(l), &format!("a name and {columns} columns")));
            }
            let fixed = tokens.get(tokens.len() - columns..).unwrap_or(&[]);
            let name_end = fixed.first().map_or(l.len(), |t| self.offset_in(l, t));
            let name = l.get(..name_end).unwrap_or("").trim();
            let [ty, format, dim, rest @ ..] = fixed else {
                return Err(self.error(n, l, "the binding's columns"));
            };
            let mut b = self.binding_kind(n, ty, format, dim)?;
            b.name = name.to_string();
            let (id, bind, count) = match rest {
                [id, bind, count] => (Some(*id), *bind, *count),
                [bind, count] => (None, *bind, *count),
                _ => return Err(self.error(n, l, "the binding's columns")),
            };
            let number = |x: &str, what: &str| -> Result<u32, LineError> {
                x.parse::<u32>().map_err(|_| self.error(n, x, what))
            };
            let (upper, lower) = register_prefix(&b.as_binding());
            let mut space = 0;
            if fxc10 {
                let (reg, sp) = match bind.split_once(",space") {
                    Some((r, s)) => (r, Some(s)),
                    None => (bind, None),
                };
                let digits = reg
                    .strip_prefix(lower)
                    .ok_or_else(|| self.error(n, reg, &format!("the register `{lower}N` of a {ty}")))?;
                b.bind_point = number(digits, "a register number")?;
                if let Some(sp) = sp {
                    space = number(sp, "a register space")?;
                }
            } else {
                b.bind_point = number(bind, "the slot number")?;
            }
            if let Some(id) = id {
                let digits = id
                    .strip_prefix(upper)
                    .ok_or_else(|| self.error(n, id, &format!("the range ID `{upper}N`")))?;
                b.space_id = Some([space, number(digits, "a range ID")?]);
            }
            b.bind_count = match count {
                "unbounded" => 0,
                x => number(x, "the register count or `unbounded`")?,
            };
            if (b.input_type == 0 && !b.name.starts_with('$')) || matches!(b.input_type, 5 | 6) {
                b.flags |= 1;
            }
            out.push(b);
        }
        Ok(out)
    }

    /// Byte offset of `part` (a slice of `line`) in it.
    fn offset_in(&self, line: &str, part: &str) -> usize {
        let at = (part.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
        if at <= line.len() { at } else { line.len() }
    }

    /// Input type, return type, dimension, sample count and flags from the Type, Format and
    /// Dim columns, through the listing's own names for them.
    fn binding_kind(&self, n: usize, ty: &str, format: &str, dim: &str) -> Result<Bind, LineError> {
        let mut b = Bind {
            name: String::new(),
            input_type: 0,
            return_type: 0,
            dimension: 0,
            samples: 0,
            bind_point: 0,
            bind_count: 1,
            flags: 0,
            space_id: None,
        };
        for input_type in 0..=13u32 {
            for flags in [0u32, 2] {
                b.input_type = input_type;
                b.flags = flags;
                if binding_type(&b.as_binding()) != ty {
                    continue;
                }
                // Fixed formats (NA, struct, byte) need no return type.
                let (fixed, _) = binding_format(&b.as_binding());
                let typed = !matches!(input_type, 0 | 1 | 3 | 5 | 6 | 7 | 8 | 9 | 10 | 11);
                if !typed {
                    if fixed != format {
                        continue;
                    }
                    if !matches!(input_type, 0 | 1 | 3) {
                        b.return_type = 6;
                        b.dimension = 1;
                    }
                    if binding_dimension(&b.as_binding()).0 != dim {
                        continue;
                    }
                    return Ok(b);
                }
                let Some((return_type, components)) =
                    (1..=8u32).flat_map(|r| (1..=4u32).map(move |k| (r, k))).find(|&(r, k)| {
                        b.return_type = r;
                        b.flags = (k - 1) << 2;
                        let (base, count) = binding_format(&b.as_binding());
                        let printed = if count > 1 { format!("{base}{count}") } else { base.to_string() };
                        printed == format
                    })
                else {
                    continue;
                };
                b.return_type = return_type;
                b.flags = (components - 1) << 2;
                for dimension in 0..=11u32 {
                    b.dimension = dimension;
                    b.samples = u32::MAX;
                    let (name, _) = binding_dimension(&b.as_binding());
                    let Some(rest) = dim.strip_prefix(name) else { continue };
                    if rest.is_empty() {
                        if matches!(dimension, 6 | 7) {
                            b.samples = 0;
                        }
                        if binding_dimension(&b.as_binding()).0 == dim {
                            return Ok(b);
                        }
                    } else if matches!(dimension, 6 | 7)
                        && let Ok(samples) = rest.parse::<u32>()
                    {
                        b.samples = samples;
                        return Ok(b);
                    }
                }
                return Err(self.error(n, dim, "a dimension such as `2d`, `buf` or `2dMS4`"));
            }
        }
        Err(self.error(n, ty, "a binding type (`cbuffer`, `texture`, `sampler`, `UAV`, …) and its format"))
    }
}

impl Cursor<'_, '_> {
    /// The line number of the line consumed last.
    fn line_of_last(&self) -> usize {
        self.i.checked_sub(1).and_then(|i| self.lines.get(i)).map_or(0, |l| l.0)
    }
}

impl Bind {
    /// The parser's record, for the listing's naming functions.
    fn as_binding(&self) -> Binding<'static> {
        Binding {
            offset: 0,
            name: Cstr::default(),
            input_type: self.input_type,
            return_type: self.return_type,
            dimension: self.dimension,
            samples: self.samples,
            bind_point: self.bind_point,
            bind_count: self.bind_count,
            flags: self.flags,
            space_id: self.space_id,
        }
    }
}

// ------------------------------------------------------------------ the bytes

/// The chunk being written: strings and types once each.
struct Out {
    bytes: Vec<u8>,
    sm5: bool,
    strings: HashMap<String, u32>,
    types: HashMap<(bool, Ty), u32>,
}

impl Out {
    fn here(&self) -> u32 {
        u32::try_from(self.bytes.len()).unwrap_or(u32::MAX)
    }

    fn align(&mut self) {
        while self.bytes.len() % 4 != 0 {
            self.bytes.push(PAD);
        }
    }

    fn u32(&mut self, v: u32) {
        self.bytes.extend(v.to_le_bytes());
    }

    fn u16(&mut self, v: u16) {
        self.bytes.extend(v.to_le_bytes());
    }

    fn patch(&mut self, at: u32, v: u32) {
        if let Some(s) = self.bytes.get_mut(at as usize..at as usize + 4) {
            s.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Reserve `n` zero bytes at the current (aligned) offset.
    fn reserve(&mut self, n: usize) -> u32 {
        let at = self.here();
        self.bytes.resize(self.bytes.len() + n, 0);
        at
    }

    /// The offset of `s`, written now if it is new.
    fn string(&mut self, s: &str) -> u32 {
        if let Some(&at) = self.strings.get(s) {
            return at;
        }
        let at = self.here();
        self.bytes.extend(s.as_bytes());
        self.bytes.push(0);
        self.strings.insert(s.to_string(), at);
        at
    }

    /// The offset of type `t` (of the `$Element` pool or not), written now if new.
    fn ty(&mut self, t: &Ty, element: bool) -> u32 {
        let key = (element, t.clone());
        if t.elements == 0
            && let Some(&at) = self.types.get(&key)
        {
            return at;
        }
        let name = if self.sm5 && !t.name.is_empty() { self.string(&t.name) } else { 0 };
        let mut members = Vec::with_capacity(t.members.len());
        for m in &t.members {
            let name = self.string(&m.name);
            let ty = self.ty(&m.ty, element);
            members.push((name, ty, m.start));
        }
        self.align();
        let member_offset = if members.is_empty() { 0 } else { self.here() };
        for (name, ty, start) in members {
            self.u32(name);
            self.u32(ty);
            self.u32(start);
        }
        self.align();
        let at = self.here();
        for v in [t.class, t.ty, t.rows, t.columns, t.elements] {
            self.u16(v);
        }
        self.u16(u16::try_from(t.members.len()).unwrap_or(u16::MAX));
        self.u32(member_offset);
        if self.sm5 {
            for _ in 0..4 {
                self.u32(0);
            }
            self.u32(name);
        }
        if t.elements == 0 {
            self.types.insert(key, at);
        }
        at
    }
}

/// The RDEF program-type word of a version token's program type.
fn program_type(version: u32) -> u16 {
    match version >> 16 {
        0 => 0xFFFF,
        1 => 0xFFFE,
        2 => 0x4753,
        3 => 0x4853,
        4 => 0x4453,
        5 => 0x4353,
        t => t as u16,
    }
}

fn write(cbs: &[Buffer], binds: &[Bind], creator: &str, version: u32) -> Vec<u8> {
    let major = (version >> 4) & 0xF;
    let minor = version & 0xF;
    let sm5 = major >= 5;
    let sm51 = sm5 && minor >= 1;
    let mut o = Out { bytes: Vec::new(), sm5, strings: HashMap::new(), types: HashMap::new() };
    let header = if sm5 { 60 } else { 28 };
    let bind_size: usize = if sm51 { 40 } else { 32 };
    let var_size: usize = if sm5 { 40 } else { 24 };
    o.reserve(header);
    let binding_table = o.reserve(bind_size * binds.len());
    let mut names = Vec::with_capacity(binds.len());
    for b in binds {
        names.push(o.string(&b.name));
    }
    // The strings run on into the creator when no table follows them.
    if !cbs.is_empty() {
        o.align();
    }
    let cb_table = if cbs.is_empty() { 0 } else { o.reserve(24 * cbs.len()) };
    for (i, c) in cbs.iter().enumerate() {
        let name = o.string(&c.name);
        o.align();
        let vars = o.reserve(var_size * c.vars.len());
        let at = cb_table + 24 * i as u32;
        for (k, v) in [name, c.vars.len() as u32, if c.vars.is_empty() { 0 } else { vars }, c.size, 0, c.kind]
            .into_iter()
            .enumerate()
        {
            o.patch(at + 4 * k as u32, v);
        }
        for (j, v) in c.vars.iter().enumerate() {
            let vat = vars + (var_size * j) as u32;
            let vname = o.string(&v.name);
            let ty = o.ty(&v.ty, c.kind == 3);
            let mut default = 0;
            if let Some(words) = &v.default {
                o.align();
                default = o.here();
                for w in words {
                    o.u32(*w);
                }
            }
            let mut flags = if v.used { 2 } else { 0 };
            if v.ty.class == 7 {
                flags |= 4;
            }
            for (k, w) in [vname, v.start, v.size, flags, ty, default].into_iter().enumerate() {
                o.patch(vat + 4 * k as u32, w);
            }
            if sm5 {
                for (k, w) in [u32::MAX, 0, u32::MAX, 0].into_iter().enumerate() {
                    o.patch(vat + 24 + 4 * k as u32, w);
                }
            }
        }
    }
    for (i, (b, name)) in binds.iter().zip(names).enumerate() {
        let at = binding_table + (bind_size * i) as u32;
        let words =
            [name, b.input_type, b.return_type, b.dimension, b.samples, b.bind_point, b.bind_count, b.flags];
        for (k, w) in words.into_iter().enumerate() {
            o.patch(at + 4 * k as u32, w);
        }
        if let (true, Some([space, id])) = (sm51, b.space_id) {
            o.patch(at + 32, space);
            o.patch(at + 36, id);
        }
    }
    let creator_at = o.here();
    o.bytes.extend(creator.as_bytes());
    o.bytes.push(0);
    o.align();
    let version_word = minor | major << 8 | u32::from(program_type(version)) << 16;
    let flags = if creator.contains(" 10.1") { 0x500 } else { 0x100 };
    let head =
        [cbs.len() as u32, cb_table, binds.len() as u32, binding_table, version_word, flags, creator_at];
    for (k, w) in head.into_iter().enumerate() {
        o.patch(4 * k as u32, w);
    }
    if sm5 {
        let rd11 = [if sm51 { RD11_51 } else { RD11 }, 60, 24, bind_size as u32, 40, 36, 12, 0];
        for (k, w) in rd11.into_iter().enumerate() {
            o.patch(28 + 4 * k as u32, w);
        }
    }
    o.bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "//\n// Generated by Microsoft (R) HLSL Shader Compiler 10.1\n//\n//\n";

    fn build(body: &str) -> Result<Option<Vec<u8>>, LineError> {
        let text = format!("{HEAD}{body}ps_4_0\nret \n");
        from_listing(&Listing::new(&text), 0x40)
    }

    /// The column of `needle` in line `line` (1-based) of the test listing.
    fn column(body: &str, line: usize, needle: &str) -> usize {
        let text = format!("{HEAD}{body}");
        text.lines().nth(line - 1).and_then(|l| l.find(needle)).unwrap()
    }

    #[test]
    fn a_bad_offset_names_its_line_column_and_what_was_expected() {
        let body = "// Buffer Definitions: \n//\n// cbuffer A\n// {\n//\n//   float x;                           // Offset:   zz Size:     4\n//\n// }\n//\n";
        let e = build(body).unwrap_err();
        assert_eq!((e.line, e.syntax.column), (10, column(body, 10, "zz")));
        assert_eq!(e.syntax.expected, "the offset in bytes");
    }

    #[test]
    fn an_unknown_type_and_a_missing_brace_are_errors() {
        let body = "// Buffer Definitions: \n//\n// cbuffer A\n// {\n//\n//   quux x;                            // Offset:    0 Size:     4\n//\n// }\n//\n";
        let e = build(body).unwrap_err();
        assert_eq!((e.line, e.syntax.column), (10, column(body, 10, "quux")));
        assert!(e.syntax.expected.starts_with("a type such as"), "{e}");
        let e = build("// Buffer Definitions: \n//\n// cbuffer A\n//   float x;\n").unwrap_err();
        assert_eq!((e.line, e.syntax.expected.as_str()), (8, "`{`"));
    }

    #[test]
    fn a_bad_binding_row_names_its_column() {
        let body = "// Resource Bindings:\n//\n// Name                                 Type  Format         Dim      HLSL Bind  Count\n// ------------------------------ ---------- ------- ----------- -------------- ------\n// tex                               texture  float4         2d             s0      1 \n//\n";
        let e = build(body).unwrap_err();
        assert_eq!((e.line, e.syntax.column), (9, column(body, 9, "s0")));
        assert_eq!(e.syntax.expected, "the register `tN` of a texture");
    }

    /// A listing the library prints from this RDEF gives the same bytes back.
    #[test]
    fn a_small_rdef_comes_back() {
        let body = "// Buffer Definitions: \n//\n// cbuffer $Globals\n// {\n//\n//   float4 c;                          // Offset:    0 Size:    16\n//   uint n;                            // Offset:   16 Size:     4 [unused]\n//\n// }\n//\n//\n// Resource Bindings:\n//\n// Name                                 Type  Format         Dim      HLSL Bind  Count\n// ------------------------------ ---------- ------- ----------- -------------- ------\n// s                                 sampler      NA          NA             s0      1 \n// t                                 texture  float4          2d             t3      1 \n// $Globals                          cbuffer      NA          NA            cb0      1 \n//\n//\n";
        let bytes = build(body).unwrap().unwrap();
        let r = crate::format::dxbc::rdef::Rdef::parse(&bytes, 0).unwrap();
        assert_eq!((r.major, r.minor, r.program_type, r.flags), (4, 0, 0xFFFF, 0x500));
        let t = &r.bindings[1];
        assert_eq!(
            (t.input_type, t.return_type, t.dimension, t.samples, t.bind_point, t.flags),
            (2, 5, 4, u32::MAX, 3, 12)
        );
        let v = &r.constant_buffers[0].variables;
        assert_eq!((v[1].start, v[1].size, v[1].used(), r.constant_buffers[0].size), (16, 4, false, 32));
        assert_eq!(r.types[r.constant_buffers[0].variables[0].ty].columns, 4);
    }

    #[test]
    fn a_stripped_listing_has_no_rdef() {
        let text = "//\n// Generated by Microsoft (R) D3D Shader Disassembler\n//\nps_4_0\nret \n";
        assert_eq!(from_listing(&Listing::new(text), 0x40), Ok(None));
    }
}
