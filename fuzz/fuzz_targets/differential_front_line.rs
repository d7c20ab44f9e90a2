//! The front-line profile against the default: the profile only ever
//! rejects more, on both sides. Any bytes, parsed as a request head and as a
//! response head with and without `HeadLimits::with_front_line`: a head the
//! profile accepts is the same head, field for field, by default; a head the
//! default rejects, the profile rejects too. The same bytes through a
//! `ServerConn` (as requests) and a `ClientConn` (as answers) with and
//! without `Config::with_front_line`: the profile's events are the
//! default's, up to the point where the profile reports an error.
#![no_main]

use http_net_conn::Config;
use http_net_fuzz::{
    client_method, run_client, run_client_with, run_server, run_server_with, Answer, Ev, Log,
};
use http_net_head::{
    Error, Field, HeadLimits, Parsed, RequestParser, ResponseOptions, ResponseParser,
};
use libfuzzer_sys::fuzz_target;

/// The profile's parse agrees with the default's wherever it does not
/// reject.
fn heads_agree<H: PartialEq + core::fmt::Debug>(
    plain: (Result<Parsed<H>, Error>, &[Field]),
    front: (Result<Parsed<H>, Error>, &[Field]),
    field_count: impl Fn(&H) -> usize,
) {
    match (&plain.0, &front.0) {
        (_, Err(_)) => {}
        (Ok(Parsed::Complete(a)), Ok(Parsed::Complete(b))) => {
            assert_eq!(a, b, "the profile accepted a different head");
            assert_eq!(
                plain.1[..field_count(a)],
                front.1[..field_count(b)],
                "the profile accepted different fields"
            );
        }
        (Ok(Parsed::Partial), Ok(Parsed::Partial)) => {}
        (plain, front) => {
            panic!("the profile accepted what the default did not: {plain:?} / {front:?}")
        }
    }
}

/// The profile's events are the default's until it reports an error.
fn logs_agree(plain: &Log, front: &Log) {
    let same = plain
        .events
        .iter()
        .zip(&front.events)
        .take_while(|(a, b)| a == b)
        .count();
    if same < front.events.len() {
        assert!(
            matches!(front.events[same], Ev::Error(_)),
            "the profile differs from the default by more than a rejection: {:?} / {:?}",
            plain.events.get(same),
            front.events[same]
        );
    } else {
        assert_eq!(
            plain.events, front.events,
            "the profile stopped without an error"
        );
    }
}

fuzz_target!(|input: &[u8]| {
    let Some((&ctrl, data)) = input.split_first() else {
        return;
    };
    let on = HeadLimits::DEFAULT.with_front_line(true);

    // The head parsers alone.
    let mut plain_fields = [Field::default(); 100];
    let mut front_fields = [Field::default(); 100];
    let plain = RequestParser::new(HeadLimits::DEFAULT).parse(data, &mut plain_fields);
    let front = RequestParser::new(on).parse(data, &mut front_fields);
    heads_agree((plain, &plain_fields), (front, &front_fields), |h| {
        h.field_count
    });
    let plain = ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::DEFAULT)
        .parse(data, &mut plain_fields);
    let front = ResponseParser::new(on, ResponseOptions::DEFAULT).parse(data, &mut front_fields);
    heads_agree((plain, &plain_fields), (front, &front_fields), |h| {
        h.field_count
    });

    // The whole connections.
    let front_config = Config::DEFAULT.with_front_line(true);
    let answer = Answer::from_byte(ctrl);
    logs_agree(
        &run_server(&[data], answer),
        &run_server_with(&[data], answer, front_config),
    );
    let method = client_method(ctrl);
    logs_agree(
        &run_client(&[data], method, 2),
        &run_client_with(&[data], method, 2, front_config),
    );
});
