//! The tests' results: from a run of `cargo test --workspace`, or as
//! recorded in the generated file; each tag's test by its full name.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::path::Path;
use std::process::{Command, Stdio};

use tool_support::process::{self, Result};

use crate::tags::Tag;

/// The heading of the recorded results; `--check` reads the table under it.
pub(crate) const RESULTS_HEADING: &str = "## Recorded test results";

/// Runs `cargo test --workspace` and returns `crate/target::test` → result
/// (`ok`, `FAILED`, `ignored`).
pub(crate) fn run_tests(root: &Path) -> Result<BTreeMap<String, String>> {
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
pub(crate) fn parse_test_output(
    text: &str,
    exes: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
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
pub(crate) fn recorded_results(doc: &str) -> BTreeMap<String, String> {
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
pub(crate) fn resolve(
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
pub(crate) fn full_name(
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
