//! `cargo xtask module-cycles [CRATE...]`: no module of a crate depends,
//! through other modules, on itself: each crate's modules import downwards
//! only.
//!
//! The crates: every library (`src/lib.rs`) and binary (`src/main.rs`) root
//! of the packages `crates/*`, `xtask`, `xtask/*` and `tools/*` (or of the
//! package folders named: `crates/conn`, `conn` for `crates/conn`,
//! `xtask`, `tools/size`). A library prints as its folder
//! (`crates/conn: ..`), a binary as its folder and `(bin)`. For each, the
//! modules are the files the crate compiles: the root, then each `mod x;`
//! of a module as `x.rs` or `x/mod.rs` beside it (`src/x/y.rs` is module
//! `x::y`); an inline `mod x { .. }` belongs to its file's module (a
//! `#[path]` module is not followed).
//! An edge A → B is:
//!
//! - a `use` leaf of A (`use crate::b::Y`, `use super::{b, c::Y}`,
//!   `use self::b::*`, nested braces included) that resolves to module B;
//! - a path in A's code (`crate::b::f()`, `super::Y`, `b::f()` with `b` a
//!   child or a name A imported) that resolves to B;
//! - `mod b;` in A (the parent names its child);
//! - a call `m!` of a `macro_rules! m` defined in B only.
//!
//! A path resolves through re-exports: `crate::Error`, when `lib.rs` says
//! `pub use error::Error`, is module `error`, not the root, so the pattern
//! of a parent re-exporting its child (`pub use self::x::Y`) is the parent
//! depending on the child, downwards. A name a module defines itself (a
//! `fn`, type, `const`, ...) resolves to that module: a child's `super::Y`
//! for its parent's own `Y` is an edge child → parent, which with the
//! parent's `mod child;` is a cycle. Names of other crates, `Self` and
//! local names are no edges.
//!
//! Test code is not counted: an item under `#[cfg(test)]` or
//! `#[cfg(all(test, ..))]` (a `mod tests { .. }` block, a `mod tests;`
//! file, a test-only function or `use`) is skipped, and so are comments
//! (doc examples included), strings and attributes.
//!
//! Each strongly connected component of more than one module is reported
//! as a cycle, with loops through it until each of its modules is on one,
//! and every edge inside it with its evidence (`file:line`); the command
//! fails when there is one.
//!
//! It reads tokens, not a syntax tree (xtask takes no parser dependency):
//! a path written through a macro's own arguments is seen as written, and a
//! name shadowed by a local binding may add an edge that is not there (both
//! err towards reporting). Method calls are not paths: `self.f()` on a type
//! whose `impl` blocks are spread over two modules is no edge, but the
//! `impl T` of the second module names `T`, which is.

mod graph;
mod krate;
mod parse;
mod tokens;

use std::collections::BTreeMap;
use std::path::Path;

/// The folders whose packages are checked by default, in print order: a
/// folder ending in `/*` stands for each package folder inside it.
const PACKAGES: [&str; 4] = ["crates/*", "xtask", "xtask/*", "tools/*"];

/// The command: `args` are the crate folders named (none: all of them).
pub fn main(args: &[String]) -> Result<(), String> {
    run(&tool_support::process::root(), args)
}

/// One crate to check: its package folder (relative to the root) and its
/// root file in `src/`.
#[derive(Debug, PartialEq)]
pub struct Target {
    /// The package folder, e.g. `crates/conn` or `xtask`.
    pub folder: String,
    /// `lib.rs` or `main.rs`.
    pub root_file: &'static str,
}

impl Target {
    /// The name printed: the folder, and `(bin)` for a binary.
    pub fn label(&self) -> String {
        if self.root_file == "main.rs" {
            format!("{} (bin)", self.folder)
        } else {
            self.folder.clone()
        }
    }
}

/// The crates of the package folders (relative to `root`): each one's
/// `src/lib.rs`, then its `src/main.rs`.
fn roots_of(root: &Path, folders: &[String]) -> Vec<Target> {
    let mut out = Vec::new();
    for folder in folders {
        for root_file in ["lib.rs", "main.rs"] {
            if root.join(folder).join("src").join(root_file).is_file() {
                out.push(Target {
                    folder: folder.clone(),
                    root_file,
                });
            }
        }
    }
    out
}

/// The crates checked: those of the package folders `crates/*`, `xtask`,
/// `xtask/*` and `tools/*`, or of the folders named.
pub fn targets(root: &Path, args: &[String]) -> Result<Vec<Target>, String> {
    if args.is_empty() {
        let mut folders = Vec::new();
        for pattern in PACKAGES {
            let Some(parent) = pattern.strip_suffix("/*") else {
                folders.push(pattern.to_string());
                continue;
            };
            let dir = root.join(parent);
            let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let mut names = Vec::new();
            for entry in entries {
                let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
                if entry.path().join("Cargo.toml").is_file() {
                    names.push(format!("{parent}/{}", entry.file_name().to_string_lossy()));
                }
            }
            names.sort();
            folders.extend(names);
        }
        return Ok(roots_of(root, &folders));
    }
    let mut out = Vec::new();
    for arg in args {
        let arg = arg.trim_end_matches('/');
        let folder = if root.join(arg).join("src").is_dir() || arg.contains('/') {
            arg.to_string()
        } else {
            format!("crates/{arg}")
        };
        let found = roots_of(root, std::slice::from_ref(&folder));
        if found.is_empty() {
            return Err(format!(
                "{folder}/src/lib.rs and {folder}/src/main.rs do not exist"
            ));
        }
        out.extend(found);
    }
    Ok(out)
}

/// Checks the crates of `args` (see [`targets`]) in the tree at `root`,
/// printing one line per crate and each cycle found.
pub fn run(root: &Path, args: &[String]) -> Result<(), String> {
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!(
            "module-cycles takes crate folders only (got {flag:?})"
        ));
    }
    let mut total = 0;
    for target in targets(root, args)? {
        let src = root.join(&target.folder).join("src");
        let krate = krate::load(&|rel: &str| read(&src, rel), target.root_file);
        let graph = krate.graph();
        let cycles = graph.cycles();
        let edges: usize = graph.edges.values().map(BTreeMap::len).sum();
        let verdict = match cycles.len() {
            0 => "no cycles".to_string(),
            1 => "1 cycle".to_string(),
            n => format!("{n} cycles"),
        };
        let modules = krate.modules.len();
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        println!(
            "{}: {}, {}, {verdict}",
            target.label(),
            plural(modules, "module"),
            plural(edges, "edge")
        );
        for (i, cycle) in cycles.iter().enumerate() {
            print!(
                "{}",
                graph.describe(i + 1, cycle, &format!("{}/src/", target.folder))
            );
        }
        total += cycles.len();
    }
    if total == 0 {
        Ok(())
    } else {
        Err(format!("module cycles: {total} (see above)"))
    }
}

fn read(src: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(src.join(rel)).ok()
}

#[cfg(test)]
mod tests;
