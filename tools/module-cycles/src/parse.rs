//! What one file says: its `mod` children, its items, its `use` leaves
//! and the paths its code names, test code left out.

use std::collections::{BTreeMap, BTreeSet};

use crate::tokens::{tokenize, Tok, Token};

/// How a module names another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    Use,
    Path,
    Mod,
    Macro,
}

/// A reference from a module's code: a path (or `use` leaf) as written.
#[derive(Clone, Debug)]
pub(crate) struct Ref {
    pub(crate) kind: Kind,
    pub(crate) segs: Vec<String>,
    pub(crate) line: usize,
    /// How many inline `mod x { .. }` it is inside (each takes one `super`).
    pub(crate) inline: usize,
}

/// A `use` leaf: the name it binds and its path.
#[derive(Clone, Debug)]
pub(crate) struct UseLeaf {
    pub(crate) segs: Vec<String>,
    pub(crate) inline: usize,
    pub(crate) line: usize,
    /// The name bound (`None` for a glob or `as _`).
    pub(crate) alias: Option<String>,
    pub(crate) glob: bool,
}

/// What one file says, test code left out.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    /// `mod x;` declarations (file modules), with their lines.
    pub(crate) children: Vec<(String, usize)>,
    /// Inline `mod x { .. }` names: they resolve to the file's module.
    pub(crate) inline_children: BTreeSet<String>,
    /// Names the module defines (`fn`, types, `const`, `static`, ...).
    pub(crate) items: BTreeSet<String>,
    /// `use` leaves binding a name.
    pub(crate) uses: BTreeMap<String, UseLeaf>,
    /// `use ...::*` leaves.
    pub(crate) globs: Vec<UseLeaf>,
    /// `macro_rules!` names defined here.
    pub(crate) macros: BTreeSet<String>,
    pub(crate) refs: Vec<Ref>,
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
pub(crate) fn parse(src: &str) -> Parsed {
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
