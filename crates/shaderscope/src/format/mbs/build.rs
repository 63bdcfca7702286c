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

/// `n` GP instructions in which every unit is idle: each multiply and add source is 21
/// (unused), each store takes its value from 7 (none), the complex and pass units have no
/// operation and read 21.
fn gp_code(n: usize) -> Vec<u8> {
    let unused = 21u32;
    let w0 = unused | unused << 5 | unused << 10 | unused << 15 | unused << 22 | unused << 27;
    let w1 = unused | unused << 5;
    let w2 = 0xfff << 7;
    let w3 = unused << 10 | unused << 15;
    [w0, w1, w2, w3].iter().cycle().take(4 * n).flat_map(|w| w.to_le_bytes()).collect()
}

/// A Mali-400 vertex shader (`CVER` version 6): uniforms `mvp` (mat4) and
/// `gl_mali_ViewportTransform` (`vec4[2]`) and a constant with an initial value, attribute
/// `position`, varying `gl_Position`, and two GP instructions of code, laid out as
/// lima_compiler lays them.
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
            Node::new(*b"DBIN", Body::Code(Cow::Owned(gp_code(2)))),
        ],
    };
    let root = Node::new(*b"MBS1", Body::Chunks(vec![Node::new(*b"CVER", Body::Shader(shader))]));
    Mbs::from_root(root).write_model()
}

/// A Mali-400 fragment shader (`CFRA` version 7) that writes its varying `color`: FSTA, FDIS,
/// FBUU as every compiler writes them, an empty uniform table, and one PP instruction that
/// only stops.
pub fn example_fragment_shader() -> Vec<u8> {
    let color = Symbol { precision: 2, ..Symbol::new("color", SymbolType::FLOAT, 4, 4, 0) };
    // PP: one instruction that is its control word alone: count 1, stop (bit 5), no units.
    let code: Vec<u8> = (1u32 | 1 << 5).to_le_bytes().to_vec();
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
