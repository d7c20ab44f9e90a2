//! How many connection setups (TLS handshakes) each peer may start: the
//! bound on what a flood of complete ClientHellos costs a server. A
//! handshake is a key exchange and a signature, about 0.2 ms of a core,
//! and a ClientHello costs its sender nothing (one captured hello can be
//! sent again and again), so one peer could otherwise keep every core
//! busy. The adapters ask [`SetupRates::admit`] before a connection of a
//! listener with a setup step gets a slot, and close it unanswered when
//! the peer is over its rate; the decision and its state are here.

use alloc::collections::BTreeMap;
use core::time::Duration;

use crate::Timestamp;

/// The connection setups (TLS handshakes) one peer address may start:
/// `per_sec` a second on average and `burst` at once (a token bucket,
/// kept as GCRA's theoretical arrival time). `per_sec` 0: no limit.
///
/// ```
/// use http_net_conn::driver::SetupRate;
/// assert_eq!(SetupRate::DEFAULT, SetupRate { per_sec: 64, burst: 128 });
/// assert!(SetupRate::NONE.is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupRate {
    /// Setups a second, on average (0: no limit).
    pub per_sec: u32,
    /// Setups at once, from a peer that started none for a while (at
    /// least 1 is taken).
    pub burst: u32,
}

impl SetupRate {
    /// No limit.
    pub const NONE: SetupRate = SetupRate {
        per_sec: 0,
        burst: 0,
    };

    /// The servers' default: 64 a second, 128 at once, per peer address.
    pub const DEFAULT: SetupRate = SetupRate {
        per_sec: 64,
        burst: 128,
    };

    /// Whether it sets no limit.
    pub const fn is_none(&self) -> bool {
        self.per_sec == 0
    }

    /// The time one setup uses of the budget (`None`: no limit).
    fn interval(&self) -> Option<Duration> {
        match self.per_sec {
            0 => None,
            n => Some(Duration::from_nanos(1_000_000_000 / u64::from(n))),
        }
    }
}

/// The setup budgets of the peers a server has seen lately, by peer
/// address `K`: [`admit`](SetupRates::admit) says whether a peer may start
/// one more setup now. A peer is remembered only while its budget is not
/// full again; at [`SetupRates::MAX_PEERS`] peers over their budget at
/// once (a flood from that many addresses, which no per-peer bound
/// stops), a new peer is admitted without being remembered.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{Timestamp};
/// use http_net_conn::driver::{SetupRate, SetupRates};
///
/// let mut r = SetupRates::new(SetupRate { per_sec: 10, burst: 2 });
/// let t0 = Timestamp::from_nanos(1_000_000_000);
/// assert!(r.admit("a", t0) && r.admit("a", t0)); // the burst ...
/// assert!(!r.admit("a", t0)); // ... then over the rate
/// assert!(r.admit("b", t0)); // another peer has its own budget
/// assert!(r.admit("a", t0.saturating_add(Duration::from_millis(100)))); // 1/10 s later
/// ```
#[derive(Clone, Debug)]
pub struct SetupRates<K> {
    rate: SetupRate,
    /// Each remembered peer's theoretical arrival time: when its budget
    /// is whole again.
    peers: BTreeMap<K, Timestamp>,
}

impl<K: Ord> SetupRates<K> {
    /// The most peers remembered at once.
    pub const MAX_PEERS: usize = 4096;

    /// No peer seen yet, under `rate`.
    pub const fn new(rate: SetupRate) -> SetupRates<K> {
        SetupRates {
            rate,
            peers: BTreeMap::new(),
        }
    }

    /// Whether `peer` may start a setup at `now` (and if so, the setup is
    /// counted against its budget). Always `true` without a limit.
    pub fn admit(&mut self, peer: K, now: Timestamp) -> bool {
        let Some(interval) = self.rate.interval() else {
            return true;
        };
        let window = interval.saturating_mul(self.rate.burst.max(1));
        let known = self.peers.get(&peer).copied();
        let tat = known.filter(|&t| t > now).unwrap_or(now);
        let next = tat.saturating_add(interval);
        if next.saturating_duration_since(now) > window {
            return false;
        }
        if known.is_none() && self.peers.len() >= Self::MAX_PEERS {
            // Forget the peers whose budget is whole again.
            self.peers.retain(|_, t| *t > now);
            if self.peers.len() >= Self::MAX_PEERS {
                return true;
            }
        }
        self.peers.insert(peer, next);
        true
    }

    /// Peers remembered now.
    pub fn peers(&self) -> usize {
        self.peers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> Timestamp {
        Timestamp::from_nanos(ms * 1_000_000)
    }

    #[test]
    fn a_peer_gets_its_burst_then_its_rate() {
        let mut r = SetupRates::new(SetupRate {
            per_sec: 100,
            burst: 5,
        });
        let admitted = (0..20).filter(|_| r.admit(1u32, at(1_000))).count();
        assert_eq!(admitted, 5);
        // One more every 10 ms.
        assert!(!r.admit(1, at(1_009)));
        assert!(r.admit(1, at(1_010)));
        assert!(!r.admit(1, at(1_010)));
        // Over a second: 100, whatever the peer tries.
        let mut n = 0;
        for ms in 1_011..2_011 {
            for _ in 0..10 {
                n += usize::from(r.admit(1, at(ms)));
            }
        }
        assert_eq!(n, 100);
        // Other peers are untouched.
        assert!(r.admit(2, at(2_010)));
    }

    #[test]
    fn a_refused_attempt_costs_nothing_and_a_quiet_peer_is_forgotten() {
        let mut r = SetupRates::new(SetupRate {
            per_sec: 10,
            burst: 1,
        });
        assert!(r.admit("p", at(0)));
        for _ in 0..1000 {
            assert!(!r.admit("p", at(50)));
        }
        // The refusals did not push the next one back.
        assert!(r.admit("p", at(100)));
        // A table full of peers within their budget.
        let mut s = SetupRates::new(SetupRate {
            per_sec: 1,
            burst: 1,
        });
        for i in 0..SetupRates::<u32>::MAX_PEERS as u32 {
            assert!(s.admit(i, at(0)));
        }
        assert_eq!(s.peers(), SetupRates::<u32>::MAX_PEERS);
        // Full of peers within their budget: a newcomer is admitted, not
        // remembered; a remembered peer is still bounded.
        assert!(s.admit(u32::MAX, at(10)));
        assert_eq!(s.peers(), SetupRates::<u32>::MAX_PEERS);
        assert!(!s.admit(0, at(10)));
        // A second later every budget is whole: room again.
        assert!(s.admit(u32::MAX, at(1_000)));
        assert_eq!(s.peers(), 1);
    }

    #[test]
    fn no_limit_admits_all_and_remembers_none() {
        let mut r = SetupRates::new(SetupRate::NONE);
        assert!((0..10_000).all(|_| r.admit(7u8, at(0))));
        assert_eq!(r.peers(), 0);
    }
}
