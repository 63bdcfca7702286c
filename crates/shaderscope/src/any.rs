//! One interface over every format, so that a caller (the CLI among them) needs no
//! format-specific code.
//!
//! [`parse`] recognises the format and returns a [`File`], an enum with one variant per format
//! that reads; match on it to reach a format's own model, or use it through the
//! [`Container`] trait, which every format implements.
//!
//! ```
//! use shaderscope::{Container, File, Format};
//! # let bytes = shaderscope::shbin::build::example_vertex_shader();
//! let file = shaderscope::parse(&bytes)?;
//! assert_eq!(file.format(), Format::Dvlb);
//! if let File::Shbin(shbin) = &file {
//!     assert_eq!(shbin.dvlbs()[0].1.dvles.len(), 1);
//! }
//! let parts: Vec<String> = file.parts().into_iter().map(|p| p.name).collect();
//! assert!(parts.contains(&"dvle0.code".to_string()));
//! # Ok::<(), shaderscope::Error>(())
//! ```

use crate::container::Container;
use crate::detect::Format;
use crate::dump::Annotations;
use crate::error::Result;
use crate::format::{d3d9::D3d9File, dxbc::Dxbc, shbin::ShaderFile};
use crate::model::{DisasmOptions, Finding, Part};
use crate::print::Printer;

/// A file of any format this build reads, as its format's own model.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum File<'a> {
    /// A Direct3D DXBC container.
    Dxbc(Box<Dxbc<'a>>),
    /// Standalone Direct3D 9 bytecode.
    D3d9(D3d9File<'a>),
    /// A Nintendo 3DS shader file: DVLB, DVOJ/DVOB, CGFX or base64 `.csdr`.
    Shbin(Box<ShaderFile>),
}

impl File<'_> {
    /// The file through the format-independent interface.
    pub fn container(&self) -> &dyn Container {
        match self {
            File::Dxbc(d) => &**d,
            File::D3d9(d) => d,
            File::Shbin(s) => &**s,
        }
    }
}

impl Container for File<'_> {
    fn format(&self) -> Format {
        self.container().format()
    }
    fn info_text(&self, out: &mut String) {
        self.container().info_text(out)
    }
    fn info_json(&self) -> serde_json::Value {
        self.container().info_json()
    }
    fn disasm(&self, opts: &DisasmOptions, out: &mut dyn Printer) -> Result<()> {
        self.container().disasm(opts, out)
    }
    fn disasm_json(&self, opts: &DisasmOptions) -> Result<serde_json::Value> {
        self.container().disasm_json(opts)
    }
    fn annotate(&self, out: &mut Annotations) {
        self.container().annotate(out)
    }
    fn validate(&self) -> Vec<Finding> {
        self.container().validate()
    }
    fn damage(&self) -> Vec<crate::Error> {
        self.container().damage()
    }
    fn programs(&self) -> Option<usize> {
        self.container().programs()
    }
    fn write(&self) -> Result<Vec<u8>> {
        self.container().write()
    }
    fn parts(&self) -> Vec<Part<'_>> {
        self.container().parts()
    }
}

/// Recognise the format of `data` and parse it. An input this build cannot read is refused
/// with [`crate::detect::readable`]'s error (empty, not a shader binary, or recognised but not
/// supported yet).
pub fn parse(data: &[u8]) -> Result<File<'_>> {
    let format = crate::detect::readable(data)?;
    match format {
        Format::Dxbc => Dxbc::parse(data).map(|d| File::Dxbc(Box::new(d))),
        Format::D3d9 => D3d9File::parse(data).map(File::D3d9),
        Format::Dvlb | Format::Dvoj | Format::Cgfx | Format::Csdr => {
            ShaderFile::parse(data, format).map(|s| File::Shbin(Box::new(s)))
        }
        other => Err(crate::detect::unsupported(other)),
    }
}
