//! The server under attack: a child process started from the command line
//! given, its address read from the `listening on http://ADDR` (or
//! `https://ADDR`) line it prints, its resources read from `/proc/<pid>`, and its stop (SIGTERM,
//! then SIGKILL), also when the suite fails or panics (`Drop`).

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use tool_support::process::Result;

/// How long the server may take to print its address.
const START_LIMIT: Duration = Duration::from_secs(30);

/// A running server process; killed when dropped.
pub struct Target {
    child: Child,
    /// The address it listens on (always a loopback address).
    pub addr: SocketAddr,
    /// The command line, for the report.
    pub command: String,
}

/// One look at the server's resources.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Resident memory (VmRSS), KiB.
    pub rss_kib: u64,
    /// Threads.
    pub threads: u64,
    /// Open descriptors (entries of `/proc/<pid>/fd`).
    pub fds: u64,
    /// CPU time used so far (user + system), in clock ticks.
    pub cpu_ticks: u64,
}

impl Usage {
    /// The larger of each figure.
    pub fn max(self, o: Usage) -> Usage {
        Usage {
            rss_kib: self.rss_kib.max(o.rss_kib),
            threads: self.threads.max(o.threads),
            fds: self.fds.max(o.fds),
            cpu_ticks: self.cpu_ticks.max(o.cpu_ticks),
        }
    }
}

impl Target {
    /// Starts `argv` and waits for its `listening on http://ADDR` (or
    /// `https://ADDR`) line.
    pub fn start(argv: &[String]) -> Result<Target> {
        let (program, args) = argv
            .split_first()
            .ok_or("hostile: no server command given")?;
        let command = argv.join(" ");
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("hostile: cannot start {command}: {e}"))?;
        let stdout = child.stdout.take().ok_or("hostile: no stdout")?;
        // From here on `Drop` kills the child, whatever happens.
        let mut target = Target {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            command,
        };
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("server-stdout".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut line = String::new();
                loop {
                    line.clear();
                    match r.read_line(&mut line) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            let line = line.trim();
                            let a = line
                                .strip_prefix("listening on http://")
                                .or_else(|| line.strip_prefix("listening on https://"));
                            if let Some(a) = a {
                                let _ = tx.send(a.to_string());
                                break;
                            }
                        }
                    }
                }
                // Keep draining, so that the server never blocks on stdout.
                let _ = std::io::copy(&mut r.take(u64::MAX), &mut std::io::sink());
            })
            .map_err(|e| format!("hostile: {e}"))?;
        let addr = rx.recv_timeout(START_LIMIT).map_err(|_| {
            format!(
                "hostile: {} printed no `listening on http://ADDR` line within {START_LIMIT:?}",
                target.command
            )
        })?;
        let addr: SocketAddr = addr
            .parse()
            .map_err(|e| format!("hostile: bad address {addr:?} from the server: {e}"))?;
        if !addr.ip().is_loopback() {
            return Err(format!(
                "hostile: the server listens on {addr}: only loopback targets are attacked (pass --addr 127.0.0.1:0)"
            ));
        }
        target.addr = addr;
        Ok(target)
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is still running (`Err` with its status if not).
    pub fn alive(&mut self) -> Result<()> {
        match self.child.try_wait() {
            Ok(None) => Ok(()),
            Ok(Some(st)) => Err(format!("hostile: the server exited ({st})")),
            Err(e) => Err(format!("hostile: wait: {e}")),
        }
    }

    /// The server's resources now (zeros for what cannot be read).
    pub fn usage(&self) -> Usage {
        usage(self.pid())
    }

    /// Stops the server: SIGTERM, then SIGKILL after `grace`. Returns its
    /// exit status and how long it took.
    pub fn stop(&mut self, grace: Duration) -> (Option<ExitStatus>, Duration) {
        let t0 = Instant::now();
        if let Ok(Some(st)) = self.child.try_wait() {
            return (Some(st), t0.elapsed());
        }
        signal(self.pid(), rustix::process::Signal::TERM);
        while t0.elapsed() < grace {
            if let Ok(Some(st)) = self.child.try_wait() {
                return (Some(st), t0.elapsed());
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        (self.child.wait().ok(), t0.elapsed())
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn signal(pid: u32, sig: rustix::process::Signal) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process(pid, sig);
    }
}

/// Reads `/proc/<pid>/status` (VmRSS, Threads) and counts `/proc/<pid>/fd`.
pub fn usage(pid: u32) -> Usage {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count() as u64);
    Usage {
        rss_kib: field("VmRSS:"),
        threads: field("Threads:"),
        fds,
        cpu_ticks: cpu_ticks(&pid.to_string()),
    }
}

/// User plus system CPU time of `/proc/<pid>` (`self` for this process),
/// in clock ticks (fields 14 and 15 of `/proc/<pid>/stat`).
pub fn cpu_ticks(pid: &str) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The command name (field 2) is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|v| v.parse().ok())
        .collect();
    f.iter().sum()
}

/// Clock ticks a second (`CLK_TCK`: 100 on Linux, as `getconf CLK_TCK` says).
pub const TICKS_PER_SECOND: f64 = 100.0;

/// Raises this process's soft open-file limit to at least `want` (up to the
/// hard limit); returns the soft limit in force afterwards.
pub fn raise_nofile(want: u64) -> u64 {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let now = getrlimit(Resource::Nofile);
    let current = now.current.unwrap_or(u64::MAX);
    if current >= want {
        return current;
    }
    let target = now.maximum.map_or(want, |hard| hard.min(want));
    let _ = setrlimit(
        Resource::Nofile,
        Rlimit {
            current: Some(target),
            maximum: now.maximum,
        },
    );
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        ["sh", "-c", script].map(String::from).to_vec()
    }

    #[test]
    fn reads_the_address_and_stops_the_server() {
        let mut t = Target::start(&sh(
            "echo starting; echo listening on http://127.0.0.1:9; exec sleep 30",
        ))
        .unwrap();
        assert_eq!(t.addr, SocketAddr::from(([127, 0, 0, 1], 9)));
        assert!(t.alive().is_ok());
        let u = t.usage();
        assert!(u.threads >= 1 && u.fds >= 1 && u.rss_kib > 0, "{u:?}");
        let (status, took) = t.stop(Duration::from_secs(5));
        assert!(took < Duration::from_secs(5), "{took:?}");
        // `sleep` ends on SIGTERM: no exit code.
        assert_eq!(status.and_then(|s| s.code()), None);
        assert!(t.alive().is_err());
    }

    #[test]
    fn refuses_a_server_that_is_not_on_loopback_or_prints_no_address() {
        let e = Target::start(&sh("echo listening on http://0.0.0.0:8080; exec sleep 30"))
            .err()
            .unwrap();
        assert!(e.contains("only loopback"), "{e}");
        let e = Target::start(&sh("echo hi")).err().unwrap();
        assert!(e.contains("printed no"), "{e}");
    }

    #[test]
    fn the_open_file_limit_is_raised_up_to_the_hard_limit() {
        let hard = rustix::process::getrlimit(rustix::process::Resource::Nofile).maximum;
        let got = raise_nofile(4096);
        assert!(got >= hard.unwrap_or(u64::MAX).min(4096), "{got}");
    }
}
