//! Writing a [`Sharcfb`] and converting it between the two byte orders.
//!
//! The writer lays the model out as AGL reads it: every record after the one before, each
//! record's size computed from what it holds (fields, kept tail), the file size last. An
//! unmodified parse writes back byte for byte because every byte the fields do not explain is
//! kept in a tail of the model.

use super::res::{self, SymbolKind};
use super::{
    Binary, BinaryType, Header, Program, ResBinaryShaderArchiveData, ResBinaryShaderProgramData,
    ResShaderBinaryData, Sharcfb,
};
use crate::error::{Error, Result};
use crate::format::gx2;
use crate::toolkit::raw::{I32, U32};
use crate::toolkit::{Endian, Writer};
use std::mem::offset_of;
use zerocopy::IntoBytes;

/// The magic as a 32-bit word in the file's byte order: `SHAB` big-endian, `BAHS` little.
const SIGNATURE: u32 = 0x5348_4142;

impl Sharcfb {
    /// The archive's bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new(self.endian);
        let o = self.endian;
        let h = ResBinaryShaderArchiveData {
            signature: U32::<Endian>::new_in(o, SIGNATURE).bytes(),
            version: U32::new_in(o, self.version),
            // Patched in last.
            file_size: U32::new_in(o, 0),
            endian: U32::new_in(o, self.endian_field),
            resolved: U32::new_in(o, self.resolved),
            name_len: U32::new_in(o, res::len32(self.name.len(), offset_of!(Header, name_len))?),
        };
        w.bytes(h.as_bytes());
        w.bytes(&self.name.bytes);
        res::write_array(&mut w, &self.binaries, write_binary)?;
        res::write_array(&mut w, &self.programs, write_program)?;
        w.bytes(&self.tail);
        let size = res::len32(w.len(), offset_of!(Header, file_size))?;
        w.patch_u32(offset_of!(Header, file_size), size);
        w.bytes(&self.trailing);
        Ok(w.finish())
    }

    /// The same archive in byte order `endian`: every header word, the symbols' default
    /// values (32-bit words, except a uniform block's bytes, as AGL swaps them), and in each
    /// binary the GX2 struct and its arrays (uniform blocks, uniform vars, initial values, loop
    /// vars, sampler vars, attrib vars). Strings and microcode stay as they are: the GPU reads
    /// microcode as little-endian words in both. Converting back gives the original.
    ///
    /// Fails for a binary of unknown type, whose data layout is unknown, and for a version-9
    /// section with contents (its layout is unknown too).
    pub fn to_endian(&self, endian: Endian) -> Result<Sharcfb> {
        let mut out = self.clone();
        if endian == self.endian {
            return Ok(out);
        }
        out.endian = endian;
        // The magic decides the byte order. The field keeps what it says: one that names the
        // file's order names the new one, one that names the other order names the old one
        // (0 and 1 swap), anything else is kept; so a conversion and its reverse give the
        // input back.
        let (from, to) = (super::endian_field(self.endian), super::endian_field(endian));
        out.endian_field = match self.endian_field {
            f if f == from => to,
            f if f == to => from,
            f => f,
        };
        for (i, b) in out.binaries.items.iter_mut().enumerate() {
            let Some(layout) = Gx2Layout::of(b.kind) else {
                return Err(Error::unsupported(
                    b.at + 4,
                    format!("shader binary {i} type"),
                    format!(
                        "type {}: the layout of its data is unknown, so it cannot change byte order",
                        b.kind.0
                    ),
                ));
            };
            for at in layout.words(&b.data, self.endian) {
                if let Some(word) = b.data.get_mut(at..at + 4) {
                    word.reverse();
                }
            }
        }
        for p in &mut out.programs.items {
            if p.extra.as_ref().is_some_and(|e| !e.is_empty()) {
                return Err(Error::unsupported(
                    p.at,
                    "version-9 program section",
                    "its layout is unknown, so it cannot change byte order",
                ));
            }
            for (k, kind) in SymbolKind::ALL.into_iter().enumerate() {
                if !kind.words() {
                    continue;
                }
                if let Some(a) = p.symbols.get_mut(k) {
                    for s in &mut a.items {
                        res::swap_words(&mut s.default);
                    }
                }
            }
        }
        Ok(out)
    }
}

fn write_binary(w: &mut Writer, b: &Binary) -> Result<()> {
    let (at, o) = (w.len(), w.endian());
    let h = ResShaderBinaryData {
        size: U32::new_in(o, 0),
        shader_type: U32::new_in(o, b.kind.0),
        data_offset: I32::new_in(o, res::len32(b.gap.len(), at)? as i32),
        data_size: U32::new_in(o, res::len32(b.data.len(), at)?),
    };
    w.bytes(h.as_bytes());
    w.bytes(&b.gap);
    w.bytes(&b.data);
    w.bytes(&b.tail);
    Ok(())
}

fn write_program(w: &mut Writer, p: &Program) -> Result<()> {
    let (at, o) = (w.len(), w.endian());
    let h = ResBinaryShaderProgramData {
        size: U32::new_in(o, 0),
        name_len: U32::new_in(o, res::len32(p.name.len(), at)?),
        kind: U32::new_in(o, p.kind),
        base_index: U32::new_in(o, p.base_index),
    };
    w.bytes(h.as_bytes());
    w.bytes(&p.name.bytes);
    res::write_array(w, &p.variations, |w, v| v.write(w))?;
    res::write_array(w, &p.defaults, |w, v| v.write(w))?;
    res::write_symbol_arrays(w, &p.symbols, p.extra.as_deref())?;
    w.bytes(&p.tail);
    Ok(())
}

/// Where the 32-bit words of a GX2 shader struct and its arrays are, from the struct
/// declarations ([`gx2::Kind::layout`]): the struct's size and, per array, the offsets of its
/// count and pointer fields and the size of one element.
struct Gx2Layout {
    size: usize,
    arrays: Vec<(usize, usize, usize)>,
    /// Words after `size` that only some headers count (the geometry shader's second
    /// `GX2RBuffer`, 0xb0..0xc0, in decaf's but not wut's): swapped when nothing the struct
    /// points at starts before their end.
    optional: usize,
    /// The program pointer fields (their targets end the struct as the arrays' do).
    programs: Vec<usize>,
}

impl Gx2Layout {
    fn of(kind: BinaryType) -> Option<Gx2Layout> {
        let l = kind.gx2()?.layout();
        let pairs = (0..5).map(|k| l.arrays + 8 * k).chain(l.attribs);
        let arrays = pairs.zip(gx2::ENTRY_SIZES).map(|(count, elem)| (count, count + 4, elem)).collect();
        let size = l.copy_gx2r.unwrap_or(l.size_of);
        let programs = [Some(l.size), l.copy].into_iter().flatten().map(|f| f + 4).collect();
        Some(Gx2Layout { size, arrays, optional: l.size_of - size, programs })
    }

    /// The offsets in `data` (read in `endian`) of every word to swap, each byte at most once,
    /// so that the same words are found again in the converted data.
    fn words(&self, data: &[u8], endian: Endian) -> Vec<usize> {
        let word = |at: usize| {
            data.get(at..).and_then(|b| b.first_chunk::<4>()).map(|&b| match endian {
                Endian::Little => u32::from_le_bytes(b) as usize,
                Endian::Big => u32::from_be_bytes(b) as usize,
            })
        };
        let mut taken = vec![false; data.len()];
        let mut out = Vec::new();
        let mut take = |at: usize, out: &mut Vec<usize>| {
            if let Some(t) = taken.get_mut(at..at + 4)
                && t.iter().all(|x| !x)
            {
                t.fill(true);
                out.push(at);
            }
        };
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for &(count, ptr, elem) in &self.arrays {
            let (Some(n), Some(p)) = (word(count), word(ptr)) else { continue };
            if n == 0 || p == 0 {
                continue;
            }
            let end = n.checked_mul(elem).and_then(|len| p.checked_add(len)).unwrap_or(usize::MAX);
            ranges.push((p, end.min(data.len())));
        }
        let mut size = self.size;
        if self.optional > 0 {
            let first_target = ranges.iter().map(|r| r.0).min().unwrap_or(usize::MAX);
            let programs = self.programs.iter().filter_map(|&f| word(f)).filter(|&p| p != 0).min();
            if first_target.min(programs.unwrap_or(usize::MAX)) >= self.size + self.optional {
                size += self.optional;
            }
        }
        for at in (0..size.min(data.len())).step_by(4) {
            take(at, &mut out);
        }
        for (start, end) in ranges {
            let mut at = start;
            while at.saturating_add(4) <= end {
                take(at, &mut out);
                at += 4;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_plan_takes_the_struct_and_its_arrays_each_word_once() {
        // A pixel shader with two uniform blocks at 0x100 and a sampler array overlapping them.
        let mut data = vec![0u8; 0x140];
        data[0xb0..0xb4].copy_from_slice(&2u32.to_be_bytes());
        data[0xb4..0xb8].copy_from_slice(&0x100u32.to_be_bytes());
        data[0xd0..0xd4].copy_from_slice(&1u32.to_be_bytes());
        data[0xd4..0xd8].copy_from_slice(&0x110u32.to_be_bytes());
        let words = Gx2Layout::of(BinaryType::PIXEL).unwrap().words(&data, Endian::Big);
        assert_eq!(&words[0xe8 / 4..], &[0x100, 0x104, 0x108, 0x10c, 0x110, 0x114, 0x118]);
        // A word that overlaps one already taken is left alone (so the same words are found
        // again after the swap).
        data[0xd4..0xd8].copy_from_slice(&0x112u32.to_be_bytes());
        let words = Gx2Layout::of(BinaryType::PIXEL).unwrap().words(&data, Endian::Big);
        assert_eq!(&words[0xe8 / 4..], &[0x100, 0x104, 0x108, 0x10c, 0x110, 0x114, 0x11a]);
        // A count that runs past the data stops at its end.
        data[0xb0..0xb4].copy_from_slice(&0xffff_ffffu32.to_be_bytes());
        let words = Gx2Layout::of(BinaryType::PIXEL).unwrap().words(&data, Endian::Big);
        assert_eq!(words.last(), Some(&0x13c));
    }

    #[test]
    fn geometry_second_buffer_only_when_nothing_starts_there() {
        let mut data = vec![0u8; 0xd0];
        let gs = Gx2Layout::of(BinaryType::GEOMETRY).unwrap();
        assert_eq!(gs.words(&data, Endian::Little).len(), 0xc0 / 4);
        data[0x50..0x54].copy_from_slice(&0xb0u32.to_le_bytes());
        assert_eq!(gs.words(&data, Endian::Little).len(), 0xb0 / 4);
    }
}
