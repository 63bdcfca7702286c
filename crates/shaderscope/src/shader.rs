//! [`Shader`]: a file's bytes and their parsed model in one value that owns both.
//!
//! [`parse`](crate::parse) gives a [`File`] that borrows the bytes it was read from, which is
//! the cheapest way for a caller that holds the bytes anyway (the command line reads a file,
//! works on it, drops both). A front end whose values cannot carry a borrow (a Python object,
//! a web page's state between two clicks) holds a `Shader` instead: it keeps the bytes and the
//! model read from them together, and answers every question through [`Shader::file`] (the
//! [`Container`](crate::Container) questions and [`File`]'s requests).
//!
//! ```
//! use shaderscope::{Container, Format, Shader};
//! let bytes = shaderscope::shbin::build::example_vertex_shader();
//! let shader = Shader::parse(bytes.clone())?;
//! assert_eq!(shader.file().format(), Format::Dvlb);
//! assert_eq!(shader.bytes(), &bytes[..]);
//! let mut info = String::new();
//! shader.file().write_info_text(&mut info)?;
//! assert!(info.starts_with("format: Nintendo 3DS shader binary (DVLB)"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{File, Prepared};
use crate::error::Result;
use std::fmt;

self_cell::self_cell!(
    /// The bytes and the model read from them.
    struct Cell {
        owner: Box<[u8]>,
        #[covariant]
        dependent: File,
    }
);

/// A shader file that owns its bytes, parsed once ([module documentation](self)).
pub struct Shader(Cell);

impl Shader {
    /// Recognise the format of `bytes` and parse them ([`crate::parse`]), keeping both.
    pub fn parse(bytes: impl Into<Box<[u8]>>) -> Result<Shader> {
        Cell::try_new(bytes.into(), |b| crate::parse(b)).map(Shader)
    }

    /// [`Shader::parse`] with what [`crate::prepare`] worked out for these bytes.
    pub fn parse_prepared(bytes: impl Into<Box<[u8]>>, prepared: &Prepared) -> Result<Shader> {
        Cell::try_new(bytes.into(), |b| crate::parse_prepared(b, prepared)).map(Shader)
    }

    /// The bytes the file was read from.
    pub fn bytes(&self) -> &[u8] {
        self.0.borrow_owner()
    }

    /// The parsed file: every question a front end asks of it.
    pub fn file(&self) -> &File<'_> {
        self.0.borrow_dependent()
    }

    /// The bytes back, the model dropped.
    pub fn into_bytes(self) -> Box<[u8]> {
        self.0.into_owner()
    }
}

impl fmt::Debug for Shader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shader").field("bytes", &self.bytes().len()).field("file", self.file()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Container, Format};

    /// A `Shader` answers as the borrowed `File` of the same bytes does, and moves freely (to
    /// another thread) with its model.
    #[test]
    fn a_shader_answers_as_its_borrowed_file() {
        let bytes: &[u8] = include_bytes!("../../../samples/ps_color.dxbc");
        let shader = Shader::parse(bytes.to_vec()).unwrap();
        let borrowed = crate::parse(bytes).unwrap();
        let shader = std::thread::spawn(move || shader).join().unwrap();
        assert_eq!(shader.file().format(), Format::Dxbc);
        assert_eq!(shader.file().info_text(), borrowed.info_text());
        assert_eq!(shader.file().checksum(), borrowed.checksum());
        assert_eq!(&*shader.into_bytes(), bytes);
    }

    /// Bytes that are no shader are refused with parse's error, and nothing is kept.
    #[test]
    fn bytes_that_are_no_shader_are_refused_as_parse_refuses_them() {
        let e = Shader::parse(b"not a shader".to_vec()).unwrap_err();
        assert_eq!(e.to_string(), crate::parse(b"not a shader").unwrap_err().to_string());
    }
}
