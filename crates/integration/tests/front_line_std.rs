//! The front-line switch of the blocking adapter's builders, over real
//! sockets on loopback: `ServerBuilder::front_line` answers a request the
//! profile rejects with its status and closes, `ClientBuilder::front_line`
//! refuses a response the profile rejects with the rule that names it;
//! with the switch off (the default) both are served and read as before.
//! The cases and checks are those of the tokio adapter's
//! (`support/front_line.rs`).

#[path = "support/front_line.rs"]
mod front_line;
mod support;

use http_net_std::ClientOptions;
use http_net_std::ServerOptions;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::thread;
use std::time::Duration;

use http_net_conn::{Config, Error as ConnError};
use http_net_std::{Client, Error, Exchange, Server, ServerBuilder};

use front_line::{clients_refuse, servers_reject, Fetched};
use support::std_io::{read_request, Running};

/// A server from `builder` that echoes each request's body with a `200`.
fn start(builder: ServerBuilder) -> Running {
    let server = builder
        .shutdown_timeout(Duration::from_secs(2))
        .bind("127.0.0.1:0")
        .unwrap();
    Running::start(server, |ex: &mut Exchange<'_>| {
        let mut body = Vec::new();
        ex.body().read_to_end(&mut body).map_err(Error::from_io)?;
        ex.respond_with(200, &[], &body)
    })
}

// proves: policy-front-line-request-cl-leading-zero, policy-front-line-request-cl-list, policy-front-line-request-encoded-control, policy-front-line-request-host-mismatch, policy-front-line-request-unregistered-method, policy-front-line-request-trailers
#[test]
fn server_builder_front_line_rejects_what_the_default_serves() {
    let off = start(Server::builder());
    let on = start(Server::builder().front_line(true));
    // Set before a conn_config without it, the switch still holds.
    let on_first = start(
        Server::builder()
            .front_line(true)
            .conn_config(Config::DEFAULT),
    );
    servers_reject(off.addr, [on.addr, on_first.addr]);
}

/// Fetches `/` from an origin that answers one request with `reply` and
/// closes, with `client`: the body, or the error.
fn fetch(client: &Client, reply: &'static [u8]) -> Fetched {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let t = thread::spawn(move || {
        let Ok((mut s, _)) = l.accept() else { return };
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        // The client's GET carries no body: this reads its head.
        let _ = read_request(&mut s);
        let _ = s.write_all(reply);
    });
    let got = client
        .get(&format!("{base}/"))
        .and_then(|mut r| r.body_to_vec(1024));
    t.join().unwrap();
    got.map_err(|e| match e {
        Error::Protocol(ConnError::Remote(r)) => (Some(r), format!("{e:?}")),
        e => (None, format!("{e:?}")),
    })
}

// proves: policy-front-line-response-cl-leading-zero, policy-front-line-response-cl-whitespace, policy-front-line-response-trailers
#[test]
fn client_builder_front_line_refuses_what_the_default_reads() {
    let off = Client::new();
    let on = Client::builder().front_line(true).build();
    // Set before a conn_config without it, the switch still holds.
    let on_first = Client::builder()
        .front_line(true)
        .conn_config(http_net_std::CLIENT_CONFIG)
        .build();
    clients_refuse(&off, [&on, &on_first], fetch);
}
