//! Containers: one module per file format. Each parses into a view/model, writes it back, and
//! implements [`crate::Container`].

pub mod d3d9;
pub mod shbin;
