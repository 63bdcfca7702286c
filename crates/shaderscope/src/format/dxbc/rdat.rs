//! RDAT: the runtime data DXC writes for libraries (`lib_6_x`) and, from validator 1.8 on,
//! for every program: tables of records the runtime reads without parsing the DXIL
//! (`DxilRuntimeReflection.h`, `RDAT_LibraryTypes.inl`, `RDAT_SubobjectTypes.inl` in DXC).
//!
//! ```text
//! u32 version            0x10
//! u32 part count
//! u32 part offsets[count]   from the start of the payload
//! part:  u32 type | u32 size | data[size]
//!   1 StringBuffer      NUL-terminated strings; records name them by offset
//!   2 IndexArrays       rows of u32: a count, then that many values; records name a row by offset
//!   5 RawBytes          bytes records name by offset and size
//!   3 ResourceTable, 4 FunctionTable, 6 SubobjectTable, 7–11 the work-graph node tables, …:
//!                       u32 record count | u32 record stride | records
//! ```
//!
//! [`Rdat::parse`] reads the part table and every part, the records of the resource,
//! function and subobject tables with their names; the records of the other tables are
//! counted, not read.
//!
//! ```
//! use shaderscope::format::dxbc::rdat::Rdat;
//!
//! // Version 0x10, one part: a string buffer of "main\0" padded to 8 bytes.
//! let mut payload = Vec::new();
//! for w in [0x10u32, 1, 12, 1, 8] {
//!     payload.extend(w.to_le_bytes());
//! }
//! payload.extend(b"main\0\0\0\0");
//! let rdat = Rdat::parse(&payload, 0x40)?;
//! assert_eq!((rdat.version, rdat.parts.len(), rdat.parts[0].type_name()), (0x10, 1, Some("StringBuffer")));
//! assert_eq!(rdat.string(0, 0)?.text(), "main");
//! payload[0] = 0x11;
//! assert_eq!(
//!     Rdat::parse(&payload, 0x40).unwrap_err().to_string(),
//!     "unsupported RDAT header at offset 0x40: version 0x11 (this build reads version 0x10)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::chunks::Words;
use super::dxil::ShaderKind;
use crate::error::{Error, Result};
use crate::toolkit::{Cstr, Endian, Reader};

/// The RDAT version DXC writes (`RDAT_Version_10`).
pub(crate) const VERSION: u32 = 0x10;

/// `RuntimeDataPartType` names, by value (`Invalid` … `ASInfoTable`).
const PART_TYPES: [&str; 22] = [
    "Invalid",
    "StringBuffer",
    "IndexArrays",
    "ResourceTable",
    "FunctionTable",
    "RawBytes",
    "SubobjectTable",
    "NodeIDTable",
    "NodeShaderIOAttribTable",
    "NodeShaderFuncAttribTable",
    "IONodeTable",
    "NodeShaderInfoTable",
    "Reserved_MeshNodesPreviewInfoTable",
    "SignatureElementTable",
    "VSInfoTable",
    "PSInfoTable",
    "HSInfoTable",
    "DSInfoTable",
    "GSInfoTable",
    "CSInfoTable",
    "MSInfoTable",
    "ASInfoTable",
];

/// The PDB-info group's part types (`RuntimeDataGroup::PdbInfo << 16 | id`).
const PDB_PART_TYPES: [(u32, &str); 3] = [
    (0x1_0001, "DxilPdbInfoTable"),
    (0x1_0002, "DxilPdbInfoSourceTable"),
    (0x1_0003, "DxilPdbInfoLibraryTable"),
];

/// The size of `RuntimeDataResourceInfo`.
pub(crate) const RESOURCE_SIZE: u32 = 32;
/// The size of `RuntimeDataFunctionInfo` (`RuntimeDataFunctionInfo2`, from validator 1.8,
/// is [`FUNCTION2_SIZE`]).
pub(crate) const FUNCTION_SIZE: u32 = 44;
/// The size of `RuntimeDataFunctionInfo2`.
pub const FUNCTION2_SIZE: u32 = 52;
/// The fixed start of `RuntimeDataSubobjectInfo`: its kind and name.
pub(crate) const SUBOBJECT_HEAD: u32 = 8;

/// `RDAT_NULL_REF`: no string, no index row, no record.
pub const NULL_REF: u32 = u32::MAX;

/// A part: its header and data, and for a table its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part<'a> {
    /// Absolute offset of the part header.
    pub offset: usize,
    /// `RuntimeDataPartType`.
    pub part_type: u32,
    /// The data (the size the header declares).
    pub data: &'a [u8],
    /// For a table: record count and record stride (the table header, the first 8 bytes of
    /// the data).
    pub table: Option<(u32, u32)>,
}

impl Part<'_> {
    /// Absolute offset of the data.
    pub fn data_offset(&self) -> usize {
        self.offset + 8
    }

    /// DXC's name of the part type.
    pub fn type_name(&self) -> Option<&'static str> {
        part_type_name(self.part_type)
    }

    /// Absolute offset of the first record of a table.
    pub fn records_offset(&self) -> usize {
        self.data_offset() + 8
    }
}

/// DXC's name of a `RuntimeDataPartType`.
pub(crate) fn part_type_name(t: u32) -> Option<&'static str> {
    PART_TYPES.get(t as usize).copied().or_else(|| PDB_PART_TYPES.iter().find(|p| p.0 == t).map(|p| p.1))
}

/// Whether parts of type `t` are record tables (a count and a stride first).
fn is_table(t: u32) -> bool {
    matches!(t, 3 | 4 | 6..=21) || PDB_PART_TYPES.iter().any(|p| p.0 == t)
}

/// A `RuntimeDataResourceInfo` record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resource<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// `Class` (`DXIL::ResourceClass`: SRV, UAV, CBuffer, Sampler).
    pub class: u32,
    /// `Kind` (`DXIL::ResourceKind`).
    pub kind: u32,
    /// `ID`.
    pub id: u32,
    /// `Space`.
    pub space: u32,
    /// `LowerBound`.
    pub lower_bound: u32,
    /// `UpperBound` (0xFFFFFFFF: unbounded).
    pub upper_bound: u32,
    /// `Name`.
    pub name: Cstr<'a>,
    /// `Flags` (`DxilResourceFlag`).
    pub flags: u32,
}

/// A `RuntimeDataFunctionInfo` record (with the fields of `RuntimeDataFunctionInfo2` when
/// the stride has them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Function<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// `Name` (mangled for library functions).
    pub name: Cstr<'a>,
    /// `UnmangledName`.
    pub unmangled_name: Cstr<'a>,
    /// `Resources`: the index row of the resources it uses ([`NULL_REF`]: none).
    pub resources: u32,
    /// `FunctionDependencies`: the index row of the names of the functions it calls.
    pub dependencies: u32,
    /// `ShaderKind` (`DXIL::ShaderKind`; 16, `Invalid`, for a library function).
    pub shader_kind: u32,
    /// `PayloadSizeInBytes`.
    pub payload_size: u32,
    /// `AttributeSizeInBytes`.
    pub attribute_size: u32,
    /// `FeatureInfo1`, `FeatureInfo2`: the 64 feature flags (SFI0's).
    pub feature_info: [u32; 2],
    /// `ShaderStageFlag`: a bit per shader kind the function may be used in.
    pub shader_stage_flags: u32,
    /// `MinShaderTarget`: kind << 16 | major << 4 | minor.
    pub min_shader_target: u32,
    /// `RuntimeDataFunctionInfo2`: `MinimumExpectedWaveLaneCount`,
    /// `MaximumExpectedWaveLaneCount`, `ShaderFlags`, and the stage record reference.
    pub v2: Option<(u8, u8, u16, u32)>,
}

/// A `RuntimeDataSubobjectInfo` record's kind and name (its kind-specific fields are not
/// read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subobject<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// `Kind` (`DXIL::SubobjectKind`).
    pub kind: u32,
    /// `Name`.
    pub name: Cstr<'a>,
}

/// A parsed RDAT part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rdat<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// The version (0x10).
    pub version: u32,
    /// The parts, in the order of the part table.
    pub parts: Vec<Part<'a>>,
    /// The records of the resource table.
    pub resources: Vec<Resource<'a>>,
    /// The records of the function table.
    pub functions: Vec<Function<'a>>,
    /// The records of the subobject table.
    pub subobjects: Vec<Subobject<'a>>,
}

impl<'a> Rdat<'a> {
    /// Parse an RDAT payload at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let mut r = Reader::with_base(data, base as u64, Endian::Little);
        let version = r.u32("RDAT header")?;
        if version != VERSION {
            return Err(Error::unsupported(
                base as u64,
                "RDAT header",
                format!("version 0x{version:x} (this build reads version 0x{VERSION:x})"),
            ));
        }
        let count = r.u32("RDAT header")?;
        let offsets = table_of(&mut r, count, 4, "RDAT part offsets")?;
        let whole = Reader::with_base(data, base as u64, Endian::Little);
        let mut parts = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let field = offsets.base() + 4 * i as u64;
            let at = offsets.u32_at(4 * i, "RDAT part offset")?;
            let mut p = whole.at(u64::from(at), "RDAT part", field)?;
            let offset = p.original_position() as usize;
            let part_type = p.u32("RDAT part header")?;
            let size_at = p.original_position();
            let size = p.u32("RDAT part header")?;
            let data = p.bytes(size as usize, "RDAT part data").map_err(|e| e.at_field(size_at))?;
            let table = if is_table(part_type) {
                let t = Reader::with_base(data, offset as u64 + 8, Endian::Little);
                let n = t.u32_at(0, "RDAT table header")?;
                let stride = t.u32_at(4, "RDAT table header")?;
                let need = u64::from(n) * u64::from(stride);
                if need > (data.len() as u64).saturating_sub(8) {
                    return Err(Error::out_of_bounds(
                        offset as u64 + 8,
                        "RDAT table records",
                        offset as u64 + 16,
                        need,
                        (offset + 8 + data.len()) as u64,
                    ));
                }
                Some((n, stride))
            } else {
                None
            };
            parts.push(Part { offset, part_type, data, table });
        }
        let mut rdat = Rdat {
            offset: base,
            version,
            parts,
            resources: Vec::new(),
            functions: Vec::new(),
            subobjects: Vec::new(),
        };
        rdat.read_records()?;
        Ok(rdat)
    }

    /// The records of the resource, function and subobject tables.
    fn read_records(&mut self) -> Result<()> {
        for part in self.parts.clone() {
            let Some((count, stride)) = part.table else { continue };
            let (need, what) = match part.part_type {
                3 => (RESOURCE_SIZE, "RuntimeDataResourceInfo"),
                4 => (FUNCTION_SIZE, "RuntimeDataFunctionInfo"),
                6 => (SUBOBJECT_HEAD, "RuntimeDataSubobjectInfo"),
                _ => continue,
            };
            // A table is read once: the first of its type.
            let read = match part.part_type {
                3 => !self.resources.is_empty(),
                4 => !self.functions.is_empty(),
                _ => !self.subobjects.is_empty(),
            };
            if read || count == 0 {
                continue;
            }
            if stride < need {
                return Err(Error::invalid(
                    part.data_offset() as u64 + 4,
                    "RDAT table header",
                    format!(
                        "the {} record stride {stride} is smaller than {what} ({need} bytes)",
                        part.type_name().unwrap_or("?")
                    ),
                ));
            }
            let records = Reader::with_base(
                part.data.get(8..).unwrap_or(&[]),
                part.records_offset() as u64,
                Endian::Little,
            );
            for i in 0..count as usize {
                let at = i * stride as usize;
                let offset = records.base() as usize + at;
                let w = |k: usize| records.u32_at(at + 4 * k, "RDAT record");
                match part.part_type {
                    3 => self.resources.push(Resource {
                        offset,
                        class: w(0)?,
                        kind: w(1)?,
                        id: w(2)?,
                        space: w(3)?,
                        lower_bound: w(4)?,
                        upper_bound: w(5)?,
                        name: self.string(w(6)?, offset + 24)?,
                        flags: w(7)?,
                    }),
                    4 => {
                        let v2 = if stride >= FUNCTION2_SIZE {
                            let b = records.array_at::<4>(at + 44, "RDAT record")?;
                            Some((b[0], b[1], u16::from_le_bytes([b[2], b[3]]), w(12)?))
                        } else {
                            None
                        };
                        let f = Function {
                            offset,
                            name: self.string(w(0)?, offset)?,
                            unmangled_name: self.string(w(1)?, offset + 4)?,
                            resources: w(2)?,
                            dependencies: w(3)?,
                            shader_kind: w(4)?,
                            payload_size: w(5)?,
                            attribute_size: w(6)?,
                            feature_info: [w(7)?, w(8)?],
                            shader_stage_flags: w(9)?,
                            min_shader_target: w(10)?,
                            v2,
                        };
                        self.index_row(f.resources, offset + 8)?;
                        self.index_row(f.dependencies, offset + 12)?;
                        self.functions.push(f);
                    }
                    _ => self.subobjects.push(Subobject {
                        offset,
                        kind: w(0)?,
                        name: self.string(w(1)?, offset + 4)?,
                    }),
                }
            }
        }
        Ok(())
    }

    /// The first part of `part_type`.
    pub fn part(&self, part_type: u32) -> Option<&Part<'a>> {
        self.parts.iter().find(|p| p.part_type == part_type)
    }

    /// The string at `offset` of the string buffer; `field` is the absolute offset of the
    /// field that names it (for the error). [`NULL_REF`] is the empty string.
    pub fn string(&self, offset: u32, field: usize) -> Result<Cstr<'a>> {
        let buffer = self.part(1);
        let (bytes, at) = buffer.map_or((&[][..], 0), |p| (p.data, p.data_offset()));
        if offset == NULL_REF {
            return Ok(Cstr { bytes: &[], offset: field as u64 });
        }
        if offset as usize >= bytes.len() {
            return Err(Error::out_of_bounds(
                field as u64,
                "RDAT string",
                (at as u64).saturating_add(u64::from(offset)),
                1,
                (at + bytes.len()) as u64,
            ));
        }
        Reader::with_base(bytes, at as u64, Endian::Little).cstr_at(offset as usize, "RDAT string")
    }

    /// The values of the index row at `offset` of the index arrays (a count, then the
    /// values); none for [`NULL_REF`]. `field` is the absolute offset of the field that names
    /// it.
    pub fn index_row(&self, offset: u32, field: usize) -> Result<Words<'a>> {
        if offset == NULL_REF {
            return Ok(Words::default());
        }
        let words = self.part(2).map_or(Words::default(), |p| Words::new(p.data));
        let count = words.get(offset as usize);
        match count {
            Some(n) if u64::from(offset) + 1 + u64::from(n) <= words.len() as u64 => {
                let p = self.part(2).map_or(&[][..], |p| p.data);
                let start = 4 * (offset as usize + 1);
                Ok(Words::new(p.get(start..start + 4 * n as usize).unwrap_or(&[])))
            }
            _ => Err(Error::invalid(
                field as u64,
                "RDAT index row",
                format!("row {offset} is outside the {}-word index arrays", words.len()),
            )),
        }
    }
}

/// `count` records of `size` bytes at the cursor, as a reader over them; the cursor moves
/// past them. The count is checked against the bytes that remain.
fn table_of<'a>(r: &mut Reader<'a>, count: u32, size: u32, what: &'static str) -> Result<Reader<'a>> {
    let at = r.original_position();
    let Some(len) = u64::from(count).checked_mul(u64::from(size)).and_then(|n| usize::try_from(n).ok())
    else {
        return Err(Error::overflow(at, what));
    };
    let bytes = r.bytes(len, what)?;
    Ok(Reader::with_base(bytes, at, Endian::Little))
}

/// `DXIL::ResourceClass`.
pub(crate) fn resource_class_name(c: u32) -> Option<&'static str> {
    ["SRV", "UAV", "CBuffer", "Sampler", "Invalid"].get(c as usize).copied()
}

/// `DXIL::SubobjectKind`.
pub(crate) fn subobject_kind_name(k: u32) -> Option<&'static str> {
    match k {
        0 => Some("StateObjectConfig"),
        1 => Some("GlobalRootSignature"),
        2 => Some("LocalRootSignature"),
        8 => Some("SubobjectToExportsAssociation"),
        9 => Some("RaytracingShaderConfig"),
        10 => Some("RaytracingPipelineConfig"),
        11 => Some("HitGroup"),
        12 => Some("RaytracingPipelineConfig1"),
        _ => None,
    }
}

/// The name of a function record's shader kind: the DXIL kind's, or `function` for 16
/// (`Invalid`: a library function that is no entry point).
pub(crate) fn function_kind_name(k: u32) -> Option<&'static str> {
    match u16::try_from(k).map(ShaderKind::from_u16) {
        Ok(ShaderKind::Other(16)) => Some("function"),
        Ok(ShaderKind::Other(_)) | Err(_) => None,
        Ok(kind) => Some(kind.name()),
    }
}

/// The shader model of a shader target word (kind << 16 | major << 4 | minor): `6.3`.
pub(crate) fn model_text(v: u32) -> String {
    format!("{}.{}", (v >> 4) & 0xf, v & 0xf)
}
