//! Find every shader binary inside a byte buffer: a whole file that is one (by its first bytes,
//! [`detect`](mod@crate::detect)), or ones embedded by magic in any file — DXBC containers in executables,
//! DLLs and game packs, DVLBs in CGFX/BCRES, GFD (`Gfx2`) and SHARCFB (`SHAB`/`BAHS`) in Wii U
//! SARC archives (also Yaz0-compressed ones, `.szs`), MBS (`MBS1`) anywhere. A whole file that
//! starts as a format without a magic (Direct3D 9, `.csdr`) but does not parse is searched for
//! embedded ones; holding none, it is a broken find, as [`crate::parse`] calls it.
//!
//! Bounded: a find's size comes from its header, capped by the bytes there; the search goes on
//! after the end of each find, so no byte is read as two finds; archives nest at most
//! [`MAX_DEPTH`] deep and the Yaz0 streams of one buffer decode to at most [`decode_cap`]
//! bytes together (16 times the buffer, at least 32 MiB, at most [`MAX_DECODED`]); a stream
//! that would pass it is searched as far as it decodes and reported as a [`Cut`].
//!
//! ```
//! use shaderscope::find::{Find, find_all};
//! let mut file = b"MZ junk ".to_vec();
//! let dxbc = {
//!     let mut b = shaderscope::dxbc::write::Builder::new();
//!     b.push(*b"STAT", vec![0u8; 4 * 37]);
//!     b.finish().unwrap()
//! };
//! file.extend_from_slice(&dxbc);
//! file.extend_from_slice(b" more junk");
//! let finds = find_all(&file);
//! assert_eq!(finds.len(), 1);
//! assert_eq!((finds[0].offset, finds[0].size), (8, dxbc.len() as u64));
//! assert_eq!(finds[0].format.name(), "dxbc");
//! assert_eq!(finds[0].location(), "0x8");
//! ```

use crate::container::Container;
use crate::detect::Format;
#[cfg(feature = "direct3d")]
use crate::format::dxbc::hash::Hashes;
use crate::json::{ErrorInfo, Record, RecordType};
use crate::model::Severity;
use md5::{Digest, Md5};
use std::collections::BTreeMap;

/// How many archives (SARC, Yaz0) may nest inside one another.
pub const MAX_DEPTH: usize = 4;

/// The most bytes the Yaz0 streams found in one buffer may decode to together (256 MiB),
/// however large the buffer.
pub const MAX_DECODED: usize = 256 << 20;

/// Decoded bytes allowed per byte of the buffer: Yaz0 packs the archives of the corpus 2.5
/// times (median) to 6.5 times (a greedy encoder's figures over its SARC, SHARC, SHARCFB and
/// GFD files); a stream of nothing but copies packs 87 times.
const DECODED_PER_BYTE: usize = 16;

/// Decoded bytes allowed whatever the buffer's size, so that a small archive packed harder
/// than the corpus's still decodes.
const DECODED_FLOOR: usize = 32 << 20;

/// How many bytes the Yaz0 streams found in a buffer of `len` bytes may decode to together:
/// 16 times `len`, at least 32 MiB, at most [`MAX_DECODED`], so that what a search holds
/// stays a small multiple of its input.
///
/// ```
/// use shaderscope::find::decode_cap;
/// assert_eq!(decode_cap(1000), 32 << 20);
/// assert_eq!(decode_cap(3 << 20), 48 << 20);
/// assert_eq!(decode_cap(1 << 30), 256 << 20);
/// ```
pub fn decode_cap(len: usize) -> usize {
    len.saturating_mul(DECODED_PER_BYTE).clamp(DECODED_FLOOR, MAX_DECODED)
}

/// A Yaz0 stream that decodes to more than the search's [`decode_cap`] left for it: its
/// first `decoded` bytes were searched, the rest not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// The containers the stream sits in, outermost first.
    pub within: Vec<Step>,
    /// Offset of its magic: in the buffer, or in the decoded bytes of the innermost Yaz0
    /// stream of [`Cut::within`].
    pub offset: u64,
    /// The size its header states.
    pub size: u64,
    /// The bytes decoded and searched.
    pub decoded: u64,
}

impl Cut {
    /// Where the stream is, as [`Find::location`] says it (`sarc@0x0:a.szs/0x0`).
    pub fn location(&self) -> String {
        let mut s = String::new();
        for step in &self.within {
            s.push_str(&step.to_string());
            s.push('/');
        }
        s.push_str(&format!("{:#x}", self.offset));
        s
    }
}

/// What a scan found, for its closing summary: finds, distinct hashes and broken ones, in all,
/// by format and by stage. Finds may be added in any order.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    seen: Vec<Seen>,
}

/// One find, as the summary counts it.
#[derive(Debug, Clone)]
struct Seen {
    format: &'static str,
    stages: Vec<&'static str>,
    hash: String,
    valid: bool,
}

/// Finds and distinct hashes of one format or stage.
#[derive(Default)]
struct Tally<'a> {
    finds: u64,
    hashes: std::collections::HashSet<&'a str>,
    invalid: u64,
}

impl<'a> Tally<'a> {
    fn add(&mut self, s: &'a Seen) {
        self.finds += 1;
        self.invalid += u64::from(!s.valid);
        self.hashes.insert(&s.hash);
    }
}

type Tallies<'a> = (Tally<'a>, BTreeMap<&'static str, Tally<'a>>, BTreeMap<&'static str, Tally<'a>>);

impl Summary {
    /// Count a find.
    pub fn add(&mut self, f: &Find) {
        let valid = f.problem.is_none();
        self.seen.push(Seen {
            format: f.format.name(),
            stages: f.stages.clone(),
            hash: f.hash.clone(),
            valid,
        });
    }

    /// Count another summary's finds too.
    pub fn extend(&mut self, other: Summary) {
        self.seen.extend(other.seen);
    }

    /// In all, by format, by stage.
    fn tallies(&self) -> Tallies<'_> {
        let (mut all, mut formats, mut stages) = Tallies::default();
        for s in &self.seen {
            all.add(s);
            formats.entry(s.format).or_default().add(s);
            for st in &s.stages {
                stages.entry(*st).or_default().add(s);
            }
        }
        (all, formats, stages)
    }

    /// Whether no find is broken.
    pub fn valid(&self) -> bool {
        self.seen.iter().all(|s| s.valid)
    }

    /// The `scan-summary` record of a scan of `files` files named `label`.
    pub fn record<'p>(&self, label: &'p str, files: usize) -> Record<'p> {
        let (all, formats, stages) = self.tallies();
        let by = |m: &BTreeMap<&str, Tally<'_>>| -> serde_json::Map<String, serde_json::Value> {
            m.iter()
                .map(|(k, t)| {
                    let v =
                        serde_json::json!({"finds": t.finds, "unique": t.hashes.len(), "invalid": t.invalid});
                    (k.to_string(), v)
                })
                .collect()
        };
        Record::new(RecordType::ScanSummary, label, None)
            .with_body(serde_json::json!({
                "files": files,
                "shaders": all.finds,
                "unique": all.hashes.len(),
                "invalid": all.invalid,
                "formats": by(&formats),
                "stages": by(&stages),
            }))
            .with_valid(all.invalid == 0)
    }

    /// The summary line of a scan of `files` files: `3 shader binaries (2 unique) in 5 files,
    /// 0 invalid; formats: dxbc 2 (1 unique), …; stages: pixel 2 (1 unique), …`.
    pub fn text(&self, files: usize) -> String {
        let (all, formats, stages) = self.tallies();
        let mut s = format!(
            "{} shader {} ({} unique) in {} {}, {} invalid",
            all.finds,
            if all.finds == 1 { "binary" } else { "binaries" },
            all.hashes.len(),
            files,
            if files == 1 { "file" } else { "files" },
            all.invalid
        );
        for (name, m) in [("formats", &formats), ("stages", &stages)] {
            if m.is_empty() {
                continue;
            }
            let parts: Vec<String> =
                m.iter().map(|(k, t)| format!("{k} {} ({} unique)", t.finds, t.hashes.len())).collect();
            s.push_str(&format!("; {name}: {}", parts.join(", ")));
        }
        s.push('\n');
        s
    }
}

/// One container a find sits in: a Yaz0 stream (whose decoded bytes the offsets inside count
/// in) or an entry of a SARC archive (whose offsets stay those of the buffer around it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// `yaz0`, `sarc`, or the name of the effect format whose program this is (`fx9`,
    /// `fx11`, `mgfx`).
    pub kind: &'static str,
    /// Offset of the container's magic in the bytes around it.
    pub offset: u64,
    /// The SARC entry's name, or the effect's part name of the program (`None` for Yaz0, or
    /// an entry without a name).
    pub name: Option<String>,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{:#x}", self.kind, self.offset)?;
        if let Some(n) = &self.name {
            write!(f, ":{n}")?;
        }
        Ok(())
    }
}

/// A shader binary found in a buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Find {
    /// Offset of its first byte: in the buffer, or in the decoded bytes of the innermost Yaz0
    /// stream of [`Find::within`].
    pub offset: u64,
    /// The containers it sits in, outermost first (empty when it lies in the buffer itself).
    pub within: Vec<Step>,
    /// Whether it is the whole buffer (or the whole SARC entry) rather than embedded in it.
    pub whole: bool,
    /// Its format.
    pub format: Format,
    /// Its size in bytes (from its header, capped by the bytes there).
    pub size: u64,
    /// The stages of its programs (`vertex`, `pixel`, …), in order, each once.
    pub stages: Vec<&'static str>,
    /// The shader model of its first program that names one (`ps_5_0`, `vs_2_0`).
    pub model: Option<String>,
    /// MD5 of its bytes, lowercase hex: equal finds have equal hashes.
    pub hash: String,
    /// The names modding tools key it by (DXBC and Direct3D 9: 3Dmigoto's hashes), from its
    /// bytes, whether it parses or not.
    #[cfg(feature = "direct3d")]
    pub hashes: Option<Hashes>,
    /// Why it is invalid (it does not parse, a part is damaged, or validation finds an
    /// error), with the error's kind and offset (counted from the find's first byte, which
    /// for a whole file is the file's); `None` when it reads and checks clean.
    pub problem: Option<ErrorInfo>,
}

impl Find {
    /// Where it is: `-` for a whole file, else the containers (`yaz0@0x0/sarc@0x0:a.gsh/`)
    /// then the offset in hex (`0x1c0`).
    pub fn location(&self) -> String {
        if self.whole && self.within.is_empty() {
            return "-".to_string();
        }
        let mut s = String::new();
        for step in &self.within {
            s.push_str(&step.to_string());
            s.push('/');
        }
        s.push_str(&format!("{:#x}", self.offset));
        s
    }

    /// Its `scan --json` record, found in the file `path` (a failure record when it is
    /// broken).
    pub fn record<'p>(&self, path: &'p str) -> Record<'p> {
        let within: Vec<_> = self
            .within
            .iter()
            .map(|s| serde_json::json!({"kind": s.kind, "offset": s.offset, "name": s.name}))
            .collect();
        #[cfg(feature = "direct3d")]
        let hashes = serde_json::json!(self.hashes);
        #[cfg(not(feature = "direct3d"))]
        let hashes = serde_json::Value::Null;
        let body = serde_json::json!({
            "offset": (!self.whole || !self.within.is_empty()).then_some(self.offset),
            "location": self.location(),
            "within": within,
            "size": self.size,
            "stages": self.stages,
            "model": self.model,
            "hash": self.hash,
            "hashes": hashes,
        });
        let r = match &self.problem {
            None => Record::new(RecordType::Scan, path, Some(self.format)),
            Some(p) => Record::failure(RecordType::Scan, path, Some(self.format), p.clone()),
        };
        r.with_body(body)
    }
}

/// Every shader binary in `data`, in the order they are found (by offset, containers before
/// what follows them).
pub fn find_all(data: &[u8]) -> Vec<Find> {
    let mut out = Vec::new();
    each(data, &mut |f, _| out.push(f));
    out
}

/// Call `visit` with every shader binary in `data` and its bytes, in order; the Yaz0 streams
/// that were searched only in part (past [`decode_cap`] of `data`).
pub fn each(data: &[u8], visit: &mut dyn FnMut(Find, &[u8])) -> Vec<Cut> {
    let mut s = Search {
        visit,
        within: Vec::new(),
        budget: decode_cap(data.len()),
        left: usize::MAX,
        cuts: Vec::new(),
    };
    s.buffer(data, 0, 0);
    s.cuts
}

/// How many shader binaries [`each`] finds in `data`, counting no further than `most`, with
/// Yaz0 streams decoding to no more bytes than `data` has: a figure for a hint about a file
/// that is no shader binary itself (`info` on a game pack), cheap whatever the file is.
///
/// ```
/// let dxbc = shaderscope::dxbc::write::Builder::new().finish()?;
/// let pack = [&b"PACK"[..], &dxbc, b"..", &dxbc].concat();
/// assert_eq!(shaderscope::find::count(&pack, 10), 2);
/// assert_eq!(shaderscope::find::count(&pack, 1), 1);
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub fn count(data: &[u8], most: usize) -> usize {
    let mut n = 0;
    let mut s = Search {
        visit: &mut |_, _| n += 1,
        within: Vec::new(),
        budget: data.len(),
        left: most,
        cuts: Vec::new(),
    };
    s.buffer(data, 0, 0);
    n
}

struct Search<'v> {
    visit: &'v mut dyn FnMut(Find, &[u8]),
    within: Vec<Step>,
    /// Bytes Yaz0 streams may still decode to in this search (each stream's stated size is
    /// taken off before it decodes), so that many broken streams cannot cost more than one.
    budget: usize,
    /// Finds still wanted: the search stops when none is.
    left: usize,
    /// The streams decoded in part.
    cuts: Vec<Cut>,
}

/// The magics searched for inside a buffer.
const MAGICS: [&[u8; 4]; 8] = [b"DXBC", b"DVLB", b"Gfx2", b"SHAB", b"BAHS", b"MBS1", b"SARC", b"Yaz0"];

impl Search<'_> {
    /// `data` is a whole file, SARC entry or decoded stream whose first byte is at `base` of
    /// the current offsets; `depth` counts the archives around it.
    fn buffer(&mut self, data: &[u8], base: u64, depth: usize) {
        let Some(format) = crate::detect(data) else {
            return self.embedded(data, base, depth);
        };
        let parsed = crate::parse(data);
        // What the file turned out to hold (a compressed XNB's effect is known once unpacked).
        let format = parsed.as_ref().map_or(format, |f| f.format());
        // Formats without a magic (D3D9 version token, base64 text) are only a guess from the
        // first bytes: when they do not parse, the bytes are searched instead, and when that
        // finds nothing they are the broken file every other command calls them.
        if matches!(format, Format::D3d9 | Format::Csdr) && parsed.is_err() {
            let wanted = self.left;
            self.embedded(data, base, depth);
            if self.left != wanted {
                return;
            }
        }
        // The whole files an effect carries (its programs), found inside it.
        let embedded: Vec<(String, u64, Vec<u8>)> = match &parsed {
            Ok(file) if depth < MAX_DEPTH => {
                file.embedded().into_iter().map(|p| (p.name, p.offset, p.bytes.into_owned())).collect()
            }
            _ => Vec::new(),
        };
        let f = self.describe(format, data, base, true, parsed);
        self.found(f, data);
        for (name, offset, bytes) in embedded {
            if self.left == 0 {
                break;
            }
            self.within.push(Step { kind: format.name(), offset: base, name: Some(name) });
            self.buffer(&bytes, base + offset, depth + 1);
            self.within.pop();
        }
    }

    /// Search `data` for magics.
    fn embedded(&mut self, data: &[u8], base: u64, depth: usize) {
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for (m, magic) in MAGICS.iter().enumerate() {
            hits.extend(memchr::memmem::find_iter(data, &magic[..]).map(|at| (at, m)));
        }
        hits.sort_unstable();
        let mut next = 0usize;
        for (at, m) in hits {
            if self.left == 0 {
                return;
            }
            if at < next {
                continue;
            }
            let Some(rest) = data.get(at..) else { continue };
            let here = base + at as u64;
            let end = match m {
                6 if depth < MAX_DEPTH => self.sarc(rest, here, depth),
                7 if depth < MAX_DEPTH => self.yaz0(rest, here, depth),
                6 | 7 => None,
                _ => {
                    let Some((format, len)) = shader_extent(m, rest, here) else { continue };
                    let bytes = rest.get(..len).unwrap_or(rest);
                    let f = self.describe(format, bytes, here, false, crate::parse(bytes));
                    self.found(f, bytes);
                    Some(len)
                }
            };
            if let Some(len) = end {
                next = at.saturating_add(len.max(1));
            }
        }
    }

    /// A SARC archive at the start of `data` (at `here`): each entry searched. Its size.
    fn sarc(&mut self, data: &[u8], here: u64, depth: usize) -> Option<usize> {
        let archive = Sarc::read(data)?;
        let size = archive.size;
        for (name, start, end) in archive.entries {
            if self.left == 0 {
                break;
            }
            let Some(bytes) = data.get(start..end) else { continue };
            self.within.push(Step { kind: "sarc", offset: here, name });
            self.buffer(bytes, here + start as u64, depth + 1);
            self.within.pop();
        }
        Some(size)
    }

    /// A Yaz0 stream at the start of `data` (at `here`): its decoded bytes searched, as many
    /// as the budget leaves (a [`Cut`] when that is fewer than it states). The size of the
    /// compressed stream (or of the part decoded).
    fn yaz0(&mut self, data: &[u8], here: u64, depth: usize) -> Option<usize> {
        let stated = u32_be(data, 4)? as usize;
        let want = stated.min(self.budget);
        self.budget -= want;
        let (decoded, used) = decode(data, want).ok()?;
        if want < stated {
            let within = self.within.clone();
            self.cuts.push(Cut { within, offset: here, size: stated as u64, decoded: want as u64 });
        }
        self.within.push(Step { kind: "yaz0", offset: here, name: None });
        self.buffer(&decoded, 0, depth + 1);
        self.within.pop();
        Some(used)
    }

    /// Hand a find to the visitor; one fewer is wanted.
    fn found(&mut self, f: Find, bytes: &[u8]) {
        (self.visit)(f, bytes);
        self.left = self.left.saturating_sub(1);
    }

    fn describe(
        &self,
        format: Format,
        bytes: &[u8],
        offset: u64,
        whole: bool,
        parsed: crate::Result<crate::File<'_>>,
    ) -> Find {
        let hash = md5_hex(bytes);
        let mut f = Find {
            offset,
            within: self.within.clone(),
            whole,
            format,
            size: bytes.len() as u64,
            stages: Vec::new(),
            model: None,
            hash,
            #[cfg(feature = "direct3d")]
            hashes: match format {
                Format::Dxbc => Some(Hashes::of_dxbc(bytes)),
                Format::D3d9 => Hashes::of_d3d9(bytes),
                _ => None,
            },
            problem: None,
        };
        match parsed {
            Err(e) => f.problem = Some(ErrorInfo::from_error(&e)),
            Ok(file) => {
                if let Some(e) = file.damage().first() {
                    f.problem = Some(ErrorInfo::from_error(e));
                } else if let Some(e) = file.validate().iter().find(|x| x.severity == Severity::Error) {
                    f.problem = Some(ErrorInfo {
                        offset: Some(e.offset),
                        ..ErrorInfo::other("invalid", format!("at offset {:#x}: {}", e.offset, e.message))
                    });
                }
                for p in file.program_heads() {
                    if let Some(s) = p.stage {
                        if !f.stages.contains(&s) {
                            f.stages.push(s);
                        }
                    }
                    if f.model.is_none() {
                        f.model = p.model;
                    }
                }
            }
        }
        f
    }
}

/// The MD5 of `bytes` in lowercase hex (a find's [`Find::hash`]).
pub fn md5_hex(bytes: &[u8]) -> String {
    crate::print::hex_bytes(&Md5::digest(bytes))
}

fn u32_le(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(d.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

fn u32_be(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(d.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

fn u16_at(d: &[u8], at: usize, big: bool) -> Option<u16> {
    let b: [u8; 2] = d.get(at..at.checked_add(2)?)?.try_into().ok()?;
    Some(if big { u16::from_be_bytes(b) } else { u16::from_le_bytes(b) })
}

fn u32_at(d: &[u8], at: usize, big: bool) -> Option<u32> {
    if big { u32_be(d, at) } else { u32_le(d, at) }
}

/// The format and size of the shader binary whose magic (`MAGICS[m]`) starts `data` (at
/// `here`), when its header makes sense; the size is capped by `data`'s length.
#[cfg_attr(not(feature = "n3ds"), allow(unused_variables))]
fn shader_extent(m: usize, data: &[u8], here: u64) -> Option<(Format, usize)> {
    let cap = |n: u64| usize::try_from(n).unwrap_or(usize::MAX).min(data.len());
    match m {
        // DXBC: magic, 16-byte checksum, version 1, total size, chunk count, chunk offsets.
        0 => {
            let (version, size, count) = (u32_le(data, 20)?, u32_le(data, 24)?, u32_le(data, 28)?);
            let table = 32u64 + 4 * u64::from(count);
            if version != 1 || count > 1024 || table > u64::from(size) {
                return None;
            }
            for i in 0..count as usize {
                let Some(at) = u32_le(data, 32 + 4 * i) else { break };
                if u64::from(at) < table || u64::from(at) + 8 > u64::from(size) {
                    return None;
                }
            }
            Some((Format::Dxbc, cap(size.into())))
        }
        // DVLB: its extent is the end of its last structure.
        #[cfg(feature = "n3ds")]
        1 => {
            let d = crate::format::shbin::dvlb::Dvlb::parse_embedded(data, here).ok()?;
            Some((Format::Dvlb, cap(d.size() as u64)))
        }
        2 => gfd_extent(data).map(|n| (Format::Gfd, n)),
        // SHARCFB: magic, version, file size (in the byte order the magic says).
        3 | 4 => {
            let big = m == 3;
            let (version, size) = (u32_at(data, 4, big)?, u32_at(data, 8, big)?);
            if !(1..=16).contains(&version) || size < 16 {
                return None;
            }
            Some((Format::Sharcfb, cap(size.into())))
        }
        // MBS: magic, size of the rest, then the shader's chunk (CFRA or CVER) and its size.
        5 => {
            let size = u64::from(u32_le(data, 4)?) + 8;
            let inner = u64::from(u32_le(data, 12)?) + 16;
            if !matches!(data.get(8..12)?, b"CFRA" | b"CVER") || inner > size {
                return None;
            }
            Some((Format::Mbs, cap(size)))
        }
        _ => None,
    }
}

/// The size of the GFD file that starts `data`: its header, then blocks up to and including
/// the end-of-file block (or up to a block that does not read, or the end of `data`).
fn gfd_extent(data: &[u8]) -> Option<usize> {
    let header = u32_be(data, 4)? as usize;
    if !(0x20..=0x100).contains(&header) || u32_be(data, 8)? > 16 {
        return None;
    }
    let mut pos = header;
    if data.get(pos..pos + 4) != Some(b"BLK{") {
        return None;
    }
    // Each block takes at least its 0x20-byte header, so the walk ends.
    while data.get(pos..pos + 4) == Some(b"BLK{") {
        let (Some(size), Some(kind), Some(len)) =
            (u32_be(data, pos + 4), u32_be(data, pos + 16), u32_be(data, pos + 20))
        else {
            return Some(data.len());
        };
        let end = (pos as u64) + u64::from(size.max(0x20)) + u64::from(len);
        pos = usize::try_from(end).unwrap_or(usize::MAX).min(data.len());
        if kind == 1 {
            break;
        }
    }
    Some(pos)
}

/// A SARC archive's size and entries (name, start, end in its bytes).
struct Sarc {
    size: usize,
    entries: Vec<(Option<String>, usize, usize)>,
}

impl Sarc {
    /// SARC header (0x14): magic, header size, byte-order mark, file size, data offset,
    /// version; SFAT (0xc): magic, header size, node count, hash key; nodes of 0x10: name hash,
    /// attributes (0x01000000 set: name at 4 × the low 24 bits in SFNT), data start, data end;
    /// SFNT (8), then the names.
    fn read(data: &[u8]) -> Option<Sarc> {
        let big = match data.get(6..8)? {
            [0xfe, 0xff] => true,
            [0xff, 0xfe] => false,
            _ => return None,
        };
        let header = usize::from(u16_at(data, 4, big)?);
        let size = (u32_at(data, 8, big)? as usize).min(data.len());
        let data_at = u32_at(data, 12, big)? as usize;
        let data = data.get(..size)?;
        if data.get(header..header + 4)? != b"SFAT" {
            return None;
        }
        let count = usize::from(u16_at(data, header + 6, big)?);
        let nodes = header + usize::from(u16_at(data, header + 4, big)?);
        let names_at = nodes.checked_add(count.checked_mul(16)?)?;
        if data.get(names_at..names_at + 4)? != b"SFNT" {
            return None;
        }
        let names = names_at + usize::from(u16_at(data, names_at + 4, big)?);
        let mut entries = Vec::new();
        for i in 0..count {
            let node = nodes + 16 * i;
            let attrs = u32_at(data, node + 4, big)?;
            let start = data_at.checked_add(u32_at(data, node + 8, big)? as usize)?;
            let end = data_at.checked_add(u32_at(data, node + 12, big)? as usize)?;
            let name = (attrs & 0x0100_0000 != 0)
                .then(|| {
                    let at = names.checked_add(4 * (attrs & 0x00ff_ffff) as usize)?;
                    let rest = data.get(at..data_at.min(data.len()))?;
                    let n = memchr::memchr(0, rest).unwrap_or(rest.len());
                    Some(String::from_utf8_lossy(rest.get(..n)?).into_owned())
                })
                .flatten();
            if start <= end && end <= size {
                entries.push((name, start, end));
            }
        }
        // No byte is searched twice: entries in data order, an overlapping one left out.
        entries.sort_by_key(|e| (e.1, e.2));
        let mut end = 0;
        entries.retain(|e| {
            let keep = e.1 >= end;
            end = end.max(e.2);
            keep
        });
        Some(Sarc { size, entries })
    }
}

/// Why a Yaz0 stream does not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Yaz0Error {
    /// Shorter than its 16-byte header, or the magic is not `Yaz0`.
    NotYaz0,
    /// It says it decodes to more than the limit.
    TooLarge(u64),
    /// The stream ends, or a copy reaches before the start, at this offset of the stream.
    Broken(usize),
}

/// Decode the Yaz0 stream that starts `data`: its decoded bytes and how many bytes of `data`
/// it took. Header (0x10): `Yaz0`, decoded size (big-endian), 8 reserved bytes; then groups of
/// a flag byte (high bit first: 1 = one literal byte, 0 = a copy of two bytes `NR RR`, length
/// N + 2, or with N = 0 a third byte + 0x12, from R + 1 bytes back). Refuses a decoded size
/// over `limit`.
pub fn yaz0_decode(data: &[u8], limit: usize) -> Result<(Vec<u8>, usize), Yaz0Error> {
    if data.get(..4) != Some(b"Yaz0") {
        return Err(Yaz0Error::NotYaz0);
    }
    let size = u32_be(data, 4).ok_or(Yaz0Error::NotYaz0)? as usize;
    if size > limit {
        return Err(Yaz0Error::TooLarge(size as u64));
    }
    decode(data, size)
}

/// The first `size` decoded bytes of the Yaz0 stream that starts `data` (at most the size
/// its header states), and how many bytes of `data` they took.
fn decode(data: &[u8], size: usize) -> Result<(Vec<u8>, usize), Yaz0Error> {
    // Never reserve more than the input could make before the bytes arrive.
    let mut out = Vec::with_capacity(size.min(data.len().saturating_mul(8)));
    let mut pos = 16usize;
    let byte = |pos: usize| data.get(pos).copied().ok_or(Yaz0Error::Broken(pos));
    while out.len() < size {
        let flags = byte(pos)?;
        pos += 1;
        for bit in (0..8).rev() {
            if out.len() >= size {
                break;
            }
            if flags >> bit & 1 == 1 {
                out.push(byte(pos)?);
                pos += 1;
                continue;
            }
            let (b0, b1) = (byte(pos)?, byte(pos + 1)?);
            let back = (usize::from(b0 & 0xf) << 8 | usize::from(b1)) + 1;
            let len = match b0 >> 4 {
                0 => {
                    let n = usize::from(byte(pos + 2)?) + 0x12;
                    pos += 3;
                    n
                }
                n => {
                    pos += 2;
                    usize::from(n) + 2
                }
            };
            let from = out.len().checked_sub(back).ok_or(Yaz0Error::Broken(pos))?;
            for k in 0..len.min(size - out.len()) {
                let b = out.get(from + k).copied().ok_or(Yaz0Error::Broken(pos))?;
                out.push(b);
            }
        }
    }
    Ok((out, pos))
}

/// A Yaz0 stream of `data` stored as literals only (a flag byte of 0xff before every 8
/// bytes), for tests and examples; `None` over 4 GiB.
pub fn yaz0_literal(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = b"Yaz0".to_vec();
    out.extend_from_slice(&u32::try_from(data.len()).ok()?.to_be_bytes());
    out.extend_from_slice(&[0; 8]);
    for group in data.chunks(8) {
        out.push(0xff);
        out.extend_from_slice(group);
    }
    Some(out)
}

/// A big-endian SARC archive holding `entries` (name, bytes), each named in SFNT and its data
/// aligned to 0x100, for tests and examples; `None` over 4 GiB.
pub fn sarc_archive(entries: &[(&str, &[u8])]) -> Option<Vec<u8>> {
    let mut names = Vec::new();
    let mut offsets = Vec::new();
    for (name, _) in entries {
        offsets.push(names.len() / 4);
        names.extend_from_slice(name.as_bytes());
        names.push(0);
        while names.len() % 4 != 0 {
            names.push(0);
        }
    }
    let nodes_end = 0x14 + 0xc + 16 * entries.len();
    let header_end = nodes_end + 8 + names.len();
    let data_at = header_end.div_ceil(0x100) * 0x100;
    let mut body = Vec::new();
    let mut nodes = Vec::new();
    for ((_, bytes), name_at) in entries.iter().zip(offsets) {
        while body.len() % 0x100 != 0 {
            body.push(0);
        }
        let start = u32::try_from(body.len()).ok()?;
        body.extend_from_slice(bytes);
        let end = u32::try_from(body.len()).ok()?;
        nodes.extend_from_slice(&0u32.to_be_bytes());
        nodes.extend_from_slice(&(0x0100_0000 | u32::try_from(name_at).ok()?).to_be_bytes());
        nodes.extend_from_slice(&start.to_be_bytes());
        nodes.extend_from_slice(&end.to_be_bytes());
    }
    let total = u32::try_from(data_at + body.len()).ok()?;
    let mut out = b"SARC".to_vec();
    out.extend_from_slice(&[0, 0x14, 0xfe, 0xff]);
    out.extend_from_slice(&total.to_be_bytes());
    out.extend_from_slice(&u32::try_from(data_at).ok()?.to_be_bytes());
    out.extend_from_slice(&[1, 0, 0, 0]);
    out.extend_from_slice(b"SFAT\0\x0c");
    out.extend_from_slice(&u16::try_from(entries.len()).ok()?.to_be_bytes());
    out.extend_from_slice(&0x65u32.to_be_bytes());
    out.extend_from_slice(&nodes);
    out.extend_from_slice(b"SFNT\0\x08\0\0");
    out.extend_from_slice(&names);
    out.resize(data_at, 0);
    out.extend_from_slice(&body);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaz0_literal(data: &[u8]) -> Vec<u8> {
        super::yaz0_literal(data).unwrap()
    }

    #[test]
    fn yaz0_decodes_literals_and_copies() {
        // "abc", then a copy of 3 from 3 back ("abc"), then a long copy (N = 0) of 0x12 + 1.
        let mut s = b"Yaz0".to_vec();
        s.extend_from_slice(&(3u32 + 3 + 0x13).to_be_bytes());
        s.extend_from_slice(&[0; 8]);
        s.extend_from_slice(&[0b1110_0000, b'a', b'b', b'c', 0x10, 0x02, 0x00, 0x00, 0x01]);
        let (out, used) = yaz0_decode(&s, 1 << 20).unwrap();
        assert_eq!(used, s.len());
        // The long copy reads 1 back: "c" 0x13 times after "abcabc".
        let mut want = b"abcabc".to_vec();
        want.extend_from_slice(&[b'c'; 0x13]);
        assert_eq!(out, want);
        let lit = yaz0_literal(b"hello, world");
        assert_eq!(yaz0_decode(&lit, 100).unwrap(), (b"hello, world".to_vec(), lit.len()));
    }

    #[test]
    fn yaz0_refuses_broken_streams() {
        let mut s = yaz0_literal(b"hello, world");
        assert_eq!(yaz0_decode(&s, 4), Err(Yaz0Error::TooLarge(12)));
        s.truncate(s.len() - 1);
        assert_eq!(yaz0_decode(&s, 100), Err(Yaz0Error::Broken(s.len())));
        // A copy from before the start.
        let mut c = b"Yaz0\0\0\0\x04".to_vec();
        c.extend_from_slice(&[0; 8]);
        c.extend_from_slice(&[0x00, 0x20, 0x00]);
        assert_eq!(yaz0_decode(&c, 100), Err(Yaz0Error::Broken(19)));
        assert_eq!(yaz0_decode(b"Yaz", 100), Err(Yaz0Error::NotYaz0));
    }

    #[test]
    fn sarc_entries_that_overlap_are_searched_once() {
        let gsh = crate::format::gfd::build::example();
        let mut sarc = sarc_archive(&[("a.gsh", &gsh), ("b.gsh", &gsh)]).unwrap();
        // Point the second node at the first entry's bytes.
        let (first, second) = (0x14 + 0xc, 0x14 + 0xc + 16);
        let node: Vec<u8> = sarc[first + 8..first + 16].to_vec();
        sarc[second + 8..second + 16].copy_from_slice(&node);
        let finds = find_all(&sarc);
        assert_eq!(finds.len(), 1);
        assert_eq!(finds[0].location(), "sarc@0x0:a.gsh/0x100");
    }

    #[test]
    fn yaz0_streams_share_one_budget() {
        let one = yaz0_literal(&[7u8; 64]);
        let mut s = Search {
            visit: &mut |_, _| {},
            within: Vec::new(),
            budget: 100,
            left: usize::MAX,
            cuts: Vec::new(),
        };
        assert_eq!(s.yaz0(&one, 0, 0), Some(one.len()));
        assert_eq!(s.budget, 36);
        assert!(s.cuts.is_empty());
        // The second decodes as far as the budget goes (36 bytes: 4 groups of a flag byte and
        // 8 literals, a flag byte and 4), and says so.
        assert_eq!(s.yaz0(&one, 0x80, 0), Some(16 + 4 * 9 + 1 + 4));
        assert_eq!(s.budget, 0);
        assert_eq!(s.cuts, vec![Cut { within: Vec::new(), offset: 0x80, size: 64, decoded: 36 }]);
    }

    #[test]
    fn junk_with_magics_finds_nothing() {
        let mut junk = b"MZ\x90\0".to_vec();
        for m in MAGICS {
            junk.extend_from_slice(m);
            junk.extend_from_slice(&[0xff; 40]);
        }
        assert_eq!(find_all(&junk), Vec::new());
    }
}
