//! The state the accept loop, the connections and the
//! [`ServerHandle`](crate::ServerHandle)s share: the core's [`Endpoint`]
//! (admission, eviction, refusal) behind one lock taken once per
//! connection, never per request, the counters, and the stop flag.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use http_net_conn::driver::{Endpoint, LiveCounters, MistakeGate, SlotState};

use crate::date::DateCache;
use crate::hooks::Hooks;
use crate::lock::lock;
use crate::settings::Settings;
use crate::slot::{Handle, Slot};
use crate::wire;

/// Removes the slot from the endpoint when the connection ends (giving its
/// admission back if it still holds it), and gives the slot back to the pool
/// thread (`home`) for its next connection.
pub(crate) struct SlotGuard<'a> {
    shared: &'a Shared,
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
        lock(&self.shared.endpoint).remove(self.slot.id, &self.shared.counters);
        // Out of the endpoint, the slot is ours alone: close the duplicate
        // descriptor now (the peer must see the connection close), and keep
        // the allocation for the thread's next connection.
        if let Some(slot) = Arc::get_mut(&mut self.slot) {
            slot.interrupter = None;
            // Closes a TCP connection's socket.
            *slot.tcp.get_mut().unwrap_or_else(PoisonError::into_inner) = None;
            *self.home = Some(Arc::clone(&self.slot));
        }
    }
}

/// State shared by the accept loop, the connections and the handles.
pub(crate) struct Shared {
    pub(crate) stopping: AtomicBool,
    pub(crate) date: DateCache,
    pub(crate) counters: LiveCounters,
    pub(crate) endpoint: Mutex<Endpoint<IpAddr, Arc<Slot>>>,
    /// Where [`ServerHandle::shutdown`](crate::ServerHandle::shutdown)
    /// connects to wake the accept loop (set when serving starts).
    pub(crate) wake_addr: Mutex<Option<SocketAddr>>,
    /// The error-body, access-log and mistake-log hooks.
    pub(crate) hooks: Hooks,
    /// The gate of the server's mistake reports (one per kind per second).
    pub(crate) mistakes: MistakeGate,
}

impl Shared {
    pub(crate) fn new(settings: &Settings, hooks: Hooks) -> Shared {
        Shared {
            hooks,
            mistakes: MistakeGate::new(),
            stopping: AtomicBool::new(false),
            date: DateCache::new(),
            counters: LiveCounters::new(),
            endpoint: Mutex::new(Endpoint::new(settings, None, false)),
            wake_addr: Mutex::new(None),
        }
    }

    /// Gives back the connection's admission (once: the connection at its
    /// close, or the endpoint evicting it, whichever comes first).
    pub(crate) fn release(&self, slot: &Slot) {
        lock(&self.endpoint).release(slot.id, &self.counters);
    }

    /// Lists an admitted connection from `peer` in the endpoint, in the
    /// slot its pool thread kept from its last connection (`home`) when
    /// there is one.
    pub(crate) fn register<'a>(
        &'a self,
        handle: Handle,
        peer: Option<IpAddr>,
        home: &'a mut Option<Arc<Slot>>,
    ) -> SlotGuard<'a> {
        let mut slot = home.take().unwrap_or_else(|| Arc::new(Slot::new()));
        if Arc::get_mut(&mut slot).is_none() {
            // Still shared (cannot happen: the guard gives it back alone).
            slot = Arc::new(Slot::new());
        }
        let (tcp, interrupter) = match handle {
            Handle::Tcp(t) => (Some(t), None),
            Handle::Interrupter(i) => (None, i),
        };
        let now = wire::stamp(std::time::Instant::now());
        let mut ep = lock(&self.endpoint);
        ep.open(peer, |id| {
            if let Some(s) = Arc::get_mut(&mut slot) {
                *s.tcp.get_mut().unwrap_or_else(PoisonError::into_inner) = tcp;
                s.id = id;
                s.interrupter = interrupter;
                s.cell.reset(now);
                s.body.reset();
                s.write.reset();
            }
            Arc::clone(&slot)
        });
        drop(ep);
        SlotGuard {
            shared: self,
            slot,
            home,
        }
    }

    /// Ends the blocked reads of idle and draining connections (all
    /// connections if `all`).
    pub(crate) fn interrupt(&self, all: bool) {
        for slot in lock(&self.endpoint).slots() {
            if all || slot.cell.state().is_some_and(SlotState::stop_closes) {
                slot.interrupt(true);
            }
        }
    }

    /// Whether a stop was asked for.
    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}
