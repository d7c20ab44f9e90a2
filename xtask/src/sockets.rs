//! `cargo xtask compare sockets`: H6, whole plaintext servers over 127.0.0.1.
//!
//! http-net's `hello` example (`/plaintext`) and its tokio twin
//! `hello_tokio` (package http-net-tokio, current-thread runtime) against
//! the hyper (current-thread), tiny_http and may_minihttp plaintext servers
//! of `compare/src/bin/`, and one axum router served by `axum::serve`
//! (`axum-hyper`) and by `http-net-tower` (`axum-http-net`), both on a
//! current-thread runtime. Each server is pinned
//! to one core with `taskset`, `wrk` to the other; each scenario runs for
//! `--duration` seconds (10 by default): 16 connections with 16 requests
//! pipelined per write (a wrk Lua script), 16 connections, 1 connection.
//! Servers take turns in an order that rotates each round. For each run the
//! server's CPU time is read from `/proc/PID/stat` (utime + stime, all
//! threads) before and after, giving CPU seconds per request: the load
//! generator saturates near 1.4 M req/s here, so that is what tells fast
//! servers apart (goal H6 of `docs/PERFORMANCE.md`).
//!
//! The load guard of `compare` ([`crate::guard`]) watches the run: after the
//! builds and the warm-up it waits `--settle` seconds idle (default 60) and
//! reads the load average, then counts the CPU other processes use while
//! wrk runs (the servers' own CPU, read from `/proc/PID/stat`, is the
//! run's). The report states the verdict, the load average before and
//! after; a run that fails the guard does not write `docs/PERFORMANCE.md`
//! (an error says why), and `--unguarded` prints the tables, marked, and
//! never writes them.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::args::Args;
use crate::figures;
use crate::guard;
use crate::process::{self, Result};
use crate::report::{GoalRow, H6_GOALS as GOALS};

/// The wrk script that sends 16 requests per write (TechEmpower's pipeline.lua).
const PIPELINE_LUA: &str = r#"-- 16 requests per write
init = function(args)
  local r = {}
  for i = 1, 16 do
    r[i] = wrk.format(nil, wrk.path)
  end
  req = table.concat(r)
end

request = function()
  return req
end
"#;

/// A load shape.
struct Scenario {
    name: &'static str,
    connections: u32,
    pipelined: bool,
}

const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "16 connections x 16 pipelined",
        connections: 16,
        pipelined: true,
    },
    Scenario {
        name: "16 connections",
        connections: 16,
        pipelined: false,
    },
    Scenario {
        name: "1 connection",
        connections: 1,
        pipelined: false,
    },
];

/// A running server under test.
struct Server {
    name: &'static str,
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One measurement.
#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    requests_per_s: f64,
    cpu_s_per_request: f64,
    /// The part of `cpu_s_per_request` spent in user space (utime); the
    /// rest is the kernel's (stime: the system calls, and the loopback
    /// TCP work charged to the process that makes them).
    user_s_per_request: f64,
    cpu_share: f64,
}

/// Entry point.
pub fn main(args: &[String]) -> Result {
    let args = Args::parse(
        args,
        &[
            "rounds",
            "duration",
            "server-cpu",
            "wrk-cpu",
            "only",
            "settle",
        ],
    )?;
    if args.flag("help") {
        println!("usage: cargo xtask compare sockets [--rounds N] [--duration S] [--server-cpu N] [--wrk-cpu N] [--only NAMES] [--no-write] [--settle S] [--unguarded]");
        return Ok(());
    }
    let settle: u64 = args.value("settle", guard::MIN_SETTLE_S)?;
    let unguarded = args.flag("unguarded");
    let rounds: usize = args.value("rounds", 5)?;
    let duration: u32 = args.value("duration", 10)?;
    let server_cpu: usize = args.value("server-cpu", 0)?;
    let wrk_cpu: usize = args.value("wrk-cpu", process::cpus().saturating_sub(1))?;
    if !cfg!(target_os = "linux") {
        return Err("compare sockets reads /proc: Linux only".into());
    }
    ensure_wrk()?;
    if !process::have_taskset() {
        return Err("taskset not found (util-linux): servers must be pinned".into());
    }
    let root = process::root();
    let bins = build(&root)?;
    let only: Option<Vec<String>> = args
        .options
        .get("only")
        .map(|s| s.split(',').map(|w| w.trim().to_string()).collect());
    let bins: Vec<(&'static str, PathBuf)> = bins
        .into_iter()
        .filter(|(n, _)| only.as_ref().is_none_or(|o| o.iter().any(|w| w == n)))
        .collect();
    let dir = process::temp_dir("sockets")?;
    let script = dir.join("pipeline.lua");
    std::fs::write(&script, PIPELINE_LUA).map_err(|e| format!("{}: {e}", script.display()))?;
    let ticks = clock_ticks()?;

    let mut servers = Vec::new();
    for (name, exe) in &bins {
        servers.push(start(name, exe, server_cpu)?);
    }
    // Warm every server up (and check it answers 200) before measuring.
    for s in &servers {
        let out = wrk(&s.addr, 16, false, 1, &script, wrk_cpu)?;
        if let Some(bad) = out.non_2xx {
            return Err(format!("{} answered {bad} non-2xx responses", s.name));
        }
        eprintln!("{}: warm-up {:.0} req/s", s.name, out.requests as f64);
    }

    // Builds and warm-up done: wait idle, read the load, count the CPU of
    // others from here (the servers run on: their ticks are the run's own).
    let watch = guard::Guard::start(settle);
    let servers_before = servers_ticks(&servers)?;
    let mut samples: BTreeMap<(usize, &'static str), Vec<Sample>> = BTreeMap::new();
    for round in 0..rounds {
        eprintln!("==> round {} of {rounds}", round + 1);
        for (si, sc) in SCENARIOS.iter().enumerate() {
            let n = servers.len();
            for k in 0..n {
                let s = &servers[(k + round) % n];
                let before = cpu_split(s.child.id())?;
                let out = wrk(
                    &s.addr,
                    sc.connections,
                    sc.pipelined,
                    duration,
                    &script,
                    wrk_cpu,
                )?;
                let after = cpu_split(s.child.id())?;
                if let Some(bad) = out.non_2xx {
                    eprintln!("xtask: {} answered {bad} non-2xx responses", s.name);
                }
                let user = after.0.saturating_sub(before.0) as f64 / ticks;
                let cpu = user + after.1.saturating_sub(before.1) as f64 / ticks;
                let sample = Sample {
                    requests_per_s: out.requests_per_s,
                    cpu_s_per_request: cpu / out.requests.max(1) as f64,
                    user_s_per_request: user / out.requests.max(1) as f64,
                    cpu_share: cpu / out.seconds.max(f64::MIN_POSITIVE),
                };
                eprintln!(
                    "  {:<14} {:<30} {:>10.0} req/s  {:>6.2} µs CPU/request ({:.2} user)  {:>4.0}% of a core",
                    s.name,
                    sc.name,
                    sample.requests_per_s,
                    sample.cpu_s_per_request * 1e6,
                    sample.user_s_per_request * 1e6,
                    sample.cpu_share * 100.0
                );
                samples.entry((si, s.name)).or_default().push(sample);
            }
        }
    }
    let servers_ticks = servers_ticks(&servers)?.saturating_sub(servers_before);
    let verdict = watch.finish_with(servers_ticks);
    let load_after = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .as_deref()
        .and_then(guard::parse_loadavg);
    drop(servers);
    let _ = std::fs::remove_dir_all(&dir);

    let names: Vec<&'static str> = bins.iter().map(|(n, _)| *n).collect();
    let command = format!(
        "cargo xtask compare {}",
        std::env::args().skip(2).collect::<Vec<_>>().join(" ")
    );
    let report = report(
        &names,
        &samples,
        rounds,
        duration,
        command.trim_end(),
        (server_cpu, wrk_cpu),
        &guard_note(&verdict, load_after),
    );
    println!("{report}");
    if args.flag("no-write") {
        return Ok(());
    }
    if guard::may_write(&verdict, unguarded)? {
        let path = root.join("docs/PERFORMANCE.md");
        crate::report::write_section(&path, "sockets", &report)?;
        crate::compare::write_goals(&path)?;
        eprintln!("wrote {}", path.display());
    } else {
        eprintln!("xtask: --unguarded: docs/PERFORMANCE.md not written");
    }
    Ok(())
}

/// The load guard's verdict and the load average after the run, for the
/// report.
fn guard_note(verdict: &guard::Verdict, load_after: Option<f64>) -> String {
    format!(
        "{} Load average after the run: {}.",
        verdict.render(),
        load_after.map_or_else(|| "unknown".to_string(), |l| format!("{l:.2}"))
    )
}

/// The CPU ticks of every server so far (utime + stime, all threads).
fn servers_ticks(servers: &[Server]) -> Result<u64> {
    servers.iter().map(|s| cpu_ticks(s.child.id())).sum()
}

/// Installs wrk with apt-get when it is missing and apt-get is there.
fn ensure_wrk() -> Result {
    let have = |p: &str| {
        Command::new(p)
            .arg("-v")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    };
    if have("wrk") {
        return Ok(());
    }
    if have("apt-get") {
        process::run(
            "install wrk",
            Command::new("apt-get").args(["install", "-y", "-qq", "wrk"]),
        )?;
        if have("wrk") {
            return Ok(());
        }
    }
    Err("wrk not found: install it (apt-get install -y wrk)".into())
}

/// Builds http-net's `hello` and `hello_tokio` examples and the comparison
/// servers.
fn build(root: &Path) -> Result<Vec<(&'static str, PathBuf)>> {
    let example = |package: &str, name: &str| -> Result<PathBuf> {
        let mut cmd = Command::new("cargo");
        cmd.current_dir(root)
            .args(["build", "--release", "-p", package, "--example", name]);
        process::cargo_executables(&format!("build the {name} example"), &mut cmd)?
            .into_iter()
            .find(|a| a.kind == "example" && a.name == name)
            .map(|a| a.executable)
            .ok_or_else(|| format!("cargo built no {name} example"))
    };
    let hello = example("http-net", "hello")?;
    let hello_tokio = example("http-net-tokio", "hello_tokio")?;
    let compare = root.join("compare");
    let mut cmd = Command::new("cargo");
    cmd.current_dir(&compare)
        .env("CARGO_TARGET_DIR", compare.join("target"))
        .env_remove("RUSTFLAGS")
        .args(["build", "--release", "--bins"]);
    let built = process::cargo_executables("build the comparison servers", &mut cmd)?;
    let find = |name: &str| -> Result<PathBuf> {
        built
            .iter()
            .find(|a| a.kind == "bin" && a.name == name)
            .map(|a| a.executable.clone())
            .ok_or_else(|| format!("cargo built no {name}"))
    };
    Ok(vec![
        ("http-net", hello),
        ("http-net-tokio", hello_tokio),
        ("hyper", find("hyper-plaintext")?),
        ("tiny_http", find("tiny-http-plaintext")?),
        ("may_minihttp", find("may-minihttp-plaintext")?),
        ("axum-hyper", find("axum-hyper")?),
        ("axum-http-net", find("axum-http-net")?),
    ])
}

/// Starts a server pinned to `cpu` on a free port and waits for its
/// `listening on http://ADDR` line.
fn start(name: &'static str, exe: &Path, cpu: usize) -> Result<Server> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("cannot find a free port: {e}"))?
        .port();
    let mut cmd = process::pinned(exe, Some(cpu));
    cmd.arg("--addr")
        .arg(format!("127.0.0.1:{port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        while let Some(Ok(line)) = lines.next() {
            if let Some(addr) = line.trim().strip_prefix("listening on http://") {
                let _ = tx.send(addr.trim_end_matches('/').to_string());
                break;
            }
        }
        // Keep draining so the server never blocks on a full pipe.
        for _ in lines {}
    });
    let mut server = Server {
        name,
        child,
        addr: String::new(),
    };
    server.addr = rx
        .recv_timeout(Duration::from_secs(20))
        .map_err(|_| format!("{name} did not print `listening on http://ADDR`"))?;
    eprintln!(
        "{name}: pid {} listening on {}",
        server.child.id(),
        server.addr
    );
    Ok(server)
}

/// What one wrk run reported.
struct WrkOut {
    requests: u64,
    seconds: f64,
    requests_per_s: f64,
    non_2xx: Option<u64>,
}

fn wrk(
    addr: &str,
    connections: u32,
    pipelined: bool,
    seconds: u32,
    script: &Path,
    cpu: usize,
) -> Result<WrkOut> {
    let mut cmd = process::pinned(Path::new("wrk"), Some(cpu));
    cmd.args(["-t1", "--timeout", "5s"])
        .arg(format!("-c{connections}"))
        .arg(format!("-d{seconds}s"));
    if pipelined {
        cmd.arg("-s").arg(script);
    }
    cmd.arg(format!("http://{addr}/plaintext"));
    let text = process::output("wrk", &mut cmd)?;
    parse_wrk(&text).ok_or_else(|| format!("cannot read wrk's output:\n{text}"))
}

/// Reads `N requests in S.SSs` and `Requests/sec:` from wrk's summary.
fn parse_wrk(text: &str) -> Option<WrkOut> {
    let mut requests = None;
    let mut seconds = None;
    let mut rps = None;
    let mut non_2xx = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some((n, rest)) = line.split_once(" requests in ") {
            requests = n.trim().parse().ok();
            let t = rest.split(',').next()?.trim();
            seconds = parse_duration(t);
        } else if let Some(v) = line.strip_prefix("Requests/sec:") {
            rps = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("Non-2xx or 3xx responses:") {
            non_2xx = v.trim().parse().ok();
        }
    }
    Some(WrkOut {
        requests: requests?,
        seconds: seconds?,
        requests_per_s: rps?,
        non_2xx,
    })
}

fn parse_duration(t: &str) -> Option<f64> {
    if let Some(v) = t.strip_suffix("ms") {
        v.parse::<f64>().ok().map(|v| v / 1e3)
    } else if let Some(v) = t.strip_suffix("us") {
        v.parse::<f64>().ok().map(|v| v / 1e6)
    } else if let Some(v) = t.strip_suffix('s') {
        v.parse().ok()
    } else if let Some(v) = t.strip_suffix('m') {
        v.parse::<f64>().ok().map(|v| v * 60.0)
    } else {
        None
    }
}

/// utime + stime of a process (all its threads), in clock ticks.
fn cpu_ticks(pid: u32) -> Result<u64> {
    cpu_split(pid).map(|(user, system)| user + system)
}

/// utime and stime of a process (all its threads), in clock ticks.
fn cpu_split(pid: u32) -> Result<(u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map_err(|e| format!("/proc/{pid}/stat: {e} (did the server exit?)"))?;
    // The command name may hold spaces: fields are counted after its ')'.
    let rest = &stat[stat.rfind(')').ok_or("bad /proc stat")? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After ')': state is field 3 of stat(5), so utime (14) and stime (15)
    // are at 11 and 12 here.
    let utime: u64 = fields
        .get(11)
        .and_then(|v| v.parse().ok())
        .ok_or("bad utime")?;
    let stime: u64 = fields
        .get(12)
        .and_then(|v| v.parse().ok())
        .ok_or("bad stime")?;
    Ok((utime, stime))
}

/// Clock ticks per second (`getconf CLK_TCK`).
fn clock_ticks() -> Result<f64> {
    let out = process::output("getconf", Command::new("getconf").arg("CLK_TCK"))?;
    out.trim()
        .parse()
        .map_err(|_| format!("getconf CLK_TCK printed {out:?}"))
}

fn report(
    names: &[&'static str],
    samples: &BTreeMap<(usize, &'static str), Vec<Sample>>,
    rounds: usize,
    duration: u32,
    command: &str,
    (server_cpu, wrk_cpu): (usize, usize),
    guard_note: &str,
) -> String {
    let med = |si: usize, name: &str, f: fn(&Sample) -> f64| {
        samples
            .get(&(si, name))
            .and_then(|v| figures::median(&v.iter().map(f).collect::<Vec<_>>()))
    };
    let mut s = format!(
        "Measured {} on {}, http-net {}.\n\nCommand: `{command}`; each server pinned to CPU {server_cpu}, `wrk -t1` pinned to CPU {wrk_cpu}, {duration} s per run, servers in an order that rotates each round, {rounds} round(s), medians. CPU per request: the server's utime + stime from /proc/PID/stat over the run, divided by the requests wrk counted, and the user-space part of it (utime; the rest is the kernel's: the system calls and the loopback TCP work charged to the server). Requests per CPU-second is its inverse.\n\n",
        process::now_utc(),
        process::machine(),
        process::describe_commit(&process::root()),
    );
    s.push_str(guard_note);
    s.push_str("\n\n");
    s.push_str("| H6 scenario | server | req/s | vs http-net | server CPU µs / request | of which user space | req per server CPU-s | server core use |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (si, sc) in SCENARIOS.iter().enumerate() {
        let ours = med(si, "http-net", |x| x.requests_per_s);
        for n in names {
            let rps = med(si, n, |x| x.requests_per_s);
            let cpu = med(si, n, |x| x.cpu_s_per_request);
            let user = med(si, n, |x| x.user_s_per_request);
            let share = med(si, n, |x| x.cpu_share);
            let vs = match (ours, rps) {
                (Some(o), Some(r)) => format!("{:.2}x", r / o),
                _ => "—".into(),
            };
            s.push_str(&format!(
                "| {} | {n} | {} | {vs} | {} | {} | {} | {} |\n",
                sc.name,
                rps.map(|v| format!("{v:.0}")).unwrap_or_else(|| "—".into()),
                cpu.map(|v| format!("{:.2}", v * 1e6))
                    .unwrap_or_else(|| "—".into()),
                user.map(|v| format!("{:.2}", v * 1e6))
                    .unwrap_or_else(|| "—".into()),
                cpu.map(|v| format!("{:.0}", 1.0 / v))
                    .unwrap_or_else(|| "—".into()),
                share
                    .map(|v| format!("{:.0}%", v * 100.0))
                    .unwrap_or_else(|| "—".into()),
            ));
        }
    }
    s.push('\n');
    s.push_str(&crate::report::goal_table(&goal_rows(&med)));
    s
}

/// The median of one field of one server's samples in one scenario:
/// `med(scenario, server, field)`.
type Median<'a> = dyn Fn(usize, &str, fn(&Sample) -> f64) -> Option<f64> + 'a;

/// The H6 goal rows from the medians.
fn goal_rows(med: &Median<'_>) -> Vec<GoalRow> {
    let cpu = |x: &Sample| x.cpu_s_per_request;
    let rps = |x: &Sample| x.requests_per_s;
    let row =
        |(id, target): (&str, &str), measured: String, status: String, gate: String| GoalRow {
            id: id.into(),
            target: target.into(),
            measured,
            status,
            gate,
        };
    let missing = |g: (&str, &str)| row(g, "not measured".into(), "—".into(), "—".into());
    let mut rows = Vec::new();
    // Pipelined: requests per server CPU-second against may_minihttp's.
    for (g, ours) in [(GOALS[0], "http-net-tokio"), (GOALS[1], "http-net")] {
        rows.push(match (med(0, ours, cpu), med(0, "may_minihttp", cpu)) {
            (Some(o), Some(m)) => {
                let r = m / o;
                row(
                    g,
                    format!(
                        "{:.0} vs {:.0} ({r:.2}x); {:.2} vs {:.2} µs CPU a request",
                        1.0 / o,
                        1.0 / m,
                        o * 1e6,
                        m * 1e6
                    ),
                    if r > 1.0 {
                        "met".into()
                    } else {
                        format!(
                            "not met (needs {:.0}% less CPU per request)",
                            (1.0 - r) * 100.0
                        )
                    },
                    if ours != "http-net-tokio" {
                        "—".into()
                    } else if o <= m {
                        "CPU a request at most may_minihttp's: passed".into()
                    } else {
                        "CPU a request at most may_minihttp's: not passed".into()
                    },
                )
            }
            _ => missing(g),
        });
    }
    // Requests a second against hyper's, with the CPU per request beside.
    for (g, si, ours, target) in [
        (GOALS[2], 1, "http-net-tokio", Some(1.2)),
        (GOALS[3], 2, "http-net-tokio", Some(1.0)),
        (GOALS[4], 1, "http-net", None),
        (GOALS[5], 2, "http-net", None),
    ] {
        let (Some(o), Some(h)) = (med(si, ours, rps), med(si, "hyper", rps)) else {
            rows.push(missing(g));
            continue;
        };
        let (oc, hc) = (med(si, ours, cpu), med(si, "hyper", cpu));
        let r = o / h;
        let mut measured = format!("{o:.0} vs {h:.0} req/s ({r:.2}x)");
        if let (Some(oc), Some(hc)) = (oc, hc) {
            measured.push_str(&format!(
                "; {:.2} vs {:.2} µs CPU a request",
                oc * 1e6,
                hc * 1e6
            ));
        }
        let status = match target {
            Some(t) if r >= t => "met".to_string(),
            Some(t) => format!("not met (needs {:.0}% more req/s)", (t / r - 1.0) * 100.0),
            None => "reported".to_string(),
        };
        // Issue 26: at 16 connections, the tokio server's CPU per request
        // at most hyper's divided by 1.15.
        let gate = match (si, ours, oc, hc) {
            (1, "http-net-tokio", Some(oc), Some(hc)) => format!(
                "CPU a request at most hyper's / 1.15 ({:.2} µs): {}",
                hc / 1.15 * 1e6,
                if oc <= hc / 1.15 {
                    "passed"
                } else {
                    "not passed"
                }
            ),
            _ => "—".into(),
        };
        rows.push(row(g, measured, status, gate));
    }
    // The same axum router on http-net-tower and on hyper, 16 connections.
    rows.push(
        match (med(1, "axum-http-net", rps), med(1, "axum-hyper", rps)) {
            (Some(o), Some(h)) => {
                let r = o / h;
                let mut measured = format!("{o:.0} vs {h:.0} req/s ({r:.2}x) at 16 connections");
                if let (Some(oc), Some(hc)) =
                    (med(1, "axum-http-net", cpu), med(1, "axum-hyper", cpu))
                {
                    measured.push_str(&format!(
                        "; {:.2} vs {:.2} µs CPU a request",
                        oc * 1e6,
                        hc * 1e6
                    ));
                }
                let status = if r >= 1.0 {
                    "met".to_string()
                } else {
                    format!("not met (needs {:.0}% more req/s)", (1.0 / r - 1.0) * 100.0)
                };
                row(GOALS[6], measured, status, "—".into())
            }
            _ => row(
                GOALS[6],
                "not measured: `compare sockets` ran no axum server".into(),
                "—".into(),
                "—".into(),
            ),
        },
    );
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_states_the_load_guard_and_the_load_after() {
        let loaded = guard::Verdict {
            settled_s: 60,
            load_before: Some(3.2),
            other_cores: Some(0.4),
            run_s: 30.0,
        };
        let r = report(
            &["http-net"],
            &BTreeMap::new(),
            1,
            1,
            "c",
            (0, 1),
            &guard_note(&loaded, Some(4.5)),
        );
        assert!(r.contains("load average 3.20 before the run"), "{r}");
        assert!(r.contains("UNGUARDED run"), "{r}");
        assert!(r.contains("Load average after the run: 4.50."), "{r}");
        // A loaded run may not be written.
        assert!(guard::may_write(&loaded, false).is_err());
        let quiet = guard::Verdict {
            load_before: Some(0.1),
            other_cores: Some(0.01),
            ..loaded
        };
        let r = report(
            &["http-net"],
            &BTreeMap::new(),
            1,
            1,
            "c",
            (0, 1),
            &guard_note(&quiet, None),
        );
        assert!(r.contains("Guarded run."), "{r}");
        assert!(r.contains("after the run: unknown"), "{r}");
    }

    #[test]
    fn the_h6_goals_and_gates_read_the_medians() {
        let sample = |rps: f64, cpu_us: f64| Sample {
            requests_per_s: rps,
            cpu_s_per_request: cpu_us / 1e6,
            user_s_per_request: cpu_us / 4e6,
            cpu_share: 0.9,
        };
        let mut samples: BTreeMap<(usize, &'static str), Vec<Sample>> = BTreeMap::new();
        for (si, name, rps, cpu) in [
            (0, "http-net-tokio", 1_500_000.0, 0.5),
            (0, "may_minihttp", 1_400_000.0, 0.45),
            (1, "http-net-tokio", 176_000.0, 5.0),
            (1, "hyper", 160_000.0, 6.0),
            (2, "http-net-tokio", 9_000.0, 20.0),
            (2, "hyper", 8_500.0, 21.0),
        ] {
            samples
                .entry((si, name))
                .or_default()
                .push(sample(rps, cpu));
        }
        let r = report(
            &["http-net-tokio", "hyper", "may_minihttp"],
            &samples,
            1,
            1,
            "c",
            (0, 1),
            "guard",
        );
        let rows = crate::report::parse_goal_rows(&r);
        let by = |id: &str| rows.iter().find(|g| g.id == id).unwrap().clone();
        // More CPU a request than may_minihttp: not met, gate not passed.
        let p = by("H6 pipelined, http-net-tokio");
        assert!(p.status.starts_with("not met"), "{p:?}");
        assert!(p.gate.ends_with("not passed"), "{p:?}");
        // 176k against 160k is 1.10x: under 1.2x; 5.0 µs is under 6.0 / 1.15.
        let c16 = by("H6 16 connections, http-net-tokio");
        assert!(
            c16.measured.starts_with("176000 vs 160000 req/s (1.10x)"),
            "{c16:?}"
        );
        assert!(
            c16.status.starts_with("not met (needs 9% more req/s)"),
            "{c16:?}"
        );
        assert!(c16.gate.ends_with(": passed"), "{c16:?}");
        assert_eq!(by("H6 1 connection, http-net-tokio").status, "met");
        // The user-space part beside the whole (a quarter, in these samples).
        assert!(
            r.contains("| 16 connections | http-net-tokio | 176000 | — | 5.00 | 1.25 |"),
            "{r}"
        );
        assert_eq!(by("H6 16 connections, http-net").measured, "not measured");
        assert!(by("H6 axum").measured.starts_with("not measured"));
        // With both axum servers: their ratio at 16 connections.
        for (name, rps) in [("axum-http-net", 150_000.0), ("axum-hyper", 120_000.0)] {
            samples.entry((1, name)).or_default().push(sample(rps, 7.0));
        }
        let r = report(
            &["axum-http-net", "axum-hyper"],
            &samples,
            1,
            1,
            "c",
            (0, 1),
            "guard",
        );
        let rows = crate::report::parse_goal_rows(&r);
        let axum = rows.iter().find(|g| g.id == "H6 axum").unwrap();
        assert!(
            axum.measured
                .starts_with("150000 vs 120000 req/s (1.25x) at 16 connections"),
            "{axum:?}"
        );
        assert_eq!(axum.status, "met");
        // Every H6 goal has its row, at its target.
        for (id, target) in GOALS {
            assert_eq!(by(id).target, target);
        }
    }

    #[test]
    fn reads_wrk_summary() {
        let text = "Running 10s test @ http://127.0.0.1:1/plaintext\n  1 threads and 16 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency   100.00us   10.00us   1.00ms   90.00%\n  1234567 requests in 10.00s, 150.00MB read\nRequests/sec: 123456.70\nTransfer/sec:     15.00MB\n";
        let w = parse_wrk(text).unwrap();
        assert_eq!(w.requests, 1_234_567);
        assert!((w.seconds - 10.0).abs() < 1e-9);
        assert!((w.requests_per_s - 123_456.7).abs() < 1e-6);
        assert_eq!(w.non_2xx, None);
    }
}
