// Shared by the H6 plaintext servers (included with `include!`): the
// `--addr` argument and the `/plaintext` answer, the same on every server.

/// The `/plaintext` body (TechEmpower's plaintext test).
#[allow(dead_code)]
const PLAINTEXT: &[u8] = b"Hello, World!";

/// `--addr HOST:PORT` (default 127.0.0.1:8080).
fn addr_arg() -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--addr")
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| "127.0.0.1:8080".to_string())
}

/// Prints the line `cargo xtask compare sockets` waits for.
fn announce(addr: std::net::SocketAddr) {
    use std::io::Write;
    println!("listening on http://{addr}");
    let _ = std::io::stdout().flush();
}
