//! Lossless placement: a file is written as a list of pieces (offset, encoded bytes) plus
//! the filler, the runs of input bytes no piece covers. Parsing computes the filler from the
//! same pieces that writing uses, so an unmodified parse always writes back identically.

/// Bytes of `data[..size]` that no piece covers, as (offset, bytes) runs.
pub fn filler(data: &[u8], size: usize, pieces: &[(usize, Vec<u8>)]) -> Vec<(u32, Vec<u8>)> {
    let size = size.min(data.len());
    let mut claimed = vec![false; size];
    for (at, bytes) in pieces {
        let end = at.saturating_add(bytes.len()).min(size);
        if let Some(c) = claimed.get_mut((*at).min(end)..end) {
            c.fill(true);
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < size {
        if claimed.get(i) == Some(&false) {
            let start = i;
            while claimed.get(i) == Some(&false) {
                i += 1;
            }
            out.push((start as u32, data.get(start..i).unwrap_or(&[]).to_vec()));
        } else {
            i += 1;
        }
    }
    out
}

/// A buffer of `size` bytes (grown if a piece reaches further) with every piece and filler run
/// copied in.
pub fn assemble(size: usize, pieces: &[(usize, Vec<u8>)], filler: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut buf = vec![0u8; size];
    let mut put = |at: usize, bytes: &[u8]| {
        let end = at + bytes.len();
        if buf.len() < end {
            buf.resize(end, 0);
        }
        if let Some(dst) = buf.get_mut(at..end) {
            dst.copy_from_slice(bytes);
        }
    };
    for (at, b) in pieces {
        put(*at, b);
    }
    for (at, b) in filler {
        put(*at as usize, b);
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filler_is_what_pieces_leave_and_assembly_restores_it() {
        let data = b"ABCDEFGHIJ";
        let pieces = vec![(0, b"AB".to_vec()), (4, b"EF".to_vec()), (5, b"F".to_vec())];
        let f = filler(data, data.len(), &pieces);
        assert_eq!(f, vec![(2, b"CD".to_vec()), (6, b"GHIJ".to_vec())]);
        assert_eq!(assemble(data.len(), &pieces, &f), data.to_vec());
    }
}
