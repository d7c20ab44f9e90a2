//! The async client: requests to `http://` URLs (and `https://` ones
//! through a [`Connector`] that opens TLS) or to a host and port, over a
//! pool of idle connections per origin, bodies streamed both ways,
//! `Expect: 100-continue` above a threshold, a final response that arrives
//! while the request body is still being written read and returned, opt-in
//! redirects (the core's [`Redirects`] policy), and deadlines for
//! connecting, for each read and write, and for the whole request. No
//! response-body budget by default ([`CLIENT_CONFIG`]); a limit the caller
//! sets is [`Error::OverLimit`], never the peer's fault.

use std::borrow::Cow;
use std::future::{poll_fn, Future};
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll, Waker};
use std::time::Duration;

use http_net_conn::driver::{
    head_fields, Answered, HeadStep, IdlePool, PoolEntry, RequestPlan, SendStep, INLINE_FIELDS,
};
use http_net_conn::{
    expects_continue, request_length, BodyLength, ClientConn, ClientHead, ClientOptions, Config,
    ExpectState, FieldPair, Origin, Placement, RequestDeadline, Retry, Timestamp, UrlError,
};
use tokio::io::{AsyncRead, AsyncReadExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

use crate::client_wait::{poll_wait, wait, ConnTimer};
use crate::error::{Error, Limit, Stage};
use crate::shared::lock;
use crate::timer::WakeClock;
use crate::wire::{self, bounded, Transport};

/// Opens connections for a [`Client`]: plain TCP ([`TcpConnector`]), or
/// your own (a TLS connector wrapping a `TcpStream` in its TLS stream).
///
/// [`connect`](Connector::connect) opens the connections of `http://` URLs
/// and of [`Client::send_to`] and [`Client::start`];
/// [`connect_https`](Connector::connect_https) those of `https://` URLs.
/// A connector that does not override `connect_https` (as
/// [`TcpConnector`]) opens none: an `https://` URL is then
/// [`Error::Url`]`(`[`UrlError::HttpsWithoutConnector`]`)`, never a
/// plain-text attempt (as the blocking client without a connector).
pub trait Connector: Send + Sync + 'static {
    /// The streams it opens.
    type Stream: Transport + 'static;
    /// Opens a connection to `host` and `port`.
    fn connect(
        &self,
        host: &str,
        port: u16,
    ) -> impl Future<Output = io::Result<Self::Stream>> + Send;
    /// Opens a TLS connection to `host` (an IPv6 literal without brackets)
    /// and `port` for an `https://` URL, or `None` when this connector has
    /// no TLS (the default).
    fn connect_https(
        &self,
        host: &str,
        port: u16,
    ) -> Option<impl Future<Output = io::Result<Self::Stream>> + Send> {
        let _ = (host, port);
        None::<std::future::Ready<io::Result<Self::Stream>>>
    }
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

/// The client's settings: the ones both adapters share, all of them here.
type ClientSettings = http_net_conn::ClientSettings;

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
pub const CLIENT_CONFIG: Config = ClientSettings::DEFAULT.conn;

/// Configures a [`Client`].
///
/// The defaults: the connection configuration [`CLIENT_CONFIG`] (no
/// response-body budget: a body of any size is streamed; set one with
/// [`conn_config`](ClientOptions::conn_config), and a body over it is
/// [`Error::OverLimit`], the caller's limit, not the peer's fault),
/// connecting within 10 s, each read and write within 30 s, no
/// whole-request deadline, `Expect: 100-continue` above 1 MiB waiting 1 s
/// for `100`, no redirects followed, 4 idle connections kept per origin
/// for 30 s. The setters are [`ClientOptions`]'s, the blocking client's
/// too (the same settings, names and defaults); the connector is the
/// builder's own.
///
/// ```
/// use http_net_tokio::ClientOptions;
/// use std::time::Duration;
/// let client = http_net_tokio::Client::builder()
///     .connect_timeout(Duration::from_secs(2))
///     .request_timeout(Duration::from_secs(10))
///     .max_idle_per_host(2)
///     .build();
/// # let _ = client;
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct ClientBuilder {
    s: ClientSettings,
}

/// The setters the two clients share are [`ClientOptions`]'s (bring it
/// into scope: `use http_net_tokio::ClientOptions;`).
impl ClientOptions for ClientBuilder {
    fn settings_mut(&mut self) -> &mut ClientSettings {
        &mut self.s
    }
}

impl ClientBuilder {
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
                idle: Mutex::new(IdlePool::new(&self.s)),
            }),
        }
    }
}

/// A connection, boxed once when it is opened: a request moves the box
/// from the pool to its writer, its response and back, not the connection's
/// state.
struct Pooled<S> {
    stream: S,
    conn: ClientConn,
    /// Its origin, kept from when it was opened (a request on it formats
    /// and hashes nothing to find its way back to the pool): https or not,
    /// host, port.
    key: (bool, String, u16),
    /// Its one runtime timer, for every wait on it.
    timer: ConnTimer,
}

impl<S> PoolEntry for Box<Pooled<S>> {
    fn conn(&self) -> &ClientConn {
        &self.conn
    }
    fn origin(&self) -> Origin<'_> {
        Origin::new(self.key.0, &self.key.1, self.key.2)
    }
}

/// The idle connections and the heads of dropped responses (the core's
/// rules, [`IdlePool`]).
type Pool<S> = IdlePool<Box<Pooled<S>>>;

struct Inner<C: Connector> {
    s: ClientSettings,
    connector: C,
    idle: Mutex<Pool<C::Stream>>,
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
/// let mut resp = client.send_to("127.0.0.1", port, b"GET", b"/", &[], b"").await?;
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

/// What a [`RequestWriter::write`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The bytes were sent.
    Sent,
    /// The server sent its final response before the request body was
    /// complete: stop writing and take it with [`RequestWriter::finish`].
    Answered,
}

/// A request body for [`Client::request`]: [`http_net_conn::RequestBody`]
/// with an [`AsyncRead`](tokio::io::AsyncRead) as its reader (the blocking
/// client's `RequestBody` takes a `Read`). `Empty`, `Bytes(&[u8])` (also from `&[u8]`, `&[u8; N]`
/// and `&Vec<u8>`), or `Reader { reader, len }`: a known length goes out with
/// `Content-Length`, an unknown one chunked; only bytes are
/// [replayable](http_net_conn::RequestBody::replayable) after a `307`/`308`.
///
/// ```
/// use http_net_tokio::RequestBody;
/// // A known length goes out with `Content-Length`, an unknown one chunked.
/// let mut file: &[u8] = b"file contents";
/// let body = RequestBody::Reader { reader: &mut file, len: None };
/// # let _ = body;
/// let bytes: RequestBody<'_> = b"abc".into();
/// # let _ = bytes;
/// ```
pub type RequestBody<'a> = http_net_conn::RequestBody<'a, dyn AsyncRead + Unpin + Send + 'a>;

/// Body bytes read from a [`RequestBody::Reader`] at once.
const SEND_CHUNK: usize = 64 * 1024;

impl<C: Connector> Client<C> {
    /// `GET url`.
    pub async fn get(&self, url: &str) -> Result<ClientResponse<C>, Error> {
        self.request(b"GET", url, &[], RequestBody::Empty).await
    }

    /// Sends `method url` with extra `fields` (a `Host` field is added
    /// unless given) and `body`: bytes (`&[u8]`, `&[u8; N]`, `&Vec<u8>`) or
    /// any [`RequestBody`] (`Content-Length` when its length is known and
    /// not zero, or for a method that defines content; chunked when it is
    /// not known), and reads the response head. The blocking client's
    /// `request`, async.
    ///
    /// The URL is `http://` (or `https://` with a [`Connector`] that opens
    /// TLS); the path and query are sent as the target, a fragment never.
    /// Above the [`expect_continue`](ClientOptions::expect_continue)
    /// threshold the body waits for `100 Continue` first. While the body
    /// is sent, a final response that arrives before it is done (a `413`,
    /// a `417`, or a `200` from a server that did not read the body) ends
    /// the upload and is returned; the connection is then not reused.
    /// Redirects are followed as the [`redirects`](ClientOptions::redirects)
    /// policy decides; reuse and retry are [`Client::send_to`]'s.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// # let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    /// # let addr = l.local_addr().unwrap();
    /// # tokio::spawn(async move {
    /// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
    /// #     let (mut s, _) = l.accept().await.unwrap();
    /// #     let mut b = [0u8; 1024];
    /// #     let _ = s.read(&mut b).await;
    /// #     s.write_all(b"HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok").await.unwrap();
    /// # });
    /// let client = http_net_tokio::Client::new();
    /// let url = format!("http://{addr}/items?tag=a");
    /// let mut resp = client.request(b"POST", &url, &[(b"Content-Type", b"text/plain")], b"hi").await?;
    /// assert_eq!(resp.status(), 201);
    /// assert_eq!(resp.body_to_vec(1024).await?, b"ok");
    /// # Ok::<(), http_net_tokio::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn request<'b>(
        &self,
        method: &[u8],
        url: &str,
        fields: &[FieldPair<'_>],
        body: impl Into<RequestBody<'b>>,
    ) -> Result<ClientResponse<C>, Error> {
        let mut body = body.into();
        let mut clock = WakeClock::default();
        let mut plan = RequestPlan::chase(&self.inner.s, clock.stamp(), method, url)?;
        let mut own = Cow::Borrowed(fields);
        loop {
            let u = plan.url()?;
            let target = u.origin_target();
            let len = body.length(plan.method());
            let expect = expects_continue(self.inner.s.expect_threshold, len, &own);
            let mut inline = [(&b""[..], &b""[..]); INLINE_FIELDS];
            let all = head_fields(u.authority().as_bytes(), &own, expect, &mut inline);
            let head = (plan.method(), &*target, &*all, len);
            let mut resp = match self
                .attempt(u.origin(), head, &plan, &mut body, &mut clock)
                .await
            {
                Err((e, retry)) if !plan.again(retry) => return Err(e),
                Err(_) => continue,
                Ok(resp) => resp,
            };
            let location = resp.field(b"location");
            match plan.answered(resp.status(), location, &mut body, &mut own)? {
                // Its body read and dropped (at most `drain` bytes), so
                // that a short body's connection can be reused.
                Answered::Redirect { drain } => drop(resp.body_to_vec(drain).await),
                _ => return Ok(resp),
            }
        }
    }

    /// Sends `method target` to `host:port` with extra `fields` (`Host` is
    /// added unless given) and the whole `body` (with `Content-Length` when
    /// not empty, or for a method that defines content), and reads the
    /// response head. No redirect is followed and no `Expect` sent (see
    /// [`Client::request`] for URLs). A pooled connection is reused when
    /// there is one; a request that fails on it is sent again, once, on a
    /// new connection when the connection's retry rule says so
    /// ([`http_net_conn::Retry`], RFC 9110 §9.2.2): nothing of it had left
    /// (the server had sent bytes on the idle connection, a `408` before
    /// closing it, say), or it is idempotent and the connection closed
    /// before any response byte. [`ClientResponse::reused`](http_net_conn::ClientHead::reused) says whether
    /// the response came over a pooled connection (false after such a
    /// retry: its connection is new). A final response that arrives while
    /// the body is still being written is returned.
    pub async fn send_to(
        &self,
        host: &str,
        port: u16,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        body: &[u8],
    ) -> Result<ClientResponse<C>, Error> {
        // The one clock read of this wakeup: the deadline, the pool's
        // expiry and the first wait's end.
        let mut clock = WakeClock::default();
        let mut plan = RequestPlan::new(&self.inner.s, clock.stamp());
        let origin = Origin::new(false, host, port);
        let (mut buf, mut inline) = ([0; 64], [(&b""[..], &b""[..]); INLINE_FIELDS]);
        let authority = origin.authority(&mut buf);
        let all = head_fields(&authority, fields, false, &mut inline);
        let len = request_length(method, Some(body.len() as u64));
        let head = (method, target, &*all, len);
        loop {
            let source = &mut RequestBody::Bytes(body);
            match self.attempt(origin, head, &plan, source, &mut clock).await {
                Err((e, retry)) if !plan.again(retry) => return Err(e),
                Err(_) => {}
                Ok(resp) => return Ok(resp),
            }
        }
    }

    /// Starts a request whose body is streamed: write it with
    /// [`RequestWriter::write`], then [`RequestWriter::finish`] for the
    /// response. `body` is `BodyLength::Known(n)` for `Content-Length: n`,
    /// `BodyLength::Streamed` for a chunked body, `BodyLength::Empty` for
    /// none. (For a URL, [`Client::request`] with a
    /// [`RequestBody::Reader`] streams a body from an `AsyncRead`.)
    pub async fn start(
        &self,
        host: &str,
        port: u16,
        method: &[u8],
        target: &[u8],
        fields: &[FieldPair<'_>],
        body: BodyLength,
    ) -> Result<RequestWriter<C>, Error> {
        let mut clock = WakeClock::default();
        let plan = RequestPlan::new(&self.inner.s, clock.stamp());
        let origin = Origin::new(false, host, port);
        let (mut buf, mut inline) = ([0; 64], [(&b""[..], &b""[..]); INLINE_FIELDS]);
        let authority = origin.authority(&mut buf);
        let all = head_fields(&authority, fields, false, &mut inline);
        let mut req = self.open(origin, &plan, &mut clock).await?;
        req.send_head((method, target, &all, body), &[]).await?;
        Ok(req)
    }

    /// One attempt of `head` to `origin` (its body from `body`): the
    /// response, or the error and the connection's retry rule's answer,
    /// for the plan ([`RequestPlan::again`]).
    async fn attempt(
        &self,
        origin: Origin<'_>,
        head: Head<'_>,
        plan: &RequestPlan<'_>,
        body: &mut RequestBody<'_>,
        clock: &mut WakeClock,
    ) -> Result<ClientResponse<C>, (Error, Retry)> {
        let no = |e| (e, Retry::No);
        let mut req = self.open(origin, plan, clock).await.map_err(no)?;
        let first: &[u8] = match &*body {
            RequestBody::Bytes(b) => b,
            _ => &[],
        };
        let sent = match req.send_head(head, first).await {
            Ok(()) => req.drive(body).await,
            Err(e) => Err(e),
        };
        let Err(e) = sent else {
            return req.respond().map_err(no);
        };
        let conn = req.p.as_ref().map(|p| &p.conn);
        let retry = conn.map_or(Retry::No, |c| c.retry(failure(&e), body.replayable()));
        Err((e, retry))
    }

    /// A pooled connection to `origin` (when the plan reuses) or a new one,
    /// armed with the plan's deadlines, and the buffers of a dropped
    /// response's head for the response to come.
    async fn open(
        &self,
        origin: Origin<'_>,
        plan: &RequestPlan<'_>,
        clock: &mut WakeClock,
    ) -> Result<RequestWriter<C>, Error> {
        // One clock read for every connection looked at (this wakeup's).
        let (pooled, head) =
            lock(&self.inner.idle).checkout(plan.reuse(), origin, clock.stamp(), |p| still_open(p));
        let mut p = match pooled {
            Some(mut p) => {
                p.timer.check_runtime();
                p
            }
            None => {
                let opened = self.connect(origin, plan.deadline()).await;
                clock.forget();
                opened?
            }
        };
        plan.arm(&mut p.conn);
        Ok(RequestWriter {
            p: Some(p),
            client: Arc::clone(&self.inner),
            head,
            sent: 0,
            clock: std::mem::take(clock),
        })
    }

    /// Opens a connection: TLS through the connector's `connect_https` for
    /// an `https` origin (none: [`UrlError::HttpsWithoutConnector`]).
    async fn connect(
        &self,
        origin: Origin<'_>,
        deadline: RequestDeadline,
    ) -> Result<Box<Pooled<C::Stream>>, Error> {
        let Origin { https, host, port } = origin;
        // The connect timeout from now, within the request's deadline.
        let now = wire::stamp(Instant::now());
        let d = wire::instant(deadline.wait(now, self.inner.s.connect_timeout).0);
        let opened = if https {
            let Some(tls) = self.inner.connector.connect_https(host, port) else {
                return Err(Error::Url(UrlError::HttpsWithoutConnector));
            };
            bounded(d, tls).await
        } else {
            bounded(d, self.inner.connector.connect(host, port)).await
        };
        match opened {
            None => Err(timed_out(Stage::Connect, deadline)),
            Some(Err(e)) => Err(Error::Io(e)),
            Some(Ok(stream)) => Ok(Box::new(Pooled {
                stream,
                conn: ClientConn::new(self.inner.s.conn),
                key: (https, host.to_owned(), port),
                timer: ConnTimer::new(),
            })),
        }
    }
}

/// A request's head as an attempt sends it: the method, the target, the
/// fields (complete: `Host`, the caller's, `Expect`) and the body's length.
type Head<'r> = (&'r [u8], &'r [u8], &'r [FieldPair<'r>], BodyLength);

/// The timeout of a wait at `stage`: [`Stage::Deadline`] when the
/// whole-request deadline (`request_timeout`) has passed, which bounded it
/// (the core's `RequestDeadline::timed_out`).
fn timed_out(stage: Stage, request_deadline: RequestDeadline) -> Error {
    Error::Timeout(request_deadline.timed_out(wire::stamp(Instant::now()), stage))
}

http_net_conn::__client_error_fns!(Error);

/// Whether an idle connection is still open: one poll of a read with a
/// waker that does nothing; pending means open and silent. Bytes the
/// server sent on the idle connection (a `408` before closing it) make it
/// unusable (RFC 9112 §9.2).
fn still_open<S: Transport>(p: &mut Pooled<S>) -> bool {
    let mut probe = [0u8; 1];
    let mut rb = ReadBuf::new(&mut probe);
    let mut cx = Context::from_waker(Waker::noop());
    Pin::new(&mut p.stream)
        .poll_read(&mut cx, &mut rb)
        .is_pending()
}

/// What one wait on the connection gave.
enum Step {
    Wrote(usize),
    /// Bytes read, handed to the connection.
    Read,
    /// All written, and the stream flushed.
    Flushed,
}

/// A request being sent ([`Client::start`]): write its body, then
/// [`finish`](RequestWriter::finish) it for the response. While a write waits
/// for the server to take bytes, the response side is read too: a final
/// response sent early (a `413`, say) is kept and ends the writing.
pub struct RequestWriter<C: Connector = TcpConnector> {
    p: Option<Box<Pooled<C::Stream>>>,
    client: Arc<Inner<C>>,
    /// The response head, once read (the buffers of a dropped one before).
    head: ClientHead,
    /// The bytes of a [`RequestBody::Bytes`] body sent so far (with the
    /// head, or by `send_more`).
    sent: usize,
    /// The time of this wakeup, within one call.
    clock: WakeClock,
}

impl<C: Connector> RequestWriter<C> {
    /// Sends body bytes; [`Progress::Answered`] when the server's final
    /// response arrived first (nothing more is sent).
    pub async fn write(&mut self, data: &[u8]) -> Result<Progress, Error> {
        if self.answered() {
            return Ok(Progress::Answered);
        }
        let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
        // A call of the caller's: the time of an earlier one is stale.
        self.clock.forget();
        match p.conn.send_data(data)? {
            Placement::AfterOutput => self.push(data).await?,
            Placement::Queued if p.conn.output().len() >= 16 * 1024 => self.push(&[]).await?,
            Placement::Queued => {}
        }
        Ok(if self.answered() {
            Progress::Answered
        } else {
            Progress::Sent
        })
    }

    /// Ends the body (with `trailers` if it is chunked) and reads the
    /// response head (interim `1xx` responses are skipped), or returns the
    /// final response that arrived early.
    pub async fn finish(mut self, trailers: &[FieldPair<'_>]) -> Result<ClientResponse<C>, Error> {
        self.clock.forget();
        if !self.answered() {
            let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
            p.conn.send_end(trailers)?;
        }
        self.drive(&mut RequestBody::Empty).await?;
        self.respond()
    }

    /// Whether the final response head came (early, or after the whole
    /// request): `SendStep::Answered`.
    fn answered(&self) -> bool {
        let step = self.p.as_ref().map(|p| p.conn.send_step());
        step == Some(SendStep::Answered)
    }

    /// Sends the request head, with `first`, the body's bytes when the
    /// caller holds them all, unless the request waits for `100 Continue`:
    /// copied after the head when small, else written after it in the
    /// same (vectored) write.
    async fn send_head(&mut self, head: Head<'_>, first: &[u8]) -> Result<(), Error> {
        let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
        let (method, target, fields, len) = head;
        p.conn.send_request(method, target, fields, len)?;
        let mut after: &[u8] = &[];
        if !first.is_empty() && p.conn.expect_state() != ExpectState::Waiting {
            self.sent = first.len();
            if p.conn.send_data(first)? == Placement::AfterOutput {
                after = first;
            }
        }
        self.push(after).await
    }

    /// Carries out the connection's steps (`ClientConn::send_step`) until
    /// the response head came, the body's bytes taken from `body`.
    async fn drive(&mut self, body: &mut RequestBody<'_>) -> Result<(), Error> {
        let mut buf = Vec::new();
        loop {
            let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
            match p.conn.send_step() {
                SendStep::Write => self.push(&[]).await?,
                SendStep::Read => self.read_head().await?,
                SendStep::Body => self.send_more(body, &mut buf).await?,
                _ => return Ok(()),
            }
        }
    }

    /// Hands the body's next bytes to the connection (the rest of a
    /// `Bytes` body, or what one read of a `Reader` gave), or ends the
    /// body.
    async fn send_more(
        &mut self,
        body: &mut RequestBody<'_>,
        buf: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let chunk = match body {
            RequestBody::Bytes(b) => b.get(self.sent..).unwrap_or_default(),
            RequestBody::Reader { reader, .. } => {
                buf.resize(SEND_CHUNK, 0);
                let n = reader.read(buf).await.map_err(Error::Io)?;
                self.clock.forget();
                &buf[..n]
            }
            // `Empty`: nothing to send (conn's enum is `#[non_exhaustive]`;
            // a new kind comes with its arm here).
            _ => &[],
        };
        self.sent += chunk.len();
        if chunk.is_empty() {
            let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
            return Ok(p.conn.send_end(&[])?);
        }
        self.write(chunk).await.map(drop)
    }

    /// The response with the head read.
    fn respond(mut self) -> Result<ClientResponse<C>, Error> {
        let accept = self.client.s.accept_transfer_codings;
        if let Some(codings) = self.head.refused_codings(accept) {
            // The connection closes with `self`: the body runs to close.
            return Err(Error::UnsupportedTransferCoding(codings));
        }
        Ok(ClientResponse {
            head: std::mem::take(&mut self.head),
            p: self.p.take(),
            client: Arc::clone(&self.client),
            clock: std::mem::take(&mut self.clock),
            done: false,
            pending: http_net_conn::driver::Leftover::new(),
            wait: None,
        })
    }

    /// Writes the connection's output and then `body`, reading the response
    /// side whenever the write must wait, and flushes the stream.
    async fn push(&mut self, mut body: &[u8]) -> Result<(), Error> {
        let s = self.client.s;
        loop {
            let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
            let out_len = p.conn.output().len();
            // The clock is read only when the write must wait.
            let request_deadline = p.conn.request_deadline();
            let (stream, conn, timer) = (&mut p.stream, &mut p.conn, &mut p.timer);
            let until = |now| request_deadline.wait(now, s.write_timeout).0;
            let step = wait(timer, &self.clock, until, |cx| {
                poll_write_or_read(stream, conn, body, cx)
            })
            .await;
            match step {
                None => return Err(timed_out(Stage::Write, request_deadline)),
                // The server may have answered and closed (a stream that
                // buffers, TLS, sends at the flush): read what it sent.
                Some(Err(e)) => return self.read_answer().await.map_err(|_| Error::Io(e)),
                Some(Ok(Step::Flushed)) => return Ok(()),
                Some(Ok(Step::Wrote(0))) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
                Some(Ok(Step::Wrote(n))) => {
                    conn.consume_output(n.min(out_len));
                    body = body.get(n.saturating_sub(out_len)..).unwrap_or(&[]);
                }
                Some(Ok(Step::Read)) => {
                    // A final response that came early ends the writing.
                    let head = &mut self.head;
                    let config = s.conn;
                    while conn.poll_head(head).map_err(|e| local(e, &config))? == HeadStep::Continue
                    {
                    }
                    if conn.send_step() == SendStep::Answered {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Reads toward the response head once: what came is `poll_head`'s (a
    /// `100`, the final head), else more input, waited for within the
    /// connection's bound (`poll_fill`).
    async fn read_head(&mut self) -> Result<(), Error> {
        let s = self.client.s;
        let p = self.p.as_mut().ok_or(Error::BodyUnavailable)?;
        let step = p.conn.poll_head(&mut self.head);
        match step.map_err(|e| local(e, &s.conn))? {
            HeadStep::NeedInput => {}
            HeadStep::Closed => return Err(Error::ConnectionClosed),
            _ => return Ok(()),
        }
        let (clock, per, mut end) = (&self.clock, s.read_timeout, None);
        let read = poll_fn(|cx| poll_fill(p, clock, per, Stage::Head, &mut end, cx)).await?;
        if read == Some(0) && !p.conn.response_started() {
            return Err(Error::ConnectionClosed);
        }
        Ok(())
    }

    /// Reads until the final response head came.
    async fn read_answer(&mut self) -> Result<(), Error> {
        while !self.answered() {
            self.read_head().await?;
        }
        Ok(())
    }
}

/// One poll of a write of the output and `body`; when it must wait, one
/// poll of a read into the connection (so an early response is seen).
/// With nothing left to write, one poll of the stream's flush.
fn poll_write_or_read<S: Transport>(
    stream: &mut S,
    conn: &mut ClientConn,
    body: &[u8],
    cx: &mut Context<'_>,
) -> Poll<io::Result<Step>> {
    if conn.output().is_empty() && body.is_empty() {
        return Pin::new(&mut *stream)
            .poll_flush(cx)
            .map_ok(|()| Step::Flushed);
    }
    let w = if conn.output().is_empty() {
        Pin::new(&mut *stream).poll_write(cx, body)
    } else {
        let bufs = [IoSlice::new(conn.output()), IoSlice::new(body)];
        Pin::new(&mut *stream).poll_write_vectored(cx, &bufs)
    };
    if let Poll::Ready(r) = w {
        return Poll::Ready(r.map(Step::Wrote));
    }
    let read = poll_read_into(stream, conn, cx);
    read.unwrap_or(Poll::Pending).map_ok(|_| Step::Read)
}

/// One poll of a read straight into the connection's spare buffer (`None`
/// when it has no room), what came handed to the connection (0 bytes: the
/// end of stream, `recv_eof`).
fn poll_read_into<S: Transport>(
    stream: &mut S,
    conn: &mut ClientConn,
    cx: &mut Context<'_>,
) -> Option<Poll<io::Result<usize>>> {
    let spare = conn.spare_mut();
    if spare.is_empty() {
        return None;
    }
    let mut rb = ReadBuf::new(spare);
    let read = Pin::new(stream)
        .poll_read(cx, &mut rb)
        .map_ok(|()| rb.filled().len());
    match read {
        Poll::Ready(Ok(0)) => conn.recv_eof(),
        Poll::Ready(Ok(n)) => conn.commit(n),
        _ => {}
    }
    Some(read)
}

/// One poll of a read, straight into the connection's spare buffer,
/// waiting until the connection's bound (`ClientConn::wait_until`, `per`
/// the read timeout; the clock is read and the connection's timer polled
/// only when the read must wait): the count (0 at end of stream, and
/// `recv_eof` is called), or `None` when the wait for `100` ended (the
/// core's `ClientConn::timed_out`). `end` keeps the wait's end across polls.
fn poll_fill<S: Transport>(
    p: &mut Pooled<S>,
    clock: &WakeClock,
    per: Duration,
    stage: Stage,
    end: &mut Option<Timestamp>,
    cx: &mut Context<'_>,
) -> Poll<Result<Option<usize>, Error>> {
    let (stream, conn, timer) = (&mut p.stream, &mut p.conn, &mut p.timer);
    let Some(ready) = poll_read_into(stream, conn, cx) else {
        return Poll::Ready(Err(Error::BodyUnavailable));
    };
    let until = |now| conn.wait_until(now, per);
    let Poll::Ready(read) = poll_wait(timer, clock, end, cx, ready, until) else {
        return Poll::Pending;
    };
    Poll::Ready(match read {
        None => match conn.timed_out(clock.stamp(), stage) {
            None => Ok(None),
            Some(stage) => Err(Error::Timeout(stage)),
        },
        Some(Err(e)) => Err(Error::Io(e)),
        Some(Ok(n)) => Ok(Some(n)),
    })
}

/// A response: the head, and the body read with
/// [`read_body`](ClientResponse::read_body) or as a
/// `tokio::io::AsyncRead` (so `tokio::io::copy` takes it; a malformed or
/// truncated body is a read error wrapping [`Error`], as
/// [`Error::into_io`] maps it: get it back with [`Error::from_io`]).
/// Reading the body to its end makes the trailers available and puts the
/// connection back in the client's pool when it may be reused; dropping the
/// response before that closes it.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// # let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
/// # let addr = l.local_addr().unwrap();
/// # tokio::spawn(async move {
/// #     use tokio::io::{AsyncReadExt, AsyncWriteExt};
/// #     let (mut s, _) = l.accept().await.unwrap();
/// #     let mut b = [0u8; 1024];
/// #     let _ = s.read(&mut b).await;
/// #     s.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nDigest: sha-256=x\r\n\r\n").await.unwrap();
/// # });
/// use http_net_tokio::{Client, Error};
/// let client = Client::new();
/// let mut resp = client.get(&format!("http://{addr}/file")).await?;
/// let mut file = Vec::new(); // a `tokio::fs::File`, say
/// tokio::io::copy(&mut resp, &mut file).await.map_err(Error::from_io)?;
/// assert_eq!(file, b"hello");
/// assert!(resp.is_done());
/// assert_eq!(resp.trailer(b"digest"), Some(&b"sha-256=x"[..]));
/// # Ok::<(), Error>(())
/// # }).unwrap();
/// ```
pub struct ClientResponse<C: Connector = TcpConnector> {
    head: ClientHead,
    p: Option<Box<Pooled<C::Stream>>>,
    client: Arc<Inner<C>>,
    /// The time of this wakeup, within one call.
    clock: WakeClock,
    done: bool,
    pending: http_net_conn::driver::Leftover,
    /// The end of the read that waits for the next body bytes, kept across
    /// polls of the `AsyncRead` (`None` when no read waits).
    wait: Option<Timestamp>,
}

impl<C: Connector> std::fmt::Debug for ClientResponse<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientResponse")
            .field("status", &self.head.status())
            .field("version", &self.head.version())
            .finish_non_exhaustive()
    }
}

/// The head's methods (`status`, `field`, `trailers`, `reused`...) are the
/// response's.
impl<C: Connector> std::ops::Deref for ClientResponse<C> {
    type Target = ClientHead;
    fn deref(&self) -> &ClientHead {
        &self.head
    }
}

impl<C: Connector> ClientResponse<C> {
    /// Whether the body has been read to its end.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Reads body bytes into `buf`; `Ok(0)` at the end of the body. A
    /// malformed or truncated body is an error naming the rule (the
    /// response as an `AsyncRead` gives the same bytes, its errors wrapped
    /// in `std::io::Error` by [`Error::into_io`]).
    pub async fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        // A call of the caller's: its wait begins now.
        self.wait = None;
        poll_fn(|cx| self.poll_body(cx, buf)).await
    }

    /// One poll of a body read: what [`read_body`](ClientResponse::read_body)
    /// and the `AsyncRead` run.
    fn poll_body(&mut self, cx: &mut Context<'_>, buf: &mut [u8]) -> Poll<Result<usize, Error>> {
        let n = self.pending.take(buf);
        if n > 0 || self.done || buf.is_empty() {
            return Poll::Ready(Ok(n));
        }
        let s = self.client.s;
        let Some(p) = self.p.as_mut() else {
            return Poll::Ready(Err(Error::BodyUnavailable));
        };
        // A poll of the caller's: the time of an earlier one is stale.
        self.clock.forget();
        let read = loop {
            match p.conn.body_into(&mut self.head, &mut self.pending, buf) {
                Ok(None) => {}
                Ok(Some(n)) => break Ok(n),
                Err(e) => break Err(local(e, &s.conn)),
            }
            let per = s.read_timeout;
            let wait = &mut self.wait;
            if let Err(e) = ready!(poll_fill(p, &self.clock, per, Stage::Body, wait, cx)) {
                break Err(e);
            }
        };
        match read {
            // Whether the connection is reused is its `reusable`'s to say.
            Ok(0) => {
                self.done = true;
                self.give_back();
            }
            Ok(_) => {}
            Err(_) => self.p = None,
        }
        Poll::Ready(read)
    }

    /// Reads the whole body, at most `limit` bytes: a longer body is
    /// [`Error::OverLimit`]`(`[`Limit::BodyToVec`]`)`, a local limit (not the
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
                return Err(Error::OverLimit(Limit::BodyToVec(limit)));
            }
            out.extend_from_slice(&chunk[..n]);
        }
    }

    /// Gives the connection back to the pool, which keeps it when the
    /// core's rules allow (`IdlePool::give_back`; one clock read, this
    /// wakeup's, for its return and the expiry of all).
    fn give_back(&mut self) {
        if let Some(p) = self.p.take() {
            let now = self.clock.stamp();
            lock(&self.client.idle).give_back(p, now);
        }
    }
}

/// The body, as [`read_body`](ClientResponse::read_body) reads it; an
/// error is [`Error::into_io`]'s: a body cut short is
/// [`UnexpectedEof`](io::ErrorKind::UnexpectedEof), a timeout
/// [`TimedOut`](io::ErrorKind::TimedOut), a malformed body
/// [`InvalidData`](io::ErrorKind::InvalidData), the adapter's [`Error`]
/// inside ([`Error::from_io`] gives it back). The read timeout counts from
/// the first poll that found no bytes. The blocking client's response is a
/// `std::io::Read` alike.
impl<C: Connector> AsyncRead for ClientResponse<C> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let n = ready!(self.get_mut().poll_body(cx, buf.initialize_unfilled()))?;
        buf.advance(n);
        Poll::Ready(Ok(()))
    }
}

impl<C: Connector> Drop for ClientResponse<C> {
    fn drop(&mut self) {
        // The head's buffers serve the next response.
        lock(&self.client.idle).keep_head(std::mem::take(&mut self.head));
    }
}

impl<C: Connector> std::fmt::Debug for Client<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("settings", &self.inner.s)
            .finish_non_exhaustive()
    }
}

impl<C: Connector> std::fmt::Debug for RequestWriter<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestWriter")
            .field("answered", &self.answered())
            .field(
                "sent",
                &self.p.as_ref().is_some_and(|p| p.conn.request_sent()),
            )
            .finish_non_exhaustive()
    }
}
