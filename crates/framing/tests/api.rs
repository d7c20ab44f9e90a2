//! The API promises of the crate documentation: every public type is
//! `Send` and `Sync`.

use http_net_framing::*;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    assert_send_sync::<BodyKind>();
    assert_send_sync::<BodyDecoder>();
    assert_send_sync::<BodyEncoder>();
    assert_send_sync::<BodyStep>();
    assert_send_sync::<LengthDecoder>();
    assert_send_sync::<Step>();
    assert_send_sync::<ChunkedDecoder>();
    assert_send_sync::<ChunkedStep>();
    assert_send_sync::<InPlaceStep>();
    assert_send_sync::<ChunkedEncoder>();
    assert_send_sync::<ChunkHeader>();
    assert_send_sync::<Limits>();
    assert_send_sync::<Error>();
    assert_send_sync::<EncodeError>();
}
