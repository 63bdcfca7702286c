//! One interface over every container, so the CLI can stay thin.
//!
//! [`parse`] sniffs the format and returns a [`Container`]; each format module implements the
//! trait on its parsed view. Format-specific work (DXBC checksums, SHARCFB variants) is reached
//! through the format modules directly.

use crate::detect::{Format, detect};
use crate::dump::Annotations;
use crate::error::{Error, Result};
use crate::print::Printer;
use serde::Serialize;

/// Options for [`Container::disasm`]. Fields a format does not use are ignored.
#[derive(Debug, Default, Clone)]
pub struct DisasmOptions {
    /// One program only (SHBIN: the DVLE index, printed as complete picasso source).
    pub program: Option<usize>,
    /// Show each instruction's byte address.
    pub offsets: bool,
    /// Show each instruction's raw encoding.
    pub raw: bool,
    /// DXBC: the container checksum when the caller has already computed it (the CLI hashes
    /// a batch of files at once with [`crate::format::dxbc::checksum::compute_many`]); `None`
    /// computes it. It decides fxc's note on containers whose stored checksum is wrong.
    pub dxbc_checksum: Option<[u8; 16]>,
    /// DXBC: print as this fxc generation instead of the one the file suggests (nothing in a
    /// stripped binary tells fxc 9.29 from 6.3).
    pub dxbc_generation: Option<crate::format::dxbc::Generation>,
    /// DXBC: imitate a C runtime that rounds exact decimal ties away from zero (see
    /// [`crate::format::dxbc::listing::ListingOptions::legacy_crt`]).
    pub dxbc_legacy_crt: bool,
}

/// How bad a validation finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Suspicious but loadable.
    Warning,
    /// The file is invalid.
    Error,
}

/// One validation finding, at an absolute byte offset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Warning or error.
    pub severity: Severity,
    /// Absolute byte offset the finding is about.
    pub offset: u64,
    /// What is wrong, lowercase, no trailing period.
    pub message: String,
}

impl Finding {
    /// An error finding.
    pub fn error(offset: u64, message: impl Into<String>) -> Self {
        Finding { severity: Severity::Error, offset, message: message.into() }
    }
    /// A warning finding.
    pub fn warning(offset: u64, message: impl Into<String>) -> Self {
        Finding { severity: Severity::Warning, offset, message: message.into() }
    }
}

/// Something `extract` can pull out of a container.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Part {
    /// The name to pass to `extract` (e.g. `dvlb0`, `dvle1.code`, `SHEX`).
    pub name: String,
    /// Absolute offset of its bytes in the input.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// What it is.
    pub description: String,
}

/// A parsed file of any supported format.
pub trait Container {
    /// The detected format.
    fn format(&self) -> Format;
    /// Human-readable summary for `shaderscope info`.
    fn info_text(&self, out: &mut String);
    /// Machine-readable summary for `shaderscope info --json` (integer offsets).
    fn info_json(&self) -> serde_json::Value;
    /// The listing for `shaderscope disasm`.
    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()>;
    /// The plain-text listing of [`Container::disasm`], appended to `out` (what `disasm`
    /// prints without colour or HTML). On an error the text written so far stays in `out`.
    /// Formats with a faster way to build plain text than through a [`Printer`] override it.
    fn disasm_text(&self, opts: &DisasmOptions, out: &mut crate::print::TextBuf) -> Result<()> {
        self.disasm(opts, out)
    }
    /// The listing as data for `shaderscope disasm --json`.
    fn disasm_json(&self, opts: &DisasmOptions) -> Result<serde_json::Value>;
    /// Every byte annotated, for `shaderscope dump`.
    fn annotate(&self, out: &mut Annotations);
    /// Semantic checks beyond what parsing needs; empty when the file is fine.
    fn validate(&self) -> Vec<Finding>;
    /// Re-encode from the parsed model (byte-identical for an unmodified file).
    fn write(&self) -> Result<Vec<u8>>;
    /// What `extract` can pull out.
    fn parts(&self) -> Vec<Part>;
    /// The bytes of the part named `name` (see [`Container::parts`]).
    fn extract(&self, name: &str) -> Result<Vec<u8>>;
}

/// Whether this build parses `format`.
pub fn supported(format: Format) -> bool {
    matches!(format, Format::Dxbc | Format::D3d9 | Format::Dvlb | Format::Dvoj | Format::Cgfx | Format::Csdr)
}

/// Sniff and parse any supported file.
pub fn parse(data: &[u8]) -> Result<Box<dyn Container + '_>> {
    let Some(format) = detect(data) else {
        let found = data.get(..4).unwrap_or(data);
        return Err(Error::invalid(
            0,
            "file",
            format!(
                "not a shader binary this tool knows (first bytes \"{}\")",
                crate::error::escape_bytes(found)
            ),
        ));
    };
    match format {
        Format::Dxbc => crate::format::dxbc::parse_container(data),
        Format::D3d9 => crate::format::d3d9::parse_any(data),
        Format::Dvlb | Format::Dvoj | Format::Cgfx | Format::Csdr => {
            crate::format::shbin::parse_any(data, format)
        }
        other => Err(Error::unsupported(
            0,
            other.description(),
            "recognised, but reading it is not implemented in this build",
        )),
    }
}
