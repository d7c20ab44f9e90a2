//! The connection layer's per-request cost in instructions: run under
//! callgrind (`valgrind --tool=callgrind`) with `WORKLOAD N` for two values
//! of N; the difference of the totals over the difference of N is one
//! iteration (start-up and buffer allocation cancel out). The loops are the
//! ones `cargo xtask compare` times, called through the same functions.
//!
//! WORKLOAD:
//! - `h5`: `ServerConn`, [`PIPELINED`] pipelined `small_get.http` in 16 KiB
//!   reads, each answered (compare's `h5_pipelined_100k/http-net`); one
//!   iteration is [`PIPELINED`] requests.
//! - `h5_httparse_lean`: the lean httparse loop of `lean.rs`, the same
//!   52-byte answers (`h5_pipelined_100k/httparse_lean`).
//! - `h5_httparse`: the loop over httparse with the whole `rules.rs` pass
//!   (`h5_pipelined_100k/httparse_full_rules`).
//! - `h5_httparse_parse_only`: the same loop over httparse alone
//!   (`h5_pipelined_100k/httparse_parse_only`).
//! - `h2`: `ServerConn`, `exchange_request.http` in, the five-field 1 KiB
//!   answer out (`h2_server_exchange/http-net`); one exchange an iteration.
//! - `h3c`: `ClientConn`, `GET /` out, `response_1k.http` in
//!   (`h3_client_exchange/http-net`); one exchange an iteration.
//! - `h2_tokio`, `h2_hyper`, `h2_runtime` (with the `hyper` feature): H2
//!   over the tokio duplex, current-thread (`h2_server_exchange/http-net-tokio`,
//!   `/hyper`, `/runtime_only`); one exchange an iteration. Everything runs
//!   on the one runtime thread, so callgrind counts the whole exchange:
//!   the peer, the runtime and the library.
//! - `h2_core_duplex`, `h3c_core_duplex` (with the `hyper` feature): the
//!   ceiling rows, `ServerConn` / `ClientConn` driven directly over the
//!   same duplex (`h2_server_exchange/serverconn_duplex`,
//!   `h3_client_exchange/clientconn_duplex`); one exchange an iteration.
//! - `h3c_tokio`, `h3c_hyper` (with the `hyper` feature): the H3 client
//!   exchange over the tokio duplex (`h3_client_exchange/http-net-tokio`,
//!   `/hyper`); one exchange an iteration.
//! - `h5_tokio`, `h5_hyper` (with the `hyper` feature): H5 over the tokio
//!   duplex (`h5_pipelined_100k/http-net-tokio`, `/hyper`); one iteration
//!   is [`PIPELINED`] requests.
//! - `h1`, `h3head`: the head benches' http-net sides (head parse and
//!   framing decision of `browser_get.http`, of `response_1k.http`), the
//!   guards for a change in `head` or `framing`.

use std::hint::black_box;

use http_net_compare::inputs::{self, PIPELINED, RESPONSE_1K};
use http_net_compare::rules::Verdict;
use http_net_compare::{httparse_side, httpnet, pipeline};
use http_net_head::Method;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let workload = args.first().map_or("h5", String::as_str);
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut done = 0usize;
    match workload {
        "h5" => {
            let input = inputs::pipelined();
            let mut server = httpnet::conn::Pipelined::new();
            for _ in 0..n {
                done += server.run(black_box(&input), |o| {
                    black_box(o);
                });
            }
            assert_eq!(done, n * PIPELINED);
        }
        "h5_httparse_lean" => {
            let input = inputs::pipelined();
            let mut lp = http_net_compare::lean::LeanLoop::new();
            for _ in 0..n {
                done += lp
                    .run(black_box(&input), |o| {
                        black_box(o);
                    })
                    .expect("every request answered");
            }
            assert_eq!(done, n * PIPELINED);
        }
        "h5_httparse" | "h5_httparse_parse_only" => {
            let input = inputs::pipelined();
            let mut lp = pipeline::Loop::new();
            let parse_only = workload == "h5_httparse_parse_only";
            for _ in 0..n {
                done += if parse_only {
                    lp.run(black_box(&input), |buf| {
                        let mut s = httparse_side::storage();
                        let mut req = httparse::Request::new(&mut []);
                        match req.parse_with_uninit_headers(buf, &mut s) {
                            Ok(httparse::Status::Complete(len)) => pipeline::parsed_only(len),
                            Ok(httparse::Status::Partial) => Verdict::Partial,
                            Err(_) => Verdict::Reject(400),
                        }
                    })
                } else {
                    lp.run(black_box(&input), |buf| {
                        let mut s = httparse_side::storage();
                        httparse_side::request(buf, &mut s)
                    })
                };
            }
            assert_eq!(done, n * PIPELINED);
        }
        "h2" => {
            let mut server = httpnet::conn::Server::new();
            let body = inputs::answer_body();
            for _ in 0..n {
                done += usize::from(server.exchange(black_box(inputs::EXCHANGE_REQUEST), body) > 0);
            }
            assert_eq!(done, n);
        }
        "h3c" => {
            let mut client = httpnet::conn::Client::new();
            for _ in 0..n {
                done += usize::from(client.exchange(black_box(RESPONSE_1K)) == 1024);
            }
            assert_eq!(done, n);
        }
        #[cfg(feature = "hyper")]
        "h2_tokio" | "h2_hyper" | "h2_runtime" => {
            use http_net_compare::{hyper_side, tokio_side};
            let iters = n as u64;
            match workload {
                "h2_tokio" => {
                    tokio_side::ServerExchange::new().run(iters);
                }
                "h2_hyper" => {
                    hyper_side::ServerExchange::new().run(iters);
                }
                _ => {
                    let answer = hyper_side::ServerExchange::new().response;
                    hyper_side::RuntimeExchange::new(inputs::EXCHANGE_REQUEST.to_vec(), answer)
                        .run(iters);
                }
            }
            done = n;
        }
        #[cfg(feature = "hyper")]
        "h2_core_duplex" => {
            http_net_compare::conn_duplex::ServerExchange::new().run(n as u64);
            done = n;
        }
        #[cfg(feature = "hyper")]
        "h3c_core_duplex" => {
            http_net_compare::conn_duplex::ClientExchange::new().run(n as u64);
            done = n;
        }
        #[cfg(feature = "hyper")]
        "h3c_tokio" => {
            http_net_compare::tokio_side::ClientExchange::new().run(n as u64);
            done = n;
        }
        #[cfg(feature = "hyper")]
        "h3c_hyper" => {
            http_net_compare::hyper_side::ClientExchange::new().run(n as u64);
            done = n;
        }
        #[cfg(feature = "hyper")]
        "h5_tokio" => {
            let mut p = http_net_compare::tokio_side::Pipelined::new(Box::leak(
                inputs::pipelined().into_boxed_slice(),
            ));
            for _ in 0..n {
                p.run_once();
            }
            done = n;
        }
        #[cfg(feature = "hyper")]
        "h5_hyper" => {
            let mut p = http_net_compare::hyper_side::Pipelined::new(Box::leak(
                inputs::pipelined().into_boxed_slice(),
            ));
            for _ in 0..n {
                p.run_once();
            }
            done = n;
        }
        "h1" | "h3head" => {
            let mut req = httpnet::request_parser();
            let mut res = httpnet::response_parser();
            let mut fields = httpnet::storage();
            for _ in 0..n {
                let v = if workload == "h1" {
                    httpnet::request(&mut req, black_box(inputs::BROWSER_GET), &mut fields)
                } else {
                    httpnet::response(&mut res, black_box(RESPONSE_1K), Method::Get, &mut fields)
                };
                done += usize::from(matches!(v, Verdict::Complete(_)));
            }
            assert_eq!(done, n);
        }
        other => panic!("unknown workload {other}"),
    }
    println!("{workload}: {n} iterations, {done} done");
}
