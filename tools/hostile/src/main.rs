//! `cargo xtask hostile [OPTIONS] [-- SERVER COMMAND...]`: the resource
//! exhaustion suite, out of process.
//!
//! It starts the server command given (by default the release builds of the
//! `hello` and `echo` examples, one after the other), reads the port from
//! the `listening on http://ADDR` line it prints (the address must be a
//! loopback one: pass `--addr 127.0.0.1:0`), and runs one scenario at a time
//! against it (see [`scenario::Scenario`]): idle flood, reconnecting
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
//! [`scenario::Scenario::TLS`]): `tls-silent` (open TCP, send nothing),
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
mod options;
mod report;
mod scenario;
mod target;
mod tls;

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use tool_support::process::{self, Result};

use options::{parse, Options, CI_MAX_CONNECTIONS};
use report::{describe, judge, mb, settled, short_name, table, Row};
use scenario::Scenario;
use target::{Target, Usage};

/// `cargo xtask hostile ARGS` runs this binary with ARGS; its errors print
/// as xtask's did.
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the suite (see the module doc).
fn run(args: &[String]) -> Result {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_scenarios_come_from_other_loopback_addresses() {
        let local: std::net::SocketAddr = "127.0.0.1:9".parse().unwrap();
        let flood = sources_for(Scenario::TlsHelloFlood, local);
        assert_eq!(flood, [std::net::IpAddr::from([127, 0, 0, 2])]);
        let silent = sources_for(Scenario::TlsSilent, local);
        assert_eq!(silent.len(), 64);
        assert!(!silent.contains(&local.ip()));
        assert!(sources_for(Scenario::Slowloris, local).is_empty());
    }
}
