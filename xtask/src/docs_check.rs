//! `cargo xtask docs-check`: `docs/ARCHITECTURE.md` stays true.
//!
//! - The connection state tables it prints are the ones `http-net-conn`
//!   moves by (rendered by the crate itself, feature `doc-tables`).
//! - Every repository path it names (an inline code span such as
//!   `crates/conn/src/state.rs`, or one relative to the part of the tree the
//!   section speaks of, such as `server/mod.rs`) exists.

use std::collections::BTreeSet;
use std::path::Path;

use crate::process::{root, Result};

/// The document checked.
const DOC: &str = "docs/ARCHITECTURE.md";

/// The top-level folders of the repository: a code span starting with one
/// of them is a path, whatever it ends with.
const TOP: [&str; 9] = [
    "crates/", "docs/", "xtask/", "tools/", "benches/", "fuzz/", "compare/", ".ci/", ".github/",
];

/// File endings that make a code span with a `/` a path.
const ENDINGS: [&str; 9] = [
    ".rs", ".md", ".toml", ".yml", ".yaml", ".json", ".http", ".txt", ".sh",
];

pub fn main(args: &[String]) -> Result {
    if let Some(extra) = args.first() {
        return Err(format!("docs-check takes no arguments (got {extra:?})"));
    }
    let root = root();
    let doc = std::fs::read_to_string(root.join(DOC)).map_err(|e| format!("{DOC}: {e}"))?;
    let mut problems = Vec::new();
    for table in http_net_conn::state_tables_markdown() {
        if !doc.contains(table.as_str()) {
            problems.push(format!(
                "{DOC} lacks this state table (or has an old copy of it):\n{table}"
            ));
        }
    }
    let files = tree(&root)?;
    for path in named_paths(&doc) {
        if !resolves(&path, &files) {
            problems.push(format!("{DOC} names `{path}`, which does not exist"));
        }
    }
    if problems.is_empty() {
        eprintln!("docs-check: {DOC} agrees with the code and every path it names exists");
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The repository paths a Markdown text names in inline code spans.
fn named_paths(doc: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans are the odd pieces between backticks.
        for span in line.split('`').skip(1).step_by(2) {
            if is_path(span) {
                out.insert(span.trim_end_matches('/').to_string());
            }
        }
    }
    out
}

/// Whether a code span is a repository path: path characters only, a `/`,
/// no scheme, and a known top-level folder or file ending.
fn is_path(span: &str) -> bool {
    let chars = span
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'_' | b'-'));
    chars
        && span.contains('/')
        && !span.contains("//")
        && (TOP.iter().any(|t| span.starts_with(t)) || ENDINGS.iter().any(|e| span.ends_with(e)))
}

/// Whether `path` exists: from the root, from `crates/`, or as the tail of a
/// path in the tree (a path relative to the crate or folder its section is
/// about, e.g. `src/state.rs`).
fn resolves(path: &str, files: &BTreeSet<String>) -> bool {
    let tail = format!("/{path}");
    files.contains(path)
        || files.contains(&format!("crates/{path}"))
        || files.iter().any(|f| f.ends_with(&tail))
}

/// Every file and folder below `root` (relative, `/`-separated), without
/// build output and version-control data.
fn tree(root: &Path) -> Result<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            let path = entry.path();
            let name = entry.file_name();
            if matches!(name.to_str(), Some("target" | ".git")) {
                continue;
            }
            if let Ok(rel) = path.strip_prefix(root) {
                out.insert(rel.to_string_lossy().replace('\\', "/"));
            }
            if entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                stack.push(path);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_that_are_paths() {
        let doc = "See `crates/conn/src/state.rs` and `server/mod.rs`, not `HTTP/1.1`,\n\
                   `http://a/b.rs`, `GET /` or `a / b`; `docs/` is a folder.\n\
                   `tools/size` is a tool's folder.\n\
                   ```text\n`crates/in/a/fence.rs`\n```\n";
        let got: Vec<String> = named_paths(doc).into_iter().collect();
        assert_eq!(
            got,
            [
                "crates/conn/src/state.rs",
                "docs",
                "server/mod.rs",
                "tools/size"
            ]
        );
    }

    #[test]
    fn paths_resolve_from_the_root_crates_or_as_a_tail() {
        let files: BTreeSet<String> = ["crates/conn/src/server/mod.rs", "docs", "crates/head"]
            .into_iter()
            .map(String::from)
            .collect();
        assert!(resolves("crates/conn/src/server/mod.rs", &files));
        assert!(resolves("head", &files));
        assert!(resolves("server/mod.rs", &files));
        assert!(resolves("src/server/mod.rs", &files));
        assert!(!resolves("erver/mod.rs", &files), "a tail starts at a `/`");
        assert!(!resolves("client/mod.rs", &files));
    }
}
