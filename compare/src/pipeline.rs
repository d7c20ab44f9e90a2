//! The heavier H5 loop for the bare parsers: read 16 KiB at a time into a
//! receive buffer, parse and frame every complete request in it with the
//! whole framing pass of [`crate::rules`] (http-net's strictness rules),
//! answer each with the 52 bytes of [`ANSWER`], send (here: count) the
//! answers after each read, keep the unparsed tail. The lean loop that
//! decides only what the answer needs is [`crate::lean`].

use crate::inputs::READ;
use crate::lean::ANSWER;
use crate::rules::{Body, Framing, Verdict};

/// The verdict of a bare parse in the parse-only loops: a complete head of
/// `head_len` bytes, taken as a keep-alive HTTP/1.1 request without a body
/// (what every H5 request is), with no rule checked.
#[inline]
pub fn parsed_only(head_len: usize) -> Verdict {
    Verdict::Complete(Framing {
        head_len,
        http11: true,
        body: Body::None,
        keep_alive: true,
        upgrade: false,
        expect_continue: false,
    })
}

/// Buffers reused across runs, as a connection reuses its own.
pub struct Loop {
    recv: Vec<u8>,
    out: Vec<u8>,
    answer: Vec<u8>,
    /// Bytes of answers "sent".
    pub sent: usize,
}

impl Default for Loop {
    fn default() -> Self {
        Loop::new()
    }
}

impl Loop {
    /// Buffers for one connection.
    pub fn new() -> Loop {
        Loop {
            recv: Vec::with_capacity(2 * READ),
            out: Vec::with_capacity(2 * READ),
            answer: ANSWER.to_vec(),
            sent: 0,
        }
    }

    /// Serves every request of `input`, received in 16 KiB reads; `parse`
    /// is one side's head + framing. Returns the number of answers.
    #[inline]
    pub fn run(&mut self, input: &[u8], mut parse: impl FnMut(&[u8]) -> Verdict) -> usize {
        self.recv.clear();
        self.sent = 0;
        let mut answered = 0;
        for piece in input.chunks(READ) {
            self.recv.extend_from_slice(piece);
            let mut pos = 0;
            loop {
                match parse(&self.recv[pos..]) {
                    Verdict::Complete(f) => {
                        debug_assert_eq!(f.body, Body::None);
                        pos += f.head_len;
                        self.out.extend_from_slice(&self.answer);
                        answered += 1;
                        if !f.keep_alive {
                            return answered;
                        }
                    }
                    Verdict::Partial => break,
                    Verdict::Reject(status) => panic!("rejected with {status}"),
                }
            }
            self.recv.drain(..pos);
            self.sent += self.out.len();
            self.out.clear();
        }
        answered
    }
}
