//! HTTPS with the blocking client: `cargo run -p http-net-rustls --example
//! tls_get -- [--cacert CA.pem] https://HOST:PORT/PATH` fetches the URL
//! (trusting only `CA.pem` when given, Mozilla's roots otherwise), writes
//! the status to stderr and the body to stdout; exit 1 on an error, naming
//! a TLS failure (unknown certificate, name mismatch, expired, timeout).

use std::io;

use http_net::blocking::{Client, Error};
use http_net_rustls::{ClientTls, TlsFailure};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (ca, url) = match &args[..] {
        [flag, ca, url] if flag == "--cacert" => (Some(ca), url),
        [url] => (None, url),
        _ => {
            eprintln!("usage: tls_get [--cacert CA.pem] https://HOST:PORT/PATH");
            std::process::exit(2);
        }
    };
    // The TLS setup: the roots, and the connector that opens https:// URLs.
    let tls = match ca {
        Some(ca) => ClientTls::from_pem_file(ca)?,
        None => ClientTls::new(),
    };
    let client = Client::builder()
        .connector(move |host: &str, port: u16| tls.connect(host, port))
        .build();
    match client.get(url) {
        Ok(mut resp) => {
            eprintln!("{}", resp.status());
            io::copy(&mut resp, &mut io::stdout().lock())?;
            Ok(())
        }
        Err(Error::Io(e)) if TlsFailure::of(&e).is_some() => {
            eprintln!("tls_get: {e}");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("tls_get: {e}");
            std::process::exit(1);
        }
    }
}
