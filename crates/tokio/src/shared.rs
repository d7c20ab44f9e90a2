//! The state a server's accept loop, its connections and its handles
//! share ([`Shared`]): the core's [`Endpoint`] (admission, eviction,
//! refusal) behind one lock taken once per connection, never per request,
//! the pools and the counters: below the server, the connection and the
//! exchange that use it.

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use http_net_conn::driver::{Endpoint, LiveCounters, MistakeGate, SlotState};
use http_net_conn::{Buffers, Config, ServerConn, ServerSettings};
use tokio::sync::Notify;

use crate::date::now_secs;
use crate::hooks::{BusyAnswer, Hooks};
use crate::slot::Slot;

/// The server's settings (see the [`ServerBuilder`](crate::ServerBuilder) methods for each):
/// the ones both adapters share, with one set of names and defaults. This
/// adapter adds none.
pub(crate) type Settings = ServerSettings;

/// The connection's place in the endpoint; removes it when the task ends.
pub(crate) struct SlotGuard {
    pub(crate) shared: Arc<Shared>,
    pub(crate) slot: Arc<Slot>,
}

/// The slot's own methods ([`Slot::set`], [`Slot::set_at`]).
impl std::ops::Deref for SlotGuard {
    type Target = Slot;
    fn deref(&self) -> &Slot {
        &self.slot
    }
}

impl Drop for SlotGuard {
    fn drop(&mut self) {
        lock(&self.shared.endpoint).remove(self.slot.id, &self.shared.counters);
    }
}

/// State shared by the accept loop, the connections and the handles.
pub(crate) struct Shared {
    pub(crate) settings: Settings,
    /// The connections' configuration, fixed by
    /// [`Server::serve`](crate::Server::serve) once for its handler before
    /// its first connection ([`ServerSettings::conn_for`]: a handler that
    /// limits request bodies itself gets no default body budget).
    pub(crate) config: OnceLock<Config>,
    pub(crate) stopping: AtomicBool,
    pub(crate) stop: Notify,
    pub(crate) endpoint: Mutex<Endpoint<IpAddr, Arc<Slot>>>,
    pub(crate) counters: LiveCounters,
    /// The wall clock's second (since the Unix epoch), kept by the accept
    /// loop at each second's start, for the connections' `Date`.
    pub(crate) date_secs: AtomicU64,
    pub(crate) buffers: BufferPool,
    /// State machines of closed connections, for new ones.
    pub(crate) conns: ConnPool,
    /// The hooks the server was built with.
    pub(crate) hooks: Hooks,
    /// Lets through one report per second of each kind of mistake.
    pub(crate) mistakes: MistakeGate,
    /// The `503` beyond the connection limit, made once a second.
    pub(crate) busy: BusyAnswer,
}

/// The most buffers a server's pool keeps (each about 40 KiB with the
/// default configuration); more are dropped, fewer are made on demand.
pub(crate) const POOL_MAX: usize = 256;

/// Buffers lent by the connections idle between requests, taken by those
/// that read again: thousands of idle connections share these instead of
/// each holding its own. Bounded by [`POOL_MAX`] and the connection limit.
pub(crate) struct BufferPool {
    free: Mutex<Vec<Buffers>>,
    pub(crate) max: usize,
}

impl BufferPool {
    /// An empty pool with room for `max` buffers reserved at once (about
    /// 100 bytes each), so that lending never grows it: the first
    /// connection to lend its buffers, perhaps long after the server
    /// started, allocates nothing.
    pub(crate) fn new(max: usize) -> BufferPool {
        BufferPool {
            free: Mutex::new(Vec::with_capacity(max)),
            max,
        }
    }

    /// Keeps `b` for the next connection that reads, or drops it when the
    /// pool is full.
    pub(crate) fn put(&self, b: Buffers) {
        let mut free = lock(&self.free);
        if free.len() < self.max {
            free.push(b);
        }
    }

    /// Buffers from the pool, or new ones for `config` when it is empty.
    pub(crate) fn take(&self, config: &Config) -> Buffers {
        let b = lock(&self.free).pop();
        b.unwrap_or_else(|| Buffers::new(config))
    }

    /// How many buffers the pool holds now.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        lock(&self.free).len()
    }
}

/// The state machines of closed connections, reset, their buffers given
/// to the [`BufferPool`]: a new connection starts with one of these, its
/// buffers lent, and takes buffers from the pool at its first read, so that
/// under churn a new connection allocates nothing (where
/// `ServerConn::new`, the general twin, allocates about 40 KiB with the
/// default configuration). Bounded like the buffer pool.
pub(crate) struct ConnPool {
    free: Mutex<Vec<ServerConn>>,
    max: usize,
}

impl ConnPool {
    /// A connection in the state `ServerConn::new` leaves it in, from the
    /// pool (buffers lent) or new.
    pub(crate) fn take(&self, config: Config, wipe: bool) -> ServerConn {
        let kept = lock(&self.free).pop();
        kept.unwrap_or_else(|| {
            let mut conn = ServerConn::new(config);
            conn.set_wipe(wipe);
            conn
        })
    }

    /// Keeps a closed connection for the next one: reset (every byte it
    /// saw forgotten, zeroed first when wiping), its buffers to `buffers`.
    /// Dropped when the pool is full or its buffers cannot be lent.
    pub(crate) fn put(&self, mut conn: ServerConn, buffers: &BufferPool) {
        conn.reset();
        if let Some(b) = conn.take_buffers() {
            buffers.put(b);
        }
        if !conn.buffers_lent() {
            return;
        }
        let mut free = lock(&self.free);
        if free.len() < self.max {
            free.push(conn);
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        lock(&self.free).len()
    }
}

impl Shared {
    pub(crate) fn new(settings: Settings, hooks: Hooks) -> Shared {
        let pool = settings.max_connections.min(POOL_MAX);
        Shared {
            settings,
            config: OnceLock::new(),
            stopping: AtomicBool::new(false),
            stop: Notify::new(),
            endpoint: Mutex::new(Endpoint::new(&settings, None, false)),
            counters: LiveCounters::new(),
            date_secs: AtomicU64::new(now_secs()),
            buffers: BufferPool::new(pool),
            conns: ConnPool {
                free: Mutex::new(Vec::new()),
                max: pool,
            },
            hooks,
            mistakes: MistakeGate::new(),
            busy: BusyAnswer::default(),
        }
    }

    /// The second of the connections' `Date` (read from the wall clock by
    /// the accept loop at each second's start; [`Shared::tick_date`]).
    pub(crate) fn date_secs(&self) -> u64 {
        self.date_secs.load(Ordering::Relaxed)
    }

    /// Reads the wall clock for the connections' `Date`.
    pub(crate) fn tick_date(&self) {
        self.date_secs.store(now_secs(), Ordering::Relaxed);
    }

    pub(crate) fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Wakes idle and draining connections, those lingering after an
    /// error response, and those in their setup step, so that they see the
    /// shutdown and close.
    pub(crate) fn wake_idle(&self) {
        for slot in lock(&self.endpoint).slots() {
            if slot.cell.state().is_some_and(SlotState::stop_closes) {
                slot.wake.ring();
            }
        }
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
