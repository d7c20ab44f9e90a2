//! The suite's options (see the binary's doc).

use std::time::Duration;

use tool_support::process::Result;

use crate::attack;
use crate::scenario::Scenario;

/// The connection limit `--ci` gives the server (`--max-connections`).
pub(crate) const CI_MAX_CONNECTIONS: usize = 64;

/// Hostile sockets per TLS scenario: beyond the servers' default
/// connection limit (1,024), so that stalled handshakes must be evicted
/// for the well-behaved client.
const TLS_CONNECTIONS: usize = 1100;

/// The idle connection threads the std server keeps after a burst: the
/// default of `ServerBuilder::max_idle_threads` in `http-net-std`.
const IDLE_THREADS: u64 = 64;

/// What the command line asks for.
pub(crate) struct Options {
    pub(crate) connections: usize,
    pub(crate) seconds: Duration,
    pub(crate) settle: Duration,
    pub(crate) only: Vec<Scenario>,
    pub(crate) ci: bool,
    pub(crate) max_p99: Option<Duration>,
    pub(crate) max_rss_kib: Option<u64>,
    /// Threads the server may hold after the settle beyond those before.
    pub(crate) idle_threads: u64,
    /// The TLS form: TLS servers, the TLS scenarios, an HTTPS client.
    pub(crate) tls: bool,
    /// New hostile connections a second, at most.
    pub(crate) open_rate: u64,
    /// The hostile sockets' source address (`None`: see `sources_for` in `main.rs`).
    pub(crate) source: Option<std::net::IpAddr>,
    /// Arguments appended to every server command (`--server-arg`).
    pub(crate) server_args: Vec<String>,
    pub(crate) command: Vec<String>,
}

/// Reads the command line (the arguments after `hostile`).
pub(crate) fn parse(args: &[String]) -> Result<Options> {
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

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn args(s: &str) -> Vec<String> {
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
        assert!(parse(&args("--only tls-silent")).is_err());
        assert!(parse(&args("--only nope")).is_err());
        assert!(parse(&args("--connections")).is_err());
        assert!(parse(&args("--bogus")).is_err());
    }
}
