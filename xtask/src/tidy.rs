//! The tidy test: rules of the codebase that no compiler checks, run by
//! `cargo test --workspace`.

use std::path::PathBuf;

use crate::modules::rust_files;
use crate::workspace::root;

/// The library crates (everything under crates/ but the CLI and the test kit).
fn library_sources() -> Vec<PathBuf> {
    let crates = root().join("crates");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&crates).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("flexmd-") && name != "flexmd-testkit" {
            files.extend(rust_files(&entry.path().join("src")));
        }
    }
    files
}

/// The text of a source file before its `#[cfg(test)]` module (unit tests
/// sit at the end of a file here).
fn non_test_part(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |at| &text[..at])
}

#[test]
fn no_ignored_test_without_a_reason() {
    let mut bad = Vec::new();
    for dir in ["crates", "xtask", "benches"] {
        for file in rust_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            for (n, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.starts_with("#[ignore]") {
                    bad.push(format!("{}:{}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "#[ignore] needs a reason (#[ignore = \"why\"]): {bad:?}"
    );
}

#[test]
fn library_code_may_not_allow_panicking_shortcuts() {
    let forbidden = [
        "allow(clippy::unwrap_used",
        "allow(clippy::expect_used",
        "allow(clippy::panic",
        "allow(unsafe_code",
    ];
    // The one place unsafe code is allowed: the WebAssembly module's
    // global allocator, which only hands each call to the standard one
    // (`GlobalAlloc` is an unsafe trait; there is no safe way to install
    // an allocator).
    let allowed_unsafe = root().join("crates/flexmd-wasm/src/growth.rs");
    let mut bad = Vec::new();
    for file in library_sources() {
        // A `tests.rs` is a unit-test module (`#[cfg(test)] mod tests;`).
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for (n, line) in non_test_part(&text).lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            if file == allowed_unsafe && line.contains("allow(unsafe_code") {
                continue;
            }
            if forbidden.iter().any(|f| line.contains(f)) {
                bad.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "library code must not turn off the panic lints: {bad:#?}"
    );
}

#[test]
fn the_panic_lints_stay_on_for_every_crate() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap_or_default();
    for lint in [
        "unwrap_used = \"deny\"",
        "expect_used = \"deny\"",
        "panic = \"deny\"",
        "unsafe_code = \"deny\"",
    ] {
        assert!(manifest.contains(lint), "the workspace lints lost `{lint}`");
    }
    for entry in std::fs::read_dir(root().join("crates"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let path = entry.path().join("Cargo.toml");
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            text.contains("[lints]\nworkspace = true"),
            "{} does not take the workspace lints",
            path.display()
        );
    }
}

#[test]
fn dependencies_point_down() {
    assert_eq!(crate::layering(), Ok(()));
}

#[test]
fn the_layering_check_refuses_an_upward_dependency() {
    let package = |name: &str, deps: &[(&str, &str)]| {
        serde_json::json!({
            "name": name,
            "manifest_path": format!("/w/crates/{name}/Cargo.toml"),
            "dependencies": deps.iter().map(|(d, kind)| serde_json::json!({"name": d, "kind": kind})).collect::<Vec<_>>()
        })
    };
    let mut packages: Vec<serde_json::Value> = crate::workspace::LAYERS
        .iter()
        .map(|(name, _)| package(name, &[]))
        .collect();
    assert_eq!(
        crate::check_layers(&serde_json::json!({"packages": packages.clone()})),
        Ok(crate::workspace::LAYERS.len())
    );
    packages[0] = package("flexmd-core", &[("flexmd-ofs", "normal")]);
    assert_eq!(
        crate::check_layers(&serde_json::json!({"packages": packages.clone()})),
        Err("flexmd-core depends on flexmd-ofs: dependencies must point down (docs/ARCHITECTURE.md)".to_owned())
    );
    packages[0] = package("flexmd-core", &[("flexmd-testkit", "dev")]);
    assert!(crate::check_layers(&serde_json::json!({"packages": packages})).is_ok());
}

#[test]
fn every_fuzz_target_is_listed_in_the_reliability_record() {
    let targets = crate::fuzz_targets().unwrap_or_default();
    assert!(targets.len() >= 13, "fuzz targets: {targets:?}");
    let record = std::fs::read_to_string(root().join("docs/reliability.md")).unwrap_or_default();
    let missing: Vec<&String> = targets
        .iter()
        .filter(|t| !record.contains(&format!("`{t}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/reliability.md does not list these fuzz targets: {missing:?}"
    );
    for target in &targets {
        assert!(
            root()
                .join(format!("fuzz/fuzz_targets/{target}.rs"))
                .is_file(),
            "fuzz/Cargo.toml names {target} but fuzz_targets/{target}.rs is missing"
        );
    }
}

/// Every crate's sources: crates/*/src, xtask/src and benches/src.
fn crate_source_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    for extra in ["xtask/src", "benches/src"] {
        if root().join(extra).is_dir() {
            dirs.push(root().join(extra));
        }
    }
    dirs.sort();
    dirs
}

/// A module path as the tidy messages show it (`lib.rs` for the root).
fn shown(module: &str) -> &str {
    if module.is_empty() { "(root)" } else { module }
}

#[test]
fn no_import_circle_between_the_files_of_a_crate() {
    let mut found = Vec::new();
    for src in crate_source_dirs() {
        let graph = crate::modules::ModuleGraph::read(&src);
        for circle in graph.circles() {
            let edges: Vec<String> = circle
                .iter()
                .flat_map(|from| {
                    graph
                        .edges
                        .get(from)
                        .into_iter()
                        .flatten()
                        .filter(|to| circle.contains(to))
                        .map(move |to| format!("{} → {}", shown(from), shown(to)))
                })
                .collect();
            found.push(format!("{}: {}", src.display(), edges.join(", ")));
        }
    }
    assert!(
        found.is_empty(),
        "files that import each other round a circle (move the shared item down, \
         docs/ARCHITECTURE.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_source_file_opens_with_a_module_comment() {
    let mut bad = Vec::new();
    for dir in ["crates", "xtask", "benches"] {
        for file in rust_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            if !first.starts_with("//!") {
                bad.push(file.display().to_string());
            }
        }
    }
    assert!(
        bad.is_empty(),
        "each file opens with a //! comment saying what it owns: {bad:#?}"
    );
}

/// What a module may import from its own crate, for the modules whose
/// place in the crate rests on it: leaves that every other file uses (so a
/// new import would start a circle) and tables that must not know who runs
/// them. (crate, module, the only modules of the crate it may import, why).
const MODULE_RULES: &[(&str, &str, &[&str], &str)] = &[
    (
        "flexmd-artifact",
        "kind",
        &["artifact", "error", "json", "markdown", "reader"],
        "the tools read artifacts, not the other way",
    ),
    (
        "flexmd-artifact",
        "tools::catalogue",
        // grep and jsonpath give the length limits the schemas state.
        &["grep", "jsonpath", "kind", "tools::formats"],
        "the table describes the tools; it never runs one",
    ),
    (
        "flexmd-artifact",
        "tools::args",
        &["error", "tools::catalogue"],
        "arguments are checked from the table alone",
    ),
    (
        "flexmd-artifact",
        "tools::result",
        &[],
        "result text knows no tool names",
    ),
    (
        "flexmd-artifact",
        "tools::formats",
        &["error"],
        "provider formats are wire shapes",
    ),
    ("flexmd-artifact", "autolink", &[], "a leaf of markdown"),
    (
        "flexmd-detect",
        "answer",
        &[],
        "every reader of answers shares it",
    ),
    (
        "flexmd-detect",
        "repair::lookahead",
        &["repair_kind"],
        "the one place that reads ahead of the cursor",
    ),
    (
        "flexmd-detect",
        "ladder",
        &["answer", "repair", "repair_kind"],
        "the ladder reads a value where it is told to; finding is above it",
    ),
    (
        "flexmd-detect",
        "stream::parser",
        &["answer", "stream::event", "stream::patch"],
        "the incremental parser never falls back to the repair parser",
    ),
    (
        "flexmd-core",
        "line_kind",
        &[],
        "every line reader shares it",
    ),
    (
        "flexmd-cli",
        "config",
        &["error"],
        "every command that names a schema sets up through it",
    ),
    (
        "flexmd-ofs",
        "stream::event",
        &["check", "json"],
        "wire types, written as `check` and `to_json` write them",
    ),
    ("flexmd-schema", "pointer", &[], "a leaf under every file"),
    (
        "flexmd-schema",
        "violation",
        &["pointer"],
        "a leaf under every file",
    ),
    ("flexmd-schema", "coercion", &[], "a leaf under every file"),
    (
        "flexmd-schema",
        "outcome",
        &["coercion", "violation"],
        "what a validation returns knows no validator",
    ),
    (
        "flexmd-schema",
        "attempt",
        &["violation"],
        "an attempt's record runs no model",
    ),
    (
        "flexmd-schema",
        "error",
        &["attempt"],
        "errors sit below the code that raises them",
    ),
    (
        "flexmd-core",
        "outline",
        &["markdown", "model", "text"],
        "streams use the outline, not the other way",
    ),
    (
        "flexmd-report",
        "judged",
        &["interval"],
        "one answer's judgement knows no tally",
    ),
    ("flexmd-py", "errors", &[], "every area raises through it"),
    (
        "flexmd-py",
        "convert",
        &["errors"],
        "every area converts through it",
    ),
    (
        "flexmd-py",
        "gil",
        &["errors"],
        "every area runs calls through it",
    ),
    ("flexmd-wasm", "api", &[], "every export goes through it"),
];

#[test]
fn modules_import_only_what_their_rule_allows() {
    let mut bad = Vec::new();
    for (krate, module, allowed, why) in MODULE_RULES {
        let graph =
            crate::modules::ModuleGraph::read(&root().join("crates").join(krate).join("src"));
        let Some(imports) = graph.edges.get(*module) else {
            bad.push(format!(
                "{krate}: no module `{module}` (the rule names a module that moved)"
            ));
            continue;
        };
        for import in imports {
            if !allowed.contains(&import.as_str()) {
                bad.push(format!(
                    "{krate}: `{module}` imports `{}` ({why})",
                    shown(import)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "module rules broken (xtask/src/tidy.rs MODULE_RULES):\n{}",
        bad.join("\n")
    );
}
