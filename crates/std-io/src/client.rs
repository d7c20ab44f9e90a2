//! The blocking client: `http://` URLs (and `https://` through a
//! connector), idle connections kept per origin for reuse, request bodies
//! from any `Read`, the response body as `std::io::Read`, early responses
//! watched for while a body is sent, deadlines and opt-in redirects.

use std::borrow::Cow;
use std::io::{self, IoSlice, Read};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_net_conn::driver::{
    head_fields, Answered, HeadStep, IdlePool, Leftover, PoolEntry, RequestPlan, SendStep,
    INLINE_FIELDS,
};
use http_net_conn::{
    expects_continue, BodyLength, ClientConn, ClientHead, ClientOptions, Config, FieldPair, Origin,
    Placement, RequestDeadline,
};

use crate::error::{is_timeout, Error, Limit, Stage};
use crate::lock::lock;

use crate::transport::Transport;
use crate::wire::{self, Filled};
use http_net_conn::{Url, UrlError};

/// Opens the transport for an `https://` origin: given the host (an IPv6
/// literal without brackets) and the port, it connects and returns the
/// stream, TLS session established or established lazily on first use.
pub type Connector = Arc<dyn Fn(&str, u16) -> io::Result<Box<dyn Transport>> + Send + Sync>;

/// A connection: the socket, its state, and the origin it was opened to
/// (https or not, host, port).
struct Pooled {
    stream: Box<dyn Transport>,
    conn: ClientConn,
    /// https or not, host, port.
    key: (bool, String, u16),
}

impl PoolEntry for Pooled {
    fn conn(&self) -> &ClientConn {
        &self.conn
    }
    fn origin(&self) -> Origin<'_> {
        Origin::new(self.key.0, &self.key.1, self.key.2)
    }
}

/// The idle connections (the core's rules, [`IdlePool`]), shared by clones.
type Pool = Arc<Mutex<IdlePool<Pooled>>>;

/// Body bytes handed to the connection at once; the client looks for an
/// early response between two of them.
const SEND_CHUNK: usize = 64 * 1024;
/// The longest a single write blocks before the client looks for an early
/// response again (the write timeout is counted across such slices).
const WRITE_SLICE: Duration = Duration::from_millis(50);
/// On a stream that cannot say whether input waits (`input_ready` gives
/// `None`), how often a short timed read probes for an early response.
const PROBE_EVERY: Duration = Duration::from_millis(20);
/// How long such a probe, or a read of waiting input, blocks.
const PROBE_WAIT: Duration = Duration::from_millis(1);

/// The client's settings: the ones both adapters share, all of them here
/// (the connector is kept beside them).
type ClientSettings = http_net_conn::ClientSettings;

/// The client's default connection configuration: [`Config::DEFAULT`]
/// without a body budget (the 8 MiB budget is a server's default; a client
/// streams what it asked for, and bounds a whole-body read with
/// [`ClientResponse::body_to_vec`]'s limit).
pub const CLIENT_CONFIG: Config = http_net_conn::ClientSettings::DEFAULT.conn;

/// Configures a [`Client`]: the setters both clients share are
/// [`ClientOptions`]'s, the [`connector`](ClientBuilder::connector) is the
/// blocking client's own.
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::blocking::ClientOptions;
/// use std::time::Duration;
/// let client = http_net::blocking::Client::builder()
///     .connect_timeout(Duration::from_secs(2))
///     .request_timeout(Duration::from_secs(30))
///     .max_idle_per_host(2)
///     .build();
/// # let _ = client;
/// ```
#[derive(Clone, Default)]
#[must_use]
pub struct ClientBuilder {
    s: ClientSettings,
    connector: Option<Connector>,
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("settings", &self.s)
            .field("connector", &self.connector.is_some())
            .finish()
    }
}

/// The setters the two clients share are [`ClientOptions`]'s (bring it
/// into scope: `use http_net_std::ClientOptions;`).
impl ClientOptions for ClientBuilder {
    fn settings_mut(&mut self) -> &mut ClientSettings {
        &mut self.s
    }
}

impl ClientBuilder {
    /// Opens `https://` connections with `connect(host, port)`, which
    /// returns any [`Transport`] (a TLS stream over a `TcpStream`, with the
    /// timeouts delegated to the socket). Without a connector an `https://`
    /// URL is refused with [`UrlError::HttpsWithoutConnector`]. `http://`
    /// URLs always use a plain `TcpStream`.
    pub fn connector<F, T>(mut self, connect: F) -> Self
    where
        F: Fn(&str, u16) -> io::Result<T> + Send + Sync + 'static,
        T: Transport + 'static,
    {
        self.connector = Some(Arc::new(move |host: &str, port: u16| {
            connect(host, port).map(|t| Box::new(t) as Box<dyn Transport>)
        }));
        self
    }
    /// The client.
    pub fn build(mut self) -> Client {
        self.s.conn = self.s.overrides.apply(self.s.conn);
        Client {
            idle: Arc::new(Mutex::new(IdlePool::new(&self.s))),
            s: Arc::new(self.s),
            connector: self.connector,
        }
    }
}

/// A request body: [`http_net_conn::RequestBody`] with a blocking
/// [`Read`] as its reader. `Empty`, `Bytes(&[u8])` (also from `&[u8]`,
/// `&[u8; N]` and `&Vec<u8>`), or `Reader { reader, len }`: a known length
/// goes out with `Content-Length`, an unknown one chunked; only bytes are
/// [replayable](http_net_conn::RequestBody::replayable) after a `307`/`308`.
///
/// ```no_run
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use http_net::blocking::{Client, RequestBody};
/// let file = std::fs::File::open("upload.bin")?;
/// let len = file.metadata()?.len();
/// let mut file = std::io::BufReader::new(file);
/// let client = Client::new();
/// // A known length goes out with `Content-Length`, an unknown one chunked.
/// let body = RequestBody::Reader { reader: &mut file, len: Some(len) };
/// let resp = client.send(b"PUT", "http://127.0.0.1:8080/upload", &[], body)?;
/// println!("{}", resp.status());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type RequestBody<'a> = http_net_conn::RequestBody<'a, dyn Read + 'a>;

/// A blocking HTTP/1.1 client for `http://` URLs (and `https://` ones with
/// a [connector](ClientBuilder::connector)). Cloning it shares its pool of
/// idle connections.
///
/// ```no_run
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use std::io::Read;
/// let client = http_net::blocking::Client::new();
/// let mut resp = client.get("http://127.0.0.1:8080/plaintext")?;
/// assert_eq!(resp.status(), 200);
/// let mut body = String::new();
/// resp.read_to_string(&mut body)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Client {
    s: Arc<ClientSettings>,
    connector: Option<Connector>,
    idle: Pool,
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("settings", &self.s)
            .finish_non_exhaustive()
    }
}

/// `GET url` with a fresh [`Client`] (no connection reuse across calls).
pub fn get(url: &str) -> Result<ClientResponse, Error> {
    Client::new().get(url)
}

/// Read and write timeouts last set on a stream.
#[derive(Default)]
struct Io {
    read: Option<Option<Duration>>,
    write: Option<Option<Duration>>,
    last_probe: Option<Instant>,
}

/// The per-operation timeout `per`, shortened to what is left before the
/// request's deadline (the core's `RequestDeadline::wait`); `true` when the
/// deadline is the bound. Past the deadline: [`Stage::Deadline`].
fn bound(
    per: Duration,
    deadline: RequestDeadline,
    stage: Stage,
) -> Result<(Duration, bool), Error> {
    let now = wire::stamp(Instant::now());
    let (end, by_deadline) = deadline.wait(now, per);
    let left = end.saturating_duration_since(now);
    if left.is_zero() {
        // A zero `per` (a timeout set to 0) ends its own wait, not the
        // request's.
        return Err(Error::Timeout(deadline.timed_out(now, stage)));
    }
    Ok((left, by_deadline))
}

/// Reads once into `conn`, waiting until the connection's bound
/// (`ClientConn::wait_until`: `per`, the `100` window, the request's
/// deadline); a read that timed out is the core's answer
/// (`ClientConn::timed_out`): the wait for `100` ended (`Ok(None)`), or the
/// timeout of its stage.
fn fill(p: &mut Pooled, per: Duration, io: &mut Io, stage: Stage) -> Result<Option<Filled>, Error> {
    let now = wire::stamp(Instant::now());
    let t = p.conn.wait_until(now, per).saturating_duration_since(now);
    let read = if t.is_zero() {
        Err(Error::Timeout(stage))
    } else {
        wire::fill(&mut *p.stream, &mut p.conn, Some(t), &mut io.read, stage)
    };
    match read {
        Ok(Filled::Full) => Err(Error::BodyUnavailable),
        Err(Error::Timeout(_)) => match p.conn.timed_out(wire::stamp(Instant::now()), stage) {
            None => Ok(None),
            Some(stage) => Err(Error::Timeout(stage)),
        },
        r => r.map(Some),
    }
}

http_net_conn::__client_error_fns!(Error);

impl Client {
    /// A client with the default settings.
    pub fn new() -> Client {
        ClientBuilder::default().build()
    }
    /// A builder with the default settings.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// `GET url`.
    pub fn get(&self, url: &str) -> Result<ClientResponse, Error> {
        self.send(b"GET", url, &[], RequestBody::Empty)
    }

    /// Sends `method url` with extra `fields` and `body`: bytes (`&[u8]`,
    /// `&[u8; N]`, `&Vec<u8>`) or any [`RequestBody`] (a body read from a
    /// `Read`). The same as [`Client::send`], which has the rules.
    ///
    /// ```no_run
    /// let client = http_net_std::Client::new();
    /// let resp = client.request(b"POST", "http://127.0.0.1:8080/a?b=c", &[], b"data")?;
    /// # let _ = resp;
    /// # Ok::<(), http_net_std::Error>(())
    /// ```
    pub fn request<'b>(
        &self,
        method: &[u8],
        url: &str,
        fields: &[FieldPair<'_>],
        body: impl Into<RequestBody<'b>>,
    ) -> Result<ClientResponse, Error> {
        self.send(method, url, fields, body.into())
    }

    /// Sends `method url` with extra `fields` (a `Host` field is added unless
    /// given) and `body` (`Content-Length` when its length is known and not
    /// zero, or for `POST`, `PUT` and `PATCH`; chunked when it is not known),
    /// and reads the response head.
    ///
    /// While the body is sent, the client watches for a response: a final
    /// response that arrives before the body is done (a `413`, or a `200`
    /// from a server that did not read the body), or a write failing
    /// because the server closed after answering, ends the upload and that
    /// response is returned. The connection is then not reused, since the
    /// request was cut short. Above the
    /// [`expect_continue`](ClientOptions::expect_continue) threshold the
    /// body waits for `100 Continue` first.
    ///
    /// An idle connection to the same origin is reused when there is one;
    /// a request that fails on it is sent again, once, on a new connection
    /// when the connection's retry rule says so
    /// ([`http_net_conn::Retry`], RFC 9110 §9.2.2): nothing of it had left
    /// (the server had sent bytes on the idle connection, a `408` before
    /// closing it, say), or it is idempotent with a replayable body and the
    /// connection closed before any response byte.
    /// [`ClientResponse::reused`](http_net_conn::ClientHead::reused) says whether the response came over a
    /// pooled connection (false after such a retry: its connection is new).
    ///
    /// Redirects are followed as the
    /// [`Redirects`](http_net_conn::Redirects) policy decides (each hop
    /// takes a pooled connection or opens one, as a request does).
    pub fn send(
        &self,
        method: &[u8],
        url: &str,
        fields: &[FieldPair<'_>],
        mut body: RequestBody<'_>,
    ) -> Result<ClientResponse, Error> {
        let now = wire::stamp(Instant::now());
        let mut plan = RequestPlan::chase(&self.s, now, method, url)?;
        let mut own = Cow::Borrowed(fields);
        loop {
            let u = plan.url()?;
            if u.is_https() && self.connector.is_none() {
                return Err(Error::Url(UrlError::HttpsWithoutConnector));
            }
            let target = u.origin_target();
            let len = body.length(plan.method());
            let expect = expects_continue(self.s.expect_threshold, len, &own);
            let mut inline = [(&b""[..], &b""[..]); INLINE_FIELDS];
            let all = head_fields(u.authority().as_bytes(), &own, expect, &mut inline);
            let now = wire::stamp(Instant::now());
            let (pooled, head) =
                lock(&self.idle).checkout(plan.reuse(), u.origin(), now, still_open);
            let mut p = match pooled {
                Some(p) => p,
                None => self.connect(&u, plan.deadline())?,
            };
            plan.arm(&mut p.conn);
            let mut io = Io::default();
            let sent = InFlight {
                s: &self.s,
                p: &mut p,
                io: &mut io,
                head,
            }
            .run(plan.method(), &target, &all, len, &mut body);
            let mut head = match sent {
                Ok(head) => head,
                Err(e) if plan.failed(Some(&p.conn), failure(&e), body.replayable()) => continue,
                Err(e) => return Err(e),
            };
            if let Some(c) = head.refused_codings(self.s.accept_transfer_codings) {
                return Err(Error::UnsupportedTransferCoding(c));
            }
            let mut resp = ClientResponse {
                head,
                pooled: Some(p),
                done: false,
                kept: Leftover::new(),
                io,
                idle: Arc::clone(&self.idle),
                s: Arc::clone(&self.s),
            };
            let location = resp.field(b"location");
            match plan.answered(resp.status(), location, &mut body, &mut own)? {
                // Its body read and dropped (at most `drain` bytes), so
                // that a short body's connection can be reused.
                Answered::Redirect { drain } => drop(resp.body_to_vec(drain)),
                _ => return Ok(resp),
            }
        }
    }

    fn connect(&self, u: &Url<'_>, deadline: RequestDeadline) -> Result<Pooled, Error> {
        let (t, by_deadline) = bound(self.s.connect_timeout, deadline, Stage::Connect)?;
        let timed_out = || {
            Error::Timeout(if by_deadline {
                Stage::Deadline
            } else {
                Stage::Connect
            })
        };
        let stream: Box<dyn Transport> = match (&self.connector, u.is_https()) {
            (Some(connect), true) => match connect(u.host(), u.port()) {
                Ok(s) => s,
                // A bare timeout is the connect timeout's; one that carries
                // the connector's reason (a TLS handshake's timeout) stays
                // `Io`, so that the caller can read it, as the tokio client
                // keeps its connector's errors.
                Err(e) if is_timeout(&e) && e.get_ref().is_none() => return Err(timed_out()),
                Err(e) => return Err(Error::Io(e)),
            },
            _ => {
                let addrs = (u.host(), u.port()).to_socket_addrs().map_err(Error::Io)?;
                let mut last = None;
                let mut found = None;
                for addr in addrs {
                    match TcpStream::connect_timeout(&addr, t) {
                        Ok(stream) => {
                            let _ = stream.set_nodelay(true);
                            found = Some(stream);
                            break;
                        }
                        Err(e) if is_timeout(&e) => last = Some(timed_out()),
                        Err(e) => last = Some(Error::Io(e)),
                    }
                }
                match found {
                    Some(s) => Box::new(s),
                    None => return Err(last.unwrap_or(Error::Io(io::ErrorKind::NotFound.into()))),
                }
            }
        };
        Ok(Pooled {
            stream,
            conn: ClientConn::new(self.s.conn),
            key: (u.is_https(), u.host().to_owned(), u.port()),
        })
    }
}

/// One request on one connection: head, body (watching for an early
/// response), response head.
struct InFlight<'a> {
    s: &'a ClientSettings,
    p: &'a mut Pooled,
    io: &'a mut Io,
    /// The response head, once read.
    head: ClientHead,
}

impl InFlight<'_> {
    /// The response head: the connection's steps
    /// (`ClientConn::send_step`) carried out until it came (whether the
    /// whole request was sent, and so whether the connection may be
    /// reused, is the connection's to say).
    fn run(
        mut self,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        len: BodyLength,
        body: &mut RequestBody<'_>,
    ) -> Result<ClientHead, Error> {
        self.p.conn.send_request(method, target, fields, len)?;
        let (mut sent, mut buf) = (0, Vec::new());
        loop {
            match self.p.conn.send_step() {
                SendStep::Write => self.write_watched(&[])?,
                SendStep::Read => self.read_head()?,
                SendStep::Body => self.send_more(body, &mut sent, &mut buf)?,
                _ => return Ok(self.head),
            }
        }
    }

    /// Hands the body's next bytes to the connection (at most
    /// [`SEND_CHUNK`]; `sent` of them went already), or ends the body.
    fn send_more(
        &mut self,
        body: &mut RequestBody<'_>,
        sent: &mut usize,
        buf: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let chunk = match body {
            RequestBody::Bytes(b) => {
                let rest = b.get(*sent..).unwrap_or_default();
                &rest[..rest.len().min(SEND_CHUNK)]
            }
            RequestBody::Reader { reader, .. } => {
                buf.resize(SEND_CHUNK, 0);
                loop {
                    match reader.read(buf) {
                        Ok(n) => break &buf[..n],
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(Error::Io(e)),
                    }
                }
            }
            // `Empty`: nothing to send (conn's enum is `#[non_exhaustive]`;
            // a new kind comes with its arm here).
            _ => &[],
        };
        *sent += chunk.len();
        if chunk.is_empty() {
            return Ok(self.p.conn.send_end(&[])?);
        }
        match self.p.conn.send_data(chunk)? {
            Placement::AfterOutput => self.write_watched(chunk),
            Placement::Queued => Ok(()),
        }
    }

    /// Writes the connection's output and then `extra`, looking for an
    /// early final response before each write and whenever a write stalls;
    /// a write that fails (the server closed after answering) ends in the
    /// response being read.
    fn write_watched(&mut self, mut extra: &[u8]) -> Result<(), Error> {
        let mut stalled = Duration::ZERO;
        let mut force = false;
        loop {
            // All written: a response from now on answers a whole request.
            let out_len = self.p.conn.output().len();
            if out_len == 0 && extra.is_empty() || self.watch(force)? {
                return Ok(());
            }
            force = false;
            let deadline = self.p.conn.request_deadline();
            let (t, by_deadline) = bound(WRITE_SLICE, deadline, Stage::Deadline)?;
            let p = &mut *self.p;
            if self.io.write != Some(Some(t)) {
                p.stream.set_write_timeout(Some(t)).map_err(Error::Io)?;
                self.io.write = Some(Some(t));
            }
            let bufs = [IoSlice::new(p.conn.output()), IoSlice::new(extra)];
            let r = match out_len {
                0 => p.stream.write(extra),
                _ => p.stream.write_vectored(&bufs),
            };
            match r {
                Ok(0) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
                Ok(n) => {
                    stalled = Duration::ZERO;
                    let from_out = n.min(out_len);
                    p.conn.consume_output(from_out);
                    extra = &extra[(n - from_out).min(extra.len())..];
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if is_timeout(&e) => {
                    if by_deadline {
                        return Err(Error::Timeout(Stage::Deadline));
                    }
                    stalled += t;
                    if stalled >= self.s.write_timeout {
                        return Err(Error::Timeout(Stage::Write));
                    }
                    force = true;
                }
                // The server may have answered and closed: read its answer.
                Err(e) => return self.read_answer().map_err(|_| Error::Io(e)),
            }
        }
    }

    /// Whether a response (a `100` or the final head) waits on the
    /// connection, read without blocking for long; other informational
    /// responses are skipped, a partial head is kept in the connection for
    /// the next look.
    fn watch(&mut self, force: bool) -> Result<bool, Error> {
        let ready = match self.p.stream.input_ready() {
            Ok(Some(r)) => r,
            Ok(None) => {
                force
                    || self
                        .io
                        .last_probe
                        .is_none_or(|t| t.elapsed() >= PROBE_EVERY)
            }
            Err(_) => true,
        };
        if !ready {
            return Ok(false);
        }
        self.io.last_probe = Some(Instant::now());
        loop {
            match wire::fill(
                &mut *self.p.stream,
                &mut self.p.conn,
                Some(PROBE_WAIT),
                &mut self.io.read,
                Stage::Head,
            ) {
                Ok(Filled::Bytes(_)) => {}
                // The server closed: what it sent before is the answer
                // (or there is none), as reading the head finds.
                Ok(Filled::Eof) if !self.p.conn.response_started() => {
                    return Err(Error::ConnectionClosed)
                }
                Ok(Filled::Eof) => return self.read_answer().map(|()| true),
                Ok(Filled::Full) => return Err(Error::BodyUnavailable),
                Err(Error::Timeout(_)) => return Ok(false),
                Err(e) => return Err(e),
            }
            // A `100` or a final head: the connection's next step says.
            match self.p.conn.poll_head(&mut self.head) {
                Ok(HeadStep::NeedInput) => {}
                Ok(HeadStep::Closed) => return Err(Error::ConnectionClosed),
                Ok(_) => return Ok(true),
                Err(e) => return Err(local(e, &self.s.conn)),
            }
        }
    }

    /// Reads toward the response head once: what came is `poll_head`'s
    /// (a `100`, the final head), else more input, waited for within the
    /// connection's bound (`fill`).
    fn read_head(&mut self) -> Result<(), Error> {
        let step = self.p.conn.poll_head(&mut self.head);
        match step.map_err(|e| local(e, &self.s.conn))? {
            HeadStep::NeedInput => {}
            HeadStep::Closed => return Err(Error::ConnectionClosed),
            _ => return Ok(()),
        }
        match fill(self.p, self.s.read_timeout, self.io, Stage::Head)? {
            Some(Filled::Eof) if !self.p.conn.response_started() => Err(Error::ConnectionClosed),
            _ => Ok(()),
        }
    }

    /// Reads until the final response head came.
    fn read_answer(&mut self) -> Result<(), Error> {
        while self.p.conn.send_step() != SendStep::Answered {
            self.read_head()?;
        }
        Ok(())
    }
}

/// Whether an idle connection is still open (no end of stream, and no
/// bytes the server sent unasked, waiting).
fn still_open(p: &mut Pooled) -> bool {
    matches!(p.stream.input_ready(), Ok(Some(false) | None))
}

/// A response: the head ([`ClientHead`], its methods the response's), and
/// the body as a `std::io::Read` (a malformed or truncated body is a read
/// error wrapping [`Error`]: get it back with [`Error::from_io`]). Reading
/// the body to its end makes the trailers available and puts the
/// connection back in the client's pool when it may be reused; dropping
/// the response before that closes it.
pub struct ClientResponse {
    head: ClientHead,
    pooled: Option<Pooled>,
    done: bool,
    kept: Leftover,
    io: Io,
    idle: Pool,
    s: Arc<ClientSettings>,
}

impl std::fmt::Debug for ClientResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientResponse")
            .field("status", &self.head.status())
            .field("version", &self.head.version())
            .finish_non_exhaustive()
    }
}

/// The head's methods (`status`, `field`, `trailers`, `reused`...) are the
/// response's.
impl std::ops::Deref for ClientResponse {
    type Target = ClientHead;
    fn deref(&self) -> &ClientHead {
        &self.head
    }
}

impl ClientResponse {
    /// Whether the body has been read to its end.
    pub fn is_done(&self) -> bool {
        self.done
    }
    /// Reads body bytes into `buf`; `Ok(0)` at the end of the body. A
    /// malformed or truncated body is an error naming the rule (the
    /// response as a `Read` gives the same bytes, its errors wrapped in
    /// `std::io::Error`).
    pub fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        let n = self.kept.take(buf);
        if n > 0 || buf.is_empty() || self.done {
            return Ok(n);
        }
        let Some(p) = self.pooled.as_mut() else {
            return Err(Error::BodyUnavailable);
        };
        let r = loop {
            match p.conn.body_into(&mut self.head, &mut self.kept, buf) {
                Ok(None) => {}
                Ok(Some(n)) => break Ok(n),
                Err(e) => break Err(local(e, &self.s.conn)),
            }
            if let Err(e) = fill(p, self.s.read_timeout, &mut self.io, Stage::Body) {
                break Err(e);
            }
        };
        match r {
            Ok(0) => {
                self.done = true;
                self.give_back();
            }
            Ok(_) => {}
            Err(_) => self.pooled = None,
        }
        r
    }
    /// Reads the whole body, at most `limit` bytes: a longer body is
    /// [`Error::OverLimit`]`(`[`Limit::BodyToVec`]`)`, a local limit (not
    /// the peer's fault), and the connection is not reused. `0` takes only
    /// an empty body. To take bodies of any size, read them with
    /// [`read_body`](ClientResponse::read_body) or the response as a `Read`.
    pub fn body_to_vec(&mut self, limit: usize) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        let mut chunk = [0u8; 16 * 1024];
        loop {
            let n = self.read_body(&mut chunk)?;
            if n == 0 {
                return Ok(out);
            }
            if out.len() + n > limit {
                self.pooled = None;
                return Err(Error::OverLimit(Limit::BodyToVec(limit)));
            }
            out.extend_from_slice(&chunk[..n]);
        }
    }

    /// Gives the connection back to the pool, which keeps it when the
    /// core's rules allow (`IdlePool::give_back`).
    fn give_back(&mut self) {
        let Some(mut p) = self.pooled.take() else {
            return;
        };
        if Transport::set_read_timeout(&mut *p.stream, None).is_ok() {
            lock(&self.idle).give_back(p, wire::stamp(Instant::now()));
        }
    }
}

impl Drop for ClientResponse {
    fn drop(&mut self) {
        // The head's buffers serve the next response.
        lock(&self.idle).keep_head(std::mem::take(&mut self.head));
    }
}

impl Read for ClientResponse {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read_body(buf).map_err(Error::into_io)
    }
}
