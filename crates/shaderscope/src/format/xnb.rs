//! XNB files around an effect: what the content pipelines of XNA Game Studio 4, FNA, MonoGame
//! and KNI write for an `Effect` asset, and their `ContentManager` reads with an
//! `EffectReader`. The effect inside is MonoGame's MGFX ([`crate::format::mgfx`]), XNA 4's
//! effect code (an fx_2_0 effect after a small header: [`crate::format::fx9`]) or a bare fx_2_0
//! effect (FNA).
//!
//! ```text
//! "XNB"  u8 platform ('w' Windows, 'x' Xbox 360, 'm' Windows Phone, 'd' DesktopGL, 'a' Android, …)
//!        u8 format version (5), u8 flags (0x01 HiDef profile; 0x80 LZX, 0x40 LZ4: compressed)
//!        u32 file size
//! 7-bit  type reader count, each: string name, i32 version
//! 7-bit  shared resource count, 7-bit type index of the object (1: the first reader)
//! i32    effect size, then the effect's bytes
//! ```
//!
//! The strings and the 7-bit counts are .NET `BinaryWriter`'s ([`Str`], [`Seven`]).
//!
//! XNA Game Studio 4 can compress the content after the header with LZX (flag 0x80): then a
//! u32 follows the header, the size of the content unpacked, and the LZX blocks, each after a
//! big-endian u16 of its compressed size (or `ff`, a u16 of the bytes it unpacks to, and the
//! u16 size; 32 KiB otherwise). [`Packed`] reads such a file through the uncompressed XNB
//! its blocks unpack to ([`unpack`]). MonoGame's LZ4 compression (flag 0x40) is refused.
//!
//! ```
//! use shaderscope::format::xnb::{self, Xnb};
//!
//! let effect = shaderscope::format::fx9::build::example();
//! let x = Xnb::effect(b'w');
//! let bytes = x.write(&effect, false)?;
//! let (read, range) = xnb::read(&bytes, None)?;
//! assert_eq!(&bytes[range], &effect[..]);
//! assert_eq!(read.reader.to_string(), xnb::XNA_EFFECT_READER);
//! assert_eq!(read.size as usize, bytes.len());
//! assert_eq!(
//!     xnb::read(&bytes[..20], None).unwrap_err().to_string(),
//!     "truncated XNB type reader name at offset 0xd (need 145 bytes, have 7)"
//! );
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::any::File;
use crate::container::{Container, DisasmOptions};
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::json::DisasmSink;
use crate::model::{Finding, Part};
use crate::print::{Printer, count};
use crate::shader::Shader;
use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// The type reader XNA Game Studio 4's content pipeline names for an effect (FNA, MonoGame and
/// KNI read it too).
pub const XNA_EFFECT_READER: &str = "Microsoft.Xna.Framework.Content.EffectReader, \
     Microsoft.Xna.Framework.Graphics, Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553";

/// A .NET `BinaryWriter` string: a 7-bit encoded length, then the bytes (UTF-8).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Str {
    /// The bytes as stored.
    pub bytes: Vec<u8>,
    /// How many bytes the length took (more than it needs in a file that pads it).
    pub prefix: u8,
}

impl Str {
    /// A string with the shortest length prefix.
    pub fn new(text: &str) -> Str {
        let bytes = text.as_bytes().to_vec();
        Str { prefix: Seven::width_of(bytes.len() as u32), bytes }
    }

    /// Read the string at `at` of `data`, with `what` naming it in an error.
    pub fn read(data: &[u8], at: usize, what: &str) -> Result<Str> {
        let len = Seven::read(data, at, &format!("{what} length"))?;
        let start = at + usize::from(len.width);
        let bytes = data.get(start..).and_then(|b| b.get(..len.value as usize)).ok_or_else(|| {
            let have = data.len().saturating_sub(start) as u64;
            Error::truncated(start as u64, what.to_string(), u64::from(len.value), have)
        })?;
        Ok(Str { bytes: bytes.to_vec(), prefix: len.width })
    }

    /// The bytes it takes: the length prefix and the text.
    pub fn size(&self) -> usize {
        usize::from(self.prefix) + self.bytes.len()
    }

    /// Append it as stored (the length in `prefix` bytes).
    pub fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        let len = u32::try_from(self.bytes.len())
            .map_err(|_| Error::invalid(0, "string", "longer than 4 GiB: cannot be written"))?;
        Seven { value: len, width: self.prefix.max(Seven::width_of(len)) }.write(out);
        out.extend_from_slice(&self.bytes);
        Ok(())
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.bytes))
    }
}

/// A .NET 7-bit encoded integer (at most 5 bytes), with the number of bytes it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Seven {
    /// The value.
    pub value: u32,
    /// Bytes it took (1 to 5).
    pub width: u8,
}

impl Seven {
    /// The shortest encoding's width for `value`.
    pub fn width_of(value: u32) -> u8 {
        let mut n = 1;
        let mut v = value >> 7;
        while v != 0 {
            n += 1;
            v >>= 7;
        }
        n
    }

    /// The value in its shortest encoding.
    pub fn new(value: u32) -> Seven {
        Seven { value, width: Seven::width_of(value) }
    }

    /// Read the integer at `at` of `data`: at most 5 bytes, and at most 32 bits.
    pub fn read(data: &[u8], at: usize, what: &str) -> Result<Seven> {
        let mut value: u64 = 0;
        for i in 0..5u8 {
            let pos = at + usize::from(i);
            let b = *data.get(pos).ok_or_else(|| Error::truncated(pos as u64, what.to_string(), 1, 0))?;
            value |= u64::from(b & 0x7f) << (7 * u32::from(i));
            if b & 0x80 == 0 {
                let value = u32::try_from(value).map_err(|_| {
                    Error::invalid(at as u64, what.to_string(), "a 7-bit encoded integer larger than 32 bits")
                })?;
                return Ok(Seven { value, width: i + 1 });
            }
        }
        Err(Error::invalid(at as u64, what.to_string(), "a 7-bit encoded integer longer than 5 bytes"))
    }

    /// Append it in `width` bytes (a wider encoding than needed pads with continuation bits;
    /// never narrower than the value needs).
    pub fn write(self, out: &mut Vec<u8>) {
        let width = self.width.clamp(Seven::width_of(self.value), 5);
        let mut v = self.value;
        for i in 0..width {
            let more = i + 1 < width;
            out.push((v & 0x7f) as u8 | if more { 0x80 } else { 0 });
            v >>= 7;
        }
    }
}

/// The XNB header around an effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Xnb {
    /// The target platform letter (`w` Windows, `x` Xbox 360, `d` DesktopGL, `a` Android, …).
    pub platform: u8,
    /// The XNB format version (5).
    pub version: u8,
    /// Flags (0x01 HiDef profile; 0x80 / 0x40 compressed: not read).
    pub flags: u8,
    /// The file size the header states.
    pub size: u32,
    /// The number of type readers (1).
    pub readers: Seven,
    /// The type reader's name (`Microsoft.Xna.Framework.Content.EffectReader, …`).
    pub reader: Str,
    /// The type reader's version.
    pub reader_version: i32,
    /// The number of shared resources (0).
    pub shared: Seven,
    /// The type index of the object that follows (1: the first reader).
    pub type_index: Seven,
    /// The effect size the XNB states before it.
    pub effect_size: u32,
    /// Bytes after the effect, kept.
    pub after: Vec<u8>,
}

impl Xnb {
    /// The header XNA Game Studio 4 writes for an effect on `platform`, HiDef, uncompressed.
    pub fn effect(platform: u8) -> Xnb {
        Xnb {
            platform,
            version: 5,
            flags: 1,
            size: 0,
            readers: Seven::new(1),
            reader: Str::new(XNA_EFFECT_READER),
            reader_version: 0,
            shared: Seven::new(0),
            type_index: Seven::new(1),
            effect_size: 0,
            after: Vec::new(),
        }
    }

    /// The platform letter, printable.
    pub fn platform_name(&self) -> String {
        char::from(self.platform).escape_debug().to_string()
    }

    /// An XNB file around `effect`: the header's sizes worked out (the file size kept as it
    /// was read when `keep_size`, for a file whose stated size was not its own).
    pub fn write(&self, effect: &[u8], keep_size: bool) -> Result<Vec<u8>> {
        let too_big = |what: &'static str| Error::invalid(0, what, "larger than 2 GiB: cannot be written");
        let mut out = b"XNB".to_vec();
        out.extend([self.platform, self.version, self.flags, 0, 0, 0, 0]);
        self.readers.write(&mut out);
        self.reader.write(&mut out)?;
        out.extend(self.reader_version.to_le_bytes());
        self.shared.write(&mut out);
        self.type_index.write(&mut out);
        let len = i32::try_from(effect.len()).map_err(|_| too_big("effect size"))?;
        out.extend(len.to_le_bytes());
        out.extend_from_slice(effect);
        out.extend_from_slice(&self.after);
        let total = match keep_size {
            true => self.size,
            false => u32::try_from(out.len()).map_err(|_| too_big("XNB size"))?,
        };
        if let Some(field) = out.get_mut(6..10) {
            field.copy_from_slice(&total.to_le_bytes());
        }
        Ok(out)
    }

    /// [`Xnb::write`] for a file of `file_len` bytes that was read with this header: a stated
    /// size that was the file's is worked out again, one that was not is kept.
    pub fn write_again(&self, effect: &[u8], file_len: usize) -> Result<Vec<u8>> {
        self.write(effect, self.size as usize != file_len)
    }

    /// What `validate` reports of the header around an effect at `effect_at` of a file of
    /// `file_len` bytes.
    pub fn findings(&self, file_len: usize, effect_at: u64) -> Vec<Finding> {
        let mut out = Vec::new();
        if self.size as usize != file_len {
            out.push(Finding::error(
                6,
                format!("the XNB header says the file is {} bytes, it is {file_len}", self.size),
            ));
        }
        if !self.after.is_empty() {
            out.push(Finding::warning(
                effect_at + u64::from(self.effect_size),
                format!("{} after the effect in the XNB", count(self.after.len(), "byte")),
            ));
        }
        out
    }
}

/// What `info` says of an XNB header (the text line and the JSON object; an effect's own
/// info adds where its effect is).
#[derive(Debug, serde::Serialize)]
pub(crate) struct XnbInfo {
    platform: String,
    version: u8,
    flags: u8,
    size: u32,
    reader: String,
    reader_version: i32,
}

impl XnbInfo {
    pub(crate) fn of(x: &Xnb) -> XnbInfo {
        XnbInfo {
            platform: char::from(x.platform).to_string(),
            version: x.version,
            flags: x.flags,
            size: x.size,
            reader: x.reader.to_string(),
            reader_version: x.reader_version,
        }
    }

    /// `XNB: platform 'w', version 5, flags 0x01, size 4900, reader "…" version 0`.
    pub(crate) fn write_text(&self, s: &mut dyn fmt::Write) -> fmt::Result {
        writeln!(
            s,
            "XNB: platform '{}', version {}, flags 0x{:02x}, size {}, reader \"{}\" version {}",
            self.platform.escape_debug(),
            self.version,
            self.flags,
            self.size,
            self.reader,
            self.reader_version
        )
    }
}

/// Whether a type reader's name (`Namespace.Type, Assembly, …`) names an `EffectReader`
/// (and not, say, a `SoundEffectReader`).
pub fn is_effect_reader(name: &[u8]) -> bool {
    let ty = name.split(|&b| b == b',').next().unwrap_or(&[]).trim_ascii();
    ty == b"EffectReader" || ty.ends_with(b".EffectReader")
}

/// Whether `data` is an XNB file (its magic).
pub fn is_xnb(data: &[u8]) -> bool {
    data.starts_with(b"XNB")
}

/// The effect in `data`: the XNB's (its header read, and annotated into `ann` when given) when
/// `data` is an XNB file, else the whole input.
pub fn unwrap(data: &[u8], ann: Option<&mut Annotations>) -> Result<(Option<Xnb>, Range<usize>)> {
    match is_xnb(data) {
        true => read(data, ann).map(|(x, range)| (Some(x), range)),
        false => Ok((None, 0..data.len())),
    }
}

/// Read the XNB header of `data` up to the effect it holds, annotating it into `ann` as it
/// goes (a damaged header is annotated up to where it fails). Gives the header and the
/// effect's range; the bytes after the effect are kept in [`Xnb::after`].
pub fn read(data: &[u8], mut ann: Option<&mut Annotations>) -> Result<(Xnb, Range<usize>)> {
    let head =
        data.first_chunk::<10>().ok_or_else(|| Error::truncated(0, "XNB header", 10, data.len() as u64))?;
    let [_, _, _, platform, version, flags, s0, s1, s2, s3] = *head;
    let size = u32::from_le_bytes([s0, s1, s2, s3]);
    if let Some(a) = ann.as_deref_mut() {
        a.section(0, data.len() as u64, "XNB file (XNA, FNA or MonoGame content)");
        a.field(0, 3, "magic: \"XNB\"");
        a.field(3, 1, format_args!("platform: '{}'", char::from(platform).escape_debug()));
        a.field(4, 1, format_args!("XNB version: {version}"));
        a.field(5, 1, format_args!("flags: 0x{flags:02x}"));
        a.field(6, 4, format_args!("file size: {size}"));
    }
    if version != 5 {
        return Err(Error::unsupported(4, "XNB version", format!("version {version} is not read (only 5)")));
    }
    if flags & (LZX | LZ4) != 0 {
        return Err(Error::unsupported(
            5,
            "XNB flags",
            format!("a compressed XNB (flags 0x{flags:02x}): its content is read unpacked (xnb::Packed)"),
        ));
    }
    let mut at = 10;
    let note = |ann: &mut Option<&mut Annotations>, at: usize, len: usize, text: String| {
        if let Some(a) = ann.as_deref_mut() {
            a.field(at as u64, len as u64, text);
        }
    };
    let readers = Seven::read(data, at, "XNB type reader count")?;
    note(&mut ann, at, readers.width.into(), format!("type reader count: {}", readers.value));
    if readers.value != 1 {
        return Err(Error::unsupported(
            at as u64,
            "XNB type reader count",
            format!("{} type readers: an effect's XNB has one, its EffectReader", readers.value),
        ));
    }
    at += usize::from(readers.width);
    let reader = Str::read(data, at, "XNB type reader name")?;
    note(&mut ann, at, reader.prefix.into(), format!("type reader length: {}", reader.bytes.len()));
    note(
        &mut ann,
        at + usize::from(reader.prefix),
        reader.bytes.len(),
        format!("type reader: \"{}\"", reader.to_string().escape_debug()),
    );
    if !is_effect_reader(&reader.bytes) {
        return Err(Error::unsupported(
            at as u64,
            "XNB type reader name",
            format!("the XNB holds a \"{reader}\" object, not an effect"),
        ));
    }
    at += reader.size();
    let i32_at = |at: usize, what: &'static str| {
        crate::toolkit::le_u32(data, at)
            .map(|v| v as i32)
            .ok_or_else(|| Error::truncated(at as u64, what, 4, data.len().saturating_sub(at) as u64))
    };
    let reader_version = i32_at(at, "XNB type reader version")?;
    note(&mut ann, at, 4, format!("type reader version: {reader_version}"));
    at += 4;
    let shared = Seven::read(data, at, "XNB shared resource count")?;
    note(&mut ann, at, shared.width.into(), format!("shared resource count: {}", shared.value));
    at += usize::from(shared.width);
    let type_index = Seven::read(data, at, "XNB type index")?;
    note(&mut ann, at, type_index.width.into(), format!("object type index: {}", type_index.value));
    at += usize::from(type_index.width);
    let effect_size = i32_at(at, "XNB effect size")?;
    note(&mut ann, at, 4, format!("effect size: {effect_size}"));
    let start = at + 4;
    let left = data.len().saturating_sub(start);
    let len = usize::try_from(effect_size).ok().filter(|n| *n <= left).ok_or_else(|| {
        Error::out_of_bounds(
            at as u64,
            "XNB effect",
            start as u64,
            effect_size as u32 as u64,
            data.len() as u64,
        )
    })?;
    let after = data.get(start + len..).unwrap_or(&[]);
    if !after.is_empty() {
        if let Some(a) = ann {
            a.fallback((start + len) as u64, after.len() as u64, "after the effect the XNB holds");
        }
    }
    let x = Xnb {
        platform,
        version,
        flags,
        size,
        readers,
        reader,
        reader_version,
        shared,
        type_index,
        effect_size: effect_size as u32,
        after: after.to_vec(),
    };
    Ok((x, start..start + len))
}

/// The flag of LZX-compressed content.
pub const LZX: u8 = 0x80;

/// The flag of LZ4-compressed content (MonoGame; not read).
pub const LZ4: u8 = 0x40;

/// Whether `data` is an XNB whose content is compressed (LZX or LZ4).
pub fn is_packed(data: &[u8]) -> bool {
    is_xnb(data) && data.get(5).is_some_and(|f| f & (LZX | LZ4) != 0)
}

/// The head of an LZX block in a compressed XNB: the bytes its frame unpacks to and the
/// block's compressed size. Stored as a big-endian u16 size (a frame of [`BlockHead::FRAME`]),
/// or `ff`, a u16 frame size and the u16 size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BlockHead {
    frame: usize,
    size: usize,
}

impl BlockHead {
    /// What a frame unpacks to unless its head says otherwise: 32 KiB.
    const FRAME: usize = 0x8000;

    /// The head at the start of `bytes` and the bytes it takes; `None` when fewer than two.
    fn read(bytes: &[u8]) -> Option<(BlockHead, usize)> {
        let be = |hi: u8, lo: u8| usize::from(u16::from_be_bytes([hi, lo]));
        match *bytes {
            [0xff, f0, f1, s0, s1, ..] => Some((BlockHead { frame: be(f0, f1), size: be(s0, s1) }, 5)),
            [s0, s1, ..] => Some((BlockHead { frame: Self::FRAME, size: be(s0, s1) }, 2)),
            _ => None,
        }
    }

    /// Append it (both sizes fit a u16: a frame is at most 32 KiB, its block a few bytes more).
    fn write(self, out: &mut Vec<u8>) {
        if self.frame != Self::FRAME {
            out.push(0xff);
            out.extend((self.frame as u16).to_be_bytes());
        }
        out.extend((self.size as u16).to_be_bytes());
    }
}

/// The uncompressed XNB of an LZX-compressed one: the same header with the compression flag
/// cleared and the unpacked file's size, then the content its LZX blocks unpack to. What it
/// may unpack to is bounded (8 MiB plus 4 times the input: an effect is far smaller), so that
/// reading the unpacked file stays within the resource limits (ARCHITECTURE.md).
pub fn unpack(data: &[u8]) -> Result<Vec<u8>> {
    let head = data
        .first_chunk::<14>()
        .ok_or_else(|| Error::truncated(0, "compressed XNB header", 14, data.len() as u64))?;
    let flags = head[5];
    if flags & LZ4 != 0 || flags & LZX == 0 {
        return Err(Error::unsupported(
            5,
            "XNB flags",
            format!("flags 0x{flags:02x}: only LZX compression (0x80, XNA Game Studio's) is unpacked"),
        ));
    }
    let size = u32::from_le_bytes([head[6], head[7], head[8], head[9]]) as usize;
    let unpacked = u32::from_le_bytes([head[10], head[11], head[12], head[13]]) as usize;
    let end = (size <= data.len() && size >= 14).then_some(size).ok_or_else(|| {
        Error::invalid(
            6,
            "XNB file size",
            format!("{size} does not fit the file's {} bytes and its header", data.len()),
        )
    })?;
    let limit = (8usize << 20).saturating_add(data.len().saturating_mul(4));
    if unpacked > limit {
        return Err(Error::invalid(
            10,
            "XNB unpacked size",
            format!("{unpacked} bytes is more than this input may unpack to ({limit})"),
        ));
    }
    let mut out = Vec::with_capacity(10 + unpacked);
    out.extend_from_slice(b"XNB");
    out.extend([head[3], head[4], flags & !(LZX | LZ4), 0, 0, 0, 0]);
    let mut lzx = lzxd::Lzxd::new(lzxd::WindowSize::KB64);
    let mut at = 14;
    while at < end && out.len() - 10 < unpacked {
        let (BlockHead { frame, size: block }, header) = BlockHead::read(data.get(at..end).unwrap_or(&[]))
            .ok_or_else(|| Error::truncated(at as u64, "LZX block header", 2, (end - at) as u64))?;
        let start = at + header;
        let bytes = data.get(start..start + block).filter(|_| start + block <= end).ok_or_else(|| {
            Error::out_of_bounds(at as u64, "LZX block", start as u64, block as u64, end as u64)
        })?;
        let want = frame.min(unpacked - (out.len() - 10));
        let frame_out = lzx
            .decompress_next(bytes, want)
            .map_err(|e| Error::invalid(at as u64, "LZX block", format!("does not unpack: {e}")))?;
        out.extend_from_slice(frame_out);
        at = start + block;
    }
    if out.len() - 10 != unpacked {
        return Err(Error::invalid(
            10,
            "XNB unpacked size",
            format!("the LZX blocks unpack to {} bytes, the header says {unpacked}", out.len() - 10),
        ));
    }
    let total =
        u32::try_from(out.len()).map_err(|_| Error::invalid(10, "XNB unpacked size", "larger than 4 GiB"))?;
    if let Some(field) = out.get_mut(6..10) {
        field.copy_from_slice(&total.to_le_bytes());
    }
    Ok(out)
}

/// An uncompressed XNB file LZX-compressed as XNA Game Studio 4 frames it: 32 KiB frames,
/// each one LZX *uncompressed* block (the bytes as they are: what is written is no smaller,
/// but every LZX decoder reads it), the XNB's compression flag set. [`unpack`] gives `xnb`
/// back.
///
/// ```
/// use shaderscope::format::xnb;
/// let plain = shaderscope::format::fx9::build::xna_content(&shaderscope::format::fx9::build::example(), &[0; 8], b'w')?;
/// let packed = xnb::pack(&plain)?;
/// assert_eq!((packed[5], xnb::unpack(&packed)?), (0x81, plain));
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub fn pack(xnb: &[u8]) -> Result<Vec<u8>> {
    let (head, content) = xnb
        .split_first_chunk::<10>()
        .ok_or_else(|| Error::truncated(0, "XNB header", 10, xnb.len() as u64))?;
    let too_big = || Error::invalid(6, "XNB size", "larger than 4 GiB: cannot be written");
    let mut out = head.to_vec();
    if let Some(flags) = out.get_mut(5) {
        *flags |= LZX;
    }
    out.extend(u32::try_from(content.len()).map_err(|_| too_big())?.to_le_bytes());
    for (i, frame) in content.chunks(BlockHead::FRAME).enumerate() {
        // The block header's bits, first to last: (first frame only) E8 translation off,
        // block type 3 (uncompressed), its 24-bit size; to the next 16-bit word, then R0-R2.
        let mut bits: Vec<bool> = Vec::with_capacity(32);
        if i == 0 {
            bits.push(false);
        }
        bits.extend([false, true, true]);
        bits.extend((0..24).rev().map(|b| frame.len() >> b & 1 == 1));
        bits.resize(bits.len().next_multiple_of(16), false);
        let mut block: Vec<u8> = bits
            .chunks(16)
            .flat_map(|w| w.iter().fold(0u16, |acc, &b| acc << 1 | u16::from(b)).to_le_bytes())
            .collect();
        for _ in 0..3 {
            block.extend(1u32.to_le_bytes());
        }
        block.extend_from_slice(frame);
        if frame.len() % 2 == 1 {
            block.push(0);
        }
        BlockHead { frame: frame.len(), size: block.len() }.write(&mut out);
        out.extend(block);
    }
    let total = u32::try_from(out.len()).map_err(|_| too_big())?;
    if let Some(field) = out.get_mut(6..10) {
        field.copy_from_slice(&total.to_le_bytes());
    }
    Ok(out)
}

/// An LZX-compressed XNB file: read through the uncompressed XNB it unpacks to, which the
/// effect's own format reads. Offsets in its listing, info and parts are the unpacked XNB's
/// (`extract FILE unpacked` gives it); `dump` shows the compressed file's header and blocks.
/// Written back unchanged it gives the file it was read from; a changed model is written
/// compressed again with [`pack`].
#[derive(Clone)]
pub struct Packed<'a> {
    /// The file as read.
    pub data: &'a [u8],
    /// The uncompressed XNB and its model.
    unpacked: Arc<Shader>,
}

impl fmt::Debug for Packed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Packed").field("size", &self.data.len()).field("unpacked", &self.unpacked).finish()
    }
}

impl<'a> Packed<'a> {
    /// Unpack `data` and read what it holds.
    pub fn parse(data: &'a [u8]) -> Result<Packed<'a>> {
        let bytes = unpack(data)?;
        let shader = Shader::parse(bytes).map_err(|e| e.context("unpacked "))?;
        Ok(Packed { data, unpacked: Arc::new(shader) })
    }

    /// The uncompressed XNB.
    pub fn unpacked(&self) -> &[u8] {
        self.unpacked.bytes()
    }

    /// The model of the uncompressed XNB.
    pub fn file(&self) -> &File<'_> {
        self.unpacked.file()
    }
}

/// `parts` of the unpacked file, owning their bytes.
fn owned(parts: Vec<Part<'_>>) -> Vec<Part<'static>> {
    parts
        .into_iter()
        .map(|p| Part {
            name: p.name,
            offset: p.offset,
            description: p.description,
            bytes: Cow::Owned(p.bytes.into_owned()),
        })
        .collect()
}

impl Container for Packed<'_> {
    fn format(&self) -> Format {
        self.file().format()
    }

    fn write_info_text(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        self.file().write_info_text(out)?;
        writeln!(
            out,
            "compressed: LZX, {} unpack to {} (the offsets above are the unpacked XNB's: `extract FILE unpacked`)",
            count(self.data.len(), "byte"),
            self.unpacked().len()
        )
    }

    fn write_info_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.file().write_info_json(out)
    }

    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        self.file().disasm(opts, out)
    }

    fn write_disasm_json(&self, opts: &DisasmOptions, out: &mut dyn DisasmSink) -> Result<()> {
        self.file().write_disasm_json(opts, out)
    }

    fn annotate(&self, a: &mut Annotations) {
        let d = self.data;
        let size = crate::toolkit::le_u32(d, 6).unwrap_or(0);
        a.section(0, d.len() as u64, "XNB file, LZX-compressed");
        a.field(0, 3, "magic: \"XNB\"");
        a.field(
            3,
            1,
            format_args!("platform: '{}'", d.get(3).map_or(' ', |&b| char::from(b)).escape_debug()),
        );
        a.field(4, 1, format_args!("XNB version: {}", d.get(4).copied().unwrap_or(0)));
        a.field(5, 1, format_args!("flags: 0x{:02x} (LZX-compressed)", d.get(5).copied().unwrap_or(0)));
        a.field(6, 4, format_args!("file size: {size}"));
        a.field(10, 4, format_args!("unpacked content size: {}", self.unpacked().len() - 10));
        let mut at = 14;
        let end = (size as usize).min(d.len());
        let mut n = 0;
        while at < end {
            // A two-byte head of size 0 ends the blocks.
            let (block, header) = match BlockHead::read(d.get(at..end).unwrap_or(&[])) {
                Some((h, header)) if header == 5 || h.size != 0 => (h.size, header),
                _ => {
                    a.field(at as u64, (end - at) as u64, "after the blocks (an empty block ends them)");
                    break;
                }
            };
            let len = (header + block).min(end - at);
            a.section(at as u64, len as u64, format_args!("LZX block {n}"));
            a.field(at as u64, header as u64, format_args!("block header: {block} bytes"));
            a.field((at + header) as u64, (len - header) as u64, "compressed content");
            at += len;
            n += 1;
        }
    }

    fn validate(&self) -> Vec<Finding> {
        // Their offsets are the unpacked file's: each says so.
        let unpacked = |f: Finding| Finding { message: format!("in the unpacked XNB: {}", f.message), ..f };
        self.file().validate().into_iter().map(unpacked).collect()
    }

    fn damage(&self) -> Vec<Error> {
        self.file().damage().into_iter().map(|e| e.context("unpacked ")).collect()
    }

    fn write(&self) -> Result<Vec<u8>> {
        let bytes = self.file().write()?;
        // Unchanged: the file as it was; changed: packed again (in uncompressed LZX blocks).
        if bytes == self.unpacked() { Ok(self.data.to_vec()) } else { pack(&bytes) }
    }

    fn parts(&self) -> Vec<Part<'_>> {
        let mut parts = vec![Part::new(
            "unpacked",
            0,
            self.unpacked(),
            "the uncompressed XNB (offsets of the other parts are in it)",
        )];
        parts.extend(owned(self.file().parts()));
        parts
    }

    fn embedded(&self) -> Vec<Part<'_>> {
        owned(self.file().embedded())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_bit_integers_read_and_write_in_their_width() {
        for (bytes, value) in
            [(&[0x00][..], 0), (&[0x7f], 127), (&[0x80, 0x01], 128), (&[0x81, 0x80, 0x00], 1)]
        {
            let s = Seven::read(bytes, 0, "n").unwrap();
            assert_eq!((s.value, usize::from(s.width)), (value, bytes.len()));
            let mut out = Vec::new();
            s.write(&mut out);
            assert_eq!(out, bytes);
        }
        assert_eq!(
            Seven::read(&[0xff, 0xff, 0xff, 0xff, 0x7f], 0, "count").unwrap_err().to_string(),
            "invalid count at offset 0x0: a 7-bit encoded integer larger than 32 bits"
        );
        assert_eq!(
            Seven::read(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x01], 0, "count").unwrap_err().to_string(),
            "invalid count at offset 0x0: a 7-bit encoded integer longer than 5 bytes"
        );
    }

    #[test]
    fn a_header_is_read_checked_and_written_back() {
        let mut x = Xnb::effect(b'x');
        x.after = vec![9, 9];
        let bytes = x.write(b"EFFECT", false).unwrap();
        let (r, range) = read(&bytes, None).unwrap();
        assert_eq!((&bytes[range.clone()], r.size as usize), (&b"EFFECT"[..], bytes.len()));
        assert_eq!(r.write(b"EFFECT", true).unwrap(), bytes);
        let f = r.findings(bytes.len(), range.start as u64);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].message, "2 bytes after the effect in the XNB");

        let mut damaged = bytes.clone();
        damaged[4] = 4;
        assert_eq!(
            read(&damaged, None).unwrap_err().to_string(),
            "unsupported XNB version at offset 0x4: version 4 is not read (only 5)"
        );
        damaged[4] = 5;
        damaged[5] = 0x81;
        assert_eq!(
            read(&damaged, None).unwrap_err().to_string(),
            "unsupported XNB flags at offset 0x5: a compressed XNB (flags 0x81): its content is read unpacked (xnb::Packed)"
        );
        let mut sound = Xnb::effect(b'w');
        sound.reader = Str::new("Microsoft.Xna.Framework.Content.SoundEffectReader");
        let t = sound.write(b"", false).unwrap();
        assert_eq!(
            read(&t, None).unwrap_err().to_string(),
            "unsupported XNB type reader name at offset 0xb: the XNB holds a \
             \"Microsoft.Xna.Framework.Content.SoundEffectReader\" object, not an effect"
        );
        assert_eq!(crate::detect(&t), None);
        assert!(is_effect_reader(b"Microsoft.Xna.Framework.Content.EffectReader, MonoGame.Framework"));
        assert!(is_effect_reader(b"EffectReader"));
        let cut = &bytes[..range.start + 2];
        assert_eq!(
            read(cut, None).unwrap_err().to_string(),
            format!(
                "XNB effect at offset 0x{:x} points outside its range (0x{:x} + 0x6 is outside 0x{:x})",
                range.start - 4,
                range.start,
                cut.len()
            )
        );
    }

    #[test]
    fn packed_content_unpacks_across_frames() {
        // Three frames: two of 32 KiB, one of an odd size.
        let mut x = Xnb::effect(b'w');
        x.reader = Str::new("Microsoft.Xna.Framework.Content.EffectReader");
        let effect: Vec<u8> = (0..70_001u32).map(|i| (i * 7 % 251) as u8).collect();
        let plain = x.write(&effect, false).unwrap();
        let packed = pack(&plain).unwrap();
        assert_eq!(packed[5], 0x81);
        assert_eq!(unpack(&packed).unwrap(), plain);
        // The first frame's size is implied (32 KiB): its block header is two bytes.
        let first = u16::from_be_bytes([packed[14], packed[15]]) as usize;
        assert_eq!(first, 4 + 12 + 0x8000);
        // The last frame (what is left of the content) says how much it unpacks to.
        let last = 14 + 2 * (2 + first);
        let rest = (plain.len() - 10 - 0x10000) as u16;
        assert_eq!(packed[last..last + 3], [0xff, rest.to_be_bytes()[0], rest.to_be_bytes()[1]]);

        // A block of no known type (0), a size the blocks do not reach, LZ4.
        let mut bad = packed.clone();
        bad[16..18].copy_from_slice(&[0, 0]);
        let e = unpack(&bad).unwrap_err().to_string();
        assert!(e.starts_with("invalid LZX block at offset 0xe: does not unpack: "), "{e}");
        let mut bad = packed.clone();
        bad[10..14].copy_from_slice(&80_000u32.to_le_bytes());
        assert_eq!(
            unpack(&bad).unwrap_err().to_string(),
            format!(
                "invalid XNB unpacked size at offset 0xa: the LZX blocks unpack to {} bytes, the header says 80000",
                plain.len() - 10
            )
        );
        bad[10..14].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(unpack(&bad).unwrap_err().to_string().contains("is more than this input may unpack to"));
        let mut lz4 = packed.clone();
        lz4[5] = 0x41;
        assert_eq!(
            unpack(&lz4).unwrap_err().to_string(),
            "unsupported XNB flags at offset 0x5: flags 0x41: only LZX compression (0x80, XNA Game Studio's) is unpacked"
        );
        let mut cut = packed.clone();
        cut.truncate(100);
        cut[6..10].copy_from_slice(&100u32.to_le_bytes());
        assert_eq!(
            unpack(&cut).unwrap_err().to_string(),
            format!("LZX block at offset 0xe points outside its range (0x10 + 0x{first:x} is outside 0x64)")
        );
    }
}
