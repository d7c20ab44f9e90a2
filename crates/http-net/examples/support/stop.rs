//! What `hello` and `echo` share: the graceful stop on SIGINT and SIGTERM,
//! the `--max-connections N` flag, a listener with a deeper backlog, and
//! the start that binds it and prints the address (`start`).
//!
//! The first signal starts the server's graceful shutdown
//! ([`ServerHandle::shutdown`]): it stops accepting, closes idle keep-alive
//! connections, lets responses in flight finish for up to the server's
//! shutdown timeout (30 s by default), and `serve` returns, so the example
//! exits 0. A second signal exits at once (status 130), for an operator who
//! will not wait.

use http_net::blocking::ServerHandle;

/// Stops `handle`'s server on SIGINT or SIGTERM (see the module doc).
/// `name` prefixes the notes written to stderr.
#[cfg(unix)]
pub fn on_signals(name: &'static str, handle: ServerHandle) -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    let mut signals = Signals::new([SIGINT, SIGTERM])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut seen = 0u32;
            for sig in signals.forever() {
                let which = if sig == SIGINT { "SIGINT" } else { "SIGTERM" };
                seen += 1;
                if seen == 1 {
                    eprintln!("{name}: {which}: stopping (requests in flight finish; again to stop at once)");
                    handle.shutdown();
                } else {
                    eprintln!("{name}: {which} again: stopping now");
                    std::process::exit(130);
                }
            }
        })?;
    Ok(())
}

/// Without Unix signals, the process stops the way the platform ends it.
#[cfg(not(unix))]
pub fn on_signals(_name: &'static str, _handle: ServerHandle) -> std::io::Result<()> {
    Ok(())
}

/// Pending connections the kernel may queue before `accept` takes them.
/// std's `TcpListener::bind` asks for 128, and std has no way to ask for
/// more; a burst of connects deeper than that (an attacker reconnecting
/// thousands of times a second) overflows it, and a client whose SYN is
/// dropped retries only after a second. nginx asks for 511; this asks for
/// 1,024 (Linux caps it at `net.core.somaxconn`, 4,096 by default).
pub const BACKLOG: i32 = 1024;

/// The server of `builder` on [`listen`]`(addr)`, stopped by [`on_signals`],
/// once it has printed `listening on http://ADDR` (the address bound): what
/// `hello` and `echo` do before they serve. It exits 2 when it cannot
/// listen and 1 when it cannot handle signals, saying why on stderr after
/// `name`.
pub fn start(
    name: &'static str,
    addr: &str,
    builder: http_net::blocking::ServerBuilder,
) -> http_net::blocking::Server<std::net::TcpListener> {
    use std::io::Write;
    use std::process::exit;

    let server = match listen(addr).map(|l| builder.listener(l)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{name}: cannot listen on {addr}: {e}");
            exit(2);
        }
    };
    if let Err(e) = on_signals(name, server.handle()) {
        eprintln!("{name}: cannot handle signals: {e}");
        exit(1);
    }
    let local = server
        .local_addr()
        .map_or_else(|_| addr.to_string(), |a| a.to_string());
    println!("listening on http://{local}");
    let _ = std::io::stdout().flush();
    server
}

/// A TCP listener on `addr` with a backlog of [`BACKLOG`] (through
/// `socket2`: std cannot set it).
pub fn listen(addr: &str) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    use std::net::ToSocketAddrs;

    let mut last = None;
    for a in addr.to_socket_addrs()? {
        let bound = (|| {
            let socket = Socket::new(Domain::for_address(a), Type::STREAM, None)?;
            // As std's bind does on Unix, so a restart can take the port at once.
            #[cfg(unix)]
            socket.set_reuse_address(true)?;
            socket.bind(&a.into())?;
            socket.listen(BACKLOG)?;
            Ok::<_, std::io::Error>(std::net::TcpListener::from(socket))
        })();
        match bound {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address to listen on")
    }))
}

/// The value of `--max-connections N` (a positive integer).
pub fn max_connections(value: &str) -> Option<usize> {
    value.parse().ok().filter(|&n| n > 0)
}
