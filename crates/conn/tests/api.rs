//! The API promises of the crate documentation ("Types that grow,
//! threads"): every public type is `Send` and `Sync`.

use http_net_conn::*;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    assert_send_sync::<ServerConn>();
    assert_send_sync::<ClientConn>();
    assert_send_sync::<Buffers>();
    assert_send_sync::<Config>();
    assert_send_sync::<PreparedResponse>();
    assert_send_sync::<ServerEvent<'static>>();
    assert_send_sync::<ClientEvent<'static>>();
    assert_send_sync::<RequestView<'static>>();
    assert_send_sync::<ResponseView<'static>>();
    assert_send_sync::<Responder<'static>>();
    assert_send_sync::<Trailers<'static>>();
    assert_send_sync::<Phase>();
    assert_send_sync::<AnswerState>();
    assert_send_sync::<BodyLength>();
    assert_send_sync::<Placement>();
    assert_send_sync::<Error>();
    assert_send_sync::<RemoteError>();
    assert_send_sync::<LocalError>();
}
