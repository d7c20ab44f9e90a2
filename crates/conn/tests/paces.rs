//! The paces of a request's transfers, owned by the server connection
//! (`ServerConn::transfer_until`, `transfer_moved`, `start_transfers`):
//! what bounds a wait of the body or of the responses, and what reaching
//! it is, with a simulated clock. No sleeps, no sockets.

use core::time::Duration;

use http_net_conn::driver::{Spent, Transfer};
use http_net_conn::{Config, Rate, ServerConn, ServerSettings, Stage, Timestamp};

fn at(ms: u64) -> Timestamp {
    Timestamp::from_nanos(0).saturating_add(Duration::from_millis(ms))
}

fn conn(set: impl FnOnce(&mut ServerSettings)) -> ServerConn {
    let mut s = ServerSettings::DEFAULT;
    set(&mut s);
    let mut conn = ServerConn::new(Config::DEFAULT);
    conn.set_paces(&s);
    conn
}

const STALL_BODY: Spent = Spent {
    stage: Stage::Body,
    too_slow: false,
};
const SLOW_BODY: Spent = Spent {
    stage: Stage::Body,
    too_slow: true,
};
const STALL_WRITE: Spent = Spent {
    stage: Stage::Write,
    too_slow: false,
};
const SLOW_WRITE: Spent = Spent {
    stage: Stage::Write,
    too_slow: true,
};

/// The body's wait ends at the stall timeout after the last progress
/// when no rate is set, and at the rate's grace (less the time waited)
/// when that comes first; each is reported as what it is.
#[test]
fn a_body_wait_ends_by_stall_or_by_rate() {
    let mut c = conn(|s| {
        s.body_timeout = Duration::from_secs(5);
        s.min_body_rate = Rate {
            bytes_per_sec: 0,
            grace: Duration::ZERO,
        };
    });
    // A retry within one read: the stall counts from the progress.
    assert_eq!(
        c.transfer_until(Transfer::Body, at(2000), at(1000)),
        (at(6000), STALL_BODY)
    );
    let mut c2 = conn(|s| {
        s.body_timeout = Duration::from_secs(30);
        s.min_body_rate = Rate {
            bytes_per_sec: 100,
            grace: Duration::from_secs(2),
        };
    });
    assert_eq!(
        c2.transfer_until(Transfer::Body, at(0), at(0)),
        (at(2000), SLOW_BODY)
    );
    // 500 bytes earn 5 s of waiting; 1 s was waited.
    c2.transfer_moved(Transfer::Body, Duration::from_secs(1), 500);
    assert_eq!(
        c2.transfer_until(Transfer::Body, at(0), at(0)),
        (at(4000), SLOW_BODY)
    );
    assert_eq!(c2.transfer(Transfer::Body).bytes(), 500);
    // The responses' meter is another.
    assert_eq!(c2.transfer(Transfer::Response).bytes(), 0);
    // A new request counts afresh.
    c2.start_transfers(|| at(0));
    assert_eq!(c2.transfer(Transfer::Body).bytes(), 0);
    c.transfer_moved(Transfer::Body, Duration::ZERO, 1);
    c.reset();
    assert_eq!(c.transfer(Transfer::Body).bytes(), 0);
    // The bounds stay across a reset.
    assert_eq!(
        c.transfer_until(Transfer::Body, at(0), at(0)),
        (at(5000), STALL_BODY)
    );
}

/// The responses' wait ends at the write timeout, the minimum response
/// rate or the whole-response deadline (from the request's start, and
/// only when one is set: no time is asked otherwise); a deadline is a
/// timeout, not a rate.
#[test]
fn a_response_wait_ends_by_stall_rate_or_whole_deadline() {
    let mut c = conn(|s| {
        s.write_timeout = Duration::from_secs(3);
        s.min_response_rate = Rate {
            bytes_per_sec: 1000,
            grace: Duration::from_secs(5),
        };
        s.response_timeout = Some(Duration::from_secs(4));
    });
    assert_eq!(c.transfer_stall(Transfer::Response), Duration::from_secs(3));
    c.start_transfers(|| at(1000));
    assert_eq!(c.transfer(Transfer::Response).until(), Some(at(5000)));
    assert_eq!(
        c.transfer_until(Transfer::Response, at(1000), at(1000)),
        (at(4000), STALL_WRITE)
    );
    assert_eq!(
        c.transfer_until(Transfer::Response, at(3000), at(3000)),
        (at(5000), STALL_WRITE)
    );
    // Without a whole deadline the clock is not asked.
    let mut c = conn(|s| {
        s.write_timeout = Duration::from_secs(30);
        s.min_response_rate = Rate {
            bytes_per_sec: 1000,
            grace: Duration::from_secs(5),
        };
    });
    c.start_transfers(|| unreachable!("no whole deadline: no time asked"));
    assert_eq!(c.transfer(Transfer::Response).until(), None);
    assert_eq!(
        c.transfer_until(Transfer::Response, at(0), at(0)),
        (at(5000), SLOW_WRITE)
    );
    // A connection's own response before a request: no whole deadline.
    c.restart_transfers();
    assert_eq!(c.transfer(Transfer::Response).until(), None);
}

/// The stage a connection timed out in is the core's, for the server's
/// counters: the first deadline or pace that ran out (a head's through
/// `handle_timeout`, a transfer's through `transfer_spent`), none for a
/// wakeup before the deadline, and none again for the next peer.
#[test]
fn the_first_timeout_is_the_connections() {
    let mut c = conn(|_| {});
    assert_eq!(c.timed_out_in(), None);
    let _ = c.recv(b"GET / HT");
    assert!(matches!(
        c.poll_event(),
        Ok(http_net_conn::ServerEvent::NeedInput)
    ));
    let until = c.poll_timeout(at(0)).unwrap();
    assert_eq!(c.handle_timeout(at(1)), None);
    assert_eq!(c.timed_out_in(), None, "not yet");
    assert!(c.handle_timeout(until).is_some());
    assert_eq!(c.timed_out_in(), Some(Stage::Head));
    assert_eq!(c.transfer_spent(SLOW_WRITE), SLOW_WRITE);
    assert_eq!(c.timed_out_in(), Some(Stage::Head), "the first counts");
    c.reset();
    assert_eq!(c.timed_out_in(), None);
    let _ = c.transfer_spent(STALL_BODY);
    assert_eq!(c.timed_out_in(), Some(Stage::Body));
}
