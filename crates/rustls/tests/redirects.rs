//! Redirects across schemes over TLS, for both clients: the redirect
//! policy's rules for credentials (RFC 9110 §15.4: `Authorization` and
//! `Cookie` go along within the first request's origin only, and a scheme
//! is part of the origin, RFC 9110 §4.3.1), and its refusal of an
//! `https://` → `http://` hop unless allowed.
//!
//! Two std servers on 127.0.0.1, one over TLS and one plain; each answers
//! `/echo` with the credentials it was sent, and redirects `/to-plain`,
//! `/to-tls` and `/same` (a hop within its own origin, where the
//! credentials must be kept: the control that shows the echo sees them).

mod support;

use http_net_std::ClientOptions;
use http_net_std::ServerOptions;
use std::net::TcpListener;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use http_net_std::{Exchange, RedirectError, Redirects, Server, ServerHandle};
use support::*;

/// The caller's credentials on every first request.
const CREDENTIALS: &[(&[u8], &[u8])] =
    &[(b"Authorization", b"Bearer s3cret"), (b"Cookie", b"id=42")];

/// A std server (over TLS when `tls` is given) whose handler echoes the
/// credentials at `/echo` and redirects elsewhere to the URLs in `to`
/// (set once both servers are up).
struct Origin {
    port: u16,
    handle: ServerHandle,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Drop for Origin {
    fn drop(&mut self) {
        self.handle.shutdown();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Where the servers redirect: the plain server's and the TLS server's
/// base URLs.
#[derive(Default)]
struct Bases {
    plain: OnceLock<String>,
    tls: OnceLock<String>,
}

fn origin(tls: Option<http_net_rustls::ServerTls>, bases: Arc<Bases>) -> Origin {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let handler = move |ex: &mut Exchange<'_>| {
        let to = |base: &OnceLock<String>| format!("{}/echo", base.get().unwrap());
        let location = match ex.path() {
            b"/echo" => None,
            b"/to-plain" => Some(to(&bases.plain)),
            b"/to-tls" => Some(to(&bases.tls)),
            _ => Some("/echo".to_string()),
        };
        match location {
            Some(l) => ex.respond_with(302, &[(b"Location", l.as_bytes())], b""),
            None => {
                let show = |name: &[u8]| {
                    String::from_utf8_lossy(ex.field(name).unwrap_or(b"-")).into_owned()
                };
                let body = format!(
                    "authorization={};cookie={}",
                    show(b"Authorization"),
                    show(b"Cookie")
                );
                ex.respond_with(200, &[], body.as_bytes())
            }
        }
    };
    let b = Server::builder().shutdown_timeout(Duration::from_secs(2));
    let (handle, thread) = match tls {
        Some(tls) => {
            let s = b.listener_with_setup(l, tls);
            (s.handle(), std::thread::spawn(move || s.serve(handler)))
        }
        None => {
            let s = b.listener(l);
            (s.handle(), std::thread::spawn(move || s.serve(handler)))
        }
    };
    Origin {
        port,
        handle,
        thread: Some(thread),
    }
}

/// Both servers, their base URLs set; the certificate the clients trust.
fn servers(name: &str) -> (Origin, Origin, Cert, TempDir) {
    let dir = TempDir::new(name);
    let c = cert(&["localhost"], false);
    let bases = Arc::new(Bases::default());
    let secure = origin(Some(server_tls(&dir, &c)), Arc::clone(&bases));
    let plain = origin(None, Arc::clone(&bases));
    let _ = bases.tls.set(format!("https://localhost:{}", secure.port));
    let _ = bases.plain.set(format!("http://localhost:{}", plain.port));
    (secure, plain, c, dir)
}

const KEPT: &[u8] = b"authorization=Bearer s3cret;cookie=id=42";
const DROPPED: &[u8] = b"authorization=-;cookie=-";

#[test]
fn the_blocking_client_follows_the_credential_rules_across_schemes() {
    let (secure, plain, c, _dir) = servers("redirect-std");
    let client = |policy: Redirects| {
        let tls = client_tls(&c);
        http_net_std::Client::builder()
            .redirects(policy)
            .connector(move |h: &str, p: u16| tls.connect(h, p))
            .build()
    };
    let get = |client: &http_net_std::Client, url: String| {
        client
            .request(b"GET", &url, CREDENTIALS, http_net_std::RequestBody::Empty)
            .and_then(|mut r| {
                assert_eq!(r.status(), 200, "{url}");
                r.body_to_vec(1024)
            })
    };
    let follow = client(Redirects::follow(3));
    let https = format!("https://localhost:{}", secure.port);
    let http = format!("http://localhost:{}", plain.port);
    // Within one origin the credentials go along (the control) ...
    assert_eq!(get(&follow, format!("{https}/same")).unwrap(), KEPT);
    // ... and not from http to https (another scheme: another origin).
    assert_eq!(get(&follow, format!("{http}/to-tls")).unwrap(), DROPPED);
    // https to http is refused by default ...
    match get(&follow, format!("{https}/to-plain")) {
        Err(http_net_std::Error::Redirect(RedirectError::Downgrade)) => {}
        other => panic!("{other:?}"),
    }
    // ... and when allowed, the credentials stay behind.
    let down = client(Redirects::follow(3).with_https_to_http(true));
    assert_eq!(get(&down, format!("{https}/to-plain")).unwrap(), DROPPED);
}

#[cfg(feature = "tokio")]
#[test]
fn the_tokio_client_follows_the_credential_rules_across_schemes() {
    let (secure, plain, c, _dir) = servers("redirect-tokio");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = |policy: Redirects| {
            http_net_tokio::Client::builder()
                .redirects(policy)
                .connector(client_tls(&c))
        };
        async fn get<C: http_net_tokio::Connector>(
            client: &http_net_tokio::Client<C>,
            url: String,
        ) -> Result<Vec<u8>, http_net_tokio::Error> {
            let mut r = client
                .request(
                    b"GET",
                    &url,
                    CREDENTIALS,
                    http_net_tokio::RequestBody::Empty,
                )
                .await?;
            assert_eq!(r.status(), 200, "{url}");
            r.body_to_vec(1024).await
        }
        let follow = client(Redirects::follow(3));
        let https = format!("https://localhost:{}", secure.port);
        let http = format!("http://localhost:{}", plain.port);
        assert_eq!(get(&follow, format!("{https}/same")).await.unwrap(), KEPT);
        assert_eq!(
            get(&follow, format!("{http}/to-tls")).await.unwrap(),
            DROPPED
        );
        match get(&follow, format!("{https}/to-plain")).await {
            Err(http_net_tokio::Error::Redirect(RedirectError::Downgrade)) => {}
            other => panic!("{other:?}"),
        }
        let down = client(Redirects::follow(3).with_https_to_http(true));
        assert_eq!(
            get(&down, format!("{https}/to-plain")).await.unwrap(),
            DROPPED
        );
    });
}
