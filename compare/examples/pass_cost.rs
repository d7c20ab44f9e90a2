//! The framing pass's own cost in instructions: run under callgrind
//! (`valgrind --tool=callgrind`) with `SIDE N` for two values of N; the
//! difference of the totals over the difference of N is one iteration.
//!
//! SIDE: `httparse` (parse + pass), `httparse_parse_only`, `pico`,
//! `pico_parse_only`, `httparse_response`, `httparse_response_parse_only`;
//! INPUT (optional): `browser_get` (default) or `small_get`.

use std::hint::black_box;

use http_net_compare::inputs::{BROWSER_GET, RESPONSE_1K, SMALL_GET};
use http_net_compare::rules::Verdict;
use http_net_compare::{httparse_side, pico};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let side = args.first().map_or("httparse", String::as_str);
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let input = match args.get(2).map(String::as_str) {
        Some("small_get") => SMALL_GET,
        _ => BROWSER_GET,
    };
    let mut hs = httparse_side::storage();
    let mut ps = pico::storage();
    let mut complete = 0usize;
    for _ in 0..n {
        let ok = match side {
            "httparse" => matches!(
                httparse_side::request(black_box(input), &mut hs),
                Verdict::Complete(_)
            ),
            "httparse_parse_only" => {
                let mut req = httparse::Request::new(&mut []);
                matches!(
                    req.parse_with_uninit_headers(black_box(input), &mut hs),
                    Ok(httparse::Status::Complete(_))
                )
            }
            "pico" => matches!(
                pico::request(black_box(input), &mut ps),
                Verdict::Complete(_)
            ),
            "pico_parse_only" => pico::parse_request_only(black_box(input), &mut ps) > 0,
            "httparse_response" => matches!(
                httparse_side::response(black_box(RESPONSE_1K), b"GET", &mut hs),
                Verdict::Complete(_)
            ),
            "httparse_response_parse_only" => {
                let mut res = httparse::Response::new(&mut []);
                let mut config = httparse::ParserConfig::default();
                config.allow_obsolete_multiline_headers_in_responses(true);
                matches!(
                    config.parse_response_with_uninit_headers(
                        &mut res,
                        black_box(RESPONSE_1K),
                        &mut hs
                    ),
                    Ok(httparse::Status::Complete(_))
                )
            }
            other => panic!("unknown side {other}"),
        };
        complete += usize::from(ok);
    }
    assert_eq!(complete, n, "every head complete");
    println!("{side}: {n} complete");
}
