//! The clients' TLS: [`ClientTls`], the connector that makes `https://`
//! URLs work.

use std::fmt;
use std::io;
use std::net::{TcpStream, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection, RootCertStore};

use crate::config::{pem_certs, provider, ConfigError, HTTP_1_1};
use crate::failure::{tls_error, TlsFailure};
use crate::stream::TlsStream;

/// The TLS side of a client: a rustls `ClientConfig` (trusted roots, ALPN
/// `http/1.1`) and a handshake deadline. Each connection's server name
/// (SNI, RFC 6066 §3) is the URL's host, and the server's certificate is
/// checked against it; a failure is a [`TlsFailure`] inside the I/O error
/// (unknown certificate, name mismatch, expired, handshake timeout).
///
/// With the blocking client:
///
/// ```no_run
/// use http_net_rustls::ClientTls;
///
/// let tls = ClientTls::new();
/// let client = http_net::blocking::Client::builder()
///     .connector(move |host: &str, port: u16| tls.connect(host, port))
///     .build();
/// let mut resp = client.get("https://example.com/")?;
/// println!("{}", resp.status());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct ClientTls {
    config: Arc<ClientConfig>,
    /// The deadline of each handshake, connecting included.
    pub(crate) handshake_timeout: Duration,
}

impl fmt::Debug for ClientTls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientTls")
            .field("handshake_timeout", &self.handshake_timeout)
            .finish_non_exhaustive()
    }
}

impl ClientTls {
    /// The default handshake deadline: 10 s.
    pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

    /// A client trusting the default roots (Mozilla's, from the
    /// `webpki-roots` feature).
    #[cfg(feature = "webpki-roots")]
    pub fn new() -> ClientTls {
        let roots = RootCertStore::from_iter(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        ClientTls::with_roots(roots)
    }

    /// A client trusting the certificates in the PEM file `ca` alone. An
    /// error names the file ([`ConfigError`]).
    pub fn from_pem_file(ca: impl AsRef<Path>) -> Result<ClientTls, ConfigError> {
        let mut roots = RootCertStore::empty();
        for cert in pem_certs(ca.as_ref())? {
            roots.add(cert).map_err(ConfigError::Tls)?;
        }
        Ok(ClientTls::with_roots(roots))
    }

    /// A client trusting `roots`, with the default crypto provider.
    pub fn with_roots(roots: RootCertStore) -> ClientTls {
        // The safe default versions are always supported by the provider
        // this crate builds with; the fallback keeps this infallible.
        let builder = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .unwrap_or_else(|_| ClientConfig::builder());
        ClientTls::with_config(builder.with_root_certificates(roots).with_no_client_auth())
    }

    /// A client with the caller's `config`; its ALPN list is set to
    /// `http/1.1` alone.
    pub fn with_config(mut config: ClientConfig) -> ClientTls {
        config.alpn_protocols = vec![HTTP_1_1.to_vec()];
        ClientTls {
            config: Arc::new(config),
            handshake_timeout: ClientTls::HANDSHAKE_TIMEOUT,
        }
    }

    /// The deadline of each handshake, connecting included (default 10 s):
    /// past it the connection fails with [`TlsFailure::HandshakeTimeout`].
    pub fn handshake_timeout(mut self, t: Duration) -> ClientTls {
        self.handshake_timeout = t;
        self
    }

    /// The rustls configuration.
    pub fn config(&self) -> &Arc<ClientConfig> {
        &self.config
    }

    /// The server name for `host` (a DNS name, or an IP address: then no
    /// SNI is sent and the certificate must name the address).
    pub(crate) fn server_name(host: &str) -> io::Result<ServerName<'static>> {
        ServerName::try_from(host.to_owned())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, InvalidHost))
    }

    /// Opens a TLS connection to `host` and `port` for the blocking client
    /// (its [`connector`](http_net_std::ClientBuilder::connector)): TCP,
    /// then the whole handshake, within the handshake deadline.
    pub fn connect(&self, host: &str, port: u16) -> io::Result<TlsStream> {
        let until = Instant::now() + self.handshake_timeout;
        let name = ClientTls::server_name(host)?;
        let conn = ClientConnection::new(Arc::clone(&self.config), name).map_err(tls_error)?;
        let mut last = None;
        for addr in (host, port).to_socket_addrs()? {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(TlsFailure::HandshakeTimeout.into_io());
            }
            match TcpStream::connect_timeout(&addr, left) {
                Ok(sock) => return TlsStream::handshake(conn, sock, until),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| io::ErrorKind::NotFound.into()))
    }
}

#[cfg(feature = "webpki-roots")]
impl Default for ClientTls {
    fn default() -> ClientTls {
        ClientTls::new()
    }
}

/// A URL host that is neither a DNS name nor an IP address as TLS names
/// servers (RFC 6066 §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidHost;

impl fmt::Display for InvalidHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the host is not a server name TLS can check (RFC 6066 §3)")
    }
}

impl std::error::Error for InvalidHost {}
