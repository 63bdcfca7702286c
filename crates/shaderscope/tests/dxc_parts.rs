//! DXC's container parts, built here with the project's own writer (`write::Builder`,
//! `dxil::program_part`): a STAT that holds reflection (a DXIL program header and bitcode),
//! ILDN, HASH, VERS, PSV0 of each version, RDAT. Exact `info`, `disasm` and `dump` text, the
//! errors of damaged parts with their offsets, `validate`'s findings, and `sm4()`'s reasons.

use shaderscope::dump::Annotations;
use shaderscope::format::dxbc::{Dxbc, dxil, write::Builder};
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions};

/// Little-endian bytes, written in order.
#[derive(Default)]
struct Blob(Vec<u8>);

impl Blob {
    fn u8s(&mut self, v: &[u8]) -> &mut Self {
        self.0.extend(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend(v.to_le_bytes());
        self
    }
    fn u32s(&mut self, v: &[u32]) -> &mut Self {
        for w in v {
            self.0.extend(w.to_le_bytes());
        }
        self
    }
    fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.0)
    }
}

/// Eight bytes that start like LLVM bitcode.
const BITCODE: &[u8] = b"BC\xc0\xde\x35\x14\x00\x00";
/// Reflection "bitcode" (four bytes, padded to eight in the part).
const REFLECTION: &[u8] = b"BC\xc0\xde";

fn info(d: &Dxbc<'_>) -> String {
    d.info_text()
}

fn listing(d: &Dxbc<'_>) -> String {
    let mut t = TextBuf::default();
    d.disasm(&DisasmOptions::default(), &mut t).unwrap();
    t.into_string()
}

fn dump(d: &Dxbc<'_>) -> String {
    let mut a = Annotations::new();
    d.annotate(&mut a);
    let mut s = String::new();
    a.render(d.data(), &mut s).unwrap();
    s
}

/// The lines of `text` from the first that starts with `from` to the end.
fn from<'t>(text: &'t str, from: &str) -> &'t str {
    text.find(from).map_or("", |at| &text[at..])
}

/// ILDN for `name`: flags, length, the name, its NUL, padding to 4.
fn ildn(name: &str) -> Vec<u8> {
    let mut b = Blob::default();
    b.u16(0).u16(name.len() as u16).u8s(name.as_bytes()).u8s(&[0]);
    while b.0.len() % 4 != 0 {
        b.u8s(&[0]);
    }
    b.take()
}

/// HASH with flags 0 and the MD5 of `bitcode`, as DXC writes it.
fn hash(bitcode: &[u8]) -> Vec<u8> {
    use md5::Digest;
    let mut b = Blob::default();
    b.u32s(&[0]).u8s(&md5::Md5::digest(bitcode));
    b.take()
}

/// A vertex shader's PSV0 of version 1: one 16-byte CBV record, an input POSITION and an
/// output SV_Position (no name: a system value), and the table that says input x..w give
/// output x..w.
fn psv_v1() -> Vec<u8> {
    let mut b = Blob::default();
    b.u32s(&[36]);
    // VSInfo: output position present; the rest of the union; wave lanes.
    b.u8s(&[1; 1]).u8s(&[0; 15]).u32s(&[0, u32::MAX]);
    // stage 1 (vertex), no ViewID, 2 unused bytes, 1 input and 1 output element, 0 patch
    // constant, 1 input vector, output vectors 1, 0, 0, 0.
    b.u8s(&[1, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 0]);
    // One resource: CBV space 0, b2..b2.
    b.u32s(&[1, 16, 2, 0, 2, 2]);
    // Strings: "" and "POSITION", padded to 12.
    b.u32s(&[12]).u8s(b"\0POSITION\0\0\0");
    // Semantic indexes: one entry, 0.
    b.u32s(&[1, 0]);
    // Elements of 16 bytes: POSITION0 (1 row, 4 columns at 0,0, Arbitrary, Float32,
    // Linear), then SV_Position (Position, LinearNoperspective).
    b.u32s(&[16]);
    b.u32s(&[1, 0]).u8s(&[1, 0, 0x44, 0, 3, 2, 0, 0]);
    b.u32s(&[0, 0]).u8s(&[1, 0, 0x44, 3, 3, 4, 0, 0]);
    // Input to output, stream 0: a row per input component, one word each.
    b.u32s(&[1, 2, 4, 8]);
    b.take()
}

/// A compute shader's PSV0 of version 2, 3 or 4 (thread group 8×8×1): one 24-byte UAV
/// record; version 3 names the entry function, version 4 the group shared bytes.
fn psv_compute(version: u32) -> Vec<u8> {
    let size = [24u32, 36, 48, 52, 56][version as usize];
    let mut b = Blob::default();
    b.u32s(&[size]);
    b.u8s(&[0; 16]).u32s(&[32, 32]);
    b.u8s(&[5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    b.u32s(&[8, 8, 1]);
    if version >= 3 {
        b.u32s(&[0]);
    }
    if version >= 4 {
        b.u32s(&[256]);
    }
    // One resource: UAVTyped space 1, u0..unbounded, Texture2D, used by 64-bit atomics.
    b.u32s(&[1, 24, 6, 1, 0, u32::MAX, 2, 1]);
    b.u32s(&[8]).u8s(b"main\0\0\0\0");
    b.u32s(&[0]);
    b.take()
}

/// A container as DXC writes one for `vs_6_0` without `-Qstrip_reflect`: SFI0, PSV0, the
/// reflection in STAT, ILDN, HASH, VERS, DXIL.
fn vertex_container() -> Vec<u8> {
    let mut b = Builder::new();
    let mut vers = Blob::default();
    vers.u16(1).u16(8).u32s(&[0, 4458, 21]).u8s(b"c9660a8c\x001.8.2403.34\0\0\0\0");
    b.push(*b"SFI0", vec![0; 8])
        .push(*b"PSV0", psv_v1())
        .push(*b"STAT", dxil::program_part(0x0001_0060, 0x100, REFLECTION))
        .push(*b"ILDN", ildn("0123456789abcdef0123456789abcdef.pdb"))
        .push(*b"HASH", hash(BITCODE))
        .push(*b"VERS", vers.take())
        .push(*b"DXIL", dxil::program_part(0x0001_0060, 0x100, BITCODE));
    b.finish().unwrap()
}

#[test]
fn a_dxil_containers_stat_is_its_reflection() {
    let bytes = vertex_container();
    let d = Dxbc::parse(&bytes).unwrap();
    assert!(d.chunk_errors.is_empty(), "{:?}", d.chunk_errors);
    assert!(d.is_dxil() && !d.is_fxc() && d.stat.is_none());
    let r = d.reflection.as_ref().expect("STAT read as reflection");
    assert_eq!((r.model(), r.bitcode), ("vs_6_0".to_string(), REFLECTION));
    let part = d.part("reflection-bitcode").unwrap();
    assert_eq!((part.offset, &part.bytes[..]), (r.bitcode_position() as u64, REFLECTION));
    assert_eq!(d.validate(), vec![]);
    assert_eq!(info(&d), INFO);
    assert_eq!(listing(&d), LISTING);
    assert_eq!(from(&dump(&d), "         |                         | == chunk 1 PSV0"), DUMP);
}

/// A container of a DXIL program and a PSV0 part.
fn with_psv(program_version: u32, psv: Vec<u8>) -> Vec<u8> {
    let mut b = Builder::new();
    b.push(*b"PSV0", psv).push(*b"DXIL", dxil::program_part(program_version, 0x100, BITCODE));
    b.finish().unwrap()
}

/// The PSV0 lines of `info`.
fn psv_info(bytes: &[u8]) -> String {
    let d = Dxbc::parse(bytes).unwrap();
    assert!(d.chunk_errors.is_empty(), "{:?}", d.chunk_errors);
    let text = info(&d);
    from(&text, "pipeline state validation (").to_string()
}

#[test]
fn psv0_of_each_version_is_read_by_its_size() {
    // Version 0: the runtime info alone; the stage comes from the DXIL program.
    let mut v0 = Blob::default();
    v0.u32s(&[24]).u8s(&[1]).u8s(&[0; 15]).u32s(&[4, 64, 0]);
    assert_eq!(
        psv_info(&with_psv(0x0001_0060, v0.take())),
        "pipeline state validation (PSV0, data at 0x30): version 0 (runtime info of 24 bytes), vertex shader\n\
         \x20 output_position_present 1\n\
         \x20 wave size: 4 to 64\n\
         \x20 resources: 0\n"
    );
    assert_eq!(psv_info(&with_psv(0x0001_0060, psv_v1())), PSV_V1);
    assert_eq!(psv_info(&with_psv(0x0005_0060, psv_compute(2))), PSV_V2);
    assert_eq!(psv_info(&with_psv(0x0005_0060, psv_compute(3))), PSV_V3);
    assert_eq!(psv_info(&with_psv(0x0005_0060, psv_compute(4))), PSV_V4);
    // A runtime info larger than any DXC knows: version 4, the rest kept and shown.
    let mut big = psv_compute(4);
    big[0] = 60;
    big.splice(60..60, [0xAA; 4]);
    let d_bytes = with_psv(0x0005_0060, big);
    let d = Dxbc::parse(&d_bytes).unwrap();
    let p = d.psv.as_ref().unwrap();
    assert_eq!((p.version, p.info_size, p.info.group_shared_bytes), (4, 60, Some(256)));
    assert!(
        dump(&d).contains("  0x006c | aa aa aa aa             | runtime info past PSVRuntimeInfo4\n"),
        "{}",
        dump(&d)
    );
}

/// RDAT of a library: strings, index rows, one resource, one function (a compute entry
/// point), one subobject.
fn rdat() -> Vec<u8> {
    let mut b = Blob::default();
    b.u32s(&[0x10, 5, 28, 68, 88, 136, 196]);
    // StringBuffer: "", "main" (1), "\x01?main@@YAXXZ" (6), "cb" (20), "Config" (23), padded.
    b.u32s(&[1, 32]).u8s(b"\0main\0\x01?main@@YAXXZ\0cb\0Config\0\0\0");
    // IndexArrays: row 0 = [0] (resource 0), row 2 = [] (no function called).
    b.u32s(&[2, 12, 1, 0, 0]);
    // ResourceTable: CBuffer "cb", kind CBuffer, ID 0, space 0, b0..b0.
    b.u32s(&[3, 40, 1, 32, 2, 13, 0, 0, 0, 0, 20, 0]);
    // FunctionTable (records of 44 bytes): "\x01?main@@YAXXZ" (unmangled "main"), resources
    // row 0, dependencies row 2, compute, no payload, wave ops, compute only, cs_6_0.
    b.u32s(&[4, 52, 1, 44, 6, 1, 0, 2, 5, 0, 0, 0x4000, 0, 0x20, 0x0005_0060]);
    // SubobjectTable (records of 16 bytes): RaytracingPipelineConfig "Config", depth 1.
    b.u32s(&[6, 24, 1, 16, 10, 23, 1, 0]);
    b.take()
}

fn library_container() -> Vec<u8> {
    let mut b = Builder::new();
    b.push(*b"RDAT", rdat()).push(*b"DXIL", dxil::program_part(0x0006_0063, 0x103, BITCODE));
    b.finish().unwrap()
}

#[test]
fn rdat_lists_its_parts_resources_functions_and_subobjects() {
    let bytes = library_container();
    let d = Dxbc::parse(&bytes).unwrap();
    assert!(d.chunk_errors.is_empty(), "{:?}", d.chunk_errors);
    let r = d.rdat.as_ref().unwrap();
    assert_eq!((r.parts.len(), r.resources.len(), r.functions.len(), r.subobjects.len()), (5, 1, 1, 1));
    assert_eq!(
        (r.functions[0].name.bytes, r.functions[0].unmangled_name.text()),
        (&b"\x01?main@@YAXXZ"[..], "main".into())
    );
    assert_eq!(from(&info(&d), "runtime data"), RDAT_INFO);
    let dump = dump(&d);
    assert_eq!(from(&dump, "         |                         | == chunk 0 RDAT"), RDAT_DUMP);
}

/// The error `Dxbc::parse` keeps for the first chunk of a container of `tag` with `payload`
/// (and a DXIL program, so that a STAT is reflection).
fn chunk_error(tag: &[u8; 4], payload: Vec<u8>) -> String {
    let mut b = Builder::new();
    b.push(*tag, payload).push(*b"DXIL", dxil::program_part(0x0001_0060, 0x100, BITCODE));
    let bytes = b.finish().unwrap();
    let d = Dxbc::parse(&bytes).unwrap();
    assert_eq!(d.chunk_errors.len(), 1, "{:?}", d.chunk_errors);
    d.chunk_errors[0].1.to_string()
}

#[test]
fn damaged_parts_give_errors_with_offsets() {
    // The payload starts at 0x30 (header, two index entries, chunk header).
    let mut psv = psv_v1();
    psv[0] = 20;
    assert_eq!(
        chunk_error(b"PSV0", psv),
        "invalid PSV0 runtime info size at offset 0x30: 20 is smaller than PSVRuntimeInfo0 (24 bytes)"
    );
    let mut psv = psv_v1();
    // The string table size (after the runtime info and the resource record).
    psv[4 + 36 + 24] = 10;
    assert_eq!(
        chunk_error(b"PSV0", psv),
        "invalid PSV0 string table size at offset 0x70: 10 is not a multiple of 4"
    );
    // POSITION's name offset 40, in a 12-byte table at 0x74.
    let mut psv = psv_v1();
    psv[4 + 36 + 24 + 16 + 12] = 40;
    assert_eq!(
        chunk_error(b"PSV0", psv),
        "PSV0 semantic name at offset 0x8c points outside its range (0x9c + 0x1 is outside 0x80)"
    );
    // POSITION's semantic indexes from entry 3 of a 1-entry table.
    let mut psv = psv_v1();
    psv[4 + 36 + 24 + 16 + 12 + 4] = 3;
    assert_eq!(
        chunk_error(b"PSV0", psv),
        "invalid PSV0 signature element at offset 0x90: its 1 semantic indexes from entry 3 are outside the 1-entry semantic index table"
    );
    // Cut in the dependency table.
    let mut psv = psv_v1();
    psv.truncate(psv.len() - 4);
    assert_eq!(
        chunk_error(b"PSV0", psv),
        "truncated PSV0 dependency table at offset 0xac (need 16 bytes, have 12)"
    );

    let mut r = rdat();
    r[8..12].copy_from_slice(&400u32.to_le_bytes());
    assert_eq!(
        chunk_error(b"RDAT", r),
        "RDAT part at offset 0x38 points outside its range (0x1c0 is past the end 0x114)"
    );
    let mut r = rdat();
    // The resource table's stride.
    r[88 + 12..88 + 16].copy_from_slice(&16u32.to_le_bytes());
    assert_eq!(
        chunk_error(b"RDAT", r),
        "invalid RDAT table header at offset 0x94: the ResourceTable record stride 16 is smaller than RuntimeDataResourceInfo (32 bytes)"
    );
    let mut r = rdat();
    // The resource table's record count: 3 records of 32 bytes in a 40-byte part.
    r[88 + 8..88 + 12].copy_from_slice(&3u32.to_le_bytes());
    assert_eq!(
        chunk_error(b"RDAT", r),
        "RDAT table records at offset 0x90 points outside its range (0x98 + 0x60 is outside 0xb8)"
    );
    let mut r = rdat();
    // The resource's name: string 99 of a 32-byte buffer.
    r[88 + 16 + 24..88 + 16 + 28].copy_from_slice(&99u32.to_le_bytes());
    assert_eq!(
        chunk_error(b"RDAT", r),
        "RDAT string at offset 0xb0 points outside its range (0xb7 + 0x1 is outside 0x74)"
    );
    let mut r = rdat();
    // The function's resources: row 7 of a 3-word index part.
    r[136 + 16 + 8..136 + 16 + 12].copy_from_slice(&7u32.to_le_bytes());
    assert_eq!(
        chunk_error(b"RDAT", r),
        "invalid RDAT index row at offset 0xd0: row 7 is outside the 3-word index arrays"
    );

    let mut n = ildn("x.pdb");
    n[2] = 100;
    assert_eq!(chunk_error(b"ILDN", n), "truncated ILDN name at offset 0x34 (need 100 bytes, have 8)");
    assert_eq!(chunk_error(b"HASH", vec![0; 12]), "truncated HASH at offset 0x30 (need 20 bytes, have 12)");
    let mut stat = dxil::program_part(0x0001_0060, 0x100, REFLECTION);
    stat[8] = b'X';
    assert_eq!(
        chunk_error(b"STAT", stat),
        "bad DXIL bitcode header magic at offset 0x38: expected \"DXIL\", found \"XXIL\""
    );
}

#[test]
fn validate_checks_what_dxc_writes() {
    // ILDN four bytes longer than DXC writes, a HASH that is not the bitcode's MD5, a PSV0
    // of a pixel shader beside a vertex program.
    let mut name = ildn("x.pdb");
    name.extend([0; 4]);
    let mut psv = psv_v1();
    psv[4 + 24] = 0;
    let mut b = Builder::new();
    b.push(*b"ILDN", name)
        .push(*b"HASH", hash(b"other"))
        .push(*b"PSV0", psv)
        .push(*b"DXIL", dxil::program_part(0x0001_0060, 0x100, BITCODE));
    let bytes = b.finish().unwrap();
    let d = Dxbc::parse(&bytes).unwrap();
    let found: Vec<String> =
        d.validate().iter().map(|f| format!("{:?} 0x{:x} {}", f.severity, f.offset, f.message)).collect();
    assert_eq!(found, VALIDATE);
}

const VALIDATE: [&str; 3] = [
    "Error 0x3a ILDN is 16 bytes, not the 12 a name of 5 bytes takes (DXC's readers refuse it)",
    "Warning 0x54 HASH digest 795f3202b17cb6bc3d4b771d8c6c9eaf is not the MD5 of the DXIL bitcode, as DXC computes it",
    "Warning 0x88 PSV0 shader stage pixel is not the DXIL program's (vertex)",
];

#[test]
fn sm4_says_why_there_is_no_program() {
    let bytes = vertex_container();
    let d = Dxbc::parse(&bytes).unwrap();
    let at = d.chunk(b"DXIL").unwrap().offset;
    assert_eq!(
        d.sm4().unwrap_err().to_string(),
        format!("no SM4 program at offset 0x{at:x}: the program is DXIL (LLVM bitcode), not SM4 tokens")
    );
    let mut b = Builder::new();
    b.push(*b"STAT", dxil::program_part(0x0001_0060, 0x100, REFLECTION));
    let bytes = b.finish().unwrap();
    let d = Dxbc::parse(&bytes).unwrap();
    assert!(d.is_dxil());
    assert_eq!(
        d.sm4().unwrap_err().to_string(),
        "no SM4 program at offset 0x24: the container is DXC's reflection (STAT) without its DXIL program"
    );
    let mut b = Builder::new();
    b.push(*b"PRIV", vec![1, 2, 3, 4]);
    let bytes = b.finish().unwrap();
    assert_eq!(
        Dxbc::parse(&bytes).unwrap().sm4().unwrap_err().to_string(),
        "no SM4 program at offset 0x0: the container has no SHDR or SHEX chunk"
    );
}

/// A root signature 1.1 alone: a descriptor table of two ranges, root constants, a root
/// UAV, a static sampler.
fn root_signature() -> Vec<u8> {
    let mut b = Blob::default();
    // Header: version 2 (1.1), 3 parameters at 24, 1 static sampler at 140, flags 1.
    b.u32s(&[2, 3, 24, 1, 140, 1]);
    // Parameters (12 bytes each): table (pixel), constants (all), UAV (vertex).
    b.u32s(&[0, 5, 60, 1, 0, 68, 4, 1, 80]);
    // The table at 60: 2 ranges, at 92 (after the constants and the UAV).
    b.u32s(&[2, 92]);
    // Constants: b0, space 0, 4 values.
    b.u32s(&[0, 0, 4]);
    // UAV u1, space 2, flags 0x2.
    b.u32s(&[1, 2, 2]);
    // Ranges (1.1, 24 bytes): SRV t0..t3 space 0 flags 0x1 append; samplers s0.. unbounded.
    b.u32s(&[0, 4, 0, 0, 1, u32::MAX]);
    b.u32s(&[3, u32::MAX, 0, 1, 0, 8]);
    // Static sampler s3 space 0, pixel.
    b.u32s(&[0x15, 1, 2, 3]).u8s(&0.5f32.to_le_bytes()).u32s(&[16, 4, 2]).u8s(&0f32.to_le_bytes());
    b.u8s(&f32::MAX.to_le_bytes()).u32s(&[3, 0, 5]);
    let mut c = Builder::new();
    c.push(*b"RTS0", b.take());
    c.finish().unwrap()
}

#[test]
fn a_root_signature_alone_lists_and_informs_alike() {
    let bytes = root_signature();
    let d = Dxbc::parse(&bytes).unwrap();
    assert!(d.chunk_errors.is_empty(), "{:?}", d.chunk_errors);
    assert!(d.is_root_signature_only() && !d.is_fxc());
    assert_eq!(listing(&d), RTS_LISTING);
    assert_eq!(from(&info(&d), "root signature at"), RTS_INFO);
    // info's lines are the listing's, with two spaces for the comment marker.
    let lines: Vec<String> =
        RTS_LISTING.lines().filter_map(|l| l.strip_prefix("//   ")).map(|l| format!("  {l}")).collect();
    let info_lines: Vec<&str> = RTS_INFO.lines().skip(1).collect();
    assert_eq!(info_lines, lines);
    assert_eq!(
        d.sm4().unwrap_err().to_string(),
        "no SM4 program at offset 0x24: the container holds a root signature (RTS0) alone"
    );
}

const INFO: &str = "\
format:    DXBC container
size:      428 bytes (declared 428)
checksum:  ok (a82d98c369bd32d7a7627388dead05a9)
3dmigoto:  46251db80672c8c1
bytecode:  none (no program or signature chunk: 3Dmigoto names it by the 3dmigoto hash)
program:   DXIL vs_6_0 (vertex shader) in DXIL: program header at 0x18c, 8 dwords
           DXIL version 1.0, bitcode header at 0x194; bitcode at 0x1a4 (header + 16), 8 bytes (part `bitcode`)
reflection: DXIL vs_6_0 (vertex shader) in STAT: program header at 0xe8, 7 dwords
            DXIL version 1.0, bitcode header at 0xf0; bitcode at 0x100 (header + 16), 4 bytes (part `reflection-bitcode`)
debug name: 0123456789abcdef0123456789abcdef.pdb (ILDN at 0x10c)
shader hash: 67775bd42c53e63b7f25b7de383f3c57 (HASH at 0x140; the MD5 of the DXIL bitcode)
compiler:  dxc 1.8.2403.34 (version 1.8, commit c9660a8c, 4458 commits; VERS at 0x15c)
features:  0x0 at 0x44: none
chunks:    7 chunks
   0  SFI0   header 0x00003c  data 0x000044  size       8  required features
   1  PSV0   header 0x00004c  data 0x000054  size     140  pipeline state validation
   2  STAT   header 0x0000e0  data 0x0000e8  size      28  reflection (DXIL program header and LLVM bitcode)
   3  ILDN   header 0x000104  data 0x00010c  size      44  debug name
   4  HASH   header 0x000138  data 0x000140  size      20  shader hash
   5  VERS   header 0x000154  data 0x00015c  size      40  compiler version
   6  DXIL   header 0x000184  data 0x00018c  size      32  DXIL program
pipeline state validation (PSV0, data at 0x54): version 1 (runtime info of 36 bytes), vertex shader
  output_position_present 1
  wave size: any
  signature: 1 input (1 vector), 1 output (1 vector), 0 patch constant
  ViewID not used
  resources: 1 (records of 16 bytes)
    CBV space 0, registers 2-2
  string table: 12 bytes; semantic index table: 0
  signature elements: 2 (records of 16 bytes)
    input  POSITION 0: 1x4 at row 0 col 0, Float32, Arbitrary, Linear
    output (no name) 0: 1x4 at row 0 col 0, Float32, Position, LinearNoperspective
  outputs each input affects (stream 0):
    0.x: 0.x
    0.y: 0.y
    0.z: 0.z
    0.w: 0.w
";
const LISTING: &str = "\
//
// DXIL container (dxc): vs_6_0, DXIL 1.0
//
// DXIL program of 32 bytes (DXIL is not disassembled; `extract` gives the chunk)
";
const DUMP: &str = "\
\x20        |                         | == chunk 1 PSV0 (pipeline state validation) (0x4c..0xe0)
  0x004c | 50 53 56 30             | FourCC \"PSV0\"
  0x0050 | 8c 00 00 00             | size: 140
  0x0054 | 24 00 00 00             | runtime info size: 36 (version 1)
  0x0058 | 01                      | output_position_present: 1
  0x0059 | 00 00 00 00 00 00 00 00 | stage info: bytes this stage does not use
  0x0061 | 00 00 00 00 00 00 00    |
  0x0068 | 00 00 00 00             | minimum expected wave lane count: 0
  0x006c | ff ff ff ff             | maximum expected wave lane count: 4294967295
  0x0070 | 01                      | shader stage: 1 (vertex)
  0x0071 | 00                      | uses ViewID: 0
  0x0072 | 00 00                   | stage bytes: not used by this stage
  0x0074 | 01                      | input elements: 1
  0x0075 | 01                      | output elements: 1
  0x0076 | 00                      | patch constant or primitive elements: 0
  0x0077 | 01                      | input vectors: 1
  0x0078 | 01 00 00 00             | output vectors per stream: 1, 0, 0, 0
  0x007c | 01 00 00 00             | resource count: 1
  0x0080 | 10 00 00 00             | resource record size: 16
  0x0084 | 02 00 00 00 00 00 00 00 | resource CBV space 0, registers 2 to 2
  0x008c | 02 00 00 00 02 00 00 00 |
  0x0094 | 0c 00 00 00             | string table size: 12
  0x0098 | 00                      | string \"\"
  0x0099 | 50 4f 53 49 54 49 4f 4e | string \"POSITION\"
  0x00a1 | 00                      |
  0x00a2 | 00 00                   | padding
  0x00a4 | 01 00 00 00             | semantic index count: 1
  0x00a8 | 00 00 00 00             | semantic indexes: 0
  0x00ac | 10 00 00 00             | signature element size: 16
  0x00b0 | 01 00 00 00 00 00 00 00 | input element \"POSITION\", 1 row from semantic index entry 0, 4 columns, Float32, Arbitrary
  0x00b8 | 01 00 44 00 03 02 00 00 |
  0x00c0 | 00 00 00 00 00 00 00 00 | output element \"\", 1 row from semantic index entry 0, 4 columns, Float32, Position
  0x00c8 | 01 00 44 03 03 04 00 00 |
  0x00d0 | 01 00 00 00             | outputs each input affects (stream 0): 0.x -> 0.x
  0x00d4 | 02 00 00 00             | outputs each input affects (stream 0): 0.y -> 0.y
  0x00d8 | 04 00 00 00             | outputs each input affects (stream 0): 0.z -> 0.z
  0x00dc | 08 00 00 00             | outputs each input affects (stream 0): 0.w -> 0.w
         |                         | == chunk 2 STAT (reflection (DXIL program header and LLVM bitcode)) (0xe0..0x104)
  0x00e0 | 53 54 41 54             | FourCC \"STAT\"
  0x00e4 | 1c 00 00 00             | size: 28
  0x00e8 | 60 00 01 00             | program version 0x00010060 (vs_6_0)
  0x00ec | 07 00 00 00             | size: 7 dwords
  0x00f0 | 44 58 49 4c             | bitcode header magic \"DXIL\"
  0x00f4 | 00 01 00 00             | DXIL version 1.0
  0x00f8 | 10 00 00 00             | bitcode offset: 16 (from the magic)
  0x00fc | 04 00 00 00             | bitcode size: 4
  0x0100 | 42 43 c0 de             | LLVM bitcode, 4 bytes (part `reflection-bitcode`)
         |                         | == chunk 3 ILDN (debug name) (0x104..0x138)
  0x0104 | 49 4c 44 4e             | FourCC \"ILDN\"
  0x0108 | 2c 00 00 00             | size: 44
  0x010c | 00 00                   | flags: 0x0
  0x010e | 24 00                   | name length: 36
  0x0110 | 30 31 32 33 34 35 36 37 | debug name \"0123456789abcdef0123456789abcdef.pdb\"
  0x0118 | 38 39 61 62 63 64 65 66 |
  0x0120 | 30 31 32 33 34 35 36 37 |
  0x0128 | 38 39 61 62 63 64 65 66 |
  0x0130 | 2e 70 64 62             |
  0x0134 | 00 00 00 00             | NUL and padding
         |                         | == chunk 4 HASH (shader hash) (0x138..0x154)
  0x0138 | 48 41 53 48             | FourCC \"HASH\"
  0x013c | 14 00 00 00             | size: 20
  0x0140 | 00 00 00 00             | flags: 0x0
  0x0144 | 67 77 5b d4 2c 53 e6 3b | digest 67775bd42c53e63b7f25b7de383f3c57 (the MD5 of the DXIL bitcode)
  0x014c | 7f 25 b7 de 38 3f 3c 57 |
         |                         | == chunk 5 VERS (compiler version) (0x154..0x184)
  0x0154 | 56 45 52 53             | FourCC \"VERS\"
  0x0158 | 28 00 00 00             | size: 40
  0x015c | 01 00 08 00             | version 1.8
  0x0160 | 00 00 00 00             | flags: 0x0
  0x0164 | 6a 11 00 00             | commit count: 4458
  0x0168 | 15 00 00 00             | string list size: 21
  0x016c | 63 39 36 36 30 61 38 63 | commit \"c9660a8c\"
  0x0174 | 00                      |
  0x0175 | 31 2e 38 2e 32 34 30 33 | version string \"1.8.2403.34\"
  0x017d | 2e 33 34 00             |
  0x0181 | 00 00 00                | padding
         |                         | == chunk 6 DXIL (DXIL program) (0x184..0x1ac)
  0x0184 | 44 58 49 4c             | FourCC \"DXIL\"
  0x0188 | 20 00 00 00             | size: 32
  0x018c | 60 00 01 00             | program version 0x00010060 (vs_6_0)
  0x0190 | 08 00 00 00             | size: 8 dwords
  0x0194 | 44 58 49 4c             | bitcode header magic \"DXIL\"
  0x0198 | 00 01 00 00             | DXIL version 1.0
  0x019c | 10 00 00 00             | bitcode offset: 16 (from the magic)
  0x01a0 | 08 00 00 00             | bitcode size: 8
  0x01a4 | 42 43 c0 de 35 14 00 00 | LLVM bitcode, 8 bytes (part `bitcode`)
";
const PSV_V2: &str = "\
pipeline state validation (PSV0, data at 0x30): version 2 (runtime info of 48 bytes), compute shader
  wave size: 32
  signature: 0 input (0 vectors), 0 output (0 vectors), 0 patch constant
  ViewID not used
  thread group: 8, 8, 1
  resources: 1 (records of 24 bytes)
    UAVTyped space 1, registers 0-unbounded: Texture2D, flags 0x1
  string table: 8 bytes; semantic index table: empty
";
const PSV_V3: &str = "\
pipeline state validation (PSV0, data at 0x30): version 3 (runtime info of 52 bytes), compute shader
  wave size: 32
  signature: 0 input (0 vectors), 0 output (0 vectors), 0 patch constant
  ViewID not used
  thread group: 8, 8, 1
  entry function: main
  resources: 1 (records of 24 bytes)
    UAVTyped space 1, registers 0-unbounded: Texture2D, flags 0x1
  string table: 8 bytes; semantic index table: empty
";
const PSV_V4: &str = "\
pipeline state validation (PSV0, data at 0x30): version 4 (runtime info of 56 bytes), compute shader
  wave size: 32
  signature: 0 input (0 vectors), 0 output (0 vectors), 0 patch constant
  ViewID not used
  thread group: 8, 8, 1
  entry function: main
  group shared memory: 256 bytes
  resources: 1 (records of 24 bytes)
    UAVTyped space 1, registers 0-unbounded: Texture2D, flags 0x1
  string table: 8 bytes; semantic index table: empty
";
const RDAT_INFO: &str = "\
runtime data
   1  DXIL   header 0x000114  data 0x00011c  size      32  DXIL program
runtime data (RDAT, data at 0x30): version 0x10, 5 parts
  StringBuffer at 0x4c: 32 bytes
  IndexArrays at 0x74: 12 bytes
  ResourceTable at 0x88: 40 bytes, 1 record of 32 bytes
  FunctionTable at 0xb8: 52 bytes, 1 record of 44 bytes
  SubobjectTable at 0xf4: 24 bytes, 1 record of 16 bytes
  resource cb: CBuffer CBuffer, ID 0, space 0, registers 0-0
  function \\x01?main@@YAXXZ (main): compute, shader model 6.0; 1 resource, 0 called functions, features 0x4000, stages 0x20
  subobject Config: RaytracingPipelineConfig
";
const RDAT_DUMP: &str = "\
\x20        |                         | == chunk 0 RDAT (runtime data) (0x28..0x114)
  0x0028 | 52 44 41 54             | FourCC \"RDAT\"
  0x002c | e4 00 00 00             | size: 228
  0x0030 | 10 00 00 00             | version 0x10
  0x0034 | 05 00 00 00             | part count: 5
  0x0038 | 1c 00 00 00             | part 0 (StringBuffer) at +0x1c
  0x003c | 44 00 00 00             | part 1 (IndexArrays) at +0x44
  0x0040 | 58 00 00 00             | part 2 (ResourceTable) at +0x58
  0x0044 | 88 00 00 00             | part 3 (FunctionTable) at +0x88
  0x0048 | c4 00 00 00             | part 4 (SubobjectTable) at +0xc4
  0x004c | 01 00 00 00             | part type: 1 (StringBuffer)
  0x0050 | 20 00 00 00             | part size: 32
  0x0054 | 00                      | string 0: \"\"
  0x0055 | 6d 61 69 6e 00          | string 1: \"main\"
  0x005a | 01 3f 6d 61 69 6e 40 40 | string 6: \"\\x01?main@@YAXXZ\"
  0x0062 | 59 41 58 58 5a 00       |
  0x0068 | 63 62 00                | string 20: \"cb\"
  0x006b | 43 6f 6e 66 69 67 00    | string 23: \"Config\"
  0x0072 | 00 00                   | padding
  0x0074 | 02 00 00 00             | part type: 2 (IndexArrays)
  0x0078 | 0c 00 00 00             | part size: 12
  0x007c | 01 00 00 00 00 00 00 00 | index row 0: 1 value: 0
  0x0084 | 00 00 00 00             | index row 2: 0 values
  0x0088 | 03 00 00 00             | part type: 3 (ResourceTable)
  0x008c | 28 00 00 00             | part size: 40
  0x0090 | 01 00 00 00             | record count: 1
  0x0094 | 20 00 00 00             | record stride: 32
  0x0098 | 02 00 00 00 0d 00 00 00 | resource \"cb\": CBuffer CBuffer, ID 0, space 0, registers 0 to 0, flags 0x0
  0x00a0 | 00 00 00 00 00 00 00 00 |
  0x00a8 | 00 00 00 00 00 00 00 00 |
  0x00b0 | 14 00 00 00 00 00 00 00 |
  0x00b8 | 04 00 00 00             | part type: 4 (FunctionTable)
  0x00bc | 34 00 00 00             | part size: 52
  0x00c0 | 01 00 00 00             | record count: 1
  0x00c4 | 2c 00 00 00             | record stride: 44
  0x00c8 | 06 00 00 00 01 00 00 00 | function \"\\x01?main@@YAXXZ\": compute, shader model 6.0
  0x00d0 | 00 00 00 00 02 00 00 00 |
  0x00d8 | 05 00 00 00 00 00 00 00 |
  0x00e0 | 00 00 00 00 00 40 00 00 |
  0x00e8 | 00 00 00 00 20 00 00 00 |
  0x00f0 | 60 00 05 00             |
  0x00f4 | 06 00 00 00             | part type: 6 (SubobjectTable)
  0x00f8 | 18 00 00 00             | part size: 24
  0x00fc | 01 00 00 00             | record count: 1
  0x0100 | 10 00 00 00             | record stride: 16
  0x0104 | 0a 00 00 00 17 00 00 00 | subobject \"Config\": RaytracingPipelineConfig
  0x010c | 01 00 00 00 00 00 00 00 |
         |                         | == chunk 1 DXIL (DXIL program) (0x114..0x13c)
  0x0114 | 44 58 49 4c             | FourCC \"DXIL\"
  0x0118 | 20 00 00 00             | size: 32
  0x011c | 63 00 06 00             | program version 0x00060063 (lib_6_3)
  0x0120 | 08 00 00 00             | size: 8 dwords
  0x0124 | 44 58 49 4c             | bitcode header magic \"DXIL\"
  0x0128 | 03 01 00 00             | DXIL version 1.3
  0x012c | 10 00 00 00             | bitcode offset: 16 (from the magic)
  0x0130 | 08 00 00 00             | bitcode size: 8
  0x0134 | 42 43 c0 de 35 14 00 00 | LLVM bitcode, 8 bytes (part `bitcode`)
";
const RTS_INFO: &str = "\
root signature at 0x2c: version 1.1, flags 0x1, 3 parameters, 1 static sampler
  RootFlags(0x1)
  DescriptorTable(SRV(t0, numDescriptors=4, space=0, flags=0x1), Sampler(s0, numDescriptors=unbounded, space=1, offset=8, flags=0x0), visibility=SHADER_VISIBILITY_PIXEL)
  RootConstants(num32BitConstants=4, b0, space=0)
  UAV(u1, space=2, flags=0x2, visibility=SHADER_VISIBILITY_VERTEX)
  StaticSampler(s3, space=0, filter=0x15, addressU=1, addressV=2, addressW=3, mipLODBias=0.5, maxAnisotropy=16, comparisonFunc=4, borderColor=2, minLOD=0.0, maxLOD=3.4028235e38, visibility=SHADER_VISIBILITY_PIXEL)
";
const PSV_V1: &str = "\
pipeline state validation (PSV0, data at 0x30): version 1 (runtime info of 36 bytes), vertex shader
  output_position_present 1
  wave size: any
  signature: 1 input (1 vector), 1 output (1 vector), 0 patch constant
  ViewID not used
  resources: 1 (records of 16 bytes)
    CBV space 0, registers 2-2
  string table: 12 bytes; semantic index table: 0
  signature elements: 2 (records of 16 bytes)
    input  POSITION 0: 1x4 at row 0 col 0, Float32, Arbitrary, Linear
    output (no name) 0: 1x4 at row 0 col 0, Float32, Position, LinearNoperspective
  outputs each input affects (stream 0):
    0.x: 0.x
    0.y: 0.y
    0.z: 0.z
    0.w: 0.w
";
const RTS_LISTING: &str = "\
//
// Root signature container (RTS0 alone, no program)
//
// Root signature 1.1:
//   RootFlags(0x1)
//   DescriptorTable(SRV(t0, numDescriptors=4, space=0, flags=0x1), Sampler(s0, numDescriptors=unbounded, space=1, offset=8, flags=0x0), visibility=SHADER_VISIBILITY_PIXEL)
//   RootConstants(num32BitConstants=4, b0, space=0)
//   UAV(u1, space=2, flags=0x2, visibility=SHADER_VISIBILITY_VERTEX)
//   StaticSampler(s3, space=0, filter=0x15, addressU=1, addressV=2, addressW=3, mipLODBias=0.5, maxAnisotropy=16, comparisonFunc=4, borderColor=2, minLOD=0.0, maxLOD=3.4028235e38, visibility=SHADER_VISIBILITY_PIXEL)
";
