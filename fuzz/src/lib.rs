//! Helpers shared by the fuzz targets: a small deterministic generator fed
//! by the input's control bytes, split sizes, and drivers that run a server
//! or client connection over an input and log what it saw (so that feeding
//! the same bytes whole and in random splits can be compared).

use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, Error, Placement, PreparedResponse, ServerConn,
    ServerEvent,
};

/// Iterations of a drive loop before it is declared stuck (a livelock is a
/// finding, like a panic).
pub const MAX_STEPS: usize = 100_000;

/// A xorshift generator seeded from control bytes.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeded from `seed` (any bytes).
    pub fn new(seed: &[u8]) -> Rng {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for &b in seed {
            s = (s ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        Rng(s | 1)
    }

    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A value in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Splits `data` into pieces of random sizes: mostly small (1 to 16 bytes),
/// sometimes large, so that every state of a parser meets a boundary.
pub fn split<'a>(data: &'a [u8], rng: &mut Rng) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let n = match rng.below(8) {
            0 => 1 + rng.below(4096),
            1 => 1,
            _ => 1 + rng.below(16),
        }
        .min(rest.len());
        let (a, b) = rest.split_at(n);
        out.push(a);
        rest = b;
    }
    out
}

/// What a connection did, in a form that does not depend on how its input
/// was split: data is coalesced, outputs concatenated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    /// Events, data coalesced.
    pub events: Vec<Ev>,
    /// Every byte the connection asked to send.
    pub output: Vec<u8>,
}

/// One logged event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ev {
    /// A request head: method, target, fields.
    Request(Vec<u8>, Vec<u8>, Vec<(Vec<u8>, Vec<u8>)>),
    /// A final or informational response head: status, reason, fields.
    Response(u16, Vec<u8>, Vec<(Vec<u8>, Vec<u8>)>),
    /// Body bytes (consecutive `Data` events coalesced).
    Data(Vec<u8>),
    /// End of a message, with its trailers.
    End(Vec<(Vec<u8>, Vec<u8>)>),
    /// The connection switched protocols (bytes not compared: how many were
    /// buffered depends on the split).
    Switched,
    /// The connection closed.
    Closed,
    /// An error: the `Debug` form and the status.
    Error(String),
}

impl Log {
    fn push(&mut self, ev: Ev) {
        if let (Ev::Data(more), Some(Ev::Data(d))) = (&ev, self.events.last_mut()) {
            d.extend_from_slice(more);
            return;
        }
        if let Ev::Data(d) = &ev {
            if d.is_empty() {
                return;
            }
        }
        self.events.push(ev);
    }
}

fn pairs<'a>(it: impl Iterator<Item = (&'a [u8], &'a [u8])>) -> Vec<(Vec<u8>, Vec<u8>)> {
    it.map(|(n, v)| (n.to_vec(), v.to_vec())).collect()
}

/// How the fuzzed server answers each request: chosen by the control byte.
#[derive(Clone, Copy, Debug)]
pub enum Answer {
    /// A prebuilt response with a small body.
    Prebuilt,
    /// `send_head` with a known length, then the data, then the end.
    Known,
    /// A streamed (chunked) body with a trailer.
    Streamed,
    /// `100 Continue` first (when expected), then a 204.
    ContinueThenEmpty,
}

impl Answer {
    /// From a control byte.
    pub fn from_byte(b: u8) -> Answer {
        match b % 4 {
            0 => Answer::Prebuilt,
            1 => Answer::Known,
            2 => Answer::Streamed,
            _ => Answer::ContinueThenEmpty,
        }
    }
}

/// [`run_server`] without the end of input, answering with [`Answer::Known`]
/// (for the round trip, which reads one whole request).
pub fn run_server_bytes(pieces: &[&[u8]]) -> Log {
    run_server_inner(pieces, Answer::Known, false, Config::DEFAULT)
}

/// A server connection fed `pieces` one after the other, every request
/// answered with `answer`, every output taken; then the end of input.
pub fn run_server(pieces: &[&[u8]], answer: Answer) -> Log {
    run_server_inner(pieces, answer, true, Config::DEFAULT)
}

/// [`run_server`] with another configuration (the front-line profile, for
/// the differential target).
pub fn run_server_with(pieces: &[&[u8]], answer: Answer, config: Config) -> Log {
    run_server_inner(pieces, answer, true, config)
}

fn run_server_inner(pieces: &[&[u8]], answer: Answer, eof: bool, config: Config) -> Log {
    let mut conn = ServerConn::new(config);
    let prebuilt =
        PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).expect("a valid response");
    let mut log = Log::default();
    let mut steps = 0;
    for piece in pieces {
        let mut rest = *piece;
        loop {
            let n = conn.recv(rest);
            rest = &rest[n..];
            if drive_server(&mut conn, &prebuilt, answer, &mut log, &mut steps) {
                return log;
            }
            if rest.is_empty() {
                break;
            }
            if n == 0 {
                // Nothing more fits and nothing was read: the connection
                // must have said why (an error) before getting here.
                assert!(steps < MAX_STEPS, "server stuck with a full buffer");
                if conn.spare_mut().is_empty() {
                    return log;
                }
            }
        }
    }
    if eof {
        conn.recv_eof();
        drive_server(&mut conn, &prebuilt, answer, &mut log, &mut steps);
    }
    log
}

/// Polls until the connection needs input; `true` when it is over.
fn drive_server(
    conn: &mut ServerConn,
    prebuilt: &PreparedResponse,
    answer: Answer,
    log: &mut Log,
    steps: &mut usize,
) -> bool {
    loop {
        *steps += 1;
        assert!(*steps < MAX_STEPS, "server livelock");
        let ev = match conn.poll_event() {
            Ok(ServerEvent::Request(r)) => Ev::Request(
                r.method_bytes().to_vec(),
                r.target().to_vec(),
                pairs(r.fields()),
            ),
            Ok(ServerEvent::Data(d)) => Ev::Data(d.to_vec()),
            Ok(ServerEvent::End(t)) => Ev::End(pairs(t.iter())),
            Ok(ServerEvent::Switched(_)) => {
                log.push(Ev::Switched);
                take_output(conn, log);
                return true;
            }
            Ok(ServerEvent::NeedInput) => {
                take_output(conn, log);
                return false;
            }
            Ok(ServerEvent::Paused) => {
                let before = conn.output().len();
                take_output(conn, log);
                if before == 0 {
                    // Paused with nothing to send: the application has not
                    // answered. It always answers at `End`, so this is a
                    // request whose end never came; wait for input.
                    return false;
                }
                continue;
            }
            Ok(ServerEvent::Closed) => {
                log.push(Ev::Closed);
                take_output(conn, log);
                return true;
            }
            Ok(_) => panic!("a server event this harness does not know"),
            Err(e) => {
                log.push(Ev::Error(format!("{e:?}")));
                take_output(conn, log);
                return true;
            }
        };
        let end = matches!(ev, Ev::End(_));
        log.push(ev);
        if end {
            if let Err(e) = respond(conn, prebuilt, answer) {
                log.push(Ev::Error(format!("answer: {e:?}")));
            }
            take_output(conn, log);
        }
    }
}

fn respond(
    conn: &mut ServerConn,
    prebuilt: &PreparedResponse,
    answer: Answer,
) -> Result<(), Error> {
    let mut r = conn.responder();
    match answer {
        Answer::Prebuilt => r.respond(prebuilt, b"hello").map(drop),
        Answer::Known => {
            r.send_head(200, &[(b"X-A", b"b")], BodyLength::Known(5))?;
            assert_eq!(
                r.send_data(b"he")?,
                Placement::Queued,
                "a small body is copied"
            );
            assert_eq!(
                r.send_data(b"llo")?,
                Placement::Queued,
                "a small body is copied"
            );
            r.send_end(&[])
        }
        Answer::Streamed => {
            r.send_head(200, &[], BodyLength::Streamed)?;
            assert_eq!(
                r.send_data(b"chunk")?,
                Placement::Queued,
                "a small body is copied"
            );
            r.send_end(&[(b"X-Trailer", b"t")])
        }
        Answer::ContinueThenEmpty => {
            r.send_continue()?;
            r.send_head(204, &[], BodyLength::Empty)?;
            r.send_end(&[])
        }
    }
}

fn take_output(conn: &mut ServerConn, log: &mut Log) {
    let out = conn.output();
    log.output.extend_from_slice(out);
    let n = out.len();
    conn.consume_output(n);
}

/// The request a fuzzed client sends (its method decides how a response is
/// framed), chosen by a control byte.
pub fn client_method(b: u8) -> &'static [u8] {
    match b % 5 {
        0 => b"GET",
        1 => b"HEAD",
        2 => b"CONNECT",
        3 => b"POST",
        _ => b"OPTIONS",
    }
}

fn send_client_request(conn: &mut ClientConn, method: &[u8]) -> Result<(), Error> {
    let target: &[u8] = match method {
        b"CONNECT" => b"a.example:443",
        b"OPTIONS" => b"*",
        _ => b"/x?y=z",
    };
    if method == b"POST" {
        conn.send_request(
            method,
            target,
            &[(b"Host", b"a.example")],
            BodyLength::Known(2),
        )?;
        assert_eq!(
            conn.send_data(b"hi")?,
            Placement::Queued,
            "a small body is copied"
        );
        conn.send_end(&[])
    } else {
        conn.send_request(
            method,
            target,
            &[(b"Host", b"a.example")],
            BodyLength::Empty,
        )
    }
}

/// A client connection that has sent its request, fed `pieces` as the
/// server's answer (no end of input, no further request).
pub fn run_client_bytes(mut conn: ClientConn, pieces: &[&[u8]]) -> Log {
    let mut log = Log::default();
    let mut sent = 1;
    let mut steps = 0;
    for piece in pieces {
        let mut rest = *piece;
        loop {
            let n = conn.recv(rest);
            rest = &rest[n..];
            if drive_client(&mut conn, b"GET", &mut sent, 1, &mut log, &mut steps) {
                return log;
            }
            if rest.is_empty() || (n == 0 && conn.spare_mut().is_empty()) {
                break;
            }
        }
    }
    log
}

/// A client connection that sends `requests` requests with `method`, all
/// at once (pipelined, so that what it sends does not depend on how the
/// answer is split), fed `pieces` as the server's bytes.
pub fn run_client(pieces: &[&[u8]], method: &[u8], requests: usize) -> Log {
    run_client_with(pieces, method, requests, Config::DEFAULT)
}

/// [`run_client`] with another configuration (the front-line profile, for
/// the differential target).
pub fn run_client_with(pieces: &[&[u8]], method: &[u8], requests: usize, config: Config) -> Log {
    let mut conn = ClientConn::new(config);
    let mut log = Log::default();
    if let Err(e) = send_client_request(&mut conn, method) {
        log.push(Ev::Error(format!("request: {e:?}")));
        return log;
    }
    // More requests while the connection takes them (it may refuse to
    // pipeline after some methods, e.g. CONNECT).
    for _ in 1..requests {
        if send_client_request(&mut conn, method).is_err() {
            break;
        }
    }
    let mut sent = requests;
    let mut steps = 0;
    for piece in pieces {
        let mut rest = *piece;
        loop {
            let n = conn.recv(rest);
            rest = &rest[n..];
            if drive_client(&mut conn, method, &mut sent, requests, &mut log, &mut steps) {
                return log;
            }
            if rest.is_empty() {
                break;
            }
            if n == 0 && conn.spare_mut().is_empty() {
                return log;
            }
        }
    }
    conn.recv_eof();
    drive_client(&mut conn, method, &mut sent, requests, &mut log, &mut steps);
    log
}

fn drive_client(
    conn: &mut ClientConn,
    method: &[u8],
    sent: &mut usize,
    requests: usize,
    log: &mut Log,
    steps: &mut usize,
) -> bool {
    loop {
        *steps += 1;
        assert!(*steps < MAX_STEPS, "client livelock");
        let out = conn.output();
        log.output.extend_from_slice(out);
        let n = out.len();
        conn.consume_output(n);
        let ev = match conn.poll_event() {
            Ok(ClientEvent::Informational(r)) | Ok(ClientEvent::Response(r)) => {
                Ev::Response(r.status(), r.reason().to_vec(), pairs(r.fields()))
            }
            Ok(ClientEvent::Data(d)) => Ev::Data(d.to_vec()),
            Ok(ClientEvent::End(t)) => Ev::End(pairs(t.iter())),
            Ok(ClientEvent::Switched(_)) => {
                log.push(Ev::Switched);
                return true;
            }
            Ok(ClientEvent::NeedInput) => return false,
            Ok(ClientEvent::Idle) => {
                if *sent >= requests || conn.should_close() {
                    return false;
                }
                *sent += 1;
                if let Err(e) = send_client_request(conn, method) {
                    log.push(Ev::Error(format!("request: {e:?}")));
                    return true;
                }
                continue;
            }
            Ok(ClientEvent::Closed) => {
                log.push(Ev::Closed);
                return true;
            }
            Ok(_) => panic!("a client event this harness does not know"),
            Err(e) => {
                log.push(Ev::Error(format!("{e:?}")));
                return true;
            }
        };
        log.push(ev);
    }
}
