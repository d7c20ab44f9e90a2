//! Time as an input: the core reads no clock. An adapter reads its own
//! monotonic clock once per wakeup and passes the reading in as a
//! [`Timestamp`]; the core answers with deadlines in the same terms.

use core::time::Duration;

/// A reading of the adapter's monotonic clock: nanoseconds since an epoch
/// the adapter chose (its server's start, say), so that two readings of
/// one adapter compare and subtract. `no_std`: no clock is read here.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::Timestamp;
///
/// let t0 = Timestamp::from_nanos(1_000);
/// let t1 = t0.saturating_add(Duration::from_millis(5));
/// assert_eq!(t1.saturating_duration_since(t0), Duration::from_millis(5));
/// assert_eq!(t0.saturating_duration_since(t1), Duration::ZERO);
/// assert!(t0 < t1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    nanos: u64,
}

impl Timestamp {
    /// The reading `nanos` nanoseconds after the adapter's epoch.
    pub const fn from_nanos(nanos: u64) -> Timestamp {
        Timestamp { nanos }
    }

    /// The reading `since` after the adapter's epoch (saturating past
    /// about 584 years).
    pub fn after_epoch(since: Duration) -> Timestamp {
        Timestamp {
            nanos: u64::try_from(since.as_nanos()).unwrap_or(u64::MAX),
        }
    }

    /// Nanoseconds since the adapter's epoch.
    pub const fn as_nanos(self) -> u64 {
        self.nanos
    }

    /// Time since the adapter's epoch.
    pub const fn since_epoch(self) -> Duration {
        Duration::from_nanos(self.nanos)
    }

    /// `self` plus `d`, saturating.
    pub fn saturating_add(self, d: Duration) -> Timestamp {
        let d = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        Timestamp {
            nanos: self.nanos.saturating_add(d),
        }
    }

    /// The time from `earlier` to `self`; zero when `earlier` is later.
    pub const fn saturating_duration_since(self, earlier: Timestamp) -> Duration {
        Duration::from_nanos(self.nanos.saturating_sub(earlier.nanos))
    }
}
