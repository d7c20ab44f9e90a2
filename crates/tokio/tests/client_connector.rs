//! A connector's `connect_https` opens the connections of `https://` URLs
//! and `connect` those of `http://` ones: a stand-in "TLS" connector that
//! counts its calls (a plain TCP stream: the test is about which call a
//! scheme takes, not about TLS).

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[derive(Default)]
struct Counting {
    plain: AtomicUsize,
    https: AtomicUsize,
}

#[derive(Clone, Default)]
struct Stand(Arc<Counting>);

impl http_net_tokio::Connector for Stand {
    type Stream = TcpStream;
    async fn connect(&self, host: &str, port: u16) -> io::Result<TcpStream> {
        self.0.plain.fetch_add(1, Ordering::SeqCst);
        TcpStream::connect((host, port)).await
    }
    fn connect_https(
        &self,
        host: &str,
        port: u16,
    ) -> Option<impl std::future::Future<Output = io::Result<TcpStream>> + Send> {
        self.0.https.fetch_add(1, Ordering::SeqCst);
        let addr = (host.to_owned(), port);
        Some(async move { TcpStream::connect(addr).await })
    }
}

/// Answers every request on every connection with `200` and `ok`.
async fn origin() -> std::net::SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = l.accept().await {
            tokio::spawn(async move {
                let mut buf = vec![0u8; 4096];
                let mut got = Vec::new();
                while let Ok(n @ 1..) = s.read(&mut buf).await {
                    got.extend_from_slice(&buf[..n]);
                    while let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
                        got.drain(..i + 4);
                        let _ = s
                            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                            .await;
                    }
                }
            });
        }
    });
    addr
}

#[tokio::test]
async fn https_urls_take_connect_https_and_http_urls_connect() {
    let addr = origin().await;
    let stand = Stand::default();
    let client = http_net_tokio::Client::builder().connector(stand.clone());
    let mut r = client.get(&format!("https://{addr}/")).await.unwrap();
    assert_eq!(r.body_to_vec(10).await.unwrap(), b"ok");
    assert_eq!(stand.0.https.load(Ordering::SeqCst), 1);
    assert_eq!(stand.0.plain.load(Ordering::SeqCst), 0);
    let mut r = client.get(&format!("http://{addr}/")).await.unwrap();
    assert_eq!(r.body_to_vec(10).await.unwrap(), b"ok");
    // Another origin (the scheme differs): a connection of its own.
    assert_eq!(stand.0.plain.load(Ordering::SeqCst), 1);
    // Each origin's connection is reused.
    let mut r = client.get(&format!("https://{addr}/again")).await.unwrap();
    assert_eq!(r.body_to_vec(10).await.unwrap(), b"ok");
    assert_eq!(stand.0.https.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_plain_tcp_connector_refuses_https_urls() {
    let e = http_net_tokio::Client::new()
        .get("https://127.0.0.1:9/")
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            http_net_tokio::Error::Url(
                http_net_tokio::http_net_conn::UrlError::HttpsWithoutConnector
            )
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("https"), "{e}");
}
