//! What `tls_server` and `tls_get` share: a rustls session over a TCP
//! socket as the std adapter's [`Transport`], either side.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::ops::{Deref, DerefMut};
use std::time::Duration;

use http_net::blocking::{Interrupter, Transport};
use rustls::{ConnectionCommon, SideData, StreamOwned};

/// A TLS stream: `Read`/`Write` through rustls, timeouts on the socket.
/// `C` is rustls's `ServerConnection` or `ClientConnection`.
pub struct Tls<C>(pub StreamOwned<C, TcpStream>);

impl<C, S> Read for Tls<C>
where
    C: DerefMut + Deref<Target = ConnectionCommon<S>>,
    S: SideData,
{
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl<C, S> Write for Tls<C>
where
    C: DerefMut + Deref<Target = ConnectionCommon<S>>,
    S: SideData,
{
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl<C, S> Transport for Tls<C>
where
    C: DerefMut + Deref<Target = ConnectionCommon<S>> + Send,
    S: SideData,
{
    fn set_read_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.0.sock.set_read_timeout(t)
    }
    fn set_write_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.0.sock.set_write_timeout(t)
    }
    fn shutdown_write(&mut self) -> io::Result<()> {
        self.0.conn.send_close_notify();
        self.0.flush()?;
        self.0.sock.shutdown(std::net::Shutdown::Write)
    }
    /// Lets the server's shutdown wake a read blocked on the socket (the
    /// client never asks for it).
    fn interrupter(&self) -> Option<Interrupter> {
        Interrupter::for_tcp(&self.0.sock).ok()
    }
}
