//! `cargo xtask conformance [--check]`: the requirements matrix.
//!
//! The inventory, `tools/conformance/data/requirements.tsv`, lists every MUST, MUST NOT,
//! SHOULD and SHOULD NOT of RFC 9112 and those of RFC 9110 that bear on
//! messages, framing and connections: one row each, with the anchor of its
//! paragraph in the RFC's HTML, a summary, and for a requirement no library
//! test can prove, why (`n/a`: it does not apply to a library, such as a
//! proxy's rule; `app`: it is left to the application).
//!
//! Below the requirements, policy rows (`rfc` column `policy`, id
//! `policy-<name>`) list what the library chooses where the RFCs leave it
//! free: each with the setting that switches it (the `keyword` column: a
//! builder or `Config` method, or `default` for a fixed choice), the RFC
//! section it rests on (`anchor`: `<rfc>#section-X.Y`), and what happens
//! with the setting on and off. A policy row always needs a test, which
//! shows both.
//!
//! Tests name the requirements they prove with a comment line right above
//! them, `// proves: 9112-6.3-2.4, 9110-5.5-5`:
//!
//! - above a `#[test]` or `#[tokio::test]` (or its attributes) in a test
//!   target file
//!   `crates/<crate>/tests/<target>.rs`: that test;
//! - above a row of a conformance table (`crates/head/tests/cases/mod.rs`,
//!   `crates/framing/tests/cases/mod.rs`): that row, whose result is the one
//!   of the test that runs the table (`TABLES` in `tags.rs`).
//!
//! Without `--check`, the command runs `cargo test --workspace`, reads each
//! test's `test <name> ... ok` line (mapped to its crate and target through
//! the test executables cargo reports), and writes `docs/CONFORMANCE.md`:
//! every requirement, its tests and their results, or its reason; then the
//! results of the tagged tests. With `--check` no test runs: the file is
//! rendered again from the inventory, the tags and the results recorded in
//! it, and the command fails when that differs from the file (stale), when a
//! requirement has neither a test nor a reason, when a tag names an id the
//! inventory lacks or a test without a recorded result, or when a recorded
//! result is not `ok`. It is cheap enough for `.ci/run`, after the tests.
//! With `--recorded` the file is written again from the recorded results,
//! without running the tests (after editing a summary or a reason).

mod inventory;
mod render;
mod results;
mod tags;

use std::fs;

use tool_support::process::{self, Result};

use inventory::{read_inventory, Req, Scope, INVENTORY};
use render::render;
use results::{recorded_results, resolve, run_tests};
use tags::{scan_tags, validate};

/// The generated matrix, relative to the repository root.
const DOC: &str = "docs/CONFORMANCE.md";
/// The hand-written part: where an external suite expects another answer.
const DIVERGENCES: &str = "tools/conformance/data/divergences.md";

/// The command: `cargo xtask conformance [--check | --recorded]`.
pub fn main(args: &[String]) -> Result {
    let (check, rerun) = match args {
        [] => (false, true),
        [a] if a == "--check" => (true, false),
        [a] if a == "--recorded" => (false, false),
        _ => return Err("usage: cargo xtask conformance [--check | --recorded]".into()),
    };
    let root = process::root();
    let reqs = read_inventory(&root.join(INVENTORY))?;
    let tags = scan_tags(&root)?;
    let mut problems = validate(&reqs, &tags);
    let doc_path = root.join(DOC);
    let results = if rerun {
        run_tests(&root)?
    } else {
        let old = fs::read_to_string(&doc_path)
            .map_err(|e| format!("{DOC}: {e} (run `cargo xtask conformance`)"))?;
        recorded_results(&old)
    };
    let resolved = resolve(&tags, &results, &mut problems);
    let divergences =
        fs::read_to_string(root.join(DIVERGENCES)).map_err(|e| format!("{DIVERGENCES}: {e}"))?;
    let doc = render(&reqs, &tags, &resolved, &divergences);
    for (key, result) in &resolved {
        if result != "ok" {
            problems.push(format!("{key}: {result}"));
        }
    }
    let untested: Vec<&Req> = reqs
        .iter()
        .filter(|r| r.scope == Scope::Library && !tags.iter().any(|t| t.ids.contains(&r.id)))
        .collect();
    if check {
        let old = fs::read_to_string(&doc_path).unwrap_or_default();
        if old != doc {
            problems.push(format!(
                "{DOC} is stale: run `cargo xtask conformance` and commit it"
            ));
        }
    } else {
        fs::write(&doc_path, &doc).map_err(|e| format!("{DOC}: {e}"))?;
        eprintln!("xtask: wrote {DOC}");
    }
    for r in &untested {
        let msg = format!(
            "{} ({} {}) has neither a test nor a reason",
            r.id, r.keyword, r.summary
        );
        if check {
            problems.push(msg);
        } else {
            eprintln!("xtask: untested: {msg}");
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        for p in &problems {
            eprintln!("xtask: conformance: {p}");
        }
        Err(format!("conformance: {} problem(s)", problems.len()))
    }
}

#[cfg(test)]
mod tests;
