//! What every task needs: the workspace root and target directory, cargo
//! and other commands run with their time shown, `cargo metadata`, and the
//! crates with their layers. A leaf: it imports no other module of xtask.

use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) type Result<T = ()> = std::result::Result<T, String>;

/// The workspace root (xtask's parent folder).
pub(crate) fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_owned()
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` (relative to the
/// repository when relative), else `target/` in the repository. Every
/// build output xtask reads or writes is under it.
pub(crate) fn target_dir() -> PathBuf {
    target_dir_of(&root(), std::env::var_os("CARGO_TARGET_DIR"))
}

/// [`target_dir`] for a repository at `root` and that variable's value.
pub(crate) fn target_dir_of(root: &Path, var: Option<std::ffi::OsString>) -> PathBuf {
    match var.filter(|d| !d.is_empty()) {
        // `join` keeps an absolute path as it is.
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// The cargo that runs xtask (`$CARGO`), in the workspace's root.
pub(crate) fn cargo_command() -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    command.current_dir(root());
    command
}

/// Runs `cargo ARGS` in the workspace root, as [`run`] runs a command.
pub(crate) fn cargo(args: &[&str]) -> Result {
    // CI must stay well inside its time limit: each step says what it took.
    run(cargo_command().args(args))
}

/// The crates published to crates.io: every layer but the test kit and the
/// Python and JavaScript bindings (shipped as a wheel and an npm package).
pub(crate) fn published_crates() -> Vec<&'static str> {
    LAYERS
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| !["flexmd-testkit", "flexmd-py", "flexmd-wasm"].contains(k))
        .collect()
}

/// **Invariant:** dependencies point down the layers of docs/ARCHITECTURE.md.
/// Each crate may use only the flexmd crates listed for it here.
/// The flexmd crates and the flexmd crates each may depend on (normal and
/// build dependencies; dev-dependencies may add the test kit): the graph
/// of docs/ARCHITECTURE.md, pointing down.
pub(crate) const LAYERS: &[(&str, &[&str])] = &[
    ("flexmd-core", &[]),
    ("flexmd-frames", &["flexmd-core"]),
    ("flexmd-ofs", &["flexmd-core", "flexmd-frames"]),
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
    (
        "flexmd-constrain",
        &[
            "flexmd-core",
            "flexmd-frames",
            "flexmd-ofs",
            "flexmd-detect",
            "flexmd-schema",
        ],
    ),
    ("flexmd-batch", &[]),
    (
        "flexmd-report",
        &[
            "flexmd-core",
            "flexmd-frames",
            "flexmd-ofs",
            "flexmd-detect",
            "flexmd-schema",
            "flexmd-artifact",
            "flexmd-batch",
        ],
    ),
    (
        "flexmd-mcp",
        &[
            "flexmd-core",
            "flexmd-ofs",
            "flexmd-detect",
            "flexmd-schema",
            "flexmd-artifact",
        ],
    ),
    (
        "flexmd-cli",
        &[
            "flexmd-core",
            "flexmd-frames",
            "flexmd-ofs",
            "flexmd-detect",
            "flexmd-schema",
            "flexmd-artifact",
            "flexmd-constrain",
            "flexmd-mcp",
            "flexmd-batch",
            "flexmd-report",
        ],
    ),
    (
        "flexmd-py",
        &[
            "flexmd-core",
            "flexmd-frames",
            "flexmd-ofs",
            "flexmd-detect",
            "flexmd-schema",
            "flexmd-artifact",
            "flexmd-constrain",
            "flexmd-report",
        ],
    ),
    (
        "flexmd-wasm",
        &[
            "flexmd-core",
            "flexmd-frames",
            "flexmd-ofs",
            "flexmd-detect",
            "flexmd-schema",
            "flexmd-artifact",
            "flexmd-constrain",
        ],
    ),
    ("flexmd-testkit", &[]),
];

/// `cargo metadata` (offline) of the workspace whose manifest is
/// `manifest`, with `extra` flags, as JSON.
pub(crate) fn cargo_metadata(manifest: &Path, extra: &[&str]) -> Result<serde_json::Value> {
    let out = output(
        cargo_command()
            .args(["metadata", "--format-version", "1", "--offline"])
            .args(extra)
            .arg("--manifest-path")
            .arg(manifest),
    )?;
    serde_json::from_str(&out).map_err(|e| format!("cannot read cargo metadata's JSON: {e}"))
}

/// Runs `command`, showing it and how long it took; fails when it does.
pub(crate) fn run(command: &mut Command) -> Result {
    let shown = format!("{command:?}").replace('"', "");
    println!("$ {shown}");
    let started = std::time::Instant::now();
    let status = command
        .status()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    println!("  ({:.0} s)", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

/// Runs `command`, failing with its output when it fails; returns stdout.
pub(crate) fn output(command: &mut Command) -> Result<String> {
    let shown = format!("{command:?}").replace('"', "");
    println!("$ {shown}");
    let out = command
        .output()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{shown} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_dir_follows_cargo_target_dir() {
        let root = Path::new("/repo");
        assert_eq!(target_dir_of(root, None), Path::new("/repo/target"));
        assert_eq!(
            target_dir_of(root, Some("".into())),
            Path::new("/repo/target")
        );
        assert_eq!(
            target_dir_of(root, Some("/cache/t".into())),
            Path::new("/cache/t")
        );
        assert_eq!(
            target_dir_of(root, Some("out".into())),
            Path::new("/repo/out")
        );
    }
}
