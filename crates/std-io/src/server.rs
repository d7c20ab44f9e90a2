//! The blocking server: a builder, the accept loop, the connection limit and
//! graceful shutdown.

use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::Ordering;
use std::sync::mpsc::sync_channel;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::connection;
use crate::descriptors;
use crate::handler::Handler;
use crate::hooks::Hooks;
use crate::lock::lock;
use crate::pool::{transient_accept_error, Pool, Work};
use crate::registry::{Admission, Shared};
use crate::reject;
use crate::settings::Settings;
use crate::setup::{NoSetup, Setup};
use crate::transport::Listener;
use http_net_conn::Counters;
use http_net_conn::Rate;

/// Configures a [`Server`]; [`ServerBuilder::bind`] or
/// [`ServerBuilder::listener`] makes it.
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use std::time::Duration;
/// let server = http_net::blocking::Server::builder()
///     .max_connections(256)
///     .head_timeout(Duration::from_secs(5))
///     .bind("127.0.0.1:0")
///     .unwrap();
/// assert!(server.local_addr().unwrap().port() != 0);
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct ServerBuilder {
    s: Settings,
    hooks: Hooks,
}

impl ServerBuilder {
    /// The connection limit (default 1,024; `0` is taken as 1): at the
    /// limit the connection making least progress is evicted (see
    /// [`eviction_grace`](ServerBuilder::eviction_grace)), and when none
    /// can be, a newcomer is answered `503` with `Connection: close`
    /// ([`ErrorCause::Busy`](crate::ErrorCause::Busy)) and closed (it does
    /// not wait in the backlog). Each open connection holds a thread.
    pub fn max_connections(mut self, n: usize) -> Self {
        self.s.max_connections = n.max(1);
        self
    }
    /// The most connections one peer address may hold at once (default `0`:
    /// no such cap). Connections beyond it are answered `503` with
    /// `Retry-After` ([`ErrorCause::Busy`](crate::ErrorCause::Busy)) and
    /// closed, whatever the free slots.
    pub fn max_connections_per_peer(mut self, n: usize) -> Self {
        self.s.max_connections_per_peer = n;
        self
    }
    /// How eviction at the connection limit orders stalled connections
    /// (default 1 s; `0`: every stalled connection counts as old enough,
    /// and the fewest bytes per second goes first). A newcomer at the limit closes the connection making
    /// the least progress: an idle keep-alive connection first (the
    /// longest idle; closed between requests), then a partial request head,
    /// the drain of an unread body, or a body or response below its minimum
    /// rate counted since it started or waiting for a byte (a peer that does
    /// not send or does not read) — those at least this old before the
    /// younger ones and before a connection that has sent no byte yet, then
    /// the fewest bytes per second, then the longest in its phase. The grace orders,
    /// it does not protect: every such connection is evictable whatever
    /// its age. A head or body gets `408`, a response is cut. A young
    /// response is evicted only below its rate or after 200 ms without a
    /// byte taken. Only handlers moving data at their rate are never
    /// evicted; when they hold every slot, the newcomer gets `503`.
    pub fn eviction_grace(mut self, t: Duration) -> Self {
        self.s.eviction_grace = t;
        self
    }
    /// Requests served on one connection before it is closed (default
    /// 1,000, as nginx's `keepalive_requests`; `0`: no limit); the last
    /// response carries `Connection: close` (no error: the peer opens a new
    /// connection). It bounds how long a peer that
    /// pipelines requests and never reads its responses (their bytes go to
    /// the kernel's socket buffers until those fill) keeps its slot.
    pub fn max_requests_per_connection(mut self, n: u64) -> Self {
        self.s.max_requests = n;
        self
    }
    http_net_conn::__server_builder_setters! {
        settings: s,
        hooks: hooks,
        runs_on: "thread",
        max_body_bytes: {
            /// ```
            /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
            /// let server = http_net::blocking::Server::builder()
            ///     .max_body_bytes(1 << 20)
            ///     .bind("127.0.0.1:0")
            ///     .unwrap();
            /// # let _ = server;
            /// ```
        },
        error_body: {
            /// ```
            /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
            /// use http_net::blocking::Server;
            /// use http_net::conn::ErrorBody;
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
        },
        error_status: {
            /// ```
            /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
            /// use http_net::blocking::{HandlerError, Server};
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
        },
        access_log: {
            /// ```
            /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
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
        },
        mistake_log: {
            /// ```
            /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
            /// use http_net::conn::{LocalError, Mistake};
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
        },
    }
    /// How long a keep-alive connection may sit idle between requests
    /// (default 30 s); then it is closed without a response (no error: a
    /// peer's next request goes on a new connection). `0` is no wait (a
    /// read waits 1 ms at most): a connection closes after each response
    /// unless the next request has already arrived.
    pub fn idle_timeout(mut self, t: Duration) -> Self {
        self.s.idle_timeout = t;
        self
    }
    /// The whole-head deadline, counted from a request's first byte (default
    /// 10 s): a head not complete by then gets `408 Request Timeout`
    /// ([`ErrorCause::Timeout`](crate::ErrorCause::Timeout)`(Stage::Head)`)
    /// and the connection closes (slowloris). `0` is no wait (1 ms at
    /// most): only a head that arrives whole in the first read is served.
    pub fn head_timeout(mut self, t: Duration) -> Self {
        self.s.head_timeout = t;
        self
    }
    /// The body stall timeout: the longest wait for the next bytes of a
    /// request body (default 30 s); the body reader then fails with
    /// [`Error::Timeout`](crate::Error::Timeout)`(Stage::Body)` and, if
    /// nothing was sent, `408` is answered. It also bounds the drain of a
    /// body the handler left unread. `0` is no wait (1 ms at most): only
    /// body bytes already on their way are read. See also
    /// [`min_body_rate`](ServerBuilder::min_body_rate).
    pub fn body_timeout(mut self, t: Duration) -> Self {
        self.s.body_timeout = t;
        self
    }
    /// The write stall timeout (default 30 s): a peer that takes no byte of
    /// a response for this long, counted from the last byte it took, is
    /// disconnected (the handler's write fails with
    /// [`Error::Timeout`](crate::Error::Timeout)`(Stage::Write)`; the
    /// response is cut, no status can follow). `0` waits 1 ms at most for
    /// each write. See also
    /// [`min_response_rate`](ServerBuilder::min_response_rate).
    pub fn write_timeout(mut self, t: Duration) -> Self {
        self.s.write_timeout = t;
        self
    }
    /// The minimum data rate of a request body (default 240 bytes/s after a
    /// grace of 10 s; `0` bytes/s: none): counted over the time the handler
    /// waits for body bytes (not the time it spends elsewhere). A body
    /// slower than this on average, once the grace has passed, fails the
    /// read with [`Error::TooSlow`](crate::Error::TooSlow)`(Stage::Body)`
    /// and, if nothing was sent, `408` is answered.
    pub fn min_body_rate(mut self, bytes_per_sec: u64, grace: Duration) -> Self {
        self.s.min_body_rate = Rate {
            bytes_per_sec,
            grace,
        };
        self
    }
    /// The minimum data rate of a response (default 240 bytes/s after a
    /// grace of 10 s; `0` bytes/s: none): counted over the time spent
    /// waiting for the peer to take the response's bytes. A peer that reads
    /// slower than this on average, once the grace has passed, is
    /// disconnected (the handler's write fails with
    /// [`Error::TooSlow`](crate::Error::TooSlow)`(Stage::Write)`; the
    /// response is cut).
    pub fn min_response_rate(mut self, bytes_per_sec: u64, grace: Duration) -> Self {
        self.s.min_response_rate = Rate {
            bytes_per_sec,
            grace,
        };
        self
    }
    /// A deadline for writing a whole response, counted from its request's
    /// head (default: none, so that a large download to a slow but honest
    /// client completes; the minimum response rate and the write timeout
    /// bound it instead). Past it the connection is cut (the handler's
    /// write fails with [`Error::Timeout`](crate::Error::Timeout)`(Stage::Write)`,
    /// no status can follow). `Some(0)`: every response with a body left
    /// to write is cut.
    pub fn response_timeout(mut self, t: Option<Duration>) -> Self {
        self.s.response_timeout = t;
        self
    }
    /// After an error response or a close: how long, and how many bytes at
    /// most, the peer's input is drained after half-closing (default 2 s,
    /// 1 MiB), so that it reads the response rather than a reset. Past
    /// either the connection closes (no error). A `0` time or `0` bytes:
    /// no drain, the connection closes at once (a peer still sending may
    /// see a reset instead of the response).
    pub fn drain(mut self, time: Duration, bytes: u64) -> Self {
        self.s.drain_time = time;
        self.s.drain_bytes = bytes;
        self
    }
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
    /// The longest a graceful shutdown waits for requests in flight (default
    /// 30 s); then the remaining connections are cut (their responses end
    /// where they stood; no status is sent). `0`: they are cut at once.
    pub fn shutdown_timeout(mut self, t: Duration) -> Self {
        self.s.shutdown_timeout = t;
        self
    }
    /// Whether `CONNECT` requests reach the handler (default: no, they are
    /// answered `501` and the connection closes: RFC 9110 §9.3.6 makes
    /// `CONNECT` a proxy's method, and an origin server has no tunnel to
    /// open). With tunnels on, the handler gets every `CONNECT`; it answers
    /// `2xx` with [`Exchange::send_head`](crate::Exchange::send_head) and
    /// takes the stream with [`Exchange::upgrade`](crate::Exchange::upgrade).
    ///
    /// ```
    /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
    /// let server = http_net::blocking::Server::builder()
    ///     .tunnels(true)
    ///     .bind("127.0.0.1:0")
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn tunnels(mut self, on: bool) -> Self {
        self.s.tunnels = on;
        self
    }
    /// The `Server` field written in every response (default: none): the
    /// handler's answers (unless their fields carry a `Server` of their
    /// own), the error responses the connection writes itself (400, 408,
    /// 413, 414, 417, 431, 500, 501, 505) and the `503` beyond the
    /// connection limit. Validated here, once (see
    /// [`Config::with_server_name`](http_net_conn::Config::with_server_name)).
    ///
    /// # Panics
    ///
    /// If `name` is empty, or holds a control byte or surrounding whitespace
    /// (it could split a response). [`Config::with_server_name`](http_net_conn::Config::with_server_name) with
    /// [`conn_config`](ServerBuilder::conn_config) is the fallible way.
    ///
    /// ```
    /// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
    /// let server = http_net::blocking::Server::builder()
    ///     .server_name("http-net")
    ///     .bind("127.0.0.1:0")
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn server_name(mut self, name: &'static str) -> Self {
        match self.s.overrides.with_server_name(name.as_bytes()) {
            Ok(overrides) => self.s.overrides = overrides,
            Err(e) => panic!("invalid server name {name:?}: {e}"),
        }
        self
    }
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
    /// let server = http_net_std::Server::builder()
    ///     .front_line(true)
    ///     .bind("127.0.0.1:0")
    ///     .unwrap();
    /// # let _ = server;
    /// ```
    pub fn front_line(mut self, on: bool) -> Self {
        self.s.overrides = self.s.overrides.with_front_line(on);
        self
    }
    /// Zero consumed input and sent output of every connection.
    pub fn wipe_buffers(mut self, wipe: bool) -> Self {
        self.s.wipe = wipe;
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
        let mut settings = self.s;
        settings.conn = settings.overrides.apply(settings.conn);
        Server {
            listener,
            settings,
            shared: Arc::new(Shared::new(
                settings.max_connections_per_peer,
                settings.setup_rate_per_peer,
                self.hooks,
            )),
            setup: None,
        }
    }
    /// Serves connections from `listener` whose streams need a setup step
    /// before their first HTTP byte (a TLS handshake: the
    /// `http-net-rustls` crate's listener is one): each connection is
    /// admitted to a slot first (eviction, the per-peer cap and `503`
    /// apply as to any), then `setup` runs on the connection's own thread
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
            listener,
            settings,
            shared,
            ..
        } = self.listener(listener);
        Server {
            listener,
            settings,
            shared,
            setup: Some(Arc::new(setup)),
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
        let local = listener.local_addr()?;
        *lock(&shared.wake_addr) = Some(wake_address(local));
        let limit = descriptors::effective_limit(settings.max_connections);
        let handler = Arc::new(handler);
        let (reject_tx, reject_rx) = sync_channel::<L::Stream>(reject::QUEUE);
        let rshared = Arc::clone(&shared);
        thread::Builder::new()
            .name("http-net-reject".into())
            .stack_size(64 * 1024)
            .spawn(move || reject::reject_loop(reject_rx, &rshared, settings.conn.server_name()))?;
        // Each pool thread keeps the `ServerConn` and the registry slot of its
        // last connection and reuses them for the next one: no allocation per
        // accepted connection.
        let work: Work<(L::Stream, Option<SocketAddr>), connection::Warm> = {
            let shared = Arc::clone(&shared);
            let setup = setup.clone();
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
        let refuse = |stream: L::Stream| {
            shared.counters.refused();
            if setup.is_some() {
                // Before its setup (a TLS handshake) the peer could not
                // read a `503`: closed.
                return;
            }
            // The reject thread never waits on a peer: this waits at most
            // for it to take the connection.
            let _ = reject_tx.send(stream);
        };
        let mut reserve = descriptors::Reserve::open();
        let result = loop {
            if shared.stopping.load(Ordering::SeqCst) {
                break Ok(());
            }
            match listener.accept() {
                Ok((stream, peer)) => {
                    if shared.stopping.load(Ordering::SeqCst) {
                        break Ok(());
                    }
                    shared.counters.accepted();
                    let ip = peer.map(|p| p.ip());
                    // A peer over its setup rate is refused before it
                    // costs a slot or a handshake.
                    if setup.is_some()
                        && !shared.admit_setup(ip, crate::wire::stamp(Instant::now()))
                    {
                        refuse(stream);
                        reserve.reopen();
                        continue;
                    }
                    let mut admission = shared.admit(ip, limit);
                    if admission == Admission::Full && shared.evict(&settings) {
                        admission = shared.admit(ip, limit);
                    }
                    if admission != Admission::Admitted {
                        refuse(stream);
                    } else if let Err((stream, _)) = pool.submit((stream, peer)) {
                        // No thread could be started.
                        shared.unadmit(ip);
                        refuse(stream);
                    }
                }
                Err(e) => {
                    if shared.stopping.load(Ordering::SeqCst) {
                        break Ok(());
                    }
                    if descriptors::exhausted(&e) && reserve.release() {
                        // Out of descriptors: with the reserve's, take the
                        // peer out of the backlog and answer it at once.
                        if let Ok((stream, _)) = listener.accept() {
                            shared.counters.accepted();
                            shared.counters.refused();
                            if setup.is_none() {
                                reject::answer_now(stream, &shared, settings.conn.server_name());
                            }
                        }
                        reserve.reopen();
                        continue;
                    }
                    if !transient_accept_error(&e) {
                        break Err(e);
                    }
                    thread::sleep(Duration::from_millis(10));
                }
            }
            reserve.reopen();
        };
        drop(listener);
        drop(reject_tx);
        shared.stopping.store(true, Ordering::SeqCst);
        let stop = settings.stop_window(crate::wire::stamp(Instant::now()));
        let deadline = crate::wire::instant(stop.until());
        loop {
            shared.interrupt(false);
            let step = (Instant::now() + Duration::from_millis(50)).min(deadline);
            if pool.wait_idle(step) {
                break;
            }
            if stop.passed(crate::wire::stamp(Instant::now())) {
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
        self.shared.counters()
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
