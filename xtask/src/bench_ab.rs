//! `cargo xtask bench-ab REF [ROUNDS]`: the 5% regression gate (a hot-path bench more than
//! 5% slower than the reference is a regression).
//!
//! Builds the hot-path benches of the `http-net-benches` package twice: REF,
//! checked out in a temporary `git worktree`, and the working tree. Then runs
//! each bench of both sides alternately, one bench at a time and round after
//! round (A B, then B A), pinned to one core, and prints per bench the median
//! of each side over the rounds, the change, and a mark on every bench more
//! than 5% slower.
//!
//! The controls (benches that run no http-net code, the same on both sides)
//! say whether the host was quiet enough: when one of them moves by more
//! than 3%, the run gives no verdict and fails.
//!
//! `--instructions` counts each bench's routine with callgrind instead of
//! timing it (see `bench_count.rs`): a verdict a busy host cannot spoil, for
//! when no quiet timing run can be had.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::args::Args;
use crate::bench_count;
use crate::criterion::{self, Timing};
use crate::figures;
use crate::process::{self, Result};

/// A change above this fraction is marked as a regression.
const GATE: f64 = 0.05;

/// A control that moves by more than this fraction leaves no verdict: the
/// host's noise is then of the size of the gate.
const NOISE: f64 = 0.03;

/// The benches that run no http-net code (httparse, a plain copy): the same
/// code on both sides, so what they move by is the host's noise.
const CONTROLS: [&str; 5] = [
    "body_1mib/httparse_chunk_size_loop",
    "body_1mib/httparse_chunk_size_loop_borrowed",
    "body_1mib/memcpy_16k_reads",
    "request_head_httparse/browser_get",
    "response_head_httparse/response_1k",
];

/// What a run measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Measure {
    /// Median wall time of a call (criterion).
    Time,
    /// Instructions of a call (callgrind).
    Instructions,
}

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
        .ok_or("usage: cargo xtask bench-ab REF [ROUNDS] [--filter REGEX] [--warm-up S] [--measurement S] [--instructions]")?
        .clone();
    let measure = if args.flag("instructions") {
        if !bench_count::have_valgrind() {
            return Err("--instructions needs valgrind (apt-get install valgrind)".into());
        }
        Measure::Instructions
    } else {
        Measure::Time
    };
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
        let mut old = Side {
            label: format!("{reference} ({short})"),
            benches: build(&worktree, &ref_target)?,
        };
        let mut new = Side {
            label: format!("working tree ({})", process::describe_commit(&root)),
            benches: build(&root, &target)?,
        };
        // The real binaries name the benches (criterion applies the
        // filter); the counting ones, built apart, run them.
        let ids = bench_ids(&old, &new, filter.as_deref())?;
        if measure == Measure::Instructions {
            old.benches = bench_count::build(&worktree, &target, short)?;
            new.benches = bench_count::build(&root, &target, "working-tree")?;
        }
        compare(&old, &new, &ids, rounds, measure, timing, cpu)
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

/// Every bench id of either side matching `filter`, with the name of the
/// bench binary that holds it, from the binaries' `--list`.
fn bench_ids(old: &Side, new: &Side, filter: Option<&str>) -> Result<BTreeMap<String, String>> {
    let mut ids = BTreeMap::new();
    for side in [old, new] {
        for (name, exe) in &side.benches {
            let mut cmd = Command::new(exe);
            cmd.args(["--bench", "--list"]);
            if let Some(f) = filter {
                cmd.arg(f);
            }
            let listed = process::output(&format!("list the benches of {name}"), &mut cmd)?;
            for id in listed_ids(&listed) {
                ids.insert(id, name.clone());
            }
        }
    }
    if ids.is_empty() {
        return Err("no bench of either side matches".into());
    }
    Ok(ids)
}

/// The ids in criterion's `--list` output (`group/name: benchmark` lines).
fn listed_ids(listed: &str) -> Vec<String> {
    listed
        .lines()
        .filter_map(|l| l.strip_suffix(": benchmark"))
        .map(str::to_string)
        .collect()
}

fn compare(
    old: &Side,
    new: &Side,
    ids: &BTreeMap<String, String>,
    rounds: usize,
    measure: Measure,
    timing: Timing,
    cpu: Option<usize>,
) -> Result {
    if !process::have_taskset() {
        eprintln!("xtask: taskset not found: running unpinned, expect more noise");
    }
    // A count does not vary from run to run: one round is the figure.
    let rounds = if measure == Measure::Instructions {
        1
    } else {
        rounds
    };
    let home = process::temp_dir("bench-ab-criterion")?;
    // samples[side][bench id] = one figure per round
    let mut samples: [BTreeMap<String, Vec<f64>>; 2] = [BTreeMap::new(), BTreeMap::new()];
    for round in 0..rounds {
        eprintln!("==> round {} of {rounds}", round + 1);
        for (i, (id, binary)) in ids.iter().enumerate() {
            // One bench at a time, both sides back to back, and the side
            // that goes first alternating, so that a drift in the host's
            // load falls on both.
            let order = if (round + i) % 2 == 0 { [0, 1] } else { [1, 0] };
            for side in order {
                let s = if side == 0 { old } else { new };
                let Some(exe) = s.benches.get(binary) else {
                    continue;
                };
                match measure {
                    Measure::Time => {
                        let results =
                            criterion::run(exe, Some(id), true, timing, cpu, &home, true)?;
                        for (id, ns) in results {
                            samples[side].entry(id).or_default().push(ns);
                        }
                    }
                    Measure::Instructions => {
                        eprintln!("    {id} ({})", if side == 0 { "A" } else { "B" });
                        match bench_count::per_call(exe, id, cpu) {
                            Ok(n) => samples[side].entry(id.clone()).or_default().push(n),
                            // A bench the other side does not have.
                            Err(e) => eprintln!("xtask: {e}"),
                        }
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&home);
    let verdict = print_table(old, new, &samples, rounds, measure);
    match (verdict.noise, verdict.slower) {
        (Some(moved), _) => Err(format!(
            "no verdict: a control moved by {:.1}%, more than the {:.0}% a {:.0}% gate can bear \
             (rerun on a quiet host, or with --instructions)",
            moved * 100.0,
            NOISE * 100.0,
            GATE * 100.0
        )),
        (None, 0) => Ok(()),
        (None, n) => Err(format!("{n} bench(es) over the {:.0}% gate", GATE * 100.0)),
    }
}

/// What a table says.
#[derive(Debug, PartialEq)]
struct Verdict {
    /// How many of our benches are over the gate.
    slower: usize,
    /// The largest move of a control, when it is over `NOISE`.
    noise: Option<f64>,
}

/// The verdict on per-bench changes (`id -> B / A - 1`).
fn verdict(changes: &BTreeMap<String, f64>) -> Verdict {
    let mut slower = 0;
    let mut moved: f64 = 0.0;
    for (id, &c) in changes {
        if CONTROLS.contains(&id.as_str()) {
            moved = moved.max(c.abs());
        } else if c > GATE {
            slower += 1;
        }
    }
    Verdict {
        slower,
        noise: (moved > NOISE).then_some(moved),
    }
}

/// Prints the table and returns its verdict.
fn print_table(
    old: &Side,
    new: &Side,
    samples: &[BTreeMap<String, Vec<f64>>; 2],
    rounds: usize,
    measure: Measure,
) -> Verdict {
    let ids: BTreeSet<&String> = samples[0].keys().chain(samples[1].keys()).collect();
    let width = ids.iter().map(|s| s.len()).max().unwrap_or(5).max(5);
    let fmt = |v: f64| match measure {
        Measure::Time => figures::fmt_ns(v),
        Measure::Instructions => bench_count::fmt_count(v),
    };
    println!();
    println!("A = {}", old.label);
    println!("B = {}", new.label);
    match measure {
        Measure::Time => println!(
            "medians of {rounds} interleaved rounds; '!!' marks a bench more than {:.0}% slower in B",
            GATE * 100.0
        ),
        Measure::Instructions => println!(
            "instructions of one call (callgrind); '!!' marks a bench more than {:.0}% above A",
            GATE * 100.0
        ),
    }
    println!();
    println!(
        "{:<width$}  {:>13}  {:>13}  {:>8}",
        "bench", "A", "B", "change"
    );
    let mut changes = BTreeMap::new();
    for id in ids {
        let a = samples[0].get(id).and_then(|v| figures::median(v));
        let b = samples[1].get(id).and_then(|v| figures::median(v));
        let fa = a.map(fmt).unwrap_or_else(|| "-".into());
        let fb = b.map(fmt).unwrap_or_else(|| "-".into());
        let control = CONTROLS.contains(&id.as_str());
        let (change, mark) = match (a, b) {
            (Some(a), Some(b)) if a > 0.0 => {
                let c = b / a - 1.0;
                changes.insert(id.clone(), c);
                let mark = if control {
                    "  (control)"
                } else if c > GATE {
                    "  !!"
                } else {
                    ""
                };
                (format!("{:+.1}%", c * 100.0), mark)
            }
            (None, Some(_)) => ("new".into(), ""),
            (Some(_), None) => ("gone".into(), ""),
            _ => ("-".into(), ""),
        };
        println!("{id:<width$}  {fa:>13}  {fb:>13}  {change:>8}{mark}");
    }
    println!();
    let v = verdict(&changes);
    if let Some(moved) = v.noise {
        println!(
            "no verdict: a control moved by {:.1}% (more than {:.0}%): the host was too noisy \
             to tell a {:.0}% change",
            moved * 100.0,
            NOISE * 100.0,
            GATE * 100.0
        );
    } else if v.slower == 0 {
        println!(
            "no bench is more than {:.0}% {}; the controls moved by at most {:.0}%",
            GATE * 100.0,
            match measure {
                Measure::Time => "slower",
                Measure::Instructions => "above A",
            },
            NOISE * 100.0
        );
    } else {
        println!(
            "{} bench(es) more than {:.0}% slower (marked !!)",
            v.slower,
            GATE * 100.0
        );
    }
    v
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

    fn changes(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
        pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
    }

    #[test]
    fn a_control_that_moves_more_than_the_noise_leaves_no_verdict() {
        let quiet = changes(&[
            ("server/browser_get_204", 0.049),
            ("request_head_httparse/browser_get", -0.029),
        ]);
        assert_eq!(
            verdict(&quiet),
            Verdict {
                slower: 0,
                noise: None
            }
        );
        let over = changes(&[
            ("server/browser_get_204", 0.051),
            ("body_1mib/memcpy_16k_reads", 0.02),
        ]);
        assert_eq!(
            verdict(&over),
            Verdict {
                slower: 1,
                noise: None
            }
        );
        // The run of 2026-12-02 00:27: memcpy -14.3%, ours +17.3%.
        let noisy = changes(&[
            ("exchange/client_full", 0.173),
            ("body_1mib/memcpy_16k_reads", -0.143),
        ]);
        let v = verdict(&noisy);
        assert_eq!(v.slower, 1);
        assert!(v.noise.is_some_and(|m| (m - 0.143).abs() < 1e-9));
        // A control is never counted as ours, however far it moves.
        let control_only = changes(&[("response_head_httparse/response_1k", 0.159)]);
        assert_eq!(verdict(&control_only).slower, 0);
    }

    #[test]
    fn the_ids_are_read_from_criterions_list() {
        let listed =
            "server/browser_get_204: benchmark\n\nclient/parse_response_1k: benchmark\nnoise\n";
        assert_eq!(
            listed_ids(listed),
            ["server/browser_get_204", "client/parse_response_1k"]
        );
    }

    #[test]
    fn every_control_is_a_bench_that_exists_and_runs_no_http_net_code() {
        // The list is by name: a renamed control would silently stop
        // guarding. Each must be declared in benches/ and be one of the
        // benches written against httparse or a plain copy.
        let dir = process::root().join("benches/benches");
        let mut sources = String::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            sources.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
        }
        for id in CONTROLS {
            let (group, name) = id.split_once('/').unwrap();
            assert!(
                sources.contains(&format!("\"{group}\"")),
                "{group} not in benches/"
            );
            assert!(
                sources.contains(&format!("\"{name}\"")),
                "{name} not in benches/"
            );
            assert!(id.contains("httparse") || id.contains("memcpy"), "{id}");
        }
    }
}
