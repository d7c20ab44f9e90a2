//! TLS for `http-net-tokio` (feature `tokio`): [`ServerTls`] as the async
//! server's setup step, [`ClientTls`] as the async client's
//! [`Connector`], over tokio-rustls.
//!
//! ```no_run
//! use http_net_rustls::{ClientTls, ServerTls};
//! use http_net_tokio::{Client, Exchange, Handler, HandlerError, Server};
//!
//! struct Hi;
//! impl Handler for Hi {
//!     async fn handle(&self, ex: &mut Exchange<'_>) -> Result<(), HandlerError> {
//!         Ok(ex.respond_with(200, &[], b"hi").await?)
//!     }
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let tls = ServerTls::from_pem_files("cert.pem", "key.pem")?;
//! let listener = ::tokio::net::TcpListener::bind("127.0.0.1:8443").await?;
//! let server = Server::builder().listener_with_setup(listener, tls);
//! tokio::spawn(server.serve(Hi));
//!
//! let client = Client::builder().connector(ClientTls::from_pem_file("ca.pem")?);
//! let mut resp = client.get("https://localhost:8443/").await?;
//! assert_eq!(resp.body_to_vec(64).await?, b"hi");
//! # Ok(()) }
//! ```

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use ::tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use ::tokio::net::TcpStream;
use http_net_tokio::{Connector, TcpConnector};

use crate::client::ClientTls;
use crate::failure::{classify_io, TlsFailure};
use crate::server::ServerTls;

/// A TLS stream over a tokio `TcpStream`, either side: tokio-rustls'
/// stream, which sends `close_notify` when shut down, and here also when
/// dropped (at most one non-blocking write).
#[derive(Debug)]
pub struct TlsStream(tokio_rustls::TlsStream<TcpStream>);

impl TlsStream {
    /// tokio-rustls' stream (its session, its socket).
    pub fn inner(&self) -> &tokio_rustls::TlsStream<TcpStream> {
        &self.0
    }
}

/// `std::io::Write` over a tokio socket without waiting: what does not go
/// at once does not go.
struct TryWrite<'a>(&'a TcpStream);

impl io::Write for TryWrite<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.try_write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for TlsStream {
    /// `close_notify` (RFC 8446 §6.1) unless sent already.
    fn drop(&mut self) {
        fn close<C, D>((sock, conn): (&mut TcpStream, &mut C))
        where
            C: std::ops::DerefMut<Target = rustls::ConnectionCommon<D>>,
        {
            if conn.is_handshaking() {
                return;
            }
            conn.send_close_notify();
            while conn.wants_write() && conn.write_tls(&mut TryWrite(sock)).is_ok_and(|n| n > 0) {}
        }
        match &mut self.0 {
            tokio_rustls::TlsStream::Server(s) => close(s.get_mut()),
            tokio_rustls::TlsStream::Client(s) => close(s.get_mut()),
        }
    }
}

impl AsyncRead for TlsStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for TlsStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.0.is_write_vectored()
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

impl http_net_tokio::Setup<TcpStream> for ServerTls {
    type Stream = TlsStream;
    /// The handshake (the server bounds its time); a failure is a
    /// [`TlsFailure`] inside the I/O error.
    async fn setup(&self, raw: TcpStream) -> io::Result<TlsStream> {
        let _ = raw.set_nodelay(true);
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::clone(self.config()));
        Ok(TlsStream(
            acceptor.accept(raw).await.map_err(classify_io)?.into(),
        ))
    }
}

/// What the async client's connector opens: plain TCP for `http://`, TLS
/// for `https://`.
#[derive(Debug)]
pub enum MaybeTls {
    /// An `http://` connection.
    Plain(TcpStream),
    /// An `https://` connection (boxed: a TLS session is large).
    Tls(Box<TlsStream>),
}

impl AsyncRead for MaybeTls {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_read(cx, buf),
            MaybeTls::Tls(s) => Pin::new(&mut **s).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for MaybeTls {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_write(cx, buf),
            MaybeTls::Tls(s) => Pin::new(&mut **s).poll_write(cx, buf),
        }
    }
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            MaybeTls::Tls(s) => Pin::new(&mut **s).poll_write_vectored(cx, bufs),
        }
    }
    fn is_write_vectored(&self) -> bool {
        match self {
            MaybeTls::Plain(s) => s.is_write_vectored(),
            MaybeTls::Tls(s) => s.is_write_vectored(),
        }
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_flush(cx),
            MaybeTls::Tls(s) => Pin::new(&mut **s).poll_flush(cx),
        }
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            MaybeTls::Plain(s) => Pin::new(s).poll_shutdown(cx),
            MaybeTls::Tls(s) => Pin::new(&mut **s).poll_shutdown(cx),
        }
    }
}

impl ClientTls {
    /// A TLS connection to `host` and `port` over tokio, within the
    /// handshake deadline (connecting included).
    pub async fn connect_async(&self, host: &str, port: u16) -> io::Result<TlsStream> {
        let name = ClientTls::server_name(host)?;
        let connector = tokio_rustls::TlsConnector::from(Arc::clone(self.config()));
        let work = async {
            let tcp = TcpConnector.connect(host, port).await?;
            connector.connect(name, tcp).await.map_err(classify_io)
        };
        match ::tokio::time::timeout(self.handshake_timeout, work).await {
            Ok(r) => Ok(TlsStream(r?.into())),
            Err(_) => Err(TlsFailure::HandshakeTimeout.into_io()),
        }
    }
}

impl Connector for ClientTls {
    type Stream = MaybeTls;
    async fn connect(&self, host: &str, port: u16) -> io::Result<MaybeTls> {
        TcpConnector.connect(host, port).await.map(MaybeTls::Plain)
    }
    fn connect_https(
        &self,
        host: &str,
        port: u16,
    ) -> Option<impl std::future::Future<Output = io::Result<MaybeTls>> + Send> {
        Some(async move {
            let tls = self.connect_async(host, port).await?;
            Ok(MaybeTls::Tls(Box::new(tls)))
        })
    }
}
