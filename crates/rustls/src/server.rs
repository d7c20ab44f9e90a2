//! The servers' TLS: [`ServerTls`], the setup step (the handshake) both
//! servers run inside an admitted connection slot.

use std::fmt;
use std::io;
use std::net::TcpStream;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::PrivateKeyDer;
use rustls::{ServerConfig, ServerConnection};

use crate::config::{pem_certs, provider, ConfigError, HTTP_1_1};
use crate::failure::tls_error;
use crate::stream::TlsStream;

/// The TLS side of a server: a rustls `ServerConfig` speaking `http/1.1`
/// (ALPN, RFC 7301), and the handshake as the servers' setup step. Give it
/// to `ServerBuilder::listener_with_setup` of `http-net-std` (with a
/// `std::net::TcpListener`) or of `http-net-tokio` (with a
/// `tokio::net::TcpListener`, feature `tokio`): each handshake then runs on
/// its connection's thread or task once the connection holds a slot, within
/// the server's `setup_timeout`; at the connection limit a handshake in
/// progress is evicted as a partial request head is. A failed handshake (a
/// bad record, a wrong version, plain HTTP sent to the TLS port, a client
/// that offers only `h2`) closes that connection only and is counted in the
/// server's `setup_failed`.
///
/// ```no_run
/// use http_net_rustls::ServerTls;
/// use http_net::blocking::{Error, Exchange, Server};
///
/// let tls = ServerTls::from_pem_files("cert.pem", "key.pem")?;
/// let listener = std::net::TcpListener::bind("127.0.0.1:8443")?;
/// let server = Server::builder().listener_with_setup(listener, tls);
/// server.serve(|ex: &mut Exchange<'_>| -> Result<(), Error> {
///     ex.respond_with(200, &[], b"hello over tls\n")
/// })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct ServerTls {
    config: Arc<ServerConfig>,
}

impl fmt::Debug for ServerTls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerTls")
            .field("alpn", &self.config.alpn_protocols)
            .finish_non_exhaustive()
    }
}

impl ServerTls {
    /// A server with the certificate chain in the PEM file `cert` (the
    /// server's certificate first) and the private key in the PEM file
    /// `key` (PKCS#8, PKCS#1 or SEC1), read through rustls'
    /// `PemObject`, with the default crypto provider and ALPN `http/1.1`.
    /// An error of a file names it ([`ConfigError`]).
    pub fn from_pem_files(
        cert: impl AsRef<Path>,
        key: impl AsRef<Path>,
    ) -> Result<ServerTls, ConfigError> {
        let (certs, key) = (pem_certs(cert.as_ref())?, key.as_ref());
        let key = PrivateKeyDer::from_pem_file(key).map_err(|e| match e {
            pem::Error::NoItemsFound => ConfigError::NoPrivateKey {
                path: key.to_path_buf(),
            },
            e => ConfigError::of_file(key)(e),
        })?;
        let config = ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(ConfigError::Tls)?
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .map_err(ConfigError::Tls)?;
        Ok(ServerTls::new(config))
    }

    /// A server with the caller's `config`; its ALPN list is set to
    /// `http/1.1` alone (the only protocol the servers speak).
    pub fn new(mut config: ServerConfig) -> ServerTls {
        config.alpn_protocols = vec![HTTP_1_1.to_vec()];
        ServerTls {
            config: Arc::new(config),
        }
    }

    /// The rustls configuration.
    pub fn config(&self) -> &Arc<ServerConfig> {
        &self.config
    }
}

impl http_net_std::Setup<TcpStream> for ServerTls {
    type Stream = TlsStream;
    /// The handshake, each read and write bounded by the time left until
    /// `until`; a failure is a [`TlsFailure`](crate::TlsFailure) inside the
    /// I/O error.
    fn setup(&self, raw: TcpStream, until: Instant) -> io::Result<TlsStream> {
        let conn = ServerConnection::new(Arc::clone(&self.config)).map_err(tls_error)?;
        TlsStream::handshake(conn, raw, until)
    }
}
