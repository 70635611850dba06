//! The tidy test: rules of the codebase that no compiler checks, run by
//! `cargo test --workspace`.

use std::path::{Path, PathBuf};

use crate::root;

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
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
    let mut packages: Vec<serde_json::Value> = crate::LAYERS
        .iter()
        .map(|(name, _)| package(name, &[]))
        .collect();
    assert_eq!(
        crate::check_layers(&serde_json::json!({"packages": packages.clone()})),
        Ok(crate::LAYERS.len())
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
