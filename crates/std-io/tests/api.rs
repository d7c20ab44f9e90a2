//! The API promises of the crate documentation ("Threads"): which public
//! types are `Send` and `Sync`.

use http_net_std::*;

fn assert_send_sync<T: Send + Sync>() {}
fn assert_send<T: Send>() {}

#[test]
fn owned_types_are_send_and_sync() {
    assert_send_sync::<Server>();
    assert_send_sync::<ServerBuilder>();
    assert_send_sync::<ShutdownHandle>();
    assert_send_sync::<Counters>();
    assert_send_sync::<PhaseCounts>();
    assert_send_sync::<Client>();
    assert_send_sync::<ClientBuilder>();
    assert_send_sync::<Redirects>();
    assert_send_sync::<Url<'static>>();
    assert_send_sync::<Interrupter>();
    assert_send_sync::<Error>();
    assert_send_sync::<Stage>();
    assert_send_sync::<Limit>();
    assert_send_sync::<UrlError>();
    assert_send_sync::<RedirectError>();
}

#[test]
fn streams_are_send_only() {
    // It owns its connection's stream (`Transport: Send`, not `Sync`).
    assert_send::<ClientResponse>();
    assert_send::<Exchange<'static>>();
    assert_send::<Body<'static>>();
    assert_send::<Upgraded<'static>>();
}

#[test]
fn handles_have_debug() {
    let server = Server::bind("127.0.0.1:0").unwrap();
    let stop = server.handle();
    assert!(format!("{server:?}").starts_with("Server {"), "{server:?}");
    assert_eq!(
        format!("{stop:?}"),
        "ShutdownHandle { stopping: false, .. }"
    );
    stop.shutdown();
    assert_eq!(format!("{stop:?}"), "ShutdownHandle { stopping: true, .. }");
    let client = Client::new();
    assert!(format!("{client:?}").starts_with("Client {"), "{client:?}");
}
