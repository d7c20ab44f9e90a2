//! The inventory's checks, the tags, the results and the rendered file.

use std::collections::BTreeMap;

use crate::inventory::{parse_inventory, Scope};
use crate::render::{render, DIVERGENCES_HEADING};
use crate::results::{full_name, parse_test_output, recorded_results, RESULTS_HEADING};
use crate::tags::{scan_file, validate};

const INV: &str = "# comment\n\
    9112-6.3-2.4\t9112\tsection-6.3-2.4\tMUST\tsummary a\t\t\n\
    9112-6.1-15\t9112\tsection-6.1-15\tMUST\tsummary b\t\t\n\
    9110-7.6.1-5\t9110\tsection-7.6.1-5\tMUST\tsummary c\tn/a\ta proxy's rule\n";

#[test]
fn the_inventory_is_checked_row_by_row() {
    let reqs = parse_inventory(INV).unwrap();
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[2].scope, Scope::NotApplicable);
    for bad in [
        // The id does not match the anchor.
        "9112-6.3-2.5\t9112\tsection-6.3-2.4\tMUST\ts\t\t\n",
        // An unknown keyword, scope, a missing reason, a duplicate.
        "9112-6.3-2.4\t9112\tsection-6.3-2.4\tMAY\ts\t\t\n",
        "9112-6.3-2.4\t9112\tsection-6.3-2.4\tMUST\ts\tlater\tx\n",
        "9112-6.3-2.4\t9112\tsection-6.3-2.4\tMUST\ts\tapp\t\n",
        "9112-6.1-15\t9112\tsection-6.1-15\tMUST\ts\t\t\n9112-6.1-15\t9112\tsection-6.1-15\tMUST\ts\t\t\n",
        "9112-6.1-15\t9112\tsection-6.1-15\tMUST\n",
        // Policy rows: the id, the anchor, the setting, a test required.
        "front-x\tpolicy\t9112#section-6.3\tfront_line\ts\t\t\n",
        "policy-x\tpolicy\tsection-6.3\tfront_line\ts\t\t\n",
        "policy-x\tpolicy\t9112#6.3\tfront_line\ts\t\t\n",
        "policy-x\tpolicy\t9112#section-6.3\tFront Line\ts\t\t\n",
        "policy-x\tpolicy\t9112#section-6.3\t\ts\t\t\n",
        "policy-x\tpolicy\t9112#section-6.3\tfront_line\ts\tapp\tlater\n",
    ] {
        assert!(parse_inventory(bad).is_err(), "{bad:?}");
    }
    let policy = "policy-x\tpolicy\t3986#section-7.3\tfront_line\ton: no; off: yes\t\t\n";
    let reqs = parse_inventory(policy).unwrap();
    assert_eq!(
        (reqs[0].rfc.as_str(), reqs[0].scope),
        ("policy", Scope::Library)
    );
}

#[test]
fn tags_name_tests_and_table_rows() {
    let test_file = "use x;\n\
        // proves: 9112-6.3-2.4, 9112-6.1-15\n\
        #[test]\n\
        #[ignore]\n\
        fn one() {}\n\
        /// A doc comment.\n\
        // proves: 9110-7.6.1-5\n\
        #[test]\n\
        fn two() {}\n\
        // proves: 9110-7.6.1-5\n\
        #[tokio::test]\n\
        async fn three() {}\n";
    let mut tags = Vec::new();
    scan_file("crates/conn/tests/server.rs", test_file, &mut tags).unwrap();
    assert_eq!(tags.len(), 3);
    assert_eq!(tags[2].test, "conn/server::three");
    assert_eq!(tags[0].ids, ["9112-6.3-2.4", "9112-6.1-15"]);
    assert_eq!(tags[0].test, "conn/server::one");
    assert_eq!(tags[1].test, "conn/server::two");
    assert_eq!(tags[0].row, None);

    let table = "const CL: &[u8] = b\"Content-Length\";\n\
        pub const LENGTH_CASES: &[LengthCase] = &[\n\
        \x20   // proves: 9112-6.1-15\n\
        \x20   req(\"C01 CL then TE\", \"RFC 9112 \\u{a7}6.3\", &[], NoBody),\n\
        ];\n\
        pub const TRAILER_CASES: &[ChunkCase] = &[\n\
        \x20   // proves: 9112-6.3-2.4\n\
        \x20   ChunkCase {\n\
        \x20       name: \"one trailer\",\n\
        \x20   },\n\
        ];\n";
    let mut tags = Vec::new();
    scan_file("crates/framing/tests/cases/mod.rs", table, &mut tags).unwrap();
    assert_eq!(tags[0].test, "framing/conformance::length_rows");
    assert_eq!(tags[0].row.as_deref(), Some("C01 CL then TE"));
    assert_eq!(tags[1].test, "framing/conformance::trailer_rows");
    assert_eq!(tags[1].row.as_deref(), Some("one trailer"));

    // Above something that is neither a test nor a row; a helper that
    // is not a test; a test outside its target file; no id.
    for (file, text) in [
        (
            "crates/conn/tests/server.rs",
            "// proves: 9112-6.1-15\nuse x;\n",
        ),
        (
            "crates/conn/tests/server.rs",
            "// proves: 9112-6.1-15\nfn helper() {}\n",
        ),
        (
            "crates/conn/tests/common/mod.rs",
            "// proves: 9112-6.1-15\n#[test]\nfn t() {}\n",
        ),
        (
            "crates/conn/tests/server.rs",
            "// proves:\n#[test]\nfn t() {}\n",
        ),
    ] {
        assert!(scan_file(file, text, &mut Vec::new()).is_err(), "{text:?}");
    }
}

#[test]
fn unknown_ids_are_reported() {
    let reqs = parse_inventory(INV).unwrap();
    let mut tags = Vec::new();
    scan_file(
        "crates/conn/tests/server.rs",
        "// proves: 9112-6.1-15, 9999-1-1\n#[test]\nfn t() {}\n",
        &mut tags,
    )
    .unwrap();
    let problems = validate(&reqs, &tags);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("9999-1-1"), "{problems:?}");
}

#[test]
fn test_output_is_read_per_executable() {
    let exes = BTreeMap::from([
        (
            "conformance-aaaa".to_string(),
            "head/conformance".to_string(),
        ),
        (
            "conformance-bbbb".to_string(),
            "framing/conformance".to_string(),
        ),
    ]);
    let log = "   Compiling x\n\
        \x20    Running tests/conformance.rs (target/debug/deps/conformance-aaaa)\n\
        running 2 tests\n\
        test conformance_table ... ok\n\
        test slow::one ... ignored, needs a peer\n\
        \x20    Running tests/conformance.rs (target/debug/deps/conformance-bbbb)\n\
        test length_rows ... FAILED\n\
        \x20  Doc-tests http_net_head\n\
        test crates/head/src/lib.rs - (line 5) ... ok\n";
    let results = parse_test_output(log, &exes);
    assert_eq!(
        results,
        BTreeMap::from([
            ("head/conformance::conformance_table".into(), "ok".into()),
            ("head/conformance::slow::one".into(), "ignored".into()),
            ("framing/conformance::length_rows".into(), "FAILED".into()),
        ])
    );
    assert_eq!(
        full_name("head/conformance::one", &results).unwrap(),
        "head/conformance::slow::one"
    );
    assert!(full_name("head/conformance::two", &results).is_err());
}

#[test]
fn rendered_results_read_back_and_reasons_show() {
    let reqs = parse_inventory(INV).unwrap();
    let mut tags = Vec::new();
    scan_file(
        "crates/conn/tests/server.rs",
        "// proves: 9112-6.1-15\n#[test]\nfn t() {}\n",
        &mut tags,
    )
    .unwrap();
    let resolved = BTreeMap::from([("conn/server::t".to_string(), "ok".to_string())]);
    let doc = render(&reqs, &tags, &resolved, "");
    assert_eq!(recorded_results(&doc), resolved);
    assert!(doc.contains("`conn/server::t`: ok"), "{doc}");
    assert!(doc.contains("Does not apply: a proxy's rule"), "{doc}");
    let untested = doc.lines().find(|l| l.contains("[9112-6.3-2.4]")).unwrap();
    assert!(untested.ends_with("| **Untested** |"), "{untested}");
    assert!(doc.contains("| RFC 9112 | 2 | 1 | 0 | 0 | 1 |"), "{doc}");
}

#[test]
fn policies_render_with_their_setting_section_and_tests() {
    let inv = format!(
        "{INV}policy-a\tpolicy\t3986#section-7.3\tfront_line\ton: 400; off: kept\t\t\n\
         policy-b\tpolicy\t9110#section-9.3.6\ttunnels\toff: 501\t\t\n"
    );
    let reqs = parse_inventory(&inv).unwrap();
    let mut tags = Vec::new();
    scan_file(
        "crates/conn/tests/server.rs",
        "// proves: policy-a\n#[test]\nfn t() {}\n",
        &mut tags,
    )
    .unwrap();
    assert!(validate(&reqs, &tags).is_empty());
    let resolved = BTreeMap::from([("conn/server::t".to_string(), "ok".to_string())]);
    let doc = render(&reqs, &tags, &resolved, "");
    assert!(doc.contains("| Policies | 2 | 1 | 0 | 0 | 1 |"), "{doc}");
    assert!(
        doc.contains(
            "| policy-a | `front_line` | on: 400; off: kept | \
             [RFC 3986 §7.3](https://www.rfc-editor.org/rfc/rfc3986.html#section-7.3) | \
             `conn/server::t`: ok |"
        ),
        "{doc}"
    );
    let b = doc.lines().find(|l| l.starts_with("| policy-b ")).unwrap();
    assert!(b.ends_with("| **Untested** |"), "{b}");
}

#[test]
fn the_hand_written_divergences_come_before_the_results_and_stay_out_of_them() {
    let reqs = parse_inventory(INV).unwrap();
    let resolved = BTreeMap::from([("conn/server::t".to_string(), "ok".to_string())]);
    let part = "| Suite and case | Why |\n|---|---|\n| `X` | RFC 9112 §3 |\n";
    let doc = render(&reqs, &[], &resolved, part);
    let at = doc.find(DIVERGENCES_HEADING).expect("the heading");
    let results = doc.find(RESULTS_HEADING).unwrap();
    assert!(at < results, "{doc}");
    assert!(doc[at..results].contains("| `X` | RFC 9112 §3 |"), "{doc}");
    assert_eq!(recorded_results(&doc), resolved);
    // Without it, no heading.
    assert!(!render(&reqs, &[], &resolved, "").contains(DIVERGENCES_HEADING));
}
