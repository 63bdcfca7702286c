//! RDEF: resource definitions (constant buffers, their variables and types, resource
//! bindings, the creator string).
//!
//! Three layouts exist:
//! * SM4 (`major < 5`): 28-byte header, 24-byte variables, 16-byte types without names,
//!   32-byte bindings;
//! * SM5 ("RD11"): the header continues with the magic `RD11` and seven u32 that give the record
//!   sizes (60, 24, 32, 40, 36, 12, 0); variables are 40 bytes (texture and sampler ranges
//!   follow), types 36 bytes and carry a name;
//! * SM5.1: the same, but bindings are 40 bytes (register space and range ID follow).
//!
//! Every name is read where the tables point, and every record knows its absolute offset.
//! [`Dxbc::parse`](super::Dxbc::parse) parses the first RDEF into
//! [`Dxbc::rdef`](super::Dxbc::rdef); [`super::reflect`] names the numbers.
//!
//! ```
//! use shaderscope::format::dxbc::{rdef::Rdef, reflect};
//!
//! // An SM4 pixel-shader RDEF with no constant buffer and one sampler bound to s0.
//! let mut rdef = Vec::new();
//! for w in [0u32, 0, 1, 28, 0xffff_0400, 0, 67] {
//!     rdef.extend(w.to_le_bytes()); // counts and offsets, ps_4_0, flags, creator at 67
//! }
//! for w in [60u32, 3, 0, 0, 0, 0, 1, 0] {
//!     rdef.extend(w.to_le_bytes()); // name at 60, D3D_SIT_SAMPLER, register 0, 1 register
//! }
//! rdef.extend(b"linear\0Microsoft (R) HLSL Shader Compiler 10.1\0");
//!
//! // The chunk's payload at offset 0x40 of its file.
//! let r = Rdef::parse(&rdef, 0x40)?;
//! assert_eq!((r.major, r.minor, r.program_type), (4, 0, 0xffff));
//! assert_eq!(r.creator.text(), "Microsoft (R) HLSL Shader Compiler 10.1");
//! let s = &r.bindings[0];
//! assert_eq!((s.name.text().as_ref(), s.name.offset, s.bind_point), ("linear", 0x40 + 60, 0));
//! assert_eq!(reflect::input_type(s.input_type), Some("D3D_SIT_SAMPLER"));
//!
//! assert_eq!(
//!     Rdef::parse(&rdef[..20], 0x40).unwrap_err().to_string(),
//!     "truncated RDEF header at offset 0x54 (need 4 bytes, have 0)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::toolkit::{Cstr, Endian, Reader};
use std::collections::HashMap;
use std::sync::Arc;

/// `RD11` read as a little-endian u32 (shader model 5.0).
pub const RD11: u32 = 0x3131_4452;
/// The magic of the shader model 5.1 layout (`13 13 44 25`).
pub(crate) const RD11_51: u32 = 0x2544_1313;

/// A constant buffer (`D3D11_SHADER_BUFFER_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantBuffer<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Name.
    pub name: Cstr<'a>,
    /// Variables.
    pub variables: Vec<Variable<'a>>,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_CBUFFER_FLAGS` (1: user packed).
    pub flags: u32,
    /// `D3D_CBUFFER_TYPE`: 0 cbuffer, 1 tbuffer, 2 interface pointers, 3 resource bind info.
    pub kind: u32,
}

/// A variable of a constant buffer (`D3D11_SHADER_VARIABLE_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Name.
    pub name: Cstr<'a>,
    /// Offset in the buffer, in bytes.
    pub start: u32,
    /// Size in bytes.
    pub size: u32,
    /// `D3D_SHADER_VARIABLE_FLAGS` (2: used).
    pub flags: u32,
    /// Index of its type in [`Rdef::types`].
    pub ty: usize,
    /// Offset of the default value (relative to the chunk), 0 when there is none.
    pub default_offset: u32,
    /// The default value's bytes (`size` bytes at `default_offset`).
    pub default: Option<&'a [u8]>,
    /// SM5: first texture slot, texture count, first sampler slot, sampler count.
    pub texture_sampler: Option<[u32; 4]>,
}

impl Variable<'_> {
    /// True when the program reads the variable (`D3D_SVF_USED`).
    pub fn used(&self) -> bool {
        self.flags & 2 != 0
    }
}

/// A member of a struct type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Name.
    pub name: Cstr<'a>,
    /// Index of its type in [`Rdef::types`].
    pub ty: usize,
    /// Byte offset inside the struct.
    pub start: u32,
}

/// A type (`D3D11_SHADER_TYPE_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// `D3D_SHADER_VARIABLE_CLASS`: 0 scalar, 1 vector, 2 row-major matrix, 3 column-major
    /// matrix, 4 object, 5 struct, 6 interface class, 7 interface pointer.
    pub class: u16,
    /// `D3D_SHADER_VARIABLE_TYPE` (0 void, 1 bool, 2 int, 3 float, 19 uint, 39 double, …).
    pub ty: u16,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (0: not an array).
    pub elements: u16,
    /// Struct members. Types whose records name the same member table (its offset and
    /// count) share one parsed table: the same `Arc`, read once.
    pub members: Arc<[Member<'a>]>,
    /// SM5: the four words between the member offset and the name (parent/interface data).
    pub extra: Option<[u32; 4]>,
    /// SM5: the type's name.
    pub name: Option<Cstr<'a>>,
}

/// A resource binding (`D3D12_SHADER_INPUT_BIND_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding<'a> {
    /// Absolute offset of the record.
    pub offset: usize,
    /// Name.
    pub name: Cstr<'a>,
    /// `D3D_SHADER_INPUT_TYPE`.
    pub input_type: u32,
    /// `D3D_RESOURCE_RETURN_TYPE`.
    pub return_type: u32,
    /// `D3D_SRV_DIMENSION`.
    pub dimension: u32,
    /// Sample count (MS textures) or structure stride (structured buffers).
    pub samples: u32,
    /// First register.
    pub bind_point: u32,
    /// Number of registers (0: unbounded).
    pub bind_count: u32,
    /// `D3D_SHADER_INPUT_FLAGS`.
    pub flags: u32,
    /// SM5.1: register space and range ID.
    pub space_id: Option<[u32; 2]>,
}

/// A parsed RDEF chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rdef<'a> {
    /// Absolute offset of the payload.
    pub offset: usize,
    /// Offset of the constant-buffer table (relative to the payload).
    pub cb_offset: u32,
    /// Offset of the binding table (relative to the payload).
    pub binding_offset: u32,
    /// Target minor version.
    pub minor: u8,
    /// Target major version.
    pub major: u8,
    /// Program type: 0xFFFF pixel, 0xFFFE vertex, 0x4753 geometry, 0x4853 hull, 0x4453 domain,
    /// 0x4353 compute.
    pub program_type: u16,
    /// Compile flags (`D3DCOMPILE_*`).
    pub flags: u32,
    /// The compiler that wrote the file.
    pub creator: Cstr<'a>,
    /// Offset of the creator string (relative to the payload).
    pub creator_offset: u32,
    /// The RD11 block (magic and seven words) of SM5 layouts.
    pub rd11: Option<[u32; 8]>,
    /// Constant buffers.
    pub constant_buffers: Vec<ConstantBuffer<'a>>,
    /// Resource bindings.
    pub bindings: Vec<Binding<'a>>,
    /// Every type, in the order first met; variables and members refer here by index.
    pub types: Vec<Type<'a>>,
    /// The payload's size in bytes: what the listing and JSON may expand from it
    /// ([`Rdef::expansion_budget`]).
    pub size: usize,
}

/// Deepest struct nesting followed (fxc nests far less; this only stops hostile files).
const MAX_DEPTH: usize = 32;

/// Bytes of the chunk per record parsed: every record of a real RDEF has 12 bytes of its own
/// or more (members 12, types 16 or 36, variables 24), and a parsed record takes about 50
/// to 90 bytes of memory, so tables that overlap cost at most about 11 times the chunk.
const BYTES_PER_RECORD: usize = 8;

/// Declarations the listing and JSON expand per byte of the chunk, inverted: fxc's files
/// expand one per 50 bytes or fewer (corpus), a declaration takes about 60 bytes of listing
/// and 180 of JSON.
const BYTES_PER_DECLARATION: usize = 8;

struct Ctx<'a, 'b> {
    data: &'a [u8],
    base: usize,
    sm5: bool,
    types: &'b mut Vec<Type<'a>>,
    by_offset: TypeIndex,
    /// Member tables read so far, by (offset, count).
    tables: HashMap<(u32, u16), Arc<[Member<'a>]>>,
    /// Records still allowed: shared tables could otherwise multiply the work.
    budget: usize,
    /// The struct types whose members are being read, outermost first (at most
    /// [`MAX_DEPTH`]): a member of one of them has no size, so it cannot be laid out.
    open: Vec<usize>,
}

/// The types parsed so far, by offset. RDEFs have a few dozen types: a short list searched in
/// place (kept inline, no allocation) costs less than hashing each lookup; a hash map takes
/// over past that (hostile files).
#[derive(Default)]
struct TypeIndex {
    /// The first `len` entries: (offset, type index).
    list: [(u32, usize); TypeIndex::LIST_MAX],
    len: usize,
    map: std::collections::HashMap<u32, usize>,
}

impl TypeIndex {
    /// Entries kept in the list before the map takes over.
    const LIST_MAX: usize = 32;

    fn get(&self, rel: u32) -> Option<usize> {
        if self.map.is_empty() {
            self.list.get(..self.len)?.iter().find(|e| e.0 == rel).map(|e| e.1)
        } else {
            self.map.get(&rel).copied()
        }
    }

    /// Record `rel` (not present yet) as type `index`.
    fn insert(&mut self, rel: u32, index: usize) {
        match self.list.get_mut(self.len) {
            Some(e) if self.map.is_empty() => {
                *e = (rel, index);
                self.len += 1;
            }
            _ => {
                let listed = self.list.get(..self.len).unwrap_or(&[]);
                self.map.extend(listed.iter().copied());
                self.len = 0;
                self.map.insert(rel, index);
            }
        }
    }
}

impl<'a> Rdef<'a> {
    /// Parse the payload of an RDEF chunk that starts at absolute `base`.
    pub fn parse(data: &'a [u8], base: usize) -> Result<Self> {
        let mut r = Reader::with_base(data, base as u64, Endian::Little);
        let cb_count_at = r.original_position();
        let cb_count = r.u32("RDEF header")?;
        let cb_offset = r.u32("RDEF header")?;
        let bind_count_at = r.original_position();
        let bind_count = r.u32("RDEF header")?;
        let binding_offset = r.u32("RDEF header")?;
        let minor = r.u8("RDEF header")?;
        let major = r.u8("RDEF header")?;
        let program_type = r.u16("RDEF header")?;
        let flags = r.u32("RDEF header")?;
        let creator_offset = r.u32("RDEF header")?;
        let mut rd11 = None;
        if major >= 5 {
            let mut w = [0u32; 8];
            for x in w.iter_mut() {
                *x = r.u32("RDEF RD11 header")?;
            }
            if w[0] != RD11 && w[0] != RD11_51 {
                return Err(Error::invalid(
                    r.original_position() - 32,
                    "RDEF RD11 header",
                    format!("expected the RD11 magic for a shader model {major} RDEF, found 0x{:08x}", w[0]),
                ));
            }
            rd11 = Some(w);
        }
        let sm5 = rd11.is_some();
        let bind_size: u32 = match rd11 {
            Some(w) if w[3] == 40 => 40,
            _ => 32,
        };
        let var_size: u32 = if sm5 { 40 } else { 24 };
        // Strings are read where the tables point, anywhere in the chunk.
        let strings = Reader::with_base(data, base as u64, Endian::Little);
        let creator = if creator_offset == 0 && data.len() <= 28 {
            Cstr::default()
        } else {
            strings.cstr_at(creator_offset as usize, "RDEF creator")?
        };
        let mut types = Vec::new();
        let mut ctx = Ctx {
            data,
            base,
            sm5,
            types: &mut types,
            by_offset: Default::default(),
            tables: HashMap::new(),
            budget: data.len() / BYTES_PER_RECORD,
            open: Vec::new(),
        };

        let table = |count: u32, offset: u32, size: u32, what: &'static str, at: u64| -> Result<()> {
            let need = u64::from(count) * u64::from(size);
            if count != 0 && u64::from(offset).saturating_add(need) > data.len() as u64 {
                return Err(Error::invalid(
                    at,
                    what,
                    format!(
                        "{} of {} from 0x{:x} do not fit in the chunk (it ends at 0x{:x})",
                        crate::print::count(count, "record"),
                        crate::print::count(size, "byte"),
                        base as u64 + u64::from(offset),
                        base + data.len()
                    ),
                ));
            }
            Ok(())
        };
        table(cb_count, cb_offset, 24, "RDEF constant buffer table", cb_count_at)?;
        table(bind_count, binding_offset, bind_size, "RDEF binding table", bind_count_at)?;

        let mut constant_buffers = Vec::with_capacity(cb_count as usize);
        for i in 0..cb_count {
            let rel = cb_offset as usize + 24 * i as usize;
            let mut c = Reader::with_base(data, base as u64, Endian::Little);
            c.seek(rel, "RDEF constant buffer")?;
            let at = c.original_position() as usize;
            let name_off = c.u32("RDEF constant buffer")?;
            let var_count_at = c.original_position();
            let var_count = c.u32("RDEF constant buffer")?;
            let var_offset = c.u32("RDEF constant buffer")?;
            let size = c.u32("RDEF constant buffer")?;
            let cflags = c.u32("RDEF constant buffer")?;
            let kind = c.u32("RDEF constant buffer")?;
            let name = strings.cstr_at(name_off as usize, "RDEF constant buffer name")?;
            table(var_count, var_offset, var_size, "RDEF variable table", var_count_at)?;
            let mut variables = Vec::with_capacity(var_count as usize);
            for v in 0..var_count {
                ctx.spend(var_count_at)?;
                let rel = var_offset as usize + var_size as usize * v as usize;
                let mut vr = Reader::with_base(data, base as u64, Endian::Little);
                vr.seek(rel, "RDEF variable")?;
                let vat = vr.original_position() as usize;
                let vname = vr.u32("RDEF variable")?;
                let start = vr.u32("RDEF variable")?;
                let vsize = vr.u32("RDEF variable")?;
                let vflags = vr.u32("RDEF variable")?;
                let type_at = vr.original_position();
                let type_off = vr.u32("RDEF variable")?;
                let default_at = vr.original_position();
                let default_offset = vr.u32("RDEF variable")?;
                let texture_sampler = if sm5 {
                    Some([
                        vr.u32("RDEF variable")?,
                        vr.u32("RDEF variable")?,
                        vr.u32("RDEF variable")?,
                        vr.u32("RDEF variable")?,
                    ])
                } else {
                    None
                };
                let default = if default_offset != 0 {
                    let range = crate::toolkit::checked_range(
                        data.len(),
                        u64::from(default_offset),
                        u64::from(vsize),
                        base as u64,
                        "RDEF default value",
                        default_at,
                    )?;
                    data.get(range)
                } else {
                    None
                };
                let ty = ctx.type_at(type_off, type_at, 0)?;
                variables.push(Variable {
                    offset: vat,
                    name: strings.cstr_at(vname as usize, "RDEF variable name")?,
                    start,
                    size: vsize,
                    flags: vflags,
                    ty,
                    default_offset,
                    default,
                    texture_sampler,
                });
            }
            constant_buffers.push(ConstantBuffer { offset: at, name, variables, size, flags: cflags, kind });
        }

        let mut bindings = Vec::with_capacity(bind_count as usize);
        for i in 0..bind_count {
            let rel = binding_offset as usize + bind_size as usize * i as usize;
            let mut b = Reader::with_base(data, base as u64, Endian::Little);
            b.seek(rel, "RDEF binding")?;
            let at = b.original_position() as usize;
            let name_off = b.u32("RDEF binding")?;
            let mut w = [0u32; 7];
            for x in w.iter_mut() {
                *x = b.u32("RDEF binding")?;
            }
            let space_id =
                if bind_size == 40 { Some([b.u32("RDEF binding")?, b.u32("RDEF binding")?]) } else { None };
            let [input_type, return_type, dimension, samples, bind_point, bind_count, bflags] = w;
            bindings.push(Binding {
                offset: at,
                name: strings.cstr_at(name_off as usize, "RDEF binding name")?,
                input_type,
                return_type,
                dimension,
                samples,
                bind_point,
                bind_count,
                flags: bflags,
                space_id,
            });
        }
        Ok(Rdef {
            offset: base,
            cb_offset,
            binding_offset,
            minor,
            major,
            program_type,
            flags,
            creator,
            creator_offset,
            rd11,
            constant_buffers,
            bindings,
            types,
            size: data.len(),
        })
    }

    /// How many declarations (variables and struct members, each use of a struct type
    /// spelling out its members again, as fxc does) the listing and JSON write for this
    /// RDEF: one per 8 bytes of the chunk, at least 16 384. Types
    /// that share member tables or nest could otherwise expand exponentially.
    pub fn expansion_budget(&self) -> usize {
        (self.size / BYTES_PER_DECLARATION).max(1 << 14)
    }

    /// The type at `index` of [`Rdef::types`].
    pub fn ty(&self, index: usize) -> Option<&Type<'a>> {
        self.types.get(index)
    }

    /// The binding that a constant buffer named `name` is bound through, if any.
    pub fn binding_named(&self, name: &[u8], input_types: &[u32]) -> Option<&Binding<'a>> {
        self.bindings.iter().find(|b| b.name.bytes == name && input_types.contains(&b.input_type))
    }
}

impl<'a> Ctx<'a, '_> {
    /// A reader over the whole chunk, for the strings the tables point at.
    fn strings(&self) -> Reader<'a> {
        Reader::with_base(self.data, self.base as u64, Endian::Little)
    }

    fn spend(&mut self, at: u64) -> Result<()> {
        match self.budget.checked_sub(1) {
            Some(b) => {
                self.budget = b;
                Ok(())
            }
            None => Err(Error::invalid(
                at,
                "RDEF",
                format!(
                    "tables refer to each other more often than once per {BYTES_PER_RECORD} bytes of the chunk"
                ),
            )),
        }
    }

    fn type_at(&mut self, rel: u32, field_at: u64, depth: usize) -> Result<usize> {
        if let Some(i) = self.by_offset.get(rel) {
            return Ok(i);
        }
        self.spend(field_at)?;
        if depth > MAX_DEPTH {
            return Err(Error::invalid(field_at, "RDEF type", format!("types nest deeper than {MAX_DEPTH}")));
        }
        let mut r = Reader::with_base(self.data, self.base as u64, Endian::Little);
        r.seek(rel as usize, "RDEF type").map_err(|_| {
            Error::out_of_bounds(
                field_at,
                "RDEF type",
                (self.base as u64).saturating_add(u64::from(rel)),
                16,
                (self.base + self.data.len()) as u64,
            )
        })?;
        let at = r.original_position() as usize;
        let class = r.u16("RDEF type")?;
        let ty = r.u16("RDEF type")?;
        let rows = r.u16("RDEF type")?;
        let columns = r.u16("RDEF type")?;
        let elements = r.u16("RDEF type")?;
        let member_count_at = r.original_position();
        let member_count = r.u16("RDEF type")?;
        let member_offset = r.u32("RDEF type")?;
        let (extra, name) = if self.sm5 {
            let e = [r.u32("RDEF type")?, r.u32("RDEF type")?, r.u32("RDEF type")?, r.u32("RDEF type")?];
            let n = r.u32("RDEF type")?;
            let name =
                if n == 0 { None } else { Some(self.strings().cstr_at(n as usize, "RDEF type name")?) };
            (Some(e), name)
        } else {
            (None, None)
        };
        let need = u64::from(member_count) * 12;
        if member_count != 0 && u64::from(member_offset) + need > self.data.len() as u64 {
            return Err(Error::invalid(
                member_count_at,
                "RDEF type",
                format!(
                    "{} from 0x{:x} do not fit in the chunk (it ends at 0x{:x})",
                    crate::print::count(member_count, "member"),
                    self.base as u64 + u64::from(member_offset),
                    self.base + self.data.len()
                ),
            ));
        }
        // Reserve the slot before the members so that a type that contains itself stops here.
        let index = self.types.len();
        let key = (if member_count == 0 { 0 } else { member_offset }, member_count);
        self.types.push(Type {
            offset: at,
            class,
            ty,
            rows,
            columns,
            elements,
            members: Arc::from([]),
            extra,
            name,
        });
        self.by_offset.insert(rel, index);
        // A table read for another type cannot contain this one: its member types were all
        // read before this type's offset was.
        self.open.push(index);
        let members = match self.tables.get(&key) {
            Some(table) => Arc::clone(table),
            None => {
                let table: Arc<[Member<'a>]> =
                    self.members(index, at, member_offset, member_count, field_at, depth)?.into();
                self.tables.insert(key, Arc::clone(&table));
                table
            }
        };
        self.open.pop();
        if let Some(t) = self.types.get_mut(index) {
            t.members = members;
        }
        Ok(index)
    }

    /// The `count` members at `offset` of the type `index` (at absolute offset `at`).
    fn members(
        &mut self,
        index: usize,
        at: usize,
        offset: u32,
        count: u16,
        field_at: u64,
        depth: usize,
    ) -> Result<Vec<Member<'a>>> {
        let mut members = Vec::with_capacity(usize::from(count));
        for m in 0..u32::from(count) {
            self.spend(field_at)?;
            let mut mr = Reader::with_base(self.data, self.base as u64, Endian::Little);
            mr.seek(offset as usize + 12 * m as usize, "RDEF struct member")?;
            let mat = mr.original_position() as usize;
            let name_off = mr.u32("RDEF struct member")?;
            let type_at = mr.original_position();
            let type_off = mr.u32("RDEF struct member")?;
            let start = mr.u32("RDEF struct member")?;
            let name = self.strings().cstr_at(name_off as usize, "RDEF struct member name")?;
            // A member whose type contains the struct it belongs to (A → A, A → B → A): no
            // size can be worked out for either, so the table is damaged.
            if let Some(to) = self.by_offset.get(type_off).filter(|i| self.open.contains(i)) {
                let why = if to == index {
                    "a struct contains itself".to_string()
                } else {
                    format!(
                        "{name} of the type at 0x{at:x} has the type at 0x{:x}, which contains it: \
                         the struct types form a cycle",
                        self.types.get(to).map_or(0, |t| t.offset)
                    )
                };
                return Err(Error::invalid(type_at, "RDEF struct member", why));
            }
            let mty = self.type_at(type_off, type_at, depth + 1)?;
            members.push(Member { offset: mat, name, ty: mty, start });
        }
        Ok(members)
    }
}
