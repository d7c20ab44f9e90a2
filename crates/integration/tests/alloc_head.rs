//! Parsing a head (`http-net-head`) allocates nothing: the counting global
//! allocator (`support/counting.rs`), counting per thread so tests running
//! in parallel do not disturb each other.

#[path = "support/counting.rs"]
mod counting;

use counting::thread_count;
use http_net_head::{
    Field, FieldBlockParser, HeadLimits, Parsed, RequestParser, ResponseOptions, ResponseParser,
};

const REQUEST: &[u8] =
    b"\r\nPOST http://example.com:8080/a%20b?c HTTP/1.1\r\nHost: example.com:8080\r\n\
Content-Length: 5\r\nConnection: keep-alive, upgrade\r\nUpgrade: x\r\nExpect: 100-continue\r\n\r\n";
const RESPONSE: &[u8] = b"HTTP/1.1 200 OK\r\nX: a\r\n b\r\nTransfer-Encoding: chunked\r\n\r\n";

#[test]
fn parsing_allocates_nothing() {
    let mut fields = [Field::default(); 32];
    let mut req = RequestParser::new(HeadLimits::DEFAULT);
    let mut res = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::default());
    let mut block = FieldBlockParser::new(HeadLimits::DEFAULT);
    // Warm-up (and a check that the allocator counts at all).
    let before = thread_count();
    let v = vec![1u8; 10];
    assert!(thread_count() > before);
    drop(v);

    let before = thread_count();
    for _ in 0..100 {
        for cut in [0, 10, 60, REQUEST.len()] {
            let r = req.parse(&REQUEST[..cut], &mut fields);
            assert!(r.is_ok());
        }
        assert!(matches!(
            req.parse(REQUEST, &mut fields),
            Ok(Parsed::Complete(_))
        ));
        req.reset();
        assert!(matches!(
            res.parse(RESPONSE, &mut fields),
            Ok(Parsed::Complete(_))
        ));
        res.reset();
        assert!(matches!(
            block.parse(b"A: b\r\n\r\n", &mut fields),
            Ok(Parsed::Complete(_))
        ));
        block.reset();
        // Errors allocate nothing either.
        assert!(req
            .parse(b"GET / HTTP/1.1\r\nX : y\r\n\r\n", &mut fields)
            .is_err());
        req.reset();
    }
    assert_eq!(thread_count() - before, 0);
}
