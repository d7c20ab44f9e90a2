//! The API promises of the crate documentation ("Types that grow,
//! threads"): every public type is `Send` and `Sync`.

use http_net_conn::*;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    assert_send_sync::<(
        ServerConn,
        ClientConn,
        Buffers,
        Config,
        PreparedResponse,
        ServerEvent<'static>,
        ClientEvent<'static>,
        RequestView<'static>,
        ResponseView<'static>,
        Responder<'static>,
        Trailers<'static>,
        Phase,
        AnswerState,
        BodyLength,
        Placement,
        Error,
        RemoteError,
        LocalError,
    )>();
}
