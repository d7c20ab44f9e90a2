//! The `Date` field value (RFC 9110 §5.6.7, IMF-fixdate), formatted at most
//! once a second per connection.

use std::time::{SystemTime, UNIX_EPOCH};

const DAYS: &[u8; 21] = b"SunMonTueWedThuFriSat";
const MONTHS: &[u8; 36] = b"JanFebMarAprMayJunJulAugSepOctNovDec";

/// The IMF-fixdate of a Unix time in seconds (clamped to the year 9999).
pub(crate) fn imf_fixdate(unix_secs: u64) -> [u8; 29] {
    let secs = unix_secs.min(253_402_300_799);
    let days = secs / 86_400;
    let s = secs % 86_400;
    // Days to a civil date (proleptic Gregorian, eras of 400 years).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    let mut out = *b"Thu, 01 Jan 1970 00:00:00 GMT";
    let wd = ((days + 4) % 7) as usize * 3;
    out[..3].copy_from_slice(&DAYS[wd..wd + 3]);
    let m = (month as usize - 1) * 3;
    out[8..11].copy_from_slice(&MONTHS[m..m + 3]);
    for (at, v) in [
        (5, day),
        (12, year / 100),
        (14, year % 100),
        (17, s / 3600),
        (20, s / 60 % 60),
        (23, s % 60),
    ] {
        out[at] = b'0' + (v / 10 % 10) as u8;
        out[at + 1] = b'0' + (v % 10) as u8;
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::imf_fixdate;

    #[test]
    fn known_dates() {
        assert_eq!(&imf_fixdate(0), b"Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(&imf_fixdate(784_111_777), b"Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(&imf_fixdate(951_782_400), b"Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(&imf_fixdate(978_307_199), b"Sun, 31 Dec 2000 23:59:59 GMT");
        assert_eq!(
            &imf_fixdate(4_102_444_800),
            b"Fri, 01 Jan 2100 00:00:00 GMT"
        );
        assert_eq!(&imf_fixdate(u64::MAX), b"Fri, 31 Dec 9999 23:59:59 GMT");
    }
}
