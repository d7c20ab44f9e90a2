//! Writing a command's report into a section of a markdown file, between
//! `<!-- xtask:NAME:begin -->` and `<!-- xtask:NAME:end -->`, so that
//! `compare` and `compare sockets` each replace only their own table.

use std::path::Path;

use crate::process::Result;

/// Replaces (or appends) section `name` of the file at `path` with `body`.
pub fn write_section(path: &Path, name: &str, body: &str) -> Result {
    let begin = format!("<!-- xtask:{name}:begin -->");
    let end = format!("<!-- xtask:{name}:end -->");
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let section = format!("{begin}\n{}\n{end}", body.trim_end());
    let new = match (old.find(&begin), old.find(&end)) {
        (Some(b), Some(e)) if e > b => {
            format!("{}{section}{}", &old[..b], &old[e + end.len()..])
        }
        _ => {
            let mut s = old;
            if !s.is_empty() && !s.ends_with("\n\n") {
                s.push('\n');
            }
            s.push_str(&section);
            s.push('\n');
            s
        }
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, new).map_err(|e| format!("{}: {e}", path.display()))
}

/// The section of `docs/PERFORMANCE.md` that opens it: one table of every
/// goal of SPEC §4 (H1–H6), filled from the goal tables the `library`
/// (`cargo xtask compare`) and `sockets` (`compare sockets`) sections hold.
pub const GOALS_SECTION: &str = "goals";

/// The H6 goals of SPEC §4 (id, target), in the opening table's order:
/// `compare sockets` measures them, `compare goals` lists them after H1-H5.
pub const H6_GOALS: [(&str, &str); 7] = [
    ("H6 pipelined, http-net-tokio", PIPELINED_TARGET),
    ("H6 pipelined, http-net", PIPELINED_TARGET),
    (
        "H6 16 connections, http-net-tokio",
        "1.2x hyper's requests/s",
    ),
    (
        "H6 1 connection, http-net-tokio",
        "at least hyper's requests/s",
    ),
    ("H6 16 connections, http-net", STD_REPORTED),
    ("H6 1 connection, http-net", STD_REPORTED),
    ("H6 axum", "axum on http-net-tower at least axum on hyper"),
];

const PIPELINED_TARGET: &str = "more requests per server CPU-second than may_minihttp";
const STD_REPORTED: &str = "reported beside the tokio adapter (no target of its own)";

/// One goal in a command's goal table and in the opening table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalRow {
    /// The goal's name (`H1`, `H5 lean loop`, ...): the key that joins a
    /// command's table to the opening one.
    pub id: String,
    /// The target, as SPEC §4 states it.
    pub target: String,
    /// The measured figure.
    pub measured: String,
    /// `met`, `not met (gap)`, or what stands in for it.
    pub status: String,
    /// The issue 26 gate on this goal, with whether the figure passes it
    /// (`—` when the goal has none).
    pub gate: String,
}

/// The header of every goal table (the commands' and the opening one).
pub const GOAL_TABLE_HEAD: &str =
    "| goal | target (SPEC §4) | measured | status | gate (issue 26) |\n|---|---|---|---|---|\n";

/// A goal table: [`GOAL_TABLE_HEAD`] and one line per row.
pub fn goal_table(rows: &[GoalRow]) -> String {
    let mut s = String::from(GOAL_TABLE_HEAD);
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.id, r.target, r.measured, r.status, r.gate
        ));
    }
    s
}

/// The goal rows of a goal table in `text` (a section a command wrote):
/// the lines after [`GOAL_TABLE_HEAD`] up to the first that is not a row.
pub fn parse_goal_rows(text: &str) -> Vec<GoalRow> {
    let Some(at) = text.find(GOAL_TABLE_HEAD) else {
        return Vec::new();
    };
    text[at + GOAL_TABLE_HEAD.len()..]
        .lines()
        .map_while(|l| {
            let cells: Vec<&str> = l
                .strip_prefix("| ")?
                .strip_suffix(" |")?
                .split(" | ")
                .collect();
            match cells[..] {
                [id, target, measured, status, gate] => Some(GoalRow {
                    id: id.into(),
                    target: target.into(),
                    measured: measured.into(),
                    status: status.into(),
                    gate: gate.into(),
                }),
                _ => None,
            }
        })
        .collect()
}

/// The text between a section's markers in `doc` (`None` without them).
pub fn section<'a>(doc: &'a str, name: &str) -> Option<&'a str> {
    let begin = format!("<!-- xtask:{name}:begin -->");
    let end = format!("<!-- xtask:{name}:end -->");
    let b = doc.find(&begin)? + begin.len();
    let e = doc[b..].find(&end)? + b;
    Some(&doc[b..e])
}

/// What a command's section says of its run: the `Measured DATE on HOST,
/// http-net COMMIT.` line's date and commit.
fn measured_at(section: &str) -> Option<(String, String)> {
    let line = section.lines().find(|l| l.starts_with("Measured "))?;
    let date = line
        .strip_prefix("Measured ")?
        .split(" on ")
        .next()?
        .to_string();
    let commit = line
        .rsplit("http-net ")
        .next()?
        .trim_end_matches('.')
        .to_string();
    Some((date, commit))
}

/// The opening table from `doc`'s command sections: every goal of
/// `goals` (id and SPEC target, in order) with the figure, status and gate
/// of the section row of the same id and the same target; a goal no
/// section measured at that target reads "not measured". The sentence
/// above it names each section's run (date, commit) and says when they are
/// not one commit.
pub fn opening_table(doc: &str, goals: &[(&str, &str)]) -> String {
    let sources = [
        ("library", "`cargo xtask compare`"),
        ("sockets", "`cargo xtask compare sockets`"),
    ];
    let mut rows: Vec<GoalRow> = Vec::new();
    let mut runs = Vec::new();
    for (name, command) in sources {
        let Some(text) = section(doc, name) else {
            continue;
        };
        // A section written before this table's format has no rows here,
        // and its run is not one of this table's.
        let found = parse_goal_rows(text);
        if let (Some((date, commit)), false) = (measured_at(text), found.is_empty()) {
            runs.push((command, date, commit));
        }
        rows.extend(found);
    }
    let table: Vec<GoalRow> = goals
        .iter()
        .map(|(id, target)| {
            rows.iter()
                .find(|r| r.id == *id && r.target == *target)
                .cloned()
                .unwrap_or_else(|| GoalRow {
                    id: id.to_string(),
                    target: target.to_string(),
                    measured: "not measured".into(),
                    status: "—".into(),
                    gate: "—".into(),
                })
        })
        .collect();
    let mut s = String::from(
        "Every performance goal of the specification (H1–H6), its target, the figure measured and whether it is met, with the gates of issue 26. Written by `cargo xtask compare goals` (and after every guarded `compare` and `compare sockets` run) from the goal tables of the two sections under \"Latest results\"; a goal whose section holds no row at this target reads \"not measured\".\n\n",
    );
    if runs.is_empty() {
        s.push_str("No guarded run is recorded at these goals yet.\n\n");
    } else {
        let list: Vec<String> = runs
            .iter()
            .map(|(c, d, k)| format!("{c} at `{k}` ({d})"))
            .collect();
        s.push_str(&format!("Runs: {}.", list.join("; ")));
        let first = runs[0].2.trim_end_matches("+dirty");
        if runs.iter().any(|r| r.2.trim_end_matches("+dirty") != first) {
            s.push_str(" **Not one commit**: read each row against its run.");
        }
        s.push_str("\n\n");
    }
    s.push_str(&goal_table(&table));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, target: &str, measured: &str) -> GoalRow {
        GoalRow {
            id: id.into(),
            target: target.into(),
            measured: measured.into(),
            status: "met".into(),
            gate: "—".into(),
        }
    }

    #[test]
    fn goal_rows_read_back_as_written() {
        let rows = vec![
            row("H1", "1.2x httparse", "1.45x"),
            row("H2", "2.4x", "1.3x"),
        ];
        let text = format!("before\n\n{}\nafter | a | b |\n", goal_table(&rows));
        assert_eq!(parse_goal_rows(&text), rows);
        assert!(parse_goal_rows("no table").is_empty());
    }

    #[test]
    fn the_opening_table_joins_both_sections_by_goal_and_target() {
        let library = format!(
            "Measured 2026-12-06 07:00 UTC on host, http-net abc1234.\n\n{}",
            goal_table(&[
                row("H1", "1.2x httparse", "1.45x"),
                row("H2", "5x (an older target)", "1.3x"),
            ])
        );
        let sockets = format!(
            "Measured 2026-12-06 07:30 UTC on host, http-net abc1234+dirty.\n\n{}",
            goal_table(&[row(
                "H6 1 connection, http-net-tokio",
                "at least hyper's",
                "1.01x"
            )])
        );
        let doc = format!(
            "# P\n<!-- xtask:library:begin -->\n{library}<!-- xtask:library:end -->\n<!-- xtask:sockets:begin -->\n{sockets}<!-- xtask:sockets:end -->\n"
        );
        let goals = [
            ("H1", "1.2x httparse"),
            ("H2", "2.4x"),
            ("H6 1 connection, http-net-tokio", "at least hyper's"),
        ];
        let t = opening_table(&doc, &goals);
        assert!(
            t.contains("| H1 | 1.2x httparse | 1.45x | met | — |"),
            "{t}"
        );
        // Measured at another target: not this goal's figure.
        assert!(t.contains("| H2 | 2.4x | not measured | — | — |"), "{t}");
        assert!(
            t.contains("| H6 1 connection, http-net-tokio | at least hyper's | 1.01x |"),
            "{t}"
        );
        assert!(!t.contains("Not one commit"), "{t}");
        let other = doc.replace("abc1234+dirty", "def5678");
        assert!(opening_table(&other, &goals).contains("**Not one commit**"));
        let blank = opening_table("# P\n", &goals);
        assert!(blank.contains("No guarded run is recorded"), "{blank}");
        assert_eq!(blank.matches("| not measured |").count(), 3, "{blank}");
        // A section in an older format: no rows, and its run is not cited.
        let old = "<!-- xtask:library:begin -->\nMeasured 2026-12-02 11:47 UTC on host, http-net 7ef31ca.\n\n| goal | target | measured | status |\n|---|---|---|---|\n| H1 | 1.2x httparse | 1.45x | met |\n<!-- xtask:library:end -->\n";
        let t = opening_table(old, &goals);
        assert!(t.contains("No guarded run is recorded"), "{t}");
        assert!(!t.contains("7ef31ca"), "{t}");
    }
}
