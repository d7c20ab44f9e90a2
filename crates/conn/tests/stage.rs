//! `Stage`: the waits both adapters' timeout errors name.

use http_net_conn::Stage;

#[test]
fn stage_display_completes_timed_out() {
    for (stage, text) in [
        (Stage::Connect, "connecting"),
        (Stage::Idle, "waiting on an idle connection"),
        (Stage::Head, "reading a message head"),
        (Stage::Body, "reading a message body"),
        (Stage::Write, "writing to the peer"),
        (Stage::Deadline, "within the whole-request deadline"),
    ] {
        assert_eq!(stage.to_string(), text);
    }
}
