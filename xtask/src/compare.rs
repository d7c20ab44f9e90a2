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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::args::Args;
use crate::criterion::{self, Timing};
use crate::figures;
use crate::guard;
use crate::process::{self, Result};

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
    row("h5", "h5_pipelined_100k/http-net", D, "http-net ServerConn"),
    pass(
        row(
            "h5",
            "h5_pipelined_100k/httparse",
            D,
            "httparse SIMD loop + framing pass, a canned answer copied per request",
        ),
        "h5_pipelined_100k/httparse_parse_only",
    ),
    pass(
        row(
            "h5",
            "h5_pipelined_100k/picohttpparser",
            D,
            "picohttpparser loop + framing pass, a canned answer copied per request",
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

/// A performance goal (H1-H6 of `docs/PERFORMANCE.md`): `other / http-net`
/// (a speed-up of http-net) compared with
/// a target; `at_most` goals bound `http-net / other` instead.
struct Goal {
    id: &'static str,
    text: &'static str,
    ours: (&'static str, Build),
    other: (&'static str, Build),
    /// The speed-up of http-net over `other` the goal asks for.
    target: f64,
    /// `true`: the goal is "http-net's time at most `target` x other's".
    at_most: bool,
    /// On the duplex: the runtime-only row, subtracted from both sides for
    /// the HTTP-only share, on which the goal is judged (the whole-exchange
    /// ratio is printed beside it).
    runtime: Option<&'static str>,
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
    }
}

const GOALS: &[Goal] = &[
    goal(
        "H1",
        "1.2x faster than httparse (SIMD) with the same framing pass",
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
        ..goal(
            "H2",
            "5x faster than hyper (HTTP-only share; same duplex and runtime)",
            "h2_server_exchange/http-net-tokio",
            "h2_server_exchange/hyper",
            5.0,
        )
    },
    goal(
        "H3 head",
        "1.2x faster than httparse (SIMD) with the same framing pass",
        "h3_response_head/http-net",
        "h3_response_head/httparse",
        1.2,
    ),
    Goal {
        runtime: Some("h3_client_exchange/tokio_no_http"),
        ..goal(
            "H3 client",
            "13x faster than hyper (HTTP-only share; same duplex and runtime)",
            "h3_client_exchange/http-net-tokio",
            "h3_client_exchange/hyper",
            13.0,
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
            "within 10% of a plain copy",
            "h4b_length_1mib/http-net",
            "h4b_length_1mib/memcpy",
            1.10,
        )
    },
    Goal {
        runtime: Some("h5_pipelined_100k/tokio_no_http"),
        ..goal(
            "H5 hyper",
            "3.5x faster than hyper (HTTP-only share; same duplex and runtime)",
            "h5_pipelined_100k/http-net-tokio",
            "h5_pipelined_100k/hyper",
            3.5,
        )
    },
    goal(
        "H5 httparse",
        "1.2x faster than an httparse loop doing the same checks (in memory)",
        "h5_pipelined_100k/http-net",
        "h5_pipelined_100k/httparse",
        1.2,
    ),
];

/// Entry point: `cargo xtask compare [sockets] [options]`.
pub fn main(args: &[String]) -> Result {
    if args.first().map(String::as_str) == Some("sockets") {
        return crate::sockets::main(&args[1..]);
    }
    let args = Args::parse(
        args,
        &["rounds", "only", "warm-up", "measurement", "cpu", "settle"],
    )?;
    if args.flag("help") {
        println!("usage: cargo xtask compare [--rounds N] [--only h1,h2,h3,h3c,h4,h4b,h5] [--warm-up S] [--measurement S] [--cpu N] [--no-scalar] [--no-equivalence] [--no-write] [--settle S] [--unguarded]");
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
    s.push_str("\n| goal | target | measured | status |\n|---|---|---|---|\n");
    for g in GOALS {
        let (Some(o), Some(t)) = (med(g.ours.0, g.ours.1), med(g.other.0, g.other.1)) else {
            if rows.iter().any(|r| r.id == g.ours.0) {
                s.push_str(&format!("| {} | {} | not measured | — |\n", g.id, g.text));
            }
            continue;
        };
        let runtime = g.runtime.and_then(|r| med(r, D));
        let (measured, met, gap) = if g.at_most {
            let r = o / t;
            (
                format!("http-net {:.2}x the other's time", r),
                r <= g.target,
                format!("{:+.0}% over the bound", (r / g.target - 1.0) * 100.0),
            )
        } else if let Some(rt) = runtime {
            let whole = t / o;
            let (oh, th) = (o - rt, t - rt);
            if oh <= 0.0 || th <= 0.0 {
                (
                    format!(
                        "whole {whole:.2}x; HTTP-only share not measurable (runtime {} of {})",
                        figures::fmt_ns(rt),
                        figures::fmt_ns(o)
                    ),
                    false,
                    "runtime row at or above a side".to_string(),
                )
            } else {
                let r = th / oh;
                (
                    format!(
                        "HTTP-only {r:.2}x ({} vs {}); whole exchange {whole:.2}x",
                        figures::fmt_ns(oh),
                        figures::fmt_ns(th)
                    ),
                    r >= g.target,
                    format!("needs {:.0}% less HTTP time", (1.0 - r / g.target) * 100.0),
                )
            }
        } else {
            let r = t / o;
            (
                format!("{:.2}x", r),
                r >= g.target,
                format!("needs {:.0}% less time", (1.0 - r / g.target) * 100.0),
            )
        };
        let status = if met {
            "met".to_string()
        } else {
            format!("not met ({gap})")
        };
        s.push_str(&format!(
            "| {} | {} | {measured} | {status} |\n",
            g.id, g.text
        ));
    }
    s.push_str("\nFootings: \"in memory, no runtime\" rows hand the bytes to the library directly; \"tokio duplex, current-thread\" rows run the library over a `tokio::io::duplex` pipe on a current-thread runtime (timer enabled), the peer written by hand on the other end, and the runtime-only row echoes the same bytes over the same pipe with no HTTP. Ratios compare rows of one footing only.\n");
    s.push('\n');
    s
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
            for id in [g.ours.0, g.other.0].into_iter().chain(g.runtime) {
                assert!(ROWS.iter().any(|r| r.id == id), "{id}");
            }
        }
    }
}
