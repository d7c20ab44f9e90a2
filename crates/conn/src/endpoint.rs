//! A server's admission as one Sans-IO state machine, owned by its accept
//! loop through one `&mut` (as quinn-proto's `Endpoint` is): a connection
//! taken from the listener is [offered](Endpoint::offer), and the endpoint
//! answers accept, evict one connection then accept, or refuse. It holds
//! the per-peer cap, the setup rate, the connection limit fitted into the
//! open-file limit, the eviction pick, the refusals in flight, and counts
//! what it decides in the server's one [`Counters`](crate::Counters).
//!
//! Each open connection publishes what it does lock-free into its own
//! [`SlotCell`] (an atomic store per change of state) and its flows
//! ([`FlowGauge`](crate::driver::FlowGauge)); the endpoint reads them only
//! when an offer finds the limit reached.

use alloc::collections::BTreeMap;
use core::fmt;
use core::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::counters::{stage_at, stage_index};
use crate::driver::{
    pick_eviction, EvictPolicy, Flow, Linger, LiveCounters, SetupRates, SlotState, Summary,
    REFUSING_AT_ONCE,
};
use crate::{ServerSettings, Stage, Timestamp};

/// The descriptors a server needs beyond two per connection: the standard
/// streams, the listener, a reserve (to answer `503` when the process runs
/// out), the refusals in flight and queued, and a margin for the
/// application.
pub const RESERVED_DESCRIPTORS: u64 = 3 + 1 + 1 + 2 * REFUSING_AT_ONCE as u64 + 32;

/// The soft open-file limit in the text of Linux's `/proc/self/limits`
/// (`None`: not there, or unlimited). The adapter reads the file (the core
/// reads none) and gives the number to [`Endpoint::new`].
///
/// ```
/// use http_net_conn::driver::open_file_limit;
/// let text = "Max open files            1024                 524288               files\n";
/// assert_eq!(open_file_limit(text), Some(1024));
/// assert_eq!(open_file_limit("Max open files  unlimited  unlimited  files\n"), None);
/// ```
pub fn open_file_limit(proc_self_limits: &str) -> Option<u64> {
    let line = proc_self_limits
        .lines()
        .find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// A connection limit lowered to fit the open-file limit (two descriptors
/// per connection plus [`RESERVED_DESCRIPTORS`]); its `Display` is the
/// warning an adapter prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lowered {
    /// The open-file limit.
    pub files: u64,
    /// The connection limit asked for.
    pub asked: usize,
    /// The descriptors it needs.
    pub need: u64,
    /// The connection limit served with.
    pub limit: usize,
}

impl fmt::Display for Lowered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Lowered {
            files,
            asked,
            need,
            limit,
        } = self;
        write!(
            f,
            "the open-file limit is {files}, below the {need} descriptors that max_connections \
             {asked} needs (2 per connection + {RESERVED_DESCRIPTORS}); serving at most {limit} \
             connections (raise it with `ulimit -n`)",
        )
    }
}

/// The limit `max` lowered to what `files` descriptors hold (at least 1),
/// when they cannot hold it.
fn fit(max: usize, files: Option<u64>) -> Option<Lowered> {
    let need = (max as u64)
        .saturating_mul(2)
        .saturating_add(RESERVED_DESCRIPTORS);
    let files = files.filter(|&f| f < need)?;
    let limit = (files.saturating_sub(RESERVED_DESCRIPTORS) / 2).max(1);
    let limit = usize::try_from(limit).unwrap_or(1);
    Some(Lowered {
        files,
        asked: max,
        need,
        limit,
    })
}

/// What one open connection publishes for its server's [`Endpoint`]: what
/// it is doing and since when (a store per change of state), and whether
/// the endpoint evicted it, in which stage. Atomics, no lock.
#[derive(Debug)]
pub struct SlotCell {
    state: AtomicU8,
    /// When it entered its state (ms since the server's epoch, plus one).
    since: AtomicU64,
    /// The stage it was evicted in (its index plus one; 0: not evicted).
    evicted: AtomicU8,
}

/// Milliseconds since the epoch, plus one (0 stands for none).
fn ms(t: Timestamp) -> u64 {
    (t.as_nanos() / 1_000_000).saturating_add(1)
}

impl SlotCell {
    /// A connection accepted at `now`, no byte of it yet.
    pub fn new(now: Timestamp) -> SlotCell {
        SlotCell {
            state: AtomicU8::new(SlotState::Fresh.to_u8()),
            since: AtomicU64::new(ms(now)),
            evicted: AtomicU8::new(0),
        }
    }

    /// A new connection in the cell, accepted at `now`.
    pub fn reset(&self, now: Timestamp) {
        self.since.store(ms(now), Ordering::Relaxed);
        self.evicted.store(0, Ordering::SeqCst);
        self.state.store(SlotState::Fresh.to_u8(), Ordering::SeqCst);
    }

    /// Enters `state` at `now` (a state it is in already keeps its start;
    /// `None`: no clock was read, the start stays the last one).
    ///
    /// ```
    /// use http_net_conn::Timestamp;
    /// use http_net_conn::driver::{SlotCell, SlotState};
    /// let cell = SlotCell::new(Timestamp::from_nanos(0));
    /// cell.enter(SlotState::Head, Some(Timestamp::from_nanos(5_000_000)));
    /// assert_eq!(cell.state(), Some(SlotState::Head));
    /// assert_eq!(cell.evicted(), None);
    /// ```
    pub fn enter(&self, state: SlotState, now: Option<Timestamp>) {
        let b = state.to_u8();
        if self.state.load(Ordering::Relaxed) != b {
            if let Some(now) = now {
                self.since.store(ms(now), Ordering::Relaxed);
            }
            self.state.store(b, Ordering::SeqCst);
        }
    }

    /// Whether the connection is in `state` (one relaxed load: a driver
    /// asks before it reads a clock for [`enter`](SlotCell::enter)).
    pub fn is_in(&self, state: SlotState) -> bool {
        self.state.load(Ordering::Relaxed) == state.to_u8()
    }

    /// What the connection is doing.
    pub fn state(&self) -> Option<SlotState> {
        SlotState::from_u8(self.state.load(Ordering::SeqCst))
    }

    /// The stage the endpoint evicted it in (`None`: not evicted).
    pub fn evicted(&self) -> Option<Stage> {
        stage_at(usize::from(self.evicted.load(Ordering::SeqCst)).checked_sub(1)?)
    }

    /// What eviction weighs at `now`: its state and how long it has been in
    /// it, with the `flows` (request body, response) of a running handler.
    fn summary(&self, now: Timestamp, flows: impl FnOnce() -> (Flow, Flow)) -> Option<Summary> {
        let state = self.state()?;
        let age = ms(now).saturating_sub(self.since.load(Ordering::Relaxed));
        let mut s = Summary::new(state, age);
        if state == SlotState::Handler {
            (s.body, s.response) = flows();
        }
        Some(s)
    }

    fn mark_evicted(&self, stage: Stage) {
        let i = stage_index(stage).map_or(0, |i| i as u8 + 1);
        self.evicted.store(i, Ordering::SeqCst);
    }
}

/// An adapter's slot as the [`Endpoint`] reads it: its [`SlotCell`], and the
/// flows of its request body and response (what the connection's
/// [`FlowGauge`](crate::driver::FlowGauge)s show at `now`; a flow the
/// adapter does not measure is [`Flow::default`] with what it knows, such
/// as a write's stall).
pub trait Published {
    /// The connection's cell.
    fn cell(&self) -> &SlotCell;
    /// Its request body's and response's progress at `now`.
    fn flows(&self, now: Timestamp) -> (Flow, Flow);
}

impl<T: Published + ?Sized> Published for alloc::sync::Arc<T> {
    fn cell(&self) -> &SlotCell {
        (**self).cell()
    }
    fn flows(&self, now: Timestamp) -> (Flow, Flow) {
        (**self).flows(now)
    }
}

/// The endpoint's answer to an [offered](Endpoint::offer) connection.
#[derive(Debug)]
pub enum Answer<S> {
    /// Admitted: serve it, its slot given with [`Endpoint::open`].
    Accept,
    /// Admitted in place of `victim`, evicted in `stage` (its cell says so
    /// already): the adapter ends its wait (a head is answered `503` with
    /// `Retry-After`, a body `408`, a response is cut), then serves the
    /// newcomer as for [`Answer::Accept`].
    Evict {
        /// The connection to end.
        victim: S,
        /// The wait it is evicted from.
        stage: Stage,
    },
    /// Refused, closed as the [`Refusal`] says.
    Refuse(Refusal),
}

/// How a refused connection is closed. The answer is the `503` with
/// `Retry-After` ([`write_busy_response`](crate::driver::write_busy_response)),
/// written without waiting (a new connection's send buffer is empty),
/// before any byte of the request is read; the connection is then
/// half-closed and its peer's input read, so that the peer reads the
/// answer rather than a reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Closed unanswered: with a setup step (TLS) the peer could not read
    /// the answer.
    Close,
    /// Answered, and the input read until the linger ends; then
    /// [`Endpoint::refusal_ended`].
    Linger(Linger),
    /// Answered, what the peer sent so far read once without a wait, and
    /// closed: [`REFUSING_AT_ONCE`] refusals linger already (or nothing
    /// may wait: the process is out of descriptors).
    AtOnce,
}

/// One listed connection.
#[derive(Debug)]
struct Open<P, S> {
    peer: Option<P>,
    slot: S,
    /// It holds its admission (not yet given back at its close or
    /// eviction).
    admitted: bool,
}

/// A server's admission, eviction and refusal: see the module. `P` is a
/// peer's address (the per-peer cap and the setup rate count by it), `S`
/// the adapter's slot handle.
///
/// ```
/// use std::sync::Arc;
/// use http_net_conn::{ServerSettings, Stage, Timestamp};
/// use http_net_conn::driver::{Answer, Endpoint, Flow, LiveCounters, Published, SlotCell, SlotState};
///
/// #[derive(Debug)]
/// struct Slot(SlotCell);
/// impl Published for Slot {
///     fn cell(&self) -> &SlotCell { &self.0 }
///     fn flows(&self, _: Timestamp) -> (Flow, Flow) { Default::default() }
/// }
/// let settings = ServerSettings { max_connections: 1, ..ServerSettings::DEFAULT };
/// let counters = LiveCounters::new();
/// let mut ep = Endpoint::<u8, Arc<Slot>>::new(&settings, None, false);
/// let t = Timestamp::from_nanos(1_000_000_000);
/// assert!(matches!(ep.offer(Some(1), t, &counters), Answer::Accept));
/// let slot = Arc::new(Slot(SlotCell::new(t)));
/// let mut id = 0;
/// ep.open(Some(1), |key| { id = key; Arc::clone(&slot) });
/// slot.0.enter(SlotState::Head, Some(t)); // a partial head: evictable
/// match ep.offer(Some(2), t, &counters) {
///     Answer::Evict { victim, stage } => assert!(Arc::ptr_eq(&victim, &slot) && stage == Stage::Head),
///     other => panic!("{other:?}"),
/// }
/// assert_eq!(slot.0.evicted(), Some(Stage::Head));
/// ep.remove(id, &counters);
/// let c = counters.snapshot();
/// assert_eq!((c.accepted, c.evicted.head, c.current), (2, 1, 1));
/// ```
#[derive(Debug)]
pub struct Endpoint<P, S> {
    limit: usize,
    lowered: Option<Lowered>,
    per_peer: usize,
    policy: EvictPolicy,
    /// The server has a setup step (TLS): its refusals go unanswered, and
    /// the setup rate applies.
    setup: bool,
    rates: SetupRates<P>,
    /// Admissions held: listed or not yet.
    admitted: usize,
    /// Admissions held by each peer (with a per-peer cap only).
    peers: BTreeMap<P, usize>,
    open: BTreeMap<u64, Open<P, S>>,
    next: u64,
    /// Refusals answered and not yet ended.
    refusing: usize,
}

impl<P: Ord + Copy, S: Published + Clone> Endpoint<P, S> {
    /// The endpoint of a server with `settings` (the connection limit, the
    /// per-peer cap, the setup rate, what eviction weighs), in a process
    /// that may open `open_files` descriptors (`None`: unknown or
    /// unlimited), with a setup step before the first HTTP byte or not.
    pub fn new(settings: &ServerSettings, open_files: Option<u64>, setup: bool) -> Self {
        let asked = settings.max_connections.max(1);
        let lowered = fit(asked, settings.open_file_limit.or(open_files));
        Endpoint {
            limit: lowered.map_or(asked, |l| l.limit),
            lowered,
            per_peer: settings.max_connections_per_peer,
            policy: settings.evict_policy(),
            setup,
            rates: SetupRates::new(settings.setup_rate_per_peer),
            admitted: 0,
            peers: BTreeMap::new(),
            open: BTreeMap::new(),
            next: 0,
            refusing: 0,
        }
    }

    /// The connection limit served with.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The limit lowered to fit the open-file limit, when it was.
    pub fn lowered(&self) -> Option<Lowered> {
        self.lowered
    }

    /// A connection from `peer` was taken from the listener at `now`: in
    /// this order, a peer over its setup rate (with a setup step) or at its
    /// cap is refused (and evicts no one); under the limit it is admitted;
    /// at the limit the connection making least progress is evicted for
    /// it ([`pick_eviction`]), or, when none may be, it is refused.
    /// Counts it accepted, and refused, evicted or opened.
    pub fn offer(&mut self, peer: Option<P>, now: Timestamp, counters: &LiveCounters) -> Answer<S> {
        counters.accepted();
        if let (Some(p), true) = (peer, self.setup) {
            if !self.rates.admit(p, now) {
                return self.refuse(now, counters);
            }
        }
        let peer = peer.filter(|_| self.per_peer != 0);
        if let Some(p) = peer {
            if self.peers.get(&p).is_some_and(|&n| n >= self.per_peer) {
                return self.refuse(now, counters);
            }
        }
        let mut answer = Answer::Accept;
        if self.admitted >= self.limit {
            match self.evict(now, counters) {
                Some(evicted) => answer = evicted,
                None => return self.refuse(now, counters),
            }
        }
        self.admitted += 1;
        if let Some(p) = peer {
            *self.peers.entry(p).or_insert(0) += 1;
        }
        counters.opened();
        answer
    }

    /// Picks, marks and releases the connection to evict.
    fn evict(&mut self, now: Timestamp, counters: &LiveCounters) -> Option<Answer<S>> {
        let candidates = self.open.iter().filter_map(|(id, o)| {
            let cell = o.slot.cell();
            if !o.admitted || cell.evicted().is_some() {
                return None;
            }
            Some((*id, cell.summary(now, || o.slot.flows(now))?))
        });
        let (id, stage) = pick_eviction(candidates, &self.policy)?;
        let victim = self.open.get(&id)?.slot.clone();
        victim.cell().mark_evicted(stage);
        counters.evicted(stage);
        self.release(id, counters);
        Some(Answer::Evict { victim, stage })
    }

    /// Refuses a connection at `now` (counted): unanswered with a setup
    /// step, at once beyond [`REFUSING_AT_ONCE`] lingering, else with the
    /// refusal's linger.
    fn refuse(&mut self, now: Timestamp, counters: &LiveCounters) -> Answer<S> {
        counters.refused();
        Answer::Refuse(if self.setup {
            Refusal::Close
        } else if self.refusing >= REFUSING_AT_ONCE {
            Refusal::AtOnce
        } else {
            self.refusing += 1;
            Refusal::Linger(Linger::after_refusal(now))
        })
    }

    /// A connection taken from the listener at `now` that must be refused
    /// without an offer (the process is out of descriptors: it was
    /// accepted with a reserve one): counted accepted and refused, and
    /// refused at once (unanswered with a setup step).
    pub fn exhausted(&mut self, counters: &LiveCounters) -> Refusal {
        counters.accepted();
        counters.refused();
        if self.setup {
            Refusal::Close
        } else {
            Refusal::AtOnce
        }
    }

    /// A refusal's linger ([`Refusal::Linger`]) has ended.
    pub fn refusal_ended(&mut self) {
        self.refusing = self.refusing.saturating_sub(1);
    }

    /// Lists the slot of a connection admitted from `peer` (the same
    /// address given to [`offer`](Endpoint::offer)), made by `slot` with
    /// its key (which [`release`](Endpoint::release) and
    /// [`remove`](Endpoint::remove) take); gives it back.
    pub fn open(&mut self, peer: Option<P>, slot: impl FnOnce(u64) -> S) -> &S {
        let id = self.next;
        self.next += 1;
        let open = Open {
            peer: peer.filter(|_| self.per_peer != 0),
            slot: slot(id),
            admitted: true,
        };
        &self.open.entry(id).or_insert(open).slot
    }

    /// A connection from `peer` admitted at `now` that no thread or task
    /// could run: its admission is given back, and it is refused.
    pub fn withdraw(
        &mut self,
        peer: Option<P>,
        now: Timestamp,
        counters: &LiveCounters,
    ) -> Answer<S> {
        self.give_back(peer.filter(|_| self.per_peer != 0), counters);
        self.refuse(now, counters)
    }

    fn give_back(&mut self, peer: Option<P>, counters: &LiveCounters) {
        self.admitted = self.admitted.saturating_sub(1);
        counters.closed();
        if let Some(p) = peer {
            if let Some(n) = self.peers.get_mut(&p) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    self.peers.remove(&p);
                }
            }
        }
    }

    /// Connection `id` is done serving: its admission is given back (once;
    /// an evicted one's already was), and it stays listed (a graceful
    /// stop still reaches it while it lingers) until
    /// [`remove`](Endpoint::remove).
    pub fn release(&mut self, id: u64, counters: &LiveCounters) {
        let peer = match self.open.get_mut(&id) {
            Some(o) if o.admitted => {
                o.admitted = false;
                o.peer
            }
            _ => return,
        };
        self.give_back(peer, counters);
    }

    /// Connection `id` has ended: released, and no longer listed.
    pub fn remove(&mut self, id: u64, counters: &LiveCounters) {
        self.release(id, counters);
        self.open.remove(&id);
    }

    /// The slots listed now.
    pub fn slots(&self) -> impl Iterator<Item = &S> {
        self.open.values().map(|o| &o.slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::sync::Arc;
    use core::time::Duration;

    #[derive(Debug)]
    struct Slot {
        cell: SlotCell,
        response_stalled_ms: AtomicU64,
    }

    impl Slot {
        fn new(now: u64) -> Arc<Slot> {
            Arc::new(Slot {
                cell: SlotCell::new(at(now)),
                response_stalled_ms: AtomicU64::new(0),
            })
        }
    }

    impl Published for Slot {
        fn cell(&self) -> &SlotCell {
            &self.cell
        }
        fn flows(&self, _: Timestamp) -> (Flow, Flow) {
            let stalled = self.response_stalled_ms.load(Ordering::Relaxed);
            let response = Flow {
                stalled_ms: (stalled != 0).then_some(stalled),
                ..Flow::default()
            };
            (Flow::default(), response)
        }
    }

    fn at(ms: u64) -> Timestamp {
        Timestamp::from_nanos(ms * 1_000_000)
    }

    type Ep = Endpoint<u8, Arc<Slot>>;

    fn endpoint(set: impl FnOnce(&mut ServerSettings)) -> Ep {
        let mut s = ServerSettings::DEFAULT;
        set(&mut s);
        Endpoint::new(&s, None, false)
    }

    /// Offers a connection from `peer` at `now` and lists its slot when
    /// admitted.
    fn admit(ep: &mut Ep, peer: u8, now: u64, c: &LiveCounters) -> Option<(u64, Arc<Slot>)> {
        match ep.offer(Some(peer), at(now), c) {
            Answer::Refuse(_) => None,
            _ => {
                let (slot, mut id) = (Slot::new(now), 0);
                ep.open(Some(peer), |key| {
                    id = key;
                    Arc::clone(&slot)
                });
                Some((id, slot))
            }
        }
    }

    #[test]
    fn the_per_peer_cap_comes_first_and_evicts_no_one() {
        let c = LiveCounters::new();
        let mut ep = endpoint(|s| {
            s.max_connections = 2;
            s.max_connections_per_peer = 1;
        });
        let (a, slot) = admit(&mut ep, 1, 0, &c).unwrap();
        slot.cell.enter(SlotState::Idle, Some(at(0)));
        // Peer 1 again: refused at its cap, though its idle connection
        // could be evicted.
        assert!(matches!(
            ep.offer(Some(1), at(10), &c),
            Answer::Refuse(Refusal::Linger(_))
        ));
        assert_eq!(slot.cell.evicted(), None);
        // Another peer: admitted; a third fills nothing more.
        assert!(admit(&mut ep, 2, 10, &c).is_some());
        // Peer 1's admission given back: room for it again.
        ep.release(a, &c);
        ep.release(a, &c); // once only
        assert!(matches!(ep.offer(Some(1), at(20), &c), Answer::Accept));
        let snap = c.snapshot();
        assert_eq!((snap.accepted, snap.refused, snap.current), (4, 1, 2));
    }

    #[test]
    fn at_the_limit_the_least_progress_goes_and_a_busy_handler_stays() {
        let c = LiveCounters::new();
        let mut ep = endpoint(|s| s.max_connections = 2);
        let (_, idle) = admit(&mut ep, 1, 0, &c).unwrap();
        let (_, head) = admit(&mut ep, 2, 0, &c).unwrap();
        idle.cell.enter(SlotState::Idle, Some(at(5)));
        head.cell.enter(SlotState::Head, Some(at(1)));
        match ep.offer(Some(3), at(2_000), &c) {
            Answer::Evict { victim, stage } => {
                assert!(Arc::ptr_eq(&victim, &idle));
                assert_eq!(stage, Stage::Idle);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(idle.cell.evicted(), Some(Stage::Idle));
        ep.open(Some(3), |_| Slot::new(2_000));
        // Now the head goes; an evicted one is never picked twice.
        match ep.offer(Some(4), at(2_000), &c) {
            Answer::Evict { victim, stage } => {
                assert!(Arc::ptr_eq(&victim, &head));
                assert_eq!(stage, Stage::Head);
            }
            other => panic!("{other:?}"),
        }
        ep.open(Some(4), |_| Slot::new(2_000));
        // Two handlers moving data: refused, with the refusal's linger.
        for s in ep.slots() {
            if s.cell.evicted().is_none() {
                s.cell.enter(SlotState::Handler, Some(at(2_000)));
            }
        }
        match ep.offer(Some(5), at(2_100), &c) {
            Answer::Refuse(Refusal::Linger(l)) => assert_eq!(l.until(), at(2_350)),
            other => panic!("{other:?}"),
        }
        let snap = c.snapshot();
        assert_eq!(
            (snap.evicted.idle, snap.evicted.head, snap.refused),
            (1, 1, 1)
        );
        assert_eq!((snap.accepted, snap.current), (5, 2));
    }

    #[test]
    fn a_stalled_response_is_evicted_from_its_write() {
        let c = LiveCounters::new();
        let mut ep = endpoint(|s| s.max_connections = 1);
        let (_, slot) = admit(&mut ep, 1, 0, &c).unwrap();
        slot.cell.enter(SlotState::Handler, None);
        assert!(matches!(ep.offer(Some(2), at(10), &c), Answer::Refuse(_)));
        slot.response_stalled_ms.store(1_500, Ordering::Relaxed);
        assert!(matches!(
            ep.offer(Some(2), at(20), &c),
            Answer::Evict {
                stage: Stage::Write,
                ..
            }
        ));
    }

    #[test]
    fn refusals_in_flight_are_bounded_and_a_setup_step_goes_unanswered() {
        let c = LiveCounters::new();
        let mut ep = endpoint(|s| s.max_connections = 1);
        assert!(admit(&mut ep, 1, 0, &c).is_some());
        for ep_slot in ep.slots() {
            ep_slot.cell.enter(SlotState::Handler, None);
        }
        for _ in 0..REFUSING_AT_ONCE {
            assert!(matches!(
                ep.offer(Some(2), at(1), &c),
                Answer::Refuse(Refusal::Linger(_))
            ));
        }
        assert!(matches!(
            ep.offer(Some(2), at(1), &c),
            Answer::Refuse(Refusal::AtOnce)
        ));
        ep.refusal_ended();
        assert!(matches!(
            ep.offer(Some(2), at(1), &c),
            Answer::Refuse(Refusal::Linger(_))
        ));
        // With a setup step: no answer, and the setup rate applies.
        let s = ServerSettings {
            setup_rate_per_peer: crate::driver::SetupRate {
                per_sec: 1,
                burst: 1,
            },
            ..ServerSettings::DEFAULT
        };
        let mut tls = Ep::new(&s, None, true);
        assert!(matches!(tls.offer(Some(1), at(0), &c), Answer::Accept));
        assert!(matches!(
            tls.offer(Some(1), at(1), &c),
            Answer::Refuse(Refusal::Close)
        ));
        assert!(matches!(tls.offer(Some(2), at(1), &c), Answer::Accept));
        let later = at(0).saturating_add(Duration::from_secs(1));
        assert!(matches!(tls.offer(Some(1), later, &c), Answer::Accept));
    }

    #[test]
    fn the_limit_fits_the_open_file_limit() {
        let s = ServerSettings {
            max_connections: 1024,
            ..ServerSettings::DEFAULT
        };
        let ep = Ep::new(&s, Some(1_000_000), false);
        assert_eq!((ep.limit(), ep.lowered()), (1024, None));
        let ep = Ep::new(&s, Some(1024), false);
        let limit = (1024 - RESERVED_DESCRIPTORS as usize) / 2;
        assert_eq!(ep.limit(), limit);
        let w = ep.lowered().unwrap();
        assert_eq!(
            (w.files, w.asked, w.need, w.limit),
            (1024, 1024, 2048 + 165, limit)
        );
        assert!(alloc::format!("{w}").contains("2 per connection + 165"));
        assert_eq!(Ep::new(&s, Some(10), false).limit(), 1);
        assert_eq!(Ep::new(&s, None, false).limit(), 1024);
        // The settings' value wins over the process's.
        let set = ServerSettings {
            open_file_limit: Some(RESERVED_DESCRIPTORS + 4),
            ..s
        };
        assert_eq!(Ep::new(&set, Some(1_000_000), false).limit(), 2);
        assert_eq!(RESERVED_DESCRIPTORS, 165);
    }

    #[test]
    fn a_withdrawn_admission_frees_its_place() {
        let c = LiveCounters::new();
        let mut ep = endpoint(|s| {
            s.max_connections = 1;
            s.max_connections_per_peer = 1;
        });
        assert!(matches!(ep.offer(Some(1), at(0), &c), Answer::Accept));
        assert!(matches!(
            ep.withdraw(Some(1), at(0), &c),
            Answer::Refuse(Refusal::Linger(_))
        ));
        assert!(matches!(ep.offer(Some(1), at(0), &c), Answer::Accept));
        assert_eq!(ep.exhausted(&c), Refusal::AtOnce);
        let snap = c.snapshot();
        assert_eq!((snap.accepted, snap.refused, snap.current), (3, 2, 1));
    }

    #[test]
    fn the_proc_limits_text_is_read() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max cpu time              unlimited            unlimited            seconds   \n\
                    Max open files            1024                 524288               files     \n";
        assert_eq!(open_file_limit(text), Some(1024));
        assert_eq!(open_file_limit(""), None);
    }
}
