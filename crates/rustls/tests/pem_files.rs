//! The PEM files a user gives: a missing file is named by its path; the
//! certificate the crate's docs tell how to make with `openssl` is served
//! and trusted; the certificate of the usual `openssl req -x509` command is
//! refused with an error that says how to make one that works.

mod support;

use std::path::Path;
use std::process::Command;

use http_net_rustls::{ClientTls, ConfigError, ServerTls};
use support::*;

/// `e`'s text names `path`.
fn names(e: &impl std::fmt::Display, path: &Path) {
    let text = e.to_string();
    assert!(text.contains(&path.display().to_string()), "{text}");
}

#[test]
fn a_missing_file_is_named_by_its_path() {
    let dir = TempDir::new("pem-missing");
    let missing = dir.0.join("no-such-ca.pem");
    let e = ClientTls::from_pem_file(&missing).unwrap_err();
    names(&e, &missing);

    let c = cert(&["localhost"], false);
    let cp = write_pem(&dir, "cert.pem", &c.cert_pem);
    let kp = write_pem(&dir, "key.pem", &c.key_pem);
    let missing_cert = dir.0.join("no-such-cert.pem");
    let e = ServerTls::from_pem_files(&missing_cert, &kp).unwrap_err();
    names(&e, &missing_cert);
    let missing_key = dir.0.join("no-such-key.pem");
    let e = ServerTls::from_pem_files(&cp, &missing_key).unwrap_err();
    names(&e, &missing_key);
    assert!(
        matches!(&e, ConfigError::Read { path, error }
            if *path == missing_key && error.kind() == std::io::ErrorKind::NotFound),
        "{e:?}"
    );
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn a_file_without_the_item_asked_for_is_named_by_its_path() {
    let dir = TempDir::new("pem-empty");
    let c = cert(&["localhost"], false);
    let cp = write_pem(&dir, "cert.pem", &c.cert_pem);
    let kp = write_pem(&dir, "key.pem", &c.key_pem);
    // The key file given as the CA file, and as the certificate file.
    let e = ClientTls::from_pem_file(&kp).unwrap_err();
    names(&e, &kp);
    assert!(matches!(&e, ConfigError::NoCertificate { path } if *path == kp), "{e:?}");
    let e = ServerTls::from_pem_files(&kp, &kp).unwrap_err();
    assert!(matches!(&e, ConfigError::NoCertificate { path } if *path == kp), "{e:?}");
    // The certificate file given as the key file.
    let e = ServerTls::from_pem_files(&cp, &cp).unwrap_err();
    names(&e, &cp);
    assert!(matches!(&e, ConfigError::NoPrivateKey { path } if *path == cp), "{e:?}");
    // A section without its end line.
    let cut = write_pem(&dir, "cut.pem", &c.cert_pem[..c.cert_pem.len() / 2]);
    let e = ClientTls::from_pem_file(&cut).unwrap_err();
    names(&e, &cut);
    assert!(matches!(&e, ConfigError::Pem { path, .. } if *path == cut), "{e:?}");
}
