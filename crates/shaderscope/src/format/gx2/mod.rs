//! Wii U GX2 shaders. This branch carries only [`cemu_hash`]; the GX2 struct reader and the
//! GFD container live beside it on the branch that owns this module.
//!
//! ```
//! use shaderscope::format::gx2::cemu_hash;
//!
//! // The program part of every Cemu base hash: two running hashes over the microcode words.
//! assert_eq!(cemu_hash::program_hashes(&[1, 0, 0, 0]), (8, 1 << 57));
//! ```

pub mod cemu_hash;
