//! The http-net connection sides of the benches do the work their names say.

use http_net_compare::httpnet::conn::{Client, Pipelined, Server};
use http_net_compare::{inputs, lean, pipeline};

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
    let mut s = Pipelined::new();
    assert_eq!(s.run(&input, |_| {}), inputs::PIPELINED);
    let mut lp = pipeline::Loop::new();
    let n = lp.run(&input, |b| {
        let mut st = http_net_compare::httparse_side::storage();
        http_net_compare::httparse_side::request(b, &mut st)
    });
    assert_eq!(n, inputs::PIPELINED);
    assert_eq!(lp.sent, inputs::PIPELINED * lean::ANSWER.len());
}

/// H5 on equal footing: `ServerConn` and the lean httparse loop take the
/// same 16 KiB reads and hand on, after each, the same bytes.
#[test]
fn lean_loop_and_serverconn_answer_the_100k_requests_alike() {
    let input = inputs::pipelined();
    let mut s = Pipelined::new();
    let mut l = lean::LeanLoop::new();
    for _ in 0..2 {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let (mut our_sends, mut their_sends) = (Vec::new(), Vec::new());
        let n = s.run(&input, |o| {
            our_sends.push(o.len());
            ours.extend_from_slice(o);
        });
        assert_eq!(n, inputs::PIPELINED);
        let n = l.run(&input, |o| {
            their_sends.push(o.len());
            theirs.extend_from_slice(o);
        });
        assert_eq!(n, Ok(inputs::PIPELINED));
        assert_eq!(&ours[..52], lean::ANSWER);
        assert_eq!(ours.len(), inputs::PIPELINED * 52);
        // (Not `assert_eq!` on 5 MB: the first difference, if any.)
        let first_difference = ours.iter().zip(&theirs).position(|(a, b)| a != b);
        assert_eq!(first_difference, None);
        assert_eq!(ours.len(), theirs.len());
        // The output is handed on once per read, the same bytes each time.
        assert_eq!(our_sends, their_sends);
        assert_eq!(our_sends.len(), input.len().div_ceil(inputs::READ));
    }
}

/// The ceiling rows over the duplex do what the adapter rows do.
#[cfg(feature = "hyper")]
mod ceiling {
    use http_net_compare::{conn_duplex, tokio_side};

    /// `bytes` with the value of its `Date` field blanked (the clock's).
    fn without_date(bytes: &[u8]) -> Vec<u8> {
        let at = bytes
            .windows(8)
            .position(|w| w == b"\r\nDate: ")
            .expect("a Date field")
            + 8;
        let mut b = bytes.to_vec();
        b[at..at + 29].fill(b'x');
        assert_eq!(&b[at + 29..at + 31], b"\r\n");
        b
    }

    #[test]
    fn serverconn_duplex_answers_as_the_tokio_server_does() {
        let mut core = conn_duplex::ServerExchange::new();
        let adapter = tokio_side::ServerExchange::new();
        assert_eq!(
            String::from_utf8_lossy(&without_date(&core.response)),
            String::from_utf8_lossy(&without_date(&adapter.response)),
        );
        assert!(core
            .response
            .ends_with(http_net_compare::inputs::answer_body()));
        // The loop keeps answering on the one connection.
        core.run(100);
    }

    #[test]
    fn clientconn_duplex_sends_what_the_tokio_client_sends() {
        let mut core = conn_duplex::ClientExchange::new();
        let adapter = tokio_side::ClientExchange::new();
        assert_eq!(
            String::from_utf8_lossy(&core.request),
            String::from_utf8_lossy(&adapter.request),
        );
        core.run(100);
    }
}

#[test]
fn upload_sees_every_body_byte() {
    let mut s = Server::new();
    assert_eq!(s.upload(&inputs::length_message()), inputs::MIB);
    assert_eq!(s.upload(&inputs::length_message()), inputs::MIB);
}
