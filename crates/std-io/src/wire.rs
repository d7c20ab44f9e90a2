//! Moving bytes between a [`Transport`] and a connection's buffers.

use std::io::{self, IoSlice};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use http_net_conn::driver::{FlowGauge, IoBuffers, Linger, SlotCell, Spent, Transfer};
use http_net_conn::{ServerConn, Timestamp};

use crate::error::{is_timeout, Error, Stage};
use crate::transport::Transport;

/// The longest single wait of a paced write: progress within a write call
/// is seen this often, so that the stall timeout counts from the last
/// byte the peer took, not from the start of a call that took some, and
/// so that a non-reading peer's stall of the eviction grace (default 1 s)
/// is seen although the kernel takes a few bytes at the end of each call.
const WRITE_SLICE: Duration = Duration::from_millis(100);

/// The clock reading `t` as the core's time input, since a process-wide
/// epoch (the first reading taken here): the core's `Meter` compares and
/// subtracts readings, so any one epoch serves.
pub(crate) fn stamp(t: Instant) -> Timestamp {
    Timestamp::after_epoch(t.saturating_duration_since(epoch()))
}

/// The instant the core's `t` stands for (see [`stamp`]).
pub(crate) fn instant(t: Timestamp) -> Instant {
    epoch() + t.since_epoch()
}

/// Reads the monotonic clock: every reading on a connection's path goes
/// through here (and is counted in this crate's tests).
pub(crate) fn read_clock() -> Instant {
    #[cfg(test)]
    READINGS.with(|r| r.set(r.get() + 1));
    Instant::now()
}

#[cfg(test)]
thread_local! {
    /// The clock readings [`read_clock`] took on this thread.
    pub(crate) static READINGS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The process-wide epoch [`stamp`] counts from; the server's slots count
/// from it too, so that one stamp serves the core and a slot's marks.
pub(crate) fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// The write side's own I/O pacing (the pace itself is the core's:
/// [`ServerConn::transfer_until`]): the write timeout last set on the
/// stream, and the clock reading at the end of the last write.
#[derive(Debug, Default)]
pub(crate) struct WriteSlices {
    /// The write timeout last set on the stream.
    timeout_set: Option<Duration>,
    /// The clock reading at the end of the last write and its stamp,
    /// until taken.
    last_write: Option<(Instant, Timestamp)>,
}

impl WriteSlices {
    /// The clock reading taken when the last write since the previous call
    /// ended, if a write was made since (the reader's `now`, so that the
    /// clock is not read twice in a row), with its stamp (not worked out
    /// twice either).
    pub(crate) fn take_last_write(&mut self) -> Option<(Instant, Timestamp)> {
        self.last_write.take()
    }

    /// Notes the write timeout set on the stream by someone else.
    pub(crate) fn timeout_was_set(&mut self, t: Option<Duration>) {
        self.timeout_set = t;
    }
}

/// What one flow of a server connection (its request body, or its
/// responses) shows to the accept loop, which picks the connection making
/// least progress when it must free a slot: the core's [`FlowGauge`]
/// (bytes, time spent waiting, when the current wait and stall began),
/// stamped from the process-wide [`epoch`]; and the slot's cell, which
/// says whether the connection was evicted (a timeout is then final).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gauge<'a> {
    pub(crate) flow: &'a FlowGauge,
    pub(crate) cell: &'a SlotCell,
}

/// A connection's [`WriteSlices`] and, on the server, the [`Gauge`] its
/// responses show themselves on.
pub(crate) struct Paced<'a> {
    pub(crate) slices: &'a mut WriteSlices,
    pub(crate) gauge: Option<Gauge<'a>>,
}

/// The error for a pace spent ([`Spent`], the core's ruling):
/// [`Error::TooSlow`] when the minimum rate bounded it, [`Error::Timeout`]
/// for a stall or a deadline (as the tokio adapter reports them).
pub(crate) fn spent(s: Spent) -> Error {
    if s.too_slow {
        Error::TooSlow(s.stage)
    } else {
        Error::Timeout(s.stage)
    }
}

/// Whether the accept loop evicted the connection (a timeout is then final).
fn evicted(gauge: Option<Gauge<'_>>) -> bool {
    gauge.is_some_and(|g| g.cell.evicted().is_some())
}

/// One write of the connection's output and then `body` (vectored, the
/// body never copied) that takes at least one byte, waiting in slices of
/// [`WRITE_SLICE`] until the responses' pace is spent: asked of the core
/// once ([`ServerConn::transfer_until`]), since no byte moves within the
/// call and so its deadline stands. The bytes written and the time waited
/// are counted in the core's meter and shown on the gauge.
fn write_paced(
    stream: &mut dyn Transport,
    conn: &mut ServerConn,
    pace: &mut Paced<'_>,
    body: &[u8],
) -> Result<usize, Error> {
    let start = read_clock();
    let stamped = stamp(start);
    let (until, spent_as) = conn.transfer_until(Transfer::Response, stamped, stamped);
    if let Some(g) = pace.gauge {
        g.flow.begin(stamped);
    }
    // The first try's time is the call's start; a retry's is the end of
    // the try before it (both in the core's time: each reading is stamped
    // once, and the end's stamp also serves the reader after the flush).
    let (mut now, mut after) = (stamped, start);
    let r = loop {
        let budget = until.saturating_duration_since(now);
        if budget.is_zero() {
            break Err(spent(conn.transfer_spent(spent_as)));
        }
        let t = budget.min(WRITE_SLICE).max(Duration::from_millis(1));
        if pace.slices.timeout_set != Some(t) {
            if let Err(e) = stream.set_write_timeout(Some(t)) {
                break Err(Error::Io(e));
            }
            pace.slices.timeout_set = Some(t);
        }
        let out = conn.output();
        let r = match (out.is_empty(), body.is_empty()) {
            (true, _) => stream.write(body),
            (false, true) => stream.write(out),
            _ => stream.write_vectored(&[IoSlice::new(out), IoSlice::new(body)]),
        };
        after = read_clock();
        now = stamp(after);
        match r {
            Ok(0) => break Err(Error::Io(io::ErrorKind::WriteZero.into())),
            Ok(n) => break Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // The accept loop evicted it (and shut the socket).
            Err(_) if evicted(pace.gauge) => break Err(Error::Evicted),
            Err(e) if is_timeout(&e) => {}
            Err(e) => break Err(Error::Io(e)),
        }
    };
    pace.slices.last_write = Some((after, now));
    let n = *r.as_ref().unwrap_or(&0);
    // In stamps: the end's stamp serves the reader too (one conversion).
    let waited = now.saturating_duration_since(stamped);
    conn.transfer_moved(Transfer::Response, waited, n as u64);
    if let Some(g) = pace.gauge {
        let m = conn.transfer(Transfer::Response);
        g.flow.end(m.bytes(), m.time_waited());
    }
    r
}

/// Writes the connection's whole output and then `body` with vectored
/// writes (the body is never copied), within the responses' pace (see
/// [`write_paced`]).
pub(crate) fn flush_paced(
    stream: &mut dyn Transport,
    conn: &mut ServerConn,
    mut body: &[u8],
    pace: &mut Paced<'_>,
) -> Result<(), Error> {
    let had_body = !body.is_empty();
    while !conn.output().is_empty() || !body.is_empty() {
        let out_len = conn.output().len();
        let n = write_paced(stream, conn, pace, body)?;
        conn.consume_output(n.min(out_len));
        body = body.get(n.saturating_sub(out_len)..).unwrap_or(&[]);
    }
    // The caller's bytes are out: a debt recorded with nothing pending
    // (see `ServerConn::body_owed`) is paid.
    if had_body {
        conn.consume_output(0);
    }
    Ok(())
}

/// Writes the output due before a body the handler owes
/// (`ServerConn::body_owed`), and nothing past it, within the responses'
/// pace; all of the output when nothing is owed.
pub(crate) fn flush_until_owed(
    stream: &mut dyn Transport,
    conn: &mut ServerConn,
    pace: &mut Paced<'_>,
) -> Result<(), Error> {
    let owed = conn.body_owed().is_some();
    // Reaching the barrier lifts it: what follows belongs after the
    // missing bytes.
    while !(conn.output().is_empty() || owed && conn.body_owed().is_none()) {
        let n = write_paced(stream, conn, pace, &[])?;
        conn.consume_output(n);
    }
    Ok(())
}

/// One read into the connection within the request body's pace (the
/// core's [`ServerConn::transfer_until`], asked once: no byte moves before
/// the read returns): the read timeout is what is left of it (in whole
/// seconds while a second or more is left, so that it is rarely set
/// again), and a timeout with some of it left reads again.
pub(crate) fn fill_paced(
    stream: &mut dyn Transport,
    conn: &mut ServerConn,
    gauge: Option<Gauge<'_>>,
    current: &mut Option<Option<Duration>>,
) -> Result<Filled, Error> {
    let start = read_clock();
    let stamped = stamp(start);
    let (until, spent_as) = conn.transfer_until(Transfer::Body, stamped, stamped);
    if let Some(g) = gauge {
        g.flow.begin(stamped);
    }
    let (mut now, mut after) = (stamped, start);
    let r = loop {
        let budget = until.saturating_duration_since(now);
        if budget.is_zero() {
            break Err(spent(conn.transfer_spent(spent_as)));
        }
        let t = if budget >= Duration::from_secs(1) {
            Duration::from_secs(budget.as_secs())
        } else {
            budget
        };
        let r = fill(stream, conn, Some(t), current, Stage::Body);
        after = read_clock();
        now = stamp(after);
        match r {
            Err(Error::Timeout(_)) if !evicted(gauge) => {}
            // The accept loop evicted it (and shut its reading side).
            Err(Error::Timeout(_)) => break Err(Error::Evicted),
            r => break r,
        }
    };
    let n = match r {
        Ok(Filled::Bytes(n)) => n,
        _ => 0,
    };
    let waited = after.saturating_duration_since(start);
    conn.transfer_moved(Transfer::Body, waited, n as u64);
    if let Some(g) = gauge {
        let m = conn.transfer(Transfer::Body);
        g.flow.end(m.bytes(), m.time_waited());
    }
    r
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
}

/// Reads once from the stream into the connection, with `timeout` (the
/// caller caches the timeout last set in `current`).
pub(crate) fn fill<C: IoBuffers + ?Sized>(
    stream: &mut dyn Transport,
    conn: &mut C,
    timeout: Option<Duration>,
    current: &mut Option<Option<Duration>>,
    stage: Stage,
) -> Result<Filled, Error> {
    set_read_timeout(stream, timeout, current)?;
    loop {
        let spare = conn.spare_mut();
        if spare.is_empty() {
            return Ok(Filled::Full);
        }
        match stream.read(spare) {
            Ok(0) => {
                conn.recv_eof();
                return Ok(Filled::Eof);
            }
            Ok(n) => {
                conn.commit(n);
                return Ok(Filled::Bytes(n));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if is_timeout(&e) => return Err(Error::Timeout(stage)),
            Err(e) => return Err(Error::Io(e)),
        }
    }
}

/// Sets the read timeout unless it is already the one set.
pub(crate) fn set_read_timeout(
    stream: &mut dyn Transport,
    timeout: Option<Duration>,
    current: &mut Option<Option<Duration>>,
) -> Result<(), Error> {
    // A zero duration means "no timeout" to the OS: use the smallest bound.
    let timeout = timeout.map(|t| t.max(Duration::from_millis(1)));
    if *current != Some(timeout) {
        stream.set_read_timeout(timeout).map_err(Error::Io)?;
        *current = Some(timeout);
    }
    Ok(())
}

/// After an error response (or a close the peer may not expect): stop
/// sending, then read and discard the peer's input within the core's
/// [`Linger`] bound (`None`: close at once), so the peer gets the response
/// and not a reset. `now` is the reading the bound was made at; each read
/// that returns takes one more.
pub(crate) fn linger(stream: &mut dyn Transport, linger: Option<Linger>, mut now: Timestamp) {
    if stream.shutdown_write().is_err() {
        return;
    }
    let Some(mut linger) = linger else { return };
    let mut scratch = [0u8; 4096];
    let mut current = None;
    loop {
        let Some(wait) = linger.wait(now) else {
            return;
        };
        if set_read_timeout(stream, Some(wait), &mut current).is_err() {
            return;
        }
        match stream.read(&mut scratch) {
            Ok(n) if linger.read(n) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            _ => return,
        }
        now = stamp(read_clock());
    }
}
