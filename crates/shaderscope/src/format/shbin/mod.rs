//! Nintendo 3DS shader binaries (placeholder while the module is written).

use crate::any::Container;
use crate::detect::Format;
use crate::error::{Error, Result};

/// Parse a DVLB/DVOJ/CGFX/csdr file.
pub fn parse_any(_data: &[u8], format: Format) -> Result<Box<dyn Container + '_>> {
    Err(Error::unsupported(0, format.description(), "not implemented yet"))
}
