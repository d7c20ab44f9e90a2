//! A client connection and a server connection wired to each other in
//! memory, driven by a bounded loop (a livelock fails instead of
//! hanging), and the proptests: a random pipelined stream split at random
//! points gives the same events as fed whole; random requests and responses
//! exchanged between the two arrive exactly as sent.

mod common;

use common::*;
use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, Placement, ServerConn, ServerEvent,
};
use proptest::prelude::*;

/// A message to send: head fields, body pieces, trailers, and whether its
/// length is announced (`Content-Length`) or streamed (chunked).
#[derive(Clone, Debug)]
struct Msg {
    head: Vec<u8>, // method for requests; unused for responses
    target: Vec<u8>,
    status: u16,
    fields: Fields,
    pieces: Vec<Vec<u8>>,
    streamed: bool,
    trailers: Fields,
}

impl Msg {
    fn body(&self) -> Vec<u8> {
        self.pieces.concat()
    }
    fn length(&self) -> BodyLength {
        let n = self.body().len() as u64;
        match (self.streamed, n) {
            (true, _) => BodyLength::Streamed,
            (false, 0) => BodyLength::Empty,
            (false, n) => BodyLength::Known(n),
        }
    }
}

/// Fields the connections add; removed before comparing.
fn own(fields: &Fields) -> Fields {
    fields
        .iter()
        .filter(|(n, _)| {
            !(n.eq_ignore_ascii_case(b"content-length")
                || n.eq_ignore_ascii_case(b"transfer-encoding")
                || n.eq_ignore_ascii_case(b"host"))
        })
        .cloned()
        .collect()
}

/// Queues body pieces, moving output and left-out bodies to `wire` in order.
fn send_pieces(
    pieces: &[Vec<u8>],
    wire: &mut Vec<u8>,
    mut data: impl FnMut(&[u8]) -> Placement,
    mut output: impl FnMut(&mut Vec<u8>),
) {
    for p in pieces {
        if data(p) == Placement::AfterOutput {
            output(wire);
            wire.extend_from_slice(p);
        }
    }
}

struct Pair {
    client: ClientConn,
    server: ServerConn,
    c2s: Vec<u8>,
    s2c: Vec<u8>,
    client_events: Vec<GotC>,
    server_events: Vec<Got>,
}

impl Pair {
    fn new(config: Config) -> Pair {
        Pair {
            client: ClientConn::new(config),
            server: ServerConn::new(config),
            c2s: Vec::new(),
            s2c: Vec::new(),
            client_events: Vec::new(),
            server_events: Vec::new(),
        }
    }

    /// Sends a request from the client.
    fn request(&mut self, m: &Msg) {
        let mut fields = vec![(&b"Host"[..], &b"pair.test"[..])];
        fields.extend(pairs(&m.fields));
        self.client
            .send_request(&m.head, &m.target, &fields, m.length())
            .unwrap();
        let client = std::cell::RefCell::new(&mut self.client);
        send_pieces(
            &m.pieces,
            &mut self.c2s,
            |p| client.borrow_mut().send_data(p).unwrap(),
            |w| flush(&mut **client.borrow_mut(), w),
        );
        let client = client.into_inner();
        client.send_end(&pairs(&m.trailers)).unwrap();
        flush(client, &mut self.c2s);
    }

    /// Moves bytes and polls both sides until neither moves; the server
    /// answers each request at its `End` with the next of `answers`.
    fn drive_bounded(&mut self, answers: &mut std::vec::IntoIter<Msg>) {
        for _ in 0..10_000 {
            let mut moved = false;
            // Client → server.
            if !self.c2s.is_empty() {
                let n = self.server.recv(&self.c2s);
                self.c2s.drain(..n);
                moved |= n > 0;
            }
            loop {
                let got = match self.server.poll_event() {
                    Ok(ev) => Got::of(&ev),
                    Err(e) => Got::Error(e),
                };
                let stop = matches!(
                    got,
                    Got::NeedInput | Got::Paused | Got::Closed | Got::Switched(_) | Got::Error(_)
                );
                if !stop {
                    moved = true;
                }
                if matches!(got, Got::End(_)) {
                    let m = answers.next().expect("an answer for each request");
                    self.answer(&m);
                }
                self.server_events.push(got);
                if stop {
                    break;
                }
            }
            flush(&mut self.server, &mut self.s2c);
            // Server → client.
            if !self.s2c.is_empty() {
                let n = self.client.recv(&self.s2c);
                self.s2c.drain(..n);
                moved |= n > 0;
            }
            // Every event before the one `pump_c` stops at is progress.
            let before = self.client_events.len();
            pump_c(&mut self.client, &mut self.client_events);
            moved |= self.client_events.len() - before > 1;
            if !moved {
                return;
            }
        }
        panic!("the pair did not settle within the bound (livelock)");
    }

    fn answer(&mut self, m: &Msg) {
        let server = std::cell::RefCell::new(&mut self.server);
        server
            .borrow_mut()
            .responder()
            .send_head(m.status, &pairs(&m.fields), m.length())
            .unwrap();
        send_pieces(
            &m.pieces,
            &mut self.s2c,
            |p| server.borrow_mut().responder().send_data(p).unwrap(),
            |w| flush(&mut **server.borrow_mut(), w),
        );
        let server = server.into_inner();
        server.responder().send_end(&pairs(&m.trailers)).unwrap();
    }
}

/// What one side saw of a message: (head part, own fields, body, trailers).
/// Method, target, own fields, body, trailers.
type SeenRequest = (Vec<u8>, Vec<u8>, Fields, Vec<u8>, Fields);

fn server_saw(events: &[Got]) -> Vec<SeenRequest> {
    let mut out = Vec::new();
    for e in normalize(events) {
        match e {
            Got::Request {
                method,
                target,
                fields,
                ..
            } => out.push((method, target, own(&fields), Vec::new(), Vec::new())),
            Got::Data(d) => out.last_mut().unwrap().3.extend_from_slice(&d),
            Got::End(t) => out.last_mut().unwrap().4 = t,
            Got::Error(e) => panic!("server error {e:?}"),
            _ => {}
        }
    }
    out
}

fn client_saw(events: &[GotC]) -> Vec<(u16, Fields, Vec<u8>, Fields)> {
    let mut out = Vec::new();
    for e in normalize_c(events) {
        match e {
            GotC::Response { status, fields, .. } => {
                out.push((status, own(&fields), Vec::new(), Vec::new()))
            }
            GotC::Data(d) => out.last_mut().unwrap().2.extend_from_slice(&d),
            GotC::End(t) => out.last_mut().unwrap().3 = t,
            GotC::Error(e) => panic!("client error {e:?}"),
            _ => {}
        }
    }
    out
}

fn token() -> impl Strategy<Value = Vec<u8>> {
    "X-[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}".prop_map(String::into_bytes)
}

fn value() -> impl Strategy<Value = Vec<u8>> {
    // Visible ASCII with inner spaces; no leading or trailing whitespace.
    "([!-~]([ !-~]{0,20}[!-~])?)?".prop_map(String::into_bytes)
}

fn fields() -> impl Strategy<Value = Fields> {
    prop::collection::vec((token(), value()), 0..5)
}

fn pieces() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(any::<u8>(), 1..300), 0..4)
}

fn big_pieces() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop_oneof![9 => pieces(), 1 => Just(vec![vec![b'z'; 5000]])]
}

fn request() -> impl Strategy<Value = Msg> {
    (
        prop::sample::select(vec![
            &b"GET"[..],
            b"POST",
            b"PUT",
            b"DELETE",
            b"PATCH",
            b"X-CUSTOM",
        ]),
        "/[a-z0-9/._~-]{0,20}(\\?[a-z0-9=&]{0,10})?",
        fields(),
        big_pieces(),
        any::<bool>(),
        fields(),
    )
        .prop_map(|(method, target, fields, pieces, streamed, trailers)| Msg {
            head: method.to_vec(),
            target: target.into_bytes(),
            status: 0,
            fields,
            trailers: if streamed { trailers } else { Vec::new() },
            pieces,
            streamed,
        })
}

fn response() -> impl Strategy<Value = Msg> {
    (
        prop::sample::select(vec![200u16, 201, 299, 404, 500, 503]),
        fields(),
        big_pieces(),
        any::<bool>(),
        fields(),
    )
        .prop_map(|(status, fields, pieces, streamed, trailers)| Msg {
            head: Vec::new(),
            target: Vec::new(),
            status,
            fields,
            trailers: if streamed { trailers } else { Vec::new() },
            pieces,
            streamed,
        })
}

/// Serialises a request the way a peer would (for the split proptest).
fn wire_request(m: &Msg) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&m.head);
    out.push(b' ');
    out.extend_from_slice(&m.target);
    out.extend_from_slice(b" HTTP/1.1\r\nHost: split.test\r\n");
    push_lines(&mut out, &m.fields, b": ");
    let body = m.body();
    if m.streamed {
        out.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
        for p in &m.pieces {
            out.extend_from_slice(format!("{:x};x=\"y\"\r\n", p.len()).as_bytes());
            out.extend_from_slice(p);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n");
        push_lines(&mut out, &m.trailers, b":");
        out.extend_from_slice(b"\r\n");
    } else {
        out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        out.extend_from_slice(&body);
    }
    out
}

#[test]
fn bounded_drive_of_a_simple_exchange() {
    let mut pair = Pair::new(Config::DEFAULT);
    let req = Msg {
        head: b"POST".to_vec(),
        target: b"/echo".to_vec(),
        status: 0,
        fields: vec![(b"X-A".to_vec(), b"1".to_vec())],
        pieces: vec![b"hello".to_vec(), b" world".to_vec()],
        streamed: true,
        trailers: vec![(b"X-T".to_vec(), b"t".to_vec())],
    };
    let res = Msg {
        head: vec![],
        target: vec![],
        status: 201,
        fields: vec![],
        pieces: vec![b"ok".to_vec()],
        streamed: false,
        trailers: vec![],
    };
    pair.request(&req);
    pair.drive_bounded(&mut vec![res].into_iter());
    let s = server_saw(&pair.server_events);
    assert_eq!(
        s,
        vec![(
            b"POST".to_vec(),
            b"/echo".to_vec(),
            req.fields.clone(),
            b"hello world".to_vec(),
            req.trailers.clone()
        )]
    );
    let c = client_saw(&pair.client_events);
    assert_eq!(c, vec![(201, vec![], b"ok".to_vec(), vec![])]);
    assert_eq!(pair.client.outstanding(), 0);
    assert!(!pair.client.should_close() && !pair.server.should_close());
}

#[test]
fn bounded_drive_through_an_upgrade() {
    let mut pair = Pair::new(Config::DEFAULT);
    send_websocket_offer(&mut pair.client, b"/ws");
    flush(&mut pair.client, &mut pair.c2s);
    pair.c2s.extend_from_slice(b"client-frame");
    feed(&mut pair.server, &pair.c2s);
    assert!(matches!(
        pair.server.poll_event(),
        Ok(ServerEvent::Request(_))
    ));
    pair.server
        .responder()
        .send_head(
            101,
            &[(b"Upgrade", b"websocket"), (b"Connection", b"upgrade")],
            BodyLength::Empty,
        )
        .unwrap();
    assert!(matches!(
        pair.server.poll_event(),
        Ok(ServerEvent::Switched(b"client-frame"))
    ));
    flush(&mut pair.server, &mut pair.s2c);
    pair.s2c.extend_from_slice(b"server-frame");
    feed(&mut pair.client, &pair.s2c);
    assert!(matches!(pair.client.poll_event(), Ok(ClientEvent::Response(r)) if r.status() == 101));
    assert!(matches!(
        pair.client.poll_event(),
        Ok(ClientEvent::Switched(b"server-frame"))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn split_stream_gives_the_same_events(
        reqs in prop::collection::vec(request(), 1..6),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let stream: Vec<u8> = reqs.iter().flat_map(wire_request).collect();
        let whole = serve_with(&mut ServerConn::new(Config::DEFAULT), &[&stream], false, &mut answer_ok);
        prop_assert_eq!(whole.error(), None);
        prop_assert_eq!(whole.requests(), reqs.len());
        let mut at: Vec<usize> = cuts.iter().map(|i| i.index(stream.len() + 1)).collect();
        at.push(0);
        at.push(stream.len());
        at.sort_unstable();
        let pieces: Vec<&[u8]> = at.windows(2).map(|w| &stream[w[0]..w[1]]).collect();
        let split = serve_with(&mut ServerConn::new(Config::DEFAULT), &pieces, false, &mut answer_ok);
        prop_assert_eq!(normalize(&split.events), normalize(&whole.events));
        prop_assert_eq!(split.output, whole.output);
        // And the events carry what was sent.
        let saw = server_saw(&whole.events);
        for (m, s) in reqs.iter().zip(&saw) {
            prop_assert_eq!(&s.0, &m.head);
            prop_assert_eq!(&s.1, &m.target);
            prop_assert_eq!(&s.2, &m.fields);
            prop_assert_eq!(&s.3, &m.body());
            prop_assert_eq!(&s.4, &m.trailers);
        }
    }

    #[test]
    fn client_and_server_see_what_the_other_sent(
        exchanges in prop::collection::vec((request(), response()), 1..5),
        pipelined in any::<bool>(),
    ) {
        let mut pair = Pair::new(Config::DEFAULT);
        let answers: Vec<Msg> = exchanges.iter().map(|e| e.1.clone()).collect();
        let mut answers = answers.into_iter();
        if pipelined {
            for (req, _) in &exchanges {
                pair.request(req);
            }
            pair.drive_bounded(&mut answers);
        } else {
            for (req, _) in &exchanges {
                pair.request(req);
                pair.drive_bounded(&mut answers);
            }
        }
        let s = server_saw(&pair.server_events);
        prop_assert_eq!(s.len(), exchanges.len());
        for ((req, _), seen) in exchanges.iter().zip(&s) {
            prop_assert_eq!(&seen.0, &req.head);
            prop_assert_eq!(&seen.1, &req.target);
            prop_assert_eq!(&seen.2, &req.fields);
            prop_assert_eq!(&seen.3, &req.body());
            prop_assert_eq!(&seen.4, &req.trailers);
        }
        let c = client_saw(&pair.client_events);
        prop_assert_eq!(c.len(), exchanges.len());
        for ((_, res), seen) in exchanges.iter().zip(&c) {
            prop_assert_eq!(seen.0, res.status);
            prop_assert_eq!(&seen.1, &res.fields);
            prop_assert_eq!(&seen.2, &res.body());
            prop_assert_eq!(&seen.3, &res.trailers);
        }
        prop_assert_eq!(pair.client.outstanding(), 0);
        prop_assert!(!pair.client.should_close());
        prop_assert!(!pair.server.should_close());
    }
}
