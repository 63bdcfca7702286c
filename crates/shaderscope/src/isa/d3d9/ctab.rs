//! The constant table (`CTAB` comment) that the HLSL compiler embeds in a program, and fxc's
//! `// Parameters:` / `// Registers:` text for it.
//!
//! Layout from `d3dx9shader.h`: `D3DXSHADER_CONSTANTTABLE` (size, creator, version, constant
//! count and offset, flags, target), an array of 20-byte `D3DXSHADER_CONSTANTINFO` and 16-byte
//! `D3DXSHADER_TYPEINFO` records with `D3DXSHADER_STRUCTMEMBERINFO` pairs for structs. Every
//! offset is relative to the first byte after the `CTAB` FourCC.
//! [`Program::constant_table`](super::Program::constant_table) finds and parses it.
//!
//! ```
//! use shaderscope::isa::d3d9::ConstantTable;
//!
//! // Header: size, creator at 85, version vs_2_0, 1 constant at 28, flags, target at 78.
//! let mut t = Vec::new();
//! [28u32, 85, 0xfffe_0200, 1, 28, 0, 78].iter().for_each(|w| t.extend(w.to_le_bytes()));
//! // 28: name at 64, register set 2 (float4) from c0, 4 registers, type at 48, no default.
//! t.extend(64u32.to_le_bytes());
//! [2u16, 0, 4, 0].iter().for_each(|h| t.extend(h.to_le_bytes()));
//! [48u32, 0].iter().for_each(|w| t.extend(w.to_le_bytes()));
//! // 48: class 3 (column-major matrix) of type 3 (float), 4x4, one element, no members.
//! [3u16, 3, 4, 4, 1, 0].iter().for_each(|h| t.extend(h.to_le_bytes()));
//! t.extend(0u32.to_le_bytes());
//! t.extend(b"WorldViewProj\0vs_2_0\0Microsoft (R) HLSL Shader Compiler 9.29.952.3111\0");
//!
//! let table = ConstantTable::parse(&t, 0x10)?;
//! assert_eq!((table.target.as_str(), table.constants[0].register_text()), ("vs_2_0", "c0".into()));
//! let mut text = String::new();
//! table.write_text(&mut text);
//! assert_eq!(
//!     text,
//!     "// Parameters:\n//\n//   float4x4 WorldViewProj;\n//\n//\n// Registers:\n//\n\
//!      //   Name          Reg   Size\n//   ------------- ----- ----\n\
//!      //   WorldViewProj c0       4\n//\n"
//! );
//! t[12] = 100; // constants
//! assert_eq!(
//!     ConstantTable::parse(&t, 0x10).unwrap_err().to_string(),
//!     "CTAB constant info at offset 0x20 points outside its range (0x2c + 0x7d0 is outside 0x96)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::toolkit::raw::{LittleEndian, U16, U32};
use crate::toolkit::{Endian, Reader, checked_range};
use std::fmt::Write as _;
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// Type nodes read per table at most: struct members may share type records, so a hostile table
/// could otherwise describe an exponentially large tree.
const MAX_TYPE_NODES: usize = 4096;
/// Deepest struct nesting followed.
const MAX_DEPTH: usize = 16;

/// A parsed constant table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantTable {
    /// Absolute offset of the table (the byte after the `CTAB` FourCC).
    pub offset: u64,
    /// Header size field (28).
    pub size: u32,
    /// The compiler that wrote the program, e.g. `Microsoft (R) HLSL Shader Compiler 9.30.9200.20499`.
    pub creator: String,
    /// Shader version token the table was built for.
    pub version: u32,
    /// `D3DXSHADER_*` compile flags.
    pub flags: u32,
    /// Target profile, e.g. `ps_3_0`.
    pub target: String,
    /// Constants in table order (fxc sorts them by name).
    pub constants: Vec<Constant>,
}

/// One `D3DXSHADER_CONSTANTINFO`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    /// Name.
    pub name: String,
    /// `D3DXREGISTER_SET`: 0 bool, 1 int4, 2 float4, 3 sampler.
    pub register_set: u16,
    /// First register.
    pub register_index: u16,
    /// Registers used.
    pub register_count: u16,
    /// The reserved field, kept for lossless output.
    pub reserved: u16,
    /// Type.
    pub ty: Type,
    /// Offset of the default value (0 when none).
    pub default_value: u32,
}

/// One `D3DXSHADER_TYPEINFO`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type {
    /// `D3DXPARAMETER_CLASS`: 0 scalar, 1 vector, 2 row-major matrix, 3 column-major matrix,
    /// 4 object, 5 struct.
    pub class: u16,
    /// `D3DXPARAMETER_TYPE`: 1 bool, 2 int, 3 float, 10–14 samplers, …
    pub ty: u16,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (1 for a single value).
    pub elements: u16,
    /// Struct members.
    pub members: Vec<Member>,
}

/// One struct member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: Type,
}

/// `D3DXSHADER_CONSTANTTABLE`.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct RawHeader {
    pub(crate) size: U32<LittleEndian>,
    pub(crate) creator: U32<LittleEndian>,
    pub(crate) version: U32<LittleEndian>,
    pub(crate) constants: U32<LittleEndian>,
    pub(crate) constant_info: U32<LittleEndian>,
    pub(crate) flags: U32<LittleEndian>,
    pub(crate) target: U32<LittleEndian>,
}

/// `D3DXSHADER_CONSTANTINFO`.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct RawConstant {
    name: U32<LittleEndian>,
    register_set: U16<LittleEndian>,
    register_index: U16<LittleEndian>,
    register_count: U16<LittleEndian>,
    reserved: U16<LittleEndian>,
    type_info: U32<LittleEndian>,
    default_value: U32<LittleEndian>,
}

/// `D3DXSHADER_TYPEINFO`.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct RawType {
    class: U16<LittleEndian>,
    ty: U16<LittleEndian>,
    rows: U16<LittleEndian>,
    columns: U16<LittleEndian>,
    elements: U16<LittleEndian>,
    struct_members: U16<LittleEndian>,
    struct_member_info: U32<LittleEndian>,
}

/// `D3DXSHADER_STRUCTMEMBERINFO`.
#[derive(FromBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct RawMember {
    name: U32<LittleEndian>,
    type_info: U32<LittleEndian>,
}

/// Reads the records of one table, counting type records against [`MAX_TYPE_NODES`].
struct TableReader<'a> {
    r: Reader<'a>,
    nodes: usize,
}

impl TableReader<'_> {
    /// `len` bytes at `at`, pointed to by the field at `field` (offsets from the table start).
    fn check(&self, at: u32, len: u64, field: usize, what: &'static str) -> Result<usize> {
        let base = self.r.base();
        let range = checked_range(self.r.data().len(), u64::from(at), len, base, what, base + field as u64)?;
        Ok(range.start)
    }

    /// The NUL-terminated string at `at`, pointed to by the field at `field`.
    fn string(&self, at: u32, field: usize, what: &'static str) -> Result<String> {
        let s = self.r.cstr_at(at as usize, what).map_err(|e| e.at_field(self.r.base() + field as u64))?;
        Ok(s.text().into_owned())
    }

    /// The type record at `at`, pointed to by the field at `field`, with its members.
    fn ty(&mut self, at: u32, field: usize, depth: usize) -> Result<Type> {
        let at = self.check(at, 16, field, "CTAB type info")?;
        self.nodes += 1;
        if self.nodes > MAX_TYPE_NODES || depth > MAX_DEPTH {
            return Err(Error::invalid(self.r.base() + at as u64, "CTAB type info", "types nest too deeply"));
        }
        let t: &RawType = self.r.read_at(at, "CTAB type info")?;
        let count = usize::from(t.struct_members.get());
        let mut members = Vec::new();
        if count > 0 {
            let start =
                self.check(t.struct_member_info.get(), 8 * count as u64, at + 12, "CTAB struct members")?;
            for i in 0..count {
                let m: &RawMember = self.r.read_at(start + 8 * i, "CTAB member")?;
                let name = self.string(m.name.get(), start + 8 * i, "CTAB member name")?;
                let ty = self.ty(m.type_info.get(), start + 8 * i + 4, depth + 1)?;
                members.push(Member { name, ty });
            }
        }
        Ok(Type {
            class: t.class.get(),
            ty: t.ty.get(),
            rows: t.rows.get(),
            columns: t.columns.get(),
            elements: t.elements.get(),
            members,
        })
    }
}

impl Constant {
    /// The first register as fxc's `// Registers:` table writes it: `c12`, `s0`, `b3`.
    pub fn register_text(&self) -> String {
        format!("{}{}", register_set_letter(self.register_set), self.register_index)
    }
}

impl ConstantTable {
    /// Parse the bytes after the `CTAB` FourCC; `base` is their absolute offset.
    pub fn parse(blob: &[u8], base: u64) -> Result<ConstantTable> {
        let mut t = TableReader { r: Reader::with_base(blob, base, Endian::Little), nodes: 0 };
        let h: &RawHeader = t.r.read_at(0, "CTAB header")?;
        let string =
            |at: u32, field, what| if at == 0 { Ok(String::new()) } else { t.string(at, field, what) };
        let creator = string(h.creator.get(), 4, "CTAB creator")?;
        let target = string(h.target.get(), 24, "CTAB target")?;
        let count = h.constants.get() as usize;
        let info_at = t.check(h.constant_info.get(), 20 * count as u64, 16, "CTAB constant info")?;
        let mut constants = Vec::with_capacity(count);
        for i in 0..count {
            let at = info_at + 20 * i;
            let c: &RawConstant = t.r.read_at(at, "CTAB constant")?;
            constants.push(Constant {
                name: t.string(c.name.get(), at, "CTAB constant name")?,
                register_set: c.register_set.get(),
                register_index: c.register_index.get(),
                register_count: c.register_count.get(),
                reserved: c.reserved.get(),
                ty: t.ty(c.type_info.get(), at + 12, 0)?,
                default_value: c.default_value.get(),
            });
        }
        Ok(ConstantTable {
            offset: base,
            size: h.size.get(),
            creator,
            version: h.version.get(),
            flags: h.flags.get(),
            target,
            constants,
        })
    }

    /// The `// Parameters:` and `// Registers:` blocks as fxc prints them, each line starting
    /// with `//`; nothing when the table has no constants.
    pub fn write_text(&self, out: &mut String) {
        if self.constants.is_empty() {
            return;
        }
        out.push_str("// Parameters:\n//\n");
        for (k, c) in self.constants.iter().enumerate() {
            // fxc sets a struct off from the declarations beside it with a `//   ` line
            // (fxc 9.29's listings in librw's headers).
            let struct_beside = |c: &Constant| c.ty.class == 5;
            if k > 0 && (struct_beside(c) || self.constants.get(k - 1).is_some_and(struct_beside)) {
                out.push_str("//   \n");
            }
            declaration(&c.ty, &c.name, 1, out);
        }
        out.push_str("//\n//\n// Registers:\n//\n");
        let width = self.constants.iter().map(|c| c.name.len()).max().unwrap_or(0).max(12);
        let _ = writeln!(out, "//   {:<width$} {:<5} {:>4}", "Name", "Reg", "Size");
        let _ = writeln!(out, "//   {} ----- ----", "-".repeat(width));
        let mut rows: Vec<&Constant> = self.constants.iter().collect();
        rows.sort_by_key(|c| (c.register_set, c.register_index));
        for c in rows {
            let _ = writeln!(out, "//   {:<width$} {:<5} {:>4}", c.name, c.register_text(), c.register_count);
        }
        out.push_str("//\n");
    }
}

impl ConstantTable {
    /// The bytes after the `CTAB` FourCC, laid out as fxc lays them out: the header, the
    /// constant records, then for each constant its name and its type record, then the target
    /// and the creator, padded with `0xab` to a whole token. Strings follow one another
    /// unaligned; a type record starts on a 4-byte boundary, padded with `0xab`. The record of
    /// a single numeric value (scalar, vector, matrix, not an array) equal to one written
    /// before among its siblings is shared; arrays, objects and structs get their own. A
    /// struct's members (each name then its type, then the member records) come before its own
    /// record, and its members share their records among themselves only, not with the
    /// constants (fxc 9.29's tables in librw's headers: `struct { float4 color; float4
    /// position; float4 direction; } lights[8]` beside `float4` constants writes one new
    /// `float4` record for the three members). Default values are not modelled: every record
    /// says it has none.
    pub fn write(&self) -> Vec<u8> {
        let count = self.constants.len();
        let mut b = vec![0u8; 28 + 20 * count];
        let mut types: Vec<(&Type, u32)> = Vec::new();
        let mut records = Vec::with_capacity(count);
        for c in &self.constants {
            let name = put_string(&mut b, &c.name);
            let ty = put_type(&mut b, &c.ty, &mut types);
            records.push((name, ty));
        }
        let target = put_string(&mut b, &self.target);
        let creator = put_string(&mut b, &self.creator);
        pad(&mut b);
        let info = if count == 0 { 0 } else { 28 };
        let header = [self.size, creator, self.version, count as u32, info, self.flags, target];
        for (k, v) in header.into_iter().enumerate() {
            put_u32_at(&mut b, 4 * k, v);
        }
        for (k, (c, (name, ty))) in self.constants.iter().zip(records).enumerate() {
            let at = 28 + 20 * k;
            put_u32_at(&mut b, at, name);
            let halves = [c.register_set, c.register_index, c.register_count, c.reserved];
            for (h, v) in halves.into_iter().enumerate() {
                if let Some(d) = b.get_mut(at + 4 + 2 * h..at + 6 + 2 * h) {
                    d.copy_from_slice(&v.to_le_bytes());
                }
            }
            put_u32_at(&mut b, at + 12, ty);
            put_u32_at(&mut b, at + 16, 0);
        }
        b
    }
}

/// Append `s` and its NUL; its offset.
fn put_string(b: &mut Vec<u8>, s: &str) -> u32 {
    let at = b.len() as u32;
    b.extend_from_slice(s.as_bytes());
    b.push(0);
    at
}

/// Pad with `0xab` to a 4-byte boundary, as fxc does.
fn pad(b: &mut Vec<u8>) {
    while b.len() % 4 != 0 {
        b.push(0xab);
    }
}

fn put_u32_at(b: &mut [u8], at: usize, v: u32) {
    if let Some(d) = b.get_mut(at..at + 4) {
        d.copy_from_slice(&v.to_le_bytes());
    }
}

/// Append the record of `t` (and its members) unless an equal one is among `written` (the
/// records of its siblings); its offset.
fn put_type<'t>(b: &mut Vec<u8>, t: &'t Type, written: &mut Vec<(&'t Type, u32)>) -> u32 {
    // fxc shares the record of a numeric type that is not an array; each array, object and
    // struct declaration gets its own (every corpus table). Only the shared ones are kept in
    // `written`, so it holds each distinct numeric type once and a long table of arrays does
    // not make every lookup walk it.
    let shared = t.class < 4 && t.elements <= 1;
    if shared {
        if let Some((_, at)) = written.iter().find(|(w, _)| *w == t) {
            return *at;
        }
    }
    let mut members = Vec::with_capacity(t.members.len());
    // The members' records are shared among the members only.
    let mut siblings = Vec::new();
    for m in &t.members {
        let name = put_string(b, &m.name);
        members.push((name, put_type(b, &m.ty, &mut siblings)));
    }
    let mut member_info = 0;
    if !members.is_empty() {
        pad(b);
        member_info = b.len() as u32;
        for (name, ty) in members {
            b.extend_from_slice(&name.to_le_bytes());
            b.extend_from_slice(&ty.to_le_bytes());
        }
    }
    pad(b);
    let at = b.len() as u32;
    for h in [t.class, t.ty, t.rows, t.columns, t.elements, t.members.len() as u16] {
        b.extend_from_slice(&h.to_le_bytes());
    }
    b.extend_from_slice(&member_info.to_le_bytes());
    if shared {
        written.push((t, at));
    }
    at
}

/// The register letter of a `D3DXREGISTER_SET`.
pub(crate) fn register_set_letter(set: u16) -> char {
    match set {
        0 => 'b',
        1 => 'i',
        2 => 'c',
        3 => 's',
        _ => '?',
    }
}

/// HLSL name of a `D3DXPARAMETER_TYPE`.
pub fn type_name(ty: u16) -> &'static str {
    match ty {
        0 => "void",
        1 => "bool",
        2 => "int",
        3 => "float",
        4 => "string",
        5 => "texture",
        6 => "texture1D",
        7 => "texture2D",
        8 => "texture3D",
        9 => "textureCUBE",
        10 => "sampler",
        11 => "sampler1D",
        12 => "sampler2D",
        13 => "sampler3D",
        14 => "samplerCUBE",
        15 => "pixelshader",
        16 => "vertexshader",
        17 => "pixelfragment",
        18 => "vertexfragment",
        _ => "unknown",
    }
}

/// The columns of a Direct3D 10 texture object's record: the four components its texels
/// return. A DX10-style `Texture2D` that a shader model 1–3 program samples (`t.Sample(s,
/// uv)`, compiled by fxc 10.1) is a constant of the sampler register set whose record is an
/// object (class 4) of a texture type with 4 columns; the DX9 `texture2D` object has 1.
pub const DX10_TEXTURE_COLUMNS: u16 = 4;

/// fxc's name for a Direct3D 10 texture object of `D3DXPARAMETER_TYPE` `ty` (5–9).
pub(crate) fn dx10_texture_name(ty: u16) -> Option<&'static str> {
    Some(match ty {
        5 => "Texture",
        6 => "Texture1D",
        7 => "Texture2D",
        8 => "Texture3D",
        9 => "TextureCube",
        _ => return None,
    })
}

/// The HLSL spelling of a non-struct type: `float`, `float4`, `row_major float4x4`,
/// `sampler2D`, and `Texture2D` for a Direct3D 10 texture object ([`DX10_TEXTURE_COLUMNS`]).
pub fn type_text(t: &Type) -> String {
    let base = type_name(t.ty);
    let dx10 = (t.class == 4 && t.columns == DX10_TEXTURE_COLUMNS).then(|| dx10_texture_name(t.ty)).flatten();
    if let Some(name) = dx10 {
        return name.to_string();
    }
    match t.class {
        1 => format!("{base}{}", t.columns),
        2 => format!("row_major {base}{}x{}", t.rows, t.columns),
        3 => format!("{base}{}x{}", t.rows, t.columns),
        _ => base.to_string(),
    }
}

/// One declaration line (or a struct block) of the `// Parameters:` section.
fn declaration(t: &Type, name: &str, level: usize, out: &mut String) {
    let pad = "    ".repeat(level.saturating_sub(1));
    let array = if t.elements > 1 { format!("[{}]", t.elements) } else { String::new() };
    if t.class == 5 {
        let _ = writeln!(out, "//   {pad}struct\n//   {pad}{{");
        // As at the top level, a struct member is set off from the members beside it.
        let inner = "    ".repeat(level);
        for (k, m) in t.members.iter().enumerate() {
            let beside = k > 0 && (m.ty.class == 5 || t.members.get(k - 1).is_some_and(|p| p.ty.class == 5));
            if beside {
                let _ = writeln!(out, "//   {inner}");
            }
            declaration(&m.ty, &m.name, level + 1, out);
        }
        let _ = writeln!(out, "//\n//   {pad}}} {name}{array};");
    } else {
        let _ = writeln!(out, "//   {pad}{} {name}{array};", type_text(t));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-built table: `float4 color;` in c3 and `sampler2D tex;` in s0.
    fn sample() -> Vec<u8> {
        let mut b = Vec::new();
        let mut w = |v: u32| b.extend_from_slice(&v.to_le_bytes());
        // 0: header: size, creator at 117, version ps_2_0, 2 constants at 28, flags, target at 110
        [28, 117, 0xffff_0200, 2, 28, 0, 110].into_iter().for_each(&mut w);
        // 28: "color" (name at 100), set 2 (float4), index 3, count 1, type at 68
        [100, 0x0003_0002, 1, 68, 0].into_iter().for_each(&mut w);
        // 48: "tex" (name at 106), set 3 (sampler), index 0, count 1, type at 84
        [106, 0x0000_0003, 1, 84, 0].into_iter().for_each(&mut w);
        // 68: vector of float, 1 row, 4 columns, 1 element
        [0x0003_0001, 0x0004_0001, 1, 0].into_iter().for_each(&mut w);
        // 84: object sampler2D
        [0x000c_0004, 0x0001_0001, 1, 0].into_iter().for_each(&mut w);
        b.extend_from_slice(b"color\0tex\0ps_2_0\0Microsoft (R) HLSL Shader Compiler 9.29.952.3111\0");
        b
    }

    #[test]
    fn parses_and_prints_like_fxc() {
        let t = ConstantTable::parse(&sample(), 0x10).unwrap();
        assert_eq!(t.creator, "Microsoft (R) HLSL Shader Compiler 9.29.952.3111");
        assert_eq!(t.target, "ps_2_0");
        let mut s = String::new();
        t.write_text(&mut s);
        assert_eq!(
            s,
            "// Parameters:\n//\n//   float4 color;\n//   sampler2D tex;\n//\n//\n// Registers:\n//\n\
             //   Name         Reg   Size\n//   ------------ ----- ----\n\
             //   color        c3       1\n//   tex          s0       1\n//\n"
        );
    }

    #[test]
    fn bad_offsets_are_clean_errors() {
        let mut b = sample();
        b[16..20].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
        let e = ConstantTable::parse(&b, 0x10).unwrap_err();
        assert!(e.to_string().contains("CTAB constant info"), "{e}");
        let b = sample();
        assert!(ConstantTable::parse(&b[..10], 0).is_err());
    }

    #[test]
    fn self_referencing_structs_stop() {
        let mut b = Vec::new();
        let w = |b: &mut Vec<u8>, v: u32| b.extend_from_slice(&v.to_le_bytes());
        for v in [28, 0, 0, 1, 28, 0, 0] {
            w(&mut b, v);
        }
        // constant: name at 64 ("s"), type at 48
        for v in [64, 2, 1, 48, 0] {
            w(&mut b, v);
        }
        // struct type at 48 with one member (at 66) that is the struct itself
        for v in [5, 0x0001_0001, 0x0001_0001, 68] {
            w(&mut b, v);
        }
        b.extend_from_slice(b"s\0m\0");
        for v in [66, 48] {
            w(&mut b, v);
        }
        let e = ConstantTable::parse(&b, 0).unwrap_err();
        assert!(e.to_string().contains("nest too deeply"), "{e}");
    }

    /// A struct among float4 constants, as in librw's vertex shaders (fxc 9.29): set off by
    /// `//   ` lines in the listing; its members share one `float4` record of their own, the
    /// constants another.
    #[test]
    fn a_struct_is_written_and_listed_as_fxc_does() {
        let ty = |class, ty, rows, columns, elements, members| Type {
            class,
            ty,
            rows,
            columns,
            elements,
            members,
        };
        let float4 = || ty(1, 3, 1, 4, 1, Vec::new());
        let member = |name: &str| Member { name: name.to_string(), ty: float4() };
        let lights = ty(5, 0, 1, 12, 8, vec![member("color"), member("position"), member("direction")]);
        let constant = |name: &str, index, count, ty| Constant {
            name: name.to_string(),
            register_set: 2,
            register_index: index,
            register_count: count,
            reserved: 0,
            ty,
            default_value: 0,
        };
        let table = ConstantTable {
            offset: 0,
            size: 28,
            creator: "Microsoft (R) HLSL Shader Compiler 9.29.952.3111".to_string(),
            version: 0xfffe_0200,
            flags: 0x100,
            target: "vs_2_0".to_string(),
            constants: vec![
                constant("ambientLight", 15, 1, float4()),
                constant("lights", 17, 24, lights),
                constant("matCol", 12, 1, float4()),
            ],
        };
        let bytes = table.write();
        let back = ConstantTable::parse(&bytes, 0).unwrap();
        assert_eq!(back.constants, table.constants);
        let word = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        // The constants' type records: the two float4 constants share one.
        let (ambient, lights, mat) = (word(28 + 12), word(48 + 12), word(68 + 12));
        assert_eq!(ambient, mat);
        // The struct's member records (name, type) follow its members' names and types.
        let members = word(lights as usize + 12) as usize;
        let member_types = [word(members + 4), word(members + 12), word(members + 20)];
        assert_eq!(member_types, [member_types[0]; 3]);
        assert_ne!(member_types[0], ambient);
        assert_eq!(members + 24, lights as usize);
        let mut text = String::new();
        table.write_text(&mut text);
        assert!(
            text.starts_with(
                "// Parameters:\n//\n//   float4 ambientLight;\n//   \n//   struct\n//   {\n\
                 //       float4 color;\n//       float4 position;\n//       float4 direction;\n//\n\
                 //   } lights[8];\n//   \n//   float4 matCol;\n//\n"
            ),
            "{text}"
        );
    }
}
