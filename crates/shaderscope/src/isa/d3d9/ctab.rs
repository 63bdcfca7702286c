//! The constant table (`CTAB` comment) that the HLSL compiler embeds in a program, and fxc's
//! `// Parameters:` / `// Registers:` text for it.
//!
//! Layout from `d3dx9shader.h`: `D3DXSHADER_CONSTANTTABLE` (size, creator, version, constant
//! count and offset, flags, target), an array of 20-byte `D3DXSHADER_CONSTANTINFO` and 16-byte
//! `D3DXSHADER_TYPEINFO` records with `D3DXSHADER_STRUCTMEMBERINFO` pairs for structs. Every
//! offset is relative to the first byte after the `CTAB` FourCC.

use crate::error::{Error, Result};
use std::fmt::Write as _;

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

struct Ctx<'a> {
    blob: &'a [u8],
    base: u64,
    nodes: usize,
}

impl Ctx<'_> {
    fn u32(&self, at: usize, what: &'static str) -> Result<u32> {
        crate::toolkit::le_u32(self.blob, at).ok_or_else(|| self.truncated(at, what, 4))
    }

    fn u16(&self, at: usize, what: &'static str) -> Result<u16> {
        match self.blob.get(at..at.saturating_add(2)) {
            Some(&[a, b]) => Ok(u16::from_le_bytes([a, b])),
            _ => Err(self.truncated(at, what, 2)),
        }
    }

    fn truncated(&self, at: usize, what: &'static str, need: u64) -> Error {
        let have = self.blob.len().saturating_sub(at) as u64;
        Error::truncated(self.base + at as u64, what, need, have)
    }

    fn string(&self, at: u32, field: usize, what: &'static str) -> Result<String> {
        let rest = self.blob.get(at as usize..).ok_or_else(|| {
            Error::out_of_bounds(self.base + field as u64, what, self.base + u64::from(at), 1, self.end())
        })?;
        let n = rest.iter().position(|&c| c == 0).ok_or_else(|| {
            Error::invalid(self.base + u64::from(at), what, "string has no terminating NUL")
        })?;
        Ok(String::from_utf8_lossy(rest.get(..n).unwrap_or(&[])).into_owned())
    }

    fn end(&self) -> u64 {
        self.base + self.blob.len() as u64
    }

    fn ty(&mut self, at: u32, field: usize, depth: usize) -> Result<Type> {
        let at_us = at as usize;
        if at_us.checked_add(16).is_none_or(|e| e > self.blob.len()) {
            return Err(Error::out_of_bounds(
                self.base + field as u64,
                "CTAB type info",
                self.base + u64::from(at),
                16,
                self.end(),
            ));
        }
        self.nodes += 1;
        if self.nodes > MAX_TYPE_NODES || depth > MAX_DEPTH {
            return Err(Error::invalid(self.base + at as u64, "CTAB type info", "types nest too deeply"));
        }
        let member_count = self.u16(at_us + 10, "CTAB type member count")?;
        let member_info = self.u32(at_us + 12, "CTAB type member info")?;
        let mut members = Vec::new();
        if member_count > 0 {
            let len = usize::from(member_count) * 8;
            let start = member_info as usize;
            if start.checked_add(len).is_none_or(|e| e > self.blob.len()) {
                return Err(Error::out_of_bounds(
                    self.base + at as u64 + 12,
                    "CTAB struct members",
                    self.base + u64::from(member_info),
                    len as u64,
                    self.end(),
                ));
            }
            for i in 0..usize::from(member_count) {
                let m = start + i * 8;
                let name_at = self.u32(m, "CTAB member name")?;
                let type_at = self.u32(m + 4, "CTAB member type")?;
                let name = self.string(name_at, m, "CTAB member name")?;
                let ty = self.ty(type_at, m + 4, depth + 1)?;
                members.push(Member { name, ty });
            }
        }
        Ok(Type {
            class: self.u16(at_us, "CTAB type class")?,
            ty: self.u16(at_us + 2, "CTAB type")?,
            rows: self.u16(at_us + 4, "CTAB type rows")?,
            columns: self.u16(at_us + 6, "CTAB type columns")?,
            elements: self.u16(at_us + 8, "CTAB type elements")?,
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
        let mut c = Ctx { blob, base, nodes: 0 };
        let size = c.u32(0, "CTAB header")?;
        let creator_at = c.u32(4, "CTAB header")?;
        let version = c.u32(8, "CTAB header")?;
        let count = c.u32(12, "CTAB header")?;
        let info_at = c.u32(16, "CTAB header")?;
        let flags = c.u32(20, "CTAB header")?;
        let target_at = c.u32(24, "CTAB header")?;
        let creator = if creator_at == 0 { String::new() } else { c.string(creator_at, 4, "CTAB creator")? };
        let target = if target_at == 0 { String::new() } else { c.string(target_at, 24, "CTAB target")? };
        let len = u64::from(count) * 20;
        if u64::from(info_at) + len > blob.len() as u64 {
            return Err(Error::out_of_bounds(
                base + 16,
                "CTAB constant info",
                base + u64::from(info_at),
                len,
                c.end(),
            ));
        }
        let mut constants = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let at = info_at as usize + i * 20;
            let name_at = c.u32(at, "CTAB constant")?;
            let type_at = c.u32(at + 12, "CTAB constant")?;
            constants.push(Constant {
                name: c.string(name_at, at, "CTAB constant name")?,
                register_set: c.u16(at + 4, "CTAB constant")?,
                register_index: c.u16(at + 6, "CTAB constant")?,
                register_count: c.u16(at + 8, "CTAB constant")?,
                reserved: c.u16(at + 10, "CTAB constant")?,
                ty: c.ty(type_at, at + 12, 0)?,
                default_value: c.u32(at + 16, "CTAB constant")?,
            });
        }
        Ok(ConstantTable { offset: base, size, creator, version, flags, target, constants })
    }

    /// The `// Parameters:` and `// Registers:` blocks as fxc prints them, each line starting
    /// with `//`; nothing when the table has no constants.
    pub fn write_text(&self, out: &mut String) {
        if self.constants.is_empty() {
            return;
        }
        out.push_str("// Parameters:\n//\n");
        for c in &self.constants {
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

/// The register letter of a `D3DXREGISTER_SET`.
pub fn register_set_letter(set: u16) -> char {
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

/// The HLSL spelling of a non-struct type: `float`, `float4`, `row_major float4x4`, `sampler2D`.
pub fn type_text(t: &Type) -> String {
    let base = type_name(t.ty);
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
        for m in &t.members {
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
}
