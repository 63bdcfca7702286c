//! Writing an effect back from its model: the header (its counts as the model has them,
//! except the ones the structured block does not give), the unstructured block as kept, the
//! structured block record by record, then any bytes that followed it; fx_4_x's blob goes back
//! into its DXBC container, whose checksum the container's writer computes.

use super::{Annotation, Assignment, Fx11, Initializer};
use crate::error::{Error, Result};
use std::borrow::Cow;

fn put(out: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn len32(n: usize, what: &'static str) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::invalid(0, what, "more than 2^32 entries"))
}

fn annotations(out: &mut Vec<u8>, list: Option<&[Annotation]>) -> Result<()> {
    if let Some(list) = list {
        put(out, &[len32(list.len(), "annotation count")?]);
        for a in list {
            put(out, &[a.name, a.ty]);
            put(out, &a.values);
        }
    }
    Ok(())
}

fn assignments(out: &mut Vec<u8>, list: &[Assignment]) {
    for a in list {
        put(out, &[a.state, a.index, a.kind, a.value]);
    }
}

impl Fx11<'_> {
    /// The header words: the counts the structured block is read by (buffers, objects,
    /// fx_4's techniques, groups, interface variables, the unstructured size) computed from the
    /// model, the variable and fx_5 technique totals moved by what an edit changed, the others
    /// (resource and shader tallies) as the model holds them.
    pub fn header_words(&self) -> Result<Vec<u32>> {
        let mut h = self.header.clone();
        let local = |pool: bool| self.cbuffers.iter().filter(move |c| c.pool == pool);
        let set = |h: &mut Vec<u32>, i: usize, v: u32| {
            if let Some(w) = h.get_mut(i) {
                *w = v;
            }
        };
        set(&mut h, 1, len32(local(false).count(), "constant buffers")?);
        set(&mut h, 3, len32(self.objects.iter().filter(|o| !o.pool).count(), "object variables")?);
        set(&mut h, 4, len32(local(true).count(), "pool constant buffers")?);
        set(&mut h, 6, len32(self.objects.iter().filter(|o| o.pool).count(), "pool object variables")?);
        // The counts the structured block does not follow move by what an edit changed.
        let now = self.model_counts();
        for ((field, now), read) in [2, 5, 7].into_iter().zip(now).zip(self.read_counts) {
            let stored = h.get(field).copied().unwrap_or(0);
            let moved = stored.wrapping_add(now).wrapping_sub(read);
            set(&mut h, field, moved);
        }
        set(&mut h, 8, len32(self.unstructured.len(), "unstructured block")?);
        if self.is_fx5() {
            set(&mut h, 19, len32(self.groups.len(), "groups")?);
            set(&mut h, 21, len32(self.interfaces.len(), "interface variables")?);
        }
        Ok(h)
    }

    /// The effect blob, from the model.
    pub fn write_blob(&self) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.blob().len());
        put(&mut out, &self.header_words()?);
        out.extend_from_slice(self.unstructured);
        for pool in [false, true] {
            for c in self.cbuffers.iter().filter(|c| c.pool == pool) {
                let n = len32(c.variables.len(), "numeric variables")?;
                put(&mut out, &[c.name, c.size, c.flags, n, c.bind_point]);
                annotations(&mut out, c.annotations.as_deref())?;
                for v in &c.variables {
                    put(&mut out, &[v.name, v.ty, v.semantic, v.offset, v.default, v.flags]);
                    annotations(&mut out, v.annotations.as_deref())?;
                }
            }
            for o in self.objects.iter().filter(|o| o.pool == pool) {
                put(&mut out, &[o.name, o.ty, o.semantic, o.bind_point]);
                for (_, init) in &o.initializers {
                    match init {
                        Initializer::String(w) | Initializer::Shader(w) => put(&mut out, &[*w]),
                        Initializer::GsSo(s, so) => put(&mut out, &[*s, *so]),
                        Initializer::Shader5(s) => put(&mut out, &s.words()),
                        Initializer::StateBlock(list) => {
                            put(&mut out, &[len32(list.len(), "assignments")?]);
                            assignments(&mut out, list);
                        }
                    }
                }
                annotations(&mut out, o.annotations.as_deref())?;
            }
        }
        for i in &self.interfaces {
            put(&mut out, &[i.name, i.ty, i.default, i.flags]);
            annotations(&mut out, Some(&i.annotations))?;
        }
        for g in &self.groups {
            if g.at.is_some() {
                put(&mut out, &[g.name, len32(g.techniques.len(), "techniques")?]);
                annotations(&mut out, Some(&g.annotations))?;
            }
            for t in &g.techniques {
                put(&mut out, &[t.name, len32(t.passes.len(), "passes")?]);
                annotations(&mut out, Some(&t.annotations))?;
                for p in &t.passes {
                    put(&mut out, &[p.name, len32(p.assignments.len(), "assignments")?]);
                    annotations(&mut out, Some(&p.annotations))?;
                    assignments(&mut out, &p.assignments);
                }
            }
        }
        out.extend_from_slice(self.trailing);
        Ok(out)
    }

    /// The whole file: the blob, in its DXBC container for fx_4_x.
    pub fn write_file(&self) -> Result<Vec<u8>> {
        let blob = self.write_blob()?;
        match &self.container {
            None => Ok(blob),
            Some(d) => {
                let mut b = d.to_builder();
                if let Some(c) = b.chunks.first_mut() {
                    if *c.data != blob[..] {
                        c.data = Cow::Owned(blob);
                    }
                }
                b.finish()
            }
        }
    }
}
