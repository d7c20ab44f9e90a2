//! The `Date` field value (IMF-fixdate, RFC 9110 §5.6.7, formatted by
//! `http_net_conn::imf_fixdate`) at most once a second, shared by every
//! connection of a server.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use http_net_conn::imf_fixdate;

use crate::lock::lock;

/// Seconds since the Unix epoch now (0 if the clock is before 1970).
pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A `Date` value shared by the connections of a server: the first caller in
/// a new second formats it, the others copy it.
#[derive(Debug)]
pub(crate) struct DateCache {
    secs: AtomicU64,
    value: Mutex<(u64, [u8; 29])>,
}

impl DateCache {
    pub(crate) fn new() -> DateCache {
        let now = now_secs();
        DateCache {
            secs: AtomicU64::new(now),
            value: Mutex::new((now, imf_fixdate(now))),
        }
    }

    /// The value for `now` (seconds since the epoch). Formats at most once
    /// per second across all callers.
    pub(crate) fn get(&self, now: u64) -> [u8; 29] {
        let mut guard = lock(&self.value);
        if guard.0 != now {
            *guard = (now, imf_fixdate(now));
            self.secs.store(now, Ordering::Relaxed);
        }
        guard.1
    }

    /// The second of the last formatted value.
    #[cfg(test)]
    pub(crate) fn second(&self) -> u64 {
        self.secs.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_formats_once_per_second() {
        let c = DateCache::new();
        let a = c.get(784_111_777);
        assert_eq!(&a, b"Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(c.second(), 784_111_777);
        assert_eq!(c.get(784_111_778)[23..25], *b"38");
    }
}
