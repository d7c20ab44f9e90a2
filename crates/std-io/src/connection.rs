//! One server connection on its pool thread: read → `poll_event` → handler →
//! write, with the timeout that fits the connection's phase.

use std::any::Any;
use std::io::{self, IoSlice, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_net_conn::driver::{
    AfterHandler, Begin, HandlerEnd, NextRead, OwnError, ReadStep, RequestPolicy, SlotState,
    Transfer,
};
use http_net_conn::{Config, Error as ConnError, HandlerError, ServerConn, ServerEvent};

use crate::date::DateClock;
use crate::error::{Error, Stage};
use crate::exchange::{Cycle, Exchange};
use crate::handler::Handler;
use crate::hooks;
use crate::lock::read;
use crate::settings::Settings;
use crate::shared::Shared;
use crate::slot::{Handle, Slot};
use crate::transport::{Interrupter, Transport};
use crate::wire::{self, Filled};

/// How a connection ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Close at once (peer gone, idle timeout, broken stream).
    Close,
    /// Half-close, drain the peer's input for a bounded time, close.
    Linger,
}

/// What a pool thread keeps from one connection to the next, so that a new
/// connection on a warm thread allocates nothing: its `ServerConn` (reset per
/// connection, buffers kept unless they grew) and its slot.
#[derive(Default)]
pub(crate) struct Warm {
    pub(crate) conn: KeptConn,
    pub(crate) slot: Option<Arc<Slot>>,
}

/// A pool thread's `ServerConn`.
#[derive(Default)]
pub(crate) struct KeptConn {
    conn: Option<ServerConn>,
}

impl KeptConn {
    /// The kept connection, reset (its buffers kept), or a new one.
    fn get(&mut self, config: Config) -> &mut ServerConn {
        if let Some(conn) = self.conn.as_mut() {
            // Reset already by `keep_if_small`; cheap, and sure.
            conn.reset();
        }
        self.conn.get_or_insert_with(|| ServerConn::new(config))
    }

    /// After a connection: keeps it for the thread's next peer only if its
    /// buffers are worth keeping ([`ServerConn::buffers_kept`], the
    /// core's rule: kept, a grown output buffer would stay resident for as
    /// long as the thread lives).
    fn keep_if_small(&mut self) {
        let Some(conn) = self.conn.as_mut() else {
            return;
        };
        conn.reset();
        if !conn.buffers_kept() {
            self.conn = None;
        }
    }
}

/// The stream as the connection sees it: once the accept loop has evicted
/// the connection (shutting its reading side), the end of stream a read then
/// returns is a timeout, so that the phase's own timeout path answers (`408`
/// for a head or body, a plain close when idle).
struct Guarded<'a> {
    inner: &'a mut dyn Transport,
    slot: &'a Slot,
}

impl Read for Guarded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(0) if !buf.is_empty() && self.slot.evicted().is_some() => {
                Err(io::ErrorKind::TimedOut.into())
            }
            r => r,
        }
    }
}

impl Write for Guarded<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }
    fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        self.inner.write_vectored(bufs)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl Transport for Guarded<'_> {
    fn set_read_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.inner.set_read_timeout(t)
    }
    fn set_write_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.inner.set_write_timeout(t)
    }
    fn shutdown_write(&mut self) -> io::Result<()> {
        self.inner.shutdown_write()
    }
    fn interrupter(&self) -> Option<Interrupter> {
        self.inner.interrupter()
    }
    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        self.inner.set_nonblocking(nonblocking)
    }
}

/// A TCP connection's socket, shared with its slot (through which
/// another thread ends its blocked reads): one descriptor per connection,
/// where a duplicated interrupt handle would take two.
struct SharedTcp<'a>(&'a TcpStream);

impl Read for SharedTcp<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        (&*self.0).read(buf)
    }
}

impl Write for SharedTcp<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        (&*self.0).write(buf)
    }
    fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        (&*self.0).write_vectored(bufs)
    }
    fn flush(&mut self) -> io::Result<()> {
        (&*self.0).flush()
    }
}

impl Transport for SharedTcp<'_> {
    fn set_read_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.0.set_read_timeout(t)
    }
    fn set_write_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.0.set_write_timeout(t)
    }
    fn shutdown_write(&mut self) -> io::Result<()> {
        self.0.shutdown(Shutdown::Write)
    }
    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        self.0.set_nonblocking(nonblocking)
    }
}

/// Serves one admitted connection until it ends, with what the pool thread
/// kept (`warm`). Its admission is given back when it closes, before it
/// drains the peer's input.
pub(crate) fn run<S: Transport + 'static>(
    stream: S,
    peer: Option<SocketAddr>,
    settings: &Settings,
    shared: &Shared,
    handler: &dyn Handler,
    warm: &mut Warm,
) {
    let Warm { conn, slot: home } = warm;
    let ip = peer.map(|p| p.ip());
    // A `TcpStream` is shared with the slot rather than duplicated.
    let mut own = Some(stream);
    let tcp = (&mut own as &mut dyn Any)
        .downcast_mut::<Option<TcpStream>>()
        .and_then(Option::take);
    match (tcp, own) {
        (Some(tcp), _) => {
            let slot = shared.register(Handle::Tcp(tcp), ip, home);
            let tcp = read(&slot.tcp);
            if let Some(tcp) = tcp.as_ref() {
                let mut stream = SharedTcp(tcp);
                run_on(&mut stream, peer, settings, shared, &slot, handler, conn);
            }
        }
        (None, Some(mut stream)) => {
            let slot = shared.register(Handle::Interrupter(stream.interrupter()), ip, home);
            run_on(&mut stream, peer, settings, shared, &slot, handler, conn);
        }
        (None, None) => {}
    }
}

/// [`run`] on the connection's stream, registered in `slot` (also the
/// run of a stream set up by [`crate::setup`]).
pub(crate) fn run_on(
    stream: &mut dyn Transport,
    peer: Option<SocketAddr>,
    settings: &Settings,
    shared: &Shared,
    slot: &Slot,
    handler: &dyn Handler,
    kept: &mut KeptConn,
) {
    let mut st = Cycle::new(peer);
    // Writes wait in slices of at most a second (see `wire::write_paced`).
    let slice = settings
        .write_timeout
        .clamp(Duration::from_millis(1), Duration::from_secs(1));
    if stream.set_write_timeout(Some(slice)).is_err() {
        return;
    }
    st.write.timeout_was_set(Some(slice));
    let mut guarded = Guarded {
        inner: &mut *stream,
        slot,
    };
    // The pool thread's connection from its last peer, reset (its buffers
    // kept), or a new one on a new thread.
    let conn = kept.get(settings.conn);
    conn.set_wipe(settings.wipe);
    conn.set_timeouts(settings.read_timeouts());
    conn.set_paces(&settings.core);
    let end = Serve {
        stream: &mut guarded,
        conn,
        st: &mut st,
        shared,
        slot,
        handler,
        date: DateClock::new(),
        requests: 0,
        policy: settings.request_policy(),
        eof: false,
        read_at: None,
    }
    .run();
    shared
        .counters
        .ended(conn.timed_out_in(), slot.evicted().is_some());
    // Closed: the slot goes to the next connection while this one drains,
    // and buffers that grew are freed before the drain.
    shared.release(slot);
    kept.keep_if_small();
    if end == End::Linger {
        // An evicted connection's reading side is shut: the drain reads what
        // had arrived and ends.
        let now = wire::stamp(wire::read_clock());
        wire::linger(stream, settings.linger(now), now);
    }
}

/// Tells the access-log hook (when set) of the request `st` holds, then
/// forgets it (the core's [`ServerHooks::access_log`](http_net_conn::driver::ServerHooks::access_log)).
fn access_log(
    shared: &Shared,
    conn: &ServerConn,
    st: &mut Cycle,
    end: Option<&Option<Result<(), HandlerError>>>,
) {
    let bytes = conn.transfer(Transfer::Response).bytes();
    let now = || wire::stamp(wire::read_clock());
    (shared.hooks).access_log(conn, &mut st.kept, bytes, end, now, hooks::catch);
}

/// One connection's serve loop and what it carries: the stream, the
/// connection, the request's cycle and the server's state.
struct Serve<'a> {
    stream: &'a mut dyn Transport,
    conn: &'a mut ServerConn,
    st: &'a mut Cycle,
    shared: &'a Shared,
    slot: &'a Slot,
    handler: &'a dyn Handler,
    date: DateClock,
    requests: u64,
    policy: RequestPolicy,
    eof: bool,
    /// The clock reading taken after the last read that brought bytes,
    /// until the request they bring begins.
    read_at: Option<Instant>,
}

impl Serve<'_> {
    /// The loop: what the connection's next event asks, until it ends.
    fn run(&mut self) -> End {
        loop {
            let end = match self.conn.poll_event() {
                // The request's expectation, framing and persistence are the
                // connection's: the handler and `after_handler` ask it.
                Ok(ServerEvent::Request(view)) => {
                    self.st.kept.keep(&self.shared.hooks, &view);
                    self.request()
                }
                // The rest of a body the handler did not read: the
                // connection drains it (up to its bound) before the next
                // request.
                Ok(ServerEvent::Data(_) | ServerEvent::End(_)) => None,
                Ok(ServerEvent::NeedInput) => self.need_input(),
                Ok(ServerEvent::Paused) => {
                    let (stream, conn, st) = (&mut *self.stream, &mut *self.conn, &mut *self.st);
                    // Paused with nothing to send: the answer is incomplete.
                    (conn.output().is_empty() || st.flush(stream, conn, self.slot).is_err())
                        .then_some(End::Close)
                }
                Ok(ServerEvent::Switched(_)) => Some(End::Close),
                Ok(ServerEvent::Closed) => Some(self.send_and_linger()),
                Err(ConnError::Remote(e)) => Some(self.own_error(OwnError::Peer(e))),
                Err(ConnError::Local(_)) => Some(End::Close),
                // An event this adapter does not know (`ServerEvent` is
                // non_exhaustive): close rather than guess what it asks for.
                Ok(_) => Some(End::Close),
            };
            if let Some(end) = end {
                return end;
            }
        }
    }

    /// Sends what the connection queued (an error response), then lingers.
    fn send_and_linger(&mut self) -> End {
        match self.st.flush(self.stream, self.conn, self.slot) {
            Ok(()) => End::Linger,
            Err(_) => End::Close,
        }
    }

    /// Sends the error response the connection queued itself for `why`
    /// (as the core readies it: [`ServerHooks::own_error`](http_net_conn::driver::ServerHooks::own_error)),
    /// then lingers; the access log is told.
    fn own_error(&mut self, why: OwnError) -> End {
        let now = || wire::stamp(wire::read_clock());
        let own = &self.shared.hooks;
        let Some(told) = own.own_error(self.conn, &mut self.st.kept, why, now, hooks::catch) else {
            return End::Close;
        };
        let end = self.send_and_linger();
        if told {
            access_log(self.shared, self.conn, self.st, None);
        }
        end
    }

    /// A request's head is whole: begins it, runs the handler, carries
    /// out what follows; `Some` ends the connection.
    fn request(&mut self) -> Option<End> {
        // The reading after the read that brought this request, for the
        // requests pipelined behind it too: none reads the clock anew.
        let now = match self.read_at {
            // The read that brought it refreshed the date at this reading.
            Some(now) => now,
            None => {
                let now = wire::read_clock();
                // Error responses the connection writes carry it too.
                refresh_date(self.conn, self.shared, &mut self.date, now);
                *self.read_at.insert(now)
            }
        };
        self.st.reset(self.conn, now);
        if self.shared.hooks.keeps_request() {
            self.st.kept.set_started(wire::stamp(now));
        }
        let stopping = self.shared.stopping.load(Ordering::SeqCst);
        let begin = self
            .conn
            .begin_request(self.requests, stopping, &self.policy);
        self.requests += 1;
        match begin {
            Ok(Begin::Handle) => {}
            // `CONNECT` without tunnels: conn queued `501`.
            Ok(_) => return Some(self.own_error(OwnError::Connect)),
            Err(_) => return Some(End::Close),
        }
        let (stream, conn, st, shared, slot) = (
            &mut *self.stream,
            &mut *self.conn,
            &mut *self.st,
            self.shared,
            self.slot,
        );
        slot.body.reset();
        slot.write.reset();
        slot.enter(SlotState::Handler, wire::stamp(now));
        let handler = self.handler;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            handler.handle(&mut Exchange::new(conn, stream, st, shared, slot))
        }))
        .ok();
        if outcome.is_none() {
            shared.counters.panicked();
        }
        let end = self.after_handler(&outcome);
        if shared.hooks.keeps_request() {
            let (stream, conn, st) = (&mut *self.stream, &mut *self.conn, &mut *self.st);
            if end.is_none() && shared.hooks.access_log.is_some() {
                // Written before it is logged (its bytes counted).
                let _ = st.flush(stream, conn, slot);
            }
            access_log(shared, conn, st, Some(&outcome));
        }
        end
    }

    /// The connection needs input: sends what is queued, then reads, with
    /// the connection's own deadline as the socket's timeout; `Some` ends
    /// the connection.
    fn need_input(&mut self) -> Option<End> {
        let (stream, conn, st, slot) =
            (&mut *self.stream, &mut *self.conn, &mut *self.st, self.slot);
        // Only a write of this flush may stand for the time now.
        st.write.take_last_write();
        self.read_at = None;
        if st.flush(stream, conn, slot).is_err() || self.eof {
            return Some(End::Close);
        }
        let (now, stamped) = st.write.take_last_write().unwrap_or_else(|| {
            let now = wire::read_clock();
            (now, wire::stamp(now))
        });
        // A response the connection queues on a deadline carries it.
        refresh_date(conn, self.shared, &mut self.date, now);
        let step = conn.next_read(stamped).step(
            |state| slot.enter(state, stamped),
            || self.shared.stopping.load(Ordering::SeqCst),
        );
        let (until, stage) = match step {
            ReadStep::Read { until, stage } => {
                if stage == Stage::Idle {
                    // What is written next (a `408`, a `400`) is a
                    // response of its own.
                    conn.restart_transfers();
                }
                (until, stage)
            }
            ReadStep::Stopped => return Some(End::Close),
            ReadStep::Other(NextRead::Expired(e)) => {
                return Some(self.own_error(OwnError::Expired(e)))
            }
            // `Linger`, and any a later `conn` adds.
            _ => return Some(End::Linger),
        };
        // From the stamped reading (`wire::instant(until) - now` in `Instant`s).
        let timeout = until.saturating_duration_since(stamped);
        match wire::fill(stream, conn, Some(timeout), &mut st.read_timeout, stage) {
            Ok(Filled::Bytes(_)) => {
                // Error responses the connection writes carry it too; the
                // first request these bytes bring begins at this reading.
                let after = wire::read_clock();
                refresh_date(conn, self.shared, &mut self.date, after);
                self.read_at = Some(after);
            }
            Ok(Filled::Eof) => self.eof = true,
            Ok(Filled::Full) => return Some(End::Close),
            // The accept loop evicted it (and shut its reading side).
            Err(Error::Timeout(_)) if slot.evicted().is_some() => {
                let e = conn.evict();
                if e.look_once {
                    // The read side is shut: the next read returns what
                    // had arrived, without waiting.
                    return None;
                }
                return Some(self.own_error(OwnError::Expired(e)));
            }
            // The socket's timeout ran out at the connection's deadline:
            // the connection carries out what expired.
            Err(Error::Timeout(_)) => {
                let now = wire::read_clock();
                refresh_date(conn, self.shared, &mut self.date, now);
                let e = conn.handle_timeout(wire::stamp(now).max(until))?;
                return Some(self.own_error(OwnError::Expired(e)));
            }
            Err(_) => return Some(End::Close),
        }
        None
    }

    /// Finishes what the handler left (`outcome` is `None` after a panic), as
    /// the core decides it ([`ServerHooks::handler_end`](http_net_conn::driver::ServerHooks::handler_end):
    /// the chosen answer, the mistake, reported here, and what follows); `Some`
    /// ends the connection. Whatever the handler queued (through [`Exchange`]
    /// or [`Exchange::conn`]) is sent: at once when the connection ends here,
    /// otherwise before the next read.
    fn after_handler(&mut self, outcome: &Option<Result<(), HandlerError>>) -> Option<End> {
        let (stream, conn, st, slot, shared) = (
            &mut *self.stream,
            &mut *self.conn,
            &mut *self.st,
            self.slot,
            self.shared,
        );
        let h = HandlerEnd {
            end: outcome,
            body_timed_out: st.timed_out,
            broken: st.broken,
            // Answered whole, the request is gone from the connection: the
            // copy the hooks keep, if any.
            kept: st.kept.get(),
            local_of: Error::local_of,
        };
        let now = || wire::stamp(wire::read_clock());
        let (next, mistake) =
            (shared.hooks).handler_end(conn, h, &shared.mistakes, now, hooks::catch);
        hooks::deliver(mistake);
        match next {
            AfterHandler::Next => None,
            AfterHandler::Linger => Some(self.send_and_linger()),
            AfterHandler::Truncated | AfterHandler::CloseAfterOutput => {
                if next == AfterHandler::Truncated {
                    shared.counters.unsent_body();
                }
                let _ = st.flush_due(stream, conn, slot);
                Some(End::Close)
            }
            // `Close`, and any action a later `conn` adds.
            _ => Some(End::Close),
        }
    }
}

/// Gives the connection the shared `Date` value when the second changed
/// (`now`: a clock reading just taken; the wall clock is read about once a
/// second, see [`DateClock`]).
fn refresh_date(conn: &mut ServerConn, shared: &Shared, date: &mut DateClock, now: Instant) {
    if let Some(second) = date.changed(now) {
        conn.set_date(&shared.date.get(second));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    /// Serves `requests` sent in one write (then the peer's end of
    /// stream) on this thread: the clock readings the connection took.
    fn readings_serving(requests: &[u8]) -> u64 {
        let (server, mut client) = std::os::unix::net::UnixStream::pair().unwrap();
        client.write_all(requests).unwrap();
        client.shutdown(Shutdown::Write).unwrap();
        readings_serving_on(server)
    }

    /// Serves the connection `server` on this thread, answering each
    /// request `200` with `ok`: the clock readings the connection took.
    fn readings_serving_on(mut server: std::os::unix::net::UnixStream) -> u64 {
        let settings = Settings::DEFAULT;
        let shared = Shared::new(&settings, Default::default());
        let mut home = None;
        let slot = shared.register(Handle::Interrupter(None), None, &mut home);
        let handler =
            |ex: &mut Exchange<'_>| -> Result<(), Error> { ex.respond_with(200, &[], b"ok") };
        let mut kept = KeptConn::default();
        let before = wire::READINGS.with(std::cell::Cell::get);
        run_on(
            &mut server,
            None,
            &settings,
            &shared,
            &slot,
            &handler,
            &mut kept,
        );
        wire::READINGS.with(std::cell::Cell::get) - before
    }

    #[test]
    fn a_pipelined_request_answered_in_its_wakeup_reads_no_clock() {
        let one = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        let alone = readings_serving(one);
        assert!(alone >= 1, "the read that brought it");
        let three = [&one[..], one, one].concat();
        assert_eq!(
            readings_serving(&three),
            alone,
            "two more requests, no more readings"
        );
    }

    /// Serves `n` requests that the peer sends one at a time, each after
    /// the answer to the last, then the peer's end of stream, on this
    /// thread: the clock readings the connection took.
    fn readings_serving_one_at_a_time(n: usize) -> u64 {
        let (server, mut client) = std::os::unix::net::UnixStream::pair().unwrap();
        let peer = std::thread::spawn(move || {
            let mut answer = [0u8; 256];
            for _ in 0..n {
                client
                    .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
                    .unwrap();
                let mut got = 0;
                while !answer[..got].ends_with(b"ok") {
                    let read = client.read(&mut answer[got..]).unwrap();
                    assert!(read > 0, "the server closed before answering");
                    got += read;
                }
            }
            client.shutdown(Shutdown::Write).unwrap();
        });
        let readings = readings_serving_on(server);
        peer.join().unwrap();
        readings
    }

    /// A blocking connection's wakeups are its thread's returns from
    /// what may block it: the connection handed to it, each read, the
    /// handler, each write. A request in a read of its own makes three
    /// (its read, its handler, its answer's write); the start and the read
    /// of the peer's end of stream one each. One clock reading at most for
    /// each (the close's drain takes the end of stream's).
    #[test]
    fn a_request_in_a_wakeup_of_its_own_costs_at_most_one_clock_reading_a_wakeup() {
        for n in [1, 5] {
            let readings = readings_serving_one_at_a_time(n);
            let wakeups = 3 * n as u64 + 2;
            assert!(
                readings <= wakeups,
                "{readings} clock readings over {wakeups} wakeups ({n} requests)"
            );
        }
    }

    #[test]
    fn a_connection_whose_output_grew_is_not_kept_for_the_next_peer() {
        let config = Settings::DEFAULT.conn;
        let mut kept = KeptConn::default();
        // A peer with one request: kept, buffers as new.
        let conn = kept.get(config);
        crate::settings::tests::pipelined_output(conn, 1);
        kept.keep_if_small();
        assert!(
            kept.conn.is_some(),
            "a connection that did not grow is kept"
        );
        // A pipeliner that reads nothing: its output grew past 16 KiB.
        let conn = kept.get(config);
        assert!(crate::settings::tests::pipelined_output(conn, 1000) > 16 * 1024);
        kept.keep_if_small();
        assert!(kept.conn.is_none(), "its buffers are freed, not kept");
        // The next peer gets a new connection.
        let conn = kept.get(config);
        assert_eq!(conn.phase(), http_net_conn::Phase::Idle);
        kept.keep_if_small();
        assert!(kept.conn.is_some());
    }
}
