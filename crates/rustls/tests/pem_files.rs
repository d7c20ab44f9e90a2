//! The PEM files a user gives: a missing file is named by its path; the
//! certificate the crate's docs tell how to make with `openssl` is served
//! and trusted; the certificate of the usual `openssl req -x509` command is
//! refused with an error that says how to make one that works.

mod support;

use std::path::Path;
use std::process::Command;

use http_net_rustls::{ClientTls, ConfigError, ServerTls, TlsFailure};
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
    assert!(
        matches!(&e, ConfigError::NoCertificate { path } if *path == kp),
        "{e:?}"
    );
    let e = ServerTls::from_pem_files(&kp, &kp).unwrap_err();
    assert!(
        matches!(&e, ConfigError::NoCertificate { path } if *path == kp),
        "{e:?}"
    );
    // The certificate file given as the key file.
    let e = ServerTls::from_pem_files(&cp, &cp).unwrap_err();
    names(&e, &cp);
    assert!(
        matches!(&e, ConfigError::NoPrivateKey { path } if *path == cp),
        "{e:?}"
    );
    // A section without its end line.
    let cut = write_pem(&dir, "cut.pem", &c.cert_pem[..c.cert_pem.len() / 2]);
    let e = ClientTls::from_pem_file(&cut).unwrap_err();
    names(&e, &cut);
    assert!(
        matches!(&e, ConfigError::Pem { path, .. } if *path == cut),
        "{e:?}"
    );
}

/// The `openssl` command of the README's "A certificate for testing" (a
/// `sh` block), which the crate docs repeat word for word.
fn documented_command() -> String {
    let readme = include_str!("../README.md");
    let start = readme
        .find("```sh\nopenssl req -x509")
        .expect("the README shows the openssl command")
        + "```sh\n".len();
    let len = readme[start..].find("\n```").unwrap();
    let command = readme[start..start + len].to_string();
    let crate_docs: String = include_str!("../src/lib.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        crate_docs.contains(&command),
        "the crate docs show: {command}"
    );
    command
}

/// Whether the `openssl` found is OpenSSL 3 or later, which the docs'
/// command is for (macOS ships LibreSSL as `openssl`); the test skips
/// otherwise, with a note.
fn openssl_3() -> bool {
    let out = Command::new("openssl").arg("version").output().unwrap();
    let version = String::from_utf8_lossy(&out.stdout).into_owned();
    let major = version
        .strip_prefix("OpenSSL ")
        .and_then(|v| v.split('.').next())
        .and_then(|m| m.parse::<u32>().ok());
    let ok = major.is_some_and(|m| m >= 3);
    if !ok {
        eprintln!(
            "note: skipping: {} is not OpenSSL 3 or later",
            version.trim()
        );
    }
    ok
}

/// Runs `command` with `sh` in `dir` (which then holds `cert.pem` and
/// `key.pem`); whether it succeeded.
fn openssl(dir: &TempDir, command: &str) -> bool {
    let out = Command::new("sh")
        .args(["-c", command])
        .current_dir(&dir.0)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    if !out.status.success() {
        eprintln!("{command}: {}", String::from_utf8_lossy(&out.stderr));
    }
    out.status.success()
}

/// A server with `dir`'s `cert.pem` and `key.pem`, and the blocking
/// client's result for `https://{host}:port/` when it trusts `cert.pem`.
fn fetch(dir: &TempDir, hosts: &[&str]) -> Vec<Result<Vec<u8>, http_net::blocking::Error>> {
    let tls = ServerTls::from_pem_files(dir.0.join("cert.pem"), dir.0.join("key.pem")).unwrap();
    let s = StdServer::start(http_net::blocking::Server::builder(), tls, false);
    let trust = ClientTls::from_pem_file(dir.0.join("cert.pem")).unwrap();
    let client = http_net::blocking::Client::builder()
        .connector(move |h: &str, p: u16| trust.connect(h, p))
        .build();
    hosts
        .iter()
        .map(|host| {
            let mut resp = client.get(&format!("https://{host}:{}/", s.addr.port()))?;
            resp.body_to_vec(64)
        })
        .collect()
}

/// The failure inside the client's error, and its text.
fn failure(r: &Result<Vec<u8>, http_net::blocking::Error>) -> (&TlsFailure, String) {
    let Err(http_net::blocking::Error::Io(e)) = r else {
        panic!("{r:?}")
    };
    let f = TlsFailure::of(e).unwrap_or_else(|| panic!("{e:?}"));
    (f, f.to_string())
}

/// The certificate the docs' command makes is served and trusted, under
/// both its names; the usual command's (a CA certificate, no
/// subjectAltName) is refused, and so is the same with `CA:FALSE` (the
/// name only in the CN), each with an error that says what to change.
#[cfg(unix)]
#[test]
fn the_documented_openssl_certificate_works_and_the_usual_one_says_why_not() {
    if !have("openssl") || !openssl_3() {
        return;
    }
    let dir = TempDir::new("openssl-good");
    assert!(openssl(&dir, &documented_command()));
    for got in fetch(&dir, &["localhost", "127.0.0.1"]) {
        assert_eq!(got.unwrap(), b"hello");
    }

    let usual = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
                 -keyout key.pem -out cert.pem -days 30 -subj /CN=localhost";
    let dir = TempDir::new("openssl-ca");
    assert!(openssl(&dir, usual));
    let got = fetch(&dir, &["localhost"]);
    let (f, text) = failure(&got[0]);
    assert!(matches!(f, TlsFailure::CaUsedAsEndEntity), "{f:?}");
    assert!(
        text.contains("basicConstraints=critical,CA:FALSE"),
        "{text}"
    );

    let dir = TempDir::new("openssl-cn");
    let cn_only = format!("{usual} -addext basicConstraints=critical,CA:FALSE");
    assert!(openssl(&dir, &cn_only));
    let got = fetch(&dir, &["localhost"]);
    let (f, text) = failure(&got[0]);
    assert!(matches!(f, TlsFailure::NameMismatch), "{f:?}");
    assert!(text.contains("subjectAltName=DNS:"), "{text}");
    assert!(text.contains("CN"), "{text}");
}
