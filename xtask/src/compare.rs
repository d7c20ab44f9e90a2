//! `cargo xtask compare`: http-net against httparse, picohttpparser and hyper
//! on the workloads H1-H5 (the table in `docs/PERFORMANCE.md`), in the comparison crate `compare/`
//! (outside the workspace: its own lockfile, built only here).
//!
//! Two builds of the comparison bench: the default one, and httparse's scalar
//! build (`RUSTFLAGS='--cfg httparse_disable_simd="1"'`, in its own target
//! directory and without the hyper feature). Which httparse path each build
//! compiled is read from httparse's build-script output and printed.
//!
//! Every bench runs as its own process (`--exact` id), pinned to one core;
//! the sides of a workload run one after the other, in an order that rotates
//! each round, for `--rounds` rounds (5 by default). The report gives the
//! median of the per-round medians, the ratio to http-net, and the performance
//! goal of each row, and is written to `docs/PERFORMANCE.md`.
//!
//! `cargo xtask compare goals` writes the table that opens
//! `docs/PERFORMANCE.md`: every goal of SPEC §4 (H1-H6), filled from the goal
//! tables of this command's section and of `compare sockets`' (both write it
//! again after a guarded run).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::args::Args;
use crate::criterion::{self, Timing};
use crate::figures;
use crate::guard;
use crate::process::{self, Result};
use crate::report::GoalRow;

/// Which build of the comparison bench a row runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Build {
    /// Default features, httparse's default (SIMD) build.
    Default,
    /// httparse's scalar build, without hyper.
    Scalar,
}

/// The pipe and runtime a row runs on: a comparison is only between rows
/// of the same footing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Footing {
    /// Bytes handed over in memory, no runtime.
    Memory,
    /// A `tokio::io::duplex` pipe on a current-thread runtime.
    Duplex,
}

impl Footing {
    fn text(self) -> &'static str {
        match self {
            Footing::Memory => "in memory, no runtime",
            Footing::Duplex => "tokio duplex, current-thread",
        }
    }
}

/// One measured side of a workload.
struct Row {
    /// The workload key (`h1`, `h2`, ...), for `--only`.
    workload: &'static str,
    /// The criterion id.
    id: &'static str,
    /// The build it runs in.
    build: Build,
    /// What the row shows in the report.
    label: &'static str,
    /// Its pipe and runtime.
    footing: Footing,
    /// For a parser with the framing pass: the id of the same parser alone
    /// (same build), so that the pass's own cost is printed.
    parse_only: Option<&'static str>,
}

const fn row(workload: &'static str, id: &'static str, build: Build, label: &'static str) -> Row {
    Row {
        workload,
        id,
        build,
        label,
        footing: Footing::Memory,
        parse_only: None,
    }
}

const fn duplex(r: Row) -> Row {
    Row {
        footing: Footing::Duplex,
        ..r
    }
}

const fn pass(r: Row, parse_only: &'static str) -> Row {
    Row {
        parse_only: Some(parse_only),
        ..r
    }
}

use Build::{Default as D, Scalar as S};

/// Every row, grouped by workload and footing; the first row of each
/// footing within a workload is http-net's, and the ratios of that group
/// are to it.
const ROWS: &[Row] = &[
    row(
        "h1",
        "h1_request_head/http-net",
        D,
        "http-net (head + framing)",
    ),
    pass(
        row(
            "h1",
            "h1_request_head/httparse",
            D,
            "httparse SIMD + framing pass",
        ),
        "h1_request_head/httparse_parse_only",
    ),
    pass(
        row(
            "h1",
            "h1_request_head/httparse",
            S,
            "httparse scalar + framing pass",
        ),
        "h1_request_head/httparse_parse_only",
    ),
    pass(
        row(
            "h1",
            "h1_request_head/picohttpparser",
            D,
            "picohttpparser SSE4.2 + framing pass",
        ),
        "h1_request_head/picohttpparser_parse_only",
    ),
    row(
        "h1",
        "h1_request_head/httparse_parse_only",
        D,
        "httparse SIMD, parse only",
    ),
    row(
        "h1",
        "h1_request_head/httparse_parse_only",
        S,
        "httparse scalar, parse only",
    ),
    row(
        "h1",
        "h1_request_head/picohttpparser_parse_only",
        D,
        "picohttpparser SSE4.2, parse only",
    ),
    row(
        "h2",
        "h2_server_exchange/http-net",
        D,
        "http-net ServerConn (no competitor on this footing)",
    ),
    duplex(row(
        "h2",
        "h2_server_exchange/http-net-tokio",
        D,
        "http-net-tokio server",
    )),
    duplex(row(
        "h2",
        "h2_server_exchange/serverconn_duplex",
        D,
        "ceiling: the core driven directly, no deadlines, no slots (ServerConn in a short loop)",
    )),
    duplex(row("h2", "h2_server_exchange/hyper", D, "hyper server")),
    duplex(row(
        "h2",
        "h2_server_exchange/tokio_no_http",
        D,
        "the runtime alone: the same bytes echoed, no HTTP",
    )),
    row(
        "h3",
        "h3_response_head/http-net",
        D,
        "http-net (head + framing)",
    ),
    pass(
        row(
            "h3",
            "h3_response_head/httparse",
            D,
            "httparse SIMD + framing pass",
        ),
        "h3_response_head/httparse_parse_only",
    ),
    pass(
        row(
            "h3",
            "h3_response_head/httparse",
            S,
            "httparse scalar + framing pass",
        ),
        "h3_response_head/httparse_parse_only",
    ),
    pass(
        row(
            "h3",
            "h3_response_head/picohttpparser",
            D,
            "picohttpparser SSE4.2 + framing pass",
        ),
        "h3_response_head/picohttpparser_parse_only",
    ),
    row(
        "h3",
        "h3_response_head/httparse_parse_only",
        D,
        "httparse SIMD, parse only",
    ),
    row(
        "h3",
        "h3_response_head/httparse_parse_only",
        S,
        "httparse scalar, parse only",
    ),
    row(
        "h3",
        "h3_response_head/picohttpparser_parse_only",
        D,
        "picohttpparser SSE4.2, parse only",
    ),
    row(
        "h3c",
        "h3_client_exchange/http-net",
        D,
        "http-net ClientConn (no competitor on this footing)",
    ),
    duplex(row(
        "h3c",
        "h3_client_exchange/http-net-tokio",
        D,
        "http-net-tokio client",
    )),
    duplex(row(
        "h3c",
        "h3_client_exchange/clientconn_duplex",
        D,
        "ceiling: the core driven directly, no deadlines, no slots (ClientConn in a short loop)",
    )),
    duplex(row("h3c", "h3_client_exchange/hyper", D, "hyper client")),
    duplex(row(
        "h3c",
        "h3_client_exchange/tokio_no_http",
        D,
        "the runtime alone: the same bytes echoed, no HTTP",
    )),
    row(
        "h4",
        "h4_chunked_1mib/http-net_copy_out",
        D,
        "http-net ChunkedDecoder, data copied out",
    ),
    row(
        "h4",
        "h4_chunked_1mib/picohttpparser_in_place",
        D,
        "phr_decode_chunked in place (buffer refilled each time)",
    ),
    row(
        "h4",
        "h4_chunked_1mib/http-net_in_place",
        D,
        "http-net in place (buffer refilled each time)",
    ),
    row(
        "h4",
        "h4_chunked_1mib/httparse_copy_out",
        D,
        "httparse parse_chunk_size loop, data copied out",
    ),
    row(
        "h4",
        "h4_chunked_1mib/memcpy",
        D,
        "memcpy of the 1 MiB chunked message",
    ),
    row(
        "h4b",
        "h4b_length_1mib/http-net",
        D,
        "http-net, 16 KiB reads",
    ),
    row(
        "h4b",
        "h4b_length_1mib/memcpy",
        D,
        "memcpy of the same bytes in 16 KiB reads",
    ),
    row(
        "h5",
        "h5_pipelined_100k/http-net",
        D,
        "http-net ServerConn, the 52-byte answer",
    ),
    // (No parse-only twin: the loops of the `_parse_only` rows are the
    // heavier loop's, so the difference would not be the one pass's cost.)
    row(
        "h5",
        "h5_pipelined_100k/httparse_lean",
        D,
        "lean httparse SIMD loop: one pass for length and keep-alive, the same 52-byte answers",
    ),
    pass(
        row(
            "h5",
            "h5_pipelined_100k/httparse_full_rules",
            D,
            "httparse SIMD loop + the whole framing pass, the same 52-byte answers",
        ),
        "h5_pipelined_100k/httparse_parse_only",
    ),
    pass(
        row(
            "h5",
            "h5_pipelined_100k/picohttpparser",
            D,
            "picohttpparser loop + the whole framing pass, the same 52-byte answers",
        ),
        "h5_pipelined_100k/picohttpparser_parse_only",
    ),
    row(
        "h5",
        "h5_pipelined_100k/httparse_parse_only",
        D,
        "httparse SIMD loop, parse only (no rule checked)",
    ),
    row(
        "h5",
        "h5_pipelined_100k/picohttpparser_parse_only",
        D,
        "picohttpparser loop, parse only (no rule checked)",
    ),
    duplex(row(
        "h5",
        "h5_pipelined_100k/http-net-tokio",
        D,
        "http-net-tokio server",
    )),
    duplex(row(
        "h5",
        "h5_pipelined_100k/hyper",
        D,
        "hyper server, pipeline_flush",
    )),
    duplex(row(
        "h5",
        "h5_pipelined_100k/tokio_no_http",
        D,
        "the runtime alone: answers of the same length, no HTTP",
    )),
];

/// A performance goal of SPEC §4 (H1-H5; H6 is `sockets.rs`'s):
/// `other / http-net` (a speed-up of http-net) compared with a target;
/// `at_most` goals bound `http-net / other` instead.
struct Goal {
    id: &'static str,
    /// The target as SPEC §4 states it (the key, with `id`, that the
    /// opening table of `docs/PERFORMANCE.md` joins on).
    text: &'static str,
    ours: (&'static str, Build),
    other: (&'static str, Build),
    /// The speed-up of http-net over `other` the goal asks for.
    target: f64,
    /// `true`: the goal is "http-net's time at most `target` x other's".
    at_most: bool,
    /// On the duplex: the runtime-only row; the HTTP-only ratio (both
    /// sides less it) is printed beside the whole-exchange ratio the goal
    /// is judged on.
    runtime: Option<&'static str>,
    /// On the duplex: the ceiling row (the core driven directly over the
    /// same pipe); its ratio to `other` is printed beside.
    ceiling: Option<&'static str>,
    /// Issue 26's gate on this goal: the least speed-up that passes it.
    gate: Option<f64>,
}

const fn goal(
    id: &'static str,
    text: &'static str,
    ours: &'static str,
    other: &'static str,
    target: f64,
) -> Goal {
    Goal {
        id,
        text,
        ours: (ours, D),
        other: (other, D),
        target,
        at_most: false,
        runtime: None,
        ceiling: None,
        gate: None,
    }
}

/// The goals of SPEC §4 as now stated, in its order; H2, H3 client and H5
/// against hyper are judged on the whole exchange through the adapter.
const GOALS: &[Goal] = &[
    goal(
        "H1",
        "1.2x faster than httparse (SIMD) given the same framing pass",
        "h1_request_head/http-net",
        "h1_request_head/httparse",
        1.2,
    ),
    goal(
        "H1 stretch",
        "as fast as picohttpparser SSE4.2 parsing alone",
        "h1_request_head/http-net",
        "h1_request_head/picohttpparser_parse_only",
        1.0,
    ),
    Goal {
        runtime: Some("h2_server_exchange/tokio_no_http"),
        ceiling: Some("h2_server_exchange/serverconn_duplex"),
        gate: Some(1.8),
        ..goal(
            "H2",
            "through the http-net-tokio Server and a Handler, 2.4x faster than hyper on the same duplex and runtime",
            "h2_server_exchange/http-net-tokio",
            "h2_server_exchange/hyper",
            2.4,
        )
    },
    goal(
        "H3 head",
        "1.2x faster than httparse (SIMD) given the same framing pass",
        "h3_response_head/http-net",
        "h3_response_head/httparse",
        1.2,
    ),
    Goal {
        runtime: Some("h3_client_exchange/tokio_no_http"),
        ceiling: Some("h3_client_exchange/clientconn_duplex"),
        gate: Some(1.5),
        ..goal(
            "H3 client",
            "through the http-net-tokio Client, 2x faster than hyper's client on the same duplex and runtime",
            "h3_client_exchange/http-net-tokio",
            "h3_client_exchange/hyper",
            2.0,
        )
    },
    goal(
        "H4",
        "as fast as phr_decode_chunked",
        "h4_chunked_1mib/http-net_copy_out",
        "h4_chunked_1mib/picohttpparser_in_place",
        1.0,
    ),
    Goal {
        at_most: true,
        ..goal(
            "H4b",
            "within 10% of a plain copy of the same bytes",
            "h4b_length_1mib/http-net",
            "h4b_length_1mib/memcpy",
            1.10,
        )
    },
    Goal {
        runtime: Some("h5_pipelined_100k/tokio_no_http"),
        ..goal(
            "H5 hyper",
            "through the http-net-tokio Server, 3.5x faster than hyper on the same duplex and runtime",
            "h5_pipelined_100k/http-net-tokio",
            "h5_pipelined_100k/hyper",
            3.5,
        )
    },
    Goal {
        gate: Some(0.85),
        ..goal(
            "H5 lean loop",
            "ServerConn 1.2x faster than a lean httparse loop giving the same 52-byte answers (in memory)",
            "h5_pipelined_100k/http-net",
            "h5_pipelined_100k/httparse_lean",
            1.2,
        )
    },
];

/// Every goal of SPEC §4 (H1-H6), id and target, in the order of the
/// opening table of `docs/PERFORMANCE.md`.
pub fn all_goals() -> Vec<(&'static str, &'static str)> {
    GOALS
        .iter()
        .map(|g| (g.id, g.text))
        .chain(crate::report::H6_GOALS.iter().copied())
        .collect()
}

/// Writes the opening table of `docs/PERFORMANCE.md` from its sections.
pub fn write_goals(path: &Path) -> Result {
    let doc = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let table = crate::report::opening_table(&doc, &all_goals());
    crate::report::write_section(path, crate::report::GOALS_SECTION, &table)
}

/// Entry point: `cargo xtask compare [goals] [options]` (`compare sockets`
/// is `sockets.rs`'s, dispatched by `main.rs`).
pub fn main(args: &[String]) -> Result {
    if args.first().map(String::as_str) == Some("goals") {
        if let Some(extra) = args.get(1) {
            return Err(format!("compare goals takes no arguments (got {extra:?})"));
        }
        let path = process::root().join("docs/PERFORMANCE.md");
        write_goals(&path)?;
        eprintln!("wrote the goal table of {}", path.display());
        return Ok(());
    }
    let args = Args::parse(
        args,
        &["rounds", "only", "warm-up", "measurement", "cpu", "settle"],
    )?;
    if args.flag("help") {
        println!("usage: cargo xtask compare [--rounds N] [--only h1,h2,h3,h3c,h4,h4b,h5] [--warm-up S] [--measurement S] [--cpu N] [--no-scalar] [--no-equivalence] [--no-write] [--settle S] [--unguarded]\n       cargo xtask compare goals    (the opening goal table of docs/PERFORMANCE.md, from its sections)");
        return Ok(());
    }
    let settle: u64 = args.value("settle", guard::MIN_SETTLE_S)?;
    let unguarded = args.flag("unguarded");
    let rounds: usize = args.value("rounds", 5)?;
    let timing = Timing {
        warm_up: args.value("warm-up", 1.0)?,
        measurement: args.value("measurement", 2.0)?,
    };
    let cpu = Some(args.value("cpu", process::cpus().saturating_sub(1))?);
    let only: Option<Vec<String>> = args
        .options
        .get("only")
        .map(|s| s.split(',').map(|w| w.trim().to_lowercase()).collect());
    let scalar = !args.flag("no-scalar");
    let root = process::root();
    let compare = root.join("compare");

    let default_exe = build(&compare, Build::Default)?;
    let scalar_exe = if scalar {
        Some(build(&compare, Build::Scalar)?)
    } else {
        None
    };
    let simd_note = simd_check(&compare, scalar)?;
    eprintln!("{simd_note}");
    if !args.flag("no-equivalence") {
        // Equal work first: the framing pass must still match http-net.
        process::run(
            "equivalence test",
            Command::new("cargo")
                .current_dir(&compare)
                .env("CARGO_TARGET_DIR", compare.join("target"))
                .env_remove("RUSTFLAGS")
                .args([
                    "test",
                    "--profile",
                    "bench",
                    "--test",
                    "equivalence",
                    "--test",
                    "conn_sides",
                ]),
        )?;
    }

    let rows: Vec<&Row> = ROWS
        .iter()
        .filter(|r| {
            only.as_ref()
                .is_none_or(|o| o.iter().any(|w| w == r.workload))
        })
        .filter(|r| r.build == Build::Default || scalar)
        .collect();
    if rows.is_empty() {
        return Err("no row selected (--only takes h1,h2,h3,h3c,h4,h4b,h5)".into());
    }
    let home = process::temp_dir("compare-criterion")?;
    // Builds and the equivalence test are done: wait idle, read the load.
    let watch = guard::Guard::start(settle);
    let mut samples: BTreeMap<(&str, Build), Vec<f64>> = BTreeMap::new();
    let mut workloads: Vec<&str> = rows.iter().map(|r| r.workload).collect();
    workloads.dedup();
    for round in 0..rounds {
        eprintln!("==> round {} of {rounds}", round + 1);
        for w in &workloads {
            let sides: Vec<&&Row> = rows.iter().filter(|r| r.workload == *w).collect();
            let n = sides.len();
            // Rotate the order every round so that no side always runs first.
            for k in 0..n {
                let r = sides[(k + round) % n];
                let exe = match r.build {
                    Build::Default => &default_exe,
                    Build::Scalar => scalar_exe.as_ref().unwrap_or(&default_exe),
                };
                let results = criterion::run(exe, Some(r.id), true, timing, cpu, &home, true)?;
                match results.get(r.id) {
                    Some(ns) => samples.entry((r.id, r.build)).or_default().push(*ns),
                    None => eprintln!("xtask: {} ({:?}) gave no result", r.id, r.build),
                }
            }
        }
    }
    let verdict = watch.finish();
    let _ = std::fs::remove_dir_all(&home);

    let command = format!(
        "cargo xtask compare {}",
        std::env::args().skip(2).collect::<Vec<_>>().join(" ")
    );
    let report = report(
        &rows,
        &samples,
        rounds,
        &simd_note,
        command.trim_end(),
        cpu,
        &verdict,
    );
    println!("{report}");
    if args.flag("no-write") {
        return Ok(());
    }
    if guard::may_write(&verdict, unguarded)? {
        let path = root.join("docs/PERFORMANCE.md");
        crate::report::write_section(&path, "library", &report)?;
        write_goals(&path)?;
        eprintln!("wrote {}", path.display());
    } else {
        eprintln!("xtask: --unguarded: docs/PERFORMANCE.md not written");
    }
    Ok(())
}

/// Builds the comparison bench of one build and returns its executable.
fn build(compare: &Path, build: Build) -> Result<PathBuf> {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(compare)
        .args(["bench", "--bench", "compare", "--no-run"]);
    cmd.env_remove("RUSTFLAGS");
    if build == Build::Scalar {
        cmd.env("CARGO_TARGET_DIR", compare.join("target/scalar"))
            .env("RUSTFLAGS", "--cfg httparse_disable_simd=\"1\"")
            .arg("--no-default-features");
    } else {
        cmd.env("CARGO_TARGET_DIR", compare.join("target"));
    }
    let artifacts =
        process::cargo_executables(&format!("build the {build:?} comparison"), &mut cmd)?;
    artifacts
        .into_iter()
        .find(|a| a.kind == "bench" && a.name == "compare")
        .map(|a| a.executable)
        .ok_or_else(|| "cargo built no `compare` bench".to_string())
}

/// Reads httparse's build-script output in both target directories: its
/// build script prints `cargo:rustc-cfg=httparse_simd` when SIMD is compiled
/// in (a bare `--cfg httparse_disable_simd`, without `="1"`, leaves it on).
fn simd_check(compare: &Path, scalar: bool) -> Result<String> {
    let state = |target: PathBuf| -> Result<&'static str> {
        let build = target.join("release/build");
        let mut newest: Option<(std::time::SystemTime, PathBuf)> = None;
        for e in std::fs::read_dir(&build)
            .map_err(|e| format!("{}: {e}", build.display()))?
            .flatten()
        {
            let out = e.path().join("output");
            let is_httparse = e.file_name().to_string_lossy().starts_with("httparse-");
            if let (true, Ok(meta)) = (is_httparse, std::fs::metadata(&out)) {
                let t = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
                if newest.as_ref().is_none_or(|(n, _)| t > *n) {
                    newest = Some((t, out));
                }
            }
        }
        let (_, out) = newest.ok_or("httparse's build-script output not found")?;
        let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        Ok(
            if text.contains("cargo:rustc-cfg=httparse_simd\n")
                || text.ends_with("cargo:rustc-cfg=httparse_simd")
            {
                "SIMD compiled in (runtime-detected SSE4.2/AVX2)"
            } else {
                "SIMD compiled out (scalar)"
            },
        )
    };
    let mut note = format!("httparse default build: {}", state(compare.join("target"))?);
    if scalar {
        note.push_str(&format!(
            "; scalar build: {}",
            state(compare.join("target/scalar"))?
        ));
    }
    Ok(note)
}

/// The report: a table per workload and the goals.
fn report(
    rows: &[&Row],
    samples: &BTreeMap<(&str, Build), Vec<f64>>,
    rounds: usize,
    simd_note: &str,
    command: &str,
    cpu: Option<usize>,
    verdict: &guard::Verdict,
) -> String {
    let med = |id: &str, b: Build| samples.get(&(id, b)).and_then(|v| figures::median(v));
    let mut s = String::new();
    s.push_str(&format!(
        "Measured {} on {}, http-net {}.\n\nCommand: `{command}`; every bench a separate process pinned to CPU {}; the sides of a workload alternate, in an order that rotates each round; {rounds} round(s); medians of the per-round criterion medians.\n\n{simd_note}.\n\n",
        process::now_utc(),
        process::machine(),
        process::describe_commit(&process::root()),
        cpu.map(|c| c.to_string()).unwrap_or_else(|| "none".into()),
    ));
    s.push_str(&verdict.render());
    s.push_str("\n\n");
    s.push_str("Ratio: the other side's time over http-net's on the same footing (above 1: http-net is faster). HTTP-only (tokio duplex rows): both times less the runtime-only row's. Pass: a parser's time with the framing pass less its time alone, the pass's own cost.\n\n");
    s.push_str(
        "| workload | footing | side | median | spread over rounds | ratio | HTTP-only ratio | pass's own cost |\n|---|---|---|---:|---:|---:|---:|---:|\n",
    );
    let mut first: Option<&Row> = None;
    for r in rows {
        if first.is_none_or(|f| f.workload != r.workload || f.footing != r.footing) {
            first = Some(r);
        }
        let ours = first.and_then(|f| med(f.id, f.build));
        let m = med(r.id, r.build);
        let spread = samples
            .get(&(r.id, r.build))
            .map(|v| {
                let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
                let hi = v.iter().cloned().fold(0.0, f64::max);
                format!("{} – {}", figures::fmt_ns(lo), figures::fmt_ns(hi))
            })
            .unwrap_or_else(|| "—".into());
        let ratio = match (ours, m) {
            (Some(o), Some(m)) => format!("{:.2}x", m / o),
            _ => "—".into(),
        };
        // The runtime-only row of this workload's duplex group.
        let runtime = rows
            .iter()
            .find(|x| {
                x.workload == r.workload
                    && x.footing == Footing::Duplex
                    && x.id.ends_with("/tokio_no_http")
            })
            .and_then(|x| med(x.id, x.build));
        let http_only = match (r.footing, ours, m, runtime) {
            (Footing::Duplex, Some(o), Some(m), Some(rt)) if !r.id.ends_with("/tokio_no_http") => {
                http_only_ratio(o, m, rt)
            }
            _ => "—".into(),
        };
        let pass = match (r.parse_only.and_then(|p| med(p, r.build)), m) {
            (Some(alone), Some(m)) => signed_ns(m - alone),
            _ => "—".into(),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {spread} | {ratio} | {http_only} | {pass} |\n",
            r.workload.to_uppercase(),
            r.footing.text(),
            r.label,
            m.map(figures::fmt_ns)
                .unwrap_or_else(|| "not measured".into()),
        ));
    }
    s.push('\n');
    let goal_rows: Vec<GoalRow> = GOALS
        .iter()
        .filter(|g| rows.iter().any(|r| r.id == g.ours.0))
        .map(|g| goal_row(g, &med))
        .collect();
    s.push_str(&crate::report::goal_table(&goal_rows));
    s.push_str("\nFootings: \"in memory, no runtime\" rows hand the bytes to the library directly; \"tokio duplex, current-thread\" rows run the library over a `tokio::io::duplex` pipe on a current-thread runtime (timer enabled), the peer written by hand on the other end, and the runtime-only row echoes the same bytes over the same pipe with no HTTP. Ratios compare rows of one footing only. The goals (SPEC §4) are judged on the whole time, through the adapters on the duplex; the HTTP-only ratio and the ceiling's (the core driven directly by a short loop over the same duplex: no deadlines, no slots) are printed beside. H5's goal is against the lean httparse loop, which emits the same 52-byte answers as `ServerConn` (checked byte for byte by compare's `conn_sides` test); the loops with the whole framing pass are their own rows.\n");
    s.push('\n');
    s
}

/// A goal's row: the ratio it is judged on, the HTTP-only and ceiling
/// ratios beside it, met or not, and the issue 26 gate.
fn goal_row(g: &Goal, med: &dyn Fn(&str, Build) -> Option<f64>) -> GoalRow {
    let blank = |measured: &str| GoalRow {
        id: g.id.into(),
        target: g.text.into(),
        measured: measured.into(),
        status: "—".into(),
        gate: "—".into(),
    };
    let (Some(o), Some(t)) = (med(g.ours.0, g.ours.1), med(g.other.0, g.other.1)) else {
        return blank("not measured");
    };
    if g.at_most {
        let r = o / t;
        return GoalRow {
            measured: format!("http-net {r:.2}x the other's time"),
            status: if r <= g.target {
                "met".into()
            } else {
                format!(
                    "not met ({:+.0}% over the bound)",
                    (r / g.target - 1.0) * 100.0
                )
            },
            ..blank("")
        };
    }
    let r = t / o;
    let mut measured = format!("{r:.2}x ({} vs {})", figures::fmt_ns(o), figures::fmt_ns(t));
    if let Some(rt) = g.runtime.and_then(|id| med(id, D)) {
        measured.push_str(&format!("; HTTP-only {}", http_only_ratio(o, t, rt)));
    }
    if let Some(c) = g.ceiling.and_then(|id| med(id, D)) {
        measured.push_str(&format!(
            "; ceiling (the core over the duplex) {:.2}x",
            t / c
        ));
    }
    GoalRow {
        measured,
        status: if r >= g.target {
            "met".into()
        } else {
            format!(
                "not met (needs {:.0}% less time)",
                (1.0 - r / g.target) * 100.0
            )
        },
        gate: match g.gate {
            Some(gate) if r >= gate => format!("at least {gate}x: passed"),
            Some(gate) => format!("at least {gate}x: not passed"),
            None => "—".into(),
        },
        ..blank("")
    }
}

/// A time difference with its sign, in the report's units.
fn signed_ns(d: f64) -> String {
    format!(
        "{}{}",
        if d < 0.0 { "-" } else { "+" },
        figures::fmt_ns(d.abs())
    )
}

/// `(other - runtime) / (ours - runtime)`: the HTTP-only ratio, or a dash
/// when the runtime alone is not below both sides.
fn http_only_ratio(ours: f64, other: f64, runtime: f64) -> String {
    let (o, t) = (ours - runtime, other - runtime);
    if o <= 0.0 || t <= 0.0 {
        "—".into()
    } else {
        format!("{:.2}x", t / o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_cost_keeps_its_sign_and_unit() {
        assert_eq!(signed_ns(-2.5e6), format!("-{}", figures::fmt_ns(2.5e6)));
        assert_eq!(signed_ns(38.0), format!("+{}", figures::fmt_ns(38.0)));
    }

    #[test]
    fn http_only_subtracts_the_runtime_from_both() {
        // 375 ns against 1,077 ns with 178 ns of runtime: 899 / 197.
        assert_eq!(http_only_ratio(375.0, 1077.0, 178.0), "4.56x");
        assert_eq!(http_only_ratio(100.0, 300.0, 100.0), "—");
    }

    #[test]
    fn every_group_starts_with_http_net_and_every_goal_has_rows() {
        let mut first: Option<&Row> = None;
        for r in ROWS {
            if first.is_none_or(|f| f.workload != r.workload || f.footing != r.footing) {
                assert!(r.id.contains("/http-net"), "{} leads its group", r.id);
                first = Some(r);
            }
            if let Some(p) = r.parse_only {
                assert!(ROWS.iter().any(|x| x.id == p && x.build == r.build), "{p}");
            }
        }
        for g in GOALS {
            for id in [g.ours.0, g.other.0]
                .into_iter()
                .chain(g.runtime)
                .chain(g.ceiling)
            {
                assert!(ROWS.iter().any(|r| r.id == id), "{id}");
            }
        }
    }

    #[test]
    fn the_opening_table_lists_every_goal_once_from_h1_to_h6() {
        let goals = all_goals();
        for (i, (id, _)) in goals.iter().enumerate() {
            assert!(goals[i + 1..].iter().all(|(other, _)| other != id), "{id}");
        }
        for h in ["H1", "H2", "H3", "H4", "H5", "H6"] {
            assert!(goals.iter().any(|(id, _)| id.starts_with(h)), "{h}");
        }
        // Every row id the benches give is a row of the comparison bench.
        let source =
            std::fs::read_to_string(process::root().join("compare/benches/compare.rs")).unwrap();
        for r in ROWS {
            let (group, name) = r.id.split_once('/').unwrap();
            assert!(source.contains(&format!("\"{group}\"")), "{group}");
            assert!(source.contains(&format!("\"{name}\"")), "{name}");
        }
    }

    #[test]
    fn goals_are_judged_on_the_whole_exchange_with_the_gate_beside() {
        let meds: BTreeMap<&str, f64> = [
            ("h2_server_exchange/http-net-tokio", 500.0),
            ("h2_server_exchange/hyper", 1000.0),
            ("h2_server_exchange/tokio_no_http", 300.0),
            ("h2_server_exchange/serverconn_duplex", 400.0),
        ]
        .into_iter()
        .collect();
        let med = |id: &str, _: Build| meds.get(id).copied();
        let h2 = GOALS.iter().find(|g| g.id == "H2").unwrap();
        let r = goal_row(h2, &med);
        assert!(r.measured.starts_with("2.00x"), "{}", r.measured);
        // HTTP-only: 700 / 200; the ceiling: 1000 / 400.
        assert!(r.measured.contains("HTTP-only 3.50x"), "{}", r.measured);
        assert!(
            r.measured
                .contains("ceiling (the core over the duplex) 2.50x"),
            "{}",
            r.measured
        );
        assert_eq!(r.status, "not met (needs 17% less time)");
        assert_eq!(r.gate, "at least 1.8x: passed");
        let h3 = GOALS.iter().find(|g| g.id == "H3 client").unwrap();
        assert_eq!(goal_row(h3, &med).measured, "not measured");
    }
}
