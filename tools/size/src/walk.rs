//! The files a crate compiles, and the lines of code each one counts.
//!
//! From each root (`src/lib.rs`, the build script), every `mod x;` outside
//! test code is followed to `x.rs` or `x/mod.rs` in the module's folder (a
//! `#[path = ".."]` attribute names the file instead, and makes it own its
//! folder as a `mod.rs` does), every `include!("..")` to its file, and an
//! `include!(concat!(env!("OUT_DIR"), "/x.rs"))` to the build script's
//! output. Test code is an item whose outer attributes include
//! `#[cfg(test)]` (from the first attribute to the item's `;` or closing
//! brace), or a whole file that starts with `#![cfg(test)]`.

use crate::lex::{lex, Tok, Token};

/// The width a line may have before it counts twice.
pub const WIDTH: usize = 100;

/// Where a build script's output lives: a path starting with this, then
/// the file's name (`$OUT_DIR/x.rs`), given to the reader.
pub const OUT_DIR: &str = "$OUT_DIR/";

/// One file a crate compiles, and what it counts.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCount {
    /// Its path, relative to the crate's folder.
    pub path: String,
    /// Its lines of code, each line over [`WIDTH`] columns counted as
    /// ⌈columns / 100⌉.
    pub lines: u64,
}

/// A file to read: its path and the folder its `mod x;` children live in.
struct Pending {
    path: String,
    /// The folder of its children (`""` is the crate's folder).
    dir: String,
    /// Where it was named (`file:line`), for errors.
    from: String,
}

/// Counts the files a crate compiles from `roots` (paths relative to the
/// crate's folder, e.g. `src/lib.rs`). `read` gives a file's text by its
/// path relative to the crate's folder (or under [`OUT_DIR`]); a file named
/// by a `mod` or an `include!` that it cannot give is an error.
pub fn count_crate(
    read: &dyn Fn(&str) -> Option<String>,
    roots: &[&str],
) -> Result<Vec<FileCount>, String> {
    let mut queue: Vec<Pending> = roots
        .iter()
        .map(|r| Pending {
            path: normalize(r),
            dir: parent(&normalize(r)),
            from: "the crate's roots".to_string(),
        })
        .collect();
    queue.reverse();
    let mut out: Vec<FileCount> = Vec::new();
    while let Some(file) = queue.pop() {
        if out.iter().any(|f| f.path == file.path) {
            continue;
        }
        let text = read(&file.path).ok_or_else(|| {
            format!(
                "{}: cannot read {} (named by {})",
                file.path, file.path, file.from
            )
        })?;
        let scan = scan_file(&text, &file.path, &file.dir)?;
        out.push(FileCount {
            path: file.path.clone(),
            lines: scan.lines,
        });
        // Depth first, in source order.
        for next in scan.next.into_iter().rev() {
            let path = match next.target {
                Target::File(path) => path,
                Target::Module { dir, name } => {
                    let flat = join(&dir, &format!("{name}.rs"));
                    let nested = join(&dir, &format!("{name}/mod.rs"));
                    if read(&flat).is_some() {
                        flat
                    } else {
                        nested
                    }
                }
            };
            queue.push(Pending {
                dir: next.dir.unwrap_or_else(|| parent(&path)),
                path,
                from: format!("{}:{}", file.path, next.line + 1),
            });
        }
    }
    Ok(out)
}

/// What a `mod` or `include!` leads to.
enum Target {
    /// A file, by its path.
    File(String),
    /// `name.rs` or `name/mod.rs` in `dir`.
    Module { dir: String, name: String },
}

/// A file named by another.
struct Next {
    target: Target,
    /// The folder of its children; `None`: the file's own folder.
    dir: Option<String>,
    /// The naming line (0-based).
    line: usize,
}

/// What one file counts and names.
struct Scanned {
    lines: u64,
    next: Vec<Next>,
}

/// Counts one file's lines and finds the files it names. `path` is the
/// file's path, `dir` the folder of its `mod x;` children.
fn scan_file(text: &str, path: &str, dir: &str) -> Result<Scanned, String> {
    let lexed = lex(text);
    let t = &lexed.tokens;
    let mut test = vec![false; lexed.code.len()];
    let mut next = Vec::new();
    let here = parent(path);
    // The inline modules we are in: (brace depth inside them, their folder).
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        let dir_now = inline.last().map_or(dir, |(_, d)| d.as_str()).to_string();
        match &t[i].tok {
            Tok::Punct(b'#') if punct(t, i + 1, b'!') => {
                let end = group_end(t, i + 2);
                if is_test_cfg(&t[i + 3..end.saturating_sub(1).max(i + 3)]) && depth == 0 {
                    // `#![cfg(test)]`: the whole file is test code.
                    return Ok(Scanned {
                        lines: 0,
                        next: Vec::new(),
                    });
                }
                i = end;
                continue;
            }
            Tok::Punct(b'#') => {
                // Outer attributes, then the item they belong to.
                let mut j = i;
                let mut is_test = false;
                let mut path_attr = None;
                while punct(t, j, b'#') && punct(t, j + 1, b'[') {
                    let end = group_end(t, j + 1);
                    let inner = &t[j + 2..end.saturating_sub(1).max(j + 2)];
                    is_test |= is_test_cfg(inner);
                    if let [Token {
                        tok: Tok::Ident(p), ..
                    }, Token {
                        tok: Tok::Punct(b'='),
                        ..
                    }, Token {
                        tok: Tok::Str(v), ..
                    }] = inner
                    {
                        if p == "path" {
                            path_attr = Some(v.clone());
                        }
                    }
                    j = end;
                }
                if j == i {
                    i += 1;
                    continue;
                }
                if is_test {
                    let end = item_end(t, j);
                    let last = t.get(end.saturating_sub(1)).map_or(t[i].line, |k| k.line);
                    for flag in &mut test[t[i].line..=last] {
                        *flag = true;
                    }
                    i = end;
                    continue;
                }
                if let Some(p) = path_attr {
                    if let Some((name_at, file_mod)) = mod_decl(t, j) {
                        let line = t[name_at].line;
                        if file_mod {
                            // Relative to this file's folder, or, inside
                            // inline modules, to theirs.
                            let base = if inline.is_empty() {
                                here.clone()
                            } else {
                                dir_now.clone()
                            };
                            next.push(Next {
                                target: Target::File(join(&base, &p)),
                                dir: None,
                                line,
                            });
                            i = name_at + 2;
                        } else {
                            depth += 1;
                            inline.push((depth, join(&dir_now, &p)));
                            i = name_at + 2;
                        }
                        continue;
                    }
                }
                i = j;
                continue;
            }
            Tok::Punct(b'{') => depth += 1,
            Tok::Punct(b'}') => {
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some((name_at, file_mod)) = mod_decl(t, i) {
                    let name = &ident_at(t, name_at);
                    if file_mod {
                        next.push(Next {
                            target: Target::Module {
                                dir: dir_now.clone(),
                                name: name.clone(),
                            },
                            dir: Some(join(&dir_now, name)),
                            line: t[name_at].line,
                        });
                    } else {
                        depth += 1;
                        inline.push((depth, join(&dir_now, name)));
                    }
                    i = name_at + 2;
                    continue;
                }
            }
            Tok::Ident(w) if w == "include" && punct(t, i + 1, b'!') => {
                let open = i + 2;
                let end = group_end(t, open);
                let args = &t[(open + 1).min(end)..end.saturating_sub(1).max(open + 1)];
                let line = t[i].line;
                if let Some(target) = include_target(args, &here) {
                    // An included file's `mod x;` resolve as this file's.
                    next.push(Next {
                        target: Target::File(target),
                        dir: Some(dir_now.clone()),
                        line,
                    });
                } else {
                    return Err(format!(
                        "{path}:{}: cannot read the file this include! names",
                        line + 1
                    ));
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let mut lines = 0;
    for (n, line) in text.split('\n').enumerate() {
        if lexed.code[n] && !test[n] {
            let width = line.trim_end_matches('\r').chars().count();
            lines += width.div_ceil(WIDTH) as u64;
        }
    }
    Ok(Scanned { lines, next })
}

fn punct(t: &[Token], i: usize, c: u8) -> bool {
    matches!(t.get(i), Some(Token { tok: Tok::Punct(p), .. }) if *p == c)
}

/// The identifier at `i`, or `""`.
fn ident_at(t: &[Token], i: usize) -> String {
    match t.get(i) {
        Some(Token {
            tok: Tok::Ident(s), ..
        }) => s.clone(),
        _ => String::new(),
    }
}

fn ident(t: &[Token], i: usize, w: &str) -> bool {
    matches!(t.get(i), Some(Token { tok: Tok::Ident(s), .. }) if s == w)
}

/// `mod NAME ;` or `mod NAME {` at or after `i` (after `pub`, `pub(crate)`
/// and the like): the index of `NAME`, and whether it is a file module.
fn mod_decl(t: &[Token], mut i: usize) -> Option<(usize, bool)> {
    if ident(t, i, "pub") {
        i += 1;
        if punct(t, i, b'(') {
            i = group_end(t, i);
        }
    }
    if !ident(t, i, "mod") || !matches!(t.get(i + 1)?.tok, Tok::Ident(_)) {
        return None;
    }
    if punct(t, i + 2, b';') {
        Some((i + 1, true))
    } else if punct(t, i + 2, b'{') {
        Some((i + 1, false))
    } else {
        None
    }
}

/// The file an `include!` names: `"path"` relative to `here`, the build
/// script's output (`concat!(env!("OUT_DIR"), "/x.rs")`), or a path from
/// the crate's folder (`concat!(env!("CARGO_MANIFEST_DIR"), "/x.rs")`).
fn include_target(args: &[Token], here: &str) -> Option<String> {
    if let [Token {
        tok: Tok::Str(p), ..
    }] = args
    {
        return Some(join(here, p));
    }
    let names = |var: &str| {
        args.iter().any(|k| match &k.tok {
            Tok::Ident(s) | Tok::Str(s) => s == var,
            _ => false,
        })
    };
    let last = args.iter().rev().find_map(|k| match &k.tok {
        Tok::Str(s) if !matches!(s.as_str(), "OUT_DIR" | "CARGO_MANIFEST_DIR") => Some(s.clone()),
        _ => None,
    })?;
    let rel = last.trim_start_matches('/');
    if names("OUT_DIR") {
        Some(format!("{OUT_DIR}{rel}"))
    } else if names("CARGO_MANIFEST_DIR") {
        Some(normalize(rel))
    } else {
        None
    }
}

/// Whether attribute tokens (inside `#[..]`) are `cfg(test)`.
fn is_test_cfg(inner: &[Token]) -> bool {
    matches!(
        inner,
        [Token { tok: Tok::Ident(c), .. }, Token { tok: Tok::Punct(b'('), .. }, Token { tok: Tok::Ident(t), .. }, Token { tok: Tok::Punct(b')'), .. }]
            if c == "cfg" && t == "test"
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

/// The index after the item (or field, or statement) starting at `i`:
/// after its `;`, or its `{ .. }` body for an item that has one, or before
/// a `,` or the closing bracket of what holds it.
fn item_end(t: &[Token], mut i: usize) -> usize {
    let semicolon_only = ["use", "const", "static", "let", "type"]
        .iter()
        .any(|w| ident(t, i, w) || (ident(t, i, "pub") && ident(t, i + 1, w)));
    while i < t.len() {
        match t[i].tok {
            Tok::Punct(b';') => return i + 1,
            Tok::Punct(b',') => return i,
            Tok::Punct(b')' | b']' | b'}') => return i,
            Tok::Punct(b'{') if !semicolon_only => return group_end(t, i),
            Tok::Punct(b'(' | b'[' | b'{') => i = group_end(t, i),
            _ => i += 1,
        }
    }
    t.len()
}

/// `a/b/../c` as `a/c`, `./x` as `x`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            _ => parts.push(p),
        }
    }
    parts.join("/")
}

fn join(dir: &str, rel: &str) -> String {
    if rel.starts_with(OUT_DIR) {
        return rel.to_string();
    }
    normalize(&format!("{dir}/{rel}"))
}

fn parent(path: &str) -> String {
    path.rsplit_once('/')
        .map_or(String::new(), |(d, _)| d.to_string())
}
