//! H1 / H3 (head part): parsing the browser GET and the 1 KiB response head
//! with http-net and with httparse, in one run.
//!
//! httparse does less work: it records none of the fields framing depends on, checks no `Host`,
//! and accepts more target and value bytes. The http-net figures include all
//! of it.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use http_net_benches::{BROWSER_GET, RESPONSE_1K};
use http_net_head::{Field, HeadLimits, Parsed, RequestParser, ResponseOptions, ResponseParser};

fn request_head(c: &mut Criterion) {
    let mut parser = RequestParser::new(HeadLimits::DEFAULT);
    let mut fields = [Field::default(); 32];
    c.benchmark_group("request_head")
        .bench_function("browser_get", |b| {
            b.iter(|| {
                parser.reset();
                match parser.parse(black_box(BROWSER_GET), &mut fields) {
                    Ok(Parsed::Complete(head)) => black_box(head.len),
                    _ => unreachable!("the bench input is a valid head"),
                }
            })
        });

    let mut headers = [httparse::EMPTY_HEADER; 32];
    c.benchmark_group("request_head_httparse")
        .bench_function("browser_get", |b| {
            b.iter(|| {
                let mut req = httparse::Request::new(&mut headers);
                match req.parse(black_box(BROWSER_GET)) {
                    Ok(httparse::Status::Complete(n)) => black_box(n),
                    _ => unreachable!("the bench input is a valid head"),
                }
            })
        });
}

fn response_head(c: &mut Criterion) {
    let mut parser = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::default());
    let mut fields = [Field::default(); 32];
    c.benchmark_group("response_head")
        .bench_function("response_1k", |b| {
            b.iter(|| {
                parser.reset();
                match parser.parse(black_box(RESPONSE_1K), &mut fields) {
                    Ok(Parsed::Complete(head)) => black_box(head.len),
                    _ => unreachable!("the bench input is a valid head"),
                }
            })
        });

    let mut headers = [httparse::EMPTY_HEADER; 32];
    c.benchmark_group("response_head_httparse")
        .bench_function("response_1k", |b| {
            b.iter(|| {
                let mut res = httparse::Response::new(&mut headers);
                match res.parse(black_box(RESPONSE_1K)) {
                    Ok(httparse::Status::Complete(n)) => black_box(n),
                    _ => unreachable!("the bench input is a valid head"),
                }
            })
        });
}

criterion_group!(benches, request_head, response_head);
criterion_main!(benches);
