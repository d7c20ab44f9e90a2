//! What the workshop's commands share: running programs and reading their
//! output ([`process`]), and their `--name value` arguments ([`args`]).
//! Used by `xtask` and the tools it runs; never published.

pub mod args;
pub mod process;
