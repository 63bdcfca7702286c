//! The JSON records of `--json` (JSON Lines: one record per input), one schema for every
//! command and format.
//!
//! Every record starts with the same envelope ([`Record`]): `schema` ([`SCHEMA_VERSION`]),
//! `type` (the command: `info`, `disasm`, `validate`, `scan`, `scan-summary`; `finding` for
//! one finding of `validate`), `format` (the
//! name [`Format::name`] gives, `null` when the input could not be recognised), `path`, `valid`
//! and, when the input could not be read or parsed, `error` ([`ErrorInfo`]: message, kind,
//! structure and absolute offset). The command's own fields follow: an `info` record has the
//! format's summary (DXBC reflection, the DVLBs of a 3DS file, …), a `disasm` record has
//! `programs[]` ([`Program`]) whose `instructions[]` are the
//! [`InstructionRecord`]s every instruction set shares. `validate` writes one `finding`
//! record per finding (`severity`, `offset`, `message`; `valid` false when that finding makes
//! the check fail), then one `validate` record closing the file with `valid` and the counts
//! `errors` and `warnings` ([`File::validate_records`](crate::File::validate_records)).
//! Every offset is an absolute byte offset in the input (in the decoded bytes of a `.csdr`);
//! every enum value is the name a user types on the command line (the fxc generation is
//! `"9.30"`).
//!
//! The schema is documented field by field in `schema/shaderscope.schema.json` (JSON Schema
//! draft 2020-12) in the repository; a test checks every record the corpus gives against it.
//!
//! A record is written field by field into an [`std::io::Write`] as the format makes its
//! pieces, never held whole: [`Record::write_with`] splices a body's members after the
//! envelope as they come, an `info` record's body is the format's summary serialised straight
//! to the writer ([`Container::write_info_json`](crate::Container::write_info_json)), and a
//! `disasm` record's is written by [`write_disasm_record`] from what the format gives a
//! [`DisasmSink`]: the listing's text (JSON-escaped as it is printed), then each program's
//! head and its instruction records one at a time. [`Record::to_line`],
//! [`Disasm::collect`] and the `File` methods that return a [`Record`] keep the same pieces
//! in memory.
//!
//! ```
//! use shaderscope::json::{ErrorInfo, Record, RecordType};
//! use shaderscope::Container;
//!
//! # let bytes = shaderscope::shbin::build::example_vertex_shader();
//! let file = shaderscope::parse(&bytes)?;
//! let line = Record::new(RecordType::Info, "v.shbin", Some(file.format())).with_body(file.info_json()).to_line();
//! let v: serde_json::Value = serde_json::from_str(&line).unwrap();
//! assert_eq!((v["schema"].as_u64(), v["type"].as_str(), v["format"].as_str()), (Some(3), Some("info"), Some("shbin")));
//! assert_eq!((v["path"].as_str(), v["valid"].as_bool()), (Some("v.shbin"), Some(true)));
//!
//! // An input that does not parse still gives a record, with the error and its offset.
//! let e = shaderscope::parse(b"DXBC").unwrap_err();
//! let line = Record::failure(RecordType::Disasm, "x.dxbc", Some(shaderscope::Format::Dxbc), ErrorInfo::from_error(&e)).to_line();
//! let v: serde_json::Value = serde_json::from_str(&line).unwrap();
//! assert_eq!((v["valid"].as_bool(), v["error"]["offset"].as_u64()), (Some(false), Some(0)));
//! assert_eq!(v["error"]["message"], "truncated DXBC header at offset 0x0 (need 32 bytes, have 4)");
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::detect::Format;
use crate::error::{Error, ErrorKind};
use crate::isa::InstructionRecord;
use crate::model::Stage;
use crate::print::{Line, Printer, TextBuf};
use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::{fmt, io};

/// The version of the record layout, the `schema` field of every record. Version 1 was the
/// layout before records shared one envelope; version 2 had one `validate` record per file
/// holding a `findings` array (version 3 gives one `finding` record per finding, then a
/// `validate` record with the counts). A change that removes or renames a field, or changes
/// its meaning, gives a new version.
pub const SCHEMA_VERSION: u32 = 3;

/// Which command made a record (its `type` field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum RecordType {
    /// `info --json`: what the file is.
    Info,
    /// `disasm --json`: the programs and their instructions.
    Disasm,
    /// `validate --json`: the closing record of a file: whether it passed, and how many
    /// errors and warnings its `finding` records gave.
    Validate,
    /// `validate --json`: one finding (an error or a warning at an offset).
    Finding,
    /// `scan --json`: one file found under the folder.
    Scan,
    /// `scan --json`: the closing summary of a scan.
    ScanSummary,
    /// `dump --json`: every row of the dump (written row by row by the CLI).
    Dump,
    /// `variant --json`: the binaries one variation of a SHARCFB program uses.
    Variant,
}

/// One JSON Lines record: the envelope every record shares, then the command's own fields
/// (`body`, spliced into the same object).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Record<'a> {
    /// [`SCHEMA_VERSION`].
    pub schema: u32,
    /// The command that made it.
    pub record_type: RecordType,
    /// The format's name ([`Format::name`]); `None` (`null`) when the input was not recognised.
    pub format: Option<&'static str>,
    /// The input as named on the command line (`<stdin>` for `-`).
    pub path: &'a str,
    /// Whether the command found the input fine (false: it failed to read or parse, or a check
    /// failed).
    pub valid: bool,
    /// Why the input could not be read or parsed.
    pub error: Option<ErrorInfo>,
    /// The command's fields, an object whose members follow the envelope's.
    pub body: Body,
}

/// The envelope of a [`Record`] as serde writes it (the body is spliced in after).
#[derive(Serialize)]
struct Envelope<'r> {
    schema: u32,
    #[serde(rename = "type")]
    record_type: RecordType,
    format: Option<&'static str>,
    path: &'r str,
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'r ErrorInfo>,
}

impl<'a> Record<'a> {
    /// A valid record with no fields of its own yet.
    pub fn new(record_type: RecordType, path: &'a str, format: Option<Format>) -> Self {
        Record {
            schema: SCHEMA_VERSION,
            record_type,
            format: format.map(Format::name),
            path,
            valid: true,
            error: None,
            body: Body::empty(),
        }
    }

    /// The record of an input that could not be read or parsed: `valid` false, with `error`.
    pub fn failure(record_type: RecordType, path: &'a str, format: Option<Format>, error: ErrorInfo) -> Self {
        Record { valid: false, error: Some(error), ..Record::new(record_type, path, format) }
    }

    /// The same record with `body`'s fields (an object; anything else is kept under `data`).
    /// The fields are serialised once, straight to text: a record never holds a
    /// `serde_json::Value` tree, which costs 30 to 50 times its text.
    pub fn with_body(mut self, body: impl Serialize) -> Self {
        match Body::new(&body) {
            Ok(b) => self.body = b,
            Err(e) => {
                self.valid = false;
                self.error = Some(ErrorInfo::other("internal", format!("cannot encode the record: {e}")));
            }
        }
        self
    }

    /// The same record with `valid` set.
    pub fn with_valid(mut self, valid: bool) -> Self {
        self.valid = valid;
        self
    }

    /// The record as one line of JSON, newline included ([`Record::write`] into a string).
    pub fn to_line(&self) -> String {
        let mut line = Vec::new();
        // Writing into a Vec fails only where the envelope would not encode, which strings,
        // numbers and booleans always do.
        let _ = self.write(&mut line);
        String::from_utf8(line).unwrap_or_default()
    }

    /// Write the record to `out` as one line of JSON, newline included: the envelope, then the
    /// members of [`Record::body`].
    pub fn write(&self, out: &mut dyn io::Write) -> io::Result<()> {
        self.write_with(out, |o| o.write_all(self.body.get().as_bytes()))
    }

    /// Write the record to `out` as one line of JSON, newline included, with the body `body`
    /// writes (in place of [`Record::body`]): the text of one JSON object, which may come in
    /// any number of pieces, whose members are spliced after the envelope's as they are
    /// written (the record is never held whole). Writing nothing is the body `{}`.
    pub fn write_with(
        &self,
        out: &mut dyn io::Write,
        body: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
    ) -> io::Result<()> {
        let envelope = Envelope {
            schema: self.schema,
            record_type: self.record_type,
            format: self.format,
            path: self.path,
            valid: self.valid,
            error: self.error.as_ref(),
        };
        let head = serde_json::to_vec(&envelope)?;
        out.write_all(head.strip_suffix(b"}").unwrap_or(&head))?;
        // The body comes in many small pieces (serde writes a key, a quote, a comma at a
        // time): they reach `out` in blocks.
        let mut members = io::BufWriter::new(Members { out: &mut *out, at: Splice::Start });
        body(&mut members)?;
        let at = members.into_inner().map_err(io::IntoInnerError::into_error)?.at;
        match at {
            Splice::Start => out.write_all(b"}\n"),
            Splice::Members => out.write_all(b"\n"),
            Splice::Open => Err(io::Error::new(io::ErrorKind::InvalidData, "a record's body ended unclosed")),
        }
    }
}

/// The writer a record's body is written through ([`Record::write_with`]): the body's text
/// is a JSON object, whose opening brace is dropped (the envelope's is open) and whose first
/// member, if it has one, gets a comma before it; the rest, the closing brace included, goes
/// through as it comes.
struct Members<'w> {
    out: &'w mut dyn io::Write,
    at: Splice,
}

/// Where [`Members`] is in the body's text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Splice {
    /// Before the opening brace.
    Start,
    /// After it, before anything else.
    Open,
    /// In or after the members.
    Members,
}

impl io::Write for Members<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        if self.at == Splice::Start {
            match rest.split_first() {
                Some((b'{', after)) => {
                    self.at = Splice::Open;
                    rest = after;
                }
                Some(_) => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "a record's body is not an object",
                    ));
                }
                None => return Ok(0),
            }
        }
        if self.at == Splice::Open {
            rest = rest.trim_ascii_start();
            match rest.first() {
                None => return Ok(buf.len()),
                Some(b'}') => {}
                Some(_) => self.out.write_all(b",")?,
            }
            self.at = Splice::Members;
        }
        self.out.write_all(rest)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// A format's `info` object, serialised from its summary struct straight to `out`
/// ([`Container::write_info_json`](crate::Container::write_info_json)) through a small buffer:
/// serde_json writes in many small pieces, each of which would otherwise be a dynamic call
/// on `out`.
pub(crate) fn write_info(out: &mut dyn io::Write, info: &impl Serialize) -> io::Result<()> {
    let mut buf = io::BufWriter::with_capacity(8 * 1024, out);
    serde_json::to_writer(&mut buf, info)?;
    io::Write::flush(&mut buf)
}

/// A JSON object held as its text: the fields of a record ([`Record::body`]) and what
/// [`Container::info_json`](crate::Container::info_json) gives. Serialising writes the text
/// as it is; [`Body::to_value`] parses it for a caller that wants to look inside.
///
/// The text is what serde_json wrote (from a value, or a format's own JSON writer), so it
/// is held as a string and not parsed again; text from elsewhere comes in through
/// [`Body::from_json`], which checks it.
#[derive(Debug, Clone)]
pub struct Body(Option<Box<str>>);

impl Body {
    /// `{}`.
    pub fn empty() -> Body {
        Body(None)
    }

    /// `value` serialised: an object as it is, `null` as `{}`, anything else as `{"data": …}`.
    pub fn new(value: &impl Serialize) -> serde_json::Result<Body> {
        Ok(Body::written(serde_json::value::to_raw_value(value)?.into()))
    }

    /// The JSON text `text`, as [`Body::new`] takes a value (an object as it is, …); an error
    /// where it is not JSON.
    pub fn from_json(text: String) -> serde_json::Result<Body> {
        Ok(Body::written(RawValue::from_string(text)?.into()))
    }

    /// JSON text serde_json wrote, as [`Body::new`] takes a value.
    fn written(text: Box<str>) -> Body {
        match text.as_bytes().first() {
            Some(b'{') => Body(Some(text)),
            _ if &*text == "null" => Body::empty(),
            _ => Body(Some(format!("{{\"data\":{text}}}").into())),
        }
    }

    /// What `write` writes (an object's text: a format's
    /// [`Container::write_info_json`](crate::Container::write_info_json)), collected; `{}`
    /// where it fails.
    pub fn collect(write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>) -> Body {
        let mut text = Vec::new();
        match write(&mut text) {
            Ok(()) => String::from_utf8(text).map_or_else(|_| Body::empty(), |t| Body::written(t.into())),
            Err(_) => Body::empty(),
        }
    }

    /// The object's text.
    pub fn get(&self) -> &str {
        self.0.as_deref().unwrap_or("{}")
    }

    /// The object as a `serde_json::Value`.
    pub fn to_value(&self) -> Value {
        // The text was written by serde_json from a value that serialised.
        serde_json::from_str(self.get()).unwrap_or(Value::Null)
    }
}

impl std::fmt::Display for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match &self.0 {
            // Through serde, the text goes in as the raw value it is (checked on the way:
            // the record writers splice it in as text and never come here).
            Some(text) => {
                RawValue::from_string(text.to_string()).map_err(serde::ser::Error::custom)?.serialize(s)
            }
            None => s.serialize_map(Some(0))?.end(),
        }
    }
}

/// Why an input could not be read or parsed (the `error` field of a record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ErrorInfo {
    /// The message as the command prints it on stderr (without `error: PATH: `).
    pub message: String,
    /// What kind of failure: `truncated`, `bad-magic`, `out-of-bounds`, `overflow`,
    /// `invalid`, `unsupported` (a parse error), `io` (the input could not be read), `usage`.
    pub kind: &'static str,
    /// Absolute byte offset the error is about (parse errors only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The structure being read (parse errors only), e.g. `DVLE header`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub what: Option<String>,
}

impl ErrorInfo {
    /// The record of a parse error.
    pub fn from_error(e: &Error) -> Self {
        ErrorInfo {
            message: e.to_string(),
            kind: error_kind_name(e.kind()),
            offset: Some(e.offset()),
            what: Some(e.what().to_string()),
        }
    }

    /// An error without an offset: `kind` (`io`, `usage`, …) and the message.
    pub fn other(kind: &'static str, message: impl Into<String>) -> Self {
        ErrorInfo { message: message.into(), kind, offset: None, what: None }
    }
}

/// The `kind` name of a parse error.
pub(crate) fn error_kind_name(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Truncated { .. } => "truncated",
        ErrorKind::BadMagic { .. } => "bad-magic",
        ErrorKind::OutOfBounds { .. } => "out-of-bounds",
        ErrorKind::Overflow => "overflow",
        ErrorKind::Unsupported(_) => "unsupported",
        ErrorKind::Absent(_) => "absent",
        _ => "invalid",
    }
}

/// The fields of a `disasm` record: every program of the file.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Disasm {
    /// The whole text `disasm` prints with the same options.
    pub listing: String,
    /// The programs, in file order.
    pub programs: Vec<Program>,
    /// Format-specific facts about the listing as a whole (DXBC: `fxc`, the generation whose
    /// text it imitates and why).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One program of a `disasm` record, in the same shape for every instruction set.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Program {
    /// Its name in the file: the chunk (`SHEX`, `Aon9`, `DXIL`), `DVLE 1`, `program`.
    pub name: String,
    /// The instruction set: `sm4` (SM4/5 tokens), `d3d9` (SM1–3 tokens), `pica` (PICA200
    /// words), `dxil` (LLVM bitcode, not disassembled).
    pub isa: &'static str,
    /// The pipeline stage (`pixel`, `vertex`, …, and for DXIL `library`, `mesh`,
    /// `amplification`, …), when the program says.
    pub stage: Option<&'static str>,
    /// The shader model as its profile is spelled (`ps_5_0`, `vs_2_0`, `cs_6_6`, `lib_6_3`),
    /// when the instruction set has one.
    pub model: Option<String>,
    /// Absolute offset of the program's first byte (its version token or first code word).
    pub offset: u64,
    /// Its size in bytes.
    pub size: u64,
    /// Every instruction the listing shows, in listing order.
    pub instructions: Vec<InstructionRecord>,
    /// Format-specific facts about the program (PICA: `dvle`, `main`, `endmain`, `source`;
    /// D3D9: `slots`; DXIL: where the bitcode is).
    #[serde(flatten)]
    pub extra: Extra,
}

impl Program {
    /// A program with no instructions or extra facts yet.
    pub fn new(name: impl Into<String>, isa: &'static str, offset: u64, size: u64) -> Self {
        Program {
            name: name.into(),
            isa,
            stage: None,
            model: None,
            offset,
            size,
            instructions: Vec::new(),
            extra: Extra::default(),
        }
    }

    /// The same program with its stage and shader model.
    pub fn with_stage(mut self, stage: Option<Stage>, model: Option<String>) -> Self {
        self.stage = stage.map(Stage::name);
        self.model = model;
        self
    }

    /// The same program with one more format-specific fact.
    pub fn with_extra(mut self, key: &'static str, value: impl Serialize) -> Self {
        self.extra.insert(key, serde_json::to_value(value).unwrap_or(Value::Null));
        self
    }
}

/// The format-specific facts of a [`Program`]: a few named values, kept in key order (as a
/// JSON object's members are written). A sorted list rather than a map: a file can make a
/// million programs (a DVLB table naming one DVLE again and again), and a map of three
/// numbers costs ten times their text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extra(Vec<(&'static str, Value)>);

impl Extra {
    /// Sets `key` to `value`, replacing what it had.
    pub fn insert(&mut self, key: &'static str, value: Value) {
        match self.0.binary_search_by(|(k, _)| (*k).cmp(key)) {
            Ok(i) => {
                if let Some(entry) = self.0.get_mut(i) {
                    entry.1 = value;
                }
            }
            Err(i) => self.0.insert(i, (key, value)),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        let i = self.0.binary_search_by(|(k, _)| (*k).cmp(key)).ok()?;
        self.0.get(i).map(|(_, v)| v)
    }

    /// Every fact, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &Value)> {
        self.0.iter().map(|(k, v)| (*k, v))
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `extra["key"]`: the value, or `null` when there is none (as `serde_json::Value` indexes).
impl std::ops::Index<&str> for Extra {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

impl Serialize for Extra {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// Where the fields of a `disasm` record go as a format makes them, in the record's order:
/// the listing's text (written through [`DisasmSink::listing`]), then each program's head
/// ([`DisasmSink::program`], its `instructions` empty) followed by its instructions one by
/// one ([`DisasmSink::instruction`]), then the facts about the listing as a whole
/// ([`DisasmSink::extra`]). Every format and bare program gives its record this way
/// ([`Container::write_disasm_json`](crate::Container::write_disasm_json)): the record
/// writer ([`write_disasm_record`]) writes each piece out as it comes, so that a record is
/// never held whole (its listing, and its instructions at some 300 bytes of heap each, take
/// up to 75 times the input), and [`Disasm::collect`] keeps everything
/// ([`Container::disasm_json`](crate::Container::disasm_json)).
///
/// ```
/// use shaderscope::Container;
/// use shaderscope::json::{DisasmSink, Program};
/// use shaderscope::isa::InstructionRecord;
/// use shaderscope::print::{Discard, Printer};
///
/// /// The number of instructions of each program, and nothing else.
/// #[derive(Default)]
/// struct Count(Vec<(String, usize)>, Discard);
/// impl DisasmSink for Count {
///     fn listing(&mut self) -> &mut dyn Printer {
///         &mut self.1
///     }
///     fn program(&mut self, head: Program) {
///         self.0.push((head.name, 0));
///     }
///     fn instruction(&mut self, _: InstructionRecord) {
///         if let Some(p) = self.0.last_mut() {
///             p.1 += 1;
///         }
///     }
///     fn extra(&mut self, _: &'static str, _: serde_json::Value) {}
/// }
/// let bytes = shaderscope::shbin::build::example_vertex_shader();
/// let mut count = Count::default();
/// shaderscope::parse(&bytes)?.write_disasm_json(&Default::default(), &mut count)?;
/// assert_eq!(count.0, [("DVLE 0".to_string(), 8)]);
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub trait DisasmSink {
    /// The printer the listing is written through (as plain text: the `listing` field); all
    /// of it comes before the first program.
    fn listing(&mut self) -> &mut dyn Printer;
    /// A program begins; its instructions follow.
    fn program(&mut self, head: Program);
    /// The next instruction of the program begun last.
    fn instruction(&mut self, record: InstructionRecord);
    /// A fact about the listing as a whole (DXBC: `fxc`), after the programs.
    fn extra(&mut self, key: &'static str, value: Value);
}

/// The [`DisasmSink`] a file carried inside another (an effect's shader) writes its programs
/// to: its listing is dropped (the outer file lists it under its own heading, through
/// [`crate::print::Nested`]), its programs and instructions go to `inner` with their offsets
/// moved by `base` (the inner file's absolute offset) and their names after `prefix`
/// (`shader3: SHEX`), its facts about its own listing are dropped.
pub struct NestedSink<'s> {
    inner: &'s mut dyn DisasmSink,
    base: u64,
    prefix: String,
    dropped: crate::print::Discard,
}

impl<'s> NestedSink<'s> {
    /// Programs go to `inner`, moved by `base`, named `{prefix}: {name}`.
    pub fn new(inner: &'s mut dyn DisasmSink, base: u64, prefix: impl Into<String>) -> Self {
        NestedSink { inner, base, prefix: prefix.into(), dropped: crate::print::Discard }
    }
}

impl DisasmSink for NestedSink<'_> {
    fn listing(&mut self) -> &mut dyn Printer {
        &mut self.dropped
    }
    fn program(&mut self, mut head: Program) {
        head.offset = head.offset.saturating_add(self.base);
        head.name = format!("{}: {}", self.prefix, head.name);
        self.inner.program(head)
    }
    fn instruction(&mut self, mut record: InstructionRecord) {
        record.offset = record.offset.saturating_add(self.base);
        self.inner.instruction(record)
    }
    fn extra(&mut self, _: &'static str, _: Value) {}
}

impl Disasm {
    /// Everything `write` gives a [`DisasmSink`], kept: the listing's text, every program with
    /// its instructions, the facts; `write`'s error where it fails.
    pub fn collect(write: impl FnOnce(&mut dyn DisasmSink) -> crate::Result<()>) -> crate::Result<Disasm> {
        let mut c = Collect { listing: TextBuf::default(), disasm: Disasm::default() };
        write(&mut c)?;
        c.disasm.listing = c.listing.into_string();
        Ok(c.disasm)
    }

    /// The programs `write` gives, without their instructions (nothing else is kept); `write`'s
    /// error where it fails.
    pub fn heads(
        write: impl FnOnce(&mut dyn DisasmSink) -> crate::Result<()>,
    ) -> crate::Result<Vec<Program>> {
        let mut heads = Vec::new();
        Disasm::visit(write, |head| heads.push(head), |_| {})?;
        Ok(heads)
    }

    /// Run `write`, handing each program head to `program` and each instruction record to
    /// `instruction` as they are made; the listing's text and the facts are dropped, nothing is
    /// kept. `write`'s error where it fails.
    pub(crate) fn visit(
        write: impl FnOnce(&mut dyn DisasmSink) -> crate::Result<()>,
        program: impl FnMut(Program),
        instruction: impl FnMut(InstructionRecord),
    ) -> crate::Result<()> {
        write(&mut Visit { listing: crate::print::Discard, program, instruction })
    }
}

/// The sink of [`Disasm::collect`].
struct Collect {
    listing: TextBuf,
    disasm: Disasm,
}

impl DisasmSink for Collect {
    fn listing(&mut self) -> &mut dyn Printer {
        &mut self.listing
    }
    fn program(&mut self, head: Program) {
        self.disasm.programs.push(head);
    }
    fn instruction(&mut self, record: InstructionRecord) {
        if let Some(p) = self.disasm.programs.last_mut() {
            p.instructions.push(record);
        }
    }
    fn extra(&mut self, key: &'static str, value: Value) {
        self.disasm.extra.insert(key.into(), value);
    }
}

/// The sink of [`Disasm::visit`].
struct Visit<P, I> {
    listing: crate::print::Discard,
    program: P,
    instruction: I,
}

impl<P: FnMut(Program), I: FnMut(InstructionRecord)> DisasmSink for Visit<P, I> {
    fn listing(&mut self) -> &mut dyn Printer {
        &mut self.listing
    }
    fn program(&mut self, head: Program) {
        (self.program)(head)
    }
    fn instruction(&mut self, record: InstructionRecord) {
        (self.instruction)(record)
    }
    fn extra(&mut self, _: &'static str, _: Value) {}
}

/// Write the `disasm` record `write` gives (a format's or a bare program's
/// [`DisasmSink`] writer) to `out`, one line, field by field as `write` makes them: nothing
/// of it is held but the facts of the program being written. The envelope comes first, so
/// what it says is found before: `write` is run once into a sink that keeps nothing, and
/// where it fails the record is `record` with `valid` false and the error, without fields of
/// its own; otherwise `valid` is false when the file has `damage` (its first damaged part is
/// the record's `error`), and `write` is run again into the record. Returns whether the
/// record says the input is valid. The record's many small pieces reach `out` in blocks
/// ([`Record::write_with`]).
///
/// ```
/// use shaderscope::Container;
/// use shaderscope::json::{Record, RecordType};
///
/// let bytes = shaderscope::shbin::build::example_vertex_shader();
/// let file = shaderscope::parse(&bytes)?;
/// let mut line = Vec::new();
/// let opts = Default::default();
/// let record = Record::new(RecordType::Disasm, "v.shbin", Some(file.format()));
/// let valid = shaderscope::json::write_disasm_record(record, None, &mut line, |sink| {
///     file.write_disasm_json(&opts, sink)
/// })
/// .unwrap();
/// let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
/// assert!(valid);
/// assert_eq!(v["programs"][0]["instructions"][0]["text"], "mov r0.xyz, v0");
/// assert_eq!(line, file.disasm_record("v.shbin", &opts).to_line().as_bytes());
/// # Ok::<(), shaderscope::Error>(())
/// ```
pub fn write_disasm_record(
    record: Record<'_>,
    damage: Option<&Error>,
    out: &mut dyn io::Write,
    mut write: impl FnMut(&mut dyn DisasmSink) -> crate::Result<()>,
) -> io::Result<bool> {
    let (record, fields) = disasm_envelope(record, damage, &mut write);
    if fields {
        record.write_with(out, |o| write_disasm_fields(o, write))?;
    } else {
        record.write(out)?;
    }
    Ok(record.valid)
}

/// The `disasm` record [`write_disasm_record`] writes, as a [`Record`] whose body holds the
/// fields' text.
pub fn disasm_record<'p>(
    record: Record<'p>,
    damage: Option<&Error>,
    mut write: impl FnMut(&mut dyn DisasmSink) -> crate::Result<()>,
) -> Record<'p> {
    let (mut record, fields) = disasm_envelope(record, damage, &mut write);
    if fields {
        let mut text = Vec::new();
        let body = write_disasm_fields(&mut text, write)
            .map_err(serde_json::Error::io)
            .map(|()| Body::written(String::from_utf8_lossy(&text).into()));
        match body {
            Ok(b) => record.body = b,
            Err(e) => {
                record.valid = false;
                record.error = Some(ErrorInfo::other("internal", format!("cannot encode the record: {e}")));
            }
        }
    }
    record
}

/// The envelope of a `disasm` record (see [`write_disasm_record`]), and whether the fields
/// follow.
fn disasm_envelope<'p>(
    record: Record<'p>,
    damage: Option<&Error>,
    write: &mut dyn FnMut(&mut dyn DisasmSink) -> crate::Result<()>,
) -> (Record<'p>, bool) {
    // Run once into a sink that keeps nothing, to learn whether the listing fails.
    if let Err(e) = Disasm::visit(&mut *write, |_| {}, |_| {}) {
        return (Record { valid: false, error: Some(ErrorInfo::from_error(&e)), ..record }, false);
    }
    match damage {
        // A damaged part leaves the rest listed: the record has it, and says why the file is
        // not valid.
        Some(e) => (Record { valid: false, error: Some(ErrorInfo::from_error(e)), ..record }, true),
        None => (record, true),
    }
}

/// Write the fields `write` gives as one JSON object, in the order and form [`Disasm`]
/// serialises to: `listing`, `programs`, then the facts.
fn write_disasm_fields(
    out: &mut dyn io::Write,
    write: impl FnOnce(&mut dyn DisasmSink) -> crate::Result<()>,
) -> io::Result<()> {
    out.write_all(b"{\"listing\":\"")?;
    let mut w =
        FieldWriter { out, programs: false, tail: None, instructions: false, extra: Map::new(), error: None };
    let written = write(&mut w);
    w.end_program();
    if let Some(e) = w.error.take() {
        return Err(e);
    }
    // The first pass found that the fields are written whole; a second pass that fails is a
    // record cut short.
    if let Err(e) = written {
        return Err(io::Error::other(format!("the listing failed on the second pass: {e}")));
    }
    w.out.write_all(b"]")?;
    for (key, value) in &w.extra {
        w.out.write_all(b",")?;
        serde_json::to_writer(&mut *w.out, key)?;
        w.out.write_all(b":")?;
        serde_json::to_writer(&mut *w.out, value)?;
    }
    w.out.write_all(b"}")
}

/// The [`DisasmSink`] of [`write_disasm_fields`]: the listing's text is escaped as it is
/// printed, each program's head written when it comes, then each instruction; what is kept is
/// the end of the program being written (`]`, its facts, `}`: [`Program`] writes its facts
/// after its instructions) and the facts of the listing, written last.
struct FieldWriter<'w> {
    out: &'w mut dyn io::Write,
    /// Whether the listing has ended and `programs` begun.
    programs: bool,
    /// The text of the program being written after its instructions.
    tail: Option<Vec<u8>>,
    /// Whether that program has had an instruction.
    instructions: bool,
    /// The facts about the listing as a whole, in key order (as [`Disasm`] keeps them).
    extra: Map<String, Value>,
    /// The first write that failed: nothing is written after it.
    error: Option<io::Error>,
}

impl FieldWriter<'_> {
    /// Run `f` on the output unless a write failed before; keep its error.
    fn put(&mut self, f: impl FnOnce(&mut dyn io::Write) -> io::Result<()>) {
        if self.error.is_none() {
            if let Err(e) = f(&mut *self.out) {
                self.error = Some(e);
            }
        }
    }

    /// End the program being written, or (before the first) the listing's text and open
    /// `programs`.
    fn end_program(&mut self) {
        if let Some(tail) = self.tail.take() {
            self.put(|o| o.write_all(&tail));
        } else if !self.programs {
            self.programs = true;
            self.put(|o| o.write_all(b"\",\"programs\":["));
        }
    }
}

/// A JSON string's contents without its quotes: the listing's text is one string written in
/// pieces, each escaped as serde_json escapes strings.
struct Unquoted;

impl serde_json::ser::Formatter for Unquoted {
    fn begin_string<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }
    fn end_string<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }
}

impl fmt::Write for FieldWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.programs {
            // The listing comes before the programs (see DisasmSink::listing).
            return Err(fmt::Error);
        }
        self.put(|o| {
            s.serialize(&mut serde_json::Serializer::with_formatter(o, Unquoted)).map_err(io::Error::from)
        });
        if self.error.is_some() { Err(fmt::Error) } else { Ok(()) }
    }
}

impl Printer for FieldWriter<'_> {
    fn text_only(&self) -> bool {
        true
    }
    fn write_line(&mut self, line: &Line) -> fmt::Result {
        fmt::Write::write_str(self, line.as_str())
    }
}

impl DisasmSink for FieldWriter<'_> {
    fn listing(&mut self) -> &mut dyn Printer {
        self
    }

    fn program(&mut self, head: Program) {
        let first = !self.programs;
        self.end_program();
        // The program as it serialises with no instructions, cut where they go: a JSON string
        // cannot hold `,"` (its quotes are escaped), so the first `,"instructions":[]` is
        // the field, after the name, instruction set, stage, model, offset and size.
        const KEY: &[u8] = b",\"instructions\":[]";
        let text = match serde_json::to_vec(&head) {
            Ok(t) => t,
            Err(e) => return self.error = self.error.take().or(Some(e.into())),
        };
        let cut = text.windows(KEY.len()).position(|w| w == KEY).map_or(text.len(), |at| at + KEY.len() - 1);
        let (start, tail) = text.split_at(cut);
        self.put(|o| {
            if !first {
                o.write_all(b",")?;
            }
            o.write_all(start)
        });
        self.tail = Some(tail.to_vec());
        self.instructions = false;
    }

    fn instruction(&mut self, record: InstructionRecord) {
        if self.tail.is_none() {
            // No program has begun: there is no list to put it in (as Disasm::collect).
            return;
        }
        let comma = std::mem::replace(&mut self.instructions, true);
        self.put(|o| {
            if comma {
                o.write_all(b",")?;
            }
            serde_json::to_writer(o, &record).map_err(io::Error::from)
        });
    }

    fn extra(&mut self, key: &'static str, value: Value) {
        self.extra.insert(key.into(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_comes_first_and_body_follows() {
        let mut body = Map::new();
        body.insert("summary".into(), "x".into());
        let r = Record::new(RecordType::Validate, "a b", Some(Format::Dvlb)).with_body(body);
        assert_eq!(
            r.to_line(),
            "{\"schema\":3,\"type\":\"validate\",\"format\":\"shbin\",\"path\":\"a b\",\"valid\":true,\"summary\":\"x\"}\n"
        );
        let e = ErrorInfo::other("io", "cannot read: No such file or directory (os error 2)");
        let r = Record::failure(RecordType::ScanSummary, "-", None, e);
        assert_eq!(
            r.to_line(),
            "{\"schema\":3,\"type\":\"scan-summary\",\"format\":null,\"path\":\"-\",\"valid\":false,\
             \"error\":{\"message\":\"cannot read: No such file or directory (os error 2)\",\"kind\":\"io\"}}\n"
        );
    }

    #[test]
    fn a_body_is_an_object_spliced_after_the_envelope() {
        let r = |body: Body| Record { body, ..Record::new(RecordType::Info, "p", None) }.to_line();
        let head = "{\"schema\":3,\"type\":\"info\",\"format\":null,\"path\":\"p\",\"valid\":true";
        assert_eq!(r(Body::empty()), format!("{head}}}\n"));
        assert_eq!(r(Body::new(&()).unwrap()), format!("{head}}}\n"));
        assert_eq!(r(Body::new(&[1, 2]).unwrap()), format!("{head},\"data\":[1,2]}}\n"));
        let b = Body::new(&serde_json::json!({"b": 1, "a": [true]})).unwrap();
        assert_eq!(r(b.clone()), format!("{head},\"a\":[true],\"b\":1}}\n"));
        assert_eq!(b.to_value()["a"][0], true);
        assert_eq!(serde_json::to_string(&Body::empty()).unwrap(), "{}");
    }

    #[test]
    fn extra_facts_are_written_in_key_order_and_replaced_by_key() {
        let p = Program::new("DVLE 1", "pica", 0, 4)
            .with_extra("same_as", 0)
            .with_extra("dvle", 1)
            .with_extra("dvle", 2);
        assert_eq!((&p.extra["dvle"], &p.extra["main"]), (&Value::from(2), &Value::Null));
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            "{\"name\":\"DVLE 1\",\"isa\":\"pica\",\"stage\":null,\"model\":null,\"offset\":0,\"size\":4,\
             \"instructions\":[],\"dvle\":2,\"same_as\":0}"
        );
    }

    #[test]
    fn parse_errors_carry_kind_offset_and_structure() {
        let e = Error::truncated(0x1c4, "DVLE header", 64, 12);
        let i = ErrorInfo::from_error(&e);
        assert_eq!((i.kind, i.offset, i.what.as_deref()), ("truncated", Some(0x1c4), Some("DVLE header")));
        assert_eq!(i.message, "truncated DVLE header at offset 0x1c4 (need 64 bytes, have 12)");
    }
}
