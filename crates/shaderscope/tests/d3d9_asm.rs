//! The Direct3D 9 assembler against the corpus: every D3D9 program (the standalone d3dbc files
//! and the program in each DXBC `Aon9` chunk) printed by the library and assembled back, fxc's
//! own listings assembled, and the whole `Aon9` chunk rebuilt from a DXBC listing.
//!
//! A program that does not come back byte for byte must differ only in what the listing does
//! not print, each reason named: a `DBUG` comment (debug information), the constant table's
//! compile flags, or its constants' reserved half-words (fxc writes `4 × register + 2` there for
//! constants bound with `register(…)`). Anything else fails the test.

mod common;

use shaderscope::Container;
use shaderscope::asm::LineError;
use shaderscope::dxbc::Dxbc;
use shaderscope::dxbc::assemble::{self, Listing, aon9};
use shaderscope::isa::d3d9::{self, Item, ListingOptions, Program, asm};
use shaderscope::print::TextBuf;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A D3D9 program of the corpus.
struct Case {
    path: String,
    /// The program's bytes.
    bytes: Vec<u8>,
    /// A standalone file (printed with its header), not a DXBC's Aon9 program.
    standalone: bool,
    /// fxc's own listing beside the binary, if any.
    fxc: Option<PathBuf>,
    /// The whole DXBC file, for an Aon9 program.
    dxbc: Option<Vec<u8>>,
}

fn cases(corpus: &Path) -> Vec<Case> {
    let mut v = Vec::new();
    for r in common::manifest(corpus, "dxbc") {
        if r.kind != "d3dbc-binary" && r.kind != "dxbc-binary" {
            continue;
        }
        let file = corpus.join("dxbc").join(&r.path);
        let fxc = r
            .notes
            .split(';')
            .find_map(|n| n.trim().strip_prefix("paired_asm="))
            .and_then(|name| Some(file.parent()?.join(name)))
            .filter(|p| p.is_file());
        let data = std::fs::read(&file).unwrap();
        if r.kind == "d3dbc-binary" {
            v.push(Case { path: r.path, bytes: data, standalone: true, fxc, dxbc: None });
            continue;
        }
        let Some(program) = Dxbc::parse(&data).ok().and_then(|d| d.aon9.map(|a| a.program.to_vec())) else {
            continue;
        };
        v.push(Case { path: r.path, bytes: program, standalone: false, fxc, dxbc: Some(data) });
    }
    v
}

/// The listing the library prints for a program.
fn print(bytes: &[u8], header: bool) -> String {
    let p = Program::parse(bytes, 0).unwrap();
    let mut out = TextBuf::default();
    d3d9::write_listing(&p, &ListingOptions { header, ..Default::default() }, &mut out).unwrap();
    out.into_string()
}

/// The program without its comment blocks.
fn without_comments(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut p = Program::parse(bytes, 0).ok()?;
    p.items.retain(|i| !matches!(i, Item::Comment { .. }));
    p.write().ok()
}

/// The comment blocks of a program by FourCC.
fn comments(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let Ok(p) = Program::parse(bytes, 0) else { return BTreeMap::new() };
    p.comments()
        .map(|(_, d)| (String::from_utf8_lossy(d.get(..4).unwrap_or(d)).into_owned(), d.to_vec()))
        .collect()
}

/// How an assembled program compares with the original.
enum Outcome {
    Identical,
    /// Identical but for comments, each difference named by what the text does not carry.
    Comments(Vec<String>),
    /// Anything else.
    Differs(String),
}

/// Compare: the same bytes, or the same instructions and comments that differ only as the
/// module docs of `asm` say they may.
fn compare(got: &[u8], want: &[u8]) -> Outcome {
    if got == want {
        return Outcome::Identical;
    }
    if without_comments(got) != without_comments(want) {
        let n = got.iter().zip(want).take_while(|(a, b)| a == b).count();
        return Outcome::Differs(format!("instructions differ from byte {n:#x}"));
    }
    let (ours, theirs) = (comments(got), comments(want));
    let mut why = Vec::new();
    for (tag, data) in &theirs {
        match (tag.as_str(), ours.get(tag)) {
            ("DBUG", None) => why.push("DBUG (debug information) is not in the text".to_string()),
            ("CTAB", Some(ours)) => match ctab_difference(ours, data) {
                Ok(reasons) => why.extend(reasons),
                Err(e) => return Outcome::Differs(e),
            },
            (tag, _) => return Outcome::Differs(format!("comment {tag} not rebuilt as it was")),
        }
    }
    if let Some(tag) = ours.keys().find(|t| !theirs.contains_key(*t)) {
        return Outcome::Differs(format!("comment {tag} written but not in the original"));
    }
    Outcome::Comments(why)
}

/// Why our CTAB differs from fxc's: its flags word and the reserved half-words. Those set to
/// ours, the bytes must be the same.
fn ctab_difference(ours: &[u8], theirs: &[u8]) -> Result<Vec<String>, String> {
    let word = |b: &[u8], at: usize| b.get(at..at + 4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    // After the FourCC: flags at 20, the constant count at 12 and records from the offset at 16.
    let mut patched = theirs.to_vec();
    let mut why = Vec::new();
    if word(theirs, 4 + 20) != word(ours, 4 + 20) {
        why.push(format!("CTAB flags {:#x} (not printed)", word(theirs, 24).unwrap_or(0)));
        patched[24..28].copy_from_slice(&ours[24..28]);
    }
    let count = word(theirs, 4 + 12).unwrap_or(0) as usize;
    let records = word(theirs, 4 + 16).unwrap_or(0) as usize;
    let mut reserved = false;
    for k in 0..count {
        let at = 4 + records + 20 * k + 10;
        if let (Some(a), Some(b)) = (theirs.get(at..at + 2), ours.get(at..at + 2))
            && a != b
        {
            reserved = true;
            let ours = [b[0], b[1]];
            patched[at..at + 2].copy_from_slice(&ours);
        }
    }
    if reserved {
        why.push("CTAB reserved half-words (register(…) bindings, not printed)".to_string());
    }
    if patched == ours {
        Ok(why)
    } else {
        let n = patched.iter().zip(ours).take_while(|(a, b)| a == b).count();
        Err(format!(
            "CTAB differs at byte {n:#x} of the block ({} bytes theirs, {} ours)",
            theirs.len(),
            ours.len()
        ))
    }
}

/// Counts of a run, printed and checked.
#[derive(Default)]
struct Tally {
    total: usize,
    identical: usize,
    comments: usize,
    reasons: BTreeMap<String, usize>,
    bad: Vec<String>,
}

impl Tally {
    fn add(&mut self, path: &str, assembled: Result<Vec<u8>, LineError>, want: &[u8]) {
        self.total += 1;
        let got = match assembled {
            Ok(b) => b,
            Err(e) => {
                self.bad.push(format!("{path}: {e}"));
                return;
            }
        };
        match compare(&got, want) {
            Outcome::Identical => self.identical += 1,
            Outcome::Comments(why) => {
                self.comments += 1;
                for w in why {
                    *self.reasons.entry(w).or_default() += 1;
                }
            }
            Outcome::Differs(why) => self.bad.push(format!("{path}: {why}")),
        }
    }

    fn report(&self, what: &str) {
        println!(
            "{what}: {} programs, {} byte-identical, {} identical but for comments, {} differ",
            self.total,
            self.identical,
            self.comments,
            self.bad.len()
        );
        for (why, n) in &self.reasons {
            println!("  {n:4} {why}");
        }
        for b in &self.bad {
            println!("  DIFFERS {b}");
        }
    }
}

#[test]
fn printed_programs_assemble_to_their_bytes() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut standalone, mut level9) = (Tally::default(), Tally::default());
    for case in cases(&corpus) {
        let text = print(&case.bytes, case.standalone);
        let tally = if case.standalone { &mut standalone } else { &mut level9 };
        tally.add(&case.path, asm::parse_program(&text), &case.bytes);
    }
    standalone.report("d3dbc files");
    level9.report("Aon9 programs");
    for t in [&standalone, &level9] {
        assert!(t.total > 0, "no D3D9 program in the corpus");
        assert!(t.bad.is_empty(), "{} programs differ beyond what the text does not carry", t.bad.len());
        assert_eq!(t.identical + t.comments, t.total);
    }
    // An Aon9 program differs only when it carries debug information.
    assert_eq!(
        level9.comments,
        level9.reasons.get("DBUG (debug information) is not in the text").copied().unwrap_or(0)
    );
}

#[test]
fn fxc_listings_assemble_to_their_binaries() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut standalone, mut level9) = (Tally::default(), Tally::default());
    for case in cases(&corpus) {
        let Some(path) = &case.fxc else { continue };
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let tally = if case.standalone { &mut standalone } else { &mut level9 };
        tally.add(&case.path, asm::parse_program(&text), &case.bytes);
    }
    standalone.report("fxc .asm of d3dbc files");
    level9.report("fxc .asm Level9 sections");
    for t in [&standalone, &level9] {
        assert!(t.total > 0, "no fxc listing of a D3D9 program in the corpus");
        assert!(t.bad.is_empty(), "{} programs differ beyond what the text does not carry", t.bad.len());
    }
}

#[test]
fn constant_tables_write_back() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut total, mut same) = (0, 0);
    for case in cases(&corpus) {
        let Ok(p) = Program::parse(&case.bytes, 0) else { continue };
        let Some((offset, blob)) = p.comment_block(b"CTAB") else { continue };
        total += 1;
        let table = d3d9::ConstantTable::parse(blob, offset).unwrap();
        if table.write() == blob {
            same += 1;
        } else {
            println!("  {}: CTAB writes back differently", case.path);
        }
    }
    println!("CTAB blocks written back byte-identical: {same}/{total}");
    assert!(total > 0);
    assert_eq!(same, total);
}

#[test]
fn aon9_chunks_rebuild_from_the_dxbc_listing() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut ours, mut fxc) = (Aon9Tally::default(), Aon9Tally::default());
    for case in cases(&corpus) {
        let Some(data) = &case.dxbc else { continue };
        let d = Dxbc::parse(data).unwrap();
        let Some(chunk) = d.frame.chunks.iter().find(|c| &c.fourcc.0 == b"Aon9") else { continue };
        let mut out = TextBuf::default();
        shaderscope::dxbc::listing::write_listing(&d, &Default::default(), &mut out).unwrap();
        ours.add(&case, &out.into_string(), chunk.data);
        if let Some(path) = &case.fxc {
            fxc.add(&case, &String::from_utf8_lossy(&std::fs::read(path).unwrap()), chunk.data);
        }
    }
    for (what, t) in [("library listings", &ours), ("fxc listings", &fxc)] {
        println!(
            "Aon9 chunks from {what}: {}, byte-identical {}, differing only by the program's DBUG block {}",
            t.total, t.identical, t.debug
        );
        for b in &t.bad {
            println!("  DIFFERS {b}");
        }
        assert!(t.total > 0);
        assert!(t.bad.is_empty(), "{} Aon9 chunks differ", t.bad.len());
        assert_eq!(t.identical + t.debug, t.total);
    }
}

/// Counts of Aon9 chunks rebuilt from listings.
#[derive(Default)]
struct Aon9Tally {
    total: usize,
    identical: usize,
    debug: usize,
    bad: Vec<String>,
}

impl Aon9Tally {
    fn add(&mut self, case: &Case, text: &str, want: &[u8]) {
        self.total += 1;
        let got = match aon9::from_listing(&Listing::new(text)) {
            Ok(Some(got)) => got,
            Ok(None) => return self.bad.push(format!("{}: no Aon9 rebuilt", case.path)),
            Err(e) => return self.bad.push(format!("{}: {e}", case.path)),
        };
        if got == want {
            self.identical += 1;
        } else if comments(&case.bytes).contains_key("DBUG")
            && aon9_without_program(&got) == aon9_without_program(want)
        {
            self.debug += 1;
        } else {
            let n = got.iter().zip(want).take_while(|(a, b)| a == b).count();
            self.bad.push(format!("{}: differs from byte {n:#x}", case.path));
        }
    }
}

/// An Aon9 payload with its program's comments removed and the sizes that depend on them
/// zeroed: the mapping tables must still be the same.
fn aon9_without_program(payload: &[u8]) -> Vec<u8> {
    let word =
        |at: usize| payload.get(at..at + 4).map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
    let offset = word(12) as usize;
    let mut head = payload.get(..offset).unwrap_or(payload).to_vec();
    for at in [0, 8] {
        if let Some(w) = head.get_mut(at..at + 4) {
            w.fill(0);
        }
    }
    head.extend(without_comments(payload.get(offset..).unwrap_or(&[])).unwrap_or_default());
    head
}

#[test]
fn errors_name_the_line_column_and_what_was_expected() {
    let err = |text: &str| {
        let e = asm::parse_program(text).unwrap_err();
        (e.line, e.syntax.column, e.syntax.expected)
    };
    assert_eq!(err("    ps_2_0\n    texld r0, t0\n"), (2, 16, "`,`".to_string()));
    assert_eq!(
        err("    ps_3_0\n    if_xx r0.x, c0.x\n"),
        (2, 4, "a ps_3_0 instruction (`if_xx` is none this assembler knows)".to_string())
    );
    assert_eq!(
        err("    vs_3_0\n    mov o0, c0[r0.x]\n"),
        (2, 15, "an address register (`a0.x`, `aL`)".to_string())
    );
    assert_eq!(
        err("    vs_2_0\n    mov r0, !r1_abs\n"),
        (2, 12, "a source modifier fxc writes (`-r0_abs`, not `!r0_abs`)".to_string())
    );
    assert_eq!(
        err("    ps_3_0\n    (p0.x) def c0, 1, 2, 3, 4\n"),
        (2, 11, "an instruction (a declaration takes no predicate)".to_string())
    );
    assert_eq!(err("    vs_2_0\n    defi i0, 1, 2, 3, 4.5\n"), (2, 22, "an integer".to_string()));
    let header =
        "//\n// Parameters:\n//\n//   float5q x;\n//\n// Registers:\n//\n//   x c0 1\n//\n    vs_2_0\n";
    assert_eq!(err(header), (4, 5, "a type (`float4`, `row_major float4x4`, `sampler2D`)".to_string()));

    // The Aon9 tables of a DXBC listing.
    let listing = "//\n// Constant buffer to DX9 shader constant mappings:\n//\n\
                   // Target Reg Buffer  Start Reg # of Regs        Data Conversion\n\
                   // ---------- ------- --------- --------- ----------------------\n\
                   // c0         cb0             1         2  ( FLT, FLT, XYZ, FLT)\n//\n//\n\
                   // Level9 shader bytecode:\n//\n    vs_2_0\n    mov oPos, v0\n";
    let e = aon9::from_listing(&Listing::new(listing)).unwrap_err();
    assert_eq!((e.line, e.syntax.column), (6, 43));
    assert_eq!(e.syntax.expected, "four data conversions (`( FLT, FLT, INT,BOOL)`)");
    let e = aon9::from_listing(&Listing::new(&listing.replace("mov oPos, v0", "mov oPos,"))).unwrap_err();
    assert_eq!((e.line, e.syntax.column, e.syntax.expected.as_str()), (12, 13, "an operand"));
}

/// With the original at hand (`asm --like`), every corpus program comes back whole: the
/// comment blocks the text does not carry are the original's.
#[test]
fn with_the_original_every_program_comes_back_whole() {
    let Some(corpus) = common::corpus_dir() else { return };
    let (mut n, mut bad) = (0, Vec::new());
    for case in cases(&corpus) {
        n += 1;
        let like = Program::parse(&case.bytes, 0).unwrap();
        match asm::parse_program_like(&print(&case.bytes, true), &like) {
            Ok(bytes) if bytes == case.bytes => {}
            Ok(_) => bad.push(format!("{}: differs", case.path)),
            Err(e) => bad.push(format!("{}: {e}", case.path)),
        }
    }
    println!("{n} programs, {} differ with --like", bad.len());
    for b in bad.iter().take(20) {
        println!("FAILED {b}");
    }
    assert!(n > 200, "{n}");
    assert!(bad.is_empty(), "{} programs differ", bad.len());
}

/// The listing of a `ps_4_0_level_9_3` container as the library prints it (`disasm
/// --exact-floats`): its Aon9 program is `ps_2_x`, in the forms fxc prints for `_2_x`:
/// predicates, `setp_*`, `if_*`/`if p0.y`/`if b0`, `rep`/`break`/`break_*`/`breakp`,
/// `call`/`callnz`/`label`/`ret`, `dsx`/`dsy`/`texldd`, `texldp`/`texldb`, `_pp`, `_centroid`,
/// every sampler type, `defi`/`defb`, three-source `sincos`.
const PS_2_X: &str = r#"//
// Generated by Microsoft (R) D3D Shader Disassembler
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// TEXCOORD                 0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TARGET                0   xyzw        0   TARGET   float   xyzw
//
//
// Constant buffer to DX9 shader constant mappings:
//
// Target Reg Buffer  Start Reg # of Regs        Data Conversion
// ---------- ------- --------- --------- ----------------------
// c0         cb0             0         2  ( FLT, FLT, FLT, FLT)
// c5         cb0             2         1  ( INT,BOOL, FLT, FLT)
//
//
// Sampler/Resource to DX9 shader sampler mappings:
//
// Target Sampler Source Sampler  Source Resource
// -------------- --------------- ----------------
// s0             s0              t0               
//
//
// Level9 shader bytecode:
//
    ps_2_x
    def c2, 0.5, 1, 0, -1
    defi i0, 3, 0, 1, 0
    defb b0, true
    dcl t0.xy
    dcl_pp t1
    dcl_centroid t2.xy
    dcl v0
    dcl_2d s0
    dcl_cube s1
    dcl_volume s2
    texld_pp r0, t0, s0
    texldp r1, t1, s1
    texldb r2, t1, s2
    dsx r3, t0
    dsy r4, t0
    texldd r5, t0, s0, r3, r4
    setp_gt p0, r0, c0
    (p0) mov r0.xy, c1
    (!p0.x) add r1, r1, -c2
    if_lt r0.x, c2.y
      mul_sat r0, r0, c1
    else
      mad r0, r1, c1.x, c2
    endif
    if p0.y
      frc r6, r0
    endif
    if b0
      rep i0
        add r0, r0, c2.x
        break_ge r0.x, c2.y
        breakp !p0.z
        break
      endrep
    endif
    callnz l1, b0
    callnz l2, !p0.w
    call l1
    nrm_pp r7.xyz, r0
    crs r8.xyz, r7, r0
    pow r9.w, r0.x, c2.y
    lrp r10, r0, r1, r2
    sincos r11.xy, r0.x, c3, c4
    abs r12, -r0
    dp2add r13.x, r0, c1, c2.w
    cmp r14, r0, c1, c2
    texkill t2
    mov oC0, r0
    ret
    label l1
    mov r0, c1
    ret
    label l2
    nop
    ret

// approximately 77 instruction slots used (4 texture, 73 arithmetic)
ps_4_0
dcl_constantbuffer cb0[3], immediateIndexed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
sample r0.xyzw, v0.xyxx, t0.xyzw, s0
mul o0.xyzw, r0.xyzw, cb0[0].xyzw
ret 
// Approximately 0 instruction slots used
"#;

/// A `vs_4_0_level_9_3` container's listing: `vs_2_x`, with `mova`, relative addressing by
/// `a0.x` and `aL`, `loop`, three-source `sgn`, a predicate, the runtime position offset.
const VS_2_X: &str = r#"//
// Generated by Microsoft (R) D3D Shader Disassembler
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyzw        0     NONE   float   xyzw
// TEXCOORD                 0   xyzw        1     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// TEXCOORD                 0   xyzw        0     NONE   float   xyzw
// SV_POSITION              0   xyzw        1      POS   float   xyzw
//
//
// Constant buffer to DX9 shader constant mappings:
//
// Target Reg Buffer  Start Reg # of Regs        Data Conversion
// ---------- ------- --------- --------- ----------------------
// c1         cb0             0         4  ( FLT, FLT, FLT, FLT)
//
//
// Runtime generated constant mappings:
//
// Target Reg                               Constant Description
// ---------- --------------------------------------------------
// c0                              Vertex Shader position offset
//
//
// Level9 shader bytecode:
//
    vs_2_x
    def c5, 1, 0, 0.5, 2
    defi i0, 4, 0, 1, 0
    dcl_texcoord v0
    dcl_texcoord1 v1
    mova a0.x, v1.x
    mov r0, c6[a0.x]
    loop aL, i0
      add r0, r0, c7[aL]
    endloop
    sgn r1, r0, r2, r3
    setp_ne p0, r0, c5
    (p0.x) mov r0.x, c5.y
    if_eq r0.y, c5.x
      lit r2, r0
    endif
    exp r3, r0.x
    log r4.x, r0.y
    dst r5, r0, r1
    m4x4 r6, v0, c1
    mad oPos.xy, r6.w, c0, r6
    mov oPos.zw, r6
    mov oT0, v1

// approximately 30 instruction slots used
vs_4_0
dcl_constantbuffer cb0[4], immediateIndexed
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_output o0.xyzw
dcl_output_siv o1.xyzw, position
dp4 o1.x, v0.xyzw, cb0[0].xyzw
dp4 o1.y, v0.xyzw, cb0[1].xyzw
dp4 o1.z, v0.xyzw, cb0[2].xyzw
dp4 o1.w, v0.xyzw, cb0[3].xyzw
mov o0.xyzw, v1.xyzw
ret 
// Approximately 0 instruction slots used
"#;

/// Level 9_3 containers (their Aon9 program `ps_2_x` or `vs_2_x`) built from their listings
/// with the project's writers (the Direct3D 9 assembler, `assemble::aon9`, the DXBC builder):
/// the listing prints the text back, the text gives the bytes back with and without the
/// original, and `info` names the version as the listing does, with the Aon9 header's
/// version (the program's with minor 0, as fxc writes every level_9_3 file).
#[test]
fn level_9_3_containers_come_back_from_their_text() {
    for (text, version, header, info_line) in [
        (
            PS_2_X,
            0xffff_0201,
            0xffff_0200,
            "level 9:   ps_2_x program (0xffff0201, Aon9 header 0xffff0200) at 0x78, 676 bytes; \
             2 constant buffer, 1 sampler, 0 runtime constant mappings\n",
        ),
        (
            VS_2_X,
            0xfffe_0201,
            0xfffe_0200,
            "level 9:   vs_2_x program (0xfffe0201, Aon9 header 0xfffe0200) at 0x6c, 324 bytes; \
             1 constant buffer, 0 sampler, 1 runtime constant mapping\n",
        ),
    ] {
        let bytes = assemble::assemble(text).unwrap_or_else(|e| panic!("{e}"));
        let d = Dxbc::parse(&bytes).unwrap();
        let a = d.aon9.as_ref().unwrap();
        assert_eq!((a.program_version(), a.version), (version, header));
        let mut opts = shaderscope::DisasmOptions::default();
        opts.exact_floats = true;
        let mut printed = TextBuf::default();
        shaderscope::format::dxbc::listing::write_listing(&d, &opts, &mut printed).unwrap();
        assert_eq!(printed.as_str(), text);
        assert_eq!(assemble::assemble(printed.as_str()).unwrap(), bytes);
        assert_eq!(assemble::assemble_like(printed.as_str(), &d).unwrap(), bytes);
        let info = shaderscope::parse(&bytes).unwrap().info_text();
        assert!(info.contains(info_line), "{info}");
    }
}

/// Every version line fxc prints for a Direct3D 9 program reads back, the `_sw` ones too,
/// and in a DXBC listing the SM4 assembler leaves it to the Direct3D 9 one.
#[test]
fn every_version_line_reads_back() {
    for (line, token) in [
        ("vs_1_1", 0xfffe_0101u32),
        ("vs_2_0", 0xfffe_0200),
        ("vs_2_x", 0xfffe_0201),
        ("vs_2_sw", 0xfffe_02ff),
        ("vs_3_0", 0xfffe_0300),
        ("vs_3_sw", 0xfffe_03ff),
        ("ps_1_4", 0xffff_0104),
        ("ps_2_0", 0xffff_0200),
        ("ps_2_x", 0xffff_0201),
        ("ps_2_sw", 0xffff_02ff),
        ("ps_3_0", 0xffff_0300),
        ("ps_3_sw", 0xffff_03ff),
    ] {
        let bytes = asm::parse_program(&format!("    {line}\n    nop\n")).unwrap();
        assert_eq!(bytes[..4], token.to_le_bytes(), "{line}");
        let p = Program::parse(&bytes, 0).unwrap();
        assert_eq!(p.version.name(), line);
        let listing = format!("//\n// Level9 shader bytecode:\n//\n    {line}\n    nop\n\nps_4_0\nret\n");
        let sm4 = shaderscope::isa::sm4::asm::parse_program(&listing).unwrap();
        assert_eq!(sm4, [0x40, 3, 0x0100_003e], "{line}");
    }
}

/// The statistics line counts instruction slots as fxc does, per shader model: `lrp` is one
/// slot (fxc 10.1 and 9.29 count it so in ps_2_0 and vs_2_0, where the instruction tables
/// say 2), `nop` none (fxc 6.3's ps_2_x), `sincos` 8, `m4x4` 4, `texkill` a texture slot
/// only in ps_1_x.
#[test]
fn slot_lines_count_as_fxc_does() {
    let line = |text: &str| {
        let bytes = asm::parse_program(text).unwrap_or_else(|e| panic!("{e}"));
        let listing = print(&bytes, false);
        listing.lines().last().unwrap_or("").to_string()
    };
    // ps_2_0 with 8 texture reads and 3 `lrp`: fxc 10.1 prints 34 (8 texture, 26 arithmetic).
    let mut ps = String::from("    ps_2_0\n    dcl t0.xy\n    dcl_2d s0\n");
    for k in 0..8 {
        ps.push_str(&format!("    texld r{k}, t0, s0\n"));
    }
    for k in 0..3 {
        ps.push_str(&format!("    lrp r{k}, c0, r{k}, r{}\n", k + 3));
    }
    for _ in 0..22 {
        ps.push_str("    mad r0, r1, c1, r0\n");
    }
    ps.push_str("    mov oC0, r0\n");
    assert_eq!(line(&ps), "// approximately 34 instruction slots used (8 texture, 26 arithmetic)");
    // vs_2_0 as librw's skinning shaders (fxc 9.29): `lrp`, `mova`, `rep`/`endrep`.
    let vs = "    vs_2_0\n    defi i0, 2, 0, 0, 0\n    dcl_position v0\n    mova a0.x, v0.x\n\
              rep i0\n    mad r0, c0[a0.x], v0.x, r0\n    endrep\n    lrp r1, r0.x, v0, c1\n\
              slt r2, r1, c2\n    mov oPos, r1\n";
    assert_eq!(line(vs), "// approximately 10 instruction slots used");
    // ps_2_x with `nop` and `abs`, as nanovg's level-9 programs (fxc 6.3).
    let ps2x = "    ps_2_x\n    dcl t0\n    nop\n    abs r0, t0\n    nop\n    mov oC0, r0\n";
    assert_eq!(line(ps2x), "// approximately 2 instruction slots used");
    let ps11 = "    ps_1_1\n    tex t0\n    texkill t1\n    lrp r0, v0.w, t0, v1\n    nop\n";
    assert_eq!(line(ps11), "// approximately 3 instruction slots used (2 texture, 1 arithmetic)");
    let vs3 = "    vs_3_0\n    dcl_position v0\n    dcl_position o0\n    m4x4 o0, v0, c0\n\
               sincos r0.xy, v0.x\n    lrp r1, r0.x, v0, c4\n";
    assert_eq!(line(vs3), "// approximately 13 instruction slots used");
}

/// A DX10-style texture that a ps_2_0 program samples (`Texture2D t; … t.Sample(s, uv)`,
/// fxc 10.1): its constant is in the sampler register set and its type record an object of
/// type `D3DXPT_TEXTURE2D` with 4 columns. The listing names it `Texture2D` as fxc does (a
/// DX9 `texture2D` object has 1 column), and the listing alone rebuilds the same record.
#[test]
fn a_dx10_texture_constant_is_listed_and_rebuilt_as_fxc_writes_it() {
    use d3d9::ctab::{Constant, Type};
    let object = |columns| Type { class: 4, ty: 7, rows: 1, columns, elements: 1, members: Vec::new() };
    let constant = |name: &str, index, ty| Constant {
        name: name.to_string(),
        register_set: 3,
        register_index: index,
        register_count: 1,
        reserved: 0,
        ty,
        default_value: 0,
    };
    let table = d3d9::ConstantTable {
        offset: 0,
        size: 28,
        creator: "Microsoft (R) HLSL Shader Compiler 10.1".to_string(),
        version: 0xffff_0200,
        flags: 0x100,
        target: "ps_2_0".to_string(),
        constants: vec![constant("colorMap", 0, object(4)), constant("legacy", 1, object(1))],
    };
    let mut ctab = b"CTAB".to_vec();
    ctab.extend(table.write());
    let code = asm::parse_program(
        "    ps_2_0\n    dcl t0.xy\n    dcl_2d s0\n    texld r0, t0, s0\n    mov oC0, r0\n",
    )
    .unwrap();
    let mut bytes = code[..4].to_vec();
    bytes.extend((0xfffe_u32 | ((ctab.len() / 4) as u32) << 16).to_le_bytes());
    bytes.extend(&ctab);
    bytes.extend(&code[4..]);

    let listing = print(&bytes, true);
    assert!(listing.contains("\n//   Texture2D colorMap;\n//   texture2D legacy;\n"), "{listing}");
    assert!(listing.contains("\n//   colorMap     s0       1\n"), "{listing}");
    assert_eq!(asm::parse_program(&listing).unwrap(), bytes);
}
