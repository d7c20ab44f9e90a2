//! The settings a client of either adapter shares, with their defaults.

use core::time::Duration;

use crate::{BodyLimits, Config, ConfigOverrides, Redirects};

/// The settings a client of either adapter shares, with their defaults
/// ([`ClientSettings::DEFAULT`]); each is described at the adapters'
/// `ClientBuilder` method of the same name.
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::ClientSettings;
///
/// let s = ClientSettings::DEFAULT;
/// assert_eq!(s.conn.body_limits().body_budget(), 0); // none: streamed
/// assert_eq!(s.connect_timeout, Duration::from_secs(10));
/// assert_eq!(s.request_timeout, None);
/// assert_eq!(s.expect_threshold, Some(1024 * 1024));
/// assert_eq!(s.max_idle_per_host, 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientSettings {
    /// The connection's configuration: [`Config::DEFAULT`] without a body
    /// budget (the 8 MiB budget is a server's default; a client streams
    /// what it asked for, and bounds a whole-body read with its own limit).
    pub conn: Config,
    /// Settings taken one at a time (the front-line profile), laid over
    /// `conn` when the client is made.
    pub overrides: ConfigOverrides,
    /// Connecting (10 s).
    pub connect_timeout: Duration,
    /// Each read (30 s).
    pub read_timeout: Duration,
    /// Each write (30 s).
    pub write_timeout: Duration,
    /// The whole request, redirects included (none).
    pub request_timeout: Option<Duration>,
    /// `Expect: 100-continue` for a body at least this long (1 MiB), or
    /// never (`None`).
    pub expect_threshold: Option<u64>,
    /// How long such a request waits for `100` before sending its body (1 s).
    pub expect_wait: Duration,
    /// Which redirects are followed (none).
    pub redirects: Redirects,
    /// Idle connections kept per origin (4).
    pub max_idle_per_host: usize,
    /// How long an idle connection is kept (30 s).
    pub idle_ttl: Duration,
    /// A response body whose transfer codings the client does not decode
    /// is handed out as it is, rather than refused (off).
    pub accept_transfer_codings: bool,
}

impl ClientSettings {
    /// The defaults of both adapters' client builders.
    pub const DEFAULT: ClientSettings = ClientSettings {
        conn: Config::DEFAULT.with_body_limits(BodyLimits::DEFAULT.with_body_budget(0)),
        overrides: ConfigOverrides::NONE,
        connect_timeout: Duration::from_secs(10),
        read_timeout: Duration::from_secs(30),
        write_timeout: Duration::from_secs(30),
        request_timeout: None,
        expect_threshold: Some(1024 * 1024),
        expect_wait: Duration::from_secs(1),
        redirects: Redirects::none(),
        max_idle_per_host: 4,
        idle_ttl: Duration::from_secs(30),
        accept_transfer_codings: false,
    };
}

impl Default for ClientSettings {
    /// [`ClientSettings::DEFAULT`].
    ///
    /// ```
    /// use http_net_conn::ClientSettings;
    /// assert_eq!(ClientSettings::default(), ClientSettings::DEFAULT);
    /// ```
    fn default() -> Self {
        ClientSettings::DEFAULT
    }
}

/// The setters of a client builder, the same in both adapters, each
/// written once here (the adapter's own, its connector and `build`, are
/// the builder's). Bring it into scope to call them:
/// `use http_net::conn::ClientOptions;` (or `http_net_std::ClientOptions`,
/// `http_net_tokio::ClientOptions`, which are this trait). A timeout that
/// passes is the adapter's `Error::Timeout` naming its `Stage`.
///
/// An adapter implements it by lending its builder's settings:
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{ClientOptions, ClientSettings, Redirects};
///
/// #[derive(Default)]
/// struct Builder(ClientSettings);
/// impl ClientOptions for Builder {
///     fn settings_mut(&mut self) -> &mut ClientSettings {
///         &mut self.0
///     }
/// }
/// let b = Builder::default()
///     .request_timeout(Duration::from_secs(5))
///     .redirects(Redirects::follow(3));
/// assert_eq!(b.0.request_timeout, Some(Duration::from_secs(5)));
/// ```
pub trait ClientOptions: Sized {
    /// The builder's settings. Not for applications: the setters write
    /// them.
    #[doc(hidden)]
    fn settings_mut(&mut self) -> &mut ClientSettings;

    /// Head and body limits and buffer sizes (see [`Config`]; default
    /// [`ClientSettings::DEFAULT`]'s: the head limits of
    /// [`Config::DEFAULT`] and no response-body budget). A body budget of
    /// `0` is none (a body of any size is streamed). A response body over a
    /// budget set here is the adapter's `Error::OverLimit(Limit::BodyBudget)`,
    /// the caller's limit, not the peer's fault; a head over the head
    /// limits is `Error::Protocol` naming the limit.
    fn conn_config(mut self, config: Config) -> Self {
        self.settings_mut().conn = config;
        self
    }
    /// The longest wait for a connection to open (default 10 s); past it,
    /// `Error::Timeout(Stage::Connect)`. `Duration::ZERO` fails every
    /// connect at once.
    fn connect_timeout(mut self, t: Duration) -> Self {
        self.settings_mut().connect_timeout = t;
        self
    }
    /// The longest wait for the next bytes of a response (default 30 s);
    /// past it, `Error::Timeout` with the stage read (`Stage::Head`,
    /// `Stage::Body`). `Duration::ZERO` fails every read that must wait.
    fn read_timeout(mut self, t: Duration) -> Self {
        self.settings_mut().read_timeout = t;
        self
    }
    /// The longest wait for a write to make progress (default 30 s); past
    /// it, `Error::Timeout(Stage::Write)`. `Duration::ZERO` fails the first
    /// write that must wait.
    fn write_timeout(mut self, t: Duration) -> Self {
        self.settings_mut().write_timeout = t;
        self
    }
    /// A deadline for the whole request, from the call until the last byte
    /// of the response body (default none): connecting, sending, every
    /// redirect hop, reading the head and the body. Past it, the call or
    /// the body read fails with `Error::Timeout(Stage::Deadline)`, however
    /// steadily the server trickles bytes. `Duration::ZERO` fails every
    /// request at once.
    fn request_timeout(mut self, t: Duration) -> Self {
        self.settings_mut().request_timeout = Some(t);
        self
    }
    /// Sends `Expect: 100-continue` with a request body larger than
    /// `threshold` bytes or of unknown length (default 1 MiB, as curl;
    /// `None` never sends it; `Some(0)` sends it with any body). The body
    /// then waits for `100 Continue`, for at most
    /// [`expect_wait`](ClientOptions::expect_wait), and is not sent at all
    /// if the server answers first (a `417` or `413`, say): that final
    /// response is returned (RFC 9110 §10.1.1).
    fn expect_continue(mut self, threshold: Option<u64>) -> Self {
        self.settings_mut().expect_threshold = threshold;
        self
    }
    /// How long a request with `Expect: 100-continue` waits for `100`
    /// before sending its body anyway (default 1 s, RFC 9110 §10.1.1);
    /// `Duration::ZERO` sends it at once. Running out is not an error.
    fn expect_wait(mut self, t: Duration) -> Self {
        self.settings_mut().expect_wait = t;
        self
    }
    /// Which redirects a request to a URL follows (default: none; see
    /// [`Redirects`]): [`Redirects::follow`]`(n)` follows up to `n` hops
    /// (`0`: none), one more is
    /// `Error::Redirect(`[`RedirectError::TooMany`](crate::RedirectError::TooMany)`)`.
    /// A request to a host and port (the async client's `send_to` and
    /// `start`) follows none.
    fn redirects(mut self, policy: Redirects) -> Self {
        self.settings_mut().redirects = policy;
        self
    }
    /// Idle connections kept per origin for reuse (default 4; 0 keeps
    /// none; 256 at most across all origins). A connection goes back to
    /// the pool when its response body has been read to its end and the
    /// connection may carry another request
    /// ([`ClientConn::reusable`](crate::ClientConn::reusable)); a
    /// connection over the limit is closed then, not an error. A response
    /// that came over a pooled connection says so
    /// ([`ClientHead::reused`](crate::ClientHead::reused)).
    fn max_idle_per_host(mut self, n: usize) -> Self {
        self.settings_mut().max_idle_per_host = n;
        self
    }
    /// How long an idle connection is kept (default 30 s); an older one is
    /// closed, not reused. `Duration::ZERO` reuses none.
    fn idle_ttl(mut self, t: Duration) -> Self {
        self.settings_mut().idle_ttl = t;
        self
    }
    /// Whether a response body that still carries transfer codings is
    /// handed out (default: no). The client decodes `chunked` only; a
    /// response whose `Transfer-Encoding` does not end in `chunked` (for
    /// example `gzip`, read until close, RFC 9112 §6.3) is by default the
    /// adapter's `Error::UnsupportedTransferCoding` naming the codings.
    /// With this on, the body is the coded bytes and
    /// [`ClientHead::transfer_codings`](crate::ClientHead::transfer_codings)
    /// lists the codings, for a caller that decodes them.
    fn accept_transfer_codings(mut self, on: bool) -> Self {
        self.settings_mut().accept_transfer_codings = on;
        self
    }
    /// Turns the front-line profile on or off (default off), for a client
    /// that forwards what it receives (a proxy's upstream side), where a
    /// response some parser reads differently is itself the risk. With it
    /// on, a response is an error (`Error::Protocol` with the head or
    /// framing rule, and the connection is not reused) for: a
    /// `Content-Length` with leading zeros, whitespace around the digits
    /// other than one SP before them, a list, a second line or an
    /// obs-fold; a framing, routing, credential or content-handling field
    /// in the trailers; a `101` without `Upgrade` or with one that is not
    /// a list of protocols. Each form's reason is at
    /// [`HeadLimits::with_front_line`](crate::head::HeadLimits::with_front_line).
    /// An obs-fold elsewhere is still replaced with SP (RFC 9112 §5.2);
    /// [`ObsFold::Reject`](crate::head::ObsFold::Reject) in the
    /// configuration's response options rejects it. It sets the profile in
    /// the connection configuration whether
    /// [`conn_config`](ClientOptions::conn_config) comes before or after
    /// it.
    fn front_line(mut self, on: bool) -> Self {
        let s = self.settings_mut();
        s.overrides = s.overrides.with_front_line(on);
        self
    }
}
