//! Test-only DVLB reader: just enough of DVLB/DVLP/DVLE to drive the PICA200 printer over the
//! corpus. (The real container lives in `format::shbin`; this keeps the ISA tests independent.)
#![allow(dead_code)]

use shaderscope::isa::pica::{Constant, GeometryMode, Label, Output, ShaderType, SourceContext, Uniform};

/// The parts of a DVLB the ISA needs.
pub struct Dvlb {
    pub code: Vec<u32>,
    /// First word of each opdesc entry, bit 31 masked off.
    pub opdescs: Vec<u32>,
    pub dvles: Vec<Dvle>,
    pub code_offset: u64,
}

pub struct Dvle {
    pub shader_type: u8,
    pub flags: u8,
    pub main: u32,
    pub endmain: u32,
    pub geometry: [u8; 4],
    pub uniforms: Vec<Uniform>,
    pub outputs: Vec<Output>,
    pub constants: Vec<Constant>,
    pub labels: Vec<Label>,
}

fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?))
}

fn cstr(b: &[u8], o: usize) -> String {
    let s = b.get(o..).unwrap_or(&[]);
    let end = s.iter().position(|c| *c == 0).unwrap_or(s.len());
    String::from_utf8_lossy(&s[..end]).into_owned()
}

/// Parse a DVLB; `None` if anything is out of bounds.
pub fn parse(b: &[u8]) -> Option<Dvlb> {
    if b.get(..4)? != b"DVLB" {
        return None;
    }
    let n = u32_at(b, 4)? as usize;
    let dvlp = 8 + 4 * n;
    if b.get(dvlp..dvlp + 4)? != b"DVLP" {
        return None;
    }
    let (co, cn) = (u32_at(b, dvlp + 8)? as usize, u32_at(b, dvlp + 12)? as usize);
    let (oo, on) = (u32_at(b, dvlp + 16)? as usize, u32_at(b, dvlp + 20)? as usize);
    let code = (0..cn).map(|i| u32_at(b, dvlp + co + 4 * i)).collect::<Option<Vec<_>>>()?;
    let opdescs =
        (0..on).map(|i| u32_at(b, dvlp + oo + 8 * i).map(|w| w & 0x7fff_ffff)).collect::<Option<Vec<_>>>()?;
    let mut dvles = Vec::new();
    for k in 0..n {
        let o = u32_at(b, 8 + 4 * k)? as usize;
        if b.get(o..o + 4)? != b"DVLE" {
            return None;
        }
        let t = |i: usize| u32_at(b, o + 0x18 + 4 * i).map(|v| v as usize);
        let sym = o + t(8)?;
        let mut d = Dvle {
            shader_type: *b.get(o + 6)?,
            flags: *b.get(o + 7)?,
            main: u32_at(b, o + 8)?,
            endmain: u32_at(b, o + 12)?,
            geometry: b.get(o + 0x14..o + 0x18)?.try_into().ok()?,
            uniforms: vec![],
            outputs: vec![],
            constants: vec![],
            labels: vec![],
        };
        for i in 0..t(1)? {
            let e = o + t(0)? + 20 * i;
            let (ty, reg) = (u16_at(b, e)?, u16_at(b, e + 2)? as u8);
            d.constants.push(match ty {
                0 => Constant::Bool { register: reg, value: *b.get(e + 4)? != 0 },
                1 => Constant::Int { register: reg, value: b.get(e + 4..e + 8)?.try_into().ok()? },
                _ => Constant::Float {
                    register: reg,
                    value: [
                        u32_at(b, e + 4)? & 0xffffff,
                        u32_at(b, e + 8)? & 0xffffff,
                        u32_at(b, e + 12)? & 0xffffff,
                        u32_at(b, e + 16)? & 0xffffff,
                    ],
                },
            });
        }
        for i in 0..t(3)? {
            let e = o + t(2)? + 16 * i;
            d.labels
                .push(Label { name: cstr(b, sym + u32_at(b, e + 12)? as usize), address: u32_at(b, e + 4)? });
        }
        for i in 0..t(5)? {
            let e = o + t(4)? + 8 * i;
            d.outputs.push(Output {
                semantic: u16_at(b, e)?,
                register: u16_at(b, e + 2)?,
                mask: u16_at(b, e + 4)?,
            });
        }
        for i in 0..t(7)? {
            let e = o + t(6)? + 8 * i;
            d.uniforms.push(Uniform {
                name: cstr(b, sym + u32_at(b, e)? as usize),
                first: u16_at(b, e + 4)?,
                last: u16_at(b, e + 6)?,
            });
        }
        dvles.push(d);
    }
    Some(Dvlb { code, opdescs, dvles, code_offset: (dvlp + co) as u64 })
}

impl Dvlb {
    /// The printer's view of DVLE `k`.
    pub fn context(&self, k: usize) -> SourceContext<'_> {
        let d = &self.dvles[k];
        SourceContext {
            code: &self.code,
            opdescs: &self.opdescs,
            main: d.main,
            endmain: d.endmain,
            shader_type: match d.shader_type {
                0 => ShaderType::Vertex,
                1 => ShaderType::Geometry,
                t => ShaderType::Other(t),
            },
            merge_outmaps: d.flags & 1 != 0,
            geometry: GeometryMode {
                mode: d.geometry[0],
                fixed_start: d.geometry[1],
                variable_count: d.geometry[2],
                fixed_count: d.geometry[3],
            },
            uniforms: &d.uniforms,
            outputs: &d.outputs,
            constants: &d.constants,
            labels: &d.labels,
            code_offset: self.code_offset,
            offsets: false,
            raw: false,
        }
    }
}
