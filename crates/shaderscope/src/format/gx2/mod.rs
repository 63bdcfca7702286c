//! Wii U GX2 shaders. This branch carries only [`cemu_hash`]; the GX2 struct reader and the
//! GFD container live beside it on the branch that owns this module.

pub mod cemu_hash;
