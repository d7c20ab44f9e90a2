//! The API promises of the crate documentation ("Types that grow,
//! threads"): every public type is `Send` and `Sync`.

use http_net_head::*;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    assert_send_sync::<RequestParser>();
    assert_send_sync::<ResponseParser>();
    assert_send_sync::<FieldBlockParser>();
    assert_send_sync::<RequestHead>();
    assert_send_sync::<ResponseHead>();
    assert_send_sync::<FieldBlock>();
    assert_send_sync::<Field>();
    assert_send_sync::<Span>();
    assert_send_sync::<KnownFields>();
    assert_send_sync::<FieldRefs>();
    assert_send_sync::<ConnectionOptions>();
    assert_send_sync::<Limits>();
    assert_send_sync::<ResponseOptions>();
    assert_send_sync::<ObsFold>();
    assert_send_sync::<Method>();
    assert_send_sync::<Version>();
    assert_send_sync::<TargetForm>();
    assert_send_sync::<Status<RequestHead>>();
    assert_send_sync::<Error>();
}
