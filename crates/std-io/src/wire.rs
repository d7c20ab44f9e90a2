//! Moving bytes between a [`Transport`] and a connection's buffers.

use std::io::{self, IoSlice};
use std::time::Duration;

use http_net_conn::{ClientConn, ServerConn};

use crate::error::{is_timeout, Error, Stage};
use crate::transport::Transport;

/// The buffer methods the server and client connections share.
pub(crate) trait Buffers {
    fn output(&self) -> &[u8];
    fn consume_output(&mut self, n: usize);
    fn spare_mut(&mut self) -> &mut [u8];
    fn commit(&mut self, n: usize);
    fn recv_eof(&mut self);
}

macro_rules! buffers {
    ($t:ty) => {
        impl Buffers for $t {
            fn output(&self) -> &[u8] {
                <$t>::output(self)
            }
            fn consume_output(&mut self, n: usize) {
                <$t>::consume_output(self, n)
            }
            fn spare_mut(&mut self) -> &mut [u8] {
                <$t>::spare_mut(self)
            }
            fn commit(&mut self, n: usize) {
                <$t>::commit(self, n)
            }
            fn recv_eof(&mut self) {
                <$t>::recv_eof(self)
            }
        }
    };
}
buffers!(ServerConn);
buffers!(ClientConn);

fn write_err(e: io::Error) -> Error {
    if is_timeout(&e) {
        Error::Timeout(Stage::Write)
    } else {
        Error::Io(e)
    }
}

/// Writes the connection's whole output.
pub(crate) fn flush<C: Buffers + ?Sized>(
    stream: &mut dyn Transport,
    conn: &mut C,
) -> Result<(), Error> {
    loop {
        let out = conn.output();
        if out.is_empty() {
            return Ok(());
        }
        match stream.write(out) {
            Ok(0) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
            Ok(n) => conn.consume_output(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(write_err(e)),
        }
    }
}

/// Writes the connection's whole output and then `body`, with vectored
/// writes: the body is never copied.
pub(crate) fn flush_with<C: Buffers + ?Sized>(
    stream: &mut dyn Transport,
    conn: &mut C,
    mut body: &[u8],
) -> Result<(), Error> {
    loop {
        let out_len = conn.output().len();
        if out_len == 0 {
            break;
        }
        let r = stream.write_vectored(&[IoSlice::new(conn.output()), IoSlice::new(body)]);
        match r {
            Ok(0) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
            Ok(n) if n <= out_len => conn.consume_output(n),
            Ok(n) => {
                conn.consume_output(out_len);
                body = &body[(n - out_len).min(body.len())..];
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(write_err(e)),
        }
    }
    while !body.is_empty() {
        match stream.write(body) {
            Ok(0) => return Err(Error::Io(io::ErrorKind::WriteZero.into())),
            Ok(n) => body = &body[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(write_err(e)),
        }
    }
    Ok(())
}

/// The outcome of one read into a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filled {
    /// This many bytes were committed.
    Bytes(usize),
    /// The peer closed its side; `recv_eof` was called.
    Eof,
    /// The connection takes no input now.
    Full,
}

/// Reads once from the stream into the connection, with `timeout` (the
/// caller caches the timeout last set in `current`).
pub(crate) fn fill<C: Buffers + ?Sized>(
    stream: &mut dyn Transport,
    conn: &mut C,
    timeout: Option<Duration>,
    current: &mut Option<Option<Duration>>,
    stage: Stage,
) -> Result<Filled, Error> {
    set_read_timeout(stream, timeout, current)?;
    loop {
        let spare = conn.spare_mut();
        if spare.is_empty() {
            return Ok(Filled::Full);
        }
        match stream.read(spare) {
            Ok(0) => {
                conn.recv_eof();
                return Ok(Filled::Eof);
            }
            Ok(n) => {
                conn.commit(n);
                return Ok(Filled::Bytes(n));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if is_timeout(&e) => return Err(Error::Timeout(stage)),
            Err(e) => return Err(Error::Io(e)),
        }
    }
}

/// Sets the read timeout unless it is already the one set.
pub(crate) fn set_read_timeout(
    stream: &mut dyn Transport,
    timeout: Option<Duration>,
    current: &mut Option<Option<Duration>>,
) -> Result<(), Error> {
    // A zero duration means "no timeout" to the OS: use the smallest bound.
    let timeout = timeout.map(|t| t.max(Duration::from_millis(1)));
    if *current != Some(timeout) {
        stream.set_read_timeout(timeout).map_err(Error::Io)?;
        *current = Some(timeout);
    }
    Ok(())
}

/// After an error response (or a close the peer may not expect): stop
/// sending, then read and discard the peer's input until it closes, `limit`
/// bytes were read, or `time` passes, so the peer gets the response and not
/// a reset.
pub(crate) fn linger(stream: &mut dyn Transport, time: Duration, limit: u64) {
    if stream.shutdown_write().is_err() || time.is_zero() {
        return;
    }
    let deadline = std::time::Instant::now() + time;
    let mut scratch = [0u8; 4096];
    let mut total = 0u64;
    let mut current = None;
    while total < limit {
        let now = std::time::Instant::now();
        if now >= deadline {
            return;
        }
        if set_read_timeout(stream, Some(deadline - now), &mut current).is_err() {
            return;
        }
        match stream.read(&mut scratch) {
            Ok(0) => return,
            Ok(n) => total += n as u64,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}
