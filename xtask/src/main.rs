//! flexmd's project automation (`cargo xtask <task>`).
//!
//! - `ci`: exactly what `.ci/run` runs: format check, clippy, the README's test
//!   command (the Python tests on the release wheel `dist --host-only`
//!   builds, which also packages the published crates), `install-test`,
//!   the release workflow's lint, the generated files check (`codegen
//!   --check`), a check that the fuzz targets compile, the layering check,
//!   then the conformance suites.
//! - `codegen [--check]`: writes the generated files (JSON Schemas of the
//!   output under docs/schemas/, docs/cli.md, docs/man/flexmd.1,
//!   docs/completions/); `--check` fails when one is stale.
//! - `conformance [--data DIR] [--suite NAME]`: the public conformance suites
//!   in `DIR` (default `../shared/conformance`); fails when the data is
//!   missing.
//! - `layering`: checks that the crate graph only points down.
//! - `js [--build]`: builds the npm package (npm/flexmd) from
//!   crates/flexmd-wasm and (without `--build`) runs its tests (node --test
//!   against the CLI's JSON, tsc, the playground in Chromium).
//! - `bench [--quick] [ROW...]`: flexmd beside its peers (Rust, Python,
//!   Node) on the same inputs in one run; writes target/bench/results.json
//!   and the tables in docs/benchmarks.md (see `bench.rs`).
//! - `fuzz [--time SECONDS] [TARGET]`: runs the fuzz targets of `fuzz/` one
//!   after another (default 60 s each) with `cargo +nightly fuzz`,
//!   installing cargo-fuzz when it is missing; each target also tries its
//!   `fuzz/regressions/TARGET` inputs.
//! - `dist [--host-only]`: the release artifacts into `target/distrib/`
//!   (`dist.rs`); `install-test`: each installed and run where there is no
//!   Rust (`install_test.rs`); `release-notes [--tag TAG]`: CHANGELOG's
//!   section for the version (`release.rs`, with the one-version test);
//!   `lint-workflows`: actionlint, shellcheck and zizmor over
//!   `.github/workflows/`.

#![allow(clippy::print_stdout, reason = "a task runner reports on stdout")]

mod bench;
mod codegen;
mod commonmark;
mod dist;
mod install_test;
mod js;
mod json5;
mod jsonpath;
mod jsonschema_suite;
mod llm_json;
#[cfg(test)]
mod modules;
mod python;
mod release;
#[cfg(test)]
mod tidy;
mod workspace;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use crate::workspace::{LAYERS, Result, cargo, cargo_metadata, root, target_dir};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("conformance") => conformance(&args[1..]),
        Some("layering") => layering(),
        Some("codegen") => codegen::run(&args[1..]),
        Some("fuzz") => fuzz(&args[1..]),
        Some("python") => python::run_tests(&args[1..]),
        Some("js") => js::run_tests(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("dist") => dist::run_dist(&args[1..]),
        Some("install-test") => install_test::run_install_test(&args[1..]),
        Some("release-notes") => release::release_notes(&args[1..]),
        Some("lint-workflows") => release::lint_workflows(),
        _ => Err(
            "usage: cargo xtask <ci | codegen [--check] | conformance [--data DIR] [--suite NAME] | layering | fuzz [--time SECONDS] [TARGET] | python [--no-spark] [--wheel FILE] | js [--build] | bench [--quick] [ROW...] | dist [--host-only] | install-test | release-notes [--tag TAG] | lint-workflows>"
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
    // The README's test commands: the crates, then the Python package,
    // then the npm package. The Python tests run on the release wheel
    // `dist` builds (so the wheel users get is the one tested, and the
    // extension is built once, not twice); `dist` also packages every
    // published crate (a path-only or unpublishable dependency would break
    // `cargo install`) and builds the npm tarball from the module the npm
    // tests then use.
    cargo(&["test", "--workspace"])?;
    dist::run_dist(&["--host-only".to_owned()])?;
    let host = dist::host().ok_or("this machine's architecture is not one the release ships")?;
    let wheel = dist::dist_dir()
        .join("python")
        .join(dist::wheel_name(&dist::version()?, host));
    python::run_tests(&["--wheel".to_owned(), wheel.to_string_lossy().into_owned()])?;
    js::run_tests(&[])?;
    // Every artifact installs and runs where there is no Rust; the
    // workflow that would publish them is linted, since it cannot run here.
    install_test::run_install_test(&[])?;
    release::lint_workflows()?;
    // Generated docs and schemas must match the code that generates them.
    codegen::run(&["--check".to_owned()])?;
    // The fuzz targets (a workspace of their own) must keep compiling;
    // fuzzing itself needs nightly and is not run here.
    let target = target_dir();
    cargo(&[
        "check",
        "--manifest-path",
        "fuzz/Cargo.toml",
        "--target-dir",
        &target.to_string_lossy(),
    ])?;
    layering()?;
    conformance(&[])
}

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

/// The dictionary a target is given: JSON tokens for the targets that read
/// JSON, queries or calls; JSON-RPC and MCP tokens for the MCP session;
/// Markdown tokens for the others.
fn fuzz_dictionary(target: &str) -> &'static str {
    match target {
        "find_json"
        | "schema_validate"
        | "schema_verdict_text"
        | "schema_fuzzed"
        | "constrain_export"
        | "jsonpath_documents"
        | "artifact_query"
        | "grep_flags"
        | "tool_dispatch"
        | "stream_json"
        | "json_lines" => "json",
        "mcp_session" => "mcp",
        _ => "markdown",
    }
}

/// Copies the fixtures a target reads into its corpus, once (an empty
/// corpus starts from them); returns how many were added.
fn seed_corpus(target: &str, corpus: &Path) -> Result<usize> {
    let has_files = std::fs::read_dir(corpus)
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if has_files {
        return Ok(0);
    }
    // A target whose inputs are not documents has its own seeds.
    let own = root().join("fuzz/seeds").join(target);
    if own.is_dir() {
        let mut added = 0;
        for entry in std::fs::read_dir(&own).into_iter().flatten().flatten() {
            added += 1;
            std::fs::copy(entry.path(), corpus.join(entry.file_name()))
                .map_err(|e| format!("cannot seed {}: {e}", entry.path().display()))?;
        }
        return Ok(added);
    }
    let wanted = if fuzz_dictionary(target) == "json" {
        ["json", "md"]
    } else {
        ["md", "md"]
    };
    let mut stack = vec![root().join("crates"), root().join("examples")];
    let mut added = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("target") {
                    stack.push(path);
                }
                continue;
            }
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or_default();
            let in_fixtures = path.components().any(|c| c.as_os_str() == "fixtures")
                || path.starts_with(root().join("examples"));
            let small = entry
                .metadata()
                .map(|m| m.len() < 64 * 1024)
                .unwrap_or(false);
            if in_fixtures && small && wanted.contains(&ext) {
                added += 1;
                std::fs::copy(&path, corpus.join(format!("seed-{added}.{ext}")))
                    .map_err(|e| format!("cannot seed {}: {e}", path.display()))?;
            }
        }
    }
    Ok(added)
}

/// One row of the run record from libFuzzer's log: executions and edges.
fn fuzz_summary(target: &str, seconds: u64, log: &str, ok: bool) -> String {
    let stat = |name: &str| {
        log.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_owned())
            .unwrap_or_else(|| "?".to_owned())
    };
    let edges = log
        .lines()
        .rev()
        .find_map(|l| l.split(" cov: ").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or("?");
    let result = if ok { "no crash" } else { "CRASH" };
    format!(
        "| `{target}` | {seconds} s | {} | {edges} | {result} |",
        stat("stat::number_of_executed_units:")
    )
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
    let mut summary = Vec::new();
    for target in run {
        let corpus = format!("corpus/{target}");
        std::fs::create_dir_all(dir.join(&corpus)).map_err(|e| e.to_string())?;
        let seeded = seed_corpus(target, &dir.join(&corpus))?;
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
            // A single input taking this long is a hang.
            "-timeout=10",
            &format!("-dict=dicts/{}.dict", fuzz_dictionary(target)),
            "-print_final_stats=1",
        ]);
        println!("$ (fuzz) cargo +nightly fuzz run {target} ({seconds} s, {seeded} seeds added)");
        std::fs::create_dir_all(dir.join("logs")).map_err(|e| e.to_string())?;
        let log_path = dir.join(format!("logs/{target}.log"));
        let log = std::fs::File::create(&log_path).map_err(|e| e.to_string())?;
        let status = command
            .stderr(log)
            .status()
            .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
        let text = std::fs::read_to_string(&log_path).unwrap_or_default();
        let row = fuzz_summary(target, seconds, &text, status.success());
        println!("{row}");
        summary.push(row);
        if !status.success() {
            return Err(format!(
                "fuzz target {target} found a crash, hang or out-of-memory (fuzz/artifacts/{target}, \
                 log in fuzz/logs/{target}.log)"
            ));
        }
    }
    println!("| target | time | execs | coverage (edges) | result |\n|---|---|---|---|---|");
    println!("{}", summary.join("\n"));
    Ok(())
}

/// Checks, from `cargo metadata`, that every flexmd crate's dependencies on
/// other flexmd crates are the ones [`LAYERS`] allows.
fn layering() -> Result {
    let metadata = cargo_metadata(&root().join("Cargo.toml"), &["--no-deps"])?;
    let checked = check_layers(&metadata)?;
    println!("layering: dependencies point down ({checked} crates, from cargo metadata)");
    Ok(())
}

/// The check of [`layering`] on `cargo metadata`'s JSON: the crates under
/// `crates/` (benches and xtask sit on top and may use anything); returns
/// how many were checked.
fn check_layers(metadata: &serde_json::Value) -> Result<usize> {
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let mut checked = 0;
    for package in &packages {
        let name = package["name"].as_str().unwrap_or_default();
        let manifest = package["manifest_path"].as_str().unwrap_or_default();
        if !name.starts_with("flexmd-") || !manifest.contains("/crates/") {
            continue;
        }
        let Some((_, allowed)) = LAYERS.iter().find(|(krate, _)| *krate == name) else {
            return Err(format!(
                "{name} is not in xtask's LAYERS: add it where docs/ARCHITECTURE.md puts it"
            ));
        };
        checked += 1;
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let dep_name = dep["name"].as_str().unwrap_or_default();
            let dev = dep["kind"].as_str() == Some("dev");
            if !dep_name.starts_with("flexmd-")
                || allowed.contains(&dep_name)
                || (dev && dep_name == "flexmd-testkit")
            {
                continue;
            }
            return Err(format!(
                "{name} depends on {dep_name}: dependencies must point down (docs/ARCHITECTURE.md)"
            ));
        }
    }
    if checked < LAYERS.len() {
        return Err(format!(
            "cargo metadata listed {checked} of the {} flexmd crates",
            LAYERS.len()
        ));
    }
    Ok(checked)
}
