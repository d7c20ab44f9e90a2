//! The blocking server: a builder, the accept loop, the connection limit and
//! graceful shutdown.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use http_net_conn::Config;

use crate::connection;
use crate::date::{now_secs, DateCache};
use crate::error::Error;
use crate::exchange::Exchange;
use crate::pool::{transient_accept_error, Pool, Work};
use crate::transport::{Interrupter, Listener, Transport};
use crate::wire;

/// Answers requests: called once per request on the connection's thread.
///
/// Implemented for every `Fn(&mut Exchange<'_>) -> Result<(), Error>` that is
/// `Send + Sync + 'static`.
pub trait Handler: Send + Sync + 'static {
    /// Answers one request. Returning an error, or returning without a
    /// complete answer, closes the connection (with `500` if nothing was sent).
    fn handle(&self, exchange: &mut Exchange<'_>) -> Result<(), Error>;
}

impl<F> Handler for F
where
    F: Fn(&mut Exchange<'_>) -> Result<(), Error> + Send + Sync + 'static,
{
    fn handle(&self, exchange: &mut Exchange<'_>) -> Result<(), Error> {
        self(exchange)
    }
}

/// The server's settings (see the [`ServerBuilder`] methods for each).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub(crate) conn: Config,
    pub(crate) max_connections: usize,
    pub(crate) max_requests: u64,
    pub(crate) idle_timeout: Duration,
    pub(crate) head_timeout: Duration,
    pub(crate) body_timeout: Duration,
    pub(crate) write_timeout: Duration,
    pub(crate) drain_time: Duration,
    pub(crate) drain_bytes: u64,
    pub(crate) stack_size: usize,
    pub(crate) keep_idle_threads: Duration,
    pub(crate) shutdown_timeout: Duration,
    pub(crate) wipe: bool,
    /// Set by [`ServerBuilder::server_name`]; applied to `conn` when the
    /// server is made (so that `conn_config` may come before or after it).
    pub(crate) server_name: Option<&'static [u8]>,
}

impl Settings {
    const DEFAULT: Settings = Settings {
        conn: Config::DEFAULT,
        max_connections: 1024,
        max_requests: 0,
        idle_timeout: Duration::from_secs(30),
        head_timeout: Duration::from_secs(10),
        body_timeout: Duration::from_secs(30),
        write_timeout: Duration::from_secs(30),
        drain_time: Duration::from_secs(2),
        drain_bytes: 1024 * 1024,
        stack_size: 128 * 1024,
        keep_idle_threads: Duration::from_secs(60),
        shutdown_timeout: Duration::from_secs(30),
        wipe: false,
        server_name: None,
    };
}

/// Configures a [`Server`]; [`ServerBuilder::bind`] or
/// [`ServerBuilder::listener`] makes it.
///
/// ```
/// use std::time::Duration;
/// let server = http_net_std::Server::builder()
///     .max_connections(256)
///     .head_timeout(Duration::from_secs(5))
///     .bind("127.0.0.1:0")
///     .unwrap();
/// assert!(server.local_addr().unwrap().port() != 0);
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct ServerBuilder {
    s: Settings,
}

impl Default for ServerBuilder {
    fn default() -> Self {
        ServerBuilder {
            s: Settings::DEFAULT,
        }
    }
}

impl ServerBuilder {
    /// The connection limit (default 1,024): connections beyond it are
    /// answered `503` with `Connection: close` and closed (they do not wait
    /// in the backlog). Each open connection holds a thread.
    pub fn max_connections(mut self, n: usize) -> Self {
        self.s.max_connections = n.max(1);
        self
    }
    /// Requests served on one connection before it is closed (default 0: no
    /// limit); the last response carries `Connection: close`.
    pub fn max_requests_per_connection(mut self, n: u64) -> Self {
        self.s.max_requests = n;
        self
    }
    /// The connection limits (head and body limits, buffers): see
    /// [`http_net_conn::Config`].
    pub fn conn_config(mut self, config: Config) -> Self {
        self.s.conn = config;
        self
    }
    /// How long a keep-alive connection may sit idle between requests
    /// (default 30 s); then it is closed without a response.
    pub fn idle_timeout(mut self, t: Duration) -> Self {
        self.s.idle_timeout = t;
        self
    }
    /// The whole-head deadline, counted from a request's first byte (default
    /// 10 s): a head not complete by then gets `408` and the connection
    /// closes (slowloris).
    pub fn head_timeout(mut self, t: Duration) -> Self {
        self.s.head_timeout = t;
        self
    }
    /// The longest wait for the next bytes of a request body (default 30 s);
    /// the body reader then fails with a timeout and, if nothing was sent,
    /// `408` is answered.
    pub fn body_timeout(mut self, t: Duration) -> Self {
        self.s.body_timeout = t;
        self
    }
    /// The longest wait for one write to make progress (default 30 s): a
    /// peer that does not read its responses is disconnected after it.
    pub fn write_timeout(mut self, t: Duration) -> Self {
        self.s.write_timeout = t;
        self
    }
    /// After an error response or a close: how long, and how many bytes at
    /// most, the peer's input is drained after half-closing (default 2 s,
    /// 1 MiB), so that it reads the response rather than a reset.
    pub fn drain(mut self, time: Duration, bytes: u64) -> Self {
        self.s.drain_time = time;
        self.s.drain_bytes = bytes;
        self
    }
    /// The stack size of connection threads (default 128 KiB; see
    /// `docs/PERFORMANCE.md` for the memory an idle connection costs).
    /// Handlers that put large buffers on the stack need more.
    pub fn thread_stack_size(mut self, bytes: usize) -> Self {
        self.s.stack_size = bytes.max(32 * 1024);
        self
    }
    /// How long a finished connection thread waits for the next connection
    /// before it exits (default 60 s).
    pub fn keep_idle_threads(mut self, t: Duration) -> Self {
        self.s.keep_idle_threads = t;
        self
    }
    /// The longest a graceful shutdown waits for requests in flight (default
    /// 30 s); then the remaining connections are cut.
    pub fn shutdown_timeout(mut self, t: Duration) -> Self {
        self.s.shutdown_timeout = t;
        self
    }
    /// The `Server` field written in every response (default: none): the
    /// handler's answers (unless their fields carry a `Server` of their
    /// own), the error responses the connection writes itself (400, 408,
    /// 413, 414, 417, 431, 500, 501, 505) and the `503` beyond the
    /// connection limit. Validated here, once (see
    /// [`Config::with_server_name`]).
    ///
    /// # Panics
    ///
    /// If `name` is empty, or holds a control byte or surrounding whitespace
    /// (it could split a response). [`Config::with_server_name`] with
    /// [`conn_config`](ServerBuilder::conn_config) is the fallible way.
    ///
    /// ```
    /// let server = http_net_std::Server::builder()
    ///     .server_name("http-net")
    ///     .bind("127.0.0.1:0")
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn server_name(mut self, name: &'static str) -> Self {
        if let Err(e) = Config::DEFAULT.with_server_name(name.as_bytes()) {
            panic!("invalid server name {name:?}: {e}");
        }
        self.s.server_name = Some(name.as_bytes());
        self
    }
    /// Zero consumed input and sent output of every connection.
    pub fn wipe_buffers(mut self, wipe: bool) -> Self {
        self.s.wipe = wipe;
        self
    }
    /// Binds a TCP listener.
    pub fn bind(self, addr: impl ToSocketAddrs) -> io::Result<Server> {
        Ok(self.listener(TcpListener::bind(addr)?))
    }
    /// Serves connections from a listener of your own (e.g. one that hands
    /// out TLS streams).
    pub fn listener<L: Listener>(self, listener: L) -> Server<L> {
        let mut settings = self.s;
        if let Some(name) = settings.server_name {
            // Validated by `server_name`.
            if let Ok(conn) = settings.conn.with_server_name(name) {
                settings.conn = conn;
            }
        }
        Server {
            listener,
            settings,
            shared: Arc::new(Shared::new()),
        }
    }
}

/// A blocking HTTP/1.1 server: one thread per open connection, from a pool
/// that grows up to the connection limit and keeps idle threads for reuse.
///
/// ```
/// use http_net_std::{Server, Exchange, Error};
/// let server = Server::bind("127.0.0.1:0").unwrap();
/// let addr = server.local_addr().unwrap();
/// let stop = server.handle();
/// let t = std::thread::spawn(move || {
///     server.serve(|ex: &mut Exchange<'_>| -> Result<(), Error> {
///         ex.respond_with(200, &[(b"Content-Type", b"text/plain")], b"hi")
///     })
/// });
/// // ... use http://{addr}/ ...
/// # let _ = addr;
/// stop.shutdown();
/// t.join().unwrap().unwrap();
/// ```
pub struct Server<L: Listener = TcpListener> {
    listener: L,
    settings: Settings,
    shared: Arc<Shared>,
}

impl Server {
    /// A server with the default settings on a TCP address (port 0 picks a
    /// free port: see [`Server::local_addr`]).
    pub fn bind(addr: impl ToSocketAddrs) -> io::Result<Server> {
        ServerBuilder::default().bind(addr)
    }
    /// A builder with the default settings.
    pub fn builder() -> ServerBuilder {
        ServerBuilder::default()
    }
}

impl<L: Listener> Server<L> {
    /// The address the server listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// A handle that stops the server gracefully, from any thread.
    pub fn handle(&self) -> ShutdownHandle {
        ShutdownHandle {
            shared: Arc::clone(&self.shared),
        }
    }

    /// Serves until [`ShutdownHandle::shutdown`]: then it stops accepting,
    /// closes idle connections, lets requests in flight finish (their
    /// responses carry `Connection: close`) for up to the shutdown timeout,
    /// and returns.
    ///
    /// The handler is any [`Handler`]: a `fn(&mut Exchange<'_>) -> Result<(),
    /// Error>`, or a closure whose argument type is written out
    /// (`|ex: &mut Exchange<'_>| ...`), as Rust does not infer it through the
    /// trait bound.
    pub fn serve<H: Handler>(self, handler: H) -> io::Result<()> {
        let Server {
            listener,
            settings,
            shared,
        } = self;
        let local = listener.local_addr()?;
        *lock(&shared.wake_addr) = Some(wake_address(local));
        let handler = Arc::new(handler);
        let (reject_tx, reject_rx) = sync_channel::<L::Stream>(64);
        let rshared = Arc::clone(&shared);
        thread::Builder::new()
            .name("http-net-reject".into())
            .stack_size(64 * 1024)
            .spawn(move || reject_loop(reject_rx, &rshared, settings.conn.server_name()))?;
        // Each pool thread keeps the `ServerConn` and the registry slot of its
        // last connection and reuses them for the next one: no allocation per
        // accepted connection.
        let work: Work<(L::Stream, Option<SocketAddr>), connection::Warm> = {
            let shared = Arc::clone(&shared);
            Arc::new(move |(stream, peer), warm: &mut connection::Warm| {
                connection::run(stream, peer, &settings, &shared, &*handler, warm);
            })
        };
        let pool = Pool::new(
            settings.max_connections,
            settings.stack_size,
            settings.keep_idle_threads,
            work,
        );
        let result = loop {
            if shared.stopping.load(Ordering::SeqCst) {
                break Ok(());
            }
            match listener.accept() {
                Ok((stream, peer)) => {
                    if shared.stopping.load(Ordering::SeqCst) {
                        break Ok(());
                    }
                    if let Err((stream, _)) = pool.submit((stream, peer)) {
                        // Over the limit: 503 from the reject thread, or a
                        // plain close when it is already busy.
                        let _ = reject_tx.try_send(stream);
                    }
                }
                Err(e) => {
                    if shared.stopping.load(Ordering::SeqCst) {
                        break Ok(());
                    }
                    if !transient_accept_error(&e) {
                        break Err(e);
                    }
                    thread::sleep(Duration::from_millis(10));
                }
            }
        };
        drop(listener);
        drop(reject_tx);
        shared.stopping.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + settings.shutdown_timeout;
        loop {
            shared.interrupt(false);
            let step = (Instant::now() + Duration::from_millis(50)).min(deadline);
            if pool.wait_idle(step) {
                break;
            }
            if Instant::now() >= deadline {
                shared.interrupt(true);
                pool.wait_idle(Instant::now() + Duration::from_secs(1));
                break;
            }
        }
        pool.close();
        pool.wait_threads(Instant::now() + Duration::from_secs(1));
        result
    }
}

/// Stops a running server gracefully (see [`Server::serve`]). Cloneable and
/// usable from any thread, e.g. a signal-handling one.
#[derive(Clone)]
pub struct ShutdownHandle {
    shared: Arc<Shared>,
}

impl ShutdownHandle {
    /// Starts the graceful stop; `serve` returns once it is done.
    pub fn shutdown(&self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        self.shared.interrupt(false);
        // Wake the accept loop with a connection of our own.
        if let Some(addr) = *lock(&self.shared.wake_addr) {
            let _ = TcpStream::connect_timeout(&addr, Duration::from_secs(1));
        }
    }
    /// Whether a stop was asked for.
    pub fn is_shutting_down(&self) -> bool {
        self.shared.stopping.load(Ordering::SeqCst)
    }
}

/// Where to connect to wake a listener bound to `addr`.
fn wake_address(addr: SocketAddr) -> SocketAddr {
    let ip = match addr.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port())
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

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
    wake_addr: Mutex<Option<SocketAddr>>,
}

impl Shared {
    fn new() -> Shared {
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
    fn interrupt(&self, all: bool) {
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

/// Answers connections over the limit with `503` and closes them, one at a
/// time, each bounded to a fraction of a second.
fn reject_loop<S: Transport>(rx: Receiver<S>, shared: &Shared, server: Option<&[u8]>) {
    let mut msg = Vec::new();
    for mut stream in rx {
        let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
        busy_response(&mut msg, &shared.date.get(now_secs()), server);
        if stream.write_all(&msg).is_ok() {
            wire::linger(&mut stream, Duration::from_millis(250), 64 * 1024);
        }
    }
}

/// The `503` beyond the connection limit (no `ServerConn` is made for it).
fn busy_response(msg: &mut Vec<u8>, date: &[u8; 29], server: Option<&[u8]>) {
    msg.clear();
    msg.extend_from_slice(b"HTTP/1.1 503 Service Unavailable\r\n");
    if let Some(name) = server {
        msg.extend_from_slice(b"Server: ");
        msg.extend_from_slice(name);
        msg.extend_from_slice(b"\r\n");
    }
    msg.extend_from_slice(b"Date: ");
    msg.extend_from_slice(date);
    msg.extend_from_slice(b"\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_response_bytes() {
        let date = b"Sun, 06 Nov 1994 08:49:37 GMT";
        let mut msg = Vec::new();
        busy_response(&mut msg, date, Some(b"http-net"));
        assert_eq!(
            msg,
            b"HTTP/1.1 503 Service Unavailable\r\nServer: http-net\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        busy_response(&mut msg, date, None);
        assert!(msg.starts_with(b"HTTP/1.1 503 Service Unavailable\r\nDate: "));
    }

    #[test]
    #[should_panic(expected = "invalid server name")]
    fn server_name_is_validated_once() {
        let _ = ServerBuilder::default().server_name("a\r\nSet-Cookie: x=y");
    }
}
