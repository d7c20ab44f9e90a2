//! The blocking client: `http://` URLs, idle connections kept per host and
//! port for reuse, timeouts, the response body as `std::io::Read`.

use std::collections::HashMap;
use std::io::{self, Read};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_net_conn::Version;
use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, Error as ConnError, FieldPair, Placement,
    RemoteError,
};

use crate::body_reader::{fill_body, BodyReader, BodySource, Step};
use crate::error::{Error, Stage};
use crate::lock::lock;
use crate::transport::Transport;
use crate::url::Url;
use crate::wire::{self, Filled};

/// A connection waiting in the pool.
struct Pooled {
    stream: TcpStream,
    conn: ClientConn,
    since: Instant,
}

type Key = (String, u16);

/// Idle connections kept across all hosts.
const MAX_IDLE_TOTAL: usize = 256;
type Idle = Arc<Mutex<HashMap<Key, Vec<Pooled>>>>;

#[derive(Clone, Copy, Debug)]
struct Settings {
    conn: Config,
    connect_timeout: Duration,
    read_timeout: Duration,
    write_timeout: Duration,
    max_idle_per_host: usize,
    idle_ttl: Duration,
}

/// Configures a [`Client`].
///
/// ```
/// use std::time::Duration;
/// let client = http_net_std::Client::builder()
///     .connect_timeout(Duration::from_secs(2))
///     .max_idle_per_host(2)
///     .build();
/// # let _ = client;
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct ClientBuilder {
    s: Settings,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            s: Settings {
                conn: Config::DEFAULT,
                connect_timeout: Duration::from_secs(10),
                read_timeout: Duration::from_secs(30),
                write_timeout: Duration::from_secs(30),
                max_idle_per_host: 4,
                idle_ttl: Duration::from_secs(30),
            },
        }
    }
}

impl ClientBuilder {
    /// Head and body limits and buffer sizes (see [`http_net_conn::Config`]).
    pub fn conn_config(mut self, config: Config) -> Self {
        self.s.conn = config;
        self
    }
    /// The longest wait for a connection to open (default 10 s).
    pub fn connect_timeout(mut self, t: Duration) -> Self {
        self.s.connect_timeout = t;
        self
    }
    /// The longest wait for the next bytes of a response (default 30 s).
    pub fn read_timeout(mut self, t: Duration) -> Self {
        self.s.read_timeout = t;
        self
    }
    /// The longest wait for a write to make progress (default 30 s).
    pub fn write_timeout(mut self, t: Duration) -> Self {
        self.s.write_timeout = t;
        self
    }
    /// Idle connections kept per host and port for reuse (default 4; 0 keeps
    /// none; 256 at most across all hosts).
    pub fn max_idle_per_host(mut self, n: usize) -> Self {
        self.s.max_idle_per_host = n;
        self
    }
    /// How long an idle connection is kept (default 30 s).
    pub fn idle_ttl(mut self, t: Duration) -> Self {
        self.s.idle_ttl = t;
        self
    }
    /// The client.
    pub fn build(self) -> Client {
        Client {
            s: self.s,
            idle: Arc::new(Mutex::new(HashMap::new())),
        }
    }
}

/// A blocking HTTP/1.1 client for `http://` URLs. Cloning it shares its
/// pool of idle connections.
///
/// ```no_run
/// use std::io::Read;
/// let client = http_net_std::Client::new();
/// let mut resp = client.get("http://127.0.0.1:8080/plaintext")?;
/// assert_eq!(resp.status(), 200);
/// let mut body = String::new();
/// resp.read_to_string(&mut body)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Client {
    s: Settings,
    idle: Idle,
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
        self.request(b"GET", url, &[], b"")
    }

    /// Sends `method url` with extra `fields` (a `Host` field is added unless
    /// given) and `body` (with `Content-Length` when not empty, or for
    /// `POST`, `PUT` and `PATCH`), and reads the response head. An idle
    /// connection to the same host and port is reused when there is one; if
    /// it turns out closed before any response byte, an idempotent request is
    /// sent again, once, on a new connection; if the server had sent bytes on
    /// it while it was idle (a `408` before closing it, say), it is discarded
    /// before anything is written and any request goes out on a new one.
    pub fn request(
        &self,
        method: &[u8],
        url: &str,
        fields: &[FieldPair<'_>],
        body: &[u8],
    ) -> Result<ClientResponse, Error> {
        let u = Url::parse(url)?;
        let mut target = Vec::with_capacity(u.target().len() + 1);
        u.write_target(&mut target);
        let key: Key = (u.host().to_ascii_lowercase(), u.port());
        let mut all: Vec<FieldPair<'_>> = Vec::with_capacity(fields.len() + 1);
        if !fields.iter().any(|(n, _)| n.eq_ignore_ascii_case(b"host")) {
            all.push((b"Host", u.authority().as_bytes()));
        }
        all.extend_from_slice(fields);
        let len = if body.is_empty() && !matches!(method, b"POST" | b"PUT" | b"PATCH") {
            BodyLength::Empty
        } else {
            BodyLength::Known(body.len() as u64)
        };
        let idempotent = matches!(
            method,
            b"GET" | b"HEAD" | b"PUT" | b"DELETE" | b"OPTIONS" | b"TRACE"
        );
        let mut retried = false;
        loop {
            // A retry always goes out on a new connection: once.
            let pooled = if retried { None } else { self.take(&key) };
            let (mut p, reused) = match pooled {
                Some(p) => (p, true),
                None => (self.connect(&u)?, false),
            };
            match self.exchange(&mut p, method, &target, &all, len, body) {
                Ok(head) => {
                    return Ok(ClientResponse {
                        head,
                        body: BodyState {
                            pooled: Some(p),
                            done: false,
                            reader: BodyReader::default(),
                            read_timeout: None,
                            key,
                            idle: Arc::clone(&self.idle),
                            s: self.s,
                        },
                    })
                }
                // A dead pooled connection (or one the server answered
                // unasked): discard it and retry on a new one.
                Err(e) if reused && retryable(&e, idempotent) => retried = true,
                Err(e) => return Err(e),
            }
        }
    }

    fn take(&self, key: &Key) -> Option<Pooled> {
        let mut g = lock(&self.idle);
        let list = g.get_mut(key)?;
        while let Some(p) = list.pop() {
            if p.since.elapsed() < self.s.idle_ttl && still_open(&p.stream) {
                return Some(p);
            }
        }
        None
    }

    fn connect(&self, u: &Url<'_>) -> Result<Pooled, Error> {
        let addrs = (u.host(), u.port()).to_socket_addrs().map_err(Error::Io)?;
        let mut last = None;
        for addr in addrs {
            match TcpStream::connect_timeout(&addr, self.s.connect_timeout) {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    stream
                        .set_write_timeout(Some(self.s.write_timeout))
                        .map_err(Error::Io)?;
                    return Ok(Pooled {
                        stream,
                        conn: ClientConn::new(self.s.conn),
                        since: Instant::now(),
                    });
                }
                Err(e) if crate::error::is_timeout(&e) => {
                    last = Some(Error::Timeout(Stage::Connect))
                }
                Err(e) => last = Some(Error::Io(e)),
            }
        }
        Err(last.unwrap_or(Error::Io(io::ErrorKind::NotFound.into())))
    }

    fn exchange(
        &self,
        p: &mut Pooled,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        len: BodyLength,
        body: &[u8],
    ) -> Result<Head, Error> {
        let Pooled { stream, conn, .. } = p;
        conn.send_request(method, target, fields, len)?;
        if !body.is_empty() {
            match conn.send_data(body)? {
                Placement::AfterOutput => wire::flush_with(stream, conn, body)?,
                Placement::Queued => {}
            }
        }
        conn.send_end(&[])?;
        wire::flush(stream, conn)?;
        let mut got_any = false;
        let mut current = None;
        loop {
            match conn.poll_event()? {
                ClientEvent::Informational(_) => {}
                ClientEvent::Response(view) => {
                    return Ok(Head {
                        status: view.status(),
                        version: view.version(),
                        reason: view.reason().to_vec(),
                        fields: view
                            .fields()
                            .map(|(n, v)| (n.to_vec(), v.to_vec()))
                            .collect(),
                    });
                }
                ClientEvent::NeedInput => {
                    let t = Some(self.s.read_timeout);
                    match wire::fill(stream, conn, t, &mut current, Stage::Head)? {
                        Filled::Bytes(_) => got_any = true,
                        Filled::Eof if !got_any => return Err(Error::ConnectionClosed),
                        Filled::Eof => {}
                        Filled::Full => return Err(Error::BodyUnavailable),
                    }
                }
                _ => return Err(Error::ConnectionClosed),
            }
        }
    }
}

/// Whether a request that failed on a reused connection is sent again on a
/// new one: an idempotent request when the connection turned out closed
/// before any response byte; any request when the server had sent bytes on
/// the idle connection (`UnsolicitedResponse`, e.g. a `408` before closing
/// it, C73): `send_request` refuses before writing anything then, so the
/// request never left.
fn retryable(e: &Error, idempotent: bool) -> bool {
    let unsolicited = matches!(
        e,
        Error::Protocol(ConnError::Remote(RemoteError::UnsolicitedResponse))
    );
    unsolicited || (idempotent && stale(e))
}

/// Whether a reused connection failed the way a connection the server had
/// already closed does.
fn stale(e: &Error) -> bool {
    match e {
        Error::ConnectionClosed => true,
        Error::Io(e) => matches!(
            e.kind(),
            io::ErrorKind::ConnectionReset
                | io::ErrorKind::BrokenPipe
                | io::ErrorKind::ConnectionAborted
        ),
        _ => false,
    }
}

/// Whether an idle connection is still open (no end of stream waiting).
fn still_open(s: &TcpStream) -> bool {
    if s.set_nonblocking(true).is_err() {
        return false;
    }
    let mut b = [0u8; 1];
    let open = matches!(s.peek(&mut b), Err(ref e) if e.kind() == io::ErrorKind::WouldBlock);
    s.set_nonblocking(false).is_ok() && open
}

struct Head {
    status: u16,
    version: Version,
    reason: Vec<u8>,
    fields: Vec<(Vec<u8>, Vec<u8>)>,
}

struct BodyState {
    pooled: Option<Pooled>,
    done: bool,
    reader: BodyReader,
    read_timeout: Option<Option<Duration>>,
    key: Key,
    idle: Idle,
    s: Settings,
}

/// A response: the head, and the body as a `std::io::Read` (a malformed or
/// truncated body is a read error wrapping [`Error`]: get it back with
/// [`Error::from_io`]). Reading the body to its end puts the connection back
/// in the client's pool when it may be reused; dropping the response before
/// that closes it.
pub struct ClientResponse {
    head: Head,
    body: BodyState,
}

impl std::fmt::Debug for ClientResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientResponse")
            .field("status", &self.head.status)
            .field("version", &self.head.version)
            .finish_non_exhaustive()
    }
}

impl ClientResponse {
    /// The status code.
    pub fn status(&self) -> u16 {
        self.head.status
    }
    /// The HTTP version of the response.
    pub fn version(&self) -> Version {
        self.head.version
    }
    /// The reason phrase.
    pub fn reason(&self) -> &[u8] {
        &self.head.reason
    }
    /// The fields as (name, value), in received order.
    pub fn fields(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.head.fields.iter().map(|(n, v)| (&n[..], &v[..]))
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &[u8]) -> Option<&[u8]> {
        self.fields()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }
    /// Reads the whole body (at most `limit` bytes: more is an error).
    pub fn read_body(&mut self, limit: usize) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        let mut chunk = [0u8; 16 * 1024];
        loop {
            let n = self.body.read_inner(&mut chunk)?;
            if n == 0 {
                return Ok(out);
            }
            if out.len() + n > limit {
                return Err(Error::Protocol(http_net_conn::Error::Remote(
                    http_net_conn::RemoteError::Framing(
                        http_net_conn::framing::Error::BodyTooLarge,
                    ),
                )));
            }
            out.extend_from_slice(&chunk[..n]);
        }
    }
}

impl BodyState {
    fn read_inner(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        let n = self.reader.take_pending(buf);
        if n > 0 || buf.is_empty() || self.done {
            return Ok(n);
        }
        let Some(p) = self.pooled.as_mut() else {
            return Err(Error::BodyUnavailable);
        };
        let mut src = ClientBody {
            conn: &mut p.conn,
            stream: &mut p.stream,
            timeout: self.s.read_timeout,
            read_timeout: &mut self.read_timeout,
            reusable: false,
        };
        let r = self.reader.read_more(&mut src, buf);
        let reusable = src.reusable;
        match r {
            Ok(0) => {
                self.done = true;
                if reusable {
                    self.give_back();
                } else {
                    self.pooled = None;
                }
            }
            Ok(_) => {}
            Err(_) => self.pooled = None,
        }
        r
    }

    fn give_back(&mut self) {
        let Some(mut p) = self.pooled.take() else {
            return;
        };
        if p.conn.should_close() || self.s.max_idle_per_host == 0 {
            return;
        }
        if Transport::set_read_timeout(&mut p.stream, None).is_err() {
            return;
        }
        p.since = Instant::now();
        let ttl = self.s.idle_ttl;
        let mut g = lock(&self.idle);
        // Expired connections of every host are closed here, so a host that
        // is never asked again does not keep its sockets open.
        g.retain(|_, list| {
            list.retain(|q| q.since.elapsed() < ttl);
            !list.is_empty()
        });
        let total: usize = g.values().map(Vec::len).sum();
        let list = g.entry(self.key.clone()).or_default();
        if list.len() < self.s.max_idle_per_host && total < MAX_IDLE_TOTAL {
            list.push(p);
        }
    }
}

/// The response body as the shared [`BodyReader`] reads it.
struct ClientBody<'s> {
    conn: &'s mut ClientConn,
    stream: &'s mut TcpStream,
    timeout: Duration,
    read_timeout: &'s mut Option<Option<Duration>>,
    /// The body ended with the connection reusable (not closed or switched).
    reusable: bool,
}

impl BodySource for ClientBody<'_> {
    fn step(&mut self) -> Step<'_> {
        match self.conn.poll_event() {
            Ok(ClientEvent::Data(d)) => Step::Data(d),
            Ok(ClientEvent::NeedInput) => Step::NeedInput,
            Ok(ClientEvent::Informational(_) | ClientEvent::Response(_)) => Step::Again,
            Ok(ClientEvent::End(_) | ClientEvent::Idle) => {
                self.reusable = true;
                Step::End
            }
            Ok(ClientEvent::Switched(_) | ClientEvent::Closed) => Step::End,
            Err(e) => Step::Failed(Error::Protocol(e)),
        }
    }

    fn fill(&mut self) -> Result<(), Error> {
        fill_body(self.stream, self.conn, self.timeout, self.read_timeout)
    }
}

impl Read for ClientResponse {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.body.read_inner(buf).map_err(Error::into_io)
    }
}
