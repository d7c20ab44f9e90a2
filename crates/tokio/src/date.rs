//! The `Date` field value (RFC 9110 §5.6.7, IMF-fixdate, formatted by
//! `http_net_conn::imf_fixdate`), set at most once a second per connection.
//!
//! The server's accept loop reads the wall clock once a second, at each
//! second's start, into [`Shared`](crate::shared::Shared); a connection
//! compares that second with the one it last formatted, so that serving a
//! request reads no clock for its `Date` (a clock read costs about as much
//! as parsing a short field on a virtual machine).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http_net_conn::imf_fixdate;

/// Seconds since the Unix epoch (0 if the clock is before it).
pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// How long until the wall clock's next whole second (at most a second).
pub(crate) fn until_next_second() -> Duration {
    let sub = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    Duration::from_nanos(u64::from(1_000_000_000 - sub.min(999_999_999)))
}

/// Gives a connection the current `Date` when the second changed.
#[derive(Debug, Default)]
pub(crate) struct DateClock {
    last: u64,
}

impl DateClock {
    /// Gives `conn` the `Date` of `now` (seconds since the Unix epoch) when
    /// it is not the second last given.
    pub(crate) fn refresh(&mut self, conn: &mut http_net_conn::ServerConn, now: u64) {
        if now != self.last || self.last == 0 {
            conn.set_date(&imf_fixdate(now));
            self.last = now;
        }
    }
}
