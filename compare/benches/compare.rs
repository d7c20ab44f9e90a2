//! `cargo xtask compare`: the workloads H1-H5 of docs/PERFORMANCE.md, http-net against
//! httparse, picohttpparser and hyper, on the same bytes. Each bench id is
//! `<workload>/<side>`; `xtask` runs each one as its own process and
//! interleaves the sides round after round.
//!
//! Every side of a workload does the same work: the bare parsers get the
//! framing pass of `rules.rs` (http-net's strictness rules), proven equivalent
//! by `tests/equivalence.rs`, and each has a `_parse_only` twin so that the
//! pass's own cost is reported. H5's goal is against the lean httparse loop
//! (`lean.rs`: one pass for the length and keep-alive, the same 52-byte
//! answers as `ServerConn`); the loop with the whole pass is its own row. On the tokio duplex (H2, H3 client, H5),
//! http-net runs through `http-net-tokio` on the same pipe and runtime as
//! hyper, beside the runtime moving the same bytes with no HTTP.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use http_net_compare::inputs::{self, BROWSER_GET, CHUNK, MIB, READ, RESPONSE_1K};
use http_net_compare::rules::Verdict;
use http_net_compare::{httparse_side, httpnet, lean, pico, pipeline};
use http_net_framing::ChunkedDecoder;
use http_net_head::Method;

fn complete(v: Verdict) -> Verdict {
    debug_assert!(matches!(v, Verdict::Complete(_)), "{v:?}");
    v
}

/// H1: request head and framing of the 12-field browser GET.
fn h1(c: &mut Criterion) {
    let mut g = c.benchmark_group("h1_request_head");
    let mut parser = httpnet::request_parser();
    let mut fields = httpnet::storage();
    g.bench_function("http-net", |b| {
        b.iter(|| {
            complete(httpnet::request(
                &mut parser,
                black_box(BROWSER_GET),
                &mut fields,
            ))
        })
    });
    let mut hs = httparse_side::storage();
    g.bench_function("httparse", |b| {
        b.iter(|| complete(httparse_side::request(black_box(BROWSER_GET), &mut hs)))
    });
    let mut hs = httparse_side::storage();
    g.bench_function("httparse_parse_only", |b| {
        b.iter(|| {
            let mut req = httparse::Request::new(&mut []);
            let r = req.parse_with_uninit_headers(black_box(BROWSER_GET), &mut hs);
            black_box(r.map(|s| s.is_complete()))
        })
    });
    let mut ps = pico::storage();
    g.bench_function("picohttpparser", |b| {
        b.iter(|| complete(pico::request(black_box(BROWSER_GET), &mut ps)))
    });
    let mut ps = pico::storage();
    g.bench_function("picohttpparser_parse_only", |b| {
        b.iter(|| pico::parse_request_only(black_box(BROWSER_GET), &mut ps))
    });
    g.finish();
}

/// H3 (head): response head and framing of `response_1k.http`.
fn h3_head(c: &mut Criterion) {
    let mut g = c.benchmark_group("h3_response_head");
    let mut parser = httpnet::response_parser();
    let mut fields = httpnet::storage();
    g.bench_function("http-net", |b| {
        b.iter(|| {
            complete(httpnet::response(
                &mut parser,
                black_box(RESPONSE_1K),
                Method::Get,
                &mut fields,
            ))
        })
    });
    let mut hs = httparse_side::storage();
    g.bench_function("httparse", |b| {
        b.iter(|| {
            complete(httparse_side::response(
                black_box(RESPONSE_1K),
                b"GET",
                &mut hs,
            ))
        })
    });
    let mut ps = pico::storage();
    g.bench_function("picohttpparser", |b| {
        b.iter(|| complete(pico::response(black_box(RESPONSE_1K), b"GET", &mut ps)))
    });
    // The parsers alone: the framing pass's own cost is the difference.
    let mut hs = httparse_side::storage();
    g.bench_function("httparse_parse_only", |b| {
        b.iter(|| {
            let mut res = httparse::Response::new(&mut []);
            let mut config = httparse::ParserConfig::default();
            config.allow_obsolete_multiline_headers_in_responses(true);
            let r = config.parse_response_with_uninit_headers(
                &mut res,
                black_box(RESPONSE_1K),
                &mut hs,
            );
            black_box(r.map(|s| s.is_complete()))
        })
    });
    let mut ps = pico::storage();
    g.bench_function("picohttpparser_parse_only", |b| {
        b.iter(|| pico::parse_response_only(black_box(RESPONSE_1K), &mut ps))
    });
    g.finish();
}

/// H4: the 1 MiB body in 4 KiB chunks.
fn h4(c: &mut Criterion) {
    let mut g = c.benchmark_group("h4_chunked_1mib");
    let body = inputs::body_bytes(MIB);
    let framed = inputs::chunked(&body, CHUNK);
    let mut out = Vec::with_capacity(MIB);
    g.bench_function("http-net_copy_out", |b| {
        let mut dec = ChunkedDecoder::new(httpnet::BODY_LIMITS, http_net_head::HeadLimits::DEFAULT);
        b.iter(|| {
            dec.reset();
            out.clear();
            let mut input = black_box(&framed[..]);
            loop {
                let step = dec.decode(input, &mut []).expect("valid chunked body");
                out.extend_from_slice(&input[step.data.clone()]);
                input = &input[step.consumed..];
                if step.done {
                    break;
                }
            }
            assert_eq!(out.len(), MIB);
        })
    });
    let mut work = framed.clone();
    g.bench_function("http-net_in_place", |b| {
        let mut dec = ChunkedDecoder::new(httpnet::BODY_LIMITS, http_net_head::HeadLimits::DEFAULT);
        b.iter(|| {
            work.copy_from_slice(black_box(&framed));
            dec.reset();
            let step = dec
                .decode_in_place(&mut work, &mut [])
                .expect("valid chunked body");
            assert!(step.done && step.data_len == MIB);
        })
    });
    let mut work = framed.clone();
    g.bench_function("picohttpparser_in_place", |b| {
        b.iter(|| {
            work.copy_from_slice(black_box(&framed));
            let n = pico::decode_chunked_in_place(&mut work).expect("valid chunked body");
            assert_eq!(n, MIB);
        })
    });
    let mut out = Vec::with_capacity(MIB);
    g.bench_function("httparse_copy_out", |b| {
        b.iter(|| {
            let n = httparse_side::chunked_copy_out(black_box(&framed), &mut out);
            assert_eq!(n, Some(MIB));
        })
    });
    let mut work = framed.clone();
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            work.copy_from_slice(black_box(&framed));
            black_box(&work);
        })
    });
    g.finish();
}

/// H4b: the 1 MiB Content-Length body arriving in 16 KiB reads.
fn h4b(c: &mut Criterion) {
    let mut g = c.benchmark_group("h4b_length_1mib");
    let message = inputs::length_message();
    let mut server = httpnet::conn::Server::new();
    g.bench_function("http-net", |b| {
        b.iter(|| assert_eq!(server.upload(black_box(&message)), MIB))
    });
    let mut recv = vec![0u8; READ];
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            let mut total = 0;
            for piece in black_box(&message[..]).chunks(READ) {
                recv[..piece.len()].copy_from_slice(piece);
                total += black_box(&recv[..piece.len()]).len();
            }
            assert_eq!(total, message.len());
        })
    });
    g.finish();
}

/// H5: 100,000 pipelined small GETs in 16 KiB reads, each answered.
fn h5(c: &mut Criterion) {
    let mut g = c.benchmark_group("h5_pipelined_100k");
    g.sample_size(10);
    let input: &'static [u8] = Box::leak(inputs::pipelined().into_boxed_slice());
    // ServerConn and the lean loop emit the same bytes (52-byte answers),
    // each handing its output on after every read.
    let mut server = httpnet::conn::Pipelined::new();
    g.bench_function("http-net", |b| {
        b.iter(|| {
            let mut sent = 0;
            let n = server.run(black_box(input), |o| sent += black_box(o).len());
            assert_eq!(n, inputs::PIPELINED);
            sent
        })
    });
    let mut lean = lean::LeanLoop::new();
    g.bench_function("httparse_lean", |b| {
        b.iter(|| {
            let mut sent = 0;
            let n = lean.run(black_box(input), |o| sent += black_box(o).len());
            assert_eq!(n, Ok(inputs::PIPELINED));
            sent
        })
    });
    // The heavier loop: httparse with the whole framing pass of rules.rs.
    let mut lp = pipeline::Loop::new();
    g.bench_function("httparse_full_rules", |b| {
        b.iter(|| {
            let n = lp.run(black_box(input), |buf| {
                let mut s = httparse_side::storage();
                httparse_side::request(buf, &mut s)
            });
            assert_eq!(n, inputs::PIPELINED);
        })
    });
    let mut ps = pico::storage();
    g.bench_function("picohttpparser", |b| {
        b.iter(|| {
            let n = lp.run(black_box(input), |buf| pico::request(buf, &mut ps));
            assert_eq!(n, inputs::PIPELINED);
        })
    });
    // The same loops with the parsers alone (every request taken as a
    // keep-alive GET without a body): the framing pass's own cost is the
    // difference.
    g.bench_function("httparse_parse_only", |b| {
        b.iter(|| {
            let n = lp.run(black_box(input), |buf| {
                let mut s = httparse_side::storage();
                let mut req = httparse::Request::new(&mut []);
                match req.parse_with_uninit_headers(buf, &mut s) {
                    Ok(httparse::Status::Complete(len)) => pipeline::parsed_only(len),
                    Ok(httparse::Status::Partial) => Verdict::Partial,
                    Err(_) => Verdict::Reject(400),
                }
            });
            assert_eq!(n, inputs::PIPELINED);
        })
    });
    let mut ps = pico::storage();
    g.bench_function("picohttpparser_parse_only", |b| {
        b.iter(|| {
            let n = lp.run(black_box(input), |buf| {
                match pico::parse_request_only(buf, &mut ps) {
                    len if len > 0 => pipeline::parsed_only(len as usize),
                    -2 => Verdict::Partial,
                    _ => Verdict::Reject(400),
                }
            });
            assert_eq!(n, inputs::PIPELINED);
        })
    });
    #[cfg(feature = "hyper")]
    {
        let mut ours = http_net_compare::tokio_side::Pipelined::new(input);
        g.bench_function("http-net-tokio", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| ours.run_once()).sum())
        });
        drop(ours);
        let mut hy = http_net_compare::hyper_side::Pipelined::new(input);
        let response_len = hy.response_len();
        g.bench_function("hyper", |b| {
            b.iter_custom(|iters| (0..iters).map(|_| hy.run_once()).sum())
        });
        let rt = http_net_compare::hyper_side::runtime();
        g.bench_function("tokio_no_http", |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        http_net_compare::hyper_side::runtime_pipelined(&rt, input, response_len)
                    })
                    .sum()
            })
        });
    }
    g.finish();
}

/// H2: the full server exchange: `exchange_request.http` in, the five
/// fields of `response_1k.http` and its 1 KiB body out.
#[cfg(feature = "hyper")]
fn h2(c: &mut Criterion) {
    use http_net_compare::hyper_side::{RuntimeExchange, ServerExchange};
    let mut g = c.benchmark_group("h2_server_exchange");
    let mut server = httpnet::conn::Server::new();
    let body = inputs::answer_body();
    g.bench_function("http-net", |b| {
        b.iter(|| server.exchange(black_box(inputs::EXCHANGE_REQUEST), body))
    });
    let mut ours = http_net_compare::tokio_side::ServerExchange::new();
    g.bench_function("http-net-tokio", |b| b.iter_custom(|iters| ours.run(iters)));
    drop(ours);
    // The ceiling: the core driven directly, no deadlines, no slots.
    let mut core = http_net_compare::conn_duplex::ServerExchange::new();
    g.bench_function("serverconn_duplex", |b| {
        b.iter_custom(|iters| core.run(iters))
    });
    drop(core);
    let mut hy = ServerExchange::new();
    let response = hy.response.clone();
    g.bench_function("hyper", |b| b.iter_custom(|iters| hy.run(iters)));
    drop(hy);
    let mut rt = RuntimeExchange::new(inputs::EXCHANGE_REQUEST.to_vec(), response);
    g.bench_function("tokio_no_http", |b| b.iter_custom(|iters| rt.run(iters)));
    g.finish();
}

/// H3 (client): the full client exchange.
#[cfg(feature = "hyper")]
fn h3_client(c: &mut Criterion) {
    use http_net_compare::hyper_side::{ClientExchange, RuntimeExchange};
    let mut g = c.benchmark_group("h3_client_exchange");
    let mut client = httpnet::conn::Client::new();
    g.bench_function("http-net", |b| {
        b.iter(|| assert_eq!(client.exchange(black_box(RESPONSE_1K)), 1024))
    });
    let mut ours = http_net_compare::tokio_side::ClientExchange::new();
    g.bench_function("http-net-tokio", |b| b.iter_custom(|iters| ours.run(iters)));
    drop(ours);
    // The ceiling: the core driven directly, no deadlines, no slots.
    let mut core = http_net_compare::conn_duplex::ClientExchange::new();
    g.bench_function("clientconn_duplex", |b| {
        b.iter_custom(|iters| core.run(iters))
    });
    drop(core);
    let mut hy = ClientExchange::new();
    let request = hy.request.clone();
    g.bench_function("hyper", |b| b.iter_custom(|iters| hy.run(iters)));
    drop(hy);
    let mut rt = RuntimeExchange::new(request, RESPONSE_1K.to_vec());
    g.bench_function("tokio_no_http", |b| b.iter_custom(|iters| rt.run(iters)));
    g.finish();
}

#[cfg(not(feature = "hyper"))]
fn h2(_: &mut Criterion) {}
#[cfg(not(feature = "hyper"))]
fn h3_client(_: &mut Criterion) {}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = h1, h2, h3_head, h3_client, h4, h4b, h5
}
criterion_main!(benches);
