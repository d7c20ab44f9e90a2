//! The `Date` field value (IMF-fixdate, RFC 9110 §5.6.7, formatted by
//! `http_net_conn::imf_fixdate`) at most once a second, shared by every
//! connection of a server.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use http_net_conn::imf_fixdate;

use crate::lock::lock;

/// Seconds since the Unix epoch now (0 if the clock is before 1970).
pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// One connection's view of the wall clock's second, for its `Date`: the
/// second last given and the monotonic instant by which that second has
/// surely ended, so that a request reads the wall clock only once its
/// second may have moved on (about once a second), not per request.
#[derive(Debug)]
pub(crate) struct DateClock {
    second: u64,
    until: Option<Instant>,
}

impl DateClock {
    /// A clock that has given no second yet.
    pub(crate) fn new() -> DateClock {
        DateClock {
            second: u64::MAX,
            until: None,
        }
    }

    /// The wall clock's second at `now` (a monotonic reading taken just
    /// before), when it differs from the one last given; `None`, without
    /// reading the wall clock, while `now` is before the end of that second.
    pub(crate) fn changed(&mut self, now: Instant) -> Option<u64> {
        if self.until.is_some_and(|until| now < until) {
            return None;
        }
        let wall = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        // `now` was read no later than `wall`: the second ends no sooner.
        let rest = Duration::from_secs(1) - Duration::from_nanos(u64::from(wall.subsec_nanos()));
        self.until = now.checked_add(rest);
        let second = wall.as_secs();
        if second == self.second {
            return None;
        }
        self.second = second;
        Some(second)
    }
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
    fn a_connection_reads_the_wall_clock_again_only_once_its_second_may_have_ended() {
        let mut clock = DateClock::new();
        let now = Instant::now();
        let first = clock.changed(now).expect("the first call gives the second");
        let wall = now_secs();
        assert!(first == wall || first + 1 == wall);
        let until = clock.until.expect("the end of that second");
        assert!(until > now && until <= now + Duration::from_secs(1));
        // Before that end: no reading, no new second.
        assert_eq!(clock.changed(now), None);
        assert_eq!(clock.until, Some(until));
        // At or past it the wall clock is read again, and the end moves on.
        let later = until + Duration::from_millis(1);
        let _ = clock.changed(later);
        assert!(clock.until.is_some_and(|u| u > until));
    }

    #[test]
    fn cache_formats_once_per_second() {
        let c = DateCache::new();
        let a = c.get(784_111_777);
        assert_eq!(&a, b"Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(c.second(), 784_111_777);
        assert_eq!(c.get(784_111_778)[23..25], *b"38");
    }
}
