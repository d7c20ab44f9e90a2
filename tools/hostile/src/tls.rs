//! The TLS form's pieces (`cargo xtask hostile --tls`): the test
//! certificate the servers are started with and the well-behaved client
//! trusts, and the ClientHello the attacking sockets send (whole, or cut in
//! half), made once by rustls with the client's own configuration, so that
//! the server does for each the work it does for a real client.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use http_net_rustls::rustls;
use http_net_rustls::ClientTls;

use tool_support::process::Result;

/// The certificate and key files for `localhost` and `127.0.0.1`, made in
/// `dir` (self-signed: the certificate is its own trust anchor).
pub struct Files {
    /// The certificate (PEM), also the client's root.
    pub cert: PathBuf,
    /// The private key (PEM).
    pub key: PathBuf,
}

impl Files {
    /// Makes a key pair and a certificate for it in `dir`.
    pub fn make(dir: &Path) -> Result<Files> {
        let err = |e: &dyn std::fmt::Display| format!("hostile --tls: the test certificate: {e}");
        std::fs::create_dir_all(dir).map_err(|e| err(&e))?;
        let params = rcgen::CertificateParams::new(vec!["localhost".into(), "127.0.0.1".into()])
            .map_err(|e| err(&e))?;
        let key = rcgen::KeyPair::generate().map_err(|e| err(&e))?;
        let cert = params.self_signed(&key).map_err(|e| err(&e))?;
        let files = Files {
            cert: dir.join("cert.pem"),
            key: dir.join("key.pem"),
        };
        std::fs::write(&files.cert, cert.pem()).map_err(|e| err(&e))?;
        std::fs::write(&files.key, key.serialize_pem()).map_err(|e| err(&e))?;
        Ok(files)
    }

    /// A client trusting this certificate alone, whose handshake (connect
    /// included) must end within `limit`.
    pub fn client(&self, limit: std::time::Duration) -> Result<ClientTls> {
        Ok(ClientTls::from_pem_file(&self.cert)
            .map_err(|e| format!("hostile --tls: {e}"))?
            .handshake_timeout(limit))
    }
}

/// The first flight of `tls`'s client to `localhost`: one TLS record
/// holding a ClientHello (with its key shares, SNI and ALPN `http/1.1`).
pub fn client_hello(tls: &ClientTls) -> Result<Vec<u8>> {
    let name = rustls::pki_types::ServerName::try_from("localhost")
        .map_err(|e| format!("hostile --tls: {e}"))?;
    let mut conn = rustls::ClientConnection::new(Arc::clone(tls.config()), name)
        .map_err(|e| format!("hostile --tls: {e}"))?;
    let mut hello = Vec::new();
    while conn.wants_write() {
        conn.write_tls(&mut hello)
            .map_err(|e| format!("hostile --tls: {e}"))?;
    }
    Ok(hello)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hello_is_one_handshake_record_and_the_files_load() {
        let dir = std::env::temp_dir().join(format!("xtask-hostile-tls-{}", std::process::id()));
        let files = Files::make(&dir).unwrap();
        let tls = files.client(std::time::Duration::from_secs(1)).unwrap();
        http_net_rustls::ServerTls::from_pem_files(&files.cert, &files.key).unwrap();
        let hello = client_hello(&tls).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        // A handshake record (22), its length the rest, a ClientHello (1).
        assert_eq!(hello[0], 22, "{hello:?}");
        let len = u16::from_be_bytes([hello[3], hello[4]]) as usize;
        assert_eq!(hello.len(), 5 + len);
        assert_eq!(hello[5], 1);
    }
}
