//! What a program uses, for checking the registers of the GX2 shader structs against the
//! microcode (`validate`): registers read and written, exports by type, fetch resources,
//! constant buffers, loops, whether it calls the fetch shader.

use super::alu::{self, Group, Operand};
use super::cf::{self, Cf, CfKind, ClauseKind, inst};
use super::tex::{self, Tex};
use super::vtx::{self, Vtx};
use super::walk::Step;
use crate::error::Error;
use crate::isa::walk::Visit;
use serde::Serialize;

/// A set of small numbers (0–255): registers, export slots, resource ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct IdSet([u64; 4]);

impl IdSet {
    /// Add `n` (numbers above 255 are not kept).
    pub fn insert(&mut self, n: u32) {
        if let Some(w) = self.0.get_mut((n / 64) as usize) {
            *w |= 1 << (n % 64);
        }
    }

    /// Whether `n` is in the set.
    pub fn contains(&self, n: u32) -> bool {
        self.0.get((n / 64) as usize).is_some_and(|w| w >> (n % 64) & 1 == 1)
    }

    /// The highest number, if any.
    pub fn max(&self) -> Option<u32> {
        (0..4u32).rev().find_map(|i| {
            let w = self.0.get(i as usize).copied().unwrap_or(0);
            (w != 0).then(|| 64 * i + 63 - w.leading_zeros())
        })
    }

    /// How many numbers it holds.
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The numbers, in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..256u32).filter(|&n| self.contains(n))
    }
}

impl Serialize for IdSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// The exports of a program, by type: the array slots written (a burst of N+1 registers
/// writes N+1 consecutive slots).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct Exports {
    /// Position slots (`POS0`–`POS3`: `ARRAY_BASE` 60–63 minus 60).
    pub positions: IdSet,
    /// Parameter slots (`PARAM0`–`PARAM31`): what `SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT` counts.
    pub params: IdSet,
    /// Pixel slots (`PIX0`–`PIX7` colour targets, 16–23 with fog, 61 computed depth).
    pub pixels: IdSet,
    /// Memory-export instructions (streams, rings, scratch, reduction, `MEM_EXPORT`).
    pub memory: u32,
}

/// What a program uses ([`usage`](super::usage)).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct Usage {
    /// General-purpose registers read with absolute addresses (ALU sources, fetch sources,
    /// exported registers, memory-export index registers). The GX2 compilers use the
    /// highest registers (R123–R127) as clause temporaries, which `SQ_PGM_RESOURCES_*.NUM_GPRS`
    /// does not count.
    pub gprs_read: IdSet,
    /// General-purpose registers written with absolute addresses (ALU destinations, fetch
    /// destinations).
    pub gprs_written: IdSet,
    /// Whether some register is addressed relative to AR or the loop index (then the
    /// registers above are not all there is).
    pub relative_gprs: bool,
    /// Exports by type.
    pub exports: Exports,
    /// Whether it calls the fetch shader (`CALL_FS`: vertex shaders).
    pub calls_fetch_shader: bool,
    /// Loops (`LOOP_START`, `LOOP_START_DX10`, `LOOP_START_NO_AL`).
    pub loops: u32,
    /// Vertices emitted (`EMIT_VERTEX`, `EMIT_CUT_VERTEX`: geometry shaders).
    pub emits: u32,
    /// Whether the control flow reaches `END_OF_PROGRAM`.
    pub ends: bool,
    /// Constant buffers a kcache bank locks (uniform-block mode).
    pub constant_buffers: IdSet,
    /// Constant-file registers read with absolute addresses (uniform-register mode: C0–C255).
    pub constants: IdSet,
    /// Whether some constant-file register is read relative to AR or the loop index.
    pub relative_constants: bool,
    /// Texture resources of texture fetches (`t`).
    pub textures: IdSet,
    /// Samplers of texture fetches (`s`).
    pub samplers: IdSet,
    /// Buffers of vertex fetches (`b`).
    pub buffers: IdSet,
}

/// The visitor that fills a [`Usage`].
#[derive(Default)]
pub(crate) struct UsageVisitor {
    pub(crate) usage: Usage,
}

impl UsageVisitor {
    fn read(&mut self, gpr: u32, rel: bool) {
        if rel {
            self.usage.relative_gprs = true;
        } else {
            self.usage.gprs_read.insert(gpr);
        }
    }

    fn write(&mut self, gpr: u32, rel: bool) {
        if rel {
            self.usage.relative_gprs = true;
        } else {
            self.usage.gprs_written.insert(gpr);
        }
    }
}

impl Visit<Step<'_>> for UsageVisitor {
    fn step(&mut self, step: Step<'_>) {
        match step {
            Step::Cf { cf, .. } => self.cf(cf),
            Step::Group { group, .. } => self.group(group),
            Step::Fetch { kind, inst, .. } => self.fetch(kind, inst),
            Step::CfDone { ends, .. } => self.usage.ends |= ends,
            Step::Rest { .. } => {}
        }
    }

    fn problem(&mut self, _error: Error) {}
}

impl UsageVisitor {
    fn cf(&mut self, c: Cf) {
        let u = &mut self.usage;
        match c.kind() {
            CfKind::Alu => {
                for (mode, bank) in
                    [(cf::KCACHE_MODE0, cf::KCACHE_BANK0), (cf::KCACHE_MODE1, cf::KCACHE_BANK1)]
                {
                    if c.get(mode) != 0 {
                        u.constant_buffers.insert(c.get(bank));
                    }
                }
            }
            CfKind::Normal => match c.inst() {
                inst::CALL_FS => u.calls_fetch_shader = true,
                inst::LOOP_START | inst::LOOP_START_DX10 | inst::LOOP_START_NO_AL => u.loops += 1,
                inst::EMIT_VERTEX | inst::EMIT_CUT_VERTEX => u.emits += 1,
                _ => {}
            },
            CfKind::Export => {
                let burst = c.get(cf::BURST_COUNT);
                let gpr = c.get(cf::RW_GPR);
                let rel = c.bit(cf::RW_REL);
                for i in 0..=burst {
                    self.read(gpr + i, rel);
                }
                let u = &mut self.usage;
                let base = c.get(cf::ARRAY_BASE);
                match c.inst() {
                    inst::EXP | inst::EXP_DONE => {
                        let set = match c.get(cf::TYPE) {
                            0 => &mut u.exports.pixels,
                            1 => &mut u.exports.positions,
                            2 => &mut u.exports.params,
                            _ => return,
                        };
                        let first = if c.get(cf::TYPE) == 1 { base.saturating_sub(60) } else { base };
                        for i in 0..=burst {
                            set.insert(first + i);
                        }
                    }
                    _ => {
                        u.exports.memory += 1;
                        if c.get(cf::TYPE) & 1 == 1 {
                            let index = c.get(cf::INDEX_GPR);
                            self.read(index, false);
                        }
                    }
                }
            }
        }
    }

    fn group(&mut self, group: &Group) {
        for &inst in group.insts() {
            for i in 0..inst.src_count() {
                let s = inst.source(i);
                match s.operand() {
                    Operand::Gpr(n) => self.read(n, s.rel),
                    Operand::Cfile(n) if s.rel => {
                        let _ = n;
                        self.usage.relative_constants = true;
                    }
                    Operand::Cfile(n) => self.usage.constants.insert(n),
                    _ => {}
                }
            }
            if inst.writes() {
                self.write(inst.get(alu::DST_GPR), inst.bit(alu::DST_REL));
            }
        }
    }

    fn fetch(&mut self, kind: ClauseKind, raw: u128) {
        let t = Tex(raw);
        if kind == ClauseKind::Tex && !t.is_vertex_fetch() {
            self.read(t.get(tex::SRC_GPR), t.bit(tex::SRC_REL));
            if t.dst_sel().iter().any(|&s| s != 7) {
                self.write(t.get(tex::DST_GPR), t.bit(tex::DST_REL));
            }
            self.usage.textures.insert(t.get(tex::RESOURCE_ID));
            self.usage.samplers.insert(t.get(tex::SAMPLER_ID));
        } else {
            let v = Vtx(raw);
            self.read(v.get(vtx::SRC_GPR), v.bit(vtx::SRC_REL));
            if v.writes_gpr() {
                self.write(v.get(vtx::DST_GPR), v.bit(vtx::DST_REL));
            }
            self.usage.buffers.insert(v.get(vtx::BUFFER_ID));
        }
    }
}
