//! Writing a command's report into a section of a markdown file, between
//! `<!-- xtask:NAME:begin -->` and `<!-- xtask:NAME:end -->`, so that
//! `compare` and `compare sockets` each replace only their own table.

use std::path::Path;

use crate::process::Result;

/// Replaces (or appends) section `name` of the file at `path` with `body`.
pub fn write_section(path: &Path, name: &str, body: &str) -> Result {
    let begin = format!("<!-- xtask:{name}:begin -->");
    let end = format!("<!-- xtask:{name}:end -->");
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let section = format!("{begin}\n{}\n{end}", body.trim_end());
    let new = match (old.find(&begin), old.find(&end)) {
        (Some(b), Some(e)) if e > b => {
            format!("{}{section}{}", &old[..b], &old[e + end.len()..])
        }
        _ => {
            let mut s = old;
            if !s.is_empty() && !s.ends_with("\n\n") {
                s.push('\n');
            }
            s.push_str(&section);
            s.push('\n');
            s
        }
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, new).map_err(|e| format!("{}: {e}", path.display()))
}
