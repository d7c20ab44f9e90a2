//! A transfer's pace (`Meter::deadline`) with a simulated clock: the stall
//! timeout from the last progress, the minimum rate against the time spent
//! waiting, and the whole deadline.

use core::time::Duration;

use http_net_conn::driver::{Bound, Meter};
use http_net_conn::{Rate, Timestamp};

fn at(secs: u64) -> Timestamp {
    Timestamp::from_nanos(0).saturating_add(Duration::from_secs(secs))
}

const RATE: Rate = Rate {
    bytes_per_sec: 100,
    grace: Duration::from_secs(2),
};
const STALL: Duration = Duration::from_secs(30);

#[test]
fn only_time_spent_waiting_counts_against_the_rate() {
    let mut m = Meter::new();
    // Nothing moved, nothing waited: the grace bounds the wait.
    assert_eq!(m.deadline(at(0), at(0), STALL, RATE), (at(2), Bound::Rate));
    // 500 bytes earn five seconds of waiting at 100 B/s; one is spent.
    m.add(500);
    m.waited(Duration::from_secs(1));
    assert_eq!(m.deadline(at(0), at(0), STALL, RATE), (at(4), Bound::Rate));
    // Time not spent waiting (a handler's own pause) changes nothing.
    assert_eq!(
        m.deadline(at(60), at(60), STALL, RATE),
        (at(64), Bound::Rate)
    );
    // A short stall timeout comes first.
    let short = Duration::from_secs(1);
    assert_eq!(m.deadline(at(0), at(0), short, RATE), (at(1), Bound::Stall));
    // All earned time spent: the next wait ends at once.
    m.waited(Duration::from_secs(9));
    assert_eq!(m.deadline(at(7), at(7), STALL, RATE), (at(7), Bound::Rate));
    // Off: only the stall timeout.
    assert_eq!(
        m.deadline(at(0), at(0), Duration::from_secs(3), Rate::NONE),
        (at(3), Bound::Stall)
    );
}

#[test]
fn the_stall_runs_from_the_last_progress() {
    let m = Meter::new();
    // A wait that starts 20 s after the last byte has 10 s left.
    assert_eq!(
        m.deadline(at(120), at(100), STALL, Rate::NONE),
        (at(130), Bound::Stall)
    );
}

#[test]
fn the_whole_deadline_comes_first_when_it_is_sooner() {
    let mut m = Meter::new();
    m.restart(Some(at(5)));
    assert_eq!(m.deadline(at(0), at(0), STALL, RATE), (at(2), Bound::Rate));
    assert_eq!(
        m.deadline(at(0), at(0), STALL, Rate::NONE),
        (at(5), Bound::Deadline)
    );
    m.add(10);
    m.waited(Duration::from_secs(1));
    // A restart forgets the counts and sets the new deadline.
    m.restart(None);
    assert_eq!(
        (m.bytes(), m.time_waited(), m.until()),
        (0, Duration::ZERO, None)
    );
}

#[test]
fn start_sets_the_whole_deadline_from_now() {
    let mut m = Meter::new();
    m.add(10);
    m.start(at(3), Some(Duration::from_secs(5)));
    assert_eq!((m.bytes(), m.until()), (0, Some(at(8))));
    m.start(at(3), None);
    assert_eq!(m.until(), None);
}
