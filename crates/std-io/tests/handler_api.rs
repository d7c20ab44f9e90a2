//! What a handler reads from an [`Exchange`] beyond the raw head: the
//! method's name, the query and its pairs, an owned head that outlives the
//! answer, `HEAD` without a body, request trailers; over real sockets.

use std::io::Read;

use http_net_std::http_net_conn::{form_decode, percent_decode, BodyLength};
use http_net_std::{Error, Server};

mod support;
use support::{exchange, serve};

fn body_of(resp: &str) -> &str {
    resp.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

#[test]
fn method_query_and_an_owned_head_across_the_answer() {
    let (addr, stop, t) = serve(Server::builder(), |ex| {
        // The owned copy is used after `respond_with` borrowed `ex` mutably.
        let head = ex.request_head().expect("a request");
        let mut out = format!("{} {} ", ex.method_str(), head.version());
        for (k, v) in ex.query_pairs() {
            let k = form_decode(k).map_err(|_| Error::BodyUnavailable)?;
            let v = form_decode(v).map_err(|_| Error::BodyUnavailable)?;
            out.push_str(&format!(
                "[{}={}]",
                String::from_utf8_lossy(&k),
                String::from_utf8_lossy(&v)
            ));
        }
        let path = percent_decode(head.path()).map_err(|_| Error::BodyUnavailable)?;
        out.push_str(&String::from_utf8_lossy(&path));
        out.push_str(&format!(" q={:?}", ex.query().map(String::from_utf8_lossy)));
        ex.respond_with(200, &[], out.as_bytes())?;
        assert_eq!(head.method_str(), out.split(' ').next().unwrap());
        assert_eq!(ex.method_str(), "", "the head is gone once answered");
        Ok(())
    });
    let r = exchange(
        &addr,
        b"PURGE /a%20b?x=1+2&y=%7E&&z HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(
        body_of(&r),
        "PURGE HTTP/1.1 [x=1 2][y=~][z=]/a b q=Some(\"x=1+2&y=%7E&&z\")",
        "{r}"
    );
    let r = exchange(&addr, b"GET /p HTTP/1.0\r\n\r\n");
    assert_eq!(body_of(&r), "GET HTTP/1.0 /p q=None", "{r}");
    stop.shutdown();
    t.join().unwrap().unwrap();
}

#[test]
fn a_head_handler_skips_the_body_and_a_body_given_is_not_sent() {
    let (addr, stop, t) = serve(Server::builder(), |ex| {
        if ex.path() == b"/skip" {
            assert!(ex.is_head());
            // The length of a body never made.
            ex.send_head(200, &[], BodyLength::Known(3_000_000_000))?;
            return ex.send_end(&[]);
        }
        let made = ex.is_head();
        ex.respond_with(
            200,
            &[(b"X-Head", if made { b"1" } else { b"0" })],
            b"hello",
        )
    });
    let r = exchange(
        &addr,
        b"HEAD /skip HTTP/1.1\r\nHost: a\r\n\r\nHEAD /given HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    );
    assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
    let responses: Vec<&str> = r.split("HTTP/1.1 200 OK\r\n").skip(1).collect();
    assert_eq!(responses.len(), 2, "{r}");
    assert!(
        responses[0].contains("Content-Length: 3000000000\r\n"),
        "{r}"
    );
    assert!(responses[0].ends_with("\r\n\r\n"), "{r}");
    assert!(responses[1].contains("Content-Length: 5\r\n"), "{r}");
    assert!(responses[1].contains("X-Head: 1\r\n"), "{r}");
    assert!(responses[1].ends_with("\r\n\r\n"), "no body for HEAD: {r}");
    stop.shutdown();
    t.join().unwrap().unwrap();
}

#[test]
fn request_trailers_follow_the_body() {
    let (addr, stop, t) = serve(Server::builder(), |ex| {
        assert_eq!(ex.trailers().count(), 0);
        let mut body = String::new();
        ex.body().read_to_string(&mut body)?;
        let sum = ex.trailer(b"x-checksum").map(|v| v.to_vec());
        let n = ex.trailers().count();
        let out = format!("{body} {n} {:?}", sum.map(String::from_utf8));
        ex.respond_with(200, &[], out.as_bytes())
    });
    let r = exchange(
        &addr,
        b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\
          5\r\nhello\r\n0\r\nX-Checksum: 42\r\nX-Other: o\r\n\r\n",
    );
    assert_eq!(body_of(&r), "hello 2 Some(Ok(\"42\"))", "{r}");
    stop.shutdown();
    t.join().unwrap().unwrap();
}
