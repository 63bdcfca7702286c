//! fxc's spellings of the enumerations inside tokens (resource dimensions, return types,
//! interpolation modes, system values, primitives, tessellator modes, flags) and of the
//! register files.
//! Each function takes the raw field value and returns `None` for values the format does not
//! define; the printer then shows the number.
//!
//! ```
//! use shaderscope::isa::sm4::names;
//!
//! assert_eq!(names::resource_dimension(3), Some("texture2d"));
//! assert_eq!(names::return_type(5), Some("float"));
//! assert_eq!(names::interpolation(4), Some("linear noperspective"));
//! assert_eq!(names::system_value(9), Some("is_front_face"));
//! // Values the format does not define.
//! assert_eq!((names::resource_dimension(13), names::return_type(0)), (None, None));
//! ```

use super::decode::operand_type as ot;

/// `D3D10_SB_RESOURCE_DIMENSION` as used in `dcl_resource_*`, `dcl_uav_typed_*` and
/// `_indexable(…)`.
pub fn resource_dimension(v: u32) -> Option<&'static str> {
    Some(match v {
        0 => "unknown",
        1 => "buffer",
        2 => "texture1d",
        3 => "texture2d",
        4 => "texture2dms",
        5 => "texture3d",
        6 => "texturecube",
        7 => "texture1darray",
        8 => "texture2darray",
        9 => "texture2dmsarray",
        10 => "texturecubearray",
        11 => "raw_buffer",
        12 => "structured_buffer",
        _ => return None,
    })
}

/// `D3D10_SB_RESOURCE_RETURN_TYPE`.
pub fn return_type(v: u32) -> Option<&'static str> {
    Some(match v {
        1 => "unorm",
        2 => "snorm",
        3 => "sint",
        4 => "uint",
        5 => "float",
        6 => "mixed",
        7 => "double",
        8 => "continued",
        9 => "unused",
        _ => return None,
    })
}

/// `D3D10_SB_INTERPOLATION_MODE` (0, undefined, prints nothing).
pub fn interpolation(v: u32) -> Option<&'static str> {
    Some(match v {
        0 => "",
        1 => "constant",
        2 => "linear",
        3 => "linear centroid",
        4 => "linear noperspective",
        5 => "linear noperspective centroid",
        6 => "linear sample",
        7 => "linear noperspective sample",
        _ => return None,
    })
}

/// The system values below this have names ([`system_value`]); those above none.
pub(crate) const SYSTEM_VALUES: u32 = 26;

/// `D3D10_SB_NAME` in `dcl_*_siv`/`_sgv`.
pub fn system_value(v: u32) -> Option<&'static str> {
    Some(match v {
        0 => "undefined",
        1 => "position",
        2 => "clip_distance",
        3 => "cull_distance",
        4 => "rendertarget_array_index",
        5 => "viewport_array_index",
        6 => "vertex_id",
        7 => "primitive_id",
        8 => "instance_id",
        9 => "is_front_face",
        10 => "sampleIndex",
        11 => "finalQuadUeq0EdgeTessFactor",
        12 => "finalQuadVeq0EdgeTessFactor",
        13 => "finalQuadUeq1EdgeTessFactor",
        14 => "finalQuadVeq1EdgeTessFactor",
        15 => "finalQuadUInsideTessFactor",
        16 => "finalQuadVInsideTessFactor",
        17 => "finalTriUeq0EdgeTessFactor",
        18 => "finalTriVeq0EdgeTessFactor",
        19 => "finalTriWeq0EdgeTessFactor",
        20 => "finalTriInsideTessFactor",
        21 => "finalLineDetailTessFactor",
        22 => "finalLineDensityTessFactor",
        23 => "barycentrics",
        24 => "shadingrate",
        25 => "cullprimitive",
        _ => return None,
    })
}

/// `D3D10_SB_PRIMITIVE` in `dcl_inputprimitive`.
pub fn primitive(v: u32) -> Option<&'static str> {
    const PATCHES: [&str; 32] = [
        "patch1", "patch2", "patch3", "patch4", "patch5", "patch6", "patch7", "patch8", "patch9", "patch10",
        "patch11", "patch12", "patch13", "patch14", "patch15", "patch16", "patch17", "patch18", "patch19",
        "patch20", "patch21", "patch22", "patch23", "patch24", "patch25", "patch26", "patch27", "patch28",
        "patch29", "patch30", "patch31", "patch32",
    ];
    Some(match v {
        1 => "point",
        2 => "line",
        3 => "triangle",
        6 => "lineadj",
        7 => "triangleadj",
        8..=39 => PATCHES.get((v - 8) as usize).copied()?,
        _ => return None,
    })
}

/// `D3D10_SB_PRIMITIVE_TOPOLOGY` in `dcl_outputtopology`.
pub fn topology(v: u32) -> Option<&'static str> {
    Some(match v {
        1 => "pointlist",
        2 => "linelist",
        3 => "linestrip",
        4 => "trianglelist",
        5 => "trianglestrip",
        10 => "linelist_adj",
        11 => "linestrip_adj",
        12 => "trianglelist_adj",
        13 => "trianglestrip_adj",
        _ => return None,
    })
}

/// `D3D11_SB_TESSELLATOR_DOMAIN`.
pub(crate) fn tess_domain(v: u32) -> Option<&'static str> {
    Some(match v {
        1 => "domain_isoline",
        2 => "domain_tri",
        3 => "domain_quad",
        _ => return None,
    })
}

/// `D3D11_SB_TESSELLATOR_PARTITIONING`.
pub(crate) fn tess_partitioning(v: u32) -> Option<&'static str> {
    Some(match v {
        1 => "partitioning_integer",
        2 => "partitioning_pow2",
        3 => "partitioning_fractional_odd",
        4 => "partitioning_fractional_even",
        _ => return None,
    })
}

/// `D3D11_SB_TESSELLATOR_OUTPUT_PRIMITIVE`.
pub(crate) fn tess_output_primitive(v: u32) -> Option<&'static str> {
    Some(match v {
        1 => "output_point",
        2 => "output_line",
        3 => "output_triangle_cw",
        4 => "output_triangle_ccw",
        _ => return None,
    })
}

/// `D3D10_SB_CONSTANT_BUFFER_ACCESS_PATTERN` in `dcl_constantbuffer`.
pub(crate) fn constant_buffer_access_pattern(v: u32) -> Option<&'static str> {
    Some(match v {
        0 => "immediateIndexed",
        1 => "dynamicIndexed",
        _ => return None,
    })
}

/// `D3D10_SB_SAMPLER_MODE`.
pub(crate) fn sampler_mode(v: u32) -> Option<&'static str> {
    Some(match v {
        0 => "mode_default",
        1 => "mode_comparison",
        2 => "mode_mono",
        _ => return None,
    })
}

/// `dcl_globalFlags` names by bit (bit 11 upwards), in the order fxc prints them.
pub const GLOBAL_FLAGS: [(u32, &str); 9] = [
    (1 << 11, "refactoringAllowed"),
    (1 << 12, "enableDoublePrecisionFloatOps"),
    (1 << 13, "forceEarlyDepthStencil"),
    (1 << 14, "enableRawAndStructuredBuffers"),
    (1 << 15, "skipOptimization"),
    (1 << 16, "enableMinimumPrecision"),
    (1 << 17, "enable11_1DoubleExtensions"),
    (1 << 18, "enable11_1ShaderExtensions"),
    (1 << 19, "allResourcesBound"),
];

/// `D3D11_SB_OPERAND_MIN_PRECISION` as printed in `{…}` (0 is the default 32-bit precision).
pub fn min_precision(v: u8) -> &'static str {
    match v {
        0 => "def32",
        1 => "min16f",
        2 => "min2_8f",
        4 => "min16i",
        5 => "min16u",
        _ => "min?",
    }
}

/// How fxc prints the indices of a register file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `r0`, `cb0[4]`, `x1[2]`: the first index follows the name.
    Attached,
    /// `icb[3]`, `vicp[0][1]`: every index bracketed.
    Bracketed,
    /// `vThreadID`, `oDepth`: no index.
    Fixed,
}

/// fxc's prefix of a register file (`r`, `cb`, `vThreadID`, …; SM5.1 descriptors upper case).
pub(crate) fn register_prefix(t: u8, sm51: bool) -> &'static str {
    register_file(t, sm51).0
}

/// The register file fxc names `name` (`r`, `cb`, `vThreadID`; SM5.1 descriptors upper
/// case), and whether its indices are all bracketed (`icb[3]`, `vicp[0][1]`).
pub(crate) fn register_file_by_name(name: &str, sm51: bool) -> Option<(u8, bool)> {
    (0..43u8)
        .map(|t| (t, register_file(t, sm51)))
        .find(|(_, (n, _))| *n == name)
        .map(|(t, (_, shape))| (t, shape == Shape::Bracketed))
}

/// fxc's name of the register file `t` (a `D3D10_SB_OPERAND_TYPE`) and how its indices
/// print; SM5.1 descriptors are upper case. The printer and the assembler both read it.
pub(crate) const fn register_file(t: u8, sm51: bool) -> (&'static str, Shape) {
    use Shape::*;
    match t {
        ot::TEMP => ("r", Attached),
        ot::INPUT => ("v", Attached),
        ot::OUTPUT => ("o", Attached),
        ot::INDEXABLE_TEMP => ("x", Attached),
        ot::SAMPLER => (if sm51 { "S" } else { "s" }, Attached),
        ot::RESOURCE => (if sm51 { "T" } else { "t" }, Attached),
        ot::CONSTANT_BUFFER => (if sm51 { "CB" } else { "cb" }, Attached),
        ot::UNORDERED_ACCESS_VIEW => (if sm51 { "U" } else { "u" }, Attached),
        ot::IMMEDIATE_CONSTANT_BUFFER => ("icb", Bracketed),
        ot::LABEL => ("l", Attached),
        ot::INPUT_PRIMITIVEID => ("vPrim", Fixed),
        ot::OUTPUT_DEPTH => ("oDepth", Fixed),
        ot::NULL => ("null", Fixed),
        ot::RASTERIZER => ("rasterizer", Fixed),
        ot::OUTPUT_COVERAGE_MASK => ("oMask", Fixed),
        ot::STREAM => ("m", Attached),
        ot::FUNCTION_BODY => ("fb", Attached),
        ot::FUNCTION_TABLE => ("ft", Attached),
        ot::INTERFACE => ("fp", Attached),
        ot::FUNCTION_INPUT => ("fi", Attached),
        ot::FUNCTION_OUTPUT => ("fo", Attached),
        ot::OUTPUT_CONTROL_POINT_ID => ("vOutputControlPointID", Fixed),
        ot::INPUT_FORK_INSTANCE_ID => ("vForkInstanceID", Fixed),
        ot::INPUT_JOIN_INSTANCE_ID => ("vJoinInstanceID", Fixed),
        ot::INPUT_CONTROL_POINT => ("vicp", Bracketed),
        ot::OUTPUT_CONTROL_POINT => ("vocp", Bracketed),
        ot::INPUT_PATCH_CONSTANT => ("vpc", Attached),
        ot::INPUT_DOMAIN_POINT => ("vDomain", Fixed),
        ot::THIS_POINTER => ("this", Bracketed),
        ot::THREAD_GROUP_SHARED_MEMORY => ("g", Attached),
        ot::INPUT_THREAD_ID => ("vThreadID", Fixed),
        ot::INPUT_THREAD_GROUP_ID => ("vThreadGroupID", Fixed),
        ot::INPUT_THREAD_ID_IN_GROUP => ("vThreadIDInGroup", Fixed),
        ot::INPUT_COVERAGE_MASK => ("vCoverage", Fixed),
        ot::INPUT_THREAD_ID_IN_GROUP_FLATTENED => ("vThreadIDInGroupFlattened", Fixed),
        ot::INPUT_GS_INSTANCE_ID => ("vGSInstanceID", Fixed),
        ot::OUTPUT_DEPTH_GREATER_EQUAL => ("oDepthGE", Fixed),
        ot::OUTPUT_DEPTH_LESS_EQUAL => ("oDepthLE", Fixed),
        ot::CYCLE_COUNTER => ("vCycleCounter", Fixed),
        ot::OUTPUT_STENCIL_REF => ("oStencilRef", Fixed),
        ot::INNER_COVERAGE => ("vInnerCoverage", Fixed),
        _ => ("unknown_register", Bracketed),
    }
}
