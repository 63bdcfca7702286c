//! Writing an effect back from its model: the layout [`super::Mgfx::parse`] reads, with
//! every count, length and size worked out from the model (a string's length in as many bytes
//! as it had, an XNB's sizes from what it wraps).

use super::{Mgfx, Parameter, StateBlock, Str};
use crate::error::{Error, Result};

/// The bytes being written, with the version's count width.
struct Out {
    buf: Vec<u8>,
    wide: bool,
}

impl Out {
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn i32(&mut self, v: i32) {
        self.buf.extend(v.to_le_bytes());
    }
    /// A count or an index: u8 before version 10, i32 from it.
    fn count(&mut self, n: usize, what: &str) -> Result<()> {
        if self.wide {
            let v = i32::try_from(n).map_err(|_| too_many(what, n))?;
            self.i32(v);
        } else {
            self.u8(u8::try_from(n).map_err(|_| too_many(what, n))?);
        }
        Ok(())
    }
    fn index(&mut self, v: i32, what: &str) -> Result<()> {
        if self.wide {
            self.i32(v);
        } else {
            let b = u8::try_from(v)
                .map_err(|_| Error::invalid(0, what.to_string(), format!("{v} does not fit in a byte")))?;
            self.u8(b);
        }
        Ok(())
    }
    fn string(&mut self, s: &Str) -> Result<()> {
        s.write(&mut self.buf)
    }
    fn state(&mut self, s: &Option<StateBlock>) {
        match s {
            None => self.u8(0),
            Some(b) => {
                self.u8(if b.flag == 0 { 1 } else { b.flag });
                let mut bytes = b.bytes.clone();
                bytes.resize(b.kind.size(), 0);
                self.buf.extend(bytes);
            }
        }
    }
    fn parameters(&mut self, ps: &[Parameter]) -> Result<()> {
        self.count(ps.len(), "parameter count")?;
        for p in ps {
            self.u8(p.class);
            self.u8(p.ty);
            self.string(&p.name)?;
            self.string(&p.semantic)?;
            self.count(0, "annotation count")?;
            self.u8(p.rows);
            self.u8(p.columns);
            self.parameters(&p.elements)?;
            self.parameters(&p.members)?;
            if p.has_values() {
                let n = usize::from(p.rows) * usize::from(p.columns);
                for i in 0..n {
                    self.buf.extend(p.values.get(i).copied().unwrap_or(0).to_le_bytes());
                }
            }
        }
        Ok(())
    }
}

fn too_many(what: &str, n: usize) -> Error {
    Error::invalid(0, what.to_string(), format!("{n} does not fit in the file's count"))
}

impl Mgfx<'_> {
    /// The effect's bytes from the model (with its XNB wrapper when it has one).
    pub fn write_model(&self) -> Result<Vec<u8>> {
        let mgfx = self.write_mgfx()?;
        match &self.xnb {
            None => Ok(mgfx),
            Some(x) => x.write_again(&mgfx, self.data.len()),
        }
    }

    /// The MGFX bytes alone.
    pub fn write_mgfx(&self) -> Result<Vec<u8>> {
        let mut o = Out { buf: Vec::new(), wide: self.wide() };
        o.buf.extend(super::MAGIC);
        o.u8(self.version);
        o.u8(self.profile);
        o.buf.extend(self.key.to_le_bytes());
        let named = super::names(self.version, self.profile);
        // What a version 7 DirectX_11 file cannot hold.
        let unnamed = |what: &str| {
            Error::invalid(0, what.to_string(), "a version 7 DirectX_11 effect has no names or attributes")
        };
        o.count(self.constant_buffers.len(), "constant buffer count")?;
        for cb in &self.constant_buffers {
            match named {
                true => o.string(&cb.name)?,
                false if cb.name.bytes.is_empty() => {}
                false => return Err(unnamed("constant buffer name")),
            }
            o.buf.extend(cb.size.to_le_bytes());
            o.count(cb.parameters.len(), "constant buffer parameter count")?;
            for (p, off) in &cb.parameters {
                o.index(*p, "constant buffer parameter index")?;
                o.buf.extend(off.to_le_bytes());
            }
        }
        o.count(self.shaders.len(), "shader count")?;
        for s in &self.shaders {
            o.u8(s.is_vertex);
            if self.version > 10 {
                // What MonoGame's compiler writes when it does not know them.
                let unknown = Str::new("<unknown>");
                let (file, entry) = s.origin.as_ref().map_or((&unknown, &unknown), |(f, e)| (f, e));
                o.string(file)?;
                o.string(entry)?;
            }
            let len = i32::try_from(s.code.len()).map_err(|_| too_many("shader length", s.code.len()))?;
            o.i32(len);
            o.buf.extend(s.code.iter());
            let byte = |n: usize, what: &str| u8::try_from(n).map_err(|_| too_many(what, n));
            o.u8(byte(s.samplers.len(), "sampler count")?);
            for sm in &s.samplers {
                o.u8(sm.ty);
                o.u8(sm.texture_slot);
                o.u8(sm.sampler_slot);
                o.state(&sm.state);
                match named {
                    true => o.string(&sm.name)?,
                    false if sm.name.bytes.is_empty() => {}
                    false => return Err(unnamed("sampler name")),
                }
                o.u8(sm.parameter);
            }
            o.u8(byte(s.cbuffers.len(), "cbuffer count")?);
            o.buf.extend(&s.cbuffers);
            match named {
                true => o.u8(byte(s.attributes.len(), "attribute count")?),
                false if s.attributes.is_empty() => {}
                false => return Err(unnamed("attribute")),
            }
            for a in &s.attributes {
                o.string(&a.name)?;
                o.u8(a.usage);
                o.u8(a.index);
                o.buf.extend(a.location.to_le_bytes());
            }
        }
        o.parameters(&self.parameters)?;
        o.count(self.techniques.len(), "technique count")?;
        for t in &self.techniques {
            o.string(&t.name)?;
            o.count(0, "annotation count")?;
            o.count(t.passes.len(), "pass count")?;
            for p in &t.passes {
                o.string(&p.name)?;
                o.count(0, "annotation count")?;
                o.index(p.vertex_shader, "vertex shader index")?;
                o.index(p.pixel_shader, "pixel shader index")?;
                o.state(&p.blend);
                o.state(&p.depth_stencil);
                o.state(&p.rasterizer);
            }
        }
        if self.wide() {
            o.buf.extend(super::MAGIC);
        }
        o.buf.extend(self.trailing.iter());
        Ok(o.buf)
    }
}
