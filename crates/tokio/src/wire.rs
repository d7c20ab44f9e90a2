//! Moving bytes between a stream and a `ServerConn`, each wait bounded by a
//! deadline: reads, writes (vectored, so large bodies are never copied),
//! and the half-close and drain after an error response.

use std::future::{poll_fn, Future};
use std::io::{self, IoSlice};
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Poll;
use std::time::Duration;

use http_net_conn::ServerConn;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::Notify;
use tokio::time::{timeout_at, Instant};

use crate::error::{Error, Stage};

/// A byte stream the server can run over: a `TcpStream`, a TLS stream over
/// one, a `tokio::io::DuplexStream` in tests. Implemented for every
/// `AsyncRead + AsyncWrite + Unpin + Send` type.
pub trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}

impl<T: AsyncRead + AsyncWrite + Unpin + Send + ?Sized> Stream for T {}

/// Runs `fut` until `deadline`; `None` when the deadline passed first. A
/// future that is ready at its first poll (most reads and writes on a busy
/// connection) never arms a timer; the general twin is `timeout_at` alone.
pub(crate) async fn bounded<F: Future>(deadline: Instant, fut: F) -> Option<F::Output> {
    let mut fut = pin!(fut);
    let first = poll_fn(|cx| {
        Poll::Ready(match fut.as_mut().poll(cx) {
            Poll::Ready(v) => Some(v),
            Poll::Pending => None,
        })
    })
    .await;
    match first {
        Some(v) => Some(v),
        None => timeout_at(deadline, fut).await.ok(),
    }
}

/// A minimum data rate: after `grace` from the start of a transfer, the
/// average rate since its start must stay at or above `bytes_per_sec`
/// (0 turns it off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rate {
    pub(crate) bytes_per_sec: u64,
    pub(crate) grace: Duration,
}

/// The bytes one transfer (a request body, a response) has moved since it
/// started.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Meter {
    start: Option<Instant>,
    bytes: u64,
}

impl Meter {
    pub(crate) fn reset(&mut self) {
        *self = Meter::default();
    }

    pub(crate) fn add(&mut self, n: usize) {
        self.bytes = self.bytes.saturating_add(n as u64);
    }

    /// The deadline of the next wait starting `now`: `stall` from now, or
    /// earlier the moment the average rate would fall below `rate` if no
    /// byte moved; and whether the rate is what bounds it.
    pub(crate) fn deadline(
        &mut self,
        now: Instant,
        stall: Duration,
        rate: Rate,
    ) -> (Instant, bool) {
        let start = *self.start.get_or_insert(now);
        let stall_at = now + stall;
        if rate.bytes_per_sec == 0 {
            return (stall_at, false);
        }
        // The time at which `bytes` is exactly the minimum.
        let nanos = u128::from(self.bytes) * 1_000_000_000 / u128::from(rate.bytes_per_sec);
        let earned = Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX));
        let rate_at = start
            + rate
                .grace
                .max(earned)
                .min(Duration::from_secs(86_400 * 365));
        if rate_at < stall_at {
            (rate_at, true)
        } else {
            (stall_at, false)
        }
    }
}

/// What bounds the writes of one connection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WriteBounds {
    pub(crate) stall: Duration,
    pub(crate) rate: Rate,
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
    /// `wake` was notified before any byte arrived (shutdown, eviction).
    Woken,
}

/// Reads once from the stream into the connection, until `deadline`
/// (`Err(Timeout(stage))`, or `TooSlow(stage)` when `rate_bound`), or until
/// `wake` is notified.
pub(crate) async fn fill(
    stream: &mut (dyn Stream + '_),
    conn: &mut ServerConn,
    deadline: Instant,
    rate_bound: bool,
    stage: Stage,
    wake: Option<&Notify>,
) -> Result<Filled, Error> {
    let spare = conn.spare_mut();
    if spare.is_empty() {
        return Ok(Filled::Full);
    }
    let read = bounded(deadline, stream.read(spare));
    let r = match wake {
        Some(wake) => tokio::select! {
            biased;
            r = read => r,
            () = wake.notified() => return Ok(Filled::Woken),
        },
        None => read.await,
    };
    match r {
        None if rate_bound => Err(Error::TooSlow(stage)),
        None => Err(Error::Timeout(stage)),
        Some(Ok(0)) => {
            conn.recv_eof();
            Ok(Filled::Eof)
        }
        Some(Ok(n)) => {
            conn.commit(n);
            Ok(Filled::Bytes(n))
        }
        Some(Err(e)) => Err(Error::Io(e)),
    }
}

/// Writes the connection's whole output and then `body` (a body left to the
/// caller: `Placement::AfterOutput`), with vectored writes, each bounded by
/// the stall timeout and the minimum rate; then flushes the stream.
pub(crate) async fn flush_with(
    stream: &mut (dyn Stream + '_),
    conn: &mut ServerConn,
    mut body: &[u8],
    meter: &mut Meter,
    bounds: WriteBounds,
) -> Result<(), Error> {
    let mut wrote = false;
    loop {
        let out_len = conn.output().len();
        if out_len == 0 && body.is_empty() {
            break;
        }
        let (deadline, by_rate) = meter.deadline(Instant::now(), bounds.stall, bounds.rate);
        let r = if out_len == 0 {
            bounded(deadline, stream.write(body)).await
        } else if body.is_empty() {
            bounded(deadline, stream.write(conn.output())).await
        } else {
            let bufs = [IoSlice::new(conn.output()), IoSlice::new(body)];
            bounded(deadline, stream.write_vectored(&bufs)).await
        };
        let n = match r {
            None if by_rate => return Err(Error::TooSlow(Stage::Write)),
            None => return Err(Error::Timeout(Stage::Write)),
            Some(Ok(0)) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
            Some(Ok(n)) => n,
            Some(Err(e)) if e.kind() == io::ErrorKind::Interrupted => continue,
            Some(Err(e)) => return Err(Error::Io(e)),
        };
        wrote = true;
        meter.add(n);
        if n <= out_len {
            conn.consume_output(n);
        } else {
            conn.consume_output(out_len);
            body = body.get(n - out_len..).unwrap_or(&[]);
        }
    }
    if wrote {
        let deadline = Instant::now() + bounds.stall;
        match bounded(deadline, stream.flush()).await {
            None => return Err(Error::Timeout(Stage::Write)),
            Some(Err(e)) => return Err(Error::Io(e)),
            Some(Ok(())) => {}
        }
    }
    Ok(())
}

/// After an error response (or a close the peer may not expect): half-close,
/// then read and discard the peer's input until it closes, `limit` bytes
/// were read, `time` passed, or `wake` is notified with `stop` set, so that
/// the peer reads the response and not a reset.
pub(crate) async fn linger(
    stream: &mut (dyn Stream + '_),
    time: Duration,
    limit: u64,
    wake: Option<(&Notify, &AtomicBool)>,
) {
    let deadline = Instant::now() + time;
    if time.is_zero() || !matches!(bounded(deadline, stream.shutdown()).await, Some(Ok(()))) {
        return;
    }
    let mut scratch = [0u8; 1024];
    let mut total = 0u64;
    while total < limit {
        let read = bounded(deadline, stream.read(&mut scratch));
        let r = match wake {
            Some((wake, stop)) => tokio::select! {
                biased;
                r = read => r,
                () = wake.notified() => {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    continue;
                }
            },
            None => read.await,
        };
        match r {
            Some(Ok(n)) if n > 0 => total += n as u64,
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_bounds_the_wait_only_after_the_grace_period() {
        let rate = Rate {
            bytes_per_sec: 100,
            grace: Duration::from_secs(2),
        };
        let t0 = Instant::now();
        let mut m = Meter::default();
        // Nothing moved yet: the grace period ends first.
        let (d, by_rate) = m.deadline(t0, Duration::from_secs(30), rate);
        assert_eq!((d, by_rate), (t0 + Duration::from_secs(2), true));
        // 500 bytes buy five seconds at 100 B/s.
        m.add(500);
        let (d, by_rate) = m.deadline(t0 + Duration::from_secs(1), Duration::from_secs(30), rate);
        assert_eq!((d, by_rate), (t0 + Duration::from_secs(5), true));
        // A short stall timeout comes first.
        let (d, by_rate) = m.deadline(t0 + Duration::from_secs(1), Duration::from_secs(1), rate);
        assert_eq!((d, by_rate), (t0 + Duration::from_secs(2), false));
        // Off: only the stall timeout.
        let off = Rate {
            bytes_per_sec: 0,
            grace: Duration::ZERO,
        };
        let mut m = Meter::default();
        assert_eq!(
            m.deadline(t0, Duration::from_secs(3), off),
            (t0 + Duration::from_secs(3), false)
        );
    }
}
