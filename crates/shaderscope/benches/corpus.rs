//! Throughput over the shared corpus (placeholder until the formats land).
fn main() {}
