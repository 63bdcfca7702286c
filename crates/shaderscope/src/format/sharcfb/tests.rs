//! Unit tests of the SHARCFB model on archives built in code.

use super::*;
