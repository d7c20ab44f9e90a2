//! One server connection on its task: read → `poll_event` → handler → write,
//! with the deadline that fits the connection's phase.

use std::future::{poll_fn, Future};
use std::net::SocketAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use http_net_conn::driver::{
    AfterHandler, Begin, Expiry, HandlerEnd, KeptRequest, NextRead, OwnError, ReadStep,
    RequestPolicy, SlotState, Spent, Transfer,
};
use http_net_conn::{Error as ConnError, ServerConn, ServerEvent, Timestamp};
use tokio::io::AsyncWriteExt;

use crate::date::DateClock;
use crate::error::{Error, Stage};
use crate::exchange::{Cycle, Exchange};
use crate::handler::Handler;
use crate::hooks;
use crate::shared::{Shared, SlotGuard};
use crate::slot::Bell;
use crate::timer::{self, Timer, WakeClock};
use crate::wire::{self, Filled, Transport};

/// What an idle wait's deadline is: a timeout of [`Stage::Idle`].
const IDLE: Spent = wire::timeout(Stage::Idle);

/// How a connection ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Close at once (peer gone, idle timeout, broken stream, eviction).
    Close,
    /// Half-close, drain the peer's input for a bounded time, close.
    Linger,
}

/// Serves one connection until it ends.
pub(crate) async fn run<S: Transport, H: Handler>(
    mut stream: S,
    peer: Option<SocketAddr>,
    slot: SlotGuard,
    handler: Arc<H>,
) {
    let shared = Arc::clone(&slot.shared);
    let own = Arc::clone(&slot.slot);
    let conn_task = pin!(async {
        let s = &shared.settings;
        let mut conn = shared
            .conns
            .take(*shared.config.get().unwrap_or(&s.conn), s.wipe);
        let mut st = Cycle::new(peer, Arc::clone(&slot.slot));
        conn.set_timeouts(s.read_timeouts());
        conn.set_paces(s);
        let end = Serve {
            stream: &mut stream,
            conn: &mut conn,
            st: &mut st,
            sh: &shared,
            slot: &slot,
            handler: &*handler,
            date: DateClock::default(),
            requests: 0,
            policy: s.request_policy(),
            eof: false,
            seen: KeptRequest::new(peer),
            turn: 0,
        }
        .run()
        .await;
        shared
            .counters
            .ended(conn.timed_out_in(), slot.slot.evicted());
        // Its state machine and buffers serve the next connection, unless
        // they grew (the core's rule).
        if conn.buffers_kept() {
            shared.conns.put(conn, &shared.buffers);
        }
        // An evicted connection gives its place up at once: its 503 (if any) is
        // sent, but it is not drained.
        if end == End::Linger && !slot.slot.evicted() {
            slot.set(SlotState::Closing);
            // Evicted, or the server stopping: a stop ends a linger at once.
            let stop = || slot.slot.evicted() || shared.stopping();
            let wake = Some((&slot.slot.wake, &stop as &(dyn Fn() -> bool + Sync)));
            let linger = s.linger(own.clock.stamp());
            wire::linger(&mut stream, linger, wake).await;
        }
    });
    // Every wakeup of this task reads the clock at most once.
    timer::per_wakeup(&own.clock, conn_task).await;
}

/// Requests a connection serves in one turn of its task when they come
/// without a wait (pipelined, already in its buffer): then it yields to the
/// other tasks. A turn costs a few tens of microseconds, so that on one
/// thread 1,024 connections pipelining without end hold up a new
/// connection for one round of them (about 1,024 turns) and not 8 times
/// that. A connection that waits for its peer between requests (the usual
/// case, pipelined or not) never reaches it.
pub(crate) const TURN: u32 = 16;

/// Yields to the other tasks between two pipelined requests. While it waits
/// for its turn the connection is between requests and the first to evict
/// (idle, as eviction sees it); `false` if it was evicted meanwhile.
async fn take_turn(slot: &SlotGuard) -> bool {
    slot.set(SlotState::Idle);
    tokio::task::yield_now().await;
    !slot.slot.evicted()
}

/// Polls the handler's future (pinned where the connection's loop made
/// it: not moved into a future of its own), turning a panic into `None`.
pub(crate) fn catch<F: Future + ?Sized>(
    mut fut: Pin<&mut F>,
) -> impl Future<Output = Option<F::Output>> + '_ {
    poll_fn(
        move |cx| match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Some(v)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_) => Poll::Ready(None),
        },
    )
}

/// Sends what the connection queued, within the responses' pace (the
/// connection's), watched through the cycle's slot (a write waiting on the
/// peer can be evicted). A plain function returning `flush_with`'s future, not an
/// `async fn`: no state machine of its own on the per-request path.
fn flush_queued<'a>(
    stream: &'a mut dyn Transport,
    conn: &'a mut ServerConn,
    st: &'a mut Cycle,
) -> impl Future<Output = Result<(), Error>> + 'a {
    wire::flush_with(stream, conn, &[], &mut st.timer, st.slot.as_deref())
}

/// Sends what the connection queued (an error response), then lingers.
async fn send_and_linger(stream: &mut dyn Transport, conn: &mut ServerConn, st: &mut Cycle) -> End {
    match flush_queued(stream, conn, st).await {
        Ok(()) => End::Linger,
        Err(_) => End::Close,
    }
}

/// One connection's serve loop and what it carries between requests.
struct Serve<'a, H> {
    stream: &'a mut dyn Transport,
    conn: &'a mut ServerConn,
    st: &'a mut Cycle,
    sh: &'a Shared,
    slot: &'a SlotGuard,
    handler: &'a H,
    date: DateClock,
    requests: u64,
    policy: RequestPolicy,
    eof: bool,
    seen: KeptRequest,
    /// Requests served since the task last waited on its peer or yielded.
    turn: u32,
}

impl<H: Handler> Serve<'_, H> {
    /// The loop: what the connection's next event asks, until it ends.
    async fn run(&mut self) -> End {
        loop {
            self.date.refresh(self.conn, self.sh.date_secs());
            let end = match self.conn.poll_event() {
                Ok(ServerEvent::Request(view)) => {
                    if self.sh.hooks.keeps_request() {
                        self.seen.keep(&self.sh.hooks, &view);
                        self.seen.set_started(self.slot.slot.clock.stamp());
                    }
                    self.request().await
                }
                // The rest of a body the handler did not read: the
                // connection drains it (up to its bound) before the next
                // request.
                Ok(ServerEvent::Data(_) | ServerEvent::End(_)) => None,
                // The connection needs input: sends what is queued, then
                // reads until the connection's own deadline (the task's one
                // timer). Awaited here, not in a method of its own: a read
                // costs no future of its own on the way.
                Ok(ServerEvent::NeedInput) => 'read: {
                    if flush_queued(self.stream, self.conn, self.st).await.is_err() {
                        break 'read Some(End::Close);
                    }
                    if self.eof {
                        break 'read Some(End::Close);
                    }
                    let (deadline, stage) = match self.next_wait() {
                        Ok(wait) => wait,
                        Err(Ok(end)) => break 'read Some(end),
                        Err(Err(e)) => {
                            break 'read Some(self.own_error(OwnError::Expired(e)).await)
                        }
                    };
                    let (sh, slot) = (self.sh, self.slot);
                    let wake = Some(&slot.slot.wake);
                    let wakeups = slot.slot.clock.wakeups();
                    let (stream, conn, st) = (&mut *self.stream, &mut *self.conn, &mut *self.st);
                    let filled = if stage == Stage::Idle {
                        let clock = &slot.slot.clock;
                        let idle = Idle { clock, deadline };
                        idle_fill(stream, conn, sh, &mut st.timer, idle, wake).await
                    } else {
                        wire::fill(
                            stream,
                            conn,
                            &mut st.timer,
                            deadline,
                            wire::timeout(stage),
                            wake,
                        )
                        .await
                    };
                    if slot.slot.clock.wakeups() != wakeups {
                        // The task went back to the scheduler: a new turn.
                        self.turn = 0;
                    }
                    match self.filled(filled, deadline) {
                        Ok(end) => end,
                        Err(Some(e)) => Some(self.own_error(OwnError::Expired(e)).await),
                        Err(None) => self.evicted().await,
                    }
                }
                // The handler's answer waits for its output to leave: sent
                // (paused with nothing to send, the answer is incomplete).
                Ok(ServerEvent::Paused) => (self.conn.output().is_empty()
                    || flush_queued(self.stream, self.conn, self.st).await.is_err())
                .then_some(End::Close),
                Ok(ServerEvent::Switched(_)) => Some(End::Close),
                // The response that ended the connection: send it, then
                // half-close and drain.
                Ok(ServerEvent::Closed) => {
                    Some(send_and_linger(self.stream, self.conn, self.st).await)
                }
                Err(ConnError::Remote(e)) => Some(self.own_error(OwnError::Peer(e)).await),
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

    /// A request's head is whole: begins it, runs the handler, carries
    /// out what follows; `Some` ends the connection.
    async fn request(&mut self) -> Option<End> {
        let (sh, slot) = (self.sh, self.slot);
        self.turn += 1;
        if self.turn > TURN {
            self.turn = 1;
            if !take_turn(slot).await {
                return Some(End::Close);
            }
        }
        slot.set(SlotState::Handler);
        slot.slot.body.reset();
        let stopping = sh.stopping();
        let begin = self
            .conn
            .begin_request(self.requests, stopping, &self.policy);
        self.requests += 1;
        match begin {
            Ok(Begin::Handle) => {}
            // `CONNECT` without tunnels: conn queued `501` and the
            // connection is `Closed`.
            Ok(_) => return Some(self.own_error(OwnError::Connect).await),
            Err(_) => return Some(End::Close),
        }
        let (stream, conn, st, seen) = (
            &mut *self.stream,
            &mut *self.conn,
            &mut *self.st,
            &mut self.seen,
        );
        st.reset();
        // The whole-response deadline, if any, from this wakeup.
        conn.start_transfers(|| slot.slot.clock.stamp());
        let outcome = {
            let mut ex = Exchange::new(conn, stream, st, sh);
            let fut = pin!(self.handler.handle(&mut ex));
            catch(fut).await
        };
        if outcome.is_none() {
            sh.counters.panicked();
        }
        let h = HandlerEnd {
            end: &outcome,
            body_timed_out: st.timed_out,
            broken: st.broken,
            kept: seen.get(),
            local_of: Error::local_of,
        };
        let now = || wire::stamp(crate::timer::read_clock());
        let (next, mistake) = sh
            .hooks
            .handler_end(conn, h, &sh.mistakes, now, hooks::catch);
        hooks::deliver(mistake);
        let mut end = match next {
            // The usual case, with no future of its own.
            AfterHandler::Next => None,
            _ => after_handler(stream, conn, st, sh, next).await,
        };
        // Written before it is logged (its bytes counted).
        if sh.hooks.access_log.is_some()
            && end.is_none()
            && flush_queued(stream, conn, st).await.is_err()
        {
            end = Some(End::Close);
        }
        let bytes = conn.transfer(Transfer::Response).bytes();
        (sh.hooks).access_log(conn, seen, bytes, Some(&outcome), now, hooks::catch);
        end
    }

    /// The wait before the next read, from the connection's deadlines: its
    /// end and stage, or how the connection ends (`Err(Err)`: an expiry to
    /// carry out).
    fn next_wait(&mut self) -> Result<(Timestamp, Stage), Result<End, Expiry>> {
        let (sh, slot) = (self.sh, self.slot);
        let now = slot.slot.clock.stamp();
        // The slot is marked before the stop is looked at: a shutdown
        // after the mark wakes us, one before it is seen.
        let step = self
            .conn
            .next_read(now)
            .step(|state| slot.set_at(state, now), || sh.stopping());
        match step {
            ReadStep::Read { until, stage } => Ok((until, stage)),
            ReadStep::Stopped => Err(Ok(End::Close)),
            ReadStep::Other(NextRead::Expired(e)) => Err(Err(e)),
            // `Linger`, and any a later `conn` adds.
            _ => Err(Ok(End::Linger)),
        }
    }

    /// What a read brought: `Ok(Some)` ends the connection, `Err(Some)` is
    /// an expiry to carry out, `Err(None)` an eviction seen while it
    /// waited.
    fn filled(
        &mut self,
        filled: Result<Filled, Error>,
        deadline: Timestamp,
    ) -> Result<Option<End>, Option<Expiry>> {
        match filled {
            // The first bytes of a request: its head deadline starts at
            // the first wait for the rest (`poll_timeout` of the next
            // turn), so that a head that came whole reads no clock.
            Ok(Filled::Bytes(_)) => Ok(None),
            Ok(Filled::Eof) => {
                self.eof = true;
                Ok(None)
            }
            Ok(Filled::Full) => Ok(Some(End::Close)),
            Ok(Filled::Woken) if self.slot.slot.evicted() => Err(None),
            // Shutdown (seen at the top when idle or draining), or a stale
            // wake.
            Ok(Filled::Woken) => Ok(None),
            // The timer ran out at the connection's deadline: the
            // connection carries out what expired (`None`: not yet, go
            // round).
            Err(Error::Timeout(_)) => {
                self.date.refresh(self.conn, self.sh.date_secs());
                let at = self.slot.slot.clock.stamp().max(deadline);
                self.conn
                    .handle_timeout(at)
                    .map_or(Ok(None), |e| Err(Some(e)))
            }
            Err(_) => Ok(Some(End::Close)),
        }
    }
    /// The accept loop evicted the connection while it waited: the
    /// connection says what follows ([`ServerConn::evict`]).
    async fn evicted(&mut self) -> Option<End> {
        self.date.refresh(self.conn, self.sh.date_secs());
        let e = self.conn.evict();
        if e.look_once {
            // What had arrived may be in the socket with the reactor not
            // having reported it yet: look after a turn; a request that
            // came is answered (its answer the last), then the eviction
            // closes.
            tokio::task::yield_now().await;
            let n = wire::fill_now(self.stream, self.conn).unwrap_or(0);
            return (n == 0).then_some(End::Close);
        }
        Some(self.own_error(OwnError::Expired(e)).await)
    }

    /// Sends the error response the connection queued itself for `why`
    /// (as the core readies it: [`ServerHooks::own_error`](http_net_conn::driver::ServerHooks::own_error)),
    /// then lingers; the access log is told, with the bytes sent for it.
    async fn own_error(&mut self, why: OwnError) -> End {
        let (stream, conn, st, own) = (
            &mut *self.stream,
            &mut *self.conn,
            &mut *self.st,
            &self.sh.hooks,
        );
        let clock = &self.slot.slot.clock;
        let Some(told) = own.own_error(conn, &mut self.seen, why, || clock.stamp(), hooks::catch)
        else {
            return End::Close;
        };
        let queued = conn.output().len() as u64;
        let end = send_and_linger(stream, conn, st).await;
        if told {
            let sent = if end == End::Linger { queued } else { 0 };
            let now = || wire::stamp(crate::timer::read_clock());
            own.access_log(conn, &mut self.seen, sent, None, now, hooks::catch);
        }
        end
    }
}

/// Bytes of the next request read while the connection's buffers are lent:
/// enough to see that the peer sent something, small because the task
/// holds it for as long as it is idle.
const SCRATCH: usize = 16;

/// One idle wait, as [`idle_fill`] sees it.
struct Idle<'a> {
    /// The connection's clock (one reading per wakeup).
    clock: &'a WakeClock,
    /// When the idle timeout ends it.
    deadline: Timestamp,
}

/// Waits for the next request on an idle connection as [`wire::fill`] does,
/// with the connection's buffers lent to the server's pool meanwhile, so
/// that an idle keep-alive connection holds its state alone, from when the
/// core says ([`ServerConn::buffers_idle_at`]: a peer that came back
/// quickly last time gets a grace with the buffers held, read straight
/// into them); bytes already there (pipelined requests) are
/// read with the buffers held; otherwise the first bytes land in a small
/// scratch buffer, the connection takes buffers from the pool (or new
/// ones), and the rest is read at once.
async fn idle_fill(
    stream: &mut dyn Transport,
    conn: &mut ServerConn,
    sh: &Shared,
    timer: &mut Timer,
    idle: Idle<'_>,
    wake: Option<&Bell>,
) -> Result<Filled, Error> {
    let deadline = idle.deadline;
    if !conn.buffers_lent() {
        let now = idle.clock.stamp();
        let lend_at = conn.buffers_idle_at().unwrap_or(now);
        if now < lend_at && lend_at < deadline {
            match wire::fill(stream, conn, timer, lend_at, IDLE, wake).await {
                // Not within the grace: lend the buffers, as below.
                Err(Error::Timeout(Stage::Idle)) => {}
                r => {
                    conn.idle_ended(idle.clock.stamp());
                    return r;
                }
            }
        } else if let Some(n) = wire::fill_now(stream, conn) {
            return Ok(if n == 0 {
                Filled::Eof
            } else {
                Filled::Bytes(n)
            });
        }
        // Buffers that grew are freed rather than pooled (the core's rule).
        let kept = conn.buffers_kept();
        match conn.take_buffers() {
            Some(lent) if kept => sh.buffers.put(lent),
            Some(_) => {}
            None => return wire::fill(stream, conn, timer, deadline, IDLE, wake).await,
        }
    }
    let mut scratch = [0u8; SCRATCH];
    let r = wire::read_scratch(stream, &mut scratch, timer, deadline, Stage::Idle, wake).await;
    match r {
        Ok(Filled::Bytes(n)) => {
            // This wakeup's reading: the peer came back within the grace?
            conn.idle_ended(idle.clock.stamp());
            restore(conn, sh);
            let taken = conn.recv(&scratch[..n]);
            debug_assert_eq!(taken, n, "a restored idle connection takes a whole scratch");
            let more = wire::fill_now(stream, conn).unwrap_or(0);
            Ok(Filled::Bytes(n + more))
        }
        Ok(Filled::Eof) => {
            conn.recv_eof();
            Ok(Filled::Eof)
        }
        Ok(Filled::Woken) => {
            // An eviction looks once more for a request, a shutdown or a
            // stale wake goes round again: both with buffers.
            restore(conn, sh);
            Ok(Filled::Woken)
        }
        // The connection closes: it needs no buffers.
        r => r,
    }
}

/// Gives a connection whose buffers are lent some from the pool.
fn restore(conn: &mut ServerConn, sh: &Shared) {
    if conn.buffers_lent() {
        let b = sh.buffers.take(conn.config());
        if let Err(b) = conn.restore_buffers(b) {
            sh.buffers.put(b);
        }
    }
}

/// Carries out what follows the handler, as the core decided it
/// ([`ServerHooks::handler_end`](http_net_conn::driver::ServerHooks::handler_end));
/// `Some` ends the connection. Whatever the handler queued (through
/// [`Exchange`] or [`Exchange::conn`]) is sent: at once when the
/// connection ends here, otherwise before the next read.
async fn after_handler(
    stream: &mut dyn Transport,
    conn: &mut ServerConn,
    st: &mut Cycle,
    sh: &Shared,
    next: AfterHandler,
) -> Option<End> {
    match next {
        AfterHandler::Next => None,
        AfterHandler::Linger => Some(send_and_linger(stream, conn, st).await),
        // The output due before the close: up to a body the handler owes
        // (nothing past it), or all that is queued.
        AfterHandler::Truncated | AfterHandler::CloseAfterOutput => {
            if next == AfterHandler::Truncated {
                sh.counters.unsent_body();
            }
            if conn.body_owed().is_some() {
                send_until_owed(stream, conn, st).await;
            } else {
                let _ = flush_queued(stream, conn, st).await;
            }
            Some(End::Close)
        }
        // `Close`, and any action a later `conn` adds.
        _ => Some(End::Close),
    }
}

/// Sends the output queued before a body the handler left unsent
/// ([`ServerConn::body_owed`]), and nothing past it (what follows belongs
/// after the missing bytes): each write bounded by the responses' pace
/// and counted in it (the connection's). A failed or timed-out write ends it;
/// the connection closes either way.
async fn send_until_owed(stream: &mut dyn Transport, conn: &mut ServerConn, st: &mut Cycle) {
    let mut wrote = false;
    while conn.body_owed().is_some() {
        let out = conn.output();
        if out.is_empty() {
            break;
        }
        let now = st.now();
        let until = conn.transfer_until(Transfer::Response, now, now).0;
        match wire::bounded(wire::instant(until), stream.write(out)).await {
            Some(Ok(n)) if n > 0 => {
                conn.transfer_moved(Transfer::Response, Duration::ZERO, n as u64);
                conn.consume_output(n);
                wrote = true;
            }
            Some(Err(e)) if e.kind() == std::io::ErrorKind::Interrupted => {}
            _ => return,
        }
    }
    if wrote {
        let now = st.now();
        let until = conn.transfer_until(Transfer::Response, now, now).0;
        let _ = wire::bounded(wire::instant(until), stream.flush()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::Settings;
    use http_net_conn::driver::IDLE_GRACE;
    use http_net_conn::{Config, HandlerError, Placement, PreparedResponse};

    use tokio::io::{AsyncWriteExt, DuplexStream};

    fn idle_conn() -> ServerConn {
        let mut conn = ServerConn::new(Config::DEFAULT);
        assert_eq!(
            conn.recv(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
            b"GET / HTTP/1.1\r\nHost: a\r\n\r\n".len()
        );
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
        let ok = PreparedResponse::new(204, &[]).unwrap();
        assert_eq!(
            conn.responder().respond(&ok, b"").unwrap(),
            Placement::Queued
        );
        let n = conn.output().len();
        conn.consume_output(n);
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
        conn
    }

    /// The server's state, the two ends of a duplex, an [`idle_conn`] for
    /// the server end, and a read deadline 5 s away.
    fn idle_on_duplex() -> (Shared, DuplexStream, DuplexStream, ServerConn, Timestamp) {
        let (server, client) = tokio::io::duplex(4096);
        let deadline = wire::stamp(tokio::time::Instant::now())
            .saturating_add(std::time::Duration::from_secs(5));
        (
            Shared::new(Settings::DEFAULT, crate::hooks::Hooks::default()),
            server,
            client,
            idle_conn(),
            deadline,
        )
    }

    /// An idle wait of `conn` starting now, until `deadline`, its peer
    /// quick to come back last time or not.
    fn idle_wait<'a>(
        clock: &'a WakeClock,
        deadline: Timestamp,
        conn: &mut ServerConn,
        quick: bool,
    ) -> Idle<'a> {
        let now = clock.stamp();
        let _ = conn.poll_timeout(now);
        if !quick {
            conn.idle_ended(now.saturating_add(std::time::Duration::from_secs(1)));
        }
        Idle { clock, deadline }
    }

    /// Polls `fut` once: whether it is still pending.
    async fn pending<F: Future>(fut: Pin<&mut F>) -> bool {
        let mut fut = fut;
        poll_fn(|cx| Poll::Ready(fut.as_mut().poll(cx).is_pending())).await
    }

    /// A handler that answers `ok`.
    struct Ok2;

    impl Handler for Ok2 {
        async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
            ex.respond_with(200, &[], b"ok").await?;
            Ok(())
        }
    }

    /// Serves `requests` sent in one write (then the peer's end of
    /// stream) on a connection of its own: the clock readings its task
    /// took, and its wakeups.
    fn readings_serving(requests: &[u8]) -> (u64, u32) {
        let mut result = (0, 0);
        run(async {
            let shared = Arc::new(Shared::new(
                Settings::DEFAULT,
                crate::hooks::Hooks::default(),
            ));
            let slot = Arc::new(crate::slot::Slot::new(0, Timestamp::from_nanos(0)));
            let guard = SlotGuard {
                shared,
                slot: Arc::clone(&slot),
            };
            let (server, mut client) = tokio::io::duplex(1 << 16);
            client.write_all(requests).await.unwrap();
            client.shutdown().await.unwrap();
            let before = crate::timer::READINGS.with(std::cell::Cell::get);
            super::run(server, None, guard, Arc::new(Ok2)).await;
            let after = crate::timer::READINGS.with(std::cell::Cell::get);
            result = (after - before, slot.clock.wakeups());
        });
        result
    }

    #[test]
    fn a_pipelined_request_answered_in_its_wakeup_reads_no_clock() {
        let one = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        let (alone, wakeups) = readings_serving(one);
        assert!(alone >= 1, "the wait for the peer reads the clock");
        assert!(
            alone <= u64::from(wakeups),
            "{alone} readings, {wakeups} wakeups"
        );
        let three = [&one[..], one, one].concat();
        let (pipelined, wakeups) = readings_serving(&three);
        assert_eq!(pipelined, alone, "two more requests, no more readings");
        assert!(
            pipelined <= u64::from(wakeups),
            "{pipelined} readings, {wakeups} wakeups"
        );
    }

    #[test]
    fn a_peer_back_within_the_grace_is_read_without_lending() {
        run(async {
            let (sh, mut server, mut client, mut conn, deadline) = idle_on_duplex();
            let (mut timer, clock) = (Timer::default(), WakeClock::default());
            let filled = {
                let idle = idle_wait(&clock, deadline, &mut conn, true);
                let wait = idle_fill(&mut server, &mut conn, &sh, &mut timer, idle, None);
                let mut wait = pin!(wait);
                assert!(pending(wait.as_mut()).await);
                assert_eq!(sh.buffers.len(), 0, "held for the grace");
                client
                    .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
                    .await
                    .unwrap();
                wait.await.unwrap()
            };
            assert_eq!(filled, Filled::Bytes(27));
            let grace = clock.stamp().saturating_add(IDLE_GRACE);
            assert_eq!(conn.buffers_idle_at(), Some(grace), "still quick");
            assert_eq!(sh.buffers.len(), 0, "never lent");
            assert!(!conn.buffers_lent());
        });
    }

    #[test]
    fn a_peer_slower_than_the_grace_gets_its_buffers_lent_then_lends_at_once() {
        run(async {
            let (sh, mut server, mut client, mut conn, deadline) = idle_on_duplex();
            let (mut timer, clock) = (Timer::default(), WakeClock::default());
            let filled = {
                let idle = idle_wait(&clock, deadline, &mut conn, true);
                let wait = idle_fill(&mut server, &mut conn, &sh, &mut timer, idle, None);
                let mut wait = pin!(wait);
                assert!(pending(wait.as_mut()).await);
                assert_eq!(sh.buffers.len(), 0, "held for the grace");
                // Past the grace (and the timer's tick): lent.
                let later = tokio::time::sleep(IDLE_GRACE * 20);
                let mut later = pin!(later);
                while pending(later.as_mut()).await {
                    assert!(pending(wait.as_mut()).await);
                    tokio::task::yield_now().await;
                }
                assert!(pending(wait.as_mut()).await);
                assert_eq!(sh.buffers.len(), 1, "lent after the grace");
                client
                    .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
                    .await
                    .unwrap();
                // The wakeup that brings the bytes reads the clock anew.
                let since = clock.stamp();
                clock.forget();
                (wait.await.unwrap(), since)
            };
            let (filled, since) = filled;
            assert_eq!(filled, Filled::Bytes(27));
            assert_eq!(
                conn.buffers_idle_at(),
                Some(since),
                "came back after the grace: the next wait lends at once"
            );
            assert_eq!(sh.buffers.len(), 0, "taken back to read");
        });
    }

    /// Runs `f` on a current-thread runtime.
    fn run(f: impl Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(f);
    }

    #[test]
    fn an_idle_connection_lends_its_buffers_while_it_waits_then_reads_the_whole_request() {
        run(async {
            let (sh, mut server, mut client, mut conn, deadline) = idle_on_duplex();
            let req = b"GET /a-target-longer-than-the-scratch HTTP/1.1\r\nHost: a\r\n\r\n";
            let filled = {
                let (mut timer, clock) = (Timer::default(), WakeClock::default());
                let idle = idle_wait(&clock, deadline, &mut conn, false);
                let wait = idle_fill(&mut server, &mut conn, &sh, &mut timer, idle, None);
                let mut wait = pin!(wait);
                // Nothing sent yet: the wait is pending, the buffers in the pool.
                assert!(poll_fn(|cx| Poll::Ready(wait.as_mut().poll(cx).is_pending())).await);
                assert_eq!(sh.buffers.len(), 1, "lent while idle");
                client.write_all(req).await.unwrap();
                wait.await.unwrap()
            };
            assert_eq!(filled, Filled::Bytes(req.len()), "scratch and the rest");
            assert_eq!(sh.buffers.len(), 0, "taken back to read");
            assert!(!conn.buffers_lent());
            match conn.poll_event() {
                Ok(ServerEvent::Request(v)) => {
                    assert_eq!(v.target(), b"/a-target-longer-than-the-scratch");
                }
                e => panic!("{e:?}"),
            }
        });
    }

    #[test]
    fn an_idle_connection_whose_output_grew_frees_its_buffers_rather_than_pool_them() {
        run(async {
            let (sh, mut server, _client, _, deadline) = idle_on_duplex();
            let mut conn = ServerConn::new(Config::DEFAULT);
            // A peer pipelining requests without reading the answers:
            // answered until the output's high water pauses the connection.
            let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
            let ok = PreparedResponse::new(200, &[]).unwrap();
            'feed: for _ in 0..1000 {
                assert_eq!(conn.recv(req), req.len());
                loop {
                    match conn.poll_event() {
                        Ok(ServerEvent::Request(_)) => {
                            let _ = conn.responder().respond(&ok, &[b'x'; 1000]);
                        }
                        Ok(ServerEvent::NeedInput) => break,
                        _ => break 'feed,
                    }
                }
            }
            let n = conn.output().len();
            conn.consume_output(n);
            assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
            assert!(!conn.buffers_kept(), "the output grew");
            let (mut timer, clock) = (Timer::default(), WakeClock::default());
            let idle = idle_wait(&clock, deadline, &mut conn, false);
            let wait = idle_fill(&mut server, &mut conn, &sh, &mut timer, idle, None);
            assert!(pending(pin!(wait)).await);
            assert!(conn.buffers_lent(), "given up while idle");
            assert_eq!(sh.buffers.len(), 0, "freed, not pooled");
        });
    }

    #[test]
    fn a_pipelined_request_already_there_is_read_without_lending() {
        run(async {
            let (sh, mut server, mut client, mut conn, deadline) = idle_on_duplex();
            client
                .write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
                .await
                .unwrap();
            let (mut timer, clock) = (Timer::default(), WakeClock::default());
            let idle = idle_wait(&clock, deadline, &mut conn, false);
            let filled = idle_fill(&mut server, &mut conn, &sh, &mut timer, idle, None).await;
            assert_eq!(filled.unwrap(), Filled::Bytes(27));
            assert_eq!(sh.buffers.len(), 0);
            assert!(!conn.buffers_lent());
        });
    }
}
