//! The one way every command reads an input: bounded, and refused early when it is no shader.
//!
//! An input (a file, or `-` for standard input) is opened and its first bytes
//! ([`Format::HEAD`], a page) are read; what they are decides whether the rest is read at all:
//! an empty input, bytes that are none of the product's formats, and a format this build
//! recognises but does not read yet are refused there (`Format::readable`), so a 3 GB video or
//! `/dev/zero` costs one small read. The size limit (`--max-size`, default 1 GiB) is checked
//! against the file's length before the rest is read, and again while reading, so a special
//! file or an endless pipe stops at the limit with a clear error. A regular file's rest is read
//! into room reserved for exactly its length (no doubling buffer).

use crate::batch::{INVALID, IO};
use shaderscope::Format;
use shaderscope::print::count;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};

/// The default `--max-size`: 1 GiB, far above any shader and below what fills a machine.
pub const DEFAULT_MAX_SIZE: u64 = 1 << 30;

/// Once a group buffer holds other inputs, it may grow by doubling as long as the doubling
/// adds no more than this beyond what is needed (small files share one buffer cheaply; a large
/// file gets exactly its size).
const SLACK: usize = 1 << 22;

static MAX_SIZE: AtomicU64 = AtomicU64::new(DEFAULT_MAX_SIZE);

/// Set the size limit of every later read (`--max-size`).
pub fn set_max_size(bytes: u64) {
    MAX_SIZE.store(bytes, Ordering::Relaxed);
}

/// The size limit in bytes.
pub fn max_size() -> u64 {
    MAX_SIZE.load(Ordering::Relaxed)
}

/// `--max-size BYTES`: a number of bytes, or of KiB, MiB, GiB with a `k`, `M`, `G` suffix
/// (either case; `1G` is 1073741824).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (text.get(..i).unwrap_or(""), Some(c)),
        _ => (text, None),
    };
    let shift = match unit.map(|c| c.to_ascii_lowercase()) {
        None => 0,
        Some('k') => 10,
        Some('m') => 20,
        Some('g') => 30,
        Some(c) => return Err(format!("unknown unit `{c}` (use k, M or G)")),
    };
    let n: u64 = digits.parse().map_err(|_| format!("`{text}` is not a size (e.g. 4096, 64k, 16M, 1G)"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

/// A size for people: `1 GiB`, `64 KiB`, `1000 bytes`.
pub fn size_text(bytes: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    if bytes == 1 { "1 byte".into() } else { format!("{}", count(bytes, "byte")) }
}

/// Why an input was not read, and the exit status that goes with it.
#[derive(Debug)]
pub struct Refusal {
    /// [`INVALID`] for an input that this build cannot read (empty, unknown bytes, a format
    /// recognised but not supported yet); [`IO`] for I/O errors and the size limit.
    pub status: u8,
    /// The message (after `error: PATH: `).
    pub message: String,
    /// The library's error, when the first bytes were the reason.
    pub error: Option<shaderscope::Error>,
    /// A line after the message that says what to do instead ([`embedded_hint`]).
    pub hint: Option<String>,
}

impl Refusal {
    fn io(message: impl Into<String>) -> Self {
        Refusal { status: IO, message: message.into(), error: None, hint: None }
    }

    /// What stderr says: `error: PATH: message`, and the hint line after it.
    pub fn text(&self, path: &str) -> String {
        let mut s = format!("error: {path}: {}\n", self.message);
        if let Some(h) = &self.hint {
            s.push_str(h);
        }
        s
    }

    fn cannot_read(e: &io::Error) -> Self {
        Self::io(format!("cannot read: {e}"))
    }

    /// The refusal for what [`Format::readable`] said about the first bytes. A format that is
    /// recognised but not read yet exits 1 like an input that does not read: the message says
    /// "recognised, not supported yet" (it is not called invalid), and once the format is read
    /// the same file gives 0 or 1, so the status a script sees keeps its kind.
    fn format(e: shaderscope::Error) -> Self {
        Refusal { status: INVALID, message: e.to_string(), error: Some(e), hint: None }
    }
}

/// How much of an input that is no shader binary is searched for embedded ones
/// ([`embedded_hint`]): a game pack or an executable shows what it holds at its start, and a
/// large file that is no shader costs one bounded read and search.
pub const HINT_SEARCH: usize = 16 << 20;

/// The most embedded shader binaries [`embedded_hint`] counts.
pub const HINT_FINDS: usize = 100;

/// For an input that is no shader binary this tool reads: the hint line that names how many
/// shader binaries `scan` finds in it (in `data`, its first [`HINT_SEARCH`] bytes or fewer,
/// `more` when the input goes on after them; [`HINT_FINDS`] at most) and the command that
/// pulls them out. `None` when there are none.
pub fn embedded_hint(path: &str, data: &[u8], more: bool) -> Option<String> {
    let more = more || data.len() > HINT_SEARCH;
    let data = data.get(..HINT_SEARCH).unwrap_or(data);
    let n = shaderscope::find::count(data, HINT_FINDS);
    if n == 0 {
        return None;
    }
    let holds =
        if more { format!("its first {} hold", size_text(data.len() as u64)) } else { "it holds".into() };
    let at_least = if n >= HINT_FINDS { "at least " } else { "" };
    let what = if n == 1 { "1 shader binary".to_string() } else { format!("{n} shader binaries") };
    let file = if path == "-" { "FILE".to_string() } else { shell_word(path) };
    Some(format!("hint: {holds} {at_least}{what} that scan finds: shaderscope scan --extract DIR {file}\n"))
}

/// `word` as one word of a POSIX shell command (single-quoted when it holds anything but
/// letters, digits and `_./+,:@%=-`), for a command a message suggests.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./+,:@%=-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Where an input's bytes come from.
enum Source {
    File(std::fs::File),
    Stdin(io::StdinLock<'static>),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::File(f) => f.read(buf),
            Source::Stdin(s) => s.read(buf),
        }
    }
}

/// An input whose first bytes are at the end of the buffer; the rest is not read yet.
pub struct Head {
    source: Source,
    /// The length of a regular file (from its metadata); `None` for pipes and special files.
    len: Option<u64>,
    /// Where the input starts in the buffer.
    start: usize,
}

/// Open `path` (`-` is standard input) and append its first [`Format::HEAD`] bytes (fewer if
/// it is shorter) to `buf`. Refuses a directory, and what cannot be opened or read.
pub fn open(path: &str, buf: &mut Vec<u8>) -> Result<Head, Refusal> {
    let (mut source, len) = if path == "-" {
        stdin()
    } else {
        let file = std::fs::File::open(path).map_err(|e| Refusal::cannot_read(&e))?;
        let meta = file.metadata().map_err(|e| Refusal::cannot_read(&e))?;
        if meta.is_dir() {
            return Err(Refusal::io(format!(
                "is a directory (to look for shader binaries inside it: shaderscope scan {})",
                shell_word(path)
            )));
        }
        (Source::File(file), meta.is_file().then_some(meta.len()))
    };
    let start = buf.len();
    let head = len.map_or(Format::HEAD as u64, |n| n.min(Format::HEAD as u64));
    reserve(buf, start, head as usize);
    if let Err(e) = (&mut source).take(Format::HEAD as u64).read_to_end(buf) {
        buf.truncate(start);
        return Err(Refusal::cannot_read(&e));
    }
    Ok(Head { source, len, start })
}

/// Standard input: as a file where it is one (`< file`, so its length is known), else a stream.
fn stdin() -> (Source, Option<u64>) {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let file = io::stdin().as_fd().try_clone_to_owned().map(std::fs::File::from);
        if let Ok(file) = file
            && let Ok(meta) = file.metadata()
            && meta.is_file()
        {
            return (Source::File(file), Some(meta.len()));
        }
    }
    (Source::Stdin(io::stdin().lock()), None)
}

impl Head {
    /// Read on to [`HINT_SEARCH`] bytes (within the size limit) and give [`embedded_hint`]'s
    /// line for them; nothing when a read fails.
    fn search(mut self, path: &str, buf: &mut Vec<u8>) -> Option<String> {
        let have = buf.len() - self.start;
        let want = (HINT_SEARCH as u64).min(max_size());
        let room = want.saturating_sub(have as u64);
        if let Some(len) = self.len {
            reserve(buf, self.start, len.min(want).saturating_sub(have as u64) as usize);
        }
        // One byte beyond tells whether the input goes on.
        (&mut self.source).take(room + 1).read_to_end(buf).ok()?;
        let data = buf.get(self.start..)?;
        let more = data.len() as u64 > want;
        embedded_hint(path, data.get(..want as usize).unwrap_or(data), more)
    }

    /// The first bytes (at most [`Format::HEAD`]).
    pub fn bytes<'b>(&self, buf: &'b [u8]) -> &'b [u8] {
        buf.get(self.start..).unwrap_or(&[])
    }

    /// Read the rest of the input after its first bytes, within the size limit.
    pub fn read_rest(mut self, buf: &mut Vec<u8>) -> Result<(), Refusal> {
        let limit = max_size();
        let have = (buf.len() - self.start) as u64;
        let over = || {
            Refusal::io(format!("more than the --max-size limit of {}; stopped reading", size_text(limit)))
        };
        if let Some(len) = self.len {
            if len > limit {
                return Err(Refusal::io(format!(
                    "{}, over the --max-size limit of {}",
                    count(len, "byte"),
                    size_text(limit)
                )));
            }
            reserve(buf, self.start, len.saturating_sub(have) as usize);
        }
        if have > limit {
            return Err(over());
        }
        // One byte beyond the limit tells an input at the limit from one over it.
        let room = limit - have + 1;
        if let Err(e) = (&mut self.source).take(room).read_to_end(buf) {
            return Err(Refusal::cannot_read(&e));
        }
        if (buf.len() - self.start) as u64 > limit {
            return Err(over());
        }
        Ok(())
    }
}

/// Append a whole input that this build reads to `buf` and say its format; anything else is
/// refused from its first bytes, without reading the rest. On a refusal `buf` is as before.
pub fn read(path: &str, buf: &mut Vec<u8>) -> Result<Format, Refusal> {
    let start = buf.len();
    let r = read_checked(path, buf);
    if r.is_err() {
        buf.truncate(start);
    }
    r
}

fn read_checked(path: &str, buf: &mut Vec<u8>) -> Result<Format, Refusal> {
    let head = open(path, buf)?;
    match Format::readable(head.bytes(buf)) {
        Ok(format) => {
            head.read_rest(buf)?;
            Ok(format)
        }
        // Bytes that are none of the formats: a pack or an executable may still hold some.
        Err(e) if !head.bytes(buf).is_empty() && Format::of(head.bytes(buf)).is_none() => {
            let mut r = Refusal::format(e);
            r.hint = head.search(path, buf);
            Err(r)
        }
        Err(e) => Err(Refusal::format(e)),
    }
}

/// [`read`], except that an input which is no format this build reads is not refused: only its
/// first bytes are appended (what `scan` needs to say what it is). I/O errors and the size
/// limit still refuse.
pub fn read_or_head(path: &str, buf: &mut Vec<u8>) -> Result<(), Refusal> {
    let start = buf.len();
    let r = open(path, buf).and_then(|head| match Format::readable(head.bytes(buf)) {
        Ok(_) => head.read_rest(buf),
        Err(_) => Ok(()),
    });
    if r.is_err() {
        buf.truncate(start);
    }
    r
}

/// A whole input within the size limit, whatever its bytes are: nothing is recognised from its
/// first bytes (a bare program for `disasm --format`, an operand-descriptor table, the text
/// `asm` reads). I/O errors and the size limit still refuse.
pub fn read_raw(path: &str, buf: &mut Vec<u8>) -> Result<(), Refusal> {
    let start = buf.len();
    let r = open(path, buf).and_then(|head| head.read_rest(buf));
    if r.is_err() {
        buf.truncate(start);
    }
    r
}

/// Make room for `additional` more bytes of the input that starts at `start`: exactly that when
/// it is the buffer's only input, by doubling (within [`SLACK`]) when small inputs are added
/// after others.
fn reserve(buf: &mut Vec<u8>, start: usize, additional: usize) {
    let need = buf.len().saturating_add(additional);
    if need <= buf.capacity() {
        return;
    }
    let doubled = buf.capacity().saturating_mul(2).min(need.saturating_add(SLACK));
    let target = need.max(if start == 0 { 0 } else { doubled });
    buf.reserve_exact(target - buf.len());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("16M"), Ok(16 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert_eq!(parse_size("1T"), Err("unknown unit `t` (use k, M or G)".into()));
        assert_eq!(parse_size("k"), Err("`k` is not a size (e.g. 4096, 64k, 16M, 1G)".into()));
        assert_eq!(parse_size("-1"), Err("`-1` is not a size (e.g. 4096, 64k, 16M, 1G)".into()));
        assert_eq!(parse_size("99999999999999G"), Err("`99999999999999G` is too large".into()));
        assert_eq!(size_text(1 << 30), "1 GiB");
        assert_eq!(size_text(3 << 10), "3 KiB");
        assert_eq!(size_text(1000), "1000 bytes");
        assert_eq!(size_text(1), "1 byte");
    }

    /// A power of two among the sizes: a doubling buffer would end at twice the size.
    #[test]
    fn a_regular_file_is_read_into_exactly_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.dxbc");
        for size in [1 << 20, (1 << 20) + 3, 100, Format::HEAD, Format::HEAD + 1] {
            let mut data = b"DXBC".to_vec();
            data.resize(size, 7);
            std::fs::write(&p, &data).unwrap();
            let mut buf = Vec::new();
            assert_eq!(read(p.to_str().unwrap(), &mut buf).ok(), Some(Format::Dxbc));
            assert_eq!(buf, data);
            assert_eq!(buf.capacity(), data.len(), "{size}");
        }
    }

    #[test]
    fn small_inputs_share_a_buffer_and_refusals_leave_it_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, b"DVLB\x01\0\0\0").unwrap();
        std::fs::write(&b, b"hello").unwrap();
        let mut buf = Vec::new();
        read(a.to_str().unwrap(), &mut buf).unwrap();
        let r = read(b.to_str().unwrap(), &mut buf).unwrap_err();
        assert_eq!(r.status, INVALID);
        assert_eq!(buf, b"DVLB\x01\0\0\0");
        read_or_head(b.to_str().unwrap(), &mut buf).unwrap();
        assert_eq!(buf, b"DVLB\x01\0\0\0hello");
    }
}
