//! The states an assignment sets: an assignment's `iState` indexes FX11's table of states
//! (`g_lvGeneral` in EffectStates11.h; fxc writes the same indices), each with the block it
//! belongs to and the names of its values (the Direct3D 11 enumerations), as fxc prints them.

/// Which block a state belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    /// A pass.
    Pass,
    /// A rasterizer state.
    Rasterizer,
    /// A depth-stencil state.
    DepthStencil,
    /// A blend state.
    Blend,
    /// A sampler state.
    Sampler,
}

/// The names of a state's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// A number without names.
    Plain,
    /// FALSE, TRUE.
    Bool,
    /// D3D11_FILL_MODE.
    Fill,
    /// D3D11_CULL_MODE.
    Cull,
    /// D3D11_COMPARISON_FUNC.
    Comparison,
    /// D3D11_DEPTH_WRITE_MASK.
    DepthWriteMask,
    /// D3D11_STENCIL_OP.
    StencilOp,
    /// D3D11_BLEND.
    BlendArg,
    /// D3D11_BLEND_OP.
    BlendOperation,
    /// D3D11_FILTER.
    Filter,
    /// D3D11_TEXTURE_ADDRESS_MODE.
    Address,
}

/// One state: its name, block, whether it takes an index (render targets), its value names.
#[derive(Debug, Clone, Copy)]
pub struct State {
    /// The name fxc prints.
    pub name: &'static str,
    /// The block it belongs to.
    pub block: Block,
    /// Whether fxc prints its index (`BlendEnable[0]`).
    pub indexed: bool,
    /// Its values' names.
    pub values: Values,
}

const fn s(name: &'static str, block: Block, indexed: bool, values: Values) -> State {
    State { name, block, indexed, values }
}

use Block::*;
use Values::*;

/// Every state, by `iState`.
pub const STATES: [State; 59] = [
    s("RasterizerState", Pass, false, Plain),
    s("DepthStencilState", Pass, false, Plain),
    s("BlendState", Pass, false, Plain),
    s("RenderTargetView", Pass, true, Plain),
    s("DepthStencilView", Pass, false, Plain),
    s("GenerateMips", Pass, false, Plain),
    s("VertexShader", Pass, false, Plain),
    s("PixelShader", Pass, false, Plain),
    s("GeometryShader", Pass, false, Plain),
    s("DS_StencilRef", Pass, false, Plain),
    s("AB_BlendFactor", Pass, false, Plain),
    s("AB_SampleMask", Pass, false, Plain),
    s("FillMode", Rasterizer, false, Fill),
    s("CullMode", Rasterizer, false, Cull),
    s("FrontCounterClockwise", Rasterizer, false, Bool),
    s("DepthBias", Rasterizer, false, Plain),
    s("DepthBiasClamp", Rasterizer, false, Plain),
    s("SlopeScaledDepthBias", Rasterizer, false, Plain),
    s("DepthClipEnable", Rasterizer, false, Bool),
    s("ScissorEnable", Rasterizer, false, Bool),
    s("MultisampleEnable", Rasterizer, false, Bool),
    s("AntialiasedLineEnable", Rasterizer, false, Bool),
    s("DepthEnable", DepthStencil, false, Bool),
    s("DepthWriteMask", DepthStencil, false, DepthWriteMask),
    s("DepthFunc", DepthStencil, false, Comparison),
    s("StencilEnable", DepthStencil, false, Bool),
    s("StencilReadMask", DepthStencil, false, Plain),
    s("StencilWriteMask", DepthStencil, false, Plain),
    s("FrontFaceStencilFail", DepthStencil, false, StencilOp),
    s("FrontFaceStencilDepthFail", DepthStencil, false, StencilOp),
    s("FrontFaceStencilPass", DepthStencil, false, StencilOp),
    s("FrontFaceStencilFunc", DepthStencil, false, Comparison),
    s("BackFaceStencilFail", DepthStencil, false, StencilOp),
    s("BackFaceStencilDepthFail", DepthStencil, false, StencilOp),
    s("BackFaceStencilPass", DepthStencil, false, StencilOp),
    s("BackFaceStencilFunc", DepthStencil, false, Comparison),
    s("AlphaToCoverageEnable", Blend, false, Bool),
    s("BlendEnable", Blend, true, Bool),
    s("SrcBlend", Blend, true, BlendArg),
    s("DestBlend", Blend, true, BlendArg),
    s("BlendOp", Blend, true, BlendOperation),
    s("SrcBlendAlpha", Blend, true, BlendArg),
    s("DestBlendAlpha", Blend, true, BlendArg),
    s("BlendOpAlpha", Blend, true, BlendOperation),
    s("RenderTargetWriteMask", Blend, true, Plain),
    s("Filter", Sampler, false, Filter),
    s("AddressU", Sampler, false, Address),
    s("AddressV", Sampler, false, Address),
    s("AddressW", Sampler, false, Address),
    s("MipLODBias", Sampler, false, Plain),
    s("MaxAnisotropy", Sampler, false, Plain),
    s("ComparisonFunc", Sampler, false, Comparison),
    s("BorderColor", Sampler, false, Plain),
    s("MinLOD", Sampler, false, Plain),
    s("MaxLOD", Sampler, false, Plain),
    s("Texture", Sampler, false, Plain),
    s("HullShader", Pass, false, Plain),
    s("DomainShader", Pass, false, Plain),
    s("ComputeShader", Pass, false, Plain),
];

/// The type fxc casts a state's value to (`uint(…)`, `byte(0x…)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cast {
    /// `bool`.
    Bool,
    /// `uint`.
    Uint,
    /// `uint` in hexadecimal (the sample mask).
    Mask,
    /// `byte`, in hexadecimal.
    Byte,
    /// `float`.
    Float,
    /// Anything else (objects: views, shaders, textures).
    Object,
}

impl State {
    /// What fxc casts the state's value to.
    pub fn cast(&self) -> Cast {
        match self.name {
            "StencilReadMask" | "StencilWriteMask" | "RenderTargetWriteMask" => Cast::Byte,
            "AB_SampleMask" => Cast::Mask,
            "AB_BlendFactor"
            | "DepthBiasClamp"
            | "SlopeScaledDepthBias"
            | "MipLODBias"
            | "BorderColor"
            | "MinLOD"
            | "MaxLOD" => Cast::Float,
            "DS_StencilRef" | "DepthBias" | "MaxAnisotropy" => Cast::Uint,
            _ if self.values == Bool => Cast::Bool,
            _ if self.values != Plain => Cast::Uint,
            _ => Cast::Object,
        }
    }
}

/// The state `i`, if there is one.
pub fn state(i: u32) -> Option<&'static State> {
    STATES.get(i as usize)
}

/// The name of value `v` of a state whose values are `values`.
pub fn value_name(values: Values, v: u32) -> Option<&'static str> {
    let table: &[(u32, &str)] = match values {
        Plain => &[],
        Bool => &[(0, "FALSE"), (1, "TRUE")],
        Fill => &[(2, "WIREFRAME"), (3, "SOLID")],
        Cull => &[(1, "NONE"), (2, "FRONT"), (3, "BACK")],
        Comparison => &[
            (1, "NEVER"),
            (2, "LESS"),
            (3, "EQUAL"),
            (4, "LESS_EQUAL"),
            (5, "GREATER"),
            (6, "NOT_EQUAL"),
            (7, "GREATER_EQUAL"),
            (8, "ALWAYS"),
        ],
        DepthWriteMask => &[(0, "ZERO"), (1, "ALL")],
        StencilOp => &[
            (1, "KEEP"),
            (2, "ZERO"),
            (3, "REPLACE"),
            (4, "INCR_SAT"),
            (5, "DECR_SAT"),
            (6, "INVERT"),
            (7, "INCR"),
            (8, "DECR"),
        ],
        BlendArg => &[
            (1, "ZERO"),
            (2, "ONE"),
            (3, "SRC_COLOR"),
            (4, "INV_SRC_COLOR"),
            (5, "SRC_ALPHA"),
            (6, "INV_SRC_ALPHA"),
            (7, "DEST_ALPHA"),
            (8, "INV_DEST_ALPHA"),
            (9, "DEST_COLOR"),
            (10, "INV_DEST_COLOR"),
            (11, "SRC_ALPHA_SAT"),
            (14, "BLEND_FACTOR"),
            (15, "INV_BLEND_FACTOR"),
            (16, "SRC1_COLOR"),
            (17, "INV_SRC1_COLOR"),
            (18, "SRC1_ALPHA"),
            (19, "INV_SRC1_ALPHA"),
        ],
        BlendOperation => &[(1, "ADD"), (2, "SUBTRACT"), (3, "REV_SUBTRACT"), (4, "MIN"), (5, "MAX")],
        Filter => &[
            (0x00, "MIN_MAG_MIP_POINT"),
            (0x01, "MIN_MAG_POINT_MIP_LINEAR"),
            (0x04, "MIN_POINT_MAG_LINEAR_MIP_POINT"),
            (0x05, "MIN_POINT_MAG_MIP_LINEAR"),
            (0x10, "MIN_LINEAR_MAG_MIP_POINT"),
            (0x11, "MIN_LINEAR_MAG_POINT_MIP_LINEAR"),
            (0x14, "MIN_MAG_LINEAR_MIP_POINT"),
            (0x15, "MIN_MAG_MIP_LINEAR"),
            (0x55, "ANISOTROPIC"),
            (0x80, "COMPARISON_MIN_MAG_MIP_POINT"),
            (0x81, "COMPARISON_MIN_MAG_POINT_MIP_LINEAR"),
            (0x84, "COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT"),
            (0x85, "COMPARISON_MIN_POINT_MAG_MIP_LINEAR"),
            (0x90, "COMPARISON_MIN_LINEAR_MAG_MIP_POINT"),
            (0x91, "COMPARISON_MIN_LINEAR_MAG_POINT_MIP_LINEAR"),
            (0x94, "COMPARISON_MIN_MAG_LINEAR_MIP_POINT"),
            (0x95, "COMPARISON_MIN_MAG_MIP_LINEAR"),
            (0xd5, "COMPARISON_ANISOTROPIC"),
        ],
        Address => &[(1, "WRAP"), (2, "MIRROR"), (3, "CLAMP"), (4, "BORDER"), (5, "MIRROR_ONCE")],
    };
    table.iter().find(|(k, _)| *k == v).map(|(_, n)| *n)
}
