//! The `// proves:` tags of the tests, and what each one tags.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use tool_support::process::Result;

use crate::inventory::{Req, INVENTORY};

/// Conformance tables: (file, `const` holding the rows, the test that runs
/// them as `crate/target::name`).
pub(crate) const TABLES: &[(&str, &str, &str)] = &[
    (
        "crates/head/tests/cases/mod.rs",
        "CASES",
        "head/conformance::conformance_table",
    ),
    (
        "crates/framing/tests/cases/mod.rs",
        "LENGTH_CASES",
        "framing/conformance::length_rows",
    ),
    (
        "crates/framing/tests/cases/mod.rs",
        "CHUNK_CASES",
        "framing/conformance::chunk_rows",
    ),
    (
        "crates/framing/tests/cases/mod.rs",
        "TRAILER_CASES",
        "framing/conformance::trailer_rows",
    ),
];

/// One `// proves:` line and what it tags.
#[derive(Debug)]
pub(crate) struct Tag {
    pub(crate) ids: Vec<String>,
    /// `crate/target::name` of the test whose result counts.
    pub(crate) test: String,
    /// The table row, for a row tag.
    pub(crate) row: Option<String>,
    /// `file:line`, for messages.
    pub(crate) at: String,
}

pub(crate) fn scan_tags(root: &Path) -> Result<Vec<Tag>> {
    let mut files = Vec::new();
    let crates = root.join("crates");
    let entries = fs::read_dir(&crates).map_err(|e| format!("{}: {e}", crates.display()))?;
    for entry in entries.flatten() {
        let tests = entry.path().join("tests");
        if tests.is_dir() {
            collect_rs(&tests, &mut files)?;
        }
    }
    files.sort();
    let mut tags = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(&file).map_err(|e| format!("{rel}: {e}"))?;
        scan_file(&rel, &text, &mut tags)?;
    }
    Ok(tags)
}

pub(crate) fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_rs(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The tags of one file (`rel`: `crates/<crate>/tests/...`).
pub(crate) fn scan_file(rel: &str, text: &str, tags: &mut Vec<Tag>) -> Result {
    let lines: Vec<&str> = text.lines().collect();
    let mut table: Option<&str> = None;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if let Some(name) = const_table(t) {
            table = Some(name);
        }
        let Some(list) = t.strip_prefix("// proves:") else {
            continue;
        };
        let at = format!("{rel}:{}", i + 1);
        let ids: Vec<String> = list
            .split([',', ' '])
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if ids.is_empty() {
            return Err(format!("{at}: a `// proves:` line names no id"));
        }
        // The tagged item: the next line that is neither a comment nor an
        // attribute.
        let mut saw_test = false;
        let mut next = None;
        for (j, l) in lines.iter().enumerate().skip(i + 1) {
            let l = l.trim_start();
            if l.starts_with("//") {
                continue;
            }
            if l.starts_with("#[") {
                saw_test |= l.starts_with("#[test]") || l.starts_with("#[tokio::test");
                continue;
            }
            next = Some(j);
            break;
        }
        let next_at = next.unwrap_or(lines.len());
        let next = lines.get(next_at).map_or("", |l| l.trim_start());
        let (test, row) = if let Some(name) = fn_name(next) {
            if !saw_test {
                return Err(format!("{at}: `fn {name}` is not a #[test]"));
            }
            let target = test_target(rel).ok_or_else(|| {
                format!("{at}: tag tests in their target file (tests/<target>.rs)")
            })?;
            (format!("{target}::{name}"), None)
        } else {
            // A row on one line, or a struct literal whose `name:` follows.
            let row = first_string(next)
                .or_else(|| {
                    lines[next_at..]
                        .iter()
                        .take(3)
                        .find_map(|l| l.trim_start().strip_prefix("name:").and_then(first_string))
                })
                .ok_or_else(|| format!("{at}: a tag stands above a #[test] or a table row"))?;
            let runner = TABLES
                .iter()
                .find(|(file, name, _)| *file == rel && Some(*name) == table)
                .map(|(_, _, runner)| *runner)
                .ok_or_else(|| format!("{at}: row {row:?} is in no table xtask knows"))?;
            (runner.to_string(), Some(row))
        };
        tags.push(Tag { ids, test, row, at });
    }
    Ok(())
}

/// `NAME` of `pub const NAME: &[...] = &[`.
pub(crate) fn const_table(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("pub const ")
        .or_else(|| line.strip_prefix("const "))?;
    let (name, ty) = rest.split_once(':')?;
    (ty.trim_start().starts_with("&[") && ty.trim_end().ends_with("= &[")).then_some(name.trim())
}

/// `name` of a `fn name(` line.
pub(crate) fn fn_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("pub ").unwrap_or(line);
    let rest = rest.strip_prefix("async ").unwrap_or(rest);
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

/// The first `"..."` literal of a line (a row's name), escapes kept as written.
pub(crate) fn first_string(line: &str) -> Option<String> {
    let start = line.find('"')? + 1;
    let mut out = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => {
                out.push(c);
                out.push(chars.next()?);
            }
            c => out.push(c),
        }
    }
    None
}

/// `crate/target` of `crates/<crate>/tests/<target>.rs`.
pub(crate) fn test_target(rel: &str) -> Option<String> {
    let rest = rel.strip_prefix("crates/")?;
    let (krate, rest) = rest.split_once('/')?;
    let target = rest.strip_prefix("tests/")?.strip_suffix(".rs")?;
    (!target.contains('/')).then(|| format!("{krate}/{target}"))
}

pub(crate) fn validate(reqs: &[Req], tags: &[Tag]) -> Vec<String> {
    let known: BTreeSet<&str> = reqs.iter().map(|r| r.id.as_str()).collect();
    let mut problems = Vec::new();
    for t in tags {
        for id in &t.ids {
            if !known.contains(id.as_str()) {
                problems.push(format!("{}: {id} is not in {INVENTORY}", t.at));
            }
        }
    }
    problems
}
