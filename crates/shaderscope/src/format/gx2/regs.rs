//! The register words a GX2 shader struct carries (the values GX2 writes to the GPU when the
//! shader is set), each decoded into its named fields.
//!
//! One table per register gives its fields (names and bit positions from AMD's R600/R700
//! register documentation, as decaf-emu's `latte_registers_*.h` and Mesa's `r600d.h` spell
//! them); one layout per shader kind gives the order of the words in the struct's `regs`
//! block, with the counts (`num_spi_vs_out_id`, …) GX2 keeps beside the tables they count.
//!
//! ```
//! use shaderscope::format::gx2::regs::{self, VERTEX};
//!
//! // SQ_PGM_RESOURCES_VS of a shader with 2 GPRs and a stack of 1, clamped DX10-style.
//! let text = regs::SQ_PGM_RESOURCES_VS.describe(0x0020_0102);
//! assert_eq!(text, "NUM_GPRS=2 STACK_SIZE=1 DX10_CLAMP");
//! assert_eq!(regs::DB_SHADER_CONTROL.describe(0x50), "Z_ORDER=EARLY_Z_THEN_LATE_Z KILL_ENABLE");
//! // Bits no field covers are shown, not dropped.
//! assert_eq!(regs::SPI_INPUT_Z.describe(0x81), "PROVIDE_Z_TO_SPI unknown bits 0x80");
//! // The vertex shader's words: SQ_VTX_SEMANTIC[3] is word 20.
//! let slot = VERTEX.iter().position(|s| s.name == "SQ_VTX_SEMANTIC").unwrap();
//! assert_eq!(regs::word_index(VERTEX, slot) + 3, 20);
//! ```

use crate::toolkit::Field;
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// One field of a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegField {
    /// The field's name in the register documentation.
    pub name: &'static str,
    /// Where it sits in the word.
    pub field: Field,
    /// The names of its values, by value, for an enumerated field (empty: a number, or a flag
    /// when the field is one bit wide).
    pub values: &'static [&'static str],
    /// A bit mask, shown in hexadecimal.
    pub mask: bool,
}

const fn f(name: &'static str, shift: u16, width: u8) -> RegField {
    RegField { name, field: Field::at(shift, width), values: &[], mask: false }
}

const fn e(name: &'static str, shift: u16, width: u8, values: &'static [&'static str]) -> RegField {
    RegField { name, field: Field::at(shift, width), values, mask: false }
}

const fn m(name: &'static str, shift: u16, width: u8) -> RegField {
    RegField { name, field: Field::at(shift, width), values: &[], mask: true }
}

/// A register: its name and fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegDef {
    /// The register's name (`SQ_PGM_RESOURCES_VS`).
    pub name: &'static str,
    /// Its fields, lowest bit first.
    pub fields: &'static [RegField],
}

/// What a field holds in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValue {
    /// A one-bit flag.
    Flag(bool),
    /// A number.
    Number(u32),
    /// An enumerated value: its number and, when the documentation names it, its name.
    Named(u32, Option<&'static str>),
}

impl RegField {
    /// The field's value in `word`.
    pub fn value(&self, word: u32) -> FieldValue {
        let v = self.field.get(word);
        if !self.values.is_empty() {
            let name = usize::try_from(v).ok().and_then(|i| self.values.get(i)).copied();
            FieldValue::Named(v, name)
        } else if self.field.width == 1 {
            FieldValue::Flag(v != 0)
        } else {
            FieldValue::Number(v)
        }
    }
}

impl RegDef {
    /// The bits of `word` that no field covers.
    pub fn unknown_bits(&self, word: u32) -> u32 {
        let known = self.fields.iter().fold(0u32, |m, f| m | f.field.mask::<u32>());
        word & !known
    }

    /// The fields of `word` that are not zero, as `NAME=value` (a set flag as its name alone,
    /// an enumerated value by its name), then any bits no field covers; empty when the word
    /// is 0.
    pub fn describe(&self, word: u32) -> String {
        let mut s = String::new();
        for fld in self.fields {
            let v = fld.value(word);
            let zero = matches!(v, FieldValue::Flag(false) | FieldValue::Number(0));
            if zero {
                continue;
            }
            if !s.is_empty() {
                s.push(' ');
            }
            match v {
                FieldValue::Flag(_) => s.push_str(fld.name),
                FieldValue::Number(n) if fld.mask => {
                    let _ = write!(s, "{}=0x{n:x}", fld.name);
                }
                FieldValue::Number(n) => {
                    let _ = write!(s, "{}={n}", fld.name);
                }
                FieldValue::Named(_, Some(name)) => {
                    let _ = write!(s, "{}={name}", fld.name);
                }
                FieldValue::Named(n, None) => {
                    let _ = write!(s, "{}={n}", fld.name);
                }
            }
        }
        let unknown = self.unknown_bits(word);
        if unknown != 0 {
            if !s.is_empty() {
                s.push(' ');
            }
            let _ = write!(s, "unknown bits 0x{unknown:x}");
        }
        s
    }

    /// Every field of `word` as JSON: a flag as a boolean, a number as a number, an enumerated
    /// value by its name (`unknown (N)` when it has none); bits no field covers under
    /// `unknown_bits` when there are any.
    pub fn fields_json(&self, word: u32) -> Map<String, Value> {
        let mut m = Map::new();
        for fld in self.fields {
            let v = match fld.value(word) {
                FieldValue::Flag(b) => Value::from(b),
                FieldValue::Number(n) => Value::from(n),
                FieldValue::Named(_, Some(name)) => Value::from(name),
                FieldValue::Named(n, None) => Value::from(format!("unknown ({n})")),
            };
            m.insert(fld.name.to_string(), v);
        }
        let unknown = self.unknown_bits(word);
        if unknown != 0 {
            m.insert("unknown_bits".to_string(), Value::from(unknown));
        }
        m
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&RegField> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// The fields every SQ_PGM_RESOURCES_* register shares.
macro_rules! pgm_resources {
    ($($extra:expr),*) => {
        &[
            f("NUM_GPRS", 0, 8),
            f("STACK_SIZE", 8, 8),
            f("DX10_CLAMP", 21, 1),
            f("PRIME_CACHE_PGM_EN", 22, 1),
            f("PRIME_CACHE_ON_DRAW", 23, 1),
            f("FETCH_CACHE_LINES", 24, 3),
            f("UNCACHED_FIRST_INST", 28, 1),
            f("PRIME_CACHE_ENABLE", 29, 1),
            f("PRIME_CACHE_ON_CONST", 30, 1),
            $($extra),*
        ]
    };
}

/// Resources of the vertex shader program: GPRs, stack entries, clamping, prefetch.
pub const SQ_PGM_RESOURCES_VS: RegDef = RegDef { name: "SQ_PGM_RESOURCES_VS", fields: pgm_resources!() };
/// Resources of the geometry shader program.
pub(crate) const SQ_PGM_RESOURCES_GS: RegDef =
    RegDef { name: "SQ_PGM_RESOURCES_GS", fields: pgm_resources!() };
/// Resources of the pixel shader program; CLAMP_CONSTS clamps constant-file reads.
pub const SQ_PGM_RESOURCES_PS: RegDef =
    RegDef { name: "SQ_PGM_RESOURCES_PS", fields: pgm_resources!(f("CLAMP_CONSTS", 31, 1)) };

/// Whether the primitive ID is generated for the vertex shader.
pub(crate) const VGT_PRIMITIVEID_EN: RegDef =
    RegDef { name: "VGT_PRIMITIVEID_EN", fields: &[f("PRIMITIVEID_EN", 0, 1)] };

/// The vertex shader's parameter exports: VS_EXPORT_COUNT is their number minus one.
pub const SPI_VS_OUT_CONFIG: RegDef = RegDef {
    name: "SPI_VS_OUT_CONFIG",
    fields: &[
        f("VS_PER_COMPONENT", 0, 1),
        f("VS_EXPORT_COUNT", 1, 5),
        f("VS_EXPORTS_FOG", 8, 1),
        f("VS_OUT_FOG_VEC_ADDR", 9, 5),
    ],
};

/// The semantic ids of four exported parameters (0xFF: none).
pub const SPI_VS_OUT_ID: RegDef = RegDef {
    name: "SPI_VS_OUT_ID",
    fields: &[f("SEMANTIC_0", 0, 8), f("SEMANTIC_1", 8, 8), f("SEMANTIC_2", 16, 8), f("SEMANTIC_3", 24, 8)],
};

/// Clip and cull distances and the extra vertex outputs (point size, edge flag, …).
pub const PA_CL_VS_OUT_CNTL: RegDef = RegDef {
    name: "PA_CL_VS_OUT_CNTL",
    fields: &[
        f("CLIP_DIST_ENA_0", 0, 1),
        f("CLIP_DIST_ENA_1", 1, 1),
        f("CLIP_DIST_ENA_2", 2, 1),
        f("CLIP_DIST_ENA_3", 3, 1),
        f("CLIP_DIST_ENA_4", 4, 1),
        f("CLIP_DIST_ENA_5", 5, 1),
        f("CLIP_DIST_ENA_6", 6, 1),
        f("CLIP_DIST_ENA_7", 7, 1),
        f("CULL_DIST_ENA_0", 8, 1),
        f("CULL_DIST_ENA_1", 9, 1),
        f("CULL_DIST_ENA_2", 10, 1),
        f("CULL_DIST_ENA_3", 11, 1),
        f("CULL_DIST_ENA_4", 12, 1),
        f("CULL_DIST_ENA_5", 13, 1),
        f("CULL_DIST_ENA_6", 14, 1),
        f("CULL_DIST_ENA_7", 15, 1),
        f("USE_VTX_POINT_SIZE", 16, 1),
        f("USE_VTX_EDGE_FLAG", 17, 1),
        f("USE_VTX_RENDER_TARGET_INDX", 18, 1),
        f("USE_VTX_VIEWPORT_INDX", 19, 1),
        f("USE_VTX_KILL_FLAG", 20, 1),
        f("VS_OUT_MISC_VEC_ENA", 21, 1),
        f("VS_OUT_CCDIST0_VEC_ENA", 22, 1),
        f("VS_OUT_CCDIST1_VEC_ENA", 23, 1),
        f("VS_OUT_MISC_SIDE_BUS_ENA", 24, 1),
        f("USE_VTX_GS_CUT_FLAG", 25, 1),
    ],
};

/// Which entries of the vertex semantic table are cleared (a set bit: entry unused).
pub const SQ_VTX_SEMANTIC_CLEAR: RegDef =
    RegDef { name: "SQ_VTX_SEMANTIC_CLEAR", fields: &[m("CLEAR", 0, 32)] };

/// One entry of the vertex semantic table: the semantic id a fetch with it fills (0xFF:
/// none).
pub const SQ_VTX_SEMANTIC: RegDef = RegDef { name: "SQ_VTX_SEMANTIC", fields: &[f("SEMANTIC_ID", 0, 8)] };

/// Which stream-out buffers are written.
pub(crate) const VGT_STRMOUT_BUFFER_EN: RegDef = RegDef {
    name: "VGT_STRMOUT_BUFFER_EN",
    fields: &[f("BUFFER_0_EN", 0, 1), f("BUFFER_1_EN", 1, 1), f("BUFFER_2_EN", 2, 1), f("BUFFER_3_EN", 3, 1)],
};

/// The depth of the vertex reuse cache.
pub(crate) const VGT_VERTEX_REUSE_BLOCK_CNTL: RegDef =
    RegDef { name: "VGT_VERTEX_REUSE_BLOCK_CNTL", fields: &[f("VTX_REUSE_DEPTH", 0, 8)] };

/// The reuse depth for tessellated (higher-order surface) vertices.
pub(crate) const VGT_HOS_REUSE_DEPTH: RegDef =
    RegDef { name: "VGT_HOS_REUSE_DEPTH", fields: &[f("REUSE_DEPTH", 0, 8)] };

/// What the pixel shader exports: bit 0 Z, bits 1–4 the number of colour exports.
pub const SQ_PGM_EXPORTS_PS: RegDef = RegDef { name: "SQ_PGM_EXPORTS_PS", fields: &[f("EXPORT_MODE", 0, 5)] };

const BARYC_CNTL: &[&str] = &["CENTROIDS_ONLY", "CENTERS_ONLY", "CENTROIDS_AND_CENTERS"];

/// The pixel shader's interpolated inputs: how many, and the position and generated
/// parameters among them.
pub const SPI_PS_IN_CONTROL_0: RegDef = RegDef {
    name: "SPI_PS_IN_CONTROL_0",
    fields: &[
        f("NUM_INTERP", 0, 6),
        f("POSITION_ENA", 8, 1),
        f("POSITION_CENTROID", 9, 1),
        f("POSITION_ADDR", 10, 5),
        f("PARAM_GEN", 15, 4),
        f("PARAM_GEN_ADDR", 19, 7),
        e("BARYC_SAMPLE_CNTL", 26, 2, BARYC_CNTL),
        f("PERSP_GRADIENT_ENA", 28, 1),
        f("LINEAR_GRADIENT_ENA", 29, 1),
        f("POSITION_SAMPLE", 30, 1),
        f("BARYC_AT_SAMPLE_ENA", 31, 1),
    ],
};

/// The pixel shader's generated inputs: pixel index, front face, fog, fixed-point position.
pub(crate) const SPI_PS_IN_CONTROL_1: RegDef = RegDef {
    name: "SPI_PS_IN_CONTROL_1",
    fields: &[
        f("GEN_INDEX_PIX", 0, 1),
        f("GEN_INDEX_PIX_ADDR", 1, 7),
        f("FRONT_FACE_ENA", 8, 1),
        f("FRONT_FACE_CHAN", 9, 2),
        f("FRONT_FACE_ALL_BITS", 11, 1),
        f("FRONT_FACE_ADDR", 12, 5),
        f("FOG_ADDR", 17, 7),
        f("FIXED_PT_POSITION_ENA", 24, 1),
        f("FIXED_PT_POSITION_ADDR", 25, 5),
        f("POSITION_ULC", 30, 1),
    ],
};

/// One interpolated pixel shader input: the semantic it reads and how it is interpolated.
pub(crate) const SPI_PS_INPUT_CNTL: RegDef = RegDef {
    name: "SPI_PS_INPUT_CNTL",
    fields: &[
        f("SEMANTIC", 0, 8),
        f("DEFAULT_VAL", 8, 2),
        f("FLAT_SHADE", 10, 1),
        f("SEL_CENTROID", 11, 1),
        f("SEL_LINEAR", 12, 1),
        f("CYL_WRAP", 13, 4),
        f("PT_SPRITE_TEX", 17, 1),
        f("SEL_SAMPLE", 18, 1),
    ],
};

/// The components of each colour output the pixel shader writes.
pub const CB_SHADER_MASK: RegDef = RegDef {
    name: "CB_SHADER_MASK",
    fields: &[
        m("OUTPUT0_ENABLE", 0, 4),
        m("OUTPUT1_ENABLE", 4, 4),
        m("OUTPUT2_ENABLE", 8, 4),
        m("OUTPUT3_ENABLE", 12, 4),
        m("OUTPUT4_ENABLE", 16, 4),
        m("OUTPUT5_ENABLE", 20, 4),
        m("OUTPUT6_ENABLE", 24, 4),
        m("OUTPUT7_ENABLE", 28, 4),
    ],
};

/// Which render targets the pixel shader writes.
pub(crate) const CB_SHADER_CONTROL: RegDef = RegDef {
    name: "CB_SHADER_CONTROL",
    fields: &[
        f("RT0_ENABLE", 0, 1),
        f("RT1_ENABLE", 1, 1),
        f("RT2_ENABLE", 2, 1),
        f("RT3_ENABLE", 3, 1),
        f("RT4_ENABLE", 4, 1),
        f("RT5_ENABLE", 5, 1),
        f("RT6_ENABLE", 6, 1),
        f("RT7_ENABLE", 7, 1),
    ],
};

const Z_ORDER: &[&str] = &["LATE_Z", "EARLY_Z_THEN_LATE_Z", "RE_Z", "EARLY_Z_THEN_RE_Z"];

/// The depth block's view of the pixel shader: Z and stencil exports, kill, Z order.
pub const DB_SHADER_CONTROL: RegDef = RegDef {
    name: "DB_SHADER_CONTROL",
    fields: &[
        f("Z_EXPORT_ENABLE", 0, 1),
        f("STENCIL_REF_EXPORT_ENABLE", 1, 1),
        e("Z_ORDER", 4, 2, Z_ORDER),
        f("KILL_ENABLE", 6, 1),
        f("COVERAGE_TO_MASK_ENABLE", 7, 1),
        f("MASK_EXPORT_ENABLE", 8, 1),
        f("DUAL_EXPORT_ENABLE", 9, 1),
        f("EXEC_ON_HIER_FAIL", 10, 1),
        f("EXEC_ON_NOOP", 11, 1),
        f("ALPHA_TO_MASK_DISABLE", 12, 1),
    ],
};

/// Whether Z is passed to the pixel shader.
pub const SPI_INPUT_Z: RegDef = RegDef { name: "SPI_INPUT_Z", fields: &[f("PROVIDE_Z_TO_SPI", 0, 1)] };

const GS_OUT_PRIM: &[&str] = &["POINTLIST", "LINESTRIP", "TRISTRIP"];

/// The primitive type the geometry shader emits.
pub(crate) const VGT_GS_OUT_PRIM_TYPE: RegDef =
    RegDef { name: "VGT_GS_OUT_PRIM_TYPE", fields: &[e("PRIM_TYPE", 0, 6, GS_OUT_PRIM)] };

const GS_MODE: &[&str] = &["OFF", "SCENARIO_A", "SCENARIO_B", "SCENARIO_G"];
const GS_CUT_MODE: &[&str] = &["CUT_1024", "CUT_512", "CUT_256", "CUT_128"];

/// The geometry shader scenario and its cut mode.
pub(crate) const VGT_GS_MODE: RegDef = RegDef {
    name: "VGT_GS_MODE",
    fields: &[
        e("MODE", 0, 2, GS_MODE),
        f("ES_PASSTHRU", 2, 1),
        e("CUT_MODE", 3, 2, GS_CUT_MODE),
        f("MODE_HI", 8, 1),
        f("GS_C_PACK_EN", 11, 1),
        f("COMPUTE_MODE", 14, 1),
        f("FAST_COMPUTE_MODE", 15, 1),
        f("ELEMENT_INFO_EN", 16, 1),
        f("PARTIAL_THD_AT_EOI", 17, 1),
    ],
};

/// The size of one vertex the geometry shader writes to the GS→VS ring, in dwords.
pub(crate) const SQ_GS_VERT_ITEMSIZE: RegDef =
    RegDef { name: "SQ_GS_VERT_ITEMSIZE", fields: &[f("ITEMSIZE", 0, 15)] };

/// One entry of a struct's `regs` block: a register, a table of `count` registers of one
/// kind, or (`def` `None`) a count GX2 keeps beside a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The register's name, or the count's (decaf-emu's `num_spi_vs_out_id`, …).
    pub name: &'static str,
    /// The register; `None` for a count.
    pub def: Option<&'static RegDef>,
    /// How many words (1, or the length of a table).
    pub count: usize,
}

const fn reg(def: &'static RegDef) -> Slot {
    Slot { name: def.name, def: Some(def), count: 1 }
}

const fn table(def: &'static RegDef, count: usize) -> Slot {
    Slot { name: def.name, def: Some(def), count }
}

const fn count(name: &'static str) -> Slot {
    Slot { name, def: None, count: 1 }
}

/// The `regs` block of `GX2VertexShader` (52 words).
pub const VERTEX: &[Slot] = &[
    reg(&SQ_PGM_RESOURCES_VS),
    reg(&VGT_PRIMITIVEID_EN),
    reg(&SPI_VS_OUT_CONFIG),
    count("num_spi_vs_out_id"),
    table(&SPI_VS_OUT_ID, 10),
    reg(&PA_CL_VS_OUT_CNTL),
    reg(&SQ_VTX_SEMANTIC_CLEAR),
    count("num_sq_vtx_semantic"),
    table(&SQ_VTX_SEMANTIC, 32),
    reg(&VGT_STRMOUT_BUFFER_EN),
    reg(&VGT_VERTEX_REUSE_BLOCK_CNTL),
    reg(&VGT_HOS_REUSE_DEPTH),
];

/// The `regs` block of `GX2PixelShader` (41 words).
pub const PIXEL: &[Slot] = &[
    reg(&SQ_PGM_RESOURCES_PS),
    reg(&SQ_PGM_EXPORTS_PS),
    reg(&SPI_PS_IN_CONTROL_0),
    reg(&SPI_PS_IN_CONTROL_1),
    count("num_spi_ps_input_cntl"),
    table(&SPI_PS_INPUT_CNTL, 32),
    reg(&CB_SHADER_MASK),
    reg(&CB_SHADER_CONTROL),
    reg(&DB_SHADER_CONTROL),
    reg(&SPI_INPUT_Z),
];

/// The `regs` block of `GX2GeometryShader` (19 words); SQ_PGM_RESOURCES_VS, PA_CL_VS_OUT_CNTL
/// and the SPI_VS_OUT_* words are the copy shader's.
pub const GEOMETRY: &[Slot] = &[
    reg(&SQ_PGM_RESOURCES_GS),
    reg(&VGT_GS_OUT_PRIM_TYPE),
    reg(&VGT_GS_MODE),
    reg(&PA_CL_VS_OUT_CNTL),
    reg(&SQ_PGM_RESOURCES_VS),
    reg(&SQ_GS_VERT_ITEMSIZE),
    reg(&SPI_VS_OUT_CONFIG),
    count("num_spi_vs_out_id"),
    table(&SPI_VS_OUT_ID, 10),
    reg(&VGT_STRMOUT_BUFFER_EN),
];

/// The number of words of a layout.
pub const fn words(layout: &[Slot]) -> usize {
    let (mut n, mut rest) = (0, layout);
    while let [slot, tail @ ..] = rest {
        n += slot.count;
        rest = tail;
    }
    n
}

/// The index of the first word of `layout[slot]`.
pub fn word_index(layout: &[Slot], slot: usize) -> usize {
    layout.iter().take(slot).map(|s| s.count).sum()
}

/// The index of the first word of the slot named `name` (a register's or a count's).
pub(crate) fn index_of(layout: &[Slot], name: &str) -> Option<usize> {
    let slot = layout.iter().position(|s| s.name == name)?;
    Some(word_index(layout, slot))
}

/// One word of a `regs` block, with what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    /// The register's name (or the count's).
    pub name: &'static str,
    /// Its index in a table of registers; `None` for a single register or count.
    pub index: Option<usize>,
    /// The word's index in the `regs` block (its byte offset in the struct is 4 times it).
    pub word: usize,
    /// The value.
    pub value: u32,
    /// The register; `None` for a count.
    pub def: Option<&'static RegDef>,
}

impl Word {
    /// `SQ_VTX_SEMANTIC[3]`, `num_sq_vtx_semantic`, `SQ_PGM_RESOURCES_VS`.
    pub fn label(&self) -> String {
        match self.index {
            Some(i) => format!("{}[{i}]", self.name),
            None => self.name.to_string(),
        }
    }

    /// The decoded fields (`NUM_GPRS=2 STACK_SIZE=1`), or the count as a number.
    pub fn describe(&self) -> String {
        match self.def {
            Some(d) => d.describe(self.value),
            None => self.value.to_string(),
        }
    }
}

/// Every word of `values` (a `regs` block laid out as `layout`), in order.
pub fn each<'a>(layout: &'a [Slot], values: &'a [u32]) -> impl Iterator<Item = Word> + 'a {
    layout.iter().flat_map(|s| (0..s.count).map(move |i| (s, i))).zip(values.iter().enumerate()).map(
        |((s, i), (word, &value))| Word {
            name: s.name,
            index: (s.count > 1).then_some(i),
            word,
            value,
            def: s.def,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_have_the_struct_sizes() {
        assert_eq!(words(VERTEX) * 4, 0xD0);
        assert_eq!(words(PIXEL) * 4, 0xA4);
        assert_eq!(words(GEOMETRY) * 4, 0x4C);
        assert_eq!(index_of(VERTEX, "PA_CL_VS_OUT_CNTL"), Some(0x38 / 4));
        assert_eq!(index_of(VERTEX, "SQ_VTX_SEMANTIC"), Some(0x44 / 4));
        assert_eq!(index_of(VERTEX, "VGT_HOS_REUSE_DEPTH"), Some(0xCC / 4));
        assert_eq!(index_of(PIXEL, "CB_SHADER_MASK"), Some(0x94 / 4));
        assert_eq!(index_of(PIXEL, "SPI_INPUT_Z"), Some(0xA0 / 4));
        assert_eq!(index_of(GEOMETRY, "SQ_GS_VERT_ITEMSIZE"), Some(0x14 / 4));
        assert_eq!(index_of(GEOMETRY, "VGT_STRMOUT_BUFFER_EN"), Some(0x48 / 4));
    }

    #[test]
    fn words_are_labelled_and_decoded() {
        let mut values = [0u32; 52];
        values[0] = 0x315;
        values[20] = 3;
        let w: Vec<Word> = each(VERTEX, &values).collect();
        assert_eq!(w.len(), 52);
        assert_eq!(
            (w[0].label(), w[0].describe()),
            ("SQ_PGM_RESOURCES_VS".into(), "NUM_GPRS=21 STACK_SIZE=3".into())
        );
        assert_eq!((w[20].label(), w[20].describe()), ("SQ_VTX_SEMANTIC[3]".into(), "SEMANTIC_ID=3".into()));
        assert_eq!(w[16].label(), "num_sq_vtx_semantic");
        let json = SPI_PS_IN_CONTROL_0.fields_json(0x1400_0006);
        assert_eq!(json["NUM_INTERP"], 6);
        assert_eq!(json["BARYC_SAMPLE_CNTL"], "CENTERS_ONLY");
        assert_eq!(json["PERSP_GRADIENT_ENA"], true);
        assert_eq!(VGT_GS_MODE.fields_json(3)["MODE"], "SCENARIO_G");
        assert_eq!(VGT_GS_OUT_PRIM_TYPE.fields_json(9)["PRIM_TYPE"], "unknown (9)");
    }
}
