//! The blocking TLS stream: a rustls session over a `TcpStream`, as the
//! std adapter's [`Transport`], either side.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use http_net_std::{Interrupter, Transport};
use rustls::Connection;

use crate::failure::{classify_io, tls_error, TlsFailure};

/// A TLS stream over TCP for the blocking server and client: `Read` and
/// `Write` through rustls, the timeouts and the interrupter on the socket.
///
/// What it adds to rustls' own `StreamOwned`:
/// - a read never writes first: what rustls queued (a key update's answer,
///   an alert) goes out when it can, and a write that fails (the peer
///   answered early and closed) does not hide the bytes the peer sent
///   before;
/// - [`Transport::input_ready`] answers from rustls' state: it reads what
///   the socket has without blocking, processes the records, and says
///   ready only for plaintext or a close (a session ticket or a key update
///   makes the socket readable with nothing in it for HTTP);
/// - `close_notify` is sent before the sending side is shut, and when the
///   stream is dropped (at most one short write).
#[derive(Debug)]
pub struct TlsStream {
    conn: Connection,
    sock: TcpStream,
    /// The peer closed the TCP connection (with or without `close_notify`).
    eof: bool,
    /// `close_notify` was queued.
    closed: bool,
}

impl TlsStream {
    /// A stream over `sock` for a session whose handshake is done (or is
    /// driven by the first reads and writes).
    pub fn new(conn: impl Into<Connection>, sock: TcpStream) -> TlsStream {
        TlsStream {
            conn: conn.into(),
            sock,
            eof: false,
            closed: false,
        }
    }

    /// The rustls session (its negotiated protocol, its peer's
    /// certificates).
    pub fn session(&self) -> &Connection {
        &self.conn
    }

    /// The TCP socket under it.
    pub fn tcp(&self) -> &TcpStream {
        &self.sock
    }

    /// A stream over `sock` (`TCP_NODELAY` set) for `conn`, its handshake
    /// run to its end by `until`: each read and write bounded by the time
    /// left; past it, [`TlsFailure::HandshakeTimeout`].
    pub(crate) fn handshake(
        conn: impl Into<Connection>,
        sock: TcpStream,
        until: Instant,
    ) -> io::Result<TlsStream> {
        let _ = sock.set_nodelay(true);
        let mut s = TlsStream::new(conn, sock);
        while s.conn.is_handshaking() {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(TlsFailure::HandshakeTimeout.into_io());
            }
            s.sock.set_read_timeout(Some(left))?;
            s.sock.set_write_timeout(Some(left))?;
            let Err(e) = s.conn.complete_io(&mut s.sock) else {
                continue;
            };
            if let io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut = e.kind() {
                return Err(TlsFailure::HandshakeTimeout.into_io());
            }
            // The alert rustls queued for its error, if it can go.
            let _ = s.send_queued();
            return Err(classify_io(e));
        }
        s.sock.set_read_timeout(None)?;
        s.sock.set_write_timeout(None)?;
        Ok(s)
    }

    /// Writes what rustls queued, until it is all out or the socket fails.
    fn send_queued(&mut self) -> io::Result<()> {
        while self.conn.wants_write() {
            match self.conn.write_tls(&mut self.sock) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads what the socket has into rustls (one read) and processes it.
    fn read_records(&mut self) -> io::Result<()> {
        if self.conn.read_tls(&mut self.sock)? == 0 {
            self.eof = true;
        } else if let Err(e) = self.conn.process_new_packets() {
            let _ = self.send_queued();
            return Err(tls_error(e));
        }
        Ok(())
    }

    /// Whether rustls holds neither plaintext nor a close, and would take
    /// more records to tell (a record that fails to process: no, the next
    /// read reports it).
    fn wants_records(&mut self) -> bool {
        let state = match self.conn.process_new_packets() {
            Ok(state) => state,
            Err(_) => return false,
        };
        state.plaintext_bytes_to_read() == 0 && !state.peer_has_closed() && self.conn.wants_read()
    }
}

impl Read for TlsStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match self.conn.reader().read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                // The peer closed without `close_notify` (RFC 8446 §6.1):
                // what came may be cut short. Only a read past the end of
                // what HTTP framed meets it: a body read to a close (a
                // close-delimited one) fails here, while a length-delimited
                // or chunked body that arrived whole was read to its end
                // before, and an idle pooled connection is only asked
                // `input_ready` (a close: not reused).
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    return Err(TlsFailure::Truncated.into_io())
                }
                Err(e) => return Err(e),
            }
            if self.eof {
                return Ok(0);
            }
            // Queued records (a key update's answer) leave when they can; a
            // failure to send them must not hide what the peer sent.
            let _ = self.send_queued();
            self.read_records()?;
        }
    }
}

impl Write for TlsStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Earlier records first: their failure (a timeout, a closed peer)
        // is this write's, and nothing of `buf` was taken.
        self.send_queued()?;
        let n = self.conn.writer().write(buf)?;
        // Sent now if it can be; otherwise by the next write or flush.
        match self.send_queued() {
            Err(e) if n == 0 => Err(e),
            _ => Ok(n),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.conn.writer().flush()?;
        self.send_queued()?;
        self.sock.flush()
    }
}

impl Transport for TlsStream {
    fn set_read_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.sock.set_read_timeout(t)
    }
    fn set_write_timeout(&mut self, t: Option<Duration>) -> io::Result<()> {
        self.sock.set_write_timeout(t)
    }
    fn shutdown_write(&mut self) -> io::Result<()> {
        if !self.closed {
            self.closed = true;
            self.conn.send_close_notify();
        }
        self.send_queued()?;
        self.sock.shutdown(Shutdown::Write)
    }
    fn interrupter(&self) -> Option<Interrupter> {
        Interrupter::for_tcp(&self.sock).ok()
    }
    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        self.sock.set_nonblocking(nonblocking)
    }
    /// From rustls' state, never a peek at the socket: plaintext already
    /// decrypted, or a close, is ready; otherwise what the socket has is
    /// read without blocking and processed, and the answer is whether that
    /// gave plaintext or a close (a session ticket or a key update gives
    /// neither). A record that fails to process is ready (the next read
    /// reports it).
    fn input_ready(&mut self) -> io::Result<Option<bool>> {
        let _ = self.send_queued();
        if self.eof || !self.conn.wants_read() {
            // A close seen, or plaintext waiting (rustls wants no more
            // records until it is read: its plaintext buffer is full).
            return Ok(Some(true));
        }
        self.sock.set_nonblocking(true)?;
        let ready = loop {
            if !self.wants_records() {
                break Ok(true);
            }
            match self.read_records() {
                Ok(()) if self.eof => break Ok(true),
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break Ok(false),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if TlsFailure::of(&e).is_some() => break Ok(true),
                Err(e) => break Err(e),
            }
        };
        self.sock.set_nonblocking(false)?;
        ready.map(Some)
    }
}

impl Drop for TlsStream {
    /// `close_notify` (RFC 8446 §6.1), unless sent already: at most one
    /// short write, never a wait on the peer.
    fn drop(&mut self) {
        if self.closed || self.conn.is_handshaking() {
            return;
        }
        self.conn.send_close_notify();
        if self.sock.set_nonblocking(true).is_ok() {
            let _ = self.send_queued();
        }
    }
}
