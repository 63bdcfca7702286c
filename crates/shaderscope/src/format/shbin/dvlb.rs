//! DVLB (linked shader binary): the DVLB header with its DVLE offset table, one DVLP
//! (code + operand descriptors shared by every executable), and one DVLE per executable.
//!
//! Parsing follows every offset and never assumes a producer's layout: nihstro writes a
//! 0x1C-byte DVLP header and puts the DVLE before the code; picasso and Nintendo's linker use a
//! 0x28-byte header and different table orders. The exact placement of every structure, and
//! every byte no structure claims, is recorded in a [`Layout`] so that writing an unmodified
//! file reproduces it byte for byte. A model built in code (no layout) is written in picasso's
//! layout.

use super::tables::{
    ConstantEntry, LabelEntry, LineEntry, OutputEntry, UniformEntry, read_blob, read_table, symbol_text,
};
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::isa::pica;
use crate::toolkit::{Endian, Reader, Writer};

/// Size of a DVLE header.
pub const DVLE_HEADER_SIZE: u32 = 0x40;
/// Size of a full DVLP header (Nintendo, picasso).
pub const DVLP_HEADER_SIZE: u32 = 0x28;
/// Size of nihstro's short DVLP header (no line-number count, no filename table fields).
pub const DVLP_SHORT_HEADER_SIZE: u32 = 0x1c;

/// A parsed DVLB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dvlb {
    /// The shared program.
    pub dvlp: Dvlp,
    /// The executables, in offset-table order.
    pub dvles: Vec<Dvle>,
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
    /// Table lengths at parse time; a model whose tables changed size gets a fresh layout.
    shape: Vec<usize>,
    /// Runs of bytes no structure claims (padding, alignment, trailing data).
    pub filler: Vec<(u32, Vec<u8>)>,
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

    /// Re-encode. With the recorded layout of an unmodified parse this gives the input bytes.
    pub fn write(&self) -> Result<Vec<u8>> {
        match &self.layout {
            Some(l) if l.shape == shape(self) => Ok(write_with(self, l)),
            _ => write_with_fresh_layout(self),
        }
    }

    /// Print DVLE `index` as picasso source through `out`. `code_offset` is the absolute offset
    /// of the DVLB in the input (0 for a standalone file).
    pub fn source_context<'a>(
        &'a self,
        index: usize,
        names: &'a DvleNames,
        opdescs: &'a [u32],
        base: u64,
    ) -> Option<pica::SourceContext<'a>> {
        let dvle = self.dvles.get(index)?;
        let code_offset = base
            + u64::from(self.dvlp_offset())
            + u64::from(self.layout.as_ref().map(|l| l.dvlp_offsets[0]).unwrap_or(DVLP_HEADER_SIZE));
        Some(pica::SourceContext {
            code: &self.dvlp.code,
            opdescs,
            main: dvle.main,
            endmain: dvle.endmain,
            shader_type: match dvle.shader_type {
                0 => pica::ShaderType::Vertex,
                1 => pica::ShaderType::Geometry,
                t => pica::ShaderType::Other(t),
            },
            merge_outmaps: dvle.flags & 1 != 0,
            geometry: pica::GeometryMode {
                mode: dvle.geometry[0],
                fixed_start: dvle.geometry[1],
                variable_count: dvle.geometry[2],
                fixed_count: dvle.geometry[3],
            },
            uniforms: &names.uniforms,
            outputs: &names.outputs,
            constants: &names.constants,
            labels: &names.labels,
            code_offset,
            offsets: false,
            raw: false,
        })
    }
}

/// A DVLE's tables decoded into the ISA's types (names resolved through the symbol table).
#[derive(Debug, Clone, Default)]
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

    /// The name at a symbol-table offset, or a placeholder naming the bad offset.
    pub fn symbol(&self, offset: u32) -> String {
        symbol_text(&self.symbols, offset)
            .unwrap_or_else(|| format!("<symbol offset 0x{offset:x} out of range>"))
    }

    /// The tables in the ISA's types.
    pub fn names(&self) -> DvleNames {
        DvleNames {
            uniforms: self
                .uniforms
                .iter()
                .map(|u| pica::Uniform { name: self.symbol(u.name_offset), first: u.first, last: u.last })
                .collect(),
            outputs: self
                .outputs
                .iter()
                .map(|o| pica::Output { semantic: o.semantic, register: o.register, mask: o.mask })
                .collect(),
            constants: self.constants.iter().filter_map(ConstantEntry::decode).collect(),
            labels: self
                .labels
                .iter()
                .map(|l| pica::Label { name: self.symbol(l.name_offset), address: l.address })
                .collect(),
        }
    }
}

fn shape(d: &Dvlb) -> Vec<usize> {
    let mut s = vec![
        d.dvles.len(),
        d.dvlp.code.len(),
        d.dvlp.opdescs.len(),
        d.dvlp.line_numbers.len(),
        d.dvlp.filenames.len(),
    ];
    for e in &d.dvles {
        s.extend([e.constants.len(), e.labels.len(), e.outputs.len(), e.uniforms.len(), e.symbols.len()]);
    }
    s
}

fn parse_at(data: &[u8], base: u64, size: u64, standalone: bool) -> Result<Dvlb> {
    let file = Reader::with_base(data, base, Endian::Little);
    let mut r = file.clone();
    r.magic(b"DVLB", "DVLB header")?;
    let count_at = r.original_position();
    let count = r.u32("DVLB header")?;
    if u64::from(count) * 4 > r.remaining() as u64 {
        return Err(Error::truncated(
            count_at + 4,
            "DVLE offset table",
            u64::from(count) * 4,
            r.remaining() as u64,
        ));
    }
    let mut dvle_offsets = Vec::with_capacity(count as usize);
    for _ in 0..count {
        dvle_offsets.push(r.u32("DVLE offset table")?);
    }
    let dvlp_at = r.position() as u64;
    let mut ends: Vec<u64> = vec![dvlp_at];

    // DVLP header: its length depends on the producer (see the module docs).
    let mut h = file.at(dvlp_at, "DVLP", base + 4)?;
    h.magic(b"DVLP", "DVLP header")?;
    let version = h.u32("DVLP header")?;
    let code_off = h.u32("DVLP header")?;
    let code_count = h.u32("DVLP header")?;
    let opdesc_off = h.u32("DVLP header")?;
    let opdesc_count = h.u32("DVLP header")?;
    let line_off = h.u32("DVLP header")?;
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
    let dvle_follows = file.data().get((dvlp_at + 0x1c) as usize..(dvlp_at + 0x20) as usize) == Some(b"DVLE");
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
        (h.u32("DVLP header")?, h.u32("DVLP header")?, h.u32("DVLP header")?)
    } else {
        (0, 0, 0)
    };
    let dvlp_sec = file.at(dvlp_at, "DVLP", base + 4)?;
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

    let mut dvles = Vec::with_capacity(dvle_offsets.len());
    let mut dvle_tables = Vec::with_capacity(dvle_offsets.len());
    for (i, &off) in dvle_offsets.iter().enumerate() {
        let (dvle, tables, end) = parse_dvle(&file, u64::from(off), base + 8 + 4 * i as u64)
            .map_err(|e| e.context(&format!("DVLE {i} ")))?;
        dvles.push(dvle);
        dvle_tables.push(tables);
        ends.push(end);
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
        shape: shape(&dvlb),
        filler: Vec::new(),
    };
    layout.filler = crate::toolkit::layout::filler(data, extent, &pieces(&dvlb, &layout));
    dvlb.layout = Some(layout);
    Ok(dvlb)
}

/// Parse the DVLE at `off` (relative to the DVLB start). Returns the DVLE, its raw table
/// offsets and the end of its last structure (relative to the DVLB start).
fn parse_dvle(file: &Reader<'_>, off: u64, field_at: u64) -> Result<(Dvle, [u32; 5], u64)> {
    let sec = file.at(off, "header", field_at)?;
    let mut h = sec.clone();
    if h.remaining() < DVLE_HEADER_SIZE as usize {
        return Err(h.eof("header", DVLE_HEADER_SIZE as usize));
    }
    h.magic(b"DVLE", "header")?;
    let version = h.u16("header")?;
    let shader_type = h.u8("header")?;
    let flags = h.u8("header")?;
    let main = h.u32("header")?;
    let endmain = h.u32("header")?;
    let input_mask = h.u16("header")?;
    let output_mask = h.u16("header")?;
    let geometry = h.array::<4>("header")?;
    let mut t = [[0u32; 2]; 5];
    for e in &mut t {
        e[0] = h.u32("header")?;
        e[1] = h.u32("header")?;
    }
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
        version,
        shader_type,
        flags,
        main,
        endmain,
        input_mask,
        output_mask,
        geometry,
        constants,
        labels,
        outputs,
        uniforms,
        symbols,
    };
    Ok((dvle, t.map(|e| e[0]), end))
}

fn encode<T>(items: &[T], f: impl Fn(&T, &mut Writer)) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    for i in items {
        f(i, &mut w);
    }
    w.finish()
}

fn dvle_header(e: &Dvle, t: [u32; 5]) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    w.bytes(b"DVLE");
    w.u16(e.version);
    w.u8(e.shader_type);
    w.u8(e.flags);
    w.u32(e.main);
    w.u32(e.endmain);
    w.u16(e.input_mask);
    w.u16(e.output_mask);
    w.bytes(&e.geometry);
    let counts = [e.constants.len(), e.labels.len(), e.outputs.len(), e.uniforms.len(), e.symbols.len()];
    for (off, n) in t.iter().zip(counts) {
        w.u32(*off);
        w.u32(n as u32);
    }
    w.finish()
}

fn dvlp_header(p: &Dvlp, header_len: u32, o: [u32; 4]) -> Vec<u8> {
    let mut w = Writer::new(Endian::Little);
    w.bytes(b"DVLP");
    w.u32(p.version);
    w.u32(o[0]);
    w.u32(p.code.len() as u32);
    w.u32(o[1]);
    w.u32(p.opdescs.len() as u32);
    w.u32(o[2]);
    if header_len == DVLP_HEADER_SIZE {
        w.u32(p.line_numbers.len() as u32);
        w.u32(o[3]);
        w.u32(p.filenames.len() as u32);
    }
    w.finish()
}

/// Every structure of `d` placed as `l` says: (offset from the DVLB start, bytes).
fn pieces(d: &Dvlb, l: &Layout) -> Vec<(usize, Vec<u8>)> {
    let mut out = Vec::new();
    let mut w = Writer::new(Endian::Little);
    w.bytes(b"DVLB");
    w.u32(l.dvle_offsets.len() as u32);
    for o in &l.dvle_offsets {
        w.u32(*o);
    }
    out.push((0, w.finish()));
    let dvlp = d.dvlp_offset() as usize;
    out.push((dvlp, dvlp_header(&d.dvlp, l.dvlp_header, l.dvlp_offsets)));
    let o = l.dvlp_offsets.map(|x| dvlp + x as usize);
    let p = &d.dvlp;
    out.push((o[0], encode(&p.code, |v, w| w.u32(*v))));
    out.push((o[1], encode(&p.opdescs, |v, w| v.iter().for_each(|x| w.u32(*x)))));
    out.push((o[2], encode(&p.line_numbers, LineEntry::write)));
    out.push((o[3], p.filenames.clone()));
    for ((e, t), &off) in d.dvles.iter().zip(&l.dvle_offsets_tables).zip(&l.dvle_offsets) {
        let off = off as usize;
        out.push((off, dvle_header(e, *t)));
        let at = |i: usize| off + t.get(i).copied().unwrap_or(0) as usize;
        out.push((at(0), encode(&e.constants, ConstantEntry::write)));
        out.push((at(1), encode(&e.labels, LabelEntry::write)));
        out.push((at(2), encode(&e.outputs, OutputEntry::write)));
        out.push((at(3), encode(&e.uniforms, UniformEntry::write)));
        out.push((at(4), e.symbols.clone()));
    }
    out.retain(|(_, b)| !b.is_empty());
    out
}

fn write_with(d: &Dvlb, l: &Layout) -> Vec<u8> {
    crate::toolkit::layout::assemble(l.size, &pieces(d, l), &l.filler)
}

fn to_u32(v: usize, what: &'static str) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::invalid(0, what, format!("0x{v:x} does not fit in 32 bits")))
}

/// picasso's layout: header, DVLP (0x28) with code then opdescs, no line or filename table
/// unless the model has them, then each DVLE (4-byte aligned) with constants, labels, outputs,
/// uniforms and symbols in that order.
fn write_with_fresh_layout(d: &Dvlb) -> Result<Vec<u8>> {
    let n = d.dvles.len();
    let dvlp = 8 + 4 * n;
    let p = &d.dvlp;
    let code_off = DVLP_HEADER_SIZE as usize;
    let opdesc_off = code_off + 4 * p.code.len();
    let mut end = opdesc_off + 8 * p.opdescs.len();
    let line_off = if p.line_numbers.is_empty() { 0 } else { end };
    end += LineEntry::SIZE * p.line_numbers.len();
    let file_off = if p.filenames.is_empty() { 0 } else { end };
    end += p.filenames.len();
    let mut pos = dvlp + end;
    let mut dvle_offsets = Vec::with_capacity(n);
    let mut tables = Vec::with_capacity(n);
    for e in &d.dvles {
        pos = pos.next_multiple_of(4);
        dvle_offsets.push(to_u32(pos, "DVLE offset")?);
        let mut t = [0u32; 5];
        let mut cur = DVLE_HEADER_SIZE as usize;
        let sizes = [
            ConstantEntry::SIZE * e.constants.len(),
            LabelEntry::SIZE * e.labels.len(),
            OutputEntry::SIZE * e.outputs.len(),
            UniformEntry::SIZE * e.uniforms.len(),
            e.symbols.len(),
        ];
        for (slot, size) in t.iter_mut().zip(sizes) {
            *slot = to_u32(cur, "DVLE table offset")?;
            cur += size;
        }
        tables.push(t);
        pos += cur;
    }
    let layout = Layout {
        size: pos,
        dvle_offsets,
        dvlp_header: DVLP_HEADER_SIZE,
        dvlp_offsets: [
            to_u32(code_off, "code offset")?,
            to_u32(opdesc_off, "opdesc offset")?,
            to_u32(line_off, "line table offset")?,
            to_u32(file_off, "filename offset")?,
        ],
        dvle_offsets_tables: tables,
        shape: shape(d),
        filler: Vec::new(),
    };
    Ok(write_with(d, &layout))
}

/// Annotate every structure of a DVLB whose first byte sits at absolute `base`.
pub fn annotate(d: &Dvlb, base: u64, a: &mut Annotations) {
    let Some(l) = &d.layout else { return };
    let n = d.dvles.len() as u64;
    a.section(base, 8 + 4 * n, "DVLB header");
    a.field(base, 4, "magic \"DVLB\"");
    a.field(base + 4, 4, format!("DVLE count: {n}"));
    for (i, o) in l.dvle_offsets.iter().enumerate() {
        a.field(base + 8 + 4 * i as u64, 4, format!("DVLE {i} offset: 0x{o:x}"));
    }
    let dvlp = base + u64::from(d.dvlp_offset());
    let p = &d.dvlp;
    a.section(dvlp, u64::from(l.dvlp_header), "DVLP header");
    a.field(dvlp, 4, "magic \"DVLP\"");
    a.field(dvlp + 4, 4, format!("version: 0x{:x}", p.version));
    a.field(dvlp + 8, 4, format!("code offset: 0x{:x}", l.dvlp_offsets[0]));
    a.field(dvlp + 0xc, 4, format!("code size: {} words", p.code.len()));
    a.field(dvlp + 0x10, 4, format!("operand descriptor table offset: 0x{:x}", l.dvlp_offsets[1]));
    a.field(dvlp + 0x14, 4, format!("operand descriptor count: {}", p.opdescs.len()));
    if l.dvlp_header == DVLP_HEADER_SIZE {
        a.field(dvlp + 0x18, 4, format!("line-number table offset: 0x{:x}", l.dvlp_offsets[2]));
        a.field(dvlp + 0x1c, 4, format!("line-number entries: {}", p.line_numbers.len()));
        a.field(dvlp + 0x20, 4, format!("filename table offset: 0x{:x}", l.dvlp_offsets[3]));
        a.field(dvlp + 0x24, 4, format!("filename table size: {} bytes", p.filenames.len()));
    } else {
        a.field(
            dvlp + 0x18,
            4,
            format!("filename table offset (short nihstro header): 0x{:x}", l.dvlp_offsets[2]),
        );
    }
    let code = dvlp + u64::from(l.dvlp_offsets[0]);
    if !p.code.is_empty() {
        a.section(code, 4 * p.code.len() as u64, "code");
        let opd = d.opdesc_words();
        for (i, w) in p.code.iter().enumerate() {
            a.field(code + 4 * i as u64, 4, format!("[{i:03x}] {}", pica::describe_word(*w, &opd)));
        }
    }
    let od = dvlp + u64::from(l.dvlp_offsets[1]);
    if !p.opdescs.is_empty() {
        a.section(od, 8 * p.opdescs.len() as u64, "operand descriptors");
        for (i, [w0, w1]) in p.opdescs.iter().enumerate() {
            let at = od + 8 * i as u64;
            a.field(at, 4, format!("opdesc {i:#04x}: {}", pica::describe_opdesc(*w0)));
            a.field(at + 4, 4, format!("opdesc {i:#04x} second word: 0x{w1:x}"));
        }
    }
    let lt = dvlp + u64::from(l.dvlp_offsets[2]);
    for (i, e) in p.line_numbers.iter().enumerate() {
        a.field(
            lt + 8 * i as u64,
            8,
            format!("line number {i}: file offset 0x{:x}, line {}", e.file_offset, e.line),
        );
    }
    if !p.filenames.is_empty() {
        strings(a, dvlp + u64::from(l.dvlp_offsets[3]), &p.filenames, "filename table");
    }
    for (i, ((e, t), &off)) in d.dvles.iter().zip(&l.dvle_offsets_tables).zip(&l.dvle_offsets).enumerate() {
        annotate_dvle(a, base + u64::from(off), i, e, *t);
    }
}

fn strings(a: &mut Annotations, at: u64, table: &[u8], title: &str) {
    a.section(at, table.len() as u64, title);
    let mut start = 0usize;
    while start < table.len() {
        let len = table.get(start..).and_then(|r| r.iter().position(|&c| c == 0)).map(|n| n + 1);
        let len = len.unwrap_or(table.len() - start);
        let s = symbol_text(table, start as u32).unwrap_or_default();
        a.field(at + start as u64, len as u64, format!("+0x{start:x}: \"{}\"", s.escape_default()));
        start += len;
    }
}

fn annotate_dvle(a: &mut Annotations, o: u64, i: usize, e: &Dvle, t: [u32; 5]) {
    a.section(o, u64::from(DVLE_HEADER_SIZE), format!("DVLE {i} header"));
    a.field(o, 4, "magic \"DVLE\"");
    a.field(o + 4, 2, format!("version: 0x{:x}", e.version));
    a.field(o + 6, 1, format!("shader type: {}", e.type_name()));
    a.field(o + 7, 1, format!("flags: 0x{:x} (merge output maps: {})", e.flags, e.flags & 1 != 0));
    a.field(o + 8, 4, format!("main: 0x{:x}", e.main));
    a.field(o + 0xc, 4, format!("endmain: 0x{:x}", e.endmain));
    a.field(o + 0x10, 2, format!("input register mask: 0x{:04x}", e.input_mask));
    a.field(o + 0x12, 2, format!("output register mask: 0x{:04x}", e.output_mask));
    let g = e.geometry;
    a.field(o + 0x14, 1, format!("geometry mode: {} ({})", g[0], geometry_mode_name(g[0])));
    a.field(o + 0x15, 1, format!("fixed-mode start register: c{}", g[1]));
    a.field(o + 0x16, 1, format!("variable-mode vertex count: {}", g[2]));
    a.field(o + 0x17, 1, format!("fixed-mode vertex count: {}", g[3]));
    let names = ["constant", "label", "output", "uniform", "symbol"];
    let counts = [e.constants.len(), e.labels.len(), e.outputs.len(), e.uniforms.len(), e.symbols.len()];
    for (k, ((name, n), off)) in names.iter().zip(counts).zip(t).enumerate() {
        let at = o + 0x18 + 8 * k as u64;
        a.field(at, 4, format!("{name} table offset: 0x{off:x}"));
        let unit = if k == 4 { "bytes" } else { "entries" };
        a.field(at + 4, 4, format!("{name} table size: {n} {unit}"));
    }
    let ct = o + u64::from(t[0]);
    for (k, c) in e.constants.iter().enumerate() {
        a.field(
            ct + (ConstantEntry::SIZE * k) as u64,
            ConstantEntry::SIZE as u64,
            format!("constant {k}: {}", c.describe()),
        );
    }
    let lt = o + u64::from(t[1]);
    for (k, l) in e.labels.iter().enumerate() {
        a.field(
            lt + (LabelEntry::SIZE * k) as u64,
            LabelEntry::SIZE as u64,
            format!(
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
            format!("output {k}: o{} {} {}", x.register, sem, super::tables::mask_text(x.mask)),
        );
    }
    let ut = o + u64::from(t[3]);
    for (k, u) in e.uniforms.iter().enumerate() {
        let regs = register_range(u.first, u.last);
        a.field(
            ut + (UniformEntry::SIZE * k) as u64,
            UniformEntry::SIZE as u64,
            format!("uniform {k}: \"{}\" {regs}", e.symbol(u.name_offset)),
        );
    }
    if !e.symbols.is_empty() {
        strings(a, o + u64::from(t[4]), &e.symbols, &format!("DVLE {i} symbol table"));
    }
}

/// `c0-c3`, `v1` or raw numbers when outside the unified register space.
pub fn register_range(first: u16, last: u16) -> String {
    use super::tables::unified_register_name as n;
    match (n(first), n(last)) {
        (Some(a), _) if first == last => a,
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => format!("registers 0x{first:x}-0x{last:x}"),
    }
}

/// Name of a geometry-shader mode byte.
pub fn geometry_mode_name(mode: u8) -> &'static str {
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
            "DVLE 0 header at offset 0x8 points outside its range (0x200 is past the end 0x103)"
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
