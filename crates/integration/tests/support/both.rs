//! One harness over both servers, so that a test of server behaviour is
//! written once and run against each adapter: `both!` turns one test body
//! into `<name>::std` and `<name>::tokio`, and [`start`] starts the chosen
//! adapter's server on 127.0.0.1:0 with [`Settings`] and a named handler
//! behaviour ([`Do`]). The behaviours are the same logic written for each
//! adapter (blocking and async): the two `run_*` functions below, one arm
//! per behaviour. The tests talk to the servers with raw `std::net`
//! bytes, so the client side is the same for both; every socket has a read
//! timeout and every server a short shutdown timeout.
//!
//! A capability one adapter does not have yet makes [`start`] panic with
//! what is missing; the test's instantiation for that adapter is marked
//! `#[ignore = "..."]`, so the gap is listed, not hidden.
#![allow(dead_code)]

use http_net_std::ServerOptions;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_net_conn::BodyLength;

pub use crate::support::on_tokio::{self, read_response, Resp};

/// Declares a test written once, run against both adapters: a module
/// `name` with the tests `std` and `tokio`, each calling the body with its
/// [`Adapter`]. `#[std(...)]` / `#[tokio(...)]` before `fn` put an
/// attribute (an `ignore` with its reason) on one instantiation.
macro_rules! both {
    (
        $(#[doc = $doc:expr])*
        $(#[std($($s:tt)*)])?
        $(#[tokio($($t:tt)*)])?
        fn $name:ident($a:ident) $body:block
    ) => {
        $(#[doc = $doc])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            fn body($a: Adapter) $body

            #[test]
            $(#[$($s)*])?
            fn std() {
                body(Adapter::Std)
            }

            #[test]
            $(#[$($t)*])?
            fn tokio() {
                body(Adapter::Tokio)
            }
        }
    };
}

/// Which server a test runs against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adapter {
    /// `http-net-std`: a thread per connection.
    Std,
    /// `http-net-tokio`: a task per connection, on a current-thread runtime.
    Tokio,
}

/// What the handler does with each request: one behaviour, written for
/// each adapter in `run_std` and `run_tokio`.
#[derive(Clone, Copy, Debug)]
pub enum Do {
    /// `200` with `hello` (a `HEAD` gets the head only).
    Hello,
    /// Reads the whole body; `200` with it.
    Echo,
    /// `200` with the value of the request field named so (empty if none).
    Field(&'static str),
    /// Answers this status at once, without reading the body (an early
    /// final response).
    Refuse(u16),
    /// `103 Early Hints` with a `Link`, then `200`.
    EarlyHints,
    /// Reads the whole body; `200` with its trailers as `name=value;`
    /// (names lowercased).
    Trailers,
    /// A chunked `200` (`part`) that ends with the trailer `X-Checksum: 42`.
    TrailersOut,
    /// Lowers the body limit of the request to this many bytes, then echoes.
    LimitBody(u64),
    /// On the path `/slow`, waits this many milliseconds before answering
    /// `done`; on any other path answers `done` at once.
    Slow(u64),
    /// `101` (`Upgrade: echo`), then reads 5 raw bytes and writes them back.
    Upgrade,
    /// `200` to a `CONNECT`, then reads 5 raw bytes and writes them back.
    Tunnel,
    /// As [`Do::Upgrade`], then returns an error (after the switch).
    UpgradeFail,
    /// A `200` whose body of this many `x` the connection leaves to the
    /// caller, written with `send_placed`.
    Placed(usize),
    /// A streamed (chunked) `200` whose body is the request body, copied
    /// from the body reader into the body writer taken together by
    /// `body_and_writer` (`std::io::copy`, `tokio::io::copy`).
    Copy,
    /// `200` with `<method as text> <query or -> <key=value|...>`, from
    /// `method_str`, `query` and `query_pairs`.
    Describe,
    /// Returns `Ok` without answering (an application's mistake).
    Nothing,
    /// `200` with twice the query's number (`/?21`), parsed with `?` on
    /// `std::num::ParseIntError` (not a number: the handler's error, `500`).
    Double,
    /// Answers with a field name holding a space (an application's
    /// mistake: the connection refuses it).
    BadField,
    /// Panics.
    Panic,
    /// Reads the body through the streaming reader, 3 bytes a read, and
    /// writes each piece back through the streaming writer of a chunked
    /// `200`.
    Stream,
    /// `200` with twice the query's number (`/?21`), its parse errors
    /// given the status `400` where they are raised
    /// (`.map_err(HandlerError::bad_request)?`, `.with_status(400)?`).
    Chosen,
    /// Returns, before answering, an error standing for this status, with
    /// the field `X-Why: chosen` (or this field, when given).
    Fail(u16, Option<(&'static str, &'static str)>),
    /// Returns the application's own error ([`AppError`]), a plain error
    /// (the `error_status` hook of `Settings::app_status` maps it).
    App,
    /// Reads the body; whatever the read gives (a body that timed out
    /// too), answers `200` with what it read.
    Forgive,
}

/// The application's own error type of [`Do::App`].
#[derive(Debug)]
pub struct AppError;

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no such note")
    }
}

impl std::error::Error for AppError {}

/// What [`Do::Chosen`], [`Do::Fail`] and [`Do::App`] do before answering,
/// the same in both adapters: `Ok` with the number to double, or the
/// handler's error.
fn chosen(query: Option<&[u8]>, what: Do) -> Result<u64, http_net_conn::HandlerError> {
    use http_net_conn::{HandlerError, WithStatus};
    match what {
        Do::Fail(status, field) => {
            let (name, value) = field.unwrap_or(("X-Why", "chosen"));
            Err(HandlerError::new(std::fmt::Error)
                .with_status(status)
                .with_field(name, value))
        }
        Do::App => Err(AppError.into()),
        _ => {
            let text =
                std::str::from_utf8(query.unwrap_or(b"")).map_err(HandlerError::bad_request)?;
            text.parse::<u64>().with_status(400)
        }
    }
}

/// The `error_status` hook of `Settings::app_status`: [`AppError`] is `404`.
fn app_status(e: &http_net_conn::HandlerError) -> Option<u16> {
    e.downcast_ref::<AppError>().map(|_| 404)
}

/// The body `Do::Describe` answers.
pub fn describe<'a>(
    method: &str,
    query: Option<&[u8]>,
    pairs: impl Iterator<Item = (&'a [u8], &'a [u8])>,
) -> Vec<u8> {
    let mut out = format!("{method} ").into_bytes();
    out.extend_from_slice(query.unwrap_or(b"-"));
    out.push(b' ');
    for (i, (k, v)) in pairs.enumerate() {
        if i > 0 {
            out.push(b'|');
        }
        out.extend_from_slice(k);
        out.push(b'=');
        out.extend_from_slice(v);
    }
    out
}

/// The server settings a test asks for (the builders' defaults otherwise,
/// with a 2 s shutdown timeout).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// `ServerBuilder::max_body_bytes`.
    pub max_body_bytes: Option<u64>,
    /// `ServerBuilder::max_requests_per_connection`.
    pub max_requests: Option<u64>,
    /// `ServerBuilder::tunnels`.
    pub tunnels: bool,
    /// `ServerBuilder::front_line`.
    pub front_line: bool,
    /// `ServerBuilder::error_body`: a hook answering
    /// `{"status":N}` as `application/json`.
    pub json_errors: bool,
    /// `ServerBuilder::access_log`: each record as `METHOD target status`.
    pub access_log: Option<Log>,
    /// `ServerBuilder::mistake_log`: each mistake as its `Debug`.
    pub mistakes: Option<Log>,
    /// `ServerBuilder::report_mistakes(false)`.
    pub quiet: bool,
    /// `ServerBuilder::max_connections`.
    pub max_connections: Option<usize>,
    /// `ServerBuilder::idle_timeout`.
    pub idle_timeout: Option<Duration>,
    /// `ServerBuilder::head_timeout`.
    pub head_timeout: Option<Duration>,
    /// `ServerBuilder::body_timeout`.
    pub body_timeout: Option<Duration>,
    /// `ServerBuilder::min_body_rate` (bytes a second, grace).
    pub min_body_rate: Option<(u64, Duration)>,
    /// `ServerBuilder::write_timeout`.
    pub write_timeout: Option<Duration>,
    /// `ServerBuilder::min_response_rate` (bytes a second, grace).
    pub min_response_rate: Option<(u64, Duration)>,
    /// `ServerBuilder::error_status`: [`AppError`] is `404`.
    pub app_status: bool,
    /// `ServerBuilder::error_body`: a hook that records each error
    /// response as `status cause` (the cause's `Debug`) and leaves the
    /// server's own text.
    pub causes: Option<Log>,
    /// What the handler's `Handler::limits_request_bodies` answers.
    pub limits_bodies: bool,
    /// `ServerBuilder::open_file_limit`.
    pub open_file_limit: Option<u64>,
}

/// Lines written by an access-log hook.
pub type Log = Arc<Mutex<Vec<String>>>;

/// The error body the `json_errors` hook writes for `status`.
pub fn json_error(status: u16) -> String {
    format!("{{\"status\":{status}}}")
}

/// The `json_errors` hook (both adapters take the core's types).
fn json_errors(e: &http_net_conn::ErrorResponse<'_>) -> Option<http_net_conn::ErrorBody> {
    Some(http_net_conn::ErrorBody {
        content_type: b"application/json".to_vec(),
        body: json_error(e.status()).into_bytes(),
    })
}

/// An error-body hook that records `status cause` in `log`.
fn cause_log(
    log: Log,
) -> impl Fn(&http_net_conn::ErrorResponse<'_>) -> Option<http_net_conn::ErrorBody> + Send + Sync + 'static
{
    move |e| {
        let line = format!("{} {:?}", e.status(), e.cause());
        log.lock().unwrap().push(line);
        None
    }
}

/// An access-log hook writing to `log`.
fn access_log(log: Log) -> impl Fn(&http_net_conn::AccessRecord<'_>) + Send + Sync + 'static {
    move |r| {
        let mut line = format!(
            "{} {} {}",
            r.method(),
            String::from_utf8_lossy(r.target()),
            r.status().unwrap_or(0)
        );
        if let Some(e) = r.error() {
            line.push_str(&format!(" error={e}"));
        }
        log.lock().unwrap().push(line);
    }
}

/// A running server of either adapter; shut down when dropped.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    inner: Option<Inner>,
}

enum Inner {
    Std(
        http_net_std::ServerHandle,
        std::thread::JoinHandle<std::io::Result<()>>,
    ),
    Tokio(on_tokio::Running),
}

impl Server {
    /// Starts a graceful shutdown and returns at once.
    pub fn shutdown(&self) {
        match &self.inner {
            Some(Inner::Std(stop, _)) => stop.shutdown(),
            Some(Inner::Tokio(r)) => r.handle.shutdown(),
            None => {}
        }
    }

    /// The server's counters now (the core's one type, from either
    /// adapter's handle).
    pub fn counters(&self) -> http_net_conn::Counters {
        match &self.inner {
            Some(Inner::Std(stop, _)) => stop.counters(),
            Some(Inner::Tokio(r)) => r.handle.counters(),
            None => http_net_conn::Counters::default(),
        }
    }

    /// Waits (up to 5 s) until the counters satisfy `cond` (a count made
    /// when a connection ends, just after its last response left); panics
    /// with them otherwise.
    pub fn counted(
        &self,
        cond: impl Fn(&http_net_conn::Counters) -> bool,
    ) -> http_net_conn::Counters {
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        loop {
            let c = self.counters();
            if cond(&c) {
                return c;
            }
            assert!(std::time::Instant::now() < deadline, "never counted: {c:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Shuts the server down and waits until its `serve` has returned `Ok`.
    pub fn stop(mut self) {
        match self.inner.take() {
            Some(Inner::Std(stop, thread)) => {
                stop.shutdown();
                thread.join().expect("server thread").expect("serve");
            }
            Some(Inner::Tokio(r)) => r.stop(),
            None => {}
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Starts `adapter`'s server on 127.0.0.1:0 with `settings`, answering
/// every request as `what` says. Panics naming the capability when the
/// adapter does not have one the test needs.
pub fn start(adapter: Adapter, settings: &Settings, what: Do) -> Server {
    match adapter {
        Adapter::Std => start_std(settings, what),
        Adapter::Tokio => start_tokio(settings, what),
    }
}

/// Applies a test's [`Settings`] to a server builder of either adapter
/// (the two builders share their setters' names, not a type).
macro_rules! apply_settings {
    ($b:ident, $set:ident) => {{
        if let Some(n) = $set.max_body_bytes {
            $b = $b.max_body_bytes(n);
        }
        if let Some(n) = $set.max_requests {
            $b = $b.max_requests_per_connection(n);
        }
        if $set.json_errors {
            $b = $b.error_body(json_errors);
        }
        if let Some(log) = $set.causes.clone() {
            $b = $b.error_body(cause_log(log));
        }
        if $set.app_status {
            $b = $b.error_status(app_status);
        }
        if let Some(n) = $set.max_connections {
            $b = $b.max_connections(n);
        }
        if let Some(t) = $set.idle_timeout {
            $b = $b.idle_timeout(t);
        }
        if let Some(t) = $set.head_timeout {
            $b = $b.head_timeout(t);
        }
        if let Some(t) = $set.body_timeout {
            $b = $b.body_timeout(t);
        }
        if let Some((rate, grace)) = $set.min_body_rate {
            $b = $b.min_body_rate(rate, grace);
        }
        if let Some(t) = $set.write_timeout {
            $b = $b.write_timeout(t);
        }
        if let Some((rate, grace)) = $set.min_response_rate {
            $b = $b.min_response_rate(rate, grace);
        }
        if let Some(log) = $set.access_log.clone() {
            $b = $b.access_log(access_log(log));
        }
        if let Some(log) = $set.mistakes.clone() {
            $b = $b.mistake_log(move |m| log.lock().unwrap().push(format!("{m:?}")));
        }
        if $set.quiet {
            $b = $b.report_mistakes(false);
        }
        if let Some(n) = $set.open_file_limit {
            $b = $b.open_file_limit(n);
        }
    }};
}

fn start_std(set: &Settings, what: Do) -> Server {
    let mut b = http_net_std::Server::builder()
        .shutdown_timeout(Duration::from_secs(2))
        .tunnels(set.tunnels)
        .front_line(set.front_line);
    apply_settings!(b, set);
    let server = b.bind("127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap();
    let stop = server.handle();
    let limits = set.limits_bodies;
    let thread = std::thread::spawn(move || server.serve(Std(what, limits)));
    Server {
        addr,
        inner: Some(Inner::Std(stop, thread)),
    }
}

/// The std server's handler, and what its `limits_request_bodies` says.
struct Std(Do, bool);

impl http_net_std::Handler for Std {
    fn handle(
        &self,
        ex: &mut http_net_std::Exchange<'_>,
    ) -> Result<(), http_net_std::HandlerError> {
        handle_std(ex, self.0)
    }

    fn limits_request_bodies(&self) -> bool {
        self.1
    }
}

/// The std server's handler: what returns the application's own error,
/// then the rest.
fn handle_std(
    ex: &mut http_net_std::Exchange<'_>,
    what: Do,
) -> Result<(), http_net_std::HandlerError> {
    match what {
        Do::Double => {
            // `?` on `Utf8Error` and `ParseIntError`: the application's own.
            let n: u64 = std::str::from_utf8(ex.query().unwrap_or(b""))?.parse()?;
            Ok(ex.respond_with(200, &[], (2 * n).to_string().as_bytes())?)
        }
        Do::Chosen | Do::Fail(..) | Do::App => {
            let n = chosen(ex.query(), what)?;
            Ok(ex.respond_with(200, &[], (2 * n).to_string().as_bytes())?)
        }
        _ => Ok(run_std(ex, what)?),
    }
}

/// The std server's handler: one arm per behaviour.
fn run_std(ex: &mut http_net_std::Exchange<'_>, what: Do) -> Result<(), http_net_std::Error> {
    match what {
        Do::Hello => ex.respond_with(200, &[(b"Content-Type", b"text/plain")], b"hello"),
        Do::Echo => {
            let mut body = Vec::new();
            ex.body().read_to_end(&mut body)?;
            ex.respond_with(200, &[], &body)
        }
        Do::Forgive => {
            let mut body = Vec::new();
            let _ = ex.body().read_to_end(&mut body);
            ex.respond_with(200, &[], &body)
        }
        Do::Field(name) => {
            let v = ex.field(name.as_bytes()).unwrap_or_default().to_vec();
            ex.respond_with(200, &[], &v)
        }
        Do::Refuse(status) => ex.respond_with(status, &[], b"refused"),
        Do::EarlyHints => {
            ex.send_informational(103, &[(b"Link", b"</a.css>; rel=preload")])?;
            ex.respond_with(200, &[], b"hinted")
        }
        Do::Trailers => {
            ex.body().read_to_end(&mut Vec::new())?;
            let mut out = Vec::new();
            for (name, value) in ex.trailers() {
                out.extend(name.to_ascii_lowercase());
                out.push(b'=');
                out.extend_from_slice(value);
                out.push(b';');
            }
            ex.respond_with(200, &[], &out)
        }
        Do::TrailersOut => {
            ex.send_head(200, &[(b"Trailer", b"X-Checksum")], BodyLength::Streamed)?;
            ex.send_data(b"part")?;
            ex.send_end(&[(b"X-Checksum", b"42")])
        }
        Do::LimitBody(n) => {
            ex.limit_body(n)?;
            let mut body = Vec::new();
            ex.body().read_to_end(&mut body)?;
            ex.respond_with(200, &[], &body)
        }
        Do::Slow(ms) => {
            if ex.path() == b"/slow" {
                std::thread::sleep(Duration::from_millis(ms));
            }
            ex.respond_with(200, &[], b"done")
        }
        Do::Upgrade | Do::Tunnel | Do::UpgradeFail => {
            if let Do::Upgrade | Do::UpgradeFail = what {
                let fields: &[(&[u8], &[u8])] =
                    &[(b"Upgrade", b"echo"), (b"Connection", b"upgrade")];
                ex.send_head(101, fields, BodyLength::Empty)?;
            } else {
                ex.send_head(200, &[], BodyLength::Empty)?;
            }
            let mut up = ex.upgrade()?;
            let mut b = [0u8; 5];
            up.read_exact(&mut b)?;
            up.write_all(&b)?;
            up.flush()?;
            if let Do::UpgradeFail = what {
                return Err(http_net_std::Error::NotSwitched);
            }
            Ok(())
        }
        Do::Placed(n) => {
            let body = vec![b'x'; n];
            let placement = ex.conn().responder().respond_with(200, &[], &body)?;
            ex.send_placed(placement, &body)
        }
        Do::Describe => {
            let out = describe(ex.method_str(), ex.query(), ex.query_pairs());
            ex.respond_with(200, &[], &out)
        }
        Do::Copy => {
            ex.send_head(200, &[], BodyLength::Streamed)?;
            let (mut body, mut out) = ex.body_and_writer();
            std::io::copy(&mut body, &mut out)?;
            drop((body, out));
            ex.send_end(&[])
        }
        Do::Nothing => Ok(()),
        Do::Panic => panic!("a handler's panic, on purpose"),
        Do::BadField => ex.respond_with(200, &[(b"Bad Name", b"x")], b""),
        Do::Double | Do::Chosen | Do::Fail(..) | Do::App => {
            unreachable!("the handler answers it first")
        }
        Do::Stream => {
            let mut body = Vec::new();
            let mut piece = [0u8; 3];
            loop {
                let n = ex.body().read(&mut piece)?;
                if n == 0 {
                    break;
                }
                body.push(piece[..n].to_vec());
            }
            ex.send_head(200, &[], BodyLength::Streamed)?;
            let mut w = ex.body_writer();
            for piece in &body {
                w.write_all(piece)?;
            }
            w.flush()?;
            ex.send_end(&[])
        }
    }
}

fn start_tokio(set: &Settings, what: Do) -> Server {
    let mut b = http_net_tokio::Server::builder()
        .shutdown_timeout(Duration::from_secs(2))
        .tunnels(set.tunnels)
        .front_line(set.front_line);
    apply_settings!(b, set);
    let running = on_tokio::start(b, Tokio(what, set.limits_bodies), false);
    Server {
        addr: running.addr,
        inner: Some(Inner::Tokio(running)),
    }
}

/// The tokio server's handler, and what its `limits_request_bodies` says.
struct Tokio(Do, bool);

impl http_net_tokio::Handler for Tokio {
    async fn handle(
        &self,
        ex: &mut http_net_tokio::Exchange<'_>,
    ) -> Result<(), http_net_tokio::HandlerError> {
        match self.0 {
            Do::Double => {
                // `?` on `Utf8Error` and `ParseIntError`: the application's own.
                let n: u64 = std::str::from_utf8(ex.query().unwrap_or(b""))?.parse()?;
                let out = (2 * n).to_string();
                Ok(ex.respond_with(200, &[], out.as_bytes()).await?)
            }
            what @ (Do::Chosen | Do::Fail(..) | Do::App) => {
                let n = chosen(ex.query(), what)?;
                let out = (2 * n).to_string();
                Ok(ex.respond_with(200, &[], out.as_bytes()).await?)
            }
            what => Ok(run_tokio(ex, what).await?),
        }
    }

    fn limits_request_bodies(&self) -> bool {
        self.1
    }
}

/// The tokio server's handler: one arm per behaviour, as `run_std`'s.
async fn run_tokio(
    ex: &mut http_net_tokio::Exchange<'_>,
    what: Do,
) -> Result<(), http_net_tokio::Error> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    match what {
        Do::Hello => {
            ex.respond_with(200, &[(b"Content-Type", b"text/plain")], b"hello")
                .await
        }
        Do::Echo => {
            let body = on_tokio::read_whole(ex, &mut [0u8; 1024]).await?;
            ex.respond_with(200, &[], &body).await
        }
        Do::Forgive => {
            let mut body = Vec::new();
            let _ = ex.body().read_to_end(&mut body).await;
            ex.respond_with(200, &[], &body).await
        }
        Do::Field(name) => {
            let v = ex.field(name.as_bytes()).unwrap_or_default().to_vec();
            ex.respond_with(200, &[], &v).await
        }
        Do::Refuse(status) => ex.respond_with(status, &[], b"refused").await,
        Do::EarlyHints => {
            ex.send_informational(103, &[(b"Link", b"</a.css>; rel=preload")])
                .await?;
            ex.respond_with(200, &[], b"hinted").await
        }
        Do::Trailers => {
            ex.body().read_to_end(&mut Vec::new()).await?;
            let mut out = Vec::new();
            for (name, value) in ex.trailers() {
                out.extend(name.to_ascii_lowercase());
                out.push(b'=');
                out.extend_from_slice(value);
                out.push(b';');
            }
            ex.respond_with(200, &[], &out).await
        }
        Do::LimitBody(n) => {
            ex.limit_body(n)?;
            let mut body = Vec::new();
            ex.body().read_to_end(&mut body).await?;
            ex.respond_with(200, &[], &body).await
        }
        Do::Describe => {
            let out = describe(ex.method_str(), ex.query(), ex.query_pairs());
            ex.respond_with(200, &[], &out).await
        }
        Do::Stream => {
            let mut body = Vec::new();
            let mut piece = [0u8; 3];
            loop {
                let n = ex.body().read(&mut piece).await?;
                if n == 0 {
                    break;
                }
                body.push(piece[..n].to_vec());
            }
            ex.send_head(200, &[], BodyLength::Streamed)?;
            let mut w = ex.body_writer();
            for piece in &body {
                w.write_all(piece).await?;
            }
            w.flush().await?;
            drop(w);
            ex.send_end(&[])
        }
        Do::TrailersOut => {
            ex.send_head(200, &[(b"Trailer", b"X-Checksum")], BodyLength::Streamed)?;
            ex.send_data(b"part").await?;
            ex.send_end(&[(b"X-Checksum", b"42")])
        }
        Do::Slow(ms) => {
            if ex.path() == b"/slow" {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            ex.respond_with(200, &[], b"done").await
        }
        Do::Upgrade | Do::Tunnel | Do::UpgradeFail => {
            if let Do::Upgrade | Do::UpgradeFail = what {
                let fields: &[(&[u8], &[u8])] =
                    &[(b"Upgrade", b"echo"), (b"Connection", b"upgrade")];
                ex.send_head(101, fields, BodyLength::Empty)?;
            } else {
                ex.send_head(200, &[], BodyLength::Empty)?;
            }
            let mut up = ex.upgrade().await?;
            let mut b = [0u8; 5];
            up.read_exact(&mut b).await?;
            up.write_all(&b).await?;
            up.flush().await?;
            if let Do::UpgradeFail = what {
                return Err(http_net_tokio::Error::NotSwitched);
            }
            Ok(())
        }
        Do::Placed(n) => {
            let body = vec![b'x'; n];
            let placement = ex.conn().responder().respond_with(200, &[], &body)?;
            ex.send_placed(placement, &body).await
        }
        Do::Copy => {
            ex.send_head(200, &[], BodyLength::Streamed)?;
            let (mut body, mut out) = ex.body_and_writer();
            tokio::io::copy(&mut body, &mut out).await?;
            out.shutdown().await?;
            Ok(())
        }
        Do::Nothing => Ok(()),
        Do::Panic => panic!("a handler's panic, on purpose"),
        Do::BadField => ex.respond_with(200, &[(b"Bad Name", b"x")], b"").await,
        Do::Double | Do::Chosen | Do::Fail(..) | Do::App => {
            unreachable!("the handler answers it first")
        }
    }
}

/// How long a test's socket waits for one read or write.
pub const WAIT: Duration = Duration::from_secs(3);

/// A connection to `addr` with [`WAIT`] as its read and write timeouts.
pub fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(WAIT)).unwrap();
    s.set_write_timeout(Some(WAIT)).unwrap();
    s
}

/// Writes `req` on `s` and reads one response (interim ones skipped).
pub fn ask(s: &mut TcpStream, req: &[u8]) -> Resp {
    s.write_all(req).unwrap();
    next(s)
}

/// Reads the next response on `s` (interim ones skipped).
pub fn next(s: &mut TcpStream) -> Resp {
    read_response(s, &mut Vec::new(), false).expect("a whole response")
}

/// Sends `req` on a new connection and reads everything until the server
/// closes (or [`WAIT`] passes): the raw bytes, as text.
pub fn raw(addr: SocketAddr, req: &[u8]) -> String {
    let mut s = connect(addr);
    s.write_all(req).unwrap();
    read_all(&mut s)
}

/// Reads `s` until the server closes it (or [`WAIT`] passes), as text.
pub fn read_all(s: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether the server closed `s` (end of stream or a reset) with nothing
/// more to read, within [`WAIT`].
pub fn closed(s: &mut TcpStream) -> bool {
    on_tokio::closed(s)
}
