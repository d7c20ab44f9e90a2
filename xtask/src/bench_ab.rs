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
//!
//! `--adapters` runs the same A/B over the comparison crate `compare/`
//! instead: its H2 server exchange and H3 client exchange through
//! `http-net-tokio` (and through the core driven directly, in memory and
//! over the same duplex), each side's
//! `compare/` built at its own tree with the `hyper` feature only, the same
//! duplex pipe and current-thread runtime on both sides. Its controls are the
//! rows of the same workloads that run no http-net code: hyper's, and the
//! runtime echoing the same bytes with no HTTP. With `--instructions` one
//! call is one exchange (`iter_custom` runs N exchanges in one counted call;
//! see `xtask/criterion-counter`).

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

/// The benches of the comparison crate `bench-ab --adapters` compares: the
/// exchanges through `http-net-tokio`, and through the core driven directly
/// (in memory, and over the same duplex: the ceiling rows).
const ADAPTER_BENCHES: [&str; 6] = [
    "h2_server_exchange/http-net-tokio",
    "h3_client_exchange/http-net-tokio",
    "h2_server_exchange/http-net",
    "h3_client_exchange/http-net",
    "h2_server_exchange/serverconn_duplex",
    "h3_client_exchange/clientconn_duplex",
];

/// The controls of `--adapters`: the rows of the same workloads, on the same
/// pipe and runtime, that run no http-net code.
const ADAPTER_CONTROLS: [&str; 4] = [
    "h2_server_exchange/hyper",
    "h2_server_exchange/tokio_no_http",
    "h3_client_exchange/hyper",
    "h3_client_exchange/tokio_no_http",
];

/// The bench binary of the comparison crate.
const COMPARE_BENCH: &str = "compare";

/// Which benches a run compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Suite {
    /// The core's hot-path benches (`http-net-benches`).
    Core,
    /// The duplex exchanges of `compare/` through `http-net-tokio`.
    Adapters,
}

impl Suite {
    /// The benches that run no http-net code, the same on both sides.
    fn controls(self) -> &'static [&'static str] {
        match self {
            Suite::Core => &CONTROLS,
            Suite::Adapters => &ADAPTER_CONTROLS,
        }
    }
}

const USAGE: &str = "usage: cargo xtask bench-ab REF [ROUNDS] [--adapters] [--filter REGEX] \
     [--warm-up S] [--measurement S] [--cpu N] [--instructions]";

/// The command line of `bench-ab`.
#[derive(Debug, PartialEq)]
struct Options {
    reference: String,
    rounds: usize,
    measure: Measure,
    suite: Suite,
    timing: Timing,
    cpu: usize,
    /// For the core: criterion's filter (a regex). For `--adapters`: a
    /// substring the bench ids kept must contain (the controls are kept).
    filter: Option<String>,
}

impl Options {
    /// Reads `args`; `default_cpu` is the core pinned to unless `--cpu`.
    fn parse(args: &[String], default_cpu: usize) -> Result<Options> {
        let args = Args::parse(args, &["warm-up", "measurement", "cpu", "filter"])?;
        let known = [
            "warm-up",
            "measurement",
            "cpu",
            "filter",
            "instructions",
            "adapters",
        ];
        if let Some(unknown) = args.options.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(format!("unknown option --{unknown}\n{USAGE}"));
        }
        let reference = args.words.first().ok_or(USAGE)?.clone();
        if args.words.len() > 2 {
            return Err(format!("too many arguments\n{USAGE}"));
        }
        let rounds: usize = match args.words.get(1) {
            Some(r) => r
                .parse()
                .map_err(|_| format!("ROUNDS: cannot read {r:?}"))?,
            None => 5,
        };
        if rounds == 0 {
            return Err("ROUNDS must be at least 1".into());
        }
        Ok(Options {
            reference,
            rounds,
            measure: if args.flag("instructions") {
                Measure::Instructions
            } else {
                Measure::Time
            },
            suite: if args.flag("adapters") {
                Suite::Adapters
            } else {
                Suite::Core
            },
            timing: Timing {
                warm_up: args.value("warm-up", 1.0)?,
                measurement: args.value("measurement", 2.0)?,
            },
            cpu: args.value("cpu", default_cpu)?,
            filter: args.options.get("filter").cloned(),
        })
    }
}

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
    let opts = Options::parse(args, process::cpus().saturating_sub(1))?;
    if opts.measure == Measure::Instructions && !bench_count::have_valgrind() {
        return Err("--instructions needs valgrind (apt-get install valgrind)".into());
    }
    let Options {
        reference,
        rounds,
        measure,
        suite,
        timing,
        cpu,
        filter,
    } = opts;
    let cpu = Some(cpu);
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
        let old_label = format!("{reference} ({short})");
        let new_label = format!("working tree ({})", process::describe_commit(&root));
        let (old, new, ids) = match (suite, measure) {
            (Suite::Core, _) => {
                let mut old = Side {
                    label: old_label,
                    benches: build(&worktree, &ref_target)?,
                };
                let mut new = Side {
                    label: new_label,
                    benches: build(&root, &target)?,
                };
                // The real binaries name the benches (criterion applies the
                // filter); the counting ones, built apart, run them.
                let ids = bench_ids(&old, &new, filter.as_deref())?;
                if measure == Measure::Instructions {
                    old.benches = bench_count::build(&worktree, &target, short)?;
                    new.benches = bench_count::build(&root, &target, "working-tree")?;
                }
                (old, new, ids)
            }
            (Suite::Adapters, Measure::Time) => (
                Side {
                    label: old_label,
                    benches: build_compare(&worktree, &ref_target.join("compare"))?,
                },
                Side {
                    label: new_label,
                    benches: build_compare(&root, &root.join("compare/target"))?,
                },
                adapter_ids(filter.as_deref()),
            ),
            (Suite::Adapters, Measure::Instructions) => (
                Side {
                    label: old_label,
                    benches: bench_count::build_compare(&worktree, &target, short)?,
                },
                Side {
                    label: new_label,
                    benches: bench_count::build_compare(&root, &target, "working-tree")?,
                },
                adapter_ids(filter.as_deref()),
            ),
        };
        compare(&old, &new, &ids, rounds, measure, suite, timing, cpu)
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
    process::bench_executables(&format!("build benches in {}", tree.display()), &mut cmd)
}

/// Builds the comparison bench of `tree/compare` (features `hyper` only: no
/// C servers) into `target`, as `cargo xtask compare` builds it.
fn build_compare(tree: &Path, target: &Path) -> Result<BTreeMap<String, PathBuf>> {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(tree.join("compare"))
        .env_remove("RUSTFLAGS")
        .env("CARGO_TARGET_DIR", target)
        .args([
            "bench",
            "--bench",
            COMPARE_BENCH,
            "--no-run",
            "--no-default-features",
            "--features",
            "hyper",
        ]);
    process::bench_executables(
        &format!("build the comparison in {}", tree.display()),
        &mut cmd,
    )
}

/// The ids `--adapters` runs, each in the comparison bench: the benches
/// containing `filter` (all without one), and every control.
fn adapter_ids(filter: Option<&str>) -> BTreeMap<String, String> {
    ADAPTER_BENCHES
        .iter()
        .filter(|id| filter.is_none_or(|f| id.contains(f)))
        .chain(ADAPTER_CONTROLS.iter())
        .map(|id| (id.to_string(), COMPARE_BENCH.to_string()))
        .collect()
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

#[allow(clippy::too_many_arguments)]
fn compare(
    old: &Side,
    new: &Side,
    ids: &BTreeMap<String, String>,
    rounds: usize,
    measure: Measure,
    suite: Suite,
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
    let verdict = print_table(old, new, &samples, rounds, measure, suite);
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

/// The verdict on per-bench changes (`id -> B / A - 1`), `controls` being
/// the benches that run no http-net code.
fn verdict(changes: &BTreeMap<String, f64>, controls: &[&str]) -> Verdict {
    let mut slower = 0;
    let mut moved: f64 = 0.0;
    for (id, &c) in changes {
        if controls.contains(&id.as_str()) {
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
    suite: Suite,
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
            "instructions of one call{} (callgrind); '!!' marks a bench more than {:.0}% above A",
            match suite {
                Suite::Core => "",
                Suite::Adapters => " (one exchange)",
            },
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
        let control = suite.controls().contains(&id.as_str());
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
    let v = verdict(&changes, suite.controls());
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

    fn parse(args: &[&str]) -> Result<Options> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        Options::parse(&args, 1)
    }

    #[test]
    fn the_command_line_is_read_with_its_defaults() {
        let o = parse(&["c680961"]).unwrap();
        assert_eq!(
            o,
            Options {
                reference: "c680961".into(),
                rounds: 5,
                measure: Measure::Time,
                suite: Suite::Core,
                timing: Timing {
                    warm_up: 1.0,
                    measurement: 2.0
                },
                cpu: 1,
                filter: None,
            }
        );
        let o = parse(&[
            "HEAD~1",
            "9",
            "--adapters",
            "--instructions",
            "--filter",
            "h2",
            "--cpu",
            "0",
            "--warm-up=0.5",
        ])
        .unwrap();
        assert_eq!(o.reference, "HEAD~1");
        assert_eq!(o.rounds, 9);
        assert_eq!(o.suite, Suite::Adapters);
        assert_eq!(o.measure, Measure::Instructions);
        assert_eq!(o.filter.as_deref(), Some("h2"));
        assert_eq!(o.cpu, 0);
        assert_eq!(o.timing.warm_up, 0.5);
        // Options may come first.
        assert_eq!(
            parse(&["--adapters", "v0.1.0"]).unwrap().reference,
            "v0.1.0"
        );
    }

    #[test]
    fn a_bad_command_line_is_an_error_not_a_panic() {
        for bad in [
            &[][..],
            &["--adapters"],
            &["REF", "0"],
            &["REF", "five"],
            &["REF", "5", "extra"],
            &["REF", "--adapter"],
            &["REF", "--cpu"],
            &["REF", "--cpu", "x"],
            &["REF", "--measurement", "-"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_adapter_ids_keep_every_control_and_filter_the_rest() {
        let all = adapter_ids(None);
        assert_eq!(all.len(), ADAPTER_BENCHES.len() + ADAPTER_CONTROLS.len());
        assert!(all.values().all(|b| b == COMPARE_BENCH));
        let h3 = adapter_ids(Some("h3_client_exchange/http-net-tokio"));
        assert!(h3.contains_key("h3_client_exchange/http-net-tokio"));
        assert!(!h3.contains_key("h2_server_exchange/http-net-tokio"));
        assert!(!h3.contains_key("h3_client_exchange/http-net"));
        for c in ADAPTER_CONTROLS {
            assert!(h3.contains_key(c), "{c}");
        }
    }

    #[test]
    fn every_adapter_bench_and_control_is_a_row_of_the_comparison() {
        // By name, as the core's controls: a renamed row would silently
        // drop out. Each is a `group/name` of compare/benches/compare.rs,
        // and every control runs hyper or the runtime alone.
        let source =
            std::fs::read_to_string(process::root().join("compare/benches/compare.rs")).unwrap();
        for id in ADAPTER_BENCHES.iter().chain(ADAPTER_CONTROLS.iter()) {
            let (group, name) = id.split_once('/').unwrap();
            assert!(source.contains(&format!("\"{group}\"")), "{group}");
            assert!(source.contains(&format!("\"{name}\"")), "{name}");
        }
        for id in ADAPTER_CONTROLS {
            assert!(
                id.ends_with("/hyper") || id.ends_with("/tokio_no_http"),
                "{id}"
            );
        }
        let controls = Suite::Adapters.controls();
        let changes: BTreeMap<String, f64> = [
            ("h2_server_exchange/http-net-tokio".to_string(), 0.06),
            ("h2_server_exchange/hyper".to_string(), 0.02),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            verdict(&changes, controls),
            Verdict {
                slower: 1,
                noise: None
            }
        );
    }

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
            verdict(&quiet, &CONTROLS),
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
            verdict(&over, &CONTROLS),
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
        let v = verdict(&noisy, &CONTROLS);
        assert_eq!(v.slower, 1);
        assert!(v.noise.is_some_and(|m| (m - 0.143).abs() < 1e-9));
        // A control is never counted as ours, however far it moves.
        let control_only = changes(&[("response_head_httparse/response_1k", 0.159)]);
        assert_eq!(verdict(&control_only, &CONTROLS).slower, 0);
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
