//! The API promises of the crate documentation: every public type is
//! `Send` and `Sync`.

use http_net_framing::*;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    assert_send_sync::<(
        BodyKind,
        BodyDecoder,
        BodyEncoder,
        BodyStep,
        LengthDecoder,
        Step,
        ChunkedDecoder,
        ChunkedStep,
        InPlaceStep,
        ChunkedEncoder,
        ChunkHeader,
        BodyLimits,
        Error,
        EncodeError,
    )>();
}
