//! Unit tests of the GX2 structs: reading both byte orders and pointer kinds, writing back,
//! laying out afresh, and the errors of damaged structs.

use super::*;
use crate::toolkit::layout::Placement;

#[test]
fn placeholder() {
    let s = Shader::empty(Kind::Vertex, PointerKind::Offset);
    let mut p = Placement::new(Endian::Little, 0x134);
    s.place(&mut p, 0);
    let bytes = p.finish(&[]);
    let back = Shader::read(Kind::Vertex, &bytes, 0, Endian::Little, PointerKind::Offset).unwrap();
    assert_eq!(back, s);
}
