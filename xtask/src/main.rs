//! flexmd's project automation (`cargo xtask <task>`).
//!
//! - `ci`: exactly what `.ci/run` runs: format check, clippy, the README's test
//!   command, the generated files check (`codegen --check`), a packaging
//!   check of the published crates, a check that the fuzz targets compile, the layering check, then
//!   the conformance suites.
//! - `codegen [--check]`: writes the generated files (JSON Schemas of the
//!   output under docs/schemas/, docs/cli.md, docs/man/flexmd.1,
//!   docs/completions/); `--check` fails when one is stale.
//! - `conformance [--data DIR] [--suite NAME]`: the public conformance suites
//!   in `DIR` (default `../shared/conformance`); fails when the data is
//!   missing.
//! - `layering`: checks that the crate graph only points down.
//! - `fuzz [--time SECONDS] [TARGET]`: runs the fuzz targets of `fuzz/` one
//!   after another (default 60 s each) with `cargo +nightly fuzz`,
//!   installing cargo-fuzz when it is missing; each target also tries its
//!   `fuzz/regressions/TARGET` inputs.

#![allow(clippy::print_stdout, reason = "a task runner reports on stdout")]

mod codegen;
mod commonmark;
mod json5;
mod jsonpath;
mod jsonschema_suite;
mod llm_json;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("conformance") => conformance(&args[1..]),
        Some("layering") => layering(),
        Some("codegen") => codegen::run(&args[1..]),
        Some("fuzz") => fuzz(&args[1..]),
        _ => Err(
            "usage: cargo xtask <ci | codegen [--check] | conformance [--data DIR] [--suite NAME] | layering | fuzz [--time SECONDS] [TARGET]>"
                .to_owned(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask's parent folder).
fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_owned()
}

fn cargo(args: &[&str]) -> Result {
    println!("$ cargo {}", args.join(" "));
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(args)
        .current_dir(root())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

fn ci() -> Result {
    cargo(&["fmt", "--all", "--check"])?;
    cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    // The README's test command.
    cargo(&["test", "--workspace"])?;
    // Generated docs and schemas must match the code that generates them.
    codegen::run(&["--check".to_owned()])?;
    // Every crate a user installs must package for a registry (a path-only
    // or unpublishable dependency would break `cargo install`).
    let mut package = vec!["package", "--no-verify", "--allow-dirty"];
    for krate in PUBLISHED {
        package.extend(["-p", krate]);
    }
    cargo(&package)?;
    // The fuzz targets (a workspace of their own) must keep compiling;
    // fuzzing itself needs nightly and is not run here.
    cargo(&[
        "check",
        "--manifest-path",
        "fuzz/Cargo.toml",
        "--target-dir",
        "target",
    ])?;
    layering()?;
    conformance(&[])
}

/// The crates published to a registry: the libraries and the CLI.
const PUBLISHED: &[&str] = &[
    "flexmd-core",
    "flexmd-frames",
    "flexmd-ofs",
    "flexmd-detect",
    "flexmd-schema",
    "flexmd-artifact",
    "flexmd-cli",
];

/// The conformance suites: name, what flexmd runs them through, and how.
type Suite = (
    &'static str,
    &'static str,
    fn(&Path) -> Result<commonmark::Report>,
);

const SUITES: &[Suite] = &[
    (
        "commonmark",
        "CommonMark spec examples (outline headings vs reference HTML)",
        |d| commonmark::run(&d.join("commonmark-spec/spec.txt")),
    ),
    (
        "json5",
        "json5-tests (strict + JSON5 steps of flexmd-detect)",
        |d| json5::run(&d.join("json5-tests")),
    ),
    (
        "jsonschema",
        "JSON Schema Test Suite (draft 2020-12 and draft 7, required; flexmd-schema Registry)",
        |d| jsonschema_suite::run(&d.join("json-schema-test-suite")),
    ),
    (
        "jsonpath",
        "JSONPath CTS (RFC 9535, flexmd-artifact json_get)",
        |d| jsonpath::run(&d.join("jsonpath-cts/cts.json")),
    ),
    (
        "llm-json",
        "llm-json (broken and LLM-shaped JSON, flexmd-detect find_json)",
        |d| llm_json::run(&d.join("llm-json/cases.jsonl")),
    ),
];

fn conformance(args: &[String]) -> Result {
    const USAGE: &str = "usage: cargo xtask conformance [--data DIR] [--suite NAME]";
    let mut data = root().join("../shared/conformance");
    let mut only = None;
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(USAGE)?;
        match flag.as_str() {
            "--data" => data = PathBuf::from(value),
            "--suite" => only = Some(value.clone()),
            _ => return Err(USAGE.to_owned()),
        }
    }
    if !data.is_dir() {
        return Err(format!(
            "conformance data not found at {} (pass --data DIR)",
            data.display()
        ));
    }
    let mut ran = Vec::new();
    for (name, title, run) in SUITES {
        if only.as_ref().is_some_and(|o| o != name) {
            continue;
        }
        let report = run(&data)?;
        println!(
            "{title}: {} passed, {} failed",
            report.passed, report.failed
        );
        ran.push((*name, report));
    }
    if ran.is_empty() {
        let names: Vec<&str> = SUITES.iter().map(|s| s.0).collect();
        return Err(format!(
            "no suite named that; the suites: {}",
            names.join(", ")
        ));
    }
    // The closing line CI reads: every suite's cases, summed.
    let passed: usize = ran.iter().map(|(_, r)| r.passed).sum();
    let failed: usize = ran.iter().map(|(_, r)| r.failed).sum();
    println!("conformance: {passed} passed, {failed} failed");
    let failing: Vec<String> = ran
        .iter()
        .filter(|(_, r)| r.failed > 0)
        .map(|(name, r)| format!("{} {name} cases failed", r.failed))
        .collect();
    if failing.is_empty() {
        Ok(())
    } else {
        Err(failing.join("; "))
    }
}

/// The fuzz targets: the `[[bin]]` names of fuzz/Cargo.toml.
fn fuzz_targets() -> Result<Vec<String>> {
    let manifest = root().join("fuzz/Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    Ok(text
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|name| *name != "flexmd-fuzz")
        .map(str::to_owned)
        .collect())
}

fn fuzz(args: &[String]) -> Result {
    const USAGE: &str = "usage: cargo xtask fuzz [--time SECONDS] [TARGET]";
    let mut seconds = 60u64;
    let mut only = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--time" => {
                seconds = args.next().and_then(|s| s.parse().ok()).ok_or(USAGE)?;
            }
            target if only.is_none() && !target.starts_with('-') => only = Some(target.to_owned()),
            _ => return Err(USAGE.to_owned()),
        }
    }
    let have_fuzz = Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_fuzz {
        cargo(&["install", "--locked", "cargo-fuzz"])?;
    }
    let targets = fuzz_targets()?;
    let run: Vec<&String> = targets
        .iter()
        .filter(|t| only.as_ref().is_none_or(|o| o == *t))
        .collect();
    if run.is_empty() {
        return Err(format!(
            "no fuzz target named that; the targets: {}",
            targets.join(", ")
        ));
    }
    let dir = root().join("fuzz");
    for target in run {
        let corpus = format!("corpus/{target}");
        std::fs::create_dir_all(dir.join(&corpus)).map_err(|e| e.to_string())?;
        let mut command = Command::new("cargo");
        command
            .args(["+nightly", "fuzz", "run", target, &corpus])
            .current_dir(&dir);
        let regressions = format!("regressions/{target}");
        if dir.join(&regressions).is_dir() {
            command.arg(&regressions);
        }
        command.args([
            "--",
            &format!("-max_total_time={seconds}"),
            "-rss_limit_mb=4096",
        ]);
        println!("$ (fuzz) cargo +nightly fuzz run {target} ({seconds} s)");
        let status = command
            .status()
            .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
        if !status.success() {
            return Err(format!(
                "fuzz target {target} found a crash (see fuzz/artifacts/{target})"
            ));
        }
    }
    Ok(())
}

/// **Invariant:** dependencies point down the layers of docs/ARCHITECTURE.md.
/// Each crate may use only the flexmd crates listed for it here.
fn layering() -> Result {
    const ALLOWED: &[(&str, &[&str])] = &[
        ("flexmd-core", &[]),
        ("flexmd-frames", &["flexmd-core"]),
        ("flexmd-ofs", &["flexmd-core"]),
        ("flexmd-detect", &["flexmd-core", "flexmd-frames"]),
        (
            "flexmd-schema",
            &[
                "flexmd-core",
                "flexmd-frames",
                "flexmd-ofs",
                "flexmd-detect",
            ],
        ),
        ("flexmd-artifact", &["flexmd-core"]),
        ("flexmd-testkit", &[]),
    ];
    for (krate, allowed) in ALLOWED {
        let manifest = root().join("crates").join(krate).join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest)
            .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
        for line in text.lines() {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            // The test kit is a dev-dependency of any crate and depends on none.
            if name.starts_with("flexmd-") && name != "flexmd-testkit" && !allowed.contains(&name) {
                return Err(format!(
                    "{krate} depends on {name}: dependencies must point down (docs/ARCHITECTURE.md)"
                ));
            }
        }
    }
    println!("layering: dependencies point down");
    Ok(())
}
