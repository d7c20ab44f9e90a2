//! A crate: its modules from the root file, how a path resolves to a
//! module, and the module → module graph.

use std::collections::BTreeMap;

use crate::graph::Graph;
use crate::parse::{parse, Kind, Parsed};

/// One module: its file (relative to `src/`) and what the file says.
#[derive(Debug)]
pub(crate) struct Module {
    pub(crate) file: String,
    pub(crate) parsed: Parsed,
}

/// A crate's modules by path (`""` is the root, `"a::b"` a child's child).
#[derive(Debug, Default)]
pub(crate) struct Crate {
    pub(crate) modules: BTreeMap<String, Module>,
}

/// Loads a crate from its root file (`lib.rs` or `main.rs`), following
/// `mod x;` declarations; `read` gives a file's text by its path relative
/// to `src/`.
pub(crate) fn load(read: &dyn Fn(&str) -> Option<String>, root: &str) -> Crate {
    let mut krate = Crate::default();
    // (module path, file, folder its children live in)
    let mut queue = vec![(String::new(), root.to_string(), String::new())];
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
    pub(crate) fn graph(&self) -> Graph {
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
