//! H6: tiny_http plaintext server. tiny_http does not set `TCP_NODELAY` on
//! the connections it accepts and writes head and body separately, so
//! without it the run would measure Nagle's algorithm against delayed ACKs.
//! The option is set on the listening socket, which Linux copies to every
//! accepted socket; the server checks that on a probe connection at start.

use std::net::{TcpListener, TcpStream};

include!("../plaintext_common.rs");

fn nodelay_listener(addr: &str) -> TcpListener {
    let listener = TcpListener::bind(addr).expect("bind");
    socket2::SockRef::from(&listener)
        .set_tcp_nodelay(true)
        .expect("TCP_NODELAY on the listener");
    listener
}

fn main() {
    // Probe: is TCP_NODELAY inherited by accepted sockets here?
    let probe = nodelay_listener("127.0.0.1:0");
    let _client = TcpStream::connect(probe.local_addr().expect("address")).expect("connect");
    let (accepted, _) = probe.accept().expect("accept");
    let inherited = accepted.nodelay().unwrap_or(false);
    eprintln!("tiny_http: TCP_NODELAY inherited by accepted sockets: {inherited}");
    assert!(
        inherited,
        "TCP_NODELAY is not inherited here: tiny_http would wait on Nagle"
    );

    let listener = nodelay_listener(&addr_arg());
    let addr = listener.local_addr().expect("address");
    let server = tiny_http::Server::from_listener(listener, None).expect("server");
    announce(addr);
    let header: tiny_http::Header = "Content-Type: text/plain".parse().expect("header");
    for request in server.incoming_requests() {
        let response = tiny_http::Response::from_data(PLAINTEXT).with_header(header.clone());
        let _ = request.respond(response);
    }
}
