//! The API promises of the crate documentation ("Types that grow,
//! threads"): every public type is `Send` and `Sync`.

use http_net_head::*;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    assert_send_sync::<(
        RequestParser,
        ResponseParser,
        FieldBlockParser,
        RequestHead,
        ResponseHead,
        FieldBlock,
        Field,
        Span,
        KnownFields,
        FieldRefs,
        ConnectionOptions,
        HeadLimits,
        ResponseOptions,
        ObsFold,
        Method,
        Version,
        TargetForm,
        Parsed<RequestHead>,
        Error,
    )>();
}
