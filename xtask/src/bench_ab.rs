//! `cargo xtask bench-ab REF [ROUNDS]`: the 5% regression gate (a hot-path bench more than
//! 5% slower than the reference is a regression).
//!
//! Builds the hot-path benches of the `http-net-benches` package twice: REF,
//! checked out in a temporary `git worktree`, and the working tree. Then runs
//! every bench binary of both sides alternately, round after round, pinned to
//! one core, and prints per bench the median of each side over the rounds,
//! the change, and a mark on every bench more than 5% slower.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::args::Args;
use crate::criterion::{self, Timing};
use crate::figures;
use crate::process::{self, Result};

/// A change above this fraction is marked as a regression.
const GATE: f64 = 0.05;

/// One side of the comparison: its label and its bench binaries by name.
struct Side {
    label: String,
    benches: BTreeMap<String, PathBuf>,
}

/// Entry point.
pub fn main(args: &[String]) -> Result {
    let args = Args::parse(args, &["warm-up", "measurement", "cpu", "filter"])?;
    let reference = args
        .words
        .first()
        .ok_or("usage: cargo xtask bench-ab REF [ROUNDS] [--filter REGEX] [--warm-up S] [--measurement S]")?
        .clone();
    let rounds: usize = match args.words.get(1) {
        Some(r) => r
            .parse()
            .map_err(|_| format!("ROUNDS: cannot read {r:?}"))?,
        None => 5,
    };
    if rounds == 0 {
        return Err("ROUNDS must be at least 1".into());
    }
    let timing = Timing {
        warm_up: args.value("warm-up", 1.0)?,
        measurement: args.value("measurement", 2.0)?,
    };
    let cpu = Some(args.value("cpu", process::cpus().saturating_sub(1))?);
    let filter = args.options.get("filter").cloned();
    let root = process::root();

    let sha = process::output(
        "resolve REF",
        Command::new("git")
            .current_dir(&root)
            .args(["rev-parse", "--verify", "--quiet"])
            .arg(format!("{reference}^{{commit}}")),
    )
    .map_err(|_| format!("{reference:?} is not a commit here"))?
    .trim()
    .to_string();
    let short = &sha[..sha.len().min(10)];

    // REF gets its own, persistent target directory so that a second run
    // against the same or a nearby REF rebuilds little.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let ref_target = target.join("bench-ab-ref");
    // The checkout of REF is at a path of its own that does not change from
    // run to run: cargo names a path package's build after its path, so a
    // new path would rebuild everything in `ref_target`.
    let worktree = ref_tree(&target, short);
    if worktree.exists() {
        let _ = Command::new("git")
            .current_dir(&root)
            .args(["worktree", "remove", "--force"])
            .arg(&worktree)
            .status();
        let _ = std::fs::remove_dir_all(&worktree);
    }
    let _ = Command::new("git")
        .current_dir(&root)
        .args(["worktree", "prune"])
        .status();
    process::run(
        "check out REF",
        Command::new("git")
            .current_dir(&root)
            .args(["worktree", "add", "--detach", "--quiet"])
            .arg(&worktree)
            .arg(&sha),
    )?;
    let result = (|| {
        let old = Side {
            label: format!("{reference} ({short})"),
            benches: build(&worktree, &ref_target)?,
        };
        let new = Side {
            label: format!("working tree ({})", process::describe_commit(&root)),
            benches: build(&root, &target)?,
        };
        compare(&old, &new, rounds, timing, cpu, filter.as_deref())
    })();
    let _ = Command::new("git")
        .current_dir(&root)
        .args(["worktree", "remove", "--force"])
        .arg(&worktree)
        .status();
    let _ = Command::new("git")
        .current_dir(&root)
        .args(["worktree", "prune"])
        .status();
    let _ = std::fs::remove_dir_all(&worktree);
    result
}

/// Where REF (a commit, `short` its abbreviated hash) is checked out: the
/// same path on every run, so that its builds in `bench-ab-ref` are reused.
fn ref_tree(target: &Path, short: &str) -> PathBuf {
    target.join("bench-ab-trees").join(short)
}

/// Builds the bench binaries of `http-net-benches` in `tree` into `target`.
fn build(tree: &Path, target: &Path) -> Result<BTreeMap<String, PathBuf>> {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(tree).env("CARGO_TARGET_DIR", target).args([
        "bench",
        "-p",
        "http-net-benches",
        "--benches",
        "--no-run",
    ]);
    let artifacts =
        process::cargo_executables(&format!("build benches in {}", tree.display()), &mut cmd)?;
    Ok(artifacts
        .into_iter()
        .filter(|a| a.kind == "bench")
        .map(|a| (a.name, a.executable))
        .collect())
}

fn compare(
    old: &Side,
    new: &Side,
    rounds: usize,
    timing: Timing,
    cpu: Option<usize>,
    filter: Option<&str>,
) -> Result {
    let names: BTreeSet<&String> = old.benches.keys().chain(new.benches.keys()).collect();
    if names.is_empty() {
        return Err("neither side has a bench binary in http-net-benches".into());
    }
    if !process::have_taskset() {
        eprintln!("xtask: taskset not found: running unpinned, expect more noise");
    }
    let home = process::temp_dir("bench-ab-criterion")?;
    // samples[side][bench id] = one median per round
    let mut samples: [BTreeMap<String, Vec<f64>>; 2] = [BTreeMap::new(), BTreeMap::new()];
    for round in 0..rounds {
        eprintln!("==> round {} of {rounds}", round + 1);
        for name in &names {
            // Alternate which side goes first, so a drift in machine load
            // falls on both.
            let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
            for side in order {
                let s = if side == 0 { old } else { new };
                let Some(exe) = s.benches.get(*name) else {
                    continue;
                };
                let results = criterion::run(exe, filter, false, timing, cpu, &home, true)?;
                for (id, ns) in results {
                    samples[side].entry(id).or_default().push(ns);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&home);
    match print_table(old, new, &samples, rounds) {
        0 => Ok(()),
        n => Err(format!("{n} bench(es) over the {:.0}% gate", GATE * 100.0)),
    }
}

/// Prints the table and returns how many benches are over the gate.
fn print_table(
    old: &Side,
    new: &Side,
    samples: &[BTreeMap<String, Vec<f64>>; 2],
    rounds: usize,
) -> usize {
    let ids: BTreeSet<&String> = samples[0].keys().chain(samples[1].keys()).collect();
    let width = ids.iter().map(|s| s.len()).max().unwrap_or(5).max(5);
    println!();
    println!("A = {}", old.label);
    println!("B = {}", new.label);
    println!(
        "medians of {rounds} interleaved rounds; '!!' marks a bench more than {:.0}% slower in B",
        GATE * 100.0
    );
    println!();
    println!(
        "{:<width$}  {:>12}  {:>12}  {:>8}",
        "bench", "A", "B", "change"
    );
    let mut slower = 0;
    for id in ids {
        let a = samples[0].get(id).and_then(|v| figures::median(v));
        let b = samples[1].get(id).and_then(|v| figures::median(v));
        let fa = a.map(figures::fmt_ns).unwrap_or_else(|| "-".into());
        let fb = b.map(figures::fmt_ns).unwrap_or_else(|| "-".into());
        let (change, mark) = match (a, b) {
            (Some(a), Some(b)) => {
                let c = b / a - 1.0;
                let mark = if c > GATE {
                    slower += 1;
                    "  !!"
                } else {
                    ""
                };
                (format!("{:+.1}%", c * 100.0), mark)
            }
            (None, Some(_)) => ("new".into(), ""),
            (Some(_), None) => ("gone".into(), ""),
            (None, None) => ("-".into(), ""),
        };
        println!("{id:<width$}  {fa:>12}  {fb:>12}  {change:>8}{mark}");
    }
    println!();
    if slower == 0 {
        println!("no bench is more than {:.0}% slower", GATE * 100.0);
    } else {
        println!(
            "{slower} bench(es) more than {:.0}% slower (marked !!)",
            GATE * 100.0
        );
    }
    slower
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checkout_of_ref_is_at_the_same_path_on_every_run() {
        let target = Path::new("/w/target");
        assert_eq!(
            ref_tree(target, "e76f3ded82"),
            Path::new("/w/target/bench-ab-trees/e76f3ded82")
        );
        assert_eq!(
            ref_tree(target, "e76f3ded82"),
            ref_tree(target, "e76f3ded82")
        );
        assert_ne!(
            ref_tree(target, "e76f3ded82"),
            ref_tree(target, "5864c21aaa")
        );
    }
}
