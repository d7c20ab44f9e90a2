//! The front-line switch of the async adapter's builders, over real
//! sockets on loopback: `ServerBuilder::front_line` answers a request the
//! profile rejects with its status and closes, `ClientBuilder::front_line`
//! refuses a response the profile rejects with the rule that names it;
//! with the switch off (the default) both are served and read as before.
//! The cases and checks are those of the blocking adapter's
//! (`support/front_line.rs`).

#[path = "support/front_line.rs"]
mod front_line;
mod support;

use http_net_tokio::ClientOptions;
use http_net_tokio::ServerOptions;
use std::time::Duration;

use http_net_tokio::http_net_conn::{Config, Error as ConnError};
use http_net_tokio::{Client, Error, Exchange, Handler, HandlerError, Server, ServerBuilder};

use front_line::{clients_refuse, servers_reject, Fetched};
use support::on_tokio::{answers_and_closes, read_whole, start, Running};

/// Echoes the request body.
struct Echo;

impl Handler for Echo {
    async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
        let body = read_whole(ex, &mut [0u8; 1024]).await?;
        Ok(ex.respond_with(200, &[], &body).await?)
    }
}

/// A server from `builder` on an ephemeral loopback port, on a runtime of
/// its own thread.
fn echo(builder: ServerBuilder) -> Running {
    start(
        builder.shutdown_timeout(Duration::from_secs(2)),
        Echo,
        false,
    )
}

// proves: policy-front-line-request-cl-leading-zero, policy-front-line-request-cl-list, policy-front-line-request-encoded-control, policy-front-line-request-host-mismatch, policy-front-line-request-unregistered-method, policy-front-line-request-trailers
#[test]
fn server_builder_front_line_rejects_what_the_default_serves() {
    let off = echo(Server::builder());
    let on = echo(Server::builder().front_line(true));
    // Set before a conn_config without it, the switch still holds.
    let on_first = echo(
        Server::builder()
            .front_line(true)
            .conn_config(Config::DEFAULT),
    );
    servers_reject(off.addr, [on.addr, on_first.addr]);
    // Each server shuts down and its `serve` returns Ok.
    for srv in [off, on, on_first] {
        srv.stop();
    }
}

/// Fetches `/` from an origin answering `reply`, with `client`: the body,
/// or the error.
async fn fetch(client: &Client, reply: &'static [u8]) -> Fetched {
    let (port, t) = answers_and_closes(reply).await;
    let got = match client
        .send_to("127.0.0.1", port, b"GET", b"/", &[], b"")
        .await
    {
        Ok(mut r) => r.body_to_vec(1024).await,
        Err(e) => Err(e),
    };
    t.await.unwrap();
    got.map_err(|e| match e {
        Error::Protocol(ConnError::Remote(r)) => (Some(r), format!("{e:?}")),
        e => (None, format!("{e:?}")),
    })
}

// proves: policy-front-line-response-cl-leading-zero, policy-front-line-response-cl-whitespace, policy-front-line-response-trailers
#[test]
fn client_builder_front_line_refuses_what_the_default_reads() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let off = Client::new();
    let on = Client::builder().front_line(true).build();
    // Set before a conn_config without it, the switch still holds.
    let on_first = Client::builder()
        .front_line(true)
        .conn_config(Config::DEFAULT)
        .build();
    clients_refuse(&off, [&on, &on_first], |client, reply| {
        rt.block_on(fetch(client, reply))
    });
}
