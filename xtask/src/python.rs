//! `cargo xtask python`: the Python package's tests. Makes a fresh venv in
//! `target/python-venv`, installs the package there with pip (from
//! `crates/flexmd-py`, as a user would, but with the dev profile so the
//! workspace's build is reused; or, with `--wheel FILE`, the release wheel
//! `cargo xtask dist` built, as CI does), and runs its pytest suite, which compares
//! every result with the CLI's JSON, and the MCP server's end-to-end test
//! with the official Python MCP SDK as its client.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace::{Result, root, run};

/// What the tests need besides the package.
/// (The OpenAI and Anthropic SDKs: their tool-call objects go into
/// `ToolSet.call`, and the OpenAI SDK's and Pydantic AI's strict-schema
/// conversions are compared with `export_schema`.)
const TEST_PACKAGES: &[&str] = &[
    "pytest>=7",
    "pydantic>=2",
    "mypy>=1.8",
    "openai>=1.40",
    "anthropic>=0.40",
    "pydantic-ai-slim>=1.0",
    // flexmd.frame's DataFrame (PySpark does not support pandas 3 yet).
    "pandas>=1.5,<3",
];
/// The official MCP SDK, the client of `flexmd mcp`'s end-to-end test
/// (crates/flexmd-mcp/tests/python), which says why it is skipped without it.
const MCP_PACKAGES: &[&str] = &["mcp>=1.10"];
/// The Spark example's and its pure-Python baseline's: their tests say why
/// they are skipped without them. (PySpark does not support pandas 3 yet.)
const SPARK_PACKAGES: &[&str] = &[
    "pyspark>=3.5",
    "pandas>=1.5,<3",
    "pyarrow>=12",
    "markdown-it-py>=3",
    "json_repair>=0.30",
];

/// The grammar engines the grammar tests run (crates/flexmd-py/tests/
/// test_grammar.py): llguidance, and XGrammar with the packages its grammar
/// code needs. XGrammar itself goes in without its declared dependencies
/// (torch, transformers, triton: gigabytes it needs only for tokenizers and
/// GPU masks); tests/engines.py puts stand-ins in their place for its import.
const GRAMMAR_PACKAGES: &[&str] = &[
    "llguidance==1.9.1",
    "apache-tvm-ffi==0.1.15.post2",
    "numpy>=1.26",
    "typing-extensions>=4.9",
];
const XGRAMMAR: &str = "xgrammar==0.2.9";

/// The Python suites: the package's, and the MCP server's end to end.
const SUITES: &[&str] = &["crates/flexmd-py/tests", "crates/flexmd-mcp/tests/python"];

/// The first Python 3.9+ on PATH.
pub(crate) fn python() -> Result<String> {
    for candidate in ["python3", "python"] {
        let ok = Command::new(candidate)
            .args(["-c", "import sys; assert sys.version_info >= (3, 9)"])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Ok(candidate.to_owned());
        }
    }
    Err("no Python 3.9 or later on PATH: the Python package's tests need one".to_owned())
}

/// `--no-spark`: without PySpark. `--wheel FILE`: test that wheel (the
/// release's, from `cargo xtask dist`) instead of building the package
/// from source.
pub(crate) fn run_tests(args: &[String]) -> Result {
    let spark = !args.iter().any(|a| a == "--no-spark");
    let wheel = args
        .iter()
        .position(|a| a == "--wheel")
        .map(|at| args.get(at + 1).ok_or("--wheel needs a file"))
        .transpose()?;
    let root = root();
    let venv = crate::workspace::target_dir().join("python-venv");
    run(Command::new(python()?)
        .args(["-m", "venv", "--clear"])
        .arg(&venv))?;
    let bin = venv.join("bin");
    let py = bin.join("python");
    let pip = |packages: &[&str]| {
        let mut command = Command::new(&py);
        command.args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ]);
        command.args(packages);
        command
    };
    run(&mut pip(TEST_PACKAGES))?;
    run(&mut pip(GRAMMAR_PACKAGES))?;
    run(pip(&["--no-deps", XGRAMMAR]).arg("--only-binary=:all:"))?;
    if run(&mut pip(MCP_PACKAGES)).is_err() {
        println!(
            "xtask: the MCP SDK could not be installed; the MCP end-to-end test will be skipped"
        );
    }
    if spark && run(&mut pip(SPARK_PACKAGES)).is_err() {
        println!("xtask: pyspark could not be installed; the Spark example's test will be skipped");
    }
    // pip builds the wheel with maturin, as on a user's machine; the dev
    // profile reuses what `cargo test` built (only PyO3 and the bindings
    // are compiled again, for the extension-module link).
    let mut install = pip(&[]);
    match wheel {
        Some(wheel) => install.args(["--no-index", "--no-deps"]).arg(wheel),
        None => install
            .arg(root.join("crates/flexmd-py"))
            .env("MATURIN_PEP517_ARGS", "--profile dev")
            .env("CARGO_TARGET_DIR", crate::workspace::target_dir()),
    };
    run(&mut install)?;
    let cli = cli()?;
    let status = Command::new(&py)
        .args(["-m", "pytest", "-q", "-ra"])
        .args(SUITES)
        .current_dir(&root)
        .env("FLEXMD_CLI", &cli)
        .env("FLEXMD_REQUIRE_ENGINES", "1")
        .env("PATH", path_with(&bin))
        .status()
        .map_err(|e| format!("cannot run pytest: {e}"))?;
    match status.code() {
        Some(0) => Ok(()),
        // pytest's "no tests collected": a suite that tests nothing fails.
        Some(5) => Err(format!(
            "pytest collected no tests in {}",
            SUITES.join(", ")
        )),
        _ => Err(format!("the Python tests failed ({status})")),
    }
}

/// A fresh venv at `venv` with `packages` installed from PyPI (binary
/// wheels only with `binary_only`): the build and lint tools' home. Each
/// failure says what to install.
pub(crate) fn tool_venv(venv: &Path, packages: &[&str], binary_only: bool) -> Result<PathBuf> {
    let python = python().map_err(|e| {
        format!(
            "{e}: install python3 and python3-venv (Debian: `apt-get install python3 python3-venv`)"
        )
    })?;
    run(Command::new(&python)
        .args(["-m", "venv", "--clear"])
        .arg(venv))
    .map_err(|e| {
        format!("{e}: install Python's venv module (Debian: `apt-get install python3-venv`)")
    })?;
    let bin = venv.join("bin");
    let mut install = Command::new(bin.join("python"));
    install.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    if binary_only {
        install.arg("--only-binary=:all:");
    }
    run(install.args(packages)).map_err(|e| {
        format!(
            "{e}: the tools could not be installed from PyPI; give pip an index it can reach \
             (PIP_INDEX_URL) or install them into that venv yourself: `{} -m pip install {}`",
            bin.join("python").display(),
            packages.join(" ")
        )
    })?;
    Ok(bin)
}

/// The CLI the tests compare with: built if `cargo test` has not.
fn cli() -> Result<PathBuf> {
    let path = crate::workspace::target_dir().join("debug/flexmd");
    if !path.exists() {
        crate::workspace::cargo(&["build", "-p", "flexmd-cli"])?;
    }
    Ok(path)
}

/// PATH with the venv's bin first (the Spark workers start `python`).
pub(crate) fn path_with(bin: &Path) -> std::ffi::OsString {
    let mut paths = vec![bin.to_owned()];
    if let Some(old) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&old));
    }
    std::env::join_paths(paths).unwrap_or_default()
}
