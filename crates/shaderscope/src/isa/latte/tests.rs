//! Unit tests of the Latte decoder and listing, on hand-encoded words.

use super::*;

