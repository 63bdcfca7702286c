//! DVOJ/DVOB: an unlinked shader object from Nintendo's assembler. One header (0x58 bytes)
//! holds every table of a single executable: constants, labels, code, operand descriptors,
//! line numbers (one per instruction), relocations (12 bytes each, for the linker), outputs,
//! uniforms and one symbol table. The entry point is the first instruction.
//!
//! No public file of this kind was found, so the layout follows 3dbrew and GBATEK; like the
//! DVLB reader, every offset is followed and every byte outside the tables is kept.
//!
//! ```
//! use shaderscope::format::shbin::{Dvoj, build, tables::UniformEntry};
//!
//! // An object with the example shader's code and one uniform.
//! let vs = build::example_vertex_dvlb();
//! let mut o = Dvoj::new(*b"DVOJ");
//! o.code = vs.dvlp.code.clone();
//! o.opdescs = vs.dvlp.opdescs.clone();
//! o.symbols = b"projection\0".to_vec();
//! o.uniforms.push(UniformEntry { name_offset: 0, first: 0x10, last: 0x13 });
//! let bytes = o.write()?;
//! // The 0x58-byte header, then the tables in header order: code, descriptors, uniforms, symbols.
//! assert_eq!(bytes.len(), 0x58 + 8 * 4 + 7 * 8 + 8 + 11);
//!
//! let back = Dvoj::parse(&bytes)?;
//! assert_eq!((back.code_offset(), back.symbol(back.uniforms[0].name_offset)), (0x58, "projection".into()));
//! assert_eq!(back.names().uniforms[0].registers(), "c0-c3");
//! assert_eq!(back.write()?, bytes);
//! assert_eq!(
//!     Dvoj::parse(&bytes[..0x30]).unwrap_err().to_string(),
//!     "truncated DVOJ header at offset 0x0 (need 88 bytes, have 48)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::headers::{DvojHeader, TableRef};
use super::tables::{
    ConstantEntry, LabelEntry, LineEntry, OutputEntry, UniformEntry, put_table, read_blob, read_table,
    symbol_or_placeholder,
};
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::toolkit::layout::Placement;
use crate::toolkit::raw::U32;
use crate::toolkit::{Endian, Reader, Writer};
use zerocopy::IntoBytes;

/// Size of the DVOJ header.
pub const HEADER_SIZE: u32 = 0x58;

/// A DVOJ/DVOB object: parsed, or built in code from [`Dvoj::new`] and written with
/// [`Dvoj::write`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Dvoj {
    /// `DVOJ` or `DVOB`.
    pub magic: [u8; 4],
    /// Header words 0x04, 0x08, 0x0C (type-related, unknown, usually 0xFFFFFFFF), as stored.
    pub unknown: [u32; 3],
    /// Constant table.
    pub constants: Vec<ConstantEntry>,
    /// Label table.
    pub labels: Vec<LabelEntry>,
    /// Instruction words.
    pub code: Vec<u32>,
    /// Operand descriptors (two words each, as in the DVLP).
    pub opdescs: Vec<[u32; 2]>,
    /// Line-number table: source file and line per instruction.
    pub line_numbers: Vec<LineEntry>,
    /// Relocation table: instruction address and two words for the linker.
    pub relocations: Vec<[u32; 3]>,
    /// Output table.
    pub outputs: Vec<OutputEntry>,
    /// Uniform table.
    pub uniforms: Vec<UniformEntry>,
    /// Symbol table (names of labels, uniforms and source files).
    pub symbols: Vec<u8>,
    /// Placement of every table as stored, and the bytes outside them.
    pub layout: Option<DvojLayout>,
}

/// Where each table of a parsed DVOJ sat.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DvojLayout {
    /// Bytes covered (the whole file).
    pub size: usize,
    /// Offsets as stored, in header order: constants, labels, code, opdescs, line numbers,
    /// relocations, outputs, uniforms, symbols.
    pub offsets: [u32; 9],
    shape: [usize; 9],
    /// Bytes outside every structure.
    pub filler: Vec<(u32, Vec<u8>)>,
}

/// Annotate the header and the code words of a DVOJ/DVOB that fails to parse, read straight
/// from the bytes.
pub fn annotate_damaged(data: &[u8], a: &mut Annotations) {
    let r = Reader::new(data, Endian::Little);
    let Ok(h) = r.read_at::<DvojHeader>(0, "DVOJ header") else { return };
    let offsets = h.tables.map(|t| u64::from(t.offset.get()));
    let sizes = h.tables.map(|t| u64::from(t.entries.get()));
    header(a, &h.magic, h.unknown.map(|u| u.get()), offsets, sizes);
    let code: Vec<u32> = (0..sizes[2])
        .map_while(|i| r.u32_at(usize::try_from(offsets[2] + 4 * i).ok()?, "code").ok())
        .collect();
    let program = crate::isa::pica::Program::new(&code);
    for (i, inst) in program.instructions().iter().enumerate() {
        a.field(
            offsets[2] + 4 * i as u64,
            4,
            format_args!("[{i:03x}] {}", crate::isa::pica::describe_instruction(inst, &[])),
        );
    }
}

/// The header: the magic, three unknown words and the nine tables' offsets and sizes.
fn header(a: &mut Annotations, magic: &[u8; 4], unknown: [u32; 3], offsets: [u64; 9], sizes: [u64; 9]) {
    a.section(0, u64::from(HEADER_SIZE), "DVOJ header");
    a.field(0, 4, format_args!("magic \"{}\"", String::from_utf8_lossy(magic)));
    for (i, u) in unknown.iter().enumerate() {
        a.field(4 + 4 * i as u64, 4, format_args!("unknown word {i}: 0x{u:x}"));
    }
    for (i, ((name, o), n)) in NAMES.iter().zip(offsets).zip(sizes).enumerate() {
        a.field(0x10 + 8 * i as u64, 4, format_args!("{name} offset: 0x{o:x}"));
        a.field(0x14 + 8 * i as u64, 4, format_args!("{name} size: {n}"));
    }
}

const SIZES: [usize; 9] = [20, 16, 4, 8, 8, 12, 8, 8, 1];
const NAMES: [&str; 9] = [
    "constant table",
    "label table",
    "code",
    "operand descriptor table",
    "line-number table",
    "relocation table",
    "output table",
    "uniform table",
    "symbol table",
];

impl Dvoj {
    /// An empty object with magic `magic` (`DVOJ` or `DVOB`), header words 0, 0, 0xFFFFFFFF
    /// and no layout; fill in its tables and [`write`](Dvoj::write) it.
    pub fn new(magic: [u8; 4]) -> Dvoj {
        Dvoj {
            magic,
            unknown: [0, 0, 0xffff_ffff],
            constants: Vec::new(),
            labels: Vec::new(),
            code: Vec::new(),
            opdescs: Vec::new(),
            line_numbers: Vec::new(),
            relocations: Vec::new(),
            outputs: Vec::new(),
            uniforms: Vec::new(),
            symbols: Vec::new(),
            layout: None,
        }
    }

    /// Parse a standalone object file.
    pub fn parse(data: &[u8]) -> Result<Dvoj> {
        let file = Reader::new(data, Endian::Little);
        let h: &DvojHeader = file.read_at(0, "DVOJ header")?;
        let magic = h.magic;
        if &magic != b"DVOJ" && &magic != b"DVOB" {
            return Err(Error::bad_magic(0, "DVOJ header", b"DVOJ", &magic));
        }
        let unknown = h.unknown.map(|u| u.get());
        let t = h.tables.map(|t| [t.offset.get(), t.entries.get()]);
        let at = |i: usize| 0x10 + 8 * i as u64;
        let constants = read_table(&file, t[0][0], t[0][1], 20, NAMES[0], at(0), ConstantEntry::read)?;
        let labels = read_table(&file, t[1][0], t[1][1], 16, NAMES[1], at(1), LabelEntry::read)?;
        let code = read_table(&file, t[2][0], t[2][1], 4, NAMES[2], at(2), |r| r.u32("code"))?;
        let opdescs = read_table(&file, t[3][0], t[3][1], 8, NAMES[3], at(3), |r| {
            Ok([r.u32("operand descriptor")?, r.u32("operand descriptor")?])
        })?;
        let line_numbers = read_table(&file, t[4][0], t[4][1], 8, NAMES[4], at(4), LineEntry::read)?;
        let relocations = read_table(&file, t[5][0], t[5][1], 12, NAMES[5], at(5), |r| {
            Ok([r.u32("relocation")?, r.u32("relocation")?, r.u32("relocation")?])
        })?;
        let outputs = read_table(&file, t[6][0], t[6][1], 8, NAMES[6], at(6), OutputEntry::read)?;
        let uniforms = read_table(&file, t[7][0], t[7][1], 8, NAMES[7], at(7), UniformEntry::read)?;
        let symbols = read_blob(&file, t[8][0], t[8][1], NAMES[8], at(8))?;
        let mut d = Dvoj {
            magic,
            unknown,
            constants,
            labels,
            code,
            opdescs,
            line_numbers,
            relocations,
            outputs,
            uniforms,
            symbols,
            layout: None,
        };
        let mut layout =
            DvojLayout { size: data.len(), offsets: t.map(|e| e[0]), shape: d.shape(), filler: Vec::new() };
        let mut placed = Placement::new(Endian::Little, data.len());
        d.place(&layout.offsets, &mut placed);
        layout.filler = placed.filler(data);
        d.layout = Some(layout);
        Ok(d)
    }

    fn shape(&self) -> [usize; 9] {
        [
            self.constants.len(),
            self.labels.len(),
            self.code.len(),
            self.opdescs.len(),
            self.line_numbers.len(),
            self.relocations.len(),
            self.outputs.len(),
            self.uniforms.len(),
            self.symbols.len(),
        ]
    }

    /// Put the header and every table at `offsets`.
    fn place(&self, offsets: &[u32; 9], p: &mut Placement) {
        let mut tables = [TableRef::default(); 9];
        for ((t, o), n) in tables.iter_mut().zip(offsets).zip(self.shape()) {
            *t = TableRef::new(*o, n as u32);
        }
        let header = DvojHeader { magic: self.magic, unknown: self.unknown.map(U32::new), tables };
        p.put_at(0, header.as_bytes());
        let at = offsets.map(|o| o as usize);
        put_table(p, at[0], &self.constants, SIZES[0], ConstantEntry::put);
        put_table(p, at[1], &self.labels, SIZES[1], LabelEntry::put);
        put_table(p, at[2], &self.code, SIZES[2], |w, p, at| p.patch_u32(at, *w));
        put_table(p, at[3], &self.opdescs, SIZES[3], |o, p, at| {
            p.patch_u32(at, o[0]);
            p.patch_u32(at + 4, o[1]);
        });
        put_table(p, at[4], &self.line_numbers, SIZES[4], LineEntry::put);
        put_table(p, at[5], &self.relocations, SIZES[5], |r, p, at| {
            for (k, v) in r.iter().enumerate() {
                p.patch_u32(at + 4 * k, *v);
            }
        });
        put_table(p, at[6], &self.outputs, SIZES[6], OutputEntry::put);
        put_table(p, at[7], &self.uniforms, SIZES[7], UniformEntry::put);
        p.put_at(at[8], &self.symbols);
    }

    /// Re-encode: at the recorded offsets when the tables kept their sizes, otherwise with the
    /// tables packed after the header in header order (their ranges reserved first, then
    /// written).
    pub fn write(&self) -> Result<Vec<u8>> {
        if let Some(l) = &self.layout
            && l.shape == self.shape()
        {
            let mut p = Placement::new(Endian::Little, l.size);
            self.place(&l.offsets, &mut p);
            return Ok(p.finish(&l.filler));
        }
        let mut w = Writer::new(Endian::Little);
        w.reserve(HEADER_SIZE as usize, 1);
        let mut offsets = [0u32; 9];
        for ((o, n), sz) in offsets.iter_mut().zip(self.shape()).zip(SIZES) {
            let at = w.reserve(n * sz, 1).start;
            *o = u32::try_from(at).map_err(|_| Error::overflow(0, "DVOJ table offset"))?;
        }
        let size = w.len();
        let mut p = Placement::with_writer(w, size);
        self.place(&offsets, &mut p);
        Ok(p.finish(&[]))
    }

    /// Operand descriptors as the hardware sees them.
    pub fn opdesc_words(&self) -> Vec<u32> {
        self.opdescs.iter().map(|d| d[0] & 0x7fff_ffff).collect()
    }

    /// The object code decoded, for everything that reads its instructions.
    pub fn program(&self) -> crate::isa::pica::Program<'_> {
        crate::isa::pica::Program::new(&self.code)
    }

    /// The name at a symbol-table offset, or a placeholder naming the bad offset.
    pub fn symbol(&self, offset: u32) -> String {
        symbol_or_placeholder(&self.symbols, offset)
    }

    /// Absolute offset of the code (where it is, or where [`Dvoj::write`] puts it when the
    /// object has no layout yet: 0).
    pub fn code_offset(&self) -> u64 {
        self.layout.as_ref().map(|l| u64::from(l.offsets[2])).unwrap_or(0)
    }

    /// The tables in the ISA's types, each entry with its absolute offset.
    pub fn names(&self) -> super::dvlb::DvleNames {
        let tables = self.layout.as_ref().map(|l| {
            let [constants, labels, _, _, _, _, outputs, uniforms, _] = l.offsets;
            [constants, labels, outputs, uniforms].map(u64::from)
        });
        self.as_dvle().names_at(tables)
    }

    /// The object viewed as a DVLE (entry at the first instruction, end at the last) so the
    /// same disassembler and summaries apply.
    pub fn as_dvle(&self) -> super::dvlb::Dvle {
        super::dvlb::Dvle {
            version: 0,
            shader_type: (self.unknown[0] & 0xff) as u8,
            flags: 0,
            main: 0,
            endmain: self.code.len() as u32,
            input_mask: 0,
            output_mask: 0,
            geometry: [0; 4],
            constants: self.constants.clone(),
            labels: self.labels.clone(),
            outputs: self.outputs.clone(),
            uniforms: self.uniforms.clone(),
            symbols: self.symbols.clone(),
        }
    }

    /// Annotate every structure.
    pub fn annotate(&self, a: &mut Annotations) {
        let Some(l) = &self.layout else { return };
        let sizes = self.shape().map(|n| n as u64);
        header(a, &self.magic, self.unknown, l.offsets.map(u64::from), sizes);
        let opd = self.opdesc_words();
        for (i, inst) in self.program().instructions().iter().enumerate() {
            let at = u64::from(l.offsets[2]) + 4 * i as u64;
            a.field(at, 4, format!("[{i:03x}] {}", crate::isa::pica::describe_instruction(inst, &opd)));
        }
        for (i, w) in self.opdescs.iter().enumerate() {
            let at = u64::from(l.offsets[3]) + 8 * i as u64;
            a.field(
                at,
                8,
                format!(
                    "opdesc {i:#04x}: {}, second word 0x{:x}",
                    crate::isa::pica::describe_opdesc(w[0]),
                    w[1]
                ),
            );
        }
        for (i, e) in self.line_numbers.iter().enumerate() {
            let at = u64::from(l.offsets[4]) + 8 * i as u64;
            a.field(at, 8, format!("instruction {i}: {} line {}", self.symbol(e.file_offset), e.line));
        }
        for (i, r) in self.relocations.iter().enumerate() {
            let at = u64::from(l.offsets[5]) + 12 * i as u64;
            a.field(at, 12, format!("relocation {i}: instruction 0x{:x}, 0x{:x}, 0x{:x}", r[0], r[1], r[2]));
        }
        for (i, c) in self.constants.iter().enumerate() {
            a.field(u64::from(l.offsets[0]) + 20 * i as u64, 20, format!("constant {i}: {}", c.describe()));
        }
        for (i, x) in self.labels.iter().enumerate() {
            let at = u64::from(l.offsets[1]) + 16 * i as u64;
            a.field(at, 16, format!("label {i}: \"{}\" at 0x{:x}", self.symbol(x.name_offset), x.address));
        }
        for (i, x) in self.outputs.iter().enumerate() {
            let at = u64::from(l.offsets[6]) + 8 * i as u64;
            a.field(
                at,
                8,
                format!(
                    "output {i}: o{} semantic {} mask {}",
                    x.register,
                    x.semantic,
                    super::tables::mask_text(x.mask)
                ),
            );
        }
        for (i, u) in self.uniforms.iter().enumerate() {
            let at = u64::from(l.offsets[7]) + 8 * i as u64;
            let regs = super::dvlb::register_range(u.first, u.last);
            a.field(at, 8, format!("uniform {i}: \"{}\" {regs}", self.symbol(u.name_offset)));
        }
        if !self.symbols.is_empty() {
            a.field(u64::from(l.offsets[8]), self.symbols.len() as u64, "symbol table");
        }
        super::dvlb::filler(a, 0, &l.filler);
    }
}
