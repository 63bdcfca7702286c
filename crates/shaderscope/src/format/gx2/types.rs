//! The GX2 enumerations a shader struct stores, as open enums: a value the SDK does not name is
//! kept and shown as a number, never refused. Names are the Cafe SDK's (as gshCompile prints
//! them in its `-oh` header dumps, and as wut and decaf-emu spell them): `GX2_VAR_TYPE_VEC4`,
//! `GX2_SAMPLER_TYPE_2D`, `GX2_SHADER_MODE_UNIFORM_BLOCK`.
//!
//! ```
//! use shaderscope::format::gx2::{SamplerType, ShaderMode, VarType};
//!
//! assert_eq!(VarType(11).to_string(), "GX2_VAR_TYPE_VEC4");
//! assert_eq!((VarType(29).registers(), VarType(11).registers()), (Some(4), Some(1)));
//! assert_eq!(SamplerType(13).name(), Some("GX2_SAMPLER_TYPE_CUBE_ARRAY"));
//! assert_eq!(ShaderMode(1).to_string(), "GX2_SHADER_MODE_UNIFORM_BLOCK");
//! // Unknown values are shown, not rejected.
//! assert_eq!(VarType(99).to_string(), "unknown (99)");
//! ```

use serde::{Serialize, Serializer};
use std::fmt;

/// Formats an open enum: its SDK name, or `unknown (N)`.
fn show(name: Option<&str>, value: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match name {
        Some(n) => f.write_str(n),
        None => write!(f, "unknown ({value})"),
    }
}

macro_rules! open_enum {
    ($(#[$doc:meta])* $name:ident, $table:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $name(pub u32);

        impl $name {
            /// The SDK name of the value, when it has one.
            pub fn name(self) -> Option<&'static str> {
                usize::try_from(self.0).ok().and_then(|i| $table.get(i)).copied().filter(|n| !n.is_empty())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                show(self.name(), self.0, f)
            }
        }

        /// In JSON: the name, or `unknown (N)` (the number is beside it in `*_value` fields).
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
    };
}

const SHADER_MODES: [&str; 4] = [
    "GX2_SHADER_MODE_UNIFORM_REGISTER",
    "GX2_SHADER_MODE_UNIFORM_BLOCK",
    "GX2_SHADER_MODE_GEOMETRY_SHADER",
    "GX2_SHADER_MODE_COMPUTE_SHADER",
];

open_enum!(
    /// `GX2ShaderMode`: how the shader reads its uniforms (the constant file or uniform
    /// blocks), or that it runs with a geometry shader or as a compute shader.
    ShaderMode,
    SHADER_MODES
);

const VAR_TYPES: [&str; 39] = [
    "GX2_VAR_TYPE_VOID",
    "GX2_VAR_TYPE_BOOL",
    "GX2_VAR_TYPE_INT",
    "GX2_VAR_TYPE_UINT",
    "GX2_VAR_TYPE_FLOAT",
    "GX2_VAR_TYPE_DOUBLE",
    "GX2_VAR_TYPE_DVEC2",
    "GX2_VAR_TYPE_DVEC3",
    "GX2_VAR_TYPE_DVEC4",
    "GX2_VAR_TYPE_VEC2",
    "GX2_VAR_TYPE_VEC3",
    "GX2_VAR_TYPE_VEC4",
    "GX2_VAR_TYPE_BVEC2",
    "GX2_VAR_TYPE_BVEC3",
    "GX2_VAR_TYPE_BVEC4",
    "GX2_VAR_TYPE_IVEC2",
    "GX2_VAR_TYPE_IVEC3",
    "GX2_VAR_TYPE_IVEC4",
    "GX2_VAR_TYPE_UVEC2",
    "GX2_VAR_TYPE_UVEC3",
    "GX2_VAR_TYPE_UVEC4",
    "GX2_VAR_TYPE_MAT2",
    "GX2_VAR_TYPE_MAT2X3",
    "GX2_VAR_TYPE_MAT2X4",
    "GX2_VAR_TYPE_MAT3X2",
    "GX2_VAR_TYPE_MAT3",
    "GX2_VAR_TYPE_MAT3X4",
    "GX2_VAR_TYPE_MAT4X2",
    "GX2_VAR_TYPE_MAT4X3",
    "GX2_VAR_TYPE_MAT4",
    "GX2_VAR_TYPE_DMAT2",
    "GX2_VAR_TYPE_DMAT2X3",
    "GX2_VAR_TYPE_DMAT2X4",
    "GX2_VAR_TYPE_DMAT3X2",
    "GX2_VAR_TYPE_DMAT3",
    "GX2_VAR_TYPE_DMAT3X4",
    "GX2_VAR_TYPE_DMAT4X2",
    "GX2_VAR_TYPE_DMAT4X3",
    "GX2_VAR_TYPE_DMAT4",
];

open_enum!(
    /// `GX2VarType` (decaf: `GX2ShaderVarType`): the type of a uniform or attribute variable.
    VarType,
    VAR_TYPES
);

impl VarType {
    /// How many four-component registers (16 bytes of a uniform block) one element takes:
    /// one for a scalar or vector, one per column for a matrix; `None` for VOID, the double
    /// types (whose packing the SDK does not document) and unknown values.
    pub fn registers(self) -> Option<u32> {
        Some(match self.0 {
            1..=4 | 9..=20 => 1,
            21..=23 => 2,
            24..=26 => 3,
            27..=29 => 4,
            _ => return None,
        })
    }
}

const SAMPLER_TYPES: [&str; 43] = [
    "GX2_SAMPLER_TYPE_1D",
    "GX2_SAMPLER_TYPE_2D",
    "GX2_SAMPLER_TYPE_2D_RECT",
    "GX2_SAMPLER_TYPE_3D",
    "GX2_SAMPLER_TYPE_CUBE",
    "GX2_SAMPLER_TYPE_1D_SHADOW",
    "GX2_SAMPLER_TYPE_2D_SHADOW",
    "GX2_SAMPLER_TYPE_2D_RECT_SHADOW",
    "GX2_SAMPLER_TYPE_CUBE_SHADOW",
    "GX2_SAMPLER_TYPE_1D_ARRAY",
    "GX2_SAMPLER_TYPE_2D_ARRAY",
    "GX2_SAMPLER_TYPE_1D_ARRAY_SHADOW",
    "GX2_SAMPLER_TYPE_2D_ARRAY_SHADOW",
    "GX2_SAMPLER_TYPE_CUBE_ARRAY",
    "GX2_SAMPLER_TYPE_CUBE_ARRAY_SHADOW",
    "GX2_SAMPLER_TYPE_BUFFER",
    "GX2_SAMPLER_TYPE_RESERVED_1",
    "GX2_SAMPLER_TYPE_2D_MS",
    "GX2_SAMPLER_TYPE_2D_MS_ARRAY",
    "GX2_SAMPLER_TYPE_INT_1D",
    "GX2_SAMPLER_TYPE_INT_2D",
    "GX2_SAMPLER_TYPE_INT_2D_RECT",
    "GX2_SAMPLER_TYPE_INT_3D",
    "GX2_SAMPLER_TYPE_INT_CUBE",
    "GX2_SAMPLER_TYPE_INT_1D_ARRAY",
    "GX2_SAMPLER_TYPE_INT_2D_ARRAY",
    "GX2_SAMPLER_TYPE_INT_CUBE_ARRAY",
    "GX2_SAMPLER_TYPE_INT_BUFFER",
    "GX2_SAMPLER_TYPE_RESERVED_2",
    "GX2_SAMPLER_TYPE_INT_2D_MS",
    "GX2_SAMPLER_TYPE_INT_2D_MS_ARRAY",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_1D",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_2D",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_2D_RECT",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_3D",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_CUBE",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_1D_ARRAY",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_2D_ARRAY",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_CUBE_ARRAY",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_BUFFER",
    "GX2_SAMPLER_TYPE_RESERVED_3",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_2D_MS",
    "GX2_SAMPLER_TYPE_UNSIGNED_INT_2D_MS_ARRAY",
];

open_enum!(
    /// `GX2SamplerType` (decaf: `GX2SamplerVarType`, which names only 1D, 2D, 3D and CUBE;
    /// real files use more, e.g. 2D_ARRAY and CUBE_ARRAY).
    SamplerType,
    SAMPLER_TYPES
);

/// The `GX2RResourceFlags` bits of a [`RBuffer`](super::RBuffer), by bit number (decaf-emu's
/// names; empty where no bit is defined).
const RESOURCE_FLAGS: [&str; 31] = [
    "BindTexture",
    "BindColorBuffer",
    "BindDepthBuffer",
    "BindScanBuffer",
    "BindVertexBuffer",
    "BindIndexBuffer",
    "BindUniformBlock",
    "BindShaderProgram",
    "BindStreamOutput",
    "BindDisplayList",
    "BindGSRing",
    "UsageCpuRead",
    "UsageCpuWrite",
    "UsageGpuRead",
    "UsageGpuWrite",
    "UsageDmaRead",
    "UsageDmaWrite",
    "UsageForceMEM1",
    "UsageForceMEM2",
    "",
    "DisableCpuInvalidate",
    "DisableGpuInvalidate",
    "LockedReadOnly",
    "DestroyNoFree",
    "",
    "",
    "",
    "",
    "",
    "Gx2rAllocated",
    "Locked",
];

/// The names of the `GX2RResourceFlags` bits set in `flags`, `|`-separated (`0` when none;
/// an undefined bit as `bitN`).
pub fn resource_flags_text(flags: u32) -> String {
    if flags == 0 {
        return "0".to_string();
    }
    let mut v: Vec<String> = Vec::new();
    for bit in 0..32u32 {
        if flags & (1 << bit) != 0 {
            match RESOURCE_FLAGS.get(bit as usize).filter(|n| !n.is_empty()) {
                Some(n) => v.push((*n).to_string()),
                None => v.push(format!("bit{bit}")),
            }
        }
    }
    v.join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_sdk_and_unknown_values_show() {
        assert_eq!(VarType(0).to_string(), "GX2_VAR_TYPE_VOID");
        assert_eq!(VarType(38).to_string(), "GX2_VAR_TYPE_DMAT4");
        assert_eq!(VarType(39).name(), None);
        assert_eq!(SamplerType(42).to_string(), "GX2_SAMPLER_TYPE_UNSIGNED_INT_2D_MS_ARRAY");
        assert_eq!(SamplerType(u32::MAX).to_string(), format!("unknown ({})", u32::MAX));
        assert_eq!(ShaderMode(3).to_string(), "GX2_SHADER_MODE_COMPUTE_SHADER");
        assert_eq!(serde_json::to_string(&VarType(9)).unwrap(), "\"GX2_VAR_TYPE_VEC2\"");
        assert_eq!(resource_flags_text(0x2080), "BindShaderProgram|UsageGpuRead");
        assert_eq!(resource_flags_text(1 << 19), "bit19");
    }

    #[test]
    fn register_counts_of_matrices() {
        assert_eq!(VarType(25).registers(), Some(3));
        assert_eq!(VarType(22).registers(), Some(2));
        assert_eq!(VarType(0).registers(), None);
    }
}
