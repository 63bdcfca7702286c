//! Inputs built in memory for the tests of damaged and hostile files: a small SM4 program,
//! and tables that name one structure many times.
#![allow(dead_code)]

/// The example DVLB (header of 12 bytes: one DVLE offset) with its DVLE table grown to `n`
/// entries that all point at the one DVLE. The DVLP's and DVLE's own offsets are relative to
/// their headers, so only the DVLE offset moves.
pub fn repeated_dvle(n: u32) -> Vec<u8> {
    let one = shaderscope::shbin::build::example_vertex_shader();
    let old = u32::from_le_bytes(one[8..12].try_into().unwrap());
    let at = old + 4 * (n - 1);
    let mut v = b"DVLB".to_vec();
    v.extend(n.to_le_bytes());
    for _ in 0..n {
        v.extend(at.to_le_bytes());
    }
    v.extend(&one[12..]);
    v
}

/// `ps_4_0` copying its interpolated colour to the output (14 tokens).
pub fn shdr() -> Vec<u8> {
    let tokens: [u32; 14] = [
        0x0000_0040,
        14,
        0x0300_1062,
        0x0010_10f2,
        0,
        0x0300_0065,
        0x0010_20f2,
        0,
        0x0500_0036,
        0x0010_20f2,
        0,
        0x0010_1e46,
        0,
        0x0100_003e,
    ];
    tokens.iter().flat_map(|t| t.to_le_bytes()).collect()
}

/// A DXBC whose chunk index has `n` entries that all point at its one SHDR chunk.
pub fn repeated_chunk(n: u32) -> Vec<u8> {
    let mut b = shaderscope::format::dxbc::write::Builder::new();
    b.push(*b"SHDR", shdr());
    let one = b.finish().unwrap();
    let chunk = &one[36..];
    let at = 32 + 4 * n;
    let mut v = one[..24].to_vec();
    v.extend((at + chunk.len() as u32).to_le_bytes());
    v.extend(n.to_le_bytes());
    for _ in 0..n {
        v.extend(at.to_le_bytes());
    }
    v.extend(chunk);
    v
}
