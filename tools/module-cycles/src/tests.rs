//! The graph of small crates given as text.

use std::collections::BTreeMap;

use crate::graph::{display, Graph};
use crate::krate::load;
use crate::tokens::{tokenize, Tok};

/// The graph of a crate given as `(path relative to src/, text)` pairs.
fn graph(files: &[(&str, &str)]) -> Graph {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    load(&|rel: &str| files.get(rel).cloned(), "lib.rs").graph()
}

fn edges(g: &Graph) -> Vec<String> {
    let mut out = Vec::new();
    for (from, tos) in &g.edges {
        for to in tos.keys() {
            out.push(format!("{} -> {}", display(from), display(to)));
        }
    }
    out
}

#[test]
fn a_cycle_through_nested_uses_is_found_with_its_evidence() {
    let g = graph(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        (
            "a.rs",
            "use crate::{b::{self as bee, f, g as h}};\npub fn x() {}\n",
        ),
        ("b.rs", "pub fn f() { crate::c::k() }\npub fn g() {}\n"),
        ("c/mod.rs", "pub fn k() {\n    super::a::x();\n}\n"),
    ]);
    assert_eq!(g.cycles(), [["a", "b", "c"]]);
    let report = g.describe(1, &g.cycles()[0], "src/");
    assert!(report.contains("loop: a -> b -> c -> a"), "{report}");
    assert!(
        report.contains("src/a.rs:1  use crate::b, use crate::b::f, use crate::b::g"),
        "{report}"
    );
    assert!(report.contains("src/b.rs:1  crate::c::k"), "{report}");
    assert!(report.contains("src/c/mod.rs:2  super::a::x"), "{report}");
}

#[test]
fn a_downward_chain_through_re_exports_is_not_a_cycle() {
    // lib re-exports its children; children name each other through
    // the re-exports (`crate::Error`), which resolve to the child.
    let g = graph(&[
        (
            "lib.rs",
            "mod error;\nmod parse;\nmod outer;\npub use error::Error;\n\
             pub use self::parse::{parse, Parsed};\npub use outer::*;\n",
        ),
        ("error.rs", "pub enum Error { A }\n"),
        ("parse.rs", "use crate::Error;\npub struct Parsed;\npub fn parse() -> Result<Parsed, Error> { Err(Error::A) }\n"),
        ("outer.rs", "mod inner;\npub use self::inner::Deep;\npub fn top() { crate::parse(); }\n"),
        ("outer/inner.rs", "pub struct Deep(crate::Parsed);\n"),
    ]);
    assert!(g.cycles().is_empty(), "{:?}", edges(&g));
    assert_eq!(
        edges(&g),
        [
            "crate -> error",
            "crate -> outer",
            "crate -> parse",
            "outer -> outer::inner",
            "outer -> parse",
            "outer::inner -> parse",
            "parse -> error",
        ]
    );
}

#[test]
fn another_crates_item_re_exported_at_the_root_is_no_edge() {
    let g = graph(&[
        ("lib.rs", "mod a;\npub use other::Method;\npub use a::f;\n"),
        (
            "a.rs",
            "use crate::Method;\npub fn f() -> Method { Method::Get }\n",
        ),
    ]);
    assert!(g.cycles().is_empty(), "{:?}", edges(&g));
}

#[test]
fn a_child_naming_its_parents_own_item_is_a_cycle() {
    let g = graph(&[
        ("lib.rs", "mod server;\n"),
        ("server/mod.rs", "mod waits;\npub struct Conn;\n"),
        ("server/waits.rs", "use super::Conn;\nimpl Conn {}\n"),
    ]);
    assert_eq!(g.cycles(), [["server", "server::waits"]]);
    // Through the crate root too: an item lib.rs defines itself.
    let g = graph(&[
        ("lib.rs", "mod a;\npub enum Status { Done }\n"),
        ("a.rs", "fn f() -> crate::Status { crate::Status::Done }\n"),
    ]);
    assert_eq!(g.cycles(), [["", "a"]]);
}

#[test]
fn test_code_comments_and_strings_are_ignored() {
    let g = graph(&[
        ("lib.rs", "mod a;\nmod b;\n#[cfg(test)]\nmod tests;\n"),
        (
            "a.rs",
            "//! Uses [`crate::b::g`] in docs only.\n\
             /// ```\n/// crate::b::g();\n/// ```\npub fn f() { let _ = \"crate::b::g\"; }\n\
             /* crate::b::g() */\n\
             #[cfg(test)]\nmod tests {\n    use crate::b::g;\n    #[test]\n    fn t() { g() }\n}\n\
             #[cfg(test)]\nfn helper() { crate::b::g() }\n",
        ),
        ("b.rs", "pub fn g() { crate::a::f() }\n"),
        ("tests.rs", "use crate::a::f;\nuse crate::b::g;\n"),
    ]);
    assert!(g.cycles().is_empty(), "{:?}", edges(&g));
    assert_eq!(edges(&g), ["crate -> a", "crate -> b", "b -> a"]);
    // The same reference outside test code closes the loop.
    let g = graph(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "#[cfg(not(test))]\npub fn f() { crate::b::g() }\n"),
        ("b.rs", "pub fn g() { crate::a::f() }\n"),
    ]);
    assert_eq!(g.cycles(), [["a", "b"]]);
}

#[test]
fn aliases_globs_macros_and_inline_modules() {
    let g = graph(&[
        ("lib.rs", "mod a;\nmod b;\nmod m;\nmod c;\n"),
        // `b` imported as a module, then used as a path prefix.
        ("a.rs", "use crate::b;\nfn f() { b::deep::g(); }\n"),
        ("b.rs", "pub mod deep;\n"),
        ("b/deep.rs", "pub fn g() {}\n"),
        // A macro defined in `m` and called in `c`; `c`'s inline
        // module's `super` is `c` itself.
        ("m.rs", "macro_rules! twice { ($e:expr) => { $e; $e } }\n"),
        (
            "c.rs",
            "mod inner {\n    use super::h;\n}\nfn h() { twice!(1); let s = 'x'; let l: &'static str = r#\"crate::a\"#; }\n",
        ),
    ]);
    assert!(g.cycles().is_empty(), "{:?}", edges(&g));
    assert_eq!(
        edges(&g),
        [
            "crate -> a",
            "crate -> b",
            "crate -> c",
            "crate -> m",
            "a -> b",
            "a -> b::deep",
            "b -> b::deep",
            "c -> m",
        ]
    );
}

#[test]
fn tokens_skip_literals_and_keep_lines() {
    let toks = tokenize("a::b /* x\n y */ 'c' b'\\'' \"s\\\"\n\" 'l br#\"q\"# r#fn\n$crate::d");
    let words: Vec<(String, usize)> = toks
        .iter()
        .filter_map(|t| match &t.tok {
            Tok::Ident(s) => Some((s.clone(), t.line)),
            _ => None,
        })
        .collect();
    let words: Vec<(&str, usize)> = words.iter().map(|(s, l)| (s.as_str(), *l)).collect();
    assert_eq!(
        words,
        [("a", 1), ("b", 1), ("fn", 3), ("$crate", 4), ("d", 4)]
    );
}

/// A repository in a temporary folder: `(path, text)` files.
fn repo(tag: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("module-cycles-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn binaries_under_xtask_and_tools_are_checked_beside_the_libraries() {
    let dir = repo(
        "targets",
        &[
            ("crates/a/Cargo.toml", ""),
            ("crates/a/src/lib.rs", "mod x;\n"),
            ("crates/a/src/x.rs", ""),
            ("xtask/Cargo.toml", ""),
            ("xtask/src/main.rs", "mod cmd;\nfn cargo() {}\n"),
            // A binary whose child names its root's own item: a cycle.
            ("xtask/src/cmd.rs", "fn run() { crate::cargo() }\n"),
            ("xtask/helper/Cargo.toml", ""),
            ("xtask/helper/src/lib.rs", ""),
            ("tools/t/Cargo.toml", ""),
            ("tools/t/src/lib.rs", ""),
            ("tools/t/src/main.rs", ""),
            ("tools/not-a-package/src/lib.rs", ""),
        ],
    );
    let labels: Vec<String> = crate::targets(&dir, &[])
        .unwrap()
        .iter()
        .map(crate::Target::label)
        .collect();
    assert_eq!(
        labels,
        [
            "crates/a",
            "xtask (bin)",
            "xtask/helper",
            "tools/t",
            "tools/t (bin)"
        ]
    );
    // Folders named: `a` is `crates/a`; others from the root.
    let named = |args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        crate::targets(&dir, &args).map(|t| t.iter().map(crate::Target::label).collect::<Vec<_>>())
    };
    assert_eq!(
        named(&["a", "tools/t/"]).unwrap(),
        ["crates/a", "tools/t", "tools/t (bin)"]
    );
    assert_eq!(named(&["xtask"]).unwrap(), ["xtask (bin)"]);
    assert!(named(&["nope"])
        .unwrap_err()
        .contains("crates/nope/src/lib.rs"));
    // The binary's cycle fails the run; the library alone passes.
    let err = crate::run(&dir, &[]).unwrap_err();
    assert_eq!(err, "module cycles: 1 (see above)");
    assert_eq!(crate::run(&dir, &["crates/a".to_string()]), Ok(()));
    assert!(crate::run(&dir, &["--all".to_string()]).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_binary_crate_loads_from_main_rs() {
    let files: BTreeMap<String, String> = [
        ("main.rs", "mod a;\nmod b;\nfn main() { a::f() }\n"),
        ("a.rs", "pub fn f() { crate::b::g() }\n"),
        ("b.rs", "pub fn g() { crate::a::f() }\n"),
        ("lib.rs", "mod unrelated;\n"),
    ]
    .iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    let g = load(&|rel: &str| files.get(rel).cloned(), "main.rs").graph();
    assert_eq!(g.cycles(), [["a", "b"]]);
    assert!(!g.files.values().any(|f| f == "lib.rs"), "{:?}", g.files);
}
