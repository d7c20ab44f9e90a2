//! The server: a builder, the accept loop, the connection limit (eviction,
//! then `503`), graceful shutdown, and the counters.

use std::future::{poll_fn, Future};
use std::io;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use http_net_conn::driver::{open_file_limit, Answer, Endpoint, Linger, Refusal};
use http_net_conn::imf_fixdate;
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::connection;
use crate::handler::Handler;
use crate::hooks::Hooks;
use crate::setup::{NoSetup, Setup};
use crate::shared::{lock, Settings, Shared, SlotGuard};
use crate::slot::Slot;
use crate::timer;
use crate::wire::{self, Transport};
#[cfg(doc)]
use crate::{error::Error, exchange::Exchange};
use http_net_conn::{Counters, ServerOptions};

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
/// [`ServerBuilder::listener`] makes it. The setters both servers share
/// (limits, timeouts, hooks) are [`ServerOptions`]'s, written once in the
/// core: bring the trait into scope to call them. Each connection is a
/// task, not a thread: the std server's thread-pool setters have no
/// counterpart here (the runtime's own builder sets its worker threads).
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use http_net_tokio::ServerOptions;
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
///
/// # The body of the error responses ([`error_body`](ServerOptions::error_body))
///
/// The `503` beyond the connection limit is asked for once a second.
///
/// ```
/// use http_net_tokio::{ErrorBody, ErrorCause, ServerOptions};
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
///
/// # The status of an application's error ([`error_status`](ServerOptions::error_status))
///
/// ```
/// use http_net_tokio::{HandlerError, ServerOptions};
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
///
/// # An access log ([`access_log`](ServerOptions::access_log))
///
/// ```
/// use http_net_tokio::ServerOptions;
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
///
/// # The application's mistakes ([`mistake_log`](ServerOptions::mistake_log))
///
/// ```
/// use http_net_tokio::ServerOptions;
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let server = http_net_tokio::Server::builder()
///     .mistake_log(|m| eprintln!("my-app: {m}"))
///     .bind("127.0.0.1:0")
///     .await
///     .unwrap();
/// # let _ = server;
/// # });
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct ServerBuilder {
    s: Settings,
    hooks: Hooks,
}

impl ServerOptions for ServerBuilder {
    fn settings_mut(&mut self) -> &mut Settings {
        &mut self.s
    }
    fn hooks_mut(&mut self) -> &mut Hooks {
        &mut self.hooks
    }
}

impl ServerBuilder {
    /// Binds a TCP listener.
    pub async fn bind(self, addr: impl ToSocketAddrs) -> io::Result<Server> {
        Ok(self.listener(TcpListener::bind(addr).await?))
    }
    /// Serves connections from a listener of your own (e.g. one that hands
    /// out TLS streams), or a `TcpListener` made elsewhere.
    pub fn listener<L: Listener>(self, listener: L) -> Server<L> {
        self.serving(listener, None)
    }
    /// Serves connections from `listener` whose streams need a setup step
    /// before their first HTTP byte (a TLS handshake: the
    /// `http-net-rustls` crate's listener is one): each connection is
    /// admitted to a slot first (eviction, the per-peer cap and `503`
    /// apply as to any), then `setup` runs on the connection's own task
    /// within the [`setup_timeout`](crate::ServerOptions::setup_timeout), then the
    /// stream it returns is served. A failed setup closes that connection
    /// only ([`Counters::setup_failed`]). A connection refused at the limit
    /// is closed without the `503`, which its peer could not read before
    /// the setup.
    pub fn listener_with_setup<L: Listener, U: Setup<L::Stream>>(
        self,
        listener: L,
        setup: U,
    ) -> Server<L, U> {
        self.serving(listener, Some(Arc::new(setup)))
    }
    /// The server on `listener`, with `setup` when it has one.
    fn serving<L: Listener, U>(self, listener: L, setup: Option<Arc<U>>) -> Server<L, U> {
        let mut settings = self.s;
        settings.conn = settings.overrides.apply(settings.conn);
        let shared = Arc::new(Shared::new(settings, self.hooks));
        Server {
            listener,
            shared,
            setup,
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
            mut listener,
            shared,
            setup,
        } = self;
        // The handler's say on the body budget (`Handler::limits_request_bodies`).
        let _ = (shared.config).set(shared.settings.conn_for(handler.limits_request_bodies()));
        start_endpoint(&shared, setup.is_some());
        let handler = Arc::new(handler);
        let mut tasks = JoinSet::new();
        // The `Date` clock: the wall clock read at each second's start.
        shared.tick_date();
        let mut tick = pin!(tokio::time::sleep(crate::date::until_next_second()));
        let result = loop {
            if shared.stopping() {
                break Ok(());
            }
            // The shutdown signal first, then the clock, then finished tasks
            // are reaped, then the next connection.
            let mut stop = pin!(shared.stop.notified());
            let mut accept = pin!(listener.accept());
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
            match next {
                None => break Ok(()),
                Some(None) => {}
                Some(Some(Ok((stream, peer)))) => {
                    let setup = setup.as_ref();
                    if let Some(conn) = admit(&shared, &handler, &mut tasks, stream, peer, setup) {
                        first_turn(conn, &mut tasks).await;
                    }
                }
                // Out of descriptors, an aborted handshake: wait a little.
                Some(Some(Err(e))) if transient_accept_error(&e) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                Some(Some(Err(e))) => break Err(e),
            }
        };
        // Stop accepting: the kernel refuses new connections from now on.
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
    // Pending after its turn (`None`); done or panicked (`Some`).
    if wire::poll_once(pin!(connection::catch(conn.as_mut())))
        .await
        .is_none()
    {
        tasks.spawn(conn);
    }
}

/// The endpoint a server runs with: its settings, the process's
/// open-file limit (read once, here), and whether it has a setup step;
/// its connection limit lowered (with a warning) to fit the open files.
fn start_endpoint(shared: &Shared, setup: bool) {
    // The process's open-file limit, where `/proc/self/limits` gives one.
    let limits = std::fs::read_to_string("/proc/self/limits").ok();
    let open_files = limits.as_deref().and_then(open_file_limit);
    let endpoint = Endpoint::new(&shared.settings, open_files, setup);
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
