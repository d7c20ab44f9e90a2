//! `cargo xtask proxies`: request smuggling behind real proxies.
//!
//! For each proxy (nginx, HAProxy, Apache httpd, Varnish) a chain runs on
//! 127.0.0.1 ephemeral ports: the origin (`echo --format garden` unless
//! `--origin CMD` names another), a
//! recording relay in front of it (it keeps, per upstream connection, the
//! bytes the proxy sent and what the origin answered), and the proxy with
//! HTTP/1.1 keep-alive and connection reuse toward the relay. A positive
//! control runs the same way with a deliberately naive relay as the proxy
//! (it frames by `Content-Length` only, over one shared upstream
//! connection).
//!
//! Each payload of the corpus goes on a fresh attacker connection; then a
//! victim sends `GET /canary-N` on a second connection, which the proxy may
//! route over the same upstream connection; then every upstream connection
//! is closed. A **desync** is any of: the victim's answer is not the echo of
//! its own request; the origin parsed a request the proxy did not send as
//! one (an echo that differs from the request the relay saw, or an echo of
//! bytes that are no whole request); more answers than requests on a
//! connection. The run fails on any desync behind a real proxy, when the
//! naive relay shows none (the suite would be blind), or when a payload
//! written to be benign desyncs anywhere (the check would be wrong).
//!
//! `--reduced` (what `.ci/run` runs, once per server): nginx and HAProxy,
//! the whole corpus.
//!
//! `--origin CMD` runs the corpus against any origin that serves the
//! garden contract (the HTTP Garden's JSON echo of each parsed request, as
//! `echo --format garden` documents it): `CMD` is split on whitespace, run
//! once per chain with `--addr 127.0.0.1:0` (and `--origin-args`) added, and
//! must print `listening on http://ADDR` as its first line. A first word
//! `echo` or `echo_tokio` (no path) is this workspace's example, built
//! first (`--release` builds it optimised): `--origin "echo_tokio --format
//! garden --front-line"` runs the tokio server with the front-line profile.

mod corpus;
mod relay;
#[cfg(all(test, unix))]
mod same_answers;
mod servers;
mod wire;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::args::Args;
use crate::process::{self, Result};
use corpus::Payload;
use relay::{NaiveRelay, Record, Relay};
use servers::{Origin, Proxy};
use wire::{Echo, Read as Parsed};

/// The fewest payloads the corpus may have.
const MIN_PAYLOADS: usize = 150;

/// What sits in front of the origin in one chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Front {
    Real(Proxy),
    Naive,
}

impl Front {
    fn name(self) -> &'static str {
        match self {
            Front::Real(p) => p.name(),
            Front::Naive => "naive relay (control)",
        }
    }
}

/// What one payload did behind one front.
#[derive(Debug, Default)]
struct Outcome {
    /// Whether any attacker byte reached the origin.
    passed_on: bool,
    /// Whether the victim's request went over an upstream connection that
    /// also carried attacker bytes (the case a desync needs).
    shared: bool,
    /// The final statuses the attacker connection got.
    front_statuses: Vec<u16>,
    /// How the origin answered the attacker's upstream requests.
    origin_answers: Vec<String>,
    /// Each desync, described.
    desyncs: Vec<String>,
    /// How long the payload took.
    took: Duration,
}

/// One chain's results.
struct ChainReport {
    front: Front,
    version: String,
    outcomes: Vec<Outcome>,
    elapsed: Duration,
}

/// Entry point.
pub fn main(args: &[String]) -> Result {
    let a = Args::parse(args, &["only", "filter", "origin", "origin-args", "report"])?;
    let reduced = a.flag("reduced");
    let mut corpus = corpus::all();
    if corpus.len() < MIN_PAYLOADS {
        return Err(format!(
            "the corpus has {} payloads, fewer than {MIN_PAYLOADS}",
            corpus.len()
        ));
    }
    if a.flag("list") {
        for p in &corpus {
            println!("{}\t{}", p.name, p.reason);
        }
        println!("{} payloads", corpus.len());
        return Ok(());
    }
    let filtered = a.options.contains_key("filter");
    if let Some(f) = a.options.get("filter") {
        corpus.retain(|p| p.name.contains(f.as_str()));
    }
    let wanted: Vec<Proxy> = match a.options.get("only") {
        Some(list) => list
            .split(',')
            .map(|n| Proxy::parse(n.trim()).ok_or(format!("--only: unknown proxy {n:?}")))
            .collect::<Result<_>>()?,
        None if reduced => vec![Proxy::Nginx, Proxy::Haproxy],
        None => Proxy::ALL.to_vec(),
    };
    let require = !reduced || std::env::var_os("HTTP_NET_REQUIRE_PEERS").is_some();
    let mut proxies = Vec::new();
    let mut missing = Vec::new();
    for p in wanted {
        match p.binary() {
            Some(bin) => proxies.push((p, bin)),
            None => missing.push(p),
        }
    }
    if !missing.is_empty() {
        let pkgs: Vec<&str> = missing.iter().map(|p| p.package()).collect();
        eprintln!(
            "xtask proxies: not installed: {}\n  install with: apt-get install -y {}",
            missing
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", "),
            pkgs.join(" ")
        );
        if require {
            return Err(format!(
                "missing proxies: apt-get install -y {}",
                pkgs.join(" ")
            ));
        }
    }
    let origin_cmd = a
        .options
        .get("origin")
        .cloned()
        .unwrap_or_else(|| DEFAULT_ORIGIN.to_string());
    let mut origin_args: Vec<String> = origin_cmd.split_whitespace().map(String::from).collect();
    if origin_args.is_empty() {
        return Err("--origin: an empty command".into());
    }
    let program = origin_args.remove(0);
    origin_args.extend(
        a.options
            .get("origin-args")
            .map(|s| s.split_whitespace().map(String::from).collect::<Vec<_>>())
            .unwrap_or_default(),
    );
    let echo = match program.as_str() {
        "echo" => build_example("http-net", "echo", a.flag("release"))?,
        "echo_tokio" => build_example("http-net-tokio", "echo_tokio", a.flag("release"))?,
        path => PathBuf::from(path),
    };
    // The origin as the report names it: the command with the program's
    // file name.
    let origin_label = std::iter::once(
        Path::new(&program)
            .file_name()
            .map_or(program.clone(), |n| n.to_string_lossy().into_owned()),
    )
    .chain(origin_args.iter().cloned())
    .collect::<Vec<_>>()
    .join(" ");
    eprintln!("==> proxies: origin `{origin_label}`");
    eprintln!(
        "==> proxies: {} payloads through {} and the naive relay",
        corpus.len(),
        proxies
            .iter()
            .map(|(p, _)| p.name())
            .collect::<Vec<_>>()
            .join(", ")
    );

    let started = Instant::now();
    // The naive relay waits on every request it cannot frame, so its
    // corpus is split over two chains of its own (same checks, half the wall
    // time); every real proxy runs the whole corpus in one chain.
    let half = corpus.len().div_ceil(2);
    let mut jobs: Vec<(Front, Option<PathBuf>, usize, usize)> = proxies
        .iter()
        .map(|(p, bin)| (Front::Real(*p), Some(bin.clone()), 0, corpus.len()))
        .collect();
    jobs.push((Front::Naive, None, 0, half));
    jobs.push((Front::Naive, None, half, corpus.len()));
    let parts: Vec<Result<ChainReport>> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .iter()
            .map(|(front, bin, from, to)| {
                let (echo, corpus, origin_args) = (&echo, &corpus, &origin_args);
                s.spawn(move || {
                    run_chain(
                        *front,
                        bin.as_deref(),
                        echo,
                        corpus,
                        *from..*to,
                        origin_args,
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("a chain panicked".into())))
            .collect()
    });
    let mut reports: Vec<ChainReport> = Vec::new();
    for part in parts {
        let part = part?;
        match reports.iter_mut().find(|r| r.front == part.front) {
            Some(r) => {
                r.outcomes.extend(part.outcomes);
                r.elapsed = r.elapsed.max(part.elapsed);
            }
            None => reports.push(part),
        }
    }
    let wall = started.elapsed();

    let mut command = if reduced {
        "cargo xtask proxies --reduced".to_string()
    } else {
        "cargo xtask proxies".to_string()
    };
    if a.options.contains_key("origin") {
        let _ = write!(command, " --origin \"{origin_cmd}\"");
    }
    let (summary, details) = report(&reports, &corpus, &command, wall, &origin_label);
    println!("{summary}");
    let path = a
        .options
        .get("report")
        .map(PathBuf::from)
        .unwrap_or_else(|| process::root().join("target/proxies-report.md"));
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    std::fs::write(&path, format!("{summary}\n{details}"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("==> proxies: per-payload report in {}", path.display());
    verdict(&reports, &corpus, filtered)
}

/// Fails on a desync behind a real proxy, a desync on a benign payload,
/// or a positive control that saw nothing.
fn verdict(reports: &[ChainReport], corpus: &[Payload], filtered: bool) -> Result {
    let mut problems = Vec::new();
    for r in reports {
        let n = r.outcomes.iter().filter(|o| !o.desyncs.is_empty()).count();
        for (o, p) in r.outcomes.iter().zip(corpus) {
            if p.benign && !o.desyncs.is_empty() {
                problems.push(format!(
                    "{}: benign payload {} desynced ({}): the check is broken",
                    r.front.name(),
                    p.name,
                    o.desyncs.join("; ")
                ));
            }
        }
        match r.front {
            Front::Real(_) if n > 0 => {
                problems.push(format!("{}: {n} desyncs (see the report)", r.front.name()))
            }
            Front::Naive if n == 0 && !filtered => problems
                .push("the naive relay showed no desync: the suite cannot see one".to_string()),
            _ => {}
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The origin when `--origin` is not given.
const DEFAULT_ORIGIN: &str = "echo --format garden";

/// Builds the example `name` of `package` and returns its path.
fn build_example(package: &str, name: &str, release: bool) -> Result<PathBuf> {
    let mut cmd = std::process::Command::new("cargo");
    cmd.current_dir(process::root())
        .args(["build", "-p", package, "--example", name]);
    if release {
        cmd.arg("--release");
    }
    let found = process::cargo_executables(&format!("build {name}"), &mut cmd)?;
    found
        .into_iter()
        .find(|a| a.name == name)
        .map(|a| a.executable)
        .ok_or_else(|| format!("cargo built no {name} example"))
}

/// A temporary directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run_chain(
    front: Front,
    bin: Option<&Path>,
    echo: &Path,
    corpus: &[Payload],
    range: std::ops::Range<usize>,
    origin_args: &[String],
) -> Result<ChainReport> {
    let tag = match front {
        Front::Real(p) => p.name().to_string(),
        Front::Naive => format!("naive-{}", range.start),
    };
    let dir = TempDir(process::temp_dir(&format!("proxies-{tag}"))?);
    // Declared in start order: dropped in reverse (front, relay, origin).
    let mut origin = Origin::start(echo, &dir.0, origin_args)?;
    let relay = Relay::start(origin.addr).map_err(|e| format!("relay: {e}"))?;
    let mut proc = None;
    let mut naive = None;
    let (addr, version) = match (front, bin) {
        (Front::Real(p), Some(bin)) => {
            let port = servers::free_port()?;
            proc = Some(p.start(bin, &dir.0, port, relay.addr())?);
            (SocketAddr::from(([127, 0, 0, 1], port)), p.version(bin))
        }
        _ => {
            let n = NaiveRelay::start(relay.addr()).map_err(|e| format!("naive relay: {e}"))?;
            let addr = n.addr();
            naive = Some(n);
            (addr, "-".to_string())
        }
    };
    // The chain must answer a plain request with its echo before it judges.
    let probe = Payload {
        name: "probe".into(),
        reason: String::new(),
        bytes: b"GET /probe HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(),
        benign: true,
    };
    let mut ready = false;
    for _ in 0..20 {
        let o = run_payload(0, &probe, addr, &relay, naive.as_ref());
        if o.desyncs.is_empty() && o.passed_on && o.front_statuses == [200] {
            ready = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    if !ready {
        let tail = proc
            .as_ref()
            .map(servers::Proc::log_tail)
            .unwrap_or_default();
        return Err(format!(
            "{}: a plain GET did not come back as its echo\n{tail}",
            front.name()
        ));
    }
    let started = Instant::now();
    let mut outcomes = Vec::with_capacity(corpus.len());
    for i in range {
        let p = &corpus[i];
        outcomes.push(run_payload(i + 1, p, addr, &relay, naive.as_ref()));
        if !origin.proc.running() {
            return Err(format!(
                "the origin exited during payload {}:\n{}",
                p.name,
                origin.proc.log_tail()
            ));
        }
        if let Some(pr) = proc.as_mut() {
            if !pr.running() {
                return Err(format!(
                    "{} exited during payload {}:\n{}",
                    front.name(),
                    p.name,
                    pr.log_tail()
                ));
            }
        }
    }
    let elapsed = started.elapsed();
    eprintln!(
        "==> proxies: {} done in {:.0} s",
        front.name(),
        elapsed.as_secs_f64()
    );
    drop(naive);
    drop(proc);
    drop(relay);
    drop(origin);
    Ok(ChainReport {
        front,
        version,
        outcomes,
        elapsed,
    })
}

/// Reads answers from `s` until `want` final answers are whole, the peer
/// closes, nothing came for `first` (before any byte) or `idle` (after
/// one), or 10 s passed. Returns the bytes and whether the peer closed.
fn read_answers(
    s: &mut TcpStream,
    want: usize,
    heads: &[bool],
    first: Duration,
    idle: Duration,
) -> (Vec<u8>, bool) {
    let _ = s.set_read_timeout(Some(Duration::from_millis(10)));
    let mut buf = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    let start = Instant::now();
    let mut last = Instant::now();
    loop {
        let finals = wire::responses(&buf, heads, false)
            .0
            .iter()
            .filter(|r| r.status >= 200)
            .count();
        if want > 0 && finals >= want {
            return (buf, false);
        }
        let quiet = last.elapsed();
        if (buf.is_empty() && quiet > first)
            || (!buf.is_empty() && quiet > idle)
            || start.elapsed() > Duration::from_secs(10)
        {
            return (buf, false);
        }
        match s.read(&mut chunk) {
            Ok(0) => return (buf, true),
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                last = Instant::now();
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return (buf, true),
        }
    }
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

/// `bytes` escaped, whole (for `XTASK_PROXIES_DUMP`).
fn show_all(bytes: &[u8]) -> String {
    show_cut(bytes, usize::MAX)
}

fn show(bytes: &[u8]) -> String {
    show_cut(bytes, 80)
}

fn show_cut(bytes: &[u8], limit: usize) -> String {
    let cut = &bytes[..bytes.len().min(limit)];
    let mut s = String::new();
    for &b in cut {
        match b {
            b'\r' => s.push_str("\\r"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    if bytes.len() > limit {
        s.push_str("...");
    }
    s
}

fn run_payload(
    n: usize,
    p: &Payload,
    addr: SocketAddr,
    relay: &Relay,
    naive: Option<&NaiveRelay>,
) -> Outcome {
    // Stragglers of the previous payload are not this payload's.
    relay.close_all();
    if let Some(nv) = naive {
        nv.reset();
    }
    let started = Instant::now();
    let mut out = Outcome::default();
    let canary = format!("/canary-{n}");
    let victim_req = format!("GET {canary} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Canary: {n}\r\n\r\n");

    // Attacker.
    let mut attacker = match TcpStream::connect_timeout(&addr, Duration::from_secs(2)) {
        Ok(s) => s,
        Err(e) => {
            out.desyncs
                .push(format!("cannot connect to the front: {e}"));
            return out;
        }
    };
    let _ = attacker.set_nodelay(true);
    let _ = attacker.set_write_timeout(Some(Duration::from_secs(2)));
    let _ = attacker.write_all(&p.bytes);
    let bound = count(&p.bytes, b"HTTP/").max(1);
    let heads = [p.bytes.starts_with(b"HEAD ")];
    let (mut att, mut att_eof) = read_answers(
        &mut attacker,
        bound,
        &heads,
        Duration::from_millis(400),
        Duration::from_millis(150),
    );

    // Victim, on its own connection.
    let mut victim_bytes = Vec::new();
    let mut victim_eof = false;
    match TcpStream::connect_timeout(&addr, Duration::from_secs(2)) {
        Ok(mut v) => {
            let _ = v.set_nodelay(true);
            let _ = v.write_all(victim_req.as_bytes());
            let (b, eof) = read_answers(
                &mut v,
                1,
                &[false],
                Duration::from_secs(5),
                Duration::from_secs(2),
            );
            victim_bytes = b;
            victim_eof = eof;
            if !eof {
                // Anything more is a second answer to one request.
                let (more, eof) = read_answers(
                    &mut v,
                    0,
                    &[false],
                    Duration::from_millis(30),
                    Duration::from_millis(30),
                );
                victim_bytes.extend_from_slice(&more);
                victim_eof = eof;
            }
        }
        Err(e) => out.desyncs.push(format!("victim cannot connect: {e}")),
    }
    if !att_eof {
        let (more, eof) = read_answers(
            &mut attacker,
            0,
            &heads,
            Duration::from_millis(30),
            Duration::from_millis(30),
        );
        att.extend_from_slice(&more);
        att_eof = eof;
    }
    drop(attacker);
    std::thread::sleep(Duration::from_millis(10));
    let records = relay.close_all();
    if std::env::var_os("XTASK_PROXIES_DUMP").is_some() {
        let mut d = format!(
            "--- {} (canary {n})\nattacker got: {}\nvictim got: {}\n",
            p.name,
            show_all(&att),
            show_all(&victim_bytes)
        );
        for (k, r) in records.iter().enumerate() {
            let _ = writeln!(
                d,
                "upstream {k} up:   {}\nupstream {k} down: {}",
                show_all(&r.up),
                show_all(&r.down)
            );
        }
        eprint!("{d}");
    }
    if let Some(nv) = naive {
        nv.reset();
    }

    // The victim: exactly one answer, the echo of its own request.
    let (vr, _) = wire::responses(&victim_bytes, &[false], victim_eof);
    let vfinals: Vec<&wire::Response> = vr.iter().filter(|r| r.status >= 200).collect();
    match vfinals.as_slice() {
        [] => out.desyncs.push(format!(
            "the victim got no whole answer ({})",
            show(&victim_bytes)
        )),
        [r, rest @ ..] => {
            let echo = (r.status == 200).then(|| Echo::parse(&r.body)).flatten();
            match echo {
                Some(e)
                    if e.method == b"GET"
                        && e.uri == canary.as_bytes()
                        && e.body.is_empty()
                        && e.values("x-canary") == [n.to_string().as_bytes()] => {}
                Some(e) => out.desyncs.push(format!(
                    "the victim got the echo of another request: {} {} body {:?}",
                    String::from_utf8_lossy(&e.method),
                    show(&e.uri),
                    show(&e.body)
                )),
                None => out
                    .desyncs
                    .push(format!("the victim got {} instead of its echo", r.status)),
            }
            if !rest.is_empty() {
                out.desyncs.push(format!(
                    "the victim got {} answers to one request",
                    vfinals.len()
                ));
            }
        }
    }

    // The attacker: no more echoes than request lines, never the victim's.
    let (ar, _) = wire::responses(&att, &heads, att_eof);
    let mut att_echoes = 0;
    for r in ar.iter().filter(|r| r.status >= 200) {
        out.front_statuses.push(r.status);
        if let Some(e) = (r.status == 200).then(|| Echo::parse(&r.body)).flatten() {
            att_echoes += 1;
            if e.uri == canary.as_bytes() {
                out.desyncs
                    .push("the attacker got the echo of the victim's request".into());
            }
        }
    }
    if att_echoes > bound {
        out.desyncs.push(format!(
            "the attacker got {att_echoes} echoes for {bound} request lines"
        ));
    }

    // Upstream: every origin answer pairs with a request the proxy sent.
    for (k, rec) in records.iter().enumerate() {
        judge_upstream(k, rec, n, &mut out);
    }
    out.took = started.elapsed();
    out
}

/// Pairs the origin's answers on one upstream connection with the requests
/// the proxy sent on it.
fn judge_upstream(k: usize, rec: &Record, n: usize, out: &mut Outcome) {
    let canary = n.to_string();
    let mut reqs = Vec::new();
    let mut at = 0;
    let mut leftover = None;
    while at < rec.up.len() {
        match wire::request(&rec.up[at..]) {
            Parsed::Done(r, used) => {
                reqs.push(r);
                at += used;
            }
            Parsed::More => {
                leftover = Some("an unfinished request");
                break;
            }
            Parsed::Invalid(why) => {
                leftover = Some(why);
                break;
            }
        }
    }
    let is_victim = |r: &wire::Request| {
        r.fields
            .iter()
            .any(|(name, v)| name.eq_ignore_ascii_case(b"x-canary") && v == canary.as_bytes())
    };
    let heads: Vec<bool> = reqs.iter().map(|r| r.method == b"HEAD").collect();
    let (answers, _) = wire::responses(&rec.down, &heads, true);
    let finals: Vec<&wire::Response> = answers.iter().filter(|r| r.status >= 200).collect();
    let attacker_bytes = reqs.iter().any(|r| !is_victim(r)) || leftover.is_some();
    if attacker_bytes {
        out.passed_on = true;
        if reqs.iter().any(is_victim) {
            out.shared = true;
        }
    }
    for (j, a) in finals.iter().enumerate() {
        let echo = (a.status == 200).then(|| Echo::parse(&a.body)).flatten();
        let answer = match &echo {
            Some(_) => "200".to_string(),
            None => a.status.to_string(),
        };
        match reqs.get(j) {
            Some(req) => {
                if !is_victim(req) {
                    out.origin_answers.push(answer);
                }
                if let Some(e) = &echo {
                    if !e.matches(req) {
                        out.desyncs.push(format!(
                            "upstream {k}, request {j}: the origin read {} {} (body {:?}), the proxy sent {} {} (body {:?})",
                            String::from_utf8_lossy(&e.method),
                            show(&e.uri),
                            show(&e.body),
                            String::from_utf8_lossy(&req.method),
                            show(&req.target),
                            show(&req.body),
                        ));
                    }
                }
            }
            None if j == reqs.len() && leftover.is_some() => {
                out.origin_answers.push(answer);
                if let Some(e) = &echo {
                    out.desyncs.push(format!(
                        "upstream {k}: the origin answered {} {} read from bytes that are no whole request ({})",
                        String::from_utf8_lossy(&e.method),
                        show(&e.uri),
                        leftover.unwrap_or("")
                    ));
                }
            }
            None => out.desyncs.push(format!(
                "upstream {k}: {} answers for {} requests",
                finals.len(),
                reqs.len() + usize::from(leftover.is_some())
            )),
        }
    }
    let unanswered = (reqs.iter().filter(|r| !is_victim(r)).count()
        + usize::from(leftover.is_some()))
    .saturating_sub(out.origin_answers.len());
    for _ in 0..unanswered {
        out.origin_answers.push("none".into());
    }
}

/// The summary table (for docs/SECURITY.md) and the per-payload details.
fn report(
    reports: &[ChainReport],
    corpus: &[Payload],
    command: &str,
    wall: Duration,
    origin: &str,
) -> (String, String) {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Proxies run: {}, `{command}` (origin: `{origin}`), {} payloads, {:.0} s wall.\n",
        process::now_utc(),
        corpus.len(),
        wall.as_secs_f64()
    );
    let _ = writeln!(
        s,
        "| front | version | payloads | desyncs | refused by the front | passed on | victim on the attacker's upstream connection | origin answers to what was passed on |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---|");
    for r in reports {
        let desyncs = r.outcomes.iter().filter(|o| !o.desyncs.is_empty()).count();
        let passed: Vec<&Outcome> = r.outcomes.iter().filter(|o| o.passed_on).collect();
        let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
        for o in &passed {
            let mut a = o.origin_answers.clone();
            a.dedup();
            *kinds.entry(a.join("+")).or_default() += 1;
        }
        let kinds: Vec<String> = kinds.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.front.name(),
            r.version,
            r.outcomes.len(),
            desyncs,
            r.outcomes.len() - passed.len(),
            passed.len(),
            r.outcomes.iter().filter(|o| o.shared).count(),
            kinds.join(", ")
        );
    }
    let mut d = String::new();
    for r in reports {
        let _ = writeln!(
            d,
            "\n## {} {} ({:.0} s)\n",
            r.front.name(),
            r.version,
            r.elapsed.as_secs_f64()
        );
        let _ = writeln!(
            d,
            "| payload | front answered | passed on | origin answered | desync | ms |"
        );
        let _ = writeln!(d, "|---|---|---|---|---|---:|");
        for (o, p) in r.outcomes.iter().zip(corpus) {
            let statuses: Vec<String> = o.front_statuses.iter().map(u16::to_string).collect();
            let _ = writeln!(
                d,
                "| `{}` | {} | {} | {} | {} | {} |",
                p.name.replace('|', "\\|"),
                if statuses.is_empty() {
                    "-".to_string()
                } else {
                    statuses.join(" ")
                },
                if o.passed_on { "yes" } else { "no" },
                if o.origin_answers.is_empty() {
                    "-".to_string()
                } else {
                    o.origin_answers.join(" ")
                },
                o.desyncs.join("; ").replace('|', "\\|"),
                o.took.as_millis()
            );
        }
    }
    let _ = writeln!(d, "\n## Payloads\n");
    for p in corpus {
        let _ = writeln!(
            d,
            "- `{}`: {} — `{}`",
            p.name.replace('`', "'"),
            p.reason,
            show(&p.bytes).replace('`', "'")
        );
    }
    (s, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo_answer(method: &str, uri: &str, fields: &[(&str, &str)], body: &str) -> Vec<u8> {
        fn b64(s: &[u8]) -> String {
            const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            let mut o = String::new();
            for c in s.chunks(3) {
                let n = (u32::from(c[0]) << 16)
                    | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
                    | u32::from(*c.get(2).unwrap_or(&0));
                o.push(A[(n >> 18) as usize & 63] as char);
                o.push(A[(n >> 12) as usize & 63] as char);
                o.push(if c.len() > 1 {
                    A[(n >> 6) as usize & 63] as char
                } else {
                    '='
                });
                o.push(if c.len() > 2 {
                    A[n as usize & 63] as char
                } else {
                    '='
                });
            }
            o
        }
        let headers: Vec<String> = fields
            .iter()
            .map(|(n, v)| format!("[\"{}\",\"{}\"]", b64(n.as_bytes()), b64(v.as_bytes())))
            .collect();
        let json = format!(
            "{{\"method\":\"{}\",\"version\":\"MS4x\",\"uri\":\"{}\",\"headers\":[{}],\"body\":\"{}\"}}",
            b64(method.as_bytes()),
            b64(uri.as_bytes()),
            headers.join(","),
            b64(body.as_bytes())
        );
        format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{json}",
            json.len()
        )
        .into_bytes()
    }

    fn judge(up: &[u8], down: &[u8]) -> Outcome {
        let mut out = Outcome::default();
        let rec = Record {
            up: up.to_vec(),
            down: down.to_vec(),
        };
        judge_upstream(0, &rec, 7, &mut out);
        out
    }

    const VICTIM: &[u8] = b"GET /canary-7 HTTP/1.1\r\nHost: h\r\nX-Canary: 7\r\n\r\n";

    #[test]
    fn matching_echoes_are_no_desync() {
        let mut up = b"POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi".to_vec();
        up.extend_from_slice(VICTIM);
        let mut down = echo_answer(
            "POST",
            "/a",
            &[("Host", "h"), ("Content-Length", "2")],
            "hi",
        );
        down.extend(echo_answer(
            "GET",
            "/canary-7",
            &[("Host", "h"), ("X-Canary", "7")],
            "",
        ));
        let o = judge(&up, &down);
        assert!(o.desyncs.is_empty(), "{:?}", o.desyncs);
        assert!(o.passed_on && o.shared);
        assert_eq!(o.origin_answers, ["200"]);
    }

    #[test]
    fn an_echo_of_another_request_is_a_desync() {
        // The proxy sent one request with a 35-byte body; the origin read
        // the body as a second request.
        let up = b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 35\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n";
        let mut down = echo_answer("POST", "/", &[("Host", "h"), ("Content-Length", "35")], "");
        down.extend(echo_answer("GET", "/smuggled", &[("Host", "a")], ""));
        let o = judge(up, &down);
        assert_eq!(o.desyncs.len(), 2, "{:?}", o.desyncs);
        assert!(o.desyncs[0].contains("the origin read POST"));
        assert!(o.desyncs[1].contains("2 answers for 1 requests"));
    }

    #[test]
    fn an_echo_of_unframed_bytes_is_a_desync_and_a_refusal_is_not() {
        let up = b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
        let refused = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
        let o = judge(up, refused);
        assert!(o.desyncs.is_empty(), "{:?}", o.desyncs);
        assert_eq!(o.origin_answers, ["400"]);
        let o = judge(up, &echo_answer("POST", "/", &[("Host", "h")], ""));
        assert_eq!(o.desyncs.len(), 1, "{:?}", o.desyncs);
        assert!(o.desyncs[0].contains("no whole request"));
    }

    #[test]
    fn the_corpus_is_big_named_and_explained() {
        let c = corpus::all();
        assert!(c.len() >= MIN_PAYLOADS, "{}", c.len());
        let names: std::collections::HashSet<&str> = c.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names.len(), c.len(), "names are unique");
        assert!(c
            .iter()
            .all(|p| !p.reason.is_empty() && !p.bytes.is_empty()));
        for needle in [
            "framing/C01 CL then TE",
            "chunked/C45 size read as a longest prefix",
            "head/C24-obs-fold",
            "security/C62",
            "cl-te/plain",
            "te-cl/plain",
            "control/chunk-data-holds-cl",
        ] {
            assert!(names.contains(needle), "{needle}");
        }
        // Benign payloads are framed by Content-Length alone.
        for p in c.iter().filter(|p| p.benign) {
            assert!(!p
                .bytes
                .to_ascii_lowercase()
                .windows(17)
                .any(|w| w == b"transfer-encoding"));
        }
    }
}
