//! A connection's setup step before its first HTTP byte (a TLS handshake):
//! the [`Setup`] trait, and the run of one admitted connection through it
//! on its own task, under the core's setup deadline
//! ([`ServerSettings::setup_wait`](http_net_conn::ServerSettings::setup_wait)).

use crate::error::Stage;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;

use http_net_conn::driver::ReadStep;
use tokio::time::Instant;

use crate::connection;
use crate::handler::Handler;
use crate::shared::SlotGuard;
use crate::wire::{self, First, Transport};

/// Turns the stream a [`Listener`](crate::Listener) accepted (`Raw`) into
/// the stream HTTP runs over: a TLS handshake, say. The server runs it on
/// the connection's own task, once the connection holds a slot, so that a
/// slow or hostile peer holds no more than its slot and never the accept
/// loop. The server bounds it: the future is dropped (the stream with it)
/// at the connection's setup deadline
/// ([`ServerBuilder::setup_timeout`](crate::ServerOptions::setup_timeout)
/// after its admission), when the connection limit evicts the connection
/// (it ranks as a partial request head would), and when a graceful stop
/// begins.
///
/// An error closes that connection only, without a response, and is
/// counted ([`Counters::setup_failed`](crate::Counters::setup_failed); the
/// deadline in [`Counters::timed_out`](crate::Counters::timed_out)`.setup`,
/// an eviction in [`Counters::evicted`](crate::Counters::evicted)`.setup`).
///
/// ```
/// use std::io;
/// use http_net_tokio::{Exchange, Handler, HandlerError, Server, Setup};
/// use tokio::io::{AsyncReadExt, AsyncWriteExt};
/// use tokio::net::TcpStream;
///
/// /// A peer first sends a 4-byte password, then speaks HTTP.
/// struct Password;
/// impl Setup<TcpStream> for Password {
///     type Stream = TcpStream;
///     async fn setup(&self, mut raw: TcpStream) -> io::Result<TcpStream> {
///         let mut pw = [0u8; 4];
///         raw.read_exact(&mut pw).await?;
///         if &pw != b"open" {
///             return Err(io::ErrorKind::PermissionDenied.into());
///         }
///         Ok(raw)
///     }
/// }
///
/// struct In;
/// impl Handler for In {
///     async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
///         Ok(ex.respond_with(200, &[], b"in").await?)
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// let server = Server::builder().listener_with_setup(listener, Password);
/// let addr = server.local_addr()?;
/// let handle = server.handle();
/// let task = tokio::spawn(server.serve(In));
/// let mut s = TcpStream::connect(addr).await?;
/// s.write_all(b"openGET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").await?;
/// let mut got = String::new();
/// s.read_to_string(&mut got).await?;
/// assert!(got.starts_with("HTTP/1.1 200") && got.ends_with("in"));
/// handle.shutdown();
/// task.await.unwrap()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub trait Setup<Raw>: Send + Sync + 'static {
    /// The stream HTTP runs over once set up.
    type Stream: Transport + 'static;
    /// Sets `raw` up (the server bounds the time it takes).
    fn setup(&self, raw: Raw) -> impl Future<Output = io::Result<Self::Stream>> + Send;
}

/// No setup step: the listener's streams carry HTTP from their first byte
/// (the type of a server made with
/// [`ServerBuilder::listener`](crate::ServerBuilder::listener) or
/// [`bind`](crate::ServerBuilder::bind); it is never called there).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSetup;

impl<S: Transport + 'static> Setup<S> for NoSetup {
    type Stream = S;
    async fn setup(&self, raw: S) -> io::Result<S> {
        Ok(raw)
    }
}

/// Serves one admitted connection whose stream needs `setup` first, in
/// its slot (showing the setup phase while the step runs), then as any
/// other connection.
pub(crate) async fn run<S, U, H>(
    raw: S,
    peer: Option<SocketAddr>,
    slot: SlotGuard,
    handler: Arc<H>,
    setup: Arc<U>,
) where
    S: Transport + 'static,
    U: Setup<S>,
    H: Handler,
{
    // Off the accept loop's task at once: the first turn finds this
    // pending and gives the connection a task of its own, so that the
    // step's work (a key exchange) never runs on the accept loop.
    tokio::task::yield_now().await;
    let shared = Arc::clone(&slot.shared);
    let now = wire::stamp(Instant::now());
    let step = shared
        .settings
        .setup_wait(now)
        .step(|state| slot.set_at(state, now), || shared.stopping());
    // `Stopped`, or a wait a later `conn` adds: close.
    let ReadStep::Read { until, .. } = step else {
        return;
    };
    let mut fut = pin!(setup.setup(raw));
    let r = loop {
        let step = wire::first(fut.as_mut(), slot.slot.wake.rang());
        match wire::bounded(wire::instant(until), step).await {
            Some(First::A(r)) => break r,
            None => {
                shared.counters.timed_out(Stage::Setup);
                return;
            }
            // Evicted (counted then), or a graceful stop.
            Some(First::B(())) if slot.slot.evicted() || shared.stopping() => return,
            // A stale wake.
            Some(First::B(())) => {}
        }
    };
    match r {
        Ok(stream) => connection::run(stream, peer, slot, handler).await,
        Err(_) if slot.slot.evicted() || shared.stopping() => {}
        Err(_) => {
            shared.counters.setup_failed();
        }
    }
}
