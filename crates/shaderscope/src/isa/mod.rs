//! Instruction sets: one module per ISA, each with one opcode table that drives decoding,
//! encoding and printing. An ISA never depends on a container.

pub mod d3d9;
pub mod pica;
pub mod sm4;
