//! H6: may_minihttp plaintext server with one may worker thread (the
//! server is pinned to one core). `/plaintext` answers `Hello, World!`.

use std::io;

use may_minihttp::{HttpService, HttpServiceFactory, Request, Response};

include!("../plaintext_common.rs");

#[derive(Clone)]
struct Plaintext;

impl HttpService for Plaintext {
    fn call(&mut self, _req: Request, rsp: &mut Response) -> io::Result<()> {
        rsp.header("Content-Type: text/plain");
        rsp.body("Hello, World!");
        Ok(())
    }
}

struct Factory;

impl HttpServiceFactory for Factory {
    type Service = Plaintext;
    fn new_service(&self, _id: usize) -> Plaintext {
        Plaintext
    }
}

fn main() {
    may::config().set_workers(1);
    let addr: std::net::SocketAddr = addr_arg().parse().expect("--addr HOST:PORT");
    // may_minihttp binds the address itself; with port 0 the chosen port is
    // unknown, so take a free one first.
    let addr = if addr.port() == 0 {
        std::net::TcpListener::bind(addr)
            .and_then(|l| l.local_addr())
            .expect("a free port")
    } else {
        addr
    };
    let server = Factory.start(addr).expect("start");
    announce(addr);
    let _ = server.join();
}
