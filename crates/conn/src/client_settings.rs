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
