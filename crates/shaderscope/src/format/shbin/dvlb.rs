//! DVLB (linked shader binary): the DVLB header with its DVLE offset table, one DVLP
//! (code + operand descriptors shared by every executable), and one DVLE per executable.
//!
//! Parsing follows every offset and never assumes a producer's layout: nihstro writes a
//! 0x1C-byte DVLP header and puts the DVLE before the code; picasso and Nintendo's linker use a
//! 0x28-byte header and different table orders. The exact placement of every structure, and
//! every byte no structure claims, is recorded in a [`Layout`] so that writing an unmodified
//! file reproduces it byte for byte. A model built in code (no layout) is written in picasso's
//! layout.
//!
//! ```
//! use shaderscope::format::shbin::Dvlb;
//!
//! let mut bytes = shaderscope::shbin::build::example_vertex_shader();
//! bytes.extend([0xee; 5]); // bytes after the last structure
//! let dvlb = Dvlb::parse(&bytes)?;
//! let layout = dvlb.layout.as_ref().unwrap();
//! assert_eq!((layout.dvlp_header, layout.dvle_offsets.as_slice()), (0x28, &[0x8c][..]));
//! // The file's last byte (0x103) pads the DVLE to 4 bytes, as picasso writes it.
//! assert_eq!(layout.filler, [(259, vec![0, 0xee, 0xee, 0xee, 0xee, 0xee])]);
//! assert_eq!(dvlb.write()?, bytes);
//!
//! let dvle = &dvlb.dvles[0];
//! assert_eq!((dvle.type_name(), dvle.symbol(0)), ("vertex".to_string(), "projection".to_string()));
//! assert_eq!(
//!     Dvlb::parse(&bytes[..200]).unwrap_err().to_string(),
//!     "truncated DVLE 0 header at offset 0x8c (need 64 bytes, have 60)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::headers::{DvlbHeader, DvleHeader, DvlpHeader, DvlpHeaderTail, TableRef, check_magic};
use super::tables::{
    ConstantEntry, LabelEntry, LineEntry, OutputEntry, UniformEntry, put_table, read_blob, read_table,
    symbol_at, symbol_or_placeholder,
};
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::isa::pica;
use crate::print::count;
use crate::toolkit::layout::Placement;
use crate::toolkit::raw::{LittleEndian, U16, U32};
use crate::toolkit::{Endian, Reader, Writer};
use std::sync::Arc;
use zerocopy::IntoBytes;

/// Size of a DVLE header.
pub(crate) const DVLE_HEADER_SIZE: u32 = 0x40;
/// Size of a full DVLP header (Nintendo, picasso).
pub(crate) const DVLP_HEADER_SIZE: u32 = 0x28;
/// Size of nihstro's short DVLP header (no line-number count, no filename table fields).
pub(crate) const DVLP_SHORT_HEADER_SIZE: u32 = 0x1c;

/// A parsed DVLB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dvlb {
    /// The shared program.
    pub dvlp: Dvlp,
    /// The executables, in offset-table order. A DVLE that the offset table names more than
    /// once is read once and every entry naming it holds the same [`Arc`]: a table pointing a
    /// million times at one DVLE costs a million pointers, not a million copies. Entries that
    /// are the same `Arc` are also written once ([`Dvlb::write`] repeats the offset); to
    /// write a separate copy, push `Arc::new((*dvle).clone())`, and to edit one entry, use
    /// [`Arc::make_mut`] (which copies a shared DVLE first).
    pub dvles: Vec<Arc<Dvle>>,
    /// Where everything sat in the input; `None` for a model built in code.
    pub layout: Option<Layout>,
}

/// The DVLP: code and operand descriptors shared by all DVLEs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Dvlp {
    /// Version word (Nintendo 0x1002, picasso/nihstro 0).
    pub version: u32,
    /// Instruction words.
    pub code: Vec<u32>,
    /// Operand descriptors as stored: the descriptor (bit 31 unused by hardware; Nintendo sets
    /// it on entries 0–31) and a second word (Nintendo 3/7/15, others 0).
    pub opdescs: Vec<[u32; 2]>,
    /// Line-number table (8-byte entries); empty in every file seen.
    pub line_numbers: Vec<LineEntry>,
    /// Filename symbol table (NUL-terminated source file names); Nintendo only.
    pub filenames: Vec<u8>,
}

/// One executable: entry point, register usage and its tables.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Dvle {
    /// Version half-word (0x1002; nihstro 0).
    pub version: u16,
    /// 0 vertex, 1 geometry.
    pub shader_type: u8,
    /// Bit 0: merge vertex/geometry output maps. Other bits kept as stored.
    pub flags: u8,
    /// Entry point, word address.
    pub main: u32,
    /// End of main, word address.
    pub endmain: u32,
    /// Bitmask of input registers v0–v15 used.
    pub input_mask: u16,
    /// Bitmask of output registers o0–o15 written.
    pub output_mask: u16,
    /// Geometry mode, fixed-mode start register, variable-mode vertex count, fixed-mode count.
    pub geometry: [u8; 4],
    /// Constant table.
    pub constants: Vec<ConstantEntry>,
    /// Label table.
    pub labels: Vec<LabelEntry>,
    /// Output table.
    pub outputs: Vec<OutputEntry>,
    /// Uniform table.
    pub uniforms: Vec<UniformEntry>,
    /// Symbol table (NUL-terminated names the other tables point into).
    pub symbols: Vec<u8>,
}

/// Where each structure of a parsed DVLB sat, and the bytes no structure claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Layout {
    /// Bytes covered: the whole file, or the extent of an embedded DVLB.
    pub size: usize,
    /// DVLE offsets as stored in the DVLB header.
    pub dvle_offsets: Vec<u32>,
    /// DVLP header length (0x28, or 0x1C from nihstro).
    pub dvlp_header: u32,
    /// DVLP table offsets as stored: code, opdescs, line numbers, filenames.
    pub dvlp_offsets: [u32; 4],
    /// Per DVLE, table offsets as stored: constants, labels, outputs, uniforms, symbols.
    pub dvle_offsets_tables: Vec<[u32; 5]>,
    /// Table lengths at parse time (of each DVLE read, not of the entries that repeat one); a
    /// model whose tables changed size gets a fresh layout.
    shape: Vec<usize>,
    /// Runs of bytes no structure claims (padding, alignment, trailing data).
    pub filler: Vec<(u32, Vec<u8>)>,
    /// Per DVLE, the index of the first DVLE read at the same offset (its own index when it
    /// is the first); empty when no offset repeats.
    first: Vec<u32>,
}

impl Layout {
    /// The earlier entry whose offset entry `index` repeats.
    fn repeat_of(&self, index: usize) -> Option<usize> {
        let first = *self.first.get(index)? as usize;
        (first != index).then_some(first)
    }

    /// Whether every entry that repeats an offset still holds the DVLE it repeats (the same
    /// `Arc`, or an equal DVLE): an entry edited on its own cannot be written at a shared
    /// offset.
    fn repeats_hold(&self, d: &Dvlb) -> bool {
        (0..d.dvles.len()).all(|i| match (self.repeat_of(i), d.dvles.get(i)) {
            (Some(k), Some(e)) => d.dvles.get(k).is_some_and(|f| Arc::ptr_eq(e, f) || e == f),
            _ => true,
        })
    }
}

impl Dvlb {
    /// Parse a standalone DVLB (`.shbin`): every byte of `data` belongs to it.
    pub fn parse(data: &[u8]) -> Result<Dvlb> {
        parse_at(data, 0, data.len() as u64, true)
    }

    /// Parse a DVLB embedded at absolute offset `base` of a larger file (`data` starts at the
    /// DVLB magic and may run past its end). Its extent is the end of its last structure.
    pub fn parse_embedded(data: &[u8], base: u64) -> Result<Dvlb> {
        parse_at(data, base, 0, false)
    }

    /// Bytes this DVLB occupies (its recorded extent, or the size it would be written at).
    pub fn size(&self) -> usize {
        match &self.layout {
            Some(l) => l.size,
            None => self.write().map(|b| b.len()).unwrap_or(0),
        }
    }

    /// Absolute offset of the DVLP header, relative to the DVLB start.
    pub fn dvlp_offset(&self) -> u32 {
        8 + 4 * self.dvles.len() as u32
    }

    /// Operand descriptors as the hardware sees them (first word, bit 31 cleared).
    pub fn opdesc_words(&self) -> Vec<u32> {
        self.dvlp.opdescs.iter().map(|d| d[0] & 0x7fff_ffff).collect()
    }

    /// The shared code blob decoded, for everything that reads its instructions (listings,
    /// records, checks, entry ranges): decode it once and hand it to each.
    pub fn program(&self) -> pica::Program<'_> {
        pica::Program::new(&self.dvlp.code)
    }

    /// Re-encode. With the recorded layout of an unmodified parse this gives the input bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        match &self.layout {
            Some(l) if l.shape == shape(self, &l.first) && l.repeats_hold(self) => Ok(write_with(self, l)),
            _ => write_with_fresh_layout(self),
        }
    }

    /// Offset of the code blob, relative to the DVLB start (where it is, or where
    /// [`Dvlb::write`] puts it).
    pub fn code_offset(&self) -> u64 {
        let code = self.layout.as_ref().map(|l| l.dvlp_offsets[0]).unwrap_or(DVLP_HEADER_SIZE);
        u64::from(self.dvlp_offset()) + u64::from(code)
    }

    /// Offset of DVLE `index`'s header, relative to the DVLB start (`None` before the model
    /// has a layout).
    pub fn dvle_offset(&self, index: usize) -> Option<u64> {
        self.layout.as_ref()?.dvle_offsets.get(index).map(|o| u64::from(*o))
    }

    /// The earlier DVLE whose header offset DVLE `index` repeats: its bytes were read once, and
    /// every output shows them once and then refers to them, so that a table pointing a
    /// million times at one DVLE costs a million short lines, not a million listings.
    pub fn same_as(&self, index: usize) -> Option<usize> {
        self.layout.as_ref()?.repeat_of(index)
    }

    /// The byte ranges DVLE `index` occupies, relative to the DVLB start: its header and each
    /// non-empty table (`None` before the model has a layout).
    pub fn dvle_pieces(&self, index: usize) -> Option<Vec<std::ops::Range<u64>>> {
        let l = self.layout.as_ref()?;
        let e = self.dvles.get(index)?;
        let off = u64::from(*l.dvle_offsets.get(index)?);
        let t = l.dvle_offsets_tables.get(index)?;
        let sizes = [
            ConstantEntry::SIZE * e.constants.len(),
            LabelEntry::SIZE * e.labels.len(),
            OutputEntry::SIZE * e.outputs.len(),
            UniformEntry::SIZE * e.uniforms.len(),
            e.symbols.len(),
        ];
        let mut v = Vec::with_capacity(6);
        v.push(off..off + u64::from(DVLE_HEADER_SIZE));
        for (&rel, size) in t.iter().zip(sizes) {
            if size > 0 {
                let at = off + u64::from(rel);
                v.push(at..at + size as u64);
            }
        }
        Some(v)
    }

    /// DVLE `index`'s tables in the ISA's types, each entry with its absolute offset (the
    /// DVLB sits at absolute `base`).
    pub fn names(&self, index: usize, base: u64) -> Option<DvleNames> {
        let dvle = self.dvles.get(index)?;
        let tables = self.layout.as_ref().and_then(|l| {
            let at = base + u64::from(*l.dvle_offsets.get(index)?);
            let t = l.dvle_offsets_tables.get(index)?;
            Some([t[0], t[1], t[2], t[3]].map(|o| at + u64::from(o)))
        });
        Some(dvle.names_at(tables))
    }

    /// What the ISA needs to print DVLE `index` (see [`pica::write_source`]), with the code
    /// from [`Dvlb::program`] and the tables from [`Dvlb::names`]; the DVLB sits at absolute
    /// `base` of the input (0 for a standalone file).
    pub fn source_context<'a>(
        &'a self,
        index: usize,
        program: &'a pica::Program<'a>,
        names: &'a DvleNames,
        opdescs: &'a [u32],
        base: u64,
    ) -> Option<pica::SourceContext<'a>> {
        let dvle = self.dvles.get(index)?;
        let mut ctx = pica::SourceContext::new(program, opdescs);
        ctx.main = dvle.main;
        ctx.endmain = dvle.endmain;
        ctx.shader_type = pica::ShaderType::from_byte(dvle.shader_type);
        ctx.merge_outmaps = dvle.flags & 1 != 0;
        ctx.geometry = pica::GeometryMode::from_bytes(dvle.geometry);
        ctx.uniforms = &names.uniforms;
        ctx.outputs = &names.outputs;
        ctx.constants = &names.constants;
        ctx.labels = &names.labels;
        ctx.code_offset = base + self.code_offset();
        ctx.header_offset = self.dvle_offset(index).map(|o| base + o);
        Some(ctx)
    }
}

/// A DVLE's tables decoded into the ISA's types (names resolved through the symbol table).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct DvleNames {
    /// Uniforms with names.
    pub uniforms: Vec<pica::Uniform>,
    /// Outputs.
    pub outputs: Vec<pica::Output>,
    /// Known-type constants.
    pub constants: Vec<pica::Constant>,
    /// Labels with names.
    pub labels: Vec<pica::Label>,
}

impl Dvle {
    /// "vertex", "geometry" or the raw type number.
    pub fn type_name(&self) -> String {
        match self.shader_type {
            0 => "vertex".into(),
            1 => "geometry".into(),
            t => format!("type {t}"),
        }
    }

    /// The output registers the output table names (bit n = on).
    pub fn output_table_mask(&self) -> u16 {
        self.outputs.iter().filter(|o| o.register < 16).fold(0, |m, o| m | 1 << o.register)
    }

    /// The name at a symbol-table offset, or a placeholder naming the bad offset.
    pub fn symbol(&self, offset: u32) -> String {
        symbol_or_placeholder(&self.symbols, offset)
    }

    /// The NUL-terminated name at a symbol-table offset (its [`Cstr::offset`] counts from the
    /// table's start), or why there is none.
    ///
    /// [`Cstr::offset`]: crate::toolkit::Cstr::offset
    pub fn symbol_at(&self, offset: u32) -> Result<crate::toolkit::Cstr<'_>> {
        symbol_at(&self.symbols, offset)
    }

    /// The tables in the ISA's types (without offsets; [`Dvlb::names`] has them).
    pub fn names(&self) -> DvleNames {
        self.names_at(None)
    }

    /// The tables in the ISA's types; `tables` are the absolute offsets of the constant,
    /// label, output and uniform tables, when known.
    pub(crate) fn names_at(&self, tables: Option<[u64; 4]>) -> DvleNames {
        let [constants, labels, outputs, uniforms] = tables.map_or([None; 4], |t| t.map(Some));
        let at = |start: Option<u64>, k: usize, size: usize| start.map(|o| o + (k * size) as u64);
        DvleNames {
            uniforms: self
                .uniforms
                .iter()
                .enumerate()
                .map(|(k, u)| {
                    pica::Uniform::new(self.symbol(u.name_offset), u.first, u.last).at(at(
                        uniforms,
                        k,
                        UniformEntry::SIZE,
                    ))
                })
                .collect(),
            outputs: self
                .outputs
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    pica::Output::new(o.semantic, o.register, o.mask).at(at(outputs, k, OutputEntry::SIZE))
                })
                .collect(),
            constants: self
                .constants
                .iter()
                .enumerate()
                .filter_map(|(k, c)| Some(c.decode()?.at(at(constants, k, ConstantEntry::SIZE))))
                .collect(),
            labels: self
                .labels
                .iter()
                .enumerate()
                .map(|(k, l)| {
                    pica::Label::new(self.symbol(l.name_offset), l.address).at(at(
                        labels,
                        k,
                        LabelEntry::SIZE,
                    ))
                })
                .collect(),
        }
    }
}

/// The table lengths of `d`: the DVLP's, and those of each DVLE `first` (as in
/// [`Layout::first`]) does not name a repeat.
fn shape(d: &Dvlb, first: &[u32]) -> Vec<usize> {
    let mut s = vec![
        d.dvles.len(),
        d.dvlp.code.len(),
        d.dvlp.opdescs.len(),
        d.dvlp.line_numbers.len(),
        d.dvlp.filenames.len(),
    ];
    for (i, e) in d.dvles.iter().enumerate() {
        if first.get(i).is_none_or(|&k| k as usize == i) {
            s.extend([e.constants.len(), e.labels.len(), e.outputs.len(), e.uniforms.len(), e.symbols.len()]);
        }
    }
    s
}

fn parse_at(data: &[u8], base: u64, size: u64, standalone: bool) -> Result<Dvlb> {
    let file = Reader::with_base(data, base, Endian::Little);
    let h: &DvlbHeader = file.read_at(0, "DVLB header")?;
    check_magic(&h.magic, b"DVLB", base, "DVLB header")?;
    let count = h.dvle_count.get();
    let table_len = u64::from(count) * 4;
    let have = data.len().saturating_sub(size_of::<DvlbHeader>()) as u64;
    if table_len > have {
        return Err(Error::truncated(base + 8, "DVLE offset table", table_len, have));
    }
    let table = file
        .sub(8, table_len, "DVLE offset table", base + 4)?
        .slice_of::<U32<LittleEndian>>(count as usize, "DVLE offset table")?;
    let dvlp_at = 8 + table_len;
    let mut ends: Vec<u64> = vec![dvlp_at];

    // DVLP header: its length depends on the producer (see the module docs).
    let dvlp_sec = file.at(dvlp_at, "DVLP", base + 4)?;
    let p: &DvlpHeader = dvlp_sec.read_at(0, "DVLP header")?;
    check_magic(&p.magic, b"DVLP", dvlp_sec.base(), "DVLP header")?;
    // Copied only now: a CGFX scan tries every DVLB magic, and a false one whose count runs
    // to the end of the file must fail without a pass over its "table".
    let dvle_offsets: Vec<u32> = table.iter().map(|o| o.get()).collect();
    let (code_off, code_count) = (p.shader_binary.offset.get(), p.shader_binary.entries.get());
    let opdesc_off = p.operand_descriptor_table.offset.get();
    let opdesc_count = p.operand_descriptor_table.entries.get();
    let line_off = p.line_number_table_offset.get();
    let version = p.version.get();
    let mut nearest = u64::MAX;
    for &o in &dvle_offsets {
        if u64::from(o) > dvlp_at {
            nearest = nearest.min(u64::from(o) - dvlp_at);
        }
    }
    if code_count > 0 {
        nearest = nearest.min(u64::from(code_off));
    }
    if opdesc_count > 0 {
        nearest = nearest.min(u64::from(opdesc_off));
    }
    // nihstro's DVLE follows its 0x1C-byte header directly.
    let dvle_follows = dvlp_sec.array_at::<4>(DVLP_SHORT_HEADER_SIZE as usize, "DVLE").ok() == Some(*b"DVLE");
    let header_len = if dvle_follows || nearest < u64::from(DVLP_HEADER_SIZE) {
        if nearest < u64::from(DVLP_SHORT_HEADER_SIZE) {
            return Err(Error::invalid(
                base + dvlp_at,
                "DVLP header",
                format!("another structure starts 0x{nearest:x} bytes into the header"),
            ));
        }
        DVLP_SHORT_HEADER_SIZE
    } else {
        DVLP_HEADER_SIZE
    };
    let (line_count, file_off, file_size) = if header_len == DVLP_HEADER_SIZE {
        let t: &DvlpHeaderTail = dvlp_sec.read_at(DVLP_SHORT_HEADER_SIZE as usize, "DVLP header")?;
        (
            t.line_number_table_entries.get(),
            t.filename_symbol_table.offset.get(),
            t.filename_symbol_table.entries.get(),
        )
    } else {
        (0, 0, 0)
    };
    let at = |field: u64| base + dvlp_at + field;
    let code = read_table(&dvlp_sec, code_off, code_count, 4, "DVLP code", at(8), |r| r.u32("code"))?;
    let opdescs =
        read_table(&dvlp_sec, opdesc_off, opdesc_count, 8, "DVLP operand descriptor table", at(0x10), |r| {
            Ok([r.u32("operand descriptor")?, r.u32("operand descriptor")?])
        })?;
    let line_numbers = read_table(
        &dvlp_sec,
        line_off,
        line_count,
        LineEntry::SIZE,
        "DVLP line-number table",
        at(0x18),
        LineEntry::read,
    )?;
    let filenames = read_blob(&dvlp_sec, file_off, file_size, "DVLP filename table", at(0x20))?;
    ends.push(dvlp_at + u64::from(header_len));
    let table_end =
        |off: u32, n: usize, sz: usize| if n == 0 { 0 } else { dvlp_at + u64::from(off) + (n * sz) as u64 };
    ends.push(table_end(code_off, code.len(), 4));
    ends.push(table_end(opdesc_off, opdescs.len(), 8));
    ends.push(table_end(line_off, line_numbers.len(), LineEntry::SIZE));
    ends.push(table_end(file_off, filenames.len(), 1));

    let mut dvles: Vec<Arc<Dvle>> = Vec::with_capacity(dvle_offsets.len());
    let mut dvle_tables = Vec::with_capacity(dvle_offsets.len());
    // A DVLE reached again through a repeated offset is read once (see `Dvlb::same_as`).
    let mut seen = std::collections::HashMap::new();
    let mut first = Vec::with_capacity(dvle_offsets.len());
    for (i, &off) in dvle_offsets.iter().enumerate() {
        let k = *seen.entry(off).or_insert(i as u32);
        first.push(k);
        if let (Some(e), Some(t)) = (dvles.get(k as usize), dvle_tables.get(k as usize)) {
            let (e, t): (Arc<Dvle>, [u32; 5]) = (Arc::clone(e), *t);
            dvles.push(e);
            dvle_tables.push(t);
            continue;
        }
        let (dvle, tables, end) = parse_dvle(&file, u64::from(off), base + 8 + 4 * i as u64)
            .map_err(|e| e.context(&format!("DVLE {i} ")))?;
        dvles.push(Arc::new(dvle));
        dvle_tables.push(tables);
        ends.push(end);
    }
    if first.iter().enumerate().all(|(i, &k)| k as usize == i) {
        first = Vec::new();
    }

    let extent = if standalone { size } else { ends.iter().copied().max().unwrap_or(0) };
    let extent = usize::try_from(extent).map_err(|_| Error::overflow(base, "DVLB"))?;
    let mut dvlb =
        Dvlb { dvlp: Dvlp { version, code, opdescs, line_numbers, filenames }, dvles, layout: None };
    let mut layout = Layout {
        size: extent,
        dvle_offsets,
        dvlp_header: header_len,
        dvlp_offsets: [code_off, opdesc_off, line_off, file_off],
        dvle_offsets_tables: dvle_tables,
        shape: shape(&dvlb, &first),
        filler: Vec::new(),
        first,
    };
    let mut placed = Placement::new(Endian::Little, extent);
    place(&dvlb, &layout, &mut placed);
    layout.filler = placed.filler(data);
    dvlb.layout = Some(layout);
    Ok(dvlb)
}

/// Parse the DVLE at `off` (relative to the DVLB start). Returns the DVLE, its raw table
/// offsets and the end of its last structure (relative to the DVLB start).
fn parse_dvle(file: &Reader<'_>, off: u64, field_at: u64) -> Result<(Dvle, [u32; 5], u64)> {
    let sec = file.at(off, "header", field_at)?;
    let h: &DvleHeader = sec.read_at(0, "header")?;
    check_magic(&h.magic, b"DVLE", sec.base(), "header")?;
    let t = [h.constant_table, h.label_table, h.output_register_table, h.uniform_table, h.symbol_table]
        .map(|t| [t.offset.get(), t.entries.get()]);
    let at = |i: u64| sec.base() + 0x18 + 8 * i;
    let constants = read_table(
        &sec,
        t[0][0],
        t[0][1],
        ConstantEntry::SIZE,
        "constant table",
        at(0),
        ConstantEntry::read,
    )?;
    let labels =
        read_table(&sec, t[1][0], t[1][1], LabelEntry::SIZE, "label table", at(1), LabelEntry::read)?;
    let outputs =
        read_table(&sec, t[2][0], t[2][1], OutputEntry::SIZE, "output table", at(2), OutputEntry::read)?;
    let uniforms =
        read_table(&sec, t[3][0], t[3][1], UniformEntry::SIZE, "uniform table", at(3), UniformEntry::read)?;
    let symbols = read_blob(&sec, t[4][0], t[4][1], "symbol table", at(4))?;
    let sizes = [ConstantEntry::SIZE, LabelEntry::SIZE, OutputEntry::SIZE, UniformEntry::SIZE, 1];
    let mut end = off + u64::from(DVLE_HEADER_SIZE);
    for (e, sz) in t.iter().zip(sizes) {
        if e[1] > 0 {
            end = end.max(off + u64::from(e[0]) + u64::from(e[1]) * sz as u64);
        }
    }
    let dvle = Dvle {
        version: h.version.get(),
        shader_type: h.shader_type,
        flags: h.merge_output_maps,
        main: h.main_offset.get(),
        endmain: h.endmain_offset.get(),
        input_mask: h.used_input_registers.get(),
        output_mask: h.used_output_registers.get(),
        geometry: [
            h.geometry_shader_type,
            h.fixed_start_register,
            h.variable_vertex_count,
            h.fixed_vertex_count,
        ],
        constants,
        labels,
        outputs,
        uniforms,
        symbols,
    };
    Ok((dvle, t.map(|e| e[0]), end))
}

/// Put every structure of `d` where `l` places it (offsets relative to the DVLB start).
fn place(d: &Dvlb, l: &Layout, p: &mut Placement) {
    let header = DvlbHeader { magic: *b"DVLB", dvle_count: U32::new(l.dvle_offsets.len() as u32) };
    p.put_at(0, header.as_bytes());
    for (i, o) in l.dvle_offsets.iter().enumerate() {
        p.patch_u32(8 + 4 * i, *o);
    }
    let dvlp = d.dvlp_offset() as usize;
    let (v, o) = (&d.dvlp, l.dvlp_offsets);
    let (header, tail) = dvlp_header_of(d, l);
    p.put_at(dvlp, header.as_bytes());
    if let Some(tail) = tail {
        p.put_at(dvlp + DVLP_SHORT_HEADER_SIZE as usize, tail.as_bytes());
    }
    let [code, opdescs, lines, files] = o.map(|x| dvlp + x as usize);
    put_table(p, code, &v.code, 4, |w, p, at| p.patch_u32(at, *w));
    put_table(p, opdescs, &v.opdescs, 8, |w, p, at| {
        p.patch_u32(at, w[0]);
        p.patch_u32(at + 4, w[1]);
    });
    put_table(p, lines, &v.line_numbers, LineEntry::SIZE, LineEntry::put);
    p.put_at(files, &v.filenames);
    for (i, ((e, t), &off)) in d.dvles.iter().zip(&l.dvle_offsets_tables).zip(&l.dvle_offsets).enumerate() {
        if l.repeat_of(i).is_some() {
            continue;
        }
        let off = off as usize;
        p.put_at(off, dvle_header_of(e, *t).as_bytes());
        let [constants, labels, outputs, uniforms, symbols] = t.map(|x| off + x as usize);
        put_table(p, constants, &e.constants, ConstantEntry::SIZE, ConstantEntry::put);
        put_table(p, labels, &e.labels, LabelEntry::SIZE, LabelEntry::put);
        put_table(p, outputs, &e.outputs, OutputEntry::SIZE, OutputEntry::put);
        put_table(p, uniforms, &e.uniforms, UniformEntry::SIZE, UniformEntry::put);
        p.put_at(symbols, &e.symbols);
    }
}

/// The DVLP header (and the rest of a full one) that `l` gives `d`.
fn dvlp_header_of(d: &Dvlb, l: &Layout) -> (DvlpHeader, Option<DvlpHeaderTail>) {
    let (v, o) = (&d.dvlp, l.dvlp_offsets);
    let header = DvlpHeader {
        magic: *b"DVLP",
        version: U32::new(v.version),
        shader_binary: TableRef::new(o[0], v.code.len() as u32),
        operand_descriptor_table: TableRef::new(o[1], v.opdescs.len() as u32),
        line_number_table_offset: U32::new(o[2]),
    };
    let tail = (l.dvlp_header == DVLP_HEADER_SIZE).then(|| DvlpHeaderTail {
        line_number_table_entries: U32::new(v.line_numbers.len() as u32),
        filename_symbol_table: TableRef::new(o[3], v.filenames.len() as u32),
    });
    (header, tail)
}

/// The header of DVLE `e` whose tables sit at offsets `t`.
fn dvle_header_of(e: &Dvle, t: [u32; 5]) -> DvleHeader {
    let table = |k: usize, n: usize| TableRef::new(t.get(k).copied().unwrap_or(0), n as u32);
    DvleHeader {
        magic: *b"DVLE",
        version: U16::new(e.version),
        shader_type: e.shader_type,
        merge_output_maps: e.flags,
        main_offset: U32::new(e.main),
        endmain_offset: U32::new(e.endmain),
        used_input_registers: U16::new(e.input_mask),
        used_output_registers: U16::new(e.output_mask),
        geometry_shader_type: e.geometry[0],
        fixed_start_register: e.geometry[1],
        variable_vertex_count: e.geometry[2],
        fixed_vertex_count: e.geometry[3],
        constant_table: table(0, e.constants.len()),
        label_table: table(1, e.labels.len()),
        output_register_table: table(2, e.outputs.len()),
        uniform_table: table(3, e.uniforms.len()),
        symbol_table: table(4, e.symbols.len()),
    }
}

fn write_with(d: &Dvlb, l: &Layout) -> Vec<u8> {
    let mut p = Placement::new(Endian::Little, l.size);
    place(d, l, &mut p);
    p.finish(&l.filler)
}

fn to_u32(v: usize, what: &'static str) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::invalid(0, what, format!("0x{v:x} does not fit in 32 bits")))
}

/// picasso's layout: header, DVLP (0x28) with code then opdescs, no line or filename table
/// unless the model has them, then each DVLE (4-byte aligned, the last padded too) with
/// constants, labels, outputs, uniforms and symbols in that order. The ranges are reserved first, which fixes every
/// offset; then the structures are put into them.
fn write_with_fresh_layout(d: &Dvlb) -> Result<Vec<u8>> {
    let mut w = Writer::new(Endian::Little);
    w.reserve(8 + 4 * d.dvles.len(), 1);
    let dvlp = w.reserve(DVLP_HEADER_SIZE as usize, 1).start;
    let v = &d.dvlp;
    let code = w.reserve(4 * v.code.len(), 1).start;
    let opdescs = w.reserve(8 * v.opdescs.len(), 1).start;
    let lines = w.reserve(LineEntry::SIZE * v.line_numbers.len(), 1).start;
    let files = w.reserve(v.filenames.len(), 1).start;
    // An absent filename table has offset 0; an empty line-number table sits at the DVLP's
    // end (picasso writes the DVLP's size there).
    let files = if v.filenames.is_empty() { dvlp } else { files };
    let mut dvlp_offsets = [0u32; 4];
    for (slot, at) in dvlp_offsets.iter_mut().zip([code, opdescs, lines, files]) {
        *slot = to_u32(at - dvlp, "DVLP table offset")?;
    }
    let mut dvle_offsets: Vec<u32> = Vec::with_capacity(d.dvles.len());
    let mut tables: Vec<[u32; 5]> = Vec::with_capacity(d.dvles.len());
    // Entries that are the same `Arc` are written once (see `Dvlb::dvles`).
    let mut seen = std::collections::HashMap::new();
    let mut first = Vec::with_capacity(d.dvles.len());
    for (i, e) in d.dvles.iter().enumerate() {
        let k = *seen.entry(Arc::as_ptr(e)).or_insert(i);
        first.push(to_u32(k, "DVLE index")?);
        if let (true, Some(&o), Some(&t)) = (k != i, dvle_offsets.get(k), tables.get(k)) {
            dvle_offsets.push(o);
            tables.push(t);
            continue;
        }
        let header = w.reserve(DVLE_HEADER_SIZE as usize, 4).start;
        dvle_offsets.push(to_u32(header, "DVLE offset")?);
        let sizes = [
            ConstantEntry::SIZE * e.constants.len(),
            LabelEntry::SIZE * e.labels.len(),
            OutputEntry::SIZE * e.outputs.len(),
            UniformEntry::SIZE * e.uniforms.len(),
            e.symbols.len(),
        ];
        let mut t = [0u32; 5];
        for (slot, size) in t.iter_mut().zip(sizes) {
            *slot = to_u32(w.reserve(size, 1).start - header, "DVLE table offset")?;
        }
        tables.push(t);
    }
    // picasso pads the last DVLE to 4 bytes too.
    w.reserve(0, 4);
    if first.iter().enumerate().all(|(i, &k)| k as usize == i) {
        first = Vec::new();
    }
    let layout = Layout {
        size: w.len(),
        dvle_offsets,
        dvlp_header: DVLP_HEADER_SIZE,
        dvlp_offsets,
        dvle_offsets_tables: tables,
        shape: shape(d, &first),
        filler: Vec::new(),
        first,
    };
    let mut p = Placement::with_writer(w, layout.size);
    place(d, &layout, &mut p);
    Ok(p.finish(&[]))
}

/// Annotate every structure of a DVLB whose first byte sits at absolute `base`.
pub fn annotate(d: &Dvlb, base: u64, a: &mut Annotations) {
    let Some(l) = &d.layout else { return };
    dvlb_header(a, base, l.dvle_offsets.len() as u32, &l.dvle_offsets, |i| d.same_as(i));
    let dvlp = base + u64::from(d.dvlp_offset());
    let p = &d.dvlp;
    let (header, tail) = dvlp_header_of(d, l);
    dvlp_header(a, dvlp, &header, tail.as_ref());
    let opd = d.opdesc_words();
    code(a, dvlp + u64::from(l.dvlp_offsets[0]), &p.code, &opd);
    let od = dvlp + u64::from(l.dvlp_offsets[1]);
    if !p.opdescs.is_empty() {
        a.section(od, 8 * p.opdescs.len() as u64, "operand descriptors");
        for (i, [w0, w1]) in p.opdescs.iter().enumerate() {
            let at = od + 8 * i as u64;
            a.field(at, 4, format_args!("opdesc {i:#04x}: {}", pica::describe_opdesc(*w0)));
            a.field(at + 4, 4, format_args!("opdesc {i:#04x} second word: 0x{w1:x}"));
        }
    }
    let lt = dvlp + u64::from(l.dvlp_offsets[2]);
    for (i, e) in p.line_numbers.iter().enumerate() {
        a.field(
            lt + 8 * i as u64,
            8,
            format_args!("line number {i}: file offset 0x{:x}, line {}", e.file_offset, e.line),
        );
    }
    if !p.filenames.is_empty() {
        strings(a, dvlp + u64::from(l.dvlp_offsets[3]), &p.filenames, "filename table");
    }
    for (i, ((e, t), &off)) in d.dvles.iter().zip(&l.dvle_offsets_tables).zip(&l.dvle_offsets).enumerate() {
        if d.same_as(i).is_some() {
            continue;
        }
        annotate_dvle(a, base + u64::from(off), i, e, *t);
    }
    filler(a, base, &l.filler);
}

/// The bytes between the structures (offsets from `base`): alignment padding, or bytes that
/// no structure holds.
pub(super) fn filler(a: &mut Annotations, base: u64, filler: &[(u32, Vec<u8>)]) {
    for (at, bytes) in filler {
        let what = if bytes.iter().all(|&b| b == 0) { "padding" } else { "bytes outside every structure" };
        a.field(base + u64::from(*at), bytes.len() as u64, what);
    }
}

/// Annotate what can be read of a DVLB at absolute `base` that fails to parse (`data` starts
/// at its magic): the headers and the code words inside the file, read straight from the
/// bytes; the tables are left to the parse that failed.
pub fn annotate_damaged(data: &[u8], base: u64, a: &mut Annotations) {
    let r = Reader::with_base(data, base, Endian::Little);
    let Ok(h) = r.read_at::<DvlbHeader>(0, "DVLB header") else { return };
    let count = h.dvle_count.get();
    let offsets: Vec<u32> =
        (0..u64::from(count)).map_while(|i| r.u32_at((8 + 4 * i) as usize, "DVLE offset").ok()).collect();
    let mut seen = std::collections::HashMap::new();
    let first: Vec<usize> = offsets.iter().enumerate().map(|(i, o)| *seen.entry(*o).or_insert(i)).collect();
    let same_as = |i: usize| first.get(i).copied().filter(|&k| k != i);
    dvlb_header(a, base, count, &offsets, same_as);
    let dvlp = 8 + 4 * u64::from(count);
    let Some(dvlp_at) = usize::try_from(dvlp).ok() else { return };
    if let Ok(p) = r.read_at::<DvlpHeader>(dvlp_at, "DVLP header") {
        let tail = r.read_at::<DvlpHeaderTail>(dvlp_at + DVLP_SHORT_HEADER_SIZE as usize, "DVLP header").ok();
        dvlp_header(a, base + dvlp, p, tail);
        let words = |at: u64, n: u64| -> Vec<u32> {
            (0..n).map_while(|i| r.u32_at(usize::try_from(dvlp + at + 4 * i).ok()?, "word").ok()).collect()
        };
        let (od, n) = (p.operand_descriptor_table.offset.get(), p.operand_descriptor_table.entries.get());
        let opd: Vec<u32> =
            words(u64::from(od), 2 * u64::from(n)).iter().step_by(2).map(|w| w & 0x7fff_ffff).collect();
        let (at, n) = (p.shader_binary.offset.get(), p.shader_binary.entries.get());
        code(a, base + dvlp + u64::from(at), &words(u64::from(at), u64::from(n)), &opd);
    }
    for (i, &o) in offsets.iter().enumerate() {
        if same_as(i).is_some() {
            continue;
        }
        if let Ok(h) = r.read_at::<DvleHeader>(o as usize, "DVLE header") {
            dvle_header(a, base + u64::from(o), i, h);
        }
    }
}

/// The DVLB header and its DVLE offset table.
/// `same_as(i)` names the earlier DVLE whose offset entry `i` repeats.
fn dvlb_header(
    a: &mut Annotations,
    base: u64,
    count: u32,
    offsets: &[u32],
    same_as: impl Fn(usize) -> Option<usize>,
) {
    a.section(base, 8 + 4 * u64::from(count), "DVLB header");
    a.field(base, 4, "magic \"DVLB\"");
    a.field(base + 4, 4, format_args!("DVLE count: {count}"));
    for (i, o) in offsets.iter().enumerate() {
        match same_as(i) {
            Some(k) => a.field(
                base + 8 + 4 * i as u64,
                4,
                format_args!("DVLE {i} offset: 0x{o:x} (the same bytes as DVLE {k})"),
            ),
            None => a.field(base + 8 + 4 * i as u64, 4, format_args!("DVLE {i} offset: 0x{o:x}")),
        }
    }
}

/// The DVLP header at absolute `dvlp` (`tail` for a full 0x28-byte one).
fn dvlp_header(a: &mut Annotations, dvlp: u64, h: &DvlpHeader, tail: Option<&DvlpHeaderTail>) {
    let size = if tail.is_some() { DVLP_HEADER_SIZE } else { DVLP_SHORT_HEADER_SIZE };
    a.section(dvlp, u64::from(size), "DVLP header");
    a.field(dvlp, 4, "magic \"DVLP\"");
    a.field(dvlp + 4, 4, format_args!("version: 0x{:x}", h.version.get()));
    a.field(dvlp + 8, 4, format_args!("code offset: 0x{:x}", h.shader_binary.offset.get()));
    a.field(dvlp + 0xc, 4, format_args!("code size: {}", count(h.shader_binary.entries.get(), "word")));
    let od = &h.operand_descriptor_table;
    a.field(dvlp + 0x10, 4, format_args!("operand descriptor table offset: 0x{:x}", od.offset.get()));
    a.field(dvlp + 0x14, 4, format_args!("operand descriptor count: {}", od.entries.get()));
    let lt = h.line_number_table_offset.get();
    match tail {
        Some(t) => {
            a.field(dvlp + 0x18, 4, format_args!("line-number table offset: 0x{lt:x}"));
            a.field(
                dvlp + 0x1c,
                4,
                format_args!("line-number entries: {}", t.line_number_table_entries.get()),
            );
            let f = &t.filename_symbol_table;
            a.field(dvlp + 0x20, 4, format_args!("filename table offset: 0x{:x}", f.offset.get()));
            a.field(dvlp + 0x24, 4, format_args!("filename table size: {}", count(f.entries.get(), "byte")));
        }
        None => {
            a.field(dvlp + 0x18, 4, format_args!("filename table offset (short nihstro header): 0x{lt:x}"))
        }
    }
}

/// The code words at absolute `at`, each with its instruction.
fn code(a: &mut Annotations, at: u64, words: &[u32], opd: &[u32]) {
    if words.is_empty() {
        return;
    }
    a.section(at, 4 * words.len() as u64, "code");
    let program = pica::Program::new(words);
    for (i, inst) in program.instructions().iter().enumerate() {
        a.field(at + 4 * i as u64, 4, format_args!("[{i:03x}] {}", pica::describe_instruction(inst, opd)));
    }
}

fn strings(a: &mut Annotations, at: u64, table: &[u8], title: &str) {
    a.section(at, table.len() as u64, title);
    for (start, s) in super::tables::strings(table) {
        // The string and its NUL, where the table has one.
        let len = (s.len() + 1).min(table.len() - start);
        a.field(
            at + start as u64,
            len as u64,
            format_args!("+0x{start:x}: \"{}\"", s.text().escape_default()),
        );
    }
}

/// The header of DVLE `i` at absolute `o`.
fn dvle_header(a: &mut Annotations, o: u64, i: usize, h: &DvleHeader) {
    a.section(o, u64::from(DVLE_HEADER_SIZE), format_args!("DVLE {i} header"));
    a.field(o, 4, "magic \"DVLE\"");
    a.field(o + 4, 2, format_args!("version: 0x{:x}", h.version.get()));
    let ty = match h.shader_type {
        0 => "vertex".into(),
        1 => "geometry".into(),
        t => format!("type {t}"),
    };
    a.field(o + 6, 1, format_args!("shader type: {ty}"));
    let flags = h.merge_output_maps;
    a.field(o + 7, 1, format_args!("flags: 0x{flags:x} (merge output maps: {})", flags & 1 != 0));
    a.field(o + 8, 4, format_args!("main: 0x{:x}", h.main_offset.get()));
    match h.endmain_offset.get() {
        0 => a.field(
            o + 0xc,
            4,
            "endmain: 0x0 (not recorded, as nihstro writes it: main runs to its end instruction)",
        ),
        e => a.field(o + 0xc, 4, format_args!("endmain: 0x{e:x}")),
    }
    a.field(o + 0x10, 2, format_args!("input register mask: 0x{:04x}", h.used_input_registers.get()));
    a.field(o + 0x12, 2, format_args!("output register mask: 0x{:04x}", h.used_output_registers.get()));
    let g = h.geometry_shader_type;
    a.field(o + 0x14, 1, format_args!("geometry mode: {g} ({})", geometry_mode_name(g)));
    a.field(o + 0x15, 1, format_args!("fixed-mode start register: c{}", h.fixed_start_register));
    a.field(o + 0x16, 1, format_args!("variable-mode vertex count: {}", h.variable_vertex_count));
    a.field(o + 0x17, 1, format_args!("fixed-mode vertex count: {}", h.fixed_vertex_count));
    let names = ["constant", "label", "output", "uniform", "symbol"];
    let tables = [h.constant_table, h.label_table, h.output_register_table, h.uniform_table, h.symbol_table];
    for (k, (name, t)) in names.iter().zip(tables).enumerate() {
        let at = o + 0x18 + 8 * k as u64;
        a.field(at, 4, format_args!("{name} table offset: 0x{:x}", t.offset.get()));
        let unit = if k == 4 { "byte" } else { "entry" };
        a.field(at + 4, 4, format_args!("{name} table size: {}", count(t.entries.get(), unit)));
    }
}

fn annotate_dvle(a: &mut Annotations, o: u64, i: usize, e: &Dvle, t: [u32; 5]) {
    dvle_header(a, o, i, &dvle_header_of(e, t));
    let ct = o + u64::from(t[0]);
    for (k, c) in e.constants.iter().enumerate() {
        a.field(
            ct + (ConstantEntry::SIZE * k) as u64,
            ConstantEntry::SIZE as u64,
            format_args!("constant {k}: {}", c.describe()),
        );
    }
    let lt = o + u64::from(t[1]);
    for (k, l) in e.labels.iter().enumerate() {
        a.field(
            lt + (LabelEntry::SIZE * k) as u64,
            LabelEntry::SIZE as u64,
            format_args!(
                "label {k}: \"{}\" at 0x{:x} (id 0x{:x}, length 0x{:x})",
                e.symbol(l.name_offset),
                l.address,
                l.id,
                l.length
            ),
        );
    }
    let ot = o + u64::from(t[2]);
    for (k, x) in e.outputs.iter().enumerate() {
        let sem = super::tables::output_semantic_name(x.semantic)
            .map(str::to_string)
            .unwrap_or(format!("semantic {}", x.semantic));
        a.field(
            ot + (OutputEntry::SIZE * k) as u64,
            OutputEntry::SIZE as u64,
            format_args!("output {k}: o{} {} {}", x.register, sem, super::tables::mask_text(x.mask)),
        );
    }
    let ut = o + u64::from(t[3]);
    for (k, u) in e.uniforms.iter().enumerate() {
        let regs = register_range(u.first, u.last);
        a.field(
            ut + (UniformEntry::SIZE * k) as u64,
            UniformEntry::SIZE as u64,
            format_args!("uniform {k}: \"{}\" {regs}", e.symbol(u.name_offset)),
        );
    }
    if !e.symbols.is_empty() {
        strings(a, o + u64::from(t[4]), &e.symbols, &format!("DVLE {i} symbol table"));
    }
}

pub use crate::isa::pica::register_range;

/// Name of a geometry-shader mode byte.
pub(crate) fn geometry_mode_name(mode: u8) -> &'static str {
    match mode {
        0 => "point",
        1 => "variable",
        2 => "fixed",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// nihstro's layout: 0x1C-byte DVLP header, the DVLE straight after it, then code,
    /// opdescs, outputs, constants, uniforms, labels and symbols.
    fn nihstro_file() -> Vec<u8> {
        let mut f = le(&[u32::from_le_bytes(*b"DVLB"), 1, 0x28]);
        // DVLP at 0xc: code at +0x5c (file 0x68), 2 words; opdescs at +0x64, 1 entry; filename 0.
        f.extend(le(&[u32::from_le_bytes(*b"DVLP"), 0, 0x5c, 2, 0x64, 1, 0]));
        assert_eq!(f.len(), 0x28);
        // DVLE at 0x28; tables relative to it: code 0x40..0x48, opdescs 0x48..0x50,
        // outputs 0x50 (1), constants 0x58 (1), uniforms 0x6c (1), labels 0x74 (1), symbols 0x84.
        f.extend(b"DVLE");
        f.extend([0, 0, 0, 0]);
        f.extend(le(&[0, 0, 0, 0]));
        f.extend(le(&[0x58, 1, 0x74, 1, 0x50, 1, 0x6c, 1, 0x84, 10]));
        f.extend(le(&[0x4e000000, 0x88000000])); // mov; end
        f.extend(le(&[0x6c36f, 0]));
        f.extend([0, 0, 0, 0, 0xf, 0, 0, 0]); // output: position o0 xyzw
        f.extend(le(&[0x005f_0002, 0x3f0000, 0, 0, 0x3f0000])); // c95 = (1, 0, 0, 1)
        f.extend(le(&[0, 0x0013_0010])); // "mtx" c0-c3 at symbol 0
        f.extend(le(&[0, 0, 0, 4])); // label "main" at symbol 4
        f.extend(b"mtx\0main\0\0");
        f
    }

    #[test]
    fn reads_nihstros_short_header_and_inverted_layout() {
        let f = nihstro_file();
        let d = Dvlb::parse(&f).unwrap();
        let l = d.layout.as_ref().unwrap();
        assert_eq!(l.dvlp_header, DVLP_SHORT_HEADER_SIZE);
        assert_eq!(d.dvlp.code, vec![0x4e000000, 0x88000000]);
        assert_eq!(d.dvlp.opdescs, vec![[0x6c36f, 0]]);
        assert!(d.dvlp.filenames.is_empty());
        let e = &d.dvles[0];
        assert_eq!(e.outputs, vec![OutputEntry { semantic: 0, register: 0, mask: 0xf, pad: 0 }]);
        assert_eq!(e.constants[0].describe(), "c95 = (1, 0, 0, 1)");
        assert_eq!(e.symbol(e.uniforms[0].name_offset), "mtx");
        assert_eq!(register_range(e.uniforms[0].first, e.uniforms[0].last), "c0-c3");
        assert_eq!(e.symbol(e.labels[0].name_offset), "main");
        assert_eq!(super::super::producer(&d), "nihstro");
        assert_eq!(d.write().unwrap(), f);
    }

    #[test]
    fn empty_tables_may_point_anywhere() {
        let mut f = nihstro_file();
        // Label table count 0 with an offset far past the end (picasso #35).
        f[0x28 + 0x20..0x28 + 0x28].copy_from_slice(&le(&[0xffff_fff0, 0]));
        let d = Dvlb::parse(&f).unwrap();
        assert!(d.dvles[0].labels.is_empty());
        assert_eq!(d.write().unwrap(), f);
    }

    #[test]
    fn errors_name_the_structure_and_the_offset() {
        let mut bad = super::super::build::example_vertex_shader();
        bad[8..12].copy_from_slice(&le(&[0x200]));
        assert_eq!(
            Dvlb::parse(&bad).unwrap_err().to_string(),
            "DVLE 0 header at offset 0x8 points outside its range (0x200 is past the end 0x104)"
        );
        let f = nihstro_file();
        assert_eq!(
            Dvlb::parse(&f[..0x40]).unwrap_err().to_string(),
            "DVLP code at offset 0x14 points outside its range (0x68 + 0x8 is outside 0x40)"
        );
        let vs = super::super::build::example_vertex_shader();
        assert_eq!(
            Dvlb::parse(&vs[..0x8c + 12]).unwrap_err().to_string(),
            "truncated DVLE 0 header at offset 0x8c (need 64 bytes, have 12)"
        );
        let mut bad = f.clone();
        bad[0x28 + 0x1c..0x28 + 0x20].copy_from_slice(&le(&[1000]));
        assert_eq!(
            Dvlb::parse(&bad).unwrap_err().to_string(),
            "DVLE 0 constant table at offset 0x40 points outside its range (0x80 + 0x4e20 is outside 0xb6)"
        );
        let mut bad = f.clone();
        bad[4..8].copy_from_slice(&le(&[0x4000_0000]));
        assert_eq!(
            Dvlb::parse(&bad).unwrap_err().to_string(),
            "truncated DVLE offset table at offset 0x8 (need 4294967296 bytes, have 174)"
        );
        let mut bad = f;
        bad[0xc] = b'X';
        assert_eq!(
            Dvlb::parse(&bad).unwrap_err().to_string(),
            r#"bad DVLP header magic at offset 0xc: expected "DVLP", found "XVLP""#
        );
    }

    #[test]
    fn edited_models_get_a_fresh_picasso_layout() {
        let mut d = Dvlb::parse(&nihstro_file()).unwrap();
        d.dvlp.code.insert(0, 0x84000000); // nop
        let bytes = d.write().unwrap();
        let again = Dvlb::parse(&bytes).unwrap();
        assert_eq!(again.layout.as_ref().unwrap().dvlp_header, DVLP_HEADER_SIZE);
        assert_eq!(again.dvlp.code, d.dvlp.code);
        assert_eq!(again.dvles, d.dvles);
    }
}
