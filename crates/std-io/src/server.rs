//! The blocking server: a builder, the accept loop, the connection limit and
//! graceful shutdown.

use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::connection;
use crate::descriptors;
use crate::handler::Handler;
use crate::hooks::Hooks;
use crate::lock::lock;
use crate::pool::{transient_accept_error, Pool, Work};
use crate::reject;
use crate::settings::Settings;
use crate::setup::{NoSetup, Setup};
use crate::shared::Shared;
use crate::transport::Listener;
use crate::wire::stamp;
use http_net_conn::driver::{open_file_limit, Answer, Endpoint, Linger, Refusal};
use http_net_conn::{Counters, ServerOptions};

/// Configures a [`Server`]; [`ServerBuilder::bind`] or
/// [`ServerBuilder::listener`] makes it. The setters both servers share
/// (limits, timeouts, hooks) are [`ServerOptions`]'s, written once in the
/// core: bring the trait into scope to call them. This builder's own are
/// the thread pool's.
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::conn::ServerOptions;
/// use std::time::Duration;
/// let server = http_net::blocking::Server::builder()
///     .max_connections(256)
///     .head_timeout(Duration::from_secs(5))
///     .bind("127.0.0.1:0")
///     .unwrap();
/// assert!(server.local_addr().unwrap().port() != 0);
/// ```
///
/// # The body of the error responses ([`error_body`](ServerOptions::error_body))
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::blocking::Server;
/// use http_net::conn::{ErrorBody, ServerOptions};
///
/// let server = Server::builder()
///     .error_body(|e| {
///         let json = format!(r#"{{"error":{},"reason":"{:?}"}}"#, e.status(), e.cause());
///         Some(ErrorBody { content_type: b"application/json".to_vec(), body: json.into_bytes() })
///     })
///     .bind("127.0.0.1:0")
///     .unwrap();
/// # let _ = server;
/// ```
///
/// # The status of an application's error ([`error_status`](ServerOptions::error_status))
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::blocking::{HandlerError, Server};
/// use http_net::conn::ServerOptions;
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
/// let server = Server::builder().error_status(status_of).bind("127.0.0.1:0").unwrap();
/// # let _ = server;
/// ```
///
/// # An access log ([`access_log`](ServerOptions::access_log))
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::conn::ServerOptions;
/// use http_net::blocking::Server;
///
/// let server = Server::builder()
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
///     .unwrap();
/// # let _ = server;
/// ```
///
/// # The application's mistakes ([`mistake_log`](ServerOptions::mistake_log))
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::conn::{LocalError, Mistake, ServerOptions};
/// use http_net::blocking::{Exchange, Server};
/// use std::sync::mpsc;
///
/// let (tx, rx) = mpsc::channel();
/// let tx = std::sync::Mutex::new(tx);
/// let server = Server::builder()
///     .mistake_log(move |m| tx.lock().unwrap().send(*m).unwrap())
///     .bind("127.0.0.1:0")?;
/// let addr = server.local_addr()?;
/// let stop = server.handle();
/// let thread = std::thread::spawn(move || {
///     // A field name with a space: refused, and the handler returns it.
///     server.serve(|ex: &mut Exchange<'_>| ex.respond_with(200, &[(b"Bad Name", b"x")], b""))
/// });
/// let resp = http_net::blocking::get(&format!("http://{addr}/"))?;
/// assert_eq!(resp.status(), 500);
/// assert_eq!(rx.recv()?, Mistake::Refused(LocalError::InvalidFieldName));
/// stop.shutdown();
/// thread.join().unwrap()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct ServerBuilder {
    s: Settings,
    hooks: Hooks,
}

impl ServerOptions for ServerBuilder {
    fn settings_mut(&mut self) -> &mut http_net_conn::ServerSettings {
        &mut self.s.core
    }
    fn hooks_mut(&mut self) -> &mut Hooks {
        &mut self.hooks
    }
}

impl ServerBuilder {
    /// The stack size of connection threads (default 2 MiB, Rust's own
    /// default for spawned threads, so that an ordinary handler — one with a
    /// 512 KiB buffer on its stack, say — cannot overflow it and abort the
    /// process). It is virtual memory: only the pages a thread touches are
    /// resident. Measured with 1,000 idle keep-alive connections (release
    /// build, VmRSS growth / 1,000): 28,168 bytes per connection with
    /// 128 KiB stacks, 32,227 bytes with 2 MiB stacks. Lower it only for
    /// handlers known to need little.
    pub fn thread_stack_size(mut self, bytes: usize) -> Self {
        self.s.stack_size = bytes.max(32 * 1024);
        self
    }
    /// How long a kept idle connection thread (one of the
    /// [`max_idle_threads`](ServerBuilder::max_idle_threads)) waits for the
    /// next connection before it exits (default 60 s; `0`: a thread exits
    /// as soon as it is idle, none is kept for reuse).
    pub fn keep_idle_threads(mut self, t: Duration) -> Self {
        self.s.keep_idle_threads = t;
        self
    }
    /// The most idle connection threads kept for reuse (default 64; `0`:
    /// none past the second a surplus thread waits), each
    /// for [`keep_idle_threads`](ServerBuilder::keep_idle_threads). The
    /// pool grows with the connections (up to twice the connection limit,
    /// counting those draining after their close); once they end, the idle
    /// threads beyond this many exit after 1 s without a new connection, so
    /// that after a burst or an attack the server falls back to at most
    /// this many connection threads (each holding its stack pages and its
    /// connection's buffers) within a second or two.
    ///
    /// ```
    /// let server = http_net_std::Server::builder()
    ///     .max_idle_threads(16)
    ///     .bind("127.0.0.1:0")
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn max_idle_threads(mut self, n: usize) -> Self {
        self.s.max_idle_threads = n;
        self
    }
    /// Binds a TCP listener.
    ///
    /// std's `TcpListener::bind` asks the kernel for a listen backlog of
    /// 128 pending connections, and std cannot ask for more. Under a flood
    /// of connects (thousands a second) that queue overflows and the kernel
    /// drops SYNs, so a well-behaved client waits for its retry (a second
    /// on Linux). For a deeper backlog, make the listener with a crate such
    /// as `socket2` and pass it to [`listener`](Self::listener), as the
    /// `hello` and `echo` examples do (1,024).
    pub fn bind(self, addr: impl ToSocketAddrs) -> io::Result<Server> {
        Ok(self.listener(TcpListener::bind(addr)?))
    }
    /// Serves connections from a listener of your own (e.g. one that hands
    /// out TLS streams).
    pub fn listener<L: Listener>(self, listener: L) -> Server<L> {
        self.serving(listener, None)
    }
    /// Serves connections from `listener` whose streams need a setup step
    /// before their first HTTP byte (a TLS handshake: the
    /// `http-net-rustls` crate's listener is one): each connection is
    /// admitted to a slot first (eviction, the per-peer cap and `503`
    /// apply as to any), then `setup` runs on the connection's own thread
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
        let shared = Arc::new(Shared::new(&settings, self.hooks));
        Server {
            listener,
            settings,
            shared,
            setup,
        }
    }
}

/// A blocking HTTP/1.1 server: one thread per open connection, from a pool
/// that grows with the connections and keeps up to 64 idle threads for
/// reuse ([`ServerBuilder::max_idle_threads`]).
///
/// # Defences
///
/// - **Slots go to those who make progress.** At the connection limit
///   (default 1,024) the connection making least progress is closed to
///   admit the newcomer: an idle keep-alive connection first (the longest
///   idle, closed between requests), then a partial request head, or one
///   waiting for a byte of its body or response, or whose body or response
///   is below its minimum rate since it started, whatever its age: those at
///   least the eviction grace (1 s) old first, then the younger ones and
///   those that have sent no byte yet, fewest bytes per second first (a
///   head or body gets `408`, a response is cut).
///   Admissions are counted, not threads: a connection draining its peer's
///   input after its close holds no slot. Otherwise the newcomer gets `503`
///   with `Retry-After: 1`, written without waiting on any peer.
/// - **Deadlines and minimum rates**: idle keep-alive 30 s; the whole head
///   10 s (`408`); a request body and a response each at least 240 bytes/s
///   after 10 s, and no stall (no byte at all) longer than 30 s counted from
///   the last progress; a whole-response deadline only as an option.
/// - **Descriptors**: on Linux the open-file limit is read from
///   `/proc/self/limits`; when it cannot hold two descriptors per
///   connection plus a reserve, the connection limit is lowered (with a
///   warning on stderr) so that clients beyond it get `503`; a reserve
///   descriptor lets the server answer `503` even when it runs out.
/// - **Handlers**: a panic is contained to its connection (`500`); handler
///   threads have 2 MiB stacks (Rust's default; see
///   [`ServerBuilder::thread_stack_size`]).
///
/// [`ServerHandle::counters`] counts what these do.
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::blocking::{Server, Exchange, Error};
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
pub struct Server<L: Listener = TcpListener, U = NoSetup> {
    listener: L,
    settings: Settings,
    shared: Arc<Shared>,
    /// The setup step of [`ServerBuilder::listener_with_setup`].
    setup: Option<Arc<U>>,
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

impl<L: Listener, U: Setup<L::Stream>> Server<L, U> {
    /// The address the server listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// A handle that stops the server gracefully, from any thread.
    pub fn handle(&self) -> ServerHandle {
        ServerHandle {
            shared: Arc::clone(&self.shared),
        }
    }

    /// Serves until [`ServerHandle::shutdown`]: then it stops accepting,
    /// closes idle connections, lets requests in flight finish (their
    /// responses carry `Connection: close`) for up to the shutdown timeout,
    /// and returns.
    ///
    /// The handler is any [`Handler`]: a `fn(&mut Exchange<'_>) -> Result<(),
    /// E>` (`E`: the server's [`Error`](crate::Error), any error of the
    /// application's, or [`HandlerError`](crate::HandlerError)), or a
    /// closure whose argument type is written out
    /// (`|ex: &mut Exchange<'_>| ...`), as Rust does not infer it through the
    /// trait bound.
    pub fn serve<H: Handler>(self, handler: H) -> io::Result<()> {
        let Server {
            listener,
            mut settings,
            shared,
            setup,
        } = self;
        // The handler's say on the body budget (`Handler::limits_request_bodies`).
        settings.conn = settings.conn_for(handler.limits_request_bodies());
        *lock(&shared.wake_addr) = Some(wake_address(listener.local_addr()?));
        let limit = start_endpoint(&shared, &settings, setup.is_some());
        let handler = Arc::new(handler);
        let (reject_tx, reject_rx) = sync_channel::<(L::Stream, Linger)>(reject::QUEUE);
        let rshared = Arc::clone(&shared);
        thread::Builder::new()
            .name("http-net-reject".into())
            .stack_size(64 * 1024)
            .spawn(move || reject::reject_loop(reject_rx, &rshared, settings.conn.server_name()))?;
        // Each pool thread keeps the `ServerConn` and the slot of its last
        // connection and reuses them for the next one: no allocation per
        // accepted connection.
        let work: Work<(L::Stream, Option<SocketAddr>), connection::Warm> = {
            let shared = Arc::clone(&shared);
            Arc::new(
                move |(stream, peer), warm: &mut connection::Warm| match &setup {
                    None => connection::run(stream, peer, &settings, &shared, &*handler, warm),
                    Some(u) => {
                        crate::setup::run((stream, peer), &settings, &shared, &*handler, warm, &**u)
                    }
                },
            )
        };
        // Admissions are bounded by `limit`; threads by twice that, so that
        // connections draining their peer's input after their close (or
        // evicted and finishing their answer) never hold a newcomer's slot.
        let pool = Pool::new(
            limit.saturating_mul(2),
            settings.stack_size,
            settings.max_idle_threads,
            settings.keep_idle_threads,
            work,
        );
        let server = settings.conn.server_name();
        let result = accept_loop(&listener, &shared, &pool, &reject_tx, server);
        drop(listener);
        drop(reject_tx);
        shared.stopping.store(true, Ordering::SeqCst);
        let stop = settings.stop_window(stamp(Instant::now()));
        let deadline = crate::wire::instant(stop.until());
        loop {
            shared.interrupt(false);
            let step = (Instant::now() + Duration::from_millis(50)).min(deadline);
            if pool.wait_idle(step) {
                break;
            }
            if stop.passed(stamp(Instant::now())) {
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

/// The endpoint a server runs with: its settings, the process's
/// open-file limit (read once, here), and whether it has a setup step;
/// its connection limit, lowered (with a warning) to fit the open files.
fn start_endpoint(shared: &Shared, settings: &Settings, setup: bool) -> usize {
    // The process's open-file limit, where `/proc/self/limits` gives one.
    let limits = std::fs::read_to_string("/proc/self/limits").ok();
    let open_files = limits.as_deref().and_then(open_file_limit);
    let endpoint = Endpoint::new(settings, open_files, setup);
    if let Some(lowered) = endpoint.lowered() {
        eprintln!("http-net: {lowered}");
    }
    let limit = endpoint.limit();
    *lock(&shared.endpoint) = endpoint;
    limit
}

/// Takes connections from `listener` until the stop, and carries out the
/// endpoint's answer for each: serve it on the pool (evicting its victim
/// first), or refuse it (answered by the reject thread through `reject`,
/// or closed).
fn accept_loop<L: Listener>(
    listener: &L,
    shared: &Shared,
    pool: &Pool<(L::Stream, Option<SocketAddr>), connection::Warm>,
    reject: &SyncSender<(L::Stream, Linger)>,
    server: Option<&[u8]>,
) -> io::Result<()> {
    let refuse = |stream, answer| match answer {
        // The endpoint bounds the refusals lingering: the queue has room.
        Answer::Refuse(Refusal::Linger(linger)) => drop(reject.send((stream, linger))),
        Answer::Refuse(Refusal::AtOnce) => reject::answer_now(stream, shared, server),
        _ => {}
    };
    let mut reserve = descriptors::Reserve::open();
    loop {
        reserve.reopen();
        if shared.stopping() {
            return Ok(());
        }
        let accepted = listener.accept();
        if shared.stopping() {
            return Ok(());
        }
        match accepted {
            Ok((stream, peer)) => {
                let (ip, now) = (peer.map(|p| p.ip()), stamp(Instant::now()));
                let answer = lock(&shared.endpoint).offer(ip, now, &shared.counters);
                if let Answer::Evict { ref victim, stage } = answer {
                    victim.evict(stage);
                }
                if let Answer::Refuse(_) = answer {
                    refuse(stream, answer);
                } else if let Err((stream, _)) = pool.submit((stream, peer)) {
                    let answer = lock(&shared.endpoint).withdraw(ip, now, &shared.counters);
                    refuse(stream, answer);
                }
            }
            // Out of descriptors: with the reserve's, take the peer out of
            // the backlog and answer it at once.
            Err(e) if descriptors::exhausted(&e) && reserve.release() => {
                if let Ok((stream, _)) = listener.accept() {
                    let refusal = lock(&shared.endpoint).exhausted(&shared.counters);
                    refuse(stream, Answer::Refuse(refusal));
                }
            }
            Err(e) if !transient_accept_error(&e) => return Err(e),
            Err(_) => thread::sleep(Duration::from_millis(10)),
        }
    }
}

/// Stops a running server gracefully (see [`Server::serve`]). Cloneable and
/// usable from any thread, e.g. a signal-handling one.
#[derive(Clone)]
pub struct ServerHandle {
    shared: Arc<Shared>,
}

impl ServerHandle {
    /// Starts the graceful stop; `serve` returns once it is done.
    pub fn shutdown(&self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        self.shared.interrupt(false);
        // Wake the accept loop with a connection of our own.
        if let Some(addr) = *lock(&self.shared.wake_addr) {
            let _ = TcpStream::connect_timeout(&addr, Duration::from_secs(1));
        }
    }
    /// The server's counters now: connections accepted, refused with
    /// `503`, evicted and timed out (by phase), and being served.
    pub fn counters(&self) -> Counters {
        self.shared.counters.snapshot()
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

impl<L: Listener, U> std::fmt::Debug for Server<L, U> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("settings", &self.settings)
            .field("setup", &self.setup.is_some())
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for ServerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerHandle")
            .field("stopping", &self.shared.stopping.load(Ordering::SeqCst))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "invalid server name")]
    fn server_name_is_validated_once() {
        let _ = ServerBuilder::default().server_name("a\r\nSet-Cookie: x=y");
    }
}
