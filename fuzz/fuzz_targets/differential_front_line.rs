//! The front-line profile against the default: the profile only ever
//! rejects more. Any bytes, parsed as a request head with and without
//! `Limits::with_front_line`: a head the profile accepts is the same head,
//! field for field, by default; a head the default rejects, the profile
//! rejects too. The same bytes through a `ServerConn` with and without
//! `Config::with_front_line`: the profile's events are the default's, up to
//! the point where the profile reports an error.
#![no_main]

use http_net_conn::Config;
use http_net_fuzz::{run_server, run_server_with, Answer, Ev};
use http_net_head::{Field, Limits, RequestParser, Status};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Some((&ctrl, data)) = input.split_first() else {
        return;
    };

    // The head parser alone.
    let mut plain_fields = [Field::default(); 100];
    let mut front_fields = [Field::default(); 100];
    let plain = RequestParser::new(Limits::DEFAULT).parse(data, &mut plain_fields);
    let front = RequestParser::new(Limits::DEFAULT.with_front_line(true)).parse(data, &mut front_fields);
    match (&plain, &front) {
        (_, Err(_)) => {}
        (Ok(Status::Complete(a)), Ok(Status::Complete(b))) => {
            assert_eq!(a, b, "the profile accepted a different head");
            assert_eq!(
                plain_fields[..a.field_count],
                front_fields[..b.field_count],
                "the profile accepted different fields"
            );
        }
        (Ok(Status::Partial), Ok(Status::Partial)) => {}
        (plain, front) => panic!("the profile accepted what the default did not: {plain:?} / {front:?}"),
    }

    // The whole server connection.
    let answer = Answer::from_byte(ctrl);
    let plain = run_server(&[data], answer);
    let front = run_server_with(&[data], answer, Config::DEFAULT.with_front_line(true));
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
        assert_eq!(plain.events, front.events, "the profile stopped without an error");
    }
});
