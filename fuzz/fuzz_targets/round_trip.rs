//! Round trip: a random valid request is written by the client connection
//! and read by the server connection, and a random valid response is
//! written by the server and read by the client; both must come out as
//! they went in (method, target, fields, body, trailers; status, fields,
//! body, trailers), the wire bytes fed in random pieces.
#![no_main]

use http_net_conn::{BodyLength, ClientConn, Config, ServerConn};
use http_net_fuzz::{run_client_bytes, run_server_bytes, split, Ev, Rng};
use libfuzzer_sys::fuzz_target;

/// A cursor over the fuzz input that never fails (zeros past the end).
struct Gen<'a>(&'a [u8]);

impl Gen<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.byte() as usize % from.len()]
    }
    /// 0 to `max` bytes of `class`, each chosen by the input.
    fn run(&mut self, class: &[u8], min: usize, max: usize) -> Vec<u8> {
        let n = min + self.byte() as usize % (max - min + 1);
        (0..n).map(|_| self.pick(class)).collect()
    }
}

const TCHAR: &[u8] =
    b"!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const PCHAR: &[u8] = b"abcXYZ019-._~!$&'()*+,;=:@/?";
const VCHAR: &[u8] = b"abc XYZ 0123\t!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\x80\xff";

type Fields = Vec<(Vec<u8>, Vec<u8>)>;

fn fields(g: &mut Gen<'_>, max: usize) -> Fields {
    let n = g.byte() as usize % (max + 1);
    (0..n)
        .map(|_| {
            let mut name = b"x-".to_vec();
            name.extend(g.run(TCHAR, 1, 12));
            // A value: no whitespace at either end.
            let mut value = g.run(VCHAR, 0, 24);
            while value.first().is_some_and(|b| *b == b' ' || *b == b'\t') {
                value.remove(0);
            }
            while value.last().is_some_and(|b| *b == b' ' || *b == b'\t') {
                value.pop();
            }
            (name, value)
        })
        .collect()
}

#[derive(Clone, Copy, Debug)]
enum Framing {
    Empty,
    Known,
    Streamed,
}

fn ours(f: &Fields) -> Fields {
    f.iter()
        .filter(|(n, _)| n.starts_with(b"x-"))
        .cloned()
        .collect()
}

fn as_pairs(f: &Fields) -> Vec<(&[u8], &[u8])> {
    f.iter().map(|(n, v)| (&n[..], &v[..])).collect()
}

fuzz_target!(|input: &[u8]| {
    let mut g = Gen(input);
    let mut rng = Rng::new(&input[..input.len().min(4)]);

    // --- the request -----------------------------------------------------
    let method: &[u8] = g.pick(&[
        &b"GET"[..],
        b"POST",
        b"PUT",
        b"DELETE",
        b"PATCH",
        b"X-CUSTOM",
    ]);
    let mut target = b"/".to_vec();
    target.extend(g.run(PCHAR, 0, 40));
    let req_fields = fields(&mut g, 6);
    let framing = g.pick(&[Framing::Empty, Framing::Known, Framing::Streamed]);
    let pieces: Vec<Vec<u8>> = match framing {
        Framing::Empty => vec![],
        _ => (0..1 + g.byte() % 4)
            .map(|_| g.run(VCHAR, 1, 300))
            .collect(),
    };
    let body: Vec<u8> = pieces.concat();
    let trailers = match framing {
        Framing::Streamed => fields(&mut g, 2),
        _ => vec![],
    };
    let mut all = vec![(b"Host".to_vec(), b"a.example".to_vec())];
    all.extend(req_fields.iter().cloned());

    let mut client = ClientConn::new(Config::DEFAULT);
    let length = match framing {
        Framing::Empty => BodyLength::Empty,
        Framing::Known => BodyLength::Known(body.len() as u64),
        Framing::Streamed => BodyLength::Streamed,
    };
    client
        .send_request(method, &target, &as_pairs(&all), length)
        .expect("a valid request is written");
    if !matches!(framing, Framing::Empty) {
        let mut wire_tail = Vec::new();
        for p in &pieces {
            // A body piece the connection did not copy goes right after the
            // output (the vectored-write contract).
            if client.send_data(p).expect("body data") == http_net_conn::Placement::AfterOutput {
                wire_tail.push(p.clone());
            }
            assert!(wire_tail.is_empty(), "bodies here are below the copy limit");
        }
        client
            .send_end(&as_pairs(&trailers))
            .expect("end of request");
    }
    let wire = client.output().to_vec();
    client.consume_output(wire.len());

    let server_log = run_server_bytes(&split(&wire, &mut rng));
    let ev = &server_log.events;
    match ev.first() {
        Some(Ev::Request(m, t, f)) => {
            assert_eq!(&m[..], method);
            assert_eq!(t, &target);
            assert_eq!(ours(f), req_fields, "request fields");
        }
        other => panic!(
            "no request came out: {other:?} from {:?}",
            String::from_utf8_lossy(&wire)
        ),
    }
    assert_body_and_end(ev, &body, &trailers, "request");

    // --- the response ------------------------------------------------------
    let status: u16 = g.pick(&[200, 201, 202, 203, 206, 299, 400, 404, 418, 500, 503, 599]);
    let res_fields = fields(&mut g, 6);
    let framing = g.pick(&[Framing::Empty, Framing::Known, Framing::Streamed]);
    let pieces: Vec<Vec<u8>> = match framing {
        Framing::Empty => vec![],
        _ => (0..1 + g.byte() % 4)
            .map(|_| g.run(VCHAR, 1, 300))
            .collect(),
    };
    let body: Vec<u8> = pieces.concat();
    let trailers = match framing {
        Framing::Streamed => fields(&mut g, 2),
        _ => vec![],
    };
    let mut server = ServerConn::new(Config::DEFAULT);
    assert_eq!(server.recv(&wire), wire.len(), "the request fits");
    loop {
        match server.poll_event().expect("the request again") {
            http_net_conn::ServerEvent::End(_) => break,
            http_net_conn::ServerEvent::NeedInput => panic!("request incomplete"),
            _ => {}
        }
    }
    {
        let mut r = server.responder();
        let length = match framing {
            Framing::Empty => BodyLength::Empty,
            Framing::Known => BodyLength::Known(body.len() as u64),
            Framing::Streamed => BodyLength::Streamed,
        };
        r.send_head(status, &as_pairs(&res_fields), length)
            .expect("a valid response head");
        for p in &pieces {
            let placed = r.send_data(p).expect("body data");
            assert_eq!(placed, http_net_conn::Placement::Queued);
        }
        r.send_end(&as_pairs(&trailers)).expect("end of response");
    }
    let wire = server.output().to_vec();
    server.consume_output(wire.len());
    let client_log = run_client_bytes(client, &split(&wire, &mut rng));
    let ev = &client_log.events;
    match ev.first() {
        Some(Ev::Response(s, _, f)) => {
            assert_eq!(*s, status);
            assert_eq!(ours(f), res_fields, "response fields");
        }
        other => panic!(
            "no response came out: {other:?} from {:?}",
            String::from_utf8_lossy(&wire)
        ),
    }
    assert_body_and_end(ev, &body, &trailers, "response");
});

/// The data events joined must be `body`, and an end event must carry
/// exactly `trailers`; `what` names the message in the panic.
fn assert_body_and_end(ev: &[Ev], body: &[u8], trailers: &[(Vec<u8>, Vec<u8>)], what: &str) {
    let got_body: Vec<u8> = ev
        .iter()
        .filter_map(|e| {
            if let Ev::Data(d) = e {
                Some(&d[..])
            } else {
                None
            }
        })
        .collect::<Vec<_>>()
        .concat();
    assert_eq!(got_body, body, "{what} body");
    match ev.iter().find(|e| matches!(e, Ev::End(_))) {
        Some(Ev::End(t)) => assert_eq!(&t[..], trailers, "{what} trailers"),
        _ => panic!("no end of {what}: {ev:?}"),
    }
}
