//! The load guard of the comparison commands (figures in `docs/`
//! come from quiet runs).
//!
//! Before a run: wait for the machine to be idle for a while (at least
//! [`MIN_SETTLE_S`] seconds, our own builds included), then read the 1-minute
//! load average from `/proc/loadavg`; it must be below [`MAX_LOAD`]. During
//! the run: the CPU time the whole machine spent busy (`/proc/stat`, the
//! `cpu` line) less the CPU time of this process and of the children it
//! waited for (`/proc/self/stat`: utime, stime, cutime, cstime) is what
//! other processes used; per second of the run it must stay under
//! [`MAX_OTHER_CPU`] of one core.
//!
//! `compare` prints the verdict with its tables and refuses to write
//! `docs/PERFORMANCE.md` when the guard fails. Children (the bench
//! processes) must have been waited for before [`Guard::finish`], or their
//! time counts as another process's; a caller that keeps a child running
//! (a server under `wrk`) passes that child's ticks to
//! [`Guard::finish_with`].

use std::time::{Duration, Instant};

use crate::process::Result;

/// The load average below which a run is quiet.
pub const MAX_LOAD: f64 = 0.5;
/// The CPU other processes may use during a run, in cores.
pub const MAX_OTHER_CPU: f64 = 0.05;
/// The least idle wait before the load average is read, in seconds.
pub const MIN_SETTLE_S: u64 = 60;

/// Busy and total clock ticks of all CPUs, from the `cpu` line of
/// `/proc/stat`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MachineTicks {
    /// user + nice + system + irq + softirq (guest time is inside user).
    pub busy: u64,
    /// busy + idle + iowait + steal.
    pub total: u64,
}

/// Parses the `cpu` line of `/proc/stat`.
pub fn parse_proc_stat(text: &str) -> Option<MachineTicks> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_ascii_whitespace()
        .skip(1)
        .map(str::parse)
        .collect::<std::result::Result<_, _>>()
        .ok()?;
    // user nice system idle iowait irq softirq steal [guest guest_nice]
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    if v.len() < 4 {
        return None;
    }
    let busy = at(0) + at(1) + at(2) + at(5) + at(6);
    Some(MachineTicks {
        busy,
        total: busy + at(3) + at(4) + at(7),
    })
}

/// This process's own CPU ticks and those of its waited-for children, from
/// `/proc/self/stat` (fields 14 to 17: utime, stime, cutime, cstime). The
/// command name (field 2) may hold spaces and parentheses: fields are
/// counted from the last `)`.
pub fn parse_self_stat(text: &str) -> Option<u64> {
    let after = &text[text.rfind(')')? + 1..];
    // After ")": field 3 (state) is the first; utime is field 14.
    let f: Vec<&str> = after.split_ascii_whitespace().collect();
    let tick = |field: usize| f.get(field - 3)?.parse::<u64>().ok();
    Some(tick(14)? + tick(15)? + tick(16)? + tick(17)?)
}

/// The 1-minute load average, the first field of `/proc/loadavg`.
pub fn parse_loadavg(text: &str) -> Option<f64> {
    text.split_ascii_whitespace().next()?.parse().ok()
}

/// Cores other processes used: machine busy ticks less our own, over the
/// elapsed time, in cores (1.0 = one core busy the whole run). Our own
/// ticks can exceed the machine's by rounding (both are sampled): the
/// result is never negative.
pub fn other_cores(machine_busy: u64, own: u64, ticks_per_s: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 || ticks_per_s == 0 {
        return 0.0;
    }
    machine_busy.saturating_sub(own) as f64 / ticks_per_s as f64 / secs
}

/// What the guard measured and decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Seconds waited idle before the load average was read.
    pub settled_s: u64,
    /// The 1-minute load average before the run.
    pub load_before: Option<f64>,
    /// Cores other processes used during the run.
    pub other_cores: Option<f64>,
    /// Seconds the run took.
    pub run_s: f64,
}

impl Verdict {
    /// Whether the wait was long enough and the load average below the bound.
    pub fn load_ok(&self) -> bool {
        self.settled_s >= MIN_SETTLE_S && self.load_before.is_some_and(|l| l < MAX_LOAD)
    }

    /// Whether other processes stayed under the CPU bound.
    pub fn cpu_ok(&self) -> bool {
        self.other_cores.is_some_and(|c| c < MAX_OTHER_CPU)
    }

    /// Both checks passed: the run may be written into `docs/`.
    pub fn ok(&self) -> bool {
        self.load_ok() && self.cpu_ok()
    }

    /// One paragraph for the report.
    pub fn render(&self) -> String {
        let mark = |ok: bool| if ok { "ok" } else { "FAILED" };
        let load = self
            .load_before
            .map_or_else(|| "unknown".to_string(), |l| format!("{l:.2}"));
        let other = self
            .other_cores
            .map_or_else(|| "unknown".to_string(), |c| format!("{:.1}%", c * 100.0));
        format!(
            "Load guard: load average {load} before the run, after {} s idle (bound: below {MAX_LOAD} after at least {MIN_SETTLE_S} s): {}; CPU used by other processes during the run ({:.0} s) {other} of one core (bound: under {:.0}%): {}. {}",
            self.settled_s,
            mark(self.load_ok()),
            self.run_s,
            MAX_OTHER_CPU * 100.0,
            mark(self.cpu_ok()),
            if self.ok() {
                "Guarded run."
            } else {
                "UNGUARDED run: these figures are not for docs/."
            }
        )
    }
}

/// A run being watched.
pub struct Guard {
    settled_s: u64,
    load_before: Option<f64>,
    start: Instant,
    machine: Option<MachineTicks>,
    own: Option<u64>,
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Clock ticks per second of `/proc/stat` and `/proc/self/stat` (USER_HZ).
fn ticks_per_second() -> u64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100)
}

impl Guard {
    /// Waits `settle_s` seconds doing nothing, reads the load average, and
    /// starts counting CPU time.
    pub fn start(settle_s: u64) -> Guard {
        if settle_s > 0 {
            eprintln!("xtask: load guard: {settle_s} s idle before reading the load average");
            std::thread::sleep(Duration::from_secs(settle_s));
        }
        let load_before = read("/proc/loadavg").as_deref().and_then(parse_loadavg);
        eprintln!(
            "xtask: load guard: load average {}",
            load_before.map_or("unknown".into(), |l| format!("{l:.2}"))
        );
        Guard {
            settled_s: settle_s,
            load_before,
            start: Instant::now(),
            machine: read("/proc/stat").as_deref().and_then(parse_proc_stat),
            own: read("/proc/self/stat").as_deref().and_then(parse_self_stat),
        }
    }

    /// Ends the run: every child has been waited for.
    pub fn finish(&self) -> Verdict {
        self.finish_with(0)
    }

    /// Ends the run, counting `extra_own_ticks` (of children still running,
    /// read by the caller from `/proc/PID/stat`) as the benchmark's own.
    pub fn finish_with(&self, extra_own_ticks: u64) -> Verdict {
        let elapsed = self.start.elapsed();
        let machine = read("/proc/stat").as_deref().and_then(parse_proc_stat);
        let own = read("/proc/self/stat").as_deref().and_then(parse_self_stat);
        let other = match (self.machine, machine, self.own, own) {
            (Some(m0), Some(m1), Some(o0), Some(o1)) => Some(other_cores(
                m1.busy.saturating_sub(m0.busy),
                o1.saturating_sub(o0) + extra_own_ticks,
                ticks_per_second(),
                elapsed,
            )),
            _ => None,
        };
        Verdict {
            settled_s: self.settled_s,
            load_before: self.load_before,
            other_cores: other,
            run_s: elapsed.as_secs_f64(),
        }
    }
}

/// Whether the report may be written into `docs/`: a failed guard refuses
/// (an error naming why) unless `unguarded`, and an unguarded run is never
/// written.
pub fn may_write(v: &Verdict, unguarded: bool) -> Result<bool> {
    if unguarded {
        return Ok(false);
    }
    if v.ok() {
        Ok(true)
    } else {
        Err(format!(
            "the load guard failed, so docs/PERFORMANCE.md was not written ({}); run on a quiet machine, or pass --unguarded (the tables are then printed, marked, and never written)",
            v.render()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  1000 50 300 8000 100 20 30 40 0 0\ncpu0 500 25 150 4000 50 10 15 20 0 0\nintr 1 2 3\n";

    #[test]
    fn proc_stat_busy_and_total() {
        let t = parse_proc_stat(STAT).expect("a cpu line");
        assert_eq!(t.busy, 1000 + 50 + 300 + 20 + 30);
        assert_eq!(t.total, t.busy + 8000 + 100 + 40);
        // The per-CPU lines are not the summary line.
        assert_eq!(parse_proc_stat("cpu0 1 2 3 4\n"), None);
        assert_eq!(parse_proc_stat("cpu  1 2\n"), None);
        assert_eq!(parse_proc_stat("cpu  1 x 3 4\n"), None);
    }

    #[test]
    fn self_stat_counts_from_the_last_paren() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
        // majflt cmajflt utime stime cutime cstime ...
        let s = "42 (x) (y z) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17";
        assert_eq!(parse_self_stat(s), Some(11 + 12 + 13 + 14));
        assert_eq!(parse_self_stat("42 (x) S 1 2"), None);
    }

    #[test]
    fn loadavg_first_field() {
        assert_eq!(parse_loadavg("0.42 0.30 0.20 1/200 999\n"), Some(0.42));
        assert_eq!(parse_loadavg(""), None);
    }

    #[test]
    fn other_cores_subtracts_our_own() {
        // 100 ticks/s over 10 s: 1,000 ticks is one core.
        let ten = Duration::from_secs(10);
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(near(other_cores(1_030, 1_000, 100, ten), 0.03));
        assert!(near(other_cores(1_500, 1_000, 100, ten), 0.5));
        // Rounding may put our own ticks above the machine's: not negative.
        assert_eq!(other_cores(990, 1_000, 100, ten), 0.0);
        assert_eq!(other_cores(10, 0, 100, Duration::ZERO), 0.0);
    }

    fn verdict(settled: u64, load: f64, other: f64) -> Verdict {
        Verdict {
            settled_s: settled,
            load_before: Some(load),
            other_cores: Some(other),
            run_s: 100.0,
        }
    }

    #[test]
    fn bounds() {
        assert!(verdict(60, 0.49, 0.049).ok());
        assert!(!verdict(60, 0.5, 0.01).ok(), "load at the bound fails");
        assert!(!verdict(59, 0.1, 0.01).ok(), "too short a wait fails");
        assert!(!verdict(60, 0.1, 0.05).ok(), "other CPU at the bound fails");
        let unknown = Verdict {
            load_before: None,
            ..verdict(60, 0.1, 0.01)
        };
        assert!(!unknown.ok(), "an unread load average fails");
    }

    #[test]
    fn writing_is_refused_unless_guarded() {
        assert_eq!(may_write(&verdict(60, 0.1, 0.01), false), Ok(true));
        assert!(may_write(&verdict(60, 2.0, 0.01), false).is_err());
        // --unguarded: never written, never an error.
        assert_eq!(may_write(&verdict(60, 2.0, 0.01), true), Ok(false));
        assert_eq!(may_write(&verdict(60, 0.1, 0.01), true), Ok(false));
        assert!(verdict(0, 2.0, 1.0).render().contains("UNGUARDED"));
        assert!(verdict(60, 0.1, 0.01).render().contains("Guarded run."));
    }
}
