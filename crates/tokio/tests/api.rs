//! The API promises of the crate documentation ("Types that grow,
//! threads"): which public types are `Send` and `Sync`, and the handles'
//! `Debug`. Those of the types both adapters have are checked for both in
//! `crates/integration/tests/api_both.rs`; these are the async adapter's own.

use http_net_tokio::*;

fn assert_send_sync<T: Send + Sync>() {}
fn assert_send<T: Send>() {}

#[test]
fn owned_types_are_send_and_sync() {
    assert_send_sync::<(TcpConnector, Progress)>();
}

#[test]
fn streams_are_send() {
    // They own (or borrow) a connection's stream, which is `Send` only.
    assert_send::<(RequestBody<'static>, RequestWriter)>();
}

#[test]
fn handles_have_debug() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let server = Server::bind("127.0.0.1:0").await.unwrap();
        let stop = server.handle();
        assert_eq!(format!("{server:?}"), "Server { stopping: false, .. }");
        stop.shutdown();
        assert_eq!(format!("{stop:?}"), "ServerHandle { stopping: true, .. }");
    });
    let client = Client::new();
    assert!(format!("{client:?}").starts_with("Client {"), "{client:?}");
}
