//! `dump` of a SHARCFB archive: every byte claimed once, from the parsed model's offsets.

use super::res::{
    ResArray, ResArrayData, ResShaderSymbolData, ResShaderVariationData, ResText, Symbol, SymbolKind, U,
    Variation,
};
use super::{BINARY_HEADER, BinaryHeader, HEADER_SIZE, Header, ProgramHeader, Sharcfb};
use crate::dump::Annotations;
use std::mem::offset_of;

/// A text field: `what "text"`.
pub(crate) fn text(a: &mut Annotations, t: &ResText, what: &str) {
    a.field(t.at, t.len() as u64, format_args!("{what} \"{}\"", t.text()));
}

/// Bytes a record holds past its fields.
pub(crate) fn tail(a: &mut Annotations, at: u64, bytes: &[u8], what: &str) {
    if !bytes.is_empty() {
        a.field(at, bytes.len() as u64, format_args!("{what}: {} bytes past its fields", bytes.len()));
    }
}

/// An array header: size and count.
pub(crate) fn array_header<T>(a: &mut Annotations, arr: &ResArray<T>, size: u64, what: &str) {
    type H = ResArrayData<U>;
    a.field(arr.at + offset_of!(H, size) as u64, 4, format_args!("{what} array size: 0x{size:x}"));
    a.field(arr.at + offset_of!(H, num) as u64, 4, format_args!("{what} count: {}", arr.items.len()));
}

/// A variation macro record.
pub(crate) fn variation(a: &mut Annotations, v: &Variation, size: u64, what: &str) {
    type H = ResShaderVariationData<U>;
    let f = |o: usize| v.at + o as u64;
    a.section(v.at, size, format_args!("{what} \"{}\"", v.name.text()));
    a.field(f(offset_of!(H, size)), 4, format_args!("size: 0x{size:x}"));
    a.field(f(offset_of!(H, name_len)), 4, format_args!("name length: {}", v.name.len()));
    a.field(f(offset_of!(H, value_num)), 4, format_args!("value count: {}", v.value_count));
    a.field(f(offset_of!(H, id_len)), 4, format_args!("ID length: {}", v.id.len()));
    text(a, &v.name, "name");
    let values: Vec<String> = v.values().iter().map(|x| x.text.to_string()).collect();
    if !v.value_bytes.is_empty() {
        a.field(v.values_at, v.value_bytes.len() as u64, format_args!("values: {}", values.join(" | ")));
    }
    text(a, &v.id, "ID");
    tail(a, v.id.at + v.id.len() as u64, &v.tail, "variation macro");
}

/// A variation array (values or defaults).
pub(crate) fn variations(a: &mut Annotations, arr: &ResArray<Variation>, what: &str) {
    let size = arr.size(Variation::size);
    a.section(arr.at, size, format_args!("{what} ({})", arr.items.len()));
    array_header(a, arr, size, what);
    for (i, v) in arr.items.iter().enumerate() {
        variation(a, v, v.size(), &format!("{what} {i}"));
    }
    tail(a, arr.at + size - arr.tail.len() as u64, &arr.tail, what);
}

/// A symbol array of `kind`.
pub(crate) fn symbols(
    a: &mut Annotations,
    arr: &ResArray<Symbol>,
    kind: SymbolKind,
    endian: crate::toolkit::Endian,
) {
    let size = arr.size(Symbol::size);
    let what = kind.plural();
    a.section(arr.at, size, format_args!("{what} ({})", arr.items.len()));
    array_header(a, arr, size, what);
    for (i, s) in arr.items.iter().enumerate() {
        let ssize = s.size();
        type H = ResShaderSymbolData<U>;
        let f = |o: usize| s.at + o as u64;
        a.section(s.at, ssize, format_args!("{} {i} \"{}\"", kind.singular(), s.name.text()));
        a.field(f(offset_of!(H, size)), 4, format_args!("size: 0x{ssize:x}"));
        a.field(f(offset_of!(H, offset)), 4, format_args!("offset: {}", s.offset));
        a.field(f(offset_of!(H, name_len)), 4, format_args!("name length: {}", s.name.len()));
        a.field(f(offset_of!(H, id_len)), 4, format_args!("ID length: {}", s.id.len()));
        a.field(
            f(offset_of!(H, default_value_size)),
            4,
            format_args!("default value size: {}", s.default.len()),
        );
        a.field(f(offset_of!(H, variation_num)), 4, format_args!("variation count: {}", s.used.len()));
        text(a, &s.name, "name");
        text(a, &s.id, "ID");
        if !s.default.is_empty() {
            if kind.words() {
                let words: Vec<String> =
                    s.default_words(endian).iter().map(|w| format!("0x{w:08x}")).collect();
                a.field(
                    s.default_at,
                    s.default.len() as u64,
                    format_args!("default value: {}", words.join(" ")),
                );
            } else {
                a.field(
                    s.default_at,
                    s.default.len() as u64,
                    format_args!("default value: {} bytes of the block", s.default.len()),
                );
            }
        }
        if !s.used.is_empty() {
            let used = s.used.iter().filter(|&&u| u != 0).count();
            a.field(
                s.used_at,
                s.used.len() as u64,
                format_args!("used by {used} of {}", crate::print::count(s.used.len(), "variation")),
            );
        }
        tail(a, s.used_at + s.used.len() as u64, &s.tail, "symbol");
    }
    tail(a, arr.at + size - arr.tail.len() as u64, &arr.tail, what);
}

/// Annotate every byte of `f`.
pub(super) fn annotate(f: &Sharcfb, a: &mut Annotations) {
    let header_len = HEADER_SIZE as u64 + f.name.len() as u64;
    let magic = if f.endian == crate::toolkit::Endian::Big { "SHAB" } else { "BAHS" };
    a.section(0, header_len, "SHARCFB header");
    let h = |o: usize| o as u64;
    a.field(
        h(offset_of!(Header, signature)),
        4,
        format_args!("magic \"{magic}\" ({}-endian)", f.endian.name()),
    );
    a.field(h(offset_of!(Header, version)), 4, format_args!("version: {}", f.version));
    let info = super::Info::new(f);
    a.field(h(offset_of!(Header, file_size)), 4, format_args!("file size: {}", info.file_size));
    a.field(h(offset_of!(Header, endian)), 4, format_args!("endian: {}", f.endian_field));
    a.field(h(offset_of!(Header, resolved)), 4, format_args!("resolved: {}", f.resolved));
    a.field(h(offset_of!(Header, name_len)), 4, format_args!("name length: {}", f.name.len()));
    text(a, &f.name, "name");

    let bsize = info.binary_section.size;
    a.section(f.binaries.at, bsize, format_args!("shader binaries ({})", f.binaries.items.len()));
    array_header(a, &f.binaries, bsize, "shader binary");
    for (i, b) in f.binaries.items.iter().enumerate() {
        a.section(b.at, b.size(), format_args!("shader binary {i} ({})", b.kind.name()));
        let h = |o: usize| b.at + o as u64;
        a.field(h(offset_of!(BinaryHeader, size)), 4, format_args!("size: 0x{:x}", b.size()));
        a.field(
            h(offset_of!(BinaryHeader, shader_type)),
            4,
            format_args!("type: {} ({})", b.kind.0, b.kind.name()),
        );
        a.field(
            h(offset_of!(BinaryHeader, data_offset)),
            4,
            format_args!("data offset: 0x{:x}", b.gap.len()),
        );
        a.field(h(offset_of!(BinaryHeader, data_size)), 4, format_args!("data size: 0x{:x}", b.data.len()));
        if !b.gap.is_empty() {
            a.field(b.at + BINARY_HEADER as u64, b.gap.len() as u64, "bytes before the data");
        }
        // The GX2 struct, its arrays and strings, and the microcode's instructions; what
        // neither claims stays under the fallback.
        if let Ok(g) = b.gx2(f.endian) {
            g.annotate(a, &format!("binary {i}"));
            for &(_, copy) in g.kind.programs() {
                if let Ok(Some((code, at))) = b.program(&g, copy) {
                    crate::isa::latte::annotate(code, at, a);
                }
            }
        }
        a.fallback(
            b.data_at(),
            b.data.len() as u64,
            format_args!("{} shader data: GX2 struct, arrays, strings, microcode", b.kind.name()),
        );
        tail(a, b.data_at() + b.data.len() as u64, &b.tail, "shader binary");
    }
    tail(a, f.programs.at - f.binaries.tail.len() as u64, &f.binaries.tail, "binary section");

    let psize = info.program_section.size;
    a.section(f.programs.at, psize, format_args!("shader programs ({})", f.programs.items.len()));
    array_header(a, &f.programs, psize, "shader program");
    for (i, p) in f.programs.items.iter().enumerate() {
        let size = p.size();
        a.section(p.at, size, format_args!("shader program {i} \"{}\"", p.name.text()));
        let h = |o: usize| p.at + o as u64;
        a.field(h(offset_of!(ProgramHeader, size)), 4, format_args!("size: 0x{size:x}"));
        a.field(h(offset_of!(ProgramHeader, name_len)), 4, format_args!("name length: {}", p.name.len()));
        a.field(
            h(offset_of!(ProgramHeader, kind)),
            4,
            format_args!("kind: 0x{:x} ({})", p.kind, p.kind_text()),
        );
        a.field(h(offset_of!(ProgramHeader, base_index)), 4, format_args!("base index: {}", p.base_index));
        text(a, &p.name, "name");
        variations(a, &p.variations, "variation macro");
        variations(a, &p.defaults, "variation default");
        let mut after_uniforms = 0;
        for (k, kind) in SymbolKind::ALL.into_iter().enumerate() {
            if let Some(arr) = p.symbols.get(k) {
                symbols(a, arr, kind, f.endian);
                after_uniforms = arr.at + arr.size(Symbol::size);
            }
            if k == 0
                && let Some(extra) = &p.extra
            {
                a.section(after_uniforms, 4 + extra.len() as u64, "version-9 section");
                a.field(after_uniforms, 4, format_args!("size: 0x{:x}", 4 + extra.len()));
                if !extra.is_empty() {
                    a.field(after_uniforms + 4, extra.len() as u64, "contents (layout not known)");
                }
            }
        }
        tail(a, p.at + size - p.tail.len() as u64, &p.tail, "shader program");
    }
    let end = f.programs.at + psize;
    tail(a, end - f.programs.tail.len() as u64, &f.programs.tail, "program section");
    tail(a, end, &f.tail, "file");
    if !f.trailing.is_empty() {
        a.field(info.file_size, f.trailing.len() as u64, "bytes past the stated file size");
    }
}
