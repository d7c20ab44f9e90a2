//! `cargo xtask module-cycles [CRATE...]`: no module of a library crate
//! depends, through other modules, on itself: each crate's modules import
//! downwards only.
//!
//! For each crate `crates/*` with a `src/lib.rs` (or the crate folders
//! named), the modules are the files the crate compiles: `lib.rs`, then each
//! `mod x;` of a module as `x.rs` or `x/mod.rs` beside it (`src/x/y.rs` is
//! module `x::y`); an inline `mod x { .. }` belongs to its file's module.
//! An edge A → B is:
//!
//! - a `use` leaf of A (`use crate::b::Y`, `use super::{b, c::Y}`,
//!   `use self::b::*`, nested braces included) that resolves to module B;
//! - a path in A's code (`crate::b::f()`, `super::Y`, `b::f()` with `b` a
//!   child or a name A imported) that resolves to B;
//! - `mod b;` in A (the parent names its child);
//! - a call `m!` of a `macro_rules! m` defined in B only.
//!
//! A path resolves through re-exports: `crate::Error`, when `lib.rs` says
//! `pub use error::Error`, is module `error`, not the root, so the pattern
//! of a parent re-exporting its child (`pub use self::x::Y`) is the parent
//! depending on the child, downwards. A name a module defines itself (a
//! `fn`, type, `const`, ...) resolves to that module: a child's `super::Y`
//! for its parent's own `Y` is an edge child → parent, which with the
//! parent's `mod child;` is a cycle. Names of other crates, `Self` and
//! local names are no edges.
//!
//! Test code is not counted: an item under `#[cfg(test)]` or
//! `#[cfg(all(test, ..))]` (a `mod tests { .. }` block, a `mod tests;`
//! file, a test-only function or `use`) is skipped, and so are comments
//! (doc examples included), strings and attributes.
//!
//! Each strongly connected component of more than one module is reported
//! as a cycle, with loops through it until each of its modules is on one,
//! and every edge inside it with its evidence (`file:line`); the command
//! fails when there is one.
//!
//! It reads tokens, not a syntax tree (xtask takes no parser dependency):
//! a path written through a macro's own arguments is seen as written, and a
//! name shadowed by a local binding may add an edge that is not there (both
//! err towards reporting). Method calls are not paths: `self.f()` on a type
//! whose `impl` blocks are spread over two modules is no edge, but the
//! `impl T` of the second module names `T`, which is.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

use crate::process::{root, Result};

pub fn main(args: &[String]) -> Result {
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!(
            "module-cycles takes crate folders only (got {flag:?})"
        ));
    }
    let root = root();
    let crates_dir = root.join("crates");
    let mut names: Vec<String> = Vec::new();
    if args.is_empty() {
        let entries =
            std::fs::read_dir(&crates_dir).map_err(|e| format!("{}: {e}", crates_dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", crates_dir.display()))?;
            if entry.path().join("src/lib.rs").is_file() {
                names.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        names.sort();
    } else {
        names = args
            .iter()
            .map(|a| {
                a.trim_start_matches("crates/")
                    .trim_end_matches('/')
                    .to_string()
            })
            .collect();
    }
    let mut total = 0;
    for name in &names {
        let src = crates_dir.join(name).join("src");
        if !src.join("lib.rs").is_file() {
            return Err(format!("crates/{name}/src/lib.rs does not exist"));
        }
        let krate = load(&|rel: &str| read(&src, rel));
        let graph = krate.graph();
        let cycles = graph.cycles();
        let edges: usize = graph.edges.values().map(BTreeMap::len).sum();
        let verdict = match cycles.len() {
            0 => "no cycles".to_string(),
            1 => "1 cycle".to_string(),
            n => format!("{n} cycles"),
        };
        let modules = krate.modules.len();
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        println!(
            "crates/{name}: {}, {}, {verdict}",
            plural(modules, "module"),
            plural(edges, "edge")
        );
        for (i, cycle) in cycles.iter().enumerate() {
            print!(
                "{}",
                graph.describe(i + 1, cycle, &format!("crates/{name}/src/"))
            );
        }
        total += cycles.len();
    }
    if total == 0 {
        Ok(())
    } else {
        Err(format!("module cycles: {total} (see above)"))
    }
}

fn read(src: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(src.join(rel)).ok()
}

// ---------------------------------------------------------------- tokens

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// An identifier or keyword (`r#` removed); `$crate` keeps its `$`.
    Ident(String),
    /// `::`.
    PathSep,
    /// Any other punctuation byte.
    Punct(u8),
    /// A literal (number, string, character), a lifetime.
    Lit,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Rust tokens of `src`, comments dropped, literals reduced to [`Tok::Lit`].
fn tokenize(src: &str) -> Vec<Token> {
    let s = src.as_bytes();
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips a quoted string body from the byte after the opening quote;
    // returns the index after the closing one.
    let string_end = |mut i: usize, line: &mut usize| {
        while i < s.len() {
            match s[i] {
                b'\\' => {
                    if at(i + 1) == b'\n' {
                        *line += 1;
                    }
                    i += 2;
                }
                b'"' => return i + 1,
                b'\n' => {
                    *line += 1;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        s.len()
    };
    // A raw string from its `#`s or quote; returns the index after it.
    let raw_end = |mut i: usize, line: &mut usize| {
        let mut hashes = 0;
        while at(i) == b'#' {
            hashes += 1;
            i += 1;
        }
        i += 1; // the quote
        while i < s.len() {
            if s[i] == b'\n' {
                *line += 1;
            }
            if s[i] == b'"' && (1..=hashes).all(|k| at(i + k) == b'#') {
                return i + 1 + hashes;
            }
            i += 1;
        }
        s.len()
    };
    while i < s.len() {
        let b = s[i];
        let start_line = line;
        match b {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'/' if at(i + 1) == b'/' => {
                while i < s.len() && s[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if at(i + 1) == b'*' => {
                let mut depth = 0;
                while i < s.len() {
                    if s[i] == b'/' && at(i + 1) == b'*' {
                        depth += 1;
                        i += 2;
                    } else if s[i] == b'*' && at(i + 1) == b'/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if s[i] == b'\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            b'"' => {
                i = string_end(i + 1, &mut line);
                out.push(Token {
                    tok: Tok::Lit,
                    line: start_line,
                });
            }
            b'\'' => {
                // A character literal, or a lifetime / label.
                let rest = &src[i + 1..];
                let ch_len = rest.chars().next().map_or(1, char::len_utf8);
                if at(i + 1) == b'\\' {
                    let mut j = i + 2;
                    while j < s.len() && s[j] != b'\'' && s[j] != b'\n' {
                        j += 1;
                    }
                    i = j + 1;
                } else if at(i + 1 + ch_len) == b'\'' {
                    i += 2 + ch_len;
                } else {
                    i += 1;
                    while i < s.len() && is_ident_byte(s[i]) {
                        i += 1;
                    }
                }
                out.push(Token {
                    tok: Tok::Lit,
                    line: start_line,
                });
            }
            b'0'..=b'9' => {
                while i < s.len()
                    && (is_ident_byte(s[i]) || (s[i] == b'.' && at(i + 1).is_ascii_digit()))
                {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Lit,
                    line: start_line,
                });
            }
            b':' if at(i + 1) == b':' => {
                out.push(Token {
                    tok: Tok::PathSep,
                    line,
                });
                i += 2;
            }
            b'$' if is_ident_byte(at(i + 1)) => {
                let start = i;
                i += 1;
                while i < s.len() && is_ident_byte(s[i]) {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(src[start..i].to_string()),
                    line,
                });
            }
            _ if is_ident_byte(b) => {
                let start = i;
                while i < s.len() && is_ident_byte(s[i]) {
                    i += 1;
                }
                let word = &src[start..i];
                let next = at(i);
                match (word, next) {
                    ("b" | "c" | "r" | "br" | "cr", b'"') | ("r" | "br" | "cr", b'#')
                        if !(next == b'#' && is_ident_byte(at(i + 1))) =>
                    {
                        i = if word.contains('r') {
                            raw_end(i, &mut line)
                        } else {
                            string_end(i + 1, &mut line)
                        };
                        out.push(Token {
                            tok: Tok::Lit,
                            line: start_line,
                        });
                    }
                    ("r", b'#') => {
                        // A raw identifier.
                        let start = i + 1;
                        i = start;
                        while i < s.len() && is_ident_byte(s[i]) {
                            i += 1;
                        }
                        out.push(Token {
                            tok: Tok::Ident(src[start..i].to_string()),
                            line,
                        });
                    }
                    ("b", b'\'') => {
                        i += 1;
                        if at(i) == b'\\' {
                            i += 1;
                        }
                        i += 1;
                        while i < s.len() && s[i] != b'\'' && s[i] != b'\n' {
                            i += 1;
                        }
                        i += 1;
                        out.push(Token {
                            tok: Tok::Lit,
                            line: start_line,
                        });
                    }
                    _ => out.push(Token {
                        tok: Tok::Ident(word.to_string()),
                        line,
                    }),
                }
            }
            _ => {
                out.push(Token {
                    tok: Tok::Punct(b),
                    line,
                });
                i += 1;
            }
        }
    }
    out
}

// ---------------------------------------------------------------- one file

/// How a module names another.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Use,
    Path,
    Mod,
    Macro,
}

/// A reference from a module's code: a path (or `use` leaf) as written.
#[derive(Clone, Debug)]
struct Ref {
    kind: Kind,
    segs: Vec<String>,
    line: usize,
    /// How many inline `mod x { .. }` it is inside (each takes one `super`).
    inline: usize,
}

/// A `use` leaf: the name it binds and its path.
#[derive(Clone, Debug)]
struct UseLeaf {
    segs: Vec<String>,
    inline: usize,
    line: usize,
    /// The name bound (`None` for a glob or `as _`).
    alias: Option<String>,
    glob: bool,
}

/// What one file says, test code left out.
#[derive(Debug, Default)]
struct Parsed {
    /// `mod x;` declarations (file modules), with their lines.
    children: Vec<(String, usize)>,
    /// Inline `mod x { .. }` names: they resolve to the file's module.
    inline_children: BTreeSet<String>,
    /// Names the module defines (`fn`, types, `const`, `static`, ...).
    items: BTreeSet<String>,
    /// `use` leaves binding a name.
    uses: BTreeMap<String, UseLeaf>,
    /// `use ...::*` leaves.
    globs: Vec<UseLeaf>,
    /// `macro_rules!` names defined here.
    macros: BTreeSet<String>,
    refs: Vec<Ref>,
}

fn ident(t: &[Token], i: usize) -> Option<&str> {
    match t.get(i) {
        Some(Token {
            tok: Tok::Ident(s), ..
        }) => Some(s),
        _ => None,
    }
}

fn punct(t: &[Token], i: usize, c: u8) -> bool {
    matches!(t.get(i), Some(Token { tok: Tok::Punct(p), .. }) if *p == c)
}

fn path_sep(t: &[Token], i: usize) -> bool {
    matches!(
        t.get(i),
        Some(Token {
            tok: Tok::PathSep,
            ..
        })
    )
}

/// The index after the group opened at `i` (`(`, `[` or `{`).
fn group_end(t: &[Token], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < t.len() {
        match t[i].tok {
            Tok::Punct(b'(' | b'[' | b'{') => depth += 1,
            Tok::Punct(b')' | b']' | b'}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    t.len()
}

/// The index after the item starting at `i`: its `;` or its `{ .. }` body,
/// whichever comes first outside parentheses and brackets.
fn item_end(t: &[Token], mut i: usize) -> usize {
    // Further attributes first.
    while punct(t, i, b'#') {
        i = group_end(t, i + if punct(t, i + 1, b'!') { 2 } else { 1 });
    }
    while i < t.len() {
        match t[i].tok {
            Tok::Punct(b';') => return i + 1,
            Tok::Punct(b'{') => return group_end(t, i),
            Tok::Punct(b'(' | b'[') => i = group_end(t, i),
            _ => i += 1,
        }
    }
    t.len()
}

/// Whether the attribute tokens `t[from..to]` are `cfg(test)` or
/// `cfg(all(test, ..))`.
fn is_test_cfg(t: &[Token], from: usize, to: usize) -> bool {
    let words: Vec<&Tok> = t[from..to.min(t.len())].iter().map(|k| &k.tok).collect();
    let word = |k: usize, w: &str| matches!(words.get(k), Some(Tok::Ident(s)) if s == w);
    let open = |k: usize| matches!(words.get(k), Some(Tok::Punct(b'(')));
    word(0, "cfg")
        && open(1)
        && (word(2, "test") && matches!(words.get(3), Some(Tok::Punct(b')')))
            || word(2, "all") && open(3) && word(4, "test"))
}

/// Parses a use tree from `i` under `prefix`; returns the index after it.
fn use_tree(
    t: &[Token],
    mut i: usize,
    prefix: &[String],
    inline: usize,
    out: &mut Vec<UseLeaf>,
) -> usize {
    let mut segs = prefix.to_vec();
    if path_sep(t, i) {
        if segs.is_empty() {
            segs.push("::".to_string());
        }
        i += 1;
    }
    loop {
        if punct(t, i, b'*') {
            out.push(UseLeaf {
                segs,
                inline,
                line: t[i].line,
                alias: None,
                glob: true,
            });
            return i + 1;
        }
        if punct(t, i, b'{') {
            i += 1;
            while i < t.len() && !punct(t, i, b'}') {
                let next = use_tree(t, i, &segs, inline, out);
                i = if next == i { i + 1 } else { next };
                if punct(t, i, b',') {
                    i += 1;
                }
            }
            return i + 1;
        }
        let Some(name) = ident(t, i) else {
            return i;
        };
        segs.push(name.to_string());
        let line = t[i].line;
        i += 1;
        if path_sep(t, i) {
            i += 1;
            continue;
        }
        let mut alias = segs.last().cloned();
        if ident(t, i) == Some("as") {
            alias = ident(t, i + 1).filter(|a| *a != "_").map(str::to_string);
            i += 2;
        }
        if segs.last().map(String::as_str) == Some("self") {
            segs.pop();
            if alias.as_deref() == Some("self") {
                alias = segs.last().cloned();
            }
        }
        out.push(UseLeaf {
            segs,
            inline,
            line,
            alias,
            glob: false,
        });
        return i;
    }
}

const ITEM_KEYWORDS: [&str; 8] = [
    "fn", "struct", "enum", "union", "trait", "type", "const", "static",
];

/// What a file's non-test code declares and names.
fn parse(src: &str) -> Parsed {
    let t = tokenize(src);
    let mut p = Parsed::default();
    let mut depth = 0usize;
    // Brace depths at which the inline modules we are in were opened.
    let mut inline: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let line = t[i].line;
        match &t[i].tok {
            Tok::Punct(b'#') => {
                let open = i + if punct(&t, i + 1, b'!') { 2 } else { 1 };
                let end = group_end(&t, open);
                if is_test_cfg(&t, open + 1, end.saturating_sub(1)) && !punct(&t, i + 1, b'!') {
                    i = item_end(&t, end);
                } else {
                    i = end;
                }
                continue;
            }
            Tok::Punct(b'{') => depth += 1,
            Tok::Punct(b'}') => {
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(w) if w == "use" => {
                let mut leaves = Vec::new();
                let mut j = use_tree(&t, i + 1, &[], inline.len(), &mut leaves);
                while j < t.len() && !punct(&t, j, b';') {
                    j += 1;
                }
                for leaf in leaves {
                    p.refs.push(Ref {
                        kind: Kind::Use,
                        segs: leaf.segs.clone(),
                        line: leaf.line,
                        inline: leaf.inline,
                    });
                    if leaf.glob {
                        p.globs.push(leaf);
                    } else if let Some(a) = leaf.alias.clone() {
                        p.uses.insert(a, leaf);
                    }
                }
                i = j + 1;
                continue;
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some(name) = ident(&t, i + 1) {
                    if punct(&t, i + 2, b';') {
                        if inline.is_empty() {
                            p.children.push((name.to_string(), line));
                            p.refs.push(Ref {
                                kind: Kind::Mod,
                                segs: vec!["self".to_string(), name.to_string()],
                                line,
                                inline: 0,
                            });
                        }
                        i += 3;
                        continue;
                    }
                    if punct(&t, i + 2, b'{') {
                        p.inline_children.insert(name.to_string());
                        depth += 1;
                        inline.push(depth);
                        i += 3;
                        continue;
                    }
                }
            }
            Tok::Ident(w) if w == "macro_rules" && punct(&t, i + 1, b'!') => {
                if let Some(name) = ident(&t, i + 2) {
                    p.macros.insert(name.to_string());
                }
                i += 3;
                continue;
            }
            Tok::Ident(w) if ITEM_KEYWORDS.contains(&w.as_str()) => {
                if let Some(name) = ident(&t, i + 1) {
                    if !matches!(name, "fn" | "unsafe" | "async" | "extern" | "mut") {
                        p.items.insert(name.to_string());
                    }
                }
            }
            Tok::Ident(w)
                if punct(&t, i + 1, b'!')
                    && (punct(&t, i + 2, b'(')
                        || punct(&t, i + 2, b'[')
                        || punct(&t, i + 2, b'{')) =>
            {
                p.refs.push(Ref {
                    kind: Kind::Macro,
                    segs: vec![w.clone()],
                    line,
                    inline: inline.len(),
                });
            }
            Tok::Ident(first) => {
                let after_sep = i > 0 && (path_sep(&t, i - 1) || punct(&t, i - 1, b'.'));
                if !after_sep {
                    let mut segs = vec![first.clone()];
                    let mut j = i + 1;
                    while path_sep(&t, j) {
                        match ident(&t, j + 1) {
                            Some(s) => segs.push(s.to_string()),
                            None => break,
                        }
                        j += 2;
                    }
                    if segs.len() > 1 {
                        p.refs.push(Ref {
                            kind: Kind::Path,
                            segs,
                            line,
                            inline: inline.len(),
                        });
                        i = j;
                        continue;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    p
}

// ---------------------------------------------------------------- a crate

/// One module: its file (relative to `src/`) and what the file says.
#[derive(Debug)]
struct Module {
    file: String,
    parsed: Parsed,
}

/// A crate's modules by path (`""` is the root, `"a::b"` a child's child).
#[derive(Debug, Default)]
struct Crate {
    modules: BTreeMap<String, Module>,
}

/// Loads a crate from `lib.rs`, following `mod x;` declarations; `read`
/// gives a file's text by its path relative to `src/`.
fn load(read: &dyn Fn(&str) -> Option<String>) -> Crate {
    let mut krate = Crate::default();
    // (module path, file, folder its children live in)
    let mut queue = vec![(String::new(), "lib.rs".to_string(), String::new())];
    while let Some((path, file, dir)) = queue.pop() {
        let Some(text) = read(&file) else { continue };
        let parsed = parse(&text);
        for (name, _) in &parsed.children {
            let child = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}::{name}")
            };
            let flat = format!("{dir}{name}.rs");
            let nested = format!("{dir}{name}/mod.rs");
            if read(&flat).is_some() {
                queue.push((child, flat, format!("{dir}{name}/")));
            } else {
                queue.push((child, nested, format!("{dir}{name}/")));
            }
        }
        krate.modules.insert(path, Module { file, parsed });
    }
    krate
}

fn parent(m: &str) -> Option<String> {
    if m.is_empty() {
        None
    } else {
        Some(
            m.rsplit_once("::")
                .map_or(String::new(), |(p, _)| p.to_string()),
        )
    }
}

fn join(m: &str, name: &str) -> String {
    if m.is_empty() {
        name.to_string()
    } else {
        format!("{m}::{name}")
    }
}

/// Where a path leads: a module, and whether the path named the module
/// itself (so more segments may follow) or an item in it.
type Target = Option<(String, bool)>;

const MAX_HOPS: usize = 32;

/// Source lines shown per edge of a cycle.
const EVIDENCE: usize = 3;

impl Crate {
    /// Resolves `segs`, written in module `cur` (inside `inline` inline
    /// modules), to the module that defines what it names.
    fn resolve(&self, cur: &str, segs: &[String], inline: usize, hops: usize) -> Target {
        if hops > MAX_HOPS {
            return None;
        }
        let module = self.modules.get(cur)?;
        let first = segs.first()?;
        let (start, rest) = match first.as_str() {
            "crate" | "$crate" => (String::new(), &segs[1..]),
            "self" => (cur.to_string(), &segs[1..]),
            "super" => {
                let k = segs.iter().take_while(|s| *s == "super").count();
                let mut m = cur.to_string();
                for _ in 0..k.saturating_sub(inline) {
                    m = parent(&m)?;
                }
                (m, &segs[k..])
            }
            name => {
                if module.parsed.children.iter().any(|(c, _)| c == name) {
                    (join(cur, name), &segs[1..])
                } else if module.parsed.inline_children.contains(name) {
                    (cur.to_string(), &segs[1..])
                } else if let Some(leaf) = module.parsed.uses.get(name) {
                    if leaf.segs.first() == Some(first) && leaf.segs.len() == 1 {
                        return None; // `use other_crate;`
                    }
                    let (m, is_module) = self.resolve(cur, &leaf.segs, leaf.inline, hops + 1)?;
                    if !is_module {
                        return Some((m, false));
                    }
                    (m, &segs[1..])
                } else {
                    return None;
                }
            }
        };
        self.walk(start, rest, hops)
    }

    /// Follows `rest` down from module `m`.
    fn walk(&self, mut m: String, rest: &[String], hops: usize) -> Target {
        for (k, seg) in rest.iter().enumerate() {
            let Some(module) = self.modules.get(&m) else {
                return Some((m, false));
            };
            let p = &module.parsed;
            if p.children.iter().any(|(c, _)| c == seg) {
                m = join(&m, seg);
                continue;
            }
            if p.inline_children.contains(seg) {
                continue;
            }
            if p.items.contains(seg) || p.macros.contains(seg) {
                return Some((m, false));
            }
            if let Some(leaf) = p.uses.get(seg) {
                return match self.resolve(&m, &leaf.segs, leaf.inline, hops + 1) {
                    Some((to, true)) => self.walk(to, &rest[k + 1..], hops + 1),
                    Some((to, false)) => Some((to, false)),
                    // Another crate's item re-exported here: no edge.
                    None => None,
                };
            }
            for g in &p.globs {
                if let Some((gm, true)) = self.resolve(&m, &g.segs, g.inline, hops + 1) {
                    if gm != m && self.defines(&gm, seg) {
                        return self.walk(gm, &rest[k..], hops + 1);
                    }
                }
            }
            return Some((m, false));
        }
        Some((m, true))
    }

    /// Whether module `m` has `name` (a child, an item or an import).
    fn defines(&self, m: &str, name: &str) -> bool {
        self.modules.get(m).is_some_and(|module| {
            let p = &module.parsed;
            p.children.iter().any(|(c, _)| c == name)
                || p.items.contains(name)
                || p.uses.contains_key(name)
                || p.macros.contains(name)
        })
    }

    /// The module → module graph, with each edge's evidence.
    fn graph(&self) -> Graph {
        let mut g = Graph::default();
        for (name, module) in &self.modules {
            g.files.insert(name.clone(), module.file.clone());
            g.edges.entry(name.clone()).or_default();
            for r in &module.parsed.refs {
                let targets: Vec<String> = if r.kind == Kind::Macro {
                    let mac = &r.segs[0];
                    if module.parsed.macros.contains(mac) {
                        Vec::new()
                    } else {
                        self.modules
                            .iter()
                            .filter(|(_, m)| m.parsed.macros.contains(mac))
                            .map(|(n, _)| n.clone())
                            .collect()
                    }
                } else {
                    self.resolve(name, &r.segs, r.inline, 0)
                        .map(|(m, _)| m)
                        .into_iter()
                        .collect()
                };
                for to in targets {
                    if &to == name || !self.modules.contains_key(&to) {
                        continue;
                    }
                    let text = match r.kind {
                        Kind::Use => format!("use {}", r.segs.join("::")),
                        Kind::Path => r.segs.join("::"),
                        Kind::Mod => format!("mod {}", r.segs[1]),
                        Kind::Macro => format!("{}!", r.segs[0]),
                    };
                    g.edges
                        .entry(name.clone())
                        .or_default()
                        .entry(to)
                        .or_default()
                        .push((r.line, text));
                }
            }
        }
        g
    }
}

// ---------------------------------------------------------------- the graph

/// Modules, their files, and edges `from → to → [(line in from, text)]`.
#[derive(Debug, Default)]
struct Graph {
    files: BTreeMap<String, String>,
    edges: BTreeMap<String, BTreeMap<String, Vec<(usize, String)>>>,
}

fn display(m: &str) -> &str {
    if m.is_empty() {
        "crate"
    } else {
        m
    }
}

impl Graph {
    /// The strongly connected components of more than one module (Tarjan),
    /// each sorted, in order of their first module.
    fn cycles(&self) -> Vec<Vec<String>> {
        struct State<'a> {
            g: &'a Graph,
            index: BTreeMap<&'a str, usize>,
            low: BTreeMap<&'a str, usize>,
            stack: Vec<&'a str>,
            on_stack: BTreeSet<&'a str>,
            next: usize,
            out: Vec<Vec<String>>,
        }
        fn visit<'a>(s: &mut State<'a>, v: &'a str) {
            s.index.insert(v, s.next);
            s.low.insert(v, s.next);
            s.next += 1;
            s.stack.push(v);
            s.on_stack.insert(v);
            let g = s.g;
            for w in g.edges.get(v).into_iter().flat_map(BTreeMap::keys) {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(lw));
                } else if s.on_stack.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low[v];
                    s.low.insert(v, lv.min(iw));
                }
            }
            if s.low[v] == s.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = s.stack.pop() {
                    s.on_stack.remove(w);
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    s.out.push(comp);
                }
            }
        }
        let mut s = State {
            g: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            next: 0,
            out: Vec::new(),
        };
        for v in self.edges.keys() {
            if !s.index.contains_key(v.as_str()) {
                visit(&mut s, v);
            }
        }
        let mut out = s.out;
        out.sort();
        out
    }

    /// A shortest loop from `start` back to it inside the component.
    fn loop_in(&self, comp: &[String], start: &String) -> Vec<String> {
        let inside: BTreeSet<&String> = comp.iter().collect();
        let mut prev: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            for w in self.edges.get(v).into_iter().flat_map(BTreeMap::keys) {
                if !inside.contains(w) {
                    continue;
                }
                if w == start {
                    let mut path = vec![v.clone()];
                    let mut at = v;
                    while at != start {
                        let Some(p) = prev.get(at) else { break };
                        path.push((*p).clone());
                        at = p;
                    }
                    path.reverse();
                    path.push(start.clone());
                    return path;
                }
                if !prev.contains_key(w) && w != start {
                    prev.insert(w, v);
                    queue.push_back(w);
                }
            }
        }
        Vec::new()
    }

    /// The report of one cycle: its modules, a loop and its edges' evidence.
    fn describe(&self, n: usize, comp: &[String], prefix: &str) -> String {
        let names: Vec<&str> = comp.iter().map(|m| display(m)).collect();
        let mut out = format!("  cycle {n}: {}\n", names.join(", "));
        // Loops until every module of the component is on one.
        let mut covered: BTreeSet<&String> = BTreeSet::new();
        for start in comp {
            if covered.contains(start) {
                continue;
            }
            let path = self.loop_in(comp, start);
            covered.extend(comp.iter().filter(|m| path.contains(m)));
            let names: Vec<&str> = path.iter().map(|m| display(m)).collect();
            out.push_str(&format!("    loop: {}\n", names.join(" -> ")));
        }
        let inside: BTreeSet<&String> = comp.iter().collect();
        for from in comp {
            for (to, evidence) in self.edges.get(from).into_iter().flatten() {
                if !inside.contains(to) {
                    continue;
                }
                out.push_str(&format!("    {} -> {}:\n", display(from), display(to)));
                let file = self.files.get(from).map_or("?", String::as_str);
                // One line of evidence per source line, the first few.
                let mut lines: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
                for (line, text) in evidence {
                    let texts = lines.entry(*line).or_default();
                    if !texts.contains(&text.as_str()) {
                        texts.push(text);
                    }
                }
                for (line, texts) in lines.iter().take(EVIDENCE) {
                    out.push_str(&format!(
                        "      {prefix}{file}:{line}  {}\n",
                        texts.join(", ")
                    ));
                }
                if lines.len() > EVIDENCE {
                    out.push_str(&format!("      (+{} more lines)\n", lines.len() - EVIDENCE));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The graph of a crate given as `(path relative to src/, text)` pairs.
    fn graph(files: &[(&str, &str)]) -> Graph {
        let files: BTreeMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        load(&|rel: &str| files.get(rel).cloned()).graph()
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
}
