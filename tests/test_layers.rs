//! The core crate's modules depend on one another in layers: no new dependency between
//! its top-level modules that closes a cycle.
//!
//! Each file under `core/src` belongs to a top-level module (`schema/to_json.rs` to
//! `schema`); a path `crate::validate::…`, or `crate::Error` (re-exported at the root from
//! `error`), in its code is an edge to that module. Code under `#[cfg(test)]` and
//! comments (doc links) are left out. An edge lies on a cycle when its two ends reach
//! each other. The test fails when an edge lies on a cycle and is not one of [`KNOWN`];
//! and when a known edge no longer does, so that the list only shrinks.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The edges that lie on cycles today: none. At the bottom, `value` (JSON values compared
/// and described), `formats` and `suggest` (did-you-mean); on them the schema model
/// (`schema`); on the model the [`ToolSchema`] trait with its std impls (`tool_schema`),
/// and on that the derive's fast-path runtime (`fast_path`); the validator, the prompt forms
/// and the envelope reader read the model. None may be added: a piece two layers need
/// moves to the lower one.
///
/// [`ToolSchema`]: toolschema::ToolSchema
const KNOWN: &[(&str, &str)] = &[];

type Graph = BTreeMap<String, BTreeSet<String>>;

#[test]
fn the_modules_of_the_core_make_no_new_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src");
    let graph = graph(&src);
    assert!(graph.len() > 10, "the modules were not read: {graph:?}");
    let on_cycles = edges_on_cycles(&graph);
    let known: BTreeSet<(String, String)> = KNOWN
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let new: Vec<String> = on_cycles
        .difference(&known)
        .map(|(a, b)| format!("{a} -> {b}"))
        .collect();
    let gone: Vec<String> = known
        .difference(&on_cycles)
        .map(|(a, b)| format!("(\"{a}\", \"{b}\")"))
        .collect();
    assert!(
        new.is_empty(),
        "new dependencies between modules that close a cycle: {}",
        new.join(", ")
    );
    assert!(
        gone.is_empty(),
        "these edges lie on no cycle any more: take them out of KNOWN: {}",
        gone.join(", ")
    );
}

/// The edges whose two ends are in one strongly connected component.
fn edges_on_cycles(graph: &Graph) -> BTreeSet<(String, String)> {
    let components = cycles(graph);
    let mut edges = BTreeSet::new();
    for component in &components {
        for from in component {
            for to in graph.get(from).into_iter().flatten() {
                if component.contains(to) {
                    edges.insert((from.clone(), to.clone()));
                }
            }
        }
    }
    edges
}

#[test]
fn a_cycle_is_found_and_a_layering_is_not() {
    fn edge(graph: &mut Graph, a: &str, b: &str) {
        graph.entry(a.into()).or_default().insert(b.into());
    }
    let mut graph = Graph::new();
    edge(&mut graph, "agent", "parse");
    edge(&mut graph, "parse", "repair");
    edge(&mut graph, "repair", "error");
    assert!(cycles(&graph).is_empty());
    edge(&mut graph, "error", "parse");
    let found = cycles(&graph);
    let expected: BTreeSet<String> = ["error", "parse", "repair"].map(String::from).into();
    assert_eq!(found, [expected]);
}

/// The edges between the top-level modules of the crate at `src`.
fn graph(src: &Path) -> Graph {
    let lib = fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let modules = declared_modules(&lib);
    let reexports = root_reexports(&lib, &modules);
    let mut graph = Graph::new();
    for file in rust_files(src) {
        let relative = file.strip_prefix(src).expect("under src");
        let Some(from) = owner(relative, &modules) else {
            continue;
        };
        let text = fs::read_to_string(&file).expect("a source file");
        let code = code_lines(without_tests(&text));
        for name in crate_paths(&code) {
            let to = if modules.contains(&name) {
                Some(name)
            } else {
                reexports.get(&name).cloned()
            };
            if let Some(to) = to.filter(|to| *to != from) {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    graph
}

/// `mod x;` and `pub mod x;` of lib.rs (a `#[path]` module by its name).
fn declared_modules(lib: &str) -> BTreeSet<String> {
    lib.lines()
        .filter_map(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("mod "))?;
            rest.strip_suffix(';').map(str::to_owned)
        })
        .collect()
}

/// The names lib.rs re-exports at the root, each with the module it comes from:
/// `pub use error::{Error, Violation};`.
fn root_reexports(lib: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = rest.trim_end_matches(';').split_once("::") else {
            continue;
        };
        if !modules.contains(module) {
            continue;
        }
        for item in items.trim_matches(['{', '}']).split(',') {
            let name = item.trim().rsplit("::").next().unwrap_or_default();
            if !name.is_empty() {
                names.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    names
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("a directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// The top-level module a file belongs to: `schema/mod.rs`, `schema/to_json.rs` and
/// `schema.rs` to `schema`; `private.rs` is `__private`; lib.rs to none.
fn owner(relative: &Path, modules: &BTreeSet<String>) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    let name = if name == "private" { "__private" } else { name };
    modules.contains(name).then(|| name.to_owned())
}

/// The code of a file before its first `#[cfg(test)]`: unit tests come last, and may
/// reach anywhere.
fn without_tests(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

/// The lines of code, whole-line comments (docs and their links) left out.
fn code_lines(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of each `crate::` path: `crate::schema::Node` gives `schema`,
/// `crate::{error::Error, repair}` gives `error` and `repair`, `crate::Error` gives
/// `Error`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group_end(group);
            for item in split_top_level(&group[..end]) {
                names.extend(ident(item.trim()));
            }
            rest = &group[end..];
        } else {
            names.extend(ident(rest));
        }
    }
    names
}

/// Where a `{…}` group whose opening brace is already read closes.
fn group_end(text: &str) -> usize {
    let mut depth = 1;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// The items of a group, split at its own commas (not those of nested groups).
fn split_top_level(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&text[start..]);
    items
}

/// The identifier `text` starts with.
fn ident(text: &str) -> Option<String> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    (end > 0 && text[..end] != *"self").then(|| text[..end].to_owned())
}

/// The strongly connected components of two or more modules (Tarjan's algorithm).
fn cycles(graph: &Graph) -> Vec<BTreeSet<String>> {
    struct State<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<BTreeSet<String>>,
    }
    fn visit<'g>(state: &mut State<'g>, node: &'g str) {
        let n = state.index.len();
        state.index.insert(node, n);
        state.low.insert(node, n);
        state.stack.push(node);
        let graph = state.graph;
        for next in graph.get(node).into_iter().flatten() {
            let next = next.as_str();
            if !state.index.contains_key(next) {
                visit(state, next);
                let low = state.low[node].min(state.low[next]);
                state.low.insert(node, low);
            } else if state.stack.contains(&next) {
                let low = state.low[node].min(state.index[next]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = BTreeSet::new();
            while let Some(member) = state.stack.pop() {
                component.insert(member.to_owned());
                if member == node {
                    break;
                }
            }
            if component.len() > 1 {
                state.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}
