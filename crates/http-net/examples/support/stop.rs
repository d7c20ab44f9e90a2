//! What `hello` and `echo` share: the graceful stop on SIGINT and SIGTERM,
//! and the `--max-connections N` flag.
//!
//! The first signal starts the server's graceful shutdown
//! ([`ShutdownHandle::shutdown`]): it stops accepting, closes idle keep-alive
//! connections, lets responses in flight finish for up to the server's
//! shutdown timeout (30 s by default), and `serve` returns, so the example
//! exits 0. A second signal exits at once (status 130), for an operator who
//! will not wait.

use http_net::io::ShutdownHandle;

/// Stops `handle`'s server on SIGINT or SIGTERM (see the module doc).
/// `name` prefixes the notes written to stderr.
#[cfg(unix)]
pub fn on_signals(name: &'static str, handle: ShutdownHandle) -> std::io::Result<()> {
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
pub fn on_signals(_name: &'static str, _handle: ShutdownHandle) -> std::io::Result<()> {
    Ok(())
}

/// The value of `--max-connections N` (a positive integer).
pub fn max_connections(value: &str) -> Option<usize> {
    value.parse().ok().filter(|&n| n > 0)
}
