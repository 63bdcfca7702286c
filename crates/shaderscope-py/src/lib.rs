//! `shaderscope` for Python: a thin shell over the library's facade ([`shaderscope::Shader`],
//! [`shaderscope::File`]'s requests, [`shaderscope::asm`], [`shaderscope::find`]), so that every
//! answer is the one the command line gives for the same file, made by the same calls.
//!
//! Text answers go through [`TextBuf::for_terminal`] as the CLI's output does (control
//! characters escaped), so they equal its stdout byte for byte; JSON answers are the CLI's
//! records, parsed by Python's `json` module. A request the CLI refuses with exit status 2
//! (a switch that does not apply, a part that does not exist) raises `ValueError`; a file at
//! fault (exit status 1) raises `shaderscope.Error`, a subclass of `ValueError`.

use pyo3::exceptions::{PyStopIteration, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyDict, PyList};
use shaderscope::asm;
use shaderscope::bare::Isa;
use shaderscope::dump::Annotations;
use shaderscope::dxbc::hash::Hashes;
use shaderscope::dxbc::{reflect, signature};
use shaderscope::json::Record;
use shaderscope::print::TextBuf;
use shaderscope::{Container, DisasmOptions, Format, Generation, Shader};
use std::collections::VecDeque;
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
#[pyclass(frozen, module = "shaderscope")]
struct File {
    shader: Shader,
    name: Option<String>,
}

impl File {
    fn file(&self) -> &shaderscope::File<'_> {
        self.shader.file()
    }

    /// The listing configuration of `disasm`'s switches, checked against this file as the
    /// CLI checks it (`ValueError` where the CLI exits 2).
    fn options(&self, s: Switches<'_>) -> PyResult<DisasmOptions> {
        if s.offsets && s.file_offsets {
            return Err(usage("offsets and file_offsets cannot be used together"));
        }
        let (generation, legacy_crt) = match s.fxc.unwrap_or("auto") {
            "auto" => (None, false),
            "9.29" => (Some(Generation::Fxc9_29), false),
            "9.30" => (Some(Generation::Fxc9_30), false),
            "6.3" => (Some(Generation::Fxc6_3), false),
            "10" => (Some(Generation::Fxc10), false),
            "10-legacy-crt" => (Some(Generation::Fxc10), true),
            other => {
                return Err(usage(format!(
                    "fxc={other:?} is none of 'auto', '9.29', '9.30', '6.3', '10', '10-legacy-crt'"
                )));
            }
        };
        let mut opts = DisasmOptions::default()
            .with_offsets(s.offsets)
            .with_file_offsets(s.file_offsets)
            .with_raw(s.raw)
            .with_legacy_crt(legacy_crt)
            .with_numbering(s.numbering)
            .with_hex_literals(s.hex_literals)
            .with_exact_floats(s.exact_floats)
            .with_no_header(s.no_header)
            .with_instruction_only(s.instruction_only);
        if let Some(n) = s.dvle {
            opts = opts.with_program(n);
        }
        if let Some(g) = generation {
            opts = opts.with_generation(g);
        }
        opts.check(self.file()).map_err(usage)?;
        Ok(opts)
    }
}

/// One chunk of a DXBC container (`File.chunks`): its code, where it is and its bytes (a copy).
#[pyclass(frozen, get_all, module = "shaderscope")]
struct Chunk {
    /// The four-character code (`RDEF`, `SHEX`, ...; other bytes as `\xNN`).
    fourcc: String,
    /// The absolute offset of the chunk's header (its code).
    offset: usize,
    /// The absolute offset of the payload (after the 8-byte header).
    data_offset: usize,
    /// The payload's size in bytes.
    size: usize,
    /// What the chunk is, as `extract` describes it.
    description: &'static str,
    /// The payload.
    data: Py<PyBytes>,
}

#[pymethods]
impl Chunk {
    fn __repr__(&self) -> String {
        format!("<shaderscope.Chunk {} at 0x{:x}, {} bytes>", self.fourcc, self.offset, self.size)
    }
}

/// One element of a DXBC signature (`File.input_signature`, ...), with the names `info --json`
/// gives its fields.
#[pyclass(frozen, get_all, module = "shaderscope")]
struct SignatureElement {
    /// The semantic name (`COLOR`, `SV_Target`).
    semantic_name: String,
    /// The semantic index.
    semantic_index: u32,
    /// The register number.
    register: u32,
    /// The system value as fxc's SysValue column prints it (`NONE`, `TARGET`, `POS`), or
    /// `unknown`.
    system_value: &'static str,
    /// The `D3D_NAME` value.
    system_value_id: u32,
    /// The `D3D_NAME` constant's name, where the value has one.
    system_value_name: Option<&'static str>,
    /// The component type as fxc's Format column prints it (`float`, `int`, `uint`).
    component_type: &'static str,
    /// The `D3D_REGISTER_COMPONENT_TYPE` constant's name, where the value has one.
    component_type_name: Option<&'static str>,
    /// The components present (bit 0: x ... bit 3: w).
    mask: u8,
    /// Inputs: the components read; outputs: the components never written.
    read_write_mask: u8,
    /// The geometry-shader stream (0 outside OSG5/xSG1).
    stream: u32,
    /// The `D3D_MIN_PRECISION` value (xSG1 only; 0 elsewhere).
    min_precision: u32,
    /// The `D3D_MIN_PRECISION` constant's name, where the value has one.
    min_precision_name: Option<&'static str>,
    /// The absolute offset of the element's record.
    offset: usize,
}

#[pymethods]
impl SignatureElement {
    fn __repr__(&self) -> String {
        format!(
            "<shaderscope.SignatureElement {}{} r{} {}>",
            self.semantic_name,
            self.semantic_index,
            self.register,
            signature::mask_text(self.mask).trim_end()
        )
    }
}

/// A DXBC signature's elements as Python objects.
fn elements(
    py: Python<'_>,
    sig: Option<&signature::Signature<'_>>,
) -> PyResult<Option<Vec<Py<SignatureElement>>>> {
    let Some(sig) = sig else { return Ok(None) };
    let made = sig.elements.iter().map(|e| {
        let element = SignatureElement {
            semantic_name: e.name.text().into_owned(),
            semantic_index: e.semantic_index,
            register: e.register,
            system_value: signature::system_value_name(e.system_value).unwrap_or("unknown"),
            system_value_id: e.system_value,
            system_value_name: reflect::system_value(e.system_value),
            component_type: signature::format_name(e.component_type, 0),
            component_type_name: reflect::component_type(e.component_type),
            mask: e.mask,
            read_write_mask: e.rw_mask,
            stream: e.stream,
            min_precision: e.min_precision,
            min_precision_name: reflect::min_precision(e.min_precision),
            offset: e.offset,
        };
        Py::new(py, element)
    });
    made.collect::<PyResult<Vec<_>>>().map(Some)
}

/// `disasm`'s switches, named as the CLI's long options.
#[derive(Clone, Copy)]
struct Switches<'a> {
    dvle: Option<usize>,
    offsets: bool,
    file_offsets: bool,
    raw: bool,
    fxc: Option<&'a str>,
    numbering: bool,
    hex_literals: bool,
    exact_floats: bool,
    no_header: bool,
    instruction_only: bool,
}

#[pymethods]
impl File {
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

    /// DXBC: the container's chunks in index order (`Chunk`: fourcc, offset, size,
    /// description, data); None for the other formats.
    #[getter]
    fn chunks(&self, py: Python<'_>) -> PyResult<Option<Vec<Py<Chunk>>>> {
        let shaderscope::File::Dxbc(d) = self.file() else { return Ok(None) };
        let made = d.chunks().iter().map(|c| {
            let chunk = Chunk {
                fourcc: c.fourcc.name(),
                offset: c.offset,
                data_offset: c.data_offset(),
                size: c.data.len(),
                description: d.chunk_description(&c.fourcc.0),
                data: PyBytes::new(py, c.data).unbind(),
            };
            Py::new(py, chunk)
        });
        made.collect::<PyResult<Vec<_>>>().map(Some)
    }

    /// DXBC: the input signature's elements (`SignatureElement`); None for a container
    /// without one and for the other formats.
    #[getter]
    fn input_signature(&self, py: Python<'_>) -> PyResult<Option<Vec<Py<SignatureElement>>>> {
        let shaderscope::File::Dxbc(d) = self.file() else { return Ok(None) };
        elements(py, d.input.as_ref())
    }

    /// DXBC: the output signature's elements, as `input_signature`.
    #[getter]
    fn output_signature(&self, py: Python<'_>) -> PyResult<Option<Vec<Py<SignatureElement>>>> {
        let shaderscope::File::Dxbc(d) = self.file() else { return Ok(None) };
        elements(py, d.output.as_ref())
    }

    /// DXBC: the patch-constant signature's elements (hull and domain shaders), as
    /// `input_signature`.
    #[getter]
    fn patch_constant_signature(&self, py: Python<'_>) -> PyResult<Option<Vec<Py<SignatureElement>>>> {
        let shaderscope::File::Dxbc(d) = self.file() else { return Ok(None) };
        elements(py, d.patch_constant.as_ref())
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
    /// format raises ValueError; a listing that fails raises Error.
    #[pyo3(signature = (*, dvle=None, offsets=false, file_offsets=false, raw=false, fxc=None,
        numbering=false, hex_literals=false, exact_floats=false, no_header=false,
        instruction_only=false))]
    #[allow(clippy::too_many_arguments)]
    fn disasm(
        &self,
        py: Python<'_>,
        dvle: Option<usize>,
        offsets: bool,
        file_offsets: bool,
        raw: bool,
        fxc: Option<&str>,
        numbering: bool,
        hex_literals: bool,
        exact_floats: bool,
        no_header: bool,
        instruction_only: bool,
    ) -> PyResult<String> {
        let s = Switches {
            dvle,
            offsets,
            file_offsets,
            raw,
            fxc,
            numbering,
            hex_literals,
            exact_floats,
            no_header,
            instruction_only,
        };
        let opts = self.options(s)?;
        let listing = py.detach(|| {
            let mut out = TextBuf::for_terminal();
            self.file().disasm(&opts, &mut out).map(|()| out.into_string())
        });
        listing.map_err(|e| file_error(py, &e))
    }

    /// Every program's instruction records of `shaderscope disasm --json FILE`, in order, as
    /// one list (offset, words, mnemonic, operands, text, ...). Takes `disasm`'s keywords.
    #[pyo3(signature = (*, dvle=None, offsets=false, file_offsets=false, raw=false, fxc=None,
        numbering=false, hex_literals=false, exact_floats=false, no_header=false,
        instruction_only=false))]
    #[allow(clippy::too_many_arguments)]
    fn instructions<'py>(
        &self,
        py: Python<'py>,
        dvle: Option<usize>,
        offsets: bool,
        file_offsets: bool,
        raw: bool,
        fxc: Option<&str>,
        numbering: bool,
        hex_literals: bool,
        exact_floats: bool,
        no_header: bool,
        instruction_only: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let s = Switches {
            dvle,
            offsets,
            file_offsets,
            raw,
            fxc,
            numbering,
            hex_literals,
            exact_floats,
            no_header,
            instruction_only,
        };
        let opts = self.options(s)?;
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
    /// or a SHARCFB program's default variation as a GFD `.gsh`. A name the file does not have
    /// raises ValueError; a part that cannot be built raises Error.
    fn part<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyBytes>> {
        match py.detach(|| self.file().extract(name, &[])) {
            Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
            Err(shaderscope::Refusal::Broken(e)) => Err(file_error(py, &e)),
            Err(e) => Err(usage(e)),
        }
    }

    /// Every byte annotated: the text `shaderscope dump FILE` prints (offset | hex | meaning).
    fn dump(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| {
            let data = self.shader.bytes();
            let mut a = Annotations::new();
            shaderscope::annotate(data, &mut a).map_err(|e| e.to_string())?;
            let mut out = TextBuf::for_terminal();
            a.render_range(data, 0..u64::MAX, &mut out).map_err(|e| e.to_string())?;
            Ok(out.into_string())
        })
        .map_err(|e: String| usage(e))
    }

    /// `<shaderscope.File "NAME" FORMAT (N bytes)>`.
    fn __repr__(&self) -> String {
        let name = self.name.as_deref().map_or_else(String::new, |n| format!(" {n:?}"));
        format!("<shaderscope.File{name} {} ({} bytes)>", self.format(), self.shader.bytes().len())
    }
}

/// Parse `data` (a shader file's bytes, copied: the File owns them) with the interpreter lock
/// released.
fn parse_owned(py: Python<'_>, data: Vec<u8>, name: Option<String>) -> PyResult<File> {
    match py.detach(|| Shader::parse(data)) {
        Ok(shader) => Ok(File { shader, name }),
        Err(e) => Err(file_error(py, &e)),
    }
}

/// Parse a shader file's bytes (`bytes` or `bytearray`, any format shaderscope reads) into a
/// `File`, which keeps its own copy of them: later changes to `data`, or its deletion, do not
/// reach it. `name` is for your own use (`File.name`). Raises Error when the bytes are no
/// shader file or do not parse.
#[pyfunction]
#[pyo3(signature = (data, name=None))]
fn parse(py: Python<'_>, data: PyBackedBytes, name: Option<String>) -> PyResult<File> {
    parse_owned(py, data.to_vec(), name)
}

/// Read and parse the file at `path` (a str or os.PathLike). A file that cannot be read raises
/// OSError (FileNotFoundError, ...) as Python's own `open` does; one that does not parse,
/// Error.
#[pyfunction]
fn open(py: Python<'_>, path: PathBuf) -> PyResult<File> {
    let data = py.detach(|| std::fs::read(&path))?;
    parse_owned(py, data, Some(path.display().to_string()))
}

/// Assemble a listing back into a binary, as `shaderscope asm` does: a whole DXBC container,
/// Direct3D 9 bytecode or SHBIN from the text; with `like` (the original's bytes), into that
/// original (what the text does not carry is kept from it; Wii U and MBS listings need it);
/// with `format` (`sm4`, `d3d9`, `pica`, `latte`, `mali-gp`, `mali-pp`), a bare program's
/// words as `asm --format` writes them. Text that does not assemble raises Error (its line and
/// column in the message); a usage the CLI refuses with status 2 (no original where one is
/// needed, an original of no use), ValueError.
#[pyfunction]
#[pyo3(signature = (text, like=None, format=None))]
fn assemble<'py>(
    py: Python<'py>,
    text: &str,
    like: Option<&[u8]>,
    format: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    if format.is_some() && like.is_some() {
        return Err(usage("format and like cannot be used together"));
    }
    let isa = match format {
        None => None,
        Some(name) => Some(Isa::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Isa::ALL.iter().map(|i| i.name()).collect();
            usage(format!("format={name:?} is none of {}", names.join(", ")))
        })?),
    };
    let made = py.detach(|| {
        asm::refuse(text)?;
        match isa {
            Some(isa) => asm::assemble_bare(isa, text).map(|p| p.code),
            None => asm::assemble(text, like).map(|a| a.bytes),
        }
    });
    match made {
        Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
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

/// Every file under `path` in the CLI's walk order (each folder's entries sorted by name);
/// `path` itself when it is a file. A folder that cannot be read raises OSError.
fn walk(path: &str) -> std::io::Result<Vec<String>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
        let e = entry.map_err(std::io::Error::from)?;
        if e.file_type().is_file() {
            files.push(e.path().display().to_string());
        }
    }
    Ok(files)
}

/// Find every shader binary under the folder (or in the file) `path`, as `shaderscope scan
/// --json PATH` does: an iterator of its records, in the same order, with the same `path`s.
#[pyfunction]
fn scan(py: Python<'_>, path: PathBuf) -> PyResult<Scan> {
    let label = path.display().to_string();
    let files = py.detach(|| walk(&label))?;
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

/// shaderscope: read, validate, explain, disassemble and write compiled GPU shader binaries
/// (DXBC, Direct3D 9, 3DS SHBIN, Wii U GFD and SHARCFB, Mali MBS). Every answer is the one the
/// `shaderscope` command line gives for the same file.
#[pymodule]
fn _shaderscope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_class::<File>()?;
    m.add_class::<Scan>()?;
    m.add_class::<Chunk>()?;
    m.add_class::<SignatureElement>()?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(assemble, m)?)?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    Ok(())
}
