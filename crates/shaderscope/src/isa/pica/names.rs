//! Identifiers for a listing: turning symbol-table names into picasso identifiers, and keeping
//! every name in one listing unique.
//!
//! picasso identifiers are C identifiers that may also contain `$` (picasso writes `$` as `.`
//! into the DVLE uniform table, so `aPosition$xy` re-creates Nintendo's `aPosition.xy`).
//! Uniform names that start with `_` are hidden by picasso (left out of the table), so a
//! table name starting with `_` gets a prefix. [`sanitize`] is idempotent through picasso:
//! sanitizing the name picasso writes back gives the same identifier again.

use std::collections::HashSet;

/// Words a label or procedure must not be called. Besides picasso's own keywords, these are
/// words that appear in a listing in other roles (mnemonics, directives, condition and
/// output-property names); a tool that renames labels textually must not hit them.
const RESERVED: &[&str] = &[
    "add",
    "dp3",
    "dp4",
    "dph",
    "dphi",
    "dst",
    "dsti",
    "ex2",
    "lg2",
    "litp",
    "mul",
    "sge",
    "sgei",
    "slt",
    "slti",
    "flr",
    "max",
    "min",
    "rcp",
    "rsq",
    "mova",
    "mov",
    "break",
    "nop",
    "end",
    "breakc",
    "call",
    "callc",
    "callu",
    "ifu",
    "ifc",
    "for",
    "loop",
    "emit",
    "setemit",
    "jmpc",
    "jmpu",
    "cmp",
    "mad",
    "madi",
    "proc",
    "else",
    "alias",
    "fvec",
    "ivec",
    "bool",
    "constf",
    "consti",
    "constfa",
    "in",
    "out",
    "entry",
    "nodvle",
    "gsh",
    "setf",
    "seti",
    "setb",
    "prim",
    "primitive",
    "inv",
    "invert",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "a0",
    "a1",
    "a2",
    "al",
    "lcnt",
    "true",
    "false",
    "on",
    "off",
    "point",
    "variable",
    "subdivision",
    "fixed",
    "particle",
    "position",
    "pos",
    "normalquat",
    "nquat",
    "color",
    "clr",
    "texcoord0",
    "tcoord0",
    "texcoord0w",
    "tcoord0w",
    "texcoord1",
    "tcoord1",
    "texcoord2",
    "tcoord2",
    "view",
    "dummy",
];

/// Whether `s` reads as a register (`c5`, `V0`…): picasso would take it as one.
fn register_like(s: &str) -> bool {
    let b = s.as_bytes();
    matches!(b.first().map(u8::to_ascii_lowercase), Some(b'o' | b'v' | b'r' | b'c' | b'i' | b'b'))
        && b.get(1).is_some_and(u8::is_ascii_digit)
}

/// Whether `s` is a swizzle or mask word (`xy`, `wzyx`…).
fn swizzle_like(s: &str) -> bool {
    (1..=4).contains(&s.len()) && s.bytes().all(|c| matches!(c, b'x' | b'y' | b'z' | b'w'))
}

/// A symbol-table name as a picasso identifier for a uniform, input or output alias:
/// `.` becomes `$`, other characters that identifiers cannot hold become `_`, and a name
/// that would be hidden (`_…`), start with a digit, read as a register or be empty gets a
/// `u` prefix.
pub fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| match c {
            '.' => '$',
            c if c.is_ascii_alphanumeric() || c == '_' || c == '$' => c,
            _ => '_',
        })
        .collect();
    let needs_prefix = s.is_empty()
        || s.starts_with('_')
        || s.starts_with(|c: char| c.is_ascii_digit())
        || register_like(&s);
    if needs_prefix {
        s.insert(0, 'u');
    }
    s
}

/// A symbol-table name as a label or procedure name (letters, digits and `_` only), or `None`
/// when it would clash with a keyword.
pub(crate) fn label_name(name: &str) -> Option<String> {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let bad = s.is_empty()
        || s.starts_with(|c: char| c.is_ascii_digit())
        || register_like(&s)
        || swizzle_like(&s)
        || RESERVED.contains(&s.to_ascii_lowercase().as_str());
    (!bad).then_some(s)
}

/// The names taken in one listing.
#[derive(Debug, Default)]
pub struct NameSet {
    used: HashSet<String>,
    /// The `$`-separated parts of aliases: a label must not equal one of them either, since
    /// a word-wise rename of the label would also change the alias.
    parts: HashSet<String>,
}

impl NameSet {
    /// Take `base` for an alias, or `base_2`, `base_3`… if it is taken.
    pub fn claim(&mut self, base: &str) -> String {
        let name = self.first_free(base, false);
        for p in name.split('$') {
            if p != name {
                self.parts.insert(p.to_string());
            }
        }
        self.used.insert(name.clone());
        name
    }

    /// Take `base` for a label or procedure: also avoids the parts of aliases.
    pub fn claim_label(&mut self, base: &str) -> String {
        let name = self.first_free(base, true);
        self.used.insert(name.clone());
        name
    }

    fn first_free(&self, base: &str, label: bool) -> String {
        let taken = |n: &str| self.used.contains(n) || (label && self.parts.contains(n));
        let mut name = base.to_string();
        let mut n = 2u32;
        while taken(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }

    /// Whether `name` is free for a label.
    pub fn is_free_label(&self, name: &str) -> bool {
        !self.used.contains(name) && !self.parts.contains(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nintendo_names_become_identifiers() {
        assert_eq!(sanitize("aPosition.xy"), "aPosition$xy");
        assert_eq!(sanitize("aPositionZ.x"), "aPositionZ$x");
        assert_eq!(sanitize("uProjection"), "uProjection");
        assert_eq!(sanitize("_hidden"), "u_hidden");
        assert_eq!(sanitize("2d"), "u2d");
        assert_eq!(sanitize("c0"), "uc0");
        assert_eq!(sanitize("V3"), "uV3");
        assert_eq!(sanitize(""), "u");
        assert_eq!(sanitize("a b-c"), "a_b_c");
    }

    #[test]
    fn sanitizing_what_picasso_writes_back_is_stable() {
        for n in ["aPosition.xy", "_x", "c0", "a$b.c", "é", "9", "", "x.y.z"] {
            let once = sanitize(n);
            let written = once.replace('$', ".");
            assert_eq!(sanitize(&written), once, "{n}");
        }
    }

    #[test]
    fn label_names_avoid_keywords() {
        assert_eq!(label_name("normalizedepth").as_deref(), Some("normalizedepth"));
        assert_eq!(label_name("end"), None);
        assert_eq!(label_name("Position"), None);
        assert_eq!(label_name("xy"), None);
        assert_eq!(label_name("r2"), None);
        assert_eq!(label_name("a.b").as_deref(), Some("a_b"));
    }

    #[test]
    fn claims_are_unique() {
        let mut n = NameSet::default();
        assert_eq!(n.claim("main"), "main");
        assert_eq!(n.claim("main"), "main_2");
        assert_eq!(n.claim("aColor$xyz"), "aColor$xyz");
        // `aColor` is free for an alias but, being part of one, not for a label
        assert!(!n.is_free_label("aColor"));
        assert_eq!(n.claim_label("aColor"), "aColor_2");
        assert_eq!(n.claim("aColor"), "aColor");
    }
}
