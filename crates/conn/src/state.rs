//! The connection state machines as tables (STYLE §1): each half of each
//! connection has a data-free state kind, and one exhaustive `match` lists
//! every legal move. A cell that is not listed is a misuse (`WrongState`) or,
//! for the peer's moves, cannot happen. The connections keep the data that
//! goes with a state (the body decoder or encoder) in their own enums and
//! check every move against these tables; `docs/ARCHITECTURE.md` prints them.

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

/// The tables rendered as Markdown (`docs/ARCHITECTURE.md` holds them; a test
/// checks the two agree).
#[cfg(test)]
mod render {
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

    pub(super) fn all() -> [String; 4] {
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

    #[test]
    fn the_architecture_doc_shows_these_tables() {
        let doc = include_str!("../../../docs/ARCHITECTURE.md");
        let tables = all();
        for t in &tables {
            assert!(
                doc.contains(t.as_str()),
                "docs/ARCHITECTURE.md lacks (or has an old copy of):\n{}",
                tables.join("\n@@\n")
            );
        }
    }
}
