//! The server builders' setters both adapters share, written once with one
//! doc each: a macro each adapter invokes inside its `impl ServerBuilder`.
//! What they set is this crate's ([`ServerSettings`](crate::ServerSettings),
//! [`ConfigOverrides`](crate::ConfigOverrides), hooks over
//! [`ErrorResponse`](crate::ErrorResponse), [`AccessRecord`](crate::AccessRecord)
//! and [`Mistake`](crate::Mistake)), so their defaults and meanings are the
//! same whether a connection runs on a thread or a task.

/// Writes, inside an adapter's `impl ServerBuilder`, the setters that both
/// servers share word for word: `conn_config`, `max_body_bytes`,
/// `error_body`, `error_status`, `access_log`, `mistake_log`, `setup_timeout` and
/// `report_mistakes`. The
/// adapter names its settings field (a [`ServerSettings`](crate::ServerSettings),
/// or a type that dereferences to one), its hooks field (with
/// `error_body`, `access_log`, `mistake_log` and `report_mistakes`), what a
/// connection runs on (`"thread"`, `"task"`), and the end of the docs of
/// `max_body_bytes`, `error_body`, `access_log` and `mistake_log` (its
/// examples, written in its own style). The expansion uses `std`'s `Arc`.
///
/// Not API: an adapter's implementation detail, hidden from the docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __server_builder_setters {
    (
        settings: $s:ident,
        hooks: $h:ident,
        runs_on: $runs_on:literal,
        max_body_bytes: { $(#[$max_body_bytes:meta])* },
        error_body: { $(#[$error_body:meta])* },
        error_status: { $(#[$error_status:meta])* },
        access_log: { $(#[$access_log:meta])* },
        mistake_log: { $(#[$mistake_log:meta])* },
    ) => {
        /// The connection limits (head and body limits, buffers): see
        /// [`Config`](http_net_conn::Config). The default is
        /// [`Config::DEFAULT`](http_net_conn::Config::DEFAULT) with an output
        /// high water of 16 KiB instead of 64 KiB
        /// ([`Config::with_output_high_water`](http_net_conn::Config::with_output_high_water)):
        /// reading pauses once 16 KiB of responses wait to be sent, so that a
        /// peer pipelining requests without reading holds at most that (plus
        /// one response) in the server's memory, per connection. A
        /// configuration given here has its own high water. Its head limits
        /// (16 KiB head, 100 fields, 8 KiB target by default) are answered
        /// `431` / `431` / `414` when a request goes over them; its body
        /// budget (8 MiB by default, `0`: none) is
        /// [`max_body_bytes`](ServerBuilder::max_body_bytes)'s, which
        /// replaces it whether it comes before or after.
        pub fn conn_config(mut self, config: $crate::Config) -> Self {
            self.$s.conn = config;
            self
        }
        /// The largest request body, in bytes (default 8 MiB: the body budget
        /// of [`Config::DEFAULT`](http_net_conn::Config::DEFAULT); `0`: no
        /// limit); it replaces the body budget of
        /// [`conn_config`](ServerBuilder::conn_config), before or after it. A
        /// declared `Content-Length` over it is answered `413 Content Too
        /// Large` before the handler runs (RFC 9110 §15.5.14); a chunked body
        /// when it passes the limit, as the handler reads it (the read fails
        /// with [`Error::OverLimit`](crate::Error::OverLimit), and the
        /// connection closes after the `413`). The local side's limit, not
        /// the peer's fault: the [`error_body`](ServerBuilder::error_body)
        /// hook sees it as
        /// [`ErrorCause::OverLimit`](http_net_conn::ErrorCause::OverLimit)`(`[`Limit::BodyBudget`](crate::Limit::BodyBudget)`)`.
        /// A handler can lower it for its request with
        /// [`Exchange::limit_body`](crate::Exchange::limit_body).
        ///
        $(#[$max_body_bytes])*
        pub fn max_body_bytes(mut self, n: u64) -> Self {
            self.$s.overrides = self.$s.overrides.with_body_budget(n);
            self
        }
        /// Supplies the body of the error responses the server writes itself
        /// (`400`, `408`, `413`, `414`, `417`, `431`, `500`, `501`, `505`..., and
        /// the `503` beyond the connection limit:
        /// [`ErrorCause::Busy`](http_net_conn::ErrorCause::Busy)): `hook` is
        /// called with the status and its cause just before one is sent, on
        #[doc = concat!("the connection's ", $runs_on, "; `Some(body)` replaces the short text")]
        /// the server writes otherwise (the status line, `Connection: close`,
        /// `Date` and `Server` stay). A hook that panics is contained: the
        /// server's own text is sent.
        ///
        /// The hook also gives the body of the answers handlers' errors
        /// choose (a [`HandlerError`](http_net_conn::HandlerError) with a
        /// status, or one [`error_status`](ServerBuilder::error_status)
        /// chose): it sees that status and
        /// [`ErrorCause::Handler`](http_net_conn::ErrorCause::Handler) with
        /// the error, so an application that formats its errors (as JSON)
        /// does so in one place. Those are answers like any other: no
        /// `Connection: close` is added (but to a `408`), and the connection
        /// is kept as after any answer.
        ///
        $(#[$error_body])*
        pub fn error_body(
            mut self,
            hook: impl Fn(&$crate::ErrorResponse<'_>) -> ::core::option::Option<$crate::ErrorBody>
                + Send
                + Sync
                + 'static,
        ) -> Self {
            self.$h.error_body = ::core::option::Option::Some(::std::sync::Arc::new(hook));
            self
        }
        /// Chooses the status of a handler's error that carries none
        /// ([`HandlerError::status`](http_net_conn::HandlerError::status) is
        /// `None`): the place for an application's own error type, found by
        /// downcasting
        /// ([`HandlerError::downcast_ref`](http_net_conn::HandlerError::downcast_ref)).
        /// `Some(status)` (`400..=599`) is answered as an error that carries
        /// it is (see [`HandlerError`](http_net_conn::HandlerError)); `None`
        /// leaves a plain error: `500`, the connection closed, and the
        /// application's mistake reported.
        #[doc = concat!("The hook runs on the connection's ", $runs_on, "; one that panics chooses nothing.")]
        ///
        $(#[$error_status])*
        pub fn error_status(
            mut self,
            hook: impl Fn(&$crate::HandlerError) -> ::core::option::Option<u16> + Send + Sync + 'static,
        ) -> Self {
            self.$h.error_status = ::core::option::Option::Some(::std::sync::Arc::new(hook));
            self
        }
        #[doc = concat!("Calls `hook` once per request, on the connection's ", $runs_on, ", when its")]
        /// response is written (or the connection ended without one): the
        /// method, target, status, bytes written and duration, and the error
        /// the handler returned (which the peer never sees). Error responses
        /// to requests refused before their head reached the server (a
        /// malformed head, a head deadline, a declared body over the limit)
        /// are recorded too, with an empty method and target. With a hook
        /// set, each response is written before the next request is read
        /// (pipelined responses no longer leave together). A hook that panics
        /// is contained.
        ///
        $(#[$access_log])*
        pub fn access_log(
            mut self,
            hook: impl Fn(&$crate::AccessRecord<'_>) + Send + Sync + 'static,
        ) -> Self {
            self.$h.access_log = ::core::option::Option::Some(::std::sync::Arc::new(hook));
            self
        }
        /// Where the application's mistakes go
        /// ([`Mistake`](http_net_conn::Mistake)): a command the connection
        /// refused and the handler returned (a field name with a space, a CR
        /// LF in a value, a `Content-Length` that conflicts with the body:
        /// [`Mistake::Refused`](http_net_conn::Mistake::Refused)); a handler
        /// that returned without answering (`Ok` or an error); an answer
        /// begun and not finished; a panic. By default each is one line on
        /// stderr, `http-net: <mistake> (<METHOD> <target>)`; `hook` replaces
        /// that line. Either way at most one mistake of each kind is reported
        /// per second, for the whole server (each
        /// [`LocalError`](http_net_conn::LocalError) of a refusal is a kind of
        /// its own), so that a mistake made on every request does not flood
        /// the log. A refusal the handler handled (answering properly after
        /// it) is no mistake; nor is a `413`, `408` or `400` the peer caused.
        #[doc = concat!("The hook runs on the connection's ", $runs_on, "; one that panics is contained.")]
        ///
        $(#[$mistake_log])*
        pub fn mistake_log(
            mut self,
            hook: impl Fn(&$crate::Mistake) + Send + Sync + 'static,
        ) -> Self {
            self.$h.mistake_log = ::core::option::Option::Some(::std::sync::Arc::new(hook));
            self
        }
        /// The deadline of a connection's setup phase, before its first HTTP
        /// byte (default 10 s, the head's): for a server made with
        /// [`listener_with_setup`](ServerBuilder::listener_with_setup) (a TLS
        /// handshake), the whole setup step must be done this long after
        /// the connection was admitted to a slot, however the peer trickles
        /// its bytes; then the connection is closed without a response and
        /// counted as timed out in its setup. While it sets up, a
        /// connection ranks for eviction as a partial request head, and a
        /// graceful stop closes it. A plain listener has no setup phase.
        pub fn setup_timeout(mut self, t: ::core::time::Duration) -> Self {
            self.$s.setup_timeout = t;
            self
        }
        /// The setups (TLS handshakes: a key exchange and a signature
        /// each) one peer address may start, for a server made with
        /// [`listener_with_setup`](ServerBuilder::listener_with_setup):
        /// `per_sec` a second on average and `burst` at once (default 64
        /// and 128; `per_sec` 0: no limit). A connection from a peer over
        /// its rate is closed before it gets a slot, unanswered (its peer
        /// could not read a plain-text `503`), and counted as refused; so
        /// one peer's flood of ClientHellos costs the server at most that
        /// many key exchanges a second, and other peers are served. A
        /// plain listener has no setup phase and no such limit.
        pub fn setup_rate_per_peer(mut self, per_sec: u32, burst: u32) -> Self {
            self.$s.setup_rate_per_peer = $crate::driver::SetupRate { per_sec, burst };
            self
        }
        /// Whether the application's mistakes are reported (default `true`):
        /// `false` silences both the stderr line and the
        /// [`mistake_log`](ServerBuilder::mistake_log) hook. What the peer is
        /// sent does not change.
        pub fn report_mistakes(mut self, on: bool) -> Self {
            self.$h.report_mistakes = on;
            self
        }
    };
}
