//! One scenario's figures, how they are judged, and the report.

use std::time::Duration;

use crate::attack;
use crate::client;
use crate::options::Options;
use crate::scenario::Scenario;
use crate::target::Usage;

/// One scenario's figures.
pub(crate) struct Row {
    pub(crate) server: String,
    pub(crate) scenario: Scenario,
    pub(crate) client: client::Results,
    /// Before the suite's first scenario against this server.
    pub(crate) before: Usage,
    pub(crate) peak: Usage,
    pub(crate) after: Usage,
    pub(crate) settled_in: Duration,
    pub(crate) tally: attack::Tally,
    /// CPU seconds used during the scenario: the server's and this suite's.
    pub(crate) cpu: (f64, f64),
}

/// Whether `after` is back to `before`: no descriptor left, and at most
/// `idle_threads` threads more.
pub(crate) fn settled(before: Usage, after: Usage, idle_threads: u64) -> bool {
    after.fds <= before.fds && after.threads <= before.threads + idle_threads
}

/// Failures of one row.
pub(crate) fn judge(row: &Row, o: &Options) -> Vec<String> {
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

pub(crate) fn describe(r: &Row) -> String {
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
pub(crate) fn table(rows: &[Row]) -> String {
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
pub(crate) fn short_name(command: &str) -> String {
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

pub(crate) fn mb(kib: u64) -> f64 {
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
    use crate::options::parse;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
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
