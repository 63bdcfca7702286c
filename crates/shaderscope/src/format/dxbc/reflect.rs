//! The names `d3dcommon.h` gives the numbers that reflection reports, so that `info --json`
//! reads like `ID3D11ShaderReflection` (`D3D_SIT_TEXTURE`, `D3D_SRV_DIMENSION_TEXTURE2D`, …)
//! and not only as raw values. The listing uses fxc's own shorter spellings
//! ([`super::listing`]); these are the API's.
//!
//! Each function names one enum and gives `None` for a value it does not have;
//! [`flag_names`] names the bits of a flag word from one of the flag tables.
//!
//! ```
//! use shaderscope::format::dxbc::reflect::{self, INPUT_FLAGS};
//!
//! // A `Texture2D<float4>` binding as RDEF stores it: input type 2, return type 5, dimension 4.
//! assert_eq!(reflect::input_type(2), Some("D3D_SIT_TEXTURE"));
//! assert_eq!(reflect::return_type(5), Some("D3D_RETURN_TYPE_FLOAT"));
//! assert_eq!(reflect::dimension(4), Some("D3D_SRV_DIMENSION_TEXTURE2D"));
//! // Flags 0xc: all four components of the texture are used.
//! assert_eq!(
//!     reflect::flag_names(0xc, &INPUT_FLAGS),
//!     ["D3D_SIF_TEXTURE_COMPONENT_0", "D3D_SIF_TEXTURE_COMPONENT_1"]
//! );
//! assert_eq!(reflect::topology(35).as_deref(), Some("D3D_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST"));
//! assert_eq!(reflect::input_type(99), None);
//! ```

/// A value's name in a table indexed from 0, `None` past its end.
fn at(table: &[&'static str], v: u32) -> Option<&'static str> {
    table.get(v as usize).copied()
}

/// `D3D_SHADER_INPUT_TYPE` of a resource binding.
pub fn input_type(v: u32) -> Option<&'static str> {
    at(
        &[
            "D3D_SIT_CBUFFER",
            "D3D_SIT_TBUFFER",
            "D3D_SIT_TEXTURE",
            "D3D_SIT_SAMPLER",
            "D3D_SIT_UAV_RWTYPED",
            "D3D_SIT_STRUCTURED",
            "D3D_SIT_UAV_RWSTRUCTURED",
            "D3D_SIT_BYTEADDRESS",
            "D3D_SIT_UAV_RWBYTEADDRESS",
            "D3D_SIT_UAV_APPEND_STRUCTURED",
            "D3D_SIT_UAV_CONSUME_STRUCTURED",
            "D3D_SIT_UAV_RWSTRUCTURED_WITH_COUNTER",
            "D3D_SIT_RTACCELERATIONSTRUCTURE",
            "D3D_SIT_UAV_FEEDBACKTEXTURE",
        ],
        v,
    )
}

/// `D3D_SRV_DIMENSION` of a resource binding (UAVs report theirs in the same enum).
pub fn dimension(v: u32) -> Option<&'static str> {
    at(
        &[
            "D3D_SRV_DIMENSION_UNKNOWN",
            "D3D_SRV_DIMENSION_BUFFER",
            "D3D_SRV_DIMENSION_TEXTURE1D",
            "D3D_SRV_DIMENSION_TEXTURE1DARRAY",
            "D3D_SRV_DIMENSION_TEXTURE2D",
            "D3D_SRV_DIMENSION_TEXTURE2DARRAY",
            "D3D_SRV_DIMENSION_TEXTURE2DMS",
            "D3D_SRV_DIMENSION_TEXTURE2DMSARRAY",
            "D3D_SRV_DIMENSION_TEXTURE3D",
            "D3D_SRV_DIMENSION_TEXTURECUBE",
            "D3D_SRV_DIMENSION_TEXTURECUBEARRAY",
            "D3D_SRV_DIMENSION_BUFFEREX",
        ],
        v,
    )
}

/// `D3D_RESOURCE_RETURN_TYPE`; 0 (samplers, buffers) has no name.
pub fn return_type(v: u32) -> Option<&'static str> {
    at(
        &[
            "",
            "D3D_RETURN_TYPE_UNORM",
            "D3D_RETURN_TYPE_SNORM",
            "D3D_RETURN_TYPE_SINT",
            "D3D_RETURN_TYPE_UINT",
            "D3D_RETURN_TYPE_FLOAT",
            "D3D_RETURN_TYPE_MIXED",
            "D3D_RETURN_TYPE_DOUBLE",
            "D3D_RETURN_TYPE_CONTINUED",
        ],
        v,
    )
    .filter(|s| !s.is_empty())
}

/// `D3D_CBUFFER_TYPE`.
pub(crate) fn cbuffer_type(v: u32) -> Option<&'static str> {
    at(&["D3D_CT_CBUFFER", "D3D_CT_TBUFFER", "D3D_CT_INTERFACE_POINTERS", "D3D_CT_RESOURCE_BIND_INFO"], v)
}

/// `D3D_SHADER_VARIABLE_CLASS` of a type.
pub(crate) fn variable_class(v: u32) -> Option<&'static str> {
    at(
        &[
            "D3D_SVC_SCALAR",
            "D3D_SVC_VECTOR",
            "D3D_SVC_MATRIX_ROWS",
            "D3D_SVC_MATRIX_COLUMNS",
            "D3D_SVC_OBJECT",
            "D3D_SVC_STRUCT",
            "D3D_SVC_INTERFACE_CLASS",
            "D3D_SVC_INTERFACE_POINTER",
        ],
        v,
    )
}

/// `D3D_SHADER_VARIABLE_TYPE` of a type.
pub(crate) fn variable_type(v: u32) -> Option<&'static str> {
    at(
        &[
            "D3D_SVT_VOID",
            "D3D_SVT_BOOL",
            "D3D_SVT_INT",
            "D3D_SVT_FLOAT",
            "D3D_SVT_STRING",
            "D3D_SVT_TEXTURE",
            "D3D_SVT_TEXTURE1D",
            "D3D_SVT_TEXTURE2D",
            "D3D_SVT_TEXTURE3D",
            "D3D_SVT_TEXTURECUBE",
            "D3D_SVT_SAMPLER",
            "D3D_SVT_SAMPLER1D",
            "D3D_SVT_SAMPLER2D",
            "D3D_SVT_SAMPLER3D",
            "D3D_SVT_SAMPLERCUBE",
            "D3D_SVT_PIXELSHADER",
            "D3D_SVT_VERTEXSHADER",
            "D3D_SVT_PIXELFRAGMENT",
            "D3D_SVT_VERTEXFRAGMENT",
            "D3D_SVT_UINT",
            "D3D_SVT_UINT8",
            "D3D_SVT_GEOMETRYSHADER",
            "D3D_SVT_RASTERIZER",
            "D3D_SVT_DEPTHSTENCIL",
            "D3D_SVT_BLEND",
            "D3D_SVT_BUFFER",
            "D3D_SVT_CBUFFER",
            "D3D_SVT_TBUFFER",
            "D3D_SVT_TEXTURE1DARRAY",
            "D3D_SVT_TEXTURE2DARRAY",
            "D3D_SVT_RENDERTARGETVIEW",
            "D3D_SVT_DEPTHSTENCILVIEW",
            "D3D_SVT_TEXTURE2DMS",
            "D3D_SVT_TEXTURE2DMSARRAY",
            "D3D_SVT_TEXTURECUBEARRAY",
            "D3D_SVT_HULLSHADER",
            "D3D_SVT_DOMAINSHADER",
            "D3D_SVT_INTERFACE_POINTER",
            "D3D_SVT_COMPUTESHADER",
            "D3D_SVT_DOUBLE",
            "D3D_SVT_RWTEXTURE1D",
            "D3D_SVT_RWTEXTURE1DARRAY",
            "D3D_SVT_RWTEXTURE2D",
            "D3D_SVT_RWTEXTURE2DARRAY",
            "D3D_SVT_RWTEXTURE3D",
            "D3D_SVT_RWBUFFER",
            "D3D_SVT_BYTEADDRESS_BUFFER",
            "D3D_SVT_RWBYTEADDRESS_BUFFER",
            "D3D_SVT_STRUCTURED_BUFFER",
            "D3D_SVT_RWSTRUCTURED_BUFFER",
            "D3D_SVT_APPEND_STRUCTURED_BUFFER",
            "D3D_SVT_CONSUME_STRUCTURED_BUFFER",
            "D3D_SVT_MIN8FLOAT",
            "D3D_SVT_MIN10FLOAT",
            "D3D_SVT_MIN16FLOAT",
            "D3D_SVT_MIN12INT",
            "D3D_SVT_MIN16INT",
            "D3D_SVT_MIN16UINT",
            "D3D_SVT_INT16",
            "D3D_SVT_UINT16",
            "D3D_SVT_FLOAT16",
            "D3D_SVT_INT64",
            "D3D_SVT_UINT64",
        ],
        v,
    )
}

/// `D3D_NAME` of a signature element's system value.
pub fn system_value(v: u32) -> Option<&'static str> {
    const LOW: [&str; 20] = [
        "D3D_NAME_UNDEFINED",
        "D3D_NAME_POSITION",
        "D3D_NAME_CLIP_DISTANCE",
        "D3D_NAME_CULL_DISTANCE",
        "D3D_NAME_RENDER_TARGET_ARRAY_INDEX",
        "D3D_NAME_VIEWPORT_ARRAY_INDEX",
        "D3D_NAME_VERTEX_ID",
        "D3D_NAME_PRIMITIVE_ID",
        "D3D_NAME_INSTANCE_ID",
        "D3D_NAME_IS_FRONT_FACE",
        "D3D_NAME_SAMPLE_INDEX",
        "D3D_NAME_FINAL_QUAD_EDGE_TESSFACTOR",
        "D3D_NAME_FINAL_QUAD_INSIDE_TESSFACTOR",
        "D3D_NAME_FINAL_TRI_EDGE_TESSFACTOR",
        "D3D_NAME_FINAL_TRI_INSIDE_TESSFACTOR",
        "D3D_NAME_FINAL_LINE_DETAIL_TESSFACTOR",
        "D3D_NAME_FINAL_LINE_DENSITY_TESSFACTOR",
        "D3D_NAME_BARYCENTRICS",
        "D3D_NAME_SHADINGRATE",
        "D3D_NAME_CULLPRIMITIVE",
    ];
    const HIGH: [&str; 7] = [
        "D3D_NAME_TARGET",
        "D3D_NAME_DEPTH",
        "D3D_NAME_COVERAGE",
        "D3D_NAME_DEPTH_GREATER_EQUAL",
        "D3D_NAME_DEPTH_LESS_EQUAL",
        "D3D_NAME_STENCIL_REF",
        "D3D_NAME_INNER_COVERAGE",
    ];
    at(&LOW, v).or_else(|| at(&HIGH, v.checked_sub(64)?))
}

/// `D3D_REGISTER_COMPONENT_TYPE` of a signature element.
pub fn component_type(v: u32) -> Option<&'static str> {
    at(
        &[
            "D3D_REGISTER_COMPONENT_UNKNOWN",
            "D3D_REGISTER_COMPONENT_UINT32",
            "D3D_REGISTER_COMPONENT_SINT32",
            "D3D_REGISTER_COMPONENT_FLOAT32",
            "D3D_REGISTER_COMPONENT_UINT16",
            "D3D_REGISTER_COMPONENT_SINT16",
            "D3D_REGISTER_COMPONENT_FLOAT16",
            "D3D_REGISTER_COMPONENT_UINT64",
            "D3D_REGISTER_COMPONENT_SINT64",
            "D3D_REGISTER_COMPONENT_FLOAT64",
        ],
        v,
    )
}

/// `D3D_MIN_PRECISION` of a signature element.
pub fn min_precision(v: u32) -> Option<&'static str> {
    match v {
        0xf0 => Some("D3D_MIN_PRECISION_ANY_16"),
        0xf1 => Some("D3D_MIN_PRECISION_ANY_10"),
        _ => at(
            &[
                "D3D_MIN_PRECISION_DEFAULT",
                "D3D_MIN_PRECISION_FLOAT_16",
                "D3D_MIN_PRECISION_FLOAT_2_8",
                "D3D_MIN_PRECISION_RESERVED",
                "D3D_MIN_PRECISION_SINT_16",
                "D3D_MIN_PRECISION_UINT_16",
            ],
            v,
        ),
    }
}

/// `D3D_PRIMITIVE`: a geometry shader's input primitive (the `STAT` chunk's value).
pub fn primitive(v: u32) -> Option<String> {
    Some(match v {
        0 => "D3D_PRIMITIVE_UNDEFINED".into(),
        1 => "D3D_PRIMITIVE_POINT".into(),
        2 => "D3D_PRIMITIVE_LINE".into(),
        3 => "D3D_PRIMITIVE_TRIANGLE".into(),
        6 => "D3D_PRIMITIVE_LINE_ADJ".into(),
        7 => "D3D_PRIMITIVE_TRIANGLE_ADJ".into(),
        8..=39 => format!("D3D_PRIMITIVE_{}_CONTROL_POINT_PATCH", v - 7),
        _ => return None,
    })
}

/// `D3D_PRIMITIVE_TOPOLOGY`: a geometry shader's output topology.
pub fn topology(v: u32) -> Option<String> {
    Some(match v {
        0 => "D3D_PRIMITIVE_TOPOLOGY_UNDEFINED".into(),
        1 => "D3D_PRIMITIVE_TOPOLOGY_POINTLIST".into(),
        2 => "D3D_PRIMITIVE_TOPOLOGY_LINELIST".into(),
        3 => "D3D_PRIMITIVE_TOPOLOGY_LINESTRIP".into(),
        4 => "D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST".into(),
        5 => "D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP".into(),
        10 => "D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ".into(),
        11 => "D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ".into(),
        12 => "D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ".into(),
        13 => "D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ".into(),
        33..=64 => format!("D3D_PRIMITIVE_TOPOLOGY_{}_CONTROL_POINT_PATCHLIST", v - 32),
        _ => return None,
    })
}

/// `D3D_TESSELLATOR_DOMAIN`.
pub(crate) fn tessellator_domain(v: u32) -> Option<&'static str> {
    at(
        &[
            "D3D_TESSELLATOR_DOMAIN_UNDEFINED",
            "D3D_TESSELLATOR_DOMAIN_ISOLINE",
            "D3D_TESSELLATOR_DOMAIN_TRI",
            "D3D_TESSELLATOR_DOMAIN_QUAD",
        ],
        v,
    )
}

/// `D3D_TESSELLATOR_PARTITIONING`.
pub(crate) fn tessellator_partitioning(v: u32) -> Option<&'static str> {
    at(
        &[
            "D3D_TESSELLATOR_PARTITIONING_UNDEFINED",
            "D3D_TESSELLATOR_PARTITIONING_INTEGER",
            "D3D_TESSELLATOR_PARTITIONING_POW2",
            "D3D_TESSELLATOR_PARTITIONING_FRACTIONAL_ODD",
            "D3D_TESSELLATOR_PARTITIONING_FRACTIONAL_EVEN",
        ],
        v,
    )
}

/// `D3D_TESSELLATOR_OUTPUT_PRIMITIVE`.
pub(crate) fn tessellator_output_primitive(v: u32) -> Option<&'static str> {
    at(
        &[
            "D3D_TESSELLATOR_OUTPUT_UNDEFINED",
            "D3D_TESSELLATOR_OUTPUT_POINT",
            "D3D_TESSELLATOR_OUTPUT_LINE",
            "D3D_TESSELLATOR_OUTPUT_TRIANGLE_CW",
            "D3D_TESSELLATOR_OUTPUT_TRIANGLE_CCW",
        ],
        v,
    )
}

/// The names of the bits set in `flags`, from a table of (bit, name).
pub fn flag_names(flags: u32, table: &[(u32, &'static str)]) -> Vec<&'static str> {
    table.iter().filter(|(bit, _)| flags & bit != 0).map(|&(_, n)| n).collect()
}

/// `D3D_SHADER_INPUT_FLAGS` of a resource binding.
pub const INPUT_FLAGS: [(u32, &str); 5] = [
    (1, "D3D_SIF_USERPACKED"),
    (2, "D3D_SIF_COMPARISON_SAMPLER"),
    (4, "D3D_SIF_TEXTURE_COMPONENT_0"),
    (8, "D3D_SIF_TEXTURE_COMPONENT_1"),
    (16, "D3D_SIF_UNUSED"),
];

/// `D3D_SHADER_VARIABLE_FLAGS` of a constant buffer variable.
pub(crate) const VARIABLE_FLAGS: [(u32, &str); 4] = [
    (1, "D3D_SVF_USERPACKED"),
    (2, "D3D_SVF_USED"),
    (4, "D3D_SVF_INTERFACE_POINTER"),
    (8, "D3D_SVF_INTERFACE_PARAMETER"),
];

/// `D3D_SHADER_CBUFFER_FLAGS` of a constant buffer.
pub(crate) const CBUFFER_FLAGS: [(u32, &str); 1] = [(1, "D3D_CBF_USERPACKED")];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_d3dcommon() {
        assert_eq!(input_type(2), Some("D3D_SIT_TEXTURE"));
        assert_eq!(input_type(11), Some("D3D_SIT_UAV_RWSTRUCTURED_WITH_COUNTER"));
        assert_eq!(input_type(14), None);
        assert_eq!(dimension(9), Some("D3D_SRV_DIMENSION_TEXTURECUBE"));
        assert_eq!(return_type(0), None);
        assert_eq!(return_type(5), Some("D3D_RETURN_TYPE_FLOAT"));
        assert_eq!(variable_type(39), Some("D3D_SVT_DOUBLE"));
        assert_eq!(variable_type(57), Some("D3D_SVT_MIN16UINT"));
        assert_eq!(system_value(1), Some("D3D_NAME_POSITION"));
        assert_eq!(system_value(64), Some("D3D_NAME_TARGET"));
        assert_eq!(system_value(70), Some("D3D_NAME_INNER_COVERAGE"));
        assert_eq!(system_value(20), None);
        assert_eq!(system_value(71), None);
        assert_eq!(min_precision(0xf0), Some("D3D_MIN_PRECISION_ANY_16"));
        assert_eq!(primitive(7).as_deref(), Some("D3D_PRIMITIVE_TRIANGLE_ADJ"));
        assert_eq!(primitive(10).as_deref(), Some("D3D_PRIMITIVE_3_CONTROL_POINT_PATCH"));
        assert_eq!(primitive(8).as_deref(), Some("D3D_PRIMITIVE_1_CONTROL_POINT_PATCH"));
        assert_eq!(primitive(39).as_deref(), Some("D3D_PRIMITIVE_32_CONTROL_POINT_PATCH"));
        assert_eq!(topology(36).as_deref(), Some("D3D_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST"));
        assert_eq!(
            flag_names(12, &INPUT_FLAGS),
            ["D3D_SIF_TEXTURE_COMPONENT_0", "D3D_SIF_TEXTURE_COMPONENT_1"]
        );
    }
}
