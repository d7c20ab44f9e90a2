//! The buffered-body reader of the server's [`Body`](crate::Body) (the
//! client's [`ClientResponse`](crate::ClientResponse) reads with the core's
//! `ClientConn::body_into`): it pulls body pieces from a connection, reads
//! more input when the connection needs it, and keeps what did not fit the
//! caller's buffer for the next read.

use http_net_conn::driver::Leftover;

use crate::error::Error;

/// The next move of a connection's body, as a [`BodySource`] reports it.
pub(crate) enum Step<'a> {
    /// Body bytes (possibly none).
    Data(&'a [u8]),
    /// The connection needs input: [`BodySource::fill`].
    NeedInput,
    /// The body is over.
    End,
    /// The body cannot be read.
    Failed(Error),
}

/// A connection whose body is read: one side's events mapped to [`Step`]s.
pub(crate) trait BodySource {
    /// The connection's next body event.
    fn step(&mut self) -> Step<'_>;
    /// Reads input into the connection (after [`Step::NeedInput`]).
    fn fill(&mut self) -> Result<(), Error>;
}

/// Body bytes taken from the connection that did not fit the caller's
/// buffer, handed out first on the next read.
#[derive(Debug, Default)]
pub(crate) struct BodyReader {
    kept: Leftover,
}

impl BodyReader {
    /// Forgets the kept bytes (keeping the allocation).
    pub(crate) fn clear(&mut self) {
        self.kept.clear();
    }

    /// Copies kept bytes into `buf`; 0 when none are kept.
    pub(crate) fn take_pending(&mut self, buf: &mut [u8]) -> usize {
        self.kept.take(buf)
    }

    /// Reads the next body bytes from `src` into `buf` (not empty), keeping
    /// what does not fit; `Ok(0)` at the end of the body.
    pub(crate) fn read_more<S: BodySource>(
        &mut self,
        src: &mut S,
        buf: &mut [u8],
    ) -> Result<usize, Error> {
        loop {
            match src.step() {
                Step::Data(d) => {
                    let n = self.kept.hand_out(d, buf);
                    if n > 0 {
                        return Ok(n);
                    }
                }
                Step::NeedInput => src.fill()?,
                Step::End => return Ok(0),
                Step::Failed(e) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body given as pieces, with an input wait before each.
    struct Pieces {
        pieces: Vec<&'static [u8]>,
        waiting: bool,
        fills: usize,
    }

    impl BodySource for Pieces {
        fn step(&mut self) -> Step<'_> {
            if self.waiting {
                return Step::NeedInput;
            }
            self.waiting = true;
            if self.pieces.is_empty() {
                return Step::End;
            }
            match self.pieces.remove(0) {
                b"fail" => Step::Failed(Error::BodyUnavailable),
                p => Step::Data(p),
            }
        }
        fn fill(&mut self) -> Result<(), Error> {
            self.waiting = false;
            self.fills += 1;
            Ok(())
        }
    }

    fn read_all(reader: &mut BodyReader, src: &mut Pieces, size: usize) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        let mut buf = vec![0u8; size];
        loop {
            let n = match reader.take_pending(&mut buf) {
                0 => reader.read_more(src, &mut buf)?,
                n => n,
            };
            if n == 0 {
                return Ok(out);
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    #[test]
    fn what_does_not_fit_is_kept_for_the_next_read() {
        let mut src = Pieces {
            pieces: vec![b"hello ", b"", b"world"],
            waiting: true,
            fills: 0,
        };
        let mut reader = BodyReader::default();
        assert_eq!(read_all(&mut reader, &mut src, 4).unwrap(), b"hello world");
        assert_eq!(src.fills, 4);
    }

    #[test]
    fn a_failure_is_reported_and_clear_forgets_kept_bytes() {
        let mut src = Pieces {
            pieces: vec![b"abcdef", b"fail"],
            waiting: false,
            fills: 0,
        };
        let mut reader = BodyReader::default();
        let mut buf = [0u8; 2];
        assert_eq!(reader.read_more(&mut src, &mut buf).unwrap(), 2);
        assert!(matches!(
            read_all(&mut reader, &mut src, 2),
            Err(Error::BodyUnavailable)
        ));
        reader.clear();
        assert_eq!(reader.take_pending(&mut buf), 0);
    }
}
