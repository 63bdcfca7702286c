//! One program variation's shaders as a GFD `.gsh` file: the form decaf-emu's tools, Cemu-era
//! tooling and GX2 itself load, so that a shader can move from an AGL archive to the tools
//! that know only `.gsh` (and, edited, back). The GX2 structs are the archive's, read in its
//! byte order and written big-endian by [`gfd::build::Builder`] with GFD's tagged pointers;
//! the microcode is copied as it is (both containers keep it in the GPU's byte order).

use super::Sharcfb;
use super::variant::{Resolved, VariantError};
use crate::format::gfd;

impl Sharcfb {
    /// The GFD file of the shaders program `program` resolves to with the macros set as `set`
    /// says (see [`Sharcfb::resolve`]): VS, PS and (when the program has one) GS, each with
    /// its microcode (and a geometry shader's copy program), in that order. Also returns the
    /// variation it picked.
    pub fn gsh(&self, program: &str, set: &[(String, String)]) -> Result<(Resolved, Vec<u8>), VariantError> {
        let resolved = self.resolve(program, set)?;
        let broken = VariantError::Broken;
        let mut shaders = Vec::new();
        for r in &resolved.binaries {
            let Some(b) = usize::try_from(r.index).ok().and_then(|i| self.binaries.items.get(i)) else {
                continue; // resolve only names binaries that exist
            };
            let g = b.gx2(self.endian).map_err(broken)?;
            let program = b.program(&g, false).map_err(broken)?.map_or(&[][..], |(code, _)| code);
            let copy = b.program(&g, true).map_err(broken)?.map_or(&[][..], |(code, _)| code);
            shaders.push((g, program, copy));
        }
        let mut builder = gfd::build::Builder::new();
        for (g, program, copy) in &shaders {
            builder.push(g, program, copy);
        }
        let bytes = builder.finish().map_err(broken)?;
        Ok((resolved, bytes))
    }

    /// The size of the GFD file [`Sharcfb::gsh`] writes for each program's default variation
    /// (`None` where it fails), without writing them: what a binary adds is worked out once,
    /// however many programs take it (writing each program's file for the part list cost
    /// programs × their binaries, quadratic when many programs share large binaries).
    pub fn default_gsh_sizes(&self) -> Vec<Option<u64>> {
        let mut each: std::collections::HashMap<u64, Option<u64>> = std::collections::HashMap::new();
        let mut binary_size = |index: u64| -> Option<u64> {
            *each.entry(index).or_insert_with(|| {
                let b = self.binaries.items.get(usize::try_from(index).ok()?)?;
                let g = b.gx2(self.endian).ok()?;
                let program = b.program(&g, false).ok()?.map_or(0, |(code, _)| code.len());
                let copy = b.program(&g, true).ok()?.map_or(0, |(code, _)| code.len());
                gfd::build::shader_size(&g, program, copy).ok()
            })
        };
        (0..self.programs.items.len())
            .map(|i| {
                let r = self.resolve_index(i, &[]).ok()?;
                r.binaries
                    .iter()
                    .try_fold(gfd::build::EMPTY_SIZE, |total, b| total.checked_add(binary_size(b.index)?))
            })
            .collect()
    }
}
