//! Moving bytes between a [`Transport`] and a connection's buffers.

use std::io::{self, IoSlice};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use http_net_conn::driver::{Bound, Flow, FlowGauge, Linger, Meter};
use http_net_conn::{ClientConn, Rate, ServerConn, Timestamp};

use crate::error::{is_timeout, Error, Stage};
use crate::transport::Transport;

/// The buffer methods the server and client connections share.
pub(crate) trait Buffers {
    fn output(&self) -> &[u8];
    fn consume_output(&mut self, n: usize);
    fn spare_mut(&mut self) -> &mut [u8];
    fn commit(&mut self, n: usize);
    fn recv_eof(&mut self);
}

macro_rules! buffers {
    ($t:ty) => {
        impl Buffers for $t {
            fn output(&self) -> &[u8] {
                <$t>::output(self)
            }
            fn consume_output(&mut self, n: usize) {
                <$t>::consume_output(self, n)
            }
            fn spare_mut(&mut self) -> &mut [u8] {
                <$t>::spare_mut(self)
            }
            fn commit(&mut self, n: usize) {
                <$t>::commit(self, n)
            }
            fn recv_eof(&mut self) {
                <$t>::recv_eof(self)
            }
        }
    };
}
buffers!(ServerConn);
buffers!(ClientConn);

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

/// The pace of one direction of a connection (a request body, or the
/// responses): the core's [`Meter`] (bytes, time waited, a whole
/// deadline) with this direction's stall timeout and minimum rate, and
/// the write timeout last set on the stream.
#[derive(Debug)]
pub(crate) struct Pace {
    meter: Meter,
    stall: Duration,
    rate: Rate,
    /// The write timeout last set on the stream (writes only).
    timeout_set: Option<Duration>,
    /// The clock reading at the end of the last write, until taken.
    last_write: Option<Instant>,
}

impl Pace {
    pub(crate) fn new(stall: Duration, rate: Rate) -> Pace {
        Pace {
            meter: Meter::new(),
            stall,
            rate,
            timeout_set: None,
            last_write: None,
        }
    }

    /// The clock reading taken when the last write since the previous call
    /// ended, if a write was made since (the reader's `now`, so that the
    /// clock is not read twice in a row).
    pub(crate) fn take_last_write(&mut self) -> Option<Instant> {
        self.last_write.take()
    }

    /// Starts counting afresh (a new request body or response), with no
    /// whole deadline.
    pub(crate) fn restart(&mut self) {
        self.meter.restart(None);
    }

    /// Starts counting afresh at `now`, with a whole deadline `whole` after
    /// it (the core's `Meter::start`).
    pub(crate) fn start(&mut self, now: Instant, whole: Option<Duration>) {
        self.meter.start(stamp(now), whole);
    }

    /// The bytes counted since the last restart.
    pub(crate) fn bytes(&self) -> u64 {
        self.meter.bytes()
    }

    /// The stall timeout.
    pub(crate) fn stall(&self) -> Duration {
        self.stall
    }

    /// Notes the write timeout set on the stream by someone else.
    pub(crate) fn timeout_was_set(&mut self, t: Option<Duration>) {
        self.timeout_set = t;
    }

    /// How much longer the next wait may last, `since_progress` after the
    /// last progress, and what bounds it: zero when the stall timeout, the
    /// rate or the deadline is spent (the core's `Meter::deadline`).
    fn budget(&self, now: Timestamp, since_progress: Duration) -> (Duration, Bound) {
        let progress = Timestamp::from_nanos(
            now.as_nanos()
                .saturating_sub(u64::try_from(since_progress.as_nanos()).unwrap_or(u64::MAX)),
        );
        let (at, bound) = self.meter.deadline(now, progress, self.stall, self.rate);
        (at.saturating_duration_since(now), bound)
    }

    fn record(&mut self, waited: Duration, n: usize, gauge: Option<&Gauge>) {
        self.meter.waited(waited);
        self.meter.add(n as u64);
        if let Some(g) = gauge {
            g.end(self.meter.bytes(), self.meter.time_waited());
        }
    }
}

/// What a connection's [`Pace`] shows to the accept loop, which picks the
/// connection making least progress when it must free a slot: the core's
/// [`FlowGauge`] (bytes, time spent waiting, when the current wait and
/// stall began), stamped from this server's epoch, and whether the
/// connection was evicted.
#[derive(Debug)]
pub(crate) struct Gauge {
    pub(crate) epoch: Instant,
    progress: FlowGauge,
    /// The connection was evicted: a timeout is final, not waited out.
    ended: AtomicBool,
}

impl Gauge {
    pub(crate) fn new(epoch: Instant) -> Gauge {
        Gauge {
            epoch,
            progress: FlowGauge::new(),
            ended: AtomicBool::new(false),
        }
    }

    /// `t` as the core's time input, from this gauge's epoch.
    pub(crate) fn stamp(&self, t: Instant) -> Timestamp {
        Timestamp::after_epoch(t.saturating_duration_since(self.epoch))
    }

    pub(crate) fn reset(&self) {
        self.progress.reset();
    }

    /// Marks the connection evicted (see [`Gauge::ended`]).
    pub(crate) fn end_now(&self) {
        self.ended.store(true, Ordering::SeqCst);
    }

    /// Whether the connection was evicted; a new connection clears it.
    pub(crate) fn ended(&self) -> &AtomicBool {
        &self.ended
    }

    /// A wait begins at `now`, a stamp from this gauge's epoch.
    fn begin(&self, now: Timestamp) {
        self.progress.begin(now);
    }

    fn end(&self, bytes: u64, busy: Duration) {
        self.progress.end(bytes, busy);
    }

    /// The progress as eviction weighs it ([`Flow`]), seen at `now` (one
    /// clock reading for every slot).
    pub(crate) fn flow(&self, now: Timestamp) -> Flow {
        self.progress.flow(now)
    }
}

/// A [`Pace`] and, on the server, the [`Gauge`] it shows itself on.
pub(crate) struct Paced<'a> {
    pub(crate) meter: &'a mut Pace,
    pub(crate) gauge: Option<&'a Gauge>,
}

/// The error for a pace spent at `stage`: [`Error::TooSlow`] when the
/// minimum rate bounded it, [`Error::Timeout`] for a stall or a deadline
/// (as the tokio adapter reports them).
fn spent(bound: Bound, stage: Stage) -> Error {
    match bound {
        Bound::Rate => Error::TooSlow(stage),
        _ => Error::Timeout(stage),
    }
}

/// One write of `bufs` that takes at least one byte, waiting within the
/// pace: `Timeout(Write)` when the stall timeout or the deadline is spent
/// first, `TooSlow(Write)` when the minimum rate is.
fn write_paced(
    stream: &mut dyn Transport,
    pace: &mut Paced<'_>,
    bufs: &[IoSlice<'_>],
) -> Result<usize, Error> {
    let progress = read_clock();
    // The first try's reading is the call's start; a retry's is the end
    // of the try before it, and the time since the start is only then
    // worked out.
    let mut now = progress;
    let mut since_progress = Duration::ZERO;
    loop {
        // One stamp for the pace and the gauge (both count from `epoch`).
        let stamped = stamp(now);
        let (budget, bound) = pace.meter.budget(stamped, since_progress);
        if budget.is_zero() {
            return Err(spent(bound, Stage::Write));
        }
        let t = budget.min(WRITE_SLICE).max(Duration::from_millis(1));
        if pace.meter.timeout_set != Some(t) {
            stream.set_write_timeout(Some(t)).map_err(Error::Io)?;
            pace.meter.timeout_set = Some(t);
        }
        if let Some(g) = pace.gauge {
            g.begin(stamped);
        }
        let r = match bufs {
            [one] => stream.write(one),
            _ => stream.write_vectored(bufs),
        };
        let after = read_clock();
        pace.meter.last_write = Some(after);
        let n = *r.as_ref().unwrap_or(&0);
        pace.meter
            .record(after.saturating_duration_since(now), n, pace.gauge);
        match r {
            Ok(0) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // The accept loop evicted it (and shut the socket).
            Err(_) if evicted(pace) => return Err(Error::Evicted),
            Err(e) if is_timeout(&e) => {}
            Err(e) => return Err(Error::Io(e)),
        }
        now = after;
        since_progress = now.saturating_duration_since(progress);
    }
}

/// Whether the accept loop evicted the connection (a timeout is then final).
fn evicted(pace: &Paced<'_>) -> bool {
    pace.gauge.is_some_and(|g| g.ended.load(Ordering::SeqCst))
}

/// Writes the connection's whole output, within a pace (see [`write_paced`]).
pub(crate) fn flush_paced<C: Buffers + ?Sized>(
    stream: &mut dyn Transport,
    conn: &mut C,
    pace: &mut Paced<'_>,
) -> Result<(), Error> {
    loop {
        let out = conn.output();
        if out.is_empty() {
            return Ok(());
        }
        let n = write_paced(stream, pace, &[IoSlice::new(out)])?;
        conn.consume_output(n);
    }
}

/// Writes the output due before a body the handler owes
/// (`ServerConn::body_owed`), and nothing past it, within a pace; all of
/// the output when nothing is owed.
pub(crate) fn flush_until_owed(
    stream: &mut dyn Transport,
    conn: &mut ServerConn,
    pace: &mut Paced<'_>,
) -> Result<(), Error> {
    let owed = conn.body_owed().is_some();
    loop {
        let out = conn.output();
        // Reaching the barrier lifts it: what follows belongs after the
        // missing bytes.
        if out.is_empty() || (owed && conn.body_owed().is_none()) {
            return Ok(());
        }
        let n = write_paced(stream, pace, &[IoSlice::new(out)])?;
        conn.consume_output(n);
    }
}

/// Writes the connection's whole output and then `body` with vectored writes
/// (the body is never copied), within a pace (see [`write_paced`]).
pub(crate) fn flush_with_paced<C: Buffers + ?Sized>(
    stream: &mut dyn Transport,
    conn: &mut C,
    mut body: &[u8],
    pace: &mut Paced<'_>,
) -> Result<(), Error> {
    let had_body = !body.is_empty();
    loop {
        let out_len = conn.output().len();
        if out_len == 0 {
            break;
        }
        let n = write_paced(
            stream,
            pace,
            &[IoSlice::new(conn.output()), IoSlice::new(body)],
        )?;
        if n <= out_len {
            conn.consume_output(n);
        } else {
            conn.consume_output(out_len);
            body = &body[(n - out_len).min(body.len())..];
        }
    }
    while !body.is_empty() {
        let n = write_paced(stream, pace, &[IoSlice::new(body)])?;
        body = &body[n.min(body.len())..];
    }
    // The caller's bytes are out: a debt recorded with nothing pending
    // (see `ServerConn::body_owed`) is paid.
    if had_body {
        conn.consume_output(0);
    }
    Ok(())
}

/// One read into the connection within a pace: the read timeout is what is
/// left of it (in whole seconds while a second or more is left, so that it
/// is rarely set again), and a timeout with some of it left reads again.
pub(crate) fn fill_paced<C: Buffers + ?Sized>(
    stream: &mut dyn Transport,
    conn: &mut C,
    pace: &mut Paced<'_>,
    current: &mut Option<Option<Duration>>,
    stage: Stage,
) -> Result<Filled, Error> {
    let start = read_clock();
    loop {
        let now = read_clock();
        let stamped = stamp(now);
        let (budget, bound) = pace
            .meter
            .budget(stamped, now.saturating_duration_since(start));
        if budget.is_zero() {
            return Err(spent(bound, stage));
        }
        let t = if budget >= Duration::from_secs(1) {
            Duration::from_secs(budget.as_secs())
        } else {
            budget
        };
        if let Some(g) = pace.gauge {
            g.begin(stamped);
        }
        let r = fill(stream, conn, Some(t), current, stage);
        let after = read_clock();
        let n = match r {
            Ok(Filled::Bytes(n)) => n,
            _ => 0,
        };
        pace.meter
            .record(after.saturating_duration_since(now), n, pace.gauge);
        match r {
            Err(Error::Timeout(_)) if !evicted(pace) => {}
            // The accept loop evicted it (and shut its reading side).
            Err(Error::Timeout(_)) => return Err(Error::Evicted),
            r => return r,
        }
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
}

/// Reads once from the stream into the connection, with `timeout` (the
/// caller caches the timeout last set in `current`).
pub(crate) fn fill<C: Buffers + ?Sized>(
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
/// and not a reset.
pub(crate) fn linger(stream: &mut dyn Transport, linger: Option<Linger>) {
    if stream.shutdown_write().is_err() {
        return;
    }
    let Some(mut linger) = linger else { return };
    let mut scratch = [0u8; 4096];
    let mut current = None;
    loop {
        let Some(wait) = linger.wait(stamp(read_clock())) else {
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
    }
}
