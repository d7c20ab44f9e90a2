//! The async client: requests to a host and port over a pool of idle
//! connections per host, bodies streamed both ways, a final response that
//! arrives while the request body is still being written read and returned,
//! and deadlines for connecting, for each read and write, and for the whole
//! request. No response-body budget by default ([`CLIENT_CONFIG`]); a
//! limit the caller sets is [`Error::OverLimit`], never the peer's fault.

use std::collections::HashMap;
use std::future::{poll_fn, Future};
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use http_net_conn::framing::Error as FramingError;
use http_net_conn::{
    BodyLength, BodyLimits, ClientConn, ClientEvent, Config, ConfigOverrides, Error as ConnError,
    Failure, FieldPair, Method, Placement, RemoteError, RequestDeadline, Retry, Version, Window,
};
use tokio::io::{AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::error::{Error, Limit, Stage};
use crate::wire::{self, bounded, bounded_by, Stream};

/// Opens connections for a [`Client`]: plain TCP ([`TcpConnector`]), or
/// your own (a TLS connector wrapping a `TcpStream` in its TLS stream).
pub trait Connector: Send + Sync + 'static {
    /// The streams it opens.
    type Stream: Stream + 'static;
    /// Opens a connection to `host` and `port`.
    fn connect(
        &self,
        host: &str,
        port: u16,
    ) -> impl Future<Output = io::Result<Self::Stream>> + Send;
}

/// Plain TCP connections (`TCP_NODELAY` set).
#[derive(Clone, Copy, Debug, Default)]
pub struct TcpConnector;

impl Connector for TcpConnector {
    type Stream = TcpStream;
    async fn connect(&self, host: &str, port: u16) -> io::Result<TcpStream> {
        let s = TcpStream::connect((host, port)).await?;
        let _ = s.set_nodelay(true);
        Ok(s)
    }
}

#[derive(Clone, Copy, Debug)]
struct ClientSettings {
    conn: Config,
    connect_timeout: Duration,
    read_timeout: Duration,
    write_timeout: Duration,
    request_timeout: Option<Duration>,
    max_idle_per_host: usize,
    idle_ttl: Duration,
    accept_transfer_codings: bool,
    /// Set by [`ClientBuilder::front_line`]; applied to `conn` when the
    /// client is made.
    overrides: ConfigOverrides,
}

/// Idle connections kept across all hosts.
const MAX_IDLE_TOTAL: usize = 256;

/// The client's default connection configuration: [`Config::DEFAULT`]
/// without a body budget (the 8 MiB budget is a server's default; a client
/// streams what it asked for, and bounds a whole-body read with
/// [`ClientResponse::body_to_vec`]'s limit). The same as the blocking
/// client's.
///
/// ```
/// use http_net_tokio::CLIENT_CONFIG;
/// assert_eq!(CLIENT_CONFIG.body_limits().body_budget(), 0); // none
/// ```
pub const CLIENT_CONFIG: Config =
    Config::DEFAULT.with_body_limits(BodyLimits::DEFAULT.with_body_budget(0));

/// Configures a [`Client`].
///
/// The defaults: the connection configuration [`CLIENT_CONFIG`] (no
/// response-body budget: a body of any size is streamed; set one with
/// [`conn_config`](ClientBuilder::conn_config), and a body over it is
/// [`Error::OverLimit`], the caller's limit, not the peer's fault),
/// connecting within 10 s, each read and write within 30 s, no
/// whole-request deadline, 4 idle connections kept per host for 30 s.
///
/// ```
/// use std::time::Duration;
/// let client = http_net_tokio::Client::builder()
///     .connect_timeout(Duration::from_secs(2))
///     .request_timeout(Duration::from_secs(10))
///     .max_idle_per_host(2)
///     .build();
/// # let _ = client;
/// ```
#[derive(Clone, Debug)]
#[must_use]
pub struct ClientBuilder {
    s: ClientSettings,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            s: ClientSettings {
                conn: CLIENT_CONFIG,
                connect_timeout: Duration::from_secs(10),
                read_timeout: Duration::from_secs(30),
                write_timeout: Duration::from_secs(30),
                request_timeout: None,
                max_idle_per_host: 4,
                idle_ttl: Duration::from_secs(30),
                accept_transfer_codings: false,
                overrides: ConfigOverrides::NONE,
            },
        }
    }
}

impl ClientBuilder {
    setters! {
        /// Head and body limits and buffer sizes (see [`http_net_conn::Config`];
        /// default [`CLIENT_CONFIG`], which has no body budget). A response
        /// body over a budget set here is
        /// [`Error::OverLimit`]`(`[`Limit::BodyBudget`]`)`, the caller's limit,
        /// not the peer's fault.
        ///
        /// ```
        /// use http_net_tokio::http_net_conn::BodyLimits;
        /// // At most 64 MiB of response body.
        /// let config = http_net_tokio::CLIENT_CONFIG
        ///     .with_body_limits(BodyLimits::DEFAULT.with_body_budget(64 << 20));
        /// let client = http_net_tokio::Client::builder().conn_config(config).build();
        /// # let _ = client;
        /// ```
        conn_config(config: Config) => conn = config;
        /// The longest wait for a connection to open (default 10 s).
        connect_timeout(t: Duration) => connect_timeout = t;
        /// The longest wait for the next bytes of a response (default 30 s).
        read_timeout(t: Duration) => read_timeout = t;
        /// The longest wait for a write to make progress (default 30 s).
        write_timeout(t: Duration) => write_timeout = t;
        /// The deadline of a whole request, from its start to the end of the
        /// response body (default: none): every wait ends by it.
        request_timeout(t: Duration) => request_timeout = Some(t);
        /// Idle connections kept per host and port for reuse (default 4; 0 keeps
        /// none; 256 at most across all hosts).
        max_idle_per_host(n: usize) => max_idle_per_host = n;
        /// How long an idle connection is kept (default 30 s).
        idle_ttl(t: Duration) => idle_ttl = t;
        /// Whether a response body that still carries transfer codings is
        /// handed out (default: no). The client decodes `chunked` only; a
        /// response whose `Transfer-Encoding` does not end in `chunked` (for
        /// example `gzip`, read until close, RFC 9112 §6.3) is by default
        /// [`Error::UnsupportedTransferCoding`] naming the codings, from
        /// [`Client::send`] or [`RequestBody::finish`]. With this on, the body
        /// is the coded bytes and [`ClientResponse::transfer_codings`] lists the
        /// codings, for a caller that decodes them.
        ///
        /// ```
        /// let client = http_net_tokio::Client::builder()
        ///     .accept_transfer_codings(true)
        ///     .build();
        /// # let _ = client;
        /// ```
        accept_transfer_codings(on: bool) => accept_transfer_codings = on;
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
        /// [`http_net_conn::head::Limits::with_front_line`]. An obs-fold
        /// elsewhere is still replaced with SP (RFC 9112 §5.2);
        /// [`http_net_conn::head::ObsFold::Reject`] in the configuration's
        /// response options rejects it. It sets the profile in the connection
        /// configuration whether [`conn_config`](ClientBuilder::conn_config)
        /// comes before or after it.
        ///
        /// ```
        /// let client = http_net_tokio::Client::builder().front_line(true).build();
        /// # let _ = client;
        /// ```
        front_line(on: bool) => overrides.with_front_line(on);
    }
    /// The client, over plain TCP.
    pub fn build(self) -> Client {
        self.connector(TcpConnector)
    }
    /// The client, over the connections `connector` opens.
    pub fn connector<C: Connector>(mut self, connector: C) -> Client<C> {
        self.s.conn = self.s.overrides.apply(self.s.conn);
        Client {
            inner: Arc::new(Inner {
                s: self.s,
                connector,
                idle: Mutex::new(HashMap::new()),
            }),
        }
    }
}

type Key = (String, u16);

struct Pooled<S> {
    stream: S,
    conn: ClientConn,
    /// Its idle life in the pool (`idle_ttl` from when it was parked).
    idle: Window,
}

struct Inner<C: Connector> {
    s: ClientSettings,
    connector: C,
    idle: Mutex<HashMap<Key, Vec<Pooled<C::Stream>>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// An async HTTP/1.1 client. Cloning it shares its pool of idle
/// connections.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// # let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
/// # let port = l.local_addr().unwrap().port();
/// # tokio::spawn(async move {
/// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
/// #     let (mut s, _) = l.accept().await.unwrap();
/// #     let mut b = [0u8; 1024];
/// #     let _ = s.read(&mut b).await;
/// #     s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi").await.unwrap();
/// # });
/// let client = http_net_tokio::Client::new();
/// let mut resp = client.send("127.0.0.1", port, b"GET", b"/", &[], b"").await?;
/// assert_eq!(resp.status(), 200);
/// assert_eq!(resp.body_to_vec(1024).await?, b"hi");
/// # Ok::<(), http_net_tokio::Error>(())
/// # }).unwrap();
/// ```
pub struct Client<C: Connector = TcpConnector> {
    inner: Arc<Inner<C>>,
}

impl<C: Connector> Clone for Client<C> {
    fn clone(&self) -> Self {
        Client {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

impl Client {
    /// A client with the default settings, over plain TCP.
    pub fn new() -> Client {
        ClientBuilder::default().build()
    }
    /// A builder with the default settings.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }
}

/// What a [`RequestBody::write`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The bytes were sent.
    Sent,
    /// The server sent its final response before the request body was
    /// complete: stop writing and take it with [`RequestBody::finish`].
    Answered,
}

impl<C: Connector> Client<C> {
    /// Sends `method target` to `host:port` with extra `fields` (`Host` is
    /// added unless given) and the whole `body` (with `Content-Length` when
    /// not empty, or for `POST`, `PUT` and `PATCH`), and reads the response
    /// head. A pooled connection is reused when there is one; a request
    /// that fails on it is sent again, once, on a new connection when the
    /// connection's retry rule says so ([`http_net_conn::Retry`], RFC 9110
    /// §9.2.2): nothing of it had left (the server had sent bytes on the
    /// idle connection, a `408` before closing it, say), or it is
    /// idempotent and the connection closed before any response byte. A
    /// final response that arrives while the body is still being written
    /// is returned.
    pub async fn send(
        &self,
        host: &str,
        port: u16,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        body: &[u8],
    ) -> Result<ClientResponse<C>, Error> {
        let len = if body.is_empty() && !Method::from_bytes(method).defines_content() {
            BodyLength::Empty
        } else {
            BodyLength::Known(body.len() as u64)
        };
        let mut fresh = false;
        loop {
            let begun = self.begin(host, port, method, target, fields, len, fresh);
            let (retry, e) = match begun.await {
                Ok(mut req) => match req.send_whole(body).await {
                    Ok(head) => return req.respond(head),
                    Err(e) => (req.retry(&e), e),
                },
                Err(failed) => failed,
            };
            // The connection's rule; a retry goes out on a new connection,
            // which carried nothing, so the rule refuses a second one.
            if !retry.is_retry() {
                return Err(e);
            }
            fresh = true;
        }
    }

    /// Starts a request whose body is streamed: write it with
    /// [`RequestBody::write`], then [`RequestBody::finish`] for the
    /// response. `body` is `BodyLength::Known(n)` for `Content-Length: n`,
    /// `BodyLength::Streamed` for a chunked body, `BodyLength::Empty` for
    /// none.
    pub async fn start(
        &self,
        host: &str,
        port: u16,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        body: BodyLength,
    ) -> Result<RequestBody<C>, Error> {
        self.begin(host, port, method, target, fields, body, false)
            .await
            .map_err(|(_, e)| e)
    }

    #[allow(clippy::too_many_arguments)]
    async fn begin(
        &self,
        host: &str,
        port: u16,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        body: BodyLength,
        fresh: bool,
    ) -> Result<RequestBody<C>, (Retry, Error)> {
        let s = &self.inner.s;
        let deadline = RequestDeadline::new(wire::stamp(Instant::now()), s.request_timeout);
        let key: Key = (host.to_ascii_lowercase(), port);
        let authority = if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let mut all: Vec<FieldPair<'_>> = Vec::with_capacity(fields.len() + 1);
        if !fields.iter().any(|(n, _)| n.eq_ignore_ascii_case(b"host")) {
            all.push((b"Host", authority.as_bytes()));
        }
        all.extend_from_slice(fields);
        let pooled = if fresh { None } else { self.take(&key) };
        let mut p = match pooled {
            Some(p) => p,
            None => self
                .connect(host, port, deadline)
                .await
                .map_err(|e| (Retry::No, e))?,
        };
        if let Err(e) = p.conn.send_request(method, target, &all, body) {
            let e = Error::Protocol(e);
            return Err((p.conn.retry(failure(&e), true), e));
        }
        let mut req = RequestBody {
            p: Some(p),
            client: Arc::clone(&self.inner),
            key,
            deadline,
            early: None,
        };
        // The head leaves now (with the body's first bytes when small).
        if let Err(e) = req.push(&[]).await {
            return Err((req.retry(&e), e));
        }
        Ok(req)
    }

    fn take(&self, key: &Key) -> Option<Pooled<C::Stream>> {
        let mut g = lock(&self.inner.idle);
        let list = g.get_mut(key)?;
        while let Some(mut p) = list.pop() {
            if !p.idle.passed(wire::stamp(Instant::now())) && still_open(&mut p) {
                return Some(p);
            }
        }
        None
    }

    async fn connect(
        &self,
        host: &str,
        port: u16,
        deadline: RequestDeadline,
    ) -> Result<Pooled<C::Stream>, Error> {
        let d = wait_end(self.inner.s.connect_timeout, deadline);
        match bounded(d, self.inner.connector.connect(host, port)).await {
            None => Err(timed_out(Stage::Connect, deadline)),
            Some(Err(e)) => Err(Error::Io(e)),
            Some(Ok(stream)) => Ok(Pooled {
                stream,
                conn: ClientConn::new(self.inner.s.conn),
                idle: Window::start(wire::stamp(Instant::now()), self.inner.s.idle_ttl),
            }),
        }
    }
}

/// The timeout of a wait at `stage`: [`Stage::Deadline`] when the
/// whole-request deadline (`request_timeout`) has passed, which bounded it
/// (the core's `RequestDeadline::timed_out`).
fn timed_out(stage: Stage, request_deadline: RequestDeadline) -> Error {
    Error::Timeout(request_deadline.timed_out(wire::stamp(Instant::now()), stage))
}

/// The end of a wait of at most `per` starting now, within the request's
/// deadline (the core's `RequestDeadline::wait`).
fn wait_end(per: Duration, request_deadline: RequestDeadline) -> Instant {
    wire::instant(request_deadline.wait(wire::stamp(Instant::now()), per).0)
}

/// A connection error as the client reports it: a body over the budget the
/// caller configured is a local limit, not the server's fault.
fn local(e: ConnError, conn: &Config) -> Error {
    match e {
        ConnError::Remote(RemoteError::Framing(FramingError::BodyTooLarge)) => {
            Error::OverLimit(Limit::BodyBudget(conn.body_limits().body_budget()))
        }
        e => Error::Protocol(e),
    }
}

/// How a request failed, as the connection's retry rule asks: the
/// connection ended under it (an end of stream, or an I/O error on it: a
/// reset, a broken pipe) or something else (a timeout, a protocol error).
fn failure(e: &Error) -> Failure {
    match e {
        Error::ConnectionClosed | Error::Io(_) => Failure::Closed,
        _ => Failure::Other,
    }
}

/// Whether an idle connection is still open: one poll of a read with a
/// waker that does nothing; pending means open and silent. Bytes the
/// server sent on the idle connection (a `408` before closing it) make it
/// unusable (RFC 9112 §9.2).
fn still_open<S: Stream>(p: &mut Pooled<S>) -> bool {
    let mut probe = [0u8; 1];
    let mut rb = ReadBuf::new(&mut probe);
    let mut cx = Context::from_waker(Waker::noop());
    matches!(
        Pin::new(&mut p.stream).poll_read(&mut cx, &mut rb),
        Poll::Pending
    )
}

/// The head of a response, copied out of the connection's buffer.
#[derive(Clone, Debug)]
struct Head {
    status: u16,
    version: Version,
    reason: Vec<u8>,
    fields: http_net_conn::OwnedFields,
    /// The transfer codings the body still carries (RFC 9112 §6.1).
    codings: Vec<Vec<u8>>,
}

impl Head {
    fn of(view: &http_net_conn::ResponseView<'_>) -> Head {
        Head {
            status: view.status(),
            version: view.version(),
            reason: view.reason().to_vec(),
            fields: view.fields().collect(),
            codings: view.transfer_codings().map(<[u8]>::to_vec).collect(),
        }
    }
}

/// What one wait on the connection gave.
enum Step {
    Wrote(usize),
    Read(usize),
}

/// A request being sent ([`Client::start`]): write its body, then
/// [`finish`](RequestBody::finish) it for the response. While a write waits
/// for the server to take bytes, the response side is read too: a final
/// response sent early (a `413`, say) is kept and ends the writing.
pub struct RequestBody<C: Connector = TcpConnector> {
    p: Option<Pooled<C::Stream>>,
    client: Arc<Inner<C>>,
    key: Key,
    deadline: RequestDeadline,
    early: Option<Head>,
}

impl<C: Connector> RequestBody<C> {
    /// Sends body bytes; [`Progress::Answered`] when the server's final
    /// response arrived first (nothing more is sent).
    pub async fn write(&mut self, data: &[u8]) -> Result<Progress, Error> {
        if self.early.is_some() {
            return Ok(Progress::Answered);
        }
        let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
        match p.conn.send_data(data)? {
            Placement::AfterOutput => self.push(data).await?,
            Placement::Queued if p.conn.output().len() >= 16 * 1024 => self.push(&[]).await?,
            Placement::Queued => {}
        }
        Ok(if self.early.is_some() {
            Progress::Answered
        } else {
            Progress::Sent
        })
    }

    /// Ends the body (with `trailers` if it is chunked) and reads the
    /// response head (interim `1xx` responses are skipped), or returns the
    /// final response that arrived early.
    pub async fn finish(mut self, trailers: &[FieldPair<'_>]) -> Result<ClientResponse<C>, Error> {
        let head = self.end(trailers).await?;
        self.respond(head)
    }

    /// Writes the whole `body` and ends it: the response head.
    async fn send_whole(&mut self, body: &[u8]) -> Result<Head, Error> {
        if !body.is_empty() {
            self.write(body).await?;
        }
        self.end(&[]).await
    }

    /// Ends the body and reads the response head, or takes the early one.
    async fn end(&mut self, trailers: &[FieldPair<'_>]) -> Result<Head, Error> {
        if self.early.is_none() {
            let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
            p.conn.send_end(trailers)?;
            self.push(&[]).await?;
        }
        match self.early.take() {
            Some(h) => Ok(h),
            None => self.read_head().await,
        }
    }

    /// Whether the request, which failed with `e`, is sent again (the
    /// connection's rule; the body `send` writes is bytes it holds).
    fn retry(&self, e: &Error) -> Retry {
        self.p
            .as_ref()
            .map_or(Retry::No, |p| p.conn.retry(failure(e), true))
    }

    /// The response with `head`.
    fn respond(mut self, head: Head) -> Result<ClientResponse<C>, Error> {
        if !head.codings.is_empty() && !self.client.s.accept_transfer_codings {
            // The connection closes with `self`: the body runs to close.
            return Err(Error::UnsupportedTransferCoding(head.codings));
        }
        Ok(ClientResponse {
            head,
            p: self.p.take(),
            client: Arc::clone(&self.client),
            key: std::mem::take(&mut self.key),
            deadline: self.deadline,
            done: false,
            pending: http_net_conn::Leftover::new(),
        })
    }

    /// Writes the connection's output and then `body`, reading the response
    /// side whenever the write must wait.
    async fn push(&mut self, mut body: &[u8]) -> Result<(), Error> {
        let s = self.client.s;
        loop {
            let Some(p) = self.p.as_mut() else {
                return Err(Error::BodyUnavailable);
            };
            let out_len = p.conn.output().len();
            if out_len == 0 && body.is_empty() {
                break;
            }
            // The clock is read only when the write must wait.
            let request_deadline = self.deadline;
            let d = || wait_end(s.write_timeout, request_deadline);
            let Pooled { stream, conn, .. } = p;
            let step =
                bounded_by(d, poll_fn(|cx| poll_write_or_read(stream, conn, body, cx))).await;
            match step {
                None => return Err(timed_out(Stage::Write, request_deadline)),
                Some(Err(e)) => {
                    // The server may have answered and closed: read what it sent.
                    if self.read_early().await {
                        return Ok(());
                    }
                    return Err(Error::Io(e));
                }
                Some(Ok(Step::Wrote(0))) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
                Some(Ok(Step::Wrote(n))) => {
                    if n <= out_len {
                        conn.consume_output(n);
                    } else {
                        conn.consume_output(out_len);
                        body = body.get(n - out_len..).unwrap_or(&[]);
                    }
                }
                Some(Ok(Step::Read(n))) => {
                    if n == 0 {
                        conn.recv_eof();
                    } else {
                        conn.commit(n);
                    }
                    if self.check_early()? {
                        return Ok(());
                    }
                }
            }
        }
        let Some(p) = self.p.as_mut() else {
            return Ok(());
        };
        let request_deadline = self.deadline;
        let d = || wait_end(s.write_timeout, request_deadline);
        match bounded_by(d, p.stream.flush()).await {
            None => Err(timed_out(Stage::Write, request_deadline)),
            Some(r) => r.map_err(Error::Io),
        }
    }

    /// Whether the bytes read so far hold a final response (kept in `early`).
    fn check_early(&mut self) -> Result<bool, Error> {
        let Some(p) = self.p.as_mut() else {
            return Ok(false);
        };
        let config = self.client.s.conn;
        loop {
            match p.conn.poll_event().map_err(|e| local(e, &config))? {
                ClientEvent::Informational(_) => {}
                ClientEvent::Response(view) => {
                    self.early = Some(Head::of(&view));
                    return Ok(true);
                }
                _ => return Ok(false),
            }
        }
    }

    /// After a failed write: reads, within the read timeout, a response the
    /// server sent before it stopped reading.
    async fn read_early(&mut self) -> bool {
        match self.read_head().await {
            Ok(h) => {
                self.early = Some(h);
                true
            }
            Err(_) => false,
        }
    }

    async fn read_head(&mut self) -> Result<Head, Error> {
        let s = self.client.s;
        let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
        loop {
            match p.conn.poll_event().map_err(|e| local(e, &s.conn))? {
                ClientEvent::Informational(_) => {}
                ClientEvent::Response(view) => return Ok(Head::of(&view)),
                ClientEvent::NeedInput => {
                    let request_deadline = self.deadline;
                    let d = || wait_end(s.read_timeout, request_deadline);
                    match fill(&mut p.stream, &mut p.conn, d, Stage::Head, request_deadline).await?
                    {
                        0 if !p.conn.response_started() => return Err(Error::ConnectionClosed),
                        _ => {}
                    }
                }
                _ => return Err(Error::ConnectionClosed),
            }
        }
    }
}

/// One poll of a write of the output and `body`; when it must wait, one
/// poll of a read into the connection (so an early response is seen).
fn poll_write_or_read<S: Stream>(
    stream: &mut S,
    conn: &mut ClientConn,
    body: &[u8],
    cx: &mut Context<'_>,
) -> Poll<io::Result<Step>> {
    let w = if conn.output().is_empty() {
        Pin::new(&mut *stream).poll_write(cx, body)
    } else {
        let bufs = [IoSlice::new(conn.output()), IoSlice::new(body)];
        Pin::new(&mut *stream).poll_write_vectored(cx, &bufs)
    };
    if let Poll::Ready(r) = w {
        return Poll::Ready(r.map(Step::Wrote));
    }
    let spare = conn.spare_mut();
    if spare.is_empty() {
        return Poll::Pending;
    }
    let mut rb = ReadBuf::new(spare);
    match Pin::new(&mut *stream).poll_read(cx, &mut rb) {
        Poll::Ready(Ok(())) => Poll::Ready(Ok(Step::Read(rb.filled().len()))),
        Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
        Poll::Pending => Poll::Pending,
    }
}

/// Reads once into the connection until `deadline` (computed only when the
/// read must wait: a read that is ready reads no clock); the count (0 at
/// end of stream, and `recv_eof` is called).
async fn fill<S: Stream>(
    stream: &mut S,
    conn: &mut ClientConn,
    deadline: impl FnOnce() -> Instant,
    stage: Stage,
    request_deadline: RequestDeadline,
) -> Result<usize, Error> {
    use tokio::io::AsyncReadExt;
    let spare = conn.spare_mut();
    if spare.is_empty() {
        return Err(Error::BodyUnavailable);
    }
    match bounded_by(deadline, stream.read(spare)).await {
        None => Err(timed_out(stage, request_deadline)),
        Some(Err(e)) => Err(Error::Io(e)),
        Some(Ok(0)) => {
            conn.recv_eof();
            Ok(0)
        }
        Some(Ok(n)) => {
            conn.commit(n);
            Ok(n)
        }
    }
}

/// A response: the head, and the body read with
/// [`read_body`](ClientResponse::read_body). Reading the body to its end puts
/// the connection back in the client's pool when it may be reused;
/// dropping the response before that closes it.
pub struct ClientResponse<C: Connector = TcpConnector> {
    head: Head,
    p: Option<Pooled<C::Stream>>,
    client: Arc<Inner<C>>,
    key: Key,
    deadline: RequestDeadline,
    done: bool,
    pending: http_net_conn::Leftover,
}

impl<C: Connector> std::fmt::Debug for ClientResponse<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientResponse")
            .field("status", &self.head.status)
            .field("version", &self.head.version)
            .finish_non_exhaustive()
    }
}

impl<C: Connector> ClientResponse<C> {
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
        self.head.fields.iter()
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &[u8]) -> Option<&[u8]> {
        self.head.fields.get(name)
    }
    /// The transfer codings the body bytes still carry, in the order
    /// applied (RFC 9112 §6.1): empty unless
    /// [`ClientBuilder::accept_transfer_codings`] is on and the response's
    /// `Transfer-Encoding` does not end in `chunked`; the body is then the
    /// coded bytes, for the caller to decode.
    pub fn transfer_codings(&self) -> impl Iterator<Item = &[u8]> {
        self.head.codings.iter().map(|c| &c[..])
    }

    /// Reads body bytes into `buf`; `Ok(0)` at the end of the body. A
    /// malformed or truncated body is an error naming the rule.
    pub async fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        let n = self.pending.take(buf);
        if n > 0 {
            return Ok(n);
        }
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        let s = self.client.s;
        let Some(p) = self.p.as_mut() else {
            return Err(Error::BodyUnavailable);
        };
        loop {
            match p.conn.poll_event() {
                Ok(ClientEvent::Data(d)) => {
                    let n = self.pending.hand_out(d, buf);
                    if n > 0 {
                        return Ok(n);
                    }
                }
                Ok(ClientEvent::NeedInput) => {
                    let request_deadline = self.deadline;
                    let d = || wait_end(s.read_timeout, request_deadline);
                    if let Err(e) =
                        fill(&mut p.stream, &mut p.conn, d, Stage::Body, request_deadline).await
                    {
                        self.p = None;
                        return Err(e);
                    }
                }
                Ok(ClientEvent::Informational(_) | ClientEvent::Response(_)) => {}
                Ok(ClientEvent::End(_) | ClientEvent::Idle) => {
                    self.done = true;
                    self.give_back();
                    return Ok(0);
                }
                // An event this adapter does not know (`ClientEvent` is
                // non_exhaustive) ends the body without reuse, as a close does.
                Ok(ClientEvent::Switched(_) | ClientEvent::Closed | _) => {
                    self.done = true;
                    self.p = None;
                    return Ok(0);
                }
                Err(e) => {
                    self.p = None;
                    return Err(local(e, &s.conn));
                }
            }
        }
    }

    /// Reads the whole body, at most `limit` bytes: a longer body is
    /// [`Error::OverLimit`]`(`[`Limit::ReadBody`]`)`, a local limit (not the
    /// peer's fault), and the connection is not reused. To take bodies of
    /// any size, read them with [`read_body`](ClientResponse::read_body).
    pub async fn body_to_vec(&mut self, limit: usize) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        let mut chunk = vec![0u8; 16 * 1024];
        loop {
            let n = self.read_body(&mut chunk).await?;
            if n == 0 {
                return Ok(out);
            }
            if out.len() + n > limit {
                self.p = None;
                return Err(Error::OverLimit(Limit::ReadBody(limit)));
            }
            out.extend_from_slice(&chunk[..n]);
        }
    }

    fn give_back(&mut self) {
        let Some(mut p) = self.p.take() else {
            return;
        };
        let s = &self.client.s;
        if !p.conn.reusable() || s.max_idle_per_host == 0 {
            return;
        }
        // One clock read for the connection's return and the expiry of all.
        let now = wire::stamp(Instant::now());
        p.idle = Window::start(now, s.idle_ttl);
        let mut g = lock(&self.client.idle);
        // Expired connections of every host are closed here, so a host that
        // is never asked again does not keep its sockets open.
        g.retain(|_, list| {
            list.retain(|q| !q.idle.passed(now));
            !list.is_empty()
        });
        let total: usize = g.values().map(Vec::len).sum();
        let list = g.entry(std::mem::take(&mut self.key)).or_default();
        if list.len() < s.max_idle_per_host && total < MAX_IDLE_TOTAL {
            list.push(p);
        }
    }
}

impl<C: Connector> std::fmt::Debug for Client<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("settings", &self.inner.s)
            .finish_non_exhaustive()
    }
}

impl<C: Connector> std::fmt::Debug for RequestBody<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestBody")
            .field("answered_early", &self.early.is_some())
            .field(
                "sent",
                &self.p.as_ref().is_some_and(|p| p.conn.request_sent()),
            )
            .finish_non_exhaustive()
    }
}
