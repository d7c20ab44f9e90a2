//! The attacking side: up to a few thousand sockets multiplexed on one
//! thread with mio (non-blocking, edge-triggered), so that the attack costs
//! the machine little CPU and the server gets its share. Sockets are opened
//! at most [`OPEN_RATE`] a second by default (`--open-rate`), from the
//! source addresses asked for in turn (`--source`; the TLS form's attacker
//! is on other loopback addresses than the well-behaved client's), with
//! small kernel buffers (so that a
//! non-reading peer cannot make the kernel hold megabytes per socket), and
//! closed with a reset at the end of the scenario (no `TIME_WAIT` left for
//! the next one).

use std::collections::{BTreeMap, VecDeque};
use std::io::{self, ErrorKind, Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};

use crate::scenario::Scenario;

/// New hostile connections per second, at most (every scenario), unless
/// `--open-rate` says otherwise.
pub const OPEN_RATE: u64 = 1000;
/// A slowloris sends one more byte of its head this often.
pub const SLOWLORIS_GAP: Duration = Duration::from_secs(1);
/// A slow body sends one more byte this often.
pub const SLOW_BODY_GAP: Duration = Duration::from_secs(5);
/// A connection the server closed is opened again this long after (the
/// `Retry-After: 1` of a `503`), so that the scenario measures its own
/// attack rather than a reconnect storm; the resets scenario, which closes
/// its own connections, reconnects at once (still within [`OPEN_RATE`]).
pub const RECONNECT_AFTER: Duration = Duration::from_secs(1);
/// A connect still pending after this is given up.
const CONNECT_LIMIT: Duration = Duration::from_secs(10);
/// A reset mid-head or mid-body comes this long after the partial send.
const RESET_AFTER: Duration = Duration::from_millis(50);
/// A reset mid-response waits at most this long for the response's start.
const RESET_LIMIT: Duration = Duration::from_secs(1);
/// The kernel buffers of each hostile socket.
const RECV_BUFFER: usize = 4096;
const SEND_BUFFER: usize = 16 * 1024;

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
const SLOW_HEAD: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slowloris: ";
const SLOW_BODY_HEAD: &[u8] =
    b"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n";
const CUT_HEAD: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Cut: mid-he";
const CUT_BODY_HEAD: &[u8] =
    b"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n";
/// Bytes of body sent before a reset mid-body.
const CUT_BODY_BYTES: usize = 4000;
/// Requests pipelined before a reset mid-response.
const CUT_RESPONSE_REQUESTS: usize = 100;

/// What the hostile side saw in one scenario.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Connections opened (connect started).
    pub opened: u64,
    /// Connects that failed (refused, or no port left) or timed out.
    pub connect_failed: u64,
    /// The most hostile connections open at once.
    pub peak_open: u64,
    /// The first response status on each connection that got one.
    pub statuses: BTreeMap<u16, u64>,
    /// Connections the server closed (end of stream) before any response.
    pub closed_unanswered: u64,
    /// Connections the server reset before any response.
    pub reset_unanswered: u64,
    /// Connections the server closed or reset after a response (or, for
    /// the pipeliner, which reads none, at all). The burst keeps its end
    /// of these open until the end of the scenario.
    pub closed_after: u64,
    /// How long the server held each connection it closed, at most.
    pub held_max: Duration,
    /// Resets this side sent (the resets and TLS hello-flood scenarios).
    pub resets_sent: u64,
    /// Connections whose first bytes from the server were a TLS handshake
    /// record (the answer to a whole ClientHello: a key exchange done).
    pub handshakes_answered: u64,
    /// At the end: connections open, of which connected with a request
    /// sent and no response byte yet, and connects still pending.
    pub open_at_end: u64,
    /// See [`Tally::open_at_end`].
    pub unanswered_at_end: u64,
    /// See [`Tally::open_at_end`].
    pub pending_at_end: u64,
}

impl Tally {
    /// One line for the report.
    pub fn line(&self) -> String {
        let statuses = self
            .statuses
            .iter()
            .map(|(s, n)| format!("{s}×{n}"))
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "opened {} (peak open {}, connect failed {}), first answers [{}], TLS handshakes answered {}, closed unanswered {}, reset unanswered {}, closed after {} (held up to {:.1} s), resets sent {}; at the end open {} (unanswered {}, connecting {})",
            self.opened,
            self.peak_open,
            self.connect_failed,
            if statuses.is_empty() { "none".into() } else { statuses },
            self.handshakes_answered,
            self.closed_unanswered,
            self.reset_unanswered,
            self.closed_after,
            self.held_max.as_secs_f64(),
            self.resets_sent,
            self.open_at_end,
            self.unanswered_at_end,
            self.pending_at_end,
        )
    }
}

/// One hostile connection.
struct Sock {
    stream: TcpStream,
    connected: bool,
    opened_at: Instant,
    /// When the next timed step is due (slow bytes, resets, connect limit).
    next_at: Instant,
    /// Bytes of this connection's script sent so far.
    sent: usize,
    /// The first bytes received (for the status), and whether any came.
    first: [u8; 12],
    first_len: usize,
    /// For the resets scenario: 0 mid-head, 1 mid-body, 2 mid-response.
    cut: u8,
}

impl Sock {
    fn answered(&self) -> bool {
        self.first_len > 0
    }
}

/// Why a connection ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// The server closed it (end of stream).
    Closed,
    /// The server reset it, or a write failed.
    Reset,
    /// This side reset it (resets scenario).
    Cut,
    /// The connect failed or took too long.
    ConnectFailed,
}

/// How an attack is made beyond its scenario and size.
#[derive(Clone, Debug)]
pub struct Means {
    /// New connections a second, at most.
    pub open_rate: u64,
    /// The addresses the hostile sockets are bound to, in turn (empty: the
    /// system's choice).
    pub sources: Vec<std::net::IpAddr>,
    /// The ClientHello record the TLS scenarios send (empty for the others).
    pub hello: Vec<u8>,
}

impl Default for Means {
    fn default() -> Means {
        Means {
            open_rate: OPEN_RATE,
            sources: Vec::new(),
            hello: Vec::new(),
        }
    }
}

/// Runs `scenario` with `connections` hostile sockets against `addr` for
/// `duration`, by `means`; every socket is closed before it returns.
pub fn run(
    addr: SocketAddr,
    scenario: Scenario,
    connections: usize,
    duration: Duration,
    means: &Means,
) -> io::Result<Tally> {
    let mut a = Attack {
        addr,
        sources: means.sources.clone(),
        scenario,
        poll: Poll::new()?,
        socks: Vec::new(),
        free: Vec::new(),
        open: 0,
        waiting: VecDeque::new(),
        seq: 0,
        tally: Tally::default(),
        scratch: vec![0u8; 16 * 1024],
        pipelined: GET.repeat(64),
        cut_response: GET.repeat(CUT_RESPONSE_REQUESTS),
        parked: Vec::new(),
        hello: means.hello.clone(),
    };
    let mut events = Events::with_capacity(1024);
    let start = Instant::now();
    let end = start + duration;
    let result = loop {
        let now = Instant::now();
        if now >= end {
            break Ok(());
        }
        // Open up to the target, at most `open_rate` a second (a burst of 10),
        // leaving out the connections waiting to reconnect.
        while a.waiting.front().is_some_and(|&t| t <= now) {
            a.waiting.pop_front();
        }
        let allowed = means.open_rate * now.duration_since(start).as_millis() as u64 / 1000 + 10;
        while a.open + a.waiting.len() < connections
            && a.tally.opened < allowed
            && (scenario.reconnects() || (a.tally.opened as usize) < connections)
        {
            a.open_one(now);
        }
        // Timed steps.
        for i in 0..a.socks.len() {
            let due = a.socks[i].as_ref().is_some_and(|s| s.next_at <= now);
            if due {
                if let Some(end) = a.timed(i, now) {
                    a.close(i, end, now);
                }
            }
        }
        if let Err(e) = a.poll.poll(&mut events, Some(Duration::from_millis(10))) {
            if e.kind() != ErrorKind::Interrupted {
                break Err(e);
            }
        }
        let now = Instant::now();
        for ev in events.iter() {
            let i = ev.token().0;
            if let Some(end) = a.event(
                i,
                ev.is_readable() || ev.is_read_closed() || ev.is_error(),
                ev.is_read_closed() || ev.is_error(),
                ev.is_writable() || ev.is_write_closed(),
                now,
            ) {
                a.close(i, end, now);
            }
        }
    };
    a.finish();
    result.map(|()| a.tally)
}

struct Attack {
    addr: SocketAddr,
    sources: Vec<std::net::IpAddr>,
    scenario: Scenario,
    poll: Poll,
    socks: Vec<Option<Sock>>,
    free: Vec<usize>,
    open: usize,
    /// When each connection closed so far may be opened again (in order).
    waiting: VecDeque<Instant>,
    seq: u64,
    tally: Tally,
    scratch: Vec<u8>,
    pipelined: Vec<u8>,
    cut_response: Vec<u8>,
    /// Burst connections the server closed, kept open on this side.
    parked: Vec<TcpStream>,
    /// The TLS scenarios' ClientHello record.
    hello: Vec<u8>,
}

impl Attack {
    fn open_one(&mut self, now: Instant) {
        self.tally.opened += 1;
        self.seq += 1;
        let source = match self.sources.len() {
            0 => None,
            n => Some(self.sources[(self.seq % n as u64) as usize]),
        };
        let mut stream = match connect(self.addr, source) {
            Ok(s) => s,
            Err(_) => {
                self.tally.connect_failed += 1;
                if self.scenario.reconnects() {
                    self.waiting.push_back(now + RECONNECT_AFTER);
                }
                return;
            }
        };
        let i = self.free.pop().unwrap_or_else(|| {
            self.socks.push(None);
            self.socks.len() - 1
        });
        if self
            .poll
            .registry()
            .register(
                &mut stream,
                Token(i),
                Interest::READABLE | Interest::WRITABLE,
            )
            .is_err()
        {
            self.tally.connect_failed += 1;
            self.free.push(i);
            return;
        }
        self.socks[i] = Some(Sock {
            stream,
            connected: false,
            opened_at: now,
            next_at: now + CONNECT_LIMIT,
            sent: 0,
            first: [0; 12],
            first_len: 0,
            cut: (self.seq % 3) as u8,
        });
        self.open += 1;
        self.tally.peak_open = self.tally.peak_open.max(self.open as u64);
    }

    /// A spread of `gap` for connection `seq`, so that timed sends do not
    /// all fall in the same tick.
    fn stagger(seq: u64, gap: Duration) -> Duration {
        gap * ((seq.wrapping_mul(7919) % 1000) as u32) / 1000
    }

    /// The connect completed: the script's first step.
    fn connected(&mut self, i: usize, now: Instant) -> Option<End> {
        let scenario = self.scenario;
        let seq = self.seq;
        let s = self.socks[i].as_mut()?;
        s.connected = true;
        s.next_at = now + Duration::from_secs(3600);
        match scenario {
            Scenario::IdleFlood | Scenario::Burst => send(s, GET).err(),
            Scenario::Slowloris => {
                s.next_at = now + Self::stagger(seq, SLOWLORIS_GAP);
                None
            }
            Scenario::SlowBody => {
                let r = send(s, SLOW_BODY_HEAD).err();
                s.next_at = now + Self::stagger(seq, SLOW_BODY_GAP);
                r
            }
            Scenario::Pipeliner => pipeline(s, &self.pipelined).err(),
            Scenario::Resets => {
                let r = match s.cut {
                    0 => send(s, CUT_HEAD),
                    1 => send(s, CUT_BODY_HEAD).and_then(|()| send_all(s, &[b'x'; CUT_BODY_BYTES])),
                    _ => send(s, &self.cut_response),
                };
                s.next_at = now + if s.cut == 2 { RESET_LIMIT } else { RESET_AFTER };
                r.err()
            }
            Scenario::TlsSilent => None,
            Scenario::TlsPartialHello => send(s, &self.hello[..self.hello.len() / 2]).err(),
            Scenario::TlsHelloFlood => send(s, &self.hello).err(),
        }
    }

    /// A timed step is due.
    fn timed(&mut self, i: usize, now: Instant) -> Option<End> {
        let s = self.socks[i].as_mut()?;
        if !s.connected {
            return Some(End::ConnectFailed);
        }
        match self.scenario {
            Scenario::Slowloris => {
                let byte = SLOW_HEAD.get(s.sent).copied().unwrap_or(b'a');
                s.next_at = now + SLOWLORIS_GAP;
                send_byte(s, byte).err()
            }
            Scenario::SlowBody => {
                s.next_at = now + SLOW_BODY_GAP;
                send_byte(s, b'x').err()
            }
            Scenario::Resets => Some(End::Cut),
            _ => {
                s.next_at = now + Duration::from_secs(3600);
                None
            }
        }
    }

    /// A readiness event.
    fn event(
        &mut self,
        i: usize,
        readable: bool,
        read_closed: bool,
        writable: bool,
        now: Instant,
    ) -> Option<End> {
        let s = self.socks.get_mut(i)?.as_mut()?;
        if !s.connected {
            if !writable && !readable {
                return None;
            }
            match s.stream.take_error() {
                Ok(Some(_)) | Err(_) => return Some(End::ConnectFailed),
                Ok(None) => {}
            }
            match s.stream.peer_addr() {
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::NotConnected => return None,
                Err(_) => return Some(End::ConnectFailed),
            }
            if let Some(end) = self.connected(i, now) {
                return Some(end);
            }
        }
        let s = self.socks[i].as_mut()?;
        if self.scenario == Scenario::Pipeliner {
            // It never reads: the server's close shows as the end of its
            // stream (`read_closed`), its reset as a failed write.
            if read_closed {
                return Some(End::Closed);
            }
            if writable {
                return pipeline(s, &self.pipelined).err();
            }
            return None;
        }
        if readable {
            loop {
                match s.stream.read(&mut self.scratch) {
                    Ok(0) => return Some(End::Closed),
                    Ok(n) => {
                        let take = n.min(s.first.len() - s.first_len);
                        s.first[s.first_len..s.first_len + take]
                            .copy_from_slice(&self.scratch[..take]);
                        s.first_len += take;
                        if self.scenario == Scenario::Resets && s.cut == 2 {
                            return Some(End::Cut);
                        }
                        if self.scenario == Scenario::TlsHelloFlood {
                            return Some(End::Cut);
                        }
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(_) => return Some(End::Reset),
                }
            }
        }
        None
    }

    fn close(&mut self, i: usize, end: End, now: Instant) {
        let Some(mut s) = self.socks.get_mut(i).and_then(Option::take) else {
            return;
        };
        self.free.push(i);
        self.open -= 1;
        // A flood of hellos comes back at once, answered or not.
        let at_once = matches!(end, End::Cut) || self.scenario == Scenario::TlsHelloFlood;
        if self.scenario.reconnects() && !at_once {
            self.waiting.push_back(now + RECONNECT_AFTER);
        }
        if s.first_len >= 12 {
            if let Some(status) = std::str::from_utf8(&s.first[9..12])
                .ok()
                .and_then(|t| t.parse::<u16>().ok())
            {
                *self.tally.statuses.entry(status).or_insert(0) += 1;
            }
        }
        if self.scenario.tls() && s.first[0] == 22 && s.first_len > 0 {
            self.tally.handshakes_answered += 1;
        }
        let answered = s.answered() || !self.scenario.reads();
        match end {
            End::ConnectFailed => self.tally.connect_failed += 1,
            End::Cut => self.tally.resets_sent += 1,
            End::Closed | End::Reset => {
                self.tally.held_max = self.tally.held_max.max(now - s.opened_at);
                match (answered, end) {
                    (true, _) => self.tally.closed_after += 1,
                    (false, End::Closed) => self.tally.closed_unanswered += 1,
                    (false, _) => self.tally.reset_unanswered += 1,
                }
            }
        }
        let _ = self.poll.registry().deregister(&mut s.stream);
        if self.scenario == Scenario::Burst && matches!(end, End::Closed) {
            // A burst's peer never closes: the socket stays open (the
            // server's side waits for our end of stream) until the end.
            self.parked.push(s.stream);
            return;
        }
        reset_on_close(&s.stream);
    }

    /// Counts what is still open and closes every socket with a reset.
    fn finish(&mut self) {
        for s in self.socks.iter_mut().filter_map(Option::take) {
            self.tally.open_at_end += 1;
            if !s.connected {
                self.tally.pending_at_end += 1;
            } else if s.first_len >= 12 {
                if let Some(status) = std::str::from_utf8(&s.first[9..12])
                    .ok()
                    .and_then(|t| t.parse::<u16>().ok())
                {
                    *self.tally.statuses.entry(status).or_insert(0) += 1;
                }
            } else if !s.answered()
                && self.scenario.reads()
                && matches!(self.scenario, Scenario::IdleFlood | Scenario::Burst)
            {
                self.tally.unanswered_at_end += 1;
            }
            reset_on_close(&s.stream);
        }
        self.open = 0;
        for stream in self.parked.drain(..) {
            reset_on_close(&stream);
        }
    }
}

/// Opens a non-blocking connection to `addr` (from `source`, when given)
/// with small kernel buffers.
fn connect(addr: SocketAddr, source: Option<std::net::IpAddr>) -> io::Result<TcpStream> {
    use rustix::net::{sockopt, AddressFamily, SocketFlags, SocketType};
    let family = if addr.is_ipv4() {
        AddressFamily::INET
    } else {
        AddressFamily::INET6
    };
    let fd = rustix::net::socket_with(
        family,
        SocketType::STREAM,
        SocketFlags::NONBLOCK | SocketFlags::CLOEXEC,
        None,
    )?;
    sockopt::set_socket_recv_buffer_size(&fd, RECV_BUFFER)?;
    sockopt::set_socket_send_buffer_size(&fd, SEND_BUFFER)?;
    if let Some(ip) = source {
        rustix::net::bind(&fd, &SocketAddr::new(ip, 0))?;
    }
    match rustix::net::connect(&fd, &addr) {
        Ok(()) | Err(rustix::io::Errno::INPROGRESS) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(TcpStream::from_std(std::net::TcpStream::from(fd)))
}

/// Makes the coming close a reset (SO_LINGER 0).
fn reset_on_close(stream: &TcpStream) {
    let _ = rustix::net::sockopt::set_socket_linger(stream, Some(Duration::ZERO));
}

/// Sends the rest of `script` (from `s.sent`) as far as the socket takes
/// it now.
fn send(s: &mut Sock, script: &[u8]) -> Result<(), End> {
    while s.sent < script.len() {
        match s.stream.write(&script[s.sent..]) {
            Ok(0) => return Err(End::Reset),
            Ok(n) => s.sent += n,
            Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return Err(End::Reset),
        }
    }
    Ok(())
}

/// Sends `bytes` after what was sent (small: fits the send buffer).
fn send_all(s: &mut Sock, bytes: &[u8]) -> Result<(), End> {
    match s.stream.write(bytes) {
        Ok(n) => {
            s.sent += n;
            Ok(())
        }
        Err(e) if e.kind() == ErrorKind::WouldBlock => Ok(()),
        Err(_) => Err(End::Reset),
    }
}

/// Sends one byte (a slow peer's next step).
fn send_byte(s: &mut Sock, byte: u8) -> Result<(), End> {
    match s.stream.write(&[byte]) {
        Ok(n) => {
            s.sent += n;
            Ok(())
        }
        Err(e) if e.kind() == ErrorKind::WouldBlock => Ok(()),
        Err(_) => Err(End::Reset),
    }
}

/// Writes pipelined `GET`s until the socket takes no more.
fn pipeline(s: &mut Sock, pipelined: &[u8]) -> Result<(), End> {
    loop {
        let at = s.sent % GET.len();
        match s.stream.write(&pipelined[at..]) {
            Ok(0) => return Err(End::Reset),
            Ok(n) => s.sent += n,
            Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return Err(End::Reset),
        }
    }
}

#[cfg(test)]
mod tests;
