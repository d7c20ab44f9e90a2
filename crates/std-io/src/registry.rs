//! The shutdown registry: the state the accept loop, the connections and
//! the [`ShutdownHandle`](crate::ShutdownHandle)s share, with one slot per
//! open connection so that a graceful stop can end the blocked reads of idle
//! ones.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::date::DateCache;
use crate::lock::lock;
use crate::transport::Interrupter;

/// One open connection, as the shutdown sees it.
pub(crate) struct Slot {
    /// Waiting for the next request (no byte of it yet).
    pub(crate) idle: AtomicBool,
    interrupter: Option<Interrupter>,
}

/// Removes the slot from the registry when the connection ends, and gives
/// it back to the pool thread (`home`) for its next connection.
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
        lock(&self.shared.conns).1.remove(&self.id);
        // Out of the registry, the slot is ours alone: close the duplicate
        // descriptor now (the peer must see the connection close), and keep
        // the allocation for the thread's next connection.
        if let Some(slot) = Arc::get_mut(&mut self.slot) {
            slot.interrupter = None;
            *self.home = Some(Arc::clone(&self.slot));
        }
    }
}

/// State shared by the accept loop, the connections and the handles.
pub(crate) struct Shared {
    pub(crate) stopping: AtomicBool,
    pub(crate) date: DateCache,
    conns: Mutex<(u64, HashMap<u64, Arc<Slot>>)>,
    /// Where [`ShutdownHandle::shutdown`](crate::ShutdownHandle::shutdown)
    /// connects to wake the accept loop (set when serving starts).
    pub(crate) wake_addr: Mutex<Option<SocketAddr>>,
}

impl Shared {
    pub(crate) fn new() -> Shared {
        Shared {
            stopping: AtomicBool::new(false),
            date: DateCache::new(),
            conns: Mutex::new((0, HashMap::new())),
            wake_addr: Mutex::new(None),
        }
    }

    /// Registers a connection, in the slot its pool thread kept from its
    /// last connection (`home`) when there is one.
    pub(crate) fn register<'a>(
        &'a self,
        interrupter: Option<Interrupter>,
        home: &'a mut Option<Arc<Slot>>,
    ) -> SlotGuard<'a> {
        let mut slot = home.take().unwrap_or_else(|| {
            Arc::new(Slot {
                idle: AtomicBool::new(false),
                interrupter: None,
            })
        });
        if Arc::get_mut(&mut slot).is_none() {
            // Still shared (cannot happen: the guard gives it back alone).
            slot = Arc::new(Slot {
                idle: AtomicBool::new(false),
                interrupter: None,
            });
        }
        if let Some(s) = Arc::get_mut(&mut slot) {
            s.interrupter = interrupter;
            *s.idle.get_mut() = false;
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

    /// Ends the blocked reads of idle connections (all connections if `all`).
    pub(crate) fn interrupt(&self, all: bool) {
        let g = lock(&self.conns);
        for slot in g.1.values() {
            if all || slot.idle.load(Ordering::SeqCst) {
                if let Some(i) = &slot.interrupter {
                    i.interrupt();
                }
            }
        }
    }
}
