//! `shaderscope` for Python: a thin shell over the library's facade ([`shaderscope::Shader`],
//! [`shaderscope::File`]'s requests, [`shaderscope::asm`], [`shaderscope::find`]), so that every
//! answer is the one the command line gives for the same file, made by the same calls.
//!
//! Text answers go through [`TextBuf::for_terminal`] as the CLI's output does (control
//! characters escaped), so they equal its stdout byte for byte; JSON answers are the CLI's
//! records, parsed by Python's `json` module. A request the CLI refuses with exit status 2
//! (a switch that does not apply, a part that does not exist) raises `ValueError`; a file at
//! fault (exit status 1) raises `shaderscope.Error`, a subclass of `ValueError`.

use pyo3::exceptions::{PyOSError, PyStopIteration, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList};
use shaderscope::asm;
use shaderscope::bare::Isa;
use shaderscope::dump::Annotations;
use shaderscope::dxbc::hash::Hashes;
use shaderscope::json::{Record, RecordType};
use shaderscope::model::{Switch, SwitchError};
use shaderscope::print::TextBuf;
use shaderscope::walk::{Entry, Walk};
use shaderscope::{Container, DisasmOptions, Format, Shader};
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::Mutex;

pyo3::create_exception!(
    _shaderscope,
    Error,
    PyValueError,
    "A file that cannot be read or listed (the CLI's exit status 1). `str(e)` is the message the \
     CLI prints after `error: PATH: `; `e.offset` is the absolute byte offset it is about, or \
     None."
);

/// `shaderscope.Error` with the CLI's message and the error's offset (None where it has none).
fn error(py: Python<'_>, message: String, offset: Option<u64>) -> PyErr {
    let e = Error::new_err(message);
    // Setting an attribute on a fresh exception instance fails only without memory.
    let _ = e.value(py).setattr("offset", offset);
    e
}

/// A library error as `shaderscope.Error`.
fn file_error(py: Python<'_>, e: &shaderscope::Error) -> PyErr {
    error(py, e.to_string(), Some(e.offset()))
}

/// A request the CLI refuses as a usage error (exit status 2).
fn usage(message: impl ToString) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// JSON text (one record the library wrote) as Python objects, by Python's own `json`.
fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// A record's object without its `path` (a `File` has no path; `scan` keeps it).
fn record<'py>(py: Python<'py>, line: &str) -> PyResult<Bound<'py, PyDict>> {
    let d = loads(py, line)?.cast_into::<PyDict>()?;
    d.del_item("path")?;
    Ok(d)
}

/// A parsed shader file that owns its bytes: every answer of the command line about it.
///
/// Made by `shaderscope.open(path)` or `shaderscope.parse(data)`. Immutable, so one `File`
/// may be used from several threads at once; the interpreter lock is released while it lists,
/// dumps and validates.
#[pyclass(frozen, subclass, module = "shaderscope")]
struct File {
    shader: Shader,
    name: Option<String>,
}

impl File {
    fn file(&self) -> &shaderscope::File<'_> {
        self.shader.file()
    }

    /// The listing configuration of `disasm`'s keywords (the CLI's long options with
    /// underscores), checked against this file as the CLI checks it (`ValueError` where the
    /// CLI exits 2; an unknown keyword, `TypeError` as Python's own).
    fn options(&self, switches: Option<&Bound<'_, PyDict>>) -> PyResult<DisasmOptions> {
        let mut opts = DisasmOptions::default();
        for (key, value) in switches.into_iter().flat_map(|d| d.iter()) {
            let key: String = key.extract()?;
            if value.is_none() {
                continue;
            }
            // bool before int: a Python bool is an int.
            let text: Option<String> = value.extract().ok();
            let switch = if value.is_instance_of::<PyBool>() {
                Switch::On(value.is_truthy()?)
            } else if let Some(t) = &text {
                Switch::Name(t)
            } else if let Ok(n) = value.extract::<usize>() {
                Switch::Index(n)
            } else {
                Switch::On(value.is_truthy()?)
            };
            opts = opts.with_named(&key, switch).map_err(|e| match e {
                SwitchError::Unknown(_) => {
                    PyTypeError::new_err(format!("disasm() got an unexpected keyword argument '{key}'"))
                }
                SwitchError::Value(m) => usage(m),
            })?;
        }
        opts.check(self.file()).map_err(usage)?;
        Ok(opts)
    }
}

#[pymethods]
impl File {
    /// Parse a shader file's bytes (`bytes` or `bytearray`, any format shaderscope reads),
    /// with the interpreter lock released. The File keeps its own copy of them: later changes
    /// to `data`, or its deletion, do not reach it. `name` is for your own use (`File.name`).
    /// Raises Error when the bytes are no shader file or do not parse.
    #[new]
    #[pyo3(signature = (data, name=None))]
    fn new(py: Python<'_>, data: PyBackedBytes, name: Option<String>) -> PyResult<Self> {
        let data = data.to_vec();
        match py.detach(|| Shader::parse(data)) {
            Ok(shader) => Ok(File { shader, name }),
            Err(e) => Err(file_error(py, &e)),
        }
    }

    /// The format's name, as the `format` field of the CLI's JSON records gives it (`dxbc`,
    /// `d3d9`, `shbin`, `gfd`, `sharcfb`, `mbs`, ...).
    #[getter]
    fn format(&self) -> &'static str {
        self.file().format().name()
    }

    /// The name given to `parse` (or the path given to `open`), or None.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The bytes the file was read from (a copy).
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.shader.bytes())
    }

    /// The hashes shader-modding tools key a shader by, as `info` shows them (DXBC:
    /// `3dmigoto`, `bytecode`, `checksum`; Direct3D 9: `3dmigoto`), hex strings; None for
    /// the other formats.
    #[getter]
    fn hashes<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let bytes = self.shader.bytes();
        let hashes = match self.file().format() {
            Format::Dxbc => Some(Hashes::of_dxbc(bytes)),
            Format::D3d9 => Hashes::of_d3d9(bytes),
            _ => None,
        };
        let Some(h) = hashes else { return Ok(None) };
        let text = serde_json::to_string(&h).map_err(|e| usage(e.to_string()))?;
        loads(py, &text).map(Some)
    }

    /// What the file is: the text `shaderscope info FILE` prints.
    fn info(&self, py: Python<'_>) -> String {
        py.detach(|| {
            let mut out = TextBuf::for_terminal();
            // A TextBuf never fails a write.
            let _ = self.file().write_info_text(&mut out);
            out.into_string()
        })
    }

    /// The record `shaderscope info --json FILE` prints, without its `path`.
    fn info_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let line = py.detach(|| {
            let mut out = Vec::new();
            self.file().write_info_record("", &mut out).map(|()| out)
        })?;
        record(py, &String::from_utf8_lossy(&line))
    }

    /// The listing `shaderscope disasm FILE` prints, with the CLI's switches as keywords
    /// (`dvle=0`, `offsets=True`, `fxc="9.30"`, ...). A switch that does not apply to the
    /// format raises ValueError; a listing that fails raises Error, whose `listing` is what
    /// was listed before the failure (the CLI prints it before its message).
    #[pyo3(signature = (**switches))]
    fn disasm(&self, py: Python<'_>, switches: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let opts = self.options(switches)?;
        let (listing, done) = py.detach(|| {
            let mut out = TextBuf::for_terminal();
            let done = self.file().disasm(&opts, &mut out);
            (out.into_string(), done)
        });
        match done {
            Ok(()) => Ok(listing),
            Err(e) => {
                // What was listed before the failure, as the CLI prints it before the message.
                let e = file_error(py, &e);
                e.value(py).setattr("listing", listing)?;
                Err(e)
            }
        }
    }

    /// Every program's instruction records of `shaderscope disasm --json FILE`, in order, as
    /// one list (offset, words, mnemonic, operands, text, ...). Takes `disasm`'s keywords.
    #[pyo3(signature = (**switches))]
    fn instructions<'py>(
        &self,
        py: Python<'py>,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let opts = self.options(switches)?;
        let line = py.detach(|| {
            let mut out = Vec::new();
            self.file().write_disasm_record("", &opts, &mut out).map(|_| out)
        })?;
        let rec = record(py, &String::from_utf8_lossy(&line))?;
        let all = PyList::empty(py);
        let Some(programs) = rec.get_item("programs")? else {
            // The listing failed: the record holds the error instead.
            let e = rec.get_item("error")?;
            let field = |k: &str| -> PyResult<Option<Bound<'py, PyAny>>> {
                match &e {
                    Some(e) => e.get_item(k).ok().map_or(Ok(None), |v| Ok(Some(v))),
                    None => Ok(None),
                }
            };
            let message = field("message")?.map_or_else(|| Ok(String::new()), |m| m.extract())?;
            let offset = field("offset")?.map_or(Ok(None), |o| o.extract())?;
            return Err(error(py, message, offset));
        };
        for p in programs.try_iter()? {
            if let Ok(instructions) = p?.get_item("instructions") {
                for i in instructions.try_iter()? {
                    all.append(i?)?;
                }
            }
        }
        Ok(all)
    }

    /// The records `shaderscope validate --json FILE` prints, without their `path`: one
    /// `finding` record per finding, then the closing `validate` record (`valid`, `errors`,
    /// `warnings`).
    fn validate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let lines: Vec<String> =
            py.detach(|| self.file().validate_records("", false).iter().map(Record::to_line).collect());
        let out = PyList::empty(py);
        for line in &lines {
            out.append(record(py, line)?)?;
        }
        Ok(out)
    }

    /// The names `shaderscope extract FILE` lists: the parts, then (SHARCFB) the programs.
    fn parts(&self, py: Python<'_>) -> Vec<String> {
        py.detach(|| {
            let file = self.file();
            let parts = file.parts().into_iter().map(|p| p.name);
            parts.chain(file.program_gshs().into_iter().map(|p| p.name)).collect()
        })
    }

    /// The bytes `shaderscope extract FILE NAME -o OUT` writes: the part `name` (in any case),
    /// or a SHARCFB program's variation as a GFD `.gsh` (`settings`: `{MACRO: VALUE}`, as
    /// `--set MACRO=VALUE`; the others at their defaults). A name the file does not have
    /// raises ValueError; a part that cannot be built raises Error.
    #[pyo3(signature = (name, settings=None))]
    fn part<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        settings: Option<BTreeMap<String, String>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let set: Vec<(String, String)> = settings.unwrap_or_default().into_iter().collect();
        match py.detach(|| self.file().extract(name, &set)) {
            Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
            Err(shaderscope::Refusal::Broken(e)) => Err(file_error(py, &e)),
            Err(e) => Err(usage(e)),
        }
    }

    /// The record `shaderscope variant --json FILE PROGRAM` prints, without its `path`: the
    /// binaries one variation of a SHARCFB program uses (`valid` false where the CLI exits 1:
    /// a damaged archive, a binary whose type is not its role's). The variation is the one `settings`
    /// (`{MACRO: VALUE}`, as `--set`; the others at their defaults) picks, or the one whose
    /// index is `variation` (its settings are the index's mixed-radix digits, the first macro
    /// most significant). A program, macro, value or index the archive does not have, or
    /// another format, raises ValueError; an archive that cannot give it, Error.
    #[pyo3(signature = (program, settings=None, *, variation=None))]
    fn variant<'py>(
        &self,
        py: Python<'py>,
        program: &str,
        settings: Option<BTreeMap<String, String>>,
        variation: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut set: Vec<(String, String)> = settings.unwrap_or_default().into_iter().collect();
        if let Some(v) = variation {
            if !set.is_empty() {
                return Err(usage("settings and variation cannot be used together"));
            }
            set = match self.file().variation_settings(program, v) {
                Ok(set) => set,
                Err(shaderscope::Refusal::Broken(e)) => return Err(file_error(py, &e)),
                Err(e) => return Err(usage(e)),
            };
        }
        let resolved = match py.detach(|| self.file().variant(program, &set)) {
            Ok(r) => r,
            Err(shaderscope::Refusal::Broken(e)) => return Err(file_error(py, &e)),
            Err(e) => return Err(usage(e)),
        };
        // Valid as the CLI says it: no damage in the archive, every binary of the type its role needs.
        let valid = self.file().damage().is_empty() && resolved.binaries.iter().all(|b| b.type_matches);
        let line = Record::new(RecordType::Variant, "", Some(Format::Sharcfb))
            .with_body(&resolved)
            .with_valid(valid);
        record(py, &line.to_line())
    }

    /// Every byte annotated: the text `shaderscope dump FILE` prints (offset | hex | meaning).
    fn dump(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| dump_text(self.shader.bytes())).map_err(usage)
    }

    /// `<shaderscope.File "NAME" FORMAT (N bytes)>`.
    fn __repr__(&self) -> String {
        let name = self.name.as_deref().map_or_else(String::new, |n| format!(" {n:?}"));
        format!("<shaderscope.File{name} {} ({} bytes)>", self.format(), self.shader.bytes().len())
    }
}

/// Every byte of `data` annotated, as `shaderscope dump FILE` prints it, whether or not the
/// bytes parse (`File.dump` for a file at hand). Raises ValueError for bytes of no format
/// shaderscope knows.
#[pyfunction]
fn dump(py: Python<'_>, data: PyBackedBytes) -> PyResult<String> {
    py.detach(|| dump_text(&data)).map_err(usage)
}

/// The `dump` text of `data`.
fn dump_text(data: &[u8]) -> Result<String, String> {
    let mut a = Annotations::new();
    shaderscope::annotate(data, &mut a).map_err(|e| e.to_string())?;
    let mut out = TextBuf::for_terminal();
    a.render_range(data, 0..u64::MAX, &mut out).map_err(|e| e.to_string())?;
    Ok(out.into_string())
}

/// Assemble a listing back into a binary, as `shaderscope asm` does: a whole DXBC container,
/// Direct3D 9 bytecode or SHBIN from the text; with `like` (the original's bytes), into that
/// original (what the text does not carry is kept from it; Wii U and MBS listings need it);
/// with `program` and `settings` (`{MACRO: VALUE}`; `--program`, `--set`), a listing of bare
/// shaders into that variation of a SHARCFB `like`; with `format` (`sm4`, `d3d9`, `pica`,
/// `latte`, `mali-gp`, `mali-pp`), a bare program's words as `asm --format` writes them, and
/// with `opdescs=True` the pair (words, PICA200 operand descriptors as `--opdesc` writes them).
/// Text that does not assemble raises Error (its line and column in the message); a usage the
/// CLI refuses with status 2 (no original where one is needed, an original of no use),
/// ValueError.
#[pyfunction]
#[pyo3(signature = (text, like=None, format=None, *, program=None, settings=None, opdescs=false))]
fn assemble<'py>(
    py: Python<'py>,
    text: &str,
    like: Option<&[u8]>,
    format: Option<&str>,
    program: Option<&str>,
    settings: Option<BTreeMap<String, String>>,
    opdescs: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if format.is_some() && like.is_some() {
        return Err(usage("format and like cannot be used together"));
    }
    if (program.is_some() || settings.is_some()) && like.is_none() {
        return Err(usage("program and settings choose a variation of the SHARCFB given as like"));
    }
    let isa = match format {
        None => None,
        Some(name) => Some(Isa::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Isa::ALL.iter().map(|i| i.name()).collect();
            usage(format!("format={name:?} is none of {}", names.join(", ")))
        })?),
    };
    if opdescs && isa != Some(Isa::Pica) {
        return Err(usage("opdescs applies only to format=\"pica\""));
    }
    let set: Vec<(String, String)> = settings.unwrap_or_default().into_iter().collect();
    let variation = (program.is_some() || !set.is_empty()).then_some(asm::Variation { program, set: &set });
    let made = py.detach(|| {
        asm::refuse(text)?;
        match isa {
            Some(isa) => asm::assemble_bare(isa, text).map(|p| (p.code, p.opdescs)),
            None => {
                let files = [asm::File { name: "", text }];
                asm::assemble_variation(&files, like, variation).map(|a| (a.bytes, None))
            }
        }
    });
    match made {
        Ok((code, descs)) if opdescs => {
            let descs = descs.unwrap_or_default();
            Ok((PyBytes::new(py, &code), PyBytes::new(py, &descs)).into_pyobject(py)?.into_any())
        }
        Ok((code, _)) => Ok(PyBytes::new(py, &code).into_any()),
        Err(e @ (asm::Error::NeedsOriginal(..) | asm::Error::Original(_) | asm::Error::NoAssembler(_))) => {
            Err(usage(e))
        }
        Err(e) => Err(error(py, e.to_string(), None)),
    }
}

/// What a scan has left to give.
struct ScanState {
    files: VecDeque<String>,
    ready: VecDeque<String>,
    seen: shaderscope::find::Summary,
    count: usize,
    label: String,
    summarised: bool,
}

/// The records of `shaderscope scan --json PATH`, one at a time: a `scan` record per shader
/// binary found (whole files and embedded ones), in the CLI's walk order, then the closing
/// `scan-summary` record. Files are read and searched as the iterator is advanced, with the
/// interpreter lock released.
#[pyclass(module = "shaderscope")]
struct Scan {
    state: Mutex<ScanState>,
}

impl ScanState {
    /// Search the next file; false when there is none.
    fn step(&mut self) -> bool {
        let Some(path) = self.files.pop_front() else { return false };
        // A file that cannot be read is passed over, as the CLI goes on past it.
        let Ok(data) = std::fs::read(&path) else { return true };
        shaderscope::find::each(&data, &mut |f, _| {
            self.ready.push_back(f.record(&path).to_line());
            self.seen.add(&f);
        });
        true
    }

    /// The closing record: finds, distinct hashes and broken ones by format and by stage.
    fn summary(&self) -> String {
        self.seen.record(&self.label, self.count).to_line()
    }

    /// The next record's text, searching files until one gives a record; None at the end.
    fn next(&mut self) -> Option<String> {
        loop {
            if let Some(r) = self.ready.pop_front() {
                return Some(r);
            }
            if !self.step() {
                break;
            }
        }
        if self.summarised {
            return None;
        }
        self.summarised = true;
        Some(self.summary())
    }
}

#[pymethods]
impl Scan {
    /// The iterator itself.
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next record (a dict); StopIteration after the summary.
    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let next = py.detach(|| self.state.lock().ok().and_then(|mut s| s.next()));
        match next {
            Some(line) => loads(py, &line),
            None => Err(PyStopIteration::new_err(())),
        }
    }
}

/// The files `walk` meets under `root`, in the CLI's walk order; the first path it passes
/// over (a folder that cannot be read, a device named) raises OSError with the CLI's words.
fn walk(walk: &Walk, root: &str) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    for entry in walk.entries(root) {
        match entry {
            Entry::File(path) => files.push(path),
            other => return Err(other.to_string()),
        }
    }
    Ok(files)
}

/// Find every shader binary under the folder (or in the file) `path`, as `shaderscope scan
/// --json PATH` does: an iterator of its records, in the same order, with the same `path`s.
/// `glob` (one glob or a list; `!GLOB` excludes), `max_depth` and `follow` are the CLI's
/// `--glob`, `--max-depth` and `--follow`. A glob that does not parse raises ValueError; a
/// folder that cannot be read, OSError.
#[pyfunction]
#[pyo3(signature = (path, *, glob=None, max_depth=None, follow=false))]
fn scan(
    py: Python<'_>,
    path: PathBuf,
    glob: Option<Globs>,
    max_depth: Option<usize>,
    follow: bool,
) -> PyResult<Scan> {
    let globs = match glob {
        None => Vec::new(),
        Some(Globs::One(g)) => vec![g],
        Some(Globs::Many(g)) => g,
    };
    let walker = Walk::new(&globs).map_err(|e| usage(format!("glob: {e}")))?;
    let walker = walker.with_max_depth(max_depth).with_follow(follow);
    let label = path.display().to_string();
    let files = py.detach(|| walk(&walker, &label)).map_err(PyOSError::new_err)?;
    let count = files.len();
    let state = ScanState {
        files: files.into(),
        ready: VecDeque::new(),
        seen: shaderscope::find::Summary::default(),
        count,
        label,
        summarised: false,
    };
    Ok(Scan { state: Mutex::new(state) })
}

/// `scan`'s `glob`: one glob, or several.
#[derive(FromPyObject)]
enum Globs {
    One(String),
    Many(Vec<String>),
}

/// shaderscope: read, validate, explain, disassemble and write compiled GPU shader binaries
/// (DXBC, Direct3D 9, 3DS SHBIN, Wii U GFD and SHARCFB, Mali MBS). Every answer is the one the
/// `shaderscope` command line gives for the same file.
#[pymodule]
fn _shaderscope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_class::<File>()?;
    m.add_class::<Scan>()?;
    m.add_function(wrap_pyfunction!(dump, m)?)?;
    m.add_function(wrap_pyfunction!(assemble, m)?)?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    Ok(())
}
