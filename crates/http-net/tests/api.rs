//! The facade's root types are `Send` and `Sync` as its documentation
//! says ("Versions and threads").

fn assert_send_sync<T: Send + Sync>() {}
fn assert_send<T: Send>() {}

#[test]
fn root_types_are_send_and_sync() {
    assert_send_sync::<(
        http_net::blocking::Server,
        http_net::blocking::Client,
        http_net::blocking::Error,
    )>();
    assert_send::<http_net::blocking::Exchange<'static>>();
}
