//! The http-net connection sides of the benches do the work their names say.

use http_net_compare::httpnet::conn::{Client, Server};
use http_net_compare::{inputs, pipeline};

#[test]
fn server_exchange_answers_with_the_five_fields_and_the_body() {
    let mut s = Server::new();
    for _ in 0..3 {
        let n = s.exchange(inputs::EXCHANGE_REQUEST, inputs::answer_body());
        // The same head as response_1k.http, give or take field order.
        assert!(n >= inputs::RESPONSE_1K.len() - 4, "{n}");
    }
}

#[test]
fn client_exchange_reads_the_1k_body() {
    let mut c = Client::new();
    for _ in 0..3 {
        assert_eq!(c.exchange(inputs::RESPONSE_1K), 1024);
    }
}

#[test]
fn pipelined_answers_every_request() {
    let input = inputs::pipelined();
    let mut s = Server::new();
    assert_eq!(s.pipelined(&input), inputs::PIPELINED);
    let mut lp = pipeline::Loop::new();
    let n = lp.run(&input, |b| {
        let mut st = http_net_compare::httparse_side::storage();
        http_net_compare::httparse_side::request(b, &mut st)
    });
    assert_eq!(n, inputs::PIPELINED);
}

#[test]
fn upload_sees_every_body_byte() {
    let mut s = Server::new();
    assert_eq!(s.upload(&inputs::length_message()), inputs::MIB);
    assert_eq!(s.upload(&inputs::length_message()), inputs::MIB);
}
