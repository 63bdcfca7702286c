//! `validate` of a GX2 shader struct: register fields that disagree with each other or with
//! the struct's arrays, values the SDK does not define, and ([`Shader::check_program`])
//! register fields that disagree with what the microcode uses (GPRs, parameter, colour and
//! depth exports).

use super::{Kind, Shader, regs};
use crate::model::Finding;
use std::collections::HashSet;

/// The highest register below R120 the program addresses absolutely (the compilers' clause
/// temporaries from R120 on are not counted by `NUM_GPRS`).
pub(super) fn highest_gpr(usage: &crate::isa::latte::Usage) -> Option<u32> {
    (0..120).rev().find(|&r| usage.gprs_read.contains(r) || usage.gprs_written.contains(r))
}

impl Shader<'_> {
    /// The `SQ_PGM_RESOURCES_*` register of this kind of shader (its `NUM_GPRS`, `STACK_SIZE`).
    pub(super) fn resources_reg(&self) -> &'static str {
        match self.kind {
            Kind::Vertex => "SQ_PGM_RESOURCES_VS",
            Kind::Pixel => "SQ_PGM_RESOURCES_PS",
            Kind::Geometry => "SQ_PGM_RESOURCES_GS",
        }
    }

    /// Absolute offset of word `name` of the `regs` block (its first, for a table).
    fn reg_offset(&self, name: &str) -> u64 {
        self.at + 4 * regs::index_of(self.layout().regs, name).unwrap_or(0) as u64
    }

    /// The findings about the struct against its microcode `code` (at absolute `base`), as
    /// [`crate::isa::latte::usage`] reads it: a GPR the program uses at or above
    /// `SQ_PGM_RESOURCES_*.NUM_GPRS` (registers from R120 on are not counted: the compilers use
    /// the top of the register file for clause temporaries, which NUM_GPRS leaves out — the
    /// corpus's gshCompile shaders use R122–R127 so with NUM_GPRS as low as 7; nothing is said
    /// when registers are addressed relatively); a vertex shader exporting more parameters
    /// than `SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT` + 1 (an error) or fewer (a warning); a pixel
    /// shader whose colour and depth exports disagree with `SQ_PGM_EXPORTS_PS` (an error),
    /// `CB_SHADER_MASK` or `DB_SHADER_CONTROL` (warnings). No corpus shader has any of these.
    pub fn check_program(&self, title: &str, code: &[u8], base: u64, out: &mut Vec<Finding>) {
        let usage = crate::isa::latte::usage(code, base);
        let resources = self.resources_reg();
        let highest = highest_gpr(&usage);
        if let (Some(r), Some(n), false) =
            (highest, self.reg_field(resources, "NUM_GPRS"), usage.relative_gprs)
        {
            if r >= n {
                out.push(Finding::error(
                    self.reg_offset(resources),
                    format!("{title}: the microcode uses R{r}, but {resources}.NUM_GPRS is {n}"),
                ));
            }
        }
        if self.kind == Kind::Pixel {
            self.check_pixel_exports(title, &usage.exports, out);
        }
        if self.kind == Kind::Vertex {
            let params = usage.exports.params.len();
            if let Some(count) = self.reg_field("SPI_VS_OUT_CONFIG", "VS_EXPORT_COUNT") {
                // More parameters than announced are lost; fewer leave the pixel shader
                // reading ones nothing wrote. No parameter at all reads as VS_EXPORT_COUNT 0.
                let (announced, at) = (count + 1, self.reg_offset("SPI_VS_OUT_CONFIG"));
                let text = format!(
                    "{title}: the microcode exports {}, but SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT is {count} ({})",
                    crate::print::count(params, "parameter"),
                    crate::print::count(announced, "parameter")
                );
                if params > announced {
                    out.push(Finding::error(at, text));
                } else if params < announced && params > 0 {
                    out.push(Finding::warning(at, text));
                }
            }
        }
    }

    /// A pixel shader's export registers against what its microcode exports: the colour
    /// targets and depth `SQ_PGM_EXPORTS_PS.EXPORT_MODE` announces (bit 0 depth, bits 1–4
    /// the number of colour exports; a shader that exports nothing still announces one
    /// colour, as the R600 driver programs it), the targets `CB_SHADER_MASK` enables and
    /// `DB_SHADER_CONTROL.Z_EXPORT_ENABLE`.
    fn check_pixel_exports(&self, title: &str, exports: &crate::isa::latte::Exports, out: &mut Vec<Finding>) {
        let colors = (0..8).filter(|&rt| exports.pixels.contains(rt)).count() as u32;
        let depth = exports.pixels.contains(61);
        if let Some(mode) = self.reg_field("SQ_PGM_EXPORTS_PS", "EXPORT_MODE") {
            let expect = match (colors << 1) | u32::from(depth) {
                0 => 2,
                m => m,
            };
            if mode != expect {
                out.push(Finding::error(
                    self.reg_offset("SQ_PGM_EXPORTS_PS"),
                    format!(
                        "{title}: SQ_PGM_EXPORTS_PS.EXPORT_MODE is {mode} ({}{}), but the microcode exports {}{} ({expect})",
                        crate::print::count(mode >> 1, "colour"),
                        if mode & 1 != 0 { " and depth" } else { "" },
                        crate::print::count(colors, "colour"),
                        if depth { " and depth" } else { "" },
                    ),
                ));
            }
        }
        if let Some(mask) = self.reg("CB_SHADER_MASK") {
            for rt in 0..8 {
                let enabled = (mask >> (4 * rt)) & 0xF != 0;
                if exports.pixels.contains(rt) != enabled {
                    out.push(Finding::warning(
                        self.reg_offset("CB_SHADER_MASK"),
                        format!(
                            "{title}: CB_SHADER_MASK.OUTPUT{rt}_ENABLE is 0x{:x}, but the microcode {} colour {rt}",
                            (mask >> (4 * rt)) & 0xF,
                            if enabled { "does not export" } else { "exports" },
                        ),
                    ));
                }
            }
        }
        if let Some(z) = self.reg_field("DB_SHADER_CONTROL", "Z_EXPORT_ENABLE") {
            if (z != 0) != depth {
                out.push(Finding::warning(
                    self.reg_offset("DB_SHADER_CONTROL"),
                    format!(
                        "{title}: DB_SHADER_CONTROL.Z_EXPORT_ENABLE is {z}, but the microcode {} depth",
                        if depth { "exports" } else { "does not export" }
                    ),
                ));
            }
        }
    }

    /// The findings about the struct; `title` names the shader in them (`vertex shader 0`).
    pub fn check(&self, title: &str, out: &mut Vec<Finding>) {
        let l = self.layout();
        if self.mode.name().is_none() {
            out.push(Finding::warning(
                self.at + l.mode as u64,
                format!("{title}: unknown shader mode {}", self.mode.0),
            ));
        }
        for w in self.registers() {
            if let Some(d) = w.def {
                let bits = d.unknown_bits(w.value);
                // Unused table entries are filled with ones (0xFF semantics, 0xFFFFFFFF ids).
                let filler = w.index.is_some() && (w.value == 0xFF || w.value == u32::MAX);
                if bits != 0 && !filler {
                    out.push(Finding::warning(
                        self.at + 4 * w.word as u64,
                        format!("{title}: {} has bits no field covers (0x{bits:x})", w.label()),
                    ));
                }
            }
        }
        match self.kind {
            Kind::Vertex => {
                self.check_exports(title, out);
                self.check_semantics(title, out);
            }
            Kind::Geometry => self.check_exports(title, out),
            Kind::Pixel => self.check_pixel(title, out),
        }
        self.check_symbols(title, out);
        if let Some(ring) = l.ring {
            let at = self.at + ring as u64 + 4;
            if self.has_stream_out > 1 {
                out.push(Finding::warning(
                    at,
                    format!("{title}: has-stream-out flag {} is not 0 or 1", self.has_stream_out),
                ));
            }
            let buffers = self.reg("VGT_STRMOUT_BUFFER_EN").unwrap_or(0);
            if buffers != 0 && self.has_stream_out == 0 {
                out.push(Finding::warning(
                    self.reg_offset("VGT_STRMOUT_BUFFER_EN"),
                    format!("{title}: VGT_STRMOUT_BUFFER_EN enables stream-out buffers (0x{buffers:x}) but the shader has no stream out"),
                ));
            }
        }
    }

    /// SPI_VS_OUT_CONFIG's export count against the number of SPI_VS_OUT_ID words.
    fn check_exports(&self, title: &str, out: &mut Vec<Finding>) {
        let n = self.reg("num_spi_vs_out_id").unwrap_or(0);
        let at = self.reg_offset("num_spi_vs_out_id");
        if n > 10 {
            out.push(Finding::error(
                at,
                format!("{title}: num_spi_vs_out_id {n} is more than the 10 SPI_VS_OUT_ID words"),
            ));
            return;
        }
        let count = self.reg_field("SPI_VS_OUT_CONFIG", "VS_EXPORT_COUNT").unwrap_or(0);
        let words = (count + 1).div_ceil(4);
        // A shader without parameter exports has VS_EXPORT_COUNT 0 and no words.
        if n != words && !(count == 0 && n == 0) {
            out.push(Finding::warning(
                at,
                format!(
                    "{title}: num_spi_vs_out_id is {n} but SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT {count} means {} exports in {words} SPI_VS_OUT_ID words",
                    count + 1
                ),
            ));
        }
    }

    /// The vertex semantic table against its count, its clear mask and the attrib vars.
    fn check_semantics(&self, title: &str, out: &mut Vec<Finding>) {
        let n = self.reg("num_sq_vtx_semantic").unwrap_or(0);
        let at = self.reg_offset("num_sq_vtx_semantic");
        if n > 32 {
            out.push(Finding::error(
                at,
                format!("{title}: num_sq_vtx_semantic {n} is more than the 32 SQ_VTX_SEMANTIC words"),
            ));
            return;
        }
        let clear = self.reg("SQ_VTX_SEMANTIC_CLEAR").unwrap_or(0);
        let expect = if n == 32 { 0 } else { !((1u32 << n) - 1) };
        if clear != expect {
            out.push(Finding::warning(
                self.reg_offset("SQ_VTX_SEMANTIC_CLEAR"),
                format!("{title}: SQ_VTX_SEMANTIC_CLEAR is 0x{clear:08x} but {n} semantics are used (0x{expect:08x})"),
            ));
        }
        // Every location an attrib var takes (a matrix one per column, an array one per
        // element).
        let mut taken = HashSet::new();
        for a in &self.attrib_vars.items {
            let per = a.ty.registers().unwrap_or(1);
            for k in 0..per.saturating_mul(a.count.max(1)).min(64) {
                taken.insert(a.location.saturating_add(k));
            }
        }
        if self.attrib_vars.items.is_empty() {
            return;
        }
        for i in 0..n as usize {
            let id = self.reg_at("SQ_VTX_SEMANTIC", i).unwrap_or(0) & 0xFF;
            if id != 0xFF && !taken.contains(&id) {
                out.push(Finding::warning(
                    self.reg_offset("SQ_VTX_SEMANTIC") + 4 * i as u64,
                    format!("{title}: SQ_VTX_SEMANTIC[{i}] is semantic {id}, the location of no attrib var"),
                ));
            }
        }
    }

    /// The pixel shader's input count and colour outputs.
    fn check_pixel(&self, title: &str, out: &mut Vec<Finding>) {
        let n = self.reg("num_spi_ps_input_cntl").unwrap_or(0);
        let at = self.reg_offset("num_spi_ps_input_cntl");
        if n > 32 {
            out.push(Finding::error(
                at,
                format!("{title}: num_spi_ps_input_cntl {n} is more than the 32 SPI_PS_INPUT_CNTL words"),
            ));
        } else {
            let interp = self.reg_field("SPI_PS_IN_CONTROL_0", "NUM_INTERP").unwrap_or(0);
            if interp != n {
                out.push(Finding::warning(
                    self.reg_offset("SPI_PS_IN_CONTROL_0"),
                    format!(
                        "{title}: SPI_PS_IN_CONTROL_0.NUM_INTERP is {interp} but num_spi_ps_input_cntl is {n}"
                    ),
                ));
            }
        }
        let mask = self.reg("CB_SHADER_MASK").unwrap_or(0);
        let control = self.reg("CB_SHADER_CONTROL").unwrap_or(0);
        for rt in 0..8 {
            let writes = (mask >> (4 * rt)) & 0xF != 0;
            let enabled = (control >> rt) & 1 != 0;
            if writes != enabled {
                out.push(Finding::warning(
                    self.reg_offset("CB_SHADER_CONTROL"),
                    format!(
                        "{title}: CB_SHADER_CONTROL.RT{rt}_ENABLE is {} but CB_SHADER_MASK.OUTPUT{rt}_ENABLE is 0x{:x}",
                        u32::from(enabled),
                        (mask >> (4 * rt)) & 0xF
                    ),
                ));
            }
        }
    }

    /// Types the SDK does not name, block indices, names, duplicate bindings.
    fn check_symbols(&self, title: &str, out: &mut Vec<Finding>) {
        let blocks = self.uniform_blocks.items.len();
        let mut seen = HashSet::new();
        for (i, b) in self.uniform_blocks.items.iter().enumerate() {
            if !seen.insert(b.offset) {
                out.push(Finding::warning(
                    b.at + 4,
                    format!("{title}: uniform block {i} shares location {} with another", b.offset),
                ));
            }
        }
        for (i, v) in self.uniform_vars.items.iter().enumerate() {
            if v.ty.name().is_none() {
                out.push(Finding::warning(
                    v.at + 4,
                    format!("{title}: uniform var {i} has unknown type {}", v.ty.0),
                ));
            }
            if v.block >= 0 {
                match self.uniform_blocks.items.get(v.block as usize) {
                    None => out.push(Finding::error(
                        v.at + 16,
                        format!("{title}: uniform var {i} is in block {} but the shader has {blocks} uniform blocks", v.block),
                    )),
                    Some(b) if u64::from(v.offset) * 4 >= u64::from(b.size) => out.push(Finding::warning(
                        v.at + 12,
                        format!(
                            "{title}: uniform var {i} starts at byte {} of block {}, which has {} bytes",
                            u64::from(v.offset) * 4,
                            v.block,
                            b.size
                        ),
                    )),
                    Some(_) => {}
                }
            } else if v.block != -1 {
                out.push(Finding::error(
                    v.at + 16,
                    format!("{title}: uniform var {i} has block index {}", v.block),
                ));
            }
        }
        let mut seen = HashSet::new();
        for (i, s) in self.sampler_vars.items.iter().enumerate() {
            if s.ty.name().is_none() {
                out.push(Finding::warning(
                    s.at + 4,
                    format!("{title}: sampler var {i} has unknown type {}", s.ty.0),
                ));
            }
            if !seen.insert(s.location) {
                out.push(Finding::warning(
                    s.at + 8,
                    format!("{title}: sampler var {i} shares location {} with another", s.location),
                ));
            }
        }
        for (i, a) in self.attrib_vars.items.iter().enumerate() {
            if a.ty.name().is_none() {
                out.push(Finding::warning(
                    a.at + 4,
                    format!("{title}: attrib var {i} has unknown type {}", a.ty.0),
                ));
            }
        }
        let named = self
            .uniform_blocks
            .items
            .iter()
            .map(|x| (x.at, &x.name, "uniform block"))
            .chain(self.uniform_vars.items.iter().map(|x| (x.at, &x.name, "uniform var")))
            .chain(self.sampler_vars.items.iter().map(|x| (x.at, &x.name, "sampler var")))
            .chain(self.attrib_vars.items.iter().map(|x| (x.at, &x.name, "attrib var")));
        for (at, name, what) in named {
            if name.text.is_none() {
                out.push(Finding::warning(at, format!("{title}: a {what} has no name")));
            }
        }
    }
}

/// What claims a range of a shader struct's bytes, for [`Shader::check_sharing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Piece {
    /// The struct itself.
    Struct,
    /// One of its arrays.
    Array(&'static str),
    /// The name of entry `1` of the array of entries called `0`.
    Name(&'static str, usize),
    /// A range the caller names (a SHARCFB binary's programs).
    Extra(usize),
}

impl Shader<'_> {
    /// The findings about bytes the struct's pieces share: an array that overlaps the struct
    /// or another array, a name inside either, a name another entry's name points at again
    /// (a warning: one per name, however many entries repeat it), a name that overlaps
    /// another (a warning), and `extra` ranges (absolute, with what they are: a SHARCFB
    /// binary's program and copy program) that overlap anything. One finding per piece, at
    /// its first shared byte; a sweep in offset order, so many pieces cost n log n.
    pub fn check_sharing(&self, title: &str, extra: &[(&str, std::ops::Range<u64>)], out: &mut Vec<Finding>) {
        let mut pieces: Vec<(u64, u64, Piece)> =
            vec![(self.at, self.at + u64::from(self.len), Piece::Struct)];
        let mut array = |at: Option<u64>, n: usize, entry: u64, what: &'static str| {
            if let Some(a) = at.filter(|_| n > 0) {
                pieces.push((a, a + n as u64 * entry, Piece::Array(what)));
            }
        };
        array(self.uniform_blocks.at, self.uniform_blocks.items.len(), 0xC, "uniform blocks");
        array(self.uniform_vars.at, self.uniform_vars.items.len(), 0x14, "uniform vars");
        array(self.initial_values.at, self.initial_values.items.len(), 0x14, "initial values");
        array(self.loop_vars.at, self.loop_vars.items.len(), 8, "loop vars");
        array(self.sampler_vars.at, self.sampler_vars.items.len(), 0xC, "sampler vars");
        array(self.attrib_vars.at, self.attrib_vars.items.len(), 0x10, "attrib vars");
        let names = self
            .uniform_blocks
            .items
            .iter()
            .enumerate()
            .map(|(i, x)| (x.at, &x.name, "uniform block", i))
            .chain(self.uniform_vars.items.iter().enumerate().map(|(i, x)| (x.at, &x.name, "uniform var", i)))
            .chain(self.sampler_vars.items.iter().enumerate().map(|(i, x)| (x.at, &x.name, "sampler var", i)))
            .chain(self.attrib_vars.items.iter().enumerate().map(|(i, x)| (x.at, &x.name, "attrib var", i)));
        // A name pointed at again: one warning per name, at the first entry repeating it.
        // Per name offset: the first entry naming it, and the first entry repeating it (its
        // name field) with how many do.
        type Repeats = Option<(u64, Piece, usize)>;
        let mut first: std::collections::HashMap<u64, (Piece, Repeats)> = std::collections::HashMap::new();
        for (field, name, what, i) in names {
            let Some(t) = &name.text else { continue };
            let piece = Piece::Name(what, i);
            let entry = first.entry(t.offset).or_insert((piece, None));
            if entry.0 == piece {
                pieces.push((t.offset, t.offset + t.bytes.len() as u64 + 1, piece));
            } else {
                entry.1.get_or_insert((field, piece, 0)).2 += 1;
            }
        }
        let mut repeats: Vec<_> = first.into_iter().filter_map(|(at, (f, r))| Some((r?, f, at))).collect();
        repeats.sort_unstable();
        for ((field, by, n), of, at) in repeats {
            let which = if n == 1 {
                format!("the name of {} is", entry(by))
            } else {
                format!("{n} names, from {}'s on, are", entry(by))
            };
            out.push(Finding::warning(
                field,
                format!(
                    "{title}: {which} the name of {} (at 0x{at:x}): the same bytes are reached again",
                    entry(of)
                ),
            ));
        }
        for (k, (_, r)) in extra.iter().enumerate() {
            if r.end > r.start {
                pieces.push((r.start, r.end, Piece::Extra(k)));
            }
        }
        pieces.sort_unstable();
        let label = |p: Piece| match p {
            Piece::Extra(k) => extra.get(k).map_or(String::new(), |(what, _)| (*what).to_string()),
            p => describe(p),
        };
        // The piece reaching furthest so far.
        let mut reach: Option<(u64, Piece)> = None;
        for &(start, end, p) in &pieces {
            if let Some((r_end, q)) = reach
                && start < r_end
            {
                let text = format!(
                    "{title}: {} and {} share bytes (from 0x{start:x} to 0x{:x})",
                    label(p),
                    label(q),
                    end.min(r_end)
                );
                let names = matches!((p, q), (Piece::Name(..), Piece::Name(..)));
                out.push(if names { Finding::warning(start, text) } else { Finding::error(start, text) });
            }
            if reach.is_none_or(|(r_end, _)| end > r_end) {
                reach = Some((end, p));
            }
        }
    }
}

/// The entry whose name `p` is: `uniform var 3`.
fn entry(p: Piece) -> String {
    match p {
        Piece::Name(what, i) => format!("{what} {i}"),
        p => describe(p),
    }
}

/// `the struct`, `the uniform vars`, `the name of uniform var 3`.
fn describe(p: Piece) -> String {
    match p {
        Piece::Struct => "the struct".into(),
        Piece::Array(what) => format!("the {what}"),
        Piece::Name(what, i) => format!("the name of {what} {i}"),
        Piece::Extra(k) => format!("range {k}"),
    }
}
