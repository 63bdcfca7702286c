//! Building DVLBs in code. A [`Dvlb`] built here has no recorded layout, so
//! [`Dvlb::write`] lays it out the way picasso does. The README's sample files come from
//! [`example_vertex_shader`].
//!
//! ```
//! use shaderscope::format::shbin::{Dvlb, build, tables::UniformEntry};
//!
//! let mut dvlb = build::example_vertex_dvlb();
//! assert!(dvlb.layout.is_none());
//! assert_eq!(dvlb.write()?, build::example_vertex_shader());
//!
//! // One more uniform, `tint` on c4 (0x10 is c0 in the unified register numbering).
//! let dvle = std::sync::Arc::make_mut(&mut dvlb.dvles[0]);
//! let name = dvle.add_symbol("tint");
//! dvle.uniforms.push(UniformEntry { name_offset: name, first: 0x14, last: 0x14 });
//! let back = Dvlb::parse(&dvlb.write()?)?;
//! let uniforms = back.dvles[0].names().uniforms;
//! assert_eq!((uniforms[1].name.as_str(), uniforms[1].registers()), ("tint", "c4".to_string()));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::dvlb::{Dvlb, Dvle, Dvlp};
use super::tables::{ConstantEntry, OutputEntry, UniformEntry};

impl Dvle {
    /// Append `name` to the symbol table and return its offset.
    pub fn add_symbol(&mut self, name: &str) -> u32 {
        let at = self.symbols.len() as u32;
        self.symbols.extend_from_slice(name.as_bytes());
        self.symbols.push(0);
        at
    }
}

/// A vertex shader in the style of devkitPro's examples: `mov r0.xyz, v0; mov r0.w, ones;`
/// four `dp4` into the position output against a 4×4 `projection` uniform, the colour passed
/// through, `end`. One DVLE, picasso layout.
pub fn example_vertex_shader() -> Vec<u8> {
    example_vertex_dvlb().write().unwrap_or_default()
}

/// The model behind [`example_vertex_shader`].
pub fn example_vertex_dvlb() -> Dvlb {
    // Format-1 words: opcode[31:26] dst[25:21] idx[20:19] src1[18:12] src2[11:7] desc[6:0].
    let fmt1 = |op: u32, dst: u32, src1: u32, src2: u32, desc: u32| {
        op << 26 | dst << 21 | src1 << 12 | src2 << 7 | desc
    };
    const MOV: u32 = 0x13;
    const DP4: u32 = 0x02;
    const END: u32 = 0x22;
    const R0: u32 = 0x10;
    const C: u32 = 0x20; // c0 in a 7-bit source field
    // Operand descriptors: write mask [3:0] (bit 3 = x), src1 swizzle [12:5], src2 [21:14].
    let identity = 0x1b;
    let desc = |mask: u32, s1: u32| mask | s1 << 5 | identity << 14;
    let code = vec![
        fmt1(MOV, R0, 0x00, 0, 0),     // mov r0.xyz, v0
        fmt1(MOV, R0, C + 95, 0, 1),   // mov r0.w, ones (c95.yyyy)
        fmt1(DP4, 0x00, C, R0, 2),     // dp4 outpos.x, projection[0], r0
        fmt1(DP4, 0x00, C + 1, R0, 3), // dp4 outpos.y, projection[1], r0
        fmt1(DP4, 0x00, C + 2, R0, 4), // dp4 outpos.z, projection[2], r0
        fmt1(DP4, 0x00, C + 3, R0, 5), // dp4 outpos.w, projection[3], r0
        fmt1(MOV, 0x01, 0x01, 0, 6),   // mov outclr, v1
        END << 26,                     // end
    ];
    let opdescs = vec![
        desc(0b1110, identity),
        desc(0b0001, 0x55), // .yyyy
        desc(0b1000, identity),
        desc(0b0100, identity),
        desc(0b0010, identity),
        desc(0b0001, identity),
        desc(0b1111, identity),
    ];
    let mut dvle = Dvle {
        version: 0x1002,
        main: 0,
        endmain: code.len() as u32,
        input_mask: 0b11,
        output_mask: 0b11,
        ..Dvle::default()
    };
    // .constf myconst(0.0, 1.0, -1.0, 0.1): float24 bit patterns (picasso truncates).
    dvle.constants.push(ConstantEntry {
        kind: 2,
        register: 95,
        payload: [0x000000, 0x3f0000, 0xbf0000, 0x3b9999],
    });
    dvle.outputs.push(OutputEntry { semantic: 0, register: 0, mask: 0xf, pad: 0 });
    dvle.outputs.push(OutputEntry { semantic: 2, register: 1, mask: 0xf, pad: 0 });
    let name = dvle.add_symbol("projection");
    dvle.uniforms.push(UniformEntry { name_offset: name, first: 0x10, last: 0x13 });
    Dvlb {
        dvlp: Dvlp { code, opdescs: opdescs.into_iter().map(|d| [d, 0]).collect(), ..Dvlp::default() },
        dvles: vec![std::sync::Arc::new(dvle)],
        layout: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_model_round_trips_in_picasso_layout() {
        let bytes = example_vertex_shader();
        // DVLB header (12) + DVLP header (0x28) + 8 words + 7 opdescs, then the DVLE.
        assert_eq!(&bytes[..4], b"DVLB");
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 0x0c + 0x28 + 32 + 56);
        let parsed = Dvlb::parse(&bytes).unwrap();
        assert_eq!(parsed.dvlp, example_vertex_dvlb().dvlp);
        assert_eq!(parsed.dvles, example_vertex_dvlb().dvles);
        assert_eq!(parsed.write().unwrap(), bytes);
    }
}
