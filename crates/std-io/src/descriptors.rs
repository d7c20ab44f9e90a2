//! File descriptors: a reserve descriptor that lets the accept loop answer
//! `503` when the process runs out of them. (The connection limit is
//! fitted into the open-file limit by the core's endpoint.)

use std::fs::File;
use std::io;

/// Whether an accept error means the process (or the system) is out of
/// descriptors (`EMFILE`, `ENFILE`).
pub(crate) fn exhausted(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(23 | 24))
}

/// One descriptor kept open (on `/dev/null`) to be given up when the
/// process is out of them, so that the peer at the head of the backlog can
/// still be accepted, answered `503` and closed.
pub(crate) struct Reserve(Option<File>);

impl Reserve {
    pub(crate) fn open() -> Reserve {
        let mut r = Reserve(None);
        r.reopen();
        r
    }
    /// Gives the descriptor up; whether there was one.
    pub(crate) fn release(&mut self) -> bool {
        self.0.take().is_some()
    }
    /// Takes a descriptor again if it has none (it may still fail: then
    /// later).
    pub(crate) fn reopen(&mut self) {
        if self.0.is_none() {
            self.0 = File::open(if cfg!(windows) { "NUL" } else { "/dev/null" }).ok();
        }
    }
}
