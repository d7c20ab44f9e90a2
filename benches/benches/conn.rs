//! `http-net-conn` benches (H2, H3, H5 of docs/PERFORMANCE.md and the seeds' server shapes):
//! whole requests read and answered by a `ServerConn`, responses read by a
//! `ClientConn`, and full exchanges with the bytes moved in and out as an
//! adapter would. Names are stable for A/B runs.
//!
//! Run pinned: `taskset -c 1 cargo bench -p http-net-benches --bench conn
//! -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use http_net_benches::{BROWSER_GET, EXCHANGE_REQUEST, RESPONSE_1K, SMALL_GET};
use http_net_conn::{
    BodyLength, ClientConn, ClientEvent, Config, FieldPair, Placement, PreparedResponse,
    ServerConn, ServerEvent,
};

const READ: usize = 16 * 1024;
const PIPELINED: usize = 100_000;

/// The fields (all but `Content-Length`, which the connection writes) and the
/// body of `response_1k.http`: the H2 answer.
/// Owned (name, value) pairs.
type OwnedFields = Vec<(Vec<u8>, Vec<u8>)>;

fn response_1k_parts() -> (OwnedFields, &'static [u8]) {
    let split = RESPONSE_1K
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap();
    let head = std::str::from_utf8(&RESPONSE_1K[..split]).unwrap();
    let fields = head
        .split("\r\n")
        .skip(1)
        .map(|line| line.split_once(": ").unwrap())
        .filter(|(n, _)| !n.eq_ignore_ascii_case("content-length"))
        .map(|(n, v)| (n.as_bytes().to_vec(), v.as_bytes().to_vec()))
        .collect();
    (fields, &RESPONSE_1K[split + 4..])
}

/// Reads one request from `input` and answers it with `answer` at its end;
/// returns the output length (consumed, as if written).
#[inline(always)]
fn serve_one(
    conn: &mut ServerConn,
    input: &[u8],
    answer: &mut impl FnMut(&mut ServerConn),
) -> usize {
    let taken = conn.recv(input);
    debug_assert_eq!(taken, input.len());
    loop {
        match conn.poll_event() {
            Ok(ServerEvent::End(_)) => answer(conn),
            Ok(ServerEvent::NeedInput) => break,
            Ok(ServerEvent::Request(r)) => {
                black_box(r.target());
            }
            Ok(ServerEvent::Data(d)) => {
                black_box(d);
            }
            other => panic!("{other:?}"),
        }
    }
    let n = conn.output().len();
    conn.consume_output(n);
    n
}

fn server(c: &mut Criterion) {
    let mut g = c.benchmark_group("server");

    let no_content = PreparedResponse::new(204, &[]).unwrap();
    let mut conn = ServerConn::new(Config::DEFAULT);
    let mut answer = |c: &mut ServerConn| {
        let placed = c.responder().respond(&no_content, b"").unwrap();
        debug_assert_eq!(placed, Placement::Queued);
    };
    assert_eq!(
        serve_one(&mut conn, BROWSER_GET, &mut answer),
        b"HTTP/1.1 204 No Content\r\n\r\n".len()
    );
    g.throughput(Throughput::Elements(1));
    g.bench_function("browser_get_204", |b| {
        b.iter(|| serve_one(&mut conn, black_box(BROWSER_GET), &mut answer))
    });

    let (fields, body) = response_1k_parts();
    let pairs: Vec<FieldPair<'_>> = fields
        .iter()
        .map(|(n, v)| (n.as_slice(), v.as_slice()))
        .collect();
    let prebuilt = PreparedResponse::new(200, &pairs).unwrap();
    let mut conn = ServerConn::new(Config::DEFAULT);
    let mut answer = |c: &mut ServerConn| {
        let placed = c.responder().respond(&prebuilt, body).unwrap();
        debug_assert_eq!(placed, Placement::Queued);
    };
    assert_eq!(
        serve_one(&mut conn, EXCHANGE_REQUEST, &mut answer),
        RESPONSE_1K.len()
    );
    g.bench_function("response_prebuilt_five_fields_1k", |b| {
        b.iter(|| serve_one(&mut conn, black_box(EXCHANGE_REQUEST), &mut answer))
    });

    let mut conn = ServerConn::new(Config::DEFAULT);
    let mut answer = |c: &mut ServerConn| {
        let mut r = c.responder();
        r.send_head(200, black_box(&pairs), BodyLength::Known(body.len() as u64))
            .unwrap();
        let placed = r.send_data(body).unwrap();
        debug_assert_eq!(placed, Placement::Queued);
        r.send_end(&[]).unwrap();
    };
    assert_eq!(
        serve_one(&mut conn, EXCHANGE_REQUEST, &mut answer),
        RESPONSE_1K.len()
    );
    g.bench_function("write_head_five_fields_1k", |b| {
        b.iter(|| serve_one(&mut conn, black_box(EXCHANGE_REQUEST), &mut answer))
    });

    // H5: 100,000 pipelined small GETs in 16 KiB reads, each answered.
    let stream: Vec<u8> = SMALL_GET.repeat(PIPELINED);
    let ok = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
    let pipelined = |conn: &mut ServerConn| {
        let mut fed = 0;
        let mut answered = 0;
        while fed < stream.len() {
            let spare = conn.spare_mut();
            let n = spare.len().min(READ).min(stream.len() - fed);
            spare[..n].copy_from_slice(&stream[fed..fed + n]);
            conn.commit(n);
            fed += n;
            loop {
                match conn.poll_event() {
                    Ok(ServerEvent::End(_)) => {
                        let placed = conn.responder().respond(&ok, b"ok").unwrap();
                        debug_assert_eq!(placed, Placement::Queued);
                        answered += 1;
                    }
                    Ok(ServerEvent::NeedInput) => break,
                    Ok(ServerEvent::Paused) => {
                        let n = conn.output().len();
                        conn.consume_output(n);
                    }
                    Ok(ServerEvent::Request(_)) => {}
                    other => panic!("{other:?}"),
                }
            }
            let n = conn.output().len();
            conn.consume_output(n);
        }
        answered
    };
    // One connection, reset between iterations (as an adapter reuses one per
    // thread): the steady state, without allocating and zeroing the buffers
    // of a new connection in every iteration.
    let mut conn = ServerConn::new(Config::DEFAULT);
    assert_eq!(pipelined(&mut conn), PIPELINED);
    g.throughput(Throughput::Elements(PIPELINED as u64));
    g.sample_size(20);
    g.bench_function("pipelined_100k_small_gets", |b| {
        b.iter(|| {
            conn.reset();
            pipelined(&mut conn)
        })
    });
    g.finish();
}

/// Sends a GET and reads `response` through `End`; returns the body length.
#[inline(always)]
fn fetch_one(conn: &mut ClientConn, response: &[u8]) -> usize {
    conn.send_request(
        b"GET",
        b"/plaintext",
        &[(b"Host", b"localhost")],
        BodyLength::Empty,
    )
    .unwrap();
    let n = conn.output().len();
    conn.consume_output(n);
    let taken = conn.recv(response);
    debug_assert_eq!(taken, response.len());
    let mut body = 0;
    loop {
        match conn.poll_event() {
            Ok(ClientEvent::Response(r)) => {
                black_box(r.status());
            }
            Ok(ClientEvent::Data(d)) => body += black_box(d).len(),
            Ok(ClientEvent::End(_)) => return body,
            other => panic!("{other:?}"),
        }
    }
}

fn client(c: &mut Criterion) {
    let mut g = c.benchmark_group("client");
    let mut conn = ClientConn::new(Config::DEFAULT);
    assert_eq!(fetch_one(&mut conn, RESPONSE_1K), 1024);
    g.throughput(Throughput::Elements(1));
    g.bench_function("parse_response_1k", |b| {
        b.iter(|| fetch_one(&mut conn, black_box(RESPONSE_1K)))
    });
    g.finish();
}

/// Full exchanges: the bytes are read into the connection through
/// `spare_mut`/`commit` and written out of it into a sink, as an adapter
/// does with a socket.
fn exchange(c: &mut Criterion) {
    let mut g = c.benchmark_group("exchange");
    g.throughput(Throughput::Elements(1));

    let (fields, body) = response_1k_parts();
    let pairs: Vec<FieldPair<'_>> = fields
        .iter()
        .map(|(n, v)| (n.as_slice(), v.as_slice()))
        .collect();
    let prebuilt = PreparedResponse::new(200, &pairs).unwrap();
    let mut conn = ServerConn::new(Config::DEFAULT);
    conn.set_date(b"Mon, 30 Nov 2026 12:00:00 GMT");
    let mut sink = Vec::with_capacity(4096);
    let server_full = |conn: &mut ServerConn, sink: &mut Vec<u8>| {
        let spare = conn.spare_mut();
        spare[..EXCHANGE_REQUEST.len()].copy_from_slice(black_box(EXCHANGE_REQUEST));
        conn.commit(EXCHANGE_REQUEST.len());
        loop {
            match conn.poll_event() {
                Ok(ServerEvent::Request(r)) => {
                    black_box(r.field(b"accept"));
                }
                Ok(ServerEvent::End(_)) => {
                    let placed = conn.responder().respond(&prebuilt, body).unwrap();
                    debug_assert_eq!(placed, Placement::Queued);
                }
                Ok(ServerEvent::NeedInput) => break,
                other => panic!("{other:?}"),
            }
        }
        sink.clear();
        sink.extend_from_slice(conn.output());
        let n = conn.output().len();
        conn.consume_output(n);
        black_box(sink.len())
    };
    server_full(&mut conn, &mut sink);
    // The answer's own `Date` wins over the connection's: the bytes are the file's.
    assert_eq!(sink, RESPONSE_1K);
    g.bench_function("server_full", |b| {
        b.iter(|| server_full(&mut conn, &mut sink))
    });

    let mut conn = ClientConn::new(Config::DEFAULT);
    let request_fields: [FieldPair<'_>; 4] = [
        (b"Host", b"localhost"),
        (b"User-Agent", b"perf-micro/1"),
        (b"Accept", b"text/plain"),
        (b"Accept-Encoding", b"identity"),
    ];
    let mut out = Vec::with_capacity(4096);
    let client_full = |conn: &mut ClientConn, out: &mut Vec<u8>| {
        conn.send_request(
            b"GET",
            b"/plaintext",
            black_box(&request_fields),
            BodyLength::Empty,
        )
        .unwrap();
        out.clear();
        out.extend_from_slice(conn.output());
        let n = conn.output().len();
        conn.consume_output(n);
        let spare = conn.spare_mut();
        spare[..RESPONSE_1K.len()].copy_from_slice(black_box(RESPONSE_1K));
        conn.commit(RESPONSE_1K.len());
        loop {
            match conn.poll_event() {
                Ok(ClientEvent::Response(r)) => {
                    black_box(r.field(b"content-type"));
                }
                Ok(ClientEvent::Data(d)) => out.extend_from_slice(d),
                Ok(ClientEvent::End(_)) => break,
                other => panic!("{other:?}"),
            }
        }
        black_box(out.len())
    };
    client_full(&mut conn, &mut out);
    assert!(out.ends_with(&RESPONSE_1K[RESPONSE_1K.len() - 1024..]));
    g.bench_function("client_full", |b| {
        b.iter(|| client_full(&mut conn, &mut out))
    });
    g.finish();
}

criterion_group!(benches, server, client, exchange);
criterion_main!(benches);
