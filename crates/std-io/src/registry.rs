//! The registry: the state the accept loop, the connections and the
//! [`ShutdownHandle`](crate::ShutdownHandle)s share. It counts admissions
//! (not busy threads: a connection draining its peer's input after its close
//! holds no slot), keeps one [`Slot`] per open connection showing its phase
//! and progress, picks the connection to evict when the limit is reached,
//! and lets a graceful stop end the blocked reads of idle connections.

use crate::hooks::Hooks;
use std::collections::HashMap;
use std::net::{IpAddr, Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use crate::counters::{Counters, Live, Phase};
use crate::date::DateCache;
use crate::lock::{lock, read};
use crate::settings::Settings;
use crate::transport::Interrupter;
use crate::wire::Gauge;

/// What a connection is doing, as its [`Slot`] shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// Waiting for the next request (no byte of it yet), or for the first.
    Idle = 0,
    /// Reading a request head.
    Head = 1,
    /// Reading the rest of a body the handler left unread.
    Drain = 2,
    /// Running the handler: reading the body, writing the response.
    Handler = 3,
    /// Accepted, waiting for the first byte of its first request: not an
    /// idle keep-alive connection (it has had no answer yet, and its
    /// request may be on its way), so it is ranked with partial heads.
    Fresh = 4,
}

/// One open connection, as the accept loop and the shutdown see it.
pub(crate) struct Slot {
    state: AtomicU8,
    /// When the connection entered its state (ms since the epoch, plus one).
    since: AtomicU64,
    /// The request body's progress while the handler reads it.
    pub(crate) body: Gauge,
    /// The responses' progress.
    pub(crate) write: Gauge,
    /// Why the accept loop evicted the connection (`Phase` plus one; 0: not).
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
            state: AtomicU8::new(State::Fresh as u8),
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

    /// Enters `state` at `now` (a state it is in already keeps its start).
    pub(crate) fn enter(&self, state: State, now: Instant) {
        if self.state.load(Ordering::Relaxed) != state as u8 {
            self.since.store(self.body.ms(now), Ordering::Relaxed);
            self.state.store(state as u8, Ordering::SeqCst);
        }
    }

    /// Whether the connection waits for a request (no byte of it yet).
    pub(crate) fn is_idle(&self) -> bool {
        let s = self.state.load(Ordering::SeqCst);
        s == State::Idle as u8 || s == State::Fresh as u8
    }

    /// The phase the connection was in when the accept loop evicted it.
    pub(crate) fn evicted(&self) -> Option<Phase> {
        match self.evicted.load(Ordering::SeqCst) {
            0 => None,
            v => Phase::from_u8(v - 1),
        }
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

/// Under pressure, when nothing older than the eviction grace can go, a
/// response whose peer took no byte for this long may (two write slices):
/// a young response is only evicted below its rate or stalled.
const LAST_RESORT_STALL: Duration = Duration::from_millis(200);

/// How the accept loop ranks eviction candidates, least progress first:
/// the tier (0 idle, 1 slow), the bytes per second since the phase started,
/// and when the connection entered its state.
type Key = (u8, u64, u64);

/// State shared by the accept loop, the connections and the handles.
pub(crate) struct Shared {
    pub(crate) stopping: AtomicBool,
    pub(crate) date: DateCache,
    pub(crate) counters: Live,
    /// The time base of every slot's timestamps.
    epoch: Instant,
    conns: Mutex<(u64, HashMap<u64, Arc<Slot>>)>,
    /// Connections admitted and not yet closed.
    admitted: AtomicUsize,
    /// The per-peer cap (0: none) and the connections of each peer address.
    per_peer: usize,
    peers: Mutex<HashMap<IpAddr, usize>>,
    /// Where [`ShutdownHandle::shutdown`](crate::ShutdownHandle::shutdown)
    /// connects to wake the accept loop (set when serving starts).
    pub(crate) wake_addr: Mutex<Option<SocketAddr>>,
    /// The error-body and access-log hooks.
    pub(crate) hooks: Hooks,
}

impl Shared {
    pub(crate) fn new(per_peer: usize, hooks: Hooks) -> Shared {
        Shared {
            hooks,
            stopping: AtomicBool::new(false),
            date: DateCache::new(),
            counters: Live::default(),
            epoch: Instant::now(),
            conns: Mutex::new((0, HashMap::new())),
            admitted: AtomicUsize::new(0),
            per_peer,
            peers: Mutex::new(HashMap::new()),
            wake_addr: Mutex::new(None),
        }
    }

    /// The counters now.
    pub(crate) fn counters(&self) -> Counters {
        self.counters
            .snapshot(self.admitted.load(Ordering::SeqCst) as u64)
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
        Admission::Admitted
    }

    /// Gives back an admission whose connection never got a slot.
    pub(crate) fn unadmit(&self, peer: Option<IpAddr>) {
        self.admitted.fetch_sub(1, Ordering::SeqCst);
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
            *s.state.get_mut() = State::Fresh as u8;
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
    /// to admit a newcomer, and tells whether there was one. Three tiers,
    /// as the tokio adapter's `evict_one` ranks them:
    /// 1. nothing in progress: idle keep-alive connections (the longest
    ///    idle first);
    /// 2. stalled at least `eviction_grace`: a partial head, the drain of a
    ///    body, a body or response below its minimum rate since it started
    ///    (its own rate grace does not protect it here) or that has waited
    ///    that long for a byte;
    /// 3. the same younger than `eviction_grace`, a connection that has
    ///    sent no byte yet (whatever its age: its request may be on its
    ///    way), and a response whose peer took no byte for 200 ms.
    ///
    /// Within a tier, the fewest bytes per second first, then the longest
    /// in its phase. Only handlers moving data at their rate are never
    /// picked.
    pub(crate) fn evict(&self, settings: &Settings) -> bool {
        let grace = settings.eviction_grace;
        let grace_ms = grace.as_millis() as u64;
        let g = lock(&self.conns);
        let now_ms = match g.1.values().next() {
            Some(s) => s.body.ms(Instant::now()),
            None => return false,
        };
        let mut best: Option<(Key, &Arc<Slot>, Phase)> = None;
        for slot in g.1.values() {
            if slot.released.load(Ordering::SeqCst) || slot.evicted.load(Ordering::SeqCst) != 0 {
                continue;
            }
            let since = slot.since.load(Ordering::Relaxed);
            let age = now_ms.saturating_sub(since);
            let state = slot.state.load(Ordering::SeqCst);
            // (tier, bytes/s since the phase started: least progress first).
            let pick = if state == State::Idle as u8 {
                Some((0, 0, Phase::Idle))
            } else if state == State::Fresh as u8 {
                // Not yet read from: after every idle and stalled one,
                // whatever its age (its request may be on its way).
                Some((2, 0, Phase::Idle))
            } else if state == State::Head as u8 {
                // A partial head, whatever its age: younger than the grace,
                // after the older ones (a wave of slowloris heads must not
                // hold every slot until it is the grace old).
                Some((if age >= grace_ms { 1 } else { 2 }, 0, Phase::Head))
            } else if state == State::Drain as u8 {
                // Its answer is sent: younger than the grace, a last resort.
                Some((if age >= grace_ms { 1 } else { 2 }, 0, Phase::Body))
            } else if state == State::Handler as u8 {
                let slow = |g: &Gauge, rate| {
                    g.slow(now_ms, rate, grace).or_else(|| {
                        (g.below(now_ms, rate, grace) || g.stalled(now_ms, grace))
                            .then(|| g.pace(now_ms))
                    })
                };
                // A last resort when every other connection is younger than
                // the grace (a wave of reconnects took the older ones): a
                // body or response below its rate since it started.
                let young = |g: &Gauge, rate| g.slow(now_ms, rate, Duration::ZERO);
                slow(&slot.body, settings.min_body_rate)
                    .map(|r| (1, r, Phase::Body))
                    .or_else(|| {
                        slow(&slot.write, settings.min_response_rate)
                            .map(|r| (1, r, Phase::Response))
                    })
                    .or_else(|| {
                        young(&slot.body, settings.min_body_rate).map(|r| (2, r, Phase::Body))
                    })
                    .or_else(|| {
                        young(&slot.write, settings.min_response_rate)
                            .or_else(|| {
                                // Or a response whose peer took no byte in
                                // two write slices (a non-reader).
                                slot.write
                                    .stalled(now_ms, LAST_RESORT_STALL.min(grace))
                                    .then(|| slot.write.pace(now_ms))
                            })
                            .map(|r| (2, r, Phase::Response))
                    })
            } else {
                None
            };
            if let Some((tier, rate, phase)) = pick {
                let key = (tier, rate, since);
                if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                    best = Some((key, slot, phase));
                }
            }
        }
        let Some((_, slot, phase)) = best else {
            return false;
        };
        slot.evicted.store(phase as u8 + 1, Ordering::SeqCst);
        slot.body.end_now();
        slot.write.end_now();
        self.release(slot);
        // A head or body gets its `408` from the connection's thread, which
        // sees its read end; a response is cut.
        slot.interrupt(phase == Phase::Response);
        self.counters.evicted(phase);
        true
    }

    /// Ends the blocked reads of idle connections (all connections if `all`).
    pub(crate) fn interrupt(&self, all: bool) {
        let g = lock(&self.conns);
        for slot in g.1.values() {
            if all || slot.is_idle() {
                slot.interrupt(true);
            }
        }
    }
}
