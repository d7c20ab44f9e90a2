//! The server settings both adapters share: one type, one set of names and
//! defaults (each adapter's builder sets them, and keeps only its own
//! extensions, such as the std server's thread stacks). The policies in
//! this crate read them through [`ServerSettings::read_timeouts`],
//! [`ServerSettings::request_policy`] and [`ServerSettings::evict_policy`].

use core::time::Duration;

use crate::driver::{EvictPolicy, Linger, ReadTimeouts, SetupRate, Window};
use crate::{Config, ConfigOverrides, Timestamp};

/// A minimum data rate: after `grace` spent waiting on the peer, at least
/// `bytes_per_sec` for every second waited (0 bytes/s: none), as Kestrel's
/// `MinRequestBodyDataRate` and `MinResponseDataRate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Bytes per second (0: no minimum).
    pub bytes_per_sec: u64,
    /// Waiting time before the rate applies.
    pub grace: Duration,
}

impl Rate {
    /// Kestrel's default: 240 bytes/s after a grace of 10 s.
    pub const KESTREL: Rate = Rate {
        bytes_per_sec: 240,
        grace: Duration::from_secs(10),
    };

    /// No minimum rate.
    pub const NONE: Rate = Rate {
        bytes_per_sec: 0,
        grace: Duration::ZERO,
    };

    /// The waiting time at which `bytes` fall below the rate: the grace, or
    /// the time `bytes` last at this rate (`None` without a rate).
    ///
    /// ```
    /// use core::time::Duration;
    /// use http_net_conn::Rate;
    ///
    /// assert_eq!(Rate::KESTREL.due(0), Some(Duration::from_secs(10)));
    /// assert_eq!(Rate::KESTREL.due(4800), Some(Duration::from_secs(20)));
    /// assert_eq!(Rate::NONE.due(4800), None);
    /// ```
    pub fn due(&self, bytes: u64) -> Option<Duration> {
        if self.bytes_per_sec == 0 {
            return None;
        }
        let nanos = u128::from(bytes) * 1_000_000_000 / u128::from(self.bytes_per_sec);
        let lasts = Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX));
        Some(self.grace.max(lasts))
    }
}

/// The settings a server of either adapter shares, with their defaults
/// ([`ServerSettings::DEFAULT`]); each is described at the adapters'
/// builder method of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerSettings {
    /// The connection's configuration (limits, front-line profile, output
    /// high water); default [`Config::DEFAULT`] with a 16 KiB output high
    /// water (a peer that pipelines without reading holds less memory).
    pub conn: Config,
    /// Settings taken one at a time (`Server` name, front-line profile,
    /// body budget), laid over `conn` when the server is made.
    pub overrides: ConfigOverrides,
    /// Open connections at most (1,024).
    pub max_connections: usize,
    /// Open connections per peer address at most (0: no cap).
    pub max_connections_per_peer: usize,
    /// How eviction at the connection limit orders stalls (1 s).
    pub eviction_grace: Duration,
    /// The open-file limit the connection limit is fitted into, two
    /// descriptors per connection plus
    /// [`RESERVED_DESCRIPTORS`](crate::driver::RESERVED_DESCRIPTORS)
    /// (`None`: the process's, which the adapter reads when it starts
    /// serving).
    pub open_file_limit: Option<u64>,
    /// Requests per connection (1,000, as nginx's `keepalive_requests`;
    /// 0: no limit).
    pub max_requests: u64,
    /// An idle keep-alive connection (30 s).
    pub idle_timeout: Duration,
    /// The whole request head (10 s).
    pub head_timeout: Duration,
    /// A request body's stall, and the drain of one left unread (30 s).
    pub body_timeout: Duration,
    /// A response's stall (30 s).
    pub write_timeout: Duration,
    /// A connection-setup phase before the first HTTP byte (a TLS
    /// handshake), for a listener that has one (10 s); plain TCP has none.
    pub setup_timeout: Duration,
    /// The setups (TLS handshakes) each peer address may start, for a
    /// listener that has a setup step ([`SetupRate::DEFAULT`]: 64 a
    /// second, 128 at once); a connection over it is closed unanswered
    /// before it gets a slot ([`SetupRates`](crate::driver::SetupRates)).
    pub setup_rate_per_peer: SetupRate,
    /// The request body's minimum rate ([`Rate::KESTREL`]).
    pub min_body_rate: Rate,
    /// The response's minimum rate ([`Rate::KESTREL`]).
    pub min_response_rate: Rate,
    /// A whole-response deadline (none).
    pub response_timeout: Option<Duration>,
    /// After an error response, the peer's input is drained this long (2 s)
    /// ...
    pub drain_time: Duration,
    /// ... or up to this many bytes (1 MiB), so that it reads the response.
    pub drain_bytes: u64,
    /// A graceful stop waits this long for requests in flight (30 s).
    pub shutdown_timeout: Duration,
    /// `CONNECT` reaches the handler (off: `501`).
    pub tunnels: bool,
    /// Consumed input and sent output are zeroed (off).
    pub wipe: bool,
}

impl ServerSettings {
    /// The defaults of both adapters' server builders.
    pub const DEFAULT: ServerSettings = ServerSettings {
        conn: Config::DEFAULT.with_output_high_water(16 * 1024),
        overrides: ConfigOverrides::NONE,
        max_connections: 1024,
        max_connections_per_peer: 0,
        eviction_grace: Duration::from_secs(1),
        open_file_limit: None,
        max_requests: 1000,
        idle_timeout: Duration::from_secs(30),
        head_timeout: Duration::from_secs(10),
        body_timeout: Duration::from_secs(30),
        write_timeout: Duration::from_secs(30),
        setup_timeout: Duration::from_secs(10),
        setup_rate_per_peer: SetupRate::DEFAULT,
        min_body_rate: Rate::KESTREL,
        min_response_rate: Rate::KESTREL,
        response_timeout: None,
        drain_time: Duration::from_secs(2),
        drain_bytes: 1024 * 1024,
        shutdown_timeout: Duration::from_secs(30),
        tunnels: false,
        wipe: false,
    };

    /// The timeouts of the waits between handlers ([`ServerConn::set_timeouts`](crate::ServerConn::set_timeouts)).
    pub const fn read_timeouts(&self) -> ReadTimeouts {
        ReadTimeouts {
            idle: self.idle_timeout,
            head: self.head_timeout,
            body: self.body_timeout,
        }
    }

    /// What eviction weighs ([`pick_eviction`](crate::driver::pick_eviction)).
    pub fn evict_policy(&self) -> EvictPolicy {
        EvictPolicy {
            grace_ms: u64::try_from(self.eviction_grace.as_millis()).unwrap_or(u64::MAX),
            min_body_rate: self.min_body_rate.bytes_per_sec,
            min_response_rate: self.min_response_rate.bytes_per_sec,
        }
    }

    /// The connection configuration a server runs its handler with: `conn`
    /// with the [`overrides`](ServerSettings::overrides) laid over it, and,
    /// for a handler that limits request bodies itself (the adapters'
    /// `Handler::limits_request_bodies`: a tower service, which applies
    /// its own limits as it reads, as on hyper), no body budget unless one
    /// was chosen: set with `max_body_bytes`
    /// ([`ConfigOverrides::with_body_budget`]), or a `conn_config` whose
    /// budget is not the default 8 MiB. The server's own default budget
    /// would otherwise answer `413` before the handler saw the request,
    /// over a route that accepts more. Deadlines and minimum rates still
    /// bound every body.
    ///
    /// ```
    /// use http_net_conn::ServerSettings;
    ///
    /// let s = ServerSettings::DEFAULT;
    /// assert_eq!(s.conn_for(false).body_limits().body_budget(), 8 << 20);
    /// assert_eq!(s.conn_for(true).body_limits().body_budget(), 0); // none
    /// // A budget chosen stays, for every handler.
    /// let chosen = ServerSettings {
    ///     overrides: s.overrides.with_body_budget(1 << 30),
    ///     ..s
    /// };
    /// assert_eq!(chosen.conn_for(true).body_limits().body_budget(), 1 << 30);
    /// ```
    #[must_use]
    pub const fn conn_for(&self, handler_limits_bodies: bool) -> Config {
        let conn = self.overrides.apply(self.conn);
        let default = ServerSettings::DEFAULT.conn.body_limits().body_budget();
        let chosen =
            self.overrides.body_budget().is_some() || conn.body_limits().body_budget() != default;
        if handler_limits_bodies && !chosen {
            conn.with_body_limits(conn.body_limits().with_body_budget(0))
        } else {
            conn
        }
    }
}

impl ServerSettings {
    /// The linger after an error response that begins at `now`
    /// ([`drain_time`](ServerSettings::drain_time),
    /// [`drain_bytes`](ServerSettings::drain_bytes)); `None`: close at once.
    pub fn linger(&self, now: Timestamp) -> Option<Linger> {
        Linger::start(now, self.drain_time, self.drain_bytes)
    }

    /// The graceful stop that begins at `now`: requests in flight have
    /// until its end ([`shutdown_timeout`](ServerSettings::shutdown_timeout)).
    pub fn stop_window(&self, now: Timestamp) -> Window {
        Window::start(now, self.shutdown_timeout)
    }
}

impl Default for ServerSettings {
    fn default() -> ServerSettings {
        ServerSettings::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{NextRead, SlotState};
    use crate::Stage;

    fn at(ms: u64) -> Timestamp {
        Timestamp::from_nanos(ms * 1_000_000)
    }

    #[test]
    fn the_error_linger_is_bounded_by_time_and_bytes_from_the_settings() {
        let s = ServerSettings {
            drain_time: Duration::from_millis(100),
            drain_bytes: 10,
            ..ServerSettings::DEFAULT
        };
        let mut l = s.linger(at(1_000)).unwrap();
        assert_eq!(l.until(), at(1_100));
        assert_eq!(l.wait(at(1_040)), Some(Duration::from_millis(60)));
        assert_eq!(l.wait(at(1_100)), None);
        assert!(l.read(9));
        assert!(!l.read(1));
        let off = ServerSettings {
            drain_time: Duration::ZERO,
            ..ServerSettings::DEFAULT
        };
        assert!(off.linger(at(0)).is_none());
        let off = ServerSettings {
            drain_bytes: 0,
            ..ServerSettings::DEFAULT
        };
        assert!(off.linger(at(0)).is_none());
    }

    #[test]
    fn a_refusal_lingers_far_less_than_an_error_response() {
        let mut l = Linger::after_refusal(at(0));
        assert_eq!(l.until(), at(250));
        assert!(l.read(16 * 1024 - 1));
        assert!(!l.read(1));
        let e = ServerSettings::DEFAULT.linger(at(0)).unwrap();
        assert!(l.until() < e.until());
    }

    #[test]
    fn the_setup_wait_is_one_deadline_from_admission_shown_as_setup() {
        let s = ServerSettings {
            setup_timeout: Duration::from_millis(300),
            ..ServerSettings::DEFAULT
        };
        // Admitted at 2 s on the simulated clock: done by 2.3 s, however
        // late the adapter asks.
        match s.setup_wait(at(2_000)) {
            NextRead::Wait {
                until,
                stage,
                slot,
                stop_closes,
            } => {
                assert_eq!(until, at(2_300));
                assert_eq!(stage, Stage::Setup);
                assert_eq!(slot, SlotState::Setup);
                assert!(stop_closes, "no request in flight: a stop closes it");
            }
            other => panic!("{other:?}"),
        }
        // The default: 10 s, the head's.
        let d = ServerSettings::DEFAULT;
        assert_eq!(d.setup_timeout, d.head_timeout);
        assert!(matches!(
            d.setup_wait(at(0)),
            NextRead::Wait { until, .. } if until == at(10_000)
        ));
    }

    #[test]
    fn a_setup_past_the_grace_is_evicted_before_a_young_head_and_after_an_idle_one() {
        use crate::driver::{pick_eviction, Summary};
        let p = ServerSettings::DEFAULT.evict_policy();
        let slots = [
            (1, Summary::new(SlotState::Head, 10)),
            (2, Summary::new(SlotState::Setup, 1_500)),
            (3, Summary::new(SlotState::Idle, 1)),
        ];
        assert_eq!(pick_eviction(slots, &p), Some((3, Stage::Idle)));
        assert_eq!(
            pick_eviction(slots[..2].iter().copied(), &p),
            Some((2, Stage::Setup))
        );
        // A young setup ranks as a young head: the longest in its state first.
        let young = [
            (1, Summary::new(SlotState::Head, 10)),
            (2, Summary::new(SlotState::Setup, 20)),
        ];
        assert_eq!(pick_eviction(young, &p), Some((2, Stage::Setup)));
    }

    #[test]
    fn the_stop_window_is_the_shutdown_timeout() {
        let s = ServerSettings {
            shutdown_timeout: Duration::from_secs(3),
            ..ServerSettings::DEFAULT
        };
        let w = s.stop_window(at(500));
        assert!(!w.passed(at(3_499)));
        assert!(w.passed(at(3_500)));
        assert_eq!(w.left(at(500)), Some(Duration::from_secs(3)));
    }

    #[test]
    fn only_a_handler_that_limits_bodies_loses_the_default_budget_and_only_it() {
        let budget = |s: &ServerSettings, own: bool| s.conn_for(own).body_limits().body_budget();
        let d = ServerSettings::DEFAULT;
        assert_eq!((budget(&d, false), budget(&d, true)), (8 << 20, 0));
        // `max_body_bytes`, even of the default's value, is a choice.
        for n in [1 << 10, 8 << 20, 0] {
            let s = ServerSettings {
                overrides: d.overrides.with_body_budget(n),
                ..d
            };
            assert_eq!((budget(&s, false), budget(&s, true)), (n, n));
        }
        // A `conn_config` with its own budget keeps it; with the default
        // one (its head limits changed, say) it chose none.
        let own = ServerSettings {
            conn: Config::DEFAULT.with_body_limits(d.conn.body_limits().with_body_budget(1 << 20)),
            ..d
        };
        assert_eq!(budget(&own, true), 1 << 20);
        let heads = ServerSettings {
            conn: Config::DEFAULT.with_output_high_water(4096),
            ..d
        };
        assert_eq!(budget(&heads, true), 0);
        // Everything else is the configuration's, overrides laid over it.
        let named = ServerSettings {
            overrides: d.overrides.with_front_line(true),
            ..d
        };
        assert!(named.conn_for(true).head_limits().front_line());
        assert_eq!(named.conn_for(false), named.overrides.apply(named.conn));
    }
}
