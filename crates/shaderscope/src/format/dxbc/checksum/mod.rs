//! The DXBC container checksum.
//!
//! DXBC stores at bytes 4..20 an MD5 variant over everything after the checksum field
//! (offset 20 to the end of the container). It runs MD5's compression function with the
//! standard initial state over every full 64-byte block, but pads the tail its own way:
//!
//! * with `r = len % 64` trailing bytes and `B = len * 8` (the bit count, truncated to 32 bits):
//!   - if `r < 56`, one last block `B (LE u32) ‖ tail ‖ 0x80 ‖ zeros ‖ (B >> 2) | 1 (LE u32)`;
//!   - otherwise `tail ‖ 0x80 ‖ zeros` as one block, then a block of zeros whose first word is `B`
//!     and whose last word is `(B >> 2) | 1`.
//!
//! The four state words, little-endian, are the 16 checksum bytes.
//!
//! [`compute`] hashes one container; [`compute_many`] hashes many side by side (a parsed
//! [`Dxbc`](super::Dxbc) hashes itself once, when a listing, a summary or a check first asks).
//!
//! ```
//! use shaderscope::format::dxbc::{checksum, write::Builder};
//!
//! let mut b = Builder::new();
//! b.push(*b"STAT", vec![0u8; 4 * 37]);
//! let bytes = b.finish()?;
//! // The writer stores the checksum of what follows the field in bytes 4..20.
//! let sum = checksum::compute(&bytes);
//! assert_eq!(bytes[4..20], sum);
//! assert_eq!(sum, checksum::digest(&bytes[checksum::HASHED_FROM..]));
//! // Unlike MD5 (d41d8cd9…), the empty body hashes to:
//! assert_eq!(checksum::hex(&checksum::digest(b"")), "140d60f6b775e2ba4e4abed401b2e9a1");
//! // A batch of files of any format: the DXBC containers among them hashed side by side.
//! assert_eq!(checksum::compute_where_dxbc(&[&bytes, b"DVLB"]), [Some(sum), None]);
//! # Ok::<(), shaderscope::Error>(())
//! ```

use md5::block_api::compress;

mod many;
pub use many::{compute_many, compute_where_dxbc};

/// Offset of the first byte covered by the checksum (everything after the checksum field).
pub const HASHED_FROM: usize = 20;

const INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// The checksum of a whole container (`data` starts with `DXBC`); bytes before offset 20 are
/// not hashed. A container shorter than 20 bytes hashes as empty.
pub fn compute(data: &[u8]) -> [u8; 16] {
    digest(data.get(HASHED_FROM..).unwrap_or(&[]))
}

/// The DXBC hash of `body` (the bytes after the checksum field).
pub fn digest(body: &[u8]) -> [u8; 16] {
    let mut state = INIT;
    let whole = body.len() / 64 * 64;
    let (head, tail) = body.split_at(whole);
    // Zero-copy view of the full blocks (alignment 1, exact length), compressed in one call.
    if let Ok(blocks) = <[[u8; 64]] as zerocopy::FromBytes>::ref_from_bytes(head) {
        compress(&mut state, blocks);
    }
    let (last, n) = final_blocks(tail, body.len());
    compress(&mut state, last.get(..n).unwrap_or(&[]));
    let mut out = [0u8; 16];
    for (dst, word) in out.chunks_exact_mut(4).zip(state) {
        dst.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// The final one or two blocks of the DXBC padding of a body whose last partial block is
/// `tail` (fewer than 64 bytes) and whose length is `len` bytes.
fn final_blocks(tail: &[u8], len: usize) -> ([[u8; 64]; 2], usize) {
    let bits = (len as u32).wrapping_mul(8);
    let last_word = ((bits >> 2) | 1).to_le_bytes();
    let mut blocks = [[0u8; 64]; 2];
    let [first, second] = &mut blocks;
    if tail.len() < 56 {
        put(first, 0, &bits.to_le_bytes());
        put(first, 4, tail);
        put(first, 4 + tail.len(), &[0x80]);
        put(first, 60, &last_word);
        (blocks, 1)
    } else {
        put(first, 0, tail);
        put(first, tail.len(), &[0x80]);
        put(second, 0, &bits.to_le_bytes());
        put(second, 60, &last_word);
        (blocks, 2)
    }
}

fn put(block: &mut [u8; 64], at: usize, bytes: &[u8]) {
    if let Some(dst) = block.get_mut(at..at + bytes.len()) {
        dst.copy_from_slice(bytes);
    }
}

/// Lowercase hex of a checksum, as `info` and `checksum` print it.
pub fn hex(sum: &[u8; 16]) -> String {
    crate::print::hex_bytes(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + 3) as u8).collect()
    }

    /// Expected values come from an independent implementation (a from-scratch MD5 compression
    /// function in Python with the padding described in the module docs, which also reproduces
    /// MD5("") and the stored checksum of fxc-written containers).
    #[test]
    fn both_padding_branches_match_an_independent_implementation() {
        let cases = [
            (0, "140d60f6b775e2ba4e4abed401b2e9a1"),
            (3, "94e703e0caba57481a00ccb28fa8c16c"),
            (55, "9ab63592763f16cbf9faadc10871b3dc"),
            (56, "9631e575809c7fec27e1a79c6dbf0704"),
            (63, "69c87038086b06ae036a445580d52800"),
            (64, "702b2563302d9691eda44cda5fef4b68"),
            (100, "3c434ad9bed672b53f54445717861ab4"),
            (200, "5b549f280f46bcd28c57cf76172e3ba5"),
        ];
        for (n, want) in cases {
            assert_eq!(hex(&digest(&body(n))), want, "length {n}");
        }
    }

    #[test]
    fn the_checksum_field_itself_is_not_hashed() {
        let mut a = vec![0u8; 20];
        a.extend(body(40));
        let mut b = a.clone();
        b[4..20].fill(0xEE);
        assert_eq!(compute(&a), compute(&b));
        assert_eq!(compute(&a), digest(&body(40)));
        assert_eq!(compute(&[1, 2, 3]), digest(&[]));
    }
}
