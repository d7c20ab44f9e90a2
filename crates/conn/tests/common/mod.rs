//! Shared helpers of the conn integration tests: owned copies of events, a
//! scripted server driver (bytes in, pieces as given → events and bytes out),
//! a scripted client driver, and split runners (each case run whole, one
//! byte at a time and at every split point).
#![allow(dead_code)]

use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, Error, FieldPair, Phase, Placement,
    PreparedResponse, RemoteError, ServerConn, ServerEvent,
};
use http_net_framing::BodyKind;
use http_net_head::Version;

pub type Fields = Vec<(Vec<u8>, Vec<u8>)>;

/// Owned copies of (name, value) pairs.
pub fn owned<'a>(pairs: impl Iterator<Item = (&'a [u8], &'a [u8])>) -> Fields {
    pairs.map(|(n, v)| (n.to_vec(), v.to_vec())).collect()
}

/// Borrowed (name, value) pairs of owned fields, as the connections take them.
pub fn pairs(fields: &Fields) -> Vec<FieldPair<'_>> {
    fields
        .iter()
        .map(|(n, v)| (n.as_slice(), v.as_slice()))
        .collect()
}

/// Appends `name sep value CRLF` for each field, as a writer that checks
/// nothing would put them on the wire.
pub fn push_lines(out: &mut Vec<u8>, fields: &Fields, sep: &[u8]) {
    for (n, v) in fields {
        out.extend_from_slice(n);
        out.extend_from_slice(sep);
        out.extend_from_slice(v);
        out.extend_from_slice(b"\r\n");
    }
}

/// An owned server event (or error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Got {
    Request {
        method: Vec<u8>,
        target: Vec<u8>,
        version: Version,
        fields: Fields,
        body: BodyKind,
    },
    Data(Vec<u8>),
    End(Fields),
    Switched(Vec<u8>),
    NeedInput,
    Paused,
    Closed,
    Error(Error),
}

impl Got {
    pub fn of(ev: &ServerEvent<'_>) -> Got {
        match ev {
            ServerEvent::Request(r) => Got::Request {
                method: r.method_bytes().to_vec(),
                target: r.target().to_vec(),
                version: r.version(),
                fields: owned(r.fields()),
                body: r.body_kind(),
            },
            ServerEvent::Data(d) => Got::Data(d.to_vec()),
            ServerEvent::End(t) => Got::End(owned(t.iter())),
            ServerEvent::Switched(b) => Got::Switched(b.to_vec()),
            ServerEvent::NeedInput => Got::NeedInput,
            ServerEvent::Paused => Got::Paused,
            ServerEvent::Closed => Got::Closed,
            // `ServerEvent` is non_exhaustive: a new event fails the tests
            // until they record it.
            _ => panic!("an event these tests do not know: {ev:?}"),
        }
    }

    pub fn target(&self) -> Option<&[u8]> {
        match self {
            Got::Request { target, .. } => Some(target),
            _ => None,
        }
    }
}

/// Events with the ones that depend on how input was split removed
/// (`NeedInput`, `Paused`) and consecutive `Data` merged.
pub fn normalize(events: &[Got]) -> Vec<Got> {
    normalize_with(
        events,
        |e| matches!(e, Got::NeedInput | Got::Paused),
        |e| match e {
            Got::Data(d) => Some(d),
            _ => None,
        },
    )
}

/// Events without the split-dependent ones (`skip`), empty `Data` dropped
/// and consecutive `Data` (what `data` opens) merged.
fn normalize_with<E: Clone>(
    events: &[E],
    skip: impl Fn(&E) -> bool,
    data: impl Fn(&mut E) -> Option<&mut Vec<u8>>,
) -> Vec<E> {
    let mut out: Vec<E> = Vec::new();
    for e in events {
        if skip(e) {
            continue;
        }
        let mut e = e.clone();
        if let Some(d) = data(&mut e) {
            if d.is_empty() {
                continue;
            }
            if let Some(prev) = out.last_mut().and_then(&data) {
                prev.extend_from_slice(d);
                continue;
            }
        }
        out.push(e);
    }
    out
}

/// A server connection with the default configuration.
pub fn conn() -> ServerConn {
    ServerConn::new(Config::DEFAULT)
}

/// Feeds `input`, which must be taken whole, and polls its `Request`.
pub fn accept_request(conn: &mut ServerConn, input: &[u8]) {
    feed(conn, input);
    let got = conn.poll_event().map(|ev| Got::of(&ev));
    assert!(
        matches!(got, Ok(Got::Request { .. })),
        "not a request: {got:?} after {:?}",
        String::from_utf8_lossy(input)
    );
}

/// A server connection that read one `GET` and waits for its answer.
pub fn answering() -> ServerConn {
    let mut c = conn();
    accept_request(&mut c, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    c
}

/// Answers with `r` and `body`, which must be queued whole.
pub fn respond_queued(conn: &mut ServerConn, r: &PreparedResponse, body: &[u8]) {
    assert_eq!(
        conn.responder().respond(r, body).unwrap(),
        Placement::Queued
    );
}

/// Sends the head of an answer, which must be taken.
pub fn send_head(conn: &mut ServerConn, status: u16, fields: &[FieldPair<'_>], body: BodyLength) {
    conn.responder().send_head(status, fields, body).unwrap();
}

/// Sends `data` of a streamed answer, which must be queued.
pub fn send_queued(conn: &mut ServerConn, data: &[u8]) {
    assert_eq!(conn.responder().send_data(data).unwrap(), Placement::Queued);
}

/// Feeds `input` and polls until the request's `End`.
pub fn read_request(conn: &mut ServerConn, input: &[u8]) -> Vec<Got> {
    feed(conn, input);
    let mut events = Vec::new();
    loop {
        let got = Got::of(&conn.poll_event().unwrap());
        events.push(got.clone());
        if matches!(
            got,
            Got::End(_) | Got::NeedInput | Got::Closed | Got::Paused
        ) {
            return events;
        }
    }
}

/// Flushes the whole output, as text.
pub fn take_output(conn: &mut impl Output) -> String {
    let mut out = Vec::new();
    flush(conn, &mut out);
    String::from_utf8(out).unwrap()
}

/// Marks the whole output sent, unread.
pub fn discard_output(conn: &mut impl Output) {
    let n = conn.output().len();
    conn.consume_output(n);
}

/// What a scripted server run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    pub events: Vec<Got>,
    pub output: Vec<u8>,
    pub should_close: bool,
    pub phase: Phase,
}

impl Transcript {
    pub fn requests(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Got::Request { .. }))
            .count()
    }
    pub fn targets(&self) -> Vec<Vec<u8>> {
        self.events
            .iter()
            .filter_map(|e| e.target().map(<[u8]>::to_vec))
            .collect()
    }
    pub fn body(&self) -> Vec<u8> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Got::Data(d) => Some(d.as_slice()),
                _ => None,
            })
            .flatten()
            .copied()
            .collect()
    }
    pub fn error(&self) -> Option<Error> {
        self.events.iter().find_map(|e| match e {
            Got::Error(e) => Some(*e),
            _ => None,
        })
    }
    pub fn output_str(&self) -> String {
        String::from_utf8_lossy(&self.output).into_owned()
    }
}

/// The output queue both connections share.
pub trait Output {
    /// The queued bytes.
    fn output(&self) -> &[u8];
    /// Marks `n` of them sent.
    fn consume_output(&mut self, n: usize);
}

impl Output for ServerConn {
    fn output(&self) -> &[u8] {
        ServerConn::output(self)
    }
    fn consume_output(&mut self, n: usize) {
        ServerConn::consume_output(self, n);
    }
}

impl Output for ClientConn {
    fn output(&self) -> &[u8] {
        ClientConn::output(self)
    }
    fn consume_output(&mut self, n: usize) {
        ClientConn::consume_output(self, n);
    }
}

/// The input side both connections share.
pub trait Input {
    /// Offers `input`; how much was taken.
    fn recv(&mut self, input: &[u8]) -> usize;
}

impl Input for ServerConn {
    fn recv(&mut self, input: &[u8]) -> usize {
        ServerConn::recv(self, input)
    }
}

impl Input for ClientConn {
    fn recv(&mut self, input: &[u8]) -> usize {
        ClientConn::recv(self, input)
    }
}

/// Feeds `input` to the connection, which must take it whole.
#[track_caller]
pub fn feed(conn: &mut impl Input, input: &[u8]) {
    assert_eq!(conn.recv(input), input.len(), "input not taken whole");
}

/// Moves the whole output of the connection into `sink`.
pub fn flush(conn: &mut impl Output, sink: &mut Vec<u8>) {
    loop {
        let out = conn.output();
        if out.is_empty() {
            return;
        }
        let n = out.len();
        sink.extend_from_slice(out);
        conn.consume_output(n);
    }
}

/// The default answer: `200 OK` with body `ok`.
pub fn answer_ok(conn: &mut ServerConn) {
    let ok = PreparedResponse::new(200, &[]).unwrap();
    assert_eq!(
        conn.responder().respond(&ok, b"ok").unwrap(),
        Placement::Queued
    );
}

/// Polls until the connection waits for input (or is done), answering each
/// request at its `End` with `answer`.
pub fn pump(conn: &mut ServerConn, t: &mut Transcript, answer: &mut dyn FnMut(&mut ServerConn)) {
    for _ in 0..100_000 {
        let got = match conn.poll_event() {
            Ok(ev) => Got::of(&ev),
            Err(e) => Got::Error(e),
        };
        t.events.push(got.clone());
        match got {
            Got::End(_) => answer(conn),
            Got::Paused => {
                let before = t.output.len();
                flush(conn, &mut t.output);
                if t.output.len() == before {
                    return;
                }
            }
            Got::Request { .. } | Got::Data(_) => {}
            Got::NeedInput | Got::Closed | Got::Switched(_) | Got::Error(_) => return,
        }
    }
    panic!("the server connection did not settle (livelock)");
}

/// Feeds `pieces` one after the other, pumping after each; then the end of
/// input if `eof`. Bytes the connection does not take are dropped.
pub fn serve_with(
    conn: &mut ServerConn,
    pieces: &[&[u8]],
    eof: bool,
    answer: &mut dyn FnMut(&mut ServerConn),
) -> Transcript {
    let mut t = Transcript {
        events: Vec::new(),
        output: Vec::new(),
        should_close: false,
        phase: Phase::Idle,
    };
    let done = |t: &Transcript| {
        matches!(
            t.events.last(),
            Some(Got::Closed | Got::Error(_) | Got::Switched(_))
        )
    };
    'feed: for piece in pieces {
        let mut rest = *piece;
        while !rest.is_empty() {
            let n = conn.recv(rest);
            rest = &rest[n..];
            pump(conn, &mut t, answer);
            flush(conn, &mut t.output);
            if done(&t) {
                break 'feed; // the connection reads nothing more
            }
            if n == 0 && t.events.last() == Some(&Got::NeedInput) {
                panic!("the connection needs input but takes none");
            }
        }
        if piece.is_empty() {
            pump(conn, &mut t, answer);
        }
    }
    if eof && !done(&t) {
        conn.recv_eof();
        pump(conn, &mut t, answer);
    }
    flush(conn, &mut t.output);
    t.should_close = conn.should_close();
    t.phase = conn.phase();
    t
}

/// Serves `input` in one piece with the default answer.
pub fn serve(input: &[u8]) -> Transcript {
    let mut conn = ServerConn::new(Config::DEFAULT);
    serve_with(&mut conn, &[input], false, &mut answer_ok)
}

/// [`serve_all_ways`] with the default configuration and the default
/// answer to every request.
pub fn serve_ok(input: &[u8]) -> Transcript {
    serve_all_ways(Config::DEFAULT, input, false, &mut answer_ok)
}

/// `input` split into single bytes.
pub fn bytewise(input: &[u8]) -> Vec<&[u8]> {
    input.chunks(1).collect()
}

/// Runs `input` whole, one byte at a time, and split at every point (for
/// inputs up to `max_split` bytes), with a fresh connection from `config`
/// each time, and checks that the normalized events, the output and the
/// close decision are identical. Returns the whole-input transcript.
pub fn serve_all_ways(
    config: Config,
    input: &[u8],
    eof: bool,
    answer: &mut dyn FnMut(&mut ServerConn),
) -> Transcript {
    let whole = serve_with(&mut ServerConn::new(config), &[input], eof, answer);
    let check = |t: &Transcript, how: &str| {
        assert_eq!(
            normalize(&t.events),
            normalize(&whole.events),
            "events differ ({how})"
        );
        assert_eq!(t.output_str(), whole.output_str(), "output differs ({how})");
        assert_eq!(
            t.should_close, whole.should_close,
            "close decision differs ({how})"
        );
    };
    let per_byte = serve_with(&mut ServerConn::new(config), &bytewise(input), eof, answer);
    check(&per_byte, "one byte at a time");
    if input.len() <= 400 {
        for at in 1..input.len() {
            let (a, b) = input.split_at(at);
            let t = serve_with(&mut ServerConn::new(config), &[a, b], eof, answer);
            check(&t, &format!("split at {at}"));
        }
    }
    whole
}

/// Asserts a "400+close" row: an error with `status` is raised, its response
/// is queued with `Connection: close`, exactly `before` requests were
/// surfaced (none for the bytes after the faulty message), and the
/// connection must close. Run whole, per byte, and at every split.
pub fn assert_rejected(input: &[u8], status: u16, before: usize) -> RemoteError {
    assert_rejected_with(Config::DEFAULT, input, status, before)
}

pub fn assert_rejected_with(
    config: Config,
    input: &[u8],
    status: u16,
    before: usize,
) -> RemoteError {
    let t = serve_all_ways(config, input, false, &mut answer_ok);
    let Some(Error::Remote(e)) = t.error() else {
        panic!(
            "no remote error for {:?}: {:?}",
            String::from_utf8_lossy(input),
            t.events
        );
    };
    assert_eq!(e.status(), status, "{e:?}");
    assert_eq!(t.requests(), before, "requests surfaced: {:?}", t.targets());
    let after_error = t
        .events
        .iter()
        .skip_while(|e| !matches!(e, Got::Error(_)))
        .skip(1);
    assert!(
        after_error.clone().all(|e| matches!(e, Got::Closed)),
        "{:?}",
        t.events
    );
    let out = t.output_str();
    let last = out.rfind("HTTP/1.1 ").expect("an error response");
    assert!(
        out[last..].starts_with(&format!("HTTP/1.1 {status} ")),
        "{out}"
    );
    assert!(out[last..].contains("\r\nConnection: close\r\n"), "{out}");
    assert!(t.should_close);
    assert_eq!(t.phase, Phase::Draining);
    e
}

/// An owned client event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GotC {
    Informational {
        status: u16,
        fields: Fields,
    },
    Response {
        status: u16,
        reason: Vec<u8>,
        fields: Fields,
        body: BodyKind,
    },
    Data(Vec<u8>),
    End(Fields),
    Switched(Vec<u8>),
    NeedInput,
    Idle,
    Closed,
    Error(Error),
}

impl GotC {
    pub fn of(ev: &ClientEvent<'_>) -> GotC {
        match ev {
            ClientEvent::Informational(v) => GotC::Informational {
                status: v.status(),
                fields: owned(v.fields()),
            },
            ClientEvent::Response(v) => GotC::Response {
                status: v.status(),
                reason: v.reason().to_vec(),
                fields: owned(v.fields()),
                body: v.body_kind(),
            },
            ClientEvent::Data(d) => GotC::Data(d.to_vec()),
            ClientEvent::End(t) => GotC::End(owned(t.iter())),
            ClientEvent::Switched(b) => GotC::Switched(b.to_vec()),
            ClientEvent::NeedInput => GotC::NeedInput,
            ClientEvent::Idle => GotC::Idle,
            ClientEvent::Closed => GotC::Closed,
            // `ClientEvent` is non_exhaustive: a new event fails the tests
            // until they record it.
            _ => panic!("an event these tests do not know: {ev:?}"),
        }
    }
}

/// Client events with split-dependent ones removed and `Data` merged.
pub fn normalize_c(events: &[GotC]) -> Vec<GotC> {
    normalize_with(
        events,
        |e| matches!(e, GotC::NeedInput | GotC::Idle),
        |e| match e {
            GotC::Data(d) => Some(d),
            _ => None,
        },
    )
}

/// Polls the client until it waits.
pub fn pump_c(conn: &mut ClientConn, events: &mut Vec<GotC>) {
    for _ in 0..100_000 {
        let got = match conn.poll_event() {
            Ok(ev) => GotC::of(&ev),
            Err(e) => GotC::Error(e),
        };
        events.push(got.clone());
        if matches!(
            got,
            GotC::NeedInput | GotC::Idle | GotC::Closed | GotC::Switched(_) | GotC::Error(_)
        ) {
            return;
        }
    }
    panic!("the client connection did not settle (livelock)");
}

/// Feeds response bytes in `pieces` to a client that has sent requests.
pub fn fetch_with(conn: &mut ClientConn, pieces: &[&[u8]], eof: bool) -> Vec<GotC> {
    let mut events = Vec::new();
    let done = |e: &Vec<GotC>| {
        matches!(
            e.last(),
            Some(GotC::Closed | GotC::Error(_) | GotC::Switched(_))
        )
    };
    'feed: for piece in pieces {
        let mut rest = *piece;
        while !rest.is_empty() {
            let n = conn.recv(rest);
            rest = &rest[n..];
            pump_c(conn, &mut events);
            if done(&events) {
                break 'feed;
            }
            if n == 0 && events.last() == Some(&GotC::NeedInput) {
                panic!("the client needs input but takes none");
            }
        }
    }
    if eof && !done(&events) {
        conn.recv_eof();
        pump_c(conn, &mut events);
    }
    events
}

/// A client that sent `CONNECT authority` with `Host: authority` and no
/// body; its output is not taken.
pub fn connecting(authority: &[u8]) -> ClientConn {
    let mut conn = ClientConn::new(Config::DEFAULT);
    conn.send_request(
        b"CONNECT",
        authority,
        &[(b"Host", authority)],
        BodyLength::Empty,
    )
    .unwrap();
    conn
}

/// Sends `GET target` with `Host: a` offering an upgrade to `websocket`
/// (`Upgrade` and `Connection: upgrade`), no body; its output is not taken.
pub fn send_websocket_offer(conn: &mut ClientConn, target: &[u8]) {
    conn.send_request(
        b"GET",
        target,
        &[
            (b"Host", b"a"),
            (b"Upgrade", b"websocket"),
            (b"Connection", b"upgrade"),
        ],
        BodyLength::Empty,
    )
    .unwrap();
}

/// A client with the given requests sent (method, target), each with
/// `Host: a` and no body.
pub fn client_with(requests: &[(&[u8], &[u8])]) -> ClientConn {
    let mut conn = ClientConn::new(Config::DEFAULT);
    for (m, t) in requests {
        conn.send_request(m, t, &[(b"Host", b"a")], http_net_conn::BodyLength::Empty)
            .unwrap();
    }
    discard_output(&mut conn);
    conn
}

/// Runs response bytes through fresh clients whole, per byte and split at
/// every point; checks identical normalized events; returns the whole run.
pub fn fetch_all_ways(requests: &[(&[u8], &[u8])], input: &[u8], eof: bool) -> Vec<GotC> {
    let whole = fetch_with(&mut client_with(requests), &[input], eof);
    let per_byte = fetch_with(&mut client_with(requests), &bytewise(input), eof);
    assert_eq!(
        normalize_c(&per_byte),
        normalize_c(&whole),
        "one byte at a time"
    );
    if input.len() <= 400 {
        for at in 1..input.len() {
            let (a, b) = input.split_at(at);
            let t = fetch_with(&mut client_with(requests), &[a, b], eof);
            assert_eq!(normalize_c(&t), normalize_c(&whole), "split at {at}");
        }
    }
    whole
}

/// The remote error of a client run.
pub fn client_error(events: &[GotC]) -> Option<RemoteError> {
    events.iter().find_map(|e| match e {
        GotC::Error(Error::Remote(r)) => Some(*r),
        _ => None,
    })
}
