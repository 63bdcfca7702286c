//! CGFX (`.bcsdr`, `.bcres`): NintendoWare's graphics container. Shaders sit in it as whole
//! DVLBs; see [`Cgfx`], re-exported from [`super`].

use super::dvlb::Dvlb;
use super::headers::{CgfxHeader, check_magic};
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::toolkit::{Endian, Reader, Writer};

/// A CGFX file (`.bcsdr`, `.bcres`) with the DVLBs found inside it.
///
/// The file is kept byte for byte; the DVLBs inside are found by their magic on 4-byte
/// boundaries and accepted only when they parse completely, so a stray "DVLB" in texture data
/// is not mistaken for a shader. [`Cgfx::write`] puts each DVLB back where it was.
///
/// ```
/// use shaderscope::format::shbin::{Cgfx, build};
/// use shaderscope::toolkit::Endian;
///
/// // A little-endian CGFX header (0x14 bytes, one block), then a DVLB.
/// let dvlb = build::example_vertex_shader();
/// let mut file = b"CGFX\xff\xfe\x14\x00\x00\x00\x00\x05".to_vec();
/// file.extend((0x14 + dvlb.len() as u32).to_le_bytes());
/// file.extend(1u32.to_le_bytes());
/// file.extend(&dvlb);
///
/// let c = Cgfx::parse(&file)?;
/// assert_eq!((c.endian, c.file_size, c.blocks), (Endian::Little, 0x14 + 260, 1));
/// assert_eq!((c.dvlbs[0].0, c.dvlbs[0].1.dvles.len()), (0x14, 1));
/// assert_eq!(c.write()?, file);
///
/// file[4] = 0;
/// assert_eq!(
///     Cgfx::parse(&file).unwrap_err().to_string(),
///     "invalid CGFX header at offset 0x4: byte-order mark 00fe"
/// );
/// # Ok::<(), shaderscope::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cgfx {
    /// The whole file, kept verbatim (everything that is not a DVLB).
    pub data: Vec<u8>,
    /// Byte order from the byte-order mark.
    pub endian: Endian,
    /// Header size field.
    pub header_size: u16,
    /// Revision field.
    pub revision: u32,
    /// File size field.
    pub file_size: u32,
    /// Number of blocks field.
    pub blocks: u32,
    /// Embedded DVLBs with their offsets in the file.
    pub dvlbs: Vec<(u64, Dvlb)>,
}

impl Cgfx {
    /// Parse the header and find every DVLB inside.
    pub fn parse(data: &[u8]) -> Result<Cgfx> {
        let r = Reader::new(data, Endian::Little);
        check_magic(&r.array_at::<4>(0, "CGFX header")?, b"CGFX", 0, "CGFX header")?;
        let bom = r.array_at::<2>(4, "CGFX header")?;
        // The byte order its mark names; the header is read in it.
        let endian = match bom {
            [0xff, 0xfe] => Endian::Little,
            [0xfe, 0xff] => Endian::Big,
            _ => {
                return Err(Error::invalid(
                    4,
                    "CGFX header",
                    format!("byte-order mark {:02x}{:02x}", bom[0], bom[1]),
                ));
            }
        };
        let h: &CgfxHeader<Endian> = r.read_at(0, "CGFX header")?;
        let (header_size, revision, file_size, blocks) = (
            h.header_size.get_in(endian),
            h.revision.get_in(endian),
            h.file_size.get_in(endian),
            h.blocks.get_in(endian),
        );
        let mut dvlbs = Vec::new();
        let mut at = 0usize;
        while let Some(rest) = data.get(at..) {
            if rest.len() < 8 {
                break;
            }
            if rest.starts_with(b"DVLB")
                && let Ok(d) = Dvlb::parse_embedded(rest, at as u64)
            {
                let size = d.size().max(4);
                dvlbs.push((at as u64, d));
                at += size.next_multiple_of(4);
                continue;
            }
            at += 4;
        }
        Ok(Cgfx { data: data.to_vec(), endian, header_size, revision, file_size, blocks, dvlbs })
    }

    /// The file with every DVLB re-encoded in place. A DVLB whose encoding changed size cannot
    /// be put back without relinking the container, which is refused.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new(self.endian);
        w.bytes(&self.data);
        for (at, d) in &self.dvlbs {
            let bytes = d.write()?;
            let old = d.layout.as_ref().map(|l| l.size).unwrap_or(bytes.len());
            if bytes.len() != old {
                return Err(Error::unsupported(
                    *at,
                    "embedded DVLB",
                    format!(
                        "re-encoded size {} differs from the original {old}; CGFX relinking is not implemented",
                        bytes.len()
                    ),
                ));
            }
            let end = (*at).saturating_add(bytes.len() as u64);
            if end > w.len() as u64 {
                return Err(Error::out_of_bounds(
                    *at,
                    "embedded DVLB",
                    *at,
                    bytes.len() as u64,
                    w.len() as u64,
                ));
            }
            w.put_at(*at as usize, &bytes);
        }
        Ok(w.finish())
    }

    /// Annotate the header and every DVLB.
    pub fn annotate(&self, a: &mut Annotations) {
        a.section(0, 0x14, "CGFX header");
        a.field(0, 4, "magic \"CGFX\"");
        a.field(4, 2, format!("byte-order mark ({})", self.endian.name()));
        a.field(6, 2, format!("header size: 0x{:x}", self.header_size));
        a.field(8, 4, format!("revision: 0x{:x}", self.revision));
        a.field(0xc, 4, format!("file size: {}", self.file_size));
        a.field(0x10, 4, format!("blocks: {}", self.blocks));
        let end = self.data.len() as u64;
        a.fallback(0x14, end.saturating_sub(0x14), "CGFX data outside the shaders (not modelled)");
        for (start, d) in &self.dvlbs {
            super::dvlb::annotate(d, *start, a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_read_in_the_byte_order_of_its_mark() {
        let mut be = b"CGFX\xfe\xff\x00\x14\x05\x00\x00\x00\x00\x00\x00\x14\x00\x00\x00\x00".to_vec();
        let c = Cgfx::parse(&be).unwrap();
        assert_eq!(
            (c.endian, c.header_size, c.revision, c.file_size, c.blocks),
            (Endian::Big, 0x14, 0x0500_0000, 0x14, 0)
        );
        assert_eq!(c.write().unwrap(), be);
        be[4] = 0;
        assert_eq!(
            Cgfx::parse(&be).unwrap_err().to_string(),
            "invalid CGFX header at offset 0x4: byte-order mark 00ff"
        );
        assert_eq!(
            Cgfx::parse(&be[..10]).unwrap_err().to_string(),
            "invalid CGFX header at offset 0x4: byte-order mark 00ff"
        );
        let le = b"CGFX\xff\xfe\x14\x00\x00\x00";
        assert_eq!(
            Cgfx::parse(le).unwrap_err().to_string(),
            "truncated CGFX header at offset 0x0 (need 20 bytes, have 10)"
        );
    }
}
