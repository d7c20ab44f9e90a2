//! The step before an adapter's next read, with the order of the slot mark
//! and the stop check (mark first, then look at the stop) kept in one place.

use crate::driver::{NextRead, SlotState};
use crate::{Stage, Timestamp};

/// What the adapter does before its next read, once [`NextRead::step`] has
/// marked its slot and looked at a graceful stop.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadStep {
    /// Read, waiting at most until `until`; a wait that reaches it is a
    /// timeout of `stage` (as for [`NextRead::Wait`]).
    Read {
        /// The deadline.
        until: Timestamp,
        /// What times out at `until`.
        stage: Stage,
    },
    /// A graceful stop closes the connection (an idle or draining one)
    /// rather than wait: close it without a response.
    Stopped,
    /// Not a wait: as the [`NextRead`] says (`Expired`,
    /// `Linger`, or one a later version adds).
    Other(NextRead),
}

impl NextRead {
    /// For [`NextRead::Wait`]: marks the connection's slot with `mark`
    /// (what it shows while it waits), then, when a stop closes this wait,
    /// asks `stopping` whether a graceful stop is under way. In that order,
    /// so that a stop made after the mark is seen by the wake of the marked
    /// slot and one made before it is seen here. Any other `NextRead` is
    /// [`ReadStep::Other`], with neither asked.
    ///
    /// ```
    /// use http_net_conn::{Stage, Timestamp};
    /// use http_net_conn::driver::{NextRead, ReadStep, SlotState};
    ///
    /// let until = Timestamp::from_nanos(30_000_000_000);
    /// let wait = NextRead::Wait { until, stage: Stage::Idle, slot: SlotState::Idle, stop_closes: true };
    /// let mut marked = None;
    /// assert_eq!(wait.step(|s| marked = Some(s), || true), ReadStep::Stopped);
    /// assert_eq!(marked, Some(SlotState::Idle));
    /// assert_eq!(
    ///     wait.step(|_| {}, || false),
    ///     ReadStep::Read { until, stage: Stage::Idle }
    /// );
    /// // A wait a stop does not close (a request in progress) reads on.
    /// let body = NextRead::Wait { until, stage: Stage::Body, slot: SlotState::Handler, stop_closes: false };
    /// assert_eq!(body.step(|_| {}, || true), ReadStep::Read { until, stage: Stage::Body });
    /// assert_eq!(
    ///     NextRead::Linger.step(|_| unreachable!(), || unreachable!()),
    ///     ReadStep::Other(NextRead::Linger)
    /// );
    /// ```
    pub fn step(self, mark: impl FnOnce(SlotState), stopping: impl FnOnce() -> bool) -> ReadStep {
        match self {
            NextRead::Wait {
                until,
                stage,
                slot,
                stop_closes,
            } => {
                mark(slot);
                if stop_closes && stopping() {
                    ReadStep::Stopped
                } else {
                    ReadStep::Read { until, stage }
                }
            }
            other => ReadStep::Other(other),
        }
    }
}
