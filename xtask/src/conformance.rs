//! `cargo xtask conformance [--check]`: the requirements matrix.
//!
//! The inventory, `xtask/data/requirements.tsv`, lists every MUST, MUST NOT,
//! SHOULD and SHOULD NOT of RFC 9112 and those of RFC 9110 that bear on
//! messages, framing and connections: one row each, with the anchor of its
//! paragraph in the RFC's HTML, a summary, and for a requirement no library
//! test can prove, why (`n/a`: it does not apply to a library, such as a
//! proxy's rule; `app`: it is left to the application).
//!
//! Below the requirements, policy rows (`rfc` column `policy`, id
//! `policy-<name>`) list what the library chooses where the RFCs leave it
//! free: each with the setting that switches it (the `keyword` column: a
//! builder or `Config` method, or `default` for a fixed choice), the RFC
//! section it rests on (`anchor`: `<rfc>#section-X.Y`), and what happens
//! with the setting on and off. A policy row always needs a test, which
//! shows both.
//!
//! Tests name the requirements they prove with a comment line right above
//! them, `// proves: 9112-6.3-2.4, 9110-5.5-5`:
//!
//! - above a `#[test]` or `#[tokio::test]` (or its attributes) in a test
//!   target file
//!   `crates/<crate>/tests/<target>.rs`: that test;
//! - above a row of a conformance table (`crates/head/tests/cases/mod.rs`,
//!   `crates/framing/tests/cases/mod.rs`): that row, whose result is the one
//!   of the test that runs the table ([`TABLES`]).
//!
//! Without `--check`, the command runs `cargo test --workspace`, reads each
//! test's `test <name> ... ok` line (mapped to its crate and target through
//! the test executables cargo reports), and writes `docs/CONFORMANCE.md`:
//! every requirement, its tests and their results, or its reason; then the
//! results of the tagged tests. With `--check` no test runs: the file is
//! rendered again from the inventory, the tags and the results recorded in
//! it, and the command fails when that differs from the file (stale), when a
//! requirement has neither a test nor a reason, when a tag names an id the
//! inventory lacks or a test without a recorded result, or when a recorded
//! result is not `ok`. It is cheap enough for `.ci/run`, after the tests.
//! With `--recorded` the file is written again from the recorded results,
//! without running the tests (after editing a summary or a reason).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::process::{self, Result};

/// The inventory, relative to the repository root.
const INVENTORY: &str = "xtask/data/requirements.tsv";
/// The generated matrix, relative to the repository root.
const DOC: &str = "docs/CONFORMANCE.md";
/// The `rfc` column of a policy row.
const POLICY: &str = "policy";
/// The heading of the recorded results; `--check` reads the table under it.
const RESULTS_HEADING: &str = "## Recorded test results";
/// The hand-written part: where an external suite expects another answer.
const DIVERGENCES: &str = "xtask/data/divergences.md";
/// Its heading in the document.
const DIVERGENCES_HEADING: &str = "## Where an external test suite expects otherwise";

/// Conformance tables: (file, `const` holding the rows, the test that runs
/// them as `crate/target::name`).
const TABLES: &[(&str, &str, &str)] = &[
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

pub fn main(args: &[String]) -> Result {
    let (check, rerun) = match args {
        [] => (false, true),
        [a] if a == "--check" => (true, false),
        [a] if a == "--recorded" => (false, false),
        _ => return Err("usage: cargo xtask conformance [--check | --recorded]".into()),
    };
    let root = process::root();
    let reqs = read_inventory(&root.join(INVENTORY))?;
    let tags = scan_tags(&root)?;
    let mut problems = validate(&reqs, &tags);
    let doc_path = root.join(DOC);
    let results = if rerun {
        run_tests(&root)?
    } else {
        let old = fs::read_to_string(&doc_path)
            .map_err(|e| format!("{DOC}: {e} (run `cargo xtask conformance`)"))?;
        recorded_results(&old)
    };
    let resolved = resolve(&tags, &results, &mut problems);
    let divergences =
        fs::read_to_string(root.join(DIVERGENCES)).map_err(|e| format!("{DIVERGENCES}: {e}"))?;
    let doc = render(&reqs, &tags, &resolved, &divergences);
    for (key, result) in &resolved {
        if result != "ok" {
            problems.push(format!("{key}: {result}"));
        }
    }
    let untested: Vec<&Req> = reqs
        .iter()
        .filter(|r| r.scope == Scope::Library && !tags.iter().any(|t| t.ids.contains(&r.id)))
        .collect();
    if check {
        let old = fs::read_to_string(&doc_path).unwrap_or_default();
        if old != doc {
            problems.push(format!(
                "{DOC} is stale: run `cargo xtask conformance` and commit it"
            ));
        }
    } else {
        fs::write(&doc_path, &doc).map_err(|e| format!("{DOC}: {e}"))?;
        eprintln!("xtask: wrote {DOC}");
    }
    for r in &untested {
        let msg = format!(
            "{} ({} {}) has neither a test nor a reason",
            r.id, r.keyword, r.summary
        );
        if check {
            problems.push(msg);
        } else {
            eprintln!("xtask: untested: {msg}");
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        for p in &problems {
            eprintln!("xtask: conformance: {p}");
        }
        Err(format!("conformance: {} problem(s)", problems.len()))
    }
}

/// Who a requirement is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    /// The library's: a test must prove it.
    Library,
    /// Does not apply to a library (a proxy's, a cache's, a registry's rule).
    NotApplicable,
    /// Left to the application that uses the library.
    Application,
}

/// One inventory row.
#[derive(Debug)]
struct Req {
    id: String,
    rfc: String,
    anchor: String,
    keyword: String,
    summary: String,
    scope: Scope,
    note: String,
}

fn read_inventory(path: &Path) -> Result<Vec<Req>> {
    let text = fs::read_to_string(path).map_err(|e| format!("{INVENTORY}: {e}"))?;
    parse_inventory(&text)
}

fn parse_inventory(text: &str) -> Result<Vec<Req>> {
    let mut reqs = Vec::new();
    let mut seen = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let at = || format!("{INVENTORY}:{}", n + 1);
        let cols: Vec<&str> = line.split('\t').collect();
        let [id, rfc, anchor, keyword, summary, scope, note] = cols[..] else {
            return Err(format!("{}: expected 7 tab-separated columns", at()));
        };
        let scope = match scope {
            "" => Scope::Library,
            "n/a" => Scope::NotApplicable,
            "app" => Scope::Application,
            other => return Err(format!("{}: unknown scope {other:?}", at())),
        };
        if scope != Scope::Library && note.is_empty() {
            return Err(format!("{}: {id} needs a reason", at()));
        }
        if rfc == POLICY {
            let (on, section) = anchor.split_once('#').unwrap_or(("", ""));
            let setting_ok = !keyword.is_empty()
                && keyword
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !id.starts_with("policy-")
                || on.is_empty()
                || !on.bytes().all(|b| b.is_ascii_digit())
                || !section.starts_with("section-")
            {
                return Err(format!(
                    "{}: policy {id}: id policy-<name>, anchor <rfc>#section-X.Y",
                    at()
                ));
            }
            if !setting_ok {
                return Err(format!(
                    "{}: policy {id}: unknown setting {keyword:?}",
                    at()
                ));
            }
            if scope != Scope::Library {
                return Err(format!(
                    "{}: policy {id} is the library's: it needs a test",
                    at()
                ));
            }
        } else if !matches!(keyword, "MUST" | "MUST NOT" | "SHOULD" | "SHOULD NOT") {
            return Err(format!("{}: unknown keyword {keyword:?}", at()));
        } else if !id.starts_with(&format!("{rfc}-"))
            || !anchor.starts_with("section-")
            || !id.starts_with(&format!("{rfc}-{}", &anchor["section-".len()..]))
        {
            return Err(format!("{}: id {id} does not match {rfc} {anchor}", at()));
        }
        if !seen.insert(id.to_string()) {
            return Err(format!("{}: duplicate id {id}", at()));
        }
        reqs.push(Req {
            id: id.into(),
            rfc: rfc.into(),
            anchor: anchor.into(),
            keyword: keyword.into(),
            summary: summary.into(),
            scope,
            note: note.into(),
        });
    }
    Ok(reqs)
}

/// One `// proves:` line and what it tags.
#[derive(Debug)]
struct Tag {
    ids: Vec<String>,
    /// `crate/target::name` of the test whose result counts.
    test: String,
    /// The table row, for a row tag.
    row: Option<String>,
    /// `file:line`, for messages.
    at: String,
}

fn scan_tags(root: &Path) -> Result<Vec<Tag>> {
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

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
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
fn scan_file(rel: &str, text: &str, tags: &mut Vec<Tag>) -> Result {
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
fn const_table(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("pub const ")
        .or_else(|| line.strip_prefix("const "))?;
    let (name, ty) = rest.split_once(':')?;
    (ty.trim_start().starts_with("&[") && ty.trim_end().ends_with("= &[")).then_some(name.trim())
}

/// `name` of a `fn name(` line.
fn fn_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("pub ").unwrap_or(line);
    let rest = rest.strip_prefix("async ").unwrap_or(rest);
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

/// The first `"..."` literal of a line (a row's name), escapes kept as written.
fn first_string(line: &str) -> Option<String> {
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
fn test_target(rel: &str) -> Option<String> {
    let rest = rel.strip_prefix("crates/")?;
    let (krate, rest) = rest.split_once('/')?;
    let target = rest.strip_prefix("tests/")?.strip_suffix(".rs")?;
    (!target.contains('/')).then(|| format!("{krate}/{target}"))
}

fn validate(reqs: &[Req], tags: &[Tag]) -> Vec<String> {
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

/// Runs `cargo test --workspace` and returns `crate/target::test` → result
/// (`ok`, `FAILED`, `ignored`).
fn run_tests(root: &Path) -> Result<BTreeMap<String, String>> {
    // Which crate and target each test executable is.
    let mut cmd = Command::new("cargo");
    cmd.current_dir(root).args([
        "test",
        "--workspace",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ]);
    eprintln!("==> build the tests: {}", process::show(&cmd));
    let json = process::output("build the tests", &mut cmd)?;
    let mut exes = BTreeMap::new();
    for line in json.lines() {
        if !line.contains("\"reason\":\"compiler-artifact\"") {
            continue;
        }
        let (Some(exe), Some(manifest)) = (
            process::json_string(line, "executable"),
            process::json_string(line, "manifest_path"),
        ) else {
            continue;
        };
        let target = line
            .find("\"target\":")
            .and_then(|i| process::json_string(&line[i..], "name"))
            .unwrap_or_default();
        let krate = Path::new(&manifest)
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(file) = Path::new(&exe).file_name() {
            exes.insert(
                file.to_string_lossy().into_owned(),
                format!("{krate}/{target}"),
            );
        }
    }
    // One run, stdout and stderr into one file (in order: cargo announces
    // each executable on stderr before it runs).
    let dir = root.join("target/conformance");
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let log_path = dir.join("test.log");
    let log = File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let err = log
        .try_clone()
        .map_err(|e| format!("{}: {e}", log_path.display()))?;
    let mut cmd = Command::new("cargo");
    cmd.current_dir(root)
        .args(["test", "--workspace", "--no-fail-fast"])
        .stdout(Stdio::from(log))
        .stderr(Stdio::from(err));
    eprintln!(
        "==> run the tests: {} (output in {})",
        process::show(&cmd),
        log_path.display()
    );
    let status = cmd
        .status()
        .map_err(|e| format!("cannot start cargo test: {e}"))?;
    let text = fs::read_to_string(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let results = parse_test_output(&text, &exes);
    if !status.success() {
        eprintln!("xtask: cargo test failed ({status}): failures are recorded");
    }
    if results.is_empty() {
        return Err(format!("no test results in {}", log_path.display()));
    }
    Ok(results)
}

/// `crate/target::test` → result from `cargo test` output: `Running ...
/// (target/debug/deps/<exe>)` lines say which executable the `test <name>
/// ... <result>` lines after them come from.
fn parse_test_output(text: &str, exes: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut results = BTreeMap::new();
    let mut current: Option<&String> = None;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Running ") {
            current = t
                .rsplit_once('(')
                .and_then(|(_, p)| p.strip_suffix(')'))
                .and_then(|p| Path::new(p).file_name())
                .and_then(|f| exes.get(f.to_string_lossy().as_ref()));
            continue;
        }
        if t.starts_with("Doc-tests ") {
            current = None;
            continue;
        }
        let (Some(target), Some(rest)) = (current, t.strip_prefix("test ")) else {
            continue;
        };
        let Some((name, result)) = rest.rsplit_once(" ... ") else {
            continue;
        };
        // `ignored, <reason>` when the test gives one.
        let result = result
            .split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap_or("");
        if matches!(result, "ok" | "FAILED" | "ignored") {
            results.insert(format!("{target}::{name}"), result.to_string());
        }
    }
    results
}

/// The results table of a generated file.
fn recorded_results(doc: &str) -> BTreeMap<String, String> {
    let mut results = BTreeMap::new();
    let Some((_, table)) = doc.split_once(RESULTS_HEADING) else {
        return results;
    };
    for line in table.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if let [_, test, result, _] = cells[..] {
            if let Some(test) = test.strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
                results.insert(test.to_string(), result.to_string());
            }
        }
    }
    results
}

/// Each tagged test's result, keyed by its full name (`crate/target::path`).
fn resolve(
    tags: &[Tag],
    results: &BTreeMap<String, String>,
    problems: &mut Vec<String>,
) -> BTreeMap<String, String> {
    let mut resolved = BTreeMap::new();
    for t in tags {
        match full_name(&t.test, results) {
            Ok(full) => {
                resolved.insert(full.clone(), results[&full].clone());
            }
            Err(e) => problems.push(format!("{}: {e}", t.at)),
        }
    }
    resolved
}

/// The recorded name of `crate/target::name`: the test itself, or one whose
/// path ends with `::name`.
fn full_name(
    test: &str,
    results: &BTreeMap<String, String>,
) -> std::result::Result<String, String> {
    if results.contains_key(test) {
        return Ok(test.to_string());
    }
    let (target, name) = test.split_once("::").unwrap_or((test, ""));
    let suffix = format!("::{name}");
    let found: Vec<&String> = results
        .keys()
        .filter(|k| k.starts_with(&format!("{target}::")) && k.ends_with(&suffix))
        .collect();
    match found[..] {
        [one] => Ok(one.clone()),
        [] => Err(format!(
            "no recorded result for {test} (renamed, or tagged since the last `cargo xtask conformance`)"
        )),
        _ => Err(format!("{test} names several tests")),
    }
}

/// The tests (and table rows) tagged with `r`'s id, with their results;
/// empty when none is.
fn proven_by(r: &Req, tags: &[Tag], result_of: &dyn Fn(&str) -> String) -> String {
    let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for t in tags.iter().filter(|t| t.ids.contains(&r.id)) {
        let rows = by.entry(t.test.as_str()).or_default();
        if let Some(row) = &t.row {
            rows.push(row);
        }
    }
    let mut cell = Vec::new();
    for (test, rows) in &by {
        let rows = if rows.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = rows.iter().map(|r| format!("`{r}`")).collect();
            format!(" rows {}", list.join(", "))
        };
        cell.push(format!("`{test}`{rows}: {}", result_of(test)));
    }
    cell.join("; ")
}

fn rfc_url(rfc: &str, anchor: &str) -> String {
    format!("https://www.rfc-editor.org/rfc/rfc{rfc}.html#{anchor}")
}

fn render(
    reqs: &[Req],
    tags: &[Tag],
    resolved: &BTreeMap<String, String>,
    divergences: &str,
) -> String {
    let result_of = |test: &str| -> String {
        let full = full_name(test, resolved).unwrap_or_else(|_| test.to_string());
        resolved
            .get(&full)
            .cloned()
            .unwrap_or_else(|| "not run".into())
    };
    let mut d = String::new();
    d.push_str("# Conformance to RFC 9112 and RFC 9110\n\n");
    d.push_str(
        "Generated by `cargo xtask conformance`; do not edit. Every MUST, MUST NOT,\n\
         SHOULD and SHOULD NOT of RFC 9112, and those of RFC 9110 that bear on\n\
         messages, framing and connections, are listed in `xtask/data/requirements.tsv`\n\
         with the anchor of their paragraph in the RFC. A test proves a requirement\n\
         with a `// proves: <id>` line above it (above a row, for the conformance\n\
         tables of `crates/head` and `crates/framing`, whose result is that of the\n\
         test running the table). A requirement no library test can prove says why:\n\
         it does not apply to a library (a proxy's rule, say), or it is left to the\n\
         application.\n\n\
         `cargo xtask conformance --check` (in `.ci/run`) runs no test: it renders this\n\
         file again from the inventory, the tags and the results recorded at the end,\n\
         and fails when that differs from the file, when a requirement has neither a\n\
         test nor a reason, when a tag names an unknown id or a test without a\n\
         recorded result, or when a recorded result is not `ok`.\n\n",
    );
    d.push_str(
        "Below them, the policies: what the library chooses where the RFCs leave it\n\
         free (an opt-in setting such as the front-line profile, or a default),\n\
         each with the setting that switches it, the RFC section it rests on, what\n\
         happens with the setting on and off, and the tests that show both.\n\n\
         Then the cases where a public test suite expects another answer than\n\
         the one the RFCs call for, and why the library keeps its own.\n\n",
    );
    d.push_str("| RFC | Requirements | Proven by tests | Do not apply | Left to the application | Untested |\n");
    d.push_str("|---|---:|---:|---:|---:|---:|\n");
    let tested = |r: &Req| tags.iter().any(|t| t.ids.contains(&r.id));
    for rfc in ["9112", "9110"] {
        let of: Vec<&Req> = reqs.iter().filter(|r| r.rfc == rfc).collect();
        let count = |f: &dyn Fn(&Req) -> bool| of.iter().filter(|r| f(r)).count();
        let _ = writeln!(
            d,
            "| RFC {rfc} | {} | {} | {} | {} | {} |",
            of.len(),
            count(&|r| tested(r)),
            count(&|r| !tested(r) && r.scope == Scope::NotApplicable),
            count(&|r| !tested(r) && r.scope == Scope::Application),
            count(&|r| !tested(r) && r.scope == Scope::Library),
        );
    }
    let policies: Vec<&Req> = reqs.iter().filter(|r| r.rfc == POLICY).collect();
    let _ = writeln!(
        d,
        "| Policies | {} | {} | 0 | 0 | {} |",
        policies.len(),
        policies.iter().filter(|r| tested(r)).count(),
        policies.iter().filter(|r| !tested(r)).count(),
    );
    for (rfc, title) in [
        ("9112", "RFC 9112, HTTP/1.1"),
        (
            "9110",
            "RFC 9110, HTTP Semantics (messages, framing, connections)",
        ),
    ] {
        let _ = write!(
            d,
            "\n## {title}\n\n| Id | Keyword | Requirement | Proven by, or why not |\n|---|---|---|---|\n"
        );
        for r in reqs.iter().filter(|r| r.rfc == rfc) {
            let mut cell = proven_by(r, tags, &result_of);
            if cell.is_empty() {
                cell = match r.scope {
                    Scope::NotApplicable => format!("Does not apply: {}", r.note),
                    Scope::Application => format!("Left to the application: {}", r.note),
                    Scope::Library if r.note.is_empty() => "**Untested**".to_string(),
                    Scope::Library => format!("**Untested**: {}", r.note),
                };
            }
            let _ = writeln!(
                d,
                "| [{}]({}) | {} | {} | {} |",
                r.id,
                rfc_url(&r.rfc, &r.anchor),
                r.keyword,
                r.summary,
                cell.replace('|', "\\|")
            );
        }
    }
    let _ = write!(
        d,
        "\n## Policies\n\n| Id | Setting | Policy | Rests on | Proven by |\n|---|---|---|---|---|\n"
    );
    for r in &policies {
        let (on, section) = r.anchor.split_once('#').unwrap_or(("", ""));
        let cell = proven_by(r, tags, &result_of);
        let cell = if cell.is_empty() {
            "**Untested**".to_string()
        } else {
            cell
        };
        let _ = writeln!(
            d,
            "| {} | `{}` | {} | [RFC {on} §{}]({}) | {} |",
            r.id,
            r.keyword,
            r.summary.replace('|', "\\|"),
            section.trim_start_matches("section-"),
            rfc_url(on, section),
            cell.replace('|', "\\|")
        );
    }
    if !divergences.trim().is_empty() {
        let _ = write!(d, "\n{DIVERGENCES_HEADING}\n\n{}\n", divergences.trim_end());
    }
    let _ = write!(d, "\n{RESULTS_HEADING}\n\n| Test | Result |\n|---|---|\n");
    for (test, result) in resolved {
        let _ = writeln!(d, "| `{test}` | {result} |");
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    const INV: &str = "# comment\n\
        9112-6.3-2.4\t9112\tsection-6.3-2.4\tMUST\tsummary a\t\t\n\
        9112-6.1-15\t9112\tsection-6.1-15\tMUST\tsummary b\t\t\n\
        9110-7.6.1-5\t9110\tsection-7.6.1-5\tMUST\tsummary c\tn/a\ta proxy's rule\n";

    #[test]
    fn the_inventory_is_checked_row_by_row() {
        let reqs = parse_inventory(INV).unwrap();
        assert_eq!(reqs.len(), 3);
        assert_eq!(reqs[2].scope, Scope::NotApplicable);
        for bad in [
            // The id does not match the anchor.
            "9112-6.3-2.5\t9112\tsection-6.3-2.4\tMUST\ts\t\t\n",
            // An unknown keyword, scope, a missing reason, a duplicate.
            "9112-6.3-2.4\t9112\tsection-6.3-2.4\tMAY\ts\t\t\n",
            "9112-6.3-2.4\t9112\tsection-6.3-2.4\tMUST\ts\tlater\tx\n",
            "9112-6.3-2.4\t9112\tsection-6.3-2.4\tMUST\ts\tapp\t\n",
            "9112-6.1-15\t9112\tsection-6.1-15\tMUST\ts\t\t\n9112-6.1-15\t9112\tsection-6.1-15\tMUST\ts\t\t\n",
            "9112-6.1-15\t9112\tsection-6.1-15\tMUST\n",
            // Policy rows: the id, the anchor, the setting, a test required.
            "front-x\tpolicy\t9112#section-6.3\tfront_line\ts\t\t\n",
            "policy-x\tpolicy\tsection-6.3\tfront_line\ts\t\t\n",
            "policy-x\tpolicy\t9112#6.3\tfront_line\ts\t\t\n",
            "policy-x\tpolicy\t9112#section-6.3\tFront Line\ts\t\t\n",
            "policy-x\tpolicy\t9112#section-6.3\t\ts\t\t\n",
            "policy-x\tpolicy\t9112#section-6.3\tfront_line\ts\tapp\tlater\n",
        ] {
            assert!(parse_inventory(bad).is_err(), "{bad:?}");
        }
        let policy = "policy-x\tpolicy\t3986#section-7.3\tfront_line\ton: no; off: yes\t\t\n";
        let reqs = parse_inventory(policy).unwrap();
        assert_eq!(
            (reqs[0].rfc.as_str(), reqs[0].scope),
            ("policy", Scope::Library)
        );
    }

    #[test]
    fn tags_name_tests_and_table_rows() {
        let test_file = "use x;\n\
            // proves: 9112-6.3-2.4, 9112-6.1-15\n\
            #[test]\n\
            #[ignore]\n\
            fn one() {}\n\
            /// A doc comment.\n\
            // proves: 9110-7.6.1-5\n\
            #[test]\n\
            fn two() {}\n\
            // proves: 9110-7.6.1-5\n\
            #[tokio::test]\n\
            async fn three() {}\n";
        let mut tags = Vec::new();
        scan_file("crates/conn/tests/server.rs", test_file, &mut tags).unwrap();
        assert_eq!(tags.len(), 3);
        assert_eq!(tags[2].test, "conn/server::three");
        assert_eq!(tags[0].ids, ["9112-6.3-2.4", "9112-6.1-15"]);
        assert_eq!(tags[0].test, "conn/server::one");
        assert_eq!(tags[1].test, "conn/server::two");
        assert_eq!(tags[0].row, None);

        let table = "const CL: &[u8] = b\"Content-Length\";\n\
            pub const LENGTH_CASES: &[LengthCase] = &[\n\
            \x20   // proves: 9112-6.1-15\n\
            \x20   req(\"C01 CL then TE\", \"RFC 9112 \\u{a7}6.3\", &[], NoBody),\n\
            ];\n\
            pub const TRAILER_CASES: &[ChunkCase] = &[\n\
            \x20   // proves: 9112-6.3-2.4\n\
            \x20   ChunkCase {\n\
            \x20       name: \"one trailer\",\n\
            \x20   },\n\
            ];\n";
        let mut tags = Vec::new();
        scan_file("crates/framing/tests/cases/mod.rs", table, &mut tags).unwrap();
        assert_eq!(tags[0].test, "framing/conformance::length_rows");
        assert_eq!(tags[0].row.as_deref(), Some("C01 CL then TE"));
        assert_eq!(tags[1].test, "framing/conformance::trailer_rows");
        assert_eq!(tags[1].row.as_deref(), Some("one trailer"));

        // Above something that is neither a test nor a row; a helper that
        // is not a test; a test outside its target file; no id.
        for (file, text) in [
            (
                "crates/conn/tests/server.rs",
                "// proves: 9112-6.1-15\nuse x;\n",
            ),
            (
                "crates/conn/tests/server.rs",
                "// proves: 9112-6.1-15\nfn helper() {}\n",
            ),
            (
                "crates/conn/tests/common/mod.rs",
                "// proves: 9112-6.1-15\n#[test]\nfn t() {}\n",
            ),
            (
                "crates/conn/tests/server.rs",
                "// proves:\n#[test]\nfn t() {}\n",
            ),
        ] {
            assert!(scan_file(file, text, &mut Vec::new()).is_err(), "{text:?}");
        }
    }

    #[test]
    fn unknown_ids_are_reported() {
        let reqs = parse_inventory(INV).unwrap();
        let mut tags = Vec::new();
        scan_file(
            "crates/conn/tests/server.rs",
            "// proves: 9112-6.1-15, 9999-1-1\n#[test]\nfn t() {}\n",
            &mut tags,
        )
        .unwrap();
        let problems = validate(&reqs, &tags);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("9999-1-1"), "{problems:?}");
    }

    #[test]
    fn test_output_is_read_per_executable() {
        let exes = BTreeMap::from([
            (
                "conformance-aaaa".to_string(),
                "head/conformance".to_string(),
            ),
            (
                "conformance-bbbb".to_string(),
                "framing/conformance".to_string(),
            ),
        ]);
        let log = "   Compiling x\n\
            \x20    Running tests/conformance.rs (target/debug/deps/conformance-aaaa)\n\
            running 2 tests\n\
            test conformance_table ... ok\n\
            test slow::one ... ignored, needs a peer\n\
            \x20    Running tests/conformance.rs (target/debug/deps/conformance-bbbb)\n\
            test length_rows ... FAILED\n\
            \x20  Doc-tests http_net_head\n\
            test crates/head/src/lib.rs - (line 5) ... ok\n";
        let results = parse_test_output(log, &exes);
        assert_eq!(
            results,
            BTreeMap::from([
                ("head/conformance::conformance_table".into(), "ok".into()),
                ("head/conformance::slow::one".into(), "ignored".into()),
                ("framing/conformance::length_rows".into(), "FAILED".into()),
            ])
        );
        assert_eq!(
            full_name("head/conformance::one", &results).unwrap(),
            "head/conformance::slow::one"
        );
        assert!(full_name("head/conformance::two", &results).is_err());
    }

    #[test]
    fn rendered_results_read_back_and_reasons_show() {
        let reqs = parse_inventory(INV).unwrap();
        let mut tags = Vec::new();
        scan_file(
            "crates/conn/tests/server.rs",
            "// proves: 9112-6.1-15\n#[test]\nfn t() {}\n",
            &mut tags,
        )
        .unwrap();
        let resolved = BTreeMap::from([("conn/server::t".to_string(), "ok".to_string())]);
        let doc = render(&reqs, &tags, &resolved, "");
        assert_eq!(recorded_results(&doc), resolved);
        assert!(doc.contains("`conn/server::t`: ok"), "{doc}");
        assert!(doc.contains("Does not apply: a proxy's rule"), "{doc}");
        let untested = doc.lines().find(|l| l.contains("[9112-6.3-2.4]")).unwrap();
        assert!(untested.ends_with("| **Untested** |"), "{untested}");
        assert!(doc.contains("| RFC 9112 | 2 | 1 | 0 | 0 | 1 |"), "{doc}");
    }

    #[test]
    fn policies_render_with_their_setting_section_and_tests() {
        let inv = format!(
            "{INV}policy-a\tpolicy\t3986#section-7.3\tfront_line\ton: 400; off: kept\t\t\n\
             policy-b\tpolicy\t9110#section-9.3.6\ttunnels\toff: 501\t\t\n"
        );
        let reqs = parse_inventory(&inv).unwrap();
        let mut tags = Vec::new();
        scan_file(
            "crates/conn/tests/server.rs",
            "// proves: policy-a\n#[test]\nfn t() {}\n",
            &mut tags,
        )
        .unwrap();
        assert!(validate(&reqs, &tags).is_empty());
        let resolved = BTreeMap::from([("conn/server::t".to_string(), "ok".to_string())]);
        let doc = render(&reqs, &tags, &resolved, "");
        assert!(doc.contains("| Policies | 2 | 1 | 0 | 0 | 1 |"), "{doc}");
        assert!(
            doc.contains(
                "| policy-a | `front_line` | on: 400; off: kept | \
                 [RFC 3986 §7.3](https://www.rfc-editor.org/rfc/rfc3986.html#section-7.3) | \
                 `conn/server::t`: ok |"
            ),
            "{doc}"
        );
        let b = doc.lines().find(|l| l.starts_with("| policy-b ")).unwrap();
        assert!(b.ends_with("| **Untested** |"), "{b}");
    }

    #[test]
    fn the_hand_written_divergences_come_before_the_results_and_stay_out_of_them() {
        let reqs = parse_inventory(INV).unwrap();
        let resolved = BTreeMap::from([("conn/server::t".to_string(), "ok".to_string())]);
        let part = "| Suite and case | Why |\n|---|---|\n| `X` | RFC 9112 §3 |\n";
        let doc = render(&reqs, &[], &resolved, part);
        let at = doc.find(DIVERGENCES_HEADING).expect("the heading");
        let results = doc.find(RESULTS_HEADING).unwrap();
        assert!(at < results, "{doc}");
        assert!(doc[at..results].contains("| `X` | RFC 9112 §3 |"), "{doc}");
        assert_eq!(recorded_results(&doc), resolved);
        // Without it, no heading.
        assert!(!render(&reqs, &[], &resolved, "").contains(DIVERGENCES_HEADING));
    }
}
