//! The registry: the state the accept loop, the connections and the
//! [`ServerHandle`](crate::ServerHandle)s share. It counts admissions
//! (not busy threads: a connection draining its peer's input after its close
//! holds no slot), keeps one [`Slot`] per open connection showing its phase
//! and progress, picks the connection to evict when the limit is reached,
//! and lets a graceful stop end the blocked reads of idle connections.

use crate::hooks::Hooks;
use http_net_conn::driver::MistakeGate;
use std::collections::HashMap;
use std::net::{IpAddr, Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use crate::counters::{mark, marked};
use crate::date::DateCache;
use crate::lock::{lock, read};
use crate::settings::Settings;
use crate::transport::Interrupter;
use crate::wire::Gauge;
use http_net_conn::driver::LiveCounters;
use http_net_conn::driver::{pick_eviction, SetupRate, SetupRates, SlotState, Summary};
use http_net_conn::Counters;
use http_net_conn::{Stage, Timestamp};

/// One open connection, as the accept loop and the shutdown see it.
pub(crate) struct Slot {
    /// Its [`SlotState`], as a byte.
    state: AtomicU8,
    /// When the connection entered its state (ms since the epoch, plus one).
    since: AtomicU64,
    /// The request body's progress while the handler reads it.
    pub(crate) body: Gauge,
    /// The responses' progress.
    pub(crate) write: Gauge,
    /// Why the accept loop evicted the connection (the stage's `mark`; 0: not).
    evicted: AtomicU8,
    /// The admission was given back.
    released: AtomicBool,
    peer: Option<IpAddr>,
    /// How another thread ends the connection's blocked I/O: a TCP
    /// connection's own socket, shared here (one descriptor per
    /// connection), or the interrupter of another stream type.
    pub(crate) tcp: RwLock<Option<TcpStream>>,
    interrupter: Option<Interrupter>,
}

/// The handle a connection registers with (see [`Slot::tcp`]).
pub(crate) enum Handle {
    Tcp(TcpStream),
    Interrupter(Option<Interrupter>),
}

impl Slot {
    fn new(epoch: Instant) -> Slot {
        Slot {
            state: AtomicU8::new(SlotState::Fresh.to_u8()),
            since: AtomicU64::new(0),
            body: Gauge::new(epoch),
            write: Gauge::new(epoch),
            evicted: AtomicU8::new(0),
            released: AtomicBool::new(false),
            peer: None,
            tcp: RwLock::new(None),
            interrupter: None,
        }
    }

    /// [`Slot::enter`] at `now`, a stamp from [`crate::wire::stamp`] (the
    /// slots count from its epoch).
    pub(crate) fn enter_stamped(&self, state: SlotState, now: http_net_conn::Timestamp) {
        let b = state.to_u8();
        if self.state.load(Ordering::Relaxed) != b {
            self.since.store(Gauge::ms_stamped(now), Ordering::Relaxed);
            self.state.store(b, Ordering::SeqCst);
        }
    }

    /// Enters `state` at `now` (a state it is in already keeps its start).
    pub(crate) fn enter(&self, state: SlotState, now: Instant) {
        let b = state.to_u8();
        if self.state.load(Ordering::Relaxed) != b {
            self.since.store(self.body.ms(now), Ordering::Relaxed);
            self.state.store(b, Ordering::SeqCst);
        }
    }

    /// Whether a graceful stop closes the connection at once: it waits for
    /// a request (no byte of it yet), drains a body after its answer, or
    /// is still in its setup step.
    pub(crate) fn stop_closes(&self) -> bool {
        matches!(
            SlotState::from_u8(self.state.load(Ordering::SeqCst)),
            Some(SlotState::Idle | SlotState::Fresh | SlotState::Drain | SlotState::Setup)
        )
    }

    /// The stage the connection was in when the accept loop evicted it.
    pub(crate) fn evicted(&self) -> Option<Stage> {
        marked(self.evicted.load(Ordering::SeqCst))
    }

    /// Ends the connection's blocked read (`408` then follows for a head or
    /// body), or all its I/O (`all`).
    fn interrupt(&self, all: bool) {
        if let Some(i) = &self.interrupter {
            if all {
                i.interrupt();
            } else {
                i.interrupt_read();
            }
        } else if let Some(tcp) = read(&self.tcp).as_ref() {
            let _ = tcp.shutdown(if all { Shutdown::Both } else { Shutdown::Read });
        }
    }
}

/// Removes the slot from the registry when the connection ends (giving its
/// admission back if it still holds it), and gives the slot back to the pool
/// thread (`home`) for its next connection.
pub(crate) struct SlotGuard<'a> {
    shared: &'a Shared,
    id: u64,
    slot: Arc<Slot>,
    home: &'a mut Option<Arc<Slot>>,
}

impl std::ops::Deref for SlotGuard<'_> {
    type Target = Slot;
    fn deref(&self) -> &Slot {
        &self.slot
    }
}

impl Drop for SlotGuard<'_> {
    fn drop(&mut self) {
        self.shared.release(&self.slot);
        lock(&self.shared.conns).1.remove(&self.id);
        // Out of the registry, the slot is ours alone: close the duplicate
        // descriptor now (the peer must see the connection close), and keep
        // the allocation for the thread's next connection.
        if let Some(slot) = Arc::get_mut(&mut self.slot) {
            slot.interrupter = None;
            // Closes a TCP connection's socket.
            match slot.tcp.get_mut() {
                Ok(t) => *t = None,
                Err(p) => *p.into_inner() = None,
            }
            *self.home = Some(Arc::clone(&self.slot));
        }
    }
}

/// Whether a connection may be admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Admission {
    Admitted,
    /// The connection limit is reached.
    Full,
    /// The peer address holds its cap of connections.
    PeerFull,
}

/// State shared by the accept loop, the connections and the handles.
pub(crate) struct Shared {
    pub(crate) stopping: AtomicBool,
    pub(crate) date: DateCache,
    pub(crate) counters: LiveCounters,
    /// The time base of every slot's timestamps.
    epoch: Instant,
    conns: Mutex<(u64, HashMap<u64, Arc<Slot>>)>,
    /// Connections admitted and not yet closed.
    admitted: AtomicUsize,
    /// The per-peer cap (0: none) and the connections of each peer address.
    per_peer: usize,
    peers: Mutex<HashMap<IpAddr, usize>>,
    /// The setups each peer address may start (the core's policy and state).
    setup_rates: Mutex<SetupRates<IpAddr>>,
    /// Where [`ServerHandle::shutdown`](crate::ServerHandle::shutdown)
    /// connects to wake the accept loop (set when serving starts).
    pub(crate) wake_addr: Mutex<Option<SocketAddr>>,
    /// The error-body, access-log and mistake-log hooks.
    pub(crate) hooks: Hooks,
    /// The gate of the server's mistake reports (one per kind per second).
    pub(crate) mistakes: MistakeGate,
}

impl Shared {
    pub(crate) fn new(per_peer: usize, setup_rate: SetupRate, hooks: Hooks) -> Shared {
        Shared {
            hooks,
            mistakes: MistakeGate::new(),
            stopping: AtomicBool::new(false),
            date: DateCache::new(),
            counters: LiveCounters::new(),
            // The one `wire::stamp` counts from: a connection's stamp
            // serves its slot's marks too (`Slot::enter_stamped`).
            epoch: crate::wire::epoch(),
            conns: Mutex::new((0, HashMap::new())),
            admitted: AtomicUsize::new(0),
            per_peer,
            peers: Mutex::new(HashMap::new()),
            setup_rates: Mutex::new(SetupRates::new(setup_rate)),
            wake_addr: Mutex::new(None),
        }
    }

    /// The counters now.
    pub(crate) fn counters(&self) -> Counters {
        self.counters.snapshot()
    }

    /// Admits a connection from `peer` within `limit` (the accept loop alone
    /// admits, so the check and the count cannot race with another admission).
    pub(crate) fn admit(&self, peer: Option<IpAddr>, limit: usize) -> Admission {
        // The per-peer cap first: a refused peer evicts no one.
        let mut peers = match peer {
            Some(ip) if self.per_peer != 0 => Some((ip, lock(&self.peers))),
            _ => None,
        };
        if let Some((ip, peers)) = &peers {
            if peers.get(ip).copied().unwrap_or(0) >= self.per_peer {
                return Admission::PeerFull;
            }
        }
        if self.admitted.load(Ordering::SeqCst) >= limit {
            return Admission::Full;
        }
        if let Some((ip, peers)) = &mut peers {
            *peers.entry(*ip).or_insert(0) += 1;
        }
        self.admitted.fetch_add(1, Ordering::SeqCst);
        self.counters.opened();
        Admission::Admitted
    }

    /// Whether `peer` may start a setup (a TLS handshake) at `now`: the
    /// core's [`SetupRates`] decide (always, without a peer address).
    pub(crate) fn admit_setup(&self, peer: Option<IpAddr>, now: Timestamp) -> bool {
        match peer {
            Some(ip) => lock(&self.setup_rates).admit(ip, now),
            None => true,
        }
    }

    /// Gives back an admission whose connection never got a slot.
    pub(crate) fn unadmit(&self, peer: Option<IpAddr>) {
        self.admitted.fetch_sub(1, Ordering::SeqCst);
        self.counters.closed();
        self.forget_peer(peer);
    }

    fn forget_peer(&self, peer: Option<IpAddr>) {
        if let (Some(ip), true) = (peer, self.per_peer != 0) {
            let mut peers = lock(&self.peers);
            if let Some(n) = peers.get_mut(&ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    peers.remove(&ip);
                }
            }
        }
    }

    /// Gives back the connection's admission (once: the connection at its
    /// close, or the accept loop evicting it, whichever comes first).
    pub(crate) fn release(&self, slot: &Slot) {
        if !slot.released.swap(true, Ordering::SeqCst) {
            self.unadmit(slot.peer);
        }
    }

    /// Registers an admitted connection from `peer`, in the slot its pool
    /// thread kept from its last connection (`home`) when there is one.
    pub(crate) fn register<'a>(
        &'a self,
        handle: Handle,
        peer: Option<IpAddr>,
        home: &'a mut Option<Arc<Slot>>,
    ) -> SlotGuard<'a> {
        let mut slot = home
            .take()
            .unwrap_or_else(|| Arc::new(Slot::new(self.epoch)));
        if Arc::get_mut(&mut slot).is_none() {
            // Still shared (cannot happen: the guard gives it back alone).
            slot = Arc::new(Slot::new(self.epoch));
        }
        if let Some(s) = Arc::get_mut(&mut slot) {
            let (tcp, interrupter) = match handle {
                Handle::Tcp(t) => (Some(t), None),
                Handle::Interrupter(i) => (None, i),
            };
            match s.tcp.get_mut() {
                Ok(t) => *t = tcp,
                Err(p) => *p.into_inner() = tcp,
            }
            s.interrupter = interrupter;
            s.peer = peer;
            s.body.epoch = self.epoch;
            s.write.epoch = self.epoch;
            s.body.reset();
            s.write.reset();
            s.body.ended().store(false, Ordering::SeqCst);
            s.write.ended().store(false, Ordering::SeqCst);
            *s.evicted.get_mut() = 0;
            *s.released.get_mut() = false;
            *s.state.get_mut() = SlotState::Fresh.to_u8();
            *s.since.get_mut() = s.body.ms(Instant::now());
        }
        let mut g = lock(&self.conns);
        let id = g.0;
        g.0 += 1;
        g.1.insert(id, Arc::clone(&slot));
        SlotGuard {
            shared: self,
            id,
            slot,
            home,
        }
    }

    /// At the connection limit: closes the connection making least progress
    /// to admit a newcomer (the core's [`pick_eviction`] over the slots'
    /// summaries), and tells whether there was one.
    pub(crate) fn evict(&self, settings: &Settings) -> bool {
        let policy = settings.evict_policy();
        let g = lock(&self.conns);
        let (now_ms, now) = match g.1.values().next() {
            Some(s) => {
                let now = Instant::now();
                (s.body.ms(now), s.body.stamp(now))
            }
            None => return false,
        };
        let candidates = g.1.values().filter_map(|slot| {
            if slot.released.load(Ordering::SeqCst) || slot.evicted.load(Ordering::SeqCst) != 0 {
                return None;
            }
            let state = SlotState::from_u8(slot.state.load(Ordering::SeqCst))?;
            let age = now_ms.saturating_sub(slot.since.load(Ordering::Relaxed));
            let mut summary = Summary::new(state, age);
            if state == SlotState::Handler {
                summary.body = slot.body.flow(now);
                summary.response = slot.write.flow(now);
            }
            Some((slot, summary))
        });
        let Some((slot, stage)) = pick_eviction(candidates, &policy) else {
            return false;
        };
        slot.evicted.store(mark(stage), Ordering::SeqCst);
        slot.body.end_now();
        slot.write.end_now();
        self.release(slot);
        // A head or body gets its `408` from the connection's thread, which
        // sees its read end; a response is cut.
        slot.interrupt(stage == Stage::Write);
        self.counters.evicted(stage);
        true
    }

    /// Ends the blocked reads of idle and draining connections (all
    /// connections if `all`).
    pub(crate) fn interrupt(&self, all: bool) {
        let g = lock(&self.conns);
        for slot in g.1.values() {
            if all || slot.stop_closes() {
                slot.interrupt(true);
            }
        }
    }
}
