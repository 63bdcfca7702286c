//! The resource pieces AGL's shader archives share (`agl::ResCommon` and friends in
//! aboood40091/agl-win): arrays of size-prefixed records, text fields of a stated length,
//! variation macros and shader symbols. Both the binary archive ([`super::Sharcfb`]) and the
//! source archive ([`crate::format::sharc::Sharc`]) are made of them.
//!
//! Every record starts with its own size (the stride to the next record). The bytes a record
//! holds past what its fields explain are kept as its `tail`, so that an unmodified record
//! writes back byte for byte; a record built in code has none.
//!
//! ```
//! use shaderscope::format::sharcfb::res::{ResArray, Symbol, Variation};
//!
//! let v = Variation::new("QUALITY", &["low", "high"], "quality");
//! assert_eq!(v.values().iter().map(|s| s.text).collect::<Vec<_>>(), ["low", "high"]);
//! let s = Symbol::new("cColor", "color", -1, &1.0f32.to_bits().to_le_bytes(), &[1, 0]);
//! assert_eq!((s.name.text(), s.id.text(), s.used_in(1)), ("cColor".into(), "color".into(), Some(false)));
//! let a = ResArray::new(vec![s]);
//! assert_eq!(a.items.len(), 1);
//! ```

use crate::error::{Error, Result};
use crate::toolkit::raw::{I32, U32};
use crate::toolkit::{Endian, Reader, Writer};
use std::borrow::Cow;
use std::mem::offset_of;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// `agl::ResArray`'s header (agl-win's `aglResCommon.h`): the array's size and its number of
/// records, in the archive's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct ResArrayData<O> {
    pub size: U32<O>,
    pub num: U32<O>,
}

/// `agl::ResShaderVariationData`: the header of a variation macro; its name, values and ID
/// follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct ResShaderVariationData<O> {
    pub size: U32<O>,
    pub name_len: U32<O>,
    pub value_num: U32<O>,
    pub id_len: U32<O>,
}

/// `agl::ResShaderSymbolData`: the header of a shader symbol; its name, ID, default value
/// and used flags follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct ResShaderSymbolData<O> {
    pub size: U32<O>,
    pub offset: I32<O>,
    pub name_len: U32<O>,
    pub id_len: U32<O>,
    pub default_value_size: U32<O>,
    pub variation_num: U32<O>,
}

/// Any order, for the sizes and offsets (which do not depend on it).
pub(crate) type U = crate::toolkit::raw::BigEndian;

/// A text field as the file stores it: `len` bytes (the text, its NUL, and whatever follows
/// the NUL within the stated length). The text is what comes before the first NUL.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResText {
    /// The field's bytes, all of them.
    pub bytes: Vec<u8>,
    /// Absolute offset of the first byte (where it was read; 0 for a field built in code).
    pub at: u64,
}

impl ResText {
    /// `text` and its NUL.
    pub fn new(text: &str) -> Self {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        ResText { bytes, at: 0 }
    }

    /// The text before the first NUL (invalid UTF-8 replaced).
    pub fn text(&self) -> Cow<'_, str> {
        let end = memchr::memchr(0, &self.bytes).unwrap_or(self.bytes.len());
        String::from_utf8_lossy(self.bytes.get(..end).unwrap_or(&[]))
    }

    /// The text cut to [`gx2::NAME_SHOWN`](crate::format::gx2::NAME_SHOWN) bytes (at a
    /// character boundary, marked `…`): what a line that refers to the record shows, so
    /// that a name repeated in every line about a binary cannot multiply a long one.
    pub fn shown(&self) -> Cow<'_, str> {
        shown(self.text())
    }

    /// The stated length (the `...Len` field of the record).
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True when the field has no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// `text` cut to [`gx2::NAME_SHOWN`](crate::format::gx2::NAME_SHOWN) bytes (at a character
/// boundary, marked `…`).
pub fn shown(text: Cow<'_, str>) -> Cow<'_, str> {
    let max = crate::format::gx2::NAME_SHOWN;
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", text.get(..end).unwrap_or("")))
}

/// An array of records (`agl::ResArray`): `{u32 size, u32 num}` then `num` records, each
/// starting with its own size. `tail` is what the array's size holds past its last record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResArray<T> {
    /// The records.
    pub items: Vec<T>,
    /// Bytes after the last record within the array's stated size.
    pub tail: Vec<u8>,
    /// Absolute offset of the array header.
    pub at: u64,
}

impl<T> Default for ResArray<T> {
    fn default() -> Self {
        ResArray { items: Vec::new(), tail: Vec::new(), at: 0 }
    }
}

impl<T> ResArray<T> {
    /// An array of `items` with nothing after them.
    pub fn new(items: Vec<T>) -> Self {
        ResArray { items, tail: Vec::new(), at: 0 }
    }

    /// Its size as written: header, records (each `item` bytes), tail.
    pub fn size(&self, item: impl Fn(&T) -> u64) -> u64 {
        ARRAY_HEADER as u64 + self.items.iter().map(item).sum::<u64>() + self.tail.len() as u64
    }
}

/// Size of an array header: `{u32 size, u32 num}`.
pub(crate) const ARRAY_HEADER: usize = size_of::<ResArrayData<U>>();

/// One record of an array, as [`read_array`] hands it to the element reader.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    /// Absolute offset of the record (its size field).
    pub at: usize,
    /// Absolute offset just past the record (`at + size`).
    pub end: usize,
    /// Its index in the array.
    pub index: usize,
}

/// Read the array at absolute `at`, which must end by `limit`; each record is at least
/// `min` bytes (its fixed header) and is read by `item`. `what` names a record (`shader
/// binary`), `whats` the array. Counts are checked against the bytes before anything is
/// allocated.
pub fn read_array<T>(
    r: &Reader<'_>,
    at: usize,
    limit: usize,
    what: &str,
    min: usize,
    mut item: impl FnMut(Slot) -> Result<T>,
) -> Result<ResArray<T>> {
    let Ok(h) = r.read_at::<ResArrayData<Endian>>(at, "array header") else {
        // The header runs out: the error names the field that does.
        r.u32_at(at, format!("{what} array size"))?;
        r.u32_at(at + offset_of!(ResArrayData<U>, num), format!("{what} count"))?;
        return Err(Error::truncated(at as u64, format!("{what} array"), ARRAY_HEADER as u64, 0));
    };
    let (size, num) = (h.size.get_in(r.endian()) as usize, h.num.get_in(r.endian()) as usize);
    let end = record_end(at, size, limit, ARRAY_HEADER, &format!("{what} array"))?;
    let room = end - at - ARRAY_HEADER;
    if num > room / min.max(1) {
        return Err(Error::invalid(
            (at + offset_of!(ResArrayData<U>, num)) as u64,
            format!("{what} count"),
            format!(
                "impossible count {num}: the array's 0x{room:x} bytes hold at most {} records of 0x{min:x} bytes",
                room / min.max(1)
            ),
        ));
    }
    let mut items = Vec::with_capacity(num);
    let mut e = at + ARRAY_HEADER;
    for index in 0..num {
        let name = format!("{what} {index}");
        let size = r.u32_at(e, format!("{name} size"))? as usize;
        let rec_end = record_end(e, size, end, min, &name)?;
        items.push(item(Slot { at: e, end: rec_end, index })?);
        e = rec_end;
    }
    let tail = r.bytes_at(e, end - e, format!("{what} array"))?.to_vec();
    Ok(ResArray { items, tail, at: at as u64 })
}

/// `at + size`, checked: the record must hold its `header` and end by `limit`.
pub(crate) fn record_end(at: usize, size: usize, limit: usize, header: usize, what: &str) -> Result<usize> {
    if size < header {
        return Err(Error::invalid(
            at as u64,
            what.to_string(),
            format!("size 0x{size:x} is smaller than its 0x{header:x}-byte header"),
        ));
    }
    match at.checked_add(size) {
        Some(end) if end <= limit => Ok(end),
        _ => Err(Error::out_of_bounds(at as u64, what.to_string(), at as u64, size as u64, limit as u64)),
    }
}

/// A text field of `len` bytes at absolute `at`, which must end by `end` (its record's end).
pub(crate) fn read_text(r: &Reader<'_>, at: usize, len: usize, end: usize, what: &str) -> Result<ResText> {
    Ok(ResText { bytes: read_within(r, at, len, end, what)?.to_vec(), at: at as u64 })
}

/// `len` bytes at absolute `at`, which must end by `end`.
pub(crate) fn read_within<'a>(
    r: &Reader<'a>,
    at: usize,
    len: usize,
    end: usize,
    what: &str,
) -> Result<&'a [u8]> {
    match at.checked_add(len) {
        Some(e) if e <= end => r.bytes_at(at, len, what.to_string()),
        _ => Err(Error::out_of_bounds(at as u64, what.to_string(), at as u64, len as u64, end as u64)),
    }
}

/// Write `items` as an array: header, records (each written whole by `item`, its size field
/// as 0: the size of what it wrote is patched in), tail; the array's size and count are
/// patched in last.
pub fn write_array<T>(
    w: &mut Writer,
    a: &ResArray<T>,
    mut item: impl FnMut(&mut Writer, &T) -> Result<()>,
) -> Result<()> {
    let start = w.len();
    let num = u32::try_from(a.items.len()).map_err(|_| too_big(start))?;
    let o = w.endian();
    w.bytes(ResArrayData { size: U32::new_in(o, 0), num: U32::new_in(o, num) }.as_bytes());
    for it in &a.items {
        let at = w.len();
        item(w, it)?;
        patch_size(w, at)?;
    }
    w.bytes(&a.tail);
    patch_size(w, start)
}

/// Patch the size field at `at` with the bytes written since.
pub(crate) fn patch_size(w: &mut Writer, at: usize) -> Result<()> {
    let size = u32::try_from(w.len() - at).map_err(|_| too_big(at))?;
    w.patch_u32(at, size);
    Ok(())
}

/// A length as a u32 field.
pub(crate) fn len32(n: usize, at: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| too_big(at))
}

fn too_big(at: usize) -> Error {
    Error::invalid(at as u64, "record", "larger than the 4 GiB a size field can state")
}

/// A variation macro (`agl::ResShaderVariation`): `{u32 size, u32 nameLen, u32 valueNum,
/// u32 idLen}`, the macro name, its values (NUL-terminated strings one after the other;
/// AGL skips a run of NULs before each), then its ID, the symbol name the shader sources use.
/// In a program's default array each macro has one value: its default.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Variation {
    /// The macro name.
    pub name: ResText,
    /// `valueNum`: how many values.
    pub value_count: u32,
    /// The values as stored: NUL-terminated strings (and any NULs between them).
    pub value_bytes: Vec<u8>,
    /// Absolute offset of `value_bytes`.
    pub values_at: u64,
    /// The ID (symbol name).
    pub id: ResText,
    /// Bytes past the ID within the record's size.
    pub tail: Vec<u8>,
    /// Absolute offset of the record.
    pub at: u64,
}

/// Size of a variation record's fixed header.
pub(crate) const VARIATION_HEADER: usize = size_of::<ResShaderVariationData<U>>();

/// One value of a variation macro.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Value<'a> {
    /// Its text.
    pub text: &'a str,
    /// Absolute offset of its first byte.
    pub at: u64,
}

impl Variation {
    /// A macro `name` with `values`, known to the sources as `id`.
    pub fn new(name: &str, values: &[&str], id: &str) -> Self {
        let mut value_bytes = Vec::new();
        for v in values {
            value_bytes.extend_from_slice(v.as_bytes());
            value_bytes.push(0);
        }
        Variation {
            name: ResText::new(name),
            value_count: values.len() as u32,
            value_bytes,
            id: ResText::new(id),
            ..Variation::default()
        }
    }

    /// The values, found as AGL finds them (a run of NULs before each is skipped); at most
    /// `value_count`, fewer when the stored bytes end first.
    pub fn values(&self) -> Vec<Value<'_>> {
        let mut out = Vec::new();
        let mut k = 0;
        let b = &self.value_bytes;
        while out.len() < self.value_count as usize {
            while b.get(k) == Some(&0) {
                k += 1;
            }
            if k >= b.len() {
                break;
            }
            let end = memchr::memchr(0, b.get(k..).unwrap_or(&[])).map_or(b.len(), |n| k + n);
            let text = std::str::from_utf8(b.get(k..end).unwrap_or(&[])).unwrap_or("\u{fffd}");
            out.push(Value { text, at: self.values_at + k as u64 });
            k = end + 1;
        }
        out
    }

    /// Read the record of `slot`.
    pub fn read(r: &Reader<'_>, slot: Slot, what: &str) -> Result<Variation> {
        let at = slot.at;
        // The record holds its header (`read_array` checked its size).
        let h: &ResShaderVariationData<Endian> = r.read_at(at, what.to_string())?;
        let o = r.endian();
        let (name_len, value_count, id_len) =
            (h.name_len.get_in(o) as usize, h.value_num.get_in(o), h.id_len.get_in(o) as usize);
        let name = read_text(r, at + VARIATION_HEADER, name_len, slot.end, &format!("{what} name"))?;
        let values_at = at + VARIATION_HEADER + name_len;
        // The values, then (after any NULs) the ID, which must still fit in the record.
        let id_room = slot.end.checked_sub(id_len).filter(|&s| s >= values_at).ok_or_else(|| {
            Error::out_of_bounds(
                (at + offset_of!(ResShaderVariationData<U>, id_len)) as u64,
                format!("{what} ID"),
                values_at as u64,
                id_len as u64,
                slot.end as u64,
            )
        })?;
        let room = r.bytes_at(values_at, id_room - values_at, format!("{what} values"))?;
        let mut k = 0usize;
        for n in 0..value_count {
            while room.get(k) == Some(&0) {
                k += 1;
            }
            let end = memchr::memchr(0, room.get(k..).unwrap_or(&[])).map(|e| k + e);
            match end {
                Some(e) if k < room.len() => k = e + 1,
                _ => {
                    return Err(Error::invalid(
                        (values_at + k) as u64,
                        format!("{what} values"),
                        format!("value {n} of {value_count} does not end before the ID"),
                    ));
                }
            }
        }
        while room.get(k) == Some(&0) && values_at + k < id_room {
            k += 1;
        }
        let id_at = values_at + k;
        let id = read_text(r, id_at, id_len, slot.end, &format!("{what} ID"))?;
        let tail = r.bytes_at(id_at + id_len, slot.end - id_at - id_len, what.to_string())?.to_vec();
        Ok(Variation {
            name,
            value_count,
            value_bytes: room.get(..k).unwrap_or(&[]).to_vec(),
            values_at: values_at as u64,
            id,
            tail,
            at: at as u64,
        })
    }

    /// The record's size as written.
    pub fn size(&self) -> u64 {
        (VARIATION_HEADER + self.name.len() + self.value_bytes.len() + self.id.len() + self.tail.len()) as u64
    }

    /// Write the record (its size 0, for [`write_array`] to patch).
    pub fn write(&self, w: &mut Writer) -> Result<()> {
        let (at, o) = (w.len(), w.endian());
        let h = ResShaderVariationData {
            size: U32::new_in(o, 0),
            name_len: U32::new_in(o, len32(self.name.len(), at)?),
            value_num: U32::new_in(o, self.value_count),
            id_len: U32::new_in(o, len32(self.id.len(), at)?),
        };
        w.bytes(h.as_bytes());
        w.bytes(&self.name.bytes);
        w.bytes(&self.value_bytes);
        w.bytes(&self.id.bytes);
        w.bytes(&self.tail);
        Ok(())
    }
}

/// The kinds of symbol arrays a program has, in file order (`agl::ShaderSymbolType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SymbolKind {
    /// Uniform variables (`cShaderSymbolType_Uniform`).
    UniformVar,
    /// Uniform blocks.
    UniformBlock,
    /// Sampler variables.
    SamplerVar,
    /// Vertex attributes.
    AttribVar,
}

impl SymbolKind {
    /// All four, in file order.
    pub const ALL: [SymbolKind; 4] =
        [SymbolKind::UniformVar, SymbolKind::UniformBlock, SymbolKind::SamplerVar, SymbolKind::AttribVar];

    /// `uniform vars`, `uniform blocks`, `sampler vars`, `attrib vars`.
    pub fn plural(self) -> &'static str {
        match self {
            SymbolKind::UniformVar => "uniform vars",
            SymbolKind::UniformBlock => "uniform blocks",
            SymbolKind::SamplerVar => "sampler vars",
            SymbolKind::AttribVar => "attrib vars",
        }
    }

    /// `uniform var`, `uniform block`, …
    pub fn singular(self) -> &'static str {
        match self {
            SymbolKind::UniformVar => "uniform var",
            SymbolKind::UniformBlock => "uniform block",
            SymbolKind::SamplerVar => "sampler var",
            SymbolKind::AttribVar => "attrib var",
        }
    }

    /// Whether its default values are 32-bit words that follow the file's byte order (AGL
    /// swaps them); a uniform block's default is the block's bytes as they are.
    pub fn words(self) -> bool {
        self != SymbolKind::UniformBlock
    }
}

/// A shader symbol (`agl::ResShaderSymbol`): `{u32 size, s32 offset, u32 nameLen, u32 idLen,
/// u32 defaultValueSize, u32 variationNum}`, the variable name, its ID, the default value,
/// and one byte per variation saying whether that variation uses it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Symbol {
    /// `mOffset`: the uniform's offset in its block or register file (-1 where it has none).
    pub offset: i32,
    /// The variable name in the shader.
    pub name: ResText,
    /// The ID the application looks it up by.
    pub id: ResText,
    /// The default value, in the file's byte order.
    pub default: Vec<u8>,
    /// Absolute offset of the default value.
    pub default_at: u64,
    /// One byte per variation: non-zero where that variation uses the symbol.
    pub used: Vec<u8>,
    /// Absolute offset of the used flags.
    pub used_at: u64,
    /// Bytes past the used flags within the record's size.
    pub tail: Vec<u8>,
    /// Absolute offset of the record.
    pub at: u64,
}

/// Size of a symbol record's fixed header.
pub(crate) const SYMBOL_HEADER: usize = size_of::<ResShaderSymbolData<U>>();

impl Symbol {
    /// A symbol `name` (ID `id`) at `offset`, with its default bytes and used flags.
    pub fn new(name: &str, id: &str, offset: i32, default: &[u8], used: &[u8]) -> Self {
        Symbol {
            offset,
            name: ResText::new(name),
            id: ResText::new(id),
            default: default.to_vec(),
            used: used.to_vec(),
            ..Symbol::default()
        }
    }

    /// Whether variation `index` uses the symbol; `None` past the stored flags.
    pub fn used_in(&self, index: usize) -> Option<bool> {
        self.used.get(index).map(|&b| b != 0)
    }

    /// Read the record of `slot`.
    pub fn read(r: &Reader<'_>, slot: Slot, what: &str) -> Result<Symbol> {
        let at = slot.at;
        // The record holds its header (`read_array` checked its size).
        let h: &ResShaderSymbolData<Endian> = r.read_at(at, what.to_string())?;
        let o = r.endian();
        let offset = h.offset.get_in(o);
        let (name_len, id_len) = (h.name_len.get_in(o) as usize, h.id_len.get_in(o) as usize);
        let default_len = h.default_value_size.get_in(o) as usize;
        let used_len = h.variation_num.get_in(o) as usize;
        let mut k = at + SYMBOL_HEADER;
        let name = read_text(r, k, name_len, slot.end, &format!("{what} name"))?;
        k += name_len;
        let id = read_text(r, k, id_len, slot.end, &format!("{what} ID"))?;
        k += id_len;
        let default = read_within(r, k, default_len, slot.end, &format!("{what} default value"))?.to_vec();
        let default_at = k as u64;
        k += default_len;
        let used = read_within(r, k, used_len, slot.end, &format!("{what} used flags"))?.to_vec();
        let used_at = k as u64;
        k += used_len;
        let tail = r.bytes_at(k, slot.end - k, what.to_string())?.to_vec();
        Ok(Symbol { offset, name, id, default, default_at, used, used_at, tail, at: at as u64 })
    }

    /// The record's size as written.
    pub fn size(&self) -> u64 {
        (SYMBOL_HEADER
            + self.name.len()
            + self.id.len()
            + self.default.len()
            + self.used.len()
            + self.tail.len()) as u64
    }

    /// Write the record (its size 0, for [`write_array`] to patch).
    pub fn write(&self, w: &mut Writer) -> Result<()> {
        let (at, o) = (w.len(), w.endian());
        let h = ResShaderSymbolData {
            size: U32::new_in(o, 0),
            offset: I32::new_in(o, self.offset),
            name_len: U32::new_in(o, len32(self.name.len(), at)?),
            id_len: U32::new_in(o, len32(self.id.len(), at)?),
            default_value_size: U32::new_in(o, len32(self.default.len(), at)?),
            variation_num: U32::new_in(o, len32(self.used.len(), at)?),
        };
        w.bytes(h.as_bytes());
        w.bytes(&self.name.bytes);
        w.bytes(&self.id.bytes);
        w.bytes(&self.default);
        w.bytes(&self.used);
        w.bytes(&self.tail);
        Ok(())
    }

    /// The default value as 32-bit words in the file's byte order `endian` (a trailing part
    /// of fewer than four bytes is left out).
    pub fn default_words(&self, endian: Endian) -> Vec<u32> {
        self.default
            .chunks_exact(4)
            .filter_map(|c| c.first_chunk::<4>())
            .map(|&b| match endian {
                Endian::Little => u32::from_le_bytes(b),
                Endian::Big => u32::from_be_bytes(b),
            })
            .collect()
    }
}

/// Reverse the bytes of every whole 32-bit word of `bytes` (what AGL's `ModifyEndianU32`
/// does to a default value); a trailing part of fewer than four bytes stays.
pub(crate) fn swap_words(bytes: &mut [u8]) {
    for c in bytes.chunks_exact_mut(4) {
        c.reverse();
    }
}

/// The symbol arrays of a program, read in file order from absolute `at` up to `limit`;
/// returns them and the offset after the last.
pub(crate) fn read_symbol_arrays(
    r: &Reader<'_>,
    mut at: usize,
    limit: usize,
    prefix: &str,
    mut extra: Option<&mut Option<Vec<u8>>>,
) -> Result<([ResArray<Symbol>; 4], usize)> {
    let mut arrays: [ResArray<Symbol>; 4] = Default::default();
    for (k, kind) in SymbolKind::ALL.into_iter().enumerate() {
        let what = format!("{prefix}{}", kind.singular());
        let a = read_array(r, at, limit, &what, SYMBOL_HEADER, |s| {
            Symbol::read(r, s, &format!("{what} {}", s.index))
        })?;
        let size = r.u32_at(at, "symbol array size")? as usize;
        at += size;
        if let Some(slot) = arrays.get_mut(k) {
            *slot = a;
        }
        // Version 9 archives have one more array after the uniform vars (read as opaque).
        if kind == SymbolKind::UniformVar
            && let Some(extra) = extra.as_deref_mut()
        {
            let what = format!("{prefix}version-9 section");
            let size = r.u32_at(at, format!("{what} size"))? as usize;
            let end = record_end(at, size, limit, 4, &what)?;
            *extra = Some(r.bytes_at(at + 4, end - at - 4, what)?.to_vec());
            at = end;
        }
    }
    Ok((arrays, at))
}

/// Write the symbol arrays of a program (and the version-9 section after the uniform vars).
pub(crate) fn write_symbol_arrays(
    w: &mut Writer,
    arrays: &[ResArray<Symbol>; 4],
    extra: Option<&[u8]>,
) -> Result<()> {
    for (k, a) in arrays.iter().enumerate() {
        write_array(w, a, |w, s| s.write(w))?;
        if k == 0
            && let Some(extra) = extra
        {
            let at = w.len();
            w.u32(0);
            w.bytes(extra);
            patch_size(w, at)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variation_bytes(body: &[u8], name_len: u32, count: u32, id_len: u32) -> Vec<u8> {
        let mut w = Writer::new(Endian::Little);
        w.u32(16 + body.len() as u32);
        w.u32(name_len);
        w.u32(count);
        w.u32(id_len);
        w.bytes(body);
        w.finish()
    }

    #[test]
    fn values_skip_runs_of_nuls_and_the_id_follows() {
        let b = variation_bytes(b"M\0a\0\0bc\0\0ID\0", 2, 2, 3);
        let r = Reader::new(&b, Endian::Little);
        let v = Variation::read(&r, Slot { at: 0, end: b.len(), index: 0 }, "variation").unwrap();
        let vals: Vec<_> = v.values().iter().map(|x| (x.text, x.at)).collect();
        assert_eq!(vals, [("a", 18), ("bc", 21)]);
        assert_eq!((v.name.text(), v.id.text(), v.id.at), ("M".into(), "ID".into(), 25));
        let mut w = Writer::new(Endian::Little);
        v.write(&mut w).unwrap();
        patch_size(&mut w, 0).unwrap();
        assert_eq!(w.finish(), b);
    }

    #[test]
    fn a_value_that_runs_into_the_id_is_refused() {
        let b = variation_bytes(b"M\0abcdID\0", 2, 1, 3);
        let r = Reader::new(&b, Endian::Little);
        let e = Variation::read(&r, Slot { at: 0, end: b.len(), index: 0 }, "variation 0").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid variation 0 values at offset 0x12: value 0 of 1 does not end before the ID"
        );
    }

    #[test]
    fn impossible_counts_are_refused_before_allocating() {
        let mut w = Writer::new(Endian::Big);
        w.u32(16);
        w.u32(0x4000_0000);
        w.fill(8, 0);
        let b = w.finish();
        let r = Reader::new(&b, Endian::Big);
        let e = read_array(&r, 0, b.len(), "symbol", SYMBOL_HEADER, |_| Ok(())).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid symbol count at offset 0x4: impossible count 1073741824: the array's 0x8 bytes hold at most 0 records of 0x18 bytes"
        );
    }

    #[test]
    fn records_must_hold_their_header_and_fit() {
        assert_eq!(
            record_end(0x10, 4, 0x100, 16, "shader binary 0").unwrap_err().to_string(),
            "invalid shader binary 0 at offset 0x10: size 0x4 is smaller than its 0x10-byte header"
        );
        assert_eq!(
            record_end(0x10, 0x200, 0x100, 16, "shader binary 0").unwrap_err().to_string(),
            "shader binary 0 at offset 0x10 points outside its range (0x10 + 0x200 is outside 0x100)"
        );
    }
}
