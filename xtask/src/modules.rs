//! The module graph inside one crate, read from its sources: which file
//! names an item of which other file. The tidy test uses it to refuse import
//! circles between the files of a crate and the edges `MODULE_RULES` forbids.
//!
//! Edges are read from the part of each file before its `#[cfg(test)]`
//! module, without comments (doc links are not imports), from
//! - `crate::a::b::Item` paths, in `use` trees (`use crate::{a, b::{C, D}}`)
//!   and in code;
//! - `super::` paths, resolved against the file's own module;
//! - `child::item` paths naming a module declared by the file itself.
//!
//! A path stops at the deepest module that is a file of the crate. A path to
//! an item the crate root only re-exports (`pub use a::Item;` in `lib.rs`)
//! counts as an edge to `a`, where the item lives. A module's `mod child;`
//! declarations and its `pub use` lines are its index, not its imports: a
//! parent that declares a type and lets its children add methods to it
//! (`impl Parser` in `parser/value.rs`) has no edge to them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One crate's files as module paths (`""` for the root, `"tools::run"`),
/// with the modules each one imports.
#[derive(Debug, Default)]
pub struct ModuleGraph {
    /// module path → the module paths it imports (never itself).
    pub edges: BTreeMap<String, BTreeSet<String>>,
}

impl ModuleGraph {
    /// Reads the crate whose sources are under `src` (`lib.rs` or
    /// `main.rs` at its root).
    pub fn read(src: &Path) -> ModuleGraph {
        let mut texts = BTreeMap::new();
        // With a `lib.rs`, `main.rs` is a binary crate of its own that
        // uses the library by name.
        let has_lib = src.join("lib.rs").is_file();
        for file in rust_files(src) {
            if has_lib && file == src.join("main.rs") {
                continue;
            }
            let Ok(rel) = file.strip_prefix(src) else {
                continue;
            };
            let Some(module) = module_path(rel) else {
                continue;
            };
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            texts.insert(module, code_only(&text));
        }
        ModuleGraph::from_texts(&texts)
    }

    /// The graph of modules given as (module path → code without comments).
    pub fn from_texts(texts: &BTreeMap<String, String>) -> ModuleGraph {
        let modules: BTreeSet<String> = texts.keys().cloned().collect();
        let reexports = texts
            .get("")
            .map(|root| root_reexports(root, &modules))
            .unwrap_or_default();
        let mut edges = BTreeMap::new();
        for (module, text) in texts {
            let mut to = BTreeSet::new();
            for path in paths_in(text, module, &modules) {
                let target = resolve(&path, &modules, &reexports);
                if target != *module && !is_test_module(&target) {
                    to.insert(target);
                }
            }
            edges.insert(module.clone(), to);
        }
        ModuleGraph { edges }
    }

    /// Every set of two or more modules that import each other round a
    /// circle (strongly connected components), each sorted.
    pub fn circles(&self) -> Vec<Vec<String>> {
        let names: Vec<&String> = self.edges.keys().collect();
        let index: BTreeMap<&String, usize> =
            names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let next: Vec<Vec<usize>> = names
            .iter()
            .map(|n| {
                self.edges
                    .get(*n)
                    .into_iter()
                    .flatten()
                    .filter_map(|t| index.get(t).copied())
                    .collect()
            })
            .collect();
        strongly_connected(&next)
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|c| {
                let mut c: Vec<String> = c.iter().map(|&i| names[i].clone()).collect();
                c.sort();
                c
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }
}

/// Every `.rs` file below `dir`.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// `tools/run.rs` → `tools::run`; `tools/mod.rs` → `tools`; `lib.rs` and
/// `main.rs` → the root. `None` for a binary under `bin/`.
pub fn module_path(rel: &Path) -> Option<String> {
    let parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.as_slice() {
        [one] if one == "lib" || one == "main" => Some(String::new()),
        [first, ..] if first == "bin" => None,
        [init @ .., last] if last == "mod" => Some(init.join("::")),
        all => Some(all.join("::")),
    }
}

fn is_test_module(module: &str) -> bool {
    module
        .rsplit("::")
        .next()
        .is_some_and(|last| last == "tests")
}

/// The code of a file before its unit tests (the first `#[cfg(test)]`
/// that opens an inline module), with comments blanked and string literals
/// emptied (neither holds an import).
pub fn code_only(text: &str) -> String {
    let code = without_comments(text);
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]").map(|i| from + i) {
        let after = code[at + "#[cfg(test)]".len()..].trim_start();
        let inline_module = after.strip_prefix("mod ").is_some_and(|rest| {
            let name = rest.bytes().take_while(|&b| is_ident(b)).count();
            rest[name..].trim_start().starts_with('{')
        });
        if inline_module {
            return code[..at].to_owned();
        }
        from = at + 1;
    }
    code
}

/// `text` with comments left out and string literals emptied.
fn without_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(text.len(), |n| i + n);
            i = end;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(text.len(), |n| i + n + 2);
            i = end;
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].bytes().take_while(|&b| b == b'#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 2 + hashes;
            let end = rest[body..]
                .find(&close)
                .map_or(text.len(), |n| i + body + n + close.len());
            out.push_str("\"\"");
            i = end;
        } else if rest.starts_with('"') {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = (j + 1).min(bytes.len());
        } else if rest.starts_with("'\"'") {
            // A char literal holding a quote would open a string above.
            out.push_str("' '");
            i += 3;
        } else {
            let ch = rest.chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Items the root re-exports by name: `pub use a::b::{C, D};` maps C and D
/// to `a::b` (or the deepest module of that path that is a file).
fn root_reexports(root: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for statement in root.split(';') {
        let statement = statement.trim();
        // A private `use` in the root names the item for the whole crate
        // too (`crate::print_json` for `use output::print_json;`).
        let Some(tree) = statement
            .strip_prefix("pub use ")
            .or_else(|| statement.strip_prefix("pub(crate) use "))
            .or_else(|| statement.strip_prefix("use "))
        else {
            continue;
        };
        let tree = tree
            .trim_start_matches("crate::")
            .trim_start_matches("self::");
        for path in expand_use_tree(tree) {
            let Some((head, name)) = path.rsplit_once("::") else {
                continue;
            };
            let name = name.split(" as ").last().unwrap_or(name).trim();
            let module = deepest_module(head, modules);
            if !module.is_empty() {
                map.insert(name.to_owned(), module);
            }
        }
    }
    map
}

/// Module paths (from the crate root) named by the code of `module`.
fn paths_in(text: &str, module: &str, modules: &BTreeSet<String>) -> Vec<String> {
    let (code, reexported) = split_index(text);
    let children: BTreeSet<&str> = modules
        .iter()
        .filter_map(|m| {
            let rest = if module.is_empty() {
                Some(m.as_str())
            } else {
                m.strip_prefix(module).and_then(|r| r.strip_prefix("::"))
            };
            rest.filter(|r| !r.is_empty() && !r.contains("::"))
        })
        .collect();
    let mut found = Vec::new();
    for (code, index) in [(code.as_str(), false), (reexported.as_str(), true)] {
        for path in named_paths(code, module, &children) {
            // A re-export of the module's own descendants is its index.
            let own =
                module.is_empty() || path == module || path.starts_with(&format!("{module}::"));
            if !(index && own) {
                found.push(path);
            }
        }
    }
    found
}

/// The code apart from `mod x;` declarations, and the `pub use` statements
/// (joined) apart from the rest.
fn split_index(text: &str) -> (String, String) {
    let mut code = String::with_capacity(text.len());
    let mut reexported = String::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !is_ident(bytes[i - 1]);
        let rest = &text[i..];
        if boundary {
            let after_vis = ["pub(crate) ", "pub(super) ", "pub "]
                .iter()
                .find_map(|v| rest.strip_prefix(v));
            let statement_end = rest.find(';').map(|n| i + n + 1);
            if let (Some(r), Some(end)) = (after_vis, statement_end)
                && r.starts_with("use ")
            {
                reexported.push_str(&text[i..end]);
                reexported.push('\n');
                i = end;
                continue;
            }
            let r = after_vis.unwrap_or(rest);
            if let Some(decl) = r.strip_prefix("mod ") {
                let name = decl.bytes().take_while(|&b| is_ident(b)).count();
                if decl[name..].trim_start().starts_with(';') {
                    i = statement_end.unwrap_or(bytes.len());
                    continue;
                }
            }
        }
        let ch = rest.chars().next().unwrap_or(' ');
        code.push(ch);
        i += ch.len_utf8();
    }
    (code, reexported)
}

/// Paths that start with `crate::`, `super::`, `self::` or the name of one
/// of `children`, resolved to paths from the crate root.
fn named_paths(code: &str, module: &str, children: &BTreeSet<&str>) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let at_word = i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != b':';
        if !at_word || !is_ident(bytes[i]) {
            i += 1;
            continue;
        }
        let word_end = (i..bytes.len())
            .find(|&j| !is_ident(bytes[j]))
            .unwrap_or(bytes.len());
        let word = &code[i..word_end];
        let Some(mut rest) = code[word_end..].strip_prefix("::") else {
            i = word_end;
            continue;
        };
        let (mut base, tree_head) = match word {
            "crate" => (String::new(), ""),
            "super" => (parent(module), ""),
            "self" => (module.to_owned(), ""),
            w if children.contains(w) => (module.to_owned(), w),
            _ => {
                i = word_end;
                continue;
            }
        };
        while let Some(r) = rest.strip_prefix("super::") {
            base = parent(&base);
            rest = r;
        }
        let (tree, used) = take_use_tree(rest);
        let tree = join(tree_head, &tree);
        for path in expand_use_tree(&tree) {
            found.push(join(&base, &path));
        }
        i = word_end + 2 + used.max(1);
    }
    found
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn parent(module: &str) -> String {
    module
        .rsplit_once("::")
        .map_or(String::new(), |(p, _)| p.to_owned())
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_owned(),
        (_, true) => a.to_owned(),
        _ => format!("{a}::{b}"),
    }
}

/// The use tree at the start of `text` (`a::b::{C, d::E}` or `a::f`) and
/// how many bytes it took.
fn take_use_tree(text: &str) -> (String, usize) {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'{' {
            depth += 1;
        } else if b == b'}' {
            if depth == 0 {
                break;
            }
            depth -= 1;
        } else if depth == 0 && !(is_ident(b) || b == b':' || b == b'*') {
            break;
        }
        i += 1;
    }
    let tree: String = text[..i].split_whitespace().collect::<Vec<_>>().join(" ");
    (tree, i)
}

/// `a::{B, c::{D, E}}` → `a::B`, `a::c::D`, `a::c::E`.
fn expand_use_tree(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.trim_end_matches("::").to_owned()];
    };
    let head = tree[..open].trim_end_matches("::").trim();
    let inner = tree[open + 1..].trim_end().trim_end_matches('}');
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let bytes = inner.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                out.extend(
                    expand_use_tree(&inner[start..i])
                        .into_iter()
                        .map(|p| join(head, &p)),
                );
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner[start..].trim().is_empty() {
        out.extend(
            expand_use_tree(&inner[start..])
                .into_iter()
                .map(|p| join(head, &p)),
        );
    }
    if out.is_empty() {
        out.push(head.to_owned());
    }
    out
}

/// The deepest prefix of `path` that is a module of the crate.
fn deepest_module(path: &str, modules: &BTreeSet<String>) -> String {
    let segments: Vec<&str> = path.split("::").map(str::trim).collect();
    (0..=segments.len())
        .rev()
        .map(|n| segments[..n].join("::"))
        .find(|p| modules.contains(p))
        .unwrap_or_default()
}

fn resolve(path: &str, modules: &BTreeSet<String>, reexports: &BTreeMap<String, String>) -> String {
    let path = path.split(" as ").next().unwrap_or(path).trim();
    let module = deepest_module(path, modules);
    if module.is_empty() {
        let name = path.split("::").next().unwrap_or("");
        if let Some(m) = reexports.get(name) {
            return m.clone();
        }
    }
    module
}

/// Tarjan's algorithm, iterative (a crate has at most a few hundred files,
/// but the tidy test should not recurse on data either).
fn strongly_connected(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = next.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut counter = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 {
                index[v] = counter;
                low[v] = counter;
                counter += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = next[v].get(*edge) {
                *edge += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(component);
            }
        }
    }
    components
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(files: &[(&str, &str)]) -> ModuleGraph {
        let texts = files
            .iter()
            .map(|(m, t)| ((*m).to_owned(), code_only(t)))
            .collect();
        ModuleGraph::from_texts(&texts)
    }

    fn edges(g: &ModuleGraph, m: &str) -> Vec<String> {
        g.edges.get(m).into_iter().flatten().cloned().collect()
    }

    #[test]
    fn use_trees_super_children_and_reexports_are_edges() {
        let g = graph(&[
            (
                "",
                "mod a; mod b; mod c; pub mod tools; pub use a::Thing; pub use c::{One, Two as Deux};",
            ),
            (
                "a",
                "use crate::{b::{X, Y}, tools::run::go};\nfn f() { crate::Deux::new() }",
            ),
            (
                "b",
                "// use crate::a;\nfn f() -> crate::Thing { \"crate::c\" }",
            ),
            ("c", "fn f() { super::b::g() }"),
            ("tools", "mod run; pub use run::go; fn h() { run::other() }"),
            ("tools::run", "use super::Catalogue;"),
        ]);
        assert_eq!(edges(&g, "a"), ["b", "c", "tools::run"]);
        assert_eq!(edges(&g, "b"), ["a"]);
        assert_eq!(edges(&g, "c"), ["b"]);
        assert_eq!(edges(&g, "tools"), ["tools::run"]);
        assert_eq!(edges(&g, "tools::run"), ["tools"]);
        assert_eq!(edges(&g, ""), Vec::<String>::new());
        assert_eq!(
            g.circles(),
            [vec!["a", "b", "c"], vec!["tools", "tools::run"]]
        );
    }

    #[test]
    fn a_type_in_the_parent_with_methods_in_children_is_no_circle() {
        let g = graph(&[
            ("", "mod repair; pub use repair::parse;"),
            (
                "repair",
                "mod value; mod lookahead; pub struct Parser; pub fn parse() { Parser.value() }",
            ),
            (
                "repair::value",
                "use super::Parser; use crate::repair::lookahead::window; impl Parser { pub(super) fn value(&self) {} }",
            ),
            ("repair::lookahead", "pub fn window() {}"),
        ]);
        assert_eq!(edges(&g, "repair::value"), ["repair", "repair::lookahead"]);
        assert!(g.circles().is_empty(), "{:?}", g.circles());
    }

    #[test]
    fn only_the_inline_test_module_is_cut() {
        let text = "// #[cfg(test)] in a comment\n#[cfg(test)]\nmod modules;\nuse crate::a::B;\n#[cfg(test)]\nmod tests {\n    use crate::c::D;\n}\n";
        let code = code_only(text);
        assert!(code.contains("crate::a::B"), "{code}");
        assert!(!code.contains("crate::c::D"), "{code}");
    }

    #[test]
    fn a_name_the_root_brings_in_privately_is_its_modules() {
        let g = graph(&[
            (
                "",
                "mod cmd; mod output; pub(crate) use crate::output::{print, print_json}; fn main() { cmd::run() }",
            ),
            ("cmd", "pub fn run() { crate::print_json(); }"),
            ("output", "pub fn print_json() {}"),
        ]);
        assert_eq!(edges(&g, "cmd"), ["output"]);
        assert_eq!(edges(&g, ""), ["cmd"]);
        assert!(g.circles().is_empty(), "{:?}", g.circles());
    }

    #[test]
    fn module_paths_follow_the_file_layout() {
        assert_eq!(module_path(Path::new("lib.rs")).as_deref(), Some(""));
        assert_eq!(
            module_path(Path::new("tools/mod.rs")).as_deref(),
            Some("tools")
        );
        assert_eq!(
            module_path(Path::new("tools/run.rs")).as_deref(),
            Some("tools::run")
        );
        assert_eq!(module_path(Path::new("bin/x.rs")), None);
    }
}
