//! What both sides' configurations share: the ALPN name, the crypto
//! provider, and the error of a configuration made from files.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::CertificateDer;

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

/// The certificates in the PEM file `path`, in order; none is
/// [`ConfigError::NoCertificate`].
pub(crate) fn pem_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>, ConfigError> {
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(ConfigError::of_file(path))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(ConfigError::of_file(path))?;
    if certs.is_empty() {
        let path = path.to_path_buf();
        return Err(ConfigError::NoCertificate { path });
    }
    Ok(certs)
}

/// Why a TLS configuration could not be made from files. Each error of a
/// file names its path.
///
/// ```
/// use http_net_rustls::{ClientTls, ConfigError};
///
/// let e = ClientTls::from_pem_file("/no/such/dir/ca.pem").unwrap_err();
/// assert!(matches!(&e, ConfigError::Read { path, .. } if path.ends_with("ca.pem")));
/// assert!(e.to_string().starts_with("cannot read /no/such/dir/ca.pem: "));
/// ```
#[non_exhaustive]
#[derive(Debug)]
pub enum ConfigError {
    /// The file could not be opened or read (missing, not readable).
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system reported.
        error: io::Error,
    },
    /// The file is not PEM as RFC 7468 writes it (a section without its
    /// end line, bad base64, a section over 256 MB).
    Pem {
        /// The file.
        path: PathBuf,
        /// What the PEM reader reported.
        error: pem::Error,
    },
    /// The PEM file holds no certificate (RFC 7468 §5: no `CERTIFICATE`
    /// section).
    NoCertificate {
        /// The file.
        path: PathBuf,
    },
    /// The PEM file holds no private key (RFC 7468 §10 and §11: no
    /// `PRIVATE KEY`, `RSA PRIVATE KEY` or `EC PRIVATE KEY` section).
    NoPrivateKey {
        /// The file.
        path: PathBuf,
    },
    /// rustls refused the certificate, key or settings.
    Tls(rustls::Error),
}

impl ConfigError {
    /// The error of reading the PEM file `path`: an I/O failure is
    /// [`ConfigError::Read`], anything else [`ConfigError::Pem`].
    pub(crate) fn of_file(path: &Path) -> impl FnOnce(pem::Error) -> ConfigError + '_ {
        move |error| match error {
            pem::Error::Io(error) => ConfigError::Read {
                path: path.to_path_buf(),
                error,
            },
            error => ConfigError::Pem {
                path: path.to_path_buf(),
                error,
            },
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Read { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            ConfigError::Pem { path, error } => {
                write!(f, "{} is not PEM (RFC 7468): {error}", path.display())
            }
            ConfigError::NoCertificate { path } => write!(
                f,
                "no certificate in the PEM file {} (RFC 7468 §5)",
                path.display()
            ),
            ConfigError::NoPrivateKey { path } => write!(
                f,
                "no private key (PKCS#8, PKCS#1 or SEC1) in the PEM file {} (RFC 7468 §10, §11)",
                path.display()
            ),
            ConfigError::Tls(e) => write!(f, "TLS configuration: {e}"),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::Read { error, .. } => Some(error),
            ConfigError::Pem { error, .. } => Some(error),
            ConfigError::Tls(e) => Some(e),
            ConfigError::NoCertificate { .. } | ConfigError::NoPrivateKey { .. } => None,
        }
    }
}
