//! Writing an MBS file from its model: every chunk is written as its tag, a size the writer
//! computes once the payload is written ([`Writer::patch_u32`]), and its payload, from the
//! fields of the model; unknown chunks and bytes the model keeps (a string's padding, bytes
//! after `MBS1`) go back verbatim, so an unmodified file writes back byte for byte.

use super::{Body, Mbs, Node, Stri, Symbol};
use crate::toolkit::{Endian, Writer};

impl Mbs<'_> {
    /// The file as the model says.
    pub fn write_model(&self) -> Vec<u8> {
        let mut w = Writer::new(Endian::Little);
        write_node(&self.root, &mut w);
        w.bytes(&self.trailing);
        w.finish()
    }
}

/// One chunk: header, payload, then its size patched in.
fn write_node(n: &Node<'_>, w: &mut Writer) {
    w.bytes(&n.tag.0);
    let size_at = w.len();
    w.u32(0);
    let start = w.len();
    match &n.body {
        Body::Chunks(kids) => kids.iter().for_each(|k| write_node(k, w)),
        Body::Shader(s) => {
            w.u32(s.version);
            s.children.iter().for_each(|k| write_node(k, w));
        }
        Body::Fsta { stack_size, stack_offset } => {
            w.u32(*stack_size);
            w.u32(*stack_offset);
        }
        Body::Fdis { discard } => w.u32(*discard),
        Body::Fbuu(b) => w.bytes(b),
        Body::Fins { unknown_0, instructions, attrib_prefetch } => {
            w.u32(*unknown_0);
            w.u32(*instructions);
            w.u32(*attrib_prefetch);
        }
        Body::Table(t) => {
            w.u32(t.count);
            if let Some(s) = t.total_slots {
                w.u32(s);
            }
            t.children.iter().for_each(|k| write_node(k, w));
        }
        Body::Symbol(s) => write_symbol(s, n.tag.0 == *b"VATT", w),
        Body::Word(v) => w.u32(*v),
        Body::Vini(values) => {
            w.u32(values.len() as u32);
            values.iter().for_each(|v| w.u32(*v));
        }
        Body::Code(b) | Body::Bytes(b) => w.bytes(b),
    }
    let size = (w.len() - start) as u32;
    w.patch_u32(size_at, size);
}

fn write_stri(s: &Stri<'_>, w: &mut Writer) {
    w.bytes(b"STRI");
    let len = s.payload_len();
    w.u32(len as u32);
    w.bytes(&s.text);
    w.u8(0);
    w.bytes(&s.pad);
}

fn write_symbol(s: &Symbol<'_>, attribute: bool, w: &mut Writer) {
    write_stri(&s.name, w);
    w.u8(s.unknown_0);
    w.u8(s.ty.0);
    for v in [s.component_count, s.component_size, s.entry_count, s.src_stride] {
        w.u16(v);
    }
    w.u8(s.dst_stride);
    w.u8(s.precision);
    if attribute {
        w.u16(s.invariant as u16);
        w.u16(s.offset);
    } else {
        w.u32(s.invariant);
        w.u16(s.offset);
        w.u16(s.parent.unwrap_or(0xffff));
    }
    s.children.iter().for_each(|k| write_node(k, w));
}
