//! What both sides' configurations share: the ALPN name, the crypto
//! provider, and the error of a configuration made from files.

use std::fmt;
use std::sync::Arc;

use rustls::crypto::CryptoProvider;

/// The ALPN name of HTTP/1.1 (RFC 7301 §6): the one protocol both sides
/// offer.
pub const HTTP_1_1: &[u8] = b"http/1.1";

/// The crypto provider: the process default when the application
/// installed one, otherwise aws-lc-rs (rustls' default).
pub(crate) fn provider() -> Arc<CryptoProvider> {
    match CryptoProvider::get_default() {
        Some(p) => Arc::clone(p),
        None => Arc::new(rustls::crypto::aws_lc_rs::default_provider()),
    }
}

/// Why a TLS configuration could not be made from files.
#[non_exhaustive]
#[derive(Debug)]
pub enum ConfigError {
    /// A PEM file could not be read or parsed (RFC 7468).
    Pem(rustls::pki_types::pem::Error),
    /// The PEM file held no certificate.
    NoCertificate,
    /// rustls refused the certificate, key or settings.
    Tls(rustls::Error),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Pem(e) => write!(f, "a PEM file (RFC 7468): {e:?}"),
            ConfigError::NoCertificate => f.write_str("no certificate in the PEM file (RFC 7468)"),
            ConfigError::Tls(e) => write!(f, "TLS configuration: {e}"),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::Tls(e) => Some(e),
            _ => None,
        }
    }
}
