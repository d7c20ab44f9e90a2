//! What failed in a TLS connection, as a caller can tell it apart: the
//! error inside the `std::io::Error` the streams and connectors return.

use std::fmt;
use std::io;

use rustls::{AlertDescription, CertificateError};

/// Why a TLS connection failed, carried inside the `std::io::Error` a
/// connector or stream of this crate returns (the clients wrap that in
/// their `Error::Io`): get it back with [`TlsFailure::of`].
///
/// ```
/// use http_net_rustls::TlsFailure;
/// let e = TlsFailure::Truncated.into_io();
/// assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof);
/// let e = TlsFailure::HandshakeTimeout.into_io();
/// assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
/// assert!(matches!(TlsFailure::of(&e), Some(TlsFailure::HandshakeTimeout)));
/// assert!(TlsFailure::of(&std::io::Error::other("x")).is_none());
/// ```
#[non_exhaustive]
#[derive(Debug)]
pub enum TlsFailure {
    /// The peer's certificate chains to no trusted root (RFC 5280 §6: no
    /// path to a trust anchor).
    UnknownCertificate,
    /// The certificate is not valid for the name asked for (RFC 6125 §6:
    /// the reference identity, the URL's host, matches no subject
    /// alternative name). The subject's common name is not read (RFC 9110
    /// §4.3.4: a client must not use a CN-ID), so a certificate that names
    /// its host only there fails here: make it with
    /// `subjectAltName=DNS:<name>` (or `IP:<address>`).
    NameMismatch,
    /// The server's certificate is a CA certificate (its basic constraints
    /// say `cA` TRUE, RFC 5280 §4.2.1.9), which rustls' verifier (webpki)
    /// does not accept as a server's own: `openssl req -x509` makes one
    /// unless told `-addext basicConstraints=critical,CA:FALSE`.
    CaUsedAsEndEntity,
    /// The certificate (or one in its chain) has expired (RFC 5280
    /// §4.1.2.5: the validity period).
    Expired,
    /// The handshake did not finish within its deadline.
    HandshakeTimeout,
    /// The peer offers no application protocol in common (RFC 7301 §3.2:
    /// `no_application_protocol`; this crate speaks only `http/1.1`).
    NoApplicationProtocol,
    /// The peer closed the connection without `close_notify` (RFC 8446
    /// §6.1): data read to the close may be cut short (a close-delimited
    /// body, RFC 9112 §6.3 rule 8, is then truncated).
    Truncated,
    /// Bytes that are not a TLS record where one was due (RFC 8446 §5:
    /// plain HTTP sent to a TLS port, a garbled record, a wrong version).
    NotTls,
    /// Another failure rustls reported (its error, whole).
    Other(rustls::Error),
}

impl TlsFailure {
    /// The failure a rustls error stands for.
    pub fn classify(e: rustls::Error) -> TlsFailure {
        use rustls::Error as E;
        match e {
            E::InvalidCertificate(c) => match c {
                CertificateError::UnknownIssuer => TlsFailure::UnknownCertificate,
                CertificateError::NotValidForName
                | CertificateError::NotValidForNameContext { .. } => TlsFailure::NameMismatch,
                CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                    TlsFailure::Expired
                }
                CertificateError::Other(other) if ca_used_as_end_entity(&other) => {
                    TlsFailure::CaUsedAsEndEntity
                }
                other => TlsFailure::Other(E::InvalidCertificate(other)),
            },
            E::NoApplicationProtocol
            | E::AlertReceived(AlertDescription::NoApplicationProtocol) => {
                TlsFailure::NoApplicationProtocol
            }
            E::InvalidMessage(_) => TlsFailure::NotTls,
            other => TlsFailure::Other(other),
        }
    }

    /// The failure inside `e`, if `e` carries one (made by this crate).
    pub fn of(e: &io::Error) -> Option<&TlsFailure> {
        e.get_ref()?.downcast_ref::<TlsFailure>()
    }

    /// As an `std::io::Error` (of kind `TimedOut` for a handshake timeout,
    /// `InvalidData` otherwise) that carries it.
    pub fn into_io(self) -> io::Error {
        let kind = match self {
            TlsFailure::HandshakeTimeout => io::ErrorKind::TimedOut,
            TlsFailure::Truncated => io::ErrorKind::UnexpectedEof,
            _ => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, self)
    }
}

impl fmt::Display for TlsFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TlsFailure::UnknownCertificate => {
                f.write_str("the certificate chains to no trusted root (RFC 5280 §6)")
            }
            TlsFailure::NameMismatch => f.write_str(
                "the certificate is not valid for the host name: the name is not in its \
                 subjectAltName (its CN is not read, RFC 9110 §4.3.4); make it with \
                 subjectAltName=DNS:<name> or IP:<address> (RFC 6125 §6)",
            ),
            TlsFailure::CaUsedAsEndEntity => f.write_str(
                "the server's certificate is a CA certificate (CA:TRUE), not a server's; \
                 make it with basicConstraints=critical,CA:FALSE (RFC 5280 §4.2.1.9)",
            ),
            TlsFailure::Expired => f.write_str("the certificate has expired (RFC 5280 §4.1.2.5)"),
            TlsFailure::HandshakeTimeout => f.write_str("the TLS handshake timed out"),
            TlsFailure::NoApplicationProtocol => {
                f.write_str("no application protocol in common (RFC 7301 §3.2)")
            }
            TlsFailure::NotTls => f.write_str("the peer did not send TLS records (RFC 8446 §5)"),
            TlsFailure::Truncated => f.write_str(
                "the peer closed without close_notify: the data may be cut short (RFC 8446 §6.1)",
            ),
            TlsFailure::Other(e) => write!(f, "TLS: {e}"),
        }
    }
}

impl std::error::Error for TlsFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TlsFailure::Other(e) => Some(e),
            _ => None,
        }
    }
}

/// Whether rustls' "other" certificate error is webpki's
/// `CaUsedAsEndEntity` (rustls has no variant of its own for it).
fn ca_used_as_end_entity(e: &rustls::OtherError) -> bool {
    matches!(
        e.0.downcast_ref::<webpki::Error>(),
        Some(webpki::Error::CaUsedAsEndEntity)
    )
}

/// An I/O error that carries `e`, classified.
pub(crate) fn tls_error(e: rustls::Error) -> io::Error {
    TlsFailure::classify(e).into_io()
}

/// An I/O error from rustls' own I/O (its `complete_io`), with a TLS
/// error inside it classified.
pub(crate) fn classify_io(e: io::Error) -> io::Error {
    match e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
        Some(tls) => tls_error(tls.clone()),
        None => e,
    }
}
