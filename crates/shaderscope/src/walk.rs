//! The files `scan` searches: every regular file under the paths given, each folder's entries
//! sorted by name, kept or left out by globs in ripgrep's manner. One walk for every front end
//! (the CLI's `scan`, the Python package's `scan`), so that they search the same files in the
//! same order. Behind the `fs` feature: the rest of the library reads no files.
//!
//! ```
//! use shaderscope::walk::{Entry, Walk};
//!
//! let walk = Walk::new(&["*.dxbc".to_string()]).expect("a valid glob");
//! let files: Vec<String> = walk
//!     .entries("../../samples")
//!     .filter_map(|e| match e {
//!         Entry::File(path) => Some(path),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(files, ["../../samples/ps_color.dxbc", "../../samples/ps_texture.dxbc"]);
//! ```

use std::fmt;
use std::path::Path;

/// What a walk meets, in walk order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A regular file to search, as its path displays.
    File(String),
    /// A path given that is neither a regular file nor a folder (a device, a FIFO, a socket, a
    /// link not followed): said once and passed over. One met inside a folder is passed over
    /// without a word, as ripgrep does.
    Skipped {
        /// The path.
        path: String,
        /// What it is (`a FIFO, not a regular file`).
        what: &'static str,
    },
    /// A folder or file that cannot be read: the walk goes on past it.
    Unreadable {
        /// The path.
        path: String,
        /// Why (the system's message).
        why: String,
    },
}

impl fmt::Display for Entry {
    /// The path, and for a path passed over why, as the CLI reports it after `error: `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::File(path) => f.write_str(path),
            Entry::Skipped { path, what } => write!(f, "{path}: {what}, skipped (scan reads regular files)"),
            Entry::Unreadable { path, why } => write!(f, "{path}: {why}"),
        }
    }
}

/// How to walk: the globs, how deep, whether to follow symbolic links.
#[derive(Debug, Clone)]
pub struct Walk {
    /// The plain globs (a file must match one, when there are any).
    include: Option<globset::GlobSet>,
    /// The `!` globs (a file must match none).
    exclude: globset::GlobSet,
    max_depth: Option<usize>,
    follow: bool,
}

impl Walk {
    /// A walk keeping the files that match one of the plain `globs` (all files when there are
    /// none) and none of the `!GLOB` ones. A glob without `/` matches the file name, else the
    /// path below the root walked. The error is globset's, naming the glob.
    pub fn new(globs: &[String]) -> Result<Walk, globset::Error> {
        let (mut inc, mut exc) = (globset::GlobSetBuilder::new(), globset::GlobSetBuilder::new());
        let mut any = false;
        for g in globs {
            match g.strip_prefix('!') {
                Some(rest) => exc.add(globset::Glob::new(rest)?),
                None => {
                    any = true;
                    inc.add(globset::Glob::new(g)?)
                }
            };
        }
        let include = if any { Some(inc.build()?) } else { None };
        Ok(Walk { include, exclude: exc.build()?, max_depth: None, follow: false })
    }

    /// Descend at most `depth` folders below each root (0: the root itself only).
    pub fn with_max_depth(mut self, depth: Option<usize>) -> Self {
        self.max_depth = depth;
        self
    }

    /// Follow symbolic links, or not.
    pub fn with_follow(mut self, follow: bool) -> Self {
        self.follow = follow;
        self
    }

    /// Whether the file at `rel` (its path below the root it was found under) is kept.
    fn keeps(&self, rel: &Path) -> bool {
        let name = rel.file_name().map(Path::new).unwrap_or(rel);
        let hit = |set: &globset::GlobSet| set.is_match(rel) || set.is_match(name);
        self.include.as_ref().is_none_or(hit) && !hit(&self.exclude)
    }

    /// What the walk meets under `root` (a folder, or a file, which is kept whatever the
    /// globs say), in order, each folder's entries sorted by name.
    pub fn entries<'a>(&'a self, root: &'a str) -> impl Iterator<Item = Entry> + 'a {
        let mut w = walkdir::WalkDir::new(root).follow_links(self.follow).sort_by_file_name();
        if let Some(d) = self.max_depth {
            w = w.max_depth(d);
        }
        w.into_iter().filter_map(move |entry| match entry {
            Ok(e) if e.file_type().is_file() => {
                let rel = e.path().strip_prefix(root).unwrap_or(e.path());
                (e.depth() == 0 || self.keeps(rel)).then(|| Entry::File(e.path().display().to_string()))
            }
            Ok(e) if e.depth() == 0 && !e.file_type().is_dir() => {
                Some(Entry::Skipped { path: e.path().display().to_string(), what: kind(e.file_type()) })
            }
            Ok(_) => None,
            Err(e) => {
                let path = e.path().map_or_else(|| root.to_string(), |p| p.display().to_string());
                let why = e.io_error().map_or_else(|| e.to_string(), |io| io.to_string());
                Some(Entry::Unreadable { path, why })
            }
        })
    }
}

/// What a path that is neither a regular file nor a folder is.
fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_char_device() {
            return "a character device, not a regular file";
        }
        if t.is_block_device() {
            return "a block device, not a regular file";
        }
        if t.is_fifo() {
            return "a FIFO, not a regular file";
        }
        if t.is_socket() {
            return "a socket, not a regular file";
        }
    }
    if t.is_symlink() {
        "a symbolic link (--follow follows it), not a regular file"
    } else {
        "not a regular file"
    }
}
