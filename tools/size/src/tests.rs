//! The counting rules, each on a small crate given as text.

use std::collections::BTreeMap;

use crate::walk::{count_crate, FileCount, OUT_DIR};

/// Counts a crate given as `(path, text)` pairs from `src/lib.rs` (and
/// `build.rs` when given): each file's count, by path.
fn count(files: &[(&str, &str)]) -> Result<Vec<(String, u64)>, String> {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let mut roots = vec!["src/lib.rs"];
    if files.contains_key("build.rs") {
        roots.push("build.rs");
    }
    let counted = count_crate(&|rel: &str| files.get(rel).cloned(), &roots)?;
    Ok(counted
        .into_iter()
        .map(|FileCount { path, lines }| (path, lines))
        .collect())
}

fn total(files: &[(&str, &str)]) -> u64 {
    count(files).unwrap().iter().map(|(_, n)| n).sum()
}

#[test]
fn comments_of_every_kind_and_blank_lines_are_not_counted() {
    let lib = "//! Crate docs.\n\
               \n\
               /// An item's docs.\n\
               pub fn f() {} // a trailing comment: the line is code\n\
               /* a block\n   over lines */\n\
               /** a doc block */\n\
               /* nested /* inner */ still a comment */\n\
               \t \n\
               const S: &str = \"// not a comment\";\n\
               const R: &str = r#\"/* nor this */\"#;\n\
               fn g() { let _c = '\"'; let _l: &'static str = \"\"; }\n";
    assert_eq!(total(&[("src/lib.rs", lib)]), 4);
}

#[test]
fn lines_inside_a_string_are_code() {
    let lib = "const S: &str = \"one\n\ntwo\n// three\";\n";
    // `one`, `two` and `// three` are in the string; the blank line is not.
    assert_eq!(total(&[("src/lib.rs", lib)]), 3);
}

#[test]
fn test_items_are_not_counted() {
    let lib = "pub fn f() {}\n\
               #[cfg(test)]\n\
               mod tests {\n    #[test]\n    fn t() {}\n}\n\
               #[cfg(test)]\n\
               pub(crate) fn helper(&self) -> usize {\n    1\n}\n\
               #[allow(dead_code)]\n\
               #[cfg(test)]\n\
               #[derive(Debug)]\n\
               struct OnlyInTests {\n    a: u8,\n}\n\
               #[cfg(test)]\n\
               use std::fmt::{\n    Debug,\n    Display,\n};\n\
               pub struct S {\n    #[cfg(test)]\n    count: u64,\n    pub a: u8,\n}\n\
               #[cfg(test)]\n\
               mod tests_file;\n\
               #[cfg(not(test))]\n\
               fn not_in_tests() {}\n\
               #[cfg(any(test, feature = \"x\"))]\n\
               fn also_with_a_feature() {}\n";
    let counted = count(&[
        ("src/lib.rs", lib),
        ("src/tests_file.rs", "fn never_read() {}\n"),
    ])
    .unwrap();
    // f, `pub struct S {`, `pub a: u8,`, `}`, cfg(not(test)) + fn,
    // cfg(any(..)) + fn.
    assert_eq!(counted, [("src/lib.rs".to_string(), 8)]);
}

#[test]
fn a_file_under_an_inner_cfg_test_is_not_counted() {
    let counted = count(&[
        ("src/lib.rs", "mod helpers;\npub fn f() {}\n"),
        (
            "src/helpers.rs",
            "//! Test helpers.\n#![cfg(test)]\npub fn h() {}\n",
        ),
    ])
    .unwrap();
    assert_eq!(
        counted,
        [
            ("src/lib.rs".to_string(), 2),
            ("src/helpers.rs".to_string(), 0)
        ]
    );
}

#[test]
fn a_line_over_100_columns_counts_once_per_100() {
    let line = |width: usize| format!("const A: &str = \"{}\";\n", "x".repeat(width - 19));
    for (width, counts) in [(99, 1), (100, 1), (101, 2), (200, 2), (201, 3), (250, 3)] {
        let text = line(width);
        assert_eq!(text.trim_end().len(), width);
        assert_eq!(total(&[("src/lib.rs", &text)]), counts, "width {width}");
    }
    // Columns are characters, not bytes.
    let wide = format!("const A: &str = \"{}\";\n", "é".repeat(80));
    assert_eq!(total(&[("src/lib.rs", &wide)]), 1);
}

#[test]
fn the_module_tree_is_followed_to_every_file() {
    let counted = count(&[
        (
            "src/lib.rs",
            "mod a;\npub mod b;\nmod inline {\n    mod deep;\n}\n",
        ),
        ("src/a.rs", "mod child;\n"),
        ("src/a/child.rs", "fn c() {}\n"),
        ("src/b/mod.rs", "pub(crate) mod leaf;\n"),
        ("src/b/leaf.rs", "fn l() {}\n"),
        ("src/inline/deep.rs", "fn d() {}\n"),
        ("src/stray.rs", "fn not_a_module() {}\n"),
    ])
    .unwrap();
    let paths: Vec<&str> = counted.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "src/lib.rs",
            "src/a.rs",
            "src/a/child.rs",
            "src/b/mod.rs",
            "src/b/leaf.rs",
            "src/inline/deep.rs"
        ]
    );
}

#[test]
fn path_attributes_name_the_file_and_its_folder() {
    let counted = count(&[
        (
            "src/lib.rs",
            "#[path = \"impls/unix.rs\"]\nmod sys;\nmod a;\n",
        ),
        // A `#[path]` file owns its folder, as `mod.rs` does.
        ("src/impls/unix.rs", "mod helper;\nfn u() {}\n"),
        ("src/impls/helper.rs", "fn h() {}\n"),
        // In a non-`mod.rs` file, relative to the file's folder.
        (
            "src/a.rs",
            "#[path = \"other.rs\"]\nmod o;\nmod inner {\n    #[path = \"x.rs\"]\n    mod x;\n}\n",
        ),
        ("src/other.rs", "fn o() {}\n"),
        // Inside an inline module of `a.rs`: under `a/inner/`.
        ("src/a/inner/x.rs", "fn x() {}\n"),
    ])
    .unwrap();
    let paths: Vec<&str> = counted.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "src/lib.rs",
            "src/impls/unix.rs",
            "src/impls/helper.rs",
            "src/a.rs",
            "src/other.rs",
            "src/a/inner/x.rs"
        ]
    );
    assert_eq!(
        counted.iter().map(|(_, n)| n).sum::<u64>(),
        3 + 2 + 1 + 6 + 1 + 1
    );
}

#[test]
fn included_files_and_build_script_output_are_counted() {
    let counted = count(&[
        (
            "src/lib.rs",
            "mod m;\ninclude!(\"generated/table.rs\");\n\
             include!(concat!(env!(\"OUT_DIR\"), \"/codes.rs\"));\n\
             const V: &str = include_str!(\"../README.md\");\n",
        ),
        (
            "src/m.rs",
            "include!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/data/rows.rs\"));\n",
        ),
        (
            "src/generated/table.rs",
            "const T: [u8; 2] = [\n    1,\n    2,\n];\n",
        ),
        ("data/rows.rs", "const ROWS: u8 = 3;\n"),
        ("build.rs", "fn main() {\n    // writes codes.rs\n}\n"),
        (
            &format!("{OUT_DIR}codes.rs"),
            "const C: u8 = 1;\nconst D: u8 = 2;\n",
        ),
    ])
    .unwrap();
    assert_eq!(
        counted,
        [
            ("src/lib.rs".to_string(), 4),
            ("src/m.rs".to_string(), 1),
            ("data/rows.rs".to_string(), 1),
            ("src/generated/table.rs".to_string(), 4),
            (format!("{OUT_DIR}codes.rs"), 2),
            ("build.rs".to_string(), 2),
        ]
    );
    // README.md is documentation, never read.
}

#[test]
fn a_file_that_cannot_be_read_is_an_error_not_a_panic() {
    let err = count(&[("src/lib.rs", "mod gone;\n")]).unwrap_err();
    assert!(
        err.contains("src/gone/mod.rs") && err.contains("src/lib.rs:1"),
        "{err}"
    );
    let err = count(&[(
        "src/lib.rs",
        "\ninclude!(concat!(env!(\"OUT_DIR\"), \"/x.rs\"));\n",
    )])
    .unwrap_err();
    assert!(
        err.contains("x.rs") && err.contains("src/lib.rs:2"),
        "{err}"
    );
    // Malformed input still counts: unclosed strings, comments, groups.
    for text in [
        "fn f() { \"open",
        "/* open",
        "#[cfg(test)] mod t {",
        "#![",
        "'",
        "r#",
    ] {
        assert!(count(&[("src/lib.rs", text)]).is_ok(), "{text:?}");
    }
}

#[test]
fn thousands_separators() {
    assert_eq!(crate::thousands(0), "0");
    assert_eq!(crate::thousands(999), "999");
    assert_eq!(crate::thousands(4145), "4,145");
    assert_eq!(crate::thousands(1_234_567), "1,234,567");
}

/// A repository with `crates/conn` (3 lines) and `crates/tokio` (1 line).
fn repo() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tool-size-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, lib) in [
        ("conn", "pub fn a() {}\npub fn b() {}\npub fn c() {}\n"),
        ("tokio", "pub fn t() {}\n"),
    ] {
        let src = dir.join("crates").join(name).join("src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(
            dir.join("crates").join(name).join("Cargo.toml"),
            format!("[package]\nname = \"{name}\"\n"),
        )
        .unwrap();
        std::fs::write(src.join("lib.rs"), lib).unwrap();
    }
    dir
}

#[test]
fn bounds_fail_naming_what_is_over_and_missing_crates_show_as_absent() {
    let dir = repo();
    let root = dir.to_string_lossy().into_owned();
    let sizes = crate::measure(&dir).unwrap();
    assert_eq!(sizes.lines("conn"), Some(3));
    assert_eq!(sizes.lines("std-io"), None);
    assert_eq!(sizes.sum(&["conn", "tokio"]), Some(4));
    let table = crate::table(&sizes, false);
    assert!(
        table.contains("\nconn                         3      1\n"),
        "{table}"
    );
    assert!(
        table.contains("\nstd-io                       -      -\n"),
        "{table}"
    );
    let json = crate::json(&sizes);
    assert!(
        json.contains("\"conn\": {\"lines\": 3, \"files\": 1}"),
        "{json}"
    );
    assert!(json.contains("\"std-io\": null"), "{json}");
    let run = |extra: &[&str]| {
        let mut args = vec!["--root".to_string(), root.clone()];
        args.extend(extra.iter().map(|a| a.to_string()));
        crate::main(&args)
    };
    assert_eq!(run(&["--max", "conn=3", "--max", "tokio=1"]), Ok(()));
    let err = run(&["--max", "conn=2", "--max", "tokio=1"]).unwrap_err();
    assert!(err.contains("conn: 3 lines, over its bound of 2"), "{err}");
    assert!(!err.contains("tokio"), "{err}");
    // A sum with a crate the tree lacks cannot be held to a bound.
    let err = run(&["--max-sum", "std-io+tokio=10"]).unwrap_err();
    assert!(err.contains("std-io + tokio"), "{err}");
    assert!(run(&["--max", "nope=1"])
        .unwrap_err()
        .contains("not a library crate"));
    assert!(run(&["--max-sum", "conn+tokio=1"])
        .unwrap_err()
        .contains("not a sum"));
    assert!(run(&["--max", "conn"]).unwrap_err().contains("NAME=N"));
    assert!(run(&["--bogus"]).unwrap_err().contains("unknown argument"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bounds_holds_each_committed_bound_as_a_crates_or_a_sums() {
    let o = crate::parse(&["--bounds".to_string()]).unwrap();
    assert_eq!(o.max.len() + o.max_sum.len(), crate::BOUNDS.len());
    assert!(o.max.contains(&("head".to_string(), 2_182)));
    assert!(o.max_sum.contains(&("std-io + tokio".to_string(), 5_500)));
    for (name, _) in &o.max_sum {
        assert!(crate::sum_named(name).is_some(), "{name}");
    }
}
