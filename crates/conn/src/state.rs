//! The connection state machines as tables: each half of each
//! connection has a data-free state kind, and one exhaustive `match` lists
//! every legal move. A cell that is not listed is a misuse (`WrongState`) or,
//! for the peer's moves, cannot happen. The connections store these kinds as
//! their states and take every move from the tables (the data that goes with
//! a state, the body decoder or encoder, sits beside it); with the state and
//! the event known at the call, a move compiles to a constant store.
//!
//! Whether the connection persists is one value, [`Persist`], and the moves
//! that follow from both halves and it together (h11's "state-triggered
//! transitions") are decided in one place: [`server_joint`] and
//! [`client_joint`], applied by the connections until they answer "none".
//! The `render` module prints the tables as Markdown (`doc-tables`
//! feature).

/// Why a connection closes after the current response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CloseWhy {
    /// The peer's message: `Connection: close`, or HTTP/1.0 without
    /// `keep-alive` (RFC 9112 §9.3).
    PeerAsked,
    /// Our side: the caller's `Connection: close` field, or
    /// `close_after_response` (graceful shutdown; RFC 9112 §9.6).
    LocalAsked,
    /// The body is delimited by the close (RFC 9112 §6.3 item 8; a streamed
    /// response to HTTP/1.0).
    CloseDelimited,
    /// A request body is left unread: past the drain bound, or declined by
    /// answering without `100 Continue` (RFC 9110 §10.1.1).
    UnreadBody,
    /// A body ended short of its `Content-Length` (RFC 9112 §6.2, §8): the
    /// peer was promised bytes that never come.
    Truncated,
    /// The input ended, the drain bound was passed, or the protocol switched.
    Ended,
}

/// Whether the connection persists after the current exchange: the one value
/// every persistence question is answered from. It only moves towards
/// closing ([`Persist::and`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Persist {
    /// The connection may carry another message.
    KeepAlive,
    /// The connection closes once the current response is complete.
    CloseAfterResponse(CloseWhy),
    /// A peer error (or a reject) ended the connection: its error response,
    /// if any, is queued; nothing more is read or sent.
    Failed,
}

impl Persist {
    /// This value joined with a later decision: `Failed` over a close, a close
    /// over `KeepAlive`; between two closes the first reason stays.
    #[inline(always)]
    pub(crate) const fn and(self, then: Persist) -> Persist {
        match (self, then) {
            (Persist::Failed, _)
            | (
                Persist::CloseAfterResponse(_),
                Persist::KeepAlive | Persist::CloseAfterResponse(_),
            ) => self,
            _ => then,
        }
    }

    /// Closing with `why`, unless already decided otherwise.
    #[inline(always)]
    pub(crate) const fn close(self, why: CloseWhy) -> Persist {
        self.and(Persist::CloseAfterResponse(why))
    }

    /// Closing with `why` when `close`, else as it was.
    #[inline(always)]
    pub(crate) const fn close_if(self, close: bool, why: CloseWhy) -> Persist {
        if close {
            self.close(why)
        } else {
            self
        }
    }

    /// Whether another message may follow.
    #[inline(always)]
    pub(crate) const fn keeps_alive(self) -> bool {
        matches!(self, Persist::KeepAlive)
    }

    /// Why the connection closes (`None` while it persists; `Ended` once failed).
    pub(crate) const fn why(self) -> Option<CloseWhy> {
        match self {
            Persist::KeepAlive => None,
            Persist::CloseAfterResponse(why) => Some(why),
            Persist::Failed => Some(CloseWhy::Ended),
        }
    }
}

/// A move of a table, taken: the table's answer, or (for a cell the
/// connection never asks for: a bug, caught by the debug assertion and the
/// cell tests) the closed state. Where the caller knows the state it moves
/// from and passes it as a constant, the whole move folds to a constant.
#[inline(always)]
pub(crate) fn take<S: Copy + core::fmt::Debug>(to: Option<S>, closed: S) -> S {
    debug_assert!(to.is_some(), "a move the table does not list");
    match to {
        Some(s) => s,
        None => closed,
    }
}

/// Server, read half: what the connection reads next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SRead {
    /// Waiting for (or parsing) a request head.
    Idle,
    /// Reading the request body (surfaced as `Data`, then `End`).
    Body,
    /// The request is read; waiting for the response to complete.
    Done,
    /// The response completed first: the rest of the body is discarded.
    Drain,
    /// HTTP is over: the bytes belong to the new protocol.
    Switched,
    /// Nothing more is read.
    Closed,
}

/// Server, read-half events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SReadEv {
    /// A request head was parsed.
    Head,
    /// The request body ended (`End` surfaced).
    End,
    /// The response completed while the body was unread.
    Answered,
    /// The discarded body ended.
    Drained,
    /// Response and request are complete and the connection persists.
    Cycle,
    /// A 101 or a 2xx to CONNECT was sent and the request is read.
    Switch,
    /// The connection closes (error, `close`, end of input, drain bound).
    Close,
}

/// Server, write half: where the answer to the current request stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SWrite {
    /// No request to answer.
    Idle,
    /// A request waits for its answer (1xx may be sent).
    Waiting,
    /// The final head is sent; the body is being sent.
    Body,
    /// The response is complete.
    Done,
    /// A 101 or a 2xx to CONNECT was sent.
    Switched,
    /// Nothing more is sent.
    Closed,
}

/// Server, write-half events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SWriteEv {
    /// A request was surfaced.
    Request,
    /// An informational (1xx) response was queued.
    Info,
    /// A final head was queued.
    Head,
    /// Body bytes were queued.
    Data,
    /// The response was ended.
    End,
    /// A 101, or a 2xx to CONNECT, was queued.
    Switch,
    /// Response and request are complete and the connection persists.
    Cycle,
    /// The connection closes.
    Close,
}

/// The server read-half table.
pub(crate) const fn server_read(from: SRead, ev: SReadEv) -> Option<SRead> {
    use {SRead as S, SReadEv as E};
    Some(match (from, ev) {
        (S::Idle, E::Head) => S::Body,
        (S::Body, E::End) => S::Done,
        (S::Body, E::Answered) => S::Drain,
        (S::Drain, E::Drained) => S::Done,
        (S::Done, E::Cycle) => S::Idle,
        (S::Done, E::Switch) => S::Switched,
        (S::Idle | S::Body | S::Done | S::Drain | S::Switched | S::Closed, E::Close) => S::Closed,
        _ => return None,
    })
}

/// The server write-half table.
pub(crate) const fn server_write(from: SWrite, ev: SWriteEv) -> Option<SWrite> {
    use {SWrite as S, SWriteEv as E};
    Some(match (from, ev) {
        (S::Idle, E::Request) => S::Waiting,
        (S::Waiting, E::Info) => S::Waiting,
        (S::Waiting, E::Head) => S::Body,
        (S::Waiting, E::Switch) => S::Switched,
        (S::Body, E::Data) => S::Body,
        (S::Body, E::End) => S::Done,
        (S::Done, E::Cycle) => S::Idle,
        (S::Idle | S::Waiting | S::Body | S::Done | S::Switched | S::Closed, E::Close) => S::Closed,
        _ => return None,
    })
}

/// Client, write half: the request being written (several may be
/// outstanding; the read half matches responses to them in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CWrite {
    /// No request body in progress: a request may be sent.
    Idle,
    /// A request body is being sent.
    Body,
    /// No more requests (after `close`, a switch, or an error).
    Closed,
}

/// Client, write-half events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CWriteEv {
    /// A request head was queued.
    Head,
    /// Body bytes were queued.
    Data,
    /// The request was ended.
    End,
    /// The last request this connection may carry was ended (`close`,
    /// upgrade, CONNECT) or the connection failed.
    Close,
}

/// Client, read half.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CRead {
    /// Waiting for a response head (1xx are surfaced and skipped here).
    Head,
    /// Reading a response body.
    Body,
    /// HTTP is over: the bytes belong to the new protocol.
    Switched,
    /// Nothing more is read.
    Closed,
}

/// Client, read-half events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CReadEv {
    /// An informational (1xx, not 101) head.
    Info,
    /// A final response head.
    Response,
    /// The response body ended and the connection persists.
    End,
    /// A 101 after an offered upgrade, or a 2xx to CONNECT.
    Switch,
    /// The connection closes (error, `close`, end of input).
    Close,
}

/// The client write-half table.
pub(crate) const fn client_write(from: CWrite, ev: CWriteEv) -> Option<CWrite> {
    use {CWrite as S, CWriteEv as E};
    Some(match (from, ev) {
        (S::Idle, E::Head) => S::Body,
        (S::Body, E::Data) => S::Body,
        (S::Body, E::End) => S::Idle,
        (S::Idle | S::Body | S::Closed, E::Close) => S::Closed,
        _ => return None,
    })
}

/// The client read-half table.
pub(crate) const fn client_read(from: CRead, ev: CReadEv) -> Option<CRead> {
    use {CRead as S, CReadEv as E};
    Some(match (from, ev) {
        (S::Head, E::Info) => S::Head,
        (S::Head, E::Response) => S::Body,
        (S::Head, E::Switch) => S::Switched,
        (S::Body, E::End) => S::Head,
        (S::Head | S::Body | S::Switched | S::Closed, E::Close) => S::Closed,
        _ => return None,
    })
}

/// A move the server's two halves and its persistence call for together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ServerJoint {
    /// Nothing: wait for the peer or the caller.
    None,
    /// Request and response complete, the connection persists: both halves
    /// `Cycle` back to `Idle`.
    Cycle,
    /// Request read and a 101 or 2xx to CONNECT sent: the read half `Switch`es.
    Switch,
    /// The response completed while the request body is unread and the
    /// connection persists: the read half discards the rest (`Answered`).
    Drain,
    /// The same, but the connection closes: the read half stops (`Close`),
    /// the complete response stays `Done`.
    StopReading,
    /// Both halves close (`Close`).
    Close,
}

/// The server's joint rules, in one place (RFC 9112 §9.3, §9.6): what
/// follows from the two halves' states and [`Persist`] together. (A
/// `Failed` connection has both halves `Closed` already: failing closes.)
#[inline(always)]
pub(crate) const fn server_joint(read: SRead, write: SWrite, persist: Persist) -> ServerJoint {
    use {SRead as R, SWrite as W, ServerJoint as J};
    let keep = persist.keeps_alive();
    match (read, write) {
        (R::Done, W::Done) if keep => J::Cycle,
        (R::Done, W::Done) => J::Close,
        (R::Done, W::Switched) => J::Switch,
        (R::Body, W::Done) if keep => J::Drain,
        (R::Body, W::Done) => J::StopReading,
        (R::Idle, W::Idle) if !keep => J::Close,
        _ => J::None,
    }
}

/// A move the client's halves and its persistence call for together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClientJoint {
    /// Nothing: wait for the peer or the caller.
    None,
    /// Both halves close (`Close`).
    Close,
}

/// The client's joint rules, in one place: after a response that closes the
/// connection nothing more is a response, and later requests are not
/// answered on it (RFC 9112 §9.3, §9.6).
#[inline(always)]
pub(crate) const fn client_joint(read: CRead, write: CWrite, persist: Persist) -> ClientJoint {
    match (read, write, persist) {
        (CRead::Closed, CWrite::Closed, _) => ClientJoint::None,
        (_, _, Persist::Failed) | (CRead::Head, _, Persist::CloseAfterResponse(_)) => {
            ClientJoint::Close
        }
        _ => ClientJoint::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SR: [SRead; 6] = [
        SRead::Idle,
        SRead::Body,
        SRead::Done,
        SRead::Drain,
        SRead::Switched,
        SRead::Closed,
    ];
    const SRE: [SReadEv; 7] = [
        SReadEv::Head,
        SReadEv::End,
        SReadEv::Answered,
        SReadEv::Drained,
        SReadEv::Cycle,
        SReadEv::Switch,
        SReadEv::Close,
    ];
    const SW: [SWrite; 6] = [
        SWrite::Idle,
        SWrite::Waiting,
        SWrite::Body,
        SWrite::Done,
        SWrite::Switched,
        SWrite::Closed,
    ];
    const SWE: [SWriteEv; 8] = [
        SWriteEv::Request,
        SWriteEv::Info,
        SWriteEv::Head,
        SWriteEv::Data,
        SWriteEv::End,
        SWriteEv::Switch,
        SWriteEv::Cycle,
        SWriteEv::Close,
    ];

    /// Checks every (state, event) cell of one table: `close` leads to
    /// `closed` from anywhere, the cells in `ok` to their listed state, and
    /// every other cell is refused.
    fn check_cells<S, E>(
        states: &[S],
        events: &[E],
        ok: &[(S, E, S)],
        close: E,
        closed: S,
        table: impl Fn(S, E) -> Option<S>,
    ) where
        S: Copy + PartialEq + core::fmt::Debug,
        E: Copy + PartialEq + core::fmt::Debug,
    {
        for &s in states {
            for &e in events {
                let want = if e == close {
                    Some(closed)
                } else {
                    ok.iter()
                        .find(|(f, ev, _)| *f == s && *ev == e)
                        .map(|c| c.2)
                };
                assert_eq!(table(s, e), want, "{s:?} {e:?}");
            }
        }
    }

    #[test]
    fn persistence_only_moves_towards_closing() {
        use CloseWhy as W;
        let keep = Persist::KeepAlive;
        let peer = Persist::CloseAfterResponse(W::PeerAsked);
        assert_eq!(keep.and(keep), keep);
        assert_eq!(keep.close(W::PeerAsked), peer);
        // The first reason stays; a close never reopens; failure is final.
        assert_eq!(peer.close(W::LocalAsked), peer);
        assert_eq!(peer.and(keep), peer);
        assert_eq!(peer.and(Persist::Failed), Persist::Failed);
        assert_eq!(Persist::Failed.and(keep), Persist::Failed);
        assert_eq!(Persist::Failed.close(W::Truncated), Persist::Failed);
        assert_eq!(keep.close_if(false, W::Ended), keep);
        assert_eq!(Persist::Failed.why(), Some(W::Ended));
        assert_eq!(keep.why(), None);
    }

    #[test]
    fn every_server_joint_cell() {
        use ServerJoint as J;
        let close = Persist::CloseAfterResponse(CloseWhy::LocalAsked);
        for &r in &SR {
            for &w in &SW {
                for p in [Persist::KeepAlive, close] {
                    let keep = p == Persist::KeepAlive;
                    let want = match (r, w) {
                        (SRead::Done, SWrite::Done) if keep => J::Cycle,
                        (SRead::Done, SWrite::Done) => J::Close,
                        (SRead::Done, SWrite::Switched) => J::Switch,
                        (SRead::Body, SWrite::Done) if keep => J::Drain,
                        (SRead::Body, SWrite::Done) => J::StopReading,
                        (SRead::Idle, SWrite::Idle) if !keep => J::Close,
                        _ => J::None,
                    };
                    assert_eq!(server_joint(r, w, p), want, "{r:?} {w:?} {p:?}");
                    // Every move a joint rule asks for is a cell of the tables.
                    let read_ev = match want {
                        J::Cycle => Some(SReadEv::Cycle),
                        J::Switch => Some(SReadEv::Switch),
                        J::Drain => Some(SReadEv::Answered),
                        J::StopReading | J::Close => Some(SReadEv::Close),
                        J::None => None,
                    };
                    if let Some(ev) = read_ev {
                        assert!(server_read(r, ev).is_some(), "{r:?} {ev:?}");
                    }
                    if want == J::Cycle {
                        assert!(server_write(w, SWriteEv::Cycle).is_some());
                    }
                }
            }
        }
    }

    #[test]
    fn client_closes_at_a_head_once_closing() {
        let close = Persist::CloseAfterResponse(CloseWhy::PeerAsked);
        assert_eq!(
            client_joint(CRead::Head, CWrite::Idle, close),
            ClientJoint::Close
        );
        assert_eq!(
            client_joint(CRead::Body, CWrite::Idle, close),
            ClientJoint::None
        );
        assert_eq!(
            client_joint(CRead::Head, CWrite::Idle, Persist::KeepAlive),
            ClientJoint::None
        );
        assert_eq!(
            client_joint(CRead::Closed, CWrite::Closed, Persist::Failed),
            ClientJoint::None
        );
    }

    #[test]
    fn every_server_cell() {
        // Allowed cells, listed independently of the table.
        let read_ok = [
            (SRead::Idle, SReadEv::Head, SRead::Body),
            (SRead::Body, SReadEv::End, SRead::Done),
            (SRead::Body, SReadEv::Answered, SRead::Drain),
            (SRead::Drain, SReadEv::Drained, SRead::Done),
            (SRead::Done, SReadEv::Cycle, SRead::Idle),
            (SRead::Done, SReadEv::Switch, SRead::Switched),
        ];
        check_cells(
            &SR,
            &SRE,
            &read_ok,
            SReadEv::Close,
            SRead::Closed,
            server_read,
        );
        let write_ok = [
            (SWrite::Idle, SWriteEv::Request, SWrite::Waiting),
            (SWrite::Waiting, SWriteEv::Info, SWrite::Waiting),
            (SWrite::Waiting, SWriteEv::Head, SWrite::Body),
            (SWrite::Waiting, SWriteEv::Switch, SWrite::Switched),
            (SWrite::Body, SWriteEv::Data, SWrite::Body),
            (SWrite::Body, SWriteEv::End, SWrite::Done),
            (SWrite::Done, SWriteEv::Cycle, SWrite::Idle),
        ];
        check_cells(
            &SW,
            &SWE,
            &write_ok,
            SWriteEv::Close,
            SWrite::Closed,
            server_write,
        );
    }

    #[test]
    fn every_state_is_a_row_and_every_event_a_column() {
        let tables = render::all();
        // Server read: 6 states, 7 events; the others likewise.
        for (t, rows, cols) in [
            (&tables[0], 6, 7),
            (&tables[1], 6, 8),
            (&tables[2], 3, 4),
            (&tables[3], 4, 5),
        ] {
            let lines: alloc::vec::Vec<&str> = t.lines().collect();
            assert_eq!(lines.len(), rows + 2, "{t}");
            assert!(
                lines.iter().all(|l| l.matches('|').count() == cols + 2),
                "{t}"
            );
        }
        assert!(tables[0].contains("| **Idle** | Body |"));
    }

    #[test]
    fn every_client_cell() {
        let ws = [CWrite::Idle, CWrite::Body, CWrite::Closed];
        let wes = [
            CWriteEv::Head,
            CWriteEv::Data,
            CWriteEv::End,
            CWriteEv::Close,
        ];
        let write_ok = [
            (CWrite::Idle, CWriteEv::Head, CWrite::Body),
            (CWrite::Body, CWriteEv::Data, CWrite::Body),
            (CWrite::Body, CWriteEv::End, CWrite::Idle),
        ];
        check_cells(
            &ws,
            &wes,
            &write_ok,
            CWriteEv::Close,
            CWrite::Closed,
            client_write,
        );
        let rs = [CRead::Head, CRead::Body, CRead::Switched, CRead::Closed];
        let res = [
            CReadEv::Info,
            CReadEv::Response,
            CReadEv::End,
            CReadEv::Switch,
            CReadEv::Close,
        ];
        let read_ok = [
            (CRead::Head, CReadEv::Info, CRead::Head),
            (CRead::Head, CReadEv::Response, CRead::Body),
            (CRead::Head, CReadEv::Switch, CRead::Switched),
            (CRead::Body, CReadEv::End, CRead::Head),
        ];
        check_cells(
            &rs,
            &res,
            &read_ok,
            CReadEv::Close,
            CRead::Closed,
            client_read,
        );
    }
}

/// The tables rendered as Markdown, as `docs/ARCHITECTURE.md` prints them
/// (`cargo xtask docs-check` compares the two; built for it with the
/// `doc-tables` feature).
#[cfg(any(test, feature = "doc-tables"))]
pub(crate) mod render {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    fn table<S: Copy + core::fmt::Debug, E: Copy + core::fmt::Debug, T: core::fmt::Debug>(
        states: &[S],
        events: &[E],
        f: impl Fn(S, E) -> Option<T>,
    ) -> String {
        let mut out = String::from("| state \\ event |");
        for e in events {
            out += &format!(" {e:?} |");
        }
        out += "\n|---|";
        for _ in events {
            out += "---|";
        }
        out += "\n";
        for &s in states {
            out += &format!("| **{s:?}** |");
            for &e in events {
                match f(s, e) {
                    Some(t) => out += &format!(" {t:?} |"),
                    None => out += " — |",
                }
            }
            out += "\n";
        }
        out
    }

    /// The four tables: server read, server write, client write, client read.
    pub(crate) fn all() -> [String; 4] {
        use CReadEv as CR;
        use CWriteEv as CW;
        use SReadEv as R;
        use SWriteEv as W;
        [
            table(
                &[
                    SRead::Idle,
                    SRead::Body,
                    SRead::Done,
                    SRead::Drain,
                    SRead::Switched,
                    SRead::Closed,
                ],
                &[
                    R::Head,
                    R::End,
                    R::Answered,
                    R::Drained,
                    R::Cycle,
                    R::Switch,
                    R::Close,
                ],
                server_read,
            ),
            table(
                &[
                    SWrite::Idle,
                    SWrite::Waiting,
                    SWrite::Body,
                    SWrite::Done,
                    SWrite::Switched,
                    SWrite::Closed,
                ],
                &[
                    W::Request,
                    W::Info,
                    W::Head,
                    W::Data,
                    W::End,
                    W::Switch,
                    W::Cycle,
                    W::Close,
                ],
                server_write,
            ),
            table(
                &[CWrite::Idle, CWrite::Body, CWrite::Closed],
                &[CW::Head, CW::Data, CW::End, CW::Close],
                client_write,
            ),
            table(
                &[CRead::Head, CRead::Body, CRead::Switched, CRead::Closed],
                &[CR::Info, CR::Response, CR::End, CR::Switch, CR::Close],
                client_read,
            ),
        ]
    }
}
