//! The state one request/response exchange shares between the reading side
//! (`poll_event`) and the answering side ([`Responder`](super::Responder)):
//! the two halves' states with their data, what the answer must know about
//! the request, and the connection flags. Every move is checked against
//! the tables in [`crate::state`].

use http_net_framing::{BodyEncoder, ChunkedDecoder};
use http_net_head::{Method, Version};

use super::AnswerState;
use crate::body::BodyIn;
use crate::state::{
    server_joint, server_read, server_write, take, CloseWhy, Persist, SRead, SReadEv, SWrite,
    SWriteEv, ServerJoint,
};
use crate::{Config, LocalError};

/// What the answer needs to know about the request.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReqInfo {
    pub version: Version,
    pub method: Method,
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
        expects_continue: false,
        continue_sent: false,
        upgrade_offered: false,
    };
}

/// Shared exchange state.
#[derive(Debug)]
pub(crate) struct RequestState {
    pub config: Config,
    /// The read half's state, moved only through the table.
    pub read: SRead,
    /// The request body (read half `Body` or `Drain`).
    pub body: BodyIn,
    /// While draining: bytes that may still be discarded.
    pub drain_left: u64,
    /// The chunked decoder of the current request body, when it is chunked.
    pub chunked: ChunkedDecoder,
    /// The write half's state, moved only through the table.
    pub write: SWrite,
    /// The response body's encoder (write half `Body`).
    pub enc: BodyEncoder,
    pub req: ReqInfo,
    /// Whether the connection persists: the one answer to every question
    /// about closing.
    pub persist: Persist,
    /// The released head still has to be wiped.
    pub head_dirty: bool,
    /// The `Date` field line, `Date: ` the 29-byte date CR LF, built once
    /// in `set_date` so that an answer appends it with one copy.
    pub date_line: Option<[u8; DATE_LINE]>,
    /// The answer's state when the write half closed (what
    /// [`ServerConn::answer_state`](super::ServerConn::answer_state) reports
    /// once it is `Closed`).
    pub closed_answer: AnswerState,
    /// The status of the current request's final response, its error
    /// response included: meaningful once the answer has started (what
    /// [`ServerConn::response_status`](super::ServerConn::response_status)
    /// reports), so a new request needs no store here.
    pub status: u16,
    /// Request body bytes surfaced as `Data` for the current request: set
    /// to 0 when a request with a body starts (one without a body reads it
    /// as 0: [`ServerConn::body_delivered`](super::ServerConn::body_delivered)).
    pub delivered: u64,
    /// The current request's own body limit
    /// ([`ServerConn::limit_body`](super::ServerConn::limit_body)), reset
    /// like `delivered`; `u64::MAX` for none.
    pub body_limit: u64,
}

/// The length of the `Date` field line: `Date: `, 29 bytes, CR LF.
pub(crate) const DATE_LINE: usize = 6 + 29 + 2;

impl RequestState {
    /// Sets the date written in every response head.
    pub(crate) fn set_date(&mut self, date: &[u8; 29]) {
        let mut line = [0; DATE_LINE];
        line[..6].copy_from_slice(b"Date: ");
        line[6..35].copy_from_slice(date);
        line[35..].copy_from_slice(b"\r\n");
        self.date_line = Some(line);
    }

    /// The date set, if any.
    pub(crate) fn date(&self) -> Option<&[u8; 29]> {
        self.date_line.as_ref()?.get(6..35)?.try_into().ok()
    }

    pub(crate) fn new(config: Config) -> RequestState {
        RequestState {
            config,
            read: SRead::Idle,
            body: BodyIn::EMPTY,
            drain_left: 0,
            chunked: ChunkedDecoder::new(config.body_limits(), config.head_limits()),
            write: SWrite::Idle,
            enc: BodyEncoder::Discard(None),
            req: ReqInfo::NONE,
            persist: Persist::KeepAlive,
            head_dirty: false,
            date_line: None,
            closed_answer: AnswerState::NotStarted,
            status: 0,
            delivered: 0,
            body_limit: u64::MAX,
        }
    }

    /// A move of the read half, taken from the table.
    #[inline(always)]
    pub(crate) fn move_read(&mut self, ev: SReadEv) {
        self.read = take(server_read(self.read, ev), SRead::Closed);
    }

    /// A move of the read half from `from`, which the caller knows it is in:
    /// the table's answer for a constant cell, so a constant store.
    #[inline(always)]
    pub(crate) fn move_read_from(&mut self, from: SRead, ev: SReadEv) {
        debug_assert_eq!(self.read, from);
        // Fast path, general twin `move_read` (the cell looked up from the
        // state at run time); with the joint rules before every step, +45
        // instructions per request on the H5 loop (docs/DECISIONS.md, D-10).
        #[cfg(http_net_general_path)]
        let from = self.read;
        self.read = take(server_read(from, ev), SRead::Closed);
    }

    /// A move of the write half from `from`, which the caller knows it is in.
    #[inline(always)]
    pub(crate) fn move_write_from(&mut self, from: SWrite, ev: SWriteEv) {
        debug_assert_eq!(self.write, from);
        // Fast path, general twin `move_write`, as above.
        #[cfg(http_net_general_path)]
        let from = self.write;
        self.write = take(server_write(from, ev), SWrite::Closed);
    }

    /// Where the write half goes on `ev`, if it may take it now.
    #[inline(always)]
    pub(crate) fn check_write(&self, ev: SWriteEv) -> Result<SWrite, LocalError> {
        server_write(self.write, ev).ok_or(LocalError::WrongState)
    }

    /// A move of the write half, taken from the table.
    #[inline(always)]
    pub(crate) fn move_write(&mut self, ev: SWriteEv) {
        self.write = take(server_write(self.write, ev), SWrite::Closed);
    }

    /// The current request's head is held in the input buffer: from the
    /// request until its answer is complete (or the connection closes).
    #[inline(always)]
    pub(crate) fn req_alive(&self) -> bool {
        matches!(self.write, SWrite::Waiting | SWrite::Body)
    }

    /// A HEAD request is in progress (its head received, no final answer
    /// queued): an error response to it carries no content (RFC 9110
    /// §9.3.2). Between requests `req` still describes the last one, so the
    /// write state is asked first.
    pub(crate) fn head_in_progress(&self) -> bool {
        self.write == SWrite::Waiting && self.req.method == Method::Head
    }

    /// Where the answer stands.
    pub(crate) fn answer_state(&self) -> AnswerState {
        match self.write {
            SWrite::Idle | SWrite::Waiting => AnswerState::NotStarted,
            SWrite::Body => AnswerState::Started,
            SWrite::Done => AnswerState::Complete,
            SWrite::Switched => AnswerState::Switched,
            SWrite::Closed => self.closed_answer,
        }
    }

    /// Request body bytes are still expected (the body is not read to its end).
    #[inline(always)]
    pub(crate) fn body_pending(&self) -> bool {
        self.read == SRead::Body && self.body.pending()
    }

    /// Nothing more is read or sent: close once the output is sent.
    pub(crate) fn close(&mut self, why: CloseWhy) {
        if self.req_alive() {
            self.head_dirty = true;
        }
        self.closed_answer = self.answer_state();
        self.persist = self.persist.close(why);
        self.move_read(SReadEv::Close);
        self.move_write(SWriteEv::Close);
    }

    /// A peer error or a reject: closed, and `Failed`.
    pub(crate) fn fail(&mut self) {
        self.close(CloseWhy::Ended);
        self.persist = Persist::Failed;
    }

    /// Unread request body bytes known now (`None`: chunked, unknown).
    pub(crate) fn body_unread(&self) -> Option<u64> {
        match self.read {
            SRead::Body => self.body.remaining(),
            _ => Some(0),
        }
    }

    /// Why an answer ending now leaves the request body unread in a way that
    /// closes the connection: `100 Continue` was expected and not sent (the
    /// body is declined), or more is known to be left than the drain bound.
    // Inlined: its first test settles it for every request without a body.
    // The call cost more than the status store `final_head` adds: H5 (the
    // callgrind loop of docs/PERFORMANCE.md) 1,501.8 instructions per
    // request before both, 1,486.8 with both.
    #[inline(always)]
    pub(crate) fn unread_closes(&self) -> bool {
        // Nothing of the body is unread outside `Body` (`body_unread` is
        // `Some(0)` then, and `body_pending` false): the answer to every
        // request without a body stops here.
        if self.read != SRead::Body {
            return false;
        }
        let declined = self.req.expects_continue && !self.req.continue_sent && self.body_pending();
        let too_big = matches!(self.body_unread(), Some(n) if n > self.config.drain_limit());
        declined || too_big
    }

    /// The response is complete (`ev` is `End` or `Switch`): the head is
    /// released and the joint rules say what the read half does.
    #[inline(always)]
    pub(crate) fn answered(&mut self, ev: SWriteEv) {
        // Both `End` and `Switch` leave from a known state.
        let from = if ev == SWriteEv::End {
            SWrite::Body
        } else {
            SWrite::Waiting
        };
        self.move_write_from(from, ev);
        self.head_dirty = true;
        if ev == SWriteEv::End && self.read == SRead::Body {
            self.persist = self
                .persist
                .close_if(self.unread_closes(), CloseWhy::UnreadBody);
            self.settle();
        }
    }

    /// Applies the joint rules ([`server_joint`]) once (the caller's loop,
    /// `poll_event`, asks again until they answer "none"); returns
    /// `Some(closed)` when the connection closed or switched.
    pub(crate) fn settle(&mut self) -> Option<bool> {
        match server_joint(self.read, self.write, self.persist) {
            ServerJoint::None => None,
            ServerJoint::Cycle => {
                self.move_read_from(SRead::Done, SReadEv::Cycle);
                self.move_write_from(SWrite::Done, SWriteEv::Cycle);
                None
            }
            ServerJoint::Switch => {
                self.move_read_from(SRead::Done, SReadEv::Switch);
                Some(false)
            }
            ServerJoint::Drain => {
                self.drain_left = self.config.drain_limit();
                self.move_read_from(SRead::Body, SReadEv::Answered);
                None
            }
            ServerJoint::StopReading => {
                self.move_read_from(SRead::Body, SReadEv::Close);
                Some(true)
            }
            ServerJoint::Close => {
                let why = self.persist.why().unwrap_or(CloseWhy::Ended);
                self.close(why);
                Some(true)
            }
        }
    }
}
