//! PICA200 (placeholder while the module is written).
