//! Writing a GFD file back: every structure of the model is put at its offset through a
//! [`Placement`]; the bytes no structure covers (padding, unknown words) come from the parsed
//! input, so an unmodified file writes back byte for byte.

use super::{Block, Gfd, Relocations};
use crate::toolkit::Endian;
use crate::toolkit::layout::Placement;
use zerocopy::IntoBytes;

impl Gfd<'_> {
    /// Put every structure of the file into `p`.
    pub(crate) fn place(&self, p: &mut Placement) {
        p.put_at(0, self.header.as_bytes());
        for (i, b) in self.blocks.iter().enumerate() {
            place_block(self, i, b, p);
        }
    }

    /// The file as the model says, with the bytes no structure covers taken from the input.
    pub(crate) fn write_bytes(&self) -> Vec<u8> {
        let size = self.data.len().max(self.blocks.last().map(|b| b.end() as usize).unwrap_or(0));
        let mut p = Placement::new(Endian::Big, size);
        self.place(&mut p);
        // The filler fills only what no structure covers, so it can go into the same buffer.
        let filler = p.filler(self.data);
        p.finish(&filler)
    }
}

fn place_block(g: &Gfd<'_>, i: usize, b: &Block<'_>, p: &mut Placement) {
    let at = b.offset as usize;
    p.put_at(at, b.header.as_bytes());
    let data = b.data_offset() as usize;
    let gx2 = b.shader.and_then(|k| g.shaders.get(k)).and_then(|s| match &s.header {
        Some((h, Ok(shader))) if *h == i => Some(shader),
        _ => None,
    });
    match gx2 {
        Some(shader) => {
            shader.place(p, 0);
            if let Some(r) = &b.relocations {
                place_relocations(r, p);
            }
        }
        // Programs, textures, padding, and a header whose struct did not read: their bytes.
        None => p.put_at(data, b.data),
    }
}

fn place_relocations(r: &Relocations, p: &mut Placement) {
    let at = r.at as usize;
    p.put_at(at, r.header.as_bytes());
    if let Some(t) = r.patches_at {
        for (k, w) in r.patches.iter().enumerate() {
            p.patch_u32(t as usize + 4 * k, *w);
        }
    }
}
