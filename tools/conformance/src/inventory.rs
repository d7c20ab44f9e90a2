//! The inventory: one row per requirement of the RFCs, and per policy.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use tool_support::process::Result;

/// The inventory, relative to the repository root.
pub(crate) const INVENTORY: &str = "tools/conformance/data/requirements.tsv";
/// The `rfc` column of a policy row.
pub(crate) const POLICY: &str = "policy";

/// Who a requirement is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The library's: a test must prove it.
    Library,
    /// Does not apply to a library (a proxy's, a cache's, a registry's rule).
    NotApplicable,
    /// Left to the application that uses the library.
    Application,
}

/// One inventory row.
#[derive(Debug)]
pub(crate) struct Req {
    pub(crate) id: String,
    pub(crate) rfc: String,
    pub(crate) anchor: String,
    pub(crate) keyword: String,
    pub(crate) summary: String,
    pub(crate) scope: Scope,
    pub(crate) note: String,
}

pub(crate) fn read_inventory(path: &Path) -> Result<Vec<Req>> {
    let text = fs::read_to_string(path).map_err(|e| format!("{INVENTORY}: {e}"))?;
    parse_inventory(&text)
}

pub(crate) fn parse_inventory(text: &str) -> Result<Vec<Req>> {
    let mut reqs = Vec::new();
    let mut seen = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let at = || format!("{INVENTORY}:{}", n + 1);
        let cols: Vec<&str> = line.split('\t').collect();
        let [id, rfc, anchor, keyword, summary, scope, note] = cols[..] else {
            return Err(format!("{}: expected 7 tab-separated columns", at()));
        };
        let scope = match scope {
            "" => Scope::Library,
            "n/a" => Scope::NotApplicable,
            "app" => Scope::Application,
            other => return Err(format!("{}: unknown scope {other:?}", at())),
        };
        if scope != Scope::Library && note.is_empty() {
            return Err(format!("{}: {id} needs a reason", at()));
        }
        if rfc == POLICY {
            let (on, section) = anchor.split_once('#').unwrap_or(("", ""));
            let setting_ok = !keyword.is_empty()
                && keyword
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !id.starts_with("policy-")
                || on.is_empty()
                || !on.bytes().all(|b| b.is_ascii_digit())
                || !section.starts_with("section-")
            {
                return Err(format!(
                    "{}: policy {id}: id policy-<name>, anchor <rfc>#section-X.Y",
                    at()
                ));
            }
            if !setting_ok {
                return Err(format!(
                    "{}: policy {id}: unknown setting {keyword:?}",
                    at()
                ));
            }
            if scope != Scope::Library {
                return Err(format!(
                    "{}: policy {id} is the library's: it needs a test",
                    at()
                ));
            }
        } else if !matches!(keyword, "MUST" | "MUST NOT" | "SHOULD" | "SHOULD NOT") {
            return Err(format!("{}: unknown keyword {keyword:?}", at()));
        } else if !id.starts_with(&format!("{rfc}-"))
            || !anchor.starts_with("section-")
            || !id.starts_with(&format!("{rfc}-{}", &anchor["section-".len()..]))
        {
            return Err(format!("{}: id {id} does not match {rfc} {anchor}", at()));
        }
        if !seen.insert(id.to_string()) {
            return Err(format!("{}: duplicate id {id}", at()));
        }
        reqs.push(Req {
            id: id.into(),
            rfc: rfc.into(),
            anchor: anchor.into(),
            keyword: keyword.into(),
            summary: summary.into(),
            scope,
            note: note.into(),
        });
    }
    Ok(reqs)
}
