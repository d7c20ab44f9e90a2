//! The server: a builder, the accept loop, the connection limit (eviction,
//! then `503`), graceful shutdown, and the counters.

use std::future::{poll_fn, Future};
use std::io;
use std::net::SocketAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::{pin, Pin};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use http_net_conn::driver::{Answer, Endpoint, Linger, Refusal};
use http_net_conn::{imf_fixdate, Rate};
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::connection;
use crate::handler::Handler;
use crate::hooks::Hooks;
use crate::setup::{NoSetup, Setup};
use crate::shared::{lock, open_files, Settings, Shared, SlotGuard};
use crate::slot::Slot;
use crate::timer;
use crate::wire::{self, Transport};
#[cfg(doc)]
use crate::{error::Error, exchange::Exchange};
use http_net_conn::Counters;

/// Where connections come from: a `TcpListener`, or one of your own (a TLS
/// acceptor over one). `accept` is raced against the shutdown signal, so it
/// must be cancel-safe: dropping its future loses no connection.
pub trait Listener: Send + 'static {
    /// The streams it hands out.
    type Stream: Transport + 'static;
    /// The next connection, with the peer's address when known.
    fn accept(
        &mut self,
    ) -> impl Future<Output = io::Result<(Self::Stream, Option<SocketAddr>)>> + Send;
    /// The address it listens on.
    fn local_addr(&self) -> io::Result<SocketAddr>;
}

impl Listener for TcpListener {
    type Stream = TcpStream;
    async fn accept(&mut self) -> io::Result<(TcpStream, Option<SocketAddr>)> {
        let (stream, peer) = TcpListener::accept(self).await?;
        // Responses leave as soon as they are written (no Nagle delay).
        let _ = stream.set_nodelay(true);
        Ok((stream, Some(peer)))
    }
    fn local_addr(&self) -> io::Result<SocketAddr> {
        TcpListener::local_addr(self)
    }
}

/// Configures a [`Server`]; [`ServerBuilder::bind`] or
/// [`ServerBuilder::listener`] makes it.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use std::time::Duration;
/// let server = http_net_tokio::Server::builder()
///     .max_connections(256)
///     .head_timeout(Duration::from_secs(5))
///     .bind("127.0.0.1:0")
///     .await
///     .unwrap();
/// assert!(server.local_addr().unwrap().port() != 0);
/// # });
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct ServerBuilder {
    s: Settings,
    hooks: Hooks,
}

impl ServerBuilder {
    setters! {
        /// The connection limit (default 1,024). A connection beyond it first
        /// evicts the open connection making least progress, by the core's
        /// `pick_eviction` (the std server's order): one closing after an
        /// error response; then an idle keep-alive connection, or one that
        /// pipelines so much that it waits for its turn between requests
        /// (the longest idle first); then, stalled at least the
        /// [eviction grace](ServerBuilder::eviction_grace), one waiting for
        /// room to write its response, which a peer that does not read never
        /// makes (the response is cut), or for the rest of its request head
        /// (it is answered `503`), the longest stalled first; then the same
        /// younger than the grace (a write after 200 ms without a byte
        /// taken), and those waiting for their first request. A connection
        /// whose handler is running and not waiting on such a write is never
        /// evicted: when no open connection can be, the new one is answered
        /// `503` with `Retry-After: 1` and closed.
        ///
        /// 0 is taken as 1 (a server serves at least one connection).
        ///
        /// Each connection is a task, not a thread: the std server's
        /// `thread_stack_size`, `keep_idle_threads` and `max_idle_threads` have no counterpart
        /// here (the runtime's own builder sets its worker threads).
        max_connections(n: usize) => max_connections = n.max(1);
        /// How eviction at the connection limit orders stalled connections
        /// (default 1 s). Those waiting at least this long for the rest of
        /// a request head or for room to write go before the younger ones
        /// and before those waiting for their first byte (see
        /// [`max_connections`](ServerBuilder::max_connections) for the
        /// order). The grace orders, it does not protect: a young stalled
        /// connection is evictable too, so that a wave of slowloris sockets
        /// cannot hold every slot for a grace.
        eviction_grace(t: Duration) => eviction_grace = t;
        /// The most connections one peer address may hold at once (default 0:
        /// no such cap). Connections beyond it are answered `503` with
        /// `Retry-After` and closed, whatever the free slots (they evict no
        /// one). A connection counts until it is closed.
        max_connections_per_peer(n: usize) => max_connections_per_peer = n;
        /// Requests served on one connection before it is closed (default
        /// 1,000, as nginx's `keepalive_requests` and the std server; 0: no
        /// limit); the last response carries `Connection: close`. It bounds
        /// how long a peer that pipelines requests and never reads its
        /// responses keeps its slot (its responses go to the kernel's
        /// buffers, which looks like progress until they fill).
        max_requests_per_connection(n: u64) => max_requests = n;
    }
    http_net_conn::__server_builder_setters! {
        settings: s,
        hooks: hooks,
        runs_on: "task",
        max_body_bytes: {
            /// ```
            /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
            /// let server = http_net_tokio::Server::builder()
            ///     .max_body_bytes(1 << 20)
            ///     .bind("127.0.0.1:0")
            ///     .await
            ///     .unwrap();
            /// # let _ = server;
            /// # });
            /// ```
        },
        error_body: {
            /// The `503` beyond the connection limit is asked for once a second.
            ///
            /// ```
            /// use http_net_tokio::{ErrorBody, ErrorCause};
            ///
            /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
            /// let server = http_net_tokio::Server::builder()
            ///     .error_body(|r| {
            ///         let why = match r.cause() {
            ///             ErrorCause::OverLimit(_) => "too large",
            ///             ErrorCause::Timeout(_) => "too slow",
            ///             _ => "error",
            ///         };
            ///         Some(ErrorBody {
            ///             content_type: b"application/json".to_vec(),
            ///             body: format!(r#"{{"status":{},"error":"{why}"}}"#, r.status()).into_bytes(),
            ///         })
            ///     })
            ///     .bind("127.0.0.1:0")
            ///     .await
            ///     .unwrap();
            /// # let _ = server;
            /// # });
            /// ```
        },
        error_status: {
            /// ```
            /// use http_net_tokio::HandlerError;
            ///
            /// /// The application's own error type.
            /// #[derive(Debug)]
            /// enum AppError {
            ///     NoSuchNote,
            ///     Database,
            /// }
            /// impl std::fmt::Display for AppError {
            ///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            ///         f.write_str(match self { AppError::NoSuchNote => "no such note", AppError::Database => "database" })
            ///     }
            /// }
            /// impl std::error::Error for AppError {}
            ///
            /// fn status_of(e: &HandlerError) -> Option<u16> {
            ///     match e.downcast_ref::<AppError>()? {
            ///         AppError::NoSuchNote => Some(404),
            ///         AppError::Database => Some(503),
            ///     }
            /// }
            /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
            /// let server = http_net_tokio::Server::builder()
            ///     .error_status(status_of)
            ///     .bind("127.0.0.1:0")
            ///     .await
            ///     .unwrap();
            /// # let _ = server;
            /// # });
            /// ```
        },
        access_log: {
            /// ```
            /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
            /// let server = http_net_tokio::Server::builder()
            ///     .access_log(|r| {
            ///         eprintln!(
            ///             "{} {} {:?} {}B {:?} {:?}",
            ///             r.method(),
            ///             String::from_utf8_lossy(r.target()),
            ///             r.status(),
            ///             r.bytes(),
            ///             r.duration(),
            ///             r.error()
            ///         )
            ///     })
            ///     .bind("127.0.0.1:0")
            ///     .await
            ///     .unwrap();
            /// # let _ = server;
            /// # });
            /// ```
        },
        mistake_log: {
            /// ```
            /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
            /// let server = http_net_tokio::Server::builder()
            ///     .mistake_log(|m| eprintln!("my-app: {m}"))
            ///     .bind("127.0.0.1:0")
            ///     .await
            ///     .unwrap();
            /// # let _ = server;
            /// # });
            /// ```
        },
    }
    setters! {
        /// How long a keep-alive connection may sit idle between requests
        /// (default 30 s); then it is closed without a response.
        idle_timeout(t: Duration) => idle_timeout = t;
        /// The whole-head deadline, counted from a request's first byte (default
        /// 10 s): a head not complete by then gets `408` and the connection
        /// closes (slowloris).
        head_timeout(t: Duration) => head_timeout = t;
        /// The longest wait for the next bytes of a request body (default 30 s);
        /// the body read then fails and, if nothing was sent, `408` is answered.
        body_timeout(t: Duration) => body_timeout = t;
        /// The longest wait for one write to make progress (default 30 s): a
        /// peer that does not read its responses is disconnected after it.
        write_timeout(t: Duration) => write_timeout = t;
        /// The minimum request body rate (default 240 bytes/s after a 10 s
        /// grace, as the std server's): once the handler's body reads have
        /// waited on the peer `grace` in all, the peer must have sent at least `bytes_per_sec`
        /// body bytes (with their framing) for every second they waited, else
        /// the read fails and `408` is answered if nothing was sent. Only time
        /// spent waiting on the peer counts: a handler that pauses between
        /// reads is not held against it. 0 bytes/s turns it off.
        min_body_rate(bytes_per_sec: u64, grace: Duration) =>
            min_body_rate = Rate { bytes_per_sec, grace };
        /// The minimum response rate (default 240 bytes/s after a 10 s grace,
        /// as the std server's):
        /// once a response's writes have waited on the peer `grace` in all, the
        /// peer must have taken at least `bytes_per_sec` for every second they
        /// waited, else the connection is cut. 0 bytes/s turns it off.
        min_response_rate(bytes_per_sec: u64, grace: Duration) =>
            min_response_rate = Rate { bytes_per_sec, grace };
        /// A deadline for writing a whole response, counted from its request's
        /// head (default: none, so that a large download to a slow but honest
        /// client completes; the minimum response rate and the write timeout
        /// bound it instead). Past it the connection is cut: the write fails
        /// with [`Error::Timeout`]`(`[`Stage::Write`](crate::Stage::Write)`)`, counted in
        /// [`Counters::timed_out`](crate::Counters::timed_out)`.write`.
        response_timeout(t: Option<Duration>) => response_timeout = t;
    }
    /// After an error response: how long, and how many bytes at most, the
    /// peer's input is drained after half-closing (default 2 s, 1 MiB), so
    /// that it reads the response rather than a reset. A zero time or 0
    /// bytes: no drain (the connection closes at once after the response).
    /// A peer that sends more, or for longer, is cut off there.
    pub fn drain(mut self, time: Duration, bytes: u64) -> Self {
        self.s.drain_time = time;
        self.s.drain_bytes = bytes;
        self
    }
    /// The open-file limit the connection limit is fitted into (default:
    /// the process's, read from `/proc/self/limits` when serving starts,
    /// where there is one): when it cannot hold two descriptors per
    /// connection plus a reserve
    /// ([`RESERVED_DESCRIPTORS`](http_net_conn::driver::RESERVED_DESCRIPTORS)),
    /// the connection limit is lowered to what it holds (with a warning on
    /// stderr), so that clients beyond it get `503` rather than a server
    /// out of descriptors.
    pub fn open_file_limit(mut self, files: u64) -> Self {
        self.s.open_file_limit = Some(files);
        self
    }
    setters! {
        /// The longest a graceful shutdown waits for requests in flight (default
        /// 30 s); then the remaining connections are cut.
        shutdown_timeout(t: Duration) => shutdown_timeout = t;
        /// Whether `CONNECT` requests reach the handler (default: no, they are
        /// answered `501`: RFC 9110 §9.3.6 makes it a proxy's method). With
        /// tunnels on, a handler answers `2xx` and takes the stream with
        /// [`Exchange::upgrade`].
        tunnels(on: bool) => tunnels = on;
    }
    /// The `Server` field written in every response (default: none): the
    /// handler's answers (unless their fields carry a `Server` of their own),
    /// the error responses the connection writes itself, and the `503`
    /// beyond the connection limit.
    ///
    /// # Panics
    ///
    /// If `name` is empty, or holds a control byte or surrounding whitespace
    /// (it could split a response). [`Config::with_server_name`](http_net_conn::Config::with_server_name) with
    /// [`conn_config`](ServerBuilder::conn_config) is the fallible way.
    pub fn server_name(mut self, name: &'static str) -> Self {
        match self.s.overrides.with_server_name(name.as_bytes()) {
            Ok(overrides) => self.s.overrides = overrides,
            Err(e) => panic!("invalid server name {name:?}: {e}"),
        }
        self
    }
    setters! {
        /// Turns the front-line profile on or off (default off), for a server
        /// in front of or behind other parsers (a proxy, a cache, a load
        /// balancer), where a request some parser reads differently is itself
        /// the risk. With it on, a request is answered `400` (`501` for a
        /// method outside the IANA registry) and the connection closed for: a
        /// method outside the registry; `%00`, `%0D` or `%0A` in the target; a
        /// `Content-Length` with leading zeros, whitespace around the digits
        /// other than one SP before them, a list or a second line; an
        /// absolute-form target whose authority is not `Host`; a framing,
        /// routing, credential or content-handling field in the trailers; an
        /// `Upgrade` that is not a list of protocols. Each form's reason is at
        /// [`http_net_conn::head::HeadLimits::with_front_line`]. It sets the
        /// profile in the connection configuration whether
        /// [`conn_config`](ServerBuilder::conn_config) comes before or after it.
        ///
        /// ```
        /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
        /// let server = http_net_tokio::Server::builder()
        ///     .front_line(true)
        ///     .bind("127.0.0.1:0")
        ///     .await
        ///     .unwrap();
        /// # let _ = server;
        /// # });
        /// ```
        front_line(on: bool) => overrides.with_front_line(on);
        /// Zero consumed input and sent output of every connection.
        wipe_buffers(wipe: bool) => wipe = wipe;
    }
    /// Binds a TCP listener.
    pub async fn bind(self, addr: impl ToSocketAddrs) -> io::Result<Server> {
        Ok(self.listener(TcpListener::bind(addr).await?))
    }
    /// Serves connections from a listener of your own (e.g. one that hands
    /// out TLS streams), or a `TcpListener` made elsewhere.
    pub fn listener<L: Listener>(self, listener: L) -> Server<L> {
        let mut settings = self.s;
        settings.conn = settings.overrides.apply(settings.conn);
        Server {
            listener,
            shared: Arc::new(Shared::new(settings, self.hooks)),
            setup: None,
        }
    }
    /// Serves connections from `listener` whose streams need a setup step
    /// before their first HTTP byte (a TLS handshake: the
    /// `http-net-rustls` crate's listener is one): each connection is
    /// admitted to a slot first (eviction, the per-peer cap and `503`
    /// apply as to any), then `setup` runs on the connection's own task
    /// within the [`setup_timeout`](ServerBuilder::setup_timeout), then the
    /// stream it returns is served. A failed setup closes that connection
    /// only ([`Counters::setup_failed`]). A connection refused at the limit
    /// is closed without the `503`, which its peer could not read before
    /// the setup.
    pub fn listener_with_setup<L: Listener, U: Setup<L::Stream>>(
        self,
        listener: L,
        setup: U,
    ) -> Server<L, U> {
        let Server {
            listener, shared, ..
        } = self.listener(listener);
        Server {
            listener,
            shared,
            setup: Some(Arc::new(setup)),
        }
    }
}

/// An async HTTP/1.1 server: one task per connection, each driving a
/// [`http_net_conn::ServerConn`].
///
/// ```
/// use http_net_tokio::{Exchange, Handler, HandlerError, Server};
///
/// struct Hi;
/// impl Handler for Hi {
///     async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
///         ex.respond_with(200, &[(b"Content-Type", b"text/plain")], b"hi").await?;
///         Ok(())
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let server = Server::bind("127.0.0.1:0").await.unwrap();
/// let handle = server.handle();
/// let task = tokio::spawn(server.serve(Hi));
/// // ... use http://{addr}/ ...
/// handle.shutdown();
/// task.await.unwrap().unwrap();
/// # });
/// ```
pub struct Server<L: Listener = TcpListener, U = NoSetup> {
    listener: L,
    shared: Arc<Shared>,
    /// The setup step of [`ServerBuilder::listener_with_setup`].
    setup: Option<Arc<U>>,
}

impl Server {
    /// A server with the default settings on a TCP address (port 0 picks a
    /// free port: see [`Server::local_addr`]).
    pub async fn bind(addr: impl ToSocketAddrs) -> io::Result<Server> {
        ServerBuilder::default().bind(addr).await
    }
    /// A builder with the default settings.
    pub fn builder() -> ServerBuilder {
        ServerBuilder::default()
    }
}

impl<L: Listener, U: Setup<L::Stream>> Server<L, U> {
    /// The address the server listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// A handle that stops the server gracefully and reads its counters,
    /// from any task or thread.
    pub fn handle(&self) -> ServerHandle {
        ServerHandle {
            shared: Arc::clone(&self.shared),
        }
    }

    /// Serves until [`ServerHandle::shutdown`]: then it stops accepting
    /// (the listener is closed), closes idle connections, lets requests in
    /// flight finish (their responses carry `Connection: close`) for up to
    /// the shutdown timeout, cuts what remains, and returns.
    pub async fn serve<H: Handler>(self, handler: H) -> io::Result<()> {
        let Server {
            listener,
            shared,
            setup,
        } = self;
        // The handler's say on the body budget (`Handler::limits_request_bodies`).
        shared.settings.fix_for(handler.limits_request_bodies());
        start_endpoint(&shared, setup.is_some());
        let mut listener = Some(listener);
        let handler = Arc::new(handler);
        let mut tasks = JoinSet::new();
        let mut result = Ok(());
        // The `Date` clock: the wall clock read at each second's start.
        shared.tick_date();
        let mut tick = pin!(tokio::time::sleep(crate::date::until_next_second()));
        while let Some(l) = listener.as_mut() {
            if shared.stopping() {
                break;
            }
            // The shutdown signal first, then the clock, then finished tasks
            // are reaped, then the next connection.
            let mut stop = pin!(shared.stop.notified());
            let mut accept = pin!(l.accept());
            let next = poll_fn(|cx| {
                if stop.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(None);
                }
                if tick.as_mut().poll(cx).is_ready() {
                    shared.tick_date();
                    let next = Instant::now() + crate::date::until_next_second();
                    tick.as_mut().reset(next);
                    return Poll::Ready(Some(None));
                }
                if !tasks.is_empty() && tasks.poll_join_next(cx).is_ready() {
                    return Poll::Ready(Some(None));
                }
                accept.as_mut().poll(cx).map(|r| Some(Some(r)))
            })
            .await;
            let accepted = match next {
                None => break,
                Some(None) => continue,
                Some(Some(r)) => r,
            };
            match accepted {
                Ok((stream, peer)) => {
                    let setup = setup.as_ref();
                    if let Some(conn) = admit(&shared, &handler, &mut tasks, stream, peer, setup) {
                        first_turn(conn, &mut tasks).await;
                    }
                }
                Err(e) if transient_accept_error(&e) => {
                    // Out of descriptors, an aborted handshake: wait a little.
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        // Stop accepting: the kernel refuses new connections from now on.
        listener = None;
        drop(listener);
        shared.stopping.store(true, Ordering::SeqCst);
        shared.wake_idle();
        let stop = shared.settings.stop_window(wire::stamp(Instant::now()));
        while !tasks.is_empty() {
            if tokio::time::timeout_at(wire::instant(stop.until()), tasks.join_next())
                .await
                .is_err()
            {
                tasks.abort_all();
                while tasks.join_next().await.is_some() {}
            }
        }
        result
    }
}

/// A new connection's future, before its first turn.
type Connection = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Runs a new connection's first turn on the accept loop's task, then gives
/// it a task of its own if it is not done. So a new connection's first
/// request, usually in its socket by the time it is accepted, is answered
/// at once rather than after one turn of every connection that is ready to
/// run (on one thread, under a flood of pipelining peers, that is hundreds
/// of milliseconds); the general twin is spawning it straight away. A panic
/// outside the handler (which has its own guard) ends that connection only.
async fn first_turn(mut conn: Connection, tasks: &mut JoinSet<()>) {
    let done = poll_fn(|cx| {
        Poll::Ready(
            match catch_unwind(AssertUnwindSafe(|| conn.as_mut().poll(cx))) {
                Ok(Poll::Pending) => false,
                Ok(Poll::Ready(())) | Err(_) => true,
            },
        )
    })
    .await;
    if !done {
        tasks.spawn(conn);
    }
}

/// The endpoint a server runs with: its settings, the process's
/// open-file limit (read once, here), and whether it has a setup step;
/// its connection limit lowered (with a warning) to fit the open files.
fn start_endpoint(shared: &Shared, setup: bool) {
    let endpoint = Endpoint::new(&shared.settings, open_files(), setup);
    if let Some(lowered) = endpoint.lowered() {
        eprintln!("http-net: {lowered}");
    }
    *lock(&shared.endpoint) = endpoint;
}

/// Takes a new connection in and carries out the endpoint's answer: its
/// future is returned to run, with a slot (its victim's task woken first
/// when one was evicted for it), or it is refused.
fn admit<H: Handler, S: Transport + 'static, U: Setup<S>>(
    shared: &Arc<Shared>,
    handler: &Arc<H>,
    tasks: &mut JoinSet<()>,
    stream: S,
    peer: Option<SocketAddr>,
    setup: Option<&Arc<U>>,
) -> Option<Connection> {
    let (ip, now) = (peer.map(|p| p.ip()), timer::stamp(Instant::now()));
    let mut endpoint = lock(&shared.endpoint);
    match endpoint.offer(ip, now, &shared.counters) {
        Answer::Refuse(refusal) => {
            drop(endpoint);
            refuse(shared, tasks, stream, refusal);
            return None;
        }
        Answer::Evict { victim, stage } => victim.evict(stage),
        Answer::Accept => {}
    }
    let slot = Arc::clone(endpoint.open(ip, |id| Arc::new(Slot::new(id, now))));
    drop(endpoint);
    let guard = SlotGuard {
        shared: Arc::clone(shared),
        slot,
    };
    let handler = Arc::clone(handler);
    Some(match setup {
        None => Box::pin(connection::run(stream, peer, guard, handler)),
        Some(u) => Box::pin(crate::setup::run(
            stream,
            peer,
            guard,
            handler,
            Arc::clone(u),
        )),
    })
}

/// Carries out a refusal on a task of its own: the `503` with
/// `Retry-After: 1` (with the error-body hook's body, asked once a second),
/// then its linger, or one read without a wait ([`Refusal::AtOnce`]); or
/// the connection is closed unanswered.
fn refuse<S: Transport + 'static>(
    shared: &Arc<Shared>,
    tasks: &mut JoinSet<()>,
    mut stream: S,
    refusal: Refusal,
) {
    let (linger, lingers) = match refusal {
        Refusal::Linger(linger) => (linger, true),
        Refusal::AtOnce => (Linger::after_refusal(timer::stamp(Instant::now())), false),
        _ => return,
    };
    let shared = Arc::clone(shared);
    tasks.spawn(async move {
        let secs = shared.date_secs();
        let server = shared.settings.conn.server_name();
        let msg = shared
            .busy
            .get(secs, || imf_fixdate(secs), server, &shared.hooks);
        // One bound for the answer and the linger after it.
        let until = wire::instant(linger.until());
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        if let Some(Ok(())) = wire::bounded(until, stream.write_all(&msg)).await {
            if lingers {
                wire::linger(&mut stream, Some(linger), None).await;
            } else if let Some(Ok(())) = wire::bounded(until, stream.shutdown()).await {
                let _ = wire::bounded(Instant::now(), stream.read(&mut [0u8; 4096])).await;
            }
        }
        if lingers {
            lock(&shared.endpoint).refusal_ended();
        }
    });
}

/// Whether an accept error is worth retrying after a pause (out of file
/// descriptors, an aborted handshake) rather than ending the server.
fn transient_accept_error(e: &io::Error) -> bool {
    !matches!(
        e.kind(),
        io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported
    )
}

/// Stops a [`Server`] and reads its counters; cheap to clone.
#[derive(Clone)]
pub struct ServerHandle {
    shared: Arc<Shared>,
}

impl ServerHandle {
    /// Starts a graceful shutdown (see [`Server::serve`]); returns at once.
    pub fn shutdown(&self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        self.shared.stop.notify_one();
        self.shared.wake_idle();
    }

    /// The counters so far.
    pub fn counters(&self) -> Counters {
        self.shared.counters.snapshot()
    }
}

impl<L: Listener, U> std::fmt::Debug for Server<L, U> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("stopping", &self.shared.stopping())
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for ServerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerHandle")
            .field("stopping", &self.shared.stopping())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::{BufferPool, POOL_MAX};
    use http_net_conn::{Buffers, Config, ServerConn};

    #[test]
    fn the_default_minimum_rates_are_the_std_servers() {
        // One name, one meaning: `min_body_rate` and `min_response_rate`
        // default to 240 bytes/s after a 10 s grace on both adapters.
        let s = Settings::DEFAULT;
        for rate in [s.min_body_rate, s.min_response_rate] {
            assert_eq!(rate.bytes_per_sec, 240);
            assert_eq!(rate.grace, Duration::from_secs(10));
        }
    }

    #[test]
    #[should_panic(expected = "invalid server name")]
    fn server_name_is_validated_once() {
        let _ = ServerBuilder::default().server_name("a\r\nSet-Cookie: x=y");
    }

    #[test]
    fn a_closed_connection_starts_the_next_one_with_its_buffers_lent() {
        use http_net_conn::ServerEvent;
        let sh = Shared::new(Settings::DEFAULT, Hooks::default());
        let mut first = sh.conns.take(Config::DEFAULT, false);
        assert!(!first.buffers_lent(), "an empty pool makes a new one");
        // Closed mid-head: its bytes must not reach the next connection.
        let partial = b"GET /secret HTTP/1.1\r\nHo";
        assert_eq!(first.recv(partial), partial.len());
        sh.conns.put(first, &sh.buffers);
        assert_eq!((sh.conns.len(), sh.buffers.len()), (1, 1));
        let mut next = sh.conns.take(Config::DEFAULT, false);
        assert!(next.buffers_lent(), "nothing allocated for it");
        assert_eq!(sh.conns.len(), 0);
        assert!(next
            .restore_buffers(sh.buffers.take(&Config::DEFAULT))
            .is_ok());
        let req = b"GET /b HTTP/1.1\r\nHost: a\r\n\r\n";
        assert_eq!(next.recv(req), req.len());
        match next.poll_event() {
            Ok(ServerEvent::Request(v)) => assert_eq!(v.target(), b"/b"),
            e => panic!("{e:?}"),
        }
        // Bounded like the buffer pool.
        let mut s = Settings::DEFAULT;
        s.max_connections = 1;
        let sh = Shared::new(s, Hooks::default());
        for _ in 0..3 {
            sh.conns.put(ServerConn::new(Config::DEFAULT), &sh.buffers);
        }
        assert_eq!((sh.conns.len(), sh.buffers.len()), (1, 1));
    }

    #[test]
    fn the_buffer_pool_is_bounded_and_makes_buffers_when_empty() {
        let pool = BufferPool::new(2);
        let b = pool.take(&Config::DEFAULT);
        assert!(b.allocated_bytes() > 0);
        for _ in 0..5 {
            pool.put(Buffers::new(&Config::DEFAULT));
        }
        assert_eq!(pool.len(), 2, "extras are dropped");
        drop(pool.take(&Config::DEFAULT));
        assert_eq!(pool.len(), 1);
        let mut s = Settings::DEFAULT;
        s.max_connections = 3;
        assert_eq!(
            Shared::new(s, Hooks::default()).buffers.max,
            3,
            "never more than connections"
        );
        assert_eq!(
            Shared::new(Settings::DEFAULT, Hooks::default()).buffers.max,
            POOL_MAX
        );
    }
}
