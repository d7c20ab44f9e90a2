//! A connection's setup step before its first HTTP byte (a TLS handshake):
//! the [`Setup`] trait, and the run of one admitted connection through it
//! on its pool thread, under the core's setup deadline
//! ([`ServerSettings::setup_wait`](http_net_conn::ServerSettings::setup_wait)).

use std::io;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::Instant;

use http_net_conn::driver::ReadStep;
use http_net_conn::Stage;

use crate::connection::{self, Warm};
use crate::handler::Handler;
use crate::settings::Settings;
use crate::shared::Shared;
use crate::slot::Handle;
use crate::transport::Transport;
use crate::wire;

/// Turns the stream a [`Listener`](crate::Listener) accepted (`Raw`) into
/// the stream HTTP runs over: a TLS handshake, say. The server calls it on
/// the connection's own thread, once the connection holds a slot, so that
/// a slow or hostile peer holds no more than its slot and never the accept
/// loop; it must be done by `until` (the connection's setup deadline,
/// [`ServerBuilder::setup_timeout`](crate::ServerOptions::setup_timeout)
/// after its admission): set each read's and write's timeout to the time
/// left (a per-read timeout alone lets a peer that trickles a byte at a
/// time go on for ever), and fail with a `TimedOut` error past it.
///
/// An error closes that connection only, without a response, and is
/// counted: [`Counters::setup_failed`](crate::Counters::setup_failed), or
/// [`Counters::timed_out`](crate::Counters::timed_out)`.setup` for a
/// `TimedOut` or `WouldBlock` error or one past `until`. While it runs, the
/// connection's slot shows its setup phase: at the connection limit it is
/// evicted as a partial request head would be (the server shuts the
/// socket's reading side through `Raw`'s
/// [`interrupter`](Transport::interrupter), so the step's read returns),
/// and a graceful stop closes it.
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use std::io::{self, Read, Write};
/// use std::net::TcpStream;
/// use std::time::Instant;
/// use http_net::blocking::{Exchange, Error, Server, Setup};
///
/// /// A peer first sends a 4-byte password, then speaks HTTP.
/// struct Password;
/// impl Setup<TcpStream> for Password {
///     type Stream = TcpStream;
///     fn setup(&self, mut raw: TcpStream, until: Instant) -> io::Result<TcpStream> {
///         let left = until.saturating_duration_since(Instant::now());
///         if left.is_zero() {
///             return Err(io::ErrorKind::TimedOut.into());
///         }
///         raw.set_read_timeout(Some(left))?;
///         let mut pw = [0u8; 4];
///         raw.read_exact(&mut pw)?;
///         if &pw != b"open" {
///             return Err(io::ErrorKind::PermissionDenied.into());
///         }
///         Ok(raw)
///     }
/// }
///
/// let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
/// let server = Server::builder().listener_with_setup(listener, Password);
/// let addr = server.local_addr()?;
/// let stop = server.handle();
/// let t = std::thread::spawn(move || {
///     server.serve(|ex: &mut Exchange<'_>| -> Result<(), Error> { ex.respond_with(200, &[], b"in") })
/// });
/// let mut s = TcpStream::connect(addr)?;
/// s.write_all(b"openGET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")?;
/// let mut got = String::new();
/// s.read_to_string(&mut got)?;
/// assert!(got.starts_with("HTTP/1.1 200") && got.ends_with("in"));
/// stop.shutdown();
/// t.join().unwrap()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Setup<Raw>: Send + Sync + 'static {
    /// The stream HTTP runs over once set up.
    type Stream: Transport + 'static;
    /// Sets `raw` up, by `until` at the latest.
    fn setup(&self, raw: Raw, until: Instant) -> io::Result<Self::Stream>;
}

/// No setup step: the listener's streams carry HTTP from their first byte
/// (the type of a server made with
/// [`ServerBuilder::listener`](crate::ServerBuilder::listener) or
/// [`bind`](crate::ServerBuilder::bind); it is never called there).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSetup;

impl<S: Transport + 'static> Setup<S> for NoSetup {
    type Stream = S;
    fn setup(&self, raw: S, _until: Instant) -> io::Result<S> {
        Ok(raw)
    }
}

/// Whether a setup's error is its deadline's.
fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

/// Serves one admitted connection whose stream needs `setup` first: its
/// slot is taken (showing the setup phase) before the step runs, so that
/// eviction and a graceful stop reach it; then the set-up stream is served
/// as any other, in the same slot. `accepted`: the raw stream and its peer.
pub(crate) fn run<S: Transport + 'static, U: Setup<S>>(
    accepted: (S, Option<SocketAddr>),
    settings: &Settings,
    shared: &Shared,
    handler: &dyn Handler,
    warm: &mut Warm,
    setup: &U,
) {
    let (raw, peer) = accepted;
    let Warm { conn, slot: home } = warm;
    let slot = shared.register(
        Handle::Interrupter(raw.interrupter()),
        peer.map(|p| p.ip()),
        home,
    );
    let now = wire::stamp(Instant::now());
    let step = settings.setup_wait(now).step(
        |state| slot.enter(state, now),
        || shared.stopping.load(Ordering::SeqCst),
    );
    // `Stopped`, or a wait a later `conn` adds: close.
    let ReadStep::Read { until, .. } = step else {
        return;
    };
    let until = wire::instant(until);
    match setup.setup(raw, until) {
        Ok(mut stream) => {
            connection::run_on(&mut stream, peer, settings, shared, &slot, handler, conn)
        }
        // Evicted (counted then), or ended by a graceful stop: not the
        // setup's failure.
        Err(_) if slot.evicted().is_some() || shared.stopping.load(Ordering::SeqCst) => {}
        Err(e) if is_timeout(&e) || Instant::now() >= until => {
            shared.counters.timed_out(Stage::Setup)
        }
        Err(_) => {
            shared.counters.setup_failed();
        }
    }
}
