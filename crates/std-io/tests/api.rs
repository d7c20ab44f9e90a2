//! The API promises of the crate documentation ("Threads"): which public
//! types are `Send` and `Sync`. Those of the types both adapters have are
//! checked for both in `crates/integration/tests/api_both.rs`; these are
//! the blocking adapter's own.

use http_net_std::*;

fn assert_send_sync<T: Send + Sync>() {}
fn assert_send<T: Send>() {}

#[test]
fn owned_types_are_send_and_sync() {
    assert_send_sync::<(
        StageCounts,
        Redirects,
        Url<'static>,
        Interrupter,
        UrlError,
        RedirectError,
    )>();
}

#[test]
fn streams_are_send_only() {
    // It owns its connection's stream (`Transport: Send`, not `Sync`).
    assert_send::<(PairedBody<'static>, PairedWriter<'static>)>();
}

#[test]
fn handles_have_debug() {
    let server = Server::bind("127.0.0.1:0").unwrap();
    let stop = server.handle();
    assert!(format!("{server:?}").starts_with("Server {"), "{server:?}");
    assert_eq!(format!("{stop:?}"), "ServerHandle { stopping: false, .. }");
    stop.shutdown();
    assert_eq!(format!("{stop:?}"), "ServerHandle { stopping: true, .. }");
    let client = Client::new();
    assert!(format!("{client:?}").starts_with("Client {"), "{client:?}");
}
