//! The module graph: its cycles (strongly connected components) and the
//! report of each.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Source lines shown per edge of a cycle.
const EVIDENCE: usize = 3;

/// Modules, their files, and edges `from → to → [(line in from, text)]`.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    pub(crate) files: BTreeMap<String, String>,
    pub(crate) edges: BTreeMap<String, BTreeMap<String, Vec<(usize, String)>>>,
}

pub(crate) fn display(m: &str) -> &str {
    if m.is_empty() {
        "crate"
    } else {
        m
    }
}

impl Graph {
    /// The strongly connected components of more than one module (Tarjan),
    /// each sorted, in order of their first module.
    pub(crate) fn cycles(&self) -> Vec<Vec<String>> {
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
    pub(crate) fn describe(&self, n: usize, comp: &[String], prefix: &str) -> String {
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
