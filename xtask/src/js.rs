//! `cargo xtask js`: builds the npm package `npm/flexmd` from
//! `crates/flexmd-wasm` and runs its tests.
//!
//! The build: the wasm32-unknown-unknown target (added with rustup when
//! missing), a release build of the crate, and the JavaScript glue made by
//! `wasm-bindgen` at exactly the version of the `wasm-bindgen` crate in
//! Cargo.lock (installed under `target/wasm-tools` with `cargo install` when
//! missing; no tool that downloads binaries at run time). The tests:
//! `npm ci` (TypeScript), `node --test` (every function against the CLI's
//! JSON), `tsc --noEmit` on a file written with the package's types, and the
//! playground (web/playground, assembled in `target/playground`) and the
//! page `flexmd report` writes (web/report) in Chromium with Playwright.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace::run;
use crate::workspace::{Result, cargo_command, root};

/// The version of the `wasm-bindgen` crate Cargo.lock pins.
fn locked_wasm_bindgen() -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\""
            && let Some(version) = lines
                .next()
                .and_then(|l| l.strip_prefix("version = \""))
                .and_then(|v| v.strip_suffix('"'))
        {
            return Ok(version.to_owned());
        }
    }
    Err("Cargo.lock pins no wasm-bindgen".to_owned())
}

/// `wasm-bindgen` at `version`, installed under `target/wasm-tools` when
/// missing or of another version.
fn wasm_bindgen(version: &str) -> Result<PathBuf> {
    let tools = crate::workspace::target_dir().join("wasm-tools");
    let bin = tools.join("bin/wasm-bindgen");
    let installed = Command::new(&bin).arg("--version").output().is_ok_and(|o| {
        String::from_utf8_lossy(&o.stdout).trim() == format!("wasm-bindgen {version}")
    });
    if installed {
        return Ok(bin);
    }
    let tools_arg = tools.to_string_lossy().into_owned();
    let install = |locked: bool| {
        let mut command = cargo_command();
        command.args([
            "install",
            "wasm-bindgen-cli",
            "--version",
            version,
            "--root",
            &tools_arg,
            // Unoptimised: it builds in half the time, and still turns
            // the module into glue in seconds.
            "--debug",
        ]);
        if locked {
            command.arg("--locked");
        }
        run(&mut command)
    };
    if let Err(locked) = install(true) {
        // A registry mirror may lack a dependency at the version the CLI's
        // lock file names; the newest compatible ones build the same tool.
        println!("{locked}: installing with the newest compatible dependencies instead");
        install(false)?;
    }
    Ok(bin)
}

/// Builds `npm/flexmd/pkg` (the module and its glue).
pub(crate) fn build() -> Result {
    let has_target = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"));
    if !has_target {
        run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))?;
    }
    let bindgen = wasm_bindgen(&locked_wasm_bindgen()?)?;
    let built =
        crate::workspace::target_dir().join("wasm32-unknown-unknown/release/flexmd_wasm.wasm");
    let kept = crate::workspace::target_dir().join("wasm-out");
    std::fs::create_dir_all(&kept).map_err(|e| format!("cannot make {}: {e}", kept.display()))?;
    // The full module (`flexmd`), then the core one (`flexmd/core`: no
    // artifacts, a sixth of the size); the crate is built once per set of
    // features, its dependencies once for both.
    for (name, features) in [
        ("flexmd_wasm", None),
        ("flexmd_core", Some("--no-default-features")),
    ] {
        let mut build = cargo_command();
        build.args([
            "build",
            "--release",
            "--target",
            "wasm32-unknown-unknown",
            "-p",
            "flexmd-wasm",
        ]);
        build.args(features);
        run(&mut build)?;
        let module = kept.join(format!("{name}.wasm"));
        copy(&built, &module)?;
        run(Command::new(&bindgen)
            .arg(&module)
            .args([
                "--target",
                "web",
                "--out-name",
                name,
                "--no-typescript",
                // Objects made in Rust (SchemaValidator's, artifacts) are
                // freed when JavaScript collects their wrapper.
                "--weak-refs",
                "--out-dir",
            ])
            .arg(root().join("npm/flexmd/pkg")))?;
    }
    Ok(())
}

fn npm(package: &Path) -> Command {
    let mut command = Command::new("npm");
    command.current_dir(package);
    command
}

/// The examples the playground offers: a name, a spec, an answer.
const PLAYGROUND_EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "Lenient answer (quirks)",
        "specs/answer.md",
        "responses/quirks.md",
    ),
    ("Clean answer", "specs/answer.md", "responses/clean.md"),
    ("Nested headings", "specs/answer.md", "responses/nested.md"),
    (
        "Tool call with JSON",
        "specs/answer.md",
        "mixed/tool_call.md",
    ),
    ("FlexMD frames", "specs/answer.md", "frames/chat.md"),
];

fn copy(from: &Path, to: &Path) -> Result {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    std::fs::copy(from, to)
        .map(drop)
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

/// Assembles the playground as a static folder, `target/playground`: the
/// page (web/playground), the package's core browser entry and module
/// (under `flexmd/`), and the bundled examples (`examples/examples.json`).
pub(crate) fn playground() -> Result<PathBuf> {
    let site = crate::workspace::target_dir().join("playground");
    let web = root().join("web/playground");
    for file in ["index.html", "playground.css", "playground.js", "worker.js"] {
        copy(&web.join(file), &site.join(file))?;
    }
    let package = root().join("npm/flexmd");
    // The page needs the core entry point only (a tenth of the full module).
    for file in [
        "core.browser.js",
        "lib/errors.js",
        "lib/thrown.js",
        "lib/wasm.js",
        "lib/call.js",
        "lib/api.js",
        "lib/stream.js",
        "pkg/flexmd_core.js",
        "pkg/flexmd_core_bg.wasm",
    ] {
        copy(&package.join(file), &site.join("flexmd").join(file))?;
    }
    let read = |path: &str| {
        std::fs::read_to_string(root().join("examples").join(path))
            .map_err(|e| format!("cannot read examples/{path}: {e}"))
    };
    let mut examples = Vec::new();
    for (name, spec, answer) in PLAYGROUND_EXAMPLES {
        examples.push(serde_json::json!({
            "name": name,
            "spec": read(spec)?,
            "answer": read(answer)?,
        }));
    }
    let list = site.join("examples/examples.json");
    if let Some(dir) = list.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    std::fs::write(&list, serde_json::Value::Array(examples).to_string())
        .map_err(|e| format!("cannot write {}: {e}", list.display()))?;
    println!(
        "playground: {} (serve it with `node web/playground/serve.mjs`)",
        site.display()
    );
    Ok(site)
}

/// The system's Chromium, installed with apt-get when missing; `None` when
/// it cannot be installed here.
pub(crate) fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if path.exists() {
        return Some(path);
    }
    println!("Chromium is missing: installing Debian's package");
    let installed = run(Command::new("apt-get").args(["update", "-qq"])).and_then(|()| {
        run(Command::new("apt-get")
            .env("DEBIAN_FRONTEND", "noninteractive")
            .args(["install", "-y", "-qq", "chromium"]))
    });
    match installed {
        Ok(()) if path.exists() => Some(path),
        Ok(()) => None,
        Err(e) => {
            println!("{e}");
            None
        }
    }
}

/// The playground in Chromium, driven by Playwright (skipped, with a
/// message, only when Chromium cannot be installed).
fn browser_test(site: &Path) -> Result {
    let Some(browser) = chromium() else {
        println!(
            "SKIPPED the playground's browser test: Chromium could not be installed on this machine"
        );
        return Ok(());
    };
    let web = root().join("web/playground");
    run(npm(&web).args(["ci", "--no-audit", "--no-fund"]))?;
    run(Command::new("node")
        .current_dir(&web)
        .env("CHROMIUM", browser)
        .env("PLAYGROUND_DIR", site)
        .env(
            "SCREENSHOTS",
            crate::workspace::target_dir().join("playground-test"),
        )
        .args(["--test", "test/"]))
}

/// Builds the package (only that with `--build`), then runs its tests against the CLI built by
/// `cargo test --workspace` (target/debug/flexmd, built here when missing), then the
/// playground's browser test.
pub(crate) fn run_tests(args: &[String]) -> Result {
    build()?;
    if args.iter().any(|a| a == "--build") {
        return Ok(());
    }
    // The CLI the tests compare with, as `cargo test --workspace` builds it
    // (a no-op after it; `build -p flexmd-cli` alone would rebuild it with
    // other features).
    run(cargo_command().args(["test", "--workspace", "--no-run", "--quiet"]))?;
    let package = root().join("npm/flexmd");
    run(npm(&package).args(["ci", "--no-audit", "--no-fund"]))?;
    run(Command::new("node")
        .current_dir(&package)
        .env(
            "FLEXMD_BIN",
            crate::workspace::target_dir().join("debug/flexmd"),
        )
        .args(["--test", "test/"]))?;
    run(npm(&package).args(["exec", "--", "tsc", "--noEmit", "-p", "test/tsconfig.json"]))?;
    let site = playground()?;
    browser_test(&site)?;
    report_browser_test()
}

/// `flexmd report`'s page in Chromium, driven by Playwright, against the
/// CLI `cargo test --workspace` built (skipped, with a message, only when
/// Chromium cannot be installed).
fn report_browser_test() -> Result {
    let Some(browser) = chromium() else {
        println!(
            "SKIPPED the report's browser test: Chromium could not be installed on this machine"
        );
        return Ok(());
    };
    let web = root().join("web/report");
    run(npm(&web).args(["ci", "--no-audit", "--no-fund"]))?;
    run(Command::new("node")
        .current_dir(&web)
        .env("CHROMIUM", browser)
        .env(
            "FLEXMD_BIN",
            crate::workspace::target_dir().join("debug/flexmd"),
        )
        .env(
            "SCREENSHOTS",
            crate::workspace::target_dir().join("report-test"),
        )
        .args(["--test", "test/"]))
}
