//! The eviction order both servers use at the connection limit
//! (`pick_eviction`), without I/O: the summaries stand for what the
//! adapters' slots show.

use http_net_conn::driver::{pick_eviction, rank, EvictPolicy, Flow, SlotState, Summary};
use http_net_conn::Stage;

const P: EvictPolicy = EvictPolicy {
    grace_ms: 1000,
    min_body_rate: 240,
    min_response_rate: 240,
};

fn s(state: SlotState, age_ms: u64) -> Summary {
    Summary::new(state, age_ms)
}

/// A flow that has moved `bytes` in `age_ms`, waiting on the peer all
/// that time, stalled for `stalled_ms`.
fn flow(age_ms: u64, bytes: u64, stalled_ms: Option<u64>) -> Flow {
    Flow {
        bytes,
        age_ms: Some(age_ms),
        waited_ms: age_ms,
        stalled_ms,
    }
}

/// A handler reading a request body (see [`flow`]).
fn body(age_ms: u64, bytes: u64, stalled_ms: Option<u64>) -> Summary {
    let mut x = s(SlotState::Handler, age_ms);
    x.body = flow(age_ms, bytes, stalled_ms);
    x
}

/// A handler writing a response (see [`flow`]).
fn response(age_ms: u64, bytes: u64, stalled_ms: Option<u64>) -> Summary {
    let mut x = s(SlotState::Handler, age_ms);
    x.response = flow(age_ms, bytes, stalled_ms);
    x
}

/// The keys of `slots` in the order eviction takes them (the picked one
/// removed each time), the never-evicted ones left out.
fn order(mut slots: Vec<(&'static str, Summary)>) -> Vec<(&'static str, Stage)> {
    let mut out = Vec::new();
    while let Some((k, why)) = pick_eviction(slots.iter().copied(), &P) {
        out.push((k, why));
        slots.retain(|(x, _)| *x != k);
    }
    out
}

#[test]
fn the_tiers_closing_idle_old_stalls_then_young_ones() {
    let got = order(vec![
        ("young head", s(SlotState::Head, 10)),
        ("fresh, old", s(SlotState::Fresh, 5000)),
        ("old head", s(SlotState::Head, 1500)),
        ("idle", s(SlotState::Idle, 1)),
        ("closing", s(SlotState::Closing, 0)),
        ("old drain", s(SlotState::Drain, 1200)),
        ("busy", s(SlotState::Handler, 9000)),
    ]);
    assert_eq!(
        got,
        [
            ("closing", Stage::Idle),
            ("idle", Stage::Idle),
            ("old head", Stage::Head),
            ("old drain", Stage::Body),
            ("fresh, old", Stage::Idle),
            ("young head", Stage::Head),
        ]
    );
}

#[test]
fn a_head_is_evictable_whatever_its_age() {
    // Issue 22: a wave of slowloris heads younger than the grace held every
    // slot of the std server.
    for age in [0, 1, 50, 999, 1000, 60_000] {
        assert!(rank(&s(SlotState::Head, age), &P).is_some(), "{age}");
    }
}

#[test]
fn within_a_tier_the_fewest_bytes_per_second_then_the_longest_in_its_state() {
    let got = order(vec![
        // Both past the grace and below 240 bytes/s since they started.
        ("body 200 B/s", body(2000, 400, None)),
        ("body 100 B/s", body(2000, 200, None)),
        // 0 bytes/s, the younger of two heads past the grace.
        ("head 1.5 s", s(SlotState::Head, 1500)),
        ("head 3 s", s(SlotState::Head, 3000)),
    ]);
    let keys: Vec<&str> = got.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        keys,
        ["head 3 s", "head 1.5 s", "body 100 B/s", "body 200 B/s"]
    );
}

#[test]
fn a_handler_moving_at_its_rates_is_never_evicted() {
    assert_eq!(rank(&s(SlotState::Handler, 60_000), &P), None);
    // 10 kB/s for 5 s, not stalled.
    assert_eq!(rank(&body(5000, 50_000, None), &P), None);
    assert_eq!(rank(&response(5000, 50_000, None), &P), None);
    // A young body above its rate.
    assert_eq!(rank(&body(300, 4096, None), &P), None);
}

#[test]
fn a_body_or_response_below_its_rate_or_stalled() {
    // Past the grace, below the rate since it started: tier 2, the body.
    let (old, why) = rank(&body(2000, 10, None), &P).unwrap();
    assert_eq!(why, Stage::Body);
    // Younger than the grace, below the rate since it started: tier 3.
    let (young, _) = rank(&body(300, 0, None), &P).unwrap();
    assert!(old < young);
    // Above its rate but stalled the grace: tier 2.
    let (stalled, _) = rank(&body(5000, 50_000, Some(1000)), &P).unwrap();
    assert!(stalled < young);
    // A response whose peer took no byte for 200 ms, above its rate so far.
    let (r, why) = rank(&response(300, 4096, Some(200)), &P).unwrap();
    assert_eq!(why, Stage::Write);
    assert!(old < r);
    assert_eq!(rank(&response(300, 4096, Some(199)), &P), None);
}

#[test]
fn with_no_minimum_rates_only_stalls_count() {
    let p = EvictPolicy {
        min_body_rate: 0,
        min_response_rate: 0,
        ..P
    };
    assert_eq!(rank(&body(5000, 1, None), &p), None);
    assert_eq!(rank(&body(5000, 1, Some(1000)), &p).unwrap().1, Stage::Body);
    assert_eq!(
        rank(&response(100, 1, Some(200)), &p).unwrap().1,
        Stage::Write
    );
}

#[test]
fn a_handler_is_evicted_for_its_body_before_its_response() {
    let mut x = body(2000, 0, None);
    x.response = flow(2000, 0, Some(2000));
    assert_eq!(rank(&x, &P).unwrap().1, Stage::Body);
}

#[test]
fn nothing_to_evict() {
    let none: [(u8, Summary); 0] = [];
    assert_eq!(pick_eviction(none, &P), None);
    assert_eq!(
        pick_eviction([(1, s(SlotState::Handler, 10))], &P),
        None,
        "the newcomer gets 503"
    );
}

#[test]
fn a_connection_setup_ranks_as_a_head() {
    // A TLS handshake: stalled past the grace, it goes with old heads.
    let got = order(vec![
        ("young setup", s(SlotState::Setup, 10)),
        ("old setup", s(SlotState::Setup, 2000)),
        ("old head", s(SlotState::Head, 1500)),
        ("idle", s(SlotState::Idle, 0)),
    ]);
    assert_eq!(
        got,
        [
            ("idle", Stage::Idle),
            ("old setup", Stage::Setup),
            ("old head", Stage::Head),
            ("young setup", Stage::Setup),
        ]
    );
}
