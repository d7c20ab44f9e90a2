//! `cargo xtask rendered-docs [--no-build]`: link syntax that rustdoc left
//! as text in the rendered HTML.
//!
//! `RUSTDOCFLAGS="-D warnings"` catches an intra-doc link rustdoc parsed and
//! could not resolve, but not one it left as text without a warning: a doc
//! comment whose link is never parsed as one (split over fragments, a
//! reference-style link without its definition), or a link to another
//! crate that resolves but has nowhere to point, because that crate's docs
//! were not in the output directory when this one was rendered (rustdoc
//! then prints the link's source text: `see [<code>Config</code>]`). Those
//! render with their brackets on the page a user reads.
//!
//! This renders the workspace's docs twice (`cargo doc --workspace
//! --no-deps`, then again with a `--cfg` added to `RUSTDOCFLAGS`, one crate
//! at a time in the members' order, so that every crate is rendered anew
//! while the docs of every crate it links to exist: the order cargo
//! renders crates in does not decide the result), unless
//! `--no-build` (then it reads the docs already in `target/doc`). It reads
//! the prose of every doc block of every workspace crate's pages (code
//! blocks and code spans set aside) and fails on any bracketed text that
//! is link syntax: `[`code`]`, `[path::Name]`, `[text](…)` or `[text][…]`.
//! Bracketed prose (`[0, 255]`, a citation) is not link syntax. Each finding
//! names the page and the text; [`KNOWN`] lists the failures another change
//! fixes, reported without failing the run.
//!
//! One crate rendered alone (`cargo doc -p http-net-tokio --no-deps` in a
//! fresh target directory) still shows every link to another workspace
//! crate as bracketed text: rustdoc has no location for docs it did not
//! render, and the crates set no `html_root_url`. That is not checked here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::process::{root, Result};

/// Known failures: (page under `target/doc`, the bracketed text as this
/// check prints it), each with the change that fixes it. None today: the
/// tokio builders' `conn_config` docs, once the last entries, are written
/// out with full-path links.
const KNOWN: &[(&str, &str)] = &[];

/// One bracketed text found in a page's prose.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Finding {
    /// The page, relative to `target/doc`.
    page: String,
    /// The bracketed text, code spans between backticks.
    text: String,
}

pub fn main(args: &[String]) -> Result {
    let mut build = true;
    for a in args {
        match a.as_str() {
            "--no-build" => build = false,
            other => return Err(format!("rendered-docs: unknown argument {other:?}")),
        }
    }
    let flags = std::env::var("RUSTDOCFLAGS").unwrap_or_default();
    check(build.then_some(flags.as_str()))
}

/// Renders the docs with `flags` as `RUSTDOCFLAGS` (twice, see the module
/// doc) unless `None`, then checks the pages in `target/doc`.
pub fn check(build_with: Option<&str>) -> Result {
    let root = root();
    if let Some(flags) = build_with {
        crate::process::run(
            "cargo doc (first pass)",
            std::process::Command::new("cargo")
                .current_dir(&root)
                .env("RUSTDOCFLAGS", flags.trim())
                .args(["doc", "--workspace", "--no-deps"]),
        )?;
        // The second pass one crate at a time, in the members' order (each
        // after the crates it depends on): cargo empties a crate's doc
        // directory before it renders it, so a crate rendered beside one
        // it links to can find that one's docs gone and print its links as
        // text, whatever the pass.
        let flags = format!("{flags} --cfg http_net_rendered_docs");
        for package in workspace_packages(&root)? {
            crate::process::run(
                &format!("cargo doc -p {package} (second pass)"),
                std::process::Command::new("cargo")
                    .current_dir(&root)
                    .env("RUSTDOCFLAGS", flags.trim())
                    .args(["doc", "--no-deps", "-p", &package]),
            )?;
        }
    }
    let doc = root.join("target/doc");
    let crates = workspace_crates(&root)?;
    let mut pages = Vec::new();
    for name in &crates {
        let dir = doc.join(name);
        if dir.is_dir() {
            html_files(&dir, &mut pages)?;
        }
    }
    if pages.is_empty() {
        return Err(format!(
            "rendered-docs: no page of {} under {} (run cargo doc --workspace --no-deps)",
            crates.iter().cloned().collect::<Vec<_>>().join(", "),
            doc.display()
        ));
    }
    let mut found = BTreeSet::new();
    for page in &pages {
        let html = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
        let rel = page
            .strip_prefix(&doc)
            .unwrap_or(page)
            .to_string_lossy()
            .replace('\\', "/");
        for text in link_syntax(&html) {
            found.insert(Finding {
                page: rel.clone(),
                text,
            });
        }
    }
    let is_known = |f: &Finding| KNOWN.iter().any(|(p, t)| f.page == *p && f.text == *t);
    let mut failures = Vec::new();
    for f in &found {
        if is_known(f) {
            eprintln!("rendered-docs: known failure: {}: {}", f.page, f.text);
        } else {
            failures.push(format!("{}: {}", f.page, f.text));
        }
    }
    for (p, t) in KNOWN {
        if !found.iter().any(|f| f.page == *p && f.text == *t) {
            eprintln!("rendered-docs: known failure not seen in this render: {p}: {t}");
        }
    }
    if failures.is_empty() {
        eprintln!(
            "rendered-docs: {} pages of {} crates, no link syntax left as text{}",
            pages.len(),
            crates.len(),
            if found.is_empty() {
                String::new()
            } else {
                format!(" but the {} known", found.len())
            }
        );
        Ok(())
    } else {
        Err(format!(
            "rendered-docs: link syntax left as text in the rendered docs:\n  {}",
            failures.join("\n  ")
        ))
    }
}

/// The doc directories of the workspace's crates: each member's package
/// name with `-` as `_` (rustdoc's directory for its library, or its binary).
fn workspace_crates(root: &Path) -> Result<BTreeSet<String>> {
    Ok(workspace_packages(root)?
        .iter()
        .map(|name| name.replace('-', "_"))
        .collect())
}

/// The workspace members' package names, in the manifest's order.
fn workspace_packages(root: &Path) -> Result<Vec<String>> {
    let manifest =
        std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| format!("Cargo.toml: {e}"))?;
    let mut out = Vec::new();
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .ok_or("Cargo.toml: no workspace members list")?;
    for member in members.split(',') {
        let member = member.trim().trim_matches('"');
        if member.is_empty() {
            continue;
        }
        let path = root.join(member).join("Cargo.toml");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = text
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("name = \"")
                    .and_then(|r| r.strip_suffix('"'))
            })
            .ok_or_else(|| format!("{}: no package name", path.display()))?;
        out.push(name.to_string());
    }
    Ok(out)
}

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            html_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
    out.sort();
    Ok(())
}

/// The bracketed texts of a page's doc blocks that are link syntax.
fn link_syntax(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for block in doc_blocks(html) {
        let prose = prose(block);
        out.extend(bracketed_links(&prose));
    }
    out
}

/// The inner HTML of every `<div>` whose class names a doc block
/// (`docblock`, `docblock-short`).
fn doc_blocks(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = html[at..].find("<div ") {
        let start = at + i;
        let Some(tag_end) = html[start..].find('>').map(|j| start + j + 1) else {
            break;
        };
        let tag = &html[start..tag_end];
        let is_doc = tag
            .split_once("class=\"")
            .and_then(|(_, r)| r.split_once('"'))
            .is_some_and(|(class, _)| class.split(' ').any(|c| c.starts_with("docblock")));
        if !is_doc {
            at = tag_end;
            continue;
        }
        // The matching `</div>`, counting the divs opened inside.
        let mut depth = 1;
        let mut pos = tag_end;
        let end = loop {
            let open = html[pos..].find("<div").map(|j| pos + j);
            let close = html[pos..].find("</div>").map(|j| pos + j);
            match (open, close) {
                (Some(o), Some(c)) if o < c => {
                    depth += 1;
                    pos = o + 4;
                }
                (_, Some(c)) => {
                    depth -= 1;
                    pos = c + 6;
                    if depth == 0 {
                        break Some(c);
                    }
                }
                (_, None) => break None,
            }
        };
        let Some(end) = end else { break };
        out.push(&html[tag_end..end]);
        at = end;
    }
    out
}

/// Stand-ins for brackets inside a code span, so that `&[u8]` is not read
/// as a bracketed text.
const OPEN_IN_CODE: char = '\u{2045}';
const CLOSE_IN_CODE: char = '\u{2046}';

/// A doc block's prose: code blocks (`<pre>`) dropped, code spans kept
/// between backticks with their brackets replaced, other tags dropped,
/// the common entities decoded.
fn prose(block: &str) -> String {
    let mut out = String::new();
    let mut rest = block;
    let mut in_code = 0usize;
    while let Some(i) = rest.find('<') {
        push_text(&mut out, &rest[..i], in_code > 0);
        let after = &rest[i..];
        if after.starts_with("<pre") {
            rest = match after.find("</pre>") {
                Some(j) => &after[j + 6..],
                None => "",
            };
            continue;
        }
        let Some(j) = after.find('>') else {
            rest = "";
            break;
        };
        let tag = &after[..=j];
        if tag.starts_with("<code") {
            in_code += 1;
            out.push('`');
        } else if tag == "</code>" {
            in_code = in_code.saturating_sub(1);
            out.push('`');
        }
        rest = &after[j + 1..];
    }
    push_text(&mut out, rest, in_code > 0);
    out
}

fn push_text(out: &mut String, text: &str, code: bool) {
    let decoded = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&");
    if code {
        out.extend(decoded.chars().map(|c| match c {
            '[' => OPEN_IN_CODE,
            ']' => CLOSE_IN_CODE,
            c => c,
        }));
    } else {
        out.push_str(&decoded);
    }
}

/// The `[…]` texts of `prose` that are link syntax (see the module doc),
/// with the brackets of code spans given back.
fn bracketed_links(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = prose.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '[' {
            i += 1;
            continue;
        }
        let close = chars[i + 1..]
            .iter()
            .take(300)
            .position(|&c| c == ']' || c == '[')
            .map(|k| i + 1 + k);
        let Some(close) = close.filter(|&c| chars[c] == ']') else {
            i += 1;
            continue;
        };
        let inner: String = chars[i + 1..close].iter().collect();
        let next = chars.get(close + 1).copied();
        if is_link_text(&inner, next) {
            let mut text: String = chars[i..=close].iter().collect();
            if next == Some('(') || next == Some('[') {
                let end = chars[close + 1..]
                    .iter()
                    .position(|&c| c == ')' || c == ']')
                    .map_or(chars.len(), |k| close + 2 + k);
                text = chars[i..end.min(chars.len())].iter().collect();
            }
            out.push(
                text.replace(OPEN_IN_CODE, "[")
                    .replace(CLOSE_IN_CODE, "]")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        i = close + 1;
    }
    out
}

/// Whether `[inner]`, followed by `next`, is link syntax: a text followed
/// by `(` or `[` (an inline or reference link), a code span alone, or a
/// Rust path.
fn is_link_text(inner: &str, next: Option<char>) -> bool {
    let t = inner.trim();
    if t.is_empty() {
        return false;
    }
    if matches!(next, Some('(' | '[')) {
        return true;
    }
    let code_alone =
        t.len() >= 2 && t.starts_with('`') && t.ends_with('`') && !t[1..t.len() - 1].contains('`');
    code_alone || is_path(t)
}

/// `a::b::C`, `Name`, `f()`, `m!`: what an intra-doc link names. A lone
/// lowercase word (`[n]`) or a number is prose.
fn is_path(t: &str) -> bool {
    let t = t
        .strip_suffix("()")
        .or_else(|| t.strip_suffix('!'))
        .unwrap_or(t);
    let t = [
        "struct@", "enum@", "trait@", "fn@", "mod@", "macro@", "type@", "const@",
    ]
    .iter()
    .find_map(|p| t.strip_prefix(p))
    .unwrap_or(t);
    let segments: Vec<&str> = t.split("::").collect();
    let ident = |s: &str| {
        let mut c = s.chars();
        c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
            && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !segments.iter().all(|s| ident(s)) {
        return false;
    }
    segments.len() > 1 || t.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && t.len() > 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(block: &str) -> String {
        format!(
            "<html><div class=\"main\"><h4 class=\"code-header\">pub fn f(b: &amp;[u8])</h4>\
             <div class=\"docblock\">{block}</div></div></html>"
        )
    }

    #[test]
    fn an_unparsed_intra_doc_link_is_found() {
        let html = page("<p>The limits: see\n[<code>http_net_conn::Config</code>].</p>");
        assert_eq!(link_syntax(&html), ["[`http_net_conn::Config`]"]);
    }

    #[test]
    fn paths_inline_and_reference_links_are_found() {
        let html = page(
            "<p>See [Config], [http_net::blocking::Server], [the guide](guide.md), \
             [the RFC][rfc] and [<code>read</code>]().</p>",
        );
        assert_eq!(
            link_syntax(&html),
            [
                "[Config]",
                "[http_net::blocking::Server]",
                "[the guide](guide.md)",
                "[the RFC][rfc]",
                "[`read`]()"
            ]
        );
    }

    #[test]
    fn resolved_links_code_and_bracketed_prose_are_not() {
        let html = page(
            "<p>A <a href=\"struct.Config.html\"><code>Config</code></a>, a slice \
             <code>&amp;[u8]</code>, <code>[0u8; 4]</code>, the range [0, 255], \
             element [n], note [1].</p>\
             <div class=\"example-wrap\"><pre class=\"rust\"><code>let a = [Config];\n</code></pre></div>\
             <p>After the example: [<code>Late</code>].</p>",
        );
        assert_eq!(link_syntax(&html), ["[`Late`]"]);
    }

    #[test]
    fn short_doc_blocks_count_and_other_divs_do_not() {
        let html = "<div class=\"desc docblock-short\">Uses [<code>X</code>]</div>\
                    <div class=\"sidebar\">[Config]</div>";
        assert_eq!(link_syntax(html), ["[`X`]"]);
    }

    #[test]
    fn the_workspace_crates_are_read_from_the_manifests() {
        let crates = workspace_crates(&root()).unwrap();
        for name in ["http_net", "http_net_conn", "http_net_tokio", "xtask"] {
            assert!(crates.contains(name), "{crates:?}");
        }
    }
}
