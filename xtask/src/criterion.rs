//! Running a criterion bench executable and reading its results.
//!
//! Each run gets a fresh `CRITERION_HOME`, so the results read back are the
//! ones this run wrote: `<home>/<group>/<bench>/new/benchmark.json` names the
//! bench (`full_id`), and `estimates.json` beside it holds the median.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::process::{self, Result};

/// How long criterion warms up and measures each bench.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Seconds of warm-up.
    pub warm_up: f64,
    /// Seconds of measurement.
    pub measurement: f64,
}

/// Runs `exe` (a criterion bench binary) on the benches matching `filter`
/// (a criterion regex filter; `None` runs all), pinned to `cpu`, and returns
/// the median time in nanoseconds of every bench it measured.
///
/// A bench that fails (panics) loses its results, not the whole run: the
/// error is printed and what was measured is returned.
pub fn run(
    exe: &Path,
    filter: Option<&str>,
    exact: bool,
    timing: Timing,
    cpu: Option<usize>,
    home: &Path,
    quiet: bool,
) -> Result<BTreeMap<String, f64>> {
    let _ = std::fs::remove_dir_all(home);
    std::fs::create_dir_all(home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;
    let mut cmd = process::pinned(exe, cpu);
    cmd.env("CRITERION_HOME", home)
        .arg("--bench")
        .arg("--noplot")
        .arg("--warm-up-time")
        .arg(timing.warm_up.to_string())
        .arg("--measurement-time")
        .arg(timing.measurement.to_string());
    if exact {
        cmd.arg("--exact");
    }
    if let Some(f) = filter {
        cmd.arg(f);
    }
    if quiet {
        // Criterion's progress goes to stderr: keep it for a failure only.
        cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        for line in err.lines().filter(|l| !l.starts_with("Benchmarking ")) {
            eprintln!("  {line}");
        }
        eprintln!(
            "xtask: {} {} failed ({}); keeping what it measured",
            exe.display(),
            filter.unwrap_or(""),
            out.status
        );
    }
    read_results(home)
}

/// Every `full_id -> median ns` under a criterion home.
pub fn read_results(home: &Path) -> Result<BTreeMap<String, f64>> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<PathBuf> = vec![home.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n == "new") {
                    if let Some((id, ns)) = read_one(&path) {
                        out.insert(id, ns);
                    }
                } else {
                    stack.push(path);
                }
            }
        }
    }
    Ok(out)
}

fn read_one(new_dir: &Path) -> Option<(String, f64)> {
    let bench = std::fs::read_to_string(new_dir.join("benchmark.json")).ok()?;
    let estimates = std::fs::read_to_string(new_dir.join("estimates.json")).ok()?;
    let id = process::json_string(&bench, "full_id")?;
    let median = &estimates[estimates.find("\"median\"")?..];
    let ns = process::json_number(median, "point_estimate")?;
    Some((id, ns))
}
