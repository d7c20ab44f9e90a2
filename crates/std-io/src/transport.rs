//! What the adapter needs from a byte stream and a listener, so that TLS (or
//! any other stream) can be plugged in.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

/// A byte stream the server and client can run HTTP/1.1 over: `Read + Write`
/// plus the timeout and half-close controls the adapter uses.
///
/// `TcpStream` implements it. For HTTPS, the `http-net-rustls` crate's
/// `TlsStream` implements it (and its listener's setup step, its client
/// connector); for another TLS crate, wrap its stream in a type of your own
/// that delegates `Read` and `Write` to the TLS stream and the timeouts to
/// the TCP socket under it, and answer [`input_ready`](Transport::input_ready)
/// from the TLS session's state (never a peek at the socket: a session
/// ticket makes it readable with nothing in it for HTTP), so that the
/// client sees an early response while it uploads:
///
/// ```
/// # mod http_net { pub mod blocking { pub use http_net_std::*; } pub use http_net_std::http_net_conn as conn; }
/// use std::io::{self, Read, Write};
/// use std::net::TcpStream;
/// use std::time::Duration;
/// use http_net::blocking::{Interrupter, Transport};
///
/// /// Stands for a TLS crate's stream type that owns a `TcpStream`.
/// struct Tls { tcp: TcpStream /* , session: ... */ }
/// impl Read for Tls {
///     fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> { self.tcp.read(buf) /* decrypt */ }
/// }
/// impl Write for Tls {
///     fn write(&mut self, buf: &[u8]) -> io::Result<usize> { self.tcp.write(buf) /* encrypt */ }
///     fn flush(&mut self) -> io::Result<()> { self.tcp.flush() }
/// }
/// impl Transport for Tls {
///     fn set_read_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
///         self.tcp.set_read_timeout(t)
///     }
///     fn set_write_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
///         self.tcp.set_write_timeout(t)
///     }
///     fn shutdown_write(&mut self) -> io::Result<()> {
///         // send close_notify first, then:
///         self.tcp.shutdown(std::net::Shutdown::Write)
///     }
///     fn interrupter(&self) -> Option<Interrupter> {
///         Interrupter::for_tcp(&self.tcp).ok()
///     }
/// }
/// ```
pub trait Transport: Read + Write + Send {
    /// Bounds each following read (`None`: no bound). A read that times out
    /// fails with `WouldBlock` or `TimedOut`.
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()>;
    /// Bounds each following write.
    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()>;
    /// Closes the sending direction (after an error response, so that the
    /// peer reads the response and an end of stream rather than a reset).
    fn shutdown_write(&mut self) -> io::Result<()>;
    /// A handle another thread can use to end a blocked read (graceful
    /// shutdown closes idle keep-alive connections with it, and the
    /// connection limit evicts the connection making least progress with
    /// it). Without one, an idle connection ends when its idle timeout
    /// expires. (A plain `TcpStream` served by [`Server`](crate::Server) is
    /// shared with the server's slot instead: one descriptor, not two.)
    fn interrupter(&self) -> Option<Interrupter> {
        None
    }
    /// Switches reads and writes to non-blocking mode (`WouldBlock` instead
    /// of waiting). The server answers connections beyond its limit this way,
    /// many at once, without waiting on any of them. The default reports
    /// `Unsupported`; such streams are answered with short timeouts instead.
    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        let _ = nonblocking;
        Err(io::ErrorKind::Unsupported.into())
    }
    /// Whether input (bytes or the end of the stream) waits to be read,
    /// asked without blocking: `Some(true)` or `Some(false)`, or `None` when
    /// the stream cannot tell. While it writes a request body, the client
    /// asks this between writes, to see a response the server sent early;
    /// with `None` it probes with a short timed read now and then instead.
    fn input_ready(&mut self) -> io::Result<Option<bool>> {
        Ok(None)
    }
}

impl Transport for TcpStream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        TcpStream::set_read_timeout(self, timeout)
    }
    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        TcpStream::set_write_timeout(self, timeout)
    }
    fn shutdown_write(&mut self) -> io::Result<()> {
        self.shutdown(Shutdown::Write)
    }
    fn interrupter(&self) -> Option<Interrupter> {
        Interrupter::for_tcp(self).ok()
    }
    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        TcpStream::set_nonblocking(self, nonblocking)
    }
    fn input_ready(&mut self) -> io::Result<Option<bool>> {
        self.set_nonblocking(true)?;
        let mut b = [0u8; 1];
        let r = self.peek(&mut b);
        self.set_nonblocking(false)?;
        match r {
            Ok(_) => Ok(Some(true)),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(Some(false)),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(Some(true)),
            Err(e) => Err(e),
        }
    }
}

#[cfg(unix)]
impl Transport for std::os::unix::net::UnixStream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        std::os::unix::net::UnixStream::set_read_timeout(self, timeout)
    }
    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        std::os::unix::net::UnixStream::set_write_timeout(self, timeout)
    }
    fn shutdown_write(&mut self) -> io::Result<()> {
        self.shutdown(Shutdown::Write)
    }
    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        std::os::unix::net::UnixStream::set_nonblocking(self, nonblocking)
    }
}

/// Ends blocked reads of a connection from another thread (a second handle on
/// the same socket).
#[derive(Debug)]
pub struct Interrupter {
    tcp: TcpStream,
}

impl Interrupter {
    /// A handle on the same socket as `stream` (it duplicates the descriptor).
    pub fn for_tcp(stream: &TcpStream) -> io::Result<Interrupter> {
        Ok(Interrupter {
            tcp: stream.try_clone()?,
        })
    }
    /// Shuts the socket down in both directions: a blocked read returns end
    /// of stream.
    pub fn interrupt(&self) {
        let _ = self.tcp.shutdown(Shutdown::Both);
    }
    /// Shuts the receiving direction down: a blocked read returns end of
    /// stream, and the connection can still send (a `408`, say).
    pub(crate) fn interrupt_read(&self) {
        let _ = self.tcp.shutdown(Shutdown::Read);
    }
}

/// Where a server takes its connections from. `TcpListener` implements it.
/// A stream that needs a setup step before HTTP (a TLS handshake) is served
/// with [`ServerBuilder::listener_with_setup`](crate::ServerBuilder::listener_with_setup)
/// and a [`Setup`](crate::Setup): the step then runs on the connection's
/// thread inside an admitted slot, never on the accept loop.
pub trait Listener: Send {
    /// The stream type of accepted connections.
    type Stream: Transport + 'static;
    /// Waits for the next connection.
    fn accept(&self) -> io::Result<(Self::Stream, Option<SocketAddr>)>;
    /// The local address: a graceful stop connects to it once to wake the
    /// accept loop.
    fn local_addr(&self) -> io::Result<SocketAddr>;
}

impl Listener for TcpListener {
    type Stream = TcpStream;
    fn accept(&self) -> io::Result<(TcpStream, Option<SocketAddr>)> {
        let (s, addr) = TcpListener::accept(self)?;
        // Responses are written whole: no need to wait for more (Nagle).
        let _ = s.set_nodelay(true);
        Ok((s, Some(addr)))
    }
    fn local_addr(&self) -> io::Result<SocketAddr> {
        TcpListener::local_addr(self)
    }
}
