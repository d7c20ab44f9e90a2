//! The outcome of a parse step: done, or more input needed.

/// The outcome of a parse step that did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parsed<T> {
    /// The whole item was parsed.
    Complete(T),
    /// More input is needed; call again with the same buffer extended.
    Partial,
}
