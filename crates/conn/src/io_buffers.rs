//! The buffer commands [`ServerConn`] and [`ClientConn`] share, as one
//! trait, so that an adapter moves bytes for either with one function.

use crate::{ClientConn, ServerConn};

/// The buffer commands of a connection an adapter moves bytes for: read
/// into [`spare_mut`](IoBuffers::spare_mut) and
/// [`commit`](IoBuffers::commit), write [`output`](IoBuffers::output) and
/// [`consume_output`](IoBuffers::consume_output). Implemented by
/// [`ServerConn`] and [`ClientConn`] with their own methods of those names.
///
/// ```
/// use http_net_conn::driver::IoBuffers;
/// use http_net_conn::{Config, ServerConn};
///
/// fn read_into(conn: &mut dyn IoBuffers, bytes: &[u8]) -> usize {
///     let spare = conn.spare_mut();
///     let n = bytes.len().min(spare.len());
///     spare[..n].copy_from_slice(&bytes[..n]);
///     conn.commit(n);
///     n
/// }
/// let mut conn = ServerConn::new(Config::DEFAULT);
/// assert_eq!(read_into(&mut conn, b"GET / HTTP/1.1\r\n"), 16);
/// ```
pub trait IoBuffers {
    /// The bytes to send.
    fn output(&self) -> &[u8];
    /// `n` bytes of the output were sent.
    fn consume_output(&mut self, n: usize);
    /// Where the next read goes.
    fn spare_mut(&mut self) -> &mut [u8];
    /// `n` bytes were read into the spare room.
    fn commit(&mut self, n: usize);
    /// The peer closed its sending side.
    fn recv_eof(&mut self);
}

impl IoBuffers for ServerConn {
    fn output(&self) -> &[u8] {
        ServerConn::output(self)
    }
    fn consume_output(&mut self, n: usize) {
        ServerConn::consume_output(self, n);
    }
    fn spare_mut(&mut self) -> &mut [u8] {
        ServerConn::spare_mut(self)
    }
    fn commit(&mut self, n: usize) {
        ServerConn::commit(self, n);
    }
    fn recv_eof(&mut self) {
        ServerConn::recv_eof(self);
    }
}

impl IoBuffers for ClientConn {
    fn output(&self) -> &[u8] {
        ClientConn::output(self)
    }
    fn consume_output(&mut self, n: usize) {
        ClientConn::consume_output(self, n);
    }
    fn spare_mut(&mut self) -> &mut [u8] {
        ClientConn::spare_mut(self)
    }
    fn commit(&mut self, n: usize) {
        ClientConn::commit(self, n);
    }
    fn recv_eof(&mut self) {
        ClientConn::recv_eof(self);
    }
}
