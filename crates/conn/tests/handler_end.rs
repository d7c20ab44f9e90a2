//! A handler's end decided once (`ServerHooks::handler_end`): the chosen
//! answer, the mistake and where it goes, what follows, and the error
//! body, with each hook inside the adapter's containment. No sockets.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use http_net_conn::driver::{AfterHandler, HandlerEnd, MistakeGate, MistakeSink, ServerHooks};
use http_net_conn::{
    Config, ErrorBody, HandlerError, LocalError, Mistake, ServerConn, ServerEvent, Timestamp,
};

fn catch(hook: &mut dyn FnMut()) -> bool {
    catch_unwind(AssertUnwindSafe(hook)).is_ok()
}

fn no_local(_: &std::fmt::Error) -> Option<LocalError> {
    None
}

fn begun() -> ServerConn {
    let mut conn = ServerConn::new(Config::DEFAULT);
    let _ = conn.recv(b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n");
    assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
    conn
}

fn end<'a>(
    end: &'a Option<Result<(), HandlerError>>,
    broken: bool,
) -> HandlerEnd<'a, std::fmt::Error> {
    HandlerEnd {
        end,
        body_timed_out: false,
        broken,
        kept: None,
        local_of: no_local,
    }
}

fn hooks() -> ServerHooks {
    ServerHooks {
        error_status: Some(Arc::new(|_: &HandlerError| panic!("the status hook"))),
        error_body: Some(Arc::new(|_: &http_net_conn::ErrorResponse<'_>| {
            Some(ErrorBody {
                content_type: b"text/x".to_vec(),
                body: b"own".to_vec(),
            })
        })),
        ..ServerHooks::default()
    }
}

/// A handler whose error the (panicking) status hook could not map: no
/// answer chosen, `500` with the error-body hook's body, then a linger,
/// and the mistake reported (the clock read for it).
#[test]
fn a_panicking_hook_chooses_nothing_and_the_mistake_is_reported() {
    let mut conn = begun();
    let gate = MistakeGate::new();
    let outcome = Some(Err(HandlerError::new(std::fmt::Error)));
    let h = hooks();
    let now = || Timestamp::from_nanos(1);
    let (next, mistake) = h.handler_end(&mut conn, end(&outcome, false), &gate, now, catch);
    assert_eq!(next, AfterHandler::Linger);
    assert!(conn.output().starts_with(b"HTTP/1.1 500 "));
    assert!(conn.output().ends_with(b"own"));
    match mistake {
        Some((Mistake::Unanswered, MistakeSink::Line(line))) => {
            assert!(line.ends_with("(GET /a)\n"), "{line}");
        }
        other => panic!("{other:?}"),
    }
}

/// A stream that broke: close, no hook called, no mistake asked, no
/// clock read; a handler that answered: the next request, no clock read.
#[test]
fn a_broken_stream_closes_and_an_answer_reads_no_clock() {
    let mut conn = begun();
    let gate = MistakeGate::new();
    let outcome = Some(Err(HandlerError::new(std::fmt::Error)));
    let h = hooks();
    let never = || -> Timestamp { panic!("no clock reading") };
    let (next, mistake) = h.handler_end(&mut conn, end(&outcome, true), &gate, never, catch);
    assert_eq!(next, AfterHandler::Close);
    assert!(mistake.is_none() && conn.output().is_empty());
    let mut conn = begun();
    let ok = http_net_conn::PreparedResponse::new(204, &[]).unwrap();
    let _ = conn.responder().respond(&ok, b"").unwrap();
    let answered = Some(Ok(()));
    let (next, mistake) = h.handler_end(&mut conn, end(&answered, false), &gate, never, catch);
    assert_eq!(next, AfterHandler::Next);
    assert!(mistake.is_none());
}
