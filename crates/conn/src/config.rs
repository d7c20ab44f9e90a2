use crate::validate::is_field_value;
use crate::LocalError;

/// Configuration of a connection: the head and body limits and the bounds the
/// connection itself enforces. A `Copy` struct with `const fn` setters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    head: http_net_head::HeadLimits,
    body: http_net_framing::BodyLimits,
    max_informational: u16,
    drain_limit: u64,
    output_high_water: u32,
    read_chunk: u32,
    server_name: Option<&'static [u8]>,
    response: http_net_head::ResponseOptions,
}

impl Config {
    /// The default head and body limits (head 16 KiB, 100 fields, target
    /// 8 KiB, 1 KiB of chunk extensions per chunk, body budget 8 MiB); at
    /// most 100 informational responses
    /// per request (CPython's bound); up to 1 MiB of an unread request body is
    /// drained before the connection is closed instead; reading pauses while
    /// 64 KiB of output wait to be sent; the input buffer holds a whole head
    /// plus 16 KiB.
    pub const DEFAULT: Config = Config {
        head: http_net_head::HeadLimits::DEFAULT,
        body: http_net_framing::BodyLimits::DEFAULT,
        max_informational: 100,
        drain_limit: 1024 * 1024,
        output_high_water: 64 * 1024,
        read_chunk: 16 * 1024,
        server_name: None,
        response: http_net_head::ResponseOptions::DEFAULT,
    };

    /// The head limits.
    pub const fn head_limits(self) -> http_net_head::HeadLimits {
        self.head
    }
    /// The body limits.
    pub const fn body_limits(self) -> http_net_framing::BodyLimits {
        self.body
    }
    /// Informational (1xx) responses a client accepts before the final one.
    pub const fn max_informational(self) -> usize {
        self.max_informational as usize
    }
    /// Bytes of an unread request body drained before closing instead.
    pub const fn drain_limit(self) -> u64 {
        self.drain_limit
    }
    /// Output bytes waiting to be sent above which no new request is surfaced.
    pub const fn output_high_water(self) -> usize {
        self.output_high_water as usize
    }
    /// Room in the input buffer beyond a whole head.
    pub const fn read_chunk(self) -> usize {
        self.read_chunk as usize
    }
    /// The `Server` value written in every response head a server
    /// connection produces (none by default).
    pub const fn server_name(self) -> Option<&'static [u8]> {
        self.server_name
    }
    /// Sets the `Server` field (RFC 9110 §10.2.4) that a server connection
    /// writes in every final response head it produces: the caller's answers
    /// (unless their fields carry a `Server` of their own) and the
    /// connection's own error responses (400, 408, 413, 414, 417, 431, 501,
    /// 505, and those of [`ServerConn::reject`](crate::ServerConn::reject)).
    /// Informational (1xx) responses do not carry it. The value is validated
    /// here, once: not empty, no CTL (HTAB allowed), no DEL, no surrounding
    /// whitespace, so no response can be split through it.
    ///
    /// ```
    /// use http_net_conn::{Config, LocalError};
    /// let config = Config::DEFAULT.with_server_name(b"http-net").unwrap();
    /// assert_eq!(config.server_name(), Some(&b"http-net"[..]));
    /// assert_eq!(
    ///     Config::DEFAULT.with_server_name(b"x\r\nSet-Cookie: a=b"),
    ///     Err(LocalError::InvalidFieldValue)
    /// );
    /// ```
    pub fn with_server_name(mut self, name: &'static [u8]) -> Result<Config, LocalError> {
        self.server_name = Some(valid_server_name(name)?);
        Ok(self)
    }
    /// Writes no `Server` field (the default).
    #[must_use]
    pub const fn without_server_name(mut self) -> Config {
        self.server_name = None;
        self
    }
    /// How a client connection reads response heads: obs-fold and the
    /// opt-in leniencies for broken servers (strict by default; a server
    /// connection has no leniency and ignores this).
    pub const fn response_options(self) -> http_net_head::ResponseOptions {
        self.response
    }
    /// Sets how a client connection reads response heads; each leniency
    /// names the risk it accepts ([`ResponseOptions`](http_net_head::ResponseOptions)).
    ///
    /// ```
    /// use http_net_conn::Config;
    /// use http_net_conn::head::ResponseOptions;
    /// let lenient = ResponseOptions::DEFAULT.with_bare_lf(true);
    /// let config = Config::DEFAULT.with_response_options(lenient);
    /// assert!(config.response_options().bare_lf);
    /// assert!(!Config::DEFAULT.response_options().bare_lf);
    /// ```
    #[must_use]
    pub const fn with_response_options(
        mut self,
        options: http_net_head::ResponseOptions,
    ) -> Config {
        self.response = options;
        self
    }
    /// Turns the front-line profile on or off in the head limits (off by
    /// default), for a connection in front of or behind other parsers,
    /// where a message some parser reads differently is itself the risk.
    /// A server connection applies the request rules (answered 400, or
    /// 501 for an unregistered method, then closed); a client connection,
    /// for a proxy's upstream side, the response rules (the response is an
    /// [`Error::Remote`](crate::Error::Remote) and the connection closes):
    ///
    /// - `Content-Length` with leading zeros, whitespace around the digits
    ///   other than one SP before them (the raw line), a list, a second
    ///   line or an obs-fold:
    ///   [`NonCanonicalContentLength`](http_net_head::Error::NonCanonicalContentLength),
    ///   both sides: parsers disagree on `05`, `5 ` and `5, 5`, and the
    ///   body length is where smuggling starts (RFC 9112 §6.3);
    /// - in a trailer section, `Content-Length`, `Transfer-Encoding`,
    ///   `Trailer`, `Host`, `Authorization`, `Proxy-Authorization`,
    ///   `Set-Cookie`, `WWW-Authenticate`, `Proxy-Authenticate`,
    ///   `Content-Type` or `Content-Encoding`:
    ///   [`ForbiddenTrailer`](http_net_head::Error::ForbiddenTrailer) inside
    ///   [`framing::Error::Trailer`](http_net_framing::Error::Trailer), both
    ///   sides: framing, routing, credentials and the reading of the content
    ///   must not change after the content, and a hop that merges trailers
    ///   would act on them (RFC 9110 §6.5.1);
    /// - requests: a method outside the IANA registry
    ///   ([`UnregisteredMethod`](http_net_head::Error::UnregisteredMethod),
    ///   501: each hop makes up its own rules for an extension method);
    ///   `%00`, `%0D` or `%0A` in the target
    ///   ([`EncodedControlInTarget`](http_net_head::Error::EncodedControlInTarget):
    ///   a hop that decodes it gets a NUL or a line end, RFC 3986 §7.3); an
    ///   absolute-form target whose authority is not `Host`
    ///   ([`HostMismatch`](http_net_head::Error::HostMismatch): this server
    ///   uses the target, RFC 9112 §3.2.2, a hop routing by `Host` sends the
    ///   request elsewhere); an `Upgrade` that is not a list of protocols
    ///   ([`InvalidUpgrade`](http_net_head::Error::InvalidUpgrade): hops
    ///   disagree on whether the connection switches, RFC 9110 §7.8);
    /// - responses: a 101 without `Upgrade` or with one that is not a list
    ///   of protocols ([`InvalidUpgrade`](http_net_head::Error::InvalidUpgrade):
    ///   a proxy relaying the bytes after a 101 must know what they are,
    ///   RFC 9110 §7.8).
    ///
    /// The forms are tabled with their errors and reasons at
    /// [`HeadLimits::with_front_line`](http_net_head::HeadLimits::with_front_line).
    /// An obs-fold in a response is replaced with SP whether the profile is
    /// on or not (RFC 9112 §5.2); a proxy that would rather reject it sets
    /// [`ObsFold::Reject`](http_net_head::ObsFold::Reject) in
    /// [`with_response_options`](Config::with_response_options). A later
    /// [`with_head_limits`](Config::with_head_limits) replaces the profile.
    ///
    /// ```
    /// use http_net_conn::head::Error as HeadError;
    /// use http_net_conn::{BodyLength, ClientConn, Config, Error, RemoteError};
    ///
    /// let mut conn = ClientConn::new(Config::DEFAULT.with_front_line(true));
    /// conn.send_request(b"GET", b"/", &[(b"Host", b"a")], BodyLength::Empty).unwrap();
    /// conn.recv(b"HTTP/1.1 200 OK\r\nContent-Length: 02\r\n\r\nok");
    /// assert_eq!(
    ///     conn.poll_event().err(),
    ///     Some(Error::Remote(RemoteError::Head(HeadError::NonCanonicalContentLength)))
    /// );
    /// assert!(conn.should_close());
    /// ```
    #[must_use]
    pub const fn with_front_line(mut self, on: bool) -> Config {
        self.head = self.head.with_front_line(on);
        self
    }
    /// Sets the head limits.
    #[must_use]
    pub const fn with_head_limits(mut self, limits: http_net_head::HeadLimits) -> Config {
        self.head = limits;
        self
    }
    /// Sets the body limits.
    #[must_use]
    pub const fn with_body_limits(mut self, limits: http_net_framing::BodyLimits) -> Config {
        self.body = limits;
        self
    }
    /// Sets the informational-response bound (saturates at `u16::MAX`).
    #[must_use]
    pub const fn with_max_informational(mut self, n: usize) -> Config {
        self.max_informational = if n > u16::MAX as usize {
            u16::MAX
        } else {
            n as u16
        };
        self
    }
    /// Sets the drain bound.
    #[must_use]
    pub const fn with_drain_limit(mut self, n: u64) -> Config {
        self.drain_limit = n;
        self
    }
    /// Sets the output high-water mark (saturates at `u32::MAX`).
    #[must_use]
    pub const fn with_output_high_water(mut self, n: usize) -> Config {
        self.output_high_water = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
    }
    /// Sets the input room beyond a head (saturates at `u32::MAX`).
    #[must_use]
    pub const fn with_read_chunk(mut self, n: usize) -> Config {
        self.read_chunk = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::DEFAULT
    }
}

/// A `Server` value that cannot split a response: not empty, no CTL (HTAB
/// allowed), no DEL, no surrounding whitespace (RFC 9110 §5.5, §10.2.4).
fn valid_server_name(name: &'static [u8]) -> Result<&'static [u8], LocalError> {
    if name.is_empty() || !is_field_value(name) {
        return Err(LocalError::InvalidFieldValue);
    }
    Ok(name)
}

/// Settings an adapter's builder takes one at a time (the `Server` name,
/// the front-line profile, the body budget) and lays over the whole
/// [`Config`] its caller may also give it, whether that comes before or
/// after them: kept apart until the connection configuration is final,
/// then [`apply`](ConfigOverrides::apply)'d. Each is unset
/// ([`ConfigOverrides::NONE`]) until its setter is called; an unset one
/// leaves the configuration's own value.
///
/// ```
/// use http_net_conn::{Config, ConfigOverrides};
///
/// let overrides = ConfigOverrides::NONE
///     .with_server_name(b"http-net")
///     .unwrap()
///     .with_front_line(true)
///     .with_body_budget(1 << 20);
/// // A whole configuration given after the setters keeps them.
/// let config = overrides.apply(Config::DEFAULT.with_output_high_water(16 * 1024));
/// assert_eq!(config.server_name(), Some(&b"http-net"[..]));
/// assert!(config.head_limits().front_line());
/// assert_eq!(config.body_limits().body_budget(), 1 << 20);
/// assert_eq!(config.output_high_water(), 16 * 1024);
/// // Unset, they leave it as it is.
/// assert_eq!(ConfigOverrides::NONE.apply(Config::DEFAULT), Config::DEFAULT);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConfigOverrides {
    server_name: Option<&'static [u8]>,
    front_line: Option<bool>,
    body_budget: Option<u64>,
}

impl ConfigOverrides {
    /// Nothing set: [`apply`](ConfigOverrides::apply) returns the
    /// configuration unchanged.
    pub const NONE: ConfigOverrides = ConfigOverrides {
        server_name: None,
        front_line: None,
        body_budget: None,
    };

    /// Sets the `Server` field, validated here as
    /// [`Config::with_server_name`] validates it.
    pub fn with_server_name(mut self, name: &'static [u8]) -> Result<ConfigOverrides, LocalError> {
        self.server_name = Some(valid_server_name(name)?);
        Ok(self)
    }
    /// Sets the front-line profile on or off ([`Config::with_front_line`]).
    #[must_use]
    pub const fn with_front_line(mut self, on: bool) -> ConfigOverrides {
        self.front_line = Some(on);
        self
    }
    /// Sets the body budget, in bytes (the body limits'
    /// `with_body_budget`).
    #[must_use]
    pub const fn with_body_budget(mut self, n: u64) -> ConfigOverrides {
        self.body_budget = Some(n);
        self
    }
    /// The body budget set with
    /// [`with_body_budget`](ConfigOverrides::with_body_budget), if it was.
    #[must_use]
    pub const fn body_budget(&self) -> Option<u64> {
        self.body_budget
    }
    /// `config` with every setting that was set replacing its own.
    #[must_use]
    pub const fn apply(self, mut config: Config) -> Config {
        if let Some(n) = self.body_budget {
            config.body = config.body.with_body_budget(n);
        }
        if let Some(name) = self.server_name {
            config.server_name = Some(name);
        }
        if let Some(on) = self.front_line {
            config = config.with_front_line(on);
        }
        config
    }
}
