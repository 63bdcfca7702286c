//! MBS files built from a model in code, for examples, tests and the shipped samples
//! (`samples/vertex.mbs`, `samples/fragment.mbs`): the writer computes every chunk size.
//!
//! ```
//! use shaderscope::format::mbs::{Mbs, build};
//!
//! let bytes = build::example_fragment_shader();
//! let mbs = Mbs::parse(&bytes)?;
//! let shader = mbs.shader().unwrap();
//! assert_eq!(shader.core_name(), Some("MALI_400_PP"));
//! let color = shader.table(*b"SVAR").unwrap().symbols().next().unwrap();
//! assert_eq!(shaderscope::format::mbs::glsl_type(color), "vec4");
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::{Body, Mbs, Node, Shader, Symbol, SymbolType, Table};
use crate::isa::mali_gp::Instr;
use std::borrow::Cow;

/// The three `VIDX` words as libMali and lima_compiler write them (IGRD 1: lima_compiler's).
fn vidx<'a>(igrd: u32) -> Node<'a> {
    Node::new(
        *b"VIDX",
        Body::Chunks(vec![
            Node::new(*b"ITDR", Body::Word(u32::MAX)),
            Node::new(*b"IYUV", Body::Word(u32::MAX)),
            Node::new(*b"IGRD", Body::Word(igrd)),
        ]),
    )
}

fn table<'a>(tag: [u8; 4], total_slots: Option<u32>, symbols: Vec<(&'a [u8; 4], Symbol<'a>)>) -> Node<'a> {
    let count = symbols.len() as u32;
    let children = symbols.into_iter().map(|(t, s)| Node::new(*t, Body::Symbol(Box::new(s)))).collect();
    Node::new(tag, Body::Table(Table { count, total_slots, children }))
}

/// Two GP instructions: the first moves attribute 0 (`position`) to varying 0
/// (`gl_Position`), its x and y through the two adders (`add` with `-0`: a move), z and w
/// through the two multipliers (times 1), stored by both store units; the second is idle.
/// Encoded field by field with the Mali GP disassembler's own [`Instr`].
fn gp_code() -> Vec<u8> {
    let idle = Instr::idle();
    // Sources 0–3: the register-0 port's x–w (here attribute 0); 22 as a second source: the
    // identity (0 for an adder, negated to make a move; 1 for a multiplier).
    let copy = Instr {
        register0_attribute: 1,
        register0_addr: 0,
        acc0_src0: 0,
        acc0_src1: 22,
        acc0_src1_neg: 1,
        acc1_src0: 1,
        acc1_src1: 22,
        acc1_src1_neg: 1,
        mul0_src0: 2,
        mul0_src1: 22,
        mul1_src0: 3,
        mul1_src1: 22,
        // Store sources: 0 acc0, 1 acc1, 2 mul0, 3 mul1; both stores to varying 0.
        store0_src_x: 0,
        store0_src_y: 1,
        store0_varying: 1,
        store1_src_z: 2,
        store1_src_w: 3,
        store1_varying: 1,
        ..idle
    };
    [copy, idle].iter().flat_map(|i| i.encode().to_le_bytes()).collect()
}

/// A Mali-400 vertex shader (`CVER` version 6): uniforms `mvp` (mat4) and
/// `gl_mali_ViewportTransform` (`vec4[2]`) and a constant with an initial value, attribute
/// `position`, varying `gl_Position`, and two GP instructions of code (the first moves
/// `position` to `gl_Position`), laid out as lima_compiler lays them.
pub fn example_vertex_shader() -> Vec<u8> {
    let mvp = Symbol::new("mvp", SymbolType::MATRIX, 4, 4, 0);
    let mvp = Symbol { entry_count: 0, src_stride: 16, ..mvp };
    let mut viewport = Symbol::new("gl_mali_ViewportTransform", SymbolType::FLOAT, 4, 4, 16);
    viewport.entry_count = 2;
    let mut constant = Symbol::new("?__maligp2_constant_000", SymbolType::FLOAT, 1, 4, 24);
    let mut uniforms = vec![mvp, viewport];
    for u in &mut uniforms {
        u.children.push(vidx(1));
    }
    constant.children.push(vidx(1));
    constant.children.push(Node::new(*b"VINI", Body::Vini(vec![1.0f32.to_bits()])));
    uniforms.push(constant);
    let position = Symbol { parent: None, ..Symbol::new("position", SymbolType::FLOAT, 4, 4, 0) };
    let gl_position = Symbol::new("gl_Position", SymbolType::FLOAT, 4, 4, 0);
    let shader = Shader {
        version: 6,
        children: vec![
            Node::new(*b"FINS", Body::Fins { unknown_0: 0, instructions: 2, attrib_prefetch: 1 }),
            table(*b"SUNI", Some(24), uniforms.into_iter().map(|s| (b"VUNI", s)).collect()),
            table(*b"SATT", None, vec![(b"VATT", position)]),
            table(*b"SVAR", None, vec![(b"VVAR", gl_position)]),
            Node::new(*b"DBIN", Body::Code(Cow::Owned(gp_code()))),
        ],
    };
    let root = Node::new(*b"MBS1", Body::Chunks(vec![Node::new(*b"CVER", Body::Shader(shader))]));
    Mbs::from_root(root).write_model()
}

/// A Mali-400 fragment shader (`CFRA` version 7) that writes its varying `color`: FSTA, FDIS,
/// FBUU as every compiler writes them, an empty uniform table, and one PP instruction that
/// loads the varying into `$0` (the colour the fragment ends with) and stops.
pub fn example_fragment_shader() -> Vec<u8> {
    let color = Symbol { precision: 2, ..Symbol::new("color", SymbolType::FLOAT, 4, 4, 0) };
    // PP: the control word (count 3 words, stop at bit 5, the varying unit at bit 7), then
    // the varying field's 34 bits: vec4 alignment 2 (bits 5–6), no offset register 15 (bits
    // 10–13), index 0, destination $0, mask xyzw (bits 28–31).
    let words = [3u32 | 1 << 5 | 1 << 7, 2 << 5 | 0xf << 10 | 0xf << 28, 0];
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let shader = Shader {
        version: 7,
        children: vec![
            Node::new(*b"FSTA", Body::Fsta { stack_size: 1, stack_offset: 1 }),
            Node::new(*b"FDIS", Body::Fdis { discard: 0 }),
            Node::new(*b"FBUU", Body::Fbuu([0, 1, 0, 0, 0, 0, 0, 0])),
            table(*b"SUNI", Some(0), Vec::new()),
            table(*b"SVAR", None, vec![(b"VVAR", color)]),
            Node::new(*b"DBIN", Body::Code(Cow::Owned(code))),
        ],
    };
    let root = Node::new(*b"MBS1", Body::Chunks(vec![Node::new(*b"CFRA", Body::Shader(shader))]));
    Mbs::from_root(root).write_model()
}
