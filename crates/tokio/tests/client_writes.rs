//! A request whose head and small body the caller gives at once leaves in
//! one write.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http_net_tokio::{Client, Connector};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, DuplexStream, ReadBuf};

/// A pipe that counts the writes that took bytes.
struct Counted(DuplexStream, Arc<AtomicUsize>);

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.0).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
        r
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

/// Connections over pipes; the peer's end is left in the slot.
struct Pipes(Arc<AtomicUsize>, Slot);

type Slot = Arc<std::sync::Mutex<Option<DuplexStream>>>;

impl Connector for Pipes {
    type Stream = Counted;
    async fn connect(&self, _host: &str, _port: u16) -> io::Result<Counted> {
        let (ours, theirs) = tokio::io::duplex(64 * 1024);
        *self.1.lock().unwrap() = Some(theirs);
        Ok(Counted(ours, Arc::clone(&self.0)))
    }
}

#[test]
fn a_post_with_a_small_body_leaves_in_one_write() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let writes = Arc::new(AtomicUsize::new(0));
        let slot: Slot = Arc::default();
        let client = Client::builder().connector(Pipes(Arc::clone(&writes), Arc::clone(&slot)));
        let call = client.send_to("peer", 80, b"POST", b"/in", &[], b"hello");
        // The peer: the whole request, then the answer.
        let peer = async {
            let mut theirs = loop {
                if let Some(s) = slot.lock().unwrap().take() {
                    break s;
                }
                tokio::time::sleep(Duration::from_millis(1)).await;
            };
            let mut got = Vec::new();
            let mut buf = [0u8; 1024];
            while !got.ends_with(b"hello") {
                let n = theirs.read(&mut buf).await.unwrap();
                assert!(n > 0);
                got.extend_from_slice(&buf[..n]);
            }
            theirs
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                .await
                .unwrap();
            theirs
        };
        let (resp, _theirs) = tokio::join!(call, peer);
        let mut resp = resp.unwrap();
        assert_eq!(resp.body_to_vec(16).await.unwrap(), b"ok");
        assert_eq!(
            writes.load(Ordering::Relaxed),
            1,
            "writes for the head and the body"
        );
    });
}
