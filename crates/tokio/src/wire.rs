//! Moving bytes between a stream and a `ServerConn`, each wait bounded by a
//! deadline: reads, writes (vectored, so large bodies are never copied),
//! and the half-close and drain after an error response.

use std::future::{poll_fn, Future};
use std::io::{self, IoSlice};
use std::pin::{pin, Pin};
use std::task::{Context, Poll};
use std::time::Duration;

use http_net_conn::driver::{Linger, Spent, Transfer};
use http_net_conn::{ServerConn, Timestamp};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::time::{timeout_at, Instant};

use crate::error::{Error, Stage};
use crate::slot::{Bell, Slot};
use crate::timer::Timer;

/// A byte stream the server can run over: a `TcpStream`, a TLS stream over
/// one, a `tokio::io::DuplexStream` in tests. Implemented for every
/// `AsyncRead + AsyncWrite + Unpin + Send` type.
pub trait Transport: AsyncRead + AsyncWrite + Unpin + Send {}

impl<T: AsyncRead + AsyncWrite + Unpin + Send + ?Sized> Transport for T {}

/// Polls `fut` once: its output when it is ready, `None` when it must wait
/// (its waker registered, as by any poll, so it can be awaited on).
pub(crate) fn poll_once<F: Future>(
    mut fut: Pin<&mut F>,
) -> impl Future<Output = Option<F::Output>> + '_ {
    poll_fn(move |cx| {
        Poll::Ready(match fut.as_mut().poll(cx) {
            Poll::Ready(v) => Some(v),
            Poll::Pending => None,
        })
    })
}

/// Runs `fut` until `deadline`; `None` when the deadline passed first. A
/// future that is ready at its first poll (most reads and writes on a busy
/// connection) never arms a timer; the general twin is `timeout_at` alone.
pub(crate) async fn bounded<F: Future>(deadline: Instant, fut: F) -> Option<F::Output> {
    bounded_by(|| deadline, fut).await
}

/// [`bounded`] with the deadline computed only when `fut` is not ready at
/// its first poll, so that a ready future reads no clock.
pub(crate) async fn bounded_by<F: Future>(
    deadline: impl FnOnce() -> Instant,
    fut: F,
) -> Option<F::Output> {
    let mut fut = pin!(fut);
    let first = poll_once(fut.as_mut()).await;
    match first {
        Some(v) => Some(v),
        None => timeout_at(deadline(), fut).await.ok(),
    }
}

/// Which of two futures finished first ([`first`]).
pub(crate) enum First<A, B> {
    A(A),
    B(B),
}

/// Runs `a` and `b` together until one finishes; `a` is polled first.
pub(crate) async fn first<A: Future, B: Future>(a: A, b: B) -> First<A::Output, B::Output> {
    let mut a = pin!(a);
    let mut b = pin!(b);
    poll_fn(|cx| {
        if let Poll::Ready(v) = a.as_mut().poll(cx) {
            return Poll::Ready(First::A(v));
        }
        b.as_mut().poll(cx).map(First::B)
    })
    .await
}

pub(crate) use crate::timer::{instant, stamp};

/// The error for a wait that reached its deadline, as the core rules it
/// ([`Spent`]): [`Error::TooSlow`] when the minimum rate bounded it,
/// [`Error::Timeout`] otherwise.
pub(crate) fn spent(s: Spent) -> Error {
    if s.too_slow {
        Error::TooSlow(s.stage)
    } else {
        Error::Timeout(s.stage)
    }
}

/// A deadline that is a plain timeout of `stage` (no rate bounds it).
pub(crate) const fn timeout(stage: Stage) -> Spent {
    Spent {
        stage,
        too_slow: false,
    }
}

/// The outcome of one read into a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filled {
    /// This many bytes were committed.
    Bytes(usize),
    /// The peer closed its side; `recv_eof` was called.
    Eof,
    /// The connection takes no input now.
    Full,
    /// `wake` rang before any byte arrived (shutdown, eviction).
    Woken,
}

/// How a read bounded by [`poll_bounded_read`] ended.
enum ReadEnd {
    /// The read's own outcome: bytes (0 at the end of the stream) or an
    /// error.
    Read(io::Result<usize>),
    /// The deadline passed first.
    TimedOut,
    /// `wake` rang first.
    Woken,
}

/// One poll of a read into `buf`, bounded by `deadline` on the
/// connection's one timer and by `wake`: the read is polled first, then the
/// timer, then the bell. One hand-written poll for every read of a server
/// connection, so that a read gets no nested futures of its own (the
/// general twin is [`bounded`] around `AsyncReadExt::read`).
fn poll_bounded_read(
    stream: &mut (dyn Transport + '_),
    buf: &mut [u8],
    timer: &mut Timer,
    deadline: Timestamp,
    wake: Option<&Bell>,
    cx: &mut Context<'_>,
) -> Poll<ReadEnd> {
    let mut rb = ReadBuf::new(buf);
    match Pin::new(&mut *stream).poll_read(cx, &mut rb) {
        Poll::Ready(Ok(())) => return Poll::Ready(ReadEnd::Read(Ok(rb.filled().len()))),
        Poll::Ready(Err(e)) => return Poll::Ready(ReadEnd::Read(Err(e))),
        Poll::Pending => {}
    }
    if timer.poll_until(deadline, cx).is_ready() {
        return Poll::Ready(ReadEnd::TimedOut);
    }
    match wake {
        Some(wake) if wake.poll_rang(cx).is_ready() => Poll::Ready(ReadEnd::Woken),
        _ => Poll::Pending,
    }
}

/// Reads once from the stream into the connection, until `deadline` (the
/// error for `at_deadline`, see [`spent`]), or until `wake` rings.
pub(crate) async fn fill(
    stream: &mut (dyn Transport + '_),
    conn: &mut ServerConn,
    timer: &mut Timer,
    deadline: Timestamp,
    at_deadline: Spent,
    wake: Option<&Bell>,
) -> Result<Filled, Error> {
    let spare = conn.spare_mut();
    if spare.is_empty() {
        return Ok(Filled::Full);
    }
    let end = poll_fn(|cx| poll_bounded_read(stream, spare, timer, deadline, wake, cx)).await;
    match end {
        ReadEnd::Woken => Ok(Filled::Woken),
        ReadEnd::TimedOut => Err(spent(at_deadline)),
        ReadEnd::Read(Ok(0)) => {
            conn.recv_eof();
            Ok(Filled::Eof)
        }
        ReadEnd::Read(Ok(n)) => {
            conn.commit(n);
            Ok(Filled::Bytes(n))
        }
        ReadEnd::Read(Err(e)) => Err(Error::Io(e)),
    }
}

/// Reads once from the stream into `scratch` (a small buffer of the task's
/// own, while the connection's buffers are lent), until `deadline`
/// (`Err(Timeout(stage))`) or until `wake` rings: the idle twin of
/// [`fill`], which commits nothing (`Eof`: the peer closed its side).
pub(crate) async fn read_scratch(
    stream: &mut (dyn Transport + '_),
    scratch: &mut [u8],
    timer: &mut Timer,
    deadline: Timestamp,
    stage: Stage,
    wake: Option<&Bell>,
) -> Result<Filled, Error> {
    let end = poll_fn(|cx| poll_bounded_read(stream, scratch, timer, deadline, wake, cx)).await;
    match end {
        ReadEnd::Woken => Ok(Filled::Woken),
        ReadEnd::TimedOut => Err(Error::Timeout(stage)),
        ReadEnd::Read(Ok(0)) => Ok(Filled::Eof),
        ReadEnd::Read(Ok(n)) => Ok(Filled::Bytes(n)),
        ReadEnd::Read(Err(e)) => Err(Error::Io(e)),
    }
}

/// Reads what the stream has now into the connection, without waiting:
/// `Some(n)` bytes committed (0 at the end of the stream, after
/// `recv_eof`), `None` when nothing is there (or the read failed).
pub(crate) fn fill_now(stream: &mut (dyn Transport + '_), conn: &mut ServerConn) -> Option<usize> {
    let spare = conn.spare_mut();
    if spare.is_empty() {
        return None;
    }
    let waker = std::task::Waker::noop();
    let mut cx = std::task::Context::from_waker(waker);
    let mut buf = tokio::io::ReadBuf::new(spare);
    match std::pin::Pin::new(&mut *stream).poll_read(&mut cx, &mut buf) {
        Poll::Ready(Ok(())) => {
            let n = buf.filled().len();
            if n == 0 {
                conn.recv_eof();
            } else {
                conn.commit(n);
            }
            Some(n)
        }
        _ => None,
    }
}

/// Runs a write `fut`; while it waits on the peer, `slot` is marked
/// stalled (evictable at the connection limit), and an eviction ends
/// the wait (`None`). A write ready at its first poll changes nothing.
async fn watched<F: Future>(fut: F, slot: &Slot) -> Option<F::Output> {
    let mut fut = pin!(fut);
    let first_poll = poll_once(fut.as_mut()).await;
    if let Some(v) = first_poll {
        return Some(v);
    }
    slot.stall_begins();
    let out = loop {
        match first(fut.as_mut(), slot.wake.rang()).await {
            First::A(v) => break Some(v),
            First::B(()) if slot.evicted() => break None,
            First::B(()) => {}
        }
    };
    slot.stall_ends();
    out
}

/// Writes the connection's whole output and then `body` (a body left to the
/// caller: `Placement::AfterOutput`), with vectored writes, each bounded by
/// the responses' pace (the core's [`ServerConn::transfer_until`], asked
/// only when a write must wait); then flushes the stream. With a `slot`, a
/// write waiting on the peer can be evicted ([`watched`]).
pub(crate) async fn flush_with(
    stream: &mut (dyn Transport + '_),
    conn: &mut ServerConn,
    mut body: &[u8],
    timer: &mut Timer,
    slot: Option<&Slot>,
) -> Result<(), Error> {
    const RESPONSE: Transfer = Transfer::Response;
    // The time of this wakeup (the clock, for a stream with no slot).
    let now = || slot.map_or_else(|| stamp(crate::timer::read_clock()), |s| s.clock.stamp());
    let mut wrote = false;
    // Fast path: what is queued leaves in one write the stream takes at
    // once, and the flush is ready too (the general twin is the loop below,
    // which takes over from wherever this stops).
    if body.is_empty() && conn.transfer(RESPONSE).until().is_none() && !conn.output().is_empty() {
        let first = poll_fn(|cx| {
            Poll::Ready(match Pin::new(&mut *stream).poll_write(cx, conn.output()) {
                Poll::Ready(Ok(n)) => n,
                _ => 0,
            })
        })
        .await;
        if first > 0 {
            wrote = true;
            conn.transfer_moved(RESPONSE, Duration::ZERO, first as u64);
            conn.consume_output(first);
            if conn.output().is_empty() {
                let flushed = poll_fn(|cx| Poll::Ready(Pin::new(&mut *stream).poll_flush(cx)));
                if let Poll::Ready(Ok(())) = flushed.await {
                    return Ok(());
                }
            }
        }
    }
    loop {
        let out_len = conn.output().len();
        if out_len == 0 && body.is_empty() {
            break;
        }
        // A whole-response deadline (`response_timeout`, an option, off by
        // default) is checked before every write: past it no write is
        // made, however ready the peer.
        if let Some(until) = conn.transfer(RESPONSE).until() {
            if until <= now() {
                return Err(spent(conn.transfer_spent(timeout(Stage::Write))));
            }
        }
        // Otherwise the clock is read only when the write must wait (the
        // first poll was not ready): when it started waiting, and what its
        // deadline is. A write ready at once waited for nothing.
        let mut waiting: Option<(Timestamp, Spent)> = None;
        let c = &*conn;
        let deadline = || {
            let now = now();
            let (at, spent) = c.transfer_until(RESPONSE, now, now);
            waiting = Some((now, spent));
            at
        };
        let bufs = [IoSlice::new(c.output()), IoSlice::new(body)];
        let write = async {
            if out_len == 0 {
                timer.bounded_by(deadline, stream.write(body)).await
            } else if body.is_empty() {
                timer.bounded_by(deadline, stream.write(&bufs[0])).await
            } else {
                timer
                    .bounded_by(deadline, stream.write_vectored(&bufs))
                    .await
            }
        };
        let r = match slot {
            Some(slot) => match watched(write, slot).await {
                Some(r) => r,
                None => return Err(Error::Evicted),
            },
            None => write.await,
        };
        // A write that waited: `now` is the wakeup that ended it.
        let (waited, at_deadline) = match waiting {
            Some((since, s)) => (now().saturating_duration_since(since), s),
            None => (Duration::ZERO, timeout(Stage::Write)),
        };
        let n = match r {
            Some(Ok(n)) if n > 0 => n,
            None => {
                conn.transfer_moved(RESPONSE, waited, 0);
                return Err(spent(conn.transfer_spent(at_deadline)));
            }
            Some(Ok(_)) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
            Some(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {
                conn.transfer_moved(RESPONSE, waited, 0);
                continue;
            }
            Some(Err(e)) => return Err(Error::Io(e)),
        };
        wrote = true;
        conn.transfer_moved(RESPONSE, waited, n as u64);
        if n <= out_len {
            conn.consume_output(n);
        } else {
            conn.consume_output(out_len);
            body = body.get(n - out_len..).unwrap_or(&[]);
        }
    }
    if wrote {
        let c = &*conn;
        let until = || {
            let now = now();
            c.transfer_until(RESPONSE, now, now).0
        };
        match timer.bounded_by(until, stream.flush()).await {
            None => return Err(spent(conn.transfer_spent(timeout(Stage::Write)))),
            Some(Err(e)) => return Err(Error::Io(e)),
            Some(Ok(())) => {}
        }
    }
    Ok(())
}

/// After an error response (or a close the peer may not expect): half-close,
/// then read and discard the peer's input within the core's [`Linger`]
/// bound (`None`: close at once), so that the peer reads the response and
/// not a reset. With `wake`, `stop` is asked before the linger and each time
/// `wake` rings: once it says so (an eviction, a graceful stop) the
/// linger ends at once, as [`Linger`] rules.
pub(crate) async fn linger(
    stream: &mut (dyn Transport + '_),
    linger: Option<Linger>,
    wake: Option<(&Bell, &(dyn Fn() -> bool + Sync))>,
) {
    let Some(mut linger) = linger else {
        // Closing at once: the shutdown is the close's, not awaited here.
        return;
    };
    if wake.is_some_and(|(_, stop)| stop()) {
        return;
    }
    let until = instant(linger.until());
    if !matches!(bounded(until, stream.shutdown()).await, Some(Ok(()))) {
        return;
    }
    let mut scratch = [0u8; 1024];
    loop {
        let read = bounded(until, stream.read(&mut scratch));
        let r = match wake {
            Some((wake, stop)) => match first(read, wake.rang()).await {
                First::A(r) => r,
                First::B(()) if stop() => return,
                First::B(()) => continue,
            },
            None => read.await,
        };
        match r {
            Some(Ok(n)) if linger.read(n) => {}
            _ => return,
        }
    }
}
