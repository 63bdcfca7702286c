//! Writing a [`Sharcfb`] and converting it between the two byte orders.
//!
//! The writer lays the model out as AGL reads it: every record after the one before, each
//! record's size computed from what it holds (fields, kept tail), the file size last. An
//! unmodified parse writes back byte for byte because every byte the fields do not explain is
//! kept in a tail of the model.

use super::res::{self, SymbolKind};
use super::{Binary, BinaryType, Program, Sharcfb};
use crate::error::{Error, Result};
use crate::toolkit::{Endian, Writer};

/// The magic as a 32-bit word in the file's byte order: `SHAB` big-endian, `BAHS` little.
const MAGIC: u32 = 0x5348_4142;

impl Sharcfb {
    /// The archive's bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new(self.endian);
        w.u32(MAGIC);
        w.u32(self.version);
        w.u32(0);
        w.u32(self.endian_field);
        w.u32(self.resolved);
        w.u32(res::len32(self.name.len(), 0x14)?);
        w.bytes(&self.name.bytes);
        res::write_array(&mut w, &self.binaries, write_binary)?;
        res::write_array(&mut w, &self.programs, write_program)?;
        w.bytes(&self.tail);
        let size = res::len32(w.len(), 8)?;
        w.patch_u32(8, size);
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
    w.u32(b.kind.0);
    let at = w.len();
    w.u32(res::len32(b.gap.len(), at)?);
    w.u32(res::len32(b.data.len(), at)?);
    w.bytes(&b.gap);
    w.bytes(&b.data);
    w.bytes(&b.tail);
    Ok(())
}

fn write_program(w: &mut Writer, p: &Program) -> Result<()> {
    let at = w.len();
    w.u32(res::len32(p.name.len(), at)?);
    w.u32(p.kind);
    w.u32(p.base_index);
    w.bytes(&p.name.bytes);
    res::write_array(w, &p.variations, |w, v| v.write(w))?;
    res::write_array(w, &p.defaults, |w, v| v.write(w))?;
    res::write_symbol_arrays(w, &p.symbols, p.extra.as_deref())?;
    w.bytes(&p.tail);
    Ok(())
}

/// Where the 32-bit words of a GX2 shader struct and its arrays are (decaf-emu's and wut's
/// `gx2/shaders.h`): the struct's size and, per array, the offsets of its count and pointer
/// fields and the size of one element.
struct Gx2Layout {
    size: usize,
    arrays: &'static [(usize, usize, usize)],
    /// Words after `size` that only some headers count (the geometry shader's second
    /// `GX2RBuffer`, 0xb0..0xc0, in decaf's but not wut's): swapped when nothing the struct
    /// points at starts before their end.
    optional: usize,
}

impl Gx2Layout {
    fn of(kind: BinaryType) -> Option<Gx2Layout> {
        // (count, pointer, element size): uniform blocks 0xc, uniform vars 0x14, initial
        // values 0x14, loop vars 0x8, sampler vars 0xc, attrib vars 0x10.
        Some(match kind.0 {
            0 => Gx2Layout {
                size: 0x134,
                arrays: &[
                    (0xdc, 0xe0, 0xc),
                    (0xe4, 0xe8, 0x14),
                    (0xec, 0xf0, 0x14),
                    (0xf4, 0xf8, 0x8),
                    (0xfc, 0x100, 0xc),
                    (0x104, 0x108, 0x10),
                ],
                optional: 0,
            },
            1 => Gx2Layout {
                size: 0xe8,
                arrays: &[
                    (0xb0, 0xb4, 0xc),
                    (0xb8, 0xbc, 0x14),
                    (0xc0, 0xc4, 0x14),
                    (0xc8, 0xcc, 0x8),
                    (0xd0, 0xd4, 0xc),
                ],
                optional: 0,
            },
            2 => Gx2Layout {
                size: 0xb0,
                arrays: &[
                    (0x60, 0x64, 0xc),
                    (0x68, 0x6c, 0x14),
                    (0x70, 0x74, 0x14),
                    (0x78, 0x7c, 0x8),
                    (0x80, 0x84, 0xc),
                ],
                optional: 0x10,
            },
            _ => return None,
        })
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
        for &(count, ptr, elem) in self.arrays {
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
            let programs = [0x50usize, 0x58].iter().filter_map(|&f| word(f)).filter(|&p| p != 0).min();
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
