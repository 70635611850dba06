//! `cargo xtask dist [--host-only]`: the release artifacts, built into
//! `target/distrib/` exactly as the release workflow
//! (`.github/workflows/release.yml`) publishes them:
//!
//! - `python/`: abi3 wheels for manylinux2014 (x86_64 and aarch64), linked
//!   by zig against glibc 2.17 so that any Linux since 2014 loads them, and
//!   the sdist that builds from source;
//! - `npm/`: the npm package's tarball (`npm pack`), WebAssembly included;
//! - `cli/`: the `flexmd` binary, static (musl), for each architecture, in a
//!   `.tar.gz` with the README, the licences, the man page and completions;
//! - `crates/`: `cargo package` of every published crate;
//! - `SHA256SUMS` over all of them.
//!
//! Every artifact is built with the `dist` profile (no debug info, no
//! symbols, thin LTO) and checked: the wheels' platform tag with
//! `auditwheel`, the tarball's files against its `exports` map, the
//! binary's size, each against a budget ([`BUDGETS`]).
//!
//! The tools come from registries, pinned ([`TOOLS`]): maturin, the zig
//! linker (`ziglang`), auditwheel and cargo-zigbuild in a venv under
//! `target/dist-tools`; missing Rust targets are added with rustup. What
//! cannot be installed is named with the command that installs it, before
//! anything is compiled.
//!
//! `--host-only` builds this machine's architecture only: the artifacts
//! `cargo xtask install-test` can run here (CI builds those).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace::run;
use crate::workspace::{Result, root};

/// The build tools, pinned: the release is built by the same versions
/// wherever it is built.
pub(crate) const TOOLS: &[&str] = &[
    "maturin==1.16.0",
    "ziglang==0.17.1",
    "auditwheel==6.8.2",
    "cargo-zigbuild==0.24.0",
];

/// An architecture the release ships: its name in wheel tags and Rust's
/// glibc and musl targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Arch {
    /// `x86_64`, `aarch64`: as wheel tags and `uname -m` spell it.
    pub(crate) name: &'static str,
    /// The glibc target the wheel is built for.
    pub(crate) gnu: &'static str,
    /// The musl target of the static binary.
    pub(crate) musl: &'static str,
}

pub(crate) const ARCHES: [Arch; 2] = [
    Arch {
        name: "x86_64",
        gnu: "x86_64-unknown-linux-gnu",
        musl: "x86_64-unknown-linux-musl",
    },
    Arch {
        name: "aarch64",
        gnu: "aarch64-unknown-linux-gnu",
        musl: "aarch64-unknown-linux-musl",
    },
];

/// The wheels' platform: glibc 2.17 (manylinux2014), what pip on any
/// glibc Linux since 2014 installs.
pub(crate) const MANYLINUX: &str = "manylinux_2_17";

/// Size budgets, in bytes, for what a user downloads: `(artifact, budget,
/// why that number)`. A build over budget fails, so that growth is a
/// decision, not an accident.
pub(crate) const BUDGETS: &[(&str, u64, &str)] = &[
    (
        "wheel",
        33 << 20,
        "the exact tokenizer tables (cl100k and o200k: 47 MB built, 24 MB compressed) \
         and 6 MB of compressed code; about 10% over the 29.6 MB of 0.1.0",
    ),
    (
        "npm tarball",
        7 << 20,
        "two WebAssembly modules, compressed (the full one counts tokens from \
         tiktoken's 5 MB ranks instead of the tables); about 10% over the 6.3 MB of 0.1.0",
    ),
    (
        "static binary",
        70 << 20,
        "the wheel's library plus the MCP server, its runtime and the CLI, unpacked; \
         about 10% over the 63.1 MB of 0.1.0",
    ),
];

/// The architecture this machine runs, if the release ships it.
pub(crate) fn host() -> Option<Arch> {
    ARCHES
        .into_iter()
        .find(|a| a.name == std::env::consts::ARCH)
}

/// `target/distrib` (as cargo-dist names it: `target/dist` is cargo's own,
/// the `dist` profile's build scripts and macros).
pub(crate) fn dist_dir() -> PathBuf {
    crate::workspace::target_dir().join("distrib")
}

/// The workspace's version (`[workspace.package] version`): the one
/// version of every crate, the wheel and the npm package.
pub(crate) fn version() -> Result<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml"))
        .map_err(|e| format!("cannot read Cargo.toml: {e}"))?;
    workspace_version(&manifest)
        .ok_or_else(|| "Cargo.toml has no [workspace.package] version".into())
}

/// The `version` of `[workspace.package]` in a workspace manifest.
pub(crate) fn workspace_version(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[workspace.package]";
        } else if in_package
            && let Some(value) = line.strip_prefix("version")
            && let Some(value) = value.trim_start().strip_prefix('=')
        {
            return Some(value.trim().trim_matches('"').to_owned());
        }
    }
    None
}

pub(crate) fn run_dist(args: &[String]) -> Result {
    const USAGE: &str = "usage: cargo xtask dist [--host-only]";
    let mut host_only = false;
    for arg in args {
        match arg.as_str() {
            "--host-only" => host_only = true,
            _ => return Err(USAGE.to_owned()),
        }
    }
    let arches: Vec<Arch> = if host_only {
        vec![host().ok_or_else(|| {
            format!(
                "this machine's architecture ({}) is not one the release ships",
                std::env::consts::ARCH
            )
        })?]
    } else {
        ARCHES.to_vec()
    };
    let version = version()?;
    // Everything missing is found (and installed where it can be) before
    // the first compile: no half-built release, no linker dump, and the
    // last release's artifacts kept until then.
    let mut targets = Vec::new();
    for arch in &arches {
        targets.extend([arch.gnu, arch.musl]);
    }
    rust_targets(&targets)?;
    let tools = Tools::install()?;
    let dist = dist_dir();
    if dist.exists() {
        std::fs::remove_dir_all(&dist)
            .map_err(|e| format!("cannot empty {}: {e}", dist.display()))?;
    }

    python(&tools, &arches, &version, &dist.join("python"))?;
    npm(&version, &dist.join("npm"))?;
    for arch in &arches {
        cli(&tools, *arch, &version, &dist.join("cli"))?;
    }
    crates(&version, &dist.join("crates"))?;
    checksums(&dist)?;
    report_sizes(&dist)
}

/// The Rust targets in `wanted` whose standard library `installed` (the
/// names of the folders under the sysroot's `lib/rustlib`, one per line)
/// lacks.
pub(crate) fn missing_targets<'a>(installed: &str, wanted: &[&'a str]) -> Vec<&'a str> {
    wanted
        .iter()
        .filter(|t| !installed.lines().any(|l| l.trim() == **t))
        .copied()
        .collect()
}

/// What to say when Rust targets are missing and rustup could not add them.
pub(crate) fn missing_targets_message(missing: &[&str], why: &str) -> String {
    format!(
        "the Rust standard library for {} is missing and could not be added ({why}): \
         install it with `rustup target add {}` (or your distribution's rust-std \
         package for those targets), then run `cargo xtask dist` again",
        missing.join(", "),
        missing.join(" ")
    )
}

/// The targets whose standard library the active toolchain has: the
/// folders of `$(rustc --print sysroot)/lib/rustlib` that hold a `lib`
/// (true with or without rustup), one per line.
fn installed_targets() -> Result<String> {
    let sysroot = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    let rustlib =
        PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim()).join("lib/rustlib");
    let mut names = String::new();
    for entry in std::fs::read_dir(&rustlib).into_iter().flatten().flatten() {
        if entry.path().join("lib").is_dir() {
            names.push_str(&entry.file_name().to_string_lossy());
            names.push('\n');
        }
    }
    Ok(names)
}

/// Adds the missing `targets` with rustup; says what to install when it
/// cannot (no rustup, no network).
fn rust_targets(targets: &[&str]) -> Result {
    add_missing_targets(&installed_targets()?, targets, "rustup")
}

/// [`rust_targets`] given the installed targets and the rustup to run.
fn add_missing_targets(installed: &str, targets: &[&str], rustup: &str) -> Result {
    let missing = missing_targets(installed, targets);
    if missing.is_empty() {
        return Ok(());
    }
    println!("adding the Rust targets {}", missing.join(", "));
    match Command::new(rustup)
        .args(["target", "add"])
        .args(&missing)
        .status()
    {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(missing_targets_message(
            &missing,
            &format!("rustup failed, {status}"),
        )),
        Err(_) => Err(missing_targets_message(&missing, "rustup is not on PATH")),
    }
}

/// The pinned build tools in their own venv.
pub(crate) struct Tools {
    /// The venv's `bin`, first on PATH for every build (maturin and
    /// cargo-zigbuild find zig through its `python -m ziglang`).
    bin: PathBuf,
}

impl Tools {
    fn install() -> Result<Self> {
        let venv = crate::workspace::target_dir().join("dist-tools/venv");
        let bin = venv.join("bin");
        let tools = Self { bin };
        if tools.ready() {
            return Ok(tools);
        }
        crate::python::tool_venv(&venv, TOOLS, false)?;
        if !tools.ready() {
            return Err(format!(
                "the build tools do not all run from {} after installing them \
                 (maturin, `python -m ziglang`, auditwheel, cargo-zigbuild): \
                 delete that venv and run `cargo xtask dist` again",
                tools.bin.display()
            ));
        }
        Ok(tools)
    }

    /// Whether every tool answers (zig through its Python package).
    fn ready(&self) -> bool {
        let answers = |program: &Path, args: &[&str]| {
            Command::new(program)
                .args(args)
                .output()
                .is_ok_and(|o| o.status.success())
        };
        answers(&self.bin.join("maturin"), &["--version"])
            && answers(&self.bin.join("python"), &["-m", "ziglang", "version"])
            && answers(&self.bin.join("auditwheel"), &["--version"])
            && answers(&self.bin.join("cargo-zigbuild"), &["--version"])
    }

    /// `program` from the venv, with the venv first on PATH.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(self.bin.join(program));
        command
            .current_dir(root())
            .env("PATH", crate::python::path_with(&self.bin));
        command
    }
}

fn make_dir(dir: &Path) -> Result {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))
}

/// The files in `dir` whose names end with `suffix`, sorted.
fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(suffix))
        })
        .collect();
    files.sort();
    files
}

/// The wheels (one per architecture) and the sdist.
fn python(tools: &Tools, arches: &[Arch], version: &str, out: &Path) -> Result {
    make_dir(out)?;
    let manifest = root().join("crates/flexmd-py/Cargo.toml");
    for arch in arches {
        run(tools
            .command("maturin")
            .args(["build", "--manifest-path"])
            .arg(&manifest)
            .args([
                "--profile",
                "dist",
                "--zig",
                "--compatibility",
                "manylinux2014",
                "--target",
                arch.gnu,
                "--out",
            ])
            .arg(out)
            .env("CARGO_TARGET_DIR", crate::workspace::target_dir()))?;
        let wheel = wheel_name(version, *arch);
        let path = out.join(&wheel);
        if !path.exists() {
            return Err(format!(
                "maturin did not write {wheel} (found: {:?})",
                files_ending(out, ".whl")
            ));
        }
        // auditwheel reads the symbol versions the extension needs: glibc
        // 2.17's at most, no library outside the manylinux set.
        let shown = tools
            .command("auditwheel")
            .arg("show")
            .arg(&path)
            .output()
            .map_err(|e| format!("cannot run auditwheel: {e}"))?;
        let text = String::from_utf8_lossy(&shown.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let tag = format!("\"{MANYLINUX}_{}\"", arch.name);
        if !shown.status.success()
            || !text.contains(&format!(
                "consistent with the following platform tag: {tag}"
            ))
        {
            return Err(format!(
                "auditwheel does not find {wheel} to be {tag}: {text}"
            ));
        }
        println!("auditwheel: {wheel} is {tag}");
    }
    run(tools
        .command("maturin")
        .args(["sdist", "--manifest-path"])
        .arg(&manifest)
        .arg("--out")
        .arg(out))?;
    let sdist = out.join(format!("flexmd-{version}.tar.gz"));
    if !sdist.exists() {
        return Err(format!("maturin did not write {}", sdist.display()));
    }
    sdist_resolves(&sdist, version)
}

/// The sdist unpacked must be a workspace Cargo resolves offline, with
/// every crate the extension is built from: pip builds the wheel from
/// exactly that. (A whole build from it, done by hand, takes minutes: see
/// docs/releasing.md.)
fn sdist_resolves(sdist: &Path, version: &str) -> Result {
    let unpacked = crate::workspace::target_dir().join("dist-tools/sdist");
    if unpacked.exists() {
        std::fs::remove_dir_all(&unpacked)
            .map_err(|e| format!("cannot empty {}: {e}", unpacked.display()))?;
    }
    make_dir(&unpacked)?;
    run(Command::new("tar")
        .arg("-C")
        .arg(&unpacked)
        .arg("-xzf")
        .arg(sdist))?;
    let manifest = unpacked.join(format!("flexmd-{version}/crates/flexmd-py/Cargo.toml"));
    let metadata = crate::workspace::cargo_metadata(&manifest, &[])
        .map_err(|e| format!("the sdist is not a workspace Cargo can resolve: {e}"))?;
    let local = metadata["packages"]
        .as_array()
        .map_or(0, |p| p.iter().filter(|p| p["source"].is_null()).count());
    println!("sdist: a workspace of {local} crates that resolves offline");
    Ok(())
}

/// The name maturin gives the abi3 wheel for `arch`.
pub(crate) fn wheel_name(version: &str, arch: Arch) -> String {
    format!(
        "flexmd-{version}-cp39-abi3-manylinux2014_{a}.{MANYLINUX}_{a}.whl",
        a = arch.name
    )
}

/// The npm tarball: the package as `cargo xtask js --build` leaves it.
fn npm(version: &str, out: &Path) -> Result {
    crate::js::build()?;
    make_dir(out)?;
    let package = root().join("npm/flexmd");
    run(Command::new("npm")
        .current_dir(&package)
        .args(["pack", "--silent", "--pack-destination"])
        .arg(out))?;
    let tarball = out.join(format!("flexmd-{version}.tgz"));
    let listed = Command::new("tar")
        .arg("-tzf")
        .arg(&tarball)
        .output()
        .map_err(|e| format!("cannot list {}: {e}", tarball.display()))?;
    let files = String::from_utf8_lossy(&listed.stdout).into_owned();
    let manifest = std::fs::read_to_string(package.join("package.json"))
        .map_err(|e| format!("cannot read npm/flexmd/package.json: {e}"))?;
    let manifest: serde_json::Value =
        serde_json::from_str(&manifest).map_err(|e| format!("npm/flexmd/package.json: {e}"))?;
    let missing = missing_from_tarball(&manifest, &files);
    if !missing.is_empty() {
        return Err(format!(
            "the npm tarball lacks files its package.json points at: {}",
            missing.join(", ")
        ));
    }
    Ok(())
}

/// The files `package.json` points at (`types`, every `exports` target,
/// the WebAssembly modules the entries load) that `listing` (`tar -t`
/// output, `package/` prefixed) does not hold.
pub(crate) fn missing_from_tarball(manifest: &serde_json::Value, listing: &str) -> Vec<String> {
    fn targets(value: &serde_json::Value, into: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => into.push(s.trim_start_matches("./").to_owned()),
            serde_json::Value::Object(map) => map.values().for_each(|v| targets(v, into)),
            _ => {}
        }
    }
    let mut wanted = Vec::new();
    targets(&manifest["exports"], &mut wanted);
    targets(&manifest["types"], &mut wanted);
    wanted.extend(["pkg/flexmd_wasm_bg.wasm", "pkg/flexmd_core_bg.wasm"].map(str::to_owned));
    wanted.sort();
    wanted.dedup();
    let listed: Vec<&str> = listing
        .lines()
        .map(|l| l.trim().trim_start_matches("package/"))
        .collect();
    wanted
        .into_iter()
        .filter(|w| !listed.contains(&w.as_str()))
        .collect()
}

/// The static binary for `arch`, in its archive.
fn cli(tools: &Tools, arch: Arch, version: &str, out: &Path) -> Result {
    let native = host() == Some(arch);
    // The host's musl target links with the system's cc (Rust brings
    // musl's C library itself); another architecture's with zig.
    let mut build = if native {
        let mut command = crate::workspace::cargo_command();
        command.arg("build");
        command
    } else {
        let mut command = tools.command("cargo-zigbuild");
        command.arg("zigbuild");
        command
    };
    run(build
        .args([
            "--profile",
            "dist",
            "--target",
            arch.musl,
            "-p",
            "flexmd-cli",
        ])
        .env("CARGO_TARGET_DIR", crate::workspace::target_dir()))?;
    let binary = crate::workspace::target_dir()
        .join(arch.musl)
        .join("dist/flexmd");
    let name = format!("flexmd-{version}-{}", arch.musl);
    let staging = crate::workspace::target_dir()
        .join("dist-tools/stage")
        .join(&name);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .map_err(|e| format!("cannot empty {}: {e}", staging.display()))?;
    }
    make_dir(&staging.join("completions"))?;
    let copy = |from: &Path, to: &str| {
        std::fs::copy(from, staging.join(to))
            .map(drop)
            .map_err(|e| format!("cannot copy {}: {e}", from.display()))
    };
    copy(&binary, "flexmd")?;
    for file in ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG.md"] {
        copy(&root().join(file), file)?;
    }
    copy(&root().join("docs/man/flexmd.1"), "flexmd.1")?;
    for entry in std::fs::read_dir(root().join("docs/completions"))
        .map_err(|e| format!("cannot read docs/completions: {e}"))?
        .flatten()
    {
        let file = format!("completions/{}", entry.file_name().to_string_lossy());
        copy(&entry.path(), &file)?;
    }
    make_dir(out)?;
    let archive = out.join(format!("{name}.tar.gz"));
    // Reproducible: sorted names, no owner, the commit's time.
    run(Command::new("tar")
        .arg("-C")
        .arg(staging.parent().unwrap_or(&staging))
        .args([
            "--sort=name",
            "--owner=0",
            "--group=0",
            "--numeric-owner",
            "--mtime=@0",
            "-czf",
        ])
        .arg(&archive)
        .arg(&name))
}

/// `cargo package` of every published crate, copied to `out`.
fn crates(version: &str, out: &Path) -> Result {
    let published = crate::workspace::published_crates();
    let mut package = vec!["package", "--no-verify", "--allow-dirty", "--offline"];
    for krate in &published {
        package.extend(["-p", krate]);
    }
    crate::workspace::cargo(&package)?;
    make_dir(out)?;
    for krate in published {
        let file = format!("{krate}-{version}.crate");
        let from = crate::workspace::target_dir().join("package").join(&file);
        std::fs::copy(&from, out.join(&file))
            .map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
    }
    Ok(())
}

/// Every file under `dir`, relative to it, sorted.
pub(crate) fn artifacts(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                found.push(relative.to_owned());
            }
        }
    }
    found.sort();
    found
}

/// `SHA256SUMS` (as `sha256sum -c` reads it) over every artifact.
fn checksums(dist: &Path) -> Result {
    let files: Vec<PathBuf> = artifacts(dist)
        .into_iter()
        .filter(|p| p != Path::new("SHA256SUMS"))
        .collect();
    let summed =
        crate::workspace::output(Command::new("sha256sum").current_dir(dist).args(&files))?;
    std::fs::write(dist.join("SHA256SUMS"), summed)
        .map_err(|e| format!("cannot write SHA256SUMS: {e}"))
}

/// The budget row an artifact falls under, by its path in `target/distrib`.
pub(crate) fn budget_of(artifact: &Path) -> Option<&'static (&'static str, u64, &'static str)> {
    let name = artifact.to_string_lossy();
    let row = if name.ends_with(".whl") {
        "wheel"
    } else if name.starts_with("npm/") {
        "npm tarball"
    } else {
        return None;
    };
    BUDGETS.iter().find(|b| b.0 == row)
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / f64::from(1 << 20))
}

/// Prints every artifact's size and fails when one is over its budget
/// (the static binaries are measured unpacked, as they land on disk).
fn report_sizes(dist: &Path) -> Result {
    let mut over = Vec::new();
    println!("\nrelease artifacts in {}:", dist.display());
    for artifact in artifacts(dist) {
        let size = std::fs::metadata(dist.join(&artifact)).map_or(0, |m| m.len());
        let budget = budget_of(&artifact);
        let shown = budget.map_or(String::new(), |b| format!(" (budget {})", megabytes(b.1)));
        println!("  {:<72} {:>9}{shown}", artifact.display(), megabytes(size));
        if let Some((what, limit, why)) = budget
            && size > *limit
        {
            over.push(format!(
                "{} is {} but a {what} has {} ({why})",
                artifact.display(),
                megabytes(size),
                megabytes(*limit)
            ));
        }
    }
    for arch in ARCHES {
        let binary = crate::workspace::target_dir()
            .join(arch.musl)
            .join("dist/flexmd");
        let Ok(meta) = std::fs::metadata(&binary) else {
            continue;
        };
        if let Some((what, limit, why)) = BUDGETS.iter().find(|b| b.0 == "static binary") {
            println!(
                "  {:<72} {:>9} (budget {})",
                format!("flexmd for {} (unpacked)", arch.musl),
                megabytes(meta.len()),
                megabytes(*limit)
            );
            if meta.len() > *limit {
                over.push(format!(
                    "the {} binary is {} but a {what} has {} ({why})",
                    arch.musl,
                    megabytes(meta.len()),
                    megabytes(*limit)
                ));
            }
        }
    }
    if over.is_empty() {
        Ok(())
    } else {
        Err(over.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_targets_are_the_wanted_ones_rustup_does_not_list() {
        let installed = "etc\nwasm32-unknown-unknown\nx86_64-unknown-linux-gnu\n";
        assert_eq!(
            missing_targets(
                installed,
                &["x86_64-unknown-linux-gnu", "x86_64-unknown-linux-musl"]
            ),
            vec!["x86_64-unknown-linux-musl"]
        );
        assert!(missing_targets(installed, &["x86_64-unknown-linux-gnu"]).is_empty());
    }

    #[test]
    fn without_rustup_a_missing_target_is_an_error_that_names_the_command() {
        let installed = "x86_64-unknown-linux-gnu\n";
        let wanted = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-musl"];
        let error = add_missing_targets(installed, &wanted, "/nonexistent/rustup").unwrap_err();
        assert_eq!(
            error,
            "the Rust standard library for aarch64-unknown-linux-musl is missing and could \
             not be added (rustup is not on PATH): install it with `rustup target add \
             aarch64-unknown-linux-musl` (or your distribution's rust-std package for those \
             targets), then run `cargo xtask dist` again"
        );
        // Nothing missing: rustup is not even asked.
        assert!(add_missing_targets(installed, &wanted[..1], "/nonexistent/rustup").is_ok());
    }

    #[test]
    fn a_missing_target_is_named_with_the_command_that_installs_it() {
        let message = missing_targets_message(
            &["aarch64-unknown-linux-gnu", "aarch64-unknown-linux-musl"],
            "rustup is not on PATH",
        );
        assert!(
            message.contains(
                "`rustup target add aarch64-unknown-linux-gnu aarch64-unknown-linux-musl`"
            ),
            "{message}"
        );
        assert!(message.contains("rustup is not on PATH"), "{message}");
    }

    #[test]
    fn the_workspace_version_is_read_from_its_package_table() {
        let manifest = "[workspace]\nmembers = []\n\n[workspace.package]\nedition = \"2024\"\nversion = \"1.2.3\"\n\n[workspace.dependencies]\nx = { version = \"9\" }\n";
        assert_eq!(workspace_version(manifest).as_deref(), Some("1.2.3"));
        assert_eq!(workspace_version("[package]\nversion = \"1\"\n"), None);
    }

    #[test]
    fn wheel_names_carry_abi3_and_manylinux2014() {
        assert_eq!(
            wheel_name("0.2.0", ARCHES[1]),
            "flexmd-0.2.0-cp39-abi3-manylinux2014_aarch64.manylinux_2_17_aarch64.whl"
        );
    }

    #[test]
    fn a_tarball_without_an_exported_file_is_caught() {
        let manifest = serde_json::json!({
            "types": "./index.d.ts",
            "exports": {
                ".": { "types": "./index.d.ts", "node": "./node.js", "default": "./browser.js" },
                "./core": { "node": "./core.node.js" }
            }
        });
        let complete = "package/index.d.ts\npackage/node.js\npackage/browser.js\npackage/core.node.js\npackage/pkg/flexmd_wasm_bg.wasm\npackage/pkg/flexmd_core_bg.wasm\n";
        assert!(missing_from_tarball(&manifest, complete).is_empty());
        let without = complete.replace("package/core.node.js\n", "");
        assert_eq!(
            missing_from_tarball(&manifest, &without),
            vec!["core.node.js"]
        );
    }

    #[test]
    fn wheels_and_the_npm_tarball_have_budgets_and_crates_do_not() {
        assert_eq!(
            budget_of(Path::new(
                "python/flexmd-0.1.0-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
            ))
            .map(|b| b.0),
            Some("wheel")
        );
        assert_eq!(
            budget_of(Path::new("npm/flexmd-0.1.0.tgz")).map(|b| b.0),
            Some("npm tarball")
        );
        assert_eq!(budget_of(Path::new("crates/flexmd-core-0.1.0.crate")), None);
    }
}
