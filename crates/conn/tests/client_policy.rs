//! The client's policy, without I/O: whether a request was sent in full,
//! whether the connection is reused, where `Expect` stands, the one retry
//! rule (RFC 9110 §9.2.2) and the redirect policy (RFC 9110 §15.4).

use http_net_conn::{
    location, BodyLength, ClientConn, ClientEvent, Config, Error, ExpectState, Failure, Origin,
    Placement, Redirect, RedirectError, Redirects, RemoteError, Retry,
};

const HOST: &[(&[u8], &[u8])] = &[(b"Host", b"a.example")];
const OK: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

fn flush(c: &mut ClientConn) {
    let n = c.output().len();
    c.consume_output(n);
}

fn feed(c: &mut ClientConn, bytes: &[u8]) {
    assert_eq!(c.recv(bytes), bytes.len());
}

/// Polls until `NeedInput`, `Idle` or an error; true when `End` was seen.
fn drain(c: &mut ClientConn) -> Result<bool, Error> {
    let mut ended = false;
    loop {
        match c.poll_event()? {
            ClientEvent::End(_) => ended = true,
            ClientEvent::NeedInput | ClientEvent::Idle | ClientEvent::Closed => return Ok(ended),
            _ => {}
        }
    }
}

fn body_len(method: &[u8]) -> BodyLength {
    if matches!(method, b"POST" | b"PUT" | b"PATCH") {
        BodyLength::Known(2)
    } else {
        BodyLength::Empty
    }
}

/// A connection that carried one whole GET and its response: a reused one.
fn reused() -> ClientConn {
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"GET", b"/", HOST, BodyLength::Empty)
        .unwrap();
    flush(&mut c);
    feed(&mut c, OK);
    assert!(drain(&mut c).unwrap());
    assert!(c.reusable());
    c
}

/// Sends `method` on `c` in full (head and a 2-byte body where it has one).
fn send_whole(c: &mut ClientConn, method: &[u8]) {
    let len = body_len(method);
    c.send_request(method, b"/", HOST, len).unwrap();
    if len != BodyLength::Empty {
        assert_eq!(c.send_data(b"hi"), Ok(Placement::Queued));
        c.send_end(&[]).unwrap();
    }
    flush(c);
    assert!(c.request_sent());
}

const METHODS: [(&[u8], bool); 9] = [
    (b"GET", true),
    (b"HEAD", true),
    (b"OPTIONS", true),
    (b"TRACE", true),
    (b"PUT", true),
    (b"DELETE", true),
    (b"POST", false),
    (b"PATCH", false),
    (b"LOCK", false),
];

#[test]
fn a_request_is_sent_in_full_once_ended_and_every_byte_reported_sent() {
    let mut c = ClientConn::new(Config::DEFAULT);
    assert!(!c.request_sent());
    c.send_request(b"PUT", b"/", HOST, BodyLength::Known(2))
        .unwrap();
    assert!(!c.request_sent());
    assert_eq!(c.send_data(b"hi"), Ok(Placement::Queued));
    c.send_end(&[]).unwrap();
    assert!(!c.request_sent(), "queued, not sent");
    c.consume_output(3);
    assert!(!c.request_sent());
    flush(&mut c);
    assert!(c.request_sent());
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"GET", b"/", HOST, BodyLength::Empty)
        .unwrap();
    flush(&mut c);
    assert!(c.request_sent(), "a request without a body ends at once");
}

#[test]
fn reuse_needs_the_whole_request_a_persistent_response_and_no_stray_bytes() {
    assert!(reused().reusable());
    // The server asked to close.
    let mut c = ClientConn::new(Config::DEFAULT);
    send_whole(&mut c, b"GET");
    feed(
        &mut c,
        b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
    );
    assert!(drain(&mut c).unwrap());
    assert!(!c.reusable());
    // A final response before the body was complete (an early 413).
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"PUT", b"/", HOST, BodyLength::Known(10))
        .unwrap();
    assert_eq!(c.send_data(b"abc"), Ok(Placement::Queued));
    flush(&mut c);
    feed(&mut c, b"HTTP/1.1 413 Too Big\r\nContent-Length: 0\r\n\r\n");
    assert!(drain(&mut c).unwrap());
    assert!(!c.request_sent());
    assert!(!c.reusable());
    // Bytes after the response that nothing asked for.
    let mut c = ClientConn::new(Config::DEFAULT);
    send_whole(&mut c, b"GET");
    feed(&mut c, OK);
    feed(&mut c, b"HTTP/1.1 408 ");
    let _ = c.poll_event();
    let _ = c.poll_event();
    let _ = c.poll_event();
    assert!(!c.reusable());
    // Mid-response: not yet.
    let mut c = ClientConn::new(Config::DEFAULT);
    send_whole(&mut c, b"GET");
    feed(&mut c, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\no");
    let _ = drain(&mut c);
    assert!(!c.reusable());
    // A close-delimited body ends the connection.
    let mut c = ClientConn::new(Config::DEFAULT);
    send_whole(&mut c, b"GET");
    feed(&mut c, b"HTTP/1.1 200 OK\r\n\r\nall");
    c.recv_eof();
    let _ = drain(&mut c);
    assert!(!c.reusable());
}

#[test]
fn expect_waits_for_100_and_a_final_answer_first_ends_the_request() {
    let expect: &[(&[u8], &[u8])] = &[(b"Host", b"a.example"), (b"Expect", b"100-Continue")];
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"PUT", b"/", expect, BodyLength::Known(2))
        .unwrap();
    assert_eq!(c.expect_state(), ExpectState::Waiting);
    flush(&mut c);
    feed(&mut c, b"HTTP/1.1 102 Processing\r\n\r\n");
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Informational(_))));
    assert_eq!(c.expect_state(), ExpectState::Waiting, "only 100 is the go");
    feed(&mut c, b"HTTP/1.1 100 Continue\r\n\r\n");
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Informational(_))));
    assert_eq!(c.expect_state(), ExpectState::Continue);
    assert_eq!(c.send_data(b"hi"), Ok(Placement::Queued));
    c.send_end(&[]).unwrap();
    flush(&mut c);
    feed(&mut c, OK);
    assert!(drain(&mut c).unwrap());
    assert_eq!(c.expect_state(), ExpectState::Continue);
    assert!(c.reusable());

    // A final answer instead of 100: the body is not sent, no reuse.
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"PUT", b"/", expect, BodyLength::Known(2))
        .unwrap();
    flush(&mut c);
    feed(
        &mut c,
        b"HTTP/1.1 417 Expectation Failed\r\nContent-Length: 0\r\n\r\n",
    );
    assert!(drain(&mut c).unwrap());
    assert_eq!(c.expect_state(), ExpectState::Final);
    assert!(!c.request_sent() && !c.reusable());

    // The wait ran out: the caller sends the body anyway.
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"PUT", b"/", expect, BodyLength::Known(2))
        .unwrap();
    assert_eq!(c.send_data(b"hi"), Ok(Placement::Queued));
    assert_eq!(c.expect_state(), ExpectState::Continue);

    // No expectation: without the field, or without content (RFC 9110 §10.1.1).
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"PUT", b"/", HOST, BodyLength::Known(2))
        .unwrap();
    assert_eq!(c.expect_state(), ExpectState::None);
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(b"GET", b"/", expect, BodyLength::Empty)
        .unwrap();
    assert_eq!(c.expect_state(), ExpectState::None);
}

#[test]
fn a_new_connection_never_retries() {
    for (method, _) in METHODS {
        let mut c = ClientConn::new(Config::DEFAULT);
        send_whole(&mut c, method);
        c.recv_eof();
        let _ = drain(&mut c);
        for failure in [Failure::Closed, Failure::Other] {
            assert_eq!(c.retry(failure, true), Retry::No, "{method:?}");
        }
    }
}

#[test]
fn a_reused_connection_closed_before_any_response_byte_retries_idempotent_requests() {
    for (method, idempotent) in METHODS {
        let mut c = reused();
        send_whole(&mut c, method);
        c.recv_eof();
        assert!(matches!(
            drain(&mut c),
            Err(Error::Remote(RemoteError::UnexpectedEof))
        ));
        let want = if idempotent {
            Retry::Idempotent
        } else {
            Retry::No
        };
        assert_eq!(c.retry(Failure::Closed, true), want, "{method:?}");
        // The end of stream was reported: closed, whatever the adapter saw.
        assert_eq!(c.retry(Failure::Other, true), want, "{method:?}");
        // A body the caller cannot send again, once read from: never (a
        // request without one has nothing to send again).
        let stream = if body_len(method) == BodyLength::Empty {
            want
        } else {
            Retry::No
        };
        assert_eq!(c.retry(Failure::Closed, false), stream, "{method:?}");
        // A timeout on a connection still open: the server may be working.
        let mut c = reused();
        send_whole(&mut c, method);
        assert_eq!(c.retry(Failure::Other, true), Retry::No, "{method:?}");
        assert_eq!(c.retry(Failure::Closed, true), want, "{method:?}");
    }
}

#[test]
fn a_request_cut_short_is_not_retried_unless_idempotent() {
    for (method, idempotent) in METHODS {
        let mut c = reused();
        c.send_request(method, b"/", HOST, BodyLength::Known(4))
            .unwrap();
        assert_eq!(c.send_data(b"ab"), Ok(Placement::Queued));
        flush(&mut c);
        assert!(!c.request_sent());
        let want = if idempotent {
            Retry::Idempotent
        } else {
            Retry::No
        };
        assert_eq!(c.retry(Failure::Closed, true), want, "{method:?}");
    }
}

#[test]
fn nothing_sent_is_retried_whatever_the_method() {
    for (method, _) in METHODS {
        // The connection was found closed before any byte left.
        let mut c = reused();
        c.send_request(method, b"/", HOST, body_len(method))
            .unwrap();
        assert_eq!(c.retry(Failure::Closed, true), Retry::NotSent, "{method:?}");
        // A stream none of which was handed over can be sent again too.
        assert_eq!(
            c.retry(Failure::Closed, false),
            Retry::NotSent,
            "{method:?}"
        );
        assert_eq!(c.retry(Failure::Other, true), Retry::No, "{method:?}");
        if body_len(method) != BodyLength::Empty {
            // Once the stream was read from, it cannot.
            let _ = c.send_data(b"h").unwrap();
            assert_eq!(c.retry(Failure::Closed, false), Retry::No, "{method:?}");
            assert_eq!(c.retry(Failure::Closed, true), Retry::NotSent, "{method:?}");
        }
        // The server had sent bytes on the idle connection (a 408): the
        // request is refused before anything is written (C73).
        let mut c = reused();
        feed(&mut c, b"HTTP/1.1 408 Request Timeout\r\n\r\n");
        assert_eq!(
            c.send_request(method, b"/", HOST, body_len(method)),
            Err(Error::Remote(RemoteError::UnsolicitedResponse))
        );
        assert!(c.output().is_empty());
        assert_eq!(c.retry(Failure::Other, false), Retry::NotSent, "{method:?}");
        assert!(c.retry(Failure::Other, false).is_retry());
    }
}

#[test]
fn a_response_byte_means_the_server_answered_no_retry() {
    for (method, _) in METHODS {
        let mut c = reused();
        send_whole(&mut c, method);
        assert!(!c.response_started());
        feed(&mut c, b"HTTP/1.1 5");
        assert!(matches!(c.poll_event(), Ok(ClientEvent::NeedInput)));
        assert!(c.response_started());
        c.recv_eof();
        assert!(drain(&mut c).is_err());
        assert_eq!(c.retry(Failure::Closed, true), Retry::No, "{method:?}");
        // After an interim response too.
        let mut c = reused();
        send_whole(&mut c, method);
        feed(&mut c, b"HTTP/1.1 103 Early Hints\r\n\r\n");
        let _ = drain(&mut c);
        c.recv_eof();
        let _ = drain(&mut c);
        assert_eq!(c.retry(Failure::Closed, true), Retry::No, "{method:?}");
    }
}

#[test]
fn reset_forgets_the_connection_was_reused() {
    let mut c = reused();
    c.reset();
    send_whole(&mut c, b"GET");
    assert_eq!(c.retry(Failure::Closed, true), Retry::No);
    assert!(!Retry::No.is_retry() && Retry::Idempotent.is_retry());
}

// Redirects.

const A: Origin<'static> = Origin::new(true, "a.example", 443);

fn hop(status: u16, method: &[u8]) -> Redirect<'_> {
    Redirect {
        status,
        method,
        followed: 0,
        first: A,
        from: A,
        to: A,
        replayable: true,
    }
}

#[test]
fn which_codes_are_followed() {
    let on = Redirects::follow(3);
    for status in 100..=599u16 {
        let want = matches!(status, 301 | 302 | 303 | 307 | 308);
        assert_eq!(on.follows(status), want, "{status}");
        assert!(!Redirects::none().follows(status), "{status}");
        assert!(!Redirects::follow(0).follows(status), "{status}");
    }
    assert_eq!(Redirects::default(), Redirects::none());
    assert_eq!(on.max_hops(), 3);
}

#[test]
fn every_code_and_method_gets_its_method_and_body() {
    let policy = Redirects::follow(5);
    let methods: [&[u8]; 7] = [
        b"GET", b"HEAD", b"POST", b"PUT", b"DELETE", b"PATCH", b"OPTIONS",
    ];
    for status in [301u16, 302, 303, 307, 308] {
        for method in methods {
            let to_get = match status {
                303 => method != b"HEAD",
                301 | 302 => method == b"POST",
                _ => false,
            };
            let h = policy.decide(&hop(status, method)).unwrap();
            let want: &[u8] = if to_get { b"GET" } else { method };
            assert_eq!(h.method(method), want, "{status} {method:?}");
            assert_eq!(h.keeps_body(), !to_get, "{status} {method:?}");
            // A body dropped takes its fields along; other fields stay.
            for f in [
                &b"Content-Type"[..],
                b"content-length",
                b"Transfer-Encoding",
                b"Expect",
                b"Content-Encoding",
            ] {
                assert_eq!(h.keeps_field(f), !to_get, "{status} {method:?} {f:?}");
            }
            assert!(h.keeps_field(b"Accept") && h.keeps_field(b"Authorization"));
            assert!(!h.crosses_origin());
            // A stream already read cannot go again where the body is kept.
            let r = policy.decide(&Redirect {
                replayable: false,
                ..hop(status, method)
            });
            if to_get {
                assert!(r.is_ok(), "{status} {method:?}");
            } else {
                assert_eq!(
                    r,
                    Err(RedirectError::BodyNotReplayable),
                    "{status} {method:?}"
                );
            }
        }
    }
}

#[test]
fn credentials_stay_with_the_first_origin() {
    let policy = Redirects::follow(5).with_https_to_http(true);
    let cases = [
        (A, true),
        (Origin::new(true, "A.Example", 443), true),
        (Origin::new(true, "b.example", 443), false),
        (Origin::new(true, "a.example", 8443), false),
        (Origin::new(false, "a.example", 443), false),
        (Origin::new(true, "sub.a.example", 443), false),
    ];
    for (to, same) in cases {
        let r = Redirect {
            to,
            ..hop(307, b"GET")
        };
        let h = policy.decide(&r).unwrap();
        assert_eq!(h.crosses_origin(), !same, "{to:?}");
        for f in [
            &b"Authorization"[..],
            b"COOKIE",
            b"proxy-authorization",
            b"Host",
        ] {
            assert_eq!(h.keeps_field(f), same, "{to:?} {f:?}");
        }
        assert!(h.keeps_field(b"Accept"));
    }
    // Compared with the first origin, not the previous hop's.
    let b = Origin::new(true, "b.example", 443);
    let h = policy
        .decide(&Redirect {
            from: b,
            to: b,
            ..hop(307, b"GET")
        })
        .unwrap();
    assert!(h.crosses_origin());
}

#[test]
fn https_to_http_is_refused_unless_allowed() {
    let plain = Origin::new(false, "a.example", 80);
    let down = Redirect {
        to: plain,
        ..hop(301, b"GET")
    };
    assert_eq!(
        Redirects::follow(5).decide(&down),
        Err(RedirectError::Downgrade)
    );
    assert!(Redirects::follow(5)
        .with_https_to_http(true)
        .decide(&down)
        .is_ok());
    // http to https, and http to http, are fine.
    let up = Redirect {
        from: plain,
        to: A,
        first: plain,
        ..hop(301, b"GET")
    };
    assert!(Redirects::follow(5).decide(&up).is_ok());
    let flat = Redirect {
        from: plain,
        to: plain,
        first: plain,
        ..hop(301, b"GET")
    };
    assert!(Redirects::follow(5).decide(&flat).is_ok());
}

#[test]
fn the_hop_limit_counts_hops_followed() {
    let policy = Redirects::follow(2);
    for followed in 0..2 {
        assert!(policy
            .decide(&Redirect {
                followed,
                ..hop(302, b"GET")
            })
            .is_ok());
    }
    assert_eq!(
        policy.decide(&Redirect {
            followed: 2,
            ..hop(302, b"GET")
        }),
        Err(RedirectError::TooMany)
    );
    // The limit is checked before the other rules.
    let plain = Origin::new(false, "a.example", 80);
    assert_eq!(
        policy.decide(&Redirect {
            followed: 2,
            to: plain,
            replayable: false,
            ..hop(307, b"PUT")
        }),
        Err(RedirectError::TooMany)
    );
}

#[test]
fn the_location_value_and_the_errors() {
    assert_eq!(location(Some(&b"/next"[..])), Ok("/next"));
    assert_eq!(
        location(Some(&b" \thttp://b.example/ "[..])),
        Ok("http://b.example/")
    );
    assert_eq!(location(None), Err(RedirectError::BadLocation));
    assert_eq!(
        location(Some(&b"\xff/x"[..])),
        Err(RedirectError::BadLocation)
    );
    for e in [
        RedirectError::TooMany,
        RedirectError::Downgrade,
        RedirectError::BodyNotReplayable,
        RedirectError::BadLocation,
    ] {
        assert!(e.rfc().starts_with("RFC 9110 §"));
        assert!(e.to_string().ends_with(&format!("({})", e.rfc())));
    }
}

#[test]
fn a_response_is_reused_when_an_earlier_one_ended_on_its_connection() {
    let mut c = ClientConn::new(Config::DEFAULT);
    assert!(!c.reused(), "no response yet");
    // Two requests pipelined: the second's response comes after the
    // first's ended, on the same connection.
    for _ in 0..2 {
        c.send_request(b"GET", b"/", HOST, BodyLength::Empty)
            .unwrap();
    }
    flush(&mut c);
    feed(&mut c, OK);
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Response(_))));
    assert!(!c.reused(), "the first on a new connection");
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Data(b"ok"))));
    assert!(matches!(c.poll_event(), Ok(ClientEvent::End(_))));
    assert!(!c.reused(), "still the first's, after its end");
    assert!(matches!(c.poll_event(), Ok(ClientEvent::NeedInput)));
    // An interim response is judged as the final one after it.
    feed(&mut c, b"HTTP/1.1 103 Early Hints\r\n\r\n");
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Informational(_))));
    assert!(c.reused());
    feed(&mut c, OK);
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Response(_))));
    assert!(c.reused(), "the second came after the first ended");
    assert!(drain(&mut c).unwrap());
    // A connection reset for a new server carried nothing.
    c.reset();
    assert!(!c.reused());
    // The kept connection of a whole exchange: its next response is reused.
    let mut c = reused();
    send_whole(&mut c, b"GET");
    feed(&mut c, OK);
    assert!(matches!(c.poll_event(), Ok(ClientEvent::Response(_))));
    assert!(c.reused());
}
