//! The server builders' setters, written once for both adapters: a trait
//! with a default method per setter, which each adapter's `ServerBuilder`
//! implements by lending its [`ServerSettings`] and
//! [`ServerHooks`](crate::driver::ServerHooks). Their defaults and
//! meanings are the same whether a connection runs on a thread or a task.

use alloc::sync::Arc;
use core::time::Duration;

use crate::driver::{ServerHooks, SetupRate};
use crate::{
    AccessRecord, Config, ErrorBody, ErrorResponse, HandlerError, Mistake, Rate, ServerSettings,
};

/// The setters of a server builder, the same in both adapters, each
/// written once here (the adapter's own, such as the blocking server's
/// thread pool, are the builder's). Bring it into scope to call them:
/// `use http_net::conn::ServerOptions;` (or `http_net_std::ServerOptions`,
/// `http_net_tokio::ServerOptions`, which are this trait). The adapters'
/// `ServerBuilder` docs show each setter in use.
///
/// An adapter implements it by lending its builder's settings and hooks:
///
/// ```
/// use http_net_conn::driver::ServerHooks;
/// use http_net_conn::{ServerOptions, ServerSettings};
///
/// #[derive(Default)]
/// struct Builder {
///     settings: ServerSettings,
///     hooks: ServerHooks,
/// }
/// impl ServerOptions for Builder {
///     fn settings_mut(&mut self) -> &mut ServerSettings {
///         &mut self.settings
///     }
///     fn hooks_mut(&mut self) -> &mut ServerHooks {
///         &mut self.hooks
///     }
/// }
/// let b = Builder::default().max_connections(0).max_body_bytes(1 << 20);
/// assert_eq!(b.settings.max_connections, 1);
/// ```
pub trait ServerOptions: Sized {
    /// The builder's settings. Not for applications: the setters write
    /// them.
    #[doc(hidden)]
    fn settings_mut(&mut self) -> &mut ServerSettings;
    /// The builder's hooks. Not for applications: the setters write them.
    #[doc(hidden)]
    fn hooks_mut(&mut self) -> &mut ServerHooks;

    /// The connection limit (default 1,024; `0` is taken as 1): at the
    /// limit the connection making least progress is evicted (see
    /// [`eviction_grace`](ServerOptions::eviction_grace)), and when none
    /// can be, a newcomer is answered `503` with `Retry-After`
    /// ([`ErrorCause::Busy`](crate::ErrorCause::Busy)) and closed (it does
    /// not wait in the backlog). Each open connection holds a thread (the
    /// blocking server) or a task (the async server, whose runtime's own
    /// builder sets its worker threads).
    fn max_connections(self, n: usize) -> Self {
        set(self, |s| s.max_connections = n.max(1))
    }
    /// The most connections one peer address may hold at once (default `0`:
    /// no such cap). Connections beyond it are answered `503` with
    /// `Retry-After` ([`ErrorCause::Busy`](crate::ErrorCause::Busy)) and
    /// closed, whatever the free slots.
    fn max_connections_per_peer(self, n: usize) -> Self {
        set(self, |s| s.max_connections_per_peer = n)
    }
    /// The open-file limit the connection limit is fitted into (default:
    /// the process's, read from `/proc/self/limits` when serving starts,
    /// where there is one): when it cannot hold two descriptors per
    /// connection plus a reserve
    /// ([`RESERVED_DESCRIPTORS`](crate::driver::RESERVED_DESCRIPTORS)),
    /// the connection limit is lowered to what it holds (with a warning on
    /// stderr), so that clients beyond it get `503` rather than a server
    /// out of descriptors.
    fn open_file_limit(self, files: u64) -> Self {
        set(self, |s| s.open_file_limit = Some(files))
    }
    /// How eviction at the connection limit orders stalled connections
    /// (default 1 s; `0`: every stalled connection counts as old enough,
    /// and the fewest bytes per second goes first). A newcomer at the
    /// limit closes the connection making the least progress: an idle
    /// keep-alive connection first (the longest idle; closed between
    /// requests), then a partial request head, the drain of an unread body,
    /// or a body or response below its minimum rate counted since it
    /// started or waiting for a byte (a peer that does not send or does not
    /// read) — those at least this old before the younger ones and before a
    /// connection that has sent no byte yet, then the fewest bytes per
    /// second, then the longest in its phase. The grace orders, it does not
    /// protect: every such connection is evictable whatever its age, so
    /// that a wave of slowloris sockets cannot hold every slot for a grace.
    /// A head is answered `503` with `Retry-After`, a body `408`, a
    /// response is cut. A young response is evicted only below its rate or
    /// after 200 ms without a byte taken. Only handlers moving data at
    /// their rate are never evicted; when they hold every slot, the
    /// newcomer gets `503`.
    fn eviction_grace(self, t: Duration) -> Self {
        set(self, |s| s.eviction_grace = t)
    }
    /// Requests served on one connection before it is closed (default
    /// 1,000, as nginx's `keepalive_requests`; `0`: no limit); the last
    /// response carries `Connection: close` (no error: the peer opens a new
    /// connection). It bounds how long a peer that pipelines requests and
    /// never reads its responses (their bytes go to the kernel's socket
    /// buffers until those fill) keeps its slot.
    fn max_requests_per_connection(self, n: u64) -> Self {
        set(self, |s| s.max_requests = n)
    }
    /// The connection limits (head and body limits, buffers): see
    /// [`Config`]. The default is [`Config::DEFAULT`] with an output high
    /// water of 16 KiB instead of 64 KiB
    /// ([`Config::with_output_high_water`]): reading pauses once 16 KiB of
    /// responses wait to be sent, so that a peer pipelining requests
    /// without reading holds at most that (plus one response) in the
    /// server's memory, per connection. A configuration given here has its
    /// own high water. Its head limits (16 KiB head, 100 fields, 8 KiB
    /// target by default) are answered `431` / `431` / `414` when a request
    /// goes over them; its body budget (8 MiB by default, `0`: none) is
    /// [`max_body_bytes`](ServerOptions::max_body_bytes)'s, which replaces
    /// it whether it comes before or after.
    fn conn_config(self, config: Config) -> Self {
        set(self, |s| s.conn = config)
    }
    /// The largest request body, in bytes (default 8 MiB: the body budget
    /// of [`Config::DEFAULT`]; `0`: no limit); it replaces the body budget
    /// of [`conn_config`](ServerOptions::conn_config), before or after it.
    /// A declared `Content-Length` over it is answered `413 Content Too
    /// Large` before the handler runs (RFC 9110 §15.5.14); a chunked body
    /// when it passes the limit, as the handler reads it (the read fails
    /// with the adapter's `Error::OverLimit`, and the connection closes
    /// after the `413`). The local side's limit, not the peer's fault: the
    /// [`error_body`](ServerOptions::error_body) hook sees it as
    /// [`ErrorCause::OverLimit`](crate::ErrorCause::OverLimit)`(`[`Limit::BodyBudget`](crate::Limit::BodyBudget)`)`.
    /// A handler can lower it for its request with the adapter's
    /// `Exchange::limit_body`.
    fn max_body_bytes(self, n: u64) -> Self {
        set(self, |s| s.overrides = s.overrides.with_body_budget(n))
    }
    /// Supplies the body of the error responses the server writes itself
    /// (`400`, `408`, `413`, `414`, `417`, `431`, `500`, `501`, `505`..., and
    /// the `503` beyond the connection limit:
    /// [`ErrorCause::Busy`](crate::ErrorCause::Busy)): `hook` is called with
    /// the status and its cause just before one is sent, on the
    /// connection's thread or task; `Some(body)` replaces the short text the
    /// server writes otherwise (the status line, `Connection: close`,
    /// `Date` and `Server` stay). A hook that panics is contained: the
    /// server's own text is sent. The `503` beyond the connection limit is
    /// asked for once a second.
    ///
    /// The hook also gives the body of the answers handlers' errors choose
    /// (a [`HandlerError`] with a status, or one
    /// [`error_status`](ServerOptions::error_status) chose): it sees that
    /// status and [`ErrorCause::Handler`](crate::ErrorCause::Handler) with
    /// the error, so an application that formats its errors (as JSON) does
    /// so in one place. Those are answers like any other: no
    /// `Connection: close` is added (but to a `408`), and the connection is
    /// kept as after any answer.
    fn error_body(
        self,
        hook: impl Fn(&ErrorResponse<'_>) -> Option<ErrorBody> + Send + Sync + 'static,
    ) -> Self {
        set_hook(self, |h| h.error_body = Some(Arc::new(hook)))
    }
    /// Chooses the status of a handler's error that carries none
    /// ([`HandlerError::status`] is `None`): the place for an application's
    /// own error type, found by downcasting
    /// ([`HandlerError::downcast_ref`]). `Some(status)` (`400..=599`) is
    /// answered as an error that carries it is (see [`HandlerError`]);
    /// `None` leaves a plain error: `500`, the connection closed, and the
    /// application's mistake reported. The hook runs on the connection's
    /// thread or task; one that panics chooses nothing.
    fn error_status(
        self,
        hook: impl Fn(&HandlerError) -> Option<u16> + Send + Sync + 'static,
    ) -> Self {
        set_hook(self, |h| h.error_status = Some(Arc::new(hook)))
    }
    /// Calls `hook` once per request, on the connection's thread or task,
    /// when its response is written (or the connection ended without one):
    /// the method, target, status, bytes written and duration, and the error
    /// the handler returned (which the peer never sees). Error responses to
    /// requests refused before their head reached the server (a malformed
    /// head, a head deadline, a declared body over the limit) are recorded
    /// too, with an empty method and target. With a hook set, each response
    /// is written before the next request is read (pipelined responses no
    /// longer leave together). A hook that panics is contained.
    fn access_log(self, hook: impl Fn(&AccessRecord<'_>) + Send + Sync + 'static) -> Self {
        set_hook(self, |h| h.access_log = Some(Arc::new(hook)))
    }
    /// Where the application's mistakes go ([`Mistake`]): a command the
    /// connection refused and the handler returned (a field name with a
    /// space, a CR LF in a value, a `Content-Length` that conflicts with the
    /// body: [`Mistake::Refused`]); a handler that returned without
    /// answering (`Ok` or an error); an answer begun and not finished; a
    /// panic. By default each is one line on stderr,
    /// `http-net: <mistake> (<METHOD> <target>)`; `hook` replaces that line.
    /// Either way at most one mistake of each kind is reported per second,
    /// for the whole server (each [`LocalError`](crate::LocalError) of a
    /// refusal is a kind of its own), so that a mistake made on every
    /// request does not flood the log. A refusal the handler handled
    /// (answering properly after it) is no mistake; nor is a `413`, `408` or
    /// `400` the peer caused. The hook runs on the connection's thread or
    /// task; one that panics is contained.
    fn mistake_log(self, hook: impl Fn(&Mistake) + Send + Sync + 'static) -> Self {
        set_hook(self, |h| h.mistake_log = Some(Arc::new(hook)))
    }
    /// The deadline of a connection's setup phase, before its first HTTP
    /// byte (default 10 s, the head's): for a server made with the adapter's
    /// `ServerBuilder::listener_with_setup` (a TLS handshake), the whole
    /// setup step must be done this long after the connection was admitted
    /// to a slot, however the peer trickles its bytes; then the connection
    /// is closed without a response and counted as timed out in its setup.
    /// While it sets up, a connection ranks for eviction as a partial
    /// request head, and a graceful stop closes it. A plain listener has no
    /// setup phase.
    fn setup_timeout(self, t: Duration) -> Self {
        set(self, |s| s.setup_timeout = t)
    }
    /// The setups (TLS handshakes: a key exchange and a signature each)
    /// one peer address may start, for a server made with the adapter's
    /// `ServerBuilder::listener_with_setup`: `per_sec` a second on average
    /// and `burst` at once (default 64 and 128; `per_sec` 0: no limit). A
    /// connection from a peer over its rate is closed before it gets a
    /// slot, unanswered (its peer could not read a plain-text `503`), and
    /// counted as refused; so one peer's flood of ClientHellos costs the
    /// server at most that many key exchanges a second, and other peers are
    /// served. A plain listener has no setup phase and no such limit.
    fn setup_rate_per_peer(self, per_sec: u32, burst: u32) -> Self {
        set(self, |s| {
            s.setup_rate_per_peer = SetupRate { per_sec, burst }
        })
    }
    /// Whether the application's mistakes are reported (default `true`):
    /// `false` silences both the stderr line and the
    /// [`mistake_log`](ServerOptions::mistake_log) hook. What the peer is
    /// sent does not change.
    fn report_mistakes(self, on: bool) -> Self {
        set_hook(self, |h| h.report_mistakes = on)
    }
    /// How long a keep-alive connection may sit idle between requests
    /// (default 30 s); then it is closed without a response (no error: a
    /// peer's next request goes on a new connection). `0` is no wait (a
    /// read waits 1 ms at most): a connection closes after each response
    /// unless the next request has already arrived.
    fn idle_timeout(self, t: Duration) -> Self {
        set(self, |s| s.idle_timeout = t)
    }
    /// The whole-head deadline, counted from a request's first byte
    /// (default 10 s): a head not complete by then gets `408 Request
    /// Timeout` ([`ErrorCause::Timeout`](crate::ErrorCause::Timeout)`(Stage::Head)`)
    /// and the connection closes (slowloris). `0` is no wait (1 ms at
    /// most): only a head that arrives whole in the first read is served.
    fn head_timeout(self, t: Duration) -> Self {
        set(self, |s| s.head_timeout = t)
    }
    /// The body stall timeout: the longest wait for the next bytes of a
    /// request body (default 30 s); the body read then fails with the
    /// adapter's `Error::Timeout(Stage::Body)` and, if nothing was sent,
    /// `408` is answered. It also bounds the drain of a body the handler
    /// left unread. `0` is no wait (1 ms at most): only body bytes already
    /// on their way are read. See also
    /// [`min_body_rate`](ServerOptions::min_body_rate).
    fn body_timeout(self, t: Duration) -> Self {
        set(self, |s| s.body_timeout = t)
    }
    /// The write stall timeout (default 30 s): a peer that takes no byte of
    /// a response for this long, counted from the last byte it took, is
    /// disconnected (the handler's write fails with the adapter's
    /// `Error::Timeout(Stage::Write)`; the response is cut, no status can
    /// follow). `0` waits 1 ms at most for each write. See also
    /// [`min_response_rate`](ServerOptions::min_response_rate).
    fn write_timeout(self, t: Duration) -> Self {
        set(self, |s| s.write_timeout = t)
    }
    /// The minimum data rate of a request body (default 240 bytes/s after a
    /// grace of 10 s; `0` bytes/s: none): counted over the time the handler
    /// waits for body bytes (not the time it spends elsewhere). A body
    /// slower than this on average, once the grace has passed, fails the
    /// read with the adapter's `Error::TooSlow(Stage::Body)` and, if nothing
    /// was sent, `408` is answered.
    fn min_body_rate(self, bytes_per_sec: u64, grace: Duration) -> Self {
        set(self, |s| {
            s.min_body_rate = Rate {
                bytes_per_sec,
                grace,
            }
        })
    }
    /// The minimum data rate of a response (default 240 bytes/s after a
    /// grace of 10 s; `0` bytes/s: none): counted over the time spent
    /// waiting for the peer to take the response's bytes. A peer that reads
    /// slower than this on average, once the grace has passed, is
    /// disconnected (the handler's write fails with the adapter's
    /// `Error::TooSlow(Stage::Write)`; the response is cut).
    fn min_response_rate(self, bytes_per_sec: u64, grace: Duration) -> Self {
        set(self, |s| {
            s.min_response_rate = Rate {
                bytes_per_sec,
                grace,
            }
        })
    }
    /// A deadline for writing a whole response, counted from its request's
    /// head (default: none, so that a large download to a slow but honest
    /// client completes; the minimum response rate and the write timeout
    /// bound it instead). Past it the connection is cut (the handler's
    /// write fails with the adapter's `Error::Timeout(Stage::Write)`, no
    /// status can follow). `Some(0)`: every response with a body left to
    /// write is cut.
    fn response_timeout(self, t: Option<Duration>) -> Self {
        set(self, |s| s.response_timeout = t)
    }
    /// After an error response or a close: how long, and how many bytes at
    /// most, the peer's input is drained after half-closing (default 2 s,
    /// 1 MiB), so that it reads the response rather than a reset. Past
    /// either the connection closes (no error). A `0` time or `0` bytes: no
    /// drain, the connection closes at once (a peer still sending may see a
    /// reset instead of the response).
    fn drain(mut self, time: Duration, bytes: u64) -> Self {
        let s = self.settings_mut();
        s.drain_time = time;
        s.drain_bytes = bytes;
        self
    }
    /// The longest a graceful shutdown waits for requests in flight
    /// (default 30 s); then the remaining connections are cut (their
    /// responses end where they stood; no status is sent). `0`: they are
    /// cut at once.
    fn shutdown_timeout(self, t: Duration) -> Self {
        set(self, |s| s.shutdown_timeout = t)
    }
    /// Whether `CONNECT` requests reach the handler (default: no, they are
    /// answered `501` and the connection closes: RFC 9110 §9.3.6 makes
    /// `CONNECT` a proxy's method, and an origin server has no tunnel to
    /// open). With tunnels on, the handler gets every `CONNECT`; it answers
    /// `2xx` and takes the stream with the adapter's `Exchange::upgrade`.
    fn tunnels(self, on: bool) -> Self {
        set(self, |s| s.tunnels = on)
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
    /// [`conn_config`](ServerOptions::conn_config) is the fallible way.
    fn server_name(mut self, name: &'static str) -> Self {
        let s = self.settings_mut();
        match s.overrides.with_server_name(name.as_bytes()) {
            Ok(overrides) => s.overrides = overrides,
            Err(e) => panic!("invalid server name {name:?}: {e}"),
        }
        self
    }
    /// Turns the front-line profile on or off (default off), for a server
    /// in front of or behind other parsers (a proxy, a cache, a load
    /// balancer), where a request some parser reads differently is itself
    /// the risk. With it on, a request is answered `400` (`501` for a method
    /// outside the IANA registry) and the connection closed for: a method
    /// outside the registry; `%00`, `%0D` or `%0A` in the target; a
    /// `Content-Length` with leading zeros, whitespace around the digits
    /// other than one SP before them, a list or a second line; an
    /// absolute-form target whose authority is not `Host`; a framing,
    /// routing, credential or content-handling field in the trailers; an
    /// `Upgrade` that is not a list of protocols. Each form's reason is at
    /// [`HeadLimits::with_front_line`](crate::head::HeadLimits::with_front_line).
    /// It sets the profile in the connection configuration whether
    /// [`conn_config`](ServerOptions::conn_config) comes before or after it.
    fn front_line(self, on: bool) -> Self {
        set(self, |s| s.overrides = s.overrides.with_front_line(on))
    }
    /// Zero consumed input and sent output of every connection.
    fn wipe_buffers(self, wipe: bool) -> Self {
        set(self, |s| s.wipe = wipe)
    }
}

/// Sets the builder's settings with `f`: the body of a settings setter.
fn set<B: ServerOptions>(mut builder: B, f: impl FnOnce(&mut ServerSettings)) -> B {
    f(builder.settings_mut());
    builder
}

/// Sets the builder's hooks with `f`: the body of a hook setter.
fn set_hook<B: ServerOptions>(mut builder: B, f: impl FnOnce(&mut ServerHooks)) -> B {
    f(builder.hooks_mut());
    builder
}
