//! The state one request/response exchange shares between the reading side
//! (`poll_event`) and the answering side ([`Responder`](super::Responder)):
//! the two halves' states with their data, the facts of the request that the
//! answer depends on, and the connection flags. Every move is checked against
//! the tables in [`crate::state`].

use http_net_framing::{ChunkedDecoder, LengthDecoder};
use http_net_head::{Method, Version};

use super::AnswerState;
use crate::state::{server_read, server_write, SRead, SReadEv, SWrite, SWriteEv};
use crate::writer::Encoder;
use crate::{Config, LocalError};

/// How the request body is being read.
#[derive(Clone, Debug)]
pub(crate) enum Decoder {
    /// `Content-Length` (never 0: an empty body is `Finished` at once).
    Length(LengthDecoder),
    /// Chunked: the decoder is [`Exchange::chunked`] (220 bytes, kept out of
    /// the enum so that a state move copies a few words, not the decoder).
    Chunked,
    /// The body is read; `End` is due, with `count` trailer fields whose spans
    /// are relative to input offset `base`.
    Finished { base: usize, count: usize },
}

impl Decoder {
    pub(crate) const EMPTY: Decoder = Decoder::Finished { base: 0, count: 0 };
}

/// The read half with its data.
#[derive(Clone, Debug)]
pub(crate) enum ReadState {
    Idle,
    Body(Decoder),
    Done,
    /// Discarding an unread body; `left` bytes may still be discarded.
    Drain {
        dec: Decoder,
        left: u64,
    },
    Switched,
    Closed,
}

impl ReadState {
    pub(crate) fn kind(&self) -> SRead {
        match self {
            ReadState::Idle => SRead::Idle,
            ReadState::Body(_) => SRead::Body,
            ReadState::Done => SRead::Done,
            ReadState::Drain { .. } => SRead::Drain,
            ReadState::Switched => SRead::Switched,
            ReadState::Closed => SRead::Closed,
        }
    }
}

/// The write half with its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WriteState {
    Idle,
    Waiting,
    Body(Encoder),
    Done,
    Switched,
    Closed,
}

impl WriteState {
    pub(crate) fn kind(&self) -> SWrite {
        match self {
            WriteState::Idle => SWrite::Idle,
            WriteState::Waiting => SWrite::Waiting,
            WriteState::Body(_) => SWrite::Body,
            WriteState::Done => SWrite::Done,
            WriteState::Switched => SWrite::Switched,
            WriteState::Closed => SWrite::Closed,
        }
    }
}

/// What the answer needs to know about the request.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReqInfo {
    pub version: Version,
    pub method: Method,
    /// The request allows the connection to persist (RFC 9112 §9.3).
    pub keep_alive: bool,
    /// HTTP/1.1 `Expect: 100-continue` (RFC 9110 §10.1.1).
    pub expects_continue: bool,
    pub continue_sent: bool,
    /// HTTP/1.1 `Upgrade` with `Connection: upgrade` (RFC 9110 §7.8).
    pub upgrade_offered: bool,
}

impl ReqInfo {
    pub(crate) const NONE: ReqInfo = ReqInfo {
        version: Version::Http11,
        method: Method::Get,
        keep_alive: true,
        expects_continue: false,
        continue_sent: false,
        upgrade_offered: false,
    };
}

/// Shared exchange state.
#[derive(Debug)]
pub(crate) struct Exchange {
    pub config: Config,
    pub read: ReadState,
    /// The chunked decoder of the current request body, when it is chunked.
    pub chunked: ChunkedDecoder,
    pub write: WriteState,
    pub req: ReqInfo,
    /// Close once the current response is sent.
    pub must_close: bool,
    /// Graceful shutdown asked by the caller.
    pub close_requested: bool,
    /// A peer error ended the connection (phase `Draining`).
    pub failed: bool,
    /// The current request's head is held in the input buffer.
    pub req_alive: bool,
    /// The released head still has to be wiped.
    pub head_dirty: bool,
    pub date: Option<[u8; 29]>,
    /// The answer's state when the write half closed (what
    /// [`ServerConn::answer_state`](super::ServerConn::answer_state) reports
    /// once it is `Closed`).
    pub closed_answer: AnswerState,
}

impl Exchange {
    pub(crate) fn new(config: Config) -> Exchange {
        Exchange {
            config,
            read: ReadState::Idle,
            chunked: ChunkedDecoder::new(config.body_limits(), config.head_limits()),
            write: WriteState::Idle,
            req: ReqInfo::NONE,
            must_close: false,
            close_requested: false,
            failed: false,
            req_alive: false,
            head_dirty: false,
            date: None,
            closed_answer: AnswerState::NotStarted,
        }
    }

    /// A move of the read half, checked against the table.
    pub(crate) fn move_read(&mut self, ev: SReadEv, to: ReadState) {
        debug_assert_eq!(
            server_read(self.read.kind(), ev),
            Some(to.kind()),
            "read {:?} {ev:?}",
            self.read
        );
        self.read = to;
    }

    /// Whether the write half may take `ev` now.
    pub(crate) fn check_write(&self, ev: SWriteEv) -> Result<(), LocalError> {
        server_write(self.write.kind(), ev)
            .map(|_| ())
            .ok_or(LocalError::WrongState)
    }

    /// A move of the write half, checked against the table.
    pub(crate) fn move_write(&mut self, ev: SWriteEv, to: WriteState) {
        debug_assert_eq!(
            server_write(self.write.kind(), ev),
            Some(to.kind()),
            "write {:?} {ev:?}",
            self.write
        );
        self.write = to;
    }

    /// Releases the request head (its response is complete).
    pub(crate) fn release(&mut self) {
        if self.req_alive {
            self.req_alive = false;
            self.head_dirty = true;
        }
    }

    /// Nothing more is read or sent: close once the output is sent.
    pub(crate) fn close(&mut self) {
        self.closed_answer = match self.write.kind() {
            SWrite::Idle | SWrite::Waiting => AnswerState::NotStarted,
            SWrite::Body => AnswerState::Started,
            SWrite::Done => AnswerState::Complete,
            SWrite::Switched => AnswerState::Switched,
            SWrite::Closed => self.closed_answer,
        };
        self.must_close = true;
        self.release();
        self.move_read(SReadEv::Close, ReadState::Closed);
        self.move_write(SWriteEv::Close, WriteState::Closed);
    }

    /// Unread request body bytes known now (`None`: chunked, unknown).
    pub(crate) fn body_unread(&self) -> Option<u64> {
        match &self.read {
            ReadState::Body(Decoder::Length(d)) => Some(d.remaining()),
            ReadState::Body(Decoder::Chunked) => None,
            _ => Some(0),
        }
    }

    /// The response is complete: the write half is done, and an unread body
    /// is drained (up to the bound) or the connection closes.
    pub(crate) fn answered(&mut self, ev: SWriteEv, to: WriteState) {
        self.move_write(ev, to);
        self.release();
        if to == WriteState::Switched {
            return;
        }
        if let ReadState::Body(dec) = &self.read {
            let unread_expected = !matches!(dec, Decoder::Finished { .. });
            let declined = self.req.expects_continue && !self.req.continue_sent && unread_expected;
            let too_big = matches!(self.body_unread(), Some(n) if n > self.config.drain_limit());
            if self.must_close || declined || too_big {
                // No next request will be read: no point in draining.
                self.must_close = true;
                self.move_read(SReadEv::Close, ReadState::Closed);
            } else if let ReadState::Body(dec) = core::mem::replace(&mut self.read, ReadState::Done)
            {
                // (Done only for the swap; the move below is checked from Body.)
                self.read = ReadState::Body(Decoder::EMPTY);
                let left = self.config.drain_limit();
                self.move_read(SReadEv::Answered, ReadState::Drain { dec, left });
            }
        }
    }
}
