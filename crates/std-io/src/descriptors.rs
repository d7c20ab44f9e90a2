//! File descriptors: the connection limit the open-file limit allows, and a
//! reserve descriptor that lets the accept loop answer `503` when the
//! process runs out of them.
//!
//! `std` cannot raise the open-file limit (`RLIMIT_NOFILE`); on Linux it is
//! read from `/proc/self/limits`, and where `/proc` does not exist the check
//! is skipped.

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::reject;

/// Two descriptors per connection: a TCP connection takes one (its socket,
/// shared with its registry slot rather than duplicated), and up to as many
/// closed connections as admitted ones may be draining their peer's input
/// (the pool holds twice the connection limit in threads).
///
/// The descriptors the server needs beyond two per connection: the standard
/// streams, the listener, the reserve, the refused connections queued and
/// draining, and a margin for the application.
pub(crate) const RESERVE: u64 = 3 + 1 + 1 + (reject::QUEUE + reject::IN_FLIGHT) as u64 + 32;

/// Warned once per process.
static WARNED: AtomicBool = AtomicBool::new(false);

/// The connection limit to serve with: `max`, or less when the open-file
/// limit cannot hold two descriptors per connection plus [`RESERVE`] (with
/// a warning on stderr, once, naming both figures).
pub(crate) fn effective_limit(max: usize) -> usize {
    match open_file_limit() {
        Some(files) => fit(max, files, |need, limit| {
            if !WARNED.swap(true, Ordering::Relaxed) {
                eprintln!(
                    "http-net: the open-file limit is {files}, below the {need} descriptors \
                     that max_connections {max} needs (2 per connection + {RESERVE}); \
                     serving at most {limit} connections (raise it with `ulimit -n`)"
                );
            }
        }),
        None => max,
    }
}

/// `max`, or what `files` descriptors hold (at least 1); `warn` gets the
/// descriptors needed and the lowered limit.
fn fit(max: usize, files: u64, warn: impl FnOnce(u64, usize)) -> usize {
    let need = (max as u64).saturating_mul(2).saturating_add(RESERVE);
    if files >= need {
        return max;
    }
    let limit = (files.saturating_sub(RESERVE) / 2).max(1) as usize;
    warn(need, limit);
    limit
}

/// The soft open-file limit, from `/proc/self/limits` (`None`: unknown or
/// unlimited).
fn open_file_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    parse_limit(&text)
}

fn parse_limit(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Whether an accept error means the process (or the system) is out of
/// descriptors (`EMFILE`, `ENFILE`).
pub(crate) fn exhausted(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(23 | 24))
}

/// One descriptor kept open (on `/dev/null`) to be given up when the
/// process is out of them, so that the peer at the head of the backlog can
/// still be accepted, answered `503` and closed.
pub(crate) struct Reserve(Option<File>);

impl Reserve {
    pub(crate) fn open() -> Reserve {
        let mut r = Reserve(None);
        r.reopen();
        r
    }
    /// Gives the descriptor up; whether there was one.
    pub(crate) fn release(&mut self) -> bool {
        self.0.take().is_some()
    }
    /// Takes a descriptor again if it has none (it may still fail: then
    /// later).
    pub(crate) fn reopen(&mut self) {
        if self.0.is_none() {
            self.0 = File::open(null_device()).ok();
        }
    }
}

fn null_device() -> &'static str {
    if cfg!(windows) {
        "NUL"
    } else {
        "/dev/null"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_read_from_proc_self_limits() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max cpu time              unlimited            unlimited            seconds   \n\
                    Max open files            1024                 524288               files     \n";
        assert_eq!(parse_limit(text), Some(1024));
        let unlimited =
            "Max open files            unlimited            unlimited            files\n";
        assert_eq!(parse_limit(unlimited), None);
        assert_eq!(parse_limit(""), None);
    }

    #[test]
    fn a_low_limit_lowers_the_connection_limit_with_a_warning() {
        let mut warned = None;
        assert_eq!(fit(1024, 1_000_000, |_, _| panic!("no warning")), 1024);
        let limit = fit(1024, 1024, |need, limit| warned = Some((need, limit)));
        assert_eq!(limit, (1024 - RESERVE as usize) / 2);
        assert_eq!(warned, Some((2048 + RESERVE, limit)));
        assert_eq!(fit(1024, 10, |_, _| {}), 1);
    }
}
