//! http-net's side of the head comparisons: `http-net-head` parses,
//! `http-net-framing` decides the body, and the connection-level decisions
//! (keep-alive, upgrade, `Expect`) are read from the field known the parser
//! gathered, as `http-net-conn` does.

use http_net_framing::{request_body, response_body, BodyKind};
use http_net_head::{
    Field, HeadLimits, Method, Parsed, RequestParser, ResponseOptions, ResponseParser, Version,
};

use crate::rules::{Body, Framing, Verdict, MAX_FIELDS};

/// The body limits (the defaults: 8 MiB budget, 1 KiB of extensions per chunk).
pub const BODY_LIMITS: http_net_framing::BodyLimits = http_net_framing::BodyLimits::DEFAULT;

/// Field storage, reused across calls.
pub type Storage = [Field; MAX_FIELDS];

/// Fresh field storage.
pub fn storage() -> Storage {
    [Field::default(); MAX_FIELDS]
}

/// A request parser with the default limits.
pub fn request_parser() -> RequestParser {
    RequestParser::new(HeadLimits::DEFAULT)
}

/// A response parser with the default limits and options.
pub fn response_parser() -> ResponseParser {
    ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::default())
}

fn body(kind: BodyKind) -> Body {
    match kind {
        BodyKind::None => Body::None,
        BodyKind::Length(n) => Body::Length(n),
        BodyKind::Chunked => Body::Chunked,
        BodyKind::CloseDelimited => Body::CloseDelimited,
        BodyKind::Tunnel => Body::Tunnel,
    }
}

/// Request head + framing of the head at the start of `buf`.
#[inline]
pub fn request(parser: &mut RequestParser, buf: &[u8], fields: &mut Storage) -> Verdict {
    parser.reset();
    let head = match parser.parse(buf, fields) {
        Ok(Parsed::Complete(h)) => h,
        Ok(Parsed::Partial) => return Verdict::Partial,
        Err(e) => return Verdict::Reject(e.status()),
    };
    let fields = &fields[..head.field_count];
    let kind = match request_body(head.version, &head.known, fields, buf, &BODY_LIMITS) {
        Ok(k) => k,
        Err(e) => return Verdict::Reject(e.status()),
    };
    // What `http-net-conn` decides when it surfaces a request.
    if head.method == Method::Connect && !matches!(kind, BodyKind::None | BodyKind::Length(0)) {
        return Verdict::Reject(400);
    }
    let http11 = head.version == Version::Http11;
    let expect = head.known.expect;
    if http11
        && !expect.values(b"expect", fields, buf).all(|v| {
            let v = v.get(buf);
            !trim(v).is_empty()
                && v.split(|&b| b == b',')
                    .all(|m| trim(m).eq_ignore_ascii_case(b"100-continue"))
        })
    {
        return Verdict::Reject(417);
    }
    let c = head.known.connection;
    Verdict::Complete(Framing {
        head_len: head.len,
        http11,
        body: body(kind),
        keep_alive: if http11 {
            !c.close()
        } else {
            c.keep_alive() && !c.close()
        },
        upgrade: http11 && c.upgrade() && !head.known.upgrade.is_empty(),
        expect_continue: http11 && !expect.is_empty(),
    })
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// Response head + framing of the head at the start of `buf`, answering a
/// request with `method`.
#[inline]
pub fn response(
    parser: &mut ResponseParser,
    buf: &[u8],
    method: Method,
    fields: &mut Storage,
) -> Verdict {
    parser.reset();
    let head = match parser.parse(buf, fields) {
        Ok(Parsed::Complete(h)) => h,
        Ok(Parsed::Partial) => return Verdict::Partial,
        Err(_) => return Verdict::Reject(502),
    };
    let fields = &fields[..head.field_count];
    let kind = match response_body(
        method,
        head.status,
        head.version,
        &head.known,
        fields,
        buf,
        &BODY_LIMITS,
    ) {
        Ok(k) => k,
        Err(_) => return Verdict::Reject(502),
    };
    let http11 = head.version == Version::Http11;
    let c = head.known.connection;
    let body = body(kind);
    Verdict::Complete(Framing {
        head_len: head.len,
        http11,
        body,
        keep_alive: body != Body::CloseDelimited
            && if http11 {
                !c.close()
            } else {
                c.keep_alive() && !c.close()
            },
        upgrade: false,
        expect_continue: false,
    })
}

/// http-net's view of a request head, as [`crate::httparse_side::Parts`].
pub fn request_parts(buf: &[u8]) -> Option<crate::httparse_side::Parts> {
    let mut p = request_parser();
    let mut fields = storage();
    let Ok(Parsed::Complete(h)) = p.parse(buf, &mut fields) else {
        return None;
    };
    Some((
        h.method_span.get(buf).to_vec(),
        h.target.get(buf).to_vec(),
        u8::from(h.version == Version::Http11),
        fields[..h.field_count]
            .iter()
            .map(|f| (f.name.get(buf).to_vec(), f.value.get(buf).to_vec()))
            .collect(),
    ))
}

/// http-net's connection-level sides (H2, H3 client exchange, H4b, H5):
/// `http-net-conn` fed the same bytes, answers taken from its output.
pub mod conn {
    use http_net_conn::{
        BodyLength, ClientConn, ClientEvent, Config, Placement, PreparedResponse, ServerConn,
        ServerEvent,
    };

    use crate::inputs::{ANSWER_DATE, ANSWER_FIELDS, READ, SMALL_ANSWER_BODY};
    use crate::lean::ANSWER;

    /// A server connection with its `Date` set, and the prebuilt H2 answer.
    pub struct Server {
        conn: ServerConn,
        answer: PreparedResponse,
    }

    impl Default for Server {
        fn default() -> Self {
            Server::new()
        }
    }

    impl Server {
        /// A fresh connection (buffers allocated here, once).
        pub fn new() -> Server {
            let mut conn = ServerConn::new(Config::DEFAULT);
            conn.set_date(ANSWER_DATE);
            let fields: Vec<(&[u8], &[u8])> = ANSWER_FIELDS
                .iter()
                .map(|(n, v)| (n.as_bytes(), v.as_bytes()))
                .collect();
            let answer = PreparedResponse::new(200, &fields).expect("valid fields");
            Server { conn, answer }
        }

        /// H2: one request in, the five-field 1 KiB answer out; returns the
        /// answer's length.
        #[inline]
        pub fn exchange(&mut self, request: &[u8], body: &[u8]) -> usize {
            let n = self.conn.recv(request);
            debug_assert_eq!(n, request.len());
            loop {
                match self.conn.poll_event().expect("a valid request") {
                    ServerEvent::Request(_) | ServerEvent::Data(_) => {}
                    ServerEvent::End(_) => break,
                    other => panic!("unexpected {other:?}"),
                }
            }
            let placed = self
                .conn
                .responder()
                .respond(&self.answer, body)
                .expect("an answer");
            debug_assert_eq!(placed, Placement::Queued);
            let out = self.conn.output().len();
            std::hint::black_box(self.conn.output());
            self.conn.consume_output(out);
            out
        }

        /// H4b: a message with a Content-Length body received in 16 KiB
        /// reads (`input`: head and body); the body is seen through `Data`
        /// events, borrowed from the input buffer. Answers 204 at the end.
        /// Returns the body bytes seen.
        #[inline]
        pub fn upload(&mut self, input: &[u8]) -> usize {
            let mut seen = 0;
            for piece in input.chunks(READ) {
                let mut rest = piece;
                while !rest.is_empty() {
                    let n = self.conn.recv(rest);
                    rest = &rest[n..];
                    loop {
                        match self.conn.poll_event().expect("a valid request") {
                            ServerEvent::Request(_) => {}
                            ServerEvent::Data(d) => seen += std::hint::black_box(d).len(),
                            ServerEvent::End(_) => {
                                self.conn
                                    .responder()
                                    .send_head(204, &[], BodyLength::Empty)
                                    .expect("an answer");
                                self.conn.responder().send_end(&[]).expect("an end");
                            }
                            ServerEvent::NeedInput => break,
                            other => panic!("unexpected {other:?}"),
                        }
                    }
                }
            }
            let out = self.conn.output().len();
            self.conn.consume_output(out);
            seen
        }
    }

    /// H5: a server connection answering every request with `Hello, World!`
    /// and no other field: the 52 bytes of [`ANSWER`] (no `Date`: none is
    /// given), the answer of the lean httparse loop ([`crate::lean`]).
    pub struct Pipelined {
        conn: ServerConn,
        answer: PreparedResponse,
    }

    impl Default for Pipelined {
        fn default() -> Self {
            Pipelined::new()
        }
    }

    impl Pipelined {
        /// A fresh connection (buffers allocated here, once).
        pub fn new() -> Pipelined {
            let conn = ServerConn::new(Config::DEFAULT);
            let answer = PreparedResponse::new(200, &[]).expect("no fields");
            debug_assert_eq!(ANSWER.len(), 39 + SMALL_ANSWER_BODY.len());
            Pipelined { conn, answer }
        }

        /// Every request of `input`, received in 16 KiB reads (each copied
        /// in by `recv`), answered; after each read the output goes to
        /// `send` and is consumed, as [`crate::lean::LeanLoop::run`] does
        /// with its own. Returns the number of answers.
        #[inline]
        pub fn run(&mut self, input: &[u8], mut send: impl FnMut(&[u8])) -> usize {
            let mut answered = 0;
            for piece in input.chunks(READ) {
                let mut rest = piece;
                while !rest.is_empty() {
                    let n = self.conn.recv(rest);
                    rest = &rest[n..];
                    loop {
                        match self.conn.poll_event().expect("a valid request") {
                            ServerEvent::Request(_) | ServerEvent::Data(_) => {}
                            ServerEvent::End(_) => {
                                let placed = self
                                    .conn
                                    .responder()
                                    .respond(&self.answer, SMALL_ANSWER_BODY)
                                    .expect("an answer");
                                debug_assert_eq!(placed, Placement::Queued);
                                answered += 1;
                            }
                            ServerEvent::NeedInput => break,
                            ServerEvent::Paused => {
                                // The output is full: hand it on mid-read.
                                send(self.conn.output());
                                let out = self.conn.output().len();
                                self.conn.consume_output(out);
                            }
                            other => panic!("unexpected {other:?}"),
                        }
                    }
                }
                send(self.conn.output());
                let out = self.conn.output().len();
                self.conn.consume_output(out);
            }
            answered
        }
    }

    /// H3: a client connection sending `GET /` and reading `response_1k.http`.
    pub struct Client {
        conn: ClientConn,
    }

    impl Default for Client {
        fn default() -> Self {
            Client::new()
        }
    }

    impl Client {
        /// A fresh connection.
        pub fn new() -> Client {
            Client {
                conn: ClientConn::new(Config::DEFAULT),
            }
        }

        /// One exchange: the request written, `response` received, the head
        /// and the body events read. Returns the body length.
        #[inline]
        pub fn exchange(&mut self, response: &[u8]) -> usize {
            self.conn
                .send_request(b"GET", b"/", &[(b"Host", b"localhost")], BodyLength::Empty)
                .expect("a request");
            let out = self.conn.output().len();
            std::hint::black_box(self.conn.output());
            self.conn.consume_output(out);
            let n = self.conn.recv(response);
            debug_assert_eq!(n, response.len());
            let mut body = 0;
            loop {
                match self.conn.poll_event().expect("a valid response") {
                    ClientEvent::Response(r) => {
                        std::hint::black_box(r.status());
                    }
                    ClientEvent::Data(d) => body += std::hint::black_box(d).len(),
                    ClientEvent::End(_) => break,
                    other => panic!("unexpected {other:?}"),
                }
            }
            body
        }
    }
}
