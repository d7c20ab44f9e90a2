//! The `Date` field value (RFC 9110 §5.6.7, IMF-fixdate, formatted by
//! `http_net_conn::imf_fixdate`), set at most once a second per connection.

use std::time::{SystemTime, UNIX_EPOCH};

use http_net_conn::imf_fixdate;

/// Seconds since the Unix epoch (0 if the clock is before it).
pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Gives a connection the current `Date` when the second changed.
#[derive(Debug, Default)]
pub(crate) struct DateClock {
    last: u64,
}

impl DateClock {
    pub(crate) fn refresh(&mut self, conn: &mut http_net_conn::ServerConn) {
        let now = now_secs();
        if now != self.last || self.last == 0 {
            conn.set_date(&imf_fixdate(now));
            self.last = now;
        }
    }
}
