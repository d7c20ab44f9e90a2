//! The `Date` field value (IMF-fixdate, RFC 9110 §5.6.7), formatted by hand
//! at most once a second and shared by every connection of a server.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::lock::lock;

const DAY_NAMES: [&[u8; 3]; 7] = [b"Sun", b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat"];
const MONTH_NAMES: [&[u8; 3]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];
/// 9999-12-31T23:59:59Z: IMF-fixdate has four year digits.
const MAX_SECS: u64 = 253_402_300_799;

/// Formats seconds since the Unix epoch as an IMF-fixdate, e.g.
/// `Sun, 06 Nov 1994 08:49:37 GMT` (always 29 bytes). Times after the year
/// 9999 are written as its last second.
///
/// ```
/// # mod http_net { pub mod io { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// assert_eq!(&http_net::io::imf_fixdate(784_111_777), b"Sun, 06 Nov 1994 08:49:37 GMT");
/// ```
pub fn imf_fixdate(unix_secs: u64) -> [u8; 29] {
    let secs = unix_secs.min(MAX_SECS);
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    // 1970-01-01 was a Thursday (index 4 with Sunday = 0).
    let weekday = ((days + 4) % 7) as usize;
    let mut out = *b"Thu, 01 Jan 1970 00:00:00 GMT";
    out[0..3].copy_from_slice(DAY_NAMES[weekday]);
    two_digits(&mut out[5..7], day);
    out[8..11].copy_from_slice(MONTH_NAMES[(month - 1) as usize]);
    two_digits(&mut out[12..14], (year / 100) as u32);
    two_digits(&mut out[14..16], (year % 100) as u32);
    two_digits(&mut out[17..19], (rem / 3600) as u32);
    two_digits(&mut out[20..22], ((rem / 60) % 60) as u32);
    two_digits(&mut out[23..25], (rem % 60) as u32);
    out
}

fn two_digits(out: &mut [u8], v: u32) {
    out[0] = b'0' + (v / 10 % 10) as u8;
    out[1] = b'0' + (v % 10) as u8;
}

/// Days since 1970-01-01 to (year, month 1..=12, day 1..=31) in the proleptic
/// Gregorian calendar (H. Hinnant's `civil_from_days`, for non-negative days).
fn civil_from_days(days: u64) -> (u64, u32, u32) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097; // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11], March = 0
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

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
    fn known_dates() {
        assert_eq!(&imf_fixdate(0), b"Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(&imf_fixdate(784_111_777), b"Sun, 06 Nov 1994 08:49:37 GMT");
        // Leap day, and the end of a leap century year.
        assert_eq!(&imf_fixdate(951_782_400), b"Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(&imf_fixdate(978_307_199), b"Sun, 31 Dec 2000 23:59:59 GMT");
        assert_eq!(
            &imf_fixdate(1_709_251_199),
            b"Thu, 29 Feb 2024 23:59:59 GMT"
        );
        assert_eq!(
            &imf_fixdate(4_102_444_800),
            b"Fri, 01 Jan 2100 00:00:00 GMT"
        );
        assert_eq!(&imf_fixdate(u64::MAX), b"Fri, 31 Dec 9999 23:59:59 GMT");
    }

    /// Walks day by day from 1970 to 2400 with a naive calendar and checks
    /// every day's date and weekday.
    #[test]
    fn every_day_matches_a_naive_calendar() {
        let (mut y, mut m, mut d, mut wd) = (1970u64, 1u32, 1u32, 4usize);
        for days in 0..(430 * 366) {
            let s = imf_fixdate(days * 86_400 + 43_200);
            let expect = format!(
                "{}, {:02} {} {:04} 12:00:00 GMT",
                core::str::from_utf8(DAY_NAMES[wd]).unwrap(),
                d,
                core::str::from_utf8(MONTH_NAMES[m as usize - 1]).unwrap(),
                y
            );
            assert_eq!(core::str::from_utf8(&s).unwrap(), expect, "day {days}");
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            let len = match m {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            wd = (wd + 1) % 7;
            d += 1;
            if d > len {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
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
