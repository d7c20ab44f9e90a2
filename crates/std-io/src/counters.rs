//! What the server counts is the core's [`Counters`](http_net_conn::Counters)
//! (one type for both servers), added to through its
//! [`LiveCounters`](http_net_conn::driver::LiveCounters); here only how a slot marks
//! the stage it was evicted in, as a byte.

use http_net_conn::Stage;

/// The stages a server connection is counted in, by their mark's index.
const STAGES: [Stage; 5] = [
    Stage::Idle,
    Stage::Head,
    Stage::Body,
    Stage::Write,
    Stage::Setup,
];

/// The mark of `stage` (never 0: 0 is "not evicted").
pub(crate) fn mark(stage: Stage) -> u8 {
    let i = STAGES.iter().position(|&s| s == stage).unwrap_or(0);
    i as u8 + 1
}

/// The stage a mark stands for (`None` for 0).
pub(crate) fn marked(v: u8) -> Option<Stage> {
    STAGES.get(usize::from(v).checked_sub(1)?).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_gives_its_stage_back() {
        for s in STAGES {
            assert_eq!(marked(mark(s)), Some(s));
        }
        assert_eq!(marked(0), None);
    }
}
