//! The client pool's rules, for both adapters: what may be kept (a
//! connection whose response ended and that may carry another request,
//! [`ClientConn::reusable`]), for how long (the idle life), how many (per
//! origin and in all), and which to drop (the expired of every origin, the
//! dead found when taking). The adapter keeps the pool (behind its own
//! lock) and the sockets in it, and tells whether an idle socket is still
//! open.

use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use super::conn::ClientConn;
use super::head::ClientHead;
use crate::client_settings::ClientSettings;
use crate::redirect::Origin;
use crate::time::{Timestamp, Window};

/// Idle connections kept across all origins (and origins listed).
pub const MAX_IDLE_TOTAL: usize = 256;

/// What an adapter keeps in the pool: its socket with the connection, and
/// the origin it was opened to.
pub trait PoolEntry {
    /// The connection's state, for the reuse rule.
    fn conn(&self) -> &ClientConn;
    /// The origin it was opened to.
    fn origin(&self) -> Origin<'_>;
}

/// The idle connections of one origin, newest last.
#[derive(Debug)]
struct IdleOrigin<T> {
    https: bool,
    host: String,
    port: u16,
    conns: Vec<(T, Window)>,
}

/// A client's idle connections, by origin: `T` is the adapter's (its
/// socket with its [`ClientConn`] and origin, a [`PoolEntry`]).
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{BodyLength, ClientConn, ClientEvent, ClientSettings, Config, Origin, Timestamp};
/// use http_net_conn::driver::{IdlePool, PoolEntry};
///
/// // An adapter's entry: its socket (none here), the connection, the origin.
/// struct Entry(ClientConn, Origin<'static>);
/// impl PoolEntry for Entry {
///     fn conn(&self) -> &ClientConn { &self.0 }
///     fn origin(&self) -> Origin<'_> { self.1 }
/// }
///
/// let s = ClientSettings { idle_ttl: Duration::from_secs(1), ..ClientSettings::DEFAULT };
/// let mut pool: IdlePool<Entry> = IdlePool::new(&s);
/// let a = Origin::new(false, "a.example", 80);
/// let t0 = Timestamp::from_nanos(0);
/// // A request whose response has not ended: not kept.
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// conn.send_request(b"GET", b"/", &[(b"Host", b"a.example")], BodyLength::Empty).unwrap();
/// assert!(!pool.give_back(Entry(conn, a), t0));
/// // One whose response ended: kept for its idle life.
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// conn.send_request(b"GET", b"/", &[(b"Host", b"a.example")], BodyLength::Empty).unwrap();
/// let n = conn.output().len();
/// conn.consume_output(n);
/// let _ = conn.recv(b"HTTP/1.1 204 No Content\r\n\r\n");
/// while !matches!(conn.poll_event(), Ok(ClientEvent::Idle)) {}
/// assert!(pool.give_back(Entry(conn, a), t0));
/// assert_eq!(pool.len(), 1);
/// // Past its idle life it is dropped, not taken.
/// let later = t0.saturating_add(Duration::from_secs(1));
/// assert!(pool.take(Origin::new(false, "A.example", 80), later, |_| true).is_none());
/// assert_eq!(pool.len(), 0);
/// ```
#[derive(Debug)]
pub struct IdlePool<T> {
    /// Found by a scan that compares hosts ASCII case-insensitively (no
    /// string formatted or hashed per request). An origin left without
    /// connections keeps its entry, and its host's allocation, for its
    /// next one, until more than [`MAX_IDLE_TOTAL`] are listed.
    origins: Vec<IdleOrigin<T>>,
    per_origin: usize,
    life: Duration,
    /// The heads of dropped responses, their buffers reused by the next
    /// responses (at most [`MAX_IDLE_TOTAL`]).
    heads: Vec<ClientHead>,
}

impl<T: PoolEntry> IdlePool<T> {
    /// An empty pool with the bounds of `s`: `max_idle_per_host`
    /// connections per origin (and [`MAX_IDLE_TOTAL`] in all), each kept
    /// `idle_ttl`.
    pub fn new(s: &ClientSettings) -> IdlePool<T> {
        IdlePool {
            origins: Vec::new(),
            per_origin: s.max_idle_per_host,
            life: s.idle_ttl,
            heads: Vec::new(),
        }
    }

    /// A head for the next response: a dropped response's, its buffers
    /// kept ([`keep_head`](IdlePool::keep_head)), or a new one.
    pub fn head(&mut self) -> ClientHead {
        self.heads.pop().unwrap_or_default()
    }

    /// Keeps the head of a response dropped, for [`head`](IdlePool::head)
    /// (at most [`MAX_IDLE_TOTAL`]).
    pub fn keep_head(&mut self, head: ClientHead) {
        if self.heads.len() < MAX_IDLE_TOTAL {
            self.heads.push(head);
        }
    }

    /// The connections kept.
    pub fn len(&self) -> usize {
        self.origins.iter().map(|o| o.conns.len()).sum()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The newest idle connection to `origin` still within its idle life
    /// at `now` for which `open` holds (the adapter's look at its socket:
    /// no end of stream and no byte sent unasked, RFC 9112 §9.2); the ones
    /// looked at and refused are dropped.
    pub fn take(
        &mut self,
        origin: Origin<'_>,
        now: Timestamp,
        mut open: impl FnMut(&mut T) -> bool,
    ) -> Option<T> {
        let o = self.origins.iter_mut().find(|o| same(o, &origin))?;
        while let Some((mut conn, idle)) = o.conns.pop() {
            if !idle.passed(now) && open(&mut conn) {
                return Some(conn);
            }
        }
        None
    }

    /// What a request on `origin` starts with: a pooled connection when
    /// `reuse` (the plan's [`reuse`](crate::driver::RequestPlan::reuse)) and
    /// [`take`](IdlePool::take) finds one, and a [`head`](IdlePool::head)
    /// for its response.
    pub fn checkout(
        &mut self,
        reuse: bool,
        origin: Origin<'_>,
        now: Timestamp,
        open: impl FnMut(&mut T) -> bool,
    ) -> (Option<T>, ClientHead) {
        let pooled = if reuse {
            self.take(origin, now, open)
        } else {
            None
        };
        (pooled, self.head())
    }

    /// Gives back `conn`, whose response ended at `now`: kept for the idle
    /// life when it may carry another request
    /// ([`ClientConn::reusable`]) and the bounds leave room, dropped
    /// otherwise (`false`). The expired connections of every origin are
    /// dropped here, so that an origin never asked again keeps no socket.
    pub fn give_back(&mut self, conn: T, now: Timestamp) -> bool {
        if !conn.conn().reusable() || self.per_origin == 0 || self.life.is_zero() {
            return false;
        }
        let mut total = 0;
        for o in &mut self.origins {
            o.conns.retain(|(_, idle)| !idle.passed(now));
            total += o.conns.len();
        }
        if self.origins.len() > MAX_IDLE_TOTAL {
            self.origins.retain(|o| !o.conns.is_empty());
        }
        if total >= MAX_IDLE_TOTAL {
            return false;
        }
        let origin = conn.origin();
        let i = match self.origins.iter().position(|o| same(o, &origin)) {
            Some(i) => i,
            None => {
                self.origins.push(IdleOrigin {
                    https: origin.https,
                    host: String::from(origin.host),
                    port: origin.port,
                    conns: Vec::new(),
                });
                self.origins.len() - 1
            }
        };
        let Some(o) = self.origins.get_mut(i) else {
            return false;
        };
        if o.conns.len() >= self.per_origin {
            return false;
        }
        o.conns.push((conn, Window::start(now, self.life)));
        true
    }
}

fn same<T>(o: &IdleOrigin<T>, origin: &Origin<'_>) -> bool {
    origin.same(&Origin::new(o.https, &o.host, o.port))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyLength, Config};

    fn at(s: u64) -> Timestamp {
        Timestamp::from_nanos(s * 1_000_000_000)
    }

    fn settings(per: usize, life: u64) -> ClientSettings {
        ClientSettings {
            max_idle_per_host: per,
            idle_ttl: Duration::from_secs(life),
            ..ClientSettings::DEFAULT
        }
    }

    /// A connection whose one exchange ended: reusable.
    fn fresh() -> ClientConn {
        let mut c = ClientConn::new(Config::DEFAULT);
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
            .unwrap();
        let n = c.output().len();
        c.consume_output(n);
        let _ = c.recv(b"HTTP/1.1 204 No Content\r\n\r\n");
        while !matches!(c.poll_event(), Ok(crate::ClientEvent::Idle) | Err(_)) {}
        assert!(c.reusable());
        c
    }

    const A: Origin<'static> = Origin::new(false, "a", 80);

    impl PoolEntry for (ClientConn, Origin<'_>) {
        fn conn(&self) -> &ClientConn {
            &self.0
        }
        fn origin(&self) -> Origin<'_> {
            self.1
        }
    }

    #[test]
    fn an_unfinished_request_is_not_kept() {
        let mut pool = IdlePool::new(&settings(4, 30));
        let mut c = fresh();
        c.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty)
            .unwrap();
        assert!(!pool.give_back((c, A), at(0)));
        assert!(pool.is_empty());
    }

    #[test]
    fn the_bound_per_origin_and_none_kept_at_zero() {
        let mut pool = IdlePool::new(&settings(2, 30));
        assert!(pool.give_back((fresh(), A), at(0)));
        assert!(pool.give_back((fresh(), A), at(0)));
        assert!(!pool.give_back((fresh(), A), at(0)));
        assert!(pool.give_back((fresh(), Origin::new(true, "a", 80)), at(0)));
        assert_eq!(pool.len(), 3);
        let mut none = IdlePool::new(&settings(0, 30));
        assert!(!none.give_back((fresh(), A), at(0)));
        let mut no_life = IdlePool::new(&settings(4, 0));
        assert!(!no_life.give_back((fresh(), A), at(0)));
    }

    #[test]
    fn the_bound_in_all() {
        let mut pool = IdlePool::new(&settings(MAX_IDLE_TOTAL, 30));
        for _ in 0..MAX_IDLE_TOTAL {
            assert!(pool.give_back((fresh(), A), at(0)));
        }
        assert!(!pool.give_back((fresh(), Origin::new(false, "b", 80)), at(0)));
        assert_eq!(pool.len(), MAX_IDLE_TOTAL);
    }

    #[test]
    fn the_idle_life_and_the_expired_of_every_origin_dropped_on_give_back() {
        let mut pool = IdlePool::new(&settings(4, 10));
        assert!(pool.give_back((fresh(), Origin::new(false, "b", 80)), at(0)));
        assert!(pool.give_back((fresh(), A), at(5)));
        // b expired at 10: dropped when a is given back at 12.
        assert!(pool.give_back((fresh(), A), at(12)));
        assert_eq!(pool.len(), 2);
        assert!(pool.take(A, at(14), |_| true).is_some(), "the newest");
        assert!(pool.take(A, at(15), |_| true).is_none(), "expired at 15");
        assert!(pool.is_empty());
    }

    #[test]
    fn take_finds_the_origin_ignoring_host_case_and_drops_the_closed() {
        let mut pool = IdlePool::new(&settings(4, 30));
        assert!(pool.give_back((fresh(), Origin::new(false, "Host.Example", 80)), at(0)));
        assert!(pool.give_back((fresh(), Origin::new(false, "host.example", 80)), at(0)));
        let o = Origin::new(false, "HOST.example", 80);
        assert!(pool
            .take(Origin::new(false, "host.example", 81), at(1), |_| true)
            .is_none());
        let mut looked = 0;
        assert!(pool
            .take(o, at(1), |_| {
                looked += 1;
                false
            })
            .is_none());
        assert_eq!(looked, 2, "each closed one looked at and dropped");
        assert!(pool.is_empty());
    }
}
