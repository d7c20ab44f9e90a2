//! Buffers a connection lends out while it is idle between requests, so an
//! idle keep-alive connection holds its state alone (about 1.2 KiB) instead of its
//! input buffer, its output buffer and its field storage.

use alloc::vec;
use alloc::vec::Vec;

use http_net_head::Field;

use crate::fields::{HeadSize, Input};
use crate::inbuf::InBuf;
use crate::writer::Output;
use crate::{Config, COPY_LIMIT};

/// The allocations of one connection: its input buffer (a whole head plus
/// [`Config::read_chunk`]), its output buffer, and its field storage for a
/// head and for trailers ([`max_fields`](http_net_head::HeadLimits::max_fields)
/// each). [`ServerConn::take_buffers`](crate::ServerConn::take_buffers)
/// hands them out while the connection is idle between requests;
/// [`ServerConn::restore_buffers`](crate::ServerConn::restore_buffers) takes
/// them back (from any connection: buffers carry no state, only
/// allocations).
///
/// A pool is a `Vec<Buffers>`: take on idle, restore before the next read.
///
/// ```
/// use http_net_conn::{Buffers, Config, Phase, ServerConn, ServerEvent};
///
/// let mut pool: Vec<Buffers> = Vec::new();
/// let mut conn = ServerConn::new(Config::DEFAULT);
/// let input = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
/// assert_eq!(conn.recv(input), input.len());
/// assert!(matches!(conn.poll_event(), Ok(ServerEvent::Request(_))));
/// assert!(conn.take_buffers().is_none(), "a request is in progress");
/// conn.responder().respond(&http_net_conn::PreparedResponse::new(204, &[]).unwrap(), b"").unwrap();
/// let n = conn.output().len();
/// conn.consume_output(n);
/// assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
///
/// // Idle: lend the buffers to the pool while waiting for the peer.
/// pool.push(conn.take_buffers().unwrap());
/// assert!(conn.spare_mut().is_empty());
/// assert_eq!(conn.phase(), Phase::Idle);
///
/// // The socket is readable: take buffers back (or fresh ones), then read.
/// let buffers = pool.pop().unwrap_or_else(|| Buffers::new(conn.config()));
/// conn.restore_buffers(buffers).unwrap();
/// assert!(!conn.spare_mut().is_empty());
/// ```
#[derive(Debug)]
pub struct Buffers {
    pub(crate) input: Vec<u8>,
    pub(crate) output: Vec<u8>,
    pub(crate) fields: Vec<Field>,
    pub(crate) trailers: Vec<Field>,
}

impl Buffers {
    /// Buffers sized for `config`, as a new connection allocates them (to
    /// fill a pool ahead of time, or when it is empty).
    pub fn new(config: &Config) -> Buffers {
        let head = config.head_limits();
        Buffers {
            input: vec![0; InBuf::len_for(head.max_head_bytes(), config.read_chunk())],
            output: Vec::with_capacity(2 * COPY_LIMIT),
            fields: vec![Field::default(); head.max_fields()],
            trailers: vec![Field::default(); head.max_fields()],
        }
    }

    /// The bytes a new connection's buffers for `config` hold allocated
    /// ([`allocated_bytes`](Buffers::allocated_bytes) of
    /// [`new`](Buffers::new)'s), worked out without allocating.
    pub fn fresh_bytes(config: &Config) -> usize {
        let head = config.head_limits();
        allocated(
            InBuf::len_for(head.max_head_bytes(), config.read_chunk()),
            2 * COPY_LIMIT,
            2 * head.max_fields(),
        )
    }

    /// The bytes these buffers hold allocated (capacities).
    pub fn allocated_bytes(&self) -> usize {
        allocated(
            self.input.capacity(),
            self.output.capacity(),
            self.fields.capacity() + self.trailers.capacity(),
        )
    }
}

/// The bytes a connection's buffers hold allocated: input and output bytes,
/// and field slots.
fn allocated(input: usize, output: usize, field_slots: usize) -> usize {
    input + output + field_slots * core::mem::size_of::<Field>()
}

/// [`Buffers::allocated_bytes`] of the buffers a connection holds (none of
/// them while they are lent).
pub(crate) fn held_bytes<P, H>(input: &Input<P, H>, out: &Output) -> usize {
    allocated(
        input.buf.capacity(),
        out.capacity(),
        input.fields.capacity() + input.trailers.capacity(),
    )
}

/// Lends a connection's buffers if it holds them, nothing is unread and no
/// output waits (the caller checks its own states first).
pub(crate) fn lend<P, H: HeadSize>(input: &mut Input<P, H>, out: &mut Output) -> Option<Buffers> {
    if input.buf.is_lent() || input.buf.has_unread() || !out.is_empty() {
        return None;
    }
    let (input, fields, trailers) = input.lend();
    let output = out.swap_buf(Vec::new());
    Some(Buffers {
        input,
        output,
        fields,
        trailers,
    })
}

/// Takes lent buffers back, resized for `config`; output queued meanwhile is
/// kept. `Err` gives them back when the connection holds its own.
pub(crate) fn restore<P, H: HeadSize>(
    input: &mut Input<P, H>,
    out: &mut Output,
    config: &Config,
    buffers: Buffers,
) -> Result<(), Buffers> {
    if !input.buf.is_lent() {
        return Err(buffers);
    }
    let Buffers {
        input: bytes,
        mut output,
        fields,
        trailers,
    } = buffers;
    input.restore(config, bytes, fields, trailers);
    output.reserve(2 * COPY_LIMIT);
    drop(out.swap_buf(output));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Placement, PreparedResponse, ServerConn, ServerEvent};

    fn serve(conn: &mut ServerConn) {
        assert_eq!(conn.recv(b"POST /secret HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Token: t0p\r\n\r\n"), b"POST /secret HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Token: t0p\r\n\r\n".len());
        while !matches!(conn.poll_event(), Ok(ServerEvent::End(_))) {}
        let ok = PreparedResponse::new(200, &[(b"X-Answer", b"s3cret")]).unwrap();
        assert_eq!(
            conn.responder().respond(&ok, b"private").unwrap(),
            Placement::Queued
        );
        let n = conn.output().len();
        conn.consume_output(n);
        assert!(matches!(conn.poll_event(), Ok(ServerEvent::NeedInput)));
    }

    #[test]
    fn lent_buffers_are_zeroed_when_wiping() {
        let mut conn = ServerConn::new(Config::DEFAULT);
        conn.set_wipe(true);
        serve(&mut conn);
        let b = conn.take_buffers().unwrap();
        assert!(b.input.iter().all(|&x| x == 0));
        assert!(b.output.is_empty());
        assert!(b
            .fields
            .iter()
            .chain(&b.trailers)
            .all(|f| *f == Field::default()));
        // Without wiping the bytes stay (only the allocation is lent).
        let mut conn = ServerConn::new(Config::DEFAULT);
        serve(&mut conn);
        let b = conn.take_buffers().unwrap();
        assert!(b.input.windows(7).any(|w| w == b"/secret"));
        assert!(b.fields.iter().any(|f| *f != Field::default()));
    }

    /// `allocated_bytes` counts what the connection holds: a new one's
    /// buffers, more once a peer that reads nothing has grown the output
    /// past its high water, and still more after `reset` (which keeps the
    /// allocation), so an adapter can tell a grown connection from a new one.
    #[test]
    fn allocated_bytes_follow_the_output_buffer() {
        let config = Config::DEFAULT.with_output_high_water(16 * 1024);
        let mut conn = ServerConn::new(config);
        let fresh = conn.allocated_bytes();
        assert_eq!(fresh, Buffers::new(&config).allocated_bytes());
        // The peer pipelines and reads nothing, until the connection pauses
        // at the high water.
        let ok = PreparedResponse::new(200, &[]).unwrap();
        let body = [b'x'; 1000];
        let get = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        'peer: for _ in 0..100 {
            assert_eq!(conn.recv(get), get.len());
            loop {
                match conn.poll_event() {
                    Ok(ServerEvent::Request(_)) => {
                        assert_eq!(conn.responder().respond(&ok, &body), Ok(Placement::Queued));
                    }
                    Ok(ServerEvent::NeedInput) => break,
                    Ok(ServerEvent::Paused) => break 'peer,
                    other => panic!("{other:?}"),
                }
            }
        }
        assert!(conn.output().len() > 16 * 1024);
        let grown = conn.allocated_bytes();
        assert!(grown > fresh, "{grown} > {fresh}");
        conn.reset();
        assert_eq!(conn.allocated_bytes(), grown);
    }
}
