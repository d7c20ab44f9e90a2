//! `cargo xtask hostile [OPTIONS] [-- SERVER COMMAND...]`: the resource
//! exhaustion suite, out of process.
//!
//! It starts the server command given (by default the release builds of the
//! `hello` and `echo` examples, one after the other), reads the port from
//! the `listening on http://ADDR` line it prints (the address must be a
//! loopback one: pass `--addr 127.0.0.1:0`), and runs one scenario at a time
//! against it (see [`attack::Scenario`]): idle flood, reconnecting
//! slowloris, slow body, non-reading pipeliner, connection burst beyond the
//! cap, resets mid-head/body/response. During each, a well-behaved client
//! ([`client`]) makes one request every 100 ms on a new connection, timed
//! from connect to last byte; the suite reports its success rate and
//! latency percentiles, and the server's RSS, threads and descriptors (from
//! `/proc/<pid>/status` and `/proc/<pid>/fd`) at their peak during the
//! scenario and after it (once its descriptors are back to the figure
//! before the attack and its threads at most the idle keep above it, or
//! after the settle time). It exits non-zero when a well-behaved request
//! fails, when a descriptor is left after the settle, when more threads
//! than the idle keep are left (threads after the settle minus threads
//! before the attack, over `--idle-threads`), and, with `--max-p99-ms` or
//! `--max-rss-mb`, when the p99 latency or the peak RSS reaches that bound.
//!
//! Options: `--connections N` hostile sockets per scenario (default 2,000),
//! `--seconds S` per scenario (default 30), `--only a,b` (scenario names),
//! `--settle S` (default 5), `--idle-threads N` (default 64: the std
//! server's `ServerBuilder::max_idle_threads` default; an async server
//! keeps none beyond its runtime's, so it passes too), `--ci`: the reduced form (200 sockets, 4 s a
//! scenario, 3 s settle, and `--max-connections 64` appended to the server
//! command, which `hello` and `echo` take), `--open-rate N` new hostile
//! connections a second at most (default 1,000), `--source IP` the hostile
//! sockets' source address (default: the system's; in the TLS form
//! against 127.0.0.1, 127.0.0.2 for the hello flood and 127.0.1.1 to
//! 127.0.1.64 in turn for the others), `--server-arg ARG` (repeatable) appended to
//! every server command (`--server-arg --setup-rate-per-peer --server-arg
//! 0` lifts the TLS examples' setup rate per peer, to measure what each
//! handshake costs).
//!
//! `--tls`: the TLS form. With no command it builds (release) and runs the
//! TLS examples of `http-net-rustls`, `tls_server` (the std server) and
//! `tls_tokio` (the tokio server), with a certificate for `localhost` and
//! `127.0.0.1` made for the run; the well-behaved client then makes each
//! request over a new TLS connection (a full handshake, the certificate
//! checked), and the scenarios are the TLS ones (see
//! [`attack::Scenario::TLS`]): `tls-silent` (open TCP, send nothing),
//! `tls-partial-hello` (half of a real ClientHello, then nothing) and
//! `tls-hello-flood` (a whole ClientHello, a reset once the server
//! answers, a new connection at once: a key exchange each; the report
//! gives the server's CPU per answered handshake, from `/proc/<pid>/stat`,
//! and how many one core does a second). By default 1,100 sockets a
//! scenario, beyond the servers' default limit of 1,024 connections, so
//! that stalled handshakes must make way for the well-behaved client;
//! `--ci` gives 200 with `--max-connections 64`, about 30 s for both
//! servers (2 × 3 scenarios of 4 s, plus the settles) after the release
//! build of the two examples.
//!
//! The server is started with this process's open-file limit as it was;
//! then the suite raises its own soft limit (up to the hard one) for its
//! sockets. Every hostile socket is closed (with a reset) at the end of its
//! scenario, the client's requests are bounded to 5 s each, and the server
//! is stopped with SIGTERM (SIGKILL 10 s later), also when the suite fails.
//!
//! # Why beside `crates/http-net/tests/hostile.rs`, not instead of it
//!
//! The in-process tests pin one behaviour each, with short timeouts and
//! exact assertions on the attacked connection's outcome (a `408` for the
//! slowloris, a `503` over the limit, a body reader failing on a reset, a
//! non-reader dropped by the write timeout): they are fast, deterministic
//! and run in `cargo test`. This suite is their at-scale twin: the same
//! attacks with thousands of sockets, the server's default settings and
//! 30 s each, judged by what they cost everyone else (the well-behaved
//! client, the server's memory, threads and descriptors). That needs a
//! separate server process, so that the attacker's sockets, threads and
//! descriptors are not counted as the server's and both do not share one
//! descriptor limit, and an event loop (mio) instead of the tests' blocking
//! socket per thread. The two share no code: the tests' helpers are
//! blocking and in-process, and what this suite adds (the multiplexed
//! attacker, `/proc` sampling, the report) has no use in a unit test.

mod attack;
mod client;
mod target;
mod tls;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::process::{self, Result};
use attack::Scenario;
use target::{Target, Usage};

/// The connection limit `--ci` gives the server (`--max-connections`).
const CI_MAX_CONNECTIONS: usize = 64;

/// Hostile sockets per TLS scenario: beyond the servers' default
/// connection limit (1,024), so that stalled handshakes must be evicted
/// for the well-behaved client.
const TLS_CONNECTIONS: usize = 1100;

/// The idle connection threads the std server keeps after a burst: the
/// default of `ServerBuilder::max_idle_threads` in `http-net-std`.
const IDLE_THREADS: u64 = 64;

struct Options {
    connections: usize,
    seconds: Duration,
    settle: Duration,
    only: Vec<Scenario>,
    ci: bool,
    max_p99: Option<Duration>,
    max_rss_kib: Option<u64>,
    /// Threads the server may hold after the settle beyond those before.
    idle_threads: u64,
    /// The TLS form: TLS servers, the TLS scenarios, an HTTPS client.
    tls: bool,
    /// New hostile connections a second, at most.
    open_rate: u64,
    /// The hostile sockets' source address (`None`: see [`sources_for`]).
    source: Option<std::net::IpAddr>,
    /// Arguments appended to every server command (`--server-arg`).
    server_args: Vec<String>,
    command: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options {
        connections: 0,
        seconds: Duration::ZERO,
        settle: Duration::ZERO,
        only: Scenario::ALL.to_vec(),
        ci: false,
        max_p99: None,
        max_rss_kib: None,
        idle_threads: IDLE_THREADS,
        tls: false,
        open_rate: attack::OPEN_RATE,
        source: None,
        server_args: Vec::new(),
        command: Vec::new(),
    };
    let mut only = None;
    let (mut connections, mut seconds, mut settle) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| -> Result<u64> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or(format!("hostile: {name} takes a number"))
        };
        match a.as_str() {
            "--connections" => connections = Some(value("--connections")? as usize),
            "--seconds" => seconds = Some(Duration::from_secs(value("--seconds")?)),
            "--settle" => settle = Some(Duration::from_secs(value("--settle")?)),
            "--max-p99-ms" => o.max_p99 = Some(Duration::from_millis(value("--max-p99-ms")?)),
            "--max-rss-mb" => o.max_rss_kib = Some(value("--max-rss-mb")? * 1024),
            "--idle-threads" => o.idle_threads = value("--idle-threads")?,
            "--ci" => o.ci = true,
            "--tls" => o.tls = true,
            "--open-rate" => o.open_rate = value("--open-rate")?.max(1),
            "--server-arg" => {
                let a = it.next().ok_or("hostile: --server-arg takes an argument")?;
                o.server_args.push(a.clone());
            }
            "--source" => {
                let a = it.next().and_then(|v| v.parse().ok());
                o.source = Some(a.ok_or("hostile: --source takes an IP address")?);
            }
            "--only" => {
                let names = it.next().ok_or("hostile: --only takes scenario names")?;
                only = Some(names.clone());
                o.only = names
                    .split(',')
                    .map(|n| {
                        Scenario::parse(n.trim()).ok_or(format!(
                            "hostile: no scenario {n:?} (have: {})",
                            Scenario::ALL
                                .into_iter()
                                .chain(Scenario::TLS)
                                .map(Scenario::name)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })
                    .collect::<Result<_>>()?;
            }
            "--" => {
                o.command = it.by_ref().cloned().collect();
            }
            other => return Err(format!("hostile: unknown option {other:?}")),
        }
    }
    if o.tls && only.is_none() {
        o.only = Scenario::TLS.to_vec();
    }
    if let Some(s) = o.only.iter().find(|s| s.tls() != o.tls) {
        return Err(format!(
            "hostile: {} is {} scenario: {}",
            s.name(),
            if s.tls() { "a TLS" } else { "a plain-HTTP" },
            if s.tls() { "add --tls" } else { "drop --tls" }
        ));
    }
    let full = if o.tls { TLS_CONNECTIONS } else { 2000 };
    o.connections = connections.unwrap_or(if o.ci { 200 } else { full }).max(1);
    o.seconds = seconds.unwrap_or(Duration::from_secs(if o.ci { 4 } else { 30 }));
    o.settle = settle.unwrap_or(Duration::from_secs(if o.ci { 3 } else { 5 }));
    Ok(o)
}

/// One scenario's figures.
struct Row {
    server: String,
    scenario: Scenario,
    client: client::Results,
    /// Before the suite's first scenario against this server.
    before: Usage,
    peak: Usage,
    after: Usage,
    settled_in: Duration,
    tally: attack::Tally,
    /// CPU seconds used during the scenario: the server's and this suite's.
    cpu: (f64, f64),
}

/// Runs the suite (see the module doc).
pub fn main(args: &[String]) -> Result {
    let o = parse(args)?;
    // The TLS form's certificate, the client that trusts it, its hello.
    let tls_dir = std::env::temp_dir().join(format!("xtask-hostile-tls-{}", std::process::id()));
    let tls = if o.tls {
        let files = tls::Files::make(&tls_dir)?;
        let client = files.client(client::REQUEST_LIMIT)?;
        let hello = tls::client_hello(&client)?;
        Some((files, client, hello))
    } else {
        None
    };
    let mut commands = match (&tls, o.command.is_empty()) {
        (None, true) => examples()?,
        (Some((files, _, _)), true) => tls_examples(files)?,
        (_, false) => vec![o.command.clone()],
    };
    for c in &mut commands {
        if o.ci {
            c.push("--max-connections".into());
            c.push(CI_MAX_CONNECTIONS.to_string());
        }
        c.extend(o.server_args.iter().cloned());
    }
    let nofile = rustix::process::getrlimit(rustix::process::Resource::Nofile);
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for command in &commands {
        // The server gets the open-file limit this process was given.
        let _ = rustix::process::setrlimit(rustix::process::Resource::Nofile, nofile);
        let mut server = Target::start(command)?;
        let limit = target::raise_nofile(o.connections as u64 + 512);
        if limit < o.connections as u64 + 64 {
            return Err(format!(
                "hostile: the open-file limit is {limit}, too low for {} sockets (raise the hard limit)",
                o.connections
            ));
        }
        let name = server.command.clone();
        eprintln!(
            "==> hostile: {name} (pid {}, {}), {} sockets, {:?} per scenario",
            server.pid(),
            server.addr,
            o.connections,
            o.seconds
        );
        thread::sleep(Duration::from_millis(300));
        let baseline = server.usage();
        eprintln!(
            "    before: RSS {:.1} MB, {} threads, {} fds",
            mb(baseline.rss_kib),
            baseline.threads,
            baseline.fds
        );
        for &scenario in &o.only {
            let (client_tls, hello) = match &tls {
                Some((_, c, h)) => (Some(c.clone()), &h[..]),
                None => (None, &[][..]),
            };
            let row = run_one(
                &mut server,
                &name,
                scenario,
                &o,
                baseline,
                client_tls,
                hello,
            )?;
            eprintln!("{}", describe(&row));
            problems.extend(judge(&row, &o));
            rows.push(row);
        }
        let (status, took) = server.stop(Duration::from_secs(10));
        eprintln!(
            "    stopped with SIGTERM: {} after {:.1} s",
            status.map_or("killed".to_string(), |s| s.to_string()),
            took.as_secs_f64()
        );
    }
    println!("{}", table(&rows));
    let _ = std::fs::remove_dir_all(&tls_dir);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "hostile: {} problem(s):\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

/// Builds the `hello` and `echo` examples (release) and returns their
/// command lines.
fn examples() -> Result<Vec<Vec<String>>> {
    let built = process::cargo_executables(
        "build the examples",
        process::cargo(&[
            "build",
            "--release",
            "-p",
            "http-net",
            "--example",
            "hello",
            "--example",
            "echo",
        ])
        .current_dir(process::root()),
    )?;
    let path = |name: &str| -> Result<String> {
        built
            .iter()
            .find(|a| a.name == name && a.kind == "example")
            .map(|a| a.executable.display().to_string())
            .ok_or(format!("hostile: cargo built no example {name}"))
    };
    let addr = ["--addr".to_string(), "127.0.0.1:0".to_string()];
    let mut hello = vec![path("hello")?];
    hello.extend(addr.clone());
    let mut echo = vec![path("echo")?, "--format".into(), "probe".into()];
    echo.extend(addr);
    Ok(vec![hello, echo])
}

/// Builds the TLS examples of `http-net-rustls` (release): `tls_server`
/// (the std server) and `tls_tokio` (the tokio server), and returns their
/// command lines with the certificate in `files`.
fn tls_examples(files: &tls::Files) -> Result<Vec<Vec<String>>> {
    let built = process::cargo_executables(
        "build the TLS examples",
        process::cargo(&[
            "build",
            "--release",
            "-p",
            "http-net-rustls",
            "--features",
            "tokio",
            "--example",
            "tls_server",
            "--example",
            "tls_tokio",
        ])
        .current_dir(process::root()),
    )?;
    let mut commands = Vec::new();
    for name in ["tls_server", "tls_tokio"] {
        let exe = built
            .iter()
            .find(|a| a.name == name && a.kind == "example")
            .map(|a| a.executable.display().to_string())
            .ok_or(format!("hostile: cargo built no example {name}"))?;
        commands.push(vec![
            exe,
            "--cert".into(),
            files.cert.display().to_string(),
            "--key".into(),
            files.key.display().to_string(),
            "--addr".into(),
            "127.0.0.1:0".into(),
        ]);
    }
    Ok(commands)
}

fn run_one(
    server: &mut Target,
    name: &str,
    scenario: Scenario,
    o: &Options,
    baseline: Usage,
    client_tls: Option<http_net_rustls::ClientTls>,
    hello: &[u8],
) -> Result<Row> {
    server.alive()?;
    // Sample the server's resources while the attack runs.
    let stop = Arc::new(AtomicBool::new(false));
    let peak = Arc::new(Mutex::new(Usage::default()));
    let sampler = {
        let (stop, peak, pid) = (Arc::clone(&stop), Arc::clone(&peak), server.pid());
        thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                let u = target::usage(pid);
                if let Ok(mut p) = peak.lock() {
                    *p = p.max(u);
                }
                thread::sleep(Duration::from_millis(250));
            }
        })
    };
    let cpu0 = (server.usage().cpu_ticks, target::cpu_ticks("self"));
    let client = client::spawn(server.addr, client_tls, Arc::clone(&stop));
    let means = attack::Means {
        open_rate: o.open_rate,
        sources: match o.source {
            Some(ip) => vec![ip],
            None => sources_for(scenario, server.addr),
        },
        hello: hello.to_vec(),
    };
    let tally = attack::run(server.addr, scenario, o.connections, o.seconds, &means);
    stop.store(true, Ordering::SeqCst);
    let client = client.join().map_err(|_| "hostile: the client panicked")?;
    let _ = sampler.join();
    let cpu = (
        server.usage().cpu_ticks.saturating_sub(cpu0.0) as f64 / target::TICKS_PER_SECOND,
        target::cpu_ticks("self").saturating_sub(cpu0.1) as f64 / target::TICKS_PER_SECOND,
    );
    let tally = tally.map_err(|e| format!("hostile: {}: {e}", scenario.name()))?;
    let peak = peak.lock().map(|p| *p).unwrap_or_default();
    // Settle: until the descriptors are back to the figure before the
    // attack and the threads within the idle keep, or the settle time is up.
    let t0 = Instant::now();
    let after = loop {
        let u = server.usage();
        if settled(baseline, u, o.idle_threads) || t0.elapsed() >= o.settle {
            break u;
        }
        thread::sleep(Duration::from_millis(100));
    };
    server.alive()?;
    Ok(Row {
        server: short_name(name),
        scenario,
        client,
        before: baseline,
        peak,
        after,
        settled_in: t0.elapsed(),
        tally,
        cpu,
    })
}

/// The hostile sockets' sources when none is asked for: against
/// 127.0.0.1, the TLS scenarios come from other loopback addresses than
/// the well-behaved client (which a per-peer policy, such as the setup
/// rate per peer, tells apart as it would two hosts): the hello flood from
/// one, 127.0.0.2 (the per-peer bound's case), the sockets that hold slots
/// from 64 in turn, 127.0.1.1 to 127.0.1.64 (as a slot-exhaustion attack
/// comes, from many addresses, each within its setup rate); the plain
/// scenarios from the system's choice.
fn sources_for(scenario: Scenario, target: std::net::SocketAddr) -> Vec<std::net::IpAddr> {
    if !scenario.tls() || target.ip() != std::net::IpAddr::from([127, 0, 0, 1]) {
        return Vec::new();
    }
    if scenario == Scenario::TlsHelloFlood {
        return vec![[127, 0, 0, 2].into()];
    }
    (1..=64u8).map(|i| [127, 0, 1, i].into()).collect()
}

/// Whether `after` is back to `before`: no descriptor left, and at most
/// `idle_threads` threads more.
fn settled(before: Usage, after: Usage, idle_threads: u64) -> bool {
    after.fds <= before.fds && after.threads <= before.threads + idle_threads
}

/// Failures of one row.
fn judge(row: &Row, o: &Options) -> Vec<String> {
    let mut p = Vec::new();
    if row.after.fds > row.before.fds {
        p.push(format!(
            "{} / {}: {} descriptors after the settle, {} before the attack",
            row.server,
            row.scenario.name(),
            row.after.fds,
            row.before.fds
        ));
    }
    if row.after.threads > row.before.threads + o.idle_threads {
        p.push(format!(
            "{} / {}: {} threads after the settle, over {} before the attack plus the idle keep of {}",
            row.server,
            row.scenario.name(),
            row.after.threads,
            row.before.threads,
            o.idle_threads
        ));
    }
    let (ok, total) = (row.client.ok(), row.client.total());
    if total == 0 || ok < total {
        p.push(format!(
            "{} / {}: {ok} of {total} well-behaved requests succeeded ({})",
            row.server,
            row.scenario.name(),
            row.client.failures()
        ));
    }
    let p99 = row.client.quantile(0.99);
    if let Some(max) = o.max_p99 {
        if p99 >= max {
            p.push(format!(
                "{} / {}: p99 {} ≥ {}",
                row.server,
                row.scenario.name(),
                ms(p99),
                ms(max)
            ));
        }
    }
    if let Some(max) = o.max_rss_kib {
        if row.peak.rss_kib >= max {
            p.push(format!(
                "{} / {}: RSS {:.1} MB ≥ {:.0} MB",
                row.server,
                row.scenario.name(),
                mb(row.peak.rss_kib),
                mb(max)
            ));
        }
    }
    p
}

/// The server's CPU per handshake it answered, in ms, and how many one
/// core does a second at that cost (`None` when none was answered).
fn per_handshake(r: &Row) -> Option<(f64, f64)> {
    let n = r.tally.handshakes_answered;
    (n > 0 && r.cpu.0 > 0.0).then(|| {
        let each = r.cpu.0 / n as f64;
        (each * 1000.0, 1.0 / each)
    })
}

fn describe(r: &Row) -> String {
    let c = &r.client;
    let handshakes = per_handshake(r).map_or(String::new(), |(ms, per_core)| {
        format!(
            "\n             server CPU per answered handshake {ms:.3} ms: {per_core:.0} a second on one core (all the server's CPU in the scenario over the handshakes it answered; with the setup rate per peer on, the refused connections' cost is in it)"
        )
    });
    format!(
        "  {:<10} well-behaved {}/{} ({:.1}%), p50 {} p99 {} max {}{}\n             server peak RSS {:.1} MB, {} threads, {} fds; after ({:.1} s) {:.1} MB, {} threads, {} fds; CPU server {:.1} s, suite {:.1} s\n             hostile: {}{}",
        r.scenario.name(),
        c.ok(),
        c.total(),
        percent(c.ok(), c.total()),
        ms(c.quantile(0.5)),
        ms(c.quantile(0.99)),
        ms(c.quantile(1.0)),
        if c.ok() < c.total() {
            format!("; failed: {}", c.failures())
        } else {
            String::new()
        },
        mb(r.peak.rss_kib),
        r.peak.threads,
        r.peak.fds,
        r.settled_in.as_secs_f64(),
        mb(r.after.rss_kib),
        r.after.threads,
        r.after.fds,
        r.cpu.0,
        r.cpu.1,
        r.tally.line(),
        handshakes
    )
}

/// The figures as a Markdown table (for `docs/SECURITY.md`).
fn table(rows: &[Row]) -> String {
    let mut t = String::from(
        "| server | scenario | well-behaved ok | p50 | p99 | max | RSS peak / after | threads peak / after | fds peak / after | hostile: first answers; closed unanswered |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let c = &r.client;
        let mut answers = r
            .tally
            .statuses
            .iter()
            .map(|(s, n)| format!("{s}×{n}"))
            .collect::<Vec<_>>();
        if r.tally.handshakes_answered > 0 {
            answers.push(format!("handshakes×{}", r.tally.handshakes_answered));
        }
        let answers = answers.join(" ");
        t.push_str(&format!(
            "| {} | {} | {}/{} ({:.1}%) | {} | {} | {} | {:.1} / {:.1} MB | {} / {} | {} / {} | {}; {} |\n",
            r.server,
            r.scenario.name(),
            c.ok(),
            c.total(),
            percent(c.ok(), c.total()),
            ms(c.quantile(0.5)),
            ms(c.quantile(0.99)),
            ms(c.quantile(1.0)),
            mb(r.peak.rss_kib),
            mb(r.after.rss_kib),
            r.peak.threads,
            r.after.threads,
            r.peak.fds,
            r.after.fds,
            if answers.is_empty() { "none".into() } else { answers },
            r.tally.closed_unanswered + r.tally.reset_unanswered,
        ));
    }
    t
}

/// The program's file name and its arguments (no directories, and
/// neither the address nor the TLS example's certificate and key files).
fn short_name(command: &str) -> String {
    let mut words = command.split(' ');
    let program = words.next().unwrap_or("");
    let program = program.rsplit('/').next().unwrap_or(program);
    let mut rest: Vec<&str> = Vec::new();
    while let Some(w) = words.next() {
        if matches!(w, "--addr" | "--cert" | "--key") {
            words.next();
        } else {
            rest.push(w);
        }
    }
    if rest.is_empty() {
        program.to_string()
    } else {
        format!("{program} {}", rest.join(" "))
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn mb(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn percent(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 * 100.0 / b as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_and_their_defaults() {
        let o = parse(&args("")).unwrap();
        assert_eq!(o.connections, 2000);
        assert_eq!(o.seconds, Duration::from_secs(30));
        assert_eq!(o.only.len(), Scenario::ALL.len());
        let o = parse(&args(
            "--ci --only slowloris,burst -- srv --addr 127.0.0.1:0",
        ))
        .unwrap();
        assert!(o.ci);
        assert_eq!(o.connections, 200);
        assert_eq!(o.only, [Scenario::Slowloris, Scenario::Burst]);
        assert_eq!(o.command, args("srv --addr 127.0.0.1:0"));
        let o = parse(&args("--ci --connections 50 --seconds 2")).unwrap();
        assert_eq!((o.connections, o.seconds), (50, Duration::from_secs(2)));
        let o = parse(&args("--tls")).unwrap();
        assert_eq!(o.connections, 1100);
        assert_eq!(o.only, Scenario::TLS);
        let o = parse(&args("--tls --ci --only tls-hello-flood")).unwrap();
        assert_eq!(o.connections, 200);
        assert_eq!(o.only, [Scenario::TlsHelloFlood]);
        assert!(parse(&args("--tls --only slowloris")).is_err());
        let o = parse(&args(
            "--tls --open-rate 5000 --source 127.0.0.3 --server-arg --setup-rate-per-peer --server-arg 0",
        ))
        .unwrap();
        assert_eq!(o.server_args, args("--setup-rate-per-peer 0"));
        assert_eq!(o.open_rate, 5000);
        assert_eq!(o.source, Some([127, 0, 0, 3].into()));
        let local: std::net::SocketAddr = "127.0.0.1:9".parse().unwrap();
        let flood = sources_for(Scenario::TlsHelloFlood, local);
        assert_eq!(flood, [std::net::IpAddr::from([127, 0, 0, 2])]);
        let silent = sources_for(Scenario::TlsSilent, local);
        assert_eq!(silent.len(), 64);
        assert!(!silent.contains(&local.ip()));
        assert!(sources_for(Scenario::Slowloris, local).is_empty());
        assert!(parse(&args("--only tls-silent")).is_err());
        assert!(parse(&args("--only nope")).is_err());
        assert!(parse(&args("--connections")).is_err());
        assert!(parse(&args("--bogus")).is_err());
    }

    #[test]
    fn threads_and_descriptors_after_the_settle_are_judged() {
        let before = Usage {
            rss_kib: 1000,
            threads: 3,
            fds: 9,
            cpu_ticks: 0,
        };
        let mut client = client::Results::default();
        client.outcomes.insert(client::Outcome::Ok, 10);
        client.latencies = vec![Duration::from_millis(1); 10];
        let row = |after: Usage| Row {
            server: "hello".into(),
            scenario: Scenario::Pipeliner,
            client: client.clone(),
            before,
            peak: after,
            after,
            settled_in: Duration::ZERO,
            tally: attack::Tally::default(),
            cpu: (0.0, 0.0),
        };
        let o = parse(&args("")).unwrap();
        assert_eq!(o.idle_threads, 64);
        let kept = Usage {
            threads: 3 + 64,
            ..before
        };
        assert!(settled(before, kept, o.idle_threads));
        assert!(judge(&row(kept), &o).is_empty());
        let one_more = Usage {
            threads: 3 + 65,
            ..before
        };
        assert!(!settled(before, one_more, o.idle_threads));
        let p = judge(&row(one_more), &o);
        assert!(p.len() == 1 && p[0].contains("68 threads"), "{p:?}");
        let fd_left = Usage { fds: 10, ..before };
        assert!(!settled(before, fd_left, o.idle_threads));
        assert!(judge(&row(fd_left), &o)[0].contains("10 descriptors"));
        let o = parse(&args("--idle-threads 0")).unwrap();
        assert_eq!(judge(&row(kept), &o).len(), 1);
    }

    #[test]
    fn short_names_drop_directories_and_the_address() {
        assert_eq!(
            short_name("/t/release/examples/echo --format probe --addr 127.0.0.1:0"),
            "echo --format probe"
        );
        assert_eq!(
            short_name("/t/release/examples/hello --addr 127.0.0.1:0"),
            "hello"
        );
        assert_eq!(
            short_name("/t/tls_tokio --cert /tmp/c.pem --key /tmp/k.pem --addr 127.0.0.1:0 --max-connections 64"),
            "tls_tokio --max-connections 64"
        );
    }
}
